//! `status`'s object: a handle's copy against the network, and what goes on from there.

use serde::Serialize;

use super::{ErrorJson, ItemJson, Row, Table};

json_object! {
    /// One handle of `status`.
    #[derive(Debug, Default, Serialize)]
    pub struct StatusJson {
        command: &'static str,
        input: String,
        handle: Option<u64>,
        ok: bool,
        in_sync?: bool,
        settled?: bool,
        stale?: bool,
        never_saved?: bool,
        /// The network's version (null: never saved).
        version?: Option<u64>,
        local_version?: u64,
        network_version?: Option<u64>,
        unsaved?: Unsaved,
        since_copy?: SinceCopy,
        new_on_network?: Vec<ItemJson>,
        way_on?: Vec<String>,
        name?: Option<String>,
        private?: Option<bool>,
        owners?: Option<Vec<String>>,
        error?: ErrorJson,
        exit_code?: u8,
    }
}

/// The copy's changes a save would send.
#[derive(Debug, Default, Serialize)]
pub struct Unsaved {
    pub removed: Vec<ItemJson>,
    pub restored: Vec<ItemJson>,
    pub purged: Vec<ItemJson>,
    pub only_in_copy: Vec<ItemJson>,
    pub filter_keys_added: Vec<String>,
    pub filter_keys_taken: Vec<String>,
    pub filter_toggled: Option<Toggled>,
    pub emptied_by_post: Option<Emptied>,
}

/// The filter's type in the copy and on the network, where they differ.
#[derive(Debug, Serialize)]
pub struct Toggled {
    pub copy: &'static str,
    pub network: &'static str,
}

/// A copy a post emptied: how many data items the network holds.
#[derive(Debug, Serialize)]
pub struct Emptied {
    pub network_data_length: u64,
}

/// What the network's later version changed since the copy was taken.
#[derive(Debug, Default, Serialize)]
pub struct SinceCopy {
    pub removed: Vec<ItemJson>,
    pub purged: Vec<ItemJson>,
}

key_table! {
    STATUS_TABLE = "status" of [StatusJson]
    Row(&["command", "input", "handle", "ok"], "string, string, number, bool", "as in a result: `status`, the handle as given, and whether it could be compared"),
    Row(&["error", "exit_code"], "object, number", "on a failure, as in a result"),
    Row(&["in_sync", "stale"], "bool", "the copy matches the network; the network is at a later version"),
    Row(&["settled"], "bool", "no change a save would send and the copy is not stale (what exit 0 means)"),
    Row(&["never_saved"], "bool", "no data of this name is on the network (`network_version` is null)"),
    Row(&["version"], "number or null", "the network's version (null: never saved), as every command that reads one gives it"),
    Row(&["local_version", "network_version"], "number (or null)", "the copy's version and the network's"),
    Row(&["unsaved"], "object", "the copy's changes a save would send (for a stale copy: how it differs from the network's later version, which a post cannot save): `removed`, `restored`, `purged`, `only_in_copy` (lists of items, each as `show --json` gives items, with its index in the list it is in), `filter_keys_added`, `filter_keys_taken` (fingerprints), `filter_toggled` (null, or `{\"copy\": type, \"network\": type}`), `emptied_by_post` (null, or `{\"network_data_length\": N}` when the copy, at a version a save made, holds none of the network's N data items, as a post leaves it; items it restored since are in `restored`). For a stale copy `restored` holds items only when a post emptied the copy (else they are in `since_copy.removed`)"),
    Row(&["since_copy"], "object", "for a stale copy, what the network's later version changed since the copy was taken (empty lists otherwise): `removed` (data in the copy, in the network's deleted list: removed there, or restored in the copy), `purged` (in the copy, in neither of the network's lists: deleted for good there); items as in `unsaved`"),
    Row(&["new_on_network"], "list", "items on the network the copy does not show, as `show --json` gives items (their index is the network's): appended since the copy was taken, or removed and purged in the copy, or (with `emptied_by_post`) left out of the copy by a post"),
    Row(&["way_on"], "list", "the commands that go on from here (`safe-ad post 7`, `safe-ad reopen 7`, `safe-ad put 7`)"),
    Row(&["name", "private", "owners"], "string, bool, list (or null)", "which data it is, as in `show --json`: from the network's serialised bytes, which the comparison reads anyway (for data never saved, from the copy's)"),
}
