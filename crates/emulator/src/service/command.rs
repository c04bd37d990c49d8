//! `safe-ad emulator [OPTIONS] -- COMMAND [ARGS...]`: run one command against a fresh emulator
//! and exit with the command's exit code, as `xvfb-run` does.
//!
//! The command gets `SAFE_LAUNCHER_URL` and `SAFE_LAUNCHER_TOKEN` in its environment (the first
//! user's) and, with `--user`, each named user's `SAFE_AD_EMULATOR_USER_<NAME>_URL` and
//! `..._TOKEN` (the name in capitals): such a run has no run directory for `emulator env --user`
//! to read, and its environment is how it already reaches the first user, so a script reaches
//! bob as `SAFE_LAUNCHER_URL=$SAFE_AD_EMULATOR_USER_BOB_URL
//! SAFE_LAUNCHER_TOKEN=$SAFE_AD_EMULATOR_USER_BOB_TOKEN safe-ad ...`. It
//! inherits stdin, stdout and stderr; the emulator writes nothing on stdout in this mode and no
//! request log (only the demo banner, its notes and its errors, on stderr), so the command's
//! output stays readable.
//!
//! Exit code: the command's; 128 + N when a signal N killed it; 127 when it could not be started
//! (`lifecycle` makes it 1 when the command succeeded but the emulator could not save its state
//! or write its log).
//!
//! Signals. Unless the emulator is the foreground job of a terminal, the command runs in a
//! process group of its own, and SIGTERM, SIGINT and SIGHUP sent to the emulator are passed on to
//! that whole group (`sh -c 'sleep 300; ...'` loses its `sleep` too); the emulator keeps serving
//! until the command has exited. On a terminal the command stays in the emulator's group, so it
//! can read the terminal and gets Ctrl-C, Ctrl-Z and a hangup from it directly; there a SIGTERM is
//! passed on to the command itself. A second signal kills the command's group (on a terminal,
//! the command) with SIGKILL.

use std::ffi::OsString;
use std::process::{Command, ExitStatus};

use crate::service::log;
use crate::service::server::Server;
use crate::service::signals::{Signal, Signals};

/// Exit code when the command cannot be started.
pub(crate) const CANNOT_START: u8 = 127;

/// Runs `command` against `server`, passing signals on, and returns the exit code to leave with.
pub(crate) async fn run(
    command: &[OsString],
    server: &Server,
    signals: &mut Signals,
    quiet: bool,
) -> u8 {
    let Some((program, args)) = command.split_first() else {
        return 0;
    };
    let terminal = on_terminal();
    let mut spawn = Command::new(program);
    spawn
        .args(args)
        .env("SAFE_LAUNCHER_URL", server.url())
        .env("SAFE_LAUNCHER_TOKEN", server.token())
        .envs(server.user_variables());
    if !terminal {
        use std::os::unix::process::CommandExt;
        spawn.process_group(0);
    }
    let mut child = match spawn.spawn() {
        Ok(child) => child,
        Err(error) => {
            log::line(format!(
                "safe-ad emulator: cannot run {}: {error}\n",
                program.to_string_lossy()
            ));
            return CANNOT_START;
        }
    };
    let target = Target {
        pid: child.id(),
        group: !terminal,
    };
    let (done, mut waited) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait());
    });
    let mut passed_on = false;
    loop {
        tokio::select! {
            status = &mut waited => {
                return match status {
                    Ok(Ok(status)) => exit_code(status),
                    Ok(Err(error)) => {
                        log::line(format!(
                            "safe-ad emulator: could not wait for the command: {error}\n"
                        ));
                        1
                    }
                    Err(_) => 1,
                };
            }
            signal = signals.next() => {
                if passed_on {
                    target.kill();
                    continue;
                }
                passed_on = true;
                // On a terminal, Ctrl-C and a hangup reached the command from the terminal too.
                let from_terminal = terminal && signal != Signal::Terminate;
                if !from_terminal {
                    target.send(signal);
                }
                if !quiet {
                    log::line(format!(
                        "safe-ad emulator: {}: {}; a second signal kills it\n",
                        signal.name(),
                        if from_terminal {
                            "the command got it from the terminal too".to_owned()
                        } else {
                            format!("passed on to the command ({})", target.describe())
                        }
                    ));
                }
            }
        }
    }
}

/// Whom signals are passed on to: the command's process group, or the command alone.
struct Target {
    pid: u32,
    group: bool,
}

impl Target {
    fn describe(&self) -> String {
        if self.group {
            format!("process group {}", self.pid)
        } else {
            format!("process {}", self.pid)
        }
    }

    fn send(&self, signal: Signal) {
        self.raw(signal.to_rustix());
    }

    fn kill(&self) {
        self.raw(rustix::process::Signal::KILL);
    }

    fn raw(&self, signal: rustix::process::Signal) {
        use rustix::process::{kill_process, kill_process_group, Pid};
        let Some(pid) = i32::try_from(self.pid).ok().and_then(Pid::from_raw) else {
            return;
        };
        // A group or process already gone is not an error here.
        let _ = if self.group {
            kill_process_group(pid, signal)
        } else {
            kill_process(pid, signal)
        };
    }
}

/// Whether the emulator is the foreground job of a terminal (on stdin, stdout or stderr): then
/// the command must share its process group to use the terminal.
fn on_terminal() -> bool {
    use rustix::process::getpgrp;
    use rustix::termios::{isatty, tcgetpgrp};
    use std::os::fd::AsFd;
    let ours = getpgrp();
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let foreground = |fd: std::os::fd::BorrowedFd<'_>| {
        isatty(fd) && tcgetpgrp(fd).is_ok_and(|group| group == ours)
    };
    foreground(stdin.as_fd()) || foreground(stdout.as_fd()) || foreground(stderr.as_fd())
}

/// The shell's convention: the code, or 128 + the signal that ended the process.
pub(super) fn exit_code(status: ExitStatus) -> u8 {
    if let Some(code) = status.code() {
        // A Unix exit status is 0..=255; the conversion cannot fail, and 1 stands in if it did.
        return u8::try_from(code).unwrap_or(1);
    }
    use std::os::unix::process::ExitStatusExt;
    if let Some(signal) = status.signal() {
        return u8::try_from(128 + signal).unwrap_or(1);
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_shell() {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(exit_code(ExitStatus::from_raw(3 << 8)), 3);
        assert_eq!(exit_code(ExitStatus::from_raw(0)), 0);
        assert_eq!(exit_code(ExitStatus::from_raw(9)), 137);
        assert_eq!(exit_code(ExitStatus::from_raw(15)), 143);
    }
}
