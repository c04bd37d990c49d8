//! A relay on loopback in front of an emulator: each request is passed on whole (body included,
//! through [`super::losing`]'s reading and passing on), answered in the emulator's place, or held
//! before the emulator sees it until the test lets it go. For scenarios the emulator cannot make
//! itself: one failing step in the middle of a chain, or a request still in flight when a
//! signal comes, or an answer made over into one the launcher never gives. Every request passed
//! on is kept with the emulator's answer, so a test can find which requests of a command made a
//! handle (those answered with a `handleId`).

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use super::losing::{pass_on, read_request};
use super::{Output, Running, SafeAd, DEADLINE};

/// What the relay does with one request, chosen by the test from its request line.
pub enum Hook {
    /// Passes it on to the emulator and its answer back.
    Pass,
    /// Answers it with these bytes (a whole HTTP answer) instead.
    Answer(&'static [u8]),
    /// Holds it until [`Relay::release`], then passes it on.
    Hold,
    /// Passes it on, and answers the client with the emulator's answer as this function
    /// makes it over (a value the launcher never sends in an answer the emulator gave).
    Rewrite(fn(&[u8]) -> Vec<u8>),
}

#[derive(Default)]
struct Gate {
    /// Requests held so far.
    held: usize,
    /// Held requests that were then passed on and answered by the emulator.
    passed_after_hold: usize,
    open: bool,
    /// Every request passed on (`METHOD /path`), with the emulator's answer's bytes.
    exchanges: Vec<(String, Vec<u8>)>,
}

type Shared = Arc<(Mutex<Gate>, Condvar)>;

/// The relay: point safe-ad at `url`.
pub struct Relay {
    pub url: String,
    gate: Shared,
}

impl Relay {
    /// Relays to the emulator at `target`; `hook` sees each request line (`GET /path HTTP/1.1`).
    pub fn start(target: SocketAddr, hook: impl Fn(&str) -> Hook + Send + Sync + 'static) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let gate: Shared = Arc::default();
        let shared = Arc::clone(&gate);
        let hook = Arc::new(hook);
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let gate = Arc::clone(&shared);
                let hook = Arc::clone(&hook);
                std::thread::spawn(move || serve(client, target, &gate, &*hook));
            }
        });
        Relay { url, gate }
    }

    /// Passes every request on: to learn what a command sends.
    pub fn passing(target: SocketAddr) -> Relay {
        Relay::start(target, |_| Hook::Pass)
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
        self.stop(safe_ad.launcher(&self.url).spawn(), signal, false)
    }

    /// Stops `running` (pointed at the relay) with `signal` once one of its requests is held.
    /// Once it says it is stopping, the held request goes on; or, `twice`, a second Ctrl-C
    /// makes it leave at once, and the held request goes on after it exited. Either way the
    /// held requests have reached the emulator when this returns. How the run ended.
    #[track_caller]
    pub fn stop(&self, running: Running, signal: fn(&Running), twice: bool) -> Output {
        self.wait_held();
        signal(&running);
        running.wait_for_stderr("safe-ad: stopping:");
        let output = match twice {
            true => {
                running.interrupt_again();
                running.wait()
            }
            false => {
                self.release();
                running.wait()
            }
        };
        self.release_and_settle();
        output
    }

    /// Every request passed on so far (`METHOD /path`) and the emulator's answer to it.
    pub fn exchanges(&self) -> Vec<(String, Vec<u8>)> {
        self.gate.0.lock().unwrap().exchanges.clone()
    }

    /// Waits until a request is being held; fails after [`DEADLINE`].
    #[track_caller]
    pub fn wait_held(&self) {
        self.wait_held_at_least(1);
    }

    /// Waits until `count` requests are being held; fails after [`DEADLINE`].
    #[track_caller]
    pub fn wait_held_at_least(&self, count: usize) {
        self.wait(&format!("{count} requests to be held"), |gate| {
            gate.held >= count
        });
    }

    /// Lets every held request (and any later one) pass.
    pub fn release(&self) {
        let (lock, changed) = &*self.gate;
        lock.lock().unwrap().open = true;
        changed.notify_all();
    }

    /// Lets the held requests pass, and waits until the emulator has answered each: what they
    /// made is in the emulator then, whether or not the client was still there to hear it.
    #[track_caller]
    pub fn release_and_settle(&self) {
        self.release();
        self.wait("the held requests to reach the emulator", |gate| {
            gate.passed_after_hold >= gate.held
        });
    }

    #[track_caller]
    fn wait(&self, what: &str, ready: impl Fn(&Gate) -> bool) {
        let (lock, changed) = &*self.gate;
        let deadline = Instant::now() + DEADLINE;
        let mut gate = lock.lock().unwrap();
        while !ready(&gate) {
            let now = Instant::now();
            assert!(now < deadline, "waited {DEADLINE:?} for {what}");
            gate = changed.wait_timeout(gate, deadline - now).unwrap().0;
        }
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.release();
    }
}

/// One client connection: request after request, each answered in place, or passed on (a held
/// one once let go) and its answer written back while the client is there.
fn serve(
    mut client: TcpStream,
    target: SocketAddr,
    gate: &(Mutex<Gate>, Condvar),
    hook: &(dyn Fn(&str) -> Hook + Send + Sync),
) {
    use std::io::Write;
    let _ = client.set_read_timeout(Some(DEADLINE));
    let mut pending = Vec::new();
    while let Some((line, request)) = read_request(&mut client, &mut pending) {
        let (lock, changed) = gate;
        let hooked = hook(&line);
        let rewrite = match hooked {
            Hook::Rewrite(rewrite) => Some(rewrite),
            _ => None,
        };
        let held = match hooked {
            Hook::Answer(answer) => {
                if client.write_all(answer).is_err() {
                    return;
                }
                continue;
            }
            Hook::Hold => {
                let mut state = lock.lock().unwrap();
                state.held += 1;
                changed.notify_all();
                while !state.open {
                    state = changed.wait(state).unwrap();
                }
                true
            }
            Hook::Pass | Hook::Rewrite(_) => false,
        };
        let answer = pass_on(target, &request);
        {
            let mut state = lock.lock().unwrap();
            let short: String = line.split(' ').take(2).collect::<Vec<_>>().join(" ");
            state.exchanges.push((short, answer.clone()));
            if held {
                state.passed_after_hold += 1;
            }
            changed.notify_all();
        }
        let answer = rewrite.map_or(answer.clone(), |rewrite| rewrite(&answer));
        if client.write_all(&answer).is_err() {
            return;
        }
    }
}
