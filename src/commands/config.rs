//! The `config` commands: where the config file is, what every setting resolves to, and checked
//! edits of the file's keys, at its top level or in a profile (`--profile NAME`).
//!
//! `show` resolves the settings as any command would; `path`, `set` and `unset` need only the
//! file's path, so a broken file can still be mended with them. Values are checked by
//! `settings`, so a value `config set` accepts is one every later run accepts. The token is
//! never taken as an argument.

use crate::cli::{ClientOptions, ConfigCommand};
use crate::outcome::{Done, Failure};
use crate::settings::{self, StdinUse};

use super::Context;

/// Runs one `config` subcommand; none sends anything, so this is a plain function.
pub fn run(command: &ConfigCommand, cx: Context) -> Result<Done, Failure> {
    let reporter = cx.reporter;
    if let ConfigCommand::Show = command {
        // It sends nothing, so a URL that other commands refuse (plain http to another host)
        // is shown, with a warning, rather than refused.
        let options = ClientOptions {
            allow_insecure_http: true,
            ..cx.options.clone()
        };
        let settings = super::resolve_with(&options, cx, StdinUse::Free)?;
        if settings.launcher.sends_token_in_clear() {
            reporter.warning(settings::INSECURE_URL_WARNING);
        }
        reporter.config_show(&settings);
        return Ok(Done::Success);
    }
    let path = cx.config.file_path()?;
    let file_failure = |error: crate::config_file::ConfigError| {
        Failure::usage(error.to_string()).with_hint("fix or remove the file; nothing was changed")
    };
    // Only `--profile` picks the profile to edit, not SAFE_AD_PROFILE: a session's variable
    // says where its commands go, and must not turn a plain `config set` into a profile's.
    let profile = settings::profile_to_edit(cx.options)?;
    let profile = profile.as_deref();
    match command {
        ConfigCommand::Show => {}
        ConfigCommand::Path => reporter.config_path(&path),
        ConfigCommand::Set(args) => {
            let (setting, warning) =
                settings::config_setting(args.key, &args.value, &mut std::io::stdin().lock())?;
            if let Some(warning) = warning {
                reporter.warning(&warning);
            }
            settings::edit_config(&path, |config| match profile {
                Some(name) => config.profile_mut(name).set(setting),
                None => config.set(setting),
            })
            .map_err(file_failure)?;
            reporter.config_set(args.key, &path, profile);
        }
        ConfigCommand::Unset(args) => {
            let mut was_set = false;
            settings::edit_config(&path, |config| {
                // A profile the file lacks is not made just to hold nothing.
                was_set = match profile {
                    Some(name) if config.profile(name).is_none() => false,
                    Some(name) => config.profile_mut(name).unset(args.key),
                    None => config.unset(args.key),
                }
            })
            .map_err(file_failure)?;
            reporter.config_unset(args.key, &path, profile, was_set);
        }
    }
    Ok(Done::Success)
}
