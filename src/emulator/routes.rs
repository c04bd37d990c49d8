//! The emulator's HTTP surface: the route table, the authorization rules, request-body parsing,
//! and every status code and body the launcher answered with.
//!
//! Written from `spec/launcher-facts.md` (and the launcher's own server code where that page is
//! silent); it shares nothing with the client's `launcher` module on purpose.
//!
//! Order of checks for every request, as the launcher's middleware ran them:
//! 1. A present but bad `Authorization` header (malformed, unknown or revoked token) is answered
//!    401 text/plain `Unauthorized` before anything else, on every path, `/health` and unknown
//!    routes included. An absent or empty header is "anonymous".
//! 2. No route for the method and path: 404 `{"errorCode":404,"description":"Endpoint Not Found"}`.
//! 3. The route's access rule: `LowLevel` routes want a token (401 JSON `Unauthorised access`
//!    without one) with `LOW_LEVEL_API` (403 JSON otherwise); `GET`/`DELETE /auth` want a token
//!    (401 JSON `Unauthorised`); `Optional` routes serve anonymous callers too; `Open` routes
//!    ignore tokens.
//! 4. Only then the path's handle ids are checked (see [`parse_id`]) and the operation runs.
//!
//! Paths are matched exactly (after an optional `/0.5` or `/0.6` prefix): no trailing slash, no
//! case folding, no percent-decoding, and the query string is ignored. The real launcher (Express)
//! was looser on the first three; being strict makes a client that builds odd paths fail here.

use std::sync::{Mutex, MutexGuard};

use http_body_util::{BodyExt, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderMap, AUTHORIZATION, CONTENT_TYPE};
use hyper::{Method, Request, StatusCode};
use serde_json::Value;

use super::encoding::{base64_decode, base64url_encode, random_bytes};
use super::state::{AdKey, Code, DataId, FilterType, Metadata, Permissions, State};

/// Largest request body read (Express's `body-parser` default was 100 kB).
pub const BODY_LIMIT: usize = 100 * 1024;

const TEXT: &str = "text/plain; charset=utf-8";
const HTML: &str = "text/html; charset=utf-8";
const JSON: &str = "application/json; charset=utf-8";

/// The permission that appendable-data writes need.
pub const LOW_LEVEL_API: &str = "LOW_LEVEL_API";
/// The other permission the launcher knew.
pub const SAFE_DRIVE_ACCESS: &str = "SAFE_DRIVE_ACCESS";

/// The shared server state and the behaviour switches.
#[derive(Debug)]
pub struct App {
    state: Mutex<State>,
    /// Answer every valid `POST /auth` with 401 `Unauthorised`.
    pub deny_auth: bool,
    /// Never answer a clear of an unknown (but well-formed) handle.
    pub hang_unknown_clears: bool,
}

impl App {
    pub fn new(state: State, deny_auth: bool, hang_unknown_clears: bool) -> App {
        App {
            state: Mutex::new(state),
            deny_auth,
            hang_unknown_clears,
        }
    }

    /// The state, even if a previous holder panicked (nothing here should, but a poisoned lock
    /// must not turn every later request into a panic).
    pub fn state(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// An answer to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub status: StatusCode,
    pub content_type: &'static str,
    pub body: Bytes,
}

/// What to do with a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Reply(Reply),
    /// Never answer (the launcher's defect with clears of unknown handles).
    Hang,
}

impl From<Reply> for Answer {
    fn from(reply: Reply) -> Answer {
        Answer::Reply(reply)
    }
}

fn reply(status: StatusCode, content_type: &'static str, body: impl Into<Bytes>) -> Reply {
    Reply {
        status,
        content_type,
        body: body.into(),
    }
}

/// 200 text/plain `OK`, the launcher's success answer without data.
fn ok() -> Reply {
    reply(StatusCode::OK, TEXT, Bytes::from_static(b"OK"))
}

fn ok_json(body: String) -> Reply {
    reply(StatusCode::OK, JSON, body)
}

/// A JSON string literal.
fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| String::from("\"\""))
}

