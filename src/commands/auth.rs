//! The `auth` commands: getting a token from the launcher, checking, printing and revoking it,
//! and `whoami`, the user's own key.
//!
//! A login stores the token in the config file (atomic, mode 0600) through `settings`. `auth
//! token` is the only command in safe-ad that ever prints a token.

use crate::batch::{show, Stop};
use crate::cli::{AuthCommand, LoginArgs};
use crate::launcher::{AppIdentity, AuthRequest, Permission};
use crate::outcome::{self, Done, Failure};
use crate::report::{self, StatusAnswer};
use crate::runtime::interruptible;
use crate::settings::{self, Settings, Source, StdinUse};

use super::{leased, Context, Next};

/// Runs one `auth` subcommand.
pub fn run<'a>(command: &'a AuthCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let settings = super::resolve(cx, StdinUse::Free)?;
    match command {
        AuthCommand::Login(args) => login(args, settings, cx),
        AuthCommand::Status => status(settings, cx),
        AuthCommand::Logout => logout(settings, cx),
        AuthCommand::Whoami(args) => whoami(args.key, settings, cx),
        AuthCommand::Token => {
            reporter.token(settings.token()?);
            Ok(Next::Done(Done::Success))
        }
    }
}

/// `auth whoami`: the fingerprint of the user's own sign key (`GET /sign-key`, its serialised
/// bytes, the sign-key handle given back), so that `show`'s signers and filter keys can be
/// matched by eye, and `--signed-by` given a key; with `key`, the key itself, which another
/// person's `filter add` takes.
fn whoami(key: bool, settings: Settings, cx: Context<'_>) -> Result<Next<'_>, Failure> {
    let reporter = cx.reporter;
    let launcher = super::launcher(&settings, cx)?;
    settings.token()?;
    Ok(Next::sends(async move {
        let stop = Stop::new(settings.interrupt_wait);
        let work = show::user_key(super::sending(&settings, &launcher, &stop, cx.ledger()));
        let (you, steps) = leased(work, &stop, &launcher, reporter).await?;
        reporter.exchanges(&launcher, &steps);
        Ok(reporter.whoami(&you?, key))
    }))
}

fn login<'a>(
    args: &'a LoginArgs,
    settings: Settings,
    cx: Context<'a>,
) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let path = settings.config_path.clone().ok_or_else(|| {
        Failure::usage("there is no config directory to store the token in")
            .with_hint("set SAFE_AD_CONFIG_DIR to a directory")
    })?;
    let launcher = super::launcher(&settings, cx)?;
    let login = AuthRequest::Login(AppIdentity {
        name: args.app_name.clone(),
        id: args.app_id.clone(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        vendor: args.vendor.clone(),
    });
    Ok(Next::sends(async move {
        let base = settings.launcher.base();
        let answer = async {
            if let Err(no_answer) = interruptible(launcher.connect()).await? {
                return Ok(Err(no_answer));
            }
            let request = launcher.auth(&login);
            let answer = if report::stderr_is_terminal() {
                let answer = interruptible(async {
                    tokio::select! {
                        answer = request => answer,
                        never = reporter.login_spinner(base) => match never {},
                    }
                })
                .await;
                reporter.clear_spinner();
                answer
            } else {
                reporter.login_waiting(base);
                interruptible(request).await
            };
            answer.map_err(|mut failure| {
                failure.message = "login cancelled; nothing was stored".into();
                failure
            })
        }
        .await?;
        let answer =
            answer.map_err(|no_answer| outcome::judge_no_answer(&no_answer, None, base))?;
        let grant = outcome::judge_login(&answer)?;
        // Under a profile, the token is that profile's: its launcher gave it.
        let profile = settings.profile.as_ref().map(|active| active.name.as_str());
        settings::edit_config(&path, |config| match profile {
            Some(name) => config.profile_mut(name).token = Some(grant.token.clone()),
            None => config.token = Some(grant.token.clone()),
        })
        .map_err(|e| {
            Failure::usage(e.to_string())
                .with_hint("fix or remove the config file, then log in again")
        })?;
        reporter.logged_in(&path, profile);
        if !grant.permissions.contains(&Permission::LowLevelApi) {
            reporter.granted_without(&grant.permissions, Permission::LowLevelApi);
        }
        if let Some((
            _,
            source @ (Source::Env(_) | Source::TokenFile(_) | Source::TokenPipe(_) | Source::Stdin),
        )) = &settings.token
        {
            reporter.token_source_still_wins(source);
        }
        Ok(Done::Success)
    }))
}

