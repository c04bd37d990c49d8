//! clap's errors rewritten where a word of ours helps more: an option typed after a command
//! that does not take it (which commands do), a client option typed before a command that has
//! its own of that name, a mistyped command (the nearest first), and a command typed after
//! `emulator` without `--`. Each is a [`Failure`] as any other refusal, so `report` words it
//! and `outcome` gives its exit code; clap's own error stands where none of these fits.

use crate::cli::{ClientOptions, Opt};
use crate::help;
use crate::outcome::Failure;
use crate::settings;

use super::argv::Typed;

/// The refusal to print instead of clap's `error`, when one of ours says more.
pub(super) fn rewritten(error: &clap::Error, line: &Typed) -> Option<Failure> {
    misplaced_option(error, line)
        .or_else(|| mistyped_option_before_dashes(error, line))
        .or_else(|| mistyped_command(error))
        .or_else(|| command_without_dashes(error, line))
}

/// The argument clap found no place for (`ErrorKind::UnknownArgument`), as typed; `None` for
/// any other error.
fn unknown_argument(error: &clap::Error) -> Option<&str> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    match (error.kind(), error.get(ContextKind::InvalidArg)) {
        (ErrorKind::UnknownArgument, Some(ContextValue::String(typed))) => Some(typed),
        _ => None,
    }
}

/// An option mistyped where a command may follow `--` (`emulator --backgroud`): clap tips
/// passing the word after `--`, which would run it as the command. Only its near miss is said.
fn mistyped_option_before_dashes(error: &clap::Error, line: &Typed) -> Option<Failure> {
    use clap::error::{ContextKind, ContextValue};
    // clap words that tip among its `Suggested` lines.
    let tips_dashes = matches!(error.get(ContextKind::Suggested), Some(ContextValue::StyledStrs(tips))
        if tips.iter().any(|tip| tip.to_string().contains("use '-- ")));
    let typed = unknown_argument(error).filter(|_| tips_dashes)?;
    let here = typed_path(&help::command(), line, typed);
    let near = match error.get(ContextKind::SuggestedArg) {
        Some(ContextValue::String(near)) => format!("did you mean {near}? "),
        _ => String::new(),
    };
    Some(
        Failure::usage(format!("`safe-ad {here}` has no option {typed}"))
            .with_hint(format!("{near}`safe-ad {here} --help` lists its options")),
    )
}

/// An option typed after a command that does not take it, where another does (`config show
/// --jobs 4`, `put --save post 7`): clap would suggest passing it as a value; saying which
/// commands take it helps more.
fn misplaced_option(error: &clap::Error, line: &Typed) -> Option<Failure> {
    use clap::error::ContextKind;
    let typed = unknown_argument(error)?;
    if typed == "-V" || typed == "--version" {
        // The version is the program's; clap would suggest --verbose.
        let here = typed_path(&help::command(), line, typed);
        return Some(
            Failure::usage(format!("`safe-ad {here}` does not take {typed}"))
                .with_hint("`safe-ad --version` prints the version"),
        );
    }
    // A client option, by its long or its short name (`config path -q`).
    let client = Opt::ALL.into_iter().find(|opt| {
        typed.split('=').next() == Some(opt.long().as_str())
            || opt
                .short()
                .is_some_and(|short| *typed == format!("-{short}"))
    });
    // clap's own "did you mean" for a near miss (`--token` for `--token-file`) is the better
    // advice when it has one, unless what was typed is a client option by its exact name
    // (`emulator --fail-fast` is not a typo of --fault-seed).
    if client.is_none() && error.get(ContextKind::SuggestedArg).is_some() {
        return None;
    }
    let long = match client {
        Some(opt) => opt.long()[2..].to_string(),
        None => typed.strip_prefix("--")?.split('=').next()?.to_string(),
    };
    let long = long.as_str();
    let mut command = help::command();
    // The commands' own arguments are added when a command is built (see `cli::command`).
    command.build();
    let owners: Vec<String> = match client {
        Some(opt) => crate::cli::taking(opt)
            .into_iter()
            .map(String::from)
            .collect(),
        None => {
            let mut owners = Vec::new();
            let mut pending: Vec<(String, &clap::Command)> = vec![(String::new(), &command)];
            while let Some((path, command)) = pending.pop() {
                if !path.is_empty()
                    && command
                        .get_arguments()
                        .any(|arg| arg.get_long() == Some(long))
                {
                    owners.push(path.clone());
                }
                for sub in command.get_subcommands() {
                    let name = format!("{path} {}", sub.get_name());
                    pending.push((name.trim().to_string(), sub));
                }
            }
            owners.sort();
            owners
        }
    };
    if owners.is_empty() {
        return None;
    }
    let here = typed_path(&command, line, typed);
    Some(settings::not_taken(&format!("--{long}"), &here, &owners))
}

