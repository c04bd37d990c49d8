//! `safe-ad emulator --background`: the emulator as a service for the steps of a CI job, the way
//! `ssh-agent` is one (`eval "$(ssh-agent)"`, `ssh-agent -k`).
//!
//! The starter ([`start`]) makes a run directory (`rundir`), starts `safe-ad emulator` again with
//! the same options but the starter's own, as a process of its own: its stdin is /dev/null, its
//! stderr the run directory's `stderr` file, and its stdout a pipe to the starter, on which it
//! prints its two variables once it listens (as it always does). The starter waits for that, for
//! the emulator to end, for a signal, or for `--ready-timeout`, whichever comes first:
//!
//! - ready: it shows what the emulator said while starting (the demo banner, notes), prints the
//!   four variables in the asked format, and exits 0, leaving the emulator running;
//! - ended: it shows what the emulator said, removes the run directory and exits with the
//!   emulator's own exit code;
//! - a signal (SIGINT, SIGTERM, SIGHUP) or the timeout: it stops the emulator (SIGTERM, then
//!   SIGKILL if that does not end it), shows what it said, removes the run directory, and exits
//!   128 + N for signal N, or 1 for the timeout. Nothing is left running either way.
//!
//! The emulator knows it runs in the background by [`DAEMON`] in its environment, naming the run
//! directory ([`Daemon::enter`]): it starts a session of its own (no terminal's Ctrl-C or hangup
//! reaches it), holds the run directory's lock for as long as it runs, and writes how it ended as
//! the last thing it does. Its own stop is the one every emulator has (`lifecycle`): SIGTERM from
//! `--stop` (see `stop`) saves `--state` and writes the last `--log` record.

use std::ffi::OsString;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use super::args::EmulatorArgs;
use super::command::exit_code;
use super::fixture::reason;
use super::rundir::{relay_from, RunDir, Status};
use super::{runtime, say, watch_signals, Exit};

/// Names the run directory in the environment of an emulator started by `--background`.
pub const DAEMON: &str = "SAFE_AD_EMULATOR_DAEMON";

/// How long the starter waits for the emulator to listen, unless `--ready-timeout` says.
pub const READY_TIMEOUT: Duration = Duration::from_secs(30);

/// How long an emulator the starter stops may take to end before it is killed.
const STOP_LIMIT: Duration = Duration::from_secs(10);

/// The options only the starter reads; every other one is the emulator's.
const STARTER_FLAGS: [&str; 1] = ["--background"];
const STARTER_OPTIONS: [&str; 2] = ["--format", "--ready-timeout"];

/// The variables printed, in this order.
pub const VARIABLES: [&str; 4] = [
    "SAFE_LAUNCHER_URL",
    "SAFE_LAUNCHER_TOKEN",
    "SAFE_AD_EMULATOR_PID",
    "SAFE_AD_EMULATOR_DIR",
];

/// Starts the emulator in the background as `args` say; see the module's notes.
pub fn start(args: &EmulatorArgs) -> Exit {
    if stdout_is_nowhere() {
        // The variables would be lost without an error, and with them the only way to use the
        // emulator or to stop it.
        say(
            "safe-ad emulator: error: --background: stdout is /dev/null (or closed), so the \
             variables that name the emulator, and let --stop stop it, would be lost; send them \
             to a file or eval them. Nothing was started\n",
        );
        return Exit::Usage;
    }
    let exit = match runtime() {
        Ok(runtime) => runtime.block_on(starting(args)),
        Err(exit) => exit,
    };
    if exit != Exit::Ready && args.format.as_deref() != Some("env") {
        eval_fails();
    }
    exit
}

/// What `--background --format sh` prints on stdout when it started nothing (after its message
/// on stderr): a command that fails, so that `eval "$(safe-ad emulator --background)"` fails too
/// and a `set -e` script stops there, with the start's own message, rather than at a later
/// command that finds no token. Only where the exit code is lost, a pipe (`$(...)`) or a
/// terminal: a regular file (`> vars`) gets nothing, since the line that wrote it fails on its
/// exit code, and a file sourced later (a GitLab `after_script`) must not stop the step that
/// stops the emulator. (`--format env` prints nothing either: an env file takes no commands, and
/// the step that appends to it fails on the exit code.)
pub const EVAL_FAILS: &str =
    "false # safe-ad emulator --background started nothing: its error is above\n";

