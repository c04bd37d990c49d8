//! The commands, one file per family. Each takes its arguments and the [`Context`] (the merged
//! client options, the environment read once, the reporter), checks them, and comes back with a
//! [`Next`]: its end when it sends nothing, or the sending still to do, which `run` runs on the
//! one runtime (`runtime::finish`). What it printed went through the reporter, and the exit code
//! is left to `outcome`. No command file imports another: what several share is here
//! (resolving the settings, the launcher, what procedures are sent with, the loop of `show` and
//! `status`, the purge note) and in the private helper files beside it, by family: `leases` (the
//! stop-and-account block), `copies` (work on a name's fresh copy), `files` (the checks and
//! atomic write of a FILE `emulator export` and `capture` replace), `restore` (a restore
//! that saves) and `polling` (the poll loop `wait` and `watch` share). The arguments' parsers
//! are in `args`, and the client of the emulator's own routes is `crate::emulator_routes`.
//!
//! `operations` (put, post, the clears, metadata, reopen and drop) drives batches of handles;
//! `handles` makes them (create, open); `items` changes one item at a time
//! (remove, restore, purge, append), beside the clears it mirrors; `show` reads what a handle
//! holds, `cat` one item's content as raw bytes, and `status` compares a copy with the network;
//! `wait` polls the network until a condition holds, `watch` says how it changes; `filter` reads
//! and changes who may append (the filter's type and keys); `capture`
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
mod copies;
pub mod decode;
#[cfg(feature = "emulator")]
pub mod emulator;
#[cfg(feature = "emulator")]
pub mod export;
#[cfg(feature = "emulator")]
mod files;
pub mod filter;
pub mod handles;
pub mod items;
#[cfg(feature = "emulator")]
pub mod journal;
mod leases;
pub mod man;
pub mod operations;
mod polling;
mod restore;
pub mod shell;
pub mod show;
pub mod status;
pub mod wait;
pub mod watch;

use std::ffi::OsString;

use futures_util::StreamExt;

use crate::batch::show::{user_key, IndexRange, Parts, ShowOptions, Shown};
use crate::batch::{self, Sending, Stop, Tally};
use crate::cli::{ClientOptions, Names};
use crate::handle::{Handle, NameRefusal, Target};
use crate::input::{self, BadArgs, Item};
use crate::launcher::{Launcher, Request, Slot};
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
pub use crate::runtime::{Next, Session};
use crate::session::Ledger;

// The helpers every command shares, by family, for the commands as `super::NAME`.
use crate::runtime::internal;
use crate::settings::{self, ConfigRead, Environment, Settings, StdinUse};
use copies::{finish_on_copy, on_copy, on_copy_phased, settle_on_copy};
#[cfg(feature = "emulator")]
use files::{replaceable_file, write_whole};
use leases::{
    accounted, done_of, dropped_holding, finish_leasing, interrupted, leased, leased_or,
    saves_in_flight, unleased,
};

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
    /// The `shell` session this line is one of, whose runtime and connections it uses.
    pub session: Option<&'a Session>,
}

impl<'a> Context<'a> {
    /// The `shell` session's ledger, which a line's procedures note what they made in; `None`
    /// on a command line.
    pub fn ledger(&self) -> Option<&'a Ledger> {
        self.session.map(Session::ledger)
    }

    /// What the command's requests are sent and said with, once `settings` and `launcher` are
    /// resolved.
    fn means<'s>(self, settings: &'s Settings, launcher: &'s Launcher) -> Means<'s>
    where
        'a: 's,
    {
        Means {
            settings,
            launcher,
            ledger: self.ledger(),
            reporter: self.reporter,
        }
    }
}

