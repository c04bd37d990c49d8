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

use std::path::PathBuf;
use std::time::Duration;

use super::background::DAEMON;
use super::fixture::reason;
use super::rundir::{RunDir, Status};
use super::{say, Exit};

/// How long the emulator may take to stop before a second SIGTERM hurries it.
pub const STOP_WAIT: Duration = Duration::from_secs(30);

/// How long it may take after the second SIGTERM before it is killed.
pub const HURRY_WAIT: Duration = Duration::from_secs(10);

/// Stops the background emulator the environment names.
pub fn run() -> Exit {
    match stop() {
        Ok(exit) => exit,
        Err((message, exit)) => {
            say(&format!("safe-ad emulator: error: --stop: {message}\n"));
            exit
        }
    }
}

type Problem = (String, Exit);

fn not_running(message: String) -> Problem {
    (message, Exit::Failed)
}

fn stop() -> Result<Exit, Problem> {
    let pid = process_id()?;
    let dir = match std::env::var_os("SAFE_AD_EMULATOR_DIR").filter(|dir| !dir.is_empty()) {
        Some(dir) => RunDir::at(PathBuf::from(dir)),
        None => RunDir::at(dir_of(pid).ok_or_else(|| {
            not_running(format!(
                "no safe-ad emulator started with --background runs as process {pid} \
                 (SAFE_AD_EMULATOR_PID); nothing was signalled"
            ))
        })?),
    };
    let shown = dir.path().display().to_string();
    match dir.pid() {
        Ok(found) if found == pid => {}
        Ok(found) => {
            return Err(not_running(format!(
                "SAFE_AD_EMULATOR_PID={pid} is not the emulator of {shown}, which is process \
                 {found}; nothing was signalled"
            )))
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(not_running(format!(
                "no emulator to stop: {shown} is gone (an earlier --stop stopped it)"
            )))
        }
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
            let said = collect(&dir);
            return Err(not_running(match said {
                Some(status) => format!(
                    "process {pid} was not running: the emulator had stopped already ({}); \
                     what it said is above",
                    describe(status)
                ),
                None => format!(
                    "process {pid} was not running: the emulator ended without stopping cleanly \
                     (killed?), so its --state was not saved; what it said is above"
                ),
            }));
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
            return Err((
                format!("process {pid} did not end, even when killed"),
                Exit::Failed,
            ));
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

/// `SAFE_AD_EMULATOR_PID`, checked.
fn process_id() -> Result<u32, Problem> {
    let usage = |message: String| (message, Exit::Usage);
    let Some(text) = std::env::var_os("SAFE_AD_EMULATOR_PID").filter(|pid| !pid.is_empty()) else {
        return Err(usage(
            "SAFE_AD_EMULATOR_PID is not set: --stop stops the emulator that `safe-ad emulator \
             --background` started, named by the variables it printed (eval them, or add them to \
             the job's environment)"
                .into(),
        ));
    };
    let text = text.to_string_lossy();
    match text.parse::<u32>() {
        Ok(pid) if pid > 0 => Ok(pid),
        _ => Err(usage(format!(
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
