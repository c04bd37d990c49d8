//! The man pages: `safe-ad(1)` and one page per command at any depth, put together from the
//! clap definition, the tables, and the prose written for man in [`text`].
//!
//! `safe-ad man [COMMAND...]` prints one ([`page`]); the pages under `man/` are committed (the
//! Debian package ships them), and `tests/integration/generated.rs` checks them against
//! [`pages`] and its regeneration command rewrites them. The emulator's routes come from its
//! crate's route table (`safe_ad_emulator::TABLE`).
//!
//! Every page has NAME, SYNOPSIS, DESCRIPTION (the command's long help), OPTIONS (each option
//! the command takes, from clap, which has them from the commands' specs (`cli::COMMANDS`)), and
//! SEE ALSO; a group lists its COMMANDS; a client command has EXIT STATUS (from
//! `outcome::EXIT_CODES`) and EXAMPLES (from its help), and before those what its spec's `man`
//! adds (`cli::Man`: more DESCRIPTION, sections, tables). The main page adds the sections of
//! `text::MAIN` and ENVIRONMENT (`settings::ENV_VARS`), FILES (`config_file::Key::ALL`) and
//! EXAMPLES (`help::EXAMPLES`). clap_mangen is not used: its synopsis leaves out option
//! arguments, its option list prints help texts as they are (backticks and all), and its command
//! list names pages it does not write.

mod roff;
mod text;

use std::fmt::Write as _;

use clap::{Arg, Command};

use super::{names, subcommand_paths, takes_value, BIN};
use crate::cli::{options_of, spec_of, Man, ManSection, ManTable, Opt, Reaches, COMMANDS};
use crate::config_file::Key;
use crate::help::{self, EXAMPLES};
use crate::outcome::{ExitCodeRow, EXIT_CODES};
use crate::settings::{Reader, ENV_VARS};

use roff::{bold, escape, example, inline, italic, paragraphs, quoted, sentence, source};

/// Every page by file name: `safe-ad.1`, and one for each subcommand at any depth
/// (`safe-ad-put.1`, `safe-ad-config-set.1`), named as the pages refer to each other.
pub fn pages() -> Vec<(String, Vec<u8>)> {
    let root = built();
    let mut pages = vec![(format!("{BIN}.1"), main_page(&root).into_bytes())];
    for path in subcommand_paths(&root) {
        pages.push((
            format!("{}.1", page_name(&names(&path))),
            command_page(&path).into_bytes(),
        ));
    }
    pages
}

/// The page of the command named by `words` (`["auth", "status"]`; none for `safe-ad(1)`), as
/// [`pages`] has it; `None` when no command has that path.
pub fn page(words: &[&str]) -> Option<String> {
    let root = built();
    if words.is_empty() {
        return Some(main_page(&root));
    }
    subcommand_paths(&root)
        .iter()
        .find(|path| names(path) == words)
        .map(|path| command_page(path))
}

/// Each page's file name and the words of its command, in [`pages`]' order:
/// `("safe-ad.1", [])`, `("safe-ad-auth-status.1", ["auth", "status"])`.
pub fn list() -> Vec<(String, Vec<String>)> {
    let root = built();
    let mut list = vec![(format!("{BIN}.1"), Vec::new())];
    for path in subcommand_paths(&root) {
        let words = names(&path);
        list.push((
            format!("{}.1", page_name(&words)),
            words.iter().map(|word| (*word).to_owned()).collect(),
        ));
    }
    list
}

/// The whole clap command, built: every command at any depth, with its options.
fn built() -> Command {
    let mut root = help::command();
    root.build();
    root
}

