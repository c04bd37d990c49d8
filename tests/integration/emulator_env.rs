//! `safe-ad emulator env`: the variables `--background` printed, printed again for a shell that
//! lost them, against real background emulators in a job's own TMPDIR: the same lines in both
//! formats (sh and env file), variables that work, the only one chosen, several refused without
//! `--pid` (exit 2) and each one's own by `--pid`, none running (exit 1), a token file that is a
//! link, that others may read or that has a second name refused, an `about` URL that is not a
//! loopback `http://ADDRESS:PORT` refused, and a run directory that fails a check named with the
//! check (by `list` too, which escapes a fixture path's control characters). No run shows a token anywhere but the variables on
//! stdout of a run that printed them.

use std::path::PathBuf;

use crate::harness::leftovers::{variables, CiJob};
use crate::harness::*;

/// A background emulator started in `job` (with `options`): what it printed on stdout.
#[track_caller]
fn start(job: &CiJob, options: &[&str]) -> String {
    let output = job.background(options);
    assert_eq!(variables(output.stdout()).len(), 4, "{}", output.stdout());
    output.stdout().to_owned()
}

/// `safe-ad emulator env ARGS` in `job`, without the variables; no token of `started` is on its
/// stderr, and none on its stdout unless it exits 0.
#[track_caller]
fn env(job: &CiJob, args: &[&str], started: &[&str]) -> Output {
    let output = job.safe_ad().args(["emulator", "env"]).args(args).run();
    for text in started {
        let token = &variables(text)["SAFE_LAUNCHER_TOKEN"];
        output.stderr_lacks(token);
        if output.exit_code() != Some(0) {
            output.check(
                !output.stdout().contains(token.as_str()),
                "a token on stdout",
            );
        }
    }
    output
}

/// `safe-ad emulator --stop --pid` of the emulator that printed `started`.
#[track_caller]
fn stop(job: &CiJob, started: &str) {
    let pid = variables(started)["SAFE_AD_EMULATOR_PID"].clone();
    job.safe_ad()
        .args(["emulator", "--stop", "--pid", &pid])
        .run()
        .success();
}

#[test]
fn env_prints_again_what_background_printed_for_the_only_one_or_the_one_named() {
    let job = CiJob::new();
    env(&job, &[], &[])
        .code(1)
        .stdout_is("")
        .stderr_has("safe-ad emulator env: error: no background emulator of yours runs (none in ");

    // One, started in the sh format: the same lines, and they work.
    let first = start(&job, &[]);
    env(&job, &[], &[&first]).success().stdout_is(&first);
    let vars = variables(&first);
    let mut metadata = job.safe_ad().args(["metadata", "1"]);
    for (name, value) in &vars {
        metadata = metadata.env(name, value);
    }
    metadata.run().success();
    job.safe_ad()
        .args(["emulator", "list"])
        .run()
        .success()
        .stderr_has("`safe-ad emulator env --pid PID` prints one's variables");

    // A second, in the env-file format: without --pid both are listed, nothing printed.
    let second = start(&job, &["--format", "env"]);
    assert!(!second.starts_with("export "), "{second}");
    let both = [first.as_str(), second.as_str()];
    let (one, two) = (
        vars["SAFE_AD_EMULATOR_PID"].clone(),
        variables(&second)["SAFE_AD_EMULATOR_PID"].clone(),
    );
    env(&job, &[], &both)
        .code(2)
        .stdout_is("")
        .stderr_has("safe-ad emulator env: error: 2 background emulators of yours run:")
        .stderr_has(&format!("process {one}, "))
        .stderr_has(&format!("process {two}, "))
        .stderr_has("give --pid PID to choose one");
    // Each by --pid, in either format: its own.
    env(&job, &["--pid", &one], &both)
        .success()
        .stdout_is(&first);
    env(&job, &["--pid", &two, "--format", "env"], &both)
        .success()
        .stdout_is(&second);
    let second_as_sh = env(&job, &["--pid", &two, "--format", "sh"], &both);
    second_as_sh.success();
    assert_eq!(variables(second_as_sh.stdout()), variables(&second));
    assert!(second_as_sh.stdout().starts_with("export "));
    let first_as_env = env(&job, &["--pid", &one, "--format", "env"], &both);
    first_as_env.success().check(
        variables(first_as_env.stdout()) == vars && !first_as_env.stdout().contains("export "),
        "the first one's variables as NAME=VALUE lines",
    );

    stop(&job, &second);
    env(&job, &["--pid", &two], &both)
        .code(1)
        .stdout_is("")
        .stderr_has(&format!("process {two}"))
        .stderr_has("is not a background emulator of yours");
    env(&job, &[], &both).success().stdout_is(&first);
    stop(&job, &first);
    env(&job, &[], &both).code(1).stdout_is("");
    assert!(job.temporary_files().is_empty());
    job.leftovers.assert_none();
}

