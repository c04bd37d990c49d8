//! The words of `show` and of the one-item changes (`remove`, `restore`, `purge`, `append`):
//! the handle as text or JSON, its progress, and the notes on what still needs a save.

use super::json::{FilterJson, ItemJson, ShowJson};
use super::results::{error_json, which_parts};
use super::*;
use crate::batch::show::{Which, WhichRead};
use crate::launcher::MAX_CONTENT_BYTES;

impl Reporter {
    /// A failure of one part of a `show`: `safe-ad: error: show 7, data item 2: ...`.
    pub fn show_failed(&self, command: &str, what: &str, failure: &Failure) {
        self.clear_progress();
        self.error(
            Some(&format!("{command}: {what}")),
            failure,
            &Values::default(),
        );
    }

    /// A live count of the items of one handle read so far, on a terminal's stderr only, once
    /// reading takes long enough to wonder.
    pub fn show_progress(&self, handle: Handle, done: u64, total: u64, started: Instant) {
        if self.quiet || total == 0 || started.elapsed() < Duration::from_millis(500) {
            return;
        }
        if let Some(drawn) = self.progress_drawn.get() {
            if drawn.elapsed() < Duration::from_millis(100) && done < total {
                return;
            }
        }
        if !stderr_is_terminal() {
            return;
        }
        const WIDTH: u64 = 30;
        let filled = (done.min(total) * WIDTH / total) as usize;
        err(&format!(
            "\r\x1b[2K[{}{}] {done}/{total} items of handle {handle}",
            "#".repeat(filled),
            ".".repeat(WIDTH as usize - filled),
        ));
        self.progress_drawn.set(Some(Instant::now()));
    }

    /// One handle of `show`: `--verbose` exchanges, then its block (or JSON object) on stdout,
    /// then an error on stderr for each part that could not be read. `you`: the user's own key,
    /// serialised, if it could be read; `separate`: a block came before this one.
    pub fn shown(
        &self,
        launcher: &Launcher,
        shown: &Shown,
        you: Option<&[u8]>,
        range: IndexRange,
        separate: bool,
    ) {
        self.clear_progress();
        self.wrote.set(false);
        self.exchanges(launcher, &shown.steps);
        for key in &shown.filter {
            self.exchanges(launcher, &key.steps);
        }
        for item in shown.data.iter().chain(&shown.deleted) {
            self.exchanges(launcher, &item.steps);
        }
        if self.json {
            let mut object = shown_json(shown, you);
            (object.input, object.handle) = self.input_of(shown.handle);
            self.print_json(&object);
        } else if let Ok(metadata) = &shown.metadata {
            let gap = if separate { "\n" } else { "" };
            let title = match self.is_copy(shown.handle) {
                true => self.handle_word(shown.handle),
                false => format!("handle {}", shown.handle),
            };
            self.out(&format!("{gap}{}", shown_text(&title, shown, you, range)));
            self.copy_note(shown.handle, metadata);
        }
        let command = format!("show {}", shown.handle);
        if let Err(failure) = &shown.metadata {
            let values = Values {
                handle: Some(self.handle_word(shown.handle)),
                name: None,
                copy: self.is_copy(shown.handle),
            };
            self.error(Some(&command), failure, &values);
        }
        if let Some(WhichRead::Failed(failure)) = shown.which.as_deref() {
            self.show_failed(&command, "its serialised bytes (its name)", failure);
        }
        for key in &shown.filter {
            for failure in &key.failures {
                self.show_failed(&command, &format!("filter key {}", key.index), failure);
            }
        }
        for item in shown.data.iter().chain(&shown.deleted) {
            for failure in &item.failures {
                let what = format!("{} item {}", section_name(item.section), item.index);
                self.show_failed(&command, &what, failure);
            }
        }
    }

