//! safe-ad-emulator: the stand-in launcher served by `safe-ad emulator`, a local HTTP server that
//! behaves like the SAFE Launcher 0.11.0's API (v0.6) for appendable data and the data-id,
//! sign-key, structured-data, immutable-data and cipher-opts routes it works with, as safe-ad's
//! `docs/launcher-api.md` describes them (and `docs/emulator-differences.md` lists where it
//! differs on purpose), so safe-ad (and scripts using it) can be tried and tested without the real
//! launcher.
//!
//! This crate owns the `emulator` subcommand's own options ([`EmulatorArgs`], which the client
//! flattens into its command tree) and its run ([`run`], [`list`] for `emulator list`,
//! [`background_refused`]); and, for safe-ad's tests only, one emulator in-process ([`start`],
//! [`Options`], [`Server`]) and the bounds and tables the tests check ([`state`], [`table`],
//! [`fault`], [`EVAL_FAILS`], [`STOPPING_BODY`], [`STATE_LIMIT`], [`IDLE_TIMEOUT`],
//! [`MAX_CONNECTIONS`], [`RECORD_QUEUE`]). Nothing else is public: the API is what the client and
//! its tests need, and no promise beyond that. (`safe-ad emulator requests` and `export`, clients
//! of a running emulator, are the client's.)
//!
//! It depends on nothing of the client, and the client on nothing of it but this API: the
//! emulator is how the client is checked, and a bug written once and used by both would pass
//! every test. The crate boundary makes the compiler hold that.
//!
//! Files: `lifecycle` (one run, from the signal handlers to the exit code, and the ordered stop),
//! `signals` (SIGTERM, SIGINT, SIGHUP), `server` (bind, accept, connections and their bounds,
//! counts, logs, the stop of the server), `table` (the route table and path matching), `routes`
//! (authorization, bodies, statuses and every answer), `js` (how the launcher's JavaScript read
//! request values), `state` (network, handle caches, sessions, their bounds), `wire` (the
//! `--state` format), `serialised` (the launcher's bytes of the serialise routes), `files` (the
//! files given: their types, that no two options name one, and those a start made, removed when
//! it ends before serving), `fixture` (the `--state` file:
//! lock, checks, atomic save), `demo` (the starting data), `fault`
//! (`--fault-rate`/`--fault-seed`), `command` (the `-- COMMAND` mode), `log` (the stderr log and
//! the `--log` records), `redact` (the token kept out of them), `admin` (the emulator's own
//! routes under `/_emulator/`: the request journal, network, handles and reset),
//! `background` (`--background`: the starter), `daemon` (the emulator's side of running
//! detached), `stop` (`--stop`), `list` (`emulator list`), `rundir` (the directory a background
//! emulator, its starter and `--stop` share), `encoding` (base64, hex, random).
//!
//! Demo handles (unless `--empty` or `--state`): 0 = appendable data not yet on the network, with
//! 3 data items (`put 0` works); 1 = appendable data on the network at version 1 with 3 data items
//! and 2 deleted items (`clear-data 1`, `clear-deleted-data 1`, `post 1` work); 2 = a stale copy
//! (`post 2` gives -25); 3 and 4 = data ids of 1's and 2's data; 5 = an inbox whose items are
//! immutable data. New handles start at 6 (at 0 with `--empty`). See `demo` for the details.
//!
//! Faults (`--fault-rate P`, `--fault-seed N`, default seed 1): each request to the four
//! operations or metadata gets, with probability P, a 503 with a launcher-style JSON body, a
//! connection closed without an answer, or a 50-300 ms delay before its normal answer; the seed
//! fixes the sequence (see `fault`).
//!
//! Stopping (see `lifecycle`): Ctrl-C, SIGTERM or SIGHUP (or the end of `-- COMMAND`) stops it
//! in order: nothing more is accepted, requests not started are refused (503), those in progress
//! finish (a second signal cuts them off), then `--state FILE` is saved and the `--log` file gets
//! its stop record, the last line. Unless `--quiet`, the last two lines on stderr give the totals,
//! `requests: N, answered 2xx: A, 4xx: B, injected 503: C, dropped: D, delayed: E` (and the
//! requests refused or cut off by the stop, if any), and the live handles of each type, `live
//! handles: appendable-data A, structured-data S, data-id D, sign-key K, encrypt-key E,
//! cipher-opts C` (with `-- COMMAND`, only when P > 0).
//!
//! Exit codes of `safe-ad emulator`: 0 after Ctrl-C, SIGTERM or SIGHUP; 2 for an unusable
//! `--listen`, `--token`, `--token-file`, `--fault-rate`, `--state`, `--import` or `--log` file
//! (one of a kind it does not take, or two options naming one file: `files`), a `--state` file
//! another emulator holds, or a `--` with no COMMAND after it (all found before serving);
//! 1 when it cannot listen, or cannot save its `--state` or write its whole `--log` (said on
//! stderr); with `-- COMMAND`, the command's code (128 + N if signal N killed it, 127 if it could
//! not be started), or 1 when the command succeeded but the state or log could not be written.
//! `--background`: 0 once the emulator listens, else the emulator's own code (1 when it did not
//! listen within `--ready-timeout`, 128 + N when signal N stopped the start). `--stop`: the
//! emulator's own code, 1 when none of those variables runs (or it had to be killed, or the
//! directory is not one `--background` made), 2 without the variables when several run; with
//! `--if-running`, 0 when no emulator was started.

