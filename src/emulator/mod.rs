//! The stand-in launcher served by `safe-ad emulator`: a local HTTP server that behaves like the
//! SAFE Launcher 0.11.0's API (v0.6) for appendable data and the data-id, sign-key and
//! structured-data routes it works with, as `docs/launcher-api.md` describes them, so safe-ad (and
//! scripts using it) can be tried and tested without the real launcher.
//!
//! This module owns the `emulator` subcommand ([`run`]) and a small library API for tests that
//! want one emulator per test in-process ([`start`], [`Options`], [`Server`]). It shares no code
//! with the client side (`launcher`, `outcome`, `handle`, ...) on purpose: the emulator is how the
//! client is checked, and a bug written once and used by both would pass every test.
//!
//! Files: `server` (bind, accept, connections, counts, logs, shutdown), `table` (the route table
//! and path matching), `routes` (authorization, bodies, statuses and every answer), `js` (how the
//! launcher's JavaScript read request values), `state` (network, handle caches, sessions), `wire`
//! (the `--state` file and serialised bytes), `demo` (the starting data), `fault`
//! (`--fault-rate`/`--fault-seed`), `command` (the `-- COMMAND` mode), `log` (the stderr log and
//! the `--log` records), `encoding` (base64, hex, random).
//!
//! Demo handles (unless `--empty` or `--state`): 0 = appendable data not yet on the network, with
//! 3 data items (`put 0` works); 1 = appendable data on the network at version 1 with 3 data items
//! and 2 deleted items (`clear-data 1`, `clear-deleted-data 1`, `post 1` work); 2 = a stale copy
//! (`post 2` gives -25); 3 and 4 = data ids of 1's and 2's data. New handles start at 5 (at 0
//! with `--empty`). See `demo` for the details.
//!
//! Faults (`--fault-rate P`, `--fault-seed N`, default seed 1): each request to the four
//! operations or metadata gets, with probability P, a 503 with a launcher-style JSON body, a
//! connection closed without an answer, or a 50-300 ms delay before its normal answer; the seed
//! fixes the sequence (see `fault`).
//!
//! On Ctrl-C or SIGTERM (unless `--quiet`), and at the end of `-- COMMAND` when P > 0, the last
//! two lines on stderr give the totals, `requests: N, answered 2xx: A, 4xx: B, injected 503: C,
//! dropped: D, delayed: E`, and the live handles of each type, `live handles: appendable-data A,
//! structured-data S, data-id D, sign-key K, encrypt-key E, cipher-opts C`. `--log FILE` ends with
//! the same figures as a JSON record. On a clean stop `--state FILE` is written back.
//!
//! Exit codes of `safe-ad emulator`: 0 after Ctrl-C or SIGTERM; 2 for an unusable `--listen`,
//! `--token`, `--token-file`, `--fault-rate` or `--state` file; 1 when it cannot listen, write its
//! `--log` or save its `--state`; with `-- COMMAND`, the command's code (128 + N if signal N
//! killed it, 127 if it could not be started).

mod args;
mod command;
pub mod demo;
mod encoding;
pub mod fault;
mod js;
mod log;
pub mod routes;
mod server;
pub mod state;
pub mod table;
pub mod wire;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::time::Duration;

pub use args::EmulatorArgs;
pub use server::{check_token, start, Counters, Options, Server, Stats};

/// How a run of the emulator ended; the caller turns it into the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Stopped by Ctrl-C or SIGTERM.
    Stopped,
    /// An unusable `--listen`, `--token`, `--token-file`, `--fault-rate` or `--state` file
    /// (already said on stderr).
    Usage,
    /// It could not listen or run (already said on stderr).
    Failed,
    /// `-- COMMAND` ended with this exit status (128 + N for signal N, 127 if it did not start).
    Command(u8),
}

