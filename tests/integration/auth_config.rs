//! `auth` and `config` commands against a launcher stand-in on loopback: getting, storing,
//! checking and revoking the token, and editing the config file safely.

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use crate::harness::*;
use wiremock::matchers::{any, body_json, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const ISSUED: &str = "issued.Kq7PzR2mVx9LwT4n.sigBv3Jd8";

async fn approving_launcher(permissions: &[&str]) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/auth"))
        .and(header("content-type", "application/json"))
        .and(body_json(serde_json::json!({
            "app": {
                "name": "safe-ad",
                "id": "safe-ad",
                "version": env!("CARGO_PKG_VERSION"),
                "vendor": "safe-ad"
            },
            "permissions": ["LOW_LEVEL_API"]
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "token": ISSUED,
            "permissions": permissions,
        })))
        .mount(&server)
        .await;
    server
}

fn stored_token(sandbox: &Sandbox) -> Option<String> {
    let text = std::fs::read_to_string(sandbox.config_file()).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).expect("config is JSON");
    value["token"].as_str().map(str::to_string)
}

#[tokio::test]
async fn login_stores_the_token_privately_and_says_where() {
    let server = approving_launcher(&["LOW_LEVEL_API"]).await;
    let sandbox = Sandbox::new();
    let output = sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["auth", "login"])
        .run();
    output
        .success()
        .stderr_has("waiting for approval")
        .stderr_has("token stored in")
        .stderr_has(&sandbox.config_file().display().to_string())
        .check(!output.text().contains(ISSUED), "login printed the token");
    assert_eq!(stored_token(&sandbox).as_deref(), Some(ISSUED));
    let file = sandbox.config_file();
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let dir_mode = std::fs::metadata(sandbox.config_dir())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(dir_mode & 0o777, 0o700);
    sandbox
        .safe_ad()
        .args(["auth", "token"])
        .run()
        .success()
        .stdout_is(&format!("{ISSUED}\n"))
        .stderr_is("");
}

#[tokio::test]
async fn login_keeps_other_keys_and_tightens_an_open_file() {
    let server = approving_launcher(&["LOW_LEVEL_API"]).await;
    let sandbox = Sandbox::new();
    let file = sandbox.write_config(&format!(
        r#"{{"launcher_url": "{}", "timeout_secs": 7}}"#,
        server.uri()
    ));
    set_mode(&file, 0o644);
    sandbox.safe_ad().args(["auth", "login"]).run().success();
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(value["launcher_url"], server.uri().as_str());
    assert_eq!(value["timeout_secs"], 7);
    assert_eq!(value["token"], ISSUED);
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[tokio::test]
async fn login_warns_when_the_env_token_still_wins_or_permission_is_missing() {
    let server = approving_launcher(&["SAFE_DRIVE_ACCESS"]).await;
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .launcher(&server.uri())
        .args(["auth", "login"])
        .run()
        .success()
        .stderr_has("SAFE_LAUNCHER_TOKEN still wins")
        .stderr_has("without LOW_LEVEL_API");
}

/// A grant whose permissions hold a value the launcher never grants (here the test token) is not
/// the launcher's: exit 1, the field and the launcher's values named, the value printed nowhere
/// (the harness checks every run for the token), and the token it came with not stored.
#[tokio::test]
async fn a_grant_with_a_permission_no_launcher_grants_is_refused_and_stores_nothing() {
    let server = approving_launcher(&["LOW_LEVEL_API", TOKEN]).await;
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["auth", "login"])
        .run()
        .code(1)
        .stderr_has("safe-ad: error: the launcher approved the request but its answer is not a grant: its permissions holds a value that is not one of SAFE_DRIVE_ACCESS, LOW_LEVEL_API (the value is not shown); nothing was stored")
        .stderr_has("hint: check that --launcher-url points at a SAFE Launcher")
        .stderr_lacks(ISSUED);
    assert_eq!(stored_token(&sandbox), None);
}

