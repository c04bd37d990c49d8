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

use std::io::Read;
use std::sync::{Arc, Mutex, PoisonError};

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::MemHistory;
use rustyline::validate::Validator;
use rustyline::{Behavior, CompletionType, Config, Editor};

use super::complete::{candidates, Known};
use super::vars::Vars;
use super::watching::{child_options, Printer, Watches};
use super::{words, Context, Line, RunLine, Session};
use crate::cli::ClientOptions;
use crate::cli::Dot;
use crate::handle::Handle;
use crate::outcome::{Class, Done, Failure};
use crate::report::{self, Reporter};
use crate::secret::Secret;
use crate::session::{Ledger, Reach};
use crate::settings::{self, history};
use crate::signals;

/// The session's handles past which `.handles` and the prompt warn: the launcher keeps 100 of a
/// kind and evicts the oldest without a word.
const NEAR_EVICTION: usize = 90;

/// Where the prompt is, for the thread that ends the session on SIGTERM or SIGHUP.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Prompt,
    Line,
}

/// What the loop shares with the thread that ends the session on a signal: whether the prompt
/// waits (held while either acts on it), and the `.watch`es to stop.
struct Shared {
    at: Mutex<At>,
    watches: Mutex<Watches>,
    /// The handles the session holds, to give back.
    ledger: Arc<Ledger>,
}

