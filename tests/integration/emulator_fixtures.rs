//! Fixtures a CI job commits: `--import FILE` loads one and never writes it (byte for byte the
//! same after a run that changed the network); a fixture that does not load names the whole path
//! to the value at fault, and one holding a version no save could follow is refused (the saves
//! stop one short of it, in words that name the limit, so a saved file loads again); the start-up
//! summary counts each family in words; `safe-ad emulator export [FILE|-]` writes what a running
//! emulator holds as a fixture that loads back to the same network (immutable data included, its
//! computed names left out), refusing a FILE that is a link or not a file before anything is
//! sent, and never exiting 0 when the file was not written; and a `--background` start that fails
//! makes `eval "$(...)"` fail too, so `sh -e` stops there.

use serde_json::Value;

use crate::harness::emulator::{path_arg, Emulator};
use crate::harness::http::{b64, name};
use crate::harness::leftovers::CiJob;
use crate::harness::*;

/// A hand-written fixture: two appendable data (one with an item pointing at immutable data,
/// one item signed by another key), a structured data, and immutable data without its name.
fn fixture() -> String {
    format!(
        r#"{{"format":"safe-ad-emulator-state/1",
  "appendableData":[
    {{"name":"{a}","version":1,"filterType":"BlackList",
      "data":[{{"immutableData":{{"name":"{hash}"}}}},{{"structuredData":{{"name":"{s}","typeTag":500}},"signKey":"{k}"}}]}},
    {{"name":"{b}","isPrivate":true,"version":0,"filterType":"WhiteList","filterKeys":["{k}"]}}],
  "structuredData":[{{"name":"{s}","typeTag":500,"version":0,"data":["{hi}"]}}],
  "immutableData":[{{"content":"{hi}"}}]}}
"#,
        a = name(1),
        b = name(2),
        s = name(3),
        k = name(4),
        hash = name(9),
        hi = b64(b"hi"),
    )
}

/// The network a running emulator holds, as `GET /_emulator/network` gives it.
fn network(emulator: &Emulator) -> Value {
    let answer = emulator.http("GET", "/_emulator/network", Some(TOKEN), None);
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.json()
}

#[test]
fn an_imported_fixture_is_never_written_whatever_the_run_changes() {
    let sandbox = Sandbox::new();
    let text = fixture();
    let file = sandbox.file("fixture.json", &text);
    let emulator = Emulator::start_in(&sandbox, &["--import", path_arg(&file)]);
    // The banner is written a line at a time: wait for both data's lines, not only the first.
    emulator.wait_log(&format!("  {} version 1,", name(1)));
    let said = emulator.wait_log(&format!("  {} (--private) version 0,", name(2)));
    // Every family counted, in words.
    assert!(
        said.contains(&format!(
            "safe-ad emulator: --import {}: 2 appendable data, 1 structured data, 1 immutable \
             data; no handles (`safe-ad open NAME` gets one):\n",
            path_arg(&file)
        )),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "  {} version 1, 2 items, no deleted items\n",
            name(1)
        )),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "  {} (--private) version 0, no items, no deleted items\n",
            name(2)
        )),
        "{said}"
    );
    let before = network(&emulator);
    // A script changes the network: a new appendable data saved, an item cleared and posted.
    let changed = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .arg("create")
        .arg("--put")
        .run();
    changed.success();
    let open = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["open", &name(1)])
        .run();
    open.success();
    let handle = open.stdout().trim().to_owned();
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["clear-data", "--save", "post", &handle])
        .run()
        .success();
    assert_ne!(network(&emulator), before, "the run changed the network");
    emulator.terminate().success();
    assert_eq!(
        std::fs::read_to_string(&file).expect("the fixture"),
        text,
        "the fixture was written"
    );
    // No temporary file beside it either.
    let names: Vec<String> = std::fs::read_dir(sandbox.path())
        .expect("dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("fixture"))
        .collect();
    assert_eq!(names, ["fixture.json"]);

    // Loaded read-only, a second emulator may load it at the same time (no lock is taken).
    let first = Emulator::start_in(&sandbox, &["--import", path_arg(&file), "-q"]);
    let second = Emulator::start_in(&sandbox, &["--import", path_arg(&file), "-q"]);
    assert_eq!(network(&first), network(&second));
    first.terminate().success();
    second.terminate().success();
}

