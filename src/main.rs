//! Entry point: run with the process's arguments, exit with the code `outcome` chose.

#![forbid(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(safe_ad::run(std::env::args_os()).exit_code())
}
