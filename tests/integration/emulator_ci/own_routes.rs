//! The emulator's own routes under `/_emulator/`: the journal lists exactly what a script sent, as
//! its `--log` records it; they need the emulator's own token, which `DELETE /auth` does not revoke,
//! and are otherwise the unknown routes they look like.

use super::*;

#[test]
fn the_journal_lists_exactly_the_requests_a_script_sent_as_its_log_records() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--quiet", "--log", path_arg(&log)]);
    assert!(journal(&emulator, "").is_empty());
    sandbox
        .shell(
            "sh",
            "h=$(safe-ad create --put) && safe-ad clear-data --save post \"$h\"",
        )
        .launcher(&emulator.url)
        .run()
        .success();
    let all = journal(&emulator, "");
    assert_eq!(
        lines(&all),
        [
            "POST /appendable-data 200",
            "PUT /appendable-data/6 200",
            "DELETE /appendable-data/clear-data/6 200",
            "POST /appendable-data/6 200",
            "GET /appendable-data/metadata/6 200",
        ]
    );
    assert_eq!(
        lines(&journal(&emulator, "?method=put")),
        ["PUT /appendable-data/6 200"]
    );
    assert_eq!(
        lines(&journal(&emulator, "?method=POST&path=/appendable-data/6")),
        ["POST /appendable-data/6 200"]
    );
    assert_eq!(journal(&emulator, "?path=%2Fappendable-data%2F*").len(), 4);
    assert!(journal(&emulator, "?path=/sign-key*").is_empty());
    let bad = admin(&emulator, "GET", "/_emulator/requests?status=200", None);
    assert_eq!(bad.status, 400);
    assert!(
        bad.body.contains("unknown query parameter `status`"),
        "{}",
        bad.body
    );

    let journaled = admin(&emulator, "GET", "/_emulator/requests", None).body;
    let cleared = admin(&emulator, "DELETE", "/_emulator/requests", None);
    assert_eq!(cleared.json(), json!({"cleared": 5}));
    assert!(journal(&emulator, "").is_empty());
    emulator.terminate().success();

    // The same records as --log, byte for byte; the emulator's own routes only in --log.
    let text = std::fs::read_to_string(&log).expect("log");
    let logged: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("{\"event\":\"request\""))
        .collect();
    assert_eq!(logged.len(), 5 + 10, "{text}");
    let ordinary: Vec<&str> = logged
        .iter()
        .copied()
        .filter(|line| !line.contains("\"path\":\"/_emulator/"))
        .collect();
    assert_eq!(ordinary, journaled.lines().collect::<Vec<_>>());
}

/// Every route of the emulator's own, with a body for the reset from a state.
const OWN_ROUTES: [(&str, &str); 7] = [
    ("GET", "/_emulator/requests"),
    ("DELETE", "/_emulator/requests"),
    ("GET", "/_emulator/network"),
    ("GET", "/_emulator/handles"),
    ("POST", "/_emulator/reset/empty"),
    ("POST", "/_emulator/reset/demo"),
    ("POST", "/_emulator/reset/state"),
];

#[test]
fn the_emulators_own_routes_need_its_token_and_are_otherwise_unknown_routes() {
    for strict in [false, true] {
        let flags: &[&str] = if strict { &["--strict-paths"] } else { &[] };
        let emulator = Emulator::start(flags);
        let unknown = emulator.http("GET", "/no-such-route", None, None);
        assert_eq!(
            (unknown.status, unknown.body.as_str()),
            (
                404,
                r#"{"errorCode":404,"description":"Endpoint Not Found"}"#
            )
        );
        let app_token = emulator.token_with(r#"["LOW_LEVEL_API"]"#);
        let addr = emulator.addr();
        for (method, path) in OWN_ROUTES {
            let what = format!("{method} {path} (strict {strict})");
            let anonymous = emulator.http(method, path, None, None);
            assert_eq!(
                (anonymous.status, &anonymous.body),
                (404, &unknown.body),
                "{what}"
            );
            let other = emulator.http(method, path, Some(&app_token), None);
            assert_eq!((other.status, &other.body), (404, &unknown.body), "{what}");
            for bad in [
                "Bearer wrong-token",
                "Basic abc",
                &format!("Bearer  {TOKEN}"),
            ] {
                let answer =
                    crate::harness::http::send(addr, method, path, &[("Authorization", bad)], None);
                assert_eq!(
                    (answer.status, answer.body.as_str()),
                    (401, "Unauthorized"),
                    "{what} {bad}"
                );
            }
            // Only at the root, exactly as written.
            for elsewhere in [
                format!("/0.6{path}"),
                format!("{path}/"),
                path.to_uppercase(),
            ] {
                let answer = admin(&emulator, method, &elsewhere, None);
                assert_eq!(answer.status, 404, "{method} {elsewhere}");
            }
        }
        // Each refused request is journaled as the ordinary request it was.
        let journaled = journal(&emulator, "?path=/_emulator*");
        assert_eq!(journaled.len(), OWN_ROUTES.len() * 5, "strict {strict}");
        assert!(journaled
            .iter()
            .all(|r| r["status"] == 404 || r["status"] == 401));
        emulator.terminate().success();
    }
}

#[test]
fn the_emulators_token_opens_its_routes_even_after_a_client_revoked_it() {
    let emulator = Emulator::start(&[]);
    assert_eq!(
        emulator.http("DELETE", "/auth", Some(TOKEN), None).status,
        200
    );
    assert_eq!(emulator.http("GET", "/auth", Some(TOKEN), None).status, 401);
    assert_eq!(
        admin(&emulator, "GET", "/_emulator/network", None).status,
        200
    );
    let reset = admin(&emulator, "POST", "/_emulator/reset/demo", None);
    assert_eq!(reset.json(), json!({"reset": "demo"}));
    assert_eq!(emulator.http("GET", "/auth", Some(TOKEN), None).status, 200);
    let unknown = admin(&emulator, "POST", "/_emulator/reset", None);
    assert_eq!(unknown.status, 404);
    assert!(
        unknown
            .body
            .contains("the emulator's own routes are GET /_emulator/requests"),
        "{}",
        unknown.body
    );
    emulator.terminate().success();
}
