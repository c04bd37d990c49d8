//! `restore NAME` and `restore --save post HANDLE` never lose the item they were asked to
//! restore (issue 51): the save takes it off the network's deleted list and only the append
//! after it makes it data again, so what the append needs is checked before the save (a filter
//! that keeps your key out, an item the data holds already: nothing changed), an append refused
//! because someone saved in between is sent again through a fresh handle, and an item the save
//! left in neither list (an append that never lands, a stop signal during the save) is said in
//! the first error line with what it was and the command that appends it again. Each test reads
//! the network back through a fresh handle of the emulator's.

use base64::Engine;

use crate::harness::emulator::{counts, path_arg, Emulator};
use crate::harness::http::{b64, name};
use crate::harness::relay::{Hook, Relay};
use crate::harness::*;

/// The emulator's user key (docs/emulator-differences.md), as a fixture writes a key.
fn your_key() -> String {
    b64(b"safe-ad emulator user sign key!!")
}

/// A fixture of one public appendable data, `name(1)`, whose filter is `filter` (the fixture's
/// own fields), holding `data` and, in its deleted list, a structured data `name(3)` (signed
/// by `signer`, or by you).
pub(super) fn fixture(filter: &str, data: &str, signer: Option<&str>) -> String {
    let signed = signer.map_or(String::new(), |key| format!(r#","signKey":"{key}""#));
    format!(
        r#"{{"format":"safe-ad-emulator-state/1",
  "appendableData":[{{"name":"{a}","version":1,{filter},"data":[{data}],
    "deletedData":[{{"structuredData":{{"name":"{s}","typeTag":500}}{signed}}}]}}],
  "structuredData":[{{"name":"{s}","typeTag":500,"version":0,"data":["{hi}"]}}]}}
"#,
        a = name(1),
        s = name(3),
        hi = b64(b"hi"),
    )
}

pub(super) fn start(sandbox: &Sandbox, fixture: &str) -> Emulator {
    let file = sandbox.file("fixture.json", fixture);
    let emulator = Emulator::start_in(sandbox, &["--import", path_arg(&file)]);
    emulator.wait_log("listening on");
    emulator
}

/// (version, data, deleted) of `name(1)` on the network, read through a fresh handle.
fn network(emulator: &Emulator) -> (u64, u64, u64) {
    let fetched = emulator.fetch_named(&name(1));
    assert_eq!(fetched.status, 200, "fetch: {}", fetched.body);
    counts(&fetched.json())
}

