//! The handles an interactive `shell` session holds: the appendable-data handles its lines made
//! for the person (`create`, `open`, `reopen`) and did not give back (`drop`, `reopen --drop`).
//! One command line holds nothing past its own exit, so only a session has a [`Ledger`], a value
//! of the session's (`runtime::Session`) handed down to each line's procedures: `batch` notes in
//! the ledger it is given what each procedure made or gave back, and a command line, given
//! none, notes nothing. The handles are kept once the prompt [`start`](Ledger::start)s the
//! ledger; it gives back what it holds when it ends, but those a person marked to keep
//! ([`Ledger::keep`]).
//!
//! Only handles of the person's are here: a name's fresh copy, a data id and every other
//! handle a command takes for its own use is a lease, given back by that command.
//!
//! Any shell, a script's too, also asks what each line made and gave back
//! ([`Ledger::line_begins`], [`Ledger::line_ended`]): a variable that held a handle the session
//! dropped is then said to be so.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::handle::Handle;
use crate::name::Name;

/// How a line reached its launcher: what the handles it made are given back with. A line may
/// name another launcher than the session's (`--launcher-url`), with a token of its own
/// (`--token-file`), and a handle number means nothing without them.
#[derive(Debug, Default, Clone, PartialEq, Eq, PartialOrd, Ord)]
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

/// What a `shell` session knows of the handles its lines made and gave back: the session's
/// value ([`crate::runtime::Session`] holds it), handed down to each line's procedures.
#[derive(Debug, Default)]
pub struct Ledger {
    /// The handles the session holds; `None` until it [`start`](Ledger::start)s listening
    /// (a script notes only each line's own, for its variables).
    held: Mutex<Option<Vec<Held>>>,
    /// What the running line made and gave back; `None` while no line runs.
    line: Mutex<Option<LineHandles>>,
    /// The launcher the running line sends to ([`Ledger::reaching`]).
    launcher: Mutex<Reach>,
}

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

/// Locks `mutex`; a panic elsewhere while it was held leaves the value as it was.
fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Ledger {
    /// From now on, notes what the lines make and give back.
    pub fn start(&self) {
        locked(&self.held).get_or_insert_with(Vec::new);
    }

    /// A line begins: what it makes and gives back is noted until [`Ledger::line_ended`].
    pub fn line_begins(&self) {
        *locked(&self.line) = Some(LineHandles::default());
    }

    /// The line that [`Ledger::line_begins`] began has ended: what it made and gave back.
    pub fn line_ended(&self) -> LineHandles {
        let mut noted = locked(&self.line).take().unwrap_or_default();
        noted.launcher = self.current().base;
        noted
    }

    /// The running line reaches its launcher so: what it makes or gives back from now on is
    /// that launcher's.
    pub fn reaching(&self, reach: Reach) {
        *locked(&self.launcher) = reach;
    }

    fn current(&self) -> Reach {
        locked(&self.launcher).clone()
    }

    /// A procedure made `handle` for the person (the data's `name`, where known).
    pub fn made(&self, handle: Handle, name: Option<Name>) {
        if let Some(line) = locked(&self.line).as_mut() {
            line.made.push((handle, name));
        }
        let launcher = self.current();
        if let Some(held) = locked(&self.held).as_mut() {
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
    pub fn given_back(&self, handle: Handle) {
        if let Some(line) = locked(&self.line).as_mut() {
            line.given_back.push(handle);
        }
        let launcher = self.current();
        if let Some(held) = locked(&self.held).as_mut() {
            held.retain(|held| held.launcher.base != launcher.base || held.handle != handle);
        }
    }

    /// The name of the data a held handle is for, where it is known.
    pub fn name_of(&self, handle: Handle) -> Option<Name> {
        let launcher = self.current();
        locked(&self.held)
            .as_ref()?
            .iter()
            .find(|held| held.launcher.base == launcher.base && held.handle == handle)
            .and_then(|held| held.name)
    }

    /// Marks `handle` (of any launcher the session reached) to be kept when the session ends;
    /// `false` if the session does not hold it.
    pub fn keep(&self, handle: Handle) -> bool {
        let mut found = false;
        for held in locked(&self.held).iter_mut().flatten() {
            if held.handle == handle {
                held.kept = true;
                found = true;
            }
        }
        found
    }

    /// What the session holds, oldest first (the launcher evicts the oldest of a kind past 100).
    pub fn held(&self) -> Vec<Held> {
        locked(&self.held).clone().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Handle = Handle(1);
    const B: Handle = Handle(2);
    const C: Handle = Handle(3);

    #[test]
    fn notes_nothing_until_a_session_starts_then_what_is_made_and_given_back() {
        let ledger = Ledger::default();
        ledger.made(C, None);
        assert!(ledger.held().is_empty());
        ledger.start();
        ledger.made(A, None);
        ledger.made(B, None);
        ledger.made(A, None);
        assert_eq!(
            ledger
                .held()
                .iter()
                .map(|held| held.handle)
                .collect::<Vec<_>>(),
            [B, A],
            "made again, it is the newest"
        );
        ledger.given_back(B);
        ledger.given_back(C);
        assert!(ledger.keep(A));
        assert!(!ledger.keep(B));
        assert_eq!(
            ledger.held(),
            [Held {
                launcher: Reach::default(),
                handle: A,
                name: None,
                kept: true
            }]
        );
    }

    #[test]
    fn a_line_notes_what_it_made_and_gave_back_at_the_launcher_it_reached() {
        let ledger = Ledger::default();
        ledger.line_begins();
        ledger.reaching(Reach {
            base: "http://127.0.0.1:1".into(),
            ..Reach::default()
        });
        ledger.made(A, None);
        ledger.given_back(B);
        let line = ledger.line_ended();
        assert_eq!(line.launcher, "http://127.0.0.1:1");
        assert_eq!(line.made, [(A, None)]);
        assert_eq!(line.given_back, [B]);
        assert_eq!(
            ledger.line_ended(),
            LineHandles {
                launcher: line.launcher,
                ..LineHandles::default()
            }
        );
    }
}
