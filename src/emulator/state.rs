//! The launcher's memory, as the emulator keeps it: the "network" (appendable and structured data
//! stored by name), the handle caches (local copies, data identifiers, sign keys, encrypt keys,
//! cipher options), and the sessions (tokens).
//!
//! Everything here is plain synchronous data with no HTTP in it; `routes` locks it, calls one
//! method, and turns the result into a response. Failures are the storage core's negative error
//! codes ([`Code`]), which `routes` renders as the launcher did.
//!
//! Rules kept here (from the launcher's source and its own tests, see `docs/launcher-api.md`):
//! - handle ids come from ONE counter shared by every handle type, starting at 0;
//! - at most [`HANDLE_CAPACITY`] live handles per type; adding one more silently evicts the least
//!   recently used handle of that type (any access counts as a use). The emulator adds a bound of
//!   its own, [`HANDLE_BYTES`] of data per type, kept the same way: a handle that would pass it
//!   evicts the least recently used others (so anonymous deserialise calls cannot fill memory);
//! - the network holds at most [`NETWORK_BYTES`] (counted as the `--state` file would hold it): a
//!   save or append that would pass it is refused with -28 (`NetworkFull`), so what the emulator
//!   saves it can always load again;
//! - at most [`MAX_SESSIONS`] live tokens: beyond that `POST /auth` is denied as a user would deny
//!   it, until one is revoked;
//! - the data sections and the filter of an appendable data are sets, kept in sorted order (so an
//!   index names the n-th item of that order);
//! - clears, removals, restores and filter edits change only the local copy; PUT stores the local
//!   copy on the network; POST sends version = local + 1 with the local `deleted_data`, filter and
//!   no data, and the network keeps its items minus those in the new `deleted_data`;
//! - appending goes to the network at once and leaves the local copy as it was; it is refused
//!   (-25) for a stale handle, a signer the network's filter keeps out, or an item in
//!   `deleted_data`;
//! - every app in the emulator is the one logged-in user: they share [`USER_KEY`] and own every
//!   appendable and structured data; an anonymous caller owns nothing.

use std::collections::{BTreeSet, HashMap};

/// How many live handles of each type the launcher kept (an LRU cache of 100 per type).
pub const HANDLE_CAPACITY: usize = 100;

/// The largest appendable or structured data the network stored (`validate-size`).
pub const MAX_DATA_SIZE: usize = 100 * 1024;

/// The emulator's bound on the data its handles of one type hold together (appendable data and
/// structured data; the other types hold a fixed few bytes each). The launcher had none: its
/// core's cache held 100 handles whatever their size.
pub const HANDLE_BYTES: usize = 32 * 1024 * 1024;

/// The emulator's bound on what its network holds, in bytes of the `--state` file (see
/// [`Ad::file_size`]); the `--state` reader takes files a little larger than this.
pub const NETWORK_BYTES: usize = 32 * 1024 * 1024;

/// The emulator's bound on live tokens (sessions). The launcher had none, but each of its
/// sessions took a click of its user.
pub const MAX_SESSIONS: usize = 10_000;

/// A public signing key (the emulator does no cryptography; keys are only compared).
pub type SignKey = [u8; 32];

/// The logged-in user's signing key: fixed, so that a `--state` file stays valid across runs.
pub const USER_KEY: SignKey = *b"safe-ad emulator user sign key!!";

/// A storage-core / FFI error code, as the launcher reported it in `errorCode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code(pub i32);

impl Code {
    /// `CoreError::ReceivedUnexpectedData` (a data id of the other kind of data).
    pub const UNEXPECTED_DATA: Code = Code(-5);
    /// `CoreError::GetFailure::GetError::NoSuchData` (a fetch of data not on the network).
    pub const GET_NO_SUCH_DATA: Code = Code(-18);
    /// `CoreError::MutationFailure::MutationError::NoSuchData` (POST or append of unstored data).
    pub const NO_SUCH_DATA: Code = Code(-22);
    /// `CoreError::MutationFailure::MutationError::DataExists` (PUT of stored data).
    pub const DATA_EXISTS: Code = Code(-23);
    /// `CoreError::MutationFailure::MutationError::InvalidSuccessor`.
    pub const INVALID_SUCCESSOR: Code = Code(-25);
    /// `FfiError::UnsuccessfulEncodeDecode` (deserialising bytes that are not the format).
    pub const ENCODE_DECODE: Code = Code(-1511);
    /// `FfiError::InvalidStructDataHandle`.
    pub const INVALID_SD_HANDLE: Code = Code(-1513);
    /// `FfiError::InvalidDataIdHandle`.
    pub const INVALID_DATA_ID_HANDLE: Code = Code(-1514);
    /// `FfiError::InvalidAppendableDataHandle`.
    pub const INVALID_AD_HANDLE: Code = Code(-1515);
    /// `FfiError::InvalidCipherOptHandle`.
    pub const INVALID_CIPHER_OPT_HANDLE: Code = Code(-1517);
    /// `FfiError::InvalidEncryptKeyHandle`.
    pub const INVALID_ENCRYPT_KEY_HANDLE: Code = Code(-1518);
    /// `FfiError::InvalidSignKeyHandle`.
    pub const INVALID_SIGN_KEY_HANDLE: Code = Code(-1519);
    /// `FfiError::OperationForbiddenForApp` (reading private data without the user's keys).
    pub const FORBIDDEN_FOR_APP: Code = Code(-1520);
    /// `FfiError::InvalidStructuredDataTypeTag` (a version of an unversioned structured data).
    pub const INVALID_TYPE_TAG: Code = Code(-1521);
    /// `FfiError::InvalidVersionNumber`.
    pub const INVALID_VERSION: Code = Code(-1522);
    /// `FfiError::InvalidIndex`.
    pub const INVALID_INDEX: Code = Code(-1524);
    /// `FfiError::UnsupportedOperation` (an encrypt key of public data).
    pub const UNSUPPORTED: Code = Code(-1525);
    /// `CoreError::MutationFailure::MutationError::NetworkFull`: the network holds
    /// [`NETWORK_BYTES`] already.
    pub const NETWORK_FULL: Code = Code(-28);
}

/// The network address of an appendable data: public and private ones with the same name are
/// different data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AdKey {
    pub name: [u8; 32],
    pub private: bool,
}

/// The network address of a structured data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SdKey {
    pub name: [u8; 32],
    pub type_tag: u64,
}

