//! Every command's [`Spec`], in one list ([`COMMANDS`]), and what clap is given from it: each
//! command's texts and client options, added as clap builds the command ([`WithOptions`]).
//!
//! Above the files that describe the commands (`handles`, `items`, ...: each holds its specs
//! beside its arguments, and takes [`Spec`] from `spec` and the options from `options`), so
//! that they import nothing that imports them.

use clap::builder::Resettable;

use super::options::{Opt, Opts, CLIENT_OPTIONS};
use super::spec::Spec;

/// Every command, in the order `safe-ad --help` lists them, each group before its own: the one
/// list the parser, help, man pages, completions, the docs tables and the tests read.
pub const COMMANDS: &[&Spec] = &[
    &super::handles::CREATE,
    &super::handles::OPEN,
    &super::handles::PUT,
    &super::handles::POST,
    &super::handles::CLEAR_DATA,
    &super::handles::CLEAR_DELETED_DATA,
    &super::items::REMOVE,
    &super::items::RESTORE,
    &super::items::PURGE,
    &super::items::APPEND,
    &super::handles::METADATA,
    &super::items::SHOW,
    &super::items::CAT,
    &super::items::STATUS,
    &super::poll::WAIT,
    &super::poll::WATCH,
    &super::handles::REOPEN,
    &super::handles::DROP,
    &super::filter::FILTER,
    &super::filter::FILTER_SHOW,
    &super::filter::FILTER_ADD,
    &super::filter::FILTER_REMOVE,
    &super::filter::FILTER_TYPE,
    #[cfg(feature = "emulator")]
    &super::capture::CAPTURE,
    &super::auth::AUTH,
    &super::auth::AUTH_LOGIN,
    &super::auth::AUTH_STATUS,
    &super::auth::AUTH_LOGOUT,
    &super::auth::AUTH_TOKEN,
    &super::auth::AUTH_WHOAMI,
    &super::auth::CONFIG,
    &super::auth::CONFIG_PATH,
    &super::auth::CONFIG_SHOW,
    &super::auth::CONFIG_SET,
    &super::auth::CONFIG_UNSET,
    &super::offline::DECODE,
    &super::offline::COMPLETIONS,
    &super::offline::MAN,
    &super::shell::SHELL,
    #[cfg(feature = "emulator")]
    &super::emulator::EMULATOR,
    #[cfg(feature = "emulator")]
    &super::emulator::EMULATOR_REQUESTS,
    #[cfg(feature = "emulator")]
    &super::emulator::EMULATOR_EXPORT,
    #[cfg(feature = "emulator")]
    &super::emulator::EMULATOR_LIST,
    #[cfg(feature = "emulator")]
    &super::emulator::EMULATOR_ENV,
];

/// The spec of the command at `path` (`"auth status"`).
pub fn spec_of(path: &str) -> Option<&'static Spec> {
    COMMANDS.iter().copied().find(|spec| spec.path == path)
}

/// The client options the command at `path` takes (none for a path that is no command).
pub fn options_of(path: &str) -> Opts {
    spec_of(path).map_or(Opts::NONE, |spec| spec.options)
}

/// Gives a clap command the texts of its spec. clap keeps the texts of the derive where the
/// spec has none (a group's arguments struct has no doc comment to give).
pub(super) fn described(command: clap::Command, spec: &Spec) -> clap::Command {
    let mut command = command.about(spec.about);
    command = match spec.long_about {
        Some(long) => command.long_about(long),
        None => command.long_about(None::<&str>),
    };
    if let Some(after) = spec.after_help {
        command = command.after_help(after);
    }
    if let Some(usage) = spec.usage {
        command = command.override_usage(usage);
    }
    command
}

/// The commands that take the client option `opt`, in [`COMMANDS`]' order (for the error that
/// says where an option belongs).
pub fn taking(opt: super::Opt) -> Vec<&'static str> {
    COMMANDS
        .iter()
        .filter(|spec| spec.options.contains(opt))
        .map(|spec| spec.path)
        .collect()
}

/// Before the subcommand: every option that any command takes.
pub(super) fn add_every_option(command: clap::Command) -> clap::Command {
    let all = COMMANDS
        .iter()
        .fold(Opts::NONE, |all, spec| all.union(spec.options));
    add_options(command, all, true)
}

/// A command's derived arguments followed by its client options (its spec's), and those of its
/// own subcommands (`auth status`), in that order (the order help, man pages and completions
/// list them). The commands' enum is `defer`red, so this runs only for a command clap builds.
#[derive(Debug)]
pub struct WithOptions<T>(pub T);

impl<T> std::ops::Deref for WithOptions<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: clap::Args> clap::Args for WithOptions<T> {
    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }

    fn augment_args(command: clap::Command) -> clap::Command {
        with_rows(command, T::augment_args)
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        with_rows(command, T::augment_args_for_update)
    }
}

impl<T: clap::FromArgMatches> clap::FromArgMatches for WithOptions<T> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(WithOptions)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }
}

/// Adds to a command of the first level its derived arguments (`augment`), then its row and to
/// each of its subcommands theirs.
fn with_rows(command: clap::Command, augment: fn(clap::Command) -> clap::Command) -> clap::Command {
    // The texts of the command's entry in the enum, which the derive sets before it defers the
    // arguments: the arguments' struct would put its own doc comment over them.
    let about = command.get_about().cloned();
    let long_about = command.get_long_about().cloned();
    let command = augment(command)
        .about(about.map_or(Resettable::Reset, Resettable::Value))
        .long_about(long_about.map_or(Resettable::Reset, Resettable::Value));
    let name = command.get_name().to_string();
    let command = add_options(command, options_of(&name), false);
    command.mut_subcommands(|sub| {
        let path = format!("{name} {}", sub.get_name());
        let sub = match spec_of(&path) {
            Some(spec) => described(sub, spec),
            None => sub,
        };
        add_options(sub, options_of(&path), false)
    })
}

/// Adds the options of `opts` to a command. Before the subcommand (`top`) every option any
/// command takes is accepted, and `run` refuses one the chosen command does not take; the
/// short help there leaves them out, as they belong to the commands. A command's `--help` lists
/// them in a group of their own after its own options; its `-h` in one closing line.
fn add_options(mut command: clap::Command, opts: Opts, top: bool) -> clap::Command {
    for opt in Opt::ALL {
        if opts.contains(opt) {
            let mut arg = opt.arg();
            if top {
                arg = arg
                    .hide_short_help(true)
                    .help_heading("Options of the commands (accepted here too)");
            } else {
                // `-h` names them in one line instead (see `help`): they are the same for
                // every command, and would fill most of it.
                arg = arg.help_heading(CLIENT_OPTIONS).hide_short_help(true);
            }
            command = command.arg(arg);
        }
    }
    command
}
