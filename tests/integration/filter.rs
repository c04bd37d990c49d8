//! `safe-ad filter` end to end, against the emulator binary: a key added and taken out (by its
//! bytes, its fingerprint, as an item's signer), the type switched once and then said to be so
//! already, each read back on the network through a fresh handle of its own; a handle's change
//! that stays in its copy until a save; dry runs and curl lines that send nothing (and curl
//! lines that do what the run does); bad keys refused before anything is sent; and every
//! sign-key handle given back, also when Ctrl-C comes in the middle.

use serde_json::Value;

use crate::harness::emulator::*;
use crate::harness::relay::Relay;
use crate::harness::*;
use crate::show::{emulator, fingerprint_of, signer_bytes};

/// A key no demo data's filter holds: the bytes 0 to 31.
const NEW_KEY: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

/// The same key, as hex.
const NEW_KEY_HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

/// The launcher's serialised bytes of a 32-byte key (`20 00 00 00 00 00 00 00` + the key).
fn serialised(key: &[u8]) -> Vec<u8> {
    let mut bytes = vec![0x20, 0, 0, 0, 0, 0, 0, 0];
    bytes.extend_from_slice(key);
    bytes
}

/// The fingerprint of [`NEW_KEY`].
fn new_key_fingerprint() -> String {
    fingerprint_of(&serialised(&(0..32).collect::<Vec<u8>>()))
}

/// The fingerprint of the demo filter's key that signed nothing ("a blocked app").
fn blocked_fingerprint() -> String {
    fingerprint_of(&serialised(b"safe-ad emulator: a blocked app."))
}

/// `safe-ad <args>` against `emulator`.
fn run(sandbox: &Sandbox, emulator: &Emulator, args: &[&str]) -> Output {
    sandbox.safe_ad().launcher(&emulator.url).args(args).run()
}

