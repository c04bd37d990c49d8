//! The small HTTP module: operations to routes, sending them, reading a bounded answer.
//!
//! It is built from a narrow [`LauncherConfig`] (URL, token, timeouts, retries, proxy) that the
//! commands fill from the settings; it reads no env var and no file. reqwest would read the
//! proxy env vars itself, so that is turned off and `settings` hands over the proxy it chose.
//! It does not judge answers: it returns what came back (or why nothing did) and `outcome`
//! decides what that means. The token goes in the Authorization header of requests to the
//! launcher URL and nowhere else; redirects are never followed.

use std::error::Error as _;
use std::time::{Duration, Instant};

use anyhow::Context;
use reqwest::header::{HeaderValue, AUTHORIZATION, CONTENT_TYPE, LOCATION};
use reqwest::Method;

use crate::handle::Handle;
use crate::secret::Secret;
use crate::url::LauncherUrl;

/// Bodies are read up to this size; the rest is left unread.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// What safe-ad can ask the launcher to do with a handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Put,
    Post,
    ClearData,
    ClearDeletedData,
    /// Reads the launcher's metadata of a handle; changes nothing.
    Metadata,
}

impl Operation {
    /// The subcommand name, used in every message about the operation.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Put => "put",
            Operation::Post => "post",
            Operation::ClearData => "clear-data",
            Operation::ClearDeletedData => "clear-deleted-data",
            Operation::Metadata => "metadata",
        }
    }

    pub fn method(self) -> Method {
        match self {
            Operation::Put => Method::PUT,
            Operation::Post => Method::POST,
            Operation::ClearData | Operation::ClearDeletedData => Method::DELETE,
            Operation::Metadata => Method::GET,
        }
    }

    /// Clears change only the launcher's local copy, and hang on an unknown handle.
    pub fn is_clear(self) -> bool {
        matches!(self, Operation::ClearData | Operation::ClearDeletedData)
    }

    fn route(self, handle: Handle) -> String {
        match self {
            Operation::Put | Operation::Post => format!("/appendable-data/{handle}"),
            Operation::ClearData => format!("/appendable-data/clear-data/{handle}"),
            Operation::ClearDeletedData => {
                format!("/appendable-data/clear-deleted-data/{handle}")
            }
            Operation::Metadata => format!("/appendable-data/metadata/{handle}"),
        }
    }
}

/// The launcher's metadata of an appendable data, as `GET /appendable-data/metadata/:h` gives it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    pub is_owner: bool,
    pub version: u64,
    pub filter_type: String,
    pub filter_length: u64,
    pub data_length: u64,
    pub deleted_data_length: u64,
}

impl Metadata {
    /// Reads a metadata body; `None` when it is not one.
    pub fn parse(body: &[u8]) -> Option<Metadata> {
        serde_json::from_slice(body).ok()
    }
}

/// What the launcher answered.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub location: Option<Vec<u8>>,
    /// At most `MAX_BODY_BYTES` of the body.
    pub body: Vec<u8>,
    /// The answer's headers, kept only when asked for (`--verbose`).
    pub headers: Vec<(String, Vec<u8>)>,
    pub elapsed: Duration,
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
}

impl NoAnswer {
    /// Whether trying again is safe: nothing answered, and for a POST (not idempotent: each
    /// one makes a new version) only when the connection was refused, so nothing was sent.
    fn may_retry(&self, method: &Method) -> bool {
        match self {
            NoAnswer::Refused => true,
            NoAnswer::Reset(_) => method != Method::POST,
            _ => false,
        }
    }
}

/// Joins a checked launcher base (`LauncherUrl::base`: no trailing slash, prefix kept) and an
/// operation's route.
pub fn url_for(base: &str, operation: Operation, handle: Handle) -> String {
    format!("{base}{}", operation.route(handle))
}

/// Every operation, for tests and tools that go through them all.
pub const OPERATIONS: [Operation; 5] = [
    Operation::Put,
    Operation::Post,
    Operation::ClearData,
    Operation::ClearDeletedData,
    Operation::Metadata,
];

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

/// The permission the appendable-data writes need.
pub const LOW_LEVEL_API: &str = "LOW_LEVEL_API";

/// What an approved `POST /auth` gives back.
#[derive(Debug)]
pub struct Grant {
    pub token: Secret,
    pub permissions: Vec<String>,
}

