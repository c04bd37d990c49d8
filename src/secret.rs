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
    /// Whitespace before or after it, where it is taken as it is ([`Secret::parse_exact`]).
    SurroundingWhitespace,
}

impl TokenProblem {
    pub fn describe(self) -> &'static str {
        match self {
            TokenProblem::Empty => "the token is empty",
            TokenProblem::InnerWhitespace => "the token has whitespace inside it",
            TokenProblem::ControlCharacter => "the token has a control character in it",
            TokenProblem::NotAscii => "the token has a non-ASCII character in it",
            TokenProblem::SurroundingWhitespace => "the token has whitespace around it",
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

    /// As [`Secret::parse`], but whitespace around the token is refused rather than trimmed:
    /// for the environment variable, which a `--curl` line hands to curl as it is.
    pub fn parse_exact(raw: &str) -> Result<Secret, TokenProblem> {
        let token = Secret::parse(raw)?;
        if token.0.len() != raw.len() {
            return Err(TokenProblem::SurroundingWhitespace);
        }
        Ok(token)
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
    /// `bytes` with every occurrence of the token replaced by `<token>`: as it is, and as
    /// whoever echoes it may have encoded it, any of its characters JSON-escaped (`\u0066`,
    /// `\/`), percent-encoded (`%66`), or both (`%5Cu0066`). Every text the launcher sends
    /// back goes through here before it is shown, so the check is made at the depth of the
    /// decodings a reader (`jq`, a browser, serde) would apply, not only on the raw bytes.
    /// A base64 spelling of the token (standard or URL-safe, at any alignment in the encoded
    /// bytes: see [`base64_forms`]) is cut out too.
    pub fn scrub(&self, bytes: &[u8]) -> Vec<u8> {
        let token = self.0.as_bytes();
        let forms = base64_forms(token);
        let mut out = Vec::with_capacity(bytes.len());
        let mut at = 0;
        while at < bytes.len() {
            let rest = &bytes[at..];
            let in_base64 = forms
                .iter()
                .find(|form| rest.starts_with(form.as_bytes()))
                .map(String::len);
            match encoded_at(rest, token).or(in_base64) {
                Some(length) => {
                    out.extend_from_slice(b"<token>");
                    at += length;
                }
                None => {
                    out.push(bytes[at]);
                    at += 1;
                }
            }
        }
        out
    }

    /// Whether `bytes` holds the token in any form [`Secret::scrub`] cuts out.
    pub fn is_in(&self, bytes: &[u8]) -> bool {
        let token = self.0.as_bytes();
        let forms = base64_forms(token);
        (0..bytes.len()).any(|at| {
            encoded_at(&bytes[at..], token).is_some()
                || forms
                    .iter()
                    .any(|form| bytes[at..].starts_with(form.as_bytes()))
        })
    }
}

/// The token as base64 spells it, in the standard and the URL-safe alphabet: for each of the
/// three alignments of its first byte in the encoded bytes, the characters its bytes alone
/// decide. Only forms of at least 8 characters: a short token would take random text with it.
fn base64_forms(token: &[u8]) -> Vec<String> {
    use base64::Engine;
    let mut forms: Vec<String> = Vec::new();
    for shift in 0..3usize {
        let mut bytes = vec![0u8; shift];
        bytes.extend_from_slice(token);
        // Character i holds bits 6i..6i+6; those wholly within the token's bits are its own.
        let first = (8 * shift).div_ceil(6);
        let last = 8 * (shift + token.len()) / 6;
        if last < first + 8 {
            continue;
        }
        for engine in [
            &base64::engine::general_purpose::STANDARD,
            &base64::engine::general_purpose::URL_SAFE,
        ] {
            let encoded = engine.encode(&bytes);
            if let Some(core) = encoded.get(first..last) {
                if !forms.iter().any(|form| form == core) {
                    forms.push(core.to_owned());
                }
            }
        }
    }
    forms
}

/// The length of the token written at the start of `bytes`, each character in any of the
/// forms [`Secret::scrub`] knows; `None` when it does not start there.
fn encoded_at(bytes: &[u8], token: &[u8]) -> Option<usize> {
    let mut at = 0;
    for &wanted in token {
        at += encoded_char(&bytes[at..], wanted)?;
    }
    (!token.is_empty()).then_some(at)
}

/// The length of `wanted` written at the start of `bytes`: as itself, `%XX`, or a JSON escape
/// (`\uXXXX`, or `\/` `\\` `\"`) whose characters may in turn be percent-encoded.
fn encoded_char(bytes: &[u8], wanted: u8) -> Option<usize> {
    let first = *bytes.first()?;
    if first == wanted {
        return Some(1);
    }
    if first == b'%' && bytes.len() >= 3 && hex_value(&bytes[1..3]) == Some(u32::from(wanted)) {
        return Some(3);
    }
    // A JSON escape: its backslash and `u` as themselves or percent-encoded.
    let mut at = plain_or_percent(bytes, b'\\')?;
    if matches!(wanted, b'/' | b'\\' | b'"') {
        if let Some(length) = plain_or_percent(&bytes[at..], wanted) {
            return Some(at + length);
        }
    }
    let length = plain_or_percent(&bytes[at..], b'u')?;
    at += length;
    let mut value = 0u32;
    for _ in 0..4 {
        let (length, digit) = hex_digit_at(&bytes[at..])?;
        value = value * 16 + digit;
        at += length;
    }
    (value == u32::from(wanted)).then_some(at)
}

/// `wanted` at the start of `bytes`, as itself or as `%XX`: its length.
fn plain_or_percent(bytes: &[u8], wanted: u8) -> Option<usize> {
    match bytes {
        [first, ..] if *first == wanted => Some(1),
        [b'%', a, b, ..] if hex_value(&[*a, *b]) == Some(u32::from(wanted)) => Some(3),
        _ => None,
    }
}

/// A hex digit at the start of `bytes`, as itself or percent-encoded: its length and value.
fn hex_digit_at(bytes: &[u8]) -> Option<(usize, u32)> {
    match bytes {
        [b'%', a, b, ..] => {
            let byte = hex_value(&[*a, *b])?;
            Some((3, char::from(u8::try_from(byte).ok()?).to_digit(16)?))
        }
        [digit, ..] => Some((1, char::from(*digit).to_digit(16)?)),
        [] => None,
    }
}

/// The value of hex digits (either case).
fn hex_value(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |value, digit| {
        Some(value * 16 + char::from(*digit).to_digit(16)?)
    })
}

/// What scrubs the token out of words: the launcher's descriptions, echoed arguments, URLs.
/// Never applied to data (item content, numbers, handle ids, names), which is shown exactly as
/// the launcher sent it: a content that holds the token is the user's data, and a short token
/// (`1`) would otherwise rewrite numbers. Decode first, then scrub the strings meant for people.
#[derive(Clone, Debug, Default)]
pub struct Redactor(Option<Secret>);

impl Redactor {
    pub fn new(token: Option<Secret>) -> Redactor {
        Redactor(token)
    }