#![forbid(unsafe_code)]

// Unix only, as safe-ad is: the emulator's stop, `-- COMMAND` and `--background` are built on
// Unix signals, process groups, `flock` and `/proc`, with no equivalent written for other systems.
#[cfg(not(unix))]
compile_error!("safe-ad-emulator runs on Unix only: it is built on Unix signals, process groups and file locks");

mod admin;
mod args;
mod background;
mod command;
mod daemon;
mod demo;
mod encoding;
pub mod fault;
mod files;
mod fixture;
mod js;
mod lifecycle;
mod list;
mod log;
mod redact;
mod routes;
mod rundir;
mod serialised;
mod server;
mod signals;
pub mod state;
mod stop;
pub mod table;
mod wire;

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;

pub use args::EmulatorArgs;
pub use background::{refused as background_refused, EVAL_FAILS};
pub use fixture::STATE_LIMIT;
pub use list::run as list;
pub use log::RECORD_QUEUE;
pub use server::{start, Options, Server, IDLE_TIMEOUT, MAX_CONNECTIONS, STOPPING_BODY};

use server::check_token;

/// The largest token file read (the client's bound too).
pub(crate) const MAX_TOKEN_FILE: u64 = 64 * 1024;

/// How a run of the emulator ended; the caller turns it into the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Stopped by Ctrl-C, SIGTERM or SIGHUP, with the state saved and the log whole.
    Stopped,
    /// An unusable option found before serving (already said on stderr).
    Usage,
    /// It could not listen, save its state or write its log (already said on stderr).
    Failed,
    /// `-- COMMAND` ended with this exit status (128 + N for signal N, 127 if it did not start).
    Command(u8),
    /// `--background`: it listens, and runs on in the background.
    Ready,
    /// `--background`: the emulator it started ended with this exit code before it listened
    /// (already said on stderr), or 128 + N when signal N stopped the start.
    Relayed(u8),
}

/// Runs the emulator until a signal stops it, or runs the given command against it; or, with
/// `--background`, starts it in the background, and with `--stop` stops that one.
pub fn run(args: &EmulatorArgs) -> Exit {
    if args.stop {
        return stop::run(args.if_running, args.pid, args.all);
    }
    if args.background {
        return background::start(args);
    }
    match daemon::Daemon::enter() {
        None => serve(args, None),
        Some(mut daemon) => {
            let exit = serve(args, Some(&mut daemon));
            daemon.leave(exit);
            exit
        }
    }
}

