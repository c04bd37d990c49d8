//! The emulator's own JSON forms of its data: the `--state` file (what is on the "network") and
//! the bytes of the serialise routes. Neither is the SAFE network's wire format: the emulator has
//! no cryptography, and these bytes only round-trip through the emulator itself.
//!
//! State file (`--state FILE`), one JSON object:
//!
//! ```json
//! {
//!   "format": "safe-ad-emulator-state/1",
//!   "appendableData": [
//!     { "name": "<base64 of 32 bytes>", "isPrivate": false, "version": 1,
//!       "filterType": "BlackList", "filterKeys": ["<base64 of 32 bytes>"],
//!       "data": [ITEM...], "deletedData": [ITEM...] }
//!   ],
//!   "structuredData": [
//!     { "name": "<base64>", "typeTag": 500, "version": 0, "data": ["<base64>"] }
//!   ]
//! }
//! ```
//!
//! An ITEM is `{"structuredData": {"name": "<base64>", "typeTag": 500}}` or
//! `{"appendableData": {"name": "<base64>", "isPrivate": false}}`, with an optional
//! `"signKey": "<base64>"` (who appended it; the emulator's user when left out). A structured
//! data's `data` lists the data of each version, oldest first (one entry unless `typeTag` is 501).
//! `filterKeys`, `data`, `deletedData` and `isPrivate` may be left out. Unknown fields are refused,
//! so that a typo does not silently change a fixture.

use serde::{Deserialize, Serialize};

use super::encoding::base64_encode;
use super::state::{Ad, AdKey, DataId, Filter, FilterType, Item, Sd, SdKey, SignKey, USER_KEY};

/// The `format` value of a state file this version writes and reads.
pub const STATE_FORMAT: &str = "safe-ad-emulator-state/1";

/// The first bytes of every serialised handle, then the kind and a newline, then JSON.
const SERIAL_MAGIC: &str = "safe-ad-emulator/";

