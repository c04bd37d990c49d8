//! The environment variables, each once, in [`ENV_VARS`]: its name, what it sets, its default,
//! and who reads it. `--help`, the main man page's ENVIRONMENT and docs/settings.md's table are
//! written from the table, and [`Environment::from_process`] reads only through its rows, so a
//! variable safe-ad starts reading has its row or is not read. Nothing else in the client reads
//! the environment (a test over `src/` keeps it so).
//!
//! The emulator's variables are rows too, though its own crate reads and sets them (it shares no
//! code with the client): a test keeps its crate's names and `safe-ad-emulator(1)`'s
//! ENVIRONMENT to this table.

use std::ffi::{OsStr, OsString};

use crate::url::DEFAULT_LAUNCHER_URL;

/// One environment variable.
#[derive(Debug)]
pub struct EnvVar {
    /// Its name; a pattern's has the part that varies in angle brackets
    /// (`SAFE_AD_EMULATOR_USER_<NAME>_URL`).
    pub name: &'static str,
    /// How the name is read.
    pub spelling: Spelling,
    /// What it sets, as `--help` and the man page say it.
    pub sets: &'static str,
    /// What holds when it is unset (empty: nothing; it only turns something on).
    pub default: &'static str,
    /// Who reads it.
    pub reader: Reader,
}

/// How a variable's name is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// As written.
    Exact,
    /// As written, else in lower case, as curl reads the proxy variables.
    UpperElseLower,
    /// A family of names: the part in angle brackets varies (one per emulator user).
    Pattern,
}

/// Who reads a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// `settings`, for every client command ([`Environment::from_process`]); `--help` and the
    /// main man page list it.
    Client,
    /// The emulator (its own crate): it sets it for its `COMMAND` or prints it, and reads some
    /// back (`--stop`); `safe-ad-emulator(1)` lists it.
    Emulator,
    /// The emulator, between its own processes: no page but docs/settings.md names it.
    EmulatorInternal,
}

impl EnvVar {
    /// What `--help` and the man page say of it: what it sets, and its default.
    pub fn about(&self) -> String {
        match self.default {
            "" => self.sets.to_owned(),
            default => format!("{}; default: {default}", self.sets),
        }
    }

    /// The names read for it, in order: itself, and for [`Spelling::UpperElseLower`] its lower
    /// case (none for a pattern, which names no one variable).
    pub fn spellings(&self) -> Vec<String> {
        match self.spelling {
            Spelling::Exact => vec![self.name.to_owned()],
            Spelling::UpperElseLower => vec![self.name.to_owned(), self.name.to_lowercase()],
            Spelling::Pattern => Vec::new(),
        }
    }

    /// Whether `name` is this variable (or one of its pattern's family).
    pub fn matches(&self, name: &str) -> bool {
        match self.spelling {
            Spelling::Pattern => {
                let (before, rest) = self.name.split_once('<').unwrap_or((self.name, ""));
                let after = rest.split_once('>').map_or("", |(_, after)| after);
                name.len() > before.len() + after.len()
                    && name.starts_with(before)
                    && name.ends_with(after)
            }
            _ => self.spellings().iter().any(|spelling| spelling == name),
        }
    }

    /// Its value from `lookup` (the process's environment), the first spelling that is set.
    fn read(&self, lookup: &impl Fn(&str) -> Option<OsString>) -> Option<OsString> {
        self.spellings().iter().find_map(|name| lookup(name))
    }
}

const fn client(name: &'static str, sets: &'static str, default: &'static str) -> EnvVar {
    EnvVar {
        name,
        spelling: Spelling::Exact,
        sets,
        default,
        reader: Reader::Client,
    }
}

const fn proxy(name: &'static str, sets: &'static str) -> EnvVar {
    EnvVar {
        name,
        spelling: Spelling::UpperElseLower,
        sets,
        default: "",
        reader: Reader::Client,
    }
}

const fn emulator(name: &'static str, spelling: Spelling, sets: &'static str) -> EnvVar {
    EnvVar {
        name,
        spelling,
        sets,
        default: "",
        reader: Reader::Emulator,
    }
}

/// Declares each row as a constant of its own, and [`ENV_VARS`]: every row, in order.
macro_rules! env_vars {
    ($($name:ident = $row:expr;)+) => {
        $(pub const $name: EnvVar = $row;)+

        /// Every environment variable safe-ad and its emulator read or set: the one table.
        pub const ENV_VARS: &[&EnvVar] = &[$(&$name),+];
    };
}

const fn internal(name: &'static str, sets: &'static str) -> EnvVar {
    EnvVar {
        name,
        spelling: Spelling::Exact,
        sets,
        default: "",
        reader: Reader::EmulatorInternal,
    }
}

