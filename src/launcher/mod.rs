//! The small HTTP module: operations to routes, sending them, reading a bounded answer.
//!
//! It is built from a narrow [`LauncherConfig`] (URL, token, timeouts, retries, proxy) that the
//! commands fill from the settings; it reads no env var and no file. It does not judge
//! answers: it returns what came back (or why nothing did) and `outcome` decides what that
//! means. The token goes in the Authorization header of requests to the launcher URL and
//! nowhere else; redirects are never followed. The shapes of the JSON answers, each closed set
//! of values an enum, are read in `answers`.
//!
//! Two transports behind one face: `direct` speaks HTTP/1.1 on hyper's connection API to a
//! plain-http launcher reached without a proxy (the usual, local case, and a batch's hot path);
//! `general` uses reqwest for https and proxies. reqwest would read the proxy env vars itself,
//! so that is turned off and `settings` hands over the proxy it chose.

mod answers;
mod direct;
mod general;
mod request;
pub mod serialised;

pub use answers::{
    Fetched, FilterType, Grant, HandleReply, Metadata, Permission, ReaderReply, StructuredFetched,
    Unreadable, LOW_LEVEL_API, MOST_LIST_ENTRIES,
};
pub use request::{
    url_for, Encryption, HandleKind, Operation, Request, Slot, MAX_CONTENT_BYTES, OPERATIONS,
};

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use http_body_util::BodyExt;
use reqwest::header::{HeaderMap, HeaderValue, LOCATION};
use reqwest::Method;

use crate::secret::{Redactor, Secret};
use crate::url::LauncherUrl;

/// Bodies are read up to this size; the rest is left unread.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The User-Agent of every request.
const USER_AGENT_VALUE: &str = concat!("safe-ad/", env!("CARGO_PKG_VERSION"));

/// What the launcher answered.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub location: Option<Vec<u8>>,
    /// At most `MAX_BODY_BYTES` of the body (more for content and serialised bytes: see
    /// `Request::max_body`).
    pub body: Vec<u8>,
    /// The answer's headers, kept only when asked for (`--verbose`).
    pub headers: Vec<(String, Vec<u8>)>,
    pub elapsed: Duration,
    /// What cuts the token out of the words drawn from the body (a launcher's description,
    /// a body shown in a message): the body itself is kept exactly as it came, since it is data.
    pub words: Redactor,
}

/// Why no (complete) answer came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoAnswer {
    /// Nothing listens at the launcher's address.
    Refused,
    /// The host name could not be resolved.
    Dns(String),
    /// Connecting took longer than the connect bound.
    ConnectTimeout(Duration),
    /// The request was sent but the answer did not come in time.
    Timeout(Duration),
    /// The connection failed or closed before any byte of an answer.
    Reset(String),
    /// Bytes came back that are not an HTTP answer (a status line or headers that do not
    /// parse, headers too large): something answered, but not a launcher.
    Garbled(String),
    /// The connection failed or closed in the middle of an answer.
    Broken(String),
    /// A plain-http request was answered with TLS: the server speaks https.
    TlsAnswer,
    /// An https request was answered in plain text: the server speaks plain http.
    PlainAnswer,
}

impl NoAnswer {
    /// Whether trying again is safe: a refused connection sent nothing, so any request may go
    /// again; a connection closed before any answer may have carried the request to the
    /// launcher, which may have acted on it, so only a request whose operation says sending it
    /// twice is harmless goes again (`Operation::resend_is_safe`). Never after a timeout or a
    /// cut answer.
    pub fn may_retry(&self, resend_is_safe: bool) -> bool {
        match self {
            NoAnswer::Refused => true,
            NoAnswer::Reset(_) => resend_is_safe,
            _ => false,
        }
    }

    /// Whether the request may have reached the launcher, which may then have acted on it:
    /// anything but a connection that was never made.
    pub fn may_have_arrived(&self) -> bool {
        !matches!(
            self,
            NoAnswer::Refused
                | NoAnswer::Dns(_)
                | NoAnswer::ConnectTimeout(_)
                | NoAnswer::TlsAnswer
                | NoAnswer::PlainAnswer
        )
    }

