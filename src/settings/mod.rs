//! The one place that turns the client options, env vars and the config file into checked
//! settings.
//!
//! Order for every setting: flag, then env var (each read through its row of `env`'s table),
//! then config file (the active profile's value,
//! then the top level's: `profile`), then default. Nothing else in
//! safe-ad reads env vars or files (the config file, a token file, standard input holding a
//! token or a config value); everything downstream takes a `Settings`, or the narrow
//! `LauncherConfig` made from it, and can trust it. It also checks what clap cannot: an option
//! typed at two levels of the command line or before a command that does not take it, the
//! values that come from the config file and env vars, and what standard input may hold. The
//! numeric bounds and parsers, which clap applies to the flags, are `values`'; the commands' own
//! arguments are checked in `args`. The token's own family (its sources, reading a token file,
//! the tokens kept out of what is printed) is in `token`; the profiles' in `profile`; the checked
//! values and edits of `config set` and `unset` in `edit`.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::{self, ClientOptions, ColorWhen};
use crate::config_file::{self, ConfigError, ConfigFile, Key};
use crate::jq;
use crate::launcher::{LauncherConfig, ProxyConfig};
use crate::outcome::{Class, Failure};
use crate::sanitize;
use crate::secret::Secret;
use crate::url::{parse_launcher_url, without_userinfo, LauncherUrl, DEFAULT_LAUNCHER_URL};
use crate::values::{
    self, DEFAULT_INTERRUPT_WAIT_SECS, DEFAULT_JOBS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_SECS,
    MAX_CONNECT_TIMEOUT, MAX_TIMEOUT_SECS,
};

mod edit;
mod env;
pub mod history;
mod profile;
mod token;

pub use edit::{config_setting, edit_config, profile_to_edit};
pub use env::{
    Environment, Reader, Spelling, ENV_CONFIG_DIR, ENV_INTERRUPT_WAIT, ENV_LAUNCHER_URL,
    ENV_PROFILE, ENV_TOKEN, ENV_VARS,
};
pub use profile::{check_profile, profile_name, refuse_read_only, Active as ActiveProfile};

use token::resolve_token;
pub use token::{known_tokens, token_file_rereadable, token_in_regular_file};

pub const CONFIG_FILE_NAME: &str = "config.json";

/// Said of a launcher URL with plain http to another host, where it is not refused yet.
pub const INSECURE_URL_WARNING: &str = "plain http to another host sends the token in clear text; safe-ad will refuse it unless --allow-insecure-http is given";

/// An env var's value as text, with its [`Source`]; one that is not UTF-8 is refused, with
/// `hint` on what to set it to.
fn env_text(name: &'static str, value: &OsStr, hint: &str) -> Result<(String, Source), Failure> {
    let text = value.to_str().ok_or_else(|| {
        Failure::usage(format!("{name} is not valid UTF-8")).with_hint(hint.to_owned())
    })?;
    Ok((text.to_owned(), Source::Env(name)))
}

/// Where a setting's value came from, for messages (never the value of a token).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Flag(&'static str),
    /// `--token-file PATH`, a regular file.
    TokenFile(PathBuf),
    /// `--token-file PATH` that can be read only once: a pipe (`<(...)`, a FIFO), a device.
    TokenPipe(PathBuf),
    Env(&'static str),
    ConfigFile(PathBuf),
    /// A profile (by name) of the config file (at the path).
    Profile(String, PathBuf),
    Default,
    Stdin,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Flag(flag) => write!(f, "{flag}"),
            Source::TokenFile(_) | Source::TokenPipe(_) => f.write_str("--token-file"),
            Source::Env(var) => write!(f, "env var {var}"),
            Source::ConfigFile(path) => write!(f, "config file {}", path.display()),
            Source::Profile(name, path) => {
                write!(f, "profile {name} in config file {}", path.display())
            }
            Source::Default => f.write_str("default"),
            Source::Stdin => f.write_str("--token-file - (standard input)"),
        }
    }
}

/// What a command reads from standard input besides a token, so it is not asked for two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StdinUse {
    /// Nothing else: `--token-file -` may have it.
    Free,
    /// Handles (`-` among them).
    Handles,
}

