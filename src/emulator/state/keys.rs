//! Keys and ids in the launcher's memory: data identifiers (safe_core 0.23.0's
//! `src/ffi/low_level_api/data_id.rs`), sign keys and the freeing of encrypt keys
//! (`src/ffi/low_level_api/misc.rs`), and cipher options (`cipher_opt.rs`).

use super::{AdKey, Code, Res, SdKey, SignKey, State, USER_KEY};

/// What a data identifier points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DataId {
    Structured(SdKey),
    Appendable(AdKey),
}

impl State {
    pub(super) fn data_id(&mut self, handle: u64) -> Res<DataId> {
        self.data_ids
            .get_mut(handle)
            .copied()
            .ok_or(Code::INVALID_DATA_ID_HANDLE)
    }

    pub(super) fn sign_key(&mut self, handle: u64) -> Res<SignKey> {
        self.sign_keys
            .get_mut(handle)
            .copied()
            .ok_or(Code::INVALID_SIGN_KEY_HANDLE)
    }

    pub(super) fn new_sign_key(&mut self, key: SignKey) -> u64 {
        let handle = self.allocate();
        self.sign_keys.insert(handle, key, 0);
        handle
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
}
