//! The emulator's server: binding (loopback only), the accept loop, HTTP/1.1 keep-alive
//! connections, per-request logging, hanging requests, and shutdown.
//!
//! [`start`] is the library entry point: it needs a running tokio runtime (current-thread is
//! enough), binds, and returns a [`Server`] with the bound address, the token and a shutdown
//! handle. Dropping the `Server` also stops it. A hanging request (see `--hang-unknown-clears`)
//! holds only its own connection: other connections keep being served, it ends when the client
//! goes away, and shutdown drops it.

use std::convert::Infallible;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::demo;
use super::encoding::{hex, random_bytes};
use super::log;
use super::routes::{self, Answer, App};
use super::state::{Permissions, State};

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
    /// Write one line per request on stderr.
    pub log_requests: bool,
}

impl Default for Options {
    /// Loopback, a free port, a random token, the demo state, no log.
    fn default() -> Options {
        Options {
            listen: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0),
            token: None,
            empty: false,
            deny_auth: false,
            hang_unknown_clears: false,
            log_requests: false,
        }
    }
}

/// A running emulator. Dropping it stops it, as [`Server::shutdown`] does.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    token: String,
    stop: watch::Sender<bool>,
    accept: JoinHandle<()>,
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
/// Fails with `InvalidInput` for a non-loopback address or an unusable token, and with the bind
/// error when the address cannot be used.
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
    let token = match options.token {
        Some(token) => {
            check_token(&token).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
            token
        }
        None => hex(&random_bytes::<16>()),
    };
    let mut state = State::new();
    if !options.empty {
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
    let shared = Arc::new(Shared {
        app: App::new(state, options.deny_auth, options.hang_unknown_clears),
        log_requests: options.log_requests,
    });
    let (stop, stopped) = watch::channel(false);
    let accept = tokio::spawn(accept_loop(listener, shared, stopped));
    Ok(Server {
        addr,
        token,
        stop,
        accept,
    })
}

struct Shared {
    app: App,
    log_requests: bool,
}

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
        async move { Ok::<_, Infallible>(answer(&shared, request).await) }
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

async fn answer(shared: &Shared, request: Request<Incoming>) -> Response<Full<Bytes>> {
    let started = Instant::now();
    let label = shared
        .log_requests
        .then(|| (request.method().clone(), request.uri().path().to_owned()));
    match routes::respond(&shared.app, request).await {
        Answer::Reply(reply) => {
            if let Some((method, path)) = &label {
                log::line(log::request_line(
                    method.as_str(),
                    path,
                    reply.status.as_str(),
                    started.elapsed(),
                ));
            }
            let mut response = Response::new(Full::new(reply.body));
            *response.status_mut() = reply.status;
            response
                .headers_mut()
                .insert(CONTENT_TYPE, HeaderValue::from_static(reply.content_type));
            response
        }
        Answer::Hang => {
            if let Some((method, path)) = &label {
                log::line(log::request_line(
                    method.as_str(),
                    path,
                    "(unknown handle: never answered, as the launcher did)",
                    started.elapsed(),
                ));
            }
            std::future::pending().await
        }
    }
}
