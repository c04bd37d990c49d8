//! Appendable data in the launcher's memory: the data type, its local copies under handles, and
//! every appendable-data call, as safe_core 0.23.0's `src/ffi/low_level_api/appendable_data.rs`
//! did them (the handle cache) with the network's rules from routing 0.28.5's
//! `pub_appendable_data.rs` and `priv_appendable_data.rs`.

use std::collections::BTreeSet;

use super::{nth, Code, DataId, Res, SignKey, State, MAX_DATA_SIZE, NETWORK_BYTES, NO_OWNER};

/// The network address of an appendable data: public and private ones with the same name are
/// different data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct AdKey {
    pub(crate) name: [u8; 32],
    pub(crate) private: bool,
}

/// One data item of an appendable data: what it points at and who appended it. Ordered as
/// routing's `AppendedData` (pointer, then sign key, then the signature, which here follows from
/// the other two), so a set of items is in the network's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Item {
    pub(crate) pointer: DataId,
    pub(crate) signer: SignKey,
    /// Which sealing of a private item this is, 0 for a public one's. The network held a private
    /// item as its sealed bytes (routing's `PrivAppendedData`), and every append sealed afresh (a
    /// sealed box with a new ephemeral key): the same item appended twice was two items, and one
    /// appended again after its removal was not the one in `deleted_data`. Each private append
    /// here takes the next number for its data.
    pub(crate) seal: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FilterType {
    BlackList,
    WhiteList,
}

impl FilterType {
    /// As the launcher wrote it in JSON.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            FilterType::BlackList => "BlackList",
            FilterType::WhiteList => "WhiteList",
        }
    }
}

/// The filter of an appendable data: who may append.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Filter {
    pub(crate) kind: FilterType,
    pub(crate) keys: BTreeSet<SignKey>,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            kind: FilterType::BlackList,
            keys: BTreeSet::new(),
        }
    }
}

impl Filter {
    pub(super) fn allows(&self, key: &SignKey) -> bool {
        match self.kind {
            FilterType::BlackList => !self.keys.contains(key),
            FilterType::WhiteList => self.keys.contains(key),
        }
    }
}

/// An appendable data: what the network stores, and what a handle holds as its local copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ad {
    pub(crate) key: AdKey,
    pub(crate) version: u64,
    pub(crate) data: BTreeSet<Item>,
    pub(crate) deleted: BTreeSet<Item>,
    pub(crate) filter: Filter,
    /// Its owner (routing's `owners`, which the launcher's data always had one of: the key of
    /// the user whose app made it); [`NO_OWNER`] for data read from bytes that name none.
    pub(crate) owner: SignKey,
}

impl Ad {
    /// A new, empty appendable data at version 0, owned by `owner`.
    pub(crate) fn new(key: AdKey, kind: FilterType, owner: SignKey) -> Ad {
        Ad {
            key,
            version: 0,
            data: BTreeSet::new(),
            deleted: BTreeSet::new(),
            filter: Filter {
                kind,
                keys: BTreeSet::new(),
            },
            owner,
        }
    }

    /// An estimate of its size on the network: a header, 32 bytes per filter key, and per item its
    /// pointer, signer and signature.
    pub(super) fn size(&self) -> usize {
        128 + 32 * self.filter.keys.len() + 140 * (self.data.len() + self.deleted.len())
    }

    /// Its size as routing 0.28.5 measured it (`validate_size`: the bincode length of a
    /// `PubAppendableData` or `PrivAppendableData`), which the network stored only up to
    /// [`MAX_DATA_SIZE`]: the length of what `GET /appendable-data/serialise` writes for it
    /// (`serialised`'s tests check that the two agree), counted without writing it. A private
    /// item is sealed: 48 bytes more, in a byte string of its own.
    pub(crate) fn network_size(&self) -> usize {
        let private = usize::from(self.key.private);
        let item = |item: &Item| private * (LENGTH + SEALED) + item_size(item);
        let items = |set: &BTreeSet<Item>| LENGTH + set.iter().map(item).sum::<usize>();
        let filter = TAG + LENGTH + KEY * self.filter.keys.len();
        // One owner and its signature; none for data of no owner.
        let owned = usize::from(self.owner != NO_OWNER);
        // name, version, filter, (encrypt key), deleted data, owners, signatures (the owner's key
        // and signature), data.
        32 + 8
            + filter
            + private * KEY
            + items(&self.deleted)
            + (LENGTH + owned * KEY)
            + (LENGTH + owned * (KEY + SIGNATURE))
            + items(&self.data)
    }

