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

// ---- what it obtains, it gives back -------------------------------------------------------------

/// A state file with one appendable data on the network holding `items` structured data items
/// (`bench item N`), and its name.
fn big_state(sandbox: &Sandbox, items: u32) -> (PathBuf, String) {
    let name = |n: u32, tag: u8| {
        let mut bytes = [tag; 32];
        bytes[..4].copy_from_slice(&n.to_be_bytes());
        b64(&bytes)
    };
    let sds: Vec<Value> = (0..items)
        .map(|n| json!({"name": name(n, b's'), "typeTag": 500, "version": 0, "data": [b64(format!("item {n}").as_bytes())]}))
        .collect();
    let data: Vec<Value> = (0..items)
        .map(|n| json!({"structuredData": {"name": name(n, b's'), "typeTag": 500}}))
        .collect();
    let ad = name(0, b'a');
    let state = json!({
        "format": "safe-ad-emulator-state/1",
        "appendableData": [{"name": ad, "version": 1, "filterType": "BlackList", "data": data}],
        "structuredData": sds,
    });
    (sandbox.file("state.json", state.to_string()), ad)
}

/// An emulator whose network holds [`big_state`] (and no demo), logging to a file, the file,
/// and a handle for the big data, got with `safe-ad open`.
fn big_handle(sandbox: &Sandbox, items: u32) -> (Emulator, PathBuf, String) {
    let (state, name) = big_state(sandbox, items);
    let log = sandbox.path().join("requests.jsonl");
    let emulator = Emulator::start(&[
        "--state",
        state.to_str().expect("path"),
        "--log",
        log.to_str().expect("path"),
    ]);
    let opened = run(sandbox, &emulator.url, &["open", &name]);
    let handle = opened.success().stdout().trim().to_owned();
    (emulator, log, handle)
}

/// Whether a request line reads a structured data's content (`GET /structured-data/N`): the
/// step at which an item holds two handles, its data id and the structured data.
fn content_read(line: &str) -> bool {
    line.split(' ')
        .nth(1)
        .and_then(|path| path.strip_prefix("/structured-data/"))
        .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
}

#[test]
fn a_large_handle_is_read_holding_few_handles_so_none_of_the_persons_own_are_evicted() {
    let sandbox = Sandbox::new();
    let (emulator, log, handle) = big_handle(&sandbox, 150);
    // The person holds 92 data ids and 92 sign keys of their own.
    let body = json!({"name": b64(&[9; 32])}).to_string();
    let data_ids: Vec<u64> = (0..92)
        .map(|_| {
            emulator
                .http("POST", "/data-id/structured-data", None, Some(&body))
                .handle()
        })
        .collect();
    let keys: Vec<u64> = (0..92)
        .map(|_| {
            emulator
                .http("GET", "/sign-key", Some(TOKEN), None)
                .handle()
        })
        .collect();
    let before = emulator.live_handles(&log);
    let from = std::fs::read_to_string(&log).expect("log").lines().count();
    let output = run(
        &sandbox,
        &emulator.url,
        &["show", "--jobs", "256", "--json", &handle],
    );
    let lines = output.success().json_lines();
    assert_eq!(lines[0]["data"].as_array().map(Vec::len), Some(150));
    assert_eq!(lines[0]["data"][149]["preview"], "\"item 149\"");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
    let most = most_held(&log, from, &before);
    for kind in ["data_id", "sign_key", "structured_data", "appendable_data"] {
        let held = most[kind].as_i64().unwrap_or(0);
        assert!(held <= 8, "held {held} {kind} handles at once: {most}");
    }
    let all = most["all"].as_i64().unwrap_or(0);
    assert!(all <= 16, "held {all} handles at once: {most}");
    for d in data_ids {
        let r = emulator.http("GET", &format!("/data-id/{d}"), Some(TOKEN), None);
        assert_eq!(
            r.status, 200,
            "the person's data id {d} was evicted: {}",
            r.body
        );
    }
    for k in keys {
        let r = emulator.http(
            "GET",
            &format!("/sign-key/serialise/{k}"),
            Some(TOKEN),
            None,
        );
        assert_eq!(
            r.status, 200,
            "the person's sign key {k} was evicted: {}",
            r.body
        );
    }
}

