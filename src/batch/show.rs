//! `show`: what one appendable-data handle holds, read through the launcher's item routes.
//!
//! The launcher says what an item is only through handles of other kinds: a data id for the
//! item (whose serialised bytes are the item's data id), a structured-data or appendable-data
//! handle fetched through it (which says which kind it is, and its version and content), and a
//! sign key for whoever signed it. Each is a lease, given back as soon as the item is read.
//! Items are independent, so up to [`units_at_once`] are read at once; each holds at most
//! [`LEASES_PER_UNIT`] handles, so `show` never holds more than [`LEASE_BUDGET`] of them, however
//! large the handle: the launcher keeps 100 of each kind and evicts the oldest, which would be
//! the person's own.
//!
//! Only reading requests are sent (and the ones that free what was read). Nothing here renders:
//! `report` turns a [`Shown`] into words.

use futures_util::StreamExt;

use super::{Sending, Steps};
use crate::handle::Handle;
use crate::launcher::MAX_CONTENT_BYTES;
use crate::launcher::{FilterType, Metadata, Operation, Request};
use crate::name::Name;
use crate::outcome::{judge_content, Class, Failure, Reply};
use crate::wire::{AppendableData, DataId, DataKind, DecodeError, SignKey};

/// The most launcher handles `show` holds at once.
pub const LEASE_BUDGET: usize = 16;

/// The most handles one item (or filter key) holds at once: its data id and the data fetched
/// through it.
pub const LEASES_PER_UNIT: usize = 2;

/// The launcher's error for a data id of the other kind of data (`ReceivedUnexpectedData`).
const OTHER_KIND: i64 = -5;

/// The launcher's errors for data that is not on the network (`NoSuchData`, as a get and as a
/// mutation failure).
const NOT_ON_THE_NETWORK: [i64; 2] = [-18, -22];

/// The most content kept for `--json`'s `text` without `--full`.
pub const KEEP_TEXT_BYTES: usize = 64 * 1024;

/// How many items are read at once for `--jobs N`: never more than the lease budget allows.
pub fn units_at_once(jobs: usize) -> usize {
    jobs.clamp(1, LEASE_BUDGET / LEASES_PER_UNIT)
}

/// Which indexes to show: `start` up to `end` (not included), or to the end of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexRange {
    pub start: u64,
    pub end: Option<u64>,
}

impl IndexRange {
    pub const ALL: IndexRange = IndexRange {
        start: 0,
        end: None,
    };

    /// The indexes of a list of `length` items that fall in the range.
    pub fn within(self, length: u64) -> std::ops::Range<u64> {
        let end = self.end.unwrap_or(length).min(length);
        self.start.min(end)..end
    }
}

/// The two lists of an appendable data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Data,
    Deleted,
}

/// What an item points at, as the launcher said when it was fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// `versions`: for versioned structured data (type tag 501), how many it keeps.
    Structured { version: u64, versions: Option<u64> },
    Appendable {
        version: u64,
        data_length: u64,
        deleted_data_length: u64,
        filter_type: FilterType,
    },
    /// Immutable data of `size` bytes.
    Immutable { size: u64 },
}

/// One item as read; what could not be read is `None`, and `failures` says why.
#[derive(Debug)]
pub struct ShownItem {
    pub section: Section,
    pub index: u64,
    /// The launcher's serialised bytes of the item's data id.
    pub data_id: Option<Vec<u8>>,
    /// What those bytes say the item points at (kind, name, type tag); an error for bytes in a
    /// layout that cannot be decoded; `None` when they could not be read.
    pub pointer: Option<Result<DataId, DecodeError>>,
    /// What the launcher says of the data pointed at; `None`: it could not be read (see
    /// `failures`), or it is not on the network (`missing`).
    pub kind: Option<Kind>,
    /// The data pointed at is not on the network (the launcher's NoSuchData).
    pub missing: bool,
    /// Immutable data larger than one answer may be: its content was not read.
    pub unread: bool,
    /// The content of structured or immutable data: its preview, the whole of it as text when
    /// it is UTF-8 (up to [`KEEP_TEXT_BYTES`] without `--full`), and as bytes with `--full`.
    pub preview: Option<String>,
    pub text: Option<String>,
    pub content: Option<Vec<u8>>,
    /// The launcher's serialised bytes of the key that signed the item.
    pub signer: Option<Vec<u8>>,
    pub failures: Vec<Failure>,
    /// Every request and answer, kept for `--verbose` only.
    pub steps: Vec<super::Step>,
}

