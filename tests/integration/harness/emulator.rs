//! The real `safe-ad emulator` binary as a test fixture: one process per test on its own free
//! loopback port, killed when dropped; [`Emulator::start`] has it accept [`TOKEN`]. Its stderr
//! (banner and request log) is kept whole: [`Emulator::wait_log`], [`Emulator::requests`],
//! [`Emulator::stop`]. Started with `--user NAME` flags, it serves each user on a port of its
//! own: [`Emulator::user`] gives one's URL and token, read from the variables it prints.

use std::cell::Cell;
use std::net::SocketAddr;

use serde_json::Value;

use super::http::{request, send, token_with, Resp};
use super::{Output, Running, SafeAd, TOKEN};

/// The kinds of handle as the emulator's `/_emulator/handles` lists them, and as safe-ad names
/// them (`left_behind`, `show`).
pub const HANDLE_KINDS: [(&str, &str); 8] = [
    ("appendableData", "appendable-data"),
    ("structuredData", "structured-data"),
    ("dataId", "data-id"),
    ("signKey", "sign-key"),
    ("encryptKey", "encrypt-key"),
    ("cipherOpts", "cipher-opts"),
    ("immutableDataWriter", "immutable-data-writer"),
    ("immutableDataReader", "immutable-data-reader"),
];

/// A `safe-ad emulator` process on a free loopback port.
pub struct Emulator {
    running: Running,
    pub url: String,
    address: SocketAddr,
    /// The token it printed.
    pub token: String,
    /// Its named users (`--user`), the first user's first; none without.
    pub users: Vec<User>,
    /// Markers sent by [`Emulator::requests`] so far.
    markers: Cell<u32>,
}

/// One named user of an emulator started with `--user NAME`: its launcher's URL and the token
/// it was started with, as `SAFE_AD_EMULATOR_USER_<NAME>_URL` and `..._TOKEN` said.
pub struct User {
    pub name: String,
    pub url: String,
    address: SocketAddr,
    pub token: String,
}

impl User {
    /// One request to this user's launcher on a fresh connection, with its token, and
    /// `Content-Type: application/json` when there is a body.
    pub fn http(&self, method: &str, path: &str, body: Option<&str>) -> Resp {
        let body = body.map(|body| ("application/json", body.as_bytes()));
        request(self.address, method, path, Some(&self.token), body)
    }

    /// One request with a body of its own type (`("application/octet-stream", bytes)`).
    pub fn send(&self, method: &str, path: &str, body: (&str, &[u8])) -> Resp {
        request(self.address, method, path, Some(&self.token), Some(body))
    }

    /// safe-ad in `sandbox`, pointed at this user's launcher with its token.
    pub fn safe_ad(&self, sandbox: &super::Sandbox) -> SafeAd {
        sandbox
            .safe_ad()
            .env("SAFE_LAUNCHER_URL", &self.url)
            .env("SAFE_LAUNCHER_TOKEN", &self.token)
    }
}

/// The loopback address of a URL the emulator printed.
fn loopback(url: &str) -> SocketAddr {
    url.strip_prefix("http://127.0.0.1:")
        .and_then(|port| port.parse::<u16>().ok())
        .map(|port| SocketAddr::from(([127, 0, 0, 1], port)))
        .unwrap_or_else(|| panic!("not a loopback URL with a port: {url}"))
}

/// How many users the flags name (`--user NAME` each).
fn users_named(flags: &[&str]) -> usize {
    flags.iter().filter(|flag| **flag == "--user").count()
}

impl Emulator {
    /// Starts `safe-ad emulator --listen 127.0.0.1:0 --token TOKEN` with the given extra flags,
    /// and reads the two lines it prints once it is ready.
    pub fn start(flags: &[&str]) -> Emulator {
        let emulator = Emulator::spawn_users(
            SafeAd::new()
                .args(["emulator", "--listen", "127.0.0.1:0", "--token", TOKEN])
                .args(flags)
                .token_may_show(),
            users_named(flags),
        );
        assert_eq!(emulator.token, TOKEN);
        emulator
    }

