//! `restore` of an item another key signed (issue 52): the append after the save that makes it
//! data again is signed by your key, so without `--re-sign` nothing changes (exit 2, naming the
//! item, its signer and the option; the emulator's journal holds no change), and with it the
//! item is data again signed by you, said on stdout (`re_signed` with `--json`). `watch` sees
//! such a restore as one `restored` event, as JSON and on a terminal, not as a purge and an
//! append. The network is read back by name, through a fresh copy (`safe-ad show NAME --json`).

use serde_json::{json, Value};

use crate::harness::emulator::Emulator;
use crate::harness::http::name;
use crate::harness::relay::Relay;
use crate::harness::screen::Screen;
use crate::harness::*;
use crate::restore_loss::{first_error, fixture, start};

/// An emulator whose `name(1)` holds no data items and, in its deleted list, structured data
/// `name(3)` signed by another key than yours.
fn signed_by_another(sandbox: &Sandbox) -> Emulator {
    let filter = r#""filterType":"BlackList""#;
    start(sandbox, &fixture(filter, "", Some(&name(4))))
}

/// `safe-ad ARGS` against `emulator`.
fn run(sandbox: &Sandbox, emulator: &Emulator, args: &[&str]) -> Output {
    sandbox.safe_ad().launcher(&emulator.url).args(args).run()
}

/// What the network holds for `name(1)`, read by name through a fresh copy: `show --json`'s
/// version and lists.
fn network(sandbox: &Sandbox, emulator: &Emulator) -> Value {
    let output = run(sandbox, emulator, &["--json", "show", &name(1)]);
    let shown = output.success().json_lines().remove(0);
    json!({
        "version": shown["version"],
        "data": shown["data"],
        "deleted_data": shown["deleted_data"],
    })
}

/// The fingerprint of the key that signed the deleted item, as `show` gives it, checked to be
/// another key than yours.
fn other_signer(sandbox: &Sandbox, emulator: &Emulator) -> String {
    let deleted = &network(sandbox, emulator)["deleted_data"][0];
    assert_eq!(deleted["signer_is_you"], false, "{deleted}");
    deleted["signer"].as_str().expect("a signer").to_owned()
}

/// Empties the emulator's journal, so that [`changes`] reads one run's records.
fn clear_journal(emulator: &Emulator) {
    let cleared = emulator.http("DELETE", "/_emulator/requests", Some(TOKEN), None);
    assert_eq!(cleared.status, 200, "{}", cleared.body);
}

/// The journal's records of requests that changed data (`"effect":"change"`), as `METHOD /path`.
fn changes(emulator: &Emulator) -> Vec<String> {
    let journal = emulator.http("GET", "/_emulator/requests", Some(TOKEN), None);
    assert_eq!(journal.status, 200, "{}", journal.body);
    let records: Vec<Value> = (journal.body.lines())
        .map(|line| serde_json::from_str(line).expect("a JSON record"))
        .collect();
    assert!(
        records.iter().all(|record| record["effect"].is_string()),
        "{}",
        journal.body
    );
    (records.iter())
        .filter(|record| record["effect"] == "change")
        .map(|record| format!("{} {}", record["method"], record["path"]))
        .collect()
}

/// The handle `open NAME` prints.
fn opened(sandbox: &Sandbox, emulator: &Emulator) -> String {
    let output = run(sandbox, emulator, &["open", &name(1)]);
    output.success().stdout().trim().to_owned()
}

