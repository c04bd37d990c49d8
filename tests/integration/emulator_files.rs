//! The files the emulator is given and writes, as a CI job trusts them: `--state` (the fixture)
//! and `--log` (the evidence), and `--token-file`. Each way they can fail says so and is never
//! exit 0: a path that cannot be saved (found before serving), a full disk (a small tmpfs in a
//! mount namespace of the test's own, or `/dev/full`), a symlink planted where the emulator
//! writes, a second emulator on the same file, files that are too large or not files at all
//! (refused by their type before they are opened), a token file holding more than the token, one
//! file named by two options (refused before anything is written), a start that ends before it
//! serves (refused, unable to listen, stopped by a signal: it leaves no file it made), and what
//! the logs show of a token or a control character sent in a path.

use std::path::{Path, PathBuf};

use safe_ad_emulator::test_support::STATE_LIMIT;
use serde_json::Value;

use crate::harness::emulator::{emulator_command, path_arg, saved_names, Emulator};
use crate::harness::http::name;
use crate::harness::*;

// ---- helpers ----------------------------------------------------------------------------------

const EMPTY_STATE: &str = r#"{"format":"safe-ad-emulator-state/1"}"#;

/// Runs `script` under `sh` in a mount namespace of its own, with this build's safe-ad on PATH
/// and `small` (a directory of the sandbox) made a tmpfs of 64 KiB mounted with `options`
/// (`ro` for a read-only one). The script runs in the sandbox directory; what it leaves outside
/// `small` is seen by the test. `None` where a namespace cannot be made (not root): skipped.
fn in_small_tmpfs(sandbox: &Sandbox, options: &str, script: &str) -> Option<Output> {
    let small = sandbox.path().join("small");
    std::fs::create_dir_all(&small).expect("mkdir");
    let probe = std::process::Command::new("unshare")
        .args(["-m", "--propagation", "private", "true"])
        .output();
    if !probe.is_ok_and(|out| out.status.success()) {
        skip("`unshare -m` is not allowed here (it needs root): no small file system to fill");
        return None;
    }
    let inner = format!(
        "cd {dir} && mount -t tmpfs -o size=64k{options} tmpfs small && {script}",
        dir = sandbox.path().display(),
        options = if options.is_empty() {
            String::new()
        } else {
            format!(",{options}")
        }
    );
    let output = sandbox
        .shell(
            "sh",
            "exec unshare -m --propagation private sh -c \"$INNER\"",
        )
        .env("INNER", inner)
        .token_may_show()
        .run();
    Some(output)
}

// ---- --state: found unsaveable before serving, and a failed save is never exit 0 ----------------

#[test]
fn a_state_file_in_a_missing_directory_is_refused_before_serving() {
    let sandbox = Sandbox::new();
    let state = sandbox.path().join("missing").join("network.json");
    for command in [&[][..], &["--", "sh", "-c", "echo ran"][..]] {
        emulator_command(&sandbox)
            .args(["--state", path_arg(&state)])
            .args(command)
            .run()
            .code(2)
            .stdout_is("")
            .stderr_has(&format!(
                "--state {}: its directory {} cannot be used: no such file or directory",
                state.display(),
                state.parent().expect("parent").display()
            ));
    }
}

#[test]
fn a_state_file_in_a_read_only_directory_is_refused_before_serving() {
    let sandbox = Sandbox::new();
    let Some(output) = in_small_tmpfs(
        &sandbox,
        "ro",
        "safe-ad emulator --state small/network.json -- sh -c 'echo ran'",
    ) else {
        return;
    };
    output
        .code(2)
        .stdout_is("")
        .stderr_has("--state small/network.json: the emulator could not save it at the stop")
        .stderr_has("Read-only file system");
}

