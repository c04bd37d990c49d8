//! The signals that stop the emulator: SIGTERM, SIGINT (Ctrl-C) and SIGHUP, watched from the
//! moment the emulator starts (before any file is read), so that each of them, at any point,
//! leads to the one ordered stop in `lifecycle` rather than to the default action (death, with
//! the state unsaved and the log cut).
//!
//! A signal is handled wherever the emulator is: the handlers only wake the event loop, which
//! never waits on a file or a pipe (see `log`). The first signal starts the stop (or, with
//! `-- COMMAND`, is passed on to the command); a second one hurries it (see `lifecycle` and
//! `command`).
//!
//! Also the one-thread runtime a run (or a start in the background) watches them in, and the
//! watch itself as a run begins it: each failure said on stderr and turned into [`Exit::Failed`].

use std::io;

use crate::service::exit::{say, Exit};

/// A signal that stops the emulator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Signal {
    /// SIGINT: Ctrl-C.
    Interrupt,
    /// SIGTERM: `kill PID`, what CI runners and service managers send.
    Terminate,
    /// SIGHUP: the terminal went away.
    Hangup,
}

impl Signal {
    /// `SIGINT`, `SIGTERM`, `SIGHUP`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
            Signal::Hangup => "SIGHUP",
        }
    }

    /// Its number, for the shell's `128 + N` exit codes.
    pub(crate) fn number(self) -> u8 {
        match self {
            Signal::Hangup => 1,
            Signal::Interrupt => 2,
            Signal::Terminate => 15,
        }
    }

    pub(crate) fn to_rustix(self) -> rustix::process::Signal {
        use rustix::process::Signal as S;
        match self {
            Signal::Interrupt => S::INT,
            Signal::Terminate => S::TERM,
            Signal::Hangup => S::HUP,
        }
    }
}

/// The three signals as one stream. Needs a running tokio runtime to be installed.
pub(crate) struct Signals {
    streams: [(Signal, tokio::signal::unix::Signal); 3],
}

impl Signals {
    /// Installs the handlers: from now on these signals no longer kill the process.
    pub(crate) fn install() -> io::Result<Signals> {
        use tokio::signal::unix::{signal, SignalKind};
        Ok(Signals {
            streams: [
                (Signal::Interrupt, signal(SignalKind::interrupt())?),
                (Signal::Terminate, signal(SignalKind::terminate())?),
                (Signal::Hangup, signal(SignalKind::hangup())?),
            ],
        })
    }

    /// The next signal received (one that came before this call is returned at once).
    pub(crate) async fn next(&mut self) -> Signal {
        let [(a, first), (b, second), (c, third)] = &mut self.streams;
        tokio::select! {
            Some(()) = first.recv() => *a,
            Some(()) = second.recv() => *b,
            Some(()) = third.recv() => *c,
            else => std::future::pending().await,
        }
    }
}

/// The one-thread runtime a run (or a start in the background) needs; a failure is said.
pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, Exit> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| {
            say(&format!("safe-ad emulator: error: cannot start: {error}\n"));
            Exit::Failed
        })
}

/// Watches SIGTERM, SIGINT and SIGHUP from now on (in a runtime); a failure is said.
pub(crate) fn watch() -> Result<Signals, Exit> {
    Signals::install().map_err(|error| {
        say(&format!(
            "safe-ad emulator: error: cannot watch for signals: {error}\n"
        ));
        Exit::Failed
    })
}