/// What a data identifier points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DataId {
    Structured(SdKey),
    Appendable(AdKey),
}

/// One data item of an appendable data: what it points at and who appended it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Item {
    pub pointer: DataId,
    pub signer: SignKey,
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

/// The filter of an appendable data: who may append.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    pub kind: FilterType,
    pub keys: BTreeSet<SignKey>,
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
    fn allows(&self, key: &SignKey) -> bool {
        match self.kind {
            FilterType::BlackList => !self.keys.contains(key),
            FilterType::WhiteList => self.keys.contains(key),
        }
    }
}

/// An appendable data: what the network stores, and what a handle holds as its local copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ad {
    pub key: AdKey,
    pub version: u64,
    pub data: BTreeSet<Item>,
    pub deleted: BTreeSet<Item>,
    pub filter: Filter,
}

impl Ad {
    /// A new, empty appendable data at version 0.
    pub fn new(key: AdKey, kind: FilterType) -> Ad {
        Ad {
            key,
            version: 0,
            data: BTreeSet::new(),
            deleted: BTreeSet::new(),
            filter: Filter {
                kind,
                keys: BTreeSet::new(),
            },
        }
    }

    /// An estimate of its size on the network: a header, 32 bytes per filter key, and per item its
    /// pointer, signer and signature.
    fn size(&self) -> usize {
        128 + 32 * self.filter.keys.len() + 140 * (self.data.len() + self.deleted.len())
    }

    /// At least the bytes it takes in a `--state` file (pretty-printed JSON: a 44-character base64
    /// name, up to 20 digits per number, an item's two names and a signer): what
    /// [`NETWORK_BYTES`] counts. `wire`'s tests check that the JSON never takes more.
    pub fn file_size(&self) -> usize {
        320 + 64 * self.filter.keys.len() + 320 * (self.data.len() + self.deleted.len())
    }
}

/// A structured data: what the network stores, and what a handle holds as its local copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sd {
    pub key: SdKey,
    pub version: u64,
    /// The data of each version, oldest first: one entry unless the type tag is 501 (versioned).
    pub versions: Vec<Vec<u8>>,
}

impl Sd {
    /// Whether it keeps its versions (type tag 501); others keep only their latest data.
    pub fn is_versioned(&self) -> bool {
        self.key.type_tag == VERSIONED
    }

    /// Its current data (empty if none).
    pub fn current(&self) -> &[u8] {
        self.versions.last().map_or(&[], Vec::as_slice)
    }

    fn size(&self) -> usize {
        64 + self.versions.iter().map(Vec::len).sum::<usize>()
    }

    /// At least the bytes it takes in a `--state` file: a header and each version in base64.
    pub fn file_size(&self) -> usize {
        256 + self
            .versions
            .iter()
            .map(|data| 16 + data.len().div_ceil(3) * 4)
            .sum::<usize>()
    }
}

/// The type tag of versioned structured data.
pub const VERSIONED: u64 = 501;

/// What `GET /appendable-data/metadata/:h` and the fetch routes report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metadata {
    pub is_owner: bool,
    pub version: u64,
    pub filter_type: FilterType,
    pub filter_length: usize,
    pub data_length: usize,
    pub deleted_data_length: usize,
}

/// What the structured-data metadata routes report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SdMetadata {
    pub is_owner: bool,
    pub version: u64,
    /// The number of versions, for versioned data only.
    pub versions: Option<usize>,
}

/// A local copy under an appendable-data handle: the data and whether it is private.
#[derive(Debug, Clone)]
struct LocalAd {
    ad: Ad,
}

/// Live handles of one type, least recently used evicted beyond the capacity or beyond
/// [`HANDLE_BYTES`] (the size of each value is given by the caller).
#[derive(Debug)]
struct HandleCache<T> {
    /// Value, last use, size in bytes.
    entries: HashMap<u64, (T, u64, usize)>,
    clock: u64,
    bytes: usize,
}

impl<T> HandleCache<T> {
    fn new() -> Self {
        HandleCache {
            entries: HashMap::new(),
            clock: 0,
            bytes: 0,
        }
    }

    /// Stores `value` (of `size` bytes) under `id`, evicting the least recently used entries
    /// while the cache is full or would hold more than [`HANDLE_BYTES`] with it.
    fn insert(&mut self, id: u64, value: T, size: usize) {
        while self.entries.len() >= HANDLE_CAPACITY
            || (!self.entries.is_empty() && self.bytes + size > HANDLE_BYTES)
        {
            if !self.evict_oldest(None) {
                break;
            }
        }
        self.clock += 1;
        self.bytes += size;
        if let Some((_, _, old)) = self.entries.insert(id, (value, self.clock, size)) {
            self.bytes -= old;
        }
    }

    /// Evicts the least recently used entry other than `keep`; false if there is none.
    fn evict_oldest(&mut self, keep: Option<u64>) -> bool {
        let oldest = self
            .entries
            .iter()
            .filter(|(id, _)| Some(**id) != keep)
            .min_by_key(|(_, (_, used, _))| *used)
            .map(|(&id, _)| id);
        match oldest {
            Some(id) => {
                self.remove(id);
                true
            }
            None => false,
        }
    }

    /// Records the new size of `id`'s value after a change, and evicts the least recently used
    /// others while the cache holds more than [`HANDLE_BYTES`].
    fn resize(&mut self, id: u64, size: usize) {
        let Some((_, _, old)) = self.entries.get_mut(&id) else {
            return;
        };
        self.bytes = self.bytes - *old + size;
        *old = size;
        while self.bytes > HANDLE_BYTES && self.evict_oldest(Some(id)) {}
    }

    /// The entry, marked as just used.
    fn get_mut(&mut self, id: u64) -> Option<&mut T> {
        self.clock += 1;
        let now = self.clock;
        self.entries.get_mut(&id).map(|(value, used, _)| {
            *used = now;
            value
        })
    }

    /// Whether the handle is live, without counting as a use.
    fn contains(&self, id: u64) -> bool {
        self.entries.contains_key(&id)
    }