/// A full disk at the stop: the save fails, the old file is kept, no temporary file is left, and
/// the exit is 1 although COMMAND succeeded, or COMMAND's own code if it failed.
#[test]
fn a_state_save_on_a_full_disk_is_never_exit_0() {
    let sandbox = Sandbox::new();
    for (command, code) in [
        ("safe-ad create --put", 1),
        ("safe-ad create --put; exit 3", 3),
    ] {
        let script = format!(
            "printf '%s' '{EMPTY_STATE}' > small/network.json && \
             (dd if=/dev/zero of=small/fill bs=4k 2>/dev/null; true) && \
             safe-ad emulator --empty --state small/network.json -- sh -c '{command}' >/dev/null; \
             code=$?; ls -a small > listing; cp small/network.json network.copy; exit $code"
        );
        let Some(output) = in_small_tmpfs(&sandbox, "", &script) else {
            return;
        };
        output
            .code(code)
            .stderr_has("cannot save --state small/network.json: No space left on device");
        let kept = std::fs::read_to_string(sandbox.path().join("network.copy")).expect("copy");
        assert_eq!(kept, EMPTY_STATE, "the old state was not kept");
        let listing = std::fs::read_to_string(sandbox.path().join("listing")).expect("listing");
        assert!(
            !listing.contains(".tmp"),
            "a temporary file was left:\n{listing}"
        );
    }
}

// ---- --log: every write failure said, never exit 0, never a cut record ------------------------

#[test]
fn a_log_that_cannot_be_written_is_exit_1() {
    let sandbox = Sandbox::new();
    // Standalone, stopped by SIGTERM.
    let emulator = Emulator::start_in(&sandbox, &["--log", "/dev/full", "--quiet"]);
    emulator.http("GET", "/health", None, None).ok();
    emulator
        .terminate()
        .code(1)
        .stderr_has("--log /dev/full: cannot write it: No space left on device");
    // With a command that succeeds.
    sandbox
        .shell("sh", "safe-ad emulator --log /dev/full -- safe-ad put 0")
        .run()
        .code(1)
        .stdout_is("put 0: ok, saved version 0\n")
        .stderr_has("No space left on device")
        .stderr_has("the stop record is not in it");
}

/// A disk that fills up while requests come: the error is said once, the file ends in a whole
/// record (never half of one), and the exit is 1.
#[test]
fn a_log_on_a_full_disk_ends_in_a_whole_record_and_exit_1() {
    let sandbox = Sandbox::new();
    let script = "safe-ad emulator --log small/log.jsonl -- \
                  sh -c 'yes 1 | head -n 1500 | safe-ad --jobs 4 clear-data - >/dev/null'; \
                  code=$?; cp small/log.jsonl log.copy; exit $code";
    let Some(output) = in_small_tmpfs(&sandbox, "", script) else {
        return;
    };
    output
        .code(1)
        .stderr_has("--log small/log.jsonl: cannot write it: No space left on device")
        .stderr_has("record(s) lost");
    assert_eq!(
        output.stderr().matches("cannot write it").count(),
        1,
        "the error is said once"
    );
    let text = std::fs::read_to_string(sandbox.path().join("log.copy")).expect("the log");
    assert!(
        text.len() > 10_000,
        "the disk did not fill: {} bytes",
        text.len()
    );
    assert!(text.ends_with('\n'), "the log ends in half a record");
    for line in text.lines() {
        let record: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("a cut record ({e}): {line}"));
        assert!(["start", "request", "stop"].contains(&record["event"].as_str().unwrap_or("")));
    }
}

#[test]
fn a_log_that_cannot_be_created_says_it_is_the_log() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("missing").join("log.jsonl");
    emulator_command(&sandbox)
        .args(["--log", path_arg(&log)])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_has(&format!(
            "--log {}: cannot create it: no such file or directory",
            log.display()
        ))
        .stderr_lacks("listen");
}

