//! Where a batch's handles come from and how it runs them: handles streamed from standard input
//! (a fifo, `-` among arguments, a bad line), `--jobs` and the output kept in input order,
//! and `--fail-fast` against stubs and the emulator.

use super::*;

// ---- handles from standard input --------------------------------------------------------------

#[test]
fn a_handle_fed_through_a_fifo_is_answered_before_the_input_closes() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let (reader, mut writer) = sandbox.fifo("handles.fifo");
    let mut running = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["clear-data", "-"])
        .stdin_from(reader)
        .spawn();

    writer.write_all(b"1\n").expect("write handle");
    writer.flush().expect("flush");
    assert_eq!(
        running.line(),
        "clear-data 1: ok",
        "no answer for a streamed handle while the input was still open"
    );
    assert!(
        running.is_running(),
        "safe-ad ended before its input closed"
    );

    writer.write_all(b"0\n").expect("write handle");
    drop(writer);
    running
        .wait()
        .success()
        .stdout_is("clear-data 1: ok\nclear-data 0: ok\n")
        .stderr_has("2 handles: 2 ok, 0 failed");
}

/// A failed result of a handle read from standard input is printed at once, as a success is:
/// the reader of the results must not wait for the next line to be written.
#[test]
fn a_failed_result_of_a_streamed_handle_is_printed_before_the_input_closes() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let (reader, mut writer) = sandbox.fifo("handles.fifo");
    let mut running = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["--json", "metadata", "-"])
        .stdin_from(reader)
        .spawn();
    writer.write_all(b"99\n").expect("write handle");
    writer.flush().expect("flush");
    let line: Value = serde_json::from_str(&running.line()).expect("a JSON result");
    assert_eq!((&line["input"], &line["ok"]), (&json!("99"), &json!(false)));
    assert!(
        running.is_running(),
        "safe-ad ended before its input closed"
    );
    writer.write_all(b"1\n").expect("write handle");
    drop(writer);
    let output = running.wait();
    output.code(4);
    let lines = output.json_lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(
        (&lines[1]["input"], &lines[1]["ok"]),
        (&json!("1"), &json!(true))
    );
}

#[test]
fn dash_mixes_with_arguments_and_a_bad_stdin_handle_is_reported_with_its_line() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["metadata", "0", "-", "2"])
        .stdin("1\n\n  bogus 1\n")
        .run();
    output.code(2);
    let stdout = output.stdout();
    let shown: Vec<&str> = stdout
        .lines()
        .map(|line| line.split(':').next().unwrap_or(""))
        .collect();
    assert_eq!(shown, ["0", "1", "1", "2"], "{stdout}");
    output.stderr_has("invalid handle 'bogus' on line 3 of standard input");
    output.stderr_has("5 handles: 4 ok, 1 failed");

    // The exit code is that of the first failing handle in input order.
    let unknown_first = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["metadata", "0", "-", "2"])
        .stdin("999\nbogus\n")
        .run();
    unknown_first.code(4);
    unknown_first.stderr_has("metadata 999:");
    unknown_first.stderr_has("'bogus' on line 2");
    assert_eq!(unknown_first.stdout().lines().count(), 2);

    let bad_first = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["metadata", "0", "-", "2"])
        .stdin("bogus\n999\n")
        .run();
    bad_first.code(2);
}

#[tokio::test]
async fn stdin_usage_errors_send_nothing() {
    let server = any_ok_launcher().await;
    let sandbox = Sandbox::new();
    let twice = sandbox
        .safe_ad()
        .launcher(&server.uri())
        .args(["put", "-", "1", "-"])
        .stdin("2\n")
        .run();
    twice.code(2);
    twice.stderr_has("more than once");
    let token_file = sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["--token-file", "-", "put", "-"])
        .stdin(format!("{TOKEN}\n"))
        .run();
    token_file.code(2);
    assert_no_token(&token_file.text());
    assert_nothing_sent(&server, "stdin usage errors").await;
}

// ---- --jobs and output order ------------------------------------------------------------------

#[test]
fn output_stays_in_input_order_under_jobs_8_for_200_handles() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    // A permutation of 0..200: demo handles 0, 1, 2 and 5 succeed, every other one fails
    // (-1515).
    let handles: Vec<u64> = (0..200u64).map(|i| (i * 77 + 3) % 200).collect();
    let input: String = handles.iter().map(|h| format!("{h}\n")).collect();

    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["--jobs", "8", "--json", "metadata", "-"])
        .stdin(input.clone())
        .run();
    let lines = output.json_lines();
    assert_eq!(lines.len(), 200);
    for (index, (line, handle)) in lines.iter().zip(&handles).enumerate() {
        assert_eq!(line["handle"], json!(handle), "line {index}: {line}");
        assert_eq!(line["line"], json!(index + 1), "line {index}: {line}");
        assert_eq!(
            line["ok"],
            json!(*handle <= 2 || *handle == 5),
            "line {index}: {line}"
        );
    }
    output.code(4);
    output.stderr_has("200 handles: 4 ok, 196 failed");

    // The same batch for people: success lines on stdout and errors on stderr, each in order.
    let args: Vec<String> = handles.iter().map(u64::to_string).collect();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["-j", "8", "metadata"])
        .args(&args)
        .run();
    output.code(4);
    let shown: Vec<String> = output
        .stdout()
        .lines()
        .map(|line| line.split(':').next().unwrap_or("").to_owned())
        .collect();
    let expected: Vec<String> = handles
        .iter()
        .filter(|h| **h <= 2 || **h == 5)
        .map(u64::to_string)
        .collect();
    assert_eq!(shown, expected);
    let failed: Vec<String> = output
        .stderr()
        .lines()
        .filter_map(|line| line.strip_prefix("safe-ad: error: metadata "))
        .map(|rest| rest.split(':').next().unwrap_or("").to_owned())
        .collect();
    let expected: Vec<String> = handles
        .iter()
        .filter(|h| **h > 2 && **h != 5)
        .map(u64::to_string)
        .collect();
    assert_eq!(failed, expected);
}

