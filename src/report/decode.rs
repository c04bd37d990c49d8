//! The words of `decode`: what serialised bytes hold, as text or one JSON object; and of `auth
//! whoami`, your own key's fingerprint. Items are
//! named by `wire::DataId`'s own `Display` (the one place items are named).

use super::json::{
    AppendableJson, DataIdJson, DecodedFilter, DecodedJson, EntryJson, SignKeyJson, Whoami,
};
use super::*;
use crate::wire::{AppendableData, DataId, Decoded, Entry, SignKey};

impl Reporter {
    /// The decoded value on stdout.
    pub fn decoded(&self, decoded: &Decoded) {
        if self.json {
            self.print_json(&decoded_json(decoded));
        } else {
            self.out(&decoded_text(decoded));
        }
    }
}

impl Reporter {
    /// `auth whoami`: the fingerprint of the user's serialised key alone on stdout (with
    /// `key`, the key's 32 bytes in base64, as `filter add` takes a KEY), or JSON.
    /// A key whose bytes cannot be told (`--key`) is a failure: nothing is printed on stdout.
    pub fn whoami(&self, serialised_key: &[u8], key: bool) -> Done {
        let fingerprint = serialised::fingerprint(serialised_key);
        let decoded = SignKey::decode(serialised_key);
        if self.json {
            let key = decoded.map(|key| serialised::base64(&key.0)).ok();
            self.print_json(&Whoami { fingerprint, key });
            return Done::Success;
        }
        // The result itself, as `create` prints its handle: `--quiet` does not hide it.
        match (key, decoded) {
            (false, _) => self.out(&format!("{fingerprint}\n")),
            (true, Ok(key)) => self.out(&format!("{}\n", serialised::base64(&key.0))),
            (true, Err(error)) => {
                let failure = Failure::new(
                    Class::Unexpected,
                    format!("the launcher's serialised bytes of your key are not in launcher 0.11.0's layout ({error}), so its 32 bytes cannot be told (its fingerprint is {fingerprint})"),
                );
                self.failed(&failure);
                return Done::Failed(Class::Unexpected);
            }
        }
        Done::Success
    }
}

/// A sign key as `show` names it: the fingerprint of its serialised bytes.
pub fn key_fingerprint(key: &SignKey) -> String {
    serialised::fingerprint(&key.serialised())
}

/// A data id, for scripts: `{kind, name, type_tag}`.
pub fn data_id_json(id: &DataId) -> DataIdJson {
    DataIdJson {
        kind: id.kind.name(),
        name: id.name.to_string(),
        type_tag: id.type_tag,
    }
}

fn decoded_json(decoded: &Decoded) -> DecodedJson {
    match decoded {
        Decoded::DataId(id) => DecodedJson::DataId(data_id_json(id)),
        Decoded::SignKey(key) => DecodedJson::SignKey(SignKeyJson {
            kind: "sign-key",
            key: serialised::base64(&key.0),
            fingerprint: key_fingerprint(key),
        }),
        Decoded::AppendableData(data) => DecodedJson::AppendableData(appendable_json(data)),
    }
}

fn fingerprints(keys: &[SignKey]) -> Vec<String> {
    keys.iter().map(key_fingerprint).collect()
}

fn entry_json(entry: &Entry) -> EntryJson {
    match entry {
        Entry::Appended(item) => EntryJson::Appended {
            kind: item.pointer.kind.name(),
            name: item.pointer.name.to_string(),
            type_tag: item.pointer.type_tag,
            signer: key_fingerprint(&item.sign_key),
        },
        Entry::Sealed(length) => EntryJson::Sealed {
            kind: "sealed",
            sealed_bytes: *length,
        },
    }
}

fn appendable_json(data: &AppendableData) -> AppendableJson {
    AppendableJson {
        kind: if data.private {
            "private-appendable-data"
        } else {
            "appendable-data"
        },
        name: data.name.to_string(),
        version: data.version,
        filter: DecodedFilter {
            kind: data.filter_type.name(),
            keys: fingerprints(&data.filter_keys),
        },
        owners: fingerprints(&data.owners),
        signed_by: fingerprints(&data.signed_by),
        data: data.data.iter().map(entry_json).collect(),
        deleted_data: data.deleted.iter().map(entry_json).collect(),
    }
}

fn decoded_text(decoded: &Decoded) -> String {
    match decoded {
        Decoded::DataId(id) => format!("data id: {id}\n"),
        Decoded::SignKey(key) => format!(
            "sign key: fingerprint {}, key {}\n",
            key_fingerprint(key),
            serialised::base64(&key.0)
        ),
        Decoded::AppendableData(data) => appendable_text(data),
    }
}

fn plural(count: usize, one: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {one}s")
    }
}

fn appendable_text(data: &AppendableData) -> String {
    let kind = if data.private {
        "private appendable data"
    } else {
        "appendable data"
    };
    let mut text = format!(
        "{kind} {}: version {}, data {}, deleted {}, filter {} ({})\n",
        data.name,
        data.version,
        data.data.len(),
        data.deleted.len(),
        data.filter_type.name(),
        plural(data.filter_keys.len(), "key"),
    );
    for (index, key) in data.filter_keys.iter().enumerate() {
        text.push_str(&format!("  filter key {index}: {}\n", key_fingerprint(key)));
    }
    for key in &data.owners {
        text.push_str(&format!("  owner: {}\n", key_fingerprint(key)));
    }
    for key in &data.signed_by {
        text.push_str(&format!("  signed by: {}\n", key_fingerprint(key)));
    }
    for (section, entries) in [("data", &data.data), ("deleted", &data.deleted)] {
        for (index, entry) in entries.iter().enumerate() {
            let what = match entry {
                Entry::Appended(item) => format!(
                    "{}, signed by {}",
                    item.pointer,
                    key_fingerprint(&item.sign_key)
                ),
                Entry::Sealed(length) => format!(
                    "sealed, {length} bytes (a private item: only its owner's launcher reads it)"
                ),
            };
            text.push_str(&format!("  {section} {index}: {what}\n"));
        }
    }
    text
}
