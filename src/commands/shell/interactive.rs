//! The interactive `shell`: a prompt on a terminal, with line editing, history and completion
//! (rustyline), over the same lines a script runs. What it adds to a script: the session's
//! handles (`session`), listed by `.handles`, kept by `.keep`, and given back when it ends;
//! `help` inside; an exit code in the prompt when a line failed; Ctrl-C that stops the running
//! line and comes back to the prompt, where it clears the line; and an end by Ctrl-D, `exit`,
//! SIGTERM or SIGHUP that gives the session's handles back first.
//!
//! The terminal is the line editor's while the prompt waits, and the command's while a line
//! runs: Ctrl-C is then the signal every command stops on. At the prompt the editor reads in
//! raw mode, where Ctrl-C is a key and a SIGTERM only interrupts a read the editor starts
//! again; a thread of the shell's own waits for SIGTERM and SIGHUP and, when one comes while the
//! prompt waits, puts the terminal back as it found it, gives the handles back and ends the
//! process. While a line runs, that thread leaves the signal to the line, and the shell ends
//! after it.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::Read;
use std::sync::{Arc, Mutex, PoisonError};

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::MemHistory;
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Editor};

use super::complete::{candidates, Known};
use super::{words, Context, Line, RunLine};
use crate::cli::ShellArgs;
use crate::handle::Handle;
use crate::outcome::{Class, Done, Failure};
use crate::report::{self, Reporter};
use crate::secret::Secret;
use crate::settings::{self, history};
use crate::{session, signals};

/// The session's handles past which `.handles` and the prompt warn: the launcher keeps 100 of a
/// kind and evicts the oldest without a word.
const NEAR_EVICTION: usize = 90;

/// Where the prompt is, for the thread that ends the session on SIGTERM or SIGHUP.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Prompt,
    Line,
}

/// What the leaving thread needs: whether the prompt waits (held while the shell acts on it),
/// how to run a line, the shell's options.
struct Shared {
    at: Mutex<At>,
}

/// Runs the prompt until Ctrl-D, `exit`, SIGTERM or SIGHUP.
pub(super) fn run(_args: &ShellArgs, cx: Context, run_line: RunLine) -> Result<Done, Failure> {
    session::start();
    signals::hold();
    let reporter = cx.reporter;
    let history_file = history::path(cx.env);
    let tokens = settings::known_tokens(cx.options.token_file.as_deref(), cx.env, cx.config);
    let config = Config::builder()
        .auto_add_history(false)
        .history_ignore_dups(true)
        .map_err(editor_failed)?
        .max_history_size(history::KEPT_LINES)
        .map_err(editor_failed)?
        .completion_type(CompletionType::List)
        .build();
    let history = MemHistory::with_config(&config);
    let mut editor: Editor<ShellHelper, MemHistory> =
        Editor::with_history(config, history).map_err(editor_failed)?;
    let mut tree = crate::cli::whole_command();
    tree.build();
    editor.set_helper(Some(ShellHelper {
        tree,
        variables: Vec::new(),
    }));
    if let Some(path) = &history_file {
        match history::read(path) {
            Ok(lines) => {
                for line in lines {
                    let _ = editor.add_history_entry(line);
                }
            }
            Err(why) => reporter.history_unusable(path, &why),
        }
    }
    let terminal = rustix::termios::tcgetattr(std::io::stdin()).ok();
    let shared = Arc::new(Shared {
        at: Mutex::new(At::Line),
    });
    watch_for_leaving(Arc::clone(&shared), terminal, cx, run_line);
    reporter.shell_greeting();

    let mut vars: HashMap<String, String> = HashMap::new();
    let mut history_broken = false;
    let mut last = 0u8;
    let ended = loop {
        *shared.at.lock().unwrap_or_else(PoisonError::into_inner) = At::Prompt;
        if signals::leave_asked() {
            break None;
        }
        let read = editor.readline(&report::prompt(last));
        *shared.at.lock().unwrap_or_else(PoisonError::into_inner) = At::Line;
        let text = match read {
            Ok(text) => text,
            // Ctrl-C at the prompt: the line is dropped, as in sh.
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break None,
            Err(ReadlineError::Signal(_)) => continue,
            Err(e) => {
                reporter.failed(&editor_failed(e));
                break Some(Done::Failed(Class::Unexpected));
            }
        };
        if text.trim().is_empty() {
            continue;
        }
        if !carries_a_token(&text, &tokens) {
            let _ = editor.add_history_entry(text.as_str());
            if let (Some(path), false) = (&history_file, history_broken) {
                if let Err(why) = history::append(path, &text) {
                    reporter.history_unusable(path, &why);
                    history_broken = true;
                }
            }
        }
        let (done, exit) = one_line(&text, &mut vars, cx, run_line);
        last = done.exit_code();
        if let Some(helper) = editor.helper_mut() {
            helper.variables = vars.keys().cloned().collect();
        }
        if let Some(code) = exit {
            break Some(code);
        }
        if signals::leave_asked() {
            break None;
        }
        // Ctrl-C stopped the line: the next starts with none seen, as a new command would.
        signals::forget();
    };
    let _guard = shared.at.lock().unwrap_or_else(PoisonError::into_inner);
    let gave_back = leave(cx, run_line);
    let interrupted = signals::leave_asked();
    Ok(match (ended, gave_back, interrupted) {
        (_, Done::Success, true) => Done::Failed(Class::Interrupted),
        (Some(done), Done::Success, _) => done,
        (None, Done::Success, _) => Done::Success,
        (_, failed, _) => failed,
    })
}

