//! The emulator's own command-line options. They are the emulator's alone: none of the client's
//! options (launcher URL, token, output flags) is offered or accepted here.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueHint};

/// `safe-ad emulator [OPTIONS] [-- COMMAND [ARGS...]]`, or `safe-ad emulator requests ...`.
#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    disable_help_subcommand = true
)]
pub struct EmulatorArgs {
    #[command(subcommand)]
    pub action: Option<EmulatorAction>,

    /// Address to listen on; loopback only (use 127.0.0.1:0 for a free port)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8100", value_hint = ValueHint::Other)]
    pub listen: String,

    /// Accept the token on FILE's first line
    ///
    /// Without it (or --token), a random token is made and printed.
    #[arg(long, value_name = "FILE", conflicts_with = "token", value_hint = ValueHint::FilePath)]
    pub token_file: Option<PathBuf>,

    /// Accept this token (shown in the process list)
    ///
    /// Local users see it in the process list: prefer --token-file.
    #[arg(long, value_name = "TOKEN", value_hint = ValueHint::Other)]
    pub token: Option<String>,

    /// Start with no demo data
    #[arg(long)]
    pub empty: bool,

    /// Load the network from FILE; save it back on a clean stop
    ///
    /// A FILE that does not exist yet starts empty and is created. No demo data is loaded, and no
    /// handles are kept across runs (the launcher lost them on restart too). A symlink is followed
    /// (its target is written; the link stays), and the file is locked while the emulator runs: a
    /// second emulator on it is refused. The format is under STATE FILE in safe-ad-emulator(1).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub state: Option<PathBuf>,

    /// Load the network from FILE, a fixture, and never write it
    ///
    /// For CI: the file a job commits stays as it is, whatever the run changes (--state saves
    /// back instead). No demo data is loaded and no handles are kept. The file must exist; it is
    /// read once at start, and checked as --state is (an error names the entry:
    /// `appendableData[2].data[0]: missing field ...`). `safe-ad emulator export` writes one
    /// from a running emulator.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["state", "empty"],
        value_hint = ValueHint::FilePath
    )]
    pub import: Option<PathBuf>,

    /// Write one JSON record per request to FILE
    ///
    /// An existing FILE is truncated: the file holds this run only. Each record has the method,
    /// path, status, time and live handles. The last line is the stop record, with the counts of
    /// the whole run. A record that cannot be written (a full disk, a
    /// reader that stopped reading) is counted as lost, said on stderr, and makes the exit code 1.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub log: Option<PathBuf>,

    /// No request lines, demo description or totals on stderr (errors only)
    #[arg(long, short = 'q')]
    pub quiet: bool,

    /// Match paths exactly, without the launcher's leeway
    ///
    /// No trailing slash, exact case, no escapes, plain decimal handles. The launcher (Express) let one trailing slash, any case of the literal segments and
    /// percent-escapes through, and read handles with C strtoull (so `-1`, `010` and `12abc` were
    /// handles). This flag refuses all of those, to catch clients that build odd paths.
    #[arg(long)]
    pub strict_paths: bool,

    /// Deny every POST /auth (a user who clicks "deny")
    #[arg(long)]
    pub deny_auth: bool,

    /// Never answer a clear of an unknown handle, as the real launcher did
    #[arg(long, hide_short_help = true)]
    pub hang_unknown_clears: bool,

    /// Fault this share (0 to 1) of requests
    ///
    /// Injects a fault into this share of the operation and metadata requests: each gets, with
    /// probability P, one of: a 503 with a launcher-style JSON body, a connection closed without
    /// an answer, or a 50-300 ms delay before its normal answer. Faults are logged as `(injected)`, and the totals are printed on stop.
    #[arg(
        long,
        value_name = "P",
        value_hint = ValueHint::Other,
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub fault_rate: f64,

    /// Seed of the fault sequence (the same seed, the same faults)
    ///
    /// The same seed gives the same faults in the same request order.
    ///
    /// The default is a fixed seed (1), so two runs without this flag inject the same faults too.
    #[arg(
        long,
        value_name = "N",
        value_hint = ValueHint::Other,
        default_value_t = 1,
        allow_negative_numbers = true,
        hide_short_help = true
    )]
    pub fault_seed: u64,

    /// Detach once it listens and print its variables
    ///
    /// The emulator runs on as a process of its own (its own session; it holds none of the
    /// caller's input and output, so a CI step that starts it ends). Once it listens, this prints
    /// SAFE_LAUNCHER_URL, SAFE_LAUNCHER_TOKEN, SAFE_AD_EMULATOR_PID and SAFE_AD_EMULATOR_DIR (see
    /// --format) and exits 0. If it cannot start, this exits with its exit code and message, and
    /// nothing runs on. Its stderr goes to $SAFE_AD_EMULATOR_DIR/stderr: what it said while
    /// starting is shown now, the rest by --stop.
    #[arg(long, conflicts_with_all = ["command", "stop"])]
    pub background: bool,

    /// Variables as sh (for eval) or env (NAME=VALUE)
    ///
    /// With --background: `sh` (the default) prints `export NAME='VALUE'` lines for
    /// `eval "$(safe-ad emulator --background)"`; `env` prints NAME=VALUE lines to append to an
    /// env file such as GitHub's $GITHUB_ENV.
    #[arg(
        long,
        value_name = "FORMAT",
        requires = "background",
        value_parser = ["sh", "env"],
        hide_possible_values = true
    )]
    pub format: Option<String>,

    /// Stop it if it does not listen within SECS (30)
    ///
    /// With --background: a --log FIFO nobody reads, or a --token-file nobody writes, would keep
    /// it waiting for ever; after SECS (1 to 3600, default 30) it is stopped and this exits 1.
    #[arg(
        long,
        value_name = "SECS",
        requires = "background",
        value_hint = ValueHint::Other,
        value_parser = clap::value_parser!(u64).range(1..=3600)
    )]
    pub ready_timeout: Option<u64>,

    /// Stop the emulator that --background started
    ///
    /// The one SAFE_AD_EMULATOR_PID and SAFE_AD_EMULATOR_DIR name (or --pid, or --all; with
    /// none of them, the only one of yours `emulator list` shows). It stops as on SIGTERM (so
    /// --state is saved and --log ends with its stop record), its stderr is shown, and this exits
    /// with its exit code: 1 if it could not save or log. A process that is not that emulator (a
    /// process id used again) is never signalled: that, and an emulator that was not running, is
    /// exit 1. Only a directory --background made is removed, and only the files it wrote there.
    #[arg(
        long,
        conflicts_with_all = [
            "listen", "token_file", "token", "empty", "state", "import", "log", "quiet", "strict_paths",
            "deny_auth", "hang_unknown_clears", "fault_rate", "fault_seed", "background",
            "format", "ready_timeout", "command",
        ]
    )]
    pub stop: bool,

    /// With --stop: stop the background emulator of yours that runs as this process
    #[arg(
        long,
        value_name = "PID",
        requires = "stop",
        hide_short_help = true,
        value_hint = ValueHint::Other,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub pid: Option<u32>,

    /// With --stop: stop every background emulator of yours (`emulator list` lists them)
    #[arg(
        long,
        requires = "stop",
        conflicts_with = "pid",
        hide_short_help = true
    )]
    pub all: bool,

    /// With --stop: exit 0 with a note when no emulator was started
    ///
    /// For the always-run step of a CI job: when the variables are not set (this never stops an
    /// emulator nothing named, and lists those of yours that run), or name a run directory that
    /// is gone (the start failed, or an earlier --stop stopped it), this says so and exits 0. A
    /// running emulator is stopped as --stop stops it.
    #[arg(long, requires = "stop")]
    pub if_running: bool,

    /// Run this command against the emulator, then stop and exit with its exit code
    #[arg(last = true, value_name = "COMMAND", value_hint = ValueHint::CommandWithArguments)]
    pub command: Vec<OsString>,
}