/// Everything a command needs, validated.
#[derive(Debug)]
pub struct Settings {
    pub launcher: LauncherUrl,
    pub launcher_source: Source,
    /// The token and where it came from; `None` when no source has one.
    pub token: Option<(Secret, Source)>,
    pub timeout: Duration,
    pub timeout_source: Source,
    /// The config file's profile the run uses, if one.
    pub profile: Option<ActiveProfile>,
    /// Whether the commands that change something are refused, and where that was said
    /// (`Default`: it was not).
    pub read_only: (bool, Source),
    pub connect_timeout: Duration,
    /// How long the first Ctrl-C waits for the work to give back what it holds.
    pub interrupt_wait: Duration,
    /// `config.json`'s path, whether or not the file exists; `None` without a home directory.
    pub config_path: Option<PathBuf>,
    pub jobs: usize,
    pub fail_fast: bool,
    pub retries: u8,
    pub dry_run: bool,
    pub curl: bool,
    pub verbose: bool,
    /// The proxy for a launcher on another host, from the environment.
    pub proxy: Option<ProxyConfig>,
    /// Things worth saying that do not stop the run (printed by the caller, on stderr).
    pub warnings: Vec<String>,
}

impl Settings {
    /// The token, or the "no token" failure that names every place one can come from.
    pub fn token(&self) -> Result<&Secret, Failure> {
        self.token_and_source().map(|(token, _)| token)
    }

    /// The token and where it came from, or the same failure as [`Settings::token`].
    pub fn token_and_source(&self) -> Result<(&Secret, &Source), Failure> {
        match &self.token {
            Some((token, source)) => Ok((token, source)),
            None => {
                Err(Failure::new(Class::Auth, "no token found").with_hint(self.no_token_hint()))
            }
        }
    }

    /// What to do without a token: where one goes; and where a background emulator of the
    /// user's runs, `safe-ad emulator env`, never `auth login` against the emulator (which would
    /// write its token into the config file).
    fn no_token_hint(&self) -> String {
        let emulators = background_emulators();
        let this_one =
            (emulators.iter()).find(|(_, url)| self.launcher.base().starts_with(url.as_str()));
        match this_one.or(emulators.first()) {
            // `auth login` against it would write its token into the config file.
            Some((pid, url)) if this_one.is_some() => format!(
                "{url} is a background emulator of yours (process {pid}): `eval \"$({})\"` gives this shell its token again",
                emulator_env(*pid)
            ),
            Some((pid, url)) => format!(
                "a background emulator of yours runs at {url} (process {pid}): `eval \"$({})\"` reaches it; for a launcher, run `safe-ad auth login`, or give a token with --token-file PATH, the env var {ENV_TOKEN}, or the \"token\" key in {}",
                emulator_env(*pid),
                display_path(&self.config_path)
            ),
            None => match &self.profile {
                // Under a profile, its own token is the one to give.
                Some(active) => format!(
                    "run `safe-ad auth login --profile {0}`, or give one with --token-file PATH, the env var {ENV_TOKEN}, \
or `safe-ad config set --profile {0} token - < FILE`",
                    active.name
                ),
                None => format!(
                    "run `safe-ad auth login`, or give one with --token-file PATH, the env var {ENV_TOKEN}, \
or the \"token\" key in {}",
                    display_path(&self.config_path)
                ),
            },
        }
    }

    /// Whether the timeout was asked for (flag or config file) rather than the default.
    pub fn timeout_is_explicit(&self) -> bool {
        self.timeout_source != Source::Default
    }

    /// What the HTTP module needs, and nothing more.
    pub fn launcher_config(&self) -> LauncherConfig {
        LauncherConfig {
            url: self.launcher.clone(),
            token: self.token.as_ref().map(|(token, _)| token.clone()),
            timeout: self.timeout,
            connect_timeout: self.connect_timeout,
            // A login waits for a person: only a timeout that was asked for bounds it.
            login_timeout: self.timeout_is_explicit().then_some(self.timeout),
            retries: self.retries,
            proxy: self.proxy.clone(),
            keep_headers: self.verbose,
        }
    }
}

