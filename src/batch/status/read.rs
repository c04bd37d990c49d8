//! The readings `status` compares: a handle's copy as `show` reads it, and the network's data
//! through a fresh handle (the handle's data id, the fetch through it, its serialised bytes),
//! each lease given back on every path; and the network's deleted list alone, for what a save
//! would leave ([`removals`]). The comparison itself is the parent's.

use super::*;

fn not_on_network(failure: &Failure) -> bool {
    failure
        .answer
        .as_ref()
        .and_then(|answer| answer.error_code)
        .is_some_and(|code| NOT_ON_NETWORK.contains(&code))
}

/// Reads `handle`'s copy and, at the same time, the network's data through a fresh handle,
/// and gives back every handle it took. `progress` hears, for the handle being read (the copy,
/// or the fresh one), how many of its filter keys and items are done, of how many. When the
/// copy cannot be read the network's reading is not said (its handles are given back all the
/// same): without the copy there is nothing to compare.
pub async fn handle(
    sending: Sending<'_>,
    handle: Handle,
    options: ShowOptions,
    progress: impl FnMut(Handle, u64, u64),
) -> Compared {
    // Both readings run at once (`--jobs` bounds each), and report progress through one closure.
    let progress = std::cell::RefCell::new(progress);
    let copied = CopyIds::default();
    let copy = async {
        let copy = show::handle(sending, handle, options, |done, total| {
            (progress.borrow_mut())(handle, done, total)
        })
        .await;
        copied.set(&copy);
        copy
    };
    // The network's items are read without what they point at: an item the copy holds too
    // points at the same data, and is not said. Only those the copy lacks (new, purged) are read
    // whole, once the copy's data ids are known.
    let lean = ShowOptions {
        parts: show::Parts {
            content: false,
            ..options.parts
        },
        ..options
    };
    let network = network_with(
        sending,
        handle,
        lean,
        |at, done, total| (progress.borrow_mut())(at, done, total),
        Some((&copied, options)),
    );
    let (mut copy, (network, steps)) = tokio::join!(copy, network);
    let network = match copy.metadata.is_err() || sending.stop.is_set() {
        true => Network::NotAsked,
        false => network,
    };
    // Which data it is: the network's bytes said it; data never saved has only the copy's,
    // read for that alone (a failed read leaves it unknown, and is no failure of the
    // comparison).
    if let Network::NeverSaved = network {
        show::which(sending, &mut copy).await;
        if let Some(show::WhichRead::Failed(_)) = copy.which.as_deref() {
            copy.which = None;
        }
    }
    Compared {
        handle,
        copy,
        network,
        steps,
    }
}

/// An item's identity ([`Identity`]) as owned bytes.
type Owned = (Option<Vec<u8>>, Option<Vec<u8>>);

/// The identities of the copy's items, once the copy is read: the network's items the copy
/// lacks are those `status` says, so those it reads whole.
#[derive(Default)]
struct CopyIds {
    ids: std::cell::RefCell<Option<HashSet<Owned>>>,
    ready: tokio::sync::Notify,
}

impl CopyIds {
    fn set(&self, copy: &Shown) {
        let ids = copy
            .data
            .iter()
            .chain(&copy.deleted)
            .map(|item| (item.data_id.clone(), item.signer.clone()))
            .collect();
        *self.ids.borrow_mut() = Some(ids);
        // A permit is kept when nobody waits yet.
        self.ready.notify_one();
    }

    async fn wait(&self) -> HashSet<Owned> {
        if self.ids.borrow().is_none() {
            self.ready.notified().await;
        }
        self.ids.borrow().clone().unwrap_or_default()
    }
}

/// Reads whole (with `options`) each of `shown`'s items the copy lacks, through
/// the same fresh handle, one index at a time.
async fn read_whole(
    sending: Sending<'_>,
    fresh: Handle,
    shown: &mut Shown,
    copied: &HashSet<Owned>,
    options: ShowOptions,
) {
    for item in shown.data.iter_mut().chain(shown.deleted.iter_mut()) {
        let known = copied.contains(&(item.data_id.clone(), item.signer.clone()));
        if known || !item.failures.is_empty() || sending.stop.is_set() {
            continue;
        }
        let section = item.section;
        let one = ShowOptions {
            range: show::IndexRange {
                start: item.index,
                end: item.index.checked_add(1),
            },
            parts: show::Parts {
                filter: false,
                data: section == show::Section::Data,
                deleted: section == show::Section::Deleted,
                content: true,
                signers: false,
            },
            ..options
        };
        let mut read = show::handle(sending, fresh, one, |_, _| {}).await;
        item.steps.append(&mut read.steps);
        let whole = match section {
            show::Section::Data => read.data.pop(),
            show::Section::Deleted => read.deleted.pop(),
        };
        match (read.metadata, whole) {
            (Err(failure), _) => item.failures.push(failure),
            (Ok(_), None) => {}
            (Ok(_), Some(mut whole)) => {
                item.steps.append(&mut whole.steps);
                item.failures.append(&mut whole.failures);
                item.kind = whole.kind;
                item.missing = whole.missing;
                item.unread = whole.unread;
                item.preview = whole.preview;
                item.text = whole.text;
                item.content = whole.content;
            }
        }
    }
}

