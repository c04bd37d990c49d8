//! `safe-ad emulator --stop`: stops an emulator that `--background` started, and exits as the
//! emulator did.
//!
//! 1. Which one: `--pid PID` (one of the user's background emulators), `--all` (every one), the
//!    variables the start printed (`SAFE_AD_EMULATOR_PID` and `SAFE_AD_EMULATOR_DIR`, or either
//!    alone: the directory names its process, and on Linux the process holds its directory
//!    open), or, with none of those, the only background emulator of the user's (`rundir::running`,
//!    in the temporary directory); several are listed, and `--pid` or `--all` asked for.
//!    `--if-running` never stops an emulator nothing named: it says what it found.
//! 2. Proof: the process is signalled only when it is the emulator that made that directory. On
//!    Linux it must hold open the directory itself and its lock (`RunDir::made_by`): a process id
//!    the system gave to another process after the emulator ended, or a directory made by hand
//!    around a hard link to a live emulator's lock, is refused and nothing is signalled. Where
//!    that cannot be read, the `pid` file must name it and its lock be held.
//! 3. It gets SIGTERM, which stops it as every emulator stops (`lifecycle`): nothing more is
//!    accepted, what is in progress finishes, `--state` is saved, `--log` gets its stop record.
//!    On Linux the signal goes through a pidfd opened before the proof, so it reaches the
//!    process that was checked, even if that one ended meanwhile and its id was used again.
//! 4. The wait is for its lock (opened before the signal, so the wait holds even if the
//!    directory goes) to be let go, which the kernel does when the process ends; if it has not
//!    ended after [`STOP_WAIT`], a second SIGTERM cuts off what is still in progress; after
//!    [`HURRY_WAIT`] more it is killed, so that no emulator is left running behind a CI job.
//! 5. What it wrote on stderr since its start (request lines, the totals, any failure to save or
//!    log) is shown on stderr, its run directory removed, and the exit code is the emulator's: 0
//!    when it stopped with its state saved and its log whole, 1 when it could not save or log
//!    (or was killed, or ended without saying how). An emulator that was not running is exit 1
//!    too; one that ended and removed its own directory (it had never been handed over) is said
//!    to have ended.
//!
//! A directory is signalled through, and removed, only when it is a run directory of
//! `--background`'s own (`RunDir::check_own`: its name, its owner, its mode, nothing in it but the
//! files it writes); removing it removes those files, then the directory. Anything else is left
//! as it is, and said.
//!
//! `--if-running` (for the always-run step of a CI job): when no emulator was started (the
//! variables are not set, or name a run directory that is gone) or the one started had already
//! stopped cleanly, it says exactly that and exits 0; otherwise it is `--stop`.

use std::path::PathBuf;
use std::time::Duration;

use crate::service::exit::{say, Exit};
use crate::service::fixture::reason;
use crate::service::rundir::{dir_of_process, running, wait_ended, Foreign, RunDir, Status};

/// How long the emulator may take to stop before a second SIGTERM hurries it.
pub(crate) const STOP_WAIT: Duration = Duration::from_secs(30);

/// How long it may take after the second SIGTERM before it is killed.
pub(crate) const HURRY_WAIT: Duration = Duration::from_secs(10);

/// Stops the background emulator(s) chosen as the module's notes say; with `if_running`,
/// nothing to stop is not an error.
pub(crate) fn run(if_running: bool, pid: Option<u32>, all: bool) -> Exit {
    let chosen = match choose(pid, all, if_running) {
        Ok(chosen) => chosen,
        Err(problem) => return said(problem, if_running),
    };
    let mut exit = Exit::Stopped;
    for (pid, dir) in chosen {
        let stopped = match stop(pid, &dir) {
            Ok(stopped) => stopped,
            Err(problem) => said(problem, if_running),
        };
        if exit == Exit::Stopped {
            exit = stopped;
        }
    }
    exit
}

/// Says why nothing was stopped, and how that ends the run.
fn said(problem: Problem, if_running: bool) -> Exit {
    match problem {
        Problem::Nothing(message) if if_running => {
            say(&format!(
                "safe-ad emulator: --stop --if-running: {message}; nothing to stop\n"
            ));
            Exit::Stopped
        }
        Problem::Unnamed(found) => {
            say(&format!(
                "safe-ad emulator: --stop --if-running: SAFE_AD_EMULATOR_PID and \
                 SAFE_AD_EMULATOR_DIR are not set, so no emulator was started here; {} of yours \
                 {}, left running (`safe-ad emulator --stop --pid PID` stops one):\n{}",
                count(found.len()),
                if found.len() == 1 { "runs" } else { "run" },
                listing(&found)
            ));
            Exit::Stopped
        }
        Problem::Usage(message) => {
            say(&format!("safe-ad emulator: error: --stop: {message}\n"));
            Exit::Usage
        }
        Problem::Nothing(message) | Problem::Failed(message) => {
            say(&format!("safe-ad emulator: error: --stop: {message}\n"));
            Exit::Failed
        }
    }
}

