//! What safe-ad asks the launcher: each request's method, route and body. The kinds of operation
//! and of handle, and what each operation makes or frees, are `operation`'s; the JSON answers it
//! reads back are `answers`'.

use std::fmt;

use reqwest::Method;

use crate::handle::Handle;
use crate::name::Name;
use crate::route::Route;
use crate::wire::SignKey;

mod operation;
#[cfg(test)]
mod tests;

pub use operation::{HandleKind, Operation, OPERATIONS};

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
            // Listed, not `_`: a new request that names a handle must say so here.
            Request::Create { .. }
            | Request::DataIdOfName { .. }
            | Request::StructuredDataIdOfName { .. }
            | Request::UserSignKey
            | Request::NewWriter
            | Request::SignKeyOf(_) => [None, None],
        };
        slots.into_iter().flatten()
    }

    /// The same request with each handle it names passed through `f` (a plan's requests on a
    /// stand-in handle sent to a copy, [`crate::batch::on_a_copy_of`]).
    pub fn with_handles(self, f: impl Fn(H) -> H) -> Request<H> {
        (self.try_with_handles(|handle| Some(f(handle)))).expect("every handle is given one")
    }

    /// The same request with each handle it names passed through `f`, or `None` when `f` has
    /// none for one of them (a plan's slots, once earlier answers gave handles). Every variant
    /// is matched, so a new request with a handle cannot be left out.
    pub fn try_with_handles<T>(self, f: impl Fn(H) -> Option<T>) -> Option<Request<T>> {
        Some(match self {
            Request::OnHandle(operation, handle) => Request::OnHandle(operation, f(handle)?),
            Request::Fetch(id) => Request::Fetch(f(id)?),
            Request::DropDataId(id) => Request::DropDataId(f(id)?),
            Request::AtIndex(operation, handle, index) => {
                Request::AtIndex(operation, f(handle)?, index)
            }
            Request::Append { handle, data_id } => Request::Append {
                handle: f(handle)?,
                data_id: f(data_id)?,
            },
            Request::OnId(operation, id) => Request::OnId(operation, f(id)?),
            Request::CloseWriter { writer, cipher } => Request::CloseWriter {
                writer: f(writer)?,
                cipher: f(cipher)?,
            },
            Request::CipherOpts { kind, key } => Request::CipherOpts {
                kind,
                key: match key {
                    Some(key) => Some(f(key)?),
                    None => None,
                },
            },
            Request::FilterEdit {
                operation,
                handle,
                key,
            } => Request::FilterEdit {
                operation,
                handle: f(handle)?,
                key: f(key)?,
            },
            Request::Create {
                name,
                private,
                white_list,
            } => Request::Create {
                name,
                private,
                white_list,
            },
            Request::DataIdOfName { name, private } => Request::DataIdOfName { name, private },
            Request::StructuredDataIdOfName { name, type_tag } => {
                Request::StructuredDataIdOfName { name, type_tag }
            }
            Request::UserSignKey => Request::UserSignKey,
            Request::NewWriter => Request::NewWriter,
            Request::SignKeyOf(key) => Request::SignKeyOf(key),
        })
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
