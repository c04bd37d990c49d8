//! `wait`: one poll of an appendable data ([`poll`]), and whether a condition holds on what it
//! read ([`Condition::holds`]). A poll reads the network's data: through a fresh handle behind a
//! handle's copy (the copy read too, as `status` reads both), or through a fresh copy of the data
//! a name names. Every handle it takes is a lease, given back before the poll ends, Ctrl-C
//! included, so polls leave the launcher's handle count where it was. Nothing here prints or
//! sleeps: `commands::polling` drives the polls of `wait` and `watch`, and `report` says them.

use std::collections::HashSet;

use super::select::Selector;
use super::show::{self, Parts, ShowOptions, Shown, ShownItem};
use super::status::{self, Network};
use super::{copy, Sending, Step, Steps};
use crate::handle::Handle;
use crate::launcher::{Metadata, Operation, Request};
use crate::name::Name;
use crate::outcome::{Class, Failure, Reply};

/// The launcher's "unknown handle": a copy it evicted (it keeps 100 of a kind) between the
/// fetch and the read.
const UNKNOWN_HANDLE: i64 = -1515;

/// The launcher's error for data not on the network (`NoSuchData`): a name's fetch before its
/// first save.
const NO_SUCH_DATA: i64 = -18;

/// What a poll reads: what a poll needs of the items is which they are (data ids, signers),
/// never what they point at.
const READ: ShowOptions = ShowOptions {
    range: show::IndexRange::ALL,
    full: false,
    parts: Parts {
        filter: true,
        data: true,
        deleted: true,
        content: false,
        signers: true,
    },
};

/// What is polled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Watched {
    /// A handle's copy, and the network's data behind it.
    Handle(Handle),
    /// The network's data a name names, through a fresh copy each poll.
    Name(Name),
}

/// What `wait --for` waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// More data items on the network than at the first poll.
    NewItems,
    /// A data item on the network that the selector matches.
    Item(Selector),
    /// The network's version above this.
    VersionAbove(u64),
    /// The network at a later version than the handle's copy.
    Stale,
    /// The handle's copy shows what the network holds (`status`'s in sync).
    InSync,
}

impl Condition {
    /// Whether it compares a handle's copy with the network (a name's fresh copy always
    /// matches it).
    pub fn needs_copy(&self) -> bool {
        matches!(self, Condition::Stale | Condition::InSync)
    }

    /// What of a handle's copy a poll reads for it.
    pub fn compare(&self) -> Compare {
        match self {
            Condition::Stale => Compare::Version,
            Condition::InSync => Compare::Whole,
            _ => Compare::Not,
        }
    }
}

/// What of a handle's copy a poll reads beside the network's data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// Nothing.
    Not,
    /// Its metadata: whether it is stale (one request).
    Version,
    /// All of it, compared item by item as `status` compares it: whether it is in sync.
    Whole,
}

/// What one poll read.
#[derive(Debug)]
pub struct Polled {
    /// The network's data (metadata, filter, data and deleted items, which they are and who
    /// signed them); `None`: no data of this name is on the network (a copy never saved).
    pub network: Option<Shown>,
    /// The handle's copy's metadata (a handle polled; `None` for a name).
    pub copy: Option<Metadata>,
    pub stale: bool,
    pub in_sync: bool,
}

/// What a poll came to, and every request it sent (for `--verbose`).
#[derive(Debug)]
pub struct Poll {
    pub read: Result<Polled, Failure>,
    pub steps: Vec<Step>,
    /// How many copies the launcher evicted before they were read, each taken again.
    pub retaken: u32,
}

/// What the first poll saw, which `new-items` counts from.
#[derive(Debug, Default)]
pub struct Start {
    pub data_length: u64,
    pub version: Option<u64>,
    items: HashSet<Identity>,
}

/// An item as the network's set of items knows it: its data id and its signer, as bytes.
type Identity = (Option<Vec<u8>>, Option<Vec<u8>>);

impl Start {
    pub fn of(polled: &Polled) -> Start {
        let Some(network) = &polled.network else {
            return Start::default();
        };
        Start {
            data_length: network.data.len() as u64,
            version: network.metadata.as_ref().ok().map(|m| m.version),
            items: network.data.iter().map(identity).collect(),
        }
    }
}

