//! The commands over items, with their specs: `show` and `cat` read them, `status` compares a
//! copy with the network, `remove`/`restore`/`purge` change them one index at a time (or those
//! the selectors choose), and `append` adds one; with the values their options take.

use crate::route::Route;
use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{ArgGroup, Args, ValueEnum};

use super::handles::{HandleArgs, SaveWith};
use super::item_prose::{item_order, show_json, show_sample};
use super::options::{Opt, Opts, DRY, ITEM_COMMAND, OUTPUT, SENDS};
use super::spec::{Man, ManSection, ManTable, Names, Reaches, Spec, ITEM_READS};

/// `safe-ad-show(1)`: what it prints, its JSON, and the order of the items.
const SHOW_MAN: Man = Man {
    description: "",
    sections: &[
        ManSection::prose(
            "OUTPUT",
            concat!(
                r#".PP
One block per handle, an empty line between two (lines cut short here):
"#,
                show_sample!(),
                r#".PP
An \fB--index\fR range that holds no item of either list says so under the header.
.PP
"#,
                show_json!()
            ),
        ),
        ManSection::prose("ITEM ORDER", item_order!()),
    ],
};

/// The pages of `remove`, `restore` and `purge`: the order of the items, and what a save does.
const ITEM_CHANGE_MAN: Man = Man {
    description: "",
    sections: &[
        ManSection::prose("ITEM ORDER", item_order!()),
        ManSection::table("WHAT A SAVE DOES", ManTable::SaveEffects),
    ],
};

/// Why `status` takes no name.
const STATUS_BY_NAME: &str = "`status` compares a copy you hold with the network, and a copy taken for this run would match it: give the handle whose copy you want compared";

/// The help heading of the options that choose items by what they are.
const SELECTORS: &str = "Selectors (choose items by what they are)";

#[derive(Debug, Args)]
pub struct ShowCommand {
    /// Show the whole content of structured data, not a preview (`content`, in base64, with --json)
    #[arg(long)]
    pub full: bool,

    /// Only the items at these indexes, in both lists: N, A..B (B not included), A..=B, A.., ..B
    #[arg(long, value_name = "RANGE")]
    pub index: Option<String>,

    /// Print each handle's serialised bytes (the whole data) as base64, one line each, for `safe-ad decode`
    #[arg(
        long,
        conflicts_with_all = ["full", "index", "signed_by", "kind", "data_id", "name"]
    )]
    pub serialised: bool,

    #[command(flatten)]
    pub selector: SelectorArgs,

    #[command(flatten)]
    pub handles: HandleArgs,
}

/// `cat HANDLE INDEX [--deleted] [--force]`.
#[derive(Debug, Args)]
pub struct CatCommand {
    /// The item is in the deleted list (INDEX counts from 0 there)
    #[arg(long)]
    pub deleted: bool,

    /// Write content that is not text to a terminal too
    #[arg(long)]
    pub force: bool,

    /// The appendable data handle: a decimal number, 0 to 18446744073709551615, or the data's name (see below)
    #[arg(value_name = "HANDLE", allow_negative_numbers = true)]
    pub handle: OsString,

    /// The item's index, as `safe-ad show` numbers the items, from 0
    #[arg(value_name = "INDEX", allow_negative_numbers = true)]
    pub index: OsString,
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

    #[command(flatten)]
    pub selector: SelectorArgs,

    /// With selectors: exit 4 if none matches (else 0)
    #[arg(long, help_heading = SELECTORS)]
    pub require_match: bool,

    /// The appendable data handle: a decimal number, 0 to 18446744073709551615, or the data's name (see below)
    #[arg(value_name = "HANDLE", allow_negative_numbers = true)]
    pub handle: OsString,

    /// Indexes as `safe-ad show` numbers the items, from 0, applied the highest first (with selectors: only these)
    #[arg(value_name = "INDEX", allow_negative_numbers = true)]
    pub indexes: Vec<OsString>,
}

/// `restore`: the item commands' arguments, and the option only a restore acts on.
#[derive(Debug, Args)]
pub struct RestoreCommand {
    #[command(flatten)]
    pub items: ItemCommand,

    /// Restore an item another key signed too: it comes back signed by you (by name, or with --save post)
    ///
    /// A restore that is saved (given the data's name, or `--save post`) makes an item data again by
    /// appending it after the save, and an append is signed by your key: only an item's signer can
    /// append it as it was. Without this option such a restore changes nothing and exits 2, naming
    /// each item and the key that signed it; with it, each is data again signed by you, and the
    /// output says which. A handle's restore without `--save post` changes only the copy and
    /// re-signs nothing, so the option is refused there.
    #[arg(long)]
    pub re_sign: bool,
}

