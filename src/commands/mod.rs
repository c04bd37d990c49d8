//! The commands, one file per family. Each takes its arguments and the [`Context`] (the merged
//! client options, the environment read once, the reporter), checks them, and comes back with a
//! [`Next`]: its end when it sends nothing, or the sending still to do, which `run` runs on the
//! one runtime (`runtime::finish`). What it printed went through the reporter, and the exit code
//! is left to `outcome`. No command file imports another: what several share (resolving the
//! settings, the launcher, what procedures are sent with, the stop-and-account block, the loop
//! of `show` and `status`, the purge note, the checks and atomic write of a FILE `emulator export`
//! and `capture` replace) is here, the arguments' parsers are in `args`, and
//! the client of the emulator's own routes is `crate::emulator_routes`.
//!
//! `operations` (put, post, the clears, metadata, reopen and drop) drives batches of handles;
//! `handles` makes them (create, open); `items` changes one item at a time
//! (remove, restore, purge, append), beside the clears it mirrors; `show` reads what a handle
//! holds, `cat` one item's content as raw bytes, and `status` compares a copy with the network;
//! `wait` polls the network until a condition holds, `watch` says how it changes; `capture`
//! writes named data, read as `show` reads it, as a fixture for the emulator;
//! `auth` and `config` manage the token and the config file (`auth whoami`: your own key);
//! `completions` prints a script, `man` a man page; `decode` reads serialised bytes, offline;
//! `emulator` starts the stand-in launcher; `shell` runs a script of these commands in one process.

pub mod auth;
#[cfg(feature = "emulator")]
pub mod capture;
pub mod cat;
pub mod completions;
pub mod config;
pub mod decode;
#[cfg(feature = "emulator")]
pub mod emulator;
#[cfg(feature = "emulator")]
pub mod export;
pub mod handles;
pub mod items;
#[cfg(feature = "emulator")]
pub mod journal;
pub mod man;
pub mod operations;
mod restore;
pub mod shell;
pub mod show;
pub mod status;
pub mod wait;
pub mod watch;

use std::ffi::OsString;
use std::future::Future;

use futures_util::StreamExt;

use crate::batch::show::{user_key, IndexRange, Parts, ShowOptions, Shown};
use crate::batch::{self, Ended, Sending, Step, Stop, Tally};
use crate::cli::{ClientOptions, Names};
use crate::handle::{Handle, Target};
use crate::input::{self, BadArgs, Item};
use crate::launcher::{Launcher, Request, Slot};
use crate::name::Name;
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
pub use crate::runtime::Next;
use crate::runtime::{internal, interruptible};
use crate::settings::{self, ConfigRead, Environment, Settings, StdinUse, ENV_INTERRUPT_WAIT};

/// What every command is given besides its own arguments.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The client options, merged from every level of the command line.
    pub options: &'a ClientOptions,
    /// The process's environment, read once at start.
    pub env: &'a Environment,
    /// The config file, read once at start.
    pub config: &'a ConfigRead,
    pub reporter: &'a Reporter,
}

/// The handles (or names) given on the command line, `-` for standard input. Every argument
/// that is neither is reported, as a bad line of standard input is (`--json` included), and so
/// is a name given to a command that takes handles only ([`names_refused`]); `None` says the run
/// ends there, exit 2, before anything is sent.
fn handle_slots(
    raw: &[OsString],
    command: &str,
    reporter: &Reporter,
) -> Result<Option<Vec<input::Slot>>, Failure> {
    handle_slots_refusing(raw, command, names_refused(command), reporter)
}

/// [`handle_slots`], with names refused for `why` (`reopen --drop`, which its flag decides).
fn handle_slots_refusing(
    raw: &[OsString],
    command: &str,
    why: Option<&'static str>,
    reporter: &Reporter,
) -> Result<Option<Vec<input::Slot>>, Failure> {
    let bad = match input::parse_args(raw) {
        Ok(slots) => {
            let refused: Vec<Item> = (slots.iter())
                .filter_map(|slot| match slot {
                    input::Slot::Target(target @ Target::Name(_)) if why.is_some() => {
                        Some(Item::given(*target).refusing_names(why))
                    }
                    _ => None,
                })
                .collect();
            if refused.is_empty() {
                return Ok(Some(slots));
            }
            refused
        }
        Err(BadArgs::Failure(failure)) => return Err(failure),
        Err(BadArgs::Handles(bad)) => bad,
    };
    for item in &bad {
        if let Some(failure) = item.problem(command) {
            reporter.invalid(item, &failure);
        }
    }
    Ok(None)
}

