//! Settings as a user meets them: where the token, the launcher URL, the timeout and the config
//! file come from and in which order, the default launcher URL, the config directory, a token in
//! a file others can read, help and version. Every way a setting can be wrong (exit 2, or 3 for no
//! token at all, and nothing sent) is a row of the table in `bad_input`.

use std::path::Path;

use crate::harness::*;
use wiremock::MockServer;

const ENV_URL: &str = "SAFE_LAUNCHER_URL";
const ENV_TOKEN: &str = "SAFE_LAUNCHER_TOKEN";

/// `safe-ad --token-file <file> drop 1` against `server`.
fn drop_with_token_file(sandbox: &Sandbox, server: &MockServer, file: &Path) -> Output {
    sandbox
        .safe_ad()
        .env(ENV_URL, server.uri())
        .arg("--token-file")
        .arg(file)
        .args(["drop", "1"])
        .run()
}

// ---------------------------------------------------------------------------------------------
// Token: sources and their order

#[tokio::test]
async fn token_file_beats_env_which_beats_the_config_file() {
    let server = any_ok_launcher().await;
    let sandbox = Sandbox::new();
    sandbox.write_config(r#"{"token": "from-config"}"#);
    let file = sandbox.file("token.txt", b"from-file\n");

    sandbox
        .safe_ad()
        .env(ENV_URL, server.uri())
        .env(ENV_TOKEN, "from-env")
        .arg("--token-file")
        .arg(&file)
        .args(["drop", "1"])
        .run()
        .success();
    sandbox
        .safe_ad()
        .env(ENV_URL, server.uri())
        .env(ENV_TOKEN, "from-env")
        .args(["drop", "2"])
        .run()
        .success();
    sandbox
        .safe_ad()
        .env(ENV_URL, server.uri())
        .args(["drop", "3"])
        .run()
        .success();

    assert_eq!(
        bearers(&server).await,
        ["Bearer from-file", "Bearer from-env", "Bearer from-config"]
    );
}

#[tokio::test]
async fn token_file_dash_reads_standard_input() {
    let server = any_ok_launcher().await;
    let sandbox = Sandbox::new();
    sandbox.write_config(r#"{"token": "from-config"}"#);
    sandbox
        .safe_ad()
        .env(ENV_URL, server.uri())
        .env(ENV_TOKEN, "from-env")
        .args(["--token-file", "-", "drop", "4"])
        .stdin("from-stdin\n")
        .run()
        .success();
    assert_eq!(bearers(&server).await, ["Bearer from-stdin"]);
}

/// A token file's (or standard input's, or the config file's) whitespace around the token is
/// trimmed: a final newline is what editors and `echo` write. The env var's is refused instead
/// (exit 2, nothing sent): a `--curl` line hands the variable to curl as it is.
#[tokio::test]
async fn whitespace_around_a_token_is_trimmed_from_a_file_and_refused_in_the_env_var() {
    let server = any_ok_launcher().await;
    let sandbox = Sandbox::new();
    for (name, contents) in [
        ("newline", &b"tok\n"[..]),
        ("crlf", b"tok\r\n"),
        ("spaces", b"  \ttok \n\n"),
    ] {
        let file = sandbox.file(name, contents);
        drop_with_token_file(&sandbox, &server, &file).success();
    }
    sandbox
        .safe_ad()
        .env(ENV_URL, server.uri())
        .args(["--token-file", "-", "drop", "1"])
        .stdin(" tok\n")
        .run()
        .success();
    sandbox.write_config("{\"token\": \"\\ttok\\n\"}");
    sandbox
        .safe_ad()
        .env(ENV_URL, server.uri())
        .args(["drop", "1"])
        .run()
        .success();
    // A token of its own, in a sandbox without the config file's: "tok" is kept out of what is
    // printed, and would be cut out of the word "token".
    let without_config = Sandbox::new();
    for around in [" env-tok3n", "env-tok3n ", "env-tok3n\n", "\tenv-tok3n\r\n"] {
        without_config
            .safe_ad()
            .env(ENV_URL, server.uri())
            .env(ENV_TOKEN, around)
            .args(["drop", "1"])
            .run()
            .code(2)
            .stderr_has("the token has whitespace around it (from env var SAFE_LAUNCHER_TOKEN)");
    }

    assert_eq!(bearers(&server).await, vec!["Bearer tok"; 5]);
}

// ---------------------------------------------------------------------------------------------
// Launcher URL: sources and their order

#[tokio::test]
async fn launcher_url_flag_beats_env_which_beats_the_config_file() {
    let from_flag = any_ok_launcher().await;
    let from_env = any_ok_launcher().await;
    let from_config = any_ok_launcher().await;
    let sandbox = Sandbox::new();
    sandbox.write_config(&format!(
        r#"{{"launcher_url": "{}", "token": "{TOKEN}"}}"#,
        from_config.uri()
    ));

    sandbox
        .safe_ad()
        .env(ENV_URL, from_env.uri())
        .args(["--launcher-url", &from_flag.uri(), "drop", "1"])
        .run()
        .success();
    sandbox
        .safe_ad()
        .env(ENV_URL, from_env.uri())
        .args(["drop", "2"])
        .run()
        .success();
    sandbox.safe_ad().args(["drop", "3"]).run().success();

    for (server, route) in [
        (&from_flag, "/appendable-data/handle/1"),
        (&from_env, "/appendable-data/handle/2"),
        (&from_config, "/appendable-data/handle/3"),
    ] {
        assert_eq!(received_paths(server).await, [route]);
    }
}

#[test]
fn default_launcher_url_is_documented_in_help() {
    let out = SafeAd::new().arg("--help").run();
    out.success().stdout_has("http://localhost:8100");
    let (_, after) = out
        .stdout()
        .split_once("--launcher-url <URL>")
        .expect("--launcher-url in --help");
    let flag_help: String = after
        .split_whitespace()
        .take(40)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flag_help.contains("Default: http://localhost:8100"),
        "{flag_help}"
    );
}

/// With no URL configured the request goes to localhost:8100: `--dry-run` shows the URL it would
/// use and `config show` names it as the default. Neither connects, so no port is bound and a
/// launcher running on this machine is never hit.
#[test]
fn default_launcher_url_is_localhost_8100() {
    let sandbox = Sandbox::new();
    let dry_run = sandbox
        .safe_ad()
        .env(ENV_TOKEN, TOKEN)
        .args(["--dry-run", "put", "8100"])
        .run();
    dry_run.success().check(
        dry_run
            .stdout()
            .starts_with("PUT http://localhost:8100/appendable-data/8100\n"),
        "the request would not go to http://localhost:8100",
    );
    sandbox
        .safe_ad()
        .args(["config", "show"])
        .run()
        .success()
        .stdout_has("launcher_url  http://localhost:8100  (default)");
}

// ---------------------------------------------------------------------------------------------
// Config file location

#[tokio::test]
async fn config_dir_env_var_names_where_config_json_is_read() {
    let server = any_ok_launcher().await;
    let home_server = any_ok_launcher().await;
    let sandbox = Sandbox::new();
    sandbox.write_config(&format!(
        r#"{{"launcher_url": "{}", "token": "from-config-dir"}}"#,
        server.uri()
    ));
    // A config in the platform location (under the sandbox HOME) that the override must hide.
    let home_config_dir = sandbox.path().join(".config").join("safe-ad");
    std::fs::create_dir_all(&home_config_dir).expect("home config dir");
    let home_config = home_config_dir.join("config.json");
    std::fs::write(
        &home_config,
        format!(
            r#"{{"launcher_url": "{}", "token": "from-home"}}"#,
            home_server.uri()
        ),
    )
    .expect("home config");
    set_mode(&home_config, 0o600);

    sandbox.safe_ad().args(["drop", "1"]).run().success();
    assert_eq!(bearers(&server).await, ["Bearer from-config-dir"]);
    assert_nothing_sent(&home_server, "overridden home config").await;

    if cfg!(target_os = "linux") {
        // Without the override, the platform directory (~/.config/safe-ad) is used.
        sandbox
            .safe_ad()
            .env_remove("SAFE_AD_CONFIG_DIR")
            .args(["drop", "2"])
            .run()
            .success();
        assert_eq!(bearers(&home_server).await, ["Bearer from-home"]);
    }

    // Set but empty is a mistake, not "use the default".
    sandbox
        .safe_ad()
        .env("SAFE_AD_CONFIG_DIR", "")
        .args(["drop", "3"])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_has("SAFE_AD_CONFIG_DIR")
        .stderr_has("empty");
    assert_eq!(request_count(&server).await, 1);
}

#[tokio::test]
async fn a_missing_config_file_is_fine() {
    let server = ok_launcher().await;
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .launcher(&server.uri())
        .args(["drop", "1"])
        .run()
        .success()
        .stderr_is("");
    sandbox
        .safe_ad()
        .launcher(&server.uri())
        .env("SAFE_AD_CONFIG_DIR", sandbox.path().join("not/there"))
        .args(["drop", "2"])
        .run()
        .success();
    assert_eq!(request_count(&server).await, 2);
}

// ---------------------------------------------------------------------------------------------
// A token in a config file others can read

#[tokio::test]
async fn a_token_in_a_config_file_others_can_read_is_warned_about() {
    let server = any_ok_launcher().await;
    for (mode, shown) in [(0o644, "644"), (0o640, "640"), (0o604, "604")] {
        let sandbox = Sandbox::new();
        let path = sandbox.write_config(&format!(r#"{{"token": "{TOKEN}"}}"#));
        set_mode(&path, mode);
        sandbox
            .safe_ad()
            .env(ENV_URL, server.uri())
            .args(["drop", "1"])
            .case(format!("mode {shown}"))
            .run()
            .success()
            .stdout_is("drop 1: ok\n")
            .stderr_has("warning")
            .stderr_has("chmod 600")
            .stderr_has(shown)
            .stderr_has(path.to_str().expect("utf-8 path"));
    }
    // Private file: no warning. Readable file without a token: nothing to protect, no warning.
    for (text, mode) in [
        (format!(r#"{{"token": "{TOKEN}"}}"#), 0o600),
        (format!(r#"{{"token": "{TOKEN}"}}"#), 0o400),
        (r#"{"timeout_secs": 5}"#.to_string(), 0o644),
    ] {
        let sandbox = Sandbox::new();
        let path = sandbox.write_config(&text);
        set_mode(&path, mode);
        sandbox
            .safe_ad()
            .launcher(&server.uri())
            .args(["drop", "1"])
            .case(format!("{text} {mode:o}"))
            .run()
            .success()
            .stderr_is("");
    }
}

// ---------------------------------------------------------------------------------------------
// Timeout and command line

#[tokio::test]
async fn the_largest_timeout_is_accepted() {
    let server = ok_launcher().await;
    let sandbox = Sandbox::new();
    sandbox
        .safe_ad()
        .launcher(&server.uri())
        .args(["--timeout", "86400", "drop", "1"])
        .run()
        .success();
    sandbox.write_config(r#"{"timeout_secs": 86400}"#);
    sandbox
        .safe_ad()
        .launcher(&server.uri())
        .args(["drop", "2"])
        .run()
        .success();
    assert_eq!(request_count(&server).await, 2);
}

#[test]
fn help_and_version_exit_0_on_stdout() {
    let sandbox = Sandbox::new();
    for args in [
        &["--help"][..],
        &["-h"],
        &["help"],
        &["put", "--help"],
        &["help", "clear-data"],
        &["post", "-h"],
    ] {
        sandbox
            .safe_ad()
            .args(args)
            .run()
            .success()
            .stderr_is("")
            .stdout_has("Usage: safe-ad");
    }
    let help = sandbox.safe_ad().arg("--help").run();
    help.success();
    for word in [
        "Exit status",
        "SAFE_LAUNCHER_TOKEN",
        "SAFE_AD_CONFIG_DIR",
        "--token-file",
    ] {
        help.stdout_has(word);
    }
    // Alone, the version is answered before clap builds anything; with anything else, by clap:
    // the same line either way.
    for args in [
        &["--version"][..],
        &["-V"],
        &["--color", "never", "--version"],
    ] {
        sandbox
            .safe_ad()
            .args(args)
            .run()
            .success()
            .stderr_is("")
            .stdout_is(&format!("safe-ad {}\n", env!("CARGO_PKG_VERSION")));
    }
    // The version is the program's, not a command's (`safe-ad-put 0.2.0` said nothing new).
    sandbox
        .safe_ad()
        .args(["put", "--version"])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_has("`safe-ad put` does not take --version")
        .stderr_has("hint: `safe-ad --version` prints the version");
}

#[tokio::test]
async fn a_first_ctrl_c_wait_that_is_not_seconds_is_refused_before_anything_is_sent() {
    let server = ok_launcher().await;
    for (value, why) in [
        ("soon", "'soon' is not a number of seconds"),
        ("-1", "-1 is not in 0..=86400 seconds"),
        ("inf", "inf is not in 0..=86400 seconds"),
    ] {
        SafeAd::new()
            .launcher(&server.uri())
            .env("SAFE_AD_INTERRUPT_WAIT", value)
            .args(["drop", "1"])
            .run()
            .code(2)
            .stdout_is("")
            .stderr_has(&format!("env var SAFE_AD_INTERRUPT_WAIT: {why}"))
            .stderr_has("unset it for the default of 1");
    }
    assert_eq!(request_count(&server).await, 0);
}

// ---------------------------------------------------------------------------------------------
// A config file or token file that is not a regular file: refused by its type, never opened

/// What sits at the config file's path in [`a_config_file_that_is_not_a_regular_file_hangs_no_command`].
#[derive(Debug, Clone, Copy)]
enum AtConfig {
    Dir,
    Fifo,
    LinkToFifo,
    Socket,
}

/// Every command reads the config file at its start, so a FIFO there that safe-ad opened would
/// hang every command (opening it waits for a writer), `--timeout` or not. Each is refused by
/// its type instead, as a directory is: a command that uses the config says so (exit 2, nothing
/// sent, the file left as it was: `config set` and `unset` do not replace it), and one that does
/// not (`config path`, `completions`, `decode`, `man`, help) goes on. A run that opened the FIFO would
/// be killed at the harness's deadline and fail here, not hang the suite.
#[test]
fn a_config_file_that_is_not_a_regular_file_hangs_no_command() {
    use std::os::unix::fs::FileTypeExt;
    let launcher = RawLauncher::answering(
        b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\nOK",
    );
    let data_id = format!("01000000{}", "ab".repeat(32));
    for at in [
        AtConfig::Dir,
        AtConfig::Fifo,
        AtConfig::LinkToFifo,
        AtConfig::Socket,
    ] {
        let sandbox = Sandbox::new();
        let config = sandbox.config_file();
        std::fs::create_dir_all(sandbox.config_dir()).expect("config dir");
        let kind = match at {
            AtConfig::Dir => {
                std::fs::create_dir(&config).expect("dir");
                "a directory"
            }
            AtConfig::Fifo => {
                sandbox.named_fifo(&config);
                "a FIFO"
            }
            AtConfig::LinkToFifo => {
                let fifo = sandbox.named_fifo("elsewhere.fifo");
                std::os::unix::fs::symlink(&fifo, &config).expect("symlink");
                "a FIFO"
            }
            AtConfig::Socket => {
                std::os::unix::net::UnixListener::bind(&config).expect("socket");
                "a socket"
            }
        };
        let refusal = format!(
            "safe-ad: error: config file {}: it is {kind}, not a regular file",
            config.display()
        );
        let run = |args: &[&str]| {
            sandbox
                .safe_ad()
                .launcher(&launcher.url)
                .case(format!("{at:?}"))
                .args(args)
                .run()
        };
        for args in [
            &["metadata", "5"][..],
            &["--timeout", "1", "metadata", "5"],
            &["--dry-run", "metadata", "5"],
            &["--curl", "metadata", "5"],
            &["auth", "token"],
            &["auth", "status"],
            &["config", "show"],
            &["config", "set", "timeout_secs", "5"],
            &["config", "unset", "token"],
        ] {
            run(args)
                .code(2)
                .stdout_is("")
                .stderr_has(&refusal)
                .stderr_has("hint: fix or remove the file");
        }
        run(&["config", "path"])
            .success()
            .stdout_is(&format!("{}\n", config.display()));
        run(&["completions", "bash"])
            .success()
            .stdout_has("complete -F");
        run(&["decode", &data_id])
            .success()
            .stdout_has("data id: immutable-data");
        run(&["man", "--roff", "remove"])
            .success()
            .stdout_has(".TH \"SAFE\\-AD\\-REMOVE\" 1");
        run(&["help", "metadata"]).success();
        run(&["metadata", "--help"]).success();
        run(&["-V", "--color", "never"]).success();
        // Left as it was: neither replaced by a file nor followed and written through.
        let left = std::fs::symlink_metadata(&config).expect("still there");
        let still = match at {
            AtConfig::Dir => left.is_dir(),
            AtConfig::Fifo => left.file_type().is_fifo(),
            AtConfig::LinkToFifo => {
                left.is_symlink()
                    && std::fs::metadata(&config).is_ok_and(|m| m.file_type().is_fifo())
            }
            AtConfig::Socket => left.file_type().is_socket(),
        };
        assert!(still, "{at:?}: {config:?} was changed: {left:?}");
    }
    assert_eq!(launcher.connections(), 0, "a request was sent");
}

/// `config set` and `auth login` write the config file by renaming a new file over it; a link to a
/// device there (`config.json -> /dev/null`, to keep a config away) is refused, not replaced.
#[test]
fn config_set_refuses_a_link_to_a_device_and_leaves_it() {
    let sandbox = Sandbox::new();
    let config = sandbox.config_file();
    std::fs::create_dir_all(sandbox.config_dir()).expect("config dir");
    std::os::unix::fs::symlink("/dev/null", &config).expect("symlink");
    for args in [
        &["config", "set", "launcher_url", "http://127.0.0.1:8100"][..],
        &["config", "unset", "launcher_url"],
    ] {
        sandbox
            .safe_ad()
            .args(args)
            .run()
            .code(2)
            .stderr_has(&format!(
                "config file {}: it is a character device, not a regular file",
                config.display()
            ));
    }
    assert_eq!(
        std::fs::read_link(&config).expect("still a link"),
        Path::new("/dev/null")
    );
}

/// `--token-file` takes the pipe a shell hands over (`<(...)`, `/dev/stdin` on a pipe), whose
/// opening never waits, and refuses a FIFO with a name however it is reached: through a link, or
/// as `/dev/stdin` (which reopens it: with its writer gone, that open would wait for ever).
#[cfg(feature = "emulator")]
#[tokio::test]
async fn a_token_file_may_be_a_pipe_the_shell_hands_over_but_not_a_named_fifo() {
    let server = any_ok_launcher().await;
    let sandbox = Sandbox::new();
    sandbox
        .shell(
            "bash",
            "safe-ad --token-file <(printf 'from-a-pipe\\n') drop 1",
        )
        .env(ENV_URL, server.uri())
        .run()
        .success();
    sandbox
        .safe_ad()
        .env(ENV_URL, server.uri())
        .args(["--token-file", "/dev/stdin", "drop", "2"])
        .stdin("from-stdin\n")
        .run()
        .success();
    assert_eq!(
        bearers(&server).await,
        ["Bearer from-a-pipe", "Bearer from-stdin"]
    );

    // A named FIFO as standard input, its writer held open by the test: read through
    // /dev/stdin, safe-ad would wait for the writer to close.
    let (reader, mut writer) = sandbox.fifo("token.fifo");
    std::io::Write::write_all(&mut writer, b"from-a-fifo\n").expect("write");
    sandbox
        .safe_ad()
        .env(ENV_URL, server.uri())
        .args(["--token-file", "/dev/stdin", "drop", "3"])
        .stdin_from(reader)
        .run()
        .code(2)
        .stderr_has("cannot read token file /dev/stdin: it is a FIFO, not a regular file")
        .stderr_has("standard input with -");
    drop(writer);
    assert_eq!(bearers(&server).await.len(), 2, "a request was sent");
}

/// Only `settings` reads the environment, and there only `env`, whose reader goes through the
/// table's rows (its own unit tests check it asks the table's names and no other): a
/// `std::env::var` or `var_os` anywhere else in `src/` fails here.
#[test]
fn only_settings_env_reads_the_environment() {
    use crate::rust_source::{code_only, read_tree};
    let mut readers = Vec::new();
    for source in read_tree(&repo_root().join("src")) {
        let code = code_only(&source.text);
        for (at, line) in code.lines().enumerate() {
            if line.contains("var_os") || line.contains("env::var") {
                readers.push(format!("src/{}:{}", source.path, at + 1));
            }
        }
    }
    assert_eq!(readers.len(), 1, "{readers:?}");
    assert!(
        readers[0].starts_with("src/settings/env.rs:"),
        "{readers:?}"
    );
}

/// Every `SAFE_AD_` variable the client or the emulator crate names (in code, messages or
/// comments) is a row of the table, or of a pattern's family; and every row of the emulator's
/// is named by its crate, which reads and sets them itself.
#[test]
fn every_safe_ad_variable_named_in_the_source_is_in_the_table() {
    use crate::rust_source::read_tree;
    use safe_ad::test_support::settings::{Reader, Spelling, ENV_VARS};
    let words = |dir: &str| -> Vec<(String, String)> {
        let mut found = Vec::new();
        for source in read_tree(&repo_root().join(dir)) {
            let text = &source.text;
            for (at, _) in text.match_indices("SAFE_AD_") {
                let word: String = text[at..]
                    .chars()
                    .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                found.push((format!("{dir}/{}", source.path), word));
            }
        }
        found
    };
    let emulator = words("crates/emulator/src");
    for (file, word) in words("src").iter().chain(&emulator) {
        // `SAFE_AD_EMULATOR_USER_` before a name put in: the start of a pattern's family.
        let known = ENV_VARS.iter().any(|var| {
            var.matches(word)
                || (word.ends_with('_')
                    && var.spelling == Spelling::Pattern
                    && var.name.starts_with(word.as_str()))
        });
        assert!(known, "{file} names {word}, which settings' ENV_VARS lacks");
    }
    for var in ENV_VARS.iter().filter(|var| var.reader != Reader::Client) {
        let stem = var.name.split('<').next().unwrap_or(var.name);
        assert!(
            emulator.iter().any(|(_, word)| word.starts_with(stem)),
            "the emulator crate never names {}",
            var.name
        );
    }
}
