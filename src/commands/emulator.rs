//! `safe-ad emulator`: runs the stand-in launcher and turns how it ended into a `Done`; and its
//! subcommands `requests`, a client of a running emulator's journal (see `journal`), and
//! `export`, of its network (see `export`).
//!
//! The emulator reports its own problems (it shares nothing with the client), so every way it
//! ends is a `Done`: usage and start-up problems carry their class for the exit code,
//! `-- COMMAND` passes the command's own status through, and `--background` passes through the
//! exit code of an emulator that could not start.

use safe_ad_emulator::{self as emulator, Exit};

use crate::cli::{ClientOptions, EmulatorAction, EmulatorCommand};
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;

pub fn run(
    args: &EmulatorCommand,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    match &args.action {
        Some(EmulatorAction::Requests(requests)) => {
            return super::journal::run(requests, options, reporter)
        }
        Some(EmulatorAction::Export(export)) => {
            return super::export::run(export, options, reporter)
        }
        Some(EmulatorAction::List) => {
            return Ok(match emulator::list(options.json) {
                Exit::Stopped => Done::Success,
                _ => Done::Failed(Class::Unexpected),
            })
        }
        None => {}
    }
    Ok(match emulator::run(&args.run) {
        Exit::Stopped | Exit::Ready => Done::Success,
        Exit::Usage => Done::Failed(Class::Usage),
        Exit::Failed => Done::Failed(Class::Unexpected),
        Exit::Command(code) | Exit::Relayed(code) => Done::PassThrough(code),
    })
}
