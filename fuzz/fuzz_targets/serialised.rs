//! What `show` makes of the launcher's raw answers: any bytes give a preview that is one safe
//! line of bounded length, a whole-content rendering of safe lines, a 16-hex-digit fingerprint,
//! and never a panic; any body parses as a structured-data answer or is refused.
#![no_main]

use libfuzzer_sys::fuzz_target;
use safe_ad::test_support::launcher::serialised::{
    fingerprint, full, is_text, preview, MAX_PREVIEW_CHARS,
};
use safe_ad::test_support::launcher::StructuredFetched;

fn safe(line: &str) -> bool {
    line.chars().all(|c| {
        !c.is_control()
            && !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
    })
}

fuzz_target!(|bytes: &[u8]| {
    let shown = preview(bytes);
    assert!(shown.chars().count() <= MAX_PREVIEW_CHARS, "{shown:?}");
    assert!(safe(&shown), "{shown:?}");
    let lines = full(bytes);
    assert!(lines.iter().all(|line| safe(line)), "{lines:?}");
    if !bytes.is_empty() && !is_text(bytes) {
        assert_eq!(lines.concat().len(), bytes.len() * 2, "hex of every byte");
    }
    let print = fingerprint(bytes);
    assert!(print.len() == 16 && print.bytes().all(|b| b.is_ascii_hexdigit()));
    let _ = StructuredFetched::parse(bytes);
});
