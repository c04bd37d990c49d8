//! The launcher's memory, as the emulator keeps it: the "network" (appendable data stored by name),
//! the handle cache of local copies and data identifiers, and the sessions (tokens).
//!
//! Everything here is plain synchronous data with no HTTP in it; `routes` locks it, calls one
//! method, and turns the result into a response. Failures are the storage core's negative error
//! codes ([`Code`]), which `routes` renders as the launcher did.
//!
//! Rules kept here (from `spec/launcher-facts.md`):
//! - handle ids come from ONE counter shared by every handle type, starting at 0;
//! - at most [`HANDLE_CAPACITY`] live handles per type; adding one more silently evicts the least
//!   recently used handle of that type (any access counts as a use);
//! - clears and index removals change only the local copy; PUT stores the local copy on the
//!   network; POST sends version = local + 1 with the local `deleted_data` and no data, and the
//!   network keeps its items minus those in the new `deleted_data`;
//! - appending goes to the network at once and leaves the local copy as it was.

use std::collections::HashMap;

/// How many live handles of each type the launcher kept (`LruCache::new(100)` in the FFI).
pub const HANDLE_CAPACITY: usize = 100;

/// A storage-core / FFI error code, as the launcher reported it in `errorCode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code(pub i32);

impl Code {
    /// `CoreError::GetFailure::GetError::NoSuchData` (a fetch of data not on the network).
    pub const GET_NO_SUCH_DATA: Code = Code(-18);
    /// `CoreError::MutationFailure::MutationError::NoSuchData` (POST or append of unstored data).
    pub const NO_SUCH_DATA: Code = Code(-22);
    /// `CoreError::MutationFailure::MutationError::DataExists` (PUT of stored data).
    pub const DATA_EXISTS: Code = Code(-23);
    /// `CoreError::MutationFailure::MutationError::InvalidSuccessor` (stale POST).
    pub const INVALID_SUCCESSOR: Code = Code(-25);
    /// `FfiError::InvalidDataIdHandle`.
    pub const INVALID_DATA_ID_HANDLE: Code = Code(-1514);
    /// `FfiError::InvalidAppendableDataHandle`.
    pub const INVALID_AD_HANDLE: Code = Code(-1515);
    /// `FfiError::InvalidSignKeyHandle` (the emulator has no sign keys, so any `filterKeys`).
    pub const INVALID_SIGN_KEY_HANDLE: Code = Code(-1519);
    /// `FfiError::InvalidIndex`.
    pub const INVALID_INDEX: Code = Code(-1524);
}

/// What a data identifier points at. Data items of an appendable data are data identifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataId {
    Structured { name: [u8; 32], type_tag: u64 },
    Appendable(AdKey),
}

/// The network address of an appendable data: public and private ones with the same name are
/// different data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AdKey {
    pub name: [u8; 32],
    pub private: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterType {
    BlackList,
    WhiteList,
}

impl FilterType {
    /// As the launcher wrote it in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            FilterType::BlackList => "BlackList",
            FilterType::WhiteList => "WhiteList",
        }
    }
}

/// The filter of an appendable data. The emulator has no sign keys, so it only counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Filter {
    pub kind: FilterType,
    pub keys: usize,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            kind: FilterType::BlackList,
            keys: 0,
        }
    }
}

/// An appendable data as the network stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub version: u64,
    pub data: Vec<DataId>,
    pub deleted: Vec<DataId>,
    pub filter: Filter,
}

/// A local copy held under an appendable-data handle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Local {
    pub key: AdKey,
    pub version: u64,
    pub data: Vec<DataId>,
    pub deleted: Vec<DataId>,
    pub is_owner: bool,
    pub filter: Filter,
}

impl Local {
    fn from_stored(key: AdKey, stored: &Stored) -> Local {
        Local {
            key,
            version: stored.version,
            data: stored.data.clone(),
            deleted: stored.deleted.clone(),
            // Every appendable data in the emulator belongs to its one user.
            is_owner: true,
            filter: stored.filter,
        }
    }
}