#[test]
fn an_existing_log_is_truncated_as_help_says() {
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .args(["emulator", "--help"])
        .run()
        .success()
        .stdout_has("An existing FILE is truncated");
    let log = sandbox.file("log.jsonl", "an old run's line\n");
    sandbox
        .safe_ad()
        .args(["emulator", "--quiet", "--log", path_arg(&log), "--", "true"])
        .run()
        .success();
    let text = std::fs::read_to_string(&log).expect("log");
    assert!(text.starts_with("{\"event\":\"start\""), "{text}");
    assert!(!text.contains("an old run's line"), "{text}");
}

// ---- --state: symlinks, the lock, temporary files -------------------------------------------------

/// A symlink planted at the temporary name an emulator used to write (`.NAME.PID.tmp`) is not
/// followed: its target is untouched, and the state is saved.
#[test]
fn a_symlink_planted_at_a_temporary_name_is_not_followed() {
    let sandbox = Sandbox::new();
    let state = sandbox.path().join("network.json");
    let victim = sandbox.file("victim", "precious\n");
    let emulator = Emulator::start_in(&sandbox, &["--quiet", "--state", path_arg(&state)]);
    let planted = sandbox
        .path()
        .join(format!(".network.json.{}.tmp", emulator.pid()));
    std::os::unix::fs::symlink(&victim, &planted).expect("plant the link");
    emulator.save_new(&name(1));
    emulator.terminate().success();
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "precious\n"
    );
    let meta = std::fs::symlink_metadata(&state).expect("state");
    assert!(
        meta.file_type().is_file(),
        "the state file is not a plain file"
    );
    assert_eq!(saved_names(&state), [name(1)]);
}

/// `--state LINK`: the file the link names is read and written, the link stays a link (also a
/// link to a file not made yet), and the note says where the data goes.
#[test]
fn a_state_symlink_is_followed_and_kept() {
    let sandbox = Sandbox::new();
    std::fs::create_dir(sandbox.path().join("fixtures")).expect("mkdir");
    let real = sandbox.path().join("fixtures").join("real.json");
    std::fs::write(&real, EMPTY_STATE).expect("fixture");
    for (link, target) in [
        ("link.json", "fixtures/real.json"),
        ("new-link.json", "fixtures/new.json"),
    ] {
        let link = sandbox.path().join(link);
        std::os::unix::fs::symlink(target, &link).expect("link");
        let emulator = Emulator::start_in(&sandbox, &["--state", path_arg(&link)]);
        emulator.wait_log("is a link: the emulator reads and writes");
        emulator.save_new(&name(2));
        emulator.terminate().success();
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("link")
                .file_type()
                .is_symlink(),
            "the link was replaced"
        );
        assert_eq!(saved_names(&sandbox.path().join(target)), [name(2)]);
    }
}

/// A second emulator on the same state file (by any path) is refused at start, exit 2; once the
/// first has stopped, the file is free again.
#[test]
fn a_second_emulator_on_the_same_state_file_is_refused() {
    let sandbox = Sandbox::new();
    let state = sandbox.path().join("network.json");
    let link = sandbox.path().join("other-name.json");
    std::os::unix::fs::symlink(&state, &link).expect("link");
    let first = Emulator::start_in(&sandbox, &["--quiet", "--state", path_arg(&state)]);
    first.save_new(&name(3));
    for path in [&state, &link] {
        emulator_command(&sandbox)
            .args(["--state", path_arg(path)])
            .run()
            .code(2)
            .stdout_is("")
            .stderr_has("another safe-ad emulator is using it");
    }
    first.terminate().success();
    let second = Emulator::start_in(&sandbox, &["--quiet", "--state", path_arg(&state)]);
    second.terminate().success();
    assert_eq!(saved_names(&state), [name(3)]);
}

