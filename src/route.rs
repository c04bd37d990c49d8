//! The launcher's routes, one value each: its method and its path template (`<h>` an
//! appendable-data handle, `<d>` a data id, `<i>` an index, and so on). Each command's spec lists
//! the routes it sends (`cli`), docs/output.md's table is written from those lists, and every
//! request maps to its route (`launcher::Request::route_kind`): one list, checked both ways
//! (a unit test in `launcher` renders a request of every route and matches it to the template).

use std::fmt;

enum_with_all! {
    /// A route of the launcher (and the emulator's own, which `emulator requests` and
    /// `emulator export` use), in the order docs list them.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Route {
        /// `POST /appendable-data`: a new appendable data (`create`).
        AdCreate,
        /// `PUT /appendable-data/<h>`: save data never saved (`put`).
        AdPut,
        /// `POST /appendable-data/<h>`: save a copy of data on the network (`post`).
        AdPost,
        /// `PUT /appendable-data/<h>/<d>`: append the item a data id names.
        AdAppend,
        /// `GET /appendable-data/<h>/<i>`: a data-id handle for a data item.
        AdItem,
        /// `DELETE /appendable-data/<h>/<i>`: move a data item to the deleted list.
        AdRemove,
        /// `DELETE /appendable-data/clear-data/<h>`: move every data item to the deleted list.
        AdClearData,
        /// `DELETE /appendable-data/clear-deleted-data/<h>`: empty the deleted list.
        AdClearDeletedData,
        /// `GET /appendable-data/data-id/<h>`: a data-id handle for the data behind a handle.
        AdDataId,
        /// `GET /appendable-data/deleted-data/<h>/<i>`: a data-id handle for a deleted item.
        AdDeletedItem,
        /// `DELETE /appendable-data/deleted-data/<h>/<i>`: delete a deleted item for good.
        AdPurge,
        /// `GET /appendable-data/encrypt-key/<h>`: a private data's encrypt key.
        AdEncryptKey,
        /// `DELETE /appendable-data/encrypt-key/<key>`: give an encrypt key back.
        EncryptKeyDrop,
        /// `PUT /appendable-data/filter/<h>`: add sign keys to the filter.
        AdFilterAdd,
        /// `DELETE /appendable-data/filter/<h>`: take sign keys out of the filter.
        AdFilterRemove,
        /// `GET /appendable-data/filter/<h>/<i>`: a sign-key handle for a filter key.
        AdFilterKey,
        /// `GET /appendable-data/handle/<d>`: a handle for the data a data id names, fetched.
        AdFetch,
        /// `DELETE /appendable-data/handle/<h>`: give an appendable-data handle back.
        AdDrop,
        /// `GET /appendable-data/metadata/<h>`: a handle's metadata.
        AdMetadata,
        /// `PUT /appendable-data/restore/<h>/<i>`: make a deleted item data again.
        AdRestore,
        /// `GET /appendable-data/serialise/<h>`: a handle's serialised bytes.
        AdSerialise,
        /// `GET /appendable-data/sign-key/<h>/<i>`: a sign-key handle for a data item's signer.
        AdItemSigner,
        /// `GET /appendable-data/sign-key/deleted-data/<h>/<i>`: a sign-key handle for a deleted item's signer.
        AdDeletedItemSigner,
        /// `PUT /appendable-data/toggle-filter/<h>`: switch the filter's type.
        AdToggleFilter,
        /// `DELETE /auth`: revoke the token.
        AuthLogout,
        /// `GET /auth`: check the token.
        AuthStatus,
        /// `POST /auth`: ask for a token.
        AuthLogin,
        /// `DELETE /cipher-opts/<c>`: give cipher options back.
        CipherOptsDrop,
        /// `GET /cipher-opts/<how>`: cipher options.
        CipherOpts,
        /// `GET /cipher-opts/<how>/<key>`: cipher options for an encrypt key.
        CipherOptsFor,
        /// `DELETE /data-id/<d>`: give a data-id handle back.
        DataIdDrop,
        /// `GET /data-id/<d>`: a data id's serialised bytes.
        DataIdSerialise,
        /// `POST /data-id/appendable-data`: a data-id handle for appendable data, by name.
        DataIdOfAppendable,
        /// `POST /data-id/structured-data`: a data-id handle for structured data, by name.
        DataIdOfStructured,
        /// `GET /immutable-data/<r>`: an immutable-data reader's content.
        ImmutableRead,
        /// `POST /immutable-data/<w>`: bytes written to an immutable-data writer.
        ImmutableWrite,
        /// `PUT /immutable-data/<w>/<c>`: close a writer: the data goes to the network.
        ImmutableClose,
        /// `GET /immutable-data/reader/<d>`: an immutable-data reader.
        ImmutableReader,
        /// `DELETE /immutable-data/reader/<r>`: give a reader back.
        ImmutableReaderDrop,
        /// `GET /immutable-data/writer`: an immutable-data writer.
        ImmutableWriter,
        /// `DELETE /immutable-data/writer/<w>`: give a writer back.
        ImmutableWriterDrop,
        /// `GET /sign-key`: a sign-key handle for your own key.
        SignKeyOwn,
        /// `DELETE /sign-key/<k>`: give a sign-key handle back.
        SignKeyDrop,
        /// `POST /sign-key/deserialise`: a sign-key handle for a key's bytes.
        SignKeyDeserialise,
        /// `GET /sign-key/serialise/<k>`: a sign key's serialised bytes.
        SignKeySerialise,
        /// `GET /structured-data/<s>`: a structured data's content.
        StructuredRead,
        /// `GET /structured-data/handle/<d>`: a handle for the structured data a data id names.
        StructuredFetch,
        /// `DELETE /structured-data/handle/<s>`: give a structured-data handle back.
        StructuredDrop,
        /// `GET /_emulator/requests`: the emulator's journal (its own route).
        EmulatorJournal,
        /// `DELETE /_emulator/requests`: empty the emulator's journal (its own route).
        EmulatorJournalClear,
        /// `GET /_emulator/network`: what the emulator holds (its own route).
        EmulatorNetwork,
    }
}

