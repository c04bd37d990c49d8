//! A reset between two scripts leaves no trace of the first and counts faults afresh; `handles`
//! shows what each live handle holds; request lines and `--log` records carry the launcher's error
//! and say what they are in their `event` key.

use super::*;

#[test]
fn a_reset_between_two_scripts_leaves_no_trace_of_the_first() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--quiet", "--log", path_arg(&log)]);
    let fresh_network = admin(&emulator, "GET", "/_emulator/network", None).body;
    let fresh_handles = admin(&emulator, "GET", "/_emulator/handles", None).json();
    assert_eq!(fresh_handles["nextHandle"], 6);
    assert_eq!(
        fresh_handles["appendableData"].as_array().map(Vec::len),
        Some(4)
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
    assert!(handles["nextHandle"].as_u64() > Some(6));
    let saved = handles["appendableData"]
        .as_array()
        .expect("handles")
        .iter()
        .find(|ad| ad["handle"] == 6)
        .expect("handle 6")
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
    second.success().stdout_is("6\n");

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
                r["error_code"].clone(),
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
    assert_eq!(records[2]["handles"]["appendable_data"], 4);
    // Each record's first key is `event`.
    let text = std::fs::read_to_string(&log).expect("log");
    assert!(
        text.lines().all(|line| line.starts_with("{\"event\":\"")),
        "{text}"
    );
}
