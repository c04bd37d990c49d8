//! What a batch prints around its results: the summary line, no progress bar or escapes on a pipe,
//! the live count on a terminal, `--verbose` with the token masked, and options after the command.

use super::*;

// ---- summary and progress ---------------------------------------------------------------------

#[test]
fn summary_line_only_for_more_than_one_handle_and_not_with_quiet() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let two = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["metadata", "0", "999"])
        .run();
    two.code(4);
    assert!(
        two.stderr().ends_with("2 handles: 1 ok, 1 failed\n"),
        "{}",
        two.stderr()
    );

    let one = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["metadata", "0"])
        .run();
    one.code(0);
    one.stderr_is("");

    let quiet = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["-q", "metadata", "0", "1"])
        .run();
    quiet.code(0);
    quiet.stderr_is("");
    assert_eq!(
        quiet.stdout().lines().count(),
        2,
        "metadata prints even with -q"
    );

    let quiet_puts = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["put", "0", "-q", "-"])
        .stdin("999\n")
        .run();
    quiet_puts.code(4);
    quiet_puts.stdout_is("");
    quiet_puts.stderr_lacks("handles:");
}

#[tokio::test]
async fn no_progress_bar_or_escape_sequences_on_a_pipe() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_string("OK")
                .set_delay(Duration::from_millis(100)),
        )
        .mount(&server)
        .await;
    let handles: Vec<String> = (1..=9).map(|h: u32| h.to_string()).collect();
    let started = Instant::now();
    let output = SafeAd::new()
        .launcher(&server.uri())
        .args(["-j", "1", "drop"])
        .args(&handles)
        .run();
    assert!(
        started.elapsed() > Duration::from_millis(800),
        "the batch was too short to show progress"
    );
    output.code(0);
    let stderr = output.stderr();
    assert!(
        !stderr.contains('\r') && !stderr.contains('\x1b'),
        "progress output on a pipe: {stderr:?}"
    );
    assert_eq!(stderr, "9 handles: 9 ok, 0 failed\n");
}

/// docs/handles.md: "on a terminal a live count shows while it runs". safe-ad runs under `script`, which
/// gives it a terminal, against a launcher that holds handle 2's answer until the test has seen
/// the count on that terminal: so the count showed while the batch ran. Handle 1 is answered
/// after 600 ms, as the count is drawn only once a batch has run half a second.
#[test]
fn a_live_count_shows_on_a_terminal_while_the_batch_runs() {
    if !have("script") {
        return;
    }
    let release: Arc<(Mutex<bool>, Condvar)> = Arc::default();
    let held = Arc::clone(&release);
    let server = RawLauncher::start(move |conn| {
        while let Some(line) = conn.request() {
            match handle_of(&line) {
                1 => std::thread::sleep(Duration::from_millis(600)),
                2 => {
                    let (lock, changed) = &*held;
                    let released = changed
                        .wait_timeout_while(lock.lock().unwrap(), DEADLINE, |go| !*go)
                        .unwrap();
                    assert!(*released.0, "the test never released handle 2");
                }
                _ => {}
            }
            if !conn.send(OK_ANSWER) {
                return;
            }
        }
    });
    let sandbox = Sandbox::new();
    let mut running = sandbox
        .shell(
            "sh",
            "exec script -qec 'safe-ad --jobs 1 put 1 2 3' /dev/null",
        )
        .launcher(&server.url)
        .spawn();
    // The terminal shows what safe-ad writes on stdout and stderr, in order.
    let shown = running.wait_for_stdout("/3: 1 ok, 0 failed (");
    assert!(running.is_running(), "the batch ended before it was let go");
    assert!(
        shown.contains("\r\x1b[2K["),
        "not drawn over its own line: {shown:?}"
    );
    {
        let (lock, changed) = &*release;
        *lock.lock().unwrap() = true;
        changed.notify_all();
    }
    let output = running.wait();
    let screen = output.success().stdout();
    // The count is cleared before the summary, which is the last thing shown.
    assert!(
        screen.ends_with("\r\x1b[2K3 handles: 3 ok, 0 failed\r\n"),
        "{screen:?}"
    );
}

// ---- --verbose --------------------------------------------------------------------------------

#[test]
fn verbose_shows_the_exchange_with_the_token_masked() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["-v", "put", "0"])
        .run();
    output.code(0);
    output.stdout_is("put 0: ok, saved version 0\n");
    assert_no_token(&output.text());
    output.stderr_has(&format!("> PUT {}/appendable-data/0\n", emulator.url));
    // The read of the version saved is an exchange too.
    output.stderr_has(&format!(
        "> GET {}/appendable-data/metadata/0\n",
        emulator.url
    ));
    output.stderr_has("> authorization: Bearer ");
    output.stderr_has("< 200 (");
    output.stderr_has(" ms)");
    output.stderr_has("< content-type: text/plain");
    output.stderr_has("< OK\n");

    let failed = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["put", "1", "--verbose"])
        .run();
    failed.code(4);
    assert_no_token(&failed.text());
    failed.stderr_has("< 400 (");
    failed.stderr_has("DataExists");
}

// ---- options are global -----------------------------------------------------------------------

#[test]
fn new_options_work_before_and_after_the_subcommand() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let before = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args([
            "--json",
            "-j",
            "1",
            "--fail-fast",
            "metadata",
            "1",
            "999",
            "0",
        ])
        .run();
    let after = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args([
            "metadata",
            "1",
            "999",
            "0",
            "--json",
            "-j",
            "1",
            "--fail-fast",
        ])
        .run();
    before.code(4);
    after.code(4);
    let strip = |output: &Output| -> Vec<Value> {
        output
            .json_lines()
            .into_iter()
            .map(|mut line| {
                line["elapsed_ms"] = json!(0);
                line
            })
            .collect()
    };
    assert_eq!(strip(&before), strip(&after));
    assert!(!strip(&before).is_empty());
}
