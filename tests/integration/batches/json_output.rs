//! `--json`: the schema of a success line, and one line for each error class (usage, auth,
//! rejected, launcher, unreachable, unexpected); `metadata --json` carries the launcher's fields.

use super::*;

/// The keys every operation line has.
fn assert_operation_schema(line: &Value) {
    for key in [
        "handle",
        "operation",
        "method",
        "url",
        "status",
        "ok",
        "elapsed_ms",
    ] {
        assert!(line.get(key).is_some(), "no {key:?} in {line}");
    }
    assert!(line["elapsed_ms"].is_number(), "{line}");
    assert!(line["ok"].is_boolean(), "{line}");
}

// ---- --json -----------------------------------------------------------------------------------

#[test]
fn json_success_lines_follow_the_schema() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["--json", "clear-data", "1", "-"])
        .stdin("0\n")
        .run();
    output.code(0);
    let lines = output.json_lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (line, handle) in lines.iter().zip([1u64, 0]) {
        assert_operation_schema(line);
        assert_eq!(line["handle"], json!(handle));
        assert_eq!(line["operation"], json!("clear-data"));
        assert_eq!(line["method"], json!("DELETE"));
        assert_eq!(
            line["url"],
            json!(format!(
                "{}/appendable-data/clear-data/{handle}",
                emulator.url
            ))
        );
        assert_eq!(line["status"], json!(200));
        assert_eq!(line["ok"], json!(true));
        assert!(line.get("error").is_none(), "{line}");
        assert!(line.get("exit_code").is_none(), "{line}");
    }
    assert_eq!(lines[1]["line"], json!(1));
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
    assert_operation_schema(&lines[0]);
    assert_eq!(lines[0]["status"], json!(401));
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
    assert_operation_schema(&lines[0]);
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
    assert_operation_schema(&lines[0]);
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
    assert_operation_schema(&lines[0]);
    assert_eq!(lines[0]["status"], json!(null));
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
    assert_operation_schema(&lines[0]);
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
    assert_operation_schema(&lines[0]);
    assert_eq!(lines[0]["operation"], json!("metadata"));
    assert_eq!(lines[0]["method"], json!("GET"));
    assert_eq!(
        lines[0]["metadata"],
        json!({
            "isOwner": true,
            "version": 1,
            "filterType": "BlackList",
            "filterLength": 2,
            "dataLength": 3,
            "deletedDataLength": 2,
        })
    );
    assert_eq!(lines[1]["metadata"]["dataLength"], json!(3));
    assert_eq!(lines[1]["metadata"]["version"], json!(0));
}
