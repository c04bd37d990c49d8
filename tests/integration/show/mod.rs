//! `safe-ad show` end to end: the real binary against the real emulator binary (and, where a
//! step must fail or a request must still be in flight at Ctrl-C, through a relay in front of
//! it). What each demo item is, as the launcher says; the JSON keys; `--full` and `--index`;
//! and the promise that matters on a real launcher: every handle `show` obtains is given back,
//! on success, with a failing item, after Ctrl-C, and it never holds enough at once to evict the
//! person's own. The emulator's `--log` counts the live handles before and after each run.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde_json::{json, Value};

use crate::harness::emulator::*;
use crate::harness::http::{b64, request};
use crate::harness::relay::{Hook, Relay};
use crate::harness::*;

mod edges;
mod leases;
mod which_data;

/// An emulator with the demo state, logging to a file in `sandbox`, and the file.
pub(crate) fn emulator(sandbox: &Sandbox, flags: &[&str]) -> (Emulator, PathBuf) {
    let log = sandbox.path().join("requests.jsonl");
    let log_arg = log.to_str().expect("path").to_owned();
    let mut all = vec!["--log", log_arg.as_str()];
    all.extend_from_slice(flags);
    (Emulator::start(&all), log)
}

/// The name of an emulator demo data: its label padded with dots to 32 bytes, in base64.
fn demo_name(label: &str) -> String {
    let mut bytes = [b'.'; 32];
    bytes[..label.len()].copy_from_slice(label.as_bytes());
    b64(&bytes)
}

/// `safe-ad <args>` against `url`.
fn run(sandbox: &Sandbox, url: &str, args: &[&str]) -> Output {
    sandbox.safe_ad().launcher(url).args(args).run()
}

/// The one JSON object `show --json HANDLE` prints.
fn shown(sandbox: &Sandbox, url: &str, args: &[&str]) -> Value {
    let output = run(sandbox, url, args);
    let lines = output.success().json_lines();
    output.check(lines.len() == 1, "not one JSON object");
    lines.into_iter().next().expect("one object")
}

/// SHA-256 of the user's serialised sign key, cut to the fingerprint's 16 hex digits: what docs/handles.md
/// promises a fingerprint is, computed here on its own.
pub(crate) fn fingerprint_of(bytes: &[u8]) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, bytes);
    digest.as_ref()[..8]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The serialised bytes of the signer of `handle`'s item `index` (of the deleted list when
/// `deleted`), read straight from the emulator, with the sign-key handle dropped again.
pub(crate) fn signer_bytes(emulator: &Emulator, handle: u64, index: u64, deleted: bool) -> Vec<u8> {
    let list = if deleted { "deleted-data/" } else { "" };
    let key = emulator
        .http(
            "GET",
            &format!("/appendable-data/sign-key/{list}{handle}/{index}"),
            Some(TOKEN),
            None,
        )
        .handle();
    key_bytes(emulator, key)
}

/// The serialised bytes of the sign key behind sign-key handle `key`, read straight from the
/// emulator, with the handle dropped again.
pub(crate) fn key_bytes(emulator: &Emulator, key: u64) -> Vec<u8> {
    let bytes = emulator
        .http(
            "GET",
            &format!("/sign-key/serialise/{key}"),
            Some(TOKEN),
            None,
        )
        .bytes;
    emulator
        .http("DELETE", &format!("/sign-key/{key}"), Some(TOKEN), None)
        .ok();
    bytes
}

// ---- what it shows ------------------------------------------------------------------------------

#[test]
fn show_says_what_each_item_of_the_demo_handle_is_and_gives_every_handle_back() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let output = run(&sandbox, &emulator.url, &["show", "1"]);
    let stdout = output.success().stderr_is("").stdout();
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
    let other = fingerprint_of(&signer_bytes(&emulator, 1, 1, false));
    let lines: Vec<&str> = stdout.lines().collect();
    // Each item is named from its data id's bytes: kind, name, type tag.
    let sd = |label: &str| format!("structured-data {}, type tag 500", demo_name(label));
    let expected = [
        "handle 1: version 1, owner yes, data 3, deleted 2, filter BlackList (2 keys)".to_string(),
        format!(
            "  name {}, public, owner you",
            demo_name("safe-ad demo: saved")
        ),
        format!(
            "  data 0: {}, version 0, signed by you: \"demo item d\"",
            sd("demo item d")
        ),
        format!(
            "  data 1: {}, version 0, signed by {other}: 9 bytes, not text: 000102feff1b5b324a",
            sd("demo item e")
        ),
        format!(
            "  data 2: appendable-data {}, version 2, data 3, deleted 0, signed by you",
            demo_name("safe-ad demo: stale")
        ),
        format!(
            "  deleted 0: {}, version 0, signed by you: \"demo item g\"",
            sd("demo item g")
        ),
        format!(
            "  deleted 1: {}, version 0, signed by {other}: \"demo item h\"",
            sd("demo item h")
        ),
    ];
    let without_ids: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|line| !line.starts_with("    data id ") && !line.starts_with("  filter key "))
        .collect();
    output.check(
        without_ids == expected.iter().map(String::as_str).collect::<Vec<_>>(),
        format!(
            "expected, besides data ids and filter keys:\n{}",
            expected.join("\n")
        ),
    );
    let keys: Vec<&str> = lines
        .iter()
        .filter_map(|line| line.strip_prefix("  filter key "))
        .collect();
    output.check(
        keys.len() == 2
            && keys
                .iter()
                .any(|key| key.ends_with(&format!(": {other} (signed items shown here)"))),
        "two filter keys, one of them the other app's, who signed items here",
    );
    // Every item has its data id on the line after it.
    let ids = lines
        .iter()
        .filter(|line| line.starts_with("    data id "))
        .count();
    output.check(ids == 5, "a data id for each of the 5 items");
}

