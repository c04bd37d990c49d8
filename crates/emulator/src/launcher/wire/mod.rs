//! The emulator's own JSON form of its data: the `--state` file (what is on the "network"). It is
//! not the SAFE network's format (the serialise routes write that: `serialised`).
//!
//! State file (`--state FILE`), one JSON object:
//!
//! ```json
//! {
//!   "format": "safe-ad-emulator-state/1",
//!   "users": [ { "name": "alice", "signKey": "<base64 of 32 bytes>" } ],
//!   "appendableData": [
//!     { "name": "<base64 of 32 bytes>", "isPrivate": false, "version": 1,
//!       "filterType": "BlackList", "filterKeys": ["<base64 of 32 bytes>"],
//!       "owner": "alice", "data": [ITEM...], "deletedData": [ITEM...] }
//!   ],
//!   "structuredData": [
//!     { "name": "<base64>", "typeTag": 500, "version": 0, "data": ["<base64>"] }
//!   ],
//!   "immutableData": [
//!     { "name": "<base64 of 32 bytes>", "cipher": "PLAIN", "content": "<base64>" }
//!   ]
//! }
//! ```
//!
//! An ITEM is `{"structuredData": {"name": "<base64>", "typeTag": 500}}`,
//! `{"immutableData": {"name": "<base64>"}}` or
//! `{"appendableData": {"name": "<base64>", "isPrivate": false}}`, with an optional
//! `"signKey": "<base64>"` or `"signedBy": "<user>"` (who appended it; the emulator's first user
//! when left out) and, in private
//! data only, an optional `"seal": N` (which sealing of the item it is, see `state::Item`: the
//! same item may be listed once for each; 0 when left out). A structured
//! data's `data` lists the data of each version, oldest first (one entry unless `typeTag` is 501;
//! none once deleted or unclaimed); `"encrypted"` lists, version by version, whether it was
//! written with symmetric or asymmetric cipher options (then only an app with a token reads it;
//! left out: all plain); `"deleted": true` or `"unclaimable": true` says it was (see
//! `state::structured`). An immutable data's `cipher` is `PLAIN`, `SYMMETRIC` or `ASYMMETRIC`
//! (who may read it: `state::immutable`), its `content` the bytes as written; its `name` is the
//! emulator's hash of the two, which a save writes and a load checks (leave it out to have it
//! computed). `users` lists the emulator's named users and their sign keys, and an appendable
//! data's owner is `"owner": "<user>"` or `"ownerKey": "<base64>"` (the emulator's first user when
//! left out): see `users`. A top-level `leftOut` (any JSON; capture writes a list of objects) is what `safe-ad capture` could
//! not put in the file: it is read past (never checked, and not written back by a save).
//! `filterKeys`, `data`, `deletedData`, `isPrivate`, `encrypted`, `deleted`, `unclaimable`,
//! `immutableData` and an immutable data's `name` and `cipher` (plain) may be left out. Unknown
//! fields, a field given twice, a data listed twice (the same name and `isPrivate`, or name and
//! `typeTag`, or content and cipher) and an item or filter key listed twice in one list are
//! refused, so that a typo does not silently change a fixture ([`Network::from_file`]); so is a
//! `version` of 2^64 - 1, which no save could follow, past the last one a save reaches
//! ([`version`]), and data larger than the network stored (`state::MAX_DATA_SIZE`). Every error names the whole
//! path to the value at fault, innermost last (`appendableData[1].data[0].structuredData.name`:
//! `misfit`).

use serde::{Deserialize, Serialize};

use std::collections::HashMap;

use crate::launcher::encoding::base64_encode;
use crate::launcher::state::{
    Ad, AdKey, Cipher, DataId, Filter, FilterType, Immutable, Item, Sd, SdKey, SdStatus, User,
    LAST_VERSION, MAX_DATA_SIZE,
};

mod misfit;
mod users;

use misfit::{Misfit, Within};
pub use users::UserJson;
use users::{key_from, key_json, users_from, users_json};

/// The `format` value of a state file this version writes and reads.
pub const STATE_FORMAT: &str = "safe-ad-emulator-state/1";

