//! Running a procedure over a stream of handles: one operation (and the save after a clear),
//! or a reopen; the fixed procedures of `create` and `open`, which take a name; the one-item
//! changes (`remove`, `restore`, `purge`, `append`); `show` (in `batch/show.rs`); `status`
//! (in `batch/status.rs`), which reads a copy and the network's data as `show` does; and the
//! filter's reads and edits (in `batch/filter.rs`).
//!
//! Launcher handles a procedure obtains for its own use (a data id to fetch through, a sign key
//! to read, a structured data to read) are [`Lease`](steps::Lease)s: the step runner holds each with the
//! request that frees it, and gives it back when the procedure is done with it, whether its
//! later steps succeeded, failed or were cut short by Ctrl-C ([`Stop`], [`until_stopped`]).
//! Nothing else frees them, so no call site can forget one.
//!
//! Up to `--jobs` requests are in flight at once over kept-alive connections (a semaphore), and
//! results come back in input order (`buffered` over a wider window), so output never depends on
//! timing, and one slow answer does not hold up the requests behind it until the window is full.
//! Nothing here prints: each handle becomes a `Record` that `report` renders, and a `Tally` that
//! picks the exit code. Whoever consumes the records says when to stop (stdout's reader gone).
//!
//! The step runner, the leases and the stop live in `batch/steps.rs`, re-exported here; the
//! plan interpreter in `batch/interpret.rs`; the typed results in `batch/made.rs`; the one-item
//! changes at indexes (`remove`, `restore`, `purge`) and their plans in `batch/items.rs`; when a name's
//! change is made again after another save came first, in `batch/again.rs`.

mod again;
#[cfg(feature = "emulator")]
pub mod capture;
pub mod copy;
pub mod filter;
pub mod immutable;
mod interpret;
mod items;
mod made;
pub mod poll;
pub mod restore;
pub mod select;
pub mod show;
pub mod status;
mod steps;

use std::cell::Cell;
use std::time::Duration;

use futures_util::{Stream, StreamExt};
use tokio::sync::Semaphore;

use crate::handle::{Handle, Target};
use crate::input::Item;
use crate::launcher::{Answer, NoAnswer, Operation, Request, Slot};
use crate::name::Name;
use crate::outcome::{Class, Failure, Reply};

use again::clear_of_a_name;
pub use again::{a_little_while, beaten_by_another_save, read_as_anothers, MADE_AGAIN_AT_MOST};
use interpret::{interpret, interpret_with, FailedChange};
pub use items::{at_indexes, AtIndexes, AtIndexesPlan, Checked, CopyIs};
pub use made::{AppendRan, Appended, Made, Making, Ran, Saved, TakenCopy};
use steps::Steps;
pub use steps::{until_stopped, Ended, Left, Sending, Settled, Stop, Unread};

/// How many finished records may wait behind a slow one, per job, before input stops being read:
/// enough that a few delayed answers do not throttle a batch, little enough to bound memory.
const REORDER_WINDOW_PER_JOB: usize = 64;

/// The most leases of one kind held at once by any command (`show`, `reopen`, `open`,
/// `append`): the launcher keeps 100 handles of a kind and evicts the oldest, which would be
/// the person's own.
pub const MOST_LEASES_OF_A_KIND: usize = 8;

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

    /// The requests one handle (or name) goes through, in order, as far as they can be known
    /// before any answer (`--dry-run`, `--curl`). A name's copy is taken first and given back
    /// last ([`on_a_copy`]); what the operation changes in it is saved with a post, so that the
    /// words hold on the network. A fresh copy's deleted list is the network's, so a purge of it
    /// needs no save before it ([`saved_first`] is for a copy whose removals may be unsaved).
    /// Names that make no sense (`put`, `drop`, `reopen --drop`: their specs say why) are
    /// refused before any plan; their plans here are the copy's alone.
    pub fn plan(self, target: Target) -> Vec<Request<Slot>> {
        let handle = match target {
            Target::Handle(handle) => Slot::Is(handle),
            Target::Name(name) => return self.plan_by_name(name),
        };
        match self {
            Procedure::Operation { operation, save } => saved_first(operation, save)
                .into_iter()
                .chain(std::iter::once(operation))
                .chain(save)
                .flat_map(|operation| with_read_back(Request::OnHandle(operation, handle)))
                .collect(),
            Procedure::Reopen { drop_old } => {
                let mut requests = vec![Request::OnHandle(Operation::DataId, handle)];
                requests.extend(through_data_id_plan(Request::Fetch));
                // Which data it made: the new handle's serialised bytes (its name, owners).
                let fresh = Slot::FromAnswer("handleId");
                requests.push(Request::OnHandle(Operation::Serialise, fresh));
                if drop_old {
                    requests.push(Request::OnHandle(Operation::Drop, handle));
                }
                requests
            }
        }
    }
}

