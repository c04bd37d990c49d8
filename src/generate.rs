//! Shell completions and man pages, written from the clap definition (`help::command()`), the
//! tables the help texts come from, and README's reference sections.
//!
//! The files under `completions/` and `man/` are committed, and the Debian package ships them; a
//! test regenerates them with [`generated_files`] and fails when they drift. Two of clap_complete's
//! generators need correcting before their scripts work (see [`completion`]), and the man pages
//! are put together here from clap_mangen's sections and our own, because clap_mangen's synopsis
//! leaves out option arguments and its command list names pages it does not write.

mod markdown;

use clap::{Arg, Command};
use clap_complete::Shell as CompleteShell;

use crate::cli::Shell;
use crate::config_file::Key;
use crate::help::{self, EXAMPLES};
use crate::outcome::EXIT_CODES;
use crate::settings::ENV_VARS;

/// The name the completions are written for and the man pages are named after.
const BIN: &str = "safe-ad";

/// README's reference sections, in the order the main man page carries them (each as `.SH` in
/// capitals). They are the one place these facts are written; the page takes them from there.
pub const README_SECTIONS: &[&str] = &[
    "Handles",
    "Saving after a clear",
    "Debugging a handle",
    "Output",
    "Settings",
    "Security",
    #[cfg(feature = "emulator")]
    "The emulator",
];

/// The commands that give out and take back handles, listed at the top of HANDLES.
const HANDLE_COMMANDS: &[&str] = &["create", "open", "reopen", "drop"];

const README: &str = include_str!("../README.md");

/// Completions for one shell, as `safe-ad completions <SHELL>` prints them.
pub fn completion(shell: Shell) -> Vec<u8> {
    let generator = match shell {
        Shell::Bash => CompleteShell::Bash,
        Shell::Zsh => CompleteShell::Zsh,
        Shell::Fish => CompleteShell::Fish,
        Shell::Elvish => CompleteShell::Elvish,
        Shell::Powershell => CompleteShell::PowerShell,
    };
    let mut command = help::command();
    let mut out = Vec::new();
    clap_complete::generate(generator, &mut command, BIN, &mut out);
    match shell {
        Shell::Bash => bash_with_matching_states(&String::from_utf8_lossy(&out)).into_bytes(),
        Shell::Fish => {
            out.extend_from_slice(fish_positional_values(&command).as_bytes());
            out
        }
        Shell::Zsh | Shell::Elvish | Shell::Powershell => out,
    }
}

/// clap_complete's bash script (4.6) sets the state of `safe-ad auth` as
/// `safe__ad__subcmd__auth` (the binary name's `-` made `__`) but reads it in a `case` labelled
/// `safe__subcmd__ad__subcmd__auth` (the `-` made `__subcmd__`, like a subcommand separator), so
/// for a binary name with a hyphen nothing past the first word completes. That is the open
/// upstream bug clap-rs/clap#6421. This renames the labels to the names the script sets; once
/// upstream writes matching names there is nothing left to rename and this changes nothing.
fn bash_with_matching_states(script: &str) -> String {
    // The labels of the state `case` are the only lines indented by exactly eight spaces that
    // start with the state prefix; the lines that set a state (`cmd="..."`) are indented more.
    let wrong = format!("        {}__subcmd__", BIN.replace('-', "__subcmd__"));
    let right = format!("        {}__subcmd__", BIN.replace('-', "__"));
    let mut fixed = String::with_capacity(script.len());
    for line in script.split_inclusive('\n') {
        match line.strip_prefix(&wrong) {
            Some(rest) => {
                fixed.push_str(&right);
                fixed.push_str(rest);
            }
            None => fixed.push_str(line),
        }
    }
    fixed
}