#[tokio::test]
async fn denied_login_exits_3_and_stores_nothing() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/auth"))
        .respond_with(ResponseTemplate::new(401).set_body_string("Unauthorised"))
        .mount(&server)
        .await;
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["auth", "login", "--app-name", "ci-bot"])
        .run()
        .code(3)
        .stderr_has("denied the request: Unauthorised")
        .stderr_has("hint: approve the request");
    assert!(!sandbox.config_file().exists());
    let request = &received(&server).await[0];
    let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
    assert_eq!(body["app"]["name"], "ci-bot");
    assert!(request.headers.get("authorization").is_none());
}

#[tokio::test]
async fn login_waits_for_approval_and_ctrl_c_cancels_with_130() {
    let server = slow_launcher(Duration::from_secs(60)).await;
    let sandbox = Sandbox::new();
    let running = sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["auth", "login"])
        .spawn();
    // The login is waiting once it said so and its request reached the launcher (which answers
    // only after a minute): Ctrl-C then cancels it.
    running.wait_for_stderr("waiting for approval in the launcher");
    wait_for_requests(&server, 1).await;
    running.interrupt();
    running
        .wait()
        .code(130)
        .stderr_has("login cancelled; nothing was stored");
    assert!(!sandbox.config_file().exists());
}

#[tokio::test]
async fn login_with_an_explicit_timeout_gives_up() {
    let server = slow_launcher(Duration::from_secs(30)).await;
    SafeAd::new()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["auth", "login", "--timeout", "0.3"])
        .run()
        .code(6)
        .stderr_has("did not answer within 0.3 s");
    // timeout_secs in the config file bounds it the same way.
    let sandbox = Sandbox::new();
    sandbox.write_config(r#"{"timeout_secs": 0.3}"#);
    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["auth", "login"])
        .run()
        .code(6)
        .stderr_has("did not answer within 0.3 s");
}

/// docs/settings.md: the login waits "without a time limit unless --timeout or timeout_secs is set". The
/// person approves only after the default timeout (30 s) has passed: safe-ad is still waiting,
/// and stores the token. (This test takes those 31 s.)
#[tokio::test]
async fn login_without_a_timeout_waits_past_the_default_timeout() {
    let approval_after =
        Duration::from_secs_f64(safe_ad::test_support::values::DEFAULT_TIMEOUT_SECS + 1.0);
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/auth"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(serde_json::json!({
                    "token": ISSUED,
                    "permissions": ["LOW_LEVEL_API"],
                }))
                .set_delay(approval_after),
        )
        .mount(&server)
        .await;
    let sandbox = Sandbox::new();
    let started = std::time::Instant::now();
    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["auth", "login"])
        .run()
        .success()
        .stderr_has("token stored in");
    assert!(started.elapsed() >= approval_after);
    assert_eq!(stored_token(&sandbox).as_deref(), Some(ISSUED));
}

#[test]
fn login_to_a_launcher_that_is_down_says_so_without_waiting_for_approval() {
    SafeAd::new()
        .env("SAFE_LAUNCHER_URL", closed_port_url())
        .args(["auth", "login"])
        .run()
        .code(6)
        .stderr_has("connection refused")
        .stderr_lacks("waiting for approval");
}

