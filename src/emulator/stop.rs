//! `safe-ad emulator --stop`: stops the emulator that `--background` started, named by the
//! variables it printed, and exits as the emulator did.
//!
//! 1. The emulator is found: `SAFE_AD_EMULATOR_PID`, and its run directory from
//!    `SAFE_AD_EMULATOR_DIR` (or, on Linux, when only the process id is set, from that process's
//!    own environment, where the starter put it). The directory's `pid` file must name that
//!    process, and its lock must be held: otherwise that process is not the emulator (the system
//!    gave its id to another process after it ended) and nothing is signalled.
//! 2. It gets SIGTERM, which stops it as every emulator stops (`lifecycle`): nothing more is
//!    accepted, what is in progress finishes, `--state` is saved, `--log` gets its stop record.
//!    On Linux the signal goes through a pidfd opened before the lock was checked, so it reaches
//!    the process that was checked, even if that one ended meanwhile and its id was used again.
//! 3. The wait is for its lock to be let go, which the kernel does when the process ends; if it
//!    has not ended after [`STOP_WAIT`], a second SIGTERM cuts off what is still in progress; after
//!    [`HURRY_WAIT`] more it is killed, so that no emulator is left running behind a CI job.
//! 4. What it wrote on stderr since the starter showed its start (request lines, the totals, any
//!    failure to save or log) is shown on stderr, its run directory removed, and the exit code is
//!    the emulator's: 0 when it stopped with its state saved and its log whole, 1 when it could
//!    not save or log (or was killed). An emulator that was not running is exit 1 too.
//!
//! A directory is signalled through, and removed, only when it is a run directory of
//! `--background`'s own (`RunDir::check_own`: its name, its owner, its mode, nothing in it but the
//! files it writes); removing it removes those files, then the directory. Anything else is left
//! as it is, and said.
//!
//! `--if-running` (for the always-run step of a CI job): when no emulator was started (the
//! variables are not set, or name a run directory that is gone) or the one started had already
//! stopped cleanly, it says so and exits 0; otherwise it is `--stop`.

use std::path::PathBuf;
use std::time::Duration;

use super::background::DAEMON;
use super::fixture::reason;
use super::rundir::{Foreign, RunDir, Status};
use super::{say, Exit};

/// How long the emulator may take to stop before a second SIGTERM hurries it.
pub const STOP_WAIT: Duration = Duration::from_secs(30);

/// How long it may take after the second SIGTERM before it is killed.
pub const HURRY_WAIT: Duration = Duration::from_secs(10);

/// Stops the background emulator the environment names; with `if_running`, nothing to stop is
/// not an error.
pub fn run(if_running: bool) -> Exit {
    match stop() {
        Ok(exit) => exit,
        Err(Problem::Nothing(message)) if if_running => {
            say(&format!(
                "safe-ad emulator: --stop --if-running: {message}; nothing to stop\n"
            ));
            Exit::Stopped
        }
        Err(Problem::Unset) if if_running && named_dir_exists() => {
            say(
                "safe-ad emulator: error: --stop --if-running: SAFE_AD_EMULATOR_PID is not set, \
                 but SAFE_AD_EMULATOR_DIR names a directory that is there: an emulator may run; \
                 set both variables --background printed\n",
            );
            Exit::Usage
        }
        Err(Problem::Unset) if if_running => {
            say(
                "safe-ad emulator: --stop --if-running: SAFE_AD_EMULATOR_PID is not set, so no \
                 emulator was started; nothing to stop\n",
            );
            Exit::Stopped
        }
        Err(Problem::Unset) => {
            say(
                "safe-ad emulator: error: --stop: SAFE_AD_EMULATOR_PID is not set: --stop stops \
                 the emulator that `safe-ad emulator --background` started, named by the \
                 variables it printed (eval them, or add them to the job's environment; \
                 --if-running makes this exit 0)\n",
            );
            Exit::Usage
        }
        Err(Problem::Usage(message)) => {
            say(&format!("safe-ad emulator: error: --stop: {message}\n"));
            Exit::Usage
        }
        Err(Problem::Nothing(message) | Problem::Failed(message)) => {
            say(&format!("safe-ad emulator: error: --stop: {message}\n"));
            Exit::Failed
        }
    }
}

/// Whether `SAFE_AD_EMULATOR_DIR` is set and names something that is there.
fn named_dir_exists() -> bool {
    std::env::var_os("SAFE_AD_EMULATOR_DIR")
        .filter(|dir| !dir.is_empty())
        .is_some_and(|dir| std::path::Path::new(&dir).exists())
}

