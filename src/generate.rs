//! Shell completions and man pages, written from the clap definition (`help::command()`, whose
//! per-command options come from `cli::COMMAND_OPTIONS`) and the tables the help texts come from.
//!
//! The files under `completions/` and `man/` are committed, and the Debian package ships them; a
//! test regenerates them with [`generated_files`] and fails when they drift. Every command, at
//! any depth, is found by walking the clap definition, so a new command needs no edit here.
//!
//! - bash: written here ([`bash`]), because clap_complete's script completes file names for every
//!   value it knows nothing about, offers a positional's values at every position, and knows
//!   nothing of `--`.
//! - zsh and fish: clap_complete's, corrected where they complete file names, miss values or
//!   get in the way of an option ([`zsh`], [`fish`]).
//! - elvish, powershell: clap_complete's.
//! - man pages: put together here from clap_mangen's sections and our own, because
//!   clap_mangen's synopsis leaves out option arguments and its command list names pages it
//!   does not write; the main page carries README's reference sections.

mod bash;
mod fish;
mod markdown;
mod zsh;

use clap::{Arg, Command, ValueHint};
use clap_complete::Shell as CompleteShell;

use crate::cli::Shell;
use crate::config_file::Key;
use crate::help::{self, EXAMPLES};
use crate::outcome::EXIT_CODES;
use crate::settings::ENV_VARS;

/// README's reference sections, in the order the main man page carries them (each as `.SH` in
/// capitals). They are the one place these facts are written; the page takes them from there.
pub const README_SECTIONS: &[&str] = &[
    "Handles",
    "Saving after a clear",
    "Output",
    "Settings",
    "Security",
    #[cfg(feature = "emulator")]
    "The emulator",
];

/// The commands that give out and take back handles, listed at the top of HANDLES.
const HANDLE_COMMANDS: &[&str] = &["create", "open", "reopen", "drop"];

const README: &str = include_str!("../README.md");

/// The name the completions are written for and the man pages are named after.
const BIN: &str = "safe-ad";

/// Completions for one shell, as `safe-ad completions <SHELL>` prints them.
pub fn completion(shell: Shell) -> Vec<u8> {
    let mut command = for_completion();
    let clap = |generator: CompleteShell, command: &mut Command| {
        let mut out = Vec::new();
        clap_complete::generate(generator, command, BIN, &mut out);
        out
    };
    match shell {
        Shell::Bash => bash::script(&command).into_bytes(),
        Shell::Zsh => {
            let script = clap(CompleteShell::Zsh, &mut command);
            zsh::corrected(&String::from_utf8_lossy(&script)).into_bytes()
        }
        Shell::Fish => {
            let script = clap(CompleteShell::Fish, &mut command);
            fish::corrected(&String::from_utf8_lossy(&script), &command).into_bytes()
        }
        Shell::Elvish => clap(CompleteShell::Elvish, &mut command),
        Shell::Powershell => clap(CompleteShell::PowerShell, &mut command),
    }
}

/// The built command, with every value that is not a file marked as such: an argument clap
/// knows nothing about (`ValueHint::Unknown`) gets `ValueHint::Other`, so no shell offers file
/// names for it. Every argument of safe-ad that names a file is a `PathBuf` (which clap hints as
/// a path) or has a path hint of its own, so an unknown one is a number, handle, name, URL, key
/// or word (`path_arguments_are_hinted_as_paths` below keeps that true).
fn for_completion() -> Command {
    fn hint(command: Command) -> Command {
        let ids: Vec<String> = command
            .get_arguments()
            .filter(|arg| takes_value(arg) && arg.get_value_hint() == ValueHint::Unknown)
            .map(|arg| arg.get_id().as_str().to_owned())
            .collect();
        let command = ids.iter().fold(command, |command, id| {
            command.mut_arg(id, |arg| arg.value_hint(ValueHint::Other))
        });
        let names: Vec<String> = command
            .get_subcommands()
            .map(|sub| sub.get_name().to_owned())
            .collect();
        names
            .iter()
            .fold(command, |command, name| command.mut_subcommand(name, hint))
    }
    let mut command = help::command();
    command.build();
    let mut command = hint(command).bin_name(BIN);
    command.build();
    command
}

