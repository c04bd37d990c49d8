//! `safe-ad emulator [OPTIONS] -- COMMAND [ARGS...]`: run one command against a fresh emulator
//! and exit with the command's exit code, as `xvfb-run` does.
//!
//! The command gets `SAFE_LAUNCHER_URL` and `SAFE_LAUNCHER_TOKEN` in its environment and
//! inherits stdin, stdout and stderr; the emulator writes nothing on stdout in this mode and no
//! request log (only the demo banner and its own errors, on stderr), so the command's output
//! stays readable.
//!
//! Exit code: the command's; 128 + N when a signal N killed it; 127 when it could not be started.
//! Signals: SIGTERM sent to the emulator is passed on to the command (the emulator keeps serving
//! until the command has exited). SIGINT (Ctrl-C) reaches the command from the terminal by itself,
//! so the first one is not passed on; a second SIGINT or SIGTERM kills the command.

use std::ffi::OsString;
use std::process::{Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::say;
use super::server::Server;

/// Exit code when the command cannot be started.
pub const CANNOT_START: u8 = 127;

/// Runs `command` against `server` and returns the exit code to leave with.
pub async fn run(command: &[OsString], server: &Server) -> u8 {
    let Some((program, args)) = command.split_first() else {
        return 0;
    };
    // Watch the signals first, so a Ctrl-C right after the start cannot kill the emulator alone.
    let mut signals = Signals::new();
    let spawned = Command::new(program)
        .args(args)
        .env("SAFE_LAUNCHER_URL", server.url())
        .env("SAFE_LAUNCHER_TOKEN", server.token())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => {
            say(&format!(
                "safe-ad emulator: cannot run {}: {error}\n",
                program.to_string_lossy()
            ));
            return CANNOT_START;
        }
    };
    let pid = child.id();
    let exited = Arc::new(AtomicBool::new(false));
    let (done, mut waited) = tokio::sync::oneshot::channel();
    {
        let exited = Arc::clone(&exited);
        std::thread::spawn(move || {
            let status = child.wait();
            exited.store(true, Ordering::SeqCst);
            let _ = done.send(status);
        });
    }
    let mut passed_on = false;
    loop {
        tokio::select! {
            status = &mut waited => {
                return match status {
                    Ok(Ok(status)) => exit_code(status),
                    Ok(Err(error)) => {
                        say(&format!("safe-ad emulator: could not wait for the command: {error}\n"));
                        1
                    }
                    Err(_) => 1,
                };
            }
            signal = signals.next() => {
                if exited.load(Ordering::SeqCst) {
                    continue;
                }
                match (signal, passed_on) {
                    (Signal::Interrupt, false) => passed_on = true,
                    (Signal::Terminate, false) => {
                        send_signal(pid, "TERM");
                        passed_on = true;
                    }
                    (_, true) => send_signal(pid, "KILL"),
                }
            }
        }
    }
}

/// The shell's convention: the code, or 128 + the signal that ended the process.
fn exit_code(status: ExitStatus) -> u8 {
    if let Some(code) = status.code() {
        // A Unix exit status is 0..=255; anything else (Windows) is folded into 1.
        return u8::try_from(code).unwrap_or(1);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return u8::try_from(128 + signal).unwrap_or(1);
        }
    }
    1
}

/// Sends a signal by name with the system's `kill` (std has no portable way, and this is rare).
fn send_signal(pid: u32, name: &str) {
    let _ = Command::new("kill")
        .arg("-s")
        .arg(name)
        .arg(pid.to_string())
        .status();
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Signal {
    Interrupt,
    Terminate,
}

/// SIGINT and SIGTERM as a stream; if they cannot be watched, it never yields.
struct Signals {
    #[cfg(unix)]
    interrupt: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    terminate: Option<tokio::signal::unix::Signal>,
}

impl Signals {
    fn new() -> Signals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            Signals {
                interrupt: signal(SignalKind::interrupt()).ok(),
                terminate: signal(SignalKind::terminate()).ok(),
            }
        }
        #[cfg(not(unix))]
        {
            Signals {}
        }
    }

    async fn next(&mut self) -> Signal {
        #[cfg(unix)]
        {
            let Signals {
                interrupt,
                terminate,
            } = self;
            let interrupt = async {
                match interrupt.as_mut() {
                    Some(s) => s.recv().await,
                    None => std::future::pending().await,
                }
            };
            let terminate = async {
                match terminate.as_mut() {
                    Some(s) => s.recv().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                Some(()) = interrupt => Signal::Interrupt,
                Some(()) = terminate => Signal::Terminate,
                else => std::future::pending().await,
            }
        }
        #[cfg(not(unix))]
        {
            match tokio::signal::ctrl_c().await {
                Ok(()) => Signal::Interrupt,
                Err(_) => std::future::pending().await,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn exit_codes_follow_the_shell() {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(exit_code(ExitStatus::from_raw(3 << 8)), 3);
        assert_eq!(exit_code(ExitStatus::from_raw(0)), 0);
        assert_eq!(exit_code(ExitStatus::from_raw(9)), 137);
        assert_eq!(exit_code(ExitStatus::from_raw(15)), 143);
    }
}