    /// Whether the network would store it: [`Ad::network_size`] within [`MAX_DATA_SIZE`]
    /// (routing's `MAX_PUB_APPENDABLE_DATA_SIZE_IN_BYTES` and
    /// `MAX_PRIV_APPENDABLE_DATA_SIZE_IN_BYTES`); -29 `DataTooLarge` otherwise, as the network
    /// refused a save or an append past it.
    pub(crate) fn check_size(&self) -> Res<()> {
        match self.network_size() <= MAX_DATA_SIZE {
            true => Ok(()),
            false => Err(Code::DATA_TOO_LARGE),
        }
    }

    /// At least the bytes it takes in a `--state` file (pretty-printed JSON: a 44-character base64
    /// name, up to 20 digits per number, an item's two names and a signer): what
    /// [`NETWORK_BYTES`] counts. `wire`'s tests check that the JSON never takes more.
    pub(crate) fn file_size(&self) -> usize {
        320 + 64 * self.filter.keys.len() + 320 * (self.data.len() + self.deleted.len())
    }
}

/// bincode's length of a sequence or byte string, and of an enum's tag.
const LENGTH: usize = 8;
const TAG: usize = 4;
/// A public key (32 bytes) and a signature (64), each a byte string.
const KEY: usize = LENGTH + 32;
const SIGNATURE: usize = LENGTH + 64;
/// What a sealed box adds to the item it seals (its ephemeral key and MAC).
const SEALED: usize = 48;

/// The bincode length of routing's `AppendedData` for an item: its data identifier (a tag, a
/// name, and a structured data's type tag), the signer's key and the signature.
fn item_size(item: &Item) -> usize {
    let type_tag = match item.pointer {
        DataId::Structured(_) => 8,
        DataId::Immutable(_) | DataId::Appendable(_) => 0,
    };
    TAG + 32 + type_tag + KEY + SIGNATURE
}

/// What `GET /appendable-data/metadata/:h` and the fetch routes report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Metadata {
    pub(crate) is_owner: bool,
    pub(crate) version: u64,
    pub(crate) filter_type: FilterType,
    pub(crate) filter_length: usize,
    pub(crate) data_length: usize,
    pub(crate) deleted_data_length: usize,
}

/// A local copy under an appendable-data handle: the data and whether it is private.
#[derive(Debug, Clone)]
pub(super) struct LocalAd {
    pub(super) ad: Ad,
}

impl State {
    /// Puts a local copy under a new handle.
    pub(crate) fn add_local(&mut self, ad: Ad) -> u64 {
        let id = self.allocate();
        let size = ad.size();
        self.me.ads.insert(id, LocalAd { ad }, size);
        id
    }

    /// Counts the new size of a local copy after a change that may have grown it.
    pub(super) fn resized_ad(&mut self, handle: u64) {
        if let Some(size) = self
            .me
            .ads
            .entries
            .get(&handle)
            .map(|(local, _, _)| local.ad.size())
        {
            self.me.ads.resize(handle, size);
        }
    }

    /// Whether an appendable-data handle is live (does not count as a use).
    pub(crate) fn has_ad(&self, handle: u64) -> bool {
        self.me.ads.contains(handle)
    }

    pub(super) fn ad(&mut self, handle: u64) -> Res<&mut Ad> {
        self.me
            .ads
            .get_mut(handle)
            .map(|local| &mut local.ad)
            .ok_or(Code::INVALID_AD_HANDLE)
    }

    // ---- appendable data -----------------------------------------------------------------

    /// `POST /appendable-data`: a new local appendable data at version 0, not stored, owned by
    /// the acting user (`appendable_data_new_pub` and `..._new_priv` took the client's key).
    pub(crate) fn create(&mut self, key: AdKey, kind: FilterType) -> u64 {
        let owner = self.me.user.key;
        self.add_local(Ad::new(key, kind, owner))
    }

    /// `PUT /appendable-data/:h`: store the local copy; -1515 unknown handle, -23 already stored,
    /// -29 past the network's size ([`Ad::check_size`]), the emulator's [`Code::VERSION_LIMIT`] for a copy (deserialised) past [`LAST_VERSION`](super::LAST_VERSION).
    pub(crate) fn put(&mut self, handle: u64) -> Res<()> {
        let ad = self.ad(handle)?.clone();
        if self.ads_stored.contains_key(&ad.key) {
            return Err(Code::DATA_EXISTS);
        }
        State::check_version(Some(ad.version))?;
        ad.check_size()?;
        self.check_network(0, ad.file_size())?;
        self.store(ad);
        Ok(())
    }

