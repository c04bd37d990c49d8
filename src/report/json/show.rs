//! `show`'s object (what a handle's data holds, or with `--serialised` its bytes) and the item
//! object that `show`, `status`, `wait` and `watch` all give items as.

use serde::Serialize;

use super::{ErrorJson, FilterJson, Row, Table};

json_object! {
    /// One handle (or name) of `show`.
    #[derive(Debug, Default, Serialize)]
    pub struct ShowJson {
        command: &'static str,
        input: String,
        /// Null for a name (its copy is given back by the end of the run).
        handle: Option<u64>,
        ok: bool,
        /// `--serialised`: the handle's serialised bytes, base64 (and nothing more of the data).
        serialised?: String,
        name?: Option<String>,
        private?: Option<bool>,
        owners?: Option<Vec<String>>,
        #[serde(rename = "isOwner")] is_owner?: bool,
        version?: u64,
        #[serde(rename = "filterType")] filter_type?: &'static str,
        #[serde(rename = "filterLength")] filter_length?: u64,
        #[serde(rename = "dataLength")] data_length?: u64,
        #[serde(rename = "deletedDataLength")] deleted_data_length?: u64,
        filter?: FilterJson,
        data?: Vec<ItemJson>,
        deleted_data?: Vec<ItemJson>,
        error?: ErrorJson,
        exit_code?: u8,
    }
}

key_table! {
    SHOW_TABLE = "show" of [ShowJson]
    Row(&["command", "input", "handle", "ok"], "string, string, number or null, bool", "as in a result: `show`, the handle or name as given, the handle (null for a name), and whether all of it was read"),
    Row(&["error", "exit_code"], "object, number", "those of its first failure, as in a result"),
    Row(&["name"], "string or null", "which data the handle is: its name (base64, as `create` prints it and `open` takes it), from the handle's serialised bytes; null when they could not be read or are not in launcher 0.11.0's layout"),
    Row(&["private", "owners"], "bool, list (or null)", "whether the data is private, and its owners' fingerprints (as `signer`); null as `name` is"),
    Row(&["serialised"], "string", "only with `--serialised` (and then with `command`, `input`, `handle` and `ok` alone): the handle's serialised bytes, base64, for `safe-ad decode`"),
    Row(&["isOwner", "version", "filterType", "filterLength"], "bool, number, string, number", "the launcher's metadata of the data, as `metadata` gives it"),
    Row(&["filter"], "object", "its `type` (`filterType` again, beside its keys, as `decode` gives a filter) and `keys` (a list of fingerprints; null for a key that could not be read)"),
    Row(&["dataLength", "deletedDataLength"], "number", "the length of each list, whatever `--index` shows"),
    Row(&["data", "deleted_data"], "list", "one object per item shown, with the keys below"),
}

json_object! {
    /// One item, as `show` reads it.
    #[derive(Debug, Clone, Default, Serialize)]
    pub struct ItemJson {
        index: u64,
        kind: &'static str,
        data_id: Option<String>,
        signer: Option<String>,
        signer_is_you: Option<bool>,
        name: Option<String>,
        type_tag: Option<u64>,
        on_network: Option<bool>,
        version: Option<u64>,
        preview: Option<String>,
        text: Option<String>,
        decode_error?: String,
        versions?: u64,
        #[serde(rename = "dataLength")] data_length?: u64,
        #[serde(rename = "deletedDataLength")] deleted_data_length?: u64,
        #[serde(rename = "filterType")] filter_type?: &'static str,
        size?: u64,
        content?: String,
        content_base64?: String,
        error?: ErrorJson,
    }
}

key_table! {
    ITEM_TABLE = "item" of [ItemJson]
    Row(&["index"], "number", "the item's index in its list"),
    Row(&["kind"], "string", "from the data id's bytes: `structured-data`, `immutable-data`, `appendable-data`, `private-appendable-data`; from the launcher when the bytes are in another layout (`structured-data`, `appendable-data`, or `unknown` when it could not say)"),
    Row(&["name"], "string or null", "the name of the data pointed at (base64), from the bytes"),
    Row(&["data_id"], "string or null", "the launcher's serialised data id, base64"),
    Row(&["decode_error"], "string", "only when the data id's bytes are not in launcher 0.11.0's layout: what did not fit, where"),
    Row(&["signer", "signer_is_you"], "string, bool (or null)", "the signer's fingerprint, and whether it is your key"),
    Row(&["type_tag"], "number or null", "structured data's type tag, from the bytes (without them: 501 for versioned structured data, else null)"),
    Row(&["on_network"], "bool or null", "false for data that is not on the network; null when it could not be told"),
    Row(&["version"], "number or null", "the version of the structured or appendable data the item points at"),
    Row(&["versions"], "number", "for versioned structured data (type tag 501): how many versions it keeps"),
    Row(&["size"], "number", "for immutable data: its size in bytes, as its reader gave it (content read in another length is not kept: the item has an `error`, and no `preview`, `text` or `content`)"),
    Row(&["preview"], "string or null", "the content (structured or immutable data) in one safe line, for display"),
    Row(&["text"], "string or null", "the whole content when it is UTF-8 (without `--full`, only up to 64 KiB); else null"),
    Row(&["content", "content_base64"], "string", "with `--full`: the whole content, base64 (the same value twice; `content` is the older name)"),
    Row(&["dataLength", "deletedDataLength", "filterType"], "number, string", "for appendable data: its counts and filter, under the launcher's keys"),
    Row(&["error"], "object", "on an item that could not be read (wholly or in part): as `error` above"),
}
