//! Help as a reader meets it: each command's own options come first in `-h` and `--help`, the
//! client options shared by every command in one closing group; the options a command has are
//! all in its `-h` (the selectors of `remove`, `emulator --if-running`, `append --encrypt`);
//! each command's `--help` ends with the exit codes it can return, from the one table; and
//! every example line that `--help` prints runs, as printed, against the emulator.

use crate::harness::emulator::Emulator;
use crate::harness::leftovers::Leftovers;
use crate::harness::*;

/// `safe-ad PATH flag`'s stdout on an 80-column terminal, where help wraps most (`PATH` empty:
/// the top level's).
fn help_of(path: &str, flag: &str) -> String {
    SafeAd::new()
        .env("COLUMNS", "80")
        .args(path.split(' ').filter(|word| !word.is_empty()))
        .arg(flag)
        .run()
        .success()
        .stdout()
        .to_owned()
}

/// Where the line that lists option `long` (`  -q, --quiet  ...`, `      --json  ...`) starts.
fn option_line(help: &str, long: &str) -> Option<usize> {
    let mut at = 0;
    for line in help.split_inclusive('\n') {
        let text = line.trim_start();
        let text = match text.split_once(", ") {
            Some((short, rest)) if short.len() == 2 && short.starts_with('-') => rest,
            _ => text,
        };
        if text
            .strip_prefix(long)
            .is_some_and(|rest| rest.starts_with(' ') || rest.starts_with('\n') || rest.is_empty())
        {
            return Some(at);
        }
        at += line.len();
    }
    None
}

#[test]
fn each_commands_own_options_come_before_the_client_options() {
    let heading = format!("{}:", safe_ad::test_support::cli::CLIENT_OPTIONS);
    for path in command_paths() {
        // `-h` names them in one closing line; `options::offered` checks that line.
        for flag in ["--help"] {
            let help = help_of(&path, flag);
            let takes_any = safe_ad::test_support::cli::options_of(&path)
                .iter()
                .next()
                .is_some();
            let Some(client) = help.find(&heading) else {
                assert!(
                    !takes_any,
                    "`{path} {flag}` has no {heading} group:\n{help}"
                );
                continue;
            };
            // No client option before the heading, and nothing but them after it.
            for opt in safe_ad::test_support::cli::options_of(&path).iter() {
                let long = opt.long();
                let at = option_line(&help, &long)
                    .unwrap_or_else(|| panic!("`{path} {flag}` lacks {long}:\n{help}"));
                assert!(
                    at > client,
                    "`{path} {flag}` lists {long} before its own options:\n{help}"
                );
            }
            let own = help[..client].find("Options:").expect("an Options group");
            assert!(own < client, "{path} {flag}");
            assert_eq!(help.matches(&heading).count(), 1, "{path} {flag}");
        }
    }
}

#[test]
fn short_help_shows_every_option_of_the_command_itself() {
    for (path, options) in [
        (
            "remove",
            &[
                "--signed-by",
                "--kind",
                "--data-id",
                "--name",
                "--require-match",
            ][..],
        ),
        ("restore", &["--signed-by", "--kind"][..]),
        ("emulator", &["--if-running", "--stop", "--background"][..]),
        (
            "append",
            &["--encrypt", "--type-tag", "--private", "--immutable"][..],
        ),
    ] {
        let help = help_of(path, "-h");
        for option in options {
            assert!(help.contains(option), "`{path} -h` lacks {option}:\n{help}");
        }
    }
    let usage = help_of("remove", "-h");
    assert!(
        !usage.contains("<SELECTOR>"),
        "remove's usage shows a selector as a positional:\n{usage}"
    );
}

#[test]
fn status_short_help_says_exit_7_and_its_example_reopens_only_on_it() {
    let help = help_of("status", "-h");
    assert!(help.contains("7 when one differs"), "{help}");
    assert!(!help.contains("status 7 || safe-ad reopen 7"), "{help}");
}

#[test]
fn no_help_promises_a_dry_run_that_says_which_items_would_move() {
    for path in command_paths() {
        let help = help_of(&path, "--help");
        assert!(
            !help.contains("would move"),
            "`{path} --help` promises what --dry-run does not do:\n{help}"
        );
    }
}

