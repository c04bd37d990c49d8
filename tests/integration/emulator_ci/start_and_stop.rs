//! A start that fails, never listens or whose starter gets a signal or is killed leaves nothing
//! running; `--stop` fails when the save or the log does, signals nothing but the emulator its
//! variables name, and leftovers of any session are found and killed.

use super::*;

/// The emulator's address from its URL.
fn address(url: &str) -> SocketAddr {
    url.strip_prefix("http://")
        .and_then(|rest| rest.parse().ok())
        .unwrap_or_else(|| panic!("not a loopback URL: {url}"))
}

// ---- a start that fails ----------------------------------------------------------------------

/// Checks that a start that failed left nothing: no output on stdout, no process, no directory.
#[track_caller]
fn nothing_left(job: &CiJob, output: &Output) {
    // Nothing, or the one line that makes an `eval` of the output fail.
    output.check(
        output.stdout().is_empty() || output.stdout() == safe_ad_emulator::test_support::EVAL_FAILS,
        "variables printed for a failed start",
    );
    job.leftovers.assert_none();
    assert_eq!(job.temporary_files(), Vec::<String>::new());
}

#[test]
fn a_failed_start_returns_with_the_emulators_own_exit_code_and_reason() {
    let job = CiJob::new();
    let taken = TcpListener::bind("127.0.0.1:0").expect("a port to hold");
    let port = taken.local_addr().expect("addr").to_string();
    let output = job
        .safe_ad()
        .args(["emulator", "--background", "--listen", &port])
        .run();
    output.code(1).stderr_has(&format!(
        "safe-ad emulator: error: cannot listen on {port}: Address already in use"
    ));
    nothing_left(&job, &output);

    job.sandbox.file(
        "bad.json",
        r#"{"format":"safe-ad-emulator-state/1","extra":1}"#,
    );
    let output = job
        .safe_ad()
        .args(["emulator", "--background", "--listen", "127.0.0.1:0"])
        .args(["--state", "bad.json"])
        .run();
    output
        .code(2)
        .stderr_has("safe-ad emulator: error: --state bad.json: unknown field `extra`");
    nothing_left(&job, &output);

    let output = job
        .safe_ad()
        .args(["emulator", "--background", "--listen", "127.0.0.1:0"])
        .args(["--log", "missing/log.jsonl"])
        .run();
    output
        .code(2)
        .stderr_has("--log missing/log.jsonl: cannot create it: no such file or directory");
    nothing_left(&job, &output);

    // A closed stdout, or /dev/null: the variables would go nowhere, so nothing is started.
    for redirect in [">&-", ">/dev/null"] {
        let output = job
            .shell(
                "sh",
                &format!("safe-ad emulator --background --listen 127.0.0.1:0 {redirect}"),
            )
            .case(redirect)
            .run();
        output
            .code(2)
            .stderr_has("--background: stdout is /dev/null (or closed), so the variables");
        nothing_left(&job, &output);
    }
    // A stdout whose reader is gone before the variables come (a FIFO whose one reader the
    // shell closes once the starter holds it; the --log FIFO makes the emulator wait till then):
    // the emulator is stopped.
    let output = job
        .shell(
            "sh",
            "mkfifo out log.fifo
             exec 4<>out 6>out
             safe-ad emulator --background --quiet --listen 127.0.0.1:0 --log log.fifo >&6 4<&- 6>&- &
             starter=$!
             exec 4<&- 6>&-
             exec 5<log.fifo
             wait $starter",
        )
        .run();
    output
        .code(1)
        .stderr_has("--background: cannot hand the emulator over (Broken pipe); stopping it");
    nothing_left(&job, &output);

    // What the starter itself refuses: clap's usage errors.
    for (args, says) in [
        (&["--background", "--", "true"][..], "cannot be used with"),
        (&["--format", "env"][..], "--background"),
        (
            &["--background", "--format", "csh"][..],
            "invalid value 'csh'",
        ),
        (
            &["--background", "--ready-timeout", "0"][..],
            "--ready-timeout",
        ),
        (&["--stop", "--quiet"][..], "cannot be used with"),
    ] {
        let output = job.safe_ad().arg("emulator").args(args).run();
        output.code(2).stderr_has(says);
        nothing_left(&job, &output);
    }
}

/// Makes `log.fifo` in the job's directory, a FIFO nobody reads: an emulator given it as `--log`
/// waits to open it, for ever, before it listens.
fn fifo_nobody_reads(job: &CiJob) {
    job.sandbox.named_fifo("log.fifo");
}

