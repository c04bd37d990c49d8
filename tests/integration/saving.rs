//! What the network holds after a change and a save, against the emulator binary, each test
//! ending with the network's lists read through a fresh handle (`safe-ad open NAME`): the
//! sequences of issue 30 that used to exit 0 and leave the network the opposite of the words.
//! A purge with `--save post` saves the removal first; a purge, or a restore, followed by a
//! plain post says before acting what the post will leave; `restore --save post` makes the item
//! data again; `post` then `status` exits 0 while a stale copy and an unsaved removal still exit
//! 7; and a `--dry-run` plan is what the real run then sends.

use serde_json::Value;

use crate::harness::emulator::*;
use crate::harness::*;

fn run(sandbox: &Sandbox, url: &str, args: &[&str]) -> Output {
    sandbox.safe_ad().launcher(url).args(args).run()
}

/// The data ids of each list of `handle`, as `show --json` gives them: (data, deleted), sorted.
fn lists(sandbox: &Sandbox, url: &str, handle: &str) -> (Vec<String>, Vec<String>) {
    let output = run(sandbox, url, &["show", "--json", handle]);
    let object = output.success().json_lines().remove(0);
    let ids = |list: &Value| -> Vec<String> {
        let mut ids: Vec<String> = list
            .as_array()
            .expect("a list")
            .iter()
            .map(|item| item["data_id"].as_str().expect("a data id").to_owned())
            .collect();
        ids.sort();
        ids
    };
    (ids(&object["data"]), ids(&object["deleted_data"]))
}

/// What the network holds for demo handle 1's data: a fresh handle from `safe-ad open NAME`,
/// its lists, and the handle dropped again.
fn network(sandbox: &Sandbox, emulator: &Emulator) -> (Vec<String>, Vec<String>) {
    let name = emulator.demo_name(1);
    let opened = run(sandbox, &emulator.url, &["open", &name]);
    let fresh = opened.success().stdout().trim().to_owned();
    let held = lists(sandbox, &emulator.url, &fresh);
    run(sandbox, &emulator.url, &["drop", &fresh]).success();
    held
}

fn without(list: &[String], gone: &[&String]) -> Vec<String> {
    list.iter()
        .filter(|id| !gone.contains(id))
        .cloned()
        .collect()
}

/// `remove H 0 2`, then a purge of those two with `--save post`: the removal is saved first,
/// so the items are in neither list. On the code before issue 30 (one save after the purge)
/// the network held them as data again.
#[test]
fn remove_then_purge_with_save_post_leaves_the_items_in_neither_list() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, deleted) = network(&sandbox, &emulator);
    let (a, c) = (&data[0], &data[2]);
    let copy = lists(&sandbox, &emulator.url, "1").0;
    let (at_a, at_c) = (
        copy.iter().position(|id| id == a).expect("a").to_string(),
        copy.iter().position(|id| id == c).expect("c").to_string(),
    );
    run(&sandbox, &emulator.url, &["remove", "1", &at_a, &at_c]).success();
    run(
        &sandbox,
        &emulator.url,
        &[
            "purge",
            "1",
            "--data-id",
            a,
            "--data-id",
            c,
            "--save",
            "post",
        ],
    )
    .success()
    .stdout_has("post 1: ok, saved version 2\n")
    .stdout_has("post 1: ok, saved version 3\n")
    .stderr_lacks("a plain `safe-ad post 1`");
    assert_eq!(
        network(&sandbox, &emulator),
        (without(&data, &[a, c]), deleted)
    );
}

/// The same without `--save`: the purge says before acting what a plain post will leave, and
/// the post leaves exactly that (the items data again).
#[test]
fn remove_purge_and_a_plain_post_is_said_before_it_happens() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, deleted) = network(&sandbox, &emulator);
    run(&sandbox, &emulator.url, &["remove", "1", "0"]).success();
    run(&sandbox, &emulator.url, &["purge", "1", "--data-id", &data[0]])
        .success()
        .stderr_has("note: purge takes items off the copy's deleted list; a plain `safe-ad post 1` then deletes for good only those whose removal was saved before: an item whose removal is not saved yet stays data on the network (`safe-ad status 1` lists removals not saved; `purge --save post` saves the removal first, then the purge)\n");
    run(&sandbox, &emulator.url, &["post", "1"]).success();
    assert_eq!(network(&sandbox, &emulator), (data, deleted));
}

