//! The async runtime the commands run on, the watch for the signals that stop them (Ctrl-C,
//! SIGTERM, SIGHUP: `signals`), and turning internal errors into failures.
//!
//! A command checks its arguments and settings first, without a runtime, and comes back with
//! either its end ([`Next::Done`]: a dry run, `--curl`, `config`, `decode`...) or the sending
//! still to do ([`Next::Sends`]). Only then is a runtime built, once, in [`finish`]: the one
//! place the client enters async code, and where the stop signals start being counted, so every
//! command that sends stops the same way on each of them. One process drives one launcher at a
//! time, so a single-threaded runtime is enough and starts fastest. The lines of a `shell` all
//! run on the one runtime of their [`Session`], which also keeps their connections.

use std::future::Future;
use std::pin::Pin;

use crate::launcher::Connections;
use crate::outcome::{Class, Done, Failure};
use crate::report::Capture;
use crate::session::Ledger;
use crate::signals;

/// The requests a command still has to send, and what it makes of their answers.
type Sending<'a> = Pin<Box<dyn Future<Output = Result<Done, Failure>> + 'a>>;

/// What a command came to once its arguments and settings were checked.
pub enum Next<'a> {
    /// It ended without sending anything: no runtime is built.
    Done(Done),
    /// It sends: [`finish`] runs this on the one runtime.
    Sends(Sending<'a>),
}

impl<'a> Next<'a> {
    /// The sending `work` is still to do.
    pub fn sends(work: impl Future<Output = Result<Done, Failure>> + 'a) -> Next<'a> {
        Next::Sends(Box::pin(work))
    }
}

/// What a `shell` session keeps from one line to the next, handed down to each line: the one
/// runtime all its lines run on, built when the first line sends; the launchers' connections,
/// which belong to that runtime; the ledger of the handles its lines made and gave back; and
/// what a `NAME = COMMAND` line prints, kept for the variable. A line that reaches a launcher the way an earlier
/// one did sends on a connection already open, as `curl -K` does with many requests in one
/// process.
///
/// A line stopped by a signal leaves nothing to run in the next: its work is dropped, and a
/// connection let go of ends with what it had still to write (`launcher`'s direct transport).
#[derive(Default)]
pub struct Session {
    runtime: std::cell::OnceCell<tokio::runtime::Runtime>,
    connections: Connections,
    /// Shared with the prompt's thread that gives the handles back on SIGTERM or SIGHUP.
    ledger: std::sync::Arc<Ledger>,
    /// What a `NAME = COMMAND` line prints, kept for the variable; each line's reporter is given
    /// it.
    capture: std::sync::Arc<Capture>,
    /// The command-line parser, built by the first line and kept: building clap's tree was
    /// half of what a line cost.
    parser: std::cell::RefCell<Option<clap::Command>>,
}

impl Session {
    pub fn new() -> Session {
        Session::default()
    }

    /// The connections the session's lines send on.
    pub fn connections(&self) -> &Connections {
        &self.connections
    }

    /// The handles the session's lines made and gave back.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The session's command-line parser, made by `make` for the first line that asks.
    pub fn parser(&self, make: fn() -> clap::Command) -> std::cell::RefMut<'_, clap::Command> {
        std::cell::RefMut::map(self.parser.borrow_mut(), |parser| {
            parser.get_or_insert_with(make)
        })
    }

    /// Where a line's reporter keeps what a `NAME = COMMAND` prints.
    pub fn capture(&self) -> &std::sync::Arc<Capture> {
        &self.capture
    }

    /// The ledger, for a thread of the session's own.
    pub fn shared_ledger(&self) -> std::sync::Arc<Ledger> {
        std::sync::Arc::clone(&self.ledger)
    }

    fn runtime(&self) -> Result<&tokio::runtime::Runtime, Failure> {
        if let Some(runtime) = self.runtime.get() {
            return Ok(runtime);
        }
        let built = runtime()?;
        Ok(self.runtime.get_or_init(|| built))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The signals' counting tasks end with the runtime: a later runtime in this process
        // starts its own.
        drop(self.runtime.take());
        signals::unwatch();
    }
}

/// Brings a command to its end: a runtime is entered only for one that sends, the session's
/// for a line of a `shell` (`session`), else one built for it.
pub fn finish(next: Next<'_>, session: Option<&Session>) -> Result<Done, Failure> {
    match next {
        Next::Done(done) => Ok(done),
        Next::Sends(work) => {
            let work = async {
                signals::watch();
                work.await
            };
            match session {
                // The counting tasks stay for the next line, on the same runtime.
                Some(session) => session.runtime()?.block_on(work),
                None => {
                    let done = runtime()?.block_on(work);
                    // Its counting tasks ended with it (`signals::unwatch`).
                    signals::unwatch();
                    done
                }
            }
        }
    }
}

/// A single-threaded runtime with timers and I/O.
fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| internal(e.into()))
}

/// Runs `work` unless a stop signal (Ctrl-C, SIGTERM, SIGHUP) comes first, or came already
/// in this run: that gives the interrupted failure, and `work` is dropped.
pub async fn interruptible<T>(work: impl Future<Output = T>) -> Result<T, Failure> {
    tokio::select! {
        value = work => Ok(value),
        () = signals::after(0) => Err(Failure::new(Class::Interrupted, "interrupted")),
    }
}

/// Calls `step` on each of `items`, handing control back to the runtime every few items, so
/// that a watch for the stop signals around it (`interruptible`) sees one during long work done
/// after a request (reading and matching a large journal): a signal has a handler from the
/// runtime's start, so it alone no longer ends the process.
#[cfg(feature = "emulator")]
pub async fn each_yielding<T>(
    items: impl IntoIterator<Item = T>,
    mut step: impl FnMut(T) -> Result<(), Failure>,
) -> Result<(), Failure> {
    /// Items between two looks at the signal: a few milliseconds of the slowest step.
    const EVERY: usize = 64;
    for (at, item) in items.into_iter().enumerate() {
        step(item)?;
        if at % EVERY == EVERY - 1 {
            tokio::task::yield_now().await;
        }
    }
    Ok(())
}

/// An error that is not the user's or the launcher's doing: exit 1, with what happened.
pub fn internal(error: anyhow::Error) -> Failure {
    if let Some(failure) = error.downcast_ref::<Failure>() {
        return failure.clone();
    }
    Failure::new(Class::Unexpected, format!("{error:#}"))
}
