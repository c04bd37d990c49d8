//! The one-item changes end to end, against the emulator binary: `remove`, `restore` and `purge`
//! at several indexes (applied the highest first, so each index names the item `show` showed),
//! their `--save`, `--json`, `--dry-run` and `--curl`, an index past the end; and `append`,
//! which reaches the network at once, leaves the handle's copy as it was and gives its data id
//! back. Which item moved is checked by its data id, as `show --json` gives it.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::harness::emulator::*;
use crate::harness::*;

/// A structured-data name of the test's own, in base64.
const NEW_ITEM: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

fn emulator(sandbox: &Sandbox) -> (Emulator, PathBuf) {
    let log = sandbox.path().join("requests.jsonl");
    let emulator = Emulator::start(&["--log", log.to_str().expect("path")]);
    (emulator, log)
}

fn run(sandbox: &Sandbox, url: &str, args: &[&str]) -> Output {
    sandbox.safe_ad().launcher(url).args(args).run()
}

/// The data ids of each list of `handle`, as `show --json` gives them: (data, deleted).
fn lists(sandbox: &Sandbox, url: &str, handle: &str) -> (Vec<String>, Vec<String>) {
    let output = run(sandbox, url, &["show", "--json", handle]);
    let object = output.success().json_lines().remove(0);
    let ids = |list: &Value| -> Vec<String> {
        list.as_array()
            .expect("a list")
            .iter()
            .map(|item| item["data_id"].as_str().expect("a data id").to_owned())
            .collect()
    };
    (ids(&object["data"]), ids(&object["deleted_data"]))
}

/// The requests the emulator answered after the first `from` (see `Emulator::requests`).
fn requests_after(emulator: &Emulator, from: usize) -> Vec<String> {
    emulator.requests().split_off(from)
}

fn sorted(mut ids: Vec<String>) -> Vec<String> {
    ids.sort();
    ids
}

#[test]
fn remove_moves_the_items_shown_at_those_indexes_highest_first() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox);
    let (data, deleted) = lists(&sandbox, &emulator.url, "1");
    let from = emulator.requests().len();
    let before = emulator.live_handles(&log);
    run(&sandbox, &emulator.url, &["remove", "1", "0", "2"])
        .success()
        .stdout_is("remove 1 index 2: ok\nremove 1 index 0: ok\n")
        .stderr_has("2 indexes: 2 ok, 0 failed\n")
        .stderr_has("note: a removal changes only the launcher's copy; save it to the network with: safe-ad post 1 (or use --save post)");
    assert_eq!(
        requests_after(&emulator, from),
        [
            // Every index is checked against the list's length before the first change.
            "GET /appendable-data/metadata/1 200",
            "DELETE /appendable-data/1/2 200",
            "DELETE /appendable-data/1/0 200"
        ]
    );
    assert_eq!(emulator.live_handles(&log), before);
    let (data_after, deleted_after) = lists(&sandbox, &emulator.url, "1");
    // Items 0 and 2 as shown before, not whatever sat at index 2 after index 0 went.
    assert_eq!(data_after, vec![data[1].clone()]);
    let mut expected = deleted;
    expected.extend([data[0].clone(), data[2].clone()]);
    assert_eq!(sorted(deleted_after), sorted(expected));
    // Local until saved.
    assert_eq!(emulator.network(1), (1, 3, 2));
}