/// An item's [`Identity`].
fn identity(item: &ShownItem) -> Identity {
    (item.data_id.clone(), item.signer.clone())
}

impl Polled {
    /// The network's version, when its data is there.
    pub fn version(&self) -> Option<u64> {
        let network = self.network.as_ref()?;
        network.metadata.as_ref().ok().map(|m| m.version)
    }

    /// The network's data items.
    pub fn data(&self) -> &[ShownItem] {
        self.network.as_ref().map_or(&[], |shown| &shown.data)
    }
}

impl Condition {
    /// Whether the condition holds on `polled`: the indexes (in the network's data items) of
    /// the items that made it hold (none for a version or a comparison), or `None`.
    /// Whether it can never hold, whatever later polls see: `in-sync` on a stale copy (a copy
    /// comes back in sync with no save; only a fresh one is in sync).
    pub fn can_never_hold(&self, polled: &Polled) -> bool {
        matches!(self, Condition::InSync) && polled.stale
    }

    pub fn holds(&self, polled: &Polled, start: &Start, you: Option<&[u8]>) -> Option<Vec<u64>> {
        let data = polled.data();
        let indexes = |keep: &dyn Fn(&ShownItem) -> bool| -> Vec<u64> {
            data.iter()
                .filter(|item| keep(item))
                .map(|item| item.index)
                .collect()
        };
        match self {
            Condition::NewItems => (data.len() as u64 > start.data_length)
                .then(|| indexes(&|item| !start.items.contains(&identity(item)))),
            Condition::Item(selector) => {
                let matched = indexes(&|item| selector.matches(item, you));
                (!matched.is_empty()).then_some(matched)
            }
            Condition::VersionAbove(above) => polled
                .version()
                .is_some_and(|version| version > *above)
                .then(Vec::new),
            Condition::Stale => polled.stale.then(Vec::new),
            Condition::InSync => polled.in_sync.then(Vec::new),
        }
    }
}

/// One poll of `watched`: the network's data read, and every handle taken for it given back.
/// A handle's copy is read too only to `compare` it with the network (stale, in sync).
pub async fn poll(sending: Sending<'_>, watched: Watched, compare: Compare) -> Poll {
    match (watched, compare) {
        (Watched::Handle(handle), Compare::Whole) => poll_handle(sending, handle).await,
        (Watched::Handle(handle), Compare::Version) => {
            let mut poll = poll_network(sending, handle).await;
            let mut steps = Steps::new(sending);
            let asked = steps
                .ask(Request::OnHandle(Operation::Metadata, handle))
                .await;
            poll.steps.append(&mut steps.finish().await);
            poll.read = match (poll.read, asked) {
                (Ok(mut polled), Ok(Reply::Metadata(copy))) => {
                    polled.stale = polled.version().is_some_and(|v| v > copy.version);
                    polled.copy = Some(copy);
                    Ok(polled)
                }
                (Ok(_), Ok(_)) => Err(Failure::new(
                    Class::Unexpected,
                    "the answer to a metadata request is not metadata",
                )),
                (Ok(_), Err(failure)) | (Err(failure), _) => Err(failure),
            };
            poll
        }
        (Watched::Handle(handle), Compare::Not) => poll_network(sending, handle).await,
        (Watched::Name(name), _) => poll_name(sending, name).await,
    }
}

/// The network's data behind a handle's copy, read through a fresh handle (its serialised
/// bytes: a few requests, whatever the number of items), the copy left unread.
async fn poll_network(sending: Sending<'_>, handle: Handle) -> Poll {
    let (network, mut steps) = status::network(sending, handle, READ, |_, _, _| {}).await;
    let release = first_failure(&steps);
    let read = match network {
        Network::Read(mut shown) => {
            take_steps(&mut shown, &mut steps);
            let failed = shown.failures().next().cloned();
            match failed.or(release) {
                Some(failure) => Err(failure),
                None => Ok(Polled {
                    network: Some(shown),
                    copy: None,
                    stale: false,
                    in_sync: false,
                }),
            }
        }
        Network::NeverSaved => match release {
            Some(failure) => Err(failure),
            None => Ok(Polled {
                network: None,
                copy: None,
                stale: false,
                in_sync: false,
            }),
        },
        Network::Failed(failure) => Err(failure),
        Network::NotAsked => Err(Failure::new(Class::Interrupted, "interrupted")),
    };
    Poll {
        read,
        steps,
        retaken: 0,
    }
}

