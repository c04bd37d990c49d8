//! The command-line surface: clap definitions and the help texts written beside them.
//!
//! No logic and no output: these structs hold what was typed, unchecked. `settings` merges and
//! checks the client options, `help` adds the texts written from tables (exit codes,
//! environment, examples), and the same definition is the source of the completions and the man
//! page (see `generate`). The value parsers used here live below, in `values` and `config_file`.
//!
//! The client options ([`ClientOptions`]) are accepted at every level of a client command
//! (`safe-ad -q put 1`, `safe-ad put -q 1`, `safe-ad auth -q status`), which is why they are
//! flattened into each level rather than marked `global`: `emulator` and `completions` must not
//! offer or accept them, and a clap global reaches every subcommand.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{ArgGroup, Args, FromArgMatches, Parser, Subcommand, ValueEnum};

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
#[command(
    propagate_version = true,
    subcommand_required = true,
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,

    #[command(subcommand)]
    pub command: Command,
}

/// Arguments added to a command only when clap builds it: it builds the command being parsed
/// (and every command when completions or man pages are written, or help lists them). The client
/// options are flattened into twenty commands; building every copy on each run made start-up
/// take twice the instructions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lazy<T>(pub T);

impl<T: Args> Args for Lazy<T> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(T::augment_args)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(T::augment_args_for_update)
    }
}

impl<T: FromArgMatches> FromArgMatches for Lazy<T> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Lazy)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }
}

// Options of every client command, accepted before or after the subcommand. (A plain comment:
// a doc comment would become the `about` of each command these are added to.)
#[derive(Debug, Args, Clone, Default, PartialEq)]
pub struct ClientOptions {
    /// Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)
    ///
    /// Overrides the SAFE_LAUNCHER_URL env var and `launcher_url` in the config file.
    /// Default: http://localhost:8100.
    #[arg(long, value_name = "URL", value_hint = clap::ValueHint::Url)]
    pub launcher_url: Option<String>,

    /// Read the token from this file (`-` reads standard input)
    ///
    /// Overrides the SAFE_LAUNCHER_TOKEN env var and `token` in the config file. There is no
    /// flag that takes the token itself: it would show in process lists and shell history.
    #[arg(long, value_name = "PATH", value_hint = clap::ValueHint::FilePath)]
    pub token_file: Option<PathBuf>,

    /// Give up on a request after this many seconds (default 30, at most 86400)
    ///
    /// Overrides `timeout_secs` in the config file. Fractions are allowed (0.5).
    #[arg(long, value_name = "SECS", value_parser = values::parse_timeout,
          allow_negative_numbers = true)]
    pub timeout: Option<f64>,

    /// Allow plain http to a host other than this machine (sends the token in clear text)
    #[arg(long)]
    pub allow_insecure_http: bool,

    /// Print nothing on success; errors still go to stderr
    #[arg(short, long)]
    pub quiet: bool,

    /// Print one JSON object per operation on stdout (JSON Lines), and nothing else there
    #[arg(long)]
    pub json: bool,

    /// Run up to N requests at once (N: 1..=256, default 8); output stays in input order
    #[arg(short, long, value_name = "N", value_parser = values::parse_jobs,
          allow_negative_numbers = true)]
    pub jobs: Option<u16>,

    /// Send no new request after the first failure (those already in flight, up to --jobs, finish)
    ///
    /// With the default --jobs 8, up to 7 other requests may be on their way when the first
    /// failure comes back; they finish and are reported. `--jobs 1 --fail-fast` stops at the
    /// failing handle itself.
    #[arg(long)]
    pub fail_fast: bool,

    /// Retry a request up to N times (N: 0..=10, default 0) when no answer came (refused or reset)
    ///
    /// Never after an answer, never after a timeout, and a POST only when its connection was
    /// refused (so it was not sent). Waits 100 ms, 200 ms, 400 ms, ... between tries.
    #[arg(long, value_name = "N", value_parser = values::parse_retries,
          allow_negative_numbers = true)]
    pub retries: Option<u8>,

    /// Print each request that would be sent (token masked) and send nothing
    #[arg(long)]
    pub dry_run: bool,

    /// Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing
    #[arg(long)]
    pub curl: bool,

    /// Show each request and answer on stderr: request line, headers (token masked), status, body, timing
    #[arg(short, long)]
    pub verbose: bool,
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
item down. This changes only the launcher's local copy; it reaches the network when you save the \
data afterwards with `post`; `--save post` does both, once every index succeeded.",
        after_help = "Examples:\n  safe-ad remove 7 0\n  safe-ad remove --save post 7 2 5"
    )]
    Remove(ItemCommand),

    /// Move deleted items back to the data items, one index at a time (local until saved: see --save)
    #[command(
        long_about = "\
Move the deleted items at these indexes back into the data items \
(PUT /appendable-data/restore/<HANDLE>/<INDEX>).

Indexes count from 0 in the deleted list, as `safe-ad show` numbers them, and are applied the \
highest first. This changes only the launcher's local copy; it reaches the network when you save \
the data afterwards with `post`; `--save post` does both, once every index succeeded.",
        after_help = "Example:\n  safe-ad restore --save post 7 0"
    )]
    Restore(ItemCommand),

    /// Remove deleted items for good, one index at a time (local until saved: see --save)
    #[command(
        long_about = "\
Remove the deleted items at these indexes from deleted_data for good \
(DELETE /appendable-data/deleted-data/<HANDLE>/<INDEX>): the one-item form of \
`clear-deleted-data`.

