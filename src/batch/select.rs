//! Choosing the items of one list of a handle before `remove`, `restore` or `purge` changes any:
//! by position (each checked against the list's length) or by what they are (`--signed-by`,
//! `--kind`, `--data-id`, `--name`), resolved to positions from one read of the handle.
//!
//! The read goes through `show`'s machinery (leases given back as there), asking only what the
//! choice needs: the data ids' bytes say kind and name without fetching the data, signers are
//! read only for `--signed-by`. An item that cannot be read might match, so a read with a failed
//! item chooses nothing and the change is refused whole. Nothing here renders.

use super::interpret::interpret;
use super::show::{self as read, IndexRange, Parts, Section, ShowOptions, ShownItem};
use super::{AtIndexesPlan, Sending, Steps};
use crate::handle::Handle;
use crate::launcher::{serialised, Operation, Request};
use crate::name::Name;
use crate::outcome::{Class, Failure, Reply};
use crate::wire::DataKind;

/// `--signed-by`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignedBy {
    /// A fingerprint as `show` gives it (16 hex digits, lower case).
    Key(String),
    You,
    Others,
}

/// What the items to change must be; every selector given must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selector {
    pub signed_by: Option<SignedBy>,
    pub kind: Option<DataKind>,
    /// The launcher's serialised bytes of the data ids given (every reading of each: text that
    /// is both hex and base64 stands for either); an item matches when it has any of them.
    pub data_ids: Vec<Vec<u8>>,
    /// The names given; an item matches when it points at any of them.
    pub names: Vec<Name>,
}

impl Selector {
    /// Whether any selector was given (else the positions alone choose).
    pub fn is_given(&self) -> bool {
        self.signed_by.is_some()
            || self.kind.is_some()
            || !self.data_ids.is_empty()
            || !self.names.is_empty()
    }

    /// Whether `item` is one of those chosen; `you`: the user's own key, serialised.
    pub fn matches(&self, item: &ShownItem, you: Option<&[u8]>) -> bool {
        let pointer = item.pointer.as_ref().and_then(|p| p.as_ref().ok());
        let signed = match &self.signed_by {
            None => true,
            Some(SignedBy::Key(fingerprint)) => item
                .signer
                .as_deref()
                .is_some_and(|key| serialised::fingerprint(key) == *fingerprint),
            Some(SignedBy::You) => item.signer.is_some() && item.signer.as_deref() == you,
            Some(SignedBy::Others) => item.signer.is_some() && item.signer.as_deref() != you,
        };
        let kind = match self.kind {
            None => true,
            Some(kind) => match pointer {
                Some(pointer) => pointer.kind == kind,
                // Bytes in another layout: the launcher's word, where it tells the kind apart.
                None => matches!(
                    (&item.kind, kind),
                    (Some(read::Kind::Structured { .. }), DataKind::Structured)
                        | (Some(read::Kind::Immutable { .. }), DataKind::Immutable)
                ),
            },
        };
        let data_id = self.data_ids.is_empty()
            || item
                .data_id
                .as_ref()
                .is_some_and(|bytes| self.data_ids.contains(bytes));
        let name = self.names.is_empty()
            || pointer.is_some_and(|pointer| self.names.contains(&pointer.name));
        signed && kind && data_id && name
    }

    fn parts(&self, section: Section, signers: bool) -> Parts {
        Parts {
            filter: false,
            data: section == Section::Data,
            deleted: section == Section::Deleted,
            content: false,
            signers: signers || self.signed_by.is_some(),
        }
    }
}

/// The list of a handle an operation changes.
pub fn section_of(operation: Operation) -> Section {
    match operation {
        Operation::Remove => Section::Data,
        _ => Section::Deleted,
    }
}

/// What the read chose.
#[derive(Debug, Default)]
pub struct Chosen {
    /// The items chosen, as read, in index order.
    pub items: Vec<ShownItem>,
    /// The user's own key, serialised, where the choice read it (`--signed-by you|others`): a
    /// signer that is this key is written `you`, as `show` writes it.
    pub you: Option<Vec<u8>>,
    /// The copy holds no data items at a version a save made: what a post leaves in the
    /// launcher's copy, whatever the network holds.
    pub emptied_by_post: bool,
}

/// Runs the read an [`AtIndexesPlan`] lists first (one metadata request) and checks the plan's
/// indexes against the length of its operation's list, so that a bad index refuses the whole
/// change before any of it is made. The read is among the steps (`copy_at_save` reads it there).
pub async fn check_indexes(
    sending: Sending<'_>,
    plan: &AtIndexesPlan,
) -> (Result<(), Failure>, Vec<super::Step>) {
    let mut steps = Steps::new(sending);
    interpret(&mut steps, plan.check()).await;
    let steps = steps.finish().await;
    let read = steps.iter().find_map(|step| match step.request {
        Request::OnHandle(Operation::Metadata, read) if read == plan.handle => Some(&step.result),
        _ => None,
    });
    let result = match read {
        Some(Ok(Reply::Metadata(metadata))) => {
            let length = match section_of(plan.operation) {
                Section::Data => metadata.data_length,
                Section::Deleted => metadata.deleted_data_length,
            };
            in_range(plan.handle, plan.operation, &plan.indexes, length)
        }
        Some(Ok(_)) => Err(Failure::new(
            Class::Unexpected,
            "the answer is not metadata",
        )),
        Some(Err(failure)) => Err(failure.clone()),
        None => Err(Failure::new(
            Class::Unexpected,
            "the plan lists no read that checks the indexes",
        )),
    };
    (result, steps)
}

