//! How a run of `safe-ad emulator` ends ([`Exit`], which the client turns into the process exit
//! code), and [`say`], how the service writes a message on stderr directly (what may come while
//! it serves goes through `log`'s queue instead, which never waits).

use std::io::Write;

/// How a run of the emulator ended; the caller turns it into the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Stopped by Ctrl-C, SIGTERM or SIGHUP, with the state saved and the log whole.
    Stopped,
    /// An unusable option found before serving (already said on stderr).
    Usage,
    /// It could not listen, save its state or write its log (already said on stderr).
    Failed,
    /// `-- COMMAND` ended with this exit status (128 + N for signal N, 127 if it did not start).
    Command(u8),
    /// `--background`: it listens, and runs on in the background.
    Ready,
    /// `--background`: the emulator it started ended with this exit code before it listened
    /// (already said on stderr), or 128 + N when signal N stopped the start.
    Relayed(u8),
}

/// Writes a message on stderr; a closed or broken stderr is not worth a panic.
pub(crate) fn say(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
