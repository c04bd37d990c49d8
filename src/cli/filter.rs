//! The `filter` commands' clap definitions, with their specs: who may append to appendable
//! data, as its filter says (a whitelist or a blacklist of sign keys): `show` reads it, `add`
//! and `remove` change its keys, `type` its type.

use crate::route::Route;
use std::ffi::OsString;

use clap::{ArgGroup, Args, Subcommand, ValueEnum};

use super::handles::SaveWith;
use super::options::{DRY, OUTPUT, SENDS};
use super::spec::{Man, Names, Reaches, Spec, FETCH_BY_ID};

/// `safe-ad filter <COMMAND>`.
#[derive(Debug, Args)]
pub struct FilterArgs {
    #[command(subcommand)]
    pub command: FilterCommand,
}

#[derive(Debug, Subcommand)]
pub enum FilterCommand {
    Show(FilterShowCommand),
    Add(FilterKeysCommand),
    Remove(FilterKeysCommand),
    Type(FilterTypeCommand),
}

/// `filter show HANDLE`.
#[derive(Debug, Args)]
pub struct FilterShowCommand {
    /// The appendable data handle: a decimal number, 0 to 18446744073709551615, or the data's name
    #[arg(value_name = "HANDLE", allow_negative_numbers = true)]
    pub handle: OsString,
}

/// `filter add|remove [--save OPERATION] [--signer-of INDEX]... HANDLE [KEY]...`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("which").required(true).multiple(true).args(["keys", "signer_of"])))]
pub struct FilterKeysCommand {
    /// Given a handle: after every key went in, save the handle with this operation, so the change reaches the network
    #[arg(long, value_name = "OPERATION")]
    pub save: Option<SaveWith>,

    /// The key of whoever signed the data item at this index (as `safe-ad show` numbers them); given again: each
    #[arg(long, value_name = "INDEX", allow_negative_numbers = true)]
    pub signer_of: Vec<OsString>,

    /// The appendable data handle: a decimal number, 0 to 18446744073709551615, or the data's name
    #[arg(value_name = "HANDLE", allow_negative_numbers = true)]
    pub handle: OsString,

    /// Sign keys: 32 bytes, base64 or hex, as `auth whoami --key` prints one (remove: or a fingerprint)
    #[arg(value_name = "KEY")]
    pub keys: Vec<OsString>,
}

/// `filter type [--save OPERATION] HANDLE white-list|black-list`.
#[derive(Debug, Args)]
pub struct FilterTypeCommand {
    /// Given a handle: after the type changed, save the handle with this operation, so the change reaches the network
    #[arg(long, value_name = "OPERATION")]
    pub save: Option<SaveWith>,

    /// The appendable data handle: a decimal number, 0 to 18446744073709551615, or the data's name
    #[arg(value_name = "HANDLE", allow_negative_numbers = true)]
    pub handle: OsString,

    /// The type: a whitelist (only its keys may append) or a blacklist (its keys may not)
    #[arg(value_name = "TYPE")]
    pub kind: FilterKind,
}

/// The two types of filter, as `filter type` takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FilterKind {
    WhiteList,
    BlackList,
}

/// The routes a change of the filter sends, by handle and by name: the read before (metadata,
/// and each key through a sign-key handle), a signer read, each key's handle, the edit, the
/// save, and a name's fresh copy taken and given back.
const EDIT_ROUTES: &[Route] = &[
    Route::AdMetadata,
    Route::AdFilterKey,
    Route::AdItemSigner,
    Route::SignKeySerialise,
    Route::SignKeyDeserialise,
    Route::AdFilterAdd,
    Route::AdFilterRemove,
    Route::SignKeyDrop,
    Route::AdPost,
    Route::AdPut,
    Route::DataIdOfAppendable,
    Route::AdFetch,
    Route::DataIdDrop,
    Route::AdDrop,
];

/// What the commands that change the filter say of a name and a handle (a macro, for
/// `concat!`).
macro_rules! by_name_or_handle {
    () => {
        "\
Given the data's name, the network's data changes: the command takes a fresh copy for the run, \
makes the change, saves it with a post and gives the copy back; its lines are printed once the \
save landed. Given a handle, it changes only the launcher's copy until a save (`post`, or \
`--save post`), as the clears do; `safe-ad status HANDLE` shows the change not saved."
    };
}

/// `safe-ad filter`.
pub const FILTER: Spec = Spec {
    options: crate::cli::Opts::NONE,
    reaches: Reaches::Group,
    sample: &["show", "1"],
    ..Spec::not_changing(
        "filter",
        "Show or change who may append: the filter's type and keys",
    )
};

