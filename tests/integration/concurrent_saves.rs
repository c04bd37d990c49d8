//! When another save wins (issue 52): runs at once that change one data by its name, against the
//! emulator binary. A post refused with -25 changed nothing, so a change whose items are chosen
//! by what they are (a clear's every item, `--name`, `--data-id`) is made again on a fresh copy
//! and says so, and every run lands; a change of the items at the indexes given is not (they may
//! now name other items): it exits with words that say another save came first, how to choose
//! by what the items are and where to look, and no `ok` on stdout. No hint names `reopen`.
//!
//! The contention is made, not hoped for: a relay holds the first six saves until all six are
//! held, so every run took its copy before any save landed, and exactly one of them lands first
//! ([`six_at_once`]). What the network holds is read back by the data's name through a fresh
//! handle of the emulator's own.

use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::Value;

use crate::harness::emulator::*;
use crate::harness::http::name;
use crate::harness::relay::{Hook, Relay};
use crate::harness::*;

/// The runs started at once, and the saves the relay holds until all of them are held.
const RUNS: u32 = 6;

/// Every save of appendable data (`POST /appendable-data/:handle`), as the relay sees it.
fn is_save(request_line: &str) -> bool {
    request_line.starts_with("POST /appendable-data/")
}

fn run(sandbox: &Sandbox, url: &str, args: &[&str]) -> Output {
    sandbox.safe_ad().launcher(url).args(args).run()
}

/// What the network holds for the data named `data`, as (version, data, deleted), read through
/// a fresh handle of the emulator's own.
fn network(emulator: &Emulator, data: &str) -> (u64, u64, u64) {
    let fetched = emulator.fetch_named(data);
    assert_eq!(fetched.status, 200, "fetch: {}", fetched.body);
    counts(&fetched.json())
}

/// Data saved to the network holding six data items, each pointing at structured data of a
/// name of its own: the data's name, and each item's name and data id (in index order).
fn six_items(sandbox: &Sandbox, emulator: &Emulator) -> (String, Vec<String>, Vec<String>) {
    let data = name(0x64);
    emulator.save_new(&data);
    let names: Vec<String> = (0..RUNS as u8).map(|i| name(0x41 + i)).collect();
    for item in &names {
        run(
            sandbox,
            &emulator.url,
            &["append", &data, "--structured", item],
        )
        .success();
    }
    assert_eq!(network(emulator, &data), (0, 6, 0));
    let shown = run(sandbox, &emulator.url, &["show", "--json", &data]);
    let shown = shown.success().json_lines().remove(0);
    let ids = (shown["data"].as_array().expect("data").iter())
        .map(|item: &Value| item["data_id"].as_str().expect("data id").to_owned())
        .collect();
    (data, names, ids)
}

/// Runs `args(i)` for each of `runs` runs at once, through a relay that holds the first `runs`
/// saves until all of them are held and then lets them go together: each run took its copy
/// before any save landed, so one save lands and the others are refused with -25. The outputs,
/// in the order the runs were started.
fn at_once(
    sandbox: &Sandbox,
    emulator: &Emulator,
    runs: u32,
    args: impl Fn(usize) -> Vec<String>,
) -> Vec<Output> {
    let saves = AtomicU32::new(0);
    let relay = Relay::start(emulator.addr(), move |line| {
        match is_save(line) && saves.fetch_add(1, Ordering::SeqCst) < runs {
            true => Hook::Hold,
            false => Hook::Pass,
        }
    });
    let running: Vec<Running> = (0..runs as usize)
        .map(|i| sandbox.safe_ad().launcher(&relay.url).args(args(i)).spawn())
        .collect();
    relay.wait_held_at_least(runs as usize);
    relay.release();
    running.into_iter().map(Running::wait).collect()
}

/// [`at_once`] with six runs.
fn six_at_once(
    sandbox: &Sandbox,
    emulator: &Emulator,
    args: impl Fn(usize) -> Vec<String>,
) -> Vec<Output> {
    at_once(sandbox, emulator, RUNS, args)
}

/// The words of a run made again on a fresh copy after another save beat its own.
const MADE_AGAIN: &str =
    "another save came first, so it was made again on a fresh copy of the network's data (";

/// Six runs that all land, five of them made again (the one whose save landed first was not),
/// each saying on stdout the change and the version it saved, and no hint naming `reopen`.
#[track_caller]
fn all_landed(outputs: &[Output], said: &str) {
    for output in outputs {
        output
            .success()
            .stdout_has(said)
            .stdout_has("saved version")
            .stderr_lacks("reopen");
    }
    let made_again = (outputs.iter())
        .filter(|output| output.stderr().contains(MADE_AGAIN))
        .count();
    assert_eq!(made_again, RUNS as usize - 1, "runs made again");
}

