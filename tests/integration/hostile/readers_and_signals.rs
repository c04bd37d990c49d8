//! The pipes and signals of unattended use: a reader of stdout that leaves after one line (as
//! `| head -1` does), `--json` lines never cut whoever stops reading, and Ctrl-C in a batch.

use super::*;

// ---- the scripted server ----------------------------------------------------------------------

/// A keep-alive server that answers each request with what `answer` gives for its handle,
/// after `delay`.
fn keep_alive(delay: Duration, answer: fn(u64) -> Vec<u8>) -> RawLauncher {
    RawLauncher::start(move |conn| {
        while let Some(line) = conn.request() {
            std::thread::sleep(delay);
            if !conn.send(&answer(handle_of(&line))) {
                return;
            }
        }
    })
}

// ---- pipes -------------------------------------------------------------------------------------

/// Answers take 200 ms, so a whole batch of 300 handles two at a time would take 30 s: fewer
/// than 300 requests shows that safe-ad stopped when its reader left.
const ANSWER_DELAY: Duration = Duration::from_millis(200);

/// Runs a 300-handle batch, reads `lines` lines of stdout and closes it, as `| head -N` does.
/// Returns the output (its stdout: the lines read) and the requests the server read, final once
/// safe-ad has exited.
fn reader_leaves_after(lines: usize, json: bool) -> (Output, usize) {
    let server = keep_alive(ANSWER_DELAY, ok_answer);
    let mut args = vec!["--jobs", "2"];
    if json {
        args.push("--json");
    }
    args.push("drop");
    let batch = handles(1..=300);
    args.extend(batch.iter().map(String::as_str));
    let output = at(&server.url).args(&args).stdout_head(lines).run();
    server.settle();
    (output, server.requests().len())
}

/// Exit 0 and nothing on stderr but the batch summary: no panic, no "Broken pipe".
#[track_caller]
fn assert_quiet_end(output: &Output) {
    output.success();
    for noise in ["panicked", "roken pipe", "os error 32", "error"] {
        output.stderr_lacks(noise);
    }
    output.check(
        output
            .stderr()
            .lines()
            .all(|line| line.contains(" handles: ")),
        "stderr holds more than the batch summary",
    );
}

#[test]
fn a_reader_that_leaves_after_one_line_ends_the_batch_quietly_and_promptly() {
    let (output, requests) = reader_leaves_after(1, false);
    output.stdout_is("drop 1: ok\n");
    assert_quiet_end(&output);
    assert!(requests < 300, "all {requests} requests were still sent");
}

#[test]
fn safe_ad_piped_into_head_1_in_a_shell_ends_quietly() {
    let server = keep_alive(ANSWER_DELAY, ok_answer);
    let sandbox = Sandbox::new();
    // pipefail: the pipeline's status is safe-ad's when it fails.
    let output = sandbox
        .shell(
            "bash",
            "set -o pipefail; safe-ad --jobs 2 drop $(seq 1 300) | head -1",
        )
        .launcher(&server.url)
        .run();
    output.stdout_is("drop 1: ok\n");
    assert_quiet_end(&output);
    server.settle();
    assert!(server.requests().len() < 300, "the whole batch was sent");
}

