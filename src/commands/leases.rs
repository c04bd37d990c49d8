//! Work that holds launcher handles as leases, run until it ends or a stop signal stops it, and
//! accounted for afterwards: what was given back, what a second signal, a wait that ran out or a
//! drop that failed left (named with the request that frees it), and saves a stopped run left in
//! flight. Shared by every command that holds a lease; nothing here is a command.

use std::future::Future;

use crate::batch::{self, Ended, Step, Stop};
use crate::launcher::Launcher;
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
use crate::runtime::interruptible;
use crate::settings::ENV_INTERRUPT_WAIT;

/// Says that the saves a stopped run left in flight may have acted: for one name as a batch's
/// summary says it of the handles it sent and did not await.
pub(super) fn saves_in_flight(stop: &Stop, reporter: &Reporter) {
    let saves = stop.saves_in_flight();
    if saves > 0 {
        reporter.saves_in_flight(saves);
    }
}

/// The failure after Ctrl-C stopped work that holds leases (`batch::until_stopped`): whether
/// every launcher handle it had obtained went back, or which ones a second Ctrl-C, the first
/// one's wait running out (or a drop that failed) left behind and the requests that free them.
pub(super) fn interrupted(
    stop: &Stop,
    waited_out: bool,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Failure {
    saves_in_flight(stop, reporter);
    let left = stop.left();
    if left.is_empty() {
        return Failure::new(
            Class::Interrupted,
            "interrupted; no new requests were sent, and every launcher handle it had obtained was given back",
        );
    }
    if !stop.abandoned_any() {
        // The first Ctrl-C was heeded, but a drop failed or a handle's answer was lost.
        reporter.left_behind(launcher, &left);
        return Failure::new(Class::Interrupted, "interrupted; no new requests were sent");
    }
    reporter.left_behind_json(launcher, &left);
    let requests = crate::report::left_requests(launcher, &left);
    let wait = stop.wait();
    let why = match waited_out {
        true if wait.is_zero() => {
            format!("interrupted, and it does not wait ({ENV_INTERRUPT_WAIT} is 0), so it left")
        }
        true => format!(
            "interrupted, and the launcher did not finish within {}, so it left",
            crate::outcome::seconds(wait)
        ),
        false => "interrupted twice, so it left at once".to_owned(),
    };
    Failure::new(
        Class::Interrupted,
        format!("{why}: {}", not_given_back(left.len(), "")),
    )
    .with_hint(format!(
        "the launcher drops them when it restarts; to free them now, send: {}",
        requests.join(", ")
    ))
}

/// The failure after Ctrl-C dropped a batch at once (operations on handles hold nothing, so
/// it does not wait) while a name's copy from standard input was held: the handles left are
/// named, with the requests that free them.
pub(super) fn dropped_holding(stop: &Stop, launcher: &Launcher, reporter: &Reporter) -> Failure {
    let left = stop.left();
    reporter.left_behind(launcher, &left);
    let left = not_given_back(left.len(), " (named above)");
    Failure::new(
        Class::Interrupted,
        format!("interrupted; no new requests were sent, and {left}"),
    )
}

/// `3 launcher handles it had obtained were not given back` (`named` after `obtained`).
fn not_given_back(left: usize, named: &str) -> String {
    let (s, were) = match left {
        1 => ("", "was"),
        _ => ("s", "were"),
    };
    format!("{left} launcher handle{s} it had obtained{named} {were} not given back")
}

/// After work that holds leases ended on its own: names what it may have left in the launcher
/// (a lease whose giving back failed, a handle whose making lost its answer), and makes sure
/// the exit code is not 0 then.
pub(super) fn accounted(done: Done, stop: &Stop, launcher: &Launcher, reporter: &Reporter) -> Done {
    let left = stop.left();
    if left.is_empty() {
        return done;
    }
    reporter.left_behind(launcher, &left);
    match done {
        Done::Success => Done::Failed(Class::Unreachable),
        other => other,
    }
}

/// Runs a batch's requests, which hold no lease, unless Ctrl-C comes first: then it is dropped
/// at once, and no request after it is sent.
pub(super) async fn unleased<T>(work: impl std::future::Future<Output = T>) -> Result<T, Failure> {
    interruptible(work).await.map_err(|mut failure| {
        failure.message = "interrupted; no new requests were sent".to_string();
        failure
    })
}

/// Runs work that holds leases (`batch::until_stopped`) until it ends or Ctrl-C stops it: its
/// value, or the interrupted failure that accounts for the leases.
pub(super) async fn leased<T>(
    work: impl Future<Output = T>,
    stop: &Stop,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Result<T, Failure> {
    leased_or(work, stop, launcher, reporter, |_| {}).await
}

/// [`leased`], saying what the work did before Ctrl-C cut it short with `cut`.
pub(super) async fn leased_or<T>(
    work: impl Future<Output = T>,
    stop: &Stop,
    launcher: &Launcher,
    reporter: &Reporter,
    cut: impl FnOnce(T),
) -> Result<T, Failure> {
    match batch::until_stopped(work, stop, || reporter.stopping(stop.wait())).await {
        Ended::Finished(value) => Ok(value),
        Ended::Interrupted(value) => {
            cut(value);
            Err(interrupted(stop, false, launcher, reporter))
        }
        Ended::Abandoned => Err(interrupted(stop, false, launcher, reporter)),
        Ended::WaitedOut => Err(interrupted(stop, true, launcher, reporter)),
    }
}

/// Runs a procedure that holds leases (`open`, `append`) until it ends or Ctrl-C stops it, and
/// prints its steps with `report`: the command says how its steps read, also when they were cut
/// short (an `append` stopped before its append prints no step of its own on stdout).
pub(super) async fn finish_leasing<Ran: AsRef<[Step]>>(
    launcher: &Launcher,
    stop: &Stop,
    reporter: &Reporter,
    work: impl Future<Output = Ran>,
    report: impl Fn(&Ran),
) -> Result<Done, Failure> {
    let steps = leased_or(work, stop, launcher, reporter, |steps| report(&steps)).await?;
    report(&steps);
    let done = done_of(steps.as_ref());
    Ok(accounted(done, stop, launcher, reporter))
}

/// How a procedure's steps ended: by its first failure, if any.
pub(super) fn done_of(steps: &[Step]) -> Done {
    let first_failure: Option<Class> = steps
        .iter()
        .find_map(|step| step.result.as_ref().err().map(|failure| failure.class));
    Done::from_first_failure(first_failure)
}