    /// What a hyper error means; `in_body`: the answer's head had already come.
    fn from_hyper(error: &hyper::Error, in_body: bool) -> NoAnswer {
        let detail = innermost_message(error);
        if error.is_parse() {
            NoAnswer::Garbled(detail)
        } else if in_body {
            NoAnswer::Broken(detail)
        } else {
            NoAnswer::Reset(detail)
        }
    }
}

/// The most specific words in an error chain.
fn innermost_message(error: &(dyn std::error::Error + 'static)) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        message = cause.to_string();
        source = cause.source();
    }
    message
}

/// One request, as both transports take it.
struct Outgoing<'a> {
    method: Method,
    /// The path after the launcher URL's prefix: `/appendable-data/...`.
    route: &'a str,
    /// A body and its `Content-Type` (JSON, or raw bytes to write).
    body: Option<(&'a [u8], &'static str)>,
    authorization: Option<&'a HeaderValue>,
    /// How much of the answer's body to read.
    max_body: usize,
}

/// An answer whose head has come and whose body is still to be read.
struct RawAnswer<'a> {
    status: u16,
    headers: HeaderMap,
    body: Body<'a>,
}

enum Body<'a> {
    Direct {
        body: hyper::body::Incoming,
        /// The connection, to go back to the pool once the body has been read to its end.
        keep: Option<direct::Keep<'a>>,
    },
    General(reqwest::Response),
}

impl Body<'_> {
    /// The next piece of the body; `None` at its end.
    async fn chunk(
        &mut self,
        general: Option<&general::General>,
    ) -> Result<Option<Vec<u8>>, NoAnswer> {
        match self {
            Body::Direct { body, keep } => loop {
                match body.frame().await {
                    None => {
                        if let Some(keep) = keep.take() {
                            keep.release();
                        }
                        return Ok(None);
                    }
                    Some(Ok(frame)) => {
                        if let Ok(data) = frame.into_data() {
                            return Ok(Some(data.to_vec()));
                        }
                    }
                    Some(Err(error)) => return Err(NoAnswer::from_hyper(&error, true)),
                }
            },
            Body::General(response) => match response.chunk().await {
                Ok(chunk) => Ok(chunk.map(|bytes| bytes.to_vec())),
                Err(error) => Err(match general {
                    Some(general) => general.no_answer(&error),
                    None => NoAnswer::Broken(innermost_message(&error)),
                }),
            },
        }
    }
}

/// The app identity `auth login` presents to the launcher, which shows it to the person approving.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppIdentity {
    pub name: String,
    pub id: String,
    pub version: String,
    pub vendor: String,
}

/// Requests about the token itself, as opposed to operations on a handle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthRequest {
    /// `POST /auth`: ask for a token with LOW_LEVEL_API; the launcher waits for a person.
    Login(AppIdentity),
    /// `GET /auth`: is the token accepted?
    Check,
    /// `DELETE /auth`: revoke the token.
    Revoke,
}

/// What the HTTP module needs to know, and nothing more.
#[derive(Debug, Clone)]
pub struct LauncherConfig {
    pub url: LauncherUrl,
    pub token: Option<Secret>,
    /// Bound on each request.
    pub timeout: Duration,
    /// Bound on connecting.
    pub connect_timeout: Duration,
    /// Bound on a login, which waits for a person; `None` waits as long as it takes.
    pub login_timeout: Option<Duration>,
    /// Tries after the first when no answer came, where that is safe (`NoAnswer::may_retry`).
    pub retries: u8,
    /// The proxy to go through, if any; never for a loopback launcher.
    pub proxy: Option<ProxyConfig>,
    /// Keep the answer's headers, for `--verbose`.
    pub keep_headers: bool,
}

/// A proxy chosen by `settings` from the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxyConfig {
    pub url: String,
    /// Hosts that skip the proxy, in the `NO_PROXY` format.
    pub no_proxy: Option<String>,
}

enum Transport {
    Direct(direct::Direct),
    General(general::General),
}