    /// Starts `safe_ad`, whose arguments run the emulator on a loopback address, and reads the
    /// two lines it prints once it is ready: `SAFE_LAUNCHER_URL=` and `SAFE_LAUNCHER_TOKEN=`.
    pub fn spawn(safe_ad: SafeAd) -> Emulator {
        Emulator::spawn_users(safe_ad, 0)
    }

    /// [`Emulator::spawn`] for an emulator that serves `users` named users: it reads their
    /// variables too, the two lines of each after the first two.
    pub fn spawn_users(safe_ad: SafeAd, users: usize) -> Emulator {
        let mut running = safe_ad.spawn();
        let url_line = running.line();
        let token_line = running.line();
        let url = url_line
            .strip_prefix("SAFE_LAUNCHER_URL=")
            .unwrap_or_else(|| panic!("first line: {url_line:?}"))
            .to_owned();
        let token = token_line
            .strip_prefix("SAFE_LAUNCHER_TOKEN=")
            .unwrap_or_else(|| panic!("second line: {token_line:?}"))
            .to_owned();
        let address = loopback(&url);
        let users = (0..users)
            .map(|_| {
                let (url_line, token_line) = (running.line(), running.line());
                let (variable, url) = url_line.split_once('=').expect("NAME=VALUE");
                let name = variable
                    .strip_prefix("SAFE_AD_EMULATOR_USER_")
                    .and_then(|rest| rest.strip_suffix("_URL"))
                    .unwrap_or_else(|| panic!("a user's URL line: {url_line:?}"))
                    .to_ascii_lowercase();
                let token = token_line
                    .strip_prefix(&format!("{}_TOKEN=", variable.trim_end_matches("_URL")))
                    .unwrap_or_else(|| panic!("{name}'s token line: {token_line:?}"));
                User {
                    address: loopback(url),
                    url: url.to_owned(),
                    token: token.to_owned(),
                    name,
                }
            })
            .collect();
        Emulator {
            running,
            url,
            address,
            token,
            users,
            markers: Cell::new(0),
        }
    }

    /// Its user `name` (`--user name`).
    #[track_caller]
    pub fn user(&self, name: &str) -> &User {
        self.users
            .iter()
            .find(|user| user.name == name)
            .unwrap_or_else(|| panic!("no user {name} among {:?}", self.users.len()))
    }

    /// Waits until the log contains `needle`, and returns the log.
    #[track_caller]
    pub fn wait_log(&self, needle: &str) -> String {
        self.running.wait_for_stderr(needle)
    }

    /// Every request the emulator has answered, as `METHOD /path STATUS` (without the error
    /// code and description a 4xx or 5xx line carries), in the order it answered them; complete
    /// for every client that has exited. The proof: a request of the test's own, sent now, is
    /// answered and logged after them.
    #[track_caller]
    pub fn requests(&self) -> Vec<String> {
        let n = self.markers.get() + 1;
        self.markers.set(n);
        let marker = format!("/safe-ad-test-marker/{n}");
        send(self.address, "GET", &marker, &[], None);
        let log = self.wait_log(&format!("GET {marker} "));
        let (before, _) = log
            .split_once(&format!("GET {marker} "))
            .expect("the marker is logged");
        before
            .lines()
            .filter(|line| {
                ["GET /", "PUT /", "POST /", "DELETE /"]
                    .iter()
                    .any(|verb| line.starts_with(verb))
                    && !line.starts_with("GET /safe-ad-test-marker/")
            })
            .map(|line| {
                let words: Vec<&str> = line.splitn(4, ' ').collect();
                match words[..] {
                    [method, path, status, ..] if status.parse::<u16>().is_ok() => {
                        format!("{method} {path} {status}")
                    }
                    _ => line
                        .rsplit_once(' ')
                        .map_or(line, |(request, _time)| request)
                        .to_owned(),
                }
            })
            .collect()
    }

    /// How many handles of every kind it holds now, as its `/_emulator/handles` lists them.
    pub fn handles_held(&self) -> usize {
        self.handles_since(0).len()
    }

