//! The four operations against a real HTTP server on loopback: what is sent, what is printed,
//! and which exit code each kind of answer gives.

use std::time::{Duration, Instant};

use crate::harness::*;
use wiremock::matchers::{any, body_string, header, header_exists, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[tokio::test]
async fn each_operation_sends_its_method_path_and_header_with_no_body() {
    let cases = [
        ("put", "PUT", "/appendable-data/42"),
        ("post", "POST", "/appendable-data/42"),
        ("clear-data", "DELETE", "/appendable-data/clear-data/42"),
        (
            "clear-deleted-data",
            "DELETE",
            "/appendable-data/clear-deleted-data/42",
        ),
    ];
    for (command, verb, route) in cases {
        let server = MockServer::start().await;
        answer_metadata(&server).await;
        let save = command.starts_with('p');
        Mock::given(method(verb))
            .and(path(route))
            .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
            .and(body_string(""))
            .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
            .expect(1)
            .mount(&server)
            .await;
        SafeAd::new()
            .launcher(&server.uri())
            .args([command, "42"])
            .run()
            .success()
            .stdout_is(&if save {
                format!("{command} 42: ok, saved version 0\n")
            } else {
                format!("{command} 42: ok\n")
            });
        server.verify().await;
        let mut requests = received(&server).await;
        // clear-deleted-data first reads the copy's bytes, to say what a plain post would
        // leave only when a removal it takes is not saved (this server has none to give).
        if command == "clear-deleted-data" {
            assert_eq!(requests[0].url.path(), "/appendable-data/serialise/42");
            requests.remove(0);
        }
        // A save is followed by the read of the version it saved.
        assert_eq!(requests.len(), if save { 2 } else { 1 }, "{command}");
        if save {
            assert_eq!(requests[1].method.as_str(), "GET");
            assert_eq!(requests[1].url.path(), "/appendable-data/metadata/42");
        }
        assert!(
            requests[0].headers.get("content-type").is_none(),
            "{command} sent a Content-Type"
        );
    }
}

#[tokio::test]
async fn any_2xx_with_the_launchers_ok_is_success() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(202).set_body_string("OK"))
        .mount(&server)
        .await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["put", "1"])
        .run()
        .code(0);
}

/// The launcher answered the success of a save, a clear and a drop with Express's
/// `sendStatus(200)`: the body `OK`, nothing else. A 2xx with any other body (none, JSON, `ok`,
/// `OK` and a line break) is not its answer: exit 1, naming what came, never "saved" or
/// "dropped", for each of those routes.
#[tokio::test]
async fn a_2xx_whose_body_is_not_ok_is_refused_on_every_ok_route() {
    for body in ["", "ok", "OK\n", r#"{"handleId":1}"#, "Not OK"] {
        let server = MockServer::start().await;
        Mock::given(any())
            .respond_with(ResponseTemplate::new(200).set_body_string(body))
            .mount(&server)
            .await;
        for args in [
            &["put", "1"][..],
            &["post", "1"],
            &["clear-data", "1"],
            &["clear-deleted-data", "1"],
            &["drop", "1"],
        ] {
            SafeAd::new()
                .launcher(&server.uri())
                .args(args)
                .case(format!("{args:?} answered {body:?}"))
                .run()
                .code(1)
                .stdout_is("")
                .stderr_has("with a body that is not the launcher's `OK`");
        }
    }
}

#[tokio::test]
async fn leading_zeros_are_sent_canonical() {
    let server = MockServer::start().await;
    answer_metadata(&server).await;
    expect(&server, "PUT", "/appendable-data/10", 1).await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["put", "010"])
        .run()
        .success()
        .stdout_is("put 10: ok, saved version 0\n");
    server.verify().await;
}

#[tokio::test]
async fn largest_handle_is_accepted() {
    let server = MockServer::start().await;
    expect(&server, "POST", "/appendable-data/18446744073709551615", 1).await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["post", "18446744073709551615"])
        .run()
        .success();
    server.verify().await;
}

#[tokio::test]
async fn path_prefix_is_kept_and_trailing_slash_ignored() {
    for suffix in ["/0.6", "/0.6/"] {
        let server = MockServer::start().await;
        expect(&server, "DELETE", "/0.6/appendable-data/clear-data/5", 1).await;
        SafeAd::new()
            .launcher(&format!("{}{suffix}", server.uri()))
            .args(["clear-data", "5"])
            .run()
            .success();
        server.verify().await;
    }
}