    /// `show --serialised`: one handle's serialised bytes, base64 on a line of their own (or in
    /// its JSON object), printed with `-q` too (they are what was asked for); a failure on
    /// stderr.
    pub fn serialised(
        &self,
        launcher: &Launcher,
        handle: Handle,
        read: &Result<Vec<u8>, Failure>,
        steps: &[Step],
    ) {
        self.clear_progress();
        self.wrote.set(false);
        self.exchanges(launcher, steps);
        let values = Values {
            handle: Some(self.handle_word(handle)),
            name: None,
            copy: self.is_copy(handle),
        };
        match read {
            Ok(bytes) => {
                let encoded = serialised::base64(bytes);
                if self.json {
                    let (input, handle) = self.input_of(handle);
                    self.print_json(&ShowJson {
                        command: "show",
                        input,
                        handle,
                        ok: true,
                        serialised: Some(encoded),
                        ..ShowJson::default()
                    });
                } else {
                    self.out(&format!("{encoded}\n"));
                }
            }
            Err(failure) => {
                if self.json {
                    let error = error_json(failure, &values);
                    let (input, exit_code) = (self.input_of(handle), failure.exit_code());
                    self.print_json(&ShowJson::failed("show", input, error, exit_code));
                }
                self.error(Some(&format!("show {handle}")), failure, &values);
            }
        }
    }

    /// The items the selectors of `remove`, `restore` or `purge` chose, one line each on
    /// stderr, before any change.
    pub fn chosen(
        &self,
        operation: Operation,
        handle: Handle,
        items: &[ShownItem],
        you: Option<&[u8]>,
    ) {
        let verb = match operation {
            Operation::Remove => "removing",
            Operation::Restore => "restoring",
            _ => "purging",
        };
        let handle = self.handle_word(handle);
        for item in items.iter().rev() {
            let mut line = format!(
                "{verb} {handle} {} {}: {}",
                section_name(item.section),
                item.index,
                item_what(item)
            );
            if let Some(signer) = &item.signer {
                let signer = key_text(Some(signer), you);
                line.push_str(&format!(", signed by {signer}"));
            }
            self.info(&line);
        }
    }

    /// After `remove`, `restore` or `purge` of more than one index: how many did what.
    pub fn index_summary(&self, tally: &Tally) {
        let total = tally.done() + tally.not_started;
        if self.quiet || total < 2 {
            return;
        }
        let mut line = format!("{total} indexes: {} ok, {} failed", tally.ok, tally.failed);
        if tally.not_started > 0 {
            line.push_str(&format!(", {} not started", tally.not_started));
        }
        err(&format!("{line}\n"));
    }

    /// After a one-item change: it is only in the launcher's copy until saved; `not_saved`:
    /// `--save` was asked for, but an index failed, so nothing was saved. (A restore not saved
    /// says what a post will leave: `restore_note`.)
    pub fn item_save_note(&self, operation: Operation, handle: Handle, not_saved: bool) {
        let change = match operation {
            Operation::Remove => "a removal",
            Operation::Restore => "a restore",
            _ => "a purge",
        };
        if not_saved {
            self.note(&format!(
                "not saved, because an index failed: the changes that succeeded are only in the launcher's copy; save them with: safe-ad post {handle}"
            ));
        } else {
            self.note(&format!(
                "{change} changes only the launcher's copy; save it to the network with: safe-ad post {handle} (or use --save post)"
            ));
        }
    }

    /// A change by name whose save did not land: it was made to a copy taken for the run and
    /// given back unsaved, so the network's data is as it was; nothing of it is on stdout.
    pub fn name_change_not_saved(&self, operation: Operation, target: &impl std::fmt::Display) {
        self.note(&format!(
            "{} {target}: nothing was saved, so the network's data is as it was (the changes were made to a copy taken for the run, given back unsaved)",
            operation.name()
        ));
    }

    /// The steps of `append`: `--verbose` exchanges, a JSON object per request, the append's
    /// own line (`append 7: ok`), an error for each step that failed, and what to do to see it.
    pub fn append_steps(&self, launcher: &Launcher, ran: &AppendRan) {
        for (at, step) in ran.steps.iter().enumerate() {
            if step.exchange.is_some() {
                err(&exchange_text(launcher, step));
            }
            let values = self.values(&step.request);
            if self.json {
                self.result_step(launcher, None, step, &values, None);
                if let Err(failure) = &step.result {
                    self.result_failed(Some(&step.request), failure, &values);
                }
            }
            match (&step.result, ran.appended) {
                (Err(failure), _) => {
                    self.error(Some(&self.subject(&step.request)), failure, &values)
                }
                (
                    Ok(_),
                    Some(Appended {
                        at: appended,
                        handle,
                    }),
                ) if appended == at => {
                    if !self.json {
                        self.ok(&step.request);
                    }
                    if self.is_copy(handle) {
                        continue;
                    }
                    self.info(&format!(
                        "appended on the network; handle {handle}'s copy does not show it: `safe-ad reopen {handle}` gets one that does"
                    ));
                }
                (Ok(_), _) => {}
            }
        }
    }
}

