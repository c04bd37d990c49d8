//! Running a procedure over a stream of handles: one operation (and the save after a clear),
//! or a reopen; and the fixed procedures of `create` and `open`, which take a name.
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
use crate::launcher::{Answer, Launcher, NoAnswer, Operation, Request, Slot};
use crate::name::Name;
use crate::outcome::{self, Class, Failure, Reply};

/// How many finished records may wait behind a slow one, per job, before input stops being read:
/// enough that a few delayed answers do not throttle a batch, little enough to bound memory.
const REORDER_WINDOW_PER_JOB: usize = 64;

/// What to do with each handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Procedure {
    /// One operation, and after a successful clear the save asked for (`--save`).
    Operation {
        operation: Operation,
        save: Option<Operation>,
    },
    /// A fresh handle for the same data, through its data id (`reopen`); the old handle is
    /// dropped afterwards when asked (`--drop`).
    Reopen { drop_old: bool },
}

impl Procedure {
    /// The name of the command, for messages about input that is not a handle.
    pub fn name(self) -> &'static str {
        match self {
            Procedure::Operation { operation, .. } => operation.name(),
            Procedure::Reopen { .. } => "reopen",
        }
    }

    /// The requests one handle goes through, in order, as far as they can be known before
    /// any answer (`--dry-run`, `--curl`).
    pub fn plan(self, handle: Handle) -> Vec<Request<Slot>> {
        let handle = Slot::Is(handle);
        match self {
            Procedure::Operation { operation, save } => std::iter::once(operation)
                .chain(save)
                .map(|operation| Request::OnHandle(operation, handle))
                .collect(),
            Procedure::Reopen { drop_old } => {
                let mut requests = vec![Request::OnHandle(Operation::DataId, handle)];
                requests.extend(through_data_id_plan());
                if drop_old {
                    requests.push(Request::OnHandle(Operation::Drop, handle));
                }
                requests
            }
        }
    }
}

/// What to do with each handle, how many at once, and whether to stop at the first failure.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub procedure: Procedure,
    pub jobs: usize,
    pub fail_fast: bool,
}

/// One request and what came of it.
#[derive(Debug)]
pub struct Step {
    pub request: Request,
    pub status: Option<u16>,
    pub elapsed: Duration,
    pub result: Result<Reply, Failure>,
    /// What came back, kept only for `--verbose` (which `report` renders).
    pub exchange: Option<Result<Answer, NoAnswer>>,
}

impl Step {
    /// The handle a successful step gave: of created data, a data id, or fetched data.
    pub fn new_handle(&self) -> Option<Handle> {
        match &self.result {
            Ok(Reply::Handle(handle)) => Some(Handle(*handle)),
            Ok(Reply::Fetched(fetched)) => Some(Handle(fetched.handle_id)),
            _ => None,
        }
    }
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
                .problem(plan.procedure.name())
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
    let mut steps = Steps::new(launcher, verbose);
    match plan.procedure {
        Procedure::Operation { operation, save } => {
            let done = steps.run(Request::OnHandle(operation, handle)).await;
            if let (Some(_), Some(save)) = (done, save) {
                steps.run(Request::OnHandle(save, handle)).await;
            }
        }
        Procedure::Reopen { drop_old } => {
            let data_id = steps
                .run(Request::OnHandle(Operation::DataId, handle))
                .await;
            if let Some(Reply::Handle(data_id)) = data_id {
                let fetched = steps.through_data_id(Handle(data_id)).await;
                if fetched && drop_old {
                    steps.run(Request::OnHandle(Operation::Drop, handle)).await;
                }
            }
        }
    }
    let steps = steps.done;
    if plan.fail_fast && steps.iter().any(|step| step.result.is_err()) {
        stop.set(true);
    }
    Record {
        item,
        outcome: RecordOutcome::Ran(steps),
    }
}

/// `create`: the new appendable data, and the save after it when asked (`--put`).
pub async fn create(
    launcher: &Launcher,
    name: Name,
    private: bool,
    white_list: bool,
    put: bool,
    verbose: bool,
) -> Vec<Step> {
    let mut steps = Steps::new(launcher, verbose);
    let created = steps
        .run(Request::Create {
            name,
            private,
            white_list,
        })
        .await;
    if let (Some(Reply::Handle(handle)), true) = (created, put) {
        steps
            .run(Request::OnHandle(Operation::Put, Handle(handle)))
            .await;
    }
    steps.done
}

/// `open`: a handle for data on the network, through a data id for its name.
pub async fn open(launcher: &Launcher, name: Name, private: bool, verbose: bool) -> Vec<Step> {
    let mut steps = Steps::new(launcher, verbose);
    if let Some(Reply::Handle(data_id)) = steps.run(Request::DataIdOfName { name, private }).await {
        steps.through_data_id(Handle(data_id)).await;
    }
    steps.done
}

/// The requests of `create` and `open` before any answer (`--dry-run`, `--curl`).
pub fn create_plan(name: Name, private: bool, white_list: bool, put: bool) -> Vec<Request<Slot>> {
    let mut requests = vec![Request::Create {
        name,
        private,
        white_list,
    }];
    if put {
        requests.push(Request::OnHandle(
            Operation::Put,
            Slot::FromAnswer("handleId"),
        ));
    }
    requests
}

pub fn open_plan(name: Name, private: bool) -> Vec<Request<Slot>> {
    let mut requests = vec![Request::DataIdOfName { name, private }];
    requests.extend(through_data_id_plan());
    requests
}

fn through_data_id_plan() -> [Request<Slot>; 2] {
    let data_id = Slot::FromAnswer("dataIdHandle");
    [Request::Fetch(data_id), Request::DropDataId(data_id)]
}

/// The steps of one procedure, sent one after another.
struct Steps<'a> {
    launcher: &'a Launcher,
    verbose: bool,
    done: Vec<Step>,
}

impl<'a> Steps<'a> {
    fn new(launcher: &'a Launcher, verbose: bool) -> Steps<'a> {
        Steps {
            launcher,
            verbose,
            done: Vec::with_capacity(2),
        }
    }

    /// Sends `request`; its reply if it succeeded.
    async fn run(&mut self, request: Request) -> Option<Reply> {
        let step = step(self.launcher, request, self.verbose).await;
        let reply = step.result.as_ref().ok().cloned();
        self.done.push(step);
        reply
    }

    /// Fetches the data a data-id handle names, then drops the data-id handle whatever came
    /// of the fetch, so none is left in the launcher's cache. Says whether the fetch succeeded.
    async fn through_data_id(&mut self, data_id: Handle) -> bool {
        let fetched = self.run(Request::Fetch(data_id)).await.is_some();
        self.run(Request::DropDataId(data_id)).await;
        fetched
    }
}

async fn step(launcher: &Launcher, request: Request, verbose: bool) -> Step {
    let started = Instant::now();
    let sent = launcher.send(&request).await;
    let elapsed = started.elapsed();
    let (status, result) = match &sent {
        Ok(answer) => (Some(answer.status), outcome::judge(&request, answer)),
        Err(no_answer) => (
            None,
            Err(outcome::judge_no_answer(
                no_answer,
                Some(request.operation()),
                launcher.base(),
            )),
        ),
    };
    Step {
        request,
        status,
        elapsed,
        result,
        exchange: verbose.then_some(sent),
    }
}
