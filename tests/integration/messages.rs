//! What safe-ad says, as a person meets it: colour on a terminal and never in a pipe or on
//! stdout, hints that name the values they know (and work when typed), `--curl` lines run through
//! a shell, typos, and the small messages (logging out twice, an empty batch, bad handle
//! arguments).

use serde_json::{json, Value};

use crate::harness::*;

/// A launcher that answers every request, so any request safe-ad sent would be counted.
fn counting_launcher() -> RawLauncher {
    RawLauncher::answering(http_answer("200 OK", b"OK"))
}

// ---- small messages ----------------------------------------------------------------------------

#[test]
fn logging_out_twice_is_not_a_mistake() {
    let launcher = counting_launcher();
    let sandbox = Sandbox::new();
    sandbox.write_config(&format!(
        r#"{{"token": "{TOKEN}", "launcher_url": "{}"}}"#,
        launcher.url
    ));
    let logout = || sandbox.safe_ad().args(["auth", "logout"]).run();
    logout().success().stderr_has("revoked the token");
    // The second finds no token: the person's wish already holds, so it is no error.
    logout()
        .success()
        .stdout_is("")
        .stderr_is("safe-ad: not logged in: no token found, so there is nothing to revoke\n");
    sandbox
        .safe_ad()
        .args(["-q", "auth", "logout"])
        .run()
        .success()
        .stdout_is("")
        .stderr_is("");
    // Only the first reached the launcher.
    launcher.settle();
    assert_eq!(launcher.requests(), ["DELETE /auth HTTP/1.1"]);
}

#[test]
fn an_empty_batch_says_0_handles_and_quiet_says_nothing() {
    let launcher = counting_launcher();
    let sandbox = Sandbox::new();
    let run = |flags: &[&str]| {
        sandbox
            .safe_ad()
            .launcher(&launcher.url)
            .args(flags)
            .args(["clear-data", "-"])
            .stdin("")
            .run()
    };
    run(&[])
        .success()
        .stdout_is("")
        .stderr_is("0 handles: standard input held none\n");
    run(&["-q"]).success().stdout_is("").stderr_is("");
    // Nothing to say on stdout under --json either: there was no handle to describe.
    run(&["--json"])
        .success()
        .stdout_is("")
        .stderr_is("0 handles: standard input held none\n");
    assert_eq!(launcher.connections(), 0);
}

#[test]
fn every_bad_handle_argument_is_named_and_nothing_is_sent() {
    let launcher = counting_launcher();
    let sandbox = Sandbox::new();
    let run = |json: bool| {
        let mut safe_ad = sandbox.safe_ad().launcher(&launcher.url);
        if json {
            safe_ad = safe_ad.arg("--json");
        }
        safe_ad.args(["put", "abc", "1", "x"]).run()
    };
    for json in [false, true] {
        let output = run(json);
        output
            .code(2)
            .stderr_has(
                "safe-ad: error: invalid handle 'abc' for put: it is not a plain decimal number",
            )
            .stderr_has(
                "safe-ad: error: invalid handle 'x' for put: it is not a plain decimal number",
            )
            .stderr_has("; nothing was sent\n")
            .stderr_lacks("nothing was sent for it");
        // The hint is the same for both, so it is given once.
        assert_eq!(
            output.stderr().matches("hint:").count(),
            1,
            "{}",
            output.stderr()
        );
        if !json {
            output.stdout_is("");
            continue;
        }
        // Under --json each argument is a result, in order: each bad one as a bad line of
        // standard input is, and the good one not sent.
        let objects = output.json_lines();
        assert_eq!(objects.len(), 3, "{}", output.stdout());
        let good = &objects[1];
        assert_eq!((&good["input"], &good["ok"]), (&json!("1"), &json!(false)));
        let said = good["error"]["description"]
            .as_str()
            .expect("a description");
        assert!(said.starts_with("not sent: another argument"), "{good}");
        for (object, input) in [&objects[0], &objects[2]].into_iter().zip(["abc", "x"]) {
            assert_eq!(object["input"], input, "{object}");
            assert_eq!(object["ok"], false, "{object}");
            assert_eq!(object["exit_code"], 2, "{object}");
            assert_eq!(object["handle"], Value::Null, "{object}");
            assert_eq!(object["error"]["class"], "usage", "{object}");
            let hint = object["error"]["hint"].as_str().expect("a hint");
            assert!(hint.ends_with("; nothing was sent"), "{hint}");
        }
    }
    assert_eq!(launcher.connections(), 0, "a request was sent");
}