/// A whole state file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StateFile {
    pub format: String,
    /// The named users and their keys (none for an emulator of one unnamed user).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub users: Vec<UserJson>,
    #[serde(default)]
    pub appendable_data: Vec<AdJson>,
    #[serde(default)]
    pub structured_data: Vec<SdJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub immutable_data: Vec<ImmutableJson>,
    /// What the program that wrote the file (`safe-ad capture`) could not put in it, for the
    /// person reading the file: written by capture; read past (any JSON), never checked or
    /// written back (a save writes the network, which holds none of it: `None`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        rename = "leftOut",
        deserialize_with = "read_past"
    )]
    pub left_out: Option<Vec<LeftOutJson>>,
}

/// One entry of a fixture's `leftOut`: what `safe-ad capture` left out, and why, in words.
#[derive(Debug, Clone, Serialize)]
pub struct LeftOutJson {
    pub what: String,
    pub why: String,
}

/// A `leftOut` as a load reads it: whatever it holds, skipped.
fn read_past<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Vec<LeftOutJson>>, D::Error> {
    serde::de::IgnoredAny::deserialize(deserializer).map(|_| None)
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
    /// Its owner, a user by name; or by key, `owner_key` (see `users`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_key: Option<String>,
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
    pub immutable_data: Option<NameJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub appendable_data: Option<AdKeyJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sign_key: Option<String>,
    /// Who appended it, by user (instead of `sign_key`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signed_by: Option<String>,
    /// Which sealing of a private item (`state::Item::seal`); 0, left out, for public items.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub seal: u64,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NameJson {
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImmutableJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default = "plain")]
    pub cipher: String,
    pub content: String,
}

fn plain() -> String {
    Cipher::Plain.as_str().to_owned()
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
    /// Which versions were written encrypted (none: all plain).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub encrypted: Vec<bool>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub deleted: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub unclaimable: bool,
}

fn is_false(value: &bool) -> bool {
    !value
}

/// What a state file holds, checked and converted: the emulator's network.
///
/// Public only as the type of the service's `Options::network` (the client's tests start
/// emulators with a network); opaque outside this crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    pub(crate) appendable_data: Vec<Ad>,
    pub(crate) structured_data: Vec<Sd>,
    pub(crate) immutable_data: Vec<Immutable>,
    /// The users of the emulator that serves it, with their keys (the roster: `state::roster`).
    pub(crate) users: Vec<User>,
}

impl Default for Network {
    /// Nothing stored, and the one unnamed user.
    fn default() -> Network {
        Network {
            appendable_data: Vec::new(),
            structured_data: Vec::new(),
            immutable_data: Vec::new(),
            users: vec![User::default_user()],
        }
    }
}

/// What makes the users of a run from the users a file names (with their keys): the start's
/// `state::roster` with the command line's names, or a reset's `state::keep` with the running
/// users; its error is said at the file's `users`.
pub(crate) type Roster<'a> = &'a dyn Fn(&[User]) -> Result<Vec<User>, String>;

impl Network {
    /// Checks and converts a parsed state file: its format, every field, and that no data is
    /// listed twice; its users become the run's through `roster`, and every user a key names is
    /// one of those. The error names the path to the value (`appendableData[3].version`).
    pub(crate) fn from_file(file: &StateFile, roster: Roster<'_>) -> Result<Network, Misfit> {
        if file.format != STATE_FORMAT {
            return Err(
                Misfit::new(format!("`{}` is not `{STATE_FORMAT}`", file.format))
                    .in_field("format"),
            );
        }
        let named = users_from(&file.users)?;
        let users = roster(&named).map_err(|why| Misfit::new(why).in_field("users"))?;
        let appendable_data = each_once(
            &file.appendable_data,
            "appendableData",
            |json| ad_from(json, &users),
            |ad| ad.key,
            |json| {
                format!(
                    "the same name `{}` and isPrivate {}; list each appendable data once",
                    json.name, json.is_private
                )
            },
        )?;
        let structured_data = each_once(
            &file.structured_data,
            "structuredData",
            sd_from,
            |sd| sd.key,
            |json| {
                format!(
                    "the same name `{}` and typeTag {}; list each structured data once",
                    json.name, json.type_tag
                )
            },
        )?;
        let immutable_data = each_once(
            &file.immutable_data,
            "immutableData",
            immutable_from,
            |data| data.name,
            |json| {
                format!(
                    "the same content and cipher {}; list each immutable data once",
                    json.cipher
                )
            },
        )?;
        Ok(Network {
            appendable_data,
            structured_data,
            immutable_data,
            users,
        })
    }

