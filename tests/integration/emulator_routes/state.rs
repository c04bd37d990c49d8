//! The state machine of the four operations: put then data-exists, post before put, stale posts,
//! unknown handles, clears on the local copy until a save merges them, metadata, create and
//! data-id validation, one handle counter, eviction of the least recently used, hang mode.

use super::*;

const NO_SUCH_DATA: &str =
    r#"{"errorCode":-22,"description":"CoreError::MutationFailure::MutationError::NoSuchData"}"#;

const INVALID_SUCCESSOR: &str = r#"{"errorCode":-25,"description":"CoreError::MutationFailure::MutationError::InvalidSuccessor"}"#;

const BAD_DATA_ID: &str = r#"{"errorCode":-1514,"description":"FfiError::InvalidDataIdHandle"}"#;

const GET_NO_SUCH_DATA: &str =
    r#"{"errorCode":-18,"description":"CoreError::GetFailure::GetError::NoSuchData"}"#;

// ---- the four operations ----------------------------------------------------------------------

#[test]
fn put_success_then_data_exists() {
    let emu = Emu::demo();
    emu.authed("PUT", "/appendable-data/0").ok();
    emu.authed("PUT", "/appendable-data/0")
        .is(400, "application/json", DATA_EXISTS);
    // Already on the network from the start.
    emu.authed("PUT", "/appendable-data/1")
        .is(400, "application/json", DATA_EXISTS);
    // After the PUT, POST works on it; the handle's copy is then what the POST sent, without
    // data (safe_core's `appendable_data_post`), while the network keeps the three items.
    emu.authed("POST", "/appendable-data/0").ok();
    assert_eq!(counts(&emu.meta(0)), (1, 0, 0));
}

#[test]
fn post_before_put_is_no_such_data_404() {
    let emu = Emu::demo();
    emu.authed("POST", "/appendable-data/0")
        .is(404, "application/json", NO_SUCH_DATA);
    let fresh = emu.create(9, json!({}));
    emu.authed("POST", &format!("/appendable-data/{fresh}")).is(
        404,
        "application/json",
        NO_SUCH_DATA,
    );
}

#[test]
fn stale_post_is_invalid_successor_until_refetched() {
    let emu = Emu::demo();
    emu.authed("POST", "/appendable-data/2")
        .is(400, "application/json", INVALID_SUCCESSOR);
    // A fresh copy through the data id posts fine.
    let r = emu.authed("GET", "/appendable-data/handle/4");
    let fresh = r.json()["handleId"].as_u64().expect("handleId");
    assert_eq!(fresh, 6);
    emu.authed("POST", &format!("/appendable-data/{fresh}"))
        .ok();
    // Two copies of one data: the second to post is stale.
    let a = emu.authed("GET", "/appendable-data/handle/3").json()["handleId"]
        .as_u64()
        .expect("a");
    let b = emu.authed("GET", "/appendable-data/handle/3").json()["handleId"]
        .as_u64()
        .expect("b");
    emu.authed("POST", &format!("/appendable-data/{a}")).ok();
    emu.authed("POST", &format!("/appendable-data/{b}")).is(
        400,
        "application/json",
        INVALID_SUCCESSOR,
    );
    // The handle that posted can post again.
    emu.authed("POST", &format!("/appendable-data/{a}")).ok();
}

#[test]
fn unknown_handles_are_1515_for_all_four() {
    let emu = Emu::demo();
    for (method, prefix) in FOUR {
        for handle in ["6", "77", "18446744073709551615"] {
            emu.authed(method, &format!("{prefix}{handle}")).is(
                400,
                "application/json",
                BAD_AD_HANDLE,
            );
        }
    }
    let emu = Emu::empty();
    for (method, prefix) in FOUR {
        emu.authed(method, &format!("{prefix}0"))
            .is(400, "application/json", BAD_AD_HANDLE);
    }
}

// ---- the state machine ------------------------------------------------------------------------

