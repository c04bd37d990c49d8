//! `safe-ad man [COMMAND...]`: the man page of safe-ad or of a command, as `generate::man`
//! writes it (the committed `man/` holds the same pages). On a terminal the page is shown with
//! `man -l -`, where `man` is installed; elsewhere, with `--roff`, or without `man`, it is printed
//! as roff. `--list` names every page. Nothing is sent and no setting is used.

use std::io::{IsTerminal, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

use crate::cli::ManArgs;
use crate::generate::man;
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
use crate::sanitize;
use crate::signals::HandedOver;

pub fn run(args: &ManArgs, reporter: &Reporter) -> Result<Done, Failure> {
    if args.list {
        reporter.man_list(&man::list());
        return Ok(Done::Success);
    }
    let words: Vec<&str> = args.command.iter().map(String::as_str).collect();
    let page = man::page(&words).ok_or_else(|| no_such_command(&words))?;
    if !args.roff && std::io::stdout().is_terminal() {
        if let Some(shown) = shown_with_man(&page) {
            return shown;
        }
    }
    reporter.man_page(&page);
    Ok(Done::Success)
}

fn no_such_command(words: &[&str]) -> Failure {
    let typed = sanitize::line(words.join(" ").as_bytes(), 80);
    Failure::usage(format!(
        "there is no command `safe-ad {typed}`, so no page for it"
    ))
    .with_hint(
        "`safe-ad --help` lists the commands (`safe-ad man auth status` for one of a group), \
             and `safe-ad man --list` every page",
    )
}

/// Shows `page` with `man -l -`, which formats it for the terminal and pages it, and waits for
/// it; `None` when `man` cannot be started (then the roff is printed instead). The terminal is
/// handed to it while it runs (`signals::HandedOver`): Ctrl-C there is its, and a SIGTERM or
/// SIGHUP that comes to safe-ad alone is passed on, so `man` and its pager stop with the run.
fn shown_with_man(page: &str) -> Option<Result<Done, Failure>> {
    let handed = HandedOver::new();
    let mut child = Command::new("man")
        .args(["-l", "-"])
        .stdin(Stdio::piped())
        .spawn()
        .ok()?;
    // Written beside the wait, so a signal is passed on even while `man` has not read it all.
    let writer = child.stdin.take().map(|mut stdin| {
        let page = page.to_owned();
        std::thread::spawn(move || match stdin.write_all(page.as_bytes()) {
            // A pager left before the end of the page closes the pipe: not a failure.
            Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Some(error),
            _ => None,
        })
    });
    let ended = match handed.wait(&mut child) {
        Ok(ended) => ended,
        Err(error) => {
            return Some(Err(Failure::new(
                Class::Unexpected,
                format!("could not wait for `man -l -`: {error}"),
            )))
        }
    };
    if ended.stopped || ended.status.signal().is_some() {
        return Some(Err(Failure::new(
            Class::Interrupted,
            format!(
                "stopped: `man -l -` {}",
                match (ended.stopped, ended.status.signal()) {
                    (true, _) => "was passed the signal that stopped safe-ad".to_owned(),
                    (false, Some(signal)) => format!("was ended by signal {signal}"),
                    (false, None) => "ended".to_owned(),
                }
            ),
        )));
    }
    let unwritten = writer.and_then(|writer| writer.join().ok().flatten());
    Some(match (ended.status.code(), unwritten) {
        (Some(0), None) => Ok(Done::Success),
        (Some(0), Some(error)) => Err(Failure::new(
            Class::Unexpected,
            format!("could not hand the page to `man -l -`: {error}"),
        )
        .with_hint("`safe-ad man --roff` prints the page itself, for `man -l` or a file")),
        (code, _) => Err(Failure::new(
            Class::Unexpected,
            format!(
                "`man -l -` failed (exit status {})",
                code.map_or("unknown".to_owned(), |code| code.to_string())
            ),
        )
        .with_hint("`safe-ad man --roff` prints the page itself, for `man -l` or a file")),
    })
}
