//! The emulator as a stand-in for SAFE Launcher 0.11.0's API v0.6: every route of the
//! appendable-data family and the data-id, sign-key and structured-data routes it works with.
//! Auth rules, the launcher's path matching (prefixes, a trailing slash, case, escapes), each
//! validation error with its exact body, the order in which errors win, and the state changes
//! (local copy vs network, stale versions) — plus the CI features of the binary: `--log`,
//! `--state`, `--quiet`, `--token-file`, the live handle counts and the port-in-use hint.
//!
//! Expectations are written here from the launcher's source, not taken from the emulator's own
//! route table: a wrong row in the table must fail a test.
//!
//! Each test starts its own emulator on a free loopback port (the harness's in-process `Emu`, or
//! the binary as `Emulator` for the command-line features) and talks HTTP/1.1 to it over TCP.

use safe_ad_emulator::Options;
use serde_json::{json, Value};

use crate::harness::emulator::Emulator;
use crate::harness::http::{b64, name, Resp};
use crate::harness::in_process::Emu;
use crate::harness::{SafeAd, Sandbox};

// ---- helpers ----------------------------------------------------------------------------------

/// Requests these tests make often, on the shared in-process fixture.
impl Emu {
    /// A JSON request with the startup token.
    fn json_authed(&self, method: &str, path: &str, body: Value) -> Resp {
        let body = body.to_string();
        self.request(
            method,
            path,
            Some(&self.token),
            Some(("application/json", body.as_bytes())),
        )
    }

    /// A fresh handle on what the network holds for public appendable data `byte`, via a data id
    /// that is dropped again.
    fn fetch_ad(&self, byte: u8) -> (u64, Value) {
        let d = self
            .json_authed(
                "POST",
                "/data-id/appendable-data",
                json!({"name": name(byte)}),
            )
            .handle();
        let v = self.fetch(d);
        self.authed("DELETE", &format!("/data-id/{d}")).ok();
        (v["handleId"].as_u64().expect("handleId"), v)
    }

    /// A structured data (type tag 500) with this name byte and text, saved on the network; its
    /// data-id handle.
    fn stored_sd(&self, byte: u8, text: &str) -> u64 {
        let h = self
            .json_authed(
                "POST",
                "/structured-data",
                json!({"name": name(byte), "typeTag": 500, "data": b64(text.as_bytes())}),
            )
            .handle();
        self.authed("PUT", &format!("/structured-data/{h}")).ok();
        let d = self
            .authed("GET", &format!("/structured-data/data-id/{h}"))
            .handle();
        self.authed("DELETE", &format!("/structured-data/handle/{h}"))
            .ok();
        d
    }
}

/// The launcher's errors, as these tests expect them.
impl Resp {
    /// A core error: the launcher's status rule (404 for NoSuchData) and description.
    #[track_caller]
    fn core(&self, code: i64) {
        let (status, description) = match code {
            -5 => (400, "CoreError::ReceivedUnexpectedData"),
            -18 => (404, "CoreError::GetFailure::GetError::NoSuchData"),
            -22 => (404, "CoreError::MutationFailure::MutationError::NoSuchData"),
            -23 => (400, "CoreError::MutationFailure::MutationError::DataExists"),
            -25 => (
                400,
                "CoreError::MutationFailure::MutationError::InvalidSuccessor",
            ),
            -1511 => (400, "FfiError::UnsuccessfulEncodeDecode"),
            -1513 => (400, "FfiError::InvalidStructDataHandle"),
            -1514 => (400, "FfiError::InvalidDataIdHandle"),
            -1515 => (400, "FfiError::InvalidAppendableDataHandle"),
            -1517 => (400, "FfiError::InvalidCipherOptHandle"),
            -1518 => (400, "FfiError::InvalidEncryptKeyHandle"),
            -1519 => (400, "FfiError::InvalidSignKeyHandle"),
            -1520 => (400, "FfiError::OperationForbiddenForApp"),
            -1521 => (400, "FfiError::InvalidStructuredDataTypeTag"),
            -1522 => (400, "FfiError::InvalidVersionNumber"),
            -1524 => (400, "FfiError::InvalidIndex"),
            -1525 => (400, "FfiError::UnsupportedOperation"),
            other => panic!("no expectation written for {other}"),
        };
        self.error_is(status, code, description);
    }

    /// A 400 with errorCode 400 and this description (the launcher's own checks and exceptions).
    #[track_caller]
    fn bad(&self, description: &str) {
        self.error_is(400, 400, description);
    }
}

/// `error setting argument N - writeUInt64: no digits we found in input String`.
fn no_digits(position: usize) -> String {
    format!("error setting argument {position} - writeUInt64: no digits we found in input String")
}

// ---- the route table, auth, prefixes and path matching ----------------------------------------

/// Who may call a route, as the launcher's controllers checked it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Who {
    /// Anybody.
    Open,
    /// A token with LOW_LEVEL_API: 401 `Unauthorised access` without one, 403 without the
    /// permission.
    LowLevel,
    /// A token, any permissions: 401 with this description without one.
    Session(&'static str),
}

