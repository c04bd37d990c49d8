//! What safe_core 0.23.0, self_encryption 0.7.1 and the launcher's Express server did that a
//! client can see, where the emulator once did otherwise: each test states the launcher's
//! behaviour and the source it comes from (under `../shared/reference/`), and checks the
//! emulator does the same.

use serde_json::{json, Value};

use crate::harness::emulator::{path_arg, Emulator};
use crate::harness::http::{b64, name, request, send, Resp};
use crate::harness::in_process::Emu;
use crate::harness::{Sandbox, TOKEN};

/// `bytes` written to a writer with the startup token.
fn write(emu: &Emu, writer: u64, bytes: &[u8]) {
    emu.request(
        "POST",
        &format!("/immutable-data/{writer}"),
        Some(&emu.token),
        Some(("application/octet-stream", bytes)),
    )
    .ok();
}

/// `PUT /immutable-data/:writer/:cipher`.
fn close(emu: &Emu, writer: u64, cipher: u64) -> Resp {
    emu.authed("PUT", &format!("/immutable-data/{writer}/{cipher}"))
}

/// The size a reader of the data id reports.
fn stored_size(emu: &Emu, data_id: u64) -> u64 {
    let value = emu
        .authed("GET", &format!("/immutable-data/reader/{data_id}"))
        .json();
    value["size"].as_u64().expect("size")
}

/// self_encryption 0.7.1, `src/sequential/small_encryptor.rs` `close`: the buffer is swapped for
/// an empty one, and safe_core's `immut_data_close_self_encryptor` (`immut_data.rs`) calls it
/// before it looks the cipher options up and keeps the writer in its cache. So under 3 KiB a
/// second close stores empty data, bytes written after a close start from nothing, and a close
/// that fails with -1517 has emptied the writer all the same. From 3 KiB to 3 MiB
/// (`medium_encryptor.rs` `close`) the buffer stays: a second close stores the same content.
/// Past 3 MiB (`large_encryptor.rs` `close`) the chunk list is swapped out, and a second close
/// indexes it empty (`utils.rs` `get_pad_key_and_iv`): a panic, which safe_core's
/// `catch_unwind_i32` answered as -1510 `FfiError::Unexpected`.
#[test]
fn closing_a_writer_empties_it_under_3_kib_as_self_encryption_did() {
    let emu = Emu::empty();
    let plain = emu.authed("GET", "/cipher-opts/PLAIN").handle();
    // The launcher's own `immutable_data.spec.js` closes one 11-byte writer twice.
    let writer = emu.authed("GET", "/immutable-data/writer").handle();
    write(&emu, writer, b"Test sample");
    let first = close(&emu, writer, plain).handle();
    assert_eq!(stored_size(&emu, first), 11);
    let second = close(&emu, writer, plain).handle();
    assert_eq!(
        stored_size(&emu, second),
        0,
        "the second close stores nothing"
    );
    write(&emu, writer, b"more");
    assert_eq!(stored_size(&emu, close(&emu, writer, plain).handle()), 4);
    // A close whose cipher options are unknown has emptied the writer before it failed.
    let failed = emu.authed("GET", "/immutable-data/writer").handle();
    write(&emu, failed, b"lost");
    close(&emu, failed, 999).error_is(400, -1517, "FfiError::InvalidCipherOptHandle");
    assert_eq!(stored_size(&emu, close(&emu, failed, plain).handle()), 0);
    // 3 KiB: the content stays.
    let medium = emu.authed("GET", "/immutable-data/writer").handle();
    write(&emu, medium, &[7; 3 * 1024]);
    for _ in 0..2 {
        assert_eq!(
            stored_size(&emu, close(&emu, medium, plain).handle()),
            3 * 1024
        );
    }
    // Past 3 MiB: the second close fails.
    let large = emu.authed("GET", "/immutable-data/writer").handle();
    write(&emu, large, &vec![8; 3 * 1024 * 1024 + 1]);
    assert_eq!(
        stored_size(&emu, close(&emu, large, plain).handle()),
        3 * 1024 * 1024 + 1
    );
    close(&emu, large, plain).error_is(400, -1510, "FfiError::Unexpected");
}

/// One 11-byte writer closed twice through a running emulator: the close's path.
fn close_twice(emulator: &Emulator) -> String {
    let cipher = emulator
        .http("GET", "/cipher-opts/PLAIN", Some(TOKEN), None)
        .handle();
    let writer = emulator
        .http("GET", "/immutable-data/writer", Some(TOKEN), None)
        .handle();
    emulator
        .http(
            "POST",
            &format!("/immutable-data/{writer}"),
            Some(TOKEN),
            Some("\"11 bytes!\""),
        )
        .ok();
    let close = format!("/immutable-data/{writer}/{cipher}");
    emulator.http("PUT", &close, Some(TOKEN), None).handle();
    emulator.http("PUT", &close, Some(TOKEN), None).handle();
    close
}

