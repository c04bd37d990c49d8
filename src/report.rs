//! Everything safe-ad prints: result lines on stdout, errors, hints, warnings and notes on
//! stderr, `--verbose` exchanges, dry-run and curl lines, batch summaries and progress, auth
//! status, config show and path, completions, and clap's own help and errors. (The emulator,
//! which shares nothing with the client, prints through its own `emulator::log`.)
//!
//! It decides nothing: exit codes come from `outcome`. Output that cannot be written (a closed
//! pipe, as with `| head -1`) is dropped quietly rather than turned into a crash, and the
//! reporter remembers it, so a batch can be told to stop.

#[cfg(feature = "emulator")]
pub mod emulator;

use std::cell::{Cell, RefCell};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use anstyle::{AnsiColor, Color, Style};
use serde_json::{json, Value};

use crate::batch::show::{IndexRange, Kind, Section, Shown, ShownItem};
use crate::batch::{Record, RecordOutcome, Step, Tally};
use crate::cli::ColorWhen;
use crate::config_file::Key;
use crate::handle::Handle;
use crate::input::Item;
use crate::launcher::{serialised, Fetched, Launcher, Metadata, Operation, Request, Slot};
use crate::outcome::{self, AnswerError, Class, Failure, Reply};
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
    /// Whether stderr's words are coloured (`--color`, `NO_COLOR`, a terminal). Standard
    /// output never is.
    colour: bool,
    /// When the progress line was last drawn, if one is on screen.
    progress_drawn: Cell<Option<Instant>>,
    /// Set once stdout's reader has gone away (as with `| head -1`): nothing more is written
    /// there, and batches stop.
    stdout_closed: Cell<bool>,
    /// Whether anything went to stdout since the last record began.
    wrote: Cell<bool>,
    /// The hints (and once-only notes) already printed: a batch whose handles fail alike
    /// gives each hint once.
    hints_shown: RefCell<Vec<String>>,
}

impl Reporter {
    pub fn new(quiet: bool, json: bool, colour: ColorWhen) -> Reporter {
        Reporter {
            quiet,
            json,
            colour: match colour {
                ColorWhen::Always => true,
                ColorWhen::Never => false,
                ColorWhen::Auto => stderr_is_terminal(),
            },
            progress_drawn: Cell::new(None),
            stdout_closed: Cell::new(false),
            wrote: Cell::new(false),
            hints_shown: RefCell::new(Vec::new()),
        }
    }

    /// Whether stdout's reader has gone away; nothing more is worth sending then. A write
    /// notices it, but a record that wrote nothing to stdout (it failed, and errors go to
    /// stderr; or `--quiet` kept it silent) would not, so then the pipe is asked: `--quiet`
    /// changes what is printed, not when a batch stops.
    pub fn stdout_closed(&self) -> bool {
        if !self.stdout_closed.get() && !self.wrote.get() && stdout_hung_up() {
            self.stdout_closed.set(true);
        }
        self.stdout_closed.get()
    }

    /// Writes data to stdout, whole lines at once so a reader never sees half a line. A closed
    /// stdout is not worth a crash or an error message: it is noted, and batches stop early.
    fn out(&self, text: &str) {
        if self.stdout_closed.get() {
            return;
        }
        self.wrote.set(true);
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
        self.wrote.set(false);
        match &record.outcome {
            RecordOutcome::NotStarted => {}
            RecordOutcome::Invalid(failure) => self.invalid(&record.item, failure),
            RecordOutcome::Ran(steps) => self.steps(launcher, record.item.line, steps),
        }
    }

    /// Input that is not a handle, from standard input or the command line: an error, and with
    /// `--json` an object saying which input it was.
    pub fn invalid(&self, item: &Item, failure: &Failure) {
        if self.json {
            self.out(&json_line(&invalid_json(item, failure)));
        }
        self.failed(failure);
    }

    /// The steps of one procedure, in order: `--verbose` exchanges, JSON Lines or result
    /// lines, and an error for each step that failed. `line`: where the input came from.
    ///
    /// Procedures that make a new handle (`create`, `open`, `reopen`) print it alone on stdout,
    /// for `h=$(safe-ad open NAME)`, and say what happened in one line on stderr; the other
    /// steps print a line each (`put 7: ok`, or the metadata).
    pub fn steps(&self, launcher: &Launcher, line: Option<u64>, steps: &[Step]) {
        if steps
            .iter()
            .any(|step| step.request.operation() == Operation::Append)
        {
            return self.append_steps(launcher, steps);
        }
        let new_handles = steps.iter().any(|step| {
            matches!(
                step.request.operation(),
                Operation::Create | Operation::Fetch
            )
        });
        // The name a procedure started from (`open NAME`) is known to the hints of its later
        // steps too.
        let name = steps
            .iter()
            .find_map(|step| step.request.name())
            .map(|name| name.to_string());
        for (at, step) in steps.iter().enumerate() {
            if step.exchange.is_some() {
                err(&exchange_text(launcher, step));
            }
            let values = Values {
                handle: step.request.handle().map(|handle| handle.0),
                name: name.clone(),
            };
            if self.json {
                self.out(&json_line(&step_json(launcher, line, step, &values)));
            }
            match &step.result {
                Err(failure) => self.error(Some(&step.request.subject()), failure, &values),
                Ok(_) if new_handles => self.new_handle(steps, at),
                Ok(Reply::Metadata(metadata)) if !self.json => {
                    if let Some(handle) = step.request.handle() {
                        self.metadata(handle, metadata);
                    }
                }
                Ok(_) if !self.json => self.ok(&step.request),
                Ok(_) => {}
            }
        }
    }

