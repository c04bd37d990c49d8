//! The command-line surface: clap definitions and the help texts written beside them.
//!
//! No logic and no output: these structs hold what was typed, unchecked. `settings` merges and
//! checks the client options, `help` adds the texts written from tables (exit codes,
//! environment, examples), and the same definition is the source of the completions and the man
//! page (see `generate`). The value parsers used here live below, in `values` and `config_file`.
//!
//! The client options (`--launcher-url`, `--json`, `--jobs`, ...) are offered by each command
//! only where they act: [`COMMAND_OPTIONS`] is the one table of which command takes which, and
//! [`command`] adds them from it. They are also accepted before the subcommand (`safe-ad -q put
//! 1`), where `run` refuses one the chosen command does not take.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{Arg, ArgGroup, Args, Parser, Subcommand, ValueEnum};

use crate::config_file::Key;
use crate::values;

const ABOUT: &str =
    "Save appendable data to the SAFE network and clear its data items, through the SAFE Launcher";

const LONG_ABOUT: &str = "\
Save appendable data to the SAFE network and clear its data items, through the local HTTP API \
of the SAFE Launcher.

An appendable data is addressed by a handle (a number the launcher gave you). `put` saves a new \
appendable data to the network, `post` saves one that is already there. `clear-data` and \
`clear-deleted-data` change only the launcher's local copy: the change reaches the network when you \
save it afterwards, normally with `post`.";

#[derive(Debug, Parser)]
#[command(name = "safe-ad", version, about = ABOUT, long_about = LONG_ABOUT)]
#[command(subcommand_required = true, arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The clap command: the derived definition with each command's client options added, as
/// [`COMMAND_OPTIONS`] says. The options are added when clap builds a command (`defer`): it
/// builds only the command being parsed (and every command when completions or man pages are
/// written, or help lists them), so start-up does not pay for twenty copies.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    with_table_options(Cli::command().defer(add_every_option), "")
}

/// Gives each subcommand of `command` (whose path is `prefix`) the adder of its row of
/// [`COMMAND_OPTIONS`], in one pass over the tree: looking each row up from the root instead
/// moved the whole command (a large value) twice per row, a quarter of start-up's instructions.
fn with_table_options(command: clap::Command, prefix: &str) -> clap::Command {
    command.mut_subcommands(|sub| {
        let path = match prefix {
            "" => sub.get_name().to_string(),
            prefix => format!("{prefix} {}", sub.get_name()),
        };
        let sub = match COMMAND_OPTIONS.iter().position(|(row, _)| *row == path) {
            Some(at) => sub.defer(ADD_OPTIONS[at]),
            None => sub,
        };
        if sub.has_subcommands() {
            with_table_options(sub, &path)
        } else {
            sub
        }
    })
}

/// Before the subcommand: every option that any command takes.
fn add_every_option(command: clap::Command) -> clap::Command {
    let all = COMMAND_OPTIONS
        .iter()
        .fold(Opts::NONE, |all, (_, opts)| all.union(*opts));
    add_options(command, all, true)
}

/// Adds the options of row `AT` of [`COMMAND_OPTIONS`]; clap's `defer` takes a plain function,
/// so there is one per row.
fn add_options_of<const AT: usize>(command: clap::Command) -> clap::Command {
    match COMMAND_OPTIONS.get(AT) {
        Some((_, opts)) => add_options(command, *opts, false),
        None => command,
    }
}

macro_rules! adders {
    ($($at:literal)*) => { [$(add_options_of::<$at> as fn(clap::Command) -> clap::Command),*] };
}
const ADD_OPTIONS: [fn(clap::Command) -> clap::Command; 32] =
    adders!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
const _: () = assert!(
    COMMAND_OPTIONS.len() <= ADD_OPTIONS.len(),
    "add adders for the new rows"
);

/// Adds the options of `opts` to a command. Before the subcommand (`top`) every option any
/// command takes is accepted, and `run` refuses one the chosen command does not take; the
/// short help there leaves them out, as they belong to the commands.
fn add_options(mut command: clap::Command, opts: Opts, top: bool) -> clap::Command {
    for opt in Opt::ALL {
        if opts.contains(opt) {
            let mut arg = opt.arg();
            if top {
                arg = arg
                    .hide_short_help(true)
                    .help_heading("Options of the commands (accepted here too)");
            }
            command = command.arg(arg);
        }
    }
    command
}

/// One of the options that the client commands take, each only where it acts (the table is
/// [`COMMAND_OPTIONS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opt {
    LauncherUrl,
    TokenFile,
    Timeout,
    AllowInsecureHttp,
    Retries,
    Verbose,
    Quiet,
    Json,
    Jobs,
    FailFast,
    DryRun,
    Curl,
    Color,
}

impl Opt {
    /// Every option, in the order help lists them.
    pub const ALL: [Opt; 13] = [
        Opt::LauncherUrl,
        Opt::TokenFile,
        Opt::Timeout,
        Opt::AllowInsecureHttp,
        Opt::Retries,
        Opt::Quiet,
        Opt::Json,
        Opt::Jobs,
        Opt::FailFast,
        Opt::DryRun,
        Opt::Curl,
        Opt::Verbose,
        Opt::Color,
    ];

    const fn bit(self) -> u16 {
        1 << self as u16
    }