/// `1 background emulator`, `3 background emulators`.
pub(crate) fn count(n: usize) -> String {
    match n {
        1 => "1 background emulator".to_owned(),
        _ => format!("{n} background emulators"),
    }
}

/// The emulators found, one line each, as `emulator list` shows them.
pub(crate) fn listing(found: &[(u32, RunDir)]) -> String {
    found
        .iter()
        .map(|(pid, dir)| {
            let about = dir.about();
            format!(
                "  process {pid}, {}, {}\n",
                if about.url.is_empty() {
                    "URL not known"
                } else {
                    &about.url
                },
                dir.path().display()
            )
        })
        .collect()
}

/// Why `--stop` stopped nothing.
enum Problem {
    /// Options that do not say which emulator: exit 2.
    Usage(String),
    /// What they name needs no stop: a run directory that is gone, or an emulator that had
    /// stopped cleanly already, or none at all (with `--if-running`, exit 0).
    Nothing(String),
    /// `--if-running` with nothing named: these run, and are left running (exit 0).
    Unnamed(Vec<(u32, RunDir)>),
    /// Anything else: exit 1.
    Failed(String),
}

/// The emulators to stop, with their directories (see the module's notes).
fn choose(pid: Option<u32>, all: bool, if_running: bool) -> Result<Vec<(u32, RunDir)>, Problem> {
    let temporary = std::env::temp_dir();
    let found = || running();
    if all {
        let found = found();
        if found.is_empty() {
            return Err(Problem::Nothing(format!(
                "no background emulator of yours runs (none in {})",
                temporary.display()
            )));
        }
        return Ok(found);
    }
    if let Some(pid) = pid {
        return found()
            .into_iter()
            .find(|(found, _)| *found == pid)
            .or_else(|| dir_of_process(pid).map(|dir| (pid, dir)))
            .map(|chosen| vec![chosen])
            .ok_or_else(|| {
                Problem::Failed(format!(
                    "process {pid}{} is not a background emulator of yours (none in {} is); \
                     nothing was signalled",
                    what_runs(pid),
                    temporary.display()
                ))
            });
    }
    let named_dir = std::env::var_os("SAFE_AD_EMULATOR_DIR")
        .filter(|dir| !dir.is_empty())
        .map(|dir| RunDir::at(PathBuf::from(dir)));
    match (process_id()?, named_dir) {
        (Some(pid), Some(dir)) => Ok(vec![(pid, dir)]),
        (Some(pid), None) => match dir_of_process(pid) {
            Some(dir) => Ok(vec![(pid, dir)]),
            None => Err(Problem::Failed(format!(
                "no safe-ad emulator started with --background runs as process {pid}{} \
                 (SAFE_AD_EMULATOR_PID); nothing was signalled",
                what_runs(pid)
            ))),
        },
        (None, Some(dir)) => match dir.check_own() {
            Err(Foreign::Gone) => Err(gone(&dir)),
            _ => match dir.pid() {
                Ok(pid) => Ok(vec![(pid, dir)]),
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => Err(gone(&dir)),
                Err(error) => Err(Problem::Failed(format!(
                    "{} is not the directory of an emulator: {}",
                    dir.path().display(),
                    reason(&error)
                ))),
            },
        },
        (None, None) => {
            let found = found();
            match found.len() {
                0 => Err(Problem::Nothing(format!(
                    "SAFE_AD_EMULATOR_PID is not set, and no background emulator of yours runs \
                     (none in {})",
                    temporary.display()
                ))),
                _ if if_running => Err(Problem::Unnamed(found)),
                1 => {
                    let (pid, dir) = &found[0];
                    say(&format!(
                        "safe-ad emulator: --stop: SAFE_AD_EMULATOR_PID is not set; stopping the \
                         only background emulator of yours:\n{}",
                        listing(&found)
                    ));
                    Ok(vec![(*pid, dir.clone())])
                }
                n => Err(Problem::Usage(format!(
                    "SAFE_AD_EMULATOR_PID is not set, and {} of yours run:\n{}give --pid PID \
                     to stop one, or --all",
                    count(n),
                    listing(&found)
                ))),
            }
        }
    }
}

/// A run directory that is gone: nothing to stop.
fn gone(dir: &RunDir) -> Problem {
    Problem::Nothing(format!(
        "no emulator to stop: {} is gone (an earlier --stop stopped it, or it never started)",
        dir.path().display()
    ))
}

