//! A proxy on loopback in front of an emulator that passes every request on whole (body
//! included, as [`super::losing`] does) and holds the one the test picks before the emulator
//! sees it, until the test lets it go: a handle-making request in flight when a signal comes.
//! Every request passed on is kept with the emulator's answer, so a test can find which
//! requests of a command made a handle (those answered with a `handleId`).

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use super::losing::{pass_on, read_request};
use super::DEADLINE;

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

/// The proxy: point safe-ad at `url`.
pub struct HoldingProxy {
    pub url: String,
    gate: Shared,
}

impl HoldingProxy {
    /// Passes requests on to `target`, holding those whose line (`GET /path HTTP/1.1`) `hold`
    /// picks until [`HoldingProxy::release`].
    pub fn start(target: SocketAddr, hold: impl Fn(&str) -> bool + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let gate: Shared = Arc::default();
        let shared = Arc::clone(&gate);
        let hold = Arc::new(hold);
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let gate = Arc::clone(&shared);
                let hold = Arc::clone(&hold);
                std::thread::spawn(move || serve(client, target, &gate, &*hold));
            }
        });
        HoldingProxy { url, gate }
    }

    /// Passes every request on, holding none: to learn what a command sends.
    pub fn passing(target: SocketAddr) -> Self {
        HoldingProxy::start(target, |_| false)
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
        self.wait("the held request to reach the emulator", |gate| {
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

impl Drop for HoldingProxy {
    fn drop(&mut self) {
        self.release();
    }
}

/// One client connection: request after request, each passed on (a picked one once let go) and
/// its answer written back while the client is there.
fn serve(
    mut client: TcpStream,
    target: SocketAddr,
    gate: &(Mutex<Gate>, Condvar),
    hold: &(dyn Fn(&str) -> bool + Send + Sync),
) {
    use std::io::Write;
    let _ = client.set_read_timeout(Some(DEADLINE));
    let mut pending = Vec::new();
    while let Some((line, request)) = read_request(&mut client, &mut pending) {
        let held = hold(&line);
        if held {
            let (lock, changed) = gate;
            let mut state = lock.lock().unwrap();
            state.held += 1;
            changed.notify_all();
            while !state.open {
                state = changed.wait(state).unwrap();
            }
        }
        let answer = pass_on(target, &request);
        {
            let (lock, changed) = gate;
            let mut state = lock.lock().unwrap();
            let short: String = line.split(' ').take(2).collect::<Vec<_>>().join(" ");
            state.exchanges.push((short, answer.clone()));
            if held {
                state.passed_after_hold += 1;
            }
            changed.notify_all();
        }
        if client.write_all(&answer).is_err() {
            return;
        }
    }
}
