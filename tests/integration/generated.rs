//! The committed completions and man pages match what the clap definition, the tables and README
//! generate; the man pages render, refer only to pages that exist, show option arguments and carry
//! README's reference sections; every list of exit codes matches `outcome::EXIT_CODES`; and one
//! version is written everywhere.
//!
//! The checks never write. To refresh the generated files after changing `src/cli.rs`, a table,
//! or a README reference section, run the regeneration command (an ignored test, run by name):
//!     cargo test --test integration regenerate -- --ignored
//!
//! The committed files are those of the default build, which has the `emulator` subcommand; a
//! build without the emulator generates files without it, so there the two tests that compare
//! them are ignored, saying why.

use std::collections::BTreeSet;
use std::path::Path;

use crate::harness::{
    have, named_in_filter, readme, readme_section, repo_root as root, SafeAd, Sandbox,
};
use safe_ad::outcome::EXIT_CODES;

/// The command that rewrites every committed generated file (this module's and `bad_input`'s).
pub const REGENERATE: &str = "cargo test --test integration regenerate -- --ignored";

/// Every generated file whose committed copy is not what this build generates, and every file in
/// `completions/` or `man/` that is no longer generated.
fn stale_files() -> Vec<String> {
    let generated = safe_ad::generate::generated_files();
    let mut stale: Vec<String> = generated
        .iter()
        .filter(|(relative, expected)| {
            std::fs::read(root().join(relative)).ok().as_deref() != Some(expected.as_slice())
        })
        .map(|(relative, _)| relative.clone())
        .collect();
    stale.extend(
        no_longer_generated(&generated)
            .into_iter()
            .map(|relative| format!("{relative} (no longer generated)")),
    );
    stale
}

/// The files in `completions/` and `man/` that are not among `generated`: pages of a subcommand
/// that is gone.
fn no_longer_generated(generated: &[(String, Vec<u8>)]) -> Vec<String> {
    let wanted: BTreeSet<&str> = generated.iter().map(|(path, _)| path.as_str()).collect();
    let mut gone = Vec::new();
    for dir in ["completions", "man"] {
        for entry in std::fs::read_dir(root().join(dir)).expect(dir) {
            let relative = format!(
                "{dir}/{}",
                entry.expect("entry").file_name().to_string_lossy()
            );
            if !wanted.contains(relative.as_str()) {
                gone.push(relative);
            }
        }
    }
    gone
}

/// Fails unless the test run's filter says `regenerate`: the regeneration commands rewrite
/// committed files, so they run only when asked for by name, never as part of a run of every
/// ignored test (`--include-ignored`).
#[track_caller]
pub fn assert_asked_by_name() {
    assert!(
        named_in_filter("regenerate"),
        "this is a regeneration command, not a check: run it by name ({REGENERATE}); to run \
         every other ignored test: cargo test -- --include-ignored --skip regenerate"
    );
}

#[test]
#[cfg_attr(
    not(feature = "emulator"),
    ignore = "the committed completions and man pages are the default build's, with the emulator \
              subcommand this build leaves out"
)]
fn completions_and_man_pages_are_up_to_date() {
    let stale = stale_files();
    assert!(
        stale.is_empty(),
        "generated files are out of date: {stale:?}\nrefresh them with: {REGENERATE}"
    );
}

/// The regeneration command, not a check: rewrites the committed completions and man pages from
/// this build and removes pages no longer generated. It runs only when the run's filter names it
/// (see [`assert_asked_by_name`]), so no run of every ignored test rewrites files behind the
/// checks.
/// Only in the default build: the committed files have the emulator subcommand.
#[cfg(feature = "emulator")]
#[test]
#[ignore = "rewrites committed files: cargo test --test integration regenerate -- --ignored"]
fn regenerate_completions_and_man_pages() {
    assert_asked_by_name();
    let generated = safe_ad::generate::generated_files();
    for (relative, contents) in &generated {
        let path = root().join(relative);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, contents).expect("write");
    }
    for relative in no_longer_generated(&generated) {
        std::fs::remove_file(root().join(&relative)).expect("remove");
    }
    assert_eq!(
        stale_files(),
        Vec::<String>::new(),
        "still stale after writing"
    );
}

#[test]
#[cfg_attr(
    not(feature = "emulator"),
    ignore = "the committed completions are the default build's, with the emulator subcommand \
              this build leaves out"
)]
fn completions_command_prints_the_committed_file() {
    for (shell, file) in [
        ("bash", "completions/safe-ad.bash"),
        ("zsh", "completions/_safe-ad"),
        ("fish", "completions/safe-ad.fish"),
        ("elvish", "completions/safe-ad.elv"),
        ("powershell", "completions/_safe-ad.ps1"),
    ] {
        let expected =
            std::fs::read_to_string(root().join(file)).expect("committed completion file");
        SafeAd::new()
            .args(["completions", shell])
            .run()
            .success()
            .stdout_is(&expected);
    }
}

