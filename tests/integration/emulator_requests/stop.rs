//! `safe-ad emulator --stop`: `--if-running` with nothing started, with a stale run directory,
//! with a running and a killed emulator; and what `--stop` may touch (only a run directory of its
//! own, only its files, and what runs under a reused process id named).

use super::*;

// ---- --stop --if-running ---------------------------------------------------------------------

fn start(job: &CiJob, options: &[&str]) -> BTreeMap<String, String> {
    let output = job
        .safe_ad()
        .args(["emulator", "--background", "--listen", "127.0.0.1:0"])
        .args(options)
        .run();
    output.success();
    variables(output.stdout())
}

fn stop(job: &CiJob, vars: &BTreeMap<String, String>, if_running: bool) -> Output {
    let mut stop = job.safe_ad();
    for (name, value) in vars {
        stop = stop.env(name, value);
    }
    stop = stop.args(["emulator", "--stop"]);
    if if_running {
        stop = stop.arg("--if-running");
    }
    stop.run()
}

/// SIGKILL, which the harness's `signal` does not send.
fn kill(pid: u32) {
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
}

fn runs(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            stat.rsplit_once(')')
                .map(|(_, rest)| rest.trim_start().chars().next())
        })
        .flatten()
        .is_some_and(|state| state != 'Z')
}

#[test]
fn stop_if_running_is_safe_when_nothing_was_started_and_stops_what_runs() {
    let job = CiJob::new();
    // Nothing started: the variables are not set.
    stop(&job, &BTreeMap::new(), true).success().stderr_has(
        "SAFE_AD_EMULATOR_PID is not set, and no background emulator of yours runs (none in ",
    );
    stop(&job, &BTreeMap::new(), false).code(1);

    // A running one is stopped as --stop stops it: the state saved, the log ended.
    let vars = start(&job, &["--state", "state.json", "--log", "log.jsonl"]);
    SafeAd::new()
        .launcher(&vars["SAFE_LAUNCHER_URL"])
        .env("SAFE_LAUNCHER_TOKEN", &vars["SAFE_LAUNCHER_TOKEN"])
        .args(["create", "--put"])
        .run()
        .success();
    let pid: u32 = vars["SAFE_AD_EMULATOR_PID"].parse().expect("pid");
    stop(&job, &vars, true)
        .success()
        .stderr_has("safe-ad emulator: requests: 2");
    assert!(!runs(pid));
    assert_eq!(
        crate::harness::emulator::saved_names(&job.sandbox.path().join("state.json")).len(),
        1
    );
    let log = std::fs::read_to_string(job.sandbox.path().join("log.jsonl")).expect("log");
    assert!(log
        .lines()
        .last()
        .is_some_and(|l| l.starts_with("{\"event\":\"stop\"")));

    // Only the directory named, and it is there: it names its emulator, which is stopped.
    let running = start(&job, &["--quiet"]);
    let only_dir = BTreeMap::from([(
        "SAFE_AD_EMULATOR_DIR".to_owned(),
        running["SAFE_AD_EMULATOR_DIR"].clone(),
    )]);
    stop(&job, &only_dir, true).success();
    let pid: u32 = running["SAFE_AD_EMULATOR_PID"].parse().expect("pid");
    assert!(!runs(pid));

    // Stale variables: their run directory is gone. --stop fails, --if-running passes.
    stop(&job, &vars, true)
        .success()
        .stderr_has("is gone (an earlier --stop stopped it, or it never started); nothing to stop");
    stop(&job, &vars, false).code(1).stderr_has("is gone");

    // A killed emulator is not "nothing": its state was lost, and that fails the step.
    let vars = start(&job, &["--quiet"]);
    let pid: u32 = vars["SAFE_AD_EMULATOR_PID"].parse().expect("pid");
    kill(pid);
    wait_until("the emulator to end", DEADLINE, || {
        (!runs(pid)).then_some(())
    });
    stop(&job, &vars, true)
        .code(1)
        .stderr_has("ended without stopping cleanly (killed?)");
    assert!(job.temporary_files().is_empty());
    job.leftovers.assert_none();
}

// ---- what --stop may touch -------------------------------------------------------------------

#[test]
fn stop_removes_nothing_but_a_run_directory_of_its_own_and_says_what_runs_under_a_reused_pid() {
    let job = CiJob::new();
    let mut sleeper = job.shell("sh", "exec sleep 300").spawn();
    let sleeping = sleeper.pid().to_string();
    let sleeper_vars = |dir: &Path| {
        BTreeMap::from([
            ("SAFE_AD_EMULATOR_PID".to_owned(), sleeping.clone()),
            ("SAFE_AD_EMULATOR_DIR".to_owned(), path_arg(dir).to_owned()),
        ])
    };
    // A user's directory, with what a run directory holds and a file of the user's.
    let project = job.sandbox.path().join("project");
    std::fs::create_dir(&project).expect("dir");
    set_mode(&project, 0o700);
    std::fs::write(project.join("pid"), format!("{sleeping}\n")).expect("pid");
    std::fs::write(project.join("lock"), "").expect("lock");
    std::fs::write(project.join("data.txt"), "the user's").expect("data");
    stop(&job, &sleeper_vars(&project), false)
        .code(1)
        .stderr_has("is not a directory that `safe-ad emulator --background` made")
        .stderr_has("nothing was signalled or removed");
    assert_eq!(
        std::fs::read_to_string(project.join("data.txt")).expect("kept"),
        "the user's"
    );
    assert!(project.join("pid").exists() && project.join("lock").exists());
    // Named as a run directory is, but holding a file --background never writes.
    let named = job.tmp().join("safe-ad-emulator.00112233445566ff");
    std::fs::rename(&project, &named).expect("rename");
    stop(&job, &sleeper_vars(&named), true)
        .code(1)
        .stderr_has("it holds `data.txt`, which --background never writes there");
    assert!(named.join("data.txt").exists());
    assert!(sleeper.is_running(), "sleep was signalled");

    // A run directory of its own whose emulator ended (killed), its pid now another process's.
    std::fs::remove_dir_all(&named).expect("cleanup");
    let vars = start(&job, &["--quiet"]);
    let pid: u32 = vars["SAFE_AD_EMULATOR_PID"].parse().expect("pid");
    kill(pid);
    wait_until("the emulator to end", DEADLINE, || {
        (!runs(pid)).then_some(())
    });
    let dir = PathBuf::from(&vars["SAFE_AD_EMULATOR_DIR"]);
    std::fs::write(dir.join("pid"), format!("{sleeping}\n")).expect("pid");
    stop(&job, &sleeper_vars(&dir), false)
        .code(1)
        .stderr_has(&format!(
            "process {sleeping} (sleep) runs, but it is not the emulator of {}",
            dir.display()
        ))
        .stderr_has("nothing was signalled")
        .stderr_lacks("was not running");
    assert!(sleeper.is_running(), "sleep was signalled");
    // Its own directory, and only its files in it: removed.
    assert!(!dir.exists());
    drop(sleeper);
    assert!(
        job.temporary_files().is_empty(),
        "{:?}",
        job.temporary_files()
    );
    job.leftovers.assert_none();
}
