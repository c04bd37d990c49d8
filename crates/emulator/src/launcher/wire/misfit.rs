//! Where a state file does not fit, and why ([`Misfit`]): every error names the whole path from
//! the file's top to the value at fault, innermost last
//! (`appendableData[1].data[0].structuredData.name: ...`), since a person fixes a fixture by
//! finding that value, and serde's own words give only a line and column (useless in a one-line
//! fixture) or nothing at all (`invalid type: string "one", expected u64`).
//!
//! Two kinds of error get their place here:
//! - those the conversion finds (a name that is not base64, a data listed twice, a version no
//!   save can follow): each conversion says what is wrong with its value, and the caller that
//!   holds the value adds its field or index ([`Within`]);
//! - those serde finds while parsing (a wrong type, a missing or unknown field): the place is
//!   read off the error's position in the text ([`placed`]). A wrong value is said at the value
//!   (`appendableData[0].version`); an object that lacks a field, has an unknown one or one twice
//!   is said at the object, since the message names the field.

use std::fmt;

/// Why a state file does not load, and the path to the value at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Misfit {
    /// From the file's top down: `appendableData`, `[1]`, `data`, `[0]`, ...
    path: Vec<Step>,
    why: String,
}

/// One step of a path: an object's field or a list's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Field(String),
    Index(usize),
}

impl Misfit {
    /// What is wrong with a value, before its place is known.
    pub(crate) fn new(why: impl Into<String>) -> Misfit {
        Misfit {
            path: Vec::new(),
            why: why.into(),
        }
    }

    /// The same misfit, seen from the object that holds the value in `field`.
    pub(crate) fn in_field(mut self, field: &str) -> Misfit {
        self.path.insert(0, Step::Field(field.to_owned()));
        self
    }

    /// The same misfit, seen from the list that holds the value at `index`.
    pub(crate) fn at_index(mut self, index: usize) -> Misfit {
        self.path.insert(0, Step::Index(index));
        self
    }
}

impl fmt::Display for Misfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, step) in self.path.iter().enumerate() {
            match step {
                Step::Field(name) if n == 0 => write!(f, "{name}")?,
                Step::Field(name) => write!(f, ".{name}")?,
                Step::Index(index) => write!(f, "[{index}]")?,
            }
        }
        if !self.path.is_empty() {
            f.write_str(": ")?;
        }
        f.write_str(&self.why)
    }
}

/// Places the misfit of a conversion's result within its holder.
pub(crate) trait Within<T> {
    /// In the holder's `field`.
    fn within(self, field: &str) -> Result<T, Misfit>;
    /// At entry `index` of the holder's list `list`.
    fn entry(self, list: &str, index: usize) -> Result<T, Misfit>;
}

impl<T> Within<T> for Result<T, Misfit> {
    fn within(self, field: &str) -> Result<T, Misfit> {
        self.map_err(|misfit| misfit.in_field(field))
    }

    fn entry(self, list: &str, index: usize) -> Result<T, Misfit> {
        self.map_err(|misfit| misfit.at_index(index).in_field(list))
    }
}

/// A serde error met while parsing `bytes`, placed at the innermost value (or, for a key, the
/// object) at the error's position, with serde's words less the position and the emulator's type
/// names. An error with no position (none is expected) keeps serde's words whole.
pub(crate) fn placed(bytes: &[u8], error: &serde_json::Error) -> Misfit {
    let text = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    let why = text.strip_suffix(&suffix).unwrap_or(&text);
    let why = without_type_names(why);
    if error.line() == 0 {
        return Misfit::new(why);
    }
    let mut offset = offset_of(bytes, error.line(), error.column());
    // A map or list that is not wanted is found before serde reads its first byte: the position
    // is the byte before it (a `:`, a `,`, the `[` of the list that holds it).
    let opening = if why.starts_with("invalid type: map") {
        Some(b'{')
    } else if why.starts_with("invalid type: sequence") {
        Some(b'[')
    } else {
        None
    };
    if let Some(opening) = opening {
        if bytes.get(offset) != Some(&opening) {
            let ahead = bytes.iter().skip(offset + 1);
            let skipped = ahead
                .take_while(|b| b.is_ascii_whitespace() || b":,[".contains(b) && **b != opening)
                .count();
            if bytes.get(offset + 1 + skipped) == Some(&opening) {
                offset += 1 + skipped;
            }
        }
    }
    Misfit {
        path: path_at(bytes, offset),
        why,
    }
}

/// `expected struct AdJson` (a Rust type's name) said as `expected an object`.
fn without_type_names(why: &str) -> String {
    const STRUCT: &str = "expected struct ";
    match why.find(STRUCT) {
        Some(at) => {
            let rest = &why[at + STRUCT.len()..];
            let name = rest
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(rest.len());
            format!("{}expected an object{}", &why[..at], &rest[name..])
        }
        None => why.to_owned(),
    }
}

/// The byte offset of serde_json's (1-based) line and column: the last byte it read.
fn offset_of(bytes: &[u8], line: usize, column: usize) -> usize {
    let line_start = if line <= 1 {
        0
    } else {
        bytes
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(line - 2)
            .map_or(bytes.len(), |(at, _)| at + 1)
    };
    (line_start + column).saturating_sub(1)
}

