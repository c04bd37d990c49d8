//! The emulator under stress, as a hostile tester would try it: stopped under load and in the
//! middle of a request, a `--log` reader that stops reading, signals to it and to the command it
//! runs, and the bounds that keep a shared CI machine safe (sessions, bytes held by handles, the
//! network, connections, timeouts).
//!
//! Each case needs seconds, not minutes: the load is sent on 16 connections until a number of
//! answers has come, and every wait is for an event (an answer, a line, an exit, a closed
//! connection) with the harness's deadline. The two timeout cases wait for the emulator's own
//! timeout (`IDLE_TIMEOUT`, 10 s) to close a connection; they run at the same time.

use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use safe_ad_emulator::test_support::state::{HANDLE_BYTES, MAX_SESSIONS, NETWORK_BYTES};
use safe_ad_emulator::test_support::{IDLE_TIMEOUT, MAX_CONNECTIONS, RECORD_QUEUE, STATE_LIMIT};
use serde_json::Value;

use crate::harness::emulator::{emulator_command, path_arg, saved_names, Emulator};
use crate::harness::http::{b64, KeepAlive};
use crate::harness::*;

// ---- helpers ----------------------------------------------------------------------------------

fn bearer() -> String {
    format!("Bearer {TOKEN}")
}

/// The base64 name of data number `n` made by client `client`.
fn unique_name(client: u8, n: u64) -> String {
    let mut bytes = [0u8; 32];
    bytes[0] = client;
    bytes[1..9].copy_from_slice(&n.to_le_bytes());
    b64(&bytes)
}

/// The `--log` file's records; fails unless every line is one whole JSON object.
fn records(log: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(log).expect("the log file");
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "the log ends in half a line"
    );
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:?}")))
        .collect()
}

/// Checks that the first record is the start record, the last the stop record, and that the stop
/// counts every request record between them, none lost; returns the stop record.
#[track_caller]
fn assert_stop_record_closes(records: &[Value]) -> Value {
    let (stop, rest) = records.split_last().expect("records");
    assert_eq!(stop["event"], "stop", "the last record is not the stop");
    let (start, requests) = rest.split_first().expect("the start record");
    assert_eq!(start["event"], "start", "the first record is not the start");
    assert!(requests.iter().all(|r| r["event"] == "request"));
    assert_eq!(
        stop["requests"].as_u64(),
        Some(requests.len() as u64),
        "the stop record's count differs from the request records above it"
    );
    assert_eq!(stop["lost"], 0, "{stop}");
    stop.clone()
}

