//! Launcher stand-ins on loopback: wiremock servers for well-formed HTTP, and [`RawLauncher`], a
//! byte-level server scripted per connection, for answers no HTTP library would give.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use wiremock::matchers::{any, header, method, path, path_regex};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

use super::{DEADLINE, TOKEN};

// ---- wiremock ----------------------------------------------------------------------------------

/// Answers 200 `OK` to requests that carry the test token.
pub async fn ok_launcher() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(header("authorization", format!("Bearer {TOKEN}").as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .mount(&server)
        .await;
    server
}

/// The launcher's metadata of a handle at version 0 holding no items, as JSON.
pub const METADATA_JSON: &str = r#"{"isOwner":true,"version":0,"filterType":"BlackList","filterLength":0,"dataLength":0,"deletedDataLength":0}"#;

/// Makes `server` answer a metadata read (`GET .../appendable-data/metadata/N`, the read a save
/// is followed by) with [`METADATA_JSON`], before any other mock it holds.
pub async fn answer_metadata(server: &MockServer) {
    Mock::given(method("GET"))
        .and(path_regex(r"/appendable-data/metadata/[0-9]+$"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(METADATA_JSON, "application/json"))
        .with_priority(1)
        .mount(server)
        .await;
}

/// Answers 200 `OK` to anything, so what it received can be inspected.
pub async fn any_ok_launcher() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .mount(&server)
        .await;
    server
}

/// Answers 200 to anything, but only after `delay` (a launcher that is slow, or with
/// [`super::NEVER`], one that never answers within a test).
pub async fn slow_launcher(delay: Duration) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_string("OK")
                .set_delay(delay),
        )
        .mount(&server)
        .await;
    server
}

/// Answers every request with `status` and a JSON error body.
pub async fn error_launcher(status: u16, body: &str) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(status).set_body_raw(body.to_string(), "application/json"),
        )
        .mount(&server)
        .await;
    server
}

/// Mounts a mock for exactly one method and path, expected `times` times.
pub async fn expect(server: &MockServer, verb: &str, route: &str, times: u64) {
    Mock::given(method(verb))
        .and(path(route))
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .expect(times)
        .mount(server)
        .await;
}

/// Every request `server` has received, in order. Fails if the server does not record requests
/// (wiremock can be built without): then no list of what it received means "nothing came".
pub async fn received(server: &MockServer) -> Vec<Request> {
    server
        .received_requests()
        .await
        .expect("this MockServer does not record requests, so what it received cannot be checked")
}

/// How many requests `server` has received.
pub async fn request_count(server: &MockServer) -> usize {
    received(server).await.len()
}

/// The path of every request `server` has received, in order.
pub async fn received_paths(server: &MockServer) -> Vec<String> {
    received(server)
        .await
        .iter()
        .map(|r| r.url.path().to_owned())
        .collect()
}

/// `METHOD /path` of every request `server` has received, in order.
pub async fn request_lines(server: &MockServer) -> Vec<String> {
    received(server)
        .await
        .iter()
        .map(|r| format!("{} {}", r.method, r.url.path()))
        .collect()
}

/// The Authorization header of every request `server` has received, in order (`(none)` where
/// there was none).
pub async fn bearers(server: &MockServer) -> Vec<String> {
    received(server)
        .await
        .iter()
        .map(|r| {
            r.headers
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("(none)")
                .to_string()
        })
        .collect()
}

/// Fails, naming what came, unless `server` has received nothing; `what` names the case.
pub async fn assert_nothing_sent(server: &MockServer, what: &str) {
    let lines = request_lines(server).await;
    assert!(lines.is_empty(), "{what}: the launcher received {lines:?}");
}