/// `safe-ad(1)`.
fn main_page(root: &Command) -> String {
    let mut roff = title(BIN);
    let _ = write!(
        roff,
        ".SH NAME\n{} \\- {}\n",
        escape(BIN),
        escape(&plain(&about(root)))
    );
    roff.push_str(".SH SYNOPSIS\n");
    roff.push_str(&synopsis(
        BIN,
        "[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR...]",
    ));
    roff.push_str(&synopsis(BIN, "\\fB\\-h\\fR|\\fB\\-\\-help\\fR"));
    roff.push_str(&synopsis(BIN, "\\fB\\-V\\fR|\\fB\\-\\-version\\fR"));
    roff.push_str(".SH DESCRIPTION\n");
    roff.push_str(&paragraphs(&long_about(root), ".PP", ".PP"));
    roff.push_str(&source(text::MAIN_DESCRIPTION.trim_start()));

    roff.push_str(".SH COMMANDS\n");
    for path in subcommand_paths(root) {
        let command = *path.last().expect("a path is never empty");
        if has_subcommands(command) && command.is_subcommand_required_set() {
            continue; // a group: its commands are listed
        }
        roff.push_str(&command_entry(&names(&path), command));
    }

    roff.push_str(".SH OPTIONS\n.PP\n");
    roff.push_str(
        "Each option is taken by the commands named under it, before or after the command.\n",
    );
    for opt in Opt::ALL {
        let Some(arg) = root.get_arguments().find(|arg| arg.get_id() == opt.id()) else {
            continue; // no command takes it
        };
        roff.push_str(&option_entry(arg));
        // The client commands that take it: neither a group of commands nor the emulator, a
        // program of its own.
        let commands: Vec<String> = COMMANDS
            .iter()
            .filter(|spec| !matches!(spec.reaches, Reaches::Group | Reaches::Emulator))
            .filter(|spec| spec.options.contains(opt))
            .map(|spec| bold(spec.path))
            .collect();
        let _ = writeln!(roff, ".IP\nTaken by {}.", list_and(&commands));
    }
    for arg in root.get_arguments() {
        if !is_client_option(arg) && !arg.is_positional() && !arg.is_hide_set() {
            roff.push_str(&option_entry(arg));
        }
    }

    for section in text::MAIN {
        roff.push_str(&section_roff(section));
    }
    roff.push_str(&exit_status(&EXIT_CODES.iter().collect::<Vec<_>>()));
    roff.push_str(".SH ENVIRONMENT\n");
    for var in ENV_VARS.iter().filter(|var| var.reader == Reader::Client) {
        roff.push_str(&entry(&bold(var.name), &var.about()));
    }
    roff.push_str(&files());
    roff.push_str(".SH EXAMPLES\n");
    for example in EXAMPLES {
        roff.push_str(&entry(&bold(example.command), example.about));
    }
    let pages: Vec<String> = subcommand_paths(root)
        .iter()
        .map(|path| page_ref(&names(path)))
        .collect();
    let _ = write!(roff, ".SH \"SEE ALSO\"\n{}\n", pages.join(", "));
    roff
}

/// The page of the command at `path`.
fn command_page(path: &[&Command]) -> String {
    let command = *path.last().expect("a path is never empty");
    let names = names(path);
    let joined = names.join(" ");
    let man = spec_of(&joined).map_or(&Man::NONE, |spec| &spec.man);
    let mut roff = title(&page_name(&names));
    let _ = write!(
        roff,
        ".SH NAME\n{} \\- {}\n",
        escape(&page_name(&names)),
        escape(&plain(&about(command)))
    );
    roff.push_str(".SH SYNOPSIS\n");
    roff.push_str(&synopsis(
        &format!("{BIN} {joined}"),
        &usage(&names, command),
    ));
    roff.push_str(".SH DESCRIPTION\n");
    roff.push_str(&paragraphs(&long_about(command), ".PP", ".PP"));
    roff.push_str(&source(man.description.trim_start()));

    roff.push_str(".SH OPTIONS\n");
    // Positional arguments first, then the command's own options, then the client options it
    // takes (in the order of `Opt::ALL`), then help.
    let args: Vec<&Arg> = command
        .get_arguments()
        .filter(|arg| !arg.is_hide_set())
        .collect();
    for arg in args.iter().filter(|arg| arg.is_positional()) {
        roff.push_str(&option_entry(arg));
    }
    for arg in &args {
        if !arg.is_positional() && !is_client_option_of(arg, &joined) && !is_help(arg) {
            roff.push_str(&option_entry(arg));
        }
    }
    for opt in Opt::ALL {
        if let Some(arg) = args
            .iter()
            .find(|arg| arg.get_id() == opt.id() && is_client_option_of(arg, &joined))
        {
            roff.push_str(&option_entry(arg));
        }
    }
    for arg in args.iter().filter(|arg| is_help(arg)) {
        roff.push_str(&option_entry(arg));
    }

    if has_subcommands(command) {
        roff.push_str(".SH COMMANDS\n");
        for sub in visible_subcommands(command) {
            let mut deeper = names.clone();
            deeper.push(sub.get_name());
            roff.push_str(&command_entry(&deeper, sub));
        }
    }
    for section in man.sections {
        roff.push_str(&section_roff(section));
    }
    if !has_subcommands(command) {
        if let Some(rows) = help::exit_codes_of(&joined) {
            roff.push_str(&exit_status(&rows));
        }
    }
    if let Some(after_help) = command.get_after_help() {
        roff.push_str(&examples(&after_help.to_string()));
    }
    let mut see_also = vec![page_ref(&[])];
    if names.len() > 1 {
        see_also.push(page_ref(&names[..names.len() - 1]));
    }
    for sub in visible_subcommands(command) {
        let mut deeper = names.clone();
        deeper.push(sub.get_name());
        see_also.push(page_ref(&deeper));
    }
    let _ = write!(roff, ".SH \"SEE ALSO\"\n{}\n", see_also.join(", "));
    roff
}