#[test]
fn every_exit_code_is_documented_in_help_man_page_and_readme() {
    let help = SafeAd::new().arg("--help").run();
    // clap wraps help to the terminal width, so compare with white space folded.
    let help = fold(help.success().stdout());
    let man = std::fs::read_to_string(root().join("man/safe-ad.1")).expect("man page");
    let readme = readme();
    for row in EXIT_CODES {
        assert!(
            help.contains(&fold(&format!("{} {}", row.code, row.meaning))),
            "--help lacks exit code {}",
            row.code
        );
        assert!(
            man.contains(&format!(".TP\n\\fB{}\\fR\n", row.code)),
            "man page lacks exit code {}",
            row.code
        );
        assert!(
            readme.contains(&format!("| {} | `{}` |", row.code, row.name)),
            "README's exit-code table lacks `| {} | `{}` |`",
            row.code,
            row.name
        );
    }
    for section in ["EXIT STATUS", "ENVIRONMENT", "FILES"] {
        assert!(
            man.contains(&format!(".SH {section}")) || man.contains(&format!(".SH \"{section}\"")),
            "man page lacks {section}"
        );
    }
}

/// The committed pages, by file name.
fn committed_pages() -> Vec<(String, String)> {
    let mut pages: Vec<(String, String)> = std::fs::read_dir(root().join("man"))
        .expect("man/")
        .map(|entry| {
            let path = entry.expect("entry").path();
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read_to_string(&path).expect("page"))
        })
        .collect();
    pages.sort();
    pages
}

/// A page as `man -l` shows it, wide, in UTF-8; fails if man or groff warns about it.
#[track_caller]
pub fn render(page: &Path) -> String {
    let output = Sandbox::new()
        .shell("sh", "exec man --warnings -l \"$0\"")
        .arg(page)
        .env("LANG", "C.UTF-8")
        .env("MANWIDTH", "200")
        .run();
    output.success().stderr_is("");
    output.stdout().to_owned()
}

/// Every page renders with no warning, and every page one refers to, `safe-ad-...(1)`, is one
/// that is committed (clap_mangen's own list named pages nobody wrote).
#[test]
fn man_pages_render_and_refer_only_to_pages_that_exist() {
    if !have("man") {
        return;
    }
    let pages = committed_pages();
    let names: BTreeSet<String> = pages.iter().map(|(name, _)| name.clone()).collect();
    assert!(names.contains("safe-ad.1") && names.len() > 1, "{names:?}");
    for (name, _) in &pages {
        let text = render(&root().join("man").join(name));
        assert!(text.contains("NAME"), "{name} renders to:\n{text}");
        // A reference, as the reader sees it: `safe-ad-put(1)`, in any font.
        for before in text.split("(1)").collect::<Vec<_>>().iter().rev().skip(1) {
            let start = before
                .rfind(|c: char| !(c.is_ascii_lowercase() || c == '-'))
                .map_or(0, |at| at + 1);
            let page = &before[start..];
            if !page.starts_with("safe-ad") {
                continue;
            }
            assert!(
                names.contains(&format!("{page}.1")),
                "{name} refers to {page}(1), which is not in man/"
            );
        }
    }
}

/// The man page as a person reads it: SYNOPSIS shows each option's argument, and the page says
/// what README's reference sections say, where handles come from, and what `-`, `--save` and
/// the emulator do.
#[test]
fn man_page_shows_option_arguments_and_carries_readme() {
    if !have("man") {
        return;
    }
    let text = render(&root().join("man/safe-ad.1"));
    let folded = fold(&text);
    let synopsis = fold(section(&text, "SYNOPSIS"));
    let mut command = safe_ad::help::command();
    command.build();
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if !arg.get_num_args().is_some_and(|range| range.takes_values()) {
            continue;
        }
        let Some(value) = arg.get_value_names().and_then(|names| names.first()) else {
            continue;
        };
        let shown = match arg.get_short() {
            Some(short) => format!("[-{short}|--{long} {value}]"),
            None => format!("[--{long} {value}]"),
        };
        assert!(
            synopsis.contains(&shown),
            "SYNOPSIS lacks {shown}: {synopsis}"
        );
    }
    for heading in safe_ad::generate::README_SECTIONS {
        let body = readme_section(heading);
        assert!(
            text.contains(&format!("\n{}\n", heading.to_uppercase())),
            "the man page has no section {}",
            heading.to_uppercase()
        );
        for paragraph in prose(&body) {
            assert!(
                folded.contains(&paragraph),
                "the man page lacks README's words, from {heading}: {paragraph}"
            );
        }
    }
    let handles = fold(section(&text, "HANDLES"));
    for command in [
        "safe-ad create",
        "safe-ad open",
        "safe-ad reopen",
        "safe-ad drop",
    ] {
        assert!(handles.contains(command), "HANDLES does not name {command}");
    }
    assert!(
        folded.contains("- as a handle reads handles from standard input"),
        "nothing about `-`"
    );
    assert!(
        folded.contains("safe-ad clear-data [--save OPERATION] HANDLE..."),
        "nothing about --save"
    );
    if cfg!(feature = "emulator") {
        assert!(
            folded.contains("safe-ad emulator [--listen ADDR]"),
            "nothing about the emulator"
        );
    }
}

