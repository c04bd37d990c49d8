//! `--json`: one result per argument (its schema, the requests behind it only with
//! `--verbose`), one result for each error class (usage, auth, rejected, launcher, unreachable,
//! unexpected); `metadata --json` carries the launcher's fields at the top.

use super::*;

/// The keys every result has, and no requests (they come only with `--verbose`).
fn assert_result_schema(line: &Value) {
    for key in ["command", "input", "handle", "name", "ok"] {
        assert!(line.get(key).is_some(), "no {key:?} in {line}");
    }
    assert!(line["ok"].is_boolean(), "{line}");
    assert!(line.get("requests").is_none(), "{line}");
}

// ---- --json -----------------------------------------------------------------------------------

#[test]
fn json_success_lines_follow_the_schema() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let run = |verbose: bool| {
        let safe_ad = (sandbox.safe_ad().launcher(&emulator.url))
            .args(["--json", "clear-data", "1", "-"])
            .stdin("0\n");
        match verbose {
            true => safe_ad.arg("--verbose").run(),
            false => safe_ad.run(),
        }
    };
    let output = run(false);
    output.code(0);
    let lines = output.json_lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (line, handle) in lines.iter().zip([1u64, 0]) {
        assert_result_schema(line);
        assert_eq!(line["command"], json!("clear-data"));
        assert_eq!(line["handle"], json!(handle));
        assert_eq!(line["input"], json!(handle.to_string()));
        assert_eq!(line["ok"], json!(true));
        assert!(line.get("error").is_none(), "{line}");
        assert!(line.get("exit_code").is_none(), "{line}");
    }
    assert_eq!(lines[1]["line"], json!(1));
    assert_no_token(&output.text());
    // `--verbose`: the same results, each with the requests behind it.
    let output = run(true);
    output.code(0);
    let lines = output.json_lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (line, handle) in lines.iter().zip([1u64, 0]) {
        let requests = line["requests"]
            .as_array()
            .expect("requests under --verbose");
        assert_eq!(requests.len(), 1, "{line}");
        let request = &requests[0];
        assert_eq!(request["operation"], json!("clear-data"));
        assert_eq!(request["method"], json!("DELETE"));
        assert_eq!(
            request["url"],
            json!(format!(
                "{}/appendable-data/clear-data/{handle}",
                emulator.url
            ))
        );
        assert_eq!(request["status"], json!(200));
        assert!(request["elapsed_ms"].is_number(), "{request}");
    }
    assert_no_token(&output.text());
}

#[test]
fn json_usage_class_for_a_bad_handle_on_stdin() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["--json", "put", "-"])
        .stdin("0\n12abc\n")
        .run();
    output.code(2);
    let lines = output.json_lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["ok"], json!(true));
    let bad = &lines[1];
    assert_failure(bad, "usage", None, None, 2);
    assert_eq!(bad["line"], json!(2), "{bad}");
    assert_eq!(bad["handle"], json!(null), "{bad}");
    assert_eq!(bad["input"], json!("12abc"), "{bad}");
}

#[test]
fn json_auth_class_for_a_401() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .env("SAFE_LAUNCHER_TOKEN", "not-the-emulators-token")
        .args(["--json", "put", "0"])
        .run();
    output.code(3);
    let lines = output.json_lines();
    assert_eq!(lines.len(), 1);
    assert_result_schema(&lines[0]);
    assert_eq!(lines[0]["error"]["status"], json!(401));
    assert_failure(&lines[0], "auth", Some(401), None, 3);
    assert!(lines[0]["error"]["hint"]
        .as_str()
        .is_some_and(|hint| hint.contains("rejected the token")));
}

#[test]
fn json_rejected_class_for_an_unknown_handle() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["put", "999", "--json"])
        .run();
    output.code(4);
    let lines = output.json_lines();
    assert_eq!(lines.len(), 1);
    assert_result_schema(&lines[0]);
    assert_failure(&lines[0], "rejected", Some(400), Some(-1515), 4);
    assert_eq!(
        lines[0]["error"]["description"],
        json!("FfiError::InvalidAppendableDataHandle")
    );
    assert!(lines[0]["error"]["hint"]
        .as_str()
        .is_some_and(|hint| hint.contains("holds no appendable data under this handle")));
}

#[tokio::test]
async fn json_launcher_class_for_a_5xx() {
    let server = error_launcher(
        503,
        r#"{"errorCode":-37,"description":"CoreError::RequestTimeout"}"#,
    )
    .await;
    let output = SafeAd::new()
        .launcher(&server.uri())
        .args(["--json", "post", "7"])
        .run();
    output.code(5);
    let lines = output.json_lines();
    assert_eq!(lines.len(), 1);
    assert_result_schema(&lines[0]);
    assert_failure(&lines[0], "launcher", Some(503), Some(-37), 5);
    assert_eq!(
        lines[0]["error"]["description"],
        json!("CoreError::RequestTimeout")
    );
}

