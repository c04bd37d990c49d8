//! A result (one per argument: what the command did and what the network holds afterwards),
//! the objects in it (a failure's `error`, the requests behind it under `--verbose`, the
//! handles a run left behind), and the objects a run prints when no result is open.

use serde::Serialize;

use super::{Row, Table};

json_object! {
    /// The launcher's facts about the data, under the launcher's keys: a metadata read (all six),
    /// or a fetch (no `filterLength`); a post's read back says no lengths (`report::results`).
    #[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct Facts {
        is_owner: bool,
        version: u64,
        filter_type: &'static str,
        filter_length?: u64,
        data_length?: u64,
        deleted_data_length?: u64,
    }
}

json_object! {
    /// One argument's result.
    #[derive(Debug, Default, Serialize)]
    pub struct ResultJson {
        command: String,
        input: Option<String>,
        line?: u64,
        handle: Option<u64>,
        name: Option<String>,
        ok: bool,
        #[serde(rename = "isOwner")] is_owner?: bool,
        version?: u64,
        #[serde(rename = "filterType")] filter_type?: &'static str,
        #[serde(rename = "filterLength")] filter_length?: u64,
        #[serde(rename = "dataLength")] data_length?: u64,
        #[serde(rename = "deletedDataLength")] deleted_data_length?: u64,
        item_name?: String,
        /// Null (with `saved_version_error`) when the read after the save failed.
        saved_version?: Option<u64>,
        saved_version_error?: String,
        reopened_from?: u64,
        given_back?: bool,
        private?: Option<bool>,
        owners?: Option<Vec<String>>,
        re_signed?: Vec<ReSigned>,
        keys?: Vec<KeyChange>,
        filter?: FilterJson,
        toggled?: bool,
        dropped_keys?: u64,
        /// What a run left behind, when it ended while this result was still open.
        left_behind?: Vec<LeftJson>,
        #[serde(skip_serializing_if = "Vec::is_empty")] items: Vec<ItemChange>,
        error?: ErrorJson,
        exit_code?: u8,
        requests?: Vec<RequestJson>,
        /// What a run left behind, added to a failed result already closed (and held to be printed
        /// once the run says what it left): after all the rest, as it comes after it.
        #[serde(rename = "left_behind")] left_behind_after?: Vec<LeftJson>,
    }
}

impl ResultJson {
    /// The launcher's facts, replacing any said before.
    pub fn set_facts(&mut self, facts: Facts) {
        self.is_owner = Some(facts.is_owner);
        self.version = Some(facts.version);
        self.filter_type = Some(facts.filter_type);
        self.filter_length = facts.filter_length;
        self.data_length = facts.data_length;
        self.deleted_data_length = facts.deleted_data_length;
    }
}

json_object! {
    /// `remove`, `restore`, `purge`: one index changed.
    #[derive(Debug, Clone, Serialize)]
    pub struct ItemChange {
        index: u64,
        ok: bool,
        /// For a name: whether the save carried the change to the network.
        saved?: bool,
    }
}

/// `restore --re-sign`: an item another key signed, data again signed by you.
#[derive(Debug, Clone, Serialize)]
pub struct ReSigned {
    pub index: u64,
    pub signer: Option<String>,
}

json_object! {
    /// `filter add`, `filter remove`: one key given.
    #[derive(Debug, Clone, Serialize)]
    pub struct KeyChange {
        key: Option<String>,
        fingerprint: Option<String>,
        changed: bool,
        signer_of?: u64,
        saved?: bool,
    }
}

json_object! {
    /// The filter afterwards (also `show`'s, without `sign_keys` and `yours`).
    #[derive(Debug, Clone, Serialize)]
    pub struct FilterJson {
        #[serde(rename = "type")] kind: &'static str,
        /// Fingerprints; null for a key that could not be read.
        keys: Vec<Option<String>>,
        /// `filter show`: each key's 32 bytes, base64.
        sign_keys?: Vec<Option<String>>,
        /// `filter show`: whether your key is among them.
        yours?: Option<bool>,
    }
}

