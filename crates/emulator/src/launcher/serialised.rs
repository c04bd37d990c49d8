//! The bytes of the serialise and deserialise routes, as the launcher wrote and read them:
//! safe_core 0.23.0's `src/ffi/low_level_api/misc.rs` serialised routing 0.28.5's types
//! (`DataIdentifier`, `PubAppendableData`, `PrivAppendableData`, `StructuredData`, a sign key) with
//! maidsafe_utilities' `serialise`, which is bincode 1.0.0-alpha6 with no size limit:
//! little-endian fixed-width integers, an enum as its `u32` variant index then its fields, a
//! sequence, set, map or byte string as a `u64` length then its elements, a fixed-size array (a
//! 32-byte name) with no length. The types below declare that layout for serde, field for field in
//! routing's declaration order; bincode 1.3's default functions write it byte for byte and, like
//! maidsafe_utilities 0.11, ignore trailing bytes after a value.
//!
//! The emulator has no cryptography, so what would be keys and signatures are bytes of its own,
//! of the right lengths: a user's sign key is its 32 bytes ([`USER_KEY`] for the first user), a
//! private appendable data's encrypt key is its owner's ([`encrypt_key`]: [`ENCRYPT_KEY`] for
//! [`USER_KEY`]), and a signature is the SHA-512 (64 bytes) of
//! [`SIGNATURE_CONTEXT`] and what would be signed. A private appendable data's items are
//! "sealed" as 48 bytes of the emulator's own where a sealed box has its ephemeral key and MAC
//! (with the item's seal number, see [`SEAL_KEY`]) then the bincode of the plain item: the
//! launcher's length, readable. Reading, the
//! emulator checks lengths, never signatures; an item it cannot read (a real launcher's sealed
//! one) is left out. What a structured data's `data` field holds is its content as written (for
//! a versioned one, type tag 501, the bincode of the list of versions), not safe_core's encoding
//! of it (docs/emulator-differences.md).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::launcher::state::{
    Ad, AdKey, DataId, Filter, FilterType, Item, Sd, SdKey, SdStatus, SignKey, NO_OWNER, USER_KEY,
    VERSIONED,
};

/// The emulator's stand-in for the first user's encryption key (the `encrypt_key` of a private
/// appendable data [`USER_KEY`] owns): 32 bytes, fixed so that serialised data stays the same
/// across runs.
pub(crate) const ENCRYPT_KEY: [u8; 32] = *b"safe-ad emulator user encrypt k!";

/// The encrypt key of the user whose sign key is `owner`, which a private appendable data it owns
/// carries (safe_core's `appendable_data_new_priv` put the app's public encrypt key there, and
/// every append sealed its items for it): [`ENCRYPT_KEY`] for [`USER_KEY`], else the SHA-256 of
/// `safe-ad emulator user encrypt key\0` and the sign key, so that each user has one of its own
/// and the same across runs.
pub(crate) fn encrypt_key(owner: &SignKey) -> [u8; 32] {
    if *owner == USER_KEY {
        return ENCRYPT_KEY;
    }
    let mut hashed = ring::digest::Context::new(&ring::digest::SHA256);
    hashed.update(b"safe-ad emulator user encrypt key\0");
    hashed.update(owner);
    let mut key = [0u8; 32];
    key.copy_from_slice(hashed.finish().as_ref());
    key
}

/// The most bytes a sealed item of private appendable data may have (routing's
/// `MAX_PRIV_APPENDED_DATA_BYTES`): a longer one fails the private layout.
pub(crate) const MAX_SEALED_BYTES: usize = 212;

/// What stands where a sealed box (rust_sodium's `sealedbox::seal`, which routing's
/// `PrivAppendedData::new` used) has its ephemeral public key (32 bytes); then, where it has its
/// MAC (16 bytes), [`SEAL_MARK`] and the item's `seal` number (u64 LE); then the item's bincode
/// in the clear. So a sealed item has the launcher's length (48 bytes more than the item) and
/// stays readable, and two sealings of one item differ, as the launcher's did.
pub(crate) const SEAL_KEY: &[u8; 32] = b"safe-ad emulator ephemeral key!!";
/// The first 8 bytes where a sealed box has its MAC.
pub(crate) const SEAL_MARK: &[u8; 8] = b"emulator";