#[test]
fn import_refuses_a_missing_file_and_the_options_it_cannot_go_with() {
    let sandbox = Sandbox::new();
    let file = sandbox.file("fixture.json", fixture());
    crate::harness::emulator::emulator_command(&sandbox)
        .args(["--import", "missing.json"])
        .current_dir(sandbox.path())
        .run()
        .code(2)
        .stderr_has("safe-ad emulator: error: --import missing.json: cannot read it: no such file")
        .stdout_is("");
    for other in [&["--state", "other.json"][..], &["--empty"][..]] {
        crate::harness::emulator::emulator_command(&sandbox)
            .args(["--import", path_arg(&file)])
            .args(other)
            .run()
            .code(2)
            .stderr_has("cannot be used with");
    }
}

#[test]
fn a_fixture_that_does_not_load_names_the_object_at_fault() {
    let sandbox = Sandbox::new();
    let ad = |n: u8| {
        format!(
            r#"{{"name":"{}","version":0,"filterType":"BlackList"}}"#,
            name(n)
        )
    };
    let no_filter = format!(r#"{{"name":"{}","version":0}}"#, name(3));
    let bad_item = format!(
        r#"{{"name":"{}","version":0,"filterType":"BlackList","data":[{{"structuredData":{{"name":"{}"}}}}]}}"#,
        name(4),
        name(5)
    );
    let cases = [
        (
            format!(r#"{{"format":"safe-ad-emulator-state/1","appendableData":[{},{},{}]}}"#, ad(1), ad(2), no_filter),
            "appendableData[2]: missing field `filterType`",
        ),
        (
            format!(r#"{{"format":"safe-ad-emulator-state/1","appendableData":[{bad_item}]}}"#),
            "appendableData[0].data[0].structuredData: missing field `typeTag`",
        ),
        (
            r#"{"format":"safe-ad-emulator-state/1","structuredData":[{"name":"x","typeTag":500,"version":0,"colour":1}]}"#.to_owned(),
            "structuredData[0]: unknown field `colour`",
        ),
        (
            r#"{"format":"safe-ad-emulator-state/1","immutableData":[{"cipher":"PLAIN"}]}"#.to_owned(),
            "immutableData[0]: missing field `content`",
        ),
    ];
    assert_fixtures_refused(&sandbox, &cases);
}

/// Each fixture text of `cases` is refused with its words: by `--import` and `--state` (exit 2,
/// nothing on stdout, `safe-ad emulator: error: OPTION bad.json: WORDS`), and by a reset to it
/// sent as the body (400, the words in the error's description).
fn assert_fixtures_refused(sandbox: &Sandbox, cases: &[(String, &str)]) {
    for (text, says) in cases {
        for option in ["--import", "--state"] {
            sandbox.file("bad.json", text);
            crate::harness::emulator::emulator_command(sandbox)
                .args([option, "bad.json"])
                .current_dir(sandbox.path())
                .case(option)
                .run()
                .code(2)
                .stdout_is("")
                .stderr_has(&format!(
                    "safe-ad emulator: error: {option} bad.json: {says}"
                ));
        }
    }
    let emulator = Emulator::start(&["-q"]);
    for (text, says) in cases {
        let answer = emulator.http("POST", "/_emulator/reset/state", Some(TOKEN), Some(text));
        assert_eq!(answer.status, 400, "{}", answer.body);
        let description = answer.json()["description"].as_str().map(str::to_owned);
        assert!(
            description.is_some_and(|words| words.contains(says)),
            "{}",
            answer.body
        );
    }
    emulator.terminate().success();
}

/// A fixture of one public appendable data holding `count` items of structured data.
fn fixture_of_items(count: u32) -> String {
    let items: Vec<String> = (0..count)
        .map(|n| {
            let mut pointer = [7u8; 32];
            pointer[..4].copy_from_slice(&n.to_le_bytes());
            format!(
                r#"{{"structuredData":{{"name":"{}","typeTag":500}}}}"#,
                b64(&pointer)
            )
        })
        .collect();
    format!(
        r#"{{"format":"safe-ad-emulator-state/1","appendableData":[{{"name":"{}","version":1,"filterType":"BlackList","data":[{}]}}]}}"#,
        name(1),
        items.join(",")
    )
}

/// routing 0.28.5 stored no appendable data past 102,400 bytes (its bincode, as the serialise
/// route writes it): 654 items of structured data in public data, 236 bytes and 156 a item. A
/// fixture of more is refused by `--import`, `--state` and a reset, naming the entry, its size
/// and the limit: 655 items, and the 20,000 a hostile trial loaded; and so is structured data
/// past it (the emulator holds its content inline).
#[test]
fn a_fixture_holding_data_larger_than_the_network_stored_is_refused() {
    let sandbox = Sandbox::new();
    let fits = sandbox.file("fits.json", fixture_of_items(654));
    crate::harness::emulator::emulator_command(&sandbox)
        .args(["-q", "--import", path_arg(&fits), "--", "true"])
        .run()
        .success();
    let says = |size: u32, items: u32| {
        format!(
            "appendableData[0]: it takes {size} bytes as the network stores it ({items} data \
             items, 0 deleted items, 0 filter keys), past the 102400 bytes routing 0.28.5 stored \
             of an appendable data (the network refused more with -29, DataTooLarge)"
        )
    };
    // Structured data too, its content held inline: 224 bytes besides it.
    let structured = |size: usize| {
        format!(
            r#"{{"format":"safe-ad-emulator-state/1","structuredData":[{{"name":"{}","typeTag":500,"version":0,"data":["{}"]}}]}}"#,
            name(2),
            b64(&vec![7; size])
        )
    };
    let fits = sandbox.file("fits-sd.json", structured(102_400 - 224));
    crate::harness::emulator::emulator_command(&sandbox)
        .args(["-q", "--import", path_arg(&fits), "--", "true"])
        .run()
        .success();
    let cases = [
        (fixture_of_items(655), says(236 + 655 * 156, 655)),
        (fixture_of_items(20_000), says(236 + 20_000 * 156, 20_000)),
        (
            structured(102_400 - 223),
            "structuredData[0]: it takes 102401 bytes as the network stores it (102177 bytes of \
             data in 1 version), past the 102400 bytes routing 0.28.5 stored of a structured data \
             (the network refused more with -29, DataTooLarge)"
                .to_owned(),
        ),
    ];
    let cases: Vec<(String, &str)> = cases
        .iter()
        .map(|(text, says)| (text.clone(), says.as_str()))
        .collect();
    assert_fixtures_refused(&sandbox, &cases);
}

/// At the network: an append that would take data past the network's size is refused with
/// routing's -29 (DataTooLarge, exit 4), and a fresh copy still reads 654 items, which every
/// command that reads the data takes (exit 0): none holds a copy it calls impossible.
#[test]
fn an_append_past_the_networks_size_is_refused_and_the_data_stays_readable() {
    let sandbox = Sandbox::new();
    let full = sandbox.file("full.json", fixture_of_items(654));
    let emulator = Emulator::start_in(&sandbox, &["-q", "--import", path_arg(&full)]);
    let safe_ad = |args: &[&str]| {
        sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .args(args)
            .case(args.join(" "))
            .run()
    };
    safe_ad(&["append", &name(1), "--structured", &name(9)])
        .code(4)
        .stderr_has("-29")
        .stderr_has("DataTooLarge")
        .stderr_has("hint: the network stores no appendable data past 100 KiB");
    let first = emulator.next_handle();
    safe_ad(&["metadata", &name(1), "--json"])
        .success()
        .stdout_has("\"dataLength\":654");
    safe_ad(&["show", &name(1)]).success();
    assert_eq!(emulator.handles_since(first), []);
}

/// A bad value deep in a fixture is named by its whole path, innermost last, not as its entry's
/// own field: a bad `name` of an item's structured data is not the appendable data's name, and
/// `"version": "one"` names its field. The same words for `--import`, `--state` and a reset.
#[test]
fn a_fixture_error_names_the_whole_path_to_the_value() {
    let sandbox = Sandbox::new();
    let ad = |n: u8, more: &str| {
        format!(
            r#"{{"name":"{}","version":0,"filterType":"BlackList"{more}}}"#,
            name(n)
        )
    };
    let fixture = |entries: String| {
        format!(r#"{{"format":"safe-ad-emulator-state/1","appendableData":[{entries}]}}"#)
    };
    let cases = [
        (
            fixture(format!(
                "{},\n{}",
                ad(1, ""),
                ad(
                    2,
                    r#","data":[{"structuredData":{"name":"abc","typeTag":500}}]"#
                )
            )),
            "appendableData[1].data[0].structuredData.name: `abc` is not base64 of 32 bytes",
        ),
        (
            fixture(format!(
                r#"{{"name":"{}","version":"one","filterType":"BlackList"}}"#,
                name(3)
            )),
            r#"appendableData[0].version: invalid type: string "one", expected u64"#,
        ),
        (
            fixture(ad(4, &format!(r#","deletedData":[{{"immutableData":{{"name":"{}"}},"signKey":"k"}}]"#, name(5)))),
            "appendableData[0].deletedData[0].signKey: `k` is not base64 of 32 bytes",
        ),
        (
            r#"{"format":"safe-ad-emulator-state/1","structuredData":[{"name":"x","typeTag":500,"version":0}]}"#.to_owned(),
            "structuredData[0].name: `x` is not base64 of 32 bytes",
        ),
    ];
    assert_fixtures_refused(&sandbox, &cases);
}

/// A save stores version + 1, so a data at version 2^64 - 1 could never be saved again: such a
/// fixture is refused, exit 2, naming the entry. The emulator's saves stop one short, at 2^64 - 2,
/// so that what it saves loads again: a fixture at 2^64 - 3 loads and a `post` saves 2^64 - 2;
/// the next save (`post`, a structured data's post, delete and unclaim, a PUT of a copy at
/// 2^64 - 1) is refused in words that name the limit (400, errorCode 400), never -25 "someone
/// saved this data" while `status` says in sync; and the `--state` file saved at the stop loads.
#[test]
fn a_version_no_save_can_follow_is_refused_and_one_less_is_saved() {
    let sandbox = Sandbox::new();
    let at = |ad: u64, sd: u64| {
        format!(
            r#"{{"format":"safe-ad-emulator-state/1",
  "appendableData":[{{"name":"{}","version":{ad},"filterType":"BlackList"}}],
  "structuredData":[{{"name":"{}","typeTag":500,"version":{sd},"data":["{}"]}}]}}"#,
            name(1),
            name(2),
            b64(b"hi"),
        )
    };
    let refused = sandbox.file("max.json", at(u64::MAX, 0));
    crate::harness::emulator::emulator_command(&sandbox)
        .args(["--import", path_arg(&refused), "--", "true"])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_has(&format!(
            "safe-ad emulator: error: --import {}: appendableData[0].version: \
             18446744073709551615 is past the last version a save reaches, \
             18446744073709551614 (a save stores version + 1)",
            path_arg(&refused)
        ));
    // The structured data alone at 2^64 - 1 is refused by its own path.
    let refused = sandbox.file("sd.json", at(0, u64::MAX));
    crate::harness::emulator::emulator_command(&sandbox)
        .args(["--state", path_arg(&refused), "--", "true"])
        .run()
        .code(2)
        .stderr_has(&format!(
            "--state {}: structuredData[0].version: 18446744073709551615 is past the last \
             version a save reaches",
            path_arg(&refused)
        ));

    let state = sandbox.file("state.json", at(u64::MAX - 2, u64::MAX - 1));
    let emulator = Emulator::start_in(&sandbox, &["-q", "--state", path_arg(&state)]);
    let safe_ad = |args: &[&str]| {
        sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .args(args)
            .case(args.join(" "))
            .run()
    };
    let handle = safe_ad(&["open", &name(1)])
        .success()
        .stdout()
        .trim()
        .to_owned();
    safe_ad(&["post", &handle])
        .success()
        .stdout_has("saved version 18446744073709551614");
    let limit = "errorCode 400, Version limit: this save would pass 18446744073709551614, the \
                 last version a save reaches in safe-ad emulator";
    safe_ad(&["post", &handle])
        .code(4)
        .stderr_has(limit)
        .stderr_lacks("-25")
        .stderr_lacks("someone saved");
    safe_ad(&["status", &handle])
        .success()
        .stdout_has("in sync");
    // Every structured-data save past it, the same words.
    let said = |answer: crate::harness::http::Resp| {
        answer.error_is(
            400,
            400,
            "Version limit: this save would pass 18446744073709551614, the last version a save \
             reaches in safe-ad emulator (a --state file holds no later one); nothing was saved",
        )
    };
    let sd_id = emulator
        .http(
            "POST",
            "/data-id/structured-data",
            Some(TOKEN),
            Some(&format!(r#"{{"name":"{}","typeTag":500}}"#, name(2))),
        )
        .handle();
    let fetched = emulator.http(
        "GET",
        &format!("/structured-data/handle/{sd_id}"),
        Some(TOKEN),
        None,
    );
    assert_eq!(fetched.json()["version"], u64::MAX - 1, "{}", fetched.body);
    let sd = fetched.json()["handleId"].as_u64().expect("a handle");
    for (method, path) in [
        ("POST", format!("/structured-data/{sd}")),
        ("DELETE", format!("/structured-data/{sd}")),
        ("DELETE", format!("/structured-data/unclaim/{sd}")),
    ] {
        said(emulator.http(method, &path, Some(TOKEN), None));
    }
    let late = emulator
        .http(
            "POST",
            "/structured-data",
            Some(TOKEN),
            Some(&format!(
                r#"{{"name":"{}","typeTag":500,"version":"18446744073709551615"}}"#,
                name(3)
            )),
        )
        .handle();
    said(emulator.http(
        "PUT",
        &format!("/structured-data/{late}"),
        Some(TOKEN),
        None,
    ));
    emulator.terminate().success();

    // What was saved loads again, at the last version.
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&state).expect("the state")).expect("JSON");
    assert_eq!(saved["appendableData"][0]["version"], u64::MAX - 1);
    assert_eq!(saved["structuredData"][0]["version"], u64::MAX - 1);
    assert_eq!(saved["structuredData"].as_array().map(Vec::len), Some(1));
    let again = Emulator::start_in(&sandbox, &["-q", "--state", path_arg(&state)]);
    again.terminate().success();
}

#[test]
fn export_writes_a_fixture_that_loads_back_to_the_same_network() {
    let sandbox = Sandbox::new();
    // The demo data holds every family: appendable, structured and immutable data (the inbox).
    let emulator = Emulator::start_in(&sandbox, &["-q"]);
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["create", "--put"])
        .run()
        .success();
    let held = network(&emulator);
    assert!(
        held["immutableData"]
            .as_array()
            .is_some_and(|l| !l.is_empty()),
        "{held}"
    );
    let exported = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["emulator", "export", "fixture.json"])
        .current_dir(sandbox.path())
        .run();
    exported
        .success()
        .stdout_is("")
        .stderr_has("emulator export: wrote the network to fixture.json (");
    let file = sandbox.path().join("fixture.json");
    let text = std::fs::read_to_string(&file).expect("the fixture");
    // The same fixture on stdout, with `-` and with no FILE.
    for args in [&["-"][..], &[][..]] {
        sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .args(["emulator", "export"])
            .args(args)
            .run()
            .success()
            .stdout_is(&text);
    }
    // Immutable data without the names the emulator computes; items keep theirs.
    let fixture: Value = serde_json::from_str(&text).expect("JSON");
    for data in fixture["immutableData"].as_array().expect("immutable data") {
        assert!(data.get("name").is_none(), "{data}");
    }
    assert!(text.contains("\"immutableData\": {"), "{text}");
    emulator.terminate().success();

    // Loaded back, by --import and by --state, it is the same network.
    let imported = Emulator::start_in(&sandbox, &["-q", "--import", path_arg(&file)]);
    assert_eq!(network(&imported), held);
    imported.terminate().success();
    let stated = Emulator::start_in(&sandbox, &["-q", "--state", path_arg(&file)]);
    assert_eq!(network(&stated), held);
    stated.terminate().success();
}

#[test]
fn export_refuses_a_link_or_a_non_file_before_sending_and_never_exits_0_unwritten() {
    let sandbox = Sandbox::new();
    let target = sandbox.file("real.json", "kept\n");
    std::os::unix::fs::symlink(&target, sandbox.path().join("link.json")).expect("symlink");
    std::fs::create_dir(sandbox.path().join("dir.json")).expect("dir");
    // No emulator at the URL: a refusal before anything is sent is exit 2, not 6.
    let nowhere = "http://127.0.0.1:9";
    for (file, says) in [
        ("link.json", "link.json: it is a symbolic link"),
        ("dir.json", "dir.json: it is not a regular file"),
    ] {
        sandbox
            .safe_ad()
            .launcher(nowhere)
            .args(["emulator", "export", file])
            .current_dir(sandbox.path())
            .run()
            .code(2)
            .stderr_has(&format!("safe-ad: error: emulator export: {says}"));
    }
    assert_eq!(std::fs::read_to_string(&target).expect("target"), "kept\n");
    assert!(std::fs::symlink_metadata(sandbox.path().join("link.json"))
        .expect("link")
        .file_type()
        .is_symlink());
    // A FILE in a directory that does not exist: refused before anything is sent (exit 2).
    // (`unwritable_output` has the other places no file can be made, and a write that fails:
    // exit 1, nothing left beside it.)
    let emulator = Emulator::start_in(&sandbox, &["-q"]);
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["emulator", "export", "missing/fixture.json"])
        .current_dir(sandbox.path())
        .run()
        .code(2)
        .stderr_has("emulator export: missing/fixture.json: its directory missing does not exist");
    emulator.terminate().success();
}

#[test]
fn a_background_start_that_fails_fails_the_eval_of_its_output_under_sh_e() {
    let job = CiJob::new();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port to hold");
    let port = taken.local_addr().expect("addr").to_string();
    for shell in ["sh", "bash"] {
        if !have(shell) {
            continue;
        }
        let output = job
            .shell(
                shell,
                &format!(
                    "set -e\neval \"$(safe-ad emulator --background --listen {port})\"\necho \
                     after the start\n"
                ),
            )
            .case(shell)
            .run();
        output
            .code(1)
            .stdout_is("")
            .stderr_has(&format!(
                "safe-ad emulator: error: cannot listen on {port}: Address already in use"
            ))
            .stderr_lacks("no token");
        // And so does a start clap refuses.
        job.shell(
            shell,
            "set -e\neval \"$(safe-ad emulator --background --ready-timeout 0)\"\necho after\n",
        )
        .case(shell)
        .run()
        .code(1)
        .stdout_is("")
        .stderr_has("--ready-timeout");
    }
    // What it prints for that: one line, after which an env file is left alone.
    job.safe_ad()
        .args(["emulator", "--background", "--listen", &port])
        .run()
        .code(1)
        .stdout_is(safe_ad_emulator::test_support::EVAL_FAILS);
    job.safe_ad()
        .args([
            "emulator",
            "--background",
            "--format",
            "env",
            "--listen",
            &port,
        ])
        .run()
        .code(1)
        .stdout_is("");
    // A file gets nothing: the line that wrote it failed on its exit code, and sourcing it later
    // (GitLab's after_script) must not stop the step that stops the emulator.
    job.shell(
        "sh",
        &format!("safe-ad emulator --background --listen {port} > vars"),
    )
    .run()
    .code(1);
    assert_eq!(
        std::fs::read_to_string(job.sandbox.path().join("vars")).expect("vars"),
        ""
    );
    job.leftovers.assert_none();
    assert!(job.temporary_files().is_empty());
}