    /// The long name, without the dashes.
    fn long_name(self) -> &'static str {
        match self {
            Opt::LauncherUrl => "launcher-url",
            Opt::TokenFile => "token-file",
            Opt::Timeout => "timeout",
            Opt::AllowInsecureHttp => "allow-insecure-http",
            Opt::Retries => "retries",
            Opt::Verbose => "verbose",
            Opt::Quiet => "quiet",
            Opt::Json => "json",
            Opt::Jobs => "jobs",
            Opt::FailFast => "fail-fast",
            Opt::DryRun => "dry-run",
            Opt::Curl => "curl",
            Opt::Color => "color",
        }
    }

    /// The short name, for the three that have one.
    pub fn short(self) -> Option<char> {
        match self {
            Opt::Verbose => Some('v'),
            Opt::Quiet => Some('q'),
            Opt::Jobs => Some('j'),
            _ => None,
        }
    }

    /// The clap id, which is also the long name with `_` for `-`.
    pub fn id(self) -> &'static str {
        match self {
            Opt::LauncherUrl => "launcher_url",
            Opt::TokenFile => "token_file",
            Opt::Timeout => "timeout",
            Opt::AllowInsecureHttp => "allow_insecure_http",
            Opt::Retries => "retries",
            Opt::Verbose => "verbose",
            Opt::Quiet => "quiet",
            Opt::Json => "json",
            Opt::Jobs => "jobs",
            Opt::FailFast => "fail_fast",
            Opt::DryRun => "dry_run",
            Opt::Curl => "curl",
            Opt::Color => "color",
        }
    }

    /// `--launcher-url`.
    pub fn long(self) -> String {
        format!("--{}", self.long_name())
    }

    /// The option's clap definition, help text included.
    fn arg(self) -> Arg {
        use clap::ArgAction::SetTrue;
        use clap::ValueHint;
        let flag = |arg: Arg| arg.action(SetTrue);
        let mut base = Arg::new(self.id()).long(self.long_name());
        if let Some(short) = self.short() {
            base = base.short(short);
        }
        match self {
            Opt::LauncherUrl => base
                .value_name("URL")
                // Not `Url`: zsh would offer file:, ftp: and gopher: URLs, none of them taken.
                .value_hint(ValueHint::Other)
                .help("Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)")
                .long_help(
                    "Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)\n\n\
Overrides the SAFE_LAUNCHER_URL env var and `launcher_url` in the config file. Default: \
http://localhost:8100.",
                ),
            Opt::TokenFile => base
                .value_name("PATH")
                .value_hint(ValueHint::FilePath)
                .value_parser(clap::value_parser!(PathBuf))
                .help("Read the token from this file (`-` reads standard input)")
                .long_help(
                    "Read the token from this file (`-` reads standard input)\n\n\
Overrides the SAFE_LAUNCHER_TOKEN env var and `token` in the config file. There is no flag that \
takes the token itself: it would show in process lists and shell history.",
                ),
            Opt::Timeout => base
                .value_name("SECS")
                .value_hint(ValueHint::Other)
                .value_parser(values::parse_timeout)
                .allow_negative_numbers(true)
                .help("Give up on a request after this many seconds (default 30, at most 86400)")
                .long_help(
                    "Give up on a request after this many seconds (default 30, at most 86400)\n\n\
Overrides `timeout_secs` in the config file. Fractions are allowed (0.5).",
                ),
            Opt::AllowInsecureHttp => flag(base).help(
                "Allow plain http to a host other than this machine (sends the token in clear text)",
            ),
            Opt::Retries => base
                .value_name("N")
                .value_hint(ValueHint::Other)
                .value_parser(values::parse_retries)
                .allow_negative_numbers(true)
                .help("Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe")
                .long_help(
                    "Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe\n\n\
Any request when its connection was refused (nothing was sent). After a connection closed before \
any answer, only the reads that make nothing (metadata, the token check, serialising, content) \
and the clears: a save, an append, an index change, a drop or a request that makes a handle may \
have acted, and is never sent again. Never after an answer, never after a timeout. Waits 100 ms, \
200 ms, 400 ms, ... between tries.",
                ),
            Opt::Verbose => flag(base).help(
                "Show each request and answer on stderr: request line, headers (token masked), status, body, timing",
            ),
            Opt::Quiet => flag(base)
                .help("Print nothing on success; errors and what a stop left undone still go to stderr"),
            Opt::Json => flag(base).help("Print JSON on stdout (one object per line), and nothing else there"),
            Opt::Jobs => base
                .value_name("N")
                .value_hint(ValueHint::Other)
                .value_parser(values::parse_jobs)
                .allow_negative_numbers(true)
                .help("Run up to N requests at once (N: 1..=256, default 8); output stays in input order"),
            Opt::FailFast => flag(base)
                .help("Send no new request after the first failure (those already in flight, up to --jobs, finish)")
                .long_help(
                    "Send no new request after the first failure (those already in flight, up to --jobs, finish)\n\n\
With the default --jobs 8, up to 7 other requests may be on their way when the first failure \
comes back; they finish and are reported. `--jobs 1 --fail-fast` stops at the failing handle \
itself.",
                ),
            Opt::DryRun => flag(base).help("Print each request that would be sent (token masked) and send nothing"),
            Opt::Curl => flag(base).help(
                "Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing",
            ),
            Opt::Color => base
                .value_name("WHEN")
                .value_hint(ValueHint::Other)
                .value_parser(clap::value_parser!(ColorWhen))
                .help("Colour errors, hints and warnings: auto (on a terminal), always, never")
                .long_help(
                    "Colour errors, hints and warnings: auto (on a terminal), always, never\n\n\
Without it, NO_COLOR (set, not empty) turns colour off and CLICOLOR_FORCE (set, not 0) turns it \
on. Standard output (results, --json, --curl) is never coloured.",
                ),
        }
    }
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