/// A whole state file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StateFile {
    pub format: String,
    #[serde(default)]
    pub appendable_data: Vec<AdJson>,
    #[serde(default)]
    pub structured_data: Vec<SdJson>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AdJson {
    pub name: String,
    #[serde(default)]
    pub is_private: bool,
    pub version: u64,
    pub filter_type: String,
    #[serde(default)]
    pub filter_keys: Vec<String>,
    #[serde(default)]
    pub data: Vec<ItemJson>,
    #[serde(default)]
    pub deleted_data: Vec<ItemJson>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ItemJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structured_data: Option<SdKeyJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub appendable_data: Option<AdKeyJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sign_key: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SdKeyJson {
    pub name: String,
    pub type_tag: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AdKeyJson {
    pub name: String,
    #[serde(default)]
    pub is_private: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SdJson {
    pub name: String,
    pub type_tag: u64,
    pub version: u64,
    #[serde(default)]
    pub data: Vec<String>,
}

/// 32 bytes from strict base64 (a fixture is written by people: no lenient decoding here).
fn bytes32(text: &str, what: &str) -> Result<[u8; 32], String> {
    super::encoding::base64_decode(text)
        .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
        .ok_or_else(|| format!("{what} `{text}` is not base64 of 32 bytes"))
}

fn ad_key_from(json: &AdKeyJson) -> Result<AdKey, String> {
    Ok(AdKey {
        name: bytes32(&json.name, "name")?,
        private: json.is_private,
    })
}

fn ad_key_json(key: &AdKey) -> AdKeyJson {
    AdKeyJson {
        name: base64_encode(&key.name),
        is_private: key.private,
    }
}

fn sd_key_json(key: &SdKey) -> SdKeyJson {
    SdKeyJson {
        name: base64_encode(&key.name),
        type_tag: key.type_tag,
    }
}

pub fn data_id_from(json: &ItemJson) -> Result<DataId, String> {
    match (&json.structured_data, &json.appendable_data) {
        (Some(sd), None) => Ok(DataId::Structured(SdKey {
            name: bytes32(&sd.name, "name")?,
            type_tag: sd.type_tag,
        })),
        (None, Some(ad)) => Ok(DataId::Appendable(ad_key_from(ad)?)),
        _ => Err("an item names exactly one of `structuredData` and `appendableData`".to_owned()),
    }
}

pub fn data_id_json(id: &DataId) -> ItemJson {
    match id {
        DataId::Structured(key) => ItemJson {
            structured_data: Some(sd_key_json(key)),
            appendable_data: None,
            sign_key: None,
        },
        DataId::Appendable(key) => ItemJson {
            structured_data: None,
            appendable_data: Some(ad_key_json(key)),
            sign_key: None,
        },
    }
}

fn item_from(json: &ItemJson) -> Result<Item, String> {
    Ok(Item {
        pointer: data_id_from(json)?,
        signer: match &json.sign_key {
            Some(key) => bytes32(key, "signKey")?,
            None => USER_KEY,
        },
    })
}

fn item_json(item: &Item) -> ItemJson {
    let mut json = data_id_json(&item.pointer);
    if item.signer != USER_KEY {
        json.sign_key = Some(base64_encode(&item.signer));
    }
    json
}

pub fn ad_from(json: &AdJson) -> Result<Ad, String> {
    let kind = match json.filter_type.as_str() {
        "BlackList" => FilterType::BlackList,
        "WhiteList" => FilterType::WhiteList,
        other => {
            return Err(format!(
                "filterType `{other}` is neither `BlackList` nor `WhiteList`"
            ))
        }
    };
    Ok(Ad {
        key: AdKey {
            name: bytes32(&json.name, "name")?,
            private: json.is_private,
        },
        version: json.version,
        data: json.data.iter().map(item_from).collect::<Result<_, _>>()?,
        deleted: json
            .deleted_data
            .iter()
            .map(item_from)
            .collect::<Result<_, _>>()?,
        filter: Filter {
            kind,
            keys: json
                .filter_keys
                .iter()
                .map(|k| bytes32(k, "filter key"))
                .collect::<Result<_, _>>()?,
        },
    })
}

pub fn ad_json(ad: &Ad) -> AdJson {
    AdJson {
        name: base64_encode(&ad.key.name),
        is_private: ad.key.private,
        version: ad.version,
        filter_type: ad.filter.kind.as_str().to_owned(),
        filter_keys: ad.filter.keys.iter().map(|k| base64_encode(k)).collect(),
        data: ad.data.iter().map(item_json).collect(),
        deleted_data: ad.deleted.iter().map(item_json).collect(),
    }
}

pub fn sd_from(json: &SdJson) -> Result<Sd, String> {
    Ok(Sd {
        key: SdKey {
            name: bytes32(&json.name, "name")?,
            type_tag: json.type_tag,
        },
        version: json.version,
        versions: json
            .data
            .iter()
            .map(|d| {
                super::encoding::base64_decode(d).ok_or_else(|| format!("data `{d}` is not base64"))
            })
            .collect::<Result<_, _>>()?,
    })
}

pub fn sd_json(sd: &Sd) -> SdJson {
    SdJson {
        name: base64_encode(&sd.key.name),
        type_tag: sd.key.type_tag,
        version: sd.version,
        data: sd.versions.iter().map(|d| base64_encode(d)).collect(),
    }
}

/// What a serialise route's bytes hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Serialised {
    Ad(Ad),
    Sd(Sd),
    DataId(DataId),
    SignKey(SignKey),
}

impl Serialised {
    fn kind(&self) -> &'static str {
        match self {
            Serialised::Ad(_) => "appendable-data",
            Serialised::Sd(_) => "structured-data",
            Serialised::DataId(_) => "data-id",
            Serialised::SignKey(_) => "sign-key",
        }
    }

    /// `safe-ad-emulator/<kind>\n<json>`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let json = match self {
            Serialised::Ad(ad) => serde_json::to_string(&ad_json(ad)),
            Serialised::Sd(sd) => serde_json::to_string(&sd_json(sd)),
            Serialised::DataId(id) => serde_json::to_string(&data_id_json(id)),
            Serialised::SignKey(key) => serde_json::to_string(&base64_encode(key)),
        }
        .unwrap_or_default();
        format!("{SERIAL_MAGIC}{}\n{json}", self.kind()).into_bytes()
    }

    /// Reads bytes of the given kind (`"appendable-data"`, ...); `None` if they are not that.
    pub fn from_bytes(bytes: &[u8], kind: &str) -> Option<Serialised> {
        let text = std::str::from_utf8(bytes).ok()?;
        let (head, json) = text.split_once('\n')?;
        if head.strip_prefix(SERIAL_MAGIC)? != kind {
            return None;
        }
        match kind {
            "appendable-data" => serde_json::from_str::<AdJson>(json)
                .ok()
                .and_then(|j| ad_from(&j).ok())
                .map(Serialised::Ad),
            "structured-data" => serde_json::from_str::<SdJson>(json)
                .ok()
                .and_then(|j| sd_from(&j).ok())
                .map(Serialised::Sd),
            "data-id" => serde_json::from_str::<ItemJson>(json)
                .ok()
                .and_then(|j| data_id_from(&j).ok())
                .map(Serialised::DataId),
            "sign-key" => serde_json::from_str::<String>(json)
                .ok()
                .and_then(|k| bytes32(&k, "sign key").ok())
                .map(Serialised::SignKey),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips_and_kinds_do_not_mix() {
        let mut ad = Ad::new(
            AdKey {
                name: [7; 32],
                private: true,
            },
            FilterType::WhiteList,
        );
        ad.filter.keys.insert([3; 32]);
        ad.data.insert(Item {
            pointer: DataId::Structured(SdKey {
                name: [1; 32],
                type_tag: 501,
            }),
            signer: [9; 32],
        });
        ad.deleted.insert(Item {
            pointer: DataId::Appendable(AdKey {
                name: [2; 32],
                private: false,
            }),
            signer: USER_KEY,
        });
        let sd = Sd {
            key: SdKey {
                name: [4; 32],
                type_tag: 501,
            },
            version: 3,
            versions: vec![b"a".to_vec(), Vec::new()],
        };
        for value in [
            Serialised::Ad(ad),
            Serialised::Sd(sd),
            Serialised::DataId(DataId::Appendable(AdKey {
                name: [5; 32],
                private: false,
            })),
            Serialised::SignKey([6; 32]),
        ] {
            let bytes = value.to_bytes();
            assert_eq!(
                Serialised::from_bytes(&bytes, value.kind()),
                Some(value.clone())
            );
            let other = if value.kind() == "sign-key" {
                "data-id"
            } else {
                "sign-key"
            };
            assert_eq!(Serialised::from_bytes(&bytes, other), None);
        }
        assert_eq!(Serialised::from_bytes(b"", "data-id"), None);
        assert_eq!(Serialised::from_bytes(&[0xff, b'\n'], "data-id"), None);
    }

    #[test]
    fn state_file_fields() {
        let text = r#"{"format":"safe-ad-emulator-state/1","appendableData":[
            {"name":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","version":2,"filterType":"BlackList",
             "data":[{"structuredData":{"name":"AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=","typeTag":500}}]}]}"#;
        let file: StateFile = serde_json::from_str(text).unwrap();
        let ad = ad_from(&file.appendable_data[0]).unwrap();
        assert_eq!((ad.version, ad.data.len(), ad.key.private), (2, 1, false));
        assert!(serde_json::from_str::<StateFile>(r#"{"format":"x","extra":1}"#).is_err());
        let mut bad = file.appendable_data[0].clone();
        bad.filter_type = "WHITE_LIST".into();
        assert!(ad_from(&bad).is_err());
    }
}