/// The selectors: which items by what they are. `remove`, `restore` and `purge` change the
/// items they match; `show` lists them, so it previews what the change would move.
#[derive(Debug, Args)]
pub struct SelectorArgs {
    /// Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`
    #[arg(long, value_name = "WHO", help_heading = SELECTORS)]
    pub signed_by: Option<String>,

    /// Only items that point at this kind of data
    #[arg(long, value_name = "KIND", help_heading = SELECTORS)]
    pub kind: Option<crate::wire::DataKind>,

    /// Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them
    #[arg(long, value_name = "DATA-ID", help_heading = SELECTORS)]
    pub data_id: Vec<String>,

    /// Only items that point at data of this name (base64 or hex); given again: any of them
    #[arg(long, value_name = "NAME", help_heading = SELECTORS)]
    pub name: Vec<String>,
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
    /// The appendable data handle: a decimal number, 0 to 18446744073709551615, or the data's name (see below)
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
        allow_negative_numbers = true
    )]
    pub type_tag: Option<String>,

    /// Append appendable data of this name: 32 bytes as standard base64 (44 characters) or 64 hex digits
    #[arg(long, value_name = "NAME")]
    pub appendable: Option<String>,

    /// The appendable data is private (its data id differs from public data of the same name)
    #[arg(long, conflicts_with_all = ["structured", "immutable"])]
    pub private: bool,

    /// Write FILE (`-`: stdin) as immutable data and append it
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub immutable: Option<PathBuf>,

    /// Encrypt the immutable data: symmetric (you read it) or asymmetric (to a private data's owner)
    #[arg(long, value_name = "HOW", requires = "immutable")]
    pub encrypt: Option<EncryptWith>,
}

/// `append --immutable --encrypt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EncryptWith {
    Symmetric,
    Asymmetric,
}

/// What `remove`, `restore` and `purge` share: a change of items by index or by selectors,
/// the item commands' options and man page, a handle or a name's fresh copy (a lease), and a
/// result each; each spec adds its words, what it reaches and its routes.
const fn item_change(path: &'static str, about: &'static str) -> Spec {
    Spec {
        man: ITEM_CHANGE_MAN,
        options: ITEM_COMMAND,
        names: Names::FreshCopy,
        leases: true,
        json: Some("result"),
        sample: &["1", "0"],
        ..Spec::changing(path, about)
    }
}

/// `safe-ad remove`.
pub const REMOVE: Spec = Spec {
    long_about: Some(
        "\
Move the data items at these indexes, or those the selectors choose, to the deleted list: the \
one-item form of `clear-data`. Given the data's name, the network's data changes: the command takes a fresh copy for the run, \
makes the change, saves it with a post and gives the copy back; its lines are printed once the \
save landed. Given a handle, each goes to the deleted list of the \
launcher's copy (DELETE /appendable-data/<HANDLE>/<INDEX>) until a save.

Indexes count from 0, as `safe-ad show` numbers the items. Several indexes are applied one at a \
time, the highest first, so each still names the item you saw: removing item 1 moves every later \
item down. Every index is checked against the list before the first change: one past the end \
changes nothing (exit 4). Given a handle, the change reaches the network when you save the copy \
afterwards with `post`; `--save post` does both, once every index succeeded.

Or choose the items by what they are (SELECTOR): --signed-by, --kind, --data-id, --name. One \
read of the handle resolves them to indexes (with indexes given too: only those); every selector \
given must hold; --data-id and --name may be given more than once (any of them). No match is \
exit 0 with a note, or exit 4 with --require-match. `--dry-run` with selectors sends nothing, not \
even the read, so it cannot say which items match: `safe-ad show HANDLE` with the same selectors \
lists them. `--curl` with selectors is refused (exit 2): a curl script cannot choose items.

Positions are the network's sorted order (structured data, then immutable data, then public, \
then private appendable data, each by name), not the order items came in, and they move after a \
change: read them again with `safe-ad show` (ITEM ORDER in safe-ad-remove(1)).",
    ),
    after_help: Some("Examples:\n  safe-ad remove 7 0\n  safe-ad remove --save post 7 0 1\n  safe-ad remove --kind immutable-data --signed-by others --dry-run 7"),
    usage: Some(
        "safe-ad remove [OPTIONS] <HANDLE> <INDEX>...\n       \
safe-ad remove [OPTIONS] --SELECTOR <VALUE>... <HANDLE> [INDEX]...",
    ),
    reaches: Reaches::LauncherCompared,
    routes: &[&[Route::AdMetadata, Route::AdRemove, Route::AdPost, Route::AdPut], ITEM_READS],
    ..item_change(
        "remove",
        "Move data items to the deleted list, by index or by what they are (by name: saved)",
    )
};

