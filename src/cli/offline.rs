//! The commands that reach no launcher, with their specs: `decode` reads serialised bytes,
//! `completions` prints a shell's completions, `man` a man page.

use clap::{Args, ValueEnum};

use super::options::{Opt, Opts, JSON};
use super::spec::{Man, Names, Reaches, Spec};

/// `decode [BYTES|-]`.
#[derive(Debug, Args)]
pub struct DecodeCommand {
    /// The bytes, as base64 or hex; `-` (or nothing) reads raw bytes from standard input
    #[arg(value_name = "BYTES")]
    pub bytes: Option<String>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write completions for
    pub shell: Shell,
}

/// `man [COMMAND...]`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print (`remove`, `auth status`); none for safe-ad's own page
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
    /// Print the roff on a terminal too, rather than show the page with `man -l -`
    #[arg(long)]
    pub roff: bool,
    /// List every page instead: its file name, then the words of its command, one page a line
    #[arg(long, conflicts_with_all = ["command", "roff"])]
    pub list: bool,
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

/// `safe-ad decode`.
pub const DECODE: Spec = Spec {
    path: "decode",
    about: "Say what serialised bytes hold: a data id, a sign key or an appendable data (offline)",
    long_about: Some(
        "\
Say what serialised bytes hold, without a launcher: a data id (what it points at: its kind, \
name and type tag), a sign key (its fingerprint, as `show` gives it), or a whole appendable data \
(its version, filter, owners, and each data and deleted item decoded).

The bytes are those the launcher's serialise routes give (GET /data-id/<DATA-ID>, \
GET /sign-key/serialise/<KEY>, GET /appendable-data/serialise/<HANDLE>) in launcher 0.11.0's \
layout, given as base64 or hex, or as raw bytes on standard input (`-`, or no argument). Which \
of the three they are is told from the bytes. Bytes in another layout are refused (exit 2) with \
what was expected where.",
    ),
    after_help: Some("Examples:\n  safe-ad decode AQAAAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB\n  safe-ad decode --json \"$data_id\"\n  echo \"$data_id\" | base64 -d | safe-ad decode"),
    usage: None,
    man: Man::NONE,
    options: JSON.union(Opts::of(&[Opt::Color])),
    reaches: Reaches::Nothing,
    names: Names::NoHandle,
    leases: false,
    routes: &[],
    json: Some("decode"),
    sample: &["AQAAAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB"],
    inert: true,
    changes: false,
};

/// `safe-ad completions`.
pub const COMPLETIONS: Spec = Spec {
    path: "completions",
    about: "Print shell completions to stdout",
    long_about: None,
    after_help: Some(
        "Example:\n  safe-ad completions bash > ~/.local/share/bash-completion/completions/safe-ad",
    ),
    usage: None,
    man: Man::NONE,
    options: Opts::of(&[Opt::Color]),
    reaches: Reaches::Nothing,
    names: Names::NoHandle,
    leases: false,
    routes: &[],
    json: None,
    sample: &["bash"],
    inert: true,
    changes: false,
};

/// `safe-ad man`.
pub const MAN: Spec = Spec {
    path: "man",
    about: "Print the man page of safe-ad or of a command (roff)",
    long_about: Some(
        "\
Print the man page of safe-ad, or of the command named (`safe-ad man remove`, `safe-ad man auth \
status`), as roff on standard output: the pages the Debian package installs, for a system \
where they are not installed.

On a terminal it shows the page with `man -l -` instead, where `man` is installed (and prints \
the roff where it is not); `--roff` prints the roff there too. `--list` names each page with its \
command, one a line, for a loop that installs them all. A command that does not exist is \
refused (exit 2).",
    ),
    after_help: Some(
        "Examples:\n  safe-ad man remove\n  safe-ad man auth status > safe-ad-auth-status.1\n  safe-ad man --list",
    ),
    usage: None,
    man: Man::NONE,
    options: Opts::of(&[Opt::Color]),
    reaches: Reaches::Nothing,
    names: Names::NoHandle,
    leases: false,
    routes: &[],
    json: None,
    sample: &["remove"],
    inert: true,
    changes: false,
};
