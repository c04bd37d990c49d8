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
//!
//! By family: the list of commands and `completions` are here; the client options and their
//! table in `options`; `auth` and `config` in `auth`; the commands over handles and items in
//! `items`; the `emulator` command (the emulator's own options, from its crate, and the client's
//! `requests`, `export` and `list` under it) in `emulator`. Their items are re-exported here, so callers name them `cli::...` as before.

use clap::{Args, Parser, Subcommand, ValueEnum};

mod auth;
#[cfg(feature = "emulator")]
mod emulator;
mod items;
mod options;

pub use auth::{AuthArgs, AuthCommand, ConfigArgs, ConfigCommand, LoginArgs};
#[cfg(feature = "emulator")]
pub use emulator::{EmulatorAction, EmulatorCommand, ExportArgs, RequestsArgs};
pub use items::{
    AppendCommand, CatCommand, ClearCommand, CreateCommand, DecodeCommand, EncryptWith, HandleArgs,
    HandleCommand, ItemCommand, OpenCommand, ReopenCommand, SaveWith, SelectorArgs, ShowCommand,
    StatusCommand,
};
pub use options::{options_of, ClientOptions, ColorWhen, Opt, CLIENT_OPTIONS, COMMAND_OPTIONS};

use options::add_every_option;
pub use options::WithOptions;

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
/// [`COMMAND_OPTIONS`] says. A command's arguments, its client options with them (see
/// [`WithOptions`]), are added when clap builds it (`defer`): it builds only the commands on the
/// parsed path (and every command when completions or man pages are written, or help lists
/// them), so start-up does not pay for the twenty others.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command().defer(add_every_option)
}

/// [`command`] with the commands that have subcommands of their own (`auth`, `config`,
/// `emulator`) built out now, for help, completions and man pages: clap lists the subcommands
/// under `help auth` from the tree as it stands when the top is built, before a deferred
/// command is. Each is given what the derive deferred (its [`WithOptions`] arguments).
pub fn whole_command() -> clap::Command {
    fn expand<T: Args>(command: clap::Command) -> clap::Command {
        T::augment_args(command.defer(|command| command))
    }
    command().mut_subcommands(|sub| match sub.get_name() {
        "auth" => expand::<WithOptions<AuthArgs>>(sub),
        "config" => expand::<WithOptions<ConfigArgs>>(sub),
        #[cfg(feature = "emulator")]
        "emulator" => expand::<WithOptions<EmulatorCommand>>(sub),
        _ => sub,
    })
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
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
    Create(WithOptions<CreateCommand>),

    /// Get a handle for an appendable data on the network, by its name, and print it
    #[command(
        long_about = "\
Get a handle for an appendable data that is on the network, by its name, and print it alone on \
stdout, for `h=$(safe-ad open NAME)`.

It asks for a data id for the name (POST /data-id/appendable-data), fetches the data through it \
(GET /appendable-data/handle/<DATA-ID>) and drops the data id again (DELETE /data-id/<DATA-ID>), \
also when the fetch failed, so the launcher's cache keeps nothing behind. A name that is not on \
the network gives the launcher's -18 (NoSuchData), exit 4.",
        after_help = "Example:\n  h=$(safe-ad open \"$name\") && safe-ad metadata \"$h\""
    )]
    Open(WithOptions<OpenCommand>),

    /// Save a new appendable data to the network (PUT /appendable-data/<HANDLE>)
    #[command(
        long_about = "\
Save a new appendable data to the network for the first time (PUT /appendable-data/<HANDLE>).

Use `post` instead for data that is already on the network: the launcher refuses a second PUT \
(errorCode -23, DataExists).",
        after_help = "Example:\n  h=$(safe-ad create) && safe-ad put \"$h\""
    )]
    Put(WithOptions<HandleCommand>),

    /// Save an appendable data that is already on the network (POST /appendable-data/<HANDLE>)
    #[command(
        long_about = "\
Save an appendable data that is already on the network (POST /appendable-data/<HANDLE>).

