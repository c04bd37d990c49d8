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

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CONNECTION, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, StatusCode};
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify};
use tokio::task::{JoinHandle, JoinSet};

use super::admin::{Admin, Handled};
use super::demo::{self, Origin};
use super::encoding::{hex, random_bytes};
use super::fault::{self, Fault, Plan};
use super::log::{self, ErrorBody, Note, RecordLog};
use super::routes::{self, Answer, App};
use super::state::Live;
use super::table::{self, Route};
use super::wire::Network;

/// How long the stop lets requests in progress finish before it cuts them off.
pub const GRACE: Duration = Duration::from_secs(1);

/// How long a connection may take to send a request head once it is ready for one, including the
/// time an idle keep-alive connection waits for its next request. Also the longest pause in a
/// request body (`routes::BODY_IDLE`).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(10);

/// The most connections open at once: room for safe-ad's largest `--jobs` (256) twice over, and
/// well under the usual limit of 1,024 open files.
pub const MAX_CONNECTIONS: usize = 512;

/// The body of the 503 that refuses a request once the emulator is stopping: the launcher's shape
/// for its own errors (`errorCode` 400 and a description).
pub const STOPPING_BODY: &str = r#"{"errorCode":400,"description":"safe-ad emulator is stopping: this request was not served"}"#;

/// How to start an emulator.
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
    /// Start with this network instead of the demo state (`--state`); no handles.
    pub network: Option<Network>,
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
pub struct Server {
    addr: SocketAddr,
    token: String,
    counters: Counters,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the token.
        f.debug_struct("Server").field("addr", &self.addr).finish()
    }
}

/// What a stopped server leaves: the network, the live handles and the counts, all taken after
/// the last request ended.
#[derive(Debug, Clone)]
pub struct Stopped {
    pub network: Network,
    pub live: Live,
    pub stats: Stats,
}

impl Server {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its base URL, `http://127.0.0.1:<port>` (no trailing slash).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The token it was started with (it carries `LOW_LEVEL_API`).
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The live request counts, readable after the server is gone.
    pub fn counters(&self) -> Counters {
        self.counters.clone()
    }

    /// How many handles of each type are live now.
    pub fn live(&self) -> Live {
        self.shared.app.state().live()
    }

    /// What is on the "network" now.
    pub fn network(&self) -> Network {
        let state = self.shared.app.state();
        let (ads, sds, ids) = state.network();
        Network {
            appendable_data: ads.into_iter().cloned().collect(),
            structured_data: sds.into_iter().cloned().collect(),
            immutable_data: ids.into_iter().cloned().collect(),
        }
    }

