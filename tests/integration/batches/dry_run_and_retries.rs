//! What a script can ask before or instead of sending: `--dry-run` and `--curl` (the token masked,
//! nothing sent, the curl lines doing what safe-ad does), and `--retries`: the 100/200/400 ms
//! schedule, and which requests are never sent twice.

use super::*;

// ---- --dry-run and --curl ---------------------------------------------------------------------

#[tokio::test]
async fn dry_run_shows_each_request_with_the_token_masked_and_sends_nothing() {
    let server = any_ok_launcher().await;
    let base = format!("{}/0.6", server.uri());
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&base)
        .args(["--dry-run", "clear-data", "--save", "post", "7", "-"])
        .stdin("8\n")
        .run();
    output.code(0);
    let text = output.text();
    assert_no_token(&text);
    let stdout = output.stdout();
    let request_lines: Vec<&str> = stdout
        .lines()
        .filter(|line| !line.starts_with(' '))
        .collect();
    assert_eq!(
        request_lines,
        [
            format!("DELETE {base}/appendable-data/clear-data/7"),
            format!("POST {base}/appendable-data/7"),
            format!("GET {base}/appendable-data/metadata/7"),
            format!("DELETE {base}/appendable-data/clear-data/8"),
            format!("POST {base}/appendable-data/8"),
            format!("GET {base}/appendable-data/metadata/8"),
        ]
    );
    let masked = stdout
        .lines()
        .filter(|line| line.trim_start().starts_with("authorization: Bearer "))
        .count();
    assert_eq!(masked, 6, "{stdout}");
    assert_nothing_sent(&server, "--dry-run").await;

    let invalid = sandbox
        .safe_ad()
        .launcher(&base)
        .args(["--dry-run", "put", "-"])
        .stdin("x\n")
        .run();
    invalid.code(2);
    assert_nothing_sent(&server, "--dry-run with a bad handle").await;
}

#[tokio::test]
async fn curl_prints_commands_that_read_the_token_from_the_env_and_sends_nothing() {
    let server = any_ok_launcher().await;
    let base = server.uri();
    let output = SafeAd::new()
        .launcher(&base)
        .args(["--curl", "metadata", "7", "8"])
        .run();
    output.code(0);
    assert_no_token(&output.text());
    let stdout = output.stdout();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    for (line, handle) in lines.iter().zip([7, 8]) {
        assert!(line.starts_with("curl "), "{line}");
        assert!(line.contains("$SAFE_LAUNCHER_TOKEN"), "{line}");
        assert!(line.contains("-X GET"), "{line}");
        assert!(
            line.contains(&format!("{base}/appendable-data/metadata/{handle}")),
            "{line}"
        );
    }
    assert_nothing_sent(&server, "--curl").await;
}