/// The network's data for `handle`'s copy: a data id of the handle, a fresh handle fetched
/// through it (the data id given back at once), read as `options` says and given back. Both are
/// leases. `progress` hears how much of the fresh handle is read. `status` reads it beside the
/// copy; `restore --save post` reads the deleted list, to learn which restored items a save
/// leaves in neither list.
pub async fn network(
    sending: Sending<'_>,
    handle: Handle,
    options: ShowOptions,
    progress: impl FnMut(Handle, u64, u64),
) -> (Network, Vec<Step>) {
    network_with(sending, handle, options, progress, None).await
}

/// [`network`], and with `whole` the items the copy lacks read whole before the fresh handle
/// is given back.
async fn network_with(
    sending: Sending<'_>,
    handle: Handle,
    options: ShowOptions,
    mut progress: impl FnMut(Handle, u64, u64),
    whole: Option<(&CopyIds, ShowOptions)>,
) -> (Network, Vec<Step>) {
    let mut steps = Steps::new(sending);
    let data_id = steps
        .lease(
            Request::OnHandle(Operation::DataId, handle),
            Request::DropDataId,
        )
        .await;
    let network = match data_id {
        Err(failure) => Network::Failed(failure),
        Ok((data_id, _)) => {
            let fetched = steps
                .lease(Request::Fetch(data_id), |fresh| {
                    Request::OnHandle(Operation::Drop, fresh)
                })
                .await;
            // The data id has done its work: back before the reading, which may be long.
            let _ = steps.give_back(data_id).await;
            match fetched {
                Ok((fresh, _)) if !sending.stop.is_set() => {
                    let mut read = read_network(sending, fresh, options, |done, total| {
                        progress(fresh, done, total)
                    })
                    .await;
                    if let (Some((copied, whole)), Ok(_)) = (whole, &read.metadata) {
                        let copied = copied.wait().await;
                        read_whole(sending, fresh, &mut read, &copied, whole).await;
                    }
                    Network::Read(read)
                }
                Ok(_) => Network::NotAsked,
                Err(failure) if not_on_network(&failure) => Network::NeverSaved,
                Err(failure) => Network::Failed(failure),
            }
        }
    };
    (network, steps.finish().await)
}

/// The fresh handle read as `options` says (`status`, and `wait`'s polls). Without content (all `status` and `restore` need of
/// the network is which items it holds: their data ids and signers) the whole data is read
/// through its serialised bytes, one request where reading item by item sends six per item and
/// filter key; the data ids and signers are the bytes the launcher's item routes would give.
/// Private data (its items are sealed), bytes not in the launcher's layout, lists that disagree
/// with the metadata, or a failed request: read item by item, as `show` does.
pub(in crate::batch) async fn read_network(
    sending: Sending<'_>,
    fresh: Handle,
    options: ShowOptions,
    mut progress: impl FnMut(u64, u64),
) -> Shown {
    if options.parts.content {
        return show::handle(sending, fresh, options, progress).await;
    }
    let metadata_only = ShowOptions {
        parts: show::Parts {
            filter: false,
            data: false,
            deleted: false,
            content: false,
            signers: false,
        },
        ..options
    };
    let mut shown = show::handle(sending, fresh, metadata_only, |_, _| {}).await;
    let Ok(metadata) = &shown.metadata else {
        return shown;
    };
    let mut steps = Steps::new(sending);
    let serialised = steps
        .ask(Request::OnHandle(Operation::Serialise, fresh))
        .await;
    shown.steps.append(&mut steps.finish().await);
    let decoded = match &serialised {
        Ok(Reply::Bytes(bytes)) => AppendableData::decode(bytes).ok(),
        _ => None,
    };
    // Which data it is comes with the bytes, at no request of its own; a failed read of them
    // leaves it unknown, and is no failure of the comparison.
    shown.which = match show::WhichRead::from_answer(&serialised) {
        show::WhichRead::Failed(_) => None,
        which => Some(Box::new(which)),
    };
    if sending.stop.is_set() {
        return shown;
    }
    match decoded.and_then(|data| from_serialised(&data, metadata, options)) {
        Some((filter, data, deleted)) => {
            let total = (filter.len() + data.len() + deleted.len()) as u64;
            (shown.filter, shown.data, shown.deleted) = (filter, data, deleted);
            progress(total, total);
            shown
        }
        None => {
            let mut read = show::handle(sending, fresh, options, progress).await;
            shown.steps.append(&mut read.steps);
            read.steps = shown.steps;
            read.which = shown.which;
            read
        }
    }
}