fn section_name(section: Section) -> &'static str {
    match section {
        Section::Data => "data",
        Section::Deleted => "deleted",
    }
}

fn yes_no(value: bool) -> &'static str {
    if value {
        "yes"
    } else {
        "no"
    }
}

/// A signer or filter key as shown: its fingerprint, or `you`.
pub(super) fn key_text(key: Option<&[u8]>, you: Option<&[u8]>) -> String {
    match key {
        Some(key) if Some(key) == you => "you".to_string(),
        Some(key) => serialised::fingerprint(key),
        None => "?".to_string(),
    }
}

/// A failure in a few words, for the line of the part that could not be read (the whole
/// error goes to stderr): the launcher's code and description, or what happened.
fn failure_words(failure: &Failure) -> String {
    match failure.answer.as_ref() {
        Some(AnswerError {
            error_code: Some(code),
            description,
            ..
        }) => format!("errorCode {code}, {description}"),
        _ => failure.message.clone(),
    }
}

/// One handle of `show`, for people; `title` names it (`handle 7`, or a name whose fresh copy
/// was read).
fn shown_text(title: &str, shown: &Shown, you: Option<&[u8]>, range: IndexRange) -> String {
    let Ok(metadata) = &shown.metadata else {
        return String::new();
    };
    let mut text = format!(
        "{title}: version {}, owner {}, data {}, deleted {}, filter {} ({} keys)",
        metadata.version,
        yes_no(metadata.is_owner),
        metadata.data_length,
        metadata.deleted_data_length,
        metadata.filter_type.name(),
        metadata.filter_length
    );
    let mut empty_range = None;
    if range != IndexRange::ALL {
        let end = range.end.map(|end| end.to_string()).unwrap_or_default();
        text.push_str(&format!("; showing indexes {}..{end}", range.start));
        if range.within(metadata.data_length).is_empty()
            && range.within(metadata.deleted_data_length).is_empty()
        {
            empty_range = Some(format!(
                "  no item at indexes {}..{end}: the data list has {}, the deleted list {}\n",
                range.start, metadata.data_length, metadata.deleted_data_length
            ));
        }
    }
    text.push('\n');
    if let Some(which) = shown.which.as_deref() {
        text.push_str(&which_line(which, you));
    }
    if let Some(empty) = empty_range {
        text.push_str(&empty);
    }
    for key in &shown.filter {
        let shown_key = match (&key.key, key.failures.first()) {
            (Some(bytes), _) => {
                let mut shown_key = serialised::fingerprint(bytes);
                if Some(bytes.as_slice()) == you {
                    shown_key.push_str(" (you)");
                }
                let signed = shown
                    .data
                    .iter()
                    .chain(&shown.deleted)
                    .any(|item| item.signer.as_ref() == Some(bytes));
                if signed {
                    shown_key.push_str(" (signed items shown here)");
                }
                shown_key
            }
            (None, Some(failure)) => format!("unreadable ({})", failure_words(failure)),
            (None, None) => "?".to_string(),
        };
        text.push_str(&format!("  filter key {}: {shown_key}\n", key.index));
    }
    for item in shown.data.iter().chain(&shown.deleted) {
        text.push_str(&item_text(item, you));
    }
    text
}

/// Which data a handle is, for people: the line under its header (`show`, `status`).
pub(super) fn which_line(which: &WhichRead, you: Option<&[u8]>) -> String {
    match which {
        WhichRead::Read(which) => format!("  {}\n", which_words(which, you)),
        WhichRead::Undecoded(error) => format!(
            "  name unknown: its serialised bytes are not in launcher 0.11.0's layout ({error})\n"
        ),
        WhichRead::Failed(failure) => {
            format!("  name unknown [unreadable: {}]\n", failure_words(failure))
        }
    }
}