    /// `POST /appendable-data/:h`: -1515 unknown handle, -22 not stored, -25 when the network
    /// version is not the local version (someone else posted since this copy was taken) or the
    /// acting user does not own the data on the network (see below), -29
    /// when what the network would keep is past its size ([`Ad::check_size`]), the
    /// emulator's [`Code::VERSION_LIMIT`] when it is [`LAST_VERSION`](super::LAST_VERSION) (the
    /// launcher saved 2^64 - 1 too; past it, its version + 1 overflowed).
    ///
    /// The new version is local + 1 and carries the local `deleted_data` and filter and no data
    /// (safe_core's `appendable_data_post` with `include_data` false, as the launcher called
    /// it): the network keeps its items minus those in the new `deleted_data` (routing's
    /// `update_with_other`). On success the handle's copy IS that data-less version: the same
    /// handle can post again, and reports `dataLength` 0 until the data is fetched again.
    ///
    /// Only the owner saves: safe_core signed the new version with the app's own key, and
    /// routing's `validate_self_against_successor` (called by `update_with_other`) checked it with
    /// `verify_signatures` against the stored data's owners, which fails (`FailedSignature`) for a
    /// key that is not one of them (and `InvalidOwners` where the owner is `NO_OWNER_PUB_KEY`);
    /// safe_core's mock network answered every failure of `update_with_other` with
    /// `MutationError::InvalidSuccessor`, -25, and so does the emulator. A clear, a removal or a
    /// filter edit of another's data changes the copy and fails here, at its save.
    pub(crate) fn post(&mut self, handle: u64) -> Res<()> {
        let local = self.ad(handle)?.clone();
        let me = self.me.user.key;
        let stored = self.ads_stored.get(&local.key).ok_or(Code::NO_SUCH_DATA)?;
        if stored.version != local.version || stored.owner != me || stored.owner == NO_OWNER {
            return Err(Code::INVALID_SUCCESSOR);
        }
        let version = State::check_version(local.version.checked_add(1))?;
        let mut data = stored.data.clone();
        data.retain(|item| !local.deleted.contains(item));
        // The copy's owners go with it (safe_core's `PubAppendableData::new` took
        // `old_data.owners`), and routing keeps the successor's owners.
        let saved = Ad {
            key: local.key,
            version,
            data,
            deleted: local.deleted,
            filter: local.filter,
            owner: local.owner,
        };
        // The network keeps what routing's `update_with_other` leaves, which holds at least
        // what was sent (its filter and deleted items): sized whole.
        saved.check_size()?;
        self.check_network(stored.file_size(), saved.file_size())?;
        let copy = self.ad(handle)?;
        copy.version = version;
        copy.data.clear();
        self.store(saved);
        self.resized_ad(handle);
        Ok(())
    }

    /// `DELETE /appendable-data/clear-data/:h`: every data item moves to `deleted_data` (local).
    pub(crate) fn clear_data(&mut self, handle: u64) -> Res<()> {
        let ad = self.ad(handle)?;
        let items = std::mem::take(&mut ad.data);
        ad.deleted.extend(items);
        Ok(())
    }

    /// `DELETE /appendable-data/clear-deleted-data/:h`: `deleted_data` is emptied (local).
    pub(crate) fn clear_deleted_data(&mut self, handle: u64) -> Res<()> {
        self.ad(handle)?.deleted.clear();
        Ok(())
    }

    /// `GET /appendable-data/metadata/:h`. `authorised`: the request carried a valid token
    /// (without one the launcher reported `isOwner: false`); with one, `isOwner` is whether the
    /// acting user owns the copy (`appendable_data_is_owned`: the owners hold the app's key).
    pub(crate) fn metadata(&mut self, handle: u64, authorised: bool) -> Res<Metadata> {
        let me = self.me.user.key;
        Ok(metadata_of(self.ad(handle)?, authorised, &me))
    }

    /// `GET /appendable-data/handle/:dataIdHandle`: a fresh local copy of what the network holds,
    /// under a new handle. -1514 unknown data id, -18 (404) not on the network, -5 the id of
    /// other data that is.
    pub(crate) fn fetch(&mut self, data_id: u64, authorised: bool) -> Res<(u64, Metadata)> {
        let key = match self.data_id(data_id)? {
            DataId::Appendable(key) => key,
            other => return Err(self.other_kind(&other)),
        };
        let ad = self
            .ads_stored
            .get(&key)
            .ok_or(Code::GET_NO_SUCH_DATA)?
            .clone();
        let meta = metadata_of(&ad, authorised, &self.me.user.key);
        Ok((self.add_local(ad), meta))
    }

