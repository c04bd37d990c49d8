//! What completes after each word: the one place that decides it. The bash, zsh and fish
//! scripts ([`super::scripts`]) are thin wrappers that ask `safe-ad __complete -- WORDS...`
//! ([`answer`]) and do what it says in their own way (a list of words, the shell's own file
//! names or command names, or the completion of the command line after `--`); the interactive
//! `shell` asks [`complete`] directly and adds what only a session knows (its variables and
//! handles).
//!
//! It reads the clap definition and the words it is given, nothing else: no settings, no
//! config file, no token, no request. `run` answers `__complete` before it reads anything
//! (so a TAB never costs a read of a secret or a round trip), and a binary always completes
//! what it itself takes, never what an older script remembers.

use clap::{Arg, Command};

use super::{takes_value, Values};

/// The word that asks for an answer: `safe-ad __complete -- WORDS...`. Hidden: no help, no
/// completion and no man page name it.
pub const ASK: &str = "__complete";

/// One word that could stand where the cursor's word is, with its one-line help.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub word: String,
    pub help: String,
}

/// What the word under the cursor completes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offer {
    /// These words (already matched against what is typed).
    Words(Vec<Candidate>),
    /// A file name, as the shell completes it.
    Files,
    /// A directory name.
    Dirs,
    /// A command name.
    Commands,
    /// An argument of the command line after `--`, whose command is the word at this index:
    /// the shell completes it as it completes that command.
    CommandLine(usize),
    /// Nothing the definition can name: a number, handle, name, URL, key or word.
    Nothing,
}

/// The answer for the word under the cursor.
#[derive(Debug)]
pub struct Completion<'a> {
    /// The byte of the word from which the candidates replace it (after `--color=`, else 0).
    pub from: usize,
    pub offer: Offer,
    /// The positional argument the word is a value of, where it is one: the shell offers its
    /// variables there, and its handles for a handle.
    pub positional: Option<&'a Arg>,
    /// The word names the first command (no command is named before it): the shell offers its
    /// own words there too.
    pub first: bool,
}

/// What completes for `current`, the word under the cursor (as typed up to the cursor), after
/// `before`, the words between the program name and it. `root` should be built
/// (`Command::build`) so that deferred commands have their arguments.
pub fn complete<'a>(root: &'a Command, before: &[String], current: &str) -> Completion<'a> {
    let whole = |offer| Completion {
        from: 0,
        offer,
        positional: None,
        first: false,
    };
    let state = walk(root, before);
    if let Some(arg) = state.pending {
        return whole(offer(arg, current));
    }
    if let Some(dashes) = state.dashes {
        if let Some(last) = last_argument(state.command) {
            let values = Values::of(last);
            return whole(match values {
                Values::CommandLine if state.in_last > 0 => Offer::CommandLine(dashes + 1),
                Values::CommandLine => Offer::Commands,
                _ => offer(last, current),
            });
        }
    } else {
        if let Some((long, typed)) = current
            .strip_prefix("--")
            .and_then(|option| option.split_once('='))
        {
            // `--color=al`: only the value is replaced, `--color=` stays as typed.
            let offer = find_long(state.command, long)
                .filter(|arg| takes_value(arg))
                .map_or(Offer::Nothing, |arg| offer(arg, typed));
            return Completion {
                from: current.len() - typed.len(),
                offer,
                positional: None,
                first: false,
            };
        }
        if current.starts_with('-') {
            return whole(matching(long_options(state.command), current));
        }
        if state.positionals == 0 && state.command.has_subcommands() {
            return Completion {
                first: state.at_top,
                ..whole(matching(subcommands(state.command), current))
            };
        }
    }
    // A word that names no command, at the top: nothing follows it.
    if state.at_top && state.positionals > 0 {
        return whole(Offer::Nothing);
    }
    match positional(state.command, state.positionals) {
        Some(arg) if arg.is_hide_set() => whole(Offer::Nothing),
        Some(arg) => Completion {
            positional: Some(arg),
            ..whole(offer(arg, current))
        },
        // Nothing is left to type but options.
        None if state.dashes.is_none() => whole(matching(long_options(state.command), current)),
        None => whole(Offer::Nothing),
    }
}