/// Every route served, with sample parameters, written from `version_0_6.js` and its
/// controllers.
const ROUTES: &[(&str, &str, Who)] = &[
    ("POST", "/auth", Who::Open),
    ("GET", "/auth", Who::Session("Unauthorised")),
    ("DELETE", "/auth", Who::Session("Unauthorised")),
    ("POST", "/data-id/structured-data", Who::Open),
    ("POST", "/data-id/appendable-data", Who::Open),
    ("GET", "/data-id/1", Who::LowLevel),
    ("POST", "/data-id", Who::Open),
    ("DELETE", "/data-id/1", Who::Open),
    // Anonymous PLAIN fails (a TypeError, 400), the encrypted kinds need LOW_LEVEL_API.
    ("GET", "/cipher-opts/PLAIN", Who::Open),
    ("DELETE", "/cipher-opts/1", Who::Open),
    ("GET", "/immutable-data/reader/1", Who::Open),
    ("GET", "/immutable-data/writer", Who::LowLevel),
    ("GET", "/immutable-data/1", Who::Open),
    ("POST", "/immutable-data/1", Who::LowLevel),
    ("PUT", "/immutable-data/1/2", Who::LowLevel),
    ("DELETE", "/immutable-data/reader/1", Who::Open),
    ("DELETE", "/immutable-data/writer/1", Who::LowLevel),
    ("POST", "/structured-data", Who::LowLevel),
    ("POST", "/structured-data/deserialise", Who::Open),
    ("POST", "/structured-data/1", Who::Session("Unauthorized")),
    ("GET", "/structured-data/metadata/1", Who::Open),
    ("GET", "/structured-data/handle/1", Who::Open),
    ("GET", "/structured-data/data-id/1", Who::Open),
    ("GET", "/structured-data/serialise/1", Who::Open),
    ("GET", "/structured-data/validate-size/1", Who::Open),
    ("GET", "/structured-data/1/0", Who::Open),
    ("PUT", "/structured-data/1", Who::Session("Unauthorized")),
    ("PATCH", "/structured-data/1", Who::LowLevel),
    ("DELETE", "/structured-data/handle/1", Who::Open),
    ("DELETE", "/structured-data/unclaim/1", Who::LowLevel),
    ("DELETE", "/structured-data/1", Who::Session("Unauthorized")),
    ("GET", "/appendable-data/encrypt-key/1", Who::LowLevel),
    ("DELETE", "/appendable-data/encrypt-key/1", Who::LowLevel),
    ("POST", "/appendable-data", Who::LowLevel),
    ("POST", "/appendable-data/deserialise", Who::Open),
    ("POST", "/appendable-data/1", Who::LowLevel),
    ("GET", "/appendable-data/metadata/1", Who::Open),
    ("GET", "/appendable-data/handle/1", Who::Open),
    ("GET", "/appendable-data/serialise/1", Who::LowLevel),
    ("GET", "/appendable-data/data-id/1", Who::Open),
    ("GET", "/appendable-data/validate-size/1", Who::Open),
    (
        "GET",
        "/appendable-data/sign-key/deleted-data/1/0",
        Who::LowLevel,
    ),
    ("GET", "/appendable-data/sign-key/1/0", Who::LowLevel),
    ("GET", "/appendable-data/deleted-data/1/0", Who::Open),
    ("GET", "/appendable-data/filter/1/0", Who::LowLevel),
    ("GET", "/appendable-data/1/0", Who::Open),
    ("PUT", "/appendable-data/toggle-filter/1", Who::LowLevel),
    ("PUT", "/appendable-data/filter/1", Who::LowLevel),
    ("PUT", "/appendable-data/1/3", Who::LowLevel),
    ("PUT", "/appendable-data/restore/1/0", Who::LowLevel),
    ("PUT", "/appendable-data/1", Who::LowLevel),
    ("DELETE", "/appendable-data/filter/1", Who::LowLevel),
    ("DELETE", "/appendable-data/deleted-data/1/0", Who::LowLevel),
    ("DELETE", "/appendable-data/clear-data/1", Who::LowLevel),
    (
        "DELETE",
        "/appendable-data/clear-deleted-data/1",
        Who::LowLevel,
    ),
    ("DELETE", "/appendable-data/handle/1", Who::Open),
    ("DELETE", "/appendable-data/1/0", Who::LowLevel),
    ("GET", "/sign-key", Who::LowLevel),
    ("GET", "/sign-key/serialise/1", Who::LowLevel),
    ("POST", "/sign-key/deserialise", Who::LowLevel),
    ("DELETE", "/sign-key/1", Who::LowLevel),
];