/// Why `--stop` stopped nothing.
enum Problem {
    /// `SAFE_AD_EMULATOR_PID` is not set: nothing names an emulator.
    Unset,
    /// It is set to something that is not a process id.
    Usage(String),
    /// What they name needs no stop: a run directory that is gone, or an emulator that had
    /// stopped cleanly already (with `--if-running`, exit 0).
    Nothing(String),
    /// Anything else: exit 1.
    Failed(String),
}

fn not_running(message: String) -> Problem {
    Problem::Failed(message)
}

fn stop() -> Result<Exit, Problem> {
    let pid = process_id()?;
    let dir = match std::env::var_os("SAFE_AD_EMULATOR_DIR").filter(|dir| !dir.is_empty()) {
        Some(dir) => RunDir::at(PathBuf::from(dir)),
        None => RunDir::at(dir_of(pid).ok_or_else(|| {
            not_running(format!(
                "no safe-ad emulator started with --background runs as process {pid}{} \
                 (SAFE_AD_EMULATOR_PID); nothing was signalled",
                what_runs(pid)
            ))
        })?),
    };
    let shown = dir.path().display().to_string();
    let gone = || {
        Problem::Nothing(format!(
            "no emulator to stop: {shown} is gone (an earlier --stop stopped it, or it never \
             started)"
        ))
    };
    match dir.check_own() {
        Ok(()) => {}
        Err(Foreign::Gone) => return Err(gone()),
        Err(Foreign::Not(why)) => {
            return Err(not_running(format!(
                "{shown} (SAFE_AD_EMULATOR_DIR) is not a directory that `safe-ad emulator \
                 --background` made: {why}; nothing was signalled or removed"
            )))
        }
    }
    match dir.pid() {
        Ok(found) if found == pid => {}
        Ok(found) => {
            return Err(not_running(format!(
                "SAFE_AD_EMULATOR_PID={pid} is not the emulator of {shown}, which is process \
                 {found}; nothing was signalled"
            )))
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Err(gone()),
        Err(error) => {
            return Err(not_running(format!(
                "{shown} is not the directory of an emulator: {}",
                reason(&error)
            )))
        }
    }
    let _stopping = dir.claim_stopping().map_err(|error| {
        if error.kind() == std::io::ErrorKind::WouldBlock {
            not_running(format!(
                "another `safe-ad emulator --stop` is stopping process {pid}"
            ))
        } else {
            not_running(format!("cannot use {shown}: {}", reason(&error)))
        }
    })?;
    // Opened before the lock is looked at: if the lock is held, this names the emulator.
    let target = Target::open(pid);
    match dir.is_running() {
        Ok(true) => {}
        Ok(false) => {
            // Said before what the emulator said (which `collect` shows).
            let alive = what_runs(pid);
            let said = collect(&dir);
            let ended = match said {
                Some(status) => format!(
                    "the emulator had stopped already ({}); what it said is above",
                    describe(status)
                ),
                None => "the emulator ended without stopping cleanly (killed?), so its --state \
                         was not saved; what it said is above"
                    .to_owned(),
            };
            let message = if alive.is_empty() {
                format!("process {pid} was not running: {ended}")
            } else {
                format!(
                    "process {pid}{alive} runs, but it is not the emulator of {shown}, which no \
                     longer holds its lock: the system gave its process id to another process; \
                     nothing was signalled, and {ended}"
                )
            };
            return Err(match said {
                Some(Status::Stopped) => Problem::Nothing(message),
                _ => not_running(message),
            });
        }
        Err(error) => {
            return Err(not_running(format!(
                "cannot tell whether process {pid} runs: {}",
                reason(&error)
            )))
        }
    }
    target.send(false);
    let mut ended = wait(&dir, STOP_WAIT);
    if !ended {
        say(&format!(
            "safe-ad emulator: --stop: process {pid} has not stopped after {} s; a second SIGTERM \
             cuts off the requests still in progress\n",
            STOP_WAIT.as_secs()
        ));
        target.send(false);
        ended = wait(&dir, HURRY_WAIT);
    }
    if !ended {
        target.send(true);
        if !wait(&dir, HURRY_WAIT) {
            return Err(not_running(format!(
                "process {pid} did not end, even when killed"
            )));
        }
    }
    Ok(match collect(&dir) {
        Some(Status::Stopped) => Exit::Stopped,
        Some(Status::Failed | Status::Usage) => Exit::Failed,
        None => {
            say(&format!(
                "safe-ad emulator: error: --stop: process {pid} {}, so its --state was not saved \
                 and its --log has no stop record\n",
                if ended {
                    "ended without saying how"
                } else {
                    "did not stop and was killed"
                }
            ));
            Exit::Failed
        }
    })
}

/// What runs as process `pid`, for a message: ` (sleep)`, ` (a process)` when its name cannot be
/// read, or nothing when no process has that id.
fn what_runs(pid: u32) -> String {
    #[cfg(unix)]
    {
        let Some(raw) = raw_pid(pid) else {
            return String::new();
        };
        match rustix::process::test_kill_process(raw) {
            Ok(()) | Err(rustix::io::Errno::PERM) => {}
            Err(_) => return String::new(),
        }
        // A process that has ended but is not yet reaped (a zombie) runs no more.
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            let state = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.trim_start().chars().next());
            if matches!(state, Some('Z' | 'X')) {
                return String::new();
            }
        }
        match std::fs::read_to_string(format!("/proc/{pid}/comm")) {
            Ok(name) if !name.trim().is_empty() => format!(
                " ({})",
                name.trim()
                    .chars()
                    .map(|c| if super::log::is_unsafe(c) { '?' } else { c })
                    .collect::<String>()
            ),
            _ => " (a process)".to_owned(),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        String::new()
    }
}

