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
/// A `man` that did not end as it should (killed by a signal of someone else's, or stopped by
/// ours) leaves the terminal as it found it and no pager behind ([`Terminal`]).
fn shown_with_man(page: &str) -> Option<Result<Done, Failure>> {
    let handed = HandedOver::new();
    let terminal = Terminal::taken();
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
    let cut_short = ended.stopped || ended.status.signal().is_some();
    terminal.given_back(cut_short);
    if ended.stopped {
        return Some(Err(Failure::new(
            Class::Interrupted,
            "stopped: `man -l -` was passed the signal that stopped safe-ad",
        )));
    }
    if let Some(signal) = ended.status.signal() {
        // Not a stop of safe-ad's: someone else's signal ended `man` (`kill -9`, the OOM
        // killer), which is a failure to show the page, not an interrupted run.
        return Some(Err(Failure::new(
            Class::Unexpected,
            format!("`man -l -` was ended by signal {signal}, and its pager with it"),
        )
        .with_hint(
            "`safe-ad man --roff` prints the page itself, for `man -l` or a file",
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

/// The terminal as `man` found it, and the pager `man` starts: a `man` that is killed leaves its
/// pager running on the terminal (an orphan, not a child of ours) and the terminal as the pager
/// set it (no echo). While `man` runs, safe-ad is the subreaper of what it starts (Linux), so an
/// orphaned pager becomes its child, to be stopped and waited for; and the terminal's settings
/// taken before are put back.
struct Terminal {
    settings: Option<rustix::termios::Termios>,
    /// The children safe-ad had before (a shell session's `.watch`): never taken for orphans.
    #[cfg(target_os = "linux")]
    before: Vec<u32>,
}

impl Terminal {
    fn taken() -> Terminal {
        #[cfg(target_os = "linux")]
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
        Terminal {
            settings: rustix::termios::tcgetattr(std::io::stdout()).ok(),
            #[cfg(target_os = "linux")]
            before: children(),
        }
    }

    /// After `man` ended: when it was `cut_short`, its orphans are stopped (SIGTERM, then waited
    /// for) and the terminal's settings put back; either way safe-ad stops being a subreaper,
    /// which a shell session running later lines must not stay.
    fn given_back(self, cut_short: bool) {
        #[cfg(target_os = "linux")]
        {
            if cut_short {
                let orphans = children()
                    .into_iter()
                    .filter(|pid| !self.before.contains(pid));
                orphans.for_each(stop);
            }
            let _ = rustix::process::set_child_subreaper(None);
        }
        if let (true, Some(settings)) = (cut_short, self.settings) {
            let _ = rustix::termios::tcsetattr(
                std::io::stdout(),
                rustix::termios::OptionalActions::Now,
                &settings,
            );
        }
    }
}

/// Stops an orphan of `man`'s and waits for it: SIGTERM (a pager puts the terminal back), and
/// SIGKILL if it has not ended a second later.
#[cfg(target_os = "linux")]
fn stop(orphan: u32) {
    use rustix::process::{waitpid, Pid, Signal, WaitOptions};
    let Some(pid) = i32::try_from(orphan).ok().and_then(Pid::from_raw) else {
        return;
    };
    crate::signals::send_to(orphan, Signal::TERM);
    for _ in 0..50 {
        match waitpid(Some(pid), WaitOptions::NOHANG) {
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(20)),
            _ => return,
        }
    }
    crate::signals::send_to(orphan, Signal::KILL);
    let _ = waitpid(Some(pid), WaitOptions::empty());
}

/// This process's children now, from `/proc/self/task/*/children` (Linux): after `man` was
/// killed, the pager it left, reparented to safe-ad as the subreaper.
#[cfg(target_os = "linux")]
fn children() -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    (tasks.filter_map(Result::ok))
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|children| {
            (children.split_whitespace())
                .filter_map(|pid| pid.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}
