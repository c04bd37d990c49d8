//! Tab completion for the interactive shell, as pure logic: given the clap tree, a line and the
//! cursor, the words that could stand where the cursor's word is. The line editor owns the
//! keys and the display; this module owns what a word can be completed to: command names (and
//! the shell's own words), long options, an option's or positional's possible values, session
//! variables and the handles the session holds. No I/O, and no input panics it: the cursor is
//! clamped to the line and to a char boundary.

use clap::{Arg, Command};

/// The words the shell itself takes as a command, beside the tree's commands: `help`, `exit`
/// and the prompt's own ([`super::words::DOT_COMMANDS`]).
fn shell_words() -> impl Iterator<Item = &'static str> {
    ["help", "exit"]
        .into_iter()
        .chain(super::words::DOT_COMMANDS.iter().map(|(name, ..)| *name))
}

/// What the session knows beyond the command tree.
pub(super) struct Known<'a> {
    /// Variable names, without `$`.
    pub variables: &'a [String],
    /// Handles the session holds.
    pub handles: &'a [u64],
}

/// Candidates for completing `line` at byte `pos`: the byte where the replaced word starts, and
/// the replacements (whole words, sorted, deduplicated). `tree` should be built
/// (`Command::build`) so that deferred commands have their arguments.
pub(super) fn candidates(
    tree: &Command,
    line: &str,
    pos: usize,
    known: &Known,
) -> (usize, Vec<String>) {
    let pos = floor_boundary(line, pos);
    let (before, current) = split_words(&line[..pos]);
    let before = without_assignment(&before);
    let (start, typed, words) = complete(tree, before, &current, pos, known);
    let mut words: Vec<String> = words
        .into_iter()
        .filter(|word| word.starts_with(typed))
        .collect();
    words.sort();
    words.dedup();
    (start, words)
}

/// The largest char boundary at or below `pos`, within the line: the editor's cursor is a byte
/// index, and one that is past the end or inside a character must not panic a slice.
fn floor_boundary(line: &str, pos: usize) -> usize {
    let mut pos = pos.min(line.len());
    while !line.is_char_boundary(pos) {
        pos -= 1;
    }
    pos
}

/// A word as typed: its text with quotes and escapes taken out, and for each byte of that text
/// the byte of the line it came from (so a replacement can start inside a word, after `=`).
#[derive(Debug, Default)]
struct Word {
    text: String,
    /// Line byte of each text byte, same length as `text`.
    at: Vec<usize>,
    /// Line byte where the word begins (its opening quote, if any).
    start: usize,
}

impl Word {
    fn push(&mut self, c: char, at: usize) {
        self.text.push(c);
        self.at.resize(self.text.len(), at);
    }
}

/// The words of the current command before the cursor's word, and the cursor's word (empty,
/// starting at the cursor, when the text ends in a blank). Only the command after the last
/// unquoted `;` counts. Quotes and backslashes are honoured as `words` splits scripts, well
/// enough for completion: an unterminated quote just runs to the cursor.
fn split_words(text: &str) -> (Vec<String>, Word) {
    let mut done: Vec<String> = Vec::new();
    let mut word: Option<Word> = None;
    let mut quote: Option<char> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if let Some(q) = quote {
            match c {
                _ if c == q => quote = None,
                '\\' if q == '"' => match chars.peek() {
                    Some(&(at2, next @ ('"' | '\\' | '$' | '`'))) => {
                        chars.next();
                        word.get_or_insert_with(Word::default).push(next, at2);
                    }
                    _ => word.get_or_insert_with(Word::default).push(c, at),
                },
                _ => word.get_or_insert_with(Word::default).push(c, at),
            }
            continue;
        }
        match c {
            ' ' | '\t' | '\r' | '\n' => {
                if let Some(w) = word.take() {
                    done.push(w.text);
                }
            }
            ';' => {
                word = None;
                done.clear();
            }
            '\'' | '"' => {
                quote = Some(c);
                word.get_or_insert_with(|| Word {
                    start: at,
                    ..Word::default()
                });
            }
            '\\' => {
                let w = word.get_or_insert_with(|| Word {
                    start: at,
                    ..Word::default()
                });
                if let Some((at2, next)) = chars.next() {
                    w.push(next, at2);
                }
            }
            _ => word
                .get_or_insert_with(|| Word {
                    start: at,
                    ..Word::default()
                })
                .push(c, at),
        }
    }
    let current = word.unwrap_or(Word {
        start: text.len(),
        ..Word::default()
    });
    (done, current)
}