    /// The ordered stop: no new connections, requests not started refused, requests in progress
    /// given [`GRACE`] to finish (or less, if `hurry` resolves first) and then cut off; then the
    /// snapshot. Returns once no request is left.
    pub async fn stop(mut self, hurry: impl Future<Output = ()>) -> Stopped {
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
pub fn check_token(token: &str) -> Result<(), String> {
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
    let origin = match options.network {
        Some(network) => Origin::Network(network),
        None if options.empty => Origin::Empty,
        None => Origin::Demo,
    };
    let state = demo::fresh(origin, &token);
    let listener = TcpListener::bind(options.listen).await?;
    let addr = listener.local_addr()?;
    let counters = Counters::default();
    let (phase, watching) = watch::channel(Phase::Serving);
    let shared = Arc::new(Shared {
        app: App::new(
            state,
            options.deny_auth,
            options.hang_unknown_clears,
            options.strict_paths,
        ),
        log_requests: options.log_requests,
        records: options.records,
        admin: Admin::new(&token),
        faults,
        counters: counters.clone(),
        token: token.clone(),
        stopping: AtomicBool::new(false),
        phase,
        ticks: AtomicU64::new(0),
    });
    let accept = tokio::spawn(accept_loop(listener, Arc::clone(&shared), watching));
    Ok(Server {
        addr,
        token,
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
    /// The startup token, kept out of the logs.
    token: String,
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
pub struct Counters(Arc<Tallies>);

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
    pub fn snapshot(&self) -> Stats {
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
pub struct Stats {
    pub requests: u64,
    pub answered_2xx: u64,
    pub answered_4xx: u64,
    pub injected_503: u64,
    pub dropped: u64,
    pub delayed: u64,
    pub refused: u64,
    pub aborted: u64,
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

async fn accept_loop(
    listener: TcpListener,
    shared: Arc<Shared>,
    mut watching: watch::Receiver<Phase>,
) {
    let mut connections = JoinSet::new();
    let mut open: HashMap<tokio::task::Id, Arc<Conn>> = HashMap::new();
    let mut said_full = false;
    let mut said_error = false;
    loop {
        // At the bound, close the connection idle the longest; with none idle, wait for one.
        let closing = open
            .values()
            .filter(|c| c.closing.load(Ordering::Relaxed))
            .count();
        if open.len() - closing >= MAX_CONNECTIONS {
            if !said_full {
                said_full = true;
                log::line(format!(
                    "safe-ad emulator: {MAX_CONNECTIONS} connections are open, its bound: the one \
                     idle the longest is closed for each new one\n"
                ));
            }
            close_longest_idle(&open);
        }
        let room = open.len() < MAX_CONNECTIONS;
        tokio::select! {
            () = reached(&mut watching, Phase::Draining) => break,
            Some(ended) = connections.join_next_with_id() => {
                let id = match ended {
                    Ok((id, ())) => id,
                    Err(error) => error.id(),
                };
                open.remove(&id);
            }
            accepted = listener.accept(), if room => match accepted {
                Ok((stream, _peer)) => {
                    let conn = Arc::new(Conn {
                        busy: AtomicU32::new(0),
                        last: AtomicU64::new(shared.tick()),
                        closing: AtomicBool::new(false),
                        close: Notify::new(),
                    });
                    let task = connections.spawn(serve(
                        stream,
                        Arc::clone(&shared),
                        Arc::clone(&conn),
                        watching.clone(),
                    ));
                    open.insert(task.id(), conn);
                }
                Err(error) => {
                    // Out of file descriptors and the like: make room, wait a little, go on.
                    if !said_error {
                        said_error = true;
                        log::line(format!(
                            "safe-ad emulator: cannot accept a connection: {error}; closing idle \
                             connections to make room\n"
                        ));
                    }
                    close_longest_idle(&open);
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            },
        }
    }
    // Accept nothing more: the listener goes, and each connection has seen the phase change.
    drop(listener);
    loop {
        tokio::select! {
            ended = connections.join_next() => if ended.is_none() { break },
            () = reached(&mut watching, Phase::Abort) => {
                connections.abort_all();
                while connections.join_next().await.is_some() {}
                break;
            }
        }
    }
}

/// Tells the idle connection with the oldest activity to close.
fn close_longest_idle(open: &HashMap<tokio::task::Id, Arc<Conn>>) {
    let idle = open
        .values()
        .filter(|c| c.busy.load(Ordering::Relaxed) == 0 && !c.closing.load(Ordering::Relaxed))
        .min_by_key(|c| c.last.load(Ordering::Relaxed));
    if let Some(conn) = idle {
        conn.closing.store(true, Ordering::Relaxed);
        conn.close.notify_one();
    }
}

async fn serve(
    stream: TcpStream,
    shared: Arc<Shared>,
    conn: Arc<Conn>,
    mut watching: watch::Receiver<Phase>,
) {
    let _ = stream.set_nodelay(true);
    let serving = Arc::clone(&conn);
    let service = service_fn(move |request| {
        let shared = Arc::clone(&shared);
        let conn = Arc::clone(&serving);
        async move { answer(&shared, &conn, request).await }
    });
    let connection = http1::Builder::new()
        .keep_alive(true)
        .timer(TokioTimer::new())
        .header_read_timeout(IDLE_TIMEOUT)
        .serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => {}
        () = conn.close.notified() => {}
        () = reached(&mut watching, Phase::Draining) => {
            // Idle connections close now, busy ones after their answer; the accept loop cuts off
            // the rest after the grace time.
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        }
    }
}

/// Whether a request may get an injected fault: the four operations and metadata.
fn takes_faults(request: &Request<Incoming>, strict: bool) -> bool {
    table::find(request.method(), request.uri().path(), strict).is_some_and(|found| {
        matches!(
            found.def.route,
            Route::Put | Route::Post | Route::ClearData | Route::ClearDeletedData | Route::Metadata
        )
    })
}

/// One request from its start to its log line. Dropped before it logged (the stop cut it off),
/// it logs itself as cut off, so that every request counted is also logged.
struct InFlight<'a> {
    shared: &'a Shared,
    conn: &'a Conn,
    started: Instant,
    /// Method and redacted path.
    label: (Method, String),
    /// For the emulator's own routes: logged, but kept out of the journal.
    admin: bool,
    logged: bool,
}

impl InFlight<'_> {
    /// Logs the request with its status (none when unanswered), what happened besides, and the
    /// body of its answer (for the error of a 4xx or 5xx).
    fn log(&mut self, status: Option<StatusCode>, note: Note, body: &[u8]) {
        self.logged = true;
        let shared = self.shared;
        let elapsed = self.started.elapsed();
        let error = status
            .and_then(|status| ErrorBody::of(status.as_u16(), body))
            .map(|mut error| {
                // An answer may carry what the client sent; the token never reaches a log.
                if let std::borrow::Cow::Owned(clean) =
                    log::redact_text(&error.description, &shared.token)
                {
                    error.description = clean;
                }
                error
            });
        let (method, path) = &mut self.label;
        if shared.log_requests {
            let status = status.map_or(String::new(), |s| s.as_str().to_owned());
            log::line(log::request_line(
                method.as_str(),
                path,
                &note.shown(&status),
                error.as_ref(),
                elapsed,
            ));
        }
        if self.admin && shared.records.is_none() {
            return;
        }
        let request = log::Request {
            seq: None,
            method: method.clone(),
            path: std::mem::take(path),
            status: status.map(|s| s.as_u16()),
            error,
            elapsed,
            note,
            live: shared.app.state().live(),
        };
        let record = |request: &log::Request| {
            if let Some(records) = &shared.records {
                records.record(request.record());
            }
        };
        if self.admin {
            record(&request);
        } else {
            // Numbered as it is kept, so the journal and `--log` give a request the same `seq`.
            shared.admin.journal.push(request, record);
        }
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if !self.logged {
            Counters::add(&self.shared.counters.0.aborted);
            self.log(None, Note::Aborted, &[]);
        }
        self.conn.busy.fetch_sub(1, Ordering::Relaxed);
        self.conn.last.store(self.shared.tick(), Ordering::Relaxed);
    }
}

async fn answer(
    shared: &Shared,
    conn: &Conn,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Dropped> {
    conn.busy.fetch_add(1, Ordering::Relaxed);
    let tallies = &shared.counters.0;
    Counters::add(&tallies.requests);
    let mut this = InFlight {
        shared,
        conn,
        started: Instant::now(),
        label: (
            request.method().clone(),
            log::redact(request.uri().path(), &shared.token).into_owned(),
        ),
        admin: false,
        logged: false,
    };
    if shared.stopping.load(Ordering::SeqCst) {
        Counters::add(&tallies.refused);
        this.log(
            Some(StatusCode::SERVICE_UNAVAILABLE),
            Note::Stopping,
            STOPPING_BODY.as_bytes(),
        );
        let mut refused = response(
            StatusCode::SERVICE_UNAVAILABLE,
            "application/json; charset=utf-8",
            Bytes::from_static(STOPPING_BODY.as_bytes()),
        );
        refused
            .headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
        return Ok(refused);
    }
    if shared.admin.takes(&request) {
        this.admin = true;
        return own_route(shared, &mut this, request).await;
    }
    let fault = if shared.faults.is_active() && takes_faults(&request, shared.app.strict_paths) {
        shared.faults.fault(Counters::add(&tallies.eligible))
    } else {
        None
    };
    let mut delayed = None;
    match fault {
        None => {}
        Some(Fault::Unavailable) => {
            Counters::add(&tallies.injected_503);
            this.log(
                Some(StatusCode::SERVICE_UNAVAILABLE),
                Note::Unavailable,
                fault::UNAVAILABLE_BODY.as_bytes(),
            );
            return Ok(response(
                StatusCode::SERVICE_UNAVAILABLE,
                "application/json; charset=utf-8",
                Bytes::from_static(fault::UNAVAILABLE_BODY.as_bytes()),
            ));
        }
        Some(Fault::Drop) => {
            Counters::add(&tallies.dropped);
            this.log(None, Note::Dropped, &[]);
            return Err(Dropped);
        }
        Some(Fault::Delay(delay)) => {
            Counters::add(&tallies.delayed);
            tokio::time::sleep(delay).await;
            delayed = Some(delay);
        }
    }
    let note = delayed.map_or(Note::None, |d| Note::Delayed(d.as_millis()));
    let answer = routes::respond(&shared.app, request).await;
    send(shared, &mut this, answer, note).await
}

/// Sends an answer (or none), counted and logged.
async fn send(
    shared: &Shared,
    this: &mut InFlight<'_>,
    answer: Answer,
    note: Note,
) -> Result<Response<Full<Bytes>>, Dropped> {
    let tallies = &shared.counters.0;
    match answer {
        Answer::Reply(reply) => {
            if reply.status.is_success() {
                Counters::add(&tallies.answered_2xx);
            } else if reply.status.is_client_error() {
                Counters::add(&tallies.answered_4xx);
            }
            this.log(Some(reply.status), note, &reply.body);
            let mut sent = response(reply.status, reply.content_type, reply.body);
            for (name, value) in reply.headers {
                if let Ok(value) = HeaderValue::from_str(&value) {
                    sent.headers_mut().insert(name, value);
                }
            }
            Ok(sent)
        }
        Answer::TimedOut => {
            this.log(None, Note::TimedOut, &[]);
            Err(Dropped)
        }
        Answer::Hang => {
            this.log(None, Note::Hung, &[]);
            // Unanswered until the stop, which closes the connection.
            let mut watching = shared.phase.subscribe();
            reached(&mut watching, Phase::Draining).await;
            Err(Dropped)
        }
    }
}

/// A request for the emulator's own routes (see `admin`): answered, logged (not journaled), and a
/// reset also counts faults from the start again and is logged in `--log`.
async fn own_route(
    shared: &Shared,
    this: &mut InFlight<'_>,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Dropped> {
    let Handled {
        answer,
        reset,
        dropped,
    } = shared.admin.respond(&shared.app, request).await;
    if let Some(to) = reset {
        shared.counters.0.eligible.store(0, Ordering::Relaxed);
        if let Some(records) = &shared.records {
            let live = shared.app.state().live();
            records.record(log::reset_record(to, &live));
        }
    }
    let mut sent = send(shared, this, answer, Note::None).await?;
    if let Some(dropped) = dropped {
        sent.headers_mut()
            .insert(JOURNAL_DROPPED, HeaderValue::from(dropped));
    }
    Ok(sent)
}

/// The header of the journal's answer that counts the older records it dropped.
const JOURNAL_DROPPED: &str = "safe-ad-journal-dropped";

fn response(status: StatusCode, content_type: &'static str, body: Bytes) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = status;
    if !content_type.is_empty() {
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    response
}