/// A set of client options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opts(u16);

impl Opts {
    pub const NONE: Opts = Opts(0);

    const fn of(opts: &[Opt]) -> Opts {
        let mut bits = 0;
        let mut at = 0;
        while at < opts.len() {
            bits |= opts[at].bit();
            at += 1;
        }
        Opts(bits)
    }

    pub const fn union(self, other: Opts) -> Opts {
        Opts(self.0 | other.0)
    }

    pub fn contains(self, opt: Opt) -> bool {
        self.0 & opt.bit() != 0
    }

    /// The options in the set, in help order.
    pub fn iter(self) -> impl Iterator<Item = Opt> {
        Opt::ALL.into_iter().filter(move |opt| self.contains(*opt))
    }
}

/// Where the launcher is and how to reach it.
const CONNECT: Opts = Opts::of(&[
    Opt::LauncherUrl,
    Opt::TokenFile,
    Opt::Timeout,
    Opt::AllowInsecureHttp,
    Opt::Color,
]);
/// Commands that send requests through the HTTP module, which retries and shows exchanges.
const SENDS: Opts = CONNECT.union(Opts::of(&[Opt::Retries, Opt::Verbose]));
/// Commands with a result to print or keep quiet about.
const OUTPUT: Opts = Opts::of(&[Opt::Quiet, Opt::Json]);
/// Commands over many handles.
const BATCH: Opts = Opts::of(&[Opt::Jobs, Opt::FailFast]);
/// Commands whose requests can be printed instead of sent.
const DRY: Opts = Opts::of(&[Opt::DryRun, Opt::Curl]);
const BATCH_COMMAND: Opts = SENDS.union(OUTPUT).union(BATCH).union(DRY);
const ITEM_COMMAND: Opts = SENDS
    .union(OUTPUT)
    .union(DRY)
    .union(Opts::of(&[Opt::FailFast]));

/// Which client options each command takes: the one table that the parser, the help, the man
/// pages, the completions and the tests all read. A command not listed takes none.
pub const COMMAND_OPTIONS: &[(&str, Opts)] = &[
    ("create", SENDS.union(OUTPUT).union(DRY)),
    ("open", SENDS.union(OUTPUT).union(DRY)),
    ("put", BATCH_COMMAND),
    ("post", BATCH_COMMAND),
    ("clear-data", BATCH_COMMAND),
    ("clear-deleted-data", BATCH_COMMAND),
    ("metadata", BATCH_COMMAND),
    ("reopen", BATCH_COMMAND),
    ("drop", BATCH_COMMAND),
    // Reads only, and what it sends depends on the launcher's answers, so there is no list of
    // requests to print before them; its items are read `--jobs` at once (at most 8).
    ("show", SENDS.union(OUTPUT).union(Opts::of(&[Opt::Jobs]))),
    // Reads the copy and the network's data as `show` reads a handle.
    ("status", SENDS.union(OUTPUT).union(Opts::of(&[Opt::Jobs]))),
    // One index at a time, the highest first, so that each names the item the person saw.
    ("remove", ITEM_COMMAND),
    ("restore", ITEM_COMMAND),
    ("purge", ITEM_COMMAND),
    // One append.
    ("append", SENDS.union(OUTPUT).union(DRY)),
    // A login stores a new token, so no token is read; a person answers, so no retries.
    (
        "auth login",
        Opts::of(&[
            Opt::LauncherUrl,
            Opt::Timeout,
            Opt::AllowInsecureHttp,
            Opt::Quiet,
            Opt::Color,
        ]),
    ),
    ("auth status", CONNECT.union(OUTPUT)),
    // Reads the user's own key: one lease, given back.
    ("auth whoami", SENDS.union(OUTPUT)),
    ("auth logout", CONNECT.union(Opts::of(&[Opt::Quiet]))),
    // Prints the token it finds, and nothing else.
    ("auth token", Opts::of(&[Opt::TokenFile, Opt::Color])),
    ("config path", Opts::of(&[Opt::Json, Opt::Color])),
    // Shows what the settings come to, so the options that change them change what it shows.
    (
        "config show",
        Opts::of(&[
            Opt::LauncherUrl,
            Opt::TokenFile,
            Opt::Timeout,
            Opt::Json,
            Opt::Color,
        ]),
    ),
    ("config set", Opts::of(&[Opt::Quiet, Opt::Color])),
    ("config unset", Opts::of(&[Opt::Quiet, Opt::Color])),
    ("completions", Opts::of(&[Opt::Color])),
    // Offline: reads bytes, prints what they hold.
    ("decode", Opts::of(&[Opt::Json, Opt::Color])),
    // Reads a running emulator's journal, as a client of it.
    #[cfg(feature = "emulator")]
    (
        "emulator requests",
        CONNECT.union(Opts::of(&[Opt::Json, Opt::Quiet])),
    ),
];

/// The options the command at `path` (`"auth status"`) takes.
pub fn options_of(path: &str) -> Opts {
    COMMAND_OPTIONS
        .iter()
        .find(|(listed, _)| *listed == path)
        .map_or(Opts::NONE, |(_, opts)| *opts)
}

/// The client options as typed at one level of the command line, unchecked; `settings`
/// merges the levels and checks them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClientOptions {
    pub launcher_url: Option<String>,
    pub token_file: Option<PathBuf>,
    pub timeout: Option<f64>,
    pub allow_insecure_http: bool,
    pub quiet: bool,
    pub json: bool,
    pub jobs: Option<u16>,
    pub fail_fast: bool,
    pub retries: Option<u8>,
    pub dry_run: bool,
    pub curl: bool,
    pub verbose: bool,
    pub color: Option<ColorWhen>,
}