/// The words after a leading `NAME =`: the command whose output the variable keeps.
fn without_assignment(words: &[String]) -> &[String] {
    match words {
        [_, equals, rest @ ..] if equals == "=" => rest,
        _ => words,
    }
}

/// The unfiltered candidates for `current`, after the command's `before` words: the byte the
/// replacement starts at, the typed text from there (what the candidates must start with), and
/// the candidates.
fn complete<'w>(
    tree: &Command,
    before: &[String],
    current: &'w Word,
    pos: usize,
    known: &Known,
) -> (usize, &'w str, Vec<String>) {
    let whole = |words| (current.start, current.text.as_str(), words);
    if current.text.starts_with("${") {
        return whole(braced_variables(known));
    }
    if current.text.starts_with('$') {
        return whole(variables(known));
    }
    if let Some(("help", named)) = before
        .split_first()
        .map(|(first, rest)| (first.as_str(), rest))
    {
        // `help auth <TAB>`: the commands under the ones named so far.
        let command = named
            .iter()
            .try_fold(tree, |command, name| find_subcommand(command, name));
        return whole(command.map(subcommand_names).unwrap_or_default());
    }
    // `.keep <TAB>`, `.watch <TAB>`: what they take is a handle the session holds (or a name,
    // for `.watch`), so its handles and variables.
    if let Some(".keep" | ".watch") = before.first().map(String::as_str) {
        let mut words: Vec<String> = known.handles.iter().map(u64::to_string).collect();
        words.extend(variables(known));
        return whole(words);
    }
    // From the top, as after `safe-ad`: client options may come before the command
    // (`-q put 1`), and a word that names no command (`exit`, `.keep`) is a positional of the
    // top, which takes none, so it gets nothing.
    let state = walk(tree, before);
    if let Some(arg) = state.pending {
        return whole(option_values(arg));
    }
    if !state.after_dashes {
        if let Some((long, typed)) = current
            .text
            .strip_prefix("--")
            .and_then(|option| option.split_once('='))
        {
            // `--color=al`: only the value is replaced, `--color=` stays as typed.
            let values = find_long(state.command, long)
                .map(option_values)
                .unwrap_or_default();
            let cut = current.text.len() - typed.len();
            let value_start = current.at.get(cut).copied().unwrap_or(pos);
            return (value_start, typed, values);
        }
        if current.text.starts_with('-') {
            return whole(long_options(state.command));
        }
    }
    if state.positionals == 0 && !state.after_dashes {
        if state.at_top {
            return whole(first_words(tree));
        }
        if state.command.has_subcommands() {
            return whole(subcommand_names(state.command));
        }
    }
    whole(positional_values(state.command, state.positionals, known))
}

/// Where the words before the cursor lead: the (sub)command reached, an option waiting for its
/// value, how many positionals were given, and whether `--` ended the options.
struct State<'a> {
    command: &'a Command,
    /// No command named yet: the next word is one.
    at_top: bool,
    pending: Option<&'a Arg>,
    positionals: usize,
    after_dashes: bool,
}

fn walk<'a>(command: &'a Command, words: &[String]) -> State<'a> {
    let mut state = State {
        command,
        at_top: true,
        pending: None,
        positionals: 0,
        after_dashes: false,
    };
    for word in words {
        if state.pending.take().is_some() {
            continue;
        }
        if state.after_dashes {
            state.positionals += 1;
        } else if word == "--" {
            state.after_dashes = true;
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
            return if letters.peek().is_none() {
                Some(arg)
            } else {
                None
            };
        }
    }
    None
}

/// A negative number is a value (handles and indexes allow them), not a short option.
fn is_number(word: &str) -> bool {
    word.parse::<f64>().is_ok()
}

