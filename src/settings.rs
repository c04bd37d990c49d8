//! The one place that turns flags, env vars and the config file into checked settings.
//!
//! Order for every setting: flag, then env var, then config file, then default. Nothing else in
//! safe-ad reads env vars or files; everything downstream takes a `Settings` and can trust it.

use std::ffi::OsString;
use std::io::Read;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use reqwest::Url;

use crate::cli::{GlobalArgs, DEFAULT_LAUNCHER_URL};
use crate::config_file::{self, ConfigFile};
use crate::outcome::{Class, Failure};
use crate::sanitize;
use crate::secret::Secret;

pub const ENV_LAUNCHER_URL: &str = "SAFE_LAUNCHER_URL";
pub const ENV_TOKEN: &str = "SAFE_LAUNCHER_TOKEN";
pub const ENV_CONFIG_DIR: &str = "SAFE_AD_CONFIG_DIR";
pub const CONFIG_FILE_NAME: &str = "config.json";

const DEFAULT_TIMEOUT_SECS: f64 = 30.0;
const MAX_TIMEOUT_SECS: f64 = 86_400.0;
/// Connecting gets its own, shorter bound: a launcher that is up accepts at once.
const MAX_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// A token file holds one token; a bigger file is a mistake (a binary, a log).
const MAX_TOKEN_FILE_BYTES: u64 = 64 * 1024;

/// The env vars safe-ad reads, captured once so the rest of the resolution is pure.
#[derive(Default, Clone)]
pub struct Environment {
    pub launcher_url: Option<OsString>,
    pub token: Option<OsString>,
    pub config_dir: Option<OsString>,
}

impl Environment {
    pub fn from_process() -> Environment {
        Environment {
            launcher_url: std::env::var_os(ENV_LAUNCHER_URL),
            token: std::env::var_os(ENV_TOKEN),
            config_dir: std::env::var_os(ENV_CONFIG_DIR),
        }
    }
}

/// Where a setting's value came from, for messages (never the value of a token).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Flag(&'static str),
    Env(&'static str),
    ConfigFile(PathBuf),
    Default,
    Stdin,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Flag(flag) => write!(f, "{flag}"),
            Source::Env(var) => write!(f, "env var {var}"),
            Source::ConfigFile(path) => write!(f, "config file {}", path.display()),
            Source::Default => f.write_str("default"),
            Source::Stdin => f.write_str("--token-file - (standard input)"),
        }
    }
}

/// The launcher's base URL, checked: http(s), a host, no credentials, no trailing slash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LauncherUrl {
    base: String,
    loopback: bool,
}

impl LauncherUrl {
    /// The base, path prefix included, without a trailing slash; routes are appended to it.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Whether the host is this machine (localhost, 127.0.0.0/8, ::1).
    pub fn is_loopback(&self) -> bool {
        self.loopback
    }
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
    pub connect_timeout: Duration,
    /// `config.json`'s path, whether or not the file exists; `None` without a home directory.
    pub config_path: Option<PathBuf>,
    pub quiet: bool,
    pub json: bool,
    pub jobs: usize,
    pub fail_fast: bool,
    pub retries: u8,
    pub dry_run: bool,
    pub curl: bool,
    pub verbose: bool,
    /// Things worth saying that do not stop the run (printed by the caller, on stderr).
    pub warnings: Vec<String>,
}

impl Settings {
    /// The token, or the "no token" failure that names every place one can come from.
    pub fn token(&self) -> Result<&Secret, Failure> {
        match &self.token {
            Some((token, _)) => Ok(token),
            None => Err(
                Failure::new(Class::Auth, "no token found").with_hint(format!(
                    "run `safe-ad auth login`, or give one with --token-file PATH, the env var {ENV_TOKEN}, \
or the \"token\" key in {}",
                    display_path(&self.config_path)
                )),
            ),
        }
    }

    /// Whether the timeout was asked for (flag or config file) rather than the default.
    pub fn timeout_is_explicit(&self) -> bool {
        self.timeout_source != Source::Default
    }
}