/// A purge (or `clear-deleted-data`) of items whose removal the network already has says
/// nothing of a plain post: the note is only for removals not saved. On the code before it was
/// said every time.
#[test]
fn a_purge_of_saved_removals_says_no_note_and_a_plain_post_deletes_them_for_good() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, deleted) = network(&sandbox, &emulator);
    let first = [
        "remove",
        "1",
        "--data-id",
        data[0].as_str(),
        "--save",
        "post",
    ];
    run(&sandbox, &emulator.url, &first).success();
    run(
        &sandbox,
        &emulator.url,
        &["purge", "1", "--data-id", &data[0]],
    )
    .success()
    .stderr_lacks("a plain `safe-ad post 1`");
    run(&sandbox, &emulator.url, &["clear-deleted-data", "1"])
        .success()
        .stderr_lacks("a plain `safe-ad post 1`");
    run(&sandbox, &emulator.url, &["post", "1"]).success();
    assert_eq!(
        network(&sandbox, &emulator),
        (data[1..].to_vec(), Vec::new())
    );
    assert!(
        !deleted.is_empty(),
        "the demo's deleted items were saved removals"
    );
    // An unsaved removal brings the note back.
    let opened = run(&sandbox, &emulator.url, &["open", &emulator.demo_name(1)]);
    let fresh = opened.success().stdout().trim().to_owned();
    run(&sandbox, &emulator.url, &["remove", &fresh, "0"]).success();
    run(&sandbox, &emulator.url, &["clear-deleted-data", &fresh])
        .success()
        .stderr_has(&format!("a plain `safe-ad post {fresh}`"));
    run(&sandbox, &emulator.url, &["drop", &fresh]).success();
}

/// `restore H --signed-by others --save post --re-sign`: the deleted item someone else signed is data on
/// the network again (appended after the save, signed by you, as said before). On the code
/// before issue 30 it was in neither list.
#[test]
fn restore_signed_by_others_with_save_post_is_data_again() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, deleted) = network(&sandbox, &emulator);
    let output = run(
        &sandbox,
        &emulator.url,
        &[
            "restore",
            "1",
            "--signed-by",
            "others",
            "--save",
            "post",
            "--re-sign",
        ],
    );
    output
        .success()
        .stdout_has("restore 1 index 1: ok\npost 1: ok, saved version 2\nappend 1: ok: deleted 1 (")
        .stdout_has(
            ") is data again, now signed by you (re-signed: it was signed by e30376180e311a1e)\n",
        )
        .stderr_has("appended again after the save, signed by you (it was signed by ");
    let mut now_data = data.clone();
    now_data.push(deleted[1].clone());
    now_data.sort();
    assert_eq!(
        network(&sandbox, &emulator),
        (now_data, vec![deleted[0].clone()])
    );
}

/// `restore H 1`, then a plain post: the restore says before the post what it will do (take
/// the item off the deleted list without making it data) and which commands restore it.
#[test]
fn restore_and_a_plain_post_is_said_before_it_happens() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, deleted) = network(&sandbox, &emulator);
    run(&sandbox, &emulator.url, &["restore", "1", "1"])
        .success()
        .stderr_has("note: a restore changes only the launcher's copy; a plain `safe-ad post 1` takes the items off the network's deleted list without making them data again (a post carries no data items), so an item whose removal was saved is gone for good; to make them data on the network, start from a fresh copy: `safe-ad reopen 1`, then `safe-ad restore NEW_HANDLE ... --save post` on the handle it prints\n");
    run(&sandbox, &emulator.url, &["post", "1"]).success();
    assert_eq!(
        network(&sandbox, &emulator),
        (data, vec![deleted[0].clone()])
    );
}

/// `remove H 0`, then `restore H 0`, nothing saved in between: the removal never reached the
/// network, so the restore says a plain post leaves the item data (on the code before it warned
/// that such a post leaves items "gone for good"), and the post leaves it data.
#[test]
fn a_restore_of_a_removal_never_saved_says_a_plain_post_leaves_it_data() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, deleted) = network(&sandbox, &emulator);
    run(&sandbox, &emulator.url, &["remove", "1", "0"]).success();
    // The copy's deleted list now starts with the item removed ("demo item d").
    run(&sandbox, &emulator.url, &["restore", "1", "0"])
        .success()
        .stdout_is("restore 1 index 0: ok\n")
        .stderr_lacks("gone for good")
        .stderr_is("note: a restore changes only the launcher's copy; the removal of the item it restored never reached the network, so it is data there still, and a plain `safe-ad post 1` leaves it so\n");
    run(&sandbox, &emulator.url, &["post", "1"]).success();
    assert_eq!(network(&sandbox, &emulator), (data, deleted));
}

