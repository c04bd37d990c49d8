//! Immutable data, cipher options and the structured-data delete and unclaim routes, as SAFE
//! Launcher 0.11.0's controllers answered them: the cases of the launcher's own
//! `test/api/immutable_data.spec.js` and `structured_data.spec.js` (which this repository does not
//! run: no JavaScript test runs here), written again in Rust, plus the Range rules of the read,
//! the demo inbox and immutable data in the emulator's own network routes.

use std::io::{Read, Write};
use std::net::TcpStream;

use serde_json::json;

use crate::harness::http::{b64, name, parse, Resp};
use crate::harness::in_process::Emu;
use crate::harness::DEADLINE;

const LOW_LEVEL: &str = "Low level api access is not granted";
const BAD_SELF_ENCRYPTOR: &str = "FfiError::InvalidSelfEncryptorHandle";

/// A writer's bytes with the startup token (or `token`), as `text/plain`, as the launcher's
/// tests sent them.
fn write(emu: &Emu, token: Option<&str>, writer: u64, content: &[u8]) -> Resp {
    emu.request(
        "POST",
        &format!("/immutable-data/{writer}"),
        token,
        Some(("text/plain", content)),
    )
}

/// Writes `content` and closes the writer with cipher options of `kind`: (writer, cipher, data
/// id).
fn stored(emu: &Emu, kind: &str, content: &[u8]) -> (u64, u64, u64) {
    let cipher = emu.authed("GET", &format!("/cipher-opts/{kind}")).handle();
    let writer = emu.authed("GET", "/immutable-data/writer").handle();
    write(emu, Some(&emu.token), writer, content).ok();
    let id = emu
        .authed("PUT", &format!("/immutable-data/{writer}/{cipher}"))
        .handle();
    (writer, cipher, id)
}

/// A reader of `id`: (handle, size).
fn reader(emu: &Emu, token: Option<&str>, id: u64) -> (u64, u64) {
    let value = emu
        .request("GET", &format!("/immutable-data/reader/{id}"), token, None)
        .json();
    assert_eq!(value.as_object().map(|o| o.len()), Some(2), "{value}");
    (
        value["handleId"].as_u64().expect("handleId"),
        value["size"].as_u64().expect("size"),
    )
}

fn read(emu: &Emu, handle: u64, range: Option<&str>) -> Resp {
    let path = format!("/immutable-data/{handle}");
    match range {
        None => emu.anon("GET", &path),
        Some(range) => {
            crate::harness::http::send(emu.addr, "GET", &path, &[("Range", range)], None)
        }
    }
}