/// Six `remove NAME --name ITEM`, each of another item: the five whose save another beat
/// choose their item again on a fresh copy, and all six removals are on the network.
#[test]
fn six_removes_by_selector_on_one_name_all_land() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, names, _) = six_items(&sandbox, &emulator);
    let outputs = six_at_once(&sandbox, &emulator, |i| {
        ["remove", &data, "--name", &names[i]]
            .map(String::from)
            .to_vec()
    });
    all_landed(&outputs, &format!("remove {data} index "));
    assert_eq!(network(&emulator, &data), (6, 0, 6));
}

/// Six `restore NAME --name ITEM` and then six `purge NAME --data-id ID`, each of another
/// item: each lands, made again on a fresh copy where another save came first.
#[test]
fn six_restores_and_six_purges_by_selector_on_one_name_all_land() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, names, ids) = six_items(&sandbox, &emulator);
    run(&sandbox, &emulator.url, &["clear-data", &data]).success();
    assert_eq!(network(&emulator, &data), (1, 0, 6));
    let outputs = six_at_once(&sandbox, &emulator, |i| {
        ["restore", &data, "--name", &names[i]]
            .map(String::from)
            .to_vec()
    });
    all_landed(&outputs, &format!("restore {data} index "));
    // Each restored item is data again: appended again after its save.
    assert_eq!(network(&emulator, &data), (7, 6, 0));
    run(&sandbox, &emulator.url, &["clear-data", &data]).success();
    let outputs = six_at_once(&sandbox, &emulator, |i| {
        ["purge", &data, "--data-id", &ids[i]]
            .map(String::from)
            .to_vec()
    });
    all_landed(&outputs, &format!("purge {data} index "));
    assert_eq!(network(&emulator, &data), (14, 0, 0));
}

/// Six `clear-data NAME` and six `clear-deleted-data NAME`: "every item" is chosen again on a
/// fresh copy when another save beat a run's own, so all six land, and the network's version
/// counts six saves each time.
#[test]
fn six_clears_by_name_all_land_made_again_on_a_fresh_copy() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, _, _) = six_items(&sandbox, &emulator);
    let outputs = six_at_once(&sandbox, &emulator, |_| {
        ["clear-data", &data].map(String::from).to_vec()
    });
    all_landed(&outputs, &format!("clear-data {data}: ok"));
    assert_eq!(network(&emulator, &data), (6, 0, 6));
    let outputs = six_at_once(&sandbox, &emulator, |_| {
        ["clear-deleted-data", &data].map(String::from).to_vec()
    });
    all_landed(&outputs, &format!("clear-deleted-data {data}: ok"));
    assert_eq!(network(&emulator, &data), (12, 0, 0));
}

/// Two `remove NAME --kind structured-data` at once (one with `--require-match`), each choosing all
/// six items: the run whose save was beaten chooses again on a fresh copy, where nothing
/// matches any more, and says so as a choice that matches nothing does (exit 0, or 4 with
/// `--require-match`), after saying it was made again.
#[test]
fn a_selector_that_matches_nothing_on_the_fresh_copy_says_so() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, _, _) = six_items(&sandbox, &emulator);
    let outputs = at_once(&sandbox, &emulator, 2, |i| {
        let mut args = ["remove", &data, "--kind", "structured-data"]
            .map(String::from)
            .to_vec();
        if i == 1 {
            args.push("--require-match".to_owned());
        }
        args
    });
    let landed: Vec<usize> = (0..2)
        .filter(|&i| outputs[i].stdout().contains("saved version 1"))
        .collect();
    assert_eq!(landed.len(), 1, "runs whose save landed");
    let beaten = 1 - landed[0];
    outputs[landed[0]].success();
    outputs[beaten]
        .code(if beaten == 1 { 4 } else { 0 })
        .stdout_is("")
        .stderr_has(&format!(
            "remove {data}: no item matched; nothing was changed"
        ))
        .stderr_has(&format!("remove {data}: {MADE_AGAIN}once)"))
        .stderr_lacks("reopen");
    assert_eq!(network(&emulator, &data), (1, 0, 6));
}

