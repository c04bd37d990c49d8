//! Scenario tests: the real `safe-ad` binary against the real `safe-ad emulator` binary over
//! loopback, one emulator per test on its own port.
//!
//! They walk the spec's state table (a clear changes the launcher's local copy; the network sees
//! it only after a save), the launcher's refusals with their exit codes and hints, the auth
//! failures, the hanging clear, `auth login`, the `-- COMMAND` mode with README's quick start,
//! and a base URL with a path prefix.

use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::harness::emulator::*;
use crate::harness::*;
use predicates::prelude::*;

const BIN: &str = env!("CARGO_BIN_EXE_safe-ad");

// ---- harness ----------------------------------------------------------------------------------

/// `safe-ad metadata <handle>` against the emulator; returns its one stdout line.
fn metadata(sandbox: &Sandbox, emulator: &Emulator, handle: u64) -> String {
    let output = sandbox
        .cmd_at(&emulator.url)
        .args(["metadata", &handle.to_string()])
        .output()
        .expect("run safe-ad metadata");
    assert_eq!(
        output.status.code(),
        Some(0),
        "metadata {handle}: {}",
        output_text(&output)
    );
    let stdout = String::from_utf8(output.stdout).expect("utf-8");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    stdout.trim_end().to_owned()
}

/// Asserts that `safe-ad metadata <handle>` shows these counts.
fn assert_counts(
    sandbox: &Sandbox,
    emulator: &Emulator,
    handle: u64,
    version: u64,
    data: u64,
    deleted: u64,
) {
    let line = metadata(sandbox, emulator, handle);
    let expected = format!("{handle}: version {version}, data {data}, deleted {deleted}, ");
    assert!(
        line.starts_with(&expected),
        "expected {expected:?}, got {line:?}"
    );
}

/// Runs `safe-ad <args>` against the emulator and expects success with exactly this stdout.
fn ok(sandbox: &Sandbox, emulator: &Emulator, args: &[&str], stdout: &str) {
    sandbox
        .cmd_at(&emulator.url)
        .args(args)
        .assert()
        .code(0)
        .stdout(stdout.to_owned());
}

/// Asserts that the network still holds demo handle 1 as the emulator starts it (version 1,
/// data 3, deleted 2), then runs `safe-ad post 1` and asserts that the network now holds
/// `(version, data, deleted)`. Each is read through a fresh handle.
fn saved_only_by_post(sandbox: &Sandbox, emulator: &Emulator, after: (u64, u64, u64)) {
    let before_save = emulator.fresh_handle(1);
    assert_counts(sandbox, emulator, before_save, 1, 3, 2);
    ok(sandbox, emulator, &["post", "1"], "post 1: ok\n");
    let after_save = emulator.fresh_handle(1);
    let (version, data, deleted) = after;
    assert_counts(sandbox, emulator, after_save, version, data, deleted);
}

// ---- the state table: clears are local until a save -------------------------------------------

#[test]
fn clear_data_moves_items_to_deleted_data_and_reaches_the_network_only_after_post() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    assert_counts(&sandbox, &emulator, 1, 1, 3, 2);

    sandbox
        .cmd_at(&emulator.url)
        .args(["clear-data", "1"])
        .assert()
        .code(0)
        .stdout("clear-data 1: ok\n")
        .stderr(predicate::str::contains("safe-ad post 1"));
    // The local copy: the 3 data items moved to deleted_data (2 + 3).
    assert_counts(&sandbox, &emulator, 1, 1, 0, 5);
    // The network: unchanged until a save.
    saved_only_by_post(&sandbox, &emulator, (2, 0, 5));
}

#[test]
fn clear_deleted_data_empties_deleted_data_and_reaches_the_network_only_after_post() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    sandbox
        .cmd_at(&emulator.url)
        .args(["clear-deleted-data", "1"])
        .assert()
        .code(0)
        .stdout("clear-deleted-data 1: ok\n")
        .stderr(predicate::str::contains("safe-ad post 1"));
    assert_counts(&sandbox, &emulator, 1, 1, 3, 0);
    saved_only_by_post(&sandbox, &emulator, (2, 3, 0));
}