impl ShownItem {
    /// Item `index` of `section`, with nothing read of it yet.
    pub fn at(section: Section, index: u64) -> ShownItem {
        ShownItem {
            section,
            index,
            data_id: None,
            pointer: None,
            kind: None,
            missing: false,
            unread: false,
            preview: None,
            text: None,
            content: None,
            signer: None,
            failures: Vec::new(),
            steps: Vec::new(),
        }
    }

    /// A fetch failed: the data is not on the network (which is what the item says, not a
    /// failure to read it), or the failure is the item's.
    fn note_missing_or(&mut self, failure: Failure) {
        match error_code(&failure) {
            Some(code) if NOT_ON_THE_NETWORK.contains(&code) => self.missing = true,
            _ => self.failures.push(failure),
        }
    }
}

/// One filter key as read.
#[derive(Debug)]
pub struct FilterKey {
    pub index: u64,
    /// The launcher's serialised bytes of the key.
    pub key: Option<Vec<u8>>,
    pub failures: Vec<Failure>,
    pub steps: Vec<super::Step>,
}

/// Which data a handle is: what its serialised bytes say of the data itself (not of its items).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Which {
    pub name: Name,
    pub private: bool,
    pub owners: Vec<SignKey>,
}

impl Which {
    pub fn of(data: &AppendableData) -> Which {
        Which {
            name: data.name,
            private: data.private,
            owners: data.owners.clone(),
        }
    }
}

/// What came of reading which data a handle is ([`which`]).
#[derive(Debug, Clone)]
pub enum WhichRead {
    Read(Which),
    /// The bytes came, in a layout that cannot be decoded (another launcher's): not known, and
    /// no failure of the read.
    Undecoded(DecodeError),
    Failed(Failure),
}

impl WhichRead {
    /// From the answer to `GET /appendable-data/serialise/<h>`.
    pub fn from_answer(answer: &Result<Reply, Failure>) -> WhichRead {
        match answer {
            Ok(Reply::Bytes(bytes)) => WhichRead::from_bytes(bytes),
            Ok(_) => WhichRead::Failed(Failure::new(Class::Unexpected, "the answer is not bytes")),
            Err(failure) => WhichRead::Failed(failure.clone()),
        }
    }

    /// From serialised bytes.
    pub fn from_bytes(bytes: &[u8]) -> WhichRead {
        match AppendableData::decode(bytes) {
            Ok(data) => WhichRead::Read(Which::of(&data)),
            Err(error) => WhichRead::Undecoded(error),
        }
    }

    pub fn known(&self) -> Option<&Which> {
        match self {
            WhichRead::Read(which) => Some(which),
            _ => None,
        }
    }
}

/// Everything read of one handle.
#[derive(Debug)]
pub struct Shown {
    pub handle: Handle,
    /// A handle whose metadata cannot be read shows nothing else.
    pub metadata: Result<Metadata, Failure>,
    /// Which data it is (its name, public or private, its owners), when it was asked
    /// ([`which`]); `None`: not asked.
    pub which: Option<Box<WhichRead>>,
    pub filter: Vec<FilterKey>,
    pub data: Vec<ShownItem>,
    pub deleted: Vec<ShownItem>,
    /// The metadata request, for `--verbose`.
    pub steps: Vec<super::Step>,
}

