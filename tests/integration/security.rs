//! The token's safety: plain http only to this machine, no proxy between safe-ad and a local
//! launcher, the token in no output whatever goes wrong, and no Debug that shows it.
//!
//! No test here sends anything off this machine: the remote URLs used are only ever ones that
//! safe-ad must refuse before it connects or looks a name up.

use std::net::TcpListener;
use std::time::Duration;

use crate::harness::*;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const ENV_URL: &str = "SAFE_LAUNCHER_URL";
const ENV_TOKEN: &str = "SAFE_LAUNCHER_TOKEN";
/// Every variable a proxy can be set with.
const PROXY_VARS: [&str; 6] = [
    "HTTP_PROXY",
    "http_proxy",
    "HTTPS_PROXY",
    "https_proxy",
    "ALL_PROXY",
    "all_proxy",
];

/// A server on a listener the test bound itself (another loopback address, or IPv6).
async fn any_ok_server_on(listener: TcpListener) -> MockServer {
    let server = MockServer::builder().listener(listener).start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .mount(&server)
        .await;
    server
}

// ---------------------------------------------------------------------------------------------
// Plain http only to this machine

/// Every run has all proxy variables pointing at a loopback listener. For a host that is not
/// loopback safe-ad goes through the proxy (see `proxy_env_vars_are_used_for_other_hosts`), so any
/// attempt to reach these launchers, a name lookup included, would be a connection to it.
#[test]
fn plain_http_to_another_host_is_refused_without_trying() {
    let proxy = RawLauncher::answering(OK_ANSWER);
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
            let mut safe_ad = sandbox
                .safe_ad()
                .env(ENV_TOKEN, TOKEN)
                .case(format!("{url} from {source}"));
            for proxy_var in PROXY_VARS {
                safe_ad = safe_ad.env(proxy_var, &proxy.url);
            }
            match source {
                "--launcher-url" => safe_ad = safe_ad.args(["--launcher-url", url]),
                "SAFE_LAUNCHER_URL" => safe_ad = safe_ad.env(ENV_URL, url),
                _ => {} // the config file written above
            };
            let out = safe_ad.args(["put", "1"]).run();
            out.code(2)
                .stdout_is("")
                .stderr_has("refusing")
                .stderr_has("clear text")
                .stderr_has(shown)
                .stderr_has(source)
                .stderr_has("--allow-insecure-http");
            if source == "config file" {
                out.stderr_has(&path.display().to_string());
            }
        }
    }
    // Every run has exited, so the count is final.
    assert_eq!(
        proxy.connections(),
        0,
        "safe-ad tried to reach a launcher it refused"
    );
}

/// Whether a connection to 0.0.0.0 reaches a listener on 127.0.0.1 (it does on Linux); where it
/// does not, the test is skipped (see [`skip`]).
#[track_caller]
fn zero_address_reaches_loopback() -> bool {
    let probe = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = probe.local_addr().expect("addr").port();
    let reaches = std::net::TcpStream::connect_timeout(
        &std::net::SocketAddr::from(([0, 0, 0, 0], port)),
        DEADLINE,
    )
    .is_ok();
    if !reaches {
        skip("connecting to 0.0.0.0 does not reach loopback here");
    }
    reaches
}

/// 0.0.0.0 is not loopback by name, yet a connection to it stays on this machine (it reaches
/// 127.0.0.1 on Linux and macOS). That makes the refusal observable without sending anything
/// off the machine: the server behind it must see nothing, until --allow-insecure-http.
#[tokio::test]
async fn the_refusal_comes_before_connecting() {
    if !zero_address_reaches_loopback() {
        return;
    }

    let server = any_ok_launcher().await;
    let url = format!("http://0.0.0.0:{}", server.address().port());
    SafeAd::new()
        .launcher(&url)
        .args(["put", "1", "2"])
        .run()
        .code(2)
        .stderr_has("--allow-insecure-http");
    assert_nothing_sent(&server, "a refused launcher").await;
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
        sandbox
            .safe_ad()
            .launcher(url)
            .args(["drop", "1"])
            .run()
            .success();
    }
    assert_eq!(received(&server).await.len(), urls.len());

    // Elsewhere in 127.0.0.0/8, and IPv6 loopback, where this machine has them.
    let mut others = Vec::new();
    for address in ["127.0.0.2:0", "[::1]:0"] {
        match TcpListener::bind(address) {
            Ok(listener) => others.push(any_ok_server_on(listener).await),
            Err(e) => skip(&format!("cannot bind {address} ({e})")),
        }
    }
    for other in &others {
        let url = other.uri();
        sandbox
            .safe_ad()
            .launcher(&url)
            .args(["drop", "2"])
            .run()
            .success();
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
        let mut safe_ad = sandbox.safe_ad().launcher(&url);
        for proxy_var in PROXY_VARS {
            safe_ad = safe_ad.env(proxy_var, proxy.uri());
        }
        safe_ad.args(["drop", "1"]).run().success();
    }
    assert_eq!(received(&launcher).await.len(), 3);
    assert_nothing_sent(&proxy, "the proxy").await;
}

