//! The launchers' memory, as the emulator keeps it: the "network" (appendable, structured and
//! immutable data stored by name), which every user shares, and each user's launcher: its handle
//! caches (local copies, data identifiers, sign keys, encrypt keys, cipher options) and its
//! sessions (tokens).
//!
//! This file holds the parts every family shares (the handle cache, as safe_core 0.23.0's
//! `src/ffi/low_level_api/object_cache.rs` kept it, the error codes, the sessions, the network as
//! a whole, the launchers); the users and their keys are in `users`; each data family is in its
//! own file: `appendable` (`appendable_data.rs`), `structured` (`struct_data.rs`), `immutable`
//! (`immut_data.rs`, `cipher_opt.rs`), `keys` (`data_id.rs`, `misc.rs`).
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
//! - a version is at most [`LAST_VERSION`], for the same reason: a save that would store a later
//!   one is refused with the emulator's own answer ([`Code::VERSION_LIMIT`]), never -25;
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
//! - each user is a launcher of its own over the one network (`users`): every app of a user shares
//!   its keys; an appendable data belongs to the key that made it (`isOwner` for that key only),
//!   only its owner saves it (a POST by another is -25, as routing's `update_with_other` refused
//!   a successor not signed by an owner), an item is signed by the key that appended it and
//!   checked against the filter with that key, and a private data's items open for its owner
//!   only (-11); an anonymous caller owns nothing. Structured data still belongs to every user.

use std::collections::{BTreeSet, HashMap};

mod appendable;
mod immutable;
mod keys;
mod structured;
#[cfg(test)]
mod tests;
mod users;

use appendable::LocalAd;
pub(crate) use appendable::{Ad, AdKey, Filter, FilterType, Item, Metadata};
pub(crate) use immutable::{Cipher, CloseNote, Immutable, Reader, Writer};
pub(crate) use keys::DataId;
pub(crate) use structured::{Sd, SdKey, SdMetadata, SdStatus, VERSIONED};
pub(crate) use users::{check_name, keep, roster, User, NO_OWNER};

/// How many live handles of each type the launcher kept (an LRU cache of 100 per type).
pub(crate) const HANDLE_CAPACITY: usize = 100;

/// The largest appendable or structured data the network stored, in bytes of its bincode:
/// routing 0.28.5's `MAX_PUB_APPENDABLE_DATA_SIZE_IN_BYTES`,
/// `MAX_PRIV_APPENDABLE_DATA_SIZE_IN_BYTES` and `MAX_STRUCTURED_DATA_SIZE_IN_BYTES` (102,400
/// each; its `validate_size` allows that many). `validate-size` answers by it, and the network
/// refused a save or an append past it with -29 ([`Code::DATA_TOO_LARGE`]).
pub(crate) const MAX_DATA_SIZE: usize = 100 * 1024;

/// The emulator's bound on the data its handles of one type hold together (appendable data and
/// structured data; the other types hold a fixed few bytes each). The launcher had none: its
/// core's cache held 100 handles whatever their size.
///
/// Public for safe-ad's tests, which check it; no API for other programs.
pub const HANDLE_BYTES: usize = 32 * 1024 * 1024;

/// The emulator's bound on what its network holds, in bytes of the `--state` file (see
/// [`Ad::file_size`]); the `--state` reader takes files a little larger than this.
///
/// Public for safe-ad's tests, which check it; no API for other programs.
pub const NETWORK_BYTES: usize = 32 * 1024 * 1024;

/// The last version a save reaches: 2^64 - 2. A `--state` file holds no later version (`wire`
/// refuses 2^64 - 1 at load, naming the entry, since no save can follow it: the launcher's next
/// would overflow), and every file the emulator writes must load again; so a save (`PUT`, or a
/// `POST`, delete or unclaim that stores version + 1) that would store a later version is
/// refused ([`Code::VERSION_LIMIT`]). Stopping one short of the launcher, which saved 2^64 - 1,
/// costs one version, which only data created or deserialised that close to the end (or a
/// fixture written so) comes near; and data at the limit answers its next save with words that
/// name the limit, not with -25, "someone saved this data", while `status` says it is in sync.
pub(crate) const LAST_VERSION: u64 = u64::MAX - 1;

/// The emulator's bound on live tokens (sessions). The launcher had none, but each of its
/// sessions took a click of its user.
///
/// Public for safe-ad's tests, which check it; no API for other programs.
pub const MAX_SESSIONS: usize = 10_000;

