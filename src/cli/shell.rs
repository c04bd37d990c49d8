//! `shell`: runs lines of safe-ad commands in one process, with its spec.

use std::path::PathBuf;

use clap::Args;

use super::options::{Opt, Opts};
use super::spec::{Names, Reaches, Spec};

/// `shell [-c LINES | FILE] [--keep-going]`.
#[derive(Debug, Args)]
pub struct ShellArgs {
    /// Run these lines (commands separated by newlines or `;`) instead of reading a script
    #[arg(
        short = 'c',
        long = "command",
        value_name = "LINES",
        conflicts_with = "file"
    )]
    pub lines: Option<String>,
    /// Run every line, even after one failed; the exit code is the first failure's
    #[arg(long)]
    pub keep_going: bool,
    /// The script to run (`-` for standard input, as with no FILE and no -c)
    #[arg(value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub file: Option<PathBuf>,
}

/// `safe-ad shell`.
pub const SHELL: Spec = Spec {
    path: "shell",
    about: "Run a script of safe-ad commands in one process, one command a line",
    long_about: Some(
        "\
Run a script of safe-ad commands in one process, one command a line: from -c LINES, from FILE, \
or from standard input when it is not a terminal. (The interactive shell is not built yet.)

Each line is split into words as sh splits them (single and double quotes, backslash escapes) \
and is what it would be after `safe-ad` on the command line: the same commands, options, output, \
errors and exit codes. Commands end at a newline or an unquoted `;`; blank lines and `#` \
comments are skipped; an unbalanced quote refuses the whole script before any line runs (exit 2, \
naming its line).

The script stops at the first line that fails, with that line's exit code, and says which line \
it was; with --keep-going every line runs and the exit code is the first failure's. A stop \
signal (Ctrl-C, SIGTERM, SIGHUP) stops the running line as it stops that command, and ends the \
script with 130. `exit [N]` ends the script (with N, else as it stands).

A line `NAME = COMMAND ...` runs the command and keeps what it printed on standard output, with \
the ends trimmed, in the variable NAME; `$NAME` or `${NAME}` on a later line is replaced by it \
(inside double quotes too, not inside single quotes). An unquoted `$NAME` alone as a word is \
split at whitespace, as in sh, so a variable holding several handles gives several words. A \
variable never set is an error (exit 2).

The client options given to `shell` (--json, --timeout, --launcher-url, ...) apply to every line \
whose command takes them, unless the line gives its own.

A script read from standard input is read whole first, which leaves nothing there for its lines: \
a line that reads standard input (`append --immutable -`, `decode -`) reads nothing. Give such a \
script with -c or as FILE.",
    ),
    after_help: Some(
        "Examples:\n  safe-ad shell -c 'h = create --put; metadata $h; drop $h'\n  printf 'metadata 1\\nmetadata 2\\n' | safe-ad shell --keep-going --json",
    ),
    usage: None,
    options: Opts::of(&Opt::ALL),
    reaches: Reaches::Launcher,
    names: Names::NoHandle,
    leases: false,
    routes: &[],
    // Its lines print their commands' objects; its sample's (`metadata`) are steps.
    json: Some("step"),
    sample: &["-c", "metadata 1"],
};
