//! `safe-ad emulator requests`, the journal read as a client: every filter, `--count`, a table
//! on a terminal and JSON, `--expect`, `--since` between two steps of a job, `--clear`, a
//! journal that dropped records, options refused before anything is sent, no emulator and a
//! wrong token; a glob over a long planted path that would backtrack, and one Ctrl-C that ends a
//! long match over a large journal.

use super::*;

/// The `seq` of each record a run printed.
fn seqs(output: &Output) -> Vec<u64> {
    output
        .success()
        .json_lines()
        .iter()
        .map(|r| r["seq"].as_u64().expect("a seq"))
        .collect()
}

#[test]
fn every_filter_selects_the_records_it_names() {
    let emulator = Emulator::start(&["--quiet"]);
    sent(&emulator);
    let all = requests(&emulator, &[]);
    all.success();
    assert_eq!(seqs(&all), [1, 2, 3, 4, 5, 6]);
    let first = &all.json_lines()[0];
    assert_eq!(first["event"], "request");
    assert_eq!(first["method"], "PUT");
    assert_eq!(first["path"], "/appendable-data/0");
    assert!(first["elapsed_ms"].as_f64().is_some(), "{first}");
    assert!(first["handles"]["appendable_data"].as_u64().is_some());
    // What each route does to data: a save changes it, metadata reads it, a path no route
    // matches says nothing.
    let effects: Vec<Value> = all
        .json_lines()
        .iter()
        .map(|r| r["effect"].clone())
        .collect();
    let [change, read] = ["change", "read"].map(Value::from);
    assert_eq!(
        effects,
        [
            change.clone(),
            change.clone(),
            read,
            change.clone(),
            change,
            Value::Null
        ]
    );

    for (args, expected) in [
        (&["--method", "put"][..], &[1, 2][..]),
        (&["--method", "DELETE"], &[4]),
        (&["--path", "/appendable-data/*"], &[1, 2, 5]),
        (&["--path", "/appendable-data/**"], &[1, 2, 3, 4, 5]),
        (&["--path", "/appendable-data/*/1"], &[3, 4]),
        (&["--path", "/nowhere/*"], &[6]),
        (&["--path", "/nowhere"], &[]),
        (&["--status", "200"], &[1, 3, 4, 5]),
        (&["--status", "4xx"], &[2, 6]),
        (&["--status", "404"], &[6]),
        (&["--error-code", "-23"], &[2]),
        (&["--error-code", "404"], &[6]),
        // A change refused and a path no route matches: both failed.
        (&["--failed"], &[2, 6]),
        (&["--failed", "--method", "GET"], &[6]),
        (&["--since", "4"], &[5, 6]),
        (&["--since", ""], &[1, 2, 3, 4, 5, 6]),
        (&["--method", "PUT", "--status", "2xx"], &[1]),
        (&["--method", "PUT", "--since", "1"], &[2]),
    ] {
        let output = requests(&emulator, args);
        output.success();
        assert_eq!(seqs(&output), expected, "{args:?}");
    }
    // --since takes a record's own line, as printed.
    let third = all
        .stdout()
        .lines()
        .nth(2)
        .expect("a third line")
        .to_owned();
    let output = requests(&emulator, &["--since", &third]);
    assert_eq!(seqs(&output), [4, 5, 6]);
    // --count prints the number alone.
    requests(&emulator, &["--status", "4xx", "--count"])
        .success()
        .stdout_is("2\n");
    requests(&emulator, &["--path", "/nope/**", "--count"])
        .success()
        .stdout_is("0\n");
    // The emulator's own routes are at its root, also with a launcher URL's prefix.
    SafeAd::new()
        .launcher(&format!("{}/0.6", emulator.url))
        .args(["emulator", "requests", "--count"])
        .run()
        .success()
        .stdout_is("6\n");
    // Reading the journal is not in it.
    assert_eq!(seqs(&requests(&emulator, &[])), [1, 2, 3, 4, 5, 6]);
}

