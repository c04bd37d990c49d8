//! Choosing items by what they are, against the emulator binary: `remove`, `restore` and `purge`
//! with `--signed-by` (you, others, a fingerprint), `--kind`, `--data-id`, positions with
//! selectors, an empty choice (a note, or exit 4 with `--require-match`), `--dry-run` (it sends
//! nothing, not even a read), and `--save post` (saved once). Which item moved is checked by its data id,
//! as `show --json` gives it; what was sent, by the emulator's journal.

use serde_json::Value;

use crate::harness::emulator::*;
use crate::harness::*;

fn run(sandbox: &Sandbox, url: &str, args: &[&str]) -> Output {
    sandbox.safe_ad().launcher(url).args(args).run()
}

/// `show --json` of `handle`: the data ids and signers of each list.
fn items(sandbox: &Sandbox, url: &str, handle: &str) -> (Vec<Value>, Vec<Value>) {
    let output = run(sandbox, url, &["show", "--json", handle]);
    let object = output.success().json_lines().remove(0);
    let list = |key: &str| object[key].as_array().expect("list").clone();
    (list("data"), list("deleted_data"))
}

fn ids(items: &[Value]) -> Vec<String> {
    let mut ids: Vec<String> = items
        .iter()
        .map(|item| item["data_id"].as_str().expect("data id").to_string())
        .collect();
    ids.sort();
    ids
}

/// The requests of the journal after `from` that change something (not a read, not a lease
/// given back).
fn changes(emulator: &Emulator, from: usize) -> Vec<String> {
    emulator
        .requests()
        .split_off(from)
        .into_iter()
        .filter(|line| {
            line.starts_with("POST /appendable-data/")
                || line.starts_with("PUT /appendable-data/")
                || line.starts_with("DELETE /appendable-data/1/")
                || line.starts_with("DELETE /appendable-data/deleted-data/")
                || line.starts_with("DELETE /appendable-data/clear")
        })
        .collect()
}

#[test]
fn signed_by_others_you_and_a_fingerprint_choose_those_items() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, deleted) = items(&sandbox, &emulator.url, "1");
    let other = data[1]["signer"].as_str().expect("signer").to_string();
    assert_eq!(data[1]["signer_is_you"], false);
    let from = emulator.requests().len();
    run(
        &sandbox,
        &emulator.url,
        &["remove", "1", "--signed-by", "others"],
    )
    .success()
    .stdout_is("remove 1 index 1: ok\n")
    .stderr_has("safe-ad: removing 1 data 1: ")
    .stderr_has(&format!(", signed by {other}\n"));
    assert_eq!(
        changes(&emulator, from),
        ["DELETE /appendable-data/1/1 200"]
    );
    // Restore what that key signed, by its fingerprint (upper case is the same key).
    let from = emulator.requests().len();
    run(
        &sandbox,
        &emulator.url,
        &["restore", "1", "--signed-by", &other.to_uppercase()],
    )
    .success();
    let restored = changes(&emulator, from);
    assert_eq!(
        restored.len(),
        2,
        "two deleted items signed by {other}: {restored:?}"
    );
    let (data_after, deleted_after) = items(&sandbox, &emulator.url, "1");
    let signed_by_other = |list: &[Value]| {
        list.iter()
            .filter(|item| item["signer"] == other.as_str())
            .count()
    };
    assert_eq!(signed_by_other(&deleted_after), 0);
    assert_eq!(signed_by_other(&data_after), 2);
    assert_eq!(
        data_after.len() + deleted_after.len(),
        data.len() + deleted.len()
    );
    // You: positions with a selector are only those positions.
    let from = emulator.requests().len();
    run(
        &sandbox,
        &emulator.url,
        &["purge", "1", "0", "--signed-by", "you"],
    )
    .success()
    // The chosen item's signer written as `show` writes it: `you`, not the fingerprint.
    .stderr_has("safe-ad: purging 1 deleted 0: ")
    .stderr_has(", signed by you\n");
    assert_eq!(
        changes(&emulator, from),
        ["DELETE /appendable-data/deleted-data/1/0 200"]
    );
    // Chosen by your own fingerprint, the signer is still written `you`.
    let mine = run(&sandbox, &emulator.url, &["auth", "whoami"]);
    let mine = mine.success().stdout().trim().to_owned();
    run(
        &sandbox,
        &emulator.url,
        &["remove", "1", "--signed-by", &mine],
    )
    .success()
    .stderr_has(", signed by you\n")
    .stderr_lacks(&format!("signed by {mine}"));
    run(
        &sandbox,
        &emulator.url,
        &["remove", "1", "--signed-by", "someone"],
    )
    .code(2)
    .stderr_has("safe-ad: error: invalid --signed-by 'someone' for remove")
    .stderr_has("hint: give a signer's fingerprint as `safe-ad show` gives it (16 hex digits), `you` or `others`; nothing was sent");
}