    /// `PUT /appendable-data/:h/:dataIdHandle`: appends the data id, signed by the acting user
    /// (`AppendedData::new` took the client's sign key), on the network (not to the local copy),
    /// whoever owns the data. -1514, -1515, -22 (404) when the data is not stored, -25 when the
    /// handle is stale, the filter keeps the appender's key out (routing's `append` checked the
    /// item's `sign_key`, and a private one the wrapper's), or (public data) the item is in
    /// `deleted_data` or `data` already; -29 when the item would take the data past the
    /// network's size ([`Ad::check_size`]: about 650 items of structured data). Private data takes any item again, as a new sealing
    /// ([`Item::seal`]): a second copy beside one in `data`, a new one beside the removed one in
    /// `deleted_data` (routing's `PrivAppendableData::append` compares sealed bytes), which a
    /// later POST carrying that `deleted_data` leaves in place.
    pub(crate) fn append(&mut self, handle: u64, data_id: u64) -> Res<()> {
        // safe_core's `appendable_data_append` looks the data id up before the appendable data.
        let pointer = self.data_id(data_id)?;
        let me = self.me.user.key;
        let (key, version) = {
            let ad = self.ad(handle)?;
            (ad.key, ad.version)
        };
        let stored = self.ads_stored.get_mut(&key).ok_or(Code::NO_SUCH_DATA)?;
        let seal = if key.private {
            // A new sealing: unlike any of this data's items.
            let sealed = stored.data.iter().chain(&stored.deleted);
            sealed
                .map(|item| item.seal)
                .max()
                .unwrap_or(0)
                .saturating_add(1)
        } else {
            0
        };
        let item = Item {
            pointer,
            signer: me,
            seal,
        };
        if stored.version != version
            || !stored.filter.allows(&me)
            || stored.deleted.contains(&item)
            // routing's `append` inserts into a set and refuses an item already in it (the mock
            // network answered InvalidSuccessor); a new private sealing never is.
            || stored.data.contains(&item)
        {
            return Err(Code::INVALID_SUCCESSOR);
        }
        let old = stored.file_size();
        if self.network_bytes + 320 > NETWORK_BYTES {
            return Err(Code::NETWORK_FULL);
        }
        stored.data.insert(item);
        if let Err(too_large) = stored.check_size() {
            // The network refused the data the item would have grown past its size.
            stored.data.remove(&item);
            return Err(too_large);
        }
        self.network_bytes = self.network_bytes - old + stored.file_size();
        Ok(())
    }

    /// `GET /appendable-data/:h/:index` and `.../deleted-data/:h/:index`: a new data-id handle
    /// for the n-th item. A private item needs keys to open it ([`State::open`]).
    pub(crate) fn data_id_at(
        &mut self,
        handle: u64,
        index: u64,
        deleted: bool,
        authorised: bool,
    ) -> Res<u64> {
        let item = self.open(handle, index, deleted, authorised)?;
        Ok(self.new_data_id(item.pointer))
    }

    /// `GET /appendable-data/sign-key/[deleted-data/]:h/:index`: a sign-key handle for the
    /// signer of the n-th item (a private one opened as [`State::data_id_at`] opens it).
    pub(crate) fn signer_at(&mut self, handle: u64, index: u64, deleted: bool) -> Res<u64> {
        let item = self.open(handle, index, deleted, true)?;
        Ok(self.new_sign_key(item.signer))
    }

    /// The n-th item of a copy, as safe_core's `appendable_data_nth_data_id_impl` and
    /// `..._nth_sign_key_impl` reached it: -1524 past the end; for private data, -1520 for an
    /// anonymous app (`app.asym_keys()`: it has none), and -11 (`CoreError::RoutingError` around
    /// `AsymmetricDecryptionFailure`) when the acting user is not the owner the items were sealed
    /// for: `PrivAppendedData::open` with another's keys fails.
    fn open(&mut self, handle: u64, index: u64, deleted: bool, authorised: bool) -> Res<Item> {
        let me = self.me.user.key;
        let ad = self.ad(handle)?;
        let section = if deleted { &ad.deleted } else { &ad.data };
        let item = nth(section, index)?;
        if ad.key.private && !authorised {
            return Err(Code::FORBIDDEN_FOR_APP);
        }
        if ad.key.private && ad.owner != me {
            return Err(Code::ROUTING_ERROR);
        }
        Ok(item)
    }

