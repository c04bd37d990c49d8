//! `show` against a wiremock launcher that serves launcher 0.11.0's real bytes (the layout of
//! `launcher-facts.md`, written out here by hand): each item is named from its data id's bytes
//! (kind, name, type tag), only the kind the bytes name is fetched, immutable data is read
//! through a reader, data not on the network is said, and every handle it takes is dropped.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use serde_json::json;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

use crate::harness::*;

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// An item of the scripted handle: its data id's bytes, its signer's key byte, and what the
/// launcher holds for it (`None`: not on the network).
#[derive(Clone)]
pub struct Item {
    pub data_id: Vec<u8>,
    pub signer: u8,
    pub content: Option<Vec<u8>>,
}

pub fn structured(name: u8, type_tag: u64, content: &[u8]) -> Item {
    let mut data_id = vec![0, 0, 0, 0];
    data_id.extend([name; 32]);
    data_id.extend(type_tag.to_le_bytes());
    Item {
        data_id,
        signer: 1,
        content: Some(content.to_vec()),
    }
}

pub fn with_variant(variant: u8, name: u8, content: Option<&[u8]>, signer: u8) -> Item {
    let mut data_id = vec![variant, 0, 0, 0];
    data_id.extend([name; 32]);
    Item {
        data_id,
        signer,
        content: content.map(<[u8]>::to_vec),
    }
}

/// A sign key as the launcher serialises it.
pub fn key_bytes(byte: u8) -> Vec<u8> {
    let mut bytes = 32u64.to_le_bytes().to_vec();
    bytes.extend([byte; 32]);
    bytes
}

/// A launcher holding handle 7 with `data` and `deleted` items; the user's own key is key 1.
/// Handle ids say what they stand for: 1000 + i data id of data item i, 2000 + i of deleted item
/// i, 3000 + the data id's number a fetched data or reader, 5000 + i signer of data item i,
/// 6000 + i of deleted item i, 9000 the user's key. It keeps the handles it gave and that were
/// not dropped ([`BytesLauncher::left_behind`]).
pub struct BytesLauncher {
    pub server: MockServer,
    live: Arc<Mutex<BTreeSet<u64>>>,
}

impl BytesLauncher {
    pub fn left_behind(&self) -> BTreeSet<u64> {
        self.live.lock().unwrap().clone()
    }
}

