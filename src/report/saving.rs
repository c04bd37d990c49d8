//! The words of the procedures that make a save true on the network (`saving`'s table): the
//! note before a purge a plain post would undo, and `restore --save post`, which appends the
//! restored items again after the save: what it will append, its steps, and the dry run's note;
//! why it changes nothing when an item could not be appended after the save, or would come back
//! signed by you where another key signed it (without `--re-sign`), the items it did re-sign, and
//! an item the save left in neither list, said with what it was and the command that appends it
//! again.

use super::json::ReSigned;
use super::show::item_what;
use super::status::CopyAtSave;
use super::*;
use crate::batch::restore::{Blocked, Fate, Progress, ToRestore};
use crate::batch::status::Removals;
use crate::saving::Change;
use crate::wire::{DataKind, FilterType};

impl Reporter {
    /// Before a purge (or `clear-deleted-data`) not saved with `--save post`: what a plain post
    /// would leave on the network for an item whose removal was never saved.
    pub fn purge_note(&self, command: &str, handle: &str) {
        debug_assert!(Change::PurgeUnsaved.post_alone_misleads());
        self.note(&format!(
            "{command} takes items off the copy's deleted list; a plain `safe-ad post {handle}` then deletes for good only those whose removal was saved before: an item whose removal is not saved yet stays data on the network (`safe-ad status {handle}` lists removals not saved; `{command} --save post` saves the removal first, then the {command})"
        ));
    }

    /// After a restore not saved: what a plain post will leave, by whether the network has the
    /// removals it undid (`removals`; `None`: that could not be told, and the words hold
    /// either way). A removal the network has got: the post takes the item off its deleted list
    /// and does not make it data (`saving`'s row for a restore). None it has got: the restore
    /// undid a removal only the copy held, and the post leaves the item data.
    pub fn restore_note(&self, handle: Handle, removals: Option<Removals>) {
        debug_assert!(Change::Restore.post_alone_misleads());
        let note = match removals {
            Some(read) if read.saved == 0 && read.unsaved > 0 => {
                let (items, are, them) = match read.unsaved {
                    1 => ("the item", "it is", "it"),
                    _ => ("the items", "they are", "them"),
                };
                format!(
                    "a restore changes only the launcher's copy; the removal of {items} it restored never reached the network, so {are} data there still, and a plain `safe-ad post {handle}` leaves {them} so"
                )
            }
            Some(read) if read.saved == 0 => format!(
                "a restore changes only the launcher's copy; save it to the network with: safe-ad post {handle}"
            ),
            _ => format!(
                "a restore changes only the launcher's copy; a plain `safe-ad post {handle}` takes the items off the network's deleted list without making them data again (a post carries no data items), so an item whose removal was saved is gone for good; to make them data on the network, start from a fresh copy: `safe-ad reopen {handle}`, then `safe-ad restore NEW_HANDLE ... --save post` on the handle it prints"
            ),
        };
        self.note(&note);
    }

    /// `purge --dry-run --save post` (and `--curl`): the first save the plan lists is sent only
    /// when a read finds an item whose removal the network has not got; the curl lines cannot
    /// read, and always send it (it then changes nothing but the version).
    pub fn purge_plan_note(&self, handle: Handle, curl: bool) {
        let note = match curl {
            false => format!(
                "purge {handle} --save post first reads the copy's serialised bytes and the network's deleted list (not listed here): the first save and the read after it are sent only when an item it purges has a removal the network has not got (the plan lists them, the most that may be sent); else one save"
            ),
            true => format!(
                "these lines save first whatever the network holds, as a script cannot read and decide; `safe-ad purge {handle} --save post` sends that first save only when an item it purges has a removal the network has not got (otherwise it changes nothing but the version)"
            ),
        };
        self.note(&note);
    }

    /// `restore --dry-run --save post`: what decides the appends the plan lists, and what
    /// becomes of an item another key signed (`re_sign`: `--re-sign` was given).
    pub fn restore_plan_note(&self, handle: &str, re_sign: bool) {
        let others = match re_sign {
            true => "with --re-sign, an item another key signed comes back signed by you",
            false => "an item another key signed would come back signed by you, so when one is among them it changes nothing and exits 2 (--re-sign allows it)",
        };
        self.note(&format!(
            "restore {handle} --save post first reads the network's deleted list (not listed here): an item listed there is in neither of the network's lists after the save, so it is appended again after it, signed by you; an item whose removal was never saved is still data on the network and is not (the plan lists an append for every item, the most that may be sent); it reads the copy's bytes too, and changes nothing when an append would be refused (the data's filter keeps your key out, or public data holds the item signed by you already); {others}"
        ));
    }

