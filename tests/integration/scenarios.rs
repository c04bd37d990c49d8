//! Scenario tests: the real `safe-ad` binary against the real `safe-ad emulator` binary over
//! loopback, one emulator per test on its own port.
//!
//! They walk the spec's state table (a clear changes the launcher's local copy; the network sees
//! it only after a save), the launcher's refusals with their exit codes and hints, the auth
//! failures, the hanging clear, `auth login`, the `-- COMMAND` mode with README's quick start,
//! a base URL with a path prefix, and where handles come from: `create`, `open`, `reopen` and
//! `drop` through a whole life of an appendable data, with no data-id handle left behind.

use std::time::{Duration, Instant};

use crate::harness::emulator::*;
use crate::harness::*;

// ---- helpers ----------------------------------------------------------------------------------

/// `safe-ad metadata <handle>` against the emulator; returns its one stdout line.
fn metadata(sandbox: &Sandbox, emulator: &Emulator, handle: u64) -> String {
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["metadata", &handle.to_string()])
        .run();
    let stdout = output.success().stdout();
    output.check(stdout.lines().count() == 1, "not one line on stdout");
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
        .safe_ad()
        .launcher(&emulator.url)
        .args(args)
        .run()
        .code(0)
        .stdout_is(stdout);
}

/// Asserts that the network still holds demo handle 1 as the emulator starts it (version 1,
/// data 3, deleted 2), then runs `safe-ad post 1` and asserts that the network now holds
/// `(version, data, deleted)`. Each is read through a fresh handle.
fn saved_only_by_post(sandbox: &Sandbox, emulator: &Emulator, after: (u64, u64, u64)) {
    let before_save = emulator.fresh_handle(1);
    assert_counts(sandbox, emulator, before_save, 1, 3, 2);
    ok(
        sandbox,
        emulator,
        &["post", "1"],
        "post 1: ok, saved version 2\n",
    );
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
        .safe_ad()
        .launcher(&emulator.url)
        .args(["clear-data", "1"])
        .run()
        .code(0)
        .stdout_is("clear-data 1: ok\n")
        .stderr_has("safe-ad post 1");
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
        .safe_ad()
        .launcher(&emulator.url)
        .args(["clear-deleted-data", "1"])
        .run()
        .code(0)
        .stdout_is("clear-deleted-data 1: ok\n")
        .stderr_has("safe-ad post 1");
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
    ok(
        &sandbox,
        &emulator,
        &["put", "0"],
        "put 0: ok, saved version 0\n",
    );
    let saved = emulator.fresh_handle(0);
    let line = metadata(&sandbox, &emulator, saved);
    assert!(line.contains(", data 0, deleted 3, "), "{line}");
}

// ---- the launcher's refusals ------------------------------------------------------------------

#[test]
fn put_twice_is_exit_4_with_a_hint_to_post() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    ok(
        &sandbox,
        &emulator,
        &["put", "0"],
        "put 0: ok, saved version 0\n",
    );
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["put", "0"])
        .run()
        .code(4)
        .stdout_is("")
        .stderr_has("safe-ad: error: put 0:")
        .stderr_has("errorCode -23")
        .stderr_has("hint:")
        .stderr_has("`safe-ad post 0`");
    // The data on the network is the one the first PUT saved, so POST now works.
    ok(
        &sandbox,
        &emulator,
        &["post", "0"],
        "post 0: ok, saved version 1\n",
    );
}

#[test]
fn post_before_put_is_exit_4_with_a_hint_to_put() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["post", "0"])
        .run()
        .code(4)
        .stdout_is("")
        .stderr_has("404")
        .stderr_has("errorCode -22")
        .stderr_has("hint:")
        .stderr_has("`safe-ad put 0`");
    ok(
        &sandbox,
        &emulator,
        &["put", "0"],
        "put 0: ok, saved version 0\n",
    );
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
            .safe_ad()
            .launcher(&emulator.url)
            .args([operation, "999"])
            .run()
            .code(4)
            .stdout_is("")
            .stderr_has(&format!("safe-ad: error: {operation} 999:"))
            .stderr_has("errorCode -1515")
            .stderr_has("hint: the launcher holds no appendable data under this handle");
    }
}

#[test]
fn stale_version_is_exit_4_with_the_25_hint_and_a_fresh_handle_posts() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["post", "2"])
        .run()
        .code(4)
        .stderr_has("errorCode -25")
        .stderr_has("hint: someone saved this data since the handle was fetched");
    let fresh = emulator.fresh_handle(2);
    assert_counts(&sandbox, &emulator, fresh, 2, 3, 0);
    let fresh = fresh.to_string();
    ok(
        &sandbox,
        &emulator,
        &["post", &fresh],
        &format!("post {fresh}: ok, saved version 3\n"),
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
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["put", "0"])
        .run()
        .code(3)
        .stdout_is("")
        .stderr_has("safe-ad: error: put 0:")
        .stderr_has("401")
        .stderr_has("hint: the launcher rejected the token");
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["auth", "status"])
        .run()
        .code(3)
        .stdout_has("not accepted");
    // The request log names method, path and status, never the token.
    assert_no_token(&emulator.wait_log("GET /auth 401"));
}

