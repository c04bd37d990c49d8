//! `status`: a handle's copy against the network, both read at once ([`network`]). The copy is
//! read as `show` reads it; the network's data is fetched into a fresh handle the way `reopen`
//! does (the handle's data id, the fetch through it), read through its serialised bytes (its
//! items' data ids and signers are all a comparison needs; [`read_network`]), and given back: the
//! data id as soon as the fetch answered, the fresh handle once it is read. Both are [`Lease`](super::steps::Lease)s, so they
//! go back on every path, Ctrl-C included.
//!
//! The two readings are then compared item by item. An item is the same item in both when its
//! data id and its signer are the same bytes (the network's items are a set of exactly that:
//! what they point at and who signed them). Nothing here renders: `report` says a [`Compared`].
//!
//! What a difference means follows from how the network changes (routing's `update_with_other`):
//! `saving::STATUS_CASES` is the table, by where the copy and the network hold an item, against
//! the same version and against a later one; [`differ`] sorts items by it.
//!
//! A copy a post emptied ([`Differences::emptied`]): at a version a save made (1 or more), it
//! holds none of the network's data items, while the network holds some. It may hold items it
//! restored since (from the deleted list the post left it), and its deleted list may differ by
//! its own restores and purges. A copy taken by a fetch, whose every data item was removed and
//! purged since, looks the same; the words for such items ("left out by the post, or appended
//! since") then name the effect right (a save keeps them as data), not the history.

use std::collections::HashSet;

use super::show::{self, ShowOptions, Shown, ShownItem};
use super::{Sending, Step, Steps};
use crate::handle::Handle;
use crate::launcher::{FilterType, Metadata, Operation, Request};
use crate::outcome::{Class, Failure, Reply};
use crate::wire::{AppendableData, Entry};

/// The launcher's "no such data" on a fetch: the data was never saved (`-18`, and `-22` as
/// some launchers answer it).
const NOT_ON_NETWORK: [i64; 2] = [-18, -22];

mod read;
pub(super) use read::read_network;
pub use read::{handle, network, removals, Removals};

/// One handle's copy and the network's data, as read.
#[derive(Debug)]
pub struct Compared {
    pub handle: Handle,
    /// The copy, read as `show` reads it.
    pub copy: Shown,
    pub network: Network,
    /// The data id, the fetch and the requests that gave them back (for `--verbose`, and for
    /// a failure to give one back).
    pub steps: Vec<Step>,
}

/// What the network holds for the copy's data.
#[derive(Debug)]
pub enum Network {
    /// Not asked: the copy could not be read, or Ctrl-C came first.
    NotAsked,
    /// The network's data, read through a fresh handle (given back since).
    Read(Shown),
    /// No data of this name is on the network: the copy was never saved (`put` saves it).
    NeverSaved,
    /// The data id or the fetch failed.
    Failed(Failure),
}

/// How a copy differs from the network; empty lists when it does not.
#[derive(Debug, Default)]
pub struct Differences<'a> {
    /// In the copy's deleted list, not in the network's: a save moves them there (the network
    /// still lists most of them as data).
    pub removed: Vec<&'a ShownItem>,
    /// In the network's deleted list and back in the copy's data: a save takes them off it.
    /// Against a later version only in a copy a post emptied (its data items can only be ones it
    /// restored); else they are in `removed_there`.
    pub restored: Vec<&'a ShownItem>,
    /// In the network's deleted list and nowhere in the copy: a save removes them for good.
    pub purged: Vec<&'a ShownItem>,
    /// Data items of the copy the network does not hold at all (data never saved).
    pub only_in_copy: Vec<&'a ShownItem>,
    /// Stale only: data in the copy, in the deleted list of the network's later version:
    /// removed there since the copy was taken (or restored in the copy: which one, only the
    /// copy's own history could tell).
    pub removed_there: Vec<&'a ShownItem>,
    /// Stale only: in the copy (either list), in neither of the network's lists: deleted for good
    /// there since the copy was taken (only a save takes an item off both lists).
    pub purged_there: Vec<&'a ShownItem>,
    /// Filter keys (serialised) the copy has and the network does not, and the reverse.
    pub keys_added: Vec<&'a [u8]>,
    pub keys_taken: Vec<&'a [u8]>,
    /// The filter type of the copy and of the network, when they differ.
    pub filter_toggled: Option<(FilterType, FilterType)>,
    /// The copy, at a version a save made, holds none of the network's data items, while the
    /// network holds this many: what a post leaves in the handle (the launcher replaces the
    /// copy with the data-less version it sent), whatever the copy restored or purged since.
    /// Which of them were appended since cannot be told; all are in `new_on_network`, and
    /// `reopen` gets them.
    pub emptied: Option<u64>,
    /// Data items on the network the copy does not show: appended since it was taken (or, when
    /// `emptied`, left out of the copy by a post).
    pub new_on_network: Vec<&'a ShownItem>,
}