#[tokio::test]
async fn global_options_work_before_and_after_the_subcommand() {
    let server = ok_launcher().await;
    answer_metadata(&server).await;
    let sandbox = Sandbox::new();
    for args in [
        vec!["--timeout", "5", "-q", "put", "1"],
        vec!["put", "--timeout", "5", "1", "-q"],
        vec!["put", "1", "--quiet", "--timeout=5"],
    ] {
        sandbox
            .safe_ad()
            .launcher(&server.uri())
            .args(&args)
            .run()
            .success()
            .stdout_is("");
    }
    let launcher_flag_last = ["put", "3", "--launcher-url", &server.uri()];
    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_TOKEN", TOKEN)
        .args(launcher_flag_last)
        .run()
        .success()
        .stdout_is("put 3: ok, saved version 0\n");
}

#[tokio::test]
async fn quiet_silences_success_but_not_errors() {
    let server = error_launcher(
        400,
        r#"{"errorCode":-1515,"description":"FfiError::InvalidAppendableDataHandle"}"#,
    )
    .await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["-q", "post", "9"])
        .run()
        .code(4)
        .stdout_is("")
        .stderr_has("safe-ad: error: post 9:");
}

#[tokio::test]
async fn clears_remind_that_a_save_is_needed() {
    let server = ok_launcher().await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["clear-data", "4"])
        .run()
        .success()
        .stdout_is("clear-data 4: ok\n")
        .stderr_has("safe-ad post 4");
}

#[tokio::test]
async fn several_handles_run_in_order_over_one_connection() {
    let server = ok_launcher().await;
    answer_metadata(&server).await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["put", "3", "1", "2"])
        .run()
        .success()
        .stdout_is(
            "put 3: ok, saved version 0\nput 1: ok, saved version 0\nput 2: ok, saved version 0\n",
        );
    // The saves in input order; each read of the version saved after its save.
    let paths = received_paths(&server).await;
    let saves: Vec<&String> = paths.iter().filter(|p| !p.contains("metadata")).collect();
    assert_eq!(
        saves,
        [
            "/appendable-data/3",
            "/appendable-data/1",
            "/appendable-data/2"
        ]
    );
    for handle in ["3", "1", "2"] {
        let at = |wanted: String| paths.iter().position(|p| *p == wanted);
        let save = at(format!("/appendable-data/{handle}")).expect("the save");
        let read = at(format!("/appendable-data/metadata/{handle}")).expect("the read");
        assert!(save < read, "{paths:?}");
    }
}

#[tokio::test]
async fn a_failure_does_not_stop_the_rest_and_the_first_failure_sets_the_code() {
    let server = MockServer::start().await;
    answer_metadata(&server).await;
    Mock::given(path("/appendable-data/2"))
        .respond_with(ResponseTemplate::new(503).set_body_string("busy"))
        .mount(&server)
        .await;
    Mock::given(path("/appendable-data/3"))
        .respond_with(ResponseTemplate::new(401).set_body_string("Unauthorized"))
        .mount(&server)
        .await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .mount(&server)
        .await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["post", "1", "2", "3", "4"])
        .run()
        .code(5)
        .stdout_is("post 1: ok, saved version 0\npost 4: ok, saved version 0\n")
        .stderr_has("post 2: the launcher answered 503")
        .stderr_has("post 3: the launcher answered 401");
    // Four posts, and the reads of the versions the two that succeeded saved.
    assert_eq!(request_count(&server).await, 6);
}

