//! Small encodings the emulator needs and nothing else: base64 for the 32-byte `name` fields,
//! base64url and hex for the tokens it issues, and random bytes for those tokens.
//!
//! Written here rather than pulled in as crates; each is a few lines.

use std::hash::{BuildHasher, Hasher};

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The value of one base64 digit; both the standard and the URL-safe alphabet are accepted, as
/// Node's `Buffer.from(s, 'base64')` (which the launcher used) accepts both.
fn digit(byte: u8) -> Option<u32> {
    match byte {
        b'A'..=b'Z' => Some(u32::from(byte - b'A')),
        b'a'..=b'z' => Some(u32::from(byte - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(byte - b'0') + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    }
}

/// Decodes base64 with or without `=` padding. Anything else (whitespace, stray characters,
/// padding in the middle, a dangling sixth bit group) is refused with `None`.
pub(crate) fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let unpadded = match bytes.iter().position(|&b| b == b'=') {
        Some(at) => {
            let padding = bytes.len() - at;
            if padding > 2 || bytes[at..].iter().any(|&b| b != b'=') || bytes.len() % 4 != 0 {
                return None;
            }
            &bytes[..at]
        }
        None => bytes,
    };
    if unpadded.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(unpadded.len() * 3 / 4);
    for chunk in unpadded.chunks(4) {
        let mut acc: u32 = 0;
        for &b in chunk {
            acc = (acc << 6) | digit(b)?;
        }
        match chunk.len() {
            4 => out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]),
            3 => {
                if acc & 0b11 != 0 {
                    return None;
                }
                out.extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]);
            }
            2 => {
                if acc & 0b1111 != 0 {
                    return None;
                }
                out.push((acc >> 4) as u8);
            }
            _ => return None,
        }
    }
    Some(out)
}

fn encode_with(alphabet: &[u8; 64], data: &[u8], pad: bool) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let symbols = chunk.len() + 1;
        for i in 0..4 {
            if i < symbols {
                out.push(char::from(alphabet[((n >> (18 - 6 * i)) & 63) as usize]));
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64 with padding (how the demo names are shown).
pub(crate) fn base64_encode(data: &[u8]) -> String {
    encode_with(STANDARD, data, true)
}

/// base64url without padding, as in the three parts of a JWT.
pub(crate) fn base64url_encode(data: &[u8]) -> String {
    encode_with(URL_SAFE, data, false)
}

/// Lower-case hex.
pub(crate) fn hex(data: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(data.len() * 2);
    for &b in data {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

/// `N` random bytes from the operating system (`getrandom`: the kept answer on every platform,
/// with no file to open); should it ever fail, from the process's randomly keyed SipHash (std
/// seeds it from the OS), which is still unpredictable from outside.
pub(crate) fn random_bytes<const N: usize>() -> [u8; N] {
    let mut out = [0u8; N];
    if getrandom::getrandom(&mut out).is_err() {
        let state = std::collections::hash_map::RandomState::new();
        for (i, chunk) in out.chunks_mut(8).enumerate() {
            let mut hasher = state.build_hasher();
            hasher.write_usize(i);
            hasher.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos())
                    .unwrap_or(0),
            );
            let word = hasher.finish().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_every_length() {
        for len in 0..40usize {
            let data: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let padded = base64_encode(&data);
            assert_eq!(base64_decode(&padded), Some(data.clone()), "{padded}");
            let url = base64url_encode(&data);
            assert_eq!(base64_decode(&url), Some(data), "{url}");
        }
    }

    #[test]
    fn base64_refuses_junk() {
        for bad in [
            "A", "AB=C", "A===", "AB C", "QQ==QQ==", "QR==", "QUJ=", "Zm9v\n", "é",
        ] {
            assert_eq!(base64_decode(bad), None, "{bad:?}");
        }
        assert_eq!(base64_decode("QQ=="), Some(b"A".to_vec()));
        assert_eq!(base64_decode("QQ"), Some(b"A".to_vec()));
        assert_eq!(base64_decode(""), Some(Vec::new()));
    }

    #[test]
    fn hex_and_random() {
        assert_eq!(hex(&[0, 1, 0xab, 0xff]), "0001abff");
        let a = random_bytes::<16>();
        let b = random_bytes::<16>();
        assert_ne!(a, b);
    }
}
