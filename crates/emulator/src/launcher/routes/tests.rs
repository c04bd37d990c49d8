use super::*;

#[test]
fn strict_ids_are_canonical_decimal_only() {
    assert_eq!(parse_id("0"), Some(0));
    assert_eq!(parse_id("7"), Some(7));
    assert_eq!(parse_id("18446744073709551615"), Some(u64::MAX));
    for bad in [
        "",
        "00",
        "010",
        "-1",
        "+1",
        "0x10",
        "12abc",
        " 1",
        "1 ",
        "%31",
        "1.0",
        "1e3",
        "18446744073709551616",
        "99999999999999999999999",
    ] {
        assert_eq!(parse_id(bad), None, "{bad:?}");
    }
}

#[test]
fn bearer_parsing() {
    let with = |v: &str| {
        let mut h = HeaderMap::new();
        h.insert(
            AUTHORIZATION,
            hyper::header::HeaderValue::from_str(v).unwrap(),
        );
        bearer(&h).map(|t| t.map(str::to_owned))
    };
    assert_eq!(bearer(&HeaderMap::new()), Ok(None));
    assert_eq!(with(""), Ok(None));
    assert_eq!(with("Bearer abc"), Ok(Some("abc".into())));
    assert_eq!(with("bEARER abc"), Ok(Some("abc".into())));
    for bad in [
        "Bearer",
        "Bearer ",
        "Bearer  abc",
        "Bearer a b",
        "Basic abc",
        "Bearerabc",
        "Token abc",
    ] {
        assert_eq!(with(bad), Err(()), "{bad:?}");
    }
}

#[test]
fn core_errors_render_as_the_launcher_did() {
    let r = core_error(Code::NO_SUCH_DATA);
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(
        r.body,
        Bytes::from_static(
            br#"{"errorCode":-22,"description":"CoreError::MutationFailure::MutationError::NoSuchData"}"#
        )
    );
    assert_eq!(
        core_error(Code::DATA_EXISTS).status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        core_error(Code::GET_NO_SUCH_DATA).status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        core_error(Code::INVALID_AD_HANDLE).status,
        StatusCode::BAD_REQUEST
    );
    // Every code the state can produce has its own description.
    for code in [
        Code::UNEXPECTED_DATA,
        Code::ENCODE_DECODE,
        Code::INVALID_SD_HANDLE,
        Code::INVALID_CIPHER_OPT_HANDLE,
        Code::INVALID_ENCRYPT_KEY_HANDLE,
        Code::FORBIDDEN_FOR_APP,
        Code::INVALID_TYPE_TAG,
        Code::INVALID_VERSION,
        Code::UNSUPPORTED,
        Code::NETWORK_FULL,
        Code::CORE_ENCODE_DECODE,
        Code::INVALID_OPERATION,
        Code::DATA_TOO_LARGE,
        Code::INVALID_SELF_ENCRYPTOR_HANDLE,
        Code::INVALID_READ_OFFSETS,
    ] {
        assert_ne!(describe(code), "Unexpected error", "{code:?}");
    }
    // The emulator's own refusal of a save past the last version: as its other own refusals,
    // 400 and errorCode 400, in words that name the limit.
    let r = core_error(Code::VERSION_LIMIT);
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        r.body,
        Bytes::from(format!(
            r#"{{"errorCode":400,"description":"Version limit: this save would pass {LAST_VERSION}, the last version a save reaches in safe-ad emulator (a --state file holds no later one); nothing was saved"}}"#
        ))
    );
}

#[test]
fn forms_as_querystring_parsed_them() {
    assert_eq!(
        form(b"name=a%2Bb+c&isPrivate=true&k=1&k=2&bad=%zz"),
        serde_json::json!({"name": "a+b c", "isPrivate": "true", "k": ["1", "2"], "bad": "%zz"})
    );
}