/// Each kind of answer, its exit code, and the words and hint a person sees.
#[tokio::test]
async fn answers_map_to_exit_codes_and_hints() {
    let cases: &[(&str, u16, &str, i32, &[&str])] = &[
        (
            "put",
            400,
            r#"{"errorCode":-23,"description":"CoreError::MutationFailure::MutationError::DataExists"}"#,
            4,
            &[
                "400 Bad Request",
                "errorCode -23",
                "DataExists",
                "hint:",
                "safe-ad post",
            ],
        ),
        (
            "post",
            404,
            r#"{"errorCode":-22,"description":"CoreError::MutationFailure::MutationError::NoSuchData"}"#,
            4,
            &["404 Not Found", "errorCode -22", "hint:", "safe-ad put"],
        ),
        (
            "post",
            400,
            INVALID_SUCCESSOR,
            4,
            &["errorCode -25", "hint:", "fresh handle"],
        ),
        (
            "clear-data",
            400,
            r#"{"errorCode":-1515,"description":"FfiError::InvalidAppendableDataHandle"}"#,
            4,
            &[
                "errorCode -1515",
                "hint:",
                "restart",
                "100",
                "`safe-ad open` (with the data's name)",
            ],
        ),
        (
            "put",
            401,
            "Unauthorized",
            3,
            &["401 Unauthorized", "Unauthorized", "hint:", "new token"],
        ),
        (
            "put",
            401,
            r#"{"errorCode":400,"description":"Unauthorised access"}"#,
            3,
            &["401", "Unauthorised access", "hint:"],
        ),
        (
            "post",
            403,
            r#"{"errorCode":400,"description":"Low level api access is not granted"}"#,
            3,
            &["403 Forbidden", "hint:", "LOW_LEVEL_API"],
        ),
        (
            "put",
            404,
            r#"{"errorCode":404,"description":"Endpoint Not Found"}"#,
            4,
            &["404", "Endpoint Not Found"],
        ),
        (
            "put",
            500,
            "internal",
            5,
            &["500 Internal Server Error", "internal"],
        ),
        ("put", 502, "", 5, &["502", "(empty body)"]),
    ];
    for (command, status, body, code, words) in cases {
        let server = error_launcher(*status, body).await;
        let output = SafeAd::new()
            .launcher(&server.uri())
            .args([command, "7"])
            .case(format!("{status} {body}"))
            .run();
        output.code(*code).stdout_is("").check(
            output
                .stderr()
                .starts_with(&format!("safe-ad: error: {command} 7: ")),
            "stderr does not start with the error",
        );
        for word in *words {
            output.stderr_has(word);
        }
    }
}

#[tokio::test]
async fn odd_bodies_are_shown_safely_and_bounded() {
    let server = MockServer::start().await;
    let mut body = b"<html>\x1b[31mred\x1b[0m\xff\xfe".to_vec();
    body.extend(std::iter::repeat_n(b'x', 200_000));
    Mock::given(any())
        .respond_with(ResponseTemplate::new(400).set_body_raw(body, "text/html"))
        .mount(&server)
        .await;
    let output = SafeAd::new()
        .launcher(&server.uri())
        .args(["put", "1"])
        .run();
    output
        .code(4)
        .stderr_lacks("\x1b")
        .stderr_has("\\u{1b}[31m")
        .stderr_has("(cut)");
    let bytes = output.stderr().len();
    output.check(bytes < 2000, format!("{bytes} bytes of stderr"));
}

/// docs/output.md: a body that is not the launcher's JSON is shown "cut at 300 characters", escapes
/// counted as shown; a description in the launcher's JSON is cut the same way.
#[test]
fn a_long_body_is_cut_at_300_characters() {
    let long_text = "x".repeat(1000);
    let bells = "\u{7}".repeat(100);
    let description = "d".repeat(1000);
    let json = format!(r#"{{"errorCode":-1,"description":"{description}"}}"#);
    for (body, shown) in [
        (long_text.as_str(), format!("{}… (cut)", "x".repeat(300))),
        // Each BEL is shown as the 5 characters `\u{7}`: 60 of them make 300.
        (bells.as_str(), format!("{}… (cut)", "\\u{7}".repeat(60))),
        (
            json.as_str(),
            format!("errorCode -1, {}… (cut)", "d".repeat(300)),
        ),
        // 300 characters are shown whole.
        (&long_text[..300], "x".repeat(300)),
    ] {
        let server = RawLauncher::answering(http_answer("400 Bad Request", body.as_bytes()));
        SafeAd::new()
            .launcher(&server.url)
            .args(["put", "1"])
            .case(format!("{} bytes", body.len()))
            .run()
            .code(4)
            .stderr_has(&format!(
                "safe-ad: error: put 1: the launcher answered 400 Bad Request: {shown}\n"
            ));
    }
}

/// docs/exit-codes.md: exit 1 for "a response the launcher never gives (3xx, 1xx, not HTTP)". The 1xx that
/// is a response of its own, 101 Switching Protocols, is exit 1 and class `unexpected`; an interim
/// 1xx (100 Continue) before the response is, in HTTP/1.1, no response of its own: the one after
/// it decides.
#[test]
fn a_1xx_answer_is_unexpected() {
    let switching = RawLauncher::answering(
        b"HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: websocket\r\n\r\n",
    );
    SafeAd::new()
        .launcher(&switching.url)
        .args(["put", "1"])
        .run()
        .code(1)
        .stdout_is("")
        .stderr_has("safe-ad: error: put 1: the launcher answered 101 Switching Protocols");
    let output = SafeAd::new()
        .launcher(&switching.url)
        .args(["--json", "put", "1"])
        .run();
    let lines = output.code(1).json_lines();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["error"]["status"], 101, "{}", lines[0]);
    assert_eq!(lines[0]["error"]["class"], "unexpected", "{}", lines[0]);
    assert_eq!(lines[0]["exit_code"], 1, "{}", lines[0]);

    let body = r#"{"errorCode":-1515,"description":"FfiError::InvalidAppendableDataHandle"}"#;
    let mut interim = b"HTTP/1.1 100 Continue\r\n\r\n".to_vec();
    interim.extend_from_slice(http_answer("400 Bad Request", body.as_bytes()));
    let interim = RawLauncher::answering(Box::leak(interim.into_boxed_slice()));
    SafeAd::new()
        .launcher(&interim.url)
        .args(["put", "1"])
        .run()
        .code(4)
        .stderr_has("errorCode -1515");
}

