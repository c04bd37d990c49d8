//! `safe-ad man [COMMAND...]`: prints the page of safe-ad or of any command, byte for byte the
//! committed one under `man/`; every command's page is reachable by its words; an unknown
//! command is refused (exit 2) with the way to find the right one; stdout that cannot be written
//! is not a success; on a terminal the page is shown with `man -l -`, unless `--roff` asks for
//! the roff or there is no `man`.

use std::time::Duration;

use crate::harness::{have, repo_root, safe_ad_bin, signal, skip, wait_until, SafeAd, Sandbox};
use crate::messages::{on_terminal, quoted};
use safe_ad::test_support::cli::COMMANDS;
use safe_ad::test_support::generate::man::{list, page};

fn committed(file: &str) -> String {
    std::fs::read_to_string(repo_root().join("man").join(file)).expect("a committed page")
}

#[test]
#[cfg_attr(
    not(feature = "emulator"),
    ignore = "the committed man pages are the default build's, with the emulator subcommand this \
              build leaves out"
)]
fn prints_the_committed_pages() {
    for (words, file) in [
        (&[][..], "safe-ad.1"),
        (&["remove"][..], "safe-ad-remove.1"),
        (&["auth", "status"][..], "safe-ad-auth-status.1"),
        (&["emulator", "requests"][..], "safe-ad-emulator-requests.1"),
        (&["man"][..], "safe-ad-man.1"),
    ] {
        SafeAd::new()
            .arg("man")
            .args(words)
            .run()
            .success()
            .stdout_is(&committed(file))
            .stderr_is("");
    }
    // --roff changes nothing off a terminal.
    SafeAd::new()
        .args(["man", "--roff", "remove"])
        .run()
        .success()
        .stdout_is(&committed("safe-ad-remove.1"));
}

/// Every command in the specs, at any depth, has its page under its own words, and `--list`
/// names each page with those words.
#[test]
fn every_command_has_its_page_by_its_words() {
    let listed = SafeAd::new().args(["man", "--list"]).run();
    listed.success();
    let mut expected = String::from("safe-ad.1\n");
    for spec in COMMANDS {
        let words: Vec<&str> = spec.path.split(' ').collect();
        SafeAd::new()
            .arg("man")
            .args(&words)
            .run()
            .success()
            .stdout_is(&page(&words).expect("a page for every spec"));
        expected.push_str(&format!("safe-ad-{}.1 {}\n", words.join("-"), spec.path));
    }
    // The specs list each group before its own, as the pages are ordered.
    listed.stdout_is(&expected);
    assert_eq!(list().len(), COMMANDS.len() + 1);
}

#[test]
fn an_unknown_command_is_refused_with_a_hint() {
    for words in [
        &["nope"][..],
        &["auth", "nope"],
        &["help"],
        &["remove", "1"],
    ] {
        let shown = words.join(" ");
        SafeAd::new()
            .arg("man")
            .args(words)
            .run()
            .code(2)
            .stdout_is("")
            .stderr_has(&format!(
                "safe-ad: error: there is no command `safe-ad {shown}`"
            ))
            .stderr_has("`safe-ad --help` lists the commands")
            .stderr_lacks("panicked");
    }
    SafeAd::new()
        .args(["man", "--list", "remove"])
        .run()
        .code(2)
        .stdout_is("");
}

/// A page that did not reach its file is not a success; a reader that left early is a quiet end,
/// as for every command.
#[test]
fn stdout_that_cannot_be_written_is_not_a_success() {
    let sandbox = Sandbox::new();
    for command in ["safe-ad man remove", "safe-ad man", "safe-ad man --list"] {
        sandbox
            .shell("sh", &format!("exec {command} > /dev/full"))
            .run()
            .code(1)
            .stderr_has("could not write to standard output (");
        sandbox
            .shell("bash", &format!("set -o pipefail; {command} | head -c 0"))
            .run()
            .success()
            .stderr_is("");
    }
}

/// On a terminal the page is shown by `man` (formatted: no roff requests), with `--roff` it is
/// the roff, and without `man` on PATH it is the roff too.
#[test]
fn on_a_terminal_man_shows_the_page() {
    if !have("script") || !have("man") {
        return skip("`script` and `man` are needed for a terminal and its man");
    }
    let sandbox = Sandbox::new();
    let shown = on_terminal(&sandbox, "MANPAGER=cat MANWIDTH=80 safe-ad man remove").run();
    shown
        .success()
        .stdout_has("SAFE-AD-REMOVE(1)")
        .stdout_has("safe-ad-remove - Move data items");
    assert!(!shown.stdout().contains(".TH "), "{}", shown.stdout());
    on_terminal(&sandbox, "MANPAGER=cat safe-ad man --roff remove")
        .run()
        .success()
        .stdout_has(r#".TH "SAFE\-AD\-REMOVE" 1"#);
    let bin = safe_ad_bin().to_str().expect("a UTF-8 path");
    on_terminal(
        &sandbox,
        &format!("PATH=/nonexistent {} man remove", quoted(bin)),
    )
    .run()
    .success()
    .stdout_has(r#".TH "SAFE\-AD\-REMOVE" 1"#);
}

/// The processes whose parent is `pid`, by their `/proc/PID/stat`.
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|child| {
            std::fs::read_to_string(format!("/proc/{child}/stat"))
                .ok()
                // `pid (comm) state ppid ...`: comm may hold spaces, so split after its `)`.
                .and_then(|stat| {
                    let (_, rest) = stat.rsplit_once(')')?;
                    rest.split_whitespace().nth(1)?.parse::<u32>().ok()
                })
                == Some(pid)
        })
        .collect()
}

