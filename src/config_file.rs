//! Reading and writing `config.json`: its keys, their types, and errors that point at the line
//! and the key.
//!
//! It knows nothing of flags or env vars; `settings` decides what wins and is the only caller.
//! A missing file is an empty config. Anything else that is off (bad JSON, a wrong type, an
//! unknown or repeated key) is an error naming the file, the line and column, and the key; a path
//! that is not a regular file (a directory, a FIFO, a socket, a device) is refused by its type,
//! before it is opened to read and before a write would replace it.
//! [`Key::ALL`] is the one list of keys: parsing, rendering, `config set`/`unset`, the help
//! and the man page all go through it. A `profiles` object maps each profile's name to an
//! object of the same keys (a profile is a [`ConfigFile`] with no profiles of its own), parsed
//! as strictly: an unknown key inside a profile is an error naming the profile, its line and
//! column.

use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use crate::atomic_file;
use crate::file_kind;
use crate::secret::Secret;

enum_with_all! {
    /// A key of the config file, in the order files are written and keys are listed (`ALL`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Key {
        LauncherUrl,
        Token,
        TimeoutSecs,
        ReadOnly,
    }
}

/// The config file's key that holds the profiles (not a setting, so not a [`Key`]).
pub const PROFILES: &str = "profiles";

/// The longest profile name: it is shown in prompts and messages.
const MAX_PROFILE_NAME: usize = 64;

/// Why `name` cannot be a profile's name, if it cannot: one to 64 ASCII letters, digits, `-`,
/// `_` or `.`, so that it can be typed, shown in a prompt and named in a message as it is.
pub fn profile_name_problem(name: &str) -> Option<String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if name.is_empty() {
        return Some("a profile name cannot be empty".into());
    }
    if name.len() > MAX_PROFILE_NAME || !name.chars().all(allowed) {
        let shown: String = name.chars().flat_map(char::escape_debug).take(64).collect();
        return Some(format!(
            "`{shown}` is no profile name: one to {MAX_PROFILE_NAME} ASCII letters, digits, `-`, `_` or `.`"
        ));
    }
    None
}

impl Key {
    pub fn name(self) -> &'static str {
        match self {
            Key::LauncherUrl => "launcher_url",
            Key::Token => "token",
            Key::TimeoutSecs => "timeout_secs",
            Key::ReadOnly => "read_only",
        }
    }

    /// What the key holds, for help texts.
    pub fn about(self) -> &'static str {
        match self {
            Key::LauncherUrl => "the launcher's base URL",
            Key::Token => "the launcher token (set it with `-` and standard input)",
            Key::TimeoutSecs => "seconds to wait for each request",
            Key::ReadOnly => {
                "true: refuse every command that changes the network or a launcher's copy"
            }
        }
    }

    pub fn from_name(name: &str) -> Option<Key> {
        Key::ALL.into_iter().find(|key| key.name() == name)
    }

    /// The key names, for messages: `launcher_url, token, timeout_secs`.
    pub fn names() -> String {
        Key::ALL.map(Key::name).join(", ")
    }
}

/// A config file is small; anything bigger is not one we wrote or one a person typed.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The values found in the file, unvalidated beyond their JSON types.
#[derive(Debug, Default, PartialEq)]
pub struct ConfigFile {
    pub launcher_url: Option<String>,
    /// As written in the file; `settings` checks it before use.
    pub token: Option<Secret>,
    pub timeout_secs: Option<f64>,
    /// `true`: the commands that change something are refused (`settings::profile`).
    pub read_only: Option<bool>,
    /// The profiles, by name, in file order; empty in a profile itself.
    pub profiles: Vec<(String, ConfigFile)>,
    /// Unix permission bits of the file, to warn about a token others can read.
    pub mode: Option<u32>,
}

/// A checked value for one key, as `config set` stores it.
#[derive(Debug, Clone, PartialEq)]
pub enum Setting {
    LauncherUrl(String),
    Token(Secret),
    TimeoutSecs(f64),
    ReadOnly(bool),
}

impl ConfigFile {
    /// The profile called `name`, if the file has one.
    pub fn profile(&self, name: &str) -> Option<&ConfigFile> {
        (self.profiles.iter()).find_map(|(have, profile)| (have == name).then_some(profile))
    }

