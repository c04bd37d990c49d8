//! The words of `auth` and `config`: the token, its status, login and logout, and the settings
//! as `config show` and `config path` give them.

use super::json::{
    AuthStatusJson, ConfigFileJson, ConfigPathJson, ConfigShowJson, Setting, SettingValue,
};
use super::results::error_json;
use super::*;
use crate::launcher::Permission;
use SettingValue::{Flag, Number, Text};

impl Reporter {
    /// `auth token`: the one place a token is printed.
    pub fn token(&self, token: &Secret) {
        self.out(&format!("{}\n", token.expose()));
    }

    /// `auth status`: where the launcher is, the token (masked) and where it came from, and
    /// what the launcher said of it; one JSON object with `--json`, nothing with `--quiet`.
    pub fn auth_status(
        &self,
        settings: &Settings,
        answer: StatusAnswer,
        failure: Option<&Failure>,
    ) {
        let launcher = (settings.launcher.base(), &settings.launcher_source);
        let token = settings
            .token
            .as_ref()
            .map(|(token, source)| (token.mask(), source));
        if self.json {
            let object = AuthStatusJson {
                launcher_url: shown_setting(Some(Text(launcher.0.to_string())), Some(launcher.1)),
                token: match &token {
                    Some((masked, source)) => {
                        shown_setting(Some(Text(masked.clone())), Some(source))
                    }
                    None => shown_setting(None, None),
                },
                status: answer.name(),
                ok: failure.is_none(),
                error: failure.map(|failure| error_json(failure, &Values::default())),
                exit_code: failure.map_or(0, Failure::exit_code),
            };
            self.print_json(&object);
            return;
        }
        if self.quiet {
            return;
        }
        let token = match token {
            Some((masked, source)) => format!("{masked} ({source})"),
            None => "none".to_string(),
        };
        let status = match answer {
            StatusAnswer::Accepted => "accepted by the launcher".to_string(),
            StatusAnswer::NotAccepted(class) => format!("not accepted ({})", class.name()),
            StatusAnswer::Unreachable => "launcher not reachable".to_string(),
            StatusAnswer::NoToken => "no token to check".to_string(),
        };
        self.out(&format!(
            "launcher  {} ({})\ntoken     {token}\nstatus    {status}\n",
            launcher.0, launcher.1
        ));
    }

    /// `auth login` without a terminal: what it is waiting for.
    pub fn login_waiting(&self, base: &str) {
        self.info(&login_waiting_text(base));
    }

    /// `auth login` on a terminal: a spinner with the same words, until the future is dropped.
    /// With `--quiet` nothing is drawn: the wait is no result, and errors still come.
    pub async fn login_spinner(&self, base: &str) -> std::convert::Infallible {
        if self.quiet {
            return std::future::pending().await;
        }
        spin(&login_waiting_text(base)).await
    }

    /// Erases the spinner's line (none was drawn with `--quiet`).
    pub fn clear_spinner(&self) {
        if self.quiet {
            return;
        }
        err("\r\x1b[2K");
    }

    /// `auth login`: where the token went (a profile's, under one).
    pub fn logged_in(&self, path: &Path, profile: Option<&str>) {
        let place = file_place(path, profile);
        self.info(&format!("logged in: token stored in {place}"));
    }

    pub fn granted_without(&self, permissions: &[Permission], needed: Permission) {
        let granted: Vec<&str> = permissions.iter().map(|p| p.name()).collect();
        self.warning(&format!(
            "the launcher granted {granted:?} without {}; saving and clearing will be refused (403)",
            needed.name()
        ));
    }

    pub fn token_source_still_wins(&self, source: &Source) {
        self.warning(&format!(
            "the token from {source} still wins over the stored one; unset or drop it to use the new token"
        ));
    }

    pub fn revoked(&self, base: &str) {
        self.info(&format!("revoked the token at {base}"));
    }

    pub fn token_already_gone(&self) {
        self.info("the launcher no longer accepted the token (already revoked, or it restarted)");
    }

    pub fn revoke_failed(&self, failure: &Failure) {
        self.warning(&format!(
            "could not revoke the token at the launcher: {}",
            failure.message
        ));
    }

    pub fn not_logged_in(&self) {
        self.info("not logged in: no token found, so there is nothing to revoke");
    }

    /// `auth logout`: the token taken out of the file (out of a profile, where it was one's).
    pub fn token_removed(&self, path: &Path, profile: Option<&str>) {
        let place = file_place(path, profile);
        self.info(&format!("removed the token from {place}"));
    }

    pub fn token_not_managed(&self, source: &Source) {
        self.info(&format!(
            "the token came from {source}, which safe-ad does not manage: remove it there"
        ));
    }

    /// `config path`: the path, or with `--json` the path and whether the file exists.
    pub fn config_path(&self, path: &Path) {
        if self.json {
            self.print_json(&ConfigPathJson {
                path: path.display().to_string(),
                exists: path.exists(),
            });
        } else {
            self.out(&format!("{}\n", path.display()));
        }
    }