/// What the network holds of the filter of the data named `name`, read through a fresh handle
/// of the test's own (given back, with each sign-key handle): its type, its keys' fingerprints,
/// and the data's version.
fn network_filter(emulator: &Emulator, name: &str) -> (String, Vec<String>, u64) {
    let body = format!(r#"{{"name":"{name}"}}"#);
    let data_id = emulator
        .http("POST", "/data-id/appendable-data", Some(TOKEN), Some(&body))
        .handle();
    let fetched = emulator.http(
        "GET",
        &format!("/appendable-data/handle/{data_id}"),
        Some(TOKEN),
        None,
    );
    emulator
        .http("DELETE", &format!("/data-id/{data_id}"), Some(TOKEN), None)
        .ok();
    assert_eq!(fetched.status, 200, "fetch: {}", fetched.body);
    let handle = fetched.json()["handleId"].as_u64().expect("a fresh handle");
    let metadata = emulator
        .http(
            "GET",
            &format!("/appendable-data/metadata/{handle}"),
            Some(TOKEN),
            None,
        )
        .json();
    let length = metadata["filterLength"].as_u64().expect("filterLength");
    let keys = (0..length)
        .map(|index| {
            let key = emulator
                .http(
                    "GET",
                    &format!("/appendable-data/filter/{handle}/{index}"),
                    Some(TOKEN),
                    None,
                )
                .handle();
            fingerprint_of(&crate::show::key_bytes(emulator, key))
        })
        .collect();
    emulator
        .http(
            "DELETE",
            &format!("/appendable-data/handle/{handle}"),
            Some(TOKEN),
            None,
        )
        .ok();
    let kind = metadata["filterType"]
        .as_str()
        .expect("filterType")
        .to_owned();
    (kind, keys, metadata["version"].as_u64().expect("version"))
}

/// The one JSON result `args` (with `--json`) prints.
fn result(sandbox: &Sandbox, emulator: &Emulator, args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let output = run(sandbox, emulator, &all);
    let lines = output.success().json_lines();
    output.check(lines.len() == 1, "not one JSON result");
    lines.into_iter().next().expect("one result")
}

// ---- by name: the network changes ----------------------------------------------------------

#[test]
fn a_key_added_by_name_is_on_the_network_and_added_again_changes_nothing() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let name = emulator.demo_name(1);
    let new = new_key_fingerprint();
    let before = emulator.live_handles(&log);
    run(&sandbox, &emulator, &["filter", "add", &name, NEW_KEY])
        .success()
        .stdout_has(&format!("filter add {name}: {new}: added\n"))
        .stdout_has(&format!("post {name}: ok, saved version 2\n"));
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
    let (kind, keys, version) = network_filter(&emulator, &name);
    assert_eq!((kind.as_str(), version), ("BlackList", 2));
    assert!(keys.contains(&new), "{keys:?}");
    assert_eq!(keys.len(), 3, "{keys:?}");
    // As safe-ad reads it back by name, through a copy of its own.
    let shown = result(&sandbox, &emulator, &["show", &name]);
    let fingerprints = shown["filter"]["keys"].as_array().expect("keys").clone();
    assert!(fingerprints.contains(&Value::from(new.as_str())), "{shown}");
    let metadata = result(&sandbox, &emulator, &["metadata", &name]);
    assert_eq!(metadata["filterLength"], 3);
    // Again, in hex: in the filter already, so nothing is sent to change it, nor saved.
    let sent = emulator.requests().len();
    let again = run(&sandbox, &emulator, &["filter", "add", &name, NEW_KEY_HEX]);
    again
        .success()
        .stdout_has(&format!(
            "filter add {name}: {new}: in the filter already; nothing to add\n"
        ))
        .stderr_has("the filter is as it was")
        .check(!again.stdout().contains("post "), "it saved");
    let again = &emulator.requests()[sent..];
    assert!(
        !again.iter().any(|request| request.starts_with("PUT ")
            || request.starts_with("POST /appendable-data/")
            || request.starts_with("POST /sign-key/")),
        "{again:?}"
    );
    assert_eq!(network_filter(&emulator, &name).2, 2, "saved again");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

#[test]
fn keys_are_taken_out_by_fingerprint_and_as_an_items_signer() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let name = emulator.demo_name(1);
    let before = emulator.live_handles(&log);
    let blocked = blocked_fingerprint();
    // Demo data item 1 is signed by the other key of the filter.
    let signer = fingerprint_of(&signer_bytes(&emulator, 1, 1, false));
    let (_, keys, _) = network_filter(&emulator, &name);
    assert!(
        keys.contains(&blocked) && keys.contains(&signer),
        "{keys:?}"
    );
    run(
        &sandbox,
        &emulator,
        &["filter", "remove", &name, &blocked.to_uppercase()],
    )
    .success()
    .stdout_has(&format!("filter remove {name}: {blocked}: taken out\n"));
    assert_eq!(
        network_filter(&emulator, &name).1,
        std::slice::from_ref(&signer)
    );
    let removed = result(
        &sandbox,
        &emulator,
        &["filter", "remove", "--signer-of", "1", &name],
    );
    assert_eq!(removed["keys"][0]["fingerprint"], signer.as_str());
    assert_eq!(removed["keys"][0]["signer_of"], 1);
    assert_eq!(removed["keys"][0]["changed"], true);
    assert_eq!(removed["keys"][0]["saved"], true);
    assert_eq!(removed["filterLength"], 0);
    assert_eq!(removed["saved_version"], 3);
    let (kind, keys, version) = network_filter(&emulator, &name);
    assert_eq!((kind.as_str(), keys.len(), version), ("BlackList", 0, 3));
    // A fingerprint no key of the filter has: said, nothing sent to change it, exit 0.
    run(&sandbox, &emulator, &["filter", "remove", &name, &blocked])
        .success()
        .stdout_has("no key in the filter has this fingerprint; nothing to take out");
    assert_eq!(network_filter(&emulator, &name).2, 3);
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

#[test]
fn signer_of_adds_whoever_signed_the_item() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let name = emulator.demo_name(1);
    let before = emulator.live_handles(&log);
    // Demo data item 0 is yours.
    let you = run(&sandbox, &emulator, &["auth", "whoami"]);
    let you = you.success().stdout().trim().to_owned();
    let added = result(
        &sandbox,
        &emulator,
        &["filter", "add", "--signer-of", "0", &name],
    );
    assert_eq!(added["keys"][0]["fingerprint"], you.as_str());
    assert_eq!(added["keys"][0]["changed"], true);
    assert_eq!(added["filter"]["keys"].as_array().map(Vec::len), Some(3));
    assert!(network_filter(&emulator, &name).1.contains(&you));
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

#[test]
fn the_type_is_switched_once_and_then_said_to_be_so_already() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let name = emulator.demo_name(1);
    let before = emulator.live_handles(&log);
    run(
        &sandbox,
        &emulator,
        &["filter", "type", &name, "white-list"],
    )
    .success()
    .stdout_has(&format!(
        "filter type {name}: white-list now (was a black-list)\n"
    ))
    .stderr_has("the black-list's 2 keys went with it");
    let (kind, keys, version) = network_filter(&emulator, &name);
    assert_eq!((kind.as_str(), keys.len(), version), ("WhiteList", 0, 2));
    let sent = emulator.requests().len();
    let again = result(
        &sandbox,
        &emulator,
        &["filter", "type", &name, "white-list"],
    );
    assert_eq!(again["toggled"], false);
    assert_eq!(again["filterType"], "WhiteList");
    assert!(
        !emulator.requests()[sent..]
            .iter()
            .any(|request| request.starts_with("PUT ")
                || request.starts_with("POST /appendable-data/")),
        "the second run changed something: {:?}",
        &emulator.requests()[sent..]
    );
    run(
        &sandbox,
        &emulator,
        &["filter", "type", &name, "white-list"],
    )
    .success()
    .stdout_has(&format!(
        "filter type {name}: a white-list already (no keys); nothing changed\n"
    ));
    assert_eq!(network_filter(&emulator, &name).2, 2);
    // And back: the toggle said, and its result.
    let back = result(
        &sandbox,
        &emulator,
        &["filter", "type", &name, "black-list"],
    );
    assert_eq!(
        (back["toggled"].clone(), back["saved_version"].clone()),
        (true.into(), 3.into())
    );
    assert_eq!(network_filter(&emulator, &name).0, "BlackList");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

#[test]
fn filter_show_says_the_type_and_each_key_with_you_for_yours() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let name = emulator.demo_name(1);
    let key = run(&sandbox, &emulator, &["auth", "whoami", "--key"]);
    let key = key.success().stdout().trim().to_owned();
    run(&sandbox, &emulator, &["filter", "add", &name, &key]).success();
    let before = emulator.live_handles(&log);
    let you = run(&sandbox, &emulator, &["auth", "whoami"]);
    let you = you.success().stdout().trim().to_owned();
    let shown = run(&sandbox, &emulator, &["filter", "show", &name]);
    shown
        .success()
        .stdout_has(&format!(
            "{name}: black-list, 3 keys: these keys may not append, any other may\n"
        ))
        .stdout_has(&format!("  key 0: {you} (you) {key}\n"))
        .stdout_has(&format!("  key 1: {} ", blocked_fingerprint()));
    let object = result(&sandbox, &emulator, &["filter", "show", &name]);
    assert_eq!(object["filter"]["yours"], true);
    assert_eq!(object["filter"]["sign_keys"][0], key.as_str());
    assert_eq!(object["filter"]["keys"][0], you.as_str());
    assert_eq!(object["filterLength"], 3);
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

// ---- by handle: the copy until a save ------------------------------------------------------

#[test]
fn a_handles_change_stays_in_its_copy_until_a_save() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let name = emulator.demo_name(1);
    let opened = run(&sandbox, &emulator, &["open", &name]);
    let handle = opened.success().stdout().trim().to_owned();
    let before = emulator.live_handles(&log);
    let added = run(&sandbox, &emulator, &["filter", "add", &handle, NEW_KEY]);
    added
        .success()
        .stdout_has(&format!(
            "filter add {handle}: {}: added\n",
            new_key_fingerprint()
        ))
        .stderr_has(&format!(
            "save it to the network with: safe-ad post {handle}"
        ))
        .check(!added.stdout().contains("post "), "it saved");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
    let copy = result(&sandbox, &emulator, &["metadata", &handle]);
    assert_eq!(copy["filterLength"], 3);
    let (_, keys, version) = network_filter(&emulator, &name);
    assert_eq!((keys.len(), version), (2, 1), "the network changed");
    run(&sandbox, &emulator, &["status", &handle])
        .code(7)
        .stdout_has(&format!("filter key added: {}", new_key_fingerprint()));
    // The type switched in the copy and saved with it.
    let typed = result(
        &sandbox,
        &emulator,
        &["filter", "type", "--save", "post", &handle, "white-list"],
    );
    assert_eq!(typed["dropped_keys"], 3);
    assert_eq!(typed["saved_version"], 2);
    let (kind, keys, version) = network_filter(&emulator, &name);
    assert_eq!((kind.as_str(), keys.len(), version), ("WhiteList", 0, 2));
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

// ---- what is sent, and what is not --------------------------------------------------------

#[test]
fn dry_runs_and_curl_lines_send_nothing() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let name = emulator.demo_name(1);
    let blocked = blocked_fingerprint();
    let sent = emulator.requests().len();
    let runs: &[&[&str]] = &[
        &["--dry-run", "filter", "add", &name, NEW_KEY],
        &["--curl", "filter", "add", &name, NEW_KEY],
        &["--dry-run", "filter", "add", "--save", "post", "1", NEW_KEY],
        &[
            "--dry-run",
            "filter",
            "remove",
            "--signer-of",
            "1",
            &name,
            &blocked,
        ],
        &["--dry-run", "filter", "type", &name, "white-list"],
        &["--curl", "filter", "type", "1", "white-list"],
    ];
    for args in runs {
        run(&sandbox, &emulator, args).success();
    }
    // A fingerprint or a signer needs a read a curl script cannot make: refused.
    run(
        &sandbox,
        &emulator,
        &["--curl", "filter", "remove", &name, &blocked],
    )
    .code(2)
    .stderr_has("--curl cannot find a key by its fingerprint");
    assert_eq!(emulator.requests().len(), sent, "a dry run sent a request");
    let dry = run(
        &sandbox,
        &emulator,
        &["--dry-run", "filter", "add", "1", NEW_KEY],
    );
    dry.success()
        .stdout_has("POST ")
        .stdout_has("/sign-key/deserialise\n")
        .stdout_has(&format!(
            "  body: 40 bytes, in hex: 2000000000000000{NEW_KEY_HEX}\n"
        ))
        .stdout_has("/appendable-data/filter/1\n")
        .stdout_has("  body: [{handleId}]\n")
        .stderr_has("sent only when a key was");
}

