//! HTTP/1.1 to a plain-http launcher reached directly, on hyper's connection API.
//!
//! This is the usual case (the launcher listens on this machine) and the hot path of a batch, so
//! it does only what that needs: the URL is split once, each request is written from its path,
//! and idle keep-alive connections wait in a small pool, one per request in flight. A pooled
//! connection the launcher has closed meanwhile is noticed before use, or by hyper handing the
//! unsent request back, and the request then goes on a new connection: nothing is sent twice.
//!
//! Each connection remembers the first byte it received: when an answer does not parse and that
//! byte opens a TLS record, the server speaks https, and the person is told so.

use std::pin::Pin;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{
    HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_LENGTH, CONTENT_TYPE, HOST, USER_AGENT,
};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use super::{Body, NoAnswer, Outgoing, RawAnswer, USER_AGENT_VALUE};
use crate::url::LauncherUrl;

/// Idle connections kept at most: `--jobs` is at most 256, and a batch never needs more idle
/// connections than requests in flight.
const MAX_IDLE: usize = 256;

/// A plain-http client for one launcher.
pub struct Direct {
    /// `host:port` to connect to.
    authority: String,
    host_header: HeaderValue,
    /// The URL's path prefix (`/0.6`), without a trailing slash; routes are appended to it.
    prefix: String,
    connect_timeout: Duration,
    idle: Mutex<Vec<Connection>>,
    /// Kept across the lines of a `shell` session, whose runtime stands still between two
    /// lines: an idle connection is then looked at before reuse ([`Connection::looks_open`]).
    /// A one-process run's runtime never stands still while it holds connections, and hyper
    /// sees a close itself; it pays for no look.
    kept_across_lines: bool,
}

/// One open connection: the handle to send on, and the first byte that came back on it.
pub struct Connection {
    sender: SendRequest<Full<Bytes>>,
    /// 0 until a byte came; then the byte + 1.
    first_byte: Arc<AtomicU16>,
    /// The task that drives it.
    task: tokio::task::AbortHandle,
    /// The socket, to look at before the connection is used again ([`Connection::looks_open`]):
    /// a second descriptor of it, since hyper owns the stream. Only on a transport kept across
    /// a session's lines.
    probe: Option<std::os::fd::OwnedFd>,
}

impl Drop for Connection {
    /// A connection let go of ends at once, with what it still had to write: a `shell` session
    /// keeps one runtime for all its lines, and a request of a line stopped by a signal must not
    /// go out while a later line drives that runtime.
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Connection {
    /// Whether an idle connection may carry another request: nothing has come on it since its
    /// last answer, neither bytes nor the launcher's close. Asked of the socket itself, as curl
    /// does before it reuses a connection: hyper learns of a close only when its task runs, and
    /// nothing runs a `shell` session's runtime between two lines, so a launcher that closed
    /// the connection meanwhile (a keep-alive timeout while a person thinks) would have the
    /// next request written into a closed connection and lost, with no answer.
    fn looks_open(&self) -> bool {
        use rustix::event::{poll, PollFd, PollFlags, Timespec};
        let Some(probe) = &self.probe else {
            return true;
        };
        let mut socket = [PollFd::new(probe, PollFlags::IN)];
        let now = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // Readable, hung up or failed: the launcher closed it, or sent what no request asked.
        matches!(poll(&mut socket, Some(&now)), Ok(0))
    }

    /// Whether the server on this connection answered with a TLS record (an alert or a
    /// handshake) rather than HTTP.
    fn spoke_tls(&self) -> bool {
        // TLS records start with their content type: 0x15 alert, 0x16 handshake.
        matches!(self.first_byte.load(Ordering::Relaxed), 0x16 | 0x17)
    }
}

impl Direct {
    /// A client for `url`, which must be plain http; `kept_across_lines` for a `shell` session's.
    pub fn new(
        url: &LauncherUrl,
        connect_timeout: Duration,
        kept_across_lines: bool,
    ) -> anyhow::Result<Direct> {
        let parsed = reqwest::Url::parse(url.base())?;
        let host = match parsed.host() {
            Some(url::Host::Ipv6(ip)) => format!("[{ip}]"),
            Some(host) => host.to_string(),
            None => anyhow::bail!("the launcher URL has no host"),
        };
        let port = parsed.port_or_known_default().unwrap_or(80);
        // As browsers and reqwest write it: the port only when it is not the scheme's default.
        let host_header = match parsed.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.clone(),
        };
        Ok(Direct {
            authority: format!("{host}:{port}"),
            host_header: HeaderValue::from_str(&host_header)?,
            prefix: parsed.path().trim_end_matches('/').to_string(),
            connect_timeout,
            idle: Mutex::new(Vec::new()),
            kept_across_lines,
        })
    }

