//! Every route with the launcher's auth rules, under its three prefixes with or without one
//! trailing slash; the launcher's path matching, `--strict-paths`, and create's validation
//! errors in the order the launcher checks them.

use super::*;

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
        safe_ad_emulator::TABLE.len(),
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
