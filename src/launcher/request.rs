//! What safe-ad asks the launcher: each request's method, route and body. The JSON answers it
//! reads back are `answers`'.

use std::fmt;

use reqwest::Method;

use crate::handle::Handle;
use crate::name::Name;
use crate::route::Route;
use crate::wire::SignKey;

/// The kinds of request, by the name messages and `--json` give them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Put,
    Post,
    ClearData,
    ClearDeletedData,
    /// Reads the launcher's metadata of a handle; changes nothing.
    Metadata,
    /// Frees the launcher's slot for a handle.
    Drop,
    /// A data-id handle: for a name, or for the data behind a handle.
    DataId,
    /// A new appendable data, in the launcher only until it is saved.
    Create,
    /// A handle for the data a data-id handle names, fetched from the network.
    Fetch,
    /// Frees the launcher's slot for a data-id handle.
    DropDataId,
    /// Moves one data item to the deleted list (local until saved).
    Remove,
    /// Moves one deleted item back to the data list (local until saved).
    Restore,
    /// Removes one deleted item for good (local until saved).
    Purge,
    /// Appends a data id to the data on the network (at once; the handle's copy stays as it was).
    Append,
    /// A data-id handle for the data item at an index.
    ItemDataId,
    /// A data-id handle for the deleted item at an index.
    DeletedItemDataId,
    /// A sign-key handle for whoever signed the data item at an index.
    ItemSigner,
    /// A sign-key handle for whoever signed the deleted item at an index.
    DeletedItemSigner,
    /// A sign-key handle for the filter key at an index.
    FilterKey,
    /// The launcher's serialised bytes of a data id.
    SerialiseDataId,
    /// The launcher's serialised bytes of a whole appendable data (its lists, keys and version).
    Serialise,
    /// A structured-data handle for the data a data-id handle names, fetched from the network.
    FetchStructured,
    /// The current content of a structured data.
    ReadStructured,
    /// Frees the launcher's slot for a structured-data handle.
    DropStructured,
    /// A sign-key handle for the user's own key.
    UserSignKey,
    /// The launcher's serialised bytes of a sign key.
    SerialiseSignKey,
    /// Frees the launcher's slot for a sign-key handle.
    DropSignKey,
    /// An immutable-data reader for the data a data-id handle names, and its size.
    ImmutableReader,
    /// The content an immutable-data reader reads.
    ReadImmutable,
    /// Frees the launcher's slot for an immutable-data reader.
    DropReader,
    /// A new immutable-data writer.
    ImmutableWriter,
    /// Bytes written to an immutable-data writer (the request's body).
    WriteImmutable,
    /// Closes a writer with cipher options: the data goes to the network; answers its data id.
    CloseWriter,
    /// Frees the launcher's slot for an immutable-data writer.
    DropWriter,
    /// Cipher options: plain, symmetric, or asymmetric to an encrypt key.
    CipherOpts,
    /// Frees the launcher's slot for cipher options.
    DropCipherOpts,
    /// The encrypt key of a private appendable data.
    EncryptKey,
    /// Frees the launcher's slot for an encrypt key.
    DropEncryptKey,
    /// Switches the filter of the copy to the other type, with no keys (local until saved).
    ToggleFilter,
    /// Adds a sign key to the copy's filter (local until saved); a key already there stays.
    AddToFilter,
    /// Takes a sign key out of the copy's filter (local until saved); a key not there is none.
    RemoveFromFilter,
    /// A sign-key handle for a key given by its bytes (`POST /sign-key/deserialise`).
    DeserialiseSignKey,
}

