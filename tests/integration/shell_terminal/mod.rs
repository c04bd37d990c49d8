//! The interactive `safe-ad shell` on a terminal (tmux), against the emulator, typed into as a
//! person would: each line waits for the prompt before it is typed, and every check waits for
//! text on the screen, a request held, or the shell's exit. Lines run and the prompt carries a
//! failed line's code; arrow keys bring back the history; Tab completes commands, option values
//! and variables; Ctrl-C during a held request comes back to the prompt with what the line took
//! given back; a line typed ahead while one runs runs next; Ctrl-D, SIGTERM and SIGHUP (at the
//! prompt or while a line runs) give the session's handles back (`.keep` keeps one); the
//! history file holds no line that carries a token, and is 0600.

use std::collections::HashMap;

use crate::harness::emulator::*;
use crate::harness::relay::Relay;
use crate::harness::screen::Screen;
use crate::harness::*;

mod handles;
mod history;
mod refused;
mod stop;
mod watch;

/// The lines of `screen` that are prompts (with what was typed after them): `safe-ad> ...` or
/// `safe-ad [N]> ...`, each with the profile in use after `safe-ad` where there is one
/// (`safe-ad (emu) [2]> ...`).
fn prompts(screen: &str) -> usize {
    screen.lines().filter(|line| is_prompt(line)).count()
}

/// Whether a line of the screen is a prompt (with what was typed after it).
fn is_prompt(line: &str) -> bool {
    // The profile's name, if one is shown, is taken off first.
    let profile = line
        .strip_prefix("safe-ad (")
        .and_then(|rest| rest.split_once(')'))
        .map(|(_, rest)| format!("safe-ad{rest}"));
    let line = profile.as_deref().unwrap_or(line);
    line == "safe-ad>"
        || line.starts_with("safe-ad> ")
        || (line.starts_with("safe-ad [") && line.contains("]> "))
}

/// How many lines of `screen` start with `start`: a command's output counted.
fn lines_starting(screen: &str, start: &str) -> usize {
    screen
        .lines()
        .filter(|line| line.starts_with(start))
        .count()
}

/// `safe-ad shell` in tmux, pointed at `url`, with HOME and the config dir in `sandbox` and
/// `extra` added to its environment.
struct Shell {
    screen: Screen,
}

impl Shell {
    fn start(sandbox: &Sandbox, url: &str, extra: &[(&str, &str)]) -> Shell {
        let home = sandbox.path().to_str().expect("a path").to_owned();
        let binary = safe_ad_bin().to_str().expect("a path").to_owned();
        let mut env: HashMap<&str, &str> = HashMap::from([
            ("HOME", home.as_str()),
            ("SAFE_AD_CONFIG_DIR", home.as_str()),
            ("SAFE_LAUNCHER_URL", url),
            ("SAFE_LAUNCHER_TOKEN", TOKEN),
            ("TERM", "xterm"),
        ]);
        env.extend(extra.iter().copied());
        let env: Vec<(&str, &str)> = env.into_iter().collect();
        let screen = Screen::start(&[&binary, "shell"], &env);
        screen.wait_for("safe-ad: shell ");
        let shell = Shell { screen };
        shell.wait_prompts(1);
        shell
    }

    /// [`Shell::start`] with its history in `sandbox`'s `history` file.
    fn with_history(sandbox: &Sandbox, url: &str) -> Shell {
        let history = sandbox.path().join("history");
        let history = history.to_str().expect("a path");
        Shell::start(sandbox, url, &[("SAFE_AD_HISTORY", history)])
    }

    /// Waits until `count` prompts are on the screen; the screen then.
    #[track_caller]
    fn wait_prompts(&self, count: usize) -> String {
        wait_until(&format!("{count} prompts on the screen"), DEADLINE, || {
            Some(self.screen.whole()).filter(|s| prompts(s) >= count)
        })
    }

