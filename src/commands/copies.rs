//! Work on a name's fresh copy: the copy taken for the run, the work done on it, the copy given
//! back on every path (a stop signal too), what a change does when another save beat its own
//! ([`WhenBeaten`]), and the network's data behind a handle's copy read for the words of a copy
//! a post emptied. Shared by the commands that take names.

use std::cell::Cell;
use std::future::Future;

use crate::batch::{self, Ended, Sending, Step, Stop};
use crate::handle::Handle;
use crate::launcher::Launcher;
use crate::name::Name;
use crate::outcome::{Class, Done, Failure, Hint, Known};
use crate::report::Reporter;

use super::leases::{accounted, interrupted, leased};

/// What came of work on a name's fresh copy ([`on_copy`]).
pub(super) struct OnCopy<T> {
    /// What the work gave; `None` when no copy could be taken.
    pub(super) done: Option<T>,
    /// The class of a failure to take the copy or to give it back (said already).
    pub(super) failed: Option<Class>,
    /// A stop signal came while the copy was given back, or a second one before: whether the
    /// first one's wait ran out (what is left is in the stop, to be named).
    pub(super) stopped: Option<bool>,
}

/// Runs `work` on a fresh copy of the data `name` names, taken for it and given back
/// (`batch::copy`), with the words about the copy's handle saying the name.
pub(super) async fn on_copy<T>(
    sending: Sending<'_>,
    reporter: &Reporter,
    command: &str,
    name: Name,
    work: impl AsyncFnOnce(Handle) -> T,
) -> OnCopy<T> {
    let (taken, steps) = batch::copy::take(sending, name).await;
    let taken = (taken, steps);
    use_copy(
        sending,
        reporter,
        command,
        name,
        taken,
        GiveBack::Watched,
        work,
    )
    .await
}

/// [`on_copy`], for work whose phases watch the stop signals themselves (a change by
/// selectors): only the taking of the copy is watched here (a stop then gives back what it
/// took, and is the failure), and the copy is given back after the work, stopped or not.
pub(super) async fn on_copy_phased<T>(
    sending: Sending<'_>,
    reporter: &Reporter,
    command: &str,
    name: Name,
    work: impl AsyncFnOnce(Handle) -> T,
) -> Result<OnCopy<T>, Failure> {
    let (stop, launcher) = (sending.stop, sending.launcher);
    let take = batch::copy::take(sending, name);
    let taken = match batch::until_stopped(take, stop, || reporter.stopping(stop.wait())).await {
        Ended::Finished(taken) => taken,
        Ended::Interrupted((taken, steps)) => {
            reporter.exchanges(launcher, &steps);
            let steps = taken.give_back().await;
            reporter.exchanges(launcher, &steps);
            return Err(interrupted(stop, false, launcher, reporter));
        }
        Ended::Abandoned => return Err(interrupted(stop, false, launcher, reporter)),
        Ended::WaitedOut => return Err(interrupted(stop, true, launcher, reporter)),
    };
    Ok(use_copy(
        sending,
        reporter,
        command,
        name,
        taken,
        GiveBack::Unwatched,
        work,
    )
    .await)
}

/// The rest of [`on_copy`] once the copy was asked for: the work on it, and the copy given
/// back.
pub(super) async fn use_copy<'a, T>(
    sending: Sending<'a>,
    reporter: &Reporter,
    command: &str,
    name: Name,
    (taken, steps): (batch::copy::Taken<'a>, Vec<Step>),
    watch: GiveBack,
    work: impl AsyncFnOnce(Handle) -> T,
) -> OnCopy<T> {
    let first_failure = |steps: &[Step]| {
        (steps.iter()).find_map(|step| step.result.as_ref().err().map(|failure| failure.class))
    };
    reporter.copy_taken(sending.launcher, command, &name, &steps);
    let Some(copy) = taken.copy else {
        let _ = taken.give_back().await;
        return OnCopy {
            done: None,
            failed: first_failure(&steps).or(Some(Class::Unexpected)),
            stopped: None,
        };
    };
    reporter.on_copy(Some(copy));
    let done = work(copy.handle).await;
    if crate::signals::seen() > 1 {
        // A second stop signal leaves at once, sending nothing more: the copy is named with
        // the request that frees it, as every handle a run leaves is (`settle_on_copy`).
        reporter.on_copy(None);
        return OnCopy {
            done: Some(done),
            failed: Some(Class::Interrupted),
            stopped: Some(false),
        };
    }
    let stop = sending.stop;
    let give_back = taken.give_back();
    let (steps, stopped) = match watch {
        GiveBack::Watched => (give_back.await, None),
        // No watch around the work: a stop signal now waits for the giving back as every
        // first signal waits for what gives leases back, and a second one leaves at once.
        GiveBack::Unwatched => {
            match batch::until_stopped(give_back, stop, || reporter.stopping(stop.wait())).await {
                Ended::Finished(steps) => (steps, None),
                Ended::Interrupted(steps) => (steps, Some(false)),
                Ended::Abandoned => (Vec::new(), Some(false)),
                Ended::WaitedOut => (Vec::new(), Some(true)),
            }
        }
    };
    reporter.copy_given_back(sending.launcher, command, &steps);
    reporter.on_copy(None);
    OnCopy {
        done: Some(done),
        failed: first_failure(&steps),
        stopped,
    }
}

