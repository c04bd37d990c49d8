//! The accept loop and the connections: the bound on open connections (closing the one idle
//! the longest), HTTP/1.1 keep-alive with the idle timeout, and the stop's drain and cut-off.
//! One loop accepts on every user's listener, so the bound is on the emulator's connections all
//! together, and each connection serves the launcher of the user whose port it came to.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify};
use tokio::task::JoinSet;

use crate::service::log;

use super::request::answer;
use super::{reached, Conn, Phase, Shared, IDLE_TIMEOUT, MAX_CONNECTIONS};

pub(super) async fn accept_loop(
    listeners: Vec<TcpListener>,
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
            (user, accepted) = accept_any(&listeners), if room => match accepted {
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
                        user,
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
    // Accept nothing more: the listeners go, and each connection has seen the phase change.
    drop(listeners);
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

/// The next connection any of `listeners` accepts, with the place of the listener (the user whose
/// launcher it reaches).
async fn accept_any(
    listeners: &[TcpListener],
) -> (usize, std::io::Result<(TcpStream, std::net::SocketAddr)>) {
    std::future::poll_fn(|cx| {
        for (user, listener) in listeners.iter().enumerate() {
            if let std::task::Poll::Ready(accepted) = listener.poll_accept(cx) {
                return std::task::Poll::Ready((user, accepted));
            }
        }
        std::task::Poll::Pending
    })
    .await
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

/// Serves one connection to user `user`'s launcher.
async fn serve(
    stream: TcpStream,
    shared: Arc<Shared>,
    conn: Arc<Conn>,
    mut watching: watch::Receiver<Phase>,
    user: usize,
) {
    let _ = stream.set_nodelay(true);
    let serving = Arc::clone(&conn);
    let service = service_fn(move |request| {
        let shared = Arc::clone(&shared);
        let conn = Arc::clone(&serving);
        async move { answer(&shared, &conn, request, user).await }
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