#[test]
fn writers_need_a_token_with_low_level_api() {
    let emu = Emu::empty();
    let without = emu.token_with(r#"["SAFE_DRIVE_ACCESS"]"#);
    for (method, path) in [
        ("GET", "/immutable-data/writer"),
        ("POST", "/immutable-data/0"),
        ("PUT", "/immutable-data/0/0"),
        ("DELETE", "/immutable-data/writer/0"),
    ] {
        emu.anon(method, path)
            .error_is(401, 400, "Unauthorised access");
        emu.request(method, path, Some(&without), None)
            .error_is(403, 400, LOW_LEVEL);
    }
    let writer = emu.authed("GET", "/immutable-data/writer").handle();
    emu.authed("DELETE", &format!("/immutable-data/writer/{writer}"))
        .ok();
    emu.authed("DELETE", &format!("/immutable-data/writer/{writer}"))
        .error_is(400, -1516, BAD_SELF_ENCRYPTOR);
}

#[test]
fn writes_need_a_live_writer_and_a_content_length() {
    let emu = Emu::empty();
    write(&emu, Some(&emu.token), 1234, b"Test sample").error_is(400, -1516, BAD_SELF_ENCRYPTOR);
    let writer = emu.authed("GET", "/immutable-data/writer").handle();
    write(&emu, Some(&emu.token), writer, b"Test sample").is(200, "text/plain", "OK");
    // An empty body is OK at once, whatever the handle.
    write(&emu, Some(&emu.token), 1234, b"").ok();
    // A chunked body has no Content-Length: refused.
    let mut stream = TcpStream::connect(emu.addr).expect("connect");
    stream.set_read_timeout(Some(DEADLINE)).expect("timeout");
    let head = format!(
        "POST /immutable-data/{writer} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\
         Authorization: Bearer {}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        emu.token
    );
    stream.write_all(head.as_bytes()).expect("write");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("answer");
    parse(&raw).error_is(400, 400, "Content-Length header is not present");
    // Nothing of it was written: closing gives the 11 bytes.
    let plain = emu.authed("GET", "/cipher-opts/PLAIN").handle();
    let id = emu
        .authed("PUT", &format!("/immutable-data/{writer}/{plain}"))
        .handle();
    assert_eq!(reader(&emu, None, id).1, 11);
}

#[test]
fn closing_gives_a_data_id_and_leaves_the_writer_live_and_empty() {
    let emu = Emu::empty();
    emu.authed("PUT", "/immutable-data/1234/0")
        .error(400, -1516);
    let writer = emu.authed("GET", "/immutable-data/writer").handle();
    write(&emu, Some(&emu.token), writer, b"Test sample").ok();
    for kind in ["PLAIN", "SYMMETRIC", "plain"] {
        let cipher = emu.authed("GET", &format!("/cipher-opts/{kind}")).handle();
        let id = emu
            .authed("PUT", &format!("/immutable-data/{writer}/{cipher}"))
            .handle();
        emu.anon("DELETE", &format!("/data-id/{id}")).ok();
        emu.anon("DELETE", &format!("/cipher-opts/{cipher}")).ok();
        emu.anon("DELETE", &format!("/cipher-opts/{cipher}"))
            .error_is(400, -1517, "FfiError::InvalidCipherOptHandle");
    }
    // Cipher options that are not a number: the controller's own plain ones. (The first close
    // emptied the writer, as self_encryption's small encryptor did: see `emulator_core`.)
    write(&emu, Some(&emu.token), writer, b"Test sample").ok();
    let id = emu
        .authed("PUT", &format!("/immutable-data/{writer}/none"))
        .handle();
    assert_eq!(reader(&emu, None, id).1, 11);
    emu.authed("PUT", &format!("/immutable-data/{writer}/999"))
        .error_is(400, -1517, "FfiError::InvalidCipherOptHandle");
}

#[test]
fn readers_read_what_was_written_with_ranges_as_the_launcher_cut_them() {
    let emu = Emu::empty();
    emu.anon("GET", "/immutable-data/reader/1234").error_is(
        400,
        -1514,
        "FfiError::InvalidDataIdHandle",
    );
    emu.anon("GET", "/immutable-data/1234")
        .error_is(400, -1516, BAD_SELF_ENCRYPTOR);
    let (_, _, id) = stored(&emu, "PLAIN", b"Test sample");
    let (handle, size) = reader(&emu, None, id);
    assert_eq!(size, 11);
    let whole = read(&emu, handle, None);
    assert_eq!((whole.status, whole.body.as_str()), (200, "Test sample"));
    assert_eq!(whole.content_type, "application/octet-stream");
    assert_eq!(whole.header("accept-ranges"), Some("bytes"));
    assert_eq!(whole.header("content-range"), Some("bytes 0-11/11"));
    assert_eq!(whole.header("content-length"), Some("11"));
    // A range's end past the size is cut to it; the end is exclusive, as the controller had it.
    let past = read(&emu, handle, Some("bytes=0-21"));
    assert_eq!((past.status, past.body.as_str()), (206, "Test sample"));
    let part = read(&emu, handle, Some("bytes=5-8"));
    assert_eq!((part.status, part.body.as_str()), (206, "sam"));
    assert_eq!(part.header("content-range"), Some("bytes 5-8/11"));
    let tail = read(&emu, handle, Some("Bytes=5-"));
    assert_eq!((tail.status, tail.body.as_str()), (206, "sample"));
    read(&emu, handle, Some("items=0-1")).error_is(400, 400, "invalid range specified");
    for bad in ["bytes=a-3", "bytes=8-2", "bytes=12-", "bytes=1-2,4-5"] {
        read(&emu, handle, Some(bad)).error_is(416, 400, "Invalid range specified");
    }
    emu.anon("DELETE", &format!("/immutable-data/reader/{handle}"))
        .ok();
    emu.anon("DELETE", &format!("/immutable-data/reader/{handle}"))
        .error_is(400, -1516, BAD_SELF_ENCRYPTOR);
    // A data id of other data that is on the network: -5; of nothing: -18.
    let ad = emu.create(1, json!({}));
    emu.authed("PUT", &format!("/appendable-data/{ad}")).ok();
    let other = emu
        .authed("GET", &format!("/appendable-data/data-id/{ad}"))
        .handle();
    emu.anon("GET", &format!("/immutable-data/reader/{other}"))
        .error_is(400, -5, "CoreError::ReceivedUnexpectedData");
}

#[test]
fn encrypted_data_is_read_by_the_user_only() {
    let emu = Emu::empty();
    let (_, _, id) = stored(&emu, "SYMMETRIC", b"Test sample");
    // A reader fetched with a token reads anonymously too (the launcher decrypted at the fetch).
    let (handle, _) = reader(&emu, Some(&emu.token), id);
    assert_eq!(read(&emu, handle, None).body, "Test sample");
    emu.anon("GET", &format!("/immutable-data/reader/{id}"))
        .error_is(400, -1520, "FfiError::OperationForbiddenForApp");
}

#[test]
fn cipher_options_by_kind_and_who_asks() {
    let emu = Emu::empty();
    // The controller read the session's app even for PLAIN: anonymously, a TypeError (its
    // words: `emulator_core`).
    emu.anon("GET", "/cipher-opts/PLAIN").error(400, 400);
    emu.anon("GET", "/cipher-opts/SYMMETRIC")
        .error_is(401, 400, "Unauthorised access");
    let without = emu.token_with("[]");
    emu.request("GET", "/cipher-opts/ASYMMETRIC/1", Some(&without), None)
        .error_is(403, 400, LOW_LEVEL);
    emu.request("GET", "/cipher-opts/plain", Some(&without), None)
        .handle();
    emu.authed("GET", "/cipher-opts/ASYMMETRIC").error_is(
        400,
        400,
        "'key' must be specified for Asymmetric encryption",
    );
    emu.authed("GET", "/cipher-opts/ASYMMETRIC/999").error_is(
        400,
        -1518,
        "FfiError::InvalidEncryptKeyHandle",
    );
    let private = emu.create(2, json!({"isPrivate": true}));
    let key = emu
        .authed("GET", &format!("/appendable-data/encrypt-key/{private}"))
        .handle();
    let cipher = emu
        .authed("GET", &format!("/cipher-opts/ASYMMETRIC/{key}"))
        .handle();
    emu.anon("DELETE", &format!("/cipher-opts/{cipher}")).ok();
    assert_eq!(emu.authed("GET", "/cipher-opts/OTHER").status, 400);
}

/// A structured data (type tag 500) saved on the network, fetched again through its data id as
/// the launcher's tests did: (its handle, the data id).
fn saved_sd(emu: &Emu, byte: u8, text: &[u8]) -> (u64, u64) {
    let body = json!({"name": name(byte), "typeTag": 500, "data": b64(text)}).to_string();
    let created = emu
        .request(
            "POST",
            "/structured-data",
            Some(&emu.token),
            Some(("application/json", body.as_bytes())),
        )
        .handle();
    emu.authed("PUT", &format!("/structured-data/{created}"))
        .ok();
    emu.anon("DELETE", &format!("/structured-data/handle/{created}"))
        .ok();
    let body = json!({"name": name(byte), "typeTag": 500}).to_string();
    let id = emu
        .json("POST", "/data-id/structured-data", None, &body)
        .handle();
    let handle = emu
        .authed("GET", &format!("/structured-data/handle/{id}"))
        .json()["handleId"]
        .as_u64()
        .expect("handleId");
    (handle, id)
}

#[test]
fn structured_data_is_deleted_then_claimed_again_at_the_next_version() {
    let emu = Emu::empty();
    emu.anon("DELETE", "/structured-data/1")
        .error_is(401, 400, "Unauthorized");
    emu.authed("DELETE", "/structured-data/1234").error_is(
        400,
        -1513,
        "FfiError::InvalidStructDataHandle",
    );
    let (handle, id) = saved_sd(&emu, 1, b"test structured data");
    emu.authed("DELETE", &format!("/structured-data/{handle}"))
        .ok();
    // Nothing left to read, and deleted data is not deleted again.
    assert_eq!(
        emu.anon("GET", &format!("/structured-data/{handle}"))
            .status,
        400
    );
    emu.authed("DELETE", &format!("/structured-data/{handle}"))
        .error_is(
            400,
            -26,
            "CoreError::MutationFailure::MutationError::InvalidOperation",
        );
    // Claimed by a PUT at the version after the deleted one.
    let deleted = emu
        .authed("GET", &format!("/structured-data/handle/{id}"))
        .json();
    let next = deleted["version"].as_u64().expect("version") + 1;
    let body = json!({"name": name(1), "typeTag": 500, "data": b64(b"claimed"), "version": next})
        .to_string();
    let claim = emu
        .request(
            "POST",
            "/structured-data",
            Some(&emu.token),
            Some(("application/json", body.as_bytes())),
        )
        .handle();
    emu.authed("PUT", &format!("/structured-data/{claim}")).ok();
    let fresh = emu
        .authed("GET", &format!("/structured-data/handle/{id}"))
        .json();
    assert_eq!(fresh["version"], next);
    let fresh = fresh["handleId"].as_u64().expect("handleId");
    assert_eq!(
        emu.anon("GET", &format!("/structured-data/{fresh}")).body,
        "claimed"
    );
}

#[test]
fn unclaimable_structured_data_stays_and_cannot_be_claimed() {
    let emu = Emu::empty();
    emu.anon("DELETE", "/structured-data/unclaim/1")
        .error_is(401, 400, "Unauthorised access");
    let without = emu.token_with("[]");
    emu.request("DELETE", "/structured-data/unclaim/1", Some(&without), None)
        .error_is(403, 400, LOW_LEVEL);
    emu.authed("DELETE", "/structured-data/unclaim/1234")
        .error_is(400, -1513, "FfiError::InvalidStructDataHandle");
    let (handle, id) = saved_sd(&emu, 2, b"test structured data");
    emu.authed("DELETE", &format!("/structured-data/unclaim/{handle}"))
        .ok();
    emu.anon("DELETE", &format!("/structured-data/handle/{handle}"))
        .ok();
    let fetched = emu
        .authed("GET", &format!("/structured-data/handle/{id}"))
        .json();
    let fetched = fetched["handleId"].as_u64().expect("handleId");
    emu.authed("GET", &format!("/structured-data/metadata/{fetched}"))
        .json();
    let body = json!({"name": name(2), "typeTag": 500, "data": b64(b"new")}).to_string();
    let again = emu
        .request(
            "POST",
            "/structured-data",
            Some(&emu.token),
            Some(("application/json", body.as_bytes())),
        )
        .handle();
    emu.authed("PUT", &format!("/structured-data/{again}"))
        .error_is(
            400,
            -23,
            "CoreError::MutationFailure::MutationError::DataExists",
        );
}

#[test]
fn the_demo_inbox_holds_immutable_data_one_of_them_binary() {
    let emu = Emu::demo();
    let meta = emu.meta(5);
    assert_eq!(
        (&meta["version"], &meta["dataLength"]),
        (&json!(1), &json!(3))
    );
    let mut binary = 0;
    for index in 0..3 {
        let id = emu
            .anon("GET", &format!("/appendable-data/5/{index}"))
            .handle();
        assert_eq!(
            emu.authed("GET", &format!("/data-id/{id}")).bytes[0],
            1,
            "immutable"
        );
        let (handle, _) = reader(&emu, None, id);
        let content = read(&emu, handle, None).bytes;
        binary += usize::from(std::str::from_utf8(&content).is_err());
    }
    assert_eq!(binary, 1);
}

#[test]
fn immutable_data_is_in_the_network_and_comes_back_after_a_reset() {
    let emu = Emu::empty();
    let (_, _, id) = stored(&emu, "PLAIN", &[0, 1, 2, 255]);
    let network = emu.authed("GET", "/_emulator/network");
    let file = network.json();
    assert_eq!(file["immutableData"][0]["cipher"], "PLAIN");
    assert_eq!(file["immutableData"][0]["content"], b64(&[0, 1, 2, 255]));
    let name = file["immutableData"][0]["name"].clone();
    emu.authed("POST", "/_emulator/reset/empty").json();
    // No handles after a reset, and nothing on the network.
    emu.anon("GET", &format!("/immutable-data/reader/{id}"))
        .error_is(400, -1514, "FfiError::InvalidDataIdHandle");
    assert!(emu.authed("GET", "/_emulator/network").json()["immutableData"].is_null());
    let restored = emu.request(
        "POST",
        "/_emulator/reset/state",
        Some(&emu.token),
        Some(("application/json", network.bytes.as_slice())),
    );
    assert_eq!(restored.status, 200, "{}", restored.body);
    // A data id of that name (the launcher's bytes of `Immutable(name)`) reads the bytes back.
    let mut id_bytes = vec![1, 0, 0, 0];
    id_bytes.extend(
        base64::Engine::decode(
            &base64::engine::general_purpose::STANDARD,
            name.as_str().expect("name"),
        )
        .expect("base64"),
    );
    let id = emu
        .request(
            "POST",
            "/data-id",
            None,
            Some(("application/octet-stream", id_bytes.as_slice())),
        )
        .handle();
    let (handle, size) = reader(&emu, None, id);
    assert_eq!(size, 4);
    assert_eq!(read(&emu, handle, None).bytes, [0, 1, 2, 255]);
}
