//! Keeping the token out of what the emulator writes: its stderr request lines, the `--log`
//! records and the journal of its own routes. A client may put the token in a path (as sent,
//! percent-encoded, JSON-escaped, split across segments) and an answer may carry what the client
//! sent: each is looked at raw and decoded, and what shows the token is replaced by `<token>`.
//! (The emulator's side of redaction; the client has its own, in `secret` and `sanitize`.)

use std::borrow::Cow;

use crate::launcher::encoding::{base64_encode, base64url_encode};
use crate::launcher::table::percent_decode_lossy;

/// Replaces what looks like a token in a path by `<token>`: the emulator's own token wherever
/// it appears, also split across segments (`/abc/123` for `abc123`), and any segment shaped like
/// the launcher's tokens (three dot-separated parts). The path is looked at as sent, as the
/// server reads it (percent-decoded, also twice), and JSON-unescaped (`\u0061bc123`): when a
/// token shows only once decoded, the decoded path is the one kept, with the token replaced.
pub(crate) fn redact<'a>(path: &'a str, token: &str) -> Cow<'a, str> {
    if !path.contains(['%', '\\']) {
        // Nothing to decode (the usual case, once per request): the path as it is.
        return redact_plain(path, token);
    }
    let mut shown = Cow::Borrowed(path);
    let mut level = path.to_owned();
    // Each round decodes once more (`%2535` is `%35` is `5`, `%5Cu0061` is `\u0061` is `a`);
    // the deepest round that found a token is the one shown, redacted.
    for _ in 0..6 {
        if let Cow::Owned(redacted) = redact_plain(&level, token) {
            level = redacted;
            shown = Cow::Owned(level.clone());
        }
        let decoded = if level.contains('%') {
            percent_decode_lossy(&level)
        } else {
            level.clone()
        };
        let decoded = if decoded.contains('\\') {
            json_unescape_lossy(&decoded)
        } else {
            decoded
        };
        if decoded == level {
            break;
        }
        level = decoded;
    }
    shown
}

/// Any text the logs carry besides the path (an answer's description): the token, raw,
/// percent-decoded or JSON-unescaped, replaced by `<token>`; the text as it is when none shows.
pub(crate) fn redact_text<'a>(text: &'a str, token: &str) -> Cow<'a, str> {
    if token.is_empty() {
        return Cow::Borrowed(text);
    }
    if text.contains(token) {
        return Cow::Owned(text.replace(token, "<token>"));
    }
    let encoded: Vec<String> = base64_forms(token)
        .into_iter()
        .filter(|form| text.contains(form.as_str()))
        .collect();
    if !encoded.is_empty() {
        let mut replaced = text.to_owned();
        for form in &encoded {
            replaced = replaced.replace(form.as_str(), "<token>");
        }
        return Cow::Owned(replaced);
    }
    if !text.contains(['%', '\\']) {
        return Cow::Borrowed(text);
    }
    let decoded = json_unescape_lossy(&percent_decode_lossy(text));
    if decoded.contains(token) {
        Cow::Owned(decoded.replace(token, "<token>"))
    } else {
        Cow::Borrowed(text)
    }
}

/// `\uXXXX` (a surrogate pair too), `\"`, `\\`, `\/` and the one-letter escapes of JSON decoded;
/// anything else (a lone backslash, a bad escape) kept as it is.
fn json_unescape_lossy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let hex4 = |from: usize| {
            tail.get(from..from + 4)
                .filter(|digits| digits.bytes().all(|b| b.is_ascii_hexdigit()))
                .and_then(|digits| u32::from_str_radix(digits, 16).ok())
        };
        let (decoded, used) = match tail.as_bytes().get(1) {
            Some(b'u') => match hex4(2) {
                Some(high @ 0xd800..=0xdbff) => match (tail.get(6..8), hex4(8)) {
                    (Some("\\u"), Some(low @ 0xdc00..=0xdfff)) => (
                        char::from_u32(0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)),
                        12,
                    ),
                    _ => (None, 1),
                },
                Some(unit) => (char::from_u32(unit), 6),
                None => (None, 1),
            },
            Some(b'"') => (Some('"'), 2),
            Some(b'\\') => (Some('\\'), 2),
            Some(b'/') => (Some('/'), 2),
            Some(b'n') => (Some('\n'), 2),
            Some(b't') => (Some('\t'), 2),
            Some(b'r') => (Some('\r'), 2),
            Some(b'b') => (Some('\u{8}'), 2),
            Some(b'f') => (Some('\u{c}'), 2),
            _ => (None, 1),
        };
        match decoded {
            Some(c) if used > 1 => out.push(c),
            _ => out.push_str(&tail[..used.min(tail.len())]),
        }
        rest = &tail[used.min(tail.len())..];
    }
    out.push_str(rest);
    out
}

