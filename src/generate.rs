//! Shell completions and man pages, written from the clap definition (`help::command()`, whose
//! per-command options come from the commands' specs (`cli::COMMANDS`)): `safe-ad completions
//! SHELL` prints the completions, `safe-ad man [COMMAND...]` a page ([`man`]).
//!
//! The files under `completions/` are committed, and the Debian package ships them; a test
//! generates them with [`completion`] and fails when they drift.
//!
//! - bash, zsh and fish: thin scripts ([`scripts`]) that ask `safe-ad __complete` what
//!   completes; [`complete`] decides it, for them and for the interactive `shell`, by walking
//!   the clap definition, so a new command needs no edit here.
//! - elvish, powershell: clap_complete's, written from the same definition.
//!
//! The man pages ([`man`]) come from the same clap definition and tables, and the walk below
//! ([`subcommand_paths`], [`names`], [`takes_value`]); the committed `man/` is checked against
//! them by the tests, as `completions/` is.

pub mod complete;
pub mod man;
mod scripts;

use clap::{Arg, Command, ValueHint};
use clap_complete::Shell as CompleteShell;

use crate::cli::Shell;
use crate::help;

/// The name the completions are written for and the man pages are named after.
pub const BIN: &str = "safe-ad";

/// Completions for one shell, as `safe-ad completions <SHELL>` prints them.
pub fn completion(shell: Shell) -> Vec<u8> {
    if let Some(script) = scripts::script(shell) {
        return script.as_bytes().to_vec();
    }
    let generator = match shell {
        Shell::Elvish => CompleteShell::Elvish,
        _ => CompleteShell::PowerShell,
    };
    let mut out = Vec::new();
    clap_complete::generate(generator, &mut for_completion(), BIN, &mut out);
    out
}

/// The built command, with every value that is not a file marked as such: an argument clap
/// knows nothing about (`ValueHint::Unknown`) gets `ValueHint::Other`, so no shell offers file
/// names for it. Every argument of safe-ad that names a file is a `PathBuf` (which clap hints as
/// a path) or has a path hint of its own, so an unknown one is a number, handle, name, URL, key
/// or word (`path_arguments_are_hinted_as_paths` below keeps that true).
fn for_completion() -> Command {
    fn hint(command: Command) -> Command {
        let ids: Vec<String> = command
            .get_arguments()
            .filter(|arg| takes_value(arg) && arg.get_value_hint() == ValueHint::Unknown)
            .map(|arg| arg.get_id().as_str().to_owned())
            .collect();
        let command = ids.iter().fold(command, |command, id| {
            command.mut_arg(id, |arg| arg.value_hint(ValueHint::Other))
        });
        let names: Vec<String> = command
            .get_subcommands()
            .map(|sub| sub.get_name().to_owned())
            .collect();
        names
            .iter()
            .fold(command, |command, name| command.mut_subcommand(name, hint))
    }
    let mut command = help::command();
    command.build();
    let mut command = hint(command).bin_name(BIN);
    command.build();
    command
}

/// Whether an argument takes a value (an option with an argument, or a positional).
pub fn takes_value(arg: &Arg) -> bool {
    arg.get_num_args().is_some_and(|range| range.takes_values())
}

/// How the value of an argument completes, in every shell.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Values {
    /// One of its possible values.
    Words,
    /// A file name.
    Files,
    /// A directory name.
    Dirs,
    /// A command name.
    Commands,
    /// A command line: a command name, then that command's arguments.
    CommandLine,
    /// Nothing: a number, handle, name, URL, key or word the shell cannot guess.
    Nothing,
}

impl Values {
    fn of(arg: &Arg) -> Values {
        if arg
            .get_possible_values()
            .iter()
            .any(|value| !value.is_hide_set())
        {
            return Values::Words;
        }
        match arg.get_value_hint() {
            ValueHint::AnyPath | ValueHint::FilePath | ValueHint::ExecutablePath => Values::Files,
            ValueHint::DirPath => Values::Dirs,
            ValueHint::CommandName => Values::Commands,
            ValueHint::CommandString | ValueHint::CommandWithArguments => Values::CommandLine,
            _ => Values::Nothing,
        }
    }
}

/// Every path of subcommands below `root`, parents before children: `[config]`,
/// `[config, set]`, ... Hidden commands and the `help` subcommand clap adds are left out.
pub fn subcommand_paths(root: &Command) -> Vec<Vec<&Command>> {
    fn go<'a>(command: &'a Command, path: &[&'a Command], out: &mut Vec<Vec<&'a Command>>) {
        for sub in command.get_subcommands() {
            if sub.is_hide_set() || sub.get_name() == "help" {
                continue;
            }
            let mut deeper = path.to_vec();
            deeper.push(sub);
            out.push(deeper.clone());
            go(sub, &deeper, out);
        }
    }
    let mut out = Vec::new();
    go(root, &[], &mut out);
    out
}

/// The names of a path: `["config", "set"]`.
pub fn names<'a>(path: &[&'a Command]) -> Vec<&'a str> {
    path.iter().map(|command| command.get_name()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule of [`for_completion`]: an argument that names a file or directory is hinted as
    /// a path, so no file argument loses its file names.
    #[test]
    fn path_arguments_are_hinted_as_paths() {
        let root = for_completion();
        let mut commands = vec![&root];
        let paths = subcommand_paths(&root);
        commands.extend(paths.iter().map(|path| *path.last().expect("never empty")));
        let mut seen = 0;
        for command in commands {
            for arg in command.get_arguments().filter(|arg| takes_value(arg)) {
                let names = arg.get_value_names().unwrap_or_default();
                if names
                    .iter()
                    .any(|name| ["FILE", "PATH", "DIR"].contains(&name.as_str()))
                {
                    seen += 1;
                    assert!(
                        matches!(Values::of(arg), Values::Files | Values::Dirs),
                        "{} --{:?} names a file but completes {:?}",
                        command.get_name(),
                        arg.get_long(),
                        Values::of(arg)
                    );
                }
            }
        }
        assert!(seen > 3, "{seen}");
    }

    #[test]
    fn values_of_numbers_urls_and_addresses_are_nothing() {
        let root = for_completion();
        let put = root.find_subcommand("put").expect("put");
        for id in ["jobs", "retries", "timeout", "launcher_url"] {
            let arg = put
                .get_arguments()
                .find(|arg| arg.get_id() == id)
                .expect(id);
            assert_eq!(Values::of(arg), Values::Nothing, "{id}");
        }
    }
}