impl Procedure {
    fn plan_by_name(self, name: Name) -> Vec<Request<Slot>> {
        let copy = Slot::FromAnswer(COPY);
        match self {
            // The fresh handle is the person's: `reopen NAME` is `open NAME`.
            Procedure::Reopen { .. } => open_plan(name, false),
            Procedure::Operation { operation, .. } => {
                let save = match operation {
                    operation if operation.is_clear() => Some(Operation::Post),
                    _ => None,
                };
                let on_copy = std::iter::once(operation)
                    .chain(save)
                    .flat_map(|operation| with_read_back(Request::OnHandle(operation, copy)));
                on_a_copy(name, on_copy)
            }
        }
    }
}

/// The slot a plan names a name's fresh copy by (the fetch answers its `handleId`): a name of
/// its own, since the work on the copy may take other handles from answers (`{handleId}`).
pub const COPY: &str = "copyHandle";

/// The requests of work on a fresh copy of the data named `name`: the copy taken ([`open_plan`]),
/// `work` on it (its requests on `Slot::FromAnswer(COPY)`), and the copy given back. The
/// interpreter holds the copy as a lease, so it is given back whatever came of the work.
pub fn on_a_copy(name: Name, work: impl IntoIterator<Item = Request<Slot>>) -> Vec<Request<Slot>> {
    let mut requests = open_plan(name, false);
    requests.extend(work);
    requests.push(Request::OnHandle(Operation::Drop, Slot::FromAnswer(COPY)));
    requests
}

/// The requests of work on a fresh copy of `name` ([`on_a_copy`]), from the plan the work has
/// on a handle (`plan_on`): its requests on that handle are sent to the copy.
pub fn on_a_copy_of(
    name: Name,
    plan_on: impl FnOnce(Handle) -> Vec<Request<Slot>>,
) -> Vec<Request<Slot>> {
    // A number no plan gives a handle of its own: its requests are the copy's.
    const STANDS_IN: Handle = Handle(u64::MAX);
    let copy = |slot: Slot| match slot {
        Slot::Is(STANDS_IN) => Slot::FromAnswer(COPY),
        slot => slot,
    };
    // Every handle a request names goes through `copy`, which changes only the stand-in.
    let work = plan_on(STANDS_IN)
        .into_iter()
        .map(|request| request.with_handles(copy));
    on_a_copy(name, work)
}

/// What to do with each handle, and whether to stop at the first failure (how many at once is
/// what it is sent with: [`Sending::jobs`]).
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub procedure: Procedure,
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
    /// No answer came, and the request may have reached the launcher (which may have acted).
    pub answer_lost: bool,
    /// After a save that succeeded: the read of the same handle's metadata that says which
    /// version was saved (the launcher answers a save with no more than `OK`). It is part of
    /// the save's step, not a step of its own: its failure never makes the save a failure.
    pub read_back: Option<Box<Step>>,
    /// A request that makes a handle was answered 2xx with a body safe-ad refused, which still
    /// named a handle (`handleId`): the launcher made it, and the step runner gives it back at
    /// once, though nothing else of the answer is used.
    pub refused_handle: Option<Handle>,
}

impl Step {
    /// The read of which data a reopen made (its new handle's serialised bytes): its failure
    /// leaves the name unknown and is no failure of the reopen, which made the handle.
    pub fn is_which_read(&self) -> bool {
        matches!(self.request, Request::OnHandle(Operation::Serialise, _))
    }

    /// The handle a successful step gave: of created data, a data id, or fetched data.
    pub fn new_handle(&self) -> Option<Handle> {
        match &self.result {
            Ok(reply) => handle_in(reply),
            Err(_) => None,
        }
    }
}