/// The lines `--curl` prints, run in a shell as a person would paste them, do what safe-ad does,
/// wherever the token came from (docs/output.md, Debugging): the env var, the config file (the line
/// fetches it with `safe-ad auth token`), a token file (`safe-ad --token-file PATH auth token`),
/// and standard input, which cannot be read again: a note says to export the env var, and once it
/// is exported the lines work. Each source also with whitespace around the token: safe-ad trims
/// a file's (a final newline is what editors write) and the lines still work, as they fetch the
/// token trimmed; the env var's is refused (exit 2, nothing printed), since the lines hand the
/// variable to curl as it is and the launcher would refuse what safe-ad had accepted.
#[test]
fn curl_lines_do_what_safe_ad_does() {
    if !have("curl") {
        return;
    }
    let spaced = format!("  {TOKEN} \n\n");
    for (source, around) in [
        ("env var", TOKEN),
        ("config file", TOKEN),
        ("token file", TOKEN),
        ("standard input", TOKEN),
        ("config file", &*spaced),
        ("token file", &*spaced),
        ("standard input", &*spaced),
    ] {
        let case = format!("{source}, {around:?}");
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        let mut printing = sandbox
            .safe_ad()
            .env("SAFE_LAUNCHER_URL", &emulator.url)
            .case(&case);
        // What the person's shell has when they run the printed lines.
        let mut shell_env: Vec<(&str, &str)> = Vec::new();
        match source {
            "env var" => {
                printing = printing.env("SAFE_LAUNCHER_TOKEN", around);
                shell_env.push(("SAFE_LAUNCHER_TOKEN", around));
            }
            "config file" => {
                let json = serde_json::json!({ "token": around });
                sandbox.write_config(&json.to_string());
            }
            "token file" => {
                let file = sandbox.file("token", around);
                printing = printing.arg("--token-file").arg(file);
            }
            _ => {
                printing = printing.args(["--token-file", "-"]).stdin(around);
                // What the note asks for.
                shell_env.push(("SAFE_LAUNCHER_TOKEN", TOKEN));
            }
        }
        let output = printing
            .args(["clear-data", "--curl", "--save", "post", "1"])
            .run();
        output.success();
        if source == "standard input" {
            output.stderr_is(
                "note: the token came from standard input: export SAFE_LAUNCHER_TOKEN before \
                 running these lines\n",
            );
        } else {
            output.stderr_is("");
        }
        let stdout = output.stdout();
        // The clear, the save, and (joined to the save with `&&`) the read of the version saved.
        assert_eq!(stdout.lines().count(), 3, "{case}: {stdout}");
        assert_eq!(emulator.network(1), (1, 3, 2), "--curl sent something");
        let mut shell = sandbox.shell("sh", stdout).case(&case);
        for (name, value) in &shell_env {
            shell = shell.env(name, value);
        }
        let ran = shell.run();
        let answers = ran.success().stdout();
        ran.check(
            answers.starts_with("OKOK{") && answers.contains(r#""version":2"#),
            "the lines did not clear, save and read the version saved",
        );
        assert_eq!(emulator.network(1), (2, 0, 5), "{case}");
    }

    // The env var with whitespace around the token: the line would send it as it is, so it is
    // refused before any line is printed, whatever the command.
    let emulator = Emulator::start(&[]);
    let before = emulator.requests().len();
    for around in [
        format!(" {TOKEN}"),
        format!("{TOKEN} "),
        format!("{TOKEN}\n"),
    ] {
        for args in [
            &["clear-data", "--curl", "--save", "post", "1"][..],
            &["metadata", "1"],
            &["auth", "status"],
        ] {
            SafeAd::new()
                .env("SAFE_LAUNCHER_URL", &emulator.url)
                .env("SAFE_LAUNCHER_TOKEN", &around)
                .case(format!("env var {around:?}"))
                .args(args)
                .run()
                .code(2)
                .stdout_is("")
                .stderr_has(
                    "the token has whitespace around it (from env var SAFE_LAUNCHER_TOKEN)",
                );
        }
    }
    assert_eq!(emulator.requests().len(), before, "a request was sent");
}

// ---- --retries --------------------------------------------------------------------------------

/// A PUT, and a POST (docs/output.md: retried "only when the connection was refused"), get through to a
/// launcher that starts listening after safe-ad began trying.
#[test]
fn retries_wait_for_a_launcher_that_starts_listening_late() {
    for operation in ["put", "post"] {
        // Held, not listening, until the launcher starts: never free for another server to take.
        let port = RefusingPort::new();
        let url = port.url.clone();
        let sandbox = Sandbox::new();
        sandbox
            .safe_ad()
            .launcher(&url)
            .args(["--retries", "0", operation, "1"])
            .run()
            .code(6)
            .stderr_has("refused");

        // The launcher starts 300 ms from now. Ten retries wait 0.1, 0.2, 0.4 ... 51.2 s in
        // turn, 102 s in all: whenever the launcher comes up within that, safe-ad gets through.
        let late = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            RawLauncher::start_on(port.listen(), serve_saves)
        });
        let started = Instant::now();
        sandbox
            .safe_ad()
            .launcher(&url)
            .args(["--retries", "10", operation, "1"])
            .run()
            .success()
            .stdout_is(&format!("{operation} 1: ok, saved version 0\n"));
        assert!(
            started.elapsed() >= Duration::from_millis(250),
            "{operation}: answered before the server listened?"
        );
        let launcher = late.join().expect("the late launcher started");
        assert_eq!(launcher.connections(), 1, "{operation}");
    }
}

