//! The emulator's server: binding (loopback only), the accept loop, HTTP/1.1 keep-alive
//! connections and their bounds, per-request logging and counting, injected faults (see
//! `fault`), hanging requests, and the ordered stop.
//!
//! [`start`] is the library entry point: it needs a running tokio runtime (current-thread is
//! enough), binds, and returns a [`Server`] with the bound address, the token and the handle that
//! stops it. Dropping the `Server` also stops it, without waiting. A hanging request (see
//! `--hang-unknown-clears`) holds only its own connection: other connections keep being served,
//! and the stop ends it. An injected "dropped connection" ends the service call with an error,
//! which makes hyper close the socket without writing anything.
//!
//! Bounds, so that a shared CI machine is not hurt by a stray client: a connection must send a
//! whole request head within [`IDLE_TIMEOUT`] of being ready for one (that is also how long an
//! idle keep-alive connection stays open), a request body may pause at most as long (`routes`),
//! and at most [`MAX_CONNECTIONS`] are open at once. At that bound (or when the process runs out
//! of file descriptors) the connection idle the longest is closed to make room, so the requests
//! in progress keep being served and a new client is not locked out by idle ones.
//!
//! [`Server::stop`] stops in order: it stops accepting (the listener is closed), refuses every
//! request that has not started (503, see [`STOPPING_BODY`]) while the ones in progress finish
//! (for at most [`GRACE`], or until the caller hurries it), cuts off what is left unanswered, and
//! only then takes the snapshot of the network and the counts. So every write answered 2xx is in
//! the snapshot, and every request counted has been logged.
//!
//! Every request is counted, logged on stderr when asked (`log_requests`), recorded in the `--log`
//! file when there is one, with the live handle counts after it, and kept in the journal of the
//! emulator's own routes (`admin`), which a request with the emulator's token under `/_emulator/`
//! reaches before any launcher route is looked at.
//!
//! By part: the server, its options, shared state and counts are here; the accept loop and each
//! connection's service in `connection`; a request from its start to its answer and log line
//! (faults, the emulator's own routes) in `request`. The headers Express put on the launcher's
//! answers (`X-Powered-By`, `ETag`, the 304) are the launcher family's (`launcher::express`).

use std::fmt;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{watch, Notify};
use tokio::task::JoinHandle;

use crate::launcher::demo::{self, Origin};
use crate::launcher::encoding::{hex, random_bytes};
use crate::launcher::routes::App;
use crate::launcher::state::{roster, Live};
use crate::launcher::wire::Network;
use crate::service::admin::Admin;
use crate::service::fault::{self, Plan};
use crate::service::log::{self, RecordLog};

mod connection;
mod request;

use connection::accept_loop;

/// How long the stop lets requests in progress finish before it cuts them off.
pub(crate) const GRACE: Duration = Duration::from_secs(1);

/// How long a connection may take to send a request head once it is ready for one, including the
/// time an idle keep-alive connection waits for its next request. Also the longest pause in a
/// request body (`routes::BODY_IDLE`).
///
/// Public for safe-ad's tests, which check it; no API for other programs.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(10);

/// The most connections open at once: room for safe-ad's largest `--jobs` (256) twice over, and
/// well under the usual limit of 1,024 open files.
///
/// Public for safe-ad's tests, which check it; no API for other programs.
pub const MAX_CONNECTIONS: usize = 512;

/// The body of the 503 that refuses a request once the emulator is stopping: the launcher's shape
/// for its own errors (`errorCode` 400 and a description).
///
/// Public for safe-ad's tests, which check it; no API for other programs.
pub const STOPPING_BODY: &str = r#"{"errorCode":400,"description":"safe-ad emulator is stopping: this request was not served"}"#;

