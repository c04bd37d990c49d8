//! Structured data in the launcher's memory: the data type, its local copies under handles, and
//! every structured-data call, as safe_core 0.23.0's `src/ffi/low_level_api/struct_data.rs` did
//! them, with the network's rules of routing 0.28.5's `structured_data.rs` as safe_core's mock
//! network applied them:
//! - an update (`PATCH`) changes the copy's data and not its version; POST sends the copy at
//!   version + 1 (refused with -25 unless the copy's version is the stored one) and the copy
//!   becomes what was sent;
//! - DELETE sends version + 1 with no data: the network keeps the data deleted (no data, no
//!   owner, that version), which a PUT at the next version claims again, and a POST or a second
//!   delete is refused with -26; the copy becomes version + 1 with no data (reading it fails);
//! - unclaim sends version + 1 with no data and no owner anybody has the key of: the data stays
//!   on the network, and nobody can POST, delete or claim it again;
//! - a PUT or POST that would store data past the network's size (routing's
//!   `MAX_STRUCTURED_DATA_SIZE_IN_BYTES`, of the data as the emulator holds it: its content
//!   inline) is refused with -29, `DataTooLarge`;
//! - data written with symmetric or asymmetric cipher options is kept as written, but safe_core
//!   decrypted it with the app's keys on every read (`CipherOpt::decrypt`), so an anonymous app
//!   cannot read it (-1520).

use super::{Code, DataId, Res, State, MAX_DATA_SIZE};

/// The network address of a structured data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct SdKey {
    pub(crate) name: [u8; 32],
    pub(crate) type_tag: u64,
}

/// A structured data: what the network stores, and what a handle holds as its local copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sd {
    pub(crate) key: SdKey,
    pub(crate) version: u64,
    /// The data of each version, oldest first: one entry unless the type tag is 501 (versioned);
    /// none after a delete or unclaim (it has no data to read).
    pub(crate) versions: Vec<Vec<u8>>,
    /// Whether each version was written with symmetric or asymmetric cipher options (one an
    /// anonymous app cannot read); a version past its end is plain.
    pub(crate) encrypted: Vec<bool>,
    /// Who owns it now.
    pub(crate) status: SdStatus,
}

/// Who owns a structured data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum SdStatus {
    /// The user (every app in the emulator).
    #[default]
    Owned,
    /// Nobody: deleted on the network (no data, no owners), claimable by a PUT at the next
    /// version.
    Deleted,
    /// A key nobody has (`NO_OWNER_PUB_KEY`): it can never change again.
    Unclaimable,
}

impl Sd {
    /// Whether it keeps its versions (type tag 501); others keep only their latest data.
    pub(crate) fn is_versioned(&self) -> bool {
        self.key.type_tag == VERSIONED
    }

    /// Whether version `n` (counted from 0) was written encrypted.
    pub(crate) fn is_encrypted(&self, n: usize) -> bool {
        self.encrypted.get(n).copied().unwrap_or(false)
    }

    /// Its current data (empty if none).
    pub(crate) fn current(&self) -> &[u8] {
        self.versions.last().map_or(&[], Vec::as_slice)
    }

    pub(super) fn size(&self) -> usize {
        64 + self.versions.iter().map(Vec::len).sum::<usize>()
    }

    /// Its size as routing 0.28.5 measured it (`validate_size`: the bincode length of a
    /// `StructuredData`), for the data as the emulator holds it (its content in `data`, all
    /// versions of a versioned one: docs/emulator-differences.md): the length of what
    /// `GET /structured-data/serialise` writes (`serialised`'s tests check that the two agree).
    pub(crate) fn network_size(&self) -> usize {
        const LENGTH: usize = 8;
        const KEY: usize = LENGTH + 32;
        const SIGNATURE: usize = LENGTH + 64;
        let data = match self.versions.is_empty() {
            true => 0,
            false if self.is_versioned() => {
                LENGTH
                    + self
                        .versions
                        .iter()
                        .map(|v| LENGTH + v.len())
                        .sum::<usize>()
            }
            false => self.current().len(),
        };
        // Owned and unclaimable data have one owner and one signature, deleted data none.
        let signed = usize::from(self.status != SdStatus::Deleted);
        // type tag, name, data, version, owners, signatures.
        8 + 32
            + (LENGTH + data)
            + 8
            + (LENGTH + signed * KEY)
            + (LENGTH + signed * (KEY + SIGNATURE))
    }

    /// Whether the network would store it: [`Sd::network_size`] within [`MAX_DATA_SIZE`]
    /// (routing's `MAX_STRUCTURED_DATA_SIZE_IN_BYTES`); -29 `DataTooLarge` otherwise.
    pub(crate) fn check_size(&self) -> Res<()> {
        match self.network_size() <= MAX_DATA_SIZE {
            true => Ok(()),
            false => Err(Code::DATA_TOO_LARGE),
        }
    }

