//! `auth status`, `config show` and `config path` in JSON (every key, the token masked, the same
//! exit codes), and `-q`, which changes only the output: a quiet batch still stops when its reader
//! has gone, and a quiet Ctrl-C still says what was sent but not awaited.

use super::*;

// ---- JSON of auth status, config show, config path ---------------------------------------------

/// A launcher that answers `GET /auth` with `status` when the test token is sent.
async fn checking_launcher(status: u16) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/auth"))
        .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
        .respond_with(
            ResponseTemplate::new(status).set_body_string(if status == 200 {
                "OK"
            } else {
                "Unauthorized"
            }),
        )
        .mount(&server)
        .await;
    server
}

/// The keys of a JSON object, sorted.
fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

/// A setting as the JSON gives it: `{value, source, from}`.
fn setting(value: impl Into<Value>, source: Option<&str>, from: Option<&str>) -> Value {
    serde_json::json!({"value": value.into(), "source": source, "from": from})
}

/// The token as `auth status` and `config show` show it: a few leading characters and the
/// length, never the whole.
fn masked_token() -> Value {
    let shown: String = TOKEN.chars().take(4).collect();
    Value::from(format!("{shown}… ({} characters)", TOKEN.chars().count()))
}

/// One JSON object on stdout, and nothing else there.
#[track_caller]
fn only_object(output: &Output) -> Value {
    let mut lines = output.json_lines();
    output.check(
        lines.len() == 1,
        "expected exactly one JSON object on stdout",
    );
    lines.remove(0)
}

#[tokio::test]
async fn auth_status_json_is_one_object_with_the_same_exit_code() {
    let accepting = checking_launcher(200).await;
    let refusing = checking_launcher(401).await;
    let closed = closed_port_url();
    // (case, launcher, token in the env, exit code, status, error class)
    let cases = [
        ("accepted", accepting.uri(), true, 0, "accepted", None),
        ("401", refusing.uri(), true, 3, "not_accepted", Some("auth")),
        (
            "no token",
            accepting.uri(),
            false,
            3,
            "no_token",
            Some("auth"),
        ),
        (
            "closed port",
            closed.clone(),
            true,
            6,
            "unreachable",
            Some("unreachable"),
        ),
    ];
    for (case, url, with_token, code, status, class) in cases {
        let run = |json: bool| {
            let mut safe_ad = SafeAd::new().case(case).env("SAFE_LAUNCHER_URL", &url);
            if with_token {
                safe_ad = safe_ad.env("SAFE_LAUNCHER_TOKEN", TOKEN);
            }
            if json {
                safe_ad = safe_ad.arg("--json");
            }
            safe_ad.args(["auth", "status"]).run()
        };
        run(false).code(code);
        let output = run(true);
        output.code(code);
        let object = only_object(&output);
        let mut expected_keys = vec!["exit_code", "launcher_url", "ok", "status", "token"];
        if class.is_some() {
            expected_keys.push("error");
        }
        expected_keys.sort_unstable();
        assert_eq!(keys(&object), expected_keys, "{case}: {object}");
        assert_eq!(
            object["launcher_url"],
            setting(url.as_str(), Some("env"), Some("SAFE_LAUNCHER_URL")),
            "{case}"
        );
        let token = if with_token {
            setting(masked_token(), Some("env"), Some("SAFE_LAUNCHER_TOKEN"))
        } else {
            setting(Value::Null, None, None)
        };
        assert_eq!(object["token"], token, "{case}");
        assert_eq!(object["status"], status, "{case}");
        assert_eq!(object["ok"], code == 0, "{case}");
        assert_eq!(object["exit_code"], code, "{case}");
        if let Some(class) = class {
            assert_eq!(object["error"]["class"], class, "{case}: {object}");
        }
        // The plain lines' words do not leak into stdout next to the object.
        output.check(
            !output.stdout().contains("launcher  "),
            "plain text on stdout",
        );
    }
}

