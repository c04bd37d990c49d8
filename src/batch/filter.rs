//! `filter`: who may append to one appendable data, as its filter says (a whitelist or a
//! blacklist of sign keys), read ([`read`]), a key added or taken out ([`edit`]), its type
//! switched ([`set_type`]). The handle is a name's fresh copy or one the person holds; a change
//! is the copy's until the save its plan lists (a name's is always saved with a post).
//!
//! safe_core's filter calls behind the launcher's routes (`appendable_data_insert_to_filter`,
//! `_remove_from_filter`, `_toggle_filter`): the filter is a set, so a key added twice (or taken
//! out when it is not there) changes nothing; a toggle switches the type and leaves the list
//! empty. So every key is read first, and only a key that changes the filter is sent: when none
//! does, nothing is sent and nothing saved, and the network's version stays.
//!
//! A key goes to the launcher as a sign-key handle: asked for its bytes (`POST
//! /sign-key/deserialise`), used in one edit, and given back (a lease), one key at a time. A
//! fingerprint or a signer (`--signer-of`) is turned into the key's bytes by the read before.
//! Nothing here renders.

use super::interpret::interpret;
use super::show::{self, IndexRange, Parts, ShowOptions, Shown};
use super::{with_read_back, Sending, Step, Steps};
use crate::handle::Handle;
use crate::launcher::{serialised, FilterType, HandleKind, Metadata, Operation, Request, Slot};
use crate::outcome::{Class, Failure, Reply};
use crate::wire::SignKey;

/// What the filter's read takes of a handle: its metadata and its keys, nothing of its items.
const FILTER_ONLY: ShowOptions = ShowOptions {
    range: IndexRange::ALL,
    full: false,
    parts: Parts {
        filter: true,
        data: false,
        deleted: false,
        content: false,
        signers: false,
    },
};

/// The slot each key's sign-key handle stands in, in a plan: each key's until the next's.
const KEY: Slot = Slot::FromAnswer("handleId");

/// A key as it was given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyGiven {
    /// The key's 32 bytes (base64 or hex, as `auth whoami --key` prints one).
    Key(SignKey),
    /// The fingerprint of a key in the filter (16 hex digits, lower case): `filter remove`.
    Fingerprint(String),
    /// Whoever signed the data item at this index (`--signer-of`).
    SignerOf(u64),
}

impl KeyGiven {
    /// Whether the key is known before anything is read (a dry run can list its requests).
    pub fn bytes(&self) -> Option<SignKey> {
        match self {
            KeyGiven::Key(key) => Some(*key),
            _ => None,
        }
    }
}

/// Which edit: a key added, or taken out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    Add,
    Remove,
}

impl Edit {
    pub fn operation(self) -> Operation {
        match self {
            Edit::Add => Operation::AddToFilter,
            Edit::Remove => Operation::RemoveFromFilter,
        }
    }
}

/// What a key given comes to once the filter (and a signer) was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// It changes the filter: its edit is sent ([`KeyDone::landed`] says whether it landed).
    Changes,
    /// In the filter already (an add), or not in it (a remove): nothing to send.
    AsItIs,
    /// No key in the filter has this fingerprint: nothing to send.
    NoSuchFingerprint,
    /// The same key as one given before it: said there.
    Twice,
    /// Not reached: the read before (or the signer's) failed, or a stop came first.
    NotRead,
}

/// One key given, and what came of it.
#[derive(Debug, Clone)]
pub struct KeyDone {
    pub given: KeyGiven,
    /// The key, once known.
    pub key: Option<SignKey>,
    pub fate: Fate,
    /// Its edit was answered `OK`: the copy's filter has it (or has it no more).
    pub landed: bool,
}

/// What the read before a change found: the data's metadata and its filter's keys, each as the
/// launcher's serialised bytes (the fingerprint is of them).
#[derive(Debug, Clone)]
pub struct Before {
    pub metadata: Metadata,
    pub keys: Vec<Vec<u8>>,
}

/// What a `filter add` or `filter remove` did to one handle.
#[derive(Debug)]
pub struct Edited {
    pub edit: Edit,
    pub handle: Handle,
    /// The read before the change, when it could be made.
    pub before: Option<Before>,
    pub keys: Vec<KeyDone>,
    /// Every request, in order (the reads' only with `--verbose`, as `show` keeps them).
    pub steps: Vec<Step>,
    /// A failure that is no step's answer: a read of a filter's key that failed (its steps are
    /// kept only with `--verbose`), or bytes the launcher gave that are not a sign key. Nothing
    /// was changed then.
    pub failure: Option<Failure>,
}

impl Edited {
    /// Whether a key's edit landed on the copy.
    pub fn changed(&self) -> bool {
        self.keys.iter().any(|key| key.landed)
    }

