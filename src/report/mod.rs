//! Everything safe-ad prints: result lines on stdout, errors, hints, warnings and notes on
//! stderr, `--verbose` exchanges, dry-run and curl lines, batch summaries and progress, auth
//! status, config show and path, completions, and clap's own help and errors. (The emulator,
//! which shares nothing with the client, prints through its own crate's `log`.)
//!
//! It decides nothing: exit codes come from `outcome`. Output that cannot be written (a closed
//! pipe, as with `| head -1`) is dropped quietly rather than turned into a crash, and the
//! reporter remembers it, so a batch can be told to stop.
//!
//! This file holds what every family shares: the `Reporter` and its sinks (stdout, stderr;
//! `streams` writes them so that a reader that stopped reading cannot hold a stopped run),
//! colour, errors and hints, notes and `--verbose` exchanges. Every JSON object is printed by
//! `results`, which gathers a command's requests into one result per argument and runs `--jq`.
//! Each command family's words are in a file of their own, as more `impl Reporter` blocks:
//! `operations` (the one-request commands and batches), `show` (show and the one-item
//! changes), `status` (a copy against the network), `poll` (`wait`, `watch`), `filter` (who
//! may append: the filter's type and keys), `auth` (auth and config), `decode`
//! (serialised bytes), `emulator` (`emulator requests`, a client of a running emulator's
//! journal), `capture` (the fixture it writes and what it left out).

mod auth;
#[cfg(feature = "emulator")]
mod capture;
mod copies;
mod decode;
#[cfg(feature = "emulator")]
pub mod emulator;
mod filter;
pub mod json;
mod leases;
mod operations;
mod poll;
mod results;
mod saving;
mod shell;
mod show;
mod status;
mod streams;

#[cfg(feature = "emulator")]
pub use capture::fixture_text as capture_fixture;
pub use leases::left_requests;
pub use poll::{WaitEnd, Watching};
pub use shell::{
    prompt, safe_ad_typed_in_the_shell, variable_given_back, watch_event_words, watch_left_handles,
    watch_said, Capture,
};
use streams::{stdout_hung_up, Wrote};

use std::cell::{Cell, RefCell};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anstyle::{AnsiColor, Color, Style};

use crate::batch::show::{IndexRange, Kind, Section, Shown, ShownItem};
use crate::batch::{
    AppendRan, Appended, Made, Making, Ran, Record, RecordOutcome, Saved, Settled, Step, TakenCopy,
    Tally,
};
use crate::cli::ColorWhen;
use crate::config_file::Key;
use crate::handle::Handle;
use crate::input::Item;
use crate::jq;
use crate::launcher::{serialised, Fetched, Launcher, Metadata, Operation, Request, Slot};
use crate::name::Name;
use crate::outcome::{AnswerError, Class, Done, Failure, Hint, Reply};
use crate::sanitize;
use crate::secret::Secret;
use crate::settings::{Settings, Source, ENV_INTERRUPT_WAIT};

impl Reporter {
    pub fn new(quiet: bool, json: bool, colour: ColorWhen) -> Reporter {
        Reporter {
            quiet,
            json,
            filter: None,
            filter_failed: Cell::new(false),
            filter_cut: Cell::new(false),
            colour: match colour {
                ColorWhen::Always => true,
                ColorWhen::Never => false,
                ColorWhen::Auto => stderr_is_terminal(),
            },
            progress_drawn: Cell::new(None),
            stdout_closed: Cell::new(false),
            wrote: Cell::new(false),
            hints_shown: RefCell::new(Vec::new()),
            emulator_noted: Cell::new(false),
            notes_shown: RefCell::new(Vec::new()),
            write_failed: RefCell::new(None),
            stopped_writing: Cell::new(false),
            copy: Cell::new(None),
            verbose: false,
            result: RefCell::new(None),
            held: RefCell::new(None),
            capture: None,
        }
    }

    /// A line of a `shell` session (`capture` is the session's): its hints and suggestions are
    /// written as typed there (`reopen 7`, not `safe-ad reopen 7`), and what it prints on stdout
    /// is kept in `capture` while a `NAME = COMMAND` runs ([`Capture::captured`]).
    pub fn in_session(mut self, capture: Option<Arc<Capture>>) -> Reporter {
        self.capture = capture;
        self
    }

