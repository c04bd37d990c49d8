//! The commands over whole handles, with their specs: `create` and `open` make one, `put` and
//! `post` save it, the clears change its copy, `metadata` reads it, `reopen` makes a fresh one
//! and `drop` gives it back; and the arguments they share (handles, `--save`).

use crate::route::Route;
use std::ffi::OsString;

use clap::{Args, ValueEnum};

use super::options::{BATCH_COMMAND, DRY, OUTPUT, SENDS};
use super::spec::{Man, Names, Reaches, Spec, FETCH_BY_ID};
use crate::handle::NameRefusal;

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

/// `show [--full] [--index RANGE] [SELECTOR]... HANDLE...`.
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
    /// Appendable data handles: decimal numbers, 0 to 18446744073709551615, or data names (see below); `-` reads them from stdin
    #[arg(required = true, value_name = "HANDLE", allow_negative_numbers = true)]
    pub handles: Vec<OsString>,
}

/// Why `put` takes no name: it saves data never saved.
const PUT_BY_NAME: &str = "`put` saves data never saved, which has no name on the network yet: give the handle `create` printed (or use `create --put`)";

/// Why `post` takes no name: a fresh copy holds nothing unsaved.
const POST_BY_NAME: &str = "`post` saves a copy you hold, and a copy taken for a name holds nothing unsaved: posting it would only make a new version (and every other copy stale); a command given a name saves what it changes itself";

/// Why `--save put` takes no name (a clear, or a one-item change).
pub const SAVE_PUT_BY_NAME: NameRefusal = NameRefusal {
    option: Some("--save put"),
    why: "`--save put` saves data never saved, and a name names data on the network: leave --save out, and a command given a name saves its change with a post",
};

/// Why `drop` takes no name.
const DROP_BY_NAME: &str = "`drop` gives back a handle you hold, and a name holds none: a command given a name gives back the copy it took itself";

/// Why `reopen --drop` takes no name (`reopen NAME` alone is `open NAME`).
pub const REOPEN_DROP_BY_NAME: NameRefusal = NameRefusal {
    option: Some("--drop"),
    why: "`--drop` drops the old handle, and a name has none: `safe-ad reopen NAME` (or `safe-ad open NAME`) gets a fresh handle without it",
};

/// `safe-ad create`.
pub const CREATE: Spec = Spec {
    long_about: Some(
        "\
Make a new appendable data in the launcher (POST /appendable-data) and print its handle alone on \
stdout, for `h=$(safe-ad create --put)`.

The new data exists only in the launcher until it is saved: `--put` saves it right after (PUT \
/appendable-data/<HANDLE>), or save it later with `safe-ad put HANDLE`. Without NAME a fresh \
random name is made from the operating system's random number generator; the name is printed \
on stderr, and `safe-ad open NAME` gets a handle for the data again later (after a save).",
    ),
    after_help: Some("Examples:\n  h=$(safe-ad create --put)\n  safe-ad create --private --white-list AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="),
    options: SENDS.union(OUTPUT).union(DRY),
    reaches: Reaches::Launcher,
    leases: true,
    routes: &[&[Route::AdCreate, Route::AdPut, Route::AdMetadata, Route::AdDrop]],
    json: Some("result"),
    ..Spec::changing(
        "create",
        "Make new appendable data and print its handle (--put saves it)",
    )
};

/// `safe-ad open`.
pub const OPEN: Spec = Spec {
    long_about: Some(
        "\
Get a handle for an appendable data that is on the network, by its name, and print it alone on \
stdout, for `h=$(safe-ad open NAME)`.

It asks for a data id for the name (POST /data-id/appendable-data), fetches the data through it \
(GET /appendable-data/handle/<DATA-ID>) and drops the data id again (DELETE /data-id/<DATA-ID>), \
also when the fetch failed, so the launcher's cache keeps nothing behind. A name that is not on \
the network gives the launcher's -18 (NoSuchData), exit 4.",
    ),
    after_help: Some("Example:\n  h=$(safe-ad open \"$name\") && safe-ad metadata \"$h\""),
    options: SENDS.union(OUTPUT).union(DRY),
    reaches: Reaches::Launcher,
    leases: true,
    routes: &[&[
        Route::DataIdOfAppendable,
        Route::AdFetch,
        Route::DataIdDrop,
        Route::AdDrop,
    ]],
    json: Some("result"),
    sample: &["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="],
    ..Spec::not_changing(
        "open",
        "Get a handle for data on the network, by its name, and print it",
    )
};

