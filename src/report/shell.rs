//! The words of `shell`: where a script stopped, what a line printed kept in a variable
//! instead of on stdout ([`Capture`]), the prompt's `help`, and a line's suggestions written as
//! they are typed in the shell ([`Reporter::in_session`]).

use std::borrow::Cow;

use super::*;

/// After a command only a system shell runs, said inside `safe-ad shell`.
const OUTER_ONLY: &str = " (in your system shell: this one has no pipes, redirections or `$(...)`)";
/// After `eval "$(...)"`, said inside `safe-ad shell`: the variables it sets are the system
/// shell's, and a running `safe-ad shell` keeps the environment it started with.
const EVAL_OUTSIDE: &str = " (in your system shell, after `exit`; then start `safe-ad shell` again: a running one keeps the environment it started with)";

impl Reporter {
    /// Words (an error, a hint, a note) with the commands they suggest written as typed in the
    /// shell, on a line of a `shell` session ([`Reporter::in_session`]); as they are otherwise.
    /// One rule for every hint and suggestion, wherever written: a command in backticks, or
    /// after `with: `, loses its `safe-ad ` (`safe-ad --help` is `help`). A command only a
    /// system shell can run (it pipes, redirects, substitutes or `eval`s) keeps its `safe-ad`,
    /// with where to run it.
    pub(super) fn as_typed<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if self.capture.is_none() || !text.contains("safe-ad") && !text.contains("eval ") {
            return Cow::Borrowed(text);
        }
        Cow::Owned(typed_in_the_shell(text))
    }

    /// clap's refusal with its usage lines naming the command as typed in the shell (`Usage:
    /// metadata <HANDLE>...`), on a line of a `shell` session.
    pub(super) fn usage_as_typed<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if self.capture.is_none() {
            return Cow::Borrowed(text);
        }
        usage_in_the_shell(text)
    }
}

fn typed_in_the_shell(text: &str) -> String {
    let ticks = text.matches('`').count();
    let mut out = String::with_capacity(text.len());
    let mut after: Option<&str> = None;
    for (at, part) in text.split('`').enumerate() {
        if at > 0 {
            out.push('`');
        }
        if let Some(after) = after.take() {
            out.push_str(after);
        }
        // Odd parts are inside backticks; an unpaired last one is words (as `code_in` reads it).
        if at % 2 == 0 || ticks <= at {
            out.push_str(&part.replace("with: safe-ad ", "with: "));
            continue;
        }
        let system_shell = ["$(", "|", "<", ">", "&&", ";"];
        if part.starts_with("eval ") {
            out.push_str(part);
            after = Some(EVAL_OUTSIDE);
        } else if part.contains("safe-ad ") && system_shell.iter().any(|s| part.contains(s)) {
            out.push_str(part);
            after = Some(OUTER_ONLY);
        } else {
            match part.strip_prefix("safe-ad ") {
                Some("--help") => out.push_str("help"),
                Some(command) => out.push_str(command),
                None => out.push_str(part),
            }
        }
    }
    out
}

fn usage_in_the_shell(text: &str) -> Cow<'_, str> {
    let mut in_usage = false;
    let lines: Vec<String> = (text.split_inclusive('\n'))
        .map(|line| {
            let usage = line.strip_prefix("Usage: ").map(|rest| ("Usage: ", rest));
            let more = (in_usage && line.starts_with(' ')).then(|| {
                let rest = line.trim_start();
                (&line[..line.len() - rest.len()], rest)
            });
            in_usage = usage.is_some() || more.is_some();
            match usage.or(more) {
                Some((head, rest)) => {
                    format!("{head}{}", rest.strip_prefix("safe-ad ").unwrap_or(rest))
                }
                None => line.to_owned(),
            }
        })
        .collect();
    Cow::Owned(lines.concat())
}

