//! Immutable data and cipher options in the launcher's memory: self-encryptor writers and
//! readers and the immutable data they store and read, as safe_core 0.23.0's
//! `src/ffi/low_level_api/immut_data.rs` did them, and the cipher options of `cipher_opt.rs`.
//!
//! The emulator has no cryptography. Content is kept as written, whatever the cipher options;
//! they decide only who may read it back: anyone for plain, the user (any app with a token) for
//! symmetric and asymmetric, never an anonymous app (-1520: the launcher's anonymous app had no
//! keys to decrypt with). The name of an immutable data is the SHA-256 of the cipher's kind and
//! the content (the launcher's was a hash of the encrypted data map: the same for the same plain
//! content, a new one for every symmetric or asymmetric write).
//!
//! Handles as safe_core kept them: closing a writer stores the data and gives a new data-id
//! handle but leaves the writer live (it can be written to, closed again or dropped); a reader
//! holds what it read at fetch time.
//!
//! What a writer holds after a close is self_encryption 0.7.1's (`src/sequential/`), whose
//! `close` safe_core's `immut_data_close_self_encryptor` calls first, before it looks at the
//! cipher options or stores anything: under 3 KiB (`small_encryptor.rs`) `close` swaps the
//! buffer for an empty one, so the writer is empty afterwards (a second close stores empty
//! data, later writes start from nothing, and a close that then fails, -1517 or -28, has
//! emptied it all the same); from 3 KiB to 3 MiB (`medium_encryptor.rs`) the buffer stays, so a
//! second close stores the same content again; past 3 MiB (`large_encryptor.rs`) `close` swaps
//! out its buffers and chunk list, and a second close indexes the empty chunk list and panics,
//! which safe_core answered as -1510 (`FfiError::Unexpected`).

use std::sync::Arc;

use super::{Code, DataId, Res, State, NETWORK_BYTES};

/// The emulator's bound on one immutable data (a writer refuses bytes beyond it with -29,
/// `DataTooLarge`), under the 10 MiB a raw request body may hold. The launcher had none:
/// self-encryption split any size into chunks.
pub(crate) const MAX_IMMUTABLE_BYTES: usize = 8 * 1024 * 1024;

/// Cipher options (`CipherOpt`): how data is to be encrypted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cipher {
    Plain,
    Symmetric,
    /// For the owner of an encrypt key: here always the one user.
    Asymmetric,
}

impl Cipher {
    /// As the launcher's API named it (`GET /cipher-opts/:encType`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Cipher::Plain => "PLAIN",
            Cipher::Symmetric => "SYMMETRIC",
            Cipher::Asymmetric => "ASYMMETRIC",
        }
    }

    /// The kind a `--state` file names (`PLAIN`, ...).
    pub(crate) fn from_name(name: &str) -> Option<Cipher> {
        [Cipher::Plain, Cipher::Symmetric, Cipher::Asymmetric]
            .into_iter()
            .find(|c| c.as_str() == name)
    }

    fn tag(self) -> u8 {
        match self {
            Cipher::Plain => 0,
            Cipher::Symmetric => 1,
            Cipher::Asymmetric => 2,
        }
    }
}

/// An immutable data on the network: its content as written and the cipher it was closed with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Immutable {
    pub(crate) name: [u8; 32],
    pub(crate) cipher: Cipher,
    pub(crate) content: Arc<[u8]>,
}

impl Immutable {
    /// The data a writer closed with `cipher` stores, named from the two.
    pub(crate) fn new(cipher: Cipher, content: Arc<[u8]>) -> Immutable {
        let mut hashed = ring::digest::Context::new(&ring::digest::SHA256);
        hashed.update(b"safe-ad emulator immutable data\0");
        hashed.update(&[cipher.tag()]);
        hashed.update(&content);
        let mut name = [0u8; 32];
        name.copy_from_slice(hashed.finish().as_ref());
        Immutable {
            name,
            cipher,
            content,
        }
    }

    /// At least the bytes it takes in a `--state` file: a header and the content in base64.
    pub(crate) fn file_size(&self) -> usize {
        192 + self.content.len().div_ceil(3) * 4
    }
}

/// Past this many bytes a self-encryptor is no longer "small" (self_encryption's
/// `small_encryptor::MAX`, 3 * `MIN_CHUNK_SIZE` - 1).
pub(crate) const SMALL_MAX: usize = 3 * 1024 - 1;
/// Past this many bytes it is "large" (`medium_encryptor::MAX`, 3 * `MAX_CHUNK_SIZE`).
pub(crate) const MEDIUM_MAX: usize = 3 * 1024 * 1024;