    /// `config set`: done (in `profile`, if one).
    pub fn config_set(&self, key: Key, path: &Path, profile: Option<&str>) {
        let place = file_place(path, profile);
        self.info(&format!("set {} in {place}", key.name()));
    }

    /// `config unset`: done, or there was nothing to do.
    pub fn config_unset(&self, key: Key, path: &Path, profile: Option<&str>, was_set: bool) {
        let place = file_place(path, profile);
        if was_set {
            self.info(&format!("removed {} from {place}", key.name()));
        } else {
            self.info(&format!("{} was not set in {place}", key.name()));
        }
    }

    /// `config show`: every key's effective value and source, then the file; with `--json`
    /// one object keyed by the config file's keys.
    pub fn config_show(&self, settings: &Settings) {
        let rows: Vec<(Key, Option<SettingValue>, Option<&Source>)> = Key::ALL
            .iter()
            .map(|key| match key {
                Key::LauncherUrl => (
                    *key,
                    Some(Text(settings.launcher.base().to_string())),
                    Some(&settings.launcher_source),
                ),
                Key::Token => match &settings.token {
                    Some((token, source)) => (*key, Some(Text(token.mask())), Some(source)),
                    None => (*key, None, None),
                },
                Key::TimeoutSecs => (
                    *key,
                    Some(Number(settings.timeout.as_secs_f64())),
                    Some(&settings.timeout_source),
                ),
                Key::ReadOnly => (
                    *key,
                    Some(Flag(settings.read_only.0)),
                    Some(&settings.read_only.1),
                ),
            })
            .collect();
        let profile = match &settings.profile {
            Some(active) => (Some(Text(active.name.to_string())), Some(&active.source)),
            None => (None, None),
        };
        let exists = settings.config_path.as_ref().map(|path| path.exists());
        if self.json {
            let mut object = ConfigShowJson {
                profile: shown_setting(profile.0, profile.1),
                config_file: ConfigFileJson {
                    path: (settings.config_path.as_ref()).map(|path| path.display().to_string()),
                    exists: exists.unwrap_or(false),
                },
                ..ConfigShowJson::default()
            };
            for (key, value, source) in rows {
                let setting = shown_setting(value, source);
                match key {
                    Key::LauncherUrl => object.launcher_url = setting,
                    Key::Token => object.token = setting,
                    Key::TimeoutSecs => object.timeout_secs = setting,
                    Key::ReadOnly => object.read_only = setting,
                }
            }
            self.print_json(&object);
            return;
        }
        let mut text = match profile {
            (Some(Text(name)), Some(source)) => format!("{:<14}{name}  ({source})\n", "profile"),
            _ => format!("{:<14}none\n", "profile"),
        };
        for (key, value, source) in rows {
            let name = key.name();
            let value = match value {
                Some(Text(text)) => text,
                None => "none".to_string(),
                // Seconds as a person writes them: 12, 0.5.
                Some(Number(secs)) => secs.to_string(),
                Some(Flag(on)) => on.to_string(),
            };
            match source {
                Some(source) => text.push_str(&format!("{name:<14}{value}  ({source})\n")),
                None => text.push_str(&format!("{name:<14}{value}\n")),
            }
        }
        let file = match (&settings.config_path, exists) {
            (Some(path), Some(true)) => format!("{}  (exists)", path.display()),
            (Some(path), _) => format!("{}  (does not exist yet)", path.display()),
            (None, _) => "none (no home directory; set SAFE_AD_CONFIG_DIR)".to_string(),
        };
        text.push_str(&format!("{:<14}{file}\n", "config file"));
        self.out(&text);
    }
}

/// A setting as `config show --json` and `auth status --json` give it: its value, the kind
/// of place it came from, and which one (the flag, env var or file).
fn shown_setting(value: Option<SettingValue>, source: Option<&Source>) -> Setting {
    let (source, from) = match source {
        None => (None, None),
        Some(Source::Flag(flag)) => (Some("flag"), Some(flag.to_string())),
        Some(Source::TokenFile(path) | Source::TokenPipe(path)) => {
            (Some("token_file"), Some(path.display().to_string()))
        }
        Some(Source::Env(var)) => (Some("env"), Some(var.to_string())),
        Some(Source::ConfigFile(path)) => (Some("config_file"), Some(path.display().to_string())),
        Some(Source::Profile(name, _)) => (Some("profile"), Some(name.to_string())),
        Some(Source::Default) => (Some("default"), None),
        Some(Source::Stdin) => (Some("stdin"), None),
    };
    Setting {
        value,
        source,
        from,
    }
}

/// The config file, or a profile of it: `profile emu of /home/me/.config/safe-ad/config.json`.
fn file_place(path: &Path, profile: Option<&str>) -> String {
    match profile {
        Some(name) => format!("profile {name} of {}", path.display()),
        None => path.display().to_string(),
    }
}

fn login_waiting_text(base: &str) -> String {
    format!("waiting for approval in the launcher at {base} (Ctrl-C cancels)")
}