/// `{"errorCode":<code>,"description":<text>}` with the given status.
fn error_json(status: StatusCode, code: i64, description: &str) -> Reply {
    reply(
        status,
        JSON,
        format!(
            "{{\"errorCode\":{code},\"description\":{}}}",
            json_string(description)
        ),
    )
}

/// The launcher's own validation errors: status 400, errorCode 400.
fn bad_request(description: &str) -> Reply {
    error_json(StatusCode::BAD_REQUEST, 400, description)
}

/// The description the launcher gave a core error code.
pub fn describe(code: Code) -> &'static str {
    match code.0 {
        -18 => "CoreError::GetFailure::GetError::NoSuchData",
        -22 => "CoreError::MutationFailure::MutationError::NoSuchData",
        -23 => "CoreError::MutationFailure::MutationError::DataExists",
        -25 => "CoreError::MutationFailure::MutationError::InvalidSuccessor",
        -1514 => "FfiError::InvalidDataIdHandle",
        -1515 => "FfiError::InvalidAppendableDataHandle",
        -1519 => "FfiError::InvalidSignKeyHandle",
        -1524 => "FfiError::InvalidIndex",
        _ => "Unexpected error",
    }
}

/// A core error as the launcher sent it: 404 when the description names NotFound, NoSuchData
/// or InvalidPath, 400 otherwise.
pub fn core_error(code: Code) -> Reply {
    let description = describe(code);
    let lower = description.to_ascii_lowercase();
    let status = if ["notfound", "nosuchdata", "invalidpath"]
        .iter()
        .any(|word| lower.contains(word))
    {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::BAD_REQUEST
    };
    error_json(status, i64::from(code.0), description)
}