#[cfg(test)]
impl Shown {
    /// A reading of handle 1 at `version` holding these data items and deleted items, each
    /// named by one byte (its data id), numbered in its list and signed by key `signer`.
    pub(crate) fn sample(version: u64, data: &[u8], deleted: &[u8], signer: u8) -> Shown {
        let list = |section, ids: &[u8]| -> Vec<ShownItem> {
            (ids.iter().enumerate())
                .map(|(at, &id)| ShownItem {
                    data_id: Some(vec![id]),
                    signer: Some(vec![signer]),
                    ..ShownItem::at(section, at as u64)
                })
                .collect()
        };
        Shown {
            handle: Handle(1),
            metadata: Ok(Metadata {
                is_owner: true,
                version,
                filter_type: FilterType::BlackList,
                filter_length: 0,
                data_length: data.len() as u64,
                deleted_data_length: deleted.len() as u64,
            }),
            which: None,
            filter: Vec::new(),
            data: list(Section::Data, data),
            deleted: list(Section::Deleted, deleted),
            steps: Vec::new(),
        }
    }
}

impl Shown {
    /// Every failure, in the order shown: the handle's, the filter keys', the items'.
    pub fn failures(&self) -> impl Iterator<Item = &Failure> {
        let which = match self.which.as_deref() {
            Some(WhichRead::Failed(failure)) => Some(failure),
            _ => None,
        };
        self.metadata
            .as_ref()
            .err()
            .into_iter()
            .chain(which)
            .chain(self.filter.iter().flat_map(|key| &key.failures))
            .chain(
                self.data
                    .iter()
                    .chain(&self.deleted)
                    .flat_map(|item| &item.failures),
            )
    }
}

/// How to read a handle.
#[derive(Debug, Clone, Copy)]
pub struct ShowOptions {
    pub range: IndexRange,
    /// Keep the whole content of structured data, not only its preview.
    pub full: bool,
    pub parts: Parts,
}

impl ShowOptions {
    /// Every part of every item, content as previews: what `status` and the checks before a
    /// change compare.
    pub const WHOLE: ShowOptions = ShowOptions {
        range: IndexRange::ALL,
        full: false,
        parts: Parts::ALL,
    };
}

/// Which parts of a handle to read: `show` reads them all; choosing items by what they are
/// (`remove --kind ...`) reads only what the choice needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts {
    pub filter: bool,
    pub data: bool,
    pub deleted: bool,
    /// What each item points at, as the launcher says (version, content). Without it an item
    /// whose data id's bytes decode is known by them alone; one whose bytes do not is still
    /// asked of the launcher, which alone can then say its kind.
    pub content: bool,
    pub signers: bool,
}

impl Parts {
    /// Nothing but the metadata (the version, the counts).
    pub const NONE: Parts = Parts {
        filter: false,
        data: false,
        deleted: false,
        content: false,
        signers: false,
    };

    pub const ALL: Parts = Parts {
        filter: true,
        data: true,
        deleted: true,
        content: true,
        signers: true,
    };
}

/// The user's own sign key, serialised, to tell the items they signed; and its steps.
pub async fn user_key(sending: Sending<'_>) -> (Result<Vec<u8>, Failure>, Vec<super::Step>) {
    let mut steps = Steps::new(sending);
    let key = read_key(&mut steps, Request::UserSignKey).await;
    (key, steps.finish().await)
}

/// The serialised key of whoever signed the data item at `index` of `handle` (the sign-key
/// handle given back at once); and its steps.
pub async fn signer_of(
    sending: Sending<'_>,
    handle: Handle,
    index: u64,
) -> (Result<Vec<u8>, Failure>, Vec<super::Step>) {
    let mut steps = Steps::new(sending);
    let request = Request::AtIndex(Operation::ItemSigner, handle, index);
    let key = read_key(&mut steps, request).await;
    (key, steps.finish().await)
}

/// The handle's serialised bytes (`GET /appendable-data/serialise/<h>`): the whole data in one
/// answer, as `safe-ad decode` reads it; and its step.
pub async fn serialised(
    sending: Sending<'_>,
    handle: Handle,
) -> (Result<Vec<u8>, Failure>, Vec<super::Step>) {
    let mut steps = Steps::new(sending);
    let read = bytes(&mut steps, Request::OnHandle(Operation::Serialise, handle)).await;
    (read, steps.finish().await)
}

