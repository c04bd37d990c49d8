//! The emulator as a CI service: started with `--background` from one shell process, used from
//! another and stopped with `--stop` from a third, as the steps of a CI job do; a start that fails
//! or never listens, signals to the starter, `--stop` refusing a process that is not the emulator;
//! the emulator's own routes under `/_emulator/` (journal, network, handles, reset) and that they
//! need its token; the launcher's error in log lines and `--log` records and the `event` key; and
//! README's GitHub Actions and GitLab CI jobs, their shell parts run under sh and bash.
//!
//! Every process a test starts carries the mark of its `CiJob` (or `Leftovers`): each test checks
//! that none is left running, and what a failing test leaves is killed when it unwinds.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::harness::emulator::{path_arg, saved_names, Emulator};
use crate::harness::http::name;
use crate::harness::leftovers::{CiJob, Leftovers};
use crate::harness::*;

mod across_steps;
mod own_routes;
mod readme_jobs;
mod reset_and_records;
mod start_and_stop;

const SHELLS: [&str; 2] = ["sh", "bash"];

/// Whether both shells are here (else the test is skipped, or fails under CI).
fn have_shells() -> bool {
    SHELLS.iter().all(|shell| have(shell))
}

/// The variables `--background` printed, in either format: `export NAME='VALUE'` or `NAME=VALUE`.
#[track_caller]
fn variables(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .map(|line| {
            let (name, value) = line
                .strip_prefix("export ")
                .unwrap_or(line)
                .split_once('=')
                .unwrap_or_else(|| panic!("not NAME=VALUE: {line:?}"));
            let value = match value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
                Some(quoted) => quoted.replace(r"'\''", "'"),
                None => value.to_owned(),
            };
            (name.to_owned(), value)
        })
        .collect()
}

/// `(state, parent, process group, session)` of a live process, from /proc.
fn stat(pid: u32) -> Option<(String, u32, u32, u32)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = text.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some((
        fields.first()?.to_string(),
        fields.get(1)?.parse().ok()?,
        fields.get(2)?.parse().ok()?,
        fields.get(3)?.parse().ok()?,
    ))
}

/// Whether a process runs (not ended, not a zombie).
fn runs(pid: u32) -> bool {
    stat(pid).is_some_and(|(state, ..)| state != "Z")
}

/// The records of a `--log` file.
#[track_caller]
fn records(log: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(log).expect("the log file");
    assert!(text.ends_with('\n'), "the log ends in half a line: {text}");
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// Checks that a `--log` file is whole: the start record first, the stop record last, request
/// records (and resets) between, and the stop counting every request record; returns the
/// request records.
#[track_caller]
fn whole_log(log: &Path) -> Vec<Value> {
    let records = records(log);
    assert_eq!(records.first().map(|r| &r["event"]), Some(&json!("start")));
    let stop = records.last().expect("records");
    assert_eq!(stop["event"], "stop", "{records:?}");
    let requests: Vec<Value> = records
        .iter()
        .filter(|r| r["event"] == "request")
        .cloned()
        .collect();
    assert!(records.iter().all(
        |r| ["start", "request", "reset", "stop"].contains(&r["event"].as_str().unwrap_or(""))
    ));
    assert_eq!(stop["requests"].as_u64(), Some(requests.len() as u64));
    assert_eq!(stop["lost"], 0);
    requests
}

// ---- --stop ----------------------------------------------------------------------------------

/// Starts a background emulator in `job` with these options; its variables.
#[track_caller]
fn start(job: &CiJob, options: &[&str]) -> BTreeMap<String, String> {
    let output = job
        .safe_ad()
        .args(["emulator", "--background", "--listen", "127.0.0.1:0"])
        .args(options)
        .run();
    output.success();
    variables(output.stdout())
}

/// `safe-ad emulator --stop` with these variables.
fn stop(job: &CiJob, vars: &BTreeMap<String, String>) -> Output {
    let mut stop = job.safe_ad();
    for (name, value) in vars {
        stop = stop.env(name, value);
    }
    stop.args(["emulator", "--stop"]).run()
}

// ---- the emulator's own routes ---------------------------------------------------------------

/// A request to the emulator at `addr` with the token (`Some`), as `curl -H` sends it.
fn admin(
    emulator: &Emulator,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> crate::harness::http::Resp {
    emulator.http(method, path, Some(TOKEN), body)
}

/// The journal as its records.
fn journal(emulator: &Emulator, query: &str) -> Vec<Value> {
    let answer = admin(
        emulator,
        "GET",
        &format!("/_emulator/requests{query}"),
        None,
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.content_type, "application/x-ndjson; charset=utf-8");
    answer
        .body
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON record"))
        .collect()
}

/// `METHOD /path STATUS` of each record.
fn lines(records: &[Value]) -> Vec<String> {
    records
        .iter()
        .map(|r| {
            format!(
                "{} {} {}",
                r["method"].as_str().unwrap(),
                r["path"].as_str().unwrap(),
                r["status"]
            )
        })
        .collect()
}

/// Sends `GET /appendable-data/metadata/1` and says how it was answered: the status, or 0 for a
/// connection closed without an answer.
fn answered(addr: SocketAddr) -> u16 {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(DEADLINE)).expect("timeout");
    let request = format!(
        "GET /appendable-data/metadata/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).expect("write");
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    String::from_utf8_lossy(&raw)
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}
