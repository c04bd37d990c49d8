//! `safe-ad shell` running scripts, against the emulator: a sequence of lines prints and exits
//! exactly as the same commands run one process each (README's tour); the first failure stops
//! the script with its code and says which line; `--keep-going`; variables and quoting; a stop
//! signal during a held request gives the line's handles back and ends the script with 130,
//! with or without `--keep-going`. The harness checks that no token shows in any output.

use crate::harness::emulator::*;
use crate::harness::relay::Relay;
use crate::harness::*;

/// README's tour, its lines on the demo data `$n` (from its `n=` line on) as lines for the
/// shell: `safe-ad ` taken off, the comment dropped, `a && b` as two lines, `"$n"` as the name.
/// Only the commands on `$n` alone: lines that redirect, pipe, or use another variable are the
/// shell's business, not safe-ad's.
fn tour_lines() -> Vec<String> {
    let tour = readme_section("A tour");
    let block = tour
        .split("```sh runnable\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a runnable block in the tour");
    let mut lines = block.lines().skip_while(|line| !line.starts_with("n="));
    let first = lines
        .next()
        .expect("the tour names its data with an n= line");
    let name = first.strip_prefix("n=").expect("n=");
    let name = name.split_whitespace().next().expect("the name");
    let mut commands = Vec::new();
    for line in lines {
        let line = line.split("  #").next().unwrap_or(line).trim();
        if !line.starts_with("safe-ad ") || line.contains(['>', '|', '=']) {
            continue;
        }
        // A command on `$n` alone.
        let uses = |command: &str| {
            let mut variables = command.split_whitespace().filter(|w| w.contains('$'));
            variables.clone().count() > 0 && variables.all(|word| word == "\"$n\"")
        };
        for command in line.split(" && ").filter(|command| uses(command)) {
            let command = command
                .trim()
                .strip_prefix("safe-ad ")
                .expect("a safe-ad command");
            commands.push(command.replace("\"$n\"", name));
        }
    }
    assert!(
        commands.len() >= 6,
        "the tour's block has its commands: {commands:?}"
    );
    commands
}

#[test]
fn a_script_prints_and_exits_as_one_process_a_command_does() {
    let lines = tour_lines();
    let (one, many) = (Emulator::start(&[]), Emulator::start(&[]));
    let sandbox = Sandbox::new();
    let mut stdout = String::new();
    let mut stderr = String::new();
    for line in &lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let output = sandbox.safe_ad().launcher(&many.url).args(&words).run();
        output.success();
        stdout.push_str(output.stdout());
        stderr.push_str(output.stderr());
    }
    let script = lines.join("\n");
    let piped = sandbox
        .safe_ad()
        .launcher(&one.url)
        .arg("shell")
        .stdin(script.clone())
        .run();
    piped.success().stdout_is(&stdout).stderr_is(&stderr);
    // The same lines as -c, separated by `;`, against a third emulator.
    let third = Emulator::start(&[]);
    let inline = sandbox
        .safe_ad()
        .launcher(&third.url)
        .args(["shell", "-c", &lines.join("; ")])
        .run();
    inline.success().stdout_is(&stdout).stderr_is(&stderr);
}

#[test]
fn the_first_failure_stops_the_script_with_its_code_and_line() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let script = "# a comment\n\nmetadata 1\nmetadata 99\nmetadata 1\n";
    let alone = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["metadata", "99"])
        .run();
    alone.code(4);
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .arg("shell")
        .stdin(script)
        .run();
    // Its hint names the commands as typed in the shell.
    let in_the_shell = alone.stderr().replace("`safe-ad ", "`");
    output
        .code(4)
        .stderr_has(&in_the_shell)
        .stderr_has("shell: line 4 failed with exit code 4; the script stops there");
    output.check(output.stdout().lines().count() == 1, "one line's output");
    let metadata = (emulator.requests().iter())
        .filter(|line| line.contains("/appendable-data/metadata/"))
        .count();
    assert_eq!(metadata, 3, "the line alone, then two of the script's");

    // A usage error is 2, as on the command line, and names its command on a line of several.
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args([
            "shell",
            "-c",
            "metadata 1; metadata --no-such 1; metadata 1",
        ])
        .run()
        .code(2)
        .stderr_has("shell: line 1, command 2 failed with exit code 2");
}

