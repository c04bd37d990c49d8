//! The typed results of the procedures: what `create`, `open` and `reopen` made, where an
//! operation's saves stand, whether an `append` landed. `batch` tells them from its own run;
//! `report` words them without reading the steps back.

use crate::handle::Handle;
use crate::launcher::{Fetched, Operation, Request};
use crate::name::Name;
use crate::session::Ledger;

use super::show::WhichRead;
use super::{Settled, Step};

/// The steps of a procedure that makes a handle (`create`, `open`, `reopen`), and what it made:
/// `report` words [`Made`] at the step that made it, and says nothing of the steps around it but
/// their failures.
#[derive(Debug)]
pub struct Ran {
    pub steps: Vec<Step>,
    /// `None` when the request that makes the handle was never sent (an earlier step failed,
    /// or Ctrl-C came first), nor by a procedure that makes none.
    pub making: Option<Making>,
    /// The saves sent (an operation's `--save`, and a purge's first save).
    pub saves: Vec<Saved>,
    /// The fresh copy taken for a name given in place of a handle (a stand-in numbered
    /// `u64::MAX` when its fetch failed: the steps are still said of the name).
    pub copy: Option<TakenCopy>,
    /// How many times a name's clear was made again on a fresh copy, another save having beaten
    /// its own (`MADE_AGAIN_AT_MOST` at most).
    pub retried: u32,
}

/// A fresh copy of the data a name names, which a procedure took for its own use and gives
/// back: what it does to that handle, `report` words as done to the data of that name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TakenCopy {
    pub handle: Handle,
    pub name: Name,
}

/// A save a procedure sent: its place among the steps, and whether it followed a `clear-data`
/// of the same copy (which then held no data items for the save to leave out of it).
#[derive(Debug, Clone, Copy)]
pub struct Saved {
    pub at: usize,
    pub after_clear_data: bool,
}

impl Ran {
    /// A procedure that made (or tried to make) a handle and nothing else (`create`, `open`),
    /// noted in the session's `ledger`.
    pub(super) fn made(steps: Vec<Step>, making: Option<Making>, ledger: Option<&Ledger>) -> Ran {
        Ran {
            steps,
            making,
            saves: Vec::new(),
            copy: None,
            retried: 0,
        }
        .noted(ledger)
    }

    /// Tells a `shell` session's `ledger` what this procedure left the person and what it gave
    /// back: the handle it made, when it is theirs, and each handle a `drop` that succeeded
    /// freed (a name's copy given back is no handle of theirs: noted, it changes nothing). A
    /// command line has no ledger, and nothing is noted.
    pub(super) fn noted(self, ledger: Option<&Ledger>) -> Ran {
        let Some(ledger) = ledger else { return self };
        if let Some(Making {
            made: Some(made),
            settled: Settled::Yours,
            ..
        }) = &self.making
        {
            match made {
                Made::Created { handle, name, .. } => ledger.made(*handle, Some(*name)),
                Made::Opened { fetched } => {
                    let name = self.steps.iter().find_map(|step| step.request.name());
                    ledger.made(Handle(fetched.handle_id), name);
                }
                Made::Reopened {
                    old,
                    fetched,
                    which,
                    ..
                } => {
                    let name = (which.as_ref())
                        .and_then(|which| which.known())
                        .map(|which| which.name)
                        .or_else(|| ledger.name_of(*old));
                    ledger.made(Handle(fetched.handle_id), name);
                }
            }
        }
        for step in &self.steps {
            if let (Request::OnHandle(Operation::Drop, handle), Ok(_)) =
                (step.request, &step.result)
            {
                ledger.given_back(handle);
            }
        }
        self
    }
}

impl AsRef<[Step]> for Ran {
    fn as_ref(&self) -> &[Step] {
        &self.steps
    }
}

/// The request that makes a procedure's handle was sent: its place among the steps, and what
/// came of the procedure when it made the handle.
#[derive(Debug, Clone)]
pub struct Making {
    pub at: usize,
    pub made: Option<Made>,
    /// Whether the handle is the person's, or a stop signal kept the procedure from finishing
    /// and it was given back (or, when that failed, named with what the run left).
    pub settled: Settled,
}

/// What a procedure that makes a handle made, as it ran.
#[derive(Debug, Clone)]
pub enum Made {
    /// `create`: the new data's handle and name; `saved` when `--put` saved it.
    Created {
        handle: Handle,
        name: Name,
        saved: bool,
    },
    /// `open`: a handle for data on the network, and what fetching it said.
    Opened { fetched: Fetched },
    /// `reopen`: a fresh handle (in `fetched`) for the data behind `old`; `dropped` when
    /// `--drop` dropped `old`; `which` data it is, when its read was sent.
    Reopened {
        old: Handle,
        fetched: Fetched,
        dropped: bool,
        which: Option<WhichRead>,
    },
}

/// The steps of `append` (of a name, or of immutable content), and where its append stands
/// among them when it succeeded: `report` words that, not the steps around it.
#[derive(Debug)]
pub struct AppendRan {
    pub steps: Vec<Step>,
    pub appended: Option<Appended>,
}

impl AsRef<[Step]> for AppendRan {
    fn as_ref(&self) -> &[Step] {
        &self.steps
    }
}

/// An append that succeeded: the item is on the network, in the data behind `handle`.
#[derive(Debug, Clone, Copy)]
pub struct Appended {
    pub at: usize,
    pub handle: Handle,
}