#[test]
fn both_clears_then_post_keep_the_data_items_and_empty_deleted_data_on_the_network() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    ok(
        &sandbox,
        &emulator,
        &["clear-data", "1"],
        "clear-data 1: ok\n",
    );
    ok(
        &sandbox,
        &emulator,
        &["clear-deleted-data", "1"],
        "clear-deleted-data 1: ok\n",
    );
    assert_counts(&sandbox, &emulator, 1, 1, 0, 0);
    // launcher-facts: a POST sends an empty data list and the local deleted_data (now empty);
    // the network keeps its items minus those listed as deleted, so the data items stay.
    saved_only_by_post(&sandbox, &emulator, (2, 3, 0));
}

#[test]
fn a_clear_before_the_first_put_is_saved_by_the_put() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    // Not on the network yet: fetching it through its data id is NoSuchData.
    let body = format!(r#"{{"name":"{}"}}"#, emulator.demo_name(0));
    let id = emulator.http("POST", "/data-id/appendable-data", Some(TOKEN), Some(&body));
    assert_eq!(id.status, 200, "{}", id.body);
    let data_id = id.json()["handleId"].as_u64().expect("data id");
    let missing = emulator.http(
        "GET",
        &format!("/appendable-data/handle/{data_id}"),
        Some(TOKEN),
        None,
    );
    assert_eq!(missing.status, 404, "{}", missing.body);

    assert_counts(&sandbox, &emulator, 0, 0, 3, 0);
    ok(
        &sandbox,
        &emulator,
        &["clear-data", "0"],
        "clear-data 0: ok\n",
    );
    assert_counts(&sandbox, &emulator, 0, 0, 0, 3);
    ok(&sandbox, &emulator, &["put", "0"], "put 0: ok\n");
    let saved = emulator.fresh_handle(0);
    let line = metadata(&sandbox, &emulator, saved);
    assert!(line.contains(", data 0, deleted 3, "), "{line}");
}

// ---- the launcher's refusals ------------------------------------------------------------------

#[test]
fn put_twice_is_exit_4_with_a_hint_to_post() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    ok(&sandbox, &emulator, &["put", "0"], "put 0: ok\n");
    sandbox
        .cmd_at(&emulator.url)
        .args(["put", "0"])
        .assert()
        .code(4)
        .stdout("")
        .stderr(predicate::str::contains("safe-ad: error: put 0:"))
        .stderr(predicate::str::contains("errorCode -23"))
        .stderr(predicate::str::contains("hint:").and(predicate::str::contains("`safe-ad post`")));
    // The data on the network is the one the first PUT saved, so POST now works.
    ok(&sandbox, &emulator, &["post", "0"], "post 0: ok\n");
}

#[test]
fn post_before_put_is_exit_4_with_a_hint_to_put() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    sandbox
        .cmd_at(&emulator.url)
        .args(["post", "0"])
        .assert()
        .code(4)
        .stdout("")
        .stderr(predicate::str::contains("404"))
        .stderr(predicate::str::contains("errorCode -22"))
        .stderr(predicate::str::contains("hint:").and(predicate::str::contains("`safe-ad put`")));
    ok(&sandbox, &emulator, &["put", "0"], "put 0: ok\n");
}

#[test]
fn unknown_handle_is_exit_4_with_the_1515_hint_for_every_operation() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    for operation in [
        "put",
        "post",
        "clear-data",
        "clear-deleted-data",
        "metadata",
    ] {
        sandbox
            .cmd_at(&emulator.url)
            .args([operation, "999"])
            .assert()
            .code(4)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "safe-ad: error: {operation} 999:"
            )))
            .stderr(predicate::str::contains("errorCode -1515"))
            .stderr(predicate::str::contains(
                "hint: the launcher has no such handle",
            ));
    }
}

