//! A launcher that does not speak the launcher's HTTP: a status line or headers that are not HTTP
//! (never retried), a redirect that is not followed, HTTP/1.0 without keep-alive, and TLS where
//! plain HTTP was asked or the other way round.

use super::*;

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
