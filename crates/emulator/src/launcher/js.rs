//! How the launcher's JavaScript turned request values into what its storage core received, so
//! that the emulator accepts, refuses and words errors as the launcher did.
//!
//! The launcher was Node.js 6 (inside Electron) calling the Rust core through `node-ffi` and `ref`:
//! - A path parameter given to a `u64`/`size_t` argument went through C `strtoull(text, _, 0)`:
//!   leading spaces and a sign are allowed, `0x` is hex, a leading `0` octal, anything after the
//!   digits is ignored, `-1` wraps to 2^64 - 1. No digits at all, or a value above 2^64 - 1, made
//!   `ref` throw, and `node-ffi` prefixed the argument's position: [`u64_arg`].
//! - A JSON number given to such an argument was truncated to an integer; a JSON value that is
//!   neither number nor string was refused.
//! - `new Buffer(value, 'base64')` decoded strings leniently (characters outside the alphabet
//!   skipped, `=` ends the input) and threw for other types: [`buffer_from_base64`].
//! - Truthiness, `isNaN` and `parseInt` as JavaScript has them, for the controllers' checks.
//!
//! Nothing here knows about HTTP or the emulator's state.

use serde_json::Value;

const NO_DIGITS: &str = "writeUInt64: no digits we found in input String";
const OUT_OF_RANGE: &str = "writeUInt64: input String numerical value out of range";
const NOT_A_NUMBER: &str = "writeUInt64: Number/String 64-bit value required";

/// The message `node-ffi` gave when argument `position` of a core call could not be converted.
fn argument_error(position: usize, problem: &str) -> String {
    format!("error setting argument {position} - {problem}")
}

/// glibc `strtoull(text, &end, 0)` as `ref` used it, with its two refusals.
pub(crate) fn strtoull(text: &str) -> Result<u64, &'static str> {
    // The text reached C as a NUL-terminated string.
    let text = text.split('\0').next().unwrap_or("");
    let bytes = text.as_bytes();
    let mut at = bytes
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
        .unwrap_or(bytes.len());
    let mut negative = false;
    if let Some(sign @ (b'+' | b'-')) = bytes.get(at) {
        negative = *sign == b'-';
        at += 1;
    }
    let hex_prefix = bytes.get(at) == Some(&b'0')
        && matches!(bytes.get(at + 1), Some(b'x' | b'X'))
        && bytes.get(at + 2).is_some_and(u8::is_ascii_hexdigit);
    let (base, start) = if hex_prefix {
        (16, at + 2)
    } else if bytes.get(at) == Some(&b'0') {
        (8, at)
    } else {
        (10, at)
    };
    let mut value: u64 = 0;
    let mut overflow = false;
    let mut digits = 0;
    for &byte in &bytes[start.min(bytes.len())..] {
        let Some(digit) = char::from(byte).to_digit(base) else {
            break;
        };
        digits += 1;
        match value
            .checked_mul(u64::from(base))
            .and_then(|v| v.checked_add(u64::from(digit)))
        {
            Some(next) => value = next,
            None => overflow = true,
        }
    }
    if digits == 0 {
        return Err(NO_DIGITS);
    }
    if overflow {
        return Err(OUT_OF_RANGE);
    }
    Ok(if negative {
        value.wrapping_neg()
    } else {
        value
    })
}

/// A path parameter passed as core argument number `position` (`u64` or `size_t`).
pub(crate) fn u64_arg(text: &str, position: usize) -> Result<u64, String> {
    strtoull(text).map_err(|problem| argument_error(position, problem))
}

/// A JSON value passed as core argument number `position`: numbers are truncated (as V8's
/// `IntegerValue`, NaN being 0), strings go through `strtoull`, anything else is refused.
pub(crate) fn u64_from_json(value: Option<&Value>, position: usize) -> Result<u64, String> {
    match value {
        Some(Value::Number(number)) => Ok(number_to_u64(number.as_f64().unwrap_or(0.0))),
        Some(Value::String(text)) => u64_arg(text, position),
        _ => Err(argument_error(position, NOT_A_NUMBER)),
    }
}

