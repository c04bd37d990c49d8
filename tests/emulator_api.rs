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
//! Each test starts its own emulator on a free loopback port (in-process, or the binary for the
//! command-line features) and talks HTTP/1.1 to it over TCP.

#![cfg(feature = "emulator")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use safe_ad::emulator::{start, Options};
use serde_json::{json, Value};

// ---- helpers ----------------------------------------------------------------------------------

const BIN: &str = env!("CARGO_BIN_EXE_safe-ad");

/// An in-process emulator on its own thread and runtime, stopped when dropped.
struct Emu {
    addr: SocketAddr,
    token: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Emu {
    /// Started with these options (`Options::default()` is the demo state).
    fn start(options: Options) -> Emu {
        let (ready, started) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let server = start(options).await.expect("emulator starts");
                let _ = ready.send((server.addr(), server.token().to_owned()));
                let _ = stopped.await;
                server.shutdown().await;
            });
        });
        let (addr, token) = started.recv().expect("emulator reported its address");
        Emu {
            addr,
            token,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// No demo state: handle ids start at 0.
    fn empty() -> Emu {
        Emu::start(Options {
            empty: true,
            ..Options::default()
        })
    }

    /// A request with the startup token (which has `LOW_LEVEL_API`).
    fn req(&self, method: &str, path: &str) -> Resp {
        http(self.addr, method, path, Some(&self.token), None)
    }

    /// A JSON request with the startup token.
    fn json(&self, method: &str, path: &str, body: Value) -> Resp {
        let body = body.to_string();
        http(
            self.addr,
            method,
            path,
            Some(&self.token),
            Some(("application/json", body.as_bytes())),
        )
    }

    /// A request without a token.
    fn anon(&self, method: &str, path: &str) -> Resp {
        http(self.addr, method, path, None, None)
    }

    /// A new token from `POST /auth` with these permissions.
    fn login(&self, permissions: Value) -> String {
        let body = json!({"app": {"name": "t", "id": "t.example", "vendor": "v", "version": "1"},
                          "permissions": permissions})
        .to_string();
        let r = http(
            self.addr,
            "POST",
            "/auth",
            None,
            Some(("application/json", body.as_bytes())),
        );
        r.json()["token"].as_str().expect("token").to_owned()
    }

    /// `POST /appendable-data` with this name byte: the new handle.
    fn create_ad(&self, byte: u8, extra: Value) -> u64 {
        let mut body = json!({ "name": name(byte) });
        if let (Value::Object(body), Value::Object(extra)) = (&mut body, extra) {
            body.extend(extra);
        }
        self.json("POST", "/appendable-data", body).handle()
    }

    /// A fresh handle on what the network holds for public appendable data `byte`, via a data id
    /// that is dropped again.
    fn fetch_ad(&self, byte: u8) -> (u64, Value) {
        let d = self
            .json(
                "POST",
                "/data-id/appendable-data",
                json!({"name": name(byte)}),
            )
            .handle();
        let r = self.req("GET", &format!("/appendable-data/handle/{d}"));
        self.req("DELETE", &format!("/data-id/{d}")).ok();
        let v = r.json();
        (v["handleId"].as_u64().expect("handleId"), v)
    }

    /// Metadata of an appendable-data handle.
    fn meta(&self, handle: u64) -> Value {
        let r = self.req("GET", &format!("/appendable-data/metadata/{handle}"));
        assert_eq!(r.status, 200, "metadata {handle}: {}", r.text());
        r.json()
    }

    /// A structured data (type tag 500) with this name byte and text, saved on the network; its
    /// data-id handle.
    fn stored_sd(&self, byte: u8, text: &str) -> u64 {
        let h = self
            .json(
                "POST",
                "/structured-data",
                json!({"name": name(byte), "typeTag": 500, "data": b64(text.as_bytes())}),
            )
            .handle();
        self.req("PUT", &format!("/structured-data/{h}")).ok();
        let d = self
            .req("GET", &format!("/structured-data/data-id/{h}"))
            .handle();
        self.req("DELETE", &format!("/structured-data/handle/{h}"))
            .ok();
        d
    }
}

impl Drop for Emu {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A response: status, Content-Type (empty if none) and body bytes.
#[derive(Debug)]
struct Resp {
    status: u16,
    content_type: String,
    body: Vec<u8>,
}

impl Resp {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    #[track_caller]
    fn json(&self) -> Value {
        assert!(
            self.content_type.starts_with("application/json"),
            "{} {:?}: {}",
            self.status,
            self.content_type,
            self.text()
        );
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// 200 text/plain `OK`.
    #[track_caller]
    fn ok(&self) {
        assert_eq!(
            (self.status, self.text().as_str()),
            (200, "OK"),
            "{:?}",
            self.content_type
        );
        assert!(self.content_type.starts_with("text/plain"));
    }

    /// 200 `{"handleId": n}`: n.
    #[track_caller]
    fn handle(&self) -> u64 {
        assert_eq!(self.status, 200, "{}", self.text());
        let v = self.json();
        assert_eq!(v.as_object().map(|o| o.len()), Some(1), "{v}");
        v["handleId"].as_u64().expect("handleId")
    }

    /// A launcher JSON error with exactly this status, errorCode and description.
    #[track_caller]
    fn err(&self, status: u16, code: i64, description: &str) {
        assert_eq!(self.status, status, "{}", self.text());
        assert_eq!(
            self.json(),
            json!({"errorCode": code, "description": description})
        );
    }

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
        self.err(status, code, description);
    }

