//! Route tests of the emulator (`safe-ad emulator`): every route, the launcher's exact statuses
//! and bodies, the auth table, the state machine, strict handle parsing, handle eviction, the hang
//! mode, and the binary's `-- COMMAND` mode.
//!
//! Each test runs its own emulator on a free loopback port: in-process (on a thread with its own
//! runtime, as a separate process would be) or, for the CLI behaviour, the real binary. Requests
//! are written by hand over TCP so that the exact bytes on the wire are under test.

use std::io::{BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};

use safe_ad_emulator::{start, Options};
use serde_json::json;

use crate::harness::emulator::counts;
use crate::harness::http::{name, read_answer, request_bytes, send, Resp};
use crate::harness::in_process::Emu;
use crate::harness::*;

// ---- helpers ----------------------------------------------------------------------------------

const DATA_EXISTS: &str =
    r#"{"errorCode":-23,"description":"CoreError::MutationFailure::MutationError::DataExists"}"#;
const NO_SUCH_DATA: &str =
    r#"{"errorCode":-22,"description":"CoreError::MutationFailure::MutationError::NoSuchData"}"#;
const INVALID_SUCCESSOR: &str = r#"{"errorCode":-25,"description":"CoreError::MutationFailure::MutationError::InvalidSuccessor"}"#;
const BAD_AD_HANDLE: &str =
    r#"{"errorCode":-1515,"description":"FfiError::InvalidAppendableDataHandle"}"#;
const BAD_DATA_ID: &str = r#"{"errorCode":-1514,"description":"FfiError::InvalidDataIdHandle"}"#;
const GET_NO_SUCH_DATA: &str =
    r#"{"errorCode":-18,"description":"CoreError::GetFailure::GetError::NoSuchData"}"#;
const NOT_FOUND: &str = r#"{"errorCode":404,"description":"Endpoint Not Found"}"#;
const NO_TOKEN: &str = r#"{"errorCode":400,"description":"Unauthorised access"}"#;
const NOT_GRANTED: &str =
    r#"{"errorCode":400,"description":"Low level api access is not granted"}"#;

/// The four operations of the spec, as (method, path prefix).
const FOUR: [(&str, &str); 4] = [
    ("PUT", "/appendable-data/"),
    ("POST", "/appendable-data/"),
    ("DELETE", "/appendable-data/clear-data/"),
    ("DELETE", "/appendable-data/clear-deleted-data/"),
];

/// Reads one response with a Content-Length body from a kept-alive connection.
fn read_one(reader: &mut BufReader<TcpStream>) -> Resp {
    read_answer(reader).expect("connection closed early")
}

// ---- basics -----------------------------------------------------------------------------------

#[test]
fn health_and_prefixes() {
    let emu = Emu::demo();
    // `/health` is mounted at the root only, as the launcher had it.
    emu.anon("GET", "/health").ok();
    for prefix in ["/0.5", "/0.6"] {
        emu.anon("GET", &format!("{prefix}/health"))
            .is(404, "application/json", NOT_FOUND);
    }
    for prefix in ["", "/0.5", "/0.6"] {
        // The same state behind every prefix.
        let r = emu.anon("GET", &format!("{prefix}/appendable-data/metadata/1"));
        assert_eq!(r.status, 200, "{prefix}");
    }
    let head = emu.anon("HEAD", "/health");
    assert_eq!((head.status, head.body.as_str()), (200, ""));
    emu.authed("PUT", "/0.5/appendable-data/0").ok();
    emu.authed("PUT", "/0.6/appendable-data/0")
        .is(400, "application/json", DATA_EXISTS);
}

#[test]
fn unknown_routes_and_methods_are_404() {
    let emu = Emu::demo();
    let strict = Emu::with(Options {
        strict_paths: true,
        ..Options::default()
    });
    for (method, path) in [
        ("GET", "/"),
        ("GET", "/nope"),
        ("GET", "/0.7/health"),
        ("GET", "/0.5"),
        ("GET", "/appendable-data/1"),
        ("PATCH", "/appendable-data/1"),
        ("PUT", "/appendable-data/"),
        ("DELETE", "/appendable-data/clear-data"),
        ("DELETE", "/appendable-data/clear-data/"),
        ("DELETE", "/appendable-data/clear-data/1/2"),
        ("PUT", "/auth"),
    ] {
        // (`GET /appendable-data/clear-data/1` is not here: it is the data-id-at-index route
        // with a handle of "clear-data", a 400.)
        for emu in [&emu, &strict] {
            let r = emu.authed(method, path);
            assert_eq!(r.status, 404, "{method} {path}");
            r.is(404, "application/json", NOT_FOUND);
        }
    }
    // The launcher's matching (the default) lets a trailing slash, any case and any method on
    // /health through; --strict-paths does not.
    for (method, path) in [
        ("GET", "/health/"),
        ("PUT", "/appendable-data/1/"),
        ("GET", "/Appendable-Data/metadata/1"),
    ] {
        assert_ne!(emu.authed(method, path).status, 404, "{method} {path}");
        strict
            .authed(method, path)
            .is(404, "application/json", NOT_FOUND);
    }
    emu.authed("POST", "/health").ok();
    strict.authed("POST", "/health").ok();
}

