//! `safe-ad man [COMMAND...]`: prints the page of safe-ad or of any command, byte for byte the
//! committed one under `man/`; every command's page is reachable by its words; an unknown
//! command is refused (exit 2) with the way to find the right one; stdout that cannot be written
//! is not a success; on a terminal the page is shown with `man -l -`, unless `--roff` asks for
//! the roff or there is no `man`.

use crate::harness::{have, repo_root, safe_ad_bin, SafeAd, Sandbox};
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
        return;
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