#[test]
fn a_token_without_low_level_api_is_403_exit_3() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let drive_only = emulator.token_with(r#"["SAFE_DRIVE_ACCESS"]"#);
    for (operation, handle) in [("put", "0"), ("clear-data", "1"), ("post", "1")] {
        let output = sandbox
            .safe_ad()
            .env("SAFE_LAUNCHER_URL", &emulator.url)
            .env("SAFE_LAUNCHER_TOKEN", &drive_only)
            .args([operation, handle])
            .run();
        output.code(3).check(
            output.text().contains("403") && output.text().contains("LOW_LEVEL_API"),
            "no 403 naming LOW_LEVEL_API",
        );
        output.check(!output.text().contains(&drive_only), "token leaked");
    }
    let log = emulator.wait_log("POST /appendable-data/1 403");
    assert!(
        !log.contains(&drive_only),
        "token in the emulator log:\n{log}"
    );
    // Nothing was changed by the refused requests.
    assert_counts(&sandbox, &emulator, 1, 1, 3, 2);
    ok(
        &sandbox,
        &emulator,
        &["put", "0"],
        "put 0: ok, saved version 0\n",
    );
}

#[test]
fn a_hanging_clear_times_out_with_exit_6_and_the_unknown_handle_hint() {
    let emulator = Emulator::start(&["--hang-unknown-clears"]);
    let sandbox = Sandbox::new();
    for operation in ["clear-data", "clear-deleted-data"] {
        let started = Instant::now();
        let output = sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .args(["--timeout", "1", operation, "999"])
            .run();
        let elapsed = started.elapsed();
        // The emulator never answers: safe-ad ended by itself, and not before its 1 s.
        output.code(6).check(
            elapsed >= Duration::from_millis(900),
            format!("{operation} gave up after {elapsed:?}, before --timeout 1"),
        );
        let text = output.text();
        output
            .check(
                text.contains("did not answer within 1 s"),
                "no \"did not answer within 1 s\"",
            )
            .check(
                text.contains("hint: the launcher never answers a clear for an unknown handle"),
                "no hint about unknown handles",
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
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .args(["auth", "login"])
        .run();
    let login_text = login.text();
    login
        .success()
        .check(login_text.contains("logged in"), "not \"logged in\"");

    let config_path = sandbox.config_file();
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&config_path).expect("config written"))
            .expect("config is JSON");
    let stored = config["token"].as_str().expect("token stored").to_owned();
    assert_ne!(
        stored, TOKEN,
        "login must store the token the launcher issued"
    );
    login.check(!login_text.contains(&stored), "token printed");
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&config_path)
            .expect("stat")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    let status = sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .args(["auth", "status"])
        .run();
    let status_text = status.text();
    status
        .success()
        .check(
            status_text.contains("accepted by the launcher"),
            "not \"accepted by the launcher\"",
        )
        .check(!status_text.contains(&stored), "token printed");

    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .args(["put", "0"])
        .run()
        .code(0)
        .stdout_is("put 0: ok, saved version 0\n");
    let log = emulator.wait_log("PUT /appendable-data/0 200");
    assert!(!log.contains(&stored), "token in the emulator log:\n{log}");
}

#[test]
fn auth_login_denied_is_exit_3_and_stores_nothing() {
    let emulator = Emulator::start(&["--deny-auth"]);
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .args(["auth", "login"])
        .run()
        .code(3)
        .stdout_is("")
        .stderr_has("denied");
    let config_path = sandbox.config_file();
    if let Ok(text) = std::fs::read_to_string(&config_path) {
        let config: serde_json::Value = serde_json::from_str(&text).expect("config is JSON");
        assert!(config.get("token").is_none(), "token stored: {text}");
    }
    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .args(["put", "0"])
        .run()
        .code(3);
}

// ---- `safe-ad emulator -- COMMAND` and README's quick start -----------------------------------