#[test]
fn every_route_is_served_with_the_launchers_auth_rules() {
    assert_eq!(
        ROUTES.len(),
        safe_ad_emulator::table::TABLE.len(),
        "a route was added or removed: write its expectations here"
    );
    let emu = Emu::demo();
    for &(method, path, who) in ROUTES {
        // A fresh token each time: `DELETE /auth` revokes the one it is called with.
        let no_lla = emu.token_with(r#"["SAFE_DRIVE_ACCESS"]"#);
        let anonymous = emu.anon(method, path);
        let without = emu.request(method, path, Some(&no_lla), None);
        match who {
            Who::LowLevel => {
                anonymous.error_is(401, 400, "Unauthorised access");
                without.error_is(403, 400, "Low level api access is not granted");
            }
            Who::Session(description) => {
                anonymous.error_is(401, 400, description);
                assert!(
                    ![401, 403, 404].contains(&without.status),
                    "{method} {path}"
                );
            }
            Who::Open => {
                for r in [&anonymous, &without] {
                    assert!(
                        ![401, 403, 404].contains(&r.status),
                        "{method} {path}: {r:?}"
                    );
                }
            }
        }
        // A bad token is refused before anything else, on every route.
        let bad = emu.request(method, path, Some("not-a-token"), None);
        assert_eq!(
            (bad.status, bad.body.as_str()),
            (401, "Unauthorized"),
            "{path}"
        );
        assert!(bad.content_type.starts_with("text/plain"));
    }
}

#[test]
fn every_route_answers_under_the_three_prefixes_with_or_without_one_trailing_slash() {
    for &(method, path, who) in ROUTES {
        if who != Who::LowLevel && method != "GET" {
            continue;
        }
        // Read-only routes and auth refusals answer the same wherever the route is reached.
        let emu = Emu::demo();
        let expected = emu.anon(method, path);
        for prefix in ["", "/0.5", "/0.6"] {
            for slash in ["", "/"] {
                let r = emu.anon(method, &format!("{prefix}{path}{slash}"));
                let where_ = format!("{method} {prefix}{path}{slash}");
                assert_eq!(r.status, expected.status, "{where_}");
                // A success may carry a new handle id; anything else is the same answer.
                if r.status != 200 {
                    assert_eq!(r.body, expected.body, "{where_}");
                }
            }
        }
    }
}

#[test]
fn launcher_path_matching_and_strict_paths() {
    let emu = Emu::demo();
    // Any ASCII case of the literal segments, escapes in parameters, one trailing slash.
    assert_eq!(
        emu.authed("GET", "/Appendable-Data/METADATA/%31/").json()["version"],
        1
    );
    // Two trailing slashes, a bad escape, /health under a prefix: the launcher's 404.
    for (method, path) in [
        ("GET", "/appendable-data/metadata/1//"),
        ("GET", "/appendable-data/metadata/%zz"),
        ("GET", "/0.6/health"),
        ("DELETE", "/appendable-data/1"),
    ] {
        emu.authed(method, path)
            .error_is(404, 404, "Endpoint Not Found");
    }
    // /health: any method, any sub-path, no token needed; HEAD runs GET routes without a body.
    for (method, path) in [
        ("GET", "/health"),
        ("POST", "/health/x"),
        ("DELETE", "/HEALTH"),
    ] {
        emu.anon(method, path).ok();
    }
    let head = emu.anon("HEAD", "/appendable-data/metadata/1");
    assert_eq!((head.status, head.bytes.len()), (200, 0));
    // Handles were read with strtoull: octal, hex, a sign, trailing junk.
    assert_eq!(
        emu.authed("GET", "/appendable-data/metadata/01").json()["version"],
        1
    );
    assert_eq!(
        emu.authed("GET", "/appendable-data/metadata/0x1").json()["version"],
        1
    );
    assert_eq!(
        emu.authed("GET", "/appendable-data/metadata/1abc").json()["version"],
        1
    );
    emu.authed("GET", "/appendable-data/metadata/-1")
        .core(-1515);
    emu.authed("GET", "/appendable-data/metadata/99999999999999999999")
        .bad("error setting argument 1 - writeUInt64: input String numerical value out of range");
    // Anonymous metadata reaches the core's first call through another argument position.
    emu.anon("GET", "/appendable-data/metadata/x")
        .bad(&no_digits(0));
    emu.authed("GET", "/appendable-data/metadata/x")
        .bad(&no_digits(1));

    let strict = Emu::with(Options {
        strict_paths: true,
        ..Options::default()
    });
    for path in [
        "/Appendable-Data/metadata/1",
        "/appendable-data/metadata/1/",
        "/health/",
    ] {
        strict
            .authed("GET", path)
            .error_is(404, 404, "Endpoint Not Found");
    }
    let r = strict.authed("GET", "/appendable-data/metadata/01");
    assert_eq!((r.status, r.json()["errorCode"].as_i64()), (400, Some(400)));
    assert!(r.body.contains("--strict-paths"), "{}", r.body);
    assert_eq!(
        strict
            .authed("GET", "/0.5/appendable-data/metadata/1")
            .json()["version"],
        1
    );
}

// ---- appendable data ------------------------------------------------------------------------

#[test]
fn create_validation_in_the_launchers_order() {
    let emu = Emu::empty();
    let create = |body: Value| emu.json_authed("POST", "/appendable-data", body);
    create(json!({})).bad("name field is missing");
    create(json!({"name": ""})).bad("name field is missing");
    create(json!({"name": b64(b"short")})).bad("Invalid name field");
    create(json!({"name": 11}))
        .bad("If encoding is specified then the first argument must be a string");
    create(json!({"name": name(1), "isPrivate": "test"})).bad("Invalid isPrivate field");
    // The name is checked before isPrivate.
    create(json!({"isPrivate": "test"})).bad("name field is missing");
    // Node's decoder skipped characters outside the alphabet, so a name with spaces is fine.
    let spaced = name(1).chars().map(|c| format!("{c} ")).collect::<String>();
    assert_eq!(create(json!({"name": spaced})).handle(), 0);
    // A form body works too (the launcher parsed urlencoded bodies on every route).
    let form = format!(
        "name={}",
        name(2)
            .replace('+', "%2B")
            .replace('/', "%2F")
            .replace('=', "%3D")
    );
    let r = emu.request(
        "POST",
        "/appendable-data/",
        Some(&emu.token),
        Some(("application/x-www-form-urlencoded", form.as_bytes())),
    );
    assert_eq!(r.handle(), 1);
    // Malformed JSON failed in the body parser: the launcher's 404, even before the auth check.
    let broken = emu.request(
        "POST",
        "/appendable-data",
        None,
        Some(("application/json", b"{")),
    );
    broken.error_is(404, 404, "Endpoint Not Found");
    // WHITE_LIST (exactly) makes a white list; anything else a black list.
    let white = emu.create(3, json!({"filterType": "WHITE_LIST"}));
    assert_eq!(emu.meta(white)["filterType"], "WhiteList");
    let black = emu.create(4, json!({"filterType": "WhiteList"}));
    assert_eq!(emu.meta(black)["filterType"], "BlackList");
    // filterKeys are sign-key handles: a good one is added, a bad one fails after the create.
    let key = emu.authed("GET", "/sign-key/").handle();
    let keyed = emu.create(5, json!({"filterKeys": [key]}));
    assert_eq!(emu.meta(keyed)["filterLength"], 1);
    create(json!({"name": name(6), "filterKeys": [999]})).core(-1519);
    create(json!({"name": name(6), "filterKeys": ["x"]})).bad(&no_digits(1));
    create(json!({"name": name(6), "filterKeys": 5}))
        .bad("filterKeys[Symbol.iterator] is not a function");
    assert_eq!(
        emu.meta(keyed),
        json!({"isOwner": true, "version": 0, "filterType": "BlackList", "filterLength": 1,
               "dataLength": 0, "deletedDataLength": 0})
    );
}

#[test]
fn save_fetch_and_stale_versions() {
    let emu = Emu::empty();
    let h = emu.create(1, json!({}));
    emu.authed("POST", &format!("/appendable-data/{h}"))
        .core(-22);
    emu.authed("PUT", &format!("/appendable-data/{h}")).ok();
    emu.authed("PUT", &format!("/appendable-data/{h}"))
        .core(-23);
    let (fresh, v) = emu.fetch_ad(1);
    assert_eq!(
        v,
        json!({"handleId": fresh, "isOwner": true, "version": 0, "filterType": "BlackList",
               "dataLength": 0, "deletedDataLength": 0})
    );
    // Anonymous callers own nothing.
    let d = emu
        .json_authed("POST", "/data-id/appendable-data", json!({"name": name(1)}))
        .handle();
    assert_eq!(
        emu.anon("GET", &format!("/appendable-data/handle/{d}"))
            .json()["isOwner"],
        false
    );
    // Someone else (another handle) posts: this one is stale for POST and append.
    emu.authed("POST", &format!("/appendable-data/{fresh}"))
        .ok();
    emu.authed("POST", &format!("/appendable-data/{h}"))
        .core(-25);
    let item = emu.stored_sd(9, "x");
    emu.authed("PUT", &format!("/appendable-data/{h}/{item}"))
        .core(-25);
    // The same handle can post again: its version followed the network.
    emu.authed("POST", &format!("/appendable-data/{fresh}"))
        .ok();
    assert_eq!(emu.meta(fresh)["version"], 2);
    emu.authed("GET", "/appendable-data/handle/9999")
        .core(-1514);
    let unsaved = emu
        .json_authed("POST", "/data-id/appendable-data", json!({"name": name(2)}))
        .handle();
    emu.authed("GET", &format!("/appendable-data/handle/{unsaved}"))
        .core(-18);
    // A structured data's id on the appendable-data route: unexpected data.
    emu.authed("GET", &format!("/appendable-data/handle/{item}"))
        .core(-5);
    // Private and public data of the same name are different data.
    let private = emu
        .json_authed(
            "POST",
            "/data-id/appendable-data",
            json!({"name": name(1), "isPrivate": true}),
        )
        .handle();
    emu.authed("GET", &format!("/appendable-data/handle/{private}"))
        .core(-18);
    // validate-size, data-id of a handle, dropping.
    assert_eq!(
        emu.authed("GET", &format!("/appendable-data/validate-size/{h}"))
            .json(),
        json!({"isValid": true})
    );
    emu.authed("GET", "/appendable-data/validate-size/9999")
        .core(-1515);
    let id = emu
        .authed("GET", &format!("/appendable-data/data-id/{h}"))
        .handle();
    assert_eq!(
        emu.authed("GET", &format!("/appendable-data/handle/{id}"))
            .json()["version"],
        2
    );
    emu.authed("GET", "/appendable-data/data-id/9999")
        .core(-1515);
    emu.anon("DELETE", &format!("/appendable-data/handle/{h}"))
        .ok();
    emu.anon("DELETE", &format!("/appendable-data/handle/{h}"))
        .core(-1515);
}

#[test]
fn items_append_read_remove_restore_and_clear() {
    let emu = Emu::empty();
    let h = emu.create(1, json!({}));
    let unsaved = emu.stored_sd(2, "two");
    // Appending needs the data on the network.
    emu.authed("PUT", &format!("/appendable-data/{h}/{unsaved}"))
        .core(-22);
    emu.authed("PUT", &format!("/appendable-data/{h}")).ok();
    for (byte, text) in [(3u8, "three"), (4, "four")] {
        let item = emu.stored_sd(byte, text);
        emu.authed("PUT", &format!("/appendable-data/{h}/{item}"))
            .ok();
        emu.authed("DELETE", &format!("/data-id/{item}")).ok();
    }
    emu.authed("PUT", &format!("/appendable-data/{h}/{unsaved}"))
        .ok();
    // Appends went to the network only: the local copy has none of them.
    assert_eq!(emu.meta(h)["dataLength"], 0);
    let (a, v) = emu.fetch_ad(1);
    assert_eq!(
        (v["dataLength"].as_u64(), v["version"].as_u64()),
        (Some(3), Some(0))
    );
    // Item 0 leads to a structured data whose content reads back.
    let d = emu
        .authed("GET", &format!("/appendable-data/{a}/0"))
        .handle();
    let sd = emu
        .authed("GET", &format!("/structured-data/handle/{d}"))
        .json();
    let read = emu.authed("GET", &format!("/structured-data/{}", sd["handleId"]));
    assert_eq!((read.status, read.body.as_str()), (200, "two"));
    assert!(read.content_type.starts_with("application/octet-stream"));
    // Index errors, and the argument error that wins over an unknown handle.
    emu.authed("GET", &format!("/appendable-data/{a}/3"))
        .core(-1524);
    emu.authed("GET", &format!("/appendable-data/{a}/x"))
        .bad(&no_digits(2));
    emu.authed("GET", "/appendable-data/9999/x")
        .bad(&no_digits(2));
    emu.authed("GET", "/appendable-data/9999/0").core(-1515);
    emu.authed("GET", &format!("/appendable-data/deleted-data/{a}/0"))
        .core(-1524);
    // Remove at index, restore, remove deleted: local only.
    emu.authed("DELETE", &format!("/appendable-data/{a}/0"))
        .ok();
    emu.authed("DELETE", &format!("/appendable-data/{a}/5"))
        .core(-1524);
    emu.authed("DELETE", &format!("/appendable-data/{a}/x"))
        .bad(&no_digits(1));
    let m = emu.meta(a);
    assert_eq!(
        (m["dataLength"].as_u64(), m["deletedDataLength"].as_u64()),
        (Some(2), Some(1))
    );
    let deleted = emu
        .authed("GET", &format!("/appendable-data/deleted-data/{a}/0"))
        .handle();
    emu.authed("DELETE", &format!("/data-id/{deleted}")).ok();
    emu.authed("PUT", &format!("/appendable-data/restore/{a}/test"))
        .bad("index must be a valid number");
    emu.authed("PUT", &format!("/appendable-data/restore/{a}/1"))
        .core(-1524);
    emu.authed("PUT", &format!("/appendable-data/restore/{a}/0"))
        .ok();
    assert_eq!(emu.meta(a)["deletedDataLength"], 0);
    emu.authed("DELETE", &format!("/appendable-data/{a}/0"))
        .ok();
    emu.authed("DELETE", &format!("/appendable-data/deleted-data/{a}/0"))
        .ok();
    emu.authed("DELETE", &format!("/appendable-data/deleted-data/{a}/0"))
        .core(-1524);
    let m = emu.meta(a);
    assert_eq!(
        (m["dataLength"].as_u64(), m["deletedDataLength"].as_u64()),
        (Some(2), Some(0))
    );
    // The network still has all three until a save.
    assert_eq!(emu.fetch_ad(1).1["dataLength"], 3);
    // Clears: local until the POST, which carries deleted_data and merges.
    let (b, _) = emu.fetch_ad(1);
    emu.authed("DELETE", &format!("/appendable-data/clear-data/{b}"))
        .ok();
    let m = emu.meta(b);
    assert_eq!(
        (m["dataLength"].as_u64(), m["deletedDataLength"].as_u64()),
        (Some(0), Some(3))
    );
    assert_eq!(emu.fetch_ad(1).1["dataLength"], 3);
    emu.authed("POST", &format!("/appendable-data/{b}")).ok();
    let v = emu.fetch_ad(1).1;
    assert_eq!(
        (
            v["version"].as_u64(),
            v["dataLength"].as_u64(),
            v["deletedDataLength"].as_u64()
        ),
        (Some(1), Some(0), Some(3))
    );
    // An item in deleted_data cannot be appended again.
    let again = emu
        .json_authed("POST", "/data-id/structured-data", json!({"name": name(2)}))
        .handle();
    emu.authed("PUT", &format!("/appendable-data/{b}/{again}"))
        .core(-25);
    emu.authed(
        "DELETE",
        &format!("/appendable-data/clear-deleted-data/{b}"),
    )
    .ok();
    emu.authed("POST", &format!("/appendable-data/{b}")).ok();
    let v = emu.fetch_ad(1).1;
    assert_eq!(
        (v["version"].as_u64(), v["deletedDataLength"].as_u64()),
        (Some(2), Some(0))
    );
    emu.authed("PUT", &format!("/appendable-data/{b}/{again}"))
        .ok();
    // Signers of items: the user's key.
    let (c, _) = emu.fetch_ad(1);
    let signer = emu
        .authed("GET", &format!("/appendable-data/sign-key/{c}/0"))
        .handle();
    let me = emu.authed("GET", "/sign-key").handle();
    assert_eq!(
        emu.authed("GET", &format!("/sign-key/serialise/{signer}"))
            .bytes,
        emu.authed("GET", &format!("/sign-key/serialise/{me}"))
            .bytes
    );
    emu.authed("GET", &format!("/appendable-data/sign-key/{c}/1"))
        .core(-1524);
    emu.authed(
        "GET",
        &format!("/appendable-data/sign-key/deleted-data/{c}/0"),
    )
    .core(-1524);
    emu.authed("DELETE", &format!("/appendable-data/clear-data/{c}"))
        .ok();
    emu.authed(
        "GET",
        &format!("/appendable-data/sign-key/deleted-data/{c}/0"),
    )
    .handle();
}

#[test]
fn filters_decide_who_may_append() {
    let emu = Emu::empty();
    let h = emu.create(1, json!({}));
    emu.authed("PUT", &format!("/appendable-data/{h}")).ok();
    let me = emu.authed("GET", "/sign-key/").handle();
    let filter = format!("/appendable-data/filter/{h}");
    let keys = |keys: Value| keys.to_string().into_bytes();
    let put_keys = |method: &str, list: Value| {
        emu.request(
            method,
            &filter,
            Some(&emu.token),
            Some(("application/json", &keys(list))),
        )
    };
    put_keys("PUT", json!([21])).core(-1519);
    put_keys("PUT", json!(["x"])).bad(&no_digits(1));
    // No JSON body: the loop over `{}` failed.
    emu.authed("PUT", &filter)
        .bad("keys[Symbol.iterator] is not a function");
    // An empty list edits nothing and looks nothing up.
    put_keys("PUT", json!([])).ok();
    emu.request(
        "PUT",
        "/appendable-data/filter/9999",
        Some(&emu.token),
        Some(("application/json", b"[]")),
    )
    .ok();
    // The sign key is looked up before the appendable data.
    emu.request(
        "PUT",
        "/appendable-data/filter/9999",
        Some(&emu.token),
        Some(("application/json", b"[21]")),
    )
    .core(-1519);
    put_keys("PUT", json!([me])).ok();
    assert_eq!(emu.meta(h)["filterLength"], 1);
    let item = emu.stored_sd(2, "x");
    // The filter is local until saved: the network's filter still lets the user in.
    let (probe, _) = emu.fetch_ad(1);
    assert_eq!(emu.meta(probe)["filterLength"], 0);
    emu.authed("POST", &format!("/appendable-data/{h}")).ok();
    emu.authed("PUT", &format!("/appendable-data/{h}/{item}"))
        .core(-25);
    let key = emu
        .authed("GET", &format!("/appendable-data/filter/{h}/0"))
        .handle();
    emu.authed("GET", &format!("/appendable-data/filter/{h}/1"))
        .core(-1524);
    put_keys("DELETE", json!([key])).ok();
    emu.authed("POST", &format!("/appendable-data/{h}")).ok();
    // Toggling gives the other type with no keys: a white list nobody is on.
    emu.authed("PUT", &format!("/appendable-data/toggle-filter/{h}"))
        .ok();
    let m = emu.meta(h);
    assert_eq!(
        (m["filterType"].as_str(), m["filterLength"].as_u64()),
        (Some("WhiteList"), Some(0))
    );
    emu.authed("POST", &format!("/appendable-data/{h}")).ok();
    emu.authed("PUT", &format!("/appendable-data/{h}/{item}"))
        .core(-25);
    put_keys("PUT", json!([me])).ok();
    emu.authed("POST", &format!("/appendable-data/{h}")).ok();
    emu.authed("PUT", &format!("/appendable-data/{h}/{item}"))
        .ok();
    emu.authed("PUT", "/appendable-data/toggle-filter/9999")
        .core(-1515);
    emu.authed("PUT", "/appendable-data/toggle-filter/x")
        .bad(&no_digits(0));
    assert_eq!(emu.fetch_ad(1).1["dataLength"], 1);
}

#[test]
fn encrypt_keys_of_private_data() {
    let emu = Emu::empty();
    let private = emu.create(1, json!({"isPrivate": true}));
    let public = emu.create(2, json!({}));
    let key = emu
        .authed("GET", &format!("/appendable-data/encrypt-key/{private}"))
        .handle();
    emu.authed("GET", &format!("/appendable-data/encrypt-key/{public}"))
        .core(-1525);
    emu.authed("GET", "/appendable-data/encrypt-key/9999")
        .core(-1515);
    emu.authed("DELETE", &format!("/appendable-data/encrypt-key/{key}"))
        .ok();
    emu.authed("DELETE", &format!("/appendable-data/encrypt-key/{key}"))
        .core(-1518);
    // Items of private data need the user's keys to be read.
    emu.authed("PUT", &format!("/appendable-data/{private}"))
        .ok();
    let item = emu.stored_sd(3, "x");
    emu.authed("PUT", &format!("/appendable-data/{private}/{item}"))
        .ok();
    let d = emu
        .json_authed(
            "POST",
            "/data-id/appendable-data",
            json!({"name": name(1), "isPrivate": true}),
        )
        .handle();
    let fresh = emu
        .authed("GET", &format!("/appendable-data/handle/{d}"))
        .json()["handleId"]
        .as_u64()
        .expect("handle");
    emu.anon("GET", &format!("/appendable-data/{fresh}/0"))
        .core(-1520);
    emu.authed("GET", &format!("/appendable-data/{fresh}/0"))
        .handle();
}

#[test]
fn serialised_handles_round_trip_in_the_emulators_own_format() {
    let emu = Emu::empty();
    let h = emu.create(1, json!({"filterType": "WHITE_LIST"}));
    let bytes = emu.authed("GET", &format!("/appendable-data/serialise/{h}"));
    assert_eq!(bytes.status, 200);
    assert!(bytes.content_type.starts_with("application/octet-stream"));
    emu.authed("GET", "/appendable-data/serialise/9999")
        .core(-1515);
    let back = emu
        .request(
            "POST",
            "/appendable-data/deserialise",
            None,
            Some(("text/plain", &bytes.bytes)),
        )
        .json();
    assert_eq!(
        back,
        json!({"handleId": back["handleId"], "isOwner": false, "version": 0,
               "filterType": "WhiteList", "dataLength": 0, "deletedDataLength": 0})
    );
    for path in [
        "/appendable-data/deserialise",
        "/structured-data/deserialise",
    ] {
        emu.request("POST", path, None, Some(("text/plain", b"junk")))
            .core(-1511);
        emu.anon("POST", path).core(-1511);
    }
    emu.request(
        "POST",
        "/sign-key/deserialise",
        Some(&emu.token),
        Some(("text/plain", b"junk")),
    )
    .core(-1511);
    // Data ids: an empty body has its own message; bytes of another kind do not deserialise.
    emu.anon("POST", "/data-id").bad("Body can not be empty");
    let d = emu
        .json_authed(
            "POST",
            "/data-id/structured-data",
            json!({"name": name(2), "typeTag": 501}),
        )
        .handle();
    let id_bytes = emu.authed("GET", &format!("/data-id/{d}")).bytes;
    emu.authed("GET", "/data-id/9999").core(-1514);
    emu.request("POST", "/data-id", None, Some(("text/plain", &bytes.bytes)))
        .core(-1511);
    let d2 = emu
        .request("POST", "/data-id", None, Some(("text/plain", &id_bytes)))
        .handle();
    assert_eq!(emu.authed("GET", &format!("/data-id/{d2}")).bytes, id_bytes);
    // Sign keys.
    let k = emu.authed("GET", "/sign-key").handle();
    let key_bytes = emu.authed("GET", &format!("/sign-key/serialise/{k}")).bytes;
    emu.authed("GET", "/sign-key/serialise/9999").core(-1519);
    let k2 = emu
        .request(
            "POST",
            "/sign-key/deserialise",
            Some(&emu.token),
            Some(("text/plain", &key_bytes)),
        )
        .handle();
    emu.authed("DELETE", &format!("/sign-key/{k2}")).ok();
    emu.authed("DELETE", &format!("/sign-key/{k2}")).core(-1519);
    // Structured data.
    let s = emu
        .json_authed(
            "POST",
            "/structured-data",
            json!({"name": name(3), "typeTag": 501, "data": b64(b"v0")}),
        )
        .handle();
    let sd_bytes = emu
        .authed("GET", &format!("/structured-data/serialise/{s}"))
        .bytes;
    emu.authed("GET", "/structured-data/serialise/9999")
        .core(-1513);
    let sd = emu
        .request(
            "POST",
            "/structured-data/deserialise",
            Some(&emu.token),
            Some(("text/plain", &sd_bytes)),
        )
        .json();
    assert_eq!(
        sd,
        json!({"handleId": sd["handleId"], "isOwner": true, "version": 0, "dataVersionLength": 1})
    );
}

// ---- structured data and data ids -----------------------------------------------------------

#[test]
fn structured_data_create_validation() {
    let emu = Emu::empty();
    let create = |body: Value| emu.json_authed("POST", "/structured-data/", body);
    create(json!({})).bad("name is missing in request body");
    create(json!({"name": b64(b"short")})).bad("Invalid id specified");
    create(json!({"name": name(1), "typeTag": "typeTag"})).bad("Tag type must be a valid number");
    create(json!({"name": name(1), "typeTag": 14999})).bad("Invalid tag type specified");
    // The plain cipher options are made once, on the first create that names none: handle 0.
    create(json!({"name": name(1), "data": 11}))
        .bad("If encoding is specified then the first argument must be a string");
    create(json!({"name": name(1), "cipherOpts": 11, "data": b64(b"x")})).core(-1517);
    create(json!({"name": name(1), "version": "v"})).bad(&no_digits(3));
    create(json!({"name": name(1), "cipherOpts": "c"})).bad(&no_digits(4));
    // The plain cipher options' handle is accepted when named.
    assert_eq!(
        create(json!({"name": name(1), "cipherOpts": 0, "typeTag": "15000"})).handle(),
        1
    );
    assert_eq!(create(json!({"name": name(2)})).handle(), 2);
}

#[test]
fn structured_data_save_update_read() {
    let emu = Emu::empty();
    let h = emu
        .json_authed(
            "POST",
            "/structured-data",
            json!({"name": name(1), "typeTag": 500, "data": b64(b"one")}),
        )
        .handle();
    emu.authed("POST", &format!("/structured-data/{h}"))
        .core(-22);
    emu.authed("PUT", &format!("/structured-data/{h}")).ok();
    emu.authed("PUT", &format!("/structured-data/{h}"))
        .core(-23);
    emu.authed("PUT", "/structured-data/9999").core(-1513);
    // Saving needs a token but not LOW_LEVEL_API.
    let plain = emu.token_with("[]");
    emu.request("PUT", "/structured-data/9999", Some(&plain), None)
        .core(-1513);
    // Unversioned: no dataVersionLength.
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/metadata/{h}"))
            .json(),
        json!({"isOwner": true, "version": 0})
    );
    emu.anon("GET", "/structured-data/metadata/9999")
        .core(-1513);
    let update = |handle: u64, text: &[u8]| {
        emu.json_authed(
            "PATCH",
            &format!("/structured-data/{handle}"),
            json!({"data": b64(text)}),
        )
    };
    update(h, b"two").ok();
    update(9999, b"two").core(-1513);
    emu.json_authed(
        "PATCH",
        &format!("/structured-data/{h}"),
        json!({"data": 11}),
    )
    .bad("If encoding is specified then the first argument must be a string");
    emu.json_authed(
        "PATCH",
        &format!("/structured-data/{h}"),
        json!({"data": "eA==", "cipherOpts": 11}),
    )
    .core(-1517);
    emu.authed("POST", &format!("/structured-data/{h}")).ok();
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/metadata/{h}"))
            .json()["version"],
        1
    );
    // A second handle fetched now goes stale when the first posts again.
    let d = emu
        .json_authed("POST", "/data-id/structured-data", json!({"name": name(1)}))
        .handle();
    let fetched = emu
        .anon("GET", &format!("/structured-data/handle/{d}/"))
        .json();
    assert_eq!(
        fetched,
        json!({"handleId": fetched["handleId"], "isOwner": false, "version": 1})
    );
    let other = fetched["handleId"].as_u64().expect("handle");
    update(h, b"three").ok();
    emu.authed("POST", &format!("/structured-data/{h}")).ok();
    update(other, b"late").ok();
    emu.authed("POST", &format!("/structured-data/{other}"))
        .core(-25);
    let read = emu.anon("GET", &format!("/structured-data/{h}"));
    assert_eq!(read.body, "three");
    emu.authed("GET", &format!("/structured-data/{h}/0"))
        .core(-1521);
    emu.authed("GET", "/structured-data/9999").core(-1513);
    // Versioned data keeps its versions.
    let v = emu
        .json_authed(
            "POST",
            "/structured-data",
            json!({"name": name(2), "typeTag": 501, "data": b64(b"a")}),
        )
        .handle();
    update(v, b"b").ok();
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/{v}/0")).body,
        "a"
    );
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/{v}/1")).body,
        "b"
    );
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/{v}/not-a-number"))
            .body,
        "b"
    );
    emu.authed("GET", &format!("/structured-data/{v}/2"))
        .core(-1522);
    // An update keeps the version (safe_core's `struct_data_new_data`); the POST bumps it.
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/metadata/{v}"))
            .json(),
        json!({"isOwner": true, "version": 0, "dataVersionLength": 2})
    );
    // Data read back empty is an empty 200.
    let empty = emu
        .json_authed("POST", "/structured-data", json!({"name": name(3)}))
        .handle();
    let r = emu.authed("GET", &format!("/structured-data/{empty}"));
    assert_eq!(
        (r.status, r.bytes.len(), r.content_type.as_str()),
        (200, 0, "")
    );
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/validate-size/{v}"))
            .json(),
        json!({"isValid": true})
    );
    emu.authed("GET", "/structured-data/validate-size/9999")
        .core(-1513);
    emu.authed("GET", "/structured-data/data-id/9999")
        .core(-1513);
    emu.authed("GET", "/structured-data/handle/9999")
        .core(-1514);
    let missing = emu
        .json_authed("POST", "/data-id/structured-data", json!({"name": name(9)}))
        .handle();
    emu.authed("GET", &format!("/structured-data/handle/{missing}"))
        .core(-18);
    emu.anon("DELETE", &format!("/structured-data/handle/{v}"))
        .ok();
    emu.anon("DELETE", &format!("/structured-data/handle/{v}"))
        .core(-1513);
}