/// The client options given at each level of the command line (before the subcommand, after
/// it), as one set, for the command at `path` (`"auth status"`). An option typed before the
/// subcommand that the command does not take is refused, as clap refuses it typed after; a
/// valued option given at two levels is refused as clap refuses it given twice at one; the
/// flags add up.
pub fn merge_options(path: &str, levels: &[ClientOptions]) -> Result<ClientOptions, Failure> {
    let takes = cli::options_of(path);
    if let Some(top) = levels.first() {
        if let Some(opt) = top.given().into_iter().find(|opt| !takes.contains(*opt)) {
            let owners: Vec<String> = cli::taking(opt).into_iter().map(String::from).collect();
            return Err(not_taken(&opt.long(), path, &owners));
        }
    }
    let mut merged = ClientOptions::merged(levels).map_err(|opt| {
        // The name as clap writes it in its own errors: `--timeout <SECS>`.
        let arg = opt.arg();
        let values: Vec<String> = arg
            .get_value_names()
            .unwrap_or_default()
            .iter()
            .map(|name| format!(" <{name}>"))
            .collect();
        Failure::usage(format!(
            "the argument '{}{}' cannot be used multiple times",
            opt.long(),
            values.concat()
        ))
        .with_hint("give it once, before or after the subcommand")
    })?;
    // `--jq` implies `--json`, and excludes what `--json` excludes, by its own name.
    let json = match merged.jq.is_some() {
        true => "--jq",
        false => "--json",
    };
    merged.json |= merged.jq.is_some();
    for (on, first, second) in [
        (merged.dry_run && merged.curl, "--dry-run", "--curl"),
        (merged.dry_run && merged.json, "--dry-run", json),
        (merged.curl && merged.json, "--curl", json),
    ] {
        if on {
            return Err(Failure::usage(format!(
                "the argument '{first}' cannot be used with '{second}'"
            ))
            .with_hint("--dry-run and --curl print requests instead of sending them; --json describes requests that were sent"));
        }
    }
    Ok(merged)
}

/// The `--jq` expression of a run, compiled as its arguments are read, so that a bad one is
/// refused (exit 2) before anything is sent; `None` without `--jq`.
pub fn jq_filter(options: &ClientOptions) -> Result<Option<jq::Filter>, Failure> {
    let Some(expression) = options.jq.as_deref() else {
        return Ok(None);
    };
    jq::Filter::compile(expression).map(Some).map_err(|said| {
        Failure::usage(format!(
            "--jq '{}' is no filter jaq can run: {said}",
            sanitize::line(expression.as_bytes(), 200)
        ))
        .with_hint(
            "give a jq filter, quoted for the shell, such as --jq .version or --jq '.data[] | .index'; \
             --json alone prints the objects it is run over",
        )
    })
}

/// The refusal of an option (`--jobs`) typed for a command (`config show`, or `""` for none)
/// that does not take it; `owners` are the commands that do, in the table's order.
pub fn not_taken(long: &str, path: &str, owners: &[String]) -> Failure {
    let command = if path.is_empty() {
        "safe-ad".to_string()
    } else {
        format!("safe-ad {path}")
    };
    let quoted: Vec<String> = owners
        .iter()
        .map(|owner| format!("`safe-ad {owner}`"))
        .collect();
    let taken_by = match quoted.as_slice() {
        [] => String::new(),
        [only] => format!(": it is an option of {only}"),
        [first @ .., last] if quoted.len() <= 4 => {
            format!(": it is an option of {} and {last}", first.join(", "))
        }
        many => format!(
            ": it is an option of {} and {} other commands",
            many[..3].join(", "),
            many.len() - 3
        ),
    };
    Failure::usage(format!("`{command}` does not take {long}{taken_by}"))
        .with_hint(format!("`{command} --help` lists the options it takes"))
}

/// Whether to colour stderr: `--color` if given, else `NO_COLOR` (never) or `CLICOLOR_FORCE`
/// (always), else `auto` (on a terminal, which the reporter asks).
pub fn colour_choice(flag: Option<ColorWhen>, env: &Environment) -> ColorWhen {
    match flag {
        Some(choice) => choice,
        None if env.no_color => ColorWhen::Never,
        None if env.clicolor_force => ColorWhen::Always,
        None => ColorWhen::Auto,
    }
}