#[test]
fn a_status_outside_the_http_classes_is_unexpected() {
    let server = RawLauncher::answering(b"HTTP/1.1 600 Odd\r\ncontent-length: 0\r\n\r\n");
    SafeAd::new()
        .launcher(&server.url)
        .args(["put", "1"])
        .run()
        .code(1)
        .stderr_has("answered 600");
}

#[tokio::test]
async fn timeout_gives_exit_6_and_a_clear_gets_the_unknown_handle_hint() {
    let server = slow_launcher(std::time::Duration::from_secs(10)).await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["--timeout", "0.5", "clear-data", "77"])
        .run()
        .code(6)
        .stderr_has("did not answer within 0.5 s")
        .stderr_has("hint: the launcher never answers a clear for an unknown handle");
    SafeAd::new()
        .launcher(&server.uri())
        .args(["--timeout", "0.5", "post", "77"])
        .run()
        .code(6)
        .stderr_has("raise --timeout");
}

/// docs/settings.md: "connecting has its own bound of at most 10 seconds". A launcher whose accept queue
/// is full never answers a connection attempt at all ([`SilentPort`]): with the default 30 s
/// timeout safe-ad gives up connecting after its 10 s bound, saying so, and not before; a shorter
/// --timeout bounds the connect too.
#[test]
fn connecting_is_bounded_by_10_seconds() {
    let silent = SilentPort::new();
    for (flags, bound) in [(&[][..], 10), (&["--timeout", "2"][..], 2)] {
        let started = Instant::now();
        SafeAd::new()
            .launcher(&silent.url)
            .args(flags)
            .args(["put", "1"])
            .run()
            .code(6)
            .stderr_has(&format!(
                "put 1: could not connect to {} within {bound} s",
                silent.url
            ));
        let elapsed = started.elapsed();
        assert!(
            elapsed >= Duration::from_secs(bound),
            "gave up connecting after {elapsed:?}, before its {bound} s"
        );
    }
}

#[test]
fn connection_refused_gives_exit_6_and_names_the_url() {
    let url = closed_port_url();
    SafeAd::new()
        .launcher(&url)
        .args(["put", "1"])
        .run()
        .code(6)
        .stderr_has("connection refused")
        .stderr_has(&format!("is the launcher running at {url}?"));
}

#[tokio::test]
async fn timeout_from_the_config_file_is_used() {
    let server = slow_launcher(std::time::Duration::from_secs(10)).await;
    let sandbox = Sandbox::new();
    sandbox.write_config(r#"{"timeout_secs": 0.3}"#);
    sandbox
        .safe_ad()
        .launcher(&server.uri())
        .args(["put", "1"])
        .run()
        .code(6)
        .stderr_has("within 0.3 s");
}

#[tokio::test]
async fn a_redirect_is_not_followed_and_the_target_sees_nothing() {
    let target = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200))
        .mount(&target)
        .await;
    for status in [301, 302, 307, 308] {
        let server = MockServer::start().await;
        Mock::given(any())
            .respond_with(
                ResponseTemplate::new(status)
                    .insert_header("location", format!("{}/stolen", target.uri()).as_str()),
            )
            .mount(&server)
            .await;
        SafeAd::new()
            .launcher(&server.uri())
            .args(["put", "1"])
            .run()
            .code(1)
            .stderr_has(&status.to_string())
            .stderr_has("does not follow redirects")
            .stderr_has("/stolen");
    }
    assert_nothing_sent(&target, "the redirect's target").await;
}