    /// The profile called `name`, made (empty, after the others) if the file has none.
    pub fn profile_mut(&mut self, name: &str) -> &mut ConfigFile {
        let at = match self.profiles.iter().position(|(have, _)| have == name) {
            Some(at) => at,
            None => {
                self.profiles
                    .push((name.to_string(), ConfigFile::default()));
                self.profiles.len() - 1
            }
        };
        &mut self.profiles[at].1
    }

    /// The profiles' names, for messages: `emu, real`.
    pub fn profile_names(&self) -> Vec<&str> {
        self.profiles
            .iter()
            .map(|(name, _)| name.as_str())
            .collect()
    }

    /// Every token the file holds, the top level's and each profile's.
    pub fn tokens(&self) -> impl Iterator<Item = &Secret> {
        let profiles = self.profiles.iter().filter_map(|(_, p)| p.token.as_ref());
        self.token.iter().chain(profiles)
    }

    pub fn set(&mut self, setting: Setting) {
        match setting {
            Setting::LauncherUrl(url) => self.launcher_url = Some(url),
            Setting::Token(token) => self.token = Some(token),
            Setting::TimeoutSecs(secs) => self.timeout_secs = Some(secs),
            Setting::ReadOnly(on) => self.read_only = Some(on),
        }
    }

    /// Removes a key; says whether it was set.
    pub fn unset(&mut self, key: Key) -> bool {
        match key {
            Key::LauncherUrl => self.launcher_url.take().is_some(),
            Key::Token => self.token.take().is_some(),
            Key::TimeoutSecs => self.timeout_secs.take().is_some(),
            Key::ReadOnly => self.read_only.take().is_some(),
        }
    }

    /// The value of a key as the file holds it.
    fn json(&self, key: Key) -> Option<Value> {
        match key {
            Key::LauncherUrl => self.launcher_url.clone().map(Value::String),
            Key::Token => self
                .token
                .as_ref()
                .map(|token| Value::String(token.expose().to_string())),
            Key::TimeoutSecs => self.timeout_secs.map(seconds_json),
            Key::ReadOnly => self.read_only.map(Value::Bool),
        }
    }

    /// Reads one key's value out of the file's JSON.
    fn read(&mut self, key: Key, value: &Value) -> Result<(), String> {
        match key {
            Key::LauncherUrl => self.launcher_url = Some(string_value(key, value)?),
            Key::Token => self.token = Some(Secret::unchecked(string_value(key, value)?)),
            Key::TimeoutSecs => self.timeout_secs = Some(number_value(key, value)?),
            Key::ReadOnly => self.read_only = Some(bool_value(key, value)?),
        }
        Ok(())
    }
}

/// Whole seconds are written as integers (`5`, not `5.0`), as a person would.
fn seconds_json(secs: f64) -> Value {
    let number = if secs.fract() == 0.0 && secs.abs() < 1e15 {
        serde_json::Number::from(secs as i64)
    } else {
        serde_json::Number::from_f64(secs).unwrap_or_else(|| serde_json::Number::from(30))
    };
    Value::Number(number)
}

/// Why the config file could not be used.
#[derive(Debug)]
pub struct ConfigError {
    pub path: PathBuf,
    pub detail: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "config file {}: {}", self.path.display(), self.detail)
    }
}

/// Writes the config to `path` atomically, as a file of mode 0600 (`atomic_file`). The
/// directory is created with mode 0700 if it does not exist. A `path` that is a symbolic link
/// (a config kept with one's dotfiles) is written where it leads, as it was read: the rename
/// would otherwise put a plain file in the link's place, and the file it led to would keep the
/// old settings.
pub fn save(path: &Path, config: &ConfigFile) -> Result<(), ConfigError> {
    let error = |what: &str, e: io::Error| ConfigError {
        path: path.to_path_buf(),
        detail: format!("cannot {what}: {}", io_reason(&e)),
    };
    let resolved = where_it_leads(path).map_err(|e| error("follow its symbolic link", e))?;
    let path = resolved.as_path();
    // The rename would replace a FIFO, a socket or a device with a file, unasked.
    if let Ok(metadata) = std::fs::metadata(path) {
        refuse_not_regular(path, &metadata)?;
    }
    create_private_dir(atomic_file::directory_of(path))
        .map_err(|e| error("create its directory", e))?;
    atomic_file::write(path, render(config).as_bytes(), atomic_file::Mode::Private)
        .map_err(|e| error("write it", e))
}