env_vars! {
    LAUNCHER_URL = client("SAFE_LAUNCHER_URL", "launcher base URL (after --launcher-url, before the config file)", DEFAULT_LAUNCHER_URL);
    TOKEN = client("SAFE_LAUNCHER_TOKEN", "the token (after --token-file, before the config file)", "none (exit 3)");
    PROFILE = client("SAFE_AD_PROFILE", "the config file's profile to use (after --profile; empty: none)", "none");
    CONFIG_DIR = client("SAFE_AD_CONFIG_DIR", "directory that holds config.json", "~/.config/safe-ad on Linux");
    INTERRUPT_WAIT = client("SAFE_AD_INTERRUPT_WAIT", "seconds the first Ctrl-C (or SIGTERM or SIGHUP) waits for requests in flight, the giving back of launcher handles and a reader of stdout or stderr that takes nothing, before it leaves, naming what it left", "1");
    HISTORY = client("SAFE_AD_HISTORY", "the interactive shell's history file; set but empty: no history", "shell_history in the data directory, ~/.local/share/safe-ad on Linux");
    NO_COLOR = client("NO_COLOR", "set and not empty: no colour on stderr (--color overrides it)", "");
    CLICOLOR_FORCE = client("CLICOLOR_FORCE", "set and not 0: colour on stderr even when it is not a terminal (--color and NO_COLOR override it)", "");
    HTTP_PROXY = proxy("HTTP_PROXY", "proxy for a launcher on another host over http (http_proxy too; not in a CGI run); a loopback launcher is always reached directly");
    HTTPS_PROXY = proxy("HTTPS_PROXY", "proxy for a launcher on another host over https (https_proxy too)");
    ALL_PROXY = proxy("ALL_PROXY", "proxy for a launcher on another host where the scheme's own is not set (all_proxy too)");
    NO_PROXY = proxy("NO_PROXY", "hosts reached without a proxy, the launcher's among them (no_proxy too)");
    REQUEST_METHOD = client("REQUEST_METHOD", "set: a CGI run, where a request header can set HTTP_PROXY, which is then ignored (as curl does)", "");
    EMULATOR_PID = emulator("SAFE_AD_EMULATOR_PID", Spelling::Exact, "a background emulator's process id: --background prints it, --stop and --stop --if-running read it");
    EMULATOR_DIR = emulator("SAFE_AD_EMULATOR_DIR", Spelling::Exact, "a background emulator's directory (its standard error and its lock): --background prints it, --stop reads it");
    EMULATOR_USER_URL = emulator("SAFE_AD_EMULATOR_USER_<NAME>_URL", Spelling::Pattern, "user NAME's URL (the name in capitals), given to COMMAND with --user NAME, and printed by emulator env --user NAME");
    EMULATOR_USER_TOKEN = emulator("SAFE_AD_EMULATOR_USER_<NAME>_TOKEN", Spelling::Pattern, "the token user NAME's launcher accepts, given and printed as its URL is");
    EMULATOR_DAEMON = internal("SAFE_AD_EMULATOR_DAEMON", "set by --background for the emulator's own process, which knows itself by it");
}

/// The names used in messages (`Source::Env`, hints), each its row's.
pub const ENV_LAUNCHER_URL: &str = LAUNCHER_URL.name;
pub const ENV_TOKEN: &str = TOKEN.name;
pub const ENV_CONFIG_DIR: &str = CONFIG_DIR.name;
pub const ENV_INTERRUPT_WAIT: &str = INTERRUPT_WAIT.name;
pub const ENV_PROFILE: &str = PROFILE.name;

/// The env vars safe-ad reads, captured once so the rest of the resolution is pure.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Environment {
    pub launcher_url: Option<OsString>,
    pub token: Option<OsString>,
    pub config_dir: Option<OsString>,
    /// `SAFE_AD_PROFILE`: the config file's profile to use.
    pub profile: Option<OsString>,
    pub interrupt_wait: Option<OsString>,
    /// `SAFE_AD_HISTORY`: the interactive shell's history file (empty: none).
    pub history: Option<OsString>,
    /// The proxy variables, each the first set of its upper- and lower-case spelling.
    pub http_proxy: Option<OsString>,
    pub https_proxy: Option<OsString>,
    pub all_proxy: Option<OsString>,
    pub no_proxy: Option<OsString>,
    /// `NO_COLOR` set and not empty (no-color.org).
    pub no_color: bool,
    /// `CLICOLOR_FORCE` set and not `0`.
    pub clicolor_force: bool,
    /// Running as a CGI script, where `HTTP_PROXY` can be set by a request header (httpoxy):
    /// it is ignored then, as curl and reqwest do.
    pub cgi: bool,
}