/// The token as base64 spells it (standard and URL-safe alphabets), wherever it starts in the
/// encoded bytes: for each of the three alignments, the characters that its bytes alone decide.
/// Only forms of at least 8 characters, so that a short token does not take random text with it.
fn base64_forms(token: &str) -> Vec<String> {
    let mut forms = Vec::new();
    for shift in 0..3usize {
        let mut bytes = vec![0u8; shift];
        bytes.extend_from_slice(token.as_bytes());
        // Character i holds bits 6i..6i+6; those wholly within the token's bits are its own.
        let first = (8 * shift).div_ceil(6);
        let last = 8 * (shift + token.len()) / 6;
        if last < first + 8 {
            continue;
        }
        for encoded in [base64_encode(&bytes), base64url_encode(&bytes)] {
            if let Some(core) = encoded.get(first..last) {
                if !forms.iter().any(|form| form == core) {
                    forms.push(core.to_owned());
                }
            }
        }
    }
    forms
}

/// [`redact`] of a path as it is, without decoding.
fn redact_plain<'a>(path: &'a str, token: &str) -> Cow<'a, str> {
    let jwt_like = |segment: &str| segment.len() >= 40 && segment.matches('.').count() == 2;
    let has_token = !token.is_empty() && path.contains(token);
    let split = !has_token && !token.is_empty() && split_token(path, token).is_some();
    let encoded: Vec<String> = base64_forms(token)
        .into_iter()
        .filter(|form| path.contains(form.as_str()))
        .collect();
    if !has_token && !split && encoded.is_empty() && !path.split('/').any(jwt_like) {
        return Cow::Borrowed(path);
    }
    let mut replaced = if has_token {
        path.replace(token, "<token>")
    } else {
        path.to_owned()
    };
    for form in &encoded {
        replaced = replaced.replace(form.as_str(), "<token>");
    }
    // A token split by slashes: each stretch of the path that spells it once the slashes are
    // left out becomes `<token>`, looked for after the last one replaced (a short token may be
    // part of `<token>` itself).
    if split {
        let mut from = 0;
        while let Some((start, end)) = split_token(&replaced[from..], token) {
            let (start, end) = (from + start, from + end);
            replaced.replace_range(start..end, "<token>");
            from = start + "<token>".len();
        }
    }
    Cow::Owned(
        replaced
            .split('/')
            .map(|segment| {
                if jwt_like(segment) {
                    "<token>"
                } else {
                    segment
                }
            })
            .collect::<Vec<_>>()
            .join("/"),
    )
}

