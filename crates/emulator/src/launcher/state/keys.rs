//! Keys and ids in the launcher's memory: data identifiers (safe_core 0.23.0's
//! `src/ffi/low_level_api/data_id.rs`), sign keys and the freeing of encrypt keys
//! (`src/ffi/low_level_api/misc.rs`).

use super::{AdKey, Code, Res, SdKey, SignKey, State};

/// What a data identifier points at (routing 0.28.5's `DataIdentifier`: `Structured(name,
/// type_tag)`, `Immutable(name)`, `PubAppendable(name)`, `PrivAppendable(name)`, in that variant
/// order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum DataId {
    Structured(SdKey),
    Immutable([u8; 32]),
    /// `PubAppendable` or `PrivAppendable`, by [`AdKey::private`].
    Appendable(AdKey),
}

impl DataId {
    /// The index of routing's variant: 0 structured, 1 immutable, 2 public appendable, 3 private
    /// appendable (the `u32` tag of its bincode, and the first key of its order).
    pub(crate) fn variant(&self) -> u32 {
        match self {
            DataId::Structured(_) => 0,
            DataId::Immutable(_) => 1,
            DataId::Appendable(AdKey { private: false, .. }) => 2,
            DataId::Appendable(AdKey { private: true, .. }) => 3,
        }
    }

    /// The 32-byte name it points at.
    pub(crate) fn name(&self) -> &[u8; 32] {
        match self {
            DataId::Structured(key) => &key.name,
            DataId::Immutable(name) => name,
            DataId::Appendable(key) => &key.name,
        }
    }

    fn type_tag(&self) -> u64 {
        match self {
            DataId::Structured(key) => key.type_tag,
            _ => 0,
        }
    }
}

/// The order routing derives for `DataIdentifier`: variant first (every structured data before
/// every immutable data before public, then private, appendable data), then the name, then the
/// type tag. Items of an appendable data are kept in this order, so it decides what index `n`
/// names.
impl Ord for DataId {
    fn cmp(&self, other: &DataId) -> std::cmp::Ordering {
        (self.variant(), self.name(), self.type_tag()).cmp(&(
            other.variant(),
            other.name(),
            other.type_tag(),
        ))
    }
}

impl PartialOrd for DataId {
    fn partial_cmp(&self, other: &DataId) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl State {
    pub(super) fn data_id(&mut self, handle: u64) -> Res<DataId> {
        self.me
            .data_ids
            .get_mut(handle)
            .copied()
            .ok_or(Code::INVALID_DATA_ID_HANDLE)
    }

    pub(super) fn sign_key(&mut self, handle: u64) -> Res<SignKey> {
        self.me
            .sign_keys
            .get_mut(handle)
            .copied()
            .ok_or(Code::INVALID_SIGN_KEY_HANDLE)
    }

    pub(super) fn new_sign_key(&mut self, key: SignKey) -> u64 {
        let handle = self.allocate();
        self.me.sign_keys.insert(handle, key, 0);
        handle
    }
    /// `DELETE /appendable-data/encrypt-key/:h` (an encrypt-key handle); -1518 when not live.
    pub(crate) fn drop_encrypt_key(&mut self, handle: u64) -> Res<()> {
        self.me
            .encrypt_keys
            .remove(handle)
            .map(drop)
            .ok_or(Code::INVALID_ENCRYPT_KEY_HANDLE)
    }

    // ---- data identifiers ----------------------------------------------------------------

    /// `POST /data-id/appendable-data`, `POST /data-id/structured-data`, deserialise.
    pub(crate) fn new_data_id(&mut self, id: DataId) -> u64 {
        let handle = self.allocate();
        self.me.data_ids.insert(handle, id, 0);
        handle
    }

    /// What a data-id handle names (`serialise`).
    pub(crate) fn data_id_value(&mut self, handle: u64) -> Res<DataId> {
        self.data_id(handle)
    }

    /// `DELETE /data-id/:h`; -1514 when not live.
    pub(crate) fn drop_data_id(&mut self, handle: u64) -> Res<()> {
        self.me
            .data_ids
            .remove(handle)
            .map(drop)
            .ok_or(Code::INVALID_DATA_ID_HANDLE)
    }

    // ---- sign keys -----------------------------------------------------------------------

    /// `GET /sign-key`: a new handle for the acting user's own key.
    pub(crate) fn user_sign_key(&mut self) -> u64 {
        let key = self.me.user.key;
        self.new_sign_key(key)
    }

    /// The key behind a sign-key handle (`serialise`).
    pub(crate) fn sign_key_value(&mut self, handle: u64) -> Res<SignKey> {
        self.sign_key(handle)
    }

    /// `POST /sign-key/deserialise`.
    pub(crate) fn add_sign_key(&mut self, key: SignKey) -> u64 {
        self.new_sign_key(key)
    }

    /// `DELETE /sign-key/:h`; -1519 when not live.
    pub(crate) fn drop_sign_key(&mut self, handle: u64) -> Res<()> {
        self.me
            .sign_keys
            .remove(handle)
            .map(drop)
            .ok_or(Code::INVALID_SIGN_KEY_HANDLE)
    }
}
