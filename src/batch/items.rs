//! The one-item changes at indexes (`remove`, `restore`, `purge`): the order they are applied
//! in, the plan `--dry-run` and `--curl` print (the read that checks the indexes, a purge's
//! first save, one change per index, the save after them), and that plan run by the one plan
//! interpreter.

use super::*;

/// The indexes of a one-item change, in the order they are applied: the highest first, so that
/// each index still names the item the person saw (removing item 1 moves every later item down).
pub fn highest_first(indexes: &[u64]) -> Vec<u64> {
    let mut ordered = indexes.to_vec();
    ordered.sort_unstable_by(|a, b| b.cmp(a));
    ordered
}

/// What a handle's copy is to a plan: one the person holds, whose removals may not have
/// reached the network, or a fresh copy taken for a name this run, whose lists are the
/// network's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyIs {
    Held,
    Fresh,
}

/// How the indexes of a one-item change are checked before the first change: by the read of
/// the handle's metadata that its plan lists first (the indexes given), or by the read that
/// chose the items (the selectors: `select::choose`), which no plan can list, since what it
/// sends depends on what the handle holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checked {
    ByPlan,
    ByChoice,
}

/// The requests of `remove`, `restore` or `purge`, in the order sent: the read that checks the
/// indexes against the list's length ([`Checked::ByPlan`]), a purge's first save
/// ([`saved_first`]), one change per index, highest first, and the save after them. What
/// `--dry-run` and `--curl` print, and what [`select::check_indexes`] and [`at_indexes`] run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtIndexesPlan {
    pub operation: Operation,
    pub handle: Handle,
    /// The indexes as given (the check names them in this order).
    pub indexes: Vec<u64>,
    pub save: Option<Operation>,
    requests: Vec<Request<Slot>>,
    checked: Checked,
    copy: CopyIs,
}

impl AtIndexesPlan {
    /// Whether the copy changed is one taken for the run (a name's), whose changes reach the
    /// network only with the save.
    pub fn on_a_fresh_copy(&self) -> bool {
        self.copy == CopyIs::Fresh
    }

    /// The plan of `operation` at `indexes` of a copy that is `copy`: a fresh copy's deleted
    /// list is the network's, so a purge of it needs no save before it ([`saved_first`]).
    pub fn on(
        copy: CopyIs,
        operation: Operation,
        handle: Handle,
        indexes: &[u64],
        save: Option<Operation>,
        checked: Checked,
    ) -> AtIndexesPlan {
        let on = Slot::Is(handle);
        let first_save = match copy {
            CopyIs::Held => saved_first(operation, save),
            CopyIs::Fresh => None,
        };
        let check =
            (checked == Checked::ByPlan).then_some(Request::OnHandle(Operation::Metadata, on));
        let requests = check
            .into_iter()
            .chain(
                first_save
                    .into_iter()
                    .flat_map(|first| with_read_back(Request::OnHandle(first, on))),
            )
            .chain(
                highest_first(indexes)
                    .into_iter()
                    .map(|index| Request::AtIndex(operation, on, index)),
            )
            .chain(
                save.into_iter()
                    .flat_map(|save| with_read_back(Request::OnHandle(save, on))),
            )
            .collect();
        AtIndexesPlan {
            operation,
            handle,
            indexes: indexes.to_vec(),
            save,
            requests,
            checked,
            copy,
        }
    }

    /// The save the plan sends before the changes, if it lists one ([`saved_first`]; never for
    /// a fresh copy, whose removals are the network's).
    pub fn first_save(&self) -> Option<Operation> {
        match self.copy {
            CopyIs::Held => saved_first(self.operation, self.save),
            CopyIs::Fresh => None,
        }
    }

    /// Every request, as `--dry-run` and `--curl` print them.
    pub fn requests(&self) -> &[Request<Slot>] {
        &self.requests
    }

    /// The plan without the save a purge sends first ([`saved_first`]): for when a read found
    /// that the network has the removal of every item the purge takes, so that save would
    /// change nothing but the version. The same plan when it has no such save.
    pub fn without_first_save(&self) -> AtIndexesPlan {
        let Some(first) = self.first_save() else {
            return self.clone();
        };
        let first = with_read_back(Request::OnHandle(first, Slot::Is(self.handle))).len();
        let mut lighter = self.clone();
        let at = self.check_len();
        lighter.requests.drain(at..at + first);
        lighter
    }

    /// The read that checks the indexes, when the plan lists one.
    pub(super) fn check(&self) -> &[Request<Slot>] {
        &self.requests[..self.check_len()]
    }

    /// The saves and the changes, after the check.
    fn changes(&self) -> &[Request<Slot>] {
        &self.requests[self.check_len()..]
    }

    fn check_len(&self) -> usize {
        usize::from(self.checked == Checked::ByPlan)
    }
}

/// What came of a one-item change over several indexes.
#[derive(Debug, Default)]
pub struct AtIndexes {
    /// One count per index; `first_failure` also takes a failed save.
    pub tally: Tally,
    /// The save after the changes ran and succeeded.
    pub saved: bool,
    /// Every request sent, in order (each was also handed to `each` as it was done).
    pub steps: Vec<Step>,
}

/// `remove`, `restore`, `purge` once the indexes are checked: the rest of the plan `--dry-run`
/// prints ([`AtIndexesPlan`]), run by the one plan interpreter. One request per index, one at
/// a time, highest first, each handed to `each` when done; with `fail_fast` none after the
/// first failure. The save (if asked) runs once, after every change succeeded: a handle half
/// changed is not saved. A purge with `--save post` is saved first too ([`saved_first`]); when
/// that fails nothing is changed.
pub async fn at_indexes(
    sending: Sending<'_>,
    plan: &AtIndexesPlan,
    fail_fast: bool,
    each: &dyn Fn(&Step),
) -> AtIndexes {
    let mut steps = Steps::watched(sending, each);
    let failed_change = match fail_fast {
        true => FailedChange::Stops,
        false => FailedChange::OthersGo,
    };
    interpret_with(&mut steps, plan.changes(), failed_change).await;
    let steps = steps.finish().await;
    let mut done = AtIndexes::default();
    for step in &steps {
        let changed_before = done.tally.seen > 0;
        if let Request::AtIndex(..) = step.request {
            done.tally.seen += 1;
        }
        match (&step.result, step.request) {
            (Ok(_), Request::AtIndex(..)) => done.tally.ok += 1,
            (Err(failure), Request::AtIndex(..)) => {
                done.tally.failed += 1;
                done.tally.first_failure.get_or_insert(failure.class);
            }
            // The save after the changes (a purge's first save comes before them).
            (Ok(_), _) => done.saved = changed_before,
            (Err(failure), _) => {
                done.tally.first_failure.get_or_insert(failure.class);
            }
        }
    }
    // With `--fail-fast`, the changes a failed one kept from being sent.
    if done.tally.failed > 0 {
        let planned = (plan.changes().iter())
            .filter(|request| matches!(request, Request::AtIndex(..)))
            .count() as u64;
        done.tally.not_started = planned - done.tally.seen;
    }
    done.steps = steps;
    done
}