/// `SAFE_AD_EMULATOR_PID`, checked.
fn process_id() -> Result<u32, Problem> {
    let Some(text) = std::env::var_os("SAFE_AD_EMULATOR_PID").filter(|pid| !pid.is_empty()) else {
        return Err(Problem::Unset);
    };
    let text = text.to_string_lossy();
    match text.parse::<u32>() {
        Ok(pid) if pid > 0 => Ok(pid),
        _ => Err(Problem::Usage(format!(
            "SAFE_AD_EMULATOR_PID={text} is not a process id"
        ))),
    }
}

/// The run directory of process `pid`, from its environment (Linux), if the starter put one there.
fn dir_of(pid: u32) -> Option<PathBuf> {
    let environment = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let prefix = format!("{DAEMON}=");
    environment.split(|byte| *byte == 0).find_map(|entry| {
        let value = entry.strip_prefix(prefix.as_bytes())?;
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            Some(PathBuf::from(std::ffi::OsStr::from_bytes(value)))
        }
        #[cfg(not(unix))]
        {
            Some(PathBuf::from(String::from_utf8_lossy(value).into_owned()))
        }
    })
}

/// Waits for the emulator to end, at most `limit`.
fn wait(dir: &RunDir, limit: Duration) -> bool {
    dir.wait_ended(limit).unwrap_or(false)
}

/// Shows what the emulator said since its start was shown, removes its directory, and returns
/// how it said it ended.
fn collect(dir: &RunDir) -> Option<Status> {
    let status = dir.status();
    let _ = dir.relay(dir.shown(), &mut std::io::stderr().lock());
    let _ = dir.remove();
    status
}

fn describe(status: Status) -> &'static str {
    match status {
        Status::Stopped => "with its state saved and its log whole",
        Status::Failed => "it could not save its state or write its whole log",
        Status::Usage => "it never started",
    }
}

/// The process to signal: through a pidfd where there is one (Linux), else by its id.
struct Target {
    pid: u32,
    #[cfg(target_os = "linux")]
    pidfd: Option<std::os::fd::OwnedFd>,
}

impl Target {
    fn open(pid: u32) -> Target {
        Target {
            pid,
            #[cfg(target_os = "linux")]
            pidfd: raw_pid(pid).and_then(|raw| {
                rustix::process::pidfd_open(raw, rustix::process::PidfdFlags::empty()).ok()
            }),
        }
    }

    /// SIGTERM, or SIGKILL; a process already gone is not an error here.
    fn send(&self, kill: bool) {
        #[cfg(unix)]
        {
            use rustix::process::Signal;
            let signal = if kill { Signal::KILL } else { Signal::TERM };
            #[cfg(target_os = "linux")]
            if let Some(pidfd) = &self.pidfd {
                let _ = rustix::process::pidfd_send_signal(pidfd, signal);
                return;
            }
            if let Some(pid) = raw_pid(self.pid) {
                let _ = rustix::process::kill_process(pid, signal);
            }
        }
        #[cfg(not(unix))]
        let _ = (self.pid, kill);
    }
}

#[cfg(unix)]
fn raw_pid(pid: u32) -> Option<rustix::process::Pid> {
    i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
}
