//! `wait`'s object (the end of a wait: what made its condition hold, or the deadline that
//! passed) and `watch`'s (one per change a poll saw).

use serde::Serialize;

use super::{ErrorJson, ItemJson, ReSigned, Row, Table};

json_object! {
    /// The end of one `wait`.
    #[derive(Debug, Default, Serialize)]
    pub struct WaitJson {
        command: &'static str,
        input: String,
        handle: Option<u64>,
        ok: bool,
        #[serde(rename = "for")] condition: String,
        polls: u64,
        seconds: f64,
        version: Option<u64>,
        #[serde(rename = "dataLength")] data_length: Option<usize>,
        first_poll: FirstPoll,
        copy_version: Option<u64>,
        stale: Option<bool>,
        items: Vec<ItemJson>,
        error?: ErrorJson,
        exit_code?: u8,
    }
}

/// What a wait's first poll saw, which `new-items` counts from.
#[derive(Debug, Default, Serialize)]
pub struct FirstPoll {
    pub version: Option<u64>,
    #[serde(rename = "dataLength")]
    pub data_length: u64,
}

key_table! {
    WAIT_TABLE = "wait" of [WaitJson]
    Row(&["command", "input", "handle"], "string, string, number or null", "`wait`, the handle or name as given; the handle (null for a name)"),
    Row(&["ok"], "bool", "whether the condition held before the deadline"),
    Row(&["error", "exit_code"], "object, number", "when the deadline passed: `error.class` is `deadline`, and `exit_code` 8"),
    Row(&["for"], "string", "the condition, as `--for` spells it (`new-items`, `item`, `version-above=3`, `stale`, `in-sync`)"),
    Row(&["polls", "seconds"], "number", "how many polls were made, and how long the wait took"),
    Row(&["version", "dataLength"], "number or null", "the network's version and number of data items at the last poll (null: no data of this name on the network, or no poll answered before the deadline)"),
    Row(&["first_poll"], "object", "what the first poll saw, which `new-items` counts from: `version`, `dataLength`"),
    Row(&["copy_version", "stale"], "number or bool (or null)", "for `stale` and `in-sync`: the handle's copy's version, and whether the network moved past it; null otherwise"),
    Row(&["items"], "list", "the items that made it hold (`new-items`: those not there at the first poll; `item`: those the selectors match), as `show --json` gives items, with the network's index"),
}

json_object! {
    /// One event of `watch` (its failure is a result's [`super::Ended`]).
    #[derive(Debug, Default, Serialize)]
    pub struct WatchJson {
        event: &'static str,
        input: String,
        handle: Option<u64>,
        poll: u64,
        /// `start`: the network's version (null: no data of this name on the network).
        version?: Option<u64>,
        #[serde(rename = "dataLength")] data_length?: Option<usize>,
        #[serde(rename = "deletedDataLength")] deleted_data_length?: Option<usize>,
        copy_version?: Option<u64>,
        stale?: Option<bool>,
        network_version?: u64,
        from?: Option<u64>,
        to?: Option<u64>,
        item?: ItemJson,
        re_signed?: ReSigned,
    }
}

key_table! {
    WATCH_TABLE = "watch" of [WatchJson, super::Ended]
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
}