/// Resolves the settings of a command. `stdin` is read only for `--token-file -`.
pub fn resolve(
    args: &GlobalArgs,
    env: &Environment,
    stdin: &mut dyn Read,
) -> Result<Settings, Failure> {
    let config_path = config_path(env)?;
    let config = match &config_path {
        Some(path) => config_file::load(path).map_err(|e| {
            Failure::usage(e.to_string()).with_hint(format!(
                "fix or remove the file; it may hold only the keys {}",
                config_file::KEYS.join(", ")
            ))
        })?,
        None => ConfigFile::default(),
    };
    let mut warnings = Vec::new();
    if let (Some(path), Some(mode), Some(_)) = (&config_path, config.mode, &config.token) {
        if mode & 0o077 != 0 {
            warnings.push(format!(
                "config file {} holds a token and can be read by other users (mode {:o}); run: chmod 600 {}",
                path.display(),
                mode & 0o777,
                path.display()
            ));
        }
    }

    let (launcher, launcher_source) = resolve_launcher(args, env, &config, &config_path)?;
    if !launcher.loopback && launcher.base.starts_with("http:") && !args.allow_insecure_http {
        return Err(Failure::usage(format!(
            "refusing to send the token in clear text over plain http to {} (from {launcher_source})",
            launcher.base
        ))
        .with_hint(
            "use an https URL, or pass --allow-insecure-http if the network to that host is trusted",
        ));
    }

    let (timeout_secs, timeout_source) = match (args.timeout, config.timeout_secs) {
        (Some(secs), _) => (secs, Source::Flag("--timeout")),
        (None, Some(secs)) => {
            check_timeout(secs).map_err(|why| {
                Failure::usage(format!(
                    "config file {}: timeout_secs {why}",
                    display_path(&config_path)
                ))
            })?;
            let path = config_path.clone().unwrap_or_default();
            (secs, Source::ConfigFile(path))
        }
        (None, None) => (DEFAULT_TIMEOUT_SECS, Source::Default),
    };
    let timeout = Duration::from_secs_f64(timeout_secs);

    let token = resolve_token(args, env, &config, &config_path, stdin)?;

    Ok(Settings {
        launcher,
        launcher_source,
        token,
        timeout,
        timeout_source,
        connect_timeout: timeout.min(MAX_CONNECT_TIMEOUT),
        config_path,
        quiet: args.quiet,
        json: args.json,
        jobs: usize::from(args.jobs.max(1)),
        fail_fast: args.fail_fast,
        retries: args.retries,
        dry_run: args.dry_run,
        curl: args.curl,
        verbose: args.verbose,
        warnings,
    })
}

