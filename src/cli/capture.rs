//! `safe-ad capture NAME... [-o FILE]`: its arguments and its spec. It reads the named data from
//! any launcher (see `commands::capture`) and writes a fixture for the emulator's `--import`,
//! so it is built with the emulator, whose fixture format it writes.

use crate::route::Route;
use std::path::PathBuf;

use super::options::{Opt, Opts, SENDS};
use super::spec::{Man, Names, Reaches, Spec};
use clap::{Args, ValueHint};

/// `capture NAME... [-o FILE]`.
#[derive(Debug, Args)]
pub struct CaptureCommand {
    /// The names of the appendable data to capture: 32 bytes as standard base64 (44
    /// characters) or 64 hex digits
    #[arg(value_name = "NAME", required = true)]
    pub names: Vec<String>,

    /// Where to write the fixture (`-`, or no -o: standard output)
    #[arg(short = 'o', long = "output", value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub output: Option<PathBuf>,
}

/// `safe-ad capture`.
pub const CAPTURE: Spec = Spec {
    path: "capture",
    about: "Read appendable data by name from any launcher and write it as a fixture for --import",
    long_about: Some(
        "\
Read the named appendable data from the launcher SAFE_LAUNCHER_URL names (a real launcher or an \
emulator), with everything their items point at that can be read, and write it as a fixture \
that `safe-ad emulator --import FILE` (or --state FILE) loads: state, not traffic.

Each name is read as `show --full` reads it, through a fresh copy taken for the run and given \
back: its version, filter and filter keys, every data item and deleted item with who signed it; \
structured data an item points at (its name, type tag, version and content), immutable data (its \
content), and appendable data (its own data, read the same way, to at most 8 steps from a name \
given; each data once, so a loop of items ends). The token is in no byte of the fixture.

What cannot be captured is summed up on stderr by reason (each said, with why, under --verbose) \
and listed in the fixture's `leftOut`, never dropped silently: private data (a copy is taken of public data only), data owned by a key other than \
yours (the emulator makes its own user the owner), data an item points at that is not on the \
network, immutable data whose name the emulator would not give its content (written by another \
launcher), older versions of versioned structured data, data at version 2^64 - 1 (which \
--import refuses: no save could follow it), and every read that failed (the exit code is then \
that failure's; the fixture is still written).

FILE is replaced whole and atomically (a new file beside it, renamed over it), keeping its \
permissions; a FILE that is a symbolic link or not a regular file, or whose directory does not \
exist or cannot be written, is refused before anything is sent. A write that fails (a full disk, \
the file-size limit) leaves the old file and no new one, and is exit 1. Without -o, or with `-o -`, the fixture goes to standard output. --dry-run lists the reads \
it can know before the answers (your key, each name's copy, its metadata and serialised bytes) \
and sends nothing.",
    ),
    // Each line fits 80 columns: the help example test runs them as printed.
    after_help: Some("Examples:\n  safe-ad capture \"$name\" -o fixture.json\n  safe-ad capture \"$name\" > fixture.json\n  safe-ad emulator --import fixture.json -- safe-ad show --full \"$name\""),
    usage: None,
    man: Man::NONE,
    options: SENDS.union(Opts::of(&[Opt::Quiet, Opt::DryRun])),
    reaches: Reaches::Launcher,
    names: Names::NoHandle,
    leases: true,
    routes: &[&[Route::DataIdOfAppendable, Route::AdFetch, Route::DataIdDrop, Route::AdMetadata, Route::AdSerialise, Route::AdItem, Route::AdDeletedItem, Route::AdItemSigner, Route::AdDeletedItemSigner, Route::AdFilterKey, Route::DataIdSerialise, Route::SignKeyOwn, Route::SignKeySerialise, Route::SignKeyDrop, Route::StructuredFetch, Route::StructuredRead, Route::StructuredDrop, Route::ImmutableReader, Route::ImmutableRead, Route::ImmutableReaderDrop, Route::AdDrop]],
    json: None,
    sample: &["c2FmZS1hZCBkZW1vOiBzYXZlZC4uLi4uLi4uLi4uLi4="],
    inert: false,
    changes: false,
};
