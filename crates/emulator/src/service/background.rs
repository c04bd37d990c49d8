//! `safe-ad emulator --background`: the emulator as a service for the steps of a CI job, the way
//! `ssh-agent` is one (`eval "$(ssh-agent)"`, `ssh-agent -k`). This is the starter's side; the
//! emulator's is `daemon`.
//!
//! The starter ([`start`]) starts `safe-ad emulator` again with the same options but the
//! starter's own, as a process of its own, with three pipes: its stderr, shown as it comes, until
//! the emulator makes its run directory (`rundir`) and writes its stderr there; its stdout, on
//! which it prints where it listens, its token and its directory once it is ready; and its stdin,
//! on which the starter tells it, last of all, that its variables were printed ([`ACK`]). Until
//! it is told, the emulator watches that pipe: its end without the word (a starter killed at any
//! moment, even by SIGKILL) stops the emulator, which then removes its directory. The starter
//! waits for the emulator to be ready, for it to end, for a signal, or for `--ready-timeout`,
//! whichever comes first:
//!
//! - ready: it prints the four variables in the asked format, tells the emulator, and exits 0,
//!   leaving the emulator running;
//! - ended: what the emulator said has been shown; it exits with the emulator's own exit code;
//! - a signal (SIGINT, SIGTERM, SIGHUP) or the timeout: it stops the emulator (SIGTERM, then
//!   SIGKILL if that does not end it), and exits 128 + N for signal N, or 1 for the timeout.
//!   Nothing is left running either way.
//!
//! A start that fails also prints [`EVAL_FAILS`] on stdout, so that an `eval` of it fails.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::time::Duration;

use crate::service::args::EmulatorArgs;
use crate::service::command::exit_code;
use crate::service::daemon::{ACK, DAEMON, DIR_LINE};
use crate::service::exit::{say, Exit};
use crate::service::fixture::reason;
use crate::service::rundir::RunDir;
use crate::service::signals;

/// How long the starter waits for the emulator to listen, unless `--ready-timeout` says.
pub(crate) const READY_TIMEOUT: Duration = Duration::from_secs(30);

/// How long an emulator the starter stops may take to end before it is killed.
const STOP_LIMIT: Duration = Duration::from_secs(10);

/// The options only the starter reads; every other one is the emulator's.
const STARTER_FLAGS: [&str; 1] = ["--background"];
const STARTER_OPTIONS: [&str; 2] = ["--format", "--ready-timeout"];

/// The variables printed, in this order.
pub(crate) const VARIABLES: [&str; 4] = [
    "SAFE_LAUNCHER_URL",
    "SAFE_LAUNCHER_TOKEN",
    "SAFE_AD_EMULATOR_PID",
    "SAFE_AD_EMULATOR_DIR",
];