    /// At least the bytes it takes in a `--state` file: a header and each version in base64
    /// (and whether it is encrypted).
    pub(crate) fn file_size(&self) -> usize {
        256 + self
            .versions
            .iter()
            .map(|data| 32 + data.len().div_ceil(3) * 4)
            .sum::<usize>()
    }
}

/// The type tag of versioned structured data.
pub(crate) const VERSIONED: u64 = 501;
/// The first type tag of an app's own structured data (safe_core's
/// `CLIENT_STRUCTURED_DATA_TAG`): its data is the cipher's output, nothing of safe_core's.
pub(crate) const CLIENT_TAGS: u64 = 15000;

/// What the structured-data metadata routes report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SdMetadata {
    pub(crate) is_owner: bool,
    pub(crate) version: u64,
    /// The number of versions, for versioned data only.
    pub(crate) versions: Option<usize>,
}

impl State {
    pub(super) fn sd(&mut self, handle: u64) -> Res<&mut Sd> {
        self.me.sds.get_mut(handle).ok_or(Code::INVALID_SD_HANDLE)
    }

    // ---- structured data -----------------------------------------------------------------

    /// `POST /structured-data`: a new local structured data, not stored.
    /// `encrypted`: written with symmetric or asymmetric cipher options.
    pub(crate) fn sd_create(
        &mut self,
        key: SdKey,
        version: u64,
        data: Vec<u8>,
        encrypted: bool,
    ) -> u64 {
        self.add_sd(Sd {
            key,
            version,
            versions: vec![data],
            encrypted: vec![encrypted],
            status: SdStatus::Owned,
        })
    }

    /// Puts a structured data under a new handle (`deserialise`).
    pub(crate) fn add_sd(&mut self, sd: Sd) -> u64 {
        let handle = self.allocate();
        let size = sd.size();
        self.me.sds.insert(handle, sd, size);
        handle
    }

    /// `PUT /structured-data/:h`: stores the copy as it is. -1513; -23 when stored already,
    /// unless the stored one is deleted and the copy is at its next version (claiming it again;
    /// another version is -25); -29 past the network's size ([`Sd::check_size`]); the emulator's [`Code::VERSION_LIMIT`] for a copy past
    /// [`LAST_VERSION`](super::LAST_VERSION).
    pub(crate) fn sd_put(&mut self, handle: u64) -> Res<()> {
        let mut sd = self.sd(handle)?.clone();
        let old = match self.sds_stored.get(&sd.key) {
            None => 0,
            Some(stored) if stored.status == SdStatus::Deleted => {
                if stored.version.checked_add(1) != Some(sd.version) {
                    return Err(Code::INVALID_SUCCESSOR);
                }
                stored.file_size()
            }
            Some(_) => return Err(Code::DATA_EXISTS),
        };
        State::check_version(Some(sd.version))?;
        sd.status = SdStatus::Owned;
        sd.check_size()?;
        self.check_network(old, sd.file_size())?;
        self.store_sd(sd);
        Ok(())
    }

    /// What a POST, delete or unclaim of the copy under `handle` may replace: -1513, -22 not
    /// stored, -26 deleted, -25 unclaimable or stored at another version than the copy's; the
    /// emulator's [`Code::VERSION_LIMIT`] when that version is [`LAST_VERSION`](super::LAST_VERSION).
    fn sd_successor(&mut self, handle: u64) -> Res<Sd> {
        let mut sd = self.sd(handle)?.clone();
        let stored = self.sds_stored.get(&sd.key).ok_or(Code::NO_SUCH_DATA)?;
        match stored.status {
            SdStatus::Deleted => return Err(Code::INVALID_OPERATION),
            SdStatus::Unclaimable => return Err(Code::INVALID_SUCCESSOR),
            SdStatus::Owned if stored.version != sd.version => return Err(Code::INVALID_SUCCESSOR),
            SdStatus::Owned => {}
        }
        sd.version = State::check_version(sd.version.checked_add(1))?;
        Ok(sd)
    }

    /// Stores `sent` on the network (`stored` in place of what is there) and makes it the copy
    /// under `handle`.
    fn sd_replace(&mut self, handle: u64, sent: Sd, stored: Sd) -> Res<()> {
        stored.check_size()?;
        let old = self.sds_stored.get(&stored.key).map_or(0, Sd::file_size);
        self.check_network(old, stored.file_size())?;
        self.store_sd(stored);
        let size = sent.size();
        *self.sd(handle)? = sent;
        self.me.sds.resize(handle, size);
        Ok(())
    }

    /// `POST /structured-data/:h`: sends the copy at version + 1 (see [`State::sd_successor`]
    /// for the refusals); the copy becomes what was sent.
    pub(crate) fn sd_post(&mut self, handle: u64) -> Res<()> {
        let sent = self.sd_successor(handle)?;
        self.sd_replace(handle, sent.clone(), sent)
    }