/// The other side of the rule: for a host that is not loopback the proxy env vars are used. Shown
/// with 0.0.0.0 (not loopback by name, still this machine) so nothing leaves the machine.
#[tokio::test]
async fn proxy_env_vars_are_used_for_other_hosts() {
    if !zero_address_reaches_loopback() {
        return;
    }
    let launcher = any_ok_launcher().await;
    let proxy = any_ok_launcher().await;
    let url = format!("http://0.0.0.0:{}", launcher.address().port());
    SafeAd::new()
        .launcher(&url)
        .env("HTTP_PROXY", proxy.uri())
        .args(["--allow-insecure-http", "drop", "1"])
        .run()
        .success();
    assert_nothing_sent(&launcher, "the launcher behind the proxy").await;
    let seen = received(&proxy).await;
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].url.path(), "/appendable-data/handle/1");

    // NO_PROXY names the host: straight to the launcher, the proxy sees nothing more.
    SafeAd::new()
        .launcher(&url)
        .env("HTTP_PROXY", proxy.uri())
        .env("NO_PROXY", "0.0.0.0")
        .args(["--allow-insecure-http", "drop", "2"])
        .run()
        .success();
    assert_eq!(received(&proxy).await.len(), 1, "the proxy saw drop 2");
    let direct = received(&launcher).await;
    assert_eq!(direct.len(), 1);
    assert_eq!(direct[0].url.path(), "/appendable-data/handle/2");
}

// ---------------------------------------------------------------------------------------------
// Where the token goes