/// What `safe-ad emulator` does besides running one: its subcommands.
#[derive(Debug, Subcommand)]
pub enum EmulatorAction {
    /// Print, count or check the requests a running emulator answered (its journal)
    #[command(
        long_about = "\
Print, count or check the requests a running emulator answered: its journal, read from \
GET /_emulator/requests of the emulator that SAFE_LAUNCHER_URL and SAFE_LAUNCHER_TOKEN name (as \
`--background` printed them), so any later step of a CI job can say what the script under test \
sent.

Records are printed one JSON object a line (a short table on a terminal), oldest first, with the \
keys of the --log records: seq, method, path, status, error_code, description, elapsed_ms, ... \
The filters all apply together. `--count` prints how many matched; `--expect` checks that number \
and exits 1 when it is not met, listing on stderr what matched (at most 20), so a failing step \
says why in its own log. A journal keeps the last 16 MiB of requests; when it dropped older ones \
this says how many, and `--expect` fails rather than count short.",
        after_help = "Examples:\n  safe-ad emulator requests --method PUT --path '/appendable-data/*' --count\n  safe-ad emulator requests --status 4xx --expect 0\n  mark=$(safe-ad emulator requests | tail -n 1)\n  safe-ad emulator requests --since \"$mark\" --count"
    )]
    Requests(Box<RequestsArgs>),

    /// Write what a running emulator holds as a fixture, for --import (or --state)
    #[command(
        long_about = "\
Write what a running emulator holds on its network as a fixture: the state file that \
`safe-ad emulator --import FILE` (or --state FILE) loads back to the same network. It is read \
from GET /_emulator/network of the emulator that SAFE_LAUNCHER_URL and SAFE_LAUNCHER_TOKEN name \
(as --background printed them), as `emulator requests` reads the journal.

Appendable, structured and immutable data are all written; an immutable data's name, which the \
emulator computes from its content and cipher, is left out (so the file can be edited by hand). \
Handles are not part of it. FILE is replaced whole and atomically (a new file beside it, renamed \
over it), keeping its permissions; a FILE that is a symbolic link or not a regular file is \
refused before anything is sent. Without FILE, or with `-`, the fixture goes to standard output.",
        after_help = "Examples:\n  safe-ad emulator export fixture.json\n  safe-ad emulator --background --import fixture.json"
    )]
    Export(ExportArgs),

    /// List your background emulators: process, URL, start, fixture, directory
    #[command(
        long_about = "\
List the background emulators of yours that run (those `safe-ad emulator --background` started, \
found by their run directories in $TMPDIR or /tmp): each one's process id, URL, when it started \
(UTC), the fixture it loaded (--import or --state) and its run directory, oldest first. \
`safe-ad emulator --stop --pid PID` stops one of them, `--stop --all` every one. With --json, one \
JSON object a line.",
        after_help = "Examples:\n  safe-ad emulator list\n  safe-ad emulator --stop --pid \"$(safe-ad emulator list --json | jq -r .pid | head -n 1)\""
    )]
    List,
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
