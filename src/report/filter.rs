//! The words of the `filter` commands: a filter's type and keys (`filter show`), each key added
//! or taken out and the save after it (`filter add`, `filter remove`), the type switched
//! (`filter type`), and what their dry runs cannot list.

use super::json::{FilterJson, KeyChange};
use super::status::CopyAtSave;
use super::*;
use crate::batch::filter::{Edit, Edited, Fate, KeyDone, KeyGiven, Typed};
use crate::launcher::FilterType;

/// A filter's type as `filter type` takes it.
pub(super) fn type_word(kind: FilterType) -> &'static str {
    match kind {
        FilterType::WhiteList => "white-list",
        FilterType::BlackList => "black-list",
    }
}

/// The command of an edit, as the person typed it.
fn command_of(edit: Edit) -> &'static str {
    match edit {
        Edit::Add => "filter add",
        Edit::Remove => "filter remove",
    }
}

/// Who may append, as routing's `append` checks a filter (the owner's key too): for people.
fn who_may(kind: FilterType, keys: usize) -> &'static str {
    match (kind, keys) {
        (FilterType::WhiteList, 0) => "nobody may append",
        (FilterType::WhiteList, _) => "only these keys may append",
        (FilterType::BlackList, 0) => "any key may append",
        (FilterType::BlackList, _) => "these keys may not append, any other may",
    }
}

/// A key of a filter as `filter show` and `filter add` write it: its fingerprint, `(you)`
/// after it for your own.
fn key_words(serialised_key: &[u8], you: Option<&[u8]>) -> String {
    let mut words = serialised::fingerprint(serialised_key);
    if Some(serialised_key) == you {
        words.push_str(" (you)");
    }
    words
}

/// A key given, as its lines name it: its fingerprint, and the item whose signer it is.
fn given_words(done: &KeyDone) -> String {
    let fingerprint = match (&done.key, &done.given) {
        (Some(key), _) => serialised::fingerprint(&key.serialised()),
        (None, KeyGiven::Fingerprint(fingerprint)) => fingerprint.clone(),
        (None, _) => "?".to_owned(),
    };
    match done.given {
        KeyGiven::SignerOf(index) => format!("{fingerprint} (the signer of data item {index})"),
        _ => fingerprint,
    }
}

/// The launcher's 32 bytes of a serialised key, base64, as `filter add` takes a KEY; `None`
/// for bytes not in launcher 0.11.0's layout.
fn key_base64(serialised_key: &[u8]) -> Option<String> {
    crate::wire::SignKey::decode(serialised_key)
        .ok()
        .map(|key| serialised::base64(&key.0))
}

impl Reporter {
    /// `filter show`: the filter's type and each key (fingerprint, `you`, its bytes), or its
    /// result with `--json`; an error for what could not be read. `you`: your own key,
    /// serialised, when it was read.
    pub fn filter_shown(&self, launcher: &Launcher, shown: &Shown, you: Option<&[u8]>) {
        let steps: Vec<&Step> = (shown.steps.iter())
            .chain(shown.filter.iter().flat_map(|key| &key.steps))
            .collect();
        let word = self.handle_word(shown.handle);
        let command = format!("filter show {word}");
        let values = Values {
            handle: Some(word.clone()),
            name: None,
            copy: self.is_copy(shown.handle),
        };
        for step in &steps {
            self.exchanges(launcher, std::slice::from_ref(*step));
            if self.json {
                self.result_step(launcher, None, step, &self.values(&step.request), None);
            }
        }
        let metadata = match &shown.metadata {
            Ok(metadata) => metadata,
            Err(failure) => {
                self.result_failed(None, failure, &values);
                self.error(Some(&command), failure, &values);
                return;
            }
        };
        let keys: Vec<Option<&[u8]>> = (shown.filter.iter())
            .map(|key| key.key.as_deref())
            .collect();
        if self.json {
            self.result_facts(metadata);
            self.result_with(|result| {
                result.filter = Some(FilterJson {
                    kind: metadata.filter_type.name(),
                    keys: keys
                        .iter()
                        .map(|key| key.map(serialised::fingerprint))
                        .collect(),
                    sign_keys: Some(keys.iter().map(|key| key.and_then(key_base64)).collect()),
                    yours: Some(you.map(|you| keys.contains(&Some(you)))),
                })
            });
        } else {
            let kind = metadata.filter_type;
            let length = shown.filter.len();
            let mut text = format!(
                "{word}: {}, {}: {}\n",
                type_word(kind),
                counted(length as u64, "key", "keys"),
                who_may(kind, length)
            );
            for key in &shown.filter {
                let line = match (&key.key, key.failures.first()) {
                    (Some(bytes), _) => match key_base64(bytes) {
                        Some(base64) => format!("{} {base64}", key_words(bytes, you)),
                        None => key_words(bytes, you),
                    },
                    (None, Some(failure)) => format!("unreadable ({})", failure.message),
                    (None, None) => "?".to_owned(),
                };
                text.push_str(&format!("  key {}: {line}\n", key.index));
            }
            self.out(&text);
        }
        for key in &shown.filter {
            for failure in &key.failures {
                self.result_failed(None, failure, &values);
                self.show_failed(&command, &format!("filter key {}", key.index), failure);
            }
        }
    }

