//! safe-ad: a command-line client for the SAFE Launcher's appendable-data API.
//!
//! The data path runs one way: `cli` (raw arguments) → `settings` (flags, env, config file,
//! checked once) → `run` (handles in order) → `launcher` (HTTP) → `outcome` (success or a failure
//! with its exit code and hint) → `report` (what is printed).

pub mod auth;
pub mod batch;
pub mod cli;
pub mod config_command;
pub mod config_file;
#[cfg(feature = "emulator")]
pub mod emulator;
pub mod generate;
pub mod handle;
pub mod input;
pub mod launcher;
pub mod outcome;
pub mod report;
pub mod run;
pub mod sanitize;
pub mod secret;
pub mod settings;