    /// The filter's keys afterwards (the copy's, or the network's once saved), in the
    /// launcher's order (a set of keys, sorted by their bytes), each serialised.
    pub fn keys_after(&self) -> Vec<Vec<u8>> {
        let Some(before) = &self.before else {
            return Vec::new();
        };
        let mut keys = before.keys.clone();
        for done in self.keys.iter().filter(|done| done.landed) {
            let Some(key) = done.key else { continue };
            let serialised = key.serialised();
            match self.edit {
                Edit::Add => keys.push(serialised),
                Edit::Remove => keys.retain(|kept| *kept != serialised),
            }
        }
        keys.sort();
        keys.dedup();
        keys
    }

    /// The class of the first failure, if any.
    pub fn failed(&self) -> Option<Class> {
        (self.failure.as_ref().map(|failure| failure.class)).or_else(|| {
            (self.steps.iter()).find_map(|step| step.result.as_ref().err().map(|f| f.class))
        })
    }
}

impl AsRef<[Step]> for Edited {
    fn as_ref(&self) -> &[Step] {
        &self.steps
    }
}

/// The requests of a change of the filter of `handle` by the keys that change it, before any
/// answer: for each key its sign-key handle, the edit and the handle given back. What
/// `--dry-run` and `--curl` print after the read ([`read_plan`]), and before the save
/// ([`save_plan`]); what [`edit`] runs.
pub fn edit_plan(handle: Handle, edit: Edit, keys: &[SignKey]) -> Vec<Request<Slot>> {
    let on = Slot::Is(handle);
    let mut plan = Vec::with_capacity(keys.len() * 3);
    for key in keys {
        plan.extend([
            Request::SignKeyOf(*key),
            Request::FilterEdit {
                operation: edit.operation(),
                handle: on,
                key: KEY,
            },
            HandleKind::SignKey.free(KEY),
        ]);
    }
    plan
}

/// The save after a change, and its read back: sent only when a key changed the filter.
pub fn save_plan(handle: Handle, save: Option<Operation>) -> Vec<Request<Slot>> {
    let on = Slot::Is(handle);
    (save.into_iter())
        .flat_map(|save| with_read_back(Request::OnHandle(save, on)))
        .collect()
}

/// The read before a change, as a dry run can list it: the handle's metadata (each key of the
/// filter is then read through a sign-key handle of its own, as many as it holds).
pub fn read_plan(handle: Handle) -> Vec<Request<Slot>> {
    vec![Request::OnHandle(Operation::Metadata, Slot::Is(handle))]
}

/// Reads the filter of `handle`: its metadata and each key (through a sign-key handle given
/// back at once), as `show` reads them.
pub async fn read(sending: Sending<'_>, handle: Handle) -> Shown {
    show::handle(sending, handle, FILTER_ONLY, |_, _| {}).await
}

/// The steps of a read, in order: the metadata's, then each key's (kept only with
/// `--verbose`).
fn read_steps(shown: &mut Shown) -> Vec<Step> {
    let mut steps = std::mem::take(&mut shown.steps);
    for key in &mut shown.filter {
        steps.append(&mut key.steps);
    }
    steps
}