impl Grant {
    /// Reads an approval body; `None` when it is not one (or its token is unusable).
    pub fn parse(body: &[u8]) -> Option<Grant> {
        #[derive(serde::Deserialize)]
        struct Raw {
            token: String,
            #[serde(default)]
            permissions: Vec<String>,
        }
        let raw: Raw = serde_json::from_slice(body).ok()?;
        let token = Secret::parse(&raw.token).ok()?;
        Some(Grant {
            token,
            permissions: raw.permissions,
        })
    }
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

/// A client for one launcher; keeps its connection alive across requests.
pub struct Launcher {
    client: reqwest::Client,
    base: String,
    authorization: Option<HeaderValue>,
    timeout: Duration,
    /// `None`: wait for the person approving a login as long as it takes.
    login_timeout: Option<Duration>,
    connect_timeout: Duration,
    retries: u8,
    keep_headers: bool,
    /// The token's bytes, to scrub from anything the launcher sends back before it is shown.
    token: Option<Secret>,
}

impl Launcher {
    pub fn new(config: LauncherConfig) -> anyhow::Result<Launcher> {
        // `no_proxy` also stops reqwest from reading the proxy env vars on its own.
        let mut builder = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(config.connect_timeout)
            .user_agent(concat!("safe-ad/", env!("CARGO_PKG_VERSION")))
            .http1_only()
            .tcp_nodelay(true)
            .no_proxy();
        // A proxy must never see the token meant for the local launcher.
        if let (Some(proxy), false) = (&config.proxy, config.url.is_loopback()) {
            let proxy = reqwest::Proxy::all(proxy.url.as_str())
                .context("the proxy URL is not usable")?
                .no_proxy(
                    proxy
                        .no_proxy
                        .as_deref()
                        .and_then(reqwest::NoProxy::from_string),
                );
            builder = builder.proxy(proxy);
        }
        // reqwest builds its TLS setup even for plain http, and needs a provider for it; an
        // `Err` here only means one is installed already.
        let _ = rustls::crypto::ring::default_provider().install_default();
        if !config.url.is_https() {
            // No TLS will ever be set up, so skip finding and loading the system's roots.
            builder = builder.tls_certs_only(Vec::new());
        }
        let client = builder
            .build()
            .context("could not set up the HTTP client")?;
        let authorization = match &config.token {
            Some(token) => {
                let mut value = HeaderValue::from_str(&format!("Bearer {}", token.expose()))
                    .context("the token cannot be sent in an HTTP header")?;
                value.set_sensitive(true);
                Some(value)
            }
            None => None,
        };
        Ok(Launcher {
            client,
            base: config.url.base().to_string(),
            authorization,
            timeout: config.timeout,
            login_timeout: config.login_timeout,
            connect_timeout: config.connect_timeout,
            retries: config.retries,
            keep_headers: config.keep_headers,
            token: config.token,
        })
    }

    /// The launcher's base URL, path prefix included.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The full URL of an operation on a handle, path prefix kept.
    pub fn url(&self, operation: Operation, handle: Handle) -> String {
        url_for(&self.base, operation, handle)
    }

    /// Sends one operation, with no body, and reads at most `MAX_BODY_BYTES` of the answer.
    /// When nothing answered, tries again up to `--retries` times where that is safe.
    pub async fn send(&self, operation: Operation, handle: Handle) -> Result<Answer, NoAnswer> {
        let url = self.url(operation, handle);
        let mut pause = Duration::from_millis(100);
        let mut tries_left = self.retries;
        loop {
            let request = self.client.request(operation.method(), &url);
            match self.exchange(request, Some(self.timeout), true).await {
                Err(no_answer) if tries_left > 0 && no_answer.may_retry(&operation.method()) => {
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
        let mut headers = vec![(
            "user-agent".to_string(),
            concat!("safe-ad/", env!("CARGO_PKG_VERSION")).to_string(),
        )];
        match &self.token {
            Some(token) => {
                headers.push(("authorization".into(), format!("Bearer {}", token.mask())))
            }
            None => headers.push(("authorization".into(), "(none: no token found)".into())),
        }
        headers
    }

    /// Sends a request about the token. A login carries no token and waits as long as the
    /// timeout allows (forever unless one was set).
    pub async fn auth(&self, auth: &AuthRequest) -> Result<Answer, NoAnswer> {
        let url = format!("{}/auth", self.base);
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
                });
                let request = self
                    .client
                    .post(url)
                    .header(CONTENT_TYPE, "application/json")
                    .body(body.to_string());
                self.exchange(request, self.login_timeout, false).await
            }
            AuthRequest::Check => {
                self.exchange(self.client.get(url), Some(self.timeout), true)
                    .await
            }
            AuthRequest::Revoke => {
                self.exchange(self.client.delete(url), Some(self.timeout), true)
                    .await
            }
        }
    }