/// What the lines of a `shell` session's `NAME = COMMAND` print on stdout, kept for the
/// variable instead of written: the session's value (`runtime::Session`), handed to each line's
/// reporter ([`Reporter::capturing`]).
#[derive(Debug, Default)]
pub struct Capture {
    /// `None` when nothing is being kept (stdout is written).
    bytes: std::sync::Mutex<Option<Vec<u8>>>,
}

impl Capture {
    fn slot(&self) -> std::sync::MutexGuard<'_, Option<Vec<u8>>> {
        (self.bytes.lock()).unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Runs `work` with what its reporter prints on stdout kept, not written, and gives it back
    /// with its bytes. Stderr is written as ever.
    pub fn captured<T>(&self, work: impl FnOnce() -> T) -> (T, Vec<u8>) {
        *self.slot() = Some(Vec::new());
        let value = work();
        let bytes = self.slot().take().unwrap_or_default();
        (value, bytes)
    }

    /// Keeps `bytes` if a [`Capture::captured`] runs, and says whether it did.
    pub(super) fn kept(&self, bytes: &[u8]) -> bool {
        match self.slot().as_mut() {
            Some(kept) => {
                kept.extend_from_slice(bytes);
                true
            }
            None => false,
        }
    }
}

impl Reporter {
    /// A script's line failed and the script stops there (or, with `--keep-going`, goes on):
    /// said on stderr after the line's own error, even with `--quiet`, since it is where to look.
    pub fn script_line_failed(&self, line: &str, code: u8, going_on: bool) {
        let label = paint(self.colour, ERROR, "error:");
        let then = if going_on {
            "running on (--keep-going)"
        } else {
            "the script stops there"
        };
        err(&format!(
            "safe-ad: {label} shell: {line} failed with exit code {code}; {then}\n"
        ));
    }
}

/// Turns the terminal's bracketed paste mode off.
const BRACKETED_PASTE_OFF: &str = "\x1b[?2004l";

/// The interactive shell's prompt: the config file's profile its lines use, if one, and the
/// exit code of the last line when it was not 0.
pub fn prompt(last: u8, profile: Option<&str>) -> String {
    let profile = match profile {
        Some(name) => format!(" ({name})"),
        None => String::new(),
    };
    match last {
        0 => format!("safe-ad{profile}> "),
        code => format!("safe-ad{profile} [{code}]> "),
    }
}

impl Reporter {
    /// The first words of an interactive shell, on stderr.
    pub fn shell_greeting(&self) {
        self.info(&format!(
            "shell {}: safe-ad's commands without `safe-ad`; `help` lists them and the shell's own, Ctrl-D leaves",
            env!("CARGO_PKG_VERSION")
        ));
    }

    /// `help` at the prompt: one screen (80 columns by 24 rows, the prompt's included), the
    /// shell's own commands first (`own`: each one's name, what it takes and what it does), then
    /// safe-ad's by name, in columns, and where to read more.
    pub fn shell_help(&self, own: &[(&str, &str, &str)]) {
        self.out(&shell_help_text(own));
    }

    /// `.profile` alone: the profile the session's lines use.
    pub fn session_profile(&self, profile: Option<&str>) {
        match profile {
            Some(name) => self.out(&format!("{name}\n")),
            None => self.info("no profile: the lines use the config file's top level"),
        }
    }

    /// `.handles`: the session's handles, oldest first, one a line (`--json`: one object each),
    /// and a warning as they near the launcher's 100 of a kind.
    pub fn session_handles(&self, held: &[crate::session::Held], near: usize) {
        let kind = crate::launcher::HandleKind::AppendableData.name();
        if held.is_empty() && !self.json {
            self.info("this session holds no handles");
        }
        // The launcher is said where the lines reached more than one.
        let several = held
            .iter()
            .any(|other| other.launcher.base != held[0].launcher.base);
        for held in held {
            let name = held.name.map(|name| name.to_string());
            if self.json {
                self.print_json(&super::json::SessionHandleJson {
                    handle: held.handle.0,
                    kind,
                    name,
                    launcher: held.launcher.base.to_string(),
                    kept: held.kept,
                });
            } else {
                let kept = if held.kept { "  (kept at the end)" } else { "" };
                let at = match several {
                    true => format!("\t{}", held.launcher.base),
                    false => String::new(),
                };
                self.out(&format!(
                    "{}\t{kind}\t{}{at}{kept}\n",
                    held.handle,
                    name.as_deref().unwrap_or("-")
                ));
            }
        }
        if held.len() >= near {
            self.near_eviction(held.len());
        }
    }

