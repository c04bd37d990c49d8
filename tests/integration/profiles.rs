//! Profiles of the config file: `config set --profile` writes them, `--profile NAME` and
//! `SAFE_AD_PROFILE` reach a profile's launcher with its token (two emulators, each its own URL
//! and token, their journals say which was reached), flags and env vars still beat a profile's
//! values and a profile's beat the top level's, `config show` names the profile and each value's
//! source, a read-only profile refuses every command that changes something (the specs walked:
//! exit 2, the profile and the command named, nothing in the journal) and lets reads and dry runs
//! through, and a profile the file lacks is refused naming those it has. The harness checks that
//! no run prints the token kept in a profile.

use serde_json::{json, Value};

use crate::harness::emulator::*;
use crate::harness::*;
use safe_ad::test_support::cli::{Spec, COMMANDS};

/// The second launcher's token (the harness's `TOKEN` is the first's).
const OTHER: &str = "other.Tk9Wm3Xr7LpQd5Nf.s1gnedBy2nd";

/// An emulator that accepts [`OTHER`], not the harness's token.
fn second_emulator() -> Emulator {
    Emulator::spawn(
        SafeAd::new()
            .args(["emulator", "--listen", "127.0.0.1:0", "--token", OTHER])
            .token_may_show(),
    )
}

/// A config file whose top level reaches `first` with [`TOKEN`] and whose profile `second`
/// reaches `second` with [`OTHER`], and a profile `real` (read-only) that reaches `first`.
fn two_launchers(sandbox: &Sandbox, first: &Emulator, second: &Emulator) {
    sandbox.write_config(
        &json!({
            "launcher_url": first.url,
            "token": TOKEN,
            "timeout_secs": 12,
            "profiles": {
                "second": {"launcher_url": second.url, "token": OTHER},
                "real": {"launcher_url": first.url, "read_only": true},
            }
        })
        .to_string(),
    );
}

/// The config file as JSON.
fn config_json(sandbox: &Sandbox) -> Value {
    let text = std::fs::read_to_string(sandbox.config_file()).expect("config file written");
    serde_json::from_str(&text).expect("config file is JSON")
}

#[test]
fn config_set_with_a_profile_writes_it_under_profiles() {
    let sandbox = Sandbox::new();
    let set = |args: &[&str]| {
        sandbox
            .safe_ad()
            .args(["config", "set"])
            .args(args)
            .run()
            .success()
            .text()
    };
    set(&["launcher_url", "http://127.0.0.1:8100"]);
    let said = set(&[
        "--profile",
        "emu",
        "launcher_url",
        "http://127.0.0.1:9001/0.6",
    ]);
    assert!(
        said.contains("set launcher_url in profile emu of"),
        "{said}"
    );
    set(&["--profile", "emu", "timeout_secs", "7"]);
    set(&["--profile", "real", "read_only", "true"]);
    sandbox
        .safe_ad()
        .args(["config", "set", "--profile", "real", "token", "-"])
        .stdin(TOKEN)
        .run()
        .success();
    assert_eq!(
        config_json(&sandbox),
        json!({
            "launcher_url": "http://127.0.0.1:8100",
            "profiles": {
                "emu": {"launcher_url": "http://127.0.0.1:9001/0.6", "timeout_secs": 7},
                "real": {"token": TOKEN, "read_only": true},
            }
        })
    );
    // Unset takes a key out of the profile only; a profile the file lacks is not made.
    sandbox
        .safe_ad()
        .args(["config", "unset", "--profile", "emu", "timeout_secs"])
        .run()
        .success()
        .stderr_has("removed timeout_secs from profile emu of");
    sandbox
        .safe_ad()
        .args(["config", "unset", "--profile", "nope", "token"])
        .run()
        .success()
        .stderr_has("token was not set in profile nope of");
    let file = config_json(&sandbox);
    assert_eq!(
        file["profiles"]["emu"],
        json!({"launcher_url": "http://127.0.0.1:9001/0.6"})
    );
    assert_eq!(file["profiles"].as_object().map(|p| p.len()), Some(2));
    // A bad value or name changes nothing.
    sandbox
        .safe_ad()
        .args(["config", "set", "--profile", "emu", "read_only", "yes"])
        .run()
        .code(2)
        .stderr_has("invalid value for read_only");
    sandbox
        .safe_ad()
        .args(["config", "set", "--profile", "a b", "timeout_secs", "3"])
        .run()
        .code(2)
        .stderr_has("is no profile name");
    assert_eq!(config_json(&sandbox), file);
}