    async fn exchange(
        &self,
        mut request: reqwest::RequestBuilder,
        timeout: Option<Duration>,
        authorized: bool,
    ) -> Result<Answer, NoAnswer> {
        let started = Instant::now();
        if let Some(timeout) = timeout {
            request = request.timeout(timeout);
        }
        if let (true, Some(authorization)) = (authorized, &self.authorization) {
            request = request.header(AUTHORIZATION, authorization.clone());
        }
        let mut response = request.send().await.map_err(|e| {
            match self.no_answer(&e, timeout) {
                // No answer head had come: the connection was reset or closed early.
                NoAnswer::Broken(detail) => NoAnswer::Reset(detail),
                other => other,
            }
        })?;
        let status = response.status().as_u16();
        let location = response
            .headers()
            .get(LOCATION)
            .map(|value| self.scrub(value.as_bytes()));
        let headers = if self.keep_headers {
            response
                .headers()
                .iter()
                .map(|(name, value)| (name.to_string(), self.scrub(value.as_bytes())))
                .collect()
        } else {
            Vec::new()
        };
        let mut body = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    let room = MAX_BODY_BYTES - body.len();
                    body.extend_from_slice(&chunk[..chunk.len().min(room)]);
                    if body.len() >= MAX_BODY_BYTES {
                        // The rest is not worth reading; dropping the response closes the connection.
                        break;
                    }
                }
                Ok(None) => break,
                Err(e) => return Err(self.no_answer(&e, timeout)),
            }
        }
        Ok(Answer {
            status,
            location,
            body: self.scrub(&body),
            headers,
            elapsed: started.elapsed(),
        })
    }

    /// What the launcher sent, with the token cut out: a launcher (or a proxy in front of it)
    /// that echoes the request back must not make safe-ad print the token.
    fn scrub(&self, bytes: &[u8]) -> Vec<u8> {
        match &self.token {
            Some(token) => token.scrub(bytes),
            None => bytes.to_vec(),
        }
    }

    fn no_answer(&self, error: &reqwest::Error, timeout: Option<Duration>) -> NoAnswer {
        let io_kind = io_error_kind(error);
        if error.is_timeout() || io_kind == Some(std::io::ErrorKind::TimedOut) {
            return if error.is_connect() {
                NoAnswer::ConnectTimeout(self.connect_timeout)
            } else {
                NoAnswer::Timeout(timeout.unwrap_or(self.timeout))
            };
        }
        if io_kind == Some(std::io::ErrorKind::ConnectionRefused) {
            return NoAnswer::Refused;
        }
        let detail = innermost_message(error);
        if error.is_connect() && looks_like_dns(&detail) {
            return NoAnswer::Dns(detail);
        }
        if hyper_error(error).is_some_and(hyper::Error::is_parse) {
            return NoAnswer::Garbled(detail);
        }
        NoAnswer::Broken(detail)
    }
}

fn hyper_error(error: &reqwest::Error) -> Option<&hyper::Error> {
    let mut source = error.source();
    while let Some(cause) = source {
        if let Some(hyper) = cause.downcast_ref::<hyper::Error>() {
            return Some(hyper);
        }
        source = cause.source();
    }
    None
}

fn io_error_kind(error: &reqwest::Error) -> Option<std::io::ErrorKind> {
    let mut source = error.source();
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            return Some(io.kind());
        }
        source = cause.source();
    }
    None
}

/// The most specific words in an error chain, without the URL reqwest adds at the top.
fn innermost_message(error: &reqwest::Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        message = cause.to_string();
        source = cause.source();
    }
    message
}

fn looks_like_dns(detail: &str) -> bool {
    let detail = detail.to_ascii_lowercase();
    detail.contains("dns") || detail.contains("lookup") || detail.contains("name or service")
}