/// `filter add` or `filter remove` of `given` on `handle`: the filter read, each key made
/// known (a fingerprint among the filter's keys, a signer read), the keys that change the
/// filter sent one by one ([`edit_plan`]), and when one was, the save asked for
/// ([`save_plan`]). Every handle taken is given back, whatever came of it.
pub async fn edit(
    sending: Sending<'_>,
    handle: Handle,
    edit: Edit,
    given: &[KeyGiven],
    save: Option<Operation>,
) -> Edited {
    let mut read = read(sending, handle).await;
    let steps = read_steps(&mut read);
    let mut edited = Edited {
        edit,
        handle,
        before: None,
        keys: (given.iter())
            .map(|given| KeyDone {
                given: given.clone(),
                key: None,
                fate: Fate::NotRead,
                landed: false,
            })
            .collect(),
        steps,
        failure: None,
    };
    // A failed read of the metadata is its step's (said with it); a key's step is kept only
    // with `--verbose`, so its failure is said as the edit's.
    if let Some(failure) = read.filter.iter().find_map(|key| key.failures.first()) {
        edited.failure = Some(failure.clone());
        return edited;
    }
    let Ok(metadata) = read.metadata else {
        return edited;
    };
    let before = Before {
        metadata,
        keys: (read.filter.into_iter())
            .filter_map(|key| key.key)
            .collect(),
    };
    // Each key given, made known: its bytes, or those of the filter's key or signer it names.
    for at in 0..edited.keys.len() {
        if sending.stop.is_set() {
            return with_before(edited, before);
        }
        let key = match &edited.keys[at].given {
            KeyGiven::Key(key) => *key,
            KeyGiven::Fingerprint(fingerprint) => {
                let found =
                    (before.keys.iter()).find(|key| serialised::fingerprint(key) == *fingerprint);
                let Some(found) = found else {
                    edited.keys[at].fate = Fate::NoSuchFingerprint;
                    continue;
                };
                match decoded(found, "the filter's key") {
                    Ok(key) => key,
                    Err(failure) => {
                        edited.failure = Some(failure);
                        return with_before(edited, before);
                    }
                }
            }
            KeyGiven::SignerOf(index) => {
                let (signer, mut steps) = show::signer_of(sending, handle, *index).await;
                edited.steps.append(&mut steps);
                // A failed read is its step's (said with it); bytes that are no key are not.
                let Ok(bytes) = signer else {
                    return with_before(edited, before);
                };
                match decoded(&bytes, "the signer's key") {
                    Ok(key) => key,
                    Err(failure) => {
                        edited.failure = Some(failure);
                        return with_before(edited, before);
                    }
                }
            }
        };
        let earlier = edited.keys[..at].iter().any(|done| done.key == Some(key));
        let present = before.keys.contains(&key.serialised());
        edited.keys[at].key = Some(key);
        edited.keys[at].fate = match (earlier, edit, present) {
            (true, _, _) => Fate::Twice,
            (false, Edit::Add, false) | (false, Edit::Remove, true) => Fate::Changes,
            (false, _, _) => Fate::AsItIs,
        };
    }
    let changing: Vec<SignKey> = (edited.keys.iter())
        .filter(|done| done.fate == Fate::Changes)
        .filter_map(|done| done.key)
        .collect();
    if !changing.is_empty() {
        let mut steps = Steps::new(sending);
        let mut plan = edit_plan(handle, edit, &changing);
        plan.extend(save_plan(handle, save));
        interpret(&mut steps, &plan).await;
        let mut steps = steps.finish().await;
        // The edits answered `OK`, in the order of the keys that change the filter.
        let mut landed = (steps.iter())
            .filter(|step| matches!(step.request, Request::FilterEdit { .. }))
            .map(|step| step.result.is_ok());
        for done in edited.keys.iter_mut() {
            if done.fate == Fate::Changes {
                done.landed = landed.next().unwrap_or(false);
            }
        }
        edited.steps.append(&mut steps);
    }
    with_before(edited, before)
}

fn with_before(mut edited: Edited, before: Before) -> Edited {
    edited.before = Some(before);
    edited
}

/// A key from the launcher's serialised bytes of it (`what` it is, for the failure).
fn decoded(bytes: &[u8], what: &str) -> Result<SignKey, Failure> {
    SignKey::decode(bytes).map_err(|error| {
        Failure::new(
            Class::Unexpected,
            format!("{what} is not in launcher 0.11.0's layout of a sign key ({error}); nothing was changed"),
        )
    })
}

/// What a `filter type` did to one handle.
#[derive(Debug)]
pub struct Typed {
    pub handle: Handle,
    /// The type asked for.
    pub wanted: FilterType,
    /// The metadata read before, when it could be.
    pub before: Option<Metadata>,
    /// The toggle was sent and answered `OK`.
    pub toggled: bool,
    pub steps: Vec<Step>,
}

impl Typed {
    /// Whether the filter was of the type asked for already (nothing sent after the read).
    pub fn as_it_was(&self) -> bool {
        self.before
            .as_ref()
            .is_some_and(|before| before.filter_type == self.wanted)
    }
}

impl AsRef<[Step]> for Typed {
    fn as_ref(&self) -> &[Step] {
        &self.steps
    }
}

/// The requests of `filter type` before any answer: the metadata that says the type, the
/// toggle (sent only when the type differs), the save and its read back.
pub fn type_plan(handle: Handle, save: Option<Operation>) -> Vec<Request<Slot>> {
    let on = Slot::Is(handle);
    let mut plan = read_plan(handle);
    plan.push(Request::OnHandle(Operation::ToggleFilter, on));
    plan.extend(save_plan(handle, save));
    plan
}

/// `filter type`: the type read; when it is not `wanted`, the toggle (the launcher only
/// switches it, and leaves the list empty) and the save asked for ([`type_plan`]).
pub async fn set_type(
    sending: Sending<'_>,
    handle: Handle,
    wanted: FilterType,
    save: Option<Operation>,
) -> Typed {
    let mut steps = Steps::new(sending);
    let plan = type_plan(handle, save);
    let before = match steps
        .ask(Request::OnHandle(Operation::Metadata, handle))
        .await
    {
        Ok(Reply::Metadata(metadata)) => Some(metadata),
        _ => None,
    };
    let differs = before
        .as_ref()
        .is_some_and(|before| before.filter_type != wanted);
    if differs {
        interpret(&mut steps, &plan[1..]).await;
    }
    let steps = steps.finish().await;
    let toggled = steps.iter().any(|step| {
        matches!(step.request, Request::OnHandle(Operation::ToggleFilter, _)) && step.result.is_ok()
    });
    Typed {
        handle,
        wanted,
        before,
        toggled,
        steps,
    }
}