#[test]
fn config_show_and_config_path_json_name_each_setting_and_where_it_comes_from() {
    let sandbox = Sandbox::new();
    let file = sandbox.config_file().display().to_string();
    // Before the file exists.
    let path = only_object(
        sandbox
            .safe_ad()
            .args(["config", "path", "--json"])
            .run()
            .success(),
    );
    assert_eq!(path, serde_json::json!({"path": file, "exists": false}));
    let shown = only_object(
        sandbox
            .safe_ad()
            .args(["config", "show", "--json"])
            .run()
            .success(),
    );
    // Every config key (from the one list of them, so a new key cannot be left out unseen) and
    // where the file is.
    let mut expected: Vec<&str> = safe_ad::test_support::config_file::Key::ALL
        .map(|key| key.name())
        .into();
    expected.extend(["config_file", "profile"]);
    expected.sort_unstable();
    assert_eq!(keys(&shown), expected);
    assert_eq!(
        shown["launcher_url"],
        setting("http://localhost:8100", Some("default"), None)
    );
    assert_eq!(shown["token"], setting(Value::Null, None, None));
    assert_eq!(shown["timeout_secs"], setting(30.0, Some("default"), None));
    assert_eq!(
        shown["config_file"],
        serde_json::json!({"path": file, "exists": false})
    );

    // Each setting from another place: the token and timeout from the file, the URL from a flag.
    sandbox.write_config(&format!(r#"{{"token": "{TOKEN}", "timeout_secs": 12.5}}"#));
    let output = sandbox
        .safe_ad()
        .args([
            "config",
            "show",
            "--json",
            "--launcher-url",
            "http://127.0.0.1:9/0.6",
        ])
        .run();
    output.success();
    let shown = only_object(&output);
    assert_eq!(
        shown["launcher_url"],
        setting(
            "http://127.0.0.1:9/0.6",
            Some("flag"),
            Some("--launcher-url")
        )
    );
    assert_eq!(
        shown["token"],
        setting(masked_token(), Some("config_file"), Some(&file))
    );
    assert_eq!(
        shown["timeout_secs"],
        setting(12.5, Some("config_file"), Some(&file))
    );
    assert_eq!(
        shown["config_file"],
        serde_json::json!({"path": file, "exists": true})
    );
    let path = only_object(
        sandbox
            .safe_ad()
            .args(["config", "path", "--json"])
            .run()
            .success(),
    );
    assert_eq!(path, serde_json::json!({"path": file, "exists": true}));

    // The token from a file given with --token-file names that file.
    let token_file = sandbox.file("token.txt", TOKEN);
    let token_path = token_file.display().to_string();
    let shown = only_object(
        sandbox
            .safe_ad()
            .args(["config", "show", "--json", "--token-file", &token_path])
            .run()
            .success(),
    );
    assert_eq!(
        shown["token"],
        setting(masked_token(), Some("token_file"), Some(&token_path))
    );
}

#[tokio::test]
async fn auth_status_quiet_prints_nothing_and_lets_the_exit_code_speak() {
    let accepting = checking_launcher(200).await;
    let refusing = checking_launcher(401).await;
    for (url, code) in [(accepting.uri(), 0), (refusing.uri(), 3)] {
        for line in [
            &["-q", "auth", "status"][..],
            &["auth", "status", "--quiet"],
        ] {
            let output = SafeAd::new().launcher(&url).args(line).run();
            output.code(code).stdout_is("");
            if code == 0 {
                output.stderr_is("");
            } else {
                // The error still says why: -q silences success, not failure.
                output.stderr_has("401");
            }
        }
    }
}

// ---- -q changes output only ---------------------------------------------------------------------

/// `yes 1 | safe-ad -q COMMAND - | true`: the reader of stdout is gone from the start and `yes`
/// never ends, so a batch that did not notice would run until the deadline fails the test. With
/// `metadata` each answer is data, printed even with `-q`, and the failed write tells safe-ad;
/// `clear-data` prints nothing with `-q`, so only asking the pipe can (before, it ran forever).
#[cfg(feature = "emulator")]
#[test]
fn quiet_batch_stops_when_its_reader_has_gone() {
    use crate::harness::emulator::Emulator;
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    for (command, request) in [
        ("metadata", "GET /appendable-data/metadata/1 "),
        ("clear-data", "DELETE /appendable-data/clear-data/1 "),
    ] {
        let output = sandbox
            .shell("sh", &format!("yes 1 | safe-ad -q {command} - | true"))
            .env("SAFE_LAUNCHER_URL", &emulator.url)
            .env("SAFE_LAUNCHER_TOKEN", &emulator.token)
            .run();
        output
            .success()
            .stdout_is("")
            .stderr_has("the rest of standard input not read");
        let summary = output
            .stderr()
            .lines()
            .find(|line| line.contains(" handles: "))
            .expect("a summary line");
        // `N handles: A ok, B failed, ...`: what it says it sent, the emulator saw.
        let count = |word: &str| -> usize {
            summary
                .split(", ")
                .find_map(|part| part.strip_suffix(word))
                .and_then(|n| n.rsplit(' ').next()?.parse().ok())
                .unwrap_or_else(|| panic!("no {word:?} in {summary:?}"))
        };
        let sent = count(" ok") + count(" failed");
        let seen = emulator
            .requests()
            .iter()
            .filter(|line| line.starts_with(request))
            .count();
        assert_eq!(
            seen, sent,
            "{command}: the summary ({summary}) and the emulator disagree"
        );
    }
}

/// `-q` and Ctrl-C while requests are out: the one line a person must read after an interrupt
/// (some requests were sent and may have taken effect) is not success output, so it stays.
#[test]
fn quiet_ctrl_c_still_says_what_was_sent_but_not_awaited() {
    let launcher = RawLauncher::start(|conn| {
        if conn.request().is_some() {
            conn.hold();
        }
    });
    let running = SafeAd::new()
        .launcher(&launcher.url)
        .args(["-q", "--jobs", "2", "put", "1", "2", "3", "4"])
        .spawn();
    launcher.wait_for_requests(2);
    running.interrupt();
    let output = running.wait();
    output
        .code(130)
        .stdout_is("")
        .stderr_has("4 handles: 0 ok, 0 failed, 2 sent but not awaited (they may have taken effect), 2 not started")
        .stderr_has("safe-ad: error: interrupted");
    launcher.settle();
    assert_eq!(
        launcher.requests().len(),
        2,
        "requests went out after Ctrl-C"
    );
}
