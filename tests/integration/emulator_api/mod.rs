//! The emulator as a stand-in for SAFE Launcher 0.11.0's API v0.6: every route of the
//! appendable-data family and the data-id, sign-key and structured-data routes it works with.
//! Auth rules, the launcher's path matching (prefixes, a trailing slash, case, escapes), each
//! validation error with its exact body, the order in which errors win, and the state changes
//! (local copy vs network, stale versions) — plus the CI features of the binary: `--log`,
//! `--state`, `--quiet`, `--token-file`, the live handle counts and the port-in-use hint.
//!
//! Expectations are written here from the launcher's source, not taken from the emulator's own
//! route table: a wrong row in the table must fail a test.
//!
//! Each test starts its own emulator on a free loopback port (the harness's in-process `Emu`, or
//! the binary as `Emulator` for the command-line features) and talks HTTP/1.1 to it over TCP.

use safe_ad_emulator::test_support::Options;
use serde_json::{json, Value};

use crate::harness::emulator::Emulator;
use crate::harness::http::{b64, name, Resp};
use crate::harness::in_process::Emu;
use crate::harness::{SafeAd, Sandbox};

mod appendable_data;
mod binary;
mod other_types;
mod routes_and_paths;

// ---- helpers ----------------------------------------------------------------------------------

/// Requests these tests make often, on the shared in-process fixture.
impl Emu {
    /// A JSON request with the startup token.
    fn json_authed(&self, method: &str, path: &str, body: Value) -> Resp {
        let body = body.to_string();
        self.request(
            method,
            path,
            Some(&self.token),
            Some(("application/json", body.as_bytes())),
        )
    }

    /// A fresh handle on what the network holds for public appendable data `byte`, via a data id
    /// that is dropped again.
    fn fetch_ad(&self, byte: u8) -> (u64, Value) {
        let d = self
            .json_authed(
                "POST",
                "/data-id/appendable-data",
                json!({"name": name(byte)}),
            )
            .handle();
        let v = self.fetch(d);
        self.authed("DELETE", &format!("/data-id/{d}")).ok();
        (v["handleId"].as_u64().expect("handleId"), v)
    }

    /// A structured data (type tag 500) with this name byte and text, saved on the network; its
    /// data-id handle.
    fn stored_sd(&self, byte: u8, text: &str) -> u64 {
        let h = self
            .json_authed(
                "POST",
                "/structured-data",
                json!({"name": name(byte), "typeTag": 500, "data": b64(text.as_bytes())}),
            )
            .handle();
        self.authed("PUT", &format!("/structured-data/{h}")).ok();
        let d = self
            .authed("GET", &format!("/structured-data/data-id/{h}"))
            .handle();
        self.authed("DELETE", &format!("/structured-data/handle/{h}"))
            .ok();
        d
    }
}

/// The launcher's errors, as these tests expect them.
impl Resp {
    /// A core error: the launcher's status rule (404 for NoSuchData) and description.
    #[track_caller]
    fn core(&self, code: i64) {
        let (status, description) = match code {
            -5 => (400, "CoreError::ReceivedUnexpectedData"),
            -18 => (404, "CoreError::GetFailure::GetError::NoSuchData"),
            -22 => (404, "CoreError::MutationFailure::MutationError::NoSuchData"),
            -23 => (400, "CoreError::MutationFailure::MutationError::DataExists"),
            -25 => (
                400,
                "CoreError::MutationFailure::MutationError::InvalidSuccessor",
            ),
            -1511 => (400, "FfiError::UnsuccessfulEncodeDecode"),
            -1513 => (400, "FfiError::InvalidStructDataHandle"),
            -1514 => (400, "FfiError::InvalidDataIdHandle"),
            -1515 => (400, "FfiError::InvalidAppendableDataHandle"),
            -1517 => (400, "FfiError::InvalidCipherOptHandle"),
            -1518 => (400, "FfiError::InvalidEncryptKeyHandle"),
            -1519 => (400, "FfiError::InvalidSignKeyHandle"),
            -1520 => (400, "FfiError::OperationForbiddenForApp"),
            -1521 => (400, "FfiError::InvalidStructuredDataTypeTag"),
            -1522 => (400, "FfiError::InvalidVersionNumber"),
            -1524 => (400, "FfiError::InvalidIndex"),
            -1525 => (400, "FfiError::UnsupportedOperation"),
            other => panic!("no expectation written for {other}"),
        };
        self.error_is(status, code, description);
    }

    /// A 400 with errorCode 400 and this description (the launcher's own checks and exceptions).
    #[track_caller]
    fn bad(&self, description: &str) {
        self.error_is(400, 400, description);
    }
}

/// `error setting argument N - writeUInt64: no digits we found in input String`.
fn no_digits(position: usize) -> String {
    format!("error setting argument {position} - writeUInt64: no digits we found in input String")
}
