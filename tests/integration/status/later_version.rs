//! `status` against a later version of the data: what happened on the network since the copy
//! was taken (issue 43), said as what it was: removed or purged there, or a copy a post emptied.

use super::*;

/// The data ids of `handle`'s lists (data, deleted), as `show --json` gives them.
fn data_ids(sandbox: &Sandbox, url: &str, handle: &str) -> (Vec<String>, Vec<String>) {
    let output = run(sandbox, url, &["show", "--json", handle]);
    let object = output.success().json_lines().remove(0);
    let ids = |list: &Value| -> Vec<String> {
        (list.as_array().expect("a list").iter())
            .map(|item| item["data_id"].as_str().expect("a data id").to_owned())
            .collect()
    };
    (ids(&object["data"]), ids(&object["deleted_data"]))
}

/// The network's lists for demo handle 1's data, through a fresh handle (`open NAME`), dropped
/// again.
fn network_lists(sandbox: &Sandbox, emulator: &Emulator) -> (Vec<String>, Vec<String>) {
    let opened = run(sandbox, &emulator.url, &["open", &emulator.demo_name(1)]);
    let fresh = opened.success().stdout().trim().to_owned();
    let lists = data_ids(sandbox, &emulator.url, &fresh);
    run(sandbox, &emulator.url, &["drop", &fresh]).success();
    lists
}

/// The data ids of a list of items in a `status --json` object.
fn ids_of(items: &Value) -> Vec<String> {
    (items.as_array().expect("a list of items").iter())
        .map(|item| item["data_id"].as_str().expect("a data id").to_owned())
        .collect()
}

/// Two copies of one data. The other removes "demo item d" and saves; mine removes "demo item
/// e", and its post fails (-25). `status` of mine says d was removed on the network since the
/// copy was taken and e is its own removal; on the code before it called d "restored", which
/// nobody did. Then the other purges "demo item g" and saves: mine says g was purged there (on
/// the code before: removed in the copy, "a save deletes them"). The network, read through a
/// fresh handle, holds what the words say.
#[test]
fn a_stale_copy_says_what_was_removed_and_purged_on_the_network_since() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let reopen = || {
        let output = run(&sandbox, &emulator.url, &["reopen", "1"]);
        output.success().stdout().trim().to_owned()
    };
    let (mine, other) = (reopen(), reopen());
    // Data 0 is "demo item d", data 1 "demo item e"; deleted 0 "demo item g", 1 "demo item h".
    let (data, deleted) = data_ids(&sandbox, &emulator.url, &mine);
    let (d, e, g) = (&data[0], &data[1], &deleted[0]);
    run(
        &sandbox,
        &emulator.url,
        &["remove", "--save", "post", &other, "0"],
    )
    .success();
    run(&sandbox, &emulator.url, &["drop", &other]).success();
    run(&sandbox, &emulator.url, &["remove", &mine, "1"]).success();
    run(&sandbox, &emulator.url, &["post", &mine])
        .code(4)
        .stderr_has("errorCode -25");
    let output = run(&sandbox, &emulator.url, &["status", &mine]);
    output
        .code(7)
        .stdout_has(&format!("handle {mine}: stale: version 1 here, 2 on the network"))
        .stdout_has("  removed on the network since the copy was taken (")
        .stdout_has("    data 0: structured-data ZGVtbyBpdGVtIGQuLi4uLi4uLi4uLi4uLi4uLi4uLi4=, type tag 500, version 0, signed by you: \"demo item d\"\n")
        .stdout_has("  against the network's later version: removed (")
        .check(
            !output.stdout().contains("restored ("),
            "nobody restored an item",
        );
    let object = status_json(&sandbox, &emulator.url, &mine, 7);
    assert_eq!(ids_of(&object["since_copy"]["removed"]), vec![d.clone()]);
    assert_eq!(ids_of(&object["unsaved"]["removed"]), vec![e.clone()]);
    assert_eq!(object["unsaved"]["restored"], serde_json::json!([]));
    // The other purges g (its removal saved long ago) and saves. Mine's deleted list is e, g, h.
    let other = reopen();
    run(
        &sandbox,
        &emulator.url,
        &["purge", "--save", "post", &other, "--data-id", g],
    )
    .success();
    run(&sandbox, &emulator.url, &["drop", &other]).success();
    let output = run(&sandbox, &emulator.url, &["status", &mine]);
    output
        .code(7)
        .stdout_has(&format!("handle {mine}: stale: version 1 here, "))
        .stdout_has("  purged on the network since the copy was taken (")
        .stdout_has("    deleted 1: structured-data ZGVtbyBpdGVtIGcuLi4uLi4uLi4uLi4uLi4uLi4uLi4=, type tag 500, version 0, signed by you: \"demo item g\"\n");
    let object = status_json(&sandbox, &emulator.url, &mine, 7);
    assert_eq!(ids_of(&object["since_copy"]["purged"]), vec![g.clone()]);
    assert_eq!(ids_of(&object["since_copy"]["removed"]), vec![d.clone()]);
    assert_eq!(ids_of(&object["unsaved"]["removed"]), vec![e.clone()]);
    // The network: d deleted, g in neither list, e still data.
    let (net_data, net_deleted) = network_lists(&sandbox, &emulator);
    assert!(
        net_deleted.contains(d) && !net_data.contains(d),
        "d: {net_data:?} {net_deleted:?}"
    );
    assert!(
        !net_deleted.contains(g) && !net_data.contains(g),
        "g: {net_data:?} {net_deleted:?}"
    );
    assert!(net_data.contains(e), "e: {net_data:?}");
    run(&sandbox, &emulator.url, &["drop", &mine]).success();
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

/// `remove`, `post`, `restore` on one copy: the copy is one a post emptied, and says so; the
/// network's items it lacks are not called new, appended or purged (on the code before they
/// were "appended since the copy was taken, or removed and purged", and "the new items").
#[test]
fn a_copy_a_post_emptied_and_that_restored_since_is_said_to_be_that() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let (data, _) = data_ids(&sandbox, &emulator.url, "1");
    run(&sandbox, &emulator.url, &["remove", "1", "0"]).success();
    run(&sandbox, &emulator.url, &["post", "1"]).success();
    // The deleted list is d, g, h: "demo item d" is deleted 0.
    run(&sandbox, &emulator.url, &["restore", "1", "0"]).success();
    let output = run(&sandbox, &emulator.url, &["status", "1"]);
    output
        .code(7)
        .stdout_has("handle 1: not in sync: version 2 here and on the network\n")
        .stdout_has("  the copy holds none of the network's 2 data items: a post left the launcher's copy so\n")
        .stdout_has("  not saved: restored (")
        .stdout_has("  on the network, not in the copy (left out of it by a post, or appended since):\n")
        .stdout_has("  get the network's items in a handle with: safe-ad reopen 1\n")
        .check(
            !output.stdout().contains("new items") && !output.stdout().contains("removed and purged"),
            "the items a post left out of the copy are neither new nor purged",
        );
    let object = status_json(&sandbox, &emulator.url, "1", 7);
    assert_eq!(
        object["unsaved"]["emptied_by_post"]["network_data_length"],
        2
    );
    assert_eq!(
        ids_of(&object["unsaved"]["restored"]),
        vec![data[0].clone()]
    );
    assert_eq!(ids_of(&object["new_on_network"]), data[1..].to_vec());
    // The network: the post removed d; e and the appendable data are data there.
    let (net_data, net_deleted) = network_lists(&sandbox, &emulator);
    assert_eq!(net_data, data[1..].to_vec());
    assert!(net_deleted.contains(&data[0]), "{net_deleted:?}");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}
