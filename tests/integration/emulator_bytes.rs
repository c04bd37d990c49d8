//! The emulator's serialise and deserialise routes give and take the launcher's bytes, and its
//! handles behave as safe_core 0.23.0's handle cache did. The expected bytes are written out here
//! from the layout (`launcher-facts.md`: bincode 1.0.0-alpha6, little endian, `u32` variant tags,
//! `u64` lengths, no length on a 32-byte name), not taken from the emulator's code; where the
//! emulator has no cryptography, its own key and signature bytes are recomputed here from the
//! rule `docs/emulator-differences.md` gives.

use serde_json::{json, Value};

use crate::harness::http::{b64, name, Resp};
use crate::harness::in_process::Emu;

/// The emulator's user sign key, as its documentation gives it.
const USER_KEY: &[u8; 32] = b"safe-ad emulator user sign key!!";

/// `n` as the little-endian u64 of a length or a version.
fn u64le(n: u64) -> Vec<u8> {
    n.to_le_bytes().to_vec()
}

/// The emulator's signature of `message`: SHA-512 of its context and the message.
fn signature(message: &[u8]) -> Vec<u8> {
    let mut context = ring::digest::Context::new(&ring::digest::SHA512);
    context.update(b"safe-ad emulator signature\0");
    context.update(message);
    context.finish().as_ref().to_vec()
}

/// The user as sole owner, then the user's signature of `signed`: `owners` and `signatures`.
fn owned_by_user(signed: &[u8]) -> Vec<u8> {
    let mut bytes = u64le(1);
    bytes.extend(u64le(32));
    bytes.extend(USER_KEY);
    bytes.extend(u64le(1));
    bytes.extend(u64le(32));
    bytes.extend(USER_KEY);
    bytes.extend(u64le(64));
    bytes.extend(signature(signed));
    bytes
}

fn json_post(emu: &Emu, path: &str, body: Value) -> Resp {
    let body = body.to_string();
    emu.request(
        "POST",
        path,
        Some(&emu.token),
        Some(("application/json", body.as_bytes())),
    )
}

fn raw_post(emu: &Emu, path: &str, bytes: &[u8]) -> Resp {
    emu.request(
        "POST",
        path,
        Some(&emu.token),
        Some(("application/octet-stream", bytes)),
    )
}

/// The 44 bytes of `Structured([1; 32], 500)`, written out.
fn structured_1_500() -> Vec<u8> {
    let mut bytes = vec![0x00, 0x00, 0x00, 0x00];
    bytes.extend([0x01; 32]);
    bytes.extend([0xf4, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]);
    bytes
}

#[test]
fn data_ids_serialise_as_the_launcher_wrote_them() {
    let emu = Emu::empty();
    let sd = json_post(
        &emu,
        "/data-id/structured-data",
        json!({"name": b64(&[1; 32]), "typeTag": 500}),
    )
    .handle();
    let r = emu.authed("GET", &format!("/data-id/{sd}"));
    assert_eq!(r.status, 200);
    assert_eq!(r.content_type, "application/octet-stream");
    assert_eq!(r.bytes, structured_1_500());
    for (private, tag) in [(false, 2u8), (true, 3)] {
        let ad = json_post(
            &emu,
            "/data-id/appendable-data",
            json!({"name": b64(&[7; 32]), "isPrivate": private}),
        )
        .handle();
        let mut expected = vec![tag, 0, 0, 0];
        expected.extend([7; 32]);
        assert_eq!(emu.authed("GET", &format!("/data-id/{ad}")).bytes, expected);
    }
}

#[test]
fn the_launchers_bytes_deserialise_and_anything_else_is_1511() {
    let emu = Emu::empty();
    // The example: the 44 bytes of Structured([1; 32], 500), then with bytes after them
    // (ignored, as maidsafe_utilities ignored them).
    for body in [
        structured_1_500(),
        [structured_1_500(), b"tail".to_vec()].concat(),
    ] {
        let handle = raw_post(&emu, "/data-id", &body).handle();
        let again = emu.authed("GET", &format!("/data-id/{handle}"));
        assert_eq!(again.bytes, structured_1_500());
    }
    // The emulator's own old form, a cut data id and a fifth variant are refused.
    for bad in [
        b"safe-ad-emulator/data-id\n{}".to_vec(),
        structured_1_500()[..43].to_vec(),
        [vec![4, 0, 0, 0], vec![1; 32]].concat(),
    ] {
        raw_post(&emu, "/data-id", &bad).error_is(400, -1511, "FfiError::UnsuccessfulEncodeDecode");
    }
    raw_post(&emu, "/data-id", b"").error_is(400, 400, "Body can not be empty");
}