/// Temporary files left by an emulator that was killed (`kill -9`) are removed at start; other
/// files are not.
#[test]
fn stale_temporary_files_are_removed_at_start() {
    let sandbox = Sandbox::new();
    let state = sandbox.file("network.json", EMPTY_STATE);
    let stale = [
        ".network.json.12345.tmp",
        ".network.json.0a1b2c3d4e5f6a7b.tmp",
    ];
    let kept = [
        ".network.json.bak",
        ".other.json.12345.tmp",
        "network.json.1.tmp",
    ];
    for file in stale.iter().chain(&kept) {
        sandbox.file(file, vec![b'x'; 1 << 20]);
    }
    let emulator = Emulator::start_in(&sandbox, &["--state", path_arg(&state)]);
    emulator.wait_log("removed 2 temporary file(s) left by an emulator that did not stop cleanly");
    emulator.terminate().success();
    for file in stale {
        assert!(!sandbox.path().join(file).exists(), "{file} is still there");
    }
    for file in kept {
        assert!(sandbox.path().join(file).exists(), "{file} was removed");
    }
}

// ---- bounds and kinds of files --------------------------------------------------------------------

#[test]
fn token_and_state_files_are_bounded_and_must_be_files() {
    let sandbox = Sandbox::new();
    let refused = |flag: &str, path: &Path, words: &str| {
        emulator_command(&sandbox)
            .args([flag, path_arg(path)])
            .case(format!("{flag} {}", path.display()))
            .run()
            .code(2)
            .stdout_is("")
            .stderr_has(words);
    };
    let big_token = sandbox.file("token", vec![b'a'; 64 * 1024 + 1]);
    refused(
        "--token-file",
        Path::new("/dev/zero"),
        "it is a character device, not a regular file",
    );
    refused(
        "--token-file",
        &big_token,
        "larger than 64 KiB; that is not a token",
    );
    refused(
        "--token-file",
        sandbox.path(),
        "it is a directory, not a regular file",
    );
    let big_state = sandbox.path().join("big.json");
    std::fs::File::create(&big_state)
        .and_then(|file| file.set_len(STATE_LIMIT + 1))
        .expect("a sparse file");
    refused(
        "--state",
        &big_state,
        &format!(
            "the emulator reads state files of up to {} MiB",
            STATE_LIMIT >> 20
        ),
    );
    let (_reader, _writer) = sandbox.fifo("state.fifo");
    for path in [
        PathBuf::from("/dev/zero"),
        sandbox.path().join("state.fifo"),
        sandbox.path().to_path_buf(),
    ] {
        refused("--state", &path, ", not a regular file");
    }
    // A token from a pipe (bash's process substitution) is fine.
    sandbox
        .shell(
            "bash",
            "safe-ad emulator --empty --token-file <(printf 'tok-from-a-pipe\\n') -- \
             sh -c 'printf %s \"$SAFE_LAUNCHER_TOKEN\"'",
        )
        .run()
        .success()
        .stdout_is("tok-from-a-pipe");
}

