//! `shell`: runs lines of safe-ad commands in one process, with its spec.

use std::path::PathBuf;

use clap::Args;

use super::options::{Opt, Opts};
use super::spec::{Reaches, Spec};

/// `shell [-c LINES | FILE] [--keep-going]`.
#[derive(Debug, Args)]
pub struct ShellArgs {
    /// Run these lines (commands separated by newlines or `;`) instead of reading a script
    #[arg(
        short = 'c',
        long = "command",
        value_name = "LINES",
        conflicts_with = "file"
    )]
    pub lines: Option<String>,
    /// Run every line of a script, even after one failed; the exit code is the first failure's
    /// (refused at the prompt, where a failed line never ends the session)
    #[arg(long)]
    pub keep_going: bool,
    /// The script to run (`-` for standard input, as with no FILE and no -c when standard input
    /// is not a terminal)
    #[arg(value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub file: Option<PathBuf>,
}

enum_with_all! {
    /// The interactive prompt's own commands. The one list that completion, the prompt's
    /// dispatch (a `match` the compiler holds to every one), its `help` and a script's refusal
    /// read.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Dot {
        Handles,
        Keep,
        Watch,
        Unwatch,
        Profile,
    }
}

impl Dot {
    /// As it is typed: `.handles`.
    pub fn name(self) -> &'static str {
        match self {
            Dot::Handles => ".handles",
            Dot::Keep => ".keep",
            Dot::Watch => ".watch",
            Dot::Unwatch => ".unwatch",
            Dot::Profile => ".profile",
        }
    }

    /// What it takes after its name, as help shows it.
    pub fn takes(self) -> &'static str {
        match self {
            Dot::Handles => "",
            Dot::Keep => "HANDLE...",
            Dot::Watch => "HANDLE|NAME",
            Dot::Unwatch => "[N]",
            Dot::Profile => "[NAME]",
        }
    }

    /// What it does, as help and a refusal say it.
    pub fn does(self) -> &'static str {
        match self {
            Dot::Handles => "list the handles this session made",
            Dot::Keep => "keep handles past the end of the session",
            Dot::Watch => "watch data change above the prompt (alone: list)",
            Dot::Unwatch => "stop a watch (alone: all of them)",
            Dot::Profile => "use this profile of the config file (alone: say which)",
        }
    }

    /// The command typed as `word`, if it is one.
    pub fn named(word: &str) -> Option<Dot> {
        Dot::ALL.into_iter().find(|dot| dot.name() == word)
    }

    /// Each, as help lists them: its name, what it takes, what it does.
    pub fn rows() -> Vec<(&'static str, &'static str, &'static str)> {
        (Dot::ALL.iter())
            .map(|dot| (dot.name(), dot.takes(), dot.does()))
            .collect()
    }
}

