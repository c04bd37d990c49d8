//! `safe-ad metadata HANDLE...`: what the launcher holds for each handle, as a batch.

use crate::cli::{ClientOptions, HandleArgs};
use crate::launcher::Operation;
use crate::outcome::{Done, Failure};
use crate::report::Reporter;

use super::operations;

pub fn run(
    handles: &HandleArgs,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    operations::run(Operation::Metadata, None, handles, options, reporter)
}