fn not_found() -> Reply {
    reply(
        StatusCode::NOT_FOUND,
        JSON,
        Bytes::from_static(br#"{"errorCode":404,"description":"Endpoint Not Found"}"#),
    )
}

/// A present but malformed, unknown or revoked token (Express's `sendStatus(401)`).
fn bad_token() -> Reply {
    reply(
        StatusCode::UNAUTHORIZED,
        TEXT,
        Bytes::from_static(b"Unauthorized"),
    )
}

/// A `LowLevel` route called without a token.
fn no_token() -> Reply {
    reply(
        StatusCode::UNAUTHORIZED,
        JSON,
        Bytes::from_static(br#"{"errorCode":400,"description":"Unauthorised access"}"#),
    )
}

/// `GET`/`DELETE /auth` without a token (the launcher's default text for 401).
fn no_session() -> Reply {
    reply(
        StatusCode::UNAUTHORIZED,
        JSON,
        Bytes::from_static(br#"{"errorCode":400,"description":"Unauthorised"}"#),
    )
}

fn not_granted() -> Reply {
    reply(
        StatusCode::FORBIDDEN,
        JSON,
        Bytes::from_static(
            br#"{"errorCode":400,"description":"Low level api access is not granted"}"#,
        ),
    )
}

/// The emulator's own answer to a path segment that is not a plain decimal u64. The launcher
/// had none (it read the segment with `strtoull`, so `-1`, `010` and `12abc` became handles);
/// the emulator refuses them with status 400 and errorCode 400, the launcher's code for its own
/// validation errors, and a description that says what was wrong.
fn bad_id(what: &str) -> Reply {
    bad_request(&format!(
        "Invalid {what}: expected plain decimal digits, 0 to 18446744073709551615, no sign and no leading zeros (safe-ad emulator)"
    ))
}

/// A handle or index from a path: canonical decimal only (`0`, `7`, `18446744073709551615`).
/// Empty, signs, leading zeros, hex, spaces, percent-escapes and anything above u64 are `None`.
pub fn parse_id(segment: &str) -> Option<u64> {
    let bytes = segment.as_bytes();
    let first = *bytes.first()?;
    if !bytes.iter().all(u8::is_ascii_digit) || (first == b'0' && bytes.len() > 1) {
        return None;
    }
    segment.parse::<u64>().ok()
}

/// A path segment that should hold a handle: the value, or `None` if it is not one.
type Id = Option<u64>;

/// One route of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Health,
    Authorise,
    CheckToken,
    Revoke,
    Create,
    Put(Id),
    Post(Id),
    ClearData(Id),
    ClearDeletedData(Id),
    Metadata(Id),
    DataIdAppendable,
    DataIdStructured,
    GetHandle(Id),
    Append(Id, Id),
    RemoveAt(Id, Id),
    DropHandle(Id),
}

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Access {
    /// Anybody; tokens are not looked at (beyond the global bad-header rule).
    Open,
    /// Anybody; a valid token makes `isOwner` true.
    Optional,
    /// A valid token, any permissions (`GET`/`DELETE /auth`).
    Session,
    /// A valid token with `LOW_LEVEL_API`.
    LowLevel,
}

impl Route {
    fn access(self) -> Access {
        match self {
            Route::Health | Route::Authorise | Route::DropHandle(_) => Access::Open,
            Route::Metadata(_)
            | Route::GetHandle(_)
            | Route::DataIdAppendable
            | Route::DataIdStructured => Access::Optional,
            Route::CheckToken | Route::Revoke => Access::Session,
            Route::Create
            | Route::Put(_)
            | Route::Post(_)
            | Route::ClearData(_)
            | Route::ClearDeletedData(_)
            | Route::Append(..)
            | Route::RemoveAt(..) => Access::LowLevel,
        }
    }
}

/// Finds the route for a method and path; `None` is 404.
pub fn route(method: &Method, path: &str) -> Option<Route> {
    let rest = ["/0.5", "/0.6"]
        .iter()
        .find_map(|prefix| path.strip_prefix(prefix).filter(|r| r.starts_with('/')))
        .unwrap_or(path);
    let rest = rest.strip_prefix('/')?;
    let mut parts = rest.split('/');
    let first = parts.next()?;
    let second = parts.next();
    let third = parts.next();
    if parts.next().is_some() {
        return None;
    }
    let id = |segment: &str| -> Option<Id> {
        if segment.is_empty() {
            None
        } else {
            Some(parse_id(segment))
        }
    };
    let m = method;
    match (first, second, third) {
        ("health", None, None) if m == Method::GET || m == Method::HEAD => Some(Route::Health),
        ("auth", None, None) => match *m {
            Method::POST => Some(Route::Authorise),
            Method::GET => Some(Route::CheckToken),
            Method::DELETE => Some(Route::Revoke),
            _ => None,
        },
        ("appendable-data", None, None) if m == Method::POST => Some(Route::Create),
        ("appendable-data", Some(h), None) => match *m {
            Method::PUT => Some(Route::Put(id(h)?)),
            Method::POST => Some(Route::Post(id(h)?)),
            _ => None,
        },
        ("appendable-data", Some("metadata"), Some(h)) if m == Method::GET => {
            Some(Route::Metadata(id(h)?))
        }
        ("appendable-data", Some("handle"), Some(h)) if m == Method::GET => {
            Some(Route::GetHandle(id(h)?))
        }
        ("appendable-data", Some("handle"), Some(h)) if m == Method::DELETE => {
            Some(Route::DropHandle(id(h)?))
        }
        ("appendable-data", Some("clear-data"), Some(h)) if m == Method::DELETE => {
            Some(Route::ClearData(id(h)?))
        }
        ("appendable-data", Some("clear-deleted-data"), Some(h)) if m == Method::DELETE => {
            Some(Route::ClearDeletedData(id(h)?))
        }
        ("appendable-data", Some(h), Some(d)) if !h.is_empty() => match *m {
            Method::PUT => Some(Route::Append(id(h)?, id(d)?)),
            Method::DELETE => Some(Route::RemoveAt(id(h)?, id(d)?)),
            _ => None,
        },
        ("data-id", Some("appendable-data"), None) if m == Method::POST => {
            Some(Route::DataIdAppendable)
        }
        ("data-id", Some("structured-data"), None) if m == Method::POST => {
            Some(Route::DataIdStructured)
        }
        _ => None,
    }
}

/// Who is calling, from the `Authorization` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Caller {
    /// No header, or an empty one.
    Anonymous,
    /// A live token.
    Session(Permissions),
    /// A header that is malformed or names an unknown or revoked token.
    Bad,
}

/// The token of a well-formed `Authorization` header: `Bearer` (any case), exactly one space,
/// then a token without spaces. `Ok(None)` when there is no (or an empty) header.
fn bearer(headers: &HeaderMap) -> Result<Option<&str>, ()> {
    // A repeated header counts by its first value, as Node.js kept only the first.
    let Some(value) = headers.get(AUTHORIZATION) else {
        return Ok(None);
    };
    let bytes = value.as_bytes();
    if bytes.is_empty() {
        return Ok(None);
    }
    let (scheme, rest) = bytes.split_at_checked(6).ok_or(())?;
    if !scheme.eq_ignore_ascii_case(b"bearer") {
        return Err(());
    }
    let token = rest.strip_prefix(b" ").ok_or(())?;
    if token.is_empty() || token.contains(&b' ') {
        return Err(());
    }
    std::str::from_utf8(token).map(Some).map_err(|_| ())
}

fn caller(app: &App, headers: &HeaderMap) -> Caller {
    match bearer(headers) {
        Ok(None) => Caller::Anonymous,
        Ok(Some(token)) => app
            .state()
            .session(token)
            .map_or(Caller::Bad, Caller::Session),
        Err(()) => Caller::Bad,
    }
}

/// Answers one request.
pub async fn respond(app: &App, request: Request<Incoming>) -> Answer {
    let (parts, body) = request.into_parts();
    let caller = caller(app, &parts.headers);
    if caller == Caller::Bad {
        return bad_token().into();
    }
    let Some(route) = route(&parts.method, parts.uri.path()) else {
        return not_found().into();
    };
    let authorised = match (route.access(), caller) {
        (Access::LowLevel, Caller::Anonymous) => return no_token().into(),
        (Access::LowLevel, Caller::Session(p)) if !p.low_level_api => return not_granted().into(),
        (Access::Session, Caller::Anonymous) => return no_session().into(),
        (_, Caller::Session(_)) => true,
        _ => false,
    };
    match route {
        Route::Health | Route::CheckToken => ok().into(),
        Route::Revoke => {
            if let Ok(Some(token)) = bearer(&parts.headers) {
                app.state().revoke(token);
            }
            ok().into()
        }
        Route::Authorise => match read_json(&parts.headers, body).await {
            Ok(json) => authorise(app, &json).into(),
            Err(reply) => reply.into(),
        },
        Route::Create => match read_json(&parts.headers, body).await {
            Ok(json) => create(app, &json).into(),
            Err(reply) => reply.into(),
        },
        Route::DataIdAppendable => match read_json(&parts.headers, body).await {
            Ok(json) => data_id_appendable(app, &json).into(),
            Err(reply) => reply.into(),
        },
        Route::DataIdStructured => match read_json(&parts.headers, body).await {
            Ok(json) => data_id_structured(app, &json).into(),
            Err(reply) => reply.into(),
        },
        Route::Put(h) => with_id(h, "handle", |h| done(app.state().put(h))).into(),
        Route::Post(h) => with_id(h, "handle", |h| done(app.state().post(h))).into(),
        Route::ClearData(h) => clear(app, h, State::clear_data),
        Route::ClearDeletedData(h) => clear(app, h, State::clear_deleted_data),
        Route::Metadata(h) => with_id(h, "handle", |h| match app.state().metadata(h, authorised) {
            Ok(meta) => ok_json(metadata_json(None, &meta)),
            Err(code) => core_error(code),
        })
        .into(),
        Route::GetHandle(d) => with_id(d, "data id handle", |d| {
            match app.state().fetch(d, authorised) {
                Ok((handle, meta)) => ok_json(metadata_json(Some(handle), &meta)),
                Err(code) => core_error(code),
            }
        })
        .into(),
        Route::Append(h, d) => with_id(h, "handle", |h| {
            with_id(d, "data id handle", |d| done(app.state().append(h, d)))
        })
        .into(),
        Route::RemoveAt(h, i) => with_id(h, "handle", |h| {
            with_id(i, "index", |i| done(app.state().remove_at(h, i)))
        })
        .into(),
        Route::DropHandle(h) => with_id(h, "handle", |h| done(app.state().drop_ad(h))).into(),
    }
}

fn with_id(id: Id, what: &str, then: impl FnOnce(u64) -> Reply) -> Reply {
    match id {
        Some(id) => then(id),
        None => bad_id(what),
    }
}

fn done(result: Result<(), Code>) -> Reply {
    match result {
        Ok(()) => ok(),
        Err(code) => core_error(code),
    }
}

/// The two clears, with the launcher's defect reproduced on request.
fn clear(app: &App, id: Id, operation: fn(&mut State, u64) -> Result<(), Code>) -> Answer {
    let Some(handle) = id else {
        return bad_id("handle").into();
    };
    let mut state = app.state();
    if app.hang_unknown_clears && !state.has_ad(handle) {
        return Answer::Hang;
    }
    done(operation(&mut state, handle)).into()
}

fn metadata_json(handle: Option<u64>, meta: &Metadata) -> String {
    let handle = handle
        .map(|h| format!("\"handleId\":{h},"))
        .unwrap_or_default();
    let filter_length = if handle.is_empty() {
        format!(",\"filterLength\":{}", meta.filter_length)
    } else {
        String::new()
    };
    format!(
        "{{{handle}\"isOwner\":{},\"version\":{},\"filterType\":\"{}\"{filter_length},\"dataLength\":{},\"deletedDataLength\":{}}}",
        meta.is_owner,
        meta.version,
        meta.filter_type.as_str(),
        meta.data_length,
        meta.deleted_data_length,
    )
}

fn handle_json(handle: u64) -> Reply {
    ok_json(format!("{{\"handleId\":{handle}}}"))
}

/// Reads a JSON body as Express's `bodyParser.json` did: only when the Content-Type is
/// `application/json`; otherwise (and for an empty body, or JSON that is not an object) the body
/// is an empty object. Deviations, chosen for clarity: malformed JSON is 400 `Invalid JSON body`
/// and a body over [`BODY_LIMIT`] is 413 (the launcher answered both with a confusing 404).
async fn read_json(headers: &HeaderMap, body: Incoming) -> Result<Value, Reply> {
    let is_json = headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"));
    let bytes = match Limited::new(body, BODY_LIMIT).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(error) if error.is::<http_body_util::LengthLimitError>() => {
            return Err(error_json(
                StatusCode::PAYLOAD_TOO_LARGE,
                413,
                "Request body is larger than 100 kB",
            ));
        }
        Err(_) => return Err(bad_request("Request body could not be read")),
    };
    if !is_json || bytes.is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(_) => Ok(Value::Object(Default::default())),
        Err(_) => Err(bad_request("Invalid JSON body")),
    }
}