/// `safe-ad restore`.
pub const RESTORE: Spec = Spec {
    long_about: Some(
        "\
Make the deleted items at these indexes, or those the selectors choose, data again. \
Given the data's name, the network's data changes: the command takes a fresh copy for the run, \
makes the change, saves it with a post and gives the copy back; its lines are printed once the \
save landed. Given a handle, each moves back in the launcher's copy \
(PUT /appendable-data/restore/<HANDLE>/<INDEX>) until a save, as below.

Indexes count from 0 in the deleted list, as `safe-ad show` numbers them, and are applied the \
highest first, each checked before the first change. Given a handle, the change is the copy's. \
A post carries no data items, so a plain `post` afterwards takes an item whose removal was saved \
off the network's deleted list without making it data: it is gone for good. `--save post` makes \
it data again: it reads the network's deleted list once, restores, saves, then appends each such \
item again (signed by you) and gives back the data ids it took; as it may hold one for each \
item across the save, it restores at most 8 items at a time (more is exit 2, nothing changed). \
Only an item's signer can append it as it was: when an item another key signed would come back \
signed by you, it changes nothing (exit 2, naming each such item and its signer) unless \
--re-sign is given; with it, each append's line on stdout says the item is now signed by you \
(with --json, `re_signed` in the result). --re-sign acts only there (a handle's restore \
without --save post signs nothing again, and is refused with it). \
Selectors (--signed-by, --kind, --data-id, --name) choose items by what they are, as for \
`remove`; the lists keep the network's sorted order (ITEM ORDER in safe-ad-remove(1)).",
    ),
    after_help: Some(
        "Examples:\n  safe-ad restore --save post 7 0\n  safe-ad restore --save post --re-sign 7 0",
    ),
    usage: Some(
        "safe-ad restore [OPTIONS] <HANDLE> <INDEX>...\n       \
safe-ad restore [OPTIONS] --SELECTOR <VALUE>... <HANDLE> [INDEX]...",
    ),
    reaches: Reaches::Launcher,
    routes: &[
        &[
            Route::AdMetadata,
            Route::AdRestore,
            Route::AdPost,
            Route::AdPut,
        ],
        ITEM_READS,
        &[Route::AdSerialise, Route::AdDataId, Route::AdAppend],
    ],
    ..item_change(
        "restore",
        "Make deleted items data again (by name: saved; by handle: in its copy)",
    )
};

/// `safe-ad purge`.
pub const PURGE: Spec = Spec {
    long_about: Some(
        "\
Delete the deleted items at these indexes, or those the selectors choose, for good: the one-item \
form of `clear-deleted-data`. Given the data's name, the network's data changes: the command takes a fresh copy for the run, \
makes the change, saves it with a post and gives the copy back; its lines are printed once the \
save landed. Given a handle, each leaves the deleted list of the \
launcher's copy (DELETE /appendable-data/deleted-data/<HANDLE>/<INDEX>) until a save.

Indexes count from 0 in the deleted list, as `safe-ad show` numbers them, and are applied the \
highest first, each checked before the first change. Given a handle, the change is the copy's. \
A post sends the copy's deleted list, so a plain `post` afterwards leaves an item whose removal \
was not saved yet as data on the network. Both with `--save post` and without, it first \
compares the items with the network's deleted list (as `clear-deleted-data` does). `--save post` \
then saves first (the removal) only when one's removal is not saved (or that cannot be told), \
then purges, then saves once every index succeeded: each save named. Without --save it notes \
what a plain post would leave only when one's removal is not saved. Selectors (--signed-by, \
--kind, --data-id, --name) choose items by what they are, as for `remove`; the lists keep the \
network's sorted order (ITEM ORDER in safe-ad-remove(1)).",
    ),
    after_help: Some("Example:\n  safe-ad purge --save post 7 1 0"),
    usage: Some(
        "safe-ad purge [OPTIONS] <HANDLE> <INDEX>...\n       \
safe-ad purge [OPTIONS] --SELECTOR <VALUE>... <HANDLE> [INDEX]...",
    ),
    reaches: Reaches::Launcher,
    routes: &[&[Route::AdMetadata, Route::AdPurge, Route::AdPost, Route::AdPut], ITEM_READS, &[Route::AdSerialise, Route::AdDataId]],
    ..item_change(
        "purge",
        "Delete deleted items for good (by name: saved; by handle: in its copy)",
    )
};

