//! Bad handles (empty, spaces, signs, other digits, past u64, from standard input and its lines)
//! and bad data names for `create`.

use super::*;

pub(super) const HANDLES: &[Row] = &[
    row(
        "handle: empty",
        &["put", ""],
        2,
        &["safe-ad: error: invalid handle '' for put: it is empty", HANDLE_HINT],
    ),
    row(
        "handle: leading space",
        &["put", " 1"],
        2,
        &["invalid handle ' 1' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: trailing space",
        &["put", "1 "],
        2,
        &["invalid handle '1 ' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: inner space",
        &["post", "1 2"],
        2,
        &["invalid handle '1 2' for post: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: minus sign",
        &["put", "-1"],
        2,
        &["invalid handle '-1' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: plus sign",
        &["clear-data", "+1"],
        2,
        &["invalid handle '+1' for clear-data: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: plus sign, for put",
        &["put", "+1"],
        2,
        &["invalid handle '+1' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: hex",
        &["put", "0x10"],
        2,
        &["invalid handle '0x10' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: exponent",
        &["put", "1e3"],
        2,
        &["invalid handle '1e3' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: decimal point",
        &["metadata", "1.5"],
        2,
        &["invalid handle '1.5' for metadata: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: decimal point, for put",
        &["put", "1.5"],
        2,
        &["invalid handle '1.5' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: trailing letters",
        &["put", "12abc"],
        2,
        &["invalid handle '12abc' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: 2^64",
        &["put", "18446744073709551616"],
        2,
        &[
            "invalid handle '18446744073709551616' for put: it is larger than 18446744073709551615",
            HANDLE_HINT,
        ],
    ),
    row(
        "handle: 26 digits",
        &["put", "99999999999999999999999999"],
        2,
        &[
            "invalid handle '99999999999999999999999999' for put: it has more than 20 digits",
            HANDLE_HINT,
        ],
    ),
    row(
        "handle: 20 digits, past 2^64-1",
        &["put", "99999999999999999999"],
        2,
        &[
            "invalid handle '99999999999999999999' for put: it is larger than 18446744073709551615",
            HANDLE_HINT,
        ],
    ),
    row(
        "handle: Arabic-Indic digits",
        &["put", "١٢٣"],
        2,
        &["invalid handle '١٢٣' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: two Arabic-Indic digits",
        &["put", "١٢"],
        2,
        &["invalid handle '١٢' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: fullwidth digits",
        &["put", "１２"],
        2,
        &["invalid handle '１２' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: not UTF-8",
        &["put", "1{xff}"],
        2,
        &["invalid handle '1\u{fffd}' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: a valid one after a bad one",
        &["put", "1", "x", "2"],
        2,
        &["invalid handle 'x' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: a bad one after a valid one, for put",
        &["put", "1", "x"],
        2,
        &["invalid handle 'x' for put: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: a bad one after a valid one, for post",
        &["post", "1", "x"],
        2,
        &["invalid handle 'x' for post: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: a bad one after a valid one, for clear-data",
        &["clear-data", "1", "x"],
        2,
        &["invalid handle 'x' for clear-data: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: a bad one after a valid one, for clear-deleted-data",
        &["clear-deleted-data", "1", "x"],
        2,
        &["invalid handle 'x' for clear-deleted-data: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: 2^64 after two valid ones, for put",
        &["put", "1", "2", "18446744073709551616"],
        2,
        &[
            "invalid handle '18446744073709551616' for put: it is larger than 18446744073709551615",
            HANDLE_HINT,
        ],
    ),
    row(
        "handle: 2^64 after two valid ones, for post",
        &["post", "1", "2", "18446744073709551616"],
        2,
        &[
            "invalid handle '18446744073709551616' for post: it is larger than 18446744073709551615",
            HANDLE_HINT,
        ],
    ),
    row(
        "handle: 2^64 after two valid ones, for clear-data",
        &["clear-data", "1", "2", "18446744073709551616"],
        2,
        &[
            "invalid handle '18446744073709551616' for clear-data: it is larger than 18446744073709551615",
            HANDLE_HINT,
        ],
    ),
    row(
        "handle: 2^64 after two valid ones, for clear-deleted-data",
        &["clear-deleted-data", "1", "2", "18446744073709551616"],
        2,
        &[
            "invalid handle '18446744073709551616' for clear-deleted-data: it is larger than 18446744073709551615",
            HANDLE_HINT,
        ],
    ),
    row(
        "handle: an empty one before a valid one, for put",
        &["put", "", "7"],
        2,
        &["invalid handle '' for put: it is empty", HANDLE_HINT],
    ),
    row(
        "handle: an empty one before a valid one, for post",
        &["post", "", "7"],
        2,
        &["invalid handle '' for post: it is empty", HANDLE_HINT],
    ),
    row(
        "handle: an empty one before a valid one, for clear-data",
        &["clear-data", "", "7"],
        2,
        &["invalid handle '' for clear-data: it is empty", HANDLE_HINT],
    ),
    row(
        "handle: an empty one before a valid one, for clear-deleted-data",
        &["clear-deleted-data", "", "7"],
        2,
        &["invalid handle '' for clear-deleted-data: it is empty", HANDLE_HINT],
    ),
    // A leading hyphen after a handle: the argument parser takes some of these for options.
    row(
        "handle: minus sign after a valid one",
        &["post", "5", "-1"],
        2,
        &["invalid handle '-1' for post: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: minus zero after a valid one",
        &["post", "5", "-0"],
        2,
        &["invalid handle '-0' for post: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: minus sign and exponent after a valid one",
        &["post", "5", "-1e3"],
        2,
        &["invalid handle '-1e3' for post: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "handle: two minus signs after a valid one (taken for an option)",
        &["post", "5", "--1"],
        2,
        &["safe-ad: error: `safe-ad post` has no option --1", "hint: `safe-ad post --help` lists its options"],
    ),
    row(
        "handle: minus and a letter after a valid one (taken for an option)",
        &["post", "5", "-x"],
        2,
        &["safe-ad: error: `safe-ad post` has no option -x"],
    ),
    Row {
        stdin: b"\n7\x00\n",
        ..row(
            "handle: NUL byte (argv cannot hold one: stdin `-`)",
            &["put", "-"],
            2,
            &[
                "safe-ad: error: invalid handle '7\\u{0}' on line 2 of standard input for put: it is not a plain decimal number",
                HANDLE_HINT,
            ],
        )
    },
    Row {
        stdin: b"1\n",
        ..row(
            "handle: `-` twice",
            &["put", "-", "-"],
            2,
            &["`-` (standard input) is given more than once"],
        )
    },
    row(
        "handle: none",
        &["put"],
        2,
        &["the following required arguments were not provided", "<HANDLE>"],
    ),
];

pub(super) const NAMES: &[Row] = &[
    row(
        "name: empty",
        &["create", ""],
        2,
        &[
            "safe-ad: error: invalid name '' for create: it is empty",
            NAME_HINT,
        ],
    ),
    row(
        "name: base64 without its padding (43 characters)",
        &["open", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"],
        2,
        &["for open: it is 43 characters of base64 without the '=' that ends a name", NAME_HINT],
    ),
    row(
        "name: base64 of 31 bytes",
        &["create", "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBw=="],
        2,
        &["for create: it is 31 bytes, not 32", NAME_HINT],
    ),
    row(
        "name: base64 of 33 bytes",
        &["open", "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcH"],
        2,
        &["for open: it is 33 bytes, not 32", NAME_HINT],
    ),
    row(
        "name: 62 hex digits (31 bytes)",
        &[
            "create",
            "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        ],
        2,
        &["it is 62 hex digits, and a name in hex has 64", NAME_HINT],
    ),
    row(
        "name: 66 hex digits (33 bytes)",
        &[
            "open",
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
        ],
        2,
        &["it is 66 hex digits, and a name in hex has 64", NAME_HINT],
    ),
    row(
        "name: the URL-safe base64 alphabet",
        &["open", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh_-"],
        2,
        &["it holds '_': URL-safe base64, where a name is written in standard base64", NAME_HINT],
    ),
    row(
        "name: words",
        &["create", "my data"],
        2,
        &["invalid name 'my data' for create: it holds a space, which is neither base64 nor hex"],
    ),
    row(
        "name: base64 without its padding, where a handle goes",
        &["metadata", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"],
        2,
        &[
            "invalid name 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8' for metadata: it is 43 characters of base64 without the '=' that ends a name",
            NAME_HINT,
        ],
    ),
    row(
        "name: 63 decimal hex digits, where a handle goes",
        &["append", "000000000000000000000000000000000000000000000000000000000000001", "--structured", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="],
        2,
        &["for append: it is 63 hex digits, and a name in hex has 64", NAME_HINT],
    ),
];

#[test]
fn bad_handles_are_refused() {
    check_group(HANDLES);
}

#[test]
fn bad_names_are_refused() {
    check_group(NAMES);
}