#[test]
fn on_a_terminal_the_records_are_a_table_and_json_keeps_json() {
    if !have("script") {
        return;
    }
    let emulator = Emulator::start(&["--quiet"]);
    sent(&emulator);
    let sandbox = Sandbox::new();
    let on_terminal = |command: &str| {
        sandbox
            .shell("sh", &format!("exec script -qec '{command}' /dev/null"))
            .launcher(&emulator.url)
            .run()
    };
    let table = on_terminal("safe-ad emulator requests --status 4xx");
    table.success();
    let text = table.stdout().replace('\r', "");
    assert!(
        text.contains("   SEQ  METHOD  STATUS  ERROR        MS  PATH\n"),
        "{text}"
    );
    assert!(text.contains("     2  PUT        400    -23 "), "{text}");
    assert!(text.contains("  /nowhere/deeper\n"), "{text}");
    assert!(!text.contains('{'), "{text}");
    let json = on_terminal("safe-ad emulator requests --status 4xx --json");
    json.success();
    let text = json.stdout().replace('\r', "");
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("{\"event\":\"request\""))
            .count(),
        2,
        "{text}"
    );
}

#[test]
fn bad_options_are_refused_before_anything_is_sent() {
    let emulator = Emulator::start(&[]);
    for (args, said) in [
        (&["--status", "4x"][..], "--status 4x: expected a status"),
        (&["--status", "600"], "--status 600"),
        (&["--expect", "many"], "--expect many: expected a count"),
        (&["--expect", "=>1"], "--expect =>1"),
        (
            &["--since", "yesterday"],
            "--since yesterday: expected a record's seq",
        ),
        (&["--path", "appendable-data/*"], "a path starts with `/`"),
        (&["--method", "P U T"], "--method P U T"),
    ] {
        requests(&emulator, args).code(2).stderr_has(said);
    }
    requests(&emulator, &["--count", "--expect", "1"]).code(2);
    assert_eq!(seqs(&requests(&emulator, &[])), Vec::<u64>::new());
    let (totals, _) = emulator.stop();
    // The one read above, and nothing from the refused runs.
    assert_eq!(totals.requests, 1);
}

#[test]
fn expect_exits_1_when_not_met_and_lists_what_matched_on_stderr() {
    let emulator = Emulator::start(&["--quiet"]);
    sent(&emulator);
    requests(&emulator, &["--method", "PUT", "--expect", "2"])
        .success()
        .stdout_is("")
        .stderr_has("2 requests matched, as --expect 2 wants");
    requests(&emulator, &["--method", "POST", "--expect", "0"]).code(1);
    requests(&emulator, &["--status", "5xx", "--expect", "0"]).success();
    requests(&emulator, &["--expect", ">=1"]).success();
    requests(&emulator, &["--expect", "<6"]).code(1);
    let unmet = requests(&emulator, &["--method", "PUT", "--expect", "1"]);
    unmet
        .code(1)
        .stdout_is("")
        .stderr_has(
            "safe-ad: error: emulator requests --expect 1: 2 requests matched (--method PUT)",
        )
        .stderr_has("     1  PUT        200")
        .stderr_has("     2  PUT        400    -23");
    requests(
        &emulator,
        &["--method", "GET", "--path", "/x", "--expect", ">=1"],
    )
    .code(1)
    .stderr_has("no request matched")
    .stderr_has("no requests matched (--method GET --path /x)");

    // At most 20 listed, then how many more.
    for n in 0..25 {
        send(emulator.addr(), "GET", &format!("/many/{n}"), &[], None);
    }
    let many = requests(&emulator, &["--path", "/many/*", "--expect", "0"]);
    many.code(1).stderr_has("   ... and 5 more\n");
    let listed = many
        .stderr()
        .lines()
        .filter(|line| line.contains("  /many/"))
        .count();
    assert_eq!(listed, 20, "{}", many.stderr());
}

