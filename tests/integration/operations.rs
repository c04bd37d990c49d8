//! The four operations against a real HTTP server on loopback: what is sent, what is printed,
//! and which exit code each kind of answer gives.

use crate::harness::*;
use predicates::prelude::*;
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
        Mock::given(method(verb))
            .and(path(route))
            .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
            .and(body_string(""))
            .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
            .expect(1)
            .mount(&server)
            .await;
        let sandbox = Sandbox::new();
        sandbox
            .cmd_at(&server.uri())
            .args([command, "42"])
            .assert()
            .success()
            .stdout(format!("{command} 42: ok\n"));
        server.verify().await;
        let requests = server.received_requests().await.unwrap_or_default();
        assert_eq!(requests.len(), 1, "{command}");
        assert!(
            requests[0].headers.get("content-type").is_none(),
            "{command} sent a Content-Type"
        );
    }
}

#[tokio::test]
async fn any_2xx_is_success() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    Sandbox::new()
        .cmd_at(&server.uri())
        .args(["put", "1"])
        .assert()
        .code(0);
}

#[tokio::test]
async fn leading_zeros_are_sent_canonical() {
    let server = MockServer::start().await;
    expect(&server, "PUT", "/appendable-data/10", 1).await;
    Sandbox::new()
        .cmd_at(&server.uri())
        .args(["put", "010"])
        .assert()
        .success()
        .stdout("put 10: ok\n");
    server.verify().await;
}

#[tokio::test]
async fn largest_handle_is_accepted() {
    let server = MockServer::start().await;
    expect(&server, "POST", "/appendable-data/18446744073709551615", 1).await;
    Sandbox::new()
        .cmd_at(&server.uri())
        .args(["post", "18446744073709551615"])
        .assert()
        .success();
    server.verify().await;
}

#[tokio::test]
async fn path_prefix_is_kept_and_trailing_slash_ignored() {
    for suffix in ["/0.6", "/0.6/"] {
        let server = MockServer::start().await;
        expect(&server, "DELETE", "/0.6/appendable-data/clear-data/5", 1).await;
        Sandbox::new()
            .cmd_at(&format!("{}{suffix}", server.uri()))
            .args(["clear-data", "5"])
            .assert()
            .success();
        server.verify().await;
    }
}

#[tokio::test]
async fn global_options_work_before_and_after_the_subcommand() {
    let server = ok_launcher().await;
    let sandbox = Sandbox::new();
    for args in [
        vec!["--timeout", "5", "-q", "put", "1"],
        vec!["put", "--timeout", "5", "1", "-q"],
        vec!["put", "1", "--quiet", "--timeout=5"],
    ] {
        sandbox
            .cmd_at(&server.uri())
            .args(&args)
            .assert()
            .success()
            .stdout("");
    }
    let launcher_flag_last = ["put", "3", "--launcher-url", &server.uri()];
    sandbox
        .cmd()
        .env("SAFE_LAUNCHER_TOKEN", TOKEN)
        .args(launcher_flag_last)
        .assert()
        .success()
        .stdout("put 3: ok\n");
}

#[tokio::test]
async fn quiet_silences_success_but_not_errors() {
    let server = error_launcher(
        400,
        r#"{"errorCode":-1515,"description":"FfiError::InvalidAppendableDataHandle"}"#,
    )
    .await;
    Sandbox::new()
        .cmd_at(&server.uri())
        .args(["-q", "post", "9"])
        .assert()
        .code(4)
        .stdout("")
        .stderr(predicate::str::contains("safe-ad: error: post 9:"));
}

#[tokio::test]
async fn clears_remind_that_a_save_is_needed() {
    let server = ok_launcher().await;
    Sandbox::new()
        .cmd_at(&server.uri())
        .args(["clear-data", "4"])
        .assert()
        .success()
        .stdout("clear-data 4: ok\n")
        .stderr(predicate::str::contains("safe-ad post 4"));
}

#[tokio::test]
async fn several_handles_run_in_order_over_one_connection() {
    let server = ok_launcher().await;
    Sandbox::new()
        .cmd_at(&server.uri())
        .args(["put", "3", "1", "2"])
        .assert()
        .success()
        .stdout("put 3: ok\nput 1: ok\nput 2: ok\n");
    assert_eq!(
        received_paths(&server).await,
        [
            "/appendable-data/3",
            "/appendable-data/1",
            "/appendable-data/2"
        ]
    );
}