/// `restore NAME 0` and `restore --save post HANDLE 0` of an item another key signed change
/// nothing: exit 2, the error naming the item (index, kind, name) and its signer's fingerprint
/// and `--re-sign`; no request that changes data in the journal, the network as it was. Its
/// `--dry-run` says so too, and `--re-sign` on a handle's restore that is not saved (which
/// re-signs nothing) is refused before anything is sent. On the code before, the restore went
/// ahead (exit 0) and the item came back signed by you, said only on stderr.
#[test]
fn a_restore_that_would_re_sign_changes_nothing_without_re_sign() {
    let sandbox = Sandbox::new();
    let emulator = signed_by_another(&sandbox);
    let data = name(1);
    let signer = other_signer(&sandbox, &emulator);
    let before = network(&sandbox, &emulator);
    let handle = opened(&sandbox, &emulator);
    let by_name = ["restore", &data, "0"];
    let by_handle = ["restore", "--save", "post", &handle, "0"];
    for (args, target) in [(&by_name[..], &data), (&by_handle[..], &handle)] {
        clear_journal(&emulator);
        let output = run(&sandbox, &emulator, args);
        output.code(2).stdout_is("");
        let said = first_error(&output);
        let item = format!(
            "deleted 0 (structured-data {}, type tag 500; signed by {signer})",
            name(3)
        );
        assert!(
            said.starts_with(&format!(
                "safe-ad: error: restore {target}: nothing was changed"
            )) && said.contains(&item)
                && said.ends_with("--re-sign allows it"),
            "{said}"
        );
        assert_eq!(changes(&emulator), Vec::<String>::new(), "{args:?}");
        assert_eq!(network(&sandbox, &emulator), before, "{args:?}");
    }
    run(&sandbox, &emulator, &["restore", "--dry-run", &data, "0"])
        .success()
        .stderr_has("an item another key signed would come back signed by you, so when one is among them it changes nothing and exits 2 (--re-sign allows it)");
    let sent = emulator.requests().len();
    run(&sandbox, &emulator, &["restore", "--re-sign", &handle, "0"])
        .code(2)
        .stderr_has(&format!(
            "safe-ad: error: restore {handle}: --re-sign acts only where a restore is saved"
        ));
    assert_eq!(emulator.requests().len(), sent, "the refusal sent nothing");
    assert_eq!(network(&sandbox, &emulator), before);
}

/// With `--re-sign`, `restore NAME 0` makes the item data again signed by you (version 2, the
/// deleted list empty), and stdout's line for its append says so, with the key that signed it
/// before; `-q` prints nothing; with `--json` (by handle, `--save post`) the append's object
/// carries `re_signed`. On the code before there was no such option (exit 2).
#[test]
fn with_re_sign_the_item_is_data_again_signed_by_you_and_stdout_says_so() {
    let sandbox = Sandbox::new();
    let emulator = signed_by_another(&sandbox);
    let data = name(1);
    let signer = other_signer(&sandbox, &emulator);
    run(&sandbox, &emulator, &["restore", "--re-sign", &data, "0"])
        .success()
        .stdout_has(&format!("restore {data} index 0: ok\n"))
        .stdout_has(&format!(
            "append {data}: ok: deleted 0 (structured-data {}, type tag 500) is data again, now signed by you (re-signed: it was signed by {signer})\n",
            name(3)
        ));
    let after = network(&sandbox, &emulator);
    assert_eq!(after["version"], 2, "{after}");
    assert_eq!(after["deleted_data"], json!([]), "{after}");
    let items = after["data"].as_array().expect("a list");
    assert_eq!(items.len(), 1, "{after}");
    assert_eq!(
        (&items[0]["name"], &items[0]["signer_is_you"]),
        (&json!(name(3)), &json!(true)),
        "{after}"
    );

    let sandbox = Sandbox::new();
    let emulator = signed_by_another(&sandbox);
    run(
        &sandbox,
        &emulator,
        &["-q", "restore", "--re-sign", &data, "0"],
    )
    .success()
    .stdout_is("");
    assert_eq!(network(&sandbox, &emulator)["version"], 2);

    let sandbox = Sandbox::new();
    let emulator = signed_by_another(&sandbox);
    let handle = opened(&sandbox, &emulator);
    let args = [
        "--json",
        "restore",
        "--save",
        "post",
        "--re-sign",
        &handle,
        "0",
    ];
    let lines = run(&sandbox, &emulator, &args).success().json_lines();
    assert_eq!(lines.len(), 1, "one result: {lines:#?}");
    assert_eq!(
        lines[0]["re_signed"],
        json!([{"index": 0, "signer": signer}]),
        "{lines:#?}"
    );
    assert_eq!(
        network(&sandbox, &emulator)["data"][0]["signer_is_you"],
        true
    );
}