    /// For the step at `at` of a procedure that makes a handle: the handle on stdout (unless
    /// `--json` has it), and what happened on stderr.
    fn new_handle(&self, steps: &[Step], at: usize) {
        let step = &steps[at];
        let Some(handle) = step.new_handle() else {
            return;
        };
        let said = match (&step.request, &step.result) {
            (Request::Create { name, .. }, _) => {
                let saved = steps.get(at + 1).is_some_and(|next| {
                    next.request == Request::OnHandle(Operation::Put, handle) && next.result.is_ok()
                });
                if saved {
                    format!("created handle {handle}, name {name}, saved to the network")
                } else {
                    format!(
                        "created handle {handle}, name {name}, not on the network yet (save it with: safe-ad put {handle})"
                    )
                }
            }
            (Request::Fetch(_), Ok(Reply::Fetched(fetched))) => {
                let counts = fetched_counts(fetched);
                let before = at.checked_sub(1).map(|before| &steps[before].request);
                match before {
                    Some(Request::OnHandle(Operation::DataId, old)) => {
                        let dropped = steps.iter().any(|later| {
                            later.request == Request::OnHandle(Operation::Drop, *old)
                                && later.result.is_ok()
                        });
                        let dropped = if dropped {
                            format!("; dropped handle {old}")
                        } else {
                            String::new()
                        };
                        format!("reopened handle {old} as {handle}: {counts}{dropped}")
                    }
                    _ => format!("opened handle {handle}: {counts}"),
                }
            }
            // A data-id handle is a means, not a result.
            _ => return,
        };
        if !self.json {
            self.out(&format!("{handle}\n"));
        }
        self.info(&said);
    }

