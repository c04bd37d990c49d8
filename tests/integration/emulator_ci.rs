//! The emulator as a CI service: started with `--background` from one shell process, used from
//! another and stopped with `--stop` from a third, as the steps of a CI job do; a start that fails
//! or never listens, signals to the starter, `--stop` refusing a process that is not the emulator;
//! the emulator's own routes under `/_emulator/` (journal, network, handles, reset) and that they
//! need its token; the launcher's error in log lines and `--log` records and the `event` key; and
//! README's GitHub Actions and GitLab CI jobs, their shell parts run under sh and bash.
//!
//! Every process a test starts carries the mark of its `CiJob` (or `Leftovers`): each test checks
//! that none is left running, and what a failing test leaves is killed when it unwinds.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::harness::emulator::{path_arg, saved_names, Emulator};
use crate::harness::http::name;
use crate::harness::leftovers::{CiJob, Leftovers};
use crate::harness::*;

const SHELLS: [&str; 2] = ["sh", "bash"];

/// Whether both shells are here (else the test is skipped, or fails under CI).
fn have_shells() -> bool {
    SHELLS.iter().all(|shell| have(shell))
}

/// The variables `--background` printed, in either format: `export NAME='VALUE'` or `NAME=VALUE`.
#[track_caller]
fn variables(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .map(|line| {
            let (name, value) = line
                .strip_prefix("export ")
                .unwrap_or(line)
                .split_once('=')
                .unwrap_or_else(|| panic!("not NAME=VALUE: {line:?}"));
            let value = match value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
                Some(quoted) => quoted.replace(r"'\''", "'"),
                None => value.to_owned(),
            };
            (name.to_owned(), value)
        })
        .collect()
}

const NAMES: [&str; 4] = [
    "SAFE_LAUNCHER_URL",
    "SAFE_LAUNCHER_TOKEN",
    "SAFE_AD_EMULATOR_PID",
    "SAFE_AD_EMULATOR_DIR",
];

/// The emulator's address from its URL.
fn address(url: &str) -> SocketAddr {
    url.strip_prefix("http://")
        .and_then(|rest| rest.parse().ok())
        .unwrap_or_else(|| panic!("not a loopback URL: {url}"))
}

/// `(state, parent, process group, session)` of a live process, from /proc.
fn stat(pid: u32) -> Option<(String, u32, u32, u32)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = text.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some((
        fields.first()?.to_string(),
        fields.get(1)?.parse().ok()?,
        fields.get(2)?.parse().ok()?,
        fields.get(3)?.parse().ok()?,
    ))
}

/// Whether a process runs (not ended, not a zombie).
fn runs(pid: u32) -> bool {
    stat(pid).is_some_and(|(state, ..)| state != "Z")
}

/// Where file descriptor `fd` of process `pid` points.
fn fd_target(pid: u32, fd: u32) -> String {
    std::fs::read_link(format!("/proc/{pid}/fd/{fd}"))
        .map(|path| path.display().to_string())
        .unwrap_or_default()
}

