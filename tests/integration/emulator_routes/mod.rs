//! Route tests of the emulator (`safe-ad emulator`): every route, the launcher's exact statuses
//! and bodies, the auth table, the state machine, strict handle parsing, handle eviction, the hang
//! mode, and the binary's `-- COMMAND` mode.
//!
//! Each test runs its own emulator on a free loopback port: in-process (on a thread with its own
//! runtime, as a separate process would be) or, for the CLI behaviour, the real binary. Requests
//! are written by hand over TCP so that the exact bytes on the wire are under test.

use std::io::{BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};

use safe_ad_emulator::test_support::{start, Options};
use serde_json::json;

use crate::harness::emulator::counts;
use crate::harness::http::{name, read_answer, request_bytes, send, Resp};
use crate::harness::in_process::Emu;
use crate::harness::*;

mod auth;
mod binary;
mod requests;
mod state;

// ---- helpers ----------------------------------------------------------------------------------

const DATA_EXISTS: &str =
    r#"{"errorCode":-23,"description":"CoreError::MutationFailure::MutationError::DataExists"}"#;
const BAD_AD_HANDLE: &str =
    r#"{"errorCode":-1515,"description":"FfiError::InvalidAppendableDataHandle"}"#;
const NOT_FOUND: &str = r#"{"errorCode":404,"description":"Endpoint Not Found"}"#;
const NO_TOKEN: &str = r#"{"errorCode":400,"description":"Unauthorised access"}"#;

/// The four operations of the spec, as (method, path prefix).
const FOUR: [(&str, &str); 4] = [
    ("PUT", "/appendable-data/"),
    ("POST", "/appendable-data/"),
    ("DELETE", "/appendable-data/clear-data/"),
    ("DELETE", "/appendable-data/clear-deleted-data/"),
];

/// Reads one response with a Content-Length body from a kept-alive connection.
fn read_one(reader: &mut BufReader<TcpStream>) -> Resp {
    read_answer(reader).expect("connection closed early")
}
