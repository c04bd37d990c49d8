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

/// An error that is not the user's or the launcher's doing: exit 1, with what happened.
pub fn internal(error: anyhow::Error) -> Failure {
    if let Some(failure) = error.downcast_ref::<Failure>() {
        return failure.clone();
    }
    Failure::new(Class::Unexpected, format!("{error:#}"))
}