/// Where `path` leads: itself when it is no symbolic link, else the path its links end at (which
/// may not exist yet: a link made before its file). A chain of more than 40 links is a loop.
fn where_it_leads(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        if !std::fs::symlink_metadata(&path).is_ok_and(|meta| meta.is_symlink()) {
            return Ok(path);
        }
        let target = std::fs::read_link(&path)?;
        path = match path.parent() {
            Some(dir) => dir.join(target),
            None => target,
        };
    }
    Err(io::Error::other("more than 40 symbolic links, a loop"))
}

/// Loads the file at `path`, changes it with `change`, and saves it atomically.
pub fn update(path: &Path, change: impl FnOnce(&mut ConfigFile)) -> Result<(), ConfigError> {
    let mut config = load(path)?;
    change(&mut config);
    save(path, &config)
}

/// The file's text: the keys that are set, in the order of [`Key::ALL`], then the profiles in
/// theirs, pretty-printed.
fn render(config: &ConfigFile) -> String {
    let mut object = keys_json(config);
    if !config.profiles.is_empty() {
        let profiles = (config.profiles.iter())
            .map(|(name, profile)| (name.clone(), Value::Object(keys_json(profile))))
            .collect();
        object.insert(PROFILES.into(), Value::Object(profiles));
    }
    let mut text = serde_json::to_string_pretty(&Value::Object(object)).unwrap_or_default();
    text.push('\n');
    text
}

/// The keys that are set, in the order of [`Key::ALL`].
fn keys_json(config: &ConfigFile) -> serde_json::Map<String, Value> {
    let mut object = serde_json::Map::new();
    for key in Key::ALL {
        if let Some(value) = config.json(key) {
            object.insert(key.name().into(), value);
        }
    }
    object
}

fn create_private_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

/// Reads the file at `path`; a file that does not exist is an empty config.
pub fn load(path: &Path) -> Result<ConfigFile, ConfigError> {
    let error = |detail: String| ConfigError {
        path: path.to_path_buf(),
        detail,
    };
    // Its type first, from `stat`: opening a FIFO would wait for a writer, every command with it.
    match std::fs::metadata(path) {
        Ok(metadata) => refuse_not_regular(path, &metadata)?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(ConfigFile::default()),
        Err(e) => return Err(error(format!("cannot open it: {}", io_reason(&e)))),
    }
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(ConfigFile::default()),
        Err(e) => return Err(error(format!("cannot open it: {}", io_reason(&e)))),
    };
    let metadata = file
        .metadata()
        .map_err(|e| error(format!("cannot read it: {}", io_reason(&e))))?;
    refuse_not_regular(path, &metadata)?;
    let mut text = String::new();
    file.take(MAX_CONFIG_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| match e.kind() {
            io::ErrorKind::InvalidData => error("it is not UTF-8 text".into()),
            _ => error(format!("cannot read it: {}", io_reason(&e))),
        })?;
    if text.len() as u64 > MAX_CONFIG_BYTES {
        return Err(error(
            "it is larger than 1 MiB; it cannot be a config file".into(),
        ));
    }
    let mut config = parse(&text).map_err(error)?;
    config.mode = file_mode(&metadata);
    Ok(config)
}

/// Parses the text of a config file.
pub fn parse(text: &str) -> Result<ConfigFile, String> {
    if text.trim().is_empty() {
        return Err("it is empty; write {} for an empty config, or delete the file".into());
    }
    let InOrder(entries) = serde_json::from_str::<Entries>(text).map_err(|e| {
        let what = strip_position(&e.to_string());
        // serde_json counts columns from 0 when the error is at the start of a line.
        format!("line {}, column {}: {}", e.line(), e.column().max(1), what)
    })?;
    read_entries(text, &entries, 0, None)
}