/// Whether a request line is an append (`PUT /appendable-data/:handleId/:dataIdHandle`), not a
/// restore (`PUT /appendable-data/restore/...`).
fn is_append(line: &str) -> bool {
    (line.strip_prefix("PUT /appendable-data/"))
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// The first `safe-ad: error:` line of a run's stderr.
pub(super) fn first_error(output: &Output) -> String {
    (output.stderr().lines())
        .find(|line| line.starts_with("safe-ad: error:"))
        .unwrap_or_else(|| panic!("no error line:\n{}", output.stderr()))
        .to_owned()
}

/// A filter that keeps your key out (a whitelist of another key, a blacklist of yours) and a
/// data that holds the item signed by you already: `restore NAME 0` and `restore --save post
/// H 0` change nothing and say why (exit 4), and the network still holds the item in its
/// deleted list at version 1. On the code before, the save went out (version 2), the append was
/// refused with -25 and the item was in neither list, for good.
#[test]
fn an_append_that_would_be_refused_is_found_before_the_save_and_nothing_changes() {
    let item = format!(
        r#"{{"structuredData":{{"name":"{}","typeTag":500}}}}"#,
        name(3)
    );
    let cases = [
        (
            fixture(
                &format!(r#""filterType":"WhiteList","filterKeys":["{}"]"#, name(4)),
                "",
                None,
            ),
            "the data's filter, a whitelist of 1 key, does not hold your key",
            (1, 0, 1),
        ),
        (
            fixture(
                &format!(
                    r#""filterType":"BlackList","filterKeys":["{}"]"#,
                    your_key()
                ),
                "",
                None,
            ),
            "the data's filter, a blacklist, holds your key",
            (1, 0, 1),
        ),
        (
            fixture(r#""filterType":"BlackList""#, &item, Some(&name(4))),
            "the data holds that item signed by you already",
            (1, 1, 1),
        ),
    ];
    for (text, why, held) in cases {
        let sandbox = Sandbox::new();
        let emulator = start(&sandbox, &text);
        let data = name(1);
        let by_name = sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .args(["restore", &data, "0"])
            .run();
        by_name.code(4);
        let said = first_error(&by_name);
        assert!(
            said.contains("nothing was changed") && said.contains(why),
            "{said}"
        );
        assert_eq!(network(&emulator), held, "{why}");
        let opened = sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .args(["open", &data])
            .run();
        let handle = opened.success().stdout().trim().to_owned();
        let by_handle = sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .args(["restore", "--save", "post", &handle, "0"])
            .run();
        by_handle.code(4).stdout_is("");
        assert!(
            first_error(&by_handle).contains(why),
            "{}",
            by_handle.stderr()
        );
        assert_eq!(network(&emulator), held, "{why}");
    }
}

/// Another process saves the data while `restore NAME 0`'s append is held (after its save): the
/// append is refused with -25, sent again through a fresh handle, and lands; exit 0 and the item
/// is data on the network. On the code before: exit 4, the item in neither list.
#[test]
fn an_append_refused_after_another_save_is_sent_again_through_a_fresh_handle() {
    let sandbox = Sandbox::new();
    let emulator = start(&sandbox, &fixture(r#""filterType":"BlackList""#, "", None));
    let relay = Relay::holding(emulator.addr(), 0, is_append);
    let data = name(1);
    let running = sandbox
        .safe_ad()
        .launcher(&relay.url)
        .args(["restore", &data, "0"])
        .spawn();
    relay.wait_held();
    // Someone else saves in between: a fresh handle of theirs, posted.
    let theirs = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["open", &data])
        .run();
    let theirs = theirs.success().stdout().trim().to_owned();
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["post", &theirs])
        .run()
        .success();
    relay.release();
    let output = running.wait();
    output
        .success()
        .stdout_has(&format!("restore {data} index 0: ok\n"))
        .stdout_has("append ")
        .stderr_has("not appended: the launcher answered 400 Bad Request: errorCode -25")
        .stderr_lacks("neither");
    assert_eq!(network(&emulator), (3, 1, 0));
}

/// The append never lands (the relay answers every append -25): the first error line says the
/// item is now in neither list, with its kind, name and data id and the command that appends
/// it again (exit 4), which then makes it data again. On the code before, the error was the
/// append's, with a hint to `restore` it.
#[test]
fn an_item_left_in_neither_list_is_said_first_with_the_command_that_appends_it() {
    let sandbox = Sandbox::new();
    let emulator = start(&sandbox, &fixture(r#""filterType":"BlackList""#, "", None));
    let relay = Relay::start(emulator.addr(), |line| match is_append(line) {
        true => Hook::Answer(http_answer("400 Bad Request", INVALID_SUCCESSOR.as_bytes())),
        false => Hook::Pass,
    });
    let data = name(1);
    let output = sandbox
        .safe_ad()
        .launcher(&relay.url)
        .args(["restore", &data, "0"])
        .run();
    output.code(4);
    let data_id = {
        let mut bytes = vec![0u8; 4];
        bytes.extend([3u8; 32]);
        bytes.extend(500u64.to_le_bytes());
        base64::engine::general_purpose::STANDARD.encode(bytes)
    };
    let command = format!(
        "`safe-ad append {data} --structured {} --type-tag 500`",
        name(3)
    );
    let said = first_error(&output);
    assert!(
        said.starts_with(&format!(
            "safe-ad: error: restore {data}: deleted 0 (structured-data {}, type tag 500; data id {data_id}) is now in neither of the network's lists: the save took it off the deleted list, and the launcher refused to append it again",
            name(3)
        )) && said.ends_with(&format!("append it again with {command}")),
        "{said}"
    );
    assert_eq!(network(&emulator), (2, 0, 0));
    // The command it gives, run as given, makes the item data again.
    let words: Vec<&str> = command.trim_matches('`').split(' ').skip(1).collect();
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(words)
        .run()
        .success();
    assert_eq!(network(&emulator), (2, 1, 0));
}

/// Ctrl-C while `restore NAME 0`'s save is held: the save lands, nothing new is sent (no
/// append), and the run exits 130 saying first that the item is now in neither list with the
/// command that appends it again; the stop is said once, and the words agree on what was given
/// back (none held in the emulator after). Twice, it leaves at once with the save in flight
/// and says the item may now be in neither list. On the code before, nothing said the item was
/// lost, and the stop lines came twice.
#[test]
fn a_stop_during_the_save_says_the_item_is_in_neither_list() {
    for twice in [false, true] {
        let sandbox = Sandbox::new();
        let emulator = start(&sandbox, &fixture(r#""filterType":"BlackList""#, "", None));
        let first = emulator.next_handle();
        let relay = Relay::holding(emulator.addr(), 0, |line| {
            line.starts_with("POST /appendable-data/")
        });
        let data = name(1);
        let running = sandbox
            .safe_ad()
            .launcher(&relay.url)
            .args(["restore", &data, "0"])
            .spawn();
        let output = relay.stop(running, Running::interrupt, twice);
        output.code(130);
        let said = first_error(&output);
        let (state, why) = match twice {
            false => (
                "is now in neither of the network's lists",
                "the run stopped before it appended it again",
            ),
            true => (
                "may now be in neither of the network's lists",
                "the save's answer did not come, so it may have saved",
            ),
        };
        let command = format!(
            "`safe-ad append {data} --structured {} --type-tag 500`",
            name(3)
        );
        assert!(
            said.contains(state) && said.contains(why) && said.contains(&command),
            "{said}"
        );
        let stderr = output.stderr();
        assert_eq!(stderr.matches("safe-ad: stopping:").count(), 1, "{stderr}");
        assert!(
            !stderr.contains(": appended again after the save"),
            "{stderr}"
        );
        if !twice {
            assert!(!stderr.contains("not given back"), "{stderr}");
            assert_eq!(emulator.handles_since(first), vec![]);
        }
        assert_eq!(network(&emulator), (2, 0, 0), "twice: {twice}");
    }
}

/// A name's save refused with -25 (someone saved while the command ran): the hint says that
/// another save came first and, the item having been given by its index, to choose it by what
/// it is or look, not to reopen a handle the person never had.
#[test]
fn a_names_stale_save_says_another_came_first() {
    let sandbox = Sandbox::new();
    let emulator = start(&sandbox, &fixture(r#""filterType":"BlackList""#, "", None));
    let relay = Relay::start(emulator.addr(), |line| {
        match line.starts_with("POST /appendable-data/") {
            true => Hook::Answer(http_answer("400 Bad Request", INVALID_SUCCESSOR.as_bytes())),
            false => Hook::Pass,
        }
    });
    let data = name(1);
    let output = sandbox
        .safe_ad()
        .launcher(&relay.url)
        .args(["restore", &data, "0"])
        .run();
    output
        .code(4)
        .stderr_has("another save came first")
        .stderr_has("(`--name`, `--data-id`)")
        .stderr_lacks("reopen")
        .stderr_lacks("neither of the network's lists");
    assert_eq!(network(&emulator), (1, 0, 1));
}

/// Answers lost during `restore NAME 0` (through a proxy that lets the emulator act and drops
/// its answer): the restore's own answer lost leaves the network as it was, and the hint speaks
/// of the name and of running the command again, not of a handle's copy; the save's answer lost
/// (it landed) says first that the item may now be in neither list, with the command that
/// appends it again, and the save is not sent again.
#[test]
fn lost_answers_during_a_names_restore_say_what_the_network_may_hold() {
    use crate::harness::losing::LosingProxy;
    let data = name(1);
    let sandbox = Sandbox::new();
    let emulator = start(&sandbox, &fixture(r#""filterType":"BlackList""#, "", None));
    let proxy = LosingProxy::losing_first(emulator.addr(), "PUT /appendable-data/restore/");
    let output = sandbox
        .safe_ad()
        .launcher(&proxy.url)
        .args(["restore", &data, "0"])
        .run();
    assert_ne!(output.exit_code(), Some(0), "{}", output.stderr());
    output
        .stderr_lacks("the handle's copy")
        .stderr_lacks("reopen")
        .stderr_has(&format!(
            "`safe-ad show {data}` before you run the command again"
        ));
    assert_eq!(network(&emulator), (1, 0, 1));

    let sandbox = Sandbox::new();
    let emulator = start(&sandbox, &fixture(r#""filterType":"BlackList""#, "", None));
    let proxy = LosingProxy::losing_first(emulator.addr(), "POST /appendable-data/");
    let output = sandbox
        .safe_ad()
        .launcher(&proxy.url)
        .args(["restore", &data, "0"])
        .run();
    assert_ne!(output.exit_code(), Some(0), "{}", output.stderr());
    let said = first_error(&output);
    assert!(
        said.contains("may now be in neither of the network's lists")
            && said.contains(&format!(
                "`safe-ad append {data} --structured {} --type-tag 500`",
                name(3)
            )),
        "{said}"
    );
    assert_eq!(proxy.count("POST /appendable-data/"), 1);
    assert_eq!(network(&emulator), (2, 0, 0));
}

/// `restore NAME 0` and `restore --save post HANDLE 0` stopped at every request they send (each
/// held in turn by a relay) by one Ctrl-C, one SIGTERM and two Ctrl-C: exit 130, the stop said
/// once, and whatever the network holds afterwards is what the words say: the item still
/// deleted (version 1), data again, or (the save landed, the append did not) said to be in
/// neither list. Stopped once, nothing the run made is held in the emulator, and it never says
/// both that a handle was not given back and that every one was. On the code before, a stop
/// during the save lost the item unsaid, and the stop lines came twice.
#[test]
fn a_restore_stopped_anywhere_says_what_the_network_holds() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let data = name(1);
    // The command, given a fresh emulator: by name, or by a handle opened first.
    let by_name =
        |_: &Sandbox, _: &Emulator| vec!["restore".to_owned(), data.clone(), "0".to_owned()];
    let by_handle = |sandbox: &Sandbox, emulator: &Emulator| {
        let opened = sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .args(["open", &data])
            .run();
        let handle = opened.success().stdout().trim().to_owned();
        ["restore", "--save", "post", &handle, "0"]
            .map(str::to_owned)
            .to_vec()
    };
    type Command<'a> = &'a dyn Fn(&Sandbox, &Emulator) -> Vec<String>;
    let commands: [(&str, Command); 2] = [("by name", &by_name), ("by handle", &by_handle)];
    type Stopping = (&'static str, fn(&Running), bool);
    let ways: [Stopping; 3] = [
        ("Ctrl-C", Running::interrupt, false),
        ("SIGTERM", Running::terminate, false),
        ("Ctrl-C twice", Running::interrupt, true),
    ];
    for (form, command) in commands {
        let count = {
            let sandbox = Sandbox::new();
            let emulator = start(&sandbox, &fixture(r#""filterType":"BlackList""#, "", None));
            let args = command(&sandbox, &emulator);
            let relay = Relay::passing(emulator.addr());
            sandbox
                .safe_ad()
                .launcher(&relay.url)
                .args(args)
                .run()
                .success();
            relay.exchanges().len()
        };
        assert!(count > 10, "{form}: {count} requests");
        for at in 0..count {
            for (way, signal, twice) in ways {
                let sandbox = Sandbox::new();
                let emulator = start(&sandbox, &fixture(r#""filterType":"BlackList""#, "", None));
                let args = command(&sandbox, &emulator);
                let first = emulator.next_handle();
                let seen = Arc::new(AtomicUsize::new(0));
                let relay = Relay::start(emulator.addr(), move |_| {
                    match seen.fetch_add(1, Ordering::SeqCst) == at {
                        true => Hook::Hold,
                        false => Hook::Pass,
                    }
                });
                let running = sandbox.safe_ad().launcher(&relay.url).args(args).spawn();
                let output = relay.stop(running, signal, twice);
                let case = format!("{form}, {way} at request {at}");
                assert_eq!(output.exit_code(), Some(130), "{case}: {}", output.stderr());
                let stderr = output.stderr();
                assert_eq!(
                    stderr.matches("safe-ad: stopping:").count(),
                    1,
                    "{case}: {stderr}"
                );
                // Counted before the network is read: that read holds handles of its own.
                if !twice {
                    assert!(
                        !(stderr.contains("not given back")
                            && stderr
                                .contains("every launcher handle it had obtained was given back")),
                        "{case}: {stderr}"
                    );
                    assert_eq!(emulator.handles_since(first), vec![], "{case}: {stderr}");
                }
                let said_neither = stderr.contains("in neither of the network's lists");
                match network(&emulator) {
                    (1, 0, 1) => assert!(!said_neither, "{case}: {stderr}"),
                    (2, 1, 0) => {}
                    (2, 0, 0) => assert!(said_neither, "{case}: {stderr}"),
                    other => panic!("{case}: the network holds {other:?}: {stderr}"),
                }
            }
        }
    }
}
