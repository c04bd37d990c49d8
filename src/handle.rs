//! Appendable-data handles: strict parsing of what the user typed, canonical formatting.
//!
//! The launcher parsed handles with C `strtoull(…, 0)`, so `-1` became 2^64−1, `010` became 8
//! and `12abc` became 12. Only plain decimal digits are accepted here, and only the canonical
//! form is ever sent, so a typo can never address someone else's data.

use std::fmt;

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
}

impl HandleProblem {
    pub fn describe(self) -> &'static str {
        match self {
            HandleProblem::Empty => "it is empty",
            HandleProblem::NotDecimal => "it is not a plain decimal number",
            HandleProblem::TooLarge => "it is larger than 18446744073709551615",
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