/// A JavaScript number as `ref` wrote it into a `u64`: truncated toward zero, saturated to
/// the `i64` range, then reinterpreted (so -1 is 2^64 - 1).
pub(crate) fn number_to_u64(number: f64) -> u64 {
    if number.is_nan() {
        return 0;
    }
    // `as` saturates and truncates, which is what is wanted here.
    (number as i64) as u64
}

/// The value of one base64 digit in either alphabet, as Node's decoder read it.
fn base64_digit(c: char) -> Option<u32> {
    match c {
        'A'..='Z' => Some(c as u32 - 'A' as u32),
        'a'..='z' => Some(c as u32 - 'a' as u32 + 26),
        '0'..='9' => Some(c as u32 - '0' as u32 + 52),
        '+' | '-' => Some(62),
        '/' | '_' => Some(63),
        _ => None,
    }
}

/// Node's lenient base64 decoding: characters outside both alphabets are skipped, `=` ends the
/// input, and a last group of 2 or 3 digits gives 1 or 2 bytes (a single digit gives none).
pub(crate) fn node_base64(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in text.chars() {
        if c == '=' {
            break;
        }
        let Some(digit) = base64_digit(c) else {
            continue;
        };
        acc = (acc << 6) | digit;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// `new Buffer(value, 'base64')` in Node 6, the launcher's way of reading names and data. `None`
/// is JavaScript's `undefined` (a missing field).
pub(crate) fn buffer_from_base64(value: Option<&Value>) -> Result<Vec<u8>, String> {
    match value {
        Some(Value::String(text)) => Ok(node_base64(text)),
        Some(Value::Number(_)) => {
            Err("If encoding is specified then the first argument must be a string".into())
        }
        Some(Value::Array(items)) => Ok(items
            .iter()
            .map(|item| number_to_u64(to_number(Some(item))) as u8)
            .collect()),
        Some(Value::Object(object)) => match (object.get("type"), object.get("data")) {
            (Some(Value::String(kind)), Some(data @ Value::Array(_))) if kind == "Buffer" => {
                buffer_from_base64(Some(data))
            }
            _ => Err(NOT_A_BUFFER_SOURCE.into()),
        },
        Some(Value::Bool(flag)) => Err(format!(
            "Cannot use 'in' operator to search for 'length' in {flag}"
        )),
        Some(Value::Null) | None => Err(NOT_A_BUFFER_SOURCE.into()),
    }
}

const NOT_A_BUFFER_SOURCE: &str =
    "First argument must be a string, Buffer, ArrayBuffer, Array, or array-like object.";

/// JavaScript truthiness (`None` is `undefined`).
pub(crate) fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(_)) | Some(Value::Object(_)) => true,
    }
}

/// `/[^\s]/.test(value)`: whether the value, as a string, has a non-space character.
pub(crate) fn has_text(value: Option<&Value>) -> bool {
    match value {
        Some(Value::String(s)) => s.chars().any(|c| !is_js_space(c)),
        Some(Value::Array(items)) => items.iter().any(|item| has_text(Some(item))),
        _ => true,
    }
}

fn is_js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// JavaScript `Number(value)` for a JSON value (`None` is `undefined`, which is NaN).
pub(crate) fn to_number(value: Option<&Value>) -> f64 {
    match value {
        None => f64::NAN,
        Some(Value::Null) => 0.0,
        Some(Value::Bool(b)) => f64::from(u8::from(*b)),
        Some(Value::Number(n)) => n.as_f64().unwrap_or(f64::NAN),
        Some(Value::String(s)) => string_to_number(s),
        Some(Value::Array(items)) => match items.as_slice() {
            [] => 0.0,
            [only] => string_to_number(&to_js_string(only)),
            _ => f64::NAN,
        },
        Some(Value::Object(_)) => f64::NAN,
    }
}

/// JavaScript `String(value)` for the values `to_number` needs.
fn to_js_string(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(to_js_string).collect::<Vec<_>>().join(","),
        Value::Object(_) => "[object Object]".into(),
        other => other.to_string(),
    }
}

