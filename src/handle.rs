//! Appendable-data handles: strict parsing of what the user typed, canonical formatting; and
//! [`Target`], what a person names an appendable data by wherever a handle goes: a handle, or the
//! data's name.
//!
//! The launcher parsed handles with C `strtoull(…, 0)`, so `-1` became 2^64−1, `010` became 8
//! and `12abc` became 12. Only plain decimal digits are accepted here, at most 20 of them (as
//! many as 2^64−1 has), and only the canonical form is ever sent, so a typo can never address
//! someone else's data. The digit bound keeps handles and names apart by length: a name of 64
//! hex digits that happen all to be decimal (`000…0001`) is a name, never handle 1.

use std::borrow::Cow;
use std::fmt;

use crate::name::{Name, NameProblem};

/// A validated handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Handle(pub u64);

/// The accepted range, as users read it in error messages.
pub const RANGE: &str = "0 to 18446744073709551615";

/// The most digits a handle is written with: as many as 2^64−1 has, leading zeros included. A
/// name is 44 or 64 characters, so no word is both.
pub const MOST_DIGITS: usize = 20;

/// Why a handle was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandleProblem {
    Empty,
    NotDecimal,
    TooLarge,
    /// Plain digits, but more than [`MOST_DIGITS`] of them (and not a name either).
    TooLong,
    /// A word that reads both as a handle and as a name: never guessed.
    Ambiguous,
    /// Too long for a handle and written as a name is (base64's or hex's characters), but not
    /// a name, for this reason: a name with a typo in it.
    NotAName(NameProblem),
    /// A data's name, where the command (or one of its options) takes handles only.
    NameRefused(NameRefusal),
}

/// Why a data's name is refused where a handle goes: by the command itself (`drop`), or by one
/// of its options (`--save put`), which the refusal then names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NameRefusal {
    pub option: Option<&'static str>,
    pub why: &'static str,
}

impl HandleProblem {
    pub fn describe(self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            HandleProblem::Empty => "it is empty",
            HandleProblem::NotDecimal => "it is not a plain decimal number",
            HandleProblem::TooLarge => "it is larger than 18446744073709551615",
            HandleProblem::TooLong => "it has more than 20 digits (18446744073709551615 has 20)",
            HandleProblem::Ambiguous => {
                "it reads both as a handle and as a data's name, and neither is guessed"
            }
            HandleProblem::NotAName(problem) => return Cow::Owned(problem.describe()),
            HandleProblem::NameRefused(refusal) => refusal.why,
        })
    }
}

impl Handle {
    /// Plain ASCII decimal digits only: no sign, no spaces, no `0x`, no exponent or fraction.
    /// Leading zeros are allowed (and dropped when sent), up to [`MOST_DIGITS`] digits in all.
    pub fn parse(raw: &str) -> Result<Handle, HandleProblem> {
        if raw.is_empty() {
            return Err(HandleProblem::Empty);
        }
        if !raw.bytes().all(|b| b.is_ascii_digit()) {
            return Err(HandleProblem::NotDecimal);
        }
        if raw.len() > MOST_DIGITS {
            return Err(HandleProblem::TooLong);
        }
        let mut value: u64 = 0;
        for digit in raw.bytes().map(|b| u64::from(b - b'0')) {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(digit))
                .ok_or(HandleProblem::TooLarge)?;
        }
        Ok(Handle(value))
    }
}

/// What a command is asked to work on: a handle (a copy the launcher holds, as it is), or the
/// name of public data on the network (a fresh copy the command takes for the run and gives
/// back). The forms cannot be mistaken for each other: a handle is at most 20 decimal digits,
/// a name 44 characters of base64 ending in `=` or 64 hex digits; a word that still read both
/// ways would be refused with both readings, never guessed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Handle(Handle),
    Name(Name),
}

impl Target {
    /// A handle or a name; a word that is neither is refused as a handle is (what most people
    /// type is a handle with a typo in it), and one that is both is refused as ambiguous.
    pub fn parse(raw: &str) -> Result<Target, HandleProblem> {
        let name = Name::parse(raw);
        match Target::of_readings(Handle::parse(raw), name.ok()) {
            // Longer than any handle, in a name's characters: a name with a typo in it, said
            // as such ("43 characters ... without the '='"), not as a handle that is no number.
            Err(HandleProblem::NotDecimal | HandleProblem::TooLong) if looks_like_a_name(raw) => {
                Err(HandleProblem::NotAName(
                    name.err().unwrap_or(NameProblem::NotEncoded),
                ))
            }
            read => read,
        }
    }