/// Starts `--background` with `--log log.fifo` (see [`fifo_nobody_reads`]), and waits until the
/// emulator it starts is there: the starter, still waiting, and the emulator's process id.
fn starting_for_ever(job: &CiJob, case: &str) -> (Running, u32) {
    fifo_nobody_reads(job);
    let starter = job
        .safe_ad()
        .args(["emulator", "--background", "--listen", "127.0.0.1:0"])
        .args(["--log", "log.fifo"])
        .case(case)
        .spawn();
    let emulator = wait_until("the emulator to be started", DEADLINE, || {
        job.leftovers.running().iter().find_map(|line| {
            line.contains(" emulator --listen")
                .then(|| line.split(' ').next()?.parse::<u32>().ok())
                .flatten()
        })
    });
    (starter, emulator)
}

#[test]
fn a_start_that_never_listens_is_stopped_after_the_ready_timeout() {
    let job = CiJob::new();
    // A --log FIFO nobody reads: the emulator waits to open it, for ever.
    fifo_nobody_reads(&job);
    let output = job
        .safe_ad()
        .args(["emulator", "--background", "--listen", "127.0.0.1:0"])
        .args(["--log", "log.fifo", "--ready-timeout", "1"])
        .run();
    output
        .code(1)
        .stderr_has("the emulator was not listening after 1 s (--ready-timeout); stopping it")
        .stderr_has("SIGTERM before it was ready: nothing was served, nothing saved");
    nothing_left(&job, &output);
    // A --token-file pipe whose writer never writes (nor ends): the pipe opens at once, reading
    // it waits; the message names that cause too, as --ready-timeout's help does.
    let help = job.safe_ad().args(["emulator", "--help"]).run();
    let words = help.success().stdout().split_whitespace();
    assert!(
        words.collect::<Vec<_>>().join(" ").contains(
            "With --background: a --log FIFO nobody reads, or a --token-file pipe (`<(...)`) \
             whose writer never writes, would keep it waiting for ever"
        ),
        "{}",
        help.stdout()
    );
    let output = job
        .shell(
            "bash",
            "safe-ad emulator --background --listen 127.0.0.1:0 --ready-timeout 1 \
                 --token-file <(exec sleep 600)
             code=$?
             kill $!
             exit $code",
        )
        .run();
    output
        .code(1)
        .stderr_has(
            "the emulator was not listening after 1 s (--ready-timeout); stopping it. A --log \
             FIFO that nobody reads, or a --token-file pipe whose writer never writes, keeps it \
             waiting",
        )
        .stderr_has("SIGTERM before it was ready: nothing was served, nothing saved");
    nothing_left(&job, &output);
}

#[test]
fn a_signal_to_the_starter_stops_the_emulator_it_was_starting() {
    for (signal, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let job = CiJob::new();
        let (starter, _) = starting_for_ever(&job, signal);
        crate::harness::signal(starter.pid(), signal);
        let output = starter.wait();
        output.code(code).stderr_has(&format!(
            "SIG{signal}: stopping the emulator it was starting"
        ));
        nothing_left(&job, &output);
    }
}

#[test]
fn a_starter_killed_before_the_emulator_listens_takes_the_emulator_with_it() {
    // SIGKILL cannot be handled: the emulator, waiting for a --log FIFO's reader, learns it from
    // the end of the pipe on its stdin (no word that the variables were printed) and stops as on
    // SIGTERM.
    let job = CiJob::new();
    let (mut starter, emulator) = starting_for_ever(&job, "SIGKILL");
    // Once it watches for signals, it watches its starter too.
    wait_for_handler(emulator, "TERM");
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &starter.pid().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    starter.wait_for_exit();
    drop(starter);
    wait_until("the emulator to end with its starter", DEADLINE, || {
        (!runs(emulator)).then_some(())
    });
    job.leftovers.assert_none();
}

#[test]
fn a_state_that_cannot_be_saved_or_a_log_that_cannot_be_written_fails_the_stop() {
    let job = CiJob::new();
    std::fs::create_dir(job.sandbox.path().join("fixtures")).expect("dir");
    let vars = start(&job, &["--state", "fixtures/state.json", "--quiet"]);
    // The directory goes while it runs: the save at the stop cannot be made.
    std::fs::remove_dir_all(job.sandbox.path().join("fixtures")).expect("remove");
    stop(&job, &vars)
        .code(1)
        .stderr_has("safe-ad emulator: error: cannot save --state fixtures/state.json");
    assert!(job.temporary_files().is_empty());

    let vars = start(&job, &["--log", "/dev/full", "--quiet"]);
    crate::harness::http::request(
        address(&vars["SAFE_LAUNCHER_URL"]),
        "GET",
        "/health",
        None,
        None,
    );
    stop(&job, &vars)
        .code(1)
        .stderr_has("safe-ad emulator: error: --log /dev/full: ");
    assert!(job.temporary_files().is_empty());
    job.leftovers.assert_none();
}

