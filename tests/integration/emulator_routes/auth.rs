//! Who may call what: the auth table for the four operations, a bad header refused everywhere,
//! optional and open routes without a token, `POST /auth` validation and approval, `--deny-auth`,
//! and a token given on the command line.

use super::*;

const NOT_GRANTED: &str =
    r#"{"errorCode":400,"description":"Low level api access is not granted"}"#;

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
