//! A script's text as commands of words, split as a POSIX shell splits them: single quotes keep
//! everything, double quotes keep everything but `$` and `\` before `"`, `\`, `$` or a newline,
//! and a backslash outside quotes keeps the next character. An unquoted `;` or newline ends a
//! command, an unquoted `#` at the start of a word begins a comment, and `\` before a newline
//! joins two lines. `$NAME` and `${NAME}` are variables, expanded when their command runs
//! ([`expand`]); in single quotes, or after a backslash, `$` is only a dollar. Pure: no I/O. A
//! script is split as it is read ([`Commands`]), a line of text at a time from a source the
//! caller gives, so only the command being read is held, and none may pass a bound.

use std::collections::HashMap;

/// One command of a script: the line it begins on (from 1) and its words, unexpanded.
#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    pub line: usize,
    pub words: Vec<Word>,
    /// Another command follows it on its line (after a `;`).
    pub followed: bool,
}

/// One word: its pieces in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Word(pub Vec<Piece>);

/// A piece of a word.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    /// Text as it is; `quoted` if any of it was quoted or escaped.
    Text { text: String, quoted: bool },
    /// A variable; `quoted` inside double quotes.
    Var { name: String, quoted: bool },
}

impl Word {
    /// The word as it runs, quotes and escapes taken off, its variables as `$NAME`.
    pub fn text(&self) -> String {
        (self.0.iter())
            .map(|piece| match piece {
                Piece::Text { text, .. } => text.clone(),
                Piece::Var { name, .. } => format!("${name}"),
            })
            .collect()
    }

    /// The word's text if it is plain, unquoted text with no variable (`=`, a name, `exit`).
    pub fn plain(&self) -> Option<&str> {
        match self.0.as_slice() {
            [Piece::Text {
                text,
                quoted: false,
            }] => Some(text),
            _ => None,
        }
    }
}

/// Why a script could not be split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitError {
    pub line: usize,
    pub message: String,
}

/// Whether `name` can name a variable: a letter or `_`, then letters, digits and `_`.
pub fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Splits a whole script into its commands; blank commands and comments are left out. An
/// unbalanced quote or `${` refuses the whole script, naming the line it opened on.
pub fn split(script: &str) -> Result<Vec<Command>, SplitError> {
    let mut whole = Some(script.to_string());
    Commands::new(Box::new(move |_| Ok(whole.take())), usize::MAX).collect()
}

/// Where a script's text comes from: its next piece, whole lines (`\n` ended, but maybe the
/// last), given the number of the line it begins with; `Ok(None)` at the end. An `Err` ends
/// the script there (a line past the bound, text that is not UTF-8, a read that failed).
pub type NextLines<'a> = Box<dyn FnMut(usize) -> Result<Option<String>, SplitError> + 'a>;

/// A script's commands, split as its text is read from a [`NextLines`]: blank commands and
/// comments left out. The first error (an unbalanced quote at the script's end, a command
/// longer than the bound, the source's own) is the last item.
pub struct Commands<'a> {
    splitter: Splitter<'a>,
    done: bool,
}

impl<'a> Commands<'a> {
    /// The commands of the text `source` gives; a command (from its first character to the end
    /// of its last line) may hold at most `bound` bytes.
    pub fn new(source: NextLines<'a>, bound: usize) -> Commands<'a> {
        Commands {
            splitter: Splitter {
                source,
                text: String::new(),
                at: 0,
                ended: false,
                failed: None,
                size: 0,
                bound,
                line: 1,
                ready: None,
                words: Vec::new(),
                word: None,
                command_line: 1,
            },
            done: false,
        }
    }
}

impl Iterator for Commands<'_> {
    type Item = Result<Command, SplitError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let next = self.splitter.next_command().transpose();
        self.done = !matches!(next, Some(Ok(_)));
        next
    }
}

struct Splitter<'a> {
    source: NextLines<'a>,
    /// The text read and not yet split, from `at` (a byte offset).
    text: String,
    at: usize,
    ended: bool,
    /// What ended the text before its end: said in place of what the split then sees.
    failed: Option<SplitError>,
    /// The bytes of the command being read so far, and the most it may hold.
    size: usize,
    bound: usize,
    line: usize,
    /// A command ended, for [`Splitter::next_command`] to hand on.
    ready: Option<Command>,
    words: Vec<Word>,
    /// The word being read, once something of it was.
    word: Option<Word>,
    command_line: usize,
}