/// What a change does when its save was beaten by another (refused with -25: someone saved
/// since the copy was taken; the launcher did not act, so the network's data is as it was).
#[derive(Clone, Copy)]
pub(super) enum WhenBeaten<'a> {
    /// The refusal is said as the launcher's (a handle's change; a name's last try).
    Said,
    /// A name's change of the items at the indexes given: not made again, since the indexes may
    /// now name other items; the refusal is said with words that say so ([`Known::IndexesMoved`]).
    IndexesMoved,
    /// A name's change of the items chosen by what they are, with tries left: nothing of this
    /// try is said but its `--verbose` exchanges, `again` is set, and the run takes a fresh copy
    /// and chooses again.
    TryAgain(&'a Cell<bool>),
}

impl WhenBeaten<'_> {
    /// Whether the try whose steps are `steps` is to be made again (its save beaten, and tries
    /// left): then it is marked so, and what it did is not said.
    pub(super) fn again(self, steps: &[Step]) -> bool {
        match self {
            WhenBeaten::TryAgain(again) if batch::beaten_by_another_save(steps) => {
                again.set(true);
                true
            }
            _ => false,
        }
    }

    /// `steps` with a beaten save's hint in the words this change calls for.
    pub(super) fn worded(self, steps: &mut [Step]) {
        if let WhenBeaten::IndexesMoved = self {
            for step in steps
                .iter_mut()
                .filter(|step| step.beaten_by_another_save())
            {
                if let Err(failure) = &mut step.result {
                    failure.hint = Some(Hint::Known(Known::IndexesMoved));
                }
            }
        }
    }
}

/// Whether a stop-signal watch around the work on a name's copy ([`on_copy`]) also watches
/// the giving back of the copy, or the giving back needs one of its own
/// ([`on_copy_phased`], whose work's phases watch for themselves).
#[derive(Clone, Copy)]
pub(super) enum GiveBack {
    Watched,
    Unwatched,
}

/// Runs work on a name's fresh copy ([`on_copy`]), which holds the copy as a lease, until it
/// ends or Ctrl-C stops it: the work's outcome, a failure to take or give back the copy
/// (already said) making it not 0, and what was left named ([`accounted`]).
pub(super) async fn finish_on_copy(
    work: impl Future<Output = OnCopy<Result<Done, Failure>>>,
    stop: &Stop,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let on = leased(work, stop, launcher, reporter).await?;
    settle_on_copy(on, stop, launcher, reporter)
}

/// What work on a name's fresh copy came to, once it ended ([`finish_on_copy`]); for work
/// whose own steps watch the stop signals (a change by selectors, which runs phases of its
/// own), once `on_copy` ran without a watch of its own.
pub(super) fn settle_on_copy(
    on: OnCopy<Result<Done, Failure>>,
    stop: &Stop,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    if let Some(waited_out) = on.stopped {
        // What the work itself came to is said first (unless it is only the stop passed up by
        // phases that share this stop: the stop's own failure says it once); the stop names
        // what is left.
        if let Some(Err(failure)) = &on.done {
            if !is_bare_stop(failure) {
                reporter.failed(failure);
            }
        }
        return Err(interrupted(stop, waited_out, launcher, reporter));
    }
    let done = match on.done {
        Some(done) => match (done?, on.failed) {
            (Done::Success, Some(class)) => Done::Failed(class),
            (done, _) => done,
        },
        None => Done::from_first_failure(on.failed),
    };
    Ok(accounted(done, stop, launcher, reporter))
}

/// The failure work passes up when a stop it shares with the run around it stopped it
/// (`restore::phase`): it has nothing of its own to say.
pub(super) fn is_bare_stop(failure: &Failure) -> bool {
    failure.class == Class::Interrupted
        && failure.message == "interrupted"
        && failure.hint.is_none()
}
