//! `auth` and `config` commands against a launcher stand-in on loopback: getting, storing,
//! checking and revoking the token, and editing the config file safely.

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use crate::harness::*;
use predicates::prelude::*;
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
    let text = std::fs::read_to_string(sandbox.config_dir().join("config.json")).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).expect("config is JSON");
    value["token"].as_str().map(str::to_string)
}

#[tokio::test]
async fn login_stores_the_token_privately_and_says_where() {
    let server = approving_launcher(&["LOW_LEVEL_API"]).await;
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["auth", "login"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("waiting for approval"), "{stderr}");
    assert!(stderr.contains("token stored in"), "{stderr}");
    assert!(stderr.contains(
        &sandbox
            .config_dir()
            .join("config.json")
            .display()
            .to_string()
    ));
    assert!(
        !output_text(&output).contains(ISSUED),
        "login printed the token"
    );
    assert_eq!(stored_token(&sandbox).as_deref(), Some(ISSUED));
    let file = sandbox.config_dir().join("config.json");
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
        .cmd()
        .args(["auth", "token"])
        .assert()
        .success()
        .stdout(format!("{ISSUED}\n"))
        .stderr("");
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
    sandbox.cmd().args(["auth", "login"]).assert().success();
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
        .cmd_at(&server.uri())
        .args(["auth", "login"])
        .assert()
        .success()
        .stderr(predicate::str::contains("SAFE_LAUNCHER_TOKEN still wins"))
        .stderr(predicate::str::contains("without LOW_LEVEL_API"));
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
        .cmd()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["auth", "login", "--app-name", "ci-bot"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("denied the request: Unauthorised"))
        .stderr(predicate::str::contains("hint: approve the request"));
    assert!(!sandbox.config_dir().join("config.json").exists());
    let request = &server.received_requests().await.unwrap()[0];
    let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
    assert_eq!(body["app"]["name"], "ci-bot");
    assert!(request.headers.get("authorization").is_none());
}

#[tokio::test]
async fn login_waits_for_approval_and_ctrl_c_cancels_with_130() {
    let server = slow_launcher(Duration::from_secs(60)).await;
    let sandbox = Sandbox::new();
    let child = sandbox
        .std_cmd()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["auth", "login"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    wait_for_a_request(&server).await;
    // Longer than the default per-request timeout would matter here: a login has none.
    tokio::time::sleep(Duration::from_millis(300)).await;
    interrupt(&child);
    let output = child.wait_with_output().expect("waits");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("waiting for approval in the launcher"),
        "{stderr}"
    );
    assert!(
        stderr.contains("login cancelled; nothing was stored"),
        "{stderr}"
    );
    assert!(!sandbox.config_dir().join("config.json").exists());
}

#[tokio::test]
async fn login_with_an_explicit_timeout_gives_up() {
    let server = slow_launcher(Duration::from_secs(30)).await;
    Sandbox::new()
        .cmd()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["auth", "login", "--timeout", "0.3"])
        .assert()
        .code(6)
        .stderr(predicate::str::contains("did not answer within 0.3 s"));
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
        let mut cmd = sandbox.cmd();
        cmd.env("SAFE_LAUNCHER_URL", server.uri());
        if with_env {
            cmd.env("SAFE_LAUNCHER_TOKEN", TOKEN);
        }
        let output = cmd
            .args(["auth", "status"])
            .args(&flags)
            .output()
            .expect("runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{source}: {}",
            output_text(&output)
        );
        assert!(
            stdout.contains(&format!("launcher  {}", server.uri())),
            "{stdout}"
        );
        assert!(stdout.contains(&source), "{source} not in {stdout}");
        assert!(stdout.contains("tok3"), "{stdout}");
        assert!(stdout.contains("accepted"), "{stdout}");
        assert_no_token(&output_text(&output));
    }
}

