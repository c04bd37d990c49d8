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

#[test]
fn ctrl_c_during_a_held_request_comes_back_to_the_prompt_with_the_handles_given_back() {
    if !have("tmux") {
        return;
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    // `show 1` takes a data id for each item (`GET /appendable-data/1/N`), then reads the first
    // (`GET /data-id/N`): held there, the line holds handles it must give back.
    let relay = Relay::holding(emulator.addr(), 0, |line| line.starts_with("GET /data-id/"));
    let shell = Shell::with_history(&sandbox, &relay.url);
    let first = emulator.next_handle();
    shell.screen.type_text("show 1");
    shell.screen.press(&["Enter"]);
    relay.wait_held();
    assert!(
        !emulator.handles_since(first).is_empty(),
        "the held line holds no handle yet: nothing to give back"
    );
    shell.screen.press(&["C-c"]);
    shell.screen.wait_for("safe-ad: stopping:");
    relay.release_and_settle();
    shell.screen.wait_for("safe-ad [130]> ");
    assert_eq!(shell.typed(), "safe-ad [130]>", "{}", shell.screen.whole());
    assert_eq!(
        emulator.handles_since(first),
        vec![],
        "{}",
        shell.screen.whole()
    );
    // The shell goes on: the next line runs.
    let screen = shell.run("metadata 1");
    assert_eq!(
        lines_starting(&screen, "1: version 1, data 3"),
        1,
        "{screen}"
    );
    assert_eq!(shell.typed(), "safe-ad>", "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
}

#[test]
fn ctrl_d_gives_back_the_sessions_handles() {
    let Some((emulator, _sandbox, shell)) = session() else {
        return;
    };
    let first = emulator.next_handle();
    let screen = shell.run("h = create --put");
    let created = created_handle(&screen);
    let screen = shell.run(&format!("o = open {}", emulator.demo_name(5)));
    assert_eq!(shell.typed(), "safe-ad>", "{screen}");
    let held = emulator.handles_since(first);
    assert_eq!(held.len(), 2, "{held:?}");
    assert!(held.contains(&("appendable-data", created)), "{held:?}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    let screen = shell.screen.whole();
    assert!(
        screen.contains("giving back the 2 handles this session made:"),
        "{screen}"
    );
    assert_eq!(emulator.handles_since(first), vec![], "{screen}");
}

#[test]
fn a_kept_handle_stays_held_and_is_named_at_the_end() {
    let Some((emulator, _sandbox, shell)) = session() else {
        return;
    };
    let first = emulator.next_handle();
    let kept = created_handle(&shell.run("k = create --put"));
    let given = created_handle(&shell.run("g = create --put"));
    let screen = shell.run(&format!(".keep {kept}"));
    assert!(
        screen.contains(&format!("handle {kept} will be kept when the session ends")),
        "{screen}"
    );
    // `.handles`: one line each (the terminal shows its tabs as spaces), the kept one marked.
    let screen = shell.run(".handles");
    let listed = |handle: u64| -> Vec<String> {
        let words = screen
            .lines()
            .map(|line| line.split_whitespace().collect::<Vec<_>>())
            .find(|words| words.first() == Some(&handle.to_string().as_str()))
            .unwrap_or_else(|| panic!("{handle} is not listed:\n{screen}"));
        words.into_iter().map(str::to_owned).collect()
    };
    let kept_line = listed(kept);
    assert_eq!(kept_line[1], "appendable-data", "{screen}");
    assert_eq!(kept_line[3..].join(" "), "(kept at the end)", "{screen}");
    assert_eq!(listed(given).len(), 3, "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    let screen = shell.screen.whole();
    assert!(
        screen.contains(&format!(
            "giving back the 1 handle this session made: {given}"
        )),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("safe-ad: kept handle {kept} (name ")),
        "{screen}"
    );
    assert_eq!(
        emulator.handles_since(first),
        vec![("appendable-data", kept)],
        "{screen}"
    );
}

/// At the prompt too, a variable whose handle the session dropped is said to be dropped, by
/// a line and by `.keep`, with nothing sent; and a hint names its command as typed there.
#[test]
fn a_dropped_variable_and_a_hint_read_as_typed_at_the_prompt() {
    let Some((emulator, _sandbox, shell)) = session() else {
        return;
    };
    let made = created_handle(&shell.run("h = create --put"));
    shell.run("drop $h");
    let sent = emulator.requests().len();
    let said = format!(
        "`$h` held handle {made}, which this session dropped with `drop $h`; nothing was sent"
    );
    let screen = shell.run("metadata $h");
    assert_eq!(screen.matches(&said).count(), 1, "{screen}");
    assert_eq!(shell.typed(), "safe-ad [2]>", "{screen}");
    let screen = shell.run(".keep $h");
    assert_eq!(screen.matches(&said).count(), 2, "{screen}");
    assert_eq!(
        emulator.requests().len(),
        sent,
        "a request was sent:\n{screen}"
    );
    let screen = shell.run("clear-data 99");
    assert!(
        screen.contains("get one with `open` (with the data's name) or `create`"),
        "{screen}"
    );
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
}

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

/// A session that made one handle (`h = create --put`) and was sent `signal` (`TERM`, `HUP`)
/// at the prompt, once the shell has exited: the emulator, the first handle number the session
/// could make, the one it made, the exit code and the screen.
fn stopped_at_the_prompt(signal: &str) -> (Emulator, u64, u64, i32, String) {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let shell = Shell::with_history(&sandbox, &emulator.url);
    let first = emulator.next_handle();
    let made = created_handle(&shell.run("h = create --put"));
    assert_eq!(
        emulator.handles_since(first),
        vec![("appendable-data", made)]
    );
    crate::harness::signal(shell.screen.pid(), signal);
    let code = shell.screen.wait_exit();
    let screen = shell.screen.whole();
    (emulator, first, made, code, screen)
}

#[test]
fn a_stop_signal_at_the_prompt_ends_the_shell_with_130_giving_the_handles_back() {
    if !have("tmux") {
        return;
    }
    for signal in ["TERM", "HUP"] {
        let (_emulator, _, made, code, screen) = stopped_at_the_prompt(signal);
        assert_eq!(code, 130, "SIG{signal}:\n{screen}");
        assert!(
            screen.contains("safe-ad: shell: stopped by a signal at the prompt"),
            "{screen}"
        );
        assert!(
            screen.contains(&format!(
                "giving back the 1 handle this session made: {made}"
            )),
            "{screen}"
        );
    }
}

/// The handle the shell says it gives back must be gone from the launcher. Run a few times per
/// signal: a `drop` run in this process's own runtime was handed the very signal that ended the
/// session and stopped at once, in some runs only (the give-back is a process of its own now).
#[test]
fn a_stop_signal_at_the_prompt_leaves_no_handle_held() {
    if !have("tmux") {
        return;
    }
    for round in 0..4 {
        for signal in ["TERM", "HUP"] {
            let (emulator, first, _, code, screen) = stopped_at_the_prompt(signal);
            assert_eq!(code, 130, "SIG{signal}:\n{screen}");
            assert_eq!(
                emulator.handles_since(first),
                vec![],
                "SIG{signal}, round {round}:\n{screen}"
            );
            assert!(
                !screen.contains("interrupted; no new requests were sent"),
                "the drop that gives the handles back was stopped:\n{screen}"
            );
        }
    }
}

/// What is typed while a line runs is the next line, as in sh: typed ahead during a held
/// request, it runs once the line before has ended.
#[test]
fn a_line_typed_while_one_runs_runs_next() {
    if !have("tmux") {
        return;
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let relay = Relay::holding(emulator.addr(), 0, |line| {
        line.starts_with("GET /appendable-data/metadata/1 ")
    });
    let shell = Shell::with_history(&sandbox, &relay.url);
    shell.screen.type_text("metadata 1");
    shell.screen.press(&["Enter"]);
    relay.wait_held();
    // The terminal echoes what is typed ahead while the line runs.
    shell.screen.type_text("metadata 2");
    shell.screen.press(&["Enter"]);
    shell.screen.wait_for("metadata 2");
    relay.release_and_settle();
    let screen = shell.screen.wait_for("2: version 1");
    assert_eq!(lines_starting(&screen, "1: version 1"), 1, "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
}

/// SIGTERM while a line runs is that line's stop, as on the command line, and then the session
/// ends: the line's handles and the session's are given back, exit 130.
#[test]
fn sigterm_while_a_line_runs_stops_it_and_ends_the_session() {
    if !have("tmux") {
        return;
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let relay = Relay::holding(emulator.addr(), 0, |line| line.starts_with("GET /data-id/"));
    let shell = Shell::with_history(&sandbox, &relay.url);
    let first = emulator.next_handle();
    let made = created_handle(&shell.run("h = create --put"));
    shell.screen.type_text("show 1");
    shell.screen.press(&["Enter"]);
    relay.wait_held();
    assert!(emulator.handles_since(first).len() > 1);
    crate::harness::signal(shell.screen.pid(), "TERM");
    shell.screen.wait_for("safe-ad: stopping:");
    relay.release_and_settle();
    let code = shell.screen.wait_exit();
    let screen = shell.screen.whole();
    assert_eq!(code, 130, "{screen}");
    assert!(
        screen.contains(&format!(
            "giving back the 1 handle this session made: {made}"
        )),
        "{screen}"
    );
    assert_eq!(emulator.handles_since(first), vec![], "{screen}");
}

/// A structured data name for an append.
const ITEM: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

#[test]
fn a_watch_prints_changes_above_the_line_being_typed_and_stops_with_the_session() {
    let Some((emulator, sandbox, shell)) = session() else {
        return;
    };
    let first = emulator.next_handle();
    shell.run(".watch 5 --interval 0.05");
    shell.screen.wait_for("[watch 1] 5: watching: version");
    // Half a line typed, then the data changes under it, from another process.
    shell.screen.type_text("metad");
    shell.wait_typed("safe-ad> metad");
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["append", "5", "--structured", ITEM])
        .run()
        .code(0);
    let screen = shell.screen.wait_for("[watch 1] 5: appended index");
    // The change printed above the prompt, and the line being typed kept as it was.
    shell.wait_typed("safe-ad> metad");
    let appended = (screen.lines())
        .position(|line| line.starts_with("[watch 1] 5: appended index"))
        .expect("the change's line");
    let lines: Vec<&str> = screen.lines().collect();
    let prompt = (lines.iter())
        .rposition(|line| line.starts_with("safe-ad> metad"))
        .expect("the prompt's line");
    assert!(appended < prompt, "the change above the prompt:\n{screen}");
    shell.screen.press(&["C-u"]);
    shell.wait_typed("safe-ad>");
    let screen = shell.run(".watch");
    assert!(
        screen.contains("1\twatch 5 --interval 0.05") || screen.contains("1       watch 5"),
        "{screen}"
    );
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    // The watch was stopped and waited for: every handle its polls took is given back, and
    // what it said as it stopped is not printed as news.
    assert_eq!(
        emulator.handles_since(first),
        vec![],
        "{}",
        shell.screen.whole()
    );
    assert!(
        !shell.screen.whole().contains("[watch 1] safe-ad: error"),
        "{}",
        shell.screen.whole()
    );
}

/// `.watch` with words `watch` would refuse is refused at once (exit 2 at the prompt) with
/// `watch`'s reason, and starts nothing: it once said `watch 1 started`, then the process's
/// usage error, and the prompt's code stayed 0.
#[test]
fn a_watch_with_bad_words_is_refused_and_starts_nothing() {
    let Some((emulator, _sandbox, shell)) = session() else {
        return;
    };
    let before = emulator.requests().len();
    for (words, why) in [
        ("1 --interval x", "--interval"),
        ("1 --count 0", "--count"),
        ("1 --no-such", "--no-such"),
        ("1 2", "unexpected argument"),
        ("-5", "watch"),
    ] {
        let screen = shell.run(&format!(".watch {words}"));
        let said = screen
            .lines()
            .rev()
            .find(|line| line.contains(".watch:"))
            .unwrap_or_else(|| panic!(".watch {words} refused:\n{screen}"));
        assert!(said.contains(why), ".watch {words}: {said}\n{screen}");
        assert_eq!(shell.typed(), "safe-ad [2]>", ".watch {words}:\n{screen}");
    }
    let screen = shell.run(".watch");
    assert!(screen.contains("no watch is running"), "{screen}");
    assert!(!screen.contains("started"), "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    assert_eq!(emulator.requests().len(), before, "nothing sent");
}

/// A Ctrl-C that comes while no runtime runs (here during `decode -`, which reads the
/// terminal and sends nothing) is that line's alone: the next line runs. tokio hands a runtime
/// started later a signal that came while none ran, and it stopped the next line with
/// `interrupted` until the signal's own flag told the two apart. A SIGINT sent while the prompt
/// waits (by `kill`: Ctrl-C is a key there) is the prompt's too.
#[test]
fn a_ctrl_c_while_no_runtime_runs_does_not_stop_the_next_line() {
    let Some((_emulator, _sandbox, shell)) = session() else {
        return;
    };
    // A line that sends first: its runtime is what leaves tokio's handlers in place.
    shell.run("metadata 1");
    let before = prompts(&shell.screen.whole());
    shell.screen.type_text("decode -");
    shell.screen.press(&["Enter"]);
    shell.screen.wait_for("safe-ad> decode -");
    shell.screen.press(&["C-c"]);
    shell.screen.wait_for("^C");
    shell.screen.press(&["C-d"]);
    shell.wait_prompts(before + 1);
    crate::harness::signal(shell.screen.pid(), "INT");
    let screen = shell.run("metadata 2");
    let after = screen.rsplit("metadata 2").next().unwrap_or_default();
    assert!(!after.contains("interrupted"), "{screen}");
    assert_eq!(lines_starting(&screen, "2: version"), 1, "{screen}");
    assert_eq!(shell.typed(), "safe-ad>", "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
}

/// Handles a line made at another launcher than the session's (`--launcher-url`, with a token
/// of its own from `--token-file`) are given back there, the way the line reached it, and the
/// same number at the session's launcher, a handle of the person's made outside the session, is
/// left alone.
#[test]
fn the_handles_a_line_made_elsewhere_are_given_back_where_and_as_they_were_made() {
    if !have("tmux") {
        return;
    }
    const OTHER: &str = "another.t0ken.for-the-second-launcher";
    let home = Emulator::start(&[]);
    let elsewhere = Emulator::spawn(
        SafeAd::new()
            .args(["emulator", "--listen", "127.0.0.1:0", "--token", OTHER])
            .token_may_show(),
    );
    let sandbox = Sandbox::new();
    let other_token = sandbox.path().join("other-token");
    std::fs::write(&other_token, format!("{OTHER}\n")).expect("written");
    // The person's own handle at the session's launcher, made before the session.
    let first_home = home.next_handle();
    let mine = sandbox
        .safe_ad()
        .launcher(&home.url)
        .args(["create", "--put"])
        .run()
        .code(0)
        .stdout()
        .trim()
        .parse::<u64>()
        .expect("a handle");
    let shell = Shell::with_history(&sandbox, &home.url);
    let elsewhere_held = || {
        let handles = elsewhere.http("GET", "/_emulator/handles", Some(OTHER), None);
        (handles.json()["appendableData"]
            .as_array()
            .into_iter()
            .flatten())
        .filter_map(|entry| entry["handle"].as_u64())
        .filter(|&handle| handle >= 6)
        .collect::<Vec<u64>>()
    };
    let made = created_handle(&shell.run(&format!(
        "h = create --put --launcher-url {} --token-file {}",
        elsewhere.url,
        other_token.display()
    )));
    assert_eq!(made, mine, "the same number at both: the case that matters");
    assert_eq!(elsewhere_held(), vec![made]);
    // And one at the session's own launcher: `.handles` then says which launcher each is at.
    let at_home = created_handle(&shell.run("create --put"));
    let screen = shell.run(".handles");
    let listed = |handle: u64, url: &str| {
        screen
            .lines()
            .any(|line| line.starts_with(&format!("{handle} ")) && line.contains(url))
    };
    assert!(listed(made, &elsewhere.url), "{screen}");
    assert!(listed(at_home, &home.url), "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    assert_eq!(
        elsewhere_held(),
        Vec::<u64>::new(),
        "{}",
        shell.screen.whole()
    );
    assert_eq!(
        home.handles_since(first_home),
        vec![("appendable-data", mine)],
        "{}",
        shell.screen.whole()
    );
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

/// The give-back at the session's end stops on Ctrl-C as a `drop` on the command line does:
/// a launcher that holds the drop does not hold the session past it, and the handles whose drop
/// was stopped are named with the request that frees them. (The drop used to run in a process group of its own,
/// with the session's signals held: nothing but SIGKILL ended it before its timeout.)
#[test]
fn ctrl_c_stops_a_give_back_the_launcher_holds_and_names_what_it_left() {
    if !have("tmux") {
        return;
    }
    let emulator = Emulator::start(&[]);
    let relay = Relay::holding(emulator.addr(), 0, |line| {
        line.starts_with("DELETE /appendable-data/handle/")
    });
    let sandbox = Sandbox::new();
    let shell = Shell::with_history(&sandbox, &relay.url);
    let made = created_handle(&shell.run("h = create --put"));
    shell.screen.press(&["C-d"]);
    relay.wait_held();
    shell.screen.press(&["C-c"]);
    // The drop ends at once, held request and all, and the shell after it.
    assert_eq!(shell.screen.wait_exit(), 130, "{}", shell.screen.whole());
    relay.release_and_settle();
    let screen = shell.screen.whole();
    assert!(
        screen.contains(&format!(
            "giving back the 1 handle this session made: {made}"
        )),
        "{screen}"
    );
    assert!(
        screen.contains(&format!(
            "may not have been given back (the give-back was stopped):\n  appendable-data {made}: DELETE {}/appendable-data/handle/{made}",
            relay.url
        )),
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

/// A line that takes the session's handles to 90 says once that the launcher keeps 100 of a
/// kind; `.handles` says it again, under its list.
#[test]
fn nearing_the_launchers_hundred_handles_is_said() {
    let Some((emulator, _sandbox, shell)) = session() else {
        return;
    };
    let first = emulator.next_handle();
    shell.run(&vec!["create"; 89].join("; "));
    assert!(!shell.screen.whole().contains("the launcher keeps 100"));
    let screen = shell.run("create");
    assert_eq!(
        screen
            .matches("this session holds 90 appendable-data handles")
            .count(),
        1,
        "{screen}"
    );
    let screen = shell.run(".handles");
    assert_eq!(
        screen
            .matches("this session holds 90 appendable-data handles")
            .count(),
        2,
        "{screen}"
    );
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    assert_eq!(emulator.handles_since(first), vec![]);
}

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