/// A relay in front of `emulator` that holds the first content read (`GET /structured-data/N`),
/// when the item being read holds a data id and a structured-data handle.
fn holding_relay(emulator: &Emulator) -> Relay {
    Relay::holding(emulator.addr(), 0, content_read)
}

#[test]
fn ctrl_c_in_the_middle_gives_back_every_handle_it_holds_and_prints_no_half_block() {
    stopped_in_the_middle(Running::interrupt);
}

#[test]
fn sigterm_in_the_middle_gives_back_every_handle_it_holds_too() {
    // A CI job's timeout sends SIGTERM; it is taken as Ctrl-C is.
    stopped_in_the_middle(Running::terminate);
}

/// `show` of a 40-item handle, stopped by `signal` while a content read is held in flight.
fn stopped_in_the_middle(signal: fn(&Running)) {
    let sandbox = Sandbox::new();
    let (emulator, log, handle) = big_handle(&sandbox, 40);
    let before = emulator.live_handles(&log);
    let relay = holding_relay(&emulator);
    let output = relay.stop_while_held(sandbox.safe_ad().args(["show", &handle]), signal);
    output
        .code(130)
        .stdout_is("")
        .stderr_has("safe-ad: error: interrupted; no new requests were sent, and every launcher handle it had obtained was given back");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

#[test]
fn a_second_ctrl_c_leaves_at_once_and_names_what_it_left() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let relay = holding_relay(&emulator);
    let running = sandbox
        .safe_ad()
        .launcher(&relay.url)
        .args(["show", "--jobs", "1", "1"])
        .spawn();
    relay.wait_held();
    running.interrupt();
    running.wait_for_stderr("safe-ad: stopping:");
    running.interrupt_again();
    let output = running.wait();
    output
        .code(130)
        .stderr_has("safe-ad: error: interrupted twice, so it left at once: 2 launcher handles it had obtained were not given back")
        .stderr_has(&format!("DELETE {}/structured-data/handle/", relay.url))
        .stderr_has(&format!("DELETE {}/data-id/", relay.url));
    relay.release();
    the_two_named_are_the_two_still_live(&emulator, &log, &before);
}

#[test]
fn one_ctrl_c_against_a_launcher_that_never_answers_leaves_within_its_wait_and_names_what_it_left()
{
    // The content read is held until the end and --timeout is ten minutes away: with the
    // default wait (the harness's long one taken out), one Ctrl-C must wait for neither. A run
    // that waited for the answer or the timeout would miss the harness's deadline.
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let relay = holding_relay(&emulator);
    let running = sandbox
        .safe_ad()
        .env_remove("SAFE_AD_INTERRUPT_WAIT")
        .launcher(&relay.url)
        .args(["--timeout", "600", "show", "--jobs", "1", "1"])
        .spawn();
    relay.wait_held();
    running.interrupt();
    let output = running.wait();
    output
        .code(130)
        .stderr_has("safe-ad: stopping: no new requests; giving back the launcher handles it holds (for 1 s at most; a second Ctrl-C, or any second stop signal, leaves at once)")
        .stderr_has("safe-ad: error: interrupted, and the launcher did not finish within 1 s, so it left: 2 launcher handles it had obtained were not given back")
        .stderr_has(&format!("DELETE {}/structured-data/handle/", relay.url))
        .stderr_has(&format!("DELETE {}/data-id/", relay.url));
    relay.release();
    the_two_named_are_the_two_still_live(&emulator, &log, &before);
}

#[test]
fn with_no_wait_one_ctrl_c_leaves_at_once_and_names_what_it_left() {
    // SAFE_AD_INTERRUPT_WAIT=0: the first Ctrl-C gives nothing back and says so, as a second
    // one would, rather than promise a giving back it does not wait for.
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let relay = holding_relay(&emulator);
    let running = sandbox
        .safe_ad()
        .env("SAFE_AD_INTERRUPT_WAIT", "0")
        .launcher(&relay.url)
        .args(["show", "--jobs", "1", "1"])
        .spawn();
    relay.wait_held();
    running.interrupt();
    running
        .wait()
        .code(130)
        .stderr_has("safe-ad: stopping: no new requests, and no wait for the launcher (SAFE_AD_INTERRUPT_WAIT is 0)")
        .stderr_has("safe-ad: error: interrupted, and it does not wait (SAFE_AD_INTERRUPT_WAIT is 0), so it left: 2 launcher handles it had obtained were not given back");
    relay.release();
    the_two_named_are_the_two_still_live(&emulator, &log, &before);
}

