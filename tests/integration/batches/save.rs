//! `--save`: a clear followed by the save that makes it reach the network (POST or PUT), what
//! the emulator's network holds afterwards, and a failed clear or save named as the step that failed.

use super::*;

// ---- --save -----------------------------------------------------------------------------------

#[test]
fn clear_data_save_post_reaches_the_network() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    assert_eq!(emulator.network(1), (1, 3, 2));
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["clear-data", "--save", "post", "1"])
        .run();
    output.code(0);
    output.stdout_is("clear-data 1: ok\npost 1: ok, saved version 2\n");
    assert!(
        !output.stderr().contains("note: a clear"),
        "no reminder to save after --save: {}",
        output.stderr()
    );
    // The copy was cleared before the save: the post left no data items out of it.
    assert!(
        !output.stderr().contains("copy in handle 1"),
        "no note of items left out of a cleared copy: {}",
        output.stderr()
    );
    assert_eq!(emulator.network(1), (2, 0, 5));
}

#[test]
fn clear_deleted_data_save_post_reaches_the_network() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args([
            "--json",
            "--verbose",
            "clear-deleted-data",
            "1",
            "--save",
            "post",
        ])
        .run();
    output.code(0);
    let result = output.json_lines();
    assert_eq!(result.len(), 1, "one result for the one handle: {result:?}");
    assert_eq!(result[0]["saved_version"], json!(3));
    assert_eq!(result[0]["version"], json!(3));
    let lines = output.json_requests();
    let steps: Vec<(&Value, &Value)> = lines
        .iter()
        .map(|line| (&line["operation"], &line["ok"]))
        .collect();
    // Two saves (issue 30): the first sends any removal not saved yet, so that the purge and
    // the save after it take the items off the network's deleted list without leaving one in
    // its data (`saving`'s table). Each is a step of its own.
    assert_eq!(
        steps,
        [
            (&json!("post"), &json!(true)),
            (&json!("clear-deleted-data"), &json!(true)),
            (&json!("post"), &json!(true))
        ]
    );
    assert_eq!(lines[0]["saved_version"], json!(2));
    assert_eq!(lines[2]["saved_version"], json!(3));
    assert_eq!(emulator.network(1), (3, 3, 0));
}

/// Removed and then cleared from the deleted list before the removal was saved: a plain post
/// after that would leave the items as data (the deleted list it sends no longer names them);
/// `clear-deleted-data --save post` saves the removal first, so the network holds what the
/// words say, read through a fresh handle. On the old code (one save) the network kept 3 data
/// items.
#[test]
fn clear_data_then_clear_deleted_data_save_post_empties_both_lists_on_the_network() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let run = |args: &[&str]| sandbox.safe_ad().launcher(&emulator.url).args(args).run();
    run(&["clear-data", "1"]).success();
    let output = run(&["clear-deleted-data", "--save", "post", "1"]);
    output.success().stdout_is(
        "post 1: ok, saved version 2\nclear-deleted-data 1: ok\npost 1: ok, saved version 3\n",
    );
    let fresh = run(&["open", &emulator.demo_name(1)]);
    let fresh = fresh.success().stdout().trim().to_owned();
    run(&["metadata", &fresh])
        .success()
        .stdout_has(&format!("{fresh}: version 3, data 0, deleted 0,"));
}

/// Without `--save post`, the note says before the change what a plain post would leave.
#[test]
fn clear_data_then_clear_deleted_data_then_post_is_said_before_it_happens() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let run = |args: &[&str]| sandbox.safe_ad().launcher(&emulator.url).args(args).run();
    run(&["clear-data", "1"]).success();
    run(&["clear-deleted-data", "1"]).success().stderr_has(
        "note: clear-deleted-data takes items off the copy's deleted list; a plain `safe-ad post 1` then deletes for good only those whose removal was saved before: an item whose removal is not saved yet stays data on the network",
    );
    run(&["post", "1"]).success();
    // As said: the three data items the removal named are data again, the deleted list empty.
    let fresh = run(&["open", &emulator.demo_name(1)]);
    let fresh = fresh.success().stdout().trim().to_owned();
    run(&["metadata", &fresh])
        .success()
        .stdout_has(&format!("{fresh}: version 2, data 3, deleted 0,"));
}

#[test]
fn clear_data_save_put_saves_new_data() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["clear-data", "--save", "put", "0"])
        .run();
    output.code(0);
    output.stdout_is("clear-data 0: ok\nput 0: ok, saved version 0\n");
    let (_, data, deleted) = emulator.network(0);
    assert_eq!((data, deleted), (0, 3));
}

#[test]
fn a_failed_clear_is_not_followed_by_its_save() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["--json", "--verbose", "clear-data", "--save", "post", "999"])
        .run();
    output.code(4);
    let result = output.json_lines();
    assert_eq!(result.len(), 1, "{result:?}");
    assert_failure(&result[0], "rejected", Some(400), Some(-1515), 4);
    let lines = output.json_requests();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["operation"], json!("clear-data"));
    assert_failure(&lines[0], "rejected", Some(400), Some(-1515), 4);
    assert_eq!(
        emulator.requests(),
        ["DELETE /appendable-data/clear-data/999 400"]
    );

    let plain = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["clear-data", "--save", "post", "999"])
        .run();
    plain.code(4);
    plain.stdout_is("");
    plain.stderr_has("safe-ad: error: clear-data 999:");
    plain.stderr_lacks("post 999");
}

#[test]
fn a_failed_save_after_a_successful_clear_says_which_step_failed() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    // Handle 1 is on the network already: the clear works, the PUT is -23.
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["clear-data", "--save", "put", "1"])
        .run();
    output.code(4);
    output.stdout_is("clear-data 1: ok\n");
    output.stderr_has("safe-ad: error: put 1:");
    output.stderr_has("errorCode -23");
    assert_eq!(local(&sandbox, &emulator, 1), (1, 0, 5));
    assert_eq!(emulator.network(1), (1, 3, 2));

    // Handle 0 is not on the network: the clear works, the POST is -22 (404).
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args([
            "--json",
            "--verbose",
            "clear-deleted-data",
            "--save",
            "post",
            "0",
        ])
        .run();
    output.code(4);
    // The save before the clear (issue 30) fails first, and nothing is cleared.
    let lines = output.json_requests();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["operation"], json!("post"));
    assert_eq!(lines[0]["method"], json!("POST"));
    assert_failure(&lines[0], "rejected", Some(404), Some(-22), 4);
    assert_eq!(local(&sandbox, &emulator, 0), (0, 3, 0));
}