/// The handles (or names) given on the command line, `-` for standard input, of a command that
/// reads them (`show`, `status`), with its settings and launcher, the token checked. Every
/// argument that is neither is reported, as a bad line of standard input is (`--json`
/// included), and so is a name given to a command that takes handles only
/// ([`names_refused`]); `None` says the run ends there, exit 2, before anything is sent.
fn handles_to_read(
    raw: &[OsString],
    command: &str,
    cx: Context,
) -> Result<Option<(Vec<input::Slot>, Settings, Launcher)>, Failure> {
    let why = names_refused(command);
    let Some(slots) = handle_slots_refusing(raw, command, why, cx.reporter)? else {
        return Ok(None);
    };
    let settings = resolve(cx, stdin_use(&slots))?;
    let launcher = launcher(&settings, cx)?;
    settings.token()?;
    Ok(Some((slots, settings, launcher)))
}

/// The handles (or names) given on the command line, as [`handles_to_read`] reads them, with
/// names refused for `why` (`reopen --drop`, which its flag decides).
fn handle_slots_refusing(
    raw: &[OsString],
    command: &str,
    why: Option<NameRefusal>,
    reporter: &Reporter,
) -> Result<Option<Vec<input::Slot>>, Failure> {
    // Which arguments are bad: those not handles or names, or else the names refused.
    let mut names_bad = false;
    let bad = match input::parse_args(raw) {
        Ok(slots) => {
            names_bad = true;
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
    // A result for every argument, in order: each bad one, and each good one not sent for them.
    let mut bad = bad.iter();
    for arg in raw.iter().filter(|arg| *arg != "-") {
        let is_bad = match Target::parse(arg.to_str().unwrap_or("\u{fffd}")) {
            Ok(Target::Name(_)) => names_bad,
            Ok(Target::Handle(_)) => false,
            Err(_) => true,
        };
        match is_bad {
            true => {
                if let Some(item) = bad.next() {
                    if let Some(failure) = item.problem(command) {
                        reporter.invalid(command, item, &failure);
                    }
                }
            }
            false => reporter.not_sent(command, &arg.to_string_lossy()),
        }
    }
    Ok(None)
}

/// Why `command` takes handles only, if it does (its spec says: `put`, `drop`, `status`).
fn names_refused(command: &str) -> Option<NameRefusal> {
    match crate::cli::spec_of(command).map(|spec| spec.names) {
        Some(Names::Refused(why)) => Some(NameRefusal { option: None, why }),
        _ => None,
    }
}

/// The handles and names in order, standard input read in place of `-`, a name refused for
/// `why` where the command takes handles only.
fn items_refusing(
    slots: Vec<input::Slot>,
    why: Option<NameRefusal>,
) -> impl futures_util::Stream<Item = Item> {
    input::items(slots, tokio::io::stdin()).map(move |item| item.refusing_names(why))
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
fn launcher(settings: &Settings, cx: Context) -> Result<Launcher, Failure> {
    // A line of a `shell` sends on the session's kept connections.
    let launcher = match cx.session {
        Some(session) => Launcher::kept_in(settings.launcher_config(), session.connections()),
        None => Launcher::new(settings.launcher_config()),
    }
    .map_err(internal)?;
    // What the line makes or gives back is this launcher's, to a `shell` session, which gives
    // it back the way the line reached it.
    if let Some(session) = cx.session {
        session.ledger().reaching(crate::session::Reach {
            base: launcher.base().to_string(),
            token_file: match &settings.token {
                Some((_, crate::settings::Source::TokenFile(path))) => Some(path.clone()),
                _ => None,
            },
            insecure: settings.launcher.sends_token_in_clear(),
        });
    }
    Ok(launcher)
}

/// What a command's procedures are sent with ([`Sending`]): the launcher, `--verbose`,
/// `--jobs`, the stop that holds their leases, and the `shell` session's ledger (`ledger`:
/// [`Context::ledger`]).
fn sending<'a>(
    settings: &Settings,
    launcher: &'a Launcher,
    stop: &'a Stop,
    ledger: Option<&'a Ledger>,
) -> Sending<'a> {
    Sending {
        launcher,
        verbose: settings.verbose,
        stop,
        jobs: settings.jobs,
        ledger,
    }
}

/// `--dry-run` or `--curl` of a command of one chain: its requests described, nothing sent.
fn described<'a>(
    settings: &Settings,
    launcher: &Launcher,
    reporter: &Reporter,
    plan: &[Request<Slot>],
) -> Next<'a> {
    describer(settings, launcher, reporter)(plan);
    Next::Done(Done::Success)
}