/// A handle's copy and the network's data behind it, read as `status` reads them.
async fn poll_handle(sending: Sending<'_>, handle: Handle) -> Poll {
    let mut compared = status::handle(sending, handle, READ, |_, _, _| {}).await;
    let mut steps = Vec::new();
    let verdict = compared
        .verdict()
        .map(|verdict| (verdict.stale, verdict.in_sync()));
    take_steps(&mut compared.copy, &mut steps);
    if let Network::Read(shown) = &mut compared.network {
        take_steps(shown, &mut steps);
    }
    steps.append(&mut compared.steps);
    let read = verdict.map(|(stale, in_sync)| Polled {
        copy: compared.copy.metadata.ok(),
        network: match compared.network {
            Network::Read(shown) => Some(shown),
            _ => None,
        },
        stale,
        in_sync,
    });
    Poll {
        read,
        steps,
        retaken: 0,
    }
}

/// The network's data a name names, through a fresh copy taken and given back; a copy the
/// launcher evicted before it was read is taken again (at most twice more).
async fn poll_name(sending: Sending<'_>, name: Name) -> Poll {
    let mut all = Vec::new();
    let mut retaken = 0;
    loop {
        let (taken, mut steps) = copy::take(sending, name).await;
        all.append(&mut steps);
        let Some(copy) = taken.copy else {
            all.append(&mut taken.give_back().await);
            let failure = first_failure(&all)
                .unwrap_or_else(|| Failure::new(Class::Interrupted, "interrupted"));
            // No data of this name on the network yet (NoSuchData): what a wait for another
            // job's first save waits through, as a handle's copy never saved is polled on.
            let not_yet =
                failure.answer.as_ref().and_then(|answer| answer.error_code) == Some(NO_SUCH_DATA);
            let read = match not_yet {
                true => Ok(Polled {
                    network: None,
                    copy: None,
                    stale: false,
                    in_sync: true,
                }),
                false => Err(failure),
            };
            return Poll {
                read,
                steps: all,
                retaken,
            };
        };
        let mut shown = status::read_network(sending, copy.handle, READ, |_, _| {}).await;
        let evicted = shown
            .metadata
            .as_ref()
            .err()
            .and_then(|failure| failure.answer.as_ref()?.error_code)
            == Some(UNKNOWN_HANDLE);
        take_steps(&mut shown, &mut all);
        let mut given_back = taken.give_back().await;
        let release = first_failure(&given_back);
        all.append(&mut given_back);
        if evicted && retaken < 2 && !sending.stop.is_set() {
            retaken += 1;
            continue;
        }
        let failed = shown.failures().next().cloned().or(release);
        let read = match failed {
            Some(failure) => Err(failure),
            None => Ok(Polled {
                network: Some(shown),
                copy: None,
                stale: false,
                in_sync: true,
            }),
        };
        return Poll {
            read,
            steps: all,
            retaken,
        };
    }
}