/// The config file as read once at the start of a run: where it is, and what it held or why it
/// could not be used. Read once, so the token kept out of what is printed before the arguments
/// are checked ([`known_tokens`]) is the token the command then uses ([`resolve`]).
pub struct ConfigRead {
    path: Result<Option<PathBuf>, Failure>,
    file: Option<Result<ConfigFile, ConfigError>>,
}

impl ConfigRead {
    pub fn read(env: &Environment) -> ConfigRead {
        let path = config_path(env);
        let file = path
            .as_ref()
            .ok()
            .and_then(Option::as_deref)
            .map(config_file::load);
        ConfigRead { path, file }
    }

    /// The config file's path for the commands that only edit it (`config path`, `set`,
    /// `unset`), which have nothing to do without one.
    pub fn file_path(&self) -> Result<PathBuf, Failure> {
        self.path.clone()?.ok_or_else(|| {
            Failure::usage("there is no config directory (no home directory)")
                .with_hint(format!("set {ENV_CONFIG_DIR} to a directory"))
        })
    }
}

/// Resolves the settings of a command from its merged options and the config file as the run
/// read it at its start. `stdin` is read only for `--token-file -`.
pub fn resolve(
    args: &ClientOptions,
    env: &Environment,
    read: &ConfigRead,
    stdin: &mut dyn Read,
    stdin_use: StdinUse,
) -> Result<Settings, Failure> {
    if stdin_use == StdinUse::Handles && args.token_file.as_deref() == Some(Path::new("-")) {
        return Err(Failure::usage(
            "standard input cannot hold both the token (--token-file -) and the handles (-)",
        )
        .with_hint("give the token with --token-file PATH or SAFE_LAUNCHER_TOKEN"));
    }
    let config_path = read.path.clone()?;
    let none = ConfigFile::default();
    let config = match &read.file {
        Some(Ok(file)) => file,
        Some(Err(e)) => {
            return Err(Failure::usage(e.to_string()).with_hint(format!(
                "fix or remove the file; it may hold only the keys {}, and `{}` of them by name",
                Key::names(),
                config_file::PROFILES
            )))
        }
        None => &none,
    };
    let active = profile::chosen(args, env)?;
    let layered = profile::Layered::new(config, active.as_ref(), &config_path)?;
    let mut warnings = Vec::new();
    let holds_token = config.tokens().next().is_some();
    if let (Some(path), Some(mode), true) = (&config_path, config.mode, holds_token) {
        if mode & 0o077 != 0 {
            warnings.push(format!(
                "config file {} holds a token and can be read by other users (mode {:o}); run: chmod 600 {}",
                path.display(),
                mode & 0o777,
                path.display()
            ));
        }
    }

    let (launcher, launcher_source) = resolve_launcher(args, env, &layered)?;
    if launcher.sends_token_in_clear() && !args.allow_insecure_http {
        return Err(Failure::usage(format!(
            "refusing to send the token in clear text over plain http to {} (from {launcher_source})",
            launcher.base()
        ))
        .with_hint(
            "use an https URL, or pass --allow-insecure-http if the network to that host is trusted",
        ));
    }

    let (timeout_secs, timeout_source) =
        match (args.timeout, layered.get(|config| config.timeout_secs)) {
            (Some(secs), _) => (secs, Source::Flag("--timeout")),
            (None, Some((secs, source))) => {
                values::check_timeout(secs)
                    .map_err(|why| Failure::usage(format!("{source}: timeout_secs {why}")))?;
                (secs, source)
            }
            (None, None) => (DEFAULT_TIMEOUT_SECS, Source::Default),
        };
    let read_only = layered
        .get(|config| config.read_only)
        .unwrap_or((false, Source::Default));
    let timeout = Duration::from_secs_f64(timeout_secs);
    let interrupt_wait = Duration::from_secs_f64(match &env.interrupt_wait {
        None => DEFAULT_INTERRUPT_WAIT_SECS,
        Some(raw) => raw
            .to_str()
            .ok_or_else(|| "is not UTF-8".to_owned())
            .and_then(values::parse_interrupt_wait)
            .map_err(|why| {
                Failure::usage(format!("env var {ENV_INTERRUPT_WAIT}: {why}")).with_hint(format!(
                    "give it seconds (0 leaves at the first Ctrl-C, at most {MAX_TIMEOUT_SECS}), or unset it for the default of {DEFAULT_INTERRUPT_WAIT_SECS}"
                ))
            })?,
    });

    let token = resolve_token(args, env, &layered, stdin)?;
    let proxy = choose_proxy(&launcher, env);

    Ok(Settings {
        launcher,
        launcher_source,
        token,
        timeout,
        timeout_source,
        profile: active,
        read_only,
        connect_timeout: timeout.min(MAX_CONNECT_TIMEOUT),
        interrupt_wait,
        config_path,
        jobs: usize::from(args.jobs.unwrap_or(DEFAULT_JOBS).max(1)),
        fail_fast: args.fail_fast,
        retries: args.retries.unwrap_or(DEFAULT_RETRIES),
        dry_run: args.dry_run,
        curl: args.curl,
        verbose: args.verbose,
        proxy,
        warnings,
    })
}