    /// Types `line` at the prompt, presses Enter, and waits for the next prompt; the screen then.
    #[track_caller]
    fn run(&self, line: &str) -> String {
        let before = prompts(&self.screen.whole());
        self.screen.type_text(line);
        self.screen.press(&["Enter"]);
        self.wait_prompts(before + 1)
    }

    /// The line the cursor is on, trailing spaces taken off: the prompt and what is typed.
    fn typed(&self) -> String {
        self.screen.cursor_line().trim_end().to_owned()
    }

    /// Waits until the cursor's line reads `line` (trailing spaces aside).
    #[track_caller]
    fn wait_typed(&self, line: &str) {
        poll(DEADLINE, || (self.typed() == line).then_some(())).unwrap_or_else(|| {
            panic!(
                "the prompt's line never read {line:?}; it reads {:?}:\n{}",
                self.typed(),
                self.screen.whole()
            )
        });
    }

    /// Ctrl-D at the prompt, and the shell's exit code once it has exited.
    #[track_caller]
    fn leave(&self) -> i32 {
        self.screen.press(&["C-d"]);
        self.screen.wait_exit()
    }
}

/// A fresh emulator, a sandbox for HOME, and the shell at its prompt pointed at the emulator with
/// its history in the sandbox; `None` where tmux is missing (which fails under CI).
fn session() -> Option<(Emulator, Sandbox, Shell)> {
    if !have("tmux") {
        return None;
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let shell = Shell::with_history(&sandbox, &emulator.url);
    Some((emulator, sandbox, shell))
}

/// The handle a `created handle N, ...` line on the screen names (the last such line).
fn created_handle(screen: &str) -> u64 {
    let line = screen
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("safe-ad: created handle "))
        .unwrap_or_else(|| panic!("no `created handle` on the screen:\n{screen}"));
    let number = line.split(',').next().expect("a number");
    number.parse().expect("a handle number")
}