#[tokio::test]
async fn the_token_goes_only_in_the_authorization_header() {
    let server = any_ok_launcher().await;
    SafeAd::new()
        .launcher(&format!("{}/0.6", server.uri()))
        .args(["post", "1", "2"])
        .run()
        .success();
    // Two saves, and the two reads of the versions they saved: none carries it elsewhere.
    let requests = received(&server).await;
    assert_eq!(requests.len(), 4);
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
/// token: no piece of it may reach stdout or stderr (the builder checks each run, and names the
/// scenario that leaks). Wrong exit codes are collected, so one run names every such scenario.
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
    let odd_status = RawLauncher::answering(b"HTTP/1.1 600 Odd\r\ncontent-length: 0\r\n\r\n");
    let cut_short = RawLauncher::answering(b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nshort");
    let echo_401 = echo_server(401, false).await;
    let echo_400_json = echo_server(400, true).await;
    let echo_500 = echo_server(500, false).await;
    let echo_302 = echo_server(302, false).await;
    let refused = closed_port_url();

    let (front, back) = TOKEN.split_at(TOKEN.len() / 2);
    let sandbox = Sandbox::new();
    let at = |url: &str| sandbox.safe_ad().launcher(url);
    let inner_space = sandbox.file("inner-space", format!("{TOKEN} {TOKEN}\n"));
    let inner_newline = sandbox.file("inner-newline", format!("{front}\n{back}\n"));
    // A config file that holds the token, readable by others: a warning, and the run goes on.
    let shared = Sandbox::new();
    let config = shared.write_config(&format!(r#"{{"token": "{TOKEN}"}}"#));
    set_mode(&config, 0o644);
    let broken = Sandbox::new();
    broken.write_config(&format!("{{\"token\": \"{TOKEN}\",\n\"tokn\": 1}}"));
    let malformed = Sandbox::new();
    malformed.write_config(&format!("{{\"token\": \"{TOKEN}\" \"timeout_secs\": 1}}"));

    // (scenario, exit code, command)
    let scenarios: Vec<(&str, i32, SafeAd)> = vec![
        ("success", 0, at(&ok.uri()).args(["put", "1"])),
        (
            "success with a note",
            0,
            at(&ok.uri()).args(["clear-data", "1"]),
        ),
        ("redirect", 1, at(&redirect.uri()).args(["put", "1"])),
        ("status 600", 1, at(&odd_status.url).args(["put", "1"])),
        ("bad handle", 2, at(&ok.uri()).args(["put", "-1"])),
        ("bad URL", 2, at("http://127.0.0.1:1/?x").args(["put", "1"])),
        (
            "insecure http refused",
            2,
            at("http://192.0.2.1:8100").args(["put", "1"]),
        ),
        (
            "bad timeout",
            2,
            at(&ok.uri()).args(["--timeout", "0", "put", "1"]),
        ),
        (
            "token file with inner whitespace",
            2,
            at(&ok.uri())
                .arg("--token-file")
                .arg(&inner_space)
                .args(["put", "1"]),
        ),
        (
            "token file split over two lines",
            2,
            at(&ok.uri())
                .arg("--token-file")
                .arg(&inner_newline)
                .args(["put", "1"]),
        ),
        (
            "token env var with a control character",
            2,
            at(&ok.uri())
                .env(ENV_TOKEN, format!("{TOKEN}\u{1b}[0m"))
                .args(["put", "1"]),
        ),
        (
            "token env var with non-ASCII",
            2,
            at(&ok.uri())
                .env(ENV_TOKEN, format!("{TOKEN}é"))
                .args(["put", "1"]),
        ),
        (
            "token on stdin with a tab",
            2,
            at(&ok.uri())
                .args(["--token-file", "-", "put", "1"])
                .stdin(format!("{TOKEN}\t{TOKEN}")),
        ),
        (
            "--token=TOKEN (no such flag)",
            2,
            at(&ok.uri())
                .arg(format!("--token={TOKEN}"))
                .args(["put", "1"]),
        ),
        (
            "--token TOKEN (no such flag)",
            2,
            at(&ok.uri()).args(["--token", TOKEN, "put", "1"]),
        ),
        (
            "no token",
            3,
            sandbox.safe_ad().env(ENV_URL, ok.uri()).args(["put", "1"]),
        ),
        ("401", 3, at(&unauthorized.uri()).args(["put", "1"])),
        ("403", 3, at(&forbidden.uri()).args(["post", "1"])),
        ("400 JSON", 4, at(&rejected.uri()).args(["clear-data", "1"])),
        ("500", 5, at(&failing.uri()).args(["put", "1"])),
        ("connection refused", 6, at(&refused).args(["put", "1"])),
        (
            "timeout",
            6,
            at(&slow.uri()).args(["--timeout", "0.3", "clear-deleted-data", "1"]),
        ),
        ("answer cut short", 6, at(&cut_short.url).args(["put", "1"])),
        (
            "401 echoing the Authorization header",
            3,
            at(&echo_401.uri()).args(["put", "1"]),
        ),
        (
            "400 JSON echoing the Authorization header",
            4,
            at(&echo_400_json.uri()).args(["post", "1"]),
        ),
        (
            "500 echoing the Authorization header",
            5,
            at(&echo_500.uri()).args(["put", "1"]),
        ),
        (
            "302 echoing the token in Location",
            1,
            at(&echo_302.uri()).args(["put", "1"]),
        ),
        (
            "config file with the token at mode 0644",
            0,
            shared.safe_ad().env(ENV_URL, ok.uri()).args(["put", "1"]),
        ),
        (
            "bad config file holding the token",
            2,
            broken.safe_ad().env(ENV_URL, ok.uri()).args(["put", "1"]),
        ),
        (
            "malformed config file holding the token",
            2,
            malformed
                .safe_ad()
                .env(ENV_URL, ok.uri())
                .args(["put", "1"]),
        ),
    ];

    let mut codes_seen = std::collections::BTreeSet::new();
    let mut problems = Vec::new();
    for (name, code, safe_ad) in scenarios {
        let out = safe_ad.case(name).run();
        if out.exit_code() != Some(code) {
            problems.push(format!(
                "{name}: exit {:?}, expected {code}:\n{}",
                out.exit_code(),
                out.text()
            ));
        } else {
            codes_seen.insert(code);
        }
        if out.text().trim().is_empty() && code != 0 {
            problems.push(format!("{name}: printed nothing"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
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
        SafeAd::new()
            .args(["--launcher-url", &url, "put", "1"])
            .run()
            .code(2)
            .stderr_has("user name or password");
    }
}

// ---------------------------------------------------------------------------------------------
// Debug output of the library's types

#[test]
fn debug_of_settings_and_config_does_not_show_the_token() {
    use safe_ad::test_support::cli::ClientOptions as GlobalArgs;
    use safe_ad::test_support::settings::{resolve, ConfigRead, Environment, StdinUse};
    // As a run resolves them: the config file read once, at its start.
    let resolve = |args: &GlobalArgs, env: &Environment, stdin: &mut dyn std::io::Read| {
        resolve(args, env, &ConfigRead::read(env), stdin, StdinUse::Free)
    };

    let sandbox = Sandbox::new();
    let env = Environment {
        launcher_url: None,
        token: Some(TOKEN.into()),
        config_dir: Some(sandbox.config_dir().into_os_string()),
        ..Environment::default()
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

    let secret = safe_ad::test_support::secret::Secret::parse(TOKEN).expect("valid");
    assert_no_token(&format!("{secret:?} {:?}", Some(&secret)));
    assert_no_token(&secret.mask());

    let config = safe_ad::test_support::config_file::parse(&format!(r#"{{"token": "{TOKEN}"}}"#))
        .expect("parses");
    assert_no_token(&format!("{config:?}"));
}

/// The token as someone echoing it may have encoded it: its first character JSON-escaped, every
/// character JSON-escaped, every character percent-encoded, JSON escapes percent-encoded, and
/// base64.
fn encoded_tokens() -> Vec<(&'static str, String)> {
    let every = |form: &dyn Fn(u8) -> String| TOKEN.bytes().map(form).collect::<String>();
    vec![
        (
            "first character \\u-escaped",
            format!("\\u{:04x}{}", TOKEN.as_bytes()[0], &TOKEN[1..]),
        ),
        (
            "every character \\u-escaped",
            every(&|b| format!("\\u{b:04X}")),
        ),
        (
            "every character percent-encoded",
            every(&|b| format!("%{b:02X}")),
        ),
        (
            "\\u escapes percent-encoded",
            every(&|b| format!("%5Cu{b:04x}")),
        ),
        ("base64", {
            use base64::Engine as _;
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(TOKEN)
        }),
    ]
}

/// A launcher that echoes the token encoded (in a JSON error, in a text error, in a Location):
/// what safe-ad prints (errors, `--json`, `--verbose`, `show`) says `<token>` where it was, and
/// no encoding of it is left, decoded or not.
#[test]
fn a_token_echoed_escaped_or_percent_encoded_is_cut_out_too() {
    let sandbox = Sandbox::new();
    for (form, encoded) in encoded_tokens() {
        let json = format!(r#"{{"errorCode":-1,"description":"echo {encoded}"}}"#);
        let json_launcher = RawLauncher::answering(http_answer("400 Bad Request", json.as_bytes()));
        let text_launcher = RawLauncher::answering(http_answer(
            "500 Internal Server Error",
            format!("echo {encoded}").as_bytes(),
        ));
        let location: &'static [u8] = Box::leak(
            format!("HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:1/?t={encoded}\r\ncontent-length: 0\r\n\r\n")
                .into_bytes()
                .into_boxed_slice(),
        );
        let redirecting = RawLauncher::answering(location);
        for (url, args, code) in [
            (&json_launcher.url, vec!["metadata", "1"], 4),
            (&json_launcher.url, vec!["--json", "metadata", "1"], 4),
            (&json_launcher.url, vec!["-v", "metadata", "1"], 4),
            (&json_launcher.url, vec!["show", "1"], 4),
            (&json_launcher.url, vec!["--json", "show", "1"], 4),
            (&text_launcher.url, vec!["put", "1"], 5),
            (&text_launcher.url, vec!["-v", "--json", "put", "1"], 5),
            (&redirecting.url, vec!["put", "1"], 1),
        ] {
            let output = sandbox
                .safe_ad()
                .launcher(url)
                .args(&args)
                .case(format!("{form}: {}", args.join(" ")))
                .run();
            output.code(code).check(
                output.text().contains("<token>"),
                "the token's place is not marked <token>",
            );
            output.check(
                !output.text().contains(&encoded)
                    && !output.text().contains(&encoded.replace('\\', "\\\\")),
                "the encoded token is in the output",
            );
        }
    }
}

/// A launcher whose `filterType` is the token (as it is, and every character JSON-escaped), in
/// metadata and in a fetch: a value none of the launcher's is refused as an unreadable answer
/// (exit 1) that names the field and the values it may hold, and the value is printed nowhere:
/// not by `metadata`, `show`, `status` or `reopen`, with `--json` or without.
#[test]
fn a_closed_value_holding_the_token_is_refused_and_never_printed() {
    let sandbox = Sandbox::new();
    let escaped = TOKEN
        .bytes()
        .map(|b| format!("\\u{b:04x}"))
        .collect::<String>();
    for (form, value) in [("as it is", TOKEN.to_string()), ("escaped", escaped)] {
        // One body for every request (metadata, a data id's handle, a fetch) but a drop, which
        // the launcher answered `OK` (any other body is refused, and shown).
        let body = format!(
            r#"{{"handleId":3,"isOwner":true,"version":1,"filterType":"{value}","filterLength":0,"dataLength":0,"deletedDataLength":0}}"#
        );
        let answer = http_answer("200 OK", body.as_bytes());
        let launcher = RawLauncher::start(move |conn| {
            while let Some(line) = conn.request() {
                let answer = match line.starts_with("DELETE ") {
                    true => OK_ANSWER,
                    false => answer,
                };
                if !conn.send(answer) {
                    return;
                }
            }
        });
        for args in [
            vec!["metadata", "1"],
            vec!["--json", "metadata", "1"],
            vec!["show", "1"],
            vec!["--json", "show", "1"],
            vec!["status", "1"],
            vec!["reopen", "1"],
            vec!["--json", "reopen", "1"],
        ] {
            let output = sandbox
                .safe_ad()
                .launcher(&launcher.url)
                .args(&args)
                .case(format!("{form}: {}", args.join(" ")))
                .run();
            output.code(1).check(
                output.text().contains(
                    "its filterType holds a value that is not one of BlackList, WhiteList (the value is not shown)",
                ),
                "the refusal does not name the field and its values",
            );
            output.check(
                !output.text().contains(&value) && !output.text().contains("<token>"),
                "the value is in the output",
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The token typed into an argument

/// A token pasted into any argument is not echoed back: not in the error that refuses the
/// argument, not in a URL's path prefix (the "could not connect" message, a `--curl` line).
/// The harness fails a run whose output holds a piece of the token.
#[test]
fn a_token_typed_into_any_argument_is_never_echoed() {
    let url = closed_port_url();
    let in_path = format!("/nonexistent/{TOKEN}");
    let prefixed = format!("{url}/{TOKEN}");
    #[allow(unused_mut)]
    let mut cases: Vec<(Vec<&str>, i32)> = vec![
        (vec!["metadata", TOKEN], 2),
        (vec!["append", "5", "--immutable", &in_path], 2),
        (vec!["--token-file", &in_path, "put", "1"], 2),
        (vec!["remove", "1", "--data-id", TOKEN], 2),
        (vec!["remove", "1", "--name", TOKEN], 2),
        (vec!["remove", "1", "--signed-by", TOKEN], 2),
        (vec!["remove", "1", TOKEN], 2),
        (vec!["show", "--index", TOKEN, "1"], 2),
        (vec!["decode", TOKEN], 2),
        (vec!["--launcher-url", &prefixed, "put", "1"], 6),
        (vec!["--launcher-url", &prefixed, "--curl", "put", "1"], 0),
        (vec!["--launcher-url", &prefixed, "--json", "put", "1"], 6),
    ];
    #[cfg(feature = "emulator")]
    cases.extend([
        (vec!["emulator", "requests", "--since", TOKEN], 2),
        (vec!["emulator", "requests", "--method", TOKEN], 2),
    ]);
    for (args, code) in cases {
        let output = SafeAd::new().launcher(&url).args(&args).run();
        output.code(code);
    }
    // A token known only from --token-file: kept out of clap's own refusal too.
    let sandbox = Sandbox::new();
    let token_file = sandbox.file("token", TOKEN);
    let token_file = token_file.to_str().expect("path");
    for args in [
        vec!["--token-file", token_file, "put", "--jobs", TOKEN, "1"],
        vec![
            "put",
            "1",
            "--jobs",
            TOKEN,
            &format!("--token-file={token_file}"),
        ],
        vec!["--token-file", token_file, "metadata", TOKEN],
    ] {
        sandbox
            .safe_ad()
            .env("SAFE_LAUNCHER_URL", &url)
            .args(&args)
            .run()
            .code(2);
    }
}
