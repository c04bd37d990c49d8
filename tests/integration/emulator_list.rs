//! Finding and stopping background emulators: `safe-ad emulator list` (text and `--json`);
//! `--stop` without the variables, with none, one and two emulators (`--pid`, `--all`), and
//! `--stop --if-running` saying what it found without stopping what nothing named; a starter
//! killed (SIGKILL) at a sweep of moments leaves no emulator and no run directory; `--stop` on a
//! run directory made by hand around a hard link to a live emulator's lock signals nothing; and
//! an emulator that ended and removed its own directory is reported as ended.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use crate::harness::leftovers::{variables, CiJob};
use crate::harness::*;

/// Starts a background emulator in `job`; its variables.
#[track_caller]
fn start(job: &CiJob, options: &[&str]) -> BTreeMap<String, String> {
    variables(job.background(options).stdout())
}

/// Its process id.
fn pid_of(vars: &BTreeMap<String, String>) -> u32 {
    vars["SAFE_AD_EMULATOR_PID"].parse().expect("a process id")
}

/// Whether a process runs (not ended, not a zombie).
fn runs(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let (_, rest) = stat.rsplit_once(')')?;
            rest.split_whitespace().next().map(|state| state != "Z")
        })
        .unwrap_or(false)
}

/// Waits until process `pid` has ended (its lock, which `--stop` waits for, goes a moment before
/// the process is gone).
#[track_caller]
fn ended(pid: u32) -> bool {
    poll(DEADLINE, || (!runs(pid)).then_some(())).is_some()
}

/// `safe-ad emulator ARGS` in the job, with `vars` in its environment.
fn emulator(job: &CiJob, vars: &BTreeMap<String, String>, args: &[&str]) -> Output {
    let mut command = job.safe_ad().arg("emulator").args(args);
    for (name, value) in vars {
        command = command.env(name, value);
    }
    command.run()
}

#[test]
fn list_shows_each_background_emulator_and_stop_without_variables_stops_the_only_one() {
    let job = CiJob::new();
    let none = BTreeMap::new();
    emulator(&job, &none, &["list"])
        .success()
        .stdout_is("")
        .stderr_has("safe-ad emulator list: no background emulator of yours runs (none in ");
    emulator(&job, &none, &["list", "--json"])
        .success()
        .stdout_is("");

    job.sandbox
        .file("fixture.json", r#"{"format":"safe-ad-emulator-state/1"}"#);
    let first = start(&job, &["--import", "fixture.json"]);
    let listed = emulator(&job, &none, &["list", "--json"]);
    listed.success();
    let rows = listed.json_lines();
    assert_eq!(rows.len(), 1, "{rows:?}");
    let row = &rows[0];
    assert_eq!(row["pid"], pid_of(&first));
    assert_eq!(row["url"], first["SAFE_LAUNCHER_URL"].as_str());
    assert_eq!(row["dir"], first["SAFE_AD_EMULATOR_DIR"].as_str());
    let fixture = job.sandbox.path().join("fixture.json");
    assert_eq!(
        row["fixture"],
        format!("--import {}", fixture.display()).as_str()
    );
    let started = row["started"].as_str().expect("started");
    assert!(
        started.len() == 20 && started.ends_with('Z') && started.as_bytes()[10] == b'T',
        "{started}"
    );
    let table = emulator(&job, &none, &["list"]);
    table
        .success()
        .stdout_has("PID")
        .stdout_has(&format!(
            "{}  {}",
            pid_of(&first),
            first["SAFE_LAUNCHER_URL"]
        ))
        .stdout_has(&first["SAFE_AD_EMULATOR_DIR"]);

    // --if-running names nothing: it says what runs, and leaves it running.
    emulator(&job, &none, &["--stop", "--if-running"])
        .success()
        .stderr_has(
            "no emulator was started here; 1 background emulator of yours runs, left running",
        )
        .stderr_has(&format!("process {}, ", pid_of(&first)));
    assert!(runs(pid_of(&first)));
    // --stop without the variables stops the only one.
    emulator(&job, &none, &["--stop"]).success().stderr_has(
        "SAFE_AD_EMULATOR_PID is not set; stopping the only background emulator of yours",
    );
    assert!(ended(pid_of(&first)));
    assert!(job.temporary_files().is_empty());

    // Two: listed, and --pid or --all asked for; nothing stopped.
    let one = start(&job, &[]);
    let two = start(&job, &[]);
    let listed = emulator(&job, &none, &["list", "--json"]);
    assert_eq!(listed.success().json_lines().len(), 2);
    emulator(&job, &none, &["--stop"])
        .code(2)
        .stderr_has("SAFE_AD_EMULATOR_PID is not set, and 2 background emulators of yours run:")
        .stderr_has(&format!("process {}, ", pid_of(&one)))
        .stderr_has(&format!("process {}, ", pid_of(&two)))
        .stderr_has("give --pid PID to stop one, or --all");
    assert!(runs(pid_of(&one)) && runs(pid_of(&two)));
    let second = pid_of(&two).to_string();
    emulator(&job, &none, &["--stop", "--pid", &second]).success();
    assert!(ended(pid_of(&two)) && runs(pid_of(&one)));
    // --pid of a process that is not one of them signals nothing.
    let mut sleeper = job.shell("sh", "exec sleep 300").spawn();
    emulator(
        &job,
        &none,
        &["--stop", "--pid", &sleeper.pid().to_string()],
    )
    .code(1)
    .stderr_has("is not a background emulator of yours");
    assert!(sleeper.is_running());
    drop(sleeper);
    let three = start(&job, &[]);
    emulator(&job, &none, &["--stop", "--all"]).success();
    assert!(ended(pid_of(&one)) && ended(pid_of(&three)));
    emulator(&job, &none, &["--stop", "--all"])
        .code(1)
        .stderr_has("no background emulator of yours runs");
    emulator(&job, &none, &["--stop", "--all", "--if-running"]).success();
    assert!(job.temporary_files().is_empty());
    job.leftovers.assert_none();
}

#[test]
fn a_starter_killed_at_any_moment_leaves_no_emulator_and_no_run_directory() {
    // SIGKILL cannot be handled: whenever it comes, before the emulator made its directory,
    // while it listens, or after it printed its lines but before the starter printed the
    // variables, the emulator (told nothing) stops and leaves nothing. After the starter has
    // printed them, the emulator is the user's and runs on.
    let job = CiJob::new();
    let (mut killed, mut handed) = (0, 0);
    for delay in (0..=24).chain((28..=80).step_by(4)) {
        let starter = job
            .safe_ad()
            .args(["emulator", "--background", "--listen", "127.0.0.1:0"])
            .case(format!("killed after {delay} ms"))
            .spawn();
        std::thread::sleep(Duration::from_millis(delay));
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &starter.pid().to_string()])
            .status();
        let output = starter.wait();
        // Exit 0 (it ended before the kill), or killed.
        let code = output.exit_code();
        use std::os::unix::process::ExitStatusExt;
        output.check(
            code == Some(0) || output.status().signal() == Some(9),
            "the starter's end",
        );
        let vars = variables(output.stdout());
        if vars.len() == 4 {
            // The variables were printed: the emulator is the user's (or, killed between the
            // printing and the word to the emulator, ends by itself). Stopped by its variables,
            // nothing is left.
            handed += 1;
            let stopped = emulator(&job, &vars, &["--stop", "--if-running"]);
            let code = stopped.exit_code().unwrap_or(-1);
            stopped.code(code).check(
                code == 0 || code == 1,
                "--stop --if-running by its variables",
            );
        } else {
            killed += 1;
            assert_eq!(output.status().signal(), Some(9), "{delay} ms: {vars:?}");
        }
        job.leftovers.assert_none();
        let gone = poll(DEADLINE, || job.temporary_files().is_empty().then_some(()));
        assert!(
            gone.is_some(),
            "killed after {delay} ms: left {:?}",
            job.temporary_files()
        );
    }
    eprintln!("starters killed before the variables: {killed}, after: {handed}");
    assert!(
        killed > 0,
        "no starter was killed before it ended ({handed} ended first)"
    );
    job.leftovers.assert_none();
}

