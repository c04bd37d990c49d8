//! One run of `safe-ad emulator`, from the first signal handler to the exit code, in one ordered
//! piece that every way of stopping goes through (Ctrl-C, SIGTERM, SIGHUP, the end of
//! `-- COMMAND`):
//!
//! 1. watch the signals (before anything that may take time);
//! 2. prepare on a thread of its own, since each step may block for long: check the files given
//!    (their types, and that no two options name one file: nothing is opened or written before),
//!    read the token file, open, lock and read the `--state` file, open the `--log` file (a FIFO
//!    waits for its reader). A signal meanwhile ends the run at once: nothing was served, nothing
//!    is saved. A start that ends before it serves (refused, stopped by a signal, or unable to
//!    listen) removes the files it made itself, a new `--state` or `--log` file, so that it
//!    leaves nothing behind (`files::Made`);
//! 3. listen, print the two variables (with `--background`, to the starter's pipe, after the
//!    "listening" line, so that the starter shows it; a starter gone by then stops the run), and
//!    serve until a signal (or run COMMAND, passing signals on to it);
//! 4. stop: accept nothing more, refuse what has not started, let what is in progress finish
//!    (a second signal cuts it off), and take the snapshot (`Server::stop`);
//! 5. save the `--state` file;
//! 6. write the stop record, the last line of the `--log` file, with counts that cover every
//!    request line above it (a second signal stops waiting for a stalled log);
//! 7. the totals on stderr, and the exit code: a failure to save or to log is never exit 0.

use std::io::Read;
use std::path::Path;
use std::time::Duration;

use crate::launcher::demo;
use crate::launcher::wire::Network;
use crate::service::args::EmulatorArgs;
use crate::service::command;
use crate::service::daemon::{self, Daemon};
use crate::service::exit::{say, Exit};
use crate::service::files::{self, Given, Made, Use};
use crate::service::fixture::{self, reason, Fixture, Notes};
use crate::service::log::{self, LogEnd, RecordLog};
use crate::service::rundir::About;
use crate::service::server::check_token;
use crate::service::server::{start, Options, Server, Stopped};
use crate::service::signals::{self, Signal, Signals};

/// Runs the emulator as `args` say, listening on `listen`; `daemon` when `--background` started
/// it. Needs a current-thread runtime.
pub(crate) async fn run(
    args: &EmulatorArgs,
    listen: std::net::SocketAddr,
    daemon: Option<&mut Daemon>,
) -> Exit {
    let command_mode = !args.command.is_empty();
    let mut signals = match signals::watch() {
        Ok(signals) => signals,
        Err(exit) => return exit,
    };
    if let Some(daemon) = &daemon {
        // A starter gone before it printed the variables is a SIGTERM from now on.
        daemon.watch_starter();
    }

    // 2. Prepare, interruptibly.
    let made = Made::default();
    let (ready, prepared) = tokio::sync::oneshot::channel();
    let preparing = Preparing {
        made: made.clone(),
        token: args.token.clone(),
        token_file: args.token_file.clone(),
        state: args.state.clone(),
        import: args.import.clone(),
        log: args.log.clone(),
        quiet: args.quiet,
        users: args.users.clone(),
    };
    std::thread::spawn(move || {
        let _ = ready.send(preparing.prepare());
    });
    let prepared = tokio::select! {
        prepared = prepared => prepared,
        signal = signals.next() => {
            made.remove();
            return before_ready(signal, command_mode, args.quiet);
        }
    };
    let Prepared {
        token,
        fixture,
        records,
    } = match prepared {
        Ok(Ok(prepared)) => prepared,
        Ok(Err((message, exit))) => {
            made.remove();
            say(&format!("safe-ad emulator: error: {message}\n"));
            return exit;
        }
        Err(_) => {
            made.remove();
            return Exit::Failed;
        }
    };
    let (fixture, network) = match fixture {
        Some((fixture, network, notes)) => {
            for note in notes.lines {
                say(&format!("safe-ad emulator: {note}\n"));
            }
            if !args.quiet {
                if let Some((option, path)) = fixture_option(args) {
                    for line in fixture::summary(option, path, &network) {
                        say(&format!("safe-ad emulator: {line}\n"));
                    }
                }
            }
            (fixture, Some(network))
        }
        None => (None, None),
    };

    // 3. Listen and serve.
    let demo = !args.empty && network.is_none();
    let network_loaded = network.is_some();
    let options = Options {
        // A command always gets a free port, so runs can overlap.
        listen: if command_mode {
            std::net::SocketAddr::new(listen.ip(), 0)
        } else {
            listen
        },
        token,
        empty: args.empty,
        deny_auth: args.deny_auth,
        hang_unknown_clears: args.hang_unknown_clears,
        strict_paths: args.strict_paths,
        log_requests: !command_mode && !args.quiet,
        records: records.clone(),
        network,
        users: args.users.clone(),
        fault_rate: args.fault_rate,
        fault_seed: args.fault_seed,
    };
    let shown_listen = options.listen;
    let server = match start(options).await {
        Ok(server) => server,
        Err(error) => {
            made.remove();
            say(&format!(
                "safe-ad emulator: error: cannot listen on {shown_listen}: {error}{}\n",
                if error.kind() == std::io::ErrorKind::AddrInUse {
                    " (another emulator or launcher is there? --listen 127.0.0.1:0 picks a free port)"
                } else {
                    ""
                }
            ));
            return Exit::Failed;
        }
    };
    if let Some(records) = &records {
        // Before anything is served (nothing runs until this task waits): the first line.
        let network = if demo {
            "demo"
        } else if network_loaded {
            "state"
        } else {
            "empty"
        };
        records.record(log::start_record(&server.url(), network, &server.live()));
    }
    if demo && !args.quiet {
        say(&demo::banner());
    }
    let ended = if command_mode {
        Exit::Command(command::run(&args.command, &server, &mut signals, args.quiet).await)
    } else {
        serve_until_signal(&server, &mut signals, args, daemon).await
    };

    // 4. The ordered stop; a second signal cuts off what is still in progress.
    let stopped = server
        .stop(async {
            signals.next().await;
        })
        .await;
    let mut failed = false;

    // 5. Save.
    if let (Some(fixture), Some(path)) = (&fixture, &args.state) {
        if let Err(error) = fixture.save(&stopped.network) {
            failed = true;
            say(&format!(
                "safe-ad emulator: error: cannot save --state {}: {} (the file is as it was at \
                 the start)\n",
                path.display(),
                reason(&error)
            ));
        }
    }

    // 6. The last log record.
    if let (Some(records), Some(path)) = (&records, &args.log) {
        let end = records
            .finish(stop_record(&stopped), async {
                signals.next().await;
            })
            .await;
        if !end.is_whole() {
            failed = true;
            log::line(log_failure(path, &end));
        }
    }

    // 7. Totals and the exit code.
    if !args.quiet && (!command_mode || args.fault_rate > 0.0) {
        // Worth a short wait for room: stderr may be a full pipe nobody reads.
        log::line_within(
            format!(
                "safe-ad emulator: {}\nsafe-ad emulator: live handles: {}\n",
                stopped.stats, stopped.live
            ),
            Duration::from_millis(250),
        );
    }
    match ended {
        Exit::Command(code) if code != 0 => Exit::Command(code),
        _ if failed => Exit::Failed,
        other => other,
    }
}