/// A subcommand's page shows its own options with their arguments, and takes its text from
/// the command's long help.
#[test]
fn subcommand_pages_show_their_synopsis_and_long_help() {
    if !have("man") {
        return;
    }
    let text = render(&root().join("man/safe-ad-clear-data.1"));
    assert!(
        fold(section(&text, "SYNOPSIS"))
            .contains("safe-ad clear-data [OPTIONS] [--save OPERATION] HANDLE..."),
        "{text}"
    );
    let command = safe_ad::help::command();
    let long_help = command
        .find_subcommand("clear-data")
        .and_then(|sub| sub.get_long_about())
        .expect("clear-data has long help")
        .to_string();
    let first = long_help.split("\n\n").next().expect("a paragraph");
    assert!(fold(&text).contains(&fold(first)), "{text}");
}

/// Cargo.toml's version is the one `--version` prints, every man page carries, and CHANGELOG's
/// newest entry is about. (The package's is checked in `package.rs`.)
#[test]
fn one_version_everywhere() {
    let version = env!("CARGO_PKG_VERSION");
    SafeAd::new()
        .arg("--version")
        .run()
        .success()
        .stdout_is(&format!("safe-ad {version}\n"));
    for (name, roff) in committed_pages() {
        let title = roff
            .lines()
            .find(|line| line.starts_with(".TH "))
            .unwrap_or_else(|| panic!("{name} has no .TH"));
        assert!(
            title.contains(&format!("\"safe\\-ad {version}\"")),
            "{name}: {title}"
        );
    }
    let changelog = std::fs::read_to_string(root().join("CHANGELOG.md")).expect("CHANGELOG.md");
    let newest = changelog
        .lines()
        .find(|line| line.starts_with("## ["))
        .expect("CHANGELOG has a version entry");
    assert!(
        newest.starts_with(&format!("## [{version}]")),
        "CHANGELOG's newest entry is {newest:?}, Cargo.toml says {version}"
    );
}

/// White space folded to single spaces.
fn fold(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of one `SECTION` of a rendered page, up to the next heading at the margin.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let start = text
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no {heading} in:\n{text}"))
        + heading.len()
        + 2;
    let rest = &text[start..];
    let end = rest
        .match_indices('\n')
        .map(|(at, _)| at + 1)
        .find(|&at| rest[at..].starts_with(|c: char| c.is_ascii_uppercase()))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The paragraphs and list items of a README section as plain words (markup left out, white
/// space folded): what the rendered man page must say. Tables and code are left out; they are
/// laid out differently there.
fn prose(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut in_code = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let ends = line.trim().is_empty()
            || line.starts_with("- ")
            || line.starts_with('|')
            || line.starts_with('#');
        if ends && !current.is_empty() {
            out.push(fold(&current));
            current.clear();
        }
        if in_code || line.starts_with('|') || line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        current.push(' ');
        current.push_str(line.strip_prefix("- ").unwrap_or(line));
    }
    if !current.is_empty() {
        out.push(fold(&current));
    }
    out.iter()
        .map(|text| {
            let mut plain = String::new();
            let mut rest = text.as_str();
            while let Some(c) = rest.chars().next() {
                rest = &rest[c.len_utf8()..];
                match c {
                    '`' | '*' => {}
                    // A link, `[label](target)`, reads as its label.
                    '[' if rest
                        .split_once(']')
                        .is_some_and(|(_, after)| after.starts_with('(')) =>
                    {
                        let (label, after) = rest.split_once("](").expect("a link");
                        plain.extend(label.chars().filter(|c| !matches!(c, '`' | '*')));
                        rest = after.split_once(')').map_or("", |(_, after)| after);
                    }
                    '\\' => {
                        if let Some(next) = rest.chars().next() {
                            plain.push(next);
                            rest = &rest[next.len_utf8()..];
                        }
                    }
                    c => plain.push(c),
                }
            }
            plain
        })
        .collect()
}
