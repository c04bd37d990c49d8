//! The routes an appendable data works with: structured data (create validation, save, update,
//! read), data ids, and the eviction of the least recently used handle of every type.

use super::*;

// ---- structured data and data ids -----------------------------------------------------------

#[test]
fn structured_data_create_validation() {
    let emu = Emu::empty();
    let create = |body: Value| emu.json_authed("POST", "/structured-data/", body);
    create(json!({})).bad("name is missing in request body");
    create(json!({"name": b64(b"short")})).bad("Invalid id specified");
    create(json!({"name": name(1), "typeTag": "typeTag"})).bad("Tag type must be a valid number");
    create(json!({"name": name(1), "typeTag": 14999})).bad("Invalid tag type specified");
    // The plain cipher options are made once, on the first create that names none: handle 0.
    create(json!({"name": name(1), "data": 11}))
        .bad("If encoding is specified then the first argument must be a string");
    create(json!({"name": name(1), "cipherOpts": 11, "data": b64(b"x")})).core(-1517);
    create(json!({"name": name(1), "version": "v"})).bad(&no_digits(3));
    create(json!({"name": name(1), "cipherOpts": "c"})).bad(&no_digits(4));
    // The plain cipher options' handle is accepted when named.
    assert_eq!(
        create(json!({"name": name(1), "cipherOpts": 0, "typeTag": "15000"})).handle(),
        1
    );
    assert_eq!(create(json!({"name": name(2)})).handle(), 2);
}

#[test]
fn structured_data_save_update_read() {
    let emu = Emu::empty();
    let h = emu
        .json_authed(
            "POST",
            "/structured-data",
            json!({"name": name(1), "typeTag": 500, "data": b64(b"one")}),
        )
        .handle();
    emu.authed("POST", &format!("/structured-data/{h}"))
        .core(-22);
    emu.authed("PUT", &format!("/structured-data/{h}")).ok();
    emu.authed("PUT", &format!("/structured-data/{h}"))
        .core(-23);
    emu.authed("PUT", "/structured-data/9999").core(-1513);
    // Saving needs a token but not LOW_LEVEL_API.
    let plain = emu.token_with("[]");
    emu.request("PUT", "/structured-data/9999", Some(&plain), None)
        .core(-1513);
    // Unversioned: no dataVersionLength.
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/metadata/{h}"))
            .json(),
        json!({"isOwner": true, "version": 0})
    );
    emu.anon("GET", "/structured-data/metadata/9999")
        .core(-1513);
    let update = |handle: u64, text: &[u8]| {
        emu.json_authed(
            "PATCH",
            &format!("/structured-data/{handle}"),
            json!({"data": b64(text)}),
        )
    };
    update(h, b"two").ok();
    update(9999, b"two").core(-1513);
    emu.json_authed(
        "PATCH",
        &format!("/structured-data/{h}"),
        json!({"data": 11}),
    )
    .bad("If encoding is specified then the first argument must be a string");
    emu.json_authed(
        "PATCH",
        &format!("/structured-data/{h}"),
        json!({"data": "eA==", "cipherOpts": 11}),
    )
    .core(-1517);
    emu.authed("POST", &format!("/structured-data/{h}")).ok();
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/metadata/{h}"))
            .json()["version"],
        1
    );
    // A second handle fetched now goes stale when the first posts again.
    let d = emu
        .json_authed("POST", "/data-id/structured-data", json!({"name": name(1)}))
        .handle();
    let fetched = emu
        .anon("GET", &format!("/structured-data/handle/{d}/"))
        .json();
    assert_eq!(
        fetched,
        json!({"handleId": fetched["handleId"], "isOwner": false, "version": 1})
    );
    let other = fetched["handleId"].as_u64().expect("handle");
    update(h, b"three").ok();
    emu.authed("POST", &format!("/structured-data/{h}")).ok();
    update(other, b"late").ok();
    emu.authed("POST", &format!("/structured-data/{other}"))
        .core(-25);
    let read = emu.anon("GET", &format!("/structured-data/{h}"));
    assert_eq!(read.body, "three");
    emu.authed("GET", &format!("/structured-data/{h}/0"))
        .core(-1521);
    emu.authed("GET", "/structured-data/9999").core(-1513);
    // Versioned data keeps its versions.
    let v = emu
        .json_authed(
            "POST",
            "/structured-data",
            json!({"name": name(2), "typeTag": 501, "data": b64(b"a")}),
        )
        .handle();
    update(v, b"b").ok();
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/{v}/0")).body,
        "a"
    );
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/{v}/1")).body,
        "b"
    );
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/{v}/not-a-number"))
            .body,
        "b"
    );
    emu.authed("GET", &format!("/structured-data/{v}/2"))
        .core(-1522);
    // An update keeps the version (safe_core's `struct_data_new_data`); the POST bumps it.
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/metadata/{v}"))
            .json(),
        json!({"isOwner": true, "version": 0, "dataVersionLength": 2})
    );
    // Data read back empty is an empty 200.
    let empty = emu
        .json_authed("POST", "/structured-data", json!({"name": name(3)}))
        .handle();
    let r = emu.authed("GET", &format!("/structured-data/{empty}"));
    assert_eq!(
        (r.status, r.bytes.len(), r.content_type.as_str()),
        (200, 0, "")
    );
    assert_eq!(
        emu.authed("GET", &format!("/structured-data/validate-size/{v}"))
            .json(),
        json!({"isValid": true})
    );
    emu.authed("GET", "/structured-data/validate-size/9999")
        .core(-1513);
    emu.authed("GET", "/structured-data/data-id/9999")
        .core(-1513);
    emu.authed("GET", "/structured-data/handle/9999")
        .core(-1514);
    let missing = emu
        .json_authed("POST", "/data-id/structured-data", json!({"name": name(9)}))
        .handle();
    emu.authed("GET", &format!("/structured-data/handle/{missing}"))
        .core(-18);
    emu.anon("DELETE", &format!("/structured-data/handle/{v}"))
        .ok();
    emu.anon("DELETE", &format!("/structured-data/handle/{v}"))
        .core(-1513);
}

