//! The lease promise, swept over every command that makes or holds launcher handles: `create
//! --put`, `open`, `reopen` (with and without `--drop`), `show`, `status`, `append` (of a name
//! and of immutable content), `remove` by selectors, `restore --save post`, `cat`, `capture` and
//! `auth whoami`, and commands given a data's name in place of a handle (the fresh copy they take),
//! each against the emulator binary behind a proxy.
//!
//! First a run that passes everything finds which of the command's requests make a handle (the
//! emulator answers them with a `handleId`). Then, for each such route in turn, a fresh emulator
//! and a run whose first request of that route is held before the emulator sees it, stopped
//! four ways: one Ctrl-C (the held request then let go), two Ctrl-C (it leaves at once; the
//! request is let go after it exited, so the emulator makes a handle nobody reads), one
//! SIGTERM, and a closed terminal's two SIGHUPs back to back (one stop, as one Ctrl-C). After the exit, every handle the emulator holds that was made during the run is
//! either given back or named on stderr with its kind and the request that frees it (its number
//! where it is known, or the request that may have made it), and the exit code is 130.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::harness::emulator::{Emulator, HANDLE_KINDS};
use crate::harness::http::name;
use crate::harness::relay::{Hook, Relay};
use crate::harness::*;

/// How a run is stopped while one of its requests is held.
#[derive(Debug, Clone, Copy)]
enum Stopping {
    /// One Ctrl-C; the held request goes on once safe-ad says it is stopping.
    CtrlC,
    /// Two Ctrl-C: safe-ad leaves at once, and the held request goes on after it exited.
    CtrlCTwice,
    /// One SIGTERM (a CI runner's cancel); as one Ctrl-C.
    Sigterm,
    /// A closed terminal: two SIGHUPs back to back, the terminal's and its shell's; as one
    /// Ctrl-C.
    Hangup,
}

/// The arguments of a command of the sweep, given the emulator it runs against (for a data's
/// name, or a fresh handle of its own) and the sandbox (for a file).
type Args = fn(&Emulator, &Sandbox) -> Vec<String>;

/// A request line's route: `GET /appendable-data/7/0` as `GET /appendable-data/N/N`.
fn route(line: &str) -> String {
    let mut words = line.split(' ');
    let (method, path) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let path: Vec<&str> = path
        .split('/')
        .map(
            |part| match !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
                true => "N",
                false => part,
            },
        )
        .collect();
    format!("{method} {}", path.join("/"))
}

/// The routes of the requests `args` sends that make a handle, in the order first sent.
fn handle_making_routes(args: Args) -> Vec<String> {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let proxy = Relay::passing(emulator.addr());
    let args = args(&emulator, &sandbox);
    let output = sandbox.safe_ad().launcher(&proxy.url).args(&args).run();
    output.success();
    let mut routes: Vec<String> = Vec::new();
    for (line, answer) in proxy.exchanges() {
        let made = String::from_utf8_lossy(&answer).contains("\"handleId\"");
        if made && !routes.contains(&route(&line)) {
            routes.push(route(&line));
        }
    }
    assert!(!routes.is_empty(), "{args:?} made no handle");
    routes
}

/// Checks that each handle in `made` is named on stderr: by its kind and number with the
/// request that frees it (`data-id 12: DELETE ...`), or, when its number was never read, by a
/// line naming a request that may have made a handle of its kind (one such line covers one
/// handle). With `--json`, the same of the `left_behind` object on stdout: an entry with its
/// `kind`, `handle` and a `free` request, or one of its kind with a `made_by` and no number.
fn assert_accounted(made: &[(&str, u64)], output: &Output, json: bool, case: &str) {
    let stderr = output.stderr();
    let left: Vec<serde_json::Value> = match json {
        true => (output.json_lines().into_iter())
            .filter_map(|line| line["left_behind"].as_array().cloned())
            .flatten()
            .collect(),
        false => Vec::new(),
    };
    let mut unknown: Vec<(&str, usize, usize)> = HANDLE_KINDS
        .iter()
        .map(|(_, kind)| {
            let in_json = (left.iter())
                .filter(|entry| entry["kind"] == *kind && entry["handle"].is_null())
                .filter(|entry| entry["made_by"].is_string())
                .count();
            let said = stderr.matches(&format!(" {kind} handle that ")).count();
            (*kind, said, in_json)
        })
        .collect();
    for (kind, handle) in made {
        let said = stderr.contains(&format!("{kind} {handle}: DELETE "));
        let in_json = left.iter().any(|entry| {
            entry["kind"] == *kind
                && entry["handle"] == *handle
                && entry["free"]
                    .as_str()
                    .is_some_and(|free| free.starts_with("DELETE "))
        });
        if said && (in_json || !json) {
            continue;
        }
        let (_, said_unknown, json_unknown) = unknown
            .iter_mut()
            .find(|(named, _, _)| named == kind)
            .expect("a known kind");
        assert!(
            (said || *said_unknown > 0) && (in_json || !json || *json_unknown > 0),
            "{case}: the emulator holds {kind} {handle}, made by the run, and safe-ad neither gave it back nor named it with the request that frees it:\n{stderr}\n{}",
            output.stdout()
        );
        if !said {
            *said_unknown -= 1;
        }
        if json && !in_json {
            *json_unknown -= 1;
        }
    }
}