/// `safe-ad __complete -- WORDS...`: the words after the program name, the cursor's word last
/// (empty after a blank), answered as the scripts read it: a first line `words`, `files`,
/// `dirs`, `commands`, `command-line N` (N counting the words from 0) or `nothing`, then for
/// `words` one a line, a tab and its help after a word that has one. A word given with `--opt=`
/// comes back whole (`--color=always`).
pub fn answer(words: &[String]) -> String {
    let mut root = crate::cli::whole_command();
    root.build();
    let (current, before) = match words.split_last() {
        Some((current, before)) => (current.as_str(), before),
        None => ("", words),
    };
    let completion = complete(&root, before, current);
    let typed = &current[..completion.from];
    match completion.offer {
        Offer::Words(words) => {
            let mut out = String::from("words\n");
            for Candidate { word, help } in words {
                out.push_str(typed);
                out.push_str(&word);
                if !help.is_empty() {
                    out.push('\t');
                    out.push_str(&help);
                }
                out.push('\n');
            }
            out
        }
        Offer::Files => "files\n".to_owned(),
        Offer::Dirs => "dirs\n".to_owned(),
        Offer::Commands => "commands\n".to_owned(),
        Offer::CommandLine(at) => format!("command-line {at}\n"),
        Offer::Nothing => "nothing\n".to_owned(),
    }
}

/// Where the words before the cursor lead: the (sub)command reached, an option waiting for its
/// value, how many positionals were given, and where `--` ended the options.
struct State<'a> {
    command: &'a Command,
    /// No command named yet.
    at_top: bool,
    pending: Option<&'a Arg>,
    positionals: usize,
    /// The index of the `--` that ended the options.
    dashes: Option<usize>,
    /// Words given to the command line after `--`, for a command that takes one.
    in_last: usize,
}

fn walk<'a>(command: &'a Command, words: &[String]) -> State<'a> {
    let mut state = State {
        command,
        at_top: true,
        pending: None,
        positionals: 0,
        dashes: None,
        in_last: 0,
    };
    for (at, word) in words.iter().enumerate() {
        if state.pending.take().is_some() {
            continue;
        }
        if state.dashes.is_some() {
            if last_argument(state.command).is_some() {
                state.in_last += 1;
            } else {
                state.positionals += 1;
            }
        } else if word == "--" {
            state.dashes = Some(at);
        } else if let Some(long) = word.strip_prefix("--") {
            if !long.contains('=') {
                state.pending = find_long(state.command, long).filter(|arg| takes_value(arg));
            }
        } else if word.len() > 1 && word.starts_with('-') && !is_number(word) {
            state.pending = short_pending(state.command, &word[1..]);
        } else if state.positionals == 0 {
            match find_subcommand(state.command, word) {
                Some(sub) => {
                    state.command = sub;
                    state.at_top = false;
                }
                None => state.positionals += 1,
            }
        } else {
            state.positionals += 1;
        }
    }
    state
}

/// For `-abc`: the option the next word is the value of, if the last letter takes one and no
/// letter before it took the rest of the word as its value.
fn short_pending<'a>(command: &'a Command, letters: &str) -> Option<&'a Arg> {
    let mut letters = letters.chars().peekable();
    while let Some(letter) = letters.next() {
        let arg = command
            .get_arguments()
            .find(|arg| arg.get_short() == Some(letter))?;
        if takes_value(arg) {
            return letters.peek().is_none().then_some(arg);
        }
    }
    None
}

/// A negative number is a value (handles and indexes allow them), not a short option.
fn is_number(word: &str) -> bool {
    word.parse::<f64>().is_ok()
}

fn find_long<'a>(command: &'a Command, long: &str) -> Option<&'a Arg> {
    command.get_arguments().find(|arg| {
        arg.get_long() == Some(long)
            || arg
                .get_all_aliases()
                .is_some_and(|aliases| aliases.contains(&long))
    })
}

fn find_subcommand<'a>(command: &'a Command, name: &str) -> Option<&'a Command> {
    command
        .get_subcommands()
        .find(|sub| sub.get_name() == name || sub.get_all_aliases().any(|alias| alias == name))
}

/// The argument that takes the command line after `--` (`emulator -- COMMAND...`).
fn last_argument(command: &Command) -> Option<&Arg> {
    command.get_positionals().find(|arg| arg.is_last_set())
}