/// An item sealed as the emulator seals it (see [`SEAL_KEY`]).
fn seal(item: &Item) -> Bytes {
    let mut sealed = Vec::with_capacity(48 + 160);
    sealed.extend_from_slice(SEAL_KEY);
    sealed.extend_from_slice(SEAL_MARK);
    sealed.extend_from_slice(&item.seal.to_le_bytes());
    sealed.extend_from_slice(&encode(&wire_item(item)));
    Bytes(sealed)
}

/// An item the emulator sealed, with its seal number; or one an older emulator wrote (the
/// item's bincode alone), as seal 0. `None` for what neither is (a real launcher's).
fn unseal(sealed: &[u8]) -> Option<Item> {
    let (number, bytes) = match sealed.strip_prefix(&SEAL_KEY[..]) {
        Some(rest) if rest.starts_with(SEAL_MARK) && rest.len() >= 16 => {
            let number = u64::from_le_bytes(rest[8..16].try_into().ok()?);
            (number, &rest[16..])
        }
        _ => (0, sealed),
    };
    let item = item_from(&bincode::deserialize::<WireItem>(bytes).ok()?)?;
    Some(Item {
        seal: number,
        ..item
    })
}

/// What the emulator's signatures hash before what they sign.
pub(crate) const SIGNATURE_CONTEXT: &[u8] = b"safe-ad emulator signature\0";

/// `DataIdentifier`.
#[derive(Debug, Serialize, Deserialize)]
enum WireDataId {
    Structured([u8; 32], u64),
    Immutable([u8; 32]),
    PubAppendable([u8; 32]),
    PrivAppendable([u8; 32]),
}

/// A rust_sodium key or signature: a byte string (`u64` length, then the bytes).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Bytes(Vec<u8>);

/// routing's `AppendedData`.
#[derive(Debug, Serialize, Deserialize)]
struct WireItem {
    pointer: WireDataId,
    sign_key: Bytes,
    signature: Bytes,
}

/// routing's `Filter`.
#[derive(Debug, Serialize, Deserialize)]
enum WireFilter {
    BlackList(Vec<Bytes>),
    WhiteList(Vec<Bytes>),
}

/// routing's `PubAppendableData`.
#[derive(Debug, Serialize, Deserialize)]
struct WirePub {
    name: [u8; 32],
    version: u64,
    filter: WireFilter,
    deleted_data: Vec<WireItem>,
    owners: Vec<Bytes>,
    signatures: Vec<(Bytes, Bytes)>,
    data: Vec<WireItem>,
}

/// routing's `PrivAppendableData`: the items sealed (byte strings).
#[derive(Debug, Serialize, Deserialize)]
struct WirePriv {
    name: [u8; 32],
    version: u64,
    filter: WireFilter,
    encrypt_key: Bytes,
    deleted_data: Vec<Bytes>,
    owners: Vec<Bytes>,
    signatures: Vec<(Bytes, Bytes)>,
    data: Vec<Bytes>,
}

/// routing's `StructuredData`.
#[derive(Debug, Serialize, Deserialize)]
struct WireSd {
    type_tag: u64,
    name: [u8; 32],
    data: Vec<u8>,
    version: u64,
    owners: Vec<Bytes>,
    signatures: Vec<(Bytes, Bytes)>,
}

fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    // Serialising these types to memory cannot fail (no maps with non-string keys matter to
    // bincode, no size limit); an empty body would be the launcher's `send(undefined)`.
    bincode::serialize(value).unwrap_or_default()
}

/// The emulator's signature of `message` by the user: 64 bytes.
fn sign(message: &[u8]) -> Bytes {
    let mut context = ring::digest::Context::new(&ring::digest::SHA512);
    context.update(SIGNATURE_CONTEXT);
    context.update(message);
    Bytes(context.finish().as_ref().to_vec())
}

fn key32(bytes: &Bytes) -> Option<[u8; 32]> {
    <[u8; 32]>::try_from(bytes.0.as_slice()).ok()
}