#[test]
fn the_prompt_names_the_profile_and_dot_profile_switches_it() {
    if !have("tmux") {
        return;
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    // The shell's config directory is the sandbox's HOME (`Shell::start`).
    std::fs::write(
        sandbox.path().join("config.json"),
        r#"{"profiles": {"emu": {}, "real": {"read_only": true}}}"#,
    )
    .expect("config file");
    let shell = Shell::start(&sandbox, &emulator.url, &[("SAFE_AD_PROFILE", "emu")]);
    assert_eq!(shell.typed(), "safe-ad (emu)>");
    let screen = shell.run("metadata 1");
    assert_eq!(lines_starting(&screen, "1: version 1"), 1, "{screen}");
    shell.run(".profile real");
    assert_eq!(shell.typed(), "safe-ad (real)>");
    let screen = shell.run(".profile");
    assert!(screen.lines().any(|line| line == "real"), "{screen}");
    // The lines after it use the profile: a change is refused, nothing sent.
    let screen = shell.run("put 1");
    assert!(
        screen.contains("profile `real` is read-only: `put` changes"),
        "{screen}"
    );
    assert_eq!(shell.typed(), "safe-ad (real) [2]>", "{screen}");
    // A profile the file lacks is refused, and the session keeps its own.
    let screen = shell.run(".profile nope");
    assert!(screen.contains("no profile `nope`"), "{screen}");
    assert_eq!(shell.typed(), "safe-ad (real) [2]>", "{screen}");
    assert!(
        emulator
            .requests()
            .iter()
            .all(|line| !line.starts_with("PUT ")),
        "a PUT was sent"
    );
    assert_eq!(shell.leave(), 0);
}

#[test]
fn lines_run_and_the_prompt_shows_a_failed_lines_code() {
    if !have("tmux") {
        return;
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    // What `metadata 999` exits with on the command line: the prompt must show the same.
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["metadata", "999"])
        .run()
        .code(4);
    let shell = Shell::with_history(&sandbox, &emulator.url);
    assert_eq!(shell.typed(), "safe-ad>");
    let screen = shell.run("metadata 1");
    assert_eq!(
        lines_starting(&screen, "1: version 1, data 3"),
        1,
        "{screen}"
    );
    assert_eq!(shell.typed(), "safe-ad>", "{screen}");
    let screen = shell.run("metadata 999");
    assert!(screen.contains("safe-ad: error: metadata 999:"), "{screen}");
    assert_eq!(shell.typed(), "safe-ad [4]>", "{screen}");
    // The next line that succeeds takes the code off.
    let screen = shell.run("metadata 1");
    assert_eq!(
        lines_starting(&screen, "1: version 1, data 3"),
        2,
        "{screen}"
    );
    assert_eq!(shell.typed(), "safe-ad>", "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
}

#[test]
fn up_arrow_brings_back_an_earlier_line_to_run_again() {
    let Some((_emulator, _sandbox, shell)) = session() else {
        return;
    };
    shell.run("metadata 1");
    let screen = shell.run("metadata 2");
    assert_eq!(lines_starting(&screen, "1: version"), 1, "{screen}");
    assert_eq!(lines_starting(&screen, "2: version"), 1, "{screen}");
    // Up once is `metadata 2`, twice `metadata 1`.
    shell.screen.press(&["Up", "Up"]);
    shell.wait_typed("safe-ad> metadata 1");
    let before = prompts(&shell.screen.whole());
    shell.screen.press(&["Enter"]);
    let screen = shell.wait_prompts(before + 1);
    assert_eq!(lines_starting(&screen, "1: version"), 2, "{screen}");
    assert_eq!(lines_starting(&screen, "2: version"), 1, "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
}

#[test]
fn tab_completes_commands_option_values_and_variables() {
    let Some((_emulator, _sandbox, shell)) = session() else {
        return;
    };
    shell.screen.type_text("metada");
    shell.wait_typed("safe-ad> metada");
    shell.screen.press(&["Tab"]);
    shell.wait_typed("safe-ad> metadata");
    // Ctrl-U empties the line: nothing typed is run.
    shell.screen.press(&["C-u"]);
    shell.wait_typed("safe-ad>");
    shell.screen.type_text("wait 1 --for new-i");
    shell.wait_typed("safe-ad> wait 1 --for new-i");
    shell.screen.press(&["Tab"]);
    shell.wait_typed("safe-ad> wait 1 --for new-items");
    shell.screen.press(&["C-u"]);
    shell.wait_typed("safe-ad>");
    // With nothing typed of the value, a second Tab lists them all.
    shell.screen.type_text("wait 1 --for ");
    shell.wait_typed("safe-ad> wait 1 --for");
    shell.screen.press(&["Tab", "Tab"]);
    let screen = shell.screen.wait_for("version-above=");
    let listed = screen
        .lines()
        .find(|line| line.contains("version-above="))
        .expect("the list");
    let values: Vec<&str> = listed.split_whitespace().collect();
    assert_eq!(
        values,
        ["in-sync", "item", "new-items", "stale", "version-above="],
        "{screen}"
    );
    shell.wait_typed("safe-ad> wait 1 --for");
    shell.screen.press(&["C-u"]);
    shell.wait_typed("safe-ad>");
    let screen = shell.run("h = create --put");
    let made = created_handle(&screen);
    shell.screen.type_text("metadata $");
    shell.wait_typed("safe-ad> metadata $");
    shell.screen.press(&["Tab"]);
    shell.wait_typed("safe-ad> metadata $h");
    // None of the completed lines ran: the one line run made one handle, the one given back.
    shell.screen.press(&["C-u"]);
    shell.wait_typed("safe-ad>");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    let screen = shell.screen.whole();
    assert!(
        screen.contains(&format!(
            "giving back the 1 handle this session made: {made}"
        )),
        "{screen}"
    );
    assert!(!screen.contains("wait 1:"), "{screen}");
}