impl Environment {
    /// The process's environment: the one place safe-ad reads it.
    pub fn from_process() -> Environment {
        Environment::from_lookup(|name| std::env::var_os(name))
    }

    /// The variables as `lookup` gives them by name, each read through its row of [`ENV_VARS`].
    fn from_lookup(lookup: impl Fn(&str) -> Option<OsString>) -> Environment {
        let set = |var: &EnvVar| var.read(&lookup);
        let not_empty = |value: &OsStr| !value.is_empty();
        Environment {
            launcher_url: set(&LAUNCHER_URL),
            token: set(&TOKEN),
            config_dir: set(&CONFIG_DIR),
            profile: set(&PROFILE),
            interrupt_wait: set(&INTERRUPT_WAIT),
            history: set(&HISTORY),
            http_proxy: set(&HTTP_PROXY),
            https_proxy: set(&HTTPS_PROXY),
            all_proxy: set(&ALL_PROXY),
            no_proxy: set(&NO_PROXY),
            no_color: set(&NO_COLOR).is_some_and(|v| not_empty(&v)),
            clicolor_force: set(&CLICOLOR_FORCE).is_some_and(|v| not_empty(&v) && v != "0"),
            cgi: set(&REQUEST_METHOD).is_some(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::BTreeSet;

    use super::*;

    /// The names of the table's rows that the client reads, in every spelling.
    fn client_names() -> BTreeSet<String> {
        ENV_VARS
            .iter()
            .filter(|var| var.reader == Reader::Client)
            .flat_map(|var| var.spellings())
            .collect()
    }

    /// The reader asks for exactly the table's client variables: a variable read past the
    /// table, or a row nothing reads, fails here.
    #[test]
    fn the_environment_is_read_by_the_tables_names_and_no_other() {
        let asked = RefCell::new(BTreeSet::new());
        Environment::from_lookup(|name| {
            asked.borrow_mut().insert(name.to_owned());
            None
        });
        assert_eq!(asked.into_inner(), client_names());
    }

    /// Each client variable, set alone, changes what the run sees (each spelling of it).
    #[test]
    fn each_client_variable_changes_the_environment_the_run_sees() {
        for name in client_names() {
            let env = Environment::from_lookup(|asked| (asked == name).then(|| "1".into()));
            assert_ne!(env, Environment::default(), "{name} changes nothing");
        }
    }

    /// The defaults said are the defaults used.
    #[test]
    fn the_defaults_come_from_the_constants() {
        assert_eq!(LAUNCHER_URL.default, crate::url::DEFAULT_LAUNCHER_URL);
        let wait: f64 = INTERRUPT_WAIT.default.parse().expect("a number");
        assert_eq!(wait, crate::values::DEFAULT_INTERRUPT_WAIT_SECS);
    }

    #[test]
    fn a_pattern_matches_its_family_only() {
        let url = ENV_VARS
            .iter()
            .find(|var| var.spelling == Spelling::Pattern)
            .expect("the emulator's users");
        assert!(url.matches("SAFE_AD_EMULATOR_USER_ALICE_URL"));
        assert!(!url.matches(&format!("{}_URL", "SAFE_AD_EMULATOR_USER_")));
        assert!(!url.matches("SAFE_AD_EMULATOR_PID"));
        assert!(HTTP_PROXY.matches("http_proxy") && !HTTP_PROXY.matches("Http_Proxy"));
    }

    /// `safe-ad-emulator(1)`'s ENVIRONMENT, prose of its own, names each of the emulator's rows
    /// and nothing the table lacks.
    #[cfg(feature = "emulator")]
    #[test]
    fn the_emulators_page_names_its_rows() {
        let page = crate::generate::man::page(&["emulator"]).expect("a page");
        let plain = page
            .replace("\\fB", "")
            .replace("\\fI", "")
            .replace("\\fR", "")
            .replace("\\-", "-");
        let environment = plain
            .split(".SH \"ENVIRONMENT\"\n")
            .nth(1)
            .and_then(|rest| rest.split(".SH ").next())
            .expect("an ENVIRONMENT section");
        for var in ENV_VARS.iter().filter(|var| var.reader == Reader::Emulator) {
            let shown = var.name.replace(['<', '>'], "");
            assert!(environment.contains(&shown), "{shown} is not on the page");
        }
        for line in environment.lines() {
            let Some(name) = line.strip_prefix(".B ") else {
                continue;
            };
            assert!(
                ENV_VARS
                    .iter()
                    .any(|var| var.name.replace(['<', '>'], "") == name),
                "the page names {name}, which ENV_VARS lacks"
            );
        }
    }

    #[test]
    fn each_name_is_in_one_row() {
        let mut seen = BTreeSet::new();
        for var in ENV_VARS {
            assert!(seen.insert(var.name), "{} twice", var.name);
        }
    }
}