impl Operation {
    /// The name used in every message about the operation (the subcommand's, where it is one).
    pub fn name(self) -> &'static str {
        match self {
            Operation::Put => "put",
            Operation::Post => "post",
            Operation::ClearData => "clear-data",
            Operation::ClearDeletedData => "clear-deleted-data",
            Operation::Metadata => "metadata",
            Operation::Drop => "drop",
            Operation::DataId => "data-id",
            Operation::Create => "create",
            Operation::Fetch => "fetch",
            Operation::DropDataId => "drop-data-id",
            Operation::Remove => "remove",
            Operation::Restore => "restore",
            Operation::Purge => "purge",
            Operation::Append => "append",
            Operation::ItemDataId => "item-data-id",
            Operation::DeletedItemDataId => "deleted-item-data-id",
            Operation::ItemSigner => "item-signer",
            Operation::DeletedItemSigner => "deleted-item-signer",
            Operation::FilterKey => "filter-key",
            Operation::SerialiseDataId => "serialise-data-id",
            Operation::Serialise => "serialise",
            Operation::FetchStructured => "fetch-structured-data",
            Operation::ReadStructured => "read-structured-data",
            Operation::DropStructured => "drop-structured-data",
            Operation::UserSignKey => "sign-key",
            Operation::SerialiseSignKey => "serialise-sign-key",
            Operation::DropSignKey => "drop-sign-key",
            Operation::ImmutableReader => "immutable-data-reader",
            Operation::ReadImmutable => "read-immutable-data",
            Operation::DropReader => "drop-immutable-data-reader",
            Operation::ImmutableWriter => "immutable-data-writer",
            Operation::WriteImmutable => "write-immutable-data",
            Operation::CloseWriter => "close-immutable-data-writer",
            Operation::DropWriter => "drop-immutable-data-writer",
            Operation::CipherOpts => "cipher-opts",
            Operation::DropCipherOpts => "drop-cipher-opts",
            Operation::EncryptKey => "encrypt-key",
            Operation::DropEncryptKey => "drop-encrypt-key",
            Operation::ToggleFilter => "toggle-filter",
            Operation::AddToFilter => "add-to-filter",
            Operation::RemoveFromFilter => "remove-from-filter",
            Operation::DeserialiseSignKey => "deserialise-sign-key",
        }
    }

    /// The HTTP method of the operation's route.
    fn method(self) -> Method {
        match self {
            Operation::Put
            | Operation::Restore
            | Operation::Append
            | Operation::CloseWriter
            | Operation::ToggleFilter
            | Operation::AddToFilter => Method::PUT,
            Operation::Post
            | Operation::Create
            | Operation::WriteImmutable
            | Operation::DeserialiseSignKey => Method::POST,
            Operation::Metadata
            | Operation::DataId
            | Operation::Fetch
            | Operation::ItemDataId
            | Operation::DeletedItemDataId
            | Operation::ItemSigner
            | Operation::DeletedItemSigner
            | Operation::FilterKey
            | Operation::SerialiseDataId
            | Operation::Serialise
            | Operation::FetchStructured
            | Operation::ReadStructured
            | Operation::UserSignKey
            | Operation::SerialiseSignKey
            | Operation::ImmutableReader
            | Operation::ReadImmutable
            | Operation::ImmutableWriter
            | Operation::CipherOpts
            | Operation::EncryptKey => Method::GET,
            Operation::ClearData
            | Operation::ClearDeletedData
            | Operation::Drop
            | Operation::DropDataId
            | Operation::Remove
            | Operation::Purge
            | Operation::DropStructured
            | Operation::DropSignKey
            | Operation::DropReader
            | Operation::DropWriter
            | Operation::DropCipherOpts
            | Operation::DropEncryptKey
            | Operation::RemoveFromFilter => Method::DELETE,
        }
    }

    /// What the operation is, as the lease logic, the retries and `outcome` need it: one row,
    /// written once, by an exhaustive match, so a new operation cannot skip its lease.
    pub fn row(self) -> Row {
        use HandleKind::*;
        // (makes, frees, answers_bytes, resend_is_safe)
        let (makes, frees, answers_bytes, resend_is_safe) = match self {
            // Reads that make nothing: the same when done twice.
            Operation::Metadata => (None, None, false, true),
            Operation::SerialiseDataId
            | Operation::Serialise
            | Operation::ReadStructured
            | Operation::SerialiseSignKey
            | Operation::ReadImmutable => (None, None, true, true),
            // The clears end in the same state when done twice, and so does a key added to (or
            // taken out of) a filter: the filter is a set, and safe_core's insert and remove of
            // a key already there (or not there) change nothing.
            Operation::ClearData
            | Operation::ClearDeletedData
            | Operation::AddToFilter
            | Operation::RemoveFromFilter => (None, None, false, true),
            // A toggle done twice is the type it started as.
            Operation::ToggleFilter => (None, None, false, false),
            // A save, an append, an index change, a write: may have acted already.
            Operation::Put
            | Operation::Post
            | Operation::Append
            | Operation::Remove
            | Operation::Restore
            | Operation::Purge
            | Operation::WriteImmutable => (None, None, false, false),
            // A new handle that nobody would ever give back, were it made twice.
            Operation::Create | Operation::Fetch => (Some(AppendableData), None, false, false),
            Operation::DataId
            | Operation::ItemDataId
            | Operation::DeletedItemDataId
            | Operation::CloseWriter => (Some(DataId), None, false, false),
            Operation::ItemSigner
            | Operation::DeletedItemSigner
            | Operation::FilterKey
            | Operation::UserSignKey
            | Operation::DeserialiseSignKey => (Some(SignKey), None, false, false),
            Operation::FetchStructured => (Some(StructuredData), None, false, false),
            Operation::ImmutableReader => (Some(Reader), None, false, false),
            Operation::ImmutableWriter => (Some(Writer), None, false, false),
            Operation::CipherOpts => (Some(CipherOpts), None, false, false),
            Operation::EncryptKey => (Some(EncryptKey), None, false, false),
            // A drop that may have freed the slot already.
            Operation::Drop => (None, Some(AppendableData), false, false),
            Operation::DropDataId => (None, Some(DataId), false, false),
            Operation::DropStructured => (None, Some(StructuredData), false, false),
            Operation::DropSignKey => (None, Some(SignKey), false, false),
            Operation::DropReader => (None, Some(Reader), false, false),
            Operation::DropWriter => (None, Some(Writer), false, false),
            Operation::DropCipherOpts => (None, Some(CipherOpts), false, false),
            Operation::DropEncryptKey => (None, Some(EncryptKey), false, false),
        };
        Row {
            makes,
            frees,
            answers_bytes,
            resend_is_safe,
        }
    }

    /// Whether the request may be sent again when its answer was lost (the connection closed
    /// or failed after it may have reached the launcher). Only what ends in the same state
    /// when done twice: reads that make nothing, the clears, and a key added to or taken out
    /// of a filter. Everything else may have acted already: a save, an append, an index
    /// change, a filter's toggle, a drop, or a new handle that nobody would ever give back. (A refused connection sent nothing, and is retried for
    /// every request: see `NoAnswer::may_retry`.)
    pub fn resend_is_safe(self) -> bool {
        self.row().resend_is_safe
    }

    /// Whether a success of the operation gives a new launcher handle (which someone must give
    /// back): a lost answer to it may leave one that nobody knows the number of.
    pub fn makes_handle(self) -> bool {
        self.row().makes.is_some()
    }

    /// Whether the answer is raw bytes (serialised data, content) rather than JSON or `OK`.
    pub fn answers_bytes(self) -> bool {
        self.row().answers_bytes
    }

    /// Clears change only the launcher's local copy, and hang on an unknown handle.
    pub fn is_clear(self) -> bool {
        matches!(self, Operation::ClearData | Operation::ClearDeletedData)
    }

    /// The saves: what sends a handle's copy to the network.
    pub fn is_save(self) -> bool {
        matches!(self, Operation::Put | Operation::Post)
    }

    /// `remove`, `restore` or `purge`: a change of the item at one index.
    pub fn is_item_change(self) -> bool {
        matches!(
            self,
            Operation::Remove | Operation::Restore | Operation::Purge
        )
    }
}