#[test]
fn keep_alive_serves_many_requests_on_one_connection() {
    let emu = Emu::demo();
    let stream = TcpStream::connect(emu.addr).expect("connect");
    stream.set_read_timeout(Some(DEADLINE)).expect("timeout");
    let mut writer = stream.try_clone().expect("clone");
    let mut reader = BufReader::new(stream);
    let auth = emu.bearer();
    for round in 0..50 {
        let path = if round % 2 == 0 {
            "/appendable-data/clear-data/1"
        } else {
            "/appendable-data/clear-deleted-data/1"
        };
        writer
            .write_all(&request_bytes(
                "DELETE",
                path,
                &[("Authorization", &auth)],
                None,
                false,
            ))
            .expect("write");
        read_one(&mut reader).ok();
    }
    // Pipelined requests are answered in order.
    let mut both = request_bytes("GET", "/health", &[], None, false);
    both.extend(request_bytes("GET", "/nope", &[], None, false));
    writer.write_all(&both).expect("write");
    read_one(&mut reader).ok();
    read_one(&mut reader).is(404, "application/json", NOT_FOUND);
}

// ---- authorization ----------------------------------------------------------------------------

#[test]
fn auth_table_for_the_four_operations() {
    let emu = Emu::demo();
    let no_lla = emu.token_with(r#"["SAFE_DRIVE_ACCESS"]"#);
    let revoked = emu.token_with(r#"["LOW_LEVEL_API"]"#);
    send(
        emu.addr,
        "DELETE",
        "/auth",
        &[("Authorization", &format!("Bearer {revoked}"))],
        None,
    )
    .ok();
    for (method, prefix) in FOUR {
        let path = format!("{prefix}1");
        // No header: 401, JSON with errorCode 400.
        emu.anon(method, &path)
            .is(401, "application/json", NO_TOKEN);
        // An empty header counts as none (the launcher tested it for truthiness).
        send(emu.addr, method, &path, &[("Authorization", "")], None).is(
            401,
            "application/json",
            NO_TOKEN,
        );
        // Malformed, unknown, revoked: 401 text/plain `Unauthorized`.
        for value in [
            format!("Bearer  {}", emu.token),
            format!("Bearer{}", emu.token),
            format!("Bearer {} x", emu.token),
            format!("Basic {}", emu.token),
            emu.token.clone(),
            "Bearer".to_owned(),
            "Bearer not-a-token".to_owned(),
            format!("Bearer {revoked}"),
        ] {
            send(emu.addr, method, &path, &[("Authorization", &value)], None).is(
                401,
                "text/plain",
                "Unauthorized",
            );
        }
        // Valid token without LOW_LEVEL_API: 403 JSON.
        send(
            emu.addr,
            method,
            &path,
            &[("Authorization", &format!("Bearer {no_lla}"))],
            None,
        )
        .is(403, "application/json", NOT_GRANTED);
    }
    // The scheme is case-insensitive.
    for scheme in ["bearer", "BEARER", "bEaReR"] {
        send(
            emu.addr,
            "DELETE",
            "/appendable-data/clear-deleted-data/1",
            &[("Authorization", &format!("{scheme} {}", emu.token))],
            None,
        )
        .ok();
    }
}

#[test]
fn a_bad_header_is_refused_everywhere_even_on_open_routes() {
    let emu = Emu::demo();
    let bad = [("Authorization", "Bearer nope")];
    for (method, path) in [
        ("GET", "/health"),
        ("GET", "/nope"),
        ("GET", "/appendable-data/metadata/1"),
        ("DELETE", "/appendable-data/handle/1"),
    ] {
        send(emu.addr, method, path, &bad, None).is(401, "text/plain", "Unauthorized");
    }
    // The handle was not dropped by the refused request.
    emu.meta(1);
}

#[test]
fn optional_and_open_routes_without_a_token() {
    let emu = Emu::demo();
    let r = emu.anon("GET", "/appendable-data/metadata/1");
    r.is(
        200,
        "application/json",
        r#"{"isOwner":false,"version":1,"filterType":"BlackList","filterLength":2,"dataLength":3,"deletedDataLength":2}"#,
    );
    let r = emu.anon("GET", "/appendable-data/handle/3");
    r.is(
        200,
        "application/json",
        r#"{"handleId":6,"isOwner":false,"version":1,"filterType":"BlackList","dataLength":3,"deletedDataLength":2}"#,
    );
    let r = send(
        emu.addr,
        "POST",
        "/data-id/appendable-data",
        &[("Content-Type", "application/json")],
        Some(format!(r#"{{"name":"{}"}}"#, name(1)).as_bytes()),
    );
    r.is(200, "application/json", r#"{"handleId":7}"#);
    emu.anon("DELETE", "/appendable-data/handle/6").ok();
    emu.anon("DELETE", "/appendable-data/handle/6")
        .is(400, "application/json", BAD_AD_HANDLE);
    // A token without LOW_LEVEL_API may read, and then owns what it reads.
    let reader = emu.token_with("[]");
    let r = send(
        emu.addr,
        "GET",
        "/appendable-data/metadata/1",
        &[("Authorization", &format!("Bearer {reader}"))],
        None,
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["isOwner"], true);
    // ... but not write.
    for (method, path, body) in [
        ("POST", "/appendable-data", Some(&b"{}"[..])),
        ("PUT", "/appendable-data/1/3", None),
        ("DELETE", "/appendable-data/1/0", None),
    ] {
        let headers = [
            ("Authorization", format!("Bearer {reader}")),
            ("Content-Type", "application/json".to_owned()),
        ];
        let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
        send(emu.addr, method, path, &headers, body).is(403, "application/json", NOT_GRANTED);
        emu.anon(method, path).is(401, "application/json", NO_TOKEN);
    }
}

#[test]
fn post_auth_validation_and_approval() {
    let emu = Emu::demo();
    let cases = [
        ("{}", "Fields are missing"),
        (r#"{"app":{}}"#, "Fields are missing"),
        (
            r#"{"app":{"name":"a","id":"b","vendor":"c"}}"#,
            "Fields are missing",
        ),
        (
            r#"{"app":{"name":"","id":"b","vendor":"c","version":"1"}}"#,
            "Fields are missing",
        ),
        (
            r#"{"app":{"name":" ","id":"b","vendor":"c","version":"1"}}"#,
            "Values cannot be empty",
        ),
        (
            r#"{"app":{"name":"a","id":"b","vendor":"c","version":"1"}}"#,
            "Permission field is missing",
        ),
        (
            r#"{"app":{"name":"a","id":"b","vendor":"c","version":"1"},"permissions":"LOW_LEVEL_API"}"#,
            "Invalid permissions requested",
        ),
        (
            r#"{"app":{"name":"a","id":"b","vendor":"c","version":"1"},"permissions":["low_level_api"]}"#,
            "Invalid permissions requested",
        ),
        (
            r#"{"app":{"name":"a","id":"b","vendor":"c","version":"1"},"permissions":null}"#,
            "Invalid permissions requested",
        ),
    ];
    for (body, description) in cases {
        emu.json("POST", "/auth", None, body).is(
            400,
            "application/json",
            &format!(r#"{{"errorCode":400,"description":"{description}"}}"#),
        );
    }
    // Without a JSON content type the body is not read: fields are missing.
    send(
        emu.addr,
        "POST",
        "/auth",
        &[("Content-Type", "text/plain")],
        Some(br#"{"app":{"name":"a","id":"b","vendor":"c","version":"1"},"permissions":[]}"#),
    )
    .is(
        400,
        "application/json",
        r#"{"errorCode":400,"description":"Fields are missing"}"#,
    );
    // Malformed JSON failed in the launcher's body parser, which it answered with its 404.
    emu.json("POST", "/auth", None, "{not json")
        .is(404, "application/json", NOT_FOUND);

    // Approval: the token carries exactly what was asked for.
    let r = emu.json(
        "POST",
        "/auth",
        None,
        r#"{"app":{"name":"a","id":"b","vendor":"c","version":"1"},"permissions":["SAFE_DRIVE_ACCESS","LOW_LEVEL_API"]}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.content_type.starts_with("application/json"));
    let v = r.json();
    assert_eq!(
        v["permissions"],
        serde_json::json!(["SAFE_DRIVE_ACCESS", "LOW_LEVEL_API"])
    );
    let token = v["token"].as_str().expect("token");
    assert_eq!(token.split('.').count(), 3, "JWT-shaped: {token}");
    let auth = format!("Bearer {token}");
    send(
        emu.addr,
        "PUT",
        "/appendable-data/0",
        &[("Authorization", &auth)],
        None,
    )
    .ok();
    send(emu.addr, "GET", "/auth", &[("Authorization", &auth)], None).ok();
    send(
        emu.addr,
        "DELETE",
        "/auth",
        &[("Authorization", &auth)],
        None,
    )
    .ok();
    send(emu.addr, "GET", "/auth", &[("Authorization", &auth)], None).is(
        401,
        "text/plain",
        "Unauthorized",
    );
    send(
        emu.addr,
        "POST",
        "/appendable-data/1",
        &[("Authorization", &auth)],
        None,
    )
    .is(401, "text/plain", "Unauthorized");
    // GET and DELETE /auth want a token.
    for method in ["GET", "DELETE"] {
        emu.anon(method, "/auth").is(
            401,
            "application/json",
            r#"{"errorCode":400,"description":"Unauthorised"}"#,
        );
    }
    // The startup token can be revoked too.
    emu.authed("DELETE", "/auth").ok();
    emu.authed("GET", "/auth")
        .is(401, "text/plain", "Unauthorized");
}

#[test]
fn deny_auth_refuses_valid_requests_only() {
    let emu = Emu::with(Options {
        deny_auth: true,
        ..Options::default()
    });
    emu.json(
        "POST",
        "/auth",
        None,
        r#"{"app":{"name":"a","id":"b","vendor":"c","version":"1"},"permissions":["LOW_LEVEL_API"]}"#,
    )
    .is(401, "text/html", "Unauthorised");
    emu.json("POST", "/auth", None, "{}").is(
        400,
        "application/json",
        r#"{"errorCode":400,"description":"Fields are missing"}"#,
    );
    // The startup token still works.
    emu.authed("GET", "/auth").ok();
}

// ---- the four operations ----------------------------------------------------------------------

#[test]
fn put_success_then_data_exists() {
    let emu = Emu::demo();
    emu.authed("PUT", "/appendable-data/0").ok();
    emu.authed("PUT", "/appendable-data/0")
        .is(400, "application/json", DATA_EXISTS);
    // Already on the network from the start.
    emu.authed("PUT", "/appendable-data/1")
        .is(400, "application/json", DATA_EXISTS);
    // After the PUT, POST works on it; the handle's copy is then what the POST sent, without
    // data (safe_core's `appendable_data_post`), while the network keeps the three items.
    emu.authed("POST", "/appendable-data/0").ok();
    assert_eq!(counts(&emu.meta(0)), (1, 0, 0));
}

#[test]
fn post_before_put_is_no_such_data_404() {
    let emu = Emu::demo();
    emu.authed("POST", "/appendable-data/0")
        .is(404, "application/json", NO_SUCH_DATA);
    let fresh = emu.create(9, json!({}));
    emu.authed("POST", &format!("/appendable-data/{fresh}")).is(
        404,
        "application/json",
        NO_SUCH_DATA,
    );
}

#[test]
fn stale_post_is_invalid_successor_until_refetched() {
    let emu = Emu::demo();
    emu.authed("POST", "/appendable-data/2")
        .is(400, "application/json", INVALID_SUCCESSOR);
    // A fresh copy through the data id posts fine.
    let r = emu.authed("GET", "/appendable-data/handle/4");
    let fresh = r.json()["handleId"].as_u64().expect("handleId");
    assert_eq!(fresh, 6);
    emu.authed("POST", &format!("/appendable-data/{fresh}"))
        .ok();
    // Two copies of one data: the second to post is stale.
    let a = emu.authed("GET", "/appendable-data/handle/3").json()["handleId"]
        .as_u64()
        .expect("a");
    let b = emu.authed("GET", "/appendable-data/handle/3").json()["handleId"]
        .as_u64()
        .expect("b");
    emu.authed("POST", &format!("/appendable-data/{a}")).ok();
    emu.authed("POST", &format!("/appendable-data/{b}")).is(
        400,
        "application/json",
        INVALID_SUCCESSOR,
    );
    // The handle that posted can post again.
    emu.authed("POST", &format!("/appendable-data/{a}")).ok();
}

#[test]
fn unknown_handles_are_1515_for_all_four() {
    let emu = Emu::demo();
    for (method, prefix) in FOUR {
        for handle in ["6", "77", "18446744073709551615"] {
            emu.authed(method, &format!("{prefix}{handle}")).is(
                400,
                "application/json",
                BAD_AD_HANDLE,
            );
        }
    }
    let emu = Emu::empty();
    for (method, prefix) in FOUR {
        emu.authed(method, &format!("{prefix}0"))
            .is(400, "application/json", BAD_AD_HANDLE);
    }
}

#[test]
fn strict_handle_parsing_in_paths() {
    let emu = Emu::with(Options {
        strict_paths: true,
        ..Options::default()
    });
    for (method, prefix) in FOUR {
        for bad in [
            "-1",
            "+1",
            "01",
            "00",
            "010",
            "0x1",
            "1a",
            "12abc",
            "1.0",
            "%31",
            "1e2",
            "18446744073709551616",
            "99999999999999999999",
        ] {
            let r = emu.authed(method, &format!("{prefix}{bad}"));
            let description = r.error(400, 400);
            assert!(description.contains("plain decimal"), "{description}");
        }
    }
    for path in ["/appendable-data/metadata/01", "/appendable-data/handle/-3"] {
        emu.authed("GET", path).error(400, 400);
    }
    emu.authed("DELETE", "/appendable-data/1/01")
        .error(400, 400);
    emu.authed("PUT", "/appendable-data/1/0x3").error(400, 400);
    emu.authed("DELETE", "/appendable-data/handle/1x")
        .error(400, 400);
    // Auth is checked before the handle.
    emu.anon("PUT", "/appendable-data/01")
        .is(401, "application/json", NO_TOKEN);
    // Nothing was touched: the demo state is intact.
    assert_eq!(counts(&emu.meta(1)), (1, 3, 2));
}

// ---- the state machine ------------------------------------------------------------------------

#[test]
fn clears_change_the_local_copy_until_a_post_merges() {
    let emu = Emu::demo();
    assert_eq!(counts(&emu.meta(1)), (1, 3, 2));
    assert_eq!(counts(&emu.fetch(3)), (1, 3, 2));

    // clear-data: every item moves to deleted_data, locally.
    emu.authed("DELETE", "/appendable-data/clear-data/1").ok();
    assert_eq!(counts(&emu.meta(1)), (1, 0, 5));
    assert_eq!(
        counts(&emu.fetch(3)),
        (1, 3, 2),
        "not on the network before a save"
    );
    // Clearing again changes nothing.
    emu.authed("DELETE", "/appendable-data/clear-data/1").ok();
    assert_eq!(counts(&emu.meta(1)), (1, 0, 5));

    // POST: version + 1, the network loses the deleted items and takes the deleted list.
    emu.authed("POST", "/appendable-data/1").ok();
    assert_eq!(counts(&emu.fetch(3)), (2, 0, 5));
    assert_eq!(counts(&emu.meta(1)), (2, 0, 5));

    // clear-deleted-data: empties deleted_data, locally.
    emu.authed("DELETE", "/appendable-data/clear-deleted-data/1")
        .ok();
    assert_eq!(counts(&emu.meta(1)), (2, 0, 0));
    assert_eq!(
        counts(&emu.fetch(3)),
        (2, 0, 5),
        "not on the network before a save"
    );
    emu.authed("POST", "/appendable-data/1").ok();
    assert_eq!(counts(&emu.fetch(3)), (3, 0, 0));
}

#[test]
fn clear_deleted_data_alone_then_post() {
    let emu = Emu::demo();
    emu.authed("DELETE", "/appendable-data/clear-deleted-data/1")
        .ok();
    assert_eq!(counts(&emu.meta(1)), (1, 3, 0));
    assert_eq!(counts(&emu.fetch(3)), (1, 3, 2));
    emu.authed("POST", "/appendable-data/1").ok();
    assert_eq!(counts(&emu.fetch(3)), (2, 3, 0));
}

#[test]
fn clears_before_put_are_saved_by_the_put() {
    let emu = Emu::demo();
    assert_eq!(counts(&emu.meta(0)), (0, 3, 0));
    emu.authed("DELETE", "/appendable-data/clear-data/0").ok();
    assert_eq!(counts(&emu.meta(0)), (0, 0, 3));
    emu.authed("PUT", "/appendable-data/0").ok();
    // Find it on the network through a data id of its name.
    let demo_name = "c2FmZS1hZCBkZW1vOiB1bnNhdmVkLi4uLi4uLi4uLi4=";
    let r = emu.json(
        "POST",
        "/data-id/appendable-data",
        None,
        &format!(r#"{{"name":"{demo_name}"}}"#),
    );
    let id = r.json()["handleId"].as_u64().expect("handleId");
    assert_eq!(counts(&emu.fetch(id)), (0, 0, 3));
}

#[test]
fn post_keeps_items_appended_by_others_and_drops_deleted_ones() {
    let emu = Emu::demo();
    // Append a structured-data id to the saved data: it goes to the network, not the local copy.
    let r = emu.json(
        "POST",
        "/data-id/structured-data",
        None,
        &format!(r#"{{"name":"{}","typeTag":500}}"#, name(7)),
    );
    r.is(200, "application/json", r#"{"handleId":6}"#);
    emu.authed("PUT", "/appendable-data/1/6").ok();
    assert_eq!(
        counts(&emu.meta(1)),
        (1, 3, 2),
        "local copy unchanged by an append"
    );
    assert_eq!(counts(&emu.fetch(3)), (1, 4, 2));
    // Remove one item locally (index 0), then post: the network keeps the appended item.
    emu.authed("DELETE", "/appendable-data/1/0").ok();
    assert_eq!(counts(&emu.meta(1)), (1, 2, 3));
    emu.authed("POST", "/appendable-data/1").ok();
    assert_eq!(counts(&emu.fetch(3)), (2, 3, 3));
    // Index errors and unknown handles.
    emu.authed("DELETE", "/appendable-data/1/3").is(
        400,
        "application/json",
        r#"{"errorCode":-1524,"description":"FfiError::InvalidIndex"}"#,
    );
    emu.authed("DELETE", "/appendable-data/99/0")
        .is(400, "application/json", BAD_AD_HANDLE);
    emu.authed("PUT", "/appendable-data/1/99")
        .is(400, "application/json", BAD_DATA_ID);
    emu.authed("PUT", "/appendable-data/99/6")
        .is(400, "application/json", BAD_AD_HANDLE);
    // Appending to data that is not on the network.
    emu.authed("PUT", "/appendable-data/0/6")
        .is(404, "application/json", NO_SUCH_DATA);
}

// ---- the other routes -------------------------------------------------------------------------

#[test]
fn metadata_fields() {
    let emu = Emu::demo();
    emu.authed("GET", "/appendable-data/metadata/0").is(
        200,
        "application/json",
        r#"{"isOwner":true,"version":0,"filterType":"BlackList","filterLength":0,"dataLength":3,"deletedDataLength":0}"#,
    );
    emu.authed("GET", "/appendable-data/metadata/2").is(
        200,
        "application/json",
        r#"{"isOwner":true,"version":1,"filterType":"BlackList","filterLength":0,"dataLength":2,"deletedDataLength":0}"#,
    );
    emu.authed("GET", "/appendable-data/metadata/3")
        .is(400, "application/json", BAD_AD_HANDLE);
    // A white list.
    let r = emu.json(
        "POST",
        "/appendable-data",
        Some(&emu.bearer()),
        &format!(
            r#"{{"name":"{}","filterType":"WHITE_LIST","isPrivate":true}}"#,
            name(3)
        ),
    );
    r.is(200, "application/json", r#"{"handleId":6}"#);
    emu.authed("GET", "/appendable-data/metadata/6").is(
        200,
        "application/json",
        r#"{"isOwner":true,"version":0,"filterType":"WhiteList","filterLength":0,"dataLength":0,"deletedDataLength":0}"#,
    );
}

#[test]
fn create_and_data_id_validation() {
    let emu = Emu::empty();
    let auth = emu.bearer();
    let bad = |body: &str, description: &str| {
        emu.json("POST", "/appendable-data", Some(&auth), body).is(
            400,
            "application/json",
            &format!(r#"{{"errorCode":400,"description":"{description}"}}"#),
        );
    };
    bad("{}", "name field is missing");
    bad(r#"{"name":""}"#, "name field is missing");
    bad(r#"{"name":"c2hvcnQ="}"#, "Invalid name field");
    bad(r#"{"name":"!!!!"}"#, "Invalid name field");
    // Node 6's `new Buffer(42, 'base64')` threw; the launcher answered with the exception.
    bad(
        r#"{"name":42}"#,
        "If encoding is specified then the first argument must be a string",
    );
    bad(
        &format!(r#"{{"name":"{}","isPrivate":"yes"}}"#, name(1)),
        "Invalid isPrivate field",
    );
    // The data-id routes did not check `name`: a missing one failed in `new Buffer`, a short one
    // was taken as it was (the emulator pads it; the launcher's core read past it).
    for path in ["/data-id/appendable-data", "/data-id/structured-data"] {
        emu.json("POST", path, None, "{}").is(
            400,
            "application/json",
            r#"{"errorCode":400,"description":"First argument must be a string, Buffer, ArrayBuffer, Array, or array-like object."}"#,
        );
    }
    // Nothing above used a handle id: the first one is still 0.
    assert_eq!(emu.create(1, json!({})), 0);
    emu.json(
        "POST",
        "/data-id/appendable-data",
        None,
        r#"{"name":"AAAA"}"#,
    )
    .is(200, "application/json", r#"{"handleId":1}"#);
    // filterKeys name sign-key handles; 7 is not one: -1519 (the new handle is used up).
    emu.json(
        "POST",
        "/appendable-data",
        Some(&auth),
        &format!(r#"{{"name":"{}","filterKeys":[7]}}"#, name(2)),
    )
    .is(
        400,
        "application/json",
        r#"{"errorCode":-1519,"description":"FfiError::InvalidSignKeyHandle"}"#,
    );
    assert_eq!(emu.create(3, json!({})), 3);
}

#[test]
fn one_counter_for_every_handle_type() {
    let emu = Emu::empty();
    assert_eq!(emu.create(1, json!({})), 0);
    let r = emu.json(
        "POST",
        "/data-id/appendable-data",
        None,
        &format!(r#"{{"name":"{}"}}"#, name(1)),
    );
    r.is(200, "application/json", r#"{"handleId":1}"#);
    assert_eq!(emu.create(2, json!({})), 2);
    // Not on the network yet: -18, 404.
    emu.authed("GET", "/appendable-data/handle/1")
        .is(404, "application/json", GET_NO_SUCH_DATA);
    emu.authed("GET", "/appendable-data/handle/0")
        .is(400, "application/json", BAD_DATA_ID);
    emu.authed("PUT", "/appendable-data/0").ok();
    let r = emu.authed("GET", "/appendable-data/handle/1");
    r.is(
        200,
        "application/json",
        r#"{"handleId":3,"isOwner":true,"version":0,"filterType":"BlackList","dataLength":0,"deletedDataLength":0}"#,
    );
    // Dropping a handle; twice is -1515.
    emu.anon("DELETE", "/appendable-data/handle/3").ok();
    emu.anon("DELETE", "/appendable-data/handle/3")
        .is(400, "application/json", BAD_AD_HANDLE);
    emu.authed("GET", "/appendable-data/metadata/3")
        .is(400, "application/json", BAD_AD_HANDLE);
}

#[test]
fn at_most_100_live_handles_per_type_least_recently_used_evicted() {
    let emu = Emu::empty();
    for expected in 0..100u64 {
        assert_eq!(emu.create(1, json!({})), expected);
    }
    // Use handle 0, so handle 1 becomes the least recently used.
    emu.meta(0);
    assert_eq!(emu.create(1, json!({})), 100);
    emu.meta(0);
    emu.authed("GET", "/appendable-data/metadata/1")
        .is(400, "application/json", BAD_AD_HANDLE);
    emu.meta(2);
    // Data ids have their own 100 slots: making one evicts no appendable data.
    let r = emu.json(
        "POST",
        "/data-id/appendable-data",
        None,
        &format!(r#"{{"name":"{}"}}"#, name(1)),
    );
    r.is(200, "application/json", r#"{"handleId":101}"#);
    emu.meta(3);
    // One more appendable data evicts the next least recently used (handle 4 now; 2 and 3 were used).
    assert_eq!(emu.create(1, json!({})), 102);
    emu.authed("GET", "/appendable-data/metadata/4")
        .is(400, "application/json", BAD_AD_HANDLE);
    for live in [0, 2, 3, 5, 100, 102] {
        emu.meta(live);
    }
}

// ---- the hang mode ----------------------------------------------------------------------------

#[test]
fn hang_mode_never_answers_an_unknown_clear_but_serves_everything_else() {
    let emu = Emu::with(Options {
        hang_unknown_clears: true,
        ..Options::default()
    });
    let mut hung = Vec::new();
    for path in [
        "/appendable-data/clear-data/77",
        "/0.6/appendable-data/clear-deleted-data/77",
    ] {
        let mut stream = TcpStream::connect(emu.addr).expect("connect");
        stream
            .write_all(&request_bytes(
                "DELETE",
                path,
                &[("Authorization", &emu.bearer())],
                None,
                true,
            ))
            .expect("write");
        hung.push(stream);
    }
    // Meanwhile, everything else is served.
    emu.anon("GET", "/health").ok();
    emu.authed("DELETE", "/appendable-data/clear-data/1").ok();
    emu.authed("PUT", "/appendable-data/77")
        .is(400, "application/json", BAD_AD_HANDLE);
    // Handles without digits and auth failures still answer.
    emu.authed("DELETE", "/appendable-data/clear-data/x77")
        .error(400, 400);
    emu.anon("DELETE", "/appendable-data/clear-data/77")
        .is(401, "application/json", NO_TOKEN);
    // All of that was answered, and the hanging clears, sent first, have nothing to read.
    for stream in &mut hung {
        stream.set_nonblocking(true).expect("nonblocking");
        let mut buf = [0u8; 64];
        match stream.read(&mut buf) {
            Ok(n) => panic!(
                "the hanging clear answered: {:?}",
                String::from_utf8_lossy(&buf[..n])
            ),
            Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::WouldBlock, "{e}"),
        }
    }
    // Shutdown does not wait for hanging requests; it drops them, still without an answer.
    emu.stop();
    for stream in &mut hung {
        stream.set_nonblocking(false).expect("blocking");
        stream.set_read_timeout(Some(DEADLINE)).expect("timeout");
        let mut answer = Vec::new();
        match stream.read_to_end(&mut answer) {
            Ok(_) => {}
            Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset, "{e}"),
        }
        assert!(
            answer.is_empty(),
            "the hanging clear answered: {:?}",
            String::from_utf8_lossy(&answer)
        );
    }
}

#[test]
fn by_default_an_unknown_clear_answers_1515() {
    let emu = Emu::demo();
    emu.authed("DELETE", "/appendable-data/clear-data/77").is(
        400,
        "application/json",
        BAD_AD_HANDLE,
    );
    emu.authed("DELETE", "/appendable-data/clear-deleted-data/77")
        .is(400, "application/json", BAD_AD_HANDLE);
}

#[test]
fn given_token_is_used_and_checked() {
    let emu = Emu::with(Options {
        token: Some("fixed-token.for.tests".into()),
        ..Options::default()
    });
    assert_eq!(emu.token, "fixed-token.for.tests");
    emu.authed("PUT", "/appendable-data/0").ok();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    for bad in ["", "has space", "tab\there"] {
        let result = runtime.block_on(start(Options {
            token: Some(bad.into()),
            ..Options::default()
        }));
        assert!(result.is_err(), "{bad:?}");
    }
    let result = runtime.block_on(start(Options {
        listen: "0.0.0.0:0".parse().expect("addr"),
        ..Options::default()
    }));
    assert!(result.is_err());
}

// ---- the binary -------------------------------------------------------------------------------

/// `safe-ad emulator --listen 127.0.0.1:0 --token <token>`, started, with the address from its
/// first line and the second line checked.
fn spawn_binary(token: &str, safe_ad: SafeAd) -> (Running, SocketAddr) {
    let mut running = safe_ad
        .args(["emulator", "--listen", "127.0.0.1:0", "--token", token])
        .spawn();
    let url = running.line();
    let url = url
        .strip_prefix("SAFE_LAUNCHER_URL=")
        .unwrap_or_else(|| panic!("first line: {url}"))
        .to_owned();
    assert_eq!(running.line(), format!("SAFE_LAUNCHER_TOKEN={token}"));
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let addr: SocketAddr = url["http://".len()..].parse().expect("host:port");
    (running, addr)
}

#[test]
fn binary_prints_two_lines_serves_and_stops_cleanly_on_sigterm() {
    let (running, addr) = spawn_binary("abc123", SafeAd::new());
    send(
        addr,
        "PUT",
        "/appendable-data/0",
        &[("Authorization", "Bearer abc123")],
        None,
    )
    .ok();
    running.terminate();
    running.wait().code(0);
}

#[test]
fn binary_refuses_a_non_loopback_address_with_exit_2() {
    for listen in ["0.0.0.0:8100", "192.0.2.1:8100", "example.com:80"] {
        SafeAd::new()
            .args(["emulator", "--listen", listen])
            .run()
            .code(2)
            .stdout_is("")
            .stderr_has("--listen");
    }
}

#[test]
fn command_mode_passes_env_and_exit_code_and_keeps_stdout_clean() {
    let out = SafeAd::new()
        .env("PATH", "/usr/bin:/bin")
        .args(["emulator", "--token", "tok", "--"])
        .args([
            "sh",
            "-c",
            r#"printf '%s\n%s\n' "$SAFE_LAUNCHER_URL" "$SAFE_LAUNCHER_TOKEN"; exit 7"#,
        ])
        .run();
    let lines: Vec<&str> = out.code(7).stdout().lines().collect();
    out.check(lines.len() == 2, "more than the command's output on stdout")
        .check(
            lines[0].starts_with("http://127.0.0.1:"),
            "the first line is not the URL",
        )
        .check(
            lines[0] != "http://127.0.0.1:8100",
            "the default port, not a free one",
        )
        .check(lines[1] == "tok", "the second line is not the token");

    SafeAd::new()
        .env("PATH", "/usr/bin:/bin")
        .args(["emulator", "--empty", "--", "true"])
        .run()
        .success()
        .stdout_is("")
        .stderr_is("");
}

#[test]
fn command_mode_serves_the_command_while_it_runs() {
    let sandbox = Sandbox::new();
    let (reader, mut writer) = sandbox.fifo("command-input");
    let mut running = sandbox
        .safe_ad()
        .env("PATH", "/usr/bin:/bin")
        .args(["emulator", "--"])
        .args([
            "sh",
            "-c",
            r#"echo "$SAFE_LAUNCHER_URL $SAFE_LAUNCHER_TOKEN"; read line; exit 3"#,
        ])
        .stdin_from(reader)
        .spawn();
    let line = running.line();
    let (url, token) = line.trim().split_once(' ').expect("url and token");
    let addr: SocketAddr = url["http://".len()..].parse().expect("addr");
    let auth = format!("Bearer {token}");
    send(
        addr,
        "PUT",
        "/appendable-data/0",
        &[("Authorization", &auth)],
        None,
    )
    .ok();
    send(
        addr,
        "DELETE",
        "/appendable-data/clear-data/1",
        &[("Authorization", &auth)],
        None,
    )
    .ok();
    send(
        addr,
        "POST",
        "/appendable-data/1",
        &[("Authorization", &auth)],
        None,
    )
    .ok();
    writer.write_all(b"done\n").expect("write");
    drop(writer);
    // No request log in this mode, only the demo banner.
    running
        .wait()
        .code(3)
        .stderr_has("handle 0")
        .stderr_lacks("/appendable-data/0 200");
    // The emulator is gone with the command.
    assert!(TcpStream::connect(addr).is_err());
}

/// The demo banner says what to try with safe-ad commands, not the launcher's raw routes.
#[test]
fn the_demo_banner_names_safe_ad_commands_not_routes() {
    let output = SafeAd::new()
        .env("PATH", "/usr/bin:/bin")
        .args(["emulator", "--", "true"])
        .run();
    output
        .success()
        .stderr_has("Try: safe-ad show 5 --full")
        .stderr_has("safe-ad reopen 1")
        .stderr_has("for safe-ad open NAME)");
    for route in ["GET /", "POST /", "PUT /", "DELETE /"] {
        output.stderr_lacks(route);
    }
}

#[test]
fn command_mode_signal_and_missing_command() {
    SafeAd::new()
        .env("PATH", "/usr/bin:/bin")
        .args(["emulator", "--empty", "--", "sh", "-c", "kill -9 $$"])
        .run()
        .code(137);

    SafeAd::new()
        .args([
            "emulator",
            "--empty",
            "--",
            "/nonexistent/safe-ad-test-command",
        ])
        .run()
        .code(127)
        .stderr_has("cannot run");
}

#[test]
fn an_unread_stderr_never_stalls_serving_or_stopping() {
    // stderr is a pipe nobody reads: the request log fills it, and the server must not notice.
    let (running, addr) = spawn_binary("t", SafeAd::new().stderr_unread());
    let stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(DEADLINE)).expect("timeout");
    let mut writer = stream.try_clone().expect("clone");
    let mut reader = BufReader::new(stream);
    // About 200 kB of log lines, three times what a pipe holds.
    for _ in 0..4000 {
        writer
            .write_all(&request_bytes(
                "DELETE",
                "/appendable-data/clear-data/1",
                &[("Authorization", "Bearer t")],
                None,
                false,
            ))
            .expect("write");
        read_one(&mut reader).ok();
    }
    running.terminate();
    running.wait().code(0);
}