pub async fn bytes_launcher(data: Vec<Item>, deleted: Vec<Item>) -> BytesLauncher {
    let server = MockServer::start().await;
    let live = Arc::new(Mutex::new(BTreeSet::new()));
    let (data_length, deleted_length) = (data.len(), deleted.len());
    let item = move |id: u64| -> Option<Item> {
        match id {
            1000..=1999 => data.get((id - 1000) as usize).cloned(),
            2000..=2999 => deleted.get((id - 2000) as usize).cloned(),
            _ => None,
        }
    };
    let answer = move |method: &str, path: &str| -> (Option<u64>, ResponseTemplate) {
        let handle = |n: u64| {
            (
                Some(n),
                ResponseTemplate::new(200).set_body_json(json!({ "handleId": n })),
            )
        };
        let raw = |bytes: Vec<u8>| {
            (
                None,
                ResponseTemplate::new(200).set_body_raw(bytes, "application/octet-stream"),
            )
        };
        let missing = || {
            (
                None,
                ResponseTemplate::new(404).set_body_json(json!({
                    "errorCode": -18,
                    "description": "CoreError::GetFailure::GetError::NoSuchData"
                })),
            )
        };
        let other_kind = || {
            (
                None,
                ResponseTemplate::new(400).set_body_json(json!({
                    "errorCode": -5,
                    "description": "CoreError::ReceivedUnexpectedData"
                })),
            )
        };
        let ok = || (None, ResponseTemplate::new(200).set_body_string("OK"));
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let number = |s: &str| s.parse::<u64>().unwrap_or(u64::MAX);
        match (method, parts.as_slice()) {
            ("GET", ["appendable-data", "metadata", "7"]) => (
                None,
                ResponseTemplate::new(200).set_body_json(json!({
                    "isOwner": true, "version": 4, "filterType": "BlackList",
                    "filterLength": 0, "dataLength": data_length,
                    "deletedDataLength": deleted_length,
                })),
            ),
            ("GET", ["appendable-data", "serialise", "7"]) => raw(
                crate::harness::http::appendable_bytes([0x77; 32], 4, false, [1; 32]),
            ),
            ("GET", ["sign-key"]) => handle(9000),
            ("GET", ["sign-key", "serialise", n]) => match number(n) {
                9000 => raw(key_bytes(1)),
                n @ 5000..=6999 => raw(key_bytes(item(n - 4000).map_or(0, |i| i.signer))),
                _ => missing(),
            },
            ("GET", ["appendable-data", "sign-key", "deleted-data", "7", i]) => {
                handle(6000 + number(i))
            }
            ("GET", ["appendable-data", "sign-key", "7", i]) => handle(5000 + number(i)),
            ("GET", ["appendable-data", "deleted-data", "7", i]) => handle(2000 + number(i)),
            ("GET", ["appendable-data", "7", i]) => handle(1000 + number(i)),
            ("GET", ["data-id", n]) => match item(number(n)) {
                Some(item) => raw(item.data_id),
                None => missing(),
            },
            ("GET", ["structured-data", "handle", n]) => match item(number(n)) {
                Some(item) if item.data_id[0] == 0 && item.content.is_some() => (
                    Some(3000 + number(n)),
                    ResponseTemplate::new(200).set_body_json(json!({
                        "handleId": 3000 + number(n), "isOwner": false, "version": 0,
                    })),
                ),
                Some(item) if item.data_id[0] == 0 => missing(),
                _ => other_kind(),
            },
            ("GET", ["structured-data", n]) | ("GET", ["immutable-data", n]) => {
                match item(number(n).saturating_sub(3000)).and_then(|i| i.content) {
                    Some(content) => raw(content),
                    None => missing(),
                }
            }
            ("GET", ["appendable-data", "handle", n]) => match item(number(n)) {
                Some(item) if item.data_id[0] >= 2 && item.content.is_some() => (
                    Some(3000 + number(n)),
                    ResponseTemplate::new(200).set_body_json(json!({
                        "handleId": 3000 + number(n), "isOwner": false, "version": 1,
                        "filterType": "WhiteList", "dataLength": 2, "deletedDataLength": 0,
                    })),
                ),
                _ => missing(),
            },
            ("GET", ["immutable-data", "reader", n]) => match item(number(n)) {
                Some(Item {
                    data_id,
                    content: Some(content),
                    ..
                }) if data_id[0] == 1 => (
                    Some(3000 + number(n)),
                    ResponseTemplate::new(200).set_body_json(json!({
                        "handleId": 3000 + number(n), "size": content.len(),
                    })),
                ),
                _ => missing(),
            },
            ("DELETE", _) | ("PUT", ["appendable-data", "restore", ..]) => ok(),
            _ => (
                None,
                ResponseTemplate::new(404).set_body_json(json!({
                    "errorCode": 404, "description": "Endpoint Not Found"
                })),
            ),
        }
    };
    let kept = live.clone();
    let respond = move |request: &Request| -> ResponseTemplate {
        let path = request.url.path();
        let method = request.method.as_str();
        let (given, template) = answer(method, path);
        let mut live = kept.lock().unwrap();
        if let Some(given) = given {
            live.insert(given);
        }
        if method == "DELETE" {
            if let Some(n) = path.rsplit('/').next().and_then(|n| n.parse::<u64>().ok()) {
                live.remove(&n);
            }
        }
        template
    };
    Mock::given(any())
        .respond_with(respond)
        .mount(&server)
        .await;
    BytesLauncher { server, live }
}

/// Five items, one of each kind the bytes name, and one that is not on the network.
fn every_kind() -> (Vec<Item>, Vec<Item>) {
    (
        vec![
            structured(0x11, 15000, b"hello"),
            with_variant(1, 0x22, Some(b"an inbox message"), 1),
            with_variant(2, 0x33, Some(b""), 2),
            with_variant(1, 0x44, None, 1),
        ],
        vec![with_variant(3, 0x55, Some(b""), 1)],
    )
}

fn name(byte: u8) -> String {
    b64(&[byte; 32])
}