/// clap_complete's fish generator completes options only ("The fish generator currently only
/// supports named options", its documentation says), so `safe-ad completions <TAB>` and
/// `safe-ad config set <TAB>` offered file names. These lines offer the values of every
/// positional argument that has a fixed set of them, until one of those values is on the line,
/// through the helper functions of the generated script.
fn fish_positional_values(root: &Command) -> String {
    let using = format!("__fish_{}_using_subcommand", BIN.replace('-', "_"));
    let mut lines = String::from(
        "\n# Values of positional arguments, which clap_complete's fish script leaves out.\n",
    );
    for path in subcommand_paths(root) {
        let command = *path.last().expect("a path is never empty");
        let mut condition = format!("{using} {}", path[0].get_name());
        for deeper in &path[1..] {
            condition.push_str(&format!(
                "; and __fish_seen_subcommand_from {}",
                deeper.get_name()
            ));
        }
        for arg in command.get_positionals() {
            let values: Vec<_> = arg
                .get_possible_values()
                .into_iter()
                .filter(|value| !value.is_hide_set())
                .collect();
            if values.is_empty() {
                continue;
            }
            let names: Vec<&str> = values.iter().map(|value| value.get_name()).collect();
            let condition = format!(
                "{condition}; and not __fish_seen_subcommand_from {}",
                names.join(" ")
            );
            for value in &values {
                lines.push_str(&format!(
                    "complete -c {BIN} -n \"{condition}\" -f -a \"{}\"",
                    value.get_name()
                ));
                if let Some(help) = value.get_help() {
                    lines.push_str(&format!(" -d '{}'", fish_quote(&help.to_string())));
                }
                lines.push('\n');
            }
        }
    }
    lines
}

/// Text for a single-quoted fish string.
fn fish_quote(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\'', "\\'")
}

/// Every path of subcommands below `root`, parents before children: `[config]`,
/// `[config, set]`, ... The `help` subcommand clap adds is left out: it has no page of its own
/// and nothing to complete that the commands themselves do not.
fn subcommand_paths(root: &Command) -> Vec<Vec<&Command>> {
    fn walk<'a>(command: &'a Command, path: &[&'a Command], out: &mut Vec<Vec<&'a Command>>) {
        for sub in command.get_subcommands() {
            if sub.is_hide_set() || sub.get_name() == "help" {
                continue;
            }
            let mut deeper = path.to_vec();
            deeper.push(sub);
            out.push(deeper.clone());
            walk(sub, &deeper, out);
        }
    }
    let mut out = Vec::new();
    walk(root, &[], &mut out);
    out
}

/// Every generated file, by its path in the repository.
pub fn generated_files() -> Vec<(String, Vec<u8>)> {
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
        man_pages()
            .into_iter()
            .map(|(name, page)| (format!("man/{name}"), page)),
    );
    files
}

/// Every man page by file name: `safe-ad.1`, and one for each subcommand at any depth
/// (`safe-ad-put.1`, `safe-ad-config-set.1`), named as the pages refer to each other.
pub fn man_pages() -> Vec<(String, Vec<u8>)> {
    let mut root = help::command();
    root.build();
    let mut pages = vec![(format!("{BIN}.1"), main_page(&root))];
    for path in subcommand_paths(&root) {
        let command = *path.last().expect("a path is never empty");
        pages.push((format!("{}.1", page_name(command)), sub_page(&root, &path)));
    }
    pages
}

/// The main page: what `--help` says, the commands with their pages, README's reference
/// sections, and the exit codes, environment, files and examples from their tables.
fn main_page(root: &Command) -> Vec<u8> {
    let mut roff = title(root);
    roff.push_str(&name_section(root));
    roff.push_str(&format!(".SH SYNOPSIS\n{}\n", synopsis(root, &[], false)));
    let man = clap_mangen::Man::new(root.clone());
    roff.push_str(&mangen(|out| man.render_description_section(out)));
    roff.push_str(&mangen(|out| man.render_options_section(out)));
    roff.push_str(&commands_section(root, root));
    for heading in README_SECTIONS {
        let body = markdown::section(README, heading)
            .unwrap_or_else(|| panic!("README.md has no section `## {heading}`"));
        roff.push_str(&format!(".SH {}\n", quoted(&heading.to_uppercase())));
        if *heading == "Handles" {
            roff.push_str(&handles_intro(root));
        }
        roff.push_str(&markdown::to_roff(body));
    }
    roff.push_str(&tables_sections());
    let pages: Vec<String> = subcommand_paths(root)
        .iter()
        .map(|path| page_ref(path.last().expect("a path is never empty")))
        .collect();
    roff.push_str(&format!(".SH \"SEE ALSO\"\n{}\n", pages.join(", ")));
    roff.into_bytes()
}