/// Runs the prompt until Ctrl-D, `exit`, SIGTERM or SIGHUP.
pub(super) fn run(cx: Context, session: &Session, run_line: RunLine) -> Result<Done, Failure> {
    let ledger = session.shared_ledger();
    ledger.start();
    signals::hold();
    let reporter = cx.reporter;
    let history_file = history::path(cx.env);
    // `--dry-run` or `--curl` given to the shell: every line is one, and the shell itself sends
    // and writes nothing either (no history written, no `.watch`).
    let dry_run = cx.options.dry_run || cx.options.curl;
    // Said once: a file that could not be read is not written either.
    let mut history_broken = false;
    let config = Config::builder()
        .auto_add_history(false)
        .history_ignore_dups(true)
        .map_err(editor_failed)?
        .max_history_size(history::KEPT_LINES)
        .map_err(editor_failed)?
        .completion_type(CompletionType::List)
        // The prompt and the line being typed go to the terminal even when stdout is a file
        // (`safe-ad shell > log`): the log gets what the commands print, not the editing.
        .behavior(Behavior::PreferTerm)
        .build();
    let history = MemHistory::with_config(&config);
    let mut editor: Editor<ShellHelper, MemHistory> =
        Editor::with_history(config, history).map_err(editor_failed)?;
    let mut tree = crate::cli::whole_command();
    tree.build();
    editor.set_helper(Some(ShellHelper {
        tree,
        variables: Vec::new(),
        ledger: Arc::clone(&ledger),
    }));
    if let Some(path) = &history_file {
        match history::read(path) {
            Ok(lines) => {
                for line in lines {
                    let _ = editor.add_history_entry(line);
                }
            }
            Err(why) => {
                reporter.history_unusable(path, &why);
                history_broken = true;
            }
        }
    }
    let terminal = rustix::termios::tcgetattr(std::io::stdin()).ok();
    let shared = Arc::new(Shared {
        at: Mutex::new(At::Line),
        watches: Mutex::new(Watches::default()),
        ledger: Arc::clone(&ledger),
    });
    let printer: Option<Printer> = editor.create_external_printer().ok().map(|mut printer| {
        let print = move |text: String| {
            use rustyline::ExternalPrinter;
            let _ = printer.print(text + "\n");
        };
        Arc::new(Mutex::new(print)) as Printer
    });
    watch_for_leaving(Arc::clone(&shared), terminal, cx);
    reporter.shell_greeting();

    let mut vars = Vars::default();
    let mut last = 0u8;
    // The shell's options, which `.profile NAME` changes for the lines after it.
    let mut options = cx.options.clone();
    let ended = loop {
        let cx = Context {
            options: &options,
            ..cx
        };
        let profile = settings::profile_name(cx.options, cx.env);
        *shared.at.lock().unwrap_or_else(PoisonError::into_inner) = At::Prompt;
        if signals::leave_asked() {
            break None;
        }
        let read = editor.readline(&report::prompt(last, profile.as_deref()));
        *shared.at.lock().unwrap_or_else(PoisonError::into_inner) = At::Line;
        let text = match read {
            Ok(text) => text,
            // Ctrl-C at the prompt: the line is dropped, as in sh.
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break None,
            Err(ReadlineError::Signal(_)) => continue,
            // A closed terminal fails the read as its SIGHUP asks the session to end.
            Err(_) if signals::leave_asked() => break None,
            Err(e) => {
                reporter.failed(&editor_failed(e));
                break Some(Done::Failed(Class::Unexpected));
            }
        };
        // What stopped the line before, and a SIGINT sent while the prompt waited (by `kill`:
        // Ctrl-C there is a key), are behind it: the line typed starts with none seen, as a new
        // command would. Forgotten before the
        // SIGTERM/SIGHUP check, so one that comes between the two is this line's to stop on.
        signals::forget();
        if signals::leave_asked() {
            break None;
        }
        if text.trim().is_empty() {
            continue;
        }
        // Read again at each line: a line may have set another token (`config set token -`).
        let tokens = settings::known_tokens(
            cx.options.token_file.as_deref(),
            cx.env,
            &settings::ConfigRead::read(cx.env),
        );
        if !carries_a_token(&text, &tokens) {
            let _ = editor.add_history_entry(text.as_str());
            // A dry run writes nothing: the session's lines stay in its own history only.
            if let (Some(path), false, false) = (&history_file, history_broken, dry_run) {
                if let Err(why) = history::append(path, &text) {
                    reporter.history_unusable(path, &why);
                    history_broken = true;
                }
            }
        }
        let mut scope = LineScope {
            vars: &mut vars,
            shared: &shared,
            printer: printer.as_ref(),
            profile: None,
        };
        let before = ledger.held().len();
        let (done, exit) = one_line(&text, &mut scope, (cx, session, run_line));
        if let Some(name) = scope.profile.take() {
            options.profile = Some(name);
        }
        last = done.exit_code();
        let held = ledger.held();
        if before < NEAR_EVICTION && held.len() >= NEAR_EVICTION {
            reporter.near_eviction(held.len());
        }
        if let Some(helper) = editor.helper_mut() {
            helper.variables = vars.values().keys().cloned().collect();
        }
        if let Some(code) = exit {
            break Some(code);
        }
        if signals::leave_asked() {
            break None;
        }
    };
    let _guard = shared.at.lock().unwrap_or_else(PoisonError::into_inner);
    let gave_back = leave(&shared, cx.options, reporter);
    let interrupted = signals::leave_asked();
    let done = match (ended, gave_back, interrupted) {
        (_, Done::Success, true) => Done::Failed(Class::Interrupted),
        (Some(done), Done::Success, _) => done,
        (None, Done::Success, _) => Done::Success,
        (_, failed, _) => failed,
    };
    // A file safe-ad failed to write is never exit 0: the history was warned about when it
    // failed, and is the exit code's reason now.
    match (&history_file, history_broken, done) {
        (Some(path), true, Done::Success) => Err(Failure::new(
            Class::Unexpected,
            format!(
                "shell: the session's lines were not written to the history file {}",
                path.display()
            ),
        )
        .with_hint(
            "set SAFE_AD_HISTORY to a file safe-ad can write, or to nothing for no history",
        )),
        _ => Ok(done),
    }
}

