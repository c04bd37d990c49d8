//! A script's text as commands of words, split as a POSIX shell splits them: single quotes keep
//! everything, double quotes keep everything but `$` and `\` before `"`, `\`, `$` or a newline,
//! and a backslash outside quotes keeps the next character. An unquoted `;` or newline ends a
//! command, an unquoted `#` at the start of a word begins a comment, and `\` before a newline
//! joins two lines. `$NAME` and `${NAME}` are variables, expanded when their command runs
//! ([`expand`]); in single quotes, or after a backslash, `$` is only a dollar. Pure: no I/O.

use std::collections::HashMap;

/// One command of a script: the line it begins on (from 1) and its words, unexpanded.
#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    pub line: usize,
    pub words: Vec<Word>,
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
    let mut splitter = Splitter {
        chars: script.chars().collect(),
        at: 0,
        line: 1,
        commands: Vec::new(),
        words: Vec::new(),
        word: None,
        command_line: 1,
    };
    splitter.run()?;
    Ok(splitter.commands)
}

struct Splitter {
    chars: Vec<char>,
    at: usize,
    line: usize,
    commands: Vec<Command>,
    words: Vec<Word>,
    /// The word being read, once something of it was.
    word: Option<Word>,
    command_line: usize,
}

impl Splitter {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.get(self.at).copied();
        if let Some(c) = c {
            self.at += 1;
            if c == '\n' {
                self.line += 1;
            }
        }
        c
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
        if !self.words.is_empty() {
            self.commands.push(Command {
                line: self.command_line,
                words: std::mem::take(&mut self.words),
            });
        }
    }

    fn run(&mut self) -> Result<(), SplitError> {
        while let Some(c) = self.peek() {
            // The line a word starts on is the line of its command's first word.
            let line = self.line;
            let blank = matches!(c, '\n' | ';' | ' ' | '\t' | '\r' | '#');
            if self.word.is_none() && self.words.is_empty() && !blank {
                self.command_line = line;
            }
            match c {
                '\n' | ';' => {
                    self.end_command();
                    self.next();
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
                            None => return Err(unbalanced(line, "single quote (')")),
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
                            None => return Err(unbalanced(line, "double quote (\")")),
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
        self.end_command();
        Ok(())
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
                    _ => return Err(unbalanced(line, "${")),
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
