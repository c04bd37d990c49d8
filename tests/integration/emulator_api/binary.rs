//! The CI features of the binary: `--log` with live handle counts and never the token, `--state`
//! loaded and written back on a clean stop, command mode's account of what was left behind, and
//! the hint when the port is in use.

use super::*;

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
