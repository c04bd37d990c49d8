//! Parsing the command line and handing it to its command: the dispatcher between `main` and
//! `commands`.
//!
//! The client options may be given before the subcommand and after it (see `cli`); `settings`
//! merges them into one set, and refuses one the command does not take, before anything else
//! runs. The reporter is made from that set.

use std::ffi::OsString;

use clap::{FromArgMatches, ValueEnum};

use crate::batch::Procedure;
use crate::cli::{Cli, ClientOptions, ColorWhen, Command, Opt};
use crate::commands::{self, Context, Next};
use crate::help;
use crate::launcher::Operation;
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
use crate::runtime;
use crate::settings::{self, Environment};

/// Runs safe-ad with these arguments (the program name first) and says how it ended.
pub fn run(args: impl IntoIterator<Item = OsString>) -> Done {
    let args: Vec<OsString> = args.into_iter().collect();
    // `--version` alone, the commonest probe of a tool (scripts, package checks), is answered
    // before clap builds its tree: that build is most of what the answer would cost. Any other
    // line with it goes through clap, which prints the same line (a test compares the two).
    if let [_, only] = args.as_slice() {
        if only == "--version" || only == "-V" {
            let reporter = Reporter::new(false, false, ColorWhen::Never);
            reporter.version();
            return reporter.finish(Done::Success);
        }
    }
    let env = Environment::from_process();
    // The tokens known before any argument is checked are kept out of every word from the
    // first (clap's own errors echo what was typed).
    let config = settings::ConfigRead::read(&env);
    let typed = typed_token_file(&args);
    crate::report::keep_out(settings::known_tokens(typed, &env, &config));
    if let Some(help) = help_of_help(&args) {
        let reporter = Reporter::new(false, false, ColorWhen::Never);
        reporter.help(&help);
        return reporter.finish(Done::Success);
    }
    let matches = match parse(&args) {
        Ok(matches) => matches,
        Err(error) => return clap_failed(&error, &args, &env),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => return clap_failed(&error, &args, &env),
    };
    let (path, levels) = levels(&matches);
    // The environment's token and the config file's are kept out already; a level's own
    // --token-file may name another file than the one found before parsing.
    for level in &levels {
        if let Some(path) = level
            .token_file
            .as_deref()
            .filter(|path| Some(*path) != typed)
        {
            crate::report::keep_out(settings::token_in_regular_file(path));
        }
    }
    let options = match settings::merge_options(&path, &levels) {
        Ok(options) => options,
        Err(failure) => {
            let failure = own_option_before(&path, &levels[0]).unwrap_or(failure);
            let colour = settings::colour_choice(levels[0].color, &env);
            return reported(&Reporter::new(false, false, colour), failure);
        }
    };
    let reporter = Reporter::new(
        options.quiet,
        options.json,
        settings::colour_choice(options.color, &env),
    );
    let cx = Context {
        options: &options,
        env: &env,
        config: &config,
        reporter: &reporter,
    };
    let done = match dispatch(&cli.command, cx) {
        Ok(done) => done,
        Err(failure) => reported(&reporter, failure),
    };
    reporter.finish(done)
}

/// The line parsed by the definition alone (`cli::command`): the texts `help` writes after the
/// options are formatted only when clap stops to print help or an error, when the line is
/// parsed again by the whole command (`help::command`) so that what prints is the same. clap
/// builds only the commands on the parsed path, each with its row of the options table.
fn parse(args: &[OsString]) -> Result<clap::ArgMatches, clap::Error> {
    match crate::cli::command().try_get_matches_from(args) {
        Ok(matches) => Ok(matches),
        // The version is the program's: no help text is in it.
        Err(error) if error.kind() == clap::error::ErrorKind::DisplayVersion => Err(error),
        Err(_) => help::command().try_get_matches_from(args),
    }
}

/// `--token-file PATH` as typed, before clap has read the line (the last one given).
fn typed_token_file(args: &[OsString]) -> Option<&std::path::Path> {
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .map_while(|arg| arg.to_str())
        .take_while(|arg| *arg != "--")
        .collect();
    let at = words
        .iter()
        .rposition(|word| word.starts_with("--token-file"))?;
    match words[at].strip_prefix("--token-file")? {
        "" => words.get(at + 1).copied().map(std::path::Path::new),
        rest => rest.strip_prefix('=').map(std::path::Path::new),
    }
}

/// The command's path (`"auth status"`) and the client options typed at each level of it, the
/// top level first.
fn levels(matches: &clap::ArgMatches) -> (String, Vec<ClientOptions>) {
    let mut path = Vec::new();
    let mut levels = vec![ClientOptions::from_level(matches)];
    let mut level = matches;
    while let Some((name, sub)) = level.subcommand() {
        path.push(name);
        levels.push(ClientOptions::from_level(sub));
        level = sub;
    }
    (path.join(" "), levels)
}

/// clap could not parse the line, or help or the version was asked for.
fn clap_failed(error: &clap::Error, args: &[OsString], env: &Environment) -> Done {
    // A refused `emulator --background` fails an `eval "$(...)"` of it too.
    #[cfg(feature = "emulator")]
    if error.exit_code() != 0 {
        safe_ad_emulator::background_refused(args);
    }
    let reporter = Reporter::new(
        false,
        false,
        settings::colour_choice(typed_colour(args), env),
    );
    if let Some(failure) = misplaced_option(error, args)
        .or_else(|| mistyped_command(error))
        .or_else(|| command_without_dashes(error, args))
    {
        return reported(&reporter, failure);
    }
    reporter.clap(error);
    // Help and the version are output: one that could not be written is not exit 0.
    reporter.finish(match error.exit_code() {
        0 => Done::Success,
        _ => Done::Failed(Class::Usage),
    })
}