    /// Sends one request and reads the answer's head; the body is read by the caller.
    /// `deadline`: the whole exchange's, which bounds the connect too.
    pub async fn send(
        &self,
        outgoing: &Outgoing<'_>,
        deadline: Option<tokio::time::Instant>,
    ) -> Result<RawAnswer<'_>, NoAnswer> {
        let mut request = Some(self.request(outgoing)?);
        // A pooled connection may have been closed by the launcher while idle; hyper hands the
        // request back when it was not written, and it goes on the next connection.
        loop {
            let (mut connection, fresh) = self.connection(deadline).await?;
            let Some(message) = request.take() else {
                return Err(NoAnswer::Reset("the request could not be sent".into()));
            };
            match connection.sender.try_send_request(message).await {
                Ok(response) => return Ok(self.answer(response, connection)),
                Err(mut error) => match error.take_message() {
                    Some(unsent) if !fresh => request = Some(unsent),
                    _ if error.error().is_parse() && connection.spoke_tls() => {
                        return Err(NoAnswer::TlsAnswer)
                    }
                    _ => return Err(NoAnswer::from_hyper(error.error(), false)),
                },
            }
        }
    }

    /// Opens a connection (or finds an idle one) and keeps it for the next request.
    pub async fn warm(&self) -> Result<(), NoAnswer> {
        let (connection, _) = self.connection(None).await?;
        Keep {
            connection,
            pool: &self.idle,
        }
        .release();
        Ok(())
    }

    /// The request, built in place: `http`'s builder moves its parts at every call, which was a
    /// tenth of a batch's instructions.
    fn request(&self, outgoing: &Outgoing<'_>) -> Result<Request<Full<Bytes>>, NoAnswer> {
        let body = match outgoing.body {
            Some((body, _)) => Full::new(Bytes::copy_from_slice(body)),
            None => Full::new(Bytes::new()),
        };
        let mut request = Request::new(body);
        *request.method_mut() = outgoing.method.clone();
        *request.uri_mut() = format!("{}{}", self.prefix, outgoing.route)
            .parse()
            .map_err(|e| NoAnswer::Reset(format!("the request could not be built: {e}")))?;
        let headers = request.headers_mut();
        headers.reserve(6);
        headers.insert(HOST, self.host_header.clone());
        headers.insert(USER_AGENT, HeaderValue::from_static(USER_AGENT_VALUE));
        headers.insert(ACCEPT, HeaderValue::from_static("*/*"));
        if let Some(authorization) = outgoing.authorization {
            headers.insert(AUTHORIZATION, authorization.clone());
        }
        if let Some((body, content_type)) = outgoing.body {
            headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
            // Said also for an empty body (hyper leaves it out then): the launcher refuses a
            // write without it (400), and takes `Content-Length: 0`.
            headers.insert(CONTENT_LENGTH, HeaderValue::from(body.len()));
        }
        Ok(request)
    }

    /// An idle connection that is still open, or a new one; says whether it is new.
    async fn connection(
        &self,
        deadline: Option<tokio::time::Instant>,
    ) -> Result<(Connection, bool), NoAnswer> {
        loop {
            let pooled = self.idle.lock().map(|mut idle| idle.pop()).ok().flatten();
            let Some(mut connection) = pooled else { break };
            if connection.sender.is_closed() || !connection.looks_open() {
                continue;
            }
            if connection.sender.ready().await.is_ok() {
                return Ok((connection, false));
            }
        }
        let first_byte = Arc::new(AtomicU16::new(0));
        let stream = self.connect(deadline).await?;
        let probe =
            match self.kept_across_lines {
                true => Some(rustix::io::dup(&stream).map_err(|e| {
                    NoAnswer::Reset(format!("the connection could not be kept: {e}"))
                })?),
                false => None,
            };
        let stream = Sniffed {
            stream,
            first_byte: Arc::clone(&first_byte),
        };
        let (sender, connection) = http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| NoAnswer::from_hyper(&e, false))?;
        // The connection drives itself; it ends when the launcher closes it or when the
        // `Connection` is let go of.
        let task = tokio::spawn(async move {
            let _ = connection.await;
        })
        .abort_handle();
        Ok((
            Connection {
                sender,
                first_byte,
                task,
                probe,
            },
            true,
        ))
    }

    /// Connects within the connect bound, and never past the exchange's `deadline`, so that
    /// when both run out together it is the connect that is said to have timed out.
    async fn connect(&self, deadline: Option<tokio::time::Instant>) -> Result<TcpStream, NoAnswer> {
        let connecting = async {
            let addresses = tokio::net::lookup_host(&self.authority)
                .await
                .map_err(|e| NoAnswer::Dns(e.to_string()))?;
            let mut last = None;
            for address in addresses {
                match TcpStream::connect(address).await {
                    Ok(stream) => {
                        let _ = stream.set_nodelay(true);
                        return Ok(stream);
                    }
                    Err(error) => last = Some(error),
                }
            }
            Err(match last {
                Some(error) if error.kind() == std::io::ErrorKind::ConnectionRefused => {
                    NoAnswer::Refused
                }
                Some(error) => NoAnswer::Reset(error.to_string()),
                None => NoAnswer::Dns(format!("no address found for {}", self.authority)),
            })
        };
        let bound = tokio::time::Instant::now() + self.connect_timeout;
        let bound = deadline.map_or(bound, |deadline| deadline.min(bound));
        tokio::time::timeout_at(bound, connecting)
            .await
            .unwrap_or(Err(NoAnswer::ConnectTimeout(self.connect_timeout)))
    }

    /// The answer's head, with the body left to read; the connection goes back to the pool once
    /// the body has been read to its end.
    fn answer(
        &self,
        response: Response<hyper::body::Incoming>,
        connection: Connection,
    ) -> RawAnswer<'_> {
        let (head, body) = response.into_parts();
        RawAnswer {
            status: head.status.as_u16(),
            headers: head.headers,
            body: Body::Direct {
                body,
                keep: Some(Keep {
                    connection,
                    pool: &self.idle,
                }),
            },
        }
    }
}

/// A connection waiting for its answer's body to be read before it can be used again.
pub struct Keep<'a> {
    connection: Connection,
    pool: &'a Mutex<Vec<Connection>>,
}

impl Keep<'_> {
    /// Puts the connection back for the next request, unless it is closing.
    pub fn release(self) {
        if self.connection.sender.is_closed() {
            return;
        }
        if let Ok(mut idle) = self.pool.lock() {
            if idle.len() < MAX_IDLE {
                idle.push(self.connection);
            }
        }
    }
}

/// A TCP stream that notes the first byte it reads.
struct Sniffed {
    stream: TcpStream,
    first_byte: Arc<AtomicU16>,
}

impl AsyncRead for Sniffed {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if let Some(&byte) = buf.filled().get(before) {
            let _ = self.first_byte.compare_exchange(
                0,
                u16::from(byte) + 1,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
        polled
    }
}

impl AsyncWrite for Sniffed {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