    /// The session's handles near the launcher's 100 of a kind: said by `.handles`, and once
    /// as a line takes them past the mark. Said even with `--quiet`: the oldest are about to
    /// go without a word.
    pub fn near_eviction(&self, held: usize) {
        let kind = crate::launcher::HandleKind::AppendableData.name();
        self.warning(&format!(
            "this session holds {held} {kind} handles; the launcher keeps 100 of a kind and drops the oldest past that without a word: `drop` those you are done with"
        ));
    }

    /// `.keep HANDLE`.
    pub fn will_keep(&self, handle: crate::handle::Handle) {
        self.info(&format!(
            "handle {handle} will be kept when the session ends"
        ));
    }

    /// The session ends: the handles it gives back at one launcher (named when the session
    /// reached several).
    pub fn giving_back(&self, handles: &[String], at: Option<&str>) {
        let at = at.map(|base| format!(" at {base}")).unwrap_or_default();
        self.info(&format!(
            "giving back the {} this session made{at}: {}",
            counted(handles.len() as u64, "handle", "handles"),
            handles.join(" ")
        ));
    }

    /// The session ends: what it keeps (with how to give it back).
    pub fn leaving(&self, kept: &[crate::session::Held]) {
        for held in kept {
            let name = match held.name {
                Some(name) => format!(" (name {name})"),
                None => String::new(),
            };
            // Said even with --quiet: the handle stays in the launcher.
            err(&format!(
                "safe-ad: kept handle {}{name} at {}; give it back with `safe-ad drop --launcher-url {} {}`\n",
                held.handle, held.launcher.base, held.launcher.base, held.handle
            ));
        }
    }

    /// SIGTERM or SIGHUP came while the prompt waited. The line editor had turned bracketed
    /// paste on, and is not left to turn it off: said to the terminal here, or a paste into the
    /// shell that started safe-ad would come with its markers.
    pub fn left_the_prompt(&self) {
        if stderr_is_terminal() {
            err(BRACKETED_PASTE_OFF);
        }
        err("\nsafe-ad: shell: stopped by a signal at the prompt\n");
    }

    /// The history file could not be read or written: the session goes on without it.
    pub fn history_unusable(&self, path: &std::path::Path, why: &str) {
        self.warning(&format!(
            "shell history {}: {why}; this session's lines are not kept there (set SAFE_AD_HISTORY to another file, or empty for none)",
            path.display()
        ));
    }
}

/// `$variable` held `handle`, which a line of the session gave back (`command`, on script line
/// `line`): refused as a bad input, before anything is sent. `data`: the data's name, where the
/// line that made the handle knew it.
pub fn variable_given_back(
    variable: &str,
    handle: crate::handle::Handle,
    command: &str,
    line: Option<usize>,
    data: Option<Name>,
) -> Failure {
    let line = line
        .map(|line| format!(" (line {line})"))
        .unwrap_or_default();
    let command = sanitize::line(command.as_bytes(), 120);
    let (open, name) = match data {
        Some(name) => (format!("`{variable} = open {name}`"), "the name"),
        None => (format!("`{variable} = open NAME`"), "the data's name"),
    };
    Failure::usage(format!(
        "`${variable}` held handle {handle}, which this session dropped with `{command}`{line}; nothing was sent"
    ))
    .with_hint(format!(
        "if the data was saved, {open} keeps a new handle for it, or give {name} in place of ${variable}"
    ))
}

