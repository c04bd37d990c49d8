//! Which data `status` names: from the network's bytes with no request more, or, for data never
//! saved, from the copy.

use super::*;

/// `create` (with `--put` and `--private` as asked): the new handle, and the name it says on
/// stderr.
fn created(sandbox: &Sandbox, url: &str, args: &[&str]) -> (String, String) {
    let mut all = vec!["create"];
    all.extend_from_slice(args);
    let output = run(sandbox, url, &all);
    let handle = output.success().stdout().trim().to_owned();
    let name = output
        .stderr()
        .split_once(", name ")
        .and_then(|(_, rest)| rest.split_once(','))
        .map(|(name, _)| name.to_owned())
        .expect("create says the name on stderr");
    (handle, name)
}

#[test]
fn status_names_the_data_from_the_networks_bytes_with_no_request_more() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let (handle, name) = created(&sandbox, &emulator.url, &["--put", "--private"]);
    let held = emulator.live_handles(&log);
    let before = emulator.requests().len();
    let output = run(&sandbox, &emulator.url, &["status", &handle]);
    let stdout = output.success().stdout();
    output.check(
        stdout.lines().nth(1) == Some(&format!("  name {name}, private, owner you")),
        format!("the line under the header names the data: name {name}, private, owner you"),
    );
    // The network's bytes, which the comparison reads, say it: the copy's are not read.
    let sent = emulator.requests();
    let serialised: Vec<&String> = sent[before..]
        .iter()
        .filter(|line| line.starts_with("GET /appendable-data/serialise/"))
        .collect();
    output.check(
        serialised.len() == 1
            && *serialised[0] != format!("GET /appendable-data/serialise/{handle} 200"),
        format!("one read of serialised bytes, of the fresh handle: {serialised:?}"),
    );
    let object = status_json(&sandbox, &emulator.url, &handle, 0);
    assert_eq!(object["name"], name, "{object}");
    assert_eq!(object["private"], true, "{object}");
    assert_eq!(
        object["owners"].as_array().map(Vec::len),
        Some(1),
        "{object}"
    );
    assert_eq!(emulator.live_handles(&log), held, "handles left behind");
}

#[test]
fn status_of_data_never_saved_names_it_from_the_copy() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let (handle, name) = created(&sandbox, &emulator.url, &[]);
    let held = emulator.live_handles(&log);
    let output = run(&sandbox, &emulator.url, &["status", &handle]);
    let stdout = output.code(7).stdout();
    output.check(
        stdout.lines().nth(1) == Some(&format!("  name {name}, public, owner you")),
        format!("the line under the header names the data: name {name}, public, owner you"),
    );
    let object = status_json(&sandbox, &emulator.url, &handle, 7);
    assert_eq!(object["never_saved"], true, "{object}");
    assert_eq!(object["name"], name, "{object}");
    assert_eq!(object["private"], false, "{object}");
    assert_eq!(emulator.live_handles(&log), held, "handles left behind");
}
