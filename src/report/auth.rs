//! The words of `auth` and `config`: the token, its status, login and logout, and the settings
//! as `config show` and `config path` give them.

use super::*;
use crate::launcher::Permission;

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
            let mut object = json!({
                "launcher_url": shown_setting(json!(launcher.0), Some(launcher.1)),
                "token": match &token {
                    Some((masked, source)) => shown_setting(json!(masked), Some(source)),
                    None => shown_setting(Value::Null, None),
                },
                "status": answer.name(),
                "ok": failure.is_none(),
            });
            match failure {
                Some(failure) => add_error(&mut object, failure, &Values::default()),
                None => object["exit_code"] = json!(0),
            }
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
            self.print_json(&json!({
                "path": path.display().to_string(),
                "exists": path.exists(),
            }));
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
        let rows: Vec<(Key, Value, Option<&Source>)> = Key::ALL
            .iter()
            .map(|key| match key {
                Key::LauncherUrl => (
                    *key,
                    json!(settings.launcher.base()),
                    Some(&settings.launcher_source),
                ),
                Key::Token => match &settings.token {
                    Some((token, source)) => (*key, json!(token.mask()), Some(source)),
                    None => (*key, Value::Null, None),
                },
                Key::TimeoutSecs => (
                    *key,
                    json!(settings.timeout.as_secs_f64()),
                    Some(&settings.timeout_source),
                ),
                Key::ReadOnly => (
                    *key,
                    json!(settings.read_only.0),
                    Some(&settings.read_only.1),
                ),
            })
            .collect();
        let profile = match &settings.profile {
            Some(active) => (json!(active.name), Some(&active.source)),
            None => (Value::Null, None),
        };
        let exists = settings.config_path.as_ref().map(|path| path.exists());
        if self.json {
            let mut object = serde_json::Map::new();
            object.insert("profile".to_string(), shown_setting(profile.0, profile.1));
            for (key, value, source) in rows {
                object.insert(key.name().to_string(), shown_setting(value, source));
            }
            object.insert(
                "config_file".to_string(),
                json!({
                    "path": settings.config_path.as_ref().map(|path| path.display().to_string()),
                    "exists": exists.unwrap_or(false),
                }),
            );
            self.print_json(&Value::Object(object));
            return;
        }
        let mut text = match profile {
            (Value::String(name), Some(source)) => format!("{:<14}{name}  ({source})\n", "profile"),
            _ => format!("{:<14}none\n", "profile"),
        };
        for (key, value, source) in rows {
            let name = key.name();
            let value = match value {
                Value::String(text) => text,
                Value::Null => "none".to_string(),
                // Seconds as a person writes them: 12, 0.5.
                Value::Bool(on) => on.to_string(),
                Value::Number(number) => number
                    .as_f64()
                    .map_or(number.to_string(), |secs| secs.to_string()),
                other => other.to_string(),
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
fn shown_setting(value: Value, source: Option<&Source>) -> Value {
    let (kind, from) = match source {
        None => (Value::Null, Value::Null),
        Some(Source::Flag(flag)) => (json!("flag"), json!(flag)),
        Some(Source::TokenFile(path) | Source::TokenPipe(path)) => {
            (json!("token_file"), json!(path.display().to_string()))
        }
        Some(Source::Env(var)) => (json!("env"), json!(var)),
        Some(Source::ConfigFile(path)) => (json!("config_file"), json!(path.display().to_string())),
        Some(Source::Profile(name, _)) => (json!("profile"), json!(name)),
        Some(Source::Default) => (json!("default"), Value::Null),
        Some(Source::Stdin) => (json!("stdin"), Value::Null),
    };
    json!({ "value": value, "source": kind, "from": from })
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