#[test]
fn keep_going_runs_every_line_and_exits_with_the_first_failure() {
    let emulator = Emulator::start(&[]);
    let output = Sandbox::new()
        .safe_ad()
        .launcher(&emulator.url)
        .args(["--json", "shell", "--keep-going"])
        .stdin("metadata 99\nmetadata --bad 1\nmetadata 1\n")
        .run();
    output
        .code(4)
        .stderr_has("line 1 failed with exit code 4; running on (--keep-going)")
        .stderr_has("line 2 failed with exit code 2; running on (--keep-going)");
    // The shell's --json reaches every line: the last one's object says ok.
    let objects = output.json_lines();
    assert_eq!(objects.last().expect("objects")["ok"], true, "{objects:?}");
}

#[test]
fn variables_keep_what_a_command_printed() {
    let emulator = Emulator::start(&[]);
    let before = emulator.handles_held();
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args([
            "shell",
            "-c",
            "h = create --put\nmetadata $h \"$h\" ${h}\ndrop \"${h}\"",
        ])
        .run();
    output.success();
    output.check(
        output.stdout().lines().count() == 4,
        "three metadata and a drop",
    );
    assert_eq!(
        emulator.handles_held(),
        before,
        "the made handle was dropped"
    );

    // Single quotes keep the dollar: `$h` is no handle (2). An unknown variable is named (2).
    let quoted = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["shell", "-c", "h = metadata 1\nmetadata '$h'"])
        .run();
    quoted.code(2).stderr_has("$h");
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["shell", "-c", "metadata 1\nmetadata $nope"])
        .run()
        .code(2)
        .stderr_has("shell: line 2: $nope is not set");
}

#[test]
fn quotes_split_words_as_sh_does_and_an_unbalanced_one_runs_nothing() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let id = "AQAAAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB";
    let alone = sandbox.safe_ad().args(["decode", id]).run();
    alone.success();
    let script = format!("'decode' \"{id}\"\nde\\code {id}; exit\nmetadata 99");
    let output = sandbox.safe_ad().args(["shell", "-c", &script]).run();
    output
        .success()
        .stdout_is(&format!("{}{}", alone.stdout(), alone.stdout()));

    let before = emulator.requests().len();
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["shell", "-c", "metadata 1\nmetadata 'one\nmetadata 1"])
        .run()
        .code(2)
        .stderr_has("shell: line 2: unbalanced single quote");
    assert_eq!(emulator.requests().len(), before, "nothing was sent");
    sandbox
        .safe_ad()
        .args(["shell", "-c", "exit 3"])
        .run()
        .code(3);
}

#[test]
fn a_stop_signal_during_a_held_request_gives_handles_back_and_ends_the_script() {
    for (keep_going, signal) in [
        (false, Running::interrupt as fn(&Running)),
        (true, Running::terminate),
    ] {
        let emulator = Emulator::start(&[]);
        let before = emulator.handles_held();
        let name = emulator.demo_name(1);
        // The second metadata request is the one on the fresh copy that `metadata NAME` takes.
        let relay = Relay::holding(emulator.addr(), 1, |line| {
            line.starts_with("GET /appendable-data/metadata/")
        });
        let mut args = vec!["shell"];
        if keep_going {
            args.push("--keep-going");
        }
        let script = format!("metadata 1\nmetadata {name}\nmetadata 1\n");
        let output = relay.stop_while_held(
            Sandbox::new()
                .safe_ad()
                .args(&args)
                .stdin(script)
                .case(keep_going),
            signal,
        );
        output
            .code(130)
            .stderr_has("shell: line 2 failed with exit code 130; the script stops there");
        let metadata = (relay.exchanges().iter())
            .filter(|(line, _)| line.starts_with("GET /appendable-data/metadata/"))
            .count();
        assert_eq!(metadata, 2, "line 3 never ran ({keep_going})");
        assert_eq!(
            emulator.handles_held(),
            before,
            "the fresh copy was given back"
        );
    }
}