/// What `GET /appendable-data/metadata/:h` and `GET /appendable-data/handle/:d` report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metadata {
    pub is_owner: bool,
    pub version: u64,
    pub filter_type: FilterType,
    pub filter_length: usize,
    pub data_length: usize,
    pub deleted_data_length: usize,
}

/// Adds `item` unless it is there already (the core kept these sections as sets).
fn insert_unique(section: &mut Vec<DataId>, item: DataId) {
    if !section.contains(&item) {
        section.push(item);
    }
}

/// Live handles of one type, least recently used evicted beyond the capacity.
#[derive(Debug)]
struct HandleCache<T> {
    entries: HashMap<u64, (T, u64)>,
    clock: u64,
}

impl<T> HandleCache<T> {
    fn new() -> Self {
        HandleCache {
            entries: HashMap::new(),
            clock: 0,
        }
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// Stores `value` under `id`, evicting the least recently used entry if the cache is full.
    fn insert(&mut self, id: u64, value: T) {
        if self.entries.len() >= HANDLE_CAPACITY {
            let oldest = self
                .entries
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(&id, _)| id);
            if let Some(oldest) = oldest {
                self.entries.remove(&oldest);
            }
        }
        let now = self.tick();
        self.entries.insert(id, (value, now));
    }

    /// The entry, marked as just used.
    fn get_mut(&mut self, id: u64) -> Option<&mut T> {
        let now = self.tick();
        self.entries.get_mut(&id).map(|(value, used)| {
            *used = now;
            value
        })
    }

    /// Whether the handle is live, without counting as a use.
    fn contains(&self, id: u64) -> bool {
        self.entries.contains_key(&id)
    }

    fn remove(&mut self, id: u64) -> Option<T> {
        self.entries.remove(&id).map(|(value, _)| value)
    }

    fn len(&self) -> usize {
        self.entries.len()
    }
}

/// The permissions a token carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Permissions {
    pub low_level_api: bool,
    pub safe_drive_access: bool,
}

/// The network, the handle cache and the sessions.
#[derive(Debug)]
pub struct State {
    network: HashMap<AdKey, Stored>,
    ads: HandleCache<Local>,
    data_ids: HandleCache<DataId>,
    next_handle: u64,
    sessions: HashMap<String, Permissions>,
}

impl Default for State {
    fn default() -> State {
        State::new()
    }
}

impl State {
    /// An empty launcher: nothing stored, no handles, no sessions.
    pub fn new() -> State {
        State {
            network: HashMap::new(),
            ads: HandleCache::new(),
            data_ids: HandleCache::new(),
            next_handle: 0,
            sessions: HashMap::new(),
        }
    }

    fn allocate(&mut self) -> u64 {
        let id = self.next_handle;
        self.next_handle = self.next_handle.saturating_add(1);
        id
    }

    // ---- sessions -------------------------------------------------------------------------

    /// Makes `token` valid with `permissions`.
    pub fn add_session(&mut self, token: String, permissions: Permissions) {
        self.sessions.insert(token, permissions);
    }

    /// The permissions of a live token.
    pub fn session(&self, token: &str) -> Option<Permissions> {
        self.sessions.get(token).copied()
    }

    /// Revokes a token; true if it was live.
    pub fn revoke(&mut self, token: &str) -> bool {
        self.sessions.remove(token).is_some()
    }

    // ---- setting up (demo state, tests) ---------------------------------------------------

    /// Stores an appendable data on the network directly, as if saved earlier.
    pub fn store(&mut self, key: AdKey, stored: Stored) {
        self.network.insert(key, stored);
    }

    /// Puts a local copy under a new handle.
    pub fn add_local(&mut self, local: Local) -> u64 {
        let id = self.allocate();
        self.ads.insert(id, local);
        id
    }

    /// The stored appendable data, if on the network.
    pub fn stored(&self, key: &AdKey) -> Option<&Stored> {
        self.network.get(key)
    }

    /// How many appendable-data and data-id handles are live.
    pub fn live_handles(&self) -> (usize, usize) {
        (self.ads.len(), self.data_ids.len())
    }

    // ---- the routes -----------------------------------------------------------------------