    /// `filter add` and `filter remove` of one handle: an error for what failed, a line per key
    /// given (on a name's copy, a key that went in only once the save landed), the save's line,
    /// and what a change of a handle's copy still needs; with `--json`, the result's `keys` and
    /// `filter`.
    pub fn filter_edited(&self, launcher: &Launcher, edited: &Edited) {
        let command = command_of(edited.edit);
        let word = self.handle_word(edited.handle);
        let fresh = self.is_copy(edited.handle);
        let values = Values {
            handle: Some(word.clone()),
            name: None,
            copy: fresh,
        };
        let is_save = |step: &&Step| step.request.operation().is_save();
        let save = edited.steps.iter().find(is_save);
        let saved = save.is_some_and(|save| save.result.is_ok());
        let after = edited.keys_after();
        if self.json {
            if let Some(before) = &edited.before {
                let mut metadata = before.metadata.clone();
                metadata.filter_length = after.len() as u64;
                self.result_facts(&metadata);
            }
        }
        // The fingerprints of the keys sent, in the order of their edits.
        let mut sent = (edited.keys.iter())
            .filter(|done| done.fate == Fate::Changes)
            .map(given_words);
        for step in &edited.steps {
            self.exchanges(launcher, std::slice::from_ref(step));
            let values = self.values(&step.request);
            if self.json {
                self.result_step(launcher, None, step, &values, None);
            }
            let which = match step.request {
                Request::FilterEdit { .. } => sent.next(),
                _ => None,
            };
            if let Err(failure) = &step.result {
                self.result_failed(Some(&step.request), failure, &values);
                let context = match (which, step.request) {
                    (Some(key), _) => format!("{command} {word}: {key}"),
                    (None, Request::OnHandle(Operation::Metadata, _)) => {
                        format!("{command} {word}")
                    }
                    (None, Request::AtIndex(Operation::ItemSigner, _, index)) => {
                        format!("{command} {word}: --signer-of {index}")
                    }
                    (None, request) => format!("{command} {word}: {}", self.subject(&request)),
                };
                self.error(Some(&context), failure, &values);
            }
        }
        // Said once: with `--verbose` a key's failed read is among the steps too.
        let said = |failure: &Failure| {
            (edited.steps.iter())
                .any(|step| matches!(&step.result, Err(said) if said.message == failure.message))
        };
        // A stop's own failure says it once, at the end of the run.
        let stopped = |failure: &Failure| failure.class == Class::Interrupted;
        if let Some(failure) = (edited.failure.as_ref()).filter(|f| !said(f) && !stopped(f)) {
            self.result_failed(None, failure, &values);
            self.error(Some(&format!("{command} {word}")), failure, &values);
        }
        let Some(before) = &edited.before else {
            return;
        };
        if self.json {
            let keys = (edited.keys.iter())
                .map(|done| KeyChange {
                    key: done.key.map(|key| serialised::base64(&key.0)),
                    fingerprint: match (&done.key, &done.given) {
                        (Some(key), _) => Some(serialised::fingerprint(&key.serialised())),
                        (None, KeyGiven::Fingerprint(fingerprint)) => Some(fingerprint.clone()),
                        (None, _) => None,
                    },
                    changed: done.landed,
                    signer_of: match done.given {
                        KeyGiven::SignerOf(index) => Some(index),
                        _ => None,
                    },
                    saved: (fresh && done.landed).then_some(saved),
                })
                .collect::<Vec<_>>();
            self.result_with(|result| {
                if !keys.is_empty() {
                    result.keys.get_or_insert_with(Vec::new).extend(keys);
                }
                result.filter = Some(FilterJson {
                    kind: before.metadata.filter_type.name(),
                    keys: after
                        .iter()
                        .map(|key| Some(serialised::fingerprint(key)))
                        .collect(),
                    sign_keys: None,
                    yours: None,
                });
            });
        } else if !self.quiet {
            let mut text = String::new();
            for done in &edited.keys {
                let said = match (done.fate, edited.edit) {
                    // A name's change is the network's only once its save landed.
                    (Fate::Changes, _) if !done.landed || (fresh && !saved) => continue,
                    (Fate::Changes, Edit::Add) => "added".to_owned(),
                    (Fate::Changes, Edit::Remove) => "taken out".to_owned(),
                    (Fate::AsItIs, Edit::Add) => "in the filter already; nothing to add".to_owned(),
                    (Fate::AsItIs, Edit::Remove) => {
                        "not in the filter; nothing to take out".to_owned()
                    }
                    (Fate::NoSuchFingerprint, _) => {
                        "no key in the filter has this fingerprint; nothing to take out".to_owned()
                    }
                    (Fate::Twice, _) => "the same key as one given before it".to_owned(),
                    (Fate::NotRead, _) => continue,
                };
                text.push_str(&format!(
                    "{command} {word}: {}: {said}\n",
                    given_words(done)
                ));
            }
            self.out(&text);
        }
        if let Some(save) = save.filter(|save| save.result.is_ok()) {
            self.saved(
                save,
                CopyAtSave::of(false, Some(before.metadata.data_length)),
            );
        }
        let failed = edited.failed().is_some();
        match (edited.changed(), save) {
            // A name's copy whose save did not land (or was kept from being sent by a stop).
            (true, _) if fresh && !saved => self.note(&format!(
                "{command} {word}: nothing was saved, so the network's data is as it was (the change was made to a copy taken for the run, given back unsaved)"
            )),
            (true, None) => self.note(&format!(
                "a change of the filter changes only the launcher's copy; save it to the network with: safe-ad post {word} (or use --save post)"
            )),
            (true, Some(_)) if !saved => self.note(&format!(
                "not saved: the keys that went in are only in the launcher's copy; save them with: safe-ad post {word}"
            )),
            (false, _) if !failed => self.info(&format!(
                "{command} {word}: the filter is as it was; nothing was sent to change it, nor saved"
            )),
            _ => {}
        }
    }

