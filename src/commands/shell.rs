//! `shell`: a script of safe-ad commands run in one process. The script is read a line at a
//! time (`script`, each line bounded) and split into commands of words as it is read (`words`);
//! from -c or a regular FILE it is first read through once, so an unbalanced quote refuses it
//! before anything is sent. Each command, its variables replaced, is handed to `run` as a
//! command line is (the function it passes in), so each line's options, output, errors and
//! exit code are the command line's. Between lines the shell looks for a stop signal (none
//! starts a line after one) and for a stdout whose reader left (nothing more is worth sending).
//!
//! The shell takes no handles of its own: each line gives back what it obtained, as its command
//! does.

mod complete;
mod interactive;
mod script;
mod vars;
mod watching;
mod words;

use std::ffi::OsString;
use std::io::IsTerminal;

use super::{Context, Session};
use crate::cli::{ClientOptions, Dot, ShellArgs};
use crate::outcome::{Class, Done, Failure};
use crate::{report, signals};

/// Runs one line as a command line (`run::run_line`): its words after a program name, and the
/// shell's options under the line's.
pub type RunLine = fn(&[OsString], &ClientOptions, Option<&Session>) -> Done;

/// Runs the script (or the prompt), line by line, all in one [`Session`]: one runtime and the
/// connections kept from line to line.
pub fn run(args: &ShellArgs, cx: Context, run_line: RunLine) -> Result<Done, Failure> {
    let session = Session::new();
    if let Some(path) = cx.options.token_file.as_deref() {
        // Every line reads the token again, and so does the drop that gives the session's
        // handles back: a pipe would give it to the first alone.
        if !crate::settings::token_file_rereadable(path) {
            return Err(Failure::usage(format!(
                "shell: --token-file {} is not a regular file: each line reads the token again, and a pipe gives it once",
                path.display()
            ))
            .with_hint("give the token in a file, or in SAFE_LAUNCHER_TOKEN"));
        }
    }
    let from_stdin = args.lines.is_none() && args.file.is_none();
    if from_stdin && std::io::stdin().is_terminal() {
        // At the prompt a failed line never ends the session: --keep-going would not act.
        if args.keep_going {
            return Err(Failure::usage(
                "shell: --keep-going is for scripts (-c, FILE or piped lines): at the prompt a failed line never ends the session",
            ));
        }
        return interactive::run(cx, &session, run_line);
    }
    let script = script::Script::of(args)?;
    let split_failed =
        |e: words::SplitError| Failure::usage(format!("shell: line {}: {}", e.line, e.message));
    if let Some(lines) = script.again()? {
        for command in words::Commands::new(lines, script::LINE_BOUND) {
            command.map_err(split_failed)?;
        }
    }
    // From here a stop signal between two lines, or during one that sends nothing, ends the
    // script as one during a request does: counted, not the end of the process.
    signals::hold();
    let mut vars = vars::Vars::default();
    let mut first_failure: Option<Done> = None;
    let mut commands = words::Commands::new(script.lines()?, script::LINE_BOUND);
    // The command before, and how many before it began on its line: `line 3, command 2`.
    let mut before: Option<(usize, usize)> = None;
    loop {
        let next = commands.next();
        // Also one that came while the line was awaited: what was read of it then is not run.
        if signals::came_any() {
            return Ok(Done::Failed(Class::Interrupted));
        }
        let command = match next {
            None => break,
            Some(Ok(command)) => command,
            Some(Err(e)) => {
                let failure = split_failed(e);
                cx.reporter.failed(&failure);
                return Ok(first_failure.unwrap_or(Done::Failed(failure.class)));
            }
        };
        let on_line = match before {
            Some((line, count)) if line == command.line => count + 1,
            _ => 0,
        };
        before = Some((command.line, on_line));
        let line = where_(command.line, on_line, command.followed);
        if cx.reporter.stdout_closed() {
            break;
        }
        let running = (cx, &session, run_line);
        let done = match one(&command.words, Some(command.line), &mut vars, running) {
            Ok(Line::Ran(done)) => done,
            Ok(Line::Exit(code)) => {
                return Ok(match code {
                    Some(code) => Done::PassThrough(code),
                    None => first_failure.unwrap_or(Done::Success),
                })
            }
            Err(mut failure) => {
                failure.message = format!("shell: {line}: {}", failure.message);
                cx.reporter.failed(&failure);
                Done::Failed(failure.class)
            }
        };
        let interrupted = signals::came_any();
        let done = match (done, interrupted) {
            (Done::Success, true) => Done::Failed(Class::Interrupted),
            (done, _) => done,
        };
        if done == Done::Success {
            continue;
        }
        let stop = interrupted || !args.keep_going;
        cx.reporter
            .script_line_failed(&line, done.exit_code(), !stop);
        if interrupted {
            return Ok(Done::Failed(Class::Interrupted));
        }
        let first = *first_failure.get_or_insert(done);
        if stop {
            return Ok(first);
        }
    }
    Ok(first_failure.unwrap_or(Done::Success))
}