    /// `bytes` with the token cut out, in every form [`Secret::scrub`] knows.
    pub fn bytes(&self, bytes: &[u8]) -> Vec<u8> {
        match &self.0 {
            Some(token) => token.scrub(bytes),
            None => bytes.to_vec(),
        }
    }

    /// `text` with the token cut out.
    pub fn text(&self, text: &str) -> String {
        match &self.0 {
            Some(token) if token.is_in(text.as_bytes()) => {
                String::from_utf8_lossy(&token.scrub(text.as_bytes())).into_owned()
            }
            _ => text.to_string(),
        }
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
    fn a_base64_spelling_of_the_token_is_cut_out_too() {
        use base64::Engine;
        let secret = Secret::parse("tok3n.Zq8vWmXr4LpKd2Nf.s1gnatur3Hb7Yc").unwrap();
        for prefix in ["", "x", "xy"] {
            let bytes = format!("{prefix}{}!", secret.expose());
            for encoded in [
                base64::engine::general_purpose::STANDARD.encode(&bytes),
                base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes),
            ] {
                let text = format!("Basic {encoded}");
                assert!(secret.is_in(text.as_bytes()), "{text}");
                let scrubbed = String::from_utf8(secret.scrub(text.as_bytes())).unwrap();
                assert!(scrubbed.contains("<token>"), "{scrubbed}");
                assert!(!secret.is_in(scrubbed.as_bytes()), "{scrubbed}");
            }
        }
        let short = Secret::parse("1").unwrap();
        assert_eq!(short.scrub(b"MQ=="), b"MQ==");
    }

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
    fn parse_exact_refuses_what_parse_trims() {
        assert_eq!(Secret::parse_exact("tok").unwrap().expose(), "tok");
        for raw in [" tok", "tok ", "tok\n", "\ttok"] {
            assert_eq!(
                Secret::parse_exact(raw),
                Err(TokenProblem::SurroundingWhitespace),
                "{raw:?}"
            );
        }
        // Nothing but whitespace is empty, as parse says.
        assert_eq!(Secret::parse_exact(" \n"), Err(TokenProblem::Empty));
    }

    #[test]
    fn bad_tokens_are_refused() {
        for (token, problem) in [
            ("", TokenProblem::Empty),
            (" \n ", TokenProblem::Empty),
            ("a b", TokenProblem::InnerWhitespace),
            ("a\nb", TokenProblem::InnerWhitespace),
            ("a\u{1}b", TokenProblem::ControlCharacter),
            ("a\u{7f}b", TokenProblem::ControlCharacter),
            ("tökén", TokenProblem::NotAscii),
        ] {
            assert_eq!(Secret::parse(token), Err(problem), "{token:?}");
        }
    }

    #[test]
    fn scrub_cuts_every_occurrence() {
        let secret = Secret::parse("s3cr3t-token").unwrap();
        let scrubbed = secret.scrub(b"Bearer s3cr3t-token and s3cr3t-tokens3cr3t-token!");
        assert_eq!(scrubbed, b"Bearer <token> and <token><token>!");
        assert_eq!(secret.scrub(b""), b"");
    }

    #[test]
    fn scrub_cuts_the_token_however_it_was_escaped() {
        let secret = Secret::parse("f600/tok\"en").unwrap();
        for echoed in [
            r#"echo \u0066600/tok\"en!"#,
            r#"echo \u0066600\/tok\"en!"#,
            "echo %66600%2Ftok%22en!",
            "echo %5Cu0066600%2ftok\"en!",
            "echo %5c%750066600/tok\"en!",
            r#"echo \U0066600/tok\"en!"#,
        ] {
            let scrubbed = secret.scrub(echoed.as_bytes());
            let scrubbed = String::from_utf8(scrubbed).unwrap();
            // `\U` is no JSON escape: a reader does not decode it, so it is no token.
            if echoed.contains("\\U") {
                assert_eq!(scrubbed, echoed);
                continue;
            }
            assert_eq!(scrubbed, "echo <token>!", "{echoed}");
            assert!(secret.is_in(echoed.as_bytes()));
        }
        assert!(!secret.is_in(b"f600/tok"));
        assert_eq!(secret.scrub(b"%6"), b"%6");
        assert_eq!(secret.scrub(b"\\u00"), b"\\u00");
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