/// A line of a shell that begins with `safe-ad` (`words`, expanded), as a command line would:
/// refused, with the line as the shell takes it.
pub fn safe_ad_typed_in_the_shell(words: &[String]) -> Failure {
    let rest = sanitize::line(words[1..].join(" ").as_bytes(), 120);
    let hint = match rest.is_empty() {
        true => "`help` lists the commands".to_owned(),
        false => format!("type `{rest}`"),
    };
    Failure::usage(
        "a line of the shell is a command of safe-ad's without `safe-ad` before it; nothing was run",
    )
    .with_hint(hint)
}

/// The width `help` at the prompt fits: the classic terminal's 80 columns (and its 24 rows, one
/// of them left for the prompt that follows: a test holds it to 23 lines).
const HELP_COLUMNS: usize = 80;

/// The words of `help` at the prompt ([`Reporter::shell_help`]).
fn shell_help_text(own: &[(&str, &str, &str)]) -> String {
    let mut rows: Vec<(String, &str)> = (own.iter())
        .map(|(name, takes, does)| (format!("{name} {takes}").trim_end().to_owned(), *does))
        .collect();
    rows.extend([
        (
            "NAME = COMMAND ...".to_owned(),
            "keep what COMMAND prints, as $NAME",
        ),
        (
            "help [COMMAND]".to_owned(),
            "this, or a command's options and exit codes",
        ),
        (
            "exit [N]".to_owned(),
            "leave (Ctrl-D too), giving the session's handles back",
        ),
        (
            "Ctrl-C".to_owned(),
            "stop the running command; at the prompt, clear the line",
        ),
    ]);
    let width = rows.iter().map(|(left, _)| left.len()).max().unwrap_or(0) + 2;
    let mut text = String::from("The shell's own commands:\n");
    for (left, does) in &rows {
        text.push_str(&format!("  {left:width$}{does}\n"));
    }
    text.push_str("\nsafe-ad's commands, typed without `safe-ad` (`help auth` for a group's):\n");
    let names: Vec<&str> = (crate::cli::COMMANDS.iter())
        .map(|spec| spec.path)
        .filter(|path| !path.contains(' '))
        .collect();
    text.push_str(&in_columns(&names, 2, HELP_COLUMNS));
    text.push_str(
        "\n`help COMMAND` (or `COMMAND -h`, shorter) shows a command's options;\n\
         `man COMMAND` its manual page, `man` safe-ad's.\n",
    );
    text
}

/// `names` in as few rows as fit in `width` columns after `indent` spaces, down each column
/// first (as `ls` lists), two spaces between columns.
fn in_columns(names: &[&str], indent: usize, width: usize) -> String {
    for rows in 1..=names.len().max(1) {
        let columns: Vec<&[&str]> = names.chunks(rows).collect();
        let widths: Vec<usize> = (columns.iter())
            .map(|column| column.iter().map(|name| name.len()).max().unwrap_or(0))
            .collect();
        let total = indent + widths.iter().sum::<usize>() + 2 * widths.len().saturating_sub(1);
        if total > width && rows < names.len() {
            continue;
        }
        let mut text = String::new();
        for row in 0..rows {
            let mut line = " ".repeat(indent);
            for (column, width) in columns.iter().zip(&widths) {
                if let Some(name) = column.get(row) {
                    line.push_str(&format!("{name:width$}  "));
                }
            }
            text.push_str(line.trim_end());
            text.push('\n');
        }
        return text;
    }
    String::new()
}

