//! The commands that poll one appendable data, with their specs: `wait` until a condition
//! holds (or a deadline passes), `watch` to see it change.

use crate::route::Route;
use std::ffi::OsString;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::Args;

use crate::values::WaitFor;

use super::items::SelectorArgs;
use super::options::{OUTPUT, SENDS};
use super::spec::{Man, Names, Reaches, Spec, ITEM_READS};

/// `wait HANDLE|NAME --for CONDITION [--deadline SECS] [--interval SECS]`.
#[derive(Debug, Args)]
pub struct WaitCommand {
    /// What to wait for: new-items, stale, in-sync, item (with selectors), or version-above=N
    #[arg(long = "for", value_name = "CONDITION", value_parser = WaitForParser)]
    pub condition: WaitFor,

    /// Give up after this many seconds (exit 8); fractions allowed
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = crate::values::parse_timeout)]
    pub deadline: f64,

    /// Seconds between the start of one poll and the next; fractions allowed
    #[arg(long, value_name = "SECS", default_value = "1", value_parser = crate::values::parse_timeout)]
    pub interval: f64,

    #[command(flatten)]
    pub selector: SelectorArgs,

    /// The appendable data handle: a decimal number, 0 to 18446744073709551615, or the data's name (see below)
    #[arg(value_name = "HANDLE", allow_negative_numbers = true)]
    pub handle: OsString,
}

/// clap's parser of `--for`: [`WaitFor::parse`], with its words for help and completion.
#[derive(Clone)]
pub struct WaitForParser;

impl TypedValueParser for WaitForParser {
    type Value = WaitFor;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<WaitFor, clap::Error> {
        WaitFor::parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            (WaitFor::WORDS.iter()).map(|(word, help)| PossibleValue::new(*word).help(*help)),
        ))
    }
}

/// `safe-ad wait`.
pub const WAIT: Spec = Spec {
    path: "wait",
    about: "Poll until a condition holds: new items, an item, a version, stale, in sync",
    long_about: Some(
        "\
Poll the network's data behind HANDLE (or the data NAME names) every --interval seconds until \
the condition given with --for holds, then print what made it hold and exit 0. When --deadline \
passes first it says what it waited for and what it last saw, and exits 8; a launcher that \
fails keeps its own code (6 when it cannot be reached), at once.

The conditions are listed under --for below.

Each poll reads the network's data through a fresh handle and gives back every handle it takes, \
so the launcher holds no more handles after a thousand polls than before the first. With a \
HANDLE it reads the copy too (stale and in-sync compare the two, as `status` does); with a NAME \
each poll takes a fresh copy of the network's data and gives it back, and a copy the launcher \
evicted before it was read is taken again, not a failure. stale and in-sync need a HANDLE: a \
fresh copy of a name is never stale. The first Ctrl-C, SIGTERM or SIGHUP stops it as it stops \
every command (exit 130), every handle given back.

--deadline is the whole wait: a poll still in flight when it passes is cut short, and the \
handles it held or may have made are named with the request that frees each; the client option \
--timeout stays what it is for every command, the limit on one request.",
    ),
    after_help: Some("Exit 8 when the deadline passed before the condition held; exit 7 at once when in-sync can never hold (the copy is stale: only a fresh one is in sync).\n\nExamples:\n  safe-ad wait 7 --for in-sync --deadline 120\n  safe-ad wait \"$name\" --for item --kind structured-data --interval 5\n  safe-ad wait \"$name\" --for version-above=1 --json"),
    usage: None,
    man: Man::NONE,
    options: SENDS.union(OUTPUT),
    reaches: Reaches::LauncherUntil,
    names: Names::FreshCopy,
    leases: true,
    routes: &[&[Route::AdMetadata, Route::AdSerialise], ITEM_READS, &[Route::AdDataId]],
    json: Some("wait"),
    sample: &["1", "--for", "version-above=0", "--deadline", "5"],
    inert: false,
    changes: false,
};

/// `watch HANDLE|NAME [--interval SECS] [--count N]`.
#[derive(Debug, Args)]
pub struct WatchCommand {
    /// Seconds between the start of one poll and the next; fractions allowed
    #[arg(long, value_name = "SECS", default_value = "2", value_parser = crate::values::parse_timeout)]
    pub interval: f64,

    /// Stop after this many polls (exit 0); without it, it watches until stopped
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,

    /// The appendable data handle: a decimal number, 0 to 18446744073709551615, or the data's name (see below)
    #[arg(value_name = "HANDLE", allow_negative_numbers = true)]
    pub handle: OsString,
}

/// `safe-ad watch`.
pub const WATCH: Spec = Spec {
    path: "watch",
    about: "Watch data change: a view redrawn in place, or one JSON line per change",
    long_about: Some(
        "\
Poll the network's data behind HANDLE (or the data NAME names) every --interval seconds, as \
`wait` polls it, and say what changed since the poll before: items appended, removed (to the \
deleted list), restored, purged (gone from both lists), the version, and, for a HANDLE, the \
copy becoming stale. An item that left the deleted list while data of the same data id signed \
by another key came in is one restore, re-signed (what `restore --re-sign` does), not a purge \
and an append.

On a terminal it shows the data as `show` lists it (each item's index, what it points at, its \
data id and signer; no content), redrawn in place after each poll, the lines that changed since \
the poll before marked `+` (appended or restored) and `-` (removed to the deleted list), with \
what changed said under the header. Otherwise (a pipe, a file), or with --json, it prints one \
JSON object a line per change, each line written whole as it happens: a `start` event first, \
then `appended`, `removed`, `restored`, `purged`, `version` and `stale` events. Standard output \
that is not a terminal never ends it; a reader that goes away does (exit 0).

It runs until --count polls were made (exit 0) or a stop signal (Ctrl-C, SIGTERM, SIGHUP: exit \
130, every handle given back, as for every command). A launcher that goes away ends it with exit 6 \
and a line saying so; any other failure of a poll ends it with that failure's code. Each poll \
gives back every handle it takes.",
    ),
    after_help: Some("Examples:\n  safe-ad watch 7 --count 3\n  safe-ad watch \"$name\" --interval 5 --count 1\n  safe-ad watch 7 --json --count 2 > events.jsonl"),
    usage: None,
    man: Man::NONE,
    options: SENDS.union(OUTPUT),
    reaches: Reaches::Launcher,
    names: Names::FreshCopy,
    leases: true,
    routes: &[&[Route::AdMetadata, Route::AdSerialise, Route::AdItem, Route::AdDeletedItem, Route::AdItemSigner, Route::AdDeletedItemSigner, Route::AdFilterKey, Route::DataIdSerialise, Route::SignKeyOwn, Route::SignKeySerialise, Route::SignKeyDrop, Route::AdFetch, Route::AdDrop, Route::DataIdDrop, Route::AdDataId]],
    json: Some("watch"),
    sample: &["1", "--count", "1"],
    inert: false,
    changes: false,
};
