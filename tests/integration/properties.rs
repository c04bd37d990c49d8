//! Properties of the pure pieces, checked over generated inputs (proptest): handles round-trip
//! to their canonical form (`handle`); a launcher's answer put in words is always one safe line
//! cut at 300 characters (`outcome::describe_body`); every joined URL, an item's too, keeps its
//! prefix and its numbers (`launcher::url_for`); the config parser answers every text without
//! panicking (`config_file::parse`); what `launcher::serialised` makes of the launcher's raw
//! answers (previews, whole content, fingerprints) is safe and bounded, and a structured-data
//! answer parses or is refused; the decoder of the launcher's serialised bytes (`wire`) answers
//! any bytes, and data ids round-trip.

use proptest::prelude::*;
use safe_ad::test_support::handle::Handle;
use safe_ad::test_support::launcher::serialised::{
    fingerprint, full, is_text, preview, MAX_PREVIEW_CHARS,
};
use safe_ad::test_support::launcher::{url_for, Operation, Request, StructuredFetched, OPERATIONS};
use safe_ad::test_support::outcome::describe_body;
use safe_ad::test_support::url::parse_launcher_url;

proptest! {
    #[test]
    fn handles_round_trip_to_canonical_decimal(value: u64, zeros in 0usize..25) {
        let typed = format!("{}{value}", "0".repeat(zeros));
        // At most 20 digits, leading zeros counted: past that, no handle (and no name of 64).
        if typed.len() > 20 {
            prop_assert!(Handle::parse(&typed).is_err());
        } else {
            let handle = Handle::parse(&typed).expect("decimal digits parse");
            prop_assert_eq!(handle, Handle(value));
            prop_assert_eq!(handle.to_string(), value.to_string());
        }
    }

    #[test]
    fn anything_but_digits_is_refused(text in ".*") {
        let plain = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        if !plain {
            prop_assert!(Handle::parse(&text).is_err());
        }
    }

    #[test]
    fn numbers_past_u64_are_refused(extra in 1u64..1_000_000) {
        let too_big = u128::from(u64::MAX) + u128::from(extra);
        prop_assert!(Handle::parse(&too_big.to_string()).is_err());
    }

    #[test]
    fn rendered_bodies_are_one_safe_bounded_line(body in proptest::collection::vec(any::<u8>(), 0..4000)) {
        let (line, error_code, _) = describe_body(&body);
        let shown = match error_code {
            Some(code) => line.strip_prefix(&format!("errorCode {code}, ")).expect("the code first"),
            None => &line,
        };
        prop_assert!(cut_at_300(shown), "{:?}", line);
        prop_assert!(!line.chars().any(char::is_control), "{:?}", line);
    }

    #[test]
    fn rendered_launcher_json_is_safe_too(code: i64, description in ".*") {
        let body = serde_json::json!({"errorCode": code, "description": description}).to_string();
        let (line, error_code, _) = describe_body(body.as_bytes());
        prop_assert_eq!(error_code, Some(code));
        prop_assert!(!line.chars().any(char::is_control), "{:?}", line);
        let shown = line.strip_prefix(&format!("errorCode {code}, ")).expect("the code first");
        prop_assert!(cut_at_300(shown), "{:?}", line);
    }

    #[test]
    fn printable_text_of_300_characters_is_shown_whole(text in "[a-zA-Z0-9 .,:;!?-]{1,300}") {
        let text = text.trim();
        prop_assume!(!text.is_empty());
        let (line, _, _) = describe_body(text.as_bytes());
        prop_assert_eq!(line, text);
    }

    #[test]
    fn every_joined_url_keeps_its_prefix(
        host in prop_oneof![Just("localhost".to_string()), Just("127.0.0.1".to_string()), Just("[::1]".to_string())],
        port in 1u16..,
        segments in proptest::collection::vec("[A-Za-z0-9._~-]{1,8}", 0..4),
        slash in any::<bool>(),
        handle: u64,
    ) {
        let prefix: String = segments.iter().map(|s| format!("/{s}")).collect();
        let raw = format!("http://{host}:{port}{prefix}{}", if slash { "/" } else { "" });
        // Dot segments are resolved by URL parsing; only plain segments are a prefix to keep.
        prop_assume!(!segments.iter().any(|s| s == "." || s == ".."));
        let launcher = parse_launcher_url(&raw).expect("a plain loopback URL is accepted");
        for operation in OPERATIONS {
            let joined = url_for(launcher.base(), &Request::OnHandle(operation, Handle(handle)));
            let parsed = url::Url::parse(&joined).expect("joined URL parses");
            prop_assert!(parsed.path().starts_with(&format!("{prefix}/appendable-data/")), "{}", joined);
            let handle_suffix = format!("/{handle}");
            prop_assert!(parsed.path().ends_with(&handle_suffix), "{}", joined);
        }
    }

    #[test]
    fn the_config_parser_answers_any_text(text in ".{0,200}") {
        let _ = safe_ad::test_support::config_file::parse(&text);
    }

    #[test]
    fn previews_are_one_safe_bounded_line(content in proptest::collection::vec(any::<u8>(), 0..4000)) {
        let shown = preview(&content);
        prop_assert!(shown.chars().count() <= MAX_PREVIEW_CHARS, "{:?}", shown);
        prop_assert!(!shown.chars().any(needs_escape), "{:?}", shown);
        let lines = full(&content);
        prop_assert!(lines.iter().all(|line| !line.chars().any(needs_escape)), "{:?}", lines);
    }

    #[test]
    fn short_plain_text_previews_as_itself(text in "[ -~]{1,40}") {
        prop_assert_eq!(preview(text.as_bytes()), format!("\"{text}\""));
        prop_assert_eq!(full(text.as_bytes()), vec![format!("\"{}\"", text)]);
    }

    #[test]
    fn content_that_is_not_text_shows_every_byte_in_hex_with_full(content in proptest::collection::vec(any::<u8>(), 1..300)) {
        prop_assume!(!is_text(&content));
        let hex: String = content.iter().map(|byte| format!("{byte:02x}")).collect();
        prop_assert_eq!(full(&content).concat(), hex.clone());
        let start = format!("{} bytes, not text: {}", content.len(), &hex[..hex.len().min(32)]);
        prop_assert!(preview(&content).starts_with(&start), "{}", start);
    }

    #[test]
    fn fingerprints_are_sixteen_hex_digits_and_stable(key in proptest::collection::vec(any::<u8>(), 0..200)) {
        let print = fingerprint(&key);
        prop_assert_eq!(print.len(), 16);
        prop_assert!(print.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        prop_assert_eq!(print, fingerprint(&key.clone()));
    }

    #[test]
    fn structured_data_answers_parse_or_are_refused(body in proptest::collection::vec(any::<u8>(), 0..300), handle: u64, version: u64, versions: Option<u64>) {
        let _ = StructuredFetched::parse(&body);
        let mut answer = serde_json::json!({"handleId": handle, "isOwner": true, "version": version});
        if let Some(versions) = versions {
            answer["dataVersionLength"] = serde_json::json!(versions);
        }
        let parsed = StructuredFetched::parse(answer.to_string().as_bytes()).expect("the launcher's answer parses");
        prop_assert_eq!((parsed.handle_id, parsed.version, parsed.data_version_length), (handle, version, versions));
    }

    #[test]
    fn every_item_route_keeps_the_prefix_and_its_numbers(
        segments in proptest::collection::vec("[a-z0-9]{1,6}", 0..3),
        handle: u64,
        index: u64,
    ) {
        let prefix: String = segments.iter().map(|s| format!("/{s}")).collect();
        let launcher = parse_launcher_url(&format!("http://127.0.0.1:8100{prefix}")).expect("a loopback URL");
        for operation in [
            Operation::Remove, Operation::Restore, Operation::Purge, Operation::ItemDataId,
            Operation::DeletedItemDataId, Operation::ItemSigner, Operation::DeletedItemSigner,
            Operation::FilterKey,
        ] {
            let joined = url_for(launcher.base(), &Request::AtIndex(operation, Handle(handle), index));
            let path = url::Url::parse(&joined).expect("joined URL parses").path().to_owned();
            prop_assert!(path.starts_with(&format!("{prefix}/appendable-data/")), "{}", joined);
            let suffix = format!("/{handle}/{index}");
            prop_assert!(path.ends_with(&suffix), "{}", joined);
        }
    }
}

/// What a safe line never holds: control characters and those that reorder text.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
}

/// docs/output.md's promise: what is shown of a text is at most 300 characters (escapes counted as
/// shown), then `… (cut)` if anything was left out.
fn cut_at_300(shown: &str) -> bool {
    let kept = shown.strip_suffix("… (cut)").unwrap_or(shown);
    kept.chars().count() <= 300
}

proptest! {
    /// The client's decoder of the launcher's bytes answers any bytes without panicking, and
    /// every data id it writes reads back as itself.
    #[test]
    fn the_wire_decoder_answers_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = safe_ad::test_support::wire::decode_any(&bytes);
        let _ = safe_ad::test_support::wire::AppendableData::decode(&bytes);
        let _ = safe_ad::test_support::wire::DataId::decode(&bytes);
    }

    #[test]
    fn data_ids_round_trip(variant in 0u8..4, name: [u8; 32], tag: u64) {
        use safe_ad::test_support::wire::{DataId, DataKind};
        let kind = DataKind::ALL[usize::from(variant)];
        let id = DataId {
            kind,
            name: safe_ad::test_support::name::Name::from_bytes(name),
            type_tag: (kind == DataKind::Structured).then_some(tag),
        };
        prop_assert_eq!(DataId::decode(&id.encode()), Ok(id));
    }
}