/// A relay in front of `emulator` holding the first request whose line (`GET /path HTTP/1.1`)
/// `matches`.
fn holding_first(
    emulator: &Emulator,
    matches: impl Fn(&str) -> bool + Send + Sync + 'static,
) -> Relay {
    let held = AtomicBool::new(false);
    Relay::start(emulator.addr(), move |line| {
        match matches(line) && !held.swap(true, Ordering::SeqCst) {
            true => Hook::Hold,
            false => Hook::Pass,
        }
    })
}

/// One run of `args`, its first request of `held_route` held, stopped as `stopping` says.
fn stopped_while_held(args: Args, held_route: &str, stopping: Stopping) {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let args = args(&emulator, &sandbox);
    let first = emulator.next_handle();
    let wanted = held_route.to_owned();
    let proxy = holding_first(&emulator, move |line| route(line) == wanted);
    // `cat` writes content and `capture` a fixture, not JSON Lines; every other command of the
    // sweep says in JSON too.
    let json = args[0] != "cat" && args[0] != "capture";
    let case = format!("{args:?} with {held_route} held, {stopping:?}");
    let running = sandbox
        .safe_ad()
        .launcher(&proxy.url)
        .args(&args)
        .args(json.then_some("--json"))
        .case(&case)
        .spawn();
    let output = stopped_while_held_by(running, &proxy, stopping);
    output.code(130);
    assert_accounted(&emulator.handles_since(first), &output, json, &case);
}

/// Stops `running` as `stopping` says once `proxy` holds one of its requests ([`Relay::stop`]):
/// how it ended.
fn stopped_while_held_by(running: Running, proxy: &Relay, stopping: Stopping) -> Output {
    match stopping {
        Stopping::CtrlC => proxy.stop(running, Running::interrupt, false),
        Stopping::CtrlCTwice => proxy.stop(running, Running::interrupt, true),
        Stopping::Sigterm => proxy.stop(running, Running::terminate, false),
        Stopping::Hangup => proxy.stop(running, Running::hang_up, false),
    }
}

/// The sweep of one command: each route that makes a handle held in turn, each way of stopping.
fn sweep(args: Args) {
    for held_route in handle_making_routes(args) {
        for stopping in [
            Stopping::CtrlC,
            Stopping::CtrlCTwice,
            Stopping::Sigterm,
            Stopping::Hangup,
        ] {
            stopped_while_held(args, &held_route, stopping);
        }
    }
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| (*word).to_owned()).collect()
}

#[test]
fn create_put() {
    sweep(|_, _| strings(&["create", "--put"]));
}

#[test]
fn open() {
    sweep(|emulator, _| vec!["open".into(), emulator.demo_name(1)]);
}

#[test]
fn reopen() {
    sweep(|_, _| strings(&["reopen", "1"]));
}

#[test]
fn reopen_drop() {
    sweep(|emulator, _| {
        let fresh = emulator.fresh_handle(1);
        vec!["reopen".into(), "--drop".into(), fresh.to_string()]
    });
}

#[test]
fn show() {
    sweep(|_, _| strings(&["show", "--jobs", "1", "1"]));
}

#[test]
fn status() {
    sweep(|_, _| strings(&["status", "--jobs", "1", "1"]));
}

#[test]
fn append_a_name() {
    sweep(|_, _| strings(&["append", "1", "--structured", &name(0x5a)]));
}