/// Whether process `pid` is gone (or a zombie nobody waits for, which init reaps).
fn gone(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
    })
}

/// A SIGTERM that comes to safe-ad alone (`kill`, a CI runner's cancel) while `man` and its
/// pager hold the terminal stops them too: safe-ad passes it on and ends as a stopped run ends,
/// exit 130, rather than leave `man` and the pager on the terminal after it.
#[test]
fn sigterm_while_man_shows_the_page_stops_man_and_its_pager_too() {
    if !have("script") || !have("man") {
        return skip("`script` and `man` are needed for a terminal and its man");
    }
    let sandbox = Sandbox::new();
    let pid_file = sandbox.path().join("safe-ad.pid");
    let line = format!(
        "echo $$ > {}; MANPAGER='sleep 600' exec safe-ad man remove",
        quoted(pid_file.to_str().expect("a UTF-8 path"))
    );
    let running = on_terminal(&sandbox, &line).spawn();
    let limit = Duration::from_secs(30);
    let safe_ad: u32 = wait_until("safe-ad's pid", limit, || {
        std::fs::read_to_string(&pid_file).ok()?.trim().parse().ok()
    });
    // man, then the pager it starts (man may start it through a shell of its own).
    let (man, pager) = wait_until("man and its pager", limit, || {
        let man = *children_of(safe_ad).first()?;
        let pager = *children_of(man).first()?;
        Some((man, pager))
    });
    signal(safe_ad, "TERM");
    let output = running.wait();
    // Under `script` the terminal is stdout, stderr included.
    output
        .code(130)
        .stdout_has("stopped: `man -l -` was passed the signal that stopped safe-ad");
    for (what, pid) in [("man", man), ("its pager", pager)] {
        wait_until(&format!("{what} ({pid}) to end"), limit, || {
            gone(pid).then_some(())
        });
    }
}

/// A `man` killed by someone else's signal (`kill -9`, the OOM killer) while its pager holds
/// the terminal with echo off: safe-ad says so (exit 1, not the 130 of a stopped run), stops the
/// pager that `man` left behind, and gives the terminal its echo back (issue 51).
#[test]
fn a_killed_man_leaves_no_pager_and_the_terminal_as_it_was() {
    if !have("script") || !have("man") || !have("stty") {
        return skip("`script`, `man` and `stty` are needed for a terminal and its man");
    }
    let sandbox = Sandbox::new();
    // A pager as `less` is to the terminal: echo off while it shows the page.
    let pager = sandbox.file(
        "pager",
        "#!/bin/sh\nstty -echo < /dev/tty\nexec sleep 600\n",
    );
    std::fs::set_permissions(&pager, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let pid_file = sandbox.path().join("safe-ad.pid");
    let line = format!(
        "MANPAGER={} safe-ad man remove & echo $! > {}; wait $!; echo \"exit $?\"; \
         stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\{{0,1\\}}echo'",
        quoted(pager.to_str().expect("a UTF-8 path")),
        quoted(pid_file.to_str().expect("a UTF-8 path"))
    );
    let running = on_terminal(&sandbox, &line).spawn();
    let limit = Duration::from_secs(30);
    let safe_ad: u32 = wait_until("safe-ad's pid", limit, || {
        std::fs::read_to_string(&pid_file).ok()?.trim().parse().ok()
    });
    let (man, pager) = wait_until("man and its pager with echo off", limit, || {
        let man = *children_of(safe_ad).first()?;
        let pager = *children_of(man).first()?;
        let command = std::fs::read_to_string(format!("/proc/{pager}/cmdline")).ok()?;
        command.starts_with("sleep").then_some((man, pager))
    });
    // Not a signal safe-ad handles (as `signal` waits for): `man` is killed outright.
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &man.to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success(), "kill -KILL {man}");
    let output = running.wait();
    output
        .success()
        .stdout_has("`man -l -` was ended by signal 9")
        .stdout_has("exit 1\r\n");
    // The line `stty` printed for the echo flag: `echo`, not `-echo`.
    assert!(
        output
            .stdout()
            .lines()
            .any(|line| line.trim_end() == "echo"),
        "the terminal was left without echo: {}",
        output.stdout()
    );
    wait_until(&format!("the pager ({pager}) to end"), limit, || {
        gone(pager).then_some(())
    });
}