/// A command longer than the bound, named by the line it begins on.
fn too_long(line: usize, bound: usize) -> SplitError {
    SplitError {
        line,
        message: format!(
            "the command that begins here is longer than the {bound} bytes a line of a script may hold; it and the lines after it did not run"
        ),
    }
}

impl Splitter<'_> {
    /// The next character, read from the source when the text read so far is split; `None`
    /// at the end, or once the source or the bound failed (`failed` says which).
    fn peek(&mut self) -> Option<char> {
        loop {
            if self.failed.is_some() {
                return None;
            }
            if let Some(c) = self.text[self.at..].chars().next() {
                return Some(c);
            }
            if self.ended {
                return None;
            }
            match (self.source)(self.line) {
                Ok(Some(text)) => {
                    self.text = text;
                    self.at = 0;
                }
                Ok(None) => self.ended = true,
                Err(failed) => self.failed = Some(failed),
            }
        }
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        self.size += c.len_utf8();
        if self.size > self.bound {
            self.failed = Some(too_long(self.command_line, self.bound));
        }
        Some(c)
    }

    /// Whether a command follows the `;` at `at` on its line (the source gives whole lines).
    fn more_on_line(&self) -> bool {
        let rest = self.text[self.at + 1..]
            .split('\n')
            .next()
            .unwrap_or_default();
        let rest = rest.trim_start_matches([' ', '\t', '\r', ';']);
        !rest.is_empty() && !rest.starts_with('#')
    }

    /// `error`, unless the text ended early for a reason of its own, which is then the error.
    fn fail(&mut self, error: SplitError) -> SplitError {
        self.failed.take().unwrap_or(error)
    }

    fn push_text(&mut self, c: char, quoted: bool) {
        let word = self.word.get_or_insert_with(Word::default);
        match word.0.last_mut() {
            Some(Piece::Text { text, quoted: q }) if *q == quoted => text.push(c),
            _ => word.0.push(Piece::Text {
                text: c.to_string(),
                quoted,
            }),
        }
    }

    /// An empty quoted piece: `''` and `""` are a word, an empty one.
    fn touch_quoted(&mut self) {
        let word = self.word.get_or_insert_with(Word::default);
        word.0.push(Piece::Text {
            text: String::new(),
            quoted: true,
        });
    }

    fn end_word(&mut self) {
        if let Some(word) = self.word.take() {
            self.words.push(word);
        }
    }

    fn end_command(&mut self) {
        self.end_word();
        self.size = 0;
        if !self.words.is_empty() {
            self.ready = Some(Command {
                line: self.command_line,
                words: std::mem::take(&mut self.words),
                followed: false,
            });
        }
    }

    /// Reads on to the end of the next command: it, or `None` at the script's end.
    fn next_command(&mut self) -> Result<Option<Command>, SplitError> {
        loop {
            let Some(c) = self.peek() else {
                if let Some(failed) = self.failed.take() {
                    return Err(failed);
                }
                self.end_command();
                return Ok(self.ready.take());
            };
            // The line a word starts on is the line of its command's first word.
            let line = self.line;
            let blank = matches!(c, '\n' | ';' | ' ' | '\t' | '\r' | '#');
            if self.word.is_none() && self.words.is_empty() && !blank {
                self.command_line = line;
            }
            match c {
                '\n' | ';' => {
                    let followed =
                        c == ';' && self.line == self.command_line && self.more_on_line();
                    self.end_command();
                    if let Some(command) = &mut self.ready {
                        command.followed = followed;
                    }
                    self.next();
                    if let Some(command) = self.ready.take() {
                        return Ok(Some(command));
                    }
                }
                ' ' | '\t' | '\r' => {
                    self.end_word();
                    self.next();
                }
                '#' if self.word.is_none() => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.next();
                    }
                }
                '\\' => {
                    self.next();
                    match self.next() {
                        // A joined line.
                        Some('\n') => {}
                        Some(c) => self.push_text(c, true),
                        None => self.push_text('\\', false),
                    }
                }
                '\'' => {
                    self.next();
                    self.touch_quoted();
                    loop {
                        match self.next() {
                            Some('\'') => break,
                            Some(c) => self.push_text(c, true),
                            None => return Err(self.fail(unbalanced(line, "single quote (')"))),
                        }
                    }
                }
                '"' => {
                    self.next();
                    self.touch_quoted();
                    loop {
                        match self.next() {
                            Some('"') => break,
                            Some('\\') => match self.peek() {
                                Some(c @ ('"' | '\\' | '$' | '`')) => {
                                    self.next();
                                    self.push_text(c, true);
                                }
                                Some('\n') => {
                                    self.next();
                                }
                                _ => self.push_text('\\', true),
                            },
                            Some('$') => self.dollar(true, line)?,
                            Some(c) => self.push_text(c, true),
                            None => return Err(self.fail(unbalanced(line, "double quote (\")"))),
                        }
                    }
                }
                '$' => {
                    self.next();
                    self.dollar(false, line)?;
                }
                c => {
                    self.next();
                    self.push_text(c, false);
                }
            }
        }
    }

    /// After a `$`: a variable, or a dollar sign.
    fn dollar(&mut self, quoted: bool, line: usize) -> Result<(), SplitError> {
        if self.peek() == Some('{') {
            self.next();
            let mut name = String::new();
            loop {
                match self.next() {
                    Some('}') => break,
                    Some(c) if c != '\n' => name.push(c),
                    _ => return Err(self.fail(unbalanced(line, "${"))),
                }
            }
            if !is_name(&name) {
                return Err(SplitError {
                    line,
                    message: format!("'${{{name}}}' names no variable: a name is a letter or _, then letters, digits and _"),
                });
            }
            self.var(name, quoted);
            return Ok(());
        }
        let mut name = String::new();
        while let Some(c) = self.peek() {
            let fits = if name.is_empty() {
                c.is_ascii_alphabetic() || c == '_'
            } else {
                c.is_ascii_alphanumeric() || c == '_'
            };
            if !fits {
                break;
            }
            name.push(c);
            self.next();
        }
        if name.is_empty() {
            self.push_text('$', quoted);
        } else {
            self.var(name, quoted);
        }
        Ok(())
    }

    fn var(&mut self, name: String, quoted: bool) {
        let word = self.word.get_or_insert_with(Word::default);
        word.0.push(Piece::Var { name, quoted });
    }
}

