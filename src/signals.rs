//! The signals that stop a run: SIGINT (Ctrl-C), SIGTERM (a CI runner's cancel, `kill`) and
//! SIGHUP (a closed terminal). Each is the same request to a command, "stop as Ctrl-C stops":
//! the commands never tell them apart.
//!
//! They are counted for the whole run, from the moment the runtime starts ([`watch`], which
//! `runtime::finish` calls first) to the exit, by one task per signal. A watch over some work
//! ([`after`]) then only compares counts, so a signal that lands between two watches (after one
//! request's watch ended, before the next one's began) is still seen by the next: counted, not
//! lost. Code that blocks the runtime's thread, where the counting tasks run (a write to a
//! reader that stopped reading), sees a flag that the signal's handler sets itself
//! ([`came_any`]). Once a signal has a handler it no longer ends the process by itself, which is
//! why the handlers are set up with the runtime, where every command that sends watches for
//! them, and not before: a run that sends nothing keeps the default actions.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use tokio::signal::unix::{signal, SignalKind};
use tokio::sync::Notify;

/// Stop signals received so far in this run.
static SEEN: AtomicU64 = AtomicU64::new(0);
/// Woken at each one.
static CAME: Notify = Notify::const_new();
/// Whether the counting tasks run.
static WATCHING: AtomicBool = AtomicBool::new(false);
/// Set by the handlers themselves as a signal arrives (see [`came_any`]).
static CAME_ANY: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Starts counting the stop signals, once per run; inside the runtime. A signal whose handler
/// cannot be set up keeps its default action (the process ends), which is no worse than before.
pub fn watch() {
    if WATCHING.swap(true, Ordering::SeqCst) {
        return;
    }
    let came = Arc::new(AtomicBool::new(false));
    for kind in [
        SignalKind::interrupt(),
        SignalKind::terminate(),
        SignalKind::hangup(),
    ] {
        let Ok(mut received) = signal(kind) else {
            continue;
        };
        let _ = signal_hook::flag::register(kind.as_raw_value(), Arc::clone(&came));
        tokio::spawn(async move {
            while received.recv().await.is_some() {
                SEEN.fetch_add(1, Ordering::SeqCst);
                CAME.notify_waiters();
            }
        });
    }
    let _ = CAME_ANY.set(came);
}

/// Whether a stop signal came, for code that blocks the runtime's thread (and so the counting
/// tasks): the flag the handlers set as the signal arrives.
pub fn came_any() -> bool {
    CAME_ANY
        .get()
        .is_some_and(|came| came.load(Ordering::SeqCst))
        || seen() > 0
}

/// How many stop signals came so far.
pub fn seen() -> u64 {
    SEEN.load(Ordering::SeqCst)
}

/// Resolves once more than `count` stop signals have come in this run: `after(0)` at the
/// first (at once if one came already), `after(1)` at the second.
pub async fn after(count: u64) {
    watch();
    loop {
        let came = CAME.notified();
        tokio::pin!(came);
        // Registered before the count is read, so a signal between the two still wakes it.
        came.as_mut().enable();
        if seen() > count {
            return;
        }
        came.await;
    }
}