/// Runs one typed line (one or more commands, `;` between them): what it came to, and `Some`
/// when it asked to leave (`exit [N]`).
fn one_line(
    text: &str,
    vars: &mut HashMap<String, String>,
    cx: Context,
    run_line: RunLine,
) -> (Done, Option<Done>) {
    let commands = match words::split(text) {
        Ok(commands) => commands,
        Err(e) => {
            let failure = Failure::usage(e.message);
            cx.reporter.failed(&failure);
            return (Done::Failed(failure.class), None);
        }
    };
    let mut done = Done::Success;
    for command in &commands {
        let result = match own(&command.words, cx) {
            Some(result) => result,
            None => super::one(&command.words, vars, cx, run_line),
        };
        // `help` alone is safe-ad's help, and then the shell's own words.
        if let ([word], Ok(Line::Ran(Done::Success))) = (command.words.as_slice(), &result) {
            if word.plain() == Some("help") {
                cx.reporter.shell_help();
            }
        }
        done = match result {
            Ok(Line::Ran(done)) => done,
            Ok(Line::Exit(code)) => {
                let done = code.map_or(Done::Success, Done::PassThrough);
                return (done, Some(done));
            }
            Err(failure) => {
                cx.reporter.failed(&failure);
                Done::Failed(failure.class)
            }
        };
        if signals::came_any() {
            return (Done::Failed(Class::Interrupted), None);
        }
        if done != Done::Success {
            break;
        }
    }
    (done, None)
}

/// The shell's own commands: `.handles`, `.keep HANDLE...`, and `help` with no command (with
/// one, `help COMMAND` is the command line's). `None` for a line of safe-ad's commands.
fn own(command: &[words::Word], cx: Context) -> Option<Result<Line, Failure>> {
    let first = command.first()?.plain()?;
    let rest = &command[1..];
    match first {
        ".handles" => Some(handles(rest, cx.reporter)),
        ".keep" => Some(keep(rest, cx.reporter)),
        _ if first.starts_with('.') => Some(Err(Failure::usage(format!(
            "{first} is no command of the shell's: .handles lists the session's handles, .keep HANDLE keeps one when the session ends"
        )))),
        _ => None,
    }
}

fn handles(rest: &[words::Word], reporter: &Reporter) -> Result<Line, Failure> {
    if !rest.is_empty() {
        return Err(Failure::usage(".handles takes nothing after it"));
    }
    let held = session::held();
    reporter.session_handles(&held, NEAR_EVICTION);
    Ok(Line::Ran(Done::Success))
}

fn keep(rest: &[words::Word], reporter: &Reporter) -> Result<Line, Failure> {
    if rest.is_empty() {
        return Err(Failure::usage(
            ".keep takes the handles to keep when the session ends: .keep HANDLE...",
        ));
    }
    let vars = HashMap::new();
    let words = words::expand(rest, &vars)
        .map_err(|name| Failure::usage(format!("${name}: .keep takes handle numbers")))?;
    let mut handles = Vec::new();
    for word in &words {
        let handle = word.parse::<u64>().map(Handle).map_err(|_| {
            Failure::usage(format!(
                "'{word}' is not a handle: .keep takes handle numbers"
            ))
        })?;
        handles.push(handle);
    }
    for handle in handles {
        if !session::keep(handle) {
            return Err(Failure::usage(format!(
                "handle {handle} is not one this session made: .handles lists those it holds"
            )));
        }
        reporter.will_keep(handle);
    }
    Ok(Line::Ran(Done::Success))
}