/// After a `show --jobs 1 1` left while its first content read was held: the item's data id and
/// its structured data, the two handles the run named, are the two more live than `before`.
#[track_caller]
fn the_two_named_are_the_two_still_live(emulator: &Emulator, log: &Path, before: &Value) {
    let after = emulator.live_handles(log);
    for kind in ["data_id", "structured_data"] {
        assert_eq!(
            after[kind].as_i64(),
            before[kind].as_i64().map(|n| n + 1),
            "live {kind} handles"
        );
    }
}

/// A relay that fails the second content read: with `--jobs 1`, data item 1's, while its data id
/// and structured data are held.
fn failing_second_read(emulator: &Emulator) -> Relay {
    let reads = std::sync::atomic::AtomicU32::new(0);
    Relay::start(emulator.addr(), move |line| {
        if content_read(line) && reads.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 1 {
            Hook::Answer(http_answer(
                "500 Internal Server Error",
                br#"{"errorCode":-37,"description":"CoreError::RequestTimeout"}"#,
            ))
        } else {
            Hook::Pass
        }
    })
}

#[test]
fn a_failing_item_is_shown_with_the_launchers_error_the_rest_still_are_and_all_is_given_back() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let relay = failing_second_read(&emulator);
    let output = run(&sandbox, &relay.url, &["show", "--jobs", "1", "1"]);
    output
        .code(5)
        .stdout_has(&format!(
            "  data 1: structured-data {}, type tag 500, version 0, signed by ",
            demo_name("demo item e")
        ))
        .stdout_has(" [unreadable: errorCode -37, CoreError::RequestTimeout]\n")
        .stdout_has("  data 2: appendable-data ")
        .stdout_has("  deleted 1: ")
        .stderr_has("safe-ad: error: show 1: data item 1: the launcher answered 500 Internal Server Error: errorCode -37");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
    let relay = failing_second_read(&emulator);
    let output = run(
        &sandbox,
        &relay.url,
        &["show", "--json", "--jobs", "1", "1"],
    );
    let object = &output.code(5).json_lines()[0];
    assert_eq!(object["ok"], false);
    assert_eq!(object["exit_code"], 5);
    assert_eq!(object["data"][1]["error"]["error_code"], -37);
    assert_eq!(object["data"][1]["kind"], "structured-data");
    assert!(object["data"][1]["preview"].is_null());
    assert!(object["data"][0].get("error").is_none());
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

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

// ---- which data it is ---------------------------------------------------------------------------

/// `create --put` (with `--private` when `private`): the new handle, and the name it says on
/// stderr.
fn created(sandbox: &Sandbox, url: &str, private: bool) -> (String, String) {
    let mut args = vec!["create", "--put"];
    if private {
        args.push("--private");
    }
    let output = run(sandbox, url, &args);
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
fn show_names_the_data_create_made_public_or_private_with_you_as_its_owner() {
    let sandbox = Sandbox::new();
    let (emulator, _) = emulator(&sandbox, &[]);
    for (private, word) in [(false, "public"), (true, "private")] {
        let (handle, name) = created(&sandbox, &emulator.url, private);
        let output = run(&sandbox, &emulator.url, &["show", &handle]);
        let stdout = output.success().stdout();
        let second = stdout.lines().nth(1).unwrap_or_default();
        output.check(
            second == format!("  name {name}, {word}, owner you"),
            format!("the line under the header names the data: name {name}, {word}, owner you"),
        );
        let object = shown(&sandbox, &emulator.url, &["show", "--json", &handle]);
        assert_eq!(object["name"], name, "{object}");
        assert_eq!(object["private"], private, "{object}");
        let you = run(&sandbox, &emulator.url, &["auth", "whoami"]);
        let you = you.success().stdout().trim().to_owned();
        assert_eq!(object["owners"], json!([you]), "{object}");
    }
}

#[test]
fn show_reads_the_name_with_one_request_that_takes_no_handle() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.requests().len();
    let held = emulator.live_handles(&log);
    run(&sandbox, &emulator.url, &["show", "1", "5"]).success();
    let sent = emulator.requests();
    let serialised: Vec<&String> = sent[before..]
        .iter()
        .filter(|line| line.starts_with("GET /appendable-data/serialise/"))
        .collect();
    assert_eq!(
        serialised,
        [
            "GET /appendable-data/serialise/1 200",
            "GET /appendable-data/serialise/5 200"
        ]
    );
    assert_eq!(emulator.live_handles(&log), held, "handles left behind");
}

