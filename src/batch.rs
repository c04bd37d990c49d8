//! Running one operation, and the save after it, over a stream of handles.
//!
//! Up to `--jobs` requests are in flight at once over kept-alive connections (a semaphore), and
//! results come back in input order (`buffered` over a wider window), so output never depends on
//! timing, and one slow answer does not hold up the requests behind it until the window is full.
//! Nothing here prints: each handle becomes a `Record` that `report` renders, and a `Tally` that
//! picks the exit code. Whoever consumes the records says when to stop (stdout's reader gone).

use std::cell::Cell;
use std::time::{Duration, Instant};

use futures_util::{Stream, StreamExt};
use tokio::sync::Semaphore;

use crate::handle::Handle;
use crate::input::Item;
use crate::launcher::{Answer, Launcher, Metadata, NoAnswer, Operation};
use crate::outcome::{self, Class, Failure};

/// How many finished records may wait behind a slow one, per job, before input stops being read:
/// enough that a few delayed answers do not throttle a batch, little enough to bound memory.
const REORDER_WINDOW_PER_JOB: usize = 64;

/// What to do with each handle.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub operation: Operation,
    /// The save that follows a successful clear (`--save`).
    pub save: Option<Operation>,
    pub jobs: usize,
    pub fail_fast: bool,
}

impl Plan {
    /// The operations each handle goes through, in order.
    pub fn steps(&self) -> impl Iterator<Item = Operation> {
        std::iter::once(self.operation).chain(self.save)
    }
}

/// One request and what came of it.
#[derive(Debug)]
pub struct Step {
    pub operation: Operation,
    pub handle: Handle,
    pub status: Option<u16>,
    pub elapsed: Duration,
    pub result: Result<Option<Metadata>, Failure>,
    /// What came back, kept only for `--verbose` (which `report` renders).
    pub exchange: Option<Result<Answer, NoAnswer>>,
}

/// Everything that happened to one input handle.
#[derive(Debug)]
pub struct Record {
    pub item: Item,
    pub outcome: RecordOutcome,
}

#[derive(Debug)]
pub enum RecordOutcome {
    /// The input was not a handle; nothing was sent.
    Invalid(Failure),
    /// Not sent, because `--fail-fast` stopped the batch.
    NotStarted,
    /// The steps that ran; a save runs only after its clear succeeded.
    Ran(Vec<Step>),
}

impl Record {
    /// The class of this handle's first failure, if it failed.
    pub fn failure_class(&self) -> Option<Class> {
        match &self.outcome {
            RecordOutcome::Invalid(failure) => Some(failure.class),
            RecordOutcome::NotStarted => None,
            RecordOutcome::Ran(steps) => steps
                .iter()
                .find_map(|step| step.result.as_ref().err().map(|failure| failure.class)),
        }
    }
}

/// Counts over a batch, and the exit code it comes to.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub ok: u64,
    pub failed: u64,
    pub not_started: u64,
    /// Records counted, whatever their outcome.
    pub seen: u64,
    /// The class of the first failed handle in input order: it picks the exit code.
    pub first_failure: Option<Class>,
}

impl Tally {
    pub fn count(&mut self, record: &Record) {
        self.seen += 1;
        match (&record.outcome, record.failure_class()) {
            (RecordOutcome::NotStarted, _) => self.not_started += 1,
            (_, Some(class)) => {
                self.failed += 1;
                self.first_failure.get_or_insert(class);
            }
            (_, None) => self.ok += 1,
        }
    }

    pub fn done(&self) -> u64 {
        self.ok + self.failed
    }
}

/// Runs `plan` over `items`, handing each finished record to `each` in input order.
/// Returns when the input ends, or soon after the first failure with `--fail-fast`, or after
/// `each` returns `false` (nobody is reading the output any more). Returns whether it stopped
/// before the end of the input. `started` counts the handles taken up (sent, or found invalid),
/// so a caller whose batch was cut short can tell those from the ones never started.
pub async fn run(
    plan: Plan,
    items: impl Stream<Item = Item>,
    launcher: &Launcher,
    verbose: bool,
    started: &Cell<u64>,
    mut each: impl FnMut(Record) -> bool,
) -> bool {
    let stop = Cell::new(false);
    let permits = Semaphore::new(plan.jobs);
    // Once stopped, no more input is read: what is in flight finishes, and the stream ends
    // even when the input never would (`yes 1 | safe-ad clear-data - | head -1`).
    let records = items
        .take_while(|_| std::future::ready(!stop.get()))
        .map(|item| process(plan, item, launcher, verbose, &stop, &permits, started))
        .buffered(plan.jobs.saturating_mul(REORDER_WINDOW_PER_JOB));
    futures_util::pin_mut!(records);
    while let Some(record) = records.next().await {
        let failed = record.failure_class().is_some();
        let wanted = each(record);
        if (failed && plan.fail_fast) || !wanted {
            stop.set(true);
        }
        if stop.get() {
            // Requests already in flight finish and are reported; no new one starts.
            while let Some(record) = records.next().await {
                each(record);
            }
            return true;
        }
    }
    false
}

async fn process(
    plan: Plan,
    item: Item,
    launcher: &Launcher,
    verbose: bool,
    stop: &Cell<bool>,
    permits: &Semaphore,
    started: &Cell<u64>,
) -> Record {
    let handle = match item.handle {
        Ok(handle) => handle,
        Err(_) => {
            let failure = item
                .problem(plan.operation.name())
                .unwrap_or_else(|| Failure::usage("invalid handle"));
            started.set(started.get() + 1);
            return Record {
                item,
                outcome: RecordOutcome::Invalid(failure),
            };
        }
    };
    // The semaphore is fair, so handles start in input order; one that waited while the batch
    // was stopped is not started at all.
    let permit = permits.acquire().await;
    if stop.get() || permit.is_err() {
        return Record {
            item,
            outcome: RecordOutcome::NotStarted,
        };
    }
    started.set(started.get() + 1);
    let mut steps = Vec::with_capacity(2);
    for operation in plan.steps() {
        let step = step(launcher, operation, handle, verbose).await;
        let failed = step.result.is_err();
        steps.push(step);
        if failed {
            if plan.fail_fast {
                stop.set(true);
            }
            break;
        }
    }
    Record {
        item,
        outcome: RecordOutcome::Ran(steps),
    }
}

async fn step(launcher: &Launcher, operation: Operation, handle: Handle, verbose: bool) -> Step {
    let started = Instant::now();
    let sent = launcher.send(operation, handle).await;
    let elapsed = started.elapsed();
    let (status, result) = match &sent {
        Ok(answer) => {
            let result = outcome::judge_answer(answer).and_then(|()| {
                if operation == Operation::Metadata {
                    outcome::judge_metadata(answer).map(Some)
                } else {
                    Ok(None)
                }
            });
            (Some(answer.status), result)
        }
        Err(no_answer) => (
            None,
            Err(outcome::judge_no_answer(
                no_answer,
                Some(operation),
                launcher.base(),
            )),
        ),
    };
    Step {
        operation,
        handle,
        status,
        elapsed,
        result,
        exchange: verbose.then_some(sent),
    }
}
