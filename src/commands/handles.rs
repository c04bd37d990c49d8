//! Where handles come from and where they go: `create` and `open` make one from a name,
//! `reopen` makes a fresh one for the data behind a stale one, `drop` frees them.
//!
//! `create` and `open` work on one name; `reopen` and `drop` are batches over handles, with the
//! same input, `--jobs`, summary and exit codes as the operations.

use crate::batch::{self, Ended, Procedure, Ran, Step, Stop};
use crate::cli::{ClientOptions, CreateCommand, HandleArgs, OpenCommand, ReopenCommand};
use crate::launcher::{Launcher, Operation};
use crate::name::{self, Name};
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
use crate::runtime::{internal, interruptible, runtime};
use crate::settings::StdinUse;

use super::operations;

pub fn create(
    command: &CreateCommand,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let name = match &command.name {
        Some(raw) => parse_name(raw, "create")?,
        None => Name::random().map_err(|e| {
            internal(anyhow::anyhow!(
                "the operating system's random number generator failed: {e}"
            ))
        })?,
    };
    let settings = super::resolve(options, reporter, StdinUse::Free)?;
    let launcher = super::launcher(&settings)?;
    let (private, white_list, put) = (command.private, command.white_list, command.put);
    if settings.dry_run || settings.curl {
        let plan = batch::create_plan(name, private, white_list, put);
        super::describer(&settings, &launcher, reporter)(&plan);
        return Ok(Done::Success);
    }
    settings.token()?;
    let steps = runtime()?.block_on(interruptible(batch::create(
        &launcher,
        name,
        private,
        white_list,
        put,
        settings.verbose,
    )))?;
    Ok(finish(&launcher, &steps, reporter))
}

pub fn open(
    command: &OpenCommand,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let name = parse_name(&command.name, "open")?;
    let settings = super::resolve(options, reporter, StdinUse::Free)?;
    let launcher = super::launcher(&settings)?;
    if settings.dry_run || settings.curl {
        let plan = batch::open_plan(name, command.private);
        super::describer(&settings, &launcher, reporter)(&plan);
        return Ok(Done::Success);
    }
    settings.token()?;
    let stop = Stop::default();
    let work = batch::open(&launcher, name, command.private, settings.verbose, &stop);
    finish_leasing(&launcher, &stop, reporter, work, |ran| {
        reporter.steps(&launcher, None, ran)
    })
}

/// Runs a procedure that holds leases (`open`, `append`) until it ends or Ctrl-C stops it, and
/// prints its steps with `report`: the command says how its steps read, also when they were cut
/// short (an `append` stopped before its append prints no step of its own on stdout).
pub(super) fn finish_leasing<Ran: AsRef<[Step]>>(
    launcher: &Launcher,
    stop: &Stop,
    reporter: &Reporter,
    work: impl std::future::Future<Output = Ran>,
    report: impl Fn(&Ran),
) -> Result<Done, Failure> {
    let ended = runtime()?.block_on(batch::until_stopped(work, stop, || reporter.stopping()));
    match ended {
        Ended::Finished(steps) => {
            report(&steps);
            let done = done_of(steps.as_ref());
            Ok(super::accounted(done, stop, launcher, reporter))
        }
        Ended::Interrupted(steps) => {
            report(&steps);
            Err(super::interrupted(stop, launcher, reporter))
        }
        Ended::Abandoned => Err(super::interrupted(stop, launcher, reporter)),
    }
}

pub fn reopen(
    command: &ReopenCommand,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let procedure = Procedure::Reopen {
        drop_old: command.drop,
    };
    operations::run_procedure(procedure, &command.handles, options, reporter)
}

pub fn drop(
    handles: &HandleArgs,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    operations::run(Operation::Drop, None, handles, options, reporter)
}

pub(super) fn parse_name(raw: &str, command: &str) -> Result<Name, Failure> {
    Name::parse(raw).map_err(|problem| {
        Failure::usage(format!(
            "invalid name '{}' for {command}: {}",
            crate::sanitize::line(raw.as_bytes(), 80),
            problem.describe()
        ))
        .with_hint(format!("a name is {}; nothing was sent", name::FORMS))
    })
}

/// Prints the steps and what they made, and picks the exit code: that of the first step that
/// failed.
fn finish(launcher: &Launcher, ran: &Ran, reporter: &Reporter) -> Done {
    reporter.steps(launcher, None, ran);
    done_of(&ran.steps)
}

/// How a procedure's steps ended: by its first failure, if any.
fn done_of(steps: &[Step]) -> Done {
    let first_failure: Option<Class> = steps
        .iter()
        .find_map(|step| step.result.as_ref().err().map(|failure| failure.class));
    Done::from_first_failure(first_failure)
}