    /// `filter type` of one handle: the type as it was, or as it is now (a name's once saved)
    /// and the keys the switch dropped; the save's line; with `--json`, `toggled` and
    /// `dropped_keys` on the result.
    pub fn filter_typed(&self, launcher: &Launcher, typed: &Typed) {
        let word = self.handle_word(typed.handle);
        let fresh = self.is_copy(typed.handle);
        let save = typed
            .steps
            .iter()
            .find(|step| step.request.operation().is_save());
        let saved = save.is_some_and(|save| save.result.is_ok());
        let dropped = match (&typed.before, typed.toggled) {
            (Some(before), true) => before.filter_length,
            _ => 0,
        };
        if self.json {
            if let Some(before) = &typed.before {
                let mut metadata = before.clone();
                if typed.toggled {
                    metadata.filter_type = typed.wanted;
                    metadata.filter_length = 0;
                }
                self.result_facts(&metadata);
            }
        }
        for step in &typed.steps {
            self.exchanges(launcher, std::slice::from_ref(step));
            let values = self.values(&step.request);
            if self.json {
                self.result_step(launcher, None, step, &values, None);
            }
            if let Err(failure) = &step.result {
                self.result_failed(Some(&step.request), failure, &values);
                let context = match step.request {
                    Request::OnHandle(Operation::Metadata, _) => format!("filter type {word}"),
                    request => format!("filter type {word}: {}", self.subject(&request)),
                };
                self.error(Some(&context), failure, &values);
            }
        }
        let Some(before) = &typed.before else {
            return;
        };
        let (now, was) = (type_word(typed.wanted), type_word(before.filter_type));
        if self.json {
            self.result_with(|result| {
                result.toggled = Some(typed.toggled);
                result.dropped_keys = Some(dropped);
            });
        } else if !self.quiet {
            if typed.as_it_was() {
                self.out(&format!(
                    "filter type {word}: a {now} already ({}); nothing changed\n",
                    counted(before.filter_length, "key", "keys")
                ));
            } else if typed.toggled && (!fresh || saved) {
                self.out(&format!("filter type {word}: {now} now (was a {was})\n"));
            }
        }
        if let Some(save) = save.filter(|save| save.result.is_ok()) {
            self.saved(save, CopyAtSave::of(false, Some(before.data_length)));
        }
        if dropped > 0 && (!fresh || saved) {
            self.note(&format!(
                "the switch left the filter without keys: the launcher makes the other type empty, so the {was}'s {} went with it; `safe-ad filter add {word} KEY...` adds the {now}'s",
                counted(dropped, "key", "keys")
            ));
        }
        match save {
            _ if typed.toggled && fresh && !saved => self.note(&format!(
                "filter type {word}: nothing was saved, so the network's data is as it was (the change was made to a copy taken for the run, given back unsaved)"
            )),
            None if typed.toggled => self.note(&format!(
                "a change of the filter changes only the launcher's copy; save it to the network with: safe-ad post {word} (or use --save post)"
            )),
            _ => {}
        }
    }

