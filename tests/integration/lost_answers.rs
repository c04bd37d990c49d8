//! Answers lost after the launcher acted, and the leases around them. A proxy in front of the
//! emulator ([`LosingProxy`]) passes a request on, lets the emulator act on it, and closes the
//! client's connection without its answer. For every family of routes: a request that may have
//! acted is never sent again (`--retries` resends only the reads that make nothing and the
//! clears), the error says the launcher may have acted and what to check, and what the
//! emulator holds afterwards (the handle's copy, the network, the live handles in its `--log`)
//! is what the exit code and the message say. Also: every lease whose taking or giving back went
//! wrong is named with the request that frees it (stderr and `--json`), and `reopen` holds at
//! most 8 data ids at once whatever `--jobs`.

use std::path::PathBuf;

use serde_json::Value;

use crate::harness::emulator::*;
use crate::harness::losing::LosingProxy;
use crate::harness::relay::Relay;
use crate::harness::*;

/// What the emulator holds of handle 1's local copy: (data, deleted).
fn local_counts(emulator: &Emulator, handle: u64) -> (u64, u64) {
    let metadata = emulator
        .http(
            "GET",
            &format!("/appendable-data/metadata/{handle}"),
            Some(TOKEN),
            None,
        )
        .json();
    (
        metadata["dataLength"].as_u64().expect("dataLength"),
        metadata["deletedDataLength"]
            .as_u64()
            .expect("deletedDataLength"),
    )
}

/// A demo emulator that logs its live handles to a file in `sandbox`, and the file.
fn logged(sandbox: &Sandbox) -> (Emulator, PathBuf) {
    let log = sandbox.path().join("requests.jsonl");
    let emulator = Emulator::start(&["--log", log.to_str().expect("path")]);
    (emulator, log)
}

/// `safe-ad --retries 2 <args>` through `proxy`.
fn through(sandbox: &Sandbox, proxy: &LosingProxy, args: &[&str]) -> Output {
    sandbox
        .safe_ad()
        .launcher(&proxy.url)
        .args(["--retries", "2"])
        .args(args)
        .run()
}

/// The words every lost answer to a request that is not safe twice carries.
fn may_have_acted(operation: &str) -> String {
    format!(
        "the launcher may have acted on the {operation} before its answer was lost, so it was not sent again"
    )
}

/// The number of a live-handle kind in the emulator's log record.
fn live(handles: &Value, kind: &str) -> i64 {
    // A count of the live handles names every kind; `most_held`'s only those that rose (and
    // `all`): a kind misspelt must not read as 0.
    assert!(
        handles.get(kind).is_some() || handles.get("all").is_some(),
        "no {kind} in {handles}"
    );
    handles[kind].as_i64().unwrap_or(0)
}

// ---- index changes, saves, appends, drops --------------------------------------------------

#[test]
fn a_purge_whose_answer_is_lost_is_not_sent_again_and_not_saved_after() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let proxy =
        LosingProxy::losing_first(emulator.addr(), "DELETE /appendable-data/deleted-data/1/0 ");
    let output = through(&sandbox, &proxy, &["purge", "--save", "post", "1", "0"]);
    output
        .code(6)
        .stderr_has(&may_have_acted("purge"))
        .stderr_has("`safe-ad show 1`");
    assert_eq!(
        proxy.count("DELETE /appendable-data/deleted-data/1/"),
        1,
        "{:?}",
        proxy.requests()
    );
    // No save: the network has the removal already, so a purge with --save post sends no first
    // save (issue 43), and none after the lost change.
    assert_eq!(
        proxy.count("POST "),
        0,
        "saved after a lost change: {:?}",
        proxy.requests()
    );
    // The launcher did purge once (as the message warns); the network has nothing of it.
    assert_eq!(local_counts(&emulator, 1), (3, 1));
    assert_eq!(emulator.network(1), (1, 3, 2));
}

#[test]
fn a_remove_whose_answer_is_lost_is_not_sent_again() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let proxy = LosingProxy::losing_first(emulator.addr(), "DELETE /appendable-data/1/0 ");
    through(&sandbox, &proxy, &["remove", "1", "0"])
        .code(6)
        .stderr_has(&may_have_acted("remove"));
    assert_eq!(proxy.count("DELETE /appendable-data/1/0"), 1);
    assert_eq!(local_counts(&emulator, 1), (2, 3));
}