#[test]
fn sign_keys_are_a_byte_string_of_32() {
    let emu = Emu::empty();
    let key = emu.authed("GET", "/sign-key").handle();
    let bytes = emu
        .authed("GET", &format!("/sign-key/serialise/{key}"))
        .bytes;
    let mut expected = vec![0x20, 0, 0, 0, 0, 0, 0, 0];
    expected.extend(USER_KEY);
    assert_eq!(bytes, expected);
    // Another app's key, as a real launcher would have written it, reads back the same.
    let mut other = vec![0x20, 0, 0, 0, 0, 0, 0, 0];
    other.extend([0xab; 32]);
    let handle = raw_post(&emu, "/sign-key/deserialise", &other).handle();
    assert_eq!(
        emu.authed("GET", &format!("/sign-key/serialise/{handle}"))
            .bytes,
        other
    );
    let mut short = vec![0x1f, 0, 0, 0, 0, 0, 0, 0];
    short.extend([0xab; 31]);
    raw_post(&emu, "/sign-key/deserialise", &short).error_is(
        400,
        -1511,
        "FfiError::UnsuccessfulEncodeDecode",
    );
}

#[test]
fn appendable_data_serialises_in_routings_field_order() {
    let emu = Emu::empty();
    let h = emu.create(9, json!({"filterType": "WHITE_LIST"}));
    let key = emu.authed("GET", "/sign-key").handle();
    emu.request(
        "PUT",
        &format!("/appendable-data/filter/{h}"),
        Some(&emu.token),
        Some(("application/json", format!("[{key}]").as_bytes())),
    )
    .ok();
    let bytes = emu
        .authed("GET", &format!("/appendable-data/serialise/{h}"))
        .bytes;
    let mut expected = Vec::new();
    expected.extend([9; 32]); // name
    expected.extend(u64le(0)); // version
    expected.extend([1, 0, 0, 0]); // Filter::WhiteList
    expected.extend(u64le(1));
    expected.extend(u64le(32));
    expected.extend(USER_KEY);
    expected.extend(u64le(0)); // deleted_data
    let signed = [&[9u8; 32][..], &u64le(0)].concat();
    expected.extend(owned_by_user(&signed));
    expected.extend(u64le(0)); // data
    assert_eq!(bytes, expected);
    // It reads back, with a byte after it too.
    let read = raw_post(
        &emu,
        "/appendable-data/deserialise",
        &[bytes, vec![0]].concat(),
    );
    let value = read.json();
    assert_eq!(
        (
            &value["version"],
            &value["filterType"],
            &value["dataLength"]
        ),
        (&json!(0), &json!("WhiteList"), &json!(0))
    );
}

#[test]
fn a_private_appendable_data_from_a_real_launcher_deserialises() {
    // Private layout (tried first): name, version, filter, encrypt key, deleted (sealed), owners,
    // signatures, data (sealed) — keys and an item sealed by real cryptography.
    let mut bytes = Vec::new();
    bytes.extend([4; 32]);
    bytes.extend(u64le(7));
    bytes.extend([0, 0, 0, 0]);
    bytes.extend(u64le(0));
    bytes.extend(u64le(32));
    bytes.extend([0x33; 32]);
    bytes.extend(u64le(0));
    bytes.extend(u64le(1));
    bytes.extend(u64le(32));
    bytes.extend([0x44; 32]);
    bytes.extend(u64le(1));
    bytes.extend(u64le(32));
    bytes.extend([0x44; 32]);
    bytes.extend(u64le(64));
    bytes.extend([0x55; 64]);
    bytes.extend(u64le(1));
    bytes.extend(u64le(120));
    bytes.extend([0x66; 120]);
    let emu = Emu::empty();
    let value = raw_post(&emu, "/appendable-data/deserialise", &bytes).json();
    assert_eq!(
        (&value["version"], &value["filterType"]),
        (&json!(7), &json!("BlackList"))
    );
    let handle = value["handleId"].as_u64().expect("handleId");
    // It is private: it has an encrypt key.
    emu.authed("GET", &format!("/appendable-data/encrypt-key/{handle}"))
        .handle();
    raw_post(&emu, "/appendable-data/deserialise", &bytes[..100]).error_is(
        400,
        -1511,
        "FfiError::UnsuccessfulEncodeDecode",
    );
}

