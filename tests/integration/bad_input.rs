//! Every bad input safe-ad can receive, in one table: handles, launcher URLs, tokens, config
//! files, numeric options and command lines. Each row gives the exit code and the words the
//! message must contain, and proves that nothing reached the launcher: every row points at a
//! loopback server that counts the connections it accepts. Every refusal starts with
//! `safe-ad: error: `, and every position it names (`line L, column C`) counts from 1.
//!
//! The table has one test per group of rows. TESTING.md shows the whole table; a test checks it
//! is the table here, and the regeneration command
//! (`cargo test --test integration regenerate -- --ignored`) rewrites it there after the table
//! changes.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::Path;

use crate::generated::{assert_asked_by_name, REGENERATE};
use crate::harness::*;

/// What a row puts in the sandbox before it runs, at a path relative to the sandbox directory.
#[derive(Clone, Copy)]
enum Make<'a> {
    /// A file with these bytes (placeholders replaced) and this mode.
    File(&'a [u8], u32),
    Dir,
}

/// One bad input. In `args`, `env`, file contents, stdin, `words` and `absent`: `{url}` is the
/// counting server's base URL, `{addr}` its `127.0.0.1:port`, `{port}` its port, `{dir}` the
/// sandbox directory, `{token}` the test token, `{front}` and `{back}` its two halves, and `{xff}`
/// the byte 0xFF (which is not UTF-8). The config file is `{dir}/config/config.json`
/// (`SAFE_AD_CONFIG_DIR`).
struct Row {
    input: &'static str,
    args: &'static [&'static str],
    env: &'static [(&'static str, &'static str)],
    files: &'static [(&'static str, Make<'static>)],
    stdin: &'static [u8],
    /// A launcher URL given each way in turn ([`SOURCES`]); `{source}` in `words` names the way.
    url: Option<&'static str>,
    code: i32,
    words: &'static [&'static str],
    /// Text that must not appear in the output (a password typed into a URL).
    absent: &'static [&'static str],
    /// Connections the launcher must see: 0 for every error, 1 for the one warning.
    connections: usize,
    /// Whether the row needs a file safe-ad cannot read (mode 000): root reads any file, so the
    /// row runs safe-ad held to file permissions.
    unreadable: bool,
}

/// The launcher URL and the test token in the environment: what a working setup has.
const SETUP: &[(&str, &str)] = &[
    ("SAFE_LAUNCHER_URL", "{url}"),
    ("SAFE_LAUNCHER_TOKEN", "{token}"),
];
/// The launcher URL only: the token comes from the config file, or nowhere.
const URL_ONLY: &[(&str, &str)] = &[("SAFE_LAUNCHER_URL", "{url}")];
const CONFIG: &str = "config/config.json";
const NAME_HINT: &str = "hint: a name is 32 bytes, as standard base64 (44 characters, ending in '=') or as 64 hex digits; nothing was sent";
const HANDLE_HINT: &str =
    "hint: a handle is plain decimal digits, 0 to 18446744073709551615; nothing was sent";
const TIMEOUT_RANGE: &str = "must be more than 0 and at most 86400 seconds (one day)";
const TOKEN_HINT: &str =
    "hint: a token is one line of printable ASCII text with no spaces; check what was pasted";

/// The ways a launcher URL is given, as `{source}` reads for each.
const SOURCES: [(Source, &str); 3] = [
    (Source::Flag, "from --launcher-url"),
    (Source::Env, "from env var SAFE_LAUNCHER_URL"),
    (
        Source::ConfigFile,
        "from config file {dir}/config/config.json",
    ),
];

#[derive(Clone, Copy)]
enum Source {
    /// `--launcher-url URL`, with a good URL and the token in the environment.
    Flag,
    /// `SAFE_LAUNCHER_URL=URL`, with the token in the environment.
    Env,
    /// `launcher_url` in the config file, with the token there too; nothing in the environment.
    ConfigFile,
}

const fn row(
    input: &'static str,
    args: &'static [&'static str],
    code: i32,
    words: &'static [&'static str],
) -> Row {
    Row {
        input,
        args,
        env: SETUP,
        files: &[],
        stdin: b"",
        url: None,
        code,
        words,
        absent: &[],
        connections: 0,
        unreadable: false,
    }
}

/// `safe-ad put 1` with a bad launcher URL, given each way in turn.
const fn url_row(input: &'static str, url: &'static str, words: &'static [&'static str]) -> Row {
    Row {
        url: Some(url),
        ..row(input, &["put", "1"], 2, words)
    }
}

const fn with_files(mut row: Row, files: &'static [(&'static str, Make<'static>)]) -> Row {
    row.files = files;
    row
}

const fn with_env(mut row: Row, env: &'static [(&'static str, &'static str)]) -> Row {
    row.env = env;
    row
}

/// A token file at `{dir}/token` (mode 600) holding these bytes: `--token-file {dir}/token put 1`.
macro_rules! token_file {
    ($input:expr, $contents:expr, $words:expr $(,)?) => {
        with_files(
            row(
                $input,
                &["--token-file", "{dir}/token", "put", "1"],
                2,
                $words,
            ),
            &[("token", Make::File($contents, 0o600))],
        )
    };
}

/// A config file (mode 600) holding these bytes, with the URL and token in the environment.
macro_rules! config_file {
    ($input:expr, $contents:expr, $words:expr $(,)?) => {
        with_files(
            row($input, &["put", "1"], 2, $words),
            &[(CONFIG, Make::File($contents, 0o600))],
        )
    };
}

/// The groups of rows, each its own test, in the order TESTING.md shows them.
const GROUPS: [&[Row]; 8] = [
    HANDLES,
    NAMES,
    URLS,
    TOKENS,
    CONFIG_FILES,
    OPTIONS,
    COMMAND_LINES,
    ITEMS,
];

