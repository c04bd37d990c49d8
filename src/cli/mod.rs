//! The command-line surface: clap definitions, and the one description of each command.
//!
//! No logic and no output: these structs hold what was typed, unchecked. Each command's
//! [`Spec`] stands beside its arguments (`handles`, `items`, `poll`, `filter`, `auth`, `offline`,
//! `shell`, `emulator`), its man page's extras with it (the emulator's long page in
//! `emulator_man`; the words about items that the main page shares, in `item_prose`), and
//! [`COMMANDS`] lists them all: the texts clap shows, the client options each takes, what it
//! reaches, its routes and its sample invocation. `settings` merges and checks the client
//! options, `help` adds the texts written from tables (exit codes, environment, examples), and
//! the same definition is the source of the completions and the man pages (see `generate`). The
//! value parsers used here live below, in `values` and `config_file`.
//!
//! The client options (`--launcher-url`, `--json`, `--jobs`, ...) are offered by each command
//! only where they act, as its spec says; [`command`] adds them. They are also accepted before
//! the subcommand (`safe-ad -q put 1`), where `run` refuses one the chosen command does not
//! take.

use clap::{Parser, Subcommand};

mod auth;
#[cfg(feature = "emulator")]
mod capture;
#[cfg(feature = "emulator")]
mod emulator;
#[cfg(feature = "emulator")]
mod emulator_man;
mod filter;
mod handles;
mod item_prose;
mod items;
mod offline;
mod options;
mod poll;
mod registry;
mod shell;
mod spec;

pub use auth::{AuthArgs, AuthCommand, ConfigArgs, ConfigCommand, LoginArgs};
#[cfg(feature = "emulator")]
pub use capture::CaptureCommand;
#[cfg(feature = "emulator")]
pub use emulator::{EmulatorAction, EmulatorCommand, ExportArgs, RequestsArgs};
pub use filter::{
    FilterArgs, FilterCommand, FilterKeysCommand, FilterKind, FilterShowCommand, FilterTypeCommand,
};
pub use handles::{
    ClearCommand, CreateCommand, HandleArgs, HandleCommand, OpenCommand, ReopenCommand, SaveWith,
    REOPEN_DROP_BY_NAME, SAVE_PUT_BY_NAME,
};
pub(crate) use item_prose::{item_order, show_json, show_sample};
pub use items::{
    AppendCommand, CatCommand, EncryptWith, ItemCommand, RestoreCommand, SelectorArgs, ShowCommand,
    StatusCommand,
};
pub use offline::{CompletionsArgs, DecodeCommand, ManArgs, Shell};
pub use options::{ClientOptions, ColorWhen, Opt, Opts, CLIENT_OPTIONS};
pub use poll::{WaitCommand, WatchCommand};
pub use registry::{options_of, spec_of, taking, WithOptions, COMMANDS};
pub use shell::{Dot, ShellArgs};
pub use spec::{Man, ManSection, ManTable, Names, Reaches, Spec};

use registry::add_every_option;

const ABOUT: &str =
    "Save appendable data to the SAFE network, read it and change its items, through the SAFE Launcher";

const LONG_ABOUT: &str = "\
Save appendable data to the SAFE network, read it and change its items, through the local HTTP \
API of the SAFE Launcher.

Give a command the data's name and it works on the network's data: it takes a fresh copy for the \
run, makes the change, saves it and gives the copy back, so what it prints is what the network \
holds. A handle (a number the launcher gave you: `create`, `open`) goes in the same place, to work \
on the launcher's copy itself: there a change stays in the copy until you save it (`post`, or \
`--save post`), and `put` saves data never saved.";

#[derive(Debug, Parser)]
#[command(name = "safe-ad", version, about = ABOUT, long_about = LONG_ABOUT)]
#[command(subcommand_required = true, arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The clap command: the derived definition with each command's texts and client options
/// added from its spec. A command's arguments, its client options with them (see
/// [`WithOptions`]), are added when clap builds it (`defer`): it builds only the commands on
/// the parsed path (and every command when completions or man pages are written, or help
/// lists them), so start-up does not pay for the twenty others. Their texts are given now: the
/// list of commands shows each one's line, and `help` adds to what follows its options.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command()
        .mut_subcommands(|sub| match spec_of(sub.get_name()) {
            Some(spec) => registry::described(sub, spec),
            None => sub,
        })
        .defer(add_every_option)
}

/// [`command`] with the commands that have subcommands of their own (`auth`, `config`,
/// `filter`, `emulator`) built out now, for help, completions and man pages: clap lists the subcommands
/// under `help auth` from the tree as it stands when the top is built, before a deferred
/// command is. Each is given what the derive deferred (its [`WithOptions`] arguments).
pub fn whole_command() -> clap::Command {
    use clap::Args;
    fn expand<T: Args>(command: clap::Command) -> clap::Command {
        T::augment_args(command.defer(|command| command))
    }
    command().mut_subcommands(|sub| match sub.get_name() {
        "auth" => expand::<WithOptions<AuthArgs>>(sub),
        "config" => expand::<WithOptions<ConfigArgs>>(sub),
        "filter" => expand::<WithOptions<FilterArgs>>(sub),
        #[cfg(feature = "emulator")]
        "emulator" => expand::<WithOptions<EmulatorCommand>>(sub),
        _ => sub,
    })
}

/// The commands, each with its spec in the module of its arguments (and in [`COMMANDS`]).
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    Create(WithOptions<CreateCommand>),
    Open(WithOptions<OpenCommand>),
    Put(WithOptions<HandleCommand>),
    Post(WithOptions<HandleCommand>),
    ClearData(WithOptions<ClearCommand>),
    ClearDeletedData(WithOptions<ClearCommand>),
    Remove(WithOptions<ItemCommand>),
    Restore(WithOptions<RestoreCommand>),
    Purge(WithOptions<ItemCommand>),
    Append(WithOptions<AppendCommand>),
    Metadata(WithOptions<HandleCommand>),
    Show(WithOptions<ShowCommand>),
    Cat(WithOptions<CatCommand>),
    Status(WithOptions<StatusCommand>),
    Wait(WithOptions<WaitCommand>),
    Watch(WithOptions<WatchCommand>),
    Reopen(WithOptions<ReopenCommand>),
    Drop(WithOptions<HandleCommand>),
    Filter(WithOptions<FilterArgs>),
    #[cfg(feature = "emulator")]
    Capture(WithOptions<CaptureCommand>),
    Auth(WithOptions<AuthArgs>),
    Config(WithOptions<ConfigArgs>),
    Decode(WithOptions<DecodeCommand>),
    Completions(WithOptions<CompletionsArgs>),
    Man(WithOptions<ManArgs>),
    Shell(WithOptions<ShellArgs>),
    #[cfg(feature = "emulator")]
    Emulator(WithOptions<EmulatorCommand>),
}
