//! The emulator's server: binding (loopback only), the accept loop, HTTP/1.1 keep-alive
//! connections, per-request logging and counting, injected faults (see `fault`), hanging
//! requests, and shutdown.
//!
//! [`start`] is the library entry point: it needs a running tokio runtime (current-thread is
//! enough), binds, and returns a [`Server`] with the bound address, the token and a shutdown
//! handle. Dropping the `Server` also stops it. A hanging request (see `--hang-unknown-clears`)
//! holds only its own connection: other connections keep being served, it ends when the client
//! goes away, and shutdown drops it. An injected "dropped connection" ends the service call with an
//! error, which makes hyper close the socket without writing anything.
//!
//! Every request is counted, logged on stderr when asked (`log_requests`), and recorded in the
//! `--log` file when there is one, with the live handle counts after it.

use std::fmt;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::StatusCode;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::demo;
use super::encoding::{hex, random_bytes};
use super::fault::{self, Fault, Plan};
use super::log::{self, Note, RecordLog};
use super::routes::{self, Answer, App};
use super::state::{Live, Permissions, State};
use super::table::{self, Route};
use super::wire::{self, StateFile};

/// How long shutdown lets an open connection finish its current answer.
const SHUTDOWN_GRACE: Duration = Duration::from_millis(250);

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
    /// Write one JSON record per request to this file (`--log`), created or truncated at start.
    pub log_file: Option<PathBuf>,
    /// Start with this network instead of the demo state (`--state`); no handles.
    pub network: Option<StateFile>,
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
            log_file: None,
            network: None,
            fault_rate: 0.0,
            fault_seed: fault::DEFAULT_SEED,
        }
    }
}

/// A running emulator. Dropping it stops it, as [`Server::shutdown`] does.
pub struct Server {
    addr: SocketAddr,
    token: String,
    stop: watch::Sender<bool>,
    accept: JoinHandle<()>,
    counters: Counters,
    shared: Arc<Shared>,
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the token.
        f.debug_struct("Server").field("addr", &self.addr).finish()
    }
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

    /// What is on the "network" now, as a `--state` file holds it.
    pub fn state_file(&self) -> StateFile {
        let state = self.shared.app.state();
        let (ads, sds) = state.network();
        StateFile {
            format: wire::STATE_FORMAT.to_owned(),
            appendable_data: ads.into_iter().map(wire::ad_json).collect(),
            structured_data: sds.into_iter().map(wire::sd_json).collect(),
        }
    }

    /// Writes a last record with the totals to the `--log` file (if any) and waits until all
    /// records are in it.
    pub fn close_log(&self, timeout: Duration) {
        if let Some(records) = &self.shared.records {
            let stats = self.counters.snapshot();
            records.record(format!(
                "{{\"event\":\"stop\",\"requests\":{},\"answered2xx\":{},\"answered4xx\":{},\"injected503\":{},\"dropped\":{},\"delayed\":{},\"handles\":{}}}\n",
                stats.requests,
                stats.answered_2xx,
                stats.answered_4xx,
                stats.injected_503,
                stats.dropped,
                stats.delayed,
                log::handles_json(&self.live())
            ));
            records.flush(timeout);
        }
    }

    /// Stops accepting, closes idle connections, gives busy ones a moment, drops hanging ones.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let accept = self.accept;
        let _ = accept.await;
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
    let mut state = State::new();
    if let Some(network) = &options.network {
        load(&mut state, network).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    } else if !options.empty {
        demo::install(&mut state);
    }
    state.add_session(
        token.clone(),
        Permissions {
            low_level_api: true,
            safe_drive_access: false,
        },
    );
    let listener = TcpListener::bind(options.listen).await?;
    let addr = listener.local_addr()?;
    let records = match &options.log_file {
        Some(path) => Some(RecordLog::create(path).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot write --log {}: {e}", path.display()),
            )
        })?),
        None => None,
    };
    let counters = Counters::default();
    let shared = Arc::new(Shared {
        app: App::new(
            state,
            options.deny_auth,
            options.hang_unknown_clears,
            options.strict_paths,
        ),
        log_requests: options.log_requests,
        records,
        faults,
        counters: counters.clone(),
        token: token.clone(),
    });
    let (stop, stopped) = watch::channel(false);
    let accept = tokio::spawn(accept_loop(listener, Arc::clone(&shared), stopped));
    Ok(Server {
        addr,
        token,
        stop,
        accept,
        counters,
        shared,
    })
}

/// Puts a `--state` file's network into an empty state.
fn load(state: &mut State, file: &StateFile) -> Result<(), String> {
    if file.format != wire::STATE_FORMAT {
        return Err(format!(
            "format `{}` is not `{}`",
            file.format,
            wire::STATE_FORMAT
        ));
    }
    for ad in &file.appendable_data {
        state.store(wire::ad_from(ad)?);
    }
    for sd in &file.structured_data {
        state.store_sd(wire::sd_from(sd)?);
    }
    Ok(())
}

