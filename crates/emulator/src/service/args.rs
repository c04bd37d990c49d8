//! The emulator's own command-line options. They are the emulator's alone: none of the client's
//! options (launcher URL, token, output flags) is offered or accepted here. The client flattens
//! them into its `emulator` command, beside that command's subcommands (`requests`, `export`,
//! `list`), which are the client's.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, ValueHint};

/// `safe-ad emulator [OPTIONS] [-- COMMAND [ARGS...]]`.
#[derive(Debug, Args)]
pub struct EmulatorArgs {
    /// Loopback address to listen on (127.0.0.1:0: a free port)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8100", value_hint = ValueHint::Other)]
    pub(crate) listen: String,

    /// Accept the token FILE holds
    ///
    /// FILE holds the token alone, on one line, as the client's --token-file does (blank lines
    /// and spaces around it are fine; a second line, whitespace inside it or anything but
    /// printable ASCII is refused). It may be a pipe (`<(...)`), not a named FIFO, socket or
    /// device. Without it (or --token), a random token is made and printed.
    #[arg(long, value_name = "FILE", conflicts_with = "token", value_hint = ValueHint::FilePath)]
    pub(crate) token_file: Option<PathBuf>,

    /// Accept this token (shown in the process list)
    ///
    /// Local users see it in the process list: prefer --token-file.
    #[arg(long, value_name = "TOKEN", value_hint = ValueHint::Other)]
    pub(crate) token: Option<String>,

    /// Serve a user of this name, a launcher of its own (repeat for more)
    ///
    /// Each user is a launcher of its own on one shared network: its own port, token, sign key
    /// and handles. The first is the one SAFE_LAUNCHER_URL and SAFE_LAUNCHER_TOKEN name (it
    /// listens on --listen and takes --token); each other one listens on a free port of its own.
    /// NAME is 1 to 32 lowercase letters, digits and _, beginning with a letter. Every user's
    /// variables are SAFE_AD_EMULATOR_USER_<NAME>_URL and _TOKEN (printed with the first two, and
    /// given to COMMAND); `safe-ad emulator env --user NAME` prints one's for --background. A
    /// --state or --import file keeps its users and their keys, and serves them too. Without
    /// it, one unnamed user, as the launcher was.
    #[arg(long = "user", value_name = "NAME", value_hint = ValueHint::Other)]
    pub(crate) users: Vec<String>,

    /// Start with no demo data
    #[arg(long)]
    pub(crate) empty: bool,

    /// Load the network from FILE; save it back on a clean stop
    ///
    /// A FILE that does not exist yet starts empty and is created. No demo data is loaded, and no
    /// handles are kept across runs (the launcher lost them on restart too). A symlink is followed
    /// (its target is written; the link stays), and the file is locked while the emulator runs: a
    /// second emulator on it is refused. The format is under STATE FILE in safe-ad-emulator(1).
    /// No two of --state, --import, --log and --token-file may name one file.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) state: Option<PathBuf>,

    /// Load the network from FILE, a fixture, and never write it
    ///
    /// For CI: the file a job commits stays as it is, whatever the run changes (--state saves
    /// back instead). No demo data is loaded and no handles are kept. The file must exist; it is
    /// read once at start, and checked as --state is (an error names the whole path to the value:
    /// `appendableData[2].data[0].structuredData: missing field ...`). `safe-ad emulator export`
    /// writes one from a running emulator.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["state", "empty"],
        value_hint = ValueHint::FilePath
    )]
    pub(crate) import: Option<PathBuf>,

    /// Write one JSON record per request to FILE
    ///
    /// An existing FILE is truncated: the file holds this run only. It may be a FIFO, a pipe or a
    /// character device too, but never the file of --import, --state or --token-file. Each record
    /// has the method, path, status, time and live handles. The last line is the stop record, with
    /// the counts of the whole run. A record that cannot be written (a full disk, a
    /// reader that stopped reading) is counted as lost, said on stderr, and makes the exit code 1.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) log: Option<PathBuf>,

    /// No request lines, demo description or totals on stderr (errors only)
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,

    /// Match paths exactly, without the launcher's leeway
    ///
    /// No trailing slash, exact case, no escapes, plain decimal handles. The launcher (Express) let one trailing slash, any case of the literal segments and
    /// percent-escapes through, and read handles with C strtoull (so `-1`, `010` and `12abc` were
    /// handles). This flag refuses all of those, to catch clients that build odd paths.
    #[arg(long, hide_short_help = true)]
    pub(crate) strict_paths: bool,

    /// Deny every POST /auth (a user who clicks "deny")
    #[arg(long, hide_short_help = true)]
    pub(crate) deny_auth: bool,

    /// Never answer a clear of an unknown handle, as the real launcher did
    #[arg(long, hide_short_help = true)]
    pub(crate) hang_unknown_clears: bool,

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
    pub(crate) fault_rate: f64,

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
    pub(crate) fault_seed: u64,

    /// Detach once it listens and print its variables
    ///
    /// The emulator runs on as a process of its own (its own session; it holds none of the
    /// caller's input and output, so a CI step that starts it ends). Once it listens, this prints
    /// SAFE_LAUNCHER_URL, SAFE_LAUNCHER_TOKEN, SAFE_AD_EMULATOR_PID and SAFE_AD_EMULATOR_DIR (see
    /// --format) and exits 0. If it cannot start, this exits with its exit code and message, and
    /// nothing runs on. Its stderr goes to $SAFE_AD_EMULATOR_DIR/stderr: what it said while
    /// starting is shown now, the rest by --stop.
    #[arg(long, conflicts_with_all = ["command", "stop"])]
    pub(crate) background: bool,

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
    pub(crate) format: Option<String>,

    /// Stop it if it does not listen within SECS (30)
    ///
    /// With --background: a --log FIFO nobody reads, or a --token-file pipe (`<(...)`) whose
    /// writer never writes, would keep it waiting for ever; after SECS (1 to 3600, default 30)
    /// it is stopped and this exits 1.
    #[arg(
        long,
        value_name = "SECS",
        requires = "background",
        value_hint = ValueHint::Other,
        value_parser = clap::value_parser!(u64).range(1..=3600)
    )]
    pub(crate) ready_timeout: Option<u64>,

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
            "listen", "token_file", "token", "users", "empty", "state", "import", "log", "quiet", "strict_paths",
            "deny_auth", "hang_unknown_clears", "fault_rate", "fault_seed", "background",
            "format", "ready_timeout", "command",
        ]
    )]
    pub(crate) stop: bool,

    /// With --stop: stop the background emulator of yours that runs as this process
    #[arg(
        long,
        value_name = "PID",
        requires = "stop",
        hide_short_help = true,
        value_hint = ValueHint::Other,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub(crate) pid: Option<u32>,

    /// With --stop: stop every background emulator of yours (`emulator list` lists them)
    #[arg(
        long,
        requires = "stop",
        conflicts_with = "pid",
        hide_short_help = true
    )]
    pub(crate) all: bool,

    /// With --stop: exit 0 with a note when no emulator was started
    ///
    /// For the always-run step of a CI job: when the variables are not set (this never stops an
    /// emulator nothing named, and lists those of yours that run), or name a run directory that
    /// is gone (the start failed, or an earlier --stop stopped it), this says so and exits 0. A
    /// running emulator is stopped as --stop stops it.
    #[arg(long, requires = "stop")]
    pub(crate) if_running: bool,

    /// Run this command against the emulator, then stop and exit with its exit code
    #[arg(last = true, value_name = "COMMAND", value_hint = ValueHint::CommandWithArguments)]
    pub(crate) command: Vec<OsString>,
}