/// Issue 43: `show` and `status` read the data each item points at, and an item may point at
/// data no one saved: that read's 404 NoSuchData is the network's answer (the commands say "not
/// on the network" and exit 0). Its record says so, and `--failed` leaves it out while it keeps
/// every refusal, of a change and of a read.
#[test]
fn failed_leaves_out_reads_that_found_no_data_and_keeps_every_refusal() {
    let emulator = Emulator::start(&["--quiet"]);
    let client = |args: &[&str]| SafeAd::new().launcher(&emulator.url).args(args).run();
    // Handle 1's data gets an item pointing at structured data that is not on the network.
    client(&["append", "1", "--structured", &name(0x5a)]).success();
    let reopened = client(&["reopen", "1"]);
    let handle = reopened.success().stdout().trim().to_owned();
    client(&["show", &handle])
        .success()
        .stdout_has(", not on the network");
    client(&["status", &handle]).success();
    let answered_404 = requests(&emulator, &["--status", "4xx"]);
    let records = answered_404.success().json_lines();
    assert!(records.len() >= 2, "show's read and status's: {records:?}");
    for record in &records {
        let path = record["path"].as_str().expect("a path");
        assert!(path.starts_with("/structured-data/handle/"), "{record}");
        assert_eq!(record["effect"], "read", "{record}");
        assert_eq!(record["status"], 404, "{record}");
        assert_eq!(record["error_code"], -18, "{record}");
        assert_eq!(record["not_on_network"], true, "{record}");
    }
    requests(&emulator, &["--failed", "--count"])
        .success()
        .stdout_is("0\n");
    requests(&emulator, &["--failed", "--expect", "0"]).success();

    // A change refused (a post of the stale copy) and a read refused (a handle the launcher
    // does not hold) are failures; so is a request to a path no route matches.
    let mark = requests(&emulator, &[])
        .success()
        .stdout()
        .lines()
        .last()
        .map(str::to_owned);
    client(&["post", "2"]).code(4);
    client(&["metadata", "99"]).code(4);
    assert_eq!(
        send(emulator.addr(), "GET", "/nowhere", &[], None).status,
        404
    );
    let failed = requests(&emulator, &["--failed"]);
    let failed = failed.success().json_lines();
    let said: Vec<String> = failed
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {}",
                r["effect"], r["method"], r["path"], r["error_code"]
            )
        })
        .collect();
    assert_eq!(
        said,
        [
            "\"change\" \"POST\" \"/appendable-data/2\" -25",
            "\"read\" \"GET\" \"/appendable-data/metadata/99\" -1515",
            "null \"GET\" \"/nowhere\" 404",
        ]
    );
    assert!(failed.iter().all(|r| r.get("not_on_network").is_none()));
    requests(&emulator, &["--failed", "--expect", "0"])
        .code(1)
        .stderr_has("emulator requests --expect 0: 3 requests matched (--failed)");
    let since = mark.expect("a record before the refusals");
    requests(&emulator, &["--failed", "--since", &since, "--count"])
        .success()
        .stdout_is("3\n");

    // What `--failed` cannot see: a command that failed only because the data it names is not
    // on the network sends the read `show` sends, and gets the same answer (docs/ci.md says so:
    // its exit code fails the step).
    client(&["open", &name(0x7a)]).code(4);
    let last = requests(
        &emulator,
        &["--status", "404", "--path", "/appendable-data/handle/*"],
    );
    let last = last.success().json_lines();
    assert_eq!(last.len(), 1, "{last:?}");
    assert_eq!(last[0]["not_on_network"], true);
    requests(&emulator, &["--failed", "--count"])
        .success()
        .stdout_is("3\n");
}

#[test]
fn since_says_what_one_step_sent_between_two_steps() {
    // Three CI steps, each a new shell: the mark before, the step, the check after.
    let job = CiJob::new();
    let started = job
        .safe_ad()
        .args([
            "emulator",
            "--background",
            "--listen",
            "127.0.0.1:0",
            "--quiet",
        ])
        .run();
    started.success();
    let vars = variables(started.stdout());
    let step = |script: &str| {
        let mut shell = job.shell("sh", script);
        for (name, value) in &vars {
            shell = shell.env(name, value);
        }
        shell.run()
    };
    step("safe-ad put 0 && safe-ad metadata 1 >/dev/null").success();
    step("safe-ad emulator requests | tail -n 1 > mark").success();
    // The clear, the post and the read of the version the post saved.
    step("safe-ad clear-data 1 && safe-ad post 1").success();
    let after = step(
        "safe-ad emulator requests --since \"$(cat mark)\" --method POST --expect 1 && \
         safe-ad emulator requests --since \"$(cat mark)\" --count",
    );
    after.success().stdout_is("3\n");
    let mut stop = job.safe_ad();
    for (name, value) in &vars {
        stop = stop.env(name, value);
    }
    stop.args(["emulator", "--stop"]).run().success();
    assert!(job.temporary_files().is_empty());
    job.leftovers.assert_none();
}

