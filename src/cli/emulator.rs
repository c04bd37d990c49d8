//! The `emulator` command's place in the client's tree: the emulator's own options (its crate's
//! `EmulatorArgs`, flattened in) beside the subcommands that are the client's: `requests` and
//! `export` read a running emulator as its clients (see `commands::journal` and
//! `commands::export`), `list` lists the user's background emulators, and `env` prints one's
//! variables again.

use crate::route::Route;
use std::path::PathBuf;

use super::options::{Opt, Opts, CONNECT, JSON};
use super::spec::{Reaches, Spec};
use clap::{Args, Subcommand, ValueHint};
use safe_ad_emulator::EmulatorArgs;

/// `safe-ad emulator [OPTIONS] [-- COMMAND [ARGS...]]`, or `safe-ad emulator requests ...`.
#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    disable_help_subcommand = true
)]
pub struct EmulatorCommand {
    #[command(subcommand)]
    pub action: Option<EmulatorAction>,

    // A run of the emulator: its own options, which its crate defines.
    #[command(flatten)]
    pub run: EmulatorArgs,
}

/// What `safe-ad emulator` does besides running one: its subcommands.
#[derive(Debug, Subcommand)]
pub enum EmulatorAction {
    Requests(Box<RequestsArgs>),

    Export(ExportArgs),

    List,

    Env(EnvArgs),
}

/// `safe-ad emulator env [--pid PID] [--user NAME] [--format FORMAT]`.
#[derive(Debug, Args)]
pub struct EnvArgs {
    /// The background emulator of yours that runs as this process (`emulator list` lists them)
    #[arg(
        long,
        value_name = "PID",
        value_hint = ValueHint::Other,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub pid: Option<u32>,

    /// This user's variables (its URL and token), for an emulator started with --user
    ///
    /// The same four variables, SAFE_LAUNCHER_URL and SAFE_LAUNCHER_TOKEN being that user's, so
    /// that `eval "$(safe-ad emulator env --user bob)"` makes the shell's commands bob's. A name
    /// the emulator does not serve is exit 1 (`emulator list` names each one's users).
    #[arg(long, value_name = "NAME", value_hint = ValueHint::Other)]
    pub user: Option<String>,

    /// Variables as sh (for eval) or env (NAME=VALUE), as --background's --format
    ///
    /// `sh` (the default) prints `export NAME='VALUE'` lines for
    /// `eval "$(safe-ad emulator env)"`; `env` prints NAME=VALUE lines to append to an env file.
    #[arg(
        long,
        value_name = "FORMAT",
        value_parser = ["sh", "env"],
        hide_possible_values = true
    )]
    pub format: Option<String>,
}

/// `safe-ad emulator export [FILE|-]`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Where to write the fixture (`-` or none: standard output)
    #[arg(value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub file: Option<PathBuf>,
}

/// `safe-ad emulator requests [OPTIONS]`.
#[derive(Debug, Args)]
pub struct RequestsArgs {
    /// Only requests with this method (any case)
    #[arg(long, value_name = "METHOD", value_hint = ValueHint::Other)]
    pub method: Option<String>,

    /// Only requests whose path matches GLOB: a star within a segment, two stars across them
    #[arg(long, value_name = "GLOB", value_hint = ValueHint::Other)]
    pub path: Option<String>,

    /// Only requests answered with this status (`404`), or this class of status (`4xx`)
    #[arg(long, value_name = "STATUS", value_hint = ValueHint::Other)]
    pub status: Option<String>,

    /// Only requests whose answer carried this launcher error code (`-23`)
    #[arg(
        long,
        value_name = "N",
        value_hint = ValueHint::Other,
        allow_negative_numbers = true
    )]
    pub error_code: Option<i64>,

    /// Only failed requests that are not answers: every change that failed, and every read
    /// that failed but those that found the data not on the network
    ///
    /// Failed: answered 4xx or 5xx, or not answered at all. A read of data by its data id that
    /// the launcher answered NoSuchData (its record has `"not_on_network":true`) is the network's
    /// answer, not a failure: `show` and `status` read the data each item points at and say
    /// "not on the network" of what is not there, exiting 0. So `--failed --expect 0` holds for
    /// a script whose every command exited 0, and fails when a command was refused (a save of a
    /// stale copy, an index out of range, an unknown handle).
    #[arg(long)]
    pub failed: bool,

    /// Only requests after RECORD: its seq number, or the record's own line as printed
    ///
    /// For "what did this step send": keep the last line before the step
    /// (`mark=$(safe-ad emulator requests | tail -n 1)`) and pass it after (`--since "$mark"`).
    /// An empty RECORD (an empty journal) means from the start.
    #[arg(long, value_name = "RECORD", value_hint = ValueHint::Other)]
    pub since: Option<String>,

    /// Print how many requests matched, instead of the requests
    #[arg(long, conflicts_with = "expect")]
    pub count: bool,

    /// Exit 0 when the number of matches is N (or `>=N`, `<=N`, `>N`, `<N`), else 1
    ///
    /// The verdict goes to stderr, with the requests that matched (at most 20) when it is not
    /// met; nothing is printed on stdout. A journal that dropped older requests cannot be
    /// trusted for a count: that fails too.
    #[arg(long, value_name = "N", value_hint = ValueHint::Other)]
    pub expect: Option<String>,

    /// Empty the journal (after printing, counting or checking, when one is asked for)
    ///
    /// Only what was read is cleared: a request answered meanwhile stays for the next read.
    #[arg(long)]
    pub clear: bool,
}

