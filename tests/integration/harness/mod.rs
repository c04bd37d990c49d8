//! The shared harness: a hermetic sandbox, one builder for "run safe-ad with this, expect that",
//! launcher stand-ins on loopback, and waits that fail loudly.
//!
//! Every run starts from an empty environment, with its own config directory and HOME, so nothing
//! from the developer's machine (tokens, proxies, config) leaks into a test. Nothing here waits on
//! a guess: every wait is for an event (a line printed, a request seen, a process exited) and
//! fails with a message naming what it waited for once [`DEADLINE`] has passed.

mod launchers;
mod ports;
mod safe_ad;
mod skip;

#[cfg(feature = "emulator")]
pub mod emulator;
pub mod http;
pub mod in_process;
#[cfg(feature = "emulator")]
pub mod leftovers;
#[cfg(feature = "emulator")]
pub mod losing;
#[cfg(feature = "emulator")]
pub mod relay;
#[cfg(feature = "emulator")]
pub mod screen;

use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

use tempfile::TempDir;

pub use launchers::*;
pub use ports::*;
pub use safe_ad::*;
pub use skip::*;

/// A token that is easy to spot in output: if any 8-character piece of it shows up, it leaked.
pub const TOKEN: &str = "tok3n.Zq8vWmXr4LpKd2Nf.s1gnatur3Hb7Yc";

/// How long any wait may take before it fails the test: generous, for a busy 2-core machine.
/// It bounds waits for events; no test passes or fails by how long something took.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// The `safe-ad` binary under test.
pub fn safe_ad_bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_safe-ad"))
}

/// The repository's root (the crate's manifest directory): README.md, TESTING.md, the committed
/// generated files.
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md's text.
#[cfg(feature = "emulator")]
pub fn readme() -> String {
    std::fs::read_to_string(repo_root().join("README.md")).expect("README.md")
}