#[tokio::test]
async fn a_failure_does_not_stop_the_rest_and_the_first_failure_sets_the_code() {
    let server = MockServer::start().await;
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
    Sandbox::new()
        .cmd_at(&server.uri())
        .args(["post", "1", "2", "3", "4"])
        .assert()
        .code(5)
        .stdout("post 1: ok\npost 4: ok\n")
        .stderr(predicate::str::contains(
            "post 2: the launcher answered 503",
        ))
        .stderr(predicate::str::contains(
            "post 3: the launcher answered 401",
        ));
    assert_eq!(request_count(&server).await, 4);
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
            r#"{"errorCode":-25,"description":"CoreError::MutationFailure::MutationError::InvalidSuccessor"}"#,
            4,
            &["errorCode -25", "hint:", "fresh handle"],
        ),
        (
            "clear-data",
            400,
            r#"{"errorCode":-1515,"description":"FfiError::InvalidAppendableDataHandle"}"#,
            4,
            &["errorCode -1515", "hint:", "launcher restarts", "100"],
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
        let output = Sandbox::new()
            .cmd_at(&server.uri())
            .args([command, "7"])
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(*code),
            "{status} {body}: {stderr}"
        );
        assert!(
            stderr.starts_with(&format!("safe-ad: error: {command} 7: ")),
            "{stderr}"
        );
        for word in *words {
            assert!(
                stderr.contains(word),
                "{status} {body}: missing {word:?} in {stderr}"
            );
        }
        assert!(output.stdout.is_empty());
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
    let output = Sandbox::new()
        .cmd_at(&server.uri())
        .args(["put", "1"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(4));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains('\x1b'),
        "escape sequence reached the terminal: {stderr:?}"
    );
    assert!(stderr.contains("\\u{1b}[31m"), "{stderr}");
    assert!(stderr.contains("(cut)"), "{stderr}");
    assert!(stderr.len() < 2000, "{} bytes of stderr", stderr.len());
}

#[test]
fn a_status_outside_the_http_classes_is_unexpected() {
    let url = raw_server(b"HTTP/1.1 600 Odd\r\ncontent-length: 0\r\n\r\n");
    Sandbox::new()
        .cmd_at(&url)
        .args(["put", "1"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("answered 600"));
}

#[tokio::test]
async fn timeout_gives_exit_6_and_a_clear_gets_the_unknown_handle_hint() {
    let server = slow_launcher(std::time::Duration::from_secs(10)).await;
    let started = std::time::Instant::now();
    Sandbox::new()
        .cmd_at(&server.uri())
        .args(["--timeout", "0.5", "clear-data", "77"])
        .assert()
        .code(6)
        .stderr(predicate::str::contains("did not answer within 0.5 s"))
        .stderr(predicate::str::contains(
            "hint: the launcher never answers a clear for an unknown handle",
        ));
    assert!(started.elapsed() < std::time::Duration::from_secs(8));
    Sandbox::new()
        .cmd_at(&server.uri())
        .args(["--timeout", "0.5", "post", "77"])
        .assert()
        .code(6)
        .stderr(predicate::str::contains("raise --timeout"));
}

#[test]
fn connection_refused_gives_exit_6_and_names_the_url() {
    let url = closed_port_url();
    Sandbox::new()
        .cmd_at(&url)
        .args(["put", "1"])
        .assert()
        .code(6)
        .stderr(predicate::str::contains("connection refused"))
        .stderr(predicate::str::contains(format!(
            "is the launcher running at {url}?"
        )));
}

#[tokio::test]
async fn timeout_from_the_config_file_is_used() {
    let server = slow_launcher(std::time::Duration::from_secs(10)).await;
    let sandbox = Sandbox::new();
    sandbox.write_config(r#"{"timeout_secs": 0.3}"#);
    sandbox
        .cmd_at(&server.uri())
        .args(["put", "1"])
        .assert()
        .code(6)
        .stderr(predicate::str::contains("within 0.3 s"));
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
        Sandbox::new()
            .cmd_at(&server.uri())
            .args(["put", "1"])
            .assert()
            .code(1)
            .stderr(predicate::str::contains(format!("{status}")))
            .stderr(predicate::str::contains("does not follow redirects"))
            .stderr(predicate::str::contains("/stolen"));
    }
    assert!(received_paths(&target).await.is_empty());
}

#[tokio::test]
async fn requests_carry_a_user_agent_and_exactly_one_authorization() {
    let server = MockServer::start().await;
    Mock::given(header_exists("user-agent"))
        .respond_with(ResponseTemplate::new(200))
        .expect(1)
        .mount(&server)
        .await;
    Sandbox::new()
        .cmd_at(&server.uri())
        .args(["put", "1"])
        .assert()
        .success();
    let requests = server.received_requests().await.unwrap_or_default();
    let auth: Vec<_> = requests[0]
        .headers
        .get_all("authorization")
        .iter()
        .collect();
    assert_eq!(auth.len(), 1);
    assert_eq!(
        auth[0].to_str().ok(),
        Some(format!("Bearer {TOKEN}").as_str())
    );
}

#[tokio::test]
async fn ctrl_c_stops_the_batch_with_exit_130() {
    let server = slow_launcher(std::time::Duration::from_secs(20)).await;
    let sandbox = Sandbox::new();
    let child = sandbox
        .std_cmd()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .env("SAFE_LAUNCHER_TOKEN", TOKEN)
        .args(["--jobs", "1", "put", "1", "2", "3"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    // Wait until the first request is in flight, so the interrupt lands mid-batch.
    wait_for_a_request(&server).await;
    interrupt(&child);
    let output = child.wait_with_output().expect("waits");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains(
            "0 handles: 0 ok, 0 failed, 1 sent but not awaited (they may have taken effect), 2 not started"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("safe-ad: error: interrupted; no new requests were sent"),
        "{stderr}"
    );
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
    Sandbox::new()
        .cmd_at(&server.uri())
        .args(["metadata", "7", "8", "-q"])
        .assert()
        .code(1)
        .stdout("7: version 2, data 0, deleted 3, owner yes, filter BlackList (0 keys)\n")
        .stderr(predicate::str::contains(
            "metadata 8: the launcher answered 200 OK with a body that is not metadata: OK",
        ));
}
