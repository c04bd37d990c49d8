//! `capture`: what the named appendable data hold, and what their items point at, gathered into
//! what a fixture of the emulator holds ([`Capture`]), with a record of what could not be
//! ([`LeftOut`]).
//!
//! Each appendable data is read as `show --full` reads a handle (`show::handle` and
//! `show::which`), on a fresh copy the caller takes for its name and gives back
//! (`commands::on_copy`): this module only turns what was read into the fixture's pieces and
//! says which appendable data to read next. Items that point at public appendable data bring
//! that data in too, breadth first, each name once (a loop of items ends), at most
//! [`MAX_DEPTH`] steps from a name given and [`MAX_DATA`] in all. Nothing here renders:
//! `report` writes the fixture and the words about what was left out.

use std::collections::{BTreeMap, HashSet, VecDeque};

use super::show::{self, IndexRange, Kind, Parts, Section, ShowOptions, Shown, ShownItem};
use super::Sending;
use crate::handle::Handle;
use crate::launcher::{FilterType, Operation, Request, Slot};
use crate::name::Name;
use crate::outcome::Failure;
use crate::wire::{DataId, DataKind, SignKey};
use safe_ad_emulator::LAST_FIXTURE_VERSION;

/// The most steps through items from a name given to appendable data captured.
pub const MAX_DEPTH: u32 = 8;

/// The most appendable data one capture reads.
pub const MAX_DATA: usize = 1000;

/// How each appendable data is read: every part of it, content whole.
const READ: ShowOptions = ShowOptions {
    range: IndexRange::ALL,
    full: true,
    parts: Parts::ALL,
};

/// Reads the data behind `handle` (a name's fresh copy) as `show --full` does.
pub async fn read(sending: Sending<'_>, handle: Handle) -> Shown {
    let mut shown = show::handle(sending, handle, READ, |_, _| {}).await;
    show::which(sending, &mut shown).await;
    shown
}

/// What `--dry-run` lists: your key's read, then for each name its copy taken, its metadata
/// and serialised bytes read, and the copy given back. The reads of the items (and of the data
/// they point at) depend on the answers.
pub fn plan(names: &[Name]) -> Vec<Vec<Request<Slot>>> {
    let key = Slot::FromAnswer("handleId");
    let copy = Slot::FromAnswer(super::COPY);
    let mut chains = vec![vec![
        Request::UserSignKey,
        Request::OnId(Operation::SerialiseSignKey, key),
        Request::OnId(Operation::DropSignKey, key),
    ]];
    for name in unique(names) {
        chains.push(super::on_a_copy(
            name,
            [
                Request::OnHandle(Operation::Metadata, copy),
                Request::OnHandle(Operation::Serialise, copy),
            ],
        ));
    }
    chains
}

/// The names given, each once, in their order.
pub fn unique(names: &[Name]) -> Vec<Name> {
    let mut seen = HashSet::new();
    names
        .iter()
        .copied()
        .filter(|name| seen.insert(*name))
        .collect()
}

/// An appendable data as the fixture holds it.
#[derive(Debug)]
pub struct CapturedData {
    pub name: Name,
    /// Its owner where that is not you (`None`: you, whom the emulator's first user stands for),
    /// written as the fixture's `ownerKey`, so that another's data stays another's.
    pub owner: Option<SignKey>,
    pub version: u64,
    pub filter_type: FilterType,
    pub filter_keys: Vec<SignKey>,
    pub data: Vec<CapturedItem>,
    pub deleted: Vec<CapturedItem>,
}

/// An item: what it points at, and who signed it (`None`: you, which the fixture leaves out so
/// that the emulator's own user signed it).
#[derive(Debug)]
pub struct CapturedItem {
    pub pointer: DataId,
    pub signer: Option<SignKey>,
}

/// Structured data an item points at: its latest version's content.
#[derive(Debug)]
pub struct CapturedStructured {
    pub name: Name,
    pub type_tag: u64,
    pub version: u64,
    pub content: Vec<u8>,
}

/// Immutable data an item points at: the cipher that gives it its name in the emulator.
#[derive(Debug)]
pub struct CapturedImmutable {
    pub cipher: &'static str,
    pub content: Vec<u8>,
}