#[test]
fn a_put_whose_answer_is_lost_is_not_sent_again_and_the_hint_says_what_to_check() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let proxy = LosingProxy::losing_first(emulator.addr(), "PUT /appendable-data/0 ");
    through(&sandbox, &proxy, &["put", "0"])
        .code(6)
        .stderr_has(&may_have_acted("put"))
        .stderr_has("`safe-ad metadata 0`")
        .stderr_lacks("post");
    assert_eq!(
        proxy.count("PUT /appendable-data/0"),
        1,
        "{:?}",
        proxy.requests()
    );
    // The save did happen: the data is on the network now.
    let name = emulator.demo_name(0);
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["open", &name])
        .run()
        .success();
}

#[test]
fn a_post_whose_answer_is_lost_is_not_sent_again() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let proxy = LosingProxy::losing_first(emulator.addr(), "POST /appendable-data/1 ");
    through(&sandbox, &proxy, &["post", "1"])
        .code(6)
        .stderr_has(&may_have_acted("post"));
    assert_eq!(proxy.count("POST /appendable-data/1"), 1);
    assert_eq!(emulator.network(1).0, 2, "the launcher saved it once");
}

#[test]
fn an_append_whose_answer_is_lost_is_not_sent_again_and_its_data_id_is_given_back() {
    let sandbox = Sandbox::new();
    let (emulator, log) = logged(&sandbox);
    let before = emulator.live_handles(&log);
    let proxy = LosingProxy::losing_first(emulator.addr(), "PUT /appendable-data/1/");
    let name = "7e".repeat(32);
    through(&sandbox, &proxy, &["append", "1", "--structured", &name])
        .code(6)
        .stderr_has(&may_have_acted("append"))
        .stderr_has("`safe-ad reopen 1`");
    assert_eq!(
        proxy.count("PUT /appendable-data/1/"),
        1,
        "{:?}",
        proxy.requests()
    );
    assert_eq!(
        live(&emulator.live_handles(&log), "data_id"),
        live(&before, "data_id"),
        "the data id was not given back"
    );
    // (Read last: reading the network leaves a data id of the harness's own.)
    assert_eq!(emulator.network(1), (1, 4, 2), "the launcher appended once");
}

#[test]
fn a_drop_whose_answer_is_lost_is_not_sent_again() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let handle = emulator.fresh_handle(1);
    let proxy = LosingProxy::losing_first(emulator.addr(), "DELETE /appendable-data/handle/");
    through(&sandbox, &proxy, &["drop", &handle.to_string()])
        .code(6)
        .stderr_has(&may_have_acted("drop"))
        .stderr_has(&format!("`safe-ad metadata {handle}` says whether"));
    assert_eq!(proxy.count("DELETE /appendable-data/handle/"), 1);
    let metadata = emulator.http(
        "GET",
        &format!("/appendable-data/metadata/{handle}"),
        Some(TOKEN),
        None,
    );
    assert_eq!(
        metadata.status, 400,
        "the launcher did drop it: {}",
        metadata.body
    );
}

// ---- requests that make handles ----------------------------------------------------------------

#[test]
fn a_create_whose_answer_is_lost_says_the_launcher_may_hold_a_handle() {
    let sandbox = Sandbox::new();
    let (emulator, log) = logged(&sandbox);
    let before = emulator.live_handles(&log);
    let proxy = LosingProxy::losing_first(emulator.addr(), "POST /appendable-data ");
    through(&sandbox, &proxy, &["create", "--put"])
        .code(6)
        .stderr_has(&may_have_acted("create"))
        .stderr_has("the launcher may hold a new handle for the data that safe-ad never learnt");
    assert_eq!(proxy.count("POST /appendable-data"), 1);
    assert_eq!(proxy.count("PUT "), 0);
    assert_eq!(
        live(&emulator.live_handles(&log), "appendable_data"),
        live(&before, "appendable_data") + 1,
        "the launcher made the handle the message warns of"
    );
}