/// A client option typed before a command that has an option of that name of its own
/// (`safe-ad -q emulator`): "does not take --quiet" would be untrue of the command, whose own
/// goes after its name.
pub(super) fn own_option_before(path: &str, top: &ClientOptions) -> Option<Failure> {
    let takes = crate::cli::options_of(path);
    let opt = top.given().into_iter().find(|opt| !takes.contains(*opt))?;
    let long = opt.long();
    let root = help::command();
    let command = path
        .split(' ')
        .try_fold(&root, |command, word| command.find_subcommand(word))?;
    let own = command
        .get_arguments()
        .find(|arg| arg.get_long() == Some(&long[2..]))?;
    let mut line = format!("safe-ad {path} {long}");
    if own.get_action().takes_values() {
        for name in own.get_value_names().unwrap_or_default() {
            line.push_str(&format!(" <{name}>"));
        }
    }
    Some(
        Failure::usage(format!(
            "{long} before `{path}` is an option of the client commands; `safe-ad {path}` has its own {long}, given after its name"
        ))
        .with_hint(format!("give it after the command: `{line}`")),
    )
}

/// The subcommand path that the typed words before `until` name (`"config show"`).
fn typed_path(root: &clap::Command, typed: &Typed, until: &str) -> String {
    let mut path = Vec::new();
    let mut command = root;
    for word in typed.words() {
        if *word == until {
            break;
        }
        if let Some(sub) = command.find_subcommand(word) {
            path.push(sub.get_name());
            command = sub;
        }
    }
    path.join(" ")
}

/// A command name that is not one (`clear-date`): clap lists the near ones with the nearest
/// last; the nearest alone, first, reads better.
fn mistyped_command(error: &clap::Error) -> Option<Failure> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::InvalidSubcommand {
        return None;
    }
    let Some(ContextValue::String(typed)) = error.get(ContextKind::InvalidSubcommand) else {
        return None;
    };
    let Some(ContextValue::Strings(near)) = error.get(ContextKind::SuggestedSubcommand) else {
        return None;
    };
    // clap orders the suggestions by how near they are, the nearest last.
    let (nearest, others) = near.split_last()?;
    let mut hint = format!("did you mean `safe-ad {nearest}`?");
    if !others.is_empty() {
        let others: Vec<&str> = others.iter().rev().map(String::as_str).collect();
        hint.push_str(&format!(" (or: {})", others.join(", ")));
    }
    Some(
        Failure::usage(format!(
            "unrecognized command '{}'",
            crate::sanitize::line(typed.as_bytes(), 80)
        ))
        .with_hint(format!("{hint}; `safe-ad --help` lists the commands")),
    )
}

/// A command typed after `emulator` without `--` (`safe-ad emulator sh -c true`).
fn command_without_dashes(error: &clap::Error, line: &Typed) -> Option<Failure> {
    let typed = unknown_argument(error)?;
    if typed.starts_with('-') || typed_path(&help::command(), line, typed) != "emulator" {
        return None;
    }
    // The line as it should have been: `--` before the command.
    let words: Vec<String> = line
        .args
        .iter()
        .skip(1)
        .map(|arg| shell_word(&arg.to_string_lossy()))
        .collect();
    let at = line.args.iter().skip(1).position(|arg| arg == typed)?;
    let line = format!(
        "safe-ad {} -- {}",
        words[..at].join(" "),
        words[at..].join(" ")
    );
    let typed = crate::sanitize::line(typed.as_bytes(), 80);
    let line = crate::sanitize::line(line.as_bytes(), 200);
    Some(
        Failure::usage(format!(
            "unexpected argument '{typed}' after `safe-ad emulator`"
        ))
        .with_hint(format!(
            "to run a command with the emulator, put it after `--`: `{line}`"
        )),
    )
}

/// A word as a shell reads it back: quoted when it holds anything but plain characters.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./=:,@%+-".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}