/// A public signing key (the emulator does no cryptography; keys are only compared).
pub(crate) type SignKey = [u8; 32];

/// The sign key of the emulator's first user (the one user when none is named): fixed, so that a
/// `--state` file stays valid across runs; other users get keys of their own (`users`).
pub(crate) const USER_KEY: SignKey = *b"safe-ad emulator user sign key!!";

/// A storage-core / FFI error code, as the launcher reported it in `errorCode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Code(pub(crate) i32);

impl Code {
    /// `CoreError::RoutingError`, `CLIENT_ERROR_START_RANGE - 10` in safe_core 0.23's
    /// `core/errors.rs` (the launcher's `error_code_lookup.js` names -11 so): what
    /// `appendable_data_nth_data_id` and `..._nth_sign_key` answered when the app's keys could not
    /// open a private item (routing's `PrivAppendedData::open` failed with
    /// `AsymmetricDecryptionFailure`, which `CoreError::from` wraps): an item of another user's
    /// private data.
    pub(crate) const ROUTING_ERROR: Code = Code(-11);
    /// `CoreError::ReceivedUnexpectedData` (a data id of the other kind of data).
    pub(crate) const UNEXPECTED_DATA: Code = Code(-5);
    /// `CoreError::GetFailure::GetError::NoSuchData` (a fetch of data not on the network).
    pub(crate) const GET_NO_SUCH_DATA: Code = Code(-18);
    /// `CoreError::MutationFailure::MutationError::NoSuchData` (POST or append of unstored data).
    pub(crate) const NO_SUCH_DATA: Code = Code(-22);
    /// `CoreError::MutationFailure::MutationError::DataExists` (PUT of stored data).
    pub(crate) const DATA_EXISTS: Code = Code(-23);
    /// `CoreError::MutationFailure::MutationError::InvalidSuccessor`.
    pub(crate) const INVALID_SUCCESSOR: Code = Code(-25);
    /// `FfiError::UnsuccessfulEncodeDecode` (deserialising bytes that are not the format).
    pub(crate) const ENCODE_DECODE: Code = Code(-1511);
    /// `FfiError::InvalidStructDataHandle`.
    pub(crate) const INVALID_SD_HANDLE: Code = Code(-1513);
    /// `FfiError::InvalidDataIdHandle`.
    pub(crate) const INVALID_DATA_ID_HANDLE: Code = Code(-1514);
    /// `FfiError::InvalidAppendableDataHandle`.
    pub(crate) const INVALID_AD_HANDLE: Code = Code(-1515);
    /// `FfiError::InvalidSelfEncryptorHandle` (an immutable-data writer or reader).
    pub(crate) const INVALID_SELF_ENCRYPTOR_HANDLE: Code = Code(-1516);
    /// `FfiError::InvalidSelfEncryptorReadOffsets` (a read past the end).
    pub(crate) const INVALID_READ_OFFSETS: Code = Code(-1523);
    /// `CoreError::MutationFailure::MutationError::InvalidOperation` (a POST or delete of
    /// deleted structured data).
    pub(crate) const INVALID_OPERATION: Code = Code(-26);
    /// `CoreError::MutationFailure::MutationError::DataTooLarge`: appendable data past the
    /// network's [`MAX_DATA_SIZE`], or an immutable data past [`immutable::MAX_IMMUTABLE_BYTES`].
    pub(crate) const DATA_TOO_LARGE: Code = Code(-29);
    /// `CoreError::UnsuccessfulEncodeDecode` (reading the data of deleted structured data).
    pub(crate) const CORE_ENCODE_DECODE: Code = Code(-2);
    /// `FfiError::InvalidCipherOptHandle`.
    pub(crate) const INVALID_CIPHER_OPT_HANDLE: Code = Code(-1517);
    /// `FfiError::InvalidEncryptKeyHandle`.
    pub(crate) const INVALID_ENCRYPT_KEY_HANDLE: Code = Code(-1518);
    /// `FfiError::InvalidSignKeyHandle`.
    pub(crate) const INVALID_SIGN_KEY_HANDLE: Code = Code(-1519);
    /// `FfiError::OperationForbiddenForApp` (reading private data without the user's keys).
    pub(crate) const FORBIDDEN_FOR_APP: Code = Code(-1520);
    /// `FfiError::InvalidStructuredDataTypeTag` (a version of an unversioned structured data).
    pub(crate) const INVALID_TYPE_TAG: Code = Code(-1521);
    /// `FfiError::InvalidVersionNumber`.
    pub(crate) const INVALID_VERSION: Code = Code(-1522);
    /// `FfiError::InvalidIndex`.
    pub(crate) const INVALID_INDEX: Code = Code(-1524);
    /// `FfiError::UnsupportedOperation` (an encrypt key of public data).
    pub(crate) const UNSUPPORTED: Code = Code(-1525);
    /// `FfiError::Unexpected`: what safe_core's `catch_unwind_i32` answered for a panic inside
    /// a call (the second close of a writer past 3 MiB).
    pub(crate) const UNEXPECTED: Code = Code(-1510);
    /// `CoreError::MutationFailure::MutationError::NetworkFull`: the network holds
    /// [`NETWORK_BYTES`] already.
    pub(crate) const NETWORK_FULL: Code = Code(-28);
    /// Not the core's: the emulator's own refusal of a save past [`LAST_VERSION`], which
    /// `routes` answers as the emulator answers its other own refusals (status 400, errorCode
    /// 400 and a description that names the limit), so a client tells it from -25.
    pub(crate) const VERSION_LIMIT: Code = Code(400);
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
pub(crate) struct Handles<'a> {
    pub(crate) appendable_data: Vec<(u64, &'a Ad)>,
    pub(crate) structured_data: Vec<(u64, &'a Sd)>,
    pub(crate) data_id: Vec<(u64, &'a DataId)>,
    pub(crate) sign_key: Vec<(u64, &'a SignKey)>,
    pub(crate) encrypt_key: Vec<(u64, &'a AdKey)>,
    pub(crate) cipher_opts: Vec<(u64, &'a Cipher)>,
    /// Immutable-data writers, with what each holds.
    pub(crate) writers: Vec<(u64, &'a Writer)>,
    /// Immutable-data readers, with the data each reads.
    pub(crate) readers: Vec<(u64, &'a Reader)>,
    pub(crate) next: u64,
}

/// The permissions a token carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Permissions {
    pub(crate) low_level_api: bool,
    pub(crate) safe_drive_access: bool,
}

/// How many handles of each type are live: what `--log` records and the stop line report, so a
/// test can check that a command left none behind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Live {
    pub(crate) appendable_data: usize,
    pub(crate) structured_data: usize,
    pub(crate) data_id: usize,
    pub(crate) sign_key: usize,
    pub(crate) encrypt_key: usize,
    pub(crate) cipher_opts: usize,
}

impl Live {
    /// `(name, count)` for each type, in a fixed order; the names are those of the JSON log.
    pub(crate) fn pairs(&self) -> [(&'static str, usize); 6] {
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

/// One user's launcher: its handle caches (local copies, data identifiers, sign keys, encrypt
/// keys, cipher options, immutable-data writers and readers), its one counter of handle ids, its
/// sessions (tokens), and the user it is. Each launcher had its own: a handle or a token of one is
/// nothing to another.
#[derive(Debug)]
pub(crate) struct Launcher {
    user: User,
    ads: HandleCache<LocalAd>,
    sds: HandleCache<Sd>,
    data_ids: HandleCache<DataId>,
    sign_keys: HandleCache<SignKey>,
    /// An encrypt key handle holds the key of the private data it came from (only counted here).
    encrypt_keys: HandleCache<AdKey>,
    /// Cipher options, by kind (an asymmetric one for the user's own key).
    cipher_opts: HandleCache<Cipher>,
    /// The plain cipher options the structured-data controller made once, on first use.
    plain_cipher: Option<u64>,
    /// Those the immutable-data controller made once, on its own first use.
    immutable_plain_cipher: Option<u64>,
    /// Immutable-data (self-encryptor) writers: what each holds.
    writers: HandleCache<Writer>,
    /// Immutable-data (self-encryptor) readers.
    readers: HandleCache<Reader>,
    next_handle: u64,
    sessions: HashMap<String, Permissions>,
}

impl Launcher {
    /// A launcher as it starts for `user`: no handles, no sessions, ids counted from 0.
    fn new(user: User) -> Launcher {
        Launcher {
            user,
            ads: HandleCache::new(),
            sds: HandleCache::new(),
            data_ids: HandleCache::new(),
            sign_keys: HandleCache::new(),
            encrypt_keys: HandleCache::new(),
            cipher_opts: HandleCache::new(),
            plain_cipher: None,
            immutable_plain_cipher: None,
            writers: HandleCache::new(),
            readers: HandleCache::new(),
            next_handle: 0,
            sessions: HashMap::new(),
        }
    }

    fn live(&self) -> Live {
        Live {
            appendable_data: self.ads.len(),
            structured_data: self.sds.len(),
            data_id: self.data_ids.len(),
            sign_key: self.sign_keys.len(),
            encrypt_key: self.encrypt_keys.len(),
            cipher_opts: self.cipher_opts.len(),
        }
    }
}

/// The network every user shares, and each user's launcher.
///
/// A request comes to one user's launcher (the port it came to): [`State::act_as`] makes that
/// launcher `me` before the call, and every call acts as that user, with that user's handles,
/// sessions and keys, on the one network. The other launchers wait in `launchers` (their own
/// slot in `me`'s place holds an empty stand-in meanwhile), so that a call reaches the network
/// and its own launcher's tables as two fields, without an index at every use.
#[derive(Debug)]
pub(crate) struct State {
    ads_stored: HashMap<AdKey, Ad>,
    sds_stored: HashMap<SdKey, Sd>,
    ids_stored: HashMap<[u8; 32], Immutable>,
    /// What the network holds, counted as [`Ad::file_size`], [`Sd::file_size`] and
    /// [`Immutable::file_size`] count it.
    network_bytes: usize,
    /// The launcher of the user whose request is being answered.
    me: Launcher,
    /// Every user's launcher, by the user's place in the roster; `acting`'s is in `me`.
    launchers: Vec<Launcher>,
    acting: usize,
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
    /// An empty launcher of the one unnamed user (the emulator's [`USER_KEY`]): nothing stored,
    /// no handles, no sessions.
    pub(crate) fn new() -> State {
        State::with_users(vec![User::default_user()])
    }

    /// An empty network and a launcher for each of `users` (at least one), in that order: the
    /// first acts until [`State::act_as`] says otherwise.
    pub(crate) fn with_users(users: Vec<User>) -> State {
        let mut launchers: Vec<Launcher> = users.into_iter().map(Launcher::new).collect();
        if launchers.is_empty() {
            launchers.push(Launcher::new(User::default_user()));
        }
        let me = std::mem::replace(&mut launchers[0], Launcher::new(User::default_user()));
        State {
            ads_stored: HashMap::new(),
            sds_stored: HashMap::new(),
            ids_stored: HashMap::new(),
            network_bytes: 0,
            me,
            launchers,
            acting: 0,
        }
    }

    /// Makes user `user`'s launcher (its place in the roster) the one every call acts as; a
    /// user past the roster leaves it as it is.
    pub(crate) fn act_as(&mut self, user: usize) {
        if user == self.acting || user >= self.launchers.len() {
            return;
        }
        std::mem::swap(&mut self.me, &mut self.launchers[self.acting]);
        std::mem::swap(&mut self.me, &mut self.launchers[user]);
        self.acting = user;
    }

    /// The user acting now.
    pub(crate) fn me(&self) -> &User {
        &self.me.user
    }

    /// Every user, in the roster's order.
    pub(crate) fn users(&self) -> Vec<User> {
        (0..self.launchers.len())
            .map(|index| self.launcher(index).user.clone())
            .collect()
    }

    fn launcher(&self, index: usize) -> &Launcher {
        match index == self.acting {
            true => &self.me,
            false => &self.launchers[index],
        }
    }

    fn allocate(&mut self) -> u64 {
        let id = self.me.next_handle;
        self.me.next_handle = self.me.next_handle.saturating_add(1);
        id
    }

    // ---- sessions -------------------------------------------------------------------------

    /// Makes `token` valid with `permissions`; false (and nothing done) when [`MAX_SESSIONS`]
    /// tokens are live already.
    pub(crate) fn add_session(&mut self, token: String, permissions: Permissions) -> bool {
        if self.me.sessions.len() >= MAX_SESSIONS && !self.me.sessions.contains_key(&token) {
            return false;
        }
        self.me.sessions.insert(token, permissions);
        true
    }

    /// The permissions of a live token.
    pub(crate) fn session(&self, token: &str) -> Option<Permissions> {
        self.me.sessions.get(token).copied()
    }

    /// Revokes a token; true if it was live.
    pub(crate) fn revoke(&mut self, token: &str) -> bool {
        self.me.sessions.remove(token).is_some()
    }

    // ---- the network as a whole (demo state, `--state` files, tests) ---------------------

    /// Stores an appendable data on the network directly, as if saved earlier (whatever the
    /// network holds already: the demo state and `--state` files).
    pub(crate) fn store(&mut self, ad: Ad) {
        self.network_bytes += ad.file_size();
        if let Some(old) = self.ads_stored.insert(ad.key, ad) {
            self.network_bytes -= old.file_size();
        }
    }

    /// Stores a structured data on the network directly.
    pub(crate) fn store_sd(&mut self, sd: Sd) {
        self.network_bytes += sd.file_size();
        if let Some(old) = self.sds_stored.insert(sd.key, sd) {
            self.network_bytes -= old.file_size();
        }
    }

    /// Stores an immutable data on the network directly.
    pub(crate) fn store_immutable(&mut self, data: Immutable) {
        self.network_bytes += data.file_size();
        if let Some(old) = self.ids_stored.insert(data.name, data) {
            self.network_bytes -= old.file_size();
        }
    }

    /// What a fetch of `id` as the wrong kind of data gets: -5 when the network holds data of
    /// another kind there, -18 (404) when it holds nothing.
    fn other_kind(&self, id: &DataId) -> Code {
        let stored = match id {
            DataId::Structured(key) => self.sds_stored.contains_key(key),
            DataId::Immutable(name) => self.ids_stored.contains_key(name),
            DataId::Appendable(key) => self.ads_stored.contains_key(key),
        };
        if stored {
            Code::UNEXPECTED_DATA
        } else {
            Code::GET_NO_SUCH_DATA
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

    /// Refuses ([`Code::VERSION_LIMIT`]) a save that would store `version`, past
    /// [`LAST_VERSION`]; `None` is version + 1 of `u64::MAX`, past it too.
    fn check_version(version: Option<u64>) -> Res<u64> {
        version
            .filter(|&version| version <= LAST_VERSION)
            .ok_or(Code::VERSION_LIMIT)
    }

    /// The stored appendable data, if on the network.
    pub(crate) fn stored(&self, key: &AdKey) -> Option<&Ad> {
        self.ads_stored.get(key)
    }

    /// Everything on the network, in a stable order (for `--state` files).
    pub(crate) fn network(&self) -> (Vec<&Ad>, Vec<&Sd>, Vec<&Immutable>) {
        let mut ads: Vec<&Ad> = self.ads_stored.values().collect();
        ads.sort_by_key(|ad| ad.key);
        let mut sds: Vec<&Sd> = self.sds_stored.values().collect();
        sds.sort_by_key(|sd| sd.key);
        let mut ids: Vec<&Immutable> = self.ids_stored.values().collect();
        ids.sort_by_key(|data| data.name);
        (ads, sds, ids)
    }

    /// How many handles of each type are live, in every user's launcher together (what the
    /// stop line and `--log` count: a command leaves none behind in any of them).
    pub(crate) fn live(&self) -> Live {
        (0..self.launchers.len())
            .map(|index| self.launcher(index).live())
            .fold(Live::default(), |sum, one| Live {
                appendable_data: sum.appendable_data + one.appendable_data,
                structured_data: sum.structured_data + one.structured_data,
                data_id: sum.data_id + one.data_id,
                sign_key: sum.sign_key + one.sign_key,
                encrypt_key: sum.encrypt_key + one.encrypt_key,
                cipher_opts: sum.cipher_opts + one.cipher_opts,
            })
    }

    /// Every live handle of the acting user's launcher and what it holds (no handle counts as
    /// used).
    pub(crate) fn handles(&self) -> Handles<'_> {
        Handles {
            appendable_data: self
                .me
                .ads
                .sorted()
                .into_iter()
                .map(|(id, local)| (id, &local.ad))
                .collect(),
            structured_data: self.me.sds.sorted(),
            data_id: self.me.data_ids.sorted(),
            sign_key: self.me.sign_keys.sorted(),
            encrypt_key: self.me.encrypt_keys.sorted(),
            cipher_opts: self.me.cipher_opts.sorted(),
            writers: self.me.writers.sorted(),
            readers: self.me.readers.sorted(),
            next: self.me.next_handle,
        }
    }
}
