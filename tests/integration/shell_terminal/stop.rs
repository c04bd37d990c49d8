//! Stopping the interactive shell: Ctrl-C during a held request or while no request runs, Ctrl-D,
//! SIGTERM and SIGHUP at the prompt or while a line runs, and Ctrl-C while the launcher holds a
//! give-back; each gives the session's handles back, or names what it left. A line typed ahead
//! while one runs runs next.

use super::*;

#[test]
fn ctrl_c_during_a_held_request_comes_back_to_the_prompt_with_the_handles_given_back() {
    if !have("tmux") {
        return;
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    // `show 1` takes a data id for each item (`GET /appendable-data/1/N`), then reads the first
    // (`GET /data-id/N`): held there, the line holds handles it must give back.
    let relay = Relay::holding(emulator.addr(), 0, |line| line.starts_with("GET /data-id/"));
    let shell = Shell::with_history(&sandbox, &relay.url);
    let first = emulator.next_handle();
    shell.screen.type_text("show 1");
    shell.screen.press(&["Enter"]);
    relay.wait_held();
    assert!(
        !emulator.handles_since(first).is_empty(),
        "the held line holds no handle yet: nothing to give back"
    );
    shell.screen.press(&["C-c"]);
    shell.screen.wait_for("safe-ad: stopping:");
    relay.release_and_settle();
    shell.screen.wait_for("safe-ad [130]> ");
    assert_eq!(shell.typed(), "safe-ad [130]>", "{}", shell.screen.whole());
    assert_eq!(
        emulator.handles_since(first),
        vec![],
        "{}",
        shell.screen.whole()
    );
    // The shell goes on: the next line runs.
    let screen = shell.run("metadata 1");
    assert_eq!(
        lines_starting(&screen, "1: version 1, data 3"),
        1,
        "{screen}"
    );
    assert_eq!(shell.typed(), "safe-ad>", "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
}

#[test]
fn ctrl_d_gives_back_the_sessions_handles() {
    let Some((emulator, _sandbox, shell)) = session() else {
        return;
    };
    let first = emulator.next_handle();
    let screen = shell.run("h = create --put");
    let created = created_handle(&screen);
    let screen = shell.run(&format!("o = open {}", emulator.demo_name(5)));
    assert_eq!(shell.typed(), "safe-ad>", "{screen}");
    let held = emulator.handles_since(first);
    assert_eq!(held.len(), 2, "{held:?}");
    assert!(held.contains(&("appendable-data", created)), "{held:?}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    let screen = shell.screen.whole();
    assert!(
        screen.contains("giving back the 2 handles this session made:"),
        "{screen}"
    );
    assert_eq!(emulator.handles_since(first), vec![], "{screen}");
}

/// A session that made one handle (`h = create --put`) and was sent `signal` (`TERM`, `HUP`)
/// at the prompt, once the shell has exited: the emulator, the first handle number the session
/// could make, the one it made, the exit code and the screen.
fn stopped_at_the_prompt(signal: &str) -> (Emulator, u64, u64, i32, String) {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let shell = Shell::with_history(&sandbox, &emulator.url);
    let first = emulator.next_handle();
    let made = created_handle(&shell.run("h = create --put"));
    assert_eq!(
        emulator.handles_since(first),
        vec![("appendable-data", made)]
    );
    crate::harness::signal(shell.screen.pid(), signal);
    let code = shell.screen.wait_exit();
    let screen = shell.screen.whole();
    (emulator, first, made, code, screen)
}

#[test]
fn a_stop_signal_at_the_prompt_ends_the_shell_with_130_giving_the_handles_back() {
    if !have("tmux") {
        return;
    }
    for signal in ["TERM", "HUP"] {
        let (_emulator, _, made, code, screen) = stopped_at_the_prompt(signal);
        assert_eq!(code, 130, "SIG{signal}:\n{screen}");
        assert!(
            screen.contains("safe-ad: shell: stopped by a signal at the prompt"),
            "{screen}"
        );
        assert!(
            screen.contains(&format!(
                "giving back the 1 handle this session made: {made}"
            )),
            "{screen}"
        );
    }
}

/// The handle the shell says it gives back must be gone from the launcher. Run a few times per
/// signal: a `drop` run in this process's own runtime was handed the very signal that ended the
/// session and stopped at once, in some runs only (the give-back is a process of its own now).
#[test]
fn a_stop_signal_at_the_prompt_leaves_no_handle_held() {
    if !have("tmux") {
        return;
    }
    for round in 0..4 {
        for signal in ["TERM", "HUP"] {
            let (emulator, first, _, code, screen) = stopped_at_the_prompt(signal);
            assert_eq!(code, 130, "SIG{signal}:\n{screen}");
            assert_eq!(
                emulator.handles_since(first),
                vec![],
                "SIG{signal}, round {round}:\n{screen}"
            );
            assert!(
                !screen.contains("interrupted; no new requests were sent"),
                "the drop that gives the handles back was stopped:\n{screen}"
            );
        }
    }
}

/// What is typed while a line runs is the next line, as in sh: typed ahead during a held
/// request, it runs once the line before has ended.
#[test]
fn a_line_typed_while_one_runs_runs_next() {
    if !have("tmux") {
        return;
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let relay = Relay::holding(emulator.addr(), 0, |line| {
        line.starts_with("GET /appendable-data/metadata/1 ")
    });
    let shell = Shell::with_history(&sandbox, &relay.url);
    shell.screen.type_text("metadata 1");
    shell.screen.press(&["Enter"]);
    relay.wait_held();
    // The terminal echoes what is typed ahead while the line runs.
    shell.screen.type_text("metadata 2");
    shell.screen.press(&["Enter"]);
    shell.screen.wait_for("metadata 2");
    relay.release_and_settle();
    let screen = shell.screen.wait_for("2: version 1");
    assert_eq!(lines_starting(&screen, "1: version 1"), 1, "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
}

/// SIGTERM while a line runs is that line's stop, as on the command line, and then the session
/// ends: the line's handles and the session's are given back, exit 130.
#[test]
fn sigterm_while_a_line_runs_stops_it_and_ends_the_session() {
    if !have("tmux") {
        return;
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let relay = Relay::holding(emulator.addr(), 0, |line| line.starts_with("GET /data-id/"));
    let shell = Shell::with_history(&sandbox, &relay.url);
    let first = emulator.next_handle();
    let made = created_handle(&shell.run("h = create --put"));
    shell.screen.type_text("show 1");
    shell.screen.press(&["Enter"]);
    relay.wait_held();
    assert!(emulator.handles_since(first).len() > 1);
    crate::harness::signal(shell.screen.pid(), "TERM");
    shell.screen.wait_for("safe-ad: stopping:");
    relay.release_and_settle();
    let code = shell.screen.wait_exit();
    let screen = shell.screen.whole();
    assert_eq!(code, 130, "{screen}");
    assert!(
        screen.contains(&format!(
            "giving back the 1 handle this session made: {made}"
        )),
        "{screen}"
    );
    assert_eq!(emulator.handles_since(first), vec![], "{screen}");
}

/// A Ctrl-C that comes while no runtime runs (here during `decode -`, which reads the
/// terminal and sends nothing) is that line's alone: the next line runs. tokio hands a runtime
/// started later a signal that came while none ran, and it stopped the next line with
/// `interrupted` until the signal's own flag told the two apart. A SIGINT sent while the prompt
/// waits (by `kill`: Ctrl-C is a key there) is the prompt's too.
#[test]
fn a_ctrl_c_while_no_runtime_runs_does_not_stop_the_next_line() {
    let Some((_emulator, _sandbox, shell)) = session() else {
        return;
    };
    // A line that sends first: its runtime is what leaves tokio's handlers in place.
    shell.run("metadata 1");
    let before = prompts(&shell.screen.whole());
    shell.screen.type_text("decode -");
    shell.screen.press(&["Enter"]);
    shell.screen.wait_for("safe-ad> decode -");
    shell.screen.press(&["C-c"]);
    shell.screen.wait_for("^C");
    shell.screen.press(&["C-d"]);
    shell.wait_prompts(before + 1);
    crate::harness::signal(shell.screen.pid(), "INT");
    let screen = shell.run("metadata 2");
    let after = screen.rsplit("metadata 2").next().unwrap_or_default();
    assert!(!after.contains("interrupted"), "{screen}");
    assert_eq!(lines_starting(&screen, "2: version"), 1, "{screen}");
    assert_eq!(shell.typed(), "safe-ad>", "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
}

/// The give-back at the session's end stops on Ctrl-C as a `drop` on the command line does:
/// a launcher that holds the drop does not hold the session past it, and the handles whose drop
/// was stopped are named with the request that frees them. (The drop used to run in a process group of its own,
/// with the session's signals held: nothing but SIGKILL ended it before its timeout.)
#[test]
fn ctrl_c_stops_a_give_back_the_launcher_holds_and_names_what_it_left() {
    if !have("tmux") {
        return;
    }
    let emulator = Emulator::start(&[]);
    let relay = Relay::holding(emulator.addr(), 0, |line| {
        line.starts_with("DELETE /appendable-data/handle/")
    });
    let sandbox = Sandbox::new();
    let shell = Shell::with_history(&sandbox, &relay.url);
    let made = created_handle(&shell.run("h = create --put"));
    shell.screen.press(&["C-d"]);
    relay.wait_held();
    shell.screen.press(&["C-c"]);
    // The drop ends at once, held request and all, and the shell after it.
    assert_eq!(shell.screen.wait_exit(), 130, "{}", shell.screen.whole());
    relay.release_and_settle();
    let screen = shell.screen.whole();
    assert!(
        screen.contains(&format!(
            "giving back the 1 handle this session made: {made}"
        )),
        "{screen}"
    );
    assert!(
        screen.contains(&format!(
            "may not have been given back (the give-back was stopped):\n  appendable-data {made}: DELETE {}/appendable-data/handle/{made}",
            relay.url
        )),
        "{screen}"
    );
}
