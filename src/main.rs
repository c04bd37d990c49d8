//! Entry point: parse the arguments, run, exit with the code `outcome` chose.

use std::process::ExitCode;

fn main() -> ExitCode {
    match safe_ad::cli::parse(std::env::args_os()) {
        Ok(cli) => ExitCode::from(safe_ad::run::run(cli)),
        Err(code) => ExitCode::from(code),
    }
}