/// Reads the members of one object: the top level's (`profile` `None`), which may hold the
/// profiles, or a profile's, whose keys' positions are looked for from `from` (the offset of
/// its name in `text`) on.
fn read_entries(
    text: &str,
    entries: &[(String, Member)],
    from: usize,
    profile: Option<&str>,
) -> Result<ConfigFile, String> {
    let mut config = ConfigFile::default();
    let mut seen: Vec<&str> = Vec::new();
    for (key, member) in entries {
        let occurrence = seen.iter().filter(|k| **k == key.as_str()).count();
        let at = |what: String| {
            let what = match profile {
                Some(name) => format!("profile `{name}`: {what}"),
                None => what,
            };
            match locate_key(text, from, key, occurrence) {
                Some((line, column)) => format!("line {line}, column {column}: {what}"),
                None => what,
            }
        };
        let known = Key::from_name(key);
        let profiles = key == PROFILES && profile.is_none();
        if known.is_none() && !profiles {
            return Err(at(unknown_key_message(key, profile.is_some())));
        }
        if occurrence > 0 {
            return Err(at(format!("key `{key}` appears twice; keep one")));
        }
        seen.push(key);
        match (known, member) {
            (Some(known), Member::Plain(value)) => config.read(known, value).map_err(at)?,
            (Some(known), Member::Profiles(_)) => {
                return Err(at(format!("key `{}` must not be an object", known.name())))
            }
            (None, Member::Profiles(members)) => {
                config.profiles = read_profiles(text, from, members)?
            }
            (None, Member::Plain(value)) => {
                return Err(at(format!(
                    "key `{PROFILES}` must be an object of profiles by name, not {}",
                    kind(value)
                )))
            }
        }
    }
    Ok(config)
}

/// The `profiles` object: each name checked, each profile read as strictly as the top level.
fn read_profiles(
    text: &str,
    from: usize,
    members: &[(String, Entries)],
) -> Result<Vec<(String, ConfigFile)>, String> {
    // Where the `profiles` key stands: each profile's name is looked for after it.
    let start = locate_offset(text, from, PROFILES, 0).unwrap_or(from);
    let mut profiles: Vec<(String, ConfigFile)> = Vec::new();
    for (name, InOrder(entries)) in members {
        let from = locate_offset(text, start, name, 0).unwrap_or(start);
        let at = |what: String| match position(text, from) {
            (line, column) if from > 0 => format!("line {line}, column {column}: {what}"),
            _ => what,
        };
        if let Some(problem) = profile_name_problem(name) {
            return Err(at(format!("in `{PROFILES}`: {problem}")));
        }
        if profiles.iter().any(|(have, _)| have == name) {
            return Err(at(format!("profile `{name}` appears twice; keep one")));
        }
        profiles.push((name.clone(), read_entries(text, entries, from, Some(name))?));
    }
    Ok(profiles)
}

/// serde_json appends " at line L column C"; the position is said up front instead.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

/// Line and column (1-based) of the `nth` place where `key` stands as an object key, from the
/// offset `from` on.
fn locate_key(text: &str, from: usize, key: &str, nth: usize) -> Option<(usize, usize)> {
    locate_offset(text, from, key, nth).map(|offset| position(text, offset))
}

/// The offset of the `nth` place where `key` stands as an object key, from `from` on.
fn locate_offset(text: &str, from: usize, key: &str, nth: usize) -> Option<usize> {
    let needle = serde_json::to_string(key).ok()?;
    let rest = text.get(from..)?;
    let offset = rest
        .match_indices(&needle)
        .filter(|(at, _)| rest[at + needle.len()..].trim_start().starts_with(':'))
        .nth(nth)?
        .0;
    Some(from + offset)
}

/// Line and column (1-based) of an offset.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// The refusal of a config file that is not a regular file (a directory, a FIFO, a device).
fn refuse_not_regular(path: &Path, metadata: &std::fs::Metadata) -> Result<(), ConfigError> {
    match file_kind::not_regular(metadata) {
        None => Ok(()),
        Some(kind) => Err(ConfigError {
            path: path.to_path_buf(),
            detail: kind.describe(),
        }),
    }
}

fn io_reason(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

fn file_mode(metadata: &std::fs::Metadata) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    Some(metadata.permissions().mode() & 0o7777)
}

/// An object's members in file order, duplicates kept, so each can be checked by name: `V`
/// reads each value, knowing its key ([`Entries`], [`Profiles`]).
struct InOrder<V>(Vec<(String, V)>);

/// The config file's object: its members as they stand.
type Entries = InOrder<Member>;

/// The `profiles` object's members in file order, each profile an object of keys.
type Profiles = InOrder<Entries>;

/// One member's value: any JSON, or for the key `profiles` the profiles' objects, each read as
/// [`Entries`] so that a key repeated inside a profile is found too.
enum Member {
    Plain(Value),
    Profiles(Vec<(String, Entries)>),
}

