//! `put`, `post`, `clear-data` and `clear-deleted-data` (and the batch machinery `metadata`
//! shares): check every handle and setting, then send, report and tally.
//!
//! Command-line handles and settings are all checked before the first request, so a usage error
//! never leaves a batch half done. Handles then run through `batch` in input order; a failure
//! does not stop the rest (unless `--fail-fast`), and the exit code is that of the first handle
//! that failed.

use std::cell::Cell;
use std::time::Instant;

use futures_util::StreamExt;

use crate::batch::{self, Ended, Plan, Procedure, Stop, Tally};
use crate::cli::{ClientOptions, HandleArgs, SaveWith};
use crate::handle::Handle;
use crate::input::{self, Slot};
use crate::launcher::{Launcher, Operation};
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
use crate::runtime::{interruptible, runtime};
use crate::settings::Settings;

/// How many saved handles the note after a clear keeps to name.
const NOTE_HANDLES: usize = 6;

/// Runs `operation` (and `save` after it) over the handles.
pub fn run(
    operation: Operation,
    save: Option<SaveWith>,
    handles: &HandleArgs,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let save = save.map(|save| match save {
        SaveWith::Post => Operation::Post,
        SaveWith::Put => Operation::Put,
    });
    run_procedure(
        Procedure::Operation { operation, save },
        handles,
        options,
        reporter,
    )
}

/// Runs a procedure over the handles given: on the command line, `-` for standard input.
pub fn run_procedure(
    procedure: Procedure,
    handles: &HandleArgs,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let Some(slots) = super::handle_slots(&handles.handles, procedure.name(), reporter)? else {
        return Ok(Done::Failed(Class::Usage));
    };
    let settings = super::resolve(options, reporter, super::stdin_use(&slots))?;
    let plan = Plan {
        procedure,
        jobs: settings.jobs,
        fail_fast: settings.fail_fast,
    };
    let launcher = super::launcher(&settings)?;
    if settings.dry_run || settings.curl {
        return describe_requests(plan, slots, &settings, &launcher, reporter);
    }
    settings.token()?;
    if let Procedure::Operation {
        operation: Operation::ClearDeletedData,
        save: None,
    } = procedure
    {
        // One handle: said only when a removal it purges has not reached the network.
        match slots.as_slice() {
            [Slot::Handle(handle)] => super::items::purge_note_if_unsaved(
                &runtime()?,
                procedure.name(),
                *handle,
                None,
                &settings,
                &launcher,
                reporter,
            )?,
            _ => reporter.purge_note(procedure.name(), "HANDLE"),
        }
    }
    run_batch(plan, slots, &settings, &launcher, reporter)
}

fn run_batch(
    plan: Plan,
    slots: Vec<Slot>,
    settings: &Settings,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let started = Instant::now();
    // Without `-` the number of handles is known, so a stopped batch can say how many were left.
    let known_total = (!slots.contains(&Slot::Stdin)).then_some(slots.len() as u64);
    let mut tally = Tally::default();
    let mut saved: Vec<Handle> = Vec::new();
    let started_handles = Cell::new(0);
    // A reopen holds a data id while it fetches: Ctrl-C lets it give that back. The operations
    // hold nothing, and Ctrl-C drops them at once.
    let leasing = matches!(plan.procedure, Procedure::Reopen { .. });
    let stop = Stop::default();
    let finished = runtime()?.block_on(async {
        let items = input::items(slots, tokio::io::stdin());
        let work = batch::run(
            plan,
            items,
            launcher,
            settings.verbose,
            &started_handles,
            &stop,
            |record| {
                reporter.record(launcher, &record);
                tally.count(&record);
                if saved.len() < NOTE_HANDLES && record.failure_class().is_none() {
                    if let Ok(handle) = record.item.handle {
                        if !saved.contains(&handle) {
                            saved.push(handle);
                        }
                    }
                }
                reporter.progress(&tally, known_total, started);
                // The stop signal: nobody reads stdout any more.
                !reporter.stdout_closed()
            },
        );
        if !leasing {
            return interruptible(work).await.map_err(|mut failure| {
                failure.message = "interrupted; no new requests were sent".to_string();
                failure
            });
        }
        match batch::until_stopped(work, &stop, || reporter.stopping()).await {
            Ended::Finished(stopped_early) => Ok(stopped_early),
            Ended::Interrupted(_) | Ended::Abandoned => {
                Err(super::interrupted(&stop, launcher, reporter))
            }
        }
    });
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

/// `--dry-run` and `--curl`: say what would be sent, send nothing.
fn describe_requests(
    plan: Plan,
    slots: Vec<Slot>,
    settings: &Settings,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let mut first_failure = None;
    let describe = super::describer(settings, launcher, reporter);
    runtime()?.block_on(async {
        let items = input::items(slots, tokio::io::stdin());
        futures_util::pin_mut!(items);
        while let Some(item) = items.next().await {
            let Ok(handle) = item.handle else {
                if let Some(failure) = item.problem(plan.procedure.name()) {
                    reporter.failed(&failure);
                    first_failure.get_or_insert(failure.class);
                }
                continue;
            };
            describe(&plan.procedure.plan(handle));
        }
    });
    Ok(Done::from_first_failure(first_failure))
}
