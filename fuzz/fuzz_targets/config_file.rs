//! The config file parser: any text in, a config or an error that says where, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use safe_ad::test_support::config_file::parse;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse(text) {
        Ok(config) => {
            // A config that parsed came from a JSON object.
            assert!(text.trim_start().starts_with('{'));
            let _ = format!("{config:?}");
        }
        Err(message) => assert!(!message.is_empty()),
    }
});