/// JavaScript truthiness of a JSON value (`undefined` is `None`).
fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(_)) | Some(Value::Object(_)) => true,
    }
}

/// `/[^\s]/.test(value)`: whether the value, as a string, has a non-space character.
fn has_text(value: Option<&Value>) -> bool {
    match value {
        Some(Value::String(s)) => s.chars().any(|c| !c.is_whitespace()),
        Some(Value::Array(items)) => !items.is_empty(),
        _ => true,
    }
}

/// `POST /auth`: the launcher's checks, then approval at once (or denial with `--deny-auth`).
fn authorise(app: &App, body: &Value) -> Reply {
    const FIELDS: [&str; 4] = ["name", "id", "vendor", "version"];
    let info = body.get("app");
    if !truthy(info) || !FIELDS.iter().all(|f| truthy(info.and_then(|a| a.get(f)))) {
        return bad_request("Fields are missing");
    }
    if !FIELDS.iter().all(|f| has_text(info.and_then(|a| a.get(f)))) {
        return bad_request("Values cannot be empty");
    }
    let Some(requested) = body.get("permissions") else {
        return bad_request("Permission field is missing");
    };
    let Some(list) = requested.as_array().and_then(|items| {
        items
            .iter()
            .map(|item| {
                item.as_str()
                    .filter(|p| *p == LOW_LEVEL_API || *p == SAFE_DRIVE_ACCESS)
            })
            .collect::<Option<Vec<&str>>>()
    }) else {
        return bad_request("Invalid permissions requested");
    };
    if app.deny_auth {
        return reply(
            StatusCode::UNAUTHORIZED,
            HTML,
            Bytes::from_static(b"Unauthorised"),
        );
    }
    let permissions = Permissions {
        low_level_api: list.contains(&LOW_LEVEL_API),
        safe_drive_access: list.contains(&SAFE_DRIVE_ACCESS),
    };
    let token = issue_token();
    let body = format!(
        "{{\"token\":{},\"permissions\":{}}}",
        json_string(&token),
        serde_json::to_string(&list).unwrap_or_else(|_| String::from("[]"))
    );
    app.state().add_session(token, permissions);
    ok_json(body)
}