/// The filter keys and items of a decoded appendable data, as `show` would have read them
/// without content (within `options`' range and parts); `None` when an item is sealed (private
/// data) or the lists are not the lengths the metadata says.
fn from_serialised(
    data: &AppendableData,
    metadata: &Metadata,
    options: ShowOptions,
) -> Option<(Vec<show::FilterKey>, Vec<ShownItem>, Vec<ShownItem>)> {
    let lengths = (
        data.filter_keys.len() as u64,
        data.data.len() as u64,
        data.deleted.len() as u64,
    );
    if data.version != metadata.version
        || lengths
            != (
                metadata.filter_length,
                metadata.data_length,
                metadata.deleted_data_length,
            )
    {
        return None;
    }
    let parts = options.parts;
    let filter = match parts.filter {
        true => (data.filter_keys.iter().enumerate())
            .map(|(index, key)| show::FilterKey {
                index: index as u64,
                key: Some(key.serialised()),
                failures: Vec::new(),
                steps: Vec::new(),
            })
            .collect(),
        false => Vec::new(),
    };
    let items = |wanted: bool, section: show::Section, entries: &[Entry]| {
        let range = options
            .range
            .within(if wanted { entries.len() as u64 } else { 0 });
        range
            .map(|index| match &entries[index as usize] {
                Entry::Appended(appended) => Some(ShownItem {
                    data_id: Some(appended.pointer.encode()),
                    pointer: Some(Ok(appended.pointer)),
                    signer: parts.signers.then(|| appended.sign_key.serialised()),
                    ..ShownItem::at(section, index)
                }),
                Entry::Sealed(_) => None,
            })
            .collect::<Option<Vec<_>>>()
    };
    Some((
        filter,
        items(parts.data, show::Section::Data, &data.data)?,
        items(parts.deleted, show::Section::Deleted, &data.deleted)?,
    ))
}

/// Of the copy's deleted items a change takes (a purge, a restore), how many have a removal the
/// network has got (they are in its deleted list too) and how many not (their removal is only
/// in the copy).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Removals {
    pub saved: usize,
    pub unsaved: usize,
}

/// Of the copy's deleted items at `indexes` (all of them: `None`), how many have a removal the
/// network has got and how many not ([`Removals`]): a plain post after purging one whose removal
/// it has not got leaves that item data on the network, and after restoring one whose removal it
/// has got leaves it in neither list (a save takes off the network's data only what the deleted
/// list it sends holds, and carries no data items: `saving`'s table). The copy is read through its serialised
/// bytes, the network through a fresh handle given back ([`network`]), only when there is an
/// item to look for. `Ok(None)`: it cannot be told (private data, whose items are sealed; a
/// read failed). Data never saved counts none either way (a post of it fails, and says so).
/// `Err`: a handle this took was not given back (the failure names it).
pub async fn removals(
    sending: Sending<'_>,
    handle: Handle,
    indexes: Option<&[u64]>,
    options: ShowOptions,
) -> (Result<Option<Removals>, Failure>, Vec<Step>) {
    let mut steps = Steps::new(sending);
    let copy = steps
        .ask(Request::OnHandle(Operation::Serialise, handle))
        .await;
    let mut steps = steps.finish().await;
    let copy = match copy {
        Ok(Reply::Bytes(bytes)) => AppendableData::decode(&bytes).ok(),
        _ => None,
    };
    let Some(copy) = copy else {
        return (Ok(None), steps);
    };
    let chosen: Vec<&Entry> = match indexes {
        None => copy.deleted.iter().collect(),
        Some(indexes) => (indexes.iter())
            .filter_map(|&index| copy.deleted.get(usize::try_from(index).ok()?))
            .collect(),
    };
    let mut taken = Vec::new();
    for entry in chosen {
        match entry {
            Entry::Appended(item) => {
                taken.push((item.pointer.encode(), item.sign_key.serialised()))
            }
            Entry::Sealed(_) => return (Ok(None), steps),
        }
    }
    if taken.is_empty() || sending.stop.is_set() {
        return (Ok(Some(Removals::default())), steps);
    }
    let deleted_only = ShowOptions {
        range: show::IndexRange::ALL,
        parts: show::Parts {
            filter: false,
            data: false,
            deleted: true,
            content: false,
            signers: true,
        },
        ..options
    };
    let (network, more) = network(sending, handle, deleted_only, |_, _, _| {}).await;
    let not_given_back = (more.iter())
        .filter(|step| is_release(&step.request))
        .find_map(|step| step.result.as_ref().err())
        .cloned();
    steps.extend(more);
    if let Some(failure) = not_given_back {
        return (Err(failure), steps);
    }
    let removals = match &network {
        Network::Read(shown) if shown.failures().next().is_none() => {
            let saved = identities(&shown.deleted);
            let on_network = (taken.iter())
                .filter(|(id, key)| saved.contains(&(id.as_slice(), Some(key.as_slice()))))
                .count();
            Some(Removals {
                saved: on_network,
                unsaved: taken.len() - on_network,
            })
        }
        // The post fails (nothing of this name is on the network), and says so.
        Network::NeverSaved => Some(Removals::default()),
        Network::Read(_) | Network::Failed(_) | Network::NotAsked => None,
    };
    (Ok(removals), steps)
}
