//! safe-ad: a command-line client for the SAFE Launcher's appendable-data API.
//!
//! Modules stand in layers and import only downward (`tests/integration/layers.rs` checks it, in
//! the test suite; alone: `cargo test --locked --test integration layers`). From the bottom: plain
//! types and parsing (`handle`, `name` (appendable-data names), `secret`, `sanitize`, `url`,
//! `values`, `file_kind` (what a path names, told without opening it), `atomic_file` (the one
//! way a file is replaced whole), `config_file`, `saving` (the table of what a save does),
//! `wire`, the launcher's serialised bytes read, `jq`, the `--jq` filter, compiled and run, and
//! `route`, the launcher's routes, each a value),
//! `signals` (the stop signals, counted) and
//! `session` (the handles an interactive shell holds) →
//! `cli` (clap definitions) → `launcher` (HTTP) →
//! `outcome` (exit codes and hints) → `settings` (flags, env, config file, checked once) →
//! `input` → `batch` (requests in input order; renders nothing) → `args` (the command line's
//! values, checked) → `help` → `report` (every printed word) → `runtime`, `generate` →
//! `emulator_routes` (a client of a running emulator's own routes) → `commands` → `run` (parse
//! and dispatch) and `test_support` → `main`. The emulator is a crate of its own
//! (`safe-ad-emulator`, in `crates/emulator/`, behind the default `emulator` feature): `cli`
//! flattens its options into the `emulator` command, `commands::emulator` runs it; it imports
//! nothing from here. (The man pages, `generate::man`, list its routes from its route table,
//! `safe_ad_emulator::TABLE`.)
//!
//! The library is narrow: every module is private. It exports only [`run`], which `main` calls,
//! and [`test_support`], the items the integration tests, the benches and the fuzz targets use,
//! which is not an API.
//!
//! safe-ad runs on unix only (Cargo.toml says so): it relies on unix signals, file modes and
//! `poll`, and no CI job could build another target's std to check a fallback. A build for any
//! other target stops here with one clear error rather than dozens from deep inside.

#![forbid(unsafe_code)]

/// Declares a fieldless enum and its `ALL`: every variant, in the order they are declared. A
/// list written beside an enum by hand lets a new variant pass unseen by what reads the list
/// (parsers, help, man pages, completions, the tests that walk it); written by this macro it
/// cannot miss one.
macro_rules! enum_with_all {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident,)+
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $($(#[$variant_meta])* $variant,)+
        }

        impl $name {
            /// Every variant, in the order the enum declares them.
            pub const ALL: [$name; [$(stringify!($variant)),+].len()] = [$($name::$variant),+];
        }
    };
}

#[cfg(not(unix))]
compile_error!(
    "safe-ad supports unix targets only (Linux, the BSDs, macOS): it needs unix signals, file \
     modes and poll"
);

mod args;
mod atomic_file;
mod batch;
mod cli;
mod commands;
mod config_file;
#[cfg(feature = "emulator")]
mod emulator_routes;
mod file_kind;
mod generate;
mod handle;
mod help;
mod input;
mod jq;
mod launcher;
mod name;
mod outcome;
mod report;
mod route;
mod run;
mod runtime;
mod sanitize;
mod saving;
mod secret;
mod session;
mod settings;
mod signals;
#[doc(hidden)]
pub mod test_support;
mod url;
mod values;
mod wire;

pub use run::run;
