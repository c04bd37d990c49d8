//! Content of another length than the size the launcher gave for it: a relay in front of the
//! emulator binary answers the content read (`GET /immutable-data/:reader`) of the demo inbox's
//! "Meeting moved to 3pm." (21 bytes, item 0 of handle 5) with other bytes: a 206 for a range
//! nobody asked for, a 200 with 5 bytes, a 200 with 44. It is an unreadable answer (exit 1) that
//! says both lengths; `cat` writes nothing, to a pipe or a file, and `show --full` shows no
//! bytes beside the size; every handle the read took is given back.

use super::*;
use crate::harness::emulator::Emulator;
use crate::harness::relay::{Hook, Relay};

/// The content the emulator holds for item 0 of its demo inbox.
const MEETING: &str = "Meeting moved to 3pm.";

/// Its first 5 bytes as a 206 for `bytes=0-4`, as the launcher would answer a Range.
const PARTIAL: &[u8] = b"HTTP/1.1 206 Partial Content\r\ncontent-range: bytes 0-4/21\r\naccept-ranges: bytes\r\ncontent-type: application/octet-stream\r\ncontent-length: 5\r\n\r\nMeeti";

/// Its first 5 bytes as a plain 200.
const SHORT: &[u8] =
    b"HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: 5\r\n\r\nMeeti";

/// 44 bytes, the 21 and more.
const LONGER: &str = "Meeting moved to 3pm. Then to 4pm; then 5pm.";

fn content_read(line: &str) -> bool {
    line.starts_with("GET /immutable-data/") && !line.starts_with("GET /immutable-data/reader/")
}

/// A relay in front of `emulator` that answers every content read with `answer` and passes
/// every other request on.
fn answering_reads(emulator: &Emulator, answer: &'static [u8]) -> Relay {
    Relay::start(emulator.addr(), move |line| {
        if content_read(line) {
            Hook::Answer(answer)
        } else {
            Hook::Pass
        }
    })
}

#[test]
fn cat_of_fewer_bytes_than_the_size_writes_nothing_and_says_both_lengths() {
    let emulator = Emulator::start(&["--quiet"]);
    let before = emulator.handles_held();
    let whole = at(&emulator.url).args(["cat", "5", "0"]).run();
    assert_eq!(whole.success().stdout(), MEETING, "the inbox's item 0");
    for (what, answer) in [("206 bytes 0-4/21", PARTIAL), ("200 of 5 bytes", SHORT)] {
        let relay = answering_reads(&emulator, answer);
        let output = at(&relay.url).args(["cat", "5", "0"]).case(what).run();
        assert_run(
            &output,
            1,
            &[
                "safe-ad: error: cat 5 0: the launcher gave the content's size as 21 bytes, then answered 5 bytes of content\n",
                "hint: check that --launcher-url points at a SAFE Launcher",
            ],
        );
        assert_eq!(output.stdout_bytes(), b"", "{what}: cat wrote to its pipe");
        assert_eq!(
            emulator.handles_held(),
            before,
            "{what}: handles left behind"
        );

        // To a file: the file stays empty.
        let sandbox = Sandbox::new();
        let out = sandbox.path().join("meeting.txt");
        sandbox
            .shell("sh", &format!("exec safe-ad cat 5 0 > '{}'", out.display()))
            .launcher(&relay.url)
            .case(what)
            .run()
            .code(1)
            .stderr_has("then answered 5 bytes of content");
        assert_eq!(
            std::fs::read(&out).expect("the file"),
            b"",
            "{what}: cat wrote to its file"
        );
    }
}

#[test]
fn show_full_of_more_bytes_than_the_size_shows_the_size_and_no_bytes_beside_it() {
    assert_eq!(LONGER.len(), 44);
    let emulator = Emulator::start(&["--quiet"]);
    let before = emulator.handles_held();
    let relay = answering_reads(&emulator, http_answer("200 OK", LONGER.as_bytes()));
    let failure =
        "the launcher gave the content's size as 21 bytes, then answered 44 bytes of content";

    let text = at(&relay.url)
        .args(["show", "--full", "--index", "0", "5"])
        .run();
    assert_run(&text, 1, &[failure]);
    let stdout = text.stdout();
    assert!(
        stdout.contains(", 21 bytes, signed by ")
            && stdout.contains(&format!(" [unreadable: {failure}]\n")),
        "{stdout}"
    );
    assert!(
        !stdout.contains("Meeting") && !stdout.contains("\n    content"),
        "bytes shown beside the size: {stdout}"
    );

    let json = at(&relay.url)
        .args(["show", "--full", "--json", "--index", "0", "5"])
        .run();
    let object = &json.code(1).json_lines()[0];
    let item = &object["data"][0];
    assert_eq!(object["ok"], false, "{object}");
    assert_eq!(item["size"], 21, "{item}");
    for key in ["content_base64", "text", "preview"] {
        assert!(item[key].is_null(), "{key} beside the size: {item}");
    }
    assert_eq!(item["error"]["class"], "unexpected", "{item}");
    assert!(
        item["error"]["description"]
            .as_str()
            .is_some_and(|description| description.contains(failure)),
        "{item}"
    );
    assert_eq!(emulator.handles_held(), before, "handles left behind");
}
