//! `safe-ad emulator`: runs the stand-in launcher and turns how it ended into a `Done`; and its
//! subcommand `requests`, a client of a running emulator's journal (see `journal`).
//!
//! The emulator reports its own problems (it shares nothing with the client), so every way it
//! ends is a `Done`: usage and start-up problems carry their class for the exit code,
//! `-- COMMAND` passes the command's own status through, and `--background` passes through the
//! exit code of an emulator that could not start.

use crate::cli::ClientOptions;
use crate::emulator::{self, EmulatorAction, EmulatorArgs, Exit};
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;

pub fn run(
    args: &EmulatorArgs,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    if let Some(EmulatorAction::Requests(requests)) = &args.action {
        return super::journal::run(requests, options, reporter);
    }
    Ok(match emulator::run(args) {
        Exit::Stopped | Exit::Ready => Done::Success,
        Exit::Usage => Done::Failed(Class::Usage),
        Exit::Failed => Done::Failed(Class::Unexpected),
        Exit::Command(code) | Exit::Relayed(code) => Done::PassThrough(code),
    })
}