/// README's quick start: the line of the first ```sh block after "## Quick start" that runs
/// `safe-ad emulator`, and the first plain ``` block after it (the output README says a user
/// sees on stdout).
fn readme_quick_start() -> (String, String) {
    let section = readme_section("Quick start");
    let (_, after_fence) = section
        .split_once("```sh")
        .expect("a ```sh block in the Quick start section");
    let (_, after_sh) = after_fence.split_once('\n').expect("the ```sh line ends");
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

/// README's one quick-start line clears, saves and reads a demo data by its name on a fresh
/// machine, and prints what README says it prints (the save among it).
#[test]
fn readme_quick_start_line_runs_on_a_fresh_machine_with_the_output_readme_shows() {
    let (line, shown) = readme_quick_start();
    assert!(line.starts_with("safe-ad emulator -- "), "{line}");
    // By the data's name: no handle to get, keep or save (issue 43).
    for operation in ["clear-data", "metadata"] {
        assert!(
            line.contains(&format!("safe-ad {operation} ")),
            "README's quick start line does not run `{operation}`: {line}"
        );
    }
    assert!(!line.contains("safe-ad open"), "{line}");
    let output = Sandbox::new().shell("sh", &line).run();
    output
        .success()
        .stdout_has(": ok\n")
        .stdout_has(": ok, saved version 2\n")
        .stdout_has(": version ")
        .check(
            output.stdout() == shown,
            format!("README's quick start shows other output than the line prints:\n{shown}"),
        );
}

#[test]
fn emulator_command_mode_exits_with_the_command_code() {
    let sandbox = Sandbox::new();
    sandbox
        .shell("sh", "safe-ad emulator -- sh -c 'exit 7'")
        .run()
        .code(7);
    // A failing safe-ad inside fails the run with its own code: -23 is exit 4.
    sandbox
        .shell("sh", "safe-ad emulator -- sh -c 'safe-ad put 1'")
        .run()
        .code(4)
        .stderr_has("errorCode -23");
    // The command sees both variables.
    let env = sandbox
        .shell(
            "sh",
            "safe-ad emulator -- sh -c 'test -n \"$SAFE_LAUNCHER_TOKEN\" && echo \"$SAFE_LAUNCHER_URL\"'",
        )
        .run();
    let stdout = env.success().stdout();
    env.check(
        stdout.starts_with("http://127.0.0.1:") && stdout.lines().count() == 1,
        "not one line with the emulator's URL",
    );
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
            .safe_ad()
            .launcher(&url)
            .args([operation, handle])
            .run()
            .code(0)
            .stdout_is(&if operation == "put" {
                format!("put {handle}: ok, saved version 0\n")
            } else {
                format!("{operation} {handle}: ok\n")
            });
        let metadata = sandbox
            .safe_ad()
            .launcher(&url)
            .args(["metadata", handle])
            .run();
        metadata.code(0).check(
            metadata
                .stdout()
                .starts_with(&format!("{handle}: version ")),
            "not a metadata line",
        );
    }
    let log = emulator.wait_log("GET /0.5/appendable-data/metadata/1 200");
    assert!(log.contains("PUT /0.6/appendable-data/0 200"), "{log}");
    assert!(
        log.contains("DELETE /0.5/appendable-data/clear-data/1 200"),
        "{log}"
    );
    assert_counts(&sandbox, &emulator, 1, 1, 0, 5);
}

// ---- where handles come from --------------------------------------------------------------------

/// A name no demo data has, in hex (the commands take either form).
const NEW_NAME: &str = "5afead00000000000000000000000000000000000000000000000000000000aa";

/// Runs safe-ad with `args` against the emulator, expecting success; returns its stdout's one
/// number: the handle `create`, `open` and `reopen` print alone.
fn new_handle(sandbox: &Sandbox, emulator: &Emulator, args: &[&str]) -> u64 {
    let output = sandbox.safe_ad().launcher(&emulator.url).args(args).run();
    let stdout = output.success().stdout();
    stdout
        .strip_suffix('\n')
        .and_then(|line| line.parse().ok())
        .unwrap_or_else(|| panic!("`{}` printed {stdout:?}, not one handle", args.join(" ")))
}

#[test]
fn a_created_appendable_data_lives_its_whole_life_through_safe_ad() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let created = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["create", NEW_NAME])
        .run();
    created.success().stdout_is("6\n").stderr_has(
        "created handle 6, name Wv6tAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAKo=, not on the network yet",
    );
    // Not on the network until the put: opening it by name finds nothing.
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["open", NEW_NAME])
        .run()
        .code(4)
        .stdout_is("")
        .stderr_has("errorCode -18")
        .stderr_has("`safe-ad create Wv6tAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAKo= --put`");
    ok(
        &sandbox,
        &emulator,
        &["put", "6"],
        "put 6: ok, saved version 0\n",
    );
    ok(
        &sandbox,
        &emulator,
        &["clear-data", "6"],
        "clear-data 6: ok\n",
    );
    ok(
        &sandbox,
        &emulator,
        &["post", "6"],
        "post 6: ok, saved version 1\n",
    );
    // A fresh handle through the name sees what the network holds: version 1 after the post.
    let opened = new_handle(&sandbox, &emulator, &["open", NEW_NAME]);
    assert_ne!(opened, 6);
    assert_counts(&sandbox, &emulator, opened, 1, 0, 0);
    ok(&sandbox, &emulator, &["drop", "6"], "drop 6: ok\n");
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["post", "6"])
        .run()
        .code(4)
        .stderr_has("errorCode -1515")
        .stderr_has("hint: the launcher holds no appendable data under this handle");
}