#[test]
fn append_immutable() {
    sweep(|_, sandbox| {
        let file = sandbox.file("message.txt", "Meeting moved to 4pm.\n");
        strings(&["append", "5", "--immutable", &file.display().to_string()])
    });
}

#[test]
fn remove_by_selector() {
    sweep(|_, _| strings(&["remove", "--kind", "structured-data", "1"]));
}

#[test]
fn restore_by_selector() {
    sweep(|_, _| strings(&["restore", "--signed-by", "others", "1"]));
}

#[test]
fn purge_by_selector() {
    sweep(|_, _| strings(&["purge", "--signed-by", "others", "1"]));
}

#[test]
fn restore_save_post() {
    sweep(|_, _| strings(&["restore", "--save", "post", "1", "0"]));
}

#[test]
fn cat() {
    sweep(|_, _| strings(&["cat", "5", "0"]));
}

// A name in place of a handle: the fresh copy taken for it is a lease too, whichever family of
// command works on it (a batch's operation, a change by selectors, a read, an append).

#[test]
fn clear_data_by_name() {
    sweep(|emulator, _| vec!["clear-data".into(), emulator.demo_name(1)]);
}

#[test]
fn remove_by_name_and_selector() {
    sweep(|emulator, _| {
        let data = emulator.demo_name(1);
        strings(&["remove", "--kind", "structured-data", &data])
    });
}

#[test]
fn show_by_name() {
    sweep(|emulator, _| strings(&["show", "--jobs", "1", &emulator.demo_name(1)]));
}

#[test]
fn cat_by_name() {
    sweep(|emulator, _| strings(&["cat", &emulator.demo_name(5), "0"]));
}

#[test]
fn append_by_name() {
    sweep(|emulator, _| {
        let data = emulator.demo_name(1);
        strings(&["append", &data, "--structured", &name(0x5a)])
    });
}

#[test]
fn capture_by_name() {
    // Demo data 1's items point at demo data 2's: a copy of each, taken in turn.
    sweep(|emulator, _| strings(&["capture", &emulator.demo_name(1)]));
}

#[test]
fn whoami() {
    sweep(|_, _| strings(&["auth", "whoami"]));
}

/// The handle the emulator holds of `kind` that the run made, if exactly one.
fn the_one(made: &[(&str, u64)], kind: &str) -> Option<u64> {
    let of_kind: Vec<u64> = (made.iter())
        .filter(|(named, _)| *named == kind)
        .map(|(_, handle)| *handle)
        .collect();
    match of_kind.as_slice() {
        [] => None,
        [one] => Some(*one),
        more => panic!("{} {kind} handles: {more:?}", more.len()),
    }
}

/// A name for data the test creates, so that it can open it after.
const NEW_NAME: &str = "c2FmZS1hZCB0ZXN0OiBtYWRlIGluIGZsaWdodC4uLi4=";

/// Whether the network holds data of `name`, read by the test itself.
fn on_network(emulator: &Emulator, name: &str) -> bool {
    emulator.fetch_named(name).status == 200
}