/// `.TH`, then no hyphenation (`HY`, which the man macros restore after a synopsis or an
/// example, and `.nh`) and a ragged right margin: option names, URLs and paths stay whole, as a
/// person types them.
fn title(page: &str) -> String {
    format!(
        ".TH {} 1 \"\" {} \"User Commands\"\n.nr HY 0\n.nh\n.ad l\n",
        quoted(&page.to_uppercase()),
        quoted(&format!("{BIN} {}", env!("CARGO_PKG_VERSION"))),
    )
}

/// One synopsis: the command in bold, its arguments hanging under it.
fn synopsis(command: &str, arguments: &str) -> String {
    format!(".SY {}\n{arguments}\n.YS\n", quoted(command))
}

/// What follows a command's name in its synopsis: `[OPTIONS]` for the client options it takes,
/// each of its own options with its argument, its positional arguments, and `COMMAND` for a
/// group: `[OPTIONS] [--save OPERATION] HANDLE...`.
fn usage(names: &[&str], command: &Command) -> String {
    let path = names.join(" ");
    let mut words = Vec::new();
    if options_of(&path).iter().next().is_some() {
        words.push("[\\fIOPTIONS\\fR]".to_owned());
    }
    for arg in command.get_arguments() {
        if arg.is_hide_set()
            || arg.is_positional()
            || is_help(arg)
            || is_client_option_of(arg, &path)
        {
            continue;
        }
        words.push(synopsis_arg(arg));
    }
    for arg in command.get_positionals() {
        if !arg.is_hide_set() {
            words.push(synopsis_arg(arg));
        }
    }
    // A command that also runs without one (`emulator`) lists its subcommands under COMMANDS.
    if has_subcommands(command) && command.is_subcommand_required_set() {
        words.push(italic(
            command.get_subcommand_value_name().unwrap_or("COMMAND"),
        ));
    }
    words.join(" ")
}

/// One argument as a synopsis shows it: `[\-j|\-\-jobs N]`, `HANDLE...`, `[\-\- COMMAND...]`.
fn synopsis_arg(arg: &Arg) -> String {
    let shown = shown(arg, "|");
    if arg.is_required_set() {
        shown
    } else {
        format!("[{shown}]")
    }
}

/// An argument with its names parted by `between`, and its value: `-j|--jobs N`,
/// `HANDLE...`, `-- COMMAND...`.
fn shown(arg: &Arg, between: &str) -> String {
    let values = value_names(arg).join(" ");
    let mut shown = if arg.is_positional() {
        values
    } else {
        let mut names = Vec::new();
        if let Some(short) = arg.get_short() {
            names.push(bold(&format!("-{short}")));
        }
        if let Some(long) = arg.get_long() {
            names.push(bold(&format!("--{long}")));
        }
        let mut shown = names.join(between);
        if takes_value(arg) {
            shown.push(' ');
            shown.push_str(&values);
        }
        shown
    };
    if repeats(arg) {
        shown.push_str("...");
    }
    if arg.is_last_set() {
        shown = format!("\\-\\- {shown}");
    }
    shown
}