#[test]
fn clear_empties_the_journal_after_printing_and_only_what_was_read() {
    let emulator = Emulator::start(&["--quiet"]);
    sent(&emulator);
    let printed = requests(&emulator, &["--status", "4xx", "--clear"]);
    printed
        .success()
        .stderr_has("cleared 6 requests from the journal");
    assert_eq!(seqs(&printed), [2, 6]);
    requests(&emulator, &["--count"]).success().stdout_is("0\n");
    // Numbers go on; a clear alone clears everything and prints nothing.
    send(emulator.addr(), "GET", "/after", &[], None);
    assert_eq!(seqs(&requests(&emulator, &[])), [7]);
    requests(&emulator, &["--clear"])
        .success()
        .stdout_is("")
        .stderr_has("cleared 1 request from the journal");
    requests(&emulator, &["--count"]).success().stdout_is("0\n");
    // A clear through a seq keeps what came after it (the route `--clear` uses).
    for n in 0..3 {
        send(emulator.addr(), "GET", &format!("/k/{n}"), &[], None);
    }
    let bearer = format!("Bearer {}", emulator.token);
    let cleared = send(
        emulator.addr(),
        "DELETE",
        "/_emulator/requests?through=9",
        &[("Authorization", &bearer)],
        None,
    );
    assert_eq!(cleared.json()["cleared"], 2);
    assert_eq!(seqs(&requests(&emulator, &[])), [10]);
}

#[test]
fn a_journal_that_dropped_records_says_so_and_expect_fails_rather_than_undercount() {
    let emulator = Emulator::start(&["--quiet"]);
    // The journal keeps 16 MiB: 300 requests with 60 KiB paths are more.
    let long = format!("/long/{}", "x".repeat(60 * 1024));
    for _ in 0..300 {
        assert_eq!(send(emulator.addr(), "GET", &long, &[], None).status, 404);
    }
    let counted = requests(&emulator, &["--count"]);
    counted
        .success()
        .stderr_has("the emulator's journal dropped its ")
        .stderr_has(" requests (it keeps the last 16 MiB of them)");
    let kept: u64 = counted.stdout().trim().parse().expect("a count");
    assert!(kept < 300 && kept > 200, "{kept}");
    requests(&emulator, &["--path", "/long/*", "--expect", ">=1"])
        .code(1)
        .stderr_has("cannot count: the journal dropped its ")
        .stderr_has(&format!("and {kept} matched among those it kept"));
    // After what it kept starts, nothing was dropped: a count from there holds.
    let first = seqs(&requests(&emulator, &[]))[0];
    send(emulator.addr(), "GET", "/short", &[], None);
    requests(
        &emulator,
        &[
            "--since",
            &(first - 1).to_string(),
            "--path",
            "/short",
            "--expect",
            "1",
        ],
    )
    .success();
    // Nothing comes after the largest seq, so nothing after it was dropped: no wrap-around.
    requests(
        &emulator,
        &["--since", &u64::MAX.to_string(), "--expect", "0"],
    )
    .success();
    // A clear takes the count of dropped records with it.
    requests(&emulator, &["--clear"]).success();
    requests(&emulator, &["--expect", "0"])
        .success()
        .stderr_lacks("dropped");
}