    /// `POST /appendable-data`: a new local appendable data at version 0, owned, not stored.
    pub fn create(&mut self, key: AdKey, filter_type: FilterType) -> u64 {
        self.add_local(Local {
            key,
            version: 0,
            data: Vec::new(),
            deleted: Vec::new(),
            is_owner: true,
            filter: Filter {
                kind: filter_type,
                keys: 0,
            },
        })
    }

    /// Whether an appendable-data handle is live (does not count as a use).
    pub fn has_ad(&self, handle: u64) -> bool {
        self.ads.contains(handle)
    }

    /// `PUT /appendable-data/:h`: store the local copy; -1515 unknown handle, -23 already stored.
    pub fn put(&mut self, handle: u64) -> Result<(), Code> {
        let local = self.ads.get_mut(handle).ok_or(Code::INVALID_AD_HANDLE)?;
        if self.network.contains_key(&local.key) {
            return Err(Code::DATA_EXISTS);
        }
        let stored = Stored {
            version: local.version,
            data: local.data.clone(),
            deleted: local.deleted.clone(),
            filter: local.filter,
        };
        let key = local.key;
        self.network.insert(key, stored);
        Ok(())
    }

    /// `POST /appendable-data/:h`: -1515 unknown handle, -22 not stored, -25 when the network
    /// version is not the local version (someone else posted since this copy was taken).
    ///
    /// The new version is local + 1 and carries the local `deleted_data` and no data: the
    /// network keeps its items minus those in the new `deleted_data`. On success the local copy
    /// becomes what the network now holds (what a fresh fetch would show), so a second POST from
    /// the same handle is a valid successor again.
    pub fn post(&mut self, handle: u64) -> Result<(), Code> {
        let local = self.ads.get_mut(handle).ok_or(Code::INVALID_AD_HANDLE)?;
        let stored = self.network.get_mut(&local.key).ok_or(Code::NO_SUCH_DATA)?;
        if stored.version != local.version {
            return Err(Code::INVALID_SUCCESSOR);
        }
        let new_version = local
            .version
            .checked_add(1)
            .ok_or(Code::INVALID_SUCCESSOR)?;
        stored.data.retain(|item| !local.deleted.contains(item));
        stored.deleted = local.deleted.clone();
        stored.version = new_version;
        stored.filter = local.filter;
        local.version = new_version;
        local.data = stored.data.clone();
        Ok(())
    }

    /// `DELETE /appendable-data/clear-data/:h`: every data item moves to `deleted_data`
    /// (local copy only).
    pub fn clear_data(&mut self, handle: u64) -> Result<(), Code> {
        let local = self.ads.get_mut(handle).ok_or(Code::INVALID_AD_HANDLE)?;
        let items = std::mem::take(&mut local.data);
        for item in items {
            insert_unique(&mut local.deleted, item);
        }
        Ok(())
    }

    /// `DELETE /appendable-data/clear-deleted-data/:h`: `deleted_data` is emptied (local only).
    pub fn clear_deleted_data(&mut self, handle: u64) -> Result<(), Code> {
        let local = self.ads.get_mut(handle).ok_or(Code::INVALID_AD_HANDLE)?;
        local.deleted.clear();
        Ok(())
    }

    /// `GET /appendable-data/metadata/:h`. `authorised` is whether the request carried a valid
    /// token: without one the launcher reported `isOwner: false`.
    pub fn metadata(&mut self, handle: u64, authorised: bool) -> Result<Metadata, Code> {
        let local = self.ads.get_mut(handle).ok_or(Code::INVALID_AD_HANDLE)?;
        Ok(metadata_of(local, authorised))
    }

    /// `POST /data-id/appendable-data` and `POST /data-id/structured-data`.
    pub fn new_data_id(&mut self, id: DataId) -> u64 {
        let handle = self.allocate();
        self.data_ids.insert(handle, id);
        handle
    }

