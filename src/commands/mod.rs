//! The commands, one file per family. Each takes the merged client options and the reporter
//! and returns `Result<Done, Failure>`: what it printed went through the reporter, and the exit
//! code is left to `outcome`.
//!
//! `operations` (put, post, the clears) and `metadata` drive batches of handles; `handles`
//! makes and frees them (create, open, reopen, drop); `auth` and
//! `config` manage the token and the config file; `completions` prints a script; `emulator`
//! starts the stand-in launcher.

pub mod auth;
pub mod completions;
pub mod config;
#[cfg(feature = "emulator")]
pub mod emulator;
pub mod handles;
pub mod metadata;
pub mod operations;

use crate::cli::ClientOptions;
use crate::launcher::{Launcher, Request, Slot};
use crate::outcome::Failure;
use crate::report::Reporter;
use crate::runtime::internal;
use crate::settings::{self, Environment, Settings, StdinUse};

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
/// what prints each request instead of sending it.
fn describer<'a>(
    settings: &'a Settings,
    launcher: &'a Launcher,
    reporter: &'a Reporter,
) -> impl Fn(&Request<Slot>) + 'a {
    let token = settings.token.as_ref().map(|(_, source)| source);
    if settings.curl {
        reporter.curl_token_note(token);
    }
    move |request| reporter.request_described(launcher, request, settings.curl, token)
}