#[test]
fn stop_signals_nothing_but_the_emulator_it_names_and_says_when_none_runs() {
    let job = CiJob::new();
    let none = job.safe_ad().args(["emulator", "--stop"]).run();
    none.code(1).stderr_has(
        "--stop: SAFE_AD_EMULATOR_PID is not set, and no background emulator of yours runs (none \
         in ",
    );

    // A process that is not an emulator, by its id alone and with a running emulator's directory.
    let mut sleeper = job.shell("sh", "exec sleep 300").spawn();
    let sleeping = sleeper.pid().to_string();
    job.safe_ad()
        .env("SAFE_AD_EMULATOR_PID", &sleeping)
        .args(["emulator", "--stop"])
        .run()
        .code(1)
        .stderr_has(&format!(
            "no safe-ad emulator started with --background runs as process {sleeping}"
        ));
    let vars = start(&job, &["--quiet"]);
    let mut wrong = vars.clone();
    wrong.insert("SAFE_AD_EMULATOR_PID".into(), sleeping.clone());
    stop(&job, &wrong).code(1).stderr_has(&format!(
        "SAFE_AD_EMULATOR_PID={sleeping} is not the emulator of {}, which is process {}; \
             nothing was signalled",
        vars["SAFE_AD_EMULATOR_DIR"], vars["SAFE_AD_EMULATOR_PID"]
    ));
    assert!(sleeper.is_running(), "sleep was signalled");
    let pid: u32 = vars["SAFE_AD_EMULATOR_PID"].parse().expect("pid");
    assert!(runs(pid), "the emulator was stopped by a refused --stop");
    drop(sleeper);

    // Stopped once; a second --stop finds nothing.
    stop(&job, &vars).success();
    stop(&job, &vars)
        .code(1)
        .stderr_has("no emulator to stop: ")
        .stderr_has("is gone (an earlier --stop stopped it");

    // Stopped by a signal of someone else's: not running, but what it said is shown.
    let vars = start(&job, &[]);
    let pid: u32 = vars["SAFE_AD_EMULATOR_PID"].parse().expect("pid");
    crate::harness::signal(pid, "TERM");
    wait_until("the emulator to end", DEADLINE, || {
        (!runs(pid)).then_some(())
    });
    stop(&job, &vars)
        .code(1)
        .stderr_has(&format!(
            "process {pid} was not running: the emulator had stopped already (with its state \
             saved and its log whole)"
        ))
        .stderr_has("safe-ad emulator: requests: 0");

    // Killed: not running, and its state was not saved.
    let vars = start(&job, &["--quiet"]);
    let pid = vars["SAFE_AD_EMULATOR_PID"].clone();
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &pid])
        .status()
        .expect("kill");
    assert!(killed.success());
    let pid: u32 = pid.parse().expect("pid");
    wait_until("the emulator to end", DEADLINE, || {
        (!runs(pid)).then_some(())
    });
    stop(&job, &vars)
        .code(1)
        .stderr_has("ended without stopping cleanly (killed?), so its --state was not saved");
    assert!(job.temporary_files().is_empty());
    job.leftovers.assert_none();
}

#[test]
fn leftovers_are_found_across_sessions_and_killed() {
    // The guard itself: a background emulator left running is found by its mark, and killed
    // when the guard goes (as a failing test's guard does).
    let leftovers = Leftovers::new();
    let job = CiJob::new();
    let output = leftovers
        .mark(job.safe_ad())
        .args([
            "emulator",
            "--background",
            "--quiet",
            "--listen",
            "127.0.0.1:0",
        ])
        .run();
    output.success();
    let pid: u32 = variables(output.stdout())["SAFE_AD_EMULATOR_PID"]
        .parse()
        .expect("pid");
    assert!(leftovers
        .running()
        .iter()
        .any(|line| line.starts_with(&format!("{pid} "))));
    drop(leftovers);
    wait_until("the leftover emulator to be killed", DEADLINE, || {
        (!runs(pid)).then_some(())
    });
}
