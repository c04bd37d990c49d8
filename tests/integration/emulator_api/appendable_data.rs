//! An appendable data's life as the launcher gave it: save, fetch and stale versions; items
//! appended, read, removed, restored and cleared (local copy against network); the filters that
//! decide who may append; the encrypt keys of private data; serialised handles.

use super::*;

#[test]
fn save_fetch_and_stale_versions() {
    let emu = Emu::empty();
    let h = emu.create(1, json!({}));
    emu.authed("POST", &format!("/appendable-data/{h}"))
        .core(-22);
    emu.authed("PUT", &format!("/appendable-data/{h}")).ok();
    emu.authed("PUT", &format!("/appendable-data/{h}"))
        .core(-23);
    let (fresh, v) = emu.fetch_ad(1);
    assert_eq!(
        v,
        json!({"handleId": fresh, "isOwner": true, "version": 0, "filterType": "BlackList",
               "dataLength": 0, "deletedDataLength": 0})
    );
    // Anonymous callers own nothing.
    let d = emu
        .json_authed("POST", "/data-id/appendable-data", json!({"name": name(1)}))
        .handle();
    assert_eq!(
        emu.anon("GET", &format!("/appendable-data/handle/{d}"))
            .json()["isOwner"],
        false
    );
    // Someone else (another handle) posts: this one is stale for POST and append.
    emu.authed("POST", &format!("/appendable-data/{fresh}"))
        .ok();
    emu.authed("POST", &format!("/appendable-data/{h}"))
        .core(-25);
    let item = emu.stored_sd(9, "x");
    emu.authed("PUT", &format!("/appendable-data/{h}/{item}"))
        .core(-25);
    // The same handle can post again: its version followed the network.
    emu.authed("POST", &format!("/appendable-data/{fresh}"))
        .ok();
    assert_eq!(emu.meta(fresh)["version"], 2);
    emu.authed("GET", "/appendable-data/handle/9999")
        .core(-1514);
    let unsaved = emu
        .json_authed("POST", "/data-id/appendable-data", json!({"name": name(2)}))
        .handle();
    emu.authed("GET", &format!("/appendable-data/handle/{unsaved}"))
        .core(-18);
    // A structured data's id on the appendable-data route: unexpected data.
    emu.authed("GET", &format!("/appendable-data/handle/{item}"))
        .core(-5);
    // Private and public data of the same name are different data.
    let private = emu
        .json_authed(
            "POST",
            "/data-id/appendable-data",
            json!({"name": name(1), "isPrivate": true}),
        )
        .handle();
    emu.authed("GET", &format!("/appendable-data/handle/{private}"))
        .core(-18);
    // validate-size, data-id of a handle, dropping.
    assert_eq!(
        emu.authed("GET", &format!("/appendable-data/validate-size/{h}"))
            .json(),
        json!({"isValid": true})
    );
    emu.authed("GET", "/appendable-data/validate-size/9999")
        .core(-1515);
    let id = emu
        .authed("GET", &format!("/appendable-data/data-id/{h}"))
        .handle();
    assert_eq!(
        emu.authed("GET", &format!("/appendable-data/handle/{id}"))
            .json()["version"],
        2
    );
    emu.authed("GET", "/appendable-data/data-id/9999")
        .core(-1515);
    emu.anon("DELETE", &format!("/appendable-data/handle/{h}"))
        .ok();
    emu.anon("DELETE", &format!("/appendable-data/handle/{h}"))
        .core(-1515);
}

