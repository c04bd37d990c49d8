//! Where handles come from, on the wire: `create`, `open`, `reopen` and `drop` against a
//! loopback server that checks each request's method, path, headers and exact JSON body, and
//! answers as the launcher does. What a script reads (the handle alone on stdout), what a person
//! reads (one line on stderr), `--json`, `--dry-run` and `--curl`.
//!
//! The same commands against the real emulator are in `scenarios`.

use serde_json::{json, Value};
use wiremock::matchers::{body_json, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::harness::http::{appendable_bytes, b64};
use crate::harness::*;

/// A name in both forms the commands take.
const NAME: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
const NAME_HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

/// Mounts `verb route` answering `status` with `body` (JSON when it parses), expected `times`.
async fn answer(server: &MockServer, verb: &str, route: &str, status: u16, body: &str, times: u64) {
    let template = match serde_json::from_str::<Value>(body) {
        Ok(json) => ResponseTemplate::new(status).set_body_json(json),
        Err(_) => ResponseTemplate::new(status).set_body_string(body),
    };
    Mock::given(method(verb))
        .and(path(route))
        .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
        .respond_with(template)
        .expect(times)
        .mount(server)
        .await;
}

/// The JSON body of the first request the server received.
async fn first_body(server: &MockServer) -> Value {
    let requests = received(server).await;
    let first = requests.first().expect("a request came");
    assert_eq!(
        first
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("application/json"),
        "the body is sent as JSON"
    );
    serde_json::from_slice(&first.body).expect("the body is JSON")
}

/// What `open NAME` meets: data-id handle 12 for any name, the fetch through it answering
/// `status` with `body`, and the drop of the data id; each expected once.
async fn open_chain(server: &MockServer, status: u16, body: &str) {
    answer(
        server,
        "POST",
        "/data-id/appendable-data",
        200,
        r#"{"handleId":12}"#,
        1,
    )
    .await;
    answer(server, "GET", "/appendable-data/handle/12", status, body, 1).await;
    answer(server, "DELETE", "/data-id/12", 200, "OK", 1).await;
}

/// A launcher that creates handle 5 and then refuses to save it (-23, as if the name were taken).
async fn created_but_refused_save() -> MockServer {
    let server = MockServer::start().await;
    answer(
        &server,
        "POST",
        "/appendable-data",
        200,
        r#"{"handleId":5}"#,
        1,
    )
    .await;
    answer(
        &server,
        "PUT",
        "/appendable-data/5",
        400,
        r#"{"errorCode":-23,"description":"CoreError::MutationFailure::MutationError::DataExists"}"#,
        1,
    )
    .await;
    server
}

const FETCHED: &str = r#"{"handleId":9,"isOwner":true,"version":2,"filterType":"BlackList","dataLength":3,"deletedDataLength":0}"#;
const NO_SUCH_DATA: &str =
    r#"{"errorCode":-18,"description":"CoreError::GetFailure::GetError::NoSuchData"}"#;

// ---- create ---------------------------------------------------------------------------------

#[tokio::test]
async fn create_sends_the_name_as_base64_and_prints_the_handle_alone() {
    // The hex form is sent as the launcher writes names: base64.
    for typed in [NAME, NAME_HEX] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/appendable-data"))
            .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
            .and(body_json(json!({"name": NAME, "isPrivate": false})))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({"handleId": 5})))
            .expect(1)
            .mount(&server)
            .await;
        SafeAd::new()
            .launcher(&server.uri())
            .args(["create", typed])
            .run()
            .success()
            .stdout_is("5\n")
            .stderr_is(&format!(
                "safe-ad: created handle 5, name {NAME}, not on the network yet (save it with: safe-ad put 5)\n"
            ));
        server.verify().await;
        assert_eq!(request_lines(&server).await, ["POST /appendable-data"]);
    }
}