/// `safe-ad put`.
pub const PUT: Spec = Spec {
    long_about: Some(
        "\
Save a new appendable data to the network for the first time (PUT /appendable-data/<HANDLE>).

Use `post` instead for data that is already on the network: the launcher refuses a second PUT \
(errorCode -23, DataExists).",
    ),
    after_help: Some("Example:\n  h=$(safe-ad create) && safe-ad put \"$h\""),
    man: Man::SAVES,
    options: BATCH_COMMAND,
    reaches: Reaches::Launcher,
    names: Names::Refused(PUT_BY_NAME),
    routes: &[&[Route::AdPut, Route::AdMetadata]],
    json: Some("result"),
    sample: &["1"],
    ..Spec::changing(
        "put",
        "Save a handle's new data to the network (PUT /appendable-data/<HANDLE>)",
    )
};

/// `safe-ad post`.
pub const POST: Spec = Spec {
    long_about: Some(
        "\
Save an appendable data that is already on the network (POST /appendable-data/<HANDLE>).

This is the save that makes an earlier `clear-data` or `clear-deleted-data` reach the network. Use \
`put` for data that was never saved: the launcher refuses a POST of it (errorCode -22, NoSuchData).",
    ),
    after_help: Some("Example:\n  safe-ad clear-data 7 && safe-ad post 7"),
    man: Man::SAVES,
    options: BATCH_COMMAND,
    reaches: Reaches::Launcher,
    names: Names::Refused(POST_BY_NAME),
    routes: &[&[Route::AdPost, Route::AdMetadata]],
    json: Some("result"),
    sample: &["1"],
    ..Spec::changing(
        "post",
        "Save a handle's copy of data already on the network (POST /appendable-data/<HANDLE>)",
    )
};

/// `safe-ad clear-data`.
pub const CLEAR_DATA: Spec = Spec {
    long_about: Some(
        "\
Move every data item of the appendable data to its deleted list.

Given the data's name, the network's data changes: the command takes a fresh copy for the run, \
makes the change, saves it with a post and gives the copy back; its lines are printed once the \
save landed. Given a handle, it changes only the launcher's copy \
(DELETE /appendable-data/clear-data/<HANDLE>), which reaches the network when you save it \
afterwards with `post` (or `put` if it was never saved); `--save post` does both in one go.",
    ),
    after_help: Some("Examples:\n  safe-ad clear-data --save post 7\n  seq 7 9 | safe-ad clear-data --save post -"),
    man: Man::SAVES,
    options: BATCH_COMMAND,
    reaches: Reaches::Launcher,
    names: Names::FreshCopy,
    routes: &[&[Route::AdClearData, Route::AdPost, Route::AdPut, Route::AdMetadata]],
    json: Some("result"),
    sample: &["1"],
    ..Spec::changing(
        "clear-data",
        "Move every data item to the deleted list (by name: saved; by handle: in its copy)",
    )
};