#[test]
fn the_profile_flag_and_env_var_reach_the_profiles_launcher_with_its_token() {
    let first = Emulator::start(&[]);
    let second = second_emulator();
    let sandbox = Sandbox::new();
    two_launchers(&sandbox, &first, &second);
    let status = |safe_ad: SafeAd| safe_ad.args(["auth", "status"]).run().success().text();

    // No profile: the top level's launcher and token.
    status(sandbox.safe_ad());
    assert_eq!(first.requests(), ["GET /auth 200"]);
    assert!(second.requests().is_empty());
    // The flag, then the variable: the profile's launcher, which takes only the profile's token.
    let said = status(sandbox.safe_ad().args(["--profile", "second"]));
    assert!(said.contains(&second.url), "{said}");
    status(sandbox.safe_ad().env("SAFE_AD_PROFILE", "second"));
    assert_eq!(second.requests(), ["GET /auth 200", "GET /auth 200"]);
    // The journals hold every request so far: the first has still its one.
    assert_eq!(first.requests(), ["GET /auth 200"]);
    // The flag beats the variable.
    status(
        sandbox
            .safe_ad()
            .env("SAFE_AD_PROFILE", "second")
            .args(["--profile", "real"]),
    );
    assert_eq!(first.requests(), ["GET /auth 200", "GET /auth 200"]);
    assert_eq!(second.requests().len(), 2);
}

#[test]
fn flags_and_env_vars_beat_a_profile_which_beats_the_top_level() {
    let first = Emulator::start(&[]);
    let second = second_emulator();
    let sandbox = Sandbox::new();
    two_launchers(&sandbox, &first, &second);
    let file = sandbox.config_file().display().to_string();
    let show = |safe_ad: SafeAd| {
        let output = safe_ad.args(["config", "show", "--json"]).run();
        output.success();
        output.json_lines().remove(0)
    };
    let setting = |value: Value, source: &str, from: Value| json!({"value": value, "source": source, "from": from});

    let shown = show(sandbox.safe_ad().args(["--profile", "second"]));
    assert_eq!(
        shown["profile"],
        setting(json!("second"), "flag", json!("--profile"))
    );
    assert_eq!(
        shown["launcher_url"],
        setting(json!(second.url), "profile", json!("second"))
    );
    assert_eq!(shown["token"]["source"], "profile");
    assert_eq!(shown["token"]["from"], "second");
    // What the profile leaves out comes from the top level.
    assert_eq!(
        shown["timeout_secs"],
        setting(json!(12.0), "config_file", json!(file))
    );
    assert_eq!(
        shown["read_only"],
        setting(json!(false), "default", Value::Null)
    );

    // The variable names the profile; a flag and an env var beat its values.
    let shown = show(
        sandbox
            .safe_ad()
            .env("SAFE_AD_PROFILE", "second")
            .env("SAFE_LAUNCHER_TOKEN", TOKEN)
            .args(["--launcher-url", &first.url]),
    );
    assert_eq!(
        shown["profile"],
        setting(json!("second"), "env", json!("SAFE_AD_PROFILE"))
    );
    assert_eq!(shown["launcher_url"]["source"], "flag");
    assert_eq!(shown["token"]["source"], "env");
    let shown = show(
        sandbox
            .safe_ad()
            .env("SAFE_LAUNCHER_URL", &first.url)
            .args(["--profile", "real"]),
    );
    assert_eq!(shown["launcher_url"]["source"], "env");
    assert_eq!(
        shown["read_only"],
        setting(json!(true), "profile", json!("real"))
    );
    // The token left out of `real` is the top level's.
    assert_eq!(
        shown["token"],
        setting(shown["token"]["value"].clone(), "config_file", json!(file))
    );
    // Without a profile: none, and the top level's values.
    let shown = show(sandbox.safe_ad());
    assert_eq!(
        shown["profile"],
        json!({"value": null, "source": null, "from": null})
    );
    assert_eq!(
        shown["launcher_url"],
        setting(json!(first.url), "config_file", json!(file))
    );

    // The text names the profile and where each value came from.
    let text = sandbox
        .safe_ad()
        .args(["--profile", "second", "config", "show"])
        .run()
        .success()
        .stdout()
        .to_owned();
    assert!(
        text.starts_with("profile       second  (--profile)\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "launcher_url  {}  (profile second in config file {file})",
            second.url
        )),
        "{text}"
    );
    // A request goes where the flag says, with the token the profile gives.
    sandbox
        .safe_ad()
        .args([
            "--profile",
            "second",
            "auth",
            "status",
            "--launcher-url",
            &second.url,
        ])
        .run()
        .success();
    assert_eq!(second.requests(), ["GET /auth 200"]);
    assert!(first.requests().is_empty());
}

/// Whether a launcher route changes the network or a launcher's copy of a data: a write to
/// `/appendable-data` that is not the giving back of a handle.
fn changes_a_data(route: &str) -> bool {
    let (method, path) = route.split_once(' ').expect("METHOD /path");
    method != "GET"
        && path.starts_with("/appendable-data")
        && !path.starts_with("/appendable-data/handle/")
}

