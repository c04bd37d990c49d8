//! The words of `status`: for each handle whether its copy is in sync with the network, both
//! versions, the changes not saved, what is new on the network, and the command that goes on
//! from there; as text or one JSON object per handle. Items are named as `show` names them
//! (its item line and its JSON item), so what `show` learns to say, `status` says too.

use super::json::{Emptied, ItemJson, SinceCopy, StatusJson, Toggled, Unsaved};
use super::results::error_json;
use super::results::which_parts;
use super::show::{item_json, item_text, which_line};
use super::*;
use crate::batch::status::{Compared, Network, Verdict};
use crate::batch::SavedVersion;

/// What the launcher's copy held of data items when a save was sent, as far as the run knows:
/// handed to the words of the save as a value by whoever read it, never kept for later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CopyAtSave {
    /// A clear of the data items just before left the copy none for a post to lose.
    Cleared,
    /// A read before the save said how many it held then (the change between counted).
    Held(u64),
    /// Nothing said.
    Unknown,
}

impl CopyAtSave {
    pub(super) fn of(cleared: bool, held: Option<u64>) -> CopyAtSave {
        match (cleared, held) {
            (true, _) => CopyAtSave::Cleared,
            (false, Some(held)) => CopyAtSave::Held(held),
            (false, None) => CopyAtSave::Unknown,
        }
    }
}

impl Reporter {
    /// One handle of `status`: `--verbose` exchanges, its block (or JSON object) on stdout,
    /// then an error on stderr for each part that could not be read or given back.
    pub fn status(
        &self,
        launcher: &Launcher,
        compared: &Compared,
        verdict: &Result<Verdict<'_>, Failure>,
        you: Option<&[u8]>,
    ) {
        self.clear_progress();
        self.wrote.set(false);
        let network = match &compared.network {
            Network::Read(shown) => Some(shown),
            _ => None,
        };
        for shown in std::iter::once(&compared.copy).chain(network) {
            self.exchanges(launcher, &shown.steps);
            for key in &shown.filter {
                self.exchanges(launcher, &key.steps);
            }
            for item in shown.data.iter().chain(&shown.deleted) {
                self.exchanges(launcher, &item.steps);
            }
        }
        self.exchanges(launcher, &compared.steps);
        let handle = compared.handle;
        let values = Values {
            handle: Some(self.handle_word(handle)),
            name: None,
            copy: self.is_copy(handle),
        };
        match verdict {
            Ok(verdict) if self.json => {
                let mut object = status_json(handle, verdict, you);
                (object.input, object.handle) = self.input_of(handle);
                let (name, private, owners) = which_parts(compared.which());
                (object.name, object.private, object.owners) =
                    (Some(name), Some(private), Some(owners));
                self.print_json(&object);
            }
            Ok(verdict) if !self.quiet => {
                let text = status_text(self, handle, verdict, you);
                // Which data it is, on the line under the header.
                let (header, body) = text.split_at(text.find('\n').map_or(text.len(), |at| at + 1));
                let which = compared.which().map(|which| which_line(which, you));
                self.out(&format!("{header}{}{body}", which.unwrap_or_default()));
            }
            Ok(_) => {}
            Err(failure) => {
                if self.json {
                    let error = error_json(failure, &values);
                    let (input, exit_code) = (self.input_of(handle), failure.exit_code());
                    self.print_json(&StatusJson::failed("status", input, error, exit_code));
                }
                let command = format!("status {handle}");
                for (what, failure) in failures(compared) {
                    match what {
                        Some(what) => self.show_failed(&command, &what, failure),
                        None => self.error(Some(&command), failure, &values),
                    }
                }
            }
        }
    }