impl Differences<'_> {
    /// Changes of the copy that a save would send.
    pub fn unsaved(&self) -> bool {
        !(self.removed.is_empty()
            && self.restored.is_empty()
            && self.purged.is_empty()
            && self.only_in_copy.is_empty()
            && self.keys_added.is_empty()
            && self.keys_taken.is_empty()
            && self.filter_toggled.is_none())
    }

    fn none(&self) -> bool {
        !self.unsaved()
            && self.removed_there.is_empty()
            && self.purged_there.is_empty()
            && self.emptied.is_none()
            && self.new_on_network.is_empty()
    }
}

/// What came of comparing one handle.
#[derive(Debug)]
pub struct Verdict<'a> {
    pub copy: &'a Metadata,
    /// `None`: never saved.
    pub network: Option<&'a Metadata>,
    /// The network is at a later version than the copy: someone saved since it was taken, so
    /// a post fails (-25) and `reopen` is the way on.
    pub stale: bool,
    pub differences: Differences<'a>,
}

impl Verdict<'_> {
    /// Nothing a save would change on the network, and the copy not stale: `status` exits 0.
    /// Items on the network the copy does not show (left out of it by a post, appended since,
    /// or purged from it before their removal was saved) are no change a save would send: a
    /// post keeps them (`saving`'s table).
    pub fn settled(&self) -> bool {
        self.network
            .is_some_and(|network| network.version == self.copy.version)
            && !self.differences.unsaved()
    }

    /// Settled, and the copy shows what the network holds.
    pub fn in_sync(&self) -> bool {
        self.network
            .is_some_and(|network| network.version == self.copy.version)
            && self.differences.none()
    }
}

impl Compared {
    /// Which data the handle is, where it was read: from the network's bytes, or for data
    /// never saved from the copy's.
    pub fn which(&self) -> Option<&show::WhichRead> {
        match &self.network {
            Network::Read(shown) => shown.which.as_deref(),
            _ => self.copy.which.as_deref(),
        }
    }

    /// The failures met, in order: the copy's, the network's (its reading, or the data id and
    /// fetch), and a lease that could not be given back.
    pub fn failures(&self) -> impl Iterator<Item = &Failure> {
        let network: Vec<&Failure> = match &self.network {
            Network::Read(shown) => shown.failures().collect(),
            Network::Failed(failure) => vec![failure],
            Network::NotAsked | Network::NeverSaved => Vec::new(),
        };
        let releases = self
            .steps
            .iter()
            .filter(|step| is_release(&step.request))
            .filter_map(|step| step.result.as_ref().err());
        self.copy.failures().chain(network).chain(releases)
    }

    /// The comparison, when both sides were read whole; else the first failure.
    pub fn verdict(&self) -> Result<Verdict<'_>, Failure> {
        if let Some(failure) = self.failures().next() {
            return Err(failure.clone());
        }
        let copy = self.copy.metadata.as_ref().map_err(Clone::clone)?;
        let network = match &self.network {
            Network::Read(shown) => Some(shown),
            Network::NeverSaved => None,
            Network::NotAsked | Network::Failed(_) => {
                return Err(Failure::new(Class::Interrupted, "interrupted"))
            }
        };
        let network_meta = match network {
            Some(shown) => Some(shown.metadata.as_ref().map_err(Clone::clone)?),
            None => None,
        };
        let differences = differ(&self.copy, copy, network, network_meta);
        Ok(Verdict {
            copy,
            network: network_meta,
            stale: network_meta.is_some_and(|network| network.version > copy.version),
            differences,
        })
    }
}