#[test]
fn data_id_routes() {
    let emu = Emu::empty();
    // No name check: a missing name failed in `new Buffer`.
    emu.json_authed("POST", "/data-id/appendable-data", json!({}))
        .bad("First argument must be a string, Buffer, ArrayBuffer, Array, or array-like object.");
    // typeTag defaults to 500 and is taken as the core took it.
    let d = emu
        .json_authed("POST", "/data-id/structured-data", json!({"name": name(1)}))
        .handle();
    emu.json_authed(
        "POST",
        "/data-id/structured-data",
        json!({"name": name(1), "typeTag": null}),
    )
    .bad("error setting argument 0 - writeUInt64: Number/String 64-bit value required");
    let sd = emu
        .json_authed(
            "POST",
            "/structured-data",
            json!({"name": name(1), "data": b64(b"x")}),
        )
        .handle();
    emu.authed("PUT", &format!("/structured-data/{sd}")).ok();
    emu.authed("GET", &format!("/structured-data/handle/{d}"))
        .json();
    emu.anon("DELETE", &format!("/data-id/{d}")).ok();
    emu.anon("DELETE", &format!("/data-id/{d}")).core(-1514);
    emu.anon("DELETE", "/data-id/x").bad(&no_digits(0));
}

#[test]
fn handles_of_every_type_are_evicted_least_recently_used_first() {
    let emu = Emu::empty();
    let first = emu.authed("GET", "/sign-key").handle();
    let second = emu.authed("GET", "/sign-key").handle();
    for _ in 2..100 {
        emu.authed("GET", "/sign-key").handle();
    }
    // Use the first: the second is now the least recently used.
    emu.authed("GET", &format!("/sign-key/serialise/{first}"));
    emu.authed("GET", "/sign-key").handle();
    assert_eq!(
        emu.authed("GET", &format!("/sign-key/serialise/{first}"))
            .status,
        200
    );
    emu.authed("GET", &format!("/sign-key/serialise/{second}"))
        .core(-1519);
}