/// Waits until `done` holds, failing after the deadline with `what`.
#[track_caller]
fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + DEADLINE;
    while !done() {
        assert!(Instant::now() < deadline, "waited {DEADLINE:?} for {what}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Waits until `stream` is closed by the other end; fails if it sends anything or the deadline
/// passes.
#[track_caller]
fn wait_closed(mut stream: TcpStream, what: &str) {
    use std::io::Read;
    stream.set_read_timeout(Some(DEADLINE)).expect("timeout");
    let mut buf = [0u8; 64];
    match stream.read(&mut buf) {
        Ok(0) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
        Ok(n) => panic!("{what}: got {:?} instead of a close", &buf[..n]),
        Err(e) => panic!("{what}: not closed within {DEADLINE:?}: {e}"),
    }
}

/// Makes the launcher's bytes (bincode) of structured data holding `size` bytes each, named by a
/// byte: type tag 500, the name, the data, version 0, no owners and no signatures.
fn serialised_sds(size: usize) -> impl Fn(u8) -> Vec<u8> {
    let mut tail: Vec<u8> = (size as u64).to_le_bytes().to_vec();
    tail.extend((0..size).map(|i| (i % 251) as u8));
    tail.extend([0u8; 24]);
    move |tag| {
        let mut bytes = 500u64.to_le_bytes().to_vec();
        bytes.extend([tag; 32]);
        bytes.extend_from_slice(&tail);
        bytes
    }
}

/// `POST /structured-data/deserialise` without a token; the new handle.
fn deserialise_sd(emulator: &Emulator, bytes: &[u8]) -> u64 {
    let answer = crate::harness::http::send(
        emulator.addr(),
        "POST",
        "/structured-data/deserialise",
        &[],
        Some(bytes),
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.json()["handleId"].as_u64().expect("handleId")
}

// ---- a stop loses nothing it answered for ------------------------------------------------------

/// 16 clients create and save appendable data as fast as they can; SIGTERM comes once 300 saves
/// were answered. Every save answered 200 must be in the saved state, and the stop record must
/// be the last line of `--log` and count every request line above it.
#[test]
fn a_stop_under_load_keeps_every_save_it_answered_and_logs_it_last() {
    let sandbox = Sandbox::new();
    let state = sandbox.path().join("network.json");
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(
        &sandbox,
        &[
            "--quiet",
            "--state",
            path_arg(&state),
            "--log",
            path_arg(&log),
        ],
    );
    let addr = emulator.addr();
    let saved = Arc::new(Mutex::new(Vec::new()));
    let answered = Arc::new(AtomicU64::new(0));
    let clients: Vec<_> = (0..16u8)
        .map(|client| {
            let saved = Arc::clone(&saved);
            let answered = Arc::clone(&answered);
            std::thread::spawn(move || {
                let auth = bearer();
                let headers = [
                    ("Authorization", auth.as_str()),
                    ("Content-Type", "application/json"),
                ];
                let mut n = 0;
                // Until the emulator refuses connections: it has stopped listening.
                while let Some(mut conn) = KeepAlive::open(addr) {
                    loop {
                        n += 1;
                        let name = unique_name(client, n);
                        let body = format!(r#"{{"name":"{name}"}}"#);
                        let Some(made) = conn.request(
                            "POST",
                            "/appendable-data",
                            &headers,
                            Some(body.as_bytes()),
                        ) else {
                            break;
                        };
                        if made.status != 200 {
                            assert_eq!(made.status, 503, "{}", made.body);
                            break;
                        }
                        let handle = made.json()["handleId"].as_u64().expect("handle");
                        let path = format!("/appendable-data/{handle}");
                        match conn.request("PUT", &path, &headers[..1], None) {
                            Some(put) if put.status == 200 => {
                                saved.lock().unwrap().push(name);
                                answered.fetch_add(1, Ordering::SeqCst);
                            }
                            Some(put) => {
                                assert_eq!(put.status, 503, "{}", put.body);
                                break;
                            }
                            None => break,
                        }
                    }
                }
            })
        })
        .collect();
    wait_until("300 saves answered", || {
        answered.load(Ordering::SeqCst) >= 300
    });
    emulator.terminate().success();
    for client in clients {
        client.join().expect("a client thread");
    }
    let answered: Vec<String> = saved.lock().unwrap().clone();
    let in_state = saved_names(&state);
    let missing: Vec<&String> = answered.iter().filter(|n| !in_state.contains(*n)).collect();
    assert!(
        missing.is_empty(),
        "{} of {} saves answered 200 are not in the saved state: {:?}",
        missing.len(),
        answered.len(),
        &missing[..missing.len().min(5)]
    );
    let records = records(&log);
    let stop = assert_stop_record_closes(&records);
    let puts_ok = records
        .iter()
        .filter(|r| r["method"] == "PUT" && r["status"] == 200)
        .count();
    assert_eq!(puts_ok, answered.len(), "PUTs answered 200 in the log");
    let ok = records
        .iter()
        .filter(|r| {
            r["status"]
                .as_u64()
                .is_some_and(|s| (200..300).contains(&s))
        })
        .count();
    assert_eq!(stop["answered_2xx"].as_u64(), Some(ok as u64));
}

/// A save still in progress when SIGTERM comes (here held by an injected 50-200 ms delay)
/// finishes within the grace time and is in the saved state (or, if the signal was handled before
/// the request was read, is refused): the emulator never answers 200 for a write it then does
/// not save. (The load test above is the one that failed before the ordered stop; this one
/// checks the grace time, which the old stop never gave.)
#[test]
fn a_save_in_progress_when_the_stop_begins_is_kept_or_refused_never_lost() {
    use safe_ad_emulator::test_support::fault::{Fault, Plan};
    // A seed whose first faulted request (the PUT below) gets a short delay.
    let seed = (1..)
        .find(|&seed| {
            matches!(Plan::new(1.0, seed).expect("rate").fault(0),
                Some(Fault::Delay(delay)) if delay <= Duration::from_millis(200))
        })
        .expect("a seed");
    let sandbox = Sandbox::new();
    let state = sandbox.path().join("network.json");
    let seed = seed.to_string();
    let emulator = Emulator::start_in(
        &sandbox,
        &[
            "--empty",
            "--state",
            path_arg(&state),
            "--fault-rate",
            "1",
            "--fault-seed",
            &seed,
        ],
    );
    let name = unique_name(1, 1);
    let made = emulator.http(
        "POST",
        "/appendable-data",
        Some(TOKEN),
        Some(&format!(r#"{{"name":"{name}"}}"#)),
    );
    let handle = made.handle();
    let mut conn = KeepAlive::open(emulator.addr()).expect("connect");
    let auth = bearer();
    let put = crate::harness::http::request_bytes(
        "PUT",
        &format!("/appendable-data/{handle}"),
        &[("Authorization", &auth)],
        None,
        false,
    );
    assert!(conn.write(&put));
    emulator.signal("TERM");
    let answer = conn.answer();
    emulator.wait().success();
    let kept = saved_names(&state).contains(&name);
    match answer {
        Some(answer) if answer.status == 200 => {
            assert!(
                kept,
                "the PUT was answered 200 but is not in the saved state"
            )
        }
        Some(answer) => {
            answer.is(
                503,
                "application/json",
                safe_ad_emulator::test_support::STOPPING_BODY,
            );
            assert!(!kept, "refused, yet saved");
        }
        None => assert!(!kept, "never answered, yet saved"),
    }
}

// ---- the log never stalls the emulator ---------------------------------------------------------

/// `--log` into a FIFO whose reader never reads: the pipe fills, then the queue; the emulator
/// keeps answering, stops on SIGTERM, and says (exit 1) how many records were lost.
#[test]
fn a_log_reader_that_stops_reading_never_stalls_serving_or_stopping() {
    let sandbox = Sandbox::new();
    let (_reader, writer) = sandbox.fifo("log.fifo");
    drop(writer);
    let fifo = sandbox.path().join("log.fifo");
    let emulator = Emulator::start_in(&sandbox, &["--log", path_arg(&fifo), "--quiet"]);
    let addr = emulator.addr();
    // More records than the pipe and the queue hold together, on four connections.
    let each = (RECORD_QUEUE + 2_000) / 4 + 1;
    let senders: Vec<_> = (0..4)
        .map(|_| {
            std::thread::spawn(move || {
                let mut conn = KeepAlive::open(addr).expect("connect");
                for _ in 0..each {
                    let answer = conn
                        .request("GET", "/health", &[], None)
                        .expect("an answer while the log is stalled");
                    assert_eq!(answer.status, 200);
                }
            })
        })
        .collect();
    for sender in senders {
        sender.join().expect("a sender");
    }
    // Still serving, and it stops.
    emulator.http("GET", "/health", None, None).ok();
    let output = emulator.terminate();
    output
        .code(1)
        .stderr_has(&format!("--log {}", fifo.display()))
        .stderr_has("request records are lost")
        .stderr_has("record(s) lost");
}

// ---- signals -----------------------------------------------------------------------------------

/// Whether process `pid` is gone (or only a zombie waiting to be reaped).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z')),
    }
}

/// Kills a process the test started (through the command) if it is still there.
struct KillOnDrop(u32);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = std::process::Command::new("kill")
            .args(["-s", "KILL", &self.0.to_string()])
            .status();
    }
}

/// A command run by the emulator (`--empty`, `flags`, then `-- sh -c SCRIPT`): started, and the
/// pid that SCRIPT wrote to `$PID_FILE` once it has written it (that process is killed at the end
/// of the test if it is still there).
fn command_with_pid(sandbox: &Sandbox, flags: &[&str], script: &str) -> (Running, u32, KillOnDrop) {
    let pid_file = sandbox.path().join("command.pid");
    let _ = std::fs::remove_file(&pid_file);
    let running = emulator_command(sandbox)
        .env("PID_FILE", &pid_file)
        .arg("--empty")
        .args(flags)
        .args(["--", "sh", "-c", script])
        .spawn();
    let mut pid = None;
    wait_until("the command's pid file", || {
        pid = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|text| text.trim().parse().ok());
        pid.is_some()
    });
    let pid = pid.expect("pid");
    (running, pid, KillOnDrop(pid))
}

/// `-- COMMAND`: SIGTERM reaches the command's whole process group (its `sleep` too), the state
/// is saved, and the exit code is the command's (143: SIGTERM ended it).
#[test]
fn a_signal_reaches_the_commands_whole_process_group() {
    let sandbox = Sandbox::new();
    let state = sandbox.path().join("network.json");
    let (running, sleep, _cleanup) = command_with_pid(
        &sandbox,
        &["--state", path_arg(&state)],
        "sleep 300 & echo $! > \"$PID_FILE\"; wait $!; echo after",
    );
    running.terminate();
    running
        .wait()
        .code(143)
        .stdout_is("")
        .stderr_has("SIGTERM: passed on to the command (process group");
    wait_until("the command's sleep to end", || gone(sleep));
    assert!(state.exists(), "the state was not saved");
}

/// SIGHUP stops the emulator as SIGTERM does (state saved, stop record last, exit 0); with
/// `-- COMMAND` it is passed on, and the state is saved too.
#[test]
fn sighup_saves_the_state_and_writes_the_stop_record() {
    let sandbox = Sandbox::new();
    let state = sandbox.path().join("network.json");
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(
        &sandbox,
        &[
            "--state",
            path_arg(&state),
            "--log",
            path_arg(&log),
            "--quiet",
        ],
    );
    let name = unique_name(2, 1);
    emulator.save_new(&name);
    emulator.signal("HUP");
    emulator.wait().success();
    assert!(saved_names(&state).contains(&name));
    assert_stop_record_closes(&records(&log));

    // With a command: the command gets SIGHUP (the emulator's exit is its 129), state saved.
    std::fs::remove_file(&state).expect("remove");
    let (running, _, _cleanup) = command_with_pid(
        &sandbox,
        &["--state", path_arg(&state), "--log", path_arg(&log)],
        "echo $$ > \"$PID_FILE\"; sleep 300",
    );
    signal(running.pid(), "HUP");
    running.wait().code(129);
    assert!(state.exists(), "the state was not saved");
    assert_stop_record_closes(&records(&log));
}

/// A command that ignores SIGTERM: the first signal is passed on (and said), the second kills its
/// whole group; the state is still saved.
#[test]
fn a_second_signal_kills_the_commands_group() {
    let sandbox = Sandbox::new();
    let state = sandbox.path().join("network.json");
    let (running, sleep, _cleanup) = command_with_pid(
        &sandbox,
        &["--state", path_arg(&state)],
        "trap '' TERM; sleep 300 & echo $! > \"$PID_FILE\"; wait $!",
    );
    running.terminate();
    running.wait_for_stderr("a second signal kills it");
    running.terminate();
    running.wait().code(137);
    wait_until("the command's sleep to end", || gone(sleep));
    assert!(state.exists(), "the state was not saved");
}

/// Ctrl-C sent to the emulator of a command that is not on a terminal is passed on to the
/// command's group (it has no terminal to get it from).
#[test]
fn sigint_is_passed_on_when_the_command_has_no_terminal() {
    let sandbox = Sandbox::new();
    let (running, _, _cleanup) =
        command_with_pid(&sandbox, &[], "echo $$ > \"$PID_FILE\"; sleep 300");
    running.interrupt();
    running
        .wait()
        .code(130)
        .stderr_has("SIGINT: passed on to the command");
}

/// A signal while a large `--state` file loads: it stops at once with a documented code (0 on
/// its own, 128 + N with a command that never ran), serves nothing and leaves the file as it was.
#[test]
fn a_signal_while_a_large_state_file_loads_stops_it_cleanly() {
    let sandbox = Sandbox::new();
    let state = sandbox.path().join("big.json");
    // About 20 MB of appendable data with many items each.
    let item = |n: usize| {
        let mut name = [0u8; 32];
        name[..8].copy_from_slice(&(n as u64).to_le_bytes());
        format!(
            r#"{{"structuredData":{{"name":"{}","typeTag":500}}}}"#,
            b64(&name)
        )
    };
    let ads: Vec<String> = (0..200u8)
        .map(|n| {
            let items: Vec<String> = (0..1000).map(|i| item(usize::from(n) * 1000 + i)).collect();
            format!(
                r#"{{"name":"{}","version":1,"filterType":"BlackList","data":[{}]}}"#,
                b64(&[n; 32]),
                items.join(",")
            )
        })
        .collect();
    let text = format!(
        r#"{{"format":"safe-ad-emulator-state/1","appendableData":[{}]}}"#,
        ads.join(",")
    );
    assert!((text.len() as u64) < STATE_LIMIT);
    std::fs::write(&state, &text).expect("write the state");
    // With a command, whether the signal comes during the load or after it, the code is 143:
    // the command never ran, or it got the signal passed on.
    for (command, code) in [(&[][..], 0), (&["--", "sleep", "300"][..], 143)] {
        let running = emulator_command(&sandbox)
            .args(["--state", path_arg(&state)])
            .args(command)
            .spawn();
        running.wait_for_stderr("safe-ad emulator: loading --state");
        running.terminate();
        let output = running.wait();
        output.code(code);
        let now = std::fs::read_to_string(&state).expect("state");
        if output.stderr().contains("before it was ready") {
            // Cut short: nothing served, the file as it was.
            output.stdout_is("");
            assert_eq!(now, text, "the state file changed");
        } else {
            // The load finished first: the signal stopped the server, which saved the network.
            let saved: Value = serde_json::from_str(&now).expect("JSON");
            assert_eq!(saved["appendableData"].as_array().map(Vec::len), Some(200));
            std::fs::write(&state, &text).expect("write the state");
        }
    }
}

// ---- bounds ------------------------------------------------------------------------------------

/// At most `MAX_SESSIONS` live tokens: beyond that `POST /auth` is denied as the launcher denied
/// it (401 `Unauthorised`), said once on stderr, until a token is revoked.
#[test]
fn sessions_are_bounded_and_a_revoked_one_makes_room() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start_in(&sandbox, &["--empty"]);
    let mut conn = KeepAlive::open(emulator.addr()).expect("connect");
    let body = br#"{"app":{"name":"t","id":"t.id","vendor":"v","version":"1"},"permissions":[]}"#;
    let headers = [("Content-Type", "application/json")];
    let mut tokens = Vec::new();
    let denied = loop {
        let answer = conn
            .request("POST", "/auth", &headers, Some(body))
            .expect("an answer");
        if answer.status != 200 {
            break answer;
        }
        tokens.push(answer.json()["token"].as_str().expect("token").to_owned());
        assert!(
            tokens.len() < MAX_SESSIONS,
            "more than {MAX_SESSIONS} sessions"
        );
    };
    denied.is(401, "text/html", "Unauthorised");
    // The startup token is one of them.
    assert_eq!(tokens.len(), MAX_SESSIONS - 1);
    emulator.wait_log(&format!("{MAX_SESSIONS} tokens are live"));
    let revoke = format!("Bearer {}", tokens[0]);
    conn.request("DELETE", "/auth", &[("Authorization", &revoke)], None)
        .expect("an answer")
        .ok();
    let again = conn
        .request("POST", "/auth", &headers, Some(body))
        .expect("an answer");
    assert_eq!(again.status, 200, "{}", again.body);
    emulator.terminate().success();
}