/// What an operation is, for the lease logic, the retries and `outcome`: see [`Operation::row`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The kind of handle a success makes (a lease, or the person's own handle).
    pub makes: Option<HandleKind>,
    /// The kind of handle it gives back.
    pub frees: Option<HandleKind>,
    /// The answer is raw bytes (serialised data, content) rather than JSON or `OK`.
    pub answers_bytes: bool,
    /// Sending it again after its answer was lost cannot change the outcome.
    pub resend_is_safe: bool,
}

enum_with_all! {
    /// The kinds of launcher handle: each is a table of its own in the launcher (100 kept of
    /// each, the oldest evicted), freed by its own request. Declared (and so in `ALL`) in the
    /// order documentation lists them.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum HandleKind {
        AppendableData,
        StructuredData,
        DataId,
        SignKey,
        CipherOpts,
        Writer,
        Reader,
        EncryptKey,
    }
}

impl HandleKind {
    /// The name messages and `--json` give it.
    pub fn name(self) -> &'static str {
        match self {
            HandleKind::AppendableData => "appendable-data",
            HandleKind::StructuredData => "structured-data",
            HandleKind::DataId => "data-id",
            HandleKind::SignKey => "sign-key",
            HandleKind::CipherOpts => "cipher-opts",
            HandleKind::Writer => "immutable-data-writer",
            HandleKind::Reader => "immutable-data-reader",
            HandleKind::EncryptKey => "encrypt-key",
        }
    }

    /// The request that frees a handle of this kind.
    pub fn free<H: fmt::Display + Copy>(self, handle: H) -> Request<H> {
        match self {
            HandleKind::AppendableData => Request::OnHandle(Operation::Drop, handle),
            HandleKind::StructuredData => Request::OnId(Operation::DropStructured, handle),
            HandleKind::DataId => Request::DropDataId(handle),
            HandleKind::SignKey => Request::OnId(Operation::DropSignKey, handle),
            HandleKind::CipherOpts => Request::OnId(Operation::DropCipherOpts, handle),
            HandleKind::Writer => Request::OnId(Operation::DropWriter, handle),
            HandleKind::Reader => Request::OnId(Operation::DropReader, handle),
            HandleKind::EncryptKey => Request::OnId(Operation::DropEncryptKey, handle),
        }
    }

    /// The safe-ad command that frees one, where there is one: `drop` frees appendable data;
    /// the other kinds are freed by their request alone.
    pub fn command(self) -> Option<&'static str> {
        match self {
            HandleKind::AppendableData => Some("safe-ad drop"),
            _ => None,
        }
    }
}