#[test]
fn stale_version_is_exit_4_with_the_25_hint_and_a_fresh_handle_posts() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    sandbox
        .cmd_at(&emulator.url)
        .args(["post", "2"])
        .assert()
        .code(4)
        .stderr(predicate::str::contains("errorCode -25"))
        .stderr(predicate::str::contains(
            "hint: someone saved this data since the handle was fetched",
        ));
    let fresh = emulator.fresh_handle(2);
    assert_counts(&sandbox, &emulator, fresh, 2, 3, 0);
    let fresh = fresh.to_string();
    ok(
        &sandbox,
        &emulator,
        &["post", &fresh],
        &format!("post {fresh}: ok\n"),
    );
}

// ---- auth failures ----------------------------------------------------------------------------

#[test]
fn a_revoked_token_is_401_exit_3() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    ok(
        &sandbox,
        &emulator,
        &["clear-data", "1"],
        "clear-data 1: ok\n",
    );
    let revoked = emulator.http("DELETE", "/auth", Some(TOKEN), None);
    assert_eq!(revoked.status, 200, "{}", revoked.body);
    let output = sandbox
        .cmd_at(&emulator.url)
        .args(["put", "0"])
        .output()
        .expect("run");
    let text = output_text(&output);
    assert_eq!(output.status.code(), Some(3), "{text}");
    assert!(output.stdout.is_empty(), "{text}");
    assert!(text.contains("safe-ad: error: put 0:"), "{text}");
    assert!(text.contains("401"), "{text}");
    assert!(
        text.contains("hint: the launcher rejected the token"),
        "{text}"
    );
    assert_no_token(&text);
    sandbox
        .cmd_at(&emulator.url)
        .args(["auth", "status"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("not accepted")); // The request log names method, path and status, never the token.
    assert_no_token(&emulator.wait_log("GET /auth 401"));
}

#[test]
fn a_token_without_low_level_api_is_403_exit_3() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let drive_only = emulator.token_with(r#"["SAFE_DRIVE_ACCESS"]"#);
    for (operation, handle) in [("put", "0"), ("clear-data", "1"), ("post", "1")] {
        let output = sandbox
            .cmd()
            .env("SAFE_LAUNCHER_URL", &emulator.url)
            .env("SAFE_LAUNCHER_TOKEN", &drive_only)
            .args([operation, handle])
            .output()
            .expect("run");
        let text = output_text(&output);
        assert_eq!(output.status.code(), Some(3), "{operation}: {text}");
        assert!(text.contains("403"), "{text}");
        assert!(text.contains("LOW_LEVEL_API"), "{text}");
        assert!(!text.contains(&drive_only), "token leaked: {text}");
    }
    let log = emulator.wait_log("POST /appendable-data/1 403");
    assert!(
        !log.contains(&drive_only),
        "token in the emulator log:\n{log}"
    );
    // Nothing was changed by the refused requests.
    assert_counts(&sandbox, &emulator, 1, 1, 3, 2);
    ok(&sandbox, &emulator, &["put", "0"], "put 0: ok\n");
}

#[test]
fn a_hanging_clear_times_out_with_exit_6_and_the_unknown_handle_hint() {
    let emulator = Emulator::start(&["--hang-unknown-clears"]);
    let sandbox = Sandbox::new();
    for operation in ["clear-data", "clear-deleted-data"] {
        let started = Instant::now();
        let output = sandbox
            .cmd_at(&emulator.url)
            .args(["--timeout", "1", operation, "999"])
            .output()
            .expect("run");
        let elapsed = started.elapsed();
        let text = output_text(&output);
        assert_eq!(output.status.code(), Some(6), "{operation}: {text}");
        assert!(
            elapsed >= Duration::from_millis(900) && elapsed < Duration::from_secs(5),
            "{operation} took {elapsed:?}"
        );
        assert!(text.contains("did not answer within 1 s"), "{text}");
        assert!(
            text.contains("hint: the launcher never answers a clear for an unknown handle"),
            "{text}"
        );
    }
    // The hung requests hold only their own connections.
    assert_counts(&sandbox, &emulator, 1, 1, 3, 2);
}

