//! The error-body renderer: any bytes in, one safe line out (no control or bidi characters,
//! bounded length), and never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use safe_ad::test_support::outcome::describe_body;

fuzz_target!(|body: &[u8]| {
    let (line, _, _) = describe_body(body);
    // 300 shown characters, the "errorCode N, " prefix and the cut marker.
    assert!(line.chars().count() <= 350, "{} characters", line.chars().count());
    for c in line.chars() {
        assert!(!c.is_control(), "control character {c:?} in {line:?}");
        assert!(
            !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}'),
            "bidi control {c:?} in {line:?}"
        );
    }
});