#[test]
fn restore_and_purge_with_save_post_reach_the_network_as_the_launcher_saves() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox);
    let (data, deleted) = lists(&sandbox, &emulator.url, "1");
    // A restore before saving undoes a removal, at the index `show` gives the removed item in
    // the deleted list.
    run(&sandbox, &emulator.url, &["remove", "1", "0"]).success();
    let (_, deleted_now) = lists(&sandbox, &emulator.url, "1");
    let at = deleted_now
        .iter()
        .position(|id| *id == data[0])
        .expect("the removed item is in the deleted list")
        .to_string();
    run(&sandbox, &emulator.url, &["restore", "1", &at])
        .success()
        .stdout_is(&format!("restore 1 index {at}: ok\n"))
        .stderr_has("note: a restore changes only the launcher's copy");
    assert_eq!(
        sorted(lists(&sandbox, &emulator.url, "1").0),
        sorted(data.clone())
    );
    run(&sandbox, &emulator.url, &["post", "1"]).success();
    assert_eq!(emulator.network(1), (2, 3, 2), "the save changed nothing");
    // Restoring an item the network holds as deleted takes it off the deleted list, and the
    // launcher's save carries no data items: `restore --save post` appends it again after the
    // save (issue 30), so it is data on the network again. Before that, one read of the
    // network's deleted list (and of the user's key) says it is needed.
    let from = emulator.requests().len();
    let before = emulator.live_handles(&log);
    run(
        &sandbox,
        &emulator.url,
        &["restore", "--save", "post", "--re-sign", "1", "1"],
    )
    .success()
    .stdout_is(&format!("restore 1 index 1: ok\npost 1: ok, saved version 3\nappend 1: ok: deleted 1 (structured-data {}, type tag 500) is data again, now signed by you (re-signed: it was signed by e30376180e311a1e)\n", "ZGVtbyBpdGVtIGguLi4uLi4uLi4uLi4uLi4uLi4uLi4="))
    .stderr_has(": to be appended again after the save, signed by you (it was signed by e30376180e311a1e; only its signer can append it as it was)\n")
    .stderr_has("safe-ad: 1 restored item appended again after the save: data on the network again; `safe-ad reopen 1` gets a handle that shows it\n");
    // 29 requests: the chosen item read as selectors read it (its data id and signer, 13),
    // the user's key (3), the copy's serialised bytes (its filter, which the save stores: 1),
    // the network's lists through a fresh handle, read through its serialised bytes and given
    // back (6);
    // then, in this order, the item's data id, the restore, the save and its read back, the
    // append and the data id given back. The reads run up to --jobs at once, so only their
    // number is fixed.
    let sent = requests_after(&emulator, from);
    assert_eq!(sent.len(), 29, "{sent:#?}");
    assert_eq!(
        sent[23..],
        [
            "GET /appendable-data/deleted-data/1/1 200",
            "PUT /appendable-data/restore/1/1 200",
            "POST /appendable-data/1 200",
            "GET /appendable-data/metadata/1 200",
            "PUT /appendable-data/1/71 200",
            "DELETE /data-id/71 200",
        ]
    );
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
    assert_eq!(emulator.network(1), (3, 4, 1));
    // After a POST the launcher's copy holds no data items (safe_core's `appendable_data_post`
    // puts the data-less version it sent in the handle's place); a fresh handle shows the
    // network's lists: the restored item is data there again.
    let (copy_data, copy_deleted) = lists(&sandbox, &emulator.url, "1");
    assert!(copy_data.is_empty(), "{copy_data:?}");
    assert_eq!(copy_deleted, vec![deleted[0].clone()]);
    let fresh = run(
        &sandbox,
        &emulator.url,
        &["open", "c2FmZS1hZCBkZW1vOiBzYXZlZC4uLi4uLi4uLi4uLi4="],
    )
    .success()
    .stdout()
    .trim()
    .to_owned();
    let (data_after, deleted_after) = lists(&sandbox, &emulator.url, &fresh);
    let mut expected = data.clone();
    expected.push(deleted[1].clone());
    assert_eq!(sorted(data_after), sorted(expected));
    assert_eq!(deleted_after, vec![deleted[0].clone()]);
    // A purge with --save post saves first only a removal the network has not got: this one's
    // it has, so one save.
    run(
        &sandbox,
        &emulator.url,
        &["purge", "--save", "post", "1", "0"],
    )
    .success()
    .stdout_is("purge 1 index 0: ok\npost 1: ok, saved version 4\n");
    assert_eq!(emulator.network(1), (4, 4, 0));
}

#[test]
fn an_index_past_the_end_after_good_ones_changes_nothing_and_names_show() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox);
    let before = lists(&sandbox, &emulator.url, "1");
    let from = emulator.requests().len();
    let output = run(
        &sandbox,
        &emulator.url,
        &["remove", "--save", "post", "1", "0", "7", "1"],
    );
    output
        .code(4)
        .stdout_is("")
        .stderr_is("safe-ad: error: remove 1: no item at index 7 (handle 1 has 3 data items, at indexes 0 to 2); nothing was changed\nhint: see the items and their indexes with `safe-ad show 1`, and give it again; indexes move when items are removed or restored\n");
    // Nothing applied: today's launcher would have taken index 1 before 7 failed.
    assert_eq!(
        requests_after(&emulator, from),
        ["GET /appendable-data/metadata/1 200"]
    );
    assert_eq!(
        lists(&sandbox, &emulator.url, "1"),
        before,
        "the copy as it was"
    );
    assert_eq!(emulator.network(1), (1, 3, 2), "nothing saved");
    // The same for the deleted list, and with --fail-fast.
    run(
        &sandbox,
        &emulator.url,
        &["restore", "--fail-fast", "1", "9", "0"],
    )
    .code(4)
    .stdout_is("")
    .stderr_has("restore 1: no item at index 9 (handle 1 has 2 deleted items, at indexes 0 to 1); nothing was changed");
    run(&sandbox, &emulator.url, &["purge", "1", "5", "2", "0"])
        .code(4)
        .stderr_has("purge 1: no item at indexes 5, 2 (handle 1 has 2 deleted items");
    assert_eq!(
        lists(&sandbox, &emulator.url, "1"),
        before,
        "the copy as it was"
    );
    let _ = log;
}