    /// The state file that holds this network.
    pub(crate) fn to_file(&self) -> StateFile {
        StateFile {
            format: STATE_FORMAT.to_owned(),
            users: users_json(&self.users),
            appendable_data: self
                .appendable_data
                .iter()
                .map(|ad| ad_json(ad, &self.users))
                .collect(),
            structured_data: self.structured_data.iter().map(sd_json).collect(),
            immutable_data: self.immutable_data.iter().map(immutable_json).collect(),
            left_out: None,
        }
    }
}

/// A state file's bytes, parsed and checked, its users made the run's through `roster`: an empty
/// (or all-blank) file is an empty network. Every error names the whole path to the value at
/// fault, innermost last (`appendableData[2].data[0].structuredData: missing field `typeTag``;
/// see `misfit`).
pub(crate) fn parse_state(bytes: &[u8], roster: Roster<'_>) -> Result<Network, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Network {
            users: roster(&[])?,
            ..Network::default()
        });
    }
    let file: StateFile = serde_json::from_slice(bytes).map_err(|error| {
        if error.is_data() {
            // Well-formed JSON that does not fit: placed at the value serde stopped at.
            misfit::placed(bytes, &error).to_string()
        } else {
            error.to_string()
        }
    })?;
    Network::from_file(&file, roster).map_err(|misfit| misfit.to_string())
}

/// How many entries a state file's `leftOut` lists (what `safe-ad capture` could not put in
/// it), for the start to say; 0 when it has none, or the file does not parse.
pub(crate) fn left_out_count(bytes: &[u8]) -> usize {
    #[derive(Deserialize)]
    struct LeftOutOnly {
        #[serde(default, rename = "leftOut")]
        left_out: Vec<serde::de::IgnoredAny>,
    }
    if !bytes.windows(9).any(|window| window == b"\"leftOut\"") {
        return 0;
    }
    serde_json::from_slice::<LeftOutOnly>(bytes).map_or(0, |only| only.left_out.len())
}

/// Converts each entry of `list` (called `name` in the file); an error naming the entry when one
/// does not convert or has the key of an earlier one (`same` says what they share).
fn each_once<J, T, K: std::hash::Hash + Eq>(
    list: &[J],
    name: &str,
    convert: impl Fn(&J) -> Result<T, Misfit>,
    key: impl Fn(&T) -> K,
    same: impl Fn(&J) -> String,
) -> Result<Vec<T>, Misfit> {
    let mut out = Vec::with_capacity(list.len());
    let mut seen = HashMap::new();
    for (index, json) in list.iter().enumerate() {
        let value = convert(json).entry(name, index)?;
        if let Some(first) = seen.insert(key(&value), index) {
            return Err(Misfit::new(format!("{name}[{first}] has {}", same(json)))
                .at_index(index)
                .in_field(name));
        }
        out.push(value);
    }
    Ok(out)
}

/// The elements of the list `list` that must not repeat (each a `what`), as a set; an error
/// naming the element at fault, or the first repeat and the entry it repeats.
fn unique<T: Ord>(
    values: impl IntoIterator<Item = Result<T, Misfit>>,
    list: &str,
    what: &str,
) -> Result<std::collections::BTreeSet<T>, Misfit> {
    let mut seen = std::collections::BTreeMap::new();
    for (index, value) in values.into_iter().enumerate() {
        if let Some(first) = seen.insert(value.entry(list, index)?, index) {
            return Err(Misfit::new(format!(
                "the same {what} as {list}[{first}]; list each once"
            ))
            .at_index(index)
            .in_field(list));
        }
    }
    Ok(seen.into_keys().collect())
}

/// 32 bytes from strict base64 (a fixture is written by people: no lenient decoding here).
fn bytes32(text: &str) -> Result<[u8; 32], Misfit> {
    crate::launcher::encoding::base64_decode(text)
        .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
        .ok_or_else(|| Misfit::new(format!("`{text}` is not base64 of 32 bytes")))
}

/// A version a state file may hold: at most [`LAST_VERSION`], the last a save reaches. No save
/// can follow 2^64 - 1 (a save stores version + 1: the launcher's overflowed, and data there
/// would answer every save with -25, "someone saved this data", while `status` says it is in
/// sync), so a fixture holding it is refused here, by its path, before anything is served; and
/// the emulator's saves stop at [`LAST_VERSION`] (`state` refuses a save past it in words that
/// name the limit), so every file it writes loads again.
fn version(version: u64) -> Result<u64, Misfit> {
    if version > LAST_VERSION {
        return Err(Misfit::new(format!(
            "{version} is past the last version a save reaches, {LAST_VERSION} (a save stores \
             version + 1)"
        )));
    }
    Ok(version)
}

