//! The command-line surface: clap definitions and every help text.
//!
//! These structs hold raw, unvalidated values and no logic; `settings` turns them into a checked
//! `Settings`. The same definition is the source of the shell completions and the man page
//! (see `generate`), so a flag added here shows up in both after `generate` is re-run.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::outcome;

const ABOUT: &str =
    "Save appendable data to the SAFE network and clear its data items, through the SAFE Launcher";

const LONG_ABOUT: &str = "\
Save appendable data to the SAFE network and clear its data items, through the local HTTP API \
of the SAFE Launcher.

An appendable data is addressed by a handle (a number the launcher gave you). `put` saves a new \
appendable data to the network, `post` saves one that is already there. `clear-data` and \
`clear-deleted-data` change only the launcher's local copy: the change reaches the network when you \
save it afterwards, normally with `post`.";

const EXAMPLES: &str = "\
Examples:
  safe-ad put 7                     save handle 7 to the network for the first time
  safe-ad clear-data 7 && safe-ad post 7
                                    empty the data items of 7 and save that to the network
  safe-ad --timeout 5 post 7 8 9    save three handles, each request bounded to 5 seconds";

/// The launcher URL used when no flag, env var or config key names one.
pub const DEFAULT_LAUNCHER_URL: &str = "http://localhost:8100";

#[derive(Debug, Parser)]
#[command(name = "safe-ad", version, about = ABOUT, long_about = LONG_ABOUT)]
#[command(
    propagate_version = true,
    subcommand_required = true,
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

/// Options accepted before or after any subcommand.
#[derive(Debug, Args, Clone, Default)]
pub struct GlobalArgs {
    /// Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)
    ///
    /// Overrides the SAFE_LAUNCHER_URL env var and `launcher_url` in the config file.
    /// Default: http://localhost:8100.
    #[arg(long, global = true, value_name = "URL", value_hint = clap::ValueHint::Url)]
    pub launcher_url: Option<String>,

    /// Read the token from this file (`-` reads standard input)
    ///
    /// Overrides the SAFE_LAUNCHER_TOKEN env var and `token` in the config file. There is no
    /// flag that takes the token itself: it would show in process lists and shell history.
    #[arg(long, global = true, value_name = "PATH", value_hint = clap::ValueHint::FilePath)]
    pub token_file: Option<PathBuf>,

    /// Give up on a request after this many seconds (default 30)
    ///
    /// Overrides `timeout_secs` in the config file. Fractions are allowed (0.5).
    #[arg(long, global = true, value_name = "SECS", value_parser = parse_timeout_arg)]
    pub timeout: Option<f64>,

    /// Allow plain http to a host other than this machine (sends the token in clear text)
    #[arg(long, global = true)]
    pub allow_insecure_http: bool,

    /// Print nothing on success; errors still go to stderr
    #[arg(short, long, global = true)]
    pub quiet: bool,

    /// Print one JSON object per operation on stdout (JSON Lines), and nothing else there
    #[arg(long, global = true)]
    pub json: bool,

    /// Run up to N requests at once; output stays in input order
    #[arg(short, long, global = true, value_name = "N", default_value_t = 8,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,

    /// Send no new requests after the first failure
    #[arg(long, global = true)]
    pub fail_fast: bool,

    /// Retry a request up to N times when no answer arrived (connection refused or reset)
    ///
    /// Never after an answer, never after a timeout, and a POST only when its connection was
    /// refused (so it was not sent). Waits 100 ms, 200 ms, 400 ms, ... between tries.
    #[arg(long, global = true, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u8).range(0..=10))]
    pub retries: u8,

    /// Print each request that would be sent (token masked) and send nothing
    #[arg(long, global = true, conflicts_with_all = ["curl", "json"])]
    pub dry_run: bool,

    /// Print an equivalent curl command per request (token read from $SAFE_LAUNCHER_TOKEN) and send nothing
    #[arg(long, global = true, conflicts_with = "json")]
    pub curl: bool,

    /// Show each request and answer on stderr: request line, headers (token masked), status, body, timing
    #[arg(short, long, global = true)]
    pub verbose: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Save a new appendable data to the network (PUT /appendable-data/<HANDLE>)
    #[command(
        long_about = "\
Save a new appendable data to the network for the first time (PUT /appendable-data/<HANDLE>).

Use `post` instead for data that is already on the network: the launcher refuses a second PUT \
(errorCode -23, DataExists).",
        after_help = "Example:\n  safe-ad put 7"
    )]
    Put(HandleArgs),

    /// Save an appendable data that is already on the network (POST /appendable-data/<HANDLE>)
    #[command(
        long_about = "\
Save an appendable data that is already on the network (POST /appendable-data/<HANDLE>).