/// A FIFO nobody writes (`mkfifo`), a socket, a device or a directory given as a file to read is
/// refused by its type at once (opening a FIFO would wait for ever), exit 2, in the words a
/// directory gets, before any file is made: not the `--log`, not a new `--state`. A refusal found
/// once the new `--state` is made (a `--log` in a missing directory) leaves none either.
#[test]
fn files_that_are_not_regular_files_are_refused_by_their_type_at_once() {
    let sandbox = Sandbox::new();
    sandbox.named_fifo("named.fifo");
    let _socket = std::os::unix::net::UnixListener::bind(sandbox.path().join("socket"))
        .expect("a socket to give");
    std::fs::create_dir(sandbox.path().join("dir")).expect("mkdir");
    let kinds = [
        ("named.fifo", "a FIFO (named pipe)"),
        ("socket", "a socket"),
        ("/dev/null", "a character device"),
        ("dir", "a directory"),
    ];
    let refused = |args: &[&str], says: &str| {
        emulator_command(&sandbox)
            .current_dir(sandbox.path())
            .args(args)
            .case(args.join(" "))
            .run()
            .code(2)
            .stdout_is("")
            .stderr_has(&format!(
                "safe-ad emulator: error: {says}, not a regular file; give the path of a regular \
                 file"
            ))
            .stderr_lacks("listening");
        for made in ["log.jsonl", "new.json"] {
            assert!(
                !sandbox.path().join(made).exists(),
                "{}: {made} was made",
                args.join(" ")
            );
        }
    };
    for option in ["--import", "--state", "--token-file"] {
        for (path, kind) in kinds {
            refused(
                &[option, path, "--log", "log.jsonl"],
                &format!("{option} {path}: it is {kind}"),
            );
        }
    }
    // The files a run reads are checked before a new --state is made.
    for (path, kind) in kinds {
        refused(
            &["--state", "new.json", "--token-file", path],
            &format!("--token-file {path}: it is {kind}"),
        );
    }
    // --log takes a FIFO (its reader) and /dev/null, but nothing else that is not a file.
    for (path, kind) in [("socket", "a socket"), ("dir", "a directory")] {
        refused(
            &["--state", "new.json", "--log", path],
            &format!("--log {path}: it is {kind}"),
        );
    }
    emulator_command(&sandbox)
        .args(["--empty", "--log", "/dev/null", "--", "true"])
        .run()
        .success();
    emulator_command(&sandbox)
        .current_dir(sandbox.path())
        .args([
            "--state",
            "new.json",
            "--log",
            "missing/log.jsonl",
            "--",
            "true",
        ])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_has("--log missing/log.jsonl: cannot create it: no such file or directory");
    assert!(
        !sandbox.path().join("new.json").exists(),
        "the refused start left the new.json it made"
    );
}

/// A start that ends before it serves leaves no file it made: one that cannot listen (exit 1),
/// and one stopped by SIGTERM while it waits for the reader of its `--log` FIFO, after it made
/// its new `--state` (exit 0, nothing served, nothing saved). A file that was there is kept.
#[test]
fn a_start_that_ends_before_serving_removes_the_files_it_made() {
    let sandbox = Sandbox::new();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port to hold");
    let port = taken.local_addr().expect("addr").to_string();
    let kept = sandbox.file("kept.json", "");
    let files = [
        &["--state", "new.json", "--log", "new.jsonl"][..],
        &["--state", "kept.json", "--log", "new.jsonl"][..],
    ];
    for args in files {
        sandbox
            .safe_ad()
            .current_dir(sandbox.path())
            .args(["emulator", "--listen", &port])
            .args(args)
            .case(args.join(" "))
            .run()
            .code(1)
            .stderr_has(&format!("cannot listen on {port}: Address already in use"));
        for made in ["new.json", "new.jsonl"] {
            assert!(!sandbox.path().join(made).exists(), "{made} was left");
        }
        assert!(kept.exists(), "kept.json was removed");
    }

    sandbox.named_fifo("log.fifo");
    let starting = emulator_command(&sandbox)
        .current_dir(sandbox.path())
        .args(["--state", "new.json", "--log", "log.fifo"])
        .spawn();
    // Made before the --log is opened, which waits for a reader that never comes.
    wait_until("the new --state to be made", DEADLINE, || {
        sandbox.path().join("new.json").exists().then_some(())
    });
    starting.terminate();
    starting
        .wait()
        .success()
        .stdout_is("")
        .stderr_has("SIGTERM before it was ready: nothing was served, nothing saved");
    assert!(
        !sandbox.path().join("new.json").exists(),
        "the stopped start left the new.json it made"
    );
}