/// `safe-ad shell`.
pub const SHELL: Spec = Spec {
    long_about: Some(
        "\
A prompt for safe-ad's commands when standard input is a terminal; otherwise a script of them \
run in one process: from -c LINES, from FILE, or from standard input.

Each line is split into words as sh splits them (single and double quotes, backslash escapes) \
and is what it would be after `safe-ad` on the command line: the same commands, options, output, \
errors and exit codes. Commands end at a newline or an unquoted `;`; blank lines and `#` \
comments are skipped; an unbalanced quote refuses the whole script before any line runs (exit 2, \
naming its line) when it comes from -c or FILE.

At the prompt: arrow keys and Ctrl-R search the history, Tab completes commands, options, \
option values, $variables and the session's handles, and the prompt shows the last line's exit \
code when it was not 0. `help` fits one screen: the shell's own commands, then safe-ad's by \
name; `help COMMAND` is the command's help. `.handles` lists the \
handles the session made and still holds, with their data's names, and warns as they near the \
launcher's 100 of a kind; `.keep HANDLE...` keeps them when the session ends. `.watch \
HANDLE|NAME [--interval SECS]` runs `watch` beside the prompt and prints its changes above the \
line being typed, until `.unwatch [N]`. `.profile [NAME]` has the lines after it use that \
profile of the config file (alone: says which is in use). Ctrl-C stops the \
running command as it stops on the command line (its handles given back) and comes back to the \
prompt; at the prompt it clears the line. (A command that reads the terminal itself, `decode` \
with no bytes or `config set token -`, reads until Ctrl-D.) Ctrl-D, `exit [N]`, SIGTERM or SIGHUP ends the \
session, giving back the handles it made (through `drop`, which names any it could not) and \
naming those kept. The history is kept in SAFE_AD_HISTORY (default: shell_history in the data \
directory), mode 0600, and never holds a line that carries a token (`auth token`, `auth login`, \
`config set token`, --token, the token itself or a word that looks like one).

A script stops at the first line that fails, with that line's exit code, and says which line \
it was; with --keep-going every line runs and the exit code is the first failure's. A stop \
signal (Ctrl-C, SIGTERM, SIGHUP) stops the running line as it stops that command, and ends the \
script with 130. `exit [N]` ends the script (with N, else as it stands).

A line `NAME = COMMAND ...` runs the command and keeps what it printed on standard output, with \
the ends trimmed, in the variable NAME; `$NAME` or `${NAME}` on a later line is replaced by it \
(inside double quotes too, not inside single quotes). An unquoted `$NAME` alone as a word is \
split at whitespace, as in sh, so a variable holding several handles gives several words. A \
variable never set is an error (exit 2), and so is one holding a handle its line made that a \
later line dropped (`drop $h`): said so, nothing sent.

Inside the shell, hints and suggestions name commands as typed there (`reopen 7`, `help`) \
rather than on the command line (`safe-ad reopen 7`, `safe-ad --help`); one that only a \
system shell can run (a pipe, a redirection, `$(...)`, `eval`) keeps its `safe-ad`.

The client options given to `shell` (--json, --timeout, --launcher-url, ...) apply to every line \
whose command takes them, unless the line gives its own. A shell given --dry-run or --curl sends \
and writes nothing: each line runs as its dry run, or as it is where its command only prints \
(`decode`, `config show`); any other line (`config set`, `emulator export`, `show`, a line with \
its own --json) is refused (exit 2), and so is `.watch`; no history is written.

A script is read a line at a time, and a line (or a command over several, a quote across them) \
may hold at most 1 MiB: a longer one is refused with exit 2, naming it. From -c or a FILE the \
whole script is read through first, so such a line refuses it before any line runs; from \
standard input (or a pipe as FILE) each line runs as it comes, and such a line ends the script \
where it is, after the lines before it. A script read from standard input leaves nothing there \
for its lines: a line that reads standard input (`append --immutable -`, `decode -`) reads \
nothing. Give such a script with -c or as FILE.",
    ),
    after_help: Some(
        "Examples:\n  safe-ad shell -c 'h = create --put; metadata $h; drop $h'\n  printf 'metadata 1\\nmetadata 2\\n' | safe-ad shell --keep-going --json",
    ),
    options: Opts::of(&Opt::ALL),
    reaches: Reaches::Launcher,
    // Its lines print their commands' objects; its sample's (`metadata`) are steps.
    json: Some("result"),
    sample: &["-c", "metadata 1"],
    ..Spec::not_changing(
        "shell",
        "A prompt for safe-ad's commands on a terminal, or a script of them run in one process",
    )
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The shell's help, man page and guide each name every command of the prompt's own, with
    /// what it takes: the prose is checked against the one list.
    #[test]
    fn the_help_and_the_guide_name_every_command_of_the_prompts_own() {
        let help = SHELL.long_about.unwrap_or_default();
        let guide = include_str!("../../docs/shell.md");
        for dot in Dot::ALL {
            let typed = format!("{} {}", dot.name(), dot.takes());
            let typed = typed.trim_end();
            assert!(help.contains(typed), "shell's help does not say `{typed}`");
            // In a Markdown table `|` is written `\|`.
            let in_table = typed.replace('|', "\\|");
            assert!(
                guide.contains(typed) || guide.contains(&in_table),
                "docs/shell.md does not say `{typed}`"
            );
        }
    }
}
