//! The real `safe-ad emulator` binary as a test fixture: one process per test on its own free
//! loopback port, accepting [`TOKEN`], killed on drop.
//!
//! Two ways to start it: [`Emulator::start`] (empty environment, stderr kept whole so a test can
//! wait for a request line and read the banner) and [`Emulator::start_tallied`] (the sandbox's
//! environment, stderr tallied line by line for runs whose log is too long to keep; read it with
//! [`Emulator::stop`]).
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Sandbox, TOKEN};

const BIN: &str = env!("CARGO_BIN_EXE_safe-ad");

/// A `safe-ad emulator` process on a free loopback port, accepting [`TOKEN`]; killed on drop.
pub struct Emulator {
    child: Child,
    pub url: String,
    log: Log,
}

/// What becomes of the emulator's stderr.
enum Log {
    /// Everything the emulator wrote on stderr so far (banner and request log).
    Text(Arc<Mutex<String>>),
    /// The stderr tally, handed over when the reading thread ends (on [`Emulator::stop`]).
    Tally(Option<JoinHandle<EmulatorLog>>),
}

impl Emulator {
    /// Starts the binary with an empty environment, `--listen 127.0.0.1:0 --token TOKEN` and the
    /// given extra flags, and reads the two lines it prints once it is ready. Its stderr is kept
    /// whole: see [`Emulator::log`].
    pub fn start(flags: &[&str]) -> Emulator {
        let mut command = Command::new(BIN);
        command.env_clear();
        Emulator::spawn(command, flags, false)
    }

    /// The same with the sandbox's environment (HOME, SAFE_AD_CONFIG_DIR), its stderr tallied
    /// line by line (the log can be long): see [`Emulator::stop`].
    pub fn start_tallied(sandbox: &Sandbox, flags: &[&str]) -> Emulator {
        Emulator::spawn(sandbox.std_cmd(), flags, true)
    }

