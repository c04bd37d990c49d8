//! The committed completions and man pages match what the clap definition and the tables
//! generate; every man page renders with `man` and groff without a warning and reads as a man
//! page (no Markdown marks, no references to what an installed page's reader does not have,
//! nothing for developers, code kept as code); each command's page lists exactly the options
//! the command takes; every list of exit codes matches `outcome::EXIT_CODES`; and one version is
//! written everywhere.
//!
//! The checks never write. To refresh the generated files after changing `src/cli/`, a table,
//! or the man prose in `src/generate/man/text.rs`, run the regeneration command (an ignored
//! test, run by name):
//!     cargo test --test integration regenerate -- --ignored
//!
//! The committed files are those of the default build, which has the `emulator` subcommand; a
//! build without the emulator generates files without it, so there the tests that compare them
//! are ignored, saying why.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::harness::{have, named_in_filter, repo_root as root, SafeAd, Sandbox};
use safe_ad::test_support::cli::Shell;
use safe_ad::test_support::generate::completion;
use safe_ad::test_support::outcome::EXIT_CODES;
use safe_ad::test_support::saving::markdown;

/// The command that rewrites every committed generated file (this module's and `bad_input`'s).
pub const REGENERATE: &str = "cargo test --test integration regenerate -- --ignored";

/// Every generated file, by its path in the repository: the completions `safe-ad completions`
/// prints, the man pages `safe-ad man` prints (written in `src/generate/man/`), the table of
/// what a save does in `docs/saving.md`, and the pages with tables written from the commands'
/// specs ([`crate::docs_tables`]).
fn generated_files() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = [
        ("completions/safe-ad.bash", Shell::Bash),
        ("completions/_safe-ad", Shell::Zsh),
        ("completions/safe-ad.fish", Shell::Fish),
        ("completions/safe-ad.elv", Shell::Elvish),
        ("completions/_safe-ad.ps1", Shell::Powershell),
    ]
    .into_iter()
    .map(|(path, shell)| (path.to_owned(), completion(shell)))
    .collect();
    files.extend(
        safe_ad::test_support::generate::man::pages()
            .into_iter()
            .map(|(name, page)| (format!("man/{name}"), page)),
    );
    files.push(("docs/saving.md".to_owned(), markdown().into_bytes()));
    files.extend(crate::docs_tables::pages());
    files
}