impl ClientOptions {
    /// The client options given at one level of a parsed command line (those the level does
    /// not take are absent).
    pub fn from_level(matches: &clap::ArgMatches) -> ClientOptions {
        fn value<T: Clone + Send + Sync + 'static>(m: &clap::ArgMatches, opt: Opt) -> Option<T> {
            m.try_get_one::<T>(opt.id()).ok().flatten().cloned()
        }
        let flag = |opt: Opt| value::<bool>(matches, opt).unwrap_or(false);
        ClientOptions {
            launcher_url: value(matches, Opt::LauncherUrl),
            token_file: value(matches, Opt::TokenFile),
            timeout: value(matches, Opt::Timeout),
            allow_insecure_http: flag(Opt::AllowInsecureHttp),
            quiet: flag(Opt::Quiet),
            json: flag(Opt::Json),
            jobs: value(matches, Opt::Jobs),
            fail_fast: flag(Opt::FailFast),
            retries: value(matches, Opt::Retries),
            dry_run: flag(Opt::DryRun),
            curl: flag(Opt::Curl),
            verbose: flag(Opt::Verbose),
            color: value(matches, Opt::Color),
        }
    }

    /// The options given, by the table's names.
    pub fn given(&self) -> Vec<Opt> {
        Opt::ALL
            .into_iter()
            .filter(|opt| match opt {
                Opt::LauncherUrl => self.launcher_url.is_some(),
                Opt::TokenFile => self.token_file.is_some(),
                Opt::Timeout => self.timeout.is_some(),
                Opt::AllowInsecureHttp => self.allow_insecure_http,
                Opt::Retries => self.retries.is_some(),
                Opt::Verbose => self.verbose,
                Opt::Quiet => self.quiet,
                Opt::Json => self.json,
                Opt::Jobs => self.jobs.is_some(),
                Opt::FailFast => self.fail_fast,
                Opt::DryRun => self.dry_run,
                Opt::Curl => self.curl,
                Opt::Color => self.color.is_some(),
            })
            .collect()
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Make a new appendable data and print its handle (POST /appendable-data)
    #[command(
        long_about = "\
Make a new appendable data in the launcher (POST /appendable-data) and print its handle alone on \
stdout, for `h=$(safe-ad create --put)`.

The new data exists only in the launcher until it is saved: `--put` saves it right after (PUT \
/appendable-data/<HANDLE>), or save it later with `safe-ad put HANDLE`. Without NAME a fresh \
random name is made from the operating system's random number generator; the name is printed \
on stderr, and `safe-ad open NAME` gets a handle for the data again later (after a save).",
        after_help = "Examples:\n  h=$(safe-ad create --put)\n  safe-ad create --private --white-list AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    )]
    Create(CreateCommand),

    /// Get a handle for an appendable data on the network, by its name, and print it
    #[command(
        long_about = "\
Get a handle for an appendable data that is on the network, by its name, and print it alone on \
stdout, for `h=$(safe-ad open NAME)`.

It asks for a data id for the name (POST /data-id/appendable-data), fetches the data through it \
(GET /appendable-data/handle/<DATA-ID>) and drops the data id again (DELETE /data-id/<DATA-ID>), \
also when the fetch failed, so the launcher's cache keeps nothing behind. A name that is not on \
the network gives the launcher's -18 (NoSuchData), exit 4.",
        after_help = "Example:\n  h=$(safe-ad open AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=) && safe-ad metadata \"$h\""
    )]
    Open(OpenCommand),

    /// Save a new appendable data to the network (PUT /appendable-data/<HANDLE>)
    #[command(
        long_about = "\
Save a new appendable data to the network for the first time (PUT /appendable-data/<HANDLE>).

Use `post` instead for data that is already on the network: the launcher refuses a second PUT \
(errorCode -23, DataExists).",
        after_help = "Example:\n  safe-ad put 7"
    )]
    Put(HandleCommand),

    /// Save an appendable data that is already on the network (POST /appendable-data/<HANDLE>)
    #[command(
        long_about = "\
Save an appendable data that is already on the network (POST /appendable-data/<HANDLE>).

This is the save that makes an earlier `clear-data` or `clear-deleted-data` reach the network. Use \
`put` for data that was never saved: the launcher refuses a POST of it (errorCode -22, NoSuchData).",
        after_help = "Example:\n  safe-ad clear-data 7 && safe-ad post 7"
    )]
    Post(HandleCommand),

    /// Move all data items to deleted_data (local until saved: see --save)
    #[command(
        long_about = "\
Move every data item of the appendable data into its deleted_data section \
(DELETE /appendable-data/clear-data/<HANDLE>).

This changes only the launcher's local copy. It reaches the network when you save the data \
afterwards with `post` (or `put` if it was never saved); `--save post` does both in one go.",
        after_help = "Examples:\n  safe-ad clear-data --save post 7\n  seq 0 99 | safe-ad clear-data --save post -"
    )]
    ClearData(ClearCommand),

    /// Remove all items from deleted_data (local until saved: see --save)
    #[command(
        long_about = "\
Remove every item from the deleted_data section of the appendable data \
(DELETE /appendable-data/clear-deleted-data/<HANDLE>).

This changes only the launcher's local copy. It reaches the network when you save the data \
afterwards with `post` (or `put` if it was never saved); `--save post` does both in one go.",
        after_help = "Example:\n  safe-ad clear-deleted-data --save post 7"
    )]
    ClearDeletedData(ClearCommand),

    /// Move data items to deleted_data, one index at a time (local until saved: see --save)
    #[command(
        long_about = "\
Move the data items at these indexes into the deleted_data section \
(DELETE /appendable-data/<HANDLE>/<INDEX>): the one-item form of `clear-data`.

