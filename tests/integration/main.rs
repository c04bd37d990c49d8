//! safe-ad's integration tests: one test binary, one module per behaviour, one shared harness.
//!
//! Run them all with `cargo test --test integration`, one module with a filter
//! (`cargo test --test integration hostile::`). TESTING.md describes each module.

mod harness;
// The Rust source reader layers.rs shares with crates/emulator/tests/families.rs.
#[path = "../support/rust_source.rs"]
mod rust_source;

mod auth_config;
mod bad_input;
mod command_specs;
mod completions;
mod decode;
mod docs_tables;
mod extreme_answers;
mod generated;
mod handles;
mod hostile;
mod layers;
mod man_command;
mod messages;
mod operations;
mod options;
mod package;
mod properties;
mod security;
mod settings;
mod show_bytes;
mod source_files;
mod suites;

#[cfg(feature = "emulator")]
mod append_immutable;
#[cfg(feature = "emulator")]
mod batches;
#[cfg(feature = "emulator")]
mod capture;
#[cfg(feature = "emulator")]
mod concurrent_saves;
#[cfg(feature = "emulator")]
mod dry_run_matches;
#[cfg(feature = "emulator")]
mod emulator_api;
mod emulator_bytes;
#[cfg(feature = "emulator")]
mod emulator_ci;
#[cfg(feature = "emulator")]
mod emulator_core;
#[cfg(feature = "emulator")]
mod emulator_env;
#[cfg(feature = "emulator")]
mod emulator_files;
#[cfg(feature = "emulator")]
mod emulator_fixtures;
mod emulator_immutable;
#[cfg(feature = "emulator")]
mod emulator_list;
#[cfg(feature = "emulator")]
mod emulator_requests;
#[cfg(feature = "emulator")]
mod emulator_routes;
#[cfg(feature = "emulator")]
mod emulator_stress;
#[cfg(feature = "emulator")]
mod emulator_users;
#[cfg(feature = "emulator")]
mod exact_bytes;
#[cfg(feature = "emulator")]
mod filter;
#[cfg(feature = "emulator")]
mod help;
#[cfg(feature = "emulator")]
mod items;
#[cfg(feature = "emulator")]
mod jq;
#[cfg(feature = "emulator")]
mod leases_interrupted;
#[cfg(feature = "emulator")]
mod leases_sweep;
#[cfg(feature = "emulator")]
mod lost_answers;
#[cfg(feature = "emulator")]
mod names;
#[cfg(feature = "emulator")]
mod profiles;
#[cfg(feature = "emulator")]
mod readme;
#[cfg(feature = "emulator")]
mod restore_loss;
#[cfg(feature = "emulator")]
mod restore_resign;
#[cfg(feature = "emulator")]
mod saved_version;
#[cfg(feature = "emulator")]
mod saving;
#[cfg(feature = "emulator")]
mod scenarios;
#[cfg(feature = "emulator")]
mod selectors;
#[cfg(feature = "emulator")]
mod shell;
mod shell_session;
#[cfg(feature = "emulator")]
mod shell_terminal;
#[cfg(feature = "emulator")]
mod show;
#[cfg(feature = "emulator")]
mod soak;
#[cfg(feature = "emulator")]
mod status;
#[cfg(feature = "emulator")]
mod stop_signals;
#[cfg(feature = "emulator")]
mod unwritable_output;
#[cfg(feature = "emulator")]
mod wait;
#[cfg(feature = "emulator")]
mod watch;