#[test]
fn an_open_whose_fetch_answer_is_lost_is_not_fetched_again_and_gives_its_data_id_back() {
    let sandbox = Sandbox::new();
    let (emulator, log) = logged(&sandbox);
    let before = emulator.live_handles(&log);
    let proxy = LosingProxy::losing_first(emulator.addr(), "GET /appendable-data/handle/");
    let name = emulator.demo_name(1);
    through(&sandbox, &proxy, &["open", &name])
        .code(6)
        .stderr_has(&may_have_acted("fetch"))
        .stderr_has("the launcher may hold a new handle that safe-ad never learnt the number of");
    assert_eq!(
        proxy.count("GET /appendable-data/handle/"),
        1,
        "{:?}",
        proxy.requests()
    );
    let after = emulator.live_handles(&log);
    assert_eq!(
        live(&after, "data_id"),
        live(&before, "data_id"),
        "data id left"
    );
    assert_eq!(
        live(&after, "appendable_data"),
        live(&before, "appendable_data") + 1,
        "the fetch the message warns of"
    );
}

#[test]
fn an_open_whose_data_id_answer_is_lost_names_the_handle_it_may_have_left() {
    let sandbox = Sandbox::new();
    let (emulator, log) = logged(&sandbox);
    let before = emulator.live_handles(&log);
    let name = emulator.demo_name(1);
    for json in [false, true] {
        let proxy = LosingProxy::losing_first(emulator.addr(), "POST /data-id/appendable-data ");
        let mut args = vec!["open", name.as_str()];
        if json {
            args.insert(0, "--json");
        }
        let output = through(&sandbox, &proxy, &args);
        output.code(6).stderr_has(&format!(
            "a data-id handle that POST {}/data-id/appendable-data may have made",
            proxy.url
        ));
        assert_eq!(proxy.count("POST /data-id/appendable-data"), 1);
        if json {
            let lines = output.json_lines();
            let left = lines
                .iter()
                .find_map(|line| line.get("left_behind"))
                .expect("a left_behind object");
            assert_eq!(left[0]["kind"], "data-id", "{left}");
            assert_eq!(left[0]["handle"], Value::Null, "{left}");
        }
    }
    assert_eq!(
        live(&emulator.live_handles(&log), "data_id"),
        live(&before, "data_id") + 2,
        "the two data ids named"
    );
}

#[test]
fn a_reopen_whose_data_id_answer_is_lost_is_not_asked_again() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let proxy = LosingProxy::losing_first(emulator.addr(), "GET /appendable-data/data-id/1 ");
    through(&sandbox, &proxy, &["reopen", "1"])
        .code(6)
        .stderr_has(&may_have_acted("data-id"))
        .stderr_has("a data-id handle that GET ");
    assert_eq!(proxy.count("GET /appendable-data/data-id/1"), 1);
}

// ---- show: leases whose giving back is lost ---------------------------------------------------

#[test]
fn show_names_a_data_id_whose_drop_answer_was_lost_and_it_is_the_one_left() {
    let sandbox = Sandbox::new();
    let (emulator, log) = logged(&sandbox);
    let before = emulator.live_handles(&log);
    for json in [false, true] {
        let proxy = LosingProxy::losing_first(emulator.addr(), "DELETE /data-id/");
        let mut args = vec!["show", "--jobs", "1", "1"];
        if json {
            args.insert(0, "--json");
        }
        let output = through(&sandbox, &proxy, &args);
        output
            .code(6)
            .stderr_has("launcher handle it obtained may be left in the launcher:")
            .stderr_has(&format!(": DELETE {}/data-id/", proxy.url));
        // Not sent again: each drop went once.
        let drops: Vec<String> = proxy
            .requests()
            .into_iter()
            .filter(|line| line.starts_with("DELETE /data-id/"))
            .collect();
        let mut unique = drops.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(drops.len(), unique.len(), "a drop sent twice: {drops:?}");
        if json {
            let lines = output.json_lines();
            let left = lines
                .iter()
                .find_map(|line| line.get("left_behind"))
                .expect("a left_behind object");
            assert_eq!(left.as_array().map(Vec::len), Some(1), "{left}");
            assert_eq!(left[0]["kind"], "data-id");
            assert!(left[0]["handle"].is_u64(), "{left}");
        }
    }
    // The launcher did drop them both (the answers were lost after it acted), so nothing is
    // left; the message said "may be".
    assert_eq!(
        live(&emulator.live_handles(&log), "data_id"),
        live(&before, "data_id")
    );
}

