//! The objects of `auth status`, `config show` and `config path`: where each setting comes from,
//! and the config file.

use serde::Serialize;

use super::{ErrorJson, Row, Table};

/// A setting: its value, the kind of place it came from, and which one (the flag, env var,
/// file or profile).
#[derive(Debug, Default, Serialize)]
pub struct Setting {
    pub value: Option<SettingValue>,
    pub source: Option<&'static str>,
    pub from: Option<String>,
}

/// A setting's value: text (a URL, the masked token, a profile's name), seconds, or on/off.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum SettingValue {
    Text(String),
    Number(f64),
    Flag(bool),
}

json_object! {
    /// `auth status`.
    #[derive(Debug, Default, Serialize)]
    pub struct AuthStatusJson {
        launcher_url: Setting,
        token: Setting,
        status: &'static str,
        ok: bool,
        error?: ErrorJson,
        exit_code: u8,
    }
}

/// `config show`: every setting, keyed by the config file's keys, and the file.
#[derive(Debug, Default, Serialize)]
pub struct ConfigShowJson {
    pub profile: Setting,
    pub launcher_url: Setting,
    pub token: Setting,
    pub timeout_secs: Setting,
    pub read_only: Setting,
    pub config_file: ConfigFileJson,
}

/// `config show`'s config file: its path (null without a home directory) and whether it exists.
#[derive(Debug, Default, Serialize)]
pub struct ConfigFileJson {
    pub path: Option<String>,
    pub exists: bool,
}

/// `config path`.
#[derive(Debug, Default, Serialize)]
pub struct ConfigPathJson {
    pub path: String,
    pub exists: bool,
}

key_table! {
    SETTINGS_TABLE = "settings" of [AuthStatusJson, ConfigShowJson, ConfigPathJson]
    Row(&["launcher_url", "token", "timeout_secs"], "object", "a setting: `value` (the token masked, or null when there is none), `source` (`flag`, `token_file`, `stdin`, `env`, `config_file`, `profile`, `default`, or null), `from` (the flag, file, env var or profile's name, or null)"),
    Row(&["read_only", "profile"], "object", "`config show`: whether changes are refused, and the profile in use (`value` its name or null; `source` `flag` or `env`; `from` the flag or env var), as a setting"),
    Row(&["status"], "string", "`auth status`: `accepted`, `not_accepted`, `unreachable` or `no_token`"),
    Row(&["ok", "error", "exit_code"], "bool, object, number", "`auth status`: as in a result (docs/output.md)"),
    Row(&["config_file"], "object", "`config show`: `path` (null without a home directory) and whether it `exists`"),
    Row(&["path", "exists"], "string, bool", "`config path`"),
}
