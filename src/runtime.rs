//! The async runtime the commands run on, Ctrl-C, and turning internal errors into failures.
//!
//! One process drives one launcher at a time, so a single-threaded runtime is enough and starts
//! fastest.

use crate::outcome::{Class, Failure};

/// A single-threaded runtime with timers and I/O.
pub fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| internal(e.into()))
}

/// Runs `work` unless Ctrl-C comes first, which gives the interrupted failure.
pub async fn interruptible<T>(work: impl std::future::Future<Output = T>) -> Result<T, Failure> {
    tokio::select! {
        value = work => Ok(value),
        _ = tokio::signal::ctrl_c() => Err(Failure::new(Class::Interrupted, "interrupted")),
    }
}

/// Calls `step` on each of `items` on `runtime`, unless Ctrl-C comes first (the interrupted
/// failure). Once the runtime has watched for Ctrl-C, its handler stays for the life of the
/// process and the signal no longer ends it, so long work done after a request (reading and
/// matching a large journal) goes through here to stay stoppable: it lets the signal in every
/// few items.
pub fn each_interruptible<T>(
    runtime: &tokio::runtime::Runtime,
    items: impl IntoIterator<Item = T>,
    mut step: impl FnMut(T) -> Result<(), Failure>,
) -> Result<(), Failure> {
    /// Items between two looks at the signal: a few milliseconds of the slowest step.
    const EVERY: usize = 64;
    let work = async {
        for (at, item) in items.into_iter().enumerate() {
            step(item)?;
            if at % EVERY == EVERY - 1 {
                tokio::task::yield_now().await;
            }
        }
        Ok(())
    };
    runtime.block_on(interruptible(work))?
}

/// An error that is not the user's or the launcher's doing: exit 1, with what happened.
pub fn internal(error: anyhow::Error) -> Failure {
    if let Some(failure) = error.downcast_ref::<Failure>() {
        return failure.clone();
    }
    Failure::new(Class::Unexpected, format!("{error:#}"))
}