#[tokio::test]
async fn requests_carry_a_user_agent_and_exactly_one_authorization() {
    let server = MockServer::start().await;
    Mock::given(header_exists("user-agent"))
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .expect(2)
        .mount(&server)
        .await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["put", "1"])
        .run()
        .success();
    // The save and the read of the version it saved.
    let requests = received(&server).await;
    assert_eq!(requests.len(), 2);
    for request in &requests {
        let auth: Vec<_> = request.headers.get_all("authorization").iter().collect();
        assert_eq!(auth.len(), 1);
        assert_eq!(
            auth[0].to_str().ok(),
            Some(format!("Bearer {TOKEN}").as_str())
        );
    }
}

#[tokio::test]
async fn ctrl_c_stops_the_batch_with_exit_130() {
    let server = slow_launcher(std::time::Duration::from_secs(20)).await;
    let running = SafeAd::new()
        .launcher(&server.uri())
        .args(["--jobs", "1", "put", "1", "2", "3"])
        .spawn();
    // Wait until the first request is in flight, so the interrupt lands mid-batch.
    wait_for_requests(&server, 1).await;
    running.interrupt();
    running
        .wait()
        .code(130)
        .stderr_has(
            "3 handles: 0 ok, 0 failed, 1 sent but not awaited (they may have taken effect), 2 not started",
        )
        .stderr_has("safe-ad: error: interrupted; no new requests were sent");
    assert_eq!(request_count(&server).await, 1);
}

#[tokio::test]
async fn metadata_prints_one_line_per_handle() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/appendable-data/metadata/7"))
        .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_raw(
            r#"{"isOwner":true,"version":2,"filterType":"BlackList","filterLength":0,"dataLength":0,"deletedDataLength":3}"#,
            "application/json",
        ))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/appendable-data/metadata/8"))
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .mount(&server)
        .await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["metadata", "7", "8", "-q"])
        .run()
        .code(1)
        .stdout_is("7: version 2, data 0, deleted 3, owner yes, filter BlackList (0 keys)\n")
        .stderr_has(
            "metadata 8: the launcher answered 200 OK with a body that is not metadata: OK",
        );
}

#[test]
fn help_says_how_to_try_safe_ad_and_keeps_each_list_entry_in_its_column() {
    let output = SafeAd::new().arg("--help").run();
    output
        .success()
        .stdout_has("No launcher at hand? `safe-ad emulator` runs a local stand-in:")
        .stdout_has("(N: 1..=256, default 8)")
        .stdout_has("(N: 0..=10, default 0)");
    let stdout = output.stdout();
    // Every line of the exit-status list is an entry (`  4    ...`) or a continuation indented
    // under its text: none wraps back to the left edge.
    let list: Vec<&str> = stdout
        .lines()
        .skip_while(|line| *line != "Exit status:")
        .skip(1)
        .take_while(|line| !line.is_empty())
        .collect();
    assert_eq!(
        list.iter()
            .filter(|line| line.starts_with("  ") && !line.starts_with("   "))
            .count(),
        safe_ad::test_support::outcome::EXIT_CODES.len(),
        "{list:#?}"
    );
    assert!(
        list.iter()
            .all(|line| line.starts_with("  ") && line.chars().count() <= 80),
        "{list:#?}"
    );
    SafeAd::new()
        .arg("-h")
        .run()
        .success()
        .stdout_has("safe-ad emulator -- sh -c");
}

#[cfg(feature = "emulator")]
#[test]
fn emulator_help_offers_its_own_options_and_none_of_the_clients() {
    let output = SafeAd::new().args(["emulator", "--help"]).run();
    output.success();
    for own in [
        "--listen",
        "--token-file",
        "--quiet",
        "--log",
        "--state",
        "--strict-paths",
    ] {
        output.stdout_has(own);
    }
    for client in [
        "--launcher-url",
        "--timeout",
        "--json",
        "--jobs",
        "--retries",
        "--dry-run",
        "--curl",
        "--allow-insecure-http",
        "--fail-fast",
    ] {
        output.check(
            !output.stdout().contains(client),
            format!("emulator --help offers the client's {client}"),
        );
    }
    // Nor accepts them, before or after its name.
    SafeAd::new()
        .args(["--json", "emulator"])
        .run()
        .code(2)
        .stderr_has("safe-ad: error: `safe-ad emulator` does not take --json");
    SafeAd::new()
        .args(["emulator", "--launcher-url", "http://127.0.0.1:1"])
        .run()
        .code(2)
        .stderr_has("`safe-ad emulator` does not take --launcher-url: it is an option of");
}