Indexes count from 0, as `safe-ad show` numbers the items. Several indexes are applied one at a \
time, the highest first, so each still names the item you saw: removing item 1 moves every later \
item down. Every index is checked against the list before the first change: one past the end \
changes nothing (exit 4). This changes only the launcher's local copy; it reaches the network when \
you save the data afterwards with `post`; `--save post` does both, once every index succeeded.

Or choose the items by what they are (SELECTOR): --signed-by, --kind, --data-id, --name. One \
read of the handle resolves them to indexes (with indexes given too: only those); every selector \
given must hold. `--dry-run` then says which items would move and changes nothing. No match is \
exit 0 with a note, or exit 4 with --require-match.

Positions are the network's sorted order (structured data, then immutable data, then public, \
then private appendable data, each by name), not the order items came in, and they move after a \
change: read them again with `safe-ad show` (ITEM ORDER in safe-ad-remove(1)).",
        after_help = "Examples:\n  safe-ad remove 7 0\n  safe-ad remove --save post 7 2 5\n  safe-ad remove --kind immutable-data --signed-by others --dry-run 7",
        // clap's own usage line, with the selectors, runs past 80 columns.
        override_usage = "safe-ad remove [OPTIONS] <HANDLE> <INDEX>...\n       \
safe-ad remove [OPTIONS] <HANDLE> [INDEX]... <SELECTOR>..."
    )]
    Remove(ItemCommand),

    /// Move deleted items back to the data items, one index at a time (local until saved: see --save)
    #[command(
        long_about = "\
Move the deleted items at these indexes back into the data items \
(PUT /appendable-data/restore/<HANDLE>/<INDEX>).

Indexes count from 0 in the deleted list, as `safe-ad show` numbers them, and are applied the \
highest first, each checked before the first change. This changes only the launcher's local copy; \
it reaches the network when you save the data afterwards with `post`; `--save post` does both, \
once every index succeeded. Selectors (--signed-by, --kind, --data-id, --name) choose items by \
what they are, as for `remove`; the lists keep the network's sorted order (ITEM ORDER in \
safe-ad-remove(1)).",
        after_help = "Example:\n  safe-ad restore --save post 7 0",
        // clap's own usage line, with the selectors, runs past 80 columns.
        override_usage = "safe-ad restore [OPTIONS] <HANDLE> <INDEX>...\n       \
safe-ad restore [OPTIONS] <HANDLE> [INDEX]... <SELECTOR>..."
    )]
    Restore(ItemCommand),

    /// Remove deleted items for good, one index at a time (local until saved: see --save)
    #[command(
        long_about = "\
Remove the deleted items at these indexes from deleted_data for good \
(DELETE /appendable-data/deleted-data/<HANDLE>/<INDEX>): the one-item form of \
`clear-deleted-data`.

Indexes count from 0 in the deleted list, as `safe-ad show` numbers them, and are applied the \
highest first, each checked before the first change. This changes only the launcher's local copy; \
it reaches the network when you save the data afterwards with `post`; `--save post` does both, \
once every index succeeded. Selectors (--signed-by, --kind, --data-id, --name) choose items by \
what they are, as for `remove`; the lists keep the network's sorted order (ITEM ORDER in \
safe-ad-remove(1)).",
        after_help = "Example:\n  safe-ad purge --save post 7 1 0",
        // clap's own usage line, with the selectors, runs past 80 columns.
        override_usage = "safe-ad purge [OPTIONS] <HANDLE> <INDEX>...\n       \
safe-ad purge [OPTIONS] <HANDLE> [INDEX]... <SELECTOR>..."
    )]
    Purge(ItemCommand),

    /// Append an item: data by name, or a file as immutable data (see --help)
    #[command(
        long_about = "\
Append an item to an appendable data: a data id for the structured or appendable data of NAME \
(POST /data-id/structured-data or /data-id/appendable-data), the append \
(PUT /appendable-data/<HANDLE>/<DATA-ID>), and the data id dropped again (DELETE /data-id/<DATA-ID>), \
also when the append failed.

The launcher sends an append to the network at once and leaves the handle's local copy as it \
was: to see the new item, get a fresh handle with `safe-ad reopen HANDLE` and `show` that. The \
launcher refuses it (-25) for a stale handle, a filter that keeps you out, or an item that is in \
the deleted list.

With --immutable FILE (or `-` for standard input) it writes the content as immutable data first \
(GET /immutable-data/writer, POST /immutable-data/<WRITER> with the bytes, cipher options \
GET /cipher-opts/PLAIN, or SYMMETRIC, or ASYMMETRIC with the private data's encrypt key, then \
PUT /immutable-data/<WRITER>/<CIPHER-OPTS>, which answers its data id) and appends that: how a \
message is sent to an inbox. Every handle it takes is given back, also when a step fails. \
Content over 8 MiB is refused before any request.",
        after_help = "Examples:\n  safe-ad append 7 --structured AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n  safe-ad append 7 --appendable \"$name\" --private\n  echo 'See you at 3.' | safe-ad append 5 --immutable -",
        // clap's own usage line runs past 80 columns.
        override_usage = "safe-ad append [OPTIONS] <HANDLE> --structured <NAME> [--type-tag <N>]\n       \
safe-ad append [OPTIONS] <HANDLE> --appendable <NAME> [--private]\n       \
safe-ad append [OPTIONS] <HANDLE> --immutable <FILE> [--encrypt <HOW>]"
    )]
    Append(AppendCommand),

    /// Show version, data and deleted-data counts of handles (GET /appendable-data/metadata/<HANDLE>)
    #[command(
        long_about = "\
Show what the launcher holds for each handle (GET /appendable-data/metadata/<HANDLE>): the version, \
how many data items and deleted data items it has, whether you own it, and its filter.