/// Handle 1 answers; every other handle is refused, so after the first line nothing more goes to
/// stdout and a reader that left can only be noticed by asking the pipe.
fn first_ok_rest_refused(handle: u64) -> Vec<u8> {
    if handle == 1 {
        return ok_answer(handle);
    }
    let body = r#"{"errorCode":-1515,"description":"FfiError::InvalidAppendableDataHandle"}"#;
    format!(
        "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[test]
fn a_reader_that_leaves_stops_a_batch_of_failures_too() {
    let server = keep_alive(ANSWER_DELAY, first_ok_rest_refused);
    let mut args = vec!["--jobs", "2", "drop"];
    let batch = handles(1..=300);
    args.extend(batch.iter().map(String::as_str));
    let output = at(&server.url).args(&args).stdout_head(1).run();
    server.settle();
    output.code(4).stdout_is("drop 1: ok\n");
    // 299 failures in a full run; the reader left after the first line.
    let requests = server.requests().len();
    assert!(requests < 300, "all {requests} requests were still sent");
    // The same hint for every refused handle, printed once.
    let hints = output.stderr().matches("hint: ").count();
    assert_eq!(hints, 1, "{}", output.stderr());
}

#[test]
fn json_lines_are_never_cut_whoever_stops_reading() {
    // A reader that leaves after three lines got three whole objects.
    let (output, _) = reader_leaves_after(3, true);
    assert_quiet_end(&output);
    let read: Vec<&str> = output.stdout().split_inclusive('\n').collect();
    assert_eq!(read.len(), 3, "{read:?}");
    for (i, line) in read.iter().enumerate() {
        assert!(line.ends_with('\n'), "line {i} cut: {line:?}");
        let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
        assert_eq!(value["handle"], i as u64 + 1);
        assert_eq!(value["ok"], true);
    }

    // A whole batch with long error bodies: every line of stdout is one JSON object, in order.
    fn mixed(handle: u64) -> Vec<u8> {
        if handle % 3 == 0 {
            let body = format!(
                "<html>\n{}\n</html>",
                "error page line\r\n".repeat(handle as usize * 20)
            );
            format!(
                "HTTP/1.1 500 Internal Server Error\r\ncontent-length: {}\r\n\r\n{body}",
                body.len()
            )
            .into_bytes()
        } else {
            ok_answer(handle)
        }
    }
    let server = keep_alive(Duration::ZERO, mixed);
    let mut args = vec!["--json", "--jobs", "8", "drop"];
    let batch = handles(1..=200);
    args.extend(batch.iter().map(String::as_str));
    let output = at(&server.url).args(&args).run();
    let stdout = output.code(5).stdout();
    assert!(stdout.ends_with('\n'));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 200);
    for (i, line) in lines.iter().enumerate() {
        let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
        let handle = i as u64 + 1;
        assert_eq!(value["handle"], handle, "{line}");
        assert_eq!(value["ok"], handle % 3 != 0, "{line}");
    }
}

// ---- Ctrl-C ------------------------------------------------------------------------------------

/// A 20-handle batch, two at a time, against a launcher that answers handle 1 (200) and
/// handle 2 (500) and holds every later request unanswered until safe-ad goes. Once four
/// requests came, handles 1 and 2 are done and 3 and 4 in flight, and nothing more can come until
/// one of them is answered: that is when the batch is interrupted. Returns the output and the
/// requests the server had read when the signal was sent and, once safe-ad had exited, in all.
fn interrupted_batch(extra: &[&str]) -> (Output, usize, usize) {
    let server = RawLauncher::start(|conn| {
        while let Some(line) = conn.request() {
            let answer: &[u8] = match handle_of(&line) {
                1 => OK_ANSWER,
                2 => b"HTTP/1.1 500 Internal Server Error\r\ncontent-length: 4\r\n\r\nbusy",
                _ => {
                    conn.hold();
                    return;
                }
            };
            if !conn.send(answer) {
                return;
            }
        }
    });
    let mut args = vec!["--jobs", "2"];
    args.extend_from_slice(extra);
    args.push("drop");
    let batch = handles(1..=20);
    args.extend(batch.iter().map(String::as_str));
    let running = at(&server.url).args(&args).spawn();
    server.wait_for_requests(4);
    let before = server.requests().len();
    running.interrupt();
    let output = running.wait();
    // safe-ad has exited, so it can send nothing more; count once the launcher took in all.
    server.settle();
    let after = server.requests().len();
    (output, before, after)
}

#[test]
fn ctrl_c_during_a_batch_sends_nothing_new_and_counts_done_failed_and_not_started() {
    let (output, before, after) = interrupted_batch(&[]);
    assert_eq!(before, 4, "requests when the signal was sent");
    assert_eq!(after, before, "requests went out after Ctrl-C");
    output.stdout_is("drop 1: ok\n");
    assert_run(
        &output,
        130,
        &[
            "safe-ad: error: drop 2: the launcher answered 500 Internal Server Error: busy",
            "20 handles: 1 ok, 1 failed",
            "safe-ad: error: interrupted",
            "no new requests were sent",
        ],
    );
    // 20 handles: 2 done, 2 sent and cut off in flight, 16 never sent. Requests 3 and 4 reached
    // the launcher, which may have acted on them: they were started, and counting them as "not
    // started" would tell a script that handles 3 and 4 are untouched.
    let stderr = output.stderr();
    assert!(
        stderr.contains(", 16 not started"),
        "the summary must count the 16 handles never sent as not started (the 2 in flight were \
         sent):\n{stderr}"
    );
}

#[test]
fn ctrl_c_never_cuts_a_json_line() {
    let (output, before, after) = interrupted_batch(&["--json"]);
    assert_eq!(after, before, "requests went out after Ctrl-C");
    let stdout = output.code(130).stdout();
    assert!(stdout.ends_with('\n'), "stdout cut: {stdout:?}");
    let values: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:?}")))
        .collect();
    // One line per handle done, then the interruption that ended the run.
    assert_eq!(values.len(), 3, "{stdout}");
    assert_eq!(values[0]["handle"], 1);
    assert_eq!(values[0]["ok"], true);
    assert_eq!(values[1]["handle"], 2);
    assert_eq!(values[1]["exit_code"], 5);
    assert_eq!(values[2]["error"]["class"], "interrupted");
    assert_eq!(values[2]["exit_code"], 130);
}
