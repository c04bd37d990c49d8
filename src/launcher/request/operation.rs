//! The operations safe-ad asks of the launcher, by kind: each one's name, method and row (what
//! handle it makes or frees, whether its answer is bytes, whether resending it is safe), and the
//! kinds of launcher handle. The requests that carry them are `request`'s ([`super::Request`]).

use std::fmt;

use reqwest::Method;

use super::Request;

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
    pub(super) fn method(self) -> Method {
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