#[test]
fn a_token_file_that_is_a_link_or_that_others_may_read_is_refused() {
    let job = CiJob::new();
    let started = start(&job, &[]);
    let vars = variables(&started);
    let pid = vars["SAFE_AD_EMULATOR_PID"].clone();
    let token_file = PathBuf::from(&vars["SAFE_AD_EMULATOR_DIR"]).join("token");
    let mode = |path: &PathBuf| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::symlink_metadata(path)
            .expect("token")
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode(&token_file), 0o600);

    // Readable by others: refused, with or without --pid.
    set_mode(&token_file, 0o644);
    for args in [&["--pid", pid.as_str()][..], &[]] {
        env(&job, args, &[&started])
            .code(1)
            .stdout_is("")
            .stderr_has("its token file has mode 644; the emulator writes it 600")
            .stderr_has("its token is not printed");
    }
    set_mode(&token_file, 0o600);
    env(&job, &["--pid", &pid], &[&started])
        .success()
        .stdout_is(&started);

    // A symbolic link (to a file that holds the token, mode 0600): never followed.
    let elsewhere = job.sandbox.path().join("token-elsewhere");
    std::fs::rename(&token_file, &elsewhere).expect("move the token");
    std::os::unix::fs::symlink(&elsewhere, &token_file).expect("link");
    env(&job, &["--pid", &pid], &[&started])
        .code(1)
        .stdout_is("")
        .stderr_has("is not a directory that `safe-ad emulator --background` made")
        .stderr_has("it holds `token`, which is not a plain file");
    std::fs::remove_file(&token_file).expect("unlink");
    std::fs::rename(&elsewhere, &token_file).expect("move it back");
    env(&job, &[], &[&started]).success().stdout_is(&started);

    stop(&job, &started);
    assert!(job.temporary_files().is_empty());
    job.leftovers.assert_none();
}

/// A TMPDIR whose path holds a line break: the run directory's path reaches the starter as a
/// line, and its variables as lines, so `--background` refuses it before it starts anything, in
/// either format (exit 2; on stdout nothing, or for sh the line that fails an `eval` of it;
/// nothing left running or made), rather than print a directory cut short at the break.
#[test]
fn a_tmpdir_with_a_line_break_is_refused_by_background_in_either_format() {
    let job = CiJob::new();
    let odd = job.tmp().join("line\nbreak");
    std::fs::create_dir(&odd).expect("the odd TMPDIR");
    for format in [&["--format", "env"][..], &[]] {
        let refused = job
            .safe_ad()
            .env("TMPDIR", &odd)
            .args([
                "emulator",
                "--background",
                "--quiet",
                "--listen",
                "127.0.0.1:0",
            ])
            .args(format)
            .run();
        refused
            .code(2)
            .stderr_has("the temporary directory's path (TMPDIR) holds a line break");
        if format.is_empty() {
            // sh: the line that fails an `eval` of it.
            refused.check(
                refused.stdout().starts_with("false # "),
                "no line that fails an eval",
            );
        } else {
            refused.stdout_is("");
        }
        assert!(
            job.leftovers.running().is_empty(),
            "{format:?}: it left an emulator"
        );
        let made: Vec<_> = std::fs::read_dir(&odd).expect("odd").collect();
        assert!(made.is_empty(), "{format:?}: it made {made:?}");
    }
}