    /// `GET /appendable-data/filter/:h/:index`: a sign-key handle for the n-th filter key.
    pub(crate) fn filter_key_at(&mut self, handle: u64, index: u64) -> Res<u64> {
        let key = nth(&self.ad(handle)?.filter.keys, index)?;
        Ok(self.new_sign_key(key))
    }

    /// `PUT /appendable-data/toggle-filter/:h`: the other filter type, with no keys (local).
    pub(crate) fn toggle_filter(&mut self, handle: u64) -> Res<()> {
        let filter = &mut self.ad(handle)?.filter;
        filter.kind = match filter.kind {
            FilterType::BlackList => FilterType::WhiteList,
            FilterType::WhiteList => FilterType::BlackList,
        };
        filter.keys.clear();
        Ok(())
    }

    /// Adds (or removes) the key behind a sign-key handle to the filter (local). The sign key is
    /// looked up first.
    pub(crate) fn edit_filter(&mut self, handle: u64, sign_key: u64, add: bool) -> Res<()> {
        let key = self.sign_key(sign_key)?;
        let keys = &mut self.ad(handle)?.filter.keys;
        if add {
            keys.insert(key);
        } else {
            keys.remove(&key);
        }
        self.resized_ad(handle);
        Ok(())
    }

    /// `DELETE /appendable-data/:h/:index`: moves one data item to `deleted_data` (local).
    pub(crate) fn remove_at(&mut self, handle: u64, index: u64) -> Res<()> {
        let ad = self.ad(handle)?;
        let item = nth(&ad.data, index)?;
        ad.data.remove(&item);
        ad.deleted.insert(item);
        Ok(())
    }

    /// `PUT /appendable-data/restore/:h/:index`: moves one deleted item back to the data (local).
    pub(crate) fn restore(&mut self, handle: u64, index: u64) -> Res<()> {
        let ad = self.ad(handle)?;
        let item = nth(&ad.deleted, index)?;
        ad.deleted.remove(&item);
        ad.data.insert(item);
        Ok(())
    }

    /// `DELETE /appendable-data/deleted-data/:h/:index`: forgets one deleted item (local).
    pub(crate) fn remove_deleted_at(&mut self, handle: u64, index: u64) -> Res<()> {
        let ad = self.ad(handle)?;
        let item = nth(&ad.deleted, index)?;
        ad.deleted.remove(&item);
        Ok(())
    }

    /// `DELETE /appendable-data/handle/:h`: drops the handle; -1515 when it is not live.
    pub(crate) fn drop_ad(&mut self, handle: u64) -> Res<()> {
        self.me
            .ads
            .remove(handle)
            .map(drop)
            .ok_or(Code::INVALID_AD_HANDLE)
    }

    /// `GET /appendable-data/data-id/:h`: a data-id handle naming this appendable data.
    pub(crate) fn ad_data_id(&mut self, handle: u64) -> Res<u64> {
        let key = self.ad(handle)?.key;
        Ok(self.new_data_id(DataId::Appendable(key)))
    }

    /// `GET /appendable-data/validate-size/:h`.
    pub(crate) fn ad_size_valid(&mut self, handle: u64) -> Res<bool> {
        Ok(self.ad(handle)?.network_size() <= MAX_DATA_SIZE)
    }

    /// The local copy behind a handle (`serialise`).
    pub(crate) fn ad_copy(&mut self, handle: u64) -> Res<Ad> {
        self.ad(handle).cloned()
    }

    /// `GET /appendable-data/encrypt-key/:h`: an encrypt-key handle of private data; -1525 for
    /// public data.
    pub(crate) fn encrypt_key(&mut self, handle: u64) -> Res<u64> {
        let key = self.ad(handle)?.key;
        if !key.private {
            return Err(Code::UNSUPPORTED);
        }
        let id = self.allocate();
        self.me.encrypt_keys.insert(id, key, 0);
        Ok(id)
    }
}

fn metadata_of(ad: &Ad, authorised: bool, me: &SignKey) -> Metadata {
    Metadata {
        // The launcher asked the core only for a request with a session; an anonymous caller
        // owns nothing.
        is_owner: authorised && ad.owner == *me,
        version: ad.version,
        filter_type: ad.filter.kind,
        filter_length: ad.filter.keys.len(),
        data_length: ad.data.len(),
        deleted_data_length: ad.deleted.len(),
    }
}