/// Where in `path` the token is spelt with one or more `/` inside it (the byte range, from its
/// first character to its last), if it is. No allocation: this looks at every request's path.
fn split_token(path: &str, token: &str) -> Option<(usize, usize)> {
    let (p, t) = (path.as_bytes(), token.as_bytes());
    // A token is printable ASCII (`check_token`), so the range found is on character bounds.
    if t.is_empty() || t.contains(&b'/') || !t.is_ascii() || p.len() <= t.len() {
        return None;
    }
    for start in 0..p.len() {
        if p[start] != t[0] {
            continue;
        }
        let (mut at, mut matched) = (start, 0);
        while at < p.len() && matched < t.len() {
            if p[at] == b'/' {
                at += 1;
                continue;
            }
            if p[at] != t[matched] {
                break;
            }
            at += 1;
            matched += 1;
        }
        if matched == t.len() {
            return Some((start, at));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_redacted_from_paths() {
        assert_eq!(redact("/appendable-data/1", "abc123"), "/appendable-data/1");
        assert_eq!(redact("/x/abc123/y", "abc123"), "/x/<token>/y");
        let jwt = format!("{}.{}.{}", "a".repeat(20), "b".repeat(20), "c".repeat(20));
        assert_eq!(redact(&format!("/auth/{jwt}"), "zzz"), "/auth/<token>");
        assert_eq!(redact("/data-id/1.2.3", "zzz"), "/data-id/1.2.3");
        // Percent-encoded, partly, twice, or beside another escape: found once decoded.
        assert_eq!(redact("/x/%61%62%63123/y", "abc123"), "/x/<token>/y");
        assert_eq!(redact("/x/a%62c123", "abc123"), "/x/<token>");
        assert_eq!(redact("/x/%2561bc123/%41", "abc123"), "/x/<token>/A");
        assert_eq!(redact("/x/%zz/abc123%2F", "abc123"), "/x/%zz/<token>%2F");
        let encoded: String = jwt.bytes().map(|b| format!("%{b:02x}")).collect();
        assert_eq!(redact(&format!("/auth/{encoded}"), "zzz"), "/auth/<token>");
        // Nothing to hide: the path as sent, escapes and all.
        assert_eq!(redact("/a%20b/%zz", "abc123"), "/a%20b/%zz");
        assert_eq!(redact("/a\\u0062/%zz", "abc123"), "/a\\u0062/%zz");
        // Split across segments, JSON-escaped, or both with percent-encoding.
        assert_eq!(redact("/x/abc/123/y", "abc123"), "/x/<token>/y");
        assert_eq!(redact("/x/a/b/c/1/2/3", "abc123"), "/x/<token>");
        assert_eq!(redact("/x/\\u0061bc123", "abc123"), "/x/<token>");
        assert_eq!(redact("/x/%5Cu0061bc/123", "abc123"), "/x/<token>");
        assert_eq!(redact("/x/ab%2Fc123", "abc123"), "/x/<token>");
        assert_eq!(redact("/a/b/a/b", "ab"), "/<token>/<token>");
        // A token that is part of `<token>` itself, or of every path.
        assert_eq!(redact("/t/x/t", "t"), "/<token>/x/<token>");
        assert_eq!(redact("/to/ken", "token"), "/<token>");
        assert_eq!(
            redact("/appendable-data/1", "a"),
            "/<token>ppend<token>ble-d<token>t<token>/1"
        );
        assert_eq!(redact_text("echo \\u0061bc123!", "abc123"), "echo <token>!");
        assert_eq!(redact_text("echo abc123", "abc123"), "echo <token>");
        assert_eq!(redact_text("nothing", "abc123"), "nothing");
        assert_eq!(json_unescape_lossy(r"\ud83d\ude00\x\"), "\u{1f600}\\x\\");
    }

    #[test]
    fn a_base64_encoded_token_is_redacted_at_every_alignment() {
        let token = "tok3n.Zq8vWmXr4LpKd2Nf.s1gnatur3Hb7Yc";
        for prefix in ["", "x", "xy"] {
            let bytes = format!("{prefix}{token}!");
            for encoded in [
                base64_encode(bytes.as_bytes()),
                base64url_encode(bytes.as_bytes()),
            ] {
                let path = format!("/x/{encoded}");
                let redacted = redact(&path, token);
                assert!(redacted.contains("<token>"), "{path} -> {redacted}");
                let text = format!("echo {encoded}");
                assert!(redact_text(&text, token).contains("<token>"), "{text}");
            }
        }
        // A short token has no base64 form long enough to look for.
        assert_eq!(redact("/x/MQ==", "1"), "/x/MQ==");
    }
}
