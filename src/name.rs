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

/// Why a name was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameProblem {
    Empty,
    /// Neither hex nor base64 of the right length and alphabet.
    NotEncoded,
    /// It decodes, but to this many bytes.
    WrongLength(usize),
}

impl NameProblem {
    pub fn describe(&self) -> String {
        match self {
            NameProblem::Empty => "it is empty".into(),
            NameProblem::NotEncoded => "it is neither standard base64 nor hex".into(),
            NameProblem::WrongLength(bytes) => format!("it is {bytes} bytes, not {NAME_BYTES}"),
        }
    }
}

impl Name {
    pub fn parse(raw: &str) -> Result<Name, NameProblem> {
        if raw.is_empty() {
            return Err(NameProblem::Empty);
        }
        let bytes = if raw.len() % 2 == 0 && raw.bytes().all(|b| b.is_ascii_hexdigit()) {
            hex(raw)
        } else {
            base64::engine::general_purpose::STANDARD
                .decode(raw)
                .map_err(|_| NameProblem::NotEncoded)?
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
    fn wrong_lengths_and_alphabets_are_refused() {
        assert_eq!(Name::parse(""), Err(NameProblem::Empty));
        assert_eq!(Name::parse(&HEX[2..]), Err(NameProblem::WrongLength(31)));
        assert_eq!(
            Name::parse(&format!("{HEX}ff")),
            Err(NameProblem::WrongLength(33))
        );
        // 31 and 33 bytes in base64.
        let b64 = |n: usize| base64::engine::general_purpose::STANDARD.encode(vec![7u8; n]);
        assert_eq!(Name::parse(&b64(31)), Err(NameProblem::WrongLength(31)));
        assert_eq!(Name::parse(&b64(33)), Err(NameProblem::WrongLength(33)));
        for bad in [
            &B64[..43],                                     // padding dropped
            "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8_", // url-safe alphabet
            "not a name",
            "zz",
        ] {
            assert_eq!(Name::parse(bad), Err(NameProblem::NotEncoded), "{bad}");
        }
    }

    #[test]
    fn random_names_differ() {
        assert_ne!(Name::random().unwrap(), Name::random().unwrap());
    }
}