/// A value of an [`InOrder`] object: what the object is (serde's "expected ..."), and how a
/// member's value is read, by its key.
trait MemberValue: Sized {
    fn expecting(f: &mut fmt::Formatter) -> fmt::Result;
    fn next_value<'de, A: MapAccess<'de>>(key: &str, map: &mut A) -> Result<Self, A::Error>;
}

impl MemberValue for Member {
    fn expecting(f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a JSON object with the keys {}", Key::names())
    }

    fn next_value<'de, A: MapAccess<'de>>(key: &str, map: &mut A) -> Result<Self, A::Error> {
        Ok(match key == PROFILES {
            true => Member::Profiles(map.next_value::<Profiles>()?.0),
            false => Member::Plain(map.next_value()?),
        })
    }
}

impl MemberValue for Entries {
    fn expecting(f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "an object of profiles by name, each an object with the keys {}",
            Key::names()
        )
    }

    fn next_value<'de, A: MapAccess<'de>>(_: &str, map: &mut A) -> Result<Self, A::Error> {
        map.next_value()
    }
}

impl<'de, V: MemberValue> Deserialize<'de> for InOrder<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(InOrderVisitor(std::marker::PhantomData))
    }
}

struct InOrderVisitor<V>(std::marker::PhantomData<V>);

impl<'de, V: MemberValue> Visitor<'de> for InOrderVisitor<V> {
    type Value = InOrder<V>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        V::expecting(f)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<InOrder<V>, A::Error> {
        let mut members = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = V::next_value(&key, &mut map)?;
            members.push((key, value));
        }
        Ok(InOrder(members))
    }
}

fn string_value(key: Key, value: &Value) -> Result<String, String> {
    match value {
        Value::String(s) => Ok(s.clone()),
        other => Err(format!(
            "key `{}` must be a string, not {}",
            key.name(),
            kind(other)
        )),
    }
}

fn number_value(key: Key, value: &Value) -> Result<f64, String> {
    match value.as_f64() {
        Some(n) if value.is_number() => Ok(n),
        _ => Err(format!(
            "key `{}` must be a number of seconds, not {}",
            key.name(),
            kind(value)
        )),
    }
}