    fn remove(&mut self, id: u64) -> Option<T> {
        let (value, _, size) = self.entries.remove(&id)?;
        self.bytes -= size;
        Some(value)
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// Every entry, in handle order, without counting as a use.
    fn sorted(&self) -> Vec<(u64, &T)> {
        let mut all: Vec<(u64, &T)> = self
            .entries
            .iter()
            .map(|(id, (value, _, _))| (*id, value))
            .collect();
        all.sort_by_key(|(id, _)| *id);
        all
    }
}

/// Every live handle of each type with what it holds, in handle order, and the next handle id:
/// what the emulator's own `GET /_emulator/handles` shows.
#[derive(Debug)]
pub struct Handles<'a> {
    pub appendable_data: Vec<(u64, &'a Ad)>,
    pub structured_data: Vec<(u64, &'a Sd)>,
    pub data_id: Vec<(u64, &'a DataId)>,
    pub sign_key: Vec<(u64, &'a SignKey)>,
    pub encrypt_key: Vec<(u64, &'a AdKey)>,
    pub cipher_opts: Vec<u64>,
    pub next: u64,
}

/// The permissions a token carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Permissions {
    pub low_level_api: bool,
    pub safe_drive_access: bool,
}

/// How many handles of each type are live: what `--log` records and the stop line report, so a
/// test can check that a command left none behind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Live {
    pub appendable_data: usize,
    pub structured_data: usize,
    pub data_id: usize,
    pub sign_key: usize,
    pub encrypt_key: usize,
    pub cipher_opts: usize,
}

impl Live {
    /// `(name, count)` for each type, in a fixed order; the names are those of the JSON log.
    pub fn pairs(&self) -> [(&'static str, usize); 6] {
        [
            ("appendableData", self.appendable_data),
            ("structuredData", self.structured_data),
            ("dataId", self.data_id),
            ("signKey", self.sign_key),
            ("encryptKey", self.encrypt_key),
            ("cipherOpts", self.cipher_opts),
        ]
    }
}

impl std::fmt::Display for Live {
    /// `appendable-data 1, structured-data 0, data-id 2, sign-key 0, encrypt-key 0, cipher-opts 0`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "appendable-data {}, structured-data {}, data-id {}, sign-key {}, encrypt-key {}, cipher-opts {}",
            self.appendable_data,
            self.structured_data,
            self.data_id,
            self.sign_key,
            self.encrypt_key,
            self.cipher_opts
        )
    }
}

/// The network, the handle caches and the sessions.
#[derive(Debug)]
pub struct State {
    ads_stored: HashMap<AdKey, Ad>,
    sds_stored: HashMap<SdKey, Sd>,
    ads: HandleCache<LocalAd>,
    sds: HandleCache<Sd>,
    data_ids: HandleCache<DataId>,
    sign_keys: HandleCache<SignKey>,
    /// An encrypt key handle holds the key of the private data it came from (only counted here).
    encrypt_keys: HandleCache<AdKey>,
    /// Cipher options: only the plain one, which the launcher made once on first use.
    cipher_opts: HandleCache<()>,
    plain_cipher: Option<u64>,
    next_handle: u64,
    sessions: HashMap<String, Permissions>,
    /// What the network holds, counted as [`Ad::file_size`] and [`Sd::file_size`] count it.
    network_bytes: usize,
}

impl Default for State {
    fn default() -> State {
        State::new()
    }
}

type Res<T> = Result<T, Code>;

/// The n-th element of a sorted set, or -1524.
fn nth<T: Copy>(set: &BTreeSet<T>, index: u64) -> Res<T> {
    usize::try_from(index)
        .ok()
        .and_then(|i| set.iter().nth(i))
        .copied()
        .ok_or(Code::INVALID_INDEX)
}

impl State {
    /// An empty launcher: nothing stored, no handles, no sessions.
    pub fn new() -> State {
        State {
            ads_stored: HashMap::new(),
            sds_stored: HashMap::new(),
            ads: HandleCache::new(),
            sds: HandleCache::new(),
            data_ids: HandleCache::new(),
            sign_keys: HandleCache::new(),
            encrypt_keys: HandleCache::new(),
            cipher_opts: HandleCache::new(),
            plain_cipher: None,
            next_handle: 0,
            sessions: HashMap::new(),
            network_bytes: 0,
        }
    }

    fn allocate(&mut self) -> u64 {
        let id = self.next_handle;
        self.next_handle = self.next_handle.saturating_add(1);
        id
    }

    // ---- sessions -------------------------------------------------------------------------

    /// Makes `token` valid with `permissions`; false (and nothing done) when [`MAX_SESSIONS`]
    /// tokens are live already.
    pub fn add_session(&mut self, token: String, permissions: Permissions) -> bool {
        if self.sessions.len() >= MAX_SESSIONS && !self.sessions.contains_key(&token) {
            return false;
        }
        self.sessions.insert(token, permissions);
        true
    }

    /// The permissions of a live token.
    pub fn session(&self, token: &str) -> Option<Permissions> {
        self.sessions.get(token).copied()
    }

    /// Revokes a token; true if it was live.
    pub fn revoke(&mut self, token: &str) -> bool {
        self.sessions.remove(token).is_some()
    }

    // ---- the network as a whole (demo state, `--state` files, tests) ---------------------

    /// Stores an appendable data on the network directly, as if saved earlier (whatever the
    /// network holds already: the demo state and `--state` files).
    pub fn store(&mut self, ad: Ad) {
        self.network_bytes += ad.file_size();
        if let Some(old) = self.ads_stored.insert(ad.key, ad) {
            self.network_bytes -= old.file_size();
        }
    }

    /// Stores a structured data on the network directly.
    pub fn store_sd(&mut self, sd: Sd) {
        self.network_bytes += sd.file_size();
        if let Some(old) = self.sds_stored.insert(sd.key, sd) {
            self.network_bytes -= old.file_size();
        }
    }

    /// Refuses (-28) a change of the network from `old` to `new` bytes that would take it past
    /// [`NETWORK_BYTES`]; a change that does not grow it always passes.
    fn check_network(&self, old: usize, new: usize) -> Res<()> {
        if new > old && self.network_bytes - old + new > NETWORK_BYTES {
            return Err(Code::NETWORK_FULL);
        }
        Ok(())
    }

    /// The stored appendable data, if on the network.
    pub fn stored(&self, key: &AdKey) -> Option<&Ad> {
        self.ads_stored.get(key)
    }

    /// Everything on the network, in a stable order (for `--state` files).
    pub fn network(&self) -> (Vec<&Ad>, Vec<&Sd>) {
        let mut ads: Vec<&Ad> = self.ads_stored.values().collect();
        ads.sort_by_key(|ad| ad.key);
        let mut sds: Vec<&Sd> = self.sds_stored.values().collect();
        sds.sort_by_key(|sd| sd.key);
        (ads, sds)
    }

    /// Puts a local copy under a new handle.
    pub fn add_local(&mut self, ad: Ad) -> u64 {
        let id = self.allocate();
        let size = ad.size();
        self.ads.insert(id, LocalAd { ad }, size);
        id
    }

    /// Counts the new size of a local copy after a change that may have grown it.
    fn resized_ad(&mut self, handle: u64) {
        if let Some(size) = self
            .ads
            .entries
            .get(&handle)
            .map(|(local, _, _)| local.ad.size())
        {
            self.ads.resize(handle, size);
        }
    }

    /// How many handles of each type are live.
    pub fn live(&self) -> Live {
        Live {
            appendable_data: self.ads.len(),
            structured_data: self.sds.len(),
            data_id: self.data_ids.len(),
            sign_key: self.sign_keys.len(),
            encrypt_key: self.encrypt_keys.len(),
            cipher_opts: self.cipher_opts.len(),
        }
    }

    /// Every live handle and what it holds (no handle counts as used).
    pub fn handles(&self) -> Handles<'_> {
        Handles {
            appendable_data: self
                .ads
                .sorted()
                .into_iter()
                .map(|(id, local)| (id, &local.ad))
                .collect(),
            structured_data: self.sds.sorted(),
            data_id: self.data_ids.sorted(),
            sign_key: self.sign_keys.sorted(),
            encrypt_key: self.encrypt_keys.sorted(),
            cipher_opts: self
                .cipher_opts
                .sorted()
                .into_iter()
                .map(|(id, _)| id)
                .collect(),
            next: self.next_handle,
        }
    }

    /// Whether an appendable-data handle is live (does not count as a use).
    pub fn has_ad(&self, handle: u64) -> bool {
        self.ads.contains(handle)
    }

    fn ad(&mut self, handle: u64) -> Res<&mut Ad> {
        self.ads
            .get_mut(handle)
            .map(|local| &mut local.ad)
            .ok_or(Code::INVALID_AD_HANDLE)
    }

    fn sd(&mut self, handle: u64) -> Res<&mut Sd> {
        self.sds.get_mut(handle).ok_or(Code::INVALID_SD_HANDLE)
    }

    fn data_id(&mut self, handle: u64) -> Res<DataId> {
        self.data_ids
            .get_mut(handle)
            .copied()
            .ok_or(Code::INVALID_DATA_ID_HANDLE)
    }

    fn sign_key(&mut self, handle: u64) -> Res<SignKey> {
        self.sign_keys
            .get_mut(handle)
            .copied()
            .ok_or(Code::INVALID_SIGN_KEY_HANDLE)
    }

    fn new_sign_key(&mut self, key: SignKey) -> u64 {
        let handle = self.allocate();
        self.sign_keys.insert(handle, key, 0);
        handle
    }

    // ---- appendable data -----------------------------------------------------------------

    /// `POST /appendable-data`: a new local appendable data at version 0, not stored.
    pub fn create(&mut self, key: AdKey, kind: FilterType) -> u64 {
        self.add_local(Ad::new(key, kind))
    }

    /// `PUT /appendable-data/:h`: store the local copy; -1515 unknown handle, -23 already stored.
    pub fn put(&mut self, handle: u64) -> Res<()> {
        let ad = self.ad(handle)?.clone();
        if self.ads_stored.contains_key(&ad.key) {
            return Err(Code::DATA_EXISTS);
        }
        self.check_network(0, ad.file_size())?;
        self.store(ad);
        Ok(())
    }

    /// `POST /appendable-data/:h`: -1515 unknown handle, -22 not stored, -25 when the network
    /// version is not the local version (someone else posted since this copy was taken).
    ///
    /// The new version is local + 1 and carries the local `deleted_data` and filter and no data:
    /// the network keeps its items minus those in the new `deleted_data`. On success the local
    /// copy takes the new version and the network's items, so the same handle can post again.
    pub fn post(&mut self, handle: u64) -> Res<()> {
        let local = self.ad(handle)?.clone();
        let stored = self.ads_stored.get(&local.key).ok_or(Code::NO_SUCH_DATA)?;
        if stored.version != local.version {
            return Err(Code::INVALID_SUCCESSOR);
        }
        let version = local
            .version
            .checked_add(1)
            .ok_or(Code::INVALID_SUCCESSOR)?;
        let mut data = stored.data.clone();
        data.retain(|item| !local.deleted.contains(item));
        let saved = Ad {
            key: local.key,
            version,
            data,
            deleted: local.deleted,
            filter: local.filter,
        };
        self.check_network(stored.file_size(), saved.file_size())?;
        let copy = self.ad(handle)?;
        copy.version = version;
        copy.data = saved.data.clone();
        self.store(saved);
        self.resized_ad(handle);
        Ok(())
    }

    /// `DELETE /appendable-data/clear-data/:h`: every data item moves to `deleted_data` (local).
    pub fn clear_data(&mut self, handle: u64) -> Res<()> {
        let ad = self.ad(handle)?;
        let items = std::mem::take(&mut ad.data);
        ad.deleted.extend(items);
        Ok(())
    }

    /// `DELETE /appendable-data/clear-deleted-data/:h`: `deleted_data` is emptied (local).
    pub fn clear_deleted_data(&mut self, handle: u64) -> Res<()> {
        self.ad(handle)?.deleted.clear();
        Ok(())
    }

    /// `GET /appendable-data/metadata/:h`. `authorised`: the request carried a valid token
    /// (without one the launcher reported `isOwner: false`).
    pub fn metadata(&mut self, handle: u64, authorised: bool) -> Res<Metadata> {
        Ok(metadata_of(self.ad(handle)?, authorised))
    }

    /// `GET /appendable-data/handle/:dataIdHandle`: a fresh local copy of what the network holds,
    /// under a new handle. -1514 unknown data id, -18 (404) not on the network, -5 a structured
    /// data's id.
    pub fn fetch(&mut self, data_id: u64, authorised: bool) -> Res<(u64, Metadata)> {
        let key = match self.data_id(data_id)? {
            DataId::Appendable(key) => key,
            DataId::Structured(sd) => {
                return Err(if self.sds_stored.contains_key(&sd) {
                    Code::UNEXPECTED_DATA
                } else {
                    Code::GET_NO_SUCH_DATA
                })
            }
        };
        let ad = self
            .ads_stored
            .get(&key)
            .ok_or(Code::GET_NO_SUCH_DATA)?
            .clone();
        let meta = metadata_of(&ad, authorised);
        Ok((self.add_local(ad), meta))
    }

    /// `PUT /appendable-data/:h/:dataIdHandle`: appends the data id, signed by the user, on the
    /// network (not to the local copy). -1515, -1514, -22 (404) when the data is not stored, -25
    /// when the handle is stale, the filter keeps the user out or the item is in `deleted_data`.
    pub fn append(&mut self, handle: u64, data_id: u64) -> Res<()> {
        let (key, version) = {
            let ad = self.ad(handle)?;
            (ad.key, ad.version)
        };
        let pointer = self.data_id(data_id)?;
        let stored = self.ads_stored.get_mut(&key).ok_or(Code::NO_SUCH_DATA)?;
        let item = Item {
            pointer,
            signer: USER_KEY,
        };
        if stored.version != version
            || !stored.filter.allows(&USER_KEY)
            || stored.deleted.contains(&item)
        {
            return Err(Code::INVALID_SUCCESSOR);
        }
        if stored.data.contains(&item) {
            return Ok(());
        }
        let old = stored.file_size();
        if self.network_bytes + 320 > NETWORK_BYTES {
            return Err(Code::NETWORK_FULL);
        }
        stored.data.insert(item);
        self.network_bytes = self.network_bytes - old + stored.file_size();
        Ok(())
    }

    /// `GET /appendable-data/:h/:index` and `.../deleted-data/:h/:index`: a new data-id handle
    /// for the n-th item. Private data needs the user's keys, which an anonymous app lacks.
    pub fn data_id_at(
        &mut self,
        handle: u64,
        index: u64,
        deleted: bool,
        authorised: bool,
    ) -> Res<u64> {
        let ad = self.ad(handle)?;
        let section = if deleted { &ad.deleted } else { &ad.data };
        let item = nth(section, index)?;
        if ad.key.private && !authorised {
            return Err(Code::FORBIDDEN_FOR_APP);
        }
        Ok(self.new_data_id(item.pointer))
    }

    /// `GET /appendable-data/sign-key/[deleted-data/]:h/:index`: a sign-key handle for the
    /// signer of the n-th item.
    pub fn signer_at(&mut self, handle: u64, index: u64, deleted: bool) -> Res<u64> {
        let ad = self.ad(handle)?;
        let section = if deleted { &ad.deleted } else { &ad.data };
        let item = nth(section, index)?;
        Ok(self.new_sign_key(item.signer))
    }

    /// `GET /appendable-data/filter/:h/:index`: a sign-key handle for the n-th filter key.
    pub fn filter_key_at(&mut self, handle: u64, index: u64) -> Res<u64> {
        let key = nth(&self.ad(handle)?.filter.keys, index)?;
        Ok(self.new_sign_key(key))
    }

    /// `PUT /appendable-data/toggle-filter/:h`: the other filter type, with no keys (local).
    pub fn toggle_filter(&mut self, handle: u64) -> Res<()> {
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
    pub fn edit_filter(&mut self, handle: u64, sign_key: u64, add: bool) -> Res<()> {
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
    pub fn remove_at(&mut self, handle: u64, index: u64) -> Res<()> {
        let ad = self.ad(handle)?;
        let item = nth(&ad.data, index)?;
        ad.data.remove(&item);
        ad.deleted.insert(item);
        Ok(())
    }

    /// `PUT /appendable-data/restore/:h/:index`: moves one deleted item back to the data (local).
    pub fn restore(&mut self, handle: u64, index: u64) -> Res<()> {
        let ad = self.ad(handle)?;
        let item = nth(&ad.deleted, index)?;
        ad.deleted.remove(&item);
        ad.data.insert(item);
        Ok(())
    }

    /// `DELETE /appendable-data/deleted-data/:h/:index`: forgets one deleted item (local).
    pub fn remove_deleted_at(&mut self, handle: u64, index: u64) -> Res<()> {
        let ad = self.ad(handle)?;
        let item = nth(&ad.deleted, index)?;
        ad.deleted.remove(&item);
        Ok(())
    }

    /// `DELETE /appendable-data/handle/:h`: drops the handle; -1515 when it is not live.
    pub fn drop_ad(&mut self, handle: u64) -> Res<()> {
        self.ads
            .remove(handle)
            .map(drop)
            .ok_or(Code::INVALID_AD_HANDLE)
    }

    /// `GET /appendable-data/data-id/:h`: a data-id handle naming this appendable data.
    pub fn ad_data_id(&mut self, handle: u64) -> Res<u64> {
        let key = self.ad(handle)?.key;
        Ok(self.new_data_id(DataId::Appendable(key)))
    }

    /// `GET /appendable-data/validate-size/:h`.
    pub fn ad_size_valid(&mut self, handle: u64) -> Res<bool> {
        Ok(self.ad(handle)?.size() <= MAX_DATA_SIZE)
    }

    /// The local copy behind a handle (`serialise`).
    pub fn ad_copy(&mut self, handle: u64) -> Res<Ad> {
        self.ad(handle).cloned()
    }

    /// `GET /appendable-data/encrypt-key/:h`: an encrypt-key handle of private data; -1525 for
    /// public data.
    pub fn encrypt_key(&mut self, handle: u64) -> Res<u64> {
        let key = self.ad(handle)?.key;
        if !key.private {
            return Err(Code::UNSUPPORTED);
        }
        let id = self.allocate();
        self.encrypt_keys.insert(id, key, 0);
        Ok(id)
    }

    /// `DELETE /appendable-data/encrypt-key/:h` (an encrypt-key handle); -1518 when not live.
    pub fn drop_encrypt_key(&mut self, handle: u64) -> Res<()> {
        self.encrypt_keys
            .remove(handle)
            .map(drop)
            .ok_or(Code::INVALID_ENCRYPT_KEY_HANDLE)
    }

    // ---- data identifiers ----------------------------------------------------------------

    /// `POST /data-id/appendable-data`, `POST /data-id/structured-data`, deserialise.
    pub fn new_data_id(&mut self, id: DataId) -> u64 {
        let handle = self.allocate();
        self.data_ids.insert(handle, id, 0);
        handle
    }

    /// What a data-id handle names (`serialise`).
    pub fn data_id_value(&mut self, handle: u64) -> Res<DataId> {
        self.data_id(handle)
    }

    /// `DELETE /data-id/:h`; -1514 when not live.
    pub fn drop_data_id(&mut self, handle: u64) -> Res<()> {
        self.data_ids
            .remove(handle)
            .map(drop)
            .ok_or(Code::INVALID_DATA_ID_HANDLE)
    }

    // ---- sign keys -----------------------------------------------------------------------

    /// `GET /sign-key`: a new handle for the user's own key.
    pub fn user_sign_key(&mut self) -> u64 {
        self.new_sign_key(USER_KEY)
    }

    /// The key behind a sign-key handle (`serialise`).
    pub fn sign_key_value(&mut self, handle: u64) -> Res<SignKey> {
        self.sign_key(handle)
    }

    /// `POST /sign-key/deserialise`.
    pub fn add_sign_key(&mut self, key: SignKey) -> u64 {
        self.new_sign_key(key)
    }

    /// `DELETE /sign-key/:h`; -1519 when not live.
    pub fn drop_sign_key(&mut self, handle: u64) -> Res<()> {
        self.sign_keys
            .remove(handle)
            .map(drop)
            .ok_or(Code::INVALID_SIGN_KEY_HANDLE)
    }

    // ---- cipher options ------------------------------------------------------------------

    /// The plain cipher-options handle the launcher made once, on the first structured-data
    /// create or update that named none, and kept for good.
    pub fn plain_cipher(&mut self) -> u64 {
        if let Some(handle) = self.plain_cipher {
            return handle;
        }
        let handle = self.allocate();
        self.cipher_opts.insert(handle, (), 0);
        self.plain_cipher = Some(handle);
        handle
    }

    /// Checks a cipher-options handle: only the plain one exists here (-1517 otherwise).
    pub fn check_cipher(&mut self, handle: u64) -> Res<()> {
        self.cipher_opts
            .get_mut(handle)
            .map(drop)
            .ok_or(Code::INVALID_CIPHER_OPT_HANDLE)
    }

    // ---- structured data -----------------------------------------------------------------

    /// `POST /structured-data`: a new local structured data, not stored.
    pub fn sd_create(&mut self, key: SdKey, version: u64, data: Vec<u8>) -> u64 {
        self.add_sd(Sd {
            key,
            version,
            versions: vec![data],
        })
    }

    /// Puts a structured data under a new handle (`deserialise`).
    pub fn add_sd(&mut self, sd: Sd) -> u64 {
        let handle = self.allocate();
        let size = sd.size();
        self.sds.insert(handle, sd, size);
        handle
    }

    /// `PUT /structured-data/:h`: -1513, -23 when stored already.
    pub fn sd_put(&mut self, handle: u64) -> Res<()> {
        let sd = self.sd(handle)?.clone();
        if self.sds_stored.contains_key(&sd.key) {
            return Err(Code::DATA_EXISTS);
        }
        self.check_network(0, sd.file_size())?;
        self.store_sd(sd);
        Ok(())
    }

    /// `POST /structured-data/:h`: -1513, -22 not stored, -25 unless the local version is the
    /// stored one + 1 (an update bumps it).
    pub fn sd_post(&mut self, handle: u64) -> Res<()> {
        let sd = self.sd(handle)?.clone();
        let stored = self.sds_stored.get(&sd.key).ok_or(Code::NO_SUCH_DATA)?;
        if stored.version.checked_add(1) != Some(sd.version) {
            return Err(Code::INVALID_SUCCESSOR);
        }
        self.check_network(stored.file_size(), sd.file_size())?;
        self.store_sd(sd);
        Ok(())
    }

    /// `PATCH /structured-data/:h`: new data, one version up (local); a versioned structured
    /// data keeps the older versions.
    pub fn sd_update(&mut self, handle: u64, data: Vec<u8>) -> Res<()> {
        let sd = self.sd(handle)?;
        if sd.is_versioned() {
            sd.versions.push(data);
        } else {
            sd.versions = vec![data];
        }
        sd.version = sd.version.saturating_add(1);
        let size = sd.size();
        self.sds.resize(handle, size);
        Ok(())
    }

    /// `GET /structured-data/handle/:dataIdHandle`: -1514, -18 (404) not stored, -5 for an
    /// appendable data's id.
    pub fn sd_fetch(&mut self, data_id: u64, authorised: bool) -> Res<(u64, SdMetadata)> {
        let key = match self.data_id(data_id)? {
            DataId::Structured(key) => key,
            DataId::Appendable(ad) => {
                return Err(if self.ads_stored.contains_key(&ad) {
                    Code::UNEXPECTED_DATA
                } else {
                    Code::GET_NO_SUCH_DATA
                })
            }
        };
        let sd = self
            .sds_stored
            .get(&key)
            .ok_or(Code::GET_NO_SUCH_DATA)?
            .clone();
        let meta = sd_metadata_of(&sd, authorised);
        Ok((self.add_sd(sd), meta))
    }

    /// `GET /structured-data/metadata/:h`.
    pub fn sd_metadata(&mut self, handle: u64, authorised: bool) -> Res<SdMetadata> {
        Ok(sd_metadata_of(self.sd(handle)?, authorised))
    }

    /// `GET /structured-data/:h/:version?`: the current data, or (versioned data only) the data
    /// of version `n` counted from 0; -1521 for a version of unversioned data, -1522 out of range.
    pub fn sd_read(&mut self, handle: u64, version: Option<u64>) -> Res<Vec<u8>> {
        let sd = self.sd(handle)?;
        match version {
            None => Ok(sd.current().to_vec()),
            Some(_) if !sd.is_versioned() => Err(Code::INVALID_TYPE_TAG),
            Some(n) => usize::try_from(n)
                .ok()
                .and_then(|n| sd.versions.get(n))
                .cloned()
                .ok_or(Code::INVALID_VERSION),
        }
    }

    /// `GET /structured-data/data-id/:h`.
    pub fn sd_data_id(&mut self, handle: u64) -> Res<u64> {
        let key = self.sd(handle)?.key;
        Ok(self.new_data_id(DataId::Structured(key)))
    }

    /// `GET /structured-data/validate-size/:h`.
    pub fn sd_size_valid(&mut self, handle: u64) -> Res<bool> {
        Ok(self.sd(handle)?.size() <= MAX_DATA_SIZE)
    }

    /// The local copy behind a handle (`serialise`).
    pub fn sd_copy(&mut self, handle: u64) -> Res<Sd> {
        self.sd(handle).cloned()
    }

    /// `DELETE /structured-data/handle/:h`; -1513 when not live.
    pub fn drop_sd(&mut self, handle: u64) -> Res<()> {
        self.sds
            .remove(handle)
            .map(drop)
            .ok_or(Code::INVALID_SD_HANDLE)
    }
}

fn metadata_of(ad: &Ad, authorised: bool) -> Metadata {
    Metadata {
        // Every appendable data here belongs to the one user, whom an anonymous caller is not.
        is_owner: authorised,
        version: ad.version,
        filter_type: ad.filter.kind,
        filter_length: ad.filter.keys.len(),
        data_length: ad.data.len(),
        deleted_data_length: ad.deleted.len(),
    }
}

fn sd_metadata_of(sd: &Sd, authorised: bool) -> SdMetadata {
    SdMetadata {
        is_owner: authorised,
        version: sd.version,
        versions: sd.is_versioned().then_some(sd.versions.len()),
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

    fn item(n: u8) -> Item {
        Item {
            pointer: DataId::Structured(SdKey {
                name: [n; 32],
                type_tag: 500,
            }),
            signer: USER_KEY,
        }
    }

    fn saved(state: &mut State, n: u8, data: &[u8], deleted: &[u8]) -> u64 {
        let ad = Ad {
            key: key(n),
            version: 1,
            data: data.iter().map(|&i| item(i)).collect(),
            deleted: deleted.iter().map(|&i| item(i)).collect(),
            filter: Filter::default(),
        };
        state.store(ad.clone());
        state.add_local(ad)
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
        let d = s.new_data_id(item(9).pointer);
        s.append(h, d).unwrap();
        assert_eq!(s.metadata(h, true).unwrap().data_length, 2);
        s.remove_at(h, 0).unwrap();
        s.post(h).unwrap();
        let st = s.stored(&key(1)).unwrap();
        assert_eq!(st.data, [item(2), item(9)].into_iter().collect());
        assert_eq!(st.deleted, [item(1)].into_iter().collect());
    }

    #[test]
    fn append_refusals() {
        let mut s = State::new();
        let h = saved(&mut s, 1, &[], &[5]);
        let d = s.new_data_id(item(5).pointer);
        assert_eq!(s.append(h, d), Err(Code::INVALID_SUCCESSOR), "deleted item");
        let d = s.new_data_id(item(6).pointer);
        assert_eq!(s.append(99, d), Err(Code::INVALID_AD_HANDLE));
        assert_eq!(s.append(h, 99), Err(Code::INVALID_DATA_ID_HANDLE));
        let me = s.user_sign_key();
        s.edit_filter(h, me, true).unwrap();
        // The local filter is not the network's yet.
        assert_eq!(s.append(h, d), Ok(()));
        s.post(h).unwrap();
        let d = s.new_data_id(item(7).pointer);
        assert_eq!(s.append(h, d), Err(Code::INVALID_SUCCESSOR), "black-listed");
        s.toggle_filter(h).unwrap();
        s.post(h).unwrap();
        assert_eq!(
            s.append(h, d),
            Err(Code::INVALID_SUCCESSOR),
            "not white-listed"
        );
        s.edit_filter(h, me, true).unwrap();
        s.post(h).unwrap();
        assert_eq!(s.append(h, d), Ok(()));
        // A stale handle.
        let other = s.new_data_id(DataId::Appendable(key(1)));
        let (fresh, _) = s.fetch(other, true).unwrap();
        s.post(fresh).unwrap();
        assert_eq!(s.append(h, d), Err(Code::INVALID_SUCCESSOR), "stale");
        let unsaved = s.create(key(2), FilterType::BlackList);
        assert_eq!(s.append(unsaved, d), Err(Code::NO_SUCH_DATA));
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
        let sd = s.new_data_id(item(3).pointer);
        assert_eq!(s.fetch(sd, true), Err(Code::GET_NO_SUCH_DATA));
        assert_eq!(s.sd_fetch(d, true), Err(Code::GET_NO_SUCH_DATA));
    }

    #[test]
    fn one_counter_and_lru_per_type() {
        let mut s = State::new();
        let first = s.create(key(0), FilterType::BlackList);
        let id = s.new_data_id(item(0).pointer);
        assert_eq!((first, id), (0, 1));
        for _ in 1..HANDLE_CAPACITY {
            s.create(key(0), FilterType::BlackList);
        }
        assert_eq!((s.live().appendable_data, s.live().data_id), (100, 1));
        // Use the first, so the second (handle 2) is now the least recently used.
        assert!(s.metadata(first, true).is_ok());
        let newest = s.create(key(0), FilterType::BlackList);
        assert_eq!(newest, 101);
        assert_eq!((s.live().appendable_data, s.live().data_id), (100, 1));
        assert!(s.has_ad(first));
        assert!(!s.has_ad(2));
        assert!(s.has_ad(3));
        // The data-id cache is separate: the data id is still live (not -1514).
        assert_eq!(s.fetch(id, true), Err(Code::GET_NO_SUCH_DATA));
    }

    #[test]
    fn handle_bytes_are_bounded_per_type_least_recently_used_evicted() {
        let mut s = State::new();
        // Appendable data of about a quarter of the bound each: four fit, a fifth evicts one.
        let items = HANDLE_BYTES / 4 / 140 - 2;
        let big = |n: u8| {
            let mut ad = Ad::new(key(n), FilterType::BlackList);
            for i in 0..items {
                let mut name = [n; 32];
                name[..8].copy_from_slice(&(i as u64).to_le_bytes());
                ad.data.insert(Item {
                    pointer: DataId::Structured(SdKey {
                        name,
                        type_tag: 500,
                    }),
                    signer: USER_KEY,
                });
            }
            ad
        };
        let handles: Vec<u64> = (0..4).map(|n| s.add_local(big(n))).collect();
        assert_eq!(s.live().appendable_data, 4);
        assert!(s.metadata(handles[0], true).is_ok(), "a use of the first");
        let fifth = s.add_local(big(4));
        assert_eq!(s.live().appendable_data, 4);
        assert!(s.has_ad(handles[0]) && s.has_ad(fifth));
        assert!(!s.has_ad(handles[1]), "the least recently used goes");
        // A small handle whose copy grows on a post (the network's items come in) makes room too.
        s.store(big(9));
        let small = s.add_local(Ad {
            version: 0,
            data: BTreeSet::new(),
            ..big(9)
        });
        assert_eq!(s.live().appendable_data, 5);
        assert_eq!(s.post(small), Ok(()));
        assert!(s.ads.bytes <= HANDLE_BYTES);
        assert!(s.has_ad(small));
        assert_eq!(s.live().appendable_data, 4);
        // Other types hold a fixed few bytes each and are bounded by count alone.
        assert_eq!(s.data_ids.bytes, 0);
    }

    #[test]
    fn the_network_is_bounded_with_network_full() {
        let mut s = State::new();
        let sd = |n: u8, size: usize| Sd {
            key: SdKey {
                name: [n; 32],
                type_tag: 500,
            },
            version: 0,
            versions: vec![vec![0; size]],
        };
        // Three of these fit in the network's bound (counted as base64), a fourth does not.
        let size = NETWORK_BYTES / 4 * 3 / 4 + 1024;
        for n in 0..3 {
            let h = s.add_sd(sd(n, size));
            assert_eq!(s.sd_put(h), Ok(()), "{n}");
            s.drop_sd(h).unwrap();
        }
        let h = s.add_sd(sd(3, size));
        assert_eq!(s.sd_put(h), Err(Code::NETWORK_FULL));
        // Filled up to 100 bytes short of the bound: one more appendable data does not fit.
        let room = NETWORK_BYTES - s.network_bytes - 100;
        let h = s.add_sd(sd(4, (room - 272) / 4 * 3));
        assert_eq!(s.sd_put(h), Ok(()));
        let a = s.create(key(1), FilterType::BlackList);
        assert_eq!(s.put(a), Err(Code::NETWORK_FULL));
        assert!(s.network_bytes <= NETWORK_BYTES);
        // A change that does not grow the network always passes.
        let d = s.new_data_id(DataId::Structured(SdKey {
            name: [0; 32],
            type_tag: 500,
        }));
        let (smaller, _) = s.sd_fetch(d, true).unwrap();
        s.sd_update(smaller, vec![1; 10]).unwrap();
        assert_eq!(s.sd_post(smaller), Ok(()), "shrinking is always allowed");
        let a = s.create(key(2), FilterType::BlackList);
        assert_eq!(s.put(a), Ok(()));
    }

    #[test]
    fn sessions_are_bounded() {
        let mut s = State::new();
        for n in 0..MAX_SESSIONS {
            assert!(s.add_session(n.to_string(), Permissions::default()));
        }
        assert!(!s.add_session("one more".into(), Permissions::default()));
        assert!(
            s.add_session("0".into(), Permissions::default()),
            "a live one again"
        );
        assert!(s.revoke("1"));
        assert!(s.add_session("one more".into(), Permissions::default()));
    }

    #[test]
    fn indexes_restore_and_drop() {
        let mut s = State::new();
        let h = saved(&mut s, 1, &[1, 2], &[]);
        assert_eq!(s.remove_at(h, 2), Err(Code::INVALID_INDEX));
        assert_eq!(s.remove_at(h, u64::MAX), Err(Code::INVALID_INDEX));
        s.remove_at(h, 1).unwrap();
        assert_eq!(s.restore(h, 1), Err(Code::INVALID_INDEX));
        s.restore(h, 0).unwrap();
        assert_eq!(s.metadata(h, false).unwrap().data_length, 2);
        s.remove_at(h, 0).unwrap();
        s.remove_deleted_at(h, 0).unwrap();
        let m = s.metadata(h, false).unwrap();
        assert_eq!(
            (m.data_length, m.deleted_data_length, m.is_owner),
            (1, 0, false)
        );
        assert_eq!(s.drop_ad(h), Ok(()));
        assert_eq!(s.drop_ad(h), Err(Code::INVALID_AD_HANDLE));
    }

    #[test]
    fn private_items_need_the_user() {
        let mut s = State::new();
        let private = AdKey {
            name: [1; 32],
            private: true,
        };
        let mut ad = Ad::new(private, FilterType::BlackList);
        ad.data.insert(item(1));
        let h = s.add_local(ad);
        assert_eq!(
            s.data_id_at(h, 0, false, false),
            Err(Code::FORBIDDEN_FOR_APP)
        );
        assert!(s.data_id_at(h, 0, false, true).is_ok());
        let e = s.encrypt_key(h).unwrap();
        assert_eq!(s.drop_encrypt_key(e), Ok(()));
        assert_eq!(s.drop_encrypt_key(e), Err(Code::INVALID_ENCRYPT_KEY_HANDLE));
        let public = s.create(key(2), FilterType::BlackList);
        assert_eq!(s.encrypt_key(public), Err(Code::UNSUPPORTED));
    }

    #[test]
    fn structured_data_versions() {
        let mut s = State::new();
        let k = SdKey {
            name: [1; 32],
            type_tag: VERSIONED,
        };
        let h = s.sd_create(k, 0, b"one".to_vec());
        assert_eq!(s.sd_post(h), Err(Code::NO_SUCH_DATA));
        s.sd_put(h).unwrap();
        assert_eq!(s.sd_put(h), Err(Code::DATA_EXISTS));
        assert_eq!(s.sd_post(h), Err(Code::INVALID_SUCCESSOR));
        s.sd_update(h, b"two".to_vec()).unwrap();
        s.sd_post(h).unwrap();
        assert_eq!(s.sd_read(h, None).unwrap(), b"two");
        assert_eq!(s.sd_read(h, Some(0)).unwrap(), b"one");
        assert_eq!(s.sd_read(h, Some(2)), Err(Code::INVALID_VERSION));
        let m = s.sd_metadata(h, true).unwrap();
        assert_eq!((m.version, m.versions), (1, Some(2)));
        let d = s.sd_data_id(h).unwrap();
        let (fresh, meta) = s.sd_fetch(d, false).unwrap();
        assert_eq!((meta.version, meta.is_owner), (1, false));
        assert_eq!(s.sd_read(fresh, None).unwrap(), b"two");
        let plain = s.plain_cipher();
        assert_eq!(s.plain_cipher(), plain);
        assert_eq!(s.check_cipher(plain), Ok(()));
        assert_eq!(
            s.check_cipher(plain + 1),
            Err(Code::INVALID_CIPHER_OPT_HANDLE)
        );
    }
}