    /// The number the next handle it makes will have: every handle made from now on is at least
    /// this (the emulator numbers handles of every kind from one counter).
    pub fn next_handle(&self) -> u64 {
        let handles = self.http("GET", "/_emulator/handles", Some(TOKEN), None);
        handles.json()["nextHandle"].as_u64().expect("nextHandle")
    }

    /// Every handle it holds numbered `first` or above, as `(kind, handle)` with the kind as
    /// safe-ad names it ([`HANDLE_KINDS`]).
    pub fn handles_since(&self, first: u64) -> Vec<(&'static str, u64)> {
        let handles = self
            .http("GET", "/_emulator/handles", Some(TOKEN), None)
            .json();
        let mut held = Vec::new();
        for (key, kind) in HANDLE_KINDS {
            for entry in handles[key].as_array().map_or(&[][..], Vec::as_slice) {
                let handle = entry["handle"].as_u64().expect("a handle number");
                if handle >= first {
                    held.push((kind, handle));
                }
            }
        }
        held
    }

    /// Its loopback address.
    pub fn addr(&self) -> SocketAddr {
        self.address
    }

    /// The live handles of each kind now (`{"appendable_data": N, "data_id": N, ...}`), after
    /// every request answered so far; read from the `--log FILE` it was started with. The proof
    /// that the count is current: a request of the test's own, sent now, is logged with it.
    #[track_caller]
    pub fn live_handles(&self, log: &std::path::Path) -> Value {
        let n = self.markers.get() + 1;
        self.markers.set(n);
        let marker = format!("/safe-ad-test-marker/{n}");
        send(self.address, "GET", &marker, &[], None);
        let needle = format!("\"path\":\"{marker}\"");
        let deadline = std::time::Instant::now() + super::DEADLINE;
        loop {
            let text = std::fs::read_to_string(log).unwrap_or_default();
            // Only a whole line: the emulator may be half way through writing it.
            if let Some(line) = text
                .split_inclusive('\n')
                .filter_map(|line| line.strip_suffix('\n'))
                .find(|line| line.contains(&needle))
            {
                let record: Value = serde_json::from_str(line).expect("a JSON log record");
                return record["handles"].clone();
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the emulator's --log {} never recorded {marker}",
                log.display()
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
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

    /// One request on a fresh connection, with `Authorization: Bearer <token>` when a token is
    /// given and `Content-Type: application/json` when there is a body.
    pub fn http(&self, method: &str, path: &str, token: Option<&str>, body: Option<&str>) -> Resp {
        let body = body.map(|body| ("application/json", body.as_bytes()));
        request(self.address, method, path, token, body)
    }

    /// What the network holds for demo handle `demo`'s data, fetched into a fresh handle
    /// (`POST /data-id/appendable-data`, `GET /appendable-data/handle/:dataIdHandle`): the answer
    /// to the GET, which carries the new handle and its counts.
    fn fetch(&self, demo: u64) -> Value {
        let fetched = self.fetch_named(&self.demo_name(demo));
        assert_eq!(fetched.status, 200, "fetch: {}", fetched.body);
        fetched.json()
    }

    /// The answer to a fetch of the public appendable data named `name` (base64) through a
    /// data id of its name: 200 with a fresh handle when the network holds it.
    pub fn fetch_named(&self, name: &str) -> Resp {
        let body = format!(r#"{{"name":"{name}"}}"#);
        let id = self.http("POST", "/data-id/appendable-data", Some(TOKEN), Some(&body));
        assert_eq!(id.status, 200, "data id: {}", id.body);
        let data_id = id.json()["handleId"].as_u64().expect("data id handle");
        self.http(
            "GET",
            &format!("/appendable-data/handle/{data_id}"),
            Some(TOKEN),
            None,
        )
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
        token_with(self.address, permissions)
    }

    /// Stops it with SIGTERM (exit 0 expected) and returns its log, tallied, with the totals line.
    #[track_caller]
    pub fn stop(self) -> (Totals, EmulatorLog) {
        let output = self.terminate();
        output.code(0);
        let log = EmulatorLog::tally(output.stderr());
        let totals = log
            .totals
            .unwrap_or_else(|| panic!("no totals line on stop; log begins:\n{}", log.head));
        (totals, log)
    }

    /// Sends SIGTERM once it handles it, and waits for it to end: its output.
    #[track_caller]
    pub fn terminate(self) -> Output {
        self.running.terminate();
        self.running.wait()
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.running.pid()
    }

    /// Sends signal `name` (`HUP`, `INT`, `TERM`) once it handles it (see [`super::signal`]).
    #[track_caller]
    pub fn signal(&self, name: &str) {
        super::signal(self.running.pid(), name);
    }

    /// Waits for it to end (failing after the deadline): its output.
    #[track_caller]
    pub fn wait(self) -> Output {
        self.running.wait()
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

/// What the emulator wrote on stderr, tallied line by line.
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
    /// Tallies the fault lines and keeps the totals line.
    fn tally(text: &str) -> EmulatorLog {
        let mut log = EmulatorLog::default();
        for (count, line) in text.lines().enumerate() {
            if count < 40 {
                log.head.push_str(line);
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
                log.totals = Totals::parse(line);
            }
        }
        log
    }
}

impl Emulator {
    /// Starts `safe-ad emulator --listen 127.0.0.1:0 --token TOKEN` with `flags` in `sandbox`
    /// (for files the test keeps there), and reads the two lines it prints once it is ready.
    pub fn start_in(sandbox: &super::Sandbox, flags: &[&str]) -> Emulator {
        Emulator::spawn_users(
            sandbox
                .safe_ad()
                .args(["emulator", "--listen", "127.0.0.1:0", "--token", TOKEN])
                .args(flags)
                .token_may_show(),
            users_named(flags),
        )
    }
}

/// `safe-ad emulator --listen 127.0.0.1:0` in `sandbox`, with the system's programs on PATH (for
/// a `-- COMMAND`), for a run that ends by itself or that the test watches; add the rest.
pub fn emulator_command(sandbox: &super::Sandbox) -> SafeAd {
    sandbox
        .safe_ad()
        .env("PATH", "/usr/bin:/bin")
        .args(["emulator", "--listen", "127.0.0.1:0"])
}

/// A path as a command-line argument (the sandbox's paths are UTF-8).
pub fn path_arg(path: &std::path::Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The names of the appendable data in a saved `--state` file, in its order.
#[track_caller]
pub fn saved_names(state: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(state).expect("the state file");
    let saved: Value = serde_json::from_str(&text).expect("the state file is JSON");
    saved["appendableData"]
        .as_array()
        .expect("appendableData")
        .iter()
        .map(|ad| ad["name"].as_str().expect("name").to_owned())
        .collect()
}

impl Emulator {
    /// Creates an appendable data named `name` (base64) with the test token and saves it (`PUT`);
    /// its handle.
    #[track_caller]
    pub fn save_new(&self, name: &str) -> u64 {
        let body = format!(r#"{{"name":"{name}"}}"#);
        let handle = self
            .http("POST", "/appendable-data", Some(TOKEN), Some(&body))
            .handle();
        let path = format!("/appendable-data/{handle}");
        self.http("PUT", &path, Some(TOKEN), None).ok();
        handle
    }
}

/// The most handles live at once above `base`, in the log records from `from_line` on: of each
/// kind, and of all kinds together (`"all"`).
pub fn most_held(log: &std::path::Path, from_line: usize, base: &Value) -> Value {
    let text = std::fs::read_to_string(log).expect("log");
    let mut most = serde_json::json!({"all": 0});
    for line in text.lines().skip(from_line) {
        let record: Value = serde_json::from_str(line).expect("a record");
        let mut all = 0;
        for (kind, count) in record["handles"].as_object().expect("handles") {
            let above = count.as_i64().unwrap_or(0) - base[kind].as_i64().unwrap_or(0);
            all += above;
            if above > most[kind].as_i64().unwrap_or(0) {
                most[kind] = serde_json::json!(above);
            }
        }
        if all > most["all"].as_i64().unwrap_or(0) {
            most["all"] = serde_json::json!(all);
        }
    }
    most
}
