//! Each client option is offered only where it acts, as the one table (`cli::COMMAND_OPTIONS`)
//! says: the parser, the help and the binary follow it; an option a command does not take is
//! refused before anything is sent or written (so the dry runs of `auth` and `config` cannot
//! act); `auth status`, `config show` and `config path` speak JSON; `-q` changes output only;
//! and each command's `-h` fits a screen.

use std::collections::BTreeSet;

use safe_ad::test_support::cli::{options_of, Opt, COMMAND_OPTIONS};
use serde_json::Value;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::harness::*;

// ---- the table and the parser ------------------------------------------------------------------

/// Every command of the built clap tree, by path (`""` for the top level, `"auth status"`).
fn command_tree() -> Vec<(String, clap::Command)> {
    let mut root = safe_ad::test_support::help::command();
    root.build();
    let mut commands = Vec::new();
    let mut pending = vec![(String::new(), root)];
    while let Some((path, command)) = pending.pop() {
        for sub in command.get_subcommands() {
            let name = format!("{path} {}", sub.get_name()).trim().to_string();
            pending.push((name, sub.clone()));
        }
        commands.push((path, command));
    }
    commands.sort_by(|a, b| a.0.cmp(&b.0));
    commands
}

/// Whether `arg` is one of the client options: the top level has every client option, so an
/// argument of another command is one when it has the same id, long name and help as there. The
/// emulator's own `--quiet` and `--token-file` share a name with two of them and are not them.
fn is_client_option(arg: &clap::Arg, top: &clap::Command) -> bool {
    top.get_arguments().any(|definition| {
        Opt::ALL.iter().any(|opt| opt.id() == definition.get_id())
            && arg.get_id() == definition.get_id()
            && arg.get_long() == definition.get_long()
            && arg.get_help().map(ToString::to_string)
                == definition.get_help().map(ToString::to_string)
    })
}

/// The client options `command` offers, in help order.
fn client_options_of(command: &clap::Command, top: &clap::Command) -> Vec<Opt> {
    Opt::ALL
        .into_iter()
        .filter(|opt| {
            command
                .get_arguments()
                .any(|arg| arg.get_id() == opt.id() && is_client_option(arg, top))
        })
        .collect()
}

/// Whether `path` is one of clap's `help` commands (`help`, `auth help login`).
fn clap_help(path: &str) -> bool {
    path.split(' ').any(|word| word == "help")
}

fn listed(path: &str) -> Vec<Opt> {
    options_of(path).iter().collect()
}

