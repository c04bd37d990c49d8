//! Everything safe-ad prints: result lines on stdout, errors, hints, warnings and notes on stderr.
//!
//! It decides nothing: exit codes come from `outcome`. Output that cannot be written (a closed
//! pipe, as with `| head -1`) is dropped quietly rather than turned into a crash.

use std::cell::Cell;
use std::io::Write;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::batch::{Record, RecordOutcome, Step, Tally};
use crate::handle::Handle;
use crate::launcher::{Answer, Launcher, Metadata, NoAnswer, Operation};
use crate::outcome::Failure;
use crate::sanitize;

/// How much of a body `--verbose` shows.
const VERBOSE_BODY_CHARS: usize = 2000;

/// Prints results and problems; `quiet` silences success lines only, `json` turns stdout into
/// JSON Lines.
pub struct Reporter {
    quiet: bool,
    json: bool,
    /// When the progress line was last drawn, if one is on screen.
    progress_drawn: Cell<Option<Instant>>,
}

impl Reporter {
    pub fn new(quiet: bool, json: bool) -> Reporter {
        Reporter {
            quiet,
            json,
            progress_drawn: Cell::new(None),
        }
    }

    /// Everything about one handle, in input order: result lines, errors, `--verbose` text.
    pub fn record(&self, record: &Record) {
        self.clear_progress();
        match &record.outcome {
            RecordOutcome::NotStarted => {}
            RecordOutcome::Invalid(failure) => {
                if self.json {
                    out(&json_line(&invalid_json(record, failure)));
                }
                self.failed(failure);
            }
            RecordOutcome::Ran(steps) => {
                for step in steps {
                    self.step(record, step);
                }
            }
        }
    }

    fn step(&self, record: &Record, step: &Step) {
        if let Some(text) = &step.verbose {
            err(text);
        }
        if self.json {
            out(&json_line(&step_json(record, step)));
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
            clear_line();
        }
    }

    /// One short line on stdout per handle that succeeded.
    pub fn ok(&self, operation: Operation, handle: Handle) {
        if !self.quiet {
            out(&format!("{} {handle}: ok\n", operation.name()));
        }
    }

    /// One line per handle, for people: what a clear or a save changed shows up here.
    pub fn metadata(&self, handle: Handle, metadata: &Metadata) {
        out(&format!(
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
}

/// The requests an operation would send, for `--dry-run`: request line and headers.
pub fn dry_run_text(launcher: &Launcher, operation: Operation, handle: Handle) -> String {
    let mut text = format!(
        "{} {}\n",
        operation.method(),
        launcher.url(operation, handle)
    );
    for (name, value) in launcher.shown_request_headers() {
        text.push_str(&format!("  {name}: {value}\n"));
    }
    text
}

/// An equivalent curl command that reads the token from the environment, for `--curl`.
pub fn curl_text(launcher: &Launcher, operation: Operation, handle: Handle) -> String {
    format!(
        "curl -sS -X {} -H \"Authorization: Bearer $SAFE_LAUNCHER_TOKEN\" '{}'\n",
        operation.method(),
        launcher.url(operation, handle)
    )
}

/// A request and its answer as `--verbose` shows them; the token is masked.
pub fn exchange_text(
    launcher: &Launcher,
    operation: Operation,
    url: &str,
    sent: &Result<Answer, NoAnswer>,
) -> String {
    let mut text = format!("> {} {url}\n", operation.method());
    for (name, value) in launcher.shown_request_headers() {
        text.push_str(&format!("> {name}: {value}\n"));
    }
    match sent {
        Ok(answer) => {
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
        Err(no_answer) => text.push_str(&format!("< no answer: {no_answer:?}\n")),
    }
    text
}

fn step_json(record: &Record, step: &Step) -> Value {
    let mut object = json!({
        "handle": step.handle.0,
        "operation": step.operation.name(),
        "method": step.operation.method().as_str(),
        "url": step.url,
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
pub async fn spin(message: &str) -> std::convert::Infallible {
    const FRAMES: [char; 4] = ['|', '/', '-', '\\'];
    let mut tick = tokio::time::interval(std::time::Duration::from_millis(120));
    let mut frame = 0;
    loop {
        tick.tick().await;
        err(&format!("\r{} {message}", FRAMES[frame % FRAMES.len()]));
        frame += 1;
    }
}

/// Erases the spinner's line.
pub fn clear_line() {
    err("\r\x1b[2K");
}

/// Set once stdout is gone (the reader of a pipe exited, as with `| head -1`).
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Writes data to stdout, whole lines at once so a reader never sees half a line. A closed
/// stdout is not worth a crash or an error message: it is noted, and batches stop early.
pub fn out(text: &str) {
    use std::sync::atomic::Ordering;
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
    if matches!(&written, Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe) {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// Whether stdout's reader has gone away; nothing more is worth sending then.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Writes to stderr, ignoring a closed stderr for the same reason.
pub fn err(text: &str) {
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