/// Why `command` takes handles only, if it does (its spec says: `put`, `drop`, `status`).
fn names_refused(command: &str) -> Option<&'static str> {
    match crate::cli::spec_of(command).map(|spec| spec.names) {
        Some(Names::Refused(why)) => Some(why),
        _ => None,
    }
}

/// The handles and names in order, standard input read in place of `-`, a name refused for
/// `why` where the command takes handles only.
fn items_refusing(
    slots: Vec<input::Slot>,
    why: Option<&'static str>,
) -> impl futures_util::Stream<Item = Item> {
    input::items(slots, tokio::io::stdin()).map(move |item| item.refusing_names(why))
}

/// What came of work on a name's fresh copy ([`on_copy`]).
struct OnCopy<T> {
    /// What the work gave; `None` when no copy could be taken.
    done: Option<T>,
    /// The class of a failure to take the copy or to give it back (said already).
    failed: Option<Class>,
    /// A stop signal came while the copy was given back, or a second one before: whether the
    /// first one's wait ran out (what is left is in the stop, to be named).
    stopped: Option<bool>,
}

/// Runs `work` on a fresh copy of the data `name` names, taken for it and given back
/// (`batch::copy`), with the words about the copy's handle saying the name.
async fn on_copy<T>(
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
async fn on_copy_phased<T>(
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
async fn use_copy<'a, T>(
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

/// Whether a stop-signal watch around the work on a name's copy ([`on_copy`]) also watches
/// the giving back of the copy, or the giving back needs one of its own
/// ([`on_copy_phased`], whose work's phases watch for themselves).
#[derive(Clone, Copy)]
enum GiveBack {
    Watched,
    Unwatched,
}

/// What standard input holds besides a token, given the handle slots: handles if `-` is one.
fn stdin_use(slots: &[input::Slot]) -> StdinUse {
    if slots.contains(&input::Slot::Stdin) {
        StdinUse::Handles
    } else {
        StdinUse::Free
    }
}

/// Resolves the settings of a command from its options and the environment, and says their
/// warnings.
fn resolve(cx: Context, stdin_use: StdinUse) -> Result<Settings, Failure> {
    resolve_with(cx.options, cx, stdin_use)
}

/// [`resolve`] with other options than the command line's (`config show` allows plain http).
fn resolve_with(
    options: &ClientOptions,
    cx: Context,
    stdin_use: StdinUse,
) -> Result<Settings, Failure> {
    let reporter = cx.reporter;
    let settings = settings::resolve(
        options,
        cx.env,
        cx.config,
        &mut std::io::stdin().lock(),
        stdin_use,
    )?;
    // A token read only now (from standard input or a pipe) is kept out of the words too.
    crate::report::keep_out(settings.token.iter().map(|(token, _)| token.clone()));
    crate::signals::set_wait(settings.interrupt_wait);
    for warning in &settings.warnings {
        reporter.warning(warning);
    }
    Ok(settings)
}

/// The HTTP module, set up from the settings' narrow launcher config.
fn launcher(settings: &Settings) -> Result<Launcher, Failure> {
    let launcher = Launcher::new(settings.launcher_config()).map_err(internal)?;
    // What the line makes or gives back is this launcher's, to a `shell` session, which gives
    // it back the way the line reached it.
    crate::session::reaching(crate::session::Reach {
        base: launcher.base().to_string(),
        token_file: match &settings.token {
            Some((_, crate::settings::Source::TokenFile(path))) => Some(path.clone()),
            _ => None,
        },
        insecure: settings.launcher.sends_token_in_clear(),
    });
    Ok(launcher)
}

/// What a command's procedures are sent with ([`Sending`]): the launcher, `--verbose`,
/// `--jobs`, and the stop that holds their leases.
fn sending<'a>(settings: &Settings, launcher: &'a Launcher, stop: &'a Stop) -> Sending<'a> {
    Sending {
        launcher,
        verbose: settings.verbose,
        stop,
        jobs: settings.jobs,
    }
}

/// `--dry-run` and `--curl`: says once where a curl line's token will come from, and returns
/// what prints the requests of one chain (one `sh` script's worth) instead of sending them.
fn describer<'a>(
    settings: &'a Settings,
    launcher: &'a Launcher,
    reporter: &'a Reporter,
) -> impl Fn(&[Request<Slot>]) + 'a {
    let token = settings.token.as_ref().map(|(_, source)| source);
    if settings.curl {
        reporter.curl_token_note(token);
    }
    move |plan| reporter.plan_described(launcher, plan, settings.curl, token)
}

