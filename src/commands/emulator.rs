//! `safe-ad emulator`: runs the stand-in launcher and turns how it ended into a `Done`; and
//! `emulator list` and `emulator env`. (Its subcommands `requests`, a client of a running emulator's journal, and
//! `export`, of its network, are commands of their own: see `journal` and `export`.)
//!
//! The emulator reports its own problems (it shares nothing with the client), so every way it
//! ends is a `Done`: usage and start-up problems carry their class for the exit code,
//! `-- COMMAND` passes the command's own status through, and `--background` passes through the
//! exit code of an emulator that could not start.

use safe_ad_emulator::{self as emulator, Exit};

use crate::cli::{EmulatorAction, EmulatorCommand};
use crate::outcome::{Class, Done, Failure};

use super::Context;

/// Runs the emulator (it builds its own runtime: it is a program of its own), or `list`, or
/// `env`.
pub fn run(args: &EmulatorCommand, cx: Context) -> Result<Done, Failure> {
    if let Some(EmulatorAction::List) = &args.action {
        if cx.options.json {
            // Printed here, so that each goes through the reporter (and `--jq`) as every
            // command's JSON does; one that could not be written is the reporter's exit 1.
            cx.reporter.emulators_listed(&emulator::list_objects());
            return Ok(Done::Success);
        }
        return Ok(match emulator::list() {
            Exit::Stopped => Done::Success,
            _ => Done::Failed(Class::Unexpected),
        });
    }
    if let Some(EmulatorAction::Env(env)) = &args.action {
        return Ok(
            match emulator::env(
                env.pid,
                env.format.as_deref() == Some("env"),
                env.user.as_deref(),
            ) {
                Exit::Stopped => Done::Success,
                Exit::Usage => Done::Failed(Class::Usage),
                _ => Done::Failed(Class::Unexpected),
            },
        );
    }
    Ok(match emulator::run(&args.run) {
        Exit::Stopped | Exit::Ready => Done::Success,
        Exit::Usage => Done::Failed(Class::Usage),
        Exit::Failed => Done::Failed(Class::Unexpected),
        Exit::Command(code) | Exit::Relayed(code) => Done::PassThrough(code),
    })
}