/// The records of a `--log` file.
#[track_caller]
fn records(log: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(log).expect("the log file");
    assert!(text.ends_with('\n'), "the log ends in half a line: {text}");
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// Checks that a `--log` file is whole: the start record first, the stop record last, request
/// records (and resets) between, and the stop counting every request record; returns the
/// request records.
#[track_caller]
fn whole_log(log: &Path) -> Vec<Value> {
    let records = records(log);
    assert_eq!(records.first().map(|r| &r["event"]), Some(&json!("start")));
    let stop = records.last().expect("records");
    assert_eq!(stop["event"], "stop", "{records:?}");
    let requests: Vec<Value> = records
        .iter()
        .filter(|r| r["event"] == "request")
        .cloned()
        .collect();
    assert!(records.iter().all(
        |r| ["start", "request", "reset", "stop"].contains(&r["event"].as_str().unwrap_or(""))
    ));
    assert_eq!(stop["requests"].as_u64(), Some(requests.len() as u64));
    assert_eq!(stop["lost"], 0);
    requests
}

// ---- start, use and stop from different shells ----------------------------------------------

#[test]
fn a_background_emulator_is_started_from_one_shell_used_from_another_and_stopped_from_a_third() {
    if !have_shells() {
        return;
    }
    for shell in SHELLS {
        let job = CiJob::new();
        // Its output captured to the end: the step ends although the emulator runs on.
        let started = job
            .shell(
                shell,
                "safe-ad emulator --background --listen 127.0.0.1:0 --state state.json \
                 --log log.jsonl > vars",
            )
            .case(shell)
            .run();
        started
            .success()
            .stdout_is("")
            .stderr_has("running in the background as process ")
            .stderr_has("safe-ad emulator: listening on http://127.0.0.1:");
        let text = std::fs::read_to_string(job.sandbox.path().join("vars")).expect("vars");
        let vars = variables(&text);
        let mut names = NAMES.to_vec();
        names.sort();
        assert_eq!(vars.keys().map(String::as_str).collect::<Vec<_>>(), names);
        let pid: u32 = vars["SAFE_AD_EMULATOR_PID"].parse().expect("a process id");
        let dir = PathBuf::from(&vars["SAFE_AD_EMULATOR_DIR"]);
        assert_eq!(dir.parent(), Some(job.tmp().as_path()), "in TMPDIR");

        // A process of its own: its own session, no terminal, nothing of the starter's held.
        let (_, _, group, session) = stat(pid).expect("the emulator runs");
        assert_eq!((group, session), (pid, pid), "its own session and group");
        // Once told its variables were printed, it lets go of the starter's pipes.
        wait_until("the emulator to let go of its starter", DEADLINE, || {
            (fd_target(pid, 0) == "/dev/null" && fd_target(pid, 1) == "/dev/null").then_some(())
        });
        assert_eq!(fd_target(pid, 2), dir.join("stderr").display().to_string());

        let used = job
            .shell(
                shell,
                ". ./vars && h=$(safe-ad create --put) && safe-ad clear-data --save post \"$h\" \
                 && echo \"$h\"",
            )
            .run();
        used.success()
            .stdout_is("clear-data 0: ok\npost 0: ok, saved version 1\n0\n");

        let stopped = job
            .shell(shell, ". ./vars && safe-ad emulator --stop")
            .run();
        stopped
            .success()
            .stdout_is("")
            .stderr_has("PUT /appendable-data/0 200 ")
            .stderr_has("safe-ad emulator: SIGTERM: stopping")
            .stderr_has("safe-ad emulator: requests: 5, answered 2xx: 5")
            .stderr_lacks("listening on");
        assert!(!runs(pid), "the emulator still runs");
        assert_eq!(saved_names(&job.sandbox.path().join("state.json")).len(), 1);
        let requests = whole_log(&job.sandbox.path().join("log.jsonl"));
        assert_eq!(requests.len(), 5);
        assert!(!dir.exists(), "its directory was left");
        assert!(job.temporary_files().is_empty());
        job.leftovers.assert_none();
    }
}

#[test]
fn eval_exports_the_variables_to_later_commands_in_sh_and_bash() {
    if !have_shells() {
        return;
    }
    // A token with every character that means something to a shell (as --token-file allows).
    let token = r#"a'b"c$d`e\f;g|h&i*j(k)l<m>n#o"#;
    for shell in SHELLS {
        let job = CiJob::new();
        job.sandbox.file("token", format!("{token}\n"));
        let output = job
            .shell(
                shell,
                "set -e\n\
                 eval \"$(safe-ad emulator --background --quiet --listen 127.0.0.1:0 \
                 --token-file token)\"\n\
                 sh -c 'printf \"%s\\n\" \"$SAFE_LAUNCHER_TOKEN\" \"$SAFE_AD_EMULATOR_PID\"'\n\
                 safe-ad metadata 1\n\
                 safe-ad emulator --stop\n\
                 echo stopped",
            )
            .case(shell)
            .run();
        output.success().stderr_is("");
        let lines: Vec<&str> = output.stdout().lines().collect();
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert_eq!(lines[0], token, "the token through eval");
        let pid: u32 = lines[1].parse().expect("the pid, exported");
        assert!(lines[2].starts_with("1: version 1"), "{lines:?}");
        assert_eq!(lines[3], "stopped");
        assert!(!runs(pid));
        assert!(job.temporary_files().is_empty());
        job.leftovers.assert_none();
    }
}

#[test]
fn format_env_appends_to_an_env_file_that_a_later_step_reads() {
    let job = CiJob::new();
    // Values are written as they are: an env file takes the rest of the line, quotes and all.
    let token = r#"a'b"c$d`e\f"#;
    job.sandbox.file("token", format!("{token}\n"));
    let env_file = job.sandbox.file("github_env", "EARLIER=1\n");
    let printed = job
        .safe_ad()
        .args(["emulator", "--background", "--format", "env", "--empty"])
        .args(["--listen", "127.0.0.1:0", "--token-file", "token"])
        .run();
    printed.success();
    // What the step appended (`>> "$GITHUB_ENV"`), read as GitHub reads it: NAME=VALUE lines.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&env_file)
        .expect("env file");
    file.write_all(printed.stdout().as_bytes()).expect("append");
    let text = std::fs::read_to_string(&env_file).expect("env file");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("EARLIER=1"));
    let vars: BTreeMap<&str, &str> = lines
        .map(|line| line.split_once('=').expect("NAME=VALUE"))
        .collect();
    assert_eq!(vars.keys().copied().collect::<Vec<_>>(), {
        let mut names = NAMES.to_vec();
        names.sort();
        names
    });
    assert_eq!(vars["SAFE_LAUNCHER_TOKEN"], token);
    // A later step gets them in its environment, and the token works.
    let step = |args: &[&str]| {
        let mut step = job.safe_ad();
        for (name, value) in &vars {
            step = step.env(name, value);
        }
        step.args(args).run()
    };
    step(&["create"]).success().stdout_is("0\n");
    step(&["emulator", "--stop"]).success();

    // `--format=env` as one word, and --stop given the process id alone (found from it, Linux).
    let printed = job
        .safe_ad()
        .args(["emulator", "--background", "--format=env", "--quiet"])
        .args(["--listen", "127.0.0.1:0", "--ready-timeout=60"])
        .run();
    printed.success();
    let vars = variables(printed.stdout());
    job.safe_ad()
        .env("SAFE_AD_EMULATOR_PID", &vars["SAFE_AD_EMULATOR_PID"])
        .args(["emulator", "--stop"])
        .run()
        .success();
    assert!(job.temporary_files().is_empty());
    job.leftovers.assert_none();
}

