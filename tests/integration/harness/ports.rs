//! Loopback ports held by a test: one where connecting is refused. It stays bound for as long as
//! the test holds it, so no other test or process can take the port meanwhile: a port closed and
//! then reused could answer.

use std::net::SocketAddr;

use tokio::net::TcpSocket;

/// A loopback port that is bound but not listening: connecting to it is refused (the kernel
/// answers with a reset), and no other socket can take it while this is held.
pub struct RefusingPort {
    /// Held: the port stays taken. (Read only by `listen`, which only emulator tests use.)
    #[cfg_attr(not(feature = "emulator"), allow(dead_code))]
    socket: TcpSocket,
    pub url: String,
}

impl RefusingPort {
    pub fn new() -> RefusingPort {
        let socket = TcpSocket::new_v4().expect("socket");
        socket
            .bind(SocketAddr::from(([127, 0, 0, 1], 0)))
            .expect("bind");
        let address = socket.local_addr().expect("addr");
        RefusingPort {
            socket,
            url: format!("http://{address}"),
        }
    }

    /// Starts listening on the same port, never released in between: a launcher that comes up
    /// late.
    #[cfg(feature = "emulator")]
    pub fn listen(self) -> std::net::TcpListener {
        listen(self.socket, 1024)
    }
}

/// A loopback URL where connecting is refused: a [`RefusingPort`] held for the rest of the test
/// run.
pub fn closed_port_url() -> String {
    let port = RefusingPort::new();
    let url = port.url.clone();
    // Held until the test process ends: the port is never free for another server to take.
    std::mem::forget(port);
    url
}

/// Starts `socket` listening with `backlog`, as a blocking std listener. tokio registers a
/// listener with a runtime, so a runtime on a thread of its own does that and is dropped at once
/// (this may be called from inside a test's own runtime, where one cannot be dropped).
#[cfg(feature = "emulator")]
fn listen(socket: TcpSocket, backlog: u32) -> std::net::TcpListener {
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
            .expect("runtime");
        let _inside = runtime.enter();
        let listener = socket
            .listen(backlog)
            .expect("listen")
            .into_std()
            .expect("a std listener");
        listener.set_nonblocking(false).expect("blocking");
        listener
    })
    .join()
    .expect("listening")
}