fn bool_value(key: Key, value: &Value) -> Result<bool, String> {
    match value {
        Value::Bool(on) => Ok(*on),
        other => Err(format!(
            "key `{}` must be true or false, not {}",
            key.name(),
            kind(other)
        )),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// An unknown key, with the key it may be a typo of; `in_profile`: a profile's, which holds no
/// profiles of its own.
fn unknown_key_message(key: &str, in_profile: bool) -> String {
    let shown: String = key.chars().flat_map(char::escape_debug).take(64).collect();
    let mut message = format!("unknown key `{shown}`");
    let mut names: Vec<&str> = Key::ALL.map(Key::name).to_vec();
    if !in_profile {
        names.push(PROFILES);
    }
    if let Some(near) = names.iter().find(|name| similar(name, key)) {
        message.push_str(&format!(" (did you mean `{near}`?)"));
    }
    match in_profile {
        true => message.push_str(&format!(
            "; the keys of a profile are {} (profiles do not nest)",
            Key::names()
        )),
        false => message.push_str(&format!(
            "; the keys are {}, and `{PROFILES}`",
            Key::names()
        )),
    }
    message
}

/// A typo's distance: at most two single-character edits.
fn similar(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > 2 || b.len() > 64 {
        return false;
    }
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()] <= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_known_keys() {
        let config = parse(
            r#"{"launcher_url": "http://127.0.0.1:9/0.6", "token": "t", "timeout_secs": 2.5}"#,
        )
        .unwrap();
        assert_eq!(
            config.launcher_url.as_deref(),
            Some("http://127.0.0.1:9/0.6")
        );
        assert_eq!(config.token.as_ref().map(Secret::expose), Some("t"));
        assert_eq!(config.timeout_secs, Some(2.5));
        assert_eq!(parse("{}").unwrap(), ConfigFile::default());
    }

    #[test]
    fn wrong_type_names_key_and_position() {
        let err = parse("{\n  \"timeout_secs\": \"5\"\n}").unwrap_err();
        assert!(err.starts_with("line 2, column 3:"), "{err}");
        assert!(err.contains("`timeout_secs` must be a number"), "{err}");
        let err = parse("{\"token\": 5}").unwrap_err();
        assert!(
            err.contains("`token` must be a string, not a number"),
            "{err}"
        );
    }

    #[test]
    fn unknown_key_is_named_with_a_suggestion() {
        let err = parse("{\n\"tokn\": \"x\"}").unwrap_err();
        assert!(err.starts_with("line 2, column 1:"), "{err}");
        assert!(
            err.contains("unknown key `tokn` (did you mean `token`?)"),
            "{err}"
        );
    }

    #[test]
    fn malformed_and_odd_files_are_errors() {
        assert!(parse("{\"token\": ")
            .unwrap_err()
            .starts_with("line 1, column"));
        assert!(parse("").unwrap_err().contains("empty"));
        assert!(parse("[1]").unwrap_err().contains("JSON object"));
        assert!(parse(r#"{"token":"a","token":"b"}"#)
            .unwrap_err()
            .contains("appears twice"));
    }

    #[test]
    fn save_then_load_round_trips_with_mode_0600() {
        use std::os::unix::fs::PermissionsExt;
        // A directory of this test's own: a fixed path could hold another run's leftovers.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("config.json");
        let config = ConfigFile {
            launcher_url: Some("http://127.0.0.1:1".into()),
            token: Some(Secret::unchecked("t".into())),
            timeout_secs: Some(5.0),
            ..ConfigFile::default()
        };
        save(&path, &config).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("\"timeout_secs\": 5") && !text.contains("5.0"),
            "{text}"
        );
        let loaded = load(&path).unwrap();
        assert_eq!(loaded.mode, Some(0o600));
        assert_eq!(loaded.token.as_ref().map(Secret::expose), Some("t"));
        assert_eq!(loaded.timeout_secs, Some(5.0));
        let dir_mode = std::fs::metadata(path.parent().unwrap())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(dir_mode & 0o777, 0o700);
        update(&path, |c| {
            c.unset(Key::Token);
        })
        .unwrap();
        let loaded = load(&path).unwrap();
        assert_eq!(loaded.token, None);
        assert_eq!(loaded.launcher_url.as_deref(), Some("http://127.0.0.1:1"));
        let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "temporary files left behind");
    }

    #[test]
    fn debug_hides_the_token() {
        let config = parse(r#"{"token": "very-secret"}"#).unwrap();
        assert!(!format!("{config:?}").contains("very-secret"));
    }

    #[test]
    fn profiles_are_read_as_strictly_as_the_top_level() {
        let text = "{\n  \"token\": \"top\",\n  \"profiles\": {\n    \"emu\": {\"launcher_url\": \"http://127.0.0.1:1\", \"read_only\": false},\n    \"real\": {\n      \"read_only\": true,\n      \"token\": \"r\"\n    }\n  }\n}";
        let config = parse(text).unwrap();
        assert_eq!(config.profile_names(), ["emu", "real"]);
        assert_eq!(config.profile("real").unwrap().read_only, Some(true));
        assert_eq!(config.tokens().count(), 2);
        // What is rendered reads back the same.
        assert_eq!(parse(&render(&config)).unwrap(), config);
        let err = parse("{\"profiles\": {\"emu\": {\n\"tokn\": \"x\"}}}").unwrap_err();
        assert!(
            err.starts_with("line 2, column 1: profile `emu`: unknown key `tokn`"),
            "{err}"
        );
        assert!(err.contains("profiles do not nest"), "{err}");
        let err =
            parse("{\"profiles\": {\"a\": {\"token\": \"x\",\n \"token\": \"y\"}}}").unwrap_err();
        assert!(
            err.contains("profile `a`: key `token` appears twice"),
            "{err}"
        );
        let err = parse("{\"profiles\": {\"a b\": {}}}").unwrap_err();
        assert!(err.contains("is no profile name"), "{err}");
        let err = parse("{\"profiles\": {\"a\": {\"read_only\": \"yes\"}}}").unwrap_err();
        assert!(err.contains("`read_only` must be true or false"), "{err}");
        assert!(parse("{\"profiles\": 5}")
            .unwrap_err()
            .contains("profiles by name"));
        assert!(parse("{\"profiles\": {\"a\": {\"profiles\": {}}}}")
            .unwrap_err()
            .contains("profile `a`: unknown key `profiles`"));
    }
}