/// The proxy for the launcher's scheme, as curl picks it: `HTTPS_PROXY` or `HTTP_PROXY`, else
/// `ALL_PROXY`, with `NO_PROXY`'s exceptions; none for a loopback launcher, so no proxy ever
/// sees the token meant for the local launcher. Unset, empty or non-UTF-8 values count as unset.
fn choose_proxy(launcher: &LauncherUrl, env: &Environment) -> Option<ProxyConfig> {
    if launcher.is_loopback() {
        return None;
    }
    let text = |value: &Option<OsString>| {
        value
            .as_ref()
            .and_then(|v| v.to_str())
            .filter(|v| !v.trim().is_empty())
            .map(str::to_string)
    };
    let for_scheme = if launcher.is_https() {
        text(&env.https_proxy)
    } else if env.cgi {
        None
    } else {
        text(&env.http_proxy)
    };
    let url = for_scheme.or_else(|| text(&env.all_proxy))?;
    Some(ProxyConfig {
        url,
        no_proxy: text(&env.no_proxy),
    })
}

/// The command that prints background emulator `pid`'s variables: `--pid` where several run.
pub fn emulator_env(pid: u32) -> String {
    match background_emulators().len() {
        0 | 1 => "safe-ad emulator env".to_owned(),
        _ => format!("safe-ad emulator env --pid {pid}"),
    }
}

/// The user's background emulators that run, as (process id, URL), looked up once a run (the
/// emulator's run directories in the temporary directory): the hints for "no token", a
/// rejected token and a refused connection name `safe-ad emulator env` when one runs.
pub fn background_emulators() -> &'static [(u32, String)] {
    static FOUND: std::sync::OnceLock<Vec<(u32, String)>> = std::sync::OnceLock::new();
    FOUND.get_or_init(|| {
        #[cfg(feature = "emulator")]
        let found = safe_ad_emulator::background_emulators();
        #[cfg(not(feature = "emulator"))]
        let found = Vec::new();
        found
    })
}

/// `config.json` in `SAFE_AD_CONFIG_DIR`, else in the platform's config directory.
fn config_path(env: &Environment) -> Result<Option<PathBuf>, Failure> {
    if let Some(dir) = &env.config_dir {
        if dir.is_empty() {
            return Err(Failure::usage(format!("{ENV_CONFIG_DIR} is set but empty"))
                .with_hint("set it to a directory, or unset it to use the default"));
        }
        return Ok(Some(Path::new(dir).join(CONFIG_FILE_NAME)));
    }
    Ok(directories::ProjectDirs::from("", "", "safe-ad")
        .map(|dirs| dirs.config_dir().join(CONFIG_FILE_NAME)))
}

fn display_path(path: &Option<PathBuf>) -> String {
    match path {
        Some(path) => path.display().to_string(),
        None => format!("(none: no home directory; set {ENV_CONFIG_DIR})"),
    }
}

