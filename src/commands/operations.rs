//! The batches over handles: `put`, `post`, `clear-data`, `clear-deleted-data`, `metadata`,
//! `reopen` and `drop`: check every handle and setting, then send, report and tally.
//!
//! Command-line handles and settings are all checked before the first request, so a usage error
//! never leaves a batch half done. Handles then run through `batch` in input order; a failure
//! does not stop the rest (unless `--fail-fast`), and the exit code is that of the first handle
//! that failed.

use std::cell::Cell;
use std::time::Instant;

use crate::batch::{self, Plan, Procedure, Stop, Tally};
use crate::cli::{HandleArgs, SaveWith, REOPEN_DROP_BY_NAME, SAVE_PUT_BY_NAME};
use crate::handle::NameRefusal;
use crate::handle::{Handle, Target};
use crate::input::{self, Slot};
use crate::launcher::{Launcher, Operation};
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
use crate::settings::Settings;

use super::{leased, purge_note_if_unsaved, unleased, Context, Means, Next};

/// How many saved handles the note after a clear keeps to name.
const NOTE_HANDLES: usize = 6;

/// Runs `operation` (and `save` after it) over the handles.
pub fn run<'a>(
    operation: Operation,
    save: Option<SaveWith>,
    handles: &HandleArgs,
    cx: Context<'a>,
) -> Result<Next<'a>, Failure> {
    let save = save.map(|save| match save {
        SaveWith::Post => Operation::Post,
        SaveWith::Put => Operation::Put,
    });
    run_procedure(Procedure::Operation { operation, save }, handles, cx)
}

/// Runs a procedure over the handles given: on the command line, `-` for standard input.
pub fn run_procedure<'a>(
    procedure: Procedure,
    handles: &HandleArgs,
    cx: Context<'a>,
) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let why = names_refused(procedure);
    let raw = &handles.handles;
    let Some(slots) = super::handle_slots_refusing(raw, procedure.name(), why, reporter)? else {
        return Ok(Next::Done(Done::Failed(Class::Usage)));
    };
    let settings = super::resolve(cx, super::stdin_use(&slots))?;
    let plan = Plan {
        procedure,
        fail_fast: settings.fail_fast,
    };
    let launcher = super::launcher(&settings, cx)?;
    if settings.dry_run || settings.curl {
        let done = describe_requests(plan, slots, why, &settings, &launcher, reporter);
        return Ok(Next::Done(done));
    }
    settings.token()?;
    Ok(Next::sends(async move {
        let means = cx.means(&settings, &launcher);
        if let Procedure::Operation {
            operation: Operation::ClearDeletedData,
            save: None,
        } = procedure
        {
            // One handle: said only when a removal it purges has not reached the network. A
            // name's copy is saved, and a fresh copy's removals are the network's: no note.
            let names = |slot: &Slot| matches!(slot, Slot::Target(Target::Name(_)));
            match slots.as_slice() {
                [Slot::Target(Target::Handle(handle))] => {
                    let name = procedure.name();
                    purge_note_if_unsaved(name, *handle, None, means).await?
                }
                slots if slots.iter().all(names) => {}
                _ => reporter.purge_note(procedure.name(), "HANDLE"),
            }
        }
        run_batch(plan, slots, why, means).await
    }))
}

/// Why `procedure` refuses names, if it does: its spec says (`put`, `post`, `drop`), `reopen
/// --drop`, which has no old handle to drop for a name, and `--save put`, which saves data never
/// saved.
fn names_refused(procedure: Procedure) -> Option<NameRefusal> {
    match procedure {
        Procedure::Reopen { drop_old: true } => Some(REOPEN_DROP_BY_NAME),
        Procedure::Operation {
            save: Some(Operation::Put),
            ..
        } => Some(SAVE_PUT_BY_NAME),
        _ => super::names_refused(procedure.name()),
    }
}

