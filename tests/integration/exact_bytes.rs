//! Data shown exactly, against the emulator binary: `cat` writes an item's content as raw bytes
//! and `show --full --json`'s `content_base64` decodes to the same bytes, also for content that
//! holds the token (the user's data, not a message) and bytes that are not text; the token is
//! still kept out of stderr, and every handle `cat` reads through is given back; a
//! one-character token (`emulator --token 1`) rewrites no number.

use base64::Engine;
use serde_json::Value;

use crate::harness::emulator::*;
use crate::harness::*;

/// Appends `content` to handle 5 as immutable data and returns a fresh handle on 5's data and
/// the index of the new item there (the one of that size the user signed).
fn appended(sandbox: &Sandbox, emulator: &Emulator, content: &[u8]) -> (String, u64) {
    let file = sandbox.file("content.bin", content);
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["append", "5", "--immutable", file.to_str().expect("path")])
        .run()
        .success();
    let fresh = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["reopen", "5"])
        .run();
    let fresh = fresh.success().stdout().trim().to_string();
    let shown = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["show", "--json", &fresh])
        .token_may_show()
        .run();
    let object = shown.success().json_lines().remove(0);
    let index = object["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|item| item["signer_is_you"] == true && item["size"] == content.len())
        .and_then(|item| item["index"].as_u64())
        .unwrap_or_else(|| panic!("no item of {} bytes in {object}", content.len()));
    (fresh, index)
}

#[test]
fn cat_and_show_full_json_give_the_exact_bytes_of_content_holding_the_token() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let mut content = format!("Token: {TOKEN}\n").into_bytes();
    content.extend_from_slice(b"\x00\xff\x1b[2J not text");
    let (fresh, index) = appended(&sandbox, &emulator, &content);
    let index = index.to_string();
    let before = emulator.handles_held();

    let cat = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["cat", &fresh, &index])
        .token_may_show()
        .run();
    cat.success();
    assert_eq!(cat.stdout_bytes(), content.as_slice(), "cat's bytes");
    assert!(token_piece_in(cat.stderr()).is_none(), "{}", cat.stderr());

    let full = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["show", "--full", "--json", "--index", &index, &fresh])
        .token_may_show()
        .run();
    let object = full.success().json_lines().remove(0);
    let item = &object["data"][0];
    assert_eq!(item["size"], content.len(), "{item}");
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(item["content_base64"].as_str().expect("content_base64"))
        .expect("base64");
    assert_eq!(decoded, content, "show --full --json's content_base64");
    assert!(token_piece_in(full.stderr()).is_none(), "{}", full.stderr());

    // Past the end of the list: said, exit 4, nothing on stdout; every handle given back.
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["cat", &fresh, "999"])
        .run()
        .code(4)
        .stdout_is("")
        .stderr_has("has no item at index 999");
    assert_eq!(emulator.handles_held(), before, "handles left behind");
}

#[test]
fn a_one_character_token_rewrites_no_number() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::spawn(
        SafeAd::new()
            .args(["emulator", "--listen", "127.0.0.1:0", "--token", "1"])
            .token_may_show(),
    );
    let safe_ad = |args: &[&str]| {
        sandbox
            .safe_ad()
            .env("SAFE_LAUNCHER_URL", &emulator.url)
            .env("SAFE_LAUNCHER_TOKEN", "1")
            .args(args)
    };
    let metadata = safe_ad(&["metadata", "--json", "1"]).run();
    let object: Value = metadata.success().json_lines().remove(0);
    assert!(object["version"].is_u64(), "{object}");
    let file = sandbox.file("one.txt", "1 11 111");
    safe_ad(&["append", "5", "--immutable", file.to_str().expect("path")])
        .run()
        .success()
        .stdout_is("append 5: ok\n");
    let fresh = safe_ad(&["reopen", "5"]).run();
    let fresh = fresh.success().stdout().trim().to_string();
    let shown = safe_ad(&["show", "--json", &fresh]).run();
    let object = shown.success().json_lines().remove(0);
    let texts: Vec<&Value> = object["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|item| &item["text"])
        .collect();
    assert!(texts.contains(&&Value::from("1 11 111")), "{object}");
}

#[test]
fn empty_content_is_written_as_the_launcher_takes_it_and_read_back_empty() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (fresh, index) = appended(&sandbox, &emulator, b"");
    let cat = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["cat", &fresh, &index.to_string()])
        .run();
    cat.success();
    assert_eq!(cat.stdout_bytes(), b"", "cat's bytes");
}

