//! The route table: every route the emulator serves, in the launcher's registration order, with
//! who may call it, what body it reads and what it does to data (a read or a change, for the
//! records), and the one function that matches a request against it.
//!
//! Matching follows the launcher's Express 4 router unless `--strict-paths` is given:
//! - routes answer under `/`, `/0.5` and `/0.6` (tried in that order, as the launcher mounted its
//!   one router three times); `/health` is mounted separately, at the root only, for any method
//!   and any sub-path;
//! - one trailing slash matches the same route, literal segments match in any ASCII case, and path
//!   parameters are percent-decoded (a malformed escape makes Express fail the request, which the
//!   launcher answered with its 404);
//! - the first route in table order whose method and pattern match wins (`HEAD` runs `GET`
//!   routes), so literal segments such as `metadata` shadow the `:handleId` patterns after them;
//! - an optional last parameter (`/structured-data/:handleId/:version?`) may be left out.
//!
//! `--strict-paths` keeps the emulator's older exact matching, to catch clients that build odd
//! paths: no trailing slash, exact case, parameters taken as written, `/health` only as written.
//!
//! The query string is never looked at (the launcher's routes ignored it too).

use std::borrow::Cow;

use hyper::Method;

use crate::launcher::state::Code;

/// What a route does; the handler in `routes` is chosen by this.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Route {
    Health,
    Authorise,
    CheckToken,
    Revoke,
    // data identifiers
    DataIdStructured,
    DataIdAppendable,
    DataIdSerialise,
    DataIdDeserialise,
    DataIdDrop,
    // cipher options and immutable data
    CipherOpts,
    CipherOptsDrop,
    ReaderOpen,
    WriterOpen,
    ImmutableRead,
    ImmutableWrite,
    WriterClose,
    ReaderDrop,
    WriterDrop,
    // structured data
    SdCreate,
    SdDeserialise,
    SdPost,
    SdMetadata,
    SdGetHandle,
    SdDataId,
    SdSerialise,
    SdValidateSize,
    SdRead,
    SdPut,
    SdUpdate,
    SdDrop,
    SdUnclaim,
    SdDelete,
    // appendable data
    EncryptKey,
    EncryptKeyDrop,
    Create,
    Deserialise,
    Post,
    Metadata,
    GetHandle,
    Serialise,
    DataId,
    ValidateSize,
    DeletedSignKeyAt,
    SignKeyAt,
    DeletedDataIdAt,
    FilterKeyAt,
    DataIdAt,
    ToggleFilter,
    AddToFilter,
    Append,
    Restore,
    Put,
    RemoveFromFilter,
    RemoveDeletedAt,
    ClearData,
    ClearDeletedData,
    DropHandle,
    RemoveAt,
    // sign keys
    SignKey,
    SignKeySerialise,
    SignKeyDeserialise,
    SignKeyDrop,
}

/// Who may call a route, as each launcher controller checked it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anybody; a valid token only makes `isOwner` true where the answer has it.
    Open,
    /// A valid token, any permissions; without one, 401 JSON with this description.
    Session(&'static str),
    /// A valid token with `LOW_LEVEL_API` (401 `Unauthorised access` without a token, else 403).
    LowLevel,
}

/// The body a route reads before its controller runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Body {
    None,
    /// `bodyParser.json({strict: false})`: JSON when the Content-Type says so.
    Json,
    /// `raw-body-parser`: the bytes as sent.
    Raw,
}

/// What a route does to data, as the journal and `--log` records say it (`effect`), so that a CI
/// job tells a failed change from a read whose answer is a fact about the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Leaves every data as it was, the network's and each handle's copy; it may make or give
    /// back a handle (`GET /sign-key`, `DELETE /data-id/:h`), which changes no data.
    Read,
    /// A read of data on the network by its data id (`GET /appendable-data/handle/:dataId` and
    /// the structured and immutable ones): its `NoSuchData` (-18) is the network's answer that it
    /// holds no such data (what `show` says of an item pointing there), not a failure.
    Fetch,
    /// Changes data: the network's, a handle's copy (which a save sends), an immutable-data
    /// writer's content, or the launcher's tokens.
    Change,
}