    /// `restore --re-sign` where the restore appends nothing again (a handle's, not saved with
    /// `--save post`): nothing there is signed again, so the option would not act.
    pub fn re_sign_not_acting(&self, target: &str) -> Failure {
        Failure::usage(format!(
            "restore {target}: --re-sign acts only where a restore is saved (given the data's name, or with --save post): a handle's restore without it changes only the launcher's copy and signs nothing again; nothing was sent"
        ))
        .with_hint(format!(
            "`safe-ad restore --save post {target} ...` restores, saves and appends again, and with --re-sign an item another key signed comes back signed by you"
        ))
    }

    /// `restore NAME` or `restore --save post` changed nothing: appended again after the save,
    /// these items would be signed by your key where another key signed them (`Some(true)`),
    /// or who signed one, or your own key, could not be read (`None`); `--re-sign` allows it.
    pub fn restore_re_signs(&self, target: &str, items: &[(&ShownItem, Option<bool>)]) -> Failure {
        let each: Vec<String> = (items.iter())
            .map(|(item, re_signs)| {
                let by = match (re_signs, &item.signer) {
                    (Some(true), Some(signer)) => {
                        format!("signed by {}", serialised::fingerprint(signer))
                    }
                    (_, None) => "who signed it could not be read".to_string(),
                    _ => "your own sign key could not be read, so whether another key signed it is not known".to_string(),
                };
                format!("deleted {} ({}; {by})", item.index, item_what(item))
            })
            .collect();
        let (it, them) = match items.len() {
            1 => ("an item", "it"),
            _ => ("items", "them"),
        };
        Failure::usage(format!(
            "restore {target}: nothing was changed: a save takes a restored item off the network's deleted list and only an append after it makes it data again, which your key signs, so {it} another key signed would come back signed by you: {}; --re-sign allows it",
            each.join("; ")
        ))
        .with_hint(format!(
            "to make {them} data again signed by you, run the command again with --re-sign; only the key that signed an item can make it data as it was"
        ))
    }

    /// Before `restore --save post` changes anything: which items it will append again, and
    /// that an item someone else signed comes back signed by you.
    pub fn restore_appends(
        &self,
        handle: Handle,
        items: &[ShownItem],
        plan: &[ToRestore],
        you: Option<&[u8]>,
    ) {
        let handle = self.handle_word(handle);
        for (item, planned) in items.iter().zip(plan) {
            let what = item_what(item);
            let line = match (planned.append, &item.signer) {
                (false, _) => format!(
                    "restore {handle} deleted {}: {what}: its removal was never saved, so it is still data on the network; the save keeps it",
                    item.index
                ),
                (true, Some(signer)) if you.is_some_and(|you| you != signer.as_slice()) => format!(
                    "restore {handle} deleted {}: {what}: to be appended again after the save, signed by you (it was signed by {}; only its signer can append it as it was)",
                    item.index,
                    serialised::fingerprint(signer)
                ),
                (true, _) => format!(
                    "restore {handle} deleted {}: {what}: to be appended again after the save (a save carries no data items)",
                    item.index
                ),
            };
            self.info(&line);
        }
    }