/// `purge --save post` of an item whose removal the network already has (demo handle 1 is in
/// sync): one save, as the removal needs none (on the code before, two: the first changed
/// nothing but the version). The network then holds the item in neither list.
#[test]
fn purge_with_save_post_of_a_saved_removal_saves_once() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, deleted) = network(&sandbox, &emulator);
    run(&sandbox, &emulator.url, &["status", "1"]).success();
    let from = emulator.requests().len();
    run(
        &sandbox,
        &emulator.url,
        &["purge", "--save", "post", "1", "--data-id", &deleted[0]],
    )
    .success()
    .stdout_is("purge 1 index 0: ok\npost 1: ok, saved version 2\n");
    let posts = (emulator.requests()[from..].iter())
        .filter(|line| line.starts_with("POST "))
        .count();
    assert_eq!(posts, 1, "{:#?}", &emulator.requests()[from..]);
    assert_eq!(
        network(&sandbox, &emulator),
        (data, without(&deleted, &[&deleted[0]]))
    );
}

/// `post H && status H` exits 0; an unsaved removal and a stale copy still exit 7.
#[test]
fn post_then_status_exits_0_and_an_unsaved_removal_or_a_stale_copy_exit_7() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, deleted) = network(&sandbox, &emulator);
    run(&sandbox, &emulator.url, &["remove", "1", "0"]).success();
    run(&sandbox, &emulator.url, &["status", "1"]).code(7);
    let script = "safe-ad post 1 && safe-ad status 1";
    let output = sandbox
        .shell("sh", script)
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .env("SAFE_LAUNCHER_TOKEN", TOKEN)
        .run();
    output
        .success()
        .stdout_has("handle 1: saved at version 2; the copy holds no data items since the post (the launcher keeps none); `safe-ad reopen 1` to read them\n");
    // Someone saves through another copy: handle 1 is stale.
    let other = run(&sandbox, &emulator.url, &["reopen", "1"]);
    let other = other.success().stdout().trim().to_owned();
    run(&sandbox, &emulator.url, &["post", &other]).success();
    run(&sandbox, &emulator.url, &["status", "1"])
        .code(7)
        .stdout_has("handle 1: stale: version 2 here, 3 on the network");
    let mut moved = deleted.clone();
    moved.push(data[0].clone());
    moved.sort();
    assert_eq!(network(&sandbox, &emulator), (data[1..].to_vec(), moved));
}

/// `restore --save post`'s plan lists an append for every item (the most that may be sent): for
/// an item whose removal was saved, what the run sends after its reads (the chosen item, the
/// user's key, the network's deleted list) is that plan, in order, the data id it took in place
/// of the plan's `{handleId}`.
#[test]
fn restore_save_post_sends_its_plan_after_the_reads_that_decide_it() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let args = ["restore", "--save", "post", "--re-sign", "1", "1", "0"];
    let mut dry = args.to_vec();
    dry.push("--dry-run");
    let planned: Vec<String> = run(&sandbox, &emulator.url, &dry)
        .success()
        .stderr_has("first reads the network's deleted list (not listed here)")
        .stdout()
        .lines()
        .filter(|line| !line.starts_with("  "))
        .map(|line| line.replacen(&emulator.url, "", 1))
        .collect();
    assert_eq!(planned.len(), 10, "{planned:?}");
    let from = emulator.requests().len();
    run(&sandbox, &emulator.url, &args).success();
    let sent: Vec<String> = emulator.requests()[from..]
        .iter()
        .map(|line| line.rsplit_once(' ').expect("a status").0.to_owned())
        .collect();
    let tail = &sent[sent.len() - planned.len()..];
    for (sent, planned) in tail.iter().zip(&planned) {
        match planned.strip_suffix("{handleId}") {
            Some(start) => assert!(
                sent.starts_with(start) && sent[start.len()..].parse::<u64>().is_ok(),
                "{sent} is not {planned}"
            ),
            None => assert_eq!(sent, planned),
        }
    }
    // The data ids are given back in the order the plan lists: the n-th drop is the n-th
    // append's (on the code before, the newest first).
    let last = |line: &String| line.rsplit('/').next().map(str::to_owned);
    let appends: Vec<_> = tail
        .iter()
        .filter(|line| line.starts_with("PUT /appendable-data/1/"))
        .map(last)
        .collect();
    let drops: Vec<_> = tail
        .iter()
        .filter(|line| line.starts_with("DELETE /data-id/"))
        .map(last)
        .collect();
    assert_eq!((appends.len(), &drops), (2, &appends), "{tail:#?}");
    let (data, deleted) = network(&sandbox, &emulator);
    assert_eq!((data.len(), deleted.len()), (5, 0));
}

