//! safe-ad: a command-line client for the SAFE Launcher's appendable-data API.
//!
//! Modules stand in layers and import only downward (`python3 ../shared/tools/module-cycles src`
//! checks it). From the bottom: plain types and parsing (`handle`, `secret`, `sanitize`, `url`,
//! `values`, `config_file`, `saving` (the table of what a save does), and `wire`, the launcher's serialised bytes read) → `cli` (clap definitions) → `launcher` (HTTP) → `outcome` (exit
//! codes and hints) → `settings` (flags, env, config file, checked once) → `input` → `batch`
//! (requests in input order; renders nothing) → `args` (the command line's values, checked) →
//! `help` → `report` (every printed word) → `runtime`, `generate` → `commands` → `run` (parse
//! and dispatch) → `main`. The `emulator` is a program of its own beside them: it imports nothing
//! from the client.

pub mod args;
pub mod batch;
pub mod cli;
pub mod commands;
pub mod config_file;
#[cfg(feature = "emulator")]
pub mod emulator;
pub mod generate;
pub mod handle;
pub mod help;
pub mod input;
pub mod launcher;
pub mod name;
pub mod outcome;
pub mod report;
pub mod run;
pub mod runtime;
pub mod sanitize;
pub mod saving;
pub mod secret;
pub mod settings;
pub mod url;
pub mod values;
pub mod wire;