/// The loss is the launcher's, so the emulator says it where a CI job reads: on the `--log`
/// record of the close that stored less than was written.
#[test]
fn the_log_record_of_a_second_close_says_the_launcher_lost_the_content() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("requests.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--empty", "--log", path_arg(&log)]);
    let close = close_twice(&emulator);
    emulator.terminate().success();
    let records: Vec<Value> = std::fs::read_to_string(&log)
        .expect("log")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON record"))
        .filter(|record: &Value| record["path"] == close.as_str())
        .collect();
    assert_eq!(records.len(), 2, "{records:?}");
    assert_eq!(records[0].get("note"), None, "{:?}", records[0]);
    let note = records[1]["note"]
        .as_str()
        .expect("a note on the second close");
    assert!(note.contains("earlier close emptied this writer"), "{note}");
}

/// `append --immutable` opens one writer and closes it once (`src/batch/immutable.rs`), and a
/// close is never sent again (it may have acted): safe-ad never meets the launcher's loss.
#[test]
fn safe_ad_closes_each_writer_once() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let file = sandbox.file("message.txt", "hello inbox");
    assert_eq!(
        emulator
            .http("DELETE", "/_emulator/requests", Some(TOKEN), None)
            .status,
        200
    );
    for extra in [&[][..], &["--encrypt", "symmetric", "--retries", "2"][..]] {
        sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .args(["append", "5", "--immutable", path_arg(&file)])
            .args(extra)
            .run()
            .success();
    }
    let journal = emulator.http("GET", "/_emulator/requests?method=PUT", Some(TOKEN), None);
    let closes: Vec<Value> = journal
        .body
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("a record"))
        .filter(|record| {
            record["path"]
                .as_str()
                .is_some_and(|path| path.starts_with("/immutable-data/"))
        })
        .collect();
    let writers: std::collections::BTreeSet<&str> = closes
        .iter()
        .map(|record| {
            record["path"]
                .as_str()
                .unwrap_or_default()
                .split('/')
                .nth(2)
                .unwrap_or("")
        })
        .collect();
    assert_eq!((closes.len(), writers.len()), (2, 2), "{closes:?}");
}

/// A private appendable data and a public one named `byte`, saved, with the item `data_id`
/// appended and then removed (deleted, saved): the handle of each, fetched again.
fn deleted_item(emu: &Emu, byte: u8, private: bool, data_id: u64) -> u64 {
    let h = emu.create(byte, json!({ "isPrivate": private }));
    emu.authed("PUT", &format!("/appendable-data/{h}")).ok();
    emu.authed("PUT", &format!("/appendable-data/{h}/{data_id}"))
        .ok();
    let id = emu
        .authed("GET", &format!("/appendable-data/data-id/{h}"))
        .handle();
    let fresh = emu.fetch(id)["handleId"].as_u64().expect("handle");
    emu.authed("DELETE", &format!("/appendable-data/{fresh}/0"))
        .ok();
    emu.authed("POST", &format!("/appendable-data/{fresh}"))
        .ok();
    emu.fetch(id)["handleId"].as_u64().expect("handle")
}

/// safe_core's `appendable_data_append` (`appendable_data.rs`) seals each private item afresh
/// (`PrivAppendedData::new`: a sealed box with a new ephemeral key), and routing's
/// `PrivAppendableData::append` refuses only sealed bytes already in `deleted_data`: a new seal
/// never is, so re-appending a deleted item succeeds, and a later POST carrying the old deleted
/// copy (`update_with_other` removes what equals a deleted item) keeps it. Appended twice, it is
/// there twice. Public data compares the item itself (-25).
#[test]
fn re_appending_a_deleted_item_succeeds_on_private_data_only() {
    let emu = Emu::empty();
    let body = json!({"name": name(40), "typeTag": 500}).to_string();
    let item = emu
        .json("POST", "/data-id/structured-data", None, &body)
        .handle();
    let private = deleted_item(&emu, 41, true, item);
    assert_eq!(emu.meta(private)["deletedDataLength"], 1);
    emu.authed("PUT", &format!("/appendable-data/{private}/{item}"))
        .ok();
    let id = emu
        .authed("GET", &format!("/appendable-data/data-id/{private}"))
        .handle();
    let fresh = emu.fetch(id);
    assert_eq!(
        (&fresh["dataLength"], &fresh["deletedDataLength"]),
        (&json!(1), &json!(1))
    );
    let fresh = fresh["handleId"].as_u64().expect("handle");
    emu.authed("POST", &format!("/appendable-data/{fresh}"))
        .ok();
    let saved = emu.fetch(id);
    assert_eq!(
        saved["dataLength"], 1,
        "the POST kept the new sealing: {saved}"
    );
    let again = saved["handleId"].as_u64().expect("handle");
    emu.authed("PUT", &format!("/appendable-data/{again}/{item}"))
        .ok();
    assert_eq!(emu.fetch(id)["dataLength"], 2, "a second copy");
    let public = deleted_item(&emu, 42, false, item);
    emu.authed("PUT", &format!("/appendable-data/{public}/{item}"))
        .error_is(
            400,
            -25,
            "CoreError::MutationFailure::MutationError::InvalidSuccessor",
        );
}

