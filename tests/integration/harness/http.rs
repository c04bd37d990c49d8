//! HTTP/1.1 requests written by hand, for talking to the emulator with the exact bytes on the wire
//! under test; the assertions on its answers; and the values its API takes (base64 names).
// Some helpers serve only the tests of the `safe-ad emulator` binary, which need the feature.
#![cfg_attr(not(feature = "emulator"), allow(dead_code))]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

use serde_json::{json, Value};

use super::DEADLINE;

/// A request's bytes: `Host`, `Connection: close` when `close`, the given headers, and a
/// `Content-Length` when there is a body.
pub fn request_bytes(
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
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
    let mut bytes = text.into_bytes();
    if let Some(body) = body {
        bytes.extend_from_slice(body);
    }
    bytes
}

/// Sends one request on a fresh connection and reads the whole answer.
pub fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
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

/// [`send`] with `Authorization: Bearer <token>` when a token is given, and a body of the given
/// content type when there is one.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<(&str, &[u8])>,
) -> Resp {
    let bearer = token.map(|token| format!("Bearer {token}"));
    let mut headers = Vec::new();
    if let Some(bearer) = &bearer {
        headers.push(("Authorization", bearer.as_str()));
    }
    if let Some((content_type, _)) = body {
        headers.push(("Content-Type", content_type));
    }
    send(addr, method, path, &headers, body.map(|(_, bytes)| bytes))
}

/// A token from `POST /auth` that carries exactly these permissions (a JSON array).
pub fn token_with(addr: SocketAddr, permissions: &str) -> String {
    let body = format!(
        r#"{{"app":{{"name":"t","id":"t.id","vendor":"v","version":"1"}},"permissions":{permissions}}}"#
    );
    let answer = request(
        addr,
        "POST",
        "/auth",
        None,
        Some(("application/json", body.as_bytes())),
    );
    assert_eq!(answer.status, 200, "POST /auth: {}", answer.body);
    answer.json()["token"]
        .as_str()
        .expect("token in answer")
        .to_owned()
}

/// Parses an answer whose body is all that follows the head.
pub fn parse(raw: &[u8]) -> Resp {
    let split = raw
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no full response head: {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]);
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("status line: {head}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let content_type = headers
        .iter()
        .find(|(name, _)| name == "content-type")
        .map(|(_, value)| value.clone())
        .unwrap_or_default();
    let bytes = raw[split + 4..].to_vec();
    Resp {
        status,
        content_type,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
        bytes,
    }
}

/// A status, content type and body the emulator answered with.
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub content_type: String,
    /// Every header, its name in lower case.
    pub headers: Vec<(String, String)>,
    /// The body as text (invalid UTF-8 shown as U+FFFD).
    pub body: String,
    /// The body's exact bytes.
    pub bytes: Vec<u8>,
}

impl Resp {
    /// The value of a header (its name in lower case), if the answer has it.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.as_str())
    }

    /// The body as JSON; fails unless it is JSON and labelled `application/json`.
    #[track_caller]
    pub fn json(&self) -> Value {
        assert!(
            self.content_type.starts_with("application/json"),
            "{} with content type {:?}, wanted application/json: {:?}",
            self.status,
            self.content_type,
            self.body
        );
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

    /// Asserts 200 with `{"handleId": n}` and nothing else; returns n.
    #[track_caller]
    pub fn handle(&self) -> u64 {
        assert_eq!(self.status, 200, "status; body {:?}", self.body);
        let v = self.json();
        assert_eq!(v.as_object().map(|o| o.len()), Some(1), "{v}");
        v["handleId"].as_u64().expect("handleId")
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

    /// Asserts a launcher JSON error that is exactly this status, errorCode and description.
    #[track_caller]
    pub fn error_is(&self, status: u16, code: i64, description: &str) {
        assert_eq!(self.status, status, "status; body {:?}", self.body);
        assert_eq!(
            self.json(),
            json!({"errorCode": code, "description": description})
        );
    }
}

/// Standard base64, with padding.
pub fn b64(data: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The base64 of a 32-byte name made of one repeated byte.
pub fn name(byte: u8) -> String {
    b64(&[byte; 32])
}

/// Reads one answer with a Content-Length body from a kept-alive connection; `None` when the
/// connection ended (or failed) before the first byte of one.
pub fn read_answer(reader: &mut std::io::BufReader<TcpStream>) -> Option<Resp> {
    use std::io::BufRead;
    let mut head = Vec::new();
    loop {
        let mut line = Vec::new();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) if head.is_empty() => return None,
            Ok(0) | Err(_) => panic!(
                "the connection ended in an answer's head: {:?}",
                String::from_utf8_lossy(&head)
            ),
            Ok(_) => {}
        }
        head.extend_from_slice(&line);
        if line == b"\r\n" {
            break;
        }
    }
    let head_text = String::from_utf8_lossy(&head).to_string();
    let length: usize = head_text
        .split("\r\n")
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse().ok())
        .unwrap_or_else(|| panic!("no content-length: {head_text}"));
    let mut body = vec![0; length];
    reader.read_exact(&mut body).expect("read body");
    head.extend_from_slice(&body);
    Some(parse(&head))
}

/// One kept-alive connection to a server: requests one after another, each answer read before
/// the next request is written. Reads wait at most [`DEADLINE`].
pub struct KeepAlive {
    reader: std::io::BufReader<TcpStream>,
    writer: TcpStream,
}

impl KeepAlive {
    /// Connects; `None` when the connection is refused.
    pub fn open(addr: SocketAddr) -> Option<KeepAlive> {
        let stream = TcpStream::connect(addr).ok()?;
        stream.set_read_timeout(Some(DEADLINE)).expect("timeout");
        let writer = stream.try_clone().expect("clone the stream");
        Some(KeepAlive {
            reader: std::io::BufReader::new(stream),
            writer,
        })
    }

    /// Writes bytes as they are (a part of a request, say); false when the connection is gone.
    pub fn write(&mut self, bytes: &[u8]) -> bool {
        self.writer.write_all(bytes).is_ok()
    }

    /// Reads the next answer; `None` when the connection ended first.
    pub fn answer(&mut self) -> Option<Resp> {
        read_answer(&mut self.reader)
    }

    /// One request (headers as given, a Content-Length when there is a body) and its answer;
    /// `None` when the connection ended before an answer came.
    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> Option<Resp> {
        if !self.write(&request_bytes(method, path, headers, body, false)) {
            return None;
        }
        self.answer()
    }
}

/// An appendable data with no items and no filter keys, as launcher 0.11.0 serialises it
/// (`GET /appendable-data/serialise/<h>`), written out from the layout in
/// `spec/launcher-facts.md`: name, version (u64 LE), filter (u32 variant 0, then an empty set),
/// for private data the encrypt key (a byte string), the deleted list (empty), the owners (a set
/// of keys, each a byte string of 32), the signatures (an empty map) and the data (empty).
pub fn appendable_bytes(name: [u8; 32], version: u64, private: bool, owner: [u8; 32]) -> Vec<u8> {
    let mut bytes = name.to_vec();
    bytes.extend(version.to_le_bytes());
    bytes.extend(0u32.to_le_bytes());
    bytes.extend(0u64.to_le_bytes());
    if private {
        bytes.extend(32u64.to_le_bytes());
        bytes.extend([0xee; 32]);
    }
    bytes.extend(0u64.to_le_bytes());
    bytes.extend(1u64.to_le_bytes());
    bytes.extend(32u64.to_le_bytes());
    bytes.extend(owner);
    bytes.extend(0u64.to_le_bytes());
    bytes.extend(0u64.to_le_bytes());
    bytes
}