#[tokio::test]
async fn status_exit_codes_rejected_missing_unreachable() {
    let server = token_checking_launcher(false).await;
    let sandbox = Sandbox::new();
    let output = sandbox
        .cmd_at(&server.uri())
        .args(["auth", "status"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&output.stdout).contains("not accepted"));
    assert!(String::from_utf8_lossy(&output.stderr).contains("401"));
    assert_no_token(&output_text(&output));

    sandbox
        .cmd()
        .env("SAFE_LAUNCHER_URL", server.uri())
        .args(["auth", "status"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("token     none"))
        .stderr(predicate::str::contains("no token found"));

    let output = sandbox
        .cmd_at(&closed_port_url())
        .args(["auth", "status"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(6));
    assert!(String::from_utf8_lossy(&output.stdout).contains("not reachable"));
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
        .cmd()
        .args(["auth", "logout"])
        .assert()
        .success()
        .stderr(predicate::str::contains("revoked the token"))
        .stderr(predicate::str::contains("removed the token from"));
    server.verify().await;
    assert_eq!(stored_token(&sandbox), None);
    sandbox
        .cmd()
        .args(["auth", "status"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("no token found"));
}

#[test]
fn logout_with_the_launcher_gone_still_removes_the_stored_token() {
    let sandbox = Sandbox::new();
    sandbox.write_config(&format!(
        r#"{{"token": "{TOKEN}", "launcher_url": "{}"}}"#,
        closed_port_url()
    ));
    sandbox
        .cmd()
        .args(["auth", "logout"])
        .assert()
        .success()
        .stderr(predicate::str::contains("could not revoke the token"))
        .stderr(predicate::str::contains("removed the token from"));
    assert_eq!(stored_token(&sandbox), None);
}

#[tokio::test]
async fn logout_of_an_env_token_already_revoked_says_so() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(401).set_body_string("Unauthorized"))
        .mount(&server)
        .await;
    Sandbox::new()
        .cmd_at(&server.uri())
        .args(["auth", "logout"])
        .assert()
        .success()
        .stderr(predicate::str::contains("no longer accepted the token"))
        .stderr(predicate::str::contains("env var SAFE_LAUNCHER_TOKEN"));
}

#[test]
fn auth_token_without_a_token_exits_3() {
    Sandbox::new()
        .cmd()
        .args(["auth", "token"])
        .assert()
        .code(3)
        .stdout("");
}

#[test]
fn config_set_unset_show_and_path() {
    let sandbox = Sandbox::new();
    let file = sandbox.config_dir().join("config.json");
    sandbox
        .cmd()
        .args(["config", "path"])
        .assert()
        .success()
        .stdout(format!("{}\n", file.display()));
    sandbox
        .cmd()
        .args([
            "config",
            "set",
            "launcher_url",
            "http://127.0.0.1:8100/0.6/",
        ])
        .assert()
        .success();
    sandbox
        .cmd()
        .args(["config", "set", "timeout_secs", "12"])
        .assert()
        .success();
    sandbox
        .cmd()
        .args(["config", "set", "token", "-"])
        .write_stdin(format!("{TOKEN}\n"))
        .assert()
        .success();
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let output = sandbox.cmd().args(["config", "show"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let source = format!("(config file {})", file.display());
    assert!(
        stdout.contains(&format!(
            "launcher_url  http://127.0.0.1:8100/0.6  {source}"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("timeout_secs  12  {source}")),
        "{stdout}"
    );
    assert!(stdout.contains("token         tok3"), "{stdout}");
    assert_no_token(&output_text(&output));

    let output = sandbox
        .cmd()
        .env("SAFE_LAUNCHER_URL", "http://localhost:9")
        .args(["config", "show", "--timeout", "3"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("launcher_url  http://localhost:9  (env var SAFE_LAUNCHER_URL)"),
        "{stdout}"
    );
    assert!(stdout.contains("timeout_secs  3  (--timeout)"), "{stdout}");

    sandbox
        .cmd()
        .args(["config", "unset", "token"])
        .assert()
        .success();
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(value.get("token").is_none());
    assert_eq!(value["timeout_secs"], 12);
    sandbox
        .cmd()
        .args(["config", "unset", "token"])
        .assert()
        .success()
        .stderr(predicate::str::contains("was not set"));
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
        let output = sandbox
            .cmd()
            .args(["config", "set"])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        assert_no_token(&output_text(&output));
    }
    sandbox
        .cmd()
        .args(["config", "set", "token", "-"])
        .write_stdin("two words\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("whitespace"));
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn config_set_refuses_to_clobber_a_broken_file() {
    let sandbox = Sandbox::new();
    let file = sandbox.write_config("{ not json");
    sandbox
        .cmd()
        .args(["config", "set", "timeout_secs", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 1, column"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{ not json");
}

#[test]
fn concurrent_writers_never_leave_a_corrupt_file() {
    let sandbox = Sandbox::new();
    sandbox.write_config("{}");
    let children: Vec<_> = (0..16)
        .map(|i| {
            sandbox
                .std_cmd()
                .args(["config", "set", "timeout_secs", &format!("{}", i + 1)])
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("starts")
        })
        .collect();
    for mut child in children {
        assert!(child.wait().expect("waits").success());
    }
    let text = std::fs::read_to_string(sandbox.config_dir().join("config.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).expect("whole JSON");
    let secs = value["timeout_secs"].as_u64().expect("a number");
    assert!((1..=16).contains(&secs));
    let leftovers = std::fs::read_dir(sandbox.config_dir()).unwrap().count();
    assert_eq!(leftovers, 1, "temporary files were left behind");
}

/// Every command but `auth token`, run with the token in each source, never prints it.
#[tokio::test]
async fn no_command_but_auth_token_prints_the_token() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_string("OK"))
        .mount(&server)
        .await;
    let sandbox = Sandbox::new();
    let token_file = sandbox.file("token", TOKEN.as_bytes());
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
            let mut cmd = sandbox.cmd();
            cmd.env("SAFE_LAUNCHER_URL", server.uri());
            match source {
                "env" => {
                    cmd.env("SAFE_LAUNCHER_TOKEN", TOKEN);
                }
                "file" => {
                    cmd.arg("--token-file").arg(&token_file);
                }
                _ => {}
            }
            let output = cmd.args(*command).output().expect("runs");
            assert_no_token(&output_text(&output));
        }
    }
    let output = sandbox
        .cmd_at(&server.uri())
        .args(["auth", "token"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!("{TOKEN}\n")
    );
}