/// `create NEW_NAME --put` with `extra` against a fresh emulator, its first request whose line
/// starts with `held` held, stopped as `stopping` says: the emulator, how the run ended, and
/// the handles the run left in the emulator.
fn create_stopped(
    held: &'static str,
    extra: &[&str],
    stopping: Stopping,
) -> (Emulator, Output, Vec<(&'static str, u64)>) {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let first = emulator.next_handle();
    let proxy = holding_first(&emulator, move |line| line.starts_with(held));
    let running = sandbox
        .safe_ad()
        .launcher(&proxy.url)
        .args(["create", NEW_NAME, "--put"])
        .args(extra)
        .spawn();
    let output = stopped_while_held_by(running, &proxy, stopping);
    let made = emulator.handles_since(first);
    (emulator, output, made)
}

#[test]
fn create_stopped_while_the_create_is_in_flight_waits_for_it_and_gives_the_handle_back() {
    let (emulator, output, made) =
        create_stopped("POST /appendable-data ", &["--json"], Stopping::CtrlC);
    output
        .code(130)
        .stderr_has("interrupted before it finished, so handle ")
        .stderr_has("every launcher handle it had obtained was given back");
    let lines = output.json_lines();
    let create = lines
        .iter()
        .find(|line| line["command"] == "create")
        .expect("the create's result");
    assert_eq!(create["given_back"], true, "{lines:?}");
    assert!(
        emulator
            .requests()
            .iter()
            .all(|line| !line.starts_with("PUT ")),
        "the save was sent after Ctrl-C: {:?}",
        emulator.requests()
    );
    assert_eq!(made, [], "a handle was left");
    assert!(!on_network(&emulator, NEW_NAME), "the data was saved");
}

#[test]
fn create_stopped_while_its_save_is_in_flight_keeps_the_saved_data_and_names_its_handle() {
    let (emulator, output, made) = create_stopped("PUT /appendable-data/", &[], Stopping::CtrlC);
    let handle = the_one(&made, "appendable-data").expect("the new handle is live");
    // Every request was sent, so the handle is the person's: printed, and named as what the
    // run leaves, since a run that exits 130 hands it to no script.
    output
        .code(130)
        .stdout_is(&format!("{handle}\n"))
        .stderr_has(&format!(
            "created handle {handle}, name {NEW_NAME}, saved to the network"
        ))
        .stderr_has(&format!("appendable-data {handle}: DELETE "));
    assert!(on_network(&emulator, NEW_NAME), "the save did not land");
}

#[test]
fn create_left_at_once_while_its_save_is_in_flight_names_the_handle_and_the_data() {
    let (_emulator, output, made) =
        create_stopped("PUT /appendable-data/", &[], Stopping::CtrlCTwice);
    let handle = the_one(&made, "appendable-data").expect("the new handle is live");
    output
        .code(130)
        .stdout_is("")
        .stderr_has(&format!("appendable-data {handle}: DELETE "))
        .stderr_has(&format!(
            "the new data's name is {NEW_NAME}: if its save reached the network, `safe-ad open {NEW_NAME}`"
        ));
}

#[test]
fn open_left_at_once_names_the_fetch_in_flight_in_its_json() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let first = emulator.next_handle();
    let proxy = holding_first(&emulator, |line| {
        line.starts_with("GET /appendable-data/handle/")
    });
    let running = sandbox
        .safe_ad()
        .launcher(&proxy.url)
        .args(["open", &emulator.demo_name(1), "--json"])
        .spawn();
    let output = stopped_while_held_by(running, &proxy, Stopping::CtrlCTwice);
    output.code(130);
    let lines = output.json_lines();
    let left = lines
        .iter()
        .find_map(|line| line["left_behind"].as_array())
        .unwrap_or_else(|| panic!("no left_behind: {lines:?}"));
    let fetch = left
        .iter()
        .find(|entry| entry["kind"] == "appendable-data")
        .unwrap_or_else(|| panic!("the fetch in flight is not named: {left:?}"));
    assert_eq!(fetch["handle"], serde_json::Value::Null);
    let made_by = fetch["made_by"].as_str().expect("made_by");
    assert!(
        made_by.starts_with("GET ") && made_by.contains("/appendable-data/handle/"),
        "{made_by}"
    );
    assert_accounted(
        &emulator.handles_since(first),
        &output,
        true,
        "open, left at once",
    );
}

#[test]
fn a_timeout_on_create_or_open_names_the_handle_it_may_have_made() {
    for (words, held, made_by) in [
        (
            vec!["create", NEW_NAME, "--put"],
            "POST /appendable-data ",
            "POST ",
        ),
        (vec!["open", "DEMO"], "GET /appendable-data/handle/", "GET "),
    ] {
        let sandbox = Sandbox::new();
        let emulator = Emulator::start(&[]);
        let first = emulator.next_handle();
        let demo = emulator.demo_name(1);
        let args: Vec<&str> = (words.iter())
            .map(|word| if *word == "DEMO" { demo.as_str() } else { word })
            .collect();
        let proxy = holding_first(&emulator, move |line| line.starts_with(held));
        let output = sandbox
            .safe_ad()
            .launcher(&proxy.url)
            .args(&args)
            .args(["--timeout", "1", "--json"])
            .run();
        proxy.release_and_settle();
        output
            .code(6)
            .stderr_has("launcher handle it obtained may be left in the launcher")
            .stderr_has(&format!("an appendable-data handle that {made_by}"))
            .stderr_has("its answer was lost");
        assert_accounted(&emulator.handles_since(first), &output, true, held);
    }
}

