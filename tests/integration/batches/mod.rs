//! Batches and the script/debugging options, against the real `safe-ad emulator` binary (one per
//! test, on its own loopback port) or, where a test must count requests, delay answers or give
//! an answer the emulator never gives, a wiremock server or a raw TCP listener.
//!
//! Handles from standard input (streamed, `-` among arguments, bad lines), `--jobs` and output
//! order, `--fail-fast`, `--json` for every error class, `--save`, `--dry-run`, `--curl`,
//! `--retries`, the summary line and the absence of a progress bar on a pipe, and `--verbose`.

use std::io::Write;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::harness::emulator::*;
use crate::harness::*;
use serde_json::{json, Value};
use wiremock::matchers::{any, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod dry_run_and_retries;
mod input;
mod json_output;
mod output;
mod save;

// ---- helpers ----------------------------------------------------------------------------------

/// `(version, data, deleted)` of a handle's local copy, through `safe-ad metadata --json`.
fn local(sandbox: &Sandbox, emulator: &Emulator, handle: u64) -> (u64, u64, u64) {
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["metadata", "--json", &handle.to_string()])
        .run();
    let lines = output.success().json_lines();
    counts(&lines[0])
}

/// A failure line: its error object (all five keys), class, status, code and exit code.
fn assert_failure(
    line: &Value,
    class: &str,
    status: Option<u16>,
    error_code: Option<i64>,
    exit_code: u8,
) {
    assert_eq!(line["ok"], json!(false), "{line}");
    let error = line
        .get("error")
        .unwrap_or_else(|| panic!("no error: {line}"));
    for key in ["class", "status", "error_code", "description", "hint"] {
        assert!(error.get(key).is_some(), "no error.{key} in {line}");
    }
    assert_eq!(error["class"], json!(class), "{line}");
    assert_eq!(error["status"], json!(status), "{line}");
    assert_eq!(error["error_code"], json!(error_code), "{line}");
    assert!(
        error["description"].as_str().is_some_and(|d| !d.is_empty()),
        "{line}"
    );
    assert_eq!(line["exit_code"], json!(exit_code), "{line}");
}
