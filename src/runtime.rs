//! The async runtime the commands run on, the watch for the signals that stop them (Ctrl-C,
//! SIGTERM, SIGHUP: `signals`), and turning internal errors into failures.
//!
//! A command checks its arguments and settings first, without a runtime, and comes back with
//! either its end ([`Next::Done`]: a dry run, `--curl`, `config`, `decode`...) or the sending
//! still to do ([`Next::Sends`]). Only then is a runtime built, once, in [`finish`]: the one
//! place the client enters async code, and where the stop signals start being counted, so every
//! command that sends stops the same way on each of them. One process drives one launcher at a
//! time, so a single-threaded runtime is enough and starts fastest.

use std::future::Future;
use std::pin::Pin;

use crate::outcome::{Class, Done, Failure};
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

/// Brings a command to its end: a runtime is built, and entered, only for one that sends.
pub fn finish(next: Next<'_>) -> Result<Done, Failure> {
    match next {
        Next::Done(done) => Ok(done),
        Next::Sends(work) => {
            let done = runtime()?.block_on(async {
                signals::watch();
                work.await
            });
            // Its counting tasks ended with it (`signals::unwatch`).
            signals::unwatch();
            done
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