/// `--token-file` on a pipe gives the token once, and every line (and the give-back at a
/// session's end) reads it again: refused before any line runs, naming the way out.
#[test]
fn a_token_file_that_is_a_pipe_is_refused_before_any_line_runs() {
    let emulator = Emulator::start(&[]);
    let before = emulator.requests().len();
    SafeAd::new()
        .launcher(&emulator.url)
        .env_remove("SAFE_LAUNCHER_TOKEN")
        .args(["shell", "--token-file", "-", "-c", "metadata 1; metadata 2"])
        .stdin(TOKEN)
        .run()
        .code(2)
        .stderr_has("shell: --token-file - is not a regular file")
        .stderr_has("SAFE_LAUNCHER_TOKEN");
    assert_eq!(emulator.requests().len(), before, "nothing sent");
}

/// `emulator -- CMD` passes CMD's status through; a CMD that exits 0 is a line that succeeded:
/// the script goes on after it, and under --keep-going a later failure's code is the script's
/// (a 0 taken as the first failure once stopped the script there, and made a later 4 a 0).
#[test]
fn an_emulator_line_whose_command_succeeds_lets_the_script_go_on() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let metadata = || {
        (emulator.requests().iter())
            .filter(|line| line.contains("/appendable-data/metadata/"))
            .count()
    };
    let script = "emulator --listen 127.0.0.1:0 -- true\nmetadata 1\n";
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["shell", "-c", script])
        .run()
        .success()
        .stderr_lacks("failed with exit code");
    assert_eq!(metadata(), 1, "the line after the emulator's ran");

    let script = "emulator --listen 127.0.0.1:0 -- true\nmetadata 99\nmetadata 1\n";
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["shell", "--keep-going", "-c", script])
        .run()
        .code(4)
        .stderr_lacks("line 1 failed")
        .stderr_has("line 2 failed with exit code 4; running on (--keep-going)");
    assert_eq!(metadata(), 3, "every line after the emulator's ran");
}

/// Every file under `dir` (its path from `dir`) with its bytes; a directory as `None`.
fn tree(dir: &std::path::Path) -> std::collections::BTreeMap<String, Option<Vec<u8>>> {
    let mut files = std::collections::BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at).expect("read_dir") {
            let path = entry.expect("entry").path();
            let name = path
                .strip_prefix(dir)
                .expect("under dir")
                .display()
                .to_string();
            if path.is_dir() && !path.is_symlink() {
                files.insert(name, None);
                todo.push(path);
            } else {
                files.insert(name, Some(std::fs::read(&path).unwrap_or_default()));
            }
        }
    }
    files
}

/// What a dry-run shell does with a line.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Dry {
    /// Runs it as its dry run: exit 0.
    AsDryRun,
    /// Runs it as it is, printing being all it does (it may fail: `emulator env --pid 1`).
    AsItIs,
    /// Refuses it as having no dry run (exit 2).
    Refused,
    /// Refuses it for another reason (exit 2): no such command in a script.
    NoCommand,
}