    /// A 400 with errorCode 400 and this description (the launcher's own checks and exceptions).
    #[track_caller]
    fn bad(&self, description: &str) {
        self.err(400, 400, description);
    }
}

/// One HTTP/1.1 request over a new connection (`Connection: close`), read to the end.
fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<(&str, &[u8])>,
) -> Resp {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(token) = token {
        head.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    let (content_type, bytes) = body.unwrap_or(("", b""));
    if !content_type.is_empty() {
        head.push_str(&format!("Content-Type: {content_type}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", bytes.len()));
    stream.write_all(head.as_bytes()).expect("write");
    stream.write_all(bytes).expect("write body");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read answer");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end: {:?}", String::from_utf8_lossy(&raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status");
    let content_type = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-type")
                .then(|| v.trim().to_owned())
        })
        .unwrap_or_default();
    Resp {
        status,
        content_type,
        body: raw[split + 4..].to_vec(),
    }
}

/// Standard base64.
fn b64(data: &[u8]) -> String {
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
fn name(byte: u8) -> String {
    b64(&[byte; 32])
}

/// `error setting argument N - writeUInt64: no digits we found in input String`.
fn no_digits(position: usize) -> String {
    format!("error setting argument {position} - writeUInt64: no digits we found in input String")
}

/// Runs the binary as `safe-ad emulator ARGS`, stdout and stderr piped.
fn spawn_emulator(args: &[&str]) -> Child {
    Command::new(BIN)
        .arg("emulator")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn safe-ad emulator")
}

/// Reads the binary's `SAFE_LAUNCHER_URL=` and `SAFE_LAUNCHER_TOKEN=` lines (it prints them when
/// it is ready): its address and token.
fn ready(child: &mut Child) -> (SocketAddr, String) {
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let url = lines.next().expect("url line").expect("read");
    let token = lines.next().expect("token line").expect("read");
    let addr = url
        .strip_prefix("SAFE_LAUNCHER_URL=http://")
        .expect("url")
        .parse()
        .expect("address");
    let token = token
        .strip_prefix("SAFE_LAUNCHER_TOKEN=")
        .expect("token")
        .to_owned();
    (addr, token)
}

/// Sends SIGTERM and waits (generously) for the process to end: its status and stderr.
fn terminate(mut child: Child) -> (std::process::ExitStatus, String) {
    Command::new("kill")
        .arg("-TERM")
        .arg(child.id().to_string())
        .status()
        .expect("kill");
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the emulator did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        pipe.read_to_string(&mut stderr).expect("stderr");
    }
    (status, stderr)
}

// ---- the route table, auth, prefixes and path matching ----------------------------------------

/// Who may call a route, as the launcher's controllers checked it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Who {
    /// Anybody.
    Open,
    /// A token with LOW_LEVEL_API: 401 `Unauthorised access` without one, 403 without the
    /// permission.
    LowLevel,
    /// A token, any permissions: 401 with this description without one.
    Session(&'static str),
}

/// Every route served, with sample parameters, written from `version_0_6.js` and its
/// controllers.
const ROUTES: &[(&str, &str, Who)] = &[
    ("POST", "/auth", Who::Open),
    ("GET", "/auth", Who::Session("Unauthorised")),
    ("DELETE", "/auth", Who::Session("Unauthorised")),
    ("POST", "/data-id/structured-data", Who::Open),
    ("POST", "/data-id/appendable-data", Who::Open),
    ("GET", "/data-id/1", Who::LowLevel),
    ("POST", "/data-id", Who::Open),
    ("DELETE", "/data-id/1", Who::Open),
    ("POST", "/structured-data", Who::LowLevel),
    ("POST", "/structured-data/deserialise", Who::Open),
    ("POST", "/structured-data/1", Who::Session("Unauthorized")),
    ("GET", "/structured-data/metadata/1", Who::Open),
    ("GET", "/structured-data/handle/1", Who::Open),
    ("GET", "/structured-data/data-id/1", Who::Open),
    ("GET", "/structured-data/serialise/1", Who::Open),
    ("GET", "/structured-data/validate-size/1", Who::Open),
    ("GET", "/structured-data/1/0", Who::Open),
    ("PUT", "/structured-data/1", Who::Session("Unauthorized")),
    ("PATCH", "/structured-data/1", Who::LowLevel),
    ("DELETE", "/structured-data/handle/1", Who::Open),
    ("GET", "/appendable-data/encrypt-key/1", Who::LowLevel),
    ("DELETE", "/appendable-data/encrypt-key/1", Who::LowLevel),
    ("POST", "/appendable-data", Who::LowLevel),
    ("POST", "/appendable-data/deserialise", Who::Open),
    ("POST", "/appendable-data/1", Who::LowLevel),
    ("GET", "/appendable-data/metadata/1", Who::Open),
    ("GET", "/appendable-data/handle/1", Who::Open),
    ("GET", "/appendable-data/serialise/1", Who::LowLevel),
    ("GET", "/appendable-data/data-id/1", Who::Open),
    ("GET", "/appendable-data/validate-size/1", Who::Open),
    (
        "GET",
        "/appendable-data/sign-key/deleted-data/1/0",
        Who::LowLevel,
    ),
    ("GET", "/appendable-data/sign-key/1/0", Who::LowLevel),
    ("GET", "/appendable-data/deleted-data/1/0", Who::Open),
    ("GET", "/appendable-data/filter/1/0", Who::LowLevel),
    ("GET", "/appendable-data/1/0", Who::Open),
    ("PUT", "/appendable-data/toggle-filter/1", Who::LowLevel),
    ("PUT", "/appendable-data/filter/1", Who::LowLevel),
    ("PUT", "/appendable-data/1/3", Who::LowLevel),
    ("PUT", "/appendable-data/restore/1/0", Who::LowLevel),
    ("PUT", "/appendable-data/1", Who::LowLevel),
    ("DELETE", "/appendable-data/filter/1", Who::LowLevel),
    ("DELETE", "/appendable-data/deleted-data/1/0", Who::LowLevel),
    ("DELETE", "/appendable-data/clear-data/1", Who::LowLevel),
    (
        "DELETE",
        "/appendable-data/clear-deleted-data/1",
        Who::LowLevel,
    ),
    ("DELETE", "/appendable-data/handle/1", Who::Open),
    ("DELETE", "/appendable-data/1/0", Who::LowLevel),
    ("GET", "/sign-key", Who::LowLevel),
    ("GET", "/sign-key/serialise/1", Who::LowLevel),
    ("POST", "/sign-key/deserialise", Who::LowLevel),
    ("DELETE", "/sign-key/1", Who::LowLevel),
];

#[test]
fn every_route_is_served_with_the_launchers_auth_rules() {
    assert_eq!(
        ROUTES.len(),
        safe_ad::emulator::table::TABLE.len(),
        "a route was added or removed: write its expectations here"
    );
    let emu = Emu::start(Options::default());
    for &(method, path, who) in ROUTES {
        // A fresh token each time: `DELETE /auth` revokes the one it is called with.
        let no_lla = emu.login(json!(["SAFE_DRIVE_ACCESS"]));
        let anonymous = emu.anon(method, path);
        let without = http(emu.addr, method, path, Some(&no_lla), None);
        match who {
            Who::LowLevel => {
                anonymous.err(401, 400, "Unauthorised access");
                without.err(403, 400, "Low level api access is not granted");
            }
            Who::Session(description) => {
                anonymous.err(401, 400, description);
                assert!(
                    ![401, 403, 404].contains(&without.status),
                    "{method} {path}"
                );
            }
            Who::Open => {
                for r in [&anonymous, &without] {
                    assert!(
                        ![401, 403, 404].contains(&r.status),
                        "{method} {path}: {r:?}"
                    );
                }
            }
        }
        // A bad token is refused before anything else, on every route.
        let bad = http(emu.addr, method, path, Some("not-a-token"), None);
        assert_eq!(
            (bad.status, bad.text().as_str()),
            (401, "Unauthorized"),
            "{path}"
        );
        assert!(bad.content_type.starts_with("text/plain"));
    }
}

#[test]
fn every_route_answers_under_the_three_prefixes_with_or_without_one_trailing_slash() {
    for &(method, path, who) in ROUTES {
        if who != Who::LowLevel && method != "GET" {
            continue;
        }
        // Read-only routes and auth refusals answer the same wherever the route is reached.
        let emu = Emu::start(Options::default());
        let expected = emu.anon(method, path);
        for prefix in ["", "/0.5", "/0.6"] {
            for slash in ["", "/"] {
                let r = emu.anon(method, &format!("{prefix}{path}{slash}"));
                let where_ = format!("{method} {prefix}{path}{slash}");
                assert_eq!(r.status, expected.status, "{where_}");
                // A success may carry a new handle id; anything else is the same answer.
                if r.status != 200 {
                    assert_eq!(r.text(), expected.text(), "{where_}");
                }
            }
        }
    }
}

#[test]
fn launcher_path_matching_and_strict_paths() {
    let emu = Emu::start(Options::default());
    // Any ASCII case of the literal segments, escapes in parameters, one trailing slash.
    assert_eq!(
        emu.req("GET", "/Appendable-Data/METADATA/%31/").json()["version"],
        1
    );
    // Two trailing slashes, a bad escape, /health under a prefix: the launcher's 404.
    for (method, path) in [
        ("GET", "/appendable-data/metadata/1//"),
        ("GET", "/appendable-data/metadata/%zz"),
        ("GET", "/0.6/health"),
        ("DELETE", "/appendable-data/1"),
    ] {
        emu.req(method, path).err(404, 404, "Endpoint Not Found");
    }
    // /health: any method, any sub-path, no token needed; HEAD runs GET routes without a body.
    for (method, path) in [
        ("GET", "/health"),
        ("POST", "/health/x"),
        ("DELETE", "/HEALTH"),
    ] {
        emu.anon(method, path).ok();
    }
    let head = emu.anon("HEAD", "/appendable-data/metadata/1");
    assert_eq!((head.status, head.body.len()), (200, 0));
    // Handles were read with strtoull: octal, hex, a sign, trailing junk.
    assert_eq!(
        emu.req("GET", "/appendable-data/metadata/01").json()["version"],
        1
    );
    assert_eq!(
        emu.req("GET", "/appendable-data/metadata/0x1").json()["version"],
        1
    );
    assert_eq!(
        emu.req("GET", "/appendable-data/metadata/1abc").json()["version"],
        1
    );
    emu.req("GET", "/appendable-data/metadata/-1").core(-1515);
    emu.req("GET", "/appendable-data/metadata/99999999999999999999")
        .bad("error setting argument 1 - writeUInt64: input String numerical value out of range");
    // Anonymous metadata reaches the core's first call through another argument position.
    emu.anon("GET", "/appendable-data/metadata/x")
        .bad(&no_digits(0));
    emu.req("GET", "/appendable-data/metadata/x")
        .bad(&no_digits(1));

    let strict = Emu::start(Options {
        strict_paths: true,
        ..Options::default()
    });
    for path in [
        "/Appendable-Data/metadata/1",
        "/appendable-data/metadata/1/",
        "/health/",
    ] {
        strict.req("GET", path).err(404, 404, "Endpoint Not Found");
    }
    let r = strict.req("GET", "/appendable-data/metadata/01");
    assert_eq!((r.status, r.json()["errorCode"].as_i64()), (400, Some(400)));
    assert!(r.text().contains("--strict-paths"), "{}", r.text());
    assert_eq!(
        strict.req("GET", "/0.5/appendable-data/metadata/1").json()["version"],
        1
    );
}

// ---- appendable data ------------------------------------------------------------------------

#[test]
fn create_validation_in_the_launchers_order() {
    let emu = Emu::empty();
    let create = |body: Value| emu.json("POST", "/appendable-data", body);
    create(json!({})).bad("name field is missing");
    create(json!({"name": ""})).bad("name field is missing");
    create(json!({"name": b64(b"short")})).bad("Invalid name field");
    create(json!({"name": 11}))
        .bad("If encoding is specified then the first argument must be a string");
    create(json!({"name": name(1), "isPrivate": "test"})).bad("Invalid isPrivate field");
    // The name is checked before isPrivate.
    create(json!({"isPrivate": "test"})).bad("name field is missing");
    // Node's decoder skipped characters outside the alphabet, so a name with spaces is fine.
    let spaced = name(1).chars().map(|c| format!("{c} ")).collect::<String>();
    assert_eq!(create(json!({"name": spaced})).handle(), 0);
    // A form body works too (the launcher parsed urlencoded bodies on every route).
    let form = format!(
        "name={}",
        name(2)
            .replace('+', "%2B")
            .replace('/', "%2F")
            .replace('=', "%3D")
    );
    let r = http(
        emu.addr,
        "POST",
        "/appendable-data/",
        Some(&emu.token),
        Some(("application/x-www-form-urlencoded", form.as_bytes())),
    );
    assert_eq!(r.handle(), 1);
    // Malformed JSON failed in the body parser: the launcher's 404, even before the auth check.
    let broken = http(
        emu.addr,
        "POST",
        "/appendable-data",
        None,
        Some(("application/json", b"{")),
    );
    broken.err(404, 404, "Endpoint Not Found");
    // WHITE_LIST (exactly) makes a white list; anything else a black list.
    let white = emu.create_ad(3, json!({"filterType": "WHITE_LIST"}));
    assert_eq!(emu.meta(white)["filterType"], "WhiteList");
    let black = emu.create_ad(4, json!({"filterType": "WhiteList"}));
    assert_eq!(emu.meta(black)["filterType"], "BlackList");
    // filterKeys are sign-key handles: a good one is added, a bad one fails after the create.
    let key = emu.req("GET", "/sign-key/").handle();
    let keyed = emu.create_ad(5, json!({"filterKeys": [key]}));
    assert_eq!(emu.meta(keyed)["filterLength"], 1);
    create(json!({"name": name(6), "filterKeys": [999]})).core(-1519);
    create(json!({"name": name(6), "filterKeys": ["x"]})).bad(&no_digits(1));
    create(json!({"name": name(6), "filterKeys": 5}))
        .bad("filterKeys[Symbol.iterator] is not a function");
    assert_eq!(
        emu.meta(keyed),
        json!({"isOwner": true, "version": 0, "filterType": "BlackList", "filterLength": 1,
               "dataLength": 0, "deletedDataLength": 0})
    );
}

#[test]
fn save_fetch_and_stale_versions() {
    let emu = Emu::empty();
    let h = emu.create_ad(1, json!({}));
    emu.req("POST", &format!("/appendable-data/{h}")).core(-22);
    emu.req("PUT", &format!("/appendable-data/{h}")).ok();
    emu.req("PUT", &format!("/appendable-data/{h}")).core(-23);
    let (fresh, v) = emu.fetch_ad(1);
    assert_eq!(
        v,
        json!({"handleId": fresh, "isOwner": true, "version": 0, "filterType": "BlackList",
               "dataLength": 0, "deletedDataLength": 0})
    );
    // Anonymous callers own nothing.
    let d = emu
        .json("POST", "/data-id/appendable-data", json!({"name": name(1)}))
        .handle();
    assert_eq!(
        emu.anon("GET", &format!("/appendable-data/handle/{d}"))
            .json()["isOwner"],
        false
    );
    // Someone else (another handle) posts: this one is stale for POST and append.
    emu.req("POST", &format!("/appendable-data/{fresh}")).ok();
    emu.req("POST", &format!("/appendable-data/{h}")).core(-25);
    let item = emu.stored_sd(9, "x");
    emu.req("PUT", &format!("/appendable-data/{h}/{item}"))
        .core(-25);
    // The same handle can post again: its version followed the network.
    emu.req("POST", &format!("/appendable-data/{fresh}")).ok();
    assert_eq!(emu.meta(fresh)["version"], 2);
    emu.req("GET", "/appendable-data/handle/9999").core(-1514);
    let unsaved = emu
        .json("POST", "/data-id/appendable-data", json!({"name": name(2)}))
        .handle();
    emu.req("GET", &format!("/appendable-data/handle/{unsaved}"))
        .core(-18);
    // A structured data's id on the appendable-data route: unexpected data.
    emu.req("GET", &format!("/appendable-data/handle/{item}"))
        .core(-5);
    // Private and public data of the same name are different data.
    let private = emu
        .json(
            "POST",
            "/data-id/appendable-data",
            json!({"name": name(1), "isPrivate": true}),
        )
        .handle();
    emu.req("GET", &format!("/appendable-data/handle/{private}"))
        .core(-18);
    // validate-size, data-id of a handle, dropping.
    assert_eq!(
        emu.req("GET", &format!("/appendable-data/validate-size/{h}"))
            .json(),
        json!({"isValid": true})
    );
    emu.req("GET", "/appendable-data/validate-size/9999")
        .core(-1515);
    let id = emu
        .req("GET", &format!("/appendable-data/data-id/{h}"))
        .handle();
    assert_eq!(
        emu.req("GET", &format!("/appendable-data/handle/{id}"))
            .json()["version"],
        2
    );
    emu.req("GET", "/appendable-data/data-id/9999").core(-1515);
    emu.anon("DELETE", &format!("/appendable-data/handle/{h}"))
        .ok();
    emu.anon("DELETE", &format!("/appendable-data/handle/{h}"))
        .core(-1515);
}

#[test]
fn items_append_read_remove_restore_and_clear() {
    let emu = Emu::empty();
    let h = emu.create_ad(1, json!({}));
    let unsaved = emu.stored_sd(2, "two");
    // Appending needs the data on the network.
    emu.req("PUT", &format!("/appendable-data/{h}/{unsaved}"))
        .core(-22);
    emu.req("PUT", &format!("/appendable-data/{h}")).ok();
    for (byte, text) in [(3u8, "three"), (4, "four")] {
        let item = emu.stored_sd(byte, text);
        emu.req("PUT", &format!("/appendable-data/{h}/{item}")).ok();
        emu.req("DELETE", &format!("/data-id/{item}")).ok();
    }
    emu.req("PUT", &format!("/appendable-data/{h}/{unsaved}"))
        .ok();
    // Appends went to the network only: the local copy has none of them.
    assert_eq!(emu.meta(h)["dataLength"], 0);
    let (a, v) = emu.fetch_ad(1);
    assert_eq!(
        (v["dataLength"].as_u64(), v["version"].as_u64()),
        (Some(3), Some(0))
    );
    // Item 0 leads to a structured data whose content reads back.
    let d = emu.req("GET", &format!("/appendable-data/{a}/0")).handle();
    let sd = emu
        .req("GET", &format!("/structured-data/handle/{d}"))
        .json();
    let read = emu.req("GET", &format!("/structured-data/{}", sd["handleId"]));
    assert_eq!((read.status, read.text().as_str()), (200, "two"));
    assert!(read.content_type.starts_with("application/octet-stream"));
    // Index errors, and the argument error that wins over an unknown handle.
    emu.req("GET", &format!("/appendable-data/{a}/3"))
        .core(-1524);
    emu.req("GET", &format!("/appendable-data/{a}/x"))
        .bad(&no_digits(2));
    emu.req("GET", "/appendable-data/9999/x").bad(&no_digits(2));
    emu.req("GET", "/appendable-data/9999/0").core(-1515);
    emu.req("GET", &format!("/appendable-data/deleted-data/{a}/0"))
        .core(-1524);
    // Remove at index, restore, remove deleted: local only.
    emu.req("DELETE", &format!("/appendable-data/{a}/0")).ok();
    emu.req("DELETE", &format!("/appendable-data/{a}/5"))
        .core(-1524);
    emu.req("DELETE", &format!("/appendable-data/{a}/x"))
        .bad(&no_digits(1));
    let m = emu.meta(a);
    assert_eq!(
        (m["dataLength"].as_u64(), m["deletedDataLength"].as_u64()),
        (Some(2), Some(1))
    );
    let deleted = emu
        .req("GET", &format!("/appendable-data/deleted-data/{a}/0"))
        .handle();
    emu.req("DELETE", &format!("/data-id/{deleted}")).ok();
    emu.req("PUT", &format!("/appendable-data/restore/{a}/test"))
        .bad("index must be a valid number");
    emu.req("PUT", &format!("/appendable-data/restore/{a}/1"))
        .core(-1524);
    emu.req("PUT", &format!("/appendable-data/restore/{a}/0"))
        .ok();
    assert_eq!(emu.meta(a)["deletedDataLength"], 0);
    emu.req("DELETE", &format!("/appendable-data/{a}/0")).ok();
    emu.req("DELETE", &format!("/appendable-data/deleted-data/{a}/0"))
        .ok();
    emu.req("DELETE", &format!("/appendable-data/deleted-data/{a}/0"))
        .core(-1524);
    let m = emu.meta(a);
    assert_eq!(
        (m["dataLength"].as_u64(), m["deletedDataLength"].as_u64()),
        (Some(2), Some(0))
    );
    // The network still has all three until a save.
    assert_eq!(emu.fetch_ad(1).1["dataLength"], 3);
    // Clears: local until the POST, which carries deleted_data and merges.
    let (b, _) = emu.fetch_ad(1);
    emu.req("DELETE", &format!("/appendable-data/clear-data/{b}"))
        .ok();
    let m = emu.meta(b);
    assert_eq!(
        (m["dataLength"].as_u64(), m["deletedDataLength"].as_u64()),
        (Some(0), Some(3))
    );
    assert_eq!(emu.fetch_ad(1).1["dataLength"], 3);
    emu.req("POST", &format!("/appendable-data/{b}")).ok();
    let v = emu.fetch_ad(1).1;
    assert_eq!(
        (
            v["version"].as_u64(),
            v["dataLength"].as_u64(),
            v["deletedDataLength"].as_u64()
        ),
        (Some(1), Some(0), Some(3))
    );
    // An item in deleted_data cannot be appended again.
    let again = emu
        .json("POST", "/data-id/structured-data", json!({"name": name(2)}))
        .handle();
    emu.req("PUT", &format!("/appendable-data/{b}/{again}"))
        .core(-25);
    emu.req(
        "DELETE",
        &format!("/appendable-data/clear-deleted-data/{b}"),
    )
    .ok();
    emu.req("POST", &format!("/appendable-data/{b}")).ok();
    let v = emu.fetch_ad(1).1;
    assert_eq!(
        (v["version"].as_u64(), v["deletedDataLength"].as_u64()),
        (Some(2), Some(0))
    );
    emu.req("PUT", &format!("/appendable-data/{b}/{again}"))
        .ok();
    // Signers of items: the user's key.
    let (c, _) = emu.fetch_ad(1);
    let signer = emu
        .req("GET", &format!("/appendable-data/sign-key/{c}/0"))
        .handle();
    let me = emu.req("GET", "/sign-key").handle();
    assert_eq!(
        emu.req("GET", &format!("/sign-key/serialise/{signer}"))
            .body,
        emu.req("GET", &format!("/sign-key/serialise/{me}")).body
    );
    emu.req("GET", &format!("/appendable-data/sign-key/{c}/1"))
        .core(-1524);
    emu.req(
        "GET",
        &format!("/appendable-data/sign-key/deleted-data/{c}/0"),
    )
    .core(-1524);
    emu.req("DELETE", &format!("/appendable-data/clear-data/{c}"))
        .ok();
    emu.req(
        "GET",
        &format!("/appendable-data/sign-key/deleted-data/{c}/0"),
    )
    .handle();
}

#[test]
fn filters_decide_who_may_append() {
    let emu = Emu::empty();
    let h = emu.create_ad(1, json!({}));
    emu.req("PUT", &format!("/appendable-data/{h}")).ok();
    let me = emu.req("GET", "/sign-key/").handle();
    let filter = format!("/appendable-data/filter/{h}");
    let keys = |keys: Value| keys.to_string().into_bytes();
    let put_keys = |method: &str, list: Value| {
        http(
            emu.addr,
            method,
            &filter,
            Some(&emu.token),
            Some(("application/json", &keys(list))),
        )
    };
    put_keys("PUT", json!([21])).core(-1519);
    put_keys("PUT", json!(["x"])).bad(&no_digits(1));
    // No JSON body: the loop over `{}` failed.
    emu.req("PUT", &filter)
        .bad("keys[Symbol.iterator] is not a function");
    // An empty list edits nothing and looks nothing up.
    put_keys("PUT", json!([])).ok();
    http(
        emu.addr,
        "PUT",
        "/appendable-data/filter/9999",
        Some(&emu.token),
        Some(("application/json", b"[]")),
    )
    .ok();
    // The sign key is looked up before the appendable data.
    http(
        emu.addr,
        "PUT",
        "/appendable-data/filter/9999",
        Some(&emu.token),
        Some(("application/json", b"[21]")),
    )
    .core(-1519);
    put_keys("PUT", json!([me])).ok();
    assert_eq!(emu.meta(h)["filterLength"], 1);
    let item = emu.stored_sd(2, "x");
    // The filter is local until saved: the network's filter still lets the user in.
    let (probe, _) = emu.fetch_ad(1);
    assert_eq!(emu.meta(probe)["filterLength"], 0);
    emu.req("POST", &format!("/appendable-data/{h}")).ok();
    emu.req("PUT", &format!("/appendable-data/{h}/{item}"))
        .core(-25);
    let key = emu
        .req("GET", &format!("/appendable-data/filter/{h}/0"))
        .handle();
    emu.req("GET", &format!("/appendable-data/filter/{h}/1"))
        .core(-1524);
    put_keys("DELETE", json!([key])).ok();
    emu.req("POST", &format!("/appendable-data/{h}")).ok();
    // Toggling gives the other type with no keys: a white list nobody is on.
    emu.req("PUT", &format!("/appendable-data/toggle-filter/{h}"))
        .ok();
    let m = emu.meta(h);
    assert_eq!(
        (m["filterType"].as_str(), m["filterLength"].as_u64()),
        (Some("WhiteList"), Some(0))
    );
    emu.req("POST", &format!("/appendable-data/{h}")).ok();
    emu.req("PUT", &format!("/appendable-data/{h}/{item}"))
        .core(-25);
    put_keys("PUT", json!([me])).ok();
    emu.req("POST", &format!("/appendable-data/{h}")).ok();
    emu.req("PUT", &format!("/appendable-data/{h}/{item}")).ok();
    emu.req("PUT", "/appendable-data/toggle-filter/9999")
        .core(-1515);
    emu.req("PUT", "/appendable-data/toggle-filter/x")
        .bad(&no_digits(0));
    assert_eq!(emu.fetch_ad(1).1["dataLength"], 1);
}

#[test]
fn encrypt_keys_of_private_data() {
    let emu = Emu::empty();
    let private = emu.create_ad(1, json!({"isPrivate": true}));
    let public = emu.create_ad(2, json!({}));
    let key = emu
        .req("GET", &format!("/appendable-data/encrypt-key/{private}"))
        .handle();
    emu.req("GET", &format!("/appendable-data/encrypt-key/{public}"))
        .core(-1525);
    emu.req("GET", "/appendable-data/encrypt-key/9999")
        .core(-1515);
    emu.req("DELETE", &format!("/appendable-data/encrypt-key/{key}"))
        .ok();
    emu.req("DELETE", &format!("/appendable-data/encrypt-key/{key}"))
        .core(-1518);
    // Items of private data need the user's keys to be read.
    emu.req("PUT", &format!("/appendable-data/{private}")).ok();
    let item = emu.stored_sd(3, "x");
    emu.req("PUT", &format!("/appendable-data/{private}/{item}"))
        .ok();
    let d = emu
        .json(
            "POST",
            "/data-id/appendable-data",
            json!({"name": name(1), "isPrivate": true}),
        )
        .handle();
    let fresh = emu
        .req("GET", &format!("/appendable-data/handle/{d}"))
        .json()["handleId"]
        .as_u64()
        .expect("handle");
    emu.anon("GET", &format!("/appendable-data/{fresh}/0"))
        .core(-1520);
    emu.req("GET", &format!("/appendable-data/{fresh}/0"))
        .handle();
}

#[test]
fn serialised_handles_round_trip_in_the_emulators_own_format() {
    let emu = Emu::empty();
    let h = emu.create_ad(1, json!({"filterType": "WHITE_LIST"}));
    let bytes = emu.req("GET", &format!("/appendable-data/serialise/{h}"));
    assert_eq!(bytes.status, 200);
    assert!(bytes.content_type.starts_with("application/octet-stream"));
    emu.req("GET", "/appendable-data/serialise/9999")
        .core(-1515);
    let back = http(
        emu.addr,
        "POST",
        "/appendable-data/deserialise",
        None,
        Some(("text/plain", &bytes.body)),
    )
    .json();
    assert_eq!(
        back,
        json!({"handleId": back["handleId"], "isOwner": false, "version": 0,
               "filterType": "WhiteList", "dataLength": 0, "deletedDataLength": 0})
    );
    for path in [
        "/appendable-data/deserialise",
        "/structured-data/deserialise",
    ] {
        http(emu.addr, "POST", path, None, Some(("text/plain", b"junk"))).core(-1511);
        emu.anon("POST", path).core(-1511);
    }
    http(
        emu.addr,
        "POST",
        "/sign-key/deserialise",
        Some(&emu.token),
        Some(("text/plain", b"junk")),
    )
    .core(-1511);
    // Data ids: an empty body has its own message; bytes of another kind do not deserialise.
    emu.anon("POST", "/data-id").bad("Body can not be empty");
    let d = emu
        .json(
            "POST",
            "/data-id/structured-data",
            json!({"name": name(2), "typeTag": 501}),
        )
        .handle();
    let id_bytes = emu.req("GET", &format!("/data-id/{d}")).body;
    emu.req("GET", "/data-id/9999").core(-1514);
    http(
        emu.addr,
        "POST",
        "/data-id",
        None,
        Some(("text/plain", &bytes.body)),
    )
    .core(-1511);
    let d2 = http(
        emu.addr,
        "POST",
        "/data-id",
        None,
        Some(("text/plain", &id_bytes)),
    )
    .handle();
    assert_eq!(emu.req("GET", &format!("/data-id/{d2}")).body, id_bytes);
    // Sign keys.
    let k = emu.req("GET", "/sign-key").handle();
    let key_bytes = emu.req("GET", &format!("/sign-key/serialise/{k}")).body;
    emu.req("GET", "/sign-key/serialise/9999").core(-1519);
    let k2 = http(
        emu.addr,
        "POST",
        "/sign-key/deserialise",
        Some(&emu.token),
        Some(("text/plain", &key_bytes)),
    )
    .handle();
    emu.req("DELETE", &format!("/sign-key/{k2}")).ok();
    emu.req("DELETE", &format!("/sign-key/{k2}")).core(-1519);
    // Structured data.
    let s = emu
        .json(
            "POST",
            "/structured-data",
            json!({"name": name(3), "typeTag": 501, "data": b64(b"v0")}),
        )
        .handle();
    let sd_bytes = emu
        .req("GET", &format!("/structured-data/serialise/{s}"))
        .body;
    emu.req("GET", "/structured-data/serialise/9999")
        .core(-1513);
    let sd = http(
        emu.addr,
        "POST",
        "/structured-data/deserialise",
        Some(&emu.token),
        Some(("text/plain", &sd_bytes)),
    )
    .json();
    assert_eq!(
        sd,
        json!({"handleId": sd["handleId"], "isOwner": true, "version": 0, "dataVersionLength": 1})
    );
}

// ---- structured data and data ids -----------------------------------------------------------

#[test]
fn structured_data_create_validation() {
    let emu = Emu::empty();
    let create = |body: Value| emu.json("POST", "/structured-data/", body);
    create(json!({})).bad("name is missing in request body");
    create(json!({"name": b64(b"short")})).bad("Invalid id specified");
    create(json!({"name": name(1), "typeTag": "typeTag"})).bad("Tag type must be a valid number");
    create(json!({"name": name(1), "typeTag": 14999})).bad("Invalid tag type specified");
    // The plain cipher options are made once, on the first create that names none: handle 0.
    create(json!({"name": name(1), "data": 11}))
        .bad("If encoding is specified then the first argument must be a string");
    create(json!({"name": name(1), "cipherOpts": 11, "data": b64(b"x")})).core(-1517);
    create(json!({"name": name(1), "version": "v"})).bad(&no_digits(3));
    create(json!({"name": name(1), "cipherOpts": "c"})).bad(&no_digits(4));
    // The plain cipher options' handle is accepted when named.
    assert_eq!(
        create(json!({"name": name(1), "cipherOpts": 0, "typeTag": "15000"})).handle(),
        1
    );
    assert_eq!(create(json!({"name": name(2)})).handle(), 2);
}

#[test]
fn structured_data_save_update_read() {
    let emu = Emu::empty();
    let h = emu
        .json(
            "POST",
            "/structured-data",
            json!({"name": name(1), "typeTag": 500, "data": b64(b"one")}),
        )
        .handle();
    emu.req("POST", &format!("/structured-data/{h}")).core(-22);
    emu.req("PUT", &format!("/structured-data/{h}")).ok();
    emu.req("PUT", &format!("/structured-data/{h}")).core(-23);
    emu.req("PUT", "/structured-data/9999").core(-1513);
    // Saving needs a token but not LOW_LEVEL_API.
    let plain = emu.login(json!([]));
    http(emu.addr, "PUT", "/structured-data/9999", Some(&plain), None).core(-1513);
    // Unversioned: no dataVersionLength.
    assert_eq!(
        emu.req("GET", &format!("/structured-data/metadata/{h}"))
            .json(),
        json!({"isOwner": true, "version": 0})
    );
    emu.anon("GET", "/structured-data/metadata/9999")
        .core(-1513);
    let update = |handle: u64, text: &[u8]| {
        emu.json(
            "PATCH",
            &format!("/structured-data/{handle}"),
            json!({"data": b64(text)}),
        )
    };
    update(h, b"two").ok();
    update(9999, b"two").core(-1513);
    emu.json(
        "PATCH",
        &format!("/structured-data/{h}"),
        json!({"data": 11}),
    )
    .bad("If encoding is specified then the first argument must be a string");
    emu.json(
        "PATCH",
        &format!("/structured-data/{h}"),
        json!({"data": "eA==", "cipherOpts": 11}),
    )
    .core(-1517);
    emu.req("POST", &format!("/structured-data/{h}")).ok();
    assert_eq!(
        emu.req("GET", &format!("/structured-data/metadata/{h}"))
            .json()["version"],
        1
    );
    // A second handle fetched now goes stale when the first posts again.
    let d = emu
        .json("POST", "/data-id/structured-data", json!({"name": name(1)}))
        .handle();
    let fetched = emu
        .anon("GET", &format!("/structured-data/handle/{d}/"))
        .json();
    assert_eq!(
        fetched,
        json!({"handleId": fetched["handleId"], "isOwner": false, "version": 1})
    );
    let other = fetched["handleId"].as_u64().expect("handle");
    update(h, b"three").ok();
    emu.req("POST", &format!("/structured-data/{h}")).ok();
    update(other, b"late").ok();
    emu.req("POST", &format!("/structured-data/{other}"))
        .core(-25);
    let read = emu.anon("GET", &format!("/structured-data/{h}"));
    assert_eq!(read.text(), "three");
    emu.req("GET", &format!("/structured-data/{h}/0"))
        .core(-1521);
    emu.req("GET", "/structured-data/9999").core(-1513);
    // Versioned data keeps its versions.
    let v = emu
        .json(
            "POST",
            "/structured-data",
            json!({"name": name(2), "typeTag": 501, "data": b64(b"a")}),
        )
        .handle();
    update(v, b"b").ok();
    assert_eq!(
        emu.req("GET", &format!("/structured-data/{v}/0")).text(),
        "a"
    );
    assert_eq!(
        emu.req("GET", &format!("/structured-data/{v}/1")).text(),
        "b"
    );
    assert_eq!(
        emu.req("GET", &format!("/structured-data/{v}/not-a-number"))
            .text(),
        "b"
    );
    emu.req("GET", &format!("/structured-data/{v}/2"))
        .core(-1522);
    assert_eq!(
        emu.req("GET", &format!("/structured-data/metadata/{v}"))
            .json(),
        json!({"isOwner": true, "version": 1, "dataVersionLength": 2})
    );
    // Data read back empty is an empty 200.
    let empty = emu
        .json("POST", "/structured-data", json!({"name": name(3)}))
        .handle();
    let r = emu.req("GET", &format!("/structured-data/{empty}"));
    assert_eq!(
        (r.status, r.body.len(), r.content_type.as_str()),
        (200, 0, "")
    );
    assert_eq!(
        emu.req("GET", &format!("/structured-data/validate-size/{v}"))
            .json(),
        json!({"isValid": true})
    );
    emu.req("GET", "/structured-data/validate-size/9999")
        .core(-1513);
    emu.req("GET", "/structured-data/data-id/9999").core(-1513);
    emu.req("GET", "/structured-data/handle/9999").core(-1514);
    let missing = emu
        .json("POST", "/data-id/structured-data", json!({"name": name(9)}))
        .handle();
    emu.req("GET", &format!("/structured-data/handle/{missing}"))
        .core(-18);
    emu.anon("DELETE", &format!("/structured-data/handle/{v}"))
        .ok();
    emu.anon("DELETE", &format!("/structured-data/handle/{v}"))
        .core(-1513);
}

#[test]
fn data_id_routes() {
    let emu = Emu::empty();
    // No name check: a missing name failed in `new Buffer`.
    emu.json("POST", "/data-id/appendable-data", json!({}))
        .bad("First argument must be a string, Buffer, ArrayBuffer, Array, or array-like object.");
    // typeTag defaults to 500 and is taken as the core took it.
    let d = emu
        .json("POST", "/data-id/structured-data", json!({"name": name(1)}))
        .handle();
    emu.json(
        "POST",
        "/data-id/structured-data",
        json!({"name": name(1), "typeTag": null}),
    )
    .bad("error setting argument 0 - writeUInt64: Number/String 64-bit value required");
    let sd = emu
        .json(
            "POST",
            "/structured-data",
            json!({"name": name(1), "data": b64(b"x")}),
        )
        .handle();
    emu.req("PUT", &format!("/structured-data/{sd}")).ok();
    emu.req("GET", &format!("/structured-data/handle/{d}"))
        .json();
    emu.anon("DELETE", &format!("/data-id/{d}")).ok();
    emu.anon("DELETE", &format!("/data-id/{d}")).core(-1514);
    emu.anon("DELETE", "/data-id/x").bad(&no_digits(0));
}

#[test]
fn handles_of_every_type_are_evicted_least_recently_used_first() {
    let emu = Emu::empty();
    let first = emu.req("GET", "/sign-key").handle();
    let second = emu.req("GET", "/sign-key").handle();
    for _ in 2..100 {
        emu.req("GET", "/sign-key").handle();
    }
    // Use the first: the second is now the least recently used.
    emu.req("GET", &format!("/sign-key/serialise/{first}"));
    emu.req("GET", "/sign-key").handle();
    assert_eq!(
        emu.req("GET", &format!("/sign-key/serialise/{first}"))
            .status,
        200
    );
    emu.req("GET", &format!("/sign-key/serialise/{second}"))
        .core(-1519);
}

// ---- the binary: --log, --state, --quiet, --token-file, handle counts -------------------------

#[test]
fn log_file_records_every_request_with_live_handle_counts_and_never_the_token() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("requests.jsonl");
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, "file-token-123\n").expect("write token");
    let mut child = spawn_emulator(&[
        "--listen",
        "127.0.0.1:0",
        "--empty",
        "--quiet",
        "--token-file",
        token_file.to_str().expect("path"),
        "--log",
        log.to_str().expect("path"),
    ]);
    let (addr, token) = ready(&mut child);
    assert_eq!(token, "file-token-123");
    let body = json!({"name": name(1)}).to_string();
    let d = http(
        addr,
        "POST",
        "/data-id/appendable-data?x=1",
        None,
        Some(("application/json", body.as_bytes())),
    )
    .handle();
    http(
        addr,
        "GET",
        &format!("/appendable-data/handle/{d}"),
        Some(&token),
        None,
    );
    http(addr, "DELETE", &format!("/data-id/{d}"), None, None).ok();
    http(addr, "GET", "/file-token-123/health", None, None);
    let (status, stderr) = terminate(child);
    assert!(status.success(), "{status:?}");
    assert_eq!(stderr, "", "--quiet");
    let text = std::fs::read_to_string(&log).expect("log file");
    assert!(!text.contains("file-token-123"), "{text}");
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(records.len(), 5, "{text}");
    assert_eq!(records[0]["method"], "POST");
    assert_eq!(records[0]["path"], "/data-id/appendable-data");
    assert_eq!(records[0]["status"], 200);
    assert_eq!(records[0]["handles"]["dataId"], 1);
    assert_eq!(records[1]["status"], 404);
    assert_eq!(records[2]["handles"]["dataId"], 0);
    assert_eq!(records[3]["path"], "/<token>/health");
    assert!(records[0]["elapsedMs"].as_f64().is_some());
    let stop = &records[4];
    assert_eq!(stop["event"], "stop");
    assert_eq!(stop["requests"], 4);
    assert_eq!(
        stop["handles"],
        json!({"appendableData": 0, "structuredData": 0, "dataId": 0, "signKey": 0,
               "encryptKey": 0, "cipherOpts": 0})
    );
}