#[test]
fn items_append_read_remove_restore_and_clear() {
    let emu = Emu::empty();
    let h = emu.create(1, json!({}));
    let unsaved = emu.stored_sd(2, "two");
    // Appending needs the data on the network.
    emu.authed("PUT", &format!("/appendable-data/{h}/{unsaved}"))
        .core(-22);
    emu.authed("PUT", &format!("/appendable-data/{h}")).ok();
    for (byte, text) in [(3u8, "three"), (4, "four")] {
        let item = emu.stored_sd(byte, text);
        emu.authed("PUT", &format!("/appendable-data/{h}/{item}"))
            .ok();
        emu.authed("DELETE", &format!("/data-id/{item}")).ok();
    }
    emu.authed("PUT", &format!("/appendable-data/{h}/{unsaved}"))
        .ok();
    // Appends went to the network only: the local copy has none of them.
    assert_eq!(emu.meta(h)["dataLength"], 0);
    let (a, v) = emu.fetch_ad(1);
    assert_eq!(
        (v["dataLength"].as_u64(), v["version"].as_u64()),
        (Some(3), Some(0))
    );
    // Item 0 leads to a structured data whose content reads back.
    let d = emu
        .authed("GET", &format!("/appendable-data/{a}/0"))
        .handle();
    let sd = emu
        .authed("GET", &format!("/structured-data/handle/{d}"))
        .json();
    let read = emu.authed("GET", &format!("/structured-data/{}", sd["handleId"]));
    assert_eq!((read.status, read.body.as_str()), (200, "two"));
    assert!(read.content_type.starts_with("application/octet-stream"));
    // Index errors, and the argument error that wins over an unknown handle.
    emu.authed("GET", &format!("/appendable-data/{a}/3"))
        .core(-1524);
    emu.authed("GET", &format!("/appendable-data/{a}/x"))
        .bad(&no_digits(2));
    emu.authed("GET", "/appendable-data/9999/x")
        .bad(&no_digits(2));
    emu.authed("GET", "/appendable-data/9999/0").core(-1515);
    emu.authed("GET", &format!("/appendable-data/deleted-data/{a}/0"))
        .core(-1524);
    // Remove at index, restore, remove deleted: local only.
    emu.authed("DELETE", &format!("/appendable-data/{a}/0"))
        .ok();
    emu.authed("DELETE", &format!("/appendable-data/{a}/5"))
        .core(-1524);
    emu.authed("DELETE", &format!("/appendable-data/{a}/x"))
        .bad(&no_digits(1));
    let m = emu.meta(a);
    assert_eq!(
        (m["dataLength"].as_u64(), m["deletedDataLength"].as_u64()),
        (Some(2), Some(1))
    );
    let deleted = emu
        .authed("GET", &format!("/appendable-data/deleted-data/{a}/0"))
        .handle();
    emu.authed("DELETE", &format!("/data-id/{deleted}")).ok();
    emu.authed("PUT", &format!("/appendable-data/restore/{a}/test"))
        .bad("index must be a valid number");
    emu.authed("PUT", &format!("/appendable-data/restore/{a}/1"))
        .core(-1524);
    emu.authed("PUT", &format!("/appendable-data/restore/{a}/0"))
        .ok();
    assert_eq!(emu.meta(a)["deletedDataLength"], 0);
    emu.authed("DELETE", &format!("/appendable-data/{a}/0"))
        .ok();
    emu.authed("DELETE", &format!("/appendable-data/deleted-data/{a}/0"))
        .ok();
    emu.authed("DELETE", &format!("/appendable-data/deleted-data/{a}/0"))
        .core(-1524);
    let m = emu.meta(a);
    assert_eq!(
        (m["dataLength"].as_u64(), m["deletedDataLength"].as_u64()),
        (Some(2), Some(0))
    );
    // The network still has all three until a save.
    assert_eq!(emu.fetch_ad(1).1["dataLength"], 3);
    // Clears: local until the POST, which carries deleted_data and merges.
    let (b, _) = emu.fetch_ad(1);
    emu.authed("DELETE", &format!("/appendable-data/clear-data/{b}"))
        .ok();
    let m = emu.meta(b);
    assert_eq!(
        (m["dataLength"].as_u64(), m["deletedDataLength"].as_u64()),
        (Some(0), Some(3))
    );
    assert_eq!(emu.fetch_ad(1).1["dataLength"], 3);
    emu.authed("POST", &format!("/appendable-data/{b}")).ok();
    let v = emu.fetch_ad(1).1;
    assert_eq!(
        (
            v["version"].as_u64(),
            v["dataLength"].as_u64(),
            v["deletedDataLength"].as_u64()
        ),
        (Some(1), Some(0), Some(3))
    );
    // An item in deleted_data cannot be appended again.
    let again = emu
        .json_authed("POST", "/data-id/structured-data", json!({"name": name(2)}))
        .handle();
    emu.authed("PUT", &format!("/appendable-data/{b}/{again}"))
        .core(-25);
    emu.authed(
        "DELETE",
        &format!("/appendable-data/clear-deleted-data/{b}"),
    )
    .ok();
    emu.authed("POST", &format!("/appendable-data/{b}")).ok();
    let v = emu.fetch_ad(1).1;
    assert_eq!(
        (v["version"].as_u64(), v["deletedDataLength"].as_u64()),
        (Some(2), Some(0))
    );
    emu.authed("PUT", &format!("/appendable-data/{b}/{again}"))
        .ok();
    // Signers of items: the user's key.
    let (c, _) = emu.fetch_ad(1);
    let signer = emu
        .authed("GET", &format!("/appendable-data/sign-key/{c}/0"))
        .handle();
    let me = emu.authed("GET", "/sign-key").handle();
    assert_eq!(
        emu.authed("GET", &format!("/sign-key/serialise/{signer}"))
            .bytes,
        emu.authed("GET", &format!("/sign-key/serialise/{me}"))
            .bytes
    );
    emu.authed("GET", &format!("/appendable-data/sign-key/{c}/1"))
        .core(-1524);
    emu.authed(
        "GET",
        &format!("/appendable-data/sign-key/deleted-data/{c}/0"),
    )
    .core(-1524);
    emu.authed("DELETE", &format!("/appendable-data/clear-data/{c}"))
        .ok();
    emu.authed(
        "GET",
        &format!("/appendable-data/sign-key/deleted-data/{c}/0"),
    )
    .handle();
}