/// The lines a dry-run shell is given: each command of the spec registry with its sample (a new
/// command is in it by being registered), and the kinds that write, run or clear rather than
/// send; with what a shell given --curl (`curl`) or --dry-run does with each.
fn dry_shell_lines(curl: bool) -> Vec<(String, Dry)> {
    use ::safe_ad::test_support::cli::{spec_of, Opt, Reaches, COMMANDS};
    let opt = if curl { Opt::Curl } else { Opt::DryRun };
    let mut lines: Vec<(String, Dry)> = (COMMANDS.iter())
        .filter(|spec| spec.reaches != Reaches::Group)
        .map(|spec| {
            let line = (spec.path.split(' '))
                .chain(spec.sample.iter().copied())
                .map(|word| format!("'{word}'"))
                .collect::<Vec<_>>()
                .join(" ");
            let dry = match (spec.options.contains(opt), spec.inert) {
                (true, _) => Dry::AsDryRun,
                (false, true) => Dry::AsItIs,
                (false, false) => Dry::Refused,
            };
            assert_eq!(spec.runs_in_dry_shell(curl), dry != Dry::Refused);
            assert!(!(spec.inert && spec.sends()), "{} sends", spec.path);
            (line, dry)
        })
        .collect();
    let extra = [
        ("emulator --listen 127.0.0.1:0 -- touch f", Dry::Refused),
        ("emulator -- touch f", Dry::Refused),
        ("emulator --stop", Dry::Refused),
        ("config set launcher_url http://127.0.0.1:9", Dry::Refused),
        ("config unset launcher_url", Dry::Refused),
        ("emulator export out.json", Dry::Refused),
        ("emulator requests --clear", Dry::Refused),
        ("auth login", Dry::Refused),
        ("auth logout", Dry::Refused),
        ("metadata 1 --json", Dry::Refused),
        ("show 1", Dry::Refused),
        ("h = create --put", Dry::AsDryRun),
        ("clear-data --save post 1", Dry::AsDryRun),
        ("shell -c 'config set timeout_secs 9'", Dry::Refused),
        (".watch 1", Dry::NoCommand),
        (".handles", Dry::NoCommand),
        (".keep 1", Dry::NoCommand),
    ];
    lines.extend(extra.iter().map(|(line, dry)| (line.to_string(), *dry)));
    if let Some(spec) = spec_of("capture") {
        // capture takes --dry-run, not --curl.
        let dry = if curl { Dry::Refused } else { Dry::AsDryRun };
        lines.push((format!("capture -o cap.json {}", spec.sample[0]), dry));
    }
    lines
}
/// A shell given --dry-run or --curl sends nothing and writes nothing through any line: every
/// command of the registry and every line kind that writes a file (`config set`, `emulator
/// export`, `capture -o`), clears (`emulator requests --clear`) or runs a command (`emulator --
/// touch f`) runs as its dry run or is refused (exit 2, saying why). Checked at the emulator
/// (its log and its journal, `/_emulator/requests`) and the file system (the whole sandbox:
/// HOME, the config file, the directory the lines run in).
#[test]
fn a_dry_run_shell_sends_and_writes_nothing_on_any_line() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    sandbox.write_config("{\"timeout_secs\": 20}\n");
    let work = sandbox.path().join("work");
    std::fs::create_dir(&work).expect("work dir");
    // A journal with a record in it, which `emulator requests --clear` would empty.
    let sent = emulator.http("GET", "/appendable-data/metadata/1", Some(TOKEN), None);
    assert_eq!(sent.status, 200, "{}", sent.body);
    let journal = || {
        emulator
            .http("GET", "/_emulator/requests", Some(TOKEN), None)
            .body
    };
    for curl in [false, true] {
        let option = if curl { "--curl" } else { "--dry-run" };
        for (line, dry) in dry_shell_lines(curl) {
            let requests = emulator.requests();
            let (records, files) = (journal(), tree(sandbox.path()));
            assert!(!records.is_empty(), "the journal holds a record");
            let mut shell = sandbox
                .safe_ad()
                .launcher(&emulator.url)
                .current_dir(&work)
                .args(["shell", option, "-c", &line])
                .case(format!("{option}: {line}"));
            // Printing the token is what it does.
            if line == "'auth' 'token'" {
                shell = shell.token_may_show();
            }
            let output = shell.run();
            let refusal = format!("this shell is a dry run ({option})");
            match dry {
                Dry::AsDryRun => {
                    output.success();
                }
                Dry::AsItIs => {
                    output
                        .code(output.exit_code().unwrap_or(-1))
                        .stderr_lacks(&refusal);
                }
                Dry::Refused => {
                    output.code(2).stderr_has(&refusal);
                }
                Dry::NoCommand => {
                    output.code(2);
                }
            }
            assert_eq!(journal(), records, "{option}: `{line}` left the journal");
            // The log holds the test's own two reads of the journal, and nothing else new.
            let mut expected = requests;
            expected.extend(std::iter::repeat_n(
                "GET /_emulator/requests 200".to_owned(),
                2,
            ));
            assert_eq!(
                emulator.requests(),
                expected,
                "{option}: `{line}` sent nothing"
            );
            assert!(
                tree(sandbox.path()) == files,
                "{option}: `{line}` wrote nothing"
            );
        }
    }
}