async fn run_batch(
    plan: Plan,
    slots: Vec<Slot>,
    why: Option<NameRefusal>,
    means: Means<'_>,
) -> Result<Done, Failure> {
    let (settings, launcher, reporter) = (means.settings, means.launcher, means.reporter);
    let started = Instant::now();
    // Without `-` the number of handles is known, so a stopped batch can say how many were left.
    let known_total = (!slots.contains(&Slot::Stdin)).then_some(slots.len() as u64);
    let mut tally = Tally::default();
    let mut saved: Vec<Handle> = Vec::new();
    let started_handles = Cell::new(0);
    // A reopen holds a data id while it fetches, and a name's copy is held while the operation
    // runs on it: Ctrl-C lets them give those back. The operations on handles hold nothing, and
    // Ctrl-C drops them at once. Standard input may bring either: there Ctrl-C drops the batch
    // at once when it holds nothing, and lets it give back what it holds otherwise.
    let named = (slots.iter()).any(|slot| matches!(slot, Slot::Target(Target::Name(_))));
    let leasing = matches!(plan.procedure, Procedure::Reopen { .. }) || named;
    let may_lease = why.is_none() && slots.contains(&Slot::Stdin);
    let stop = Stop::new(settings.interrupt_wait);
    let items = super::items_refusing(slots, why);
    let sending = means.sending(&stop);
    let work = batch::run(plan, items, sending, &started_handles, |record| {
        reporter.record(launcher, &record, plan.procedure.name());
        tally.count(&record);
        if saved.len() < NOTE_HANDLES && record.failure_class().is_none() {
            if let Ok(Target::Handle(handle)) = record.item.target {
                if !saved.contains(&handle) {
                    saved.push(handle);
                }
            }
        }
        reporter.progress(&tally, known_total, started);
        // The stop signal: nobody reads stdout any more.
        !reporter.stdout_closed()
    });
    let finished = if leasing {
        leased(work, &stop, launcher, reporter).await
    } else if may_lease {
        leased_when_holding(work, &stop, launcher, reporter).await
    } else {
        unleased(work).await
    };
    let stopped_early = !matches!(finished, Ok(false));
    let started_handles = started_handles.get();
    let not_started = match known_total {
        Some(total) => total.saturating_sub(started_handles),
        None => tally.not_started,
    };
    // Sent, but Ctrl-C came before their answers: they may have taken effect.
    let cancelled = started_handles.saturating_sub(tally.done());
    reporter.summary(
        &tally,
        cancelled,
        not_started,
        stopped_early && known_total.is_none(),
    );
    if !leasing && finished.is_err() && !stop.left().is_empty() {
        // Dropped at once, with a name's copy (read from standard input) still held.
        return Err(super::dropped_holding(&stop, launcher, reporter));
    }
    finished?;
    if let Procedure::Operation {
        operation,
        save: None,
    } = plan.procedure
    {
        if operation.is_clear() && !saved.is_empty() {
            reporter.save_note(&saved);
        }
    }
    let done = Done::from_first_failure(tally.first_failure);
    Ok(super::accounted(done, &stop, launcher, reporter))
}

/// Runs a batch whose standard input may bring names as well as handles: a stop signal that
/// finds it holding nothing (no name's copy held or being taken) drops it at once, as a batch
/// of handles is dropped ([`unleased`]); one that finds it holding a copy lets it give the copy
/// back first, as a batch of names given as arguments does ([`leased`]).
async fn leased_when_holding<T>(
    work: impl std::future::Future<Output = T>,
    stop: &Stop,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Result<T, Failure> {
    futures_util::pin_mut!(work);
    if let Ok(value) = crate::runtime::interruptible(&mut work).await {
        return Ok(value);
    }
    match stop.abandoned_any() {
        true => leased(work, stop, launcher, reporter).await,
        false => unleased(work).await,
    }
}

/// `--dry-run` and `--curl`: say what would be sent, send nothing (and run no runtime:
/// standard input is read by blocking reads).
fn describe_requests(
    plan: Plan,
    slots: Vec<Slot>,
    why: Option<NameRefusal>,
    settings: &Settings,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Done {
    let mut first_failure = None;
    let describe = super::describer(settings, launcher, reporter);
    for item in input::items_blocking(slots, std::io::stdin().lock()) {
        let item = item.refusing_names(why);
        let Ok(target) = item.target else {
            if let Some(failure) = item.problem(plan.procedure.name()) {
                reporter.failed(&failure);
                first_failure.get_or_insert(failure.class);
            }
            continue;
        };
        describe(&plan.procedure.plan(target));
    }
    Done::from_first_failure(first_failure)
}
