//! The commands, one file per family. Each takes the merged client options and the reporter
//! and returns `Result<Done, Failure>`: what it printed went through the reporter, and the exit
//! code is left to `outcome`.
//!
//! `operations` (put, post, the clears) and `metadata` drive batches of handles; `handles`
//! makes and frees them (create, open, reopen, drop); `items` changes one item at a time
//! (remove, restore, purge, append), beside the clears it mirrors; `show` reads what a handle
//! holds, `cat` one item's content as raw bytes, and `status` compares a copy with the network;
//! `auth` and `config` manage the token and the config file (`whoami`: your own key);
//! `completions` prints a script; `decode` reads serialised bytes, offline; `emulator` starts
//! the stand-in launcher.

pub mod auth;
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
pub mod metadata;
pub mod operations;
pub mod show;
pub mod status;
pub mod whoami;

use std::ffi::OsString;

use crate::batch::Stop;
use crate::cli::ClientOptions;
use crate::input::{self, BadArgs};
use crate::launcher::{Launcher, Request, Slot};
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
use crate::runtime::internal;
use crate::settings::{self, Environment, Settings, StdinUse};

/// The handles given on the command line, `-` for standard input. Every argument that is not a
/// handle is reported, as a bad line of standard input is (`--json` included), and `None` says
/// the run ends there, exit 2, before anything is sent.
fn handle_slots(
    raw: &[OsString],
    command: &str,
    reporter: &Reporter,
) -> Result<Option<Vec<input::Slot>>, Failure> {
    match input::parse_args(raw) {
        Ok(slots) => Ok(Some(slots)),
        Err(BadArgs::Failure(failure)) => Err(failure),
        Err(BadArgs::Handles(bad)) => {
            for item in &bad {
                if let Some(failure) = item.problem(command) {
                    reporter.invalid(item, &failure);
                }
            }
            Ok(None)
        }
    }
}

/// What standard input holds besides a token, given the handle slots: handles if `-` is one.
fn stdin_use(slots: &[input::Slot]) -> StdinUse {
    if slots.contains(&input::Slot::Stdin) {
        StdinUse::Handles
    } else {
        StdinUse::Free
    }
}

/// Resolves the settings of a command from the process's environment and says their warnings.
fn resolve(
    options: &ClientOptions,
    reporter: &Reporter,
    stdin_use: StdinUse,
) -> Result<Settings, Failure> {
    let settings = settings::resolve(
        options,
        &Environment::from_process(),
        &mut std::io::stdin().lock(),
        stdin_use,
    )?;
    // A token read only now (from standard input or a pipe) is kept out of the words too.
    crate::report::keep_out(settings.token.iter().map(|(token, _)| token.clone()));
    for warning in &settings.warnings {
        reporter.warning(warning);
    }
    Ok(settings)
}

/// The HTTP module, set up from the settings' narrow launcher config.
fn launcher(settings: &Settings) -> Result<Launcher, Failure> {
    Launcher::new(settings.launcher_config()).map_err(internal)
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

/// The failure after Ctrl-C stopped work that holds leases (`batch::until_stopped`): whether
/// every launcher handle it had obtained went back, or which ones a second Ctrl-C (or a drop that
/// failed) left behind and the requests that free them.
fn interrupted(stop: &Stop, launcher: &Launcher, reporter: &Reporter) -> Failure {
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
    Failure::new(
        Class::Interrupted,
        format!(
            "interrupted twice, so it left at once: {} launcher handle{} it had obtained {} not given back",
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