#[test]
fn filters_decide_who_may_append() {
    let emu = Emu::empty();
    let h = emu.create(1, json!({}));
    emu.authed("PUT", &format!("/appendable-data/{h}")).ok();
    let me = emu.authed("GET", "/sign-key/").handle();
    let filter = format!("/appendable-data/filter/{h}");
    let keys = |keys: Value| keys.to_string().into_bytes();
    let put_keys = |method: &str, list: Value| {
        emu.request(
            method,
            &filter,
            Some(&emu.token),
            Some(("application/json", &keys(list))),
        )
    };
    put_keys("PUT", json!([21])).core(-1519);
    put_keys("PUT", json!(["x"])).bad(&no_digits(1));
    // No JSON body: the loop over `{}` failed.
    emu.authed("PUT", &filter)
        .bad("keys[Symbol.iterator] is not a function");
    // An empty list edits nothing and looks nothing up.
    put_keys("PUT", json!([])).ok();
    emu.request(
        "PUT",
        "/appendable-data/filter/9999",
        Some(&emu.token),
        Some(("application/json", b"[]")),
    )
    .ok();
    // The sign key is looked up before the appendable data.
    emu.request(
        "PUT",
        "/appendable-data/filter/9999",
        Some(&emu.token),
        Some(("application/json", b"[21]")),
    )
    .core(-1519);
    put_keys("PUT", json!([me])).ok();
    assert_eq!(emu.meta(h)["filterLength"], 1);
    let item = emu.stored_sd(2, "x");
    // The filter is local until saved: the network's filter still lets the user in.
    let (probe, _) = emu.fetch_ad(1);
    assert_eq!(emu.meta(probe)["filterLength"], 0);
    emu.authed("POST", &format!("/appendable-data/{h}")).ok();
    emu.authed("PUT", &format!("/appendable-data/{h}/{item}"))
        .core(-25);
    let key = emu
        .authed("GET", &format!("/appendable-data/filter/{h}/0"))
        .handle();
    emu.authed("GET", &format!("/appendable-data/filter/{h}/1"))
        .core(-1524);
    put_keys("DELETE", json!([key])).ok();
    emu.authed("POST", &format!("/appendable-data/{h}")).ok();
    // Toggling gives the other type with no keys: a white list nobody is on.
    emu.authed("PUT", &format!("/appendable-data/toggle-filter/{h}"))
        .ok();
    let m = emu.meta(h);
    assert_eq!(
        (m["filterType"].as_str(), m["filterLength"].as_u64()),
        (Some("WhiteList"), Some(0))
    );
    emu.authed("POST", &format!("/appendable-data/{h}")).ok();
    emu.authed("PUT", &format!("/appendable-data/{h}/{item}"))
        .core(-25);
    put_keys("PUT", json!([me])).ok();
    emu.authed("POST", &format!("/appendable-data/{h}")).ok();
    emu.authed("PUT", &format!("/appendable-data/{h}/{item}"))
        .ok();
    emu.authed("PUT", "/appendable-data/toggle-filter/9999")
        .core(-1515);
    emu.authed("PUT", "/appendable-data/toggle-filter/x")
        .bad(&no_digits(0));
    assert_eq!(emu.fetch_ad(1).1["dataLength"], 1);
}