#[test]
fn data_id_routes() {
    let emu = Emu::empty();
    // No name check: a missing name failed in `new Buffer`.
    emu.json_authed("POST", "/data-id/appendable-data", json!({}))
        .bad("First argument must be a string, Buffer, ArrayBuffer, Array, or array-like object.");
    // typeTag defaults to 500 and is taken as the core took it.
    let d = emu
        .json_authed("POST", "/data-id/structured-data", json!({"name": name(1)}))
        .handle();
    emu.json_authed(
        "POST",
        "/data-id/structured-data",
        json!({"name": name(1), "typeTag": null}),
    )
    .bad("error setting argument 0 - writeUInt64: Number/String 64-bit value required");
    let sd = emu
        .json_authed(
            "POST",
            "/structured-data",
            json!({"name": name(1), "data": b64(b"x")}),
        )
        .handle();
    emu.authed("PUT", &format!("/structured-data/{sd}")).ok();
    emu.authed("GET", &format!("/structured-data/handle/{d}"))
        .json();
    emu.anon("DELETE", &format!("/data-id/{d}")).ok();
    emu.anon("DELETE", &format!("/data-id/{d}")).core(-1514);
    emu.anon("DELETE", "/data-id/x").bad(&no_digits(0));
}

#[test]
fn handles_of_every_type_are_evicted_least_recently_used_first() {
    let emu = Emu::empty();
    let first = emu.authed("GET", "/sign-key").handle();
    let second = emu.authed("GET", "/sign-key").handle();
    for _ in 2..100 {
        emu.authed("GET", "/sign-key").handle();
    }
    // Use the first: the second is now the least recently used.
    emu.authed("GET", &format!("/sign-key/serialise/{first}"));
    emu.authed("GET", "/sign-key").handle();
    assert_eq!(
        emu.authed("GET", &format!("/sign-key/serialise/{first}"))
            .status,
        200
    );
    emu.authed("GET", &format!("/sign-key/serialise/{second}"))
        .core(-1519);
}

