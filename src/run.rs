//! Parsing the command line and handing it to its command: the dispatcher between `main` and
//! `commands`.
//!
//! The client options may be given at each level of a command (see `cli`); they are merged into
//! one set here, before anything else runs, and the reporter is made from that set.

use std::ffi::OsString;

use clap::{Args, FromArgMatches};

use crate::cli::{AuthCommand, Cli, ClientOptions, Command, ConfigCommand};
use crate::commands;
use crate::help;
use crate::launcher::Operation;
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
use crate::settings;

/// Runs safe-ad with these arguments (the program name first) and says how it ended.
pub fn run(args: impl IntoIterator<Item = OsString>) -> Done {
    let cli = match help::command()
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches))
    {
        Ok(cli) => cli,
        Err(error) => {
            if let Some(failure) = misplaced_option(&error) {
                return reported(&Reporter::new(false, false), failure);
            }
            Reporter::new(false, false).clap(&error);
            return match error.exit_code() {
                0 => Done::Success,
                _ => Done::Failed(Class::Usage),
            };
        }
    };
    let options = match client_options(&cli) {
        Ok(options) => options,
        Err(failure) => return reported(&Reporter::new(false, false), failure),
    };
    let reporter = Reporter::new(options.quiet, options.json);
    match dispatch(&cli.command, &options, &reporter) {
        Ok(done) => done,
        Err(failure) => reported(&reporter, failure),
    }
}

/// An option typed after a command that does not take it, but another does (`put --save post
/// 7`): clap would suggest passing it as a value; saying where it belongs helps more.
fn misplaced_option(error: &clap::Error) -> Option<Failure> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    // clap's own "did you mean" for a near miss (`--token` for `--token-file`) is the better
    // advice when it has one.
    if error.kind() != ErrorKind::UnknownArgument || error.get(ContextKind::SuggestedArg).is_some()
    {
        return None;
    }
    let Some(ContextValue::String(typed)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    let long = typed.strip_prefix("--")?.split('=').next()?;
    let mut owners = Vec::new();
    let mut command = help::command();
    // The commands' own arguments are added when a command is built (see `cli::Lazy`).
    command.build();
    let mut pending: Vec<(String, &clap::Command)> = vec![(String::new(), &command)];
    while let Some((path, command)) = pending.pop() {
        if command
            .get_arguments()
            .any(|arg| arg.get_long() == Some(long))
            && !path.is_empty()
        {
            owners.push(path.clone());
        }
        for sub in command.get_subcommands() {
            let name = format!("{path} {}", sub.get_name());
            pending.push((name.trim().to_string(), sub));
        }
    }
    owners.sort();
    // Every client command has a client option: it was typed after `emulator` or `completions`.
    let client_option = ClientOptions::augment_args(clap::Command::new("client"))
        .get_arguments()
        .any(|arg| arg.get_long() == Some(long));
    let failure = match owners.as_slice() {
        [] => return None,
        _ if client_option => Failure::usage(format!(
            "unexpected argument '--{long}': it is an option of the client commands (put, post, create, ...), not of this one"
        ))
        .with_hint("see this command's --help for the options it takes"),
        [only] => Failure::usage(format!("unexpected argument '--{long}': it belongs to {only}"))
            .with_hint(format!("see `safe-ad {only} --help`")),
        [first @ .., last] => Failure::usage(format!(
            "unexpected argument '--{long}': it belongs to {} and {last}",
            first.join(", ")
        ))
        .with_hint(format!("see `safe-ad {} --help`", owners[0])),
    };
    Some(failure)
}

fn reported(reporter: &Reporter, failure: Failure) -> Done {
    reporter.failed(&failure);
    Done::Failed(failure.class)
}

/// The client options of every level of the command line, merged.
fn client_options(cli: &Cli) -> Result<ClientOptions, Failure> {
    let top = &cli.options.0;
    let levels = match &cli.command {
        Command::Put(c) | Command::Post(c) | Command::Metadata(c) | Command::Drop(c) => {
            vec![top, &c.options.0]
        }
        Command::Create(c) => vec![top, &c.options.0],
        Command::Open(c) => vec![top, &c.options.0],
        Command::Reopen(c) => vec![top, &c.options.0],
        Command::ClearData(c) | Command::ClearDeletedData(c) => vec![top, &c.options.0],
        Command::Show(c) => vec![top, &c.options.0],
        Command::Remove(c) | Command::Restore(c) | Command::Purge(c) => vec![top, &c.options.0],
        Command::Append(c) => vec![top, &c.options.0],
        Command::Auth(auth) => vec![
            top,
            &auth.options.0,
            match &auth.command {
                AuthCommand::Login(login) => &login.options.0,
                AuthCommand::Status(leaf)
                | AuthCommand::Logout(leaf)
                | AuthCommand::Token(leaf) => &leaf.options.0,
            },
        ],
        Command::Config(config) => vec![
            top,
            &config.options.0,
            match &config.command {
                ConfigCommand::Path(leaf) | ConfigCommand::Show(leaf) => &leaf.options.0,
                ConfigCommand::Set(set) => &set.options.0,
                ConfigCommand::Unset(unset) => &unset.options.0,
            },
        ],
        Command::Completions(_) => {
            settings::refuse_options(top, "completions")?;
            Vec::new()
        }
        #[cfg(feature = "emulator")]
        Command::Emulator(_) => {
            settings::refuse_options(top, "emulator")?;
            Vec::new()
        }
    };
    settings::merge_options(&levels)
}

fn dispatch(
    command: &Command,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    use commands::{auth, completions, config, handles, items, metadata, operations, show};
    match command {
        Command::Create(c) => handles::create(c, options, reporter),
        Command::Open(c) => handles::open(c, options, reporter),
        Command::Reopen(c) => handles::reopen(c, options, reporter),
        Command::Drop(c) => handles::drop(&c.handles, options, reporter),
        Command::Put(c) => operations::run(Operation::Put, None, &c.handles, options, reporter),
        Command::Post(c) => operations::run(Operation::Post, None, &c.handles, options, reporter),
        Command::ClearData(c) => {
            operations::run(Operation::ClearData, c.save, &c.handles, options, reporter)
        }
        Command::ClearDeletedData(c) => operations::run(
            Operation::ClearDeletedData,
            c.save,
            &c.handles,
            options,
            reporter,
        ),
        Command::Metadata(c) => metadata::run(&c.handles, options, reporter),
        Command::Show(c) => show::run(c, options, reporter),
        Command::Remove(c) => items::at_indexes(Operation::Remove, c, options, reporter),
        Command::Restore(c) => items::at_indexes(Operation::Restore, c, options, reporter),
        Command::Purge(c) => items::at_indexes(Operation::Purge, c, options, reporter),
        Command::Append(c) => items::append(c, options, reporter),
        Command::Auth(auth) => auth::run(&auth.command, options, reporter),
        Command::Config(config) => config::run(&config.command, options, reporter),
        Command::Completions(c) => completions::run(c.shell, reporter),
        #[cfg(feature = "emulator")]
        Command::Emulator(args) => commands::emulator::run(args),
    }
}