#[test]
fn kind_and_data_id_choose_those_items_and_save_post_saves_once() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, deleted) = items(&sandbox, &emulator.url, "1");
    assert_eq!(data[2]["kind"], "appendable-data");
    let from = emulator.requests().len();
    run(
        &sandbox,
        &emulator.url,
        &["remove", "1", "--kind", "structured-data", "--save", "post"],
    )
    .success()
    .stdout_is("remove 1 index 1: ok\nremove 1 index 0: ok\npost 1: ok, saved version 2\n");
    assert_eq!(
        changes(&emulator, from),
        [
            "DELETE /appendable-data/1/1 200",
            "DELETE /appendable-data/1/0 200",
            "POST /appendable-data/1 200"
        ]
    );
    assert_eq!(
        emulator.network(1),
        (2, 1, 4),
        "saved once, with both removals"
    );
    // A fresh handle; the one item left is the appendable data, chosen by its data id.
    let fresh = emulator.fresh_handle(1).to_string();
    let (now, _) = items(&sandbox, &emulator.url, &fresh);
    assert_eq!(ids(&now), ids(&data[2..]));
    let data_id = data[2]["data_id"].as_str().expect("data id");
    run(
        &sandbox,
        &emulator.url,
        &["remove", &fresh, "--data-id", data_id],
    )
    .success()
    .stdout_is(&format!("remove {fresh} index 0: ok\n"));
    let (now, gone) = items(&sandbox, &emulator.url, &fresh);
    assert!(now.is_empty());
    let mut all = deleted.clone();
    all.extend(data.iter().cloned());
    assert_eq!(ids(&gone), ids(&all));
    run(&sandbox, &emulator.url, &["remove", "1", "--kind", "blob"])
        .code(2)
        .stderr_has("invalid value 'blob' for '--kind <KIND>'");
}

#[test]
fn an_empty_choice_is_a_note_or_exit_4_with_require_match_and_changes_nothing() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let before = items(&sandbox, &emulator.url, "1");
    let from = emulator.requests().len();
    run(
        &sandbox,
        &emulator.url,
        &["purge", "1", "--kind", "immutable-data", "--save", "post"],
    )
    .success()
    .stdout_is("")
    .stderr_is("note: purge 1: no item matched; nothing was changed; see what the items are with `safe-ad show 1`\n");
    run(
        &sandbox,
        &emulator.url,
        &["remove", "1", "--kind", "immutable-data", "--require-match"],
    )
    .code(4)
    .stdout_is("")
    .stderr_is("safe-ad: error: remove 1: no item matched; nothing was changed\nhint: see what the items are with `safe-ad show 1`\n");
    assert!(
        changes(&emulator, from).is_empty(),
        "nothing changed, nothing saved"
    );
    assert_eq!(items(&sandbox, &emulator.url, "1"), before);
}

#[test]
fn a_dry_run_with_selectors_sends_nothing_and_says_the_choice_is_made_when_run() {
    // A dry run sends nothing, not even the read that would resolve the selectors.
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let from = emulator.requests().len();
    let output = run(
        &sandbox,
        &emulator.url,
        &[
            "remove",
            "1",
            "--signed-by",
            "you",
            "--dry-run",
            "--save",
            "post",
        ],
    );
    let lines: Vec<&str> = output
        .success()
        .stderr_has("--dry-run sends nothing, so which items match is not known here: remove 1 first reads the handle")
        .stderr_has("`safe-ad show 1` with the same selectors lists the items they match now")
        .stderr_lacks("would remove")
        .stdout()
        .lines()
        .filter(|line| !line.starts_with("  "))
        .collect();
    assert_eq!(
        lines,
        [
            format!("POST {}/appendable-data/1", emulator.url),
            format!("GET {}/appendable-data/metadata/1", emulator.url),
        ]
    );
    let requests = emulator.requests();
    assert_eq!(
        requests.len(),
        from,
        "a dry run sent: {:?}",
        &requests[from..]
    );
}