// ---- a start that fails ----------------------------------------------------------------------

/// Checks that a start that failed left nothing: no output on stdout, no process, no directory.
#[track_caller]
fn nothing_left(job: &CiJob, output: &Output) {
    // Nothing, or the one line that makes an `eval` of the output fail.
    output.check(
        output.stdout().is_empty() || output.stdout() == safe_ad_emulator::EVAL_FAILS,
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

/// The job's directory.
fn job_dir(job: &CiJob) -> &Path {
    job.sandbox.path()
}

/// Makes `log.fifo` in `dir`, a FIFO nobody reads: an emulator given it as `--log` waits to open
/// it, for ever, before it listens.
fn fifo_nobody_reads(dir: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join("log.fifo"))
        .status()
        .expect("mkfifo");
    assert!(made.success());
}

/// Starts `--background` with `--log log.fifo` (see [`fifo_nobody_reads`]), and waits until the
/// emulator it starts is there: the starter, still waiting, and the emulator's process id.
fn starting_for_ever(job: &CiJob, case: &str) -> (Running, u32) {
    fifo_nobody_reads(job_dir(job));
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
    fifo_nobody_reads(job_dir(&job));
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

// ---- --stop ----------------------------------------------------------------------------------

/// Starts a background emulator in `job` with these options; its variables.
#[track_caller]
fn start(job: &CiJob, options: &[&str]) -> BTreeMap<String, String> {
    let output = job
        .safe_ad()
        .args(["emulator", "--background", "--listen", "127.0.0.1:0"])
        .args(options)
        .run();
    output.success();
    variables(output.stdout())
}

/// `safe-ad emulator --stop` with these variables.
fn stop(job: &CiJob, vars: &BTreeMap<String, String>) -> Output {
    let mut stop = job.safe_ad();
    for (name, value) in vars {
        stop = stop.env(name, value);
    }
    stop.args(["emulator", "--stop"]).run()
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

// ---- the emulator's own routes ---------------------------------------------------------------

/// A request to the emulator at `addr` with the token (`Some`), as `curl -H` sends it.
fn admin(
    emulator: &Emulator,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> crate::harness::http::Resp {
    emulator.http(method, path, Some(TOKEN), body)
}

/// The journal as its records.
fn journal(emulator: &Emulator, query: &str) -> Vec<Value> {
    let answer = admin(
        emulator,
        "GET",
        &format!("/_emulator/requests{query}"),
        None,
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.content_type, "application/x-ndjson; charset=utf-8");
    answer
        .body
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON record"))
        .collect()
}

/// `METHOD /path STATUS` of each record.
fn lines(records: &[Value]) -> Vec<String> {
    records
        .iter()
        .map(|r| {
            format!(
                "{} {} {}",
                r["method"].as_str().unwrap(),
                r["path"].as_str().unwrap(),
                r["status"]
            )
        })
        .collect()
}

#[test]
fn the_journal_lists_exactly_the_requests_a_script_sent_as_its_log_records() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--quiet", "--log", path_arg(&log)]);
    assert!(journal(&emulator, "").is_empty());
    sandbox
        .shell(
            "sh",
            "h=$(safe-ad create --put) && safe-ad clear-data --save post \"$h\"",
        )
        .launcher(&emulator.url)
        .run()
        .success();
    let all = journal(&emulator, "");
    assert_eq!(
        lines(&all),
        [
            "POST /appendable-data 200",
            "PUT /appendable-data/6 200",
            "DELETE /appendable-data/clear-data/6 200",
            "POST /appendable-data/6 200",
            "GET /appendable-data/metadata/6 200",
        ]
    );
    assert_eq!(
        lines(&journal(&emulator, "?method=put")),
        ["PUT /appendable-data/6 200"]
    );
    assert_eq!(
        lines(&journal(&emulator, "?method=POST&path=/appendable-data/6")),
        ["POST /appendable-data/6 200"]
    );
    assert_eq!(journal(&emulator, "?path=%2Fappendable-data%2F*").len(), 4);
    assert!(journal(&emulator, "?path=/sign-key*").is_empty());
    let bad = admin(&emulator, "GET", "/_emulator/requests?status=200", None);
    assert_eq!(bad.status, 400);
    assert!(
        bad.body.contains("unknown query parameter `status`"),
        "{}",
        bad.body
    );

    let journaled = admin(&emulator, "GET", "/_emulator/requests", None).body;
    let cleared = admin(&emulator, "DELETE", "/_emulator/requests", None);
    assert_eq!(cleared.json(), json!({"cleared": 5}));
    assert!(journal(&emulator, "").is_empty());
    emulator.terminate().success();

    // The same records as --log, byte for byte; the emulator's own routes only in --log.
    let text = std::fs::read_to_string(&log).expect("log");
    let logged: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("{\"event\":\"request\""))
        .collect();
    assert_eq!(logged.len(), 5 + 10, "{text}");
    let ordinary: Vec<&str> = logged
        .iter()
        .copied()
        .filter(|line| !line.contains("\"path\":\"/_emulator/"))
        .collect();
    assert_eq!(ordinary, journaled.lines().collect::<Vec<_>>());
}

/// Every route of the emulator's own, with a body for the reset from a state.
const OWN_ROUTES: [(&str, &str); 7] = [
    ("GET", "/_emulator/requests"),
    ("DELETE", "/_emulator/requests"),
    ("GET", "/_emulator/network"),
    ("GET", "/_emulator/handles"),
    ("POST", "/_emulator/reset/empty"),
    ("POST", "/_emulator/reset/demo"),
    ("POST", "/_emulator/reset/state"),
];

#[test]
fn the_emulators_own_routes_need_its_token_and_are_otherwise_unknown_routes() {
    for strict in [false, true] {
        let flags: &[&str] = if strict { &["--strict-paths"] } else { &[] };
        let emulator = Emulator::start(flags);
        let unknown = emulator.http("GET", "/no-such-route", None, None);
        assert_eq!(
            (unknown.status, unknown.body.as_str()),
            (
                404,
                r#"{"errorCode":404,"description":"Endpoint Not Found"}"#
            )
        );
        let app_token = emulator.token_with(r#"["LOW_LEVEL_API"]"#);
        let addr = emulator.addr();
        for (method, path) in OWN_ROUTES {
            let what = format!("{method} {path} (strict {strict})");
            let anonymous = emulator.http(method, path, None, None);
            assert_eq!(
                (anonymous.status, &anonymous.body),
                (404, &unknown.body),
                "{what}"
            );
            let other = emulator.http(method, path, Some(&app_token), None);
            assert_eq!((other.status, &other.body), (404, &unknown.body), "{what}");
            for bad in [
                "Bearer wrong-token",
                "Basic abc",
                &format!("Bearer  {TOKEN}"),
            ] {
                let answer =
                    crate::harness::http::send(addr, method, path, &[("Authorization", bad)], None);
                assert_eq!(
                    (answer.status, answer.body.as_str()),
                    (401, "Unauthorized"),
                    "{what} {bad}"
                );
            }
            // Only at the root, exactly as written.
            for elsewhere in [
                format!("/0.6{path}"),
                format!("{path}/"),
                path.to_uppercase(),
            ] {
                let answer = admin(&emulator, method, &elsewhere, None);
                assert_eq!(answer.status, 404, "{method} {elsewhere}");
            }
        }
        // Each refused request is journaled as the ordinary request it was.
        let journaled = journal(&emulator, "?path=/_emulator*");
        assert_eq!(journaled.len(), OWN_ROUTES.len() * 5, "strict {strict}");
        assert!(journaled
            .iter()
            .all(|r| r["status"] == 404 || r["status"] == 401));
        emulator.terminate().success();
    }
}

#[test]
fn the_emulators_token_opens_its_routes_even_after_a_client_revoked_it() {
    let emulator = Emulator::start(&[]);
    assert_eq!(
        emulator.http("DELETE", "/auth", Some(TOKEN), None).status,
        200
    );
    assert_eq!(emulator.http("GET", "/auth", Some(TOKEN), None).status, 401);
    assert_eq!(
        admin(&emulator, "GET", "/_emulator/network", None).status,
        200
    );
    let reset = admin(&emulator, "POST", "/_emulator/reset/demo", None);
    assert_eq!(reset.json(), json!({"reset": "demo"}));
    assert_eq!(emulator.http("GET", "/auth", Some(TOKEN), None).status, 200);
    let unknown = admin(&emulator, "POST", "/_emulator/reset", None);
    assert_eq!(unknown.status, 404);
    assert!(
        unknown
            .body
            .contains("the emulator's own routes are GET /_emulator/requests"),
        "{}",
        unknown.body
    );
    emulator.terminate().success();
}

#[test]
fn a_reset_between_two_scripts_leaves_no_trace_of_the_first() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--quiet", "--log", path_arg(&log)]);
    let fresh_network = admin(&emulator, "GET", "/_emulator/network", None).body;
    let fresh_handles = admin(&emulator, "GET", "/_emulator/handles", None).json();
    assert_eq!(fresh_handles["nextHandle"], 6);
    assert_eq!(
        fresh_handles["appendableData"].as_array().map(Vec::len),
        Some(4)
    );
    assert_eq!(fresh_handles["dataId"][0]["handle"], 3);

    // The first script: saves new data, changes handle 1's, leaves handles and a token behind.
    let first = "safe-ad create --put && safe-ad clear-data --save post 1 && \
                 safe-ad open c2FmZS1hZCBkZW1vOiBzYXZlZC4uLi4uLi4uLi4uLi4=";
    sandbox
        .shell("sh", first)
        .launcher(&emulator.url)
        .run()
        .success();
    let app_token = emulator.token_with(r#"["LOW_LEVEL_API"]"#);
    let after_first = admin(&emulator, "GET", "/_emulator/network", None).body;
    assert_ne!(after_first, fresh_network);
    let handles = admin(&emulator, "GET", "/_emulator/handles", None).json();
    assert!(handles["nextHandle"].as_u64() > Some(6));
    let saved = handles["appendableData"]
        .as_array()
        .expect("handles")
        .iter()
        .find(|ad| ad["handle"] == 6)
        .expect("handle 6")
        .clone();
    assert_eq!(saved["onNetwork"], 0, "{saved}");

    admin(&emulator, "POST", "/_emulator/reset/demo", None);
    assert_eq!(
        admin(&emulator, "GET", "/_emulator/network", None).body,
        fresh_network
    );
    assert_eq!(
        admin(&emulator, "GET", "/_emulator/handles", None).json(),
        fresh_handles
    );
    assert!(journal(&emulator, "").is_empty());
    assert_eq!(
        emulator.http("GET", "/auth", Some(&app_token), None).status,
        401
    );
    // The second script sees what a fresh emulator shows.
    let second = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["create", "--put"])
        .run();
    second.success().stdout_is("6\n");

    // To nothing, and to what the first script left, from a --state file's content.
    let empty = admin(&emulator, "POST", "/_emulator/reset/empty", None);
    assert_eq!(empty.json(), json!({"reset": "empty"}));
    assert_eq!(
        admin(&emulator, "GET", "/_emulator/handles", None).json()["nextHandle"],
        0
    );
    let restored = admin(
        &emulator,
        "POST",
        "/_emulator/reset/state",
        Some(&after_first),
    );
    assert_eq!(restored.json(), json!({"reset": "state"}));
    assert_eq!(
        admin(&emulator, "GET", "/_emulator/network", None).body,
        after_first
    );
    let handles = admin(&emulator, "GET", "/_emulator/handles", None).json();
    assert_eq!(handles["nextHandle"], 0);
    assert_eq!(handles["appendableData"], json!([]));
    let bad = admin(
        &emulator,
        "POST",
        "/_emulator/reset/state",
        Some(r#"{"format":"safe-ad-emulator-state/1","appendableData":[{"name":"x"}]}"#),
    );
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("nothing was reset"), "{}", bad.body);
    assert_eq!(
        admin(&emulator, "GET", "/_emulator/network", None).body,
        after_first
    );
    emulator.terminate().success();

    let events: Vec<String> = records(&log)
        .iter()
        .map(|r| match r["event"].as_str() {
            Some("reset") => format!("reset {}", r["network"].as_str().unwrap()),
            other => other.unwrap_or("").to_owned(),
        })
        .filter(|event| event != "request")
        .collect();
    assert_eq!(
        events,
        ["start", "reset demo", "reset empty", "reset state", "stop"]
    );
}

/// Sends `GET /appendable-data/metadata/1` and says how it was answered: the status, or 0 for a
/// connection closed without an answer.
fn answered(addr: SocketAddr) -> u16 {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(DEADLINE)).expect("timeout");
    let request = format!(
        "GET /appendable-data/metadata/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).expect("write");
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    String::from_utf8_lossy(&raw)
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_reset_counts_injected_faults_from_the_first_request_again() {
    let emulator = Emulator::start(&["--quiet", "--fault-rate", "0.5", "--fault-seed", "7"]);
    let run = || {
        (0..24)
            .map(|_| answered(emulator.addr()))
            .collect::<Vec<u16>>()
    };
    let first = run();
    assert!(
        first.contains(&200) && first.iter().any(|s| *s != 200),
        "{first:?}"
    );
    admin(&emulator, "POST", "/_emulator/reset/demo", None);
    assert_eq!(run(), first);
    emulator.terminate().success();
}

#[test]
fn handles_show_what_each_live_handle_holds() {
    let emulator = Emulator::start(&["--empty"]);
    let body = json!({"name": name(9), "isPrivate": true}).to_string();
    let ad = emulator
        .http("POST", "/appendable-data", Some(TOKEN), Some(&body))
        .handle();
    let key = emulator
        .http("GET", "/sign-key", Some(TOKEN), None)
        .handle();
    let encrypt = emulator
        .http(
            "GET",
            &format!("/appendable-data/encrypt-key/{ad}"),
            Some(TOKEN),
            None,
        )
        .handle();
    let id_body = json!({"name": name(9), "isPrivate": true}).to_string();
    let data_id = emulator
        .http("POST", "/data-id/appendable-data", None, Some(&id_body))
        .handle();
    let handles = admin(&emulator, "GET", "/_emulator/handles", None).json();
    assert_eq!(handles["nextHandle"], data_id + 1);
    let named = json!({"name": name(9), "isPrivate": true});
    assert_eq!(handles["appendableData"][0]["handle"], ad);
    assert_eq!(handles["appendableData"][0]["name"], named["name"]);
    assert_eq!(handles["appendableData"][0]["onNetwork"], Value::Null);
    assert_eq!(
        handles["signKey"],
        json!([{"handle": key, "signKey": handles["signKey"][0]["signKey"], "user": true}])
    );
    assert_eq!(
        handles["encryptKey"],
        json!([{"handle": encrypt, "appendableData": named}])
    );
    assert_eq!(
        handles["dataId"],
        json!([{"handle": data_id, "appendableData": named}])
    );
    assert_eq!(handles["structuredData"], json!([]));
    emulator.terminate().success();
}

// ---- logs that answer "why" ------------------------------------------------------------------

#[test]
fn request_lines_and_log_records_carry_the_launchers_error() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--log", path_arg(&log)]);
    emulator.http("PUT", "/appendable-data/1", Some(TOKEN), None);
    emulator.http("POST", "/appendable-data", Some(TOKEN), Some("{}"));
    emulator.http("GET", "/nowhere", None, None);
    emulator.http("GET", "/auth", Some("not-a-token"), None);
    emulator.http("PUT", "/appendable-data/0", Some(TOKEN), None);
    let stderr = emulator.wait_log("PUT /appendable-data/0 200 ");
    for line in [
        "PUT /appendable-data/1 400 -23 DataExists ",
        "POST /appendable-data 400 400 \"name field is missing\" ",
        "GET /nowhere 404 404 \"Endpoint Not Found\" ",
        "GET /auth 401 \"Unauthorized\" ",
    ] {
        assert!(
            stderr.lines().any(|l| l.starts_with(line)),
            "no line {line:?} in:\n{stderr}"
        );
    }
    emulator.terminate().success();
    let requests = whole_log(&log);
    let errors: Vec<(Value, Value, Value)> = requests
        .iter()
        .map(|r| {
            (
                r["status"].clone(),
                r["error_code"].clone(),
                r["description"].clone(),
            )
        })
        .collect();
    assert_eq!(
        errors,
        [
            (
                json!(400),
                json!(-23),
                json!("CoreError::MutationFailure::MutationError::DataExists")
            ),
            (json!(400), json!(400), json!("name field is missing")),
            (json!(404), json!(404), json!("Endpoint Not Found")),
            (json!(401), Value::Null, json!("Unauthorized")),
            (json!(200), Value::Null, Value::Null),
        ]
    );
}

#[test]
fn every_log_record_says_what_it_is_in_its_event_key() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--quiet", "--empty", "--log", path_arg(&log)]);
    emulator.http("GET", "/health", None, None);
    admin(&emulator, "POST", "/_emulator/reset/demo", None);
    let url = emulator.url.clone();
    let pid = emulator.pid();
    emulator.terminate().success();
    let records = records(&log);
    let events: Vec<&str> = records
        .iter()
        .map(|r| r["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["start", "request", "reset", "request", "stop"]);
    assert_eq!(records[0]["url"], json!(url));
    assert_eq!(records[0]["pid"], json!(pid));
    assert_eq!(records[0]["network"], "empty");
    assert_eq!(records[0]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(records[2]["network"], "demo");
    assert_eq!(records[2]["handles"]["appendable_data"], 4);
    // Each record's first key is `event`.
    let text = std::fs::read_to_string(&log).expect("log");
    assert!(
        text.lines().all(|line| line.starts_with("{\"event\":\"")),
        "{text}"
    );
}

// ---- README's CI jobs ------------------------------------------------------------------------

/// The body of the first code block fenced as ```` ```yaml ```` whose text holds `marker`, in
/// README's CI section (the GitHub job) or docs/ci.md (the GitLab job).
fn readme_yaml(marker: &str) -> String {
    let text = readme_section("CI") + &doc("docs/ci.md");
    text.split("```yaml\n")
        .skip(1)
        .filter_map(|rest| rest.split("\n```").next())
        .find(|block| block.contains(marker))
        .unwrap_or_else(|| panic!("no CI yaml block with {marker:?} in README or docs/ci.md"))
        .to_owned()
}

/// The install step, which the tests leave out (they run this build). It builds the checkout of
/// safe-ad that a step before it made in `safe-ad/`.
const INSTALL: &str = "cargo install --locked --path safe-ad";

/// One step of a GitHub Actions job.
#[derive(Debug, Clone)]
struct Step {
    name: String,
    uses: bool,
    run: Option<String>,
    always: bool,
}

/// The steps of README's GitHub job: `- ` items under `steps:`, each with `uses`, `name`, `if`,
/// `with` (skipped) and `run` (one line or a `|` block).
fn github_steps(yaml: &str) -> Vec<Step> {
    let lines: Vec<&str> = yaml.lines().collect();
    let start = lines
        .iter()
        .position(|line| line.trim() == "steps:")
        .expect("steps:");
    let item_indent = lines[start + 1].find('-').expect("a step");
    let mut steps: Vec<Step> = Vec::new();
    let mut at = start + 1;
    while at < lines.len() {
        let line = lines[at];
        let indent = line.len() - line.trim_start().len();
        assert!(
            indent >= item_indent,
            "README's GitHub job: unexpected line {line:?}"
        );
        let mut text = line.trim_start();
        if indent == item_indent {
            text = text.strip_prefix("- ").expect("a step starts with `- `");
            steps.push(Step {
                name: String::new(),
                uses: false,
                run: None,
                always: false,
            });
        }
        let step = steps.last_mut().expect("a step");
        let key_indent = item_indent + 2;
        at += 1;
        let (key, value) = text.split_once(':').unwrap_or((text, ""));
        let value = value.trim();
        match key {
            "uses" => step.uses = true,
            "name" => step.name = value.to_owned(),
            "if" => step.always = value == "always()",
            "with" => {
                while at < lines.len()
                    && lines[at].len() - lines[at].trim_start().len() > key_indent
                {
                    at += 1;
                }
            }
            "run" if value == "|" => {
                let mut script = String::new();
                while at < lines.len()
                    && lines[at].len() - lines[at].trim_start().len() > key_indent
                {
                    script.push_str(&lines[at][key_indent + 2..]);
                    script.push('\n');
                    at += 1;
                }
                step.run = Some(script);
            }
            "run" => step.run = Some(format!("{value}\n")),
            other => panic!("README's GitHub job: a step key the test does not know: {other:?}"),
        }
    }
    steps
}

/// Runs README's GitHub job's steps as the runner does: each `run` in a new shell, `set -e`,
/// with the variables the steps before appended to `$GITHUB_ENV`; after a failed step only the
/// `if: always()` ones. The exit code of each step run, by name.
fn run_github(job: &CiJob, shell: &str, steps: &[Step]) -> Vec<(String, i32)> {
    let env_file = job.sandbox.file("github_env", "");
    let mut failed = false;
    let mut ran = Vec::new();
    for step in steps {
        let Some(run) = &step.run else { continue };
        if run.trim() == INSTALL || (failed && !step.always) {
            continue;
        }
        let text = std::fs::read_to_string(&env_file).expect("GITHUB_ENV");
        let mut command = job
            .shell(shell, &format!("set -e\n{run}"))
            .env("GITHUB_ENV", &env_file)
            .case(format!("{shell}: {}", step.name));
        for line in text.lines() {
            let (name, value) = line.split_once('=').unwrap_or_else(|| {
                panic!("GITHUB_ENV holds a line that is not NAME=VALUE: {line:?}")
            });
            command = command.env(name, value);
        }
        let code = command.run().exit_code().unwrap_or(-1);
        failed |= code != 0;
        ran.push((step.name.clone(), code));
    }
    ran
}

#[test]
fn readmes_github_actions_job_runs_under_sh_and_bash() {
    if !have_shells() {
        return;
    }
    let yaml = readme_yaml("runs-on:");
    let checkout = yaml
        .find("path: safe-ad\n")
        .expect("a step checks safe-ad out");
    assert!(
        checkout < yaml.find(INSTALL).expect("the install step"),
        "the GitHub job checks safe-ad out before installing it:\n{yaml}"
    );
    let steps = github_steps(&yaml);
    let runs: Vec<&Step> = steps.iter().filter(|s| s.run.is_some()).collect();
    assert_eq!(
        runs.iter()
            .filter(|s| s.run.as_deref().map(str::trim) == Some(INSTALL))
            .count(),
        1,
        "the one step the test leaves out is the install: {steps:?}"
    );
    let stop = runs.last().expect("steps");
    assert!(
        stop.always,
        "the last step, which stops the emulator, runs always: {stop:?}"
    );
    assert!(
        stop.run
            .as_deref()
            .is_some_and(|run| run.contains("--stop --if-running")),
        "the always-run stop is safe after a failed start: {stop:?}"
    );
    // The fixture is committed, so it is loaded read-only.
    assert!(
        runs.iter().any(|s| s.run.as_deref().is_some_and(
            |run| run.contains("--background") && run.contains("--import fixture.json")
        )),
        "the start loads the committed fixture with --import: {runs:?}"
    );
    let check = runs
        .iter()
        .find(|s| s.name == "Check what they sent")
        .expect("a step that checks what was sent");
    assert!(
        check
            .run
            .as_deref()
            .is_some_and(|run| run.contains("emulator requests")
                && run.contains("--expect")
                && !run.contains("curl")),
        "{check:?}"
    );
    for shell in SHELLS {
        // As written: every step passes.
        let job = CiJob::new();
        let fixture = committed_fixture(&job);
        let ran = run_github(&job, shell, &steps);
        assert!(ran.iter().all(|(_, code)| *code == 0), "{shell}: {ran:?}");
        assert_eq!(ran.len(), runs.len() - 1, "{shell}: {ran:?}");
        // The scripts saved a new appendable data, and the committed fixture is as it was.
        fixture_kept(&job, &fixture);
        // Five requests of the scripts (the save's read of the version it saved among them),
        // and the two reads of the journal (logged, not journaled).
        let logged = whole_log(&job.sandbox.path().join("requests.jsonl"));
        assert_eq!(logged.len(), 7, "{logged:?}");
        assert_eq!(
            logged
                .iter()
                .filter(|r| r["path"] == "/_emulator/requests")
                .count(),
            2
        );
        assert!(job.temporary_files().is_empty());
        job.leftovers.assert_none();

        // The scripts send a second PUT: the check fails, saying what matched in its own log.
        let job = CiJob::new();
        committed_fixture(&job);
        let mut sending = steps.clone();
        let at = sending
            .iter()
            .position(|s| s.name == "Run the scripts against it")
            .expect("step");
        sending.insert(
            at + 1,
            Step {
                name: "one PUT too many".into(),
                uses: false,
                run: Some("safe-ad put \"$(safe-ad create)\"\n".into()),
                always: false,
            },
        );
        let ran = run_github(&job, shell, &sending);
        let codes: Vec<i32> = ran.iter().map(|(_, code)| *code).collect();
        assert_eq!(codes, [0, 0, 0, 1, 0], "{shell}: {ran:?}");
        assert!(job.temporary_files().is_empty());
        job.leftovers.assert_none();

        // The start fails (its --log cannot be created): only that step is red, the always-run
        // stop passes with a note, and nothing is left.
        let job = CiJob::new();
        committed_fixture(&job);
        std::fs::create_dir(job.sandbox.path().join("requests.jsonl")).expect("dir");
        let ran = run_github(&job, shell, &steps);
        let codes: Vec<i32> = ran.iter().map(|(_, code)| *code).collect();
        assert_eq!(codes, [2, 0], "{shell}: {ran:?}");
        assert!(job.temporary_files().is_empty());
        job.leftovers.assert_none();

        // A step that fails after the start: the stop still runs, and nothing is left.
        let job = CiJob::new();
        committed_fixture(&job);
        let mut failing = steps.clone();
        let at = failing
            .iter()
            .position(|s| s.name == "Run the scripts against it")
            .expect("step");
        failing.insert(
            at + 1,
            Step {
                name: "a failing step".into(),
                uses: false,
                run: Some("false\n".into()),
                always: false,
            },
        );
        let ran = run_github(&job, shell, &failing);
        let codes: Vec<i32> = ran.iter().map(|(_, code)| *code).collect();
        assert_eq!(codes, [0, 0, 1, 0], "{shell}: {ran:?}");
        whole_log(&job.sandbox.path().join("requests.jsonl"));
        assert!(job.temporary_files().is_empty());
        job.leftovers.assert_none();
    }
}

/// The fixture README's jobs commit and `--import`: one appendable data; its text.
fn committed_fixture(job: &CiJob) -> String {
    let text = format!(
        "{{\"format\":\"safe-ad-emulator-state/1\",\"appendableData\":[{{\"name\":\"{}\",\
         \"version\":0,\"filterType\":\"BlackList\"}}]}}\n",
        name(7)
    );
    job.sandbox.file("fixture.json", &text);
    text
}

/// Checks that the committed fixture is as it was: `--import` never writes it.
#[track_caller]
fn fixture_kept(job: &CiJob, text: &str) {
    assert_eq!(
        std::fs::read_to_string(job.sandbox.path().join("fixture.json")).expect("fixture.json"),
        text,
        "the committed fixture was written"
    );
}

/// The lines of one list of README's GitLab job (`before_script:`, `script:`, `after_script:`).
fn gitlab_list(yaml: &str, key: &str) -> Vec<String> {
    let mut lines = yaml
        .lines()
        .skip_while(|line| line.trim() != format!("{key}:"));
    lines
        .next()
        .unwrap_or_else(|| panic!("README's GitLab job has no {key}"));
    lines
        .take_while(|line| line.trim_start().starts_with("- "))
        .map(|line| line.trim_start()[2..].to_owned())
        .collect()
}

/// Runs README's GitLab job as the runner does: `before_script` and `script` in one shell that
/// stops at the first failing line, `after_script` in another. Their exit codes.
fn run_gitlab(job: &CiJob, shell: &str, script: &[String], after: &[String]) -> (i32, i32) {
    let main = job
        .shell(shell, &format!("set -e\n{}\n", script.join("\n")))
        .case(format!("{shell}: before_script and script"))
        .run()
        .exit_code()
        .unwrap_or(-1);
    let after = job
        .shell(shell, &format!("set -e\n{}\n", after.join("\n")))
        .case(format!("{shell}: after_script"))
        .run()
        .exit_code()
        .unwrap_or(-1);
    (main, after)
}

#[test]
fn readmes_gitlab_ci_job_runs_under_sh_and_bash() {
    if !have_shells() {
        return;
    }
    let yaml = readme_yaml("after_script:");
    let before = gitlab_list(&yaml, "before_script");
    assert!(
        before[0].starts_with("git clone ") && before[0].contains(" safe-ad "),
        "the GitLab job checks safe-ad out first: {before:?}"
    );
    assert_eq!(before.get(1).map(String::as_str), Some(INSTALL));
    let before = &before[2..];
    let script = gitlab_list(&yaml, "script");
    let after = gitlab_list(&yaml, "after_script");
    assert!(!after.is_empty());
    assert!(
        before
            .iter()
            .any(|line| line.contains("--background") && line.contains("--import fixture.json")),
        "the start loads the committed fixture with --import: {before:?}"
    );
    for shell in SHELLS {
        let job = CiJob::new();
        let fixture = committed_fixture(&job);
        let main: Vec<String> = before.iter().chain(&script).cloned().collect();
        assert_eq!(run_gitlab(&job, shell, &main, &after), (0, 0), "{shell}");
        fixture_kept(&job, &fixture);
        assert_eq!(
            whole_log(&job.sandbox.path().join("requests.jsonl")).len(),
            6
        );
        assert!(job.temporary_files().is_empty());
        job.leftovers.assert_none();

        // The start fails: the script stops there, after_script finds nothing to stop (exit 0).
        let job = CiJob::new();
        committed_fixture(&job);
        std::fs::create_dir(job.sandbox.path().join("requests.jsonl")).expect("dir");
        assert_eq!(run_gitlab(&job, shell, &main, &after), (2, 0), "{shell}");
        assert!(job.temporary_files().is_empty());
        job.leftovers.assert_none();

        // The script fails before its stop: after_script stops the emulator.
        let job = CiJob::new();
        committed_fixture(&job);
        let failing: Vec<String> = before
            .iter()
            .chain(std::iter::once(&"false".to_owned()))
            .chain(&script)
            .cloned()
            .collect();
        assert_eq!(run_gitlab(&job, shell, &failing, &after), (1, 0), "{shell}");
        assert_eq!(
            whole_log(&job.sandbox.path().join("requests.jsonl")).len(),
            0
        );
        assert!(job.temporary_files().is_empty());
        job.leftovers.assert_none();
    }
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