/// `safe-ad append`.
pub const APPEND: Spec = Spec {
    long_about: Some(
        "\
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
    ),
    after_help: Some("Examples:\n  safe-ad append 7 --structured AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n  safe-ad append 7 --appendable \"$name\" --private\n  echo 'See you at 3.' | safe-ad append 5 --immutable -"),
    usage: Some(
        "safe-ad append [OPTIONS] <HANDLE> --structured <NAME> [--type-tag <N>]\n       \
safe-ad append [OPTIONS] <HANDLE> --appendable <NAME> [--private]\n       \
safe-ad append [OPTIONS] <HANDLE> --immutable <FILE> [--encrypt <HOW>]",
    ),
    man: Man::NONE,
    options: SENDS.union(OUTPUT).union(DRY),
    reaches: Reaches::Launcher,
    names: Names::FreshCopy,
    leases: true,
    routes: &[&[Route::DataIdOfStructured, Route::DataIdOfAppendable, Route::AdAppend, Route::DataIdDrop, Route::ImmutableWriter, Route::ImmutableWrite, Route::CipherOpts, Route::CipherOptsFor, Route::AdEncryptKey, Route::EncryptKeyDrop, Route::ImmutableClose, Route::ImmutableWriterDrop, Route::CipherOptsDrop]],
    json: Some("result"),
    sample: &["1", "--structured", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="],
    ..Spec::changing(
        "append",
        "Append an item: data by name, or a file as immutable data (see --help)",
    )
};

/// `safe-ad show`.
pub const SHOW: Spec = Spec {
    long_about: Some(
        "\
Show what the launcher holds for each handle: its metadata, each data item and each deleted item \
(its index, what it points at, its data id, who signed it), and the keys of its filter. One block \
per handle; `--json` prints one result per handle or name instead.

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

The line under the header says which data the handle is: its name (base64, as `create` prints \
it and `open` takes it), public or private, and its owner (a fingerprint, or `you`), read from the handle's \
serialised bytes (GET /appendable-data/serialise/<HANDLE>: one request, no handle taken).

Selectors (--signed-by, --kind, --data-id, --name) keep only the items they match, as `remove`, \
`restore` and `purge` choose them: `show 7 --signed-by others` lists the data items \
`remove 7 --signed-by others` then moves (and the deleted items `restore` or `purge` then act on).

--serialised prints instead each handle's serialised bytes, the whole data as the launcher sends \
it, in base64 on a line of its own (with --json: `serialised` in each handle's object), and reads \
nothing else of the handle: `safe-ad decode` says what they hold, offline. It takes no item \
option (--full, --index, selectors): the bytes are the whole data.",
    ),
    after_help: Some("Examples:\n  safe-ad show 7\n  safe-ad show --index 0..10 --json 7\n  safe-ad show --full 7\n  safe-ad show --signed-by others 7\n  safe-ad show --serialised 7 | safe-ad decode -"),
    man: SHOW_MAN,
    options: SENDS.union(OUTPUT).union(Opts::of(&[Opt::Jobs])),
    reaches: Reaches::Launcher,
    names: Names::FreshCopy,
    leases: true,
    routes: &[&[Route::AdMetadata, Route::AdSerialise], ITEM_READS],
    json: Some("show"),
    sample: &["1"],
    ..Spec::not_changing(
        "show",
        "Show what data holds: data items, deleted items, who signed each, the filter's keys",
    )
};

/// `safe-ad cat`.
pub const CAT: Spec = Spec {
    long_about: Some(
        "\
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
    ),
    after_help: Some(
        "Examples:\n  safe-ad cat 7 0 > message.txt\n  safe-ad cat --deleted 7 2 | sha256sum",
    ),
    options: SENDS,
    reaches: Reaches::LauncherCompared,
    names: Names::FreshCopy,
    leases: true,
    routes: &[&[
        Route::AdMetadata,
        Route::AdItem,
        Route::AdDeletedItem,
        Route::DataIdSerialise,
        Route::StructuredFetch,
        Route::StructuredRead,
        Route::StructuredDrop,
        Route::ImmutableReader,
        Route::ImmutableRead,
        Route::ImmutableReaderDrop,
        Route::DataIdDrop,
    ]],
    sample: &["1", "0"],
    ..Spec::not_changing(
        "cat",
        "Write one item's content to stdout as raw bytes, exactly as stored",
    )
};

/// `safe-ad status`.
pub const STATUS: Spec = Spec {
    long_about: Some(
        "\
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
    ),
    after_help: Some("Exit 7 when one differs (a save would change the network, or the copy is stale), 0 when none does; 3, 4, 5 and 6 when it could not tell.\n\nExamples:\n  safe-ad status 7\n  safe-ad -q status 7 || { [ $? -eq 7 ] && safe-ad reopen 7; }\n  safe-ad status --json 7 8 9"),
    man: Man::SAVES,
    options: SENDS.union(OUTPUT).union(Opts::of(&[Opt::Jobs])),
    reaches: Reaches::LauncherCompared,
    names: Names::Refused(STATUS_BY_NAME),
    leases: true,
    routes: &[&[Route::AdMetadata], ITEM_READS, &[Route::AdSerialise, Route::AdDataId]],
    json: Some("status"),
    sample: &["1"],
    ..Spec::not_changing(
        "status",
        "Compare handles' copies with the network: in sync, changes not saved, stale, items the copy lacks",
    )
};