/// Prints [`EVAL_FAILS`] on stdout, unless stdout is a regular file (see there); a stdout that
/// takes nothing has nobody to tell.
pub fn eval_fails() {
    use std::io::Write;
    if stdout_is_a_file() {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(EVAL_FAILS.as_bytes())
        .and_then(|()| stdout.flush());
}

/// For a command line clap refused: when it was `emulator --background` in the sh format, prints
/// [`EVAL_FAILS`] as a start that fails does.
pub fn refused(args: &[OsString]) {
    let words: Vec<&std::ffi::OsStr> = args
        .iter()
        .map(OsString::as_os_str)
        .skip_while(|arg| *arg != "emulator")
        .take_while(|arg| *arg != "--")
        .collect();
    let env_format = words
        .windows(2)
        .any(|pair| pair[0] == "--format" && pair[1] == "env")
        || words.iter().any(|arg| *arg == "--format=env");
    if words.iter().any(|arg| *arg == "--background") && !env_format {
        eval_fails();
    }
}

/// A child being started: its id, the news of its end, and its `stderr` file, open (it may
/// remove its directory as it ends: see [`Daemon::leave`]).
struct Child {
    pid: u32,
    ended: tokio::sync::oneshot::Receiver<std::io::Result<ExitStatus>>,
    said: File,
}

async fn starting(args: &EmulatorArgs) -> Exit {
    let export = args.format.as_deref() != Some("env");
    let limit = args
        .ready_timeout
        .map_or(READY_TIMEOUT, Duration::from_secs);
    // From now on a signal is the starter's to handle: it stops what it started.
    let mut signals = match watch_signals() {
        Ok(signals) => signals,
        Err(exit) => return exit,
    };
    let dir = match RunDir::create() {
        Ok(dir) => dir,
        Err(error) => {
            say(&format!(
                "safe-ad emulator: error: --background: cannot make its directory in {}: {}\n",
                std::env::temp_dir().display(),
                reason(&error)
            ));
            return Exit::Failed;
        }
    };
    if !export && dir.path().to_string_lossy().contains(['\n', '\r']) {
        say(
            "safe-ad emulator: error: --background --format env: the temporary directory's path \
             holds a line break, which an env file cannot hold; set TMPDIR\n",
        );
        let _ = dir.remove();
        return Exit::Failed;
    }
    let spawned = dir.create_stderr().and_then(|stderr| {
        let said = dir.open_stderr()?;
        let child = Command::new(std::env::current_exe()?)
            .arg("emulator")
            .args(emulator_args())
            .env(DAEMON, dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()?;
        Ok((child, said))
    });
    let (mut spawned, said) = match spawned {
        Ok(child) => child,
        Err(error) => {
            say(&format!(
                "safe-ad emulator: error: --background: cannot start the emulator: {}\n",
                reason(&error)
            ));
            let _ = dir.remove();
            return Exit::Failed;
        }
    };
    let (lines, ready) = tokio::sync::oneshot::channel();
    let stdout = spawned.stdout.take();
    std::thread::spawn(move || {
        let _ = lines.send(stdout.and_then(read_variables));
    });
    let (exited, ended) = tokio::sync::oneshot::channel();
    let mut child = Child {
        pid: spawned.id(),
        ended,
        said,
    };
    std::thread::spawn(move || {
        let _ = exited.send(spawned.wait());
    });
    tokio::select! {
        variables = ready => match variables {
            Ok(Some((url, token))) => {
                if let Err(error) = print_variables(&dir, child.pid, &url, &token, export) {
                    // Nobody got the variables, so nobody could stop it: stop it now.
                    say(&format!(
                        "safe-ad emulator: error: --background: cannot print the variables ({}); \
                         stopping the emulator\n",
                        reason(&error)
                    ));
                    stop_starting(&dir, child, Exit::Failed).await
                } else {
                    if !args.quiet {
                        say(&format!(
                            "safe-ad emulator: running in the background as process {}; \
                             `safe-ad emulator --stop` stops it and shows what it said (it \
                             writes its stderr to {}/stderr)\n",
                            child.pid,
                            dir.path().display()
                        ));
                    }
                    Exit::Ready
                }
            }
            // Its stdout ended without the two lines: it ended, or is ending.
            _ => match tokio::time::timeout(STOP_LIMIT, &mut child.ended).await {
                Ok(Ok(Ok(status))) => ended_early(&dir, &mut child.said, status),
                _ => {
                    say("safe-ad emulator: error: --background: the emulator closed its output \
                         without saying where it listens\n");
                    stop_starting(&dir, child, Exit::Failed).await
                }
            },
        },
        status = &mut child.ended => match status {
            Ok(Ok(status)) => ended_early(&dir, &mut child.said, status),
            _ => stop_starting(&dir, child, Exit::Failed).await,
        },
        signal = signals.next() => {
            say(&format!(
                "safe-ad emulator: {}: stopping the emulator it was starting\n",
                signal.name()
            ));
            stop_starting(&dir, child, Exit::Relayed(128 + signal.number())).await
        }
        () = tokio::time::sleep(limit) => {
            say(&format!(
                "safe-ad emulator: error: --background: the emulator was not listening after {} s \
                 (--ready-timeout); stopping it. A --log FIFO that nobody reads, or a --token-file \
                 that nobody writes, keeps it waiting\n",
                limit.as_secs()
            ));
            stop_starting(&dir, child, Exit::Failed).await
        }
    }
}

/// Whether stdout is a regular file.
fn stdout_is_a_file() -> bool {
    std::fs::metadata("/dev/stdout").is_ok_and(|meta| meta.is_file())
}

/// Whether stdout is `/dev/null`, where Rust's runtime also puts a stdout that was closed.
fn stdout_is_nowhere() -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (
            std::fs::metadata("/dev/stdout"),
            std::fs::metadata("/dev/null"),
        ) {
            (Ok(stdout), Ok(null)) => stdout.dev() == null.dev() && stdout.ino() == null.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// The arguments after `emulator`, without the starter's own options.
fn emulator_args() -> Vec<OsString> {
    let mut out = Vec::new();
    let mut args = std::env::args_os()
        .skip_while(|arg| arg != "emulator")
        .skip(1);
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy();
        if STARTER_FLAGS.contains(&text.as_ref()) {
            continue;
        }
        if STARTER_OPTIONS.contains(&text.as_ref()) {
            args.next();
            continue;
        }
        if STARTER_OPTIONS
            .iter()
            .any(|option| text.starts_with(&format!("{option}=")))
        {
            continue;
        }
        out.push(arg);
    }
    out
}

/// Reads the two lines an emulator prints once it listens; `None` if its stdout ended first.
fn read_variables(stdout: std::process::ChildStdout) -> Option<(String, String)> {
    let mut lines = BufReader::new(stdout).lines();
    let url = lines.next()?.ok()?;
    let token = lines.next()?.ok()?;
    Some((
        url.strip_prefix("SAFE_LAUNCHER_URL=")?.to_owned(),
        token.strip_prefix("SAFE_LAUNCHER_TOKEN=")?.to_owned(),
    ))
}

/// It listens: shows what it said while starting and prints the variables.
fn print_variables(
    dir: &RunDir,
    pid: u32,
    url: &str,
    token: &str,
    export: bool,
) -> std::io::Result<()> {
    use std::io::Write;
    let shown = dir.relay(0, &mut std::io::stderr().lock()).unwrap_or(0);
    let _ = dir.write_shown(shown);
    let values = [
        url.to_owned(),
        token.to_owned(),
        pid.to_string(),
        dir.path().display().to_string(),
    ];
    let mut text = String::new();
    for (name, value) in VARIABLES.iter().zip(&values) {
        if export {
            text.push_str(&format!("export {name}={}\n", sh_quote(value)));
        } else {
            text.push_str(&format!("{name}={value}\n"));
        }
    }
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
}

/// It ended before it listened: show what it said, exit as it did.
fn ended_early(dir: &RunDir, said: &mut File, status: ExitStatus) -> Exit {
    let _ = relay_from(said, 0, &mut std::io::stderr().lock());
    let _ = dir.remove();
    match exit_code(status) {
        // Ended cleanly without ever listening (a signal someone sent it): it did not start.
        0 => {
            say("safe-ad emulator: error: --background: the emulator ended before it listened\n");
            Exit::Failed
        }
        code => Exit::Relayed(code),
    }
}

/// Stops an emulator that was starting (or had just become ready): SIGTERM, and SIGKILL if it
/// has not ended after [`STOP_LIMIT`]; then shows what it said and removes its directory. `exit`
/// is what the starter exits with.
async fn stop_starting(dir: &RunDir, mut child: Child, exit: Exit) -> Exit {
    // Not reaped yet (the starter is its parent), so the id still names it.
    signal(child.pid, false);
    if tokio::time::timeout(STOP_LIMIT, &mut child.ended)
        .await
        .is_err()
    {
        signal(child.pid, true);
        let _ = tokio::time::timeout(STOP_LIMIT, &mut child.ended).await;
    }
    let _ = relay_from(&mut child.said, 0, &mut std::io::stderr().lock());
    let _ = dir.remove();
    exit
}

/// SIGTERM (or SIGKILL) to the emulator being started.
fn signal(pid: u32, kill: bool) {
    #[cfg(unix)]
    {
        use rustix::process::{kill_process, Pid, Signal};
        if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
            let _ = kill_process(pid, if kill { Signal::KILL } else { Signal::TERM });
        }
    }
    #[cfg(not(unix))]
    let _ = (pid, kill);
}

/// `value` in single quotes for sh, bash and zsh (`'` as `'\''`).
fn sh_quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', r"'\''"))
}

