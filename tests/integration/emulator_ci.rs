//! The emulator as a CI service: its own routes under `/_emulator/` (journal, network, handles,
//! reset) and that they need its token; the launcher's error in log lines and `--log` records and
//! the `event` key.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;

use serde_json::{json, Value};

use crate::harness::emulator::{path_arg, Emulator};
use crate::harness::http::name;
use crate::harness::*;

/// The records of a `--log` file.
#[track_caller]
fn records(log: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(log).expect("the log file");
    assert!(text.ends_with('\n'), "the log ends in half a line: {text}");
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// Checks that a `--log` file is whole: the start record first, the stop record last, request
/// records (and resets) between, and the stop counting every request record; returns the
/// request records.
#[track_caller]
fn whole_log(log: &Path) -> Vec<Value> {
    let records = records(log);
    assert_eq!(records.first().map(|r| &r["event"]), Some(&json!("start")));
    let stop = records.last().expect("records");
    assert_eq!(stop["event"], "stop", "{records:?}");
    let requests: Vec<Value> = records
        .iter()
        .filter(|r| r["event"] == "request")
        .cloned()
        .collect();
    assert!(records.iter().all(
        |r| ["start", "request", "reset", "stop"].contains(&r["event"].as_str().unwrap_or(""))
    ));
    assert_eq!(stop["requests"].as_u64(), Some(requests.len() as u64));
    assert_eq!(stop["lost"], 0);
    requests
}

// ---- the emulator's own routes ---------------------------------------------------------------

/// A request to the emulator at `addr` with the token (`Some`), as `curl -H` sends it.
fn admin(
    emulator: &Emulator,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> crate::harness::http::Resp {
    emulator.http(method, path, Some(TOKEN), body)
}

/// The journal as its records.
fn journal(emulator: &Emulator, query: &str) -> Vec<Value> {
    let answer = admin(
        emulator,
        "GET",
        &format!("/_emulator/requests{query}"),
        None,
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.content_type, "application/x-ndjson; charset=utf-8");
    answer
        .body
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON record"))
        .collect()
}

/// `METHOD /path STATUS` of each record.
fn lines(records: &[Value]) -> Vec<String> {
    records
        .iter()
        .map(|r| {
            format!(
                "{} {} {}",
                r["method"].as_str().unwrap(),
                r["path"].as_str().unwrap(),
                r["status"]
            )
        })
        .collect()
}

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
            "PUT /appendable-data/5 200",
            "DELETE /appendable-data/clear-data/5 200",
            "POST /appendable-data/5 200",
        ]
    );
    assert_eq!(
        lines(&journal(&emulator, "?method=put")),
        ["PUT /appendable-data/5 200"]
    );
    assert_eq!(
        lines(&journal(&emulator, "?method=POST&path=/appendable-data/5")),
        ["POST /appendable-data/5 200"]
    );
    assert_eq!(journal(&emulator, "?path=%2Fappendable-data%2F*").len(), 3);
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
    assert_eq!(cleared.json(), json!({"cleared": 4}));
    assert!(journal(&emulator, "").is_empty());
    emulator.terminate().success();

    // The same records as --log, byte for byte; the emulator's own routes only in --log.
    let text = std::fs::read_to_string(&log).expect("log");
    let logged: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("{\"event\":\"request\""))
        .collect();
    assert_eq!(logged.len(), 4 + 10, "{text}");
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