fn ad_key_from(json: &AdKeyJson) -> Result<AdKey, Misfit> {
    Ok(AdKey {
        name: bytes32(&json.name).within("name")?,
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

pub(crate) fn data_id_from(json: &ItemJson) -> Result<DataId, Misfit> {
    match (
        &json.structured_data,
        &json.immutable_data,
        &json.appendable_data,
    ) {
        (Some(sd), None, None) => Ok(DataId::Structured(SdKey {
            name: bytes32(&sd.name).within("name").within("structuredData")?,
            type_tag: sd.type_tag,
        })),
        (None, Some(id), None) => Ok(DataId::Immutable(
            bytes32(&id.name).within("name").within("immutableData")?,
        )),
        (None, None, Some(ad)) => Ok(DataId::Appendable(
            ad_key_from(ad).within("appendableData")?,
        )),
        _ => Err(Misfit::new(
            "an item names exactly one of `structuredData`, `immutableData` and `appendableData`",
        )),
    }
}

pub(crate) fn data_id_json(id: &DataId) -> ItemJson {
    let mut json = ItemJson {
        structured_data: None,
        immutable_data: None,
        appendable_data: None,
        sign_key: None,
        signed_by: None,
        seal: 0,
    };
    match id {
        DataId::Structured(key) => json.structured_data = Some(sd_key_json(key)),
        DataId::Immutable(name) => {
            json.immutable_data = Some(NameJson {
                name: base64_encode(name),
            })
        }
        DataId::Appendable(key) => json.appendable_data = Some(ad_key_json(key)),
    }
    json
}

fn item_from(json: &ItemJson, users: &[User]) -> Result<Item, Misfit> {
    Ok(Item {
        pointer: data_id_from(json)?,
        signer: key_from(
            &json.sign_key,
            &json.signed_by,
            users,
            ("signKey", "signedBy"),
        )?,
        seal: json.seal,
    })
}

fn item_json(item: &Item, users: &[User]) -> ItemJson {
    let mut json = data_id_json(&item.pointer);
    (json.sign_key, json.signed_by) = key_json(&item.signer, users);
    json.seal = item.seal;
    json
}

/// An appendable data of a state file, whose keys may name `users`.
pub(crate) fn ad_from(json: &AdJson, users: &[User]) -> Result<Ad, Misfit> {
    let name = bytes32(&json.name).within("name")?;
    let version = version(json.version).within("version")?;
    let kind = match json.filter_type.as_str() {
        "BlackList" => FilterType::BlackList,
        "WhiteList" => FilterType::WhiteList,
        other => {
            return Err(
                Misfit::new(format!("`{other}` is neither `BlackList` nor `WhiteList`"))
                    .in_field("filterType"),
            )
        }
    };
    // A public data's item has one sealing only (see `state::Item::seal`).
    let item = |item: &ItemJson| {
        if !json.is_private && item.seal != 0 {
            return Err(Misfit::new(
                "a seal is for the items of private data (`isPrivate`: true) only",
            )
            .in_field("seal"));
        }
        item_from(item, users)
    };
    let ad = Ad {
        key: AdKey {
            name,
            private: json.is_private,
        },
        version,
        data: unique(json.data.iter().map(item), "data", "item")?,
        deleted: unique(json.deleted_data.iter().map(item), "deletedData", "item")?,
        filter: Filter {
            kind,
            keys: unique(
                json.filter_keys.iter().map(|key| bytes32(key)),
                "filterKeys",
                "key",
            )?,
        },
        owner: key_from(&json.owner_key, &json.owner, users, ("ownerKey", "owner"))?,
    };
    // The network stored none larger, and refused every save and append past it (-29): a
    // fixture holds only what a network could.
    if ad.check_size().is_err() {
        return Err(Misfit::new(format!(
            "it takes {} bytes as the network stores it ({} data items, {} deleted items, {} \
             filter keys), past the {MAX_DATA_SIZE} bytes routing 0.28.5 stored of an \
             appendable data (the network refused more with -29, DataTooLarge)",
            ad.network_size(),
            ad.data.len(),
            ad.deleted.len(),
            ad.filter.keys.len(),
        )));
    }
    Ok(ad)
}

/// An appendable data as a state file holds it, its keys named by `users` where they can be.
pub(crate) fn ad_json(ad: &Ad, users: &[User]) -> AdJson {
    let (owner_key, owner) = key_json(&ad.owner, users);
    AdJson {
        name: base64_encode(&ad.key.name),
        is_private: ad.key.private,
        version: ad.version,
        filter_type: ad.filter.kind.as_str().to_owned(),
        filter_keys: ad.filter.keys.iter().map(|k| base64_encode(k)).collect(),
        owner,
        owner_key,
        data: ad.data.iter().map(|item| item_json(item, users)).collect(),
        deleted_data: ad
            .deleted
            .iter()
            .map(|item| item_json(item, users))
            .collect(),
    }
}

pub(crate) fn sd_from(json: &SdJson) -> Result<Sd, Misfit> {
    let status = match (json.deleted, json.unclaimable) {
        (false, false) => SdStatus::Owned,
        (true, false) => SdStatus::Deleted,
        (false, true) => SdStatus::Unclaimable,
        (true, true) => return Err(Misfit::new("`deleted` and `unclaimable` are both true")),
    };
    let sd = Sd {
        status,
        key: SdKey {
            name: bytes32(&json.name).within("name")?,
            type_tag: json.type_tag,
        },
        version: version(json.version).within("version")?,
        versions: json
            .data
            .iter()
            .enumerate()
            .map(|(index, data)| {
                crate::launcher::encoding::base64_decode(data)
                    .ok_or_else(|| Misfit::new(format!("`{data}` is not base64")))
                    .entry("data", index)
            })
            .collect::<Result<_, _>>()?,
        encrypted: json.encrypted.clone(),
    };
    if sd.check_size().is_err() {
        return Err(Misfit::new(format!(
            "it takes {} bytes as the network stores it ({} bytes of data in {} version{}), \
             past the {MAX_DATA_SIZE} bytes routing 0.28.5 stored of a structured data (the \
             network refused more with -29, DataTooLarge)",
            sd.network_size(),
            sd.versions.iter().map(Vec::len).sum::<usize>(),
            sd.versions.len(),
            if sd.versions.len() == 1 { "" } else { "s" },
        )));
    }
    Ok(sd)
}

pub(crate) fn sd_json(sd: &Sd) -> SdJson {
    SdJson {
        name: base64_encode(&sd.key.name),
        type_tag: sd.key.type_tag,
        version: sd.version,
        data: sd.versions.iter().map(|d| base64_encode(d)).collect(),
        encrypted: if sd.encrypted.contains(&true) {
            sd.encrypted.clone()
        } else {
            Vec::new()
        },
        deleted: sd.status == SdStatus::Deleted,
        unclaimable: sd.status == SdStatus::Unclaimable,
    }
}

pub(crate) fn immutable_from(json: &ImmutableJson) -> Result<Immutable, Misfit> {
    let cipher = Cipher::from_name(&json.cipher)
        .ok_or_else(|| {
            Misfit::new(format!(
                "`{}` is none of `PLAIN`, `SYMMETRIC` and `ASYMMETRIC`",
                json.cipher
            ))
        })
        .within("cipher")?;
    let content = crate::launcher::encoding::base64_decode(&json.content)
        .ok_or_else(|| Misfit::new("it is not base64"))
        .within("content")?;
    let data = Immutable::new(cipher, content.into());
    if let Some(name) = &json.name {
        if bytes32(name).within("name")? != data.name {
            return Err(Misfit::new(format!(
                "`{name}` is not this content's and cipher's (`{}`): leave it out to have it computed",
                base64_encode(&data.name)
            ))
            .in_field("name"));
        }
    }
    Ok(data)
}

/// The `cipher` a state file's immutable data of `content` needs for the emulator to name it
/// `name` (its hash of cipher and content, [`Immutable::new`]), so that items pointing at `name`
/// point at it; `None` when no cipher does (data another launcher wrote, named by its own hash).
pub fn fixture_cipher(name: &[u8; 32], content: &[u8]) -> Option<&'static str> {
    let content: std::sync::Arc<[u8]> = content.into();
    [Cipher::Plain, Cipher::Symmetric, Cipher::Asymmetric]
        .into_iter()
        .find(|cipher| Immutable::new(*cipher, content.clone()).name == *name)
        .map(Cipher::as_str)
}

pub(crate) fn immutable_json(data: &Immutable) -> ImmutableJson {
    ImmutableJson {
        name: Some(base64_encode(&data.name)),
        cipher: data.cipher.as_str().to_owned(),
        content: base64_encode(&data.content),
    }
}

#[cfg(test)]
mod tests;