/// A token file holds the token alone, as the client reads one: more than one line (a JSON
/// object written over several lines, whose first line `{` is printable; a comment), whitespace
/// inside the token or text that is not printable ASCII is refused, exit 2; blank lines around
/// the token are not a second line. One line of printable ASCII without spaces is the token,
/// whatever it looks like (compact JSON too), as the client takes it from the same file.
#[test]
fn a_token_file_holding_more_than_the_token_is_refused() {
    let sandbox = Sandbox::new();
    let shown = |text: &str| {
        sandbox.file("token", text);
        emulator_command(&sandbox)
            .current_dir(sandbox.path())
            .args(["--empty", "--token-file", "token", "--"])
            .args(["sh", "-c", "printf %s \"$SAFE_LAUNCHER_TOKEN\""])
            .case(format!("{text:?}"))
            .token_may_show()
            .run()
    };
    for text in [
        "{\n  \"token\": \"tok-in-json\"\n}\n",
        "tok-first-line\n# a comment\n",
        "tok-first-line\r\ntok-second-line\r\n",
    ] {
        shown(text).code(2).stdout_is("").stderr_has(
            "safe-ad emulator: error: --token-file token: it holds more than one line; a \
                 token file holds the token alone, on one line",
        );
    }
    shown("tok with spaces\n")
        .code(2)
        .stderr_has("--token-file token: the token must be printable ASCII without spaces");
    shown("tok-caf\u{e9}\n")
        .code(2)
        .stderr_has("--token-file token: the token must be printable ASCII without spaces");
    shown("\n  tok-alone  \n\n")
        .success()
        .stdout_is("tok-alone");
    shown("{\"token\":\"tok-in-json\"}\n")
        .success()
        .stdout_is("{\"token\":\"tok-in-json\"}");
    // The client takes the same file's line as the same token: it is let in.
    emulator_command(&sandbox)
        .current_dir(sandbox.path())
        .args(["--empty", "--token-file", "token", "--"])
        .arg(safe_ad_bin())
        .args(["--token-file", "token", "create"])
        .token_may_show()
        .run()
        .success();
}

// ---- one file under two options ---------------------------------------------------------------

