//! The `--state` format's own tests: sizes, repeats, fields and where an error is said.

use super::*;
use crate::launcher::state::roster;

/// The roster of an emulator started without `--user`: the file's users, or the one unnamed.
fn no_names(known: &[User]) -> Result<Vec<User>, String> {
    Ok(roster(&[], known))
}

/// What a state file holds besides its data (the format line, the two lists, the last
/// newline): at most this many bytes beyond the data's [`Ad::file_size`] and
/// [`Sd::file_size`].
const FILE_ENVELOPE: usize = 256;

/// The largest form of each field: every number at its longest, private names, a signer
/// other than the user (written out), both kinds of item.
fn worst_case_ad(n: u8, keys: usize, items: usize) -> Ad {
    let mut ad = Ad::new(
        AdKey {
            name: [n; 32],
            private: true,
        },
        FilterType::WhiteList,
        // Another's key, written out in full.
        [0xee; 32],
    );
    // The longest a version is written: a loaded one and a saved one are at most this.
    ad.version = LAST_VERSION;
    for i in 0..keys {
        ad.filter.keys.insert(
            [(i % 251) as u8, (i / 251) as u8, n, 0xff]
                .repeat(8)
                .try_into()
                .unwrap(),
        );
    }
    for i in 0..items {
        let name: [u8; 32] = [(i % 251) as u8, (i / 251) as u8, n, 0xfe]
            .repeat(8)
            .try_into()
            .unwrap();
        let pointer = if i % 2 == 0 {
            DataId::Structured(SdKey {
                name,
                type_tag: u64::MAX,
            })
        } else {
            DataId::Appendable(AdKey {
                name,
                private: true,
            })
        };
        let item = Item {
            pointer,
            signer: [0xee; 32],
            seal: u64::MAX - i as u64,
        };
        if i % 3 == 0 {
            ad.deleted.insert(item);
        } else {
            ad.data.insert(item);
        }
    }
    ad
}

/// (Its largest appendable data are as large as the network stores: 450 items and 100 keys.)
#[test]
fn a_saved_network_is_never_larger_than_its_counted_size() {
    for (keys, items, sds) in [(0, 0, 0), (1, 1, 1), (3, 10, 2), (100, 450, 5)] {
        let network = Network {
            appendable_data: (0..3).map(|n| worst_case_ad(n, keys, items)).collect(),
            structured_data: (0..sds)
                .map(|n| Sd {
                    key: SdKey {
                        name: [n as u8; 32],
                        type_tag: u64::MAX,
                    },
                    version: LAST_VERSION,
                    versions: (0..n).map(|v| vec![7; v * 1000 + 1]).collect(),
                    encrypted: if n % 2 == 1 {
                        vec![true; n]
                    } else {
                        Vec::new()
                    },
                    status: if n % 2 == 0 {
                        SdStatus::Unclaimable
                    } else {
                        SdStatus::Deleted
                    },
                })
                .collect(),
            immutable_data: (0..sds)
                .map(|n| Immutable::new(Cipher::Asymmetric, vec![n as u8; n * 1000 + 1].into()))
                .collect(),
            users: vec![User::default_user()],
        };
        let mut text = serde_json::to_string_pretty(&network.to_file()).unwrap();
        text.push('\n');
        let counted: usize = network
            .appendable_data
            .iter()
            .map(Ad::file_size)
            .sum::<usize>()
            + network
                .structured_data
                .iter()
                .map(Sd::file_size)
                .sum::<usize>()
            + network
                .immutable_data
                .iter()
                .map(Immutable::file_size)
                .sum::<usize>();
        assert!(
            text.len() <= counted + FILE_ENVELOPE,
            "{keys} keys, {items} items, {sds} sds: {} bytes, counted {counted}",
            text.len()
        );
        // And it reads back as the same network.
        let file: StateFile = serde_json::from_str(&text).unwrap();
        assert_eq!(Network::from_file(&file, &no_names).unwrap(), network);
    }
}