#[test]
fn structured_data_serialises_in_routings_field_order() {
    let emu = Emu::empty();
    let h = json_post(
        &emu,
        "/structured-data",
        json!({"name": b64(&[6; 32]), "typeTag": 500, "data": b64(b"hi")}),
    )
    .handle();
    let bytes = emu
        .anon("GET", &format!("/structured-data/serialise/{h}"))
        .bytes;
    let mut expected = u64le(500); // type_tag
    expected.extend([6; 32]); // name
    expected.extend(u64le(2));
    expected.extend(b"hi"); // data
    expected.extend(u64le(0)); // version
    let signed = [&[6u8; 32][..], b"hi", &u64le(0)].concat();
    expected.extend(owned_by_user(&signed));
    assert_eq!(bytes, expected);
    // Another owner's structured data, as a real launcher wrote it, reads back (not ours).
    let mut theirs = u64le(15000);
    theirs.extend([8; 32]);
    theirs.extend(u64le(3));
    theirs.extend(b"abc");
    theirs.extend(u64le(4));
    theirs.extend(u64le(1));
    theirs.extend(u64le(32));
    theirs.extend([0x77; 32]);
    theirs.extend(u64le(0));
    let value = raw_post(&emu, "/structured-data/deserialise", &theirs).json();
    assert_eq!(value["version"], 4);
    let handle = value["handleId"].as_u64().expect("handleId");
    assert_eq!(
        emu.anon("GET", &format!("/structured-data/{handle}")).body,
        "abc"
    );
    raw_post(&emu, "/structured-data/deserialise", &theirs[..40]).error_is(
        400,
        -1511,
        "FfiError::UnsuccessfulEncodeDecode",
    );
}

#[test]
fn a_post_leaves_the_handle_without_data_items_as_the_launcher_did() {
    let emu = Emu::demo();
    emu.authed("POST", "/appendable-data/1").ok();
    let meta = emu.meta(1);
    assert_eq!(
        (
            &meta["version"],
            &meta["dataLength"],
            &meta["deletedDataLength"]
        ),
        (&json!(2), &json!(0), &json!(2))
    );
    // So the first item is gone from this handle (-1524, as `remove 1 0` got on the launcher)...
    emu.authed("DELETE", "/appendable-data/1/0")
        .error_is(400, -1524, "FfiError::InvalidIndex");
    // ... but not from the network: a fresh handle through the data id has the three.
    let fresh = emu.fetch(3);
    assert_eq!(
        (&fresh["version"], &fresh["dataLength"]),
        (&json!(2), &json!(3))
    );
    // A PUT leaves the copy as it was.
    emu.authed("PUT", "/appendable-data/0").ok();
    assert_eq!(emu.meta(0)["dataLength"], 3);
}

#[test]
fn items_come_back_in_the_networks_order() {
    let emu = Emu::empty();
    let ad = emu.create(1, json!({}));
    emu.authed("PUT", &format!("/appendable-data/{ad}")).ok();
    // Appended in the reverse of the network's order: private appendable data, public
    // appendable data, immutable data, structured data.
    let private = json_post(
        &emu,
        "/data-id/appendable-data",
        json!({"name": name(2), "isPrivate": true}),
    )
    .handle();
    let public = json_post(&emu, "/data-id/appendable-data", json!({"name": name(3)})).handle();
    let writer = emu.authed("GET", "/immutable-data/writer").handle();
    emu.request(
        "POST",
        &format!("/immutable-data/{writer}"),
        Some(&emu.token),
        Some(("text/plain", b"x")),
    )
    .ok();
    let plain = emu.authed("GET", "/cipher-opts/PLAIN").handle();
    let immutable = emu
        .authed("PUT", &format!("/immutable-data/{writer}/{plain}"))
        .handle();
    let structured = json_post(&emu, "/data-id/structured-data", json!({"name": name(9)})).handle();
    for id in [private, public, immutable, structured] {
        emu.authed("PUT", &format!("/appendable-data/{ad}/{id}"))
            .ok();
    }
    let d = emu
        .authed("GET", &format!("/appendable-data/data-id/{ad}"))
        .handle();
    let fresh = emu.fetch(d)["handleId"].as_u64().expect("handleId");
    let tags: Vec<u8> = (0..4)
        .map(|index| {
            let id = emu
                .authed("GET", &format!("/appendable-data/{fresh}/{index}"))
                .handle();
            emu.authed("GET", &format!("/data-id/{id}")).bytes[0]
        })
        .collect();
    assert_eq!(tags, [0, 1, 2, 3]);
}