#[test]
fn a_reset_between_two_scripts_leaves_no_trace_of_the_first() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--quiet", "--log", path_arg(&log)]);
    let fresh_network = admin(&emulator, "GET", "/_emulator/network", None).body;
    let fresh_handles = admin(&emulator, "GET", "/_emulator/handles", None).json();
    assert_eq!(fresh_handles["nextHandle"], 5);
    assert_eq!(
        fresh_handles["appendableData"].as_array().map(Vec::len),
        Some(3)
    );
    assert_eq!(fresh_handles["dataId"][0]["handle"], 3);

    // The first script: saves new data, changes handle 1's, leaves handles and a token behind.
    let first = "safe-ad create --put && safe-ad clear-data --save post 1 && \
                 safe-ad open c2FmZS1hZCBkZW1vOiBzYXZlZC4uLi4uLi4uLi4uLi4=";
    sandbox
        .shell("sh", first)
        .launcher(&emulator.url)
        .run()
        .success();
    let app_token = emulator.token_with(r#"["LOW_LEVEL_API"]"#);
    let after_first = admin(&emulator, "GET", "/_emulator/network", None).body;
    assert_ne!(after_first, fresh_network);
    let handles = admin(&emulator, "GET", "/_emulator/handles", None).json();
    assert!(handles["nextHandle"].as_u64() > Some(5));
    let saved = handles["appendableData"]
        .as_array()
        .expect("handles")
        .iter()
        .find(|ad| ad["handle"] == 5)
        .expect("handle 5")
        .clone();
    assert_eq!(saved["onNetwork"], 0, "{saved}");

    admin(&emulator, "POST", "/_emulator/reset/demo", None);
    assert_eq!(
        admin(&emulator, "GET", "/_emulator/network", None).body,
        fresh_network
    );
    assert_eq!(
        admin(&emulator, "GET", "/_emulator/handles", None).json(),
        fresh_handles
    );
    assert!(journal(&emulator, "").is_empty());
    assert_eq!(
        emulator.http("GET", "/auth", Some(&app_token), None).status,
        401
    );
    // The second script sees what a fresh emulator shows.
    let second = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["create", "--put"])
        .run();
    second.success().stdout_is("5\n");

    // To nothing, and to what the first script left, from a --state file's content.
    let empty = admin(&emulator, "POST", "/_emulator/reset/empty", None);
    assert_eq!(empty.json(), json!({"reset": "empty"}));
    assert_eq!(
        admin(&emulator, "GET", "/_emulator/handles", None).json()["nextHandle"],
        0
    );
    let restored = admin(
        &emulator,
        "POST",
        "/_emulator/reset/state",
        Some(&after_first),
    );
    assert_eq!(restored.json(), json!({"reset": "state"}));
    assert_eq!(
        admin(&emulator, "GET", "/_emulator/network", None).body,
        after_first
    );
    let handles = admin(&emulator, "GET", "/_emulator/handles", None).json();
    assert_eq!(handles["nextHandle"], 0);
    assert_eq!(handles["appendableData"], json!([]));
    let bad = admin(
        &emulator,
        "POST",
        "/_emulator/reset/state",
        Some(r#"{"format":"safe-ad-emulator-state/1","appendableData":[{"name":"x"}]}"#),
    );
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("nothing was reset"), "{}", bad.body);
    assert_eq!(
        admin(&emulator, "GET", "/_emulator/network", None).body,
        after_first
    );
    emulator.terminate().success();

    let events: Vec<String> = records(&log)
        .iter()
        .map(|r| match r["event"].as_str() {
            Some("reset") => format!("reset {}", r["network"].as_str().unwrap()),
            other => other.unwrap_or("").to_owned(),
        })
        .filter(|event| event != "request")
        .collect();
    assert_eq!(
        events,
        ["start", "reset demo", "reset empty", "reset state", "stop"]
    );
}