/// Every operation that takes only a handle, for tests and tools that go through them all.
pub const OPERATIONS: [Operation; 7] = [
    Operation::Put,
    Operation::Post,
    Operation::ClearData,
    Operation::ClearDeletedData,
    Operation::Metadata,
    Operation::Drop,
    Operation::DataId,
];

/// A handle in a request: known, or (in a `--dry-run` plan) one an earlier answer will give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Is(Handle),
    /// Named after the field of the answer it comes from.
    FromAnswer(&'static str),
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Slot::Is(handle) => write!(f, "{handle}"),
            Slot::FromAnswer(field) => write!(f, "{{{field}}}"),
        }
    }
}

/// One request to the launcher. `H` is a `Handle` for requests that are sent, a `Slot` for
/// requests described before the answers they depend on exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request<H = Handle> {
    /// An operation that takes an appendable-data handle: put, post, the clears, metadata,
    /// drop, and data-id (`GET /appendable-data/data-id/:h`).
    OnHandle(Operation, H),
    /// `POST /appendable-data`.
    Create {
        name: Name,
        private: bool,
        white_list: bool,
    },
    /// `POST /data-id/appendable-data`.
    DataIdOfName { name: Name, private: bool },
    /// `GET /appendable-data/handle/:dataIdHandle`.
    Fetch(H),
    /// `DELETE /data-id/:dataIdHandle`.
    DropDataId(H),
    /// An index of an appendable data's lists: the data id or signer of the item there, the
    /// filter key there, or a one-item change (`remove`, `restore`, `purge`).
    AtIndex(Operation, H, u64),
    /// `PUT /appendable-data/:handleId/:dataIdHandle`.
    Append { handle: H, data_id: H },
    /// `POST /data-id/structured-data`.
    StructuredDataIdOfName { name: Name, type_tag: u64 },
    /// A request about a handle that is not an appendable data's: a data id (serialise, fetch
    /// the structured data it names), a structured data (read, drop) or a sign key (serialise,
    /// drop).
    OnId(Operation, H),
    /// `GET /sign-key`: the user's own key.
    UserSignKey,
    /// `GET /immutable-data/writer`.
    NewWriter,
    /// `PUT /immutable-data/:writer/:cipherOpts`: closes the writer, answers a data id.
    CloseWriter { writer: H, cipher: H },
    /// `GET /cipher-opts/:encType/:keyHandle?`.
    CipherOpts { kind: Encryption, key: Option<H> },
    /// `PUT` (add, [`Operation::AddToFilter`]) or `DELETE` (take out,
    /// [`Operation::RemoveFromFilter`]) `/appendable-data/filter/:handleId`, with a JSON array
    /// of one sign-key handle: a request per key keeps a request `Copy`, and says of each key
    /// whether it landed.
    FilterEdit {
        operation: Operation,
        handle: H,
        key: H,
    },
    /// `POST /sign-key/deserialise`: a sign-key handle for this key, sent as the launcher's
    /// serialised bytes of it (raw, not JSON).
    SignKeyOf(SignKey),
}

/// The encryption of immutable data, as `GET /cipher-opts/:encType` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encryption {
    Plain,
    Symmetric,
    /// To the encrypt key of a private appendable data (its owner reads it).
    Asymmetric,
}

impl Encryption {
    pub fn route_name(self) -> &'static str {
        match self {
            Encryption::Plain => "PLAIN",
            Encryption::Symmetric => "SYMMETRIC",
            Encryption::Asymmetric => "ASYMMETRIC",
        }
    }
}

impl<H: fmt::Display + Copy> Request<H> {
    pub fn operation(&self) -> Operation {
        match self {
            Request::OnHandle(operation, _) => *operation,
            Request::Create { .. } => Operation::Create,
            Request::DataIdOfName { .. } => Operation::DataId,
            Request::Fetch(_) => Operation::Fetch,
            Request::DropDataId(_) => Operation::DropDataId,
            Request::AtIndex(operation, _, _) | Request::OnId(operation, _) => *operation,
            Request::Append { .. } => Operation::Append,
            Request::StructuredDataIdOfName { .. } => Operation::DataId,
            Request::UserSignKey => Operation::UserSignKey,
            Request::NewWriter => Operation::ImmutableWriter,
            Request::CloseWriter { .. } => Operation::CloseWriter,
            Request::CipherOpts { .. } => Operation::CipherOpts,
            Request::FilterEdit { operation, .. } => *operation,
            Request::SignKeyOf(_) => Operation::DeserialiseSignKey,
        }
    }

