//! A launcher that misbehaves, and the signals and pipes of unattended use: a byte-level test
//! server on loopback, scripted per case, and for each case the exact exit code and words.
//!
//! The server answers nothing, stalls, streams endless or 100 MB bodies, sends bytes that are not
//! UTF-8, not the launcher's JSON, or not HTTP at all, closes the connection before or in the
//! middle of an answer, redirects to a second listener, sends huge or malformed headers, and
//! speaks HTTP/1.0 without keep-alive. Then: a reader of stdout that leaves after one line (as
//! `| head -1` does), `--json` lines that are never cut, and Ctrl-C in the middle of a batch.

use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use crate::harness::*;
use serde_json::Value;

mod answers;
#[cfg(feature = "emulator")]
mod content_length;
mod protocol;
mod readers_and_signals;

fn ok_answer(_: u64) -> Vec<u8> {
    OK_ANSWER.to_vec()
}

// ---- running safe-ad --------------------------------------------------------------------------

/// safe-ad pointed at `url`, in a fresh sandbox.
fn at(url: &str) -> SafeAd {
    SafeAd::new().launcher(url)
}

/// Asserts the exit code, that stderr holds every word, and that no escape sequence reached it.
#[track_caller]
fn assert_run(output: &Output, code: i32, words: &[&str]) {
    output.code(code).stderr_lacks("\x1b");
    for word in words {
        output.stderr_has(word);
    }
}

fn handles(range: std::ops::RangeInclusive<u64>) -> Vec<String> {
    range.map(|h| h.to_string()).collect()
}