#[test]
fn clears_change_the_local_copy_until_a_post_merges() {
    let emu = Emu::demo();
    assert_eq!(counts(&emu.meta(1)), (1, 3, 2));
    assert_eq!(counts(&emu.fetch(3)), (1, 3, 2));

    // clear-data: every item moves to deleted_data, locally.
    emu.authed("DELETE", "/appendable-data/clear-data/1").ok();
    assert_eq!(counts(&emu.meta(1)), (1, 0, 5));
    assert_eq!(
        counts(&emu.fetch(3)),
        (1, 3, 2),
        "not on the network before a save"
    );
    // Clearing again changes nothing.
    emu.authed("DELETE", "/appendable-data/clear-data/1").ok();
    assert_eq!(counts(&emu.meta(1)), (1, 0, 5));

    // POST: version + 1, the network loses the deleted items and takes the deleted list.
    emu.authed("POST", "/appendable-data/1").ok();
    assert_eq!(counts(&emu.fetch(3)), (2, 0, 5));
    assert_eq!(counts(&emu.meta(1)), (2, 0, 5));

    // clear-deleted-data: empties deleted_data, locally.
    emu.authed("DELETE", "/appendable-data/clear-deleted-data/1")
        .ok();
    assert_eq!(counts(&emu.meta(1)), (2, 0, 0));
    assert_eq!(
        counts(&emu.fetch(3)),
        (2, 0, 5),
        "not on the network before a save"
    );
    emu.authed("POST", "/appendable-data/1").ok();
    assert_eq!(counts(&emu.fetch(3)), (3, 0, 0));
}

#[test]
fn clear_deleted_data_alone_then_post() {
    let emu = Emu::demo();
    emu.authed("DELETE", "/appendable-data/clear-deleted-data/1")
        .ok();
    assert_eq!(counts(&emu.meta(1)), (1, 3, 0));
    assert_eq!(counts(&emu.fetch(3)), (1, 3, 2));
    emu.authed("POST", "/appendable-data/1").ok();
    assert_eq!(counts(&emu.fetch(3)), (2, 3, 0));
}

