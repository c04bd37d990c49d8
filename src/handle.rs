//! Appendable-data handles: strict parsing of what the user typed, canonical formatting; and
//! [`Target`], what a person names an appendable data by wherever a handle goes: a handle, or the
//! data's name.
//!
//! The launcher parsed handles with C `strtoull(…, 0)`, so `-1` became 2^64−1, `010` became 8
//! and `12abc` became 12. Only plain decimal digits are accepted here, and only the canonical
//! form is ever sent, so a typo can never address someone else's data.

use std::fmt;

use crate::name::Name;

/// A validated handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Handle(pub u64);

/// The accepted range, as users read it in error messages.
pub const RANGE: &str = "0 to 18446744073709551615";

/// Why a handle was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandleProblem {
    Empty,
    NotDecimal,
    TooLarge,
    /// A data's name, where the command takes handles only, for this reason.
    NameRefused(&'static str),
}

impl HandleProblem {
    pub fn describe(self) -> &'static str {
        match self {
            HandleProblem::Empty => "it is empty",
            HandleProblem::NotDecimal => "it is not a plain decimal number",
            HandleProblem::TooLarge => "it is larger than 18446744073709551615",
            HandleProblem::NameRefused(why) => why,
        }
    }
}

impl Handle {
    /// Plain ASCII decimal digits only: no sign, no spaces, no `0x`, no exponent or fraction.
    /// Leading zeros are allowed (and dropped when sent).
    pub fn parse(raw: &str) -> Result<Handle, HandleProblem> {
        if raw.is_empty() {
            return Err(HandleProblem::Empty);
        }
        if !raw.bytes().all(|b| b.is_ascii_digit()) {
            return Err(HandleProblem::NotDecimal);
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
/// a name 44 characters of base64 ending in `=` or 64 hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Handle(Handle),
    Name(Name),
}

impl Target {
    /// A handle, or else a name; a word that is neither is refused as a handle is (what most
    /// people type is a handle with a typo in it).
    pub fn parse(raw: &str) -> Result<Target, HandleProblem> {
        match Handle::parse(raw) {
            Ok(handle) => Ok(Target::Handle(handle)),
            Err(problem) => Name::parse(raw).map(Target::Name).map_err(|_| problem),
        }
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
        assert_eq!(
            Handle::parse("00018446744073709551615"),
            Ok(Handle(u64::MAX))
        );
    }

    #[test]
    fn names_where_handles_go_and_neither_mistaken_for_the_other() {
        let b64 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
        let name = Name::parse(b64).unwrap();
        assert_eq!(Target::parse(b64), Ok(Target::Name(name)));
        // 64 decimal digits are too large for a handle: they are a name in hex.
        let digits = "1".repeat(64);
        assert!(matches!(Target::parse(&digits), Ok(Target::Name(_))));
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
        assert_eq!(Handle::parse(""), Err(HandleProblem::Empty));
        assert_eq!(
            Handle::parse("18446744073709551616"),
            Err(HandleProblem::TooLarge)
        );
        assert_eq!(
            Handle::parse("99999999999999999999999"),
            Err(HandleProblem::TooLarge)
        );
    }
}