/// routing's `PrivAppendedData::new` (`priv_appendable_data.rs`) holds
/// `sealedbox::seal(serialise(item))`: rust_sodium's sealed box is the ephemeral public key (32
/// bytes) and the MAC (16) before a ciphertext as long as the item, so each sealed item is 48
/// bytes longer than the item's bincode. A structured-data item is 44 + 40 + 72 = 156 bytes;
/// sealed, 204. safe-ad's own `decode` reads the bytes, with the sealed length.
#[test]
fn private_items_serialise_at_the_sealed_length() {
    let emulator = Emulator::start(&["--empty"]);
    let post = |path: &str, body: Value| {
        emulator
            .http("POST", path, Some(TOKEN), Some(&body.to_string()))
            .handle()
    };
    let h = post(
        "/appendable-data",
        json!({"name": name(43), "isPrivate": true}),
    );
    emulator
        .http("PUT", &format!("/appendable-data/{h}"), Some(TOKEN), None)
        .ok();
    let item = post(
        "/data-id/structured-data",
        json!({"name": name(44), "typeTag": 500}),
    );
    emulator
        .http(
            "PUT",
            &format!("/appendable-data/{h}/{item}"),
            Some(TOKEN),
            None,
        )
        .ok();
    let id = emulator
        .http(
            "GET",
            &format!("/appendable-data/data-id/{h}"),
            Some(TOKEN),
            None,
        )
        .handle();
    let fresh = emulator
        .http(
            "GET",
            &format!("/appendable-data/handle/{id}"),
            Some(TOKEN),
            None,
        )
        .json()["handleId"]
        .as_u64()
        .expect("handle");
    let bytes = emulator
        .http(
            "GET",
            &format!("/appendable-data/serialise/{fresh}"),
            Some(TOKEN),
            None,
        )
        .bytes;
    // name, version, filter, encrypt key, deleted (none), owners, signatures, then the data:
    // one sealed item, its length first.
    let data = 32 + 8 + 4 + 8 + 40 + 8 + 48 + 8 + 112;
    assert_eq!(&bytes[data..data + 8], &1u64.to_le_bytes());
    assert_eq!(&bytes[data + 8..data + 16], &204u64.to_le_bytes());
    assert_eq!(bytes.len(), data + 16 + 204);
    // It reads back as the same data, with its item.
    let read = request(
        emulator.addr(),
        "POST",
        "/appendable-data/deserialise",
        Some(TOKEN),
        Some(("application/octet-stream", &bytes)),
    );
    assert_eq!(read.json()["dataLength"], 1, "{}", read.body);
    let decoded = Sandbox::new()
        .safe_ad()
        .args(["decode", "--json", &b64(&bytes)])
        .run();
    let decoded = decoded.success().json_lines().remove(0);
    assert_eq!(decoded["kind"], "private-appendable-data");
    assert_eq!(
        decoded["data"],
        json!([{"kind": "sealed", "sealed_bytes": 204}])
    );
}

/// safe_core's `struct_data_extract_data` and `struct_data_nth_version` (`struct_data.rs`)
/// decrypt through `CipherOpt::decrypt` with the app's keys (`cipher_opt.rs`), which the
/// launcher's anonymous app lacked: data written with symmetric cipher options is -1520 without
/// a token; plain data reads.
#[test]
fn encrypted_structured_data_is_not_read_without_a_token() {
    let emu = Emu::empty();
    // Not handle 0: the controller's `body.cipherOpts || <plain>` takes 0 for "none given".
    emu.authed("GET", "/cipher-opts/PLAIN").handle();
    let symmetric = emu.authed("GET", "/cipher-opts/SYMMETRIC").handle();
    let create = |byte: u8, cipher: Option<u64>| {
        let mut body = json!({"name": name(byte), "typeTag": 500, "data": b64(b"secret")});
        if let Some(cipher) = cipher {
            body["cipherOpts"] = json!(cipher);
        }
        emu.json(
            "POST",
            "/structured-data",
            Some(&emu.bearer()),
            &body.to_string(),
        )
        .handle()
    };
    let encrypted = create(45, Some(symmetric));
    emu.anon("GET", &format!("/structured-data/{encrypted}"))
        .error_is(400, -1520, "FfiError::OperationForbiddenForApp");
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/{encrypted}"))
            .body,
        "secret"
    );
    let plain = create(46, None);
    assert_eq!(
        emu.anon("GET", &format!("/structured-data/{plain}")).body,
        "secret"
    );
}