#[test]
fn clears_before_put_are_saved_by_the_put() {
    let emu = Emu::demo();
    assert_eq!(counts(&emu.meta(0)), (0, 3, 0));
    emu.authed("DELETE", "/appendable-data/clear-data/0").ok();
    assert_eq!(counts(&emu.meta(0)), (0, 0, 3));
    emu.authed("PUT", "/appendable-data/0").ok();
    // Find it on the network through a data id of its name.
    let demo_name = "c2FmZS1hZCBkZW1vOiB1bnNhdmVkLi4uLi4uLi4uLi4=";
    let r = emu.json(
        "POST",
        "/data-id/appendable-data",
        None,
        &format!(r#"{{"name":"{demo_name}"}}"#),
    );
    let id = r.json()["handleId"].as_u64().expect("handleId");
    assert_eq!(counts(&emu.fetch(id)), (0, 0, 3));
}

#[test]
fn post_keeps_items_appended_by_others_and_drops_deleted_ones() {
    let emu = Emu::demo();
    // Append a structured-data id to the saved data: it goes to the network, not the local copy.
    let r = emu.json(
        "POST",
        "/data-id/structured-data",
        None,
        &format!(r#"{{"name":"{}","typeTag":500}}"#, name(7)),
    );
    r.is(200, "application/json", r#"{"handleId":6}"#);
    emu.authed("PUT", "/appendable-data/1/6").ok();
    assert_eq!(
        counts(&emu.meta(1)),
        (1, 3, 2),
        "local copy unchanged by an append"
    );
    assert_eq!(counts(&emu.fetch(3)), (1, 4, 2));
    // Remove one item locally (index 0), then post: the network keeps the appended item.
    emu.authed("DELETE", "/appendable-data/1/0").ok();
    assert_eq!(counts(&emu.meta(1)), (1, 2, 3));
    emu.authed("POST", "/appendable-data/1").ok();
    assert_eq!(counts(&emu.fetch(3)), (2, 3, 3));
    // Index errors and unknown handles.
    emu.authed("DELETE", "/appendable-data/1/3").is(
        400,
        "application/json",
        r#"{"errorCode":-1524,"description":"FfiError::InvalidIndex"}"#,
    );
    emu.authed("DELETE", "/appendable-data/99/0")
        .is(400, "application/json", BAD_AD_HANDLE);
    emu.authed("PUT", "/appendable-data/1/99")
        .is(400, "application/json", BAD_DATA_ID);
    emu.authed("PUT", "/appendable-data/99/6")
        .is(400, "application/json", BAD_AD_HANDLE);
    // Appending to data that is not on the network.
    emu.authed("PUT", "/appendable-data/0/6")
        .is(404, "application/json", NO_SUCH_DATA);
}

// ---- the other routes -------------------------------------------------------------------------

#[test]
fn metadata_fields() {
    let emu = Emu::demo();
    emu.authed("GET", "/appendable-data/metadata/0").is(
        200,
        "application/json",
        r#"{"isOwner":true,"version":0,"filterType":"BlackList","filterLength":0,"dataLength":3,"deletedDataLength":0}"#,
    );
    emu.authed("GET", "/appendable-data/metadata/2").is(
        200,
        "application/json",
        r#"{"isOwner":true,"version":1,"filterType":"BlackList","filterLength":0,"dataLength":2,"deletedDataLength":0}"#,
    );
    emu.authed("GET", "/appendable-data/metadata/3")
        .is(400, "application/json", BAD_AD_HANDLE);
    // A white list.
    let r = emu.json(
        "POST",
        "/appendable-data",
        Some(&emu.bearer()),
        &format!(
            r#"{{"name":"{}","filterType":"WHITE_LIST","isPrivate":true}}"#,
            name(3)
        ),
    );
    r.is(200, "application/json", r#"{"handleId":6}"#);
    emu.authed("GET", "/appendable-data/metadata/6").is(
        200,
        "application/json",
        r#"{"isOwner":true,"version":0,"filterType":"WhiteList","filterLength":0,"dataLength":0,"deletedDataLength":0}"#,
    );
}

#[test]
fn create_and_data_id_validation() {
    let emu = Emu::empty();
    let auth = emu.bearer();
    let bad = |body: &str, description: &str| {
        emu.json("POST", "/appendable-data", Some(&auth), body).is(
            400,
            "application/json",
            &format!(r#"{{"errorCode":400,"description":"{description}"}}"#),
        );
    };
    bad("{}", "name field is missing");
    bad(r#"{"name":""}"#, "name field is missing");
    bad(r#"{"name":"c2hvcnQ="}"#, "Invalid name field");
    bad(r#"{"name":"!!!!"}"#, "Invalid name field");
    // Node 6's `new Buffer(42, 'base64')` threw; the launcher answered with the exception.
    bad(
        r#"{"name":42}"#,
        "If encoding is specified then the first argument must be a string",
    );
    bad(
        &format!(r#"{{"name":"{}","isPrivate":"yes"}}"#, name(1)),
        "Invalid isPrivate field",
    );
    // The data-id routes did not check `name`: a missing one failed in `new Buffer`, a short one
    // was taken as it was (the emulator pads it; the launcher's core read past it).
    for path in ["/data-id/appendable-data", "/data-id/structured-data"] {
        emu.json("POST", path, None, "{}").is(
            400,
            "application/json",
            r#"{"errorCode":400,"description":"First argument must be a string, Buffer, ArrayBuffer, Array, or array-like object."}"#,
        );
    }
    // Nothing above used a handle id: the first one is still 0.
    assert_eq!(emu.create(1, json!({})), 0);
    emu.json(
        "POST",
        "/data-id/appendable-data",
        None,
        r#"{"name":"AAAA"}"#,
    )
    .is(200, "application/json", r#"{"handleId":1}"#);
    // filterKeys name sign-key handles; 7 is not one: -1519 (the new handle is used up).
    emu.json(
        "POST",
        "/appendable-data",
        Some(&auth),
        &format!(r#"{{"name":"{}","filterKeys":[7]}}"#, name(2)),
    )
    .is(
        400,
        "application/json",
        r#"{"errorCode":-1519,"description":"FfiError::InvalidSignKeyHandle"}"#,
    );
    assert_eq!(emu.create(3, json!({})), 3);
}

#[test]
fn one_counter_for_every_handle_type() {
    let emu = Emu::empty();
    assert_eq!(emu.create(1, json!({})), 0);
    let r = emu.json(
        "POST",
        "/data-id/appendable-data",
        None,
        &format!(r#"{{"name":"{}"}}"#, name(1)),
    );
    r.is(200, "application/json", r#"{"handleId":1}"#);
    assert_eq!(emu.create(2, json!({})), 2);
    // Not on the network yet: -18, 404.
    emu.authed("GET", "/appendable-data/handle/1")
        .is(404, "application/json", GET_NO_SUCH_DATA);
    emu.authed("GET", "/appendable-data/handle/0")
        .is(400, "application/json", BAD_DATA_ID);
    emu.authed("PUT", "/appendable-data/0").ok();
    let r = emu.authed("GET", "/appendable-data/handle/1");
    r.is(
        200,
        "application/json",
        r#"{"handleId":3,"isOwner":true,"version":0,"filterType":"BlackList","dataLength":0,"deletedDataLength":0}"#,
    );
    // Dropping a handle; twice is -1515.
    emu.anon("DELETE", "/appendable-data/handle/3").ok();
    emu.anon("DELETE", "/appendable-data/handle/3")
        .is(400, "application/json", BAD_AD_HANDLE);
    emu.authed("GET", "/appendable-data/metadata/3")
        .is(400, "application/json", BAD_AD_HANDLE);
}

#[test]
fn at_most_100_live_handles_per_type_least_recently_used_evicted() {
    let emu = Emu::empty();
    for expected in 0..100u64 {
        assert_eq!(emu.create(1, json!({})), expected);
    }
    // Use handle 0, so handle 1 becomes the least recently used.
    emu.meta(0);
    assert_eq!(emu.create(1, json!({})), 100);
    emu.meta(0);
    emu.authed("GET", "/appendable-data/metadata/1")
        .is(400, "application/json", BAD_AD_HANDLE);
    emu.meta(2);
    // Data ids have their own 100 slots: making one evicts no appendable data.
    let r = emu.json(
        "POST",
        "/data-id/appendable-data",
        None,
        &format!(r#"{{"name":"{}"}}"#, name(1)),
    );
    r.is(200, "application/json", r#"{"handleId":101}"#);
    emu.meta(3);
    // One more appendable data evicts the next least recently used (handle 4 now; 2 and 3 were used).
    assert_eq!(emu.create(1, json!({})), 102);
    emu.authed("GET", "/appendable-data/metadata/4")
        .is(400, "application/json", BAD_AD_HANDLE);
    for live in [0, 2, 3, 5, 100, 102] {
        emu.meta(live);
    }
}

// ---- the hang mode ----------------------------------------------------------------------------

#[test]
fn hang_mode_never_answers_an_unknown_clear_but_serves_everything_else() {
    let emu = Emu::with(Options {
        hang_unknown_clears: true,
        ..Options::default()
    });
    let mut hung = Vec::new();
    for path in [
        "/appendable-data/clear-data/77",
        "/0.6/appendable-data/clear-deleted-data/77",
    ] {
        let mut stream = TcpStream::connect(emu.addr).expect("connect");
        stream
            .write_all(&request_bytes(
                "DELETE",
                path,
                &[("Authorization", &emu.bearer())],
                None,
                true,
            ))
            .expect("write");
        hung.push(stream);
    }
    // Meanwhile, everything else is served.
    emu.anon("GET", "/health").ok();
    emu.authed("DELETE", "/appendable-data/clear-data/1").ok();
    emu.authed("PUT", "/appendable-data/77")
        .is(400, "application/json", BAD_AD_HANDLE);
    // Handles without digits and auth failures still answer.
    emu.authed("DELETE", "/appendable-data/clear-data/x77")
        .error(400, 400);
    emu.anon("DELETE", "/appendable-data/clear-data/77")
        .is(401, "application/json", NO_TOKEN);
    // All of that was answered, and the hanging clears, sent first, have nothing to read.
    for stream in &mut hung {
        stream.set_nonblocking(true).expect("nonblocking");
        let mut buf = [0u8; 64];
        match stream.read(&mut buf) {
            Ok(n) => panic!(
                "the hanging clear answered: {:?}",
                String::from_utf8_lossy(&buf[..n])
            ),
            Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::WouldBlock, "{e}"),
        }
    }
    // Shutdown does not wait for hanging requests; it drops them, still without an answer.
    emu.stop();
    for stream in &mut hung {
        stream.set_nonblocking(false).expect("blocking");
        stream.set_read_timeout(Some(DEADLINE)).expect("timeout");
        let mut answer = Vec::new();
        match stream.read_to_end(&mut answer) {
            Ok(_) => {}
            Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset, "{e}"),
        }
        assert!(
            answer.is_empty(),
            "the hanging clear answered: {:?}",
            String::from_utf8_lossy(&answer)
        );
    }
}

#[test]
fn by_default_an_unknown_clear_answers_1515() {
    let emu = Emu::demo();
    emu.authed("DELETE", "/appendable-data/clear-data/77").is(
        400,
        "application/json",
        BAD_AD_HANDLE,
    );
    emu.authed("DELETE", "/appendable-data/clear-deleted-data/77")
        .is(400, "application/json", BAD_AD_HANDLE);
}