/// What a writer's earlier closes did to it (see the module's comment).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Closed {
    /// Never closed, or closed while it held 3 KiB to 3 MiB (it kept its content).
    #[default]
    Kept,
    /// Closed while it held under 3 KiB: emptied; it holds only what was written since.
    Emptied,
    /// Closed while it held more than 3 MiB: every later close fails (-1510).
    Broken,
}

/// An immutable-data writer: the bytes it holds and what its closes did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Writer {
    pub(crate) written: Vec<u8>,
    pub(crate) closed: Closed,
}

/// What a close did besides storing, for the request's log record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CloseNote {
    /// The writer had been emptied by an earlier close: this one stored only what was written
    /// since (nothing, for a second close).
    AfterEmptied,
    /// The writer held more than 3 MiB and had been closed: the launcher's close panicked.
    Broken,
}

/// A reader: the content it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reader {
    pub(crate) name: [u8; 32],
    pub(crate) content: Arc<[u8]>,
}

impl State {
    // ---- cipher options ------------------------------------------------------------------

    /// `GET /cipher-opts/PLAIN` and `/SYMMETRIC`: a new cipher-options handle.
    pub(crate) fn new_cipher(&mut self, cipher: Cipher) -> u64 {
        let handle = self.allocate();
        self.me.cipher_opts.insert(handle, cipher, 0);
        handle
    }

    /// `GET /cipher-opts/ASYMMETRIC/:keyHandle`: -1518 when the encrypt key is not live.
    pub(crate) fn asymmetric_cipher(&mut self, encrypt_key: u64) -> Res<u64> {
        self.me
            .encrypt_keys
            .get_mut(encrypt_key)
            .ok_or(Code::INVALID_ENCRYPT_KEY_HANDLE)?;
        Ok(self.new_cipher(Cipher::Asymmetric))
    }

    /// `DELETE /cipher-opts/:h`; -1517 when not live.
    pub(crate) fn drop_cipher(&mut self, handle: u64) -> Res<()> {
        self.me
            .cipher_opts
            .remove(handle)
            .map(drop)
            .ok_or(Code::INVALID_CIPHER_OPT_HANDLE)
    }

    /// The plain cipher-options handle the structured-data controller made once, on the first
    /// create or update that named none, and kept for good (even if it was dropped since).
    pub(crate) fn plain_cipher(&mut self) -> u64 {
        if let Some(handle) = self.me.plain_cipher {
            return handle;
        }
        let handle = self.new_cipher(Cipher::Plain);
        self.me.plain_cipher = Some(handle);
        handle
    }

    /// The same, kept separately by the immutable-data controller (a close whose cipher-options
    /// parameter is not a number).
    pub(crate) fn immutable_plain_cipher(&mut self) -> u64 {
        if let Some(handle) = self.me.immutable_plain_cipher {
            return handle;
        }
        let handle = self.new_cipher(Cipher::Plain);
        self.me.immutable_plain_cipher = Some(handle);
        handle
    }

    /// The cipher options behind a handle; -1517 when not live.
    pub(crate) fn check_cipher(&mut self, handle: u64) -> Res<Cipher> {
        self.me
            .cipher_opts
            .get_mut(handle)
            .map(|cipher| *cipher)
            .ok_or(Code::INVALID_CIPHER_OPT_HANDLE)
    }

    // ---- immutable data ------------------------------------------------------------------

    /// `GET /immutable-data/writer`: a new, empty writer.
    pub(crate) fn new_writer(&mut self) -> u64 {
        let handle = self.allocate();
        self.me.writers.insert(handle, Writer::default(), 0);
        handle
    }

    /// `POST /immutable-data/:h`: appends bytes to a writer; -1516 when not live, -29 when it
    /// would hold more than [`MAX_IMMUTABLE_BYTES`].
    pub(crate) fn write(&mut self, handle: u64, bytes: &[u8]) -> Res<()> {
        let written = &mut self
            .me
            .writers
            .get_mut(handle)
            .ok_or(Code::INVALID_SELF_ENCRYPTOR_HANDLE)?
            .written;
        if written.len() + bytes.len() > MAX_IMMUTABLE_BYTES {
            return Err(Code::DATA_TOO_LARGE);
        }
        written.extend_from_slice(bytes);
        let size = written.len();
        self.me.writers.resize(handle, size);
        Ok(())
    }

