//! Tab completion for the interactive shell, as pure logic: given the clap tree, a line and the
//! cursor, the words that could stand where the cursor's word is. The line editor owns the
//! keys and the display; this module owns what a word can be completed to: command names (and
//! the shell's own words), long options, an option's or positional's possible values, session
//! variables and the handles the session holds. No I/O, and no input panics it: the cursor is
//! clamped to the line and to a char boundary.

use clap::{Arg, Command};

use crate::cli::Dot;
use crate::generate::complete::{complete, Offer};

/// The words the shell itself takes as a command, beside the tree's commands: `help`, `exit`
/// and the prompt's own ([`Dot`]).
fn shell_words() -> impl Iterator<Item = &'static str> {
    ["help", "exit"]
        .into_iter()
        .chain(Dot::ALL.iter().map(|dot| dot.name()))
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
    let (start, typed, words) = complete_word(tree, before, &current, pos, known);
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
/// the candidates. What the command line takes is [`complete`]'s to say, as for the completion
/// scripts; the session adds its own words, variables and handles.
fn complete_word<'w>(
    tree: &Command,
    before: &[String],
    current: &'w Word,
    pos: usize,
    known: &Known,
) -> (usize, &'w str, Vec<String>) {
    let whole = |words| (current.start, current.text.as_str(), words);
    if current.text.starts_with("${") {
        return whole(variables_as(known, true));
    }
    if current.text.starts_with('$') {
        return whole(variables(known));
    }
    // `.keep <TAB>`, `.watch <TAB>`: what they take is a handle the session holds (or a name,
    // for `.watch`), so its handles and variables.
    if let Some(".keep" | ".watch") = before.first().map(String::as_str) {
        let mut words: Vec<String> = known.handles.iter().map(u64::to_string).collect();
        words.extend(variables(known));
        return whole(words);
    }
    // From the top, as after `safe-ad`: client options may come before the command
    // (`-q put 1`), and a word that names no command (`exit`, `.keep`) gets nothing.
    let completion = complete(tree, before, &current.text);
    let mut words: Vec<String> = match completion.offer {
        Offer::Words(words) => words.into_iter().map(|candidate| candidate.word).collect(),
        _ => Vec::new(),
    };
    if completion.first {
        words.extend(shell_words().map(str::to_owned));
    }
    // A positional with no words of its own may be given a variable (it may hold anything),
    // and a handle where it is one; an option's value (a number, a path) is offered nothing.
    if let Some(arg) = completion.positional.filter(|_| words.is_empty()) {
        words.extend(variables(known));
        if is_handle(arg) {
            words.extend(known.handles.iter().map(u64::to_string));
        }
    }
    let from = completion.from;
    if from == 0 {
        return whole(words);
    }
    // `--color=al`: only the value is replaced, `--color=` stays as typed.
    let start = current.at.get(from).copied().unwrap_or(pos);
    (start, &current.text[from..], words)
}

/// Whether a positional is a handle: its value name says so (`HANDLE`), or its id does.
fn is_handle(arg: &Arg) -> bool {
    let named = arg
        .get_value_names()
        .is_some_and(|names| names.iter().any(|name| name.contains("HANDLE")));
    named || arg.get_id().as_str().starts_with("handle")
}

/// `$name` for each variable; braced, `${name}`.
fn variables_as(known: &Known, braced: bool) -> Vec<String> {
    let write = |name: &String| match braced {
        true => format!("${{{name}}}"),
        false => format!("${name}"),
    };
    known.variables.iter().map(write).collect()
}

fn variables(known: &Known) -> Vec<String> {
    variables_as(known, false)
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