/// Every generated file whose committed copy is not what this build generates, and every file in
/// `completions/` or `man/` that is no longer generated.
fn stale_files() -> Vec<String> {
    let generated = generated_files();
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
    let generated = generated_files();
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
fn every_exit_code_is_documented_in_help_man_page_and_docs() {
    let help = SafeAd::new().arg("--help").run();
    // clap wraps help to the terminal width, so compare with white space folded.
    let help = fold(help.success().stdout());
    let readme = crate::harness::doc("docs/exit-codes.md");
    for row in EXIT_CODES {
        assert!(
            help.contains(&fold(&format!("{} {}", row.code, row.meaning))),
            "--help lacks exit code {}",
            row.code
        );
        assert!(
            readme.contains(&format!("| {} | `{}` |", row.code, row.name)),
            "docs/exit-codes.md's table lacks `| {} | `{}` |`",
            row.code,
            row.name
        );
    }
    if !have("man") {
        return;
    }
    let man = fold(section(&render(&page("safe-ad.1")), "EXIT STATUS"));
    for row in EXIT_CODES {
        let meaning = fold(row.meaning);
        assert!(
            man.contains(&format!("{} {}", row.code, capitalised(&meaning))),
            "safe-ad(1)'s EXIT STATUS lacks {} {meaning}: {man}",
            row.code
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

fn page(name: &str) -> PathBuf {
    root().join("man").join(name)
}

/// A page as `man -l` shows it on an 80-column terminal, in UTF-8, with groff's warnings on;
/// fails if man or groff says anything on stderr. `MANROFFSEQ` is emptied so the page's own
/// first line cannot ask for preprocessors.
#[track_caller]
pub fn render(page: &Path) -> String {
    let output = Sandbox::new()
        .shell("sh", "exec man --warnings=all -l \"$0\"")
        .arg(page)
        .env("LANG", "C.UTF-8")
        .env("MANWIDTH", "80")
        .env("MANROFFSEQ", "")
        .run();
    output.success().stderr_is("");
    output.stdout().to_owned()
}

/// The faults of a page written for another medium, as a reader of the rendered page sees
/// them: Markdown marks, references to what an installed page's reader does not have, and
/// developer material. Returns them, each with the line it is on.
pub fn faults(text: &str) -> Vec<String> {
    const MARKS: &[(&str, &str)] = &[
        ("`", "a backtick"),
        ("**", "Markdown bold"),
        ("](", "a Markdown link"),
        ("```", "a Markdown fence"),
        ("<br>", "HTML"),
    ];
    const ELSEWHERE: &[&str] = &[
        "README",
        "docs/",
        ".md",
        "Quick start",
        "TESTING",
        "benchmark",
        "this checkout",
    ];
    const DEVELOPERS: &[&str] = &[
        "cargo ",
        "SAFE_AD_SOAK",
        "SAFE_AD_REGENERATE",
        "wrk ",
        "tests/",
        "src/",
        "--nocapture",
        "clippy",
    ];
    let mut found = Vec::new();
    for line in text.lines() {
        for (mark, what) in MARKS {
            if line.contains(mark) {
                found.push(format!("{what} ({mark}): {line}"));
            }
        }
        for word in ELSEWHERE {
            if line.contains(word) {
                found.push(format!(
                    "a reference to what the reader lacks ({word}): {line}"
                ));
            }
        }
        for word in DEVELOPERS {
            if line.contains(word) {
                found.push(format!("developer material ({word}): {line}"));
            }
        }
        // A Markdown heading or list at the margin of a text line.
        let trimmed = line.trim_start();
        if trimmed.starts_with("## ") || trimmed.starts_with("- [") {
            found.push(format!("Markdown: {line}"));
        }
    }
    found
}

/// Every committed page: renders with `man` at 80 columns and with `groff -man -ww -z` without
/// a warning (groff's every warning on), fits 80 columns, has none of the [`faults`], and refers
/// only to pages that exist (clap_mangen's own list once named pages nobody wrote).
#[test]
fn man_pages_render_without_warnings_or_faults_and_refer_only_to_pages_that_exist() {
    if !have("man") || !have("groff") {
        return;
    }
    let pages = committed_pages();
    let names: BTreeSet<String> = pages.iter().map(|(name, _)| name.clone()).collect();
    assert!(names.contains("safe-ad.1") && names.len() > 1, "{names:?}");
    for (name, roff) in &pages {
        assert!(roff.is_ascii(), "{name} is not ASCII: groff escapes are");
        Sandbox::new()
            .shell("sh", "exec groff -man -ww -z \"$0\"")
            .arg(page(name))
            .run()
            .success()
            .stderr_is("");
        let text = render(&page(name));
        for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "SEE ALSO"] {
            assert!(
                text.contains(&format!("\n{heading}\n")),
                "{name} has no {heading}:\n{text}"
            );
        }
        let found = faults(&text);
        assert!(found.is_empty(), "{name}:\n{}", found.join("\n"));
        // Fits the terminal it was rendered for; a command's own examples may not (a command
        // line is typed as one line).
        let mut heading = "";
        for line in text.lines() {
            if line.starts_with(|c: char| c.is_ascii_uppercase()) {
                heading = line;
            }
            assert!(
                heading == "EXAMPLES" || line.chars().count() <= 80,
                "{name}: a line wider than 80 columns, in {heading}: {line}"
            );
        }
        // A reference, as the reader sees it: `safe-ad-put(1)`, in any font.
        for before in text.split("(1)").collect::<Vec<_>>().iter().rev().skip(1) {
            let start = before
                .rfind(|c: char| !(c.is_ascii_lowercase() || c == '-'))
                .map_or(0, |at| at + 1);
            let referred = &before[start..];
            if !referred.starts_with("safe-ad") {
                continue;
            }
            assert!(
                names.contains(&format!("{referred}.1")),
                "{name} refers to {referred}(1), which is not in man/"
            );
        }
    }
}

/// The check finds the faults the issue found in the pages written from README.
#[test]
fn the_fault_check_finds_what_the_readme_pages_had() {
    for bad in [
        "the token goes in the `Authorization` header",
        "as the Quick start's second block does",
        "as docs/launcher-api.md describes them",
        "SAFE_AD_SOAK=1 cargo test --test integration soak::",
        "It is not the bottleneck of the benchmarks below.",
        "**Routes** (each under /)",
        "see [the API](docs/launcher-api.md)",
    ] {
        assert!(!faults(bad).is_empty(), "{bad}");
    }
    assert!(faults("safe-ad clear-data --save post 7").is_empty());
}

/// Code stays code: every line of every `.EX` block shows on a line of its own in the rendered
/// page, with its indentation (the state file's JSON once became one flowing paragraph).
#[test]
fn man_page_examples_keep_their_lines() {
    if !have("man") {
        return;
    }
    let mut blocks = 0;
    for (name, roff) in committed_pages() {
        let text = render(&page(&name));
        let rendered: Vec<&str> = text.lines().collect();
        let mut in_block = false;
        let mut block: Vec<String> = Vec::new();
        for line in roff.lines() {
            match line {
                ".EX" => in_block = true,
                ".EE" => {
                    in_block = false;
                    blocks += 1;
                    let first = &block[0];
                    let at = rendered
                        .iter()
                        .position(|line| line.ends_with(first.as_str()))
                        .unwrap_or_else(|| panic!("{name}: no line shows {first:?}:\n{text}"));
                    let margin = rendered[at].len() - first.len();
                    for (offset, expected) in block.iter().enumerate() {
                        let shown = rendered.get(at + offset).copied().unwrap_or_default();
                        assert_eq!(
                            shown.get(margin..),
                            Some(expected.as_str()),
                            "{name}: the example's line {offset} is not as typed"
                        );
                    }
                    block.clear();
                }
                line if in_block => block.push(unroff(line)),
                _ => {}
            }
        }
    }
    assert!(blocks > 10, "{blocks} examples");
}

/// A line of an `.EX` block as it prints: the escapes this generator writes undone.
fn unroff(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line.strip_prefix("\\&").unwrap_or(line);
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let escape = &rest[at + 1..];
        if let Some(after) = escape.strip_prefix('-') {
            out.push('-');
            rest = after;
        } else if let Some(after) = escape.strip_prefix('e') {
            out.push('\\');
            rest = after;
        } else if let Some(after) = escape.strip_prefix("[u") {
            let (hex, after) = after.split_once(']').expect("a closed escape");
            out.push(char::from_u32(u32::from_str_radix(hex, 16).expect("hex")).expect("a char"));
            rest = after;
        } else {
            panic!("an escape this test does not know in an example: {line}");
        }
    }
    out.push_str(rest);
    out.trim_end().to_owned()
}

/// Each command's page lists, in OPTIONS, every option the command takes (from the clap
/// definition, which has them from the commands' specs (`cli::COMMANDS`)), and no client option it does not
/// take; the emulator's lists every emulator option and claims no client option.
#[test]
#[cfg_attr(
    not(feature = "emulator"),
    ignore = "the committed man pages are the default build's, with the emulator subcommand this \
              build leaves out"
)]
fn each_command_page_lists_the_options_it_takes() {
    if !have("man") {
        return;
    }
    let mut root = safe_ad::test_support::help::command();
    root.build();
    let client: Vec<String> = safe_ad::test_support::cli::Opt::ALL
        .iter()
        .map(|opt| opt.long())
        .collect();
    let mut checked = 0;
    let mut stack: Vec<(Vec<String>, &clap::Command)> = root
        .get_subcommands()
        .map(|sub| (vec![sub.get_name().to_owned()], sub))
        .collect();
    while let Some((path, command)) = stack.pop() {
        if path.last().is_some_and(|name| name == "help") {
            continue;
        }
        for sub in command.get_subcommands() {
            let mut deeper = path.clone();
            deeper.push(sub.get_name().to_owned());
            stack.push((deeper, sub));
        }
        let name = format!("safe-ad-{}.1", path.join("-"));
        let tags = option_tags(&render(&page(&name)));
        let mut takes = Vec::new();
        for arg in command.get_arguments().filter(|arg| !arg.is_hide_set()) {
            let shown = match (arg.get_short(), arg.get_long()) {
                (Some(short), Some(long)) => format!("-{short}, --{long}"),
                (None, Some(long)) => format!("--{long}"),
                (Some(short), None) => format!("-{short}"),
                (None, None) => continue,
            };
            assert!(
                tags.iter().any(|tag| tag.starts_with(&shown)),
                "{name} lacks {shown}: {tags:?}"
            );
            takes.extend(arg.get_long().map(|long| format!("--{long}")));
        }
        for long in &client {
            if !takes.contains(long) {
                assert!(
                    !tags
                        .iter()
                        .any(|tag| tag.split([' ', ',']).any(|word| word == long)),
                    "{name} lists {long}, which `safe-ad {}` does not take: {tags:?}",
                    path.join(" ")
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 15, "{checked} pages");
    if cfg!(feature = "emulator") {
        let text = fold(&render(&page("safe-ad-emulator.1")));
        for shown in [
            "--token-file FILE",
            "-q, --quiet",
            "--fault-rate P",
            "-- COMMAND",
        ] {
            assert!(text.contains(shown), "safe-ad-emulator(1) lacks {shown}");
        }
        // Its COMMANDS section names `emulator requests`, a client of it, which takes them.
        let own = text.split("COMMANDS").next().unwrap_or(&text);
        assert!(
            !own.contains("client options") && !own.contains("OPTIONS]"),
            "safe-ad-emulator(1) claims client options"
        );
    }
}

/// The entries of a rendered page's OPTIONS: the tags at the margin of its list (`-j, --jobs
/// N`), without the text beside a short one.
fn option_tags(text: &str) -> Vec<String> {
    section(text, "OPTIONS")
        .lines()
        .filter_map(|line| line.strip_prefix("       "))
        .filter(|line| !line.starts_with(' '))
        .map(|line| line.split("  ").next().unwrap_or(line).to_owned())
        .collect()
}

/// The main page as a person reads it: SYNOPSIS and COMMANDS show each command with its
/// arguments, OPTIONS each option with its argument and the commands that take it, and the
/// sections written from tables have every row.
#[test]
#[cfg_attr(
    not(feature = "emulator"),
    ignore = "the committed man pages are the default build's, with the emulator subcommand this \
              build leaves out"
)]
fn main_page_shows_commands_options_and_tables() {
    if !have("man") {
        return;
    }
    let text = render(&page("safe-ad.1"));
    section_has(&text, "SYNOPSIS", ["safe-ad [OPTIONS] COMMAND [ARGS...]"]);
    section_has(
        &text,
        "COMMANDS",
        [
            "safe-ad clear-data [OPTIONS] [--save OPERATION] HANDLE...",
            "safe-ad config set [OPTIONS] KEY VALUE",
            "safe-ad emulator [--listen ADDR]",
            "See safe-ad-auth-login(1).",
        ],
    );
    section_has(
        &text,
        "OPTIONS",
        [
            "-j, --jobs N",
            "--launcher-url URL",
            "--color WHEN",
            "Taken by create, open, put",
        ],
    );
    section_has(
        &text,
        "ENVIRONMENT",
        safe_ad::test_support::settings::ENV_VARS
            .iter()
            .filter(|var| var.reader == safe_ad::test_support::settings::Reader::Client)
            .map(|var| var.name),
    );
    section_has(
        &text,
        "FILES",
        safe_ad::test_support::config_file::Key::ALL.map(|key| key.name()),
    );
    section_has(
        &text,
        "EXAMPLES",
        safe_ad::test_support::help::EXAMPLES
            .iter()
            .map(|example| example.command),
    );
}

/// Fails unless the section `heading` of a rendered page shows each of `shown` (white space
/// folded).
#[track_caller]
fn section_has<'a>(text: &str, heading: &str, shown: impl IntoIterator<Item = &'a str>) {
    let body = fold(section(text, heading));
    for shown in shown {
        assert!(
            body.contains(&fold(shown)),
            "{heading} lacks {shown}: {body}"
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
    let text = render(&page("safe-ad-clear-data.1"));
    assert!(
        fold(section(&text, "SYNOPSIS"))
            .contains("safe-ad clear-data [OPTIONS] [--save OPERATION] HANDLE..."),
        "{text}"
    );
    let command = safe_ad::test_support::help::command();
    let long_help = command
        .find_subcommand("clear-data")
        .and_then(|sub| sub.get_long_about())
        .expect("clear-data has long help")
        .to_string();
    let first = long_help.split("\n\n").next().expect("a paragraph");
    assert!(
        fold(&text).contains(&fold(&first.replace('`', ""))),
        "{text}"
    );
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

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
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

/// A run builds only the commands on its path, with their help texts only when help prints:
/// every `-h`, `--help` and `help COMMAND` is checked against what the whole tree, built at once
/// as for completions and man pages (their files are checked above), prints for that line.
#[test]
fn every_help_is_the_whole_trees() {
    let root = safe_ad::test_support::help::command();
    let mut paths = vec![String::new()];
    let mut pending: Vec<(String, &clap::Command)> = vec![(String::new(), &root)];
    while let Some((prefix, command)) = pending.pop() {
        for sub in command
            .get_subcommands()
            .filter(|sub| sub.get_name() != "help")
        {
            let path = format!("{prefix}{}", sub.get_name());
            paths.push(path.clone());
            pending.push((format!("{path} "), sub));
        }
    }
    assert!(paths.len() > 25, "{paths:?}");
    let whole_tree = |line: &[&str]| {
        let error = root
            .clone()
            .try_get_matches_from(["safe-ad"].iter().chain(line))
            .expect_err("help stops the parse");
        assert_eq!(
            error.kind(),
            clap::error::ErrorKind::DisplayHelp,
            "{line:?}"
        );
        error.render().to_string()
    };
    for path in &paths {
        let words: Vec<&str> = path.split_whitespace().collect();
        let mut lines = vec![
            [&words[..], &["-h"]].concat(),
            [&words[..], &["--help"]].concat(),
        ];
        if !words.is_empty() {
            lines.push([&["help"], &words[..]].concat());
        }
        for line in lines {
            SafeAd::new()
                .args(&line)
                .run()
                .success()
                .stdout_is(&whole_tree(&line));
        }
    }
}