async fn token_checking_launcher(accepts: bool) -> MockServer {
    let server = MockServer::start().await;
    let response = if accepts {
        ResponseTemplate::new(200).set_body_string("OK")
    } else {
        ResponseTemplate::new(401).set_body_string("Unauthorized")
    };
    Mock::given(method("GET"))
        .and(path("/auth"))
        .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
        .respond_with(response)
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn status_names_each_token_source_and_masks_the_token() {
    let server = token_checking_launcher(true).await;
    let sandbox = Sandbox::new();
    let token_file = sandbox.file("token.txt", format!("{TOKEN}\n").as_bytes());
    let config = sandbox.write_config(&format!(r#"{{"token": "{TOKEN}"}}"#));
    let cases = [
        (
            vec!["--token-file".to_string(), token_file.display().to_string()],
            true,
            "(--token-file)".to_string(),
        ),
        (vec![], true, "(env var SAFE_LAUNCHER_TOKEN)".to_string()),
        (vec![], false, format!("(config file {})", config.display())),
    ];
    for (flags, with_env, source) in cases {
        let mut safe_ad = sandbox.safe_ad().env("SAFE_LAUNCHER_URL", server.uri());
        if with_env {
            safe_ad = safe_ad.env("SAFE_LAUNCHER_TOKEN", TOKEN);
        }
        safe_ad
            .args(["auth", "status"])
            .args(&flags)
            .run()
            .success()
            .stdout_has(&format!("launcher  {}", server.uri()))
            .stdout_has(&source)
            .stdout_has("tok3")
            .stdout_has("accepted");
    }
}

#[tokio::test]
async fn status_exit_codes_rejected_missing_unreachable() {
    let server = token_checking_launcher(false).await;
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .launcher(&server.uri())
        .args(["auth", "status"])
        .run()
        .code(3)
        .stdout_has("not accepted")
        .stderr_has("401");

    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["auth", "status"])
        .run()
        .code(3)
        .stdout_has("token     none")
        .stderr_has("no token found");

    sandbox
        .safe_ad()
        .launcher(&closed_port_url())
        .args(["auth", "status"])
        .run()
        .code(6)
        .stdout_has("not reachable");
}

#[tokio::test]
async fn logout_revokes_and_removes_the_stored_token() {
    let server = MockServer::start().await;
    Mock::given(method("DELETE"))
        .and(path("/auth"))
        .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .expect(1)
        .mount(&server)
        .await;
    let sandbox = Sandbox::new();
    sandbox.write_config(&format!(
        r#"{{"token": "{TOKEN}", "launcher_url": "{}"}}"#,
        server.uri()
    ));
    sandbox
        .safe_ad()
        .args(["auth", "logout"])
        .run()
        .success()
        .stderr_has("revoked the token")
        .stderr_has("removed the token from");
    server.verify().await;
    assert_eq!(stored_token(&sandbox), None);
    sandbox
        .safe_ad()
        .args(["auth", "status"])
        .run()
        .code(3)
        .stderr_has("no token found");
}

#[test]
fn logout_with_the_launcher_gone_still_removes_the_stored_token() {
    let sandbox = Sandbox::new();
    sandbox.write_config(&format!(
        r#"{{"token": "{TOKEN}", "launcher_url": "{}"}}"#,
        closed_port_url()
    ));
    sandbox
        .safe_ad()
        .args(["auth", "logout"])
        .run()
        .success()
        .stderr_has("could not revoke the token")
        .stderr_has("removed the token from");
    assert_eq!(stored_token(&sandbox), None);
}

#[tokio::test]
async fn logout_of_an_env_token_already_revoked_says_so() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(401).set_body_string("Unauthorized"))
        .mount(&server)
        .await;
    SafeAd::new()
        .launcher(&server.uri())
        .args(["auth", "logout"])
        .run()
        .success()
        .stderr_has("no longer accepted the token")
        .stderr_has("env var SAFE_LAUNCHER_TOKEN");
}

#[test]
fn auth_token_without_a_token_exits_3() {
    SafeAd::new()
        .args(["auth", "token"])
        .run()
        .code(3)
        .stdout_is("");
}