    /// Before a dry run of `filter add` or `filter remove` (`--curl` too): the read it cannot
    /// list, what is sent only when it is needed, and what each key it cannot list (a
    /// fingerprint, a signer) comes to.
    pub fn filter_edit_plan_note(&self, edit: Edit, target: &str, given: &[KeyGiven], curl: bool) {
        let command = command_of(edit);
        let (what, nothing) = match edit {
            Edit::Add => ("in it already", "added"),
            Edit::Remove => ("not in it", "taken out"),
        };
        let sent = match curl {
            true => "these lines send every key and the save; safe-ad itself reads the filter first and sends".to_owned(),
            false => format!("{command} {target} first reads the filter (its metadata, then each key through a sign-key handle, given back), and sends"),
        };
        self.note(&format!(
            "{sent} a key's requests only when the key changes the filter (a key {what} is not {nothing}), and the save sent only when a key was"
        ));
        for given in given {
            let which = match given {
                KeyGiven::Key(_) => continue,
                KeyGiven::Fingerprint(fingerprint) => format!(
                    "{fingerprint}: the filter's key with this fingerprint, which the read finds, is"
                ),
                KeyGiven::SignerOf(index) => format!(
                    "--signer-of {index}: whoever signed data item {index}, read after the filter (GET /appendable-data/sign-key/<HANDLE>/{index}, its serialised bytes, the handle given back), is"
                ),
            };
            self.note(&format!(
                "{which} sent as its own bytes then (POST /sign-key/deserialise, the edit, the handle given back): not listed here, as its bytes are not known before the read"
            ));
        }
    }

    /// Before a dry run of `filter type`: the switch is sent only when the type differs.
    pub fn filter_type_plan_note(&self, target: &str, wanted: FilterType) {
        self.note(&format!(
            "the switch and the save after it are sent only when the filter of {target} is not a {} already (the read of its metadata says)",
            type_word(wanted)
        ));
    }
}