/// How to start an emulator.
///
/// Public for safe-ad's tests, which start emulators in-process; no API for other programs.
#[derive(Debug, Clone)]
pub struct Options {
    /// Where to listen; must be a loopback address. Port 0 picks a free port.
    pub listen: SocketAddr,
    /// The token to accept (with `LOW_LEVEL_API`); `None` makes a random one.
    pub token: Option<String>,
    /// Start without the demo state (see `demo`).
    pub empty: bool,
    /// Deny every valid `POST /auth` (401 `Unauthorised`).
    pub deny_auth: bool,
    /// Never answer a clear of an unknown handle, like the real launcher.
    pub hang_unknown_clears: bool,
    /// Match paths exactly and take only canonical decimal handles (`--strict-paths`).
    pub strict_paths: bool,
    /// Write one line per request on stderr.
    pub log_requests: bool,
    /// Write one JSON record per request to this log (`--log`).
    pub records: Option<RecordLog>,
    /// Start with this network instead of the demo state (`--state`); no handles. It brings its
    /// users (those `users` named among them, as it was read).
    pub network: Option<Network>,
    /// The users to serve, by name (`--user`), in order, when no `network` brings them; none:
    /// the one unnamed user.
    pub users: Vec<String>,
    /// The share of operation and metadata requests (0 to 1) that get an injected fault: a 503,
    /// a dropped connection or a 50-300 ms delay (see `fault`).
    pub fault_rate: f64,
    /// The seed of the fault sequence; the same seed repeats the same faults.
    pub fault_seed: u64,
}

impl Default for Options {
    /// Loopback, a free port, a random token, the demo state, no log, no faults.
    fn default() -> Options {
        Options {
            listen: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0),
            token: None,
            empty: false,
            deny_auth: false,
            hang_unknown_clears: false,
            strict_paths: false,
            log_requests: false,
            records: None,
            network: None,
            users: Vec::new(),
            fault_rate: 0.0,
            fault_seed: fault::DEFAULT_SEED,
        }
    }
}

/// Where the server is in its life; the accept loop and every connection watch it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Serving,
    /// Accept nothing more, refuse requests not started, let the ones in progress finish.
    Draining,
    /// Cut off whatever is still open.
    Abort,
}

/// A running emulator. Dropping it stops it at once, without the ordered stop.
///
/// Public for safe-ad's tests, which start emulators in-process; no API for other programs.
pub struct Server {
    /// Where each user's launcher listens and the token it was started with, in the roster's
    /// order: the first is the emulator's own (`--listen`, `--token`).
    doors: Vec<Door>,
    counters: Counters,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

/// One user's launcher as it is reached: its user's name (none for the one unnamed user), where
/// it listens and the token it was started with.
#[derive(Clone)]
pub(crate) struct Door {
    pub(crate) name: Option<String>,
    pub(crate) addr: SocketAddr,
    pub(crate) token: String,
}

impl Door {
    /// Its base URL, `http://127.0.0.1:<port>` (no trailing slash).
    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the token.
        f.debug_struct("Server")
            .field("addr", &self.addr())
            .finish()
    }
}

/// What a stopped server leaves: the network, the live handles and the counts, all taken after
/// the last request ended.
#[derive(Debug, Clone)]
pub(crate) struct Stopped {
    pub(crate) network: Network,
    pub(crate) live: Live,
    pub(crate) stats: Stats,
}

impl Server {
    /// The address it listens on (the first user's).
    pub fn addr(&self) -> SocketAddr {
        self.doors[0].addr
    }

    /// Its base URL, `http://127.0.0.1:<port>` (no trailing slash): the first user's.
    pub(crate) fn url(&self) -> String {
        self.doors[0].url()
    }

    /// The token it was started with (it carries `LOW_LEVEL_API`): the first user's.
    pub fn token(&self) -> &str {
        &self.doors[0].token
    }

    /// Where user `name` listens and the token its launcher was started with; `None` when it
    /// serves no user of that name.
    pub fn user(&self, name: &str) -> Option<(SocketAddr, &str)> {
        self.doors
            .iter()
            .find(|door| door.name.as_deref() == Some(name))
            .map(|door| (door.addr, door.token.as_str()))
    }

    /// Every user's launcher as it is reached, the first user's first.
    pub(crate) fn doors(&self) -> &[Door] {
        &self.doors
    }

    /// Each named user's variables, `SAFE_AD_EMULATOR_USER_<NAME>_URL` and `..._TOKEN` (the name
    /// in capitals), in the roster's order: none without `--user`.
    pub(crate) fn user_variables(&self) -> Vec<(String, String)> {
        let mut variables = Vec::new();
        for door in &self.doors {
            if let Some(name) = &door.name {
                let prefix = format!("SAFE_AD_EMULATOR_USER_{}", name.to_ascii_uppercase());
                variables.push((format!("{prefix}_URL"), door.url()));
                variables.push((format!("{prefix}_TOKEN"), door.token.clone()));
            }
        }
        variables
    }

    /// How many handles of each type are live now.
    pub(crate) fn live(&self) -> Live {
        self.shared.app.state().live()
    }