#[test]
fn curl_lines_add_the_key_as_the_run_does_and_give_its_handle_back() {
    crate::messages::with_the_emulator::require_curl();
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let name = emulator.demo_name(1);
    let first = emulator.next_handle();
    sandbox
        .shell(
            "sh",
            &format!("safe-ad --curl filter add {name} {NEW_KEY} | sh"),
        )
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .env("SAFE_LAUNCHER_TOKEN", &emulator.token)
        .run()
        .success();
    let (_, keys, version) = network_filter(&emulator, &name);
    assert!(keys.contains(&new_key_fingerprint()), "{keys:?}");
    assert_eq!(version, 2);
    let left = emulator.handles_since(first);
    assert!(left.is_empty(), "the script left {left:?}");
}

#[test]
fn a_bad_key_is_refused_naming_it_and_nothing_is_sent() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let name = emulator.demo_name(1);
    let sent = emulator.requests().len();
    let refused = |args: &[&str], says: &str| {
        run(&sandbox, &emulator, args)
            .code(2)
            .stderr_has(says)
            .stderr_has("nothing was sent");
    };
    refused(
        &["filter", "add", &name, "AAECAwQF"],
        "invalid KEY 'AAECAwQF' for filter add: it is 6 bytes, and a sign key is 32",
    );
    refused(
        &["filter", "add", &name, "0011223344556677"],
        "'0011223344556677' is a fingerprint, and filter add takes the key itself",
    );
    refused(
        &["filter", "remove", &name, "abc"],
        "invalid KEY 'abc' for filter remove: it is 3 hex digits",
    );
    refused(
        &[
            "filter",
            "add",
            &name,
            "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gIQ==",
        ],
        "it is 34 bytes, and a sign key is 32",
    );
    refused(
        &["filter", "add", &name, NEW_KEY, NEW_KEY],
        &format!("KEY '{NEW_KEY}' is given twice for filter add"),
    );
    refused(
        &["filter", "add", "--signer-of", "x", &name],
        "invalid index 'x' for filter add --signer-of",
    );
    refused(
        &["filter", "add", "--save", "put", &name, NEW_KEY],
        "filter add --save put is refused with a data's name",
    );
    assert_eq!(emulator.requests().len(), sent, "a request was sent");
}