#[tokio::test]
async fn create_private_white_list_sends_exactly_the_launchers_fields() {
    let server = MockServer::start().await;
    answer(
        &server,
        "POST",
        "/appendable-data",
        200,
        r#"{"handleId":0}"#,
        1,
    )
    .await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["create", "--private", "--white-list", NAME])
        .run()
        .success()
        .stdout_is("0\n");
    // Only the exact string WHITE_LIST makes a whitelist; without the flag the key is absent.
    assert_eq!(
        first_body(&server).await,
        json!({"name": NAME, "isPrivate": true, "filterType": "WHITE_LIST"})
    );
}

#[tokio::test]
async fn create_without_a_name_makes_a_fresh_random_one_each_time() {
    let mut names = Vec::new();
    for _ in 0..2 {
        let server = MockServer::start().await;
        answer(
            &server,
            "POST",
            "/appendable-data",
            200,
            r#"{"handleId":5}"#,
            1,
        )
        .await;
        SafeAd::new()
            .launcher(&server.uri())
            .arg("create")
            .run()
            .success()
            .stdout_is("5\n");
        let body = first_body(&server).await;
        assert_eq!(body["isPrivate"], json!(false));
        let name = body["name"].as_str().expect("a name").to_string();
        assert_eq!(name.len(), 44, "{name}");
        assert!(name.ends_with('=') && !name.ends_with("=="), "{name}");
        names.push(name);
    }
    assert_ne!(names[0], names[1]);
}

#[tokio::test]
async fn create_put_saves_right_after_and_says_so() {
    let server = MockServer::start().await;
    answer(
        &server,
        "POST",
        "/appendable-data",
        200,
        r#"{"handleId":5}"#,
        1,
    )
    .await;
    answer(&server, "PUT", "/appendable-data/5", 200, "OK", 1).await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["create", "--put", NAME])
        .run()
        .success()
        .stdout_is("5\n")
        .stderr_is(&format!(
            "safe-ad: created handle 5, name {NAME}, saved to the network\n"
        ));
    assert_eq!(
        request_lines(&server).await,
        ["POST /appendable-data", "PUT /appendable-data/5"]
    );
}

#[tokio::test]
async fn create_put_runs_the_save_only_after_a_create_that_worked() {
    let server = MockServer::start().await;
    answer(
        &server,
        "POST",
        "/appendable-data",
        403,
        r#"{"errorCode":400,"description":"Low level api access is not granted"}"#,
        1,
    )
    .await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["create", "--put", NAME])
        .run()
        .code(3)
        .stdout_is("")
        .stderr_has(&format!(
            "safe-ad: error: create {NAME}: the launcher answered 403"
        ))
        .stderr_has("LOW_LEVEL_API");
    assert_eq!(request_lines(&server).await, ["POST /appendable-data"]);
}

#[tokio::test]
async fn a_failed_save_after_create_names_the_save_and_still_gives_the_handle() {
    let server = created_but_refused_save().await;
    // The handle exists in the launcher: a script can retry the save with it.
    SafeAd::new()
        .launcher(&server.uri())
        .args(["create", "--put", NAME])
        .run()
        .code(4)
        .stdout_is("5\n")
        .stderr_has("not on the network yet")
        .stderr_has("safe-ad: error: put 5: the launcher answered 400 Bad Request: errorCode -23");
}

// ---- open -----------------------------------------------------------------------------------

#[tokio::test]
async fn open_asks_for_a_data_id_fetches_through_it_and_drops_it() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/data-id/appendable-data"))
        .and(body_json(json!({"name": NAME, "isPrivate": true})))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"handleId": 12})))
        .expect(1)
        .mount(&server)
        .await;
    answer(
        &server,
        "GET",
        "/appendable-data/handle/12",
        200,
        FETCHED,
        1,
    )
    .await;
    answer(&server, "DELETE", "/data-id/12", 200, "OK", 1).await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["open", "--private", NAME_HEX])
        .run()
        .success()
        .stdout_is("9\n")
        .stderr_is("safe-ad: opened handle 9: version 2, data 3, deleted 0\n");
    server.verify().await;
    assert_eq!(
        request_lines(&server).await,
        [
            "POST /data-id/appendable-data",
            "GET /appendable-data/handle/12",
            "DELETE /data-id/12"
        ]
    );
}