/// Anonymous deserialise calls of large structured data: the handles of one type hold at most
/// `HANDLE_BYTES` between them, the least recently used evicted first (as the launcher evicted
/// beyond 100 handles), so memory stays bounded whatever the calls.
#[test]
fn handles_of_one_type_hold_a_bounded_number_of_bytes() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start_in(&sandbox, &["--empty", "--quiet"]);
    // Five fit; the sixth evicts the oldest.
    let serialised = serialised_sds(HANDLE_BYTES / 5 - 128);
    let handles: Vec<u64> = (0..6u8)
        .map(|n| deserialise_sd(&emulator, &serialised(n)))
        .collect();
    let metadata = |handle: u64| {
        crate::harness::http::send(
            emulator.addr(),
            "GET",
            &format!("/structured-data/metadata/{handle}"),
            &[],
            None,
        )
    };
    metadata(handles[0]).error(400, -1513);
    for &live in &handles[1..] {
        assert_eq!(metadata(live).status, 200);
    }
    emulator.terminate().success();
}

/// The network holds at most `NETWORK_BYTES`: data beyond it is refused with the launcher's
/// -28 (NetworkFull), and the state file saved is one the emulator reads back.
#[test]
fn the_network_is_bounded_and_what_it_saves_loads_again() {
    let sandbox = Sandbox::new();
    let state = sandbox.path().join("network.json");
    let emulator = Emulator::start_in(&sandbox, &["--quiet", "--state", path_arg(&state)]);
    // Immutable data of 7 MiB each (structured and appendable data stay within the network's
    // 100 KiB), more than 9 MiB in the file (base64): three fit, the fourth is refused.
    let size = 7 * 1024 * 1024;
    assert!(3 * size * 4 / 3 < NETWORK_BYTES && 4 * size * 4 / 3 > NETWORK_BYTES);
    let cipher = emulator
        .http("GET", "/cipher-opts/PLAIN", Some(TOKEN), None)
        .handle();
    let mut statuses = Vec::new();
    for n in 0..4u8 {
        let writer = emulator
            .http("GET", "/immutable-data/writer", Some(TOKEN), None)
            .handle();
        let content: Vec<u8> = (0..size).map(|i| (i % 251) as u8 ^ n).collect();
        let bearer = format!("Bearer {TOKEN}");
        crate::harness::http::send(
            emulator.addr(),
            "POST",
            &format!("/immutable-data/{writer}"),
            &[("authorization", &bearer)],
            Some(&content),
        )
        .ok();
        let close = emulator.http(
            "PUT",
            &format!("/immutable-data/{writer}/{cipher}"),
            Some(TOKEN),
            None,
        );
        if close.status != 200 {
            close.error_is(
                400,
                -28,
                "CoreError::MutationFailure::MutationError::NetworkFull",
            );
        }
        statuses.push(close.status);
        let drop = format!("/immutable-data/writer/{writer}");
        emulator.http("DELETE", &drop, Some(TOKEN), None).ok();
    }
    assert_eq!(statuses, [200, 200, 200, 400]);
    emulator.terminate().success();
    let length = std::fs::metadata(&state).expect("saved").len();
    assert!(length <= STATE_LIMIT, "{length} bytes saved");
    let again = Emulator::start_in(&sandbox, &["--quiet", "--state", path_arg(&state)]);
    again.terminate().success();
}

