//! The words of `shell`: where a script stopped, and what a line printed kept in a variable
//! instead of on stdout ([`captured`]).

use super::*;

/// What the lines of a `NAME = COMMAND` printed on stdout while [`captured`] runs; `None` when
/// nothing is being kept (stdout is written).
static CAPTURED: std::sync::Mutex<Option<Vec<u8>>> = std::sync::Mutex::new(None);

fn slot() -> std::sync::MutexGuard<'static, Option<Vec<u8>>> {
    CAPTURED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs `work` with what it prints on stdout kept, not written, and gives it back with its
/// bytes. Stderr is written as ever.
pub fn captured<T>(work: impl FnOnce() -> T) -> (T, Vec<u8>) {
    *slot() = Some(Vec::new());
    let value = work();
    let bytes = slot().take().unwrap_or_default();
    (value, bytes)
}

/// Keeps `bytes` if a [`captured`] runs, and says whether it did.
pub(super) fn kept(bytes: &[u8]) -> bool {
    match slot().as_mut() {
        Some(kept) => {
            kept.extend_from_slice(bytes);
            true
        }
        None => false,
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

/// The interactive shell's prompt: the exit code of the last line when it was not 0.
pub fn prompt(last: u8) -> String {
    match last {
        0 => "safe-ad> ".to_string(),
        code => format!("safe-ad [{code}]> "),
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

    /// After safe-ad's help, inside the shell: what the shell adds.
    pub fn shell_help(&self) {
        self.out(
            "\nIn the shell:\n  NAME = COMMAND ...  keep what COMMAND prints in $NAME\n  .handles            the handles this session made and holds\n  .keep HANDLE...     keep these when the session ends (the others are given back)\n  .watch HANDLE|NAME  print its changes above the prompt (`.watch` lists, `.unwatch [N]` stops)\n  exit [N]            leave (Ctrl-D too), giving the session's handles back\n  Ctrl-C              stop the running command; at the prompt, clear the line\n",
        );
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
                self.print_json(&serde_json::json!({
                    "handle": held.handle.0,
                    "kind": kind,
                    "name": name,
                    "launcher": held.launcher.base,
                    "kept": held.kept,
                }));
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
            event["version"], event["data_length"], event["deleted_data_length"]
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
    fn the_prompt_shows_a_failed_lines_code() {
        assert_eq!(prompt(0), "safe-ad> ");
        assert_eq!(prompt(130), "safe-ad [130]> ");
    }

    #[test]
    fn a_watchs_json_lines_become_words_and_anything_else_is_kept_as_it_came() {
        let words = |line: &str| watch_event_words(2, line);
        assert_eq!(
            words(
                r#"{"event":"start","input":"5","version":1,"data_length":3,"deleted_data_length":0}"#
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