// ---- the binary: --log, --state, --quiet, --token-file, handle counts -------------------------

#[test]
fn log_file_records_every_request_with_live_handle_counts_and_never_the_token() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("requests.jsonl");
    let token_file = sandbox.file("token", "file-token-123\n");
    let emulator = Emulator::spawn(sandbox.safe_ad().args([
        "emulator",
        "--listen",
        "127.0.0.1:0",
        "--empty",
        "--quiet",
        "--token-file",
        token_file.to_str().expect("path"),
        "--log",
        log.to_str().expect("path"),
    ]));
    assert_eq!(emulator.token, "file-token-123");
    let body = json!({"name": name(1)}).to_string();
    let d = emulator
        .http("POST", "/data-id/appendable-data?x=1", None, Some(&body))
        .handle();
    emulator.http(
        "GET",
        &format!("/appendable-data/handle/{d}"),
        Some(&emulator.token),
        None,
    );
    emulator
        .http("DELETE", &format!("/data-id/{d}"), None, None)
        .ok();
    emulator.http("GET", "/file-token-123/health", None, None);
    emulator.terminate().success().stderr_is("");
    let text = std::fs::read_to_string(&log).expect("log file");
    assert!(!text.contains("file-token-123"), "{text}");
    let all: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(all.len(), 6, "{text}");
    assert_eq!(all[0]["event"], "start");
    let records = &all[1..];
    assert!(records[..4].iter().all(|r| r["event"] == "request"));
    assert_eq!(records[0]["method"], "POST");
    assert_eq!(records[0]["path"], "/data-id/appendable-data");
    assert_eq!(records[0]["status"], 200);
    assert_eq!(records[0]["handles"]["data_id"], 1);
    assert_eq!(records[1]["status"], 404);
    assert_eq!(records[2]["handles"]["data_id"], 0);
    assert_eq!(records[3]["path"], "/<token>/health");
    assert!(records[0]["elapsed_ms"].as_f64().is_some());
    let stop = &records[4];
    assert_eq!(stop["event"], "stop");
    assert_eq!(stop["requests"], 4);
    assert_eq!(
        stop["handles"],
        json!({"appendable_data": 0, "structured_data": 0, "data_id": 0, "sign_key": 0,
               "encrypt_key": 0, "cipher_opts": 0})
    );
}

