//! The config file's edits: the value `config set` takes for a key, checked as a run would
//! check it (standard input read for `-`, the token taken only that way), the profile an edit
//! goes to (`--profile`), and the atomic rewrite of the file.

use std::io::Read;
use std::path::Path;

use crate::cli::ClientOptions;
use crate::config_file::{self, ConfigError, ConfigFile, Key, Setting};
use crate::outcome::Failure;
use crate::secret::Secret;
use crate::url::parse_launcher_url;
use crate::values;

use super::INSECURE_URL_WARNING;

/// A config value on standard input is one line; the same bound as a token file.
const MAX_VALUE_BYTES: u64 = 64 * 1024;

/// The profile `config set` and `config unset` edit: the one `--profile` names, checked as a
/// profile's name; `None` for the file's top level.
pub fn profile_to_edit(options: &ClientOptions) -> Result<Option<String>, Failure> {
    match &options.profile {
        None => Ok(None),
        Some(name) => match config_file::profile_name_problem(name) {
            Some(problem) => Err(Failure::usage(format!("{problem} (from --profile)"))),
            None => Ok(Some(name.clone())),
        },
    }
}

/// Loads the config file, changes it and writes it back atomically (mode 0600).
pub fn edit_config(path: &Path, change: impl FnOnce(&mut ConfigFile)) -> Result<(), ConfigError> {
    config_file::update(path, change)
}

/// A value for `config set`, checked as a run would check it: `-` reads it from standard
/// input, and the token is taken only that way. Also returns a warning worth printing.
pub fn config_setting(
    key: Key,
    raw: &str,
    stdin: &mut dyn Read,
) -> Result<(Setting, Option<String>), Failure> {
    let value = if raw == "-" {
        read_value(stdin)?
    } else if key == Key::Token {
        return Err(Failure::usage(
            "refusing to take the token as an argument: it would show in process lists and shell history",
        )
        .with_hint("pipe it in: safe-ad config set token - < FILE (or run `safe-ad auth login`)"));
    } else {
        raw.to_string()
    };
    let invalid = |why: String| {
        Failure::usage(format!("invalid value for {}: {why}", key.name()))
            .with_hint("nothing was changed; `safe-ad config set --help` shows examples")
    };
    Ok(match key {
        Key::LauncherUrl => {
            let url = parse_launcher_url(&value).map_err(invalid)?;
            let warning = url
                .sends_token_in_clear()
                .then(|| INSECURE_URL_WARNING.to_string());
            (Setting::LauncherUrl(url.base().to_string()), warning)
        }
        Key::TimeoutSecs => (
            Setting::TimeoutSecs(values::parse_timeout(&value).map_err(invalid)?),
            None,
        ),
        Key::ReadOnly => match value.trim() {
            "true" => (Setting::ReadOnly(true), None),
            "false" => (Setting::ReadOnly(false), None),
            _ => return Err(invalid("give true or false".into())),
        },
        Key::Token => (
            Setting::Token(
                Secret::parse(&value).map_err(|problem| invalid(problem.describe().into()))?,
            ),
            None,
        ),
    })
}

fn read_value(stdin: &mut dyn Read) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    stdin
        .take(MAX_VALUE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::usage(format!("cannot read the value from standard input: {e}")))?;
    if bytes.len() as u64 > MAX_VALUE_BYTES {
        return Err(Failure::usage(
            "the value on standard input is larger than 64 KiB",
        ));
    }
    String::from_utf8(bytes).map_err(|_| Failure::usage("the value on standard input is not text"))
}