/// A connection that sends nothing, one that stops in the middle of its head, and one that stops
/// in the middle of its body are all closed by the emulator's idle timeout.
#[test]
fn silent_and_half_sent_requests_are_timed_out() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("log.jsonl");
    let emulator = Emulator::start_in(&sandbox, &["--empty", "--quiet", "--log", path_arg(&log)]);
    let addr = emulator.addr();
    let cases: [(&str, &[u8]); 3] = [
        ("nothing sent", b""),
        ("half a head", b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n"),
        (
            "half a body",
            b"POST /auth HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{\"app\"",
        ),
    ];
    let waiting: Vec<_> = cases
        .into_iter()
        .map(|(what, bytes)| {
            std::thread::spawn(move || {
                use std::io::Write;
                let mut stream = TcpStream::connect(addr).expect("connect");
                stream.write_all(bytes).expect("write");
                wait_closed(stream, what);
            })
        })
        .collect();
    for wait in waiting {
        wait.join().expect("closed by the idle timeout");
    }
    emulator.terminate().success();
    let records = records(&log);
    assert!(
        records
            .iter()
            .any(|r| r["timed_out"] == true && r["path"] == "/auth"),
        "no timed_out record for the half body"
    );
    assert_stop_record_closes(&records);
    assert!(IDLE_TIMEOUT < DEADLINE);
}

