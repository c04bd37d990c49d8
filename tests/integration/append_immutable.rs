//! `append HANDLE --immutable FILE|-` against the emulator binary: the content written as
//! immutable data (plain, symmetric, asymmetric to a private data's encrypt key) and its data id
//! appended, shown by a fresh handle as an immutable-data item with that content; every handle
//! it took given back (counted through the emulator's `/_emulator/handles`), also when a step
//! fails; too large content, `--dry-run` and `--curl` sending nothing.

use serde_json::Value;

use crate::harness::emulator::*;
use crate::harness::*;

fn run(sandbox: &Sandbox, url: &str, args: &[&str]) -> Output {
    sandbox.safe_ad().launcher(url).args(args).run()
}

/// The data items of a fresh handle on `handle`'s data, by `show --json`; the fresh handle is
/// dropped again.
fn fresh_items(sandbox: &Sandbox, emulator: &Emulator, handle: &str) -> Vec<Value> {
    let fresh = run(sandbox, &emulator.url, &["reopen", handle]);
    let fresh = fresh.success().stdout().trim().to_string();
    let shown = run(sandbox, &emulator.url, &["show", "--json", &fresh]);
    let object = shown.success().json_lines().remove(0);
    run(sandbox, &emulator.url, &["drop", &fresh]).success();
    object["data"].as_array().expect("data").clone()
}

#[test]
fn a_file_and_standard_input_become_immutable_data_items_and_no_handle_is_left() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let file = sandbox.file("message.txt", "hello inbox");
    let before = emulator.handles_held();
    run(
        &sandbox,
        &emulator.url,
        &["append", "5", "--immutable", file.to_str().expect("path")],
    )
    .success()
    .stdout_is("append 5: ok\n");
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["append", "5", "--immutable", "-", "--encrypt", "symmetric"])
        .stdin("from stdin\n")
        .run()
        .success()
        .stdout_is("append 5: ok\n");
    assert_eq!(emulator.handles_held(), before, "handles left behind");
    let items = fresh_items(&sandbox, &emulator, "5");
    let texts: Vec<&Value> = items
        .iter()
        .filter(|item| item["signer_is_you"] == true)
        .map(|item| &item["text"])
        .collect();
    assert!(texts.contains(&&Value::from("hello inbox")), "{items:?}");
    assert!(texts.contains(&&Value::from("from stdin\n")), "{items:?}");
    for item in items.iter().filter(|item| item["text"] == "hello inbox") {
        assert_eq!(item["kind"], "immutable-data");
        assert_eq!(item["size"], 11);
        assert_eq!(item["on_network"], true);
    }
    assert_eq!(emulator.handles_held(), before, "handles left behind");
}

#[test]
fn asymmetric_encryption_goes_to_a_private_datas_key_and_a_failing_step_gives_all_back() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let file = sandbox.file("message.txt", "for the owner");
    let path = file.to_str().expect("path");
    let before = emulator.handles_held();
    // Public data has no encrypt key: the launcher's -1525, and the writer is given back.
    run(
        &sandbox,
        &emulator.url,
        &[
            "append",
            "5",
            "--immutable",
            path,
            "--encrypt",
            "asymmetric",
        ],
    )
    .code(4)
    // The steps before the failing one are the chain's own: nothing of them on stdout.
    .stdout_is("")
    .stderr_has("errorCode -1525")
    // What to do instead (issue 30): private data, or symmetric.
    .stderr_has("hint: `--encrypt asymmetric` encrypts to the encrypt key of private appendable data, and public data has none: append to private data (`safe-ad create --private` makes some), or use `--encrypt symmetric`; nothing was appended\n");
    assert_eq!(
        emulator.handles_held(),
        before,
        "handles left behind after a failing step"
    );
    let created = run(&sandbox, &emulator.url, &["create", "--private", "--put"]);
    let private = created.success().stdout().trim().to_string();
    let before = emulator.handles_held();
    run(
        &sandbox,
        &emulator.url,
        &[
            "append",
            &private,
            "--immutable",
            path,
            "--encrypt",
            "asymmetric",
        ],
    )
    .success()
    .stdout_is(&format!("append {private}: ok\n"));
    assert_eq!(emulator.handles_held(), before, "handles left behind");
    let items = fresh_items(&sandbox, &emulator, &private);
    assert_eq!(items.len(), 1, "{items:?}");
    assert_eq!(items[0]["kind"], "immutable-data");
    assert_eq!(items[0]["text"], "for the owner");
}

#[test]
fn too_large_content_a_dry_run_and_curl_send_nothing() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let large = sandbox.path().join("large.bin");
    std::fs::File::create(&large)
        .and_then(|file| file.set_len(8 * 1024 * 1024 + 1))
        .expect("a sparse file");
    let path = large.to_str().expect("path");
    let from = emulator.requests().len();
    run(
        &sandbox,
        &emulator.url,
        &["append", "5", "--immutable", path],
    )
    .code(2)
    .stderr_has("is 8388609 bytes, more than the 8 MiB safe-ad writes as one immutable data");
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["append", "5", "--immutable", "-"])
        .stdin(vec![b'x'; 8 * 1024 * 1024 + 1])
        .run()
        .code(2)
        .stderr_has("more than the 8 MiB");
    let dry = run(
        &sandbox,
        &emulator.url,
        &["append", "5", "--immutable", path, "--dry-run"],
    );
    let lines: Vec<&str> = dry
        .success()
        .stdout()
        .lines()
        .filter(|line| !line.starts_with("  "))
        .collect();
    assert_eq!(
        lines[0],
        format!("GET {}/immutable-data/writer", emulator.url)
    );
    assert_eq!(
        lines[lines.len() - 1],
        format!(
            "DELETE {}/immutable-data/writer/{{writerHandle}}",
            emulator.url
        )
    );
    run(
        &sandbox,
        &emulator.url,
        &["append", "5", "--immutable", path, "--curl"],
    )
    .code(2)
    .stderr_has("--curl cannot carry the content of --immutable");
    assert!(
        emulator.requests().split_off(from).is_empty(),
        "something was sent"
    );
}

#[test]
fn ctrl_c_while_the_writer_is_being_made_gives_back_the_writer_it_brings() {
    // The writer's answer is on its way when Ctrl-C comes: the handle it brings is still held
    // and given back, and nothing is written or appended.
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let file = sandbox.file("message.txt", "hello inbox");
    let before = emulator.handles_held();
    let items_before = fresh_items(&sandbox, &emulator, "5");
    let relay = crate::harness::relay::Relay::holding(emulator.addr(), 0, |line| {
        line.starts_with("GET /immutable-data/writer ")
    });
    relay
        .stop_while_held(
            sandbox
                .safe_ad()
                .args(["append", "5", "--immutable", file.to_str().expect("path")]),
            Running::interrupt,
        )
        .code(130)
        .stdout_is("")
        .stderr_has("every launcher handle it had obtained was given back");
    assert_eq!(emulator.handles_held(), before, "handles left behind");
    assert_eq!(fresh_items(&sandbox, &emulator, "5"), items_before);
}