/// `--color WHEN` as typed, for a line clap could not parse: its errors are coloured as asked.
fn typed_colour(args: &[OsString]) -> Option<ColorWhen> {
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .map_while(|arg| arg.to_str())
        .take_while(|arg| *arg != "--")
        .collect();
    let value = words.iter().enumerate().rev().find_map(|(at, word)| {
        match word.strip_prefix("--color") {
            Some(rest) if rest.starts_with('=') => Some(&rest[1..]),
            Some("") => words.get(at + 1).copied(),
            _ => None,
        }
    })?;
    ColorWhen::from_str(value, false).ok()
}

/// An option typed after a command that does not take it, where another does (`config show
/// --jobs 4`, `put --save post 7`): clap would suggest passing it as a value; saying which
/// commands take it helps more.
fn misplaced_option(error: &clap::Error, args: &[OsString]) -> Option<Failure> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(typed)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    if typed == "-V" || typed == "--version" {
        // The version is the program's; clap would suggest --verbose.
        let here = typed_path(&help::command(), args, typed);
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
    let here = typed_path(&command, args, typed);
    Some(settings::not_taken(&format!("--{long}"), &here, &owners))
}

/// A client option typed before a command that has an option of that name of its own
/// (`safe-ad -q emulator`): "does not take --quiet" would be untrue of the command, whose own
/// goes after its name.
fn own_option_before(path: &str, top: &ClientOptions) -> Option<Failure> {
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

/// The subcommand path that the words of `args` before `until` name (`"config show"`).
fn typed_path(root: &clap::Command, args: &[OsString], until: &str) -> String {
    let mut path = Vec::new();
    let mut command = root;
    for arg in args.iter().skip(1).map_while(|arg| arg.to_str()) {
        if arg == "--" || arg == until {
            break;
        }
        if let Some(sub) = command.find_subcommand(arg) {
            path.push(sub.get_name());
            command = sub;
        }
    }
    path.join(" ")
}

/// `safe-ad help --help`: clap's `help` command takes no options, so it would be "unrecognized
/// subcommand '--help'"; the help of `help` is what was asked for.
fn help_of_help(args: &[OsString]) -> Option<String> {
    let words: Vec<&str> = args.iter().skip(1).map_while(|arg| arg.to_str()).collect();
    if !matches!(words.as_slice(), ["help", "--help" | "-h"]) {
        return None;
    }
    let mut command = help::command();
    command.build();
    let help = command.find_subcommand_mut("help")?;
    Some(help.render_help().to_string())
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
fn command_without_dashes(error: &clap::Error, args: &[OsString]) -> Option<Failure> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(typed)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    if typed.starts_with('-') || typed_path(&help::command(), args, typed) != "emulator" {
        return None;
    }
    // The line as it should have been: `--` before the command.
    let words: Vec<String> = args
        .iter()
        .skip(1)
        .map(|arg| shell_word(&arg.to_string_lossy()))
        .collect();
    let at = args.iter().skip(1).position(|arg| arg == typed.as_str())?;
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

fn reported(reporter: &Reporter, failure: Failure) -> Done {
    reporter.ended(&failure);
    Done::Failed(failure.class)
}

/// Hands the command line to its command; the one runtime is built only for a command that
/// sends (`runtime::finish`).
fn dispatch(command: &Command, cx: Context) -> Result<Done, Failure> {
    use commands::{auth, cat, completions, config, decode, handles, items, man, operations};
    use commands::{show, status};
    let next = match command {
        Command::Create(c) => handles::create(c, cx)?,
        Command::Open(c) => handles::open(c, cx)?,
        Command::Reopen(c) => {
            let reopen = Procedure::Reopen { drop_old: c.drop };
            operations::run_procedure(reopen, &c.handles, cx)?
        }
        Command::Drop(c) => operations::run(Operation::Drop, None, &c.handles, cx)?,
        Command::Put(c) => operations::run(Operation::Put, None, &c.handles, cx)?,
        Command::Post(c) => operations::run(Operation::Post, None, &c.handles, cx)?,
        Command::ClearData(c) => operations::run(Operation::ClearData, c.save, &c.handles, cx)?,
        Command::ClearDeletedData(c) => {
            operations::run(Operation::ClearDeletedData, c.save, &c.handles, cx)?
        }
        Command::Metadata(c) => operations::run(Operation::Metadata, None, &c.handles, cx)?,
        Command::Show(c) => show::run(c, cx)?,
        Command::Cat(c) => cat::run(c, cx)?,
        Command::Status(c) => status::run(c, cx)?,
        Command::Remove(c) => items::at_indexes(Operation::Remove, c, cx)?,
        Command::Restore(c) => items::at_indexes(Operation::Restore, c, cx)?,
        Command::Purge(c) => items::at_indexes(Operation::Purge, c, cx)?,
        Command::Append(c) => items::append(c, cx)?,
        Command::Auth(auth) => auth::run(&auth.command, cx)?,
        Command::Config(config) => Next::Done(config::run(&config.command, cx)?),
        Command::Completions(c) => Next::Done(completions::run(c.shell, cx.reporter)?),
        Command::Decode(c) => Next::Done(decode::run(c, cx.reporter)?),
        Command::Man(c) => Next::Done(man::run(c, cx.reporter)?),
        #[cfg(feature = "emulator")]
        Command::Emulator(args) => {
            use crate::cli::EmulatorAction;
            match &args.action {
                Some(EmulatorAction::Requests(requests)) => commands::journal::run(requests, cx)?,
                Some(EmulatorAction::Export(export)) => commands::export::run(export, cx)?,
                Some(EmulatorAction::List) | None => Next::Done(commands::emulator::run(args, cx)?),
            }
        }
    };
    runtime::finish(next)
}
