//! The `auth` and `config` commands' clap definitions: logging in and out, the token, and the
//! config file's keys (as clap values, from the one list in `config_file`).

use crate::route::Route;
use clap::builder::PossibleValue;
use clap::{Args, Subcommand, ValueEnum};

use super::options::{Opt, Opts, CONNECT, JSON, OUTPUT, SENDS};
use super::spec::{Reaches, Spec};
use crate::config_file::Key;

/// `safe-ad auth [OPTIONS] <COMMAND>`.
#[derive(Debug, Args)]
pub struct AuthArgs {
    #[command(subcommand)]
    pub command: AuthCommand,
}

#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    Login(LoginArgs),
    Status,
    Logout,
    Token,
    Whoami(WhoamiArgs),
}

/// `auth whoami [--key]`.
#[derive(Debug, Args)]
pub struct WhoamiArgs {
    /// Print your key's 32 bytes in base64 instead, which another person gives `safe-ad filter add`
    #[arg(long)]
    pub key: bool,
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
    Path,
    Show,
    Set(SetArgs),
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

/// `safe-ad auth`.
pub const AUTH: Spec = Spec {
    options: Opts::NONE,
    reaches: Reaches::Group,
    sample: &["status"],
    ..Spec::not_changing("auth", "Get, check, print or revoke the launcher token")
};

/// `safe-ad config`.
pub const CONFIG: Spec = Spec {
    options: Opts::NONE,
    reaches: Reaches::Group,
    sample: &["show"],
    ..Spec::not_changing("config", "Show or edit the config file")
};

/// `safe-ad auth login`.
pub const AUTH_LOGIN: Spec = Spec {
    long_about: Some(
        "\
Ask the launcher for a token with the LOW_LEVEL_API permission, and store it in the config file \
(mode 0600).

The launcher shows the request in its window and answers only when a person approves or denies \
it, so this waits without a time limit unless --timeout (or timeout_secs) is set. Ctrl-C cancels.",
    ),
    after_help: Some("Example:\n  safe-ad auth login && safe-ad auth status"),
    options: Opts::of(&[
        Opt::Profile,
        Opt::LauncherUrl,
        Opt::Timeout,
        Opt::AllowInsecureHttp,
        Opt::Quiet,
        Opt::Color,
    ]),
    reaches: Reaches::Launcher,
    routes: &[&[Route::AuthLogin]],
    ..Spec::not_changing(
        "auth login",
        "Ask the launcher for a token (a person approves it there) and store it in the config file",
    )
};

/// `safe-ad auth status`.
pub const AUTH_STATUS: Spec = Spec {
    options: CONNECT.union(OUTPUT),
    reaches: Reaches::Launcher,
    routes: &[&[Route::AuthStatus]],
    json: Some("settings"),
    ..Spec::not_changing(
        "auth status",
        "Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it",
    )
};

/// `safe-ad auth logout`.
pub const AUTH_LOGOUT: Spec = Spec {
    options: CONNECT.union(Opts::of(&[Opt::Quiet])),
    reaches: Reaches::Launcher,
    routes: &[&[Route::AuthLogout]],
    ..Spec::not_changing(
        "auth logout",
        "Revoke the token at the launcher and remove it from the config file",
    )
};

/// `safe-ad auth token`.
pub const AUTH_TOKEN: Spec = Spec {
    options: Opts::of(&[Opt::Profile, Opt::TokenFile, Opt::Color]),
    reaches: Reaches::Token,
    inert: true,
    ..Spec::not_changing(
        "auth token",
        "Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`",
    )
};

/// `safe-ad auth whoami`.
pub const AUTH_WHOAMI: Spec = Spec {
    long_about: Some(
        "\
Print the fingerprint of your own sign key (GET /sign-key, then its serialised bytes), as `show` \
names signers and filter keys: the first 16 hex digits of the SHA-256 of the launcher's serialised \
key. `show` writes `you` for this key; `--signed-by` takes it like any other fingerprint. The \
sign-key handle it gets is given back. `--key` prints the key itself instead, its 32 bytes in \
base64: what another person pastes to let you append to their data (`safe-ad filter add NAME \
KEY`), or to keep you out. `--json` prints {\"fingerprint\", \"key\"} (the key in base64).",
    ),
    after_help: Some("Examples:\n  safe-ad auth whoami\n  safe-ad auth whoami --key"),
    options: SENDS.union(OUTPUT),
    reaches: Reaches::Launcher,
    leases: true,
    routes: &[&[
        Route::SignKeyOwn,
        Route::SignKeySerialise,
        Route::SignKeyDrop,
    ]],
    json: Some("whoami"),
    ..Spec::not_changing(
        "auth whoami",
        "Print the fingerprint of your own sign key, as `show` names signers and filter keys",
    )
};

/// `safe-ad config path`.
pub const CONFIG_PATH: Spec = Spec {
    options: JSON.union(Opts::of(&[Opt::Color])),
    json: Some("settings"),
    inert: true,
    ..Spec::not_changing("config path", "Print the config file's path")
};

/// `safe-ad config show`.
pub const CONFIG_SHOW: Spec = Spec {
    options: Opts::of(&[
        Opt::Profile,
        Opt::LauncherUrl,
        Opt::TokenFile,
        Opt::Timeout,
        Opt::Color,
    ])
    .union(JSON),
    json: Some("settings"),
    inert: true,
    ..Spec::not_changing(
        "config show",
        "Print every setting with its effective value and where it comes from (token masked)",
    )
};

/// `safe-ad config set`.
pub const CONFIG_SET: Spec = Spec {
    after_help: Some("Examples:\n  safe-ad config set launcher_url http://127.0.0.1:8100/0.6\n  safe-ad config set timeout_secs 10\n  safe-ad config set token - < token.txt\n  safe-ad config set --profile real read_only true"),
    options: Opts::of(&[Opt::Profile, Opt::Quiet, Opt::Color]),
    sample: &["timeout_secs", "5"],
    ..Spec::not_changing(
        "config set",
        "Set a key in the config file, or in a profile with --profile (for `token`, give `-` and pipe the token in)",
    )
};

/// `safe-ad config unset`.
pub const CONFIG_UNSET: Spec = Spec {
    options: Opts::of(&[Opt::Profile, Opt::Quiet, Opt::Color]),
    sample: &["timeout_secs"],
    ..Spec::not_changing("config unset", "Remove a key from the config file")
};