/// `controllers/cipher_opts.js` `getHandle`: without a token `sessionManager.get` gives
/// `undefined`, and the PLAIN kind passes the first check and reads `sessionInfo.app`.
#[test]
fn plain_cipher_options_without_a_token_read_the_app_of_undefined() {
    let emu = Emu::empty();
    emu.anon("GET", "/cipher-opts/PLAIN").error_is(
        400,
        400,
        "Cannot read property 'app' of undefined",
    );
}

/// `controllers/structured_data.js` `deleteStructureData` (the handler `version_0_6.js` names
/// for `DELETE /structured-data/:handleId`) reads the handle with `parseInt(handleId, 10)`:
/// `010` is 10, `0x10` is 0, `abc` is NaN, which `ref` wrote into the u64 as 0.
#[test]
fn deleting_structured_data_reads_the_handle_with_parse_int() {
    let emu = Emu::empty();
    // Handle 0 is the plain cipher options the first create makes; 1 to 16 structured data.
    for byte in 1..=16u8 {
        let body = json!({"name": name(byte), "typeTag": 500, "data": b64(b"x")}).to_string();
        let h = emu
            .json("POST", "/structured-data", Some(&emu.bearer()), &body)
            .handle();
        assert_eq!(h, u64::from(byte));
        emu.authed("PUT", &format!("/structured-data/{h}")).ok();
    }
    let deleted_again = |h: &str| {
        emu.authed("DELETE", &format!("/structured-data/{h}"))
            .error(400, -26);
    };
    emu.authed("DELETE", "/structured-data/010").ok();
    deleted_again("10");
    emu.authed("DELETE", "/structured-data/8").ok();
    for zero in ["0x10", "abc"] {
        emu.authed("DELETE", &format!("/structured-data/{zero}"))
            .error_is(400, -1513, "FfiError::InvalidStructDataHandle");
    }
    emu.authed("DELETE", "/structured-data/16").ok();
}

/// `controllers/immutable_data.js` `read`: `req.get('range')` empty is falsy (no range: 200 and
/// the whole body), and `range.replace(/bytes=/g, '')` removes every `bytes=`.
#[test]
fn an_empty_range_is_none_and_every_bytes_prefix_is_removed() {
    let emu = Emu::empty();
    let plain = emu.authed("GET", "/cipher-opts/PLAIN").handle();
    let writer = emu.authed("GET", "/immutable-data/writer").handle();
    write(&emu, writer, b"Test sample");
    let id = close(&emu, writer, plain).handle();
    let reader = emu
        .authed("GET", &format!("/immutable-data/reader/{id}"))
        .json()["handleId"]
        .as_u64()
        .expect("reader");
    let path = format!("/immutable-data/{reader}");
    let whole = send(emu.addr, "GET", &path, &[("Range", "")], None);
    assert_eq!((whole.status, whole.body.as_str()), (200, "Test sample"));
    let cut = send(
        emu.addr,
        "GET",
        &path,
        &[("Range", "bytes=0-bytes=5")],
        None,
    );
    assert_eq!((cut.status, cut.body.as_str()), (206, "Test "));
    assert_eq!(cut.header("content-range"), Some("bytes 0-5/11"));
}

/// safe_core's `struct_data_extract_data` (`struct_data.rs`): for a type tag from 15000 the data
/// goes straight to `CipherOpt::decrypt`, whose `deserialise` of the empty data a delete leaves
/// is `FfiError::UnsuccessfulEncodeDecode` (-1511); tag 500 goes through `unversioned::get_data`
/// first, a CoreError (-2).
#[test]
fn reading_deleted_structured_data_of_an_apps_own_tag_is_1511() {
    let emu = Emu::empty();
    for (byte, tag, code, description) in [
        (47, 15000, -1511, "FfiError::UnsuccessfulEncodeDecode"),
        (48, 500, -2, "CoreError::UnsuccessfulEncodeDecode"),
    ] {
        let body = json!({"name": name(byte), "typeTag": tag, "data": b64(b"x")}).to_string();
        let h = emu
            .json("POST", "/structured-data", Some(&emu.bearer()), &body)
            .handle();
        emu.authed("PUT", &format!("/structured-data/{h}")).ok();
        emu.authed("DELETE", &format!("/structured-data/{h}")).ok();
        emu.authed("GET", &format!("/structured-data/{h}"))
            .error_is(400, code, description);
    }
}