/// `safe-ad clear-deleted-data`.
pub const CLEAR_DELETED_DATA: Spec = Spec {
    long_about: Some(
        "\
Remove every item from the deleted list of the appendable data, for good.

Given the data's name, the network's data changes: the command takes a fresh copy for the run, \
makes the change, saves it with a post and gives the copy back; its lines are printed once the \
save landed. Given a handle, it changes only the launcher's copy \
(DELETE /appendable-data/clear-deleted-data/<HANDLE>), which reaches the network when you save it \
afterwards with `post` (or `put` if it was never saved). A post sends the copy's deleted list, so \
an item whose removal was not saved yet stays data on the network after a plain `post`; \
`--save post` saves first (the removal), then clears, then saves again: two saves, each named. \
Without --save, for one handle, it first compares the copy's deleted list with the network's \
(their serialised bytes; a fresh handle, given back) and notes what a plain post would leave only \
when such a removal is there.",
    ),
    after_help: Some("Example:\n  safe-ad clear-deleted-data --save post 7"),
    man: Man::SAVES,
    options: BATCH_COMMAND,
    reaches: Reaches::Launcher,
    names: Names::FreshCopy,
    leases: true,
    routes: &[
        &[
            Route::AdClearDeletedData,
            Route::AdPost,
            Route::AdPut,
            Route::AdMetadata,
            Route::AdSerialise,
            Route::AdDataId,
        ],
        FETCH_BY_ID,
    ],
    json: Some("result"),
    sample: &["1"],
    ..Spec::changing(
        "clear-deleted-data",
        "Empty the deleted list, for good (by name: saved; by handle: in its copy)",
    )
};

/// `safe-ad metadata`.
pub const METADATA: Spec = Spec {
    long_about: Some(
        "\
Show what the launcher holds for each handle (GET /appendable-data/metadata/<HANDLE>): the version, \
how many data items and deleted data items it has, whether you own it, and its filter.

Use it to see what a clear did: after `clear-data` the data count moves into the deleted count.",
    ),
    after_help: Some("Example:\n  safe-ad metadata 7\n  7: version 2, data 0, deleted 3, owner yes, filter BlackList (0 keys)"),
    options: BATCH_COMMAND,
    reaches: Reaches::Launcher,
    names: Names::FreshCopy,
    routes: &[&[Route::AdMetadata]],
    json: Some("result"),
    sample: &["1"],
    ..Spec::not_changing(
        "metadata",
        "Show the version, item counts, owner and filter of data, by name or handle",
    )
};

/// `safe-ad reopen`.
pub const REOPEN: Spec = Spec {
    long_about: Some(
        "\
Get a fresh copy, from the network, of the data behind each handle, and print each new handle on \
its own line of stdout, in input order.

Use it when a handle went stale: someone saved the data since the handle was fetched, and \
`post` fails with -25 (InvalidSuccessor). For each handle: its data id (GET \
/appendable-data/data-id/<HANDLE>), the fetch (GET /appendable-data/handle/<DATA-ID>) and the \
data id dropped again (DELETE /data-id/<DATA-ID>). `--drop` also drops the old handle once the \
new one is there.

The line on stderr says which data it is: its name (as `open` takes it), public or private, and \
its owner's fingerprint, read from the new handle's serialised bytes \
(GET /appendable-data/serialise/<NEW>; with --json: `name`, `private` and `owners` in that \
step's object). When that read fails a warning says so, and the reopen still succeeds.",
    ),
    after_help: Some("Example:\n  h=$(safe-ad reopen --drop \"$h\") && safe-ad post \"$h\""),
    options: BATCH_COMMAND,
    reaches: Reaches::Launcher,
    names: Names::FreshCopy,
    leases: true,
    routes: &[&[
        Route::AdDataId,
        Route::AdFetch,
        Route::DataIdDrop,
        Route::AdSerialise,
        Route::AdDrop,
    ]],
    json: Some("result"),
    sample: &["1"],
    ..Spec::not_changing(
        "reopen",
        "Get a fresh handle for the data behind stale handles, and print each",
    )
};

/// `safe-ad drop`.
pub const DROP: Spec = Spec {
    long_about: Some(
        "\
Drop handles (DELETE /appendable-data/handle/<HANDLE>): the launcher forgets them and frees their \
slots (it keeps at most 100 per kind and evicts the least recently used). Nothing on the network \
changes; a dropped handle answers -1515 afterwards.",
    ),
    after_help: Some("Example:\n  safe-ad drop 7 8 9"),
    options: BATCH_COMMAND,
    reaches: Reaches::Launcher,
    names: Names::Refused(DROP_BY_NAME),
    routes: &[&[Route::AdDataId], FETCH_BY_ID],
    json: Some("result"),
    sample: &["1"],
    ..Spec::not_changing(
        "drop",
        "Drop handles, freeing the launcher's slots (DELETE /appendable-data/handle/<HANDLE>)",
    )
};
