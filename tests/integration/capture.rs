//! `safe-ad capture`: data made on one emulator, captured through the launcher API and
//! imported into a second, reads the same there (`show --full --json` of each name, but for
//! handle numbers); what cannot be captured is said on stderr and in the fixture's `leftOut`;
//! the token is in no byte of the fixture; FILE is replaced atomically and a link, a directory
//! or a FIFO is refused before anything is sent. (`--dry-run` is a row of `dry_run_matches`,
//! Ctrl-C one of `leases_sweep`, the signals one of `stop_signals`.)

use serde_json::Value;

use crate::harness::emulator::{path_arg, Emulator};
use crate::harness::http::name;
use crate::harness::*;

/// `show --full --json` of `name` on `emulator`, with every handle number taken out, and the
/// items that point at private data, which a capture leaves out (and lists): on the second
/// emulator they point at data not on the network.
fn shown(sandbox: &Sandbox, emulator: &Emulator, name: &str) -> Value {
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["show", "--full", "--json", name])
        .run();
    output.success();
    let mut lines = output.json_lines();
    assert_eq!(lines.len(), 1, "{}", output.stdout());
    let mut value = lines.remove(0);
    without_handles(&mut value);
    for list in ["data", "deleted_data"] {
        if let Some(items) = value[list].as_array_mut() {
            items.retain(|item| item["kind"] != "private-appendable-data");
        }
    }
    value
}

fn without_handles(value: &mut Value) {
    match value {
        Value::Object(object) => {
            object.remove("handle");
            object.values_mut().for_each(without_handles);
        }
        Value::Array(list) => list.iter_mut().for_each(without_handles),
        _ => {}
    }
}

/// The names of the appendable data a fixture holds.
fn names_in(fixture: &Value) -> Vec<String> {
    (fixture["appendableData"]
        .as_array()
        .expect("appendableData")
        .iter())
    .map(|data| data["name"].as_str().expect("a name").to_owned())
    .collect()
}

#[test]
fn a_capture_imported_into_a_second_emulator_shows_the_same() {
    let sandbox = Sandbox::new();
    let a = Emulator::start_in(&sandbox, &[]);
    let run = |args: &[&str]| sandbox.safe_ad().launcher(&a.url).args(args).run();
    // Data of its own, beside the demo's (owned items, items signed by another key, a filter
    // of two keys, deleted items, an inbox of immutable data): items pointing at structured
    // data not on the network, at immutable data written plain and encrypted, at private data,
    // at itself and at the demo data (a loop), and a deleted one.
    let saved = a.demo_name(1);
    let inbox = a.demo_name(5);
    let own = name(0x41);
    run(&["create", "--put", &own]).success();
    run(&["create", "--put", "--private", &name(0x43)]).success();
    let file = sandbox.file("message.txt", "a message of its own\n");
    let file = path_arg(&file);
    run(&["append", &own, "--structured", &name(0x42)]).success();
    run(&["append", &own, "--immutable", file]).success();
    run(&[
        "append",
        &own,
        "--immutable",
        file,
        "--encrypt",
        "symmetric",
    ])
    .success();
    run(&["append", &own, "--appendable", &own]).success();
    run(&["append", &own, "--appendable", &saved]).success();
    run(&["append", &own, "--appendable", &name(0x43), "--private"]).success();
    run(&["append", &own, "--structured", &name(0x44)]).success();
    run(&["remove", &own, "--name", &name(0x44)]).success();

    let fixture = sandbox.path().join("fixture.json");
    let captured = run(&["capture", &own, &inbox, "-o", path_arg(&fixture)]);
    captured.success();
    let text = std::fs::read_to_string(&fixture).expect("the fixture");
    let parsed: Value = serde_json::from_str(&text).expect("JSON");
    // Each data once, whatever points at it: the named ones, and those reached through items.
    let names = names_in(&parsed);
    for reached in [&own, &inbox, &saved, &a.demo_name(2)] {
        assert_eq!(
            names.iter().filter(|name| name == &reached).count(),
            1,
            "{reached} in {names:?}"
        );
    }
    // What was left out: said on stderr and in the fixture, in the same words.
    let left: Vec<String> = (parsed["leftOut"].as_array().expect("leftOut").iter())
        .map(|entry| {
            format!(
                "left out {}: {}",
                entry["what"].as_str().expect("what"),
                entry["why"].as_str().expect("why")
            )
        })
        .collect();
    assert!(
        left.iter()
            .any(|line| line.contains(&name(0x43)) && line.contains("private data")),
        "{left:#?}"
    );
    assert!(
        left.iter()
            .any(|line| line.contains(&name(0x42)) && line.contains("not on the network")),
        "{left:#?}"
    );
    // Summed up by reason (issue 52: a line each drowned the rest), the reasons and the first
    // few of each; each in the fixture's words only with --verbose.
    captured
        .stderr_has(&format!(
            "warning: capture: left out {} things: ",
            left.len()
        ))
        .stderr_has("2 not on the network (")
        .stderr_has("1 private (")
        .stderr_has("`--verbose` says why of each");
    assert_eq!(
        captured
            .stderr()
            .matches("warning: capture: left out")
            .count(),
        1,
        "{}",
        captured.stderr()
    );
    let verbose = run(&["--verbose", "capture", &own, &inbox]);
    verbose.success();
    for line in &left {
        verbose.stderr_has(line);
    }
    assert_eq!(
        verbose
            .stderr()
            .matches("warning: capture: left out")
            .count(),
        left.len(),
        "{}",
        verbose.stderr()
    );
    let before: Vec<Value> = names.iter().map(|n| shown(&sandbox, &a, n)).collect();
    a.terminate().success();

    let b = Emulator::start_in(&sandbox, &["-q", "--import", path_arg(&fixture)]);
    for (name, before) in names.iter().zip(&before) {
        assert_eq!(&shown(&sandbox, &b, name), before, "{name}");
    }
    b.terminate().success();
}

