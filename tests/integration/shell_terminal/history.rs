//! The prompt's history and help: the history file holds no line that carries a token, one that
//! cannot be written is said (the session ends with 1), and help and history search inside.

use super::*;

#[test]
fn the_history_file_holds_no_line_that_carries_a_token() {
    if !have("tmux") {
        return;
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    // No SAFE_AD_HISTORY, no XDG_DATA_HOME: the file is in HOME's data directory.
    let shell = Shell::start(&sandbox, &emulator.url, &[]);
    let screen = shell.run("auth token");
    assert!(screen.contains(TOKEN), "{screen}");
    shell.run("metadata 1 --token x");
    shell.run(&format!("metadata 1 # {TOKEN}"));
    shell.run("metadata 1");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    let path = sandbox.path().join(".local/share/safe-ad/shell_history");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines, ["metadata 1"], "{text}");
    assert!(!text.contains("auth token"), "{text}");
    assert!(!text.contains("--token"), "{text}");
    assert_no_token(&text);
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&path).expect("stat").permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{}: mode {mode:o}", path.display());
    // The next session starts with it: Up brings back the line kept.
    let again = Shell::start(&sandbox, &emulator.url, &[]);
    again.screen.press(&["Up"]);
    again.wait_typed("safe-ad> metadata 1");
    again.screen.press(&["Up"]);
    again.wait_typed("safe-ad> metadata 1");
    again.screen.press(&["C-u"]);
    again.wait_typed("safe-ad>");
    assert_eq!(again.leave(), 0);
}

/// A history file that cannot be written is said once, the session goes on, and it does not
/// end with 0.
#[test]
fn a_history_file_that_cannot_be_written_is_said_and_the_session_ends_with_1() {
    if !have("tmux") {
        return;
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let directory = sandbox.path().join("a-directory");
    std::fs::create_dir(&directory).expect("a directory");
    let shell = Shell::start(
        &sandbox,
        &emulator.url,
        &[("SAFE_AD_HISTORY", directory.to_str().expect("a path"))],
    );
    let screen = shell.run("metadata 1");
    assert_eq!(lines_starting(&screen, "1: version"), 1, "{screen}");
    assert_eq!(shell.leave(), 1, "{}", shell.screen.whole());
    let screen = shell.screen.whole();
    assert_eq!(
        screen.matches("safe-ad: warning: shell history").count(),
        1,
        "{screen}"
    );
    assert!(
        screen.contains("the session's lines were not written to the history file"),
        "{screen}"
    );
}

/// `help` inside fits one classic screen (80 columns, 24 rows with the prompt after it), the
/// shell's own commands first and then safe-ad's (issue 52: it was safe-ad's whole help, about
/// 150 lines, the shell's own last); `help COMMAND` is the command's help, as on the command
/// line; Ctrl-R finds an earlier line in the history.
#[test]
fn help_inside_and_history_search() {
    let Some((_emulator, sandbox, shell)) = session() else {
        return;
    };
    let screen = shell.run("help");
    let after: Vec<&str> = (screen.lines())
        .skip_while(|line| !line.starts_with("safe-ad> help"))
        .skip(1)
        .collect();
    let help: Vec<&str> = after
        .iter()
        .take_while(|line| !is_prompt(line))
        .copied()
        .collect();
    assert!(
        help.len() < after.len(),
        "a prompt after the help:\n{screen}"
    );
    assert!(help.len() <= 23, "{} lines:\n{screen}", help.len());
    let wide = help.iter().find(|line| line.chars().count() > 80);
    assert!(
        wide.is_none(),
        "{wide:?} is wider than 80 columns:\n{screen}"
    );
    let at = |word: &str| {
        (help
            .iter()
            .position(|line| line.split_whitespace().any(|w| w == word)))
        .unwrap_or_else(|| panic!("{word} in the help:\n{screen}"))
    };
    for own in [".handles", ".keep", ".watch", ".unwatch", "exit"] {
        assert!(
            at(own) < at("clear-data"),
            "{own} before the commands:\n{screen}"
        );
    }
    assert!(at("clear-deleted-data") < at("`man"), "{screen}");
    // What `safe-ad metadata --help`'s first line is on the command line, the shell prints.
    let output = sandbox.safe_ad().args(["help", "metadata"]).run();
    let first = (output.code(0).stdout().lines().next())
        .expect("a line")
        .to_owned();
    let screen = shell.run("help metadata");
    assert!(screen.contains(&first), "{first:?} in:\n{screen}");
    shell.run("metadata 2");
    shell.run("metadata 1");
    shell.screen.press(&["C-r"]);
    shell.screen.type_text("data 2");
    shell.screen.wait_for("metadata 2");
    shell.screen.press(&["Enter"]);
    let screen = shell.screen.wait_for_count("2: version", 2);
    assert_eq!(lines_starting(&screen, "1: version"), 1, "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
}