    fn spawn(mut command: Command, flags: &[&str], tally: bool) -> Emulator {
        let mut child = command
            .args(["emulator", "--listen", "127.0.0.1:0", "--token", TOKEN])
            .args(flags)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("safe-ad emulator starts");
        let stderr = child.stderr.take().expect("stderr");
        let log = if tally {
            Log::Tally(Some(std::thread::spawn(move || EmulatorLog::read(stderr))))
        } else {
            Log::Text(keep_text(stderr))
        };
        let stdout = child.stdout.take().expect("stdout");
        let (lines_tx, lines_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let first = lines.next().and_then(Result::ok);
            let second = lines.next().and_then(Result::ok);
            let _ = lines_tx.send((first, second));
            for _ in lines {}
        });
        let mut emulator = Emulator {
            child,
            url: String::new(),
            log,
        };
        let lines = lines_rx.recv_timeout(Duration::from_secs(10));
        let Ok((Some(url_line), Some(token_line))) = lines else {
            match emulator.log {
                Log::Text(_) => panic!(
                    "the emulator did not print its two lines; stderr:\n{}",
                    emulator.log()
                ),
                Log::Tally(_) => panic!("the emulator did not print its two lines"),
            }
        };
        emulator.url = url_line
            .strip_prefix("SAFE_LAUNCHER_URL=")
            .unwrap_or_else(|| panic!("first line: {url_line:?}"))
            .to_owned();
        assert_eq!(token_line, format!("SAFE_LAUNCHER_TOKEN={TOKEN}"));
        assert!(
            emulator.url.starts_with("http://127.0.0.1:"),
            "{}",
            emulator.url
        );
        emulator
    }

    /// Everything the emulator wrote on stderr so far (an emulator from [`Emulator::start`]).
    pub fn log(&self) -> String {
        match &self.log {
            Log::Text(text) => text.lock().unwrap().clone(),
            Log::Tally(_) => panic!("a tallied emulator keeps no log text; see Emulator::stop"),
        }
    }

    /// Waits (up to 3 s) until the stderr log contains `needle`, and returns the log.
    pub fn wait_log(&self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(3);
        loop {
            let log = self.log();
            if log.contains(needle) {
                return log;
            }
            assert!(
                Instant::now() < deadline,
                "emulator log never showed {needle:?}:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The request lines of the log so far (method, path, status, time), after waiting for
    /// `last` to be logged and a moment more for anything that would follow it.
    pub fn requests_after(&self, last: &str) -> Vec<String> {
        self.wait_log(last);
        std::thread::sleep(Duration::from_millis(300));
        self.log()
            .lines()
            .filter(|line| {
                ["GET /", "PUT /", "POST /", "DELETE /"]
                    .iter()
                    .any(|verb| line.starts_with(verb))
            })
            .map(str::to_owned)
            .collect()
    }

    /// The base64 name of a demo handle, as the banner prints it.
    pub fn demo_name(&self, handle: u64) -> String {
        let log = self.wait_log("names (base64");
        let names = log.split("names (base64").nth(1).expect("names section");
        names
            .lines()
            .skip(1)
            .map(str::trim)
            .find_map(|line| line.strip_prefix(&format!("{handle} ")))
            .unwrap_or_else(|| panic!("no name for demo handle {handle} in banner:\n{log}"))
            .trim()
            .to_owned()
    }

    /// One HTTP/1.1 request written by hand, with `Authorization: Bearer <token>` when a token is
    /// given and `Content-Type: application/json` when there is a body.
    pub fn http(&self, method: &str, path: &str, token: Option<&str>, body: Option<&str>) -> Resp {
        let address = self.url.trim_start_matches("http://");
        let mut stream = TcpStream::connect(address).expect("connect to emulator");
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .expect("read timeout");
        let mut request =
            format!("{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n");
        if let Some(token) = token {
            request.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        let body = body.unwrap_or("");
        if !body.is_empty() {
            request.push_str("Content-Type: application/json\r\n");
        }
        request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        stream.write_all(request.as_bytes()).expect("send request");
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).expect("read answer");
        let text = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").expect("a complete answer");
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("status line: {head}"));
        Resp {
            status,
            body: body.to_owned(),
        }
    }

    /// What the network holds for demo handle `demo`'s data, fetched into a fresh handle
    /// (`POST /data-id/appendable-data`, `GET /appendable-data/handle/:dataIdHandle`): the answer
    /// to the GET, which carries the new handle and its counts.
    fn fetch(&self, demo: u64) -> Value {
        let body = format!(r#"{{"name":"{}"}}"#, self.demo_name(demo));
        let id = self.http("POST", "/data-id/appendable-data", Some(TOKEN), Some(&body));
        assert_eq!(id.status, 200, "data id: {}", id.body);
        let data_id = id.json()["handleId"].as_u64().expect("data id handle");
        let fetched = self.http(
            "GET",
            &format!("/appendable-data/handle/{data_id}"),
            Some(TOKEN),
            None,
        );
        assert_eq!(fetched.status, 200, "fetch: {}", fetched.body);
        fetched.json()
    }

    /// A fresh handle on what the network holds for demo handle `demo`'s data.
    pub fn fresh_handle(&self, demo: u64) -> u64 {
        self.fetch(demo)["handleId"].as_u64().expect("fresh handle")
    }

    /// What the network holds for demo handle `demo`'s data, as (version, data, deleted), read
    /// through a fresh handle.
    pub fn network(&self, demo: u64) -> (u64, u64, u64) {
        counts(&self.fetch(demo))
    }

    /// A token from `POST /auth` that carries exactly these permissions.
    pub fn token_with(&self, permissions: &str) -> String {
        let body = format!(
            r#"{{"app":{{"name":"scenario","id":"scenario.id","version":"1","vendor":"v"}},"permissions":{permissions}}}"#
        );
        let answer = self.http("POST", "/auth", None, Some(&body));
        assert_eq!(answer.status, 200, "POST /auth: {}", answer.body);
        answer.json()["token"]
            .as_str()
            .expect("token in answer")
            .to_owned()
    }

    /// Stops it with SIGTERM (exit 0 expected) and returns its log with the totals line (an
    /// emulator from [`Emulator::start_tallied`]).
    pub fn stop(mut self) -> (Totals, EmulatorLog) {
        let status = Command::new("kill")
            .args(["-s", "TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -TERM failed");
        let status = wait_with_deadline(&mut self.child, Duration::from_secs(10))
            .expect("the emulator stops on SIGTERM");
        assert_eq!(status.code(), Some(0), "emulator exit status");
        let Log::Tally(thread) = &mut self.log else {
            panic!("stop needs an emulator from Emulator::start_tallied");
        };
        let log = thread
            .take()
            .expect("log thread")
            .join()
            .expect("log thread ends");
        let totals = log
            .totals
            .unwrap_or_else(|| panic!("no totals line on stop; log begins:\n{}", log.head));
        (totals, log)
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Appends everything read from `stderr` to a shared string, on a thread.
fn keep_text(mut stderr: impl Read + Send + 'static) -> Arc<Mutex<String>> {
    let log = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&log);
    std::thread::spawn(move || {
        let mut buffer = [0u8; 8192];
        while let Ok(n @ 1..) = stderr.read(&mut buffer) {
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buffer[..n]));
        }
    });
    log
}

/// A status and body the emulator answered with.
pub struct Resp {
    pub status: u16,
    pub body: String,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// `(version, data, deleted)` of a metadata object or a fetched handle (`version`,
/// `dataLength`, `deletedDataLength`).
pub fn counts(metadata: &Value) -> (u64, u64, u64) {
    let number = |key: &str| metadata[key].as_u64().unwrap_or_else(|| panic!("{key}"));
    (
        number("version"),
        number("dataLength"),
        number("deletedDataLength"),
    )
}

/// Waits for `child` to exit, at most `limit`; kills it and returns `None` when it does not.
pub fn wait_with_deadline(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The emulator's closing line, as numbers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub requests: u64,
    pub answered_2xx: u64,
    pub answered_4xx: u64,
    pub injected_503: u64,
    pub dropped: u64,
    pub delayed: u64,
}

impl Totals {
    /// Parses `... requests: N, answered 2xx: A, 4xx: B, injected 503: C, dropped: D, delayed: E`.
    pub fn parse(line: &str) -> Option<Totals> {
        let rest = &line[line.find("requests: ")?..];
        let mut numbers = rest.split(", ").map(|part| {
            part.rsplit(": ")
                .next()
                .and_then(|n| n.trim().parse::<u64>().ok())
        });
        let names: Vec<&str> = rest
            .split(", ")
            .map(|part| part.rsplit_once(": ").map_or("", |(name, _)| name))
            .collect();
        if names
            != [
                "requests",
                "answered 2xx",
                "4xx",
                "injected 503",
                "dropped",
                "delayed",
            ]
        {
            return None;
        }
        Some(Totals {
            requests: numbers.next()??,
            answered_2xx: numbers.next()??,
            answered_4xx: numbers.next()??,
            injected_503: numbers.next()??,
            dropped: numbers.next()??,
            delayed: numbers.next()??,
        })
    }
}

/// What the emulator wrote on stderr, tallied line by line (the log can be long).
#[derive(Debug, Default)]
pub struct EmulatorLog {
    /// The first lines, for failure messages.
    pub head: String,
    pub injected_503: u64,
    pub dropped: u64,
    pub delayed: u64,
    /// The log said it had to drop lines (stderr not read fast enough).
    pub lost_lines: bool,
    pub totals: Option<Totals>,
}

impl EmulatorLog {
    /// Reads `stderr` to its end, tallying the fault lines and keeping the totals line.
    fn read(stderr: impl Read) -> EmulatorLog {
        let mut log = EmulatorLog::default();
        for (count, line) in BufReader::new(stderr).lines().enumerate() {
            let Ok(line) = line else { break };
            if count < 40 {
                log.head.push_str(&line);
                log.head.push('\n');
            }
            if line.ends_with(" (injected)") || line.contains(" (injected) ") {
                if line.contains(" 503 (injected)") {
                    log.injected_503 += 1;
                } else if line.contains(" dropped (injected)") {
                    log.dropped += 1;
                } else if line.contains(" delayed ") {
                    log.delayed += 1;
                }
            } else if line.contains("log line(s) dropped") {
                log.lost_lines = true;
            } else if line.starts_with("safe-ad emulator: requests: ") {
                log.totals = Totals::parse(&line);
            }
        }
        log
    }
}
