//! Which data `show` names (public or private, with you as its owner) from one request that takes
//! no handle, and `show --serialised`: bytes that decode to the same name and version.

use super::*;

/// `create --put` (with `--private` when `private`): the new handle, and the name it says on
/// stderr.
fn created(sandbox: &Sandbox, url: &str, private: bool) -> (String, String) {
    let mut args = vec!["create", "--put"];
    if private {
        args.push("--private");
    }
    let output = run(sandbox, url, &args);
    let handle = output.success().stdout().trim().to_owned();
    let name = output
        .stderr()
        .split_once(", name ")
        .and_then(|(_, rest)| rest.split_once(','))
        .map(|(name, _)| name.to_owned())
        .expect("create says the name on stderr");
    (handle, name)
}

#[test]
fn show_names_the_data_create_made_public_or_private_with_you_as_its_owner() {
    let sandbox = Sandbox::new();
    let (emulator, _) = emulator(&sandbox, &[]);
    for (private, word) in [(false, "public"), (true, "private")] {
        let (handle, name) = created(&sandbox, &emulator.url, private);
        let output = run(&sandbox, &emulator.url, &["show", &handle]);
        let stdout = output.success().stdout();
        let second = stdout.lines().nth(1).unwrap_or_default();
        output.check(
            second == format!("  name {name}, {word}, owner you"),
            format!("the line under the header names the data: name {name}, {word}, owner you"),
        );
        let object = shown(&sandbox, &emulator.url, &["show", "--json", &handle]);
        assert_eq!(object["name"], name, "{object}");
        assert_eq!(object["private"], private, "{object}");
        let you = run(&sandbox, &emulator.url, &["auth", "whoami"]);
        let you = you.success().stdout().trim().to_owned();
        assert_eq!(object["owners"], json!([you]), "{object}");
    }
}

#[test]
fn show_reads_the_name_with_one_request_that_takes_no_handle() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.requests().len();
    let held = emulator.live_handles(&log);
    run(&sandbox, &emulator.url, &["show", "1", "5"]).success();
    let sent = emulator.requests();
    let serialised: Vec<&String> = sent[before..]
        .iter()
        .filter(|line| line.starts_with("GET /appendable-data/serialise/"))
        .collect();
    assert_eq!(
        serialised,
        [
            "GET /appendable-data/serialise/1 200",
            "GET /appendable-data/serialise/5 200"
        ]
    );
    assert_eq!(emulator.live_handles(&log), held, "handles left behind");
}

#[test]
fn show_serialised_prints_bytes_that_decode_to_the_same_name_and_version() {
    let sandbox = Sandbox::new();
    let (emulator, _) = emulator(&sandbox, &[]);
    let (handle, name) = created(&sandbox, &emulator.url, false);
    let before = emulator.requests().len();
    // -q hides no result: the bytes are what was asked for.
    let output = run(
        &sandbox,
        &emulator.url,
        &["-q", "show", "--serialised", &handle],
    );
    let line = output.success().stderr_is("").stdout().to_owned();
    output.check(
        line.lines().count() == 1,
        "one line of base64 for one handle",
    );
    // Only the bytes are read of the handle (and your own key, as for every `show`).
    let sent: Vec<String> = emulator.requests()[before..]
        .iter()
        .filter(|line| !line.contains("/sign-key"))
        .cloned()
        .collect();
    assert_eq!(
        sent,
        [format!("GET /appendable-data/serialise/{handle} 200")]
    );
    let decoded = sandbox
        .safe_ad()
        .args(["--json", "decode"])
        .stdin(line.clone())
        .run();
    let object = &decoded.success().json_lines()[0];
    assert_eq!(object["name"], name, "{object}");
    assert_eq!(object["version"], 0, "{object}");
    assert_eq!(object["kind"], "appendable-data", "{object}");
    // The same bytes as the launcher's own route gives.
    let raw = emulator.http(
        "GET",
        &format!("/appendable-data/serialise/{handle}"),
        Some(TOKEN),
        None,
    );
    assert_eq!(line.trim_end(), b64(&raw.bytes));
    // With --json: one object per handle, a failure too.
    let output = run(
        &sandbox,
        &emulator.url,
        &["show", "--json", "--serialised", &handle, "99"],
    );
    let lines = output.code(4).json_lines();
    assert_eq!(lines.len(), 2, "one object per handle");
    assert_eq!(lines[0]["handle"], handle.parse::<u64>().expect("a handle"));
    assert_eq!(lines[0]["ok"], true);
    assert_eq!(lines[0]["serialised"], b64(&raw.bytes));
    assert_eq!(lines[1]["handle"], 99);
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(lines[1]["error"]["error_code"], -1515);
}

#[test]
fn show_serialised_takes_no_item_option_and_sends_nothing_then() {
    let sandbox = Sandbox::new();
    let (emulator, _) = emulator(&sandbox, &[]);
    for extra in [
        &["--full"][..],
        &["--index", "0"],
        &["--signed-by", "you"],
        &["--kind", "structured-data"],
        &["--name", "ZGVtbyBpdGVtIGQuLi4uLi4uLi4uLi4uLi4uLi4uLi4="],
    ] {
        let mut args = vec!["show", "--serialised"];
        args.extend_from_slice(extra);
        args.push("1");
        run(&sandbox, &emulator.url, &args)
            .code(2)
            .stdout_is("")
            .stderr_has("the argument '--serialised' cannot be used with");
    }
    run(
        &sandbox,
        &emulator.url,
        &["show", "--serialised", "--dry-run", "1"],
    )
    .code(2)
    .stderr_has("`safe-ad show` does not take --dry-run");
    assert!(
        emulator.requests().is_empty(),
        "a refused show sent a request"
    );
}