#[tokio::test]
async fn open_of_a_name_not_on_the_network_still_drops_the_data_id() {
    let server = MockServer::start().await;
    open_chain(&server, 404, NO_SUCH_DATA).await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["open", NAME])
        .run()
        .code(4)
        .stdout_is("")
        .stderr_has(&format!(
            "safe-ad: error: open {NAME}: the launcher answered 404 Not Found: errorCode -18"
        ))
        .stderr_has("hint: no appendable data of this name is on the network")
        // The hint names the name it was given, ready to paste.
        .stderr_has(&format!("`safe-ad create {NAME} --put`"));
    server.verify().await;
}

#[tokio::test]
async fn open_that_gets_no_data_id_sends_nothing_more() {
    let server = MockServer::start().await;
    answer(
        &server,
        "POST",
        "/data-id/appendable-data",
        401,
        "Unauthorized",
        1,
    )
    .await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["open", NAME])
        .run()
        .code(3)
        .stdout_is("")
        .stderr_has(&format!(
            "safe-ad: error: open {NAME}: the launcher answered 401"
        ))
        .stderr_has("safe-ad auth login");
    assert_eq!(
        request_lines(&server).await,
        ["POST /data-id/appendable-data"]
    );
}

// ---- reopen and drop ----------------------------------------------------------------------------

#[tokio::test]
async fn reopen_goes_through_the_handles_data_id_and_drop_frees_the_old_handle() {
    let server = MockServer::start().await;
    answer(
        &server,
        "GET",
        "/appendable-data/data-id/2",
        200,
        r#"{"handleId":12}"#,
        1,
    )
    .await;
    answer(
        &server,
        "GET",
        "/appendable-data/handle/12",
        200,
        FETCHED,
        1,
    )
    .await;
    answer(&server, "DELETE", "/data-id/12", 200, "OK", 1).await;
    answer(&server, "DELETE", "/appendable-data/handle/2", 200, "OK", 1).await;
    serialised_answer(
        &server,
        9,
        200,
        appendable_bytes([5; 32], 2, false, [6; 32]),
    )
    .await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["reopen", "--drop", "2"])
        .run()
        .success()
        .stdout_is("9\n")
        .stderr_is(&format!(
            "safe-ad: reopened handle 2 as 9: version 2, data 3, deleted 0; name {}, public, owner {}; dropped handle 2\n",
            b64(&[5; 32]),
            key_fingerprint([6; 32])
        ));
    server.verify().await;
    assert_eq!(
        request_lines(&server).await,
        [
            "GET /appendable-data/data-id/2",
            "GET /appendable-data/handle/12",
            "DELETE /data-id/12",
            "GET /appendable-data/serialise/9",
            "DELETE /appendable-data/handle/2"
        ]
    );
}

/// The launcher's answer to `GET /appendable-data/serialise/<handle>`, expected once.
async fn serialised_answer(server: &MockServer, handle: u64, status: u16, body: Vec<u8>) {
    Mock::given(method("GET"))
        .and(path(format!("/appendable-data/serialise/{handle}")))
        .respond_with(ResponseTemplate::new(status).set_body_raw(body, "application/octet-stream"))
        .expect(1)
        .mount(server)
        .await;
}