/// Runs by index that did not land: exit 4, nothing on stdout, and words that say another save
/// came first, that the indexes may now name other items, how to choose by what the items are
/// and where to look, that the network's data is as it was; no `reopen`, and not made again.
#[track_caller]
fn beaten_by_index(output: &Output, operation: &str, data: &str) {
    output
        .code(4)
        .stdout_is("")
        .stderr_has("errorCode -25")
        .stderr_has("another save came first, so nothing was changed, and the indexes given may now name other items")
        .stderr_has("(`--name`, `--data-id`)")
        .stderr_has(&format!("`safe-ad show {data}`"))
        .stderr_has(&format!(
            "{operation} {data}: nothing was saved, so the network's data is as it was"
        ))
        .stderr_lacks("reopen")
        .stderr_lacks(MADE_AGAIN);
}

/// Six `remove NAME 0` at once: the indexes of a fresh copy may name other items once another
/// save landed, so a run whose save was beaten is not made again. Exactly as many items are
/// removed on the network as runs exited 0 (the one whose save landed first), and each run
/// that failed says why with no `ok` on stdout.
#[test]
fn six_removes_by_index_change_as_many_items_as_runs_that_exit_0() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, _, _) = six_items(&sandbox, &emulator);
    let outputs = six_at_once(&sandbox, &emulator, |_| {
        ["remove", &data, "0"].map(String::from).to_vec()
    });
    let landed: Vec<&Output> = (outputs.iter())
        .filter(|output| output.exit_code() == Some(0))
        .collect();
    assert_eq!(landed.len(), 1, "runs that exited 0");
    landed[0]
        .stdout_has(&format!("remove {data} index 0: ok"))
        .stdout_has("saved version 1");
    for output in outputs
        .iter()
        .filter(|output| output.exit_code() != Some(0))
    {
        beaten_by_index(output, "remove", &data);
    }
    assert_eq!(network(&emulator, &data), (1, 5, 1));
}

/// Six `restore NAME 0` at once: as for the removes, one lands, and each of the other five says
/// no `ok` of its restore (it was never the network's).
#[test]
fn six_restores_by_index_change_as_many_items_as_runs_that_exit_0() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, _, _) = six_items(&sandbox, &emulator);
    run(&sandbox, &emulator.url, &["clear-data", &data]).success();
    let outputs = six_at_once(&sandbox, &emulator, |_| {
        ["restore", &data, "0"].map(String::from).to_vec()
    });
    let landed = (outputs.iter())
        .filter(|output| output.exit_code() == Some(0))
        .count();
    assert_eq!(landed, 1, "runs that exited 0");
    for output in outputs
        .iter()
        .filter(|output| output.exit_code() != Some(0))
    {
        beaten_by_index(output, "restore", &data);
    }
    assert_eq!(network(&emulator, &data), (2, 1, 5));
}

/// A relay in front of `emulator` that answers every save -25, as if another save always came
/// first; no save reaches the emulator.
fn every_save_beaten(emulator: &Emulator) -> Relay {
    let stale = http_answer("400 Bad Request", INVALID_SUCCESSOR.as_bytes());
    Relay::start(emulator.addr(), move |line| match is_save(line) {
        true => Hook::Answer(stale),
        false => Hook::Pass,
    })
}

/// A name's change whose save is refused with -25 every time (a clear, and a removal by
/// selector): made again on a fresh copy five times, then exit 4 with no `ok` on stdout, the
/// words that the network's data is as it was (which a fresh handle confirms), and a hint
/// that names no `reopen`.
#[test]
fn a_change_by_name_never_saved_is_made_again_five_times_then_says_no_ok() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, names, _) = six_items(&sandbox, &emulator);
    let relay = every_save_beaten(&emulator);
    for (operation, args) in [
        ("clear-data", vec!["clear-data", &data]),
        ("remove", vec!["remove", &data, "--name", &names[2]]),
    ] {
        run(&sandbox, &relay.url, &args)
            .code(4)
            .stdout_is("")
            .stderr_has("errorCode -25")
            .stderr_has("someone saved this data while the command ran")
            .stderr_has(&format!(
                "{operation} {data}: nothing was saved, so the network's data is as it was"
            ))
            .stderr_has(&format!("{operation} {data}: {MADE_AGAIN}5 times)"))
            .stderr_lacks("reopen");
    }
    let posts = (relay.exchanges().iter())
        .filter(|(request, _)| is_save(request))
        .count();
    assert_eq!(posts, 0, "a post reached the emulator");
    assert_eq!(network(&emulator, &data), (0, 6, 0));
}