    /// A save that succeeded: `post 7: ok, saved version 3` (the version from the read after
    /// the save); when that read failed, the line says the save happened and a warning says why
    /// the version is not known. After a post, once a run, what the launcher did to the copy:
    /// `copy` says what it held when the post was sent ([`CopyAtSave`]): none (nothing to say),
    /// some (the post left them out of the copy), or not known, and then words that are true
    /// either way.
    pub(super) fn saved(&self, step: &Step, copy: CopyAtSave) {
        let request = &step.request;
        if !self.json && !self.quiet {
            let said = match step.saved_version() {
                Some(SavedVersion::Read(version)) => format!(", saved version {version}"),
                Some(SavedVersion::Unread(_)) => {
                    ", saved; the version saved could not be read".into()
                }
                None => String::new(),
            };
            self.out(&format!("{}: ok{said}\n", self.subject(request)));
        }
        if let (Some(SavedVersion::Unread(failure)), Some(handle)) =
            (step.saved_version(), request.handle())
        {
            self.warning(&format!(
                "{} was saved, but the read of its version after the save failed ({}); `safe-ad metadata {}` reads it",
                self.subject(request),
                failure.message,
                self.handle_word(handle),
            ));
        }
        let held = match copy {
            CopyAtSave::Cleared | CopyAtSave::Held(0) => return,
            CopyAtSave::Held(held) => Some(held),
            CopyAtSave::Unknown => None,
        };
        let (Request::OnHandle(Operation::Post, handle), false) = (request, self.quiet) else {
            return;
        };
        if self.is_copy(*handle) {
            return;
        }
        if !self.first_time("the note after a post") {
            return;
        }
        self.note(&match held {
            Some(held) => format!(
                "the post left the launcher's copy in handle {handle} without its {} (the launcher keeps the version it sent, which carries none); `safe-ad reopen {handle}` gets a handle that shows the network's, `safe-ad status {handle}` compares the copy with the network",
                counted(held, "data item", "data items")
            ),
            None => format!(
                "after a post the launcher's copy in handle {handle} holds no data items now, whatever the network holds (it keeps the version it sent, which carries none); `safe-ad status {handle}` compares the copy with the network, `safe-ad reopen {handle}` gets a handle that shows the network's"
            ),
        });
    }

    /// What `show` can tell of a copy without asking more: one that holds no data items at a
    /// version a save made may be a copy a post emptied (the network may hold items it does not
    /// show), or one fetched from data that holds none; which, only the network can say, so the
    /// words hold either way and `status` is pointed at. Said once a run; silenced by `--quiet`.
    /// (`metadata` prints the one line it was asked for: the post that emptied the copy said so
    /// already.)
    pub(super) fn copy_note(&self, handle: Handle, metadata: &Metadata) {
        if self.quiet || metadata.data_length > 0 || metadata.version == 0 || self.is_copy(handle) {
            return;
        }
        if !self.first_time("the note on a copy with no data items") {
            return;
        }
        self.note(&format!(
            "handle {handle}'s copy holds no data items at version {}: if a post made this copy, the network may hold items it does not show (the launcher keeps none after a post); `safe-ad status {handle}` compares it with the network",
            metadata.version
        ));
    }

    /// After `status` of more than one handle: how many copies are in sync, have nothing to
    /// save though the network holds data items they do not show (said only when some do),
    /// differ, failed. `tally.ok` counts both of the first two (they exit 0); `unshown` the second.
    pub fn status_summary(&self, tally: &Tally, differ: u64, unshown: u64) {
        if self.quiet || tally.seen < 2 {
            return;
        }
        let in_sync = tally.ok.saturating_sub(unshown);
        let unshown = match unshown {
            0 => String::new(),
            n => format!(", {n} with nothing to save"),
        };
        err(&format!(
            "{} handles: {in_sync} in sync{unshown}, {differ} differ, {} failed\n",
            tally.seen,
            tally.failed - differ
        ));
    }
}

/// Each failure of a comparison, with the part it is about (`None`: the handle itself).
fn failures(compared: &Compared) -> Vec<(Option<String>, &Failure)> {
    let mut all = Vec::new();
    let sides: Vec<(&Shown, String)> = std::iter::once((&compared.copy, String::new()))
        .chain(match &compared.network {
            Network::Read(shown) => Some((
                shown,
                format!("the network's data (fresh handle {}), ", shown.handle),
            )),
            _ => None,
        })
        .collect();
    for (shown, side) in sides {
        if let Err(failure) = &shown.metadata {
            let what = (!side.is_empty()).then(|| side.trim_end_matches(", ").to_string());
            all.push((what, failure));
        }
        for key in &shown.filter {
            for failure in &key.failures {
                all.push((Some(format!("{side}filter key {}", key.index)), failure));
            }
        }
        for item in shown.data.iter().chain(&shown.deleted) {
            let list = match item.section {
                Section::Data => "data",
                Section::Deleted => "deleted",
            };
            for failure in &item.failures {
                all.push((Some(format!("{side}{list} item {}", item.index)), failure));
            }
        }
    }
    if let Network::Failed(failure) = &compared.network {
        all.push((Some("the network's data".to_string()), failure));
    }
    for step in &compared.steps {
        if let (Err(failure), Request::DropDataId(_) | Request::OnHandle(Operation::Drop, _)) =
            (&step.result, &step.request)
        {
            all.push((Some(step.request.subject()), failure));
        }
    }
    all
}

