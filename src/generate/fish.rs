//! Corrections to clap_complete's fish script (4.6), each where it offered file names or left
//! out what completes:
//!
//! - it completes options only ("The fish generator currently only supports named options", its
//!   documentation says), so positional arguments offered file names: here each positional
//!   with a fixed set of values offers them, and a command none of whose positionals names a
//!   file completes no file names at all (`safe-ad put <TAB>`, `config set timeout_secs <TAB>`);
//! - it writes the commands under `help` with a condition that `help` itself makes false, so
//!   `safe-ad help <TAB>` offered file names: `help` is taken out of that condition;
//! - its test for "no command yet" fails while an option before the command waits for its value
//!   (`safe-ad --jobs <TAB>`), so nothing applied and fish offered file names: the test now
//!   counts that as no command yet, and the option's own completion applies;
//! - a command's "no file names" applied below it too, so `safe-ad emulator export <TAB>`
//!   offered none: it now stops where a subcommand begins, which says for itself;
//! - it knows nothing of `--`: after `safe-ad emulator --` the command line COMMAND completes as
//!   fish completes a command line of its own, and the emulator's options are no longer offered.

use std::fmt::Write as _;

use clap::Command;

use super::{help_paths, names, Values, BIN};

/// The corrected script.
pub fn corrected(script: &str, root: &Command) -> String {
    let prefix = format!("__fish_{}", BIN.replace('-', "_"));
    let using = format!("{prefix}_using_subcommand");
    let seen_dashdash = format!("{prefix}_seen_dashdash");
    let after_dashdash = format!("{prefix}_complete_after_dashdash");

    // The paths that take a command line after `--`, by their clap_complete condition.
    let mut command_lines = Vec::new();
    for path in help_paths(root) {
        let command = *path.last().expect("a path is never empty");
        if command
            .get_positionals()
            .any(|arg| arg.is_last_set() && Values::of(arg) == Values::CommandLine)
        {
            command_lines.push(condition(&using, &names(&path)));
        }
    }

    let help_condition = format!("\"{using} help; and not __fish_seen_subcommand_from ");
    let needs_command = format!("function {prefix}_needs_command\n");
    let mut in_needs_command = false;
    let mut fixed = String::with_capacity(script.len() * 2);
    for line in script.split_inclusive('\n') {
        if line == needs_command {
            in_needs_command = true;
        } else if line == "end\n" {
            in_needs_command = false;
        } else if in_needs_command && line == "    or return\n" {
            // argparse failed: an option before the command still waits for its value.
            fixed.push_str("    or return 0\n");
            continue;
        }
        if let Some((head, rest)) = line.split_once(&help_condition) {
            // `... help; and not __fish_seen_subcommand_from a b help" ...`: drop `help`.
            let (list, tail) = rest.split_once('"').expect("a closed condition");
            let list: Vec<&str> = list.split(' ').filter(|name| *name != "help").collect();
            let _ = write!(fixed, "{head}{help_condition}{}\"{tail}", list.join(" "));
            continue;
        }
        let mut line = line.to_owned();
        for condition in &command_lines {
            let exact = format!("-n \"{condition}\" ");
            if line.contains(&exact) {
                line = line.replace(
                    &exact,
                    &format!("-n \"{condition}; and not {seen_dashdash}\" "),
                );
            }
        }
        fixed.push_str(&line);
    }

    fixed.push_str(&format!(
        "\n# What clap_complete's fish script leaves out: positional values, no file names where \
         none is\n# named, and the command line after `--`.\n\
         function {seen_dashdash}\n    contains -- -- (commandline -opc)\nend\n\n\
         function {after_dashdash}\n    set -l words (commandline -opc)\n    \
         set -l at (contains -i -- -- $words)\n    \
         set -l line (string escape -- $words[(math $at + 1)..-1]) (commandline -ct)\n    \
         complete -C (string join -- ' ' $line)\nend\n\n"
    ));
    for path in help_paths(root) {
        let command = *path.last().expect("a path is never empty");
        let names = names(&path);
        let condition = condition(&using, &names);
        let in_help = names[0] == "help";
        let positionals: Vec<_> = command
            .get_positionals()
            .filter(|arg| !arg.is_hide_set() && !arg.is_last_set())
            .collect();
        for arg in &positionals {
            if let Values::Words(words) = Values::of(arg) {
                let condition = format!(
                    "{condition}; and not __fish_seen_subcommand_from {}",
                    words.join(" ")
                );
                for value in arg.get_possible_values() {
                    if value.is_hide_set() {
                        continue;
                    }
                    let _ = write!(
                        fixed,
                        "complete -c {BIN} -n \"{condition}\" -f -a \"{}\"",
                        value.get_name()
                    );
                    if let Some(help) = value.get_help() {
                        let _ = write!(fixed, " -d '{}'", quote(&help.to_string()));
                    }
                    fixed.push('\n');
                }
            }
        }
        let names_files = positionals
            .iter()
            .any(|arg| matches!(Values::of(arg), Values::Files | Values::Dirs));
        if in_help || !names_files {
            let mut no_files = condition.clone();
            if command_lines.contains(&condition) {
                let _ = write!(no_files, "; and not {seen_dashdash}");
            }
            // Not below it: a subcommand says for itself whether it takes file names.
            let subcommands: Vec<&str> = command
                .get_subcommands()
                .flat_map(|sub| std::iter::once(sub.get_name()).chain(sub.get_all_aliases()))
                .collect();
            if !names.contains(&"help") && !subcommands.is_empty() {
                let _ = write!(
                    no_files,
                    "; and not __fish_seen_subcommand_from {}",
                    subcommands.join(" ")
                );
            }
            let condition = no_files;
            let _ = writeln!(fixed, "complete -c {BIN} -n \"{condition}\" -f");
        }
        if command_lines.contains(&condition) {
            let _ = writeln!(
                fixed,
                "complete -c {BIN} -n \"{condition}; and {seen_dashdash}\" -f -a \"({after_dashdash})\""
            );
        }
    }
    fixed
}

/// The condition clap_complete writes for a path: `USING config; and __fish_seen_subcommand_from
/// set`.
fn condition(using: &str, names: &[&str]) -> String {
    let mut condition = format!("{using} {}", names[0]);
    for deeper in &names[1..] {
        let _ = write!(condition, "; and __fish_seen_subcommand_from {deeper}");
    }
    condition
}

/// Text for a single-quoted fish string.
fn quote(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\'', "\\'")
}
