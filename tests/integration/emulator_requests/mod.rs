//! `safe-ad emulator requests` and what a CI job relies on around it, against the emulator
//! binary, one file per family:
//!
//! - `journal`: the journal read as a client (every filter, `--count`, `--expect`, `--since`
//!   between steps, `--clear`, a journal that dropped records, a glob over a planted path that
//!   would backtrack, one Ctrl-C in a long match, no emulator and a wrong token);
//! - `stop`: `--stop --if-running`, and what `--stop` may touch (only a run directory of its
//!   own, only its files);
//! - `records`: the `--state` summary at start, one spelling of the keys in the `--log` records
//!   and the journal, and a token split, escaped or encoded in a path never reaching the logs or
//!   the journal.
//!
//! This file holds what more than one of them uses: running `emulator requests`, what the demo
//! emulator is sent, and the variables `--background` prints.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::harness::emulator::{path_arg, Emulator};
use crate::harness::http::{name, send};
use crate::harness::leftovers::CiJob;
use crate::harness::*;

mod journal;
mod records;
mod stop;

// ---- helpers ----------------------------------------------------------------------------------

/// `safe-ad emulator requests ARGS` against `emulator`, with its URL and token in the environment.
fn requests(emulator: &Emulator, args: &[&str]) -> Output {
    SafeAd::new()
        .launcher(&emulator.url)
        .args(["emulator", "requests"])
        .args(args)
        .run()
}

/// What the demo emulator is sent by this test: (seq) 1 PUT 0 ok, 2 PUT 0 -23, 3 metadata 1,
/// 4 clear-data 1, 5 POST 1 ok, 6 GET /nowhere 404. The saves that succeed are sent as they
/// are: safe-ad's `put` and `post` would read the version they saved after them.
fn sent(emulator: &Emulator) {
    let client = |args: &[&str]| SafeAd::new().launcher(&emulator.url).args(args).run();
    let save = |method: &str, path: &str| {
        let answer = emulator.http(method, path, Some(TOKEN), None);
        assert_eq!(answer.status, 200, "{method} {path}: {}", answer.body);
    };
    save("PUT", "/appendable-data/0");
    client(&["put", "0"]).code(4);
    client(&["metadata", "1"]).success();
    client(&["clear-data", "1"]).success();
    save("POST", "/appendable-data/1");
    assert_eq!(
        send(emulator.addr(), "GET", "/nowhere/deeper", &[], None).status,
        404
    );
}

/// The variables `--background` printed (`export NAME='VALUE'`).
fn variables(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|line| line.strip_prefix("export "))
        .filter_map(|line| line.split_once('='))
        .map(|(name, value)| (name.to_owned(), value.trim_matches('\'').to_owned()))
        .collect()
}