/// Where a command is: `line 3`, or `line 3, command 2` where `;` put several on it (`before`
/// of them before it, `followed` by another).
fn where_(line: usize, before: usize, followed: bool) -> String {
    match (before, followed) {
        (0, false) => format!("line {line}"),
        _ => format!("line {line}, command {}", before + 1),
    }
}

/// What one line came to.
enum Line {
    Ran(Done),
    /// `exit [N]`.
    Exit(Option<u8>),
}

/// Runs one command of a script (its `line`) or of the prompt (`None`).
fn one(
    words: &[words::Word],
    line: Option<usize>,
    vars: &mut vars::Vars,
    (cx, session, run_line): (Context, &Session, RunLine),
) -> Result<Line, Failure> {
    if words[0].plain() == Some("exit") {
        return match words {
            [_] => Ok(Line::Exit(None)),
            [_, code] => {
                let code = words::expand(std::slice::from_ref(code), vars.values())
                    .map_err(unknown)?
                    .concat();
                code.parse::<u8>()
                    .map(|code| Line::Exit(Some(code)))
                    .map_err(|_| {
                        Failure::usage(format!(
                            "exit takes an exit code from 0 to 255, not '{code}'"
                        ))
                    })
            }
            _ => Err(Failure::usage("exit takes one exit code at most")),
        };
    }
    if let Some(dot) = words[0].plain().filter(|word| word.starts_with('.')) {
        // The prompt takes its own commands before a line comes here: a script's are refused.
        let all: Vec<&str> = Dot::ALL.iter().map(|dot| dot.name()).collect();
        return Err(match Dot::named(dot) {
            Some(known) => Failure::usage(format!(
                "`{dot}` ({}) is a command of the interactive prompt, and this is a script",
                known.does()
            ))
            .with_hint(
                "a script runs safe-ad's commands, `NAME = COMMAND` and `exit`; `safe-ad shell` on a terminal takes the prompt's own",
            ),
            None => Failure::usage(format!(
                "there is no command `{}`",
                crate::sanitize::line(dot.as_bytes(), 40)
            ))
            .with_hint(format!("the prompt's own commands are {}", all.join(", "))),
        });
    }
    let (name, command) = match words {
        [name, equals, command @ ..] if equals.plain() == Some("=") => {
            let Some(name) = name.plain().filter(|name| words::is_name(name)) else {
                return Err(Failure::usage(
                    "a variable's name is a letter or _, then letters, digits and _: NAME = COMMAND ...",
                ));
            };
            if command.is_empty() {
                return Err(Failure::usage(format!(
                    "'{name} =' needs a command whose output to keep: {name} = COMMAND ..."
                )));
            }
            (Some(name.to_string()), command)
        }
        _ => (None, words),
    };
    let expanded = words::expand(command, vars.values()).map_err(unknown)?;
    vars.refuse_given_back(command)?;
    if expanded.is_empty() {
        return Ok(Line::Ran(Done::Success));
    }
    if command[0].plain() == Some("safe-ad") {
        return Err(report::safe_ad_typed_in_the_shell(&expanded));
    }
    let argv: Vec<OsString> = std::iter::once(OsString::from("safe-ad"))
        .chain(expanded.into_iter().map(OsString::from))
        .collect();
    let run = || {
        session.ledger().line_begins();
        let done = run_line(&argv, cx.options, Some(session));
        (done, session.ledger().line_ended())
    };
    let Some(name) = name else {
        let (done, handles) = run();
        vars.line_ran(command, line, &handles);
        return Ok(Line::Ran(succeeded(done)));
    };
    let ((done, handles), printed) = session.capture().captured(run);
    vars.line_ran(command, line, &handles);
    let done = succeeded(done);
    if done == Done::Success {
        let value = String::from_utf8_lossy(&printed).trim().to_string();
        vars.set(name, value, &handles);
    }
    Ok(Line::Ran(done))
}

/// A line's end as the script judges it: `emulator -- CMD` passes CMD's status through, and a
/// CMD that exited 0 is a line that succeeded (not a failure "with exit code 0", which would
/// stop the script, and under --keep-going stand for the first failure's code).
fn succeeded(done: Done) -> Done {
    match done {
        Done::PassThrough(0) => Done::Success,
        done => done,
    }
}

fn unknown(name: String) -> Failure {
    Failure::usage(format!(
        "${name} is not set: no line before this one kept a value in it"
    ))
    .with_hint(format!(
        "keep a command's output in it first: {name} = COMMAND ..."
    ))
}