This is the save that makes an earlier `clear-data` or `clear-deleted-data` reach the network. Use \
`put` for data that was never saved: the launcher refuses a POST of it (errorCode -22, NoSuchData).",
        after_help = "Example:\n  safe-ad clear-data 7 && safe-ad post 7"
    )]
    Post(WithOptions<HandleCommand>),

    /// Move all data items to deleted_data (local until saved: see --save)
    #[command(
        long_about = "\
Move every data item of the appendable data into its deleted_data section \
(DELETE /appendable-data/clear-data/<HANDLE>).

This changes only the launcher's local copy. It reaches the network when you save the data \
afterwards with `post` (or `put` if it was never saved); `--save post` does both in one go.",
        after_help = "Examples:\n  safe-ad clear-data --save post 7\n  seq 7 9 | safe-ad clear-data --save post -"
    )]
    ClearData(WithOptions<ClearCommand>),

    /// Remove all items from deleted_data (local until saved: see --save)
    #[command(
        long_about = "\
Remove every item from the deleted_data section of the appendable data \
(DELETE /appendable-data/clear-deleted-data/<HANDLE>).

This changes only the launcher's local copy. It reaches the network when you save the data \
afterwards with `post` (or `put` if it was never saved). A post sends the copy's deleted list, so \
an item whose removal was not saved yet stays data on the network after a plain `post`; \
`--save post` saves first (the removal), then clears, then saves again: two saves, each named. \
Without --save, for one handle, it first compares the copy's deleted list with the network's \
(their serialised bytes; a fresh handle, given back) and notes what a plain post would leave only \
when such a removal is there.",
        after_help = "Example:\n  safe-ad clear-deleted-data --save post 7"
    )]
    ClearDeletedData(WithOptions<ClearCommand>),

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
given must hold; --data-id and --name may be given more than once (any of them). No match is \
exit 0 with a note, or exit 4 with --require-match. `--dry-run` with selectors sends nothing, not \
even the read, so it cannot say which items match: `safe-ad show HANDLE` with the same selectors \
lists them. `--curl` with selectors is refused (exit 2): a curl script cannot choose items.

Positions are the network's sorted order (structured data, then immutable data, then public, \
then private appendable data, each by name), not the order items came in, and they move after a \
change: read them again with `safe-ad show` (ITEM ORDER in safe-ad-remove(1)).",
        after_help = "Examples:\n  safe-ad remove 7 0\n  safe-ad remove --save post 7 0 1\n  safe-ad remove --kind immutable-data --signed-by others --dry-run 7",
        // clap's own usage line, with the selectors, runs past 80 columns.
        override_usage = "safe-ad remove [OPTIONS] <HANDLE> <INDEX>...\n       \
safe-ad remove [OPTIONS] --SELECTOR <VALUE>... <HANDLE> [INDEX]..."
    )]
    Remove(WithOptions<ItemCommand>),

    /// Move deleted items back to the data items, one index at a time (local until saved: see --save)
    #[command(
        long_about = "\
Move the deleted items at these indexes back into the data items \
(PUT /appendable-data/restore/<HANDLE>/<INDEX>).

Indexes count from 0 in the deleted list, as `safe-ad show` numbers them, and are applied the \
highest first, each checked before the first change. This changes only the launcher's local copy. \
A post carries no data items, so a plain `post` afterwards takes an item whose removal was saved \
off the network's deleted list without making it data: it is gone for good. `--save post` makes \
it data again: it reads the network's deleted list once, restores, saves, then appends each such \
item again (signed by you) and gives back the data ids it took; as it may hold one for each \
item across the save, it restores at most 8 items at a time (more is exit 2, nothing changed). \
Selectors (--signed-by, --kind, --data-id, --name) choose items by what they are, as for \
`remove`; the lists keep the network's sorted order (ITEM ORDER in safe-ad-remove(1)).",
        after_help = "Example:\n  safe-ad restore --save post 7 0",
        // clap's own usage line, with the selectors, runs past 80 columns.
        override_usage = "safe-ad restore [OPTIONS] <HANDLE> <INDEX>...\n       \
safe-ad restore [OPTIONS] --SELECTOR <VALUE>... <HANDLE> [INDEX]..."
    )]
    Restore(WithOptions<ItemCommand>),

    /// Remove deleted items for good, one index at a time (local until saved: see --save)
    #[command(
        long_about = "\
Remove the deleted items at these indexes from deleted_data for good \
(DELETE /appendable-data/deleted-data/<HANDLE>/<INDEX>): the one-item form of \
`clear-deleted-data`.

