//! safe-ad-emulator: the stand-in launcher served by `safe-ad emulator`, a local HTTP server that
//! behaves like the SAFE Launcher 0.11.0's API (v0.6) for appendable data and the data-id,
//! sign-key, structured-data, immutable-data and cipher-opts routes it works with, as safe-ad's
//! `docs/launcher-api.md` describes them (and `docs/emulator-differences.md` lists where it
//! differs on purpose), so safe-ad (and scripts using it) can be tried and tested without the real
//! launcher.
//!
//! Two families, one direction. `launcher` is the imitation: what the launcher and its storage
//! core did (the route table, every answer, the network and handle caches, the serialised bytes,
//! the `--state` JSON, the demo data, JavaScript's quirks). `service` is what a person or a CI job
//! drives around it: the options and the run, the server and its bounds, faults, the emulator's
//! own routes, logs and journal, fixtures, `--background`, `--stop`, `list` and `env`. The service uses
//! the launcher family; the launcher family never names the service (where it has something to
//! tell, it offers a hook the service plugs in). `tests/families.rs` checks that, and that no two
//! modules import each other in a loop.
//!
//! The API is what the client uses: the `emulator` subcommand's own options ([`EmulatorArgs`],
//! which the client flattens into its command tree) and its run ([`run`], [`list`] for `emulator
//! list`, [`env`] for `emulator env`, [`background_refused`], [`Exit`]), [`fixture_cipher`] and the
//! state file's types ([`fixture`]) for `safe-ad capture`'s fixtures, and the route table ([`TABLE`] and [`HEALTH`], each
//! row a [`Def`] with its [`Access`]), which `safe-ad man emulator` lists at run time. The
//! client's tests also start emulators in-process and check bounds: those items are in
//! [`test_support`], hidden, and no API.
//! (`safe-ad emulator requests` and `export`, clients of a running emulator, are the client's.)
//!
//! It depends on nothing of the client, and the client on nothing of it but this API: the
//! emulator is how the client is checked, and a bug written once and used by both would pass
//! every test. The crate boundary makes the compiler hold that.
//!
//! Demo handles (unless `--empty` or `--state`): 0 = appendable data not yet on the network, with
//! 3 data items (`put 0` works); 1 = appendable data on the network at version 1 with 3 data items
//! and 2 deleted items (`clear-data 1`, `clear-deleted-data 1`, `post 1` work); 2 = a stale copy
//! (`post 2` gives -25); 3 and 4 = data ids of 1's and 2's data; 5 = an inbox whose items are
//! immutable data. New handles start at 6 (at 0 with `--empty`). See `demo` for the details.
//!
//! Users (`--user NAME`, repeatable): each user is a launcher of its own (its own port, token,
//! sign key and handles) on one shared network, and what the network refused between users
//! (saving another's data, appending past the filter, opening another's private items) it
//! refuses with safe_core's codes (see `launcher::state` and `docs/emulator-differences.md`).
//! Without it, one unnamed user, as the launcher was.
//!
//! Faults (`--fault-rate P`, `--fault-seed N`, default seed 1): each request to the four
//! operations or metadata gets, with probability P, a 503 with a launcher-style JSON body, a
//! connection closed without an answer, or a 50-300 ms delay before its normal answer; the seed
//! fixes the sequence (see `fault`).
//!
//! Stopping (see `lifecycle`): Ctrl-C, SIGTERM or SIGHUP (or the end of `-- COMMAND`) stops it
//! in order: nothing more is accepted, requests not started are refused (503), those in progress
//! finish (a second signal cuts them off), then `--state FILE` is saved and the `--log` file gets
//! its stop record, the last line. Unless `--quiet`, the last two lines on stderr give the totals,
//! `requests: N, answered 2xx: A, 4xx: B, injected 503: C, dropped: D, delayed: E` (and the
//! requests refused or cut off by the stop, if any), and the live handles of each type, `live
//! handles: appendable-data A, structured-data S, data-id D, sign-key K, encrypt-key E,
//! cipher-opts C` (with `-- COMMAND`, only when P > 0).
//!
//! Exit codes of `safe-ad emulator`: 0 after Ctrl-C, SIGTERM or SIGHUP; 2 for an unusable
//! `--listen`, `--token`, `--token-file`, `--fault-rate`, `--state`, `--import` or `--log` file
//! (one of a kind it does not take, or two options naming one file: `files`), a `--state` file
//! another emulator holds, or a `--` with no COMMAND after it (all found before serving);
//! 1 when it cannot listen, or cannot save its `--state` or write its whole `--log` (said on
//! stderr); with `-- COMMAND`, the command's code (128 + N if signal N killed it, 127 if it could
//! not be started), or 1 when the command succeeded but the state or log could not be written.
//! `--background`: 0 once the emulator listens, else the emulator's own code (1 when it did not
//! listen within `--ready-timeout`, 128 + N when signal N stopped the start). `--stop`: the
//! emulator's own code, 1 when none of those variables runs (or it had to be killed, or the
//! directory is not one `--background` made), 2 without the variables when several run; with
//! `--if-running`, 0 when no emulator was started. `emulator env`: 0 once the variables are
//! printed, 1 when none of the user's runs (or the one named is not one, or serves no `--user`
//! of that name, or its token cannot be read as `rundir` requires), 2 without `--pid` when
//! several run.