#[test]
fn open_by_name_then_clear_and_save_reaches_the_network() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let name = emulator.demo_name(1);
    let handle = new_handle(&sandbox, &emulator, &["open", &name]);
    assert_counts(&sandbox, &emulator, handle, 1, 3, 2);
    let handle_arg = handle.to_string();
    ok(
        &sandbox,
        &emulator,
        &["clear-data", "--save", "post", &handle_arg],
        &format!("clear-data {handle}: ok\npost {handle}: ok, saved version 2\n"),
    );
    let again = new_handle(&sandbox, &emulator, &["open", &name]);
    assert_counts(&sandbox, &emulator, again, 2, 0, 5);
}

#[test]
fn a_stale_handle_is_reopened_and_the_post_then_succeeds() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["post", "2"])
        .run()
        .code(4)
        .stderr_has("errorCode -25")
        .stderr_has("`safe-ad reopen 2`");
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["reopen", "--drop", "2"])
        .run();
    let fresh: u64 = output
        .success()
        .stdout()
        .trim_end()
        .parse()
        .expect("one handle");
    output
        .stderr_has(&format!(
            "reopened handle 2 as {fresh}: version 2, data 3, deleted 0; name {}, public, owner ",
            emulator.demo_name(2)
        ))
        .stderr_has("; dropped handle 2\n");
    let fresh_arg = fresh.to_string();
    ok(
        &sandbox,
        &emulator,
        &["post", &fresh_arg],
        &format!("post {fresh}: ok, saved version 3\n"),
    );
    // --drop dropped the stale one.
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["metadata", "2"])
        .run()
        .code(4)
        .stderr_has("errorCode -1515");
}

#[test]
fn private_data_is_opened_only_as_private_and_a_white_list_shows_in_its_metadata() {
    let emulator = Emulator::start(&["--empty"]);
    let sandbox = Sandbox::new();
    let handle = new_handle(
        &sandbox,
        &emulator,
        &["create", "--private", "--white-list", "--put", NEW_NAME],
    );
    assert!(
        metadata(&sandbox, &emulator, handle).ends_with("filter WhiteList (0 keys)"),
        "{}",
        metadata(&sandbox, &emulator, handle)
    );
    // A private name's data id is not the public one's.
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["open", NEW_NAME])
        .run()
        .code(4)
        .stderr_has("errorCode -18");
    new_handle(&sandbox, &emulator, &["open", "--private", NEW_NAME]);
}

/// `open` and `reopen`, failing or not, drop every data-id handle they asked for: the emulator's
/// `--log` ends with the live handle counts, and the data ids are the demo's two again.
#[test]
fn open_and_reopen_leave_no_data_id_handle_behind() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("requests.jsonl");
    let demo = "c2FmZS1hZCBkZW1vOiBzYXZlZC4uLi4uLi4uLi4uLi4=";
    let script = format!(
        "safe-ad emulator --log '{}' -- sh -c '\
         safe-ad open {demo} && \
         ! safe-ad open {NEW_NAME} && \
         safe-ad reopen 1 2 && \
         ! safe-ad reopen 999'",
        log.display()
    );
    sandbox.shell("sh", &script).run().success();
    let text = std::fs::read_to_string(&log).expect("the emulator wrote its log");
    let last: serde_json::Value =
        serde_json::from_str(text.lines().last().expect("a line")).expect("JSON");
    assert_eq!(last["event"], "stop", "{last}");
    assert_eq!(last["handles"]["data_id"], 2, "data ids left: {last}");
    // Every data id asked for was dropped: as many DELETE /data-id as data ids handed out.
    let records: Vec<serde_json::Value> = text
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    let asked = records
        .iter()
        .filter(|r| {
            r["status"] == 200
                && (r["path"] == "/data-id/appendable-data"
                    || r["path"]
                        .as_str()
                        .is_some_and(|p| p.starts_with("/appendable-data/data-id/")))
        })
        .count();
    let dropped = records
        .iter()
        .filter(|r| {
            r["method"] == "DELETE"
                && r["status"] == 200
                && r["path"]
                    .as_str()
                    .is_some_and(|p| p.starts_with("/data-id/"))
        })
        .count();
    assert_eq!((asked, dropped), (4, 4), "{text}");
}