/// A subcommand's page: its long help from `cli`, its own options (the client options, the
/// same at every level, are on the main page), its commands, and its examples.
fn sub_page(root: &Command, path: &[&Command]) -> Vec<u8> {
    let command = *path.last().expect("a path is never empty");
    let shared = shared_ids(root, command);
    let client = takes_client_options(root, command);
    let mut roff = title(command);
    roff.push_str(&name_section(command));
    roff.push_str(&format!(
        ".SH SYNOPSIS\n{}\n",
        synopsis(command, &shared, client)
    ));
    // clap_mangen lists every argument that is not hidden: hide the shared ones on this copy.
    let own = shared.iter().fold(command.clone(), |own, id| {
        own.mut_arg(id, |arg| arg.hide(true))
    });
    let man = clap_mangen::Man::new(own.clone());
    roff.push_str(&mangen(|out| man.render_description_section(out)));
    if own.get_arguments().any(|arg| !arg.is_hide_set()) {
        roff.push_str(&mangen(|out| man.render_options_section(out)));
    } else {
        roff.push_str(".SH OPTIONS\n");
    }
    if client {
        let listed: Vec<String> = root
            .get_arguments()
            .filter(|arg| client_ids(root).contains(&id(arg)))
            .map(synopsis_arg)
            .collect();
        roff.push_str(&format!(
            ".PP\nThe client options of {} are taken here too, before or after the \
             command: {}.\n",
            page_ref(root),
            listed.join(" ")
        ));
    }
    if command
        .get_subcommands()
        .any(|sub| sub.get_name() != "help")
    {
        roff.push_str(&commands_section(root, command));
    }
    if let Some(examples) = command.get_after_help() {
        roff.push_str(&examples_section(&examples.to_string()));
    }
    let mut see_also = vec![page_ref(root)];
    if path.len() > 1 {
        see_also.push(page_ref(path[path.len() - 2]));
    }
    roff.push_str(&format!(".SH \"SEE ALSO\"\n{}\n", see_also.join(", ")));
    roff.into_bytes()
}

/// `.TH` with the version, then no hyphenation and a ragged right margin: option names,
/// URLs and paths stay whole, as a person would type them.
fn title(command: &Command) -> String {
    format!(
        ".TH {} 1 \"\" {} \"User Commands\"\n.nh\n.ad l\n",
        quoted(&page_name(command).to_uppercase()),
        quoted(&format!("{BIN} {}", env!("CARGO_PKG_VERSION"))),
    )
}

fn name_section(command: &Command) -> String {
    let about = command.get_about().map(|about| about.to_string());
    format!(
        ".SH NAME\n{} \\- {}\n",
        escape(&page_name(command)),
        escape(&about.unwrap_or_default())
    )
}