#[test]
fn the_parser_offers_each_command_exactly_the_options_the_table_gives_it() {
    let tree = command_tree();
    let top = &tree
        .iter()
        .find(|(path, _)| path.is_empty())
        .expect("top")
        .1;
    let union: BTreeSet<&str> = COMMAND_OPTIONS
        .iter()
        .flat_map(|(_, opts)| opts.iter().map(Opt::id))
        .collect();
    let at_top: BTreeSet<&str> = top
        .get_arguments()
        .map(|arg| arg.get_id().as_str())
        .filter(|id| Opt::ALL.iter().any(|opt| opt.id() == *id))
        .collect();
    assert_eq!(
        at_top, union,
        "before the subcommand, every option some command takes (and no other) is accepted"
    );
    let mut wrong = Vec::new();
    for (path, command) in tree.iter().filter(|(path, _)| !path.is_empty()) {
        let offered = client_options_of(command, top);
        if offered != listed(path) {
            wrong.push(format!(
                "`safe-ad {path}` offers {offered:?}, the table says {:?}",
                listed(path)
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // A typo in the table would give a command no options, silently.
    for (path, _) in COMMAND_OPTIONS {
        assert!(
            tree.iter().any(|(command, _)| command == path),
            "the table names `{path}`, which is not a command"
        );
    }
    #[cfg(feature = "emulator")]
    {
        let emulator = &tree
            .iter()
            .find(|(path, _)| path == "emulator")
            .expect("the emulator command")
            .1;
        assert!(listed("emulator").is_empty());
        assert!(
            client_options_of(emulator, top).is_empty(),
            "the emulator is a program of its own: it takes no client option"
        );
    }
}

/// The short name of a client option (`-q`), as the top level defines it.
fn top_short(opt: Opt) -> Option<char> {
    let mut top = safe_ad::test_support::help::command();
    top.build();
    let arg = top.get_arguments().find(|arg| arg.get_id() == opt.id())?;
    arg.get_short()
}

/// Arguments that make `path` a complete command line, so that only the option under test can
/// be what is refused. A new command must be added here.
fn sample_args(path: &str) -> &'static [&'static str] {
    match path {
        "create" | "auth login" | "auth status" | "auth logout" | "auth token" | "auth whoami"
        | "config path" | "config show" => &[],
        "open" => &["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="],
        "put" | "post" | "clear-data" | "clear-deleted-data" | "metadata" | "reopen" | "drop"
        | "show" | "status" => &["1"],
        "remove" | "restore" | "purge" | "cat" => &["1", "0"],
        "append" => &[
            "1",
            "--structured",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        ],
        "auth" => &["status"],
        "config" => &["show"],
        "config set" => &["timeout_secs", "5"],
        "config unset" => &["timeout_secs"],
        "completions" => &["bash"],
        "decode" => &["AQAAAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB"],
        // Should the refusal fail, the emulator runs `true` and stops at once.
        "emulator" => &["--listen", "127.0.0.1:0", "--", "true"],
        // Should the refusal fail, it asks the counting launcher for a journal.
        "emulator requests" => &["--count"],
        // Should the refusal fail, it asks the counting launcher for a network, to stdout.
        "emulator export" => &["-"],
        "emulator list" => &[],
        other => panic!("no sample arguments for `safe-ad {other}`: add them here"),
    }
}

#[test]
fn every_command_refuses_each_option_it_does_not_take_before_or_after_it() {
    let launcher = counting_launcher();
    let sandbox = Sandbox::new();
    let token_file = sandbox.file("token", TOKEN);
    let value = |opt: Opt| -> Option<String> {
        match opt {
            Opt::LauncherUrl => Some(launcher.url.clone()),
            Opt::TokenFile => Some(token_file.display().to_string()),
            Opt::Timeout => Some("5".into()),
            Opt::Retries => Some("1".into()),
            Opt::Jobs => Some("2".into()),
            Opt::Color => Some("never".into()),
            _ => None,
        }
    };
    let tree = command_tree();
    let mut runs = 0;
    for (path, command) in &tree {
        // clap's own `help` commands print help, whatever else is typed.
        if path.is_empty() || clap_help(path) {
            continue;
        }
        let group = command.has_subcommands();
        let words: Vec<&str> = path.split(' ').collect();
        for opt in Opt::ALL {
            if options_of(path).contains(opt) {
                continue;
            }
            let long = opt.long();
            let short = top_short(opt).map(|short| format!("-{short}"));
            for name in std::iter::once(long.clone()).chain(short) {
                let mut option = vec![name.clone()];
                option.extend(value(opt));
                // The emulator's own --quiet (-q) and --token-file, after its name, are its own.
                let own = command.get_arguments().any(|arg| {
                    arg.get_long() == Some(&long[2..])
                        || arg.get_short().map(|c| format!("-{c}")) == Some(name.clone())
                });
                let sample = sample_args(path).iter().map(|a| a.to_string());
                let mut lines: Vec<(Vec<String>, String)> = Vec::new();
                if !own {
                    let mut after: Vec<String> = words.iter().map(|w| w.to_string()).collect();
                    after.extend(option.iter().cloned());
                    after.extend(sample.clone());
                    lines.push((after, format!("`safe-ad {path}` does not take {long}")));
                }
                if !group {
                    let mut before = option.clone();
                    before.extend(words.iter().map(|w| w.to_string()));
                    before.extend(sample);
                    let words = if own {
                        format!("`safe-ad {path}` has its own {long}, given after its name")
                    } else {
                        format!("`safe-ad {path}` does not take {long}")
                    };
                    lines.push((before, words));
                }
                for (line, words) in lines {
                    runs += 1;
                    assert_refused_untouched(&sandbox, &launcher, true, &line, &words);
                }
            }
        }
    }
    assert!(runs > 100, "only {runs} refusals were tried");
}

// ---- help --------------------------------------------------------------------------------------

/// The long names of the options a help text lists: clap writes an option's line with two spaces
/// and its short name, or six spaces and its long name; wrapped descriptions are indented
/// further.
fn options_in_help(help: &str) -> BTreeSet<String> {
    help.lines()
        .filter_map(|line| {
            let rest = if line.starts_with("  -") && !line.starts_with("   ") {
                &line[2..]
            } else if line.starts_with("      --") && !line.starts_with("       ") {
                &line[6..]
            } else {
                return None;
            };
            let long = rest
                .split([' ', ',', '='])
                .find(|word| word.starts_with("--"))?;
            Some(long.to_string())
        })
        .collect()
}

/// The height a command's `-h` must fit in, at 80 columns (the narrowest common terminal, where
/// help wraps most). The 80×24 default fits none of them; 48 rows is twice that, a terminal on
/// most of a laptop screen. Measured at 80 columns: the longest is `clear-data` with 44 lines
/// (`create` 43, `metadata` 42, `emulator` 41); before each command listed only its own options
/// they were 65 to 89. One client option put back where it does nothing adds at least two lines.
const SCREEN_ROWS: usize = 48;

#[test]
fn each_commands_help_fits_a_screen_and_lists_only_the_options_it_takes() {
    let tree = command_tree();
    let top = tree[0].1.clone();
    let client_longs: BTreeSet<String> = Opt::ALL.iter().map(|opt| opt.long()).collect();
    let mut wrong = Vec::new();
    let mut heights = Vec::new();
    for (path, command) in &tree {
        if clap_help(path) {
            continue;
        }
        let words: Vec<&str> = path.split_whitespace().collect();
        // What the command's own arguments are called, besides the client options.
        let own: BTreeSet<String> = command
            .get_arguments()
            .filter(|arg| !is_client_option(arg, &top))
            .filter_map(|arg| arg.get_long().map(|long| format!("--{long}")))
            .collect();
        let takes: BTreeSet<String> = if path.is_empty() {
            BTreeSet::new()
        } else {
            listed(path).iter().map(|opt| opt.long()).collect()
        };
        for flag in ["-h", "--help"] {
            let output = SafeAd::new()
                .env("COLUMNS", "80")
                .args(&words)
                .arg(flag)
                .run();
            output.success();
            let help = output.stdout();
            let shown = options_in_help(help);
            // (The emulator's own --quiet and --token-file are its own, not client options.)
            let shown_client: BTreeSet<String> = shown
                .intersection(&client_longs)
                .filter(|long| !own.contains(*long))
                .cloned()
                .collect();
            // At the top level the client options are accepted but belong to the commands:
            // the short help leaves them out, the long help lists them under their own heading.
            // A command's short help names them in one closing line instead, all of them.
            let expected = if path.is_empty() && flag == "--help" {
                listed_union()
            } else if flag == "-h" {
                let line = help
                    .split(&format!("{}: ", safe_ad::test_support::cli::CLIENT_OPTIONS))
                    .nth(1)
                    .unwrap_or_default()
                    .replace('\n', " ");
                for long in &takes {
                    if !line.contains(&format!("{long},")) && !line.contains(&format!("{long} ")) {
                        wrong.push(format!("`safe-ad {path} -h` does not name {long}"));
                    }
                }
                BTreeSet::new()
            } else {
                takes.clone()
            };
            if shown_client != expected {
                wrong.push(format!(
                    "`safe-ad {path} {flag}` lists {shown_client:?}, expected {expected:?}"
                ));
            }
            for long in &shown {
                if !own.contains(long) && !shown_client.contains(long) {
                    wrong.push(format!(
                        "`safe-ad {path} {flag}` lists {long}, which it does not take"
                    ));
                }
            }
            if flag == "-h" {
                let lines = help.lines().count();
                let longest = help.lines().map(|l| l.chars().count()).max().unwrap_or(0);
                assert!(
                    longest <= 80,
                    "`safe-ad {path} -h` is wider than 80 columns"
                );
                heights.push(format!("{path:?}: {lines}"));
                if !path.is_empty() && lines > SCREEN_ROWS {
                    wrong.push(format!(
                        "`safe-ad {path} -h` is {lines} lines at 80 columns, more than {SCREEN_ROWS}"
                    ));
                }
            }
        }
    }
    println!("-h lines at 80 columns: {}", heights.join(", "));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn listed_union() -> BTreeSet<String> {
    COMMAND_OPTIONS
        .iter()
        .flat_map(|(_, opts)| opts.iter().map(|opt| opt.long()))
        .collect()
}

// ---- dry runs that cannot act ------------------------------------------------------------------

/// A launcher that answers every request, so any request safe-ad sent would be counted.
fn counting_launcher() -> RawLauncher {
    RawLauncher::answering(http_answer("200 OK", b"OK"))
}

/// Runs `line` with the launcher's URL (and, `with_token`, the test token) in the environment;
/// it must be refused (exit 2, `words` on stderr, nothing on stdout) without reaching the
/// launcher or changing the config file.
#[track_caller]
fn assert_refused_untouched(
    sandbox: &Sandbox,
    launcher: &RawLauncher,
    with_token: bool,
    line: &[impl AsRef<str>],
    words: &str,
) {
    let line: Vec<&str> = line.iter().map(AsRef::as_ref).collect();
    let before = std::fs::read(sandbox.config_file()).ok();
    let mut safe_ad = sandbox.safe_ad().env("SAFE_LAUNCHER_URL", &launcher.url);
    if with_token {
        safe_ad = safe_ad.env("SAFE_LAUNCHER_TOKEN", TOKEN);
    }
    safe_ad
        .args(&line)
        .run()
        .code(2)
        .stdout_is("")
        .stderr_has("safe-ad: error: ")
        .stderr_has(words);
    let line = line.join(" ");
    assert_eq!(
        launcher.connections(),
        0,
        "safe-ad {line} reached the launcher"
    );
    assert!(
        std::fs::read(sandbox.config_file()).ok() == before,
        "safe-ad {line} changed the config file"
    );
}

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

// ---- JSON of auth status, config show, config path ---------------------------------------------

/// A launcher that answers `GET /auth` with `status` when the test token is sent.
async fn checking_launcher(status: u16) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/auth"))
        .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
        .respond_with(
            ResponseTemplate::new(status).set_body_string(if status == 200 {
                "OK"
            } else {
                "Unauthorized"
            }),
        )
        .mount(&server)
        .await;
    server
}

/// The keys of a JSON object, sorted.
fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

/// A setting as the JSON gives it: `{value, source, from}`.
fn setting(value: impl Into<Value>, source: Option<&str>, from: Option<&str>) -> Value {
    serde_json::json!({"value": value.into(), "source": source, "from": from})
}

/// The token as `auth status` and `config show` show it: a few leading characters and the
/// length, never the whole.
fn masked_token() -> Value {
    let shown: String = TOKEN.chars().take(4).collect();
    Value::from(format!("{shown}… ({} characters)", TOKEN.chars().count()))
}

/// One JSON object on stdout, and nothing else there.
#[track_caller]
fn only_object(output: &Output) -> Value {
    let mut lines = output.json_lines();
    output.check(
        lines.len() == 1,
        "expected exactly one JSON object on stdout",
    );
    lines.remove(0)
}

#[tokio::test]
async fn auth_status_json_is_one_object_with_the_same_exit_code() {
    let accepting = checking_launcher(200).await;
    let refusing = checking_launcher(401).await;
    let closed = closed_port_url();
    // (case, launcher, token in the env, exit code, status, error class)
    let cases = [
        ("accepted", accepting.uri(), true, 0, "accepted", None),
        ("401", refusing.uri(), true, 3, "not_accepted", Some("auth")),
        (
            "no token",
            accepting.uri(),
            false,
            3,
            "no_token",
            Some("auth"),
        ),
        (
            "closed port",
            closed.clone(),
            true,
            6,
            "unreachable",
            Some("unreachable"),
        ),
    ];
    for (case, url, with_token, code, status, class) in cases {
        let run = |json: bool| {
            let mut safe_ad = SafeAd::new().case(case).env("SAFE_LAUNCHER_URL", &url);
            if with_token {
                safe_ad = safe_ad.env("SAFE_LAUNCHER_TOKEN", TOKEN);
            }
            if json {
                safe_ad = safe_ad.arg("--json");
            }
            safe_ad.args(["auth", "status"]).run()
        };
        run(false).code(code);
        let output = run(true);
        output.code(code);
        let object = only_object(&output);
        let mut expected_keys = vec!["exit_code", "launcher_url", "ok", "status", "token"];
        if class.is_some() {
            expected_keys.push("error");
        }
        expected_keys.sort_unstable();
        assert_eq!(keys(&object), expected_keys, "{case}: {object}");
        assert_eq!(
            object["launcher_url"],
            setting(url.as_str(), Some("env"), Some("SAFE_LAUNCHER_URL")),
            "{case}"
        );
        let token = if with_token {
            setting(masked_token(), Some("env"), Some("SAFE_LAUNCHER_TOKEN"))
        } else {
            setting(Value::Null, None, None)
        };
        assert_eq!(object["token"], token, "{case}");
        assert_eq!(object["status"], status, "{case}");
        assert_eq!(object["ok"], code == 0, "{case}");
        assert_eq!(object["exit_code"], code, "{case}");
        if let Some(class) = class {
            assert_eq!(object["error"]["class"], class, "{case}: {object}");
        }
        // The plain lines' words do not leak into stdout next to the object.
        output.check(
            !output.stdout().contains("launcher  "),
            "plain text on stdout",
        );
    }
}

#[test]
fn config_show_and_config_path_json_name_each_setting_and_where_it_comes_from() {
    let sandbox = Sandbox::new();
    let file = sandbox.config_file().display().to_string();
    // Before the file exists.
    let path = only_object(
        sandbox
            .safe_ad()
            .args(["config", "path", "--json"])
            .run()
            .success(),
    );
    assert_eq!(path, serde_json::json!({"path": file, "exists": false}));
    let shown = only_object(
        sandbox
            .safe_ad()
            .args(["config", "show", "--json"])
            .run()
            .success(),
    );
    // Every config key (from the one list of them, so a new key cannot be left out unseen) and
    // where the file is.
    let mut expected: Vec<&str> = safe_ad::test_support::config_file::Key::ALL
        .map(|key| key.name())
        .into();
    expected.push("config_file");
    expected.sort_unstable();
    assert_eq!(keys(&shown), expected);
    assert_eq!(
        shown["launcher_url"],
        setting("http://localhost:8100", Some("default"), None)
    );
    assert_eq!(shown["token"], setting(Value::Null, None, None));
    assert_eq!(shown["timeout_secs"], setting(30.0, Some("default"), None));
    assert_eq!(
        shown["config_file"],
        serde_json::json!({"path": file, "exists": false})
    );

    // Each setting from another place: the token and timeout from the file, the URL from a flag.
    sandbox.write_config(&format!(r#"{{"token": "{TOKEN}", "timeout_secs": 12.5}}"#));
    let output = sandbox
        .safe_ad()
        .args([
            "config",
            "show",
            "--json",
            "--launcher-url",
            "http://127.0.0.1:9/0.6",
        ])
        .run();
    output.success();
    let shown = only_object(&output);
    assert_eq!(
        shown["launcher_url"],
        setting(
            "http://127.0.0.1:9/0.6",
            Some("flag"),
            Some("--launcher-url")
        )
    );
    assert_eq!(
        shown["token"],
        setting(masked_token(), Some("config_file"), Some(&file))
    );
    assert_eq!(
        shown["timeout_secs"],
        setting(12.5, Some("config_file"), Some(&file))
    );
    assert_eq!(
        shown["config_file"],
        serde_json::json!({"path": file, "exists": true})
    );
    let path = only_object(
        sandbox
            .safe_ad()
            .args(["config", "path", "--json"])
            .run()
            .success(),
    );
    assert_eq!(path, serde_json::json!({"path": file, "exists": true}));

    // The token from a file given with --token-file names that file.
    let token_file = sandbox.file("token.txt", TOKEN);
    let token_path = token_file.display().to_string();
    let shown = only_object(
        sandbox
            .safe_ad()
            .args(["config", "show", "--json", "--token-file", &token_path])
            .run()
            .success(),
    );
    assert_eq!(
        shown["token"],
        setting(masked_token(), Some("token_file"), Some(&token_path))
    );
}

#[tokio::test]
async fn auth_status_quiet_prints_nothing_and_lets_the_exit_code_speak() {
    let accepting = checking_launcher(200).await;
    let refusing = checking_launcher(401).await;
    for (url, code) in [(accepting.uri(), 0), (refusing.uri(), 3)] {
        for line in [
            &["-q", "auth", "status"][..],
            &["auth", "status", "--quiet"],
        ] {
            let output = SafeAd::new().launcher(&url).args(line).run();
            output.code(code).stdout_is("");
            if code == 0 {
                output.stderr_is("");
            } else {
                // The error still says why: -q silences success, not failure.
                output.stderr_has("401");
            }
        }
    }
}

// ---- -q changes output only ---------------------------------------------------------------------

/// `yes 1 | safe-ad -q COMMAND - | true`: the reader of stdout is gone from the start and `yes`
/// never ends, so a batch that did not notice would run until the deadline fails the test. With
/// `metadata` each answer is data, printed even with `-q`, and the failed write tells safe-ad;
/// `clear-data` prints nothing with `-q`, so only asking the pipe can (before, it ran forever).
#[cfg(feature = "emulator")]
#[test]
fn quiet_batch_stops_when_its_reader_has_gone() {
    use crate::harness::emulator::Emulator;
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    for (command, request) in [
        ("metadata", "GET /appendable-data/metadata/1 "),
        ("clear-data", "DELETE /appendable-data/clear-data/1 "),
    ] {
        let output = sandbox
            .shell("sh", &format!("yes 1 | safe-ad -q {command} - | true"))
            .env("SAFE_LAUNCHER_URL", &emulator.url)
            .env("SAFE_LAUNCHER_TOKEN", &emulator.token)
            .run();
        output
            .success()
            .stdout_is("")
            .stderr_has("the rest of standard input not read");
        let summary = output
            .stderr()
            .lines()
            .find(|line| line.contains(" handles: "))
            .expect("a summary line");
        // `N handles: A ok, B failed, ...`: what it says it sent, the emulator saw.
        let count = |word: &str| -> usize {
            summary
                .split(", ")
                .find_map(|part| part.strip_suffix(word))
                .and_then(|n| n.rsplit(' ').next()?.parse().ok())
                .unwrap_or_else(|| panic!("no {word:?} in {summary:?}"))
        };
        let sent = count(" ok") + count(" failed");
        let seen = emulator
            .requests()
            .iter()
            .filter(|line| line.starts_with(request))
            .count();
        assert_eq!(
            seen, sent,
            "{command}: the summary ({summary}) and the emulator disagree"
        );
    }
}

/// `-q` and Ctrl-C while requests are out: the one line a person must read after an interrupt
/// (some requests were sent and may have taken effect) is not success output, so it stays.
#[test]
fn quiet_ctrl_c_still_says_what_was_sent_but_not_awaited() {
    let launcher = RawLauncher::start(|conn| {
        if conn.request().is_some() {
            conn.hold();
        }
    });
    let running = SafeAd::new()
        .launcher(&launcher.url)
        .args(["-q", "--jobs", "2", "put", "1", "2", "3", "4"])
        .spawn();
    launcher.wait_for_requests(2);
    running.interrupt();
    let output = running.wait();
    output
        .code(130)
        .stdout_is("")
        .stderr_has("4 handles: 0 ok, 0 failed, 2 sent but not awaited (they may have taken effect), 2 not started")
        .stderr_has("safe-ad: error: interrupted");
    launcher.settle();
    assert_eq!(
        launcher.requests().len(),
        2,
        "requests went out after Ctrl-C"
    );
}
