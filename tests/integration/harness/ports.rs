//! Loopback ports held by a test: one where connecting is refused, and one where a connection
//! attempt gets no answer at all. Each stays bound for as long as the test holds it, so no other
//! test or process can take the port meanwhile: a port closed and then reused could answer.

use std::net::{SocketAddr, TcpListener, TcpStream};

use tokio::net::TcpSocket;

use super::{wait_until, DEADLINE};

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
    pub fn listen(self) -> TcpListener {
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

/// A loopback listener that never accepts, with its accept queue full: the kernel drops every
/// further connection attempt (SYN) unanswered, as a host that does not answer would. A
/// connect to it neither succeeds nor is refused; it waits until the client gives up.
pub struct SilentPort {
    _listener: TcpListener,
    /// The one connection the queue holds.
    _filler: TcpStream,
    pub url: String,
}

impl SilentPort {
    #[track_caller]
    pub fn new() -> SilentPort {
        let socket = TcpSocket::new_v4().expect("socket");
        socket
            .bind(SocketAddr::from(([127, 0, 0, 1], 0)))
            .expect("bind");
        // A backlog of 0 lets the queue hold one connection.
        let listener = listen(socket, 0);
        let address = listener.local_addr().expect("addr");
        let filler = TcpStream::connect(address).expect("connect the filler");
        wait_until(
            &format!("the accept queue of {address} to fill"),
            DEADLINE,
            || (accept_queue(address)? >= 1).then_some(()),
        );
        SilentPort {
            _listener: listener,
            _filler: filler,
            url: format!("http://{address}"),
        }
    }
}

/// Starts `socket` listening with `backlog`, as a blocking std listener. tokio registers a
/// listener with a runtime, so a runtime on a thread of its own does that and is dropped at once
/// (this may be called from inside a test's own runtime, where one cannot be dropped).
fn listen(socket: TcpSocket, backlog: u32) -> TcpListener {
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

/// How many connections wait in the accept queue of the listener at `address`: for a listening
/// socket, the receive-queue column of /proc/net/tcp.
fn accept_queue(address: SocketAddr) -> Option<u64> {
    let table = std::fs::read_to_string("/proc/net/tcp").expect("/proc/net/tcp");
    let local = format!("0100007F:{:04X}", address.port());
    table.lines().skip(1).find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        // sl local remote state tx_queue:rx_queue ...; state 0A is LISTEN.
        if fields.get(1) != Some(&local.as_str()) || fields.get(3) != Some(&"0A") {
            return None;
        }
        let (_, rx) = fields.get(4)?.split_once(':')?;
        u64::from_str_radix(rx, 16).ok()
    })
}