#[test]
fn state_file_is_loaded_and_written_back_on_a_clean_stop() {
    let sandbox = Sandbox::new();
    let state = sandbox.path().join("network.json");
    let state_arg = state.to_str().expect("path");
    // A file that does not exist yet: an empty network, created on stop.
    let emulator = Emulator::spawn(sandbox.safe_ad().args([
        "emulator",
        "--listen",
        "127.0.0.1:0",
        "--state",
        state_arg,
    ]));
    let body = json!({"name": name(7)}).to_string();
    let h = emulator
        .http(
            "POST",
            "/appendable-data",
            Some(&emulator.token),
            Some(&body),
        )
        .handle();
    assert_eq!(h, 0, "no demo handles with --state");
    emulator
        .http(
            "PUT",
            &format!("/appendable-data/{h}"),
            Some(&emulator.token),
            None,
        )
        .ok();
    emulator
        .terminate()
        .success()
        .stderr_has("live handles: appendable-data 1, structured-data 0, data-id 0");
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&state).expect("saved")).expect("JSON");
    assert_eq!(saved["format"], "safe-ad-emulator-state/1");
    assert_eq!(saved["appendableData"][0]["name"], name(7));
    assert_eq!(saved["appendableData"][0]["version"], 0);
    // Edit the fixture by hand, then serve it again: the data is there, the handles are not.
    let mut edited = saved.clone();
    edited["appendableData"][0]["version"] = json!(4);
    edited["appendableData"][0]["data"] =
        json!([{"structuredData": {"name": name(8), "typeTag": 500}}]);
    std::fs::write(&state, edited.to_string()).expect("edit");
    let emulator = Emulator::spawn(sandbox.safe_ad().args([
        "emulator",
        "--listen",
        "127.0.0.1:0",
        "--state",
        state_arg,
        "--quiet",
    ]));
    emulator
        .http(
            "GET",
            "/appendable-data/metadata/0",
            Some(&emulator.token),
            None,
        )
        .core(-1515);
    let d = emulator
        .http("POST", "/data-id/appendable-data", None, Some(&body))
        .handle();
    let v = emulator
        .http(
            "GET",
            &format!("/appendable-data/handle/{d}"),
            Some(&emulator.token),
            None,
        )
        .json();
    assert_eq!(
        (v["version"].as_u64(), v["dataLength"].as_u64()),
        (Some(4), Some(1))
    );
    emulator.terminate().success();
    let again: Value =
        serde_json::from_str(&std::fs::read_to_string(&state).expect("saved")).expect("JSON");
    assert_eq!(again["appendableData"], edited["appendableData"]);
    // A broken fixture is a usage error, said on stderr.
    std::fs::write(
        &state,
        "{\"format\":\"safe-ad-emulator-state/1\",\"typo\":[]}",
    )
    .expect("write");
    sandbox
        .safe_ad()
        .args(["emulator", "--listen", "127.0.0.1:0", "--state", state_arg])
        .run()
        .code(2)
        .stderr_has("--state");
}

