//! `safe-ad decode`: serialised bytes in launcher 0.11.0's layout, written out by hand here from
//! `launcher-facts.md`, given as base64, hex and raw standard input; what each kind holds, as
//! text and as one JSON object; and garbage refused with exit 2 and what was expected.

use base64::Engine as _;

use crate::harness::*;

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn hex(text: &str) -> Vec<u8> {
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    digits
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap())
        .collect()
}

fn key(byte: u8) -> String {
    format!("2000000000000000 {}", format!("{byte:02x}").repeat(32))
}

fn signature() -> String {
    format!("4000000000000000 {}", "ee".repeat(64))
}

/// SHA-256 of a serialised key, cut to 16 hex digits: what `show` calls a fingerprint.
fn fingerprint(serialised: &[u8]) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, serialised);
    digest.as_ref()[..8]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

fn decode(args: &[&str]) -> Output {
    SafeAd::new().arg("decode").args(args).run()
}

#[test]
fn a_data_id_of_each_kind_from_base64_hex_and_raw_stdin() {
    let structured = hex(&format!("00000000 {} f401000000000000", "01".repeat(32)));
    let name = b64(&[1; 32]);
    let json = decode(&["--json", &b64(&structured)])
        .success()
        .json_lines();
    assert_eq!(
        json,
        vec![serde_json::json!({"kind": "structured-data", "name": name, "type_tag": 500})]
    );
    let as_hex: String = structured.iter().map(|b| format!("{b:02x}")).collect();
    decode(&[&as_hex])
        .success()
        .stdout_is(&format!("data id: structured-data {name}, type tag 500\n"));
    for (variant, kind) in [
        ("01000000", "immutable-data"),
        ("02000000", "appendable-data"),
        ("03000000", "private-appendable-data"),
    ] {
        let bytes = hex(&format!("{variant} {}", "ab".repeat(32)));
        let out = SafeAd::new()
            .args(["decode", "--json", "-"])
            .stdin(bytes.clone())
            .run();
        let json = out.success().json_lines();
        assert_eq!(json[0]["kind"], kind);
        assert_eq!(json[0]["name"], b64(&[0xab; 32]));
        assert!(json[0]["type_tag"].is_null());
        // No argument reads standard input too, and base64 text there is read as its bytes.
        SafeAd::new()
            .arg("decode")
            .stdin(format!("{}\n", b64(&bytes)))
            .run()
            .success()
            .stdout_is(&format!("data id: {kind} {}\n", b64(&[0xab; 32])));
    }
}

#[test]
fn a_sign_key_and_its_fingerprint() {
    let bytes = hex(&key(7));
    let json = decode(&["--json", &b64(&bytes)]).success().json_lines();
    assert_eq!(json[0]["kind"], "sign-key");
    assert_eq!(json[0]["fingerprint"], fingerprint(&bytes));
    assert_eq!(json[0]["key"], b64(&[7; 32]));
}

#[test]
fn an_appendable_data_with_every_item_decoded() {
    // Version 3, a whitelist of key 5, a deleted immutable-data item signed by 6, owner 5, one
    // signature by 5, data: structured 0x33.. (type tag 501) by 5, public appendable 0x44.. by 6.
    let bytes = hex(&[
        "11".repeat(32),
        "0300000000000000".into(),
        "01000000 0100000000000000".into(),
        key(5),
        "0100000000000000".into(),
        format!("01000000 {}", "22".repeat(32)),
        key(6),
        signature(),
        "0100000000000000".into(),
        key(5),
        "0100000000000000".into(),
        key(5),
        signature(),
        "0200000000000000".into(),
        format!("00000000 {} f501000000000000", "33".repeat(32)),
        key(5),
        signature(),
        format!("02000000 {}", "44".repeat(32)),
        key(6),
        signature(),
    ]
    .join(" "));
    let five = fingerprint(&hex(&key(5)));
    let six = fingerprint(&hex(&key(6)));
    let json = decode(&["--json", &b64(&bytes)]).success().json_lines();
    assert_eq!(
        json,
        vec![serde_json::json!({
            "kind": "appendable-data",
            "name": b64(&[0x11; 32]),
            "version": 3,
            "filter": {"type": "WhiteList", "keys": [five]},
            "owners": [five],
            "signed_by": [five],
            "data": [
                {"kind": "structured-data", "name": b64(&[0x33; 32]), "type_tag": 501, "signer": five},
                {"kind": "appendable-data", "name": b64(&[0x44; 32]), "type_tag": null, "signer": six},
            ],
            "deleted_data": [
                {"kind": "immutable-data", "name": b64(&[0x22; 32]), "type_tag": null, "signer": six},
            ],
        })]
    );
    let text = decode(&[&b64(&bytes)]).success().stdout().to_string();
    assert!(text.starts_with(&format!(
        "appendable data {}: version 3, data 2, deleted 1, filter WhiteList (1 key)\n",
        b64(&[0x11; 32])
    )));
    assert!(text.contains(&format!(
        "  data 0: structured-data {}, type tag 501, signed by {five}\n",
        b64(&[0x33; 32])
    )));
    assert!(text.contains(&format!(
        "  deleted 0: immutable-data {}, signed by {six}\n",
        b64(&[0x22; 32])
    )));
}