/// Every command says whether it changes something, and says it right: one that sends a route
/// that changes a data is a change (the filter commands, `create`, every save and clear), and
/// one that is a change sends such a route.
#[test]
fn every_command_that_sends_a_change_is_marked_as_one() {
    let changes: Vec<&str> = COMMANDS
        .iter()
        .filter(|spec| spec.changes)
        .map(|spec| spec.path)
        .collect();
    for spec in COMMANDS {
        let sends_one = (spec.route_list().iter()).any(|route| changes_a_data(&route.to_string()));
        assert_eq!(
            spec.changes,
            sends_one,
            "`{}` is {}marked as a change, and its routes are {:?}",
            spec.path,
            if spec.changes { "" } else { "not " },
            spec.route_list()
        );
    }
    for path in [
        "put",
        "post",
        "clear-data",
        "clear-deleted-data",
        "remove",
        "restore",
        "purge",
        "append",
        "create",
    ] {
        assert!(changes.contains(&path), "{path} is a change: {changes:?}");
    }
}

/// The changes, each with its sample arguments.
fn changes() -> Vec<&'static Spec> {
    COMMANDS
        .iter()
        .copied()
        .filter(|spec| spec.changes)
        .collect()
}

#[test]
fn a_read_only_profile_refuses_every_change_and_sends_nothing() {
    let first = Emulator::start(&[]);
    let second = second_emulator();
    let sandbox = Sandbox::new();
    two_launchers(&sandbox, &first, &second);
    let changes = changes();
    assert!(changes.len() >= 9, "{changes:?}");
    for (n, spec) in changes.iter().enumerate() {
        let words: Vec<&str> = spec.path.split(' ').collect();
        // The flag, and the variable, in turn.
        let safe_ad = match n % 2 {
            0 => sandbox.safe_ad().args(["--profile", "real"]),
            _ => sandbox.safe_ad().env("SAFE_AD_PROFILE", "real"),
        };
        let output = safe_ad.args(&words).args(spec.sample).case(spec.path).run();
        output
            .code(2)
            .stderr_has(&format!(
                "profile `real` is read-only: `{}` changes the network or a launcher's copy",
                spec.path
            ))
            .stderr_has("nothing was sent")
            .stderr_has("--profile NAME or SAFE_AD_PROFILE: second");
        assert_eq!(output.stdout(), "", "{}", spec.path);
    }
    assert_eq!(first.requests(), Vec::<String>::new());
    // A dry run of a change sends nothing, so it is let through, as `--curl` is.
    sandbox
        .safe_ad()
        .args(["--profile", "real", "put", "--dry-run", "1"])
        .run()
        .success()
        .stdout_has("PUT ");
    sandbox
        .safe_ad()
        .args(["--profile", "real", "post", "--curl", "1"])
        .run()
        .success()
        .stdout_has("$(safe-ad auth token)");
    assert_eq!(first.requests(), Vec::<String>::new());
    // Reads go through, to the profile's launcher.
    let name = first.demo_name(1);
    sandbox
        .safe_ad()
        .args(["--profile", "real", "show", &name])
        .run()
        .success();
    assert!(!first.requests().is_empty());
    // Another profile, not read-only, changes what the read-only one refused.
    sandbox
        .safe_ad()
        .args(["--profile", "second", "create"])
        .run()
        .success();
    assert!(second
        .requests()
        .iter()
        .any(|line| line.starts_with("POST /appendable-data")));
}

#[test]
fn a_profile_the_file_lacks_is_refused_naming_those_it_has() {
    let first = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    // No config file at all.
    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", &first.url)
        .args(["--profile", "emu", "auth", "status"])
        .run()
        .code(2)
        .stderr_has("no profile `emu` (from --profile): there is no config file at")
        .stderr_has("safe-ad config set --profile emu launcher_url URL");
    sandbox
        .write_config(&json!({"profiles": {"emu": {}, "real": {"read_only": true}}}).to_string());
    for safe_ad in [
        sandbox.safe_ad().args(["--profile", "nope"]),
        sandbox.safe_ad().env("SAFE_AD_PROFILE", "nope"),
    ] {
        safe_ad
            .launcher(&first.url)
            .args(["show", "1"])
            .run()
            .code(2)
            .stderr_has("no profile `nope`")
            .stderr_has("the profiles there are emu, real");
    }
    // A change under an unknown profile is refused the same way, not let through.
    sandbox
        .safe_ad()
        .launcher(&first.url)
        .args(["--profile", "nope", "put", "1"])
        .run()
        .code(2)
        .stderr_has("no profile `nope`");
    assert_eq!(first.requests(), Vec::<String>::new());
    // A profile without a token says how to give it one.
    sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", &first.url)
        .args(["--profile", "emu", "metadata", "1"])
        .run()
        .code(3)
        .stderr_has("safe-ad auth login --profile emu")
        .stderr_has("safe-ad config set --profile emu token - < FILE");
    assert_eq!(first.requests(), Vec::<String>::new());
    // An empty variable is no profile.
    sandbox
        .safe_ad()
        .launcher(&first.url)
        .env("SAFE_AD_PROFILE", "")
        .args(["auth", "status"])
        .run()
        .success();
}