/// JavaScript `Number(text)`: blank is 0; `0x`, `0o`, `0b` prefixes; decimal with an optional
/// sign, point and exponent; `Infinity`; anything else NaN.
pub(crate) fn string_to_number(text: &str) -> f64 {
    let text = text.trim_matches(is_js_space);
    if text.is_empty() {
        return 0.0;
    }
    for (prefix, radix) in [
        ("0x", 16),
        ("0X", 16),
        ("0o", 8),
        ("0O", 8),
        ("0b", 2),
        ("0B", 2),
    ] {
        if let Some(digits) = text.strip_prefix(prefix) {
            if digits.is_empty() {
                return f64::NAN;
            }
            let mut value = 0f64;
            for c in digits.chars() {
                match c.to_digit(radix) {
                    Some(d) => value = value * f64::from(radix) + f64::from(d),
                    None => return f64::NAN,
                }
            }
            return value;
        }
    }
    let (sign, unsigned) = match text.as_bytes()[0] {
        b'-' => (-1.0, &text[1..]),
        b'+' => (1.0, &text[1..]),
        _ => (1.0, text),
    };
    if unsigned == "Infinity" {
        return sign * f64::INFINITY;
    }
    if !is_decimal_literal(unsigned) {
        return f64::NAN;
    }
    unsigned
        .parse::<f64>()
        .map_or(f64::NAN, |value| sign * value)
}

/// JavaScript's unsigned decimal literal: digits with an optional point (at least one digit in
/// all), then an optional exponent. Rust's float parser also takes "inf" and "nan"; this does not.
fn is_decimal_literal(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok =
        digits(whole) && digits(fraction) && !(whole.is_empty() && fraction.is_empty());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok
}

/// JavaScript `isNaN(value)`.
pub(crate) fn is_nan(value: Option<&Value>) -> bool {
    to_number(value).is_nan()
}

/// JavaScript `parseInt(text, 10)`: leading spaces, a sign, then as many decimal digits as there
/// are; NaN when there are none.
pub(crate) fn parse_int(text: &str) -> f64 {
    let text = text.trim_start_matches(is_js_space);
    let (sign, rest) = match text.as_bytes().first() {
        Some(b'-') => (-1.0, &text[1..]),
        Some(b'+') => (1.0, &text[1..]),
        _ => (1.0, text),
    };
    let digits: &str = &rest[..rest.bytes().take_while(u8::is_ascii_digit).count()];
    if digits.is_empty() {
        return f64::NAN;
    }
    sign * digits.parse::<f64>().unwrap_or(f64::NAN)
}