/// Which data `shown`'s handle is, read through its serialised bytes (one request, which holds
/// no handle) once its metadata was read; the step joins `shown`'s.
pub async fn which(sending: Sending<'_>, shown: &mut Shown) {
    if shown.metadata.is_err() || sending.stop.is_set() {
        return;
    }
    let (read, mut steps) = serialised(sending, shown.handle).await;
    shown.steps.append(&mut steps);
    shown.which = Some(Box::new(match &read {
        Ok(bytes) => WhichRead::from_bytes(bytes),
        Err(failure) => WhichRead::Failed(failure.clone()),
    }));
}

/// Reads one handle. `progress` hears how many filter keys and items are done, of how many.
pub async fn handle(
    sending: Sending<'_>,
    handle: Handle,
    options: ShowOptions,
    mut progress: impl FnMut(u64, u64),
) -> Shown {
    let mut steps = Steps::new(sending);
    let metadata = steps
        .ask(Request::OnHandle(Operation::Metadata, handle))
        .await
        .and_then(|reply| match reply {
            Reply::Metadata(metadata) => Ok(metadata),
            _ => Err(Failure::new(
                Class::Unexpected,
                "the answer is not metadata",
            )),
        });
    let mut shown = Shown {
        handle,
        metadata,
        which: None,
        filter: Vec::new(),
        data: Vec::new(),
        deleted: Vec::new(),
        steps: steps.finish().await,
    };
    let Ok(metadata) = &shown.metadata else {
        return shown;
    };
    let parts = options.parts;
    let length = |wanted: bool, length: u64| if wanted { length } else { 0 };
    // Made as they are read, never all at once: the lengths come from the launcher (bounded
    // by `outcome`, and never sized from here).
    let filter = 0..length(parts.filter, metadata.filter_length);
    let data = options
        .range
        .within(length(parts.data, metadata.data_length));
    let deleted = options
        .range
        .within(length(parts.deleted, metadata.deleted_data_length));
    let total = [&filter, &data, &deleted]
        .iter()
        .fold(0u64, |total, range| {
            total.saturating_add(range.end - range.start)
        });
    let units = filter
        .map(Unit::FilterKey)
        .chain(data.map(|index| Unit::Item(Section::Data, index)))
        .chain(deleted.map(|index| Unit::Item(Section::Deleted, index)));
    let read = futures_util::stream::iter(units)
        .map(|unit| read_unit(sending, handle, unit, options))
        .buffered(units_at_once(sending.jobs));
    futures_util::pin_mut!(read);
    let mut done = 0;
    while let Some(unit) = read.next().await {
        match unit {
            Read::FilterKey(key) => shown.filter.push(key),
            Read::Item(item) if item.section == Section::Data => shown.data.push(*item),
            Read::Item(item) => shown.deleted.push(*item),
        }
        done += 1;
        progress(done, total);
    }
    shown
}

/// One piece of a handle, read with leases of its own.
#[derive(Debug, Clone, Copy)]
enum Unit {
    FilterKey(u64),
    Item(Section, u64),
}

enum Read {
    FilterKey(FilterKey),
    Item(Box<ShownItem>),
}