/// Where in an appendable data a thing left out was found.
#[derive(Debug, Clone, Copy)]
pub struct Place {
    pub of: Name,
    pub section: Section,
    pub index: u64,
}

/// What was left out.
#[derive(Debug)]
pub enum Subject {
    /// An appendable data, named or reached through an item: not in the fixture.
    Data(Name),
    /// Something of an appendable data that is in the fixture (its owner).
    OwnerOf(Name),
    /// An item itself, which could not be read well enough to be written.
    Item(Place),
    /// A filter key that could not be read.
    FilterKey(Name, u64),
    /// What an item points at (the item is in the fixture).
    Pointed(DataId, Place),
}

/// Why.
#[derive(Debug)]
pub enum Why {
    /// Private data: a copy is taken of public data only.
    Private,
    /// Not on the network: nothing to capture (the item still points at it).
    NotOnNetwork,
    /// Its copy could not be taken (the failure was said with the copy's words).
    NotTaken,
    /// A read failed.
    Failed(Failure),
    /// Bytes that are not in launcher 0.11.0's layout.
    Undecodable(String),
    /// Further than [`MAX_DEPTH`] steps from a name given.
    TooDeep,
    /// Past [`MAX_DATA`] appendable data.
    TooMany,
    /// Versioned structured data: only the latest of this many versions is kept.
    OlderVersions(u64),
    /// Immutable data larger than one answer: its content was not read.
    TooLarge(u64),
    /// Immutable data whose name is not the one the emulator gives its content with any
    /// cipher (written by another launcher).
    NamedElsewhere,
    /// Data at a version past the last a fixture may hold (2^64 - 1, which `--import` refuses:
    /// no save could follow it): left out, so that the fixture written loads.
    PastLastVersion(u64),
}

/// One thing left out, and why.
#[derive(Debug)]
pub struct LeftOut {
    pub subject: Subject,
    pub why: Why,
}

/// What a capture gathered, and what it could not.
#[derive(Debug, Default)]
pub struct Capture {
    pub appendable: Vec<CapturedData>,
    pub structured: BTreeMap<(Name, u64), CapturedStructured>,
    pub immutable: BTreeMap<Name, CapturedImmutable>,
    pub left_out: Vec<LeftOut>,
    /// Appendable data to read, with how many steps from a name given.
    pending: VecDeque<(Name, u32)>,
    /// Every appendable data read or to be read, and every pointer dealt with.
    seen: HashSet<Name>,
    pointed: HashSet<DataId>,
}

impl Capture {
    /// A capture of `names` (each once).
    pub fn new(names: &[Name]) -> Capture {
        let mut capture = Capture::default();
        for name in unique(names) {
            capture.seen.insert(name);
            capture.pending.push_back((name, 0));
        }
        capture
    }

    /// The next appendable data to read, and its steps from a name given.
    pub fn next(&mut self) -> Option<(Name, u32)> {
        self.pending.pop_front()
    }

    /// The copy of `name` could not be taken.
    pub fn not_taken(&mut self, name: Name) {
        self.leave(Subject::Data(name), Why::NotTaken);
    }

    fn leave(&mut self, subject: Subject, why: Why) {
        self.left_out.push(LeftOut { subject, why });
    }