#[test]
fn reopen_of_eight_handles_left_at_once_names_every_fetch_in_flight() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let handles: Vec<String> = (0..8)
        .map(|_| format!("{}\n", emulator.fresh_handle(1)))
        .collect();
    let first = emulator.next_handle();
    let proxy = Relay::start(emulator.addr(), |line| {
        match line.starts_with("GET /appendable-data/handle/") {
            true => Hook::Hold,
            false => Hook::Pass,
        }
    });
    let running = sandbox
        .safe_ad()
        .launcher(&proxy.url)
        .args(["reopen", "--jobs", "8", "-"])
        .stdin(handles.concat())
        .spawn();
    proxy.wait_held_at_least(8);
    running.interrupt();
    running.wait_for_stderr("safe-ad: stopping:");
    running.interrupt_again();
    let output = running.wait();
    proxy.release_and_settle();
    output.code(130);
    let made = emulator.handles_since(first);
    let fetched = made.iter().filter(|(kind, _)| *kind == "appendable-data");
    assert_eq!(fetched.count(), 8, "{made:?}");
    assert_accounted(&made, &output, false, "reopen --jobs 8, left at once");
}

/// A request that went out and failed is not one the stop held back: the command did what it
/// could, and the handle it made stays the person's, named as what the run leaves, never given
/// back behind the words. Here the last request's answer is lost (`--timeout 1`) after one
/// Ctrl-C: `reopen --drop`'s drop of the old handle (which the launcher then acts on), and
/// `create --put`'s save (which the launcher then saves).
#[test]
fn a_request_sent_and_failed_after_ctrl_c_leaves_the_new_handle_named_not_given_back() {
    for (held, make) in [
        ("DELETE /appendable-data/handle/", "reopen"),
        ("PUT /appendable-data/", "create"),
    ] {
        let sandbox = Sandbox::new();
        let emulator = Emulator::start(&[]);
        let old = emulator.fresh_handle(1).to_string();
        let args = match make {
            "reopen" => vec!["reopen", "--drop", old.as_str()],
            _ => vec!["create", NEW_NAME, "--put"],
        };
        let first = emulator.next_handle();
        let proxy = holding_first(&emulator, move |line| line.starts_with(held));
        let running = sandbox
            .safe_ad()
            .launcher(&proxy.url)
            .args(&args)
            .args(["--timeout", "1"])
            .spawn();
        proxy.wait_held();
        running.interrupt();
        running.wait_for_stderr("safe-ad: stopping:");
        // The held request's answer never comes: safe-ad gives up on it after a second.
        let output = running.wait();
        proxy.release_and_settle();
        let made = emulator.handles_since(first);
        let handle = the_one(&made, "appendable-data").expect("the new handle is live");
        output
            .code(130)
            .stdout_is(&format!("{handle}\n"))
            .stderr_has(&format!("appendable-data {handle}: DELETE "))
            .stderr_lacks("given back")
            .stderr_lacks("is as it was");
    }
}

/// A handle the stop had given back whose giving back failed (the launcher answers the drop
/// with a 500) is not said to be given back: the words say it could not be, `--json` says
/// `"given_back": false`, and it is named with the request that frees it.
#[test]
fn a_made_handle_whose_giving_back_fails_is_said_so_and_named() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let held = AtomicBool::new(false);
    let proxy = Relay::start(emulator.addr(), move |line| {
        if line.starts_with("POST /appendable-data ") && !held.swap(true, Ordering::SeqCst) {
            Hook::Hold
        } else if line.starts_with("DELETE /appendable-data/handle/") {
            Hook::Answer(b"HTTP/1.1 500 Internal Server Error\r\ncontent-length: 4\r\n\r\nbusy")
        } else {
            Hook::Pass
        }
    });
    let first = emulator.next_handle();
    let running = sandbox
        .safe_ad()
        .launcher(&proxy.url)
        .args(["create", NEW_NAME, "--put", "--json"])
        .spawn();
    let output = stopped_while_held_by(running, &proxy, Stopping::CtrlC);
    let made = emulator.handles_since(first);
    let handle = the_one(&made, "appendable-data").expect("the new handle is live");
    output
        .code(130)
        .stderr_has(&format!(
            "so handle {handle} could not be given back (it is named below)"
        ))
        .stderr_has(&format!("appendable-data {handle}: DELETE "));
    let lines = output.json_lines();
    let create = lines
        .iter()
        .find(|line| line["command"] == "create")
        .expect("the create's result");
    assert_eq!(create["given_back"], false, "{lines:?}");
    assert_accounted(&made, &output, true, "a failed giving back");
}