#[test]
fn show_names_the_lease_whose_drop_timed_out_and_exits_non_zero() {
    let sandbox = Sandbox::new();
    let (emulator, log) = logged(&sandbox);
    let before = emulator.live_handles(&log);
    let relay = Relay::holding(emulator.addr(), 0, |line| {
        line.starts_with("DELETE /data-id/")
    });
    let output = sandbox
        .safe_ad()
        .launcher(&relay.url)
        .args(["show", "--timeout", "0.5", "--jobs", "1", "1"])
        .run();
    output
        .code(6)
        .stderr_has("1 launcher handle it obtained may be left in the launcher:")
        .stderr_has(&format!(": DELETE {}/data-id/", relay.url));
    // The one named is the one left.
    assert_eq!(
        live(&emulator.live_handles(&log), "data_id"),
        live(&before, "data_id") + 1
    );
}

// ---- the requests that are safe twice ------------------------------------------------------------

#[test]
fn metadata_and_the_clears_are_sent_again_after_a_lost_answer() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    for (args, route) in [
        (["metadata", "1"], "GET /appendable-data/metadata/1 "),
        (["clear-data", "1"], "DELETE /appendable-data/clear-data/1 "),
    ] {
        let proxy = LosingProxy::losing_first(emulator.addr(), route);
        through(&sandbox, &proxy, &args).success();
        assert_eq!(proxy.count(route.trim_end()), 2, "{:?}", proxy.requests());
    }
    // Without retries the lost answer is an error, with no word of having acted.
    let proxy = LosingProxy::losing_first(emulator.addr(), "GET /appendable-data/metadata/1 ");
    sandbox
        .safe_ad()
        .launcher(&proxy.url)
        .args(["metadata", "1"])
        .run()
        .code(6)
        .stderr_has("the connection closed before any answer")
        .stderr_lacks("may have acted");
}

// ---- reopen's lease budget ----------------------------------------------------------------------

#[test]
fn reopen_holds_at_most_8_data_ids_at_once_whatever_jobs() {
    let sandbox = Sandbox::new();
    let (emulator, log) = logged(&sandbox);
    let before = emulator.live_handles(&log);
    let from = std::fs::read_to_string(&log).expect("log").lines().count();
    let handles: Vec<String> = (0..40).map(|_| "1".to_string()).collect();
    let mut args = vec!["reopen", "--jobs", "20"];
    args.extend(handles.iter().map(String::as_str));
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(&args)
        .run()
        .success();
    let most = most_held(&log, from, &before);
    assert!(live(&most, "data_id") <= 8, "{most}");
    assert!(live(&most, "data_id") >= 2, "not concurrent at all: {most}");
}

/// Several indexes, the first sent (the highest) lost: the others still go unless
/// `--fail-fast`, which leaves them not started; a save asked for is not sent after a change
/// that failed, so a handle half changed is not saved; and the lost one is never sent again.
#[test]
fn a_lost_index_among_several_stops_the_save_and_with_fail_fast_the_rest() {
    for (args, sent_after, summary) in [
        (
            &["remove", "1", "0", "2"][..],
            1,
            "2 indexes: 1 ok, 1 failed",
        ),
        (
            &["--fail-fast", "remove", "1", "0", "2"],
            0,
            "2 indexes: 0 ok, 1 failed, 1 not started",
        ),
        (
            &["remove", "--save", "post", "1", "0", "2"],
            1,
            "2 indexes: 1 ok, 1 failed",
        ),
    ] {
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        let proxy = LosingProxy::losing_first(emulator.addr(), "DELETE /appendable-data/1/2 ");
        through(&sandbox, &proxy, args)
            .code(6)
            .stderr_has(&may_have_acted("remove"))
            .stderr_has(summary);
        assert_eq!(proxy.count("DELETE /appendable-data/1/2"), 1, "{args:?}");
        assert_eq!(
            proxy.count("DELETE /appendable-data/1/0"),
            sent_after,
            "{args:?}"
        );
        assert_eq!(proxy.count("POST /appendable-data/1"), 0, "{args:?}");
    }
}
