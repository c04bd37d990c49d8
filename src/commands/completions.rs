//! `safe-ad completions SHELL`: the completion script, as `generate` writes it.

use crate::cli::Shell;
use crate::generate;
use crate::outcome::{Done, Failure};
use crate::report::Reporter;

pub fn run(shell: Shell, reporter: &Reporter) -> Result<Done, Failure> {
    reporter.completion(&generate::completion(shell));
    Ok(Done::Success)
}
