//! Shared test harness: a hermetic `safe-ad` command and a launcher stand-in on loopback.
//!
//! Every command starts from an empty environment, with its own config directory and HOME, so
//! nothing from the developer's machine (tokens, proxies, config) leaks into a test.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;
use wiremock::matchers::{any, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[cfg(feature = "emulator")]
pub mod emulator;

/// A token that is easy to spot in output: if any 8-character piece of it shows up, it leaked.
pub const TOKEN: &str = "tok3n.Zq8vWmXr4LpKd2Nf.s1gnatur3Hb7Yc";

/// A test's private home: config dir, HOME, scratch files.
pub struct Sandbox {
    pub dir: TempDir,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        Sandbox {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn config_dir(&self) -> PathBuf {
        self.dir.path().join("config")
    }

    /// Writes `config.json` with the given text (mode 0600).
    pub fn write_config(&self, text: &str) -> PathBuf {
        let dir = self.config_dir();
        std::fs::create_dir_all(&dir).expect("config dir");
        let path = dir.join("config.json");
        std::fs::write(&path, text).expect("config file");
        set_mode(&path, 0o600);
        path
    }

    /// Writes a scratch file and returns its path.
    pub fn file(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, contents).expect("scratch file");
        path
    }

    /// `safe-ad` with an empty environment but for HOME and SAFE_AD_CONFIG_DIR.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::from_std(self.std_cmd());
        cmd.timeout(std::time::Duration::from_secs(30));
        cmd
    }

    /// The same as `cmd`, as a plain process command, for tests that signal or stream.
    pub fn std_cmd(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("safe-ad"));
        cmd.env_clear()
            .env("HOME", self.dir.path())
            .env("SAFE_AD_CONFIG_DIR", self.config_dir());
        cmd
    }

    /// `safe-ad` pointed at `url` with the test token in the env.
    pub fn cmd_at(&self, url: &str) -> Command {
        let mut cmd = self.cmd();
        cmd.env("SAFE_LAUNCHER_URL", url)
            .env("SAFE_LAUNCHER_TOKEN", TOKEN);
        cmd
    }
}

pub fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// A launcher stand-in that answers 200 `OK` to the four operations with the test token.
pub async fn ok_launcher() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(header("authorization", format!("Bearer {TOKEN}").as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .mount(&server)
        .await;
    server
}

/// A launcher stand-in that answers 200 `OK` to anything, so what it received can be inspected.
pub async fn any_ok_launcher() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .mount(&server)
        .await;
    server
}

/// A launcher stand-in that answers 200 to anything, but only after `delay`.
pub async fn slow_launcher(delay: std::time::Duration) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_delay(delay))
        .mount(&server)
        .await;
    server
}

/// How many requests `server` has received.
pub async fn request_count(server: &MockServer) -> usize {
    server.received_requests().await.unwrap_or_default().len()
}

/// The path of every request `server` has received, in order.
pub async fn received_paths(server: &MockServer) -> Vec<String> {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|r| r.url.path().to_owned())
        .collect()
}

/// Waits (up to 5 s) until `server` has received a request: the child is then mid-request.
pub async fn wait_for_a_request(server: &MockServer) {
    for _ in 0..100 {
        if !server
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Sends SIGINT (what Ctrl-C sends) to a child process.
pub fn interrupt(child: &std::process::Child) {
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -INT failed");
}

/// A launcher stand-in that answers every request with `status` and a JSON error body.
pub async fn error_launcher(status: u16, body: &str) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(status).set_body_raw(body.to_string(), "application/json"),
        )
        .mount(&server)
        .await;
    server
}

/// Mounts a mock for exactly one method and path, expected `times` times.
pub async fn expect(server: &MockServer, verb: &str, route: &str, times: u64) {
    Mock::given(method(verb))
        .and(path(route))
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .expect(times)
        .mount(server)
        .await;
}

/// A loopback address where nothing listens (bound, then closed).
pub fn closed_port_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

/// Fails if the token, or any 8-character piece of it, appears in `text`.
pub fn assert_no_token(text: &str) {
    let chars: Vec<char> = TOKEN.chars().collect();
    for window in chars.windows(8) {
        let piece: String = window.iter().collect();
        assert!(
            !text.contains(&piece),
            "token piece {piece:?} leaked into output:\n{text}"
        );
    }
}

/// stdout and stderr of a finished command, as text.
pub fn output_text(output: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A byte-level server on loopback: answers every connection with `response` as it is, then
/// closes it. Returns its base URL; the listener thread lives as long as the test process.
pub fn raw_server(response: &'static [u8]) -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let _ = stream.write_all(response);
        }
    });
    url
}
