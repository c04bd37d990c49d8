//! The `config` commands: where the config file is, what every setting resolves to, and
//! checked edits of the file's keys.
//!
//! Values are checked with the same functions `settings` uses, so a value `config set` accepts
//! is one every later run accepts. The token is never taken as an argument.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::cli::{ConfigCommand, ConfigKey};
use crate::config_file;
use crate::outcome::Failure;
use crate::report::{self, Reporter};
use crate::secret::Secret;
use crate::settings::{self, Environment, Settings};

/// Runs `config path`, `set` or `unset`: these need only the file's path, not valid settings.
pub fn run_on_file(
    command: &ConfigCommand,
    env: &Environment,
    stdin: &mut dyn Read,
    reporter: &Reporter,
) -> Result<u8, Failure> {
    let path = path(env)?;
    match command {
        ConfigCommand::Path => report::out(&format!("{}\n", path.display())),
        ConfigCommand::Set { key, value } => {
            let value = if value == "-" {
                read_value(stdin)?
            } else if *key == ConfigKey::Token {
                return Err(Failure::usage(
                    "refusing to take the token as an argument: it would show in process lists and shell history",
                )
                .with_hint("pipe it in: safe-ad config set token - < FILE (or run `safe-ad auth login`)"));
            } else {
                value.clone()
            };
            set(&path, *key, &value, reporter)?;
            reporter.info(&format!("set {} in {}", key.name(), path.display()));
        }
        ConfigCommand::Unset { key } => {
            let mut was_set = false;
            config_file::update(&path, |config| {
                was_set = match key {
                    ConfigKey::LauncherUrl => config.launcher_url.take().is_some(),
                    ConfigKey::Token => config.token.take().is_some(),
                    ConfigKey::TimeoutSecs => config.timeout_secs.take().is_some(),
                };
            })
            .map_err(file_failure)?;
            if was_set {
                reporter.info(&format!("removed {} from {}", key.name(), path.display()));
            } else {
                reporter.info(&format!("{} was not set in {}", key.name(), path.display()));
            }
        }
        ConfigCommand::Show => unreachable!("config show needs resolved settings"),
    }
    Ok(0)
}

/// `config show`: every setting, its effective value and where it came from.
pub fn show(settings: &Settings) -> Result<u8, Failure> {
    let token = match &settings.token {
        Some((token, source)) => format!("{}  ({source})", token.mask()),
        None => "none".to_string(),
    };
    let file = match &settings.config_path {
        Some(path) if path.exists() => format!("{}  (exists)", path.display()),
        Some(path) => format!("{}  (does not exist yet)", path.display()),
        None => "none (no home directory; set SAFE_AD_CONFIG_DIR)".to_string(),
    };
    report::out(&format!(
        "launcher_url  {}  ({})\ntoken         {token}\ntimeout_secs  {}  ({})\nconfig file   {file}\n",
        settings.launcher.base(),
        settings.launcher_source,
        settings.timeout.as_secs_f64(),
        settings.timeout_source,
    ));
    Ok(0)
}

fn path(env: &Environment) -> Result<PathBuf, Failure> {
    settings::config_path(env)?.ok_or_else(|| {
        Failure::usage("there is no config directory (no home directory)")
            .with_hint("set SAFE_AD_CONFIG_DIR to a directory")
    })
}

fn set(path: &Path, key: ConfigKey, value: &str, reporter: &Reporter) -> Result<(), Failure> {
    let invalid = |why: String| {
        Failure::usage(format!("invalid value for {}: {why}", key.name()))
            .with_hint("nothing was changed; `safe-ad config set --help` shows examples")
    };
    match key {
        ConfigKey::LauncherUrl => {
            let url = settings::parse_launcher_url(value).map_err(invalid)?;
            if !url.is_loopback() && url.base().starts_with("http:") {
                reporter.warning(
                    "plain http to another host sends the token in clear text; safe-ad will refuse it unless --allow-insecure-http is given",
                );
            }
            let base = url.base().to_string();
            config_file::update(path, |config| config.launcher_url = Some(base))
        }
        ConfigKey::TimeoutSecs => {
            let secs = settings::parse_timeout(value).map_err(invalid)?;
            config_file::update(path, |config| config.timeout_secs = Some(secs))
        }
        ConfigKey::Token => {
            let token = Secret::parse(value).map_err(|problem| invalid(problem.describe().into()))?;
            config_file::update(path, |config| config.token = Some(token.expose().to_string()))
        }
    }
    .map_err(file_failure)
}

fn read_value(stdin: &mut dyn Read) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    stdin
        .take(64 * 1024 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::usage(format!("cannot read the value from standard input: {e}")))?;
    if bytes.len() > 64 * 1024 {
        return Err(Failure::usage(
            "the value on standard input is larger than 64 KiB",
        ));
    }
    String::from_utf8(bytes).map_err(|_| Failure::usage("the value on standard input is not text"))
}

fn file_failure(error: config_file::ConfigError) -> Failure {
    Failure::usage(error.to_string()).with_hint("fix or remove the file; nothing was changed")
}