impl Effect {
    /// `read` or `change`, as the records spell it (a fetch is a read).
    pub(crate) fn word(self) -> &'static str {
        match self {
            Effect::Read | Effect::Fetch => "read",
            Effect::Change => "change",
        }
    }

    /// Whether an answer with this status and launcher error code is the network's answer that
    /// the data read is not there: a fetch's 404 `NoSuchData`, and nothing else.
    pub(crate) fn not_on_network(self, status: u16, error_code: Option<i64>) -> bool {
        self == Effect::Fetch
            && status == 404
            && error_code == Some(i64::from(Code::GET_NO_SUCH_DATA.0))
    }
}

/// One row of the table.
#[derive(Debug)]
pub struct Def {
    pub method: Method,
    /// The pattern: literal segments, `:name` parameters, and `:name?` for an optional last one.
    pub path: &'static str,
    pub(crate) route: Route,
    /// What it does to data (for the records; the handler decides nothing by it).
    pub(crate) effect: Effect,
    pub access: Access,
    pub(crate) body: Body,
}

const LOW: Access = Access::LowLevel;
const OPEN: Access = Access::Open;
const READ: Effect = Effect::Read;
const FETCH: Effect = Effect::Fetch;
const CHANGE: Effect = Effect::Change;

macro_rules! row {
    ($method:ident $path:literal $route:ident $effect:ident $access:expr) => {
        row!($method $path $route $effect $access, Body::None)
    };
    ($method:ident $path:literal $route:ident $effect:ident $access:expr, $body:expr) => {
        Def {
            method: Method::$method,
            path: $path,
            route: Route::$route,
            effect: $effect,
            access: $access,
            body: $body,
        }
    };
}