/// A line `watch --json` printed for `.watch` number `number`, as words to print above the
/// prompt: `watch 1 (5): appended structured-data <name>`. A line that is not one of its
/// objects is given as it came.
pub fn watch_event_words(number: usize, line: &str) -> String {
    let Ok(event) = serde_json::from_str::<serde_json::Value>(line) else {
        return format!("[watch {number}] {line}");
    };
    let input = event["input"].as_str().unwrap_or("?");
    let head = format!("[watch {number}] {input}:");
    let item = |item: &serde_json::Value| {
        let kind = item["kind"].as_str().unwrap_or("item");
        let name = item["name"].as_str().unwrap_or("");
        match item["index"].as_u64() {
            Some(index) => format!("index {index}, {kind} {name}"),
            None => format!("{kind} {name}"),
        }
    };
    match event["event"].as_str() {
        Some("start") => format!(
            "{head} watching: version {}, data {}, deleted {}",
            event["version"], event["dataLength"], event["deletedDataLength"]
        ),
        Some(change @ ("appended" | "removed" | "restored" | "purged")) => {
            format!("{head} {change} {}", item(&event["item"]))
        }
        Some("version") => format!("{head} version {} -> {}", event["from"], event["to"]),
        Some("stale") => format!(
            "{head} the copy (version {}) is behind the network (version {})",
            event["copy_version"], event["network_version"]
        ),
        _ if event["left_behind"].is_array() => format!(
            "[watch {number}] left in the launcher: {}",
            (event["left_behind"].as_array().into_iter().flatten())
                .map(|left| left.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ if event["ok"] == serde_json::Value::Bool(false) => {
            let message = event["error"]["description"]
                .as_str()
                .unwrap_or("it failed");
            format!("[watch {number}] ended: {message}")
        }
        _ => format!("[watch {number}] {line}"),
    }
}

/// Whether a line a `.watch`'s process printed names handles it left (`--json`'s
/// `left_behind` object on stdout): said even as the shell stops it.
pub fn watch_left_handles(line: &str) -> bool {
    line.contains("\"left_behind\"")
}

/// A line a `.watch`'s process said on stderr.
pub fn watch_said(number: usize, line: &str) -> String {
    format!("[watch {number}] {line}")
}

impl Reporter {
    /// `.watch` alone: the watches running.
    pub fn watches(&self, running: &[(usize, String)]) {
        if running.is_empty() {
            self.info("no watch is running: `.watch HANDLE|NAME` starts one");
        }
        for (number, what) in running {
            self.out(&format!("{number}\twatch {what}\n"));
        }
    }

    pub fn watch_started(&self, number: usize, what: &str) {
        self.info(&format!(
            "watch {number} started ({what}); its changes show above the prompt, `.unwatch {number}` stops it"
        ));
    }

    pub fn watch_stopped(&self, number: usize) {
        self.info(&format!("watch {number} stopped"));
    }
}

impl Reporter {
    /// The handles a session could not give back because `drop` could not be run: named with
    /// the command that frees them. Said even with `--quiet`.
    pub fn left_unreturned(&self, launcher: &str, handles: &[String], certain: bool) {
        let list = handles.join(" ");
        let were = match certain {
            true => "were not given back",
            false => "may not have been given back (the give-back was stopped)",
        };
        let requests: String = (handles.iter())
            .filter_map(|handle| handle.parse::<u64>().ok())
            .map(|handle| {
                let drop = crate::launcher::Request::OnHandle(
                    crate::launcher::Operation::Drop,
                    crate::handle::Handle(handle),
                );
                format!(
                    "  appendable-data {handle}: {} {launcher}{}\n",
                    drop.method(),
                    drop.route()
                )
            })
            .collect();
        err(&format!(
            "safe-ad: error: the session's handles at {launcher} {were}:\n{requests}hint: give them back with `safe-ad drop --launcher-url {launcher} {list}`, or the launcher drops them when it restarts\n"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_at_the_prompt_fits_a_classic_screen_with_the_shells_own_first() {
        let own = [(".a", "", "one"), (".bb", "X...", "two")];
        let text = shell_help_text(&own);
        assert!(text.lines().count() <= 23, "{text}");
        assert!(
            text.lines().all(|line| line.chars().count() <= 80),
            "{text}"
        );
        let at = |word: &str| {
            text.find(word)
                .unwrap_or_else(|| panic!("{word} in {text}"))
        };
        assert!(at("  .bb X...") < at("NAME = COMMAND"), "{text}");
        assert!(at("exit [N]") < at("clear-deleted-data"), "{text}");
        for spec in crate::cli::COMMANDS
            .iter()
            .filter(|spec| !spec.path.contains(' '))
        {
            let listed = text.split_whitespace().any(|word| word == spec.path);
            assert!(listed, "{} in {text}", spec.path);
        }
    }

    #[test]
    fn suggestions_in_a_shell_are_written_as_typed_there_but_those_for_the_system_shell() {
        let typed = |text: &str| typed_in_the_shell(text);
        assert_eq!(
            typed("get one with `safe-ad open` (with the data's name) or `safe-ad create`"),
            "get one with `open` (with the data's name) or `create`"
        );
        assert_eq!(
            typed("did you mean `safe-ad clear-data`?; `safe-ad --help` lists the commands"),
            "did you mean `clear-data`?; `help` lists the commands"
        );
        assert_eq!(
            typed("not on the network yet (save it with: safe-ad put 6)"),
            "not on the network yet (save it with: put 6)"
        );
        // Words that are no command keep their safe-ad; an unpaired backtick is words.
        assert_eq!(
            typed("safe-ad does not follow `redirects` or `safe-ad"),
            "safe-ad does not follow `redirects` or `safe-ad"
        );
        assert_eq!(
            typed("a file (`safe-ad cat 1 0 > file`), or give --force"),
            format!("a file (`safe-ad cat 1 0 > file`{OUTER_ONLY}), or give --force")
        );
        assert_eq!(
            typed("`eval \"$(safe-ad emulator env)\"` sets them again"),
            format!("`eval \"$(safe-ad emulator env)\"`{EVAL_OUTSIDE} sets them again")
        );
    }

    #[test]
    fn names_fill_columns_down_first_in_as_few_rows_as_fit() {
        let names = ["a", "bbb", "c", "dd", "e"];
        assert_eq!(in_columns(&names, 2, 80), "  a  bbb  c  dd  e\n");
        assert_eq!(in_columns(&names, 2, 14), "  a    c   e\n  bbb  dd\n");
        assert_eq!(in_columns(&["long-name"], 2, 5), "  long-name\n");
    }

    #[test]
    fn the_prompt_shows_a_failed_lines_code() {
        assert_eq!(prompt(0, None), "safe-ad> ");
        assert_eq!(prompt(130, None), "safe-ad [130]> ");
        assert_eq!(prompt(0, Some("emu")), "safe-ad (emu)> ");
        assert_eq!(prompt(2, Some("emu")), "safe-ad (emu) [2]> ");
    }

    #[test]
    fn a_watchs_json_lines_become_words_and_anything_else_is_kept_as_it_came() {
        let words = |line: &str| watch_event_words(2, line);
        assert_eq!(
            words(
                r#"{"event":"start","input":"5","version":1,"dataLength":3,"deletedDataLength":0}"#
            ),
            "[watch 2] 5: watching: version 1, data 3, deleted 0"
        );
        assert_eq!(
            words(
                r#"{"event":"appended","input":"5","item":{"index":3,"kind":"structured-data","name":"AAEC"}}"#
            ),
            "[watch 2] 5: appended index 3, structured-data AAEC"
        );
        assert_eq!(
            words(r#"{"event":"version","input":"5","from":1,"to":2}"#),
            "[watch 2] 5: version 1 -> 2"
        );
        assert_eq!(
            words(r#"{"ok":false,"error":{"description":"the launcher went away"}}"#),
            "[watch 2] ended: the launcher went away"
        );
        assert_eq!(words("not json"), "[watch 2] not json");
    }
}