/// Prints the two `eval`-able lines (with `--background`, once it has made its run directory,
/// three lines to the starter), then serves until a signal.
async fn serve_until_signal(
    server: &Server,
    signals: &mut Signals,
    args: &EmulatorArgs,
    daemon: Option<&mut Daemon>,
) -> Exit {
    use std::io::Write;
    let quiet = args.quiet;
    let background = daemon.is_some();
    let listening = (!quiet).then(|| {
        format!(
            "safe-ad emulator: listening on {} ({} stops it); one line per request follows\n",
            server.url(),
            if background {
                "`safe-ad emulator --stop`"
            } else {
                "Ctrl-C"
            }
        )
    });
    let mut lines = format!(
        "SAFE_LAUNCHER_URL={}\nSAFE_LAUNCHER_TOKEN={}\n",
        server.url(),
        server.token()
    );
    let users = (!quiet).then(|| users_line(server)).flatten();
    if let Some(daemon) = daemon {
        // Said before the directory is made: until then stderr goes to the starter, which
        // shows it.
        if let Some(listening) = &listening {
            say(listening);
        }
        if let Some(users) = &users {
            say(users);
        }
        let named = server.doors().iter().filter_map(|door| {
            let name = door.name.clone()?;
            Some((name, door.url(), door.token.clone()))
        });
        let (urls, tokens): (Vec<_>, Vec<_>) = named
            .map(|(name, url, token)| ((name.clone(), url), (name, token)))
            .unzip();
        let about = About {
            url: server.url(),
            started: daemon::now(),
            fixture: fixture_option(args)
                .map(|(option, path)| {
                    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
                    format!("{option} {}", path.display())
                })
                .unwrap_or_default(),
            users: urls,
        };
        match daemon.settle(&about, server.token(), &tokens) {
            Ok(dir) => lines.push_str(&format!("{}={}\n", daemon::DIR_LINE, dir.display())),
            Err(problem) => {
                say(&format!(
                    "safe-ad emulator: error: --background: {problem}\n"
                ));
                return Exit::Failed;
            }
        }
    }
    if !background {
        // Each named user's too; with --background, `emulator env --user NAME` prints them.
        for (name, value) in server.user_variables() {
            lines.push_str(&format!("{name}={value}\n"));
        }
    }
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_all(lines.as_bytes())
        .and_then(|()| stdout.flush());
    drop(stdout);
    if background {
        // Nobody got where it listens, so nobody could use or stop it.
        if written.is_err() {
            say(
                "safe-ad emulator: error: the --background starter is gone before it learnt \
                 where the emulator listens; stopping\n",
            );
            return Exit::Failed;
        }
    } else {
        // A closed stdout is not a reason to stop serving.
        if let Some(listening) = &listening {
            say(listening);
        }
        if let Some(users) = &users {
            say(users);
        }
    }
    let signal = signals.next().await;
    if !quiet {
        // Through the log queue: stderr may be a full pipe nobody reads; stopping must not wait.
        log::line(format!(
            "safe-ad emulator: {}: stopping (a second signal cuts off requests in progress)\n",
            signal.name()
        ));
    }
    Exit::Stopped
}