/// A relay in front of `emulator` that holds the second copy a watch of `name(1)` fetches (its
/// second poll), so that the test makes its change between two polls, none of them between the
/// restore's save and its append.
fn holding_the_second_poll(emulator: &Emulator) -> Relay {
    Relay::holding(emulator.addr(), 1, |line| {
        line.starts_with("GET /appendable-data/handle/")
    })
}

/// `watch NAME --json` while `restore --re-sign NAME 0` runs between two of its polls: one
/// `restored` event (the item now signed by you, `re_signed` naming where it was and who signed
/// it), then the version; no `appended` and no `purged`. On the code before: `appended` and
/// `purged`, never a restore.
#[test]
fn watch_sees_a_restore_that_re_signs_as_one_restored_event() {
    let sandbox = Sandbox::new();
    let emulator = signed_by_another(&sandbox);
    let data = name(1);
    let signer = other_signer(&sandbox, &emulator);
    let relay = holding_the_second_poll(&emulator);
    let watching = sandbox
        .safe_ad()
        .launcher(&relay.url)
        .args(["--json", "watch", &data, "--interval", "0.02"])
        .spawn();
    watching.wait_for_stdout("\"event\":\"start\"");
    relay.wait_held();
    run(&sandbox, &emulator, &["restore", "--re-sign", &data, "0"]).success();
    relay.release();
    watching.wait_for_stdout("\"event\":\"version\"");
    watching.interrupt();
    let output = watching.wait();
    output.code(130);
    let events: Vec<Value> = (output.json_lines().into_iter())
        .filter(|line| line.get("event").is_some())
        .collect();
    let names: Vec<&str> = (events.iter())
        .map(|event| event["event"].as_str().expect("an event"))
        .collect();
    assert_eq!(
        names,
        ["start", "restored", "version"],
        "{}",
        output.stdout()
    );
    let restored = &events[1];
    assert_eq!(restored["item"]["name"], name(3), "{restored}");
    assert_eq!(restored["item"]["signer_is_you"], true, "{restored}");
    assert_eq!(
        restored["re_signed"],
        json!({"index": 0, "signer": signer}),
        "{restored}"
    );
}

/// The same on a terminal: the view's change line says `restored`, re-signed, with the key
/// that signed it before, and no purge.
#[test]
fn watch_on_a_terminal_says_a_re_signing_restore_once() {
    if !have("tmux") {
        return skip("tmux is needed for a terminal");
    }
    let sandbox = Sandbox::new();
    let emulator = signed_by_another(&sandbox);
    let data = name(1);
    let signer = other_signer(&sandbox, &emulator);
    let relay = holding_the_second_poll(&emulator);
    let home = sandbox.path().to_str().expect("a path").to_owned();
    let binary = safe_ad_bin().to_str().expect("a path").to_owned();
    let screen = Screen::start(
        &[&binary, "watch", &data, "--interval", "0.02"],
        &[
            ("HOME", home.as_str()),
            ("SAFE_AD_CONFIG_DIR", home.as_str()),
            ("SAFE_LAUNCHER_URL", relay.url.as_str()),
            ("SAFE_LAUNCHER_TOKEN", TOKEN),
            ("TERM", "xterm"),
        ],
    );
    screen.wait_for(&format!("watch {data}: version 1, data 0, deleted 1"));
    relay.wait_held();
    run(&sandbox, &emulator, &["restore", "--re-sign", &data, "0"]).success();
    relay.release();
    let shown = screen.wait_for(&format!(
        "restored (data 0, re-signed: it was signed by {signer})"
    ));
    assert!(!shown.contains("purged"), "{shown}");
    assert!(!shown.contains("appended"), "{shown}");
}