#[test]
fn garbage_is_refused_with_exit_2_and_what_was_expected() {
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"hello".to_vec(), "5 bytes fit none of them"),
        (
            hex(&format!("07000000 {}", "00".repeat(32))),
            "not a data id in launcher 0.11.0's layout: at byte 0, variant 7 is none of",
        ),
        (
            hex(&format!("01000000 {} ff", "00".repeat(32))),
            "fit none of them",
        ),
        (
            vec![0xff; 100],
            "not an appendable data in launcher 0.11.0's layout: at byte",
        ),
    ];
    for (bytes, expected) in cases {
        decode(&[&b64(&bytes)])
            .code(2)
            .stderr_has("safe-ad: error: cannot decode these")
            .stderr_has(expected)
            .stderr_has("hint: decode takes a serialised data id (36 or 44 bytes");
    }
    decode(&["not base64!"])
        .code(2)
        .stderr_has("'not base64!' is neither base64 nor hex");
    SafeAd::new()
        .args(["decode", "-"])
        .stdin(Vec::new())
        .run()
        .code(2)
        .stderr_has("standard input is empty");
    // A data id with a bad variant says where.
    let bad = hex(&format!("09000000 {} 0000000000000000", "00".repeat(32)));
    decode(&[&b64(&bad)])
        .code(2)
        .stderr_has("at byte 0, variant 9 is none of 0 (structured), 1 (immutable), 2 (public appendable), 3 (private appendable)");
}

/// What the emulator serialises (its data ids of every kind, its sign keys, a public and a
/// private appendable data), decoded, says what `show` says of the same data.
#[cfg(feature = "emulator")]
#[test]
fn decode_round_trips_every_kind_the_emulator_serialises() {
    use crate::harness::emulator::Emulator;
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let show = |handle: &str| {
        let output = sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .args(["show", "--json", handle])
            .run();
        output.success().json_lines().remove(0)
    };
    let decoded = |bytes: &[u8]| {
        decode(&["--json", &b64(bytes)])
            .success()
            .json_lines()
            .remove(0)
    };
    // The public appendable data of handle 1, whole: every item as show names it.
    let serialised = emulator.http("GET", "/appendable-data/serialise/1", Some(TOKEN), None);
    assert_eq!(serialised.status, 200);
    let whole = decoded(&serialised.bytes);
    let shown = show("1");
    assert_eq!(whole["kind"], "appendable-data");
    assert_eq!(whole["version"], shown["version"]);
    assert_eq!(whole["filter"]["type"], shown["filter"]["type"]);
    assert_eq!(whole["filter"]["keys"], shown["filter"]["keys"]);
    for list in ["data", "deleted_data"] {
        let ours: Vec<_> = whole[list]
            .as_array()
            .expect("list")
            .iter()
            .map(|item| {
                (
                    item["kind"].clone(),
                    item["name"].clone(),
                    item["type_tag"].clone(),
                    item["signer"].clone(),
                )
            })
            .collect();
        let theirs: Vec<_> = shown[list]
            .as_array()
            .expect("list")
            .iter()
            .map(|item| {
                (
                    item["kind"].clone(),
                    item["name"].clone(),
                    item["type_tag"].clone(),
                    item["signer"].clone(),
                )
            })
            .collect();
        assert_eq!(ours, theirs, "{list}");
    }
    // Each data id show gives (structured, public appendable, immutable) decodes to its item.
    for handle in ["1", "5"] {
        let shown = show(handle);
        for item in shown["data"].as_array().expect("data") {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(item["data_id"].as_str().expect("data id"))
                .expect("base64");
            let id = decoded(&bytes);
            assert_eq!(
                (&id["kind"], &id["name"], &id["type_tag"]),
                (&item["kind"], &item["name"], &item["type_tag"])
            );
        }
    }
    // The user's sign key: its fingerprint is show's `you`.
    let key = emulator
        .http("GET", "/sign-key", Some(TOKEN), None)
        .handle();
    let bytes = emulator
        .http(
            "GET",
            &format!("/sign-key/serialise/{key}"),
            Some(TOKEN),
            None,
        )
        .bytes;
    let whoami = SafeAd::new()
        .launcher(&emulator.url)
        .args(["auth", "whoami"])
        .run();
    assert_eq!(
        format!(
            "{}\n",
            decoded(&bytes)["fingerprint"]
                .as_str()
                .expect("fingerprint")
        ),
        whoami.success().stdout()
    );
    // A private appendable data, with a private data id.
    let created = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args([
            "create",
            "--private",
            "--put",
            "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
        ])
        .run();
    let handle = created.success().stdout().trim().to_string();
    let serialised = emulator.http(
        "GET",
        &format!("/appendable-data/serialise/{handle}"),
        Some(TOKEN),
        None,
    );
    let private = decoded(&serialised.bytes);
    assert_eq!(private["kind"], "private-appendable-data");
    assert_eq!(
        private["name"],
        "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    );
    let id = emulator
        .http(
            "GET",
            &format!("/appendable-data/data-id/{handle}"),
            Some(TOKEN),
            None,
        )
        .handle();
    let bytes = emulator
        .http("GET", &format!("/data-id/{id}"), Some(TOKEN), None)
        .bytes;
    assert_eq!(decoded(&bytes)["kind"], "private-appendable-data");
}
