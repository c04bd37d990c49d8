//! `safe-ad emulator`: runs the stand-in launcher and turns how it ended into a `Done`.
//!
//! The emulator reports its own problems (it shares nothing with the client), so every way it
//! ends is a `Done`: usage and start-up problems carry their class for the exit code,
//! `-- COMMAND` passes the command's own status through, and `--background` passes through the
//! exit code of an emulator that could not start.

use crate::emulator::{self, EmulatorArgs, Exit};
use crate::outcome::{Class, Done, Failure};

pub fn run(args: &EmulatorArgs) -> Result<Done, Failure> {
    Ok(match emulator::run(args) {
        Exit::Stopped | Exit::Ready => Done::Success,
        Exit::Usage => Done::Failed(Class::Usage),
        Exit::Failed => Done::Failed(Class::Unexpected),
        Exit::Command(code) | Exit::Relayed(code) => Done::PassThrough(code),
    })
}
