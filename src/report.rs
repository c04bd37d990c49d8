//! Everything safe-ad prints: result lines on stdout, errors, hints, warnings and notes on
//! stderr, `--verbose` exchanges, dry-run and curl lines, batch summaries and progress, auth
//! status, config show and path, completions, and clap's own help and errors. (The emulator,
//! which shares nothing with the client, prints through its own `emulator::log`.)
//!
//! It decides nothing: exit codes come from `outcome`. Output that cannot be written (a closed
//! pipe, as with `| head -1`) is dropped quietly rather than turned into a crash, and the
//! reporter remembers it, so a batch can be told to stop.

use std::cell::Cell;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::batch::{Record, RecordOutcome, Step, Tally};
use crate::config_file::Key;
use crate::handle::Handle;
use crate::launcher::{Launcher, Metadata, Operation};
use crate::outcome::{Class, Failure};
use crate::sanitize;
use crate::secret::Secret;
use crate::settings::{Settings, Source};

/// How much of a body `--verbose` shows.
const VERBOSE_BODY_CHARS: usize = 2000;

/// Prints results and problems; `quiet` silences success lines only, `json` turns stdout into
/// JSON Lines.
pub struct Reporter {
    quiet: bool,
    json: bool,
    /// When the progress line was last drawn, if one is on screen.
    progress_drawn: Cell<Option<Instant>>,
    /// Set once stdout's reader has gone away (as with `| head -1`): nothing more is written
    /// there, and batches stop.
    stdout_closed: Cell<bool>,
}

impl Reporter {
    pub fn new(quiet: bool, json: bool) -> Reporter {
        Reporter {
            quiet,
            json,
            progress_drawn: Cell::new(None),
            stdout_closed: Cell::new(false),
        }
    }

    /// Whether stdout's reader has gone away; nothing more is worth sending then.
    pub fn stdout_closed(&self) -> bool {
        self.stdout_closed.get()
    }

