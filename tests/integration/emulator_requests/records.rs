//! What the emulator writes for a job to read: the `--state` summary at start, the keys of the
//! `--log` records and the journal spelt as JSON spells them, seq for seq, and a token split,
//! escaped or encoded in a path never reaching the logs or the journal.

use super::*;

#[test]
fn a_state_file_is_summed_up_at_start_one_line_per_appendable_data() {
    let sandbox = Sandbox::new();
    let ads: Vec<String> = (0..22u8)
        .map(|n| {
            format!(
                r#"{{"name":"{}","version":{n},"filterType":"BlackList","data":[{{"structuredData":{{"name":"{}","typeTag":500}}}}]}}"#,
                name(n),
                name(200)
            )
        })
        .collect();
    let state = sandbox.file(
        "state.json",
        format!(
            r#"{{"format":"safe-ad-emulator-state/1","appendableData":[{}]}}"#,
            ads.join(",")
        ),
    );
    let emulator = Emulator::start_in(&sandbox, &["--state", path_arg(&state)]);
    let said = emulator.wait_log("more appendable data");
    assert!(
        said.contains(
            "22 appendable data, no structured data, no immutable data; no handles \
             (`safe-ad open NAME`"
        ),
        "{said}"
    );
    // Counted in words: `1 item`, `no deleted items`.
    assert!(said.contains(&format!(
        "safe-ad emulator:   {} version 0, 1 item, no deleted items\n",
        name(0)
    )));
    assert!(said.contains(&format!("  {} version 19, 1 item,", name(19))));
    assert!(!said.contains(&name(20)), "{said}");
    assert!(said.contains("  ... and 2 more appendable data"));
    emulator.terminate().success();
    // -q silences it.
    let quiet = Emulator::start_in(&sandbox, &["--state", path_arg(&state), "-q"]);
    let output = quiet.terminate();
    output.success().stderr_lacks("appendable data");
}

#[test]
fn a_token_split_escaped_or_encoded_in_a_path_never_reaches_the_logs_or_the_journal() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--log", path_arg(&log)]);
    let (head, tail) = TOKEN.split_at(12);
    let escaped = format!("%5Cu{:04x}{}", TOKEN.as_bytes()[0], &TOKEN[1..]);
    // Base64 of the token, alone (URL-safe) and after one other byte (standard).
    use base64::Engine as _;
    let url_safe = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(TOKEN);
    let shifted = base64::engine::general_purpose::STANDARD.encode(format!("x{TOKEN}"));
    let paths = [
        format!("/x/{head}/{tail}"),
        format!("/x/{head}/{}/{}", &tail[..5], &tail[5..]),
        format!("/x/{escaped}"),
        format!("/x/{}%2F{}", head, tail),
        format!("/x/{TOKEN}"),
        format!("/x/{url_safe}"),
        format!("/x/{shifted}"),
    ];
    for path in &paths {
        assert_eq!(
            send(emulator.addr(), "GET", path, &[], None).status,
            404,
            "{path}"
        );
    }
    // The journal, read as a client (its output is checked for the token by the harness).
    let journal = requests(&emulator, &["--path", "/x/**"]);
    journal.success();
    let records = journal.json_lines();
    assert_eq!(records.len(), paths.len(), "{}", journal.stdout());
    assert!(
        records
            .iter()
            .all(|r| r["path"].as_str().is_some_and(|p| p.contains("<token>"))),
        "{}",
        journal.stdout()
    );
    let output = emulator.terminate();
    output.success();
    assert_no_token(output.stderr());
    let text = std::fs::read_to_string(&log).expect("log");
    assert_no_token(&text);
    assert!(text.contains("\"path\":\"/x/<token>\""), "{text}");
    for encoded in [url_safe.as_str(), &shifted[4..40]] {
        assert!(!text.contains(encoded), "{encoded} in {text}");
        assert!(!journal.stdout().contains(encoded), "{encoded}");
    }
}

#[test]
fn the_log_and_the_journal_spell_their_keys_as_json_does() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--log", path_arg(&log), "--quiet"]);
    sent(&emulator);
    let read = requests(&emulator, &[]);
    let journal = read.success().json_lines();
    emulator.terminate().success();
    let text = std::fs::read_to_string(&log).expect("log");
    let logged: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).expect("a record"))
        .collect();
    fn keys(value: &Value, out: &mut Vec<String>) {
        if let Value::Object(map) = value {
            for (key, inner) in map {
                out.push(key.clone());
                keys(inner, out);
            }
        }
    }
    let mut all = Vec::new();
    for record in logged.iter().chain(&journal) {
        keys(record, &mut all);
    }
    let camel: Vec<&String> = all
        .iter()
        .filter(|key| key.chars().any(|c| c.is_ascii_uppercase()))
        .collect();
    assert!(camel.is_empty(), "camelCase keys: {camel:?}");
    for key in [
        "error_code",
        "elapsed_ms",
        "seq",
        "appendable_data",
        "answered_2xx",
    ] {
        assert!(all.iter().any(|k| k == key), "no {key} in {all:?}");
    }
    // The journal's records are the log's, seq for seq.
    let requests_logged: Vec<&Value> = logged
        .iter()
        .filter(|r| r["event"] == "request" && r.get("seq").is_some())
        .collect();
    assert_eq!(requests_logged.len(), journal.len());
    for (logged, kept) in requests_logged.iter().zip(&journal) {
        assert_eq!(logged["seq"], kept["seq"]);
        assert_eq!(logged["path"], kept["path"]);
    }
}