/// Opens `count` connections that send nothing and keeps them.
fn idle_connections(addr: SocketAddr, count: usize) -> Vec<TcpStream> {
    (0..count)
        .map(|_| TcpStream::connect(addr).expect("connect (the backlog takes it)"))
        .collect()
}

/// More idle connections than the emulator keeps open: the one idle the longest is closed for
/// each new one, so a new client is served.
#[test]
fn at_the_connection_bound_a_new_client_is_still_served() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start_in(&sandbox, &["--empty"]);
    let _idle = idle_connections(emulator.addr(), MAX_CONNECTIONS + 20);
    emulator.http("GET", "/health", None, None).ok();
    emulator.wait_log(&format!(
        "{MAX_CONNECTIONS} connections are open, its bound"
    ));
    emulator.terminate().success();
}

/// Out of file descriptors (`ulimit -n 64`): idle connections are closed to make room, so a new
/// client is served rather than left in the backlog.
#[test]
fn out_of_file_descriptors_a_new_client_is_still_served() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::spawn(
        sandbox
            .shell(
                "sh",
                &format!(
                    "ulimit -n 64 && exec safe-ad emulator --listen 127.0.0.1:0 --empty --token {TOKEN}"
                ),
            )
            .token_may_show(),
    );
    let _idle = idle_connections(emulator.addr(), 100);
    emulator.http("GET", "/health", None, None).ok();
    emulator.wait_log("cannot accept a connection");
    emulator.terminate().success();
}