/// `config.json` in `SAFE_AD_CONFIG_DIR`, else in the platform's config directory.
pub fn config_path(env: &Environment) -> Result<Option<PathBuf>, Failure> {
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
    args: &GlobalArgs,
    env: &Environment,
    config: &ConfigFile,
    config_path: &Option<PathBuf>,
) -> Result<(LauncherUrl, Source), Failure> {
    let (raw, source) = if let Some(url) = &args.launcher_url {
        (url.clone(), Source::Flag("--launcher-url"))
    } else if let Some(url) = &env.launcher_url {
        let url = url.to_str().ok_or_else(|| {
            Failure::usage(format!("{ENV_LAUNCHER_URL} is not valid UTF-8"))
                .with_hint("set it to a URL like http://localhost:8100")
        })?;
        (url.to_string(), Source::Env(ENV_LAUNCHER_URL))
    } else if let (Some(url), Some(path)) = (&config.launcher_url, config_path) {
        (url.clone(), Source::ConfigFile(path.clone()))
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

/// The URL as typed, with any `user:password@` part masked: people do paste tokens there.
fn without_userinfo(raw: &str) -> String {
    let Some(scheme_end) = raw.find("://").map(|at| at + 3) else {
        return raw.to_string();
    };
    let authority_end = raw[scheme_end..]
        .find(['/', '?', '#'])
        .map_or(raw.len(), |at| scheme_end + at);
    match raw[scheme_end..authority_end].rfind('@') {
        Some(at) => format!("{}***{}", &raw[..scheme_end], &raw[scheme_end + at..]),
        None => raw.to_string(),
    }
}

/// Checks a launcher URL and brings it to the form routes are appended to.
pub fn parse_launcher_url(raw: &str) -> Result<LauncherUrl, String> {
    if raw.is_empty() {
        return Err("it is empty".into());
    }
    if raw.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("it contains spaces or control characters".into());
    }
    // `localhost:8100` parses as scheme "localhost"; say what the user most likely meant.
    let Some((_, after_scheme)) = raw.split_once("://") else {
        return Err("it has no scheme; start it with http:// or https://".into());
    };
    // `http:///host` would be read as `http://host`: a typo is not a host.
    if after_scheme.is_empty() || after_scheme.starts_with(['/', '\\', '?', '#']) {
        return Err("it has no host".into());
    }
    let url = Url::parse(raw).map_err(|e| match e {
        url::ParseError::RelativeUrlWithoutBase => {
            "it has no scheme; start it with http:// or https://".to_string()
        }
        other => other.to_string(),
    })?;
    match url.scheme() {
        "http" | "https" => {}
        scheme => {
            return Err(format!(
                "the scheme is '{scheme}'; only http:// and https:// are supported"
            ))
        }
    }
    let loopback = match url.host() {
        None => return Err("it has no host".into()),
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.');
            name.eq_ignore_ascii_case("localhost")
        }
        Some(url::Host::Ipv4(ip)) => is_loopback_v4(ip),
        Some(url::Host::Ipv6(ip)) => is_loopback_v6(ip),
    };
    if !url.username().is_empty() || url.password().is_some() {
        return Err(
            "it contains a user name or password; the token is the only credential sent".into(),
        );
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err("it has a query (?...) or fragment (#...); give only scheme, host, port and path prefix".into());
    }
    let base = url.as_str().trim_end_matches('/').to_string();
    Ok(LauncherUrl { base, loopback })
}

fn is_loopback_v4(ip: Ipv4Addr) -> bool {
    ip.is_loopback()
}

fn is_loopback_v6(ip: Ipv6Addr) -> bool {
    ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(is_loopback_v4)
}

fn resolve_token(
    args: &GlobalArgs,
    env: &Environment,
    config: &ConfigFile,
    config_path: &Option<PathBuf>,
    stdin: &mut dyn Read,
) -> Result<Option<(Secret, Source)>, Failure> {
    let (raw, source) = if let Some(path) = &args.token_file {
        if path.as_os_str() == "-" {
            (read_token_text(stdin, "standard input")?, Source::Stdin)
        } else {
            (read_token_file(path)?, Source::Flag("--token-file"))
        }
    } else if let Some(token) = &env.token {
        let token = token.to_str().ok_or_else(|| {
            Failure::usage(format!("{ENV_TOKEN} is not valid UTF-8"))
                .with_hint("a token is plain ASCII text")
        })?;
        (token.to_string(), Source::Env(ENV_TOKEN))
    } else if let (Some(token), Some(path)) = (&config.token, config_path) {
        (token.clone(), Source::ConfigFile(path.clone()))
    } else {
        return Ok(None);
    };
    let token = Secret::parse(&raw).map_err(|problem| {
        Failure::usage(format!("{} (from {source})", problem.describe())).with_hint(
            "a token is one line of printable ASCII text with no spaces; check what was pasted",
        )
    })?;
    Ok(Some((token, source)))
}

fn read_token_file(path: &Path) -> Result<String, Failure> {
    let fail = |why: String| {
        Failure::usage(format!("cannot read token file {}: {why}", path.display()))
            .with_hint("check the path given to --token-file")
    };
    let metadata = std::fs::metadata(path).map_err(|e| fail(io_reason(&e)))?;
    if metadata.is_dir() {
        return Err(fail("it is a directory".into()));
    }
    let file = std::fs::File::open(path).map_err(|e| fail(io_reason(&e)))?;
    read_token_text(file, &path.display().to_string())
}