/// What a line typed at the prompt may change or use beyond itself (the session as a whole is
/// `runtime::Session`).
struct LineScope<'a> {
    vars: &'a mut Vars,
    shared: &'a Shared,
    printer: Option<&'a Printer>,
    /// The profile `.profile NAME` switched to, for the lines after this one.
    profile: Option<String>,
}

/// Runs one typed line (one or more commands, `;` between them): what it came to, and `Some`
/// when it asked to leave (`exit [N]`).
fn one_line(
    text: &str,
    scope: &mut LineScope,
    line: (Context, &Session, RunLine),
) -> (Done, Option<Done>) {
    let cx = line.0;
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
        let result = match own(&command.words, scope, cx) {
            Some(result) => result,
            None => super::one(&command.words, None, scope.vars, line),
        };
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

/// The shell's own commands ([`Dot`]), and `help` alone (one screen, the shell's own first;
/// `help COMMAND` is safe-ad's). `None` for a line of safe-ad's commands.
fn own(
    command: &[words::Word],
    scope: &mut LineScope,
    cx: Context,
) -> Option<Result<Line, Failure>> {
    let first = command.first()?.plain()?;
    let rest = &command[1..];
    let watches = || {
        scope
            .shared
            .watches
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    };
    let ran = |result: Result<(), Failure>| result.map(|()| Line::Ran(Done::Success));
    if first == "help" && rest.is_empty() {
        cx.reporter.shell_help(&Dot::rows());
        return Some(Ok(Line::Ran(Done::Success)));
    }
    let Some(dot) = Dot::named(first) else {
        if !first.starts_with('.') {
            return None;
        }
        let own: Vec<String> = (Dot::ALL.iter())
            .map(|dot| {
                format!("{} {}", dot.name(), dot.takes())
                    .trim_end()
                    .to_owned()
            })
            .collect();
        return Some(Err(Failure::usage(format!(
            "{first} is no command of the shell's: {}",
            own.join(", ")
        ))));
    };
    Some(match dot {
        Dot::Handles => handles(rest, &scope.shared.ledger, cx.reporter),
        Dot::Profile => expand(rest, scope.vars).and_then(|words| {
            match words.as_slice() {
                [] => {
                    let now = scope.profile.clone();
                    let now = now.or_else(|| settings::profile_name(cx.options, cx.env));
                    cx.reporter.session_profile(now.as_deref());
                }
                [name] => {
                    settings::check_profile(name, cx.env)?;
                    scope.profile = Some(name.clone());
                }
                _ => return Err(Failure::usage(".profile takes one profile's name")),
            }
            Ok(Line::Ran(Done::Success))
        }),
        Dot::Keep => keep(rest, scope.vars, &scope.shared.ledger, cx.reporter),
        Dot::Watch if cx.options.dry_run || cx.options.curl => Err(Failure::usage(
            ".watch polls the launcher, and this shell is a dry run (--dry-run or --curl): it sends nothing",
        )),
        Dot::Watch => expand(rest, scope.vars).and_then(|words| {
            let Some(printer) = scope.printer else {
                return Err(Failure::usage(
                    ".watch needs a terminal that can print above the prompt",
                ));
            };
            ran(watches().start(&words, cx.options, Arc::clone(printer), cx.reporter))
        }),
        Dot::Unwatch => match expand(rest, scope.vars) {
            Err(failure) => Err(failure),
            Ok(words) => match words.as_slice() {
                [] => ran(watches().stop(None, cx.reporter)),
                [n] => match n.parse::<usize>() {
                    Ok(n) => ran(watches().stop(Some(n), cx.reporter)),
                    Err(_) => Err(Failure::usage(format!(
                        ".unwatch takes a watch's number (`.watch` lists them), not '{n}'"
                    ))),
                },
                _ => Err(Failure::usage(".unwatch takes one watch's number, or none for all")),
            },
        },
    })
}

/// The words of a command of the prompt's own, its variables replaced; refused where one of
/// them held a handle the session dropped.
fn expand(words: &[words::Word], vars: &Vars) -> Result<Vec<String>, Failure> {
    let expanded = words::expand(words, vars.values()).map_err(super::unknown)?;
    vars.refuse_given_back(words)?;
    Ok(expanded)
}

fn handles(rest: &[words::Word], ledger: &Ledger, reporter: &Reporter) -> Result<Line, Failure> {
    if !rest.is_empty() {
        return Err(Failure::usage(".handles takes nothing after it"));
    }
    let held = ledger.held();
    reporter.session_handles(&held, NEAR_EVICTION);
    Ok(Line::Ran(Done::Success))
}

fn keep(
    rest: &[words::Word],
    vars: &Vars,
    ledger: &Ledger,
    reporter: &Reporter,
) -> Result<Line, Failure> {
    if rest.is_empty() {
        return Err(Failure::usage(
            ".keep takes the handles to keep when the session ends: .keep HANDLE...",
        ));
    }
    let words = expand(rest, vars)?;
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
        if !ledger.keep(handle) {
            return Err(Failure::usage(format!(
                "handle {handle} is not one this session made: .handles lists those it holds"
            )));
        }
        reporter.will_keep(handle);
    }
    Ok(Line::Ran(Done::Success))
}