    /// The steps of `restore --save post`: each restore's line, the save's, each append's, and
    /// an error for each step that failed; the data ids it took are said only when they fail.
    /// `held`: how many data items the copy holds when the post is sent, where the read that
    /// chose the items said. `lost_items`: an item is then said to be (or may be) in neither
    /// list ([`Reporter::restore_in_neither`]), the first error of the run, so a save that
    /// failed is said here only as what it was. On a name's fresh copy the restores are said
    /// only once the save landed.
    pub fn restore_steps(
        &self,
        launcher: &Launcher,
        handle: Handle,
        steps: &[Step],
        held: Option<u64>,
        lost_items: bool,
        re_signed: &[&ShownItem],
    ) {
        // The item each data id stands for (taken from the deleted list before the restores,
        // at the item's index), to say of an append which item is now signed by you.
        let taken: Vec<(Handle, u64)> = (steps.iter())
            .filter_map(|step| match step.request {
                Request::AtIndex(Operation::DeletedItemDataId, _, index) => {
                    Some((step.new_handle()?, index))
                }
                _ => None,
            })
            .collect();
        let re_signed_by = |step: &Step| match (&step.result, step.request) {
            (Ok(_), Request::Append { data_id, .. }) => {
                let (_, index) = taken.iter().find(|(taken, _)| *taken == data_id)?;
                re_signed.iter().find(|item| item.index == *index).copied()
            }
            _ => None,
        };
        // A name's restores are the network's only once its save landed: a run whose save did
        // not says no `ok` of them, and (unless the save may have acted unseen) that the
        // network's data is as it was.
        let save = |step: &&Step| step.request.operation().is_save();
        let unsaved =
            self.is_copy(handle) && !(steps.iter().filter(save)).any(|s| s.result.is_ok());
        let save_lost = (steps.iter().filter(save)).any(|step| step.answer_lost);
        let mut appended = 0;
        for step in steps {
            self.exchanges(launcher, std::slice::from_ref(step));
            let values = self.values(&step.request);
            let re_signed = re_signed_by(step);
            if self.json {
                self.result_step(launcher, None, step, &values, None);
                if let Err(failure) = &step.result {
                    self.result_failed(Some(&step.request), failure, &values);
                }
                if let Some(item) = re_signed {
                    self.result_with(|result| {
                        (result.re_signed.get_or_insert_with(Vec::new)).push(ReSigned {
                            index: item.index,
                            signer: item.signer.as_deref().map(serialised::fingerprint),
                        })
                    });
                }
            }
            match (&step.result, step.request) {
                // What became of the item is said once the run ends (`restore_in_neither`),
                // with the command that appends it: the append's own hint would mislead.
                (Err(failure), Request::Append { data_id, .. }) => self.info(&format!(
                    "{}: not appended: {}",
                    self.subject(&Request::Append { handle, data_id }),
                    failure.message
                )),
                (Err(failure), request) if lost_items && request.operation().is_save() => self
                    .info(&format!(
                        "{}: {}",
                        self.subject(&step.request),
                        failure.message
                    )),
                (Err(failure), _) => {
                    self.error(Some(&self.subject(&step.request)), failure, &values)
                }
                (Ok(_), request) if request.operation().is_save() => {
                    self.saved(step, CopyAtSave::of(false, held))
                }
                (Ok(_), Request::AtIndex(Operation::Restore, ..)) if !self.json && !unsaved => {
                    self.ok(&step.request)
                }
                (Ok(_), Request::Append { data_id, .. }) => {
                    appended += 1;
                    // Said of the data as the person named it, also when it went through a
                    // fresh handle of its own (sent again after someone saved).
                    let append = Request::Append { handle, data_id };
                    match re_signed {
                        _ if self.json || self.quiet => {}
                        Some(item) => self.out(&format!(
                            "{}: ok: deleted {} ({}) is data again, now signed by you (re-signed: it was signed by {})\n",
                            self.subject(&append),
                            item.index,
                            item_what(item),
                            item.signer.as_deref().map_or("a key not read".to_string(), serialised::fingerprint)
                        )),
                        None => self.ok(&append),
                    }
                }
                (Ok(_), _) => {}
            }
        }
        if unsaved && !lost_items && !save_lost {
            self.name_change_not_saved(Operation::Restore, &self.handle_word(handle));
        }
        if appended > 0 && self.is_copy(handle) {
            self.info(&format!(
                "{appended} restored item{} appended again after the save: data on the network again",
                if appended == 1 { "" } else { "s" },
            ));
        } else if appended > 0 {
            self.info(&format!(
                "{appended} restored item{} appended again after the save: data on the network again; `safe-ad reopen {handle}` gets a handle that shows {}",
                if appended == 1 { "" } else { "s" },
                if appended == 1 { "it" } else { "them" }
            ));
        }
    }

