//! One run of `safe-ad emulator` from its parsed options: `--stop` (`stop`), `--background` (the
//! starter, `background`), or serving in this process (detached when a starter made it,
//! `daemon`): the options checked before anything starts (`--`, `--listen`, `--token`,
//! `--fault-rate`), then the runtime and the ordered run of `lifecycle`.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use crate::launcher::state::check_name;
use crate::service::args::EmulatorArgs;
use crate::service::exit::{say, Exit};
use crate::service::server::check_token;
use crate::service::{background, daemon, fault, lifecycle, log, signals, stop};

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
    for (index, name) in args.users.iter().enumerate() {
        let problem = match check_name(name) {
            Err(problem) => problem,
            Ok(()) if args.users[..index].contains(name) => {
                format!("`{name}` is given twice; each user is named once")
            }
            Ok(()) => continue,
        };
        say(&format!("safe-ad emulator: error: --user: {problem}\n"));
        return Exit::Usage;
    }
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
    let runtime = match signals::runtime() {
        Ok(runtime) => runtime,
        Err(exit) => return exit,
    };
    let exit = runtime.block_on(lifecycle::run(args, listen, daemon));
    // Nothing is left running on it: the stop ended every connection.
    drop(runtime);
    log::flush(lifecycle::STDERR_GRACE);
    exit
}

/// Whether the command line has a `--` with nothing after it (clap reads it as no COMMAND). A
/// `--` can be no option's value, so one after the subcommand is the separator.
fn bare_separator() -> bool {
    std::env::args_os()
        .skip(1)
        .skip_while(|arg| arg != "emulator")
        .any(|arg| arg == "--")
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