#[tokio::test]
async fn show_names_each_item_from_its_data_ids_bytes() {
    let (data, deleted) = every_kind();
    let launcher = bytes_launcher(data, deleted).await;
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&launcher.server.uri())
        .args(["show", "--jobs", "1", "7"])
        .run();
    let other = {
        let digest = ring::digest::digest(&ring::digest::SHA256, &key_bytes(2));
        digest.as_ref()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let lines: Vec<String> = output
        .success()
        .stdout()
        .lines()
        .filter(|line| !line.starts_with("    data id "))
        .map(str::to_string)
        .collect();
    assert_eq!(
        lines,
        vec![
            "handle 7: version 4, owner yes, data 4, deleted 1, filter BlackList (0 keys)".to_string(),
            format!("  name {}, public, owner you", name(0x77)),
            format!("  data 0: structured-data {}, type tag 15000, version 0, signed by you: \"hello\"", name(0x11)),
            format!("  data 1: immutable-data {}, 16 bytes, signed by you: \"an inbox message\"", name(0x22)),
            format!("  data 2: appendable-data {}, version 1, data 2, deleted 0, signed by {other}", name(0x33)),
            format!("  data 3: immutable-data {}, not on the network, signed by you", name(0x44)),
            format!("  deleted 0: private-appendable-data {}, version 1, data 2, deleted 0, signed by you", name(0x55)),
        ]
    );
    assert_eq!(
        launcher.left_behind(),
        BTreeSet::new(),
        "handles left behind"
    );
    // The bytes make the other lookups unneeded: no structured-data fetch for data that is not
    // structured data (today's show asked for each item's structured data first).
    let lines = request_lines(&launcher.server).await;
    let structured_fetches: Vec<&String> = lines
        .iter()
        .filter(|line| line.starts_with("GET /structured-data/handle/"))
        .collect();
    assert_eq!(structured_fetches, vec!["GET /structured-data/handle/1000"]);
    assert!(
        !lines
            .iter()
            .any(|l| l == "GET /appendable-data/handle/1001"),
        "{lines:?}"
    );
}

#[tokio::test]
async fn show_json_gives_kind_name_type_tag_and_text_from_the_bytes() {
    let (data, deleted) = every_kind();
    let launcher = bytes_launcher(data, deleted).await;
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&launcher.server.uri())
        .args(["show", "--json", "--full", "7"])
        .run();
    let object = &output.success().json_lines()[0];
    let data = object["data"].as_array().expect("data");
    assert_eq!(data[0]["kind"], "structured-data");
    assert_eq!(data[0]["name"], name(0x11));
    assert_eq!(data[0]["type_tag"], 15000);
    assert_eq!(data[0]["text"], "hello");
    assert_eq!(data[0]["content_base64"], b64(b"hello"));
    assert_eq!(data[1]["kind"], "immutable-data");
    assert_eq!(data[1]["type_tag"], serde_json::Value::Null);
    assert_eq!(data[1]["size"], 16);
    assert_eq!(data[1]["text"], "an inbox message");
    assert_eq!(data[1]["on_network"], true);
    assert_eq!(data[2]["kind"], "appendable-data");
    assert_eq!(data[3]["kind"], "immutable-data");
    assert_eq!(data[3]["on_network"], false);
    assert!(
        data[3].get("error").is_none(),
        "not on the network is not a failure: {}",
        data[3]
    );
    assert_eq!(object["deleted_data"][0]["kind"], "private-appendable-data");
    assert_eq!(object["ok"], true);
    assert_eq!(
        launcher.left_behind(),
        BTreeSet::new(),
        "handles left behind"
    );
}

#[tokio::test]
async fn a_data_id_in_another_layout_is_said_and_the_launcher_asked() {
    // launcher 0.10's big-endian bytes of structured data: not guessed at.
    let mut old = vec![0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32];
    old.extend([0x66; 32]);
    old.extend(500u64.to_be_bytes());
    let item = Item {
        data_id: old,
        signer: 1,
        content: Some(b"x".to_vec()),
    };
    let launcher = bytes_launcher(vec![item], vec![]).await;
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&launcher.server.uri())
        .args(["show", "7"])
        .run();
    output
        .success()
        .stdout_has("  data 0: structured data, version 0 (its data id is not in launcher 0.11.0's layout), signed by you: \"x\"");
    let json = sandbox
        .safe_ad()
        .launcher(&launcher.server.uri())
        .args(["show", "--json", "7"])
        .run();
    let item = &json.success().json_lines()[0]["data"][0];
    assert_eq!(item["name"], serde_json::Value::Null);
    assert!(
        item["decode_error"]
            .as_str()
            .unwrap_or("")
            .starts_with("not a data id in launcher 0.11.0's layout"),
        "{item}"
    );
}

