//! `safe-ad emulator export [FILE|-]`: what a running emulator holds on its network, as a
//! fixture that `--import` (or `--state`) loads back to the same network. A client of the
//! emulator as `emulator requests` is (the same settings, the same judging of the answer: see
//! `journal`), reading `GET /_emulator/network`.
//!
//! The network route answers in the state file's format already; the one change made here is to
//! leave out each immutable data's own `name`, which the emulator computes from its content and
//! cipher (a load computes it again), so that a person can edit the content of an exported
//! fixture without having to learn the emulator's hash. Items that point at immutable data keep
//! the name: that is how they point.
//!
//! FILE is written as a fixture a job commits must be: a new file beside it (created exclusively,
//! under an unpredictable name), synced and renamed over it, so a reader never sees half a file
//! and a failure leaves the old one (the new file is removed). A FILE that is a symbolic link is
//! refused rather than replaced by a file (the rename would replace the link, not what it names),
//! and so is one that is not a regular file; both before anything is sent. A failure to write is
//! never exit 0. (The check and the write are `replaceable_file` and `write_whole`, which
//! `capture` shares.)

use reqwest::Method;
use serde_json::Value;

use super::{replaceable_file, resolve, write_whole, Context, Next};
use crate::cli::ExportArgs;
use crate::emulator_routes::{root_of, send, Reads};
use crate::launcher::Launcher;
use crate::outcome::{Class, Done, Failure};
use crate::runtime::internal;
use crate::settings::StdinUse;

/// The emulator's network route.
const ROUTE: &str = "/_emulator/network";

/// Runs `safe-ad emulator export`.
pub fn run<'a>(args: &ExportArgs, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let file = args
        .file
        .as_deref()
        .filter(|path| path.as_os_str() != "-")
        .map(|path| {
            replaceable_file(
                path,
                "emulator export",
                "safe-ad emulator export \"$(readlink -f FILE)\"",
            )
        })
        .transpose()?;
    let settings = resolve(cx, StdinUse::Free)?;
    Reads::Network.token(&settings)?;
    let mut config = settings.launcher_config();
    config.url = root_of(&settings.launcher);
    let base = config.url.base().to_owned();
    let launcher = Launcher::new(config).map_err(internal)?;
    Ok(Next::sends(async move {
        let answer = send(&launcher, &base, Method::GET, ROUTE.into(), Reads::Network).await?;
        let text = fixture_text(&answer.body)?;
        match file {
            None => reporter.exported(&text, None),
            Some(path) => {
                write_whole(&path, text.as_bytes(), "emulator export")?;
                reporter.exported(&text, Some(&path));
            }
        }
        Ok(Done::Success)
    }))
}

/// The network's answer as a fixture: immutable data without the names the emulator computes,
/// pretty-printed as a save writes it.
fn fixture_text(body: &[u8]) -> Result<String, Failure> {
    let not_a_network = || {
        Failure::new(
            Class::Unexpected,
            format!(
                "emulator export: {ROUTE} did not answer with a network in the state file's format"
            ),
        )
    };
    let mut network: Value = serde_json::from_slice(body).map_err(|_| not_a_network())?;
    if !network.get("format").is_some_and(Value::is_string) {
        return Err(not_a_network());
    }
    if let Some(list) = network
        .get_mut("immutableData")
        .and_then(Value::as_array_mut)
    {
        for data in list {
            if let Some(data) = data.as_object_mut() {
                data.shift_remove("name");
            }
        }
    }
    let mut text = serde_json::to_string_pretty(&network).map_err(|e| internal(e.into()))?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn immutable_names_are_left_out_and_pointers_kept() {
        let body = br#"{"format":"safe-ad-emulator-state/1","appendableData":[{"name":"a","data":[{"immutableData":{"name":"kept"}}]}],"structuredData":[],"immutableData":[{"name":"computed","cipher":"PLAIN","content":"aGk="}]}"#;
        let text = fixture_text(body).unwrap();
        assert!(text.contains("\"kept\""), "{text}");
        assert!(!text.contains("computed"), "{text}");
        assert!(text.ends_with("}\n"));
        assert!(fixture_text(b"[1]").is_err());
        assert!(fixture_text(b"not json").is_err());
    }
}