#[test]
fn stop_signals_nothing_through_a_run_directory_made_by_hand() {
    let job = CiJob::new();
    let vars = start(&job, &[]);
    let real = PathBuf::from(&vars["SAFE_AD_EMULATOR_DIR"]);
    let mut sleeper = job.shell("sh", "exec sleep 300").spawn();
    // A directory that passes for a run directory: the name, the mode, the files; its lock a hard
    // link to the live emulator's, so that it is held.
    let forged = job.tmp().join("safe-ad-emulator.0123456789abcdef");
    std::fs::create_dir(&forged).expect("dir");
    set_mode(&forged, 0o700);
    std::fs::hard_link(real.join("lock"), forged.join("lock")).expect("link");
    for pid in [sleeper.pid(), pid_of(&vars)] {
        std::fs::write(forged.join("pid"), format!("{pid}\n")).expect("pid");
        let named = BTreeMap::from([
            ("SAFE_AD_EMULATOR_PID".to_owned(), pid.to_string()),
            (
                "SAFE_AD_EMULATOR_DIR".to_owned(),
                forged.display().to_string(),
            ),
        ]);
        emulator(&job, &named, &["--stop"])
            .code(1)
            .stderr_has(&format!("process {pid} ("))
            .stderr_has("so it is not the emulator that made it")
            .stderr_has("nothing was signalled");
        assert!(sleeper.is_running(), "sleep was signalled");
        assert!(runs(pid_of(&vars)), "the emulator was signalled");
    }
    assert!(
        forged.join("pid").exists(),
        "the directory made by hand was touched"
    );
    std::fs::remove_dir_all(&forged).expect("remove");
    drop(sleeper);
    emulator(&job, &vars, &["--stop"]).success();
    job.leftovers.assert_none();
}

#[test]
fn an_emulator_that_removed_its_own_directory_is_reported_as_ended() {
    // An emulator in the background that was never told its variables were printed (its stdin a
    // FIFO nobody writes to) removes its directory as it ends: --stop says it ended, and how it
    // ended is not known (exit 1), rather than that it would not end.
    let job = CiJob::new();
    let (reader, _writer) = job.sandbox.fifo("stdin");
    let mut orphan = job
        .safe_ad()
        .env("SAFE_AD_EMULATOR_DAEMON", "1")
        .args(["emulator", "--quiet", "--listen", "127.0.0.1:0"])
        .stdin_from(reader)
        .spawn();
    let url = orphan.line();
    let _token = orphan.line();
    let dir = orphan.line();
    let dir = dir
        .strip_prefix("SAFE_AD_EMULATOR_DIR=")
        .unwrap_or_else(|| panic!("third line: {dir:?}; {url}"))
        .to_owned();
    let pid = orphan.pid();
    let named = BTreeMap::from([
        ("SAFE_AD_EMULATOR_PID".to_owned(), pid.to_string()),
        ("SAFE_AD_EMULATOR_DIR".to_owned(), dir.clone()),
    ]);
    emulator(&job, &named, &["--stop"])
        .code(1)
        .stderr_has(&format!("process {pid} ended, and removed {dir} itself"))
        .stderr_lacks("did not end");
    orphan.wait_for_exit();
    assert!(!PathBuf::from(&dir).exists());
    job.leftovers.assert_none();
}