const HANDLES: &[Row] = &[
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
            "invalid handle '99999999999999999999999999' for put: it is larger than 18446744073709551615",
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
        &["safe-ad: error: unexpected argument '--1' found"],
    ),
    row(
        "handle: minus and a letter after a valid one (taken for an option)",
        &["post", "5", "-x"],
        2,
        &["safe-ad: error: unexpected argument '-x' found"],
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

const NAMES: &[Row] = &[
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
        &["for open: it is neither standard base64 nor hex", NAME_HINT],
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
        &["it is 31 bytes, not 32", NAME_HINT],
    ),
    row(
        "name: 66 hex digits (33 bytes)",
        &[
            "open",
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
        ],
        2,
        &["it is 33 bytes, not 32", NAME_HINT],
    ),
    row(
        "name: the URL-safe base64 alphabet",
        &["open", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh_-"],
        2,
        &["it is neither standard base64 nor hex", NAME_HINT],
    ),
    row(
        "name: words",
        &["create", "my data"],
        2,
        &["invalid name 'my data' for create: it is neither standard base64 nor hex"],
    ),
];

const URLS: &[Row] = &[
    url_row(
        "URL: no scheme",
        "{addr}",
        &[
            "safe-ad: error: invalid launcher URL '{addr}' ({source}): it has no scheme; start it with http:// or https://",
            "hint: use a URL like http://localhost:8100 or http://127.0.0.1:8100/0.6",
        ],
    ),
    url_row(
        "URL: no scheme, a host name",
        "localhost:{port}",
        &["invalid launcher URL 'localhost:{port}' ({source}): it has no scheme"],
    ),
    url_row(
        "URL: ftp://",
        "ftp://{addr}",
        &["invalid launcher URL 'ftp://{addr}' ({source}): the scheme is 'ftp'; only http:// and https:// are supported"],
    ),
    url_row(
        "URL: no host",
        "http://",
        &["invalid launcher URL 'http://' ({source}): it has no host"],
    ),
    url_row(
        "URL: no host, only a port",
        "http://:80",
        &["invalid launcher URL 'http://:80' ({source}): empty host"],
    ),
    url_row(
        "URL: no host, the address in the path (`http:///host:port`)",
        "http:///{addr}",
        &["invalid launcher URL 'http:///{addr}' ({source}): it has no host"],
    ),
    Row {
        absent: &["s3cretpw"],
        ..url_row(
            "URL: user name and password",
            "http://user:s3cretpw@{addr}",
            &["invalid launcher URL 'http://***@{addr}' ({source}): it contains a user name or password; the token is the only credential sent"],
        )
    },
    url_row(
        "URL: user name only",
        "http://user@{addr}",
        &["invalid launcher URL 'http://***@{addr}' ({source}): it contains a user name or password"],
    ),
    url_row(
        "URL: a space in the path",
        "http://{addr}/a b",
        &["invalid launcher URL 'http://{addr}/a b' ({source}): it contains spaces or control characters"],
    ),
    url_row(
        "URL: a space before the host",
        "http:// {addr}",
        &["invalid launcher URL 'http:// {addr}' ({source}): it contains spaces or control characters"],
    ),
    url_row(
        "URL: a query",
        "http://{addr}/?x=1",
        &["invalid launcher URL 'http://{addr}/?x=1' ({source}): it has a query (?...) or fragment (#...); give only scheme, host, port and path prefix"],
    ),
    url_row(
        "URL: a fragment",
        "http://{addr}/#top",
        &["invalid launcher URL 'http://{addr}/#top' ({source}): it has a query (?...) or fragment (#...)"],
    ),
    url_row(
        "URL: empty",
        "",
        &["invalid launcher URL '' ({source}): it is empty"],
    ),
];

const TOKENS: &[Row] = &[
    token_file!(
        "token file: empty",
        b"",
        &["safe-ad: error: the token is empty (from --token-file)", TOKEN_HINT],
    ),
    token_file!(
        "token file: only a newline",
        b"\n",
        &["the token is empty (from --token-file)"],
    ),
    token_file!(
        "token file: only white space",
        b"  \n\t \n",
        &["the token is empty (from --token-file)"],
    ),
    with_files(
        row(
            "token file: a directory",
            &["--token-file", "{dir}/token", "put", "1"],
            2,
            &["cannot read token file {dir}/token: it is a directory", "hint: check the path given to --token-file"],
        ),
        &[("token", Make::Dir)],
    ),
    row(
        "token file: missing",
        &["--token-file", "{dir}/missing", "put", "1"],
        2,
        &["cannot read token file {dir}/missing: no such file"],
    ),
    Row {
        unreadable: true,
        ..with_files(
            row(
                "token file: unreadable (mode 000)",
                &["--token-file", "{dir}/token", "put", "1"],
                2,
                &["cannot read token file {dir}/token: permission denied"],
            ),
            &[("token", Make::File(b"{token}\n", 0o000))],
        )
    },
    token_file!(
        "token file: the token with a space inside",
        b"{front} {back}\n",
        &["the token has whitespace inside it (from --token-file)", TOKEN_HINT],
    ),
    token_file!(
        "token file: inner newline",
        b"first-half\nsecond-half\n",
        &["the token has whitespace inside it (from --token-file)"],
    ),
    token_file!(
        "token file: the token split over two lines",
        b"{front}\n{back}\n",
        &["the token has whitespace inside it (from --token-file)"],
    ),
    token_file!(
        "token file: the token with a tab inside",
        b"{front}\t{back}",
        &["the token has whitespace inside it (from --token-file)"],
    ),
    token_file!(
        "token file: non-ASCII",
        "tökén-abc".as_bytes(),
        &["the token has a non-ASCII character in it (from --token-file)"],
    ),
    token_file!(
        "token file: the token with a non-ASCII letter inside",
        "{front}é{back}".as_bytes(),
        &["the token has a non-ASCII character in it (from --token-file)"],
    ),
    token_file!(
        "token file: a control character",
        b"abc\x07def",
        &["the token has a control character in it (from --token-file)"],
    ),
    token_file!(
        "token file: the token with a control character inside",
        b"{front}\x01{back}",
        &["the token has a control character in it (from --token-file)"],
    ),
    token_file!(
        "token file: the token with DEL inside",
        b"{front}\x7f{back}",
        &["the token has a control character in it (from --token-file)"],
    ),
    token_file!(
        "token file: not UTF-8",
        b"abc\xff\xfe",
        &["the token from {dir}/token is not text", "hint: point --token-file at a file that holds only the token"],
    ),
    token_file!(
        "token file: the token with bytes that are not UTF-8 inside",
        b"{front}\xff\xfe{back}",
        &["the token from {dir}/token is not text", "hint: point --token-file at a file that holds only the token"],
    ),
    token_file!(
        "token file: larger than 64 KiB",
        &[b'a'; 65 * 1024],
        &["the token from {dir}/token is larger than 64 KiB; that is not a token"],
    ),
    token_file!(
        "token file: 70 KiB",
        &[b'a'; 70 * 1024],
        &["the token from {dir}/token is larger than 64 KiB; that is not a token", "hint: point --token-file at a file that holds only the token"],
    ),
    row(
        "token on stdin: empty",
        &["--token-file", "-", "put", "1"],
        2,
        &["the token is empty (from --token-file - (standard input))"],
    ),
    Row {
        stdin: b"{front} {back}\n",
        ..row(
            "token on stdin: the token with a space inside",
            &["--token-file", "-", "put", "1"],
            2,
            &["the token has whitespace inside it (from --token-file - (standard input))", TOKEN_HINT],
        )
    },
    row(
        "token on stdin and handles on stdin",
        &["--token-file", "-", "put", "-"],
        2,
        &["standard input cannot hold both the token (--token-file -) and the handles (-)"],
    ),
    with_env(
        row(
            "token env var: empty",
            &["put", "1"],
            2,
            &["the token is empty (from env var SAFE_LAUNCHER_TOKEN)", TOKEN_HINT],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", "")],
    ),
    with_env(
        row(
            "token env var: only white space",
            &["put", "1"],
            2,
            &["the token is empty (from env var SAFE_LAUNCHER_TOKEN)"],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", " \t")],
    ),
    with_env(
        row(
            "token env var: inner space",
            &["put", "1"],
            2,
            &["the token has whitespace inside it (from env var SAFE_LAUNCHER_TOKEN)"],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", "two words")],
    ),
    with_env(
        row(
            "token env var: the token split over two lines",
            &["put", "1"],
            2,
            &["the token has whitespace inside it (from env var SAFE_LAUNCHER_TOKEN)"],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", "{front}\n{back}")],
    ),
    with_env(
        row(
            "token env var: the token with an escape character inside",
            &["put", "1"],
            2,
            &["the token has a control character in it (from env var SAFE_LAUNCHER_TOKEN)"],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", "{front}\x1b{back}")],
    ),
    with_env(
        row(
            "token env var: not UTF-8",
            &["put", "1"],
            2,
            &["safe-ad: error: SAFE_LAUNCHER_TOKEN is not valid UTF-8", "hint: a token is plain ASCII text"],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", "tok{xff}en")],
    ),
    with_env(
        with_files(
            row(
                "token in the config file: empty",
                &["put", "1"],
                2,
                &["the token is empty (from config file {dir}/config/config.json)", TOKEN_HINT],
            ),
            &[(CONFIG, Make::File(br#"{"token": ""}"#, 0o600))],
        ),
        URL_ONLY,
    ),
    with_env(
        with_files(
            row(
                "config file: bad token inside",
                &["put", "1"],
                2,
                &["the token has whitespace inside it (from config file {dir}/config/config.json)"],
            ),
            &[(CONFIG, Make::File(br#"{"token": "two words"}"#, 0o600))],
        ),
        URL_ONLY,
    ),
    with_env(
        with_files(
            row(
                "token in the config file: the token with a space inside",
                &["put", "1"],
                2,
                &["the token has whitespace inside it (from config file {dir}/config/config.json)"],
            ),
            &[(CONFIG, Make::File(br#"{"token": "{front} {back}"}"#, 0o600))],
        ),
        URL_ONLY,
    ),
    with_env(
        with_files(
            row(
                "token in the config file: the token with a non-ASCII letter inside",
                &["put", "1"],
                2,
                &["the token has a non-ASCII character in it (from config file {dir}/config/config.json)"],
            ),
            &[(CONFIG, Make::File(br#"{"token": "{front}\u00e9{back}"}"#, 0o600))],
        ),
        URL_ONLY,
    ),
    with_env(
        row(
            "token: none anywhere",
            &["put", "1"],
            3,
            &[
                "safe-ad: error: no token found",
                "hint: run `safe-ad auth login`, or give one with --token-file PATH, the env var SAFE_LAUNCHER_TOKEN, or the \"token\" key in {dir}/config/config.json",
            ],
        ),
        URL_ONLY,
    ),
    with_env(
        with_files(
            row(
                "token: none anywhere, the config file holds other keys",
                &["put", "1"],
                3,
                &[
                    "safe-ad: error: no token found",
                    "hint: run `safe-ad auth login`, or give one with --token-file PATH, the env var SAFE_LAUNCHER_TOKEN, or the \"token\" key in {dir}/config/config.json",
                ],
            ),
            &[(CONFIG, Make::File(br#"{"timeout_secs": 5}"#, 0o600))],
        ),
        URL_ONLY,
    ),
];

const CONFIG_FILES: &[Row] = &[
    config_file!(
        "config file: empty",
        b"",
        &["config file {dir}/config/config.json: it is empty; write {} for an empty config, or delete the file"],
    ),
    config_file!(
        "config file: only blank lines",
        b" \n\n",
        &[
            "config file {dir}/config/config.json: it is empty; write {} for an empty config, or delete the file",
            "hint: fix or remove the file; it may hold only the keys launcher_url, token, timeout_secs",
        ],
    ),
    config_file!(
        "config file: malformed JSON",
        b"{\"token\": ",
        &["config file {dir}/config/config.json: line 1, column 10: EOF while parsing a value"],
    ),
    config_file!(
        "config file: malformed JSON on line 3",
        b"{\n  \"token\": \"abc\"\n  \"timeout_secs\": 5\n}",
        &["config file {dir}/config/config.json: line 3, column 3: expected `,` or `}`"],
    ),
    config_file!(
        "config file: not an object",
        b"[1, 2]",
        &["config file {dir}/config/config.json: line 1, column", "a JSON object"],
    ),
    config_file!(
        "config file: not an object (`[1]`)",
        b"[1]",
        &["config file {dir}/config/config.json: line 1, column 1: invalid type: sequence, expected a JSON object with the keys launcher_url, token, timeout_secs"],
    ),
    config_file!(
        "config file: not an object (`[]`)",
        b"[]",
        &["config file {dir}/config/config.json: line 1, column 1: invalid type: sequence, expected a JSON object"],
    ),
    config_file!(
        "config file: not an object, on line 2",
        b"\n[\"token\"]",
        &["config file {dir}/config/config.json: line 2, column 1: invalid type: sequence, expected a JSON object"],
    ),
    config_file!(
        "config file: not an object (a string)",
        br#""token""#,
        &["config file {dir}/config/config.json: line 1, column 7: invalid type: string \"token\", expected a JSON object"],
    ),
    config_file!(
        "config file: not an object (null)",
        b"null",
        &["config file {dir}/config/config.json: line 1, column 4: invalid type: null, expected a JSON object"],
    ),
    config_file!(
        "config file: not an object (true)",
        b"true",
        &["config file {dir}/config/config.json: line 1, column 4: invalid type: boolean `true`, expected a JSON object"],
    ),
    config_file!(
        "config file: not an object (a number)",
        b"42",
        &["config file {dir}/config/config.json: line 1, column 2: invalid type: integer `42`, expected a JSON object"],
    ),
    config_file!(
        "config file: wrong type (timeout as a string)",
        br#"{"timeout_secs": "5"}"#,
        &["config file {dir}/config/config.json: line 1, column 2: key `timeout_secs` must be a number of seconds, not a string"],
    ),
    config_file!(
        "config file: wrong type (timeout as a string, on line 2)",
        b"{\n  \"timeout_secs\": \"5\"\n}",
        &["config file {dir}/config/config.json: line 2, column 3: key `timeout_secs` must be a number of seconds, not a string"],
    ),
    config_file!(
        "config file: wrong type (token as a number)",
        br#"{"token": 5}"#,
        &["config file {dir}/config/config.json: line 1, column 2: key `token` must be a string, not a number"],
    ),
    config_file!(
        "config file: wrong type (URL as null)",
        br#"{"launcher_url": null}"#,
        &["config file {dir}/config/config.json: line 1, column 2: key `launcher_url` must be a string, not null"],
    ),
    config_file!(
        "config file: unknown key",
        b"{\n  \"tokn\": \"x\"\n}\n",
        &["config file {dir}/config/config.json: line 2, column 3: unknown key `tokn` (did you mean `token`?)"],
    ),
    config_file!(
        "config file: unknown key at the start of line 2",
        b"{\n\"tokn\": \"x\"}",
        &["config file {dir}/config/config.json: line 2, column 1: unknown key `tokn` (did you mean `token`?); the keys are launcher_url, token, timeout_secs"],
    ),
    config_file!(
        "config file: unknown key (`launcher-url`)",
        br#"{"launcher-url": "http://127.0.0.1:1"}"#,
        &["config file {dir}/config/config.json: line 1, column 2: unknown key `launcher-url` (did you mean `launcher_url`?)"],
    ),
    config_file!(
        "config file: repeated key",
        br#"{"timeout_secs": 5, "timeout_secs": 6}"#,
        &["key `timeout_secs` appears twice; keep one"],
    ),
    config_file!(
        "config file: repeated key on line 2",
        b"{\"token\": \"a\",\n \"token\": \"b\"}",
        &["config file {dir}/config/config.json: line 2, column 2: key `token` appears twice; keep one"],
    ),
    config_file!(
        "config file: not UTF-8",
        b"{\"launcher_url\": \"\xff\"}",
        &["config file {dir}/config/config.json: it is not UTF-8 text"],
    ),
    config_file!(
        "config file: not UTF-8 in the token",
        b"{\"token\": \"\xff\"}",
        &["config file {dir}/config/config.json: it is not UTF-8 text"],
    ),
    with_files(
        row(
            "config file: a directory",
            &["put", "1"],
            2,
            &["config file {dir}/config/config.json: it is a directory, not a file"],
        ),
        &[(CONFIG, Make::Dir)],
    ),
    Row {
        unreadable: true,
        ..with_files(
            row(
                "config file: unreadable (mode 000)",
                &["put", "1"],
                2,
                &["config file {dir}/config/config.json: cannot open it: permission denied"],
            ),
            &[(CONFIG, Make::File(b"{}", 0o000))],
        )
    },
    with_env(
        row(
            "config dir env var: empty",
            &["put", "1"],
            2,
            &["SAFE_AD_CONFIG_DIR is set but empty"],
        ),
        &[
            ("SAFE_LAUNCHER_URL", "{url}"),
            ("SAFE_LAUNCHER_TOKEN", "{token}"),
            ("SAFE_AD_CONFIG_DIR", ""),
        ],
    ),
    Row {
        connections: 1,
        ..with_env(
            with_files(
                row(
                    "config file: token in a world-readable file (a warning; the drop runs)",
                    &["drop", "1"],
                    0,
                    &["safe-ad: warning: config file {dir}/config/config.json holds a token and can be read by other users (mode 644); run: chmod 600 {dir}/config/config.json"],
                ),
                &[(CONFIG, Make::File(br#"{"token": "{token}"}"#, 0o644))],
            ),
            URL_ONLY,
        )
    },
];

const OPTIONS: &[Row] = &[
    row(
        "--timeout 0",
        &["--timeout", "0", "put", "1"],
        2,
        &["invalid value '0' for '--timeout <SECS>'", TIMEOUT_RANGE],
    ),
    row(
        "--timeout=0",
        &["--timeout=0", "put", "1"],
        2,
        &["invalid value '0' for '--timeout <SECS>': must be more than 0 and at most 86400 seconds (one day)"],
    ),
    row(
        "--timeout 86401",
        &["--timeout", "86401", "put", "1"],
        2,
        &["invalid value '86401' for '--timeout <SECS>'", TIMEOUT_RANGE],
    ),
    row(
        "--timeout=86401",
        &["--timeout=86401", "put", "1"],
        2,
        &["invalid value '86401' for '--timeout <SECS>': must be more than 0 and at most 86400 seconds (one day)"],
    ),
    row(
        "--timeout -1",
        &["--timeout=-1", "put", "1"],
        2,
        &["invalid value '-1' for '--timeout <SECS>'", TIMEOUT_RANGE],
    ),
    row(
        "--timeout -1, as two arguments (read as a value, not an option)",
        &["--timeout", "-1", "put", "1"],
        2,
        &["invalid value '-1' for '--timeout <SECS>'", TIMEOUT_RANGE],
    ),
    row(
        "--timeout nan",
        &["--timeout", "nan", "put", "1"],
        2,
        &["invalid value 'nan' for '--timeout <SECS>'", TIMEOUT_RANGE],
    ),
    row(
        "--timeout=NaN",
        &["--timeout=NaN", "put", "1"],
        2,
        &["invalid value 'NaN' for '--timeout <SECS>': must be more than 0 and at most 86400 seconds (one day)"],
    ),
    row(
        "--timeout=inf",
        &["--timeout=inf", "put", "1"],
        2,
        &["invalid value 'inf' for '--timeout <SECS>': must be more than 0 and at most 86400 seconds (one day)"],
    ),
    row(
        "--timeout=1e999",
        &["--timeout=1e999", "put", "1"],
        2,
        &["invalid value '1e999' for '--timeout <SECS>': must be more than 0 and at most 86400 seconds (one day)"],
    ),
    row(
        "--timeout 0.0001",
        &["--timeout", "0.0001", "put", "1"],
        2,
        &["invalid value '0.0001' for '--timeout <SECS>': must be at least 0.001 seconds"],
    ),
    row(
        "--timeout=0.0001",
        &["--timeout=0.0001", "put", "1"],
        2,
        &["invalid value '0.0001' for '--timeout <SECS>': must be at least 0.001 seconds"],
    ),
    row(
        "--timeout abc",
        &["--timeout", "abc", "put", "1"],
        2,
        &["invalid value 'abc' for '--timeout <SECS>': 'abc' is not a number of seconds"],
    ),
    row(
        "--timeout=abc",
        &["--timeout=abc", "put", "1"],
        2,
        &["invalid value 'abc' for '--timeout <SECS>': 'abc' is not a number of seconds"],
    ),
    row(
        "--timeout=5s",
        &["--timeout=5s", "put", "1"],
        2,
        &["invalid value '5s' for '--timeout <SECS>': '5s' is not a number of seconds"],
    ),
    row(
        "--timeout= (empty)",
        &["--timeout=", "put", "1"],
        2,
        &["invalid value '' for '--timeout <SECS>': '' is not a number of seconds"],
    ),
    row(
        "--jobs 0",
        &["--jobs", "0", "put", "1"],
        2,
        &["invalid value '0' for '--jobs <N>': 0 is not in 1..=256"],
    ),
    row(
        "--jobs 257",
        &["--jobs", "257", "put", "1"],
        2,
        &["invalid value '257' for '--jobs <N>': 257 is not in 1..=256"],
    ),
    row(
        "--retries 11",
        &["--retries", "11", "put", "1"],
        2,
        &["invalid value '11' for '--retries <N>': 11 is not in 0..=10"],
    ),
    row(
        "--retries -1",
        &["--retries", "-1", "put", "1"],
        2,
        &["invalid value '-1' for '--retries <N>': -1 is not in 0..=10 (a whole number, 0 or more)"],
    ),
    row(
        "--jobs -1",
        &["--jobs", "-1", "put", "1"],
        2,
        &["invalid value '-1' for '--jobs <N>': -1 is not in 1..=256 (a whole number, at least 1)"],
    ),
    config_file!(
        "config timeout_secs: 0",
        br#"{"timeout_secs": 0}"#,
        &["config file {dir}/config/config.json: timeout_secs must be more than 0 and at most 86400 seconds (one day)"],
    ),
    config_file!(
        "config timeout_secs: -1",
        br#"{"timeout_secs": -1}"#,
        &["config file {dir}/config/config.json: timeout_secs must be more than 0 and at most 86400 seconds (one day)"],
    ),
    config_file!(
        "config timeout_secs: 86401",
        br#"{"timeout_secs": 86401}"#,
        &["config file {dir}/config/config.json: timeout_secs must be more than 0 and at most 86400 seconds (one day)"],
    ),
    config_file!(
        "config timeout_secs: 1e9",
        br#"{"timeout_secs": 1e9}"#,
        &["timeout_secs must be more than 0 and at most 86400 seconds"],
    ),
    config_file!(
        "config timeout_secs: 0.0001",
        br#"{"timeout_secs": 0.0001}"#,
        &["config file {dir}/config/config.json: timeout_secs must be at least 0.001 seconds"],
    ),
];

const INDEX_HINT: &str = "hint: an index is plain decimal digits, 0 to 18446744073709551615, counting from 0 as `safe-ad show 1` numbers the items; nothing was sent";
const RANGE_HINT: &str = "hint: give N, A..B (B not included), A..=B, A.. or ..B, where indexes count from 0 as `show` numbers the items; nothing was sent";
/// A valid name, for the rows whose mistake is elsewhere.
const GOOD_NAME: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

/// `show`, `remove`, `restore`, `purge` and `append`: what they take beyond handles.
const ITEMS: &[Row] = &[
    row(
        "show: a bad handle",
        &["show", "1", "x"],
        2,
        &["safe-ad: error: invalid handle 'x' for show: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "show: no handle",
        &["show", "--full"],
        2,
        &["the following required arguments were not provided", "<HANDLE>"],
    ),
    row(
        "show: --index not a number",
        &["show", "--index", "x", "1"],
        2,
        &["safe-ad: error: invalid --index 'x': 'x' is not a plain decimal number", RANGE_HINT],
    ),
    row(
        "show: --index empty",
        &["show", "--index=", "1"],
        2,
        &["safe-ad: error: invalid --index '': '' is empty", RANGE_HINT],
    ),
    row(
        "show: --index negative",
        &["show", "--index", "-1", "1"],
        2,
        &["safe-ad: error: invalid --index '-1': '-1' is not a plain decimal number", RANGE_HINT],
    ),
    row(
        "show: --index past 2^64",
        &["show", "--index", "18446744073709551616..", "1"],
        2,
        &["invalid --index '18446744073709551616..': '18446744073709551616' is larger than 18446744073709551615", RANGE_HINT],
    ),
    row(
        "show: --index whose end comes before its start",
        &["show", "--index", "5..2", "1"],
        2,
        &["safe-ad: error: invalid --index '5..2': the end comes before the start", RANGE_HINT],
    ),
    row(
        "show: --index that holds no index",
        &["show", "--index", "5..5", "1"],
        2,
        &["invalid --index '5..5': it holds no index (the end is not included: A..B stops before B)"],
    ),
    row(
        "show: --index with `..=` and no end",
        &["show", "--index", "1..=", "1"],
        2,
        &["invalid --index '1..=': `..=` needs the last index after it"],
    ),
    row(
        "show: --index with three dots",
        &["show", "--index", "1...3", "1"],
        2,
        &["invalid --index '1...3': '.3' is not a plain decimal number"],
    ),
    row(
        "show: --index with a space",
        &["show", "--index", "1 .. 3", "1"],
        2,
        &["invalid --index '1 .. 3': '1 ' is not a plain decimal number"],
    ),
    row(
        "show: --dry-run (it cannot know its requests before the answers)",
        &["show", "--dry-run", "1"],
        2,
        &["safe-ad: error: `safe-ad show` does not take --dry-run: it is an option of"],
    ),
    row(
        "show: --curl",
        &["show", "--curl", "1"],
        2,
        &["safe-ad: error: `safe-ad show` does not take --curl", "hint: `safe-ad show --help` lists the options it takes"],
    ),
    row(
        "show: --fail-fast",
        &["--fail-fast", "show", "1"],
        2,
        &["safe-ad: error: `safe-ad show` does not take --fail-fast"],
    ),
    row(
        "remove: a bad handle",
        &["remove", "x", "0"],
        2,
        &["safe-ad: error: invalid handle 'x' for remove: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "remove: `-` for the handle",
        &["remove", "-", "0"],
        2,
        &["safe-ad: error: `remove` takes one handle, not `-` (standard input)"],
    ),
    row(
        "remove: no index",
        &["remove", "1"],
        2,
        &[
            "the following required arguments were not provided",
            "<INDEX|--signed-by <WHO>|--kind <KIND>|--data-id <DATA-ID>|--name <NAME>>",
        ],
    ),
    row(
        "remove: a negative index",
        &["remove", "1", "-1"],
        2,
        &["safe-ad: error: invalid index '-1' for remove: it is not a plain decimal number", INDEX_HINT],
    ),
    row(
        "remove: a bad index after good ones",
        &["remove", "1", "0", "2", "x"],
        2,
        &["safe-ad: error: invalid index 'x' for remove: it is not a plain decimal number", INDEX_HINT],
    ),
    row(
        "restore: an index with a decimal point",
        &["restore", "1", "1.5"],
        2,
        &["safe-ad: error: invalid index '1.5' for restore: it is not a plain decimal number", INDEX_HINT],
    ),
    row(
        "purge: an index past 2^64",
        &["purge", "1", "18446744073709551616"],
        2,
        &["invalid index '18446744073709551616' for purge: it is larger than 18446744073709551615", INDEX_HINT],
    ),
    row(
        "purge: an empty index",
        &["purge", "1", ""],
        2,
        &["invalid index '' for purge: it is empty", INDEX_HINT],
    ),
    row(
        "remove: the same index twice",
        &["remove", "1", "2", "02"],
        2,
        &["safe-ad: error: index 2 is given twice for remove", "hint: give each index once"],
    ),
    row(
        "remove: --jobs (the indexes go one at a time)",
        &["remove", "--jobs", "2", "1", "0"],
        2,
        &["safe-ad: error: `safe-ad remove` does not take --jobs"],
    ),
    row(
        "purge: --save with an operation that is not a save",
        &["purge", "--save", "delete", "1", "0"],
        2,
        &["invalid value 'delete' for '--save <OPERATION>'"],
    ),
    row(
        "append: neither --structured nor --appendable",
        &["append", "1"],
        2,
        &["the following required arguments were not provided", "--structured <NAME>|--appendable <NAME>"],
    ),
    row(
        "append: both --structured and --appendable",
        &["append", "1", "--structured", GOOD_NAME, "--appendable", GOOD_NAME],
        2,
        &["the argument '--structured <NAME>' cannot be used with '--appendable <NAME>'"],
    ),
    row(
        "append: --type-tag with --appendable",
        &["append", "1", "--appendable", GOOD_NAME, "--type-tag", "500"],
        2,
        &["the argument '--appendable <NAME>' cannot be used with '--type-tag <N>'"],
    ),
    row(
        "append: --private with --structured",
        &["append", "1", "--structured", GOOD_NAME, "--private"],
        2,
        &["the argument '--structured <NAME>' cannot be used with '--private'"],
    ),
    row(
        "append: a bad name",
        &["append", "1", "--structured", "my data"],
        2,
        &["safe-ad: error: invalid name 'my data' for append: it is neither standard base64 nor hex", NAME_HINT],
    ),
    row(
        "append: a type tag no structured data has",
        &["append", "1", "--structured", GOOD_NAME, "--type-tag", "499"],
        2,
        &[
            "safe-ad: error: invalid type tag '499' for append: no structured data has it (the launcher makes only 500 (the default), 501 (versioned), or 15000 and above)",
            "hint: structured data has type tag 500 (the default), 501 (versioned), or 15000 and above; nothing was sent",
        ],
    ),
    row(
        "append: a type tag that is not a number",
        &["append", "1", "--structured", GOOD_NAME, "--type-tag", "x"],
        2,
        &["invalid type tag 'x' for append: it is not a plain decimal number"],
    ),
    row(
        "append: a negative handle",
        &["append", "-1", "--structured", GOOD_NAME],
        2,
        &["safe-ad: error: invalid handle '-1' for append: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "append: `-` for the handle",
        &["append", "-", "--structured", GOOD_NAME],
        2,
        &["safe-ad: error: `append` takes one handle, not `-` (standard input)"],
    ),
    row(
        "append: `-` for the handle, a hint without a placeholder",
        &["append", "-", "--structured", GOOD_NAME],
        2,
        &["hint: give the handle itself: safe-ad append the handle ...; nothing was sent"],
    ),
    row(
        "append: --jobs",
        &["append", "--jobs", "2", "1", "--structured", GOOD_NAME],
        2,
        &["safe-ad: error: `safe-ad append` does not take --jobs"],
    ),
    row(
        "append: --fail-fast",
        &["append", "--fail-fast", "1", "--structured", GOOD_NAME],
        2,
        &["safe-ad: error: `safe-ad append` does not take --fail-fast", "hint: `safe-ad append --help` lists the options it takes"],
    ),
];

const COMMAND_LINES: &[Row] = &[
    row(
        "unknown flag",
        &["put", "1", "--bogus"],
        2,
        &["safe-ad: error: unexpected argument '--bogus' found"],
    ),
    row(
        "unknown flag before the subcommand",
        &["--bogus", "put", "1"],
        2,
        &["safe-ad: error: unexpected argument '--bogus' found"],
    ),
    row(
        "unknown subcommand",
        &["frobnicate", "1"],
        2,
        &["safe-ad: error: unrecognized subcommand 'frobnicate'"],
    ),
    row(
        "a subcommand in capitals",
        &["PUT", "1"],
        2,
        &["safe-ad: error: unrecognized subcommand 'PUT'"],
    ),
    row(
        "a flag without its value",
        &["put", "1", "--timeout"],
        2,
        &["safe-ad: error: a value is required for '--timeout <SECS>' but none was supplied"],
    ),
    Row {
        absent: &["abc"],
        ..row(
            "--token VALUE (there is no such flag)",
            &["--token", "abc", "put", "1"],
            2,
            &[
                "safe-ad: error: unexpected argument '--token' found",
                "a similar argument exists: '--token-file'",
            ],
        )
    },
    Row {
        absent: &["abc"],
        ..row(
            "--token=VALUE (there is no such flag)",
            &["--token=abc", "put", "1"],
            2,
            &[
                "safe-ad: error: unexpected argument '--token' found",
                "a similar argument exists: '--token-file'",
            ],
        )
    },
    row(
        "--save after a command that is not a clear",
        &["put", "--save", "post", "1"],
        2,
        &[
            "safe-ad: error: `safe-ad put` does not take --save: it is an option of `safe-ad clear-data`, `safe-ad clear-deleted-data`, `safe-ad purge` and 2 other commands",
            "hint: `safe-ad put --help` lists the options it takes",
        ],
    ),
    row(
        "--dry-run on a command that would act on it (auth logout)",
        &["auth", "logout", "--dry-run"],
        2,
        &["safe-ad: error: `safe-ad auth logout` does not take --dry-run: it is an option of `safe-ad create`"],
    ),
    row(
        "--dry-run before a command that would act on it (auth login)",
        &["--dry-run", "auth", "login"],
        2,
        &["safe-ad: error: `safe-ad auth login` does not take --dry-run"],
    ),
    row(
        "--curl on a command that writes the config file",
        &["config", "set", "timeout_secs", "5", "--curl"],
        2,
        &["safe-ad: error: `safe-ad config set` does not take --curl"],
    ),
    row(
        "an option the command has no use for",
        &["config", "show", "--jobs", "4"],
        2,
        &["safe-ad: error: `safe-ad config show` does not take --jobs: it is an option of `safe-ad put`, `safe-ad post`, `safe-ad clear-data` and 6 other commands"],
    ),
    row(
        "--json on a command whose output is the token itself",
        &["auth", "token", "--json"],
        2,
        &["safe-ad: error: `safe-ad auth token` does not take --json"],
    ),
    row(
        "--version after a command",
        &["put", "-V"],
        2,
        &[
            "safe-ad: error: `safe-ad put` does not take -V",
            "hint: `safe-ad --version` prints the version",
        ],
    ),
    row(
        "a client option after `completions` (the same for `emulator`)",
        &["completions", "bash", "--launcher-url", "http://127.0.0.1:1"],
        2,
        &["safe-ad: error: `safe-ad completions` does not take --launcher-url: it is an option of `safe-ad create`, `safe-ad open`, `safe-ad put` and"],
    ),
    row(
        "a client option before `completions` (the same for `emulator`)",
        &["--quiet", "completions", "bash"],
        2,
        &["safe-ad: error: `safe-ad completions` does not take --quiet: it is an option of"],
    ),
    row(
        "--dry-run and --json at two levels",
        &["--json", "put", "--dry-run", "1"],
        2,
        &["safe-ad: error: the argument '--dry-run' cannot be used with '--json'"],
    ),
    row(
        "--timeout before and after the command",
        &["--timeout", "5", "put", "--timeout", "6", "1"],
        2,
        &["safe-ad: error: the argument '--timeout <SECS>' cannot be used multiple times"],
    ),
    row(
        "--save with an operation that is not a save",
        &["clear-data", "--save", "delete", "1"],
        2,
        &["invalid value 'delete' for '--save <OPERATION>'"],
    ),
    row(
        "completions for a shell that does not exist",
        &["completions", "nosh"],
        2,
        &["safe-ad: error: invalid value 'nosh' for '<SHELL>'"],
    ),
    row(
        "no arguments at all",
        &[],
        2,
        &["Usage: safe-ad [OPTIONS] <COMMAND>"],
    ),
    row(
        "two bad handles among good ones: each named, none sent",
        &["clear-data", "1", "abc", "2", "x"],
        2,
        &[
            "safe-ad: error: invalid handle 'abc' for clear-data: it is not a plain decimal number",
            "safe-ad: error: invalid handle 'x' for clear-data: it is not a plain decimal number",
            HANDLE_HINT,
        ],
    ),
    row(
        "--version after a command of a group",
        &["auth", "status", "--version"],
        2,
        &[
            "safe-ad: error: `safe-ad auth status` does not take --version",
            "hint: `safe-ad --version` prints the version",
        ],
    ),
    row(
        "a command name with a typo",
        &["clear-date", "1"],
        2,
        &[
            "safe-ad: error: unrecognized command 'clear-date'",
            "hint: did you mean `safe-ad clear-data`? (or: ",
            "`safe-ad --help` lists the commands",
        ],
    ),
    row(
        "a client option by its short name, after a command that does not take it",
        &["config", "path", "-q"],
        2,
        &["safe-ad: error: `safe-ad config path` does not take --quiet: it is an option of `safe-ad create`"],
    ),
];

// ---- running the rows ---------------------------------------------------------------------------

#[test]
fn bad_handles_are_refused() {
    check_group(HANDLES);
}

#[test]
fn bad_names_are_refused() {
    check_group(NAMES);
}

#[test]
fn bad_launcher_urls_are_refused_from_every_source() {
    check_group(URLS);
}

#[test]
fn bad_tokens_are_refused_and_not_echoed() {
    check_group(TOKENS);
}

#[test]
fn bad_config_files_are_refused_naming_the_file_and_position() {
    check_group(CONFIG_FILES);
}

#[test]
fn bad_numeric_options_are_refused() {
    check_group(OPTIONS);
}

#[test]
fn bad_command_lines_are_refused() {
    check_group(COMMAND_LINES);
}

#[test]
fn bad_indexes_ranges_and_item_arguments_are_refused() {
    check_group(ITEMS);
}

/// Runs every row of a group against one counting launcher and fails listing every wrong row.
/// A row that needs a file safe-ad cannot read (mode 000) runs it held to file permissions
/// ([`Sandbox::safe_ad_held_to_file_modes`]), so it is checked as root too.
fn check_group(rows: &[Row]) {
    let launcher = RawLauncher::answering(
        b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\nOK",
    );
    let unreadable_rows = rows.iter().any(|row| row.unreadable);
    let can_hold = !(unreadable_rows && reads_any_file()) || have("setpriv");
    let mut wrong = Vec::new();
    let mut failed_rows = 0;
    let mut checked = 0;
    for row in rows.iter().filter(|row| can_hold || !row.unreadable) {
        checked += 1;
        let problems = check(row, &launcher);
        if !problems.is_empty() {
            failed_rows += 1;
            wrong.extend(problems);
        }
    }
    println!("{} bad inputs in this group, {checked} checked", rows.len());
    assert!(
        wrong.is_empty(),
        "{failed_rows} of {} rows are wrong:\n{}",
        rows.len(),
        wrong.join("\n")
    );
}

/// Where one run of a row puts things: the counting launcher and the sandbox.
struct Place<'a> {
    url: &'a str,
    dir: &'a Path,
}

impl Place<'_> {
    /// `text` with the placeholders replaced; `{xff}` becomes the byte 0xFF.
    fn fill_bytes(&self, text: &[u8]) -> Vec<u8> {
        let addr = self.url.trim_start_matches("http://");
        let port = addr.rsplit(':').next().unwrap_or("");
        let (front, back) = TOKEN.split_at(TOKEN.len() / 2);
        let dir = self.dir.display().to_string();
        let mut bytes = text.to_vec();
        for (placeholder, value) in [
            ("{url}", self.url.as_bytes()),
            ("{addr}", addr.as_bytes()),
            ("{port}", port.as_bytes()),
            ("{dir}", dir.as_bytes()),
            ("{token}", TOKEN.as_bytes()),
            ("{front}", front.as_bytes()),
            ("{back}", back.as_bytes()),
            ("{xff}", b"\xff"),
        ] {
            bytes = replace(&bytes, placeholder.as_bytes(), value);
        }
        bytes
    }

    fn fill(&self, text: &str) -> String {
        String::from_utf8_lossy(&self.fill_bytes(text.as_bytes())).into_owned()
    }

    fn fill_os(&self, text: &str) -> OsString {
        OsString::from_vec(self.fill_bytes(text.as_bytes()))
    }
}

/// `haystack` with every `from` replaced by `to`.
fn replace(haystack: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut rest = haystack;
    while let Some(at) = rest.windows(from.len()).position(|window| window == from) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(to);
        rest = &rest[at + from.len()..];
    }
    out.extend_from_slice(rest);
    out
}

/// Runs one row (a URL row once per source); returns what was wrong with it, if anything.
fn check(row: &Row, launcher: &RawLauncher) -> Vec<String> {
    match row.url {
        None => check_run(row, None, launcher),
        Some(_) => SOURCES
            .iter()
            .flat_map(|source| check_run(row, Some(*source), launcher))
            .collect(),
    }
}

/// Runs a row once, its URL (if it has one) given the way `source` says.
fn check_run(row: &Row, source: Option<(Source, &str)>, launcher: &RawLauncher) -> Vec<String> {
    let sandbox = Sandbox::new();
    let place = Place {
        url: &launcher.url,
        dir: sandbox.path(),
    };
    let config_with_url;
    let mut args: Vec<&str> = Vec::new();
    let mut env = row.env.to_vec();
    let mut files = row.files.to_vec();
    let bad_url = row.url.unwrap_or("");
    match source {
        None => {}
        Some((Source::Flag, _)) => args.extend(["--launcher-url", bad_url]),
        Some((Source::Env, _)) => {
            env = vec![
                ("SAFE_LAUNCHER_URL", bad_url),
                ("SAFE_LAUNCHER_TOKEN", "{token}"),
            ]
        }
        Some((Source::ConfigFile, _)) => {
            env = Vec::new();
            let json = serde_json::json!({"launcher_url": bad_url, "token": "{token}"});
            config_with_url = json.to_string();
            files.push((CONFIG, Make::File(config_with_url.as_bytes(), 0o600)));
        }
    }
    args.extend(row.args);
    for (path, make) in &files {
        let path = place.dir.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("parent dir");
        match make {
            Make::Dir => std::fs::create_dir_all(&path).expect("dir"),
            Make::File(bytes, mode) => {
                std::fs::write(&path, place.fill_bytes(bytes)).expect("file");
                set_mode(&path, *mode);
            }
        }
    }
    let mut safe_ad = if row.unreadable {
        sandbox.safe_ad_held_to_file_modes()
    } else {
        sandbox.safe_ad()
    }
    .case(row.input);
    for (name, value) in &env {
        safe_ad = safe_ad.env(name, place.fill_os(value));
    }
    let before = launcher.connections();
    let output = safe_ad
        .args(args.iter().map(|arg| place.fill_os(arg)))
        .stdin(place.fill_bytes(row.stdin))
        .run();
    // safe-ad has exited, so it can open no more connections: the count is final.
    let connections = launcher.connections() - before;

    let stdout = output.stdout();
    let stderr = output.stderr();
    let mut wrong = Vec::new();
    if output.exit_code() != Some(row.code) {
        wrong.push(format!(
            "exit {:?}, expected {}",
            output.exit_code(),
            row.code
        ));
    }
    for word in row.words {
        let mut word = place.fill(word);
        if let Some((_, from)) = source {
            word = word.replace("{source}", &place.fill(from));
        }
        if !stderr.contains(&word) {
            wrong.push(format!("stderr lacks {word:?}"));
        }
    }
    for word in row.absent {
        if output.text().contains(word) {
            wrong.push(format!("output shows {word:?}"));
        }
    }
    if row.code != 0 && !args.is_empty() && !stderr.starts_with("safe-ad: error: ") {
        wrong.push("stderr does not start with \"safe-ad: error: \"".into());
    }
    wrong.extend(positions_not_counted_from_1(stderr));
    if connections != row.connections {
        wrong.push(format!(
            "the launcher saw {connections} connections, expected {}",
            row.connections
        ));
    }
    // A row that reaches the launcher runs `drop 1`: one request, one line.
    let expected_stdout = if row.connections > 0 {
        "drop 1: ok\n"
    } else {
        ""
    };
    if stdout != expected_stdout {
        wrong.push(format!("stdout {stdout:?}, expected {expected_stdout:?}"));
    }
    if !wrong.is_empty() {
        let how = source.map_or(String::new(), |(_, from)| format!(" (URL {from})"));
        wrong.insert(
            0,
            format!(
                "{}{how}: safe-ad {}",
                row.input,
                args.iter()
                    .map(|a| format!("{:?}", place.fill(a)))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        );
        wrong.push(format!("  stderr: {stderr:?}"));
    }
    wrong
}

/// Every `line L, column C` in `stderr` whose line or column is 0: editors count from 1, so
/// "column 0" points nowhere.
fn positions_not_counted_from_1(stderr: &str) -> Vec<String> {
    let number = |text: &str| -> Option<u64> {
        let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    };
    stderr
        .match_indices("line ")
        .filter_map(|(at, _)| {
            let after = &stderr[at + "line ".len()..];
            let line = number(after)?;
            let column = number(after.split_once(", column ")?.1)?;
            (line == 0 || column == 0)
                .then(|| format!("a position counted from 0: line {line}, column {column}"))
        })
        .collect()
}

// ---- the table in TESTING.md ----------------------------------------------------------------

const BEGIN: &str = "<!-- bad-input table: generated from tests/integration/bad_input.rs -->";
const END: &str = "<!-- end of bad-input table -->";

/// Text safe in a markdown table cell.
fn cell(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
        .replace('\n', " ")
}

/// Bytes as a short code span: control characters and invalid UTF-8 escaped, cut at 40
/// characters.
fn shown_bytes(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "(empty)".into();
    }
    let mut text = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                text.extend(c.escape_default());
            } else {
                text.push(c);
            }
        }
        for byte in chunk.invalid() {
            text.push_str(&format!("\\x{byte:02x}"));
        }
    }
    let cut: String = text.chars().take(40).collect();
    let more = if cut.len() < text.len() { "…" } else { "" };
    format!("`{}{more}`", cell(&cut).replace('`', "'"))
}

/// What a row sets up besides its arguments: env vars that differ from a working setup, files,
/// standard input, a URL and the ways it is given.
fn setup_text(row: &Row) -> String {
    let mut parts = Vec::new();
    if let Some(url) = row.url {
        parts.push(format!(
            "URL {}, given all three ways",
            shown_bytes(url.as_bytes())
        ));
    }
    for (name, value) in row.env {
        if !SETUP.contains(&(*name, *value)) {
            parts.push(format!("`{name}={}`", cell(&shown_text(value))));
        }
    }
    for (name, _) in SETUP {
        if !row.env.iter().any(|(set, _)| set == name) {
            parts.push(format!("no `{name}`"));
        }
    }
    for (path, make) in row.files {
        parts.push(match make {
            Make::Dir => format!("`{path}` is a directory"),
            Make::File(bytes, mode) if bytes.len() > 1024 => {
                format!("`{path}` (mode {mode:03o}): {} KiB", bytes.len() / 1024)
            }
            Make::File(bytes, mode) => {
                format!("`{path}` (mode {mode:03o}): {}", shown_bytes(bytes))
            }
        });
    }
    if !row.stdin.is_empty() {
        parts.push(format!("stdin {}", shown_bytes(row.stdin)));
    }
    parts.join("; ")
}

/// Text with its control characters escaped.
fn shown_text(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

fn rendered_table() -> String {
    let rows: Vec<&Row> = GROUPS.iter().flat_map(|group| group.iter()).collect();
    let mut text = format!(
        "{BEGIN}\n\n{} bad inputs, in eight groups (handles, names, launcher URLs, tokens, \
config files, numeric options, command lines, and what `show` and the item commands take), each group one test. `{{dir}}` is the test's directory, `{{addr}}` \
the loopback server's address and `{{port}}` its port, `{{front}}` and `{{back}}` the two halves \
of the test token, and `{{xff}}` the byte 0xFF, which is not UTF-8. A URL row runs three times: with \
`--launcher-url URL` (the environment as usual), with `SAFE_LAUNCHER_URL=URL` (and the token in \
the environment), and with the URL as `launcher_url` in `config/config.json` (the token there too, \
nothing in the environment); `{{source}}` names the way. Every row with exit code 2 or 3 proves the \
server accepted no connection, and its message starts with `safe-ad: error: ` (but for no \
arguments at all, which prints the usage); the exit-0 row proves the operation did run. No \
output may hold a piece of the test token, and every `line L, column C` counts from 1.\n\n\
| # | bad input | command | setup | exit | the message contains |\n|---|---|---|---|---|---|\n",
        rows.len()
    );
    for (i, row) in rows.iter().enumerate() {
        let command = row
            .args
            .iter()
            .map(|arg| {
                if arg.is_empty() || arg.contains(' ') {
                    format!("'{arg}'")
                } else {
                    arg.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
        let setup = setup_text(row);
        let words = row
            .words
            .iter()
            .map(|word| format!("\"{}\"", cell(word)))
            .collect::<Vec<_>>()
            .join("; ");
        text.push_str(&format!(
            "| {} | {} | `{}` | {} | {} | {} |\n",
            i + 1,
            cell(row.input),
            cell(format!("safe-ad {command}").trim_end()).replace('`', "'"),
            setup,
            row.code,
            words
        ));
    }
    text.push('\n');
    text.push_str(END);
    text
}

/// TESTING.md as it should be: its table of bad inputs rendered from [`GROUPS`].
fn testing_md_with_this_table() -> (std::path::PathBuf, String, String) {
    let path = repo_root().join("TESTING.md");
    let current = std::fs::read_to_string(&path).expect("TESTING.md");
    let (Some(start), Some(end)) = (current.find(BEGIN), current.find(END)) else {
        panic!("TESTING.md lacks the markers {BEGIN:?} and {END:?}");
    };
    let updated = format!(
        "{}{}{}",
        &current[..start],
        rendered_table(),
        &current[end + END.len()..]
    );
    (path, current, updated)
}

#[test]
fn testing_md_shows_this_table() {
    let (_, current, updated) = testing_md_with_this_table();
    assert!(
        current == updated,
        "TESTING.md's table of bad inputs is out of date; refresh it with: {REGENERATE}"
    );
}

/// The regeneration command, not a check: rewrites the table in TESTING.md from [`GROUPS`]. Run
/// only when named (see [`assert_asked_by_name`]).
#[test]
#[ignore = "rewrites TESTING.md: cargo test --test integration regenerate -- --ignored"]
fn regenerate_the_bad_input_table_in_testing_md() {
    assert_asked_by_name();
    let (path, _, updated) = testing_md_with_this_table();
    std::fs::write(&path, &updated).expect("write TESTING.md");
    assert!(
        testing_md_with_this_table().1 == updated,
        "TESTING.md did not change"
    );
}
