//! A launcher that misbehaves, and the signals and pipes of unattended use: a byte-level test
//! server on loopback, scripted per case, and for each case the exact exit code and words.
//!
//! The server answers nothing, stalls, streams endless or 100 MB bodies, sends bytes that are not
//! UTF-8, not the launcher's JSON, or not HTTP at all, closes the connection before or in the
//! middle of an answer, redirects to a second listener, sends huge or malformed headers, and
//! speaks HTTP/1.0 without keep-alive. Then: a reader of stdout that leaves after one line (as
//! `| head -1` does), `--json` lines that are never cut, and Ctrl-C in the middle of a batch.

use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use crate::harness::*;
use serde_json::Value;

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

fn ok_answer(_: u64) -> Vec<u8> {
    OK_ANSWER.to_vec()
}

// ---- running safe-ad --------------------------------------------------------------------------

/// safe-ad pointed at `url`, in a fresh sandbox.
fn at(url: &str) -> SafeAd {
    SafeAd::new().launcher(url)
}

/// Asserts the exit code, that stderr holds every word, and that no escape sequence reached it.
#[track_caller]
fn assert_run(output: &Output, code: i32, words: &[&str]) {
    output.code(code).stderr_lacks("\x1b");
    for word in words {
        output.stderr_has(word);
    }
}

fn handles(range: std::ops::RangeInclusive<u64>) -> Vec<String> {
    range.map(|h| h.to_string()).collect()
}

// ---- no answer, or half of one ---------------------------------------------------------------

#[test]
fn a_launcher_that_accepts_but_never_answers_times_out_with_exit_6() {
    let reads_and_holds = RawLauncher::start(|conn| {
        conn.request();
        conn.hold();
    });
    let never_reads = RawLauncher::start(|conn| {
        std::thread::sleep(Duration::from_secs(5));
        conn.hold();
    });
    for (what, server) in [
        ("reads the request", &reads_and_holds),
        ("never reads", &never_reads),
    ] {
        let started = Instant::now();
        let output = at(&server.url)
            .args(["--timeout", "1", "put", "1"])
            .case(what)
            .run();
        let elapsed = started.elapsed();
        assert_run(
            &output,
            6,
            &[
                "safe-ad: error: put 1: the launcher did not answer within 1 s",
                "hint: the launcher did not answer in time: check that it is responsive, or raise --timeout",
            ],
        );
        // The server never answers: safe-ad ended by itself (the run's deadline would have failed
        // the test otherwise), and not before its 1 s.
        output.stdout_is("").check(
            elapsed >= Duration::from_secs(1),
            format!("gave up after {elapsed:?}, before --timeout 1"),
        );
        assert_eq!(server.connections(), 1, "{what}: connections");
    }
}

#[test]
fn headers_then_a_stalled_body_time_out_with_exit_6() {
    let server = RawLauncher::start(|conn| {
        if conn.request().is_some()
            && conn.send(b"HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\npartial")
        {
            conn.hold();
        }
    });
    let started = Instant::now();
    let output = at(&server.url).args(["--timeout", "1", "put", "1"]).run();
    let elapsed = started.elapsed();
    assert_run(
        &output,
        6,
        &["safe-ad: error: put 1: the launcher did not answer within 1 s"],
    );
    // The body never comes: safe-ad ended by itself, and not before its 1 s.
    output.stdout_is("").check(
        elapsed >= Duration::from_secs(1),
        format!("gave up after {elapsed:?}, before --timeout 1"),
    );
}

#[test]
fn a_connection_closed_before_any_answer_is_exit_6() {
    let close_unread = RawLauncher::start(|_conn| {});
    let close_after_reading = RawLauncher::start(|conn| {
        conn.request();
    });
    for (what, server) in [
        ("closed without reading", &close_unread),
        ("closed after reading the request", &close_after_reading),
    ] {
        let output = at(&server.url)
            .args(["--timeout", "1", "put", "1"])
            .case(what)
            .run();
        assert_run(
            &output,
            6,
            &[
                "safe-ad: error: put 1: the connection closed before any answer: ",
                "hint: the launcher may have stopped or restarted",
            ],
        );
        output.stdout_is("");
    }
}