/// safe_core's `appendable_data_append` (`appendable_data.rs`) takes the data id from the cache
/// before the appendable data: with both unknown, -1514.
#[test]
fn an_append_with_both_handles_unknown_is_1514() {
    let emu = Emu::empty();
    emu.authed("PUT", "/appendable-data/700/701").error_is(
        400,
        -1514,
        "FfiError::InvalidDataIdHandle",
    );
}

/// Express 4 (`boot.js` makes the app with `express()`): its `expressInit` middleware sets
/// `X-Powered-By: Express` on every answer; `res.send` (which `sendStatus` and the launcher's
/// `ResponseHandler` use) sets a weak ETag of the body, `W/"<length in hex>-<the base64 SHA-1,
/// 27 characters>"` (the `etag` package, 1.8), and answers a `GET` whose `If-None-Match` holds
/// it 304 without a body (the `fresh` package). The immutable-data read writes its head itself
/// (`res.writeHead`): no ETag.
#[test]
fn answers_carry_express_headers_and_if_none_match_gets_304() {
    let emu = Emu::empty();
    let health = emu.anon("GET", "/health");
    assert_eq!(health.header("x-powered-by"), Some("Express"));
    // Computed independently: base64(sha1("OK")) = nOO9QiTIwXgNtWtBJezz8kv3SLc=.
    assert_eq!(
        health.header("etag"),
        Some("W/\"2-nOO9QiTIwXgNtWtBJezz8kv3SLc\"")
    );
    let missing = emu.anon("GET", "/no/such/route");
    assert_eq!(missing.status, 404);
    assert_eq!(missing.header("x-powered-by"), Some("Express"));
    assert!(missing.header("etag").is_some());
    let body = json!({"name": name(49)}).to_string();
    let data_id = emu
        .json("POST", "/data-id/appendable-data", None, &body)
        .handle();
    let path = format!("/data-id/{data_id}");
    let first = emu.authed("GET", &path);
    let tag = first.header("etag").expect("an ETag").to_owned();
    let bearer = emu.bearer();
    let again = send(
        emu.addr,
        "GET",
        &path,
        &[("Authorization", &bearer), ("If-None-Match", &tag)],
        None,
    );
    assert_eq!((again.status, again.bytes.len()), (304, 0));
    assert_eq!(again.header("etag"), Some(tag.as_str()));
    // Only GET and HEAD are answered 304.
    let posted = send(
        emu.addr,
        "POST",
        "/data-id/appendable-data",
        &[("Content-Type", "application/json"), ("If-None-Match", "*")],
        Some(body.as_bytes()),
    );
    assert_eq!(posted.status, 200);
    let plain = emu.authed("GET", "/cipher-opts/PLAIN").handle();
    let writer = emu.authed("GET", "/immutable-data/writer").handle();
    write(&emu, writer, b"Test sample");
    let id = close(&emu, writer, plain).handle();
    let reader = emu
        .authed("GET", &format!("/immutable-data/reader/{id}"))
        .json()["handleId"]
        .as_u64()
        .expect("reader");
    let read = emu.anon("GET", &format!("/immutable-data/{reader}"));
    assert_eq!(read.header("x-powered-by"), Some("Express"));
    assert_eq!(read.header("etag"), None);
}

/// The same note in `safe-ad emulator requests`' table, where a person reads the journal on a
/// terminal (the JSON lines carry it as the record's `note`).
#[test]
fn the_journal_table_shows_the_note_of_a_second_close() {
    if !crate::harness::have("script") {
        return;
    }
    let emulator = Emulator::start(&["--empty", "--quiet"]);
    let close = close_twice(&emulator);
    let sandbox = Sandbox::new();
    let table = sandbox
        .shell(
            "sh",
            "exec script -qec 'safe-ad emulator requests --method PUT' /dev/null",
        )
        .launcher(&emulator.url)
        .run();
    table.success();
    let text = table.stdout().replace('\r', "");
    let rows: Vec<&str> = text.lines().filter(|l| l.contains(&close)).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(!rows[0].contains("note:"), "{text}");
    assert!(
        rows[1].contains("(note: as the launcher did: an earlier close emptied"),
        "{text}"
    );
}