/// An option (or positional argument) in OPTIONS: its names and argument, its help, its values
/// and its default.
fn option_entry(arg: &Arg) -> String {
    let tag = shown(arg, ", ");
    let mut roff = format!(".TP\n{tag}\n");
    let help = arg
        .get_long_help()
        .or(arg.get_help())
        .map(|help| installed(&help.to_string()))
        .unwrap_or_default();
    roff.push_str(&paragraphs(&help, "", ".IP"));
    let values: Vec<_> = arg
        .get_possible_values()
        .into_iter()
        .filter(|value| !value.is_hide_set())
        .collect();
    if takes_value(arg) && !values.is_empty() {
        if values.iter().any(|value| value.get_help().is_some()) {
            roff.push_str(".RS\n");
            for value in &values {
                let help = value.get_help().map(|help| help.to_string());
                roff.push_str(&entry(&bold(value.get_name()), &help.unwrap_or_default()));
            }
            roff.push_str(".RE\n");
        } else {
            let names: Vec<String> = values.iter().map(|value| bold(value.get_name())).collect();
            let _ = writeln!(
                roff,
                ".IP\n{} is {}.",
                value_names(arg).join(" "),
                list_or(&names)
            );
        }
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|value| value.to_string_lossy().into_owned())
        .collect();
    if takes_value(arg) && !defaults.is_empty() {
        let _ = writeln!(roff, ".IP\nDefault: {}.", bold(&defaults.join(" ")));
    }
    roff
}

/// A command in COMMANDS: its synopsis, its one-line help and its page.
fn command_entry(names: &[&str], command: &Command) -> String {
    format!(
        ".TP\n{} {}\n{} See {}.\n",
        bold(&format!("{BIN} {}", names.join(" "))),
        usage(names, command),
        inline(&sentence(&about(command))),
        page_ref(names)
    )
}

/// A `.TP` entry: its tag (roff), then a help text as a sentence.
fn entry(tag: &str, text: &str) -> String {
    format!(".TP\n{tag}\n{}\n", inline(&sentence(text)))
}

/// The names of an argument's values, in italics: `\fIN\fR`.
fn value_names(arg: &Arg) -> Vec<String> {
    arg.get_value_names()
        .map(|names| names.iter().map(|name| italic(name)).collect())
        .unwrap_or_else(|| vec![italic(&arg.get_id().as_str().to_uppercase())])
}

/// Whether an argument takes more values than it has names for (`HANDLE...`).
fn repeats(arg: &Arg) -> bool {
    let names = arg.get_value_names().map_or(1, |names| names.len());
    arg.get_num_args()
        .is_some_and(|range| range.max_values() > names)
}

/// Whether `arg` is one of the client options the command at `path` takes by the table (the
/// emulator's own `--token-file` and `--quiet` are not).
fn is_client_option_of(arg: &Arg, path: &str) -> bool {
    options_of(path).iter().any(|opt| arg.get_id() == opt.id())
}

/// Whether `arg` is one of the client options (on the main command, where every one is
/// accepted).
fn is_client_option(arg: &Arg) -> bool {
    Opt::ALL.iter().any(|opt| arg.get_id() == opt.id())
}

fn is_help(arg: &Arg) -> bool {
    matches!(arg.get_id().as_str(), "help" | "version")
}

fn has_subcommands(command: &Command) -> bool {
    visible_subcommands(command).next().is_some()
}

/// The subcommands a page lists: not hidden, and not clap's `help`.
fn visible_subcommands(command: &Command) -> impl Iterator<Item = &Command> {
    command
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
}

/// A section of prose (the main page's in [`text`], a command's on its spec), and the table
/// it holds after it.
fn section_roff(section: &ManSection) -> String {
    let mut roff = format!(
        ".SH {}\n{}",
        quoted(section.heading),
        source(section.roff.trim_start())
    );
    match section.table {
        None => {}
        Some(ManTable::SaveEffects) => roff.push_str(&source(&crate::saving::roff())),
        #[cfg(feature = "emulator")]
        Some(ManTable::EmulatorExitCodes) => {
            for (code, meaning) in crate::outcome::EMULATOR_EXIT_CODES {
                roff.push_str(&entry(&bold(code), meaning));
            }
        }
        #[cfg(feature = "emulator")]
        Some(ManTable::EmulatorRoutes) => roff.push_str(&routes()),
    }
    roff
}

