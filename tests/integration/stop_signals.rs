//! SIGTERM (a CI runner's cancel) and SIGHUP (a closed terminal) stop every command exactly as
//! Ctrl-C does. Every command path clap knows that sends a request is run against a launcher
//! that reads each request and never answers, and stopped once its first request is in: by
//! SIGINT, by SIGTERM and by SIGHUP. Each run exits 130, and what the SIGTERM and SIGHUP runs
//! print (stdout and stderr: what was sent, what was not started, what it left) is exactly what
//! the SIGINT run printed. `SAFE_AD_INTERRUPT_WAIT=0` here, so a command that holds launcher
//! handles leaves at the first signal and names what it left, rather than wait for an answer
//! that never comes.

use crate::harness::*;

/// Arguments that make `path` send requests, or `None` for a command that sends nothing. Every
/// command clap knows is here: a new one fails the test until it is added.
fn sending_args(path: &str, sandbox: &Sandbox) -> Option<Vec<String>> {
    let name = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    let words: Vec<&str> = match path {
        "config path" | "config show" | "config set" | "config unset" | "completions" | "man"
        | "decode" | "auth token" | "emulator" | "emulator list" => return None,
        // Two handles, one at a time: the summary says one was sent and one not started.
        "put" | "post" | "clear-data" | "clear-deleted-data" | "metadata" | "reopen" | "drop"
        | "show" | "status" => vec![path, "--jobs", "1", "1", "2"],
        "remove" | "restore" | "purge" | "cat" => vec![path, "1", "0"],
        // A name of its own: a random one would differ between the runs compared.
        "create" => vec!["create", name, "--put"],
        "open" => vec!["open", name],
        "append" => vec!["append", "1", "--structured", name],
        "auth login" => vec!["auth", "login"],
        "auth status" => vec!["auth", "status"],
        "auth logout" => vec!["auth", "logout"],
        "auth whoami" => vec!["auth", "whoami"],
        "emulator requests" => vec!["emulator", "requests", "--count"],
        "emulator export" => {
            let file = sandbox.path().join("fixture.json");
            return Some(vec![
                "emulator".into(),
                "export".into(),
                file.display().to_string(),
            ]);
        }
        other => panic!("`safe-ad {other}`: say whether it sends, and with which arguments"),
    };
    Some(words.into_iter().map(str::to_owned).collect())
}

/// A launcher that reads every request and answers none.
fn silent_launcher() -> RawLauncher {
    RawLauncher::start(|conn| {
        if conn.request().is_some() {
            conn.hold();
        }
    })
}

/// `args` run against `launcher`, stopped by `signal` once its first request is in.
fn stopped_by(signal: &str, args: &[String], sandbox: &Sandbox, launcher: &RawLauncher) -> Output {
    let before = launcher.requests().len();
    let running = sandbox
        .safe_ad()
        .launcher(&launcher.url)
        .env("SAFE_AD_INTERRUPT_WAIT", "0")
        .args(args)
        .case(format!("SIG{signal}"))
        .spawn();
    launcher.wait_for_requests(before + 1);
    crate::harness::signal(running.pid(), signal);
    running.wait()
}

#[test]
fn every_command_stops_on_sigterm_and_sighup_as_on_ctrl_c() {
    let launcher = silent_launcher();
    let mut stopped = 0;
    for path in command_paths() {
        let sandbox = Sandbox::new();
        let Some(args) = sending_args(&path, &sandbox) else {
            continue;
        };
        let by_ctrl_c = stopped_by("INT", &args, &sandbox, &launcher);
        by_ctrl_c.code(130);
        assert!(
            !by_ctrl_c.stderr().is_empty(),
            "`safe-ad {path}` said nothing on Ctrl-C"
        );
        for signal in ["TERM", "HUP"] {
            let output = stopped_by(signal, &args, &sandbox, &launcher);
            output.code(130);
            assert_eq!(
                (output.stdout(), output.stderr()),
                (by_ctrl_c.stdout(), by_ctrl_c.stderr()),
                "`safe-ad {}` stopped by SIG{signal} did not print what it printed on Ctrl-C",
                args.join(" ")
            );
        }
        stopped += 1;
    }
    assert!(stopped >= 20, "only {stopped} commands were stopped");
}