    /// `restore ... --save post` changed nothing: an item the save would leave in neither list
    /// could not be appended again after it (`blocked`, each with why), as the reads before
    /// the save showed.
    pub fn restore_blocked(&self, target: &str, blocked: &[(&ShownItem, Blocked)]) -> Failure {
        let each: Vec<String> = (blocked.iter())
            .map(|(item, why)| {
                let why = match why {
                    Blocked::Filter {
                        kind: FilterType::WhiteList,
                        keys,
                    } => format!(
                        "the data's filter, a whitelist of {}, does not hold your key, so the launcher would refuse that append",
                        counted(*keys as u64, "key", "keys")
                    ),
                    Blocked::Filter { .. } => "the data's filter, a blacklist, holds your key, so the launcher would refuse that append".to_string(),
                    Blocked::AlreadyData => "the data holds that item signed by you already, so the launcher would refuse to append it again".to_string(),
                    Blocked::Unknown(what) => format!("whether it could be appended again is not known: {what}"),
                };
                format!("deleted {} ({}): {why}", item.index, item_what(item))
            })
            .collect();
        let hint = match blocked.first().map(|(_, why)| why) {
            Some(Blocked::Filter { .. }) => format!(
                "the item stays in the deleted list, where `safe-ad show {target}` lists it; only a key the data's filter lets in can make it data again"
            ),
            Some(Blocked::AlreadyData) => format!(
                "the item is data on the network already, signed by you: `safe-ad show {target}` lists it"
            ),
            _ => "run the command again".to_string(),
        };
        Failure::new(
            Class::Rejected,
            format!(
                "restore {target}: nothing was changed: a save takes a restored item off the network's deleted list, and only an append after it makes it data again, which would fail for {}",
                each.join("; ")
            ),
        )
        .with_hint(hint)
    }

    /// After `restore ... --save post`: the items the save left (or may have left) in neither
    /// of the network's lists (`in_neither`: index and whether that is certain), each with what
    /// it was, its data id and the command that appends it again to `data` (the data's name).
    /// `failure`: the last append the launcher refused, for the words.
    #[allow(clippy::too_many_arguments)]
    pub fn restore_in_neither(
        &self,
        class: Class,
        target: &str,
        data: &str,
        items: &[ShownItem],
        in_neither: &[(u64, bool)],
        progress: &Progress,
        failure: Option<&Failure>,
    ) -> Failure {
        let fates = progress.appends.borrow();
        let each: Vec<String> = (in_neither.iter())
            .map(|&(index, certain)| {
                let item = items.iter().find(|item| item.index == index);
                let what = item.map_or("kind unknown".to_string(), item_what);
                let id = (item.and_then(|item| item.data_id.as_deref()))
                    .map_or("not read".to_string(), serialised::base64);
                let fate = (fates.iter())
                    .find(|(at, _)| *at == index)
                    .map_or(Fate::NotSent, |(_, fate)| *fate);
                let why = match (progress.save.get(), fate) {
                    (Fate::MayHave, _) => "the save's answer did not come, so it may have saved, which takes the item off the deleted list".to_string(),
                    (_, Fate::MayHave) => "the save took it off the deleted list, and the answer to its append did not come, so whether it is data again is not known".to_string(),
                    (_, Fate::Refused) => format!(
                        "the save took it off the deleted list, and the launcher refused to append it again{}",
                        failure.map_or(String::new(), |failure| format!(" ({})", failure.message))
                    ),
                    _ => "the save took it off the deleted list, and the run stopped before it appended it again".to_string(),
                };
                let command = append_command(data, item);
                match certain {
                    true => format!(
                        "deleted {index} ({what}; data id {id}) is now in neither of the network's lists: {why}; append it again with {command}"
                    ),
                    false => format!(
                        "deleted {index} ({what}; data id {id}) may now be in neither of the network's lists: {why}; see with `safe-ad show {data}`, and if it is not there, append it again with {command}"
                    ),
                }
            })
            .collect();
        Failure::new(class, format!("restore {target}: {}", each.join("; ")))
    }
}

/// The command that appends an item again to the data named `data`, by what its data id says it
/// points at.
fn append_command(data: &str, item: Option<&ShownItem>) -> String {
    let pointer = match item.and_then(|item| item.pointer.as_ref()) {
        Some(Ok(pointer)) => pointer,
        _ => return format!("`safe-ad append {data}` and the kind and name of what it pointed at (its data id is not in launcher 0.11.0's layout)"),
    };
    let name = pointer.name;
    match pointer.kind {
        DataKind::Structured => format!(
            "`safe-ad append {data} --structured {name} --type-tag {}`",
            pointer.type_tag.unwrap_or(500)
        ),
        DataKind::PubAppendable => format!("`safe-ad append {data} --appendable {name}`"),
        DataKind::PrivAppendable => {
            format!("`safe-ad append {data} --appendable {name} --private`")
        }
        DataKind::Immutable => format!(
            "`safe-ad append {data} --immutable FILE`, FILE holding its content (immutable data is named by its content, so the same content, written the same way, is the same item)"
        ),
    }
}
