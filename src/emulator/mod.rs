//! The stand-in launcher served by `safe-ad emulator` (placeholder until implemented).

use crate::cli::EmulatorArgs;

/// Runs the emulator until it is stopped, or runs the given command against it.
/// Returns the process exit code.
pub fn run(_args: &EmulatorArgs) -> anyhow::Result<i32> {
    anyhow::bail!("the emulator is not built yet")
}
