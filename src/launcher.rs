//! The small HTTP module: operations to routes, sending them, reading a bounded answer.
//!
//! It takes checked `Settings` and reads nothing else. It does not judge answers: it returns
//! what came back (or why nothing did) and `outcome` decides what that means. The token goes in
//! the Authorization header of requests to the launcher URL and nowhere else; redirects are
//! never followed.

use std::error::Error as _;
use std::time::{Duration, Instant};

use anyhow::Context;
use reqwest::header::{HeaderValue, AUTHORIZATION, CONTENT_TYPE, LOCATION};
use reqwest::Method;

use crate::handle::Handle;
use crate::settings::Settings;

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
    /// The connection failed or closed before a complete answer.
    Broken(String),
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

/// The permission the appendable-data writes need.
pub const LOW_LEVEL_API: &str = "LOW_LEVEL_API";

/// What an approved `POST /auth` gives back.
#[derive(Debug)]
pub struct Grant {
    pub token: crate::secret::Secret,
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
        let token = crate::secret::Secret::parse(&raw.token).ok()?;
        Some(Grant {
            token,
            permissions: raw.permissions,
        })
    }
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
}

impl Launcher {
    pub fn new(settings: &Settings) -> anyhow::Result<Launcher> {
        let mut builder = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(settings.connect_timeout)
            .user_agent(concat!("safe-ad/", env!("CARGO_PKG_VERSION")))
            .http1_only()
            .tcp_nodelay(true);
        if settings.launcher.is_loopback() {
            // A proxy must never see the token meant for the local launcher.
            builder = builder.no_proxy();
        }
        // reqwest builds its TLS setup even for plain http, and needs a provider for it; an
        // `Err` here only means one is installed already.
        let _ = rustls::crypto::ring::default_provider().install_default();
        if !settings.launcher.base().starts_with("https:") {
            // No TLS will ever be set up, so skip finding and loading the system's roots.
            builder = builder.tls_certs_only(Vec::new());
        }
        let client = builder
            .build()
            .context("could not set up the HTTP client")?;
        let authorization = match &settings.token {
            Some((token, _)) => {
                let mut value = HeaderValue::from_str(&format!("Bearer {}", token.expose()))
                    .context("the token cannot be sent in an HTTP header")?;
                value.set_sensitive(true);
                Some(value)
            }
            None => None,
        };
        Ok(Launcher {
            client,
            base: settings.launcher.base().to_string(),
            authorization,
            timeout: settings.timeout,
            login_timeout: settings.timeout_is_explicit().then_some(settings.timeout),
            connect_timeout: settings.connect_timeout,
        })
    }

    /// The full URL of an operation on a handle, path prefix kept.
    pub fn url(&self, operation: Operation, handle: Handle) -> String {
        format!("{}{}", self.base, operation.route(handle))
    }

    /// Sends one operation, with no body, and reads at most `MAX_BODY_BYTES` of the answer.
    pub async fn send(&self, operation: Operation, handle: Handle) -> Result<Answer, NoAnswer> {
        let request = self
            .client
            .request(operation.method(), self.url(operation, handle));
        self.exchange(request, Some(self.timeout), true).await
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
        let mut response = request
            .send()
            .await
            .map_err(|e| self.no_answer(&e, timeout))?;
        let status = response.status().as_u16();
        let location = response
            .headers()
            .get(LOCATION)
            .map(|value| value.as_bytes().to_vec());
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
            body,
            elapsed: started.elapsed(),
        })
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
        NoAnswer::Broken(detail)
    }
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
