//! The `auth` commands: getting a token from the launcher, checking, printing and revoking it.
//!
//! A login stores the token with `config_file::update` (atomic, mode 0600). `auth token` is the
//! only command in safe-ad that ever prints a token.

use crate::cli::AuthCommand;
use crate::config_file;
use crate::launcher::{AppIdentity, AuthRequest, Grant, Launcher, LOW_LEVEL_API};
use crate::outcome::{self, Class, Failure};
use crate::report::{self, Reporter};
use crate::run::{internal, interruptible, runtime};
use crate::settings::{Settings, Source};

/// Runs one `auth` subcommand and returns its exit code.
pub fn run(command: &AuthCommand, settings: &Settings, reporter: &Reporter) -> Result<u8, Failure> {
    match command {
        AuthCommand::Login {
            app_name,
            app_id,
            vendor,
        } => login(
            AppIdentity {
                name: app_name.clone(),
                id: app_id.clone(),
                version: env!("CARGO_PKG_VERSION").to_string(),
                vendor: vendor.clone(),
            },
            settings,
            reporter,
        ),
        AuthCommand::Status => status(settings),
        AuthCommand::Logout => logout(settings, reporter),
        AuthCommand::Token => {
            report::out(&format!("{}\n", settings.token()?.expose()));
            Ok(0)
        }
    }
}

fn login(app: AppIdentity, settings: &Settings, reporter: &Reporter) -> Result<u8, Failure> {
    let path = settings.config_path.clone().ok_or_else(|| {
        Failure::usage("there is no config directory to store the token in")
            .with_hint("set SAFE_AD_CONFIG_DIR to a directory")
    })?;
    let launcher = Launcher::new(settings).map_err(internal)?;
    let base = settings.launcher.base();
    let waiting = format!("waiting for approval in the launcher at {base} (Ctrl-C cancels)");
    let login = AuthRequest::Login(app);
    let answer = runtime()?.block_on(async {
        let request = launcher.auth(&login);
        let answer = if report::stderr_is_terminal() {
            let answer = interruptible(async {
                tokio::select! {
                    answer = request => answer,
                    never = report::spin(&waiting) => match never {},
                }
            })
            .await;
            report::clear_line();
            answer
        } else {
            reporter.info(&waiting);
            interruptible(request).await
        };
        answer.map_err(|mut failure| {
            failure.message = "login cancelled; nothing was stored".into();
            failure
        })
    })?;
    let answer = answer.map_err(|no_answer| outcome::judge_no_answer(&no_answer, None, base))?;
    if answer.status == 401 {
        let (detail, _, _) = outcome::describe_body(&answer.body);
        return Err(Failure::new(
            Class::Auth,
            format!("the launcher denied the request: {detail}"),
        )
        .with_hint(
            "approve the request in the launcher window; a user must be logged in to the launcher",
        ));
    }
    outcome::judge_answer(&answer)?;
    let grant = Grant::parse(&answer.body).ok_or_else(|| {
        Failure::new(
            Class::Unexpected,
            "the launcher approved the request but its answer holds no usable token",
        )
        .with_hint("check that the launcher URL points at a SAFE Launcher")
    })?;
    config_file::update(&path, |config| {
        config.token = Some(grant.token.expose().to_string());
    })
    .map_err(|e| {
        Failure::usage(e.to_string()).with_hint("fix or remove the config file, then log in again")
    })?;
    reporter.info(&format!("logged in: token stored in {}", path.display()));
    if !grant.permissions.iter().any(|p| p == LOW_LEVEL_API) {
        reporter.warning(&format!(
            "the launcher granted {:?} without {LOW_LEVEL_API}; saving and clearing will be refused (403)",
            grant.permissions
        ));
    }
    if let Some((_, source @ (Source::Env(_) | Source::Flag(_) | Source::Stdin))) = &settings.token
    {
        reporter.warning(&format!(
            "the token from {source} still wins over the stored one; unset or drop it to use the new token"
        ));
    }
    Ok(0)
}

fn status(settings: &Settings) -> Result<u8, Failure> {
    report::out(&format!(
        "launcher  {} ({})\n",
        settings.launcher.base(),
        settings.launcher_source
    ));
    let Some((token, source)) = &settings.token else {
        report::out("token     none\n");
        return Err(settings
            .token()
            .err()
            .unwrap_or_else(|| Failure::new(Class::Auth, "no token found")));
    };
    report::out(&format!("token     {} ({source})\n", token.mask()));
    let launcher = Launcher::new(settings).map_err(internal)?;
    let answer = runtime()?.block_on(interruptible(launcher.auth(&AuthRequest::Check)))?;
    let failure = match answer {
        Ok(answer) => match outcome::judge_answer(&answer) {
            Ok(()) => {
                report::out("status    accepted by the launcher\n");
                return Ok(0);
            }
            Err(failure) => {
                report::out(&format!(
                    "status    not accepted ({})\n",
                    failure.class.name()
                ));
                failure
            }
        },
        Err(no_answer) => {
            report::out("status    launcher not reachable\n");
            outcome::judge_no_answer(&no_answer, None, settings.launcher.base())
        }
    };
    Err(failure)
}

fn logout(settings: &Settings, reporter: &Reporter) -> Result<u8, Failure> {
    let token_source = match &settings.token {
        Some((_, source)) => source.clone(),
        None => {
            return Err(settings
                .token()
                .err()
                .unwrap_or_else(|| Failure::new(Class::Auth, "no token found")))
        }
    };
    let launcher = Launcher::new(settings).map_err(internal)?;
    let answer = runtime()?.block_on(interruptible(launcher.auth(&AuthRequest::Revoke)))?;
    let base = settings.launcher.base();
    let revoke_failure = match answer {
        Ok(answer) if answer.status == 401 => {
            reporter.info(
                "the launcher no longer accepted the token (already revoked, or it restarted)",
            );
            None
        }
        Ok(answer) => match outcome::judge_answer(&answer) {
            Ok(()) => {
                reporter.info(&format!("revoked the token at {base}"));
                None
            }
            Err(failure) => Some(failure),
        },
        Err(no_answer) => Some(outcome::judge_no_answer(&no_answer, None, base)),
    };
    match &token_source {
        Source::ConfigFile(path) => {
            if let Some(failure) = &revoke_failure {
                reporter.warning(&format!(
                    "could not revoke the token at the launcher: {}",
                    failure.message
                ));
            }
            config_file::update(path, |config| config.token = None).map_err(|e| {
                Failure::usage(e.to_string())
                    .with_hint("remove the \"token\" key from the file by hand")
            })?;
            reporter.info(&format!("removed the token from {}", path.display()));
            Ok(0)
        }
        other => {
            reporter.info(&format!(
                "the token came from {other}, which safe-ad does not manage: remove it there"
            ));
            match revoke_failure {
                Some(failure) => Err(failure),
                None => Ok(0),
            }
        }
    }
}