/// `safe-ad filter show`.
pub const FILTER_SHOW: Spec = Spec {
    long_about: Some(
        "\
Show the filter of an appendable data: its type (a whitelist: only its keys may append; a \
blacklist: its keys may not, anyone else may) and each key, with its fingerprint (as `show` \
names signers; `you` for your own key) and its 32 bytes in base64, which `filter add` takes.

It only reads: your own key (GET /sign-key), the metadata, and each key through a sign-key handle \
(GET /appendable-data/filter/<HANDLE>/<INDEX>, its serialised bytes), each handle given back, \
also on Ctrl-C. Given the data's name it reads the network's filter through a fresh copy; given \
a handle, the launcher's copy (with a change not saved yet).",
    ),
    after_help: Some("Examples:\n  safe-ad filter show \"$name\"\n  safe-ad filter show --json 7"),
    options: SENDS.union(OUTPUT),
    reaches: Reaches::Launcher,
    names: Names::FreshCopy,
    leases: true,
    routes: &[
        &[
            Route::SignKeyOwn,
            Route::SignKeySerialise,
            Route::SignKeyDrop,
            Route::AdMetadata,
            Route::AdFilterKey,
            Route::DataIdOfAppendable,
        ],
        FETCH_BY_ID,
    ],
    json: Some("result"),
    sample: &["1"],
    ..Spec::not_changing(
        "filter show",
        "Show who may append: the filter's type and keys, each with its fingerprint",
    )
};

/// `safe-ad filter add`.
pub const FILTER_ADD: Spec = Spec {
    long_about: Some(concat!(
        "\
Add sign keys to the filter: to a whitelist, who may append; to a blacklist, who may not. A KEY \
is a sign key's 32 bytes, in base64 (44 characters) or hex (64 digits), as `safe-ad auth whoami \
--key` prints one (and `--json` as `key`); --signer-of INDEX adds whoever signed the data item \
at INDEX, as `safe-ad show` numbers them.

It reads the filter first (its metadata, and each key through a sign-key handle), and sends \
nothing for a key in it already: the filter is a set. Each other key is sent as a sign-key \
handle (POST /sign-key/deserialise), added (PUT /appendable-data/filter/<HANDLE>) and given \
back, one at a time; when none changes the filter, nothing is saved. Every handle it takes is \
given back, also when a step fails or on Ctrl-C. A KEY that is not a key is refused before \
anything is sent (exit 2).

",
        by_name_or_handle!()
    )),
    after_help: Some("Examples:\n  safe-ad filter add \"$name\" AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n  safe-ad filter add --signer-of 1 --save post 7"),
    usage: Some("safe-ad filter add [OPTIONS] <HANDLE> [KEY]... [--signer-of INDEX]..."),
    man: Man::NONE,
    options: SENDS.union(OUTPUT).union(DRY),
    reaches: Reaches::Launcher,
    names: Names::FreshCopy,
    leases: true,
    routes: &[EDIT_ROUTES],
    json: Some("result"),
    sample: &["1", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="],
    ..Spec::changing(
        "filter add",
        "Add sign keys to the filter (by name: saved; by handle: in its copy)",
    )
};

/// `safe-ad filter remove`.
pub const FILTER_REMOVE: Spec = Spec {
    long_about: Some(concat!(
        "\
Take sign keys out of the filter. A KEY is a sign key's 32 bytes (base64 or hex, as for `filter \
add`) or the fingerprint of a key in the filter (16 hex digits, as `filter show` and `show` \
give them); --signer-of INDEX takes out whoever signed the data item at INDEX.

It reads the filter first, and sends nothing for a key that is not in it (nor for a fingerprint \
no key of it has: said, exit 0). Each other key is sent as a sign-key handle, taken out \
(DELETE /appendable-data/filter/<HANDLE>) and given back, one at a time; when none changes the \
filter, nothing is saved. A KEY that is neither is refused before anything is sent (exit 2).

",
        by_name_or_handle!()
    )),
    after_help: Some("Examples:\n  safe-ad filter remove --save post 7 e30376180e311a1e\n  safe-ad filter remove --signer-of 0 \"$name\""),
    usage: Some("safe-ad filter remove [OPTIONS] <HANDLE> [KEY]... [--signer-of INDEX]..."),
    path: "filter remove",
    about: "Take sign keys out of the filter (by name: saved; by handle: in its copy)",
    // Sent, sorted and sampled as `filter add`.
    ..FILTER_ADD
};

/// `safe-ad filter type`.
pub const FILTER_TYPE: Spec = Spec {
    long_about: Some(concat!(
        "\
Make the filter a whitelist (only its keys may append) or a blacklist (its keys may not; anyone \
else may). The launcher only switches the type (PUT /appendable-data/toggle-filter/<HANDLE>), so \
it reads the type first and sends the switch only when the type differs; when it is the type \
asked for already, it says so and changes nothing (exit 0). The switch leaves the filter without \
keys (safe_core makes the other type empty: a blacklist's keys are no whitelist), and it says \
how many it dropped: add the keys the new list needs with `filter add`.

",
        by_name_or_handle!()
    )),
    after_help: Some("Examples:\n  safe-ad filter type \"$name\" white-list\n  safe-ad filter type --save post 7 black-list"),
    options: SENDS.union(OUTPUT).union(DRY),
    reaches: Reaches::Launcher,
    names: Names::FreshCopy,
    leases: true,
    routes: &[&[Route::AdMetadata, Route::AdToggleFilter, Route::AdPost, Route::AdPut, Route::DataIdOfAppendable, Route::AdFetch, Route::DataIdDrop, Route::AdDrop]],
    json: Some("result"),
    sample: &["1", "white-list"],
    ..Spec::changing(
        "filter type",
        "Make the filter a whitelist or a blacklist (by name: saved; by handle: in its copy)",
    )
};
