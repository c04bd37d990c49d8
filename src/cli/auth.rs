//! The `auth` and `config` commands' clap definitions: logging in and out, the token, and the
//! config file's keys (as clap values, from the one list in `config_file`).

use clap::builder::PossibleValue;
use clap::{Args, Subcommand, ValueEnum};

use crate::config_file::Key;

/// `safe-ad auth [OPTIONS] <COMMAND>`.
#[derive(Debug, Args)]
pub struct AuthArgs {
    #[command(subcommand)]
    pub command: AuthCommand,
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
    Login(LoginArgs),
    /// Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it
    Status,
    /// Revoke the token at the launcher and remove it from the config file
    Logout,
    /// Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`
    Token,
    /// Print the fingerprint of your own sign key, as `show` names signers and filter keys
    #[command(
        long_about = "\
Print the fingerprint of your own sign key (GET /sign-key, then its serialised bytes), as `show` \
names signers and filter keys: the first 16 hex digits of the SHA-256 of the launcher's serialised \
key. `show` writes `you` for this key; `--signed-by` takes it like any other fingerprint. The \
sign-key handle it gets is given back. `--json` prints {\"fingerprint\", \"key\"} (the key's 32 \
bytes in base64).",
        after_help = "Example:\n  safe-ad auth whoami"
    )]
    Whoami,
}

#[derive(Debug, Args)]
pub struct LoginArgs {
    /// App name the launcher shows to the person approving
    #[arg(long, value_name = "NAME", default_value = "safe-ad")]
    pub app_name: String,
    /// App id sent to the launcher
    #[arg(long, value_name = "ID", default_value = "safe-ad")]
    pub app_id: String,
    /// Vendor name the launcher shows
    #[arg(long, value_name = "V", default_value = "safe-ad")]
    pub vendor: String,
}

/// `safe-ad config <COMMAND>`.
#[derive(Debug, Args)]
pub struct ConfigArgs {
    #[command(subcommand)]
    pub command: ConfigCommand,
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
    Set(SetArgs),
    /// Remove a key from the config file
    Unset(UnsetArgs),
}

#[derive(Debug, Args)]
pub struct SetArgs {
    /// The key to set
    pub key: Key,
    /// The value; `-` reads it from standard input
    pub value: String,
}

#[derive(Debug, Args)]
pub struct UnsetArgs {
    /// The key to remove
    pub key: Key,
}

/// The config file's keys as clap values, straight from the one list in `config_file`.
impl ValueEnum for Key {
    fn value_variants<'a>() -> &'a [Self] {
        &Key::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(self.about()))
    }
}