#[test]
fn state_file_is_loaded_and_written_back_on_a_clean_stop() {
    let dir = tempfile::tempdir().expect("tempdir");
    let state = dir.path().join("network.json");
    let state_arg = state.to_str().expect("path");
    // A file that does not exist yet: an empty network, created on stop.
    let mut child = spawn_emulator(&["--listen", "127.0.0.1:0", "--state", state_arg]);
    let (addr, token) = ready(&mut child);
    let body = json!({"name": name(7)}).to_string();
    let h = http(
        addr,
        "POST",
        "/appendable-data",
        Some(&token),
        Some(("application/json", body.as_bytes())),
    )
    .handle();
    assert_eq!(h, 0, "no demo handles with --state");
    http(
        addr,
        "PUT",
        &format!("/appendable-data/{h}"),
        Some(&token),
        None,
    )
    .ok();
    let (status, stderr) = terminate(child);
    assert!(status.success(), "{stderr}");
    assert!(
        stderr.contains("live handles: appendable-data 1, structured-data 0, data-id 0"),
        "{stderr}"
    );
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&state).expect("saved")).expect("JSON");
    assert_eq!(saved["format"], "safe-ad-emulator-state/1");
    assert_eq!(saved["appendableData"][0]["name"], name(7));
    assert_eq!(saved["appendableData"][0]["version"], 0);
    // Edit the fixture by hand, then serve it again: the data is there, the handles are not.
    let mut edited = saved.clone();
    edited["appendableData"][0]["version"] = json!(4);
    edited["appendableData"][0]["data"] =
        json!([{"structuredData": {"name": name(8), "typeTag": 500}}]);
    std::fs::write(&state, edited.to_string()).expect("edit");
    let mut child = spawn_emulator(&["--listen", "127.0.0.1:0", "--state", state_arg, "--quiet"]);
    let (addr, token) = ready(&mut child);
    http(
        addr,
        "GET",
        "/appendable-data/metadata/0",
        Some(&token),
        None,
    )
    .core(-1515);
    let d = http(
        addr,
        "POST",
        "/data-id/appendable-data",
        None,
        Some(("application/json", body.as_bytes())),
    )
    .handle();
    let v = http(
        addr,
        "GET",
        &format!("/appendable-data/handle/{d}"),
        Some(&token),
        None,
    )
    .json();
    assert_eq!(
        (v["version"].as_u64(), v["dataLength"].as_u64()),
        (Some(4), Some(1))
    );
    let (status, _) = terminate(child);
    assert!(status.success());
    let again: Value =
        serde_json::from_str(&std::fs::read_to_string(&state).expect("saved")).expect("JSON");
    assert_eq!(again["appendableData"], edited["appendableData"]);
    // A broken fixture is a usage error, said on stderr.
    std::fs::write(
        &state,
        "{\"format\":\"safe-ad-emulator-state/1\",\"typo\":[]}",
    )
    .expect("write");
    let out = Command::new(BIN)
        .args(["emulator", "--listen", "127.0.0.1:0", "--state", state_arg])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--state"));
}