Use it to see what a clear did: after `clear-data` the data count moves into the deleted count.",
        after_help = "Example:\n  safe-ad metadata 7\n  7: version 2, data 0, deleted 3, owner yes, filter BlackList (0 keys)"
    )]
    Metadata(HandleCommand),

    /// Show what handles hold: data items, deleted items, who signed each, the filter's keys
    #[command(
        long_about = "\
Show what the launcher holds for each handle: its metadata, each data item and each deleted item \
(its index, what it points at, its data id, who signed it), and the keys of its filter. One block \
per handle; `--json` prints one object per handle instead.

What an item points at is asked of the launcher: structured data shows its version and a preview \
of its content (text as text, anything else as its length and first bytes in hex; `--full` shows \
all of it), appendable data its version and counts. A data id is the launcher's serialised bytes \
in base64 (POST /data-id takes them back). A signer is a short fingerprint of its serialised key \
(the same key always gives the same one), or `you` for your own key.

It only reads. It gets data-id, sign-key and structured-data handles from the launcher to do so \
and drops each again, also when a step fails or on Ctrl-C. Items are read up to --jobs at once \
(at most 8), holding at most 8 handles of a kind: the launcher keeps 100 of each kind and evicts \
the oldest, so none of yours goes unless you hold more than 92 of a kind. An item that cannot be \
read is shown with the launcher's error, and the rest still are.",
        after_help = "Examples:\n  safe-ad show 7\n  safe-ad show --index 0..10 --json 7\n  safe-ad show --full 7"
    )]
    Show(ShowCommand),

    /// Compare handles' copies with the network: in sync, changes not saved, stale, new items
    #[command(
        long_about = "\
Compare each handle's copy with the network. A handle is the launcher's own copy of the data: \
clears, removes, restores, purges and filter edits change only the copy until a save (post, or \
put for data never saved); after a post the launcher's copy holds no data items; someone else's \
save makes the copy stale (a post fails with -25); an append goes to the network and not to the \
copy.

For each handle it reads the copy as `show` does, fetches the network's data into a fresh handle \
the way `reopen` does (GET /appendable-data/data-id/<HANDLE>, GET /appendable-data/handle/<DATA-ID>), \
reads that the same way, and gives back every handle it took, also on Ctrl-C. It prints whether \
the copy is in sync, both versions, the changes not saved (items removed, restored or purged, \
filter keys added or taken, the filter toggled, a copy emptied by a post), the items new on the \
network, and the command that goes on from there.

Exit status 0 when every copy matches the network, 7 when one differs; a failure keeps its own \
code, and the first handle, in input order, that differs or failed picks it. -q prints nothing \
and lets the code speak.",
        after_help = "Examples:\n  safe-ad status 7\n  safe-ad -q status 7 || safe-ad reopen 7\n  safe-ad status --json 7 8 9"
    )]
    Status(StatusCommand),

    /// Get a fresh handle for the data behind stale handles, and print each
    #[command(
        long_about = "\
Get a fresh copy, from the network, of the data behind each handle, and print each new handle on \
its own line of stdout, in input order.

Use it when a handle went stale: someone saved the data since the handle was fetched, and \
`post` fails with -25 (InvalidSuccessor). For each handle: its data id (GET \
/appendable-data/data-id/<HANDLE>), the fetch (GET /appendable-data/handle/<DATA-ID>) and the \
data id dropped again (DELETE /data-id/<DATA-ID>). `--drop` also drops the old handle once the \
new one is there.",
        after_help = "Example:\n  h=$(safe-ad reopen --drop \"$h\") && safe-ad post \"$h\""
    )]
    Reopen(ReopenCommand),

    /// Drop handles, freeing the launcher's slots (DELETE /appendable-data/handle/<HANDLE>)
    #[command(
        long_about = "\
Drop handles (DELETE /appendable-data/handle/<HANDLE>): the launcher forgets them and frees their \
slots (it keeps at most 100 per kind and evicts the least recently used). Nothing on the network \
changes; a dropped handle answers -1515 afterwards.",
        after_help = "Example:\n  safe-ad drop 5 6 7"
    )]
    Drop(HandleCommand),

    /// Get, check, print or revoke the launcher token
    Auth(AuthArgs),

    /// Show or edit the config file
    Config(ConfigArgs),

    /// Say what serialised bytes hold: a data id, a sign key or an appendable data (offline)
    #[command(
        long_about = "\
Say what serialised bytes hold, without a launcher: a data id (what it points at: its kind, \
name and type tag), a sign key (its fingerprint, as `show` gives it), or a whole appendable data \
(its version, filter, owners, and each data and deleted item decoded).

