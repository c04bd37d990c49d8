//! SIGTERM (a CI runner's cancel) and SIGHUP (a closed terminal) stop every command exactly as
//! Ctrl-C does. Every command path clap knows that sends a request is run against a launcher
//! that reads each request and never answers, and stopped once its first request is in: by
//! SIGINT, by SIGTERM and by SIGHUP. Each run exits 130, and what the SIGTERM and SIGHUP runs
//! print (stdout and stderr: what was sent, what was not started, what it left) is exactly what
//! the SIGINT run printed. `SAFE_AD_INTERRUPT_WAIT=0` here, so a command that holds launcher
//! handles leaves at the first signal and names what it left, rather than wait for an answer
//! that never comes.

use crate::harness::emulator::Emulator;
use crate::harness::relay::Relay;
use crate::harness::*;

/// Arguments that make `path` send requests, or `None` for a command its spec says sends
/// nothing. A command that sends runs its spec's sample, but where the comparison needs more.
fn sending_args(path: &str, sandbox: &Sandbox) -> Option<Vec<String>> {
    let spec = safe_ad::test_support::cli::spec_of(path)
        .unwrap_or_else(|| panic!("`safe-ad {path}` has no spec (cli::COMMANDS)"));
    if !spec.sends() {
        return None;
    }
    let name = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    let mut sample: Vec<&str> = path.split(' ').collect();
    sample.extend(spec.sample);
    let words: Vec<&str> = match path {
        // Two handles, one at a time: the summary says one was sent and one not started.
        "put" | "post" | "clear-data" | "clear-deleted-data" | "metadata" | "reopen" | "drop"
        | "show" | "status" => vec![path, "--jobs", "1", "1", "2"],
        // A name of its own: a random one would differ between the runs compared.
        "create" => vec!["create", name, "--put"],
        "emulator export" => {
            let file = sandbox.path().join("fixture.json");
            return Some(vec![
                "emulator".into(),
                "export".into(),
                file.display().to_string(),
            ]);
        }
        _ => sample,
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

/// A way to stop a run, for [`Relay::stop`].
type Stopping = fn(&Running);

/// A relay in front of `emulator` holding the first request whose line (`GET /path HTTP/1.1`)
/// starts with `held`.
fn holding_first(emulator: &Emulator, held: &'static str) -> Relay {
    Relay::holding(emulator.addr(), 0, move |line| line.starts_with(held))
}

/// Names read from standard input are given back at the first stop signal, as names given as
/// arguments are (issue 51: the batch was dropped at once, every copy left). `metadata -` and
/// `clear-data -` with two names on standard input, each phase of the first name's work held in
/// turn (its copy taken, the operation on it, the save, the copy given back) and stopped once:
/// by SIGINT, SIGTERM, or a closed terminal's two SIGHUPs. The held request goes on once safe-ad
/// says it is stopping; then it exits 130 and the emulator holds no handle the run made.
#[test]
fn names_on_standard_input_are_given_back_at_the_first_stop_signal() {
    let cases: [(&str, &[&str]); 2] = [
        (
            "metadata",
            &[
                "GET /appendable-data/handle/",
                "GET /appendable-data/metadata/",
                "DELETE /appendable-data/handle/",
            ],
        ),
        (
            "clear-data",
            &[
                "GET /appendable-data/handle/",
                "DELETE /appendable-data/clear-data/",
                "POST /appendable-data/",
                "DELETE /appendable-data/handle/",
            ],
        ),
    ];
    let stops: [(&str, Stopping); 3] = [
        ("SIGINT", Running::interrupt),
        ("SIGTERM", Running::terminate),
        ("two SIGHUPs", Running::hang_up),
    ];
    for (command, phases) in cases {
        for held in phases {
            for (stop, signal) in stops {
                let emulator = Emulator::start(&[]);
                let names = format!("{}\n{}\n", emulator.demo_name(1), emulator.demo_name(2));
                let first = emulator.next_handle();
                let relay = holding_first(&emulator, held);
                let case = format!("{command} - with {held}… held, stopped by {stop}");
                let running = Sandbox::new()
                    .safe_ad()
                    .launcher(&relay.url)
                    .args([command, "--jobs", "1", "-"])
                    .stdin(names)
                    .case(&case)
                    .spawn();
                let output = relay.stop(running, signal, false);
                output
                    .code(130)
                    .stderr_lacks("interrupted twice")
                    .stderr_has("every launcher handle it had obtained was given back");
                assert_eq!(
                    emulator.handles_since(first),
                    vec![],
                    "{case}: handles left"
                );
            }
        }
    }
}

/// A relay in front of `emulator` holding `show`'s first read of an item by its index (`GET
/// /appendable-data/HANDLE/INDEX`, which makes a data id) while the name's copy is held.
fn holding_an_item_read(emulator: &Emulator) -> Relay {
    Relay::holding(emulator.addr(), 0, |line| {
        let path = line.split(' ').nth(1).unwrap_or("");
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        matches!(parts.as_slice(), ["appendable-data", handle, index]
            if [handle, index].iter().all(|part| part.bytes().all(|b| b.is_ascii_digit())))
    })
}

/// A closed terminal brings two SIGHUPs, the terminal's and then its shell's (issue 51: taken as
/// "interrupted twice", the run left at once, a name's copy and a data id left in the launcher).
/// A repeat of one signal within the repeat window is one stop: `show NAME`, stopped by SIGHUP
/// while an item's read (which makes a data id) is held with the copy, gets its second SIGHUP
/// as soon as it said it is stopping, still waits for the held read, gives back both handles
/// and exits 130. A different signal would count at once (`leases_interrupted`), and so does
/// the same one after the window (`Running::interrupt_again`).
#[test]
fn a_closed_terminals_two_sighups_are_one_stop_and_a_name_gives_back_its_copy() {
    let emulator = Emulator::start(&[]);
    let name = emulator.demo_name(1);
    let first = emulator.next_handle();
    let relay = holding_an_item_read(&emulator);
    let running = Sandbox::new()
        .safe_ad()
        .launcher(&relay.url)
        .args(["show", "--jobs", "1", &name])
        .spawn();
    relay.wait_held();
    crate::harness::signal(running.pid(), "HUP");
    running.wait_for_stderr("safe-ad: stopping:");
    // The shell's SIGHUP: it comes a moment after the terminal's, well within the window.
    crate::harness::signal(running.pid(), "HUP");
    relay.release();
    let output = running.wait();
    relay.release_and_settle();
    output
        .code(130)
        .stderr_lacks("interrupted twice")
        .stderr_has("every launcher handle it had obtained was given back");
    assert_eq!(emulator.handles_since(first), vec![], "handles left");
}

/// What cannot be said on a closed terminal is still done: `show NAME` whose stderr is a pipe
/// with no reader (writes there fail, as they fail on a terminal that hung up), run as the
/// leader of its own process group, gets the closed terminal's two SIGHUPs sent to the group
/// back to back while an item's read is held; once it took them, the read goes on. It exits 130,
/// and the emulator holds no handle it made: the copy and the data id were given back though
/// no word about them could be written.
#[test]
fn a_closed_terminal_that_takes_every_word_still_gets_every_handle_given_back() {
    let emulator = Emulator::start(&[]);
    let name = emulator.demo_name(1);
    let first = emulator.next_handle();
    let relay = holding_an_item_read(&emulator);
    let running = Sandbox::new()
        .safe_ad()
        .launcher(&relay.url)
        .args(["show", "--jobs", "1", &name])
        .own_process_group()
        .stderr_closed()
        .spawn();
    relay.wait_held();
    hang_up(running.pid(), true);
    wait_taken(running.pid(), "HUP");
    relay.release();
    let output = running.wait();
    relay.release_and_settle();
    output.code(130);
    assert_eq!(emulator.handles_since(first), vec![], "handles left");
}

/// A single name left while its save is in flight says the save may have acted, as a batch's
/// summary says it of the handles it sent and did not await (issue 51: it said nothing). Each
/// command that saves a name's copy (`clear-data`, `clear-deleted-data`, `remove` by selectors
/// and by index), its save held, is stopped by Ctrl-C with no wait for the launcher
/// (`SAFE_AD_INTERRUPT_WAIT=0`), and by Ctrl-C twice: it exits 130 and says so.
#[test]
fn a_single_name_left_while_its_save_is_in_flight_says_the_save_may_have_acted() {
    // Each command's words before the name, and after it.
    let commands: [(&[&str], &[&str]); 4] = [
        (&["clear-data"], &[]),
        (&["clear-deleted-data"], &[]),
        (&["remove", "--kind", "structured-data"], &[]),
        (&["remove"], &["0"]),
    ];
    for (command, after) in commands {
        for twice in [false, true] {
            let emulator = Emulator::start(&[]);
            let name = emulator.demo_name(1);
            // The save: POST or PUT /appendable-data/HANDLE.
            let relay = Relay::holding(emulator.addr(), 0, |line| {
                let mut words = line.split(' ');
                let method = words.next().unwrap_or("");
                let path = words.next().unwrap_or("");
                let handle = path.strip_prefix("/appendable-data/").unwrap_or("x");
                ["POST", "PUT"].contains(&method)
                    && !handle.is_empty()
                    && handle.bytes().all(|b| b.is_ascii_digit())
            });
            let wait = if twice { DEADLINE.as_secs() } else { 0 };
            let running = Sandbox::new()
                .safe_ad()
                .launcher(&relay.url)
                .env("SAFE_AD_INTERRUPT_WAIT", wait.to_string())
                .args(command)
                .arg(&name)
                .args(after)
                .case(format!("{command:?}, twice: {twice}"))
                .spawn();
            relay.wait_held();
            running.interrupt();
            if twice {
                running.wait_for_stderr("safe-ad: stopping:");
                running.interrupt_again();
            }
            let output = running.wait();
            relay.release_and_settle();
            output.code(130).stderr_has(
                "safe-ad: warning: a save was in flight when it left, and may have acted",
            );
        }
    }
}

/// The suite passes however it is started. Run as a script's background job (`cargo test &`:
/// SIGINT and SIGQUIT ignored) or under `nohup` (SIGHUP ignored), or with every stop signal
/// ignored, the tests that stop safe-ad by each signal still pass: the harness starts every
/// process with the default action for them (`with_default_stop_signals`). This runs this very
/// test binary, so started, on two of them.
#[test]
fn the_signal_tests_pass_when_the_suite_starts_with_stop_signals_ignored() {
    let sandbox = Sandbox::new();
    let (out, err) = (sandbox.path().join("out"), sandbox.path().join("err"));
    let exe = std::env::current_exe().expect("this test binary");
    let mut child = std::process::Command::new("/usr/bin/env")
        .arg(format!("--ignore-signal={STOP_SIGNALS}"))
        .arg("--")
        .arg(exe)
        .args(["--exact", "--test-threads=1"])
        .arg("stop_signals::every_command_stops_on_sigterm_and_sighup_as_on_ctrl_c")
        .arg("wait::a_stop_signal_during_a_wait_leaves_no_handle")
        .env("TMPDIR", sandbox.tmp())
        .stdin(std::process::Stdio::null())
        .stdout(std::fs::File::create(&out).expect("out file"))
        .stderr(std::fs::File::create(&err).expect("err file"))
        .spawn()
        .expect("the test binary starts");
    let status = wait_for_exit(&mut child, DEADLINE * 10, "the nested test run");
    let out = std::fs::read_to_string(&out).expect("its stdout");
    let err = std::fs::read_to_string(&err).expect("its stderr");
    assert!(
        status.success() && out.contains("test result: ok. 2 passed"),
        "{status}\n{out}\n{err}"
    );
}