/// Every route served, in the order the launcher registered them (`version_0_6.js`), each with
/// what it does to data ([`Effect`]). `/health` is not here: it was mounted outside the router
/// (see [`find`]).
///
/// Public for safe-ad's man page, which lists the routes, and its tests.
pub static TABLE: &[Def] = &[
    row!(POST "/auth" Authorise CHANGE OPEN, Body::Json),
    row!(GET "/auth" CheckToken READ Access::Session("Unauthorised")),
    row!(DELETE "/auth" Revoke CHANGE Access::Session("Unauthorised")),
    row!(POST "/data-id/structured-data" DataIdStructured READ OPEN, Body::Json),
    row!(POST "/data-id/appendable-data" DataIdAppendable READ OPEN, Body::Json),
    row!(GET "/data-id/:handleId" DataIdSerialise READ LOW),
    row!(POST "/data-id" DataIdDeserialise READ OPEN, Body::Raw),
    row!(DELETE "/data-id/:handleId" DataIdDrop READ OPEN),
    row!(GET "/cipher-opts/:encType/:keyHandle?" CipherOpts READ OPEN),
    row!(DELETE "/cipher-opts/:handleId" CipherOptsDrop READ OPEN),
    row!(GET "/immutable-data/reader/:handleId" ReaderOpen FETCH OPEN),
    row!(GET "/immutable-data/writer" WriterOpen READ LOW),
    row!(GET "/immutable-data/:handleId" ImmutableRead READ OPEN),
    row!(POST "/immutable-data/:handleId" ImmutableWrite CHANGE LOW, Body::Raw),
    row!(PUT "/immutable-data/:handleId/:cipherOptsHandle" WriterClose CHANGE LOW),
    row!(DELETE "/immutable-data/reader/:handleId" ReaderDrop READ OPEN),
    row!(DELETE "/immutable-data/writer/:handleId" WriterDrop READ LOW),
    row!(POST "/structured-data" SdCreate CHANGE LOW, Body::Json),
    row!(POST "/structured-data/deserialise" SdDeserialise READ OPEN, Body::Raw),
    row!(POST "/structured-data/:handleId" SdPost CHANGE Access::Session("Unauthorized")),
    row!(GET "/structured-data/metadata/:handleId" SdMetadata READ OPEN),
    row!(GET "/structured-data/handle/:dataIdHandle" SdGetHandle FETCH OPEN),
    row!(GET "/structured-data/data-id/:handleId" SdDataId READ OPEN),
    row!(GET "/structured-data/serialise/:handleId" SdSerialise READ OPEN),
    row!(GET "/structured-data/validate-size/:handleId" SdValidateSize READ OPEN),
    row!(GET "/structured-data/:handleId/:version?" SdRead READ OPEN),
    row!(PUT "/structured-data/:handleId" SdPut CHANGE Access::Session("Unauthorized")),
    row!(PATCH "/structured-data/:handleId" SdUpdate CHANGE LOW, Body::Json),
    row!(DELETE "/structured-data/handle/:handleId" SdDrop READ OPEN),
    row!(DELETE "/structured-data/unclaim/:handleId" SdUnclaim CHANGE LOW),
    row!(DELETE "/structured-data/:handleId" SdDelete CHANGE Access::Session("Unauthorized")),
    row!(GET "/appendable-data/encrypt-key/:handleId" EncryptKey READ LOW),
    row!(DELETE "/appendable-data/encrypt-key/:handleId" EncryptKeyDrop READ LOW),
    row!(POST "/appendable-data" Create CHANGE LOW, Body::Json),
    row!(POST "/appendable-data/deserialise" Deserialise READ OPEN, Body::Raw),
    row!(POST "/appendable-data/:handleId" Post CHANGE LOW),
    row!(GET "/appendable-data/metadata/:handleId" Metadata READ OPEN),
    row!(GET "/appendable-data/handle/:dataIdHandle" GetHandle FETCH OPEN),
    row!(GET "/appendable-data/serialise/:handleId" Serialise READ LOW),
    row!(GET "/appendable-data/data-id/:handleId" DataId READ OPEN),
    row!(GET "/appendable-data/validate-size/:handleId" ValidateSize READ OPEN),
    row!(GET "/appendable-data/sign-key/deleted-data/:handleId/:index" DeletedSignKeyAt READ LOW),
    row!(GET "/appendable-data/sign-key/:handleId/:index" SignKeyAt READ LOW),
    row!(GET "/appendable-data/deleted-data/:handleId/:index" DeletedDataIdAt READ OPEN),
    row!(GET "/appendable-data/filter/:handleId/:index" FilterKeyAt READ LOW),
    row!(GET "/appendable-data/:handleId/:index" DataIdAt READ OPEN),
    row!(PUT "/appendable-data/toggle-filter/:handleId" ToggleFilter CHANGE LOW),
    row!(PUT "/appendable-data/filter/:handleId" AddToFilter CHANGE LOW, Body::Json),
    row!(PUT "/appendable-data/:handleId/:dataIdHandle" Append CHANGE LOW),
    row!(PUT "/appendable-data/restore/:handleId/:index" Restore CHANGE LOW),
    row!(PUT "/appendable-data/:handleId" Put CHANGE LOW),
    row!(DELETE "/appendable-data/filter/:handleId" RemoveFromFilter CHANGE LOW, Body::Json),
    row!(DELETE "/appendable-data/deleted-data/:handleId/:index" RemoveDeletedAt CHANGE LOW),
    row!(DELETE "/appendable-data/clear-data/:handleId" ClearData CHANGE LOW),
    row!(DELETE "/appendable-data/clear-deleted-data/:handleId" ClearDeletedData CHANGE LOW),
    row!(DELETE "/appendable-data/handle/:handleId" DropHandle READ OPEN),
    row!(DELETE "/appendable-data/:handleId/:index" RemoveAt CHANGE LOW),
    row!(GET "/sign-key" SignKey READ LOW),
    row!(GET "/sign-key/serialise/:handleId" SignKeySerialise READ LOW),
    row!(POST "/sign-key/deserialise" SignKeyDeserialise READ LOW, Body::Raw),
    row!(DELETE "/sign-key/:handleId" SignKeyDrop READ LOW),
];

/// The `/health` row: any method, no body, no token needed.
///
/// Public for safe-ad's man page, with [`TABLE`].
pub static HEALTH: Def = row!(GET "/health" Health READ OPEN);