/// One of clap_mangen's sections, as text.
fn mangen(render: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> String {
    let mut out = Vec::new();
    render(&mut out).expect("writing into a Vec cannot fail");
    String::from_utf8(out).expect("clap_mangen writes UTF-8")
}

/// The synopsis line of a command, every option with its argument: `safe-ad [--timeout SECS]
/// ... COMMAND`. The arguments in `leave_out` are not shown; `options` stands for the client
/// options with one `[OPTIONS]`.
fn synopsis(command: &Command, leave_out: &[String], options: bool) -> String {
    let mut words = vec![bold(&bin_name(command))];
    if options {
        words.push("[\\fIOPTIONS\\fR]".to_owned());
    }
    for arg in command.get_arguments() {
        if arg.is_hide_set() || leave_out.contains(&id(arg)) || arg.is_positional() {
            continue;
        }
        words.push(synopsis_arg(arg));
    }
    for arg in command.get_positionals() {
        if !arg.is_hide_set() {
            words.push(synopsis_arg(arg));
        }
    }
    if command.has_subcommands() {
        let name = command.get_subcommand_value_name().unwrap_or("COMMAND");
        let name = italic(name);
        words.push(if command.is_subcommand_required_set() {
            name
        } else {
            format!("[{name}]")
        });
    }
    words.join(" ")
}

/// One argument as a synopsis shows it: `[-j|--jobs N]`, `HANDLE...`, `[-- COMMAND...]`.
fn synopsis_arg(arg: &Arg) -> String {
    let values = arg
        .get_value_names()
        .map(|names| names.iter().map(|name| italic(name)).collect::<Vec<_>>())
        .unwrap_or_else(|| vec![italic(&arg.get_id().as_str().to_uppercase())]);
    let many = arg
        .get_num_args()
        .is_some_and(|range| range.max_values() > values.len());
    let mut shown = if arg.is_positional() {
        values.join(" ")
    } else {
        let mut names = Vec::new();
        if let Some(short) = arg.get_short() {
            names.push(bold(&format!("-{short}")));
        }
        if let Some(long) = arg.get_long() {
            names.push(bold(&format!("--{long}")));
        }
        let mut shown = names.join("|");
        if arg.get_num_args().is_some_and(|range| range.takes_values()) {
            shown.push(' ');
            shown.push_str(&values.join(" "));
        }
        shown
    };
    if many {
        shown.push_str("...");
    }
    if arg.is_last_set() {
        shown = format!("\\-\\- {shown}");
    }
    if arg.is_required_set() {
        shown
    } else {
        format!("[{shown}]")
    }
}

/// COMMANDS: each subcommand with its arguments, its one-line help and its page.
fn commands_section(root: &Command, command: &Command) -> String {
    let mut roff = String::from(".SH COMMANDS\n");
    for sub in command.get_subcommands() {
        if sub.is_hide_set() || sub.get_name() == "help" {
            continue;
        }
        roff.push_str(&format!(
            ".TP\n{}\n{}\nSee {}.\n",
            short_synopsis(root, sub),
            escape(&sentence(&about(sub))),
            page_ref(sub)
        ));
    }
    roff
}

/// HANDLES begins with where handles come from: the commands that make, find, renew and drop
/// them, with their own one-line help. README's Handles section follows.
fn handles_intro(root: &Command) -> String {
    let mut roff = String::from(
        ".PP\nThe launcher gives out handles; these commands get them from it and give them \
         back:\n",
    );
    for name in HANDLE_COMMANDS {
        let sub = root
            .find_subcommand(name)
            .unwrap_or_else(|| panic!("HANDLE_COMMANDS names `{name}`, which is no command"));
        roff.push_str(&format!(
            ".TP\n{}\n{}\nSee {}.\n",
            short_synopsis(root, sub),
            escape(&sentence(&about(sub))),
            page_ref(sub)
        ));
    }
    roff
}

/// A subcommand's synopsis without the options it shares with the main command.
fn short_synopsis(root: &Command, sub: &Command) -> String {
    synopsis(sub, &shared_ids(root, sub), false)
}

/// EXAMPLES from a subcommand's `after_help` ("Example:" and indented lines), as typed.
fn examples_section(after_help: &str) -> String {
    let mut roff = String::from(".SH EXAMPLES\n.PP\n.RS 4\n.nf\n");
    for line in after_help.lines() {
        if line.ends_with(':') && !line.starts_with(' ') {
            continue;
        }
        roff.push_str(&text_line(&escape(line.trim_start())));
        roff.push('\n');
    }
    roff.push_str(".fi\n.RE\n");
    roff
}

/// EXIT STATUS, ENVIRONMENT, FILES and EXAMPLES, each from its one table.
fn tables_sections() -> String {
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

/// The ids of the arguments `command` shares with the main command: the client options, and
/// help and version. Its page lists only the others; the main page has these.
fn shared_ids(root: &Command, command: &Command) -> Vec<String> {
    let main: Vec<String> = root.get_arguments().map(id).collect();
    command
        .get_arguments()
        .map(id)
        .filter(|id| main.contains(id))
        .collect()
}

/// The client options: the main command's options but help and version, which every client
/// command takes too (`cli::ClientOptions`).
fn client_ids(root: &Command) -> Vec<String> {
    root.get_arguments()
        .map(id)
        .filter(|id| id != "help" && id != "version")
        .collect()
}

/// Whether `command` takes the client options (`emulator` and `completions` do not).
fn takes_client_options(root: &Command, command: &Command) -> bool {
    let client = client_ids(root);
    command.get_arguments().any(|arg| client.contains(&id(arg)))
}

fn id(arg: &Arg) -> String {
    arg.get_id().as_str().to_owned()
}

/// `safe-ad config set` (clap sets it on every subcommand when the command is built).
fn bin_name(command: &Command) -> String {
    command
        .get_bin_name()
        .unwrap_or(command.get_name())
        .to_owned()
}

/// `safe-ad-config-set`, the page's name.
fn page_name(command: &Command) -> String {
    command
        .get_display_name()
        .unwrap_or(command.get_name())
        .to_owned()
}

/// `\fBsafe-ad-put\fR(1)`.
fn page_ref(command: &Command) -> String {
    format!("{}(1)", bold(&page_name(command)))
}

fn about(command: &Command) -> String {
    command
        .get_about()
        .map(|about| about.to_string())
        .unwrap_or_default()
}

fn bold(text: &str) -> String {
    format!("\\fB{}\\fR", escape(text))
}

fn italic(text: &str) -> String {
    format!("\\fI{}\\fR", escape(text))
}

/// A macro argument in double quotes (roff has no escape for `"` inside one; none is used).
fn quoted(text: &str) -> String {
    format!("\"{}\"", escape(text))
}

/// A help-list entry as a man-page sentence: capitalised, with a full stop.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
    format!("{}{}.", first.unwrap_or_default(), chars.as_str())
}

/// A line of text that roff will not read as a request: a leading `.` or `'` is guarded.
fn text_line(line: &str) -> String {
    if line.starts_with('.') || line.starts_with('\'') {
        format!("\\&{line}")
    } else {
        line.to_owned()
    }
}

/// Escapes text for roff: backslashes, hyphens (so options stay ASCII `-`), and a leading dot
/// or quote on any line.
fn escape(text: &str) -> String {
    let escaped = escape_chars(text);
    let mut lines: Vec<String> = escaped.lines().map(text_line).collect();
    if text.ends_with('\n') {
        lines.push(String::new());
    }
    lines.join("\n")
}

/// Escapes the characters roff reads specially anywhere in a line: backslashes, and hyphens
/// (which roff may print as a Unicode hyphen, not the `-` a person types).
fn escape_chars(text: &str) -> String {
    text.replace('\\', "\\e").replace('-', "\\-")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every state the bash script sets (`cmd="..."`) has a `case` label that reads it; before
    /// the correction, none past the first word had.
    #[test]
    fn every_bash_state_set_is_a_state_read() {
        let script = String::from_utf8(completion(Shell::Bash)).expect("UTF-8");
        let labels: Vec<&str> = script
            .lines()
            .filter(|line| line.starts_with("        ") && !line.starts_with("         "))
            .filter_map(|line| line.trim().strip_suffix(')'))
            .collect();
        let states: Vec<&str> = script
            .lines()
            .filter_map(|line| line.trim().strip_prefix("cmd=\""))
            .filter_map(|rest| rest.strip_suffix('"'))
            .filter(|state| !state.is_empty())
            .collect();
        assert!(states.len() > 20, "{states:?}");
        for state in states {
            assert!(labels.contains(&state), "no case label reads {state}");
        }
    }

    #[test]
    fn synopsis_shows_option_arguments() {
        let mut root = help::command();
        root.build();
        let line = synopsis(&root, &[], false);
        assert!(
            line.contains("[\\fB\\-\\-launcher\\-url\\fR \\fIURL\\fR]"),
            "{line}"
        );
        assert!(
            line.contains("[\\fB\\-j\\fR|\\fB\\-\\-jobs\\fR \\fIN\\fR]"),
            "{line}"
        );
        assert!(line.ends_with("\\fICOMMAND\\fR"), "{line}");
    }

    #[test]
    fn escape_guards_requests_and_hyphens() {
        assert_eq!(escape(".x\n'y\n-z\\"), "\\&.x\n\\&'y\n\\-z\\e");
    }
}