// ---- auth login -------------------------------------------------------------------------------

#[test]
fn auth_login_stores_a_token_that_status_and_put_then_use() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let login = sandbox
        .cmd()
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .args(["auth", "login"])
        .output()
        .expect("run");
    let login_text = output_text(&login);
    assert_eq!(login.status.code(), Some(0), "{login_text}");
    assert!(login_text.contains("logged in"), "{login_text}");

    let config_path = sandbox.config_dir().join("config.json");
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&config_path).expect("config written"))
            .expect("config is JSON");
    let stored = config["token"].as_str().expect("token stored").to_owned();
    assert_ne!(
        stored, TOKEN,
        "login must store the token the launcher issued"
    );
    assert!(!login_text.contains(&stored), "token printed: {login_text}");
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&config_path)
            .expect("stat")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    let status = sandbox
        .cmd()
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .args(["auth", "status"])
        .output()
        .expect("run");
    let status_text = output_text(&status);
    assert_eq!(status.status.code(), Some(0), "{status_text}");
    assert!(
        status_text.contains("accepted by the launcher"),
        "{status_text}"
    );
    assert!(
        !status_text.contains(&stored),
        "token printed: {status_text}"
    );

    sandbox
        .cmd()
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .args(["put", "0"])
        .assert()
        .code(0)
        .stdout("put 0: ok\n");
    let log = emulator.wait_log("PUT /appendable-data/0 200");
    assert!(!log.contains(&stored), "token in the emulator log:\n{log}");
}

#[test]
fn auth_login_denied_is_exit_3_and_stores_nothing() {
    let emulator = Emulator::start(&["--deny-auth"]);
    let sandbox = Sandbox::new();
    sandbox
        .cmd()
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .args(["auth", "login"])
        .assert()
        .code(3)
        .stdout("")
        .stderr(predicate::str::contains("denied"));
    let config_path = sandbox.config_dir().join("config.json");
    if let Ok(text) = std::fs::read_to_string(&config_path) {
        let config: serde_json::Value = serde_json::from_str(&text).expect("config is JSON");
        assert!(config.get("token").is_none(), "token stored: {text}");
    }
    sandbox
        .cmd()
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .args(["put", "0"])
        .assert()
        .code(3);
}

// ---- `safe-ad emulator -- COMMAND` and README's quick start -----------------------------------

/// README's quick start: the line of the first ```sh block after "## Quick start" that runs
/// `safe-ad emulator`, and the first plain ``` block after it (the output README says a user
/// sees on stdout).
fn readme_quick_start() -> (String, String) {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let section = readme
        .split("## Quick start")
        .nth(1)
        .expect("README has a Quick start section");
    let (_, after_sh) = section
        .split_once("```sh\n")
        .expect("a ```sh block in the Quick start section");
    let (block, after_block) = after_sh.split_once("```").expect("the ```sh block ends");
    let line = block
        .lines()
        .find(|line| line.trim_start().starts_with("safe-ad emulator"))
        .expect("the quick start block runs `safe-ad emulator`")
        .trim()
        .to_owned();
    let shown = after_block
        .split_once("```\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .map(|(shown, _)| shown.to_owned())
        .expect("README shows the quick start's output in a ``` block after it");
    (line, shown)
}

/// A shell with only this build's `safe-ad` and the system directories on PATH.
fn shell(sandbox: &Sandbox, script: &str) -> std::process::Output {
    let bin_dir = std::path::Path::new(BIN).parent().expect("bin dir");
    let child = Command::new("/bin/sh")
        .env_clear()
        .env("PATH", format!("{}:/usr/bin:/bin", bin_dir.display()))
        .env("HOME", sandbox.dir.path())
        .env("SAFE_AD_CONFIG_DIR", sandbox.config_dir())
        .args(["-c", script])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh");
    let pid = child.id();
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done_tx.send(child.wait_with_output());
    });
    match done_rx.recv_timeout(Duration::from_secs(20)) {
        Ok(output) => output.expect("wait"),
        Err(_) => {
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("`{script}` did not finish in 20 s");
        }
    }
}