/// A script on a pipe is read a line at a time: each line runs as it comes, before the next is
/// written (the whole of standard input was read first, so line 1 waited for the pipe's end),
/// and a stop signal while the shell waits for the next line ends it with 130.
#[test]
fn a_script_on_a_pipe_runs_each_line_as_it_comes() {
    let emulator = Emulator::start(&[]);
    let (reader, mut writer) = std::io::pipe().expect("a pipe");
    let running = Sandbox::new()
        .safe_ad()
        .launcher(&emulator.url)
        .arg("shell")
        .stdin_from(reader)
        .spawn();
    let metadata = || {
        (emulator.requests().iter())
            .filter(|line| line.contains("/appendable-data/metadata/"))
            .count()
    };
    use std::io::Write;
    writer.write_all(b"metadata 1\n").expect("line 1 written");
    wait_until(
        "line 1's request, before line 2 is written",
        DEADLINE,
        || (metadata() == 1).then_some(()),
    );
    // The pipe stays open: the shell waits for line 2.
    running.terminate();
    running.wait().code(130).stdout_has("1: version 1");
    drop(writer);
    assert_eq!(metadata(), 1, "nothing more was sent");
}

/// A script's line past the bound (1 MiB) is refused with exit 2, naming it: from a FILE before
/// any line runs, from standard input where it comes (the lines before it ran, none after).
/// Before, a line of a million words took the shell to 686 MB.
#[test]
fn a_line_past_the_bound_is_refused() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let long = format!("metadata{}\n", " 1".repeat(600_000));
    let script = format!("metadata 1\n{long}metadata 1\n");
    let file = sandbox.file("script", &script);
    let metadata = || {
        (emulator.requests().iter())
            .filter(|line| line.contains("/appendable-data/metadata/"))
            .count()
    };
    let said = "shell: line 2: longer than the 1048576 bytes a line of a script may hold";
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .arg("shell")
        .arg(&file)
        .run()
        .code(2)
        .stderr_has(said);
    assert_eq!(metadata(), 0, "a FILE is checked whole first: nothing ran");
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .arg("shell")
        .stdin(script)
        .run()
        .code(2)
        .stdout_has("1: version 1")
        .stderr_has(said);
    assert_eq!(metadata(), 1, "line 1 ran, line 3 did not");
    // A command of lines (a quote across them) is bounded too.
    let quoted = format!("decode '{}'\n", "y\n".repeat(600_000));
    sandbox
        .safe_ad()
        .arg("shell")
        .stdin(quoted)
        .run()
        .code(2)
        .stderr_has("shell: line 1: the command that begins here is longer than the 1048576 bytes");
}

/// A long script is read in bounded memory: 300,000 lines checked whole before line 1 runs took
/// the shell to 310 MB; now the peak (read while line 1's request is held) stays small.
#[test]
fn a_long_script_is_read_in_bounded_memory() {
    let launcher = RawLauncher::start(|conn| {
        while conn.request().is_some() {
            conn.hold();
        }
    });
    let sandbox = Sandbox::new();
    let mut script = String::from("metadata 1\n");
    for n in 0..300_000 {
        script.push_str(&format!("metadata {n} \"name {n}\" $x\n"));
    }
    let file = sandbox.file("script", &script);
    let running = sandbox
        .safe_ad()
        .launcher(&launcher.url)
        .args(["shell", "--timeout", "600"])
        .arg(&file)
        .spawn();
    launcher.wait_for_requests(1);
    let peak = peak_rss_kib(running.pid()).expect("the shell's peak memory");
    running.terminate();
    running.wait().code(130);
    assert!(
        peak < 64 * 1024,
        "peak {peak} KiB for a 300,000-line script"
    );
}

/// The prompt's own commands in a script are refused with what they are and where they work
/// (issue 52: clap's "unrecognized subcommand '.handles'"), and an unknown dot word names the
/// prompt's; the lines before ran, nothing after is sent.
#[test]
fn the_prompts_own_commands_in_a_script_say_where_they_work() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let run = |script: &str| {
        sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .arg("shell")
            .stdin(script.to_owned())
            .run()
    };
    let sent = emulator.requests().len();
    run(".handles\nmetadata 1\n")
        .code(2)
        .stderr_has("`.handles` (list the handles this session made) is a command of the interactive prompt, and this is a script")
        .stderr_has("shell: line 1 failed")
        .stderr_lacks("unrecognized subcommand");
    assert_eq!(emulator.requests().len(), sent, "a request was sent");
    run(".foo\n")
        .code(2)
        .stderr_has("there is no command `.foo`")
        .stderr_has(".handles, .keep, .watch, .unwatch");
}