The bytes are those the launcher's serialise routes give (GET /data-id/<DATA-ID>, \
GET /sign-key/serialise/<KEY>, GET /appendable-data/serialise/<HANDLE>) in launcher 0.11.0's \
layout, given as base64 or hex, or as raw bytes on standard input (`-`, or no argument). Which \
of the three they are is told from the bytes. Bytes in another layout are refused (exit 2) with \
what was expected where.",
        after_help = "Examples:\n  safe-ad decode AQAAAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB\n  safe-ad decode --json \"$data_id\"\n  curl -s ... | safe-ad decode"
    )]
    Decode(DecodeCommand),

    /// Print shell completions to stdout
    #[command(
        after_help = "Example:\n  safe-ad completions bash > ~/.local/share/bash-completion/completions/safe-ad"
    )]
    Completions(CompletionsArgs),

    /// Run a local stand-in for the SAFE Launcher (for trying safe-ad and testing scripts)
    #[cfg(feature = "emulator")]
    #[command(
        long_about = "\
Run a local stand-in for the SAFE Launcher, for trying safe-ad and testing scripts in CI.

It listens on loopback only and prints SAFE_LAUNCHER_URL=... and SAFE_LAUNCHER_TOKEN=... lines that a \
shell can eval. With `-- COMMAND [ARGS...]` it starts on a free port, runs COMMAND with those two \
variables in its environment, stops when COMMAND ends and exits with COMMAND's exit code.",
        after_help = "Examples:\n  safe-ad emulator -- sh -c 'safe-ad put 0 && safe-ad clear-data 1 && safe-ad post 1'\n  eval \"$(safe-ad emulator --background)\"; ...; safe-ad emulator --stop"
    )]
    Emulator(crate::emulator::EmulatorArgs),
}

/// `safe-ad auth [OPTIONS] <COMMAND>`.
#[derive(Debug, Args)]
pub struct AuthArgs {
    #[command(subcommand)]
    pub command: AuthCommand,
}

#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Ask the launcher for a token (a person approves it there) and store it in the config file
    #[command(
        long_about = "\
Ask the launcher for a token with the LOW_LEVEL_API permission, and store it in the config file \
(mode 0600).

The launcher shows the request in its window and answers only when a person approves or denies \
it, so this waits without a time limit unless --timeout (or timeout_secs) is set. Ctrl-C cancels.",
        after_help = "Example:\n  safe-ad auth login && safe-ad auth status"
    )]
    Login(LoginArgs),
    /// Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it
    Status,
    /// Revoke the token at the launcher and remove it from the config file
    Logout,
    /// Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`
    Token,
    /// Print the fingerprint of your own sign key, as `show` names signers and filter keys
    #[command(
        long_about = "\
Print the fingerprint of your own sign key (GET /sign-key, then its serialised bytes), as `show` \
names signers and filter keys: the first 16 hex digits of the SHA-256 of the launcher's serialised \
key. `show` writes `you` for this key; `--signed-by` takes it like any other fingerprint. The \
sign-key handle it gets is given back. `--json` prints {\"fingerprint\", \"key\"} (the key's 32 \
bytes in base64).",
        after_help = "Example:\n  safe-ad auth whoami"
    )]
    Whoami,
}

#[derive(Debug, Args)]
pub struct LoginArgs {
    /// App name the launcher shows to the person approving
    #[arg(long, value_name = "NAME", default_value = "safe-ad")]
    pub app_name: String,
    /// App id sent to the launcher
    #[arg(long, value_name = "ID", default_value = "safe-ad")]
    pub app_id: String,
    /// Vendor name the launcher shows
    #[arg(long, value_name = "V", default_value = "safe-ad")]
    pub vendor: String,
}

/// `safe-ad config <COMMAND>`.
#[derive(Debug, Args)]
pub struct ConfigArgs {
    #[command(subcommand)]
    pub command: ConfigCommand,
}

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print the config file's path
    Path,
    /// Print every setting with its effective value and where it comes from (token masked)
    Show,
    /// Set a key in the config file (for `token`, give `-` and pipe the token in)
    #[command(
        after_help = "Examples:\n  safe-ad config set launcher_url http://127.0.0.1:8100/0.6\n  safe-ad config set timeout_secs 10\n  safe-ad config set token - < token.txt"
    )]
    Set(SetArgs),
    /// Remove a key from the config file
    Unset(UnsetArgs),
}

#[derive(Debug, Args)]
pub struct SetArgs {
    /// The key to set
    pub key: Key,
    /// The value; `-` reads it from standard input
    pub value: String,
}

#[derive(Debug, Args)]
pub struct UnsetArgs {
    /// The key to remove
    pub key: Key,
}

/// The config file's keys as clap values, straight from the one list in `config_file`.
impl ValueEnum for Key {
    fn value_variants<'a>() -> &'a [Self] {
        &Key::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(self.about()))
    }
}

/// `put`, `post` and `metadata`: options and handles.
#[derive(Debug, Args)]
pub struct HandleCommand {
    #[command(flatten)]
    pub handles: HandleArgs,
}

/// `create [NAME] [--private] [--white-list] [--put]`.
#[derive(Debug, Args)]
pub struct CreateCommand {
    /// The name: 32 bytes as standard base64 (44 characters) or 64 hex digits; random if not given
    #[arg(value_name = "NAME")]
    pub name: Option<String>,

    /// Make private data, whose items are encrypted
    #[arg(long)]
    pub private: bool,

    /// Filter appends with a whitelist (only listed keys may append) instead of a blacklist
    #[arg(long)]
    pub white_list: bool,

    /// Save the new data to the network right after (PUT), if it was made
    #[arg(long)]
    pub put: bool,
}

/// `open NAME [--private]`.
#[derive(Debug, Args)]
pub struct OpenCommand {
    /// The name: 32 bytes as standard base64 (44 characters) or 64 hex digits
    #[arg(value_name = "NAME")]
    pub name: String,

    /// The data is private (its data id differs from public data of the same name)
    #[arg(long)]
    pub private: bool,
}