    pub fn method(&self) -> Method {
        match self {
            Request::Create { .. }
            | Request::DataIdOfName { .. }
            | Request::StructuredDataIdOfName { .. } => Method::POST,
            _ => self.operation().method(),
        }
    }

    /// The route this request goes to, one value of the route list ([`Route`]): what the specs
    /// list and docs show, checked against [`Request::route`] by a test for every route.
    pub fn route_kind(&self) -> Route {
        match self {
            Request::OnHandle(operation, _) => match operation {
                Operation::ClearData => Route::AdClearData,
                Operation::ClearDeletedData => Route::AdClearDeletedData,
                Operation::Metadata => Route::AdMetadata,
                Operation::Serialise => Route::AdSerialise,
                Operation::Drop => Route::AdDrop,
                Operation::DataId => Route::AdDataId,
                Operation::EncryptKey => Route::AdEncryptKey,
                Operation::ToggleFilter => Route::AdToggleFilter,
                Operation::Fetch => Route::AdFetch,
                Operation::DropDataId => Route::DataIdDrop,
                Operation::Put => Route::AdPut,
                _ => Route::AdPost,
            },
            Request::Create { .. } => Route::AdCreate,
            Request::DataIdOfName { .. } => Route::DataIdOfAppendable,
            Request::Fetch(_) => Route::AdFetch,
            Request::DropDataId(_) => Route::DataIdDrop,
            Request::AtIndex(operation, _, _) => match operation {
                Operation::DeletedItemDataId => Route::AdDeletedItem,
                Operation::Purge => Route::AdPurge,
                Operation::ItemSigner => Route::AdItemSigner,
                Operation::DeletedItemSigner => Route::AdDeletedItemSigner,
                Operation::FilterKey => Route::AdFilterKey,
                Operation::Restore => Route::AdRestore,
                Operation::Remove => Route::AdRemove,
                _ => Route::AdItem,
            },
            Request::Append { .. } => Route::AdAppend,
            Request::StructuredDataIdOfName { .. } => Route::DataIdOfStructured,
            Request::OnId(operation, _) => match operation {
                Operation::SerialiseDataId => Route::DataIdSerialise,
                Operation::FetchStructured => Route::StructuredFetch,
                Operation::DropStructured => Route::StructuredDrop,
                Operation::ReadStructured => Route::StructuredRead,
                Operation::SerialiseSignKey => Route::SignKeySerialise,
                Operation::ImmutableReader => Route::ImmutableReader,
                Operation::DropReader => Route::ImmutableReaderDrop,
                Operation::ReadImmutable => Route::ImmutableRead,
                Operation::WriteImmutable => Route::ImmutableWrite,
                Operation::DropWriter => Route::ImmutableWriterDrop,
                Operation::DropCipherOpts => Route::CipherOptsDrop,
                Operation::DropEncryptKey => Route::EncryptKeyDrop,
                _ => Route::SignKeyDrop,
            },
            Request::UserSignKey => Route::SignKeyOwn,
            Request::NewWriter => Route::ImmutableWriter,
            Request::CloseWriter { .. } => Route::ImmutableClose,
            Request::CipherOpts { key, .. } => match key {
                Some(_) => Route::CipherOptsFor,
                None => Route::CipherOpts,
            },
            Request::FilterEdit { operation, .. } => match operation {
                Operation::RemoveFromFilter => Route::AdFilterRemove,
                _ => Route::AdFilterAdd,
            },
            Request::SignKeyOf(_) => Route::SignKeyDeserialise,
        }
    }

