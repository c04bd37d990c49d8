//! The emulator in-process as a test fixture: `safe_ad_emulator::test_support::start` on a thread
//! with its own runtime (as a separate process would be), on a free loopback port; stopped when
//! dropped.
//! For the route tests, which need no process around it; [`super::emulator`] has the binary.
// Some helpers serve only the tests of the `safe-ad emulator` binary, which need the feature.
#![cfg_attr(not(feature = "emulator"), allow(dead_code))]

use std::net::SocketAddr;
use std::thread::JoinHandle;

use safe_ad_emulator::test_support::{start, Options};
use serde_json::{json, Value};

use super::http::{name, request, send, token_with, Resp};
use super::{wait_until, DEADLINE};

/// An in-process emulator; stopped when dropped.
pub struct Emu {
    pub addr: SocketAddr,
    /// The startup token, which has `LOW_LEVEL_API`.
    pub token: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Emu {
    /// Started with these options.
    pub fn with(options: Options) -> Emu {
        let (ready, started) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let server = start(options).await.expect("emulator starts");
                ready
                    .send((server.addr(), server.token().to_owned()))
                    .expect("test alive");
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

    /// The demo state, default switches.
    pub fn demo() -> Emu {
        Emu::with(Options::default())
    }

    /// No demo state: handle ids start at 0.
    pub fn empty() -> Emu {
        Emu::with(Options {
            empty: true,
            ..Options::default()
        })
    }

    /// Stops it; fails if it has not stopped within [`DEADLINE`] or its thread panicked.
    #[track_caller]
    pub fn stop(mut self) {
        self.shut_down();
    }

    /// Tells the server to stop and waits, until [`DEADLINE`], for its thread to end.
    #[track_caller]
    fn shut_down(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let Some(thread) = self.thread.take() else {
            return;
        };
        wait_until("the emulator to stop", DEADLINE, || {
            thread.is_finished().then_some(())
        });
        thread.join().expect("the emulator's thread");
    }

    /// `Bearer <startup token>`, the Authorization header value.
    pub fn bearer(&self) -> String {
        format!("Bearer {}", self.token)
    }

    /// A request: with `Authorization: Bearer <token>` when a token is given, and a body of the
    /// given content type when there is one.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<(&str, &[u8])>,
    ) -> Resp {
        request(self.addr, method, path, token, body)
    }

    /// A request with the startup token.
    pub fn authed(&self, method: &str, path: &str) -> Resp {
        self.request(method, path, Some(&self.token), None)
    }

    /// A request without any Authorization header.
    pub fn anon(&self, method: &str, path: &str) -> Resp {
        send(self.addr, method, path, &[], None)
    }

    /// A JSON request with the given Authorization header value (if any).
    pub fn json(&self, method: &str, path: &str, auth: Option<&str>, body: &str) -> Resp {
        let mut headers = vec![("Content-Type", "application/json")];
        if let Some(auth) = auth {
            headers.push(("Authorization", auth));
        }
        send(self.addr, method, path, &headers, Some(body.as_bytes()))
    }

    /// A token from `POST /auth` that carries exactly these permissions (a JSON array).
    pub fn token_with(&self, permissions: &str) -> String {
        token_with(self.addr, permissions)
    }

    /// `POST /appendable-data` with the startup token, the name made of `byte` and the fields of
    /// `extra`: the new handle.
    #[track_caller]
    pub fn create(&self, byte: u8, extra: Value) -> u64 {
        let mut body = json!({ "name": name(byte) });
        if let (Value::Object(body), Value::Object(extra)) = (&mut body, extra) {
            body.extend(extra);
        }
        self.json(
            "POST",
            "/appendable-data",
            Some(&self.bearer()),
            &body.to_string(),
        )
        .handle()
    }

    /// Metadata of an appendable-data handle, read with the startup token.
    #[track_caller]
    pub fn meta(&self, handle: u64) -> Value {
        let r = self.authed("GET", &format!("/appendable-data/metadata/{handle}"));
        assert_eq!(r.status, 200, "metadata {handle}: {}", r.body);
        r.json()
    }

    /// What the network holds for the appendable data a data-id handle names, fetched with the
    /// startup token into a fresh handle: the answer, which carries the handle and its counts.
    #[track_caller]
    pub fn fetch(&self, data_id: u64) -> Value {
        let r = self.authed("GET", &format!("/appendable-data/handle/{data_id}"));
        assert_eq!(r.status, 200, "fetch {data_id}: {}", r.body);
        r.json()
    }
}

impl Drop for Emu {
    fn drop(&mut self) {
        // A failing test is already unwinding: a second panic would abort the run.
        if std::thread::panicking() {
            if let Some(stop) = self.stop.take() {
                let _ = stop.send(());
            }
            return;
        }
        self.shut_down();
    }
}
