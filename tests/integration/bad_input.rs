//! Every bad input safe-ad can receive, in one table: handles, launcher URLs, token sources,
//! config files and numeric options. Each row gives the exit code and the words the message must
//! contain, and proves that nothing reached the launcher: every row points at a loopback server
//! that counts the connections it accepts.
//!
//! TESTING.md shows the same table; `SAFE_AD_REGENERATE=1 cargo test --test integration
//! bad_input::` rewrites it there after the table changes.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::harness::*;

/// What a row puts in the sandbox before it runs, at a path relative to the sandbox directory.
#[derive(Clone, Copy)]
enum Make {
    /// A file with these bytes (placeholders replaced) and this mode.
    File(&'static [u8], u32),
    Dir,
}

/// One bad input. In `args`, `env`, file contents, `words` and `absent`: `{url}` is the counting
/// server's base URL, `{addr}` its `127.0.0.1:port`, `{dir}` the sandbox directory and `{token}`
/// the test token. The config file is `{dir}/config/config.json` (`SAFE_AD_CONFIG_DIR`).
struct Row {
    input: &'static str,
    args: &'static [&'static str],
    env: &'static [(&'static str, &'static str)],
    files: &'static [(&'static str, Make)],
    stdin: &'static [u8],
    code: i32,
    words: &'static [&'static str],
    /// Text that must not appear in the output (a password typed into a URL).
    absent: &'static [&'static str],
    /// Connections the launcher must see: 0 for every error, 1 for the one warning.
    connections: usize,
    /// Whether the row needs a file this process cannot read (mode 000): root reads anyway.
    unreadable: bool,
}

/// The launcher URL and the test token in the environment: what a working setup has.
const SETUP: &[(&str, &str)] = &[
    ("SAFE_LAUNCHER_URL", "{url}"),
    ("SAFE_LAUNCHER_TOKEN", "{token}"),
];
/// The launcher URL only: the token comes from the config file.
const URL_ONLY: &[(&str, &str)] = &[("SAFE_LAUNCHER_URL", "{url}")];
const CONFIG: &str = "config/config.json";
const HANDLE_HINT: &str =
    "hint: a handle is plain decimal digits, 0 to 18446744073709551615; nothing was sent for it";
const TIMEOUT_RANGE: &str = "must be more than 0 and at most 86400 seconds (one day)";

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
        code,
        words,
        absent: &[],
        connections: 0,
        unreadable: false,
    }
}

const fn with_files(mut row: Row, files: &'static [(&'static str, Make)]) -> Row {
    row.files = files;
    row
}

const fn with_env(mut row: Row, env: &'static [(&'static str, &'static str)]) -> Row {
    row.env = env;
    row
}

