//! Everything safe-ad prints: result lines on stdout, errors, hints, warnings and notes on stderr.
//!
//! It decides nothing: exit codes come from `outcome`. Output that cannot be written (a closed
//! pipe, as with `| head -1`) is dropped quietly rather than turned into a crash.

use std::io::Write;

use crate::handle::Handle;
use crate::launcher::{Metadata, Operation};
use crate::outcome::Failure;

/// Prints results and problems; `quiet` silences success lines only.
pub struct Reporter {
    quiet: bool,
}

impl Reporter {
    pub fn new(quiet: bool) -> Reporter {
        Reporter { quiet }
    }

    /// One short line on stdout per handle that succeeded.
    pub fn ok(&self, operation: Operation, handle: Handle) {
        if !self.quiet {
            out(&format!("{} {handle}: ok\n", operation.name()));
        }
    }

    /// One line per handle, for people: what a clear or a save changed shows up here.
    pub fn metadata(&self, handle: Handle, metadata: &Metadata) {
        out(&format!(
            "{handle}: version {}, data {}, deleted {}, owner {}, filter {} ({} keys)\n",
            metadata.version,
            metadata.data_length,
            metadata.deleted_data_length,
            if metadata.is_owner { "yes" } else { "no" },
            crate::sanitize::line(metadata.filter_type.as_bytes(), 40),
            metadata.filter_length
        ));
    }

    /// A failed operation on one handle.
    pub fn operation_failed(&self, operation: Operation, handle: Handle, failure: &Failure) {
        err(&error_text(
            Some(&format!("{} {handle}", operation.name())),
            failure,
        ));
    }

    /// A failure that is not about one handle (arguments, settings, internal).
    pub fn failed(&self, failure: &Failure) {
        err(&error_text(None, failure));
    }

    /// What a command did or is doing, on stderr; silenced by `--quiet`.
    pub fn progress(&self, message: &str) {
        if !self.quiet {
            err(&format!("safe-ad: {message}\n"));
        }
    }

    pub fn warning(&self, message: &str) {
        err(&format!("safe-ad: warning: {message}\n"));
    }

    /// Something worth knowing that is not a problem; silenced by `--quiet`.
    pub fn note(&self, message: &str) {
        if !self.quiet {
            err(&format!("note: {message}\n"));
        }
    }
}

/// `safe-ad: error: <context>: <what>` and, where there is one, `hint: <what to do>`.
pub fn error_text(context: Option<&str>, failure: &Failure) -> String {
    let mut text = match context {
        Some(context) => format!("safe-ad: error: {context}: {}\n", failure.message),
        None => format!("safe-ad: error: {}\n", failure.message),
    };
    if let Some(hint) = &failure.hint {
        text.push_str(&format!("hint: {hint}\n"));
    }
    text
}

/// Whether a person is likely watching stderr (spinners and progress bars only then).
pub fn stderr_is_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal()
}

/// Draws a spinner with `message` on stderr until the future is dropped; it never ends itself.
pub async fn spin(message: &str) -> std::convert::Infallible {
    const FRAMES: [char; 4] = ['|', '/', '-', '\\'];
    let mut tick = tokio::time::interval(std::time::Duration::from_millis(120));
    let mut frame = 0;
    loop {
        tick.tick().await;
        err(&format!("\r{} {message}", FRAMES[frame % FRAMES.len()]));
        frame += 1;
    }
}

/// Erases the spinner's line.
pub fn clear_line() {
    err("\r\x1b[2K");
}

/// Writes data to stdout; a closed stdout is not worth a crash or a second error.
pub fn out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}

/// Writes to stderr, ignoring a closed stderr for the same reason.
pub fn err(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Class;

    #[test]
    fn error_format() {
        let failure = Failure::new(Class::Rejected, "the launcher answered 400").with_hint("do x");
        assert_eq!(
            error_text(Some("put 7"), &failure),
            "safe-ad: error: put 7: the launcher answered 400\nhint: do x\n"
        );
        assert_eq!(
            error_text(None, &Failure::usage("bad")),
            "safe-ad: error: bad\n"
        );
    }
}