/// Called by an emulator in the background once it listens, before it tells the starter where:
/// from then on it outlives the starter (see [`Daemon::enter`]).
pub fn outlive_starter() {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    let _ = rustix::process::set_parent_process_death_signal(None);
}

/// An emulator that runs in the background: it holds its run directory's lock until it exits.
pub struct Daemon {
    dir: RunDir,
    _lock: File,
}

impl Daemon {
    /// When [`DAEMON`] is in the environment: leaves the caller's session and takes the run
    /// directory's lock. `None` when this emulator was not started by `--background`.
    pub fn enter() -> Option<Result<Daemon, String>> {
        let path = PathBuf::from(std::env::var_os(DAEMON)?);
        #[cfg(unix)]
        {
            // Fails only for a process group leader, which a child of the starter is not.
            let _ = rustix::process::setsid();
        }
        // Until it listens, the starter's end is its end: a starter killed meanwhile (nothing can
        // stop the emulator for it then) stops it, as SIGTERM does.
        #[cfg(any(target_os = "linux", target_os = "android"))]
        let _ =
            rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::TERM));
        let dir = RunDir::at(path);
        Some(match dir.claim() {
            Ok(lock) => Ok(Daemon { dir, _lock: lock }),
            Err(error) => Err(format!(
                "safe-ad emulator: error: cannot take the lock of {}: {}\n",
                dir.path().display(),
                reason(&error)
            )),
        })
    }

    /// Writes how the run ended, the last thing before the process exits (and lets go of the
    /// lock). An emulator that ends before its starter showed its start (and so before anyone
    /// got the variables) removes its run directory instead: a starter that is still there
    /// shows what it said from the `stderr` file it holds open, and one that was killed (with
    /// SIGKILL, which it cannot handle) would leave the directory to nobody.
    pub fn leave(self, exit: Exit) {
        // The lock is let go by the process's end itself, not before: `--stop` waits for it,
        // and a process still ending when `--stop` returns would be one left running.
        std::mem::forget(self._lock);
        if !self.dir.was_shown() {
            if let Err(error) = self.dir.remove() {
                say(&format!(
                    "safe-ad emulator: error: it ended before it was handed over, and its \
                     directory {} cannot be removed: {}\n",
                    self.dir.path().display(),
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
        if let Err(error) = self.dir.write_status(status) {
            say(&format!(
                "safe-ad emulator: error: cannot write how it ended to {}: {}\n",
                self.dir.path().display(),
                reason(&error)
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_quoted_for_the_shell() {
        assert_eq!(sh_quote("http://127.0.0.1:8100"), "'http://127.0.0.1:8100'");
        assert_eq!(sh_quote("a'b$c`d"), r"'a'\''b$c`d'");
    }
}