#[test]
fn a_profiles_token_is_used_and_never_printed() {
    let first = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    sandbox.write_config(
        &json!({"profiles": {"emu": {"launcher_url": first.url, "token": TOKEN}}}).to_string(),
    );
    // Each run is checked by the harness for any piece of the token on stdout or stderr.
    let shown = sandbox
        .safe_ad()
        .args(["--profile", "emu", "config", "show", "--json"])
        .run()
        .success()
        .json_lines()
        .remove(0);
    assert_eq!(shown["token"]["source"], "profile");
    sandbox
        .safe_ad()
        .args(["--profile", "emu", "auth", "status"])
        .run()
        .success();
    sandbox
        .safe_ad()
        .args(["--profile", "emu", "put", "--curl", "1"])
        .run()
        .success()
        .stdout_has("$(safe-ad --profile emu auth token)");
    // Another profile's token is kept out too, though the run does not use it.
    sandbox
        .safe_ad()
        .launcher(&first.url)
        .env("SAFE_LAUNCHER_TOKEN", "not-the-profiles-token")
        .args(["config", "show"])
        .run()
        .success();
    assert_eq!(first.requests(), ["GET /auth 200"]);
}

#[test]
fn login_and_logout_under_a_profile_keep_the_token_in_it() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    sandbox.write_config(
        &json!({"token": TOKEN, "profiles": {"emu": {"launcher_url": emulator.url}}}).to_string(),
    );
    sandbox
        .safe_ad()
        .args(["auth", "login", "--profile", "emu"])
        .run()
        .success()
        .stderr_has("logged in: token stored in profile emu of");
    let file = config_json(&sandbox);
    let issued = file["profiles"]["emu"]["token"]
        .as_str()
        .expect("the profile's token");
    assert_ne!(issued, TOKEN);
    // The top level keeps its own token.
    assert_eq!(file["token"], TOKEN);
    let status = sandbox
        .safe_ad()
        .args(["--profile", "emu", "auth", "status", "--json"])
        .run();
    status
        .success()
        .stdout_has(r#""source":"profile","from":"emu""#)
        .check(
            !status.text().contains(issued),
            "the profile's token printed",
        );
    sandbox
        .safe_ad()
        .args(["--profile", "emu", "auth", "logout"])
        .run()
        .success()
        .stderr_has("removed the token from profile emu of");
    assert_eq!(
        config_json(&sandbox),
        json!({"token": TOKEN, "profiles": {"emu": {"launcher_url": emulator.url}}})
    );
    assert_eq!(
        emulator.requests(),
        ["POST /auth 200", "GET /auth 200", "DELETE /auth 200"]
    );
}

#[test]
fn read_only_at_the_top_level_guards_a_run_without_a_profile_and_a_profile_can_lift_it() {
    let first = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let file = sandbox.write_config(
        &json!({
            "launcher_url": first.url,
            "token": TOKEN,
            "read_only": true,
            "profiles": {"emu": {"read_only": false}, "also": {}},
        })
        .to_string(),
    );
    let name = first.demo_name(1);
    sandbox
        .safe_ad()
        .args([
            "append",
            &name,
            "--structured",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        ])
        .run()
        .code(2)
        .stderr_has(&format!(
            "the config file {} sets read_only: `append` changes",
            file.display()
        ))
        .stderr_has("another profile (--profile NAME or SAFE_AD_PROFILE: emu)");
    // A profile that leaves read_only out keeps the top level's.
    sandbox
        .safe_ad()
        .args(["--profile", "also", "post", "1"])
        .run()
        .code(2)
        .stderr_has(
            "profile `also` is read-only (it leaves read_only to the config file's top level)",
        )
        .stderr_has("safe-ad config set --profile also read_only false");
    assert_eq!(first.requests(), Vec::<String>::new());
    // One that sets it false lifts it.
    let handle = first.fresh_handle(1);
    sandbox
        .safe_ad()
        .args(["--profile", "emu", "post", &handle.to_string()])
        .run()
        .success();
    assert!(
        first
            .requests()
            .iter()
            .any(|line| line.starts_with("POST /appendable-data/")),
        "the post was sent"
    );
}