/// docs/handles.md's "Debugging a handle" and the man pages' ITEM ORDER: the worked example, run, moves
/// the items as they say.
#[test]
fn the_item_order_example_moves_the_items_as_the_docs_say() {
    let section = doc_section("docs/handles.md", "Debugging a handle");
    for line in [
        "h=$(safe-ad reopen 1)",
        "safe-ad remove \"$h\" 1",
        "safe-ad show \"$h\"",
    ] {
        assert!(
            section.contains(line),
            "docs/handles.md's example lacks {line}"
        );
    }
    let page = std::fs::read_to_string(repo_root().join("man/safe-ad-remove.1")).expect("page");
    assert!(page.contains("ITEM ORDER") && page.contains("remove \"$h\" 1"));
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let fresh = run(&sandbox, &emulator.url, &["reopen", "1"]);
    let h = fresh.success().stdout().trim().to_string();
    let (data, deleted) = items(&sandbox, &emulator.url, &h);
    assert_eq!(data[1]["preview"], "9 bytes, not text: 000102feff1b5b324a");
    assert_eq!(deleted[0]["preview"], "\"demo item g\"");
    run(&sandbox, &emulator.url, &["remove", &h, "1"]).success();
    let (data_after, deleted_after) = items(&sandbox, &emulator.url, &h);
    let id = |item: &Value| item["data_id"].clone();
    // The appendable data is data 1 now (it was data 2).
    assert_eq!(id(&data_after[1]), id(&data[2]));
    assert_eq!(data_after[1]["kind"], "appendable-data");
    // "demo item e" is deleted 0, before g and h, which moved to 1 and 2.
    assert_eq!(id(&deleted_after[0]), id(&data[1]));
    assert_eq!(id(&deleted_after[1]), id(&deleted[0]));
    assert_eq!(id(&deleted_after[2]), id(&deleted[1]));
}

#[test]
fn an_index_range_that_holds_no_item_says_so() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    run(&sandbox, &emulator.url, &["show", "--index", "10..", "1"])
        .success()
        .stdout_has("; showing indexes 10..\n")
        .stdout_has("\n  no item at indexes 10..: the data list has 3, the deleted list 2\n");
    let some = run(&sandbox, &emulator.url, &["show", "--index", "2..4", "1"]);
    some.success().check(
        !some.stdout().contains("no item at indexes"),
        "a range with items",
    );
}

/// Two selector removals in a row, each saved: after the first post the launcher's copy holds
/// no data items, so the second matches nothing in it while the network holds the item it
/// names. Never a silent exit 0 (issue 43): it reads the network and exits 7 naming what it
/// would take there and the two ways on (the name, or a fresh handle), with `--require-match`
/// too; and the network holds what the first left.
#[test]
fn after_a_post_a_selector_that_matches_only_on_the_network_exits_7_naming_it() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, deleted) = items(&sandbox, &emulator.url, "1");
    let others = data[1]["data_id"].as_str().expect("data id").to_owned();
    run(
        &sandbox,
        &emulator.url,
        &["remove", "1", "--data-id", &others, "--save", "post"],
    )
    .success()
    .stdout_is("remove 1 index 1: ok\npost 1: ok, saved version 2\n");
    let mine = data[0]["data_id"].as_str().expect("data id").to_owned();
    let said = "remove 1: handle 1's copy holds no data items, but the network's data holds 2, and remove would take 1 of them there (data 0); nothing was changed";
    let way_on = "a post leaves the launcher's copy without data items: give the data's name in place of the handle (a command given a name works on the network's data), or run `remove` on the handle `safe-ad reopen 1` prints";
    for require in [&[][..], &["--require-match"][..]] {
        let mut args = vec!["remove", "1", "--data-id", &mine, "--save", "post"];
        args.extend(require);
        run(&sandbox, &emulator.url, &args)
            .code(7)
            .stdout_is("")
            .stderr_is(&format!("safe-ad: error: {said}\nhint: {way_on}\n"));
    }
    // The network, through a fresh handle: the first removal only.
    let fresh = run(&sandbox, &emulator.url, &["open", &emulator.demo_name(1)]);
    let fresh = fresh.success().stdout().trim().to_owned();
    let (now, gone) = items(&sandbox, &emulator.url, &fresh);
    assert_eq!(ids(&now), ids(&[data[0].clone(), data[2].clone()]));
    let mut all = deleted.clone();
    all.push(data[1].clone());
    assert_eq!(ids(&gone), ids(&all));
}