#[test]
fn a_data_item_or_key_listed_twice_is_refused() {
    let name = |n: u8| base64_encode(&[n; 32]);
    let ad = |n: u8, private: bool| serde_json::json!({"name": name(n), "isPrivate": private, "version": 0, "filterType": "BlackList"});
    let parse = |value: serde_json::Value| {
        let file: StateFile = serde_json::from_value(value).unwrap();
        Network::from_file(&file, &no_names).map_err(|misfit| misfit.to_string())
    };
    let format = STATE_FORMAT;
    assert!(parse(
        serde_json::json!({"format": format, "appendableData": [ad(1, false), ad(1, true)]})
    )
    .is_ok());
    let error = parse(serde_json::json!({"format": format, "appendableData": [ad(1, false), ad(2, false), ad(1, false)]})).unwrap_err();
    assert!(
        error.starts_with("appendableData[2]: appendableData[0] has the same name"),
        "{error}"
    );
    let sd = |tag: u64| serde_json::json!({"name": name(3), "typeTag": tag, "version": 0});
    assert!(
        parse(serde_json::json!({"format": format, "structuredData": [sd(500), sd(501)]})).is_ok()
    );
    let error = parse(serde_json::json!({"format": format, "structuredData": [sd(500), sd(500)]}))
        .unwrap_err();
    assert!(
        error.starts_with("structuredData[1]: structuredData[0] has the same name"),
        "{error}"
    );
    let item = serde_json::json!({"structuredData": {"name": name(4), "typeTag": 500}});
    let mut twice = ad(5, false);
    twice["data"] = serde_json::json!([item, item]);
    let error =
        parse(serde_json::json!({"format": format, "appendableData": [twice]})).unwrap_err();
    assert_eq!(
        error,
        "appendableData[0].data[1]: the same item as data[0]; list each once"
    );
    // Two sealings of one item are two items, in private data only.
    let resealed =
        serde_json::json!({"structuredData": {"name": name(4), "typeTag": 500}, "seal": 2});
    let mut private = ad(5, true);
    private["data"] = serde_json::json!([item, resealed]);
    let network = parse(serde_json::json!({"format": format, "appendableData": [private]}));
    assert_eq!(network.unwrap().appendable_data[0].data.len(), 2);
    let mut public = ad(5, false);
    public["data"] = serde_json::json!([resealed]);
    let error =
        parse(serde_json::json!({"format": format, "appendableData": [public]})).unwrap_err();
    assert_eq!(
        error,
        "appendableData[0].data[0].seal: a seal is for the items of private data (`isPrivate`: \
         true) only"
    );
    let mut keys = ad(5, false);
    keys["filterKeys"] = serde_json::json!([name(7), name(6), name(6)]);
    assert_eq!(
        parse(serde_json::json!({"format": format, "appendableData": [keys]})).unwrap_err(),
        "appendableData[0].filterKeys[2]: the same key as filterKeys[1]; list each once"
    );
    // A field given twice is refused by the parser itself.
    let text = format!(r#"{{"format":"{format}","format":"{format}"}}"#);
    assert!(serde_json::from_str::<StateFile>(&text).is_err());
}

#[test]
fn state_file_fields() {
    let text = r#"{"format":"safe-ad-emulator-state/1","appendableData":[
        {"name":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","version":2,"filterType":"BlackList",
         "data":[{"structuredData":{"name":"AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=","typeTag":500}}]}]}"#;
    let file: StateFile = serde_json::from_str(text).unwrap();
    let ad = ad_from(&file.appendable_data[0], &[]).unwrap();
    assert_eq!((ad.version, ad.data.len(), ad.key.private), (2, 1, false));
    assert!(serde_json::from_str::<StateFile>(r#"{"format":"x","extra":1}"#).is_err());
    let mut bad = file.appendable_data[0].clone();
    bad.filter_type = "WHITE_LIST".into();
    assert!(ad_from(&bad, &[]).is_err());
}

/// Every error names the whole path to the value at fault, innermost last, whether the
/// conversion found it or serde did; a missing, unknown or repeated field is said at its object.
#[test]
fn errors_name_the_whole_path_to_the_value() {
    let name = base64_encode(&[1; 32]);
    let state = |entries: &str| format!(r#"{{"format":"{STATE_FORMAT}",{entries}}}"#);
    let ad = |fields: &str| {
        format!(r#"{{"name":"{name}","version":0,"filterType":"BlackList"{fields}}}"#)
    };
    let cases = [
        (
            state(&format!(
                r#""appendableData":[{},{}]"#,
                ad(""),
                ad(r#","isPrivate":true,"data":[{"structuredData":{"name":"abc","typeTag":500}}]"#)
            )),
            "appendableData[1].data[0].structuredData.name: `abc` is not base64 of 32 bytes",
        ),
        (
            state(&format!(
                r#""appendableData":[{}]"#,
                ad(r#","deletedData":[{"appendableData":{"name":"x"}}]"#)
            )),
            "appendableData[0].deletedData[0].appendableData.name: `x` is not base64 of 32 bytes",
        ),
        (
            state(&format!(
                r#""appendableData":[{}]"#,
                ad(r#","data":[{"immutableData":{"name":"y"},"signKey":"z"}]"#)
            )),
            "appendableData[0].data[0].immutableData.name: `y` is not base64 of 32 bytes",
        ),
        (
            state(r#""appendableData":[{"name":"n","version":"one","filterType":"BlackList"}]"#),
            r#"appendableData[0].version: invalid type: string "one", expected u64"#,
        ),
        (
            state(&format!(
                r#""appendableData":[{}]"#,
                ad(r#","filterKeys":["a",5]"#)
            )),
            "appendableData[0].filterKeys[1]: invalid type: integer `5`, expected a string",
        ),
        (
            state(&format!(
                r#""appendableData":[{}]"#,
                ad(r#","filterKeys":["a"]"#)
            )),
            "appendableData[0].filterKeys[0]: `a` is not base64 of 32 bytes",
        ),
        (
            state(&format!(
                "\"appendableData\":[\n  {},\n  {}\n]",
                ad(""),
                ad(r#","data":[{"structuredData":{"name":"n"}}]"#)
            )),
            "appendableData[1].data[0].structuredData: missing field `typeTag`",
        ),
        (
            state(r#""appendableData":[5]"#),
            "appendableData[0]: invalid type: integer `5`, expected an object",
        ),
        (
            state(&format!(
                r#""appendableData":[{}]"#,
                ad(r#","filterType":"x""#)
            )),
            "appendableData[0]: duplicate field `filterType`",
        ),
        (
            state(&format!(
                r#""structuredData":[{{"name":"{name}","typeTag":500,"version":0,"data":["AA==","%"]}}]"#
            )),
            "structuredData[0].data[1]: `%` is not base64",
        ),
        (
            state(r#""immutableData":[{"cipher":"PLAIN","content":"aGk=","name":{"a":[1]}}]"#),
            "immutableData[0].name: invalid type: map, expected a string",
        ),
        (
            state(&format!(
                r#""appendableData":[{}]"#,
                ad(r#","filterKeys":[ {"a":1}]"#)
            )),
            "appendableData[0].filterKeys[0]: invalid type: map, expected a string",
        ),
        (
            state(r#""immutableData":[{"cipher":"ROT13","content":"aGk="}]"#),
            "immutableData[0].cipher: `ROT13` is none of `PLAIN`, `SYMMETRIC` and `ASYMMETRIC`",
        ),
        (
            r#"{"format":"safe-ad-emulator-state/0"}"#.to_owned(),
            "format: `safe-ad-emulator-state/0` is not `safe-ad-emulator-state/1`",
        ),
    ];
    for (text, says) in cases {
        assert_eq!(
            parse_state(text.as_bytes(), &no_names).unwrap_err(),
            says,
            "{text}"
        );
    }
}

/// A save stores version + 1: a version of 2^64 - 1 could never be saved again, and is refused
/// with its path; one less, the last a save reaches, loads.
#[test]
fn a_version_no_save_can_follow_is_refused() {
    let name = base64_encode(&[2; 32]);
    for (list, entry) in [
        ("appendableData", r#""filterType":"BlackList""#),
        ("structuredData", r#""typeTag":500"#),
    ] {
        let text = |version: u64| {
            format!(
                r#"{{"format":"{STATE_FORMAT}","{list}":[{{"name":"{name}","version":{version},{entry}}}]}}"#
            )
        };
        assert!(parse_state(text(u64::MAX - 1).as_bytes(), &no_names).is_ok());
        assert_eq!(
            parse_state(text(u64::MAX).as_bytes(), &no_names).unwrap_err(),
            format!(
                "{list}[0].version: 18446744073709551615 is past the last version a save \
                 reaches, 18446744073709551614 (a save stores version + 1)"
            )
        );
    }
}

/// `safe-ad capture`'s record of what it left out is read past: any JSON in it, checked
/// nowhere, and not written back; any other unknown field is still refused.
#[test]
fn left_out_is_read_past_and_not_written_back() {
    let name = base64_encode(&[7; 32]);
    let text = format!(
        r#"{{"format":"safe-ad-emulator-state/1","appendableData":[{{"name":"{name}","version":1,"filterType":"BlackList"}}],"leftOut":[{{"what":"x","why":"y"}},3,null]}}"#
    );
    let network = parse_state(text.as_bytes(), &no_names).unwrap();
    assert_eq!(network.appendable_data.len(), 1);
    let saved = serde_json::to_string(&network.to_file()).unwrap();
    assert!(!saved.contains("leftOut"), "{saved}");
    assert_eq!(left_out_count(text.as_bytes()), 3);
    assert_eq!(left_out_count(saved.as_bytes()), 0);
    let other = text.replace("leftOut", "leftOver");
    assert!(parse_state(other.as_bytes(), &no_names)
        .unwrap_err()
        .contains("leftOver"));
}

/// The cipher that keeps an immutable data's name is found for each of the three, and none for
/// a name the emulator would not give that content.
#[test]
fn the_cipher_that_keeps_a_name_is_found() {
    for cipher in [Cipher::Plain, Cipher::Symmetric, Cipher::Asymmetric] {
        let data = Immutable::new(cipher, b"a message"[..].into());
        assert_eq!(
            fixture_cipher(&data.name, b"a message"),
            Some(cipher.as_str())
        );
    }
    assert_eq!(fixture_cipher(&[9; 32], b"a message"), None);
}

/// Users and keys named by user: a file keeps each user's key, names the owner and the signer of
/// an item by user, and writes back what it read; a key no user holds is written as a key, and
/// the first user's key held by no named user is left out, as before there were users.
#[test]
fn users_keep_their_keys_and_name_owners_and_signers() {
    let bob = base64_encode(&[2; 32]);
    let text = serde_json::json!({
        "format": STATE_FORMAT,
        "users": [{"name": "bob", "signKey": bob}],
        "appendableData": [{
            "name": base64_encode(&[1; 32]), "version": 0, "filterType": "WhiteList",
            "filterKeys": [bob], "owner": "bob",
            "data": [
                {"immutableData": {"name": base64_encode(&[3; 32])}, "signedBy": "carol"},
                {"immutableData": {"name": base64_encode(&[4; 32])}, "signKey": base64_encode(&[9; 32])},
                {"immutableData": {"name": base64_encode(&[5; 32])}}
            ]
        }]
    })
    .to_string();
    // carol comes from the command line: new, and first, so the emulator's own key.
    let named = vec!["carol".to_owned()];
    let start = |known: &[User]| Ok(roster(&named, known));
    let network = parse_state(text.as_bytes(), &start).unwrap();
    let names: Vec<_> = network.users.iter().map(|u| (u.called(), u.key)).collect();
    assert_eq!(
        names,
        [
            ("carol", crate::launcher::state::USER_KEY),
            ("bob", [2; 32])
        ]
    );
    let ad = &network.appendable_data[0];
    assert_eq!(ad.owner, [2; 32]);
    let signers: Vec<_> = ad.data.iter().map(|item| item.signer).collect();
    assert_eq!(
        signers,
        [
            crate::launcher::state::USER_KEY,
            [9; 32],
            crate::launcher::state::USER_KEY
        ]
    );
    // Written back: users listed, keys named by user where a named user holds them.
    let written = serde_json::to_value(network.to_file()).unwrap();
    assert_eq!(written["users"][0]["name"], "carol");
    assert_eq!(written["users"][1]["signKey"], bob);
    let ad = &written["appendableData"][0];
    assert_eq!(ad["owner"], "bob");
    assert!(ad.get("ownerKey").is_none());
    assert_eq!(ad["data"][0]["signedBy"], "carol");
    assert_eq!(ad["data"][1]["signKey"], base64_encode(&[9; 32]));
    assert_eq!(ad["data"][2]["signedBy"], "carol");
    // And it reads back as the same network.
    let again = parse_state(written.to_string().as_bytes(), &no_names).unwrap();
    assert_eq!(again, network);
    // Without users, nothing of them is written: the file a one-user emulator always wrote.
    let plain = parse_state(
        serde_json::json!({"format": STATE_FORMAT, "appendableData": [{"name": base64_encode(&[1; 32]), "version": 0, "filterType": "BlackList", "data": [{"immutableData": {"name": base64_encode(&[3; 32])}}]}]}).to_string().as_bytes(),
        &no_names,
    )
    .unwrap();
    let written = serde_json::to_string(&plain.to_file()).unwrap();
    assert!(
        !written.contains("users") && !written.contains("owner") && !written.contains("sign"),
        "{written}"
    );
}

#[test]
fn users_and_the_keys_they_name_are_checked() {
    let ad = |extra: serde_json::Value| {
        let mut ad = serde_json::json!({"name": base64_encode(&[1; 32]), "version": 0, "filterType": "BlackList"});
        ad.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        ad
    };
    let refused = |users: serde_json::Value, ads: serde_json::Value, says: &str| {
        let text =
            serde_json::json!({"format": STATE_FORMAT, "users": users, "appendableData": ads})
                .to_string();
        let error = parse_state(text.as_bytes(), &no_names).unwrap_err();
        assert!(error.contains(says), "{error}\nexpected: {says}");
    };
    let key = |n: u8| base64_encode(&[n; 32]);
    refused(
        serde_json::json!([{"name": "Bob", "signKey": key(2)}]),
        serde_json::json!([]),
        "users[0].name: `Bob` is not a user name",
    );
    refused(
        serde_json::json!([{"name": "bob", "signKey": key(0)}]),
        serde_json::json!([]),
        "users[0].signKey: 32 zero bytes",
    );
    refused(
        serde_json::json!([{"name": "bob", "signKey": key(2)}, {"name": "bob", "signKey": key(3)}]),
        serde_json::json!([]),
        "users[1]: the same name as users[0]",
    );
    refused(
        serde_json::json!([{"name": "bob", "signKey": key(2)}, {"name": "eve", "signKey": key(2)}]),
        serde_json::json!([]),
        "users[1]: the same sign key as users[0]",
    );
    refused(
        serde_json::json!([]),
        serde_json::json!([ad(serde_json::json!({"owner": "dave"}))]),
        "appendableData[0].owner: no user is named `dave`",
    );
    refused(
        serde_json::json!([{"name": "bob", "signKey": key(2)}]),
        serde_json::json!([ad(serde_json::json!({"owner": "bob", "ownerKey": key(2)}))]),
        "`ownerKey` and `owner` both name it",
    );
    refused(
        serde_json::json!([]),
        serde_json::json!([ad(
            serde_json::json!({"data": [{"immutableData": {"name": key(3)}, "signedBy": "x"}]})
        )]),
        "appendableData[0].data[0].signedBy: no user is named `x`",
    );
}