/// A matched request: its row and its path parameters (decoded unless strict), in order.
#[derive(Debug)]
pub(crate) struct Found<'a> {
    pub(crate) def: &'static Def,
    pub(crate) params: [Option<Cow<'a, str>>; 2],
}

impl Found<'_> {
    /// Parameter `index` (0 or 1) as text; `None` for a left-out optional one.
    pub(crate) fn param(&self, index: usize) -> Option<&str> {
        self.params.get(index).and_then(|p| p.as_deref())
    }
}

/// Finds the route for a method and path; `None` is the launcher's 404.
pub(crate) fn find<'a>(method: &Method, path: &'a str, strict: bool) -> Option<Found<'a>> {
    if is_health(path, strict) {
        return Some(Found {
            def: &HEALTH,
            params: [None, None],
        });
    }
    // HEAD runs GET routes, as Express did (the server sends no body for HEAD).
    let method = if *method == Method::HEAD {
        &Method::GET
    } else {
        method
    };
    let candidates = std::iter::once(Some(path)).chain(["/0.5", "/0.6"].iter().map(|mount| {
        let rest = strip_mount(path, mount)?;
        Some(if rest.is_empty() { "/" } else { rest })
    }));
    for rest in candidates.flatten() {
        for def in TABLE.iter().filter(|def| def.method == *method) {
            if let Some(raw) = match_pattern(def.path, rest, strict) {
                let params = decode(raw, strict)?;
                return Some(Found { def, params });
            }
        }
    }
    None
}

/// `/health` was `app.use('/health', ...)`: the path itself and anything below it, any case.
fn is_health(path: &str, strict: bool) -> bool {
    if strict {
        return path == "/health";
    }
    match path.get(..7) {
        Some(head) if head.eq_ignore_ascii_case("/health") => {
            path.len() == 7 || path.as_bytes()[7] == b'/'
        }
        _ => false,
    }
}

/// The rest of `path` under a mount point (`/0.5`, `/0.6`), if it is under it.
fn strip_mount<'a>(path: &'a str, mount: &str) -> Option<&'a str> {
    let rest = path.strip_prefix(mount)?;
    (rest.is_empty() || rest.starts_with('/')).then_some(rest)
}

/// The raw parameters if `path` matches `pattern`.
fn match_pattern<'a>(pattern: &str, path: &'a str, strict: bool) -> Option<[Option<&'a str>; 2]> {
    let path = if strict {
        path
    } else {
        // One trailing slash is allowed (Express's non-strict routing); "/" itself stays.
        match path.strip_suffix('/') {
            Some(trimmed) if !trimmed.is_empty() => trimmed,
            _ => path,
        }
    };
    let mut wanted = pattern.split('/');
    let mut given = path.split('/');
    let mut params = [None, None];
    let mut count = 0;
    loop {
        match (wanted.next(), given.next()) {
            (None, None) => return Some(params),
            (Some(segment), None) if segment.starts_with(':') && segment.ends_with('?') => {
                // A left-out optional last parameter.
                if wanted.next().is_none() {
                    return Some(params);
                }
                return None;
            }
            (Some(segment), Some(text)) if segment.starts_with(':') => {
                if text.is_empty() {
                    return None;
                }
                *params.get_mut(count)? = Some(text);
                count += 1;
            }
            (Some(segment), Some(text)) => {
                let same = if strict {
                    segment == text
                } else {
                    segment.eq_ignore_ascii_case(text)
                };
                if !same {
                    return None;
                }
            }
            _ => return None,
        }
    }
}

/// Percent-decodes the parameters (`decodeURIComponent`); `None` when one is malformed.
fn decode<'a>(raw: [Option<&'a str>; 2], strict: bool) -> Option<[Option<Cow<'a, str>>; 2]> {
    let one = |text: Option<&'a str>| -> Option<Option<Cow<'a, str>>> {
        match text {
            None => Some(None),
            Some(text) if strict || !text.contains('%') => Some(Some(Cow::Borrowed(text))),
            Some(text) => percent_decode(text).map(|t| Some(Cow::Owned(t))),
        }
    };
    let [a, b] = raw;
    Some([one(a)?, one(b)?])
}