async fn read_unit(sending: Sending<'_>, handle: Handle, unit: Unit, options: ShowOptions) -> Read {
    let mut steps = Steps::new(sending);
    match unit {
        Unit::FilterKey(index) => {
            let key = read_key(
                &mut steps,
                Request::AtIndex(Operation::FilterKey, handle, index),
            )
            .await;
            let (key, failures) = match key {
                Ok(key) => (Some(key), Vec::new()),
                Err(failure) => (None, vec![failure]),
            };
            Read::FilterKey(FilterKey {
                index,
                key,
                failures,
                steps: kept(steps.finish().await, sending.verbose),
            })
        }
        Unit::Item(section, index) => {
            let mut item = ShownItem::at(section, index);
            read_item(&mut steps, handle, &mut item, options).await;
            let signer = match section {
                Section::Data => Operation::ItemSigner,
                Section::Deleted => Operation::DeletedItemSigner,
            };
            if options.parts.signers {
                match read_key(&mut steps, Request::AtIndex(signer, handle, index)).await {
                    Ok(key) => item.signer = Some(key),
                    Err(failure) => item.failures.push(failure),
                }
            }
            item.steps = kept(steps.finish().await, sending.verbose);
            Read::Item(Box::new(item))
        }
    }
}

/// The steps of a unit, kept only for `--verbose` (content can be large).
fn kept(steps: Vec<super::Step>, verbose: bool) -> Vec<super::Step> {
    if verbose {
        steps
    } else {
        Vec::new()
    }
}

/// The item's data id, and what it points at, through a data-id handle given back at the end.
/// The data id's own bytes say what kind of data it names, so only that kind is fetched; bytes
/// in a layout that cannot be decoded (or not read) leave the launcher to say: structured data
/// first, then appendable data.
async fn read_item(
    steps: &mut Steps<'_>,
    handle: Handle,
    item: &mut ShownItem,
    options: ShowOptions,
) {
    let full = options.full;
    let at = match item.section {
        Section::Data => Operation::ItemDataId,
        Section::Deleted => Operation::DeletedItemDataId,
    };
    let data_id = match steps
        .lease(
            Request::AtIndex(at, handle, item.index),
            Request::DropDataId,
        )
        .await
    {
        Ok((data_id, _)) => data_id,
        Err(failure) => return item.failures.push(failure),
    };
    match bytes(steps, Request::OnId(Operation::SerialiseDataId, data_id)).await {
        Ok(serialised) => {
            item.pointer = Some(DataId::decode(&serialised));
            item.data_id = Some(serialised);
        }
        Err(failure) => item.failures.push(failure),
    }
    match item
        .pointer
        .as_ref()
        .and_then(|pointer| pointer.as_ref().ok())
    {
        Some(_) if !options.parts.content => {}
        Some(pointer) => match pointer.kind {
            DataKind::Structured => {
                if let Err(failure) = read_structured(steps, data_id, item, full).await {
                    item.note_missing_or(failure);
                }
            }
            DataKind::Immutable => read_immutable(steps, data_id, item, full).await,
            DataKind::PubAppendable | DataKind::PrivAppendable => {
                read_appendable(steps, data_id, item).await
            }
        },
        None => match read_structured(steps, data_id, item, full).await {
            Err(failure) if error_code(&failure) == Some(OTHER_KIND) => {
                read_appendable(steps, data_id, item).await;
            }
            Err(failure) => item.failures.push(failure),
            Ok(()) => {}
        },
    }
    give_back(steps, data_id, item).await;
}

/// Content as kept: all of it under `--full`; otherwise only when small (for `text`).
fn keep(item: &mut ShownItem, content: Vec<u8>, full: bool) {
    item.preview = Some(crate::launcher::serialised::preview(&content));
    item.text = match std::str::from_utf8(&content) {
        Ok(text) if full || content.len() <= KEEP_TEXT_BYTES => Some(text.to_string()),
        _ => None,
    };
    item.content = full.then_some(content);
}

/// An item that names structured data: its version and content. The fetch's failure is
/// returned, for the caller to judge (another kind, not on the network).
async fn read_structured(
    steps: &mut Steps<'_>,
    data_id: Handle,
    item: &mut ShownItem,
    full: bool,
) -> Result<(), Failure> {
    let (fetched, reply) = steps
        .lease(Request::OnId(Operation::FetchStructured, data_id), |s| {
            Request::OnId(Operation::DropStructured, s)
        })
        .await?;
    if let Reply::FetchedStructured(meta) = reply {
        item.kind = Some(Kind::Structured {
            version: meta.version,
            versions: meta.data_version_length,
        });
        match bytes(steps, Request::OnId(Operation::ReadStructured, fetched)).await {
            Ok(content) => keep(item, content, full),
            Err(failure) => item.failures.push(failure),
        }
    }
    give_back(steps, fetched, item).await;
    Ok(())
}