#[test]
fn json_gives_the_documented_keys_and_data_ids_the_launcher_takes_back() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let object = shown(&sandbox, &emulator.url, &["show", "--json", "1"]);
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
    assert_eq!(object["handle"], 1);
    assert_eq!(object["ok"], true);
    assert_eq!(object["version"], 1);
    assert_eq!(object["isOwner"], true);
    assert_eq!(object["filterType"], "BlackList");
    assert_eq!(object["filterLength"], 2);
    assert_eq!(object["filter"]["type"], "BlackList");
    assert_eq!(object["filter"]["keys"].as_array().map(Vec::len), Some(2));
    let data = object["data"].as_array().expect("data list");
    let deleted = object["deleted_data"].as_array().expect("deleted list");
    assert_eq!((data.len(), deleted.len()), (3, 2));
    for (at, item) in data.iter().enumerate() {
        assert_eq!(item["index"], at);
        for key in [
            "kind",
            "data_id",
            "signer",
            "signer_is_you",
            "type_tag",
            "version",
            "preview",
        ] {
            assert!(item.get(key).is_some(), "item {at} lacks {key}: {item}");
        }
        assert!(item.get("content").is_none(), "content only with --full");
        assert!(item.get("error").is_none(), "{item}");
    }
    assert_eq!(data[0]["kind"], "structured-data");
    assert_eq!(data[0]["preview"], "\"demo item d\"");
    assert_eq!(data[0]["signer_is_you"], true);
    assert_eq!(data[1]["signer_is_you"], false);
    assert_eq!(
        data[1]["signer"],
        json!(fingerprint_of(&signer_bytes(&emulator, 1, 1, false)))
    );
    assert_eq!(
        data[0]["signer"],
        json!(fingerprint_of(&signer_bytes(&emulator, 1, 0, false)))
    );
    assert_eq!(
        deleted[1]["signer"], data[1]["signer"],
        "one key, one fingerprint"
    );
    assert!(object["filter"]["keys"]
        .as_array()
        .expect("keys")
        .contains(&data[1]["signer"]));
    assert_eq!(data[2]["kind"], "appendable-data");
    assert_eq!(data[2]["version"], 2);
    assert_eq!(data[2]["dataLength"], 3);
    // A data id is the launcher's bytes: POST /data-id takes them back, and the data it names
    // is the item's (here the stale demo data, at version 2 on the network).
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data[2]["data_id"].as_str().expect("data id"))
        .expect("standard base64");
    let answer = request(
        emulator.addr(),
        "POST",
        "/data-id",
        None,
        Some(("application/octet-stream", &bytes)),
    );
    let data_id = answer.handle();
    let fetched = emulator.http(
        "GET",
        &format!("/appendable-data/handle/{data_id}"),
        Some(TOKEN),
        None,
    );
    assert_eq!(counts(&fetched.json()), (2, 3, 0));
}

#[test]
fn full_gives_the_whole_content_and_index_limits_the_items() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let object = shown(
        &sandbox,
        &emulator.url,
        &["show", "--json", "--full", "--index", "1", "1"],
    );
    assert_eq!(object["data"].as_array().map(Vec::len), Some(1));
    assert_eq!(object["data"][0]["index"], 1);
    assert_eq!(
        object["data"][0]["content"],
        json!(b64(&[0, 1, 2, 0xfe, 0xff, 0x1b, 0x5b, 0x32, 0x4a]))
    );
    assert_eq!(object["deleted_data"][0]["index"], 1);
    assert_eq!(
        object["deleted_data"][0]["content"],
        json!(b64(b"demo item h"))
    );
    // The counts still say how long each list is.
    assert_eq!(
        (
            object["dataLength"].clone(),
            object["deletedDataLength"].clone()
        ),
        (json!(3), json!(2))
    );
    for (range, data, deleted) in [
        ("0..2", vec![0, 1], vec![0, 1]),
        ("2..", vec![2], vec![]),
        ("..=0", vec![0], vec![0]),
        ("1..=2", vec![1, 2], vec![1]),
        ("5..", vec![], vec![]),
    ] {
        let object = shown(
            &sandbox,
            &emulator.url,
            &["show", "--json", "--index", range, "1"],
        );
        let indexes = |list: &Value| -> Vec<u64> {
            list.as_array()
                .expect("a list")
                .iter()
                .map(|item| item["index"].as_u64().expect("index"))
                .collect()
        };
        assert_eq!(indexes(&object["data"]), data, "--index {range}");
        assert_eq!(indexes(&object["deleted_data"]), deleted, "--index {range}");
    }
    // For people: the whole content, text quoted and escaped, anything else in hex.
    let output = run(
        &sandbox,
        &emulator.url,
        &["show", "--full", "--index", "1", "1"],
    );
    output
        .success()
        .stdout_has("; showing indexes 1..2\n")
        .stdout_has("    content 000102feff1b5b324a\n")
        .stdout_has("    content \"demo item h\"\n");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

