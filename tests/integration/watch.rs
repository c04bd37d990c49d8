//! `safe-ad watch` end to end, against the real emulator binary: under a pipe, one JSON line per
//! change for a scripted sequence of appends, removes and saves (each step waited for in the
//! emulator's journal, never guessed from the clock); on a terminal (tmux) the view redrawn in
//! place, nothing scrolled; a launcher that goes away ends it with 6 and a line; a stop signal
//! leaves no handle; `--count` ends it.

use serde_json::Value;

use crate::harness::emulator::*;
use crate::harness::screen::Screen;
use crate::harness::*;

/// A structured data name for an append.
const ITEM: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

/// How many polls the emulator has seen start: each fetches one fresh handle.
fn polls_started(emulator: &Emulator) -> usize {
    (emulator.requests().iter())
        .filter(|line| line.starts_with("GET /appendable-data/handle/"))
        .count()
}

/// Waits until a poll started after this call has ended: two more polls started.
fn a_poll_passes(emulator: &Emulator) {
    let now = polls_started(emulator);
    wait_until("a poll to pass", DEADLINE, || {
        (polls_started(emulator) >= now + 2).then_some(())
    });
}

#[test]
fn under_a_pipe_each_change_is_one_json_line_as_it_happens() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let inbox = emulator.demo_name(5);
    let run = |args: &[&str]| {
        sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .args(args)
            .run()
            .success()
            .stdout()
            .trim()
            .to_owned()
    };
    // No --json: a pipe is enough for JSON Lines, and does not end it.
    let watching = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["watch", &inbox, "--interval", "0.02"])
        .spawn();
    watching.wait_for_stdout("\"event\":\"start\"");
    run(&["append", "5", "--structured", ITEM]);
    watching.wait_for_stdout("\"event\":\"appended\"");
    let copy = run(&["open", &inbox]);
    run(&["remove", "--save", "post", &copy, "0"]);
    watching.wait_for_stdout("\"to\":2");
    let copy = run(&["open", &inbox]);
    run(&["purge", "--save", "post", &copy, "0"]);
    watching.wait_for_stdout("\"to\":3");
    a_poll_passes(&emulator);
    let mut watching = watching;
    assert!(watching.is_running(), "it ended under a pipe");
    watching.interrupt();
    let output = watching.wait();
    output.code(130);
    let events: Vec<(String, Value)> = output
        .json_lines()
        .into_iter()
        .filter(|line| line.get("event").is_some())
        .map(|line| (line["event"].as_str().expect("event").to_owned(), line))
        .collect();
    let names: Vec<&str> = events.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        ["start", "appended", "removed", "version", "purged", "version"],
        "{}",
        output.stdout()
    );
    let (_, start) = &events[0];
    assert_eq!(start["dataLength"], 3);
    assert_eq!(start["version"], 1);
    let (_, appended) = &events[1];
    assert_eq!(appended["item"]["name"], ITEM);
    assert_eq!(appended["item"]["signer_is_you"], true);
    assert_eq!(events[2].1["item"]["name"], ITEM);
    assert_eq!(
        (events[3].1["from"].clone(), events[3].1["to"].clone()),
        (1.into(), 2.into())
    );
    assert_eq!(events[4].1["item"]["name"], ITEM);
    // Polls are in order, and each line is whole.
    let polls: Vec<u64> = events
        .iter()
        .map(|(_, e)| e["poll"].as_u64().expect("poll"))
        .collect();
    assert!(polls.windows(2).all(|two| two[0] <= two[1]), "{polls:?}");
}

#[test]
fn count_ends_it_and_a_stale_copy_is_said() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["--json", "watch", "2", "--count", "1"])
        .run();
    output.success();
    let lines = output.json_lines();
    assert_eq!(lines.len(), 1, "{}", output.stdout());
    assert_eq!(lines[0]["event"], "start");
    assert_eq!(lines[0]["stale"], true);
    assert_eq!(lines[0]["copy_version"], 1);
    // A copy that becomes stale while watched: another copy's save.
    let watching = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["--json", "watch", "1", "--interval", "0.02"])
        .spawn();
    watching.wait_for_stdout("\"event\":\"start\"");
    let copy = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["reopen", "1"])
        .run();
    let copy = copy.success().stdout().trim().to_owned();
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["post", &copy])
        .run()
        .success();
    watching.wait_for_stdout("\"event\":\"stale\"");
    watching.interrupt();
    let output = watching.wait();
    output.code(130);
    let stale = output
        .json_lines()
        .into_iter()
        .find(|line| line["event"] == "stale")
        .expect("a stale event");
    assert_eq!(
        (
            stale["copy_version"].clone(),
            stale["network_version"].clone()
        ),
        (1.into(), 2.into())
    );
}

#[test]
fn a_launcher_that_goes_away_ends_it_with_6_and_a_line() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let watching = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["watch", "1", "--interval", "0.02"])
        .spawn();
    watching.wait_for_stdout("\"event\":\"start\"");
    emulator.stop();
    watching
        .wait()
        .code(6)
        .stderr_has("watch 1: the launcher went away at poll");
}