    /// `DELETE /structured-data/:h`: sends version + 1 with no data; the network keeps it
    /// deleted, the copy keeps its owner and no data.
    pub(crate) fn sd_delete(&mut self, handle: u64) -> Res<()> {
        let mut sent = self.sd_successor(handle)?;
        sent.versions.clear();
        sent.encrypted.clear();
        let stored = Sd {
            status: SdStatus::Deleted,
            ..sent.clone()
        };
        self.sd_replace(handle, sent, stored)
    }

    /// `DELETE /structured-data/unclaim/:h`: sends version + 1 with no data and an owner nobody
    /// has the key of; the copy becomes that too.
    pub(crate) fn sd_unclaim(&mut self, handle: u64) -> Res<()> {
        let mut sent = self.sd_successor(handle)?;
        sent.versions.clear();
        sent.encrypted.clear();
        sent.status = SdStatus::Unclaimable;
        self.sd_replace(handle, sent.clone(), sent)
    }

    /// `PATCH /structured-data/:h`: new data for the copy, at the same version (the next POST
    /// bumps it); a versioned structured data keeps the older versions.
    pub(crate) fn sd_update(&mut self, handle: u64, data: Vec<u8>, encrypted: bool) -> Res<()> {
        let sd = self.sd(handle)?;
        if sd.is_versioned() {
            let older = sd.versions.len();
            sd.encrypted.resize(older, false);
            sd.versions.push(data);
            sd.encrypted.push(encrypted);
        } else {
            sd.versions = vec![data];
            sd.encrypted = vec![encrypted];
        }
        let size = sd.size();
        self.me.sds.resize(handle, size);
        Ok(())
    }

    /// `GET /structured-data/handle/:dataIdHandle`: -1514, -18 (404) not stored, -5 for an
    /// appendable data's id.
    pub(crate) fn sd_fetch(&mut self, data_id: u64, authorised: bool) -> Res<(u64, SdMetadata)> {
        let key = match self.data_id(data_id)? {
            DataId::Structured(key) => key,
            other => return Err(self.other_kind(&other)),
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
    pub(crate) fn sd_metadata(&mut self, handle: u64, authorised: bool) -> Res<SdMetadata> {
        Ok(sd_metadata_of(self.sd(handle)?, authorised))
    }

    /// `GET /structured-data/:h/:version?`: the current data, or (versioned data only) the data
    /// of version `n` counted from 0; -1521 for a version of unversioned data, -1522 out of range;
    /// -1520 for data written encrypted, without a token (`authorised`): safe_core decrypted it
    /// with the app's keys (`CipherOpt::decrypt`), which the launcher's anonymous app lacked.
    pub(crate) fn sd_read(
        &mut self,
        handle: u64,
        version: Option<u64>,
        authorised: bool,
    ) -> Res<Vec<u8>> {
        let sd = self.sd(handle)?;
        let read = match version {
            None => sd.versions.len().checked_sub(1),
            Some(n) => usize::try_from(n).ok(),
        };
        let data = Self::sd_version(sd, version)?;
        if !authorised && read.is_some_and(|n| sd.is_encrypted(n)) {
            return Err(Code::FORBIDDEN_FOR_APP);
        }
        Ok(data)
    }

    fn sd_version(sd: &Sd, version: Option<u64>) -> Res<Vec<u8>> {
        match version {
            // Deleted or unclaimable: no data to decode. Tags 500 and 501 went through
            // safe_core's own decoding (`unversioned::get_data`, `versioned::current_version`:
            // a CoreError, -2); a tag from 15000 straight to `CipherOpt::decrypt`, whose
            // `deserialise` of nothing is an FfiError (`struct_data_extract_data`): -1511.
            None if sd.versions.is_empty() => Err(if sd.key.type_tag >= CLIENT_TAGS {
                Code::ENCODE_DECODE
            } else {
                Code::CORE_ENCODE_DECODE
            }),
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
    pub(crate) fn sd_data_id(&mut self, handle: u64) -> Res<u64> {
        let key = self.sd(handle)?.key;
        Ok(self.new_data_id(DataId::Structured(key)))
    }

    /// `GET /structured-data/validate-size/:h`.
    pub(crate) fn sd_size_valid(&mut self, handle: u64) -> Res<bool> {
        Ok(self.sd(handle)?.network_size() <= MAX_DATA_SIZE)
    }

    /// The local copy behind a handle (`serialise`).
    pub(crate) fn sd_copy(&mut self, handle: u64) -> Res<Sd> {
        self.sd(handle).cloned()
    }

    /// `DELETE /structured-data/handle/:h`; -1513 when not live.
    pub(crate) fn drop_sd(&mut self, handle: u64) -> Res<()> {
        self.me
            .sds
            .remove(handle)
            .map(drop)
            .ok_or(Code::INVALID_SD_HANDLE)
    }
}

fn sd_metadata_of(sd: &Sd, authorised: bool) -> SdMetadata {
    SdMetadata {
        is_owner: authorised && sd.status == SdStatus::Owned,
        version: sd.version,
        versions: sd.is_versioned().then_some(sd.versions.len()),
    }
}