#[test]
fn show_serialised_prints_bytes_that_decode_to_the_same_name_and_version() {
    let sandbox = Sandbox::new();
    let (emulator, _) = emulator(&sandbox, &[]);
    let (handle, name) = created(&sandbox, &emulator.url, false);
    let before = emulator.requests().len();
    // -q hides no result: the bytes are what was asked for.
    let output = run(
        &sandbox,
        &emulator.url,
        &["-q", "show", "--serialised", &handle],
    );
    let line = output.success().stderr_is("").stdout().to_owned();
    output.check(
        line.lines().count() == 1,
        "one line of base64 for one handle",
    );
    // Only the bytes are read of the handle (and your own key, as for every `show`).
    let sent: Vec<String> = emulator.requests()[before..]
        .iter()
        .filter(|line| !line.contains("/sign-key"))
        .cloned()
        .collect();
    assert_eq!(
        sent,
        [format!("GET /appendable-data/serialise/{handle} 200")]
    );
    let decoded = sandbox
        .safe_ad()
        .args(["--json", "decode"])
        .stdin(line.clone())
        .run();
    let object = &decoded.success().json_lines()[0];
    assert_eq!(object["name"], name, "{object}");
    assert_eq!(object["version"], 0, "{object}");
    assert_eq!(object["kind"], "appendable-data", "{object}");
    // The same bytes as the launcher's own route gives.
    let raw = emulator.http(
        "GET",
        &format!("/appendable-data/serialise/{handle}"),
        Some(TOKEN),
        None,
    );
    assert_eq!(line.trim_end(), b64(&raw.bytes));
    // With --json: one object per handle, a failure too.
    let output = run(
        &sandbox,
        &emulator.url,
        &["show", "--json", "--serialised", &handle, "99"],
    );
    let lines = output.code(4).json_lines();
    assert_eq!(lines.len(), 2, "one object per handle");
    assert_eq!(lines[0]["handle"], handle.parse::<u64>().expect("a handle"));
    assert_eq!(lines[0]["ok"], true);
    assert_eq!(lines[0]["serialised"], b64(&raw.bytes));
    assert_eq!(lines[1]["handle"], 99);
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(lines[1]["error"]["error_code"], -1515);
}

#[test]
fn show_serialised_takes_no_item_option_and_sends_nothing_then() {
    let sandbox = Sandbox::new();
    let (emulator, _) = emulator(&sandbox, &[]);
    for extra in [
        &["--full"][..],
        &["--index", "0"],
        &["--signed-by", "you"],
        &["--kind", "structured-data"],
        &["--name", "ZGVtbyBpdGVtIGQuLi4uLi4uLi4uLi4uLi4uLi4uLi4="],
    ] {
        let mut args = vec!["show", "--serialised"];
        args.extend_from_slice(extra);
        args.push("1");
        run(&sandbox, &emulator.url, &args)
            .code(2)
            .stdout_is("")
            .stderr_has("the argument '--serialised' cannot be used with");
    }
    run(
        &sandbox,
        &emulator.url,
        &["show", "--serialised", "--dry-run", "1"],
    )
    .code(2)
    .stderr_has("`safe-ad show` does not take --dry-run");
    assert!(
        emulator.requests().is_empty(),
        "a refused show sent a request"
    );
}
