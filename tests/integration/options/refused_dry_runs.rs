//! `auth` and `config` cannot act under a dry run: `auth logout` and `config set` refuse it and
//! leave the token and the file as they were, `auth login --dry-run` sends and stores nothing, and
//! `config show` refuses the batch options it has no use for.

use super::*;

#[test]
fn auth_logout_dry_run_before_or_after_is_refused_and_the_token_stays() {
    let launcher = counting_launcher();
    let sandbox = Sandbox::new();
    let config = format!(
        r#"{{"token": "{TOKEN}", "launcher_url": "{}"}}"#,
        launcher.url
    );
    sandbox.write_config(&config);
    for line in [
        &["auth", "logout", "--dry-run"][..],
        &["--dry-run", "auth", "logout"],
        &["auth", "logout", "--curl"],
        &["--curl", "auth", "logout"],
    ] {
        assert_refused_untouched(
            &sandbox,
            &launcher,
            false,
            line,
            "`safe-ad auth logout` does not take --",
        );
    }
    assert_eq!(
        std::fs::read_to_string(sandbox.config_file()).expect("config"),
        config
    );
    // The token is still good for a real logout, which does reach the launcher.
    sandbox.safe_ad().args(["auth", "logout"]).run().success();
    launcher.wait_for_request("DELETE /auth", |line| line.starts_with("DELETE /auth "));
}

#[test]
fn auth_login_dry_run_sends_nothing_and_stores_nothing() {
    let launcher = counting_launcher();
    let sandbox = Sandbox::new();
    for line in [
        &["auth", "login", "--dry-run"][..],
        &["--dry-run", "auth", "login"],
        &["auth", "login", "--curl"],
    ] {
        assert_refused_untouched(
            &sandbox,
            &launcher,
            false,
            line,
            "`safe-ad auth login` does not take --",
        );
    }
    assert!(!sandbox.config_file().exists(), "a token was stored");
}

#[test]
fn config_set_dry_run_and_curl_are_refused_and_the_file_is_unchanged() {
    let launcher = counting_launcher();
    let sandbox = Sandbox::new();
    let lines = [
        &["config", "set", "timeout_secs", "5", "--dry-run"][..],
        &["config", "set", "timeout_secs", "5", "--curl"],
        &["--dry-run", "config", "set", "timeout_secs", "5"],
        &["config", "unset", "timeout_secs", "--dry-run"],
    ];
    // With no file, none is made; with one, it is left byte for byte.
    for existing in [false, true] {
        if existing {
            sandbox.write_config("{\n  \"timeout_secs\": 12\n}\n");
        }
        for line in lines {
            assert_refused_untouched(&sandbox, &launcher, false, line, "does not take --");
        }
        assert_eq!(sandbox.config_file().exists(), existing);
    }
}

#[test]
fn config_show_refuses_the_batch_options_it_has_no_use_for() {
    let line = [
        "config",
        "show",
        "--jobs",
        "4",
        "--fail-fast",
        "--retries",
        "3",
    ];
    let words = "`safe-ad config show` does not take --jobs";
    assert_refused_untouched(&Sandbox::new(), &counting_launcher(), true, &line, words);
}