/// `show H --signed-by others` lists exactly the data items `remove H --signed-by others` then
/// moves (and the deleted items `restore` or `purge` would).
#[test]
fn show_with_selectors_lists_what_remove_then_moves() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let output = run(
        &sandbox,
        &emulator.url,
        &["show", "--json", "1", "--signed-by", "others"],
    );
    let object = output.success().json_lines().remove(0);
    let previewed = object["data"].as_array().expect("data").clone();
    assert!(!previewed.is_empty());
    assert!(previewed.iter().all(|item| item["signer_is_you"] == false));
    let (data, deleted) = items(&sandbox, &emulator.url, "1");
    assert!(previewed.len() < data.len(), "the selector left some out");
    run(
        &sandbox,
        &emulator.url,
        &["remove", "1", "--signed-by", "others", "--save", "post"],
    )
    .success();
    let fresh = run(&sandbox, &emulator.url, &["open", &emulator.demo_name(1)]);
    let fresh = fresh.success().stdout().trim().to_owned();
    let (now, gone) = items(&sandbox, &emulator.url, &fresh);
    let kept: Vec<Value> = data
        .iter()
        .filter(|item| !ids(&previewed).contains(&item["data_id"].as_str().unwrap().to_string()))
        .cloned()
        .collect();
    assert_eq!(ids(&now), ids(&kept));
    let mut moved = deleted.clone();
    moved.extend(previewed.iter().cloned());
    assert_eq!(ids(&gone), ids(&moved));
    // Text too: `--signed-by you` lists only the user's items.
    let mine = run(
        &sandbox,
        &emulator.url,
        &["show", &fresh, "--signed-by", "you"],
    );
    let mine = mine.success();
    mine.stdout_has("signed by you").check(
        !mine.stdout().contains("signed by e303"),
        "an item someone else signed",
    );
}

/// `--data-id` given twice chooses either; a data id written in hex (as the error text offers)
/// matches as its base64 does.
#[test]
fn data_ids_repeated_and_in_hex_choose_those_items() {
    use base64::Engine as _;
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (data, _) = items(&sandbox, &emulator.url, "1");
    let first = data[0]["data_id"].as_str().expect("data id").to_owned();
    let third = base64::engine::general_purpose::STANDARD
        .decode(data[2]["data_id"].as_str().expect("data id"))
        .expect("base64");
    let third_hex: String = third.iter().map(|byte| format!("{byte:02x}")).collect();
    run(
        &sandbox,
        &emulator.url,
        &[
            "remove",
            "1",
            "--data-id",
            &first,
            "--data-id",
            &third_hex,
            "--save",
            "post",
        ],
    )
    .success()
    .stdout_is("remove 1 index 2: ok\nremove 1 index 0: ok\npost 1: ok, saved version 2\n");
    let fresh = run(&sandbox, &emulator.url, &["open", &emulator.demo_name(1)]);
    let fresh = fresh.success().stdout().trim().to_owned();
    let (now, _) = items(&sandbox, &emulator.url, &fresh);
    assert_eq!(ids(&now), ids(&data[1..2]));
}

/// A curl script cannot choose items: `--curl` with selectors is a usage error, nothing on
/// stdout, nothing sent (it used to print DELETEs at the positions given, and a save).
#[test]
fn curl_with_selectors_is_refused_and_points_at_show() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let from = emulator.requests().len();
    run(
        &sandbox,
        &emulator.url,
        &[
            "remove",
            "1",
            "1",
            "0",
            "--signed-by",
            "you",
            "--save",
            "post",
            "--curl",
        ],
    )
    .code(2)
    .stdout_is("")
    .stderr_has("safe-ad: error: --curl cannot choose items by what they are")
    .stderr_has("`safe-ad show 1` and the same selectors");
    assert_eq!(emulator.requests().len(), from, "something was sent");
}

/// A selector over a fresh copy of data that holds no data items at version 1 (a post through
/// another handle made that version): nothing was posted through this one, so the note does not
/// say a post emptied it (on the code before: "after a post the launcher keeps none").
#[test]
fn no_match_in_a_fresh_copy_with_no_items_is_not_said_to_be_one_a_post_emptied() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let created = run(&sandbox, &emulator.url, &["create", "--put"]);
    let first = created.success().stdout().trim().to_owned();
    run(&sandbox, &emulator.url, &["post", &first]).success();
    let fresh = run(&sandbox, &emulator.url, &["reopen", "--drop", &first]);
    let fresh = fresh.success().stdout().trim().to_owned();
    run(
        &sandbox,
        &emulator.url,
        &["remove", &fresh, "--kind", "structured-data"],
    )
    .success()
    .stdout_is("")
    .stderr_lacks("after a post the launcher keeps none")
    .stderr_is(&format!("note: remove {fresh}: no item matched: handle {fresh}'s copy holds no data items (if a post made this copy, the network may hold items it does not show: the launcher keeps none after a post); nothing was changed; get a handle that shows the network's items with `safe-ad reopen {fresh}`, and run `remove` on the handle it prints\n"));
    run(&sandbox, &emulator.url, &["drop", &fresh]).success();
}
