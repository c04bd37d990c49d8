//! `show` at its edges: the options it cannot act on refused, `reopen`'s data id given back after
//! Ctrl-C, a reader that leaves after one line, an item whose data is not on the network, and a
//! fresh copy of data with no items.

use super::*;

#[test]
fn show_refuses_the_options_it_cannot_act_on() {
    let sandbox = Sandbox::new();
    let (emulator, _log) = emulator(&sandbox, &[]);
    emulator.requests();
    for (flag, words) in [
        ("--dry-run", "`safe-ad show` does not take --dry-run"),
        ("--curl", "`safe-ad show` does not take --curl"),
        ("--fail-fast", "`safe-ad show` does not take --fail-fast"),
    ] {
        run(&sandbox, &emulator.url, &["show", flag, "1"])
            .code(2)
            .stdout_is("")
            .stderr_has(words);
    }
    assert!(
        emulator.requests().is_empty(),
        "a refused show sent a request"
    );
}

#[test]
fn reopen_gives_its_data_id_back_after_ctrl_c_too() {
    // The lease `show` uses is the one `open` and `reopen` hold their data id with.
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let relay = Relay::holding(emulator.addr(), 0, |line| {
        line.starts_with("GET /appendable-data/handle/")
    });
    let output = relay.stop_while_held(
        sandbox.safe_ad().args(["reopen", "--jobs", "1", "1", "2"]),
        Running::interrupt,
    );
    // The fetch in flight came back and its reopen finished: its new handle is printed and,
    // as the run exits 130 and hands it to no script, named as what it leaves; handle 2 is not
    // started.
    let fresh: u64 = output
        .code(130)
        .stdout()
        .trim()
        .parse()
        .expect("one new handle");
    output
        .stderr_has("2 handles: 1 ok, 0 failed, 1 not started")
        .stderr_has("1 launcher handle it obtained may be left in the launcher")
        .stderr_has(&format!("appendable-data {fresh}: DELETE "))
        .stderr_has(&format!("(or `safe-ad drop {fresh}`)"))
        .stderr_has("interrupted; no new requests were sent");
    let after = emulator.live_handles(&log);
    assert_eq!(
        after["data_id"], before["data_id"],
        "the data id was not given back"
    );
    assert_eq!(
        after["appendable_data"].as_u64(),
        before["appendable_data"].as_u64().map(|n| n + 1),
        "the new handle {fresh} is the one handle left, as reopen's result"
    );
}

#[test]
fn a_reader_that_leaves_after_one_line_gets_no_error_and_nothing_is_held() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["show", "1", "0", "2", "1", "0", "2"])
        .stdout_head(1)
        .run();
    output
        .success()
        .stdout_is("handle 1: version 1, owner yes, data 3, deleted 2, filter BlackList (2 keys)\n")
        .stderr_is("");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

/// An item that points at structured data no one saved: the hint names the item, what it
/// points at and what is missing, and never suggests `put` (the appendable data is saved) nor
/// carries a placeholder.
#[test]
fn an_item_whose_data_is_not_on_the_network_is_shown_as_that_and_is_no_failure() {
    // The appendable data is saved; only what its item points at is missing. That is a fact
    // about the data, said on the item's line, not a failure of show, and never advice to `put`.
    let sandbox = Sandbox::new();
    let (emulator, _log) = emulator(&sandbox, &[]);
    let name = "5a".repeat(32);
    run(
        &sandbox,
        &emulator.url,
        &["append", "1", "--structured", &name],
    )
    .success();
    let fresh = run(&sandbox, &emulator.url, &["reopen", "1"]);
    let handle = fresh.success().stdout().trim().to_owned();
    let output = run(&sandbox, &emulator.url, &["show", &handle]);
    output
        .success()
        .stdout_has("  data 0: structured-data ")
        .stdout_has(", not on the network")
        .stderr_lacks("put")
        .stderr_lacks("HANDLE");
}

/// A handle freshly fetched from data that holds no data items at version 1 (a post made that
/// version through another handle): nothing was posted through it, so `show`'s note does not say
/// it was (on the code before: "after a post the launcher's copy holds none"); it says what can
/// be told without asking the network, and `status` finds the copy in sync with it.
#[test]
fn a_fresh_copy_of_data_with_no_items_is_not_said_to_be_one_a_post_emptied() {
    let sandbox = Sandbox::new();
    let (emulator, _log) = emulator(&sandbox, &[]);
    let created = run(&sandbox, &emulator.url, &["create", "--put"]);
    let first = created.success().stdout().trim().to_owned();
    run(&sandbox, &emulator.url, &["post", &first]).success();
    let fresh = run(&sandbox, &emulator.url, &["reopen", "--drop", &first]);
    let fresh = fresh.success().stdout().trim().to_owned();
    run(&sandbox, &emulator.url, &["show", &fresh])
        .success()
        .stdout_has(&format!("handle {fresh}: version 1, owner yes, data 0, deleted 0"))
        .stderr_lacks("after a post the launcher's copy holds none")
        .stderr_is(&format!("note: handle {fresh}'s copy holds no data items at version 1: if a post made this copy, the network may hold items it does not show (the launcher keeps none after a post); `safe-ad status {fresh}` compares it with the network\n"));
    run(&sandbox, &emulator.url, &["status", &fresh])
        .success()
        .stdout_has(&format!(
            "handle {fresh}: in sync: version 1 here and on the network, data 0, deleted 0\n  name "
        ));
    run(&sandbox, &emulator.url, &["drop", &fresh]).success();
}