/// The line that says where each named user listens (no token), or `None` without `--user`:
/// `safe-ad emulator: users: alice http://127.0.0.1:8100 (SAFE_LAUNCHER_URL), bob http://...`.
fn users_line(server: &Server) -> Option<String> {
    let doors = server.doors();
    doors.first()?.name.as_ref()?;
    let each: Vec<String> = doors
        .iter()
        .enumerate()
        .map(|(index, door)| {
            format!(
                "{} {}{}",
                door.name.as_deref().unwrap_or("-"),
                door.url(),
                if index == 0 {
                    " (SAFE_LAUNCHER_URL)"
                } else {
                    ""
                }
            )
        })
        .collect();
    Some(format!(
        "safe-ad emulator: users, each a launcher of its own on one network: {}\n",
        each.join(", ")
    ))
}

/// A signal before the emulator was ready: nothing was served, nothing is saved. Standalone that
/// is the stop that was asked for (exit 0); with `-- COMMAND`, the command never ran (128 + N, as
/// if the signal had ended it).
fn before_ready(signal: Signal, command_mode: bool, quiet: bool) -> Exit {
    if !quiet {
        say(&format!(
            "safe-ad emulator: {} before it was ready: nothing was served, nothing saved\n",
            signal.name()
        ));
    }
    if command_mode {
        Exit::Command(128 + signal.number())
    } else {
        Exit::Stopped
    }
}

/// The stop record, given the number of request records lost:
/// `{"event":"stop","requests":N,...,"lost":L,"handles":{...}}`.
fn stop_record(stopped: &Stopped) -> impl FnOnce(u64) -> String + Send + 'static {
    let stats = stopped.stats;
    let handles = log::handles_json(&stopped.live);
    move |lost| {
        format!(
            "{{\"event\":\"stop\",\"requests\":{},\"answered_2xx\":{},\"answered_4xx\":{},\"injected_503\":{},\"dropped\":{},\"delayed\":{},\"refused\":{},\"aborted\":{},\"lost\":{lost},\"handles\":{handles}}}\n",
            stats.requests,
            stats.answered_2xx,
            stats.answered_4xx,
            stats.injected_503,
            stats.dropped,
            stats.delayed,
            stats.refused,
            stats.aborted,
        )
    }
}

/// What went wrong with the `--log` file, in one line.
fn log_failure(path: &Path, end: &LogEnd) -> String {
    let mut parts = Vec::new();
    if end.lost > 0 {
        parts.push(format!("{} request record(s) lost", end.lost));
    }
    if let Some(error) = &end.error {
        parts.push(format!("writing failed: {error}"));
    }
    if end.stalled {
        parts.push("its writer stopped writing (a reader that stopped reading?)".to_owned());
    }
    parts.push(if end.stop_written {
        "the stop record is the last line".to_owned()
    } else {
        "the stop record is not in it".to_owned()
    });
    format!(
        "safe-ad emulator: error: --log {}: {} records written, {}\n",
        path.display(),
        end.written,
        parts.join("; ")
    )
}

/// The fixture option given and its file: `--state` or `--import`.
pub(crate) fn fixture_option(args: &EmulatorArgs) -> Option<(&'static str, &Path)> {
    match (&args.state, &args.import) {
        (Some(path), _) => Some(("--state", path)),
        (None, Some(path)) => Some(("--import", path)),
        (None, None) => None,
    }
}

/// What the preparing thread is given.
struct Preparing {
    made: Made,
    token: Option<String>,
    token_file: Option<std::path::PathBuf>,
    state: Option<std::path::PathBuf>,
    import: Option<std::path::PathBuf>,
    log: Option<std::path::PathBuf>,
    quiet: bool,
    /// `--user`: the users named, which a fixture's users join.
    users: Vec<String>,
}