impl Route {
    /// The HTTP method, and the path with each parameter as `<x>`.
    pub fn parts(self) -> (&'static str, &'static str) {
        match self {
            Route::AdCreate => ("POST", "/appendable-data"),
            Route::AdPut => ("PUT", "/appendable-data/<h>"),
            Route::AdPost => ("POST", "/appendable-data/<h>"),
            Route::AdAppend => ("PUT", "/appendable-data/<h>/<d>"),
            Route::AdItem => ("GET", "/appendable-data/<h>/<i>"),
            Route::AdRemove => ("DELETE", "/appendable-data/<h>/<i>"),
            Route::AdClearData => ("DELETE", "/appendable-data/clear-data/<h>"),
            Route::AdClearDeletedData => ("DELETE", "/appendable-data/clear-deleted-data/<h>"),
            Route::AdDataId => ("GET", "/appendable-data/data-id/<h>"),
            Route::AdDeletedItem => ("GET", "/appendable-data/deleted-data/<h>/<i>"),
            Route::AdPurge => ("DELETE", "/appendable-data/deleted-data/<h>/<i>"),
            Route::AdEncryptKey => ("GET", "/appendable-data/encrypt-key/<h>"),
            Route::EncryptKeyDrop => ("DELETE", "/appendable-data/encrypt-key/<key>"),
            Route::AdFilterAdd => ("PUT", "/appendable-data/filter/<h>"),
            Route::AdFilterRemove => ("DELETE", "/appendable-data/filter/<h>"),
            Route::AdFilterKey => ("GET", "/appendable-data/filter/<h>/<i>"),
            Route::AdFetch => ("GET", "/appendable-data/handle/<d>"),
            Route::AdDrop => ("DELETE", "/appendable-data/handle/<h>"),
            Route::AdMetadata => ("GET", "/appendable-data/metadata/<h>"),
            Route::AdRestore => ("PUT", "/appendable-data/restore/<h>/<i>"),
            Route::AdSerialise => ("GET", "/appendable-data/serialise/<h>"),
            Route::AdItemSigner => ("GET", "/appendable-data/sign-key/<h>/<i>"),
            Route::AdDeletedItemSigner => ("GET", "/appendable-data/sign-key/deleted-data/<h>/<i>"),
            Route::AdToggleFilter => ("PUT", "/appendable-data/toggle-filter/<h>"),
            Route::AuthLogout => ("DELETE", "/auth"),
            Route::AuthStatus => ("GET", "/auth"),
            Route::AuthLogin => ("POST", "/auth"),
            Route::CipherOptsDrop => ("DELETE", "/cipher-opts/<c>"),
            Route::CipherOpts => ("GET", "/cipher-opts/<how>"),
            Route::CipherOptsFor => ("GET", "/cipher-opts/<how>/<key>"),
            Route::DataIdDrop => ("DELETE", "/data-id/<d>"),
            Route::DataIdSerialise => ("GET", "/data-id/<d>"),
            Route::DataIdOfAppendable => ("POST", "/data-id/appendable-data"),
            Route::DataIdOfStructured => ("POST", "/data-id/structured-data"),
            Route::ImmutableRead => ("GET", "/immutable-data/<r>"),
            Route::ImmutableWrite => ("POST", "/immutable-data/<w>"),
            Route::ImmutableClose => ("PUT", "/immutable-data/<w>/<c>"),
            Route::ImmutableReader => ("GET", "/immutable-data/reader/<d>"),
            Route::ImmutableReaderDrop => ("DELETE", "/immutable-data/reader/<r>"),
            Route::ImmutableWriter => ("GET", "/immutable-data/writer"),
            Route::ImmutableWriterDrop => ("DELETE", "/immutable-data/writer/<w>"),
            Route::SignKeyOwn => ("GET", "/sign-key"),
            Route::SignKeyDrop => ("DELETE", "/sign-key/<k>"),
            Route::SignKeyDeserialise => ("POST", "/sign-key/deserialise"),
            Route::SignKeySerialise => ("GET", "/sign-key/serialise/<k>"),
            Route::StructuredRead => ("GET", "/structured-data/<s>"),
            Route::StructuredFetch => ("GET", "/structured-data/handle/<d>"),
            Route::StructuredDrop => ("DELETE", "/structured-data/handle/<s>"),
            Route::EmulatorJournal => ("GET", "/_emulator/requests"),
            Route::EmulatorJournalClear => ("DELETE", "/_emulator/requests"),
            Route::EmulatorNetwork => ("GET", "/_emulator/network"),
        }
    }

    /// Whether `path` (no query) is this route's, each `<x>` standing for one segment.
    pub fn matches(self, method: &str, path: &str) -> bool {
        let (own_method, template) = self.parts();
        let wanted: Vec<&str> = template.split('/').collect();
        let got: Vec<&str> = path.split('/').collect();
        own_method == method
            && wanted.len() == got.len()
            && (wanted.iter().zip(&got)).all(|(want, got)| match *want {
                // A cipher's kind is a word; every other parameter is a number.
                "<how>" => !got.is_empty(),
                want if want.starts_with('<') => {
                    !got.is_empty() && got.bytes().all(|b| b.is_ascii_digit())
                }
                want => want == *got,
            })
    }
}

/// `GET /appendable-data/metadata/<h>`, as docs and tests write a route.
impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (method, template) = self.parts();
        write!(f, "{method} {template}")
    }
}