#[test]
fn the_token_is_in_no_byte_of_the_fixture_on_stdout_or_in_the_file() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start_in(&sandbox, &[]);
    let names = [emulator.demo_name(1), emulator.demo_name(5)];
    let on_stdout = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .arg("capture")
        .args(&names)
        .run();
    on_stdout.success();
    let fixture = sandbox.path().join("fixture.json");
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .arg("capture")
        .args(&names)
        .args(["-o", path_arg(&fixture)])
        .run()
        .success()
        .stdout_is("");
    let bytes = std::fs::read(&fixture).expect("the fixture");
    assert_eq!(bytes, on_stdout.stdout_bytes(), "-o and stdout differ");
    let text = String::from_utf8(bytes).expect("UTF-8");
    use base64::Engine;
    let encoded = base64::engine::general_purpose::STANDARD.encode(TOKEN);
    assert!(!text.contains(&encoded[..16]), "the token in base64");
    assert_no_token(&text);
    emulator.terminate().success();
}

#[test]
fn a_link_a_directory_or_a_fifo_is_refused_before_sending_and_a_file_is_replaced_whole() {
    let sandbox = Sandbox::new();
    let target = sandbox.file("real.json", "kept\n");
    std::os::unix::fs::symlink(&target, sandbox.path().join("link.json")).expect("symlink");
    std::fs::create_dir(sandbox.path().join("dir.json")).expect("dir");
    sandbox.named_fifo("fifo.json");
    // No launcher at the URL: a refusal before anything is sent is exit 2, not 6.
    let nowhere = "http://127.0.0.1:9";
    let some_name = name(0x41);
    for (file, says) in [
        ("link.json", "link.json: it is a symbolic link"),
        ("dir.json", "dir.json: it is not a regular file"),
        ("fifo.json", "fifo.json: it is not a regular file"),
    ] {
        sandbox
            .safe_ad()
            .launcher(nowhere)
            .args(["capture", &some_name, "-o", file])
            .current_dir(sandbox.path())
            .run()
            .code(2)
            .stderr_has(&format!("safe-ad: error: capture: {says}"));
    }
    assert_eq!(std::fs::read_to_string(&target).expect("target"), "kept\n");

    // An existing file is replaced whole, keeping its mode, and nothing is left beside it.
    let emulator = Emulator::start_in(&sandbox, &[]);
    let out = sandbox.path().join("out");
    std::fs::create_dir(&out).expect("dir");
    let fixture = out.join("fixture.json");
    std::fs::write(&fixture, "old\n").expect("old");
    set_mode(&fixture, 0o640);
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["capture", &emulator.demo_name(1), "-o", path_arg(&fixture)])
        .run()
        .success();
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(&fixture).expect("fixture");
    assert_eq!(meta.permissions().mode() & 0o777, 0o640);
    let left: Vec<_> = std::fs::read_dir(&out).expect("dir").collect();
    assert_eq!(left.len(), 1, "a temporary file was left");
    let text = std::fs::read_to_string(&fixture).expect("fixture");
    assert!(text.starts_with('{') && text.ends_with("}\n"), "{text}");
    // A FILE in a directory that does not exist: refused before anything is sent (exit 2).
    // (`unwritable_output` has the other places no file can be made, and a write that fails.)
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args([
            "capture",
            &emulator.demo_name(1),
            "-o",
            "missing/fixture.json",
        ])
        .current_dir(sandbox.path())
        .run()
        .code(2)
        .stderr_has("capture: missing/fixture.json: its directory missing does not exist");
    emulator.terminate().success();
}

