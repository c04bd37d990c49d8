//! What a run may have left in the launcher: the leases it could not give back (a drop that
//! timed out, was cut or failed; a second Ctrl-C) and the handles a request may have made whose
//! answer was lost, each named with the request that frees it, on stderr and under `--json`.

use super::json::LeftJson;
use super::{words, Reporter};
use crate::batch::{Left, Unread};
use crate::launcher::{HandleKind, Launcher, Request, Slot};

impl Reporter {
    /// Names every handle in `left` and how to free it: an error line on stderr (said even
    /// with `--quiet`), and with `--json` one object on stdout, `{"ok": false, "left_behind":
    /// [...]}`.
    pub fn left_behind(&self, launcher: &Launcher, left: &[Left]) {
        if left.is_empty() {
            return;
        }
        self.left_behind_json(launcher, left);
        self.clear_progress();
        let count = left.len();
        let mut text = format!(
            "safe-ad: error: {count} launcher handle{} it obtained may be left in the launcher:\n",
            if count == 1 { "" } else { "s" }
        );
        for left in left {
            text.push_str(&format!("  {}\n", left_line(launcher, left)));
        }
        text.push_str(
            "hint: the launcher drops them when it restarts, or evicts the oldest past 100 of a kind; \
to free one now, send the request named beside it\n",
        );
        super::err(&text);
    }
}

impl Reporter {
    /// With `--json`, the object that lists what was left (`{"ok": false, "left_behind":
    /// [...]}`); for a second Ctrl-C, whose error names them on stderr.
    pub fn left_behind_json(&self, launcher: &Launcher, left: &[Left]) {
        if self.json && !left.is_empty() {
            let list: Vec<LeftJson> = left.iter().map(|left| left_json(launcher, left)).collect();
            if !self.result_left_behind(list.clone()) {
                self.print_json(&super::json::Abandoned {
                    ok: false,
                    left_behind: list,
                });
            }
        }
    }
}

/// The requests that free what was left, for the hint of an interruption.
pub fn left_requests(launcher: &Launcher, left: &[Left]) -> Vec<String> {
    left.iter().map(|left| left_line(launcher, left)).collect()
}

/// One handle left: `data-id 5: DELETE http://.../data-id/5`, or for a handle whose number
/// never came back, the request that may have made it and the request that frees it once its
/// number is known; with the safe-ad command that frees it, where there is one.
fn left_line(launcher: &Launcher, left: &Left) -> String {
    match left {
        Left::Known(lease) => {
            let kind = kind_freed_by(&lease.release);
            let mut line = format!(
                "{} {}: {} {}",
                kind.name(),
                lease.handle,
                lease.release.method(),
                launcher.url(&lease.release)
            );
            if let Some(command) = kind.command() {
                line.push_str(&format!(" (or `{command} {}`)", lease.handle));
            }
            line
        }
        Left::Unknown(request, unread) => {
            let Some(kind) = request.operation().row().makes else {
                return format!(
                    "what {} {} may have made",
                    request.method(),
                    launcher.url(request)
                );
            };
            let free = kind.free(UNKNOWN);
            let mut line = format!(
                "{} {} handle that {} {} may have made ({}, so its number is not known); free it with {} {}",
                article(kind.name()),
                kind.name(),
                request.method(),
                launcher.url(request),
                why(*unread),
                free.method(),
                launcher.url(&free)
            );
            if let Some(command) = kind.command() {
                line.push_str(&format!(" (or `{command} {UNKNOWN}`)"));
            }
            line
        }
    }
}

/// Where the number of a handle that was never read goes in the request that frees it.
const UNKNOWN: Slot = Slot::FromAnswer("handleId");

fn left_json(launcher: &Launcher, left: &Left) -> LeftJson {
    match left {
        Left::Known(lease) => {
            let kind = kind_freed_by(&lease.release);
            LeftJson::Known {
                kind: kind.name(),
                handle: lease.handle.0,
                free: words(&format!(
                    "{} {}",
                    lease.release.method(),
                    launcher.url(&lease.release)
                )),
                command: kind
                    .command()
                    .map(|command| format!("{command} {}", lease.handle)),
            }
        }
        Left::Unknown(request, unread) => {
            let kind = request.operation().row().makes;
            let free = kind.map(|kind| kind.free(UNKNOWN));
            LeftJson::Unknown {
                kind: kind.map(HandleKind::name),
                handle: None,
                made_by: words(&format!("{} {}", request.method(), launcher.url(request))),
                why: why(*unread),
                free: free.map(|free| words(&format!("{} {}", free.method(), launcher.url(&free)))),
                command: kind
                    .and_then(HandleKind::command)
                    .map(|command| format!("{command} {UNKNOWN}")),
            }
        }
    }
}

/// Why the number of a handle is not known.
fn why(unread: Unread) -> &'static str {
    match unread {
        Unread::Lost => "its answer was lost",
        Unread::Garbled => "its answer could not be read",
        Unread::InFlight => "it was in flight when safe-ad left",
    }
}

/// The kind of handle a request frees, as the operation's row says.
fn kind_freed_by(release: &Request) -> HandleKind {
    release
        .operation()
        .row()
        .frees
        .unwrap_or(HandleKind::AppendableData)
}

/// `a` or `an`, for a kind's name.
fn article(name: &str) -> &'static str {
    if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}
