//! The handle parser: never panics, accepts only plain decimal digits, and what it accepts
//! formats back to the canonical form (leading zeros dropped) and parses to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use safe_ad::test_support::handle::Handle;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(handle) = Handle::parse(text) {
        assert!(!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()));
        let canonical = handle.to_string();
        let without_zeros = text.trim_start_matches('0');
        let expected = if without_zeros.is_empty() { "0" } else { without_zeros };
        assert_eq!(canonical, expected);
        assert_eq!(Handle::parse(&canonical), Ok(handle));
    }
});