/// A key's fingerprint as `show` writes signers: SHA-256 of its serialised bytes (a u64 length
/// of 32, then the key), cut to 16 hex digits.
fn key_fingerprint(key: [u8; 32]) -> String {
    let mut serialised = 32u64.to_le_bytes().to_vec();
    serialised.extend(key);
    let digest = ring::digest::digest(&ring::digest::SHA256, &serialised);
    digest.as_ref()[..8]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

#[tokio::test]
async fn reopen_names_private_data_and_json_has_its_name_on_the_serialise_step() {
    let server = MockServer::start().await;
    answer(
        &server,
        "GET",
        "/appendable-data/data-id/2",
        200,
        r#"{"handleId":12}"#,
        1,
    )
    .await;
    answer(
        &server,
        "GET",
        "/appendable-data/handle/12",
        200,
        FETCHED,
        1,
    )
    .await;
    answer(&server, "DELETE", "/data-id/12", 200, "OK", 1).await;
    serialised_answer(&server, 9, 200, appendable_bytes([7; 32], 2, true, [6; 32])).await;
    let output = SafeAd::new()
        .launcher(&server.uri())
        .args(["--json", "reopen", "2"])
        .run();
    let lines = output.success().json_lines();
    assert_eq!(lines.len(), 1, "one result: {lines:?}");
    let reopened = &lines[0];
    assert_eq!(reopened["handle"], 9);
    assert_eq!(reopened["reopened_from"], 2);
    assert_eq!(reopened["name"], b64(&[7; 32]));
    assert_eq!(reopened["private"], true);
    assert_eq!(reopened["owners"], json!([key_fingerprint([6; 32])]));
    output.stderr_has(&format!("name {}, private, owner ", b64(&[7; 32])));
}

/// The name is what a reopen says of the data, not what it was asked for: a launcher that
/// refuses the read of the new handle's bytes gets a warning, and the reopen (with its drop of
/// the old handle) stands, exit 0, as before the name was read.
#[tokio::test]
async fn reopen_whose_name_cannot_be_read_still_succeeds_and_drops_the_old_handle() {
    let server = MockServer::start().await;
    answer(
        &server,
        "GET",
        "/appendable-data/data-id/2",
        200,
        r#"{"handleId":12}"#,
        1,
    )
    .await;
    answer(
        &server,
        "GET",
        "/appendable-data/handle/12",
        200,
        FETCHED,
        1,
    )
    .await;
    answer(&server, "DELETE", "/data-id/12", 200, "OK", 1).await;
    answer(&server, "DELETE", "/appendable-data/handle/2", 200, "OK", 1).await;
    let refused = br#"{"errorCode":400,"description":"Low level api access is not granted"}"#;
    serialised_answer(&server, 9, 403, refused.to_vec()).await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["reopen", "--drop", "2"])
        .run()
        .success()
        .stdout_is("9\n")
        .stderr_has(
            "safe-ad: reopened handle 2 as 9: version 2, data 3, deleted 0; dropped handle 2\n",
        )
        .stderr_has("warning: serialise 9: the data's name could not be read");
    server.verify().await;
}

#[tokio::test]
async fn reopen_without_drop_keeps_the_old_handle_and_prints_new_ones_in_input_order() {
    let server = MockServer::start().await;
    for (old, data_id, new) in [(2, 12, 20), (3, 13, 21)] {
        let fetched = FETCHED.replace("\"handleId\":9", &format!("\"handleId\":{new}"));
        answer(
            &server,
            "GET",
            &format!("/appendable-data/data-id/{old}"),
            200,
            &format!(r#"{{"handleId":{data_id}}}"#),
            1,
        )
        .await;
        answer(
            &server,
            "GET",
            &format!("/appendable-data/handle/{data_id}"),
            200,
            &fetched,
            1,
        )
        .await;
        answer(
            &server,
            "DELETE",
            &format!("/data-id/{data_id}"),
            200,
            "OK",
            1,
        )
        .await;
    }
    SafeAd::new()
        .launcher(&server.uri())
        .args(["reopen", "-"])
        .stdin("2\n3\n")
        .run()
        .success()
        .stdout_is("20\n21\n")
        .stderr_has("reopened handle 2 as 20")
        .stderr_has("reopened handle 3 as 21")
        .stderr_has("2 handles: 2 ok, 0 failed");
    server.verify().await;
    let lines = request_lines(&server).await;
    assert!(
        !lines
            .iter()
            .any(|line| line.contains("/appendable-data/handle/2")
                || line.contains("/appendable-data/handle/3")),
        "an old handle was dropped without --drop: {lines:?}"
    );
}

#[tokio::test]
async fn drop_frees_each_handle_like_the_other_batch_operations() {
    let server = MockServer::start().await;
    answer(&server, "DELETE", "/appendable-data/handle/5", 200, "OK", 1).await;
    answer(
        &server,
        "DELETE",
        "/appendable-data/handle/6",
        400,
        r#"{"errorCode":-1515,"description":"FfiError::InvalidAppendableDataHandle"}"#,
        1,
    )
    .await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["drop", "5", "6"])
        .run()
        .code(4)
        .stdout_is("drop 5: ok\n")
        .stderr_has(
            "safe-ad: error: drop 6: the launcher answered 400 Bad Request: errorCode -1515",
        )
        .stderr_has("2 handles: 1 ok, 1 failed");
    server.verify().await;
}