#[test]
fn help_of_help_is_the_help_of_help() {
    for flag in ["--help", "-h"] {
        let output = SafeAd::new().args(["help", flag]).run();
        output.success().stderr_is("");
        let stdout = output.stdout();
        assert!(
            stdout.starts_with("Print this message or the help of the given subcommand(s)\n"),
            "{stdout}"
        );
        output.stdout_has("Usage: safe-ad help [COMMAND]");
    }
}

// ---- colour ------------------------------------------------------------------------------------

/// A word for `sh`, single-quoted.
pub(crate) fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// `line` run by `sh` under a real pseudo-terminal (util-linux `script`): stdout and stderr
/// are both the terminal, and both come back, with CRLF line ends, on `script`'s stdout.
pub(crate) fn on_terminal(sandbox: &Sandbox, line: &str) -> SafeAd {
    sandbox.shell(
        "sh",
        &format!("exec script -qec {} /dev/null", quoted(line)),
    )
}

/// `text` without its escape sequences (`ESC [ ... letter`).
fn without_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

const RED_ERROR: &str = "\x1b[1m\x1b[31merror:\x1b[0m";
const YELLOW_HINT: &str = "\x1b[1m\x1b[33mhint:\x1b[0m";

#[test]
fn errors_are_coloured_on_a_terminal_and_never_in_a_pipe_unless_asked() {
    let sandbox = Sandbox::new();
    // A bad handle: refused before anything is sent, with an error and a hint.
    let plain = sandbox.safe_ad().args(["put", "abc"]).run();
    plain.code(2).stderr_lacks("\x1b");
    let words = plain.stderr().to_string();

    let terminal = |env: &[(&str, &str)], flags: &str| {
        let mut safe_ad = on_terminal(&sandbox, &format!("safe-ad {flags} put abc"));
        for (name, value) in env {
            safe_ad = safe_ad.env(name, value);
        }
        let output = safe_ad.run();
        output.code(2);
        let text = output.stdout().replace("\r\n", "\n");
        assert_eq!(
            without_escapes(&text),
            words,
            "the words change with colour"
        );
        text
    };
    let pipe = |env: &[(&str, &str)], flags: &[&str]| {
        let mut safe_ad = sandbox.safe_ad();
        for (name, value) in env {
            safe_ad = safe_ad.env(name, value);
        }
        let output = safe_ad.args(flags).args(["put", "abc"]).run();
        output.code(2);
        assert_eq!(without_escapes(output.stderr()), words);
        output.stderr().to_string()
    };
    let coloured = |text: &str| text.contains(RED_ERROR) && text.contains(YELLOW_HINT);
    let plain = |text: &str| !text.contains('\x1b');

    // (what, the text, whether it must be coloured)
    let cases = [
        ("a terminal", terminal(&[], ""), true),
        (
            "a terminal, --color never",
            terminal(&[], "--color never"),
            false,
        ),
        (
            "a terminal, NO_COLOR=1",
            terminal(&[("NO_COLOR", "1")], ""),
            false,
        ),
        // NO_COLOR counts when set and not empty.
        (
            "a terminal, NO_COLOR empty",
            terminal(&[("NO_COLOR", "")], ""),
            true,
        ),
        ("a pipe", pipe(&[], &[]), false),
        (
            "a pipe, --color always",
            pipe(&[], &["--color", "always"]),
            true,
        ),
        (
            "a pipe, --color=always",
            pipe(&[], &["--color=always"]),
            true,
        ),
        (
            "a pipe, CLICOLOR_FORCE=1",
            pipe(&[("CLICOLOR_FORCE", "1")], &[]),
            true,
        ),
        (
            "a pipe, CLICOLOR_FORCE=0",
            pipe(&[("CLICOLOR_FORCE", "0")], &[]),
            false,
        ),
        (
            "a pipe, NO_COLOR beats CLICOLOR_FORCE",
            pipe(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")], &[]),
            false,
        ),
        (
            "a pipe, --color never beats CLICOLOR_FORCE",
            pipe(&[("CLICOLOR_FORCE", "1")], &["--color", "never"]),
            false,
        ),
        (
            "a pipe, --color always beats NO_COLOR",
            pipe(&[("NO_COLOR", "1")], &["--color", "always"]),
            true,
        ),
    ];
    for (what, text, colour) in cases {
        if colour {
            assert!(
                coloured(&text),
                "{what}: expected a red error: and a yellow hint:\n{text:?}"
            );
        } else {
            assert!(
                plain(&text),
                "{what}: expected no escape sequence:\n{text:?}"
            );
        }
    }
}

#[test]
fn clap_errors_follow_the_same_colour_rules() {
    let sandbox = Sandbox::new();
    let run = |line: &str| {
        let output = on_terminal(&sandbox, line).run();
        output.code(2);
        output.stdout().to_string()
    };
    // An option before the command: clap's own error (one after a command that can run another
    // is safe-ad's, `clap_errors`).
    let coloured = run("safe-ad --bogus put 1");
    assert!(coloured.contains(RED_ERROR), "{coloured:?}");
    // --color typed on a line clap cannot parse is still honoured.
    for line in [
        "safe-ad --color never --bogus put 1",
        "safe-ad --bogus put 1 --color=never",
    ] {
        let text = run(line);
        assert!(!text.contains('\x1b'), "{line}: {text:?}");
        assert!(
            text.contains("error: unexpected argument '--bogus'"),
            "{text:?}"
        );
    }
    let piped = sandbox.safe_ad().args(["--bogus", "put", "1"]).run();
    piped.code(2).stderr_lacks("\x1b");
}

#[tokio::test]
async fn colour_never_reaches_stdout() {
    let server = ok_launcher().await;
    let sandbox = Sandbox::new();
    let always = |flags: &[&str]| {
        sandbox
            .safe_ad()
            .launcher(&server.uri())
            .args(["--color", "always"])
            .args(flags)
            .run()
    };
    // Result lines.
    always(&["drop", "1", "2"])
        .success()
        .stdout_is("drop 1: ok\ndrop 2: ok\n");
    // JSON lines, with an error among them whose stderr line is coloured.
    let output = always(&["--json", "put", "1", "abc"]);
    output.code(2).stderr_has(RED_ERROR);
    output.check(
        !output.stdout().contains('\x1b'),
        "escape codes in --json lines",
    );
    assert_eq!(output.json_lines().len(), 2, "a result per argument");
    // curl lines, which carry shell words of every kind.
    let output = always(&["--curl", "create", "--put"]);
    output.success();
    output.check(
        !output.stdout().contains('\x1b'),
        "escape codes in --curl lines",
    );
    assert_eq!(output.stdout().lines().count(), 2);
    // Not on a terminal either: stdout is data, whatever it is shown on.
    let output = on_terminal(&sandbox, "safe-ad --color always drop 1 2>/dev/null")
        .launcher(&server.uri())
        .run();
    output.success().stdout_is("drop 1: ok\r\n");
}

#[test]
fn hints_show_the_command_between_backticks_in_bold() {
    // No token: the hint tells which command gets one.
    let output = SafeAd::new()
        .args(["--color", "always", "auth", "status"])
        .run();
    output
        .code(3)
        .stderr_has(YELLOW_HINT)
        .stderr_has("run `\x1b[1msafe-ad auth login\x1b[0m`, or give one");
}

// ---- typos -------------------------------------------------------------------------------------

/// `safe-ad emulator sh -c ...` forgot the `--`: nothing starts, and the hint is the line that
/// works, quoted so a shell reads it back as it was typed.
#[cfg(feature = "emulator")]
#[test]
fn a_command_after_emulator_without_dashes_gets_the_line_with_them() {
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .args(["emulator", "sh", "-c", "true"])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_has("safe-ad: error: unexpected argument 'sh' after `safe-ad emulator`")
        .stderr_has("hint: to run a command with the emulator, put it after `--`: `safe-ad emulator -- sh -c true`");

    let ran = sandbox.path().join("ran");
    let script = format!("touch {}", ran.display());
    let output = sandbox
        .safe_ad()
        .args(["emulator", "--listen", "127.0.0.1:0", "sh", "-c", &script])
        .run();
    // No emulator started (it would print its URL) and the command did not run.
    output.code(2).stdout_is("");
    assert!(!ran.exists(), "the command ran");
    let stderr = output.stderr();
    let line = stderr
        .split("put it after `--`: `")
        .nth(1)
        .and_then(|rest| rest.split("`\n").next())
        .unwrap_or_else(|| panic!("no suggested line in {stderr:?}"));
    assert_eq!(
        line,
        format!(
            "safe-ad emulator --listen 127.0.0.1:0 -- sh -c {}",
            quoted(&script)
        )
    );
    // The suggestion, typed into a shell, does what was meant.
    sandbox.shell("sh", line).run().success();
    assert!(ran.exists(), "the suggested line did not run the command");
}

// ---- hints that know the value -----------------------------------------------------------------

#[cfg(feature = "emulator")]
pub(crate) mod with_the_emulator {
    use serde_json::Value;

    use crate::harness::emulator::Emulator;
    use crate::harness::*;

    fn at(sandbox: &Sandbox, emulator: &Emulator) -> SafeAd {
        sandbox
            .safe_ad()
            .env("SAFE_LAUNCHER_URL", &emulator.url)
            .env("SAFE_LAUNCHER_TOKEN", &emulator.token)
    }

    #[test]
    fn a_stale_handle_hint_names_the_handle_in_text_and_json() {
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        at(&sandbox, &emulator)
            .args(["post", "2"])
            .run()
            .code(4)
            .stderr_has("errorCode -25")
            .stderr_has("hint: someone saved this data since the handle was fetched: get a fresh handle with `safe-ad reopen 2` and apply the change again");
        let output = at(&sandbox, &emulator).args(["--json", "post", "2"]).run();
        output.code(4);
        let objects = output.json_lines();
        let hint = objects[0]["error"]["hint"].as_str().expect("a hint");
        assert!(hint.contains("`safe-ad reopen 2`"), "{hint}");
    }

    #[test]
    fn open_of_a_name_not_on_the_network_hints_create_with_that_name_and_the_hint_works() {
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        let name = "c2FmZS1hZCB0ZXN0OiBub3QgeWV0IHNhdmVkLi4uLi4=";
        let output = at(&sandbox, &emulator).args(["open", name]).run();
        output.code(4).stdout_is("").stderr_has("errorCode -18");
        let command = format!("safe-ad create {name} --put");
        output.stderr_has(&format!("`{command}`"));
        // Typed as the hint says, it makes the data; then open finds it.
        sandbox
            .shell("sh", &command)
            .env("SAFE_LAUNCHER_URL", &emulator.url)
            .env("SAFE_LAUNCHER_TOKEN", &emulator.token)
            .run()
            .success();
        at(&sandbox, &emulator).args(["open", name]).run().success();
    }

    #[test]
    fn a_batch_whose_handles_fail_alike_gives_the_hint_once() {
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        // Two more handles not on the network, beside the demo's handle 0.
        let new = || {
            let output = at(&sandbox, &emulator).arg("create").run();
            output.success();
            output.stdout().trim().to_string()
        };
        let (a, b) = (new(), new());
        let output = at(&sandbox, &emulator).args(["post", "0", &a, &b]).run();
        output.code(4);
        let stderr = output.stderr();
        for handle in ["0", &a, &b] {
            output.stderr_has(&format!(
                "safe-ad: error: post {handle}: the launcher answered 404"
            ));
        }
        assert_eq!(stderr.matches("hint:").count(), 1, "{stderr}");
        output.stderr_has("`safe-ad put 0`");
        // JSON has room for each handle's own advice.
        let output = at(&sandbox, &emulator)
            .args(["--json", "post", "0", &a, &b])
            .run();
        output.code(4);
        for (object, handle) in output.json_lines().iter().zip(["0", &a, &b]) {
            let hint = object["error"]["hint"].as_str().expect("a hint");
            assert!(
                hint.contains(&format!("`safe-ad put {handle}`")),
                "{object}"
            );
        }
    }

    #[test]
    fn a_wrong_path_prefix_is_hinted_and_the_right_one_works() {
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        let with_prefix = |prefix: &str| {
            at(&sandbox, &emulator)
                .args(["--launcher-url", &format!("{}{prefix}", emulator.url)])
                .args(["metadata", "1"])
                .run()
        };
        with_prefix("/0.7")
            .code(4)
            .stderr_has("Endpoint Not Found")
            .stderr_has("hint: the launcher has no such route: check the path prefix of the launcher URL (the launcher serves its API under /, /0.5 and /0.6)");
        for prefix in ["", "/0.5", "/0.6"] {
            with_prefix(prefix).success().stdout_has("1: version 1");
        }
    }

    // ---- --curl lines through a shell ----------------------------------------------------------

    /// curl runs here: CI installs it (.ci/run), so a machine without it fails these tests
    /// rather than passing them untested.
    #[track_caller]
    pub(crate) fn require_curl() {
        let found = std::process::Command::new("curl")
            .arg("--version")
            .output()
            .is_ok_and(|output| output.status.success());
        assert!(
            found,
            "curl is needed to run the --curl lines (apt-get install curl)"
        );
    }

    #[test]
    fn a_curl_line_whose_request_fails_exits_22_and_shows_the_launchers_error() {
        require_curl();
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        let output = at(&sandbox, &emulator).args(["--curl", "post", "0"]).run();
        output.success();
        let line = output.stdout().trim_end();
        assert!(line.contains(" --fail-with-body "), "{line}");
        assert!(emulator.requests().is_empty(), "--curl sent a request");
        // Handle 0 is the demo's unsaved one: the launcher refuses the POST, and the read of
        // the version saved, joined to it with `&&`, is not sent.
        let piped = sandbox
            .shell("sh", "safe-ad --curl post 0 | sh")
            .env("SAFE_LAUNCHER_URL", &emulator.url)
            .env("SAFE_LAUNCHER_TOKEN", &emulator.token)
            .run();
        piped
            .code(22)
            .stdout_has(r#""errorCode":-22"#)
            .stderr_has("404");
        assert_eq!(emulator.requests(), ["POST /appendable-data/0 404"]);
    }

    #[test]
    fn chained_curl_lines_run_as_one_sh_script_and_give_back_what_they_took() {
        require_curl();
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        let env = |safe_ad: SafeAd| {
            safe_ad
                .env("SAFE_LAUNCHER_URL", &emulator.url)
                .env("SAFE_LAUNCHER_TOKEN", &emulator.token)
        };
        // create --put, piped whole into sh: the second line takes the handle the first made.
        let piped = env(sandbox.shell("sh", "safe-ad --curl create --put | sh")).run();
        piped
            .success()
            .stdout_has(r#"{"handleId":"#)
            .stdout_has("OK");
        let requests = emulator.requests();
        assert_eq!(requests.len(), 2, "{requests:?}");
        assert!(
            requests[0].starts_with("POST /appendable-data 200"),
            "{requests:?}"
        );
        assert!(
            requests[1].starts_with("PUT /appendable-data/"),
            "{requests:?}"
        );
        assert!(requests[1].ends_with(" 200"), "{requests:?}");

        // open, piped whole into sh: a data id, the fetch through it, and the data id given
        // back, which no line names: each takes it from the answer before.
        let name = emulator.demo_name(1);
        let piped = env(sandbox.shell("sh", &format!("safe-ad --curl open {name} | sh"))).run();
        piped.success().stdout_has(r#""isOwner":"#);
        let requests = emulator.requests();
        let open: Vec<String> = requests[2..]
            .iter()
            .map(|line| {
                let words: Vec<&str> = line.split(' ').collect();
                let path = words[1].trim_end_matches(|c: char| c.is_ascii_digit());
                format!("{} {path} {}", words[0], words[2])
            })
            .collect();
        assert_eq!(
            open,
            [
                "POST /data-id/appendable-data 200",
                "GET /appendable-data/handle/ 200",
                "DELETE /data-id/ 200",
            ],
            "{requests:?}"
        );
        let data_id = |line: &str| {
            line.split(' ')
                .nth(1)
                .and_then(|p| p.rsplit('/').next())
                .map(str::to_owned)
        };
        assert_eq!(data_id(&requests[3]), data_id(&requests[4]), "{requests:?}");

        // A fetch that fails in the middle: the data id is still given back at the end.
        let missing = "cd".repeat(32);
        let piped = env(sandbox.shell("sh", &format!("safe-ad --curl open {missing} | sh"))).run();
        // The script's exit code is its last line's, the give-back's.
        piped
            .success()
            .stdout_has(r#""handleId":"#)
            .stdout_has(r#""errorCode":-18"#);
        let requests = emulator.requests();
        let last = requests.last().expect("requests");
        assert!(
            last.starts_with("DELETE /data-id/") && last.ends_with(" 200"),
            "{requests:?}"
        );
    }

    #[test]
    fn reopen_curl_lines_read_the_new_handles_bytes_as_base64() {
        require_curl();
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        // The fetch keeps the new handle for the line that reads its serialised bytes, which
        // it prints as base64 (the bytes begin with the name: its first 30 bytes, 40 digits).
        let piped = sandbox
            .shell("sh", "safe-ad --curl reopen --drop 1 | sh")
            .env("SAFE_LAUNCHER_URL", &emulator.url)
            .env("SAFE_LAUNCHER_TOKEN", &emulator.token)
            .run();
        piped.success().stdout_has(&emulator.demo_name(1)[..40]);
        let requests: Vec<String> = emulator
            .requests()
            .iter()
            .map(|line| {
                let words: Vec<&str> = line.split(' ').collect();
                let path = words[1].trim_end_matches(|c: char| c.is_ascii_digit());
                format!("{} {path} {}", words[0], words[2])
            })
            .collect();
        assert_eq!(
            requests,
            [
                "GET /appendable-data/data-id/ 200",
                "GET /appendable-data/handle/ 200",
                "DELETE /data-id/ 200",
                "GET /appendable-data/serialise/ 200",
                "DELETE /appendable-data/handle/ 200",
            ]
        );
    }

    /// A name's curl lines run as one script: the copy taken, the change on it (an append
    /// waits on two answers: the copy and the item's data id), the copy given back.
    #[test]
    fn curl_lines_of_a_name_run_as_one_script_and_give_the_copy_back() {
        require_curl();
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        let data = emulator.demo_name(1);
        let first = emulator.next_handle();
        let sent = emulator.requests().len();
        let script = format!(
            "safe-ad --curl append {data} --structured {} | sh",
            crate::harness::http::name(0x5a)
        );
        sandbox
            .shell("sh", &script)
            .env("SAFE_LAUNCHER_URL", &emulator.url)
            .env("SAFE_LAUNCHER_TOKEN", &emulator.token)
            .run()
            .success();
        let statuses: Vec<String> = (emulator.requests()[sent..].iter())
            .map(|line| line.rsplit(' ').next().unwrap_or("").to_owned())
            .collect();
        assert_eq!(statuses.len(), 7, "{:?}", emulator.requests());
        assert!(
            statuses.iter().all(|status| status == "200"),
            "{statuses:?}"
        );
        let left = emulator.handles_since(first);
        assert!(left.is_empty(), "the script left {left:?}");
        assert_eq!(emulator.network(1).1, 4, "the item is on the network");
    }

    #[test]
    fn a_token_file_that_is_a_pipe_is_not_put_in_the_curl_lines() {
        require_curl();
        let emulator = Emulator::start(&[]);
        let sandbox = Sandbox::new();
        // bash's <(...) is a pipe at /dev/fd/N, gone once safe-ad has read it.
        let output = sandbox
            .shell(
                "bash",
                r#"safe-ad --curl --token-file <(printf %s "$TOKEN_TEXT") metadata 1"#,
            )
            .env("SAFE_LAUNCHER_URL", &emulator.url)
            .env("TOKEN_TEXT", &emulator.token)
            .run();
        output
            .success()
            .stderr_has("(a pipe): export SAFE_LAUNCHER_TOKEN before running these lines");
        let line = output.stdout().trim_end().to_string();
        assert!(
            line.contains(r#""Authorization: Bearer $SAFE_LAUNCHER_TOKEN""#),
            "{line}"
        );
        assert!(!line.contains("/dev/fd"), "{line}");
        // With the variable exported, as the note says, the line works.
        let ran = sandbox
            .shell("sh", &line)
            .env("SAFE_LAUNCHER_TOKEN", &emulator.token)
            .run();
        ran.success();
        let answer: Value = serde_json::from_str(ran.stdout()).expect("metadata JSON");
        assert_eq!(answer["version"], 1, "{answer}");
    }
}

// ---- --json: the failure that ends a run -----------------------------------------------------

/// Under `--json`, a failure that ends the run before any object (no token, a bad config file,
/// a launcher that cannot be reached) is one JSON object on stdout, as a bad handle is: a CI
/// step's `| jq` sees why.
#[test]
fn under_json_a_failure_that_ends_the_run_is_one_object_on_stdout() {
    let sandbox = Sandbox::new();
    let refused = closed_port_url();
    let no_token = sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", &refused)
        .args(["--json", "metadata", "1"])
        .run();
    let broken = Sandbox::new();
    broken.write_config("{\"timeout_secs\": \"soon\"}");
    let bad_config = broken
        .safe_ad()
        .launcher(&refused)
        .args(["--json", "put", "1"])
        .run();
    let unreachable = sandbox
        .safe_ad()
        .launcher(&refused)
        .args(["--json", "show", "1"])
        .run();
    for (output, code, class) in [
        (&no_token, 3, "auth"),
        (&bad_config, 2, "usage"),
        (&unreachable, 6, "unreachable"),
    ] {
        let lines = output.code(code).json_lines();
        let last = lines.last().expect("a JSON object on stdout");
        assert_eq!(last["ok"], false, "{last}");
        assert_eq!(last["error"]["class"], class, "{last}");
        assert_eq!(last["exit_code"], code, "{last}");
        if class != "unreachable" {
            assert_eq!(lines.len(), 1, "{lines:?}");
        }
    }
}