/// Gives back the session's handles but those marked to keep, through `drop` (which names what
/// it could not give back, as every command does), and lists those kept.
fn leave(cx: Context, run_line: RunLine) -> Done {
    let held = session::held();
    let (kept, give_back): (Vec<_>, Vec<_>) = held.into_iter().partition(|held| held.kept);
    cx.reporter.leaving(&give_back, &kept);
    if give_back.is_empty() {
        return Done::Success;
    }
    // The drop runs whatever stopped the session: its own stop would leave them.
    signals::forget();
    let argv: Vec<OsString> = ["safe-ad", "drop"]
        .into_iter()
        .map(OsString::from)
        .chain(give_back.iter().map(|held| held.handle.to_string().into()))
        .collect();
    run_line(&argv, cx.options)
}

/// Waits for SIGTERM and SIGHUP: one that comes while the prompt waits ends the session there
/// (the terminal put back as it was, the handles given back); one that comes while a line runs
/// is that line's, and the loop ends the session after it.
fn watch_for_leaving(
    shared: Arc<Shared>,
    terminal: Option<rustix::termios::Termios>,
    cx: Context,
    run_line: RunLine,
) {
    let Ok(mut leaving) = signals::leaving() else {
        return;
    };
    let options = cx.options.clone();
    let env = cx.env.clone();
    std::thread::spawn(move || {
        let mut byte = [0u8; 1];
        while leaving.read(&mut byte).is_ok_and(|n| n > 0) {
            let at = shared.at.lock().unwrap_or_else(PoisonError::into_inner);
            if *at != At::Prompt {
                continue;
            }
            if let Some(terminal) = &terminal {
                let _ = rustix::termios::tcsetattr(
                    std::io::stdin(),
                    rustix::termios::OptionalActions::Now,
                    terminal,
                );
            }
            let colour = settings::colour_choice(options.color, &env);
            let reporter = Reporter::new(options.quiet, options.json, colour);
            let config = settings::ConfigRead::read(&env);
            reporter.left_the_prompt();
            let cx = Context {
                options: &options,
                env: &env,
                config: &config,
                reporter: &reporter,
            };
            let done = match leave(cx, run_line) {
                Done::Success => Done::Failed(Class::Interrupted),
                failed => failed,
            };
            std::process::exit(i32::from(reporter.finish(done).exit_code()));
        }
    });
}

/// Whether a typed line must stay out of the history: it prints or sets the token (`auth
/// token`, `config set token`), gives one (`--token`), or holds a word that is a known token or
/// looks like one (three dot-separated base64url parts, as a JWT).
pub(super) fn carries_a_token(line: &str, tokens: &[Secret]) -> bool {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == ';' || c == '\'' || c == '"')
        .filter(|word| !word.is_empty())
        .collect();
    let has = |sequence: &[&str]| words.windows(sequence.len()).any(|w| w == sequence);
    has(&["auth", "token"])
        || has(&["auth", "login"])
        || has(&["config", "set", "token"])
        || words.iter().any(|word| {
            *word == "--token"
                || word.starts_with("--token=")
                || looks_like_a_token(word)
                || tokens
                    .iter()
                    .any(|token| !token.expose().is_empty() && word.contains(token.expose()))
        })
}

fn looks_like_a_token(word: &str) -> bool {
    let word = word.rsplit('=').next().unwrap_or(word);
    let parts: Vec<&str> = word.split('.').collect();
    word.len() >= 20
        && parts.len() >= 3
        && parts.iter().all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
        && parts.iter().any(|part| part.len() >= 8)
}

fn editor_failed(e: ReadlineError) -> Failure {
    Failure::new(
        Class::Unexpected,
        format!("shell: the terminal's line editor failed: {e}"),
    )
}

/// The editor's completion, from the command tree, the session's variables and its handles.
struct ShellHelper {
    tree: clap::Command,
    variables: Vec<String>,
}

impl Completer for ShellHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let handles: Vec<u64> = (session::held().iter()).map(|held| held.handle.0).collect();
        let known = Known {
            variables: &self.variables,
            handles: &handles,
        };
        Ok(candidates(&self.tree, line, pos, &known))
    }
}

impl Hinter for ShellHelper {
    type Hint = String;
}
impl Highlighter for ShellHelper {}
impl Validator for ShellHelper {}
impl rustyline::Helper for ShellHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_carry_a_token_stay_out_of_the_history() {
        let known = [Secret::parse("s3cr3t-value").expect("a token")];
        for line in [
            "auth token",
            "t = auth token",
            "config set token -",
            "metadata 1 --token abc",
            "metadata 1 --token=abc",
            "echo eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
            "metadata 1 # s3cr3t-value",
            "metadata 1; auth token",
        ] {
            assert!(carries_a_token(line, &known), "{line}");
        }
        for line in [
            "metadata 1",
            "create --put",
            "open AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
            "metadata 1 --launcher-url http://127.0.0.1:8100/0.6",
            "config set timeout_secs 10",
            "auth status",
            "metadata 1 --token-file ./t",
        ] {
            assert!(!carries_a_token(line, &known), "{line}");
        }
    }
}