// ---- --json, --dry-run, --curl --------------------------------------------------------------------

#[tokio::test]
async fn json_is_one_result_with_its_requests_under_verbose() {
    let server = MockServer::start().await;
    open_chain(&server, 200, FETCHED).await;
    let output = SafeAd::new()
        .launcher(&server.uri())
        .args(["--json", "open", NAME])
        .run();
    assert_eq!(
        output.success().json_lines(),
        [
            json!({"command": "open", "input": NAME, "handle": 9, "name": NAME, "ok": true,
                "isOwner": true, "version": 2, "filterType": "BlackList", "dataLength": 3,
                "deletedDataLength": 0})
        ]
    );
    // A launcher of its own: each mock of the chain takes one request.
    let server = MockServer::start().await;
    open_chain(&server, 200, FETCHED).await;
    let output = SafeAd::new()
        .launcher(&server.uri())
        .args(["--json", "--verbose", "open", NAME])
        .run();
    let lines = output.success().json_requests();
    let url = server.uri();
    let strip = |mut line: Value| {
        let elapsed = line
            .as_object_mut()
            .and_then(|object| object.remove("elapsed_ms"));
        assert!(elapsed.is_some_and(|e| e.is_number()), "{line}");
        line
    };
    let lines: Vec<Value> = lines.into_iter().map(strip).collect();
    assert_eq!(
        lines,
        [
            json!({"handle": null, "operation": "data-id", "method": "POST",
                   "url": format!("{url}/data-id/appendable-data"), "status": 200, "ok": true,
                   "name": NAME, "data_id_handle": 12}),
            json!({"handle": 9, "operation": "fetch", "method": "GET",
                   "url": format!("{url}/appendable-data/handle/12"), "status": 200, "ok": true,
                   "data_id_handle": 12,
                   "metadata": {"isOwner": true, "version": 2, "filterType": "BlackList",
                                "dataLength": 3, "deletedDataLength": 0}}),
            json!({"handle": null, "operation": "drop-data-id", "method": "DELETE",
                   "url": format!("{url}/data-id/12"), "status": 200, "ok": true,
                   "data_id_handle": 12}),
        ]
    );
}

#[tokio::test]
async fn json_of_a_failed_save_after_create_has_the_error_keys() {
    let server = created_but_refused_save().await;
    let output = SafeAd::new()
        .launcher(&server.uri())
        .args(["create", "--put", "--json", NAME])
        .run();
    let lines = output.code(4).json_lines();
    assert_eq!(lines.len(), 1, "one result: {lines:?}");
    assert_eq!(lines[0]["command"], "create");
    assert_eq!(lines[0]["handle"], 5);
    assert_eq!(lines[0]["name"], NAME);
    assert_eq!(lines[0]["ok"], false);
    assert_eq!(lines[0]["error"]["error_code"], -23);
    assert_eq!(lines[0]["exit_code"], 4);
}