    /// The one-line summary of a batch, on stderr, when more than one handle was asked for.
    /// `cancelled` counts handles sent whose answer was not awaited (Ctrl-C), `not_started`
    /// handles never sent; `unread_input` says standard input was left unread (its length is
    /// unknown) because the batch stopped early.
    /// With `--quiet` it is printed only when the batch was cut short, since what was left
    /// undone (or sent and not awaited) is not success output.
    pub fn summary(&self, tally: &Tally, cancelled: u64, not_started: u64, unread_input: bool) {
        self.clear_progress();
        let cut_short = cancelled > 0 || not_started > 0 || unread_input;
        if self.quiet && !cut_short {
            return;
        }
        if let Some(line) = summary_text(tally, cancelled, not_started, unread_input) {
            err(&line);
        }
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

    /// One short line on stdout per step that succeeded: `put 7: ok`.
    fn ok(&self, request: &Request) {
        if !self.quiet {
            self.out(&format!("{}: ok\n", request.subject()));
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

    /// A failure that is not about one handle (arguments, settings, internal).
    pub fn failed(&self, failure: &Failure) {
        self.error(None, failure, &Values::default());
    }

    /// An error line, and its hint (with the request's values written in) unless the same hint
    /// was printed before: a batch whose handles fail alike gives the advice once.
    fn error(&self, context: Option<&str>, failure: &Failure, values: &Values) {
        let mut shown = self.hints_shown.borrow_mut();
        let new_hint = failure
            .hint
            .as_ref()
            .filter(|hint| !shown.contains(hint))
            .cloned();
        if let Some(hint) = &new_hint {
            shown.push(hint.clone());
        }
        let new_hint = new_hint.map(|hint| values.fill(&hint));
        err(&error_text(
            context,
            &failure.message,
            new_hint.as_deref(),
            self.colour,
        ));
    }

    /// What a command did or is doing, on stderr; silenced by `--quiet`.
    pub fn info(&self, message: &str) {
        if !self.quiet {
            err(&format!("safe-ad: {message}\n"));
        }
    }

    pub fn warning(&self, message: &str) {
        let label = paint(self.colour, WARNING, "warning:");
        err(&format!("safe-ad: {label} {message}\n"));
    }

    /// A note said at most once per run (with the hints, which are said once too).
    fn note_once(&self, message: &str) {
        let mut said = self.hints_shown.borrow_mut();
        if !said.iter().any(|already| already == message) {
            said.push(message.to_string());
            drop(said);
            self.note(message);
        }
    }

    /// Something worth knowing that is not a problem; silenced by `--quiet`.
    pub fn note(&self, message: &str) {
        if !self.quiet {
            let label = paint(self.colour, NOTE, "note:");
            err(&format!("{label} {}\n", code_in(self.colour, message)));
        }
    }

    /// `--dry-run` and `--curl`: what would be sent for one request, as request line, headers
    /// and body, or as a curl command. A handle an earlier answer will give shows as
    /// `{handleId}`. curl reads the token from where safe-ad found it (`token`), never from the
    /// command line itself.
    pub fn request_described(
        &self,
        launcher: &Launcher,
        request: &Request<Slot>,
        as_curl: bool,
        token: Option<&Source>,
    ) {
        let url = launcher.url(request);
        let json = request.json();
        let text = if as_curl {
            // --fail-with-body: a line whose request fails exits non-zero (22), as safe-ad
            // would, and still shows the launcher's error.
            let mut text = format!(
                "curl -sS --fail-with-body -X {} -H \"Authorization: Bearer {}\"",
                request.method(),
                curl_token(token)
            );
            // A handle an earlier answer gives becomes a shell variable the person sets, and
            // curl must not read its braces as a URL pattern. Unset, the shell stops at the
            // line with the words below rather than send a request without the handle.
            let (url, quote) = match slot_field(request) {
                Some(field) => {
                    let variable = shell_name(field);
                    self.note_once(&format!(
                        "{variable} in the lines below stands for the \"{field}\" that the line before it answers: set it ({variable}=...) before running them"
                    ));
                    (
                        url.replace(
                            &format!("{{{field}}}"),
                            &format!(
                                "${{{variable}:?set {variable} to the {field} answered above}}"
                            ),
                        ),
                        '"',
                    )
                }
                None => (url, '\''),
            };
            if let Some(json) = &json {
                text.push_str(&format!(" -H 'Content-Type: application/json' -d '{json}'"));
            }
            text.push_str(&format!(" {quote}{url}{quote}\n"));
            text
        } else {
            let mut text = format!("{} {url}\n", request.method());
            for (name, value) in launcher.shown_request_headers() {
                text.push_str(&format!("  {name}: {value}\n"));
            }
            if let Some(json) = &json {
                text.push_str(&format!(
                    "  content-type: application/json\n  body: {json}\n"
                ));
            }
            text
        };
        self.out(&text);
    }

    /// `--curl` with a token that no line can fetch again (standard input) or no token at all.
    pub fn curl_token_note(&self, source: Option<&Source>) {
        let why = match source {
            Some(Source::Stdin) => "the token came from standard input".to_string(),
            Some(Source::TokenPipe(path)) => format!(
                "the token came from {}, which cannot be read again (a pipe)",
                path.display()
            ),
            None => "no token was found".to_string(),
            Some(_) => return,
        };
        self.note(&format!(
            "{why}: export {} before running these lines",
            crate::settings::ENV_TOKEN
        ));
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

    /// `auth status`: where the launcher is, the token (masked) and where it came from, and
    /// what the launcher said of it; one JSON object with `--json`, nothing with `--quiet`.
    pub fn auth_status(
        &self,
        settings: &Settings,
        answer: StatusAnswer,
        failure: Option<&Failure>,
    ) {
        let launcher = (settings.launcher.base(), &settings.launcher_source);
        let token = settings
            .token
            .as_ref()
            .map(|(token, source)| (token.mask(), source));
        if self.json {
            let mut object = json!({
                "launcher_url": shown_setting(json!(launcher.0), Some(launcher.1)),
                "token": match &token {
                    Some((masked, source)) => shown_setting(json!(masked), Some(source)),
                    None => shown_setting(Value::Null, None),
                },
                "status": answer.name(),
                "ok": failure.is_none(),
            });
            match failure {
                Some(failure) => add_error(&mut object, failure, &Values::default()),
                None => object["exit_code"] = json!(0),
            }
            self.out(&json_line(&object));
            return;
        }
        if self.quiet {
            return;
        }
        let token = match token {
            Some((masked, source)) => format!("{masked} ({source})"),
            None => "none".to_string(),
        };
        let status = match answer {
            StatusAnswer::Accepted => "accepted by the launcher".to_string(),
            StatusAnswer::NotAccepted(class) => format!("not accepted ({})", class.name()),
            StatusAnswer::Unreachable => "launcher not reachable".to_string(),
            StatusAnswer::NoToken => "no token to check".to_string(),
        };
        self.out(&format!(
            "launcher  {} ({})\ntoken     {token}\nstatus    {status}\n",
            launcher.0, launcher.1
        ));
    }

    /// `auth login` without a terminal: what it is waiting for.
    pub fn login_waiting(&self, base: &str) {
        self.info(&login_waiting_text(base));
    }

    /// `auth login` on a terminal: a spinner with the same words, until the future is dropped.
    /// With `--quiet` nothing is drawn: the wait is no result, and errors still come.
    pub async fn login_spinner(&self, base: &str) -> std::convert::Infallible {
        if self.quiet {
            return std::future::pending().await;
        }
        spin(&login_waiting_text(base)).await
    }

    /// Erases the spinner's line (none was drawn with `--quiet`).
    pub fn clear_spinner(&self) {
        if self.quiet {
            return;
        }
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

    pub fn not_logged_in(&self) {
        self.info("not logged in: no token found, so there is nothing to revoke");
    }

    pub fn token_removed(&self, path: &Path) {
        self.info(&format!("removed the token from {}", path.display()));
    }

    pub fn token_not_managed(&self, source: &Source) {
        self.info(&format!(
            "the token came from {source}, which safe-ad does not manage: remove it there"
        ));
    }

    /// `config path`: the path, or with `--json` the path and whether the file exists.
    pub fn config_path(&self, path: &Path) {
        if self.json {
            self.out(&json_line(&json!({
                "path": path.display().to_string(),
                "exists": path.exists(),
            })));
        } else {
            self.out(&format!("{}\n", path.display()));
        }
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

    /// `config show`: every key's effective value and source, then the file; with `--json`
    /// one object keyed by the config file's keys.
    pub fn config_show(&self, settings: &Settings) {
        let rows: Vec<(Key, Value, Option<&Source>)> = Key::ALL
            .iter()
            .map(|key| match key {
                Key::LauncherUrl => (
                    *key,
                    json!(settings.launcher.base()),
                    Some(&settings.launcher_source),
                ),
                Key::Token => match &settings.token {
                    Some((token, source)) => (*key, json!(token.mask()), Some(source)),
                    None => (*key, Value::Null, None),
                },
                Key::TimeoutSecs => (
                    *key,
                    json!(settings.timeout.as_secs_f64()),
                    Some(&settings.timeout_source),
                ),
            })
            .collect();
        let exists = settings.config_path.as_ref().map(|path| path.exists());
        if self.json {
            let mut object = serde_json::Map::new();
            for (key, value, source) in rows {
                object.insert(key.name().to_string(), shown_setting(value, source));
            }
            object.insert(
                "config_file".to_string(),
                json!({
                    "path": settings.config_path.as_ref().map(|path| path.display().to_string()),
                    "exists": exists.unwrap_or(false),
                }),
            );
            self.out(&json_line(&Value::Object(object)));
            return;
        }
        let mut text = String::new();
        for (key, value, source) in rows {
            let name = key.name();
            let value = match value {
                Value::String(text) => text,
                Value::Null => "none".to_string(),
                // Seconds as a person writes them: 12, 0.5.
                Value::Number(number) => number
                    .as_f64()
                    .map_or(number.to_string(), |secs| secs.to_string()),
                other => other.to_string(),
            };
            match source {
                Some(source) => text.push_str(&format!("{name:<14}{value}  ({source})\n")),
                None => text.push_str(&format!("{name:<14}{value}\n")),
            }
        }
        let file = match (&settings.config_path, exists) {
            (Some(path), Some(true)) => format!("{}  (exists)", path.display()),
            (Some(path), _) => format!("{}  (does not exist yet)", path.display()),
            (None, _) => "none (no home directory; set SAFE_AD_CONFIG_DIR)".to_string(),
        };
        text.push_str(&format!("{:<14}{file}\n", "config file"));
        self.out(&text);
    }

    /// `completions SHELL`: the script, as generated.
    pub fn completion(&self, script: &[u8]) {
        self.out(&String::from_utf8_lossy(script));
    }

    /// Help text that was asked for, on stdout.
    pub fn help(&self, text: &str) {
        self.out(text);
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
                let label = paint(self.colour, ERROR, "error:");
                err(&format!("safe-ad: {label} {text}"));
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
    NoToken,
}

impl StatusAnswer {
    /// The `status` value of `auth status --json`.
    fn name(self) -> &'static str {
        match self {
            StatusAnswer::Accepted => "accepted",
            StatusAnswer::NotAccepted(_) => "not_accepted",
            StatusAnswer::Unreachable => "unreachable",
            StatusAnswer::NoToken => "no_token",
        }
    }
}

/// A setting as `config show --json` and `auth status --json` give it: its value, the kind
/// of place it came from, and which one (the flag, env var or file).
fn shown_setting(value: Value, source: Option<&Source>) -> Value {
    let (kind, from) = match source {
        None => (Value::Null, Value::Null),
        Some(Source::Flag(flag)) => (json!("flag"), json!(flag)),
        Some(Source::TokenFile(path) | Source::TokenPipe(path)) => {
            (json!("token_file"), json!(path.display().to_string()))
        }
        Some(Source::Env(var)) => (json!("env"), json!(var)),
        Some(Source::ConfigFile(path)) => (json!("config_file"), json!(path.display().to_string())),
        Some(Source::Default) => (json!("default"), Value::Null),
        Some(Source::Stdin) => (json!("stdin"), Value::Null),
    };
    json!({ "value": value, "source": kind, "from": from })
}

/// The summary line, when there is one: for more than one handle, or when standard input was
/// left unread (its length is unknown). The total counts every handle given or read, whatever
/// became of it.
fn summary_text(
    tally: &Tally,
    cancelled: u64,
    not_started: u64,
    unread_input: bool,
) -> Option<String> {
    let total = tally.done() + cancelled + not_started;
    if total == 0 && !unread_input {
        // Only standard input can hold no handle at all; a silent exit 0 would hide it.
        return Some("0 handles: standard input held none\n".to_string());
    }
    if total < 2 && !unread_input {
        return None;
    }
    let mut line = format!(
        "{total} {}: {} ok, {} failed",
        if total == 1 { "handle" } else { "handles" },
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
    line.push('\n');
    Some(line)
}

/// The shell words that give the token to a `--curl` line, from where safe-ad found it: the
/// line must work when pasted, and must not contain the token itself.
fn curl_token(source: Option<&Source>) -> String {
    match source {
        Some(Source::ConfigFile(_)) => "$(safe-ad auth token)".to_string(),
        Some(Source::TokenFile(path)) => format!(
            "$(safe-ad --token-file {} auth token)",
            shell_quote(&path.display().to_string())
        ),
        Some(Source::Env(var)) => format!("${var}"),
        Some(Source::Flag(_) | Source::Stdin | Source::TokenPipe(_) | Source::Default) | None => {
            format!("${}", crate::settings::ENV_TOKEN)
        }
    }
}

/// The answer field a request waits for, if it names a handle not known yet.
fn slot_field(request: &Request<Slot>) -> Option<&'static str> {
    [request.handle(), request.data_id()]
        .into_iter()
        .find_map(|slot| match slot {
            Some(Slot::FromAnswer(field)) => Some(field),
            _ => None,
        })
}

/// `dataIdHandle` as a shell variable: `DATA_ID_HANDLE`.
fn shell_name(field: &str) -> String {
    let mut name = String::new();
    for c in field.chars() {
        if c.is_ascii_uppercase() {
            name.push('_');
        }
        name.push(c.to_ascii_uppercase());
    }
    name
}

/// A word the shell reads back as `text`.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The counts a fetch gave, as the info line after `open` and `reopen` shows them.
fn fetched_counts(fetched: &Fetched) -> String {
    format!(
        "version {}, data {}, deleted {}",
        fetched.version, fetched.data_length, fetched.deleted_data_length
    )
}

fn login_waiting_text(base: &str) -> String {
    format!("waiting for approval in the launcher at {base} (Ctrl-C cancels)")
}

/// A request and its answer as `--verbose` shows them; the token is masked.
fn exchange_text(launcher: &Launcher, step: &Step) -> String {
    let mut text = format!(
        "> {} {}\n",
        step.request.method(),
        launcher.url(&step.request)
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

/// The values of the request a hint follows, for its placeholders (`outcome::fill_hint`).
#[derive(Default)]
struct Values {
    handle: Option<u64>,
    name: Option<String>,
}

impl Values {
    /// What one request knows: its handle and the name it asks about.
    fn of(request: &Request) -> Values {
        Values {
            handle: request.handle().map(|handle| handle.0),
            name: request.name().map(|name| name.to_string()),
        }
    }

    fn fill(&self, hint: &str) -> String {
        outcome::fill_hint(hint, self.handle, self.name.as_deref())
    }
}

fn step_json(launcher: &Launcher, line: Option<u64>, step: &Step, values: &Values) -> Value {
    let request = &step.request;
    let handle = request.handle().or(match request.operation() {
        Operation::Create | Operation::Fetch => step.new_handle(),
        _ => None,
    });
    let mut object = json!({
        "handle": handle.map(|handle| handle.0),
        "operation": request.operation().name(),
        "method": request.method().as_str(),
        "url": launcher.url(request),
        "status": step.status,
        "ok": step.result.is_ok(),
        "elapsed_ms": (step.elapsed.as_secs_f64() * 10_000.0).round() / 10.0,
    });
    if let Some(line) = line {
        object["line"] = json!(line);
    }
    if let Some(name) = request.name() {
        object["name"] = json!(name.to_string());
    }
    let data_id = request.data_id().or(match request.operation() {
        Operation::DataId => step.new_handle(),
        _ => None,
    });
    if let Some(data_id) = data_id {
        object["data_id_handle"] = json!(data_id.0);
    }
    if let Some(index) = request.index() {
        object["index"] = json!(index);
    }
    match &step.result {
        Ok(Reply::Metadata(metadata)) => object["metadata"] = json!(metadata),
        Ok(Reply::Fetched(fetched)) => {
            object["metadata"] = json!({
                "isOwner": fetched.is_owner,
                "version": fetched.version,
                "filterType": fetched.filter_type,
                "dataLength": fetched.data_length,
                "deletedDataLength": fetched.deleted_data_length,
            })
        }
        Ok(_) => {}
        Err(failure) => add_error(&mut object, failure, values),
    }
    object
}

fn invalid_json(item: &Item, failure: &Failure) -> Value {
    let mut object = json!({
        "handle": null,
        "input": item.input,
        "line": item.line,
        "ok": false,
    });
    add_error(&mut object, failure, &Values::default());
    object
}

fn add_error(object: &mut Value, failure: &Failure, values: &Values) {
    let answer = failure.answer.as_ref();
    object["error"] = json!({
        "class": failure.class.name(),
        "status": answer.map(|a| a.status),
        "error_code": answer.and_then(|a| a.error_code),
        "description": answer.map_or(failure.message.as_str(), |a| a.description.as_str()),
        "hint": failure.hint.as_deref().map(|hint| values.fill(hint)),
    });
    object["exit_code"] = json!(failure.exit_code());
}

fn json_line(value: &Value) -> String {
    let mut line = value.to_string();
    line.push('\n');
    line
}

/// `safe-ad: error: <context>: <what>` and, where there is one, `hint: <what to do>`; with
/// `colour`, the labels coloured and the commands in backticks bold.
fn error_text(context: Option<&str>, message: &str, hint: Option<&str>, colour: bool) -> String {
    let label = paint(colour, ERROR, "error:");
    let mut text = match context {
        Some(context) => format!("safe-ad: {label} {context}: {message}\n"),
        None => format!("safe-ad: {label} {message}\n"),
    };
    if let Some(hint) = hint {
        let label = paint(colour, HINT, "hint:");
        text.push_str(&format!("{label} {}\n", code_in(colour, hint)));
    }
    text
}

const ERROR: Style = Style::new()
    .bold()
    .fg_color(Some(Color::Ansi(AnsiColor::Red)));
const WARNING: Style = Style::new()
    .bold()
    .fg_color(Some(Color::Ansi(AnsiColor::Yellow)));
const HINT: Style = WARNING;
const NOTE: Style = Style::new().bold();
/// A command or value in a hint or note (written between backticks).
const CODE: Style = Style::new().bold();

/// `text` in `style` when colouring, else as it is.
fn paint(colour: bool, style: Style, text: &str) -> String {
    if colour {
        format!("{style}{text}{style:#}")
    } else {
        text.to_string()
    }
}

/// The parts of `text` between backticks in bold when colouring (the backticks stay, so the
/// words read the same either way).
fn code_in(colour: bool, text: &str) -> String {
    if !colour {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for (at, part) in text.split('`').enumerate() {
        if at > 0 {
            out.push('`');
        }
        // Odd parts are inside backticks; an unpaired last one is left plain.
        if at % 2 == 1 && text.matches('`').count() > at {
            out.push_str(&paint(true, CODE, part));
        } else {
            out.push_str(part);
        }
    }
    out
}

/// Whether the reader of stdout has gone: a pipe whose reading end was closed polls as an
/// error. A file or a terminal never does.
#[cfg(unix)]
fn stdout_hung_up() -> bool {
    use rustix::event::{poll, PollFd, PollFlags};
    let stdout = std::io::stdout();
    let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
    match poll(&mut fds, Some(&rustix::event::Timespec::default())) {
        Ok(_) => fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP),
        Err(_) => false,
    }
}

#[cfg(not(unix))]
fn stdout_hung_up() -> bool {
    false
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

// ---- show, and the one-item changes (remove, restore, purge, append) -------------------------

impl Reporter {
    /// The first Ctrl-C while launcher handles are held: what happens now, and how to leave at
    /// once. Said even with `--quiet`: the wait that follows needs a reason.
    pub fn stopping(&self) {
        self.clear_progress();
        err("safe-ad: stopping: no new requests; giving back the launcher handles it holds (Ctrl-C again leaves at once)\n");
    }

    /// `--verbose`: each request and its answer.
    pub fn exchanges(&self, launcher: &Launcher, steps: &[Step]) {
        for step in steps.iter().filter(|step| step.exchange.is_some()) {
            err(&exchange_text(launcher, step));
        }
    }

    /// A failure of one part of a `show`: `safe-ad: error: show 7, data item 2: ...`.
    pub fn show_failed(&self, command: &str, what: &str, failure: &Failure) {
        self.clear_progress();
        self.error(
            Some(&format!("{command}: {what}")),
            failure,
            &Values::default(),
        );
    }

    /// A live count of the items of one handle read so far, on a terminal's stderr only, once
    /// reading takes long enough to wonder.
    pub fn show_progress(&self, handle: Handle, done: u64, total: u64, started: Instant) {
        if self.quiet || total == 0 || started.elapsed() < Duration::from_millis(500) {
            return;
        }
        if let Some(drawn) = self.progress_drawn.get() {
            if drawn.elapsed() < Duration::from_millis(100) && done < total {
                return;
            }
        }
        if !stderr_is_terminal() {
            return;
        }
        const WIDTH: u64 = 30;
        let filled = (done.min(total) * WIDTH / total) as usize;
        err(&format!(
            "\r\x1b[2K[{}{}] {done}/{total} items of handle {handle}",
            "#".repeat(filled),
            ".".repeat(WIDTH as usize - filled),
        ));
        self.progress_drawn.set(Some(Instant::now()));
    }

    /// One handle of `show`: `--verbose` exchanges, then its block (or JSON object) on stdout,
    /// then an error on stderr for each part that could not be read. `you`: the user's own key,
    /// serialised, if it could be read; `separate`: a block came before this one.
    pub fn shown(
        &self,
        launcher: &Launcher,
        shown: &Shown,
        you: Option<&[u8]>,
        range: IndexRange,
        separate: bool,
    ) {
        self.clear_progress();
        self.wrote.set(false);
        self.exchanges(launcher, &shown.steps);
        for key in &shown.filter {
            self.exchanges(launcher, &key.steps);
        }
        for item in shown.data.iter().chain(&shown.deleted) {
            self.exchanges(launcher, &item.steps);
        }
        if self.json {
            self.out(&json_line(&shown_json(shown, you)));
        } else if shown.metadata.is_ok() {
            let gap = if separate { "\n" } else { "" };
            self.out(&format!("{gap}{}", shown_text(shown, you, range)));
        }
        let command = format!("show {}", shown.handle);
        if let Err(failure) = &shown.metadata {
            let values = Values {
                handle: Some(shown.handle.0),
                name: None,
            };
            self.error(Some(&command), failure, &values);
        }
        for key in &shown.filter {
            for failure in &key.failures {
                self.show_failed(&command, &format!("filter key {}", key.index), failure);
            }
        }
        for item in shown.data.iter().chain(&shown.deleted) {
            for failure in &item.failures {
                let what = format!("{} item {}", section_name(item.section), item.index);
                self.show_failed(&command, &what, failure);
            }
        }
    }

    /// After `remove`, `restore` or `purge` of more than one index: how many did what.
    pub fn index_summary(&self, tally: &Tally) {
        let total = tally.done() + tally.not_started;
        if self.quiet || total < 2 {
            return;
        }
        let mut line = format!("{total} indexes: {} ok, {} failed", tally.ok, tally.failed);
        if tally.not_started > 0 {
            line.push_str(&format!(", {} not started", tally.not_started));
        }
        err(&format!("{line}\n"));
    }

    /// After a one-item change: it is only in the launcher's copy until saved; `not_saved`:
    /// `--save` was asked for, but an index failed, so nothing was saved.
    pub fn item_save_note(&self, operation: Operation, handle: Handle, not_saved: bool) {
        let change = match operation {
            Operation::Remove => "a removal",
            Operation::Restore => "a restore",
            _ => "a purge",
        };
        if operation == Operation::Restore && !not_saved {
            return self.note(&format!(
                "a restore changes only the launcher's copy: restore before saving undoes a removal; once saved, it only takes the item off the deleted list (the launcher's save carries no data items, so the network does not list it as data again); save with: safe-ad post {handle}"
            ));
        }
        if not_saved {
            self.note(&format!(
                "not saved, because an index failed: the changes that succeeded are only in the launcher's copy; save them with: safe-ad post {handle}"
            ));
        } else {
            self.note(&format!(
                "{change} changes only the launcher's copy; save it to the network with: safe-ad post {handle} (or use --save post)"
            ));
        }
    }

    /// The steps of `append`: `--verbose` exchanges, a JSON object per request, the append's
    /// own line (`append 7: ok`), an error for each step that failed, and what to do to see it.
    fn append_steps(&self, launcher: &Launcher, steps: &[Step]) {
        for step in steps {
            if step.exchange.is_some() {
                err(&exchange_text(launcher, step));
            }
            let values = Values::of(&step.request);
            if self.json {
                self.out(&json_line(&step_json(launcher, None, step, &values)));
            }
            match (&step.result, step.request) {
                (Err(failure), _) => self.error(Some(&step.request.subject()), failure, &values),
                (Ok(_), Request::Append { handle, .. }) => {
                    if !self.json {
                        self.ok(&step.request);
                    }
                    self.info(&format!(
                        "appended on the network; handle {handle}'s copy does not show it: `safe-ad reopen {handle}` gets one that does"
                    ));
                }
                (Ok(_), _) => {}
            }
        }
    }
}

fn section_name(section: Section) -> &'static str {
    match section {
        Section::Data => "data",
        Section::Deleted => "deleted",
    }
}

fn yes_no(value: bool) -> &'static str {
    if value {
        "yes"
    } else {
        "no"
    }
}

/// A signer or filter key as shown: its fingerprint, or `you`.
fn key_text(key: Option<&[u8]>, you: Option<&[u8]>) -> String {
    match key {
        Some(key) if Some(key) == you => "you".to_string(),
        Some(key) => serialised::fingerprint(key),
        None => "?".to_string(),
    }
}

/// A failure in a few words, for the line of the part that could not be read (the whole
/// error goes to stderr): the launcher's code and description, or what happened.
fn failure_words(failure: &Failure) -> String {
    match failure.answer.as_ref() {
        Some(AnswerError {
            error_code: Some(code),
            description,
            ..
        }) => format!("errorCode {code}, {description}"),
        _ => failure.message.clone(),
    }
}

/// One handle of `show`, for people.
fn shown_text(shown: &Shown, you: Option<&[u8]>, range: IndexRange) -> String {
    let Ok(metadata) = &shown.metadata else {
        return String::new();
    };
    let mut text = format!(
        "handle {}: version {}, owner {}, data {}, deleted {}, filter {} ({} keys)",
        shown.handle,
        metadata.version,
        yes_no(metadata.is_owner),
        metadata.data_length,
        metadata.deleted_data_length,
        sanitize::line(metadata.filter_type.as_bytes(), 40),
        metadata.filter_length
    );
    if range != IndexRange::ALL {
        let end = range.end.map(|end| end.to_string()).unwrap_or_default();
        text.push_str(&format!("; showing indexes {}..{end}", range.start));
    }
    text.push('\n');
    for key in &shown.filter {
        let shown_key = match (&key.key, key.failures.first()) {
            (Some(bytes), _) if Some(bytes.as_slice()) == you => {
                format!("{} (you)", serialised::fingerprint(bytes))
            }
            (Some(bytes), _) => serialised::fingerprint(bytes),
            (None, Some(failure)) => format!("unreadable ({})", failure_words(failure)),
            (None, None) => "?".to_string(),
        };
        text.push_str(&format!("  filter key {}: {shown_key}\n", key.index));
    }
    for item in shown.data.iter().chain(&shown.deleted) {
        text.push_str(&item_text(item, you));
    }
    text
}

fn item_text(item: &ShownItem, you: Option<&[u8]>) -> String {
    let what = match &item.kind {
        Some(Kind::Structured {
            version,
            versions: Some(versions),
        }) => format!("structured data, type tag 501, version {version} ({versions} versions)"),
        Some(Kind::Structured { version, .. }) => format!("structured data, version {version}"),
        Some(Kind::Appendable {
            version,
            data_length,
            deleted_data_length,
            ..
        }) => format!(
            "appendable data, version {version}, data {data_length}, deleted {deleted_data_length}"
        ),
        None => "kind unknown".to_string(),
    };
    let mut line = format!(
        "  {} {}: {what}, signed by {}",
        section_name(item.section),
        item.index,
        key_text(item.signer.as_deref(), you)
    );
    if let Some(preview) = &item.preview {
        line.push_str(&format!(": {preview}"));
    }
    if let Some(failure) = item.failures.first() {
        line.push_str(&format!(" [unreadable: {}]", failure_words(failure)));
    }
    line.push('\n');
    if let Some(data_id) = &item.data_id {
        line.push_str(&format!("    data id {}\n", serialised::base64(data_id)));
    }
    if let Some(content) = &item.content {
        match serialised::full(content).as_slice() {
            [one] => line.push_str(&format!("    content {one}\n")),
            lines => {
                line.push_str(&format!("    content, {} bytes in hex:\n", content.len()));
                for hex in lines {
                    line.push_str(&format!("      {hex}\n"));
                }
            }
        }
    }
    line
}

/// One handle of `show`, for scripts: the keys README's JSON table lists.
fn shown_json(shown: &Shown, you: Option<&[u8]>) -> Value {
    let mut object = json!({ "handle": shown.handle.0 });
    match &shown.metadata {
        Err(failure) => {
            object["ok"] = json!(false);
            let values = Values {
                handle: Some(shown.handle.0),
                name: None,
            };
            add_error(&mut object, failure, &values);
            return object;
        }
        Ok(metadata) => {
            let keys: Vec<Value> = shown
                .filter
                .iter()
                .map(|key| json!(key.key.as_deref().map(serialised::fingerprint)))
                .collect();
            object["ok"] = json!(true);
            object["version"] = json!(metadata.version);
            object["is_owner"] = json!(metadata.is_owner);
            object["filter"] = json!({ "type": metadata.filter_type, "keys": keys });
            object["data_length"] = json!(metadata.data_length);
            object["deleted_data_length"] = json!(metadata.deleted_data_length);
        }
    }
    let items = |items: &[ShownItem]| -> Vec<Value> {
        items.iter().map(|item| item_json(item, you)).collect()
    };
    object["data"] = json!(items(&shown.data));
    object["deleted_data"] = json!(items(&shown.deleted));
    if let Some(failure) = shown.failures().next() {
        object["ok"] = json!(false);
        add_error(&mut object, failure, &Values::default());
    }
    object
}

fn item_json(item: &ShownItem, you: Option<&[u8]>) -> Value {
    let (kind, version, type_tag) = match &item.kind {
        Some(Kind::Structured { version, versions }) => (
            "structured-data",
            Some(*version),
            // The launcher tells apart only versioned structured data, which is type tag 501.
            versions.map(|_| 501),
        ),
        Some(Kind::Appendable { version, .. }) => ("appendable-data", Some(*version), None),
        None => ("unknown", None, None),
    };
    let mut object = json!({
        "index": item.index,
        "kind": kind,
        "data_id": item.data_id.as_deref().map(serialised::base64),
        "signer": item.signer.as_deref().map(serialised::fingerprint),
        "signer_is_you": match (&item.signer, you) {
            (Some(signer), Some(you)) => json!(signer.as_slice() == you),
            _ => Value::Null,
        },
        "type_tag": type_tag,
        "version": version,
        "preview": item.preview,
    });
    match &item.kind {
        Some(Kind::Structured {
            versions: Some(versions),
            ..
        }) => object["versions"] = json!(versions),
        Some(Kind::Appendable {
            data_length,
            deleted_data_length,
            filter_type,
            ..
        }) => {
            object["data_length"] = json!(data_length);
            object["deleted_data_length"] = json!(deleted_data_length);
            object["filter_type"] = json!(filter_type);
        }
        _ => {}
    }
    if let Some(content) = &item.content {
        object["content"] = json!(serialised::base64(content));
    }
    if let Some(failure) = item.failures.first() {
        let mut error = json!({});
        add_error(&mut error, failure, &Values::default());
        object["error"] = error["error"].take();
    }
    object
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_every_handle_and_says_one_handle_in_the_singular() {
        let tally = |ok, failed| Tally {
            ok,
            failed,
            ..Tally::default()
        };
        assert_eq!(summary_text(&tally(1, 0), 0, 0, false), None);
        assert_eq!(
            summary_text(&tally(0, 0), 0, 0, false).as_deref(),
            Some("0 handles: standard input held none\n")
        );
        assert_eq!(
            summary_text(&tally(0, 1), 0, 2, false).as_deref(),
            Some("3 handles: 0 ok, 1 failed, 2 not started\n")
        );
        assert_eq!(
            summary_text(&tally(1, 0), 1, 0, false).as_deref(),
            Some(
                "2 handles: 1 ok, 0 failed, 1 sent but not awaited (they may have taken effect)\n"
            )
        );
        assert_eq!(
            summary_text(&tally(1, 0), 0, 0, true).as_deref(),
            Some("1 handle: 1 ok, 0 failed, the rest of standard input not read\n")
        );
    }

    #[test]
    fn error_format() {
        assert_eq!(
            error_text(
                Some("put 7"),
                "the launcher answered 400",
                Some("do x"),
                false
            ),
            "safe-ad: error: put 7: the launcher answered 400\nhint: do x\n"
        );
        assert_eq!(
            error_text(None, "bad", None, false),
            "safe-ad: error: bad\n"
        );
    }

    #[test]
    fn colour_marks_the_labels_and_the_commands_in_backticks() {
        let text = error_text(None, "bad", Some("run `safe-ad reopen 2` now"), true);
        assert_eq!(
            text,
            "safe-ad: \x1b[1m\x1b[31merror:\x1b[0m bad\n\
\x1b[1m\x1b[33mhint:\x1b[0m run `\x1b[1msafe-ad reopen 2\x1b[0m` now\n"
        );
    }
}
