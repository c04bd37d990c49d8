//! Shell completions and the man page, written from the clap definition in `cli`.
//!
//! The files under `completions/` and `man/` are committed; a test regenerates them with
//! `generated_files` and fails when they drift from the definition.

use std::io::Write;

use clap_complete::Shell as CompleteShell;

use crate::cli::Shell;
use crate::config_file::Key;
use crate::help::{self, EXAMPLES};
use crate::outcome::EXIT_CODES;
use crate::settings::ENV_VARS;

/// Completions for one shell, as `safe-ad completions <SHELL>` prints them.
pub fn completion(shell: Shell) -> Vec<u8> {
    let shell = match shell {
        Shell::Bash => CompleteShell::Bash,
        Shell::Zsh => CompleteShell::Zsh,
        Shell::Fish => CompleteShell::Fish,
        Shell::Elvish => CompleteShell::Elvish,
        Shell::Powershell => CompleteShell::PowerShell,
    };
    let mut command = help::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "safe-ad", &mut out);
    out
}

/// Every generated file, by its path in the repository.
pub fn generated_files() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("completions/safe-ad.bash", completion(Shell::Bash)),
        ("completions/_safe-ad", completion(Shell::Zsh)),
        ("completions/safe-ad.fish", completion(Shell::Fish)),
        ("completions/safe-ad.elv", completion(Shell::Elvish)),
        ("completions/_safe-ad.ps1", completion(Shell::Powershell)),
        ("man/safe-ad.1", man_page()),
    ]
}

/// The man page: clap's sections, then exit status, environment and files from their tables.
pub fn man_page() -> Vec<u8> {
    // Writing into a Vec cannot fail, so the io::Results below are always Ok.
    let man = clap_mangen::Man::new(help::command());
    let mut out = Vec::new();
    let _ = man.render_title(&mut out);
    let _ = man.render_name_section(&mut out);
    let _ = man.render_synopsis_section(&mut out);
    let _ = man.render_description_section(&mut out);
    let _ = man.render_options_section(&mut out);
    let _ = man.render_subcommands_section(&mut out);
    let _ = out.write_all(extra_sections().as_bytes());
    let _ = man.render_version_section(&mut out);
    out
}

fn extra_sections() -> String {
    let mut roff = String::from(".SH \"EXIT STATUS\"\n");
    for row in EXIT_CODES {
        roff.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            row.code,
            escape(row.meaning)
        ));
    }
    roff.push_str(".SH ENVIRONMENT\n");
    for var in ENV_VARS {
        roff.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            escape(var.name),
            escape(&sentence(var.about))
        ));
    }
    roff.push_str(".SH FILES\n.TP\n\\fB~/.config/safe\\-ad/config.json\\fR\n");
    roff.push_str(&escape(&format!(
        "A JSON object with the optional keys {}. \
It is read on every run; an unknown key or a wrong type is an error (exit 2). \
A token in a file that other users can read gets a warning: keep it at mode 0600.",
        Key::names()
    )));
    roff.push_str("\n.SH EXAMPLES\n");
    for example in EXAMPLES {
        roff.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            escape(example.command),
            escape(&sentence(example.about))
        ));
    }
    roff
}

/// A help-list entry as a man-page sentence: capitalised, with a full stop.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
    format!("{}{}.", first.unwrap_or_default(), chars.as_str())
}

/// Escapes text for roff: backslashes, hyphens, and a leading dot or quote.
fn escape(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    escaped
        .lines()
        .map(|line| {
            if line.starts_with('.') || line.starts_with('\'') {
                format!("\\&{line}")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + if text.ends_with('\n') { "\n" } else { "" }
}