    /// Writes data to stdout, whole lines at once so a reader never sees half a line. A closed
    /// stdout is not worth a crash or an error message: it is noted, and batches stop early.
    fn out(&self, text: &str) {
        if self.stdout_closed.get() {
            return;
        }
        let mut stdout = std::io::stdout().lock();
        let written = stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush());
        if matches!(&written, Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe) {
            self.stdout_closed.set(true);
        }
    }

    /// Everything about one handle, in input order: result lines, errors, `--verbose` text.
    pub fn record(&self, launcher: &Launcher, record: &Record) {
        self.clear_progress();
        match &record.outcome {
            RecordOutcome::NotStarted => {}
            RecordOutcome::Invalid(failure) => {
                if self.json {
                    self.out(&json_line(&invalid_json(record, failure)));
                }
                self.failed(failure);
            }
            RecordOutcome::Ran(steps) => {
                for step in steps {
                    self.step(launcher, record, step);
                }
            }
        }
    }

    fn step(&self, launcher: &Launcher, record: &Record, step: &Step) {
        if step.exchange.is_some() {
            err(&exchange_text(launcher, step));
        }
        if self.json {
            self.out(&json_line(&step_json(launcher, record, step)));
        }
        match &step.result {
            Ok(Some(metadata)) if !self.json => self.metadata(step.handle, metadata),
            Ok(_) if !self.json => self.ok(step.operation, step.handle),
            Ok(_) => {}
            Err(failure) => self.operation_failed(step.operation, step.handle, failure),
        }
    }

    /// The one-line summary of a batch, on stderr, when more than one handle was asked for.
    /// `cancelled` counts handles sent whose answer was not awaited (Ctrl-C), `not_started`
    /// handles never sent; `unread_input` says standard input was left unread (its length is
    /// unknown) because the batch stopped early.
    pub fn summary(&self, tally: &Tally, cancelled: u64, not_started: u64, unread_input: bool) {
        self.clear_progress();
        if self.quiet || (tally.done() + cancelled + not_started < 2 && !unread_input) {
            return;
        }
        let mut line = format!(
            "{} handles: {} ok, {} failed",
            tally.done(),
            tally.ok,
            tally.failed
        );
        if cancelled > 0 {
            line.push_str(&format!(
                ", {cancelled} sent but not awaited (they may have taken effect)"
            ));
        }
        if not_started > 0 {
            line.push_str(&format!(", {not_started} not started"));
        }
        if unread_input {
            line.push_str(", the rest of standard input not read");
        }
        err(&format!("{line}\n"));
    }

    /// A live progress line on a terminal's stderr for long batches (a bar when the number of
    /// handles is known); never on a pipe or file.
    pub fn progress(&self, tally: &Tally, total: Option<u64>, started: Instant) {
        if self.quiet || started.elapsed() < Duration::from_millis(500) {
            return;
        }
        if let Some(drawn) = self.progress_drawn.get() {
            if drawn.elapsed() < Duration::from_millis(100) {
                return;
            }
        }
        if !stderr_is_terminal() {
            return;
        }
        let rate = tally.done() as f64 / started.elapsed().as_secs_f64().max(0.001);
        let position = match total {
            Some(total) if total > 0 => {
                const WIDTH: u64 = 30;
                let filled = (tally.seen.min(total) * WIDTH / total) as usize;
                format!(
                    "[{}{}] {}/{total}",
                    "#".repeat(filled),
                    ".".repeat(WIDTH as usize - filled),
                    tally.seen
                )
            }
            _ => format!("{} done", tally.done()),
        };
        err(&format!(
            "\r\x1b[2K{position}: {} ok, {} failed ({rate:.0}/s)",
            tally.ok, tally.failed
        ));
        self.progress_drawn.set(Some(Instant::now()));
    }

    fn clear_progress(&self) {
        if self.progress_drawn.take().is_some() {
            self.clear_spinner();
        }
    }

    /// One short line on stdout per handle that succeeded.
    pub fn ok(&self, operation: Operation, handle: Handle) {
        if !self.quiet {
            self.out(&format!("{} {handle}: ok\n", operation.name()));
        }
    }

    /// One line per handle, for people: what a clear or a save changed shows up here.
    pub fn metadata(&self, handle: Handle, metadata: &Metadata) {
        self.out(&format!(
            "{handle}: version {}, data {}, deleted {}, owner {}, filter {} ({} keys)\n",
            metadata.version,
            metadata.data_length,
            metadata.deleted_data_length,
            if metadata.is_owner { "yes" } else { "no" },
            crate::sanitize::line(metadata.filter_type.as_bytes(), 40),
            metadata.filter_length
        ));
    }

    /// A failed operation on one handle.
    pub fn operation_failed(&self, operation: Operation, handle: Handle, failure: &Failure) {
        err(&error_text(
            Some(&format!("{} {handle}", operation.name())),
            failure,
        ));
    }

    /// A failure that is not about one handle (arguments, settings, internal).
    pub fn failed(&self, failure: &Failure) {
        err(&error_text(None, failure));
    }

    /// What a command did or is doing, on stderr; silenced by `--quiet`.
    pub fn info(&self, message: &str) {
        if !self.quiet {
            err(&format!("safe-ad: {message}\n"));
        }
    }

    pub fn warning(&self, message: &str) {
        err(&format!("safe-ad: warning: {message}\n"));
    }

    /// Something worth knowing that is not a problem; silenced by `--quiet`.
    pub fn note(&self, message: &str) {
        if !self.quiet {
            err(&format!("note: {message}\n"));
        }
    }

    /// `--dry-run` and `--curl`: what would be sent for one step, as request line and headers
    /// or as a curl command that reads the token from the environment.
    pub fn request_described(
        &self,
        launcher: &Launcher,
        operation: Operation,
        handle: Handle,
        as_curl: bool,
    ) {
        let url = launcher.url(operation, handle);
        let text = if as_curl {
            format!(
                "curl -sS -X {} -H \"Authorization: Bearer $SAFE_LAUNCHER_TOKEN\" '{url}'\n",
                operation.method()
            )
        } else {
            let mut text = format!("{} {url}\n", operation.method());
            for (name, value) in launcher.shown_request_headers() {
                text.push_str(&format!("  {name}: {value}\n"));
            }
            text
        };
        self.out(&text);
    }

    /// After a clear without `--save`: the change is only in the launcher's copy.
    pub fn save_note(&self, saved: &[Handle]) {
        const SHOWN: usize = 5;
        let mut list: Vec<String> = saved.iter().take(SHOWN).map(Handle::to_string).collect();
        if saved.len() > SHOWN {
            list.push("...".into());
        }
        self.note(&format!(
            "a clear changes only the launcher's copy; save it to the network with: safe-ad post {} (or use --save post)",
            list.join(" ")
        ));
    }

    /// `auth token`: the one place a token is printed.
    pub fn token(&self, token: &Secret) {
        self.out(&format!("{}\n", token.expose()));
    }

    /// `auth status`, first line: where the launcher is.
    pub fn status_launcher(&self, base: &str, source: &Source) {
        self.out(&format!("launcher  {base} ({source})\n"));
    }

    /// `auth status`, second line: the token, masked, and where it came from.
    pub fn status_token(&self, token: Option<(&Secret, &Source)>) {
        match token {
            Some((token, source)) => self.out(&format!("token     {} ({source})\n", token.mask())),
            None => self.out("token     none\n"),
        }
    }

    /// `auth status`, last line: what the launcher said of the token.
    pub fn status_answer(&self, answer: StatusAnswer) {
        self.out(&match answer {
            StatusAnswer::Accepted => "status    accepted by the launcher\n".to_string(),
            StatusAnswer::NotAccepted(class) => {
                format!("status    not accepted ({})\n", class.name())
            }
            StatusAnswer::Unreachable => "status    launcher not reachable\n".to_string(),
        });
    }

    /// `auth login` without a terminal: what it is waiting for.
    pub fn login_waiting(&self, base: &str) {
        self.info(&login_waiting_text(base));
    }

    /// `auth login` on a terminal: a spinner with the same words, until the future is dropped.
    pub async fn login_spinner(&self, base: &str) -> std::convert::Infallible {
        spin(&login_waiting_text(base)).await
    }

    /// Erases the spinner's line.
    pub fn clear_spinner(&self) {
        err("\r\x1b[2K");
    }

    pub fn logged_in(&self, path: &Path) {
        self.info(&format!("logged in: token stored in {}", path.display()));
    }

    pub fn granted_without(&self, permissions: &[String], needed: &str) {
        self.warning(&format!(
            "the launcher granted {permissions:?} without {needed}; saving and clearing will be refused (403)"
        ));
    }

    pub fn token_source_still_wins(&self, source: &Source) {
        self.warning(&format!(
            "the token from {source} still wins over the stored one; unset or drop it to use the new token"
        ));
    }

    pub fn revoked(&self, base: &str) {
        self.info(&format!("revoked the token at {base}"));
    }

    pub fn token_already_gone(&self) {
        self.info("the launcher no longer accepted the token (already revoked, or it restarted)");
    }

    pub fn revoke_failed(&self, failure: &Failure) {
        self.warning(&format!(
            "could not revoke the token at the launcher: {}",
            failure.message
        ));
    }

    pub fn token_removed(&self, path: &Path) {
        self.info(&format!("removed the token from {}", path.display()));
    }

    pub fn token_not_managed(&self, source: &Source) {
        self.info(&format!(
            "the token came from {source}, which safe-ad does not manage: remove it there"
        ));
    }

    /// `config path`.
    pub fn config_path(&self, path: &Path) {
        self.out(&format!("{}\n", path.display()));
    }

    /// `config set`: done.
    pub fn config_set(&self, key: Key, path: &Path) {
        self.info(&format!("set {} in {}", key.name(), path.display()));
    }

    /// `config unset`: done, or there was nothing to do.
    pub fn config_unset(&self, key: Key, path: &Path, was_set: bool) {
        if was_set {
            self.info(&format!("removed {} from {}", key.name(), path.display()));
        } else {
            self.info(&format!("{} was not set in {}", key.name(), path.display()));
        }
    }

    /// `config show`: every key's effective value and source, then the file.
    pub fn config_show(&self, settings: &Settings) {
        let mut text = String::new();
        for key in Key::ALL {
            let (value, source) = match key {
                Key::LauncherUrl => (
                    settings.launcher.base().to_string(),
                    Some(&settings.launcher_source),
                ),
                Key::Token => match &settings.token {
                    Some((token, source)) => (token.mask(), Some(source)),
                    None => ("none".to_string(), None),
                },
                Key::TimeoutSecs => (
                    settings.timeout.as_secs_f64().to_string(),
                    Some(&settings.timeout_source),
                ),
            };
            let name = key.name();
            match source {
                Some(source) => text.push_str(&format!("{name:<14}{value}  ({source})\n")),
                None => text.push_str(&format!("{name:<14}{value}\n")),
            }
        }
        let file = match &settings.config_path {
            Some(path) if path.exists() => format!("{}  (exists)", path.display()),
            Some(path) => format!("{}  (does not exist yet)", path.display()),
            None => "none (no home directory; set SAFE_AD_CONFIG_DIR)".to_string(),
        };
        text.push_str(&format!("{:<14}{file}\n", "config file"));
        self.out(&text);
    }

    /// `completions SHELL`: the script, as generated.
    pub fn completion(&self, script: &[u8]) {
        self.out(&String::from_utf8_lossy(script));
    }

    /// Help and version go to stdout (they were asked for); help shown because nothing was
    /// given goes to stderr; any other clap error in safe-ad's error format.
    pub fn clap(&self, error: &clap::Error) {
        let text = error.render().to_string();
        match error.kind() {
            clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                self.out(&text)
            }
            clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => err(&text),
            _ => {
                let text = text.strip_prefix("error: ").unwrap_or(&text);
                err(&format!("safe-ad: error: {text}"));
            }
        }
    }
}

