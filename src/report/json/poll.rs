//! `wait`'s object (the end of a wait: what made its condition hold, or the deadline that
//! passed) and `watch`'s (one per change a poll saw).

use serde::Serialize;

use super::{ErrorJson, ItemJson, ReSigned, Row, Table};

/// The end of one `wait`.
#[derive(Debug, Default, Serialize)]
pub struct WaitJson {
    pub command: &'static str,
    pub input: String,
    pub handle: Option<u64>,
    pub ok: bool,
    #[serde(rename = "for")]
    pub condition: String,
    pub polls: u64,
    pub seconds: f64,
    pub version: Option<u64>,
    #[serde(rename = "dataLength")]
    pub data_length: Option<usize>,
    pub first_poll: FirstPoll,
    pub copy_version: Option<u64>,
    pub stale: Option<bool>,
    pub items: Vec<ItemJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<u8>,
}

/// What a wait's first poll saw, which `new-items` counts from.
#[derive(Debug, Default, Serialize)]
pub struct FirstPoll {
    pub version: Option<u64>,
    #[serde(rename = "dataLength")]
    pub data_length: u64,
}

pub(super) const WAIT_TABLE: Table = Table {
    name: "wait",
    rows: &[
    Row(&["command", "input", "handle"], "string, string, number or null", "`wait`, the handle or name as given; the handle (null for a name)"),
    Row(&["ok"], "bool", "whether the condition held before the deadline"),
    Row(&["error", "exit_code"], "object, number", "when the deadline passed: `error.class` is `deadline`, and `exit_code` 8"),
    Row(&["for"], "string", "the condition, as `--for` spells it (`new-items`, `item`, `version-above=3`, `stale`, `in-sync`)"),
    Row(&["polls", "seconds"], "number", "how many polls were made, and how long the wait took"),
    Row(&["version", "dataLength"], "number or null", "the network's version and number of data items at the last poll (null: no data of this name on the network, or no poll answered before the deadline)"),
    Row(&["first_poll"], "object", "what the first poll saw, which `new-items` counts from: `version`, `dataLength`"),
    Row(&["copy_version", "stale"], "number or bool (or null)", "for `stale` and `in-sync`: the handle's copy's version, and whether the network moved past it; null otherwise"),
    Row(&["items"], "list", "the items that made it hold (`new-items`: those not there at the first poll; `item`: those the selectors match), as `show --json` gives items, with the network's index"),

    ],
    #[cfg(test)]
    fields: || super::fields(&WaitJson::default()),
};

/// One event of `watch` (its failure is a result's [`super::Ended`]).
#[derive(Debug, Default, Serialize)]
pub struct WatchJson {
    pub event: &'static str,
    pub input: String,
    pub handle: Option<u64>,
    pub poll: u64,
    /// `start`: the network's version (null: no data of this name on the network).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<Option<u64>>,
    #[serde(rename = "dataLength", skip_serializing_if = "Option::is_none")]
    pub data_length: Option<Option<usize>>,
    #[serde(rename = "deletedDataLength", skip_serializing_if = "Option::is_none")]
    pub deleted_data_length: Option<Option<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy_version: Option<Option<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stale: Option<Option<bool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network_version: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<Option<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Option<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<ItemJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub re_signed: Option<ReSigned>,
}

pub(super) const WATCH_TABLE: Table = Table {
    name: "watch",
    rows: &[
    Row(&["event"], "string", "`start`, `appended`, `removed` (data to deleted), `restored` (deleted to data), `purged` (gone from both lists), `version` or `stale`"),
    Row(&["input", "handle"], "string, number or null", "the handle or name as given; the handle (null for a name)"),
    Row(&["poll"], "number", "the poll that saw it, from 1"),
    Row(&["ok"], "bool", "false on the failure that ends the watch"),
    Row(&["error", "exit_code"], "object, number", "on that failure, as in a result"),
    Row(&["version", "dataLength", "deletedDataLength"], "number or null", "`start`: the network's version and list lengths (null: no data of this name on the network)"),
    Row(&["copy_version", "stale"], "number or bool (or null)", "`start` for a handle: its copy's version and whether the network moved past it; `stale`: the copy's version"),
    Row(&["network_version"], "number", "`stale`: the network's version the copy fell behind"),
    Row(&["from", "to"], "number or null", "`version`: the network's version before and now"),
    Row(&["item"], "object", "`appended`, `removed`, `restored`, `purged`: the item as `show --json` gives items (its index in the list it is in now; for `purged`, where it was)"),
    Row(&["re_signed"], "object", "only on `restored` when the item came back signed by another key: the item as the poll before held it, `index` (in the deleted list) and `signer` (the fingerprint of the key that signed it then; `item.signer` is the key now)"),

    ],
    #[cfg(test)]
    fields: || {
        let mut fields = super::fields(&WatchJson::default());
        fields.extend(super::fields(&super::Ended::default()));
        fields
    },
};
