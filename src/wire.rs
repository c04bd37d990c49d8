//! The launcher's serialised bytes, read by the client: a `DataIdentifier` (what an item points
//! at), a sign key, and a whole appendable data (public or private). Launcher 0.11.0 wrote them
//! with bincode 1.0.0-alpha6 through maidsafe_utilities (`../shared/spec/launcher-facts.md`,
//! "Bytes of the serialise routes"): little-endian fixed-width integers; an enum is a `u32`
//! variant index then its fields; a set, map, vector or byte string is a `u64` length then its
//! elements; a 32-byte name has no length.
//!
//! This is the client's own reading of the layout; the emulator writes it on its own. A layout
//! that is not launcher 0.11.0's is refused with what was expected where, never guessed: bytes
//! left over after a whole value are refused too (the launcher's own reader ignored them, but a
//! person pasting bytes wants to know). Nothing here prints or sends: `report` says what a
//! decoded value holds, `batch::show` uses [`DataId`] to tell what an item is.
//!
//! [`DataId::kind`] and [`DataKind::name`] are the one place items are named
//! (`structured-data`, `immutable-data`, `appendable-data`, `private-appendable-data`).

use std::fmt;

use crate::name::Name;

/// Bytes of a name (`XorName`).
const NAME: usize = 32;
/// Bytes of a public sign key and of a box (encrypt) key.
const KEY: usize = 32;
/// Bytes of a signature.
const SIGNATURE: usize = 64;
/// The most elements a length may claim before it is plainly not the launcher's: more than the
/// bytes left could hold is refused anyway; this only keeps the message short.
const MAX_SHOWN_LENGTH: u64 = u32::MAX as u64;

enum_with_all! {
    /// What a data id says an item points at, in the network's order of variants (so `Ord` and
    /// `ALL` give the network's sorted order of items).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum DataKind {
        Structured,
        Immutable,
        PubAppendable,
        PrivAppendable,
    }
}

impl DataKind {
    /// The kind's name in every message, `--json` and `--kind`.
    pub fn name(self) -> &'static str {
        match self {
            DataKind::Structured => "structured-data",
            DataKind::Immutable => "immutable-data",
            DataKind::PubAppendable => "appendable-data",
            DataKind::PrivAppendable => "private-appendable-data",
        }
    }

    /// The kind of a name, as `--kind` takes it.
    pub fn parse(text: &str) -> Option<DataKind> {
        DataKind::ALL.into_iter().find(|kind| kind.name() == text)
    }
}

impl fmt::Display for DataKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A decoded `DataIdentifier`: the kind, the 32-byte name, and a structured data's type tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DataId {
    pub kind: DataKind,
    pub name: Name,
    /// Structured data only.
    pub type_tag: Option<u64>,
}

impl DataId {
    /// Reads the launcher's serialised data id (`GET /data-id/:h`), all of `bytes`.
    pub fn decode(bytes: &[u8]) -> Result<DataId, DecodeError> {
        let mut reader = Reader::new(bytes, "a data id");
        let id = reader.data_id()?;
        reader.end()?;
        Ok(id)
    }

    /// The bytes the launcher writes for this data id.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(44);
        out.extend_from_slice(&(self.kind as u32).to_le_bytes());
        out.extend_from_slice(self.name.bytes());
        if let Some(tag) = self.type_tag {
            out.extend_from_slice(&tag.to_le_bytes());
        }
        out
    }
}

/// How an item is named wherever one is listed: `immutable-data <name>`, `structured-data
/// <name>, type tag 500` (the name in base64, as the launcher writes names); what follows is
/// added after a comma too (`, version 0`), so every kind reads the same.
impl fmt::Display for DataId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind, self.name)?;
        match self.type_tag {
            Some(tag) => write!(f, ", type tag {tag}"),
            None => Ok(()),
        }
    }
}

/// A public sign key: its 32 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SignKey(pub [u8; KEY]);

impl SignKey {
    /// Reads the launcher's serialised sign key (`GET /sign-key/serialise/:h`), all of `bytes`.
    pub fn decode(bytes: &[u8]) -> Result<SignKey, DecodeError> {
        let mut reader = Reader::new(bytes, "a sign key");
        let key = reader.key("the key")?;
        reader.end()?;
        Ok(key)
    }

    /// The bytes the launcher's serialise route gives for this key: its fingerprint is of these.
    pub fn serialised(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + KEY);
        out.extend_from_slice(&(KEY as u64).to_le_bytes());
        out.extend_from_slice(&self.0);
        out
    }
}