/// What `env` and `list` check and say of a running background emulator: a run directory that
/// fails a check (a file `--background` never writes there) is left out by both, and both say
/// which check, where before they said that none runs; a token file with a second name (a hard
/// link elsewhere) and an `about` file whose URL is not the loopback `http://ADDRESS:PORT` an
/// emulator writes are refused by `env`; and `list` shows a fixture's path with its control
/// characters escaped, not raw.
#[test]
fn a_directory_that_fails_a_check_is_named_and_a_linked_token_or_a_strange_url_refused() {
    let job = CiJob::new();
    let fixture = job.sandbox.file(
        "fix\u{1b}[2Jture.json",
        r#"{"format":"safe-ad-emulator-state/1"}"#,
    );
    let started = start(&job, &["--import", fixture.to_str().expect("a UTF-8 path")]);
    let vars = variables(&started);
    let dir = PathBuf::from(&vars["SAFE_AD_EMULATOR_DIR"]);
    let list = || job.safe_ad().args(["emulator", "list"]).run();

    // The fixture's path, escaped in the table.
    let listed = list();
    listed.success().stdout_has("fix\\u{1b}[2Jture.json");
    listed.check(
        !listed.stdout().contains('\u{1b}'),
        "an escape character raw on stdout",
    );

    // A file --background never writes there: left out, and the check named.
    let extra = dir.join("extra");
    std::fs::write(&extra, "x").expect("extra");
    let check = "it holds `extra`, which --background never writes there";
    env(&job, &[], &[&started])
        .code(1)
        .stdout_is("")
        .stderr_has("is left out, though an emulator holds it")
        .stderr_has(check)
        .stderr_lacks("no background emulator of yours runs (none in");
    list()
        .success()
        .stdout_is("")
        .stderr_has("is left out, though an emulator holds it")
        .stderr_has(check)
        .stderr_lacks("no background emulator of yours runs (none in");
    std::fs::remove_file(&extra).expect("remove extra");
    env(&job, &[], &[&started]).success().stdout_is(&started);

    // A second name for the token file.
    let token_file = dir.join("token");
    let second = job.sandbox.path().join("second-name");
    std::fs::hard_link(&token_file, &second).expect("hard link");
    env(&job, &[], &[&started])
        .code(1)
        .stdout_is("")
        .stderr_has("its token file has 2 names (hard links)");
    std::fs::remove_file(&second).expect("unlink");

    // A URL in `about` that is not where an emulator listens.
    let about_file = dir.join("about");
    let about = std::fs::read_to_string(&about_file).expect("about");
    let url = &vars["SAFE_LAUNCHER_URL"];
    for strange in ["http://10.0.0.1:8100", "http://127.0.0.1:1/'$(touch x)'"] {
        std::fs::write(&about_file, about.replace(url.as_str(), strange)).expect("about");
        env(&job, &[], &[&started])
            .code(1)
            .stdout_is("")
            .stderr_has("which is not the http://ADDRESS:PORT on this machine");
    }
    std::fs::write(&about_file, &about).expect("about back");
    env(&job, &[], &[&started]).success().stdout_is(&started);

    stop(&job, &started);
    assert!(job.temporary_files().is_empty());
    job.leftovers.assert_none();
}

/// Hints that know a background emulator of yours runs (issue 52): with no token at its URL the
/// hint is `eval "$(safe-ad emulator env)"` and never `auth login` (which would write the
/// emulator's token into the config file); a rejected token and a refused connection add the
/// same way back once; with none running the hints are as before. On a terminal,
/// `--background` says its lines set nothing unless run under `eval`.
#[test]
fn hints_name_emulator_env_when_a_background_emulator_of_yours_runs() {
    let job = CiJob::new();
    let none = (job.safe_ad())
        .env("SAFE_LAUNCHER_URL", "http://127.0.0.1:1")
        .args(["metadata", "1"])
        .run();
    none.code(3)
        .stderr_has("run `safe-ad auth login`")
        .stderr_lacks("emulator env");
    let started = variables(job.background(&[]).stdout());
    let url = &started["SAFE_LAUNCHER_URL"];
    let pid = &started["SAFE_AD_EMULATOR_PID"];
    job.safe_ad()
        .env("SAFE_LAUNCHER_URL", url)
        .args(["metadata", "1"])
        .run()
        .code(3)
        .stderr_has(&format!(
            "{url} is a background emulator of yours (process {pid}): `eval \"$(safe-ad emulator env)\"`"
        ))
        .stderr_lacks("auth login");
    for (case, token, target, code) in [
        ("a rejected token", "not-the-emulators", url.as_str(), 3),
        ("a refused connection", "x", "http://127.0.0.1:1", 6),
    ] {
        let output = (job.safe_ad())
            .env("SAFE_LAUNCHER_URL", target)
            .env("SAFE_LAUNCHER_TOKEN", token)
            .args(["metadata", "1", "2"])
            .case(case)
            .run();
        output.code(code).check(
            output.stderr().matches("safe-ad emulator env").count() == 1,
            "the way back said once",
        );
        output.stderr_has(&format!(
            "a background emulator of yours runs at {url} (process {pid})"
        ));
    }
    job.safe_ad()
        .args(["emulator", "--stop", "--all"])
        .run()
        .success();
    if !have("script") {
        return skip("`script` is needed for a terminal");
    }
    let on_terminal = job
        .shell(
            "sh",
            "exec script -qec 'safe-ad emulator --background --quiet --listen 127.0.0.1:0' /dev/null",
        )
        .run();
    on_terminal
        .success()
        .stdout_has("these lines set nothing by themselves: run it as eval");
    job.safe_ad()
        .args(["emulator", "--stop", "--all"])
        .run()
        .success();
}