/// The path of the innermost value of the JSON text `bytes` whose text holds `offset` (the
/// object's, for an offset on one of its keys). The text before `offset` is well-formed JSON
/// (serde read it); what follows may not be, and is read only as far as needed.
fn path_at(bytes: &[u8], offset: usize) -> Vec<Step> {
    let mut scanner = Scanner {
        bytes,
        at: 0,
        target: offset,
        path: Vec::new(),
    };
    scanner.value().unwrap_or_default()
}

/// A reader of JSON text that follows the path to a position.
struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
    target: usize,
    path: Vec<Step>,
}

impl Scanner<'_> {
    /// Reads one value; the path when the target is in it.
    fn value(&mut self) -> Option<Vec<Step>> {
        self.blank();
        let start = self.at;
        if start > self.target {
            // Past the target, where the text was never checked (nor its depth): not read.
            return None;
        }
        let inner = match self.bytes.get(self.at) {
            Some(b'{') => self.members(),
            Some(b'[') => self.elements(),
            Some(b'"') => {
                self.string();
                None
            }
            Some(_) => {
                while self
                    .bytes
                    .get(self.at)
                    .is_some_and(|b| !b",]}".contains(b) && !b.is_ascii_whitespace())
                {
                    self.at += 1;
                }
                None
            }
            None => None,
        };
        if inner.is_some() {
            return inner;
        }
        // The end of the text (past the target) is taken as the end of what holds it.
        let end = if self.at >= self.bytes.len() {
            usize::MAX
        } else {
            self.at
        };
        (start <= self.target && self.target < end).then(|| self.path.clone())
    }

    /// An object's members, from its `{` to past its `}`: the path when the target is in one.
    fn members(&mut self) -> Option<Vec<Step>> {
        self.at += 1;
        loop {
            self.blank();
            match self.bytes.get(self.at) {
                Some(b'}') => {
                    self.at += 1;
                    return None;
                }
                Some(b',') => self.at += 1,
                Some(b'"') => {
                    let key_start = self.at;
                    let key = self.string();
                    if key_start <= self.target && self.target < self.at {
                        // A key: said at the object, whose message names it.
                        return Some(self.path.clone());
                    }
                    self.blank();
                    if self.bytes.get(self.at) == Some(&b':') {
                        self.at += 1;
                    }
                    self.path.push(Step::Field(key));
                    let found = self.value();
                    self.path.pop();
                    if found.is_some() {
                        return found;
                    }
                }
                // Not JSON (after the target): the object ends here.
                _ => return None,
            }
        }
    }

    /// A list's elements, from its `[` to past its `]`: the path when the target is in one.
    fn elements(&mut self) -> Option<Vec<Step>> {
        self.at += 1;
        let mut index = 0;
        loop {
            self.blank();
            match self.bytes.get(self.at) {
                Some(b']') => {
                    self.at += 1;
                    return None;
                }
                Some(b',') => {
                    self.at += 1;
                    index += 1;
                }
                None => return None,
                Some(_) => {
                    let before = self.at;
                    self.path.push(Step::Index(index));
                    let found = self.value();
                    self.path.pop();
                    if found.is_some() {
                        return found;
                    }
                    if self.at == before {
                        // Not JSON (after the target): the list ends here.
                        return None;
                    }
                }
            }
        }
    }

    /// A string from its opening quote to past its closing one; its text (escapes kept as
    /// written: a key with escapes is named as typed).
    fn string(&mut self) -> String {
        let start = self.at + 1;
        self.at += 1;
        while let Some(&byte) = self.bytes.get(self.at) {
            self.at += 1;
            match byte {
                b'\\' => self.at += 1,
                b'"' => break,
                _ => {}
            }
        }
        let end = self.at.saturating_sub(1).clamp(start, self.bytes.len());
        String::from_utf8_lossy(&self.bytes[start.min(end)..end]).into_owned()
    }

    fn blank(&mut self) {
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| b.is_ascii_whitespace())
        {
            self.at += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str, offset: usize) -> String {
        Misfit {
            path: path_at(text.as_bytes(), offset),
            why: "x".into(),
        }
        .to_string()
    }

    #[test]
    fn the_path_at_a_position() {
        let text = r#"{"a": [1, {"b\"c": "d"}, [true]], "e": {}}"#;
        let at = |needle: &str| text.find(needle).unwrap();
        assert_eq!(shown(text, 0), "x");
        assert_eq!(shown(text, at("1")), "a[0]: x");
        assert_eq!(shown(text, at("\"d\"") + 2), r#"a[1].b\"c: x"#);
        // A key is said at its object; an object's own `}` too.
        assert_eq!(shown(text, at("\"b")), "a[1]: x");
        assert_eq!(shown(text, at("}, [")), "a[1]: x");
        assert_eq!(shown(text, at("true") + 3), "a[2][0]: x");
        assert_eq!(shown(text, at("{}") + 1), "e: x");
    }

    #[test]
    fn text_past_the_position_is_not_read() {
        // Well-formed up to the position, then anything: deep lists, a cut-off string.
        let text = format!(r#"{{"a": 1, "b": {}"#, "[".repeat(1_000_000));
        assert_eq!(shown(&text, 6), "a: x");
        let between = format!(r#"{{"a": 1 , "b": {}"#, "[".repeat(1_000_000));
        assert_eq!(shown(&between, 7), "x");
        assert_eq!(shown(r#"{"a": [1, "#, 7), "a[0]: x");
        assert_eq!(shown(r#"{"a": "cut"#, 8), "a: x");
    }
}