/// What `auth status` learnt of the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusAnswer {
    Accepted,
    NotAccepted(Class),
    Unreachable,
}

fn login_waiting_text(base: &str) -> String {
    format!("waiting for approval in the launcher at {base} (Ctrl-C cancels)")
}

/// A request and its answer as `--verbose` shows them; the token is masked.
fn exchange_text(launcher: &Launcher, step: &Step) -> String {
    let mut text = format!(
        "> {} {}\n",
        step.operation.method(),
        launcher.url(step.operation, step.handle)
    );
    for (name, value) in launcher.shown_request_headers() {
        text.push_str(&format!("> {name}: {value}\n"));
    }
    match &step.exchange {
        Some(Ok(answer)) => {
            text.push_str(&format!(
                "< {} ({:.1} ms)\n",
                answer.status,
                answer.elapsed.as_secs_f64() * 1000.0
            ));
            for (name, value) in &answer.headers {
                text.push_str(&format!("< {name}: {}\n", sanitize::line(value, 300)));
            }
            text.push_str(&format!(
                "<\n< {}\n",
                sanitize::line(&answer.body, VERBOSE_BODY_CHARS)
            ));
        }
        Some(Err(no_answer)) => text.push_str(&format!("< no answer: {no_answer:?}\n")),
        None => {}
    }
    text
}