#[test]
fn config_set_unset_show_and_path() {
    let sandbox = Sandbox::new();
    let file = sandbox.config_file();
    sandbox
        .safe_ad()
        .args(["config", "path"])
        .run()
        .success()
        .stdout_is(&format!("{}\n", file.display()));
    sandbox
        .safe_ad()
        .args([
            "config",
            "set",
            "launcher_url",
            "http://127.0.0.1:8100/0.6/",
        ])
        .run()
        .success();
    sandbox
        .safe_ad()
        .args(["config", "set", "timeout_secs", "12"])
        .run()
        .success();
    sandbox
        .safe_ad()
        .args(["config", "set", "token", "-"])
        .stdin(format!("{TOKEN}\n"))
        .run()
        .success();
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let source = format!("(config file {})", file.display());
    sandbox
        .safe_ad()
        .args(["config", "show"])
        .run()
        .success()
        .stdout_has(&format!(
            "launcher_url  http://127.0.0.1:8100/0.6  {source}"
        ))
        .stdout_has(&format!("timeout_secs  12  {source}"))
        .stdout_has("token         tok3");

    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", "http://localhost:9")
        .args(["config", "show", "--timeout", "3"])
        .run()
        .success()
        .stdout_has("launcher_url  http://localhost:9  (env var SAFE_LAUNCHER_URL)")
        .stdout_has("timeout_secs  3  (--timeout)");

    sandbox
        .safe_ad()
        .args(["config", "unset", "token"])
        .run()
        .success();
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(value.get("token").is_none());
    assert_eq!(value["timeout_secs"], 12);
    sandbox
        .safe_ad()
        .args(["config", "unset", "token"])
        .run()
        .success()
        .stderr_has("was not set");
}