/// Starts the emulator in the background as `args` say; see the module's notes.
pub(crate) fn start(args: &EmulatorArgs) -> Exit {
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
    let exit = match signals::runtime() {
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
///
/// Public for safe-ad's tests, which check it; no API for other programs.
pub const EVAL_FAILS: &str =
    "false # safe-ad emulator --background started nothing: its error is above\n";

/// Prints [`EVAL_FAILS`] on stdout, unless stdout is a regular file (see there); a stdout that
/// takes nothing has nobody to tell.
pub(crate) fn eval_fails() {
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

/// A child being started: its id, the news of its end, the pipe on which it is told that its
/// variables were printed (its stdin), and what it said on stderr until it made its directory.
struct Child {
    pid: u32,
    ended: tokio::sync::oneshot::Receiver<std::io::Result<ExitStatus>>,
    ack: Option<ChildStdin>,
    said: Option<std::thread::JoinHandle<()>>,
}

impl Child {
    /// Waits (on a thread of its own) until everything it said before it made its directory has
    /// been shown, so that what the starter says next comes after it.
    fn all_said(&mut self) {
        if let Some(relay) = self.said.take() {
            let _ = relay.join();
        }
    }
}

async fn starting(args: &EmulatorArgs) -> Exit {
    let export = args.format.as_deref() != Some("env");
    // The run directory's path reaches the starter as a line, and an env file as a line: one
    // that holds a line break would arrive cut short, and name some other directory.
    if std::env::temp_dir()
        .to_string_lossy()
        .contains(['\n', '\r'])
    {
        say(
            "safe-ad emulator: error: --background: the temporary directory's path (TMPDIR) holds \
             a line break, which its variables cannot carry; set TMPDIR to another directory\n",
        );
        return Exit::Usage;
    }
    let limit = args
        .ready_timeout
        .map_or(READY_TIMEOUT, Duration::from_secs);
    // From now on a signal is the starter's to handle: it stops what it started.
    let mut signals = match signals::watch() {
        Ok(signals) => signals,
        Err(exit) => return exit,
    };
    let spawned = std::env::current_exe().and_then(|exe| {
        Command::new(exe)
            .arg("emulator")
            .args(emulator_args())
            .env(DAEMON, std::process::id().to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
    });
    let mut spawned = match spawned {
        Ok(child) => child,
        Err(error) => {
            say(&format!(
                "safe-ad emulator: error: --background: cannot start the emulator: {}\n",
                reason(&error)
            ));
            return Exit::Failed;
        }
    };
    // What it says while starting is shown as it comes; its stderr pipe ends when it makes its
    // directory (its stderr is then a file there) or ends.
    let said = spawned.stderr.take().map(|mut stderr| {
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut stderr, &mut std::io::stderr());
        })
    });
    let (lines, ready) = tokio::sync::oneshot::channel();
    let (closed, released) = tokio::sync::oneshot::channel();
    let stdout = spawned.stdout.take();
    std::thread::spawn(move || {
        let Some(stdout) = stdout else {
            return;
        };
        let mut stdout = BufReader::new(stdout);
        let _ = lines.send(read_variables(&mut stdout));
        // Its stdout ends once it has taken the word that the variables were printed (it then
        // lets go of the starter's pipes), or once it ends.
        let _ = std::io::copy(&mut stdout, &mut std::io::sink());
        let _ = closed.send(());
    });
    let (exited, ended) = tokio::sync::oneshot::channel();
    let mut child = Child {
        pid: spawned.id(),
        ended,
        ack: spawned.stdin.take(),
        said,
    };
    std::thread::spawn(move || {
        let _ = exited.send(spawned.wait());
    });
    tokio::select! {
        variables = ready => match variables {
            Ok(Some(ready)) => {
                child.all_said();
                let dir = RunDir::at(ready.dir.clone());
                let handed = print_variables(child.pid, &ready, export).and_then(|()| {
                    // Told last: until then, a starter that ends (killed) takes it with it.
                    let mut ack = child.ack.take().ok_or(std::io::ErrorKind::BrokenPipe)?;
                    ack.write_all(ACK.as_bytes())?;
                    ack.flush()
                });
                // Exit only once it has taken the word: a stop that came before it had would
                // find an emulator that takes itself for never handed over.
                let handed = match handed {
                    Ok(()) => match tokio::time::timeout(STOP_LIMIT, released).await {
                        Ok(_) if child.ended.try_recv().is_err() => Ok(()),
                        Ok(_) => Err(std::io::Error::other("it ended as it was handed over")),
                        Err(_) => Err(std::io::Error::other(
                            "it did not take the word that its variables were printed",
                        )),
                    },
                    Err(error) => Err(error),
                };
                if let Err(error) = handed {
                    // Nobody got the variables, or it is gone already: stop it now.
                    say(&format!(
                        "safe-ad emulator: error: --background: cannot hand the emulator over \
                         ({}); stopping it\n",
                        reason(&error)
                    ));
                    stop_starting(Some(&dir), child, Exit::Failed).await
                } else {
                    if !args.quiet {
                        say(&format!(
                            "safe-ad emulator: running in the background as process {}; \
                             `safe-ad emulator --stop` stops it and shows what it said (it \
                             writes its stderr to {}/stderr)\n",
                            child.pid,
                            ready.dir.display()
                        ));
                    }
                    Exit::Ready
                }
            }
            // Its stdout ended without the lines: it ended, or is ending.
            _ => match tokio::time::timeout(STOP_LIMIT, &mut child.ended).await {
                Ok(Ok(Ok(status))) => ended_early(&mut child, status),
                _ => {
                    say("safe-ad emulator: error: --background: the emulator closed its output \
                         without saying where it listens\n");
                    stop_starting(None, child, Exit::Failed).await
                }
            },
        },
        status = &mut child.ended => match status {
            Ok(Ok(status)) => ended_early(&mut child, status),
            _ => stop_starting(None, child, Exit::Failed).await,
        },
        signal = signals.next() => {
            say(&format!(
                "safe-ad emulator: {}: stopping the emulator it was starting\n",
                signal.name()
            ));
            stop_starting(None, child, Exit::Relayed(128 + signal.number())).await
        }
        () = tokio::time::sleep(limit) => {
            say(&format!(
                "safe-ad emulator: error: --background: the emulator was not listening after {} s \
                 (--ready-timeout); stopping it. A --log FIFO that nobody reads, or a \
                 --token-file pipe whose writer never writes, keeps it waiting\n",
                limit.as_secs()
            ));
            stop_starting(None, child, Exit::Failed).await
        }
    }
}

/// Whether stdout is a regular file.
fn stdout_is_a_file() -> bool {
    std::fs::metadata("/dev/stdout").is_ok_and(|meta| meta.is_file())
}

/// Whether stdout is `/dev/null`, where Rust's runtime also puts a stdout that was closed.
fn stdout_is_nowhere() -> bool {
    use std::os::unix::fs::MetadataExt;
    match (
        std::fs::metadata("/dev/stdout"),
        std::fs::metadata("/dev/null"),
    ) {
        (Ok(stdout), Ok(null)) => stdout.dev() == null.dev() && stdout.ino() == null.ino(),
        _ => false,
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

/// What an emulator in the background prints once it listens and has made its directory.
struct Ready {
    url: String,
    token: String,
    dir: PathBuf,
}

/// Reads the three lines an emulator in the background prints once it is ready; `None` if its
/// stdout ended first.
fn read_variables(stdout: &mut impl BufRead) -> Option<Ready> {
    let mut next = |name: &str| -> Option<String> {
        let mut line = String::new();
        stdout.read_line(&mut line).ok()?;
        let line = line.strip_suffix('\n')?;
        Some(line.strip_prefix(name)?.strip_prefix('=')?.to_owned())
    };
    Some(Ready {
        url: next("SAFE_LAUNCHER_URL")?,
        token: next("SAFE_LAUNCHER_TOKEN")?,
        dir: PathBuf::from(next(DIR_LINE)?),
    })
}

/// It is ready: prints the variables.
fn print_variables(pid: u32, ready: &Ready, export: bool) -> std::io::Result<()> {
    let text = variables(&ready.url, &ready.token, pid, &ready.dir, export);
    if export && std::io::stdout().is_terminal() {
        // Lines on a terminal set nothing: they are for a shell's `eval`.
        say("safe-ad emulator: these lines set nothing by themselves: run it as eval \"$(safe-ad emulator --background ...)\" to set them in this shell\n");
    }
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
}

/// The four variables ([`VARIABLES`]) as `--format` prints them: `export NAME='VALUE'` lines for
/// sh (`export`), else `NAME=VALUE` lines for an env file. `emulator env` prints them again.
pub(crate) fn variables(url: &str, token: &str, pid: u32, dir: &Path, export: bool) -> String {
    let values = [
        url.to_owned(),
        token.to_owned(),
        pid.to_string(),
        dir.display().to_string(),
    ];
    let mut text = String::new();
    for (name, value) in VARIABLES.iter().zip(&values) {
        if export {
            text.push_str(&format!("export {name}={}\n", sh_quote(value)));
        } else {
            text.push_str(&format!("{name}={value}\n"));
        }
    }
    text
}

/// It ended before it was ready: what it said is shown (it made no directory, or removed it),
/// and the starter exits as it did.
fn ended_early(child: &mut Child, status: ExitStatus) -> Exit {
    child.all_said();
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
/// has not ended after [`STOP_LIMIT`]; then shows what it said. An emulator that ends before it
/// is handed over removes its own directory; one that had to be killed cannot, so the starter
/// removes `dir` (when it learnt it) for it. `exit` is what the starter exits with.
async fn stop_starting(dir: Option<&RunDir>, mut child: Child, exit: Exit) -> Exit {
    // Not reaped yet (the starter is its parent), so the id still names it.
    signal(child.pid, false);
    if tokio::time::timeout(STOP_LIMIT, &mut child.ended)
        .await
        .is_err()
    {
        signal(child.pid, true);
        let _ = tokio::time::timeout(STOP_LIMIT, &mut child.ended).await;
        if let Some(dir) = dir.filter(|dir| dir.check_own().is_ok()) {
            let _ = dir.remove();
        }
    }
    child.all_said();
    exit
}

/// SIGTERM (or SIGKILL) to the emulator being started.
fn signal(pid: u32, kill: bool) {
    use rustix::process::{kill_process, Pid, Signal};
    if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
        let _ = kill_process(pid, if kill { Signal::KILL } else { Signal::TERM });
    }
}

/// `value` in single quotes for sh, bash and zsh (`'` as `'\''`).
fn sh_quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', r"'\''"))
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