Indexes count from 0 in the deleted list, as `safe-ad show` numbers them, and are applied the \
highest first. This changes only the launcher's local copy; it reaches the network when you save \
the data afterwards with `post`; `--save post` does both, once every index succeeded.",
        after_help = "Example:\n  safe-ad purge --save post 7 1 0"
    )]
    Purge(ItemCommand),

    /// Append an item (structured or appendable data, by name) to data on the network
    #[command(
        long_about = "\
Append an item to an appendable data: a data id for the structured or appendable data of NAME \
(POST /data-id/structured-data or /data-id/appendable-data), the append \
(PUT /appendable-data/<HANDLE>/<DATA-ID>), and the data id dropped again (DELETE /data-id/<DATA-ID>), \
also when the append failed.

The launcher sends an append to the network at once and leaves the handle's local copy as it \
was: to see the new item, get a fresh handle with `safe-ad reopen HANDLE` and `show` that. The \
launcher refuses it (-25) for a stale handle, a filter that keeps you out, or an item that is in \
the deleted list.",
        after_help = "Examples:\n  safe-ad append 7 --structured AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n  safe-ad append 7 --appendable \"$name\" --private"
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
        after_help = "Examples:\n  safe-ad emulator -- sh -c 'safe-ad put 0 && safe-ad clear-data 1 && safe-ad post 1'\n  safe-ad emulator --listen 127.0.0.1:0 > launcher.env &   # then: . ./launcher.env; export SAFE_LAUNCHER_URL SAFE_LAUNCHER_TOKEN"
    )]
    Emulator(crate::emulator::EmulatorArgs),
}

/// `safe-ad auth [OPTIONS] <COMMAND>`.
#[derive(Debug, Args)]
pub struct AuthArgs {
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,

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
    Status(OptionsOnly),
    /// Revoke the token at the launcher and remove it from the config file
    Logout(OptionsOnly),
    /// Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`
    Token(OptionsOnly),
}

#[derive(Debug, Args)]
pub struct LoginArgs {
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,

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

/// A command that takes only the client options.
#[derive(Debug, Args)]
pub struct OptionsOnly {
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,
}

/// `safe-ad config [OPTIONS] <COMMAND>`.
#[derive(Debug, Args)]
pub struct ConfigArgs {
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,

    #[command(subcommand)]
    pub command: ConfigCommand,
}

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print the config file's path
    Path(OptionsOnly),
    /// Print every setting with its effective value and where it comes from (token masked)
    Show(OptionsOnly),
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
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,
    /// The key to set
    pub key: Key,
    /// The value; `-` reads it from standard input
    pub value: String,
}

#[derive(Debug, Args)]
pub struct UnsetArgs {
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,
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
    pub options: Lazy<ClientOptions>,

    #[command(flatten)]
    pub handles: HandleArgs,
}

/// `create [NAME] [--private] [--white-list] [--put]`.
#[derive(Debug, Args)]
pub struct CreateCommand {
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,

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
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,

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
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,

    /// Also drop each old handle once its new one is there
    #[arg(long)]
    pub drop: bool,

    #[command(flatten)]
    pub handles: HandleArgs,
}

/// `show [--full] [--index RANGE] HANDLE...`.
#[derive(Debug, Args)]
pub struct ShowCommand {
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,

    /// Show the whole content of structured data, not a preview (`content`, in base64, with --json)
    #[arg(long)]
    pub full: bool,

    /// Only the items at these indexes, in both lists: N, A..B (B not included), A..=B, A.., ..B
    #[arg(long, value_name = "RANGE")]
    pub index: Option<String>,

    #[command(flatten)]
    pub handles: HandleArgs,
}

/// `remove`, `restore` and `purge`: options, `--save`, a handle and indexes.
#[derive(Debug, Args)]
pub struct ItemCommand {
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,

    /// After every index succeeded, save the handle with this operation, so the change reaches the network
    #[arg(long, value_name = "OPERATION")]
    pub save: Option<SaveWith>,

    /// The appendable data handle: a decimal number, 0 to 18446744073709551615
    #[arg(value_name = "HANDLE", allow_negative_numbers = true)]
    pub handle: OsString,

    /// Indexes as `safe-ad show` numbers the items, from 0; applied the highest first
    #[arg(required = true, value_name = "INDEX", allow_negative_numbers = true)]
    pub indexes: Vec<OsString>,
}

/// `append HANDLE (--structured NAME [--type-tag N] | --appendable NAME [--private])`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("item").required(true).args(["structured", "appendable"])))]
pub struct AppendCommand {
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,

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
        conflicts_with = "appendable",
        allow_negative_numbers = true
    )]
    pub type_tag: Option<String>,

    /// Append appendable data of this name: 32 bytes as standard base64 (44 characters) or 64 hex digits
    #[arg(long, value_name = "NAME")]
    pub appendable: Option<String>,

    /// The appendable data is private (its data id differs from public data of the same name)
    #[arg(long, conflicts_with = "structured")]
    pub private: bool,
}

/// The two clears: options, `--save` and handles.
#[derive(Debug, Args)]
pub struct ClearCommand {
    #[command(flatten)]
    pub options: Lazy<ClientOptions>,

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