/// Waits until `server` has received `count` requests; fails after [`DEADLINE`].
pub async fn wait_for_requests(server: &MockServer, count: usize) {
    let deadline = Instant::now() + DEADLINE;
    loop {
        let seen = request_count(server).await;
        if seen >= count {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the launcher received {seen} requests in {DEADLINE:?}, not {count}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

// ---- a byte-level launcher ---------------------------------------------------------------------

/// What a [`RawLauncher`] saw and did, across all its connections.
#[derive(Default)]
struct Seen {
    accepts: usize,
    /// Request lines (`PUT /appendable-data/1 HTTP/1.1`), in the order they were read.
    requests: Vec<String>,
    /// Bytes written before the client went away.
    sent: u64,
    /// Connections whose script is still running.
    open: usize,
    /// Connections the test itself made to [`RawLauncher::settle`]; not counted as accepts.
    markers: Vec<SocketAddr>,
}

type Shared = Arc<(Mutex<Seen>, Condvar)>;

/// A byte-level launcher on loopback: every accepted connection is handed, on its own thread, to
/// the script. Lives as long as the test process.
pub struct RawLauncher {
    pub url: String,
    address: SocketAddr,
    seen: Shared,
}

impl RawLauncher {
    pub fn start(script: impl Fn(&mut Conn) + Send + Sync + 'static) -> RawLauncher {
        RawLauncher::start_on(TcpListener::bind("127.0.0.1:0").expect("bind"), script)
    }

    /// The same on a listener the test bound.
    pub fn start_on(
        listener: TcpListener,
        script: impl Fn(&mut Conn) + Send + Sync + 'static,
    ) -> RawLauncher {
        let address = listener.local_addr().expect("addr");
        let seen: Shared = Arc::default();
        let shared = Arc::clone(&seen);
        let script = Arc::new(script);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let peer = stream.peer_addr().ok();
                {
                    let (lock, changed) = &*shared;
                    let mut seen = lock.lock().unwrap();
                    if let Some(at) = seen.markers.iter().position(|m| Some(*m) == peer) {
                        seen.markers.remove(at);
                        changed.notify_all();
                        continue;
                    }
                    seen.accepts += 1;
                    seen.open += 1;
                    changed.notify_all();
                }
                let _ = stream.set_read_timeout(Some(DEADLINE));
                let _ = stream.set_write_timeout(Some(DEADLINE));
                let mut conn = Conn {
                    stream,
                    seen: Arc::clone(&shared),
                    pending: Vec::new(),
                };
                let script = Arc::clone(&script);
                std::thread::spawn(move || {
                    script(&mut conn);
                    // Closed before it is counted closed: a test that waits for the count
                    // ([`RawLauncher::settle`]) may then rely on the close.
                    let seen = Arc::clone(&conn.seen);
                    drop(conn);
                    let (lock, changed) = &*seen;
                    lock.lock().unwrap().open -= 1;
                    changed.notify_all();
                });
            }
        });
        RawLauncher {
            url: format!("http://{address}"),
            address,
            seen,
        }
    }

    /// Answers every request with `answer` as it is, then closes the connection.
    pub fn answering(answer: &'static [u8]) -> RawLauncher {
        RawLauncher::start(move |conn| {
            if conn.request().is_some() {
                conn.send(answer);
            }
        })
    }

    fn with<T>(&self, read: impl FnOnce(&Seen) -> T) -> T {
        read(&self.seen.0.lock().unwrap())
    }

    pub fn requests(&self) -> Vec<String> {
        self.with(|seen| seen.requests.clone())
    }

    pub fn sent(&self) -> u64 {
        self.with(|seen| seen.sent)
    }

    /// Waits until `ready` holds for what the launcher has seen; fails after [`DEADLINE`] naming
    /// `what`.
    #[track_caller]
    fn wait(&self, what: &str, mut ready: impl FnMut(&Seen) -> bool) {
        let (lock, changed) = &*self.seen;
        let deadline = Instant::now() + DEADLINE;
        let mut seen = lock.lock().unwrap();
        while !ready(&seen) {
            let now = Instant::now();
            assert!(
                now < deadline,
                "waited {DEADLINE:?} for {what}; the launcher saw {} connections and these \
                 requests: {:?}",
                seen.accepts,
                seen.requests
            );
            seen = changed.wait_timeout(seen, deadline - now).unwrap().0;
        }
    }

    /// Waits until the launcher has read `count` requests.
    #[track_caller]
    pub fn wait_for_requests(&self, count: usize) {
        self.wait(&format!("{count} requests"), |seen| {
            seen.requests.len() >= count
        });
    }

    /// Waits until the launcher has read a request whose line `matches`; `what` names it.
    #[track_caller]
    pub fn wait_for_request(&self, what: &str, matches: impl Fn(&str) -> bool) {
        self.wait(what, |seen| seen.requests.iter().any(|line| matches(line)));
    }

    /// How many connections clients made before this call. Waits until the launcher has
    /// accepted every one: a connection of the test's own, queued behind them, must be accepted
    /// first. Final once the clients have exited.
    #[track_caller]
    pub fn connections(&self) -> usize {
        let (marker, mine) = {
            // Held while connecting, so the accept loop knows the marker when it takes it.
            let mut seen = self.seen.0.lock().unwrap();
            let marker = TcpStream::connect(self.address).expect("connect to the launcher");
            let mine = marker.local_addr().expect("local addr");
            seen.markers.push(mine);
            (marker, mine)
        };
        self.wait("the launcher to accept every connection", |seen| {
            !seen.markers.contains(&mine)
        });
        drop(marker);
        self.with(|seen| seen.accepts)
    }

    /// Waits until the launcher has taken in everything its clients sent: every connection is
    /// accepted ([`RawLauncher::connections`]), every script has returned and its connection is
    /// closed. Counts read after
    /// this are final once the clients have exited.
    #[track_caller]
    pub fn settle(&self) {
        self.connections();
        self.wait("every connection's script to end", |seen| seen.open == 0);
    }
}