Indexes count from 0 in the deleted list, as `safe-ad show` numbers them, and are applied the \
highest first, each checked before the first change. This changes only the launcher's local copy. \
A post sends the copy's deleted list, so a plain `post` afterwards leaves an item whose removal \
was not saved yet as data on the network. `--save post` saves first (the removal), then purges, \
then saves again, once every index succeeded: two saves, each named. Without --save it first \
compares the items with the network's deleted list (as `clear-deleted-data` does) and notes what a \
plain post would leave only when one's removal is not saved. Selectors (--signed-by, \
--kind, --data-id, --name) choose items by what they are, as for `remove`; the lists keep the \
network's sorted order (ITEM ORDER in safe-ad-remove(1)).",
        after_help = "Example:\n  safe-ad purge --save post 7 1 0",
        // clap's own usage line, with the selectors, runs past 80 columns.
        override_usage = "safe-ad purge [OPTIONS] <HANDLE> <INDEX>...\n       \
safe-ad purge [OPTIONS] --SELECTOR <VALUE>... <HANDLE> [INDEX]..."
    )]
    Purge(WithOptions<ItemCommand>),

    /// Append an item: data by name, or a file as immutable data (see --help)
    #[command(
        long_about = "\
Append an item to an appendable data: a data id for the structured or appendable data of NAME \
(POST /data-id/structured-data or /data-id/appendable-data), the append \
(PUT /appendable-data/<HANDLE>/<DATA-ID>), and the data id dropped again (DELETE /data-id/<DATA-ID>), \
also when the append failed.

The launcher sends an append to the network at once and leaves the handle's local copy as it \
was: to see the new item, get a fresh handle with `safe-ad reopen HANDLE` and `show` that. The \
launcher refuses it (-25) for a stale handle, a filter that keeps you out, or (public data) an \
item that is in the deleted list.

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
    Append(WithOptions<AppendCommand>),

    /// Show version, data and deleted-data counts of handles (GET /appendable-data/metadata/<HANDLE>)
    #[command(
        long_about = "\
Show what the launcher holds for each handle (GET /appendable-data/metadata/<HANDLE>): the version, \
how many data items and deleted data items it has, whether you own it, and its filter.

Use it to see what a clear did: after `clear-data` the data count moves into the deleted count.",
        after_help = "Example:\n  safe-ad metadata 7\n  7: version 2, data 0, deleted 3, owner yes, filter BlackList (0 keys)"
    )]
    Metadata(WithOptions<HandleCommand>),

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
read is shown with the launcher's error, and the rest still are.

Selectors (--signed-by, --kind, --data-id, --name) keep only the items they match, as `remove`, \
`restore` and `purge` choose them: `show 7 --signed-by others` lists the data items \
`remove 7 --signed-by others` then moves (and the deleted items `restore` or `purge` then act on).",
        after_help = "Examples:\n  safe-ad show 7\n  safe-ad show --index 0..10 --json 7\n  safe-ad show --full 7\n  safe-ad show --signed-by others 7"
    )]
    Show(WithOptions<ShowCommand>),

    /// Write one item's content to stdout as raw bytes, exactly as stored
    #[command(
        long_about = "\
Write the content of the item at INDEX of HANDLE (of its deleted list with --deleted) to stdout \
as raw bytes, exactly as the network stores it: immutable data whole, structured data's current \
content. For a file or a pipe (`> file`, `| sha256sum`); the bytes are the same as the base64 in \
`safe-ad show --full --json`'s content_base64.