impl Transport {
    /// `kept_across_lines`: for a `shell` session's [`Connections`].
    fn new(config: &LauncherConfig, kept_across_lines: bool) -> anyhow::Result<Transport> {
        Ok(
            if config.url.is_https() || (config.proxy.is_some() && !config.url.is_loopback()) {
                Transport::General(general::General::new(config)?)
            } else {
                let timeout = config.connect_timeout;
                Transport::Direct(direct::Direct::new(
                    &config.url,
                    timeout,
                    kept_across_lines,
                )?)
            },
        )
    }
}

/// What a transport is built from: two launchers alike in these share one transport, and so
/// its kept connections ([`Connections`]).
#[derive(PartialEq)]
struct Reached {
    base: String,
    connect_timeout: Duration,
    proxy: Option<ProxyConfig>,
}

impl Reached {
    fn of(config: &LauncherConfig) -> Reached {
        Reached {
            base: config.url.base().to_string(),
            connect_timeout: config.connect_timeout,
            proxy: config.proxy.clone(),
        }
    }
}

/// The transports a `shell` session keeps from one line to the next, each with its open
/// connections, so that a line reaching a launcher an earlier line reached the same way sends
/// on a connection already open. The token, the bounds and `--verbose` are each line's own;
/// only the way to the launcher is shared. They must all be used on one runtime (the session's),
/// to which their connections belong.
#[derive(Default)]
pub struct Connections {
    kept: Mutex<Vec<(Reached, Arc<Transport>)>>,
}

/// A client for one launcher; keeps its connections alive across requests.
pub struct Launcher {
    transport: Arc<Transport>,
    base: String,
    authorization: Option<HeaderValue>,
    timeout: Duration,
    /// `None`: wait for the person approving a login as long as it takes.
    login_timeout: Option<Duration>,
    retries: u8,
    keep_headers: bool,
    /// The token, masked in the request headers shown.
    token: Option<Secret>,
    /// What scrubs the token out of words: an error's detail, a header, a body shown as text.
    words: Redactor,
}

impl Launcher {
    pub fn new(config: LauncherConfig) -> anyhow::Result<Launcher> {
        let transport = Arc::new(Transport::new(&config, false)?);
        Launcher::with_transport(config, transport)
    }

    /// A client that sends on the transport `connections` keeps for the way `config` reaches its
    /// launcher, made and kept there the first time.
    pub fn kept_in(config: LauncherConfig, connections: &Connections) -> anyhow::Result<Launcher> {
        let reached = Reached::of(&config);
        let transport = {
            let mut kept = connections
                .kept
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            match kept.iter().find(|(way, _)| *way == reached) {
                Some((_, transport)) => Arc::clone(transport),
                None => {
                    let transport = Arc::new(Transport::new(&config, true)?);
                    kept.push((reached, Arc::clone(&transport)));
                    transport
                }
            }
        };
        Launcher::with_transport(config, transport)
    }

    fn with_transport(
        config: LauncherConfig,
        transport: Arc<Transport>,
    ) -> anyhow::Result<Launcher> {
        let authorization = match &config.token {
            Some(token) => {
                let mut value = HeaderValue::from_str(&format!("Bearer {}", token.expose()))
                    .map_err(|_| anyhow::anyhow!("the token cannot be sent in an HTTP header"))?;
                value.set_sensitive(true);
                Some(value)
            }
            None => None,
        };
        Ok(Launcher {
            transport,
            base: config.url.base().to_string(),
            authorization,
            timeout: config.timeout,
            login_timeout: config.login_timeout,
            retries: config.retries,
            keep_headers: config.keep_headers,
            words: Redactor::new(config.token.clone()),
            token: config.token,
        })
    }

    /// The launcher's base URL, path prefix included.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The full URL of a request, path prefix kept.
    pub fn url<H: std::fmt::Display + Copy>(&self, request: &Request<H>) -> String {
        url_for(&self.base, request)
    }

    /// Sends one request and reads at most `Request::max_body` of the answer. When nothing
    /// answered, tries again up to `--retries` times where that is safe.
    pub async fn send(&self, request: &Request) -> Result<Answer, NoAnswer> {
        if let Some(bytes) = request.raw_body() {
            return self.send_bytes(request, &bytes).await;
        }
        let json = request.json();
        let body = json
            .as_deref()
            .map(|json| (json.as_bytes(), "application/json"));
        self.send_body(request, body).await
    }