This is the save that makes an earlier `clear-data` or `clear-deleted-data` reach the network. Use \
`put` for data that was never saved: the launcher refuses a POST of it (errorCode -22, NoSuchData).",
        after_help = "Example:\n  safe-ad clear-data 7 && safe-ad post 7"
    )]
    Post(HandleArgs),

    /// Move all data items to deleted_data (local until saved: see --save)
    #[command(
        long_about = "\
Move every data item of the appendable data into its deleted_data section \
(DELETE /appendable-data/clear-data/<HANDLE>).

This changes only the launcher's local copy. It reaches the network when you save the data \
afterwards with `post` (or `put` if it was never saved); `--save post` does both in one go.",
        after_help = "Examples:\n  safe-ad clear-data --save post 7\n  seq 0 99 | safe-ad clear-data --save post -"
    )]
    ClearData(ClearArgs),

    /// Remove all items from deleted_data (local until saved: see --save)
    #[command(
        long_about = "\
Remove every item from the deleted_data section of the appendable data \
(DELETE /appendable-data/clear-deleted-data/<HANDLE>).

This changes only the launcher's local copy. It reaches the network when you save the data \
afterwards with `post` (or `put` if it was never saved); `--save post` does both in one go.",
        after_help = "Example:\n  safe-ad clear-deleted-data --save post 7"
    )]
    ClearDeletedData(ClearArgs),

    /// Show version, data and deleted-data counts of handles (GET /appendable-data/metadata/<HANDLE>)
    #[command(
        long_about = "\
Show what the launcher holds for each handle (GET /appendable-data/metadata/<HANDLE>): the version, \
how many data items and deleted data items it has, whether you own it, and its filter.

Use it to see what a clear did: after `clear-data` the data count moves into the deleted count.",
        after_help = "Example:\n  safe-ad metadata 7\n  7: version 2, data 0, deleted 3, owner yes, filter BlackList (0 keys)"
    )]
    Metadata(HandleArgs),

    /// Get, check, print or revoke the launcher token
    #[command(subcommand)]
    Auth(AuthCommand),

    /// Show or edit the config file
    #[command(subcommand)]
    Config(ConfigCommand),

    /// Print shell completions to stdout
    #[command(
        after_help = "Example:\n  safe-ad completions bash > ~/.local/share/bash-completion/completions/safe-ad"
    )]
    Completions {
        /// The shell to write completions for
        shell: Shell,
    },

    /// Run a local stand-in for the SAFE Launcher (for trying safe-ad and testing scripts)
    #[cfg(feature = "emulator")]
    #[command(
        long_about = "\
Run a local stand-in for the SAFE Launcher, for trying safe-ad and testing scripts in CI.

It listens on loopback only and prints SAFE_LAUNCHER_URL=... and SAFE_LAUNCHER_TOKEN=... lines that a \
shell can eval. With `-- COMMAND [ARGS...]` it starts on a free port, runs COMMAND with those two \
variables in its environment, stops when COMMAND ends and exits with COMMAND's exit code.",
        after_help = "Examples:\n  safe-ad emulator -- sh -c 'safe-ad put 0 && safe-ad clear-data 1 && safe-ad post 1'\n  safe-ad emulator --listen 127.0.0.1:0 > launcher.env &   # then: . ./launcher.env; export SAFE_LAUNCHER_URL SAFE_LAUNCHER_TOKEN"
    )]
    Emulator(crate::emulator::EmulatorArgs),
}

#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Ask the launcher for a token (a person approves it there) and store it in the config file
    #[command(
        long_about = "\
Ask the launcher for a token with the LOW_LEVEL_API permission, and store it in the config file \
(mode 0600).