/// Whether a request the run sent is the one a plan lists: the same line, but where the plan
/// names a handle an earlier answer gives (`{dataIdHandle}`), any number.
fn sent_as_planned(sent: &str, planned: &str) -> bool {
    let (sent, planned): (Vec<&str>, Vec<&str>) =
        (sent.split('/').collect(), planned.split('/').collect());
    sent.len() == planned.len()
        && sent.iter().zip(&planned).all(|(sent, planned)| {
            sent == planned
                || (planned.starts_with('{')
                    && planned.ends_with('}')
                    && !sent.is_empty()
                    && sent.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// Every other command that offers `--dry-run` and sends more than one request (`create --put`,
/// `open`, `reopen`, `reopen --drop`, `append` of each kind): the plan `--dry-run` prints is
/// what the run sends, in order, as the emulator's journal records it, a handle an answer gives
/// standing for its `{field}`.
#[test]
fn every_multi_request_plan_is_what_the_run_sends() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let file = sandbox.path().join("item.txt");
    std::fs::write(&file, "an immutable item").expect("write the item");
    let file = path_arg(&file).to_owned();
    let new_name = crate::harness::http::b64(&[7; 32]);
    let demo = emulator.demo_name(1);
    let item = crate::harness::http::b64(&[9; 32]);
    let cases: [&[&str]; 8] = [
        &["create", "--put", &new_name],
        &["open", &demo],
        &["reopen", "1"],
        &["append", "1", "--structured", &item],
        &["append", "1", "--immutable", &file],
        &["append", "1", "--appendable", &new_name],
        &[
            "append",
            "1",
            "--immutable",
            &file,
            "--encrypt",
            "symmetric",
        ],
        &["reopen", "--drop", "1"],
    ];
    for args in cases {
        let mut dry = args.to_vec();
        dry.push("--dry-run");
        let planned: Vec<String> = run(&sandbox, &emulator.url, &dry)
            .success()
            .stdout()
            .lines()
            .filter(|line| !line.starts_with("  "))
            .map(|line| line.replacen(&emulator.url, "", 1))
            .collect();
        assert!(planned.len() > 1, "{args:?}: {planned:?}");
        let from = emulator.requests().len();
        run(&sandbox, &emulator.url, args).success();
        let sent: Vec<String> = emulator.requests()[from..]
            .iter()
            .map(|line| line.rsplit_once(' ').expect("a status").0.to_owned())
            .collect();
        assert_eq!(
            sent.len(),
            planned.len(),
            "{args:?}: sent {sent:#?}, planned {planned:#?}"
        );
        for (sent, planned) in sent.iter().zip(&planned) {
            assert!(
                sent_as_planned(sent, planned),
                "{args:?}: sent {sent}, planned {planned}"
            );
        }
    }
}

/// `restore --save post` holds a data id for each item it may append again, across the save,
/// and no command holds more than 8 of a kind: 9 items chosen by selectors (known only from the
/// read that resolves them) are refused with exit 2, a usage error, not the launcher's 4, and
/// nothing is changed. (Nine indexes given are refused before anything is sent: a row of the
/// bad-input table.)
#[test]
fn restore_save_post_of_nine_items_chosen_by_selectors_is_refused_and_changes_nothing() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let url = emulator.url.as_str();
    let name = "c2FmZS1hZCB0ZXN0OiBuaW5lIHJlbW92ZWQgaXRlbXM=";
    let created = run(&sandbox, url, &["create", name, "--put"]);
    let handle = created.success().stdout().trim().to_owned();
    for byte in 0..9u8 {
        let item = crate::harness::http::name(0x40 + byte);
        run(&sandbox, url, &["append", &handle, "--structured", &item]).success();
    }
    let opened = run(&sandbox, url, &["open", name]);
    let handle = opened.success().stdout().trim().to_owned();
    let removed = run(
        &sandbox,
        url,
        &[
            "remove",
            &handle,
            "--kind",
            "structured-data",
            "--save",
            "post",
        ],
    );
    removed.success();
    let opened = run(&sandbox, url, &["open", name]);
    let handle = opened.success().stdout().trim().to_owned();
    let before = lists(&sandbox, url, &handle);
    assert_eq!((before.0.len(), before.1.len()), (0, 9), "{before:?}");
    let sent_before = emulator.requests().len();
    run(
        &sandbox,
        url,
        &["restore", &handle, "--kind", "structured-data", "--save", "post"],
    )
    .code(2)
    .stdout_is("")
    .stderr_has(&format!(
        "safe-ad: error: restore {handle}: `restore --save post` restores at most 8 items at a time, and the selectors chose 9 items; nothing was changed"
    ));
    let sent: Vec<String> = emulator.requests().split_off(sent_before);
    assert!(
        sent.iter()
            .all(|line| line.starts_with("GET ") || line.starts_with("DELETE ")),
        "a change was sent: {sent:?}"
    );
    let opened = run(&sandbox, url, &["open", name]);
    let fresh = opened.success().stdout().trim().to_owned();
    assert_eq!(lists(&sandbox, url, &fresh), before, "the network changed");
}