#[test]
fn config_set_refuses_bad_values_and_leaves_the_file_alone() {
    let sandbox = Sandbox::new();
    let file = sandbox.write_config(r#"{"timeout_secs": 5}"#);
    let before = std::fs::read(&file).unwrap();
    for (args, words) in [
        (
            vec!["launcher_url", "ftp://x"],
            "invalid value for launcher_url",
        ),
        (vec!["launcher_url", "localhost:8100"], "no scheme"),
        (vec!["timeout_secs", "0"], "invalid value for timeout_secs"),
        (vec!["timeout_secs", "soon"], "not a number"),
        (
            vec!["token", TOKEN],
            "refusing to take the token as an argument",
        ),
        (vec!["tokn", "x"], "invalid value 'tokn'"),
    ] {
        sandbox
            .safe_ad()
            .args(["config", "set"])
            .args(&args)
            .run()
            .code(2)
            .stderr_has(words);
    }
    sandbox
        .safe_ad()
        .args(["config", "set", "token", "-"])
        .stdin("two words\n")
        .run()
        .code(2)
        .stderr_has("whitespace");
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn config_set_refuses_to_clobber_a_broken_file() {
    let sandbox = Sandbox::new();
    let file = sandbox.write_config("{ not json");
    sandbox
        .safe_ad()
        .args(["config", "set", "timeout_secs", "3"])
        .run()
        .code(2)
        .stderr_has("line 1, column");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{ not json");
}

#[test]
fn concurrent_writers_never_leave_a_corrupt_file() {
    let sandbox = Sandbox::new();
    sandbox.write_config("{}");
    let writers: Vec<Running> = (0..16)
        .map(|i| {
            sandbox
                .safe_ad()
                .args(["config", "set", "timeout_secs", &format!("{}", i + 1)])
                .spawn()
        })
        .collect();
    for writer in writers {
        writer.wait().success();
    }
    let text = std::fs::read_to_string(sandbox.config_file()).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).expect("whole JSON");
    let secs = value["timeout_secs"].as_u64().expect("a number");
    assert!((1..=16).contains(&secs));
    let leftovers = std::fs::read_dir(sandbox.config_dir()).unwrap().count();
    assert_eq!(leftovers, 1, "temporary files were left behind");
}

/// Whether the command these words run takes `--token-file`, by the parser's table.
fn takes_token_file(words: &[&str]) -> bool {
    let mut path: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !w.starts_with('-'))
        .collect();
    path.truncate(if matches!(path.first(), Some(&"auth" | &"config")) {
        2
    } else {
        1
    });
    safe_ad::test_support::cli::options_of(&path.join(" "))
        .contains(safe_ad::test_support::cli::Opt::TokenFile)
}

/// Every command but `auth token`, run with the token in each source, succeeds and never prints
/// it (the builder checks every run's output for it); `auth token` prints it.
#[tokio::test]
async fn no_command_but_auth_token_prints_the_token() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/appendable-data/metadata/1"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(
            r#"{"isOwner":true,"version":1,"filterType":"BlackList","filterLength":0,"dataLength":3,"deletedDataLength":2}"#,
            "application/json",
        ))
        .mount(&server)
        .await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .mount(&server)
        .await;
    let sandbox = Sandbox::new();
    let token_file = sandbox.file("token", TOKEN);
    let commands: &[&[&str]] = &[
        &["auth", "status"],
        &["auth", "logout"],
        &["config", "show"],
        &["config", "path"],
        &["put", "1"],
        &["--json", "post", "1"],
        &["--dry-run", "clear-data", "--save", "post", "1"],
        &["--curl", "clear-data", "1"],
        &["-v", "metadata", "1"],
    ];
    for command in commands {
        for source in ["env", "file", "config"] {
            sandbox.write_config(&format!(r#"{{"token": "{TOKEN}"}}"#));
            let mut safe_ad = sandbox
                .safe_ad()
                .env("SAFE_LAUNCHER_URL", server.uri())
                .case(format!("token from {source}"));
            match source {
                "env" => safe_ad = safe_ad.env("SAFE_LAUNCHER_TOKEN", TOKEN),
                // Only where the command takes it (`config path` reads no token).
                "file" if takes_token_file(command) => {
                    safe_ad = safe_ad.arg("--token-file").arg(&token_file)
                }
                "file" => continue,
                _ => {}
            }
            safe_ad.args(*command).run().success();
        }
    }
    sandbox
        .safe_ad()
        .launcher(&server.uri())
        .args(["auth", "token"])
        .token_may_show()
        .run()
        .success()
        .stdout_is(&format!("{TOKEN}\n"));
}

/// A config file kept elsewhere and linked in (with one's dotfiles) is written where the link
/// leads, as it is read: the link stays a link, its file gets the change (mode 0600, for the
/// token), and a link made before its file gets the file made at its end. Never a plain file
/// put in the link's place, leaving the dotfile with the old settings.
#[test]
fn config_set_through_a_symbolic_link_writes_where_it_leads() {
    use std::os::unix::fs::PermissionsExt;
    for made in [true, false] {
        let sandbox = Sandbox::new();
        let config = sandbox.config_file();
        std::fs::create_dir_all(sandbox.config_dir()).expect("config dir");
        let dotfiles = sandbox.path().join("dotfiles");
        std::fs::create_dir(&dotfiles).expect("dotfiles");
        let kept = dotfiles.join("safe-ad.json");
        if made {
            std::fs::write(&kept, "{\"timeout_secs\": 7}\n").expect("kept");
        }
        // A relative link, as dotfile managers often make them.
        // (`config/config.json` -> `dotfiles/safe-ad.json`, beside each other in the sandbox.)
        std::os::unix::fs::symlink("../dotfiles/safe-ad.json", &config).expect("link");
        sandbox
            .safe_ad()
            .args(["config", "set", "launcher_url", "http://127.0.0.1:8100/0.6"])
            .run()
            .success();
        let link = std::fs::symlink_metadata(&config).expect("still there");
        assert!(
            link.is_symlink(),
            "made={made}: the link was replaced: {link:?}"
        );
        let text = std::fs::read_to_string(&kept).expect("the file the link leads to");
        assert!(
            text.contains("\"launcher_url\": \"http://127.0.0.1:8100/0.6\""),
            "made={made}: {text}"
        );
        assert_eq!(text.contains("\"timeout_secs\": 7"), made, "{text}");
        let mode = std::fs::metadata(&kept).expect("kept").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "made={made}");
    }
}