    /// Adds what was read of `name` (`depth` steps from a name given); `you` is your own key,
    /// serialised, when it could be read.
    pub fn add(&mut self, name: Name, depth: u32, shown: Shown, you: Option<&[u8]>) {
        let metadata = match shown.metadata {
            Ok(metadata) => metadata,
            Err(failure) => return self.leave(Subject::Data(name), Why::Failed(failure)),
        };
        if metadata.version > LAST_FIXTURE_VERSION {
            let why = Why::PastLastVersion(metadata.version);
            return self.leave(Subject::Data(name), why);
        }
        let you = you.and_then(|bytes| SignKey::decode(bytes).ok());
        let mut owner = None;
        match shown.which.as_deref() {
            // Another's data stays another's: its first owner's key goes in the fixture (the
            // launcher's data has one owner; the emulator's has one).
            Some(show::WhichRead::Read(which))
                if you.is_some_and(|you| !which.owners.contains(&you)) =>
            {
                owner = which.owners.first().copied();
            }
            Some(show::WhichRead::Failed(failure)) => {
                self.leave(Subject::OwnerOf(name), Why::Failed(failure.clone()))
            }
            Some(show::WhichRead::Undecoded(error)) => {
                self.leave(Subject::OwnerOf(name), Why::Undecodable(error.to_string()))
            }
            Some(show::WhichRead::Read(_)) | None => {}
        }
        let mut filter_keys = Vec::new();
        for key in shown.filter {
            match key_of(key.key.as_deref(), key.failures) {
                Ok(key) => filter_keys.push(key),
                Err(why) => self.leave(Subject::FilterKey(name, key.index), why),
            }
        }
        let mut lists = [Vec::new(), Vec::new()];
        for (list, items) in lists.iter_mut().zip([shown.data, shown.deleted]) {
            for item in items {
                if let Some(item) = self.item(name, depth, item, you) {
                    list.push(item);
                }
            }
        }
        let [data, deleted] = lists;
        self.appendable.push(CapturedData {
            name,
            owner,
            version: metadata.version,
            filter_type: metadata.filter_type,
            filter_keys,
            data,
            deleted,
        });
    }

    /// One item: written when what it points at and who signed it are known; what it points
    /// at is taken in too, or said to be left out.
    fn item(
        &mut self,
        of: Name,
        depth: u32,
        item: ShownItem,
        you: Option<SignKey>,
    ) -> Option<CapturedItem> {
        let place = Place {
            of,
            section: item.section,
            index: item.index,
        };
        let mut failures = item.failures.into_iter();
        let pointer = match item.pointer {
            Some(Ok(pointer)) => pointer,
            Some(Err(error)) => {
                self.leave(Subject::Item(place), Why::Undecodable(error.to_string()));
                return None;
            }
            None => {
                let why = failures.next().map_or(Why::NotTaken, Why::Failed);
                self.leave(Subject::Item(place), why);
                return None;
            }
        };
        let signer = match SignKey::decode(item.signer.as_deref().unwrap_or_default()) {
            Ok(key) => key,
            Err(error) => {
                let why = match (item.signer, failures.next()) {
                    (None, Some(failure)) => Why::Failed(failure),
                    _ => Why::Undecodable(error.to_string()),
                };
                self.leave(Subject::Item(place), why);
                return None;
            }
        };
        let captured = CapturedItem {
            pointer,
            signer: (Some(signer) != you).then_some(signer),
        };
        if !self.pointed.insert(pointer) {
            return Some(captured);
        }
        let pointed = |why| (Subject::Pointed(pointer, place), why);
        let left = if item.missing {
            Some(pointed(Why::NotOnNetwork))
        } else if let Some(failure) = failures.next() {
            // Read again where it is pointed at from elsewhere: this failure may not repeat.
            self.pointed.remove(&pointer);
            Some(pointed(Why::Failed(failure)))
        } else {
            match (pointer.kind, item.kind) {
                (DataKind::PrivAppendable, _) => Some(pointed(Why::Private)),
                (DataKind::PubAppendable, _) => self.reached(pointer.name, depth + 1, place),
                (DataKind::Structured, Some(Kind::Structured { version, .. }))
                    if version > LAST_FIXTURE_VERSION =>
                {
                    Some(pointed(Why::PastLastVersion(version)))
                }
                (DataKind::Structured, Some(Kind::Structured { version, versions })) => {
                    let type_tag = pointer.type_tag.unwrap_or_default();
                    let content = item.content.unwrap_or_default();
                    self.structured.insert(
                        (pointer.name, type_tag),
                        CapturedStructured {
                            name: pointer.name,
                            type_tag,
                            version,
                            content,
                        },
                    );
                    versions
                        .filter(|versions| *versions > 1)
                        .map(|versions| pointed(Why::OlderVersions(versions)))
                }
                (DataKind::Immutable, Some(Kind::Immutable { size })) if item.unread => {
                    Some(pointed(Why::TooLarge(size)))
                }
                (DataKind::Immutable, Some(Kind::Immutable { .. })) => {
                    let content = item.content.unwrap_or_default();
                    match safe_ad_emulator::fixture_cipher(pointer.name.bytes(), &content) {
                        Some(cipher) => {
                            let data = CapturedImmutable { cipher, content };
                            self.immutable.insert(pointer.name, data);
                            None
                        }
                        None => Some(pointed(Why::NamedElsewhere)),
                    }
                }
                // The launcher said it is another kind than its data id says.
                _ => Some(pointed(Why::Undecodable(
                    "the launcher's answer is not of the kind the data id names".into(),
                ))),
            }
        };
        if let Some((subject, why)) = left {
            self.leave(subject, why);
        }
        Some(captured)
    }