/// An item of a public appendable data: what it points at and who signed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appended {
    pub pointer: DataId,
    pub sign_key: SignKey,
}

/// An item as the appendable data holds it: readable (public) or sealed for the owner (private).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Appended(Appended),
    /// A private appendable data's item: encrypted to its `encrypt_key`; only its length shows.
    Sealed(usize),
}

/// `BlackList` or `WhiteList`, as the launcher names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterType {
    BlackList,
    WhiteList,
}

impl FilterType {
    pub fn name(self) -> &'static str {
        match self {
            FilterType::BlackList => "BlackList",
            FilterType::WhiteList => "WhiteList",
        }
    }
}

/// A decoded appendable data (`GET /appendable-data/serialise/:h`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppendableData {
    pub private: bool,
    pub name: Name,
    pub version: u64,
    pub filter_type: FilterType,
    pub filter_keys: Vec<SignKey>,
    /// Private data only.
    pub encrypt_key: Option<[u8; KEY]>,
    pub deleted: Vec<Entry>,
    pub owners: Vec<SignKey>,
    /// Who signed this version (the signatures' keys).
    pub signed_by: Vec<SignKey>,
    pub data: Vec<Entry>,
}

impl AppendableData {
    /// Reads an appendable data, as the launcher did: the private layout first, then the public
    /// one. The bytes carry no tag saying which; a value must use all of them.
    pub fn decode(bytes: &[u8]) -> Result<AppendableData, DecodeError> {
        let private = Reader::new(bytes, "a private appendable data").appendable(true);
        match private {
            Ok(data) => Ok(data),
            Err(private) => Reader::new(bytes, "an appendable data")
                .appendable(false)
                // The public layout's error, but the private one's when it got further.
                .map_err(|public| {
                    if private.at > public.at {
                        private
                    } else {
                        public
                    }
                }),
        }
    }
}

/// Any of the serialised values, as `safe-ad decode` reads one it was not told the kind of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decoded {
    DataId(DataId),
    SignKey(SignKey),
    AppendableData(Box<AppendableData>),
}

/// What the bytes of each kind look like, for the message when none fits.
pub const EXPECTED: &str = "a serialised data id (36 or 44 bytes: a variant 0 to 3 as 4 little-endian bytes, then a 32-byte name, then a type tag for structured data), a sign key (40 bytes: 20 00 00 00 00 00 00 00, then 32 key bytes) or an appendable data (at least 84 bytes), as launcher 0.11.0 writes them";

/// Tells the kind from the bytes themselves: a data id and a sign key have fixed lengths and
/// first bytes; anything else must be an appendable data.
pub fn decode_any(bytes: &[u8]) -> Result<Decoded, DecodeError> {
    match bytes.len() {
        36 | 44 => DataId::decode(bytes).map(Decoded::DataId),
        40 => SignKey::decode(bytes).map(Decoded::SignKey),
        length if length >= 84 => AppendableData::decode(bytes)
            .map(|data| Decoded::AppendableData(Box::new(data))),
        length => Err(DecodeError {
            what: "a data id, a sign key or an appendable data",
            at: 0,
            problem: format!(
                "{length} bytes fit none of them (a data id is 36 or 44 bytes, a sign key 40, an appendable data at least 84)"
            ),
        }),
    }
}

/// Why bytes are not a value of the launcher's layout: what was being read, at which byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// What the whole was expected to be: `a data id`.
    pub what: &'static str,
    /// The offset of the first byte that did not fit.
    pub at: usize,
    pub problem: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not {} in launcher 0.11.0's layout: at byte {}, {}",
            self.what, self.at, self.problem
        )
    }
}

