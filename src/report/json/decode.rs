//! `decode`'s objects (what serialised bytes hold: a data id, a sign key or an appendable data)
//! and `auth whoami`'s (your own key).

use serde::Serialize;

use super::{Row, Table};

/// `auth whoami --json`: your sign key.
#[derive(Debug, Default, Serialize)]
pub struct Whoami {
    pub fingerprint: String,
    /// Null when the launcher's serialised bytes of the key are not in launcher 0.11.0's layout.
    pub key: Option<String>,
}

key_table! {
    WHOAMI_TABLE = "whoami" of [Whoami]
    Row(&["fingerprint"], "string", "your sign key's fingerprint, as `show` writes signers (`you` there)"),
    Row(&["key"], "string", "your sign key's 32 bytes, base64"),
}

/// `decode --json`: one of three objects, by what the bytes hold.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum DecodedJson {
    DataId(DataIdJson),
    SignKey(SignKeyJson),
    AppendableData(AppendableJson),
}

/// A data id, for scripts (also each readable item of a decoded appendable data, with its
/// signer: [`EntryJson`]).
#[derive(Debug, Default, Serialize)]
pub struct DataIdJson {
    pub kind: &'static str,
    pub name: String,
    pub type_tag: Option<u64>,
}

/// A sign key.
#[derive(Debug, Default, Serialize)]
pub struct SignKeyJson {
    /// `sign-key`.
    pub kind: &'static str,
    pub key: String,
    pub fingerprint: String,
}

/// An appendable data, as its serialised bytes hold it.
#[derive(Debug, Default, Serialize)]
pub struct AppendableJson {
    pub kind: &'static str,
    pub name: String,
    pub version: u64,
    pub filter: DecodedFilter,
    pub owners: Vec<String>,
    pub signed_by: Vec<String>,
    pub data: Vec<EntryJson>,
    pub deleted_data: Vec<EntryJson>,
}

/// A decoded appendable data's filter: its type and its keys' fingerprints.
#[derive(Debug, Default, Serialize)]
pub struct DecodedFilter {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub keys: Vec<String>,
}

/// An item of a decoded appendable data: a data id and its signer, or the length of an item it
/// cannot read (encrypted).
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum EntryJson {
    Appended {
        kind: &'static str,
        name: String,
        type_tag: Option<u64>,
        signer: String,
    },
    Sealed {
        /// `sealed`.
        kind: &'static str,
        sealed_bytes: usize,
    },
}

key_table! {
    DECODE_TABLE = "decode" of [DataIdJson, SignKeyJson, AppendableJson]
    Row(&["kind"], "string", "a data id's kind (`structured-data`, `immutable-data`, `appendable-data`, `private-appendable-data`), or `sign-key`"),
    Row(&["name"], "string", "the name of the data (base64)"),
    Row(&["type_tag"], "number or null", "a structured data's type tag (null for other kinds)"),
    Row(&["key", "fingerprint"], "string", "a sign key: its 32 bytes (base64) and its fingerprint"),
    Row(&["version"], "number", "an appendable data's version"),
    Row(&["filter"], "object", "an appendable data's filter: its `type` and `keys` (fingerprints)"),
    Row(&["owners", "signed_by"], "list", "an appendable data's owners and the keys that signed it, as fingerprints"),
    Row(&["data", "deleted_data"], "list", "an appendable data's items, each with `kind`, `name`, `type_tag` (as a data id's) and `signer` (a fingerprint); an item it cannot read (encrypted) has `kind` `sealed` and its length, `sealed_bytes`"),
}