fn takes_value(arg: &Arg) -> bool {
    arg.get_num_args().is_some_and(|range| range.takes_values())
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

fn subcommand_names(command: &Command) -> Vec<String> {
    command
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set())
        .map(|sub| sub.get_name().to_owned())
        .collect()
}

fn first_words(tree: &Command) -> Vec<String> {
    let mut words = subcommand_names(tree);
    words.extend(shell_words().map(str::to_owned));
    words
}

/// `--name` of each visible option, `--help` always (clap adds it when it builds a command).
fn long_options(command: &Command) -> Vec<String> {
    let mut options: Vec<String> = command
        .get_arguments()
        .filter(|arg| !arg.is_hide_set())
        .filter_map(|arg| arg.get_long())
        .map(|long| format!("--{long}"))
        .collect();
    options.push("--help".to_owned());
    options
}

/// The values an option takes, where they are few and known (clap's possible values, `wait
/// --for`'s among them); none for a number, name or path.
fn option_values(arg: &Arg) -> Vec<String> {
    arg.get_possible_values()
        .iter()
        .filter(|value| !value.is_hide_set())
        .map(|value| value.get_name().to_owned())
        .collect()
}

/// What the `index`th positional (from 0) can be: its possible values; else the session's
/// handles where it is a handle, and its variables for any value (they may hold anything).
fn positional_values(command: &Command, index: usize, known: &Known) -> Vec<String> {
    let mut positionals: Vec<&Arg> = command.get_positionals().collect();
    positionals.sort_by_key(|arg| arg.get_index());
    // The last positional takes every word past the others when it takes several (HANDLE...).
    let arg = positionals.get(index).copied().or_else(|| {
        positionals.last().copied().filter(|arg| {
            arg.get_num_args()
                .is_some_and(|range| range.max_values() > 1)
        })
    });
    let Some(arg) = arg else {
        return Vec::new();
    };
    let values = option_values(arg);
    if !values.is_empty() {
        return values;
    }
    let mut words = variables(known);
    if is_handle(arg) {
        words.extend(known.handles.iter().map(u64::to_string));
    }
    words
}

/// Whether a positional is a handle: its value name says so (`HANDLE`), or its id does.
fn is_handle(arg: &Arg) -> bool {
    let named = arg
        .get_value_names()
        .is_some_and(|names| names.iter().any(|name| name.contains("HANDLE")));
    named || arg.get_id().as_str().starts_with("handle")
}

fn variables(known: &Known) -> Vec<String> {
    known
        .variables
        .iter()
        .map(|name| format!("${name}"))
        .collect()
}