/// What changed on the network between two polls (`watch`), in this order: items appended,
/// removed (data to deleted), restored (deleted to data), purged (gone from both lists), the
/// version, and a handle's copy that became stale. Items are known by their data id and
/// signer, as the network's set of items knows them; but an item that left the deleted list
/// while data of the same data id signed by another key came in is one restore, re-signed
/// (what `restore --re-sign` does: the save takes it off the deleted list, and the append after
/// it is signed by the restorer's key), not a purge and an append.
#[derive(Debug)]
pub enum Change<'a> {
    Appended(&'a ShownItem),
    Removed(&'a ShownItem),
    /// The item as data now; `re_signed`: as the earlier poll held it in its deleted list,
    /// signed by another key, when it came back re-signed.
    Restored {
        item: &'a ShownItem,
        re_signed: Option<&'a ShownItem>,
    },
    /// As the earlier poll read it.
    Purged(&'a ShownItem),
    Version {
        from: Option<u64>,
        to: Option<u64>,
    },
    Stale {
        copy: u64,
        network: u64,
    },
}

/// The changes from `before` to `after` ([`Change`]).
pub fn changes<'a>(before: &'a Polled, after: &'a Polled) -> Vec<Change<'a>> {
    let set = |polled: &Polled, deleted: bool| -> HashSet<Identity> {
        let shown = polled.network.as_ref();
        let list = shown.map_or(&[][..], |shown| match deleted {
            true => &shown.deleted[..],
            false => &shown.data[..],
        });
        list.iter().map(identity).collect()
    };
    let deleted = |polled: &'a Polled| -> &'a [ShownItem] {
        polled.network.as_ref().map_or(&[], |shown| &shown.deleted)
    };
    let (old_data, old_deleted) = (set(before, false), set(before, true));
    let (new_data, new_deleted) = (set(after, false), set(after, true));
    let gone = |item: &ShownItem| {
        let id = identity(item);
        !new_data.contains(&id) && !new_deleted.contains(&id)
    };
    // The deleted items gone from both lists, each of which a new data item of the same data
    // id (signed by another key) may stand for, once.
    let mut left_deleted: Vec<&ShownItem> = deleted(before).iter().filter(|i| gone(i)).collect();
    let mut changes = Vec::new();
    for item in after.data() {
        let id = identity(item);
        if old_data.contains(&id) {
            continue;
        }
        if old_deleted.contains(&id) {
            changes.push(Change::Restored {
                item,
                re_signed: None,
            });
            continue;
        }
        let same_data = (left_deleted.iter())
            .position(|old| old.data_id.is_some() && old.data_id == item.data_id);
        changes.push(match same_data {
            Some(at) => Change::Restored {
                item,
                re_signed: Some(left_deleted.remove(at)),
            },
            None => Change::Appended(item),
        });
    }
    for item in deleted(after) {
        if !old_deleted.contains(&identity(item)) {
            changes.push(Change::Removed(item));
        }
    }
    let re_signed: Vec<&ShownItem> = (changes.iter())
        .filter_map(|change| match change {
            Change::Restored { re_signed, .. } => *re_signed,
            _ => None,
        })
        .collect();
    for item in before.data().iter().chain(deleted(before)) {
        if gone(item) && !re_signed.iter().any(|old| std::ptr::eq(*old, item)) {
            changes.push(Change::Purged(item));
        }
    }
    if before.version() != after.version() {
        changes.push(Change::Version {
            from: before.version(),
            to: after.version(),
        });
    }
    if let (false, true, Some(copy), Some(network)) =
        (before.stale, after.stale, &after.copy, after.version())
    {
        changes.push(Change::Stale {
            copy: copy.version,
            network,
        });
    }
    changes
}

/// Moves the requests of a reading (the handle's, its keys', its items') into `steps`.
fn take_steps(shown: &mut Shown, steps: &mut Vec<Step>) {
    steps.append(&mut shown.steps);
    for key in &mut shown.filter {
        steps.append(&mut key.steps);
    }
    for item in shown.data.iter_mut().chain(shown.deleted.iter_mut()) {
        steps.append(&mut item.steps);
    }
}

fn first_failure(steps: &[Step]) -> Option<Failure> {
    steps
        .iter()
        .find_map(|step| step.result.as_ref().err().cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The network at `version` with these data and deleted items (by data id).
    fn polled(version: u64, data: &[u8], deleted: &[u8]) -> Polled {
        Polled {
            network: Some(Shown::sample(version, data, deleted, 9)),
            copy: None,
            stale: false,
            in_sync: false,
        }
    }

    fn named(changes: &[Change<'_>]) -> Vec<String> {
        changes
            .iter()
            .map(|change| match change {
                Change::Appended(item) => format!("appended {:?}", item.data_id),
                Change::Removed(item) => format!("removed {:?}", item.data_id),
                Change::Restored {
                    item,
                    re_signed: None,
                } => format!("restored {:?}", item.data_id),
                Change::Restored {
                    item,
                    re_signed: Some(old),
                } => format!(
                    "restored {:?} re-signed from {:?}",
                    item.data_id, old.signer
                ),
                Change::Purged(item) => format!("purged {:?}", item.data_id),
                Change::Version { from, to } => format!("version {from:?} {to:?}"),
                Change::Stale { copy, network } => format!("stale {copy} {network}"),
            })
            .collect()
    }

    #[test]
    fn each_move_between_the_lists_is_its_own_change() {
        let before = polled(1, &[1, 2, 3], &[4, 5]);
        // 1 stays; 2 removed; 3 purged from data; 4 restored; 5 purged from deleted; 6 new.
        let after = polled(2, &[1, 4, 6], &[2]);
        assert_eq!(
            named(&changes(&before, &after)),
            [
                "restored Some([4])",
                "appended Some([6])",
                "removed Some([2])",
                "purged Some([3])",
                "purged Some([5])",
                "version Some(1) Some(2)",
            ]
        );
        // Nothing changed: nothing said.
        assert!(changes(&after, &polled(2, &[1, 4, 6], &[2])).is_empty());
    }

    #[test]
    fn an_item_that_left_the_deleted_list_and_came_back_signed_by_another_key_is_one_restore() {
        // Another key's save and appends: 4 left the deleted list and is data again signed by
        // that key (a restore that re-signed it); 5 left it and is gone; 6 is new.
        let before = polled(1, &[1], &[4, 5]);
        let mut after = polled(2, &[1, 4, 6], &[]);
        let network = after.network.as_mut().expect("a network");
        network.data[1].signer = Some(vec![7]);
        network.data[2].signer = Some(vec![7]);
        assert_eq!(
            named(&changes(&before, &after)),
            [
                "restored Some([4]) re-signed from Some([9])",
                "appended Some([6])",
                "purged Some([5])",
                "version Some(1) Some(2)",
            ]
        );
        // The deleted item still in the deleted list: the same data id signed by another key
        // is an append of its own.
        let before = polled(1, &[1], &[4]);
        let mut after = polled(1, &[1, 4], &[4]);
        after.network.as_mut().expect("a network").data[1].signer = Some(vec![7]);
        assert_eq!(named(&changes(&before, &after)), ["appended Some([4])"]);
    }

    #[test]
    fn a_copy_that_becomes_stale_is_said_once() {
        let copy = |polled: &mut Polled, stale: bool| {
            polled.copy = polled
                .network
                .as_ref()
                .and_then(|n| n.metadata.clone().ok());
            if let Some(copy) = &mut polled.copy {
                copy.version = 1;
            }
            polled.stale = stale;
        };
        let mut before = polled(1, &[1], &[]);
        copy(&mut before, false);
        let mut after = polled(2, &[1], &[]);
        copy(&mut after, true);
        assert_eq!(
            named(&changes(&before, &after)),
            ["version Some(1) Some(2)", "stale 1 2"]
        );
        let mut later = polled(2, &[1], &[]);
        copy(&mut later, true);
        assert!(changes(&after, &later).is_empty());
    }

    #[test]
    fn new_items_count_from_the_first_poll_and_name_only_the_new_ones() {
        let first = polled(1, &[1, 2], &[]);
        let start = Start::of(&first);
        assert_eq!(Condition::NewItems.holds(&first, &start, None), None);
        // One removed and one appended: as many as at the start, so not yet.
        assert_eq!(
            Condition::NewItems.holds(&polled(2, &[1, 3], &[2]), &start, None),
            None
        );
        let more = polled(2, &[1, 2, 3], &[]);
        assert_eq!(
            Condition::NewItems.holds(&more, &start, None),
            Some(vec![2])
        );
        assert_eq!(
            Condition::VersionAbove(1).holds(&more, &start, None),
            Some(vec![])
        );
        assert_eq!(Condition::VersionAbove(2).holds(&more, &start, None), None);
    }
}