/// An item that names immutable data: its size and content, through a reader given back at
/// once. Content larger than the launcher module reads in one answer is not read; its size says.
/// Content of another length than that size is not kept: the item is unreadable, so neither
/// `cat` nor `show` gives part of the data (or more) as the whole of it.
async fn read_immutable(steps: &mut Steps<'_>, data_id: Handle, item: &mut ShownItem, full: bool) {
    let reader = steps
        .lease(Request::OnId(Operation::ImmutableReader, data_id), |r| {
            Request::OnId(Operation::DropReader, r)
        })
        .await;
    let (reader, size) = match reader {
        Ok((reader, Reply::Reader(reply))) => (reader, reply.size),
        Ok((reader, _)) => return give_back(steps, reader, item).await,
        Err(failure) => return item.note_missing_or(failure),
    };
    item.kind = Some(Kind::Immutable { size });
    if size > MAX_CONTENT_BYTES as u64 {
        item.unread = true;
    } else {
        let content = bytes(steps, Request::OnId(Operation::ReadImmutable, reader))
            .await
            .and_then(|content| judge_content(size, &content).map(|()| content));
        match content {
            Ok(content) => keep(item, content, full),
            Err(failure) => item.failures.push(failure),
        }
    }
    give_back(steps, reader, item).await;
}

/// An item that names appendable data: its version and counts.
async fn read_appendable(steps: &mut Steps<'_>, data_id: Handle, item: &mut ShownItem) {
    let fetched = steps
        .lease(Request::Fetch(data_id), |a| {
            Request::OnHandle(Operation::Drop, a)
        })
        .await;
    match fetched {
        Ok((fetched, reply)) => {
            if let Reply::Fetched(meta) = reply {
                item.kind = Some(Kind::Appendable {
                    version: meta.version,
                    data_length: meta.data_length,
                    deleted_data_length: meta.deleted_data_length,
                    filter_type: meta.filter_type,
                });
            }
            give_back(steps, fetched, item).await;
        }
        Err(failure) => item.note_missing_or(failure),
    }
}

async fn give_back(steps: &mut Steps<'_>, handle: Handle, item: &mut ShownItem) {
    if let Err(failure) = steps.give_back(handle).await {
        item.failures.push(failure);
    }
}

/// A key's serialised bytes, through a sign-key handle given back at once.
async fn read_key(steps: &mut Steps<'_>, request: Request) -> Result<Vec<u8>, Failure> {
    let (key, _) = steps
        .lease(request, |k| Request::OnId(Operation::DropSignKey, k))
        .await?;
    let serialised = bytes(steps, Request::OnId(Operation::SerialiseSignKey, key)).await;
    let given_back = steps.give_back(key).await;
    let serialised = serialised?;
    given_back.map(|()| serialised)
}

async fn bytes(steps: &mut Steps<'_>, request: Request) -> Result<Vec<u8>, Failure> {
    match steps.ask(request).await? {
        Reply::Bytes(bytes) => Ok(bytes),
        _ => Err(Failure::new(Class::Unexpected, "the answer is not bytes")),
    }
}

fn error_code(failure: &Failure) -> Option<i64> {
    failure.answer.as_ref().and_then(|answer| answer.error_code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_stay_within_the_list() {
        assert_eq!(IndexRange::ALL.within(3), 0..3);
        let some = IndexRange {
            start: 2,
            end: Some(5),
        };
        assert_eq!(some.within(10), 2..5);
        assert_eq!(some.within(4), 2..4);
        assert_eq!(some.within(1), 1..1);
        assert_eq!(units_at_once(256) * LEASES_PER_UNIT, LEASE_BUDGET);
        assert_eq!(units_at_once(1), 1);
    }
}