fn wire_id(id: &DataId) -> WireDataId {
    match *id {
        DataId::Structured(key) => WireDataId::Structured(key.name, key.type_tag),
        DataId::Immutable(name) => WireDataId::Immutable(name),
        DataId::Appendable(AdKey {
            name,
            private: false,
        }) => WireDataId::PubAppendable(name),
        DataId::Appendable(AdKey {
            name,
            private: true,
        }) => WireDataId::PrivAppendable(name),
    }
}

fn id_from(wire: &WireDataId) -> DataId {
    match *wire {
        WireDataId::Structured(name, type_tag) => DataId::Structured(SdKey { name, type_tag }),
        WireDataId::Immutable(name) => DataId::Immutable(name),
        WireDataId::PubAppendable(name) => DataId::Appendable(AdKey {
            name,
            private: false,
        }),
        WireDataId::PrivAppendable(name) => DataId::Appendable(AdKey {
            name,
            private: true,
        }),
    }
}

fn wire_item(item: &Item) -> WireItem {
    let mut signed = encode(&wire_id(&item.pointer));
    signed.extend_from_slice(&item.signer);
    WireItem {
        pointer: wire_id(&item.pointer),
        sign_key: Bytes(item.signer.to_vec()),
        signature: sign(&signed),
    }
}

fn item_from(wire: &WireItem) -> Option<Item> {
    (wire.signature.0.len() == 64).then_some(())?;
    Some(Item {
        pointer: id_from(&wire.pointer),
        signer: key32(&wire.sign_key)?,
        seal: 0,
    })
}

fn wire_filter(filter: &Filter) -> WireFilter {
    let keys = filter.keys.iter().map(|k| Bytes(k.to_vec())).collect();
    match filter.kind {
        FilterType::BlackList => WireFilter::BlackList(keys),
        FilterType::WhiteList => WireFilter::WhiteList(keys),
    }
}

fn filter_from(wire: &WireFilter) -> Option<Filter> {
    let (kind, keys) = match wire {
        WireFilter::BlackList(keys) => (FilterType::BlackList, keys),
        WireFilter::WhiteList(keys) => (FilterType::WhiteList, keys),
    };
    Some(Filter {
        kind,
        keys: keys.iter().map(key32).collect::<Option<_>>()?,
    })
}

/// `owner` as the only owner, with its signature over `signed`; none for [`NO_OWNER`].
fn owned(owner: &SignKey, signed: &[u8]) -> (Vec<Bytes>, Vec<(Bytes, Bytes)>) {
    if *owner == NO_OWNER {
        return (Vec::new(), Vec::new());
    }
    (
        vec![Bytes(owner.to_vec())],
        vec![(Bytes(owner.to_vec()), sign(signed))],
    )
}

/// The owner bytes name: the first of `owners` (the launcher's data had one), [`NO_OWNER`] for
/// none.
fn owner_from(owners: &[Bytes]) -> SignKey {
    owners.first().and_then(key32).unwrap_or(NO_OWNER)
}

fn keys_ok(owners: &[Bytes], signatures: &[(Bytes, Bytes)]) -> bool {
    owners.iter().all(|k| k.0.len() == 32)
        && signatures
            .iter()
            .all(|(k, s)| k.0.len() == 32 && s.0.len() == 64)
}

/// `GET /data-id/:h`.
pub(crate) fn data_id(id: &DataId) -> Vec<u8> {
    encode(&wire_id(id))
}

/// `POST /data-id`: `None` is -1511.
pub(crate) fn data_id_from(bytes: &[u8]) -> Option<DataId> {
    bincode::deserialize::<WireDataId>(bytes)
        .ok()
        .map(|wire| id_from(&wire))
}

/// `GET /sign-key/serialise/:h`.
pub(crate) fn sign_key(key: &SignKey) -> Vec<u8> {
    encode(&Bytes(key.to_vec()))
}

/// `POST /sign-key/deserialise`: a byte string of exactly 32 bytes (rust_sodium's check).
pub(crate) fn sign_key_from(bytes: &[u8]) -> Option<SignKey> {
    key32(&bincode::deserialize::<Bytes>(bytes).ok()?)
}