fn read_token_text(input: impl Read, name: &str) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    input
        .take(MAX_TOKEN_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| {
            Failure::usage(format!(
                "cannot read the token from {name}: {}",
                io_reason(&e)
            ))
        })?;
    if bytes.len() as u64 > MAX_TOKEN_FILE_BYTES {
        return Err(Failure::usage(format!(
            "the token from {name} is larger than 64 KiB; that is not a token"
        ))
        .with_hint("point --token-file at a file that holds only the token"));
    }
    String::from_utf8(bytes).map_err(|_| {
        Failure::usage(format!("the token from {name} is not text"))
            .with_hint("point --token-file at a file that holds only the token")
    })
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// Parses a timeout flag value: seconds, fractions allowed.
pub fn parse_timeout(raw: &str) -> Result<f64, String> {
    let secs: f64 = raw
        .trim()
        .parse()
        .map_err(|_| format!("'{raw}' is not a number of seconds"))?;
    check_timeout(secs)?;
    Ok(secs)
}

fn check_timeout(secs: f64) -> Result<(), String> {
    if !secs.is_finite() || secs <= 0.0 || secs > MAX_TIMEOUT_SECS {
        return Err(format!(
            "must be more than 0 and at most {MAX_TIMEOUT_SECS} seconds (one day)"
        ));
    }
    // Below a millisecond no request can succeed; say so rather than time out every call.
    if secs < 0.001 {
        return Err("must be at least 0.001 seconds".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launcher_url_keeps_prefix_and_drops_trailing_slash() {
        let url = parse_launcher_url("http://127.0.0.1:8100/0.6/").unwrap();
        assert_eq!(url.base(), "http://127.0.0.1:8100/0.6");
        assert!(url.is_loopback());
        assert_eq!(
            parse_launcher_url("http://localhost:8100").unwrap().base(),
            "http://localhost:8100"
        );
        assert_eq!(
            parse_launcher_url("http://localhost:8100/").unwrap().base(),
            "http://localhost:8100"
        );
    }

    #[test]
    fn loopback_detection() {
        for url in [
            "http://localhost",
            "http://LOCALHOST:1",
            "http://127.0.0.1",
            "http://127.8.9.10:8",
            "http://[::1]:8100",
            "http://[::ffff:127.0.0.1]",
        ] {
            assert!(parse_launcher_url(url).unwrap().is_loopback(), "{url}");
        }
        for url in [
            "http://example.com",
            "http://10.0.0.1",
            "http://[::2]",
            "http://localhost.example.com",
            "http://128.0.0.1",
        ] {
            assert!(!parse_launcher_url(url).unwrap().is_loopback(), "{url}");
        }
    }

    #[test]
    fn bad_launcher_urls() {
        assert!(parse_launcher_url("localhost:8100")
            .unwrap_err()
            .contains("scheme"));
        assert!(parse_launcher_url("127.0.0.1:8100")
            .unwrap_err()
            .contains("scheme"));
        assert!(parse_launcher_url("ftp://localhost")
            .unwrap_err()
            .contains("'ftp'"));
        assert!(parse_launcher_url("http://")
            .unwrap_err()
            .contains("no host"));
        assert!(parse_launcher_url("http:///127.0.0.1:1")
            .unwrap_err()
            .contains("no host"));
        assert!(parse_launcher_url("http://u:p@localhost")
            .unwrap_err()
            .contains("user name"));
        assert!(parse_launcher_url("http://local host")
            .unwrap_err()
            .contains("spaces"));
        assert!(parse_launcher_url("http://localhost/?a=1")
            .unwrap_err()
            .contains("query"));
        assert!(parse_launcher_url("").unwrap_err().contains("empty"));
    }

    #[test]
    fn userinfo_is_masked_in_messages() {
        assert_eq!(
            without_userinfo("http://u:secret@127.0.0.1:1/x@y"),
            "http://***@127.0.0.1:1/x@y"
        );
        assert_eq!(
            without_userinfo("http://127.0.0.1:1/a@b"),
            "http://127.0.0.1:1/a@b"
        );
        assert_eq!(without_userinfo("no scheme@x"), "no scheme@x");
    }

    #[test]
    fn timeouts() {
        assert_eq!(parse_timeout("5"), Ok(5.0));
        assert_eq!(parse_timeout("0.5"), Ok(0.5));
        for bad in ["0", "-1", "abc", "inf", "NaN", "86401", ""] {
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
    }
}