#[test]
fn a_name_not_on_the_network_is_exit_4_and_listed_and_the_rest_is_written() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start_in(&sandbox, &[]);
    let missing = name(0x45);
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["capture", &missing, &emulator.demo_name(5)])
        .run();
    output
        .code(4)
        .stderr_has(&format!("could not be taken (appendable data {missing})"));
    let fixture: Value = serde_json::from_str(output.stdout()).expect("the fixture");
    assert_eq!(names_in(&fixture), [emulator.demo_name(5)]);
    let left = fixture["leftOut"].to_string();
    assert!(left.contains(&missing), "{left}");
    // Every handle the run took was given back.
    assert_eq!(emulator.handles_since(6), []);
    emulator.terminate().success();
}

/// A capture that reads nothing at all (no launcher on that port) does not replace the committed
/// fixture with an empty one: FILE is as it was, said on stderr, and the exit code is the
/// launcher's (6).
#[test]
fn a_capture_that_read_nothing_leaves_the_file_as_it_was() {
    let sandbox = Sandbox::new();
    let file = sandbox.file("fixture.json", "{\"kept\": true}\n");
    let url = crate::harness::closed_port_url();
    sandbox
        .safe_ad()
        .launcher(&url)
        .args([
            "capture",
            &crate::harness::http::name(7),
            "-o",
            file.to_str().expect("a path"),
        ])
        .run()
        .code(6)
        .stderr_has("was not written (it is as it was)");
    assert_eq!(
        std::fs::read_to_string(&file).expect("the file"),
        "{\"kept\": true}\n"
    );
}

/// Data at version 2^64 - 1 (which a launcher may hold; the emulator's `--import` refuses it, as
/// no save could follow it) is left out of the fixture, said on stderr with its version and in
/// `leftOut`, so that the fixture written loads: captured through a relay that answers the first
/// metadata read (the first name's copy) at that version, and imported into a second emulator,
/// where the other name shows as it did.
#[test]
fn data_at_version_2_64_minus_1_is_left_out_and_the_fixture_loads() {
    use crate::harness::relay::{Hook, Relay};
    use std::sync::atomic::{AtomicBool, Ordering};
    let sandbox = Sandbox::new();
    let emulator = Emulator::start_in(&sandbox, &[]);
    let (past, kept) = (emulator.demo_name(1), emulator.demo_name(5));
    let answer = http_answer(
        "200 OK",
        br#"{"isOwner":true,"version":18446744073709551615,"filterType":"BlackList","filterLength":0,"dataLength":0,"deletedDataLength":0}"#,
    );
    let answered = AtomicBool::new(false);
    let relay = Relay::start(emulator.addr(), move |line| {
        if line.starts_with("GET /appendable-data/metadata/")
            && !answered.swap(true, Ordering::SeqCst)
        {
            Hook::Answer(answer)
        } else {
            Hook::Pass
        }
    });
    let fixture = sandbox.path().join("fixture.json");
    let output = sandbox
        .safe_ad()
        .launcher(&relay.url)
        .args([
            "--verbose",
            "capture",
            &past,
            &kept,
            "-o",
            path_arg(&fixture),
        ])
        .run();
    output.success().stderr_has(&format!(
        "left out appendable data {past}: its version, 18446744073709551615, is past the last one \
         a fixture holds, 18446744073709551614"
    ));
    let text = std::fs::read_to_string(&fixture).expect("the fixture");
    let written: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(names_in(&written), [kept.as_str()]);
    assert!(written["leftOut"].to_string().contains(&past), "{text}");
    assert!(!text.contains("18446744073709551615\n"), "{text}");
    // It loads, and the data kept shows as it did.
    let imported = Emulator::start_in(&sandbox, &["-q", "--import", path_arg(&fixture)]);
    assert_eq!(
        shown(&sandbox, &imported, &kept),
        shown(&sandbox, &emulator, &kept)
    );
    imported.terminate().success();
    emulator.terminate().success();
}