/// Stops process `pid`, the emulator of `dir`, once proven to be it.
fn stop(pid: u32, dir: &RunDir) -> Result<Exit, Problem> {
    let shown = dir.path().display().to_string();
    let not_running = Problem::Failed;
    match dir.check_own() {
        Ok(()) => {}
        Err(Foreign::Gone) => return Err(gone(dir)),
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
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Err(gone(dir)),
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
    // Both opened before the proof: if it holds, this is the process that was proven, and the
    // wait for its end holds even once it removes its directory.
    let target = Target::open(pid);
    let lock = dir.open_lock().map_err(|error| {
        if error.kind() == std::io::ErrorKind::NotFound {
            // Its emulator removed it meanwhile: the `stopping` file just made goes too.
            let _ = dir.remove();
            gone(dir)
        } else {
            not_running(format!("cannot use {shown}: {}", reason(&error)))
        }
    })?;
    let runs = dir.is_running().map_err(|error| {
        not_running(format!(
            "cannot tell whether process {pid} runs: {}",
            reason(&error)
        ))
    })?;
    let proven = dir.made_by(pid).unwrap_or(runs);
    if runs && !proven {
        return Err(not_running(format!(
            "process {pid}{} does not hold {shown} open, so it is not the emulator that made it \
             (a directory made by hand, or one whose emulator is another process); nothing was \
             signalled",
            what_runs(pid)
        )));
    }
    if !runs {
        // Said before what the emulator said (which `collect` shows).
        let alive = what_runs(pid);
        let said = collect(dir);
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
    target.send(false);
    let wait = |limit| wait_ended(&lock, limit).unwrap_or(false);
    let mut ended = wait(STOP_WAIT);
    if !ended {
        say(&format!(
            "safe-ad emulator: --stop: process {pid} has not stopped after {} s; a second SIGTERM \
             cuts off the requests still in progress\n",
            STOP_WAIT.as_secs()
        ));
        target.send(false);
        ended = wait(HURRY_WAIT);
    }
    if !ended {
        target.send(true);
        if !wait(HURRY_WAIT) {
            return Err(not_running(format!(
                "process {pid} did not end, even when killed"
            )));
        }
    }
    // Its lock goes as its files close, a moment before the process has ended.
    if !target.ended(HURRY_WAIT) {
        target.send(true);
        target.ended(HURRY_WAIT);
    }
    if dir.check_own() == Err(Foreign::Gone) {
        // An emulator never handed over removes its directory as it ends.
        say(&format!(
            "safe-ad emulator: --stop: process {pid} ended, and removed {shown} itself (an \
             emulator does when it was never handed over), so how it ended is not known\n"
        ));
        return Ok(Exit::Failed);
    }
    Ok(match collect(dir) {
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
pub(crate) fn what_runs(pid: u32) -> String {
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
                .map(|c| if crate::service::log::is_unsafe(c) {
                    '?'
                } else {
                    c
                })
                .collect::<String>()
        ),
        _ => " (a process)".to_owned(),
    }
}

/// `SAFE_AD_EMULATOR_PID`, checked; `None` when it is not set.
fn process_id() -> Result<Option<u32>, Problem> {
    let Some(text) = std::env::var_os("SAFE_AD_EMULATOR_PID").filter(|pid| !pid.is_empty()) else {
        return Ok(None);
    };
    let text = text.to_string_lossy();
    match text.parse::<u32>() {
        Ok(pid) if pid > 0 => Ok(Some(pid)),
        _ => Err(Problem::Usage(format!(
            "SAFE_AD_EMULATOR_PID={text} is not a process id"
        ))),
    }
}

/// Shows what the emulator said since its start, removes its directory, and returns how it
/// said it ended.
fn collect(dir: &RunDir) -> Option<Status> {
    let status = dir.status();
    let _ = dir.relay(0, &mut std::io::stderr().lock());
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

    /// Waits, at most `limit`, until the process has ended (its pidfd is readable then): its
    /// lock is let go as it closes its files, a moment before it has ended, and a `--stop` that
    /// returned promises it has. True at once where that cannot be told (no pidfd).
    fn ended(&self, limit: Duration) -> bool {
        #[cfg(target_os = "linux")]
        if let Some(pidfd) = &self.pidfd {
            use rustix::event::{poll, PollFd, PollFlags, Timespec};
            let limit = Timespec {
                tv_sec: i64::try_from(limit.as_secs()).unwrap_or(i64::MAX),
                tv_nsec: i64::from(limit.subsec_nanos()),
            };
            let mut fds = [PollFd::new(pidfd, PollFlags::IN)];
            return matches!(poll(&mut fds, Some(&limit)), Ok(1..));
        }
        let _ = limit;
        true
    }

    /// SIGTERM, or SIGKILL; a process already gone is not an error here.
    fn send(&self, kill: bool) {
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
}

fn raw_pid(pid: u32) -> Option<rustix::process::Pid> {
    i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
}
