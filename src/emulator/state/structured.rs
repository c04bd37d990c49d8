//! Structured data in the launcher's memory: the data type, its local copies under handles, and
//! every structured-data call, as safe_core 0.23.0's `src/ffi/low_level_api/struct_data.rs` did
//! them.

use super::{Code, DataId, Res, State, MAX_DATA_SIZE};

/// The network address of a structured data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SdKey {
    pub name: [u8; 32],
    pub type_tag: u64,
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

    pub(super) fn size(&self) -> usize {
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

/// What the structured-data metadata routes report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SdMetadata {
    pub is_owner: bool,
    pub version: u64,
    /// The number of versions, for versioned data only.
    pub versions: Option<usize>,
}

impl State {
    pub(super) fn sd(&mut self, handle: u64) -> Res<&mut Sd> {
        self.sds.get_mut(handle).ok_or(Code::INVALID_SD_HANDLE)
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

fn sd_metadata_of(sd: &Sd, authorised: bool) -> SdMetadata {
    SdMetadata {
        is_owner: authorised,
        version: sd.version,
        versions: sd.is_versioned().then_some(sd.versions.len()),
    }
}