// ---- every sign-key handle given back ------------------------------------------------------

/// Ctrl-C while a key's edit is in flight: the edit's answer comes, its sign-key handle and
/// the name's copy are given back, and the save is never sent, so the network is as it was.
#[test]
fn ctrl_c_in_the_middle_gives_every_handle_back_and_saves_nothing() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let name = emulator.demo_name(1);
    let before = emulator.live_handles(&log);
    let relay = Relay::holding(emulator.addr(), 0, |line| {
        line.starts_with("PUT /appendable-data/filter/")
    });
    let output = relay.stop_while_held(
        sandbox.safe_ad().args(["filter", "add", &name, NEW_KEY]),
        Running::interrupt,
    );
    output
        .code(130)
        .stderr_has("every launcher handle it had obtained was given back")
        .check(
            !output.stdout().contains("added"),
            "a key said added, not saved",
        );
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
    let (_, keys, version) = network_filter(&emulator, &name);
    assert_eq!((keys.len(), version), (2, 1), "the network changed");
    let sent: Vec<String> = relay
        .exchanges()
        .into_iter()
        .map(|(line, _)| line)
        .collect();
    assert!(
        !sent
            .iter()
            .any(|line| line.starts_with("POST /appendable-data/")),
        "a save was sent: {sent:?}"
    );
}
