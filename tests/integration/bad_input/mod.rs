//! Every bad input safe-ad can receive, in one table: handles, launcher URLs, tokens, config
//! files, numeric options and command lines. Each row gives the exit code and the words the
//! message must contain, and proves that nothing reached the launcher: every row points at a
//! loopback server that counts the connections it accepts. Every refusal starts with
//! `safe-ad: error: `, and every position it names (`line L, column C`) counts from 1.
//!
//! The rows are in this directory's files, by family, each with the tests of its groups (one
//! test per group). TESTING.md shows the whole table; a test checks it is the table here, and the
//! regeneration command
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
    /// A FIFO (`mkfifo`) that nothing writes to: opening it to read would wait for ever.
    Fifo,
    /// A unix socket, left behind by a listener that has gone.
    Socket,
    /// A symbolic link to this target (placeholders replaced; relative to the link's directory).
    Link(&'a str),
}

/// One bad input. A row whose file safe-ad must not open (a FIFO) fails, rather than hangs, if
/// safe-ad opens it: the run is killed at the harness's deadline. In `args`, `env`, file contents, stdin, `words` and `absent`: `{url}` is the
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
    "hint: a handle is plain decimal digits, 0 to 18446744073709551615; a data's name goes in its place as 44 characters of base64 or 64 hex digits; nothing was sent";
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

// The rows, by family, each file with the tests of its groups. The modules come after the
// row macros above, which they use.
mod config_and_options;
mod handles_and_names;
mod items_and_command_lines;
mod testing_md;
mod urls_and_tokens;

use config_and_options::{CONFIG_FILES, OPTIONS};
use handles_and_names::{HANDLES, NAMES};
use items_and_command_lines::{COMMAND_LINES, ITEMS};
use urls_and_tokens::{TOKENS, URLS};

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

// ---- running the rows ---------------------------------------------------------------------------

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
            Make::Fifo => {
                sandbox.named_fifo(&path);
            }
            Make::Socket => {
                std::os::unix::net::UnixListener::bind(&path).expect("socket");
            }
            Make::Link(target) => {
                std::os::unix::fs::symlink(place.fill(target), &path).expect("symlink")
            }
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