/// A launcher handle a run may have left behind: one it knows (and the request that frees it),
/// or one a request in flight may have made.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum LeftJson {
    Known {
        kind: &'static str,
        handle: u64,
        free: String,
        command: Option<String>,
    },
    Unknown {
        kind: Option<&'static str>,
        /// Always null: its number was never read.
        handle: Option<u64>,
        made_by: String,
        why: &'static str,
        free: Option<String>,
        command: Option<String>,
    },
}

/// A failure: the first of a result, a request's, or the one that ends a run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ErrorJson {
    pub class: &'static str,
    pub status: Option<u16>,
    pub error_code: Option<i64>,
    pub description: String,
    pub hint: Option<String>,
}

/// The failure that ends a run when no result is open: `{"ok": false, "error": ..., "exit_code": N}`.
#[derive(Debug, Default, Serialize)]
pub struct Ended {
    pub ok: bool,
    pub error: ErrorJson,
    pub exit_code: u8,
}

/// What a run left behind, when no result is waiting for it: an object of its own.
#[derive(Debug, Serialize)]
pub struct Abandoned {
    pub ok: bool,
    pub left_behind: Vec<LeftJson>,
}

key_table! {
    RESULT_TABLE = "result" of [ResultJson]
    Row(&["command"], "string", "the command (`metadata`, `clear-data`, `open`, ...)"),
    Row(&["input", "line"], "string or null, number", "the handle or name as given (null for `create`); `line`: its line of standard input, for one read from there"),
    Row(&["handle"], "number or null", "the handle given; the new one that `create`, `open` and `reopen` made; null for a name (its copy is given back by the end of the run) and for input that is not a handle"),
    Row(&["name"], "string or null", "the data's name, base64: the one given, the one `create` made or `open` took, the one `reopen` read (null when its bytes are not in launcher 0.11.0's layout); null for a handle given"),
    Row(&["ok"], "bool", "whether the command did all it was asked for this argument"),
    Row(&["isOwner", "version", "filterType", "filterLength", "dataLength", "deletedDataLength"], "bool, number, string, number", "the launcher's metadata of the data afterwards: `metadata`'s read; after a save, the read of what it saved (a post's result has no `dataLength` and `deletedDataLength`: the read after a post is of the launcher's copy, which the post leaves without its data items, so `safe-ad metadata NAME` reads the network's); `open` and `reopen`: the fetch's (a fetch gives no `filterLength`); the `filter` commands, when nothing was saved: the read before, with the change to the copy in it"),
    Row(&["saved_version", "saved_version_error"], "number or null, string", "a save that succeeded: the version it saved, as the read after it said; null, with the read's error, when that read failed (the save still happened)"),
    Row(&["items"], "list", "`remove`, `restore`, `purge`: one object per index changed, with `index`, `ok` and, for a name, `saved` (whether the save carried the change to the network)"),
    Row(&["item_name"], "string", "`append`: the name of the data the appended item points at"),
    Row(&["reopened_from"], "number", "`reopen`: the handle given, whose data the new handle is"),
    Row(&["re_signed"], "list", "`restore --re-sign`: each item another key signed that is data again signed by you: `index` (its index in the deleted list, as in `items`) and `signer` (the fingerprint of the key that signed it before)"),
    Row(&["private", "owners"], "bool, list (or null)", "`reopen`: whether the data is private, and its owners' fingerprints (as `show` writes signers); null as `name` is"),
    Row(&["filter"], "object", "the `filter` commands: the filter afterwards (the network's for a name, the copy's for a handle): its `type` (`BlackList` or `WhiteList`) and `keys` (their fingerprints, as `show` gives them; null for one that could not be read); `filter show` adds `sign_keys` (each key's 32 bytes in base64, as `filter add` takes a KEY; null for bytes not in launcher 0.11.0's layout) and `yours` (whether your own key is among them; null when it could not be read)"),
    Row(&["keys"], "list", "`filter add`, `filter remove`: one object per key given, in order: `key` (its 32 bytes, base64; null for a fingerprint no key of the filter has), `fingerprint`, `changed` (whether it went in, or out: false for a key in the filter already, or not in it), `signer_of` (the data item's index, for `--signer-of`) and, for a name, `saved` (for a key that changed: whether the save carried it to the network)"),
    Row(&["toggled", "dropped_keys"], "bool, number", "`filter type`: whether the type was switched (false: it was the type asked for already), and how many keys the switch took out (the launcher leaves the other type empty)"),
    Row(&["given_back"], "bool", "only for `create`, `open` or `reopen` when a stop signal kept a request of the command from being sent: the handle is not yours; true when it was given back, false when the launcher would not take it back (`left_behind` then names it)"),
    Row(&["error"], "object", "on a failure: the first one, with the keys below"),
    Row(&["error.class"], "string", "`usage`, `auth`, `rejected`, `launcher`, `unreachable`, `unexpected` or `interrupted` (the names in [Exit codes](exit-codes.md))"),
    Row(&["error.status", "error.error_code"], "number or null", "the HTTP status and the launcher's `errorCode`"),
    Row(&["error.description", "error.hint"], "string or null", "the launcher's description (or what happened), and what to do"),
    Row(&["exit_code"], "number", "the exit code this failure gives"),
    Row(&["left_behind"], "list", "on the failed result of a run that may have left launcher handles behind (below), or an object of its own: each with `kind`, `handle`, and `free` or `made_by`"),
    Row(&["requests"], "list", "only with `--verbose`: the requests behind the result, each with the keys of the table below"),
}