#[test]
fn json_dry_run_and_curl_for_the_item_commands() {
    let sandbox = Sandbox::new();
    let (emulator, _log) = emulator(&sandbox);
    let output = run(
        &sandbox,
        &emulator.url,
        &[
            "purge",
            "--json",
            "--verbose",
            "--save",
            "post",
            "1",
            "0",
            "1",
        ],
    );
    let results = output.success().json_lines();
    assert_eq!(
        results.len(),
        1,
        "one result for the one handle: {results:?}"
    );
    assert_eq!(
        results[0]["items"],
        json!([{"index": 1, "ok": true}, {"index": 0, "ok": true}])
    );
    let lines = output.json_requests();
    let seen: Vec<(Value, Value, Value)> = lines
        .iter()
        .map(|line| {
            (
                line["operation"].clone(),
                line["index"].clone(),
                line["ok"].clone(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("purge".into(), 1.into(), true.into()),
            ("purge".into(), 0.into(), true.into()),
            ("post".into(), Value::Null, true.into()),
        ]
    );
    assert_eq!(lines[0]["method"], "DELETE");
    assert!(lines[0]["url"]
        .as_str()
        .expect("url")
        .ends_with("/appendable-data/deleted-data/1/1"));
    let from = emulator.requests().len();
    let dry = run(
        &sandbox,
        &emulator.url,
        &["remove", "--dry-run", "--save", "post", "1", "0", "2"],
    );
    let lines: Vec<&str> = dry
        .success()
        .stdout()
        .lines()
        .filter(|line| !line.starts_with("  "))
        .collect();
    // The read that checks the indexes first: what the run sends, in the order sent.
    assert_eq!(
        lines,
        [
            format!("GET {}/appendable-data/metadata/1", emulator.url),
            format!("DELETE {}/appendable-data/1/2", emulator.url),
            format!("DELETE {}/appendable-data/1/0", emulator.url),
            format!("POST {}/appendable-data/1", emulator.url),
            format!("GET {}/appendable-data/metadata/1", emulator.url),
        ]
    );
    let curl = run(&sandbox, &emulator.url, &["restore", "--curl", "1", "0"]);
    curl.success().stdout_is(&format!(
        "curl -sS --fail-with-body -X GET -H \"Authorization: Bearer $SAFE_LAUNCHER_TOKEN\" '{url}/appendable-data/metadata/1'\n\
         curl -sS --fail-with-body -X PUT -H \"Authorization: Bearer $SAFE_LAUNCHER_TOKEN\" '{url}/appendable-data/restore/1/0'\n",
        url = emulator.url
    ));
    let curl = run(
        &sandbox,
        &emulator.url,
        &["append", "--curl", "1", "--structured", NEW_ITEM],
    );
    curl.success().stdout_has(&format!(
        "curl -sS --fail-with-body -X PUT -H \"Authorization: Bearer $SAFE_LAUNCHER_TOKEN\" \"{}/appendable-data/1/${{DATA_ID_HANDLE:?the line before gave no handleId}}\"\n",
        emulator.url
    ));
    assert!(
        requests_after(&emulator, from).is_empty(),
        "a dry run sent a request"
    );
}

#[test]
fn append_reaches_the_network_leaves_the_copy_and_gives_its_data_id_back() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox);
    let before = emulator.live_handles(&log);
    run(&sandbox, &emulator.url, &["append", "1", "--structured", NEW_ITEM, "--type-tag", "501"])
        .success()
        .stdout_is("append 1: ok\n")
        .stderr_is("safe-ad: appended on the network; handle 1's copy does not show it: `safe-ad reopen 1` gets one that does\n");
    run(
        &sandbox,
        &emulator.url,
        &["append", "1", "--appendable", NEW_ITEM, "--private"],
    )
    .success()
    .stdout_is("append 1: ok\n");
    assert_eq!(
        emulator.live_handles(&log),
        before,
        "the data ids were not given back"
    );
    assert_eq!(emulator.network(1), (1, 5, 2));
    assert_eq!(
        lists(&sandbox, &emulator.url, "1").0.len(),
        3,
        "the copy is unchanged"
    );
    // A fresh handle shows both new items, as what they point at: their data ids' bytes name
    // them (kind, name, type tag), and that neither is on the network is said, not a failure.
    let fresh = run(&sandbox, &emulator.url, &["reopen", "1"]);
    let fresh = fresh.success().stdout().trim().to_owned();
    let output = run(&sandbox, &emulator.url, &["show", "--json", &fresh]);
    let object = output.success().json_lines().remove(0);
    let missing: Vec<&Value> = object["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter(|item| item["on_network"] == false)
        .collect();
    assert_eq!(missing.len(), 2, "{object}");
    assert_eq!(missing[0]["kind"], "structured-data");
    assert_eq!(missing[0]["type_tag"], 501);
    assert_eq!(missing[0]["name"], NEW_ITEM);
    assert_eq!(missing[1]["kind"], "private-appendable-data");
    assert_eq!(missing[1]["name"], NEW_ITEM);
    assert!(missing.iter().all(|item| item.get("error").is_none()));
    assert!(missing.iter().all(|item| item["signer_is_you"] == true));
    // An item that is in the deleted list cannot be appended again (-25), with the reason.
    let before = emulator.live_handles(&log);
    let output = run(
        &sandbox,
        &emulator.url,
        &[
            "append",
            "1",
            "--structured",
            &emulator_demo_name("demo item g"),
        ],
    );
    output
        .code(4)
        .stderr_has("errorCode -25")
        .stderr_has("hint: the launcher refuses an append to a stale handle");
    assert_eq!(
        emulator.live_handles(&log),
        before,
        "the data id was not given back"
    );
}

/// The name the emulator's demo gives an item's structured data: its label, padded with dots.
fn emulator_demo_name(label: &str) -> String {
    let mut bytes = [b'.'; 32];
    bytes[..label.len()].copy_from_slice(label.as_bytes());
    crate::harness::http::b64(&bytes)
}

#[test]
fn the_item_commands_work_the_same_through_the_0_6_prefix() {
    let sandbox = Sandbox::new();
    let (emulator, _log) = emulator(&sandbox);
    let url = format!("{}/0.6", emulator.url);
    let from = emulator.requests().len();
    run(&sandbox, &url, &["remove", "1", "1"]).success();
    run(&sandbox, &url, &["restore", "1", "0"]).success();
    run(&sandbox, &url, &["purge", "1", "0"]).success();
    run(&sandbox, &url, &["append", "1", "--structured", NEW_ITEM]).success();
    assert_eq!(
        requests_after(&emulator, from),
        [
            "GET /0.6/appendable-data/metadata/1 200",
            "DELETE /0.6/appendable-data/1/1 200",
            "GET /0.6/appendable-data/metadata/1 200",
            // Whether the restored item's removal is saved, for the note after it: the copy's
            // bytes, then the network's deleted list through a fresh handle.
            "GET /0.6/appendable-data/serialise/1 200",
            "GET /0.6/appendable-data/data-id/1 200",
            "GET /0.6/appendable-data/handle/6 200",
            "DELETE /0.6/data-id/6 200",
            "GET /0.6/appendable-data/metadata/7 200",
            "GET /0.6/appendable-data/serialise/7 200",
            "DELETE /0.6/appendable-data/handle/7 200",
            "PUT /0.6/appendable-data/restore/1/0 200",
            "GET /0.6/appendable-data/metadata/1 200",
            // Whether the purged item's removal is saved: the copy's bytes, then the network's
            // deleted list through a fresh handle (it is not, so the note is said).
            "GET /0.6/appendable-data/serialise/1 200",
            "GET /0.6/appendable-data/data-id/1 200",
            "GET /0.6/appendable-data/handle/8 200",
            "DELETE /0.6/data-id/8 200",
            "GET /0.6/appendable-data/metadata/9 200",
            "GET /0.6/appendable-data/serialise/9 200",
            "DELETE /0.6/appendable-data/handle/9 200",
            "DELETE /0.6/appendable-data/deleted-data/1/0 200",
            "POST /0.6/data-id/structured-data 200",
            "PUT /0.6/appendable-data/1/10 200",
            "DELETE /0.6/data-id/10 200",
        ]
    );
}