#[test]
fn content_that_is_not_text_goes_to_a_terminal_only_with_force() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let (fresh, index) = appended(&sandbox, &emulator, b"\x1b[2J\x00\xff");
    let line = |flags: &str| {
        crate::messages::on_terminal(&sandbox, &format!("safe-ad cat {flags} {fresh} {index}"))
            .launcher(&emulator.url)
            .run()
    };
    line("")
        .code(2)
        .stdout_has("is not text (6 bytes); it was not written to the terminal")
        .stdout_has("--force");
    line("--force").success();
    // In a pipe it is written as it is, with no question.
    let piped = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["cat", &fresh, &index.to_string()])
        .run();
    piped.success();
    assert_eq!(piped.stdout_bytes(), b"\x1b[2J\x00\xff");
}

/// A carriage return not followed by a line feed sends the cursor back over the line, so what
/// follows it overwrites what a person would read (`cr\roverwrite` shows `overwrite`): on a
/// terminal it is a control character like any other, while `\r\n` line ends are text.
#[test]
fn a_lone_carriage_return_is_not_text_on_a_terminal_and_crlf_is() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let on_terminal = |handle: &str, index: u64, flags: &str| {
        crate::messages::on_terminal(&sandbox, &format!("safe-ad cat {flags} {handle} {index}"))
            .launcher(&emulator.url)
            .run()
    };
    for content in [&b"cr\roverwrite"[..], b"ends in cr\r", b"cr\r\r\n"] {
        let (fresh, index) = appended(&sandbox, &emulator, content);
        let refused = on_terminal(&fresh, index, "");
        refused
            .code(2)
            .stdout_has(&format!(
                "is not text ({} bytes); it was not written to the terminal",
                content.len()
            ))
            .check(
                !refused.stdout().contains("overwrite") && !refused.stdout().contains("ends in"),
                "the content reached the terminal",
            );
        on_terminal(&fresh, index, "--force").success();
    }
    let (fresh, index) = appended(&sandbox, &emulator, b"two\r\nlines\r\n");
    on_terminal(&fresh, index, "")
        .success()
        .stdout_has("two")
        .stdout_has("lines");
}

/// Bytes that did not reach their file are not a success: `> file` on a full disk (`/dev/full`)
/// exits 1 and says why, for `cat`, for any command's lines and for help, while a reader that left early
/// (`| head -c 0`) is still a quiet end.
#[test]
fn stdout_that_cannot_be_written_is_never_exit_0() {
    let emulator = Emulator::start(&["--quiet"]);
    let sandbox = Sandbox::new();
    let run = |script: &str| sandbox.shell("sh", script).launcher(&emulator.url).run();
    for command in [
        "safe-ad cat 5 0",
        "safe-ad metadata 1 2",
        "safe-ad show 1",
        "safe-ad decode AQAAAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB",
        // Help and the version asked for are output too, whichever way they are asked.
        "safe-ad --version",
        "safe-ad --color never --version",
        "safe-ad --help",
        "safe-ad help put",
        "safe-ad help help",
    ] {
        run(&format!("exec {command} > /dev/full"))
            .code(1)
            .stderr_has("could not write to standard output (")
            .stderr_has("what was printed is not whole");
    }
    sandbox
        .shell("bash", "set -o pipefail; safe-ad metadata 1 2 | head -c 0")
        .launcher(&emulator.url)
        .run()
        .success();
    let out = sandbox.path().join("out.txt");
    let out = out.to_str().expect("a UTF-8 path");
    run(&format!(
        "set -e; safe-ad metadata 1 > '{out}'; grep -q '^1: version 1' '{out}'"
    ))
    .success();
}

/// The hint that refuses a deleted item's binary content on a terminal names a command that
/// reads that same item: `--deleted` kept (issue 52: it read data item 0 instead). The hint's
/// command, run as written into a pipe, gives the item's bytes.
#[test]
fn the_hint_for_a_deleted_items_binary_content_reads_the_same_item() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let content = b"\x00\x01deleted\xff";
    let (fresh, index) = appended(&sandbox, &emulator, content);
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["remove", "--save", "post", &fresh, &index.to_string()])
        .run()
        .success();
    let fresh = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["reopen", "--drop", &fresh])
        .run();
    let fresh = fresh.success().stdout().trim().to_string();
    // The removed item is the deleted list's only one of its size.
    let refused = crate::messages::on_terminal(
        &sandbox,
        &format!("safe-ad --color never cat --deleted {fresh} 0"),
    )
    .launcher(&emulator.url)
    .run();
    refused.code(2).stdout_has("deleted item 0 of");
    let hint = refused
        .stdout()
        .split('`')
        .find(|part| part.starts_with("safe-ad cat "))
        .unwrap_or_else(|| panic!("a command in the hint: {}", refused.stdout()))
        .to_owned();
    assert!(hint.contains("--deleted"), "{hint}");
    let command = hint
        .strip_suffix(" > file")
        .expect("the hint writes to a file");
    let words: Vec<&str> = command.split_whitespace().skip(1).collect();
    let piped = sandbox.safe_ad().launcher(&emulator.url).args(&words).run();
    piped.success();
    assert_eq!(piped.stdout_bytes(), content);
}