/// Two options that name one file (by the same name, `./NAME`, a symlink or a hard link; or,
/// not made yet, the same path) are refused, exit 2, naming both, before anything is read or
/// written: the committed fixture stays byte for byte as it was, and no log or state is made. A
/// missing `--import` or `--token-file` is not a file to be made: it is refused as missing.
#[test]
fn one_file_under_two_options_is_refused_before_anything_is_written() {
    let sandbox = Sandbox::new();
    let committed = format!("{EMPTY_STATE}\n");
    let fixture = sandbox.file("fixture.json", &committed);
    std::os::unix::fs::symlink("fixture.json", sandbox.path().join("link.json")).expect("symlink");
    std::fs::hard_link(&fixture, sandbox.path().join("hard.json")).expect("hard link");
    let listing = || {
        let mut names: Vec<String> = std::fs::read_dir(sandbox.path())
            .expect("the sandbox")
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let before = listing();
    let refused = |first: &str, path: &str, second: &str, other: &str, harm: &str| {
        emulator_command(&sandbox)
            .current_dir(sandbox.path())
            .args([first, path, second, other, "--", "true"])
            .case(format!("{first} {path} {second} {other}"))
            .run()
            .code(2)
            .stdout_is("")
            .stderr_has(&format!(
                "safe-ad emulator: error: {first} {path} and {second} {other} are the same \
                 file{harm}; give each option a file of its own (nothing was read or written)"
            ));
    };
    for other in ["fixture.json", "./fixture.json", "link.json", "hard.json"] {
        for (first, second, harm) in [
            ("--import", "--log", ": the log would overwrite the fixture"),
            (
                "--state",
                "--log",
                ": the log and the saved state would overwrite each other",
            ),
            (
                "--token-file",
                "--log",
                ": the log would overwrite the token",
            ),
            (
                "--token-file",
                "--state",
                ": the saved state would replace the token file",
            ),
            ("--token-file", "--import", ""),
        ] {
            refused(first, "fixture.json", second, other, harm);
            assert_eq!(
                std::fs::read_to_string(&fixture).expect("the fixture"),
                committed,
                "{first} fixture.json {second} {other}: the fixture was written"
            );
            assert_eq!(listing(), before, "a file was made or removed");
        }
    }
    // Not made yet: the same path once the directory is resolved; neither is made.
    std::fs::create_dir(sandbox.path().join("sub")).expect("mkdir");
    let before = listing();
    refused(
        "--state",
        "new.json",
        "--log",
        "sub/../new.json",
        ": the log and the saved state would overwrite each other",
    );
    assert_eq!(listing(), before, "a file was made");
    // A missing file that is only read (`--import`, `--token-file`) is no file to be made, so
    // not the log's: its own option says there is no such file, and nothing is made.
    for (option, says) in [
        ("--import", "cannot read it: no such file or directory"),
        ("--token-file", "no such file or directory"),
    ] {
        emulator_command(&sandbox)
            .current_dir(sandbox.path())
            .args([option, "nope.json", "--log", "nope.json", "--", "true"])
            .case(option)
            .run()
            .code(2)
            .stdout_is("")
            .stderr_has(&format!(
                "safe-ad emulator: error: {option} nope.json: {says}\n"
            ))
            .stderr_lacks("the same file");
        assert_eq!(listing(), before, "a file was made");
    }
}

#[test]
fn a_data_listed_twice_in_a_state_file_is_refused() {
    let sandbox = Sandbox::new();
    let ad = |byte: u8| {
        format!(
            r#"{{"name":"{}","version":1,"filterType":"BlackList"}}"#,
            name(byte)
        )
    };
    let state = sandbox.file(
        "network.json",
        format!(
            r#"{{"format":"safe-ad-emulator-state/1","appendableData":[{},{},{}]}}"#,
            ad(1),
            ad(2),
            ad(1)
        ),
    );
    emulator_command(&sandbox)
        .args(["--state", path_arg(&state)])
        .run()
        .code(2)
        .stderr_has(&format!(
            "appendableData[2]: appendableData[0] has the same name `{}` and isPrivate false",
            name(1)
        ));
}

#[test]
fn a_separator_with_no_command_is_refused() {
    SafeAd::new()
        .args(["emulator", "--listen", "127.0.0.1:0", "--"])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_has("`--` must be followed by a COMMAND");
}

// ---- what the logs show of a path ---------------------------------------------------------------

/// Every byte of `text` as `%XX`.
fn percent_encoded(text: &str) -> String {
    text.bytes().map(|b| format!("%{b:02X}")).collect()
}

/// A token sent percent-encoded (once or twice) in a path is redacted in both logs after
/// decoding, and a bidi control in a path is escaped on stderr and in the `--log` record.
#[test]
fn a_token_hidden_by_percent_encoding_and_bidi_controls_never_reach_a_log() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--empty", "--log", path_arg(&log)]);
    let once = percent_encoded(TOKEN);
    let twice = once.replace('%', "%25");
    for path in [
        format!("/{once}/x"),
        format!("/appendable-data/{twice}"),
        "/a\u{202e}b".to_owned(),
    ] {
        crate::harness::http::send(emulator.addr(), "GET", &path, &[], None);
    }
    let output = emulator.terminate();
    let stderr = output.success().stderr();
    let text = std::fs::read_to_string(&log).expect("log");
    for shown in [stderr, text.as_str()] {
        assert_no_token(shown);
        assert!(
            !shown.contains(&once[..24]),
            "the encoded token shows:\n{shown}"
        );
        assert!(
            !shown.contains(&twice[..24]),
            "the twice-encoded token shows:\n{shown}"
        );
        assert!(
            !shown.contains('\u{202e}'),
            "a raw bidi control shows:\n{shown}"
        );
    }
    assert!(stderr.contains("GET /<token>/x 404"), "{stderr}");
    assert!(
        stderr.contains("GET /appendable-data/<token> 404"),
        "{stderr}"
    );
    assert!(stderr.contains("GET /a?b 404"), "{stderr}");
    assert!(text.contains(r#""path":"/<token>/x""#), "{text}");
    assert!(text.contains(r#""path":"/a\u202eb""#), "{text}");
}