/// Sends `GET /appendable-data/metadata/1` and says how it was answered: the status, or 0 for a
/// connection closed without an answer.
fn answered(addr: SocketAddr) -> u16 {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(DEADLINE)).expect("timeout");
    let request = format!(
        "GET /appendable-data/metadata/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).expect("write");
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    String::from_utf8_lossy(&raw)
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_reset_counts_injected_faults_from_the_first_request_again() {
    let emulator = Emulator::start(&["--quiet", "--fault-rate", "0.5", "--fault-seed", "7"]);
    let run = || {
        (0..24)
            .map(|_| answered(emulator.addr()))
            .collect::<Vec<u16>>()
    };
    let first = run();
    assert!(
        first.contains(&200) && first.iter().any(|s| *s != 200),
        "{first:?}"
    );
    admin(&emulator, "POST", "/_emulator/reset/demo", None);
    assert_eq!(run(), first);
    emulator.terminate().success();
}

#[test]
fn handles_show_what_each_live_handle_holds() {
    let emulator = Emulator::start(&["--empty"]);
    let body = json!({"name": name(9), "isPrivate": true}).to_string();
    let ad = emulator
        .http("POST", "/appendable-data", Some(TOKEN), Some(&body))
        .handle();
    let key = emulator
        .http("GET", "/sign-key", Some(TOKEN), None)
        .handle();
    let encrypt = emulator
        .http(
            "GET",
            &format!("/appendable-data/encrypt-key/{ad}"),
            Some(TOKEN),
            None,
        )
        .handle();
    let id_body = json!({"name": name(9), "isPrivate": true}).to_string();
    let data_id = emulator
        .http("POST", "/data-id/appendable-data", None, Some(&id_body))
        .handle();
    let handles = admin(&emulator, "GET", "/_emulator/handles", None).json();
    assert_eq!(handles["nextHandle"], data_id + 1);
    let named = json!({"name": name(9), "isPrivate": true});
    assert_eq!(handles["appendableData"][0]["handle"], ad);
    assert_eq!(handles["appendableData"][0]["name"], named["name"]);
    assert_eq!(handles["appendableData"][0]["onNetwork"], Value::Null);
    assert_eq!(
        handles["signKey"],
        json!([{"handle": key, "signKey": handles["signKey"][0]["signKey"], "user": true}])
    );
    assert_eq!(
        handles["encryptKey"],
        json!([{"handle": encrypt, "appendableData": named}])
    );
    assert_eq!(
        handles["dataId"],
        json!([{"handle": data_id, "appendableData": named}])
    );
    assert_eq!(handles["structuredData"], json!([]));
    emulator.terminate().success();
}

// ---- logs that answer "why" ------------------------------------------------------------------

#[test]
fn request_lines_and_log_records_carry_the_launchers_error() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--log", path_arg(&log)]);
    emulator.http("PUT", "/appendable-data/1", Some(TOKEN), None);
    emulator.http("POST", "/appendable-data", Some(TOKEN), Some("{}"));
    emulator.http("GET", "/nowhere", None, None);
    emulator.http("GET", "/auth", Some("not-a-token"), None);
    emulator.http("PUT", "/appendable-data/0", Some(TOKEN), None);
    let stderr = emulator.wait_log("PUT /appendable-data/0 200 ");
    for line in [
        "PUT /appendable-data/1 400 -23 DataExists ",
        "POST /appendable-data 400 400 \"name field is missing\" ",
        "GET /nowhere 404 404 \"Endpoint Not Found\" ",
        "GET /auth 401 \"Unauthorized\" ",
    ] {
        assert!(
            stderr.lines().any(|l| l.starts_with(line)),
            "no line {line:?} in:\n{stderr}"
        );
    }
    emulator.terminate().success();
    let requests = whole_log(&log);
    let errors: Vec<(Value, Value, Value)> = requests
        .iter()
        .map(|r| {
            (
                r["status"].clone(),
                r["errorCode"].clone(),
                r["description"].clone(),
            )
        })
        .collect();
    assert_eq!(
        errors,
        [
            (
                json!(400),
                json!(-23),
                json!("CoreError::MutationFailure::MutationError::DataExists")
            ),
            (json!(400), json!(400), json!("name field is missing")),
            (json!(404), json!(404), json!("Endpoint Not Found")),
            (json!(401), Value::Null, json!("Unauthorized")),
            (json!(200), Value::Null, Value::Null),
        ]
    );
}

#[test]
fn every_log_record_says_what_it_is_in_its_event_key() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--quiet", "--empty", "--log", path_arg(&log)]);
    emulator.http("GET", "/health", None, None);
    admin(&emulator, "POST", "/_emulator/reset/demo", None);
    let url = emulator.url.clone();
    let pid = emulator.pid();
    emulator.terminate().success();
    let records = records(&log);
    let events: Vec<&str> = records
        .iter()
        .map(|r| r["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["start", "request", "reset", "request", "stop"]);
    assert_eq!(records[0]["url"], json!(url));
    assert_eq!(records[0]["pid"], json!(pid));
    assert_eq!(records[0]["network"], "empty");
    assert_eq!(records[0]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(records[2]["network"], "demo");
    assert_eq!(records[2]["handles"]["appendableData"], 3);
    // Each record's first key is `event`.
    let text = std::fs::read_to_string(&log).expect("log");
    assert!(
        text.lines().all(|line| line.starts_with("{\"event\":\"")),
        "{text}"
    );
}