json_object! {
    /// One request behind a result (`--verbose`).
    #[derive(Debug, Default, Serialize)]
    pub struct RequestJson {
        handle: Option<u64>,
        operation: &'static str,
        method: String,
        url: String,
        status: Option<u16>,
        ok: bool,
        elapsed_ms: f64,
        line?: u64,
        /// The name the request itself asks about (a name's copy's, in a run given a name).
        name?: String,
        data_id_handle?: u64,
        index?: u64,
        saved_version?: Option<u64>,
        saved_version_error?: String,
        metadata?: Facts,
        error?: ErrorJson,
        exit_code?: u8,
        /// The name of the data a request of a name's copy is about, or that a `serialise` step
        /// read (null when its bytes could not be read): said after what the answer said.
        #[serde(rename = "name")] name_after?: Option<String>,
        private?: Option<bool>,
        owners?: Option<Vec<String>>,
    }
}

key_table! {
    REQUEST_TABLE = "request" of [RequestJson]
    Row(&["handle"], "number or null", "the appendable-data handle the request is about: the one given, a name's fresh copy, or the one `create` and `fetch` made (null when there is none)"),
    Row(&["operation", "method", "url"], "string", "the request: `operation` is a command's name, or `data-id`, `fetch`, `drop-data-id`, `serialise`"),
    Row(&["name"], "string", "the name a request asks about or a name's copy is of; the `serialise` step of `reopen`: the name of the data it made"),
    Row(&["private", "owners"], "bool, list", "the `serialise` step of `reopen`, as in the result"),
    Row(&["data_id_handle"], "number", "the data-id handle a request asked for or used"),
    Row(&["line"], "number", "the line of standard input the argument came from"),
    Row(&["status"], "number or null", "HTTP status, null when no answer came"),
    Row(&["ok"], "bool", "whether the request succeeded"),
    Row(&["elapsed_ms"], "number", "time of the request, 0.1 ms precision"),
    Row(&["index"], "number", "`remove`, `restore`, `purge`: the index the request changed"),
    Row(&["saved_version", "saved_version_error"], "number or null, string", "a save: as in the result"),
    Row(&["metadata"], "object", "a metadata read: the launcher's fields (`isOwner`, `version`, `filterType`, `filterLength`, `dataLength`, `deletedDataLength`); `fetch`: the same without `filterLength`"),
    Row(&["error", "exit_code"], "object, number", "a request that failed, as in the result"),
}