    /// The one reading of a word, from how it reads as a handle and as a name.
    fn of_readings(
        handle: Result<Handle, HandleProblem>,
        name: Option<Name>,
    ) -> Result<Target, HandleProblem> {
        match (handle, name) {
            (Ok(_), Some(_)) => Err(HandleProblem::Ambiguous),
            (Ok(handle), None) => Ok(Target::Handle(handle)),
            (Err(_), Some(name)) => Ok(Target::Name(name)),
            (Err(problem), None) => Err(problem),
        }
    }

    /// Both readings of a word that has both, for the message that refuses it.
    pub fn readings(raw: &str) -> Option<(Handle, Name)> {
        Some((Handle::parse(raw).ok()?, Name::parse(raw).ok()?))
    }
}

/// Longer than a handle can be and all in the characters a name is written in (base64's,
/// URL-safe base64's and hex's); digits alone only nearer a name's 64 than a handle's 20.
fn looks_like_a_name(raw: &str) -> bool {
    let name_characters =
        |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_');
    match raw.bytes().all(|b| b.is_ascii_digit()) {
        true => raw.len() >= 40,
        false => raw.len() > MOST_DIGITS && raw.bytes().all(name_characters),
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Handle(handle) => handle.fmt(f),
            Target::Name(name) => name.fmt(f),
        }
    }
}

impl fmt::Display for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_decimal_and_formats_canonically() {
        assert_eq!(Handle::parse("0"), Ok(Handle(0)));
        assert_eq!(Handle::parse("42"), Ok(Handle(42)));
        assert_eq!(Handle::parse("010").unwrap().to_string(), "10");
        assert_eq!(Handle::parse("0000").unwrap().to_string(), "0");
        assert_eq!(Handle::parse("18446744073709551615"), Ok(Handle(u64::MAX)));
        assert_eq!(Handle::parse("00000000000000000042"), Ok(Handle(42)));
        assert_eq!(
            Handle::parse("00018446744073709551615"),
            Err(HandleProblem::TooLong)
        );
    }

    #[test]
    fn a_word_with_two_readings_is_refused() {
        let name = Name::parse(&"ab".repeat(32)).unwrap();
        assert_eq!(
            Target::of_readings(Ok(Handle(1)), Some(name)),
            Err(HandleProblem::Ambiguous)
        );
        assert_eq!(
            Target::of_readings(Err(HandleProblem::NotDecimal), Some(name)),
            Ok(Target::Name(name))
        );
    }

    #[test]
    fn names_where_handles_go_and_neither_mistaken_for_the_other() {
        let b64 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
        let name = Name::parse(b64).unwrap();
        assert_eq!(Target::parse(b64), Ok(Target::Name(name)));
        // 64 decimal digits are too long for a handle: they are a name in hex, leading zeros
        // or not (issue 51: `000…0001` was read as handle 1 and changed its data).
        let digits = "1".repeat(64);
        assert!(matches!(Target::parse(&digits), Ok(Target::Name(_))));
        let counter = format!("{:064}", 1);
        let one = Name::parse(&counter).unwrap();
        assert_eq!(Target::parse(&counter), Ok(Target::Name(one)));
        assert_eq!(one.bytes()[31], 1);
        assert_eq!(
            Target::parse(&format!("{:021}", 1)),
            Err(HandleProblem::TooLong)
        );
        assert_eq!(Target::parse("42"), Ok(Target::Handle(Handle(42))));
        assert_eq!(Target::parse("x"), Err(HandleProblem::NotDecimal));
        assert_eq!(
            Target::parse("18446744073709551616"),
            Err(HandleProblem::TooLarge)
        );
        assert_eq!(Target::parse(b64).unwrap().to_string(), b64);
    }

    #[test]
    fn refuses_everything_else() {
        for bad in [
            "-1", "+1", " 1", "1 ", "0x10", "1e3", "1.5", "12abc", "١٢", "1\0", "∞",
        ] {
            assert_eq!(
                Handle::parse(bad),
                Err(HandleProblem::NotDecimal),
                "{bad:?}"
            );
        }
        for (raw, problem) in [
            ("", HandleProblem::Empty),
            ("18446744073709551616", HandleProblem::TooLarge),
            ("99999999999999999999", HandleProblem::TooLarge),
            ("99999999999999999999999", HandleProblem::TooLong),
        ] {
            assert_eq!(Handle::parse(raw), Err(problem), "{raw:?}");
        }
    }
}