/// An item as the network tells items apart: what it points at and who signed it.
type Identity<'a> = (&'a [u8], Option<&'a [u8]>);

fn identity(item: &ShownItem) -> Identity<'_> {
    (
        item.data_id.as_deref().unwrap_or_default(),
        item.signer.as_deref(),
    )
}

fn identities(items: &[ShownItem]) -> HashSet<Identity<'_>> {
    items.iter().map(identity).collect()
}

/// Whether an item is in none of `sets`, for `filter`.
fn in_none<'s, 'a: 's>(
    sets: &'s [&'s HashSet<Identity<'a>>],
) -> impl Fn(&&'a ShownItem) -> bool + 's {
    move |item| sets.iter().all(|set| !set.contains(&identity(item)))
}

fn differ<'a>(
    copy: &'a Shown,
    copy_meta: &'a Metadata,
    network: Option<&'a Shown>,
    network_meta: Option<&'a Metadata>,
) -> Differences<'a> {
    let empty: &[ShownItem] = &[];
    let (net_data, net_deleted, net_keys) = match network {
        Some(shown) => (
            shown.data.as_slice(),
            shown.deleted.as_slice(),
            shown.filter.as_slice(),
        ),
        None => (empty, empty, &[][..]),
    };
    let (in_copy_data, in_copy_deleted) = (identities(&copy.data), identities(&copy.deleted));
    let (in_net_data, in_net_deleted) = (identities(net_data), identities(net_deleted));
    // Someone saved since the copy was taken: the network's deleted list is theirs.
    let stale = network_meta.is_some_and(|network| network.version > copy_meta.version);
    let new: Vec<&ShownItem> = (net_data.iter())
        .filter(in_none(&[&in_copy_data, &in_copy_deleted]))
        .collect();
    // What a post leaves (module doc): at a version a save made, none of the network's data
    // items in the copy, and the network holds some.
    let emptied = network_meta.is_some()
        && copy_meta.version >= 1
        && !new.is_empty()
        && new.len() == net_data.len();
    // Stale: in the copy, in neither of the network's lists (`saving::STATUS_CASES`).
    let gone_there = |item: &&'a ShownItem| {
        stale && !in_net_data.contains(&identity(item)) && !in_net_deleted.contains(&identity(item))
    };
    // The copy's items in none of the network's `lists`, but for those gone there.
    let kept_out = |items: &'a [ShownItem], lists: &[&HashSet<Identity<'a>>]| {
        let kept = (items.iter()).filter(in_none(lists));
        kept.filter(|item| !gone_there(item)).collect()
    };
    let mut differences = Differences {
        removed: kept_out(&copy.deleted, &[&in_net_deleted]),
        only_in_copy: kept_out(&copy.data, &[&in_net_data, &in_net_deleted]),
        purged_there: copy
            .data
            .iter()
            .chain(&copy.deleted)
            .filter(gone_there)
            .collect(),
        ..Differences::default()
    };
    for item in net_deleted.iter().filter(in_none(&[&in_copy_deleted])) {
        if in_copy_data.contains(&identity(item)) {
            // Named as the copy holds it, where it is now.
            if let Some(mine) = copy
                .data
                .iter()
                .find(|mine| identity(mine) == identity(item))
            {
                // Against a later version the network may have removed it since; a copy a post
                // emptied holds as data only what it restored.
                match stale && !emptied {
                    true => differences.removed_there.push(mine),
                    false => differences.restored.push(mine),
                }
            }
        } else {
            differences.purged.push(item);
        }
    }
    let key_set = |keys: &'a [show::FilterKey]| -> HashSet<&'a [u8]> {
        keys.iter().filter_map(|key| key.key.as_deref()).collect()
    };
    let (copy_keys, network_keys) = (key_set(&copy.filter), key_set(net_keys));
    differences.keys_added = copy
        .filter
        .iter()
        .filter_map(|key| key.key.as_deref())
        .filter(|key| !network_keys.contains(key))
        .collect();
    differences.keys_taken = net_keys
        .iter()
        .filter_map(|key| key.key.as_deref())
        .filter(|key| !copy_keys.contains(key))
        .collect();
    if let Some(network_meta) = network_meta {
        if network_meta.filter_type != copy_meta.filter_type {
            differences.filter_toggled = Some((copy_meta.filter_type, network_meta.filter_type));
        }
    }
    if emptied {
        differences.emptied = Some(net_data.len() as u64);
    }
    differences.new_on_network = new;
    differences
}