    /// `PUT /immutable-data/:h/:cipherOptsHandle`: stores what the writer holds with those cipher
    /// options and gives a new data-id handle for it; the writer stays live. -1516; then the
    /// writer's own close (self_encryption's, see the module's comment: under 3 KiB it empties
    /// the writer, past 3 MiB it breaks it, and a broken writer's close is -1510); then -1517,
    /// then -28 when the network is full (storing data that is there already always passes:
    /// immutable data is de-duplicated). The note says when this close lost data as the
    /// launcher's did.
    pub(crate) fn close_writer(
        &mut self,
        handle: u64,
        cipher: u64,
    ) -> (Res<u64>, Option<CloseNote>) {
        let Some(writer) = self.me.writers.get_mut(handle) else {
            return (Err(Code::INVALID_SELF_ENCRYPTOR_HANDLE), None);
        };
        let note = (writer.closed == Closed::Emptied).then_some(CloseNote::AfterEmptied);
        if writer.closed == Closed::Broken {
            return (Err(Code::UNEXPECTED), Some(CloseNote::Broken));
        }
        let size = writer.written.len();
        let content: Arc<[u8]> = if size <= SMALL_MAX || size > MEDIUM_MAX {
            writer.closed = if size <= SMALL_MAX {
                Closed::Emptied
            } else {
                Closed::Broken
            };
            std::mem::take(&mut writer.written).into()
        } else {
            writer.written.as_slice().into()
        };
        let left = writer.written.len();
        self.me.writers.resize(handle, left);
        (self.store_closed(cipher, content), note)
    }

    /// The rest of a close, after the writer's own: the cipher options, then the network.
    fn store_closed(&mut self, cipher: u64, content: Arc<[u8]>) -> Res<u64> {
        let cipher = self.check_cipher(cipher)?;
        let data = Immutable::new(cipher, content);
        let name = data.name;
        if !self.ids_stored.contains_key(&name) {
            if self.network_bytes + data.file_size() > NETWORK_BYTES {
                return Err(Code::NETWORK_FULL);
            }
            self.store_immutable(data);
        }
        Ok(self.new_data_id(DataId::Immutable(name)))
    }

    /// `GET /immutable-data/reader/:dataIdHandle`: a reader and the size of what it reads.
    /// -1514, -18 (404) not on the network, -5 the id of other data that is, -1520 for encrypted
    /// data without a token.
    pub(crate) fn new_reader(&mut self, data_id: u64, authorised: bool) -> Res<(u64, u64)> {
        let name = match self.data_id(data_id)? {
            DataId::Immutable(name) => name,
            other => return Err(self.other_kind(&other)),
        };
        let data = self.ids_stored.get(&name).ok_or(Code::GET_NO_SUCH_DATA)?;
        if data.cipher != Cipher::Plain && !authorised {
            return Err(Code::FORBIDDEN_FOR_APP);
        }
        let reader = Reader {
            name,
            content: Arc::clone(&data.content),
        };
        let size = reader.content.len();
        let handle = self.allocate();
        self.me.readers.insert(handle, reader, size);
        Ok((handle, size as u64))
    }

    /// The size of what a reader reads; -1516 when not live.
    pub(crate) fn reader_size(&mut self, handle: u64) -> Res<u64> {
        self.me
            .readers
            .get_mut(handle)
            .map(|reader| reader.content.len() as u64)
            .ok_or(Code::INVALID_SELF_ENCRYPTOR_HANDLE)
    }

    /// `len` bytes from `from`; -1516, -1523 when that passes the end.
    pub(crate) fn read(&mut self, handle: u64, from: u64, len: u64) -> Res<Vec<u8>> {
        let reader = self
            .me
            .readers
            .get_mut(handle)
            .ok_or(Code::INVALID_SELF_ENCRYPTOR_HANDLE)?;
        let end = from
            .checked_add(len)
            .filter(|end| *end <= reader.content.len() as u64)
            .ok_or(Code::INVALID_READ_OFFSETS)?;
        Ok(reader.content[from as usize..end as usize].to_vec())
    }

    /// `DELETE /immutable-data/reader/:h`; -1516 when not live.
    pub(crate) fn drop_reader(&mut self, handle: u64) -> Res<()> {
        self.me
            .readers
            .remove(handle)
            .map(drop)
            .ok_or(Code::INVALID_SELF_ENCRYPTOR_HANDLE)
    }

    /// `DELETE /immutable-data/writer/:h`; -1516 when not live.
    pub(crate) fn drop_writer(&mut self, handle: u64) -> Res<()> {
        self.me
            .writers
            .remove(handle)
            .map(drop)
            .ok_or(Code::INVALID_SELF_ENCRYPTOR_HANDLE)
    }
}
