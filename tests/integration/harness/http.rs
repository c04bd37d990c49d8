//! HTTP/1.1 requests written by hand, for talking to the emulator with the exact bytes on the wire
//! under test.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

use super::DEADLINE;

/// A request's bytes: `Host`, `Connection: close` when `close`, the given headers, and a
/// `Content-Length` when there is a body.
pub fn request_bytes(
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
    close: bool,
) -> Vec<u8> {
    let mut text = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    if close {
        text.push_str("Connection: close\r\n");
    }
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(body) = body {
        text.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    text.push_str("\r\n");
    if let Some(body) = body {
        text.push_str(body);
    }
    text.into_bytes()
}

/// Sends one request on a fresh connection and reads the whole answer.
pub fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Resp {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(DEADLINE))
        .expect("read timeout");
    stream
        .write_all(&request_bytes(method, path, headers, body, true))
        .expect("write");
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .unwrap_or_else(|e| panic!("{method} {path}: no whole answer: {e}"));
    parse(&raw)
}

/// Parses an answer whose body is all that follows the head.
pub fn parse(raw: &[u8]) -> Resp {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").expect("a full response head");
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("status line: {head}"));
    let content_type = lines
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.eq_ignore_ascii_case("content-type"))
        .map(|(_, value)| value.trim().to_owned())
        .unwrap_or_default();
    Resp {
        status,
        content_type,
        body: body.to_owned(),
    }
}

/// A status, content type and body the emulator answered with.
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub content_type: String,
    pub body: String,
}

impl Resp {
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    /// Asserts status, content type (its start) and exact body.
    #[track_caller]
    pub fn is(&self, status: u16, content_type: &str, body: &str) {
        assert_eq!(self.status, status, "status; body {:?}", self.body);
        assert!(
            self.content_type.starts_with(content_type),
            "content type {:?}, wanted {content_type}",
            self.content_type
        );
        assert_eq!(self.body, body);
    }

    /// Asserts 200 `text/plain` `OK`.
    #[track_caller]
    pub fn ok(&self) {
        self.is(200, "text/plain", "OK");
    }

    /// Asserts a launcher JSON error with this status and errorCode; returns its description.
    #[track_caller]
    pub fn error(&self, status: u16, code: i64) -> String {
        assert_eq!(self.status, status, "status; body {:?}", self.body);
        assert!(self.content_type.starts_with("application/json"));
        let v = self.json();
        assert_eq!(v["errorCode"].as_i64(), Some(code), "body {:?}", self.body);
        v["description"].as_str().expect("description").to_owned()
    }
}