#[tokio::test]
async fn dry_run_and_curl_describe_every_step_and_send_nothing() {
    let server = MockServer::start().await;
    let url = server.uri();
    let body = format!(r#"{{"name":"{NAME}","isPrivate":false}}"#);
    SafeAd::new()
        .launcher(&url)
        .args(["--dry-run", "open", NAME])
        .run()
        .success()
        .stdout_has(&format!("POST {url}/data-id/appendable-data\n"))
        .stdout_has(&format!("  body: {body}\n"))
        .stdout_has(&format!(
            "GET {url}/appendable-data/handle/{{dataIdHandle}}\n"
        ))
        .stdout_has(&format!("DELETE {url}/data-id/{{dataIdHandle}}\n"));
    SafeAd::new()
        .launcher(&url)
        .args(["--curl", "create", "--put", NAME])
        .run()
        .success()
        .stdout_is(&format!(
            "answer=$(curl -sS --fail-with-body -X POST -H \"Authorization: Bearer $SAFE_LAUNCHER_TOKEN\" -H 'Content-Type: application/json' -d '{body}' '{url}/appendable-data'); printf '%s\\n' \"$answer\"; HANDLE_ID=$(printf '%s' \"$answer\" | sed -n 's/.*\"handleId\": *\\([0-9][0-9]*\\).*/\\1/p')\n\
             curl -sS --fail-with-body -X PUT -H \"Authorization: Bearer $SAFE_LAUNCHER_TOKEN\" \"{url}/appendable-data/${{HANDLE_ID:?the line before gave no handleId}}\"\n"
        ));
    SafeAd::new()
        .launcher(&url)
        .args(["--dry-run", "reopen", "--drop", "7"])
        .run()
        .success()
        .stdout_has(&format!("GET {url}/appendable-data/data-id/7\n"))
        .stdout_has(&format!("DELETE {url}/appendable-data/handle/7\n"));
    assert_eq!(request_lines(&server).await, Vec::<String>::new());
}

#[tokio::test]
async fn curl_fetches_a_stored_token_with_auth_token_and_never_prints_it() {
    let server = MockServer::start().await;
    let sandbox = Sandbox::new();
    sandbox.write_config(&format!(r#"{{"token": "{TOKEN}"}}"#));
    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["--curl", "put", "7"])
        .run()
        .success()
        .stdout_is(&format!(
            "curl -sS --fail-with-body -X PUT -H \"Authorization: Bearer $(safe-ad auth token)\" '{0}/appendable-data/7' &&\n\
             curl -sS --fail-with-body -X GET -H \"Authorization: Bearer $(safe-ad auth token)\" '{0}/appendable-data/metadata/7'\n",
            server.uri()
        ));
    let token_file = sandbox.file("token.txt", TOKEN);
    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .arg("--token-file")
        .arg(&token_file)
        .args(["--curl", "drop", "7"])
        .run()
        .success()
        .stdout_has(&format!(
            "Bearer $(safe-ad --token-file '{}' auth token)",
            token_file.display()
        ));
}

/// Against the emulator: the name `create --put` says is the one `reopen` says, public or
/// private, with one request more than before (the new handle's bytes).
#[cfg(feature = "emulator")]
#[test]
fn reopen_names_the_data_create_made() {
    let emulator = crate::harness::emulator::Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let run = |args: &[&str]| sandbox.safe_ad().launcher(&emulator.url).args(args).run();
    for (private, word) in [(false, "public"), (true, "private")] {
        let mut args = vec!["create", "--put"];
        if private {
            args.push("--private");
        }
        let created = run(&args);
        let handle = created.success().stdout().trim().to_owned();
        let name = created
            .stderr()
            .split_once(", name ")
            .and_then(|(_, rest)| rest.split_once(','))
            .map(|(name, _)| name.to_owned())
            .expect("create says the name on stderr");
        let before = emulator.requests().len();
        let reopened = run(&["reopen", "--drop", &handle]);
        let fresh = reopened.success().stdout().trim().to_owned();
        reopened.stderr_has(&format!(
            "reopened handle {handle} as {fresh}: version 0, data 0, deleted 0; name {name}, {word}, owner "
        ));
        let sent: Vec<String> = emulator.requests()[before..]
            .iter()
            .map(|line| {
                line.rsplit_once(' ')
                    .map_or(line.as_str(), |(request, _)| request)
                    .to_owned()
            })
            .collect();
        assert_eq!(sent.len(), 5, "{sent:?}");
        assert_eq!(sent[3], format!("GET /appendable-data/serialise/{fresh}"));
        run(&["drop", &fresh]).success();
    }
}