/// Stops the watches, then gives back the session's handles but those marked to keep, and
/// lists those kept. The give-back is `drop`, run as a process of its own: it names what it
/// could not give back as every command does, and it starts with no stop signal seen, where a
/// runtime of this process may still be handed a signal that came before it (the one that
/// ends the session).
fn leave(shared: &Shared, options: &ClientOptions, reporter: &Reporter) -> Done {
    let watches_left = shared
        .watches
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .stop_all();
    let held = shared.ledger.held();
    let (kept, give_back): (Vec<_>, Vec<_>) = held.into_iter().partition(|held| held.kept);
    reporter.leaving(&kept);
    // One drop per launcher the lines reached, each sent where its handles were made, the way
    // the line reached it.
    let mut launchers: Vec<&Reach> = give_back.iter().map(|held| &held.launcher).collect();
    launchers.sort_unstable();
    launchers.dedup();
    let several = launchers.len() > 1;
    let mut done = match watches_left {
        true => Done::Failed(Class::Interrupted),
        false => Done::Success,
    };
    for launcher in launchers {
        let handles: Vec<String> = (give_back.iter())
            .filter(|held| &held.launcher == launcher)
            .map(|held| held.handle.to_string())
            .collect();
        reporter.giving_back(&handles, several.then_some(launcher.base.as_str()));
        let dropped = drop_in_a_process(launcher, &handles, options, reporter);
        if done == Done::Success {
            done = dropped;
        }
    }
    done
}