fn status(settings: Settings, cx: Context<'_>) -> Result<Next<'_>, Failure> {
    let reporter = cx.reporter;
    // Without a token there is nothing to ask the launcher.
    // The status (with `--json`, its one object) says the failure; it is not said again as the
    // run's end.
    if let Err(failure) = settings.token() {
        reporter.auth_status(&settings, StatusAnswer::NoToken, Some(&failure));
        reporter.failed(&failure);
        return Ok(Next::Done(Done::Failed(failure.class)));
    }
    let launcher = super::launcher(&settings, cx)?;
    Ok(Next::sends(async move {
        let answer = interruptible(launcher.auth(&AuthRequest::Check)).await?;
        let (answer, failure) = match answer {
            Ok(answer) => match outcome::judge_answer(&answer) {
                Ok(()) => (StatusAnswer::Accepted, None),
                Err(failure) => (StatusAnswer::NotAccepted(failure.class), Some(failure)),
            },
            Err(no_answer) => (
                StatusAnswer::Unreachable,
                Some(outcome::judge_no_answer(
                    &no_answer,
                    None,
                    settings.launcher.base(),
                )),
            ),
        };
        reporter.auth_status(&settings, answer, failure.as_ref());
        match failure {
            Some(failure) => {
                reporter.failed(&failure);
                Ok(Done::Failed(failure.class))
            }
            None => Ok(Done::Success),
        }
    }))
}

fn logout(settings: Settings, cx: Context<'_>) -> Result<Next<'_>, Failure> {
    let reporter = cx.reporter;
    // Logging out twice is not a mistake: the person's wish already holds.
    let Ok((_, token_source)) = settings.token_and_source() else {
        reporter.not_logged_in();
        return Ok(Next::Done(Done::Success));
    };
    let token_source = token_source.clone();
    let launcher = super::launcher(&settings, cx)?;
    Ok(Next::sends(async move {
        let answer = interruptible(launcher.auth(&AuthRequest::Revoke)).await?;
        let base = settings.launcher.base();
        let revoke_failure = match answer {
            Ok(answer) if answer.status == 401 => {
                reporter.token_already_gone();
                None
            }
            Ok(answer) => match outcome::judge_answer(&answer) {
                Ok(()) => {
                    reporter.revoked(base);
                    None
                }
                Err(failure) => Some(failure),
            },
            Err(no_answer) => Some(outcome::judge_no_answer(&no_answer, None, base)),
        };
        match &token_source {
            Source::ConfigFile(path) | Source::Profile(_, path) => {
                if let Some(failure) = &revoke_failure {
                    reporter.revoke_failed(failure);
                }
                settings::edit_config(path, |config| match &token_source {
                    Source::Profile(name, _) => config.profile_mut(name).token = None,
                    _ => config.token = None,
                })
                .map_err(|e| {
                    Failure::usage(e.to_string())
                        .with_hint("remove the \"token\" key from the file by hand")
                })?;
                let profile = match &token_source {
                    Source::Profile(name, _) => Some(name.as_str()),
                    _ => None,
                };
                reporter.token_removed(path, profile);
                Ok(Done::Success)
            }
            other => {
                reporter.token_not_managed(other);
                match revoke_failure {
                    Some(failure) => Err(failure),
                    None => Ok(Done::Success),
                }
            }
        }
    }))
}
