//! A proxy on loopback that loses answers: it passes each request on to the launcher behind it
//! (an emulator), whole, body included, lets the launcher act on it and read its answer, and
//! then, for the requests the test picks, closes the client's connection without a byte of that
//! answer. The launcher has acted; the client cannot know. For the promise that a request that
//! may have acted is never sent again, and that what a command says matches what the network
//! holds after.
//!
//! Every request line it passed on is kept, in order, to count what was sent twice.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use super::DEADLINE;

/// The proxy: point safe-ad at `url`.
pub struct LosingProxy {
    pub url: String,
    seen: Arc<Mutex<Vec<String>>>,
}

impl LosingProxy {
    /// Passes requests on to `target`; `lose(line, before)` says whether to lose the answer to
    /// a request, given its line (`DELETE /data-id/3 HTTP/1.1`) and how many times the same
    /// line was passed on before.
    pub fn start(
        target: SocketAddr,
        lose: impl Fn(&str, usize) -> bool + Send + Sync + 'static,
    ) -> LosingProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let seen: Arc<Mutex<Vec<String>>> = Arc::default();
        let shared = Arc::clone(&seen);
        let lose = Arc::new(lose);
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let seen = Arc::clone(&shared);
                let lose = Arc::clone(&lose);
                std::thread::spawn(move || serve(client, target, &seen, &*lose));
            }
        });
        LosingProxy { url, seen }
    }

    /// Loses the first answer to each request whose line starts with `prefix`
    /// (`"DELETE /data-id/"`); passes every other answer.
    pub fn losing_first(target: SocketAddr, prefix: &'static str) -> LosingProxy {
        let lost = Mutex::new(false);
        LosingProxy::start(target, move |line, _| {
            let mut lost = lost.lock().unwrap();
            if !*lost && line.starts_with(prefix) {
                *lost = true;
                return true;
            }
            false
        })
    }

    /// Every request line passed on so far (`METHOD /path`), in order.
    pub fn requests(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }

    /// How many requests passed on start with `prefix`.
    pub fn count(&self, prefix: &str) -> usize {
        self.requests()
            .iter()
            .filter(|line| line.starts_with(prefix))
            .count()
    }
}

/// One client connection: request after request, each passed on, answered or lost.
fn serve(
    mut client: TcpStream,
    target: SocketAddr,
    seen: &Mutex<Vec<String>>,
    lose: &(dyn Fn(&str, usize) -> bool + Send + Sync),
) {
    let _ = client.set_read_timeout(Some(DEADLINE));
    let mut pending = Vec::new();
    while let Some((line, request)) = read_request(&mut client, &mut pending) {
        let short: String = line.split(' ').take(2).collect::<Vec<_>>().join(" ");
        let before = {
            let mut seen = seen.lock().unwrap();
            let before = seen.iter().filter(|other| **other == short).count();
            seen.push(short.clone());
            before
        };
        let answer = pass_on(target, &request);
        if lose(&line, before) {
            // The launcher acted; the client hears nothing.
            let _ = client.shutdown(std::net::Shutdown::Both);
            return;
        }
        if client.write_all(&answer).is_err() {
            return;
        }
    }
}

/// Reads one whole request (head and `Content-Length` body) and returns its line and its bytes
/// with `Connection: close` added, for a connection of its own to the launcher.
pub(super) fn read_request(
    client: &mut TcpStream,
    pending: &mut Vec<u8>,
) -> Option<(String, Vec<u8>)> {
    let head_end = loop {
        if let Some(end) = find(pending, b"\r\n\r\n") {
            break end + 4;
        }
        let mut buffer = [0u8; 8192];
        match client.read(&mut buffer) {
            Ok(0) | Err(_) => return None,
            Ok(n) => pending.extend_from_slice(&buffer[..n]),
        }
    };
    let head = String::from_utf8_lossy(&pending[..head_end]).into_owned();
    let length: usize = head
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().ok())?
        })
        .unwrap_or(0);
    while pending.len() < head_end + length {
        let mut buffer = [0u8; 8192];
        match client.read(&mut buffer) {
            Ok(0) | Err(_) => return None,
            Ok(n) => pending.extend_from_slice(&buffer[..n]),
        }
    }
    let whole: Vec<u8> = pending.drain(..head_end + length).collect();
    let line = head.lines().next().unwrap_or("").to_string();
    let mut request = Vec::with_capacity(whole.len() + 20);
    let line_end = find(&whole, b"\r\n").expect("a request line") + 2;
    request.extend_from_slice(&whole[..line_end]);
    request.extend_from_slice(b"Connection: close\r\n");
    request.extend_from_slice(&whole[line_end..]);
    Some((line, request))
}

/// Sends `request` to the launcher on a connection of its own and reads the whole answer.
pub(super) fn pass_on(target: SocketAddr, request: &[u8]) -> Vec<u8> {
    let mut launcher = TcpStream::connect(target).expect("connect to the launcher");
    let _ = launcher.set_read_timeout(Some(DEADLINE));
    launcher.write_all(request).expect("pass the request on");
    let mut answer = Vec::new();
    let _ = launcher.read_to_end(&mut answer);
    answer
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}