/// What the read after a save found: the version saved, or why it could not be read.
#[derive(Debug, Clone, Copy)]
pub enum SavedVersion<'a> {
    Read(u64),
    Unread(&'a Failure),
}

impl Step {
    /// For a save that succeeded and was read back: the version it saved (after a POST the
    /// launcher's copy is the version just sent; after a PUT, the one saved).
    pub fn saved_version(&self) -> Option<SavedVersion<'_>> {
        let read = self.read_back.as_deref()?;
        Some(match &read.result {
            Ok(Reply::Metadata(metadata)) => SavedVersion::Read(metadata.version),
            Ok(_) => return None,
            Err(failure) => SavedVersion::Unread(failure),
        })
    }
}

/// The requests of a save as `--dry-run` and `--curl` show them: the save, and the read of the
/// same handle's metadata that says which version it saved. Any other request alone.
pub fn with_read_back<H: Copy>(request: Request<H>) -> Vec<Request<H>> {
    match request {
        Request::OnHandle(operation, handle) if operation.is_save() => {
            vec![request, Request::OnHandle(Operation::Metadata, handle)]
        }
        request => vec![request],
    }
}

/// The handle a reply gives, if it gives one.
fn handle_in(reply: &Reply) -> Option<Handle> {
    match reply {
        Reply::Handle(handle) => Some(Handle(*handle)),
        Reply::Fetched(fetched) => Some(Handle(fetched.handle_id)),
        Reply::FetchedStructured(fetched) => Some(Handle(fetched.handle_id)),
        Reply::Reader(reader) => Some(Handle(reader.handle_id)),
        _ => None,
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
    /// The steps that ran; a save runs only after its clear succeeded. A reopen's say what
    /// it made.
    Ran(Ran),
}

impl Record {
    /// The class of this handle's first failure, if it failed.
    pub fn failure_class(&self) -> Option<Class> {
        match &self.outcome {
            RecordOutcome::Invalid(failure) => Some(failure.class),
            RecordOutcome::NotStarted => None,
            RecordOutcome::Ran(ran) => (ran.steps.iter())
                .filter(|step| !step.is_which_read())
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
///
/// `sending.stop` is the first Ctrl-C of [`until_stopped`], for procedures that hold leases: it
/// stops the batch as `--fail-fast` does, and the procedures in flight send nothing more but
/// what gives their leases back. (The operations hold none: their Ctrl-C drops the batch at once.)
pub async fn run(
    plan: Plan,
    items: impl Stream<Item = Item>,
    sending: Sending<'_>,
    started: &Cell<u64>,
    mut each: impl FnMut(Record) -> bool,
) -> bool {
    let jobs = sending.jobs;
    let batch = Batch {
        plan,
        sending,
        stop: Cell::new(false),
        // A reopen holds a data id while it fetches: no more of them at once than `show` holds
        // of a kind, whatever `--jobs`, so the person's own handles are not evicted.
        permits: Semaphore::new(match plan.procedure {
            Procedure::Reopen { .. } => jobs.min(MOST_LEASES_OF_A_KIND),
            Procedure::Operation { .. } => jobs,
        }),
        // A name holds its fresh copy and a data id while it runs: as few at once as a reopen.
        names: Semaphore::new(jobs.min(MOST_LEASES_OF_A_KIND)),
        started,
    };
    let batch = &batch;
    // Once stopped, no more input is read: what is in flight finishes, and the stream ends
    // even when the input never would (`yes 1 | safe-ad clear-data - | head -1`).
    let records = items
        .take_while(|_| std::future::ready(!batch.stopped()))
        .map(|item| process(batch, item))
        .buffered(jobs.saturating_mul(REORDER_WINDOW_PER_JOB));
    futures_util::pin_mut!(records);
    while let Some(record) = records.next().await {
        let failed = record.failure_class().is_some();
        let wanted = each(record);
        if (failed && plan.fail_fast) || !wanted {
            batch.stop.set(true);
        }
        if batch.stopped() {
            // Requests already in flight finish and are reported; no new one starts.
            while let Some(record) = records.next().await {
                each(record);
            }
            return true;
        }
    }
    false
}

/// One batch as its handles see it while it runs.
struct Batch<'a> {
    plan: Plan,
    sending: Sending<'a>,
    /// Set by `--fail-fast` or by the reader of the records gone: no new handle starts.
    stop: Cell<bool>,
    /// `--jobs` at once, fairly, so that handles start in input order.
    permits: Semaphore,
    /// Names at once (each holds a fresh copy and a data id): at most
    /// [`MOST_LEASES_OF_A_KIND`], whatever `--jobs`, so the person's own handles are not
    /// evicted.
    names: Semaphore,
    started: &'a Cell<u64>,
}

impl Batch<'_> {
    fn stopped(&self) -> bool {
        self.stop.get() || self.sending.stop.is_set()
    }
}

async fn process(batch: &Batch<'_>, item: Item) -> Record {
    let plan = batch.plan;
    let started = batch.started;
    let target = match item.target {
        Ok(target) => target,
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
    let permit = batch.permits.acquire().await;
    let named = match target {
        Target::Name(_) => Some(batch.names.acquire().await),
        Target::Handle(_) => None,
    };
    if batch.stopped() || permit.is_err() || named.as_ref().is_some_and(Result::is_err) {
        return Record {
            item,
            outcome: RecordOutcome::NotStarted,
        };
    }
    started.set(started.get() + 1);
    // The plan `--dry-run` prints, run: an operation and its saves, or a reopen's data id, fetch
    // and give back, and the old handle dropped only once the new one is there. A name's clear
    // whose save another save beat is run again on a fresh copy ([`beaten_by_another_save`],
    // [`MADE_AGAIN_AT_MOST`] times at most).
    let mut retried = 0;
    let (steps, interpreted) = loop {
        let mut steps = Steps::new(batch.sending);
        let interpreted = interpret(&mut steps, &plan.procedure.plan(target)).await;
        if retried == MADE_AGAIN_AT_MOST
            || batch.stopped()
            || !clear_of_a_name(plan.procedure, target)
            || !beaten_by_another_save(steps.so_far())
        {
            break (steps, interpreted);
        }
        let _ = steps.finish().await;
        retried += 1;
        tokio::time::sleep(a_little_while()).await;
    };
    let mut making = interpreted.making(|reply| match (plan.procedure, reply, target) {
        (Procedure::Reopen { drop_old }, Reply::Fetched(fetched), Target::Handle(old)) => {
            Some(Made::Reopened {
                old,
                fetched: fetched.clone(),
                dropped: drop_old && interpreted.finished,
                which: None,
            })
        }
        (Procedure::Reopen { .. }, Reply::Fetched(fetched), Target::Name(_)) => {
            Some(Made::Opened {
                fetched: fetched.clone(),
            })
        }
        _ => None,
    });
    // A name's copy that could not be taken (its fetch failed) is still what the steps are
    // about: `report` says them of the name, and no launcher handle has the number that stands
    // in for the copy.
    let copy = match (interpreted.copy, target, plan.procedure) {
        (None, Target::Name(name), Procedure::Operation { .. }) => Some(TakenCopy {
            handle: Handle(u64::MAX),
            name,
        }),
        (copy, _, _) => copy,
    };
    // An operation's plan saves only after the operation, but a purge's first save.
    let after_clear_data = matches!(
        plan.procedure,
        Procedure::Operation {
            operation: Operation::ClearData,
            ..
        }
    );
    let saves = (interpreted.saves.iter())
        .map(|&at| Saved {
            at,
            after_clear_data,
        })
        .collect();
    let steps = steps.finish().await;
    if let Some(Making {
        made: Some(Made::Reopened { which, .. }),
        ..
    }) = &mut making
    {
        *which = (steps.iter())
            .find(|step| step.is_which_read())
            .map(|step| show::WhichRead::from_answer(&step.result));
    }
    if plan.fail_fast
        && steps
            .iter()
            .any(|step| step.result.is_err() && !step.is_which_read())
    {
        batch.stop.set(true);
    }
    Record {
        item,
        outcome: RecordOutcome::Ran(
            Ran {
                steps,
                making,
                saves,
                copy,
                retried,
            }
            .noted(batch.sending.ledger),
        ),
    }
}

/// `create`: the new appendable data, and the save after it when asked (`--put`): the plan
/// `--dry-run` prints ([`create_plan`]), run. A stop signal that keeps the save from being
/// sent has the new handle given back ([`Steps::settle_made`]).
pub async fn create(
    sending: Sending<'_>,
    name: Name,
    private: bool,
    white_list: bool,
    put: bool,
) -> Ran {
    let mut steps = Steps::new(sending);
    let interpreted = interpret(&mut steps, &create_plan(name, private, white_list, put)).await;
    let making = interpreted.making(|reply| match reply {
        Reply::Handle(handle) => Some(Made::Created {
            handle: Handle(*handle),
            name,
            // The put is the plan's last request.
            saved: put && interpreted.finished,
        }),
        _ => None,
    });
    Ran::made(steps.finish().await, making, sending.ledger)
}

/// `open`: a handle for data on the network, through a data id for its name, which is given
/// back whatever came of the fetch: the plan `--dry-run` prints ([`open_plan`]), run.
pub async fn open(sending: Sending<'_>, name: Name, private: bool) -> Ran {
    let mut steps = Steps::new(sending);
    let interpreted = interpret(&mut steps, &open_plan(name, private)).await;
    let making = interpreted.making(|reply| match reply {
        Reply::Fetched(fetched) => Some(Made::Opened {
            fetched: fetched.clone(),
        }),
        _ => None,
    });
    Ran::made(steps.finish().await, making, sending.ledger)
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
    requests.extend(through_data_id_plan(Request::Fetch));
    requests
}

/// What `append` adds: a data id for structured or appendable data, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppendItem {
    Structured { name: Name, type_tag: u64 },
    Appendable { name: Name, private: bool },
}

impl AppendItem {
    fn data_id<H>(self) -> Request<H> {
        match self {
            AppendItem::Structured { name, type_tag } => {
                Request::StructuredDataIdOfName { name, type_tag }
            }
            AppendItem::Appendable { name, private } => Request::DataIdOfName { name, private },
        }
    }
}

/// `append`: a data id for the item, the append, and the data id given back: the plan
/// `--dry-run` prints ([`append_plan`]), run.
pub async fn append(sending: Sending<'_>, handle: Handle, item: AppendItem) -> AppendRan {
    let mut steps = Steps::new(sending);
    let interpreted = interpret(&mut steps, &append_plan(handle, item)).await;
    AppendRan {
        steps: steps.finish().await,
        appended: (interpreted.appended).map(|at| Appended { at, handle }),
    }
}

/// The requests of `append` before any answer (`--dry-run`, `--curl`).
pub fn append_plan(handle: Handle, item: AppendItem) -> Vec<Request<Slot>> {
    let mut requests = vec![item.data_id()];
    requests.extend(through_data_id_plan(|data_id| Request::Append {
        handle: Slot::Is(handle),
        data_id,
    }));
    requests
}

/// The save sent before `operation` as well as after it, when one after it alone would leave on
/// the network the opposite of what the command says: a purge (or `clear-deleted-data`) with
/// `--save post`. A post sends the copy's deleted list, and the network takes away from its data
/// only what that list names; an item whose removal was never saved, purged from the list, would
/// stay data ([`crate::saving::Change::PurgeUnsaved`]). Saving first sends the removal; the purge
/// and the save after it then take the items off the deleted list for good. The first save is
/// left out by `purge` when a read before it found every removal it purges on the network
/// ([`AtIndexesPlan::without_first_save`]; it would change nothing but the version), which its
/// dry run says; `clear-deleted-data` sends it whether or not, so what `--dry-run` prints is
/// what it sends. A `put` saves data never saved, which the network holds nothing of yet: one
/// save is enough.
pub fn saved_first(operation: Operation, save: Option<Operation>) -> Option<Operation> {
    match (operation, save) {
        (Operation::Purge | Operation::ClearDeletedData, Some(Operation::Post)) => {
            Some(Operation::Post)
        }
        _ => None,
    }
}

/// Whether `next` is the read back [`with_read_back`] lists after `save`: the save's step sends
/// it, as part of the save.
pub(crate) fn is_read_back(next: &Request, save: &Request) -> bool {
    matches!(
        (next, save),
        (Request::OnHandle(Operation::Metadata, read), Request::OnHandle(_, saved)) if read == saved
    )
}

/// What follows a data id in a plan: the request that uses it, and the data id dropped.
fn through_data_id_plan(then: impl FnOnce(Slot) -> Request<Slot>) -> [Request<Slot>; 2] {
    let data_id = Slot::FromAnswer("dataIdHandle");
    [then(data_id), Request::DropDataId(data_id)]
}