/// The `index`th positional (from 0); past the others, the last when it takes several
/// (`HANDLE...`).
fn positional(command: &Command, index: usize) -> Option<&Arg> {
    let mut positionals: Vec<&Arg> = command
        .get_positionals()
        .filter(|arg| !arg.is_last_set())
        .collect();
    positionals.sort_by_key(|arg| arg.get_index());
    positionals.get(index).copied().or_else(|| {
        positionals.last().copied().filter(|arg| {
            arg.get_num_args()
                .is_some_and(|range| range.max_values() > 1)
        })
    })
}

/// What the value of `arg` completes to, its words matched against `typed`.
fn offer(arg: &Arg, typed: &str) -> Offer {
    match Values::of(arg) {
        Values::Words => {
            let values = arg
                .get_possible_values()
                .into_iter()
                .filter(|value| !value.is_hide_set())
                .map(|value| Candidate {
                    word: value.get_name().to_owned(),
                    help: one_line(value.get_help()),
                })
                .collect();
            matching(values, typed)
        }
        Values::Files => Offer::Files,
        Values::Dirs => Offer::Dirs,
        Values::Commands | Values::CommandLine => Offer::Commands,
        Values::Nothing => Offer::Nothing,
    }
}

/// The candidates that start with what is typed, each once.
fn matching(candidates: Vec<Candidate>, typed: &str) -> Offer {
    let mut seen = std::collections::BTreeSet::new();
    Offer::Words(
        candidates
            .into_iter()
            .filter(|candidate| candidate.word.starts_with(typed))
            .filter(|candidate| seen.insert(candidate.word.clone()))
            .collect(),
    )
}

/// The visible subcommands of a command and their visible aliases (`help` where clap adds it).
fn subcommands(command: &Command) -> Vec<Candidate> {
    command
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set())
        .flat_map(|sub| {
            let help = one_line(sub.get_about());
            std::iter::once(sub.get_name())
                .chain(sub.get_visible_aliases())
                .map(move |name| Candidate {
                    word: name.to_owned(),
                    help: help.clone(),
                })
        })
        .collect()
}

/// `--name` of each visible option, and its visible aliases.
fn long_options(command: &Command) -> Vec<Candidate> {
    command
        .get_arguments()
        .filter(|arg| !arg.is_positional() && !arg.is_hide_set())
        .flat_map(|arg| {
            let help = one_line(arg.get_help());
            arg.get_long_and_visible_aliases()
                .unwrap_or_default()
                .into_iter()
                .map(move |long| Candidate {
                    word: format!("--{long}"),
                    help: help.clone(),
                })
        })
        .collect()
}

/// The first line of a help text, with no tab in it: the scripts read a tab as its start.
fn one_line(help: Option<&clap::builder::StyledStr>) -> String {
    help.map(|help| {
        let help = help.to_string();
        help.lines().next().unwrap_or_default().replace('\t', " ")
    })
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer_to(words: &[&str]) -> String {
        let words: Vec<String> = words.iter().map(|&word| word.to_owned()).collect();
        answer(&words)
    }

    fn words_of(answer: &str) -> Vec<&str> {
        let mut lines = answer.lines();
        assert_eq!(lines.next(), Some("words"), "{answer}");
        lines
            .map(|line| line.split('\t').next().unwrap_or(line))
            .collect()
    }

    #[test]
    fn each_kind_of_value_answers_its_kind() {
        assert_eq!(words_of(&answer_to(&["--col"])), ["--color"]);
        assert_eq!(
            words_of(&answer_to(&["put", "--color="])),
            ["--color=auto", "--color=always", "--color=never"]
        );
        assert_eq!(answer_to(&["put", "--token-file", ""]), "files\n");
        assert_eq!(answer_to(&["put", "--jobs", ""]), "nothing\n");
        assert_eq!(answer_to(&["put", ""]), "nothing\n");
        assert_eq!(answer_to(&["nonsense", ""]), "nothing\n");
        assert_eq!(words_of(&answer_to(&["auth", "who"])), ["whoami"]);
        assert_eq!(words_of(&answer_to(&["help", "auth", "who"])), ["whoami"]);
        assert!(answer_to(&[]).starts_with("words\n"));
    }

    #[cfg(feature = "emulator")]
    #[test]
    fn the_command_line_after_dashdash_is_the_shells_to_complete() {
        assert_eq!(answer_to(&["emulator", "--", "s"]), "commands\n");
        assert_eq!(
            answer_to(&["emulator", "--listen", "x", "--", "sh", "-c", ""]),
            "command-line 4\n"
        );
        assert_eq!(answer_to(&["emulator", "--state", ""]), "files\n");
    }
}