static TABLE: &[Row] = &[
    // ---- handles ----
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
        "handle: inner space",
        &["post", "1 2"],
        2,
        &["invalid handle '1 2' for post: it is not a plain decimal number"],
    ),
    row(
        "handle: minus sign",
        &["put", "-1"],
        2,
        &["invalid handle '-1' for put: it is not a plain decimal number"],
    ),
    row(
        "handle: plus sign",
        &["clear-data", "+1"],
        2,
        &["invalid handle '+1' for clear-data: it is not a plain decimal number"],
    ),
    row(
        "handle: hex",
        &["put", "0x10"],
        2,
        &["invalid handle '0x10' for put: it is not a plain decimal number"],
    ),
    row(
        "handle: exponent",
        &["put", "1e3"],
        2,
        &["invalid handle '1e3' for put: it is not a plain decimal number"],
    ),
    row(
        "handle: decimal point",
        &["metadata", "1.5"],
        2,
        &["invalid handle '1.5' for metadata: it is not a plain decimal number"],
    ),
    row(
        "handle: trailing letters",
        &["put", "12abc"],
        2,
        &["invalid handle '12abc' for put: it is not a plain decimal number"],
    ),
    row(
        "handle: 2^64",
        &["put", "18446744073709551616"],
        2,
        &["invalid handle '18446744073709551616' for put: it is larger than 18446744073709551615"],
    ),
    row(
        "handle: Arabic-Indic digits",
        &["put", "١٢٣"],
        2,
        &["invalid handle '١٢٣' for put: it is not a plain decimal number"],
    ),
    row(
        "handle: fullwidth digits",
        &["put", "１２"],
        2,
        &["invalid handle '１２' for put: it is not a plain decimal number"],
    ),
    row(
        "handle: a valid one after a bad one",
        &["put", "1", "x", "2"],
        2,
        &["invalid handle 'x' for put: it is not a plain decimal number"],
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
    // ---- launcher URLs ----
    row(
        "URL: no scheme",
        &["--launcher-url", "{addr}", "put", "1"],
        2,
        &["invalid launcher URL '{addr}' (from --launcher-url): it has no scheme; start it with http:// or https://"],
    ),
    row(
        "URL: ftp://",
        &["--launcher-url", "ftp://{addr}", "put", "1"],
        2,
        &["invalid launcher URL 'ftp://{addr}' (from --launcher-url): the scheme is 'ftp'; only http:// and https:// are supported"],
    ),
    row(
        "URL: no host",
        &["--launcher-url", "http://", "put", "1"],
        2,
        &["invalid launcher URL 'http://' (from --launcher-url): it has no host"],
    ),
    row(
        "URL: no host, only a port",
        &["--launcher-url", "http://:80", "put", "1"],
        2,
        &["invalid launcher URL 'http://:80' (from --launcher-url): empty host"],
    ),
    row(
        "URL: no host, the address in the path (`http:///host:port`)",
        &["--launcher-url", "http:///{addr}", "put", "1"],
        2,
        &["invalid launcher URL 'http:///{addr}' (from --launcher-url)", "no host"],
    ),
    Row {
        absent: &["s3cretpw"],
        ..row(
            "URL: user name and password",
            &["--launcher-url", "http://user:s3cretpw@{addr}", "put", "1"],
            2,
            &["invalid launcher URL 'http://***@{addr}' (from --launcher-url): it contains a user name or password"],
        )
    },
    row(
        "URL: a space",
        &["--launcher-url", "http://{addr}/a b", "put", "1"],
        2,
        &["(from --launcher-url): it contains spaces or control characters"],
    ),
    row(
        "URL: a query",
        &["--launcher-url", "http://{addr}/?x=1", "put", "1"],
        2,
        &["(from --launcher-url): it has a query (?...) or fragment (#...)"],
    ),
    row(
        "URL: empty",
        &["--launcher-url", "", "put", "1"],
        2,
        &["invalid launcher URL '' (from --launcher-url): it is empty"],
    ),
    with_env(
        row(
            "URL: no scheme, from SAFE_LAUNCHER_URL",
            &["put", "1"],
            2,
            &["invalid launcher URL '{addr}' (from env var SAFE_LAUNCHER_URL): it has no scheme"],
        ),
        &[("SAFE_LAUNCHER_URL", "{addr}"), ("SAFE_LAUNCHER_TOKEN", "{token}")],
    ),
    with_env(
        with_files(
            row(
                "URL: ftp://, from the config file",
                &["put", "1"],
                2,
                &["invalid launcher URL 'ftp://{addr}' (from config file {dir}/config/config.json): the scheme is 'ftp'"],
            ),
            &[(CONFIG, Make::File(br#"{"launcher_url": "ftp://{addr}"}"#, 0o600))],
        ),
        &[("SAFE_LAUNCHER_TOKEN", "{token}")],
    ),
    // ---- token sources ----
    with_files(
        row(
            "token file: empty",
            &["--token-file", "{dir}/token", "put", "1"],
            2,
            &["safe-ad: error: the token is empty (from --token-file)"],
        ),
        &[("token", Make::File(b"", 0o600))],
    ),
    with_files(
        row(
            "token file: only a newline",
            &["--token-file", "{dir}/token", "put", "1"],
            2,
            &["the token is empty (from --token-file)"],
        ),
        &[("token", Make::File(b"\n", 0o600))],
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
    with_files(
        row(
            "token file: inner newline",
            &["--token-file", "{dir}/token", "put", "1"],
            2,
            &["the token has whitespace inside it (from --token-file)"],
        ),
        &[("token", Make::File(b"first-half\nsecond-half\n", 0o600))],
    ),
    with_files(
        row(
            "token file: non-ASCII",
            &["--token-file", "{dir}/token", "put", "1"],
            2,
            &["the token has a non-ASCII character in it (from --token-file)"],
        ),
        &[("token", Make::File("tökén-abc".as_bytes(), 0o600))],
    ),
    with_files(
        row(
            "token file: a control character",
            &["--token-file", "{dir}/token", "put", "1"],
            2,
            &["the token has a control character in it (from --token-file)"],
        ),
        &[("token", Make::File(b"abc\x07def", 0o600))],
    ),
    with_files(
        row(
            "token file: not UTF-8",
            &["--token-file", "{dir}/token", "put", "1"],
            2,
            &["the token from {dir}/token is not text"],
        ),
        &[("token", Make::File(b"abc\xff\xfe", 0o600))],
    ),
    with_files(
        row(
            "token file: larger than 64 KiB",
            &["--token-file", "{dir}/token", "put", "1"],
            2,
            &["the token from {dir}/token is larger than 64 KiB; that is not a token"],
        ),
        &[("token", Make::File(&[b'a'; 65 * 1024], 0o600))],
    ),
    row(
        "token on stdin: empty",
        &["--token-file", "-", "put", "1"],
        2,
        &["the token is empty (from --token-file - (standard input))"],
    ),
    row(
        "token on stdin and handles on stdin",
        &["--token-file", "-", "put", "-"],
        2,
        &["standard input cannot hold both the token (--token-file -) and the handles (-)"],
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
            "token: none anywhere",
            &["put", "1"],
            3,
            &["safe-ad: error: no token found", "hint: run `safe-ad auth login`"],
        ),
        URL_ONLY,
    ),
    // ---- config files ----
    with_files(
        row(
            "config file: empty",
            &["put", "1"],
            2,
            &["config file {dir}/config/config.json: it is empty; write {} for an empty config, or delete the file"],
        ),
        &[(CONFIG, Make::File(b"", 0o600))],
    ),
    with_files(
        row(
            "config file: malformed JSON",
            &["put", "1"],
            2,
            &["config file {dir}/config/config.json: line 1, column 10: EOF while parsing a value"],
        ),
        &[(CONFIG, Make::File(b"{\"token\": ", 0o600))],
    ),
    with_files(
        row(
            "config file: not an object",
            &["put", "1"],
            2,
            &["config file {dir}/config/config.json: line 1, column", "a JSON object"],
        ),
        &[(CONFIG, Make::File(b"[1, 2]", 0o600))],
    ),
    with_files(
        row(
            "config file: wrong type (timeout as a string)",
            &["put", "1"],
            2,
            &["config file {dir}/config/config.json: line 1, column 2: key `timeout_secs` must be a number of seconds, not a string"],
        ),
        &[(CONFIG, Make::File(br#"{"timeout_secs": "5"}"#, 0o600))],
    ),
    with_files(
        row(
            "config file: wrong type (URL as null)",
            &["put", "1"],
            2,
            &["key `launcher_url` must be a string, not null"],
        ),
        &[(CONFIG, Make::File(br#"{"launcher_url": null}"#, 0o600))],
    ),
    with_files(
        row(
            "config file: unknown key",
            &["put", "1"],
            2,
            &["config file {dir}/config/config.json: line 2, column 3: unknown key `tokn` (did you mean `token`?)"],
        ),
        &[(CONFIG, Make::File(b"{\n  \"tokn\": \"x\"\n}\n", 0o600))],
    ),
    with_files(
        row(
            "config file: repeated key",
            &["put", "1"],
            2,
            &["key `timeout_secs` appears twice; keep one"],
        ),
        &[(CONFIG, Make::File(br#"{"timeout_secs": 5, "timeout_secs": 6}"#, 0o600))],
    ),
    with_files(
        row(
            "config file: not UTF-8",
            &["put", "1"],
            2,
            &["config file {dir}/config/config.json: it is not UTF-8 text"],
        ),
        &[(CONFIG, Make::File(b"{\"launcher_url\": \"\xff\"}", 0o600))],
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
                    "config file: token in a world-readable file (a warning; the put runs)",
                    &["put", "1"],
                    0,
                    &["safe-ad: warning: config file {dir}/config/config.json holds a token and can be read by other users (mode 644); run: chmod 600 {dir}/config/config.json"],
                ),
                &[(CONFIG, Make::File(br#"{"token": "{token}"}"#, 0o644))],
            ),
            URL_ONLY,
        )
    },
    // ---- numeric options ----
    row(
        "--timeout 0",
        &["--timeout", "0", "put", "1"],
        2,
        &["invalid value '0' for '--timeout <SECS>'", TIMEOUT_RANGE],
    ),
    row(
        "--timeout 86401",
        &["--timeout", "86401", "put", "1"],
        2,
        &["invalid value '86401' for '--timeout <SECS>'", TIMEOUT_RANGE],
    ),
    row(
        "--timeout -1",
        &["--timeout=-1", "put", "1"],
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
        "--timeout 0.0001",
        &["--timeout", "0.0001", "put", "1"],
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
    with_files(
        row(
            "config timeout_secs: -1",
            &["put", "1"],
            2,
            &["config file {dir}/config/config.json: timeout_secs must be more than 0 and at most 86400 seconds (one day)"],
        ),
        &[(CONFIG, Make::File(br#"{"timeout_secs": -1}"#, 0o600))],
    ),
    with_files(
        row(
            "config timeout_secs: 1e9",
            &["put", "1"],
            2,
            &["timeout_secs must be more than 0 and at most 86400 seconds"],
        ),
        &[(CONFIG, Make::File(br#"{"timeout_secs": 1e9}"#, 0o600))],
    ),
    // ---- other arguments ----
    row(
        "unknown flag",
        &["put", "1", "--bogus"],
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
        "--save with an operation that is not a save",
        &["clear-data", "--save", "delete", "1"],
        2,
        &["invalid value 'delete' for '--save <OPERATION>'"],
    ),
];

/// A loopback launcher that answers 200 OK to every connection and counts them.
fn counting_launcher() -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let accepted = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&accepted);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            counter.fetch_add(1, Ordering::SeqCst);
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") {
                match stream.read(&mut byte) {
                    Ok(1) => head.push(byte[0]),
                    _ => break,
                }
            }
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\nOK");
        }
    });
    (url, accepted)
}

/// Whether this process can open a file whose mode is 000 (root can).
fn reads_unreadable_files() -> bool {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("probe");
    std::fs::write(&path, b"x").expect("probe file");
    set_mode(&path, 0o000);
    std::fs::File::open(&path).is_ok()
}

fn fill(text: &str, url: &str, dir: &Path) -> String {
    text.replace("{url}", url)
        .replace("{addr}", url.trim_start_matches("http://"))
        .replace("{dir}", &dir.display().to_string())
        .replace("{token}", TOKEN)
}

/// Runs one row; returns what was wrong with it, if anything.
fn check(row: &Row, url: &str, accepted: &AtomicUsize) -> Vec<String> {
    let sandbox = Sandbox::new();
    let dir = sandbox.dir.path();
    for (path, make) in row.files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("parent dir");
        match make {
            Make::Dir => std::fs::create_dir_all(&path).expect("dir"),
            Make::File(bytes, mode) => {
                let bytes = match std::str::from_utf8(bytes) {
                    Ok(text) => fill(text, url, dir).into_bytes(),
                    Err(_) => bytes.to_vec(),
                };
                std::fs::write(&path, bytes).expect("file");
                set_mode(&path, *mode);
            }
        }
    }
    let mut cmd = sandbox.std_cmd();
    for (name, value) in row.env {
        cmd.env(name, fill(value, url, dir));
    }
    cmd.args(row.args.iter().map(|arg| fill(arg, url, dir)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let before = accepted.load(Ordering::SeqCst);
    let mut child = cmd.spawn().expect("safe-ad starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let _ = stdin.write_all(row.stdin);
    drop(stdin);
    let output = child.wait_with_output().expect("safe-ad runs");
    // A request that went out would have been accepted by now.
    std::thread::sleep(Duration::from_millis(20));
    let connections = accepted.load(Ordering::SeqCst) - before;

    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let mut wrong = Vec::new();
    if output.status.code() != Some(row.code) {
        wrong.push(format!(
            "exit {:?}, expected {}",
            output.status.code(),
            row.code
        ));
    }
    for word in row.words {
        let word = fill(word, url, dir);
        if !stderr.contains(&word) {
            wrong.push(format!("stderr lacks {word:?}"));
        }
    }
    for word in row.absent {
        if output_text(&output).contains(word) {
            wrong.push(format!("output shows {word:?}"));
        }
    }
    if connections != row.connections {
        wrong.push(format!(
            "the launcher saw {connections} connections, expected {}",
            row.connections
        ));
    }
    let expected_stdout = if row.connections > 0 {
        "put 1: ok\n"
    } else {
        ""
    };
    if stdout != expected_stdout {
        wrong.push(format!("stdout {stdout:?}, expected {expected_stdout:?}"));
    }
    let text = output_text(&output);
    if TOKEN
        .as_bytes()
        .windows(8)
        .any(|piece| text.contains(std::str::from_utf8(piece).unwrap_or("")))
    {
        wrong.push("a piece of the token is in the output".into());
    }
    if !wrong.is_empty() {
        wrong.insert(
            0,
            format!(
                "{}: safe-ad {}",
                row.input,
                row.args
                    .iter()
                    .map(|a| format!("{:?}", fill(a, url, dir)))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        );
        wrong.push(format!("  stderr: {stderr:?}"));
    }
    wrong
}

#[test]
fn every_bad_input_is_refused_with_its_exit_code_and_words_and_sends_nothing() {
    let (url, accepted) = counting_launcher();
    let root = reads_unreadable_files();
    let mut wrong = Vec::new();
    let mut failed_rows = 0;
    let mut skipped = Vec::new();
    for row in TABLE {
        if row.unreadable && root {
            skipped.push(row.input);
            continue;
        }
        let problems = check(row, &url, &accepted);
        if !problems.is_empty() {
            failed_rows += 1;
            wrong.extend(problems);
        }
    }
    println!(
        "{} bad inputs in the table: {} checked, {} skipped",
        TABLE.len(),
        TABLE.len() - skipped.len(),
        skipped.len()
    );
    for input in &skipped {
        println!(
            "skipped {input:?}: this process reads mode-000 files (it runs as root), so the row cannot be tested here"
        );
    }
    assert!(
        wrong.is_empty(),
        "{failed_rows} of {} rows are wrong:\n{}",
        TABLE.len(),
        wrong.join("\n")
    );
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
/// standard input.
fn setup_text(row: &Row) -> String {
    let mut parts = Vec::new();
    for (name, value) in row.env {
        if !SETUP.contains(&(*name, *value)) {
            parts.push(format!("`{name}={}`", cell(value)));
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

fn rendered_table() -> String {
    let mut text = format!(
        "{BEGIN}\n\n{} bad inputs. `{{dir}}` is the test's directory, `{{addr}}` the loopback server's \
address. Every row with exit code 2 or 3 proves the server accepted no connection; the exit-0 row \
proves the operation did run.\n\n\
| # | bad input | command | setup | exit | the message contains |\n|---|---|---|---|---|---|\n",
        TABLE.len()
    );
    for (i, row) in TABLE.iter().enumerate() {
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
            "| {} | {} | `safe-ad {}` | {} | {} | {} |\n",
            i + 1,
            cell(row.input),
            cell(&command).replace('`', "'"),
            setup,
            row.code,
            words
        ));
    }
    text.push('\n');
    text.push_str(END);
    text
}

#[test]
fn testing_md_shows_this_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("TESTING.md");
    let current = std::fs::read_to_string(&path).expect("TESTING.md");
    let (Some(start), Some(end)) = (current.find(BEGIN), current.find(END)) else {
        panic!("TESTING.md lacks the markers {BEGIN:?} and {END:?}");
    };
    let table = rendered_table();
    let updated = format!(
        "{}{table}{}",
        &current[..start],
        &current[end + END.len()..]
    );
    if std::env::var_os("SAFE_AD_REGENERATE").is_some() {
        std::fs::write(&path, &updated).expect("write TESTING.md");
        return;
    }
    assert!(
        current == updated,
        "TESTING.md's table of bad inputs is out of date; refresh it with \
         SAFE_AD_REGENERATE=1 cargo test --test integration bad_input::"
    );
}