#[test]
fn encrypt_keys_of_private_data() {
    let emu = Emu::empty();
    let private = emu.create(1, json!({"isPrivate": true}));
    let public = emu.create(2, json!({}));
    let key = emu
        .authed("GET", &format!("/appendable-data/encrypt-key/{private}"))
        .handle();
    emu.authed("GET", &format!("/appendable-data/encrypt-key/{public}"))
        .core(-1525);
    emu.authed("GET", "/appendable-data/encrypt-key/9999")
        .core(-1515);
    emu.authed("DELETE", &format!("/appendable-data/encrypt-key/{key}"))
        .ok();
    emu.authed("DELETE", &format!("/appendable-data/encrypt-key/{key}"))
        .core(-1518);
    // Items of private data need the user's keys to be read.
    emu.authed("PUT", &format!("/appendable-data/{private}"))
        .ok();
    let item = emu.stored_sd(3, "x");
    emu.authed("PUT", &format!("/appendable-data/{private}/{item}"))
        .ok();
    let d = emu
        .json_authed(
            "POST",
            "/data-id/appendable-data",
            json!({"name": name(1), "isPrivate": true}),
        )
        .handle();
    let fresh = emu
        .authed("GET", &format!("/appendable-data/handle/{d}"))
        .json()["handleId"]
        .as_u64()
        .expect("handle");
    emu.anon("GET", &format!("/appendable-data/{fresh}/0"))
        .core(-1520);
    emu.authed("GET", &format!("/appendable-data/{fresh}/0"))
        .handle();
}

#[test]
fn serialised_handles_round_trip_in_the_emulators_own_format() {
    let emu = Emu::empty();
    let h = emu.create(1, json!({"filterType": "WHITE_LIST"}));
    let bytes = emu.authed("GET", &format!("/appendable-data/serialise/{h}"));
    assert_eq!(bytes.status, 200);
    assert!(bytes.content_type.starts_with("application/octet-stream"));
    emu.authed("GET", "/appendable-data/serialise/9999")
        .core(-1515);
    let back = emu
        .request(
            "POST",
            "/appendable-data/deserialise",
            None,
            Some(("text/plain", &bytes.bytes)),
        )
        .json();
    assert_eq!(
        back,
        json!({"handleId": back["handleId"], "isOwner": false, "version": 0,
               "filterType": "WhiteList", "dataLength": 0, "deletedDataLength": 0})
    );
    for path in [
        "/appendable-data/deserialise",
        "/structured-data/deserialise",
    ] {
        emu.request("POST", path, None, Some(("text/plain", b"junk")))
            .core(-1511);
        emu.anon("POST", path).core(-1511);
    }
    emu.request(
        "POST",
        "/sign-key/deserialise",
        Some(&emu.token),
        Some(("text/plain", b"junk")),
    )
    .core(-1511);
    // Data ids: an empty body has its own message; bytes of another kind do not deserialise.
    emu.anon("POST", "/data-id").bad("Body can not be empty");
    let d = emu
        .json_authed(
            "POST",
            "/data-id/structured-data",
            json!({"name": name(2), "typeTag": 501}),
        )
        .handle();
    let id_bytes = emu.authed("GET", &format!("/data-id/{d}")).bytes;
    emu.authed("GET", "/data-id/9999").core(-1514);
    emu.request("POST", "/data-id", None, Some(("text/plain", &bytes.bytes)))
        .core(-1511);
    let d2 = emu
        .request("POST", "/data-id", None, Some(("text/plain", &id_bytes)))
        .handle();
    assert_eq!(emu.authed("GET", &format!("/data-id/{d2}")).bytes, id_bytes);
    // Sign keys.
    let k = emu.authed("GET", "/sign-key").handle();
    let key_bytes = emu.authed("GET", &format!("/sign-key/serialise/{k}")).bytes;
    emu.authed("GET", "/sign-key/serialise/9999").core(-1519);
    let k2 = emu
        .request(
            "POST",
            "/sign-key/deserialise",
            Some(&emu.token),
            Some(("text/plain", &key_bytes)),
        )
        .handle();
    emu.authed("DELETE", &format!("/sign-key/{k2}")).ok();
    emu.authed("DELETE", &format!("/sign-key/{k2}")).core(-1519);
    // Structured data.
    let s = emu
        .json_authed(
            "POST",
            "/structured-data",
            json!({"name": name(3), "typeTag": 501, "data": b64(b"v0")}),
        )
        .handle();
    let sd_bytes = emu
        .authed("GET", &format!("/structured-data/serialise/{s}"))
        .bytes;
    emu.authed("GET", "/structured-data/serialise/9999")
        .core(-1513);
    let sd = emu
        .request(
            "POST",
            "/structured-data/deserialise",
            Some(&emu.token),
            Some(("text/plain", &sd_bytes)),
        )
        .json();
    assert_eq!(
        sd,
        json!({"handleId": sd["handleId"], "isOwner": true, "version": 0, "dataVersionLength": 1})
    );
}