/// `reopen [--drop] HANDLE...`.
#[derive(Debug, Args)]
pub struct ReopenCommand {
    /// Also drop each old handle once its new one is there
    #[arg(long)]
    pub drop: bool,

    #[command(flatten)]
    pub handles: HandleArgs,
}

/// `show [--full] [--index RANGE] HANDLE...`.
#[derive(Debug, Args)]
pub struct ShowCommand {
    /// Show the whole content of structured data, not a preview (`content`, in base64, with --json)
    #[arg(long)]
    pub full: bool,

    /// Only the items at these indexes, in both lists: N, A..B (B not included), A..=B, A.., ..B
    #[arg(long, value_name = "RANGE")]
    pub index: Option<String>,

    #[command(flatten)]
    pub handles: HandleArgs,
}

/// `status HANDLE...`.
#[derive(Debug, Args)]
pub struct StatusCommand {
    #[command(flatten)]
    pub handles: HandleArgs,
}

/// `remove`, `restore` and `purge`: options, `--save`, a handle, and indexes or selectors.
#[derive(Debug, Args)]
#[command(group(
    ArgGroup::new("which")
        .required(true)
        .multiple(true)
        .args(["indexes", "signed_by", "kind", "data_id", "name"])
))]
pub struct ItemCommand {
    /// After every index succeeded, save the handle with this operation, so the change reaches the network
    #[arg(long, value_name = "OPERATION")]
    pub save: Option<SaveWith>,

    /// Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`
    #[arg(long, value_name = "WHO", hide_short_help = true)]
    pub signed_by: Option<String>,

    /// Only items that point at this kind of data
    #[arg(long, value_name = "KIND", hide_short_help = true)]
    pub kind: Option<crate::wire::DataKind>,

    /// Only the item with this data id (base64, as `show` gives it)
    #[arg(long, value_name = "BASE64", hide_short_help = true)]
    pub data_id: Option<String>,

    /// Only items that point at data of this name (base64 or hex)
    #[arg(long, value_name = "NAME", hide_short_help = true)]
    pub name: Option<String>,

    /// With selectors: exit 4 if none matches (else 0)
    #[arg(long, hide_short_help = true)]
    pub require_match: bool,

    /// The appendable data handle: a decimal number, 0 to 18446744073709551615
    #[arg(value_name = "HANDLE", allow_negative_numbers = true)]
    pub handle: OsString,

    /// Indexes as `safe-ad show` numbers the items, from 0, applied the highest first; or selectors (--help)
    #[arg(value_name = "INDEX", allow_negative_numbers = true)]
    pub indexes: Vec<OsString>,
}

/// The kinds of data an item can point at, as clap values, from the one list in `wire`.
impl ValueEnum for crate::wire::DataKind {
    fn value_variants<'a>() -> &'a [Self] {
        &crate::wire::DataKind::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

/// `append HANDLE (--structured NAME [--type-tag N] | --appendable NAME [--private])`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("item").required(true).args(["structured", "appendable", "immutable"])))]
pub struct AppendCommand {
    /// The appendable data handle: a decimal number, 0 to 18446744073709551615
    #[arg(value_name = "HANDLE", allow_negative_numbers = true)]
    pub handle: OsString,

    /// Append structured data of this name: 32 bytes as standard base64 (44 characters) or 64 hex digits
    #[arg(long, value_name = "NAME")]
    pub structured: Option<String>,

    /// The structured data's type tag: 500 (the default), 501 (versioned), or 15000 and above
    #[arg(
        long,
        value_name = "N",
        conflicts_with_all = ["appendable", "immutable"],
        allow_negative_numbers = true,
        hide_short_help = true
    )]
    pub type_tag: Option<String>,

    /// Append appendable data of this name: 32 bytes as standard base64 (44 characters) or 64 hex digits
    #[arg(long, value_name = "NAME")]
    pub appendable: Option<String>,

    /// The appendable data is private (its data id differs from public data of the same name)
    #[arg(long, conflicts_with_all = ["structured", "immutable"], hide_short_help = true)]
    pub private: bool,

    /// Write FILE (`-`: stdin) as immutable data and append it
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub immutable: Option<PathBuf>,

    /// Encrypt the immutable data: symmetric (you read it) or asymmetric (to a private data's owner)
    #[arg(
        long,
        value_name = "HOW",
        requires = "immutable",
        hide_short_help = true
    )]
    pub encrypt: Option<EncryptWith>,
}

/// `append --immutable --encrypt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EncryptWith {
    Symmetric,
    Asymmetric,
}

/// The two clears: options, `--save` and handles.
#[derive(Debug, Args)]
pub struct ClearCommand {
    /// After a successful clear, save the handle with this operation, so the change reaches the network
    #[arg(long, value_name = "OPERATION")]
    pub save: Option<SaveWith>,

    #[command(flatten)]
    pub handles: HandleArgs,
}

/// The save that follows a clear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SaveWith {
    Post,
    Put,
}

#[derive(Debug, Args)]
pub struct HandleArgs {
    /// Appendable data handles: decimal numbers, 0 to 18446744073709551615; `-` reads them from stdin
    #[arg(required = true, value_name = "HANDLE", allow_negative_numbers = true)]
    pub handles: Vec<OsString>,
}

/// `decode [BYTES|-]`.
#[derive(Debug, Args)]
pub struct DecodeCommand {
    /// The bytes, as base64 or hex; `-` (or nothing) reads raw bytes from standard input
    #[arg(value_name = "BYTES")]
    pub bytes: Option<String>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write completions for
    pub shell: Shell,
}

/// Shells we write completions for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
    Elvish,
    Powershell,
}