    /// Public appendable data an item points at: to be read, unless it was, or is too far.
    fn reached(&mut self, name: Name, depth: u32, place: Place) -> Option<(Subject, Why)> {
        if self.seen.contains(&name) {
            return None;
        }
        let data = DataId {
            kind: DataKind::PubAppendable,
            name,
            type_tag: None,
        };
        if depth > MAX_DEPTH {
            return Some((Subject::Pointed(data, place), Why::TooDeep));
        }
        if self.seen.len() >= MAX_DATA {
            return Some((Subject::Pointed(data, place), Why::TooMany));
        }
        self.seen.insert(name);
        self.pending.push_back((name, depth));
        None
    }

    /// The first read that failed, for the exit code.
    pub fn first_failure(&self) -> Option<&Failure> {
        self.left_out.iter().find_map(|left| match &left.why {
            Why::Failed(failure) => Some(failure),
            _ => None,
        })
    }
}

/// A key from its serialised bytes, or why not.
fn key_of(bytes: Option<&[u8]>, failures: Vec<Failure>) -> Result<SignKey, Why> {
    match (bytes, failures.into_iter().next()) {
        (Some(bytes), _) => SignKey::decode(bytes).map_err(|e| Why::Undecodable(e.to_string())),
        (None, Some(failure)) => Err(Why::Failed(failure)),
        (None, None) => Err(Why::NotTaken),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launcher::Metadata;
    use crate::wire::DataId;

    fn name(byte: u8) -> Name {
        Name::from_bytes([byte; 32])
    }

    fn item(index: u64, pointer: DataId, signer: SignKey, kind: Option<Kind>) -> ShownItem {
        ShownItem {
            data_id: Some(pointer.encode()),
            pointer: Some(Ok(pointer)),
            kind,
            content: Some(b"content".to_vec()),
            signer: Some(signer.serialised()),
            ..ShownItem::at(Section::Data, index)
        }
    }

    fn shown(owner: SignKey, data: Vec<ShownItem>) -> Shown {
        Shown {
            handle: Handle(9),
            metadata: Ok(Metadata {
                is_owner: true,
                version: 3,
                filter_type: FilterType::BlackList,
                filter_length: 0,
                data_length: data.len() as u64,
                deleted_data_length: 0,
            }),
            which: Some(Box::new(show::WhichRead::Read(show::Which {
                name: name(1),
                private: false,
                owners: vec![owner],
            }))),
            filter: Vec::new(),
            data,
            deleted: Vec::new(),
            steps: Vec::new(),
        }
    }

    fn appendable(byte: u8) -> DataId {
        DataId {
            kind: DataKind::PubAppendable,
            name: name(byte),
            type_tag: None,
        }
    }

    /// Data owned by another key is captured with its owner's key, nothing left out; an item
    /// you signed is written without its key (the emulator's user signs it), another's with it.
    #[test]
    fn an_owner_not_you_is_kept_and_your_items_stay_yours() {
        let (you, other) = (SignKey([5; 32]), SignKey([6; 32]));
        let mut capture = Capture::new(&[name(1)]);
        assert_eq!(capture.next(), Some((name(1), 0)));
        let items = vec![
            item(0, appendable(1), you, None),
            item(1, appendable(1), other, None),
        ];
        capture.add(name(1), 0, shown(other, items), Some(&you.serialised()));
        assert_eq!(capture.appendable.len(), 1);
        let data = &capture.appendable[0].data;
        assert_eq!((data[0].signer, data[1].signer), (None, Some(other)));
        assert_eq!(capture.appendable[0].owner, Some(other));
        assert!(capture.left_out.is_empty(), "{:?}", capture.left_out);
        // Itself, pointed at twice: already read, so nothing more to read.
        assert_eq!(capture.next(), None);
    }

    /// Appendable data is read once however many items point at it, and not past the depth
    /// bound; immutable data the emulator would name otherwise is left out, not mis-named.
    #[test]
    fn pointed_data_is_read_once_within_the_bound_and_foreign_names_are_left_out() {
        let you = SignKey([5; 32]);
        let mut capture = Capture::new(&[name(1)]);
        capture.next();
        let immutable = DataId {
            kind: DataKind::Immutable,
            name: name(7),
            type_tag: None,
        };
        let items = vec![
            item(0, appendable(2), you, None),
            item(1, appendable(2), you, None),
            item(2, immutable, you, Some(Kind::Immutable { size: 7 })),
        ];
        capture.add(name(1), 0, shown(you, items), Some(&you.serialised()));
        assert_eq!(capture.next(), Some((name(2), 1)));
        assert_eq!(capture.next(), None);
        assert!(capture.immutable.is_empty());
        assert!(matches!(
            &capture.left_out[..],
            [LeftOut {
                subject: Subject::Pointed(pointer, _),
                why: Why::NamedElsewhere,
            }] if *pointer == immutable
        ));
        let deep = vec![item(0, appendable(3), you, None)];
        capture.add(
            name(2),
            MAX_DEPTH,
            shown(you, deep),
            Some(&you.serialised()),
        );
        assert_eq!(capture.next(), None);
        assert!(matches!(
            capture.left_out.last(),
            Some(LeftOut {
                why: Why::TooDeep,
                ..
            })
        ));
    }

    /// Data at a version `--import` refuses (2^64 - 1) is left out, saying its version, rather
    /// than written into a fixture that would not load; so is structured data an item points
    /// at, the item kept (as for data not on the network). 2^64 - 2 is written.
    #[test]
    fn data_past_the_last_fixture_version_is_left_out_and_the_last_one_written() {
        let you = SignKey([5; 32]);
        let mut capture = Capture::new(&[name(1), name(2)]);
        let mut past = shown(you, Vec::new());
        if let Ok(metadata) = &mut past.metadata {
            metadata.version = u64::MAX;
        }
        capture.add(name(1), 0, past, Some(&you.serialised()));
        assert!(capture.appendable.is_empty());
        assert!(matches!(
            &capture.left_out[..],
            [LeftOut {
                subject: Subject::Data(left),
                why: Why::PastLastVersion(u64::MAX),
            }] if *left == name(1)
        ));
        let structured = |byte| DataId {
            kind: DataKind::Structured,
            name: name(byte),
            type_tag: Some(500),
        };
        let kind = |version| {
            Some(Kind::Structured {
                version,
                versions: None,
            })
        };
        let items = vec![
            item(0, structured(8), you, kind(u64::MAX)),
            item(1, structured(9), you, kind(LAST_FIXTURE_VERSION)),
        ];
        let mut last = shown(you, items);
        if let Ok(metadata) = &mut last.metadata {
            metadata.version = LAST_FIXTURE_VERSION;
        }
        capture.add(name(2), 0, last, Some(&you.serialised()));
        assert_eq!(capture.appendable.len(), 1);
        assert_eq!(capture.appendable[0].version, LAST_FIXTURE_VERSION);
        assert_eq!(capture.appendable[0].data.len(), 2, "both items kept");
        let kept: Vec<u64> = capture.structured.values().map(|sd| sd.version).collect();
        assert_eq!(kept, [LAST_FIXTURE_VERSION]);
        assert!(matches!(
            capture.left_out.last(),
            Some(LeftOut {
                subject: Subject::Pointed(pointer, _),
                why: Why::PastLastVersion(u64::MAX),
            }) if *pointer == structured(8)
        ));
    }
}