/// `GET /appendable-data/serialise/:h`: the bare public or private appendable data.
pub(crate) fn appendable_data(ad: &Ad) -> Vec<u8> {
    let filter = wire_filter(&ad.filter);
    let signed = [&ad.key.name[..], &ad.version.to_le_bytes()].concat();
    let (owners, signatures) = owned(&ad.owner, &signed);
    if ad.key.private {
        encode(&WirePriv {
            name: ad.key.name,
            version: ad.version,
            filter,
            encrypt_key: Bytes(encrypt_key(&ad.owner).to_vec()),
            deleted_data: ad.deleted.iter().map(seal).collect(),
            owners,
            signatures,
            data: ad.data.iter().map(seal).collect(),
        })
    } else {
        encode(&WirePub {
            name: ad.key.name,
            version: ad.version,
            filter,
            deleted_data: ad.deleted.iter().map(wire_item).collect(),
            owners,
            signatures,
            data: ad.data.iter().map(wire_item).collect(),
        })
    }
}

/// `POST /appendable-data/deserialise`: the private layout first, then the public one, as
/// safe_core tried them; `None` is -1511.
pub(crate) fn appendable_data_from(bytes: &[u8]) -> Option<Ad> {
    if let Ok(wire) = bincode::deserialize::<WirePriv>(bytes) {
        if let Some(ad) = private_from(&wire) {
            return Some(ad);
        }
    }
    let wire = bincode::deserialize::<WirePub>(bytes).ok()?;
    keys_ok(&wire.owners, &wire.signatures).then_some(())?;
    let items = |list: &[WireItem]| list.iter().map(item_from).collect::<Option<BTreeSet<_>>>();
    Some(Ad {
        key: AdKey {
            name: wire.name,
            private: false,
        },
        version: wire.version,
        data: items(&wire.data)?,
        deleted: items(&wire.deleted_data)?,
        filter: filter_from(&wire.filter)?,
        owner: owner_from(&wire.owners),
    })
}

fn private_from(wire: &WirePriv) -> Option<Ad> {
    let sealed_ok = wire
        .data
        .iter()
        .chain(&wire.deleted_data)
        .all(|sealed| sealed.0.len() <= MAX_SEALED_BYTES);
    (sealed_ok && wire.encrypt_key.0.len() == 32 && keys_ok(&wire.owners, &wire.signatures))
        .then_some(())?;
    // A sealed item the emulator cannot open (one a real launcher encrypted) is left out.
    let unseal = |list: &[Bytes]| -> BTreeSet<Item> {
        list.iter().filter_map(|sealed| unseal(&sealed.0)).collect()
    };
    Some(Ad {
        key: AdKey {
            name: wire.name,
            private: true,
        },
        version: wire.version,
        data: unseal(&wire.data),
        deleted: unseal(&wire.deleted_data),
        filter: filter_from(&wire.filter)?,
        owner: owner_from(&wire.owners),
    })
}

/// `GET /structured-data/serialise/:h`.
pub(crate) fn structured_data(sd: &Sd) -> Vec<u8> {
    let data = if sd.versions.is_empty() {
        Vec::new()
    } else if sd.is_versioned() {
        encode(&sd.versions)
    } else {
        sd.current().to_vec()
    };
    let signed = [&sd.key.name[..], &data, &sd.version.to_le_bytes()].concat();
    let (owners, signatures) = match sd.status {
        SdStatus::Owned => owned(&USER_KEY, &signed),
        SdStatus::Deleted => (Vec::new(), Vec::new()),
        SdStatus::Unclaimable => (
            vec![Bytes(NO_OWNER.to_vec())],
            vec![(Bytes(USER_KEY.to_vec()), sign(&signed))],
        ),
    };
    encode(&WireSd {
        type_tag: sd.key.type_tag,
        name: sd.key.name,
        data,
        version: sd.version,
        owners,
        signatures,
    })
}

