//! Names of appendable data: 32 bytes, written as the launcher writes them (standard base64,
//! 44 characters) or as 64 hex digits; parsed strictly, always sent as base64.

use std::fmt;

use base64::Engine;

/// How many bytes a name has.
pub const NAME_BYTES: usize = 32;

/// The accepted forms, as users read them in error messages and help.
pub const FORMS: &str =
    "32 bytes, as standard base64 (44 characters, ending in '=') or as 64 hex digits";

/// A checked name.
/// Ordered as the network orders names (byte by byte).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name([u8; NAME_BYTES]);

/// Why a name was refused: as near as can be told to what was typed, so that a name one
/// character short is called a name with what it lacks, not something else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameProblem {
    Empty,
    /// Hex digits, but this many rather than 64.
    HexDigits(usize),
    /// Base64 without the `=` that ends a name: this many characters.
    MissingPadding(usize),
    /// Base64 of this many characters rather than 44.
    Base64Length(usize),
    /// A character neither base64 nor hex.
    Alphabet(char),
    /// Base64's characters, but not base64 (an `=` inside it).
    NotEncoded,
    /// It decodes, but to this many bytes.
    WrongLength(usize),
}

impl NameProblem {
    pub fn describe(&self) -> String {
        match *self {
            NameProblem::Empty => "it is empty".into(),
            NameProblem::HexDigits(digits) => {
                format!("it is {digits} hex digits, and a name in hex has 64")
            }
            NameProblem::MissingPadding(length) => format!(
                "it is {length} characters of base64 without the '=' that ends a name (44 characters with it)"
            ),
            NameProblem::Base64Length(length) => {
                format!("it is {length} characters, and a name in base64 has 44, ending in '='")
            }
            NameProblem::Alphabet(c @ ('-' | '_')) => format!(
                "it holds '{c}': URL-safe base64, where a name is written in standard base64 (with '+' and '/')"
            ),
            NameProblem::Alphabet(' ') => "it holds a space, which is neither base64 nor hex".into(),
            NameProblem::Alphabet(c) => format!(
                "it holds '{}', which is neither base64 nor hex",
                c.escape_debug()
            ),
            NameProblem::NotEncoded => "it is not standard base64".into(),
            NameProblem::WrongLength(bytes) => format!("it is {bytes} bytes, not {NAME_BYTES}"),
        }
    }
}

/// How many characters a name has in base64, and in hex.
const BASE64_CHARACTERS: usize = 44;
const HEX_DIGITS: usize = 64;

impl Name {
    pub fn parse(raw: &str) -> Result<Name, NameProblem> {
        if raw.is_empty() {
            return Err(NameProblem::Empty);
        }
        let length = raw.chars().count();
        let all_hex = raw.bytes().all(|b| b.is_ascii_hexdigit());
        // 43 hex-looking characters are more likely base64 that lost its `=`.
        let bytes = if all_hex && length != BASE64_CHARACTERS - 1 {
            if length != HEX_DIGITS {
                return Err(NameProblem::HexDigits(length));
            }
            hex(raw)
        } else {
            let base64 = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=');
            if let Some(c) = raw.chars().find(|c| !base64(*c)) {
                return Err(NameProblem::Alphabet(c));
            }
            match base64::engine::general_purpose::STANDARD.decode(raw) {
                Ok(bytes) => bytes,
                Err(_) if !raw.contains('=') && length == BASE64_CHARACTERS - 1 => {
                    return Err(NameProblem::MissingPadding(length))
                }
                Err(_) if length != BASE64_CHARACTERS => {
                    return Err(NameProblem::Base64Length(length))
                }
                Err(_) => return Err(NameProblem::NotEncoded),
            }
        };
        let array: [u8; NAME_BYTES] = bytes
            .as_slice()
            .try_into()
            .map_err(|_| NameProblem::WrongLength(bytes.len()))?;
        Ok(Name(array))
    }

    /// A fresh name from the operating system's random number generator.
    pub fn random() -> std::io::Result<Name> {
        let mut bytes = [0u8; NAME_BYTES];
        getrandom::getrandom(&mut bytes).map_err(std::io::Error::other)?;
        Ok(Name(bytes))
    }

    /// The name of these 32 bytes (read from the launcher's serialised bytes).
    pub fn from_bytes(bytes: [u8; NAME_BYTES]) -> Name {
        Name(bytes)
    }

    pub fn bytes(&self) -> &[u8; NAME_BYTES] {
        &self.0
    }
}

fn hex(raw: &str) -> Vec<u8> {
    raw.as_bytes()
        .chunks(2)
        .map(|pair| {
            let digit = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
            digit(pair[0]) << 4 | digit(pair[1])
        })
        .collect()
}

/// Standard base64, as the launcher reads and writes names.
impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&base64::engine::general_purpose::STANDARD.encode(self.0))
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Name({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const B64: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
    const HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    #[test]
    fn both_forms_give_the_same_name_and_base64_is_how_it_is_written() {
        let from_b64 = Name::parse(B64).unwrap();
        assert_eq!(Name::parse(HEX).unwrap(), from_b64);
        assert_eq!(Name::parse(&HEX.to_uppercase()).unwrap(), from_b64);
        assert_eq!(from_b64.to_string(), B64);
        assert_eq!(from_b64.bytes()[31], 31);
    }

    #[test]
    fn wrong_lengths_and_alphabets_are_refused_saying_what_is_wrong() {
        assert_eq!(Name::parse(""), Err(NameProblem::Empty));
        assert_eq!(Name::parse(&HEX[2..]), Err(NameProblem::HexDigits(62)));
        assert_eq!(
            Name::parse(&format!("{HEX}ff")),
            Err(NameProblem::HexDigits(66))
        );
        // 31 and 33 bytes in base64.
        let b64 = |n: usize| base64::engine::general_purpose::STANDARD.encode(vec![7u8; n]);
        assert_eq!(Name::parse(&b64(31)), Err(NameProblem::WrongLength(31)));
        assert_eq!(Name::parse(&b64(33)), Err(NameProblem::WrongLength(33)));
        // The `=` lost (issue 52: it was "neither base64 nor hex").
        assert_eq!(
            Name::parse(&B64[..43]),
            Err(NameProblem::MissingPadding(43))
        );
        assert!(NameProblem::MissingPadding(43)
            .describe()
            .contains("without the '='"));
        assert_eq!(Name::parse(&B64[..40]), Err(NameProblem::WrongLength(30)));
        assert_eq!(Name::parse("AAECAwQF="), Err(NameProblem::Base64Length(9)));
        assert_eq!(
            Name::parse("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8_"),
            Err(NameProblem::Alphabet('_'))
        );
        assert!(NameProblem::Alphabet('_').describe().contains("URL-safe"));
        assert_eq!(Name::parse("not a name"), Err(NameProblem::Alphabet(' ')));
        assert!(NameProblem::Alphabet(' ').describe().contains("a space"));
        assert_eq!(Name::parse("zz"), Err(NameProblem::Base64Length(2)));
        assert_eq!(
            Name::parse("AAEC=wQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="),
            Err(NameProblem::NotEncoded)
        );
    }

    #[test]
    fn random_names_differ() {
        assert_ne!(Name::random().unwrap(), Name::random().unwrap());
    }
}