/// One accepted connection, as the script sees it.
pub struct Conn {
    stream: TcpStream,
    seen: Shared,
    /// Bytes read past the last request head (a pipelined next request).
    pending: Vec<u8>,
}

impl Conn {
    /// Reads one request head and returns its request line; `None` when the client closed.
    pub fn request(&mut self) -> Option<String> {
        loop {
            if let Some(end) = find(&self.pending, b"\r\n\r\n") {
                let head: Vec<u8> = self.pending.drain(..end + 4).collect();
                let text = String::from_utf8_lossy(&head);
                let line = text.lines().next().unwrap_or("").to_string();
                let (lock, changed) = &*self.seen;
                lock.lock().unwrap().requests.push(line.clone());
                changed.notify_all();
                return Some(line);
            }
            let mut buffer = [0u8; 4096];
            match self.stream.read(&mut buffer) {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.pending.extend_from_slice(&buffer[..n]),
            }
        }
    }

    /// Writes `bytes`; `false` once the client has gone.
    pub fn send(&mut self, bytes: &[u8]) -> bool {
        match self.stream.write_all(bytes) {
            Ok(()) => {
                self.seen.0.lock().unwrap().sent += bytes.len() as u64;
                true
            }
            Err(_) => false,
        }
    }

    /// Keeps the connection open, answering nothing, until the client closes it.
    pub fn hold(&mut self) {
        let mut buffer = [0u8; 4096];
        while let Ok(1..) = self.stream.read(&mut buffer) {}
    }

    /// Streams a body of repeated `pattern` until `limit` bytes are sent or the client goes.
    pub fn stream(&mut self, pattern: &[u8], limit: Option<u64>, chunked: bool) {
        let chunk: Vec<u8> = pattern.iter().copied().cycle().take(64 * 1024).collect();
        let mut sent = 0u64;
        while limit.is_none_or(|limit| sent < limit) {
            let piece = match limit {
                Some(limit) => &chunk[..chunk.len().min((limit - sent) as usize)],
                None => &chunk[..],
            };
            let framed = if chunked {
                let mut framed = format!("{:x}\r\n", piece.len()).into_bytes();
                framed.extend_from_slice(piece);
                framed.extend_from_slice(b"\r\n");
                framed
            } else {
                piece.to_vec()
            };
            if !self.send(&framed) {
                return;
            }
            sent += piece.len() as u64;
        }
    }
}

/// The launcher's answer to a save or a clear that worked: 200, `OK`, on a kept-alive connection.
pub const OK_ANSWER: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nOK";

/// A [`RawLauncher`] script: answers every request on the connection with [`OK_ANSWER`].
#[cfg_attr(not(feature = "emulator"), allow(dead_code))]
pub fn serve_ok(conn: &mut Conn) {
    while conn.request().is_some() {
        if !conn.send(OK_ANSWER) {
            return;
        }
    }
}

/// The launcher's answer to a metadata read (`GET /appendable-data/metadata/N`): version 0,
/// no items, as the read a save is followed by gets it.
pub const METADATA_ANSWER: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 107\r\n\r\n{\"isOwner\":true,\"version\":0,\"filterType\":\"BlackList\",\"filterLength\":0,\"dataLength\":0,\"deletedDataLength\":0}";

/// A [`RawLauncher`] script: answers the metadata read after a save with [`METADATA_ANSWER`],
/// and every other request with [`OK_ANSWER`].
#[cfg_attr(not(feature = "emulator"), allow(dead_code))]
pub fn serve_saves(conn: &mut Conn) {
    while let Some(line) = conn.request() {
        let answer = if line.starts_with("GET /appendable-data/metadata/") {
            METADATA_ANSWER
        } else {
            OK_ANSWER
        };
        if !conn.send(answer) {
            return;
        }
    }
}

/// The handle at the end of a request line (`PUT /appendable-data/7 HTTP/1.1` → 7).
pub fn handle_of(request_line: &str) -> u64 {
    request_line
        .split(' ')
        .nth(1)
        .and_then(|path| path.rsplit('/').next())
        .and_then(|handle| handle.parse().ok())
        .unwrap_or_else(|| panic!("no handle in {request_line:?}"))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// The launcher's body for -25: a save (or an append) after someone else saved.
pub const INVALID_SUCCESSOR: &str = r#"{"errorCode":-25,"description":"CoreError::MutationFailure::MutationError::InvalidSuccessor"}"#;

/// A whole HTTP/1.1 answer with a correct content-length, kept for the test's lifetime.
pub fn http_answer(status: &str, body: &[u8]) -> &'static [u8] {
    let mut answer = format!(
        "HTTP/1.1 {status}\r\ncontent-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(body);
    Box::leak(answer.into_boxed_slice())
}