    /// The path after the launcher URL's prefix.
    pub fn route(&self) -> String {
        match self {
            Request::OnHandle(operation, handle) => match operation {
                Operation::ClearData => format!("/appendable-data/clear-data/{handle}"),
                Operation::ClearDeletedData => {
                    format!("/appendable-data/clear-deleted-data/{handle}")
                }
                Operation::Metadata => format!("/appendable-data/metadata/{handle}"),
                Operation::Serialise => format!("/appendable-data/serialise/{handle}"),
                Operation::Drop => format!("/appendable-data/handle/{handle}"),
                Operation::DataId => format!("/appendable-data/data-id/{handle}"),
                Operation::EncryptKey => format!("/appendable-data/encrypt-key/{handle}"),
                Operation::ToggleFilter => format!("/appendable-data/toggle-filter/{handle}"),
                Operation::Fetch => format!("/appendable-data/handle/{handle}"),
                Operation::DropDataId => format!("/data-id/{handle}"),
                // Put, post; the other operations are never sent on a handle alone.
                _ => format!("/appendable-data/{handle}"),
            },
            Request::Create { .. } => "/appendable-data".to_string(),
            Request::DataIdOfName { .. } => "/data-id/appendable-data".to_string(),
            Request::Fetch(handle) => format!("/appendable-data/handle/{handle}"),
            Request::DropDataId(handle) => format!("/data-id/{handle}"),
            Request::AtIndex(operation, handle, index) => {
                let list = match operation {
                    Operation::DeletedItemDataId | Operation::Purge => "deleted-data/",
                    Operation::ItemSigner => "sign-key/",
                    Operation::DeletedItemSigner => "sign-key/deleted-data/",
                    Operation::FilterKey => "filter/",
                    Operation::Restore => "restore/",
                    _ => "",
                };
                format!("/appendable-data/{list}{handle}/{index}")
            }
            Request::Append { handle, data_id } => format!("/appendable-data/{handle}/{data_id}"),
            Request::StructuredDataIdOfName { .. } => "/data-id/structured-data".to_string(),
            Request::OnId(operation, id) => match operation {
                Operation::SerialiseDataId => format!("/data-id/{id}"),
                Operation::FetchStructured | Operation::DropStructured => {
                    format!("/structured-data/handle/{id}")
                }
                Operation::ReadStructured => format!("/structured-data/{id}"),
                Operation::SerialiseSignKey => format!("/sign-key/serialise/{id}"),
                Operation::ImmutableReader | Operation::DropReader => {
                    format!("/immutable-data/reader/{id}")
                }
                Operation::ReadImmutable | Operation::WriteImmutable => {
                    format!("/immutable-data/{id}")
                }
                Operation::DropWriter => format!("/immutable-data/writer/{id}"),
                Operation::DropCipherOpts => format!("/cipher-opts/{id}"),
                Operation::DropEncryptKey => format!("/appendable-data/encrypt-key/{id}"),
                _ => format!("/sign-key/{id}"),
            },
            Request::UserSignKey => "/sign-key".to_string(),
            Request::NewWriter => "/immutable-data/writer".to_string(),
            Request::CloseWriter { writer, cipher } => format!("/immutable-data/{writer}/{cipher}"),
            Request::CipherOpts { kind, key } => match key {
                Some(key) => format!("/cipher-opts/{}/{key}", kind.route_name()),
                None => format!("/cipher-opts/{}", kind.route_name()),
            },
            Request::FilterEdit { handle, .. } => format!("/appendable-data/filter/{handle}"),
            Request::SignKeyOf(_) => "/sign-key/deserialise".to_string(),
        }
    }

    /// The JSON body, for the requests that have one.
    pub fn json(&self) -> Option<String> {
        let body = match self {
            Request::Create {
                name,
                private,
                white_list,
            } => {
                let mut body = serde_json::json!({
                    "name": name.to_string(),
                    "isPrivate": private,
                });
                // Only the exact string selects a whitelist; without it the launcher makes a
                // blacklist, its default.
                if *white_list {
                    body["filterType"] = serde_json::json!("WHITE_LIST");
                }
                body
            }
            Request::DataIdOfName { name, private } => serde_json::json!({
                "name": name.to_string(),
                "isPrivate": private,
            }),
            Request::StructuredDataIdOfName { name, type_tag } => serde_json::json!({
                "name": name.to_string(),
                "typeTag": type_tag,
            }),
            // Written by hand: a key that an earlier answer gives is `{handleId}` in a plan,
            // which is no JSON number (a curl line puts the shell's variable in its place).
            Request::FilterEdit { key, .. } => return Some(format!("[{key}]")),
            _ => return None,
        };
        Some(body.to_string())
    }

    /// The raw body, for the request that sends bytes of its own (`application/octet-stream`):
    /// the serialised sign key a handle is asked for.
    pub fn raw_body(&self) -> Option<Vec<u8>> {
        match self {
            Request::SignKeyOf(key) => Some(key.serialised()),
            _ => None,
        }
    }