/// Says that the saves a stopped run left in flight may have acted: for one name as a batch's
/// summary says it of the handles it sent and did not await.
fn saves_in_flight(stop: &Stop, reporter: &Reporter) {
    let saves = stop.saves_in_flight();
    if saves > 0 {
        reporter.saves_in_flight(saves);
    }
}

/// The failure after Ctrl-C stopped work that holds leases (`batch::until_stopped`): whether
/// every launcher handle it had obtained went back, or which ones a second Ctrl-C, the first
/// one's wait running out (or a drop that failed) left behind and the requests that free them.
fn interrupted(stop: &Stop, waited_out: bool, launcher: &Launcher, reporter: &Reporter) -> Failure {
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
        format!(
            "{why}: {} launcher handle{} it had obtained {} not given back",
            left.len(),
            if left.len() == 1 { "" } else { "s" },
            if left.len() == 1 { "was" } else { "were" },
        ),
    )
    .with_hint(format!(
        "the launcher drops them when it restarts; to free them now, send: {}",
        requests.join(", ")
    ))
}

/// The failure after Ctrl-C dropped a batch at once (operations on handles hold nothing, so
/// it does not wait) while a name's copy from standard input was held: the handles left are
/// named, with the requests that free them.
fn dropped_holding(stop: &Stop, launcher: &Launcher, reporter: &Reporter) -> Failure {
    let left = stop.left();
    reporter.left_behind(launcher, &left);
    Failure::new(
        Class::Interrupted,
        format!(
            "interrupted; no new requests were sent, and {} launcher handle{} it had obtained (named above) {} not given back",
            left.len(),
            if left.len() == 1 { "" } else { "s" },
            if left.len() == 1 { "was" } else { "were" },
        ),
    )
}

