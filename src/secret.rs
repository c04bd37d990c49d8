//! The launcher token: a type that can be used but never shown.
//!
//! `Debug` prints a placeholder and there is no `Display`, so a token cannot reach a log or an
//! error message by accident. `expose` is the one way to read it, and `mask` the one way to show
//! a hint of it to a person.

use std::fmt;

/// A launcher token that passed validation.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

/// Why a token was refused. The messages never contain the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenProblem {
    Empty,
    InnerWhitespace,
    ControlCharacter,
    NotAscii,
}

impl TokenProblem {
    pub fn describe(self) -> &'static str {
        match self {
            TokenProblem::Empty => "the token is empty",
            TokenProblem::InnerWhitespace => "the token has whitespace inside it",
            TokenProblem::ControlCharacter => "the token has a control character in it",
            TokenProblem::NotAscii => "the token has a non-ASCII character in it",
        }
    }
}

impl Secret {
    /// Trims surrounding whitespace (a final newline from `echo` or an editor) and checks that
    /// what is left can go in an HTTP header as it is.
    pub fn parse(raw: &str) -> Result<Secret, TokenProblem> {
        let token = raw.trim();
        if token.is_empty() {
            return Err(TokenProblem::Empty);
        }
        for c in token.chars() {
            // Checked before control characters: a newline or tab inside is the usual shape of
            // two values pasted together, and "whitespace" tells the user what to look for.
            if c.is_whitespace() {
                return Err(TokenProblem::InnerWhitespace);
            }
            if c.is_control() {
                return Err(TokenProblem::ControlCharacter);
            }
            if !c.is_ascii() {
                return Err(TokenProblem::NotAscii);
            }
        }
        Ok(Secret(token.to_string()))
    }

    /// Text kept as it was found, such as the config file's token: never shown, but not yet
    /// checked. `settings` runs it through `parse` before anything is sent with it, and a
    /// file with a bad token can still be edited.
    pub fn unchecked(text: String) -> Secret {
        Secret(text)
    }

    /// The token itself, for the Authorization header and nothing else.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// A few leading characters and a count of the rest, for a person to recognise the token.
    /// At most a quarter of it, and never more than 4 characters, is shown.
    pub fn mask(&self) -> String {
        let count = self.0.chars().count();
        let shown: String = self.0.chars().take((count / 4).min(4)).collect();
        format!("{shown}… ({} characters)", self.0.chars().count())
    }
}

impl Secret {
    /// `bytes` with every occurrence of the token replaced by `<token>`.
    pub fn scrub(&self, bytes: &[u8]) -> Vec<u8> {
        let token = self.0.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut rest = bytes;
        while !rest.is_empty() {
            if rest.starts_with(token) {
                out.extend_from_slice(b"<token>");
                rest = &rest[token.len()..];
            } else {
                out.push(rest[0]);
                rest = &rest[1..];
            }
        }
        out
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_token() {
        let secret = Secret::parse("abc.def.ghi").unwrap();
        assert_eq!(format!("{secret:?}"), "Secret(<redacted>)");
        assert!(!format!("{:?}", Some(&secret)).contains("abc"));
    }

    #[test]
    fn surrounding_whitespace_is_trimmed() {
        assert_eq!(Secret::parse("  tok\n").unwrap().expose(), "tok");
        assert_eq!(Secret::parse("tok\r\n").unwrap().expose(), "tok");
    }

    #[test]
    fn bad_tokens_are_refused() {
        assert_eq!(Secret::parse(""), Err(TokenProblem::Empty));
        assert_eq!(Secret::parse(" \n "), Err(TokenProblem::Empty));
        assert_eq!(Secret::parse("a b"), Err(TokenProblem::InnerWhitespace));
        assert_eq!(Secret::parse("a\nb"), Err(TokenProblem::InnerWhitespace));
        assert_eq!(
            Secret::parse("a\u{1}b"),
            Err(TokenProblem::ControlCharacter)
        );
        assert_eq!(
            Secret::parse("a\u{7f}b"),
            Err(TokenProblem::ControlCharacter)
        );
        assert_eq!(Secret::parse("tökén"), Err(TokenProblem::NotAscii));
    }

    #[test]
    fn scrub_cuts_every_occurrence() {
        let secret = Secret::parse("s3cr3t-token").unwrap();
        let scrubbed = secret.scrub(b"Bearer s3cr3t-token and s3cr3t-tokens3cr3t-token!");
        assert_eq!(scrubbed, b"Bearer <token> and <token><token>!");
        assert_eq!(secret.scrub(b""), b"");
    }

    #[test]
    fn mask_shows_only_a_prefix() {
        let secret = Secret::parse("eyJhbGciOiJIUzI1NiJ9.payload.sig").unwrap();
        let masked = secret.mask();
        assert!(masked.starts_with("eyJh"));
        assert!(!masked.contains("payload"));
        let short = Secret::parse("abcdefgh").unwrap().mask();
        assert!(short.starts_with("ab…"), "{short}");
    }
}