/// docs/output.md: retries wait "100 ms, 200 ms, 400 ms, ...". A launcher that closes each connection at
/// once (no byte of an answer) sees four attempts of `--retries 3`, each at least the next pause
/// after the one before: the time of each is taken before its connection is closed, and safe-ad
/// can only begin its pause after that.
#[test]
fn retries_wait_100_200_400_ms_between_attempts() {
    let attempts: Arc<Mutex<Vec<Instant>>> = Arc::default();
    let seen = Arc::clone(&attempts);
    let server = RawLauncher::start(move |_conn| seen.lock().unwrap().push(Instant::now()));
    SafeAd::new()
        .launcher(&server.url)
        .args(["--retries", "3", "clear-data", "1"])
        .run()
        .code(6);
    server.settle();
    let attempts = attempts.lock().unwrap();
    assert_eq!(attempts.len(), 4, "one attempt and three retries");
    for (pause, pair) in [100, 200, 400].into_iter().zip(attempts.windows(2)) {
        let waited = pair[1] - pair[0];
        assert!(
            waited >= Duration::from_millis(pause),
            "a retry came {waited:?} after the attempt before it, not at least {pause} ms"
        );
    }
}

/// docs/output.md: a POST is retried "only when the connection was refused". Against a port that refuses
/// every time, `--retries 3` makes safe-ad try four times, so it cannot give up before its three
/// pauses (100 + 200 + 400 ms) have passed.
#[test]
fn a_refused_post_is_retried() {
    let refused = closed_port_url();
    let started = Instant::now();
    SafeAd::new()
        .launcher(&refused)
        .args(["--retries", "3", "post", "1"])
        .run()
        .code(6)
        .stderr_has("refused");
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_millis(700),
        "gave up after {elapsed:?}: a refused POST was not retried three times"
    );
}

#[tokio::test]
async fn retries_never_repeat_a_request_that_got_an_answer() {
    let server = error_launcher(503, r#"{"errorCode":-1,"description":"busy"}"#).await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["--retries", "3", "put", "1"])
        .run()
        .code(5);
    assert_eq!(request_count(&server).await, 1);
}

#[test]
fn retries_after_a_reset_only_for_a_request_harmless_twice() {
    // Closed at once: no byte of an answer ever comes, and the request may have arrived.
    let server = RawLauncher::start(|_conn| {});
    let sandbox = Sandbox::new();
    let mut connections = 0;
    for (operation, tries) in [
        ("clear-data", 3),
        ("metadata", 3),
        ("put", 1),
        ("post", 1),
        ("drop", 1),
    ] {
        let run = sandbox
            .safe_ad()
            .launcher(&server.url)
            .args(["--retries", "2", operation, "1"])
            .run();
        connections += tries;
        run.code(6).check(
            server.connections() == connections,
            format!("not {tries} connections for {operation}"),
        );
    }
}

/// docs/output.md: "never after a timeout", for a PUT as for a POST.
#[test]
fn retries_never_resend_a_request_that_timed_out() {
    for operation in ["put", "post"] {
        // Reads each request and never answers; the connections stay open.
        let server = RawLauncher::start(|conn| {
            conn.request();
            conn.hold();
        });
        SafeAd::new()
            .launcher(&server.url)
            .args(["--retries", "3", "--timeout", "0.3", operation, "1"])
            .run()
            .code(6)
            .stderr_has("did not answer within 0.3 s");
        assert_eq!(
            server.connections(),
            1,
            "a {operation} that timed out was sent again"
        );
    }
}