/// `safe-ad emulator`.
pub const EMULATOR: Spec = Spec {
    long_about: Some(
        "\
Run a local stand-in for the SAFE Launcher, for trying safe-ad and testing scripts in CI.

It listens on loopback only and prints SAFE_LAUNCHER_URL=... and SAFE_LAUNCHER_TOKEN=... lines that a \
shell can eval. With `-- COMMAND [ARGS...]` it starts on a free port, runs COMMAND with those two \
variables in its environment, stops when COMMAND ends and exits with COMMAND's exit code.

With --user NAME (repeated), each user is a launcher of its own on one network (its own port, \
token, sign key and handles), refusing between users what the network refused; the first user's \
are SAFE_LAUNCHER_URL and SAFE_LAUNCHER_TOKEN, and every named user's are also \
SAFE_AD_EMULATOR_USER_<NAME>_URL and _TOKEN (printed, and given to COMMAND).",
    ),
    after_help: Some("Examples:\n  safe-ad emulator -- sh -c 'safe-ad clear-data --save post 1'\n  eval \"$(safe-ad emulator --background --listen 127.0.0.1:0)\"\n  safe-ad create --put\n  safe-ad emulator --stop"),
    man: super::emulator_man::EMULATOR_MAN,
    options: Opts::NONE,
    reaches: Reaches::Emulator,
    sample: &["--listen", "127.0.0.1:0", "--", "true"],
    ..Spec::not_changing(
        "emulator",
        "Run a local stand-in for the SAFE Launcher (for trying safe-ad and testing scripts)",
    )
};

/// `safe-ad emulator requests`.
pub const EMULATOR_REQUESTS: Spec = Spec {
    long_about: Some(
        "\
Print, count or check the requests a running emulator answered: its journal, read from \
GET /_emulator/requests of the emulator that SAFE_LAUNCHER_URL and SAFE_LAUNCHER_TOKEN name (as \
`--background` printed them), so any later step of a CI job can say what the script under test \
sent.

Records are printed one JSON object a line (a short table on a terminal), oldest first, with the \
keys of the --log records: seq, method, path, effect (read or change), status, error_code, \
description, not_on_network, elapsed_ms, ... The filters all apply together; `--failed` keeps the \
failed requests but reads that found the data not on the network, which `show` and `status` \
report without failing, so `--failed --expect 0` is the check for a CI job. `--count` prints how many matched; `--expect` checks that number \
and exits 1 when it is not met, listing on stderr what matched (at most 20), so a failing step \
says why in its own log. A journal keeps the last 16 MiB of requests; when it dropped older ones \
this says how many, and `--expect` fails rather than count short.",
    ),
    after_help: Some("Examples:\n  safe-ad emulator requests --method PUT --path '/appendable-data/*' --count\n  safe-ad emulator requests --failed --expect 0\n  mark=$(safe-ad emulator requests | tail -n 1)\n  safe-ad emulator requests --since \"$mark\" --count"),
    options: CONNECT.union(JSON).union(Opts::of(&[Opt::Quiet])),
    reaches: Reaches::Launcher,
    routes: &[&[Route::EmulatorJournal, Route::EmulatorJournalClear]],
    json: Some("journal"),
    sample: &["--count"],
    ..Spec::not_changing(
        "emulator requests",
        "Print, count or check the requests a running emulator answered (its journal)",
    )
};

