//! Each client option is offered only where it acts, as each command's spec (`cli::COMMANDS`)
//! says: the parser, the help and the binary follow it; an option a command does not take is
//! refused before anything is sent or written (so the dry runs of `auth` and `config` cannot
//! act); `auth status`, `config show` and `config path` speak JSON; `-q` changes output only;
//! and each command's `-h` fits a screen.

use std::collections::BTreeSet;

use crate::harness::client_commands;
use safe_ad::test_support::cli::{options_of, Opt};
use serde_json::Value;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::harness::*;

mod json_and_quiet;
mod offered;
mod refused_dry_runs;

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