#![forbid(unsafe_code)]

// Unix only, as safe-ad is: the emulator's stop, `-- COMMAND` and `--background` are built on
// Unix signals, process groups, `flock` and `/proc`, with no equivalent written for other systems.
#[cfg(not(unix))]
compile_error!("safe-ad-emulator runs on Unix only: it is built on Unix signals, process groups and file locks");

mod launcher;
mod service;

pub use service::args::EmulatorArgs;
pub use service::background::refused as background_refused;
pub use service::env::run as env;
pub use service::exit::Exit;
pub use service::list::run as list;
pub use service::list::yours as background_emulators;
pub use service::list::{objects as list_objects, Listed, ListedUser};
pub use service::run::run;

/// The routes it serves, who may call each, for the client's `safe-ad-emulator(1)` page
/// (`safe-ad man emulator`).
pub use launcher::table::{Access, Def, HEALTH, TABLE};

/// For `safe-ad capture`, which writes fixtures from what a launcher holds: the `cipher` a
/// fixture's immutable data needs to keep the name its items point at (see the state file's
/// format in `docs/emulator.md`).
pub use launcher::wire::fixture_cipher;

/// For `safe-ad capture`, which writes a fixture as these types, so that what it writes is the
/// state file's format as the emulator reads and saves it (`docs/emulator.md`), written once.
pub mod fixture {
    pub use crate::launcher::wire::{
        AdJson, AdKeyJson, ImmutableJson, ItemJson, LeftOutJson, NameJson, SdJson, SdKeyJson,
        StateFile, UserJson, STATE_FORMAT,
    };
}

/// For `safe-ad capture`: the last `version` a fixture's appendable or structured data may hold,
/// 2^64 - 2 (`--import` refuses 2^64 - 1, past the last version a save reaches), so that what it
/// writes loads and what it cannot write is said at capture time.
pub const LAST_FIXTURE_VERSION: u64 = launcher::state::LAST_VERSION;

/// What safe-ad's own tests reach beside the API: an emulator started in-process, and the bounds
/// and tables they check. No API for other programs: hidden, and free to change with the client.
#[doc(hidden)]
pub mod test_support {
    pub use crate::service::background::EVAL_FAILS;
    pub use crate::service::fixture::STATE_LIMIT;
    pub use crate::service::log::{record_keys, RECORD_QUEUE};
    pub use crate::service::server::{
        start, Options, Server, IDLE_TIMEOUT, MAX_CONNECTIONS, STOPPING_BODY,
    };

    /// The launcher's bounds the tests fill.
    pub mod state {
        pub use crate::launcher::state::{HANDLE_BYTES, MAX_SESSIONS, NETWORK_BYTES};
    }

    /// The fault plan, to predict which requests get which fault.
    pub mod fault {
        pub use crate::service::fault::{Fault, Plan};
    }
}