/// The text of a file of the repository's documentation (`docs/handles.md`, `README.md`).
#[track_caller]
pub fn doc(path: &str) -> String {
    std::fs::read_to_string(repo_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every command path clap knows that runs something (`create`, `auth whoami`, `emulator`,
/// `emulator requests`), but `help`: a group that only holds commands (`auth`) is left out.
#[cfg(feature = "emulator")]
pub fn command_paths() -> Vec<String> {
    fn walk(command: &clap::Command, prefix: &str, paths: &mut Vec<String>) {
        for sub in command.get_subcommands() {
            if sub.get_name() == "help" {
                continue;
            }
            let path = format!("{prefix}{}", sub.get_name());
            if !sub.is_subcommand_required_set() {
                paths.push(path.clone());
            }
            walk(sub, &format!("{path} "), paths);
        }
    }
    let mut paths = Vec::new();
    walk(&::safe_ad::test_support::help::command(), "", &mut paths);
    assert!(paths.len() > 20, "clap lists {paths:?}");
    paths
}

/// Each client command (one that takes client options: neither a group of commands nor the
/// emulator, a program of its own) with the options its spec gives it, in the specs' order.
pub fn client_commands() -> Vec<(&'static str, ::safe_ad::test_support::cli::Opts)> {
    use ::safe_ad::test_support::cli::{Reaches, COMMANDS};
    COMMANDS
        .iter()
        .filter(|spec| !matches!(spec.reaches, Reaches::Group | Reaches::Emulator))
        .map(|spec| (spec.path, spec.options))
        .collect()
}

/// README.md and the guide's chapters, `docs/*.md`, as paths from the repository's root.
pub fn documents() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(repo_root().join("docs"))
        .expect("docs/")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    files.sort();
    files.insert(0, "README.md".to_owned());
    files
}

/// A Markdown file's lines outside fenced code blocks (the fences themselves left out too).
pub fn prose_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    text.lines().filter(move |line| {
        if line.starts_with("```") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

/// The targets of a Markdown file's inline links `[text](target)`, outside code.
pub fn links(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for line in prose_lines(text) {
        // Code spans hold no links.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(at, _)| at % 2 == 0)
            .map(|(_, part)| part)
            .collect::<Vec<_>>()
            .join(" ");
        for piece in prose.split("](").skip(1) {
            if let Some(target) = piece.split(')').next() {
                targets.push(target.to_owned());
            }
        }
    }
    targets
}

/// The file a relative link's `path` in `file` names, from the same root (`..` folded); the
/// file itself when `path` is empty (a link to one of its own headings).
pub fn resolve(file: &str, path: &str) -> String {
    if path.is_empty() {
        return file.to_owned();
    }
    let dir = std::path::Path::new(file).parent().expect("a directory");
    let mut parts: Vec<String> = Vec::new();
    for part in dir.join(path).components() {
        match part {
            std::path::Component::ParentDir => {
                parts.pop();
            }
            std::path::Component::Normal(name) => parts.push(name.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    parts.join("/")
}

/// The body of README's section `## heading`, up to the next `## ` heading; fails if README has
/// no such section.
#[cfg(feature = "emulator")]
#[track_caller]
pub fn readme_section(heading: &str) -> String {
    doc_section("README.md", heading)
}

/// The body of the section `## heading` of the documentation file `path`, up to the next `## `
/// heading; fails if it has no such section.
#[track_caller]
pub fn doc_section(path: &str, heading: &str) -> String {
    doc(path)
        .split(&format!("\n## {heading}\n"))
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .unwrap_or_else(|| panic!("{path} has no section `## {heading}`"))
        .to_owned()
}

/// Flags of the test binary that take a value as the next argument, which is not a filter.
const VALUED_FLAGS: [&str; 7] = [
    "--skip",
    "--test-threads",
    "--format",
    "--color",
    "--logfile",
    "--shuffle-seed",
    "-Z",
];

/// Whether a filter given to this test run (an argument of the test binary that is not a flag or
/// a flag's value) contains `word`: for the ignored commands that act only when asked by name.
pub fn named_in_filter(word: &str) -> bool {
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if VALUED_FLAGS.contains(&arg.as_str()) {
            args.next();
        } else if !arg.starts_with('-') && arg.contains(word) {
            return true;
        }
    }
    false
}

/// A run of the tests started with SIGINT and SIGQUIT ignored (`cargo test &` in a script: sh
/// starts a background job so) would hand that to every program it starts, and safe-ad rightly
/// keeps a stop signal it was started without; the tests that stop it with Ctrl-C then could
/// not (issue 54). A caught signal is set back to its default across exec, so where these two
/// came ignored, the test process catches them (a flag nobody reads: they were ignored anyway),
/// and every program a test starts gets them at their default, as from a foreground shell.
fn stop_signals_as_in_the_foreground() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
            return;
        };
        let ignored = (status.lines())
            .find_map(|line| line.strip_prefix("SigIgn:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .unwrap_or(0);
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGQUIT] {
            if ignored & (1 << (signal - 1)) != 0 {
                let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
                let _ = signal_hook::flag::register(signal, flag);
            }
        }
    });
}

/// A test's private home: config dir, HOME, scratch files; removed when dropped.
pub struct Sandbox {
    dir: TempDir,
    /// The TMPDIR of what runs in it: beside the directory, so that the files a test counts
    /// there are its own.
    tmp: TempDir,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        stop_signals_as_in_the_foreground();
        Sandbox {
            dir: tempfile::tempdir().expect("temp dir"),
            tmp: tempfile::tempdir().expect("temp dir"),
        }
    }

    /// The TMPDIR of the programs it runs: a background emulator of the person running the
    /// tests, in the system's TMPDIR, must not change what safe-ad says here.
    pub fn tmp(&self) -> &Path {
        self.tmp.path()
    }

    /// The sandbox directory, which is also HOME.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `SAFE_AD_CONFIG_DIR`.
    pub fn config_dir(&self) -> PathBuf {
        self.path().join("config")
    }

    /// `config.json` in the config dir, whether it exists or not.
    pub fn config_file(&self) -> PathBuf {
        self.config_dir().join("config.json")
    }

    /// Writes `config.json` with the given text (mode 0600).
    pub fn write_config(&self, text: &str) -> PathBuf {
        std::fs::create_dir_all(self.config_dir()).expect("config dir");
        let path = self.config_file();
        std::fs::write(&path, text).expect("config file");
        set_mode(&path, 0o600);
        path
    }

    /// Writes a scratch file and returns its path.
    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path().join(name);
        std::fs::write(&path, contents).expect("scratch file");
        path
    }

    /// A FIFO made at `name` in the sandbox (`mkfifo`; a path already in the sandbox is taken
    /// as it is), opened by nobody: opening it to read waits for a writer, and to write for a
    /// reader. Its path.
    pub fn named_fifo(&self, name: impl AsRef<Path>) -> PathBuf {
        let path = self.path().join(name);
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .expect("mkfifo runs");
        assert!(made.success(), "mkfifo {}", path.display());
        path
    }

    /// A FIFO in the sandbox, opened at both ends: (the end to read, the end to write).
    #[cfg(feature = "emulator")]
    pub fn fifo(&self, name: &str) -> (std::fs::File, std::fs::File) {
        let path = self.named_fifo(name);
        // Opened read-write, the FIFO has a writer at once, so the read end opens without blocking.
        let writer = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .expect("open the FIFO for writing");
        let reader = std::fs::File::open(&path).expect("open the FIFO for reading");
        (reader, writer)
    }

    /// `safe-ad` in this sandbox: an empty environment but for HOME, SAFE_AD_CONFIG_DIR and a
    /// long first-Ctrl-C wait (`SafeAd::in_sandbox`).
    pub fn safe_ad(&self) -> SafeAd {
        SafeAd::in_sandbox(self, safe_ad_bin(), None)
    }

    /// `safe-ad` in this sandbox, held to file permissions as an ordinary user is: for a file it
    /// must fail to open (mode 000). Where this process can read any file (it runs as root, as
    /// CI does), safe-ad runs through `setpriv` (util-linux) without the two capabilities that let
    /// root read any file, CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH; everything else stays the
    /// same. Callers check `have("setpriv")` first where [`reads_any_file`].
    pub fn safe_ad_held_to_file_modes(&self) -> SafeAd {
        if !reads_any_file() {
            return self.safe_ad();
        }
        SafeAd::in_sandbox(self, Path::new("/usr/bin/setpriv"), None)
            .args(["--bounding-set", "-dac_override,-dac_read_search", "--"])
            .arg(safe_ad_bin())
    }

    /// `shell -c script` in this sandbox, with this build's `safe-ad` first on PATH and the
    /// system directories after it.
    pub fn shell(&self, shell: &str, script: &str) -> SafeAd {
        let bin_dir = safe_ad_bin().parent().expect("the binary's directory");
        SafeAd::in_sandbox(self, Path::new(shell), Some(script))
            .env("PATH", format!("{}:/usr/bin:/bin", bin_dir.display()))
    }
}

/// Whether this process can open a file whose mode is 000: root can (CAP_DAC_OVERRIDE).
pub fn reads_any_file() -> bool {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("probe");
    std::fs::write(&path, b"x").expect("probe file");
    set_mode(&path, 0o000);
    std::fs::File::open(&path).is_ok()
}

/// Sets a file's permission bits.
pub fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// The first 8-character piece of [`TOKEN`] found in `text`, if any.
pub fn token_piece_in(text: &str) -> Option<String> {
    let chars: Vec<char> = TOKEN.chars().collect();
    chars
        .windows(8)
        .map(|window| window.iter().collect::<String>())
        .find(|piece| text.contains(piece))
}

/// Fails if the token, or any 8-character piece of it, appears in `text`. Runs of safe-ad check
/// their output this way by themselves; this is for other text (a log, a `Debug` string).
#[track_caller]
pub fn assert_no_token(text: &str) {
    if let Some(piece) = token_piece_in(text) {
        panic!("token piece {piece:?} leaked into:\n{text}");
    }
}

/// How often [`poll`] asks.
const POLL_EVERY: Duration = Duration::from_millis(5);

/// Asks `ready` every few milliseconds until it gives a value, or `limit` has passed (`None`).
/// The one polling loop of the harness: for events nothing signals (a process's exit, a state
/// in /proc, a screen).
pub fn poll<T>(limit: Duration, mut ready: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(value) = ready() {
            return Some(value);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(POLL_EVERY);
    }
}

/// [`poll`], failing after `limit` with a message naming `what` it waited for.
#[track_caller]
pub fn wait_until<T>(what: &str, limit: Duration, ready: impl FnMut() -> Option<T>) -> T {
    poll(limit, ready).unwrap_or_else(|| panic!("waited {limit:?} for {what}"))
}

/// Waits until `child` exits. After `limit` it kills the child and fails, naming `what`.
#[track_caller]
pub fn wait_for_exit(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let exited = poll(limit, || child.try_wait().expect("try_wait"));
    exited.unwrap_or_else(|| {
        let _ = child.kill();
        let _ = child.wait();
        panic!("{what} did not exit within {limit:?}; killed it");
    })
}

/// Sends signal `name` (`HUP`, `INT` or `TERM`) to a process once it has a handler for it, so the
/// signal reaches the process's own handling instead of the default action (death): it waits for
/// the signal's bit in `SigCgt` of `/proc/<pid>/status`, where /proc shows it, and fails after
/// [`DEADLINE`]. std cannot send signals, so `kill` does.
#[track_caller]
pub fn signal(pid: u32, name: &str) {
    wait_for_handler(pid, name);
    let status = std::process::Command::new("kill")
        .args(["-s", name, &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -s {name} {pid} failed");
}

/// Closes the terminal of process `pid`, as far as it can tell: two SIGHUPs sent back to back,
/// the terminal's and then its shell's passing it on to its jobs; to the whole process group
/// whose leader it is, with `group` (see `SafeAd::own_process_group`). Sent once it handles
/// SIGHUP (see [`signal`]).
#[cfg(feature = "emulator")]
#[track_caller]
pub fn hang_up(pid: u32, group: bool) {
    wait_for_handler(pid, "HUP");
    let target = match group {
        true => format!("-{pid}"),
        false => pid.to_string(),
    };
    let status = std::process::Command::new("kill")
        .args(["-s", "HUP", "--", &target, &target])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -s HUP -- {target} {target} failed");
}

/// Waits until process `pid` has taken signal `name` (`HUP`, `INT` or `TERM`) sent to it: it is
/// pending no more (`SigPnd` and `ShdPnd` of `/proc/<pid>/status`), so its handler ran. Fails
/// after [`DEADLINE`].
#[cfg(feature = "emulator")]
#[track_caller]
pub fn wait_taken(pid: u32, name: &str) {
    let bit = 1u64 << (signal_number(name) - 1);
    wait_until(
        &format!("process {pid} to take SIG{name}"),
        DEADLINE,
        || {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
            let pending = (status.lines())
                .filter_map(|line| {
                    let mask = line
                        .strip_prefix("SigPnd:")
                        .or_else(|| line.strip_prefix("ShdPnd:"))?;
                    u64::from_str_radix(mask.trim(), 16).ok()
                })
                .fold(0, |all, mask| all | mask);
            (pending & bit == 0).then_some(())
        },
    );
}

/// The signals that stop a process, which a test sends or a person would, as coreutils' `env`
/// names them.
pub const STOP_SIGNALS: &str = "HUP,INT,QUIT,TERM";

/// A command that runs `program` with the default action for every stop signal
/// ([`STOP_SIGNALS`]), as from a terminal, whatever the suite was started with. A script's
/// background job (`cargo test &`) starts with SIGINT and SIGQUIT ignored, `nohup` with SIGHUP
/// ignored; an ignored signal is inherited across exec, and safe-ad rightly keeps it ignored, so
/// a test that stops safe-ad by it would wait in vain for its handler. coreutils' `env` sets the
/// actions and execs `program` (the process keeps its pid); the crate forbids the `unsafe` a
/// `pre_exec` would need.
pub fn with_default_stop_signals(program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
    let mut command = std::process::Command::new("/usr/bin/env");
    command
        .arg(format!("--default-signal={STOP_SIGNALS}"))
        .arg("--")
        .arg(program);
    command
}

/// A stop signal's number, by the name `kill -s` takes.
fn signal_number(name: &str) -> u32 {
    match name {
        "HUP" => 1,
        "INT" => 2,
        "TERM" => 15,
        _ => panic!("no signal number for {name}"),
    }
}

/// Waits until process `pid` has a handler for signal `name` (`HUP`, `INT` or `TERM`), where
/// /proc shows it; fails after [`DEADLINE`].
#[track_caller]
pub fn wait_for_handler(pid: u32, name: &str) {
    let number = signal_number(name);
    wait_until(
        &format!("process {pid} to set up a handler for SIG{name}"),
        DEADLINE,
        || (catches(pid, number) != Some(false)).then_some(()),
    );
}

/// Whether process `pid` has a handler for signal `number`; `None` where /proc does not say.
fn catches(pid: u32, number: u32) -> Option<bool> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let mask = status
        .lines()
        .find_map(|line| line.strip_prefix("SigCgt:"))?;
    let mask = u64::from_str_radix(mask.trim(), 16).ok()?;
    Some(mask & (1 << (number - 1)) != 0)
}

/// The peak resident set size of a live process in KiB (VmHWM in `/proc/<pid>/status`).
pub fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