/// Which data a handle is, in words: `name N, public, owner you`.
pub(super) fn which_words(which: &Which, you: Option<&[u8]>) -> String {
    let mut words = format!(
        "name {}, {}",
        which.name,
        if which.private { "private" } else { "public" }
    );
    let owners: Vec<String> = (which.owners.iter())
        .map(|key| key_text(Some(&key.serialised()), you))
        .collect();
    match owners.as_slice() {
        [] => {}
        [one] => words.push_str(&format!(", owner {one}")),
        many => words.push_str(&format!(", owners {}", many.join(", "))),
    }
    words
}

/// What the launcher said of the data an item points at, after the item's own name.
fn launcher_words(kind: &Kind, named: bool) -> String {
    match kind {
        Kind::Structured {
            version,
            versions: Some(versions),
        } if named => format!("version {version} ({versions} versions)"),
        Kind::Structured { version, .. } if named => format!("version {version}"),
        Kind::Structured {
            version,
            versions: Some(versions),
        } => format!("structured data, type tag 501, version {version} ({versions} versions)"),
        Kind::Structured { version, .. } => format!("structured data, version {version}"),
        Kind::Appendable {
            version,
            data_length,
            deleted_data_length,
            ..
        } => {
            let what = if named { "" } else { "appendable data, " };
            format!("{what}version {version}, data {data_length}, deleted {deleted_data_length}")
        }
        Kind::Immutable { size } => format!("{size} bytes"),
    }
}

/// What an item points at, for people: its kind, name and type tag from its data id's bytes
/// (`wire::DataId`'s words), then what the launcher said of that data. The one place an item
/// read by `batch::show` is put in words (`show`, the item commands' choices; reusable by any
/// report that lists items).
pub(super) fn item_what(item: &ShownItem) -> String {
    let named = match &item.pointer {
        Some(Ok(pointer)) => Some(pointer.to_string()),
        _ => None,
    };
    let launcher = item
        .kind
        .as_ref()
        .map(|kind| launcher_words(kind, named.is_some()));
    let mut what = match (named, launcher) {
        (Some(named), Some(launcher)) => format!("{named}, {launcher}"),
        (Some(named), None) => named,
        (None, Some(launcher)) => launcher,
        (None, None) => "kind unknown".to_string(),
    };
    if item.missing {
        what.push_str(", not on the network");
    }
    if let Some(Err(_)) = &item.pointer {
        what.push_str(" (its data id is not in launcher 0.11.0's layout)");
    }
    what
}

pub(super) fn item_text(item: &ShownItem, you: Option<&[u8]>) -> String {
    let what = item_what(item);
    let mut line = format!(
        "  {} {}: {what}, signed by {}",
        section_name(item.section),
        item.index,
        key_text(item.signer.as_deref(), you)
    );
    if let Some(preview) = &item.preview {
        line.push_str(&format!(": {preview}"));
    }
    if item.unread {
        line.push_str(&format!(
            ": not read, larger than the {} KiB show reads of one item",
            MAX_CONTENT_BYTES / 1024
        ));
    }
    if let Some(failure) = item.failures.first() {
        line.push_str(&format!(" [unreadable: {}]", failure_words(failure)));
    }
    line.push('\n');
    if let Some(data_id) = &item.data_id {
        line.push_str(&format!("    data id {}\n", serialised::base64(data_id)));
    }
    if let Some(content) = &item.content {
        match serialised::full(content).as_slice() {
            [one] => line.push_str(&format!("    content {one}\n")),
            lines => {
                line.push_str(&format!("    content, {} bytes in hex:\n", content.len()));
                for hex in lines {
                    line.push_str(&format!("      {hex}\n"));
                }
            }
        }
    }
    line
}