/// `parseInt(value, 10)` of a JSON value (it is made a string first).
pub(crate) fn parse_int_value(value: &Value) -> f64 {
    match value {
        Value::Number(n) => {
            // String(1e21) is "1e+21", whose parseInt is 1; below that the digits are the number.
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f.abs() >= 1e21 {
                parse_int(&format!("{f:e}"))
            } else {
                f.trunc()
            }
        }
        other => parse_int(&to_js_string(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strtoull_as_glibc_with_base_zero() {
        assert_eq!(strtoull("0"), Ok(0));
        assert_eq!(strtoull("1234"), Ok(1234));
        assert_eq!(strtoull("010"), Ok(8));
        assert_eq!(strtoull("0x1f"), Ok(31));
        assert_eq!(strtoull("0x"), Ok(0));
        assert_eq!(strtoull("09"), Ok(0));
        assert_eq!(strtoull("12abc"), Ok(12));
        assert_eq!(strtoull("  7"), Ok(7));
        assert_eq!(strtoull("+7"), Ok(7));
        assert_eq!(strtoull("-1"), Ok(u64::MAX));
        assert_eq!(strtoull("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(strtoull("3\0junk"), Ok(3));
        assert_eq!(strtoull("18446744073709551616"), Err(OUT_OF_RANGE));
        assert_eq!(strtoull("-99999999999999999999"), Err(OUT_OF_RANGE));
        for none in ["", "abc", "undefined", "null", " ", "-", "+x", "\0"] {
            assert_eq!(strtoull(none), Err(NO_DIGITS), "{none:?}");
        }
        assert_eq!(
            u64_arg("x", 2).unwrap_err(),
            "error setting argument 2 - writeUInt64: no digits we found in input String"
        );
    }

    #[test]
    fn json_values_as_u64_arguments() {
        assert_eq!(u64_from_json(Some(&json!(5)), 0), Ok(5));
        assert_eq!(u64_from_json(Some(&json!(5.9)), 0), Ok(5));
        assert_eq!(u64_from_json(Some(&json!(-1)), 0), Ok(u64::MAX));
        assert_eq!(u64_from_json(Some(&json!("0x10")), 0), Ok(16));
        for bad in [json!(null), json!(true), json!([1]), json!({})] {
            assert!(u64_from_json(Some(&bad), 1)
                .unwrap_err()
                .ends_with(NOT_A_NUMBER));
        }
        assert!(u64_from_json(None, 1).is_err());
    }

    #[test]
    fn node_base64_is_lenient() {
        assert_eq!(node_base64("QUJD"), b"ABC");
        assert_eq!(node_base64("QUI="), b"AB");
        assert_eq!(node_base64("QUI"), b"AB");
        assert_eq!(node_base64("Q U\nJ D"), b"ABC");
        assert_eq!(node_base64("QUJD=QUJD"), b"ABC");
        assert_eq!(node_base64("!!!!"), b"");
        assert_eq!(node_base64("Q"), b"");
        assert_eq!(node_base64("-_-_"), node_base64("+/+/"));
    }

    #[test]
    fn buffers_from_json_values() {
        assert_eq!(buffer_from_base64(Some(&json!("QUJD"))).unwrap(), b"ABC");
        assert_eq!(
            buffer_from_base64(Some(&json!([1, 257, "2"]))).unwrap(),
            [1, 1, 2]
        );
        assert!(buffer_from_base64(Some(&json!(11)))
            .unwrap_err()
            .contains("first argument must be a string"));
        assert!(buffer_from_base64(None)
            .unwrap_err()
            .starts_with("First argument must be"));
        assert!(buffer_from_base64(Some(&json!(true)))
            .unwrap_err()
            .contains("'in' operator"));
    }

    #[test]
    fn javascript_numbers() {
        assert_eq!(string_to_number(" 12 "), 12.0);
        assert_eq!(string_to_number(""), 0.0);
        assert_eq!(string_to_number("0x10"), 16.0);
        assert_eq!(string_to_number("1e3"), 1000.0);
        assert_eq!(string_to_number("-Infinity"), f64::NEG_INFINITY);
        assert_eq!(string_to_number(".5"), 0.5);
        assert_eq!(string_to_number("5."), 5.0);
        assert_eq!(string_to_number("-2e-1"), -0.2);
        for nan in [
            "abc", "12abc", "inf", "nan", "0x", "1..2", "--1", ".", "1e", "e5", "+-1",
        ] {
            assert!(string_to_number(nan).is_nan(), "{nan}");
        }
        assert!(is_nan(None));
        assert!(!is_nan(Some(&json!(null))));
        assert!(!is_nan(Some(&json!([]))));
        assert!(is_nan(Some(&json!("test"))));
        assert!(!is_nan(Some(&json!("501"))));
        assert_eq!(parse_int("  42px"), 42.0);
        assert_eq!(parse_int("-3"), -3.0);
        assert_eq!(parse_int("0x10"), 0.0);
        assert!(parse_int("x").is_nan());
        assert_eq!(parse_int_value(&json!(501.9)), 501.0);
        assert_eq!(parse_int_value(&json!([501])), 501.0);
        assert!(parse_int_value(&json!(true)).is_nan());
        assert!(truthy(Some(&json!("x"))));
        assert!(!truthy(Some(&json!(0))));
        assert!(!has_text(Some(&json!("  \t"))));
    }
}