/// Whether an argument takes a value (an option with an argument, or a positional).
fn takes_value(arg: &Arg) -> bool {
    arg.get_num_args().is_some_and(|range| range.takes_values())
}

/// How the value of an argument completes, in every shell.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Values {
    /// One of these words.
    Words(Vec<String>),
    /// A file name.
    Files,
    /// A directory name.
    Dirs,
    /// A command name.
    Commands,
    /// A command line: a command name, then that command's arguments.
    CommandLine,
    /// Nothing: a number, handle, name, URL, key or word the shell cannot guess.
    Nothing,
}

impl Values {
    fn of(arg: &Arg) -> Values {
        let words: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|value| !value.is_hide_set())
            .map(|value| value.get_name().to_owned())
            .collect();
        if !words.is_empty() {
            return Values::Words(words);
        }
        match arg.get_value_hint() {
            ValueHint::AnyPath | ValueHint::FilePath | ValueHint::ExecutablePath => Values::Files,
            ValueHint::DirPath => Values::Dirs,
            ValueHint::CommandName => Values::Commands,
            ValueHint::CommandString | ValueHint::CommandWithArguments => Values::CommandLine,
            _ => Values::Nothing,
        }
    }
}

/// Every path of subcommands below `root`, parents before children: `[config]`,
/// `[config, set]`, ... Hidden commands and the `help` subcommand clap adds are left out (see
/// [`help_paths`] for the latter).
fn subcommand_paths(root: &Command) -> Vec<Vec<&Command>> {
    walk(root, false)
}

/// Every path below `root`, `help` and its own subcommands included (`[help, auth]`).
fn help_paths(root: &Command) -> Vec<Vec<&Command>> {
    walk(root, true)
}

fn walk(root: &Command, with_help: bool) -> Vec<Vec<&Command>> {
    fn go<'a>(
        command: &'a Command,
        path: &[&'a Command],
        with_help: bool,
        out: &mut Vec<Vec<&'a Command>>,
    ) {
        for sub in command.get_subcommands() {
            if sub.is_hide_set() || (sub.get_name() == "help" && !with_help) {
                continue;
            }
            let mut deeper = path.to_vec();
            deeper.push(sub);
            out.push(deeper.clone());
            go(sub, &deeper, with_help, out);
        }
    }
    let mut out = Vec::new();
    go(root, &[], with_help, &mut out);
    out
}

/// The names of a path: `["config", "set"]`.
fn names<'a>(path: &[&'a Command]) -> Vec<&'a str> {
    path.iter().map(|command| command.get_name()).collect()
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

    /// The rule of [`for_completion`]: an argument that names a file or directory is hinted as
    /// a path, so no file argument loses its file names.
    #[test]
    fn path_arguments_are_hinted_as_paths() {
        let root = for_completion();
        let mut commands = vec![&root];
        let paths = help_paths(&root);
        commands.extend(paths.iter().map(|path| *path.last().expect("never empty")));
        let mut seen = 0;
        for command in commands {
            for arg in command.get_arguments().filter(|arg| takes_value(arg)) {
                let names = arg.get_value_names().unwrap_or_default();
                if names
                    .iter()
                    .any(|name| ["FILE", "PATH", "DIR"].contains(&name.as_str()))
                {
                    seen += 1;
                    assert!(
                        matches!(Values::of(arg), Values::Files | Values::Dirs),
                        "{} --{:?} names a file but completes {:?}",
                        command.get_name(),
                        arg.get_long(),
                        Values::of(arg)
                    );
                }
            }
        }
        assert!(seen > 3, "{seen}");
    }

    #[test]
    fn values_of_numbers_urls_and_addresses_are_nothing() {
        let root = for_completion();
        let put = root.find_subcommand("put").expect("put");
        for id in ["jobs", "retries", "timeout", "launcher_url"] {
            let arg = put
                .get_arguments()
                .find(|arg| arg.get_id() == id)
                .expect(id);
            assert_eq!(Values::of(arg), Values::Nothing, "{id}");
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