/// Runs the emulator until Ctrl-C or SIGTERM, or runs the given command against it.
pub fn run(args: &EmulatorArgs) -> Exit {
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
    let token = match token_from(args) {
        Ok(token) => token,
        Err(problem) => {
            say(&format!("safe-ad emulator: error: {problem}\n"));
            return Exit::Usage;
        }
    };
    if let Err(problem) = fault::check_rate(args.fault_rate) {
        say(&format!(
            "safe-ad emulator: error: --fault-rate {}: {problem}\n",
            args.fault_rate
        ));
        return Exit::Usage;
    }
    let network = match &args.state {
        Some(path) => match read_state(path) {
            Ok(network) => Some(network),
            Err(problem) => {
                say(&format!(
                    "safe-ad emulator: error: --state {}: {problem}\n",
                    path.display()
                ));
                return Exit::Usage;
            }
        },
        None => None,
    };
    let command_mode = !args.command.is_empty();
    let options = Options {
        // A command always gets a free port, so runs can overlap.
        listen: if command_mode {
            SocketAddr::new(listen.ip(), 0)
        } else {
            listen
        },
        token,
        empty: args.empty,
        deny_auth: args.deny_auth,
        hang_unknown_clears: args.hang_unknown_clears,
        strict_paths: args.strict_paths,
        log_requests: !command_mode && !args.quiet,
        log_file: args.log.clone(),
        network,
        fault_rate: args.fault_rate,
        fault_seed: args.fault_seed,
    };
    let demo = !args.empty && options.network.is_none();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            say(&format!("safe-ad emulator: error: cannot start: {error}\n"));
            return Exit::Failed;
        }
    };
    let ended = runtime.block_on(async {
        let server = match start(options.clone()).await {
            Ok(server) => server,
            Err(error) => {
                say(&format!(
                    "safe-ad emulator: error: cannot listen on {}: {error}{}\n",
                    options.listen,
                    if error.kind() == std::io::ErrorKind::AddrInUse {
                        " (another emulator or launcher is there? --listen 127.0.0.1:0 picks a free port)"
                    } else {
                        ""
                    }
                ));
                return None;
            }
        };
        if demo && !args.quiet {
            say(&demo::banner());
        }
        let counters = server.counters();
        let code = if command_mode {
            Exit::Command(command::run(&args.command, &server).await)
        } else {
            serve_until_stopped(&server, args.quiet).await
        };
        // What a clean stop leaves: the figures, the last log record and the network.
        let live = server.live();
        server.close_log(Duration::from_secs(5));
        let network = server.state_file();
        server.shutdown().await;
        Some((code, counters, live, network))
    });
    // Drop the connections (a hanging request must not hold the exit), then write the last lines.
    drop(runtime);
    let Some((mut code, counters, live, network)) = ended else {
        return Exit::Failed;
    };
    if let Some(path) = &args.state {
        if let Err(error) = write_state(path, &network) {
            say(&format!(
                "safe-ad emulator: error: cannot save --state {}: {error}\n",
                path.display()
            ));
            if code == Exit::Stopped {
                code = Exit::Failed;
            }
        }
    }
    if !args.quiet && (!command_mode || args.fault_rate > 0.0) {
        // Never blocks for long: stderr may be a full pipe nobody reads.
        log::line_within(
            format!(
                "safe-ad emulator: {}\nsafe-ad emulator: live handles: {live}\n",
                counters.snapshot()
            ),
            Duration::from_millis(250),
        );
    }
    log::flush(Duration::from_millis(500));
    code
}

/// The token to accept: `--token-file`'s first line, `--token`, or none (a random one).
fn token_from(args: &EmulatorArgs) -> Result<Option<String>, String> {
    let (token, option) = match (&args.token_file, &args.token) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--token-file {}: {e}", path.display()))?;
            let first = text.lines().next().unwrap_or("").trim().to_owned();
            (first, format!("--token-file {}", path.display()))
        }
        (None, Some(token)) => (token.clone(), "--token".to_owned()),
        (None, None) => return Ok(None),
    };
    check_token(&token).map_err(|problem| format!("{option}: {problem}"))?;
    Ok(Some(token))
}

/// A `--state` file's network; a file that does not exist yet is an empty network.
fn read_state(path: &Path) -> Result<wire::StateFile, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(wire::StateFile {
                format: wire::STATE_FORMAT.to_owned(),
                appendable_data: Vec::new(),
                structured_data: Vec::new(),
            })
        }
        Err(error) => return Err(error.to_string()),
    };
    let file: wire::StateFile = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    if file.format != wire::STATE_FORMAT {
        return Err(format!(
            "format `{}` is not `{}`",
            file.format,
            wire::STATE_FORMAT
        ));
    }
    for ad in &file.appendable_data {
        wire::ad_from(ad)?;
    }
    for sd in &file.structured_data {
        wire::sd_from(sd)?;
    }
    Ok(file)
}

/// Writes the network to `path` atomically: a temporary file beside it, synced, then renamed
/// over it, so a reader never sees half a file and a crash leaves the old one.
fn write_state(path: &Path, network: &wire::StateFile) -> std::io::Result<()> {
    let mut text = serde_json::to_string_pretty(network).map_err(std::io::Error::other)?;
    text.push('\n');
    let file_name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = path.with_file_name(format!(".{file_name}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Prints the two `eval`-able lines, then serves until Ctrl-C or SIGTERM.
async fn serve_until_stopped(server: &Server, quiet: bool) -> Exit {
    // Watch for the signals before telling anyone the address, so an early SIGTERM is clean too.
    let stop = match stop_signal() {
        Ok(stop) => stop,
        Err(error) => {
            say(&format!(
                "safe-ad emulator: error: cannot watch for Ctrl-C: {error}\n"
            ));
            return Exit::Failed;
        }
    };
    let mut stdout = std::io::stdout().lock();
    // A closed stdout is not a reason to stop serving.
    let _ = write!(
        stdout,
        "SAFE_LAUNCHER_URL={}\nSAFE_LAUNCHER_TOKEN={}\n",
        server.url(),
        server.token()
    );
    let _ = stdout.flush();
    drop(stdout);
    if !quiet {
        say(&format!(
            "safe-ad emulator: listening on {} (Ctrl-C stops it); one line per request follows\n",
            server.url()
        ));
    }
    stop.await;
    if !quiet {
        // Through the log queue: stderr may be a full pipe nobody reads; stopping must not wait.
        log::line("safe-ad emulator: stopped\n".to_owned());
    }
    Exit::Stopped
}

/// A future that resolves on the first Ctrl-C (SIGINT) or SIGTERM; the handlers are installed
/// when this returns.
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut terminate = signal(SignalKind::terminate())?;
        let mut interrupt = signal(SignalKind::interrupt())?;
        Ok(async move {
            tokio::select! {
                _ = terminate.recv() => {}
                _ = interrupt.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
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