/// What a command's requests are sent and said with, once its settings are resolved: passed
/// whole to the helpers that send and say (each would otherwise take the four).
#[derive(Clone, Copy)]
struct Means<'a> {
    settings: &'a Settings,
    launcher: &'a Launcher,
    /// The `shell` session's ledger ([`Context::ledger`]).
    ledger: Option<&'a Ledger>,
    reporter: &'a Reporter,
}

impl<'a> Means<'a> {
    /// What a procedure is sent with, holding its leases in `stop` ([`sending`]).
    fn sending(self, stop: &'a Stop) -> Sending<'a> {
        sending(self.settings, self.launcher, stop, self.ledger)
    }
}

/// A change of one procedure on a handle, or on a name's fresh copy given back after it: its
/// result opened, `work` sent on the handle (or the copy) under a watch for stop signals, `said`
/// saying what it did (also what a stop cut short) and giving what it came to, and the handles
/// left behind named ([`accounted`], [`finish_on_copy`]).
async fn change_on_target<Ran>(
    command: &str,
    target: Target,
    means: Means<'_>,
    work: impl AsyncFn(Sending<'_>, Handle) -> Ran,
    said: impl Fn(&Ran) -> Done,
) -> Result<Done, Failure> {
    let (settings, launcher, reporter) = (means.settings, means.launcher, means.reporter);
    reporter.result_for(command, Some(&target.to_string()));
    let stop = Stop::new(settings.interrupt_wait);
    let sending = means.sending(&stop);
    let data = match target {
        Target::Handle(handle) => {
            // What a stop cut short is said; it comes to the stop's failure, not its own.
            let cut = |ran| {
                let _ = said(&ran);
            };
            let ran = leased_or(work(sending, handle), &stop, launcher, reporter, cut).await?;
            return Ok(accounted(said(&ran), &stop, launcher, reporter));
        }
        Target::Name(data) => data,
    };
    let change = async |copy| Ok(said(&work(sending, copy).await));
    let work = on_copy(sending, reporter, command, data, change);
    finish_on_copy(work, &stop, launcher, reporter).await
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
                    reporter.invalid(command, &item, &failure);
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

/// Before a purge (or `clear-deleted-data`) not saved: the note on what a plain post would
/// leave, said when the removal of one of the items (at `indexes`; all: `None`) has not reached
/// the network, or when that cannot be told (`batch::status::removals`).
async fn purge_note_if_unsaved(
    name: &str,
    handle: Handle,
    indexes: Option<&[u64]>,
    means: Means<'_>,
) -> Result<(), Failure> {
    let reporter = means.reporter;
    let read = removals_read(name, handle, indexes, means).await?;
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
    means: Means<'_>,
) -> Result<Option<batch::status::Removals>, Failure> {
    let (settings, launcher, reporter) = (means.settings, means.launcher, means.reporter);
    let stop = Stop::new(settings.interrupt_wait);
    let sending = sending(settings, launcher, &stop, None);
    let work = batch::status::removals(sending, handle, indexes, ShowOptions::WHOLE);
    let (removals, steps) = leased(work, &stop, launcher, reporter).await?;
    reporter.exchanges(launcher, &steps);
    removals.map_err(|failure| {
        failure.refusing(format_args!(
            "{name} {handle}: a handle taken to read the network's deleted list was not given back; nothing was changed"
        ))
    })
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
    let sending = sending(settings, launcher, &stop, None);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{ColorWhen, HandleArgs};
    use crate::launcher::Operation;

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
                session: None,
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