impl Preparing {
    /// The files it is given, as `files::check` takes them.
    fn files(&self) -> Vec<Given<'_>> {
        let options = [
            ("--token-file", &self.token_file, Use::Token),
            ("--state", &self.state, Use::State),
            ("--import", &self.import, Use::Import),
            ("--log", &self.log, Use::Log),
        ];
        options
            .into_iter()
            .filter_map(|(option, path, usage)| {
                path.as_deref().map(|path| Given {
                    option,
                    path,
                    usage,
                })
            })
            .collect()
    }
}

/// What it hands back.
struct Prepared {
    token: Option<String>,
    /// The network loaded, with the `--state` file to save it to (none for `--import`).
    fixture: Option<(Option<Fixture>, Network, Notes)>,
    records: Option<RecordLog>,
}

impl Preparing {
    /// Reads and opens everything, in the order the options are checked; the first problem
    /// (with its exit) ends it.
    fn prepare(self) -> Result<Prepared, (String, Exit)> {
        // Before any file is opened (a FIFO would wait) or written (a log over the fixture).
        files::check(&self.files()).map_err(|e| (e, Exit::Usage))?;
        let token =
            token_from(self.token_file.as_deref(), self.token).map_err(|e| (e, Exit::Usage))?;
        let quiet = self.quiet;
        let loading = |option: &'static str| {
            move |file: &Path, size: u64| {
                if !quiet {
                    say(&format!(
                        "safe-ad emulator: loading {option} {} ({:.1} MiB); a signal stops it\n",
                        file.display(),
                        size as f64 / (1024.0 * 1024.0)
                    ));
                }
            }
        };
        let fixture = match (&self.state, &self.import) {
            (Some(path), _) => {
                let opened = Fixture::open(path, &self.made, &self.users, loading("--state"));
                let (fixture, network, notes) = opened
                    .map_err(|e| (format!("--state {}: {}", path.display(), e.0), Exit::Usage))?;
                Some((Some(fixture), network, notes))
            }
            (None, Some(path)) => {
                let (network, notes) = fixture::import(path, &self.users, loading("--import"))
                    .map_err(|e| (format!("--import {}: {}", path.display(), e.0), Exit::Usage))?;
                Some((None, network, notes))
            }
            (None, None) => None,
        };
        let records = match &self.log {
            Some(path) => Some(RecordLog::create(path, &self.made).map_err(|e| {
                (
                    format!("--log {}: cannot create it: {}", path.display(), reason(&e)),
                    Exit::Usage,
                )
            })?),
            None => None,
        };
        Ok(Prepared {
            token,
            fixture,
            records,
        })
    }
}

/// How long the end of a run waits for stderr to take its last lines (it may be a full pipe).
pub(crate) const STDERR_GRACE: Duration = Duration::from_millis(500);

/// The largest token file read (the client's bound too).
pub(crate) const MAX_TOKEN_FILE: u64 = 64 * 1024;

/// The token to accept: `--token-file`'s, `--token`, or none (a random one).
fn token_from(file: Option<&Path>, token: Option<String>) -> Result<Option<String>, String> {
    let (token, option) = match (file, token) {
        (Some(path), _) => {
            let option = format!("--token-file {}", path.display());
            let text = read_token_file(path).map_err(|problem| format!("{option}: {problem}"))?;
            // The whole file, as the client reads one: a token file holds the token alone, on
            // one line, and a file of more lines (a JSON object written over several, a
            // comment) is a mistake to say, not a first line to take. What the one line holds
            // is then checked as any token is (`check_token`: printable ASCII, no whitespace):
            // compact JSON on one line passes, as it does in the client.
            let token = text.trim();
            if token.contains(['\n', '\r']) {
                return Err(format!(
                    "{option}: it holds more than one line; a token file holds the token alone, \
                     on one line"
                ));
            }
            (token.to_owned(), option)
        }
        (None, Some(token)) => (token, "--token".to_owned()),
        (None, None) => return Ok(None),
    };
    check_token(&token).map_err(|problem| format!("{option}: {problem}"))?;
    Ok(Some(token))
}

/// A token file's text: a regular file or a pipe (`--token-file <(...)`) of at most
/// [`MAX_TOKEN_FILE`] bytes; anything else is refused by its type before it is opened
/// (`files::refuse_kind`).
fn read_token_file(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| fixture::reason(&e))?;
    files::refuse_kind(&meta, files::Use::Token)?;
    let file = std::fs::File::open(path).map_err(|e| fixture::reason(&e))?;
    let mut bytes = Vec::new();
    file.take(MAX_TOKEN_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fixture::reason(&e))?;
    if bytes.len() as u64 > MAX_TOKEN_FILE {
        return Err("it is larger than 64 KiB; that is not a token".into());
    }
    String::from_utf8(bytes).map_err(|_| "it is not text".to_owned())
}