/// `decodeURIComponent`: every `%XX` must be hex and the bytes must be UTF-8; `None` if not.
pub(crate) fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = std::str::from_utf8(bytes.get(at + 1..at + 3)?).ok()?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Percent-decodes what can be decoded (`%XX` with two hex digits) and keeps the rest as written;
/// bytes that are not UTF-8 become U+FFFD. For showing a path as the server read it.
pub(crate) fn percent_decode_lossy(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = bytes
            .get(at + 1..at + 3)
            .filter(|pair| bytes[at] == b'%' && pair.iter().all(u8::is_ascii_hexdigit));
        match hex.and_then(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()) {
            Some(byte) => {
                out.push(byte);
                at += 3;
            }
            None => {
                out.push(bytes[at]);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(method: Method, path: &str) -> Option<Route> {
        find(&method, path, false).map(|f| f.def.route)
    }

    fn strict(method: Method, path: &str) -> Option<Route> {
        find(&method, path, true).map(|f| f.def.route)
    }

    #[test]
    fn every_route_has_a_unique_method_and_pattern() {
        let mut seen = std::collections::HashSet::new();
        for def in TABLE {
            assert!(seen.insert((def.method.clone(), def.path)), "{}", def.path);
            assert!(def.path.matches(':').count() <= 2, "{}", def.path);
        }
        // 26 appendable-data routes, as API v0.6 had.
        let ad = TABLE
            .iter()
            .filter(|d| d.path.starts_with("/appendable-data"))
            .count();
        assert_eq!(ad, 26);
    }

    #[test]
    fn every_get_reads_and_only_the_three_fetches_by_data_id_fetch() {
        for def in TABLE.iter().chain([&HEALTH]) {
            if def.method == Method::GET {
                assert_ne!(def.effect, Effect::Change, "{}", def.path);
            }
        }
        let fetches: Vec<Route> = TABLE
            .iter()
            .filter(|def| def.effect == Effect::Fetch)
            .map(|def| def.route)
            .collect();
        assert_eq!(
            fetches,
            [Route::ReaderOpen, Route::SdGetHandle, Route::GetHandle]
        );
        // What a save, an item change or a clear sends is a change; giving a handle back is not.
        for route in [
            Route::Put,
            Route::Post,
            Route::Append,
            Route::RemoveAt,
            Route::Restore,
            Route::RemoveDeletedAt,
            Route::ClearData,
            Route::ClearDeletedData,
            Route::WriterClose,
            Route::SdPut,
        ] {
            let def = TABLE.iter().find(|def| def.route == route).unwrap();
            assert_eq!(def.effect, Effect::Change, "{}", def.path);
        }
        for route in [Route::DropHandle, Route::DataIdDrop, Route::SignKeyDrop] {
            let def = TABLE.iter().find(|def| def.route == route).unwrap();
            assert_eq!(def.effect, Effect::Read, "{}", def.path);
        }
    }

    #[test]
    fn only_a_fetchs_no_such_data_is_an_answer_about_the_network() {
        assert!(Effect::Fetch.not_on_network(404, Some(-18)));
        // A fetch refused for another reason, or a change of data not on the network, failed.
        assert!(!Effect::Fetch.not_on_network(400, Some(-1514)));
        assert!(!Effect::Fetch.not_on_network(404, Some(404)));
        assert!(!Effect::Fetch.not_on_network(404, None));
        assert!(!Effect::Change.not_on_network(404, Some(-22)));
        assert!(!Effect::Change.not_on_network(404, Some(-18)));
        assert!(!Effect::Read.not_on_network(404, Some(-18)));
        assert_eq!(
            (
                Effect::Read.word(),
                Effect::Fetch.word(),
                Effect::Change.word()
            ),
            ("read", "read", "change")
        );
    }

    #[test]
    fn launcher_matching_under_every_prefix() {
        for prefix in ["", "/0.5", "/0.6"] {
            let r = |m: Method, p: &str| route(m, &format!("{prefix}{p}"));
            assert_eq!(r(Method::PUT, "/appendable-data/3"), Some(Route::Put));
            assert_eq!(r(Method::PUT, "/appendable-data/3/"), Some(Route::Put));
            assert_eq!(r(Method::PUT, "/appendable-data/3//"), None);
            assert_eq!(r(Method::POST, "/appendable-data/"), Some(Route::Create));
            assert_eq!(r(Method::GET, "/auth/"), Some(Route::CheckToken));
            assert_eq!(
                r(Method::GET, "/Appendable-Data/METADATA/1"),
                Some(Route::Metadata)
            );
            assert_eq!(
                r(Method::POST, "/appendable-data/deserialise"),
                Some(Route::Deserialise)
            );
            assert_eq!(r(Method::PUT, "/appendable-data/4/x"), Some(Route::Append));
            assert_eq!(
                r(Method::PUT, "/appendable-data/restore/4/1"),
                Some(Route::Restore)
            );
            assert_eq!(
                r(Method::PUT, "/appendable-data/restore/4"),
                Some(Route::Append)
            );
            assert_eq!(
                r(Method::DELETE, "/appendable-data/handle/4"),
                Some(Route::DropHandle)
            );
            assert_eq!(
                r(Method::DELETE, "/appendable-data/4/1"),
                Some(Route::RemoveAt)
            );
            assert_eq!(r(Method::DELETE, "/appendable-data/4"), None);
            assert_eq!(r(Method::GET, "/appendable-data/3"), None);
            assert_eq!(r(Method::GET, "/sign-key"), Some(Route::SignKey));
            assert_eq!(r(Method::GET, "/sign-key/"), Some(Route::SignKey));
            assert_eq!(r(Method::GET, "/structured-data/5"), Some(Route::SdRead));
            assert_eq!(r(Method::GET, "/structured-data/5/2/"), Some(Route::SdRead));
            assert_eq!(
                r(Method::HEAD, "/appendable-data/metadata/1"),
                Some(Route::Metadata)
            );
            assert_eq!(r(Method::PATCH, "/appendable-data/1"), None);
        }
        assert_eq!(route(Method::GET, "/0.7/auth"), None);
        assert_eq!(route(Method::GET, "/0.5"), None);
        assert_eq!(route(Method::GET, "/0.5auth"), None);
        assert_eq!(route(Method::GET, "//auth"), None);
    }

    #[test]
    fn health_is_mounted_at_the_root_for_any_method_and_sub_path() {
        for (method, path) in [
            (Method::GET, "/health"),
            (Method::POST, "/health/"),
            (Method::DELETE, "/HEALTH/x/y"),
        ] {
            assert_eq!(route(method, path), Some(Route::Health), "{path}");
        }
        assert_eq!(route(Method::GET, "/healthz"), None);
        assert_eq!(route(Method::GET, "/0.6/health"), None);
        assert_eq!(strict(Method::POST, "/health"), Some(Route::Health));
        assert_eq!(strict(Method::GET, "/health/"), None);
    }

    #[test]
    fn parameters_are_decoded_unless_strict() {
        let found = find(&Method::PUT, "/appendable-data/%31/%C3%A9", false).unwrap();
        assert_eq!((found.param(0), found.param(1)), (Some("1"), Some("é")));
        // A malformed escape is a failure of the request: the launcher's 404.
        assert!(find(&Method::PUT, "/appendable-data/%zz", false).is_none());
        assert!(find(&Method::PUT, "/appendable-data/%C3", false).is_none());
        let found = find(&Method::PUT, "/appendable-data/%31", true).unwrap();
        assert_eq!(found.param(0), Some("%31"));
    }

    #[test]
    fn strict_matching_is_exact() {
        assert_eq!(strict(Method::PUT, "/appendable-data/3"), Some(Route::Put));
        assert_eq!(
            strict(Method::PUT, "/0.6/appendable-data/3"),
            Some(Route::Put)
        );
        for (method, path) in [
            (Method::PUT, "/appendable-data/3/"),
            (Method::POST, "/appendable-data/"),
            (Method::GET, "/Appendable-Data/metadata/1"),
            (Method::GET, "/sign-key/"),
        ] {
            assert_eq!(strict(method, path), None, "{path}");
        }
    }
}
