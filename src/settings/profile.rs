//! Profiles: which one a run uses (`--profile NAME`, else `SAFE_AD_PROFILE`), the config file's
//! values as that profile makes them (its own over the top level's, each with where it came
//! from), and the refusal of a change under a profile with `read_only` true.
//!
//! A flag or an env var still beats a profile's value (`--launcher-url`, `SAFE_LAUNCHER_TOKEN`):
//! a profile is the config file's part of the order, not a layer above it. A profile named by
//! the flag or the variable must be in the file: a name the file lacks, or no file at all, is a
//! usage error (exit 2) that names the profiles there are, before anything is sent, rather than
//! a run that quietly reaches the top level's launcher.

use std::path::{Path, PathBuf};

use crate::cli::{self, ClientOptions};
use crate::config_file::{profile_name_problem, ConfigFile, Key};
use crate::outcome::Failure;

use super::{display_path, env_text, ConfigRead, Environment, Source, ENV_PROFILE};

/// The profile a run uses, and what named it (`--profile` or `SAFE_AD_PROFILE`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Active {
    pub name: String,
    pub source: Source,
}

/// The profile named by `--profile`, else by `SAFE_AD_PROFILE`; `None` without either (an
/// empty variable counts as unset, so `SAFE_AD_PROFILE= safe-ad ...` leaves a profile off).
pub(super) fn chosen(args: &ClientOptions, env: &Environment) -> Result<Option<Active>, Failure> {
    let (name, source) = if let Some(name) = &args.profile {
        (name.clone(), Source::Flag("--profile"))
    } else if let Some(name) = env.profile.as_ref().filter(|name| !name.is_empty()) {
        let hint = "set it to the name of a profile in the config file";
        env_text(ENV_PROFILE, name, hint)?
    } else {
        return Ok(None);
    };
    if let Some(problem) = profile_name_problem(&name) {
        return Err(Failure::usage(format!("{problem} (from {source})")));
    }
    Ok(Some(Active { name, source }))
}

/// The config file's values as a run sees them: the active profile's where it sets a key, else
/// the top level's.
pub(super) struct Layered<'a> {
    top: &'a ConfigFile,
    profile: Option<(&'a str, &'a ConfigFile)>,
    path: Option<PathBuf>,
}

impl<'a> Layered<'a> {
    /// The file's values under `active`, which must be one of its profiles.
    pub(super) fn new(
        top: &'a ConfigFile,
        active: Option<&Active>,
        path: &Option<PathBuf>,
    ) -> Result<Layered<'a>, Failure> {
        let profile = match active {
            None => None,
            Some(active) => match top.profiles.iter().find(|(name, _)| *name == active.name) {
                Some((name, profile)) => Some((name.as_str(), profile)),
                None => return Err(unknown(active, top, path)),
            },
        };
        Ok(Layered {
            top,
            profile,
            path: path.clone(),
        })
    }

    /// A key's value from the file (`pick` reads it) and where it came from: the profile's
    /// own, else the top level's.
    pub(super) fn get<T>(&self, pick: impl Fn(&ConfigFile) -> Option<T>) -> Option<(T, Source)> {
        let path = self.path.clone()?;
        if let Some((name, profile)) = self.profile {
            if let Some(value) = pick(profile) {
                return Some((value, Source::Profile(name.to_string(), path)));
            }
        }
        pick(self.top).map(|value| (value, Source::ConfigFile(path)))
    }
}

/// The refusal of a profile the config file does not have (or of any, without a file).
fn unknown(active: &Active, top: &ConfigFile, path: &Option<PathBuf>) -> Failure {
    let name = &active.name;
    let make = format!("safe-ad config set --profile {name} launcher_url URL");
    let exists = path.as_deref().is_some_and(Path::exists);
    let (message, hint) = match (exists, top.profile_names().as_slice()) {
        (false, _) => (
            format!(
                "no profile `{name}` (from {}): there is no config file at {}",
                active.source,
                display_path(path)
            ),
            format!(
                "make the profile with `{make}`, or leave out {}",
                leave_out(active)
            ),
        ),
        (true, []) => (
            format!(
                "no profile `{name}` (from {}): the config file {} has no profiles",
                active.source,
                display_path(path)
            ),
            format!(
                "make the profile with `{make}`, or leave out {}",
                leave_out(active)
            ),
        ),
        (true, names) => (
            format!(
                "no profile `{name}` (from {}) in the config file {}",
                active.source,
                display_path(path)
            ),
            format!(
                "the profiles there are {}; or make this one with `{make}`",
                names.join(", ")
            ),
        ),
    };
    Failure::usage(message).with_hint(hint)
}