#[test]
fn json_unreachable_class_for_a_closed_port() {
    let url = closed_port_url();
    let output = SafeAd::new()
        .launcher(&url)
        .args(["--json", "clear-data", "7"])
        .run();
    output.code(6);
    let lines = output.json_lines();
    assert_eq!(lines.len(), 1);
    assert_result_schema(&lines[0]);
    assert_eq!(lines[0]["error"]["status"], json!(null));
    assert_failure(&lines[0], "unreachable", None, None, 6);
    assert!(lines[0]["error"]["description"]
        .as_str()
        .is_some_and(|d| d.contains("refused")));
}

#[tokio::test]
async fn json_unexpected_class_for_a_redirect() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(302).insert_header("location", "http://127.0.0.1:9/elsewhere"),
        )
        .mount(&server)
        .await;
    let output = SafeAd::new()
        .launcher(&server.uri())
        .args(["--json", "put", "7"])
        .run();
    output.code(1);
    let lines = output.json_lines();
    assert_eq!(lines.len(), 1);
    assert_result_schema(&lines[0]);
    assert_failure(&lines[0], "unexpected", Some(302), None, 1);
    assert_eq!(request_count(&server).await, 1);
}

#[test]
fn metadata_json_carries_the_launchers_fields() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["metadata", "--json", "1", "0"])
        .run();
    output.code(0);
    let lines = output.json_lines();
    assert_eq!(lines.len(), 2);
    assert_result_schema(&lines[0]);
    assert_eq!(lines[0]["command"], json!("metadata"));
    let facts = |line: &Value| {
        let keys = [
            "isOwner",
            "version",
            "filterType",
            "filterLength",
            "dataLength",
            "deletedDataLength",
        ];
        json!(keys.map(|key| line[key].clone()))
    };
    assert_eq!(
        facts(&lines[0]),
        json!([true, 1, "BlackList", 2, 3, 2]),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1]["dataLength"], json!(3));
    assert_eq!(lines[1]["version"], json!(0));
}

/// Every command that takes `--json` prints one result per handle or name it was given (one
/// for a command of one data), each saying which argument it is about, with the same keys for
/// a name as for a handle: `jq .version` reads the version of every command that reads one.
/// (0.2 printed an object per request: five for `metadata NAME`.)
#[test]
fn every_command_prints_one_result_per_argument() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let (saved, stale) = (emulator.demo_name(1), emulator.demo_name(2));
    let structured = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    // (the command and its arguments, the arguments a result is each about, its exit code,
    // whether each result has a version)
    let runs: Vec<(Vec<&str>, Vec<&str>, i32, bool)> = vec![
        (vec!["metadata", &saved, "1"], vec![&saved, "1"], 0, true),
        (vec!["show", &stale, "1"], vec![&stale, "1"], 0, true),
        (vec!["status", "1", "5"], vec!["1", "5"], 0, true),
        (vec!["open", &saved], vec![&saved], 0, true),
        (vec!["reopen", "5", "0"], vec!["5", "0"], 4, true),
        (vec!["remove", &stale, "0", "1"], vec![&stale], 0, true),
        (vec!["restore", "1", "0"], vec!["1"], 0, false),
        (vec!["purge", "1", "0"], vec!["1"], 0, false),
        (
            vec!["append", &stale, "--structured", structured],
            vec![&stale],
            0,
            false,
        ),
        (vec!["clear-data", &stale, "5"], vec![&stale, "5"], 0, false),
        (vec!["post", "5"], vec!["5"], 0, true),
        (vec!["clear-deleted-data", &stale], vec![&stale], 0, true),
        (
            vec!["wait", &saved, "--for", "version-above=0"],
            vec![&saved],
            0,
            true,
        ),
        (vec!["drop", "0", "nope"], vec!["0", "nope"], 2, false),
    ];
    for (args, about, code, versioned) in runs {
        let output = (sandbox.safe_ad().launcher(&emulator.url))
            .arg("--json")
            .args(&args)
            .run();
        output.code(code);
        let lines = output.json_lines();
        let inputs: Vec<&str> = lines.iter().filter_map(|l| l["input"].as_str()).collect();
        assert_eq!(inputs, about, "{args:?}: {lines:?}");
        for line in &lines {
            assert_eq!(line["command"], args[0], "{args:?}: {line}");
            assert!(line.get("requests").is_none(), "{args:?}: {line}");
            // A name's copy is given back, so no handle; `open` makes one, which is its result.
            let named = line["input"].as_str().is_some_and(|i| i.len() == 44);
            if named && args[0] != "open" {
                assert_eq!(line["handle"], Value::Null, "{args:?}: {line}");
            }
            if versioned && line["ok"] == true {
                assert!(line["version"].is_u64(), "{args:?}: no version in {line}");
            }
        }
    }
}