/// Every index within a list of `length` items, or the failure that names those that are not.
fn in_range(
    handle: Handle,
    operation: Operation,
    indexes: &[u64],
    length: u64,
) -> Result<(), Failure> {
    let past: Vec<String> = indexes
        .iter()
        .filter(|index| **index >= length)
        .map(u64::to_string)
        .collect();
    if past.is_empty() {
        return Ok(());
    }
    let list = match section_of(operation) {
        Section::Data => "data item",
        Section::Deleted => "deleted item",
    };
    let holds = match length {
        0 => format!("no {list}s"),
        1 => format!("1 {list}, at index 0"),
        n => format!("{n} {list}s, at indexes 0 to {}", n - 1),
    };
    let (noun, them) = if past.len() == 1 {
        ("index", "it")
    } else {
        ("indexes", "them")
    };
    Err(Failure::new(
        Class::Rejected,
        format!(
            "{} {handle}: no item at {noun} {} (handle {handle} has {holds}); nothing was changed",
            operation.name(),
            past.join(", ")
        ),
    )
    .with_hint(format!(
        "see the items and their indexes with `safe-ad show {handle}`, and give {them} again; indexes move when items are removed or restored"
    )))
}

/// Reads `operation`'s list of `handle` once (only what `selector` needs, and the signers when
/// `signers`) and chooses the items that match, among `among` when positions were given too.
pub async fn choose(
    sending: Sending<'_>,
    handle: Handle,
    operation: Operation,
    selector: &Selector,
    among: &[u64],
    signers: bool,
) -> (Result<Chosen, Failure>, Vec<super::Step>) {
    let section = section_of(operation);
    let mut steps = Vec::new();
    let you = match selector.signed_by {
        // Read for a fingerprint too: a signer that is your key is written `you`, as `show` does.
        Some(_) => {
            let (you, you_steps) = read::user_key(sending).await;
            steps.extend(you_steps);
            match you {
                Ok(you) => Some(you),
                Err(failure) => return (Err(failure), steps),
            }
        }
        _ => None,
    };
    let options = ShowOptions {
        range: IndexRange::ALL,
        full: false,
        parts: selector.parts(section, signers),
    };
    let shown = read::handle(sending, handle, options, |_, _| {}).await;
    steps.extend(shown.steps);
    let metadata = match shown.metadata {
        Ok(metadata) => metadata,
        Err(failure) => return (Err(failure), steps),
    };
    let mut items = match section {
        Section::Data => shown.data,
        Section::Deleted => shown.deleted,
    };
    let length = match section {
        Section::Data => metadata.data_length,
        Section::Deleted => metadata.deleted_data_length,
    };
    for item in &mut items {
        steps.append(&mut item.steps);
    }
    if let Err(failure) = in_range(handle, operation, among, length) {
        return (Err(failure), steps);
    }
    if let Some((item, failure)) = items
        .iter()
        .find_map(|item| item.failures.first().map(|failure| (item, failure)))
    {
        let refused = failure.refusing(format_args!(
            "{} {handle}: item {} could not be read, so whether it matches is not known; nothing was changed",
            operation.name(),
            item.index,
        ));
        return (Err(refused), steps);
    }
    let chosen = items
        .into_iter()
        .filter(|item| among.is_empty() || among.contains(&item.index))
        .filter(|item| selector.matches(item, you.as_deref()))
        .collect();
    let emptied_by_post = metadata.data_length == 0 && metadata.version >= 1;
    (
        Ok(Chosen {
            items: chosen,
            you,
            emptied_by_post,
        }),
        steps,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexes_past_the_end_are_named_with_what_the_list_holds() {
        assert!(in_range(Handle(7), Operation::Remove, &[0, 4], 5).is_ok());
        let failure = in_range(Handle(207), Operation::Remove, &[0, 7], 5).unwrap_err();
        assert_eq!(failure.class, Class::Rejected);
        assert_eq!(
            failure.message,
            "remove 207: no item at index 7 (handle 207 has 5 data items, at indexes 0 to 4); nothing was changed"
        );
        let failure = in_range(Handle(1), Operation::Purge, &[3, 2], 0).unwrap_err();
        assert!(failure
            .message
            .contains("no item at indexes 3, 2 (handle 1 has no deleted items)"));
    }
}
