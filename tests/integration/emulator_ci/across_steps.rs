//! An emulator started with `--background` in one step of a CI job, used from another and stopped
//! with `--stop` from a third; `eval` of its variables in sh and bash, and `--format env` appended
//! to an env file that a later step reads.

use super::*;

const NAMES: [&str; 4] = [
    "SAFE_LAUNCHER_URL",
    "SAFE_LAUNCHER_TOKEN",
    "SAFE_AD_EMULATOR_PID",
    "SAFE_AD_EMULATOR_DIR",
];

/// Where file descriptor `fd` of process `pid` points.
fn fd_target(pid: u32, fd: u32) -> String {
    std::fs::read_link(format!("/proc/{pid}/fd/{fd}"))
        .map(|path| path.display().to_string())
        .unwrap_or_default()
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