/// Reads values front to back, saying where it stopped.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8], what: &'static str) -> Reader<'a> {
        Reader { bytes, at: 0, what }
    }

    fn fail<T>(&self, problem: String) -> Result<T, DecodeError> {
        Err(DecodeError {
            what: self.what,
            at: self.at,
            problem,
        })
    }

    fn take(&mut self, count: usize, field: &str) -> Result<&'a [u8], DecodeError> {
        let left = self.bytes.len() - self.at;
        if count > left {
            return self.fail(format!("{field} needs {count} bytes but {left} are left"));
        }
        let taken = &self.bytes[self.at..self.at + count];
        self.at += count;
        Ok(taken)
    }

    /// An enum's variant, a `u32` numbering `known` from 0; another number is refused with what
    /// `refused` says of it, at the variant's own position.
    fn variant<T: Copy>(
        &mut self,
        field: &str,
        known: &[T],
        refused: impl FnOnce(u32) -> String,
    ) -> Result<T, DecodeError> {
        let variant = self.u32(field)?;
        match usize::try_from(variant).ok().and_then(|at| known.get(at)) {
            Some(value) => Ok(*value),
            None => {
                self.at -= 4;
                self.fail(refused(variant))
            }
        }
    }

    fn u32(&mut self, field: &str) -> Result<u32, DecodeError> {
        let bytes = self.take(4, field)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    fn u64(&mut self, field: &str) -> Result<u64, DecodeError> {
        let bytes = self.take(8, field)?;
        let mut array = [0u8; 8];
        array.copy_from_slice(bytes);
        Ok(u64::from_le_bytes(array))
    }

    /// A length that claims `count` elements of at least `each` bytes: refused when the bytes
    /// left could not hold them.
    fn length(&mut self, field: &str, each: usize) -> Result<usize, DecodeError> {
        let start = self.at;
        let count = self.u64(field)?;
        let left = (self.bytes.len() - self.at) as u64;
        if count > MAX_SHOWN_LENGTH || count.saturating_mul(each as u64) > left {
            self.at = start;
            return self.fail(format!(
                "{field} claims {count} elements, more than the {left} bytes left can hold"
            ));
        }
        Ok(count as usize)
    }

    fn name(&mut self, field: &str) -> Result<Name, DecodeError> {
        let bytes = self.take(NAME, field)?;
        let mut array = [0u8; NAME];
        array.copy_from_slice(bytes);
        Ok(Name::from_bytes(array))
    }

    /// A byte string of exactly `size` bytes (a key or a signature): its length, then it.
    fn sized(&mut self, size: usize, field: &str) -> Result<&'a [u8], DecodeError> {
        let start = self.at;
        let length = self.u64(field)?;
        if length != size as u64 {
            self.at = start;
            return self.fail(format!("{field} has length {length}, not {size}"));
        }
        self.take(size, field)
    }

    fn key(&mut self, field: &str) -> Result<SignKey, DecodeError> {
        let bytes = self.sized(KEY, field)?;
        let mut array = [0u8; KEY];
        array.copy_from_slice(bytes);
        Ok(SignKey(array))
    }

    fn keys(&mut self, field: &str) -> Result<Vec<SignKey>, DecodeError> {
        let count = self.length(field, 8 + KEY)?;
        (0..count).map(|_| self.key(field)).collect()
    }

    fn data_id(&mut self) -> Result<DataId, DecodeError> {
        use DataKind::{Immutable, PrivAppendable, PubAppendable, Structured};
        let kinds = [Structured, Immutable, PubAppendable, PrivAppendable];
        let kind = self.variant("the variant", &kinds, |other| {
            format!("variant {other} is none of 0 (structured), 1 (immutable), 2 (public appendable), 3 (private appendable)")
        })?;
        let name = self.name("the name")?;
        let type_tag = match kind {
            DataKind::Structured => Some(self.u64("the type tag")?),
            _ => None,
        };
        Ok(DataId {
            kind,
            name,
            type_tag,
        })
    }

    fn appended(&mut self) -> Result<Appended, DecodeError> {
        let pointer = self.data_id()?;
        let sign_key = self.key("an item's sign key")?;
        self.sized(SIGNATURE, "an item's signature")?;
        Ok(Appended { pointer, sign_key })
    }

    /// A set of items: public ones decoded, private ones (byte strings) sealed.
    fn entries(&mut self, field: &str, private: bool) -> Result<Vec<Entry>, DecodeError> {
        if private {
            let count = self.length(field, 8)?;
            (0..count)
                .map(|_| {
                    let length = self.length(field, 1)?;
                    self.take(length, field).map(|_| Entry::Sealed(length))
                })
                .collect()
        } else {
            let count = self.length(field, 36 + 8 + KEY + 8 + SIGNATURE)?;
            (0..count)
                .map(|_| self.appended().map(Entry::Appended))
                .collect()
        }
    }

    fn appendable(mut self, private: bool) -> Result<AppendableData, DecodeError> {
        let name = self.name("the name")?;
        let version = self.u64("the version")?;
        let types = [FilterType::BlackList, FilterType::WhiteList];
        let filter_type = self.variant("the filter's variant", &types, |other| {
            format!("the filter's variant {other} is neither 0 (BlackList) nor 1 (WhiteList)")
        })?;
        let filter_keys = self.keys("the filter's keys")?;
        let encrypt_key = if private {
            let bytes = self.sized(KEY, "the encrypt key")?;
            let mut array = [0u8; KEY];
            array.copy_from_slice(bytes);
            Some(array)
        } else {
            None
        };
        let deleted = self.entries("the deleted items", private)?;
        let owners = self.keys("the owners")?;
        let signatures = self.length("the signatures", 8 + KEY + 8 + SIGNATURE)?;
        let mut signed_by = Vec::with_capacity(signatures);
        for _ in 0..signatures {
            signed_by.push(self.key("a signature's key")?);
            self.sized(SIGNATURE, "a signature")?;
        }
        let data = self.entries("the data items", private)?;
        self.end()?;
        Ok(AppendableData {
            private,
            name,
            version,
            filter_type,
            filter_keys,
            encrypt_key,
            deleted,
            owners,
            signed_by,
            data,
        })
    }

    /// Every byte used.
    fn end(&self) -> Result<(), DecodeError> {
        match self.bytes.len() - self.at {
            0 => Ok(()),
            left => self.fail(format!("{left} bytes are left over after a whole value")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(byte: u8) -> Name {
        Name::from_bytes([byte; 32])
    }

    /// Hex to bytes, spaces ignored: the expected bytes below are written by hand.
    fn hex(text: &str) -> Vec<u8> {
        let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
        digits
            .chunks(2)
            .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap())
            .collect()
    }

    fn repeat(byte: &str, times: usize) -> String {
        byte.repeat(times)
    }

    #[test]
    fn data_ids_of_every_kind() {
        // launcher-facts.md's example: Structured([0x01; 32], 500).
        let structured = hex(&format!("00000000 {} f401000000000000", repeat("01", 32)));
        let id = DataId::decode(&structured).unwrap();
        assert_eq!(id.kind, DataKind::Structured);
        assert_eq!(id.name, name(1));
        assert_eq!(id.type_tag, Some(500));
        assert_eq!(id.encode(), structured);
        for (variant, kind) in [
            ("01000000", DataKind::Immutable),
            ("02000000", DataKind::PubAppendable),
            ("03000000", DataKind::PrivAppendable),
        ] {
            let bytes = hex(&format!("{variant} {}", repeat("ab", 32)));
            let id = DataId::decode(&bytes).unwrap();
            assert_eq!((id.kind, id.name, id.type_tag), (kind, name(0xab), None));
            assert_eq!(id.encode(), bytes);
        }
        assert_eq!(DataKind::parse("immutable-data"), Some(DataKind::Immutable));
        assert_eq!(DataKind::parse("unknown"), None);
    }

    #[test]
    fn data_ids_that_are_not_the_layout_are_refused_with_where() {
        let bad_variant = hex(&format!("04000000 {}", repeat("00", 32)));
        let error = DataId::decode(&bad_variant).unwrap_err();
        assert_eq!(error.at, 0);
        assert!(
            error.to_string().contains("variant 4 is none of"),
            "{error}"
        );
        let short = hex(&format!("01000000 {}", repeat("00", 31)));
        let error = DataId::decode(&short).unwrap_err();
        assert_eq!(
            error.to_string(),
            "not a data id in launcher 0.11.0's layout: at byte 4, the name needs 32 bytes but 31 are left"
        );
        let long = hex(&format!("01000000 {} 00", repeat("00", 32)));
        assert!(DataId::decode(&long)
            .unwrap_err()
            .problem
            .contains("1 bytes are left over"));
        // launcher 0.10's big-endian layout, with a length before the name.
        let old = hex(&format!("00000001 0000000000000020 {}", repeat("00", 32)));
        assert!(DataId::decode(&old).is_err());
        assert!(DataId::decode(&[]).is_err());
    }

    #[test]
    fn sign_keys() {
        let bytes = hex(&format!("2000000000000000 {}", repeat("07", 32)));
        let key = SignKey::decode(&bytes).unwrap();
        assert_eq!(key, SignKey([7; 32]));
        assert_eq!(key.serialised(), bytes);
        let wrong = hex(&format!("1f00000000000000 {}", repeat("07", 31)));
        assert!(SignKey::decode(&wrong)
            .unwrap_err()
            .problem
            .contains("length 31, not 32"));
    }

    fn key(byte: u8) -> String {
        format!("2000000000000000 {}", repeat(&format!("{byte:02x}"), 32))
    }

    fn signature() -> String {
        format!("4000000000000000 {}", repeat("ee", 64))
    }

    /// A public appendable data: name 0x11.., version 3, whitelist of key 0x05, one deleted
    /// item (immutable 0x22.. signed by 0x06), owner 0x05, one signature by 0x05, two data
    /// items (structured 0x33.. tag 501 signed by 0x05, public appendable 0x44.. by 0x06).
    fn public_bytes() -> Vec<u8> {
        hex(&[
            repeat("11", 32),
            "0300000000000000".into(),
            "01000000 0100000000000000".into(),
            key(5),
            "0100000000000000".into(),
            format!("01000000 {}", repeat("22", 32)),
            key(6),
            signature(),
            "0100000000000000".into(),
            key(5),
            "0100000000000000".into(),
            key(5),
            signature(),
            "0200000000000000".into(),
            format!("00000000 {} f501000000000000", repeat("33", 32)),
            key(5),
            signature(),
            format!("02000000 {}", repeat("44", 32)),
            key(6),
            signature(),
        ]
        .join(" "))
    }

    #[test]
    fn a_public_appendable_data() {
        let data = AppendableData::decode(&public_bytes()).unwrap();
        assert!(!data.private);
        assert_eq!(data.name, name(0x11));
        assert_eq!(data.version, 3);
        assert_eq!(data.filter_type, FilterType::WhiteList);
        assert_eq!(data.filter_keys, vec![SignKey([5; 32])]);
        assert_eq!(data.owners, vec![SignKey([5; 32])]);
        assert_eq!(data.signed_by, vec![SignKey([5; 32])]);
        assert_eq!(
            data.deleted,
            vec![Entry::Appended(Appended {
                pointer: DataId {
                    kind: DataKind::Immutable,
                    name: name(0x22),
                    type_tag: None
                },
                sign_key: SignKey([6; 32]),
            })]
        );
        let kinds: Vec<_> = data
            .data
            .iter()
            .map(|entry| match entry {
                Entry::Appended(item) => (item.pointer.kind, item.pointer.type_tag),
                Entry::Sealed(_) => panic!("sealed"),
            })
            .collect();
        assert_eq!(
            kinds,
            vec![
                (DataKind::Structured, Some(501)),
                (DataKind::PubAppendable, None)
            ]
        );
        assert!(matches!(
            decode_any(&public_bytes()),
            Ok(Decoded::AppendableData(_))
        ));
    }

    #[test]
    fn a_private_appendable_data() {
        let bytes = hex(&[
            repeat("11", 32),
            "0000000000000000".into(),
            "00000000 0000000000000000".into(),
            key(9),
            "0100000000000000".into(),
            "0300000000000000 aabbcc".into(),
            "0100000000000000".into(),
            key(5),
            "0000000000000000".into(),
            "0200000000000000".into(),
            "0100000000000000 01".into(),
            "0200000000000000 0102".into(),
        ]
        .join(" "));
        let data = AppendableData::decode(&bytes).unwrap();
        assert!(data.private);
        assert_eq!(data.encrypt_key, Some([9; 32]));
        assert_eq!(data.filter_type, FilterType::BlackList);
        assert_eq!(data.deleted, vec![Entry::Sealed(3)]);
        assert_eq!(data.data, vec![Entry::Sealed(1), Entry::Sealed(2)]);
        assert!(data.signed_by.is_empty());
    }

    #[test]
    fn garbage_is_refused_saying_what_was_expected() {
        let mut cut = public_bytes();
        cut.truncate(cut.len() - 10);
        let error = AppendableData::decode(&cut).unwrap_err();
        assert!(
            error.to_string().starts_with("not an appendable data"),
            "{error}"
        );
        let mut huge = public_bytes();
        huge[40..48].copy_from_slice(&[0xff; 8]);
        huge[40] = 0;
        assert!(AppendableData::decode(&huge).is_err());
        assert!(decode_any(b"hello").is_err());
        assert!(decode_any(&[0xff; 84]).is_err());
        assert_eq!(
            decode_any(&hex(&key(1))),
            Ok(Decoded::SignKey(SignKey([1; 32])))
        );
    }
}