/// Inside a shell, a hint or suggestion names a command as it is typed there (issue 52: hints
/// said `safe-ad open` and `` `safe-ad --help` lists the commands``): the same failure outside
/// names it with `safe-ad`, and so does, inside, a command only a system shell runs. clap's
/// usage line too; a line typed with `safe-ad` before it is refused, saying how to type it.
#[test]
fn a_hint_in_a_shell_names_the_command_as_typed_there() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let run = |args: &[&str]| sandbox.safe_ad().launcher(&emulator.url).args(args).run();
    // The demo's handle 2 is stale: the launcher refuses its post (-25).
    run(&["post", "2"])
        .code(4)
        .stderr_has("get a fresh handle with `safe-ad reopen 2`");
    run(&["shell", "-c", "post 2"])
        .code(4)
        .stderr_has("get a fresh handle with `reopen 2`")
        .stderr_lacks("`safe-ad ");
    run(&["clear-data", "99"])
        .code(4)
        .stderr_has("get one with `safe-ad open` (with the data's name) or `safe-ad create`");
    run(&["shell", "-c", "clear-data 99"])
        .code(4)
        .stderr_has("get one with `open` (with the data's name) or `create`")
        .stderr_lacks("`safe-ad ");
    // A note's suggestion, not in backticks.
    run(&["shell", "-c", "clear-data 1"])
        .success()
        .stderr_has("save it to the network with: post 1 (or use --save post)");
    // clap's refusals: a mistyped command and a missing argument.
    run(&["shell", "-c", "clear-dat 1"])
        .code(2)
        .stderr_has("did you mean `clear-data`?")
        .stderr_has("`help` lists the commands")
        .stderr_lacks("safe-ad --help");
    run(&["shell", "-c", "metadata"])
        .code(2)
        .stderr_has("\nUsage: metadata <HANDLE>...\n");
    // A command of the system shell keeps its `safe-ad`, and says where it runs.
    let link = sandbox.path().join("link");
    std::os::unix::fs::symlink(sandbox.path().join("fixture.json"), &link).expect("a link");
    let capture = format!("capture {} -o {}", emulator.demo_name(1), path_arg(&link));
    run(&["shell", "-c", &capture]).code(2).stderr_has(
        "hint: `safe-ad capture NAME -o \"$(readlink -f FILE)\"` (in your system shell",
    );
    // `safe-ad` typed before a line, as on a command line: nothing runs, and the hint says how.
    let sent = emulator.requests().len();
    run(&["shell", "-c", "safe-ad metadata 1"])
        .code(2)
        .stderr_has("a line of the shell is a command of safe-ad's without `safe-ad` before it")
        .stderr_has("hint: type `metadata 1`");
    assert_eq!(emulator.requests().len(), sent, "a request was sent");
}

/// A variable whose handle the session dropped is said to be so (issue 52: the launcher's -1515
/// and "another kind of handle, dropped, evicted..."), naming the line that dropped it, and
/// nothing is sent; a variable set again holds its new handle.
#[test]
fn a_variable_whose_handle_the_session_dropped_is_said_to_be_dropped() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let handle = emulator.next_handle();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["shell", "-c", "h = create --put\ndrop $h\nmetadata $h\n"])
        .run();
    output
        .code(2)
        .stderr_has(&format!(
            "shell: line 3: `$h` held handle {handle}, which this session dropped with `drop $h` (line 2); nothing was sent"
        ))
        .stderr_has("hint: if the data was saved, `h = open ")
        .stderr_lacks("errorCode");
    let metadata = format!("/appendable-data/metadata/{handle} ");
    let sent = emulator.requests();
    assert!(
        !sent.iter().any(|line| line.contains(&metadata)),
        "metadata of the dropped handle was sent: {sent:?}"
    );
    // `reopen --drop $h` drops it too; `h` set again by a line that made a handle holds that.
    let name = emulator.demo_name(1);
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args([
            "shell",
            "-c",
            &format!(
                "h = open {name}\nk = reopen --drop $h\nshow $h\nh = open {name}\nmetadata $h $k"
            ),
        ])
        .run();
    output
        .code(2)
        .stderr_has("which this session dropped with `reopen --drop $h` (line 2)")
        .stderr_has(&format!("hint: if the data was saved, `h = open {name}`"));
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args([
            "shell",
            "-c",
            &format!("h = open {name}\ndrop $h\nh = open {name}\nmetadata $h"),
        ])
        .run()
        .success();
}
