//! README's GitHub Actions job and docs/ci.md's GitLab CI job, run as written under sh and bash,
//! with the `--import` fixture they use left byte for byte as committed.

use super::*;

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
            // A step's id names its outputs for the steps after it (docs/ci.md's cache).
            "id" => {}
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
    let output_file = job.sandbox.file("github_output", "");
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
            .env("GITHUB_OUTPUT", &output_file)
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
        // The scripts appended to the fixture's data, and the committed fixture is as it was.
        fixture_kept(&job, &fixture);
        // The scripts' requests by the data's name (the append: 7, the copy taken and given
        // back among them; the wait: 9, your key and one poll, whose copy's bytes show the
        // item at once; the show: 16, your key, the data's bytes and the one item read), and
        // the two reads of the journal (logged, not journaled).
        let logged = whole_log(&job.sandbox.path().join("requests.jsonl"));
        assert_eq!(logged.len(), 34, "{logged:?}");
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

/// README's check on the journal holds for any script of safe-ad commands that exit 0, and fails
/// the job when one was refused (issue 43). The job runs as written, but its scripts: they also
/// `show` and `status` data whose item points at structured data the fixture does not hold (a
/// 404 NoSuchData, the network's answer, said "not on the network"); and again with a `post` of a
/// stale copy that the script lets fail (`|| ...`), which the check alone must catch.
#[test]
fn readmes_check_passes_scripts_that_read_data_not_on_the_network_and_fails_a_refusal() {
    if !have_shells() {
        return;
    }
    let steps = github_steps(&readme_yaml("runs-on:"));
    let with_scripts = |script: &str| -> Vec<Step> {
        let mut replaced = steps.clone();
        let at = replaced
            .iter()
            .position(|s| s.name == "Run the scripts against it")
            .expect("the scripts' step");
        let readmes = replaced[at].run.clone().expect("README's scripts");
        replaced[at].run = Some(format!("{readmes}{script}"));
        replaced
    };
    let open = format!("safe-ad open {}", name(7));
    // Every command exits 0 (the step runs with -e); show and status read the missing item.
    let reads = with_scripts(&format!(
        "d=$({open})\n\
         safe-ad show \"$d\" > shown.txt\n\
         grep -F ', not on the network' shown.txt\n\
         safe-ad status \"$d\"\n"
    ));
    // A post refused (-25): the copy in $stale is stale once $d's removal was saved.
    let refused = with_scripts(&format!(
        "d=$({open})\n\
         stale=$({open})\n\
         safe-ad remove --save post \"$d\" 0\n\
         safe-ad post \"$stale\" || echo \"the script goes on after a refusal ($?)\"\n"
    ));
    for shell in SHELLS {
        let job = CiJob::new();
        let fixture = item_not_on_the_network(&job);
        let ran = run_github(&job, shell, &reads);
        let codes: Vec<i32> = ran.iter().map(|(_, code)| *code).collect();
        assert_eq!(codes, [0, 0, 0, 0], "{shell}: {ran:?}");
        fixture_kept(&job, &fixture);
        let logged = whole_log(&job.sandbox.path().join("requests.jsonl"));
        let not_there: Vec<&Value> = logged.iter().filter(|r| r["status"] == 404).collect();
        assert!(
            !not_there.is_empty(),
            "{shell}: no read found the item's data missing"
        );
        assert!(
            not_there
                .iter()
                .all(|r| r["not_on_network"] == true && r["error_code"] == -18),
            "{shell}: {not_there:?}"
        );
        assert!(job.temporary_files().is_empty());
        job.leftovers.assert_none();

        let job = CiJob::new();
        item_not_on_the_network(&job);
        let ran = run_github(&job, shell, &refused);
        let codes: Vec<i32> = ran.iter().map(|(_, code)| *code).collect();
        assert_eq!(codes, [0, 0, 1, 0], "{shell}: {ran:?}");
        let logged = whole_log(&job.sandbox.path().join("requests.jsonl"));
        assert!(
            logged
                .iter()
                .any(|r| r["error_code"] == -25 && r["effect"] == "change"),
            "{shell}: {logged:?}"
        );
        assert!(job.temporary_files().is_empty());
        job.leftovers.assert_none();
    }
}

/// A fixture for README's jobs whose one appendable data (the name README's fixture has) holds
/// one item, pointing at structured data the fixture does not hold; its text.
fn item_not_on_the_network(job: &CiJob) -> String {
    let text = format!(
        "{{\"format\":\"safe-ad-emulator-state/1\",\"appendableData\":[{{\"name\":\"{}\",\
         \"version\":0,\"filterType\":\"BlackList\",\"data\":[{{\"structuredData\":\
         {{\"name\":\"{}\",\"typeTag\":500}}}}]}}]}}\n",
        name(7),
        name(0x5a)
    );
    job.sandbox.file("fixture.json", &text);
    text
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

/// docs/ci.md's job that installs safe-ad once for many jobs (an Actions cache keyed on its
/// version), run with a fixture `capture` took from an emulator standing in for your launcher:
/// every step but the checkouts, the cache and the install passes, and the version step finds
/// the version of the safe-ad it checked out (here, this one's `Cargo.toml`).
#[test]
fn docs_ci_cached_install_job_runs_with_a_captured_fixture() {
    if !have_shells() {
        return;
    }
    let yaml = readme_yaml("actions/cache");
    let steps = github_steps(&yaml);
    let cache = yaml.find("uses: actions/cache@").expect("the cache step");
    assert!(
        cache < yaml.find(INSTALL).expect("the install"),
        "the cache is restored before the install:\n{yaml}"
    );
    assert!(
        yaml.contains("if: steps.installed.outputs.cache-hit != 'true'"),
        "the install runs only when the cache missed:\n{yaml}"
    );
    for shell in SHELLS {
        let job = CiJob::new();
        let checkout = job.sandbox.path().join("safe-ad");
        std::fs::create_dir(&checkout).expect("safe-ad/");
        std::fs::copy(repo_root().join("Cargo.toml"), checkout.join("Cargo.toml"))
            .expect("safe-ad/Cargo.toml");
        let launcher = Emulator::start(&[]);
        let fixture = job.sandbox.path().join("fixture.json");
        job.sandbox
            .safe_ad()
            .launcher(&launcher.url)
            .args(["capture", &launcher.demo_name(5), "-o"])
            .arg(&fixture)
            .run()
            .success();
        let captured = std::fs::read_to_string(&fixture).expect("the fixture");
        let ran = run_github(&job, shell, &steps);
        assert!(ran.iter().all(|(_, code)| *code == 0), "{shell}: {ran:?}");
        let outputs =
            std::fs::read_to_string(job.sandbox.path().join("github_output")).expect("outputs");
        assert_eq!(
            outputs,
            format!("version={}\n", env!("CARGO_PKG_VERSION")),
            "{shell}"
        );
        fixture_kept(&job, &captured);
        job.leftovers.assert_none();
    }
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
        // Five requests of the scripts, and the two reads of the journal.
        assert_eq!(
            whole_log(&job.sandbox.path().join("requests.jsonl")).len(),
            7
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