    /// With `verbose`, each `--json` result carries the requests behind it (`requests`).
    pub fn verbose(mut self, verbose: bool) -> Reporter {
        self.verbose = verbose;
        self
    }

    /// The reporter, with `--jq`'s filter run over each JSON object it prints (`--jq` implies
    /// `--json`, which `json` already says).
    pub fn filtered(mut self, filter: Option<jq::Filter>) -> Reporter {
        self.filter = filter;
        self
    }

    /// The fresh copy of a name that the words now being said are about, if any: its handle is
    /// written as the name ([`Reporter::handle_word`]), since the person gave the name and the
    /// copy is given back before the run ends. `None` when the run is done with it.
    pub fn on_copy(&self, copy: Option<TakenCopy>) {
        self.copy.set(copy);
    }

    /// A handle as the person knows it: the name, for the fresh copy of a name.
    fn handle_word(&self, handle: Handle) -> String {
        match self.copy.get() {
            Some(copy) if copy.handle == handle => copy.name.to_string(),
            _ => handle.to_string(),
        }
    }

    /// Whether `handle` is a name's fresh copy, which the run gives back: notes on what a
    /// copy holds after a save are about a handle nobody will hold.
    fn is_copy(&self, handle: Handle) -> bool {
        self.copy.get().is_some_and(|copy| copy.handle == handle)
    }

    /// What a request is about, for messages, with the handle as the person knows it.
    fn subject(&self, request: &Request) -> String {
        request.subject_as(|handle| self.handle_word(handle))
    }

