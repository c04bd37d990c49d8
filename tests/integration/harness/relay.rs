//! A relay on loopback between safe-ad and an emulator: each request is passed on, answered in
//! the emulator's place, or held until the test lets it go. For scenarios the emulator cannot
//! make itself: one failing step in the middle of a chain, or a request still in flight when
//! Ctrl-C comes. Requests are relayed without a body (the reading routes take none), with the
//! test token.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use super::http::request;
use super::{Output, RawLauncher, Running, SafeAd, DEADLINE, TOKEN};

/// What the relay does with one request, chosen by the test from its request line.
pub enum Hook {
    /// Passes it on to the emulator and its answer back.
    Pass,
    /// Answers it with these bytes (a whole HTTP answer) instead.
    Answer(&'static [u8]),
    /// Holds it until [`Relay::release`], then passes it on.
    Hold,
}

#[derive(Default)]
struct Gate {
    /// Requests held so far.
    held: usize,
    open: bool,
}

/// The relay: point safe-ad at `url`.
pub struct Relay {
    pub url: String,
    gate: Arc<(Mutex<Gate>, Condvar)>,
    _launcher: RawLauncher,
}

impl Relay {
    /// Relays to the emulator at `target`; `hook` sees each request line (`GET /path HTTP/1.1`).
    pub fn start(target: SocketAddr, hook: impl Fn(&str) -> Hook + Send + Sync + 'static) -> Relay {
        let gate: Arc<(Mutex<Gate>, Condvar)> = Arc::default();
        let shared = Arc::clone(&gate);
        let launcher = RawLauncher::start(move |conn| {
            while let Some(line) = conn.request() {
                let mut words = line.split(' ');
                let (method, path) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
                match hook(&line) {
                    Hook::Answer(answer) => {
                        conn.send(answer);
                        continue;
                    }
                    Hook::Hold => {
                        let (lock, changed) = &*shared;
                        let mut gate = lock.lock().unwrap();
                        gate.held += 1;
                        changed.notify_all();
                        while !gate.open {
                            gate = changed.wait(gate).unwrap();
                        }
                    }
                    Hook::Pass => {}
                }
                let answer = request(target, method, path, Some(TOKEN), None);
                let mut bytes = format!(
                    "HTTP/1.1 {} Relayed\r\ncontent-type: {}\r\ncontent-length: {}\r\n\r\n",
                    answer.status,
                    answer.content_type,
                    answer.bytes.len()
                )
                .into_bytes();
                bytes.extend_from_slice(&answer.bytes);
                if !conn.send(&bytes) {
                    return;
                }
            }
        });
        Relay {
            url: launcher.url.clone(),
            gate,
            _launcher: launcher,
        }
    }

    /// Relays to the emulator at `target`, holding the `nth` request (counting from 0) whose
    /// request line `matches` and passing every other one.
    pub fn holding(
        target: SocketAddr,
        nth: u32,
        matches: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> Relay {
        let seen = AtomicU32::new(0);
        Relay::start(target, move |line| {
            if matches(line) && seen.fetch_add(1, Ordering::SeqCst) == nth {
                Hook::Hold
            } else {
                Hook::Pass
            }
        })
    }

    /// Runs `safe_ad` through the relay and stops it with `signal` (Ctrl-C, SIGTERM) while a
    /// request is held; the held request goes on once safe-ad says it is stopping, so what it
    /// brings must still be given back. How the run ended.
    #[track_caller]
    pub fn stop_while_held(&self, safe_ad: SafeAd, signal: fn(&Running)) -> Output {
        let running = safe_ad.launcher(&self.url).spawn();
        self.wait_held();
        signal(&running);
        running.wait_for_stderr("safe-ad: stopping:");
        self.release();
        running.wait()
    }

    /// Waits until a request is being held; fails after [`DEADLINE`].
    #[track_caller]
    pub fn wait_held(&self) {
        let (lock, changed) = &*self.gate;
        let deadline = Instant::now() + DEADLINE;
        let mut gate = lock.lock().unwrap();
        while gate.held == 0 {
            let now = Instant::now();
            assert!(now < deadline, "no request was held within {DEADLINE:?}");
            gate = changed.wait_timeout(gate, deadline - now).unwrap().0;
        }
    }

    /// Lets every held request (and any later one) pass.
    pub fn release(&self) {
        let (lock, changed) = &*self.gate;
        lock.lock().unwrap().open = true;
        changed.notify_all();
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.release();
    }
}
