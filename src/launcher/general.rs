//! Requests through reqwest, for what the direct client does not do: https, and a launcher
//! reached through a proxy.

use std::error::Error as _;
use std::time::Duration;

use anyhow::Context;
use reqwest::header::{HeaderValue, AUTHORIZATION, CONTENT_LENGTH, CONTENT_TYPE};

use super::{Body, LauncherConfig, NoAnswer, Outgoing, RawAnswer, USER_AGENT_VALUE};

pub struct General {
    client: reqwest::Client,
    base: String,
    connect_timeout: Duration,
}

impl General {
    pub fn new(config: &LauncherConfig) -> anyhow::Result<General> {
        // `no_proxy` also stops reqwest from reading the proxy env vars on its own: `settings`
        // chose the proxy, if any.
        let mut builder = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(config.connect_timeout)
            .user_agent(USER_AGENT_VALUE)
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
        Ok(General {
            client: builder
                .build()
                .context("could not set up the HTTP client")?,
            base: config.url.base().to_string(),
            connect_timeout: config.connect_timeout,
        })
    }

    /// Sends one request and reads the answer's head; the body is read by the caller.
    pub async fn send(&self, outgoing: &Outgoing<'_>) -> Result<RawAnswer<'_>, NoAnswer> {
        let url = format!("{}{}", self.base, outgoing.route);
        let mut request = self.client.request(outgoing.method.clone(), url);
        if let Some(authorization) = outgoing.authorization {
            request = request.header(AUTHORIZATION, authorization.clone());
        }
        if let Some((body, content_type)) = outgoing.body {
            // Content-Length is said also for an empty body, which the launcher takes.
            request = request
                .header(CONTENT_TYPE, HeaderValue::from_static(content_type))
                .header(CONTENT_LENGTH, HeaderValue::from(body.len()))
                .body(body.to_vec());
        }
        let response = request.send().await.map_err(|e| {
            match self.no_answer(&e) {
                // No answer head had come: the connection was reset or closed early.
                NoAnswer::Broken(detail) => NoAnswer::Reset(detail),
                other => other,
            }
        })?;
        Ok(RawAnswer {
            status: response.status().as_u16(),
            headers: response.headers().clone(),
            body: Body::General(response),
        })
    }

    /// Why a request or its body failed, from reqwest's error chain.
    pub fn no_answer(&self, error: &reqwest::Error) -> NoAnswer {
        let io_kind = io_error_kind(error);
        if error.is_timeout() || io_kind == Some(std::io::ErrorKind::TimedOut) {
            return NoAnswer::ConnectTimeout(self.connect_timeout);
        }
        if io_kind == Some(std::io::ErrorKind::ConnectionRefused) {
            return NoAnswer::Refused;
        }
        // rustls reads a plain-http answer to its handshake as a record of a bad type.
        if matches!(
            rustls_error(error),
            Some(rustls::Error::InvalidMessage(
                rustls::InvalidMessage::InvalidContentType
            ))
        ) {
            return NoAnswer::PlainAnswer;
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

fn rustls_error(error: &reqwest::Error) -> Option<&rustls::Error> {
    let mut source = error.source();
    while let Some(cause) = source {
        // An io::Error's `source` skips the error it wraps; look inside, layer by layer.
        let mut inner: &(dyn std::error::Error + 'static) = cause;
        loop {
            if let Some(tls) = inner.downcast_ref::<rustls::Error>() {
                return Some(tls);
            }
            match inner
                .downcast_ref::<std::io::Error>()
                .and_then(std::io::Error::get_ref)
            {
                Some(wrapped) => inner = wrapped,
                None => break,
            }
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
    super::innermost_message(error)
}

fn looks_like_dns(detail: &str) -> bool {
    let detail = detail.to_ascii_lowercase();
    detail.contains("dns") || detail.contains("lookup") || detail.contains("name or service")
}