#[test]
fn each_commands_long_help_ends_with_the_exit_codes_it_can_return() {
    for path in command_paths() {
        let help = help_of(&path, "--help");
        let Some(rows) = safe_ad::test_support::help::exit_codes_of(&path) else {
            assert_eq!(path, "emulator", "only the emulator has codes of its own");
            // Its own, from the one table of them (`outcome::EMULATOR_EXIT_CODES`).
            let (_, listed) = help
                .rsplit_once("Exit status:\n")
                .unwrap_or_else(|| panic!("`emulator --help` lists no exit codes:\n{help}"));
            let codes: Vec<&str> = listed
                .lines()
                .filter_map(|line| line.strip_prefix("  ")?.split(' ').next())
                .filter(|code| !code.is_empty())
                .collect();
            assert_eq!(codes, ["0", "1", "2", "N"], "{listed}");
            continue;
        };
        let (_, listed) = help
            .rsplit_once("Exit status:\n")
            .unwrap_or_else(|| panic!("`{path} --help` lists no exit codes:\n{help}"));
        let codes: Vec<String> = listed
            .lines()
            .filter_map(|line| line.strip_prefix("  ")?.split(' ').next())
            .filter(|code| !code.is_empty())
            .map(str::to_owned)
            .collect();
        let expected: Vec<String> = rows.iter().map(|row| row.code.to_string()).collect();
        assert_eq!(codes, expected, "`{path} --help`");
        // 7: a copy that differs from the network, which `status` compares, `remove` and `cat`
        // find when a post emptied the copy of what the network holds, and `wait --for
        // in-sync` finds stale.
        let compares = matches!(path.as_str(), "status" | "remove" | "cat" | "wait");
        assert_eq!(codes.contains(&"7".to_owned()), compares, "{path}");
        // Without a token, `auth token` has nothing to print: exit 3, though it asks nothing.
        if path == "auth token" {
            assert!(codes.contains(&"3".to_owned()), "{codes:?}");
            SafeAd::new().args(["auth", "token"]).run().code(3);
        }
    }
}

/// The example lines of a help text: the indented lines of its `Example:`/`Examples:` block,
/// but lines that show output (`7: version 2, ...`); in the top-level help, the first column.
fn examples_in(help: &str) -> Vec<String> {
    let mut examples = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line == "Examples:" || line == "Example:" {
            inside = true;
            continue;
        }
        if !line.starts_with("  ") {
            inside = false;
            continue;
        }
        let text = line.trim_start();
        let shown_output = text
            .split(' ')
            .next()
            .is_some_and(|word| word.ends_with(':'));
        if inside && line.starts_with("  ") && !line.starts_with("   ") && !shown_output {
            // The top-level list has a description column after two or more spaces.
            let command = text.split("   ").next().unwrap_or(text).trim_end();
            examples.push(command.to_owned());
        }
    }
    examples
}

/// What each command's examples run in: a fresh demo emulator, where handle 7 is a copy of the demo data
/// of handle 1 (3 items, 2 deleted, saved), 8 and 9 new data, saved; `$h` is 7 and `$name`,
/// `$data_id` a name and a data id; a `token.txt` and bash-completion's directory exist.
const SETUP: &str = r#"
safe-ad reopen 1 > /dev/null
safe-ad create --put > /dev/null 2>&1
safe-ad create --put > /dev/null 2>&1
h=7
name=c2FmZS1hZCBkZW1vOiBzdGFsZS4uLi4uLi4uLi4uLi4=
data_id=AQAAAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB
printf '%s\n' "$SAFE_LAUNCHER_TOKEN" > token.txt
mkdir -p ~/.local/share/bash-completion/completions
"#;

/// Each command's example lines run in order, in one shell, as a reader pastes them: a line
/// may use what the one before it made (the emulator `--background` started).
#[test]
fn every_example_line_of_help_runs_against_the_emulator() {
    let mut examples: Vec<(String, String)> = Vec::new();
    for path in std::iter::once(String::new()).chain(command_paths()) {
        let help = help_of(&path, "--help");
        let lines = examples_in(&help);
        if !lines.is_empty() {
            examples.push((path.clone(), lines.join("\n")));
        }
    }
    assert!(examples.len() > 20, "{examples:?}");
    let mut failed = Vec::new();
    for (path, line) in examples {
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        // A TMPDIR of its own: the background emulators an example starts, lists and stops are
        // its own, never another test's.
        let tmp = sandbox.path().join("tmp");
        std::fs::create_dir(&tmp).expect("the example's TMPDIR");
        // Marked, so what an example leaves running is found (and killed when it is dropped).
        let leftovers = Leftovers::new();
        let output = leftovers
            .mark(sandbox.shell("sh", &format!("set -e\n{SETUP}\n{line}\n")))
            .current_dir(sandbox.path())
            .env("TMPDIR", &tmp)
            .env("SAFE_LAUNCHER_URL", &emulator.url)
            .env("SAFE_LAUNCHER_TOKEN", TOKEN)
            .case(format!("`safe-ad {path} --help` example: {line}"))
            .run();
        if output.exit_code() != Some(0) {
            failed.push(format!(
                "`safe-ad {path} --help`: {line}\n  exit {:?}: {}",
                output.exit_code(),
                output.stderr().trim_end()
            ));
        }
        // An example a reader pastes leaves nothing running behind (a background emulator on
        // the launcher's port would fail the next run's). A stopped one may still be on its
        // way out when `--stop` returns: it is given a while to go.
        let gone = poll(std::time::Duration::from_secs(10), || {
            leftovers.running().is_empty().then_some(())
        });
        let left = leftovers.running();
        if gone.is_none() && !left.is_empty() {
            failed.push(format!(
                "`safe-ad {path} --help`: {line}\n  left running: {left:?}"
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "examples that fail:\n{}",
        failed.join("\n")
    );
}