    /// `GET /appendable-data/handle/:dataIdHandle`: a fresh local copy of what the network
    /// holds, under a new handle. -1514 unknown data id, -18 (404) not on the network.
    pub fn fetch(&mut self, data_id: u64, authorised: bool) -> Result<(u64, Metadata), Code> {
        let id = *self
            .data_ids
            .get_mut(data_id)
            .ok_or(Code::INVALID_DATA_ID_HANDLE)?;
        let key = match id {
            DataId::Appendable(key) => key,
            // The emulator stores no structured data, so such an id is never found.
            DataId::Structured { .. } => return Err(Code::GET_NO_SUCH_DATA),
        };
        let stored = self.network.get(&key).ok_or(Code::GET_NO_SUCH_DATA)?;
        let local = Local::from_stored(key, stored);
        let meta = metadata_of(&local, authorised);
        let handle = self.add_local(local);
        Ok((handle, meta))
    }

    /// `PUT /appendable-data/:h/:dataIdHandle`: appends the data id as an item on the network
    /// (not to the local copy). -1515, -1514, -22 (404) when the data is not stored.
    ///
    /// The filter is not enforced: the emulator has no sign keys to filter on.
    pub fn append(&mut self, handle: u64, data_id: u64) -> Result<(), Code> {
        let key = self.ads.get_mut(handle).ok_or(Code::INVALID_AD_HANDLE)?.key;
        let item = *self
            .data_ids
            .get_mut(data_id)
            .ok_or(Code::INVALID_DATA_ID_HANDLE)?;
        let stored = self.network.get_mut(&key).ok_or(Code::NO_SUCH_DATA)?;
        insert_unique(&mut stored.data, item);
        Ok(())
    }

    /// `DELETE /appendable-data/:h/:index`: moves one data item to `deleted_data` (local).
    pub fn remove_at(&mut self, handle: u64, index: u64) -> Result<(), Code> {
        let local = self.ads.get_mut(handle).ok_or(Code::INVALID_AD_HANDLE)?;
        let index = usize::try_from(index).map_err(|_| Code::INVALID_INDEX)?;
        if index >= local.data.len() {
            return Err(Code::INVALID_INDEX);
        }
        let item = local.data.remove(index);
        insert_unique(&mut local.deleted, item);
        Ok(())
    }

    /// `DELETE /appendable-data/handle/:h`: drops the handle; -1515 when it is not live.
    pub fn drop_ad(&mut self, handle: u64) -> Result<(), Code> {
        self.ads
            .remove(handle)
            .map(|_| ())
            .ok_or(Code::INVALID_AD_HANDLE)
    }
}

