//! `show` gives back every handle it obtains: a large handle read holding few handles (none of
//! the person's own evicted); Ctrl-C, SIGTERM, a second Ctrl-C and a launcher that never answers,
//! in the middle of a run; an item that fails, shown with the launcher's error.

use super::*;

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
