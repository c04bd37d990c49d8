//! The version a save saved: the launcher answers a save with no more than `OK`, so `post`,
//! `put` and every `--save` read the same handle's metadata after a save that succeeded, and
//! print the version it holds (after a POST the copy is the version just sent). A failure of
//! that read never turns the save into a failure: exit 0, a line saying the save happened, a
//! warning on stderr. `--dry-run` lists the read with the save.

use serde_json::Value;

use crate::harness::emulator::*;
use crate::harness::*;

/// `safe-ad <args>` against `url`.
fn run(sandbox: &Sandbox, url: &str, args: &[&str]) -> Output {
    sandbox.safe_ad().launcher(url).args(args).run()
}

/// The version the network holds for the data of demo handle `demo`, and the version the
/// launcher's copy in `handle` holds (its metadata).
fn versions(emulator: &Emulator, demo: u64, handle: u64) -> (u64, u64) {
    let (network, _, _) = emulator.network(demo);
    let metadata = emulator.http(
        "GET",
        &format!("/appendable-data/metadata/{handle}"),
        Some(TOKEN),
        None,
    );
    let copy: Value = serde_json::from_str(&metadata.body).expect("metadata JSON");
    (network, copy["version"].as_u64().expect("version"))
}

#[test]
fn post_prints_the_version_it_saved_as_the_network_and_the_copy_hold_it() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let (before, _) = versions(&emulator, 1, 1);
    let output = run(&sandbox, &emulator.url, &["post", "1"]);
    let (network, copy) = versions(&emulator, 1, 1);
    assert_eq!(network, before + 1, "the post did not reach the network");
    assert_eq!(copy, network);
    output
        .success()
        .stdout_is(&format!("post 1: ok, saved version {network}\n"))
        .stderr_has("holds no data items");
    // A second post of the same copy saves the version after it.
    let json = run(&sandbox, &emulator.url, &["--json", "post", "1"]);
    let (network, _) = versions(&emulator, 1, 1);
    let lines = json.success().json_lines();
    json.check(lines.len() == 1, "not one JSON record for one save");
    assert_eq!(lines[0]["command"], "post");
    assert_eq!(lines[0]["saved_version"], network);
    assert_eq!(lines[0]["version"], network);
}

#[test]
fn put_of_new_data_prints_version_0() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let created = run(&sandbox, &emulator.url, &["create"]);
    let handle = created.success().stdout().trim().to_string();
    run(&sandbox, &emulator.url, &["put", &handle])
        .success()
        .stdout_is(&format!("put {handle}: ok, saved version 0\n"));
}

#[test]
fn save_post_on_remove_and_on_a_clear_prints_the_version() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let (before, _) = versions(&emulator, 1, 1);
    let output = run(
        &sandbox,
        &emulator.url,
        &["remove", "--save", "post", "1", "0"],
    );
    let (network, _) = versions(&emulator, 1, 1);
    assert_eq!(network, before + 1);
    output.success().stdout_is(&format!(
        "remove 1 index 0: ok\npost 1: ok, saved version {network}\n"
    ));
    // A fresh handle for the same data: the clear and its save reach the network.
    let fresh = emulator.fresh_handle(1);
    let handle = fresh.to_string();
    let output = run(
        &sandbox,
        &emulator.url,
        &["clear-data", "--save", "post", &handle],
    );
    let (after, _) = versions(&emulator, 1, fresh);
    output
        .success()
        .check(after == network + 1, "the save did not reach the network");
    output.stdout_is(&format!(
        "clear-data {handle}: ok\npost {handle}: ok, saved version {after}\n"
    ));
}

#[test]
fn a_failed_read_after_the_save_keeps_exit_0_and_warns() {
    // Answers the save `OK`, and the metadata read after it with a 500.
    let failing = http_answer(
        "500 Internal Server Error",
        br#"{"errorCode":-1,"description":"no metadata today"}"#,
    );
    let launcher = RawLauncher::start(move |conn| {
        while let Some(line) = conn.request() {
            let answer = if line.starts_with("GET ") {
                failing
            } else {
                OK_ANSWER
            };
            if !conn.send(answer) {
                return;
            }
        }
    });
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&launcher.url)
        .args(["--retries", "0", "post", "7"])
        .run();
    output
        .success()
        .stdout_is("post 7: ok, saved; the version saved could not be read\n")
        .stderr_has("warning: post 7 was saved, but the read of its version")
        .stderr_has("safe-ad metadata 7");
    let requests = launcher.requests();
    assert_eq!(
        requests,
        [
            "POST /appendable-data/7 HTTP/1.1",
            "GET /appendable-data/metadata/7 HTTP/1.1"
        ]
    );
    let json = sandbox
        .safe_ad()
        .launcher(&launcher.url)
        .args(["--retries", "0", "--json", "put", "8"])
        .run();
    let lines = json.success().json_lines();
    assert_eq!(lines[0]["ok"], true);
    assert_eq!(lines[0]["saved_version"], Value::Null);
    json.check(
        lines[0]["saved_version_error"].is_string(),
        "no saved_version_error",
    );
}

#[test]
fn dry_run_lists_the_read_after_each_save_and_sends_nothing() {
    let launcher = RawLauncher::start(serve_ok);
    let sandbox = Sandbox::new();
    let url = &launcher.url;
    run(&sandbox, url, &["--dry-run", "post", "7"])
        .success()
        .stdout_has(&format!("POST {url}/appendable-data/7\n"))
        .stdout_has(&format!("GET {url}/appendable-data/metadata/7\n"));
    let save = run(
        &sandbox,
        url,
        &["--dry-run", "clear-data", "--save", "put", "7"],
    );
    let methods: Vec<&str> = save
        .success()
        .stdout()
        .lines()
        .filter(|line| !line.starts_with(' '))
        .collect();
    assert_eq!(
        methods,
        [
            format!("DELETE {url}/appendable-data/clear-data/7"),
            format!("PUT {url}/appendable-data/7"),
            format!("GET {url}/appendable-data/metadata/7"),
        ]
    );
    run(
        &sandbox,
        url,
        &["--dry-run", "remove", "--save", "post", "7", "0"],
    )
    .success()
    .stdout_has(&format!("GET {url}/appendable-data/metadata/7\n"));
    assert!(launcher.requests().is_empty(), "a dry run sent a request");
}

#[test]
fn a_batch_reads_each_saved_handle_once_after_its_save_and_quiet_prints_nothing() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let created: Vec<String> = (0..2)
        .map(|_| {
            let output = run(&sandbox, &emulator.url, &["create"]);
            output.success().stdout().trim().to_string()
        })
        .collect();
    let from = emulator.requests().len();
    run(
        &sandbox,
        &emulator.url,
        &["-q", "--jobs", "2", "put", &created[0], &created[1]],
    )
    .success()
    .stdout_is("")
    .stderr_is("");
    let sent = emulator.requests()[from..].to_vec();
    assert_eq!(sent.len(), 4, "{sent:?}");
    for handle in &created {
        let at = |wanted: String| sent.iter().position(|line| *line == wanted);
        let save = at(format!("PUT /appendable-data/{handle} 200")).expect("the save");
        let read = at(format!("GET /appendable-data/metadata/{handle} 200")).expect("the read");
        assert!(save < read, "{sent:?}");
    }
}
