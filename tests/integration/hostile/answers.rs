//! A launcher whose answers misbehave: none at all, a stalled body, a connection closed before or
//! in the middle of an answer, endless and 100 MB bodies read only in part, bytes that are not
//! UTF-8, an HTML error page, JSON of another shape.

use super::*;

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
        // Refused either way: a 400 as the launcher's refusal, a 200 whose body is not the
        // launcher's `OK` as an answer it never gives. Neither body is read to its end.
        let (code, answered) = match what.ends_with("400") {
            true => (4, "400 Bad Request:"),
            false => (1, "200 OK with a body that is not the launcher's `OK`:"),
        };
        assert_run(
            &output,
            code,
            &[
                &format!(
                    "safe-ad: error: drop 1: the launcher answered {answered} endless endless endless"
                ),
                "… (cut)",
                "2 handles: 1 ok, 1 failed",
            ],
        );
        assert_eq!(stdout, "drop 2: ok\n", "{what}");
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
    // A 2xx of another shape is not the launcher's answer to a save either: it answered `OK`,
    // and a save answered otherwise may not have saved.
    let server = RawLauncher::answering(http_answer("200 OK", br#"{"a":[1]}"#));
    let output = at(&server.url).args(["put", "1"]).run();
    assert_run(
        &output,
        1,
        &["safe-ad: error: put 1: the launcher answered 200 OK with a body that is not the launcher's `OK`: {\"a\":[1]}"],
    );
    output.stdout_is("");
}