/// One handle of `show`, for scripts: the keys README's JSON table lists (its `input` and, for
/// a name, its `handle` are [`Reporter::input_of`]'s).
fn shown_json(shown: &Shown, you: Option<&[u8]>) -> ShowJson {
    let mut object = ShowJson {
        command: "show",
        handle: Some(shown.handle.0),
        ..ShowJson::default()
    };
    match &shown.metadata {
        Err(failure) => {
            let values = Values {
                handle: Some(shown.handle.to_string()),
                name: None,
                copy: false,
            };
            object.error = Some(error_json(failure, &values));
            object.exit_code = Some(failure.exit_code());
            return object;
        }
        Ok(metadata) => {
            object.ok = true;
            let (name, private, owners) = which_parts(shown.which.as_deref());
            (object.name, object.private, object.owners) =
                (Some(name), Some(private), Some(owners));
            object.is_owner = Some(metadata.is_owner);
            object.version = Some(metadata.version);
            object.filter_type = Some(metadata.filter_type.name());
            object.filter_length = Some(metadata.filter_length);
            object.data_length = Some(metadata.data_length);
            object.deleted_data_length = Some(metadata.deleted_data_length);
            object.filter = Some(FilterJson {
                kind: metadata.filter_type.name(),
                keys: (shown.filter.iter())
                    .map(|key| key.key.as_deref().map(serialised::fingerprint))
                    .collect(),
                sign_keys: None,
                yours: None,
            });
        }
    }
    let items = |items: &[ShownItem]| -> Vec<ItemJson> {
        items.iter().map(|item| item_json(item, you)).collect()
    };
    object.data = Some(items(&shown.data));
    object.deleted_data = Some(items(&shown.deleted));
    if let Some(failure) = shown.failures().next() {
        object.ok = false;
        object.error = Some(error_json(failure, &Values::default()));
        object.exit_code = Some(failure.exit_code());
    }
    object
}

/// One item, for scripts: as `show`, `status`, `wait` and `watch` give items.
pub(super) fn item_json(item: &ShownItem, you: Option<&[u8]>) -> ItemJson {
    let (launcher_kind, version) = match &item.kind {
        Some(Kind::Structured { version, .. }) => ("structured-data", Some(*version)),
        Some(Kind::Appendable { version, .. }) => ("appendable-data", Some(*version)),
        Some(Kind::Immutable { .. }) => ("immutable-data", None),
        None => ("unknown", None),
    };
    let (kind, name, type_tag) = match &item.pointer {
        Some(Ok(pointer)) => (
            pointer.kind.name(),
            Some(pointer.name.to_string()),
            pointer.type_tag,
        ),
        // The launcher tells apart only versioned structured data, which is type tag 501.
        _ => (
            launcher_kind,
            None,
            match &item.kind {
                Some(Kind::Structured {
                    versions: Some(_), ..
                }) => Some(501),
                _ => None,
            },
        ),
    };
    let mut object = ItemJson {
        index: item.index,
        kind,
        data_id: item.data_id.as_deref().map(serialised::base64),
        signer: item.signer.as_deref().map(serialised::fingerprint),
        signer_is_you: match (&item.signer, you) {
            (Some(signer), Some(you)) => Some(signer.as_slice() == you),
            _ => None,
        },
        name,
        type_tag,
        on_network: match (item.missing, &item.kind) {
            (true, _) => Some(false),
            (false, Some(_)) => Some(true),
            (false, None) => None,
        },
        version,
        preview: item.preview.clone(),
        text: item.text.clone(),
        ..ItemJson::default()
    };
    if let Some(Err(error)) = &item.pointer {
        object.decode_error = Some(error.to_string());
    }
    match &item.kind {
        Some(Kind::Structured {
            versions: Some(versions),
            ..
        }) => object.versions = Some(*versions),
        Some(Kind::Appendable {
            data_length,
            deleted_data_length,
            filter_type,
            ..
        }) => {
            object.data_length = Some(*data_length);
            object.deleted_data_length = Some(*deleted_data_length);
            object.filter_type = Some(filter_type.name());
        }
        Some(Kind::Immutable { size }) => object.size = Some(*size),
        _ => {}
    }
    if let Some(content) = &item.content {
        object.content = Some(serialised::base64(content));
        object.content_base64 = Some(serialised::base64(content));
    }
    if let Some(failure) = item.failures.first() {
        object.error = Some(error_json(failure, &Values::default()));
    }
    object
}
