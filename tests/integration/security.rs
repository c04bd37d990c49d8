//! The token's safety: plain http only to this machine, no proxy between safe-ad and a local
//! launcher, the token in no output whatever goes wrong, and no Debug that shows it.
//!
//! No test here sends anything off this machine: the remote URLs used are only ever ones that
//! safe-ad must refuse before it connects or looks a name up.

use std::net::TcpListener;
use std::process::Output;
use std::time::{Duration, Instant};

use crate::harness::*;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const ENV_URL: &str = "SAFE_LAUNCHER_URL";
const ENV_TOKEN: &str = "SAFE_LAUNCHER_TOKEN";

/// A server on a listener the test bound itself (another loopback address, or IPv6).
async fn any_ok_server_on(listener: TcpListener) -> MockServer {
    let server = MockServer::builder().listener(listener).start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .mount(&server)
        .await;
    server
}

async fn received(server: &MockServer) -> Vec<Request> {
    server.received_requests().await.unwrap_or_default()
}

fn run(cmd: &mut assert_cmd::Command) -> Output {
    cmd.output().expect("safe-ad runs")
}

fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

// ---------------------------------------------------------------------------------------------
// Plain http only to this machine

#[test]
fn plain_http_to_another_host_is_refused_at_once() {
    // Reserved names and documentation addresses: nothing real answers there, and safe-ad must
    // not even try. (URL, how the refusal shows it.)
    let remote = [
        (
            "http://launcher.invalid:8100",
            "http://launcher.invalid:8100",
        ),
        (
            "http://localhost.invalid:8100/",
            "http://localhost.invalid:8100",
        ),
        ("http://127.0.0.1.invalid", "http://127.0.0.1.invalid"),
        ("http://192.0.2.1:8100", "http://192.0.2.1:8100"),
        (
            "http://198.51.100.7:8100/0.6",
            "http://198.51.100.7:8100/0.6",
        ),
        ("http://[2001:db8::1]:8100", "http://[2001:db8::1]:8100"),
        (
            "http://[::ffff:192.0.2.1]:8100",
            "http://[::ffff:c000:201]:8100",
        ),
    ];
    for (url, shown) in remote {
        let sandbox = Sandbox::new();
        let path = sandbox.write_config(&format!(r#"{{"launcher_url": "{url}"}}"#));
        for source in ["--launcher-url", "SAFE_LAUNCHER_URL", "config file"] {
            let mut cmd = sandbox.cmd();
            cmd.env(ENV_TOKEN, TOKEN);
            match source {
                "--launcher-url" => cmd.args(["--launcher-url", url]),
                "SAFE_LAUNCHER_URL" => cmd.env(ENV_URL, url),
                _ => &mut cmd, // the config file written above
            };
            let started = Instant::now();
            let out = run(cmd.args(["put", "1"]));
            let elapsed = started.elapsed();
            let stderr = stderr_of(&out);
            assert_eq!(out.status.code(), Some(2), "{url} from {source}: {stderr}");
            assert!(out.stdout.is_empty());
            for word in [
                "refusing",
                "clear text",
                shown,
                source,
                "--allow-insecure-http",
            ] {
                assert!(
                    stderr.contains(word),
                    "{url} from {source}: lacks {word:?}: {stderr}"
                );
            }
            if source == "config file" {
                assert!(stderr.contains(&path.display().to_string()), "{stderr}");
            }
            assert!(
                elapsed < Duration::from_millis(750),
                "{url} from {source}: refusal took {elapsed:?}"
            );
            assert_no_token(&output_text(&out));
        }
    }
}

/// Whether a connection to 0.0.0.0 reaches a listener on 127.0.0.1 (it does on Linux).
fn zero_address_reaches_loopback() -> bool {
    let probe = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = probe.local_addr().expect("addr").port();
    std::net::TcpStream::connect_timeout(
        &std::net::SocketAddr::from(([0, 0, 0, 0], port)),
        Duration::from_secs(1),
    )
    .is_ok()
}

/// 0.0.0.0 is not loopback by name, yet a connection to it stays on this machine (it reaches
/// 127.0.0.1 on Linux and macOS). That makes the refusal observable without sending anything
/// off the machine: the server behind it must see nothing, until --allow-insecure-http.
#[tokio::test]
async fn the_refusal_comes_before_connecting() {
    if !zero_address_reaches_loopback() {
        eprintln!("note: skipped: connecting to 0.0.0.0 does not reach loopback here");
        return;
    }

    let server = any_ok_launcher().await;
    let url = format!("http://0.0.0.0:{}", server.address().port());
    let sandbox = Sandbox::new();
    let out = run(sandbox.cmd_at(&url).args(["put", "1", "2"]));
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("--allow-insecure-http"));
    assert!(
        received(&server).await.is_empty(),
        "a refused launcher was contacted"
    );
    // That --allow-insecure-http lifts the refusal is shown through a proxy below
    // (proxy_env_vars_are_used_for_other_hosts), so no test connects to 0.0.0.0 on purpose.
}

#[tokio::test]
async fn loopback_urls_need_no_flag() {
    let server = any_ok_launcher().await;
    let port = server.address().port();
    let urls = [
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
        format!("http://LocalHost:{port}/"),
    ];
    let sandbox = Sandbox::new();
    for url in &urls {
        let out = run(sandbox.cmd_at(url).args(["put", "1"]));
        assert_eq!(out.status.code(), Some(0), "{url}: {}", stderr_of(&out));
    }
    assert_eq!(received(&server).await.len(), urls.len());

    // Elsewhere in 127.0.0.0/8, and IPv6 loopback, where this machine has them.
    let mut others = Vec::new();
    for address in ["127.0.0.2:0", "[::1]:0"] {
        match TcpListener::bind(address) {
            Ok(listener) => others.push(any_ok_server_on(listener).await),
            Err(e) => eprintln!("note: skipped {address}: cannot bind ({e})"),
        }
    }
    for other in &others {
        let url = other.uri();
        let out = run(sandbox.cmd_at(&url).args(["post", "2"]));
        assert_eq!(out.status.code(), Some(0), "{url}: {}", stderr_of(&out));
        assert_eq!(received(other).await.len(), 1, "{url}");
    }
}

// ---------------------------------------------------------------------------------------------
// Proxies

#[tokio::test]
async fn proxy_env_vars_are_ignored_for_a_loopback_launcher() {
    let launcher = ok_launcher().await;
    let proxy = any_ok_launcher().await;
    let port = launcher.address().port();
    let sandbox = Sandbox::new();
    for url in [
        launcher.uri(),
        format!("http://localhost:{port}"),
        format!("http://127.0.0.1:{port}/"),
    ] {
        let out = run(sandbox
            .cmd_at(&url)
            .env("HTTP_PROXY", proxy.uri())
            .env("http_proxy", proxy.uri())
            .env("HTTPS_PROXY", proxy.uri())
            .env("https_proxy", proxy.uri())
            .env("ALL_PROXY", proxy.uri())
            .env("all_proxy", proxy.uri())
            .args(["put", "1"]));
        assert_eq!(out.status.code(), Some(0), "{url}: {}", stderr_of(&out));
    }
    assert_eq!(received(&launcher).await.len(), 3);
    let seen: Vec<String> = received(&proxy)
        .await
        .iter()
        .map(|r| format!("{} {}", r.method, r.url))
        .collect();
    assert!(seen.is_empty(), "the proxy saw {seen:?}");
}

/// The other side of the rule: for a host that is not loopback the proxy env vars are used. Shown
/// with 0.0.0.0 (not loopback by name, still this machine) so nothing leaves the machine.
#[tokio::test]
async fn proxy_env_vars_are_used_for_other_hosts() {
    if !zero_address_reaches_loopback() {
        eprintln!("note: skipped: connecting to 0.0.0.0 does not reach loopback here");
        return;
    }
    let launcher = any_ok_launcher().await;
    let proxy = any_ok_launcher().await;
    let url = format!("http://0.0.0.0:{}", launcher.address().port());
    let out = run(Sandbox::new()
        .cmd_at(&url)
        .env("HTTP_PROXY", proxy.uri())
        .args(["--allow-insecure-http", "put", "1"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert!(received(&launcher).await.is_empty());
    let seen = received(&proxy).await;
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].url.path(), "/appendable-data/1");
}

// ---------------------------------------------------------------------------------------------
// Where the token goes

#[tokio::test]
async fn the_token_goes_only_in_the_authorization_header() {
    let server = any_ok_launcher().await;
    let out = run(Sandbox::new()
        .cmd_at(&format!("{}/0.6", server.uri()))
        .args(["post", "1", "2"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let requests = received(&server).await;
    assert_eq!(requests.len(), 2);
    for request in &requests {
        let mut elsewhere = format!("{}\n", request.url);
        for (name, value) in &request.headers {
            if name != "authorization" {
                elsewhere.push_str(&format!(
                    "{name}: {}\n",
                    String::from_utf8_lossy(value.as_bytes())
                ));
            }
        }
        elsewhere.push_str(&String::from_utf8_lossy(&request.body));
        assert_no_token(&elsewhere);
        assert_eq!(
            request
                .headers
                .get("authorization")
                .and_then(|v| v.to_str().ok()),
            Some(format!("Bearer {TOKEN}").as_str())
        );
    }
}

/// The first 8-character piece of the token found in `text`, as `assert_no_token` looks for, but
/// without panicking, so one run can list every scenario that leaks.
fn token_piece_in(text: &str) -> Option<String> {
    let chars: Vec<char> = TOKEN.chars().collect();
    chars
        .windows(8)
        .map(|window| window.iter().collect::<String>())
        .find(|piece| text.contains(piece))
}

/// Answers with `status` and a body (and for a redirect, a Location) that repeats the request's
/// Authorization header, as a careless launcher or a proxy error page might.
struct EchoAuthorization {
    status: u16,
    json: bool,
}

impl Respond for EchoAuthorization {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let auth = request
            .headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let response = ResponseTemplate::new(self.status);
        if (300..400).contains(&self.status) {
            let token = auth.trim_start_matches("Bearer ");
            return response.insert_header(
                "location",
                format!("http://127.0.0.1:1/login?token={token}").as_str(),
            );
        }
        if self.json {
            let body = serde_json::json!({
                "errorCode": -1,
                "description": format!("bad header: Authorization: {auth}"),
            });
            response.set_body_raw(body.to_string(), "application/json")
        } else {
            response.set_body_string(format!("rejected request with Authorization: {auth}"))
        }
    }
}

async fn echo_server(status: u16, json: bool) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(EchoAuthorization { status, json })
        .mount(&server)
        .await;
    server
}

/// Every kind of failure (each exit code 1 to 6, warnings and success too) with `TOKEN` as the
/// token: no piece of it may reach stdout or stderr. Collects all leaks before failing, so one
/// run names every scenario that leaks.
#[tokio::test]
async fn the_token_never_appears_in_any_output() {
    let ok = ok_launcher().await;
    let redirect = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(302)
                .insert_header("location", format!("{}/elsewhere", ok.uri()).as_str()),
        )
        .mount(&redirect)
        .await;
    let unauthorized = error_launcher(401, "Unauthorized").await;
    let forbidden = error_launcher(
        403,
        r#"{"errorCode":400,"description":"Low level api access is not granted"}"#,
    )
    .await;
    let rejected = error_launcher(
        400,
        r#"{"errorCode":-1515,"description":"FfiError::InvalidAppendableDataHandle"}"#,
    )
    .await;
    let failing = error_launcher(500, "internal error").await;
    let slow = slow_launcher(Duration::from_secs(10)).await;
    let odd_status = raw_server(b"HTTP/1.1 600 Odd\r\ncontent-length: 0\r\n\r\n");
    let cut_short = raw_server(b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nshort");
    let echo_401 = echo_server(401, false).await;
    let echo_400_json = echo_server(400, true).await;
    let echo_500 = echo_server(500, false).await;
    let echo_302 = echo_server(302, false).await;
    let refused = closed_port_url();

    let (front, back) = TOKEN.split_at(TOKEN.len() / 2);

    // (scenario, exit code, command)
    let mut scenarios: Vec<(&str, i32, assert_cmd::Command)> = Vec::new();
    let sandbox = Sandbox::new();
    let mut add = |name: &'static str, code: i32, cmd: assert_cmd::Command| {
        scenarios.push((name, code, cmd));
    };

    let mut cmd = sandbox.cmd_at(&ok.uri());
    cmd.args(["put", "1"]);
    add("success", 0, cmd);
    let mut cmd = sandbox.cmd_at(&ok.uri());
    cmd.args(["clear-data", "1"]);
    add("success with a note", 0, cmd);
    let mut cmd = sandbox.cmd_at(&redirect.uri());
    cmd.args(["put", "1"]);
    add("redirect", 1, cmd);
    let mut cmd = sandbox.cmd_at(&odd_status);
    cmd.args(["put", "1"]);
    add("status 600", 1, cmd);
    let mut cmd = sandbox.cmd_at(&ok.uri());
    cmd.args(["put", "-1"]);
    add("bad handle", 2, cmd);
    let mut cmd = sandbox.cmd_at("http://127.0.0.1:1/?x");
    cmd.args(["put", "1"]);
    add("bad URL", 2, cmd);
    let mut cmd = sandbox.cmd_at("http://192.0.2.1:8100");
    cmd.args(["put", "1"]);
    add("insecure http refused", 2, cmd);
    let mut cmd = sandbox.cmd_at(&ok.uri());
    cmd.args(["--timeout", "0", "put", "1"]);
    add("bad timeout", 2, cmd);
    let inner_space = sandbox.file("inner-space", format!("{TOKEN} {TOKEN}\n").as_bytes());
    let mut cmd = sandbox.cmd_at(&ok.uri());
    cmd.arg("--token-file").arg(&inner_space).args(["put", "1"]);
    add("token file with inner whitespace", 2, cmd);
    let inner_newline = sandbox.file("inner-newline", format!("{front}\n{back}\n").as_bytes());
    let mut cmd = sandbox.cmd_at(&ok.uri());
    cmd.arg("--token-file")
        .arg(&inner_newline)
        .args(["put", "1"]);
    add("token file split over two lines", 2, cmd);
    let mut cmd = sandbox.cmd_at(&ok.uri());
    cmd.env(ENV_TOKEN, format!("{TOKEN}\u{1b}[0m"))
        .args(["put", "1"]);
    add("token env var with a control character", 2, cmd);
    let mut cmd = sandbox.cmd_at(&ok.uri());
    cmd.env(ENV_TOKEN, format!("{TOKEN}é")).args(["put", "1"]);
    add("token env var with non-ASCII", 2, cmd);
    let mut cmd = sandbox.cmd_at(&ok.uri());
    cmd.args(["--token-file", "-", "put", "1"])
        .write_stdin(format!("{TOKEN}\t{TOKEN}"));
    add("token on stdin with a tab", 2, cmd);
    let mut cmd = sandbox.cmd_at(&ok.uri());
    cmd.arg(format!("--token={TOKEN}")).args(["put", "1"]);
    add("--token=TOKEN (no such flag)", 2, cmd);
    let mut cmd = sandbox.cmd_at(&ok.uri());
    cmd.args(["--token", TOKEN, "put", "1"]);
    add("--token TOKEN (no such flag)", 2, cmd);
    let mut cmd = sandbox.cmd();
    cmd.env(ENV_URL, ok.uri()).args(["put", "1"]);
    add("no token", 3, cmd);
    let mut cmd = sandbox.cmd_at(&unauthorized.uri());
    cmd.args(["put", "1"]);
    add("401", 3, cmd);
    let mut cmd = sandbox.cmd_at(&forbidden.uri());
    cmd.args(["post", "1"]);
    add("403", 3, cmd);
    let mut cmd = sandbox.cmd_at(&rejected.uri());
    cmd.args(["clear-data", "1"]);
    add("400 JSON", 4, cmd);
    let mut cmd = sandbox.cmd_at(&failing.uri());
    cmd.args(["put", "1"]);
    add("500", 5, cmd);
    let mut cmd = sandbox.cmd_at(&refused);
    cmd.args(["put", "1"]);
    add("connection refused", 6, cmd);
    let mut cmd = sandbox.cmd_at(&slow.uri());
    cmd.args(["--timeout", "0.3", "clear-deleted-data", "1"]);
    add("timeout", 6, cmd);
    let mut cmd = sandbox.cmd_at(&cut_short);
    cmd.args(["put", "1"]);
    add("answer cut short", 6, cmd);
    let mut cmd = sandbox.cmd_at(&echo_401.uri());
    cmd.args(["put", "1"]);
    add("401 echoing the Authorization header", 3, cmd);
    let mut cmd = sandbox.cmd_at(&echo_400_json.uri());
    cmd.args(["post", "1"]);
    add("400 JSON echoing the Authorization header", 4, cmd);
    let mut cmd = sandbox.cmd_at(&echo_500.uri());
    cmd.args(["put", "1"]);
    add("500 echoing the Authorization header", 5, cmd);
    let mut cmd = sandbox.cmd_at(&echo_302.uri());
    cmd.args(["put", "1"]);
    add("302 echoing the token in Location", 1, cmd);

    // A config file that holds the token, readable by others: a warning, and the run goes on.
    let shared = Sandbox::new();
    let config = shared.write_config(&format!(r#"{{"token": "{TOKEN}"}}"#));
    set_mode(&config, 0o644);
    let mut cmd = shared.cmd();
    cmd.env(ENV_URL, ok.uri()).args(["put", "1"]);
    add("config file with the token at mode 0644", 0, cmd);
    let broken = Sandbox::new();
    broken.write_config(&format!("{{\"token\": \"{TOKEN}\",\n\"tokn\": 1}}"));
    let mut cmd = broken.cmd();
    cmd.env(ENV_URL, ok.uri()).args(["put", "1"]);
    add("bad config file holding the token", 2, cmd);
    let malformed = Sandbox::new();
    malformed.write_config(&format!("{{\"token\": \"{TOKEN}\" \"timeout_secs\": 1}}"));
    let mut cmd = malformed.cmd();
    cmd.env(ENV_URL, ok.uri()).args(["put", "1"]);
    add("malformed config file holding the token", 2, cmd);

    let mut outputs = Vec::new();
    let mut codes_seen = std::collections::BTreeSet::new();
    let mut problems = Vec::new();
    for (name, code, mut cmd) in scenarios {
        let out = cmd.output().expect("safe-ad runs");
        let text = output_text(&out);
        if out.status.code() != Some(code) {
            problems.push(format!(
                "{name}: exit {:?}, expected {code}:\n{text}",
                out.status.code()
            ));
        } else {
            codes_seen.insert(code);
        }
        if text.trim().is_empty() && code != 0 {
            problems.push(format!("{name}: printed nothing"));
        }
        if let Some(piece) = token_piece_in(&text) {
            problems.push(format!("{name}: the token leaked ({piece:?}):\n{text}"));
        }
        outputs.push(text);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    for text in &outputs {
        assert_no_token(text);
    }
    assert_eq!(
        codes_seen.into_iter().collect::<Vec<_>>(),
        [0, 1, 2, 3, 4, 5, 6]
    );
}

/// A user may put the token where a URL password goes (`http://:TOKEN@host`); the error that
/// refuses such a URL must not print it back.
#[test]
fn a_password_in_the_launcher_url_is_not_echoed() {
    for url in [
        format!("http://:{TOKEN}@127.0.0.1:8100"),
        format!("http://user:{TOKEN}@localhost:8100/0.6"),
        format!("http://{TOKEN}@127.0.0.1:8100"),
    ] {
        let sandbox = Sandbox::new();
        let out = run(sandbox.cmd().args(["--launcher-url", &url, "put", "1"]));
        assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
        assert!(stderr_of(&out).contains("user name or password"));
        assert_no_token(&output_text(&out));
    }
}

// ---------------------------------------------------------------------------------------------
// Debug output of the library's types

#[test]
fn debug_of_settings_and_config_does_not_show_the_token() {
    use safe_ad::cli::GlobalArgs;
    use safe_ad::settings::{resolve, Environment};

    let sandbox = Sandbox::new();
    let env = Environment {
        launcher_url: None,
        token: Some(TOKEN.into()),
        config_dir: Some(sandbox.config_dir().into_os_string()),
    };
    let settings = resolve(&GlobalArgs::default(), &env, &mut std::io::empty()).expect("resolves");
    assert_eq!(settings.token().expect("a token").expose(), TOKEN);
    let shown = format!("{settings:?} {settings:#?}");
    assert!(shown.contains("redacted"), "{shown}");
    assert_no_token(&shown);

    // From the config file, at a mode that adds a warning (which Debug also shows).
    let path = sandbox.write_config(&format!(r#"{{"token": "{TOKEN}"}}"#));
    set_mode(&path, 0o644);
    let env = Environment { token: None, ..env };
    let settings = resolve(&GlobalArgs::default(), &env, &mut std::io::empty()).expect("resolves");
    assert_eq!(settings.token().expect("a token").expose(), TOKEN);
    assert_eq!(settings.warnings.len(), 1);
    assert_no_token(&format!("{settings:?} {settings:#?}"));

    // From standard input.
    let args = GlobalArgs {
        token_file: Some("-".into()),
        ..GlobalArgs::default()
    };
    let mut stdin = format!("{TOKEN}\n").into_bytes();
    let settings = resolve(&args, &env, &mut stdin.as_slice()).expect("resolves");
    assert_eq!(settings.token().expect("a token").expose(), TOKEN);
    assert_no_token(&format!("{settings:?}"));

    // A refused token: the failure's Debug and Display name the problem, not the token.
    stdin = format!("{TOKEN} {TOKEN}").into_bytes();
    let failure = resolve(&args, &env, &mut stdin.as_slice()).expect_err("refused");
    assert_no_token(&format!("{failure:?} {failure}"));

    let secret = safe_ad::secret::Secret::parse(TOKEN).expect("valid");
    assert_no_token(&format!("{secret:?} {:?}", Some(&secret)));
    assert_no_token(&secret.mask());

    let config =
        safe_ad::config_file::parse(&format!(r#"{{"token": "{TOKEN}"}}"#)).expect("parses");
    assert_no_token(&format!("{config:?}"));
}