/// A token shaped like the launcher's (a JWT: three base64url parts), random and opaque.
fn issue_token() -> String {
    let header = base64url_encode(br#"{"alg":"HS256","typ":"JWT"}"#);
    let session = super::encoding::base64_encode(&random_bytes::<32>());
    let payload = base64url_encode(format!("{{\"id\":{}}}", json_string(&session)).as_bytes());
    let signature = base64url_encode(&random_bytes::<32>());
    format!("{header}.{payload}.{signature}")
}

/// The `name` field: 32 bytes in base64.
fn name_field(body: &Value) -> Result<[u8; 32], Reply> {
    let value = body.get("name");
    if !truthy(value) {
        return Err(bad_request("name field is missing"));
    }
    value
        .and_then(Value::as_str)
        .and_then(base64_decode)
        .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
        .ok_or_else(|| bad_request("Invalid name field"))
}

/// `POST /appendable-data`.
///
/// `filterType` `"WHITE_LIST"` makes a white list, anything else a black list, as the launcher
/// did. The emulator has no sign keys, so any `filterKeys` entry is an unknown sign-key handle:
/// like the launcher, it creates the handle first and then fails with -1519.
fn create(app: &App, body: &Value) -> Reply {
    let name = match name_field(body) {
        Ok(name) => name,
        Err(reply) => return reply,
    };
    let private = match body.get("isPrivate") {
        value if !truthy(value) => false,
        Some(Value::Bool(true)) => true,
        _ => return bad_request("Invalid isPrivate field"),
    };
    let filter_type = match body.get("filterType").and_then(Value::as_str) {
        Some("WHITE_LIST") => FilterType::WhiteList,
        _ => FilterType::BlackList,
    };
    let keys = body.get("filterKeys");
    let has_keys = truthy(keys) && !matches!(keys, Some(Value::Array(list)) if list.is_empty());
    let handle = app.state().create(AdKey { name, private }, filter_type);
    if has_keys {
        return core_error(Code::INVALID_SIGN_KEY_HANDLE);
    }
    handle_json(handle)
}

/// `POST /data-id/appendable-data`.
fn data_id_appendable(app: &App, body: &Value) -> Reply {
    let name = match name_field(body) {
        Ok(name) => name,
        Err(reply) => return reply,
    };
    let private = truthy(body.get("isPrivate"));
    let handle = app
        .state()
        .new_data_id(DataId::Appendable(AdKey { name, private }));
    handle_json(handle)
}

/// `POST /data-id/structured-data`; `typeTag` defaults to 501 as in the launcher.
fn data_id_structured(app: &App, body: &Value) -> Reply {
    let name = match name_field(body) {
        Ok(name) => name,
        Err(reply) => return reply,
    };
    let type_tag = match body.get("typeTag") {
        None => 501,
        Some(value) => match value.as_u64() {
            Some(tag) => tag,
            None => return bad_request("Invalid typeTag field"),
        },
    };
    let handle = app
        .state()
        .new_data_id(DataId::Structured { name, type_tag });
    handle_json(handle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_canonical_decimal_only() {
        assert_eq!(parse_id("0"), Some(0));
        assert_eq!(parse_id("7"), Some(7));
        assert_eq!(parse_id("18446744073709551615"), Some(u64::MAX));
        for bad in [
            "",
            "00",
            "010",
            "-1",
            "+1",
            "0x10",
            "12abc",
            " 1",
            "1 ",
            "%31",
            "1.0",
            "1e3",
            "18446744073709551616",
            "99999999999999999999999",
        ] {
            assert_eq!(parse_id(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn routes_under_every_prefix() {
        for prefix in ["", "/0.5", "/0.6"] {
            let r = |m: Method, p: &str| route(&m, &format!("{prefix}{p}"));
            assert_eq!(r(Method::GET, "/health"), Some(Route::Health));
            assert_eq!(
                r(Method::PUT, "/appendable-data/3"),
                Some(Route::Put(Some(3)))
            );
            assert_eq!(
                r(Method::POST, "/appendable-data/3"),
                Some(Route::Post(Some(3)))
            );
            assert_eq!(
                r(Method::DELETE, "/appendable-data/clear-data/3"),
                Some(Route::ClearData(Some(3)))
            );
            assert_eq!(
                r(Method::DELETE, "/appendable-data/clear-deleted-data/010"),
                Some(Route::ClearDeletedData(None))
            );
            assert_eq!(
                r(Method::DELETE, "/appendable-data/handle/4"),
                Some(Route::DropHandle(Some(4)))
            );
            assert_eq!(
                r(Method::DELETE, "/appendable-data/4/1"),
                Some(Route::RemoveAt(Some(4), Some(1)))
            );
            assert_eq!(
                r(Method::PUT, "/appendable-data/4/x"),
                Some(Route::Append(Some(4), None))
            );
            assert_eq!(r(Method::GET, "/appendable-data/3"), None);
            assert_eq!(r(Method::PUT, "/appendable-data/"), None);
            assert_eq!(r(Method::PUT, "/appendable-data/3/"), None);
            assert_eq!(r(Method::DELETE, "/appendable-data/clear-data/"), None);
            assert_eq!(r(Method::GET, "/health/"), None);
        }
        assert_eq!(route(&Method::GET, "/0.7/health"), None);
        assert_eq!(route(&Method::GET, "/0.5"), None);
        assert_eq!(route(&Method::GET, "/0.5health"), None);
        assert_eq!(route(&Method::GET, "//health"), None);
        assert_eq!(route(&Method::GET, "health"), None);
    }

    #[test]
    fn bearer_parsing() {
        let with = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(
                AUTHORIZATION,
                hyper::header::HeaderValue::from_str(v).unwrap(),
            );
            bearer(&h).map(|t| t.map(str::to_owned))
        };
        assert_eq!(bearer(&HeaderMap::new()), Ok(None));
        assert_eq!(with(""), Ok(None));
        assert_eq!(with("Bearer abc"), Ok(Some("abc".into())));
        assert_eq!(with("bEARER abc"), Ok(Some("abc".into())));
        for bad in [
            "Bearer",
            "Bearer ",
            "Bearer  abc",
            "Bearer a b",
            "Basic abc",
            "Bearerabc",
            "Token abc",
        ] {
            assert_eq!(with(bad), Err(()), "{bad:?}");
        }
    }

    #[test]
    fn core_errors_render_as_the_launcher_did() {
        let r = core_error(Code::NO_SUCH_DATA);
        assert_eq!(r.status, StatusCode::NOT_FOUND);
        assert_eq!(
            r.body,
            Bytes::from_static(
                br#"{"errorCode":-22,"description":"CoreError::MutationFailure::MutationError::NoSuchData"}"#
            )
        );
        assert_eq!(
            core_error(Code::DATA_EXISTS).status,
            StatusCode::BAD_REQUEST
        );
        assert_eq!(
            core_error(Code::GET_NO_SUCH_DATA).status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            core_error(Code::INVALID_AD_HANDLE).status,
            StatusCode::BAD_REQUEST
        );
    }
}
