//! What the prompt refuses or only pretends: `--keep-going` is refused, and a `--dry-run` shell
//! sends and writes nothing.

use super::*;

/// `--keep-going` would not act at the prompt (a failed line never ends the session): refused
/// there with exit 2, before any prompt, as an option offered where it does nothing would be.
#[test]
fn keep_going_is_refused_at_the_prompt() {
    if !have("tmux") {
        return;
    }
    let sandbox = Sandbox::new();
    let home = sandbox.path().to_str().expect("a path").to_owned();
    let binary = safe_ad_bin().to_str().expect("a path").to_owned();
    // Its stderr goes to a file (stdin stays the terminal, which makes it a prompt): a program
    // that exits at once may end before tmux has read what it wrote to the pane (seen in CI).
    let said = sandbox.path().join("stderr");
    let said_path = said.to_str().expect("a path").to_owned();
    let screen = Screen::start(
        &[
            "sh",
            "-c",
            "exec \"$0\" shell --keep-going 2>\"$1\"",
            &binary,
            &said_path,
        ],
        &[
            ("HOME", home.as_str()),
            ("SAFE_AD_CONFIG_DIR", home.as_str()),
            ("TERM", "xterm"),
        ],
    );
    assert_eq!(screen.wait_exit(), 2, "{}", screen.whole());
    let said = std::fs::read_to_string(&said).expect("its stderr");
    assert!(said.contains("--keep-going is for scripts"), "{said}");
    let shown = screen.whole();
    assert!(!shown.contains("safe-ad>"), "{shown}");
}

/// A shell given `--dry-run` or `--curl` is a dry run throughout: its lines print what they
/// would send, `.watch` (which would poll) is refused, so is every line that would write, clear
/// or run, nothing reaches the launcher, and no file is written (the history either).
#[test]
fn a_dry_run_shell_sends_and_writes_nothing() {
    if !have("tmux") {
        return;
    }
    for option in ["--dry-run", "--curl"] {
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        let history = sandbox.path().join("history");
        let home = sandbox.path().to_str().expect("a path").to_owned();
        let binary = safe_ad_bin().to_str().expect("a path").to_owned();
        let before = emulator.requests().len();
        let screen = Screen::start(
            &[&binary, option, "shell"],
            &[
                ("HOME", home.as_str()),
                ("SAFE_AD_CONFIG_DIR", home.as_str()),
                ("SAFE_AD_HISTORY", history.to_str().expect("a path")),
                ("SAFE_LAUNCHER_URL", emulator.url.as_str()),
                ("SAFE_LAUNCHER_TOKEN", TOKEN),
                ("TERM", "xterm"),
            ],
        );
        let shell = Shell { screen };
        shell.wait_prompts(1);
        let screen = shell.run("metadata 1");
        assert!(screen.contains("/appendable-data/metadata/1"), "{screen}");
        let screen = shell.run(".watch 1");
        assert!(screen.contains(".watch polls the launcher"), "{screen}");
        assert_eq!(shell.typed(), "safe-ad [2]>", "{screen}");
        // The shell's own lines and those that would write or run: `.handles` lists none (the
        // dry `create` made none), `.keep` has none to keep, and each acting line is refused.
        let screen = shell.run("h = create --put");
        assert_eq!(shell.typed(), "safe-ad>", "{option}:\n{screen}");
        shell.run(".handles");
        assert_eq!(shell.typed(), "safe-ad>", "{}", shell.screen.whole());
        shell.run(".keep 1");
        assert_eq!(shell.typed(), "safe-ad [2]>", "{}", shell.screen.whole());
        shell.run(".unwatch");
        for line in [
            "config set timeout_secs 9".to_owned(),
            format!("emulator export {home}/out.json"),
            "emulator requests --clear".to_owned(),
            format!("emulator -- touch {home}/f"),
            "show 1".to_owned(),
        ] {
            let screen = shell.run(&line);
            assert!(
                screen.contains(&format!("this shell is a dry run ({option})")),
                "{line}:\n{screen}"
            );
            assert_eq!(shell.typed(), "safe-ad [2]>", "{line}:\n{screen}");
        }
        assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
        assert_eq!(emulator.requests().len(), before, "{option}: nothing sent");
        assert!(!history.exists(), "{option}: no history written");
        let written: Vec<_> = std::fs::read_dir(sandbox.path())
            .expect("the sandbox")
            .map(|entry| entry.expect("an entry").file_name())
            .collect();
        assert!(written.is_empty(), "{option}: nothing written: {written:?}");
    }
}
