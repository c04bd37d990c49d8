//! Reading what the launcher hands back as raw bytes: serialised data ids and sign keys, and the
//! content of structured data. The bytes are opaque (their format is the network's, and the
//! emulator writes its own), so nothing here parses them: a sign key becomes a short
//! fingerprint, a data id its base64, content a preview that is safe on a terminal.
//!
//! Every function takes any bytes and never panics; `fuzz/fuzz_targets/serialised.rs` and
//! `tests/integration/properties.rs` check the bounds promised here.

use base64::Engine as _;

use crate::sanitize;

/// Hex digits in a fingerprint: 64 bits, enough to tell apart the keys of one handle.
pub const FINGERPRINT_HEX: usize = 16;

/// Characters of text a preview shows before it is cut.
pub const PREVIEW_CHARS: usize = 48;

/// Bytes of non-text content a preview shows, in hex.
pub const PREVIEW_BYTES: usize = 16;

/// The longest preview: quotes, the shown characters (escapes count: see `sanitize::line`),
/// the cut marker and the length that follows it.
pub const MAX_PREVIEW_CHARS: usize = PREVIEW_CHARS + 48;

/// A short, stable name for a serialised sign key: the first 64 bits of its SHA-256, in hex.
/// The same bytes always give the same fingerprint, in every run and every version.
pub fn fingerprint(serialised: &[u8]) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, serialised);
    hex(&digest.as_ref()[..FINGERPRINT_HEX / 2])
}

/// Standard base64 with padding, as `POST /data-id` takes the bytes back (after decoding).
pub fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Whether content reads as text: UTF-8 with no control characters but newlines and tabs,
/// and no characters that reorder what a person reads.
pub fn is_text(content: &[u8]) -> bool {
    match std::str::from_utf8(content) {
        Ok(text) => text
            .chars()
            .all(|c| matches!(c, '\n' | '\t' | '\r') || !sanitize::needs_escape(c)),
        Err(_) => false,
    }
}

/// One safe line that says what content is: `"text"` (cut, with its length, when long),
/// `(empty)`, or for anything else its length and first bytes in hex. Never longer than
/// [`MAX_PREVIEW_CHARS`] characters, and never a control or bidi character.
pub fn preview(content: &[u8]) -> String {
    if content.is_empty() {
        return "(empty)".to_string();
    }
    if is_text(content) {
        let shown = sanitize::line(content, PREVIEW_CHARS);
        return match shown.strip_suffix(sanitize::CUT) {
            Some(start) => format!("\"{start}…\" ({} bytes)", content.len()),
            None => format!("\"{shown}\""),
        };
    }
    let more = if content.len() > PREVIEW_BYTES {
        "…"
    } else {
        ""
    };
    format!(
        "{} bytes, not text: {}{more}",
        content.len(),
        hex(&content[..content.len().min(PREVIEW_BYTES)])
    )
}

/// The whole content as lines that are safe on a terminal (`--full`): text as one line with
/// its control characters escaped, anything else as hex, 32 bytes a line.
pub fn full(content: &[u8]) -> Vec<String> {
    if content.is_empty() {
        return vec!["(empty)".to_string()];
    }
    if is_text(content) {
        return vec![format!("\"{}\"", sanitize::line(content, usize::MAX))];
    }
    content.chunks(32).map(hex).collect()
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 15)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_are_stable_and_short() {
        // SHA-256("abc") begins ba7816bf8f01cfea.
        assert_eq!(fingerprint(b"abc"), "ba7816bf8f01cfea");
        assert_eq!(fingerprint(b""), "e3b0c44298fc1c14");
        assert_ne!(fingerprint(b"a"), fingerprint(b"b"));
    }

    #[test]
    fn previews() {
        assert_eq!(preview(b""), "(empty)");
        assert_eq!(preview(b"demo item a"), "\"demo item a\"");
        assert_eq!(preview(b"two\nlines"), "\"two\\nlines\"");
        let long = "x".repeat(100);
        assert_eq!(
            preview(long.as_bytes()),
            format!("\"{}…\" (100 bytes)", "x".repeat(PREVIEW_CHARS))
        );
        assert_eq!(preview(&[0, 0xff, 7]), "3 bytes, not text: 00ff07");
        assert_eq!(
            preview(&[0xff; 40]),
            format!("40 bytes, not text: {}…", "ff".repeat(PREVIEW_BYTES))
        );
        assert_eq!(
            preview("\u{1b}[31mred".as_bytes()),
            "8 bytes, not text: 1b5b33316d726564"
        );
        assert!(!is_text("a\u{202e}b".as_bytes()));
    }

    #[test]
    fn full_content() {
        assert_eq!(full(b"a\tb"), vec!["\"a\\tb\"".to_string()]);
        let binary: Vec<u8> = (0..40).collect();
        let lines = full(&binary);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].len(), 64);
        assert_eq!(base64(b"ab"), "YWI=");
    }
}
