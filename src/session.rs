//! The handles an interactive `shell` session holds: the appendable-data handles its lines made
//! for the person (`create`, `open`, `reopen`) and did not give back (`drop`, `reopen --drop`).
//! One command line holds nothing past its own exit, so this ledger is kept only once a session
//! [`start`]s it; `batch` notes what each procedure made or gave back, whoever runs it, and
//! notes nothing when no session listens. A session gives back what it holds when it ends, but
//! the handles a person marked to keep ([`keep`]).
//!
//! Only handles of the person's are here: a name's fresh copy, a data id and every other
//! handle a command takes for its own use is a lease, given back by that command.
//!
//! Any shell, a script's too, also asks what each line made and gave back ([`line_begins`],
//! [`line_ended`]): a variable that held a handle the session dropped is then said to be so.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::handle::Handle;
use crate::name::Name;

/// How a line reached its launcher: what the handles it made are given back with. A line may
/// name another launcher than the session's (`--launcher-url`), with a token of its own
/// (`--token-file`), and a handle number means nothing without them.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Reach {
    /// The launcher's base URL.
    pub base: String,
    /// The line's `--token-file`, when its token came from one (a regular file).
    pub token_file: Option<PathBuf>,
    /// The line sent its token in clear to another host (`--allow-insecure-http`).
    pub insecure: bool,
}

/// One appendable-data handle the session holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    /// The launcher it is a handle of, and how it was reached.
    pub launcher: Reach,
    pub handle: Handle,
    /// The data's name, where the line that made it knew it.
    pub name: Option<Name>,
    /// Kept when the session ends ([`keep`]), rather than given back.
    pub kept: bool,
}

/// `None` while no session listens.
static LEDGER: Mutex<Option<Vec<Held>>> = Mutex::new(None);
/// What the running line of a shell made and gave back; `None` while no line of one runs.
static LINE: Mutex<Option<LineHandles>> = Mutex::new(None);

/// What one line of a shell made for the person and gave back, at the launcher it reached.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LineHandles {
    /// The launcher's base URL (the line reaches one).
    pub launcher: String,
    /// The handles it made, with the data's name where known.
    pub made: Vec<(Handle, Option<Name>)>,
    /// The handles a `drop` of it gave back.
    pub given_back: Vec<Handle>,
}

fn line() -> MutexGuard<'static, Option<LineHandles>> {
    LINE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A shell's line begins: what it makes and gives back is noted until [`line_ended`].
pub fn line_begins() {
    *line() = Some(LineHandles::default());
}

/// The line that [`line_begins`] began has ended: what it made and gave back.
pub fn line_ended() -> LineHandles {
    let mut noted = line().take().unwrap_or_default();
    noted.launcher = current().base;
    noted
}
/// The launcher the running line sends to ([`reaching`]).
static LAUNCHER: Mutex<Reach> = Mutex::new(Reach {
    base: String::new(),
    token_file: None,
    insecure: false,
});

/// The running line reaches its launcher so: what it makes or gives back from now on is that
/// launcher's.
pub fn reaching(reach: Reach) {
    let mut launcher = LAUNCHER.lock().unwrap_or_else(PoisonError::into_inner);
    if *launcher != reach {
        *launcher = reach;
    }
}

fn current() -> Reach {
    LAUNCHER
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

fn ledger() -> MutexGuard<'static, Option<Vec<Held>>> {
    LEDGER.lock().unwrap_or_else(PoisonError::into_inner)
}

/// From now on, notes what the lines make and give back.
pub fn start() {
    ledger().get_or_insert_with(Vec::new);
}

/// A procedure made `handle` for the person (the data's `name`, where known).
pub fn made(handle: Handle, name: Option<Name>) {
    if let Some(line) = line().as_mut() {
        line.made.push((handle, name));
    }
    let launcher = current();
    if let Some(held) = ledger().as_mut() {
        held.retain(|held| held.launcher.base != launcher.base || held.handle != handle);
        held.push(Held {
            launcher,
            handle,
            name,
            kept: false,
        });
    }
}

/// `handle` was given back (a `drop` that succeeded): no longer the session's.
pub fn given_back(handle: Handle) {
    if let Some(line) = line().as_mut() {
        line.given_back.push(handle);
    }
    let launcher = current();
    if let Some(held) = ledger().as_mut() {
        held.retain(|held| held.launcher.base != launcher.base || held.handle != handle);
    }
}

/// The name of the data a held handle is for, where it is known.
pub fn name_of(handle: Handle) -> Option<Name> {
    let launcher = current();
    ledger()
        .as_ref()?
        .iter()
        .find(|held| held.launcher.base == launcher.base && held.handle == handle)
        .and_then(|held| held.name)
}

/// Marks `handle` (of any launcher the session reached) to be kept when the session ends;
/// `false` if the session does not hold it.
pub fn keep(handle: Handle) -> bool {
    let mut ledger = ledger();
    let mut found = false;
    for held in ledger.iter_mut().flatten() {
        if held.handle == handle {
            held.kept = true;
            found = true;
        }
    }
    found
}

/// What the session holds, oldest first (the launcher evicts the oldest of a kind past 100).
pub fn held() -> Vec<Held> {
    ledger().clone().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ledger is the process's, and other unit tests may note handles of their own while
    /// this one runs: it looks only at numbers no launcher of theirs gives.
    const A: Handle = Handle(u64::MAX - 1);
    const B: Handle = Handle(u64::MAX - 2);
    const C: Handle = Handle(u64::MAX - 3);

    fn ours() -> Vec<Held> {
        (held().into_iter())
            .filter(|held| [A, B, C].contains(&held.handle))
            .collect()
    }

    #[test]
    fn notes_nothing_until_a_session_starts_then_what_is_made_and_given_back() {
        made(C, None);
        assert!(ours().is_empty());
        start();
        made(A, None);
        made(B, None);
        made(A, None);
        assert_eq!(
            ours().iter().map(|held| held.handle).collect::<Vec<_>>(),
            [B, A],
            "made again, it is the newest"
        );
        given_back(B);
        given_back(C);
        assert!(keep(A));
        assert!(!keep(B));
        assert_eq!(
            ours(),
            [Held {
                launcher: current(),
                handle: A,
                name: None,
                kept: true
            }]
        );
    }
}