fn resolve_launcher(
    args: &ClientOptions,
    env: &Environment,
    config: &profile::Layered,
) -> Result<(LauncherUrl, Source), Failure> {
    let (raw, source) = if let Some(url) = &args.launcher_url {
        (url.clone(), Source::Flag("--launcher-url"))
    } else if let Some(url) = &env.launcher_url {
        env_text(
            ENV_LAUNCHER_URL,
            url,
            "set it to a URL like http://localhost:8100",
        )?
    } else if let Some(found) = config.get(|config| config.launcher_url.clone()) {
        found
    } else {
        (DEFAULT_LAUNCHER_URL.to_string(), Source::Default)
    };
    let url = parse_launcher_url(&raw).map_err(|why| {
        Failure::usage(format!(
            "invalid launcher URL '{}' (from {source}): {why}",
            sanitize::line(without_userinfo(&raw).as_bytes(), 200)
        ))
        .with_hint("use a URL like http://localhost:8100 or http://127.0.0.1:8100/0.6")
    })?;
    Ok((url, source))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn remote(https: bool) -> LauncherUrl {
        let scheme = if https { "https" } else { "http" };
        parse_launcher_url(&format!("{scheme}://launcher.example:8100")).unwrap()
    }

    #[test]
    fn proxy_follows_the_scheme_and_never_serves_loopback() {
        let env = Environment {
            http_proxy: Some("http://p-http:1".into()),
            https_proxy: Some("http://p-https:1".into()),
            all_proxy: Some("http://p-all:1".into()),
            no_proxy: Some("internal".into()),
            ..Environment::default()
        };
        let chosen = |url: &LauncherUrl, env: &Environment| choose_proxy(url, env).map(|p| p.url);
        assert_eq!(
            chosen(&remote(false), &env).as_deref(),
            Some("http://p-http:1")
        );
        assert_eq!(
            chosen(&remote(true), &env).as_deref(),
            Some("http://p-https:1")
        );
        assert_eq!(
            choose_proxy(&remote(true), &env)
                .unwrap()
                .no_proxy
                .as_deref(),
            Some("internal")
        );
        let local = parse_launcher_url("http://127.0.0.1:8100").unwrap();
        assert_eq!(chosen(&local, &env), None);
        let only_all = Environment {
            all_proxy: Some("http://p-all:1".into()),
            http_proxy: Some("".into()),
            ..Environment::default()
        };
        assert_eq!(
            chosen(&remote(false), &only_all).as_deref(),
            Some("http://p-all:1")
        );
        let cgi = Environment {
            http_proxy: Some("http://from-a-header:1".into()),
            cgi: true,
            ..Environment::default()
        };
        assert_eq!(chosen(&remote(false), &cgi), None);
    }

    #[test]
    fn options_merge_across_levels() {
        let top = ClientOptions {
            quiet: true,
            timeout: Some(5.0),
            ..ClientOptions::default()
        };
        let inner = ClientOptions {
            jobs: Some(2),
            ..ClientOptions::default()
        };
        let merged = merge_options("put", &[top.clone(), inner]).unwrap();
        assert!(merged.quiet);
        assert_eq!((merged.timeout, merged.jobs), (Some(5.0), Some(2)));
        let twice = merge_options("put", &[top.clone(), top.clone()]).unwrap_err();
        assert!(twice
            .message
            .contains("'--timeout <SECS>' cannot be used multiple times"));
        let clash = ClientOptions {
            json: true,
            ..ClientOptions::default()
        };
        let dry = ClientOptions {
            dry_run: true,
            ..ClientOptions::default()
        };
        assert!(merge_options("put", &[clash, dry])
            .unwrap_err()
            .message
            .contains("'--dry-run' cannot be used with '--json'"));
        let jobs = ClientOptions {
            jobs: Some(4),
            ..ClientOptions::default()
        };
        let refused = merge_options("config show", &[jobs, ClientOptions::default()]).unwrap_err();
        assert_eq!(
            refused.message,
            "`safe-ad config show` does not take --jobs: it is an option of `safe-ad put`, \
`safe-ad post`, `safe-ad clear-data` and 7 other commands"
        );
        assert_eq!(
            refused.hint.map(|hint| hint.words(None, None)).as_deref(),
            Some("`safe-ad config show --help` lists the options it takes")
        );
    }
}