fn metadata_of(local: &Local, authorised: bool) -> Metadata {
    Metadata {
        is_owner: authorised && local.is_owner,
        version: local.version,
        filter_type: local.filter.kind,
        filter_length: local.filter.keys,
        data_length: local.data.len(),
        deleted_data_length: local.deleted.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u8) -> AdKey {
        AdKey {
            name: [n; 32],
            private: false,
        }
    }

    fn item(n: u8) -> DataId {
        DataId::Structured {
            name: [n; 32],
            type_tag: 500,
        }
    }

    fn saved(state: &mut State, n: u8, data: &[u8], deleted: &[u8]) -> u64 {
        let stored = Stored {
            version: 1,
            data: data.iter().map(|&i| item(i)).collect(),
            deleted: deleted.iter().map(|&i| item(i)).collect(),
            filter: Filter::default(),
        };
        state.store(key(n), stored.clone());
        state.add_local(Local::from_stored(key(n), &stored))
    }

    #[test]
    fn put_then_put_again_is_data_exists() {
        let mut s = State::new();
        let h = s.create(key(1), FilterType::BlackList);
        assert_eq!(h, 0);
        assert_eq!(s.post(h), Err(Code::NO_SUCH_DATA));
        assert_eq!(s.put(h), Ok(()));
        assert_eq!(s.put(h), Err(Code::DATA_EXISTS));
        assert_eq!(s.post(h), Ok(()));
        assert_eq!(s.stored(&key(1)).map(|st| st.version), Some(1));
        assert_eq!(s.put(77), Err(Code::INVALID_AD_HANDLE));
        assert_eq!(s.post(77), Err(Code::INVALID_AD_HANDLE));
    }

    #[test]
    fn clears_are_local_until_post_merges() {
        let mut s = State::new();
        let h = saved(&mut s, 1, &[1, 2, 3], &[4]);
        s.clear_data(h).unwrap();
        let m = s.metadata(h, true).unwrap();
        assert_eq!((m.data_length, m.deleted_data_length), (0, 4));
        let st = s.stored(&key(1)).unwrap();
        assert_eq!((st.data.len(), st.deleted.len(), st.version), (3, 1, 1));
        s.post(h).unwrap();
        let st = s.stored(&key(1)).unwrap();
        assert_eq!((st.data.len(), st.deleted.len(), st.version), (0, 4, 2));
        s.clear_deleted_data(h).unwrap();
        assert_eq!(s.stored(&key(1)).unwrap().deleted.len(), 4);
        s.post(h).unwrap();
        let st = s.stored(&key(1)).unwrap();
        assert_eq!((st.data.len(), st.deleted.len(), st.version), (0, 0, 3));
    }

    #[test]
    fn post_keeps_network_items_appended_meanwhile() {
        let mut s = State::new();
        let h = saved(&mut s, 1, &[1, 2], &[]);
        let d = s.new_data_id(item(9));
        s.append(h, d).unwrap();
        assert_eq!(s.metadata(h, true).unwrap().data_length, 2);
        s.remove_at(h, 0).unwrap();
        s.post(h).unwrap();
        let st = s.stored(&key(1)).unwrap();
        assert_eq!(st.data, vec![item(2), item(9)]);
        assert_eq!(st.deleted, vec![item(1)]);
    }

    #[test]
    fn stale_post_is_invalid_successor() {
        let mut s = State::new();
        let a = saved(&mut s, 1, &[1], &[]);
        let d = s.new_data_id(DataId::Appendable(key(1)));
        let (b, meta) = s.fetch(d, true).unwrap();
        assert_eq!(meta.version, 1);
        s.post(a).unwrap();
        assert_eq!(s.post(b), Err(Code::INVALID_SUCCESSOR));
        assert_eq!(s.post(a), Ok(()));
    }

    #[test]
    fn fetch_errors() {
        let mut s = State::new();
        assert_eq!(s.fetch(5, true), Err(Code::INVALID_DATA_ID_HANDLE));
        let d = s.new_data_id(DataId::Appendable(key(3)));
        assert_eq!(s.fetch(d, true), Err(Code::GET_NO_SUCH_DATA));
        let sd = s.new_data_id(item(3));
        assert_eq!(s.fetch(sd, true), Err(Code::GET_NO_SUCH_DATA));
    }

    #[test]
    fn one_counter_and_lru_per_type() {
        let mut s = State::new();
        let first = s.create(key(0), FilterType::BlackList);
        let id = s.new_data_id(item(0));
        assert_eq!((first, id), (0, 1));
        for _ in 1..HANDLE_CAPACITY {
            s.create(key(0), FilterType::BlackList);
        }
        assert_eq!(s.live_handles(), (100, 1));
        // Use the first, so the second (handle 2) is now the least recently used.
        assert!(s.metadata(first, true).is_ok());
        let newest = s.create(key(0), FilterType::BlackList);
        assert_eq!(newest, 101);
        assert_eq!(s.live_handles(), (100, 1));
        assert!(s.has_ad(first));
        assert!(!s.has_ad(2));
        assert!(s.has_ad(3));
        // The data-id cache is separate: the data id is still live (not -1514).
        assert_eq!(s.fetch(id, true), Err(Code::GET_NO_SUCH_DATA));
    }

    #[test]
    fn remove_at_and_drop() {
        let mut s = State::new();
        let h = saved(&mut s, 1, &[1, 2], &[]);
        assert_eq!(s.remove_at(h, 2), Err(Code::INVALID_INDEX));
        assert_eq!(s.remove_at(h, u64::MAX), Err(Code::INVALID_INDEX));
        s.remove_at(h, 1).unwrap();
        assert!(!s.metadata(h, false).unwrap().is_owner);
        assert_eq!(s.drop_ad(h), Ok(()));
        assert_eq!(s.drop_ad(h), Err(Code::INVALID_AD_HANDLE));
    }
}