/// SIGINT, SIGTERM and SIGHUP each end a watch as Ctrl-C does: every handle given back, as
/// `/_emulator/handles` says.
#[test]
fn a_stop_signal_during_a_watch_leaves_no_handle() {
    for signal in ["INT", "TERM", "HUP"] {
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        let first = emulator.next_handle();
        let name = emulator.demo_name(5);
        let watching = sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .args(["watch", &name, "--interval", "0.005"])
            .case(signal)
            .spawn();
        watching.wait_for_stdout("\"event\":\"start\"");
        crate::harness::signal(watching.pid(), signal);
        // Stopping is how a watch ends: 130, and no error line when it left nothing (issue
        // 52: Ctrl-C printed `safe-ad: error: interrupted; ...`).
        watching.wait().code(130).stderr_lacks("error");
        assert_eq!(emulator.handles_since(first), vec![], "{signal}");
    }
}

/// `safe-ad watch 5 --interval 3` on a terminal of `size` (columns, rows), against `emulator`.
/// A poll every 3 s: each view stays on the screen while the harness's captures (every few
/// milliseconds) look for it, however loaded the machine.
fn watching_inbox(emulator: &Emulator, sandbox: &Sandbox, size: (u16, u16)) -> Screen {
    let home = sandbox.path().to_str().expect("a path").to_owned();
    let binary = safe_ad_bin().to_str().expect("a path").to_owned();
    Screen::start_sized(
        &[&binary, "watch", "5", "--interval", "3"],
        &[
            ("HOME", home.as_str()),
            ("SAFE_AD_CONFIG_DIR", home.as_str()),
            ("SAFE_LAUNCHER_URL", emulator.url.as_str()),
            ("SAFE_LAUNCHER_TOKEN", TOKEN),
            ("TERM", "xterm"),
        ],
        size,
    )
}

#[test]
fn on_a_terminal_the_view_redraws_in_place_without_scrolling() {
    if !have("tmux") {
        return;
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let screen = watching_inbox(&emulator, &sandbox, (100, 30));
    // A poll every 3 s: each view stays on the screen while the harness's captures (every few
    // milliseconds) look for it, however loaded the machine; the changed view is seen before
    // the next poll draws over it.
    screen.wait_for("watch 5: version 1, data 3, deleted 0");
    a_poll_passes(&emulator);
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["append", "5", "--structured", ITEM])
        .run()
        .success();
    // The view after the append marks the new item and says what changed.
    let shown = screen.wait_for("changed: appended (data 0)");
    assert!(shown.contains("+ data 0: structured-data"), "{shown}");
    assert!(
        shown.contains("watch 5: version 1, data 4, deleted 0"),
        "{shown}"
    );
    // Views go on being drawn, each over the one before: one header, none scrolled off; the
    // last change stays, with when it was seen (issue 52: it lasted one poll).
    screen.wait_for("; none since");
    screen.wait_for("last change: appended (data 0) at ");
    let whole = screen.whole();
    assert_eq!(whole.matches("watch 5: version").count(), 1, "{whole}");
    assert!(
        !whole.contains("data 3, deleted"),
        "an old view stayed:\n{whole}"
    );
}

/// A view taller than the window is cut to it: the header and the changes stay on the first
/// rows, the items past the last row are counted on it, and no line runs past the width (issue
/// 52: the view scrolled, its header and changes lost, a copy pushed into the scrollback at each
/// poll).
#[test]
fn on_a_small_terminal_the_view_is_cut_to_the_window() {
    if !have("tmux") {
        return skip("tmux is needed for a terminal");
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let screen = watching_inbox(&emulator, &sandbox, (50, 8));
    let shown = screen.wait_for("more lines: a taller window shows them");
    let lines: Vec<&str> = shown.lines().collect();
    assert!(
        lines[0].starts_with("watch 5: version 1, data 3"),
        "{shown}"
    );
    assert!(
        lines.iter().any(|line| line.starts_with("changed: ")),
        "{shown}"
    );
    assert!(
        lines.iter().all(|line| line.chars().count() < 50),
        "{shown}"
    );
    assert!(
        lines.iter().filter(|line| !line.is_empty()).count() <= 7,
        "past the window:\n{shown}"
    );
}

/// `watch ... | head -1`: once the reader has its line and goes, watch ends (exit 0) at its next
/// poll, though nothing changed and so nothing more would be written.
#[test]
fn watch_ends_when_its_reader_goes_though_nothing_changes() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let script = format!(
        "safe-ad watch {} --interval 0.05 | head -1",
        emulator.demo_name(5)
    );
    let output = sandbox
        .shell("sh", &script)
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .env("SAFE_LAUNCHER_TOKEN", &emulator.token)
        .run();
    output.success().stdout_has("\"event\":\"start\"");
}

/// `watch > events.jsonl` (no `--json`, not a terminal): when the launcher goes away, the event
/// stream ends with the failure's object, as under `--json`.
#[test]
fn a_piped_watch_ends_its_stream_with_the_failure_object() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let running = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["watch", "1", "--interval", "0.05"])
        .spawn();
    running.wait_for_stdout("\"event\":\"start\"");
    emulator.terminate().success();
    let output = running.wait();
    output.code(6);
    let last = output.stdout().lines().last().unwrap_or("").to_owned();
    let object: serde_json::Value = serde_json::from_str(&last).expect("a JSON line");
    assert_eq!(object["ok"], false, "{last}");
}