/// `POST /structured-data/deserialise`: `None` is -1511.
pub(crate) fn structured_data_from(bytes: &[u8]) -> Option<Sd> {
    let wire = bincode::deserialize::<WireSd>(bytes).ok()?;
    keys_ok(&wire.owners, &wire.signatures).then_some(())?;
    let status = if wire.owners.iter().any(|k| k.0 == NO_OWNER) {
        SdStatus::Unclaimable
    } else if wire.owners.is_empty() && wire.data.is_empty() && wire.signatures.is_empty() {
        SdStatus::Deleted
    } else {
        SdStatus::Owned
    };
    let versions = if status != SdStatus::Owned && wire.data.is_empty() {
        Vec::new()
    } else if wire.type_tag == VERSIONED {
        bincode::deserialize::<Vec<Vec<u8>>>(&wire.data).unwrap_or_else(|_| vec![wire.data])
    } else {
        vec![wire.data]
    };
    Some(Sd {
        key: SdKey {
            name: wire.name,
            type_tag: wire.type_tag,
        },
        version: wire.version,
        versions,
        // Bytes say nothing of the cipher the data was written with (here: as written).
        encrypted: Vec::new(),
        status,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` as the little-endian u64 bincode writes for a length or a version.
    fn u64le(n: u64) -> Vec<u8> {
        n.to_le_bytes().to_vec()
    }

    #[test]
    fn data_ids_are_a_u32_tag_then_the_name_and_type_tag() {
        let mut expected = vec![0x00, 0x00, 0x00, 0x00];
        expected.extend([0x01; 32]);
        expected.extend([0xf4, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]);
        let structured = DataId::Structured(SdKey {
            name: [1; 32],
            type_tag: 500,
        });
        assert_eq!(data_id(&structured), expected);
        assert_eq!(expected.len(), 44);
        for (id, tag) in [
            (DataId::Immutable([2; 32]), 1u8),
            (
                DataId::Appendable(AdKey {
                    name: [2; 32],
                    private: false,
                }),
                2,
            ),
            (
                DataId::Appendable(AdKey {
                    name: [2; 32],
                    private: true,
                }),
                3,
            ),
        ] {
            let mut expected = vec![tag, 0x00, 0x00, 0x00];
            expected.extend([0x02; 32]);
            assert_eq!(data_id(&id), expected, "{id:?}");
            assert_eq!(data_id_from(&expected), Some(id));
        }
        // The launcher's bytes read back; trailing bytes are ignored; anything short, or a fifth
        // variant, is refused.
        assert_eq!(data_id_from(&expected), Some(structured));
        let mut trailing = expected.clone();
        trailing.extend(b"more");
        assert_eq!(data_id_from(&trailing), Some(structured));
        assert_eq!(data_id_from(&expected[..43]), None);
        let mut fifth = expected.clone();
        fifth[0] = 4;
        assert_eq!(data_id_from(&fifth), None);
        assert_eq!(data_id_from(b""), None);
    }

    #[test]
    fn a_sign_key_is_a_byte_string_of_32() {
        let mut expected = vec![0x20, 0, 0, 0, 0, 0, 0, 0];
        expected.extend([7; 32]);
        assert_eq!(sign_key(&[7; 32]), expected);
        assert_eq!(sign_key_from(&expected), Some([7; 32]));
        let mut short = vec![0x1f, 0, 0, 0, 0, 0, 0, 0];
        short.extend([7; 31]);
        assert_eq!(sign_key_from(&short), None, "31 bytes is not a key");
        assert_eq!(sign_key_from(&expected[..39]), None);
    }

    /// A public appendable data with a white list of one key, one deleted item and one data
    /// item, written out field by field from routing's declaration order.
    #[test]
    fn public_appendable_data_in_routings_field_order() {
        let item = |n: u8| Item {
            pointer: DataId::Immutable([n; 32]),
            signer: [0xaa; 32],
            seal: 0,
        };
        let mut ad = Ad::new(
            AdKey {
                name: [9; 32],
                private: false,
            },
            FilterType::WhiteList,
            USER_KEY,
        );
        ad.version = 3;
        ad.filter.keys.insert([0xbb; 32]);
        ad.deleted.insert(item(1));
        ad.data.insert(item(2));
        let wire_item_bytes = |n: u8| {
            let mut bytes = vec![0x01, 0, 0, 0];
            bytes.extend([n; 32]);
            bytes.extend(u64le(32));
            bytes.extend([0xaa; 32]);
            bytes.extend(u64le(64));
            let mut signed = vec![0x01, 0, 0, 0];
            signed.extend([n; 32]);
            signed.extend([0xaa; 32]);
            bytes.extend(sign(&signed).0);
            bytes
        };
        let mut expected = Vec::new();
        expected.extend([9; 32]); // name: no length
        expected.extend(u64le(3)); // version
        expected.extend([0x01, 0, 0, 0]); // Filter::WhiteList
        expected.extend(u64le(1));
        expected.extend(u64le(32));
        expected.extend([0xbb; 32]);
        expected.extend(u64le(1)); // deleted_data
        expected.extend(wire_item_bytes(1));
        expected.extend(u64le(1)); // owners
        expected.extend(u64le(32));
        expected.extend(USER_KEY);
        expected.extend(u64le(1)); // signatures
        expected.extend(u64le(32));
        expected.extend(USER_KEY);
        expected.extend(u64le(64));
        let signed = [&[9u8; 32][..], &u64le(3)].concat();
        expected.extend(sign(&signed).0);
        expected.extend(u64le(1)); // data
        expected.extend(wire_item_bytes(2));
        let bytes = appendable_data(&ad);
        assert_eq!(bytes, expected);
        assert_eq!(
            bytes.len(),
            32 + 8 + 4 + 8 + 40 + 8 + 148 + 8 + 40 + 8 + 40 + 72 + 8 + 148
        );
        assert_eq!(appendable_data_from(&bytes), Some(ad.clone()));
        // Trailing bytes are ignored; a cut copy is refused.
        let mut trailing = bytes.clone();
        trailing.push(0);
        assert_eq!(appendable_data_from(&trailing), Some(ad));
        assert_eq!(appendable_data_from(&bytes[..bytes.len() - 1]), None);
    }

    /// What the network sized an appendable data by (`Ad::network_size`, routing's
    /// `validate_size`) is the length of its serialised bytes, public and private, items of
    /// every kind, filter keys, deleted items.
    #[test]
    fn the_size_the_network_checks_is_the_serialised_length() {
        let pointers = [
            DataId::Structured(SdKey {
                name: [1; 32],
                type_tag: 500,
            }),
            DataId::Immutable([2; 32]),
            DataId::Appendable(AdKey {
                name: [3; 32],
                private: true,
            }),
        ];
        for private in [false, true] {
            let mut ad = Ad::new(
                AdKey {
                    name: [7; 32],
                    private,
                },
                FilterType::BlackList,
                USER_KEY,
            );
            assert_eq!(ad.network_size(), appendable_data(&ad).len());
            for (n, pointer) in pointers.iter().enumerate() {
                let item = |seal| Item {
                    pointer: *pointer,
                    signer: USER_KEY,
                    seal,
                };
                ad.data.insert(item(n as u64));
                ad.deleted.insert(item(n as u64 + 10));
                ad.filter.keys.insert([n as u8; 32]);
                assert_eq!(ad.network_size(), appendable_data(&ad).len(), "{ad:?}");
            }
        }
    }

    /// The same for structured data: versioned and not, owned, deleted and unclaimable.
    #[test]
    fn the_size_of_structured_data_is_its_serialised_length() {
        for type_tag in [500, VERSIONED] {
            for status in [SdStatus::Owned, SdStatus::Deleted, SdStatus::Unclaimable] {
                for versions in [
                    vec![],
                    vec![vec![1; 10]],
                    vec![vec![2; 3], vec![], vec![4; 99]],
                ] {
                    let sd = Sd {
                        key: SdKey {
                            name: [5; 32],
                            type_tag,
                        },
                        version: 2,
                        versions,
                        encrypted: Vec::new(),
                        status,
                    };
                    assert_eq!(sd.network_size(), structured_data(&sd).len(), "{sd:?}");
                }
            }
        }
    }

    #[test]
    fn private_appendable_data_is_tried_first_and_unreadable_items_are_left_out() {
        let mut ad = Ad::new(
            AdKey {
                name: [4; 32],
                private: true,
            },
            FilterType::BlackList,
            USER_KEY,
        );
        ad.data.insert(Item {
            pointer: DataId::Structured(SdKey {
                name: [5; 32],
                type_tag: 500,
            }),
            signer: USER_KEY,
            seal: 0,
        });
        // A second sealing of the same item is another item, and survives the bytes.
        ad.data.insert(Item {
            pointer: DataId::Structured(SdKey {
                name: [5; 32],
                type_tag: 500,
            }),
            signer: USER_KEY,
            seal: 7,
        });
        let bytes = appendable_data(&ad);
        // name, version, filter (BlackList, no keys), then the encrypt key as a byte string.
        assert_eq!(&bytes[..32], &[4; 32]);
        assert_eq!(&bytes[32..40], &u64le(0)[..]);
        assert_eq!(&bytes[40..52], &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&bytes[52..60], &u64le(32)[..]);
        assert_eq!(&bytes[60..92], &ENCRYPT_KEY);
        assert_eq!(appendable_data_from(&bytes), Some(ad.clone()));
        // As a real launcher wrote it: the same layout with an item sealed by real cryptography
        // (bytes the emulator cannot open), other keys and signatures.
        let mut launcher = Vec::new();
        launcher.extend([4; 32]);
        launcher.extend(u64le(7));
        launcher.extend([0, 0, 0, 0]);
        launcher.extend(u64le(0));
        launcher.extend(u64le(32));
        launcher.extend([0x33; 32]); // encrypt key
        launcher.extend(u64le(0)); // deleted_data
        launcher.extend(u64le(1)); // owners
        launcher.extend(u64le(32));
        launcher.extend([0x44; 32]);
        launcher.extend(u64le(1)); // signatures
        launcher.extend(u64le(32));
        launcher.extend([0x44; 32]);
        launcher.extend(u64le(64));
        launcher.extend([0x55; 64]);
        launcher.extend(u64le(1)); // data: one sealed item
        launcher.extend(u64le(180));
        launcher.extend([0x66; 180]);
        let read = appendable_data_from(&launcher).expect("a private appendable data");
        assert_eq!(
            (read.key.private, read.version, read.data.len()),
            (true, 7, 0)
        );
        assert_eq!(appendable_data_from(b"not appendable data"), None);
        // A sealed item over 212 bytes fails the private layout (and these bytes the public one).
        let mut long = launcher[..launcher.len() - 8 - 180].to_vec();
        long.extend(u64le(213));
        long.extend([0x66; 213]);
        assert_eq!(appendable_data_from(&long), None);
    }

    #[test]
    fn structured_data_in_routings_field_order() {
        let sd = Sd {
            key: SdKey {
                name: [6; 32],
                type_tag: 500,
            },
            version: 2,
            versions: vec![b"hi".to_vec()],
            encrypted: Vec::new(),
            status: SdStatus::Owned,
        };
        let mut expected = u64le(500); // type_tag first
        expected.extend([6; 32]);
        expected.extend(u64le(2));
        expected.extend(b"hi");
        expected.extend(u64le(2)); // version
        expected.extend(u64le(1));
        expected.extend(u64le(32));
        expected.extend(USER_KEY);
        expected.extend(u64le(1));
        expected.extend(u64le(32));
        expected.extend(USER_KEY);
        expected.extend(u64le(64));
        let signed = [&[6u8; 32][..], b"hi", &u64le(2)].concat();
        expected.extend(sign(&signed).0);
        assert_eq!(structured_data(&sd), expected);
        assert_eq!(structured_data_from(&expected), Some(sd.clone()));
        // Deleted: no data, no owners, no signatures.
        let deleted = Sd {
            versions: Vec::new(),
            encrypted: Vec::new(),
            status: SdStatus::Deleted,
            ..sd.clone()
        };
        let mut expected = u64le(500);
        expected.extend([6; 32]);
        expected.extend(u64le(0));
        expected.extend(u64le(2));
        expected.extend(u64le(0));
        expected.extend(u64le(0));
        assert_eq!(structured_data(&deleted), expected);
        assert_eq!(structured_data_from(&expected), Some(deleted));
        // Versioned: the emulator's list of versions round-trips.
        let versioned = Sd {
            key: SdKey {
                name: [6; 32],
                type_tag: VERSIONED,
            },
            versions: vec![b"a".to_vec(), b"bc".to_vec()],
            ..sd
        };
        assert_eq!(
            structured_data_from(&structured_data(&versioned)),
            Some(versioned)
        );
        assert_eq!(structured_data_from(&[1, 2, 3]), None);
    }
}