/// Whether a step gives back a lease this module took.
pub(super) fn is_release(request: &Request) -> bool {
    matches!(
        request,
        Request::DropDataId(_) | Request::OnHandle(Operation::Drop, _)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reading at `version` holding these data items and deleted items, signed by key 1.
    fn shown(version: u64, data: &[u8], deleted: &[u8]) -> Shown {
        Shown::sample(version, data, deleted, 1)
    }

    fn ids(items: &[&ShownItem]) -> Vec<u8> {
        items
            .iter()
            .map(|item| item.data_id.as_ref().unwrap()[0])
            .collect()
    }

    /// `saving::STATUS_CASES`, row by row: item 1 data in the copy and deleted on the network,
    /// 2 the reverse, 3 only deleted on the network, 4 (data) and 5 (deleted) only in the copy,
    /// 6 only data on the network; 7 the same in both. Same version, then a later one.
    #[test]
    fn each_case_of_the_table_lands_where_it_says() {
        let copy = shown(1, &[1, 4, 7], &[2, 5]);
        let network = shown(1, &[2, 6, 7], &[1, 3]);
        let read = |network: &Shown| {
            let copy_meta = copy.metadata.as_ref().unwrap();
            let network_meta = network.metadata.as_ref().unwrap();
            let found = differ(&copy, copy_meta, Some(network), Some(network_meta));
            [
                ids(&found.restored),
                ids(&found.removed),
                ids(&found.purged),
                ids(&found.only_in_copy),
                ids(&found.removed_there),
                ids(&found.purged_there),
                ids(&found.new_on_network),
            ]
        };
        let same: [&[u8]; 7] = [&[1], &[2, 5], &[3], &[4], &[], &[], &[6]];
        assert_eq!(read(&network), same);
        let later = shown(2, &[2, 6, 7], &[1, 3]);
        let stale: [&[u8]; 7] = [&[], &[2], &[3], &[], &[1], &[4, 5], &[6]];
        assert_eq!(read(&later), stale);
    }

    /// A copy a post emptied, that restored an item since (item 1): at the same version and at a
    /// later one, it is that copy, and the restore is its own.
    #[test]
    fn a_copy_a_post_emptied_stays_one_after_a_restore() {
        let copy = shown(2, &[1], &[3]);
        for version in [2, 3] {
            let network = shown(version, &[6, 7], &[1, 3]);
            let found = differ(
                &copy,
                copy.metadata.as_ref().unwrap(),
                Some(&network),
                Some(network.metadata.as_ref().unwrap()),
            );
            assert_eq!(found.emptied, Some(2), "version {version}");
            assert_eq!(ids(&found.restored), [1], "version {version}");
            assert!(found.removed_there.is_empty(), "version {version}");
            assert_eq!(ids(&found.new_on_network), [6, 7], "version {version}");
        }
        // A copy at version 0 was never made by a post.
        let copy = shown(0, &[], &[]);
        let network = shown(0, &[6], &[]);
        let meta = |shown: &Shown| shown.metadata.clone().unwrap();
        let (copy_meta, network_meta) = (meta(&copy), meta(&network));
        let found = differ(&copy, &copy_meta, Some(&network), Some(&network_meta));
        assert_eq!(found.emptied, None);
    }
}