/// Issue 3: README's one quick-start line runs put / clear-data / post / metadata on the demo
/// handles on a fresh machine, and prints what README says it prints.
#[test]
fn readme_quick_start_line_runs_on_a_fresh_machine_with_the_output_readme_shows() {
    let (line, shown) = readme_quick_start();
    assert!(line.starts_with("safe-ad emulator -- "), "{line}");
    for operation in ["put", "clear-data", "post", "metadata"] {
        assert!(
            line.contains(&format!("safe-ad {operation} "))
                || (operation == "post" && line.contains("--save post")),
            "README's quick start line does not run `{operation}`: {line}"
        );
    }
    let sandbox = Sandbox::new();
    let output = shell(&sandbox, &line);
    assert_eq!(
        output.status.code(),
        Some(0),
        "`{line}`:\n{}",
        output_text(&output)
    );
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(stdout.contains(": ok\n"), "{stdout}");
    assert!(stdout.contains(": version "), "{stdout}");
    assert_eq!(
        stdout, shown,
        "README's quick start shows other output than the line prints"
    );
}

#[test]
fn emulator_command_mode_exits_with_the_command_code() {
    let sandbox = Sandbox::new();
    let seven = shell(&sandbox, "safe-ad emulator -- sh -c 'exit 7'");
    assert_eq!(seven.status.code(), Some(7), "{}", output_text(&seven));
    // A failing safe-ad inside fails the run with its own code: -23 is exit 4.
    let failing = shell(&sandbox, "safe-ad emulator -- sh -c 'safe-ad put 1'");
    assert_eq!(failing.status.code(), Some(4), "{}", output_text(&failing));
    assert!(
        String::from_utf8_lossy(&failing.stderr).contains("errorCode -23"),
        "{}",
        output_text(&failing)
    );
    // The command sees both variables.
    let env = shell(
        &sandbox,
        "safe-ad emulator -- sh -c 'test -n \"$SAFE_LAUNCHER_TOKEN\" && echo \"$SAFE_LAUNCHER_URL\"'",
    );
    assert_eq!(env.status.code(), Some(0), "{}", output_text(&env));
    let stdout = String::from_utf8_lossy(&env.stdout);
    assert!(stdout.starts_with("http://127.0.0.1:"), "{stdout}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
}

// ---- base URL with a path prefix --------------------------------------------------------------

#[test]
fn a_url_with_a_version_prefix_works_against_the_emulator() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    for (prefix, handle) in [("/0.6", "0"), ("/0.5/", "1")] {
        let url = format!("{}{prefix}", emulator.url);
        let operation = if handle == "0" { "put" } else { "clear-data" };
        sandbox
            .cmd_at(&url)
            .args([operation, handle])
            .assert()
            .code(0)
            .stdout(format!("{operation} {handle}: ok\n"));
        sandbox
            .cmd_at(&url)
            .args(["metadata", handle])
            .assert()
            .code(0)
            .stdout(predicate::str::starts_with(format!("{handle}: version ")));
    }
    let log = emulator.wait_log("GET /0.5/appendable-data/metadata/1 200");
    assert!(log.contains("PUT /0.6/appendable-data/0 200"), "{log}");
    assert!(
        log.contains("DELETE /0.5/appendable-data/clear-data/1 200"),
        "{log}"
    );
    assert_counts(&sandbox, &emulator, 1, 1, 0, 5);
}