struct Shared {
    app: App,
    log_requests: bool,
    records: Option<RecordLog>,
    faults: Plan,
    counters: Counters,
    /// The startup token, kept out of the logs.
    token: String,
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
        }
    }

    fn add(counter: &AtomicU64) -> u64 {
        counter.fetch_add(1, Ordering::Relaxed)
    }
}

/// Request counts: every request received, the normal answers by class, and the injected faults.
/// A delayed request is also counted by the answer it got after the delay.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    pub requests: u64,
    pub answered_2xx: u64,
    pub answered_4xx: u64,
    pub injected_503: u64,
    pub dropped: u64,
    pub delayed: u64,
}

impl fmt::Display for Stats {
    /// `requests: N, answered 2xx: A, 4xx: B, injected 503: C, dropped: D, delayed: E`
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
        )
    }
}

/// The service error that makes hyper close a connection without answering (an injected drop).
#[derive(Debug)]
struct Dropped;

impl fmt::Display for Dropped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("connection dropped on purpose (injected fault)")
    }
}

impl std::error::Error for Dropped {}

/// Resolves when the server is told to stop, or its `Server` is gone.
async fn stop_requested(stopped: &mut watch::Receiver<bool>) {
    let _ = stopped.wait_for(|stop| *stop).await;
}

async fn accept_loop(
    listener: TcpListener,
    shared: Arc<Shared>,
    mut stopped: watch::Receiver<bool>,
) {
    loop {
        tokio::select! {
            () = stop_requested(&mut stopped) => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => {
                    tokio::spawn(serve(stream, Arc::clone(&shared), stopped.clone()));
                }
                Err(error) => {
                    // Out of file descriptors and the like: say so, wait a little, go on.
                    if shared.log_requests {
                        log::line(format!("safe-ad emulator: accept failed: {error}\n"));
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            },
        }
    }
}

async fn serve(stream: TcpStream, shared: Arc<Shared>, mut stopped: watch::Receiver<bool>) {
    let _ = stream.set_nodelay(true);
    let service = service_fn(move |request| {
        let shared = Arc::clone(&shared);
        async move { answer(&shared, request).await }
    });
    let connection = http1::Builder::new()
        .keep_alive(true)
        .serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => {}
        () = stop_requested(&mut stopped) => {
            connection.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(SHUTDOWN_GRACE, connection).await;
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

async fn answer(
    shared: &Shared,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Dropped> {
    let started = Instant::now();
    let tallies = &shared.counters.0;
    Counters::add(&tallies.requests);
    let label = (shared.log_requests || shared.records.is_some()).then(|| {
        (
            request.method().clone(),
            log::redact(request.uri().path(), &shared.token).into_owned(),
        )
    });
    let log = |status: Option<StatusCode>, note: Note| {
        let Some((method, path)) = &label else {
            return;
        };
        if shared.log_requests {
            let mut shown = status.map_or(String::new(), |s| s.as_str().to_owned());
            match note {
                Note::None => {}
                Note::Unavailable => shown.push_str(" (injected)"),
                Note::Dropped => shown = "dropped (injected)".to_owned(),
                Note::Delayed(ms) => shown.push_str(&format!(" delayed {ms}ms (injected)")),
                Note::Hung => {
                    shown = "(unknown handle: never answered, as the launcher did)".to_owned()
                }
            }
            log::line(log::request_line(
                method.as_str(),
                path,
                &shown,
                started.elapsed(),
            ));
        }
        if let Some(records) = &shared.records {
            let live = shared.app.state().live();
            records.record(log::request_record(
                method.as_str(),
                path,
                status.map(|s| s.as_u16()),
                started.elapsed(),
                note,
                &live,
            ));
        }
    };
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
            log(Some(StatusCode::SERVICE_UNAVAILABLE), Note::Unavailable);
            return Ok(response(
                StatusCode::SERVICE_UNAVAILABLE,
                "application/json; charset=utf-8",
                Bytes::from_static(fault::UNAVAILABLE_BODY.as_bytes()),
            ));
        }
        Some(Fault::Drop) => {
            Counters::add(&tallies.dropped);
            log(None, Note::Dropped);
            return Err(Dropped);
        }
        Some(Fault::Delay(delay)) => {
            Counters::add(&tallies.delayed);
            tokio::time::sleep(delay).await;
            delayed = Some(delay);
        }
    }
    match routes::respond(&shared.app, request).await {
        Answer::Reply(reply) => {
            if reply.status.is_success() {
                Counters::add(&tallies.answered_2xx);
            } else if reply.status.is_client_error() {
                Counters::add(&tallies.answered_4xx);
            }
            let note = delayed.map_or(Note::None, |d| Note::Delayed(d.as_millis()));
            log(Some(reply.status), note);
            Ok(response(reply.status, reply.content_type, reply.body))
        }
        Answer::Hang => {
            log(None, Note::Hung);
            std::future::pending().await
        }
    }
}

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