#[test]
fn command_mode_with_a_log_shows_what_the_command_left_behind() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("log.jsonl");
    // The command (bash with its /dev/tcp) makes one data-id handle and leaves it live.
    let script = format!(
        r#"a=${{SAFE_LAUNCHER_URL#http://}}; exec 3<>/dev/tcp/${{a%:*}}/${{a#*:}}; body='{{"name":"{}"}}'; printf 'POST /data-id/appendable-data HTTP/1.1\r\nHost: e\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s' ${{#body}} "$body" >&3; cat <&3 >/dev/null"#,
        name(1)
    );
    let out = Command::new(BIN)
        .args([
            "emulator",
            "--empty",
            "--log",
            log.to_str().expect("path"),
            "--",
            "bash",
            "-c",
            &script,
        ])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&log).expect("log");
    let last: Value = serde_json::from_str(text.lines().last().expect("a record")).expect("JSON");
    assert_eq!(last["event"], "stop");
    assert_eq!(last["handles"]["dataId"], 1, "{text}");
}

#[test]
fn a_port_in_use_suggests_a_free_one() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("addr").port();
    let out = Command::new(BIN)
        .args(["emulator", "--listen", &format!("127.0.0.1:{port}")])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--listen 127.0.0.1:0"), "{stderr}");
    // And a token file that cannot be read is a usage error.
    let out = Command::new(BIN)
        .args(["emulator", "--token-file", "/nonexistent/token"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--token-file"));
}