fn braced_variables(known: &Known) -> Vec<String> {
    known
        .variables
        .iter()
        .map(|name| format!("${{{name}}}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Command {
        let mut tree = crate::cli::whole_command();
        tree.build();
        tree
    }

    fn with(line: &str, variables: &[&str], handles: &[u64]) -> (usize, Vec<String>) {
        let variables: Vec<String> = variables.iter().map(|&name| name.to_owned()).collect();
        let known = Known {
            variables: &variables,
            handles,
        };
        candidates(&tree(), line, line.len(), &known)
    }

    fn words(line: &str) -> Vec<String> {
        with(line, &[], &[]).1
    }

    fn has(words: &[String], wanted: &[&str]) -> bool {
        wanted
            .iter()
            .all(|want| words.iter().any(|word| word == want))
    }

    #[test]
    fn the_first_word_is_a_command_or_a_shell_word() {
        assert_eq!(with("me", &[], &[]), (0, vec!["metadata".to_owned()]));
        assert_eq!(words(".ha"), [".handles"]);
        assert!(has(
            &words(""),
            &["create", "drop", "auth", "help", "exit", ".keep", ".watch", ".unwatch"]
        ));
        assert!(has(&words("  ex"), &["exit"]));
        assert_eq!(with("  ex", &[], &[]).0, 2);
        // Client options may come before the command, as on the command line.
        assert_eq!(with("-q dr", &[], &[]), (3, vec!["drop".to_owned()]));
        assert_eq!(words("--color always me"), ["metadata"]);
        assert_eq!(words("--col"), ["--color"]);
        assert_eq!(words("--color "), ["always", "auto", "never"]);
    }

    #[test]
    fn nested_commands_and_help_complete_the_commands_under_them() {
        let auth = with("auth ", &[], &[]);
        assert_eq!(auth.0, 5);
        assert!(
            has(&auth.1, &["login", "logout", "status", "token", "whoami"]),
            "{auth:?}"
        );
        assert!(has(&words("config "), &["path", "set", "show", "unset"]));
        assert_eq!(words("auth lo"), ["login", "logout"]);
        let help = words("help ");
        assert!(has(&help, &["metadata", "auth", "wait"]), "{help:?}");
        assert!(!help.iter().any(|word| word.starts_with('.')), "{help:?}");
        assert_eq!(words("help auth wh"), ["whoami"]);
        // `exit` takes nothing that completes; `.keep` and `.watch` take the session's handles.
        assert!(words("exit ").is_empty());
        assert_eq!(
            with(".keep ", &["h"], &[7, 12]).1,
            ["$h", "12", "7"].map(str::to_owned)
        );
        assert_eq!(with(".watch 1", &[], &[7, 12]).1, ["12".to_owned()]);
    }

    #[test]
    fn a_dash_completes_the_long_options_of_the_command_reached() {
        assert_eq!(with("wait 1 --fo", &[], &[]), (7, vec!["--for".to_owned()]));
        let options = words("wait 1 -");
        assert!(
            has(
                &options,
                &["--for", "--deadline", "--interval", "--help", "--json"]
            ),
            "{options:?}"
        );
        assert!(
            options.iter().all(|option| option.starts_with("--")),
            "{options:?}"
        );
        assert!(has(&words("auth status --"), &["--help"]));
        assert_eq!(words("shell --ke"), ["--keep-going"]);
    }

    #[test]
    fn an_option_value_completes_from_its_possible_values() {
        assert_eq!(words("metadata --color "), ["always", "auto", "never"]);
        assert_eq!(words("metadata 3 --color a"), ["always", "auto"]);
        // In `--opt=value` only the value is replaced.
        assert_eq!(
            with("metadata --color=al", &[], &[]),
            (17, vec!["always".to_owned()])
        );
        assert_eq!(with("metadata --color=", &[], &[]).1.len(), 3);
        // A value that is a number, a path or a word clap does not know: nothing to offer,
        // not even the variables.
        assert!(with("wait 1 --deadline ", &["h"], &[7]).1.is_empty());
        assert!(words("shell -c ").is_empty());
        assert!(words("wait 1 --deadline=").is_empty());
    }

    #[test]
    fn wait_for_completes_the_conditions() {
        let conditions = words("wait 1 --for ");
        assert!(has(
            &conditions,
            &["new-items", "in-sync", "stale", "item", "version-above="]
        ));
        assert_eq!(words("wait 1 --for in"), ["in-sync"]);
        assert_eq!(words("wait --for=st"), ["stale"]);
    }

    #[test]
    fn a_dollar_completes_the_session_variables() {
        assert_eq!(with("metadata $", &["h"], &[]), (9, vec!["$h".to_owned()]));
        assert_eq!(
            with("drop ${", &["hb", "ha", "x"], &[]),
            (
                5,
                vec!["${ha}".to_owned(), "${hb}".to_owned(), "${x}".to_owned()]
            )
        );
        assert_eq!(with("drop $h", &["hb", "ha", "x"], &[]).1, ["$ha", "$hb"]);
        assert!(with("drop $", &[], &[]).1.is_empty());
    }

    #[test]
    fn a_positional_completes_handles_variables_or_its_values() {
        let (start, drop) = with("drop ", &["h"], &[7, 12, 7]);
        assert_eq!(start, 5);
        assert_eq!(drop, ["$h", "12", "7"]);
        assert_eq!(with("metadata 1", &[], &[7, 12]).1, ["12"]);
        assert_eq!(
            words("completions "),
            ["bash", "elvish", "fish", "powershell", "zsh"]
        );
        assert_eq!(words("completions z"), ["zsh"]);
        // A positional that is not a handle gets the variables, not the handles.
        assert_eq!(with("shell ", &["f"], &[7]).1, ["$f"]);
        // After `--` an option-looking word is a positional.
        assert_eq!(with("drop -- -", &[], &[]).1, Vec::<String>::new());
    }

    #[test]
    fn an_assignment_and_earlier_commands_are_skipped() {
        assert_eq!(with("h = cre", &[], &[]), (4, vec!["create".to_owned()]));
        assert!(has(&words("h = "), &["create", "exit"]));
        assert_eq!(
            with("metadata 1; dr", &[], &[]),
            (12, vec!["drop".to_owned()])
        );
        assert_eq!(
            with("metadata 1;dr", &[], &[]),
            (11, vec!["drop".to_owned()])
        );
        assert_eq!(words("x = metadata 1; h = dr"), ["drop"]);
        // A quoted `;` separates nothing: `dr` is metadata's handle here.
        assert!(words("metadata ';' dr").is_empty());
    }

    #[test]
    fn quotes_and_escapes_are_taken_out_of_the_word() {
        assert_eq!(with("'dr", &[], &[]), (0, vec!["drop".to_owned()]));
        assert_eq!(
            with("show \"a b\" --he", &[], &[]),
            (11, vec!["--help".to_owned()])
        );
        assert_eq!(words("me\\ta"), ["metadata"]);
        assert_eq!(words("\"metadata\" --color n"), ["never"]);
    }

    #[test]
    fn only_the_text_before_the_cursor_counts() {
        let known = Known {
            variables: &[],
            handles: &[],
        };
        let tree = tree();
        assert_eq!(
            candidates(&tree, "drop 7", 2, &known),
            (0, vec!["drop".to_owned()])
        );
        // A cursor past the end is at the end.
        assert_eq!(
            candidates(&tree, "dr", 100, &known),
            (0, vec!["drop".to_owned()])
        );
    }

    #[test]
    fn hidden_commands_options_and_values_are_left_out() {
        let mut tree = Command::new("t")
            .subcommand(Command::new("seen"))
            .subcommand(Command::new("secret").hide(true))
            .subcommand(
                Command::new("run")
                    .arg(Arg::new("shown").long("shown"))
                    .arg(Arg::new("hidden").long("hidden").hide(true))
                    .arg(Arg::new("mode").long("mode").value_parser([
                        clap::builder::PossibleValue::new("fast"),
                        clap::builder::PossibleValue::new("faster").hide(true),
                    ])),
            );
        tree.build();
        let known = Known {
            variables: &[],
            handles: &[],
        };
        let at_end = |line: &str| candidates(&tree, line, line.len(), &known).1;
        assert!(!at_end("").contains(&"secret".to_owned()));
        assert!(at_end("").contains(&"seen".to_owned()));
        assert_eq!(at_end("run --"), ["--help", "--mode", "--shown"]);
        assert_eq!(at_end("run --mode "), ["fast"]);
    }

    /// Non-ASCII text, quotes left open, escapes at the end and every cursor position: byte
    /// indexes stay on char boundaries and nothing panics.
    #[test]
    fn no_line_or_cursor_panics() {
        let tree = tree();
        let variables = vec!["é".to_owned()];
        let known = Known {
            variables: &variables,
            handles: &[1],
        };
        let lines = [
            "show ñ",
            "show \"ñé",
            "ñ = dr",
            "drop ${é",
            "\\",
            "a\\",
            "'",
            "\"\\",
            "--=",
            "metadata --color=ñ",
            "metadata --color=\"a",
            "; ; ;",
            "=",
            "h =",
            "wait -",
            "shell -c",
            "shell -ck ",
            "drop -1 ",
            "日本語;語 --",
        ];
        for line in lines {
            for pos in 0..line.len() + 3 {
                let (start, words) = candidates(&tree, line, pos, &known);
                assert!(start <= line.len(), "{line:?} {pos}");
                assert!(line.is_char_boundary(start), "{line:?} {pos}: {start}");
                assert!(start <= pos.min(line.len()), "{line:?} {pos}: {start}");
                let mut sorted = words.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(words, sorted);
            }
        }
        assert_eq!(candidates(&tree, "show ñ", 6, &known).0, 5);
        assert_eq!(candidates(&tree, "show ñ", 7, &known).0, 5);
    }
}