/// Requests in flight at a launcher: now, and the most at once.
#[derive(Default)]
struct InFlight {
    now: usize,
    most: usize,
}

#[test]
fn slow_early_answers_do_not_reorder_output_and_jobs_run_at_once() {
    // The launcher answers nothing until eight requests are in flight at once, as --jobs 8
    // allows; then the earlier handles take longer: handle h answers after (13 - h) * 40 ms.
    let in_flight: Arc<(Mutex<InFlight>, Condvar)> = Arc::default();
    let shared = Arc::clone(&in_flight);
    let server = RawLauncher::start(move |conn| {
        let (lock, changed) = &*shared;
        while let Some(line) = conn.request() {
            {
                let mut counts = lock.lock().unwrap();
                counts.now += 1;
                counts.most = counts.most.max(counts.now);
                changed.notify_all();
                // Without eight at once this gives up at the deadline, which fails the test below.
                let _ = changed
                    .wait_timeout_while(counts, DEADLINE, |counts| counts.most < 8)
                    .unwrap();
            }
            std::thread::sleep(Duration::from_millis((13 - handle_of(&line)) * 40));
            lock.lock().unwrap().now -= 1;
            if !conn.send(OK_ANSWER) {
                return;
            }
        }
    });
    let handles: Vec<String> = (1..=12).map(|h: u64| h.to_string()).collect();
    let running = SafeAd::new()
        .launcher(&server.url)
        .args(["--jobs", "8", "drop"])
        .args(&handles)
        .spawn();
    {
        let (lock, changed) = &*in_flight;
        let (counts, _) = changed
            .wait_timeout_while(lock.lock().unwrap(), DEADLINE, |counts| counts.most < 8)
            .unwrap();
        assert_eq!(
            counts.most, 8,
            "--jobs 8 never had eight requests in flight at once"
        );
    }
    let output = running.wait();
    let expected: String = handles.iter().map(|h| format!("drop {h}: ok\n")).collect();
    output.success().stdout_is(&expected);
    assert_eq!(
        in_flight.0.lock().unwrap().most,
        8,
        "more requests at once than --jobs 8"
    );
}

// ---- --fail-fast ------------------------------------------------------------------------------

#[tokio::test]
async fn fail_fast_sends_no_new_request_after_the_first_failure() {
    let server = MockServer::start().await;
    Mock::given(path("/appendable-data/handle/1"))
        .respond_with(ResponseTemplate::new(400).set_body_raw(
            r#"{"errorCode":-1515,"description":"FfiError::InvalidAppendableDataHandle"}"#,
            "application/json",
        ))
        .mount(&server)
        .await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_string("OK")
                .set_delay(Duration::from_millis(200)),
        )
        .mount(&server)
        .await;
    let output = SafeAd::new()
        .launcher(&server.uri())
        .args([
            "--fail-fast",
            "--jobs",
            "2",
            "drop",
            "2",
            "1",
            "3",
            "4",
            "5",
            "6",
            "7",
            "8",
            "9",
            "10",
        ])
        .run();
    output.code(4);
    output.stdout_is("drop 2: ok\n");
    output.stderr_has("drop 1:");
    // The total counts every handle given, the 8 never sent too.
    output.stderr_has("10 handles: 1 ok, 1 failed, 8 not started");
    let paths = received_paths(&server).await;
    assert_eq!(paths.len(), 2, "requests sent: {paths:?}");
    assert!(
        paths.contains(&"/appendable-data/handle/2".to_owned()),
        "{paths:?}"
    );
    assert!(
        paths.contains(&"/appendable-data/handle/1".to_owned()),
        "{paths:?}"
    );
}

/// `safe-ad --fail-fast -j 1 clear-data 1 999 0 2` against the emulator: 999 fails second.
fn clear_data_fail_fast(sandbox: &Sandbox, emulator: &Emulator) -> Output {
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["--fail-fast", "-j", "1", "clear-data", "1", "999", "0", "2"])
        .run()
}

#[test]
fn fail_fast_against_the_emulator_leaves_later_handles_untouched() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = clear_data_fail_fast(&sandbox, &emulator);
    output.code(4);
    output.stdout_is("clear-data 1: ok\n");
    output.stderr_has("clear-data 999:");
    output.stderr_has("4 handles: 1 ok, 1 failed, 2 not started");
    assert_eq!(
        emulator.requests(),
        [
            "DELETE /appendable-data/clear-data/1 200",
            "DELETE /appendable-data/clear-data/999 400"
        ]
    );
    assert_eq!(local(&sandbox, &emulator, 0), (0, 3, 0));
    assert_eq!(local(&sandbox, &emulator, 2), (1, 2, 0));
}

/// The summary of a batch that `--fail-fast` stopped says how many handles it never sent.
#[test]
fn fail_fast_summary_counts_the_handles_not_started() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = clear_data_fail_fast(&sandbox, &emulator);
    output.code(4);
    let stderr = output.stderr();
    assert!(
        stderr.contains("4 handles: 1 ok, 1 failed, 2 not started\n"),
        "the summary does not say that handles 0 and 2 were not started:\n{stderr}"
    );
}

#[test]
fn without_fail_fast_a_failure_does_not_stop_the_batch() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["-j", "1", "clear-data", "1", "999", "0"])
        .run();
    output.code(4);
    output.stdout_is("clear-data 1: ok\nclear-data 0: ok\n");
    output.stderr_has("3 handles: 2 ok, 1 failed\n");
}