/// Runs the emulator until a signal stops it, or runs the given command against it; `daemon`
/// when `--background` started it.
fn serve(args: &EmulatorArgs, daemon: Option<&mut daemon::Daemon>) -> Exit {
    if args.command.is_empty() && bare_separator() {
        say(
            "safe-ad emulator: error: `--` must be followed by a COMMAND to run against the \
             emulator (leave `--` out to run the emulator on its own)\n",
        );
        return Exit::Usage;
    }
    let listen = match parse_listen(&args.listen) {
        Ok(listen) => listen,
        Err(problem) => {
            say(&format!(
                "safe-ad emulator: error: --listen {}: {problem}\n",
                args.listen
            ));
            return Exit::Usage;
        }
    };
    if let Some(token) = &args.token {
        if let Err(problem) = check_token(token) {
            say(&format!("safe-ad emulator: error: --token: {problem}\n"));
            return Exit::Usage;
        }
    }
    if let Err(problem) = fault::check_rate(args.fault_rate) {
        say(&format!(
            "safe-ad emulator: error: --fault-rate {}: {problem}\n",
            args.fault_rate
        ));
        return Exit::Usage;
    }
    let runtime = match runtime() {
        Ok(runtime) => runtime,
        Err(exit) => return exit,
    };
    let exit = runtime.block_on(lifecycle::run(args, listen, daemon));
    // Nothing is left running on it: the stop ended every connection.
    drop(runtime);
    log::flush(lifecycle::STDERR_GRACE);
    exit
}

/// The one-thread runtime a run (or a start in the background) needs; a failure is said.
fn runtime() -> Result<tokio::runtime::Runtime, Exit> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| {
            say(&format!("safe-ad emulator: error: cannot start: {error}\n"));
            Exit::Failed
        })
}

/// Watches SIGTERM, SIGINT and SIGHUP from now on (in a runtime); a failure is said.
fn watch_signals() -> Result<signals::Signals, Exit> {
    signals::Signals::install().map_err(|error| {
        say(&format!(
            "safe-ad emulator: error: cannot watch for signals: {error}\n"
        ));
        Exit::Failed
    })
}

/// Whether the command line has a `--` with nothing after it (clap reads it as no COMMAND). A
/// `--` can be no option's value, so one after the subcommand is the separator.
fn bare_separator() -> bool {
    std::env::args_os()
        .skip(1)
        .skip_while(|arg| arg != "emulator")
        .any(|arg| arg == "--")
}

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

/// Writes a message on stderr; a closed or broken stderr is not worth a panic.
pub(crate) fn say(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// `--listen`: an IP address with a port (`127.0.0.1:8100`, `[::1]:0`) or `localhost:PORT`, on
/// loopback only.
fn parse_listen(text: &str) -> Result<SocketAddr, String> {
    let addr =
        match text.parse::<SocketAddr>() {
            Ok(addr) => addr,
            Err(_) => match text.rsplit_once(':') {
                Some((host, port)) if host.eq_ignore_ascii_case("localhost") => {
                    let port = port
                        .parse::<u16>()
                        .map_err(|_| format!("`{port}` is not a port number"))?;
                    SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port)
                }
                _ => return Err(
                    "expected a loopback address and port, such as 127.0.0.1:8100 or 127.0.0.1:0"
                        .into(),
                ),
            },
        };
    if !addr.ip().is_loopback() {
        return Err(format!(
            "{} is not a loopback address; the emulator only listens on this machine \
             (use 127.0.0.1 or [::1])",
            addr.ip()
        ));
    }
    Ok(addr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses() {
        assert_eq!(parse_listen("127.0.0.1:8100").unwrap().port(), 8100);
        assert!(parse_listen("[::1]:0").is_ok());
        assert!(parse_listen("127.1.2.3:5").is_ok());
        assert_eq!(
            parse_listen("localhost:9").unwrap(),
            "127.0.0.1:9".parse::<SocketAddr>().unwrap()
        );
        for bad in [
            "0.0.0.0:8100",
            "[::]:1",
            "192.168.1.2:80",
            "example.com:80",
            "127.0.0.1",
            "localhost:x",
            "",
        ] {
            assert!(parse_listen(bad).is_err(), "{bad}");
        }
    }
}