/// `safe-ad drop HANDLES` at `launcher`, as a process of its own; what it came to. It shares
/// the terminal, so a Ctrl-C stops it as it stops a drop on the command line (naming what it
/// left), and a SIGTERM or SIGHUP to the shell is passed on to it. A drop that could not run,
/// or refused its line before sending (exit 2), gave nothing back: the handles are named here,
/// as it would have named them.
fn drop_in_a_process(
    launcher: &Reach,
    handles: &[String],
    options: &ClientOptions,
    reporter: &Reporter,
) -> Done {
    let mut words: Vec<String> = vec!["--launcher-url".into(), launcher.base.clone()];
    if let Some(path) = &launcher.token_file {
        words.extend(["--token-file".into(), path.display().to_string()]);
    }
    if launcher.insecure {
        words.push("--allow-insecure-http".into());
    }
    words.extend(handles.iter().cloned());
    // A signal that ended the session is behind it: this drop is what follows.
    signals::forget();
    let handed = signals::HandedOver::new();
    let ran = std::env::current_exe().and_then(|program| {
        std::process::Command::new(program)
            .arg("drop")
            .args(child_options(options, &words, true))
            .args(&words)
            .stdin(std::process::Stdio::null())
            .spawn()
    });
    let ran = ran.and_then(|mut child| handed.wait(&mut child).map(|ended| ended.status));
    let usage = Class::Usage.exit_code();
    match ran {
        Ok(status) if status.success() => Done::Success,
        Ok(status) => match status.code().and_then(|code| u8::try_from(code).ok()) {
            Some(code) => {
                // Refused before sending: none given back. Stopped: the drops in flight may
                // or may not have acted (a drop names only the handles it obtained).
                if code == usage {
                    reporter.left_unreturned(&launcher.base, handles, true);
                } else if code == Class::Interrupted.exit_code() {
                    reporter.left_unreturned(&launcher.base, handles, false);
                }
                Done::PassThrough(code)
            }
            None => {
                reporter.left_unreturned(&launcher.base, handles, false);
                Done::Failed(Class::Interrupted)
            }
        },
        Err(e) => {
            reporter.failed(&Failure::new(
                Class::Unexpected,
                format!(
                    "shell: could not run `safe-ad drop` to give back the session's handles: {e}"
                ),
            ));
            reporter.left_unreturned(&launcher.base, handles, true);
            Done::Failed(Class::Unexpected)
        }
    }
}

/// Waits for SIGTERM and SIGHUP: one that comes while the prompt waits ends the session there
/// (the terminal put back as it was, the handles given back); one that comes while a line runs
/// is that line's, and the loop ends the session after it.
fn watch_for_leaving(shared: Arc<Shared>, terminal: Option<rustix::termios::Termios>, cx: Context) {
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
            // The shell's --jq compiled when the session began: it compiles again.
            let filter = settings::jq_filter(&options).ok().flatten();
            let reporter = Reporter::new(options.quiet, options.json, colour).filtered(filter);
            reporter.left_the_prompt();
            let done = match leave(&shared, &options, &reporter) {
                Done::Success => Done::Failed(Class::Interrupted),
                failed => failed,
            };
            std::process::exit(i32::from(reporter.finish(done).exit_code()));
        }
    });
}

/// Whether a typed line must stay out of the history: it prints or sets the token (`auth
/// token`, `auth login`, `config set token`), gives one (`--token`), or holds a known token or a
/// word that looks like one (three dot-separated base64url parts, as a JWT). The words are
/// those the line runs with, split and unquoted as sh does (`to""ken` is `token`); a line that
/// cannot be split runs nothing and is kept out too.
pub(super) fn carries_a_token(line: &str, tokens: &[Secret]) -> bool {
    let Ok(commands) = words::split(line) else {
        return true;
    };
    let known = |text: &str| {
        tokens
            .iter()
            .any(|token| !token.expose().is_empty() && text.contains(token.expose()))
    };
    // The raw words too: a comment is no word the line runs with, and may still hold one.
    if known(line) || line.split_whitespace().any(looks_like_a_token) {
        return true;
    }
    commands.iter().any(|command| {
        let words: Vec<String> = command.words.iter().map(words::Word::text).collect();
        let has = |sequence: &[&str]| words.windows(sequence.len()).any(|w| w == sequence);
        has(&["auth", "token"])
            || has(&["auth", "login"])
            || has(&["config", "set", "token"])
            || known(&words.concat())
            || words.iter().any(|word| {
                word == "--token" || word.starts_with("--token=") || looks_like_a_token(word)
            })
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
    /// The session's handles, offered where a handle goes.
    ledger: Arc<Ledger>,
}

impl Completer for ShellHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let handles: Vec<u64> = (self.ledger.held().iter())
            .map(|held| held.handle.0)
            .collect();
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
            r"config set to\ken abcdefghijk0123456789",
            r#"config set to""ken abcdefghijk0123456789"#,
            r#"auth to'k'en"#,
            "metadata 1 # eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
            "metadata 'unbalanced",
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