    /// What is on the "network" now.
    pub(crate) fn network(&self) -> Network {
        let state = self.shared.app.state();
        let (ads, sds, ids) = state.network();
        Network {
            appendable_data: ads.into_iter().cloned().collect(),
            structured_data: sds.into_iter().cloned().collect(),
            immutable_data: ids.into_iter().cloned().collect(),
            users: state.users(),
        }
    }

    /// The ordered stop: no new connections, requests not started refused, requests in progress
    /// given [`GRACE`] to finish (or less, if `hurry` resolves first) and then cut off; then the
    /// snapshot. Returns once no request is left.
    pub(crate) async fn stop(mut self, hurry: impl Future<Output = ()>) -> Stopped {
        self.shared.stopping.store(true, Ordering::SeqCst);
        let _ = self.shared.phase.send(Phase::Draining);
        if let Some(mut accept) = self.accept.take() {
            tokio::pin!(hurry);
            let finished = tokio::select! {
                _ = &mut accept => true,
                () = tokio::time::sleep(GRACE) => false,
                () = &mut hurry => false,
            };
            if !finished {
                let _ = self.shared.phase.send(Phase::Abort);
                let _ = accept.await;
            }
        }
        Stopped {
            network: self.network(),
            live: self.live(),
            stats: self.counters.snapshot(),
        }
    }

    /// [`Server::stop`] with the whole grace time, for callers that only want it stopped.
    pub async fn shutdown(self) {
        self.stop(std::future::pending()).await;
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.accept.is_some() {
            self.shared.stopping.store(true, Ordering::SeqCst);
            let _ = self.shared.phase.send(Phase::Abort);
        }
    }
}

/// Why a token given with `--token` cannot be used.
pub(crate) fn check_token(token: &str) -> Result<(), String> {
    if token.is_empty() {
        return Err("the token is empty".into());
    }
    if !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(
            "the token must be printable ASCII without spaces (it travels in an HTTP header)"
                .into(),
        );
    }
    Ok(())
}

/// Binds and starts serving on the current tokio runtime.
///
/// Fails with `InvalidInput` for a non-loopback address, an unusable token or a fault rate outside
/// 0 to 1, and with the bind error when the address cannot be used.
///
/// Public for safe-ad's tests, which start emulators in-process; no API for other programs.
pub async fn start(options: Options) -> io::Result<Server> {
    if !options.listen.ip().is_loopback() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is not a loopback address; the emulator listens on this machine only",
                options.listen
            ),
        ));
    }
    let faults = Plan::new(options.fault_rate, options.fault_seed)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let token = match options.token {
        Some(token) => {
            check_token(&token).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
            token
        }
        None => hex(&random_bytes::<16>()),
    };
    let users = match &options.network {
        Some(network) => network.users.clone(),
        None => roster(&options.users, &[]),
    };
    // The first user's launcher takes the emulator's token; each other one a random one.
    let tokens: Vec<String> = std::iter::once(token)
        .chain((1..users.len()).map(|_| hex(&random_bytes::<16>())))
        .collect();
    let origin = match options.network {
        Some(network) => Origin::Network(network),
        None if options.empty => Origin::Empty,
        None => Origin::Demo,
    };
    // The first user's launcher on `--listen`, each other one on a free port beside it.
    let mut listeners = Vec::with_capacity(users.len());
    let mut doors = Vec::with_capacity(users.len());
    for (index, (user, token)) in users.iter().zip(&tokens).enumerate() {
        let at = match index {
            0 => options.listen,
            _ => SocketAddr::new(options.listen.ip(), 0),
        };
        let listener = TcpListener::bind(at).await?;
        doors.push(Door {
            name: user.name.clone(),
            addr: listener.local_addr()?,
            token: token.clone(),
        });
        listeners.push(listener);
    }
    let state = demo::fresh(origin, users, &tokens);
    let counters = Counters::default();
    let (phase, watching) = watch::channel(Phase::Serving);
    let shared = Arc::new(Shared {
        app: App::new(
            state,
            options.deny_auth,
            options.hang_unknown_clears,
            options.strict_paths,
            // What the imitation has to say goes where the request lines go, never waiting.
            Box::new(|notice| log::line(notice.words())),
        ),
        log_requests: options.log_requests,
        records: options.records,
        admin: Admin::new(tokens.clone()),
        faults,
        counters: counters.clone(),
        tokens,
        names: doors.iter().map(|door| door.name.clone()).collect(),
        stopping: AtomicBool::new(false),
        phase,
        ticks: AtomicU64::new(0),
    });
    let accept = tokio::spawn(accept_loop(listeners, Arc::clone(&shared), watching));
    Ok(Server {
        doors,
        counters,
        shared,
        accept: Some(accept),
    })
}