    /// Sends one request with raw bytes as its body (`application/octet-stream`): what is
    /// written to an immutable-data writer, or a request's own ([`Request::raw_body`]).
    /// Resent only as `send` resends.
    pub async fn send_bytes(&self, request: &Request, bytes: &[u8]) -> Result<Answer, NoAnswer> {
        self.send_body(request, Some((bytes, "application/octet-stream")))
            .await
    }

    async fn send_body(
        &self,
        request: &Request,
        body: Option<(&[u8], &'static str)>,
    ) -> Result<Answer, NoAnswer> {
        let route = request.route();
        let outgoing = Outgoing {
            method: request.method(),
            route: &route,
            body,
            authorization: self.authorization.as_ref(),
            max_body: request.max_body(),
        };
        self.with_retries(&outgoing, request.operation().resend_is_safe())
            .await
    }

    /// One exchange, tried again up to `--retries` times when no answer came and that is safe
    /// (`NoAnswer::may_retry`), waiting 100 ms, 200 ms, 400 ms, ... in between.
    async fn with_retries(
        &self,
        outgoing: &Outgoing<'_>,
        resend_is_safe: bool,
    ) -> Result<Answer, NoAnswer> {
        let mut pause = Duration::from_millis(100);
        let mut tries_left = self.retries;
        loop {
            match self.exchange(outgoing, Some(self.timeout)).await {
                Err(no_answer) if tries_left > 0 && no_answer.may_retry(resend_is_safe) => {
                    tries_left -= 1;
                    tokio::time::sleep(pause).await;
                    pause *= 2;
                }
                result => return result,
            }
        }
    }

    /// The request headers safe-ad sends, with the token masked, for `--dry-run` and `--verbose`.
    pub fn shown_request_headers(&self) -> Vec<(String, String)> {
        let mut headers = vec![("user-agent".to_string(), USER_AGENT_VALUE.to_string())];
        match &self.token {
            Some(token) => {
                headers.push(("authorization".into(), format!("Bearer {}", token.mask())))
            }
            None => headers.push(("authorization".into(), "(none: no token found)".into())),
        }
        headers
    }

    /// Makes sure the launcher accepts connections, before a request that waits for a person
    /// (a login): a launcher that is down is said at once, not after "waiting for approval".
    /// Through reqwest (https, a proxy) the first request says it instead.
    pub async fn connect(&self) -> Result<(), NoAnswer> {
        match &*self.transport {
            Transport::Direct(direct) => direct.warm().await,
            Transport::General(_) => Ok(()),
        }
    }

    /// Sends a request about the token. A login carries no token and waits as long as the
    /// timeout allows (forever unless one was set).
    pub async fn auth(&self, auth: &AuthRequest) -> Result<Answer, NoAnswer> {
        match auth {
            AuthRequest::Login(app) => {
                let body = serde_json::json!({
                    "app": {
                        "name": app.name,
                        "id": app.id,
                        "version": app.version,
                        "vendor": app.vendor,
                    },
                    "permissions": [LOW_LEVEL_API],
                })
                .to_string();
                let outgoing = Outgoing {
                    method: Method::POST,
                    route: "/auth",
                    body: Some((body.as_bytes(), "application/json")),
                    authorization: None,
                    max_body: MAX_BODY_BYTES,
                };
                self.exchange(&outgoing, self.login_timeout).await
            }
            AuthRequest::Check | AuthRequest::Revoke => {
                let outgoing = Outgoing {
                    method: if *auth == AuthRequest::Check {
                        Method::GET
                    } else {
                        Method::DELETE
                    },
                    route: "/auth",
                    body: None,
                    authorization: self.authorization.as_ref(),
                    max_body: MAX_BODY_BYTES,
                };
                // A check reads and makes nothing; a revoke that may have arrived is not sent
                // again.
                self.with_retries(&outgoing, *auth == AuthRequest::Check)
                    .await
            }
        }
    }

    /// A request to an emulator's own routes (`/_emulator/...`, for `safe-ad emulator
    /// requests`): `route` may carry a query; sent once, with the token, and its answer read up to
    /// `max_body` (a journal is larger than any launcher answer).
    #[cfg(feature = "emulator")]
    pub async fn emulator_route(
        &self,
        method: Method,
        route: &str,
        max_body: usize,
    ) -> Result<Answer, NoAnswer> {
        let outgoing = Outgoing {
            method,
            route,
            body: None,
            authorization: self.authorization.as_ref(),
            max_body,
        };
        self.exchange(&outgoing, Some(self.timeout)).await
    }

    /// One request and its answer, the whole of it bounded by `timeout`.
    async fn exchange(
        &self,
        outgoing: &Outgoing<'_>,
        timeout: Option<Duration>,
    ) -> Result<Answer, NoAnswer> {
        let started = Instant::now();
        // One deadline for the whole exchange, which the connect's own bound never outlasts:
        // a launcher that takes no connection is then said to be that, not slow to answer.
        let deadline = timeout.map(|timeout| tokio::time::Instant::now() + timeout);
        let work = async {
            let raw = match &*self.transport {
                Transport::Direct(direct) => direct.send(outgoing, deadline).await?,
                Transport::General(general) => general.send(outgoing).await?,
            };
            self.read(raw, outgoing.max_body).await
        };
        let exchanged = match (timeout, deadline) {
            (Some(timeout), Some(deadline)) => tokio::time::timeout_at(deadline, work)
                .await
                .unwrap_or(Err(NoAnswer::Timeout(timeout))),
            _ => work.await,
        };
        let (status, headers, body) =
            exchanged.map_err(|no_answer| self.scrub_no_answer(no_answer))?;
        let location = headers
            .get(LOCATION)
            .map(|value| self.scrub(value.as_bytes()));
        let headers = if self.keep_headers {
            headers
                .iter()
                .map(|(name, value)| (name.to_string(), self.scrub(value.as_bytes())))
                .collect()
        } else {
            Vec::new()
        };
        Ok(Answer {
            status,
            location,
            // The body is data (content, numbers, handle ids): kept exactly; the words drawn
            // from it are scrubbed where they are made (`Answer::words`).
            body,
            headers,
            elapsed: started.elapsed(),
            words: self.words.clone(),
        })
    }

    /// Reads at most `max_body` bytes of the body.
    async fn read(
        &self,
        mut raw: RawAnswer<'_>,
        max_body: usize,
    ) -> Result<(u16, HeaderMap, Vec<u8>), NoAnswer> {
        let general = match &*self.transport {
            Transport::General(general) => Some(general),
            Transport::Direct(_) => None,
        };
        let mut body = Vec::new();
        while let Some(chunk) = raw.body.chunk(general).await? {
            let room = max_body - body.len();
            body.extend_from_slice(&chunk[..chunk.len().min(room)]);
            if body.len() >= max_body {
                // The rest is not worth reading; dropping the answer closes the connection.
                break;
            }
        }
        Ok((raw.status, raw.headers, body))
    }

    /// Why no answer came, with the token cut out of the words that say it (an error's words
    /// may quote what came back).
    fn scrub_no_answer(&self, no_answer: NoAnswer) -> NoAnswer {
        let scrub =
            |detail: String| String::from_utf8_lossy(&self.scrub(detail.as_bytes())).into_owned();
        match no_answer {
            NoAnswer::Dns(detail) => NoAnswer::Dns(scrub(detail)),
            NoAnswer::Reset(detail) => NoAnswer::Reset(scrub(detail)),
            NoAnswer::Garbled(detail) => NoAnswer::Garbled(scrub(detail)),
            NoAnswer::Broken(detail) => NoAnswer::Broken(scrub(detail)),
            other => other,
        }
    }

    /// Words the launcher sent (a header, an error's detail), with the token cut out: a
    /// launcher (or a proxy in front of it) that echoes the request back must not make
    /// safe-ad print the token.
    fn scrub(&self, bytes: &[u8]) -> Vec<u8> {
        self.words.bytes(bytes)
    }
}