/// EXIT STATUS, from the one table: all of it on the main page, and on a command's page the codes
/// that command can return (`help::exit_codes_of`).
fn exit_status(rows: &[&ExitCodeRow]) -> String {
    let mut roff = String::from(".SH \"EXIT STATUS\"\n");
    for row in rows {
        roff.push_str(&entry(&bold(&row.code.to_string()), row.meaning));
    }
    roff
}

/// FILES: the config file and its keys, from the one list.
fn files() -> String {
    let mut roff = String::from(".SH FILES\n.TP\n");
    roff.push_str(&bold("~/.config/safe-ad/config.json"));
    roff.push('\n');
    roff.push_str(&source(text::CONFIG_FILE.trim_start()));
    roff.push_str(".RS\n");
    for key in Key::ALL {
        roff.push_str(&entry(&bold(key.name()), key.about()));
    }
    roff.push_str(".RE\n");
    roff.push_str(&source(text::CONFIG_FILE_CHECKS.trim_start()));
    roff
}

/// EXAMPLES from a command's help ("Example:" and indented lines), as typed.
fn examples(after_help: &str) -> String {
    let lines: Vec<&str> = after_help
        .lines()
        .filter_map(|line| line.strip_prefix("  "))
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    format!(".SH EXAMPLES\n{}", example(lines))
}

/// The routes of the emulator's page, from its route table: one block per kind of caller.
#[cfg(feature = "emulator")]
fn routes() -> String {
    use safe_ad_emulator::{Access, HEALTH, TABLE};
    let mut roff = String::new();
    // Who may call a route; a session route is one kind, whatever the text of its 401.
    fn kind(access: &Access) -> u8 {
        match access {
            Access::Open => 0,
            Access::Session(_) => 1,
            Access::LowLevel => 2,
        }
    }
    let groups = [
        (0, "Open to every caller:"),
        (1, "With a token:"),
        (2, "With a token that has the LOW_LEVEL_API permission:"),
    ];
    for (group, heading) in groups {
        let mut lines = Vec::new();
        for def in std::iter::once(&HEALTH).chain(TABLE) {
            if kind(&def.access) == group {
                lines.push(format!("{:<7}{}", def.method.as_str(), def.path));
            }
        }
        let _ = write!(roff, ".PP\n{}\n", escape(heading));
        roff.push_str(&example(lines.iter().map(String::as_str)));
    }
    roff
}

/// `safe-ad-config-set`, the page's name.
fn page_name(names: &[&str]) -> String {
    std::iter::once(BIN)
        .chain(names.iter().copied())
        .collect::<Vec<_>>()
        .join("-")
}

/// `\fBsafe-ad-put\fR(1)`.
fn page_ref(names: &[&str]) -> String {
    format!("{}(1)", bold(&page_name(names)))
}

fn about(command: &Command) -> String {
    command
        .get_about()
        .map(|about| about.to_string())
        .unwrap_or_default()
}

/// A help text without its code marks, for NAME, which `whatis` and `apropos` read as plain
/// text.
fn plain(text: &str) -> String {
    text.replace('`', "")
}

fn long_about(command: &Command) -> String {
    command
        .get_long_about()
        .or(command.get_about())
        .map(|about| installed(&about.to_string()))
        .unwrap_or_default()
}

/// A help text for an installed page: a sentence that sends the reader to README.md is left
/// out, as the page is installed without it (and says the same in a section of its own).
fn installed(text: &str) -> String {
    text.split("\n\n")
        .map(|paragraph| {
            let sentences: Vec<&str> = paragraph
                .split_inclusive(". ")
                .filter(|sentence| !sentence.contains("README"))
                .collect();
            sentences.concat().trim_end().to_owned()
        })
        .filter(|paragraph| !paragraph.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// `a, b and c`.
fn list_and(items: &[String]) -> String {
    join_last(items, "and")
}

/// `a, b or c`.
fn list_or(items: &[String]) -> String {
    join_last(items, "or")
}

fn join_last(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installed_pages_leave_out_sentences_that_send_the_reader_to_readme() {
        assert_eq!(
            installed("First line\n\nA FILE is made. The format is in README.md. Handles go."),
            "First line\n\nA FILE is made. Handles go."
        );
        assert_eq!(installed("See README.md.\n\nMore"), "More");
    }
}