struct Shared {
    app: App,
    log_requests: bool,
    records: Option<RecordLog>,
    /// The emulator's own routes and their journal.
    admin: Admin,
    faults: Plan,
    counters: Counters,
    /// The startup token of each user's launcher, by its place in the roster, kept out of the
    /// logs.
    tokens: Vec<String>,
    /// Each user's name, by its place in the roster (none for the one unnamed user), for the
    /// logs.
    names: Vec<Option<String>>,
    /// Set when the stop begins: requests that start from then on are refused.
    stopping: AtomicBool,
    phase: watch::Sender<Phase>,
    /// A clock of request starts and ends, to tell which connection was idle the longest.
    ticks: AtomicU64,
}

impl Shared {
    fn tick(&self) -> u64 {
        self.ticks.fetch_add(1, Ordering::Relaxed)
    }
}

/// Request counts of a running server; clones share them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Counters(Arc<Tallies>);

#[derive(Debug, Default)]
struct Tallies {
    requests: AtomicU64,
    /// Operation and metadata requests, the ones that may get a fault: numbers them for `fault`.
    eligible: AtomicU64,
    answered_2xx: AtomicU64,
    answered_4xx: AtomicU64,
    injected_503: AtomicU64,
    dropped: AtomicU64,
    delayed: AtomicU64,
    refused: AtomicU64,
    aborted: AtomicU64,
}

impl Counters {
    /// The counts so far.
    pub(crate) fn snapshot(&self) -> Stats {
        let t = &self.0;
        let get = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        Stats {
            requests: get(&t.requests),
            answered_2xx: get(&t.answered_2xx),
            answered_4xx: get(&t.answered_4xx),
            injected_503: get(&t.injected_503),
            dropped: get(&t.dropped),
            delayed: get(&t.delayed),
            refused: get(&t.refused),
            aborted: get(&t.aborted),
        }
    }

    fn add(counter: &AtomicU64) -> u64 {
        counter.fetch_add(1, Ordering::Relaxed)
    }
}

/// Request counts: every request received, the normal answers by class, the injected faults, and
/// the requests the stop refused (503) or cut off unanswered. A delayed request is also counted
/// by the answer it got after the delay.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Stats {
    pub(crate) requests: u64,
    pub(crate) answered_2xx: u64,
    pub(crate) answered_4xx: u64,
    pub(crate) injected_503: u64,
    pub(crate) dropped: u64,
    pub(crate) delayed: u64,
    pub(crate) refused: u64,
    pub(crate) aborted: u64,
}

impl fmt::Display for Stats {
    /// `requests: N, answered 2xx: A, 4xx: B, injected 503: C, dropped: D, delayed: E`, and
    /// `, refused while stopping: R, cut off by the stop: X` when either is not 0.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "requests: {}, answered 2xx: {}, 4xx: {}, injected 503: {}, dropped: {}, delayed: {}",
            self.requests,
            self.answered_2xx,
            self.answered_4xx,
            self.injected_503,
            self.dropped,
            self.delayed
        )?;
        if self.refused > 0 || self.aborted > 0 {
            write!(
                f,
                ", refused while stopping: {}, cut off by the stop: {}",
                self.refused, self.aborted
            )?;
        }
        Ok(())
    }
}

/// The service error that makes hyper close a connection without answering (an injected drop, a
/// body that stopped coming, a hanging request at the stop).
#[derive(Debug)]
struct Dropped;

impl fmt::Display for Dropped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("connection closed without an answer on purpose")
    }
}

impl std::error::Error for Dropped {}

/// Resolves once the phase is at least `phase`, or the server is gone.
async fn reached(watching: &mut watch::Receiver<Phase>, phase: Phase) {
    let _ = watching
        .wait_for(|now| match phase {
            Phase::Serving => true,
            Phase::Draining => *now != Phase::Serving,
            Phase::Abort => *now == Phase::Abort,
        })
        .await;
}

/// One open connection, as the accept loop sees it.
struct Conn {
    /// Requests being answered on it now (0 or 1 with HTTP/1.1).
    busy: AtomicU32,
    /// The tick of its last request start or end.
    last: AtomicU64,
    /// Set when the accept loop closes it to make room.
    closing: AtomicBool,
    close: Notify,
}