/// No emulator, a wrong token, a launcher's token and no token, for both clients of the
/// emulator's own routes: each hint names what that command reads (the journal, or what the
/// emulator holds for `export`), and none sends the person to `auth login` for a token.
#[test]
fn a_wrong_token_or_no_emulator_is_said_naming_what_each_command_reads() {
    let emulator = Emulator::start(&["--quiet"]);
    let url = emulator.url.clone();
    // A token from POST /auth opens the launcher's routes, not the emulator's own: to it they
    // are unknown routes, as on a real launcher.
    let other = emulator.token_with(r#"["LOW_LEVEL_API"]"#);
    for (command, reads, route, not_read) in [
        (
            "requests",
            "`safe-ad emulator requests` reads the emulator's journal (GET /_emulator/requests)",
            "/_emulator/requests",
            "what the emulator holds",
        ),
        (
            "export",
            "`safe-ad emulator export` reads what the emulator holds (GET /_emulator/network)",
            "/_emulator/network",
            "journal",
        ),
    ] {
        let client = |token: Option<&str>| {
            let mut safe_ad = SafeAd::new()
                .env("SAFE_LAUNCHER_URL", &url)
                .case(format!("emulator {command}, token {token:?}"))
                .args(["emulator", command]);
            if let Some(token) = token {
                safe_ad = safe_ad.env("SAFE_LAUNCHER_TOKEN", token);
            }
            safe_ad.run()
        };
        client(Some("not-the-emulators-token"))
            .code(3)
            .stdout_is("")
            .stderr_has("401")
            .stderr_has(&format!(
                "{reads}, which opens only with the token the emulator printed at start"
            ))
            .stderr_lacks(not_read);
        client(Some(&other))
            .code(4)
            .stdout_is("")
            .stderr_has(&format!(
                "answered 404 for {route}: it is not a safe-ad emulator, or the token is not the \
                 one it printed"
            ))
            .stderr_has(&format!("{reads}, with the SAFE_LAUNCHER_TOKEN that"))
            .stderr_lacks(not_read);
        client(None)
            .code(3)
            .stdout_is("")
            .stderr_has("no token")
            // `auth login` gives a token these routes do not take: the hint names the one they do.
            .stderr_has(&format!(
                "{reads}, which opens only with the token the emulator printed at start"
            ))
            .stderr_lacks("auth login")
            .stderr_lacks(not_read);
    }
    emulator.terminate().success();
    SafeAd::new()
        .launcher(&url)
        .args(["emulator", "requests", "--expect", "0"])
        .run()
        .code(6)
        .stdout_is("")
        .stderr_has(&format!("could not connect to {url}: connection refused"))
        .stderr_has("no emulator answers at ")
        .stderr_has("safe-ad emulator --background");
}

#[test]
fn a_glob_over_a_long_planted_path_answers_without_backtracking() {
    let emulator = Emulator::start(&["--quiet"]);
    // Any local process can plant such a path: a 404 is journaled too.
    let planted = format!("/{}", "a".repeat(900));
    assert_eq!(
        send(emulator.addr(), "GET", &planted, &[], None).status,
        404
    );
    // A backtracking matcher tries about 900^7 ways here before it says no: far past the
    // harness's deadline. One pass says it at once.
    requests(&emulator, &["--path", "/**a**a**a**a**a**a**ab", "--count"])
        .success()
        .stdout_is("0\n");
    requests(&emulator, &["--path", "/**a**a**a**a**a**a**a", "--count"])
        .success()
        .stdout_is("1\n");
}

#[test]
fn one_ctrl_c_ends_a_long_match_over_a_large_journal() {
    // 60,000 records whose paths make the glob work: matching them takes seconds after the whole
    // journal came in, when Ctrl-C used to do nothing. One SIGINT then ends the run (exit 130);
    // a run that matched on to the end would exit 0, or miss the harness's deadline.
    let record = |seq: usize| {
        format!(
            r#"{{"seq":{seq},"method":"GET","path":"/{}","status":404}}"#,
            "a".repeat(300)
        )
    };
    let body: String = (1..=60_000).map(|seq| record(seq) + "\n").collect();
    let answer = format!(
        "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes();
    let total = answer.len() as u64;
    let journal = RawLauncher::start(move |conn| {
        if conn.request().is_some() && conn.send(&answer) {
            conn.hold();
        }
    });
    let running = SafeAd::new()
        .launcher(&journal.url)
        .args([
            "emulator",
            "requests",
            "--path",
            "/**a**a**a**ab",
            "--count",
        ])
        .spawn();
    wait_until("the whole journal to be sent", DEADLINE, || {
        (journal.sent() >= total).then_some(())
    });
    running.interrupt();
    running
        .wait()
        .code(130)
        .stdout_is("")
        .stderr_has("safe-ad: error: interrupted");
}