fn step_json(launcher: &Launcher, record: &Record, step: &Step) -> Value {
    let mut object = json!({
        "handle": step.handle.0,
        "operation": step.operation.name(),
        "method": step.operation.method().as_str(),
        "url": launcher.url(step.operation, step.handle),
        "status": step.status,
        "ok": step.result.is_ok(),
        "elapsed_ms": (step.elapsed.as_secs_f64() * 10_000.0).round() / 10.0,
    });
    if let Some(line) = record.item.line {
        object["line"] = json!(line);
    }
    match &step.result {
        Ok(Some(metadata)) => object["metadata"] = json!(metadata),
        Ok(None) => {}
        Err(failure) => add_error(&mut object, failure),
    }
    object
}

fn invalid_json(record: &Record, failure: &Failure) -> Value {
    let mut object = json!({
        "handle": null,
        "input": record.item.input,
        "line": record.item.line,
        "ok": false,
    });
    add_error(&mut object, failure);
    object
}

fn add_error(object: &mut Value, failure: &Failure) {
    let answer = failure.answer.as_ref();
    object["error"] = json!({
        "class": failure.class.name(),
        "status": answer.map(|a| a.status),
        "error_code": answer.and_then(|a| a.error_code),
        "description": answer.map_or(failure.message.as_str(), |a| a.description.as_str()),
        "hint": failure.hint,
    });
    object["exit_code"] = json!(failure.exit_code());
}

fn json_line(value: &Value) -> String {
    let mut line = value.to_string();
    line.push('\n');
    line
}

/// `safe-ad: error: <context>: <what>` and, where there is one, `hint: <what to do>`.
pub fn error_text(context: Option<&str>, failure: &Failure) -> String {
    let mut text = match context {
        Some(context) => format!("safe-ad: error: {context}: {}\n", failure.message),
        None => format!("safe-ad: error: {}\n", failure.message),
    };
    if let Some(hint) = &failure.hint {
        text.push_str(&format!("hint: {hint}\n"));
    }
    text
}

/// Whether a person is likely watching stderr (spinners and progress bars only then).
pub fn stderr_is_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal()
}

/// Draws a spinner with `message` on stderr until the future is dropped; it never ends itself.
async fn spin(message: &str) -> std::convert::Infallible {
    const FRAMES: [char; 4] = ['|', '/', '-', '\\'];
    let mut tick = tokio::time::interval(std::time::Duration::from_millis(120));
    let mut frame = 0;
    loop {
        tick.tick().await;
        err(&format!("\r{} {message}", FRAMES[frame % FRAMES.len()]));
        frame += 1;
    }
}

/// Writes to stderr, ignoring a closed stderr: there is nowhere left to say anything.
fn err(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Class;

    #[test]
    fn error_format() {
        let failure = Failure::new(Class::Rejected, "the launcher answered 400").with_hint("do x");
        assert_eq!(
            error_text(Some("put 7"), &failure),
            "safe-ad: error: put 7: the launcher answered 400\nhint: do x\n"
        );
        assert_eq!(
            error_text(None, &Failure::usage("bad")),
            "safe-ad: error: bad\n"
        );
    }
}
