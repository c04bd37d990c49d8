//! What a run may have left in the launcher: the leases it could not give back (a drop that
//! timed out, was cut or failed; a second Ctrl-C) and the handles a request may have made whose
//! answer was lost, each named with the request that frees it, on stderr and under `--json`.

use serde_json::{json, Value};

use super::{json_line, Reporter};
use crate::batch::Left;
use crate::launcher::{Launcher, Operation, Request};

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
            let list: Vec<Value> = left.iter().map(|left| left_json(launcher, left)).collect();
            self.out(&json_line(&json!({ "ok": false, "left_behind": list })));
        }
    }
}

/// The requests that free what was left, for the hint of an interruption.
pub fn left_requests(launcher: &Launcher, left: &[Left]) -> Vec<String> {
    left.iter().map(|left| left_line(launcher, left)).collect()
}

/// One handle left: `data-id 5: DELETE http://.../data-id/5`, or for a handle whose number
/// never came back, the request that may have made it.
fn left_line(launcher: &Launcher, left: &Left) -> String {
    match left {
        Left::Known(lease) => format!(
            "{} {}: {} {}",
            kind_freed_by(&lease.release),
            lease.handle,
            lease.release.method(),
            launcher.url(&lease.release)
        ),
        Left::Unknown(request) => format!(
            "a {} handle that {} {} may have made (its answer was lost, so its number is not known)",
            kind_made_by(request.operation()),
            request.method(),
            launcher.url(request)
        ),
    }
}

fn left_json(launcher: &Launcher, left: &Left) -> Value {
    match left {
        Left::Known(lease) => json!({
            "kind": kind_freed_by(&lease.release),
            "handle": lease.handle.0,
            "free": format!("{} {}", lease.release.method(), launcher.url(&lease.release)),
        }),
        Left::Unknown(request) => json!({
            "kind": kind_made_by(request.operation()),
            "handle": null,
            "made_by": format!("{} {}", request.method(), launcher.url(request)),
        }),
    }
}

/// The kind of handle a request frees.
fn kind_freed_by(release: &Request) -> &'static str {
    match release.operation() {
        Operation::DropDataId => "data-id",
        Operation::DropStructured => "structured-data",
        Operation::DropSignKey => "sign-key",
        _ => "appendable-data",
    }
}

/// The kind of handle an operation makes.
fn kind_made_by(operation: Operation) -> &'static str {
    match operation {
        Operation::DataId | Operation::ItemDataId | Operation::DeletedItemDataId => "data-id",
        Operation::FetchStructured => "structured-data",
        Operation::ItemSigner
        | Operation::DeletedItemSigner
        | Operation::FilterKey
        | Operation::UserSignKey => "sign-key",
        _ => "appendable-data",
    }
}