/// What goes on from what `status` found: a line to say, and the commands in it, ready to
/// paste.
fn ways_on(handle: Handle, verdict: &Verdict<'_>) -> Vec<(String, Vec<String>)> {
    let differences = &verdict.differences;
    let reopen = format!("safe-ad reopen {handle}");
    if verdict.stale {
        return vec![(
            format!("go on with: {reopen} (a fresh handle at the network's version; make changes not saved again there)"),
            vec![reopen],
        )];
    }
    if verdict.network.is_none() {
        let put = format!("safe-ad put {handle}");
        return vec![(format!("save it with: {put}"), vec![put])];
    }
    let mut ways = Vec::new();
    if differences.unsaved() {
        let post = format!("safe-ad post {handle}");
        ways.push((
            format!("save the changes with: {post}, or drop them with: {reopen}"),
            vec![post, reopen.clone()],
        ));
    }
    if !differences.restored.is_empty() {
        ways.push((
            format!("make the restored items data on the network with: {reopen}, then `safe-ad restore NEW_HANDLE ... --save post` on the handle it prints"),
            vec![reopen.clone()],
        ));
    }
    if differences.emptied.is_some() {
        ways.push((
            format!("get the network's items in a handle with: {reopen}"),
            vec![reopen.clone()],
        ));
    } else if !differences.new_on_network.is_empty() {
        let after = if differences.unsaved() {
            ", once the changes are saved"
        } else {
            ""
        };
        ways.push((
            format!("see the new items in a handle with: {reopen}{after}"),
            vec![reopen.clone()],
        ));
    }
    ways
}

/// The kinds of difference that list items, each with its JSON key and its heading, in the
/// order said. The headings follow `saving::STATUS_CASES`: against the same version a
/// difference is the copy's own change; against a later version (stale) it may be the network's
/// since the copy was taken, and says which where only one can explain it; `emptied`: the copy
/// was left data-less by a post.
fn parts<'a>(verdict: &'a Verdict<'a>) -> [(&'static str, &'static str, &'a [&'a ShownItem]); 7] {
    let differences = &verdict.differences;
    let emptied = differences.emptied.is_some();
    let new = match (verdict.stale, emptied) {
        (_, true) => "on the network, not in the copy (left out of it by a post, or appended since)",
        (false, false) => "data on the network, not in the copy (appended since the copy was taken, or removed and purged in the copy before the removal was saved: a save keeps them as data)",
        (true, false) => "data on the network, not in the copy (appended there since the copy was taken, or removed and purged in the copy)",
    };
    let (removed, restored, purged) = match verdict.stale {
        false => (
            "not saved: removed (in the copy's deleted list; a save deletes them on the network)",
            "not saved: restored (deleted on the network, data again in the copy; a plain post takes them off the network's deleted list without making them data, deleting them for good)",
            "not saved: purged (in the network's deleted list, gone from the copy)",
        ),
        true => (
            "against the network's later version: removed (in the copy's deleted list, data on the network: removed in the copy, or restored there since the copy was taken)",
            "against the network's later version: restored (data again in the copy, which a post emptied; still deleted on the network)",
            "against the network's later version: purged (in the network's deleted list, not in the copy: purged in the copy, or removed there since the copy was taken)",
        ),
    };
    [
        ("removed", removed, &differences.removed),
        ("restored", restored, &differences.restored),
        ("purged", purged, &differences.purged),
        (
            "only_in_copy",
            "not saved: data items the network does not hold",
            &differences.only_in_copy,
        ),
        (
            "removed_there",
            "removed on the network since the copy was taken (deleted there, data in the copy; or restored in the copy)",
            &differences.removed_there,
        ),
        (
            "purged_there",
            "purged on the network since the copy was taken (in neither of its lists, still in the copy)",
            &differences.purged_there,
        ),
        ("new_on_network", new, &differences.new_on_network),
    ]
}

