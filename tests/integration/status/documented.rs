//! `status` as documented: docs/handles.md's "Local copy and network" example prints what the
//! page shows, and a bad standard-input line is said as `show` says it.

use super::*;

/// docs/handles.md's "Local copy and network": its runnable block, and the stdout it shows after it.
fn handles_md_example() -> (String, String) {
    let section = doc_section("docs/handles.md", "Local copy and network");
    let (_, rest) = section
        .split_once("```sh runnable\n")
        .expect("the section has a runnable block");
    let (script, rest) = rest.split_once("```\n").expect("the block ends");
    let (_, rest) = rest
        .split_once("```\n")
        .expect("the section shows the output");
    let (shown, _) = rest.split_once("```\n").expect("the output block ends");
    (script.to_owned(), shown.to_owned())
}

/// The example, run on a fresh emulator as the docs say, prints exactly what they show, handle
/// numbers and data ids included: a reader who runs it sees the same, and a change to how many
/// handles a command takes shows here (paste what it prints into docs/handles.md).
#[test]
fn the_local_copy_example_prints_what_docs_handles_md_shows() {
    let (script, shown) = handles_md_example();
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let output = sandbox
        .shell("sh", &format!("set -e\n{script}"))
        .current_dir(sandbox.path())
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .env("SAFE_LAUNCHER_TOKEN", TOKEN)
        .run();
    output.success().check(
        output.stdout() == shown,
        format!(
            "docs/handles.md's \"Local copy and network\" shows other lines than the run prints \
             (its stdout below); it shows:\n{shown}"
        ),
    );
}

/// `show` and `status` walk their input with one loop: a line of standard input that is not a
/// handle is said by both as the same JSON object (as a batch says one), but for the command
/// its description names, and the handles around it are still read.
#[test]
fn show_and_status_say_a_bad_stdin_line_with_the_same_object() {
    let sandbox = Sandbox::new();
    let (emulator, _log) = emulator(&sandbox, &[]);
    let bad_line = |command: &str| {
        let output = sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .args([command, "--json", "-"])
            .stdin("1\nnot-a-handle\n1\n")
            .run();
        let lines = output.code(2).json_lines();
        output.check(lines.len() == 3, "not three JSON objects");
        assert_eq!(lines[0]["handle"], 1, "{command}: the handle before");
        assert_eq!(lines[2]["handle"], 1, "{command}: the handle after");
        let mut bad = lines[1].clone();
        let said = bad["error"]["description"].as_str().expect("a description");
        let said = said.replace(&format!(" for {command}:"), " for COMMAND:");
        bad["error"]["description"] = Value::String(said);
        assert_eq!(bad["command"], command);
        bad["command"] = Value::String("COMMAND".into());
        bad
    };
    let show = bad_line("show");
    assert_eq!(show["ok"], false);
    assert_eq!(show["exit_code"], 2);
    assert_eq!(show, bad_line("status"));
}
