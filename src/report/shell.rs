//! The words of `shell`: where a script stopped, and what a line printed kept in a variable
//! instead of on stdout ([`captured`]).

use super::*;

/// What the lines of a `NAME = COMMAND` printed on stdout while [`captured`] runs; `None` when
/// nothing is being kept (stdout is written).
static CAPTURED: std::sync::Mutex<Option<Vec<u8>>> = std::sync::Mutex::new(None);

fn slot() -> std::sync::MutexGuard<'static, Option<Vec<u8>>> {
    CAPTURED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs `work` with what it prints on stdout kept, not written, and gives it back with its
/// bytes. Stderr is written as ever.
pub fn captured<T>(work: impl FnOnce() -> T) -> (T, Vec<u8>) {
    *slot() = Some(Vec::new());
    let value = work();
    let bytes = slot().take().unwrap_or_default();
    (value, bytes)
}

/// Keeps `bytes` if a [`captured`] runs, and says whether it did.
pub(super) fn kept(bytes: &[u8]) -> bool {
    match slot().as_mut() {
        Some(kept) => {
            kept.extend_from_slice(bytes);
            true
        }
        None => false,
    }
}

impl Reporter {
    /// A script's line failed and the script stops there (or, with `--keep-going`, goes on):
    /// said on stderr after the line's own error, even with `--quiet`, since it is where to look.
    pub fn script_line_failed(&self, line: &str, code: u8, going_on: bool) {
        let label = paint(self.colour, ERROR, "error:");
        let then = if going_on {
            "running on (--keep-going)"
        } else {
            "the script stops there"
        };
        err(&format!(
            "safe-ad: {label} shell: {line} failed with exit code {code}; {then}\n"
        ));
    }
}
