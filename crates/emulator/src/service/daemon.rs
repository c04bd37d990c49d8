//! The emulator's side of `--background` (the starter's is `background`): an emulator started
//! with [`DAEMON`] in its environment leaves the caller's session, watches its starter until the
//! starter has printed its variables, makes its run directory once it listens, and says how it
//! ended there as the last thing it does.
//!
//! - [`Daemon::enter`] (before anything else): a session of its own, so no terminal's Ctrl-C or
//!   hangup reaches it.
//! - [`Daemon::watch_starter`] (once signals are watched): its stdin is a pipe from the starter,
//!   which writes [`ACK`] once the variables are printed. The pipe's end without it means the
//!   starter is gone before anyone got the variables (killed, even by SIGKILL, at any moment):
//!   then the emulator stops as on SIGTERM, so that nobody is left with an emulator they cannot
//!   name. Once told, it holds nothing of the starter's (stdin and stdout become /dev/null).
//! - [`Daemon::settle`] (once it listens): it makes its run directory and holds it, with its
//!   lock, for as long as it runs (which is what `--stop` checks: see `rundir`), writes `token`
//!   (for `emulator env`), `pid` and `about`, and from then on writes its stderr to the directory's `stderr` file (before, stderr
//!   was a pipe to the starter, which showed it). So a run directory exists only once an emulator
//!   owns it.
//! - [`Daemon::leave`] (the last thing): an emulator never handed over removes its directory;
//!   one that was writes `status`.

use std::fs::File;
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::service::exit::{say, Exit};
use crate::service::fixture::reason;
use crate::service::rundir::{About, RunDir, Status};

/// In the environment of an emulator started by `--background`: the starter's process id.
pub(crate) const DAEMON: &str = "SAFE_AD_EMULATOR_DAEMON";

/// What the starter writes on the emulator's stdin once it has printed the variables.
pub(crate) const ACK: &str = "printed\n";

/// The name of the third line an emulator in the background prints once it is ready (after
/// `SAFE_LAUNCHER_URL` and `SAFE_LAUNCHER_TOKEN`): its run directory.
pub(crate) const DIR_LINE: &str = "SAFE_AD_EMULATOR_DIR";

/// An emulator that runs in the background.
pub(crate) struct Daemon {
    settled: Option<Settled>,
    handed_over: Arc<AtomicBool>,
}

/// Its run directory, held (with its lock) until the process ends.
struct Settled {
    dir: RunDir,
    lock: File,
    held: File,
}

impl Daemon {
    /// When [`DAEMON`] is in the environment: leaves the caller's session. `None` when this
    /// emulator was not started by `--background`.
    pub(crate) fn enter() -> Option<Daemon> {
        std::env::var_os(DAEMON)?;
        // Fails only for a process group leader, which a child of the starter is not.
        let _ = rustix::process::setsid();
        Some(Daemon {
            settled: None,
            handed_over: Arc::new(AtomicBool::new(false)),
        })
    }

    /// From now on (signals are watched), a starter that ends before it has printed the
    /// variables stops this emulator, as SIGTERM does (see the module's notes).
    pub(crate) fn watch_starter(&self) {
        let handed_over = Arc::clone(&self.handed_over);
        std::thread::spawn(move || {
            let mut line = String::new();
            let told = std::io::stdin().lock().read_line(&mut line).is_ok() && line == ACK;
            if told {
                handed_over.store(true, Ordering::SeqCst);
                let_go_of_the_starter();
            } else {
                stop_self();
            }
        });
    }

    /// Once it listens: makes its run directory and holds it (see the module's notes), with the
    /// first user's `token` and each named user's (`users`: name and token, for `emulator env
    /// --user`); the directory's path, or what went wrong, in words.
    pub(crate) fn settle(
        &mut self,
        about: &About,
        token: &str,
        users: &[(String, String)],
    ) -> Result<PathBuf, String> {
        let dir = RunDir::create().map_err(|error| {
            format!(
                "cannot make its directory in {}: {}",
                std::env::temp_dir().display(),
                reason(&error)
            )
        })?;
        let made = (|| {
            let held = dir.hold()?;
            // Before the lock: a directory found running (`rundir::running`) has its token.
            dir.write_token(token)?;
            if !users.is_empty() {
                dir.write_tokens(users)?;
            }
            let lock = dir.claim()?;
            dir.write_about(about)?;
            let stderr = dir.create_stderr()?;
            rustix::stdio::dup2_stderr(&stderr)?;
            Ok::<_, std::io::Error>((held, lock))
        })();
        match made {
            Ok((held, lock)) => {
                let path = dir.path().to_path_buf();
                self.settled = Some(Settled { dir, lock, held });
                Ok(path)
            }
            Err(error) => {
                let _ = dir.remove();
                Err(format!(
                    "cannot set up its directory {}: {}",
                    dir.path().display(),
                    reason(&error)
                ))
            }
        }
    }

    /// Writes how the run ended, the last thing before the process exits; or, for an emulator
    /// never handed over (nobody got its variables), removes its run directory.
    pub(crate) fn leave(self, exit: Exit) {
        let Some(settled) = self.settled else {
            return;
        };
        // The lock and the directory are let go by the process's end itself, not before:
        // `--stop` waits for the lock, and a process still ending when `--stop` returns would be
        // one left running.
        std::mem::forget(settled.lock);
        std::mem::forget(settled.held);
        if !self.handed_over.load(Ordering::SeqCst) {
            if let Err(error) = settled.dir.remove() {
                say(&format!(
                    "safe-ad emulator: error: it ended before it was handed over, and its \
                     directory {} cannot be removed: {}\n",
                    settled.dir.path().display(),
                    reason(&error)
                ));
            }
            return;
        }
        let status = match exit {
            Exit::Stopped | Exit::Ready => Status::Stopped,
            Exit::Usage => Status::Usage,
            Exit::Failed | Exit::Command(_) | Exit::Relayed(_) => Status::Failed,
        };
        if let Err(error) = settled.dir.write_status(status) {
            say(&format!(
                "safe-ad emulator: error: cannot write how it ended to {}: {}\n",
                settled.dir.path().display(),
                reason(&error)
            ));
        }
    }
}

/// Seconds since 1970, for `about`.
pub(crate) fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs())
}

/// Handed over: stdin and stdout become /dev/null, so nothing of the starter's is held.
fn let_go_of_the_starter() {
    if let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        let _ = rustix::stdio::dup2_stdin(&null);
        let _ = rustix::stdio::dup2_stdout(&null);
    }
}

/// The starter is gone before it printed the variables: stop as SIGTERM stops the emulator.
fn stop_self() {
    let _ = rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::TERM);
}