    /// The values a hint after `request` fills in, the handle as the person knows it.
    fn values(&self, request: &Request) -> Values {
        Values {
            handle: request.handle().map(|handle| self.handle_word(handle)),
            copy: request.handle().is_some_and(|handle| self.is_copy(handle)),
            ..Values::of(request)
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

    /// Whether stdout's reader has gone away, asked of the pipe whatever was written: for a
    /// run that may write nothing for a long while (`watch` with no change), which a write
    /// alone would never tell.
    pub fn stdout_gone(&self) -> bool {
        if !self.stdout_closed.get() && stdout_hung_up() {
            self.stdout_closed.set(true);
        }
        self.stdout_closed.get()
    }

    /// Writes data to stdout, whole lines at once so a reader never sees half a line. A closed
    /// stdout is not worth a crash or an error message: it is noted, and batches stop early.
    fn out(&self, text: &str) {
        self.raw(text.as_bytes());
    }

    fn clear_progress(&self) {
        if self.progress_drawn.take().is_some() {
            self.clear_spinner();
        }
    }

    /// A failure that is not about one handle (arguments, settings, internal).
    pub fn failed(&self, failure: &Failure) {
        self.error(None, failure, &Values::default());
    }

    /// The failure that ends a run: on stderr, and with `--json` also as one object on stdout
    /// (`{"ok": false, "error": {...}, "exit_code": N}`), so that a reader of stdout learns
    /// why there is nothing else.
    pub fn ended(&self, failure: &Failure) {
        if self.json && !self.result_ended(failure) {
            self.print_held();
            self.print_json(&json::Ended {
                ok: false,
                error: results::error_json(failure, &Values::default()),
                exit_code: failure.exit_code(),
            });
        }
        self.failed(failure);
    }

    /// Whether the once-a-run note about `about` has not been said yet; it counts as said now.
    fn first_time(&self, about: &'static str) -> bool {
        let mut said = self.notes_shown.borrow_mut();
        if said.contains(&about) {
            return false;
        }
        said.push(about);
        true
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
        let new_hint = new_hint.map(|hint| self.as_typed(&values.fill(&hint)).into_owned());
        err(&error_text(
            context,
            &self.as_typed(&failure.message),
            new_hint.as_deref(),
            self.colour,
        ));
        drop(shown);
        self.emulator_note(failure, new_hint.as_deref());
    }

    /// After a token that is missing or rejected, or a launcher that refused the connection,
    /// while a background emulator of the user's runs: once a run, how a shell that lost the
    /// emulator's variables gets them again (never `auth login`, which would write an
    /// emulator's token into the config file). Not where the hint says it already.
    fn emulator_note(&self, failure: &Failure, hint: Option<&str>) {
        let about = matches!(failure.class, Class::Auth | Class::Unreachable);
        if !about
            || hint.is_some_and(|hint| hint.contains("emulator env"))
            || self.emulator_noted.replace(true)
        {
            return;
        }
        if let Some((pid, url)) = crate::settings::background_emulators().first() {
            self.note(&format!(
                "a background emulator of yours runs at {url} (process {pid}); if this shell \
                 lost its variables, `eval \"$({})\"` sets them again (`auth login` would \
                 write the emulator's token into the config file)",
                crate::settings::emulator_env(*pid)
            ));
        }
    }

    /// What a command did or is doing, on stderr; silenced by `--quiet`.
    pub fn info(&self, message: &str) {
        if !self.quiet {
            err(&format!("safe-ad: {}\n", self.as_typed(message)));
        }
    }

    pub fn warning(&self, message: &str) {
        let label = paint(self.colour, WARNING, "warning:");
        err(&format!("safe-ad: {label} {}\n", self.as_typed(message)));
    }

    /// Something worth knowing that is not a problem; silenced by `--quiet`.
    pub fn note(&self, message: &str) {
        if !self.quiet {
            let label = paint(self.colour, NOTE, "note:");
            let message = self.as_typed(message);
            err(&format!("{label} {}\n", code_in(self.colour, &message)));
        }
    }

    /// Content as raw bytes on stdout (`cat`), exactly as it came: data is never scrubbed or
    /// escaped. A closed stdout is noted as for any write, and so is one whose reader stopped
    /// reading once a stop signal came (`streams`): nothing more is written there, and the run
    /// ends as interrupted ([`Reporter::finish`]).
    pub fn raw(&self, bytes: &[u8]) {
        // A shell's `NAME = COMMAND` keeps what the command prints.
        if self
            .capture
            .as_ref()
            .is_some_and(|capture| capture.kept(bytes))
        {
            self.wrote.set(true);
            return;
        }
        if self.stdout_closed.get() {
            return;
        }
        self.wrote.set(true);
        let stdout = std::io::stdout().lock();
        match streams::write_unless_stopped(&stdout, bytes) {
            Ok(Wrote::Whole) => {}
            Ok(Wrote::Stopped) => {
                self.stdout_closed.set(true);
                self.stopped_writing.set(true);
            }
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => self.stdout_closed.set(true),
            Err(e) => {
                self.stdout_closed.set(true);
                self.write_failed.borrow_mut().get_or_insert(e.to_string());
            }
        }
    }

    /// The end of a run whose stdout could not be written (`> file` on a full disk): said on
    /// stderr, and a run that would have exited 0 exits 1 instead (its output is not whole).
    /// A reader that went away (`| head -1`) is not such a failure.
    pub fn finish(&self, done: Done) -> Done {
        self.flush_results();
        if self.stopped_writing.get() {
            let cut = format!(
                "standard output's reader took nothing for {} after the signal; what was printed is not whole",
                crate::outcome::seconds(crate::signals::wait())
            );
            // A run already ended as interrupted says why once.
            if done == Done::Failed(Class::Interrupted) {
                self.note(&cut);
            } else {
                self.failed(&Failure::new(
                    Class::Interrupted,
                    format!("interrupted while writing to standard output: {cut}"),
                ));
            }
            return Done::Failed(Class::Interrupted);
        }
        // A filter cut short by a stop signal, or one that failed on an object (each failure
        // said where it came): what was asked for did not all reach stdout.
        let done = match done {
            Done::Success if self.filter_cut.get() => {
                self.failed(&Failure::new(
                    Class::Interrupted,
                    "interrupted while --jq's filter gave values; what was printed is not whole",
                ));
                Done::Failed(Class::Interrupted)
            }
            Done::Success if self.filter_failed.get() => Done::Failed(Class::Unexpected),
            done => done,
        };
        let Some(why) = self.write_failed.borrow().clone() else {
            return done;
        };
        let failure = Failure::new(
            Class::Unexpected,
            format!("could not write to standard output ({why}); what was printed is not whole"),
        )
        .with_hint("check the file or device stdout goes to (a full disk?) and run it again");
        self.failed(&failure);
        match done {
            Done::Success => Done::Failed(Class::Unexpected),
            done => done,
        }
    }

    /// `completions SHELL`: the script, as generated.
    pub fn completion(&self, script: &[u8]) {
        self.out(&String::from_utf8_lossy(script));
    }

    /// `man [COMMAND...]`: the page, as roff.
    pub fn man_page(&self, roff: &str) {
        self.out(roff);
    }

    /// `man --list`: each page's file name, then the words of its command, one page a line.
    pub fn man_list(&self, pages: &[(String, Vec<String>)]) {
        let mut text = String::new();
        for (file, words) in pages {
            text.push_str(file);
            for word in words {
                text.push(' ');
                text.push_str(word);
            }
            text.push('\n');
        }
        self.out(&text);
    }

    /// Help text that was asked for, on stdout.
    pub fn help(&self, text: &str) {
        self.out(text);
    }

    /// Help and version go to stdout (they were asked for); help shown because nothing was
    /// given goes to stderr; any other clap error in safe-ad's error format.
    pub fn clap(&self, error: &clap::Error) {
        let text = error.render().to_string();
        // Inside a shell its usage line names the command as typed there.
        let text = match error.kind() {
            clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => text,
            _ => self.usage_as_typed(&text).into_owned(),
        };
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

    /// `safe-ad --version` typed alone: the line clap prints for it.
    pub fn version(&self) {
        self.out(&format!("safe-ad {}\n", env!("CARGO_PKG_VERSION")));
    }

    /// The first Ctrl-C while launcher handles are held: what happens now, and how to leave at
    /// once. Said even with `--quiet`: the wait that follows needs a reason.
    pub fn stopping(&self, wait: Duration) {
        self.clear_progress();
        if wait.is_zero() {
            err(&format!("safe-ad: stopping: no new requests, and no wait for the launcher ({ENV_INTERRUPT_WAIT} is 0)\n"));
            return;
        }
        let most = crate::outcome::seconds(wait);
        err(&format!("safe-ad: stopping: no new requests; giving back the launcher handles it holds (for {most} at most; a second Ctrl-C, or any second stop signal, leaves at once)\n"));
    }
}

/// How much of a body `--verbose` shows.
const VERBOSE_BODY_CHARS: usize = 2000;

/// Prints results and problems; `quiet` silences success lines only, `json` turns stdout into
/// JSON Lines.
pub struct Reporter {
    quiet: bool,
    json: bool,
    /// `--jq`'s filter, run over every JSON object printed ([`Reporter::print_json`]).
    filter: Option<jq::Filter>,
    /// The filter failed on an object: what was printed is not all that was asked for, and
    /// the run cannot exit 0.
    filter_failed: Cell<bool>,
    /// A stop signal ended the filter while it gave values: the run ends as interrupted.
    filter_cut: Cell<bool>,
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
    /// The hints already printed: a batch whose handles fail alike gives each hint once.
    hints_shown: RefCell<Vec<Hint>>,
    /// The note on a background emulator of the user's was said ([`Reporter::emulator_note`]).
    emulator_noted: Cell<bool>,
    /// The notes said once a run that were said already, by what they are about.
    notes_shown: RefCell<Vec<&'static str>>,
    /// Why stdout could not be written (a full disk, an I/O error; not a reader that left,
    /// which is `stdout_closed`): nothing more is written there, and the run cannot exit 0,
    /// since what it printed did not all arrive.
    write_failed: RefCell<Option<String>>,
    /// A stop signal came while stdout's reader took nothing: the rest of the output was not
    /// written, and the run ends as interrupted.
    stopped_writing: Cell<bool>,
    /// The fresh copy of a name the words are about ([`Reporter::on_copy`]).
    copy: Cell<Option<TakenCopy>>,
    /// `--verbose`: results carry their requests.
    verbose: bool,
    /// The `--json` result of the argument being worked on (`results`).
    result: RefCell<Option<results::Pending>>,
    /// A failed result not printed yet: what the run left behind joins it.
    held: RefCell<Option<json::ResultJson>>,
    /// Where a `shell`'s `NAME = COMMAND` keeps what the line prints on stdout
    /// ([`Reporter::in_session`]); `None` on a command line, whose words are then written for
    /// the system shell (`safe-ad reopen 7`), not as typed in `shell` (`reopen 7`).
    capture: Option<Arc<Capture>>,
}

/// The values of the request a hint follows, for the commands it suggests (`Hint::words`): the
/// handle as the person gave it (a name, for a name's fresh copy), and the name it asks about.
#[derive(Default)]
struct Values {
    handle: Option<String>,
    name: Option<String>,
    /// The handle is a name's fresh copy, which the run gives back: `handle` is that name.
    copy: bool,
}

impl Values {
    /// What one request knows: its handle and the name it asks about.
    fn of(request: &Request) -> Values {
        Values {
            handle: request.handle().map(|handle| handle.to_string()),
            name: request.name().map(|name| name.to_string()),
            copy: false,
        }
    }

    fn fill(&self, hint: &Hint) -> String {
        let copy = self.handle.as_deref().filter(|_| self.copy);
        copy.and_then(|name| hint.words_for_copy(name))
            .unwrap_or_else(|| hint.words(self.handle.as_deref(), self.name.as_deref()))
    }
}

/// A count with its noun in the right number: `no requests`, `1 request`, `2 requests`.
pub fn counted(n: u64, one: &str, many: &str) -> String {
    match n {
        0 => format!("no {many}"),
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
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

/// Writes to stderr, ignoring a closed or stalled stderr: there is nowhere left to say
/// anything (`streams`). Every word on stderr goes through [`words`]: nothing there is data.
fn err(text: &str) {
    let stderr = std::io::stderr().lock();
    let _ = streams::write_unless_stopped(&stderr, words(text).as_bytes());
}

/// The tokens this run may know (from the environment, the config file, a token file), kept
/// out of every word it prints: a token typed or pasted into an argument (a handle, a path, a
/// name, a URL's path prefix) is not echoed back in an error, a `--curl` line or a URL.
static KEPT_OUT: std::sync::Mutex<Vec<Secret>> = std::sync::Mutex::new(Vec::new());

/// The tokens kept out. A thread that panicked while it held them (poisoning the lock) left the
/// list whole, since nothing here can panic halfway through a change: it is used as it is, for
/// scrubbing that stopped would print a token in the very failure that follows a panic.
fn kept_out() -> std::sync::MutexGuard<'static, Vec<Secret>> {
    KEPT_OUT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Adds tokens to keep out of the words printed from now on.
pub fn keep_out(tokens: impl IntoIterator<Item = Secret>) {
    let mut kept = kept_out();
    for token in tokens {
        if !kept.contains(&token) {
            kept.push(token);
        }
    }
}

/// `text` with every token kept out cut out of it, in every encoding `Secret::scrub` knows.
/// Only for words (messages, echoed arguments, URLs, curl lines): data (content, numbers,
/// handle ids on stdout) is never passed through here.
fn words(text: &str) -> String {
    let kept = kept_out();
    let mut text = std::borrow::Cow::Borrowed(text);
    for token in kept.iter() {
        text =
            std::borrow::Cow::Owned(crate::secret::Redactor::new(Some(token.clone())).text(&text));
    }
    text.into_owned()
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
                sanitize::line(&answer.words.bytes(&answer.body), VERBOSE_BODY_CHARS)
            ));
        }
        Some(Err(no_answer)) => text.push_str(&format!("< no answer: {no_answer:?}\n")),
        None => {}
    }
    text
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

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A thread that panicked while it held the list of tokens kept out (poisoning its mutex)
    /// must not turn the scrubbing off for the rest of the run: a failure message that follows
    /// is the likeliest to echo what was typed.
    #[test]
    fn a_poisoned_list_of_tokens_still_scrubs() {
        let token = Secret::parse("poisoned-list-tok3n-9f2c").unwrap();
        keep_out([token.clone()]);
        let poisoner = std::thread::spawn(|| {
            let _held = KEPT_OUT.lock();
            panic!("a panic while the list is held");
        });
        assert!(poisoner.join().is_err(), "the thread panicked");
        assert!(KEPT_OUT.is_poisoned());
        let said = words("handle poisoned-list-tok3n-9f2c is not a number");
        assert_eq!(said, "handle <token> is not a number");
        // And tokens found later are still added.
        let later = Secret::parse("found-later-tok3n-7d1e").unwrap();
        keep_out([later]);
        assert_eq!(words("found-later-tok3n-7d1e"), "<token>");
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