/// `safe-ad emulator export`.
pub const EMULATOR_EXPORT: Spec = Spec {
    long_about: Some(
        "\
Write what a running emulator holds on its network as a fixture: the state file that \
`safe-ad emulator --import FILE` (or --state FILE) loads back to the same network. It is read \
from GET /_emulator/network of the emulator that SAFE_LAUNCHER_URL and SAFE_LAUNCHER_TOKEN name \
(as --background printed them), as `emulator requests` reads the journal.

Appendable, structured and immutable data are all written; an immutable data's name, which the \
emulator computes from its content and cipher, is left out (so the file can be edited by hand). \
Handles are not part of it. FILE is replaced whole and atomically (a new file beside it, renamed \
over it), keeping its permissions; a FILE that is a symbolic link or not a regular file, or \
whose directory does not exist or cannot be written, is refused before anything is sent. A \
write that fails (a full disk, the file-size limit) leaves the old file and no new one, and is \
exit 1. Without FILE, or with `-`, the fixture goes to standard output.",
    ),
    // Each line fits 80 columns: the help example test runs them as printed.
    after_help: Some("Examples:\n  safe-ad emulator export net.json\n  eval \"$(safe-ad emulator --background --listen 127.0.0.1:0 --import net.json)\"\n  safe-ad emulator --stop"),
    options: CONNECT.union(Opts::of(&[Opt::Quiet])),
    reaches: Reaches::Launcher,
    routes: &[&[Route::EmulatorNetwork]],
    sample: &["-"],
    ..Spec::not_changing(
        "emulator export",
        "Write what a running emulator holds as a fixture, for --import (or --state)",
    )
};

/// `safe-ad emulator list`.
pub const EMULATOR_LIST: Spec = Spec {
    long_about: Some(
        "\
List the background emulators of yours that run (those `safe-ad emulator --background` started, \
found by their run directories in $TMPDIR or /tmp): each one's process id, URL, when it started \
(UTC), the fixture it loaded (--import or --state), its run directory and, when one of them \
serves named users (--user), each one's users, oldest first; a control or bidi character in a \
path is shown escaped. A directory an emulator holds that fails a \
check `--stop` makes is left out, and stderr says which check. `safe-ad emulator --stop --pid PID` \
stops one of them, `--stop --all` every one. With --json, one JSON object a line.",
    ),
    after_help: Some("Examples:\n  eval \"$(safe-ad emulator --background --quiet --listen 127.0.0.1:0)\"\n  safe-ad emulator list\n  safe-ad emulator --stop --pid \"$(safe-ad emulator list --json | jq -r .pid | head -n 1)\""),
    options: JSON.union(Opts::of(&[Opt::Color])),
    json: Some("emulators"),
    inert: true,
    ..Spec::not_changing(
        "emulator list",
        "List your background emulators: pid, URL, start, fixture, directory, users",
    )
};

/// `safe-ad emulator env`.
pub const EMULATOR_ENV: Spec = Spec {
    long_about: Some(
        "\
Print again the variables `safe-ad emulator --background` printed (SAFE_LAUNCHER_URL, \
SAFE_LAUNCHER_TOKEN, SAFE_AD_EMULATOR_PID and SAFE_AD_EMULATOR_DIR), for a shell that lost them: \
`eval \"$(safe-ad emulator env)\"`. --format sh (the default) prints `export NAME='VALUE'` lines, \
--format env NAME=VALUE lines, as --background's --format does.

It is for the only background emulator of yours that runs (`emulator list` lists them), or the \
one --pid names; when several run and no --pid is given, they are listed and this exits 2, and \
when none runs it exits 1. The token is read from the emulator's run directory, and only from one \
that passes the checks `--stop` makes (a directory --background made, of yours, mode 0700, held \
open by that running process); its token file must be a regular file of yours with mode 0600, \
never a link and with no second name (a hard link), and the URL its `about` file gives must be \
the loopback http://ADDRESS:PORT an emulator listens on. A directory an emulator holds that fails \
a check is left out, and the error names the check. The token is printed in the variables on \
stdout and nowhere else.

With --user NAME, the four variables are that user's (an emulator started with --user serves \
each user as a launcher of its own): SAFE_LAUNCHER_URL and SAFE_LAUNCHER_TOKEN are its URL and \
token, read from the run directory's `about` and `tokens` files with the same checks, so \
`eval \"$(safe-ad emulator env --user bob)\"` makes the shell's commands bob's. A name the \
emulator does not serve is exit 1.",
    ),
    after_help: Some("Examples:\n  eval \"$(safe-ad emulator --background --quiet --listen 127.0.0.1:0)\"\n  eval \"$(safe-ad emulator env --pid \"$SAFE_AD_EMULATOR_PID\")\"\n  safe-ad emulator env --pid \"$SAFE_AD_EMULATOR_PID\" --format env > vars.env\n  safe-ad emulator --stop"),
    options: Opts::of(&[Opt::Color]),
    sample: &["--pid", "1"],
    inert: true,
    ..Spec::not_changing(
        "emulator env",
        "Print a background emulator's variables again, as --background did",
    )
};