fn unbalanced(line: usize, what: &str) -> SplitError {
    SplitError {
        line,
        message: format!("unbalanced {what}: it opens on line {line} and is never closed"),
    }
}

/// A command's words with the variables replaced. A word that is an unquoted variable alone
/// is split on whitespace, as sh splits it (an empty value is no word); a quoted one, or one
/// inside a longer word, is one word. An unknown variable is the `Err`, by its name.
pub fn expand(words: &[Word], vars: &HashMap<String, String>) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for word in words {
        if let [Piece::Var {
            name,
            quoted: false,
        }] = word.0.as_slice()
        {
            let value = vars.get(name).ok_or_else(|| name.clone())?;
            out.extend(value.split_whitespace().map(String::from));
            continue;
        }
        let mut text = String::new();
        for piece in &word.0 {
            match piece {
                Piece::Text { text: t, .. } => text.push_str(t),
                Piece::Var { name, .. } => {
                    text.push_str(vars.get(name).ok_or_else(|| name.clone())?);
                }
            }
        }
        out.push(text);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(script: &str) -> Vec<(usize, Vec<String>)> {
        let vars = HashMap::from([
            ("h".to_string(), "3".to_string()),
            ("two".to_string(), "1 2".to_string()),
        ]);
        split(script)
            .unwrap()
            .into_iter()
            .map(|c| (c.line, expand(&c.words, &vars).unwrap()))
            .collect()
    }

    fn one(script: &str) -> Vec<String> {
        let mut all = words(script);
        assert_eq!(all.len(), 1, "{script}");
        all.remove(0).1
    }

    #[test]
    fn quotes_and_escapes_split_as_sh_splits() {
        assert_eq!(one("a 'b c' \"d e\" f\\ g"), ["a", "b c", "d e", "f g"]);
        assert_eq!(one("'' \"\" x"), ["", "", "x"]);
        assert_eq!(
            one("'a\"b' \"a'b\" \"a\\\"b\\\\\" 'a\\b'"),
            ["a\"b", "a'b", "a\"b\\", "a\\b"]
        );
        assert_eq!(one("a\\\nb c"), ["ab", "c"]);
        assert_eq!(one("x'y'\"z\""), ["xyz"]);
    }

    #[test]
    fn variables_expand_outside_single_quotes() {
        assert_eq!(
            one("m $h ${h} \"$h\" '$h' \\$h"),
            ["m", "3", "3", "3", "$h", "$h"]
        );
        assert_eq!(one("m x$h \"${h}y\" $ a$"), ["m", "x3", "3y", "$", "a$"]);
        assert_eq!(one("m $two \"$two\""), ["m", "1", "2", "1 2"]);
        let unknown = split("m $nope").unwrap();
        assert_eq!(
            expand(&unknown[0].words, &HashMap::new()),
            Err("nope".into())
        );
    }

    #[test]
    fn commands_end_at_newlines_and_semicolons() {
        assert_eq!(
            words("a 1; b 2\n\n  # note\nc ';' \"#\" d#e # end\n;;\n  e"),
            [
                (1, vec!["a".to_string(), "1".into()]),
                (1, vec!["b".to_string(), "2".into()]),
                (
                    4,
                    vec!["c".to_string(), ";".into(), "#".into(), "d#e".into()]
                ),
                (6, vec!["e".to_string()]),
            ]
        );
    }

    /// The text given a piece at a time, as a script's lines are read.
    fn pieces(pieces: &[&str], bound: usize) -> Vec<Result<(usize, Vec<String>), SplitError>> {
        let mut pieces: Vec<String> = pieces.iter().rev().map(|p| p.to_string()).collect();
        Commands::new(Box::new(move |_| Ok(pieces.pop())), bound)
            .map(|c| c.map(|c| (c.line, expand(&c.words, &HashMap::new()).unwrap())))
            .collect()
    }

    #[test]
    fn a_script_read_a_line_at_a_time_splits_as_a_whole_one() {
        let script = "a 'b\nc' d\\\ne; f # x\n\"g\n\" h\n";
        let lines: Vec<&str> = script.split_inclusive('\n').collect();
        let whole: Vec<_> = split(script).unwrap().into_iter().map(|c| c.line).collect();
        let read = pieces(&lines, usize::MAX);
        let read: Vec<usize> = read.into_iter().map(|c| c.unwrap().0).collect();
        assert_eq!(read, whole);
        assert_eq!(read, [1, 3, 4]);
        let followed: Vec<bool> = split("a; b\nc;\nd; # e\nf;;g")
            .unwrap()
            .iter()
            .map(|c| c.followed)
            .collect();
        assert_eq!(followed, [true, false, false, false, true, false]);
    }

    #[test]
    fn a_command_past_the_bound_is_refused_where_it_begins() {
        let long = format!("x '{}\n", "y".repeat(10));
        let read = pieces(&["a\n", &long, "z'\n", "b\n"], 12);
        assert_eq!(read.len(), 2, "{read:?}");
        assert_eq!(read[0].as_ref().unwrap().1, ["a"]);
        let error = read[1].as_ref().unwrap_err();
        assert_eq!(error.line, 2);
        assert!(
            error.message.contains("longer than the 12 bytes"),
            "{}",
            error.message
        );
        // A failure of the source ends the split with its error, not an unbalanced quote's.
        let mut given = vec![
            Err(SplitError {
                line: 2,
                message: "gone".into(),
            }),
            Ok(Some("a 'b\n".to_string())),
        ];
        let failed: Vec<_> = Commands::new(Box::new(move |_| given.pop().unwrap()), 100).collect();
        assert_eq!(
            failed,
            [Err(SplitError {
                line: 2,
                message: "gone".into()
            })]
        );
    }

    #[test]
    fn unbalanced_quotes_name_their_line() {
        let error = split("a\nb 'c\nd").unwrap_err();
        assert_eq!(error.line, 2);
        assert!(error.message.contains("single quote"), "{}", error.message);
        assert_eq!(split("a\n\"b").unwrap_err().line, 2);
        assert_eq!(split("a ${b").unwrap_err().line, 1);
        assert_eq!(split("a ${1b}").unwrap_err().line, 1);
    }
}