#[test]
fn a_connection_closed_in_the_middle_of_a_body_is_exit_6() {
    let cases: [(&str, &'static [u8]); 2] = [
        (
            "content-length",
            b"HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\npartial",
        ),
        (
            "chunked",
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n100\r\npartial",
        ),
    ];
    for (what, answer) in cases {
        let server = RawLauncher::answering(answer);
        let output = at(&server.url)
            .args(["--timeout", "1", "put", "1"])
            .case(what)
            .run();
        assert_run(
            &output,
            6,
            &[
                "safe-ad: error: put 1: the connection failed before a complete answer: end of file before message length reached",
                "hint: the launcher may have stopped or restarted: see whether the launcher saved it",
            ],
        );
        output.stdout_is("");
    }
}

// ---- bodies that are too big, never end, or are not what was expected ------------------------

/// Handle 1 gets a huge body; handle 2's answer waits until the test has read safe-ad's peak
/// memory, then is 200 OK. Returns the output, the peak RSS in KiB and what the server sent.
/// Handle 2's request must come while handle 1's body is still being offered: safe-ad gives up
/// on the rest of it rather than reading on.
fn huge_body_run(
    head: &'static [u8],
    pattern: &'static [u8],
    limit: Option<u64>,
    chunked: bool,
) -> (Output, u64, u64) {
    let (release, released) = mpsc::channel::<()>();
    let released = Mutex::new(released);
    let server = RawLauncher::start(move |conn| {
        // Kept alive: after a small body, handle 2 may come on the same connection.
        while let Some(line) = conn.request() {
            if handle_of(&line) == 2 {
                let _ = released.lock().unwrap().recv_timeout(DEADLINE);
                conn.send(&ok_answer(2));
            } else if conn.send(head) {
                conn.stream(pattern, limit, chunked);
            }
        }
    });
    let running = at(&server.url)
        .args(["--jobs", "1", "drop", "1", "2"])
        .spawn();
    server.wait_for_request("handle 2's request, after handle 1's body", |line| {
        handle_of(line) == 2
    });
    let peak = peak_rss_kib(running.pid()).expect("safe-ad's peak memory");
    release.send(()).expect("the launcher holds handle 2");
    let output = running.wait();
    // safe-ad has exited; what the server sent is final once every connection is done.
    server.settle();
    (output, peak, server.sent())
}

#[test]
fn endless_and_100_mb_bodies_are_read_only_in_part_with_bounded_memory() {
    const HUNDRED_MB: u64 = 100 * 1024 * 1024;
    // The same two-handle run with a 2-byte body: what safe-ad needs anyway.
    let (small, baseline, _) = huge_body_run(
        b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n",
        b"OK",
        Some(2),
        false,
    );
    assert_run(&small, 0, &[]);
    let cases: [(&str, &'static [u8], Option<u64>, bool); 4] = [
        (
            "endless 400",
            b"HTTP/1.1 400 Bad Request\r\ntransfer-encoding: chunked\r\n\r\n",
            None,
            true,
        ),
        (
            "100 MB 400",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 104857600\r\n\r\n",
            Some(HUNDRED_MB),
            false,
        ),
        (
            "endless 200",
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n",
            None,
            true,
        ),
        (
            "100 MB 200",
            b"HTTP/1.1 200 OK\r\ncontent-length: 104857600\r\n\r\n",
            Some(HUNDRED_MB),
            false,
        ),
    ];
    for (what, head, limit, chunked) in cases {
        let (output, peak, sent) = huge_body_run(head, b"endless ", limit, chunked);
        let stdout = output.stdout();
        let stderr = output.stderr();
        if what.ends_with("400") {
            assert_run(
                &output,
                4,
                &[
                    "safe-ad: error: drop 1: the launcher answered 400 Bad Request: endless endless endless",
                    "… (cut)",
                    "2 handles: 1 ok, 1 failed",
                ],
            );
            assert_eq!(stdout, "drop 2: ok\n", "{what}");
        } else {
            assert_run(&output, 0, &["2 handles: 2 ok, 0 failed"]);
            assert_eq!(stdout, "drop 1: ok\ndrop 2: ok\n", "{what}");
        }
        assert!(
            stderr.len() < 1000,
            "{what}: {} bytes on stderr",
            stderr.len()
        );
        assert!(
            sent < 32 * 1024 * 1024,
            "{what}: safe-ad read on: the server sent {sent} bytes"
        );
        assert!(
            peak < baseline + 16 * 1024,
            "{what}: peak RSS {peak} KiB, {baseline} KiB for a 2-byte body"
        );
        eprintln!(
            "{what}: exit {:?}, peak RSS {peak} KiB (baseline {baseline} KiB), server sent {sent} bytes",
            output.exit_code()
        );
    }
}

#[test]
fn a_body_that_is_not_utf8_is_shown_with_replacement_characters() {
    let server = RawLauncher::answering(http_answer(
        "400 Bad Request",
        b"\xff\xfebad \xc3\x28\x00end",
    ));
    let output = at(&server.url).args(["put", "1"]).run();
    assert_run(
        &output,
        4,
        &[
            "safe-ad: error: put 1: the launcher answered 400 Bad Request: \u{fffd}\u{fffd}bad \u{fffd}(\\u{0}end",
        ],
    );
    output.stdout_is("");

    let json = at(&server.url).args(["--json", "put", "1"]).run();
    let lines = json.code(4).json_lines();
    assert_eq!(lines.len(), 1, "one JSON line");
    let line = &lines[0];
    assert_eq!(
        line["error"]["description"],
        "\u{fffd}\u{fffd}bad \u{fffd}(\\u{0}end"
    );

    let metadata = RawLauncher::answering(
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 4\r\n\r\n\xff{}\xfe",
    );
    let output = at(&metadata.url).args(["metadata", "1"]).run();
    assert_run(
        &output,
        1,
        &[
            "safe-ad: error: metadata 1: the launcher answered 200 OK with a body that is not metadata: \u{fffd}{}\u{fffd}",
            "hint: check that --launcher-url points at a SAFE Launcher",
        ],
    );
    output.stdout_is("");
}

#[test]
fn an_html_error_page_is_exit_5_and_shown_on_one_safe_line() {
    const PAGE: &[u8] = b"HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/html\r\n\r\n\
<!DOCTYPE html>\n<html><head><title>500</title></head>\r\n<body>\x1b[2J\x1b]0;owned\x07<h1>Internal \
Server Error</h1>\xe2\x80\xaegnp.exe\n</body></html>\n";
    let server = RawLauncher::answering(PAGE);
    let output = at(&server.url).args(["post", "1"]).run();
    assert_run(
        &output,
        5,
        &[
            "safe-ad: error: post 1: the launcher answered 500 Internal Server Error: <!DOCTYPE html>\\n<html><head><title>500</title></head>\\r\\n<body>\\u{1b}[2J\\u{1b}]0;owned\\u{7}<h1>Internal Server Error</h1>\\u{202e}gnp.exe\\n</body></html>\n",
        ],
    );
    assert_eq!(
        output.stderr().lines().count(),
        1,
        "one line: {}",
        output.stderr()
    );
    output.stdout_is("");
}

#[test]
fn json_of_another_shape_is_shown_as_it_is() {
    let cases: [(&str, &[u8], &str, i32, &str); 5] = [
        (
            "other keys",
            http_answer("400 Bad Request", br#"{"error":"nope","code":-23}"#),
            "put",
            4,
            "safe-ad: error: put 1: the launcher answered 400 Bad Request: {\"error\":\"nope\",\"code\":-23}\n",
        ),
        (
            "errorCode as a string",
            http_answer("409 Conflict", b"{\"errorCode\":\"-23\",\"description\":\"Exists\"}\n\n"),
            "put",
            4,
            "safe-ad: error: put 1: the launcher answered 409 Conflict: {\"errorCode\":\"-23\",\"description\":\"Exists\"}\n",
        ),
        (
            "an array",
            http_answer("503 Service Unavailable", b"[1,2,3]"),
            "post",
            5,
            "safe-ad: error: post 1: the launcher answered 503 Service Unavailable: [1,2,3]\n",
        ),
        (
            "metadata with wrong types",
            http_answer("200 OK", br#"{"version":"1"}"#),
            "metadata",
            1,
            "safe-ad: error: metadata 1: the launcher answered 200 OK with a body that is not metadata: {\"version\":\"1\"}\nhint: check that --launcher-url points at a SAFE Launcher\n",
        ),
        (
            "metadata as null",
            http_answer("200 OK", b"null"),
            "metadata",
            1,
            "safe-ad: error: metadata 1: the launcher answered 200 OK with a body that is not metadata: null\nhint: check that --launcher-url points at a SAFE Launcher\n",
        ),
    ];
    for (what, answer, command, code, stderr) in cases {
        let server = RawLauncher::answering(answer);
        let output = at(&server.url).args([command, "1"]).case(what).run();
        assert_run(&output, code, &[]);
        assert_eq!(output.stderr(), stderr, "{what}");
        output.stdout_is("");
    }
    // A 2xx of any shape is success for the four operations: they read no body. The read of
    // the version a save saved gets no metadata from it: a warning, and the save still stands.
    let server = RawLauncher::answering(http_answer("200 OK", br#"{"a":[1]}"#));
    let output = at(&server.url).args(["put", "1"]).run();
    assert_run(
        &output,
        0,
        &["safe-ad: warning: put 1 was saved, but the read of its version after the save failed"],
    );
    output.stdout_is("put 1: ok, saved; the version saved could not be read\n");
}

// ---- answers that are not HTTP ---------------------------------------------------------------

/// The exit code for an answer that is not valid HTTP. docs/exit-codes.md's table: 1 is "a response the
/// launcher never gives"; 6 is for a launcher that "could not be reached or did not answer in
/// time (refused, reset, DNS, timeout)", and this one was reached and answered at once.
const NOT_HTTP_EXIT: i32 = 1;

/// Checks an answer that is not valid HTTP: exit `NOT_HTTP_EXIT`, hyper's words for what was
/// wrong, and no claim that the connection closed before any answer (bytes did come).
fn assert_not_http(what: &str, answer: Vec<u8>, detail: &str) -> Vec<String> {
    let answer: &'static [u8] = Box::leak(answer.into_boxed_slice());
    let server = RawLauncher::start(move |conn| {
        if conn.request().is_some() && conn.send(answer) {
            // Keep the connection open, as an SSH server does after its banner.
            conn.hold();
        }
    });
    let output = at(&server.url)
        .args(["--timeout", "2", "put", "1"])
        .case(what)
        .run();
    let stderr = output.stderr();
    let mut wrong = Vec::new();
    if output.exit_code() != Some(NOT_HTTP_EXIT) {
        wrong.push(format!(
            "{what}: exit {:?}, expected {NOT_HTTP_EXIT}",
            output.exit_code()
        ));
    }
    if !stderr.contains(detail) {
        wrong.push(format!("{what}: stderr lacks {detail:?}"));
    }
    if stderr.contains("closed before any answer") {
        wrong.push(format!(
            "{what}: says the connection closed before any answer, but {} bytes came and the \
             connection stayed open",
            answer.len()
        ));
    }
    if !wrong.is_empty() {
        wrong.push(format!("  stderr: {stderr:?}"));
    }
    output.stdout_is("");
    wrong
}

#[test]
fn a_status_line_that_is_not_http_is_a_response_the_launcher_never_gives() {
    let mut wrong = Vec::new();
    for (what, answer, detail) in [
        (
            "SSH banner",
            &b"SSH-2.0-OpenSSH_9.6\r\n"[..],
            "invalid HTTP version parsed",
        ),
        ("a bare body", b"OK\r\n\r\n", "invalid HTTP version parsed"),
        (
            "a status that is not a number",
            b"HTTP/1.1 abc OK\r\ncontent-length: 2\r\n\r\nOK",
            "invalid HTTP status-code parsed",
        ),
    ] {
        wrong.extend(assert_not_http(what, answer.to_vec(), detail));
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn huge_headers_are_a_response_the_launcher_never_gives() {
    let mut one_mb = b"HTTP/1.1 200 OK\r\nx-big: ".to_vec();
    one_mb.extend(std::iter::repeat_n(b'a', 1024 * 1024));
    one_mb.extend_from_slice(b"\r\ncontent-length: 2\r\n\r\nOK");
    let mut many = b"HTTP/1.1 200 OK\r\n".to_vec();
    for i in 0..500 {
        many.extend_from_slice(format!("x-{i}: a\r\n").as_bytes());
    }
    many.extend_from_slice(b"content-length: 2\r\n\r\nOK");
    let mut wrong = assert_not_http("one 1 MB header", one_mb, "message head is too large");
    wrong.extend(assert_not_http(
        "500 headers",
        many,
        "message head is too large",
    ));
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn malformed_headers_are_a_response_the_launcher_never_gives() {
    let mut wrong = Vec::new();
    for (what, answer, detail) in [
        (
            "a line without a colon",
            &b"HTTP/1.1 200 OK\r\nthis is not a header\r\ncontent-length: 2\r\n\r\nOK"[..],
            "invalid HTTP header parsed",
        ),
        (
            "a control character in a value",
            b"HTTP/1.1 200 OK\r\nx-a: a\x01b\r\ncontent-length: 2\r\n\r\nOK",
            "invalid HTTP header parsed",
        ),
        (
            "a content-length that is not a number",
            b"HTTP/1.1 200 OK\r\ncontent-length: abc\r\n\r\nOK",
            "invalid content-length parsed",
        ),
        (
            "two different content-lengths",
            b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 5\r\n\r\nOK",
            "invalid content-length parsed",
        ),
    ] {
        wrong.extend(assert_not_http(what, answer.to_vec(), detail));
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// docs/output.md: `--retries` retries "when no answer arrived (connection refused, or closed before any
/// byte of an answer) ... never after an answer". An SSH banner or a broken header is an answer.
#[test]
fn an_answer_that_is_not_http_is_never_retried() {
    let mut wrong = Vec::new();
    for (what, answer) in [
        ("SSH banner", &b"SSH-2.0-OpenSSH_9.6\r\n"[..]),
        (
            "malformed header",
            b"HTTP/1.1 200 OK\r\nthis is not a header\r\n\r\n",
        ),
    ] {
        let server = RawLauncher::start(move |conn| {
            if conn.request().is_some() {
                conn.send(answer);
            }
        });
        let output = at(&server.url)
            .args(["--retries", "2", "put", "1"])
            .case(what)
            .run();
        output.check(
            output.exit_code() != Some(0),
            "exit 0 for an answer that is not HTTP",
        );
        let connections = server.connections();
        if connections != 1 {
            wrong.push(format!(
                "{what}: `--retries 2 put 1` connected {connections} times, expected 1 (bytes of \
                 an answer came); stderr: {:?}",
                output.stderr()
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

// ---- redirects and HTTP/1.0 ------------------------------------------------------------------

#[test]
fn a_redirect_to_a_second_listener_is_not_followed_and_it_sees_no_connection() {
    let second = RawLauncher::start(|conn| {
        if conn.request().is_some() {
            conn.send(&ok_answer(0));
        }
    });
    for (status, reason) in [
        (301, "Moved Permanently"),
        (302, "Found"),
        (307, "Temporary Redirect"),
    ] {
        let answer = format!(
            "HTTP/1.1 {status} {reason}\r\nlocation: {}/stolen\r\ncontent-length: 0\r\n\r\n",
            second.url
        );
        let answer: &'static [u8] = Box::leak(answer.into_bytes().into_boxed_slice());
        let first = RawLauncher::answering(answer);
        let output = at(&first.url).args(["put", "1"]).case(status).run();
        assert_run(
            &output,
            1,
            &[
                &format!(
                    "safe-ad: error: put 1: the launcher answered {status} {reason}, a redirect to '{}/stolen'; safe-ad does not follow redirects",
                    second.url
                ),
                "hint: safe-ad never follows redirects",
            ],
        );
        output.stdout_is("");
        assert_eq!(first.connections(), 1, "{status}");
    }
    // safe-ad has exited each time, so it can open no more connections: the count is final.
    assert_eq!(
        second.connections(),
        0,
        "the redirect target saw a connection"
    );
}

#[test]
fn http_1_0_without_keep_alive_serves_a_whole_batch() {
    let cases: [(&str, &'static [u8]); 2] = [
        (
            "with content-length",
            b"HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\nOK",
        ),
        ("body ended by the close", b"HTTP/1.0 200 OK\r\n\r\nOK"),
    ];
    for (what, answer) in cases {
        for jobs in ["1", "4"] {
            let server = RawLauncher::answering(answer);
            let mut args = vec!["--jobs", jobs, "drop"];
            let batch = handles(1..=12);
            args.extend(batch.iter().map(String::as_str));
            let what = format!("{what}, --jobs {jobs}");
            let output = at(&server.url).args(&args).case(&what).run();
            assert_run(&output, 0, &["12 handles: 12 ok, 0 failed"]);
            let expected: String = (1..=12).map(|h| format!("drop {h}: ok\n")).collect();
            assert_eq!(output.stdout(), expected, "{what}");
            assert_eq!(
                server.connections(),
                12,
                "{what}: one connection per request"
            );
            assert_eq!(server.requests().len(), 12, "{what}");
        }
    }
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
fn a_plain_http_request_answered_with_tls_says_to_use_https() {
    // A TLS alert record (type 0x15, version 3.1): what a TLS server sends to a plain request.
    let tls = RawLauncher::answering(b"\x15\x03\x01\x00\x02\x02\x46");
    let output = at(&tls.url).args(["put", "1"]).run();
    assert_run(
        &output,
        1,
        &[
            &format!(
                "safe-ad: error: put 1: {} answered with TLS: it speaks https, not plain http",
                tls.url
            ),
            &format!(
                "hint: use https:// in the launcher URL: {}",
                tls.url.replacen("http://", "https://", 1)
            ),
        ],
    );
}

#[tokio::test]
async fn an_https_request_answered_in_plain_http_says_to_use_http() {
    let plain = any_ok_launcher().await;
    let https = plain.uri().replacen("http://", "https://", 1);
    let output = at(&https).args(["put", "1"]).run();
    assert_run(
        &output,
        1,
        &[
            &format!("safe-ad: error: put 1: {https} answered in plain http, not https"),
            &format!(
                "hint: use http:// in the launcher URL (the SAFE Launcher speaks plain http): {}",
                plain.uri()
            ),
        ],
    );
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