/// What to leave out to run without the profile.
fn leave_out(active: &Active) -> String {
    match &active.source {
        Source::Env(var) => var.to_string(),
        _ => "--profile".to_string(),
    }
}

/// Refuses the command at `path` when it changes the network or a launcher's copy (its spec's
/// `changes`) and `read_only` is true in the active profile (or at the config file's top level,
/// without one): exit 2, before anything is sent. A dry run or `--curl` of it is let through:
/// it sends nothing, and what it prints is for a person to read, and to run or not. A config
/// file that cannot be used, or a profile it lacks, is left to `resolve`, which refuses it in
/// its own words; this says only what `read_only` decides.
pub fn refuse_read_only(
    path: &str,
    options: &ClientOptions,
    env: &Environment,
    read: &ConfigRead,
) -> Result<(), Failure> {
    let Some(spec) = cli::spec_of(path) else {
        return Ok(());
    };
    if !spec.changes || options.dry_run || options.curl {
        return Ok(());
    }
    let (Some(Ok(file)), Ok(config_path)) = (&read.file, &read.path) else {
        return Ok(());
    };
    let active = chosen(options, env)?;
    let layered = Layered::new(file, active.as_ref(), config_path)?;
    let Some((true, source)) = layered.get(|config| config.read_only) else {
        return Ok(());
    };
    let others: Vec<&str> = (file.profiles.iter())
        .filter(|(_, profile)| profile.read_only.or(file.read_only) != Some(true))
        .map(|(name, _)| name.as_str())
        .collect();
    let another = match others.as_slice() {
        [] => "another profile (--profile NAME or SAFE_AD_PROFILE)".to_string(),
        names => format!(
            "another profile (--profile NAME or SAFE_AD_PROFILE: {})",
            names.join(", ")
        ),
    };
    let key = Key::ReadOnly.name();
    let (whose, unset) = match (&source, &active) {
        (Source::Profile(name, _), _) => (
            format!("profile `{name}` is read-only"),
            format!("safe-ad config unset --profile {name} {key}"),
        ),
        // The profile leaves the key to the top level, which sets it.
        (_, Some(active)) => (
            format!(
                "profile `{}` is read-only (it leaves {key} to the config file's top level)",
                active.name
            ),
            format!("safe-ad config set --profile {} {key} false", active.name),
        ),
        (_, None) => (
            format!("the config file {} sets {key}", display_path(config_path)),
            format!("safe-ad config unset {key}"),
        ),
    };
    Err(Failure::usage(format!(
        "{whose}: `{path}` changes the network or a launcher's copy, so it is refused; nothing was sent"
    ))
    .with_hint(format!(
        "run it with {another}, or turn the guard off with `{unset}`; --dry-run and --curl print what it would send"
    )))
}

/// The name of the profile `options` and the environment choose, unchecked, for the shell's
/// prompt; `None` without one (or with one that is no name: the line says so when it runs).
pub fn profile_name(options: &ClientOptions, env: &Environment) -> Option<String> {
    chosen(options, env)
        .ok()
        .flatten()
        .map(|active| active.name)
}

/// Checks that the config file has the profile `name`, for the shell's `.profile NAME`: the
/// refusal a line would get, said when the switch is asked for.
pub fn check_profile(name: &str, env: &Environment) -> Result<(), Failure> {
    let options = ClientOptions {
        profile: Some(name.to_string()),
        ..ClientOptions::default()
    };
    let read = ConfigRead::read(env);
    let active = chosen(&options, env)?;
    match (&read.file, read.path.clone()?) {
        (Some(Ok(file)), path) => Layered::new(file, active.as_ref(), &path).map(drop),
        (Some(Err(e)), _) => Err(Failure::usage(e.to_string())),
        (None, path) => Layered::new(&ConfigFile::default(), active.as_ref(), &path).map(drop),
    }
}
