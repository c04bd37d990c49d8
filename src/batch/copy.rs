//! A fresh copy of the data a name names, taken for one run and given back: what a command
//! given a name in place of a handle works on. The copy is a lease ([`super::steps::Lease`]),
//! so it is given back on every path, Ctrl-C included; the data id it comes through is given
//! back as soon as the copy is there. Plans that `--dry-run` prints list the same requests
//! ([`super::on_a_copy`]).

use super::{Sending, Step, Steps, TakenCopy};
use crate::launcher::{Operation, Request};
use crate::name::Name;

/// A copy taken for a name (or the failed try), held until [`Taken::give_back`].
pub struct Taken<'a> {
    steps: Steps<'a>,
    /// The copy, when the launcher gave one.
    pub copy: Option<TakenCopy>,
}

/// Takes a fresh copy of the public data named `name`: a data id for the name, the fetch
/// through it (the copy, held as a lease), and the data id given back. The steps sent so far
/// come back with it, to be said before the work on the copy.
pub async fn take<'a>(sending: Sending<'a>, name: Name) -> (Taken<'a>, Vec<Step>) {
    let mut steps = Steps::new(sending);
    let of_name = Request::DataIdOfName {
        name,
        private: false,
    };
    let mut copy = None;
    if let Ok((data_id, _)) = steps.lease(of_name, Request::DropDataId).await {
        let fetch = Request::Fetch(data_id);
        let drop_copy = |handle| Request::OnHandle(Operation::Drop, handle);
        if let Ok((handle, _)) = steps.lease(fetch, drop_copy).await {
            copy = Some(TakenCopy { handle, name });
        }
        let _ = steps.give_back_by(Request::DropDataId(data_id)).await;
    }
    let taken = steps.drain();
    (Taken { steps, copy }, taken)
}

impl Taken<'_> {
    /// Gives the copy back: the steps of that.
    pub async fn give_back(self) -> Vec<Step> {
        self.steps.finish().await
    }
}