#[test]
fn command_mode_with_a_log_shows_what_the_command_left_behind() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    // The command (bash with its /dev/tcp) makes one data-id handle and leaves it live.
    let script = format!(
        r#"a=${{SAFE_LAUNCHER_URL#http://}}; exec 3<>/dev/tcp/${{a%:*}}/${{a#*:}}; body='{{"name":"{}"}}'; printf 'POST /data-id/appendable-data HTTP/1.1\r\nHost: e\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s' ${{#body}} "$body" >&3; cat <&3 >/dev/null"#,
        name(1)
    );
    sandbox
        .safe_ad()
        .env("PATH", "/usr/bin:/bin")
        .args([
            "emulator",
            "--empty",
            "--log",
            log.to_str().expect("path"),
            "--",
            "bash",
            "-c",
            &script,
        ])
        .run()
        .success();
    let text = std::fs::read_to_string(&log).expect("log");
    let last: Value = serde_json::from_str(text.lines().last().expect("a record")).expect("JSON");
    assert_eq!(last["event"], "stop");
    assert_eq!(last["handles"]["data_id"], 1, "{text}");
}

#[test]
fn a_port_in_use_suggests_a_free_one() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("addr").port();
    SafeAd::new()
        .args(["emulator", "--listen", &format!("127.0.0.1:{port}")])
        .run()
        .code(1)
        .stderr_has("--listen 127.0.0.1:0");
    // And a token file that cannot be read is a usage error.
    SafeAd::new()
        .args(["emulator", "--token-file", "/nonexistent/token"])
        .run()
        .code(2)
        .stderr_has("--token-file");
}