#[test]
fn several_handles_one_block_each_in_order_and_the_same_through_the_0_6_prefix() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let direct = run(&sandbox, &emulator.url, &["show", "0", "2", "1"]);
    let stdout = direct.success().stdout();
    let headers: Vec<&str> = stdout
        .lines()
        .filter(|line| line.starts_with("handle "))
        .collect();
    assert_eq!(headers.len(), 3, "{stdout}");
    assert!(headers[0].starts_with("handle 0: version 0, owner yes, data 3, deleted 0"));
    assert!(headers[1].starts_with("handle 2: version 1, owner yes, data 2, deleted 0"));
    assert!(headers[2].starts_with("handle 1: "));
    assert!(
        stdout.contains("\n\nhandle 2: "),
        "a blank line between blocks"
    );
    let prefixed = run(
        &sandbox,
        &format!("{}/0.6", emulator.url),
        &["show", "0", "2", "1"],
    );
    prefixed.success().stdout_is(stdout);
    let from_stdin = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["show", "-"])
        .stdin("0 2\n1\n")
        .run();
    from_stdin.success().stdout_is(stdout);
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
    // Through /0.6 each request went under the prefix.
    let requests = emulator.requests();
    assert!(requests
        .iter()
        .any(|r| r.starts_with("GET /0.6/appendable-data/sign-key/1/0 ")));
}

#[test]
fn show_only_reads_and_frees_what_it_read() {
    let sandbox = Sandbox::new();
    let (emulator, _log) = emulator(&sandbox, &[]);
    emulator.requests();
    run(&sandbox, &emulator.url, &["show", "0", "1", "2"]).success();
    let requests = emulator.requests();
    assert!(!requests.is_empty());
    for line in &requests {
        let path = line.split(' ').nth(1).expect("a path");
        let freeing = path.starts_with("/data-id/")
            || path.starts_with("/sign-key/")
            || path.starts_with("/structured-data/handle/")
            || path.starts_with("/appendable-data/handle/");
        assert!(
            line.starts_with("GET ") || (line.starts_with("DELETE ") && freeing),
            "a request that is not a read or the freeing of a handle: {line}"
        );
        // Asking for structured data through the data id of appendable data is the launcher's
        // -5 (400): that is how the kind is found.
        let probe = path.starts_with("/structured-data/handle/") && line.ends_with(" 400");
        assert!(line.ends_with(" 200") || probe, "{line}");
    }
    // Nothing on the network changed.
    assert_eq!(emulator.network(1), (1, 3, 2));
}

#[test]
fn an_unknown_handle_fails_alone_and_the_others_are_still_shown() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let output = run(&sandbox, &emulator.url, &["show", "77", "0"]);
    output
        .code(4)
        .stderr_has(
            "safe-ad: error: show 77: the launcher answered 400 Bad Request: errorCode -1515",
        )
        .stderr_has("hint: the launcher holds no appendable data under this handle");
    output.check(
        output.stdout().starts_with("handle 0: "),
        "handle 0 is shown after the failed one",
    );
    let json = run(&sandbox, &emulator.url, &["show", "--json", "77", "0"]);
    let lines = json.code(4).json_lines();
    assert_eq!(lines[0]["ok"], false);
    assert_eq!(lines[0]["exit_code"], 4);
    assert_eq!(lines[0]["error"]["error_code"], -1515);
    assert_eq!(lines[1]["ok"], true);
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

#[test]
fn a_token_without_low_level_api_shows_what_it_may_and_says_what_it_may_not() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let token = emulator.token_with(r#"["SAFE_DRIVE_ACCESS"]"#);
    let output = sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .env("SAFE_LAUNCHER_TOKEN", &token)
        .args(["show", "0"])
        .token_may_show()
        .run();
    output
        .code(3)
        .stderr_has("safe-ad: error: show: your own sign key: the launcher answered 403 Forbidden")
        .stderr_has("hint: the token lacks the LOW_LEVEL_API permission")
        .stdout_has("  data 0: structured data, version 0, signed by ?: \"demo item a\"");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}