    /// The handles of other requests' answers it waits on, by the slots' names (a plan's).
    pub fn waits_on(&self) -> impl Iterator<Item = H> {
        let slots = match self {
            Request::Append { handle, data_id } => [Some(*handle), Some(*data_id)],
            Request::CloseWriter { writer, cipher } => [Some(*writer), Some(*cipher)],
            Request::CipherOpts { key, .. } => [*key, None],
            Request::FilterEdit { handle, key, .. } => [Some(*handle), Some(*key)],
            Request::OnHandle(_, handle) | Request::AtIndex(_, handle, _) => [Some(*handle), None],
            Request::Fetch(id) | Request::DropDataId(id) | Request::OnId(_, id) => {
                [Some(*id), None]
            }
            _ => [None, None],
        };
        slots.into_iter().flatten()
    }

    /// The appendable-data handle the request is about, if it names one.
    pub fn handle(&self) -> Option<H> {
        match self {
            Request::OnHandle(_, handle)
            | Request::AtIndex(_, handle, _)
            | Request::Append { handle, .. }
            | Request::FilterEdit { handle, .. } => Some(*handle),
            _ => None,
        }
    }

    /// The data-id handle the request is about, if it names one.
    pub fn data_id(&self) -> Option<H> {
        match self {
            Request::Fetch(handle) | Request::DropDataId(handle) => Some(*handle),
            Request::Append { data_id, .. } => Some(*data_id),
            Request::OnId(
                Operation::SerialiseDataId
                | Operation::FetchStructured
                | Operation::ImmutableReader,
                id,
            ) => Some(*id),
            _ => None,
        }
    }

    /// The index of a list the request is about, if it names one.
    pub fn index(&self) -> Option<u64> {
        match self {
            Request::AtIndex(_, _, index) => Some(*index),
            _ => None,
        }
    }

    /// The name the request carries, if any.
    pub fn name(&self) -> Option<Name> {
        match self {
            Request::Create { name, .. }
            | Request::DataIdOfName { name, .. }
            | Request::StructuredDataIdOfName { name, .. } => Some(*name),
            _ => None,
        }
    }

    /// How much of the answer's body is read: serialised bytes and content may be as large as
    /// the network stores; other answers are small.
    pub fn max_body(&self) -> usize {
        if self.operation().answers_bytes() {
            MAX_CONTENT_BYTES + 1
        } else {
            super::MAX_BODY_BYTES
        }
    }

    /// What the request is about, for messages: `put 7`, `fetch data-id 12`, `create <name>`,
    /// `remove 7 index 2`.
    pub fn subject(&self) -> String {
        self.subject_as(|handle| handle.to_string())
    }

    /// [`Request::subject`], with the appendable-data handle written by `handle` (a name's
    /// fresh copy is written as the name).
    pub fn subject_as(&self, handle: impl Fn(H) -> String) -> String {
        let operation = self.operation().name();
        match self {
            Request::AtIndex(_, at, index) => {
                return format!("{operation} {} index {index}", handle(*at))
            }
            Request::OnId(_, id) if self.data_id().is_none() => return format!("{operation} {id}"),
            Request::FilterEdit {
                handle: on, key, ..
            } => return format!("{operation} {} sign-key {key}", handle(*on)),
            Request::SignKeyOf(key) => {
                let fingerprint = super::serialised::fingerprint(&key.serialised());
                return format!("{operation} {fingerprint}");
            }
            _ => {}
        }
        match (self.handle(), self.data_id(), self.name()) {
            (Some(on), _, _) => format!("{operation} {}", handle(on)),
            (_, Some(data_id), _) if self.operation() == Operation::DropDataId => {
                format!("{operation} {data_id}")
            }
            (_, Some(data_id), _) => format!("{operation} data-id {data_id}"),
            (_, _, Some(name)) => format!("{operation} {name}"),
            _ => operation.to_string(),
        }
    }
}

/// Joins a checked launcher base (`LauncherUrl::base`: no trailing slash, prefix kept) and a
/// request's route.
pub fn url_for<H: fmt::Display + Copy>(base: &str, request: &Request<H>) -> String {
    format!("{base}{}", request.route())
}