/// After work that holds leases ended on its own: names what it may have left in the launcher
/// (a lease whose giving back failed, a handle whose making lost its answer), and makes sure
/// the exit code is not 0 then.
fn accounted(done: Done, stop: &Stop, launcher: &Launcher, reporter: &Reporter) -> Done {
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

/// The person's own sign key, read first by the commands that say which items are theirs
/// (`show`, `status`), with its exchanges said. A failure to read it is said as `command`'s and
/// kept in `first_failure`, and the run goes on without it; `None` when Ctrl-C cut the read
/// short, and the run should end.
async fn your_key(
    sending: Sending<'_>,
    reporter: &Reporter,
    command: &str,
    first_failure: &mut Option<Class>,
) -> Option<Result<Vec<u8>, Failure>> {
    let (you, steps) = user_key(sending).await;
    reporter.exchanges(sending.launcher, &steps);
    if let Err(failure) = &you {
        if sending.stop.is_set() {
            return None;
        }
        reporter.show_failed(command, "your own sign key", failure);
        first_failure.get_or_insert(failure.class);
    }
    Some(you)
}

/// The loop `show` and `status` share over their input, written once: your own sign key read
/// first ([`your_key`]), then each handle in input order, one at a time. An input that is not a
/// handle is said as a batch says one (`Reporter::invalid`: with `--json` an object of its own)
/// and counted as failed in `tally`. `each` reads one handle and says it (nothing when the stop
/// cut it short: half a handle would mislead), counting it in `tally`. The loop ends at the end
/// of the input, at a stop signal, or once stdout's reader is gone.
async fn each_handle(
    sending: Sending<'_>,
    slots: Vec<input::Slot>,
    reporter: &Reporter,
    command: &str,
    tally: &mut Tally,
    mut each: impl AsyncFnMut(Handle, Option<&[u8]>, &mut Tally),
) {
    let Some(you) = your_key(sending, reporter, command, &mut tally.first_failure).await else {
        return;
    };
    let you = you.ok();
    let items = items_refusing(slots, names_refused(command));
    futures_util::pin_mut!(items);
    while let Some(item) = items.next().await {
        if sending.stop.is_set() {
            return;
        }
        let handle = match item.target {
            Ok(Target::Handle(handle)) => handle,
            Ok(Target::Name(name)) => {
                let shown = on_copy(sending, reporter, command, name, async |copy| {
                    each(copy, you.as_deref(), tally).await
                })
                .await;
                if shown.done.is_none() {
                    tally.seen += 1;
                    tally.failed += 1;
                }
                if let Some(class) = shown.failed {
                    tally.first_failure.get_or_insert(class);
                }
                if sending.stop.is_set() || reporter.stdout_closed() {
                    return;
                }
                continue;
            }
            Err(_) => {
                if let Some(failure) = item.problem(command) {
                    reporter.invalid(&item, &failure);
                    tally.seen += 1;
                    tally.failed += 1;
                    tally.first_failure.get_or_insert(failure.class);
                }
                continue;
            }
        };
        each(handle, you.as_deref(), tally).await;
        if sending.stop.is_set() || reporter.stdout_closed() {
            return;
        }
    }
}

/// Runs a batch's requests, which hold no lease, unless Ctrl-C comes first: then it is dropped
/// at once, and no request after it is sent.
async fn unleased<T>(work: impl std::future::Future<Output = T>) -> Result<T, Failure> {
    interruptible(work).await.map_err(|mut failure| {
        failure.message = "interrupted; no new requests were sent".to_string();
        failure
    })
}

/// Runs work that holds leases (`batch::until_stopped`) until it ends or Ctrl-C stops it: its
/// value, or the interrupted failure that accounts for the leases.
async fn leased<T>(
    work: impl Future<Output = T>,
    stop: &Stop,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Result<T, Failure> {
    leased_or(work, stop, launcher, reporter, |_| {}).await
}

/// [`leased`], saying what the work did before Ctrl-C cut it short with `cut`.
async fn leased_or<T>(
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
async fn finish_leasing<Ran: AsRef<[Step]>>(
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

/// Runs work on a name's fresh copy ([`on_copy`]), which holds the copy as a lease, until it
/// ends or Ctrl-C stops it: the work's outcome, a failure to take or give back the copy
/// (already said) making it not 0, and what was left named ([`accounted`]).
async fn finish_on_copy(
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
fn settle_on_copy(
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
fn is_bare_stop(failure: &Failure) -> bool {
    failure.class == Class::Interrupted
        && failure.message == "interrupted"
        && failure.hint.is_none()
}

/// The network's data behind `handle`'s copy, read as `parts` says through a fresh handle given
/// back (`batch::status::network`), with its exchanges said: for a selection or an index that
/// found nothing in a copy that holds no data items, which the network may hold. `None` when
/// it could not be read (the words of the copy alone stand then).
async fn network_behind(
    handle: Handle,
    parts: Parts,
    settings: &Settings,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Result<Option<Shown>, Failure> {
    let stop = Stop::new(settings.interrupt_wait);
    let sending = sending(settings, launcher, &stop);
    let read = ShowOptions {
        range: IndexRange::ALL,
        full: false,
        parts,
    };
    let work = batch::status::network(sending, handle, read, |_, _, _| {});
    let (network, steps) = leased(work, &stop, launcher, reporter).await?;
    reporter.exchanges(launcher, &steps);
    let done = accounted(Done::Success, &stop, launcher, reporter);
    Ok(match (network, done) {
        (batch::status::Network::Read(shown), Done::Success) if shown.metadata.is_ok() => {
            Some(shown)
        }
        _ => None,
    })
}

/// A selection (or index) that took nothing from a copy that holds no data items, where the
/// network's data holds `held` items and `taken` of them (their indexes there) are what it
/// would have taken: never a silent exit 0 (issue 43), but `differs` (7), with the two ways on.
fn emptied_copy(command: &str, handle: Handle, held: u64, taken: &[u64]) -> Failure {
    let list: Vec<String> = taken.iter().map(|index| format!("data {index}")).collect();
    let would = match command {
        "cat" => format!("item {} is there", list.join(", ")),
        _ => format!(
            "{command} would take {} of them there ({}); nothing was changed",
            taken.len(),
            list.join(", ")
        ),
    };
    Failure::new(
        Class::Differs,
        format!(
            "{command} {handle}: handle {handle}'s copy holds no data items, but the network's data holds {held}, and {would}"
        ),
    )
    .with_hint(format!(
        "a post leaves the launcher's copy without data items: give the data's name in place of the handle (a command given a name works on the network's data), or run `{command}` on the handle `safe-ad reopen {handle}` prints"
    ))
}

/// Replaces FILE whole with `bytes` (`atomic_file`, keeping its permissions): a failure leaves
/// the old file, is said as `command`'s, and is never exit 0.
#[cfg(feature = "emulator")]
fn write_whole(path: &std::path::Path, bytes: &[u8], command: &str) -> Result<(), Failure> {
    crate::atomic_file::write(path, bytes, crate::atomic_file::Mode::AsBefore).map_err(|error| {
        Failure::new(
            Class::Unexpected,
            format!(
                "{command}: cannot write {}: {} (the file is as it was)",
                path.display(),
                crate::sanitize::line(error.to_string().as_bytes(), 200)
            ),
        )
    })
}

/// FILE as given to a command that replaces it whole (`emulator export`, `capture -o`), if it
/// may be: not a symbolic link (the rename would replace the link, not the file it names), a
/// regular file if it exists, and a name in a directory that exists and this process may write
/// in (where the new file is made beside it). Checked before anything is sent, so that a run
/// that could never write its file sends nothing (`capture` reads hundreds of requests before
/// it writes); `example` is the command line that writes where a link points. What can still
/// fail later (a full disk, a file-size limit) fails the write, which leaves the old file.
#[cfg(feature = "emulator")]
fn replaceable_file(
    path: &std::path::Path,
    command: &str,
    example: &str,
) -> Result<std::path::PathBuf, Failure> {
    let refused = |why: &str| {
        Failure::usage(format!(
            "{command}: {}: {why}",
            crate::sanitize::line(path.display().to_string().as_bytes(), 200)
        ))
    };
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(refused(&format!(
                "it is a symbolic link; {command} replaces FILE with a new file, which would \
                 replace the link rather than the file it names: give the file's own path"
            ))
            .with_hint(format!("`{example}` writes where the link points")))
        }
        Ok(meta) if !meta.is_file() => {
            return Err(refused(
                "it is not a regular file (a directory, FIFO or device); give a file's path, or \
                 `-` for standard output",
            ))
        }
        Ok(_) => {}
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => return Err(refused(&format!("cannot look at it: {error}"))),
    }
    // `dir/` and `dir/..` name a directory, whatever `Path` makes of them.
    use std::os::unix::ffi::OsStrExt;
    if path.file_name().is_none() || path.as_os_str().as_bytes().ends_with(b"/") {
        return Err(refused(
            "it names a directory, not a file in one; give a file's path, or `-` for standard \
             output",
        ));
    }
    let directory = crate::atomic_file::directory_of(path);
    let shown = crate::sanitize::line(directory.display().to_string().as_bytes(), 200);
    match std::fs::metadata(directory) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(refused(&format!("{shown} is not a directory"))),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(refused(&format!(
                "its directory {shown} does not exist; make it first (`mkdir -p`)"
            )))
        }
        Err(error) => return Err(refused(&format!("cannot look at {shown}: {error}"))),
    }
    // The new file is made in the directory, then renamed over FILE: both need write and
    // search permission there (and a file system that is not read-only).
    use rustix::fs::{access, Access};
    if let Err(errno) = access(directory, Access::WRITE_OK | Access::EXEC_OK) {
        let error = std::io::Error::from(errno);
        return Err(refused(&format!(
            "cannot make a file in its directory {shown}: {error}"
        )));
    }
    Ok(path.to_path_buf())
}

/// How a procedure's steps ended: by its first failure, if any.
fn done_of(steps: &[Step]) -> Done {
    let first_failure: Option<Class> = steps
        .iter()
        .find_map(|step| step.result.as_ref().err().map(|failure| failure.class));
    Done::from_first_failure(first_failure)
}

/// Before a purge (or `clear-deleted-data`) not saved: the note on what a plain post would
/// leave, said when the removal of one of the items (at `indexes`; all: `None`) has not reached
/// the network, or when that cannot be told (`batch::status::removals`).
async fn purge_note_if_unsaved(
    name: &str,
    handle: Handle,
    indexes: Option<&[u64]>,
    settings: &Settings,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Result<(), Failure> {
    let read = removals_read(name, handle, indexes, settings, launcher, reporter).await?;
    if read.is_none_or(|read| read.unsaved > 0) {
        reporter.purge_note(name, &handle.to_string());
    }
    Ok(())
}

/// Before a change of the copy's deleted items at `indexes` (all: `None`) by `name`: how many
/// have a removal the network has got and how many not (`batch::status::removals`; `None`: it
/// cannot be told), each request said with `--verbose`. A handle it took and could not give
/// back refuses the change.
async fn removals_read(
    name: &str,
    handle: Handle,
    indexes: Option<&[u64]>,
    settings: &Settings,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Result<Option<batch::status::Removals>, Failure> {
    let stop = Stop::new(settings.interrupt_wait);
    let sending = sending(settings, launcher, &stop);
    let work = batch::status::removals(sending, handle, indexes, ShowOptions::WHOLE);
    let (removals, steps) = leased(work, &stop, launcher, reporter).await?;
    reporter.exchanges(launcher, &steps);
    removals.map_err(|failure| {
        let mut refused = Failure::new(
            failure.class,
            format!(
                "{name} {handle}: a handle taken to read the network's deleted list was not given back; nothing was changed: {}",
                failure.message
            ),
        );
        refused.hint = failure.hint.clone();
        refused
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{ColorWhen, HandleArgs};
    use crate::launcher::Operation;

    /// The commands layer stays thin: what a command file takes from the layer is `mod.rs`'s
    /// shared helpers (`super::…`), never another command file.
    #[test]
    fn no_command_file_imports_another() {
        let files = [
            ("auth", include_str!("auth.rs")),
            ("capture", include_str!("capture.rs")),
            ("cat", include_str!("cat.rs")),
            ("completions", include_str!("completions.rs")),
            ("config", include_str!("config.rs")),
            ("decode", include_str!("decode.rs")),
            ("emulator", include_str!("emulator.rs")),
            ("export", include_str!("export.rs")),
            ("handles", include_str!("handles.rs")),
            ("items", include_str!("items.rs")),
            ("journal", include_str!("journal.rs")),
            ("man", include_str!("man.rs")),
            ("operations", include_str!("operations.rs")),
            ("shell", include_str!("shell.rs")),
            ("show", include_str!("show.rs")),
            ("status", include_str!("status.rs")),
            ("wait", include_str!("wait.rs")),
            ("watch", include_str!("watch.rs")),
        ];
        // Every command file is in the list.
        let declared: Vec<&str> = include_str!("mod.rs")
            .lines()
            .filter_map(|line| line.strip_prefix("pub mod ")?.strip_suffix(';'))
            .collect();
        let listed: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
        assert_eq!(declared, listed);
        let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        for (name, text) in files {
            for path in text
                .split("super::")
                .skip(1)
                .chain(text.split("commands::").skip(1))
            {
                // The names right after `super::`: one, or a `{…}` group of them.
                let names: Vec<&str> = match path.strip_prefix('{') {
                    Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
                    None => vec![path],
                };
                for used in names {
                    let used = used.trim_start();
                    let used = &used[..used.find(|c| !is_ident(c)).unwrap_or(used.len())];
                    assert!(
                        used == "*" || !files.iter().any(|(other, _)| *other == used),
                        "{name}.rs imports the command file {used}.rs"
                    );
                }
            }
        }
    }

    /// A command that sends nothing comes back as `Next::Done`, which `runtime::finish` ends
    /// without building a runtime; one that sends comes back as the work still to do.
    #[test]
    fn only_a_command_that_sends_gets_a_runtime() {
        let env = Environment {
            config_dir: Some("/nonexistent/safe-ad-test-config".into()),
            token: Some("a-token".into()),
            ..Environment::default()
        };
        let config = ConfigRead::read(&env);
        let reporter = Reporter::new(true, false, ColorWhen::Never);
        let handles = HandleArgs {
            handles: vec!["5".into()],
        };
        let run = |options: &ClientOptions| {
            let cx = Context {
                options,
                env: &env,
                config: &config,
                reporter: &reporter,
            };
            match operations::run(Operation::Put, None, &handles, cx) {
                Ok(Next::Done(done)) => Some(done),
                Ok(Next::Sends(_)) => None,
                Err(failure) => panic!("{failure}"),
            }
        };
        let dry_run = ClientOptions {
            dry_run: true,
            ..ClientOptions::default()
        };
        assert_eq!(run(&dry_run), Some(Done::Success));
        let curl = ClientOptions {
            curl: true,
            ..ClientOptions::default()
        };
        assert_eq!(run(&curl), Some(Done::Success));
        assert_eq!(run(&ClientOptions::default()), None);
    }
}