It reads as `show` does (the item's data id, then a reader or the structured data, each given \
back, also on Ctrl-C) and sends nothing else. Content larger than one answer may be \
(1024 KiB) is refused, as `show --full` leaves it unread; an item that points at appendable data \
has no content; content of another length than the size the launcher gave for it is an answer \
it never gives (exit 1), and nothing is written. Content that is not text (not UTF-8, or with \
control characters: a carriage return not followed by a line feed is one) is not written to a \
terminal unless --force is given (exit 2).",
        after_help = "Examples:\n  safe-ad cat 7 0 > message.txt\n  safe-ad cat --deleted 7 2 | sha256sum"
    )]
    Cat(WithOptions<CatCommand>),

    /// Compare handles' copies with the network: in sync, changes not saved, stale, items the copy lacks
    #[command(
        long_about = "\
Compare each handle's copy with the network. A handle is the launcher's own copy of the data: \
clears, removes, restores, purges and filter edits change only the copy until a save (post, or \
put for data never saved); after a post the launcher's copy holds no data items; someone else's \
save makes the copy stale (a post fails with -25); an append goes to the network and not to the \
copy.

For each handle it reads the copy as `show` does and, at the same time, fetches the network's \
data into a fresh handle the way `reopen` does (GET /appendable-data/data-id/<HANDLE>, \
GET /appendable-data/handle/<DATA-ID>) and reads it through its serialised bytes \
(GET /appendable-data/serialise/<FRESH>: its items' data ids and signers, all a comparison needs; \
what they point at only for the items the copy lacks), and gives back every handle it took, also \
on Ctrl-C. It prints whether the copy \
is in sync, both versions, the changes not saved (items removed, restored or purged, filter keys \
added or taken, the filter toggled), a copy a post left without data items, the data items on \
the network the copy does not show, and the command that goes on from there.

Exit status 0 when no copy holds a change a save would send and none is stale (so \
`post H && status H` exits 0), 7 when one does or is stale; a failure keeps its own code, and \
the first handle, in input order, that differs or failed picks it. -q prints nothing and lets \
the code speak.",
        after_help = "Exit 7 when one differs (a save would change the network, or the copy is stale), 0 when none does; 3, 4, 5 and 6 when it could not tell.\n\nExamples:\n  safe-ad status 7\n  safe-ad -q status 7 || { [ $? -eq 7 ] && safe-ad reopen 7; }\n  safe-ad status --json 7 8 9"
    )]
    Status(WithOptions<StatusCommand>),

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
    Reopen(WithOptions<ReopenCommand>),

    /// Drop handles, freeing the launcher's slots (DELETE /appendable-data/handle/<HANDLE>)
    #[command(
        long_about = "\
Drop handles (DELETE /appendable-data/handle/<HANDLE>): the launcher forgets them and frees their \
slots (it keeps at most 100 per kind and evicts the least recently used). Nothing on the network \
changes; a dropped handle answers -1515 afterwards.",
        after_help = "Example:\n  safe-ad drop 7 8 9"
    )]
    Drop(WithOptions<HandleCommand>),

    /// Get, check, print or revoke the launcher token
    Auth(WithOptions<AuthArgs>),

    /// Show or edit the config file
    Config(WithOptions<ConfigArgs>),

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
        after_help = "Examples:\n  safe-ad decode AQAAAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB\n  safe-ad decode --json \"$data_id\"\n  echo \"$data_id\" | base64 -d | safe-ad decode"
    )]
    Decode(WithOptions<DecodeCommand>),

    /// Print shell completions to stdout
    #[command(
        after_help = "Example:\n  safe-ad completions bash > ~/.local/share/bash-completion/completions/safe-ad"
    )]
    Completions(WithOptions<CompletionsArgs>),

    /// Run a local stand-in for the SAFE Launcher (for trying safe-ad and testing scripts)
    #[cfg(feature = "emulator")]
    #[command(
        long_about = "\
Run a local stand-in for the SAFE Launcher, for trying safe-ad and testing scripts in CI.

It listens on loopback only and prints SAFE_LAUNCHER_URL=... and SAFE_LAUNCHER_TOKEN=... lines that a \
shell can eval. With `-- COMMAND [ARGS...]` it starts on a free port, runs COMMAND with those two \
variables in its environment, stops when COMMAND ends and exits with COMMAND's exit code.",
        after_help = "Examples:\n  safe-ad emulator -- sh -c 'safe-ad clear-data --save post 1'\n  eval \"$(safe-ad emulator --background --listen 127.0.0.1:0)\"\n  safe-ad create --put\n  safe-ad emulator --stop"
    )]
    Emulator(WithOptions<EmulatorCommand>),
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
