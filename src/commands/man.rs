//! `safe-ad man [COMMAND...]`: the man page of safe-ad or of a command, as `generate::man`
//! writes it (the committed `man/` holds the same pages). On a terminal the page is shown with
//! `man -l -`, where `man` is installed; elsewhere, with `--roff`, or without `man`, it is printed
//! as roff. `--list` names every page. Nothing is sent and no setting is read.

use std::io::{IsTerminal, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

use crate::cli::ManArgs;
use crate::generate::man;
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
use crate::sanitize;

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
/// it; `None` when `man` cannot be started (then the roff is printed instead). The keyboard's
/// signals are left to `man` and its pager while it runs, so Ctrl-C there does not end safe-ad
/// under them.
fn shown_with_man(page: &str) -> Option<Result<Done, Failure>> {
    let mut child = Command::new("man")
        .args(["-l", "-"])
        .stdin(Stdio::piped())
        .spawn()
        .ok()?;
    crate::signals::leave_keyboard_signals();
    if let Some(mut stdin) = child.stdin.take() {
        // A pager left before the end of the page closes the pipe: not a failure.
        let _ = stdin.write_all(page.as_bytes());
    }
    let status = match child.wait() {
        Ok(status) => status,
        Err(error) => {
            return Some(Err(Failure::new(
                Class::Unexpected,
                format!("could not wait for `man -l -`: {error}"),
            )))
        }
    };
    Some(match status.code() {
        Some(0) => Ok(Done::Success),
        Some(code) => Err(Failure::new(
            Class::Unexpected,
            format!("`man -l -` failed (exit status {code})"),
        )
        .with_hint("`safe-ad man --roff` prints the page itself, for `man -l` or a file")),
        None => Err(Failure::new(
            Class::Unexpected,
            format!(
                "`man -l -` was ended by signal {}",
                status.signal().unwrap_or_default()
            ),
        )),
    })
}