/// One handle of `status`, for people.
fn status_text(
    reporter: &Reporter,
    handle: Handle,
    verdict: &Verdict<'_>,
    you: Option<&[u8]>,
) -> String {
    let copy = verdict.copy;
    let mut text = match verdict.network {
        None => format!(
            "handle {handle}: never saved: version {} here, and no data of this name on the network\n",
            copy.version
        ),
        Some(network) if verdict.stale => format!(
            "handle {handle}: stale: version {} here, {} on the network (someone saved since the copy was taken, so a post fails with -25)\n",
            copy.version, network.version
        ),
        Some(_) if verdict.in_sync() => format!(
            "handle {handle}: in sync: version {} here and on the network, data {}, deleted {}\n",
            copy.version, copy.data_length, copy.deleted_data_length
        ),
        Some(_) if verdict.settled() && verdict.differences.emptied.is_some() => format!(
            "handle {handle}: saved at version {}; the copy holds no data items since the post (the launcher keeps none); `safe-ad reopen {handle}` to read them\n",
            copy.version
        ),
        Some(_) if verdict.settled() => format!(
            "handle {handle}: nothing to save: version {} here and on the network; the network holds data items the copy does not show\n",
            copy.version
        ),
        Some(network) if network.version == copy.version => format!(
            "handle {handle}: not in sync: version {} here and on the network\n",
            copy.version
        ),
        Some(network) => format!(
            "handle {handle}: not in sync: version {} here, {} on the network\n",
            copy.version, network.version
        ),
    };
    let differences = &verdict.differences;
    // Against a later version someone else saved, a filter difference may be theirs, not the
    // copy's.
    let label = |heading: &str| -> String {
        match heading.strip_prefix("not saved: ") {
            Some(rest) if verdict.stale => format!("against the network's later version: {rest}"),
            _ => heading.to_string(),
        }
    };
    let keys = |verb: &str, keys: &[&[u8]], text: &mut String| {
        for key in keys {
            let shown = match you {
                Some(you) if you == *key => format!("{} (you)", serialised::fingerprint(key)),
                _ => serialised::fingerprint(key),
            };
            let line = label(&format!("not saved: filter key {verb}: {shown}"));
            text.push_str(&format!("  {line}\n"));
        }
    };
    keys("added", &differences.keys_added, &mut text);
    keys("taken", &differences.keys_taken, &mut text);
    if let Some((here, there)) = differences.filter_toggled {
        let line = label(&format!(
            "not saved: filter toggled: {} here, {} on the network",
            here.name(),
            there.name()
        ));
        text.push_str(&format!("  {line}\n"));
    }
    if let (Some(held), false) = (differences.emptied, verdict.settled()) {
        text.push_str(&format!(
            "  the copy holds none of the network's {held} data items: a post left the launcher's copy so\n"
        ));
    }
    for (_, heading, items) in parts(verdict) {
        if items.is_empty() {
            continue;
        }
        text.push_str(&format!("  {heading}:\n"));
        for item in items {
            for line in item_text(item, you).lines() {
                text.push_str(&format!("  {line}\n"));
            }
        }
    }
    for (way, _) in ways_on(handle, verdict) {
        // Words of ours, not data: inside a shell, the commands as typed there.
        text.push_str(&format!("  {}\n", reporter.as_typed(&way)));
    }
    text
}

/// One handle of `status`, for scripts: the keys README's table lists (its `input`, and which
/// data it is, are the caller's).
fn status_json(handle: Handle, verdict: &Verdict<'_>, you: Option<&[u8]>) -> StatusJson {
    let differences = &verdict.differences;
    let items = |items: &[&ShownItem]| -> Vec<ItemJson> {
        items.iter().map(|item| item_json(item, you)).collect()
    };
    let keys = |keys: &[&[u8]]| -> Vec<String> {
        keys.iter()
            .map(|key| serialised::fingerprint(key))
            .collect()
    };
    let [removed, restored, purged, only_in_copy, removed_there, purged_there, new] =
        parts(verdict);
    let unsaved = Unsaved {
        removed: items(removed.2),
        restored: items(restored.2),
        purged: items(purged.2),
        only_in_copy: items(only_in_copy.2),
        filter_keys_added: keys(&differences.keys_added),
        filter_keys_taken: keys(&differences.keys_taken),
        filter_toggled: (differences.filter_toggled).map(|(here, there)| Toggled {
            copy: here.name(),
            network: there.name(),
        }),
        emptied_by_post: (differences.emptied).map(|held| Emptied {
            network_data_length: held,
        }),
    };
    StatusJson {
        command: "status",
        handle: Some(handle.0),
        ok: true,
        in_sync: Some(verdict.in_sync()),
        settled: Some(verdict.settled()),
        stale: Some(verdict.stale),
        never_saved: Some(verdict.network.is_none()),
        version: Some(verdict.network.map(|network| network.version)),
        local_version: Some(verdict.copy.version),
        network_version: Some(verdict.network.map(|network| network.version)),
        unsaved: Some(unsaved),
        since_copy: Some(SinceCopy {
            removed: items(removed_there.2),
            purged: items(purged_there.2),
        }),
        new_on_network: Some(items(new.2)),
        way_on: Some(
            ways_on(handle, verdict)
                .into_iter()
                .flat_map(|(_, commands)| commands)
                .fold(Vec::new(), |mut all, command| {
                    if !all.contains(&command) {
                        all.push(command);
                    }
                    all
                }),
        ),
        ..StatusJson::default()
    }
}