/// A reader of stdout that stopped reading (a pager left open, a stopped process) cannot hold a
/// run past a stop signal: `cat` of content larger than a pipe holds, into a pipe nobody reads,
/// is stopped by each signal once it is writing (its reads done and every handle given back),
/// leaves the rest unwritten after the first signal's wait, says so and exits 130.
#[test]
fn a_reader_that_stopped_reading_cannot_hold_a_run_past_a_stop_signal() {
    let sandbox = Sandbox::new();
    let emulator = crate::harness::emulator::Emulator::start(&[]);
    let url = emulator.url.as_str();
    let run = |args: &[&str]| sandbox.safe_ad().launcher(url).args(args).run();
    let created = run(&["create", "--put"]);
    let handle = created.success().stdout().trim().to_owned();
    let content = sandbox.file("big.bin", vec![0x5a; 300_000]);
    let file = content.display().to_string();
    run(&["append", &handle, "--immutable", &file]).success();
    let reopened = run(&["reopen", "--drop", &handle]);
    let handle = reopened.success().stdout().trim().to_owned();
    for signal in ["TERM", "INT", "HUP"] {
        let running = sandbox
            .safe_ad()
            .launcher(url)
            .env("SAFE_AD_INTERRUPT_WAIT", "0")
            .args(["cat", "--force", &handle, "0"])
            .stdout_unread()
            .case(format!("SIG{signal}"))
            .spawn();
        // Its reads done and every handle given back, cat writes: once the pipe is full, it
        // waits for stdout to take more.
        wait_until("cat to fill the pipe nobody reads", DEADLINE, || {
            running.stdout_full().expect("a pipe's fill").then_some(())
        });
        crate::harness::signal(running.pid(), signal);
        let output = running.wait();
        output
            .code(130)
            .stderr_has("safe-ad: error: interrupted while writing to standard output: standard output's reader took nothing for 0 s after the signal; what was printed is not whole\n");
    }
}

/// A reader of stderr that stopped reading (`2>&1 | less`, its person away) cannot hold a run
/// past a stop signal either: `--verbose metadata` of 3,000 handles fills a stderr nobody reads
/// with its exchanges, and SIGTERM then ends it with exit 130, the words it could not write left
/// unwritten.
#[test]
fn a_reader_of_stderr_that_stopped_reading_cannot_hold_a_run_past_a_stop_signal() {
    let emulator = crate::harness::emulator::Emulator::start(&[]);
    let running = Sandbox::new()
        .safe_ad()
        .launcher(&emulator.url)
        .env("SAFE_AD_INTERRUPT_WAIT", "0")
        .args(["--verbose", "--jobs", "1", "metadata", "-"])
        .stdin("1\n".repeat(3000))
        .stderr_unread()
        .spawn();
    // The exchanges fill the pipe; then safe-ad waits for it to take more.
    wait_until("safe-ad to wait for stderr to take more", DEADLINE, || {
        running
            .waits_to_write()
            .expect("/proc/PID/wchan")
            .then_some(())
    });
    running.terminate();
    running.wait().code(130);
}

/// A stop signal the run was started with set to be ignored (`nohup`, a background job of a
/// script, `trap '' HUP`) stays ignored once the run talks to the launcher; the others are
/// handled, and stop it.
#[test]
fn a_signal_ignored_at_start_stays_ignored() {
    let launcher = silent_launcher();
    let sandbox = Sandbox::new();
    let running = sandbox
        .shell("sh", "trap '' HUP; exec safe-ad metadata 1")
        .launcher(&launcher.url)
        .spawn();
    launcher.wait_for_requests(1);
    let status = std::fs::read_to_string(format!("/proc/{}/status", running.pid()))
        .expect("/proc/PID/status");
    let mask = |field: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(field))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .unwrap_or_else(|| panic!("no {field} in {status}"))
    };
    // Signal N is bit N - 1: SIGHUP 1, SIGINT 2, SIGTERM 15.
    assert_ne!(
        mask("SigIgn:") & 1,
        0,
        "SIGHUP is no longer ignored:\n{status}"
    );
    assert_eq!(
        mask("SigCgt:") & (1 << 1 | 1 << 14),
        1 << 1 | 1 << 14,
        "{status}"
    );
    running.terminate();
    running
        .wait()
        .code(130)
        .stderr_has("safe-ad: error: interrupted");
}