The launcher shows the request in its window and answers only when a person approves or denies \
it, so this waits without a time limit unless --timeout (or timeout_secs) is set. Ctrl-C cancels.",
        after_help = "Example:\n  safe-ad auth login && safe-ad auth status"
    )]
    Login {
        /// App name the launcher shows to the person approving
        #[arg(long, value_name = "NAME", default_value = "safe-ad")]
        app_name: String,
        /// App id sent to the launcher
        #[arg(long, value_name = "ID", default_value = "safe-ad")]
        app_id: String,
        /// Vendor name the launcher shows
        #[arg(long, value_name = "V", default_value = "safe-ad")]
        vendor: String,
    },
    /// Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it
    Status,
    /// Revoke the token at the launcher and remove it from the config file
    Logout,
    /// Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`
    Token,
}

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print the config file's path
    Path,
    /// Print every setting with its effective value and where it comes from (token masked)
    Show,
    /// Set a key in the config file (for `token`, give `-` and pipe the token in)
    #[command(
        after_help = "Examples:\n  safe-ad config set launcher_url http://127.0.0.1:8100/0.6\n  safe-ad config set timeout_secs 10\n  safe-ad config set token - < token.txt"
    )]
    Set {
        /// The key to set
        key: ConfigKey,
        /// The value; `-` reads it from standard input
        value: String,
    },
    /// Remove a key from the config file
    Unset {
        /// The key to remove
        key: ConfigKey,
    },
}

/// The keys of `config.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ConfigKey {
    #[value(name = "launcher_url")]
    LauncherUrl,
    #[value(name = "token")]
    Token,
    #[value(name = "timeout_secs")]
    TimeoutSecs,
}

impl ConfigKey {
    pub fn name(self) -> &'static str {
        match self {
            ConfigKey::LauncherUrl => "launcher_url",
            ConfigKey::Token => "token",
            ConfigKey::TimeoutSecs => "timeout_secs",
        }
    }
}

#[derive(Debug, Args)]
pub struct ClearArgs {
    /// After a successful clear, save the handle with this operation, so the change reaches the network
    #[arg(long, value_name = "OPERATION")]
    pub save: Option<SaveWith>,

    #[command(flatten)]
    pub handles: HandleArgs,
}

/// The save that follows a clear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SaveWith {
    Post,
    Put,
}

#[derive(Debug, Args)]
pub struct HandleArgs {
    /// Appendable data handles: decimal numbers, 0 to 18446744073709551615; `-` reads them from stdin
    #[arg(required = true, value_name = "HANDLE", allow_negative_numbers = true)]
    pub handles: Vec<OsString>,
}

/// Shells we write completions for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
    Elvish,
    Powershell,
}

/// The parser-facing wrapper of `settings::parse_timeout`, so flag and config file agree.
fn parse_timeout_arg(raw: &str) -> Result<f64, String> {
    crate::settings::parse_timeout(raw)
}

/// The full clap command, with the texts that are written from tables elsewhere.
pub fn command() -> clap::Command {
    Cli::command()
        .after_help(format!(
            "{EXAMPLES}\n\nSee `safe-ad --help` for exit codes, environment and files."
        ))
        .after_long_help(format!(
            "{EXAMPLES}\n\n{}\n\n{}",
            outcome::exit_codes_help(),
            environment_help()
        ))
}

/// Environment variables and files, as help text; the man page has the same facts.
pub fn environment_help() -> String {
    "\
Environment:
  SAFE_LAUNCHER_URL     launcher base URL (after --launcher-url, before the config file)
  SAFE_LAUNCHER_TOKEN   the token (after --token-file, before the config file)
  SAFE_AD_CONFIG_DIR    directory that holds config.json (default: ~/.config/safe-ad on Linux)
  HTTP_PROXY, HTTPS_PROXY, NO_PROXY
                        honoured for a remote launcher; a loopback launcher is always reached directly

Files:
  <config dir>/config.json   JSON object with optional keys launcher_url, token, timeout_secs"
        .to_string()
}

/// Parses the command line. Help and version go to stdout (code 0); a usage error is printed in
/// safe-ad's error format and its exit code (2) is returned.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Cli, u8> {
    use clap::FromArgMatches;
    let matches = command().try_get_matches_from(args);
    let error = match matches.and_then(|m| Cli::from_arg_matches(&m)) {
        Ok(cli) => return Ok(cli),
        Err(error) => error,
    };
    let text = error.render().to_string();
    match error.kind() {
        clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
            crate::report::out(&text);
        }
        clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            crate::report::err(&text);
        }
        _ => {
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            crate::report::err(&format!("safe-ad: error: {text}"));
        }
    }
    Err(u8::try_from(error.exit_code()).unwrap_or(2))
}