#[tokio::test]
async fn selectors_read_the_bytes_and_fetch_no_data() {
    let (data, deleted) = every_kind();
    let launcher = bytes_launcher(data, deleted).await;
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .launcher(&launcher.server.uri())
        .args(["remove", "7", "--kind", "immutable-data"])
        .run()
        .success()
        .stdout_is("remove 7 index 3: ok\nremove 7 index 1: ok\n")
        .stderr_has(&format!(
            "safe-ad: removing 7 data 3: immutable-data {}\nsafe-ad: removing 7 data 1: immutable-data {}\n",
            name(0x44),
            name(0x22)
        ));
    let lines = request_lines(&launcher.server).await;
    // Kind and name come from the bytes: no data was fetched, no signer read.
    assert!(
        !lines.iter().any(|line| line.contains("/structured-data/")
            || line.contains("/immutable-data/")
            || line.starts_with("GET /appendable-data/handle/")
            || line.contains("/sign-key")),
        "{lines:?}"
    );
    assert_eq!(
        launcher.left_behind(),
        BTreeSet::new(),
        "handles left behind"
    );
    let launcher = bytes_launcher(every_kind().0, every_kind().1).await;
    sandbox
        .safe_ad()
        .launcher(&launcher.server.uri())
        .args(["restore", "7", "--name", &name(0x55)])
        .run()
        .success()
        .stdout_is("restore 7 index 0: ok\n");
    let launcher = bytes_launcher(every_kind().0, every_kind().1).await;
    sandbox
        .safe_ad()
        .launcher(&launcher.server.uri())
        .args(["remove", "7", "--name", &name(0x55), "--require-match"])
        .run()
        .code(4);
}

#[tokio::test]
async fn auth_whoami_prints_your_keys_fingerprint_and_gives_the_key_back() {
    let launcher = bytes_launcher(vec![], vec![]).await;
    let sandbox = Sandbox::new();
    let digest = ring::digest::digest(&ring::digest::SHA256, &key_bytes(1));
    let fingerprint: String = digest.as_ref()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    sandbox
        .safe_ad()
        .launcher(&launcher.server.uri())
        .args(["auth", "whoami"])
        .run()
        .success()
        .stdout_is(&format!("{fingerprint}\n"));
    let json = sandbox
        .safe_ad()
        .launcher(&launcher.server.uri())
        .args(["auth", "whoami", "--json"])
        .run();
    assert_eq!(
        json.success().json_lines(),
        vec![json!({"fingerprint": fingerprint, "key": b64(&[1; 32])})]
    );
    assert_eq!(
        request_lines(&launcher.server).await,
        [
            "GET /sign-key",
            "GET /sign-key/serialise/9000",
            "DELETE /sign-key/9000",
            "GET /sign-key",
            "GET /sign-key/serialise/9000",
            "DELETE /sign-key/9000"
        ]
    );
    assert_eq!(launcher.left_behind(), BTreeSet::new());
}

/// `auth whoami --key`: the key's own 32 bytes, base64, alone on stdout: what another person
/// gives `filter add` (as `--json`'s `key`), with the sign-key handle given back.
#[tokio::test]
async fn auth_whoami_key_prints_the_key_another_person_pastes() {
    let launcher = bytes_launcher(vec![], vec![]).await;
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .launcher(&launcher.server.uri())
        .args(["auth", "whoami", "--key"])
        .run()
        .success()
        .stdout_is(&format!("{}\n", b64(&[1; 32])));
    assert_eq!(
        request_lines(&launcher.server).await,
        [
            "GET /sign-key",
            "GET /sign-key/serialise/9000",
            "DELETE /sign-key/9000"
        ]
    );
    assert_eq!(launcher.left_behind(), BTreeSet::new());
}

/// Serialised bytes in another layout (launcher 0.10's, or garbage) leave the name unknown and
/// said so; they are no failure of `show`, which read everything it shows.
#[tokio::test]
async fn bytes_that_do_not_decode_leave_the_name_unknown_and_show_succeeds() {
    let (data, deleted) = every_kind();
    let launcher = bytes_launcher(data, deleted).await;
    Mock::given(wiremock::matchers::path("/appendable-data/serialise/7"))
        .respond_with(
            ResponseTemplate::new(200).set_body_raw(vec![0xff; 90], "application/octet-stream"),
        )
        .with_priority(1)
        .mount(&launcher.server)
        .await;
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .launcher(&launcher.server.uri())
        .args(["show", "7"])
        .run();
    let second = output
        .success()
        .stdout()
        .lines()
        .nth(1)
        .unwrap_or_default()
        .to_owned();
    output.check(
        second.starts_with(
            "  name unknown: its serialised bytes are not in launcher 0.11.0's layout (",
        ),
        "the line under the header says the name is not known, and why",
    );
    let json = sandbox
        .safe_ad()
        .launcher(&launcher.server.uri())
        .args(["show", "--json", "7"])
        .run();
    let object = &json.success().json_lines()[0];
    assert_eq!(object["ok"], true, "{object}");
    assert_eq!(object["name"], serde_json::Value::Null, "{object}");
    assert_eq!(object["private"], serde_json::Value::Null, "{object}");
    assert_eq!(object["owners"], serde_json::Value::Null, "{object}");
}