/// The most content or serialised bytes read from one answer: the network stores no data larger
/// than 100 KiB, so more than this is not an answer of the launcher's.
pub const MAX_CONTENT_BYTES: usize = 1024 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every request goes where its route says, and every route of the launcher's API is one a
    /// request goes to: a request of each kind, rendered, matches the template of the route it
    /// names, and together they name every route but the emulator's own and `/auth` (which
    /// `auth` sends apart from `Request`).
    #[test]
    fn every_request_matches_its_route_and_every_route_has_a_request() {
        use std::collections::BTreeSet;
        let h = Handle(7);
        let name = Name::from_bytes([1; 32]);
        let mut requests = vec![
            Request::Create {
                name,
                private: false,
                white_list: false,
            },
            Request::DataIdOfName {
                name,
                private: false,
            },
            Request::Fetch(h),
            Request::DropDataId(h),
            Request::Append {
                handle: h,
                data_id: Handle(8),
            },
            Request::StructuredDataIdOfName {
                name,
                type_tag: 500,
            },
            Request::UserSignKey,
            Request::NewWriter,
            Request::CloseWriter {
                writer: h,
                cipher: Handle(8),
            },
            Request::CipherOpts {
                kind: Encryption::Plain,
                key: None,
            },
            Request::CipherOpts {
                kind: Encryption::Asymmetric,
                key: Some(h),
            },
            Request::SignKeyOf(crate::wire::SignKey([2; 32])),
        ];
        for operation in [
            Operation::Put,
            Operation::Post,
            Operation::ClearData,
            Operation::ClearDeletedData,
            Operation::Metadata,
            Operation::Serialise,
            Operation::Drop,
            Operation::DataId,
            Operation::EncryptKey,
            Operation::ToggleFilter,
        ] {
            requests.push(Request::OnHandle(operation, h));
        }
        for operation in [
            Operation::ItemDataId,
            Operation::DeletedItemDataId,
            Operation::ItemSigner,
            Operation::DeletedItemSigner,
            Operation::FilterKey,
            Operation::Remove,
            Operation::Restore,
            Operation::Purge,
        ] {
            requests.push(Request::AtIndex(operation, h, 3));
        }
        for operation in [
            Operation::SerialiseDataId,
            Operation::FetchStructured,
            Operation::DropStructured,
            Operation::ReadStructured,
            Operation::SerialiseSignKey,
            Operation::DropSignKey,
            Operation::ImmutableReader,
            Operation::DropReader,
            Operation::ReadImmutable,
            Operation::WriteImmutable,
            Operation::DropWriter,
            Operation::DropCipherOpts,
            Operation::DropEncryptKey,
        ] {
            requests.push(Request::OnId(operation, h));
        }
        for operation in [Operation::AddToFilter, Operation::RemoveFromFilter] {
            requests.push(Request::FilterEdit {
                operation,
                handle: h,
                key: Handle(8),
            });
        }
        let mut named = BTreeSet::new();
        for request in &requests {
            let route = request.route_kind();
            let (method, path) = (request.method(), request.route());
            assert!(
                route.matches(method.as_str(), &path),
                "{method} {path} is not {route}, the route {request:?} names"
            );
            named.insert(route);
        }
        let apart = [
            Route::AuthLogin,
            Route::AuthStatus,
            Route::AuthLogout,
            Route::EmulatorJournal,
            Route::EmulatorJournalClear,
            Route::EmulatorNetwork,
        ];
        let unnamed: Vec<Route> = (Route::ALL.into_iter())
            .filter(|route| !named.contains(route) && !apart.contains(route))
            .collect();
        assert!(unnamed.is_empty(), "routes no request goes to: {unnamed:?}");
    }

    #[test]
    fn each_kind_is_freed_by_a_request_the_table_says_frees_it() {
        for kind in HandleKind::ALL {
            let free = kind.free(Handle(3));
            assert_eq!(free.operation().row().frees, Some(kind), "{kind:?}");
        }
    }

    #[test]
    fn routes_and_bodies() {
        let name = Name::parse(&"ab".repeat(32)).unwrap();
        let create = Request::<Handle>::Create {
            name,
            private: false,
            white_list: true,
        };
        assert_eq!(create.route(), "/appendable-data");
        let body: serde_json::Value = serde_json::from_str(&create.json().unwrap()).unwrap();
        assert_eq!(body["filterType"], "WHITE_LIST");
        assert_eq!(body["isPrivate"], false);
        assert_eq!(body["name"], name.to_string());
        let plain = Request::<Handle>::Create {
            name,
            private: true,
            white_list: false,
        };
        let body: serde_json::Value = serde_json::from_str(&plain.json().unwrap()).unwrap();
        assert!(body.get("filterType").is_none());
        assert_eq!(
            Request::OnHandle(Operation::Drop, Handle(7)).route(),
            "/appendable-data/handle/7"
        );
        assert_eq!(
            Request::OnHandle(Operation::DataId, Handle(7)).route(),
            "/appendable-data/data-id/7"
        );
        assert_eq!(
            Request::Fetch(Slot::FromAnswer("handleId")).route(),
            "/appendable-data/handle/{handleId}"
        );
        assert_eq!(Request::DropDataId(Handle(3)).method(), Method::DELETE);
        assert_eq!(Request::DropDataId(Handle(3)).subject(), "drop-data-id 3");
        assert_eq!(Request::Fetch(Handle(3)).subject(), "fetch data-id 3");
    }
}
