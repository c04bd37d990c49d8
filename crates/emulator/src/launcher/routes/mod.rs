//! The emulator's HTTP surface: authorization, request bodies, and every status code and body the
//! launcher answered with, route by route. Which routes exist is `table`'s; how request values
//! were read is `js`'s; what the data does is `state`'s.
//!
//! This file holds what every route shares (the launcher's `app/server/server.js` middleware and
//! error rendering, and `controllers/auth.js`); each data family's routes are in their own file:
//! `appendable` (`controllers/appendable_data.js`), `structured` (`structured_data.js`),
//! `immutable` (`immutable_data.js`, `cipher_opts.js`), `keys` (`data_id.js` and the sign-key
//! routes).
//!
//! Order of checks for every request, as the launcher's middleware ran them:
//! 1. A present but bad `Authorization` header (malformed, unknown or revoked token) is answered
//!    401 text/plain `Unauthorized` before anything else, on every path, `/health` and unknown
//!    routes included. An absent or empty header is "anonymous".
//! 2. No route for the method and path: 404 `{"errorCode":404,"description":"Endpoint Not Found"}`.
//! 3. The route's body is read (JSON routes: a body that does not parse or is over 100 kB made the
//!    launcher fail the request, which it answered with the same 404).
//! 4. The route's access rule (`table::Access`): 401 JSON without a token, 403 JSON without
//!    `LOW_LEVEL_API`.
//! 5. The controller's own checks (body fields), then the path's parameters, converted in the
//!    order the core call took them (a parameter with no digits is a 400 naming the argument,
//!    before any handle is looked up), then the core's checks (unknown handles first).
//!
//! With `--strict-paths`, step 5 takes parameters as canonical decimal only (no sign, no leading
//! zeros, no hex): anything else is the emulator's own 400 saying so, to catch sloppy clients.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use http_body_util::BodyExt;
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderMap, AUTHORIZATION, CONTENT_LENGTH, CONTENT_TYPE};
use hyper::{Request, StatusCode};
use serde_json::Value;
use tokio::sync::Semaphore;

use crate::launcher::encoding::{base64url_encode, random_bytes};
use crate::launcher::js;
use crate::launcher::state::{Code, Permissions, State, LAST_VERSION, MAX_SESSIONS};
use crate::launcher::table::{self, Access, Body, Found, Route};

mod appendable;
mod immutable;
mod keys;
mod structured;

/// Largest JSON or form body read (Express's `body-parser` default was 100 kB).
pub(crate) const BODY_LIMIT: usize = 100 * 1024;
/// Largest raw body read by the deserialise routes (the launcher set no limit; this one keeps a
/// stray upload from filling memory).
pub(crate) const RAW_LIMIT: usize = 10 * 1024 * 1024;
/// Raw bodies read at one time hold at most this much between them; a request whose body would
/// pass it waits for room (so 500 connections sending 10 MB each cannot fill memory).
pub(crate) const RAW_IN_FLIGHT: usize = 64 * 1024 * 1024;
/// How long a request body may go without a byte before the connection is closed unanswered
/// (the launcher had no timeout at all; this is the emulator's idle timeout, the same as for
/// headers, see `server`).
pub(crate) const BODY_IDLE: Duration = Duration::from_secs(10);

const TEXT: &str = "text/plain; charset=utf-8";
const HTML: &str = "text/html; charset=utf-8";
const JSON: &str = "application/json; charset=utf-8";
pub(super) const OCTETS: &str = "application/octet-stream";

/// The permission that appendable-data writes need.
pub(crate) const LOW_LEVEL_API: &str = "LOW_LEVEL_API";
/// The other permission the launcher knew.
pub(crate) const SAFE_DRIVE_ACCESS: &str = "SAFE_DRIVE_ACCESS";

/// What the imitation tells whoever serves it, besides its answers: the launcher had nothing
/// to say (it just answered), but the emulator's own bounds are worth a word to a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Notice {
    /// [`MAX_SESSIONS`] tokens are live: `POST /auth` is denied until one is revoked. Told once.
    SessionsFull,
}

impl Notice {
    /// The words for a person, one line.
    pub(crate) fn words(self) -> String {
        match self {
            Notice::SessionsFull => format!(
                "safe-ad emulator: {MAX_SESSIONS} tokens are live, its bound: POST /auth is denied \
                 (401) until one is revoked with DELETE /auth\n"
            ),
        }
    }
}

/// Where [`Notice`]s go: the hook the server plugs in (its stderr log). Never waits.
pub(crate) type Notices = Box<dyn Fn(Notice) + Send + Sync>;

/// The shared server state and the behaviour switches.
pub(crate) struct App {
    state: Mutex<State>,
    /// Answer every valid `POST /auth` with 401 `Unauthorised`.
    pub(crate) deny_auth: bool,
    /// Never answer a clear of an unknown (but well-formed) handle.
    pub(crate) hang_unknown_clears: bool,
    /// Match paths exactly and take only canonical decimal parameters.
    pub(crate) strict_paths: bool,
    /// Whether stderr has been told that the session bound was reached.
    sessions_full: AtomicBool,
    /// Room for raw bodies being read, in KiB ([`RAW_IN_FLIGHT`]).
    raw_room: Semaphore,
    /// Where notices go.
    notices: Notices,
}

impl App {
    pub(crate) fn new(
        state: State,
        deny_auth: bool,
        hang_unknown_clears: bool,
        strict: bool,
        notices: Notices,
    ) -> App {
        App {
            state: Mutex::new(state),
            deny_auth,
            hang_unknown_clears,
            strict_paths: strict,
            sessions_full: AtomicBool::new(false),
            raw_room: Semaphore::new(RAW_IN_FLIGHT / 1024),
            notices,
        }
    }

    /// The state, even if a previous holder panicked (nothing here should, but a poisoned lock
    /// must not turn every later request into a panic).
    pub(crate) fn state(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The state as user `user`'s launcher sees it (the port a request came to): every call
    /// through it acts as that user (`State::act_as`).
    pub(crate) fn state_of(&self, user: usize) -> MutexGuard<'_, State> {
        let mut state = self.state();
        state.act_as(user);
        state
    }
}

/// An answer to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reply {
    pub(crate) status: StatusCode,
    /// Empty for no Content-Type header (Express's `send(undefined)`).
    pub(crate) content_type: &'static str,
    pub(crate) body: Bytes,
    /// Other headers (an immutable-data read's `Content-Range` and `Accept-Ranges`).
    pub(crate) headers: Vec<(&'static str, String)>,
    /// Said in the request's log line and `--log` record: where the answer is the launcher's
    /// loss of data.
    pub(crate) note: Option<&'static str>,
    /// How Express sent it: which of its headers the answer carries (see `express`).
    pub(crate) express: Express,
}

/// How the launcher's Express 4 sent an answer, which decides its own headers: every answer it
/// made carries `X-Powered-By: Express` (its `expressInit` middleware), and one whose body went
/// through `res.send` (JSON, `OK`, the errors, serialised bytes) also a weak `ETag` of the body,
/// which a `GET` matching `If-None-Match` turns into a 304 (`res.send`'s freshness check).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Express {
    /// Through `res.send`: `X-Powered-By` and `ETag`.
    Send,
    /// Written by hand (`res.writeHead`, the immutable-data read): `X-Powered-By` only.
    Written,
    /// Not the launcher's answer (the emulator's own routes and refusals): neither.
    Not,
}

/// What to do with a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    Reply(Reply),
    /// Never answer (the launcher's defect with clears of unknown handles).
    Hang,
    /// Close the connection unanswered: the body stopped coming ([`BODY_IDLE`]).
    TimedOut,
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
        headers: Vec::new(),
        note: None,
        express: Express::Send,
    }
}

/// 200 text/plain `OK`, the launcher's success answer without data.
fn ok() -> Reply {
    reply(StatusCode::OK, TEXT, Bytes::from_static(b"OK"))
}

fn ok_json(body: String) -> Reply {
    reply(StatusCode::OK, JSON, body)
}

fn ok_bytes(body: Vec<u8>) -> Reply {
    if body.is_empty() {
        // `res.send(undefined)`: an empty 200 without a Content-Type.
        return reply(StatusCode::OK, "", Bytes::new());
    }
    reply(StatusCode::OK, OCTETS, body)
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

/// The launcher's own validation errors, and JavaScript exceptions: status 400, errorCode 400.
fn bad_request(description: &str) -> Reply {
    error_json(StatusCode::BAD_REQUEST, 400, description)
}

/// The description the launcher gave a core error code (its `error_code_lookup`).
pub(crate) fn describe(code: Code) -> &'static str {
    match code.0 {
        -2 => "CoreError::UnsuccessfulEncodeDecode",
        -5 => "CoreError::ReceivedUnexpectedData",
        -11 => "CoreError::RoutingError",
        -18 => "CoreError::GetFailure::GetError::NoSuchData",
        -22 => "CoreError::MutationFailure::MutationError::NoSuchData",
        -23 => "CoreError::MutationFailure::MutationError::DataExists",
        -25 => "CoreError::MutationFailure::MutationError::InvalidSuccessor",
        -26 => "CoreError::MutationFailure::MutationError::InvalidOperation",
        -28 => "CoreError::MutationFailure::MutationError::NetworkFull",
        -29 => "CoreError::MutationFailure::MutationError::DataTooLarge",
        -1510 => "FfiError::Unexpected",
        -1511 => "FfiError::UnsuccessfulEncodeDecode",
        -1513 => "FfiError::InvalidStructDataHandle",
        -1514 => "FfiError::InvalidDataIdHandle",
        -1515 => "FfiError::InvalidAppendableDataHandle",
        -1516 => "FfiError::InvalidSelfEncryptorHandle",
        -1517 => "FfiError::InvalidCipherOptHandle",
        -1518 => "FfiError::InvalidEncryptKeyHandle",
        -1519 => "FfiError::InvalidSignKeyHandle",
        -1520 => "FfiError::OperationForbiddenForApp",
        -1521 => "FfiError::InvalidStructuredDataTypeTag",
        -1522 => "FfiError::InvalidVersionNumber",
        -1523 => "FfiError::InvalidSelfEncryptorReadOffsets",
        -1524 => "FfiError::InvalidIndex",
        -1525 => "FfiError::UnsupportedOperation",
        _ => "Unexpected error",
    }
}

/// The emulator's answer to a save past [`LAST_VERSION`] ([`Code::VERSION_LIMIT`]): the
/// launcher had none (it saved on to 2^64 - 1, then overflowed), so it is answered as the
/// emulator's other own refusals are, status 400 and errorCode 400, with words that name the
/// limit: a client tells it from -25, which would send its user looking for someone who saved.
fn version_limit() -> Reply {
    bad_request(&format!(
        "Version limit: this save would pass {LAST_VERSION}, the last version a save reaches in \
         safe-ad emulator (a --state file holds no later one); nothing was saved"
    ))
}

/// A core error as the launcher sent it: 404 when the description names NotFound, NoSuchData
/// or InvalidPath, 400 otherwise; the emulator's own [`Code::VERSION_LIMIT`] as its own
/// refusals are.
pub(crate) fn core_error(code: Code) -> Reply {
    if code == Code::VERSION_LIMIT {
        return version_limit();
    }
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

fn not_granted() -> Reply {
    reply(
        StatusCode::FORBIDDEN,
        JSON,
        Bytes::from_static(
            br#"{"errorCode":400,"description":"Low level api access is not granted"}"#,
        ),
    )
}

/// `--strict-paths`' answer to a parameter that is not a plain decimal u64. The launcher had
/// none (it read parameters with `strtoull`); status 400 and errorCode 400, its code for its own
/// validation errors, with a description that says what was wrong.
fn bad_id(what: &str) -> Reply {
    bad_request(&format!(
        "Invalid {what}: expected plain decimal digits, 0 to 18446744073709551615, no sign and no leading zeros (safe-ad emulator --strict-paths)"
    ))
}

/// A handle or index in `--strict-paths` mode: canonical decimal only (`0`, `7`,
/// `18446744073709551615`). Empty, signs, leading zeros, hex, spaces, escapes and anything above
/// u64 are `None`.
pub(crate) fn parse_id(segment: &str) -> Option<u64> {
    let bytes = segment.as_bytes();
    let first = *bytes.first()?;
    if !bytes.iter().all(u8::is_ascii_digit) || (first == b'0' && bytes.len() > 1) {
        return None;
    }
    segment.parse::<u64>().ok()
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
pub(crate) fn bearer(headers: &HeaderMap) -> Result<Option<&str>, ()> {
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

/// Who is calling user `user`'s launcher: a token is a session of that launcher only.
fn caller(app: &App, headers: &HeaderMap, user: usize) -> Caller {
    match bearer(headers) {
        Ok(None) => Caller::Anonymous,
        Ok(Some(token)) => app
            .state_of(user)
            .session(token)
            .map_or(Caller::Bad, Caller::Session),
        Err(()) => Caller::Bad,
    }
}

/// A request body as the route's parser left it.
enum Payload {
    None,
    Json(Value),
    Raw(Bytes),
}

/// Answers one request that came to user `user`'s launcher (its place in the roster: the port it
/// came to).
pub(crate) async fn respond(app: &App, request: Request<Incoming>, user: usize) -> Answer {
    let (parts, body) = request.into_parts();
    let caller = caller(app, &parts.headers, user);
    if caller == Caller::Bad {
        return bad_token().into();
    }
    let Some(found) = table::find(&parts.method, parts.uri.path(), app.strict_paths) else {
        return not_found().into();
    };
    // Held until the answer is made: a raw body's room is taken until it is no longer needed.
    let mut _room = None;
    let payload = match found.def.body {
        Body::None => Payload::None,
        Body::Json => match read_body(body, BODY_LIMIT).await {
            Ok(bytes) => match json_body(&parts.headers, &bytes) {
                Some(value) => Payload::Json(value),
                None => return not_found().into(),
            },
            Err(Unread::TimedOut) => return Answer::TimedOut,
            Err(Unread::TooLarge) => return not_found().into(),
        },
        Body::Raw => {
            let announced = parts
                .headers
                .get(CONTENT_LENGTH)
                .and_then(|value| value.to_str().ok()?.parse::<usize>().ok())
                .unwrap_or(RAW_LIMIT)
                .min(RAW_LIMIT);
            let kib = u32::try_from(announced.div_ceil(1024).max(1)).unwrap_or(u32::MAX);
            _room = app.raw_room.acquire_many(kib).await.ok();
            match read_body(body, RAW_LIMIT).await {
                Ok(bytes) => Payload::Raw(bytes),
                Err(Unread::TimedOut) => return Answer::TimedOut,
                Err(Unread::TooLarge) => return not_found().into(),
            }
        }
    };
    let authorised = match (found.def.access, caller) {
        (Access::LowLevel, Caller::Anonymous) => return no_token().into(),
        (Access::LowLevel, Caller::Session(p)) if !p.low_level_api => return not_granted().into(),
        (Access::Session(description), Caller::Anonymous) => {
            return error_json(StatusCode::UNAUTHORIZED, 400, description).into()
        }
        (_, Caller::Session(_)) => true,
        _ => false,
    };
    let call = Call {
        app,
        user,
        found: &found,
        authorised,
        low_level: matches!(caller, Caller::Session(p) if p.low_level_api),
        headers: &parts.headers,
        payload: &payload,
    };
    match found.def.route {
        Route::ClearData => call.clear(State::clear_data),
        Route::ClearDeletedData => call.clear(State::clear_deleted_data),
        Route::Revoke => {
            if let Ok(Some(token)) = bearer(&parts.headers) {
                app.state_of(user).revoke(token);
            }
            ok().into()
        }
        _ => call.run().unwrap_or_else(|r| r).into(),
    }
}

/// Why a body was not read.
pub(crate) enum Unread {
    /// Over the route's limit, or broken off (the launcher failed the request: its 404).
    TooLarge,
    /// No byte came for [`BODY_IDLE`].
    TimedOut,
}

/// A whole body of at most `limit` bytes, each part within [`BODY_IDLE`] of the last.
pub(crate) async fn read_body(mut body: Incoming, limit: usize) -> Result<Bytes, Unread> {
    let mut parts: Vec<Bytes> = Vec::new();
    let mut length = 0;
    loop {
        let frame = match tokio::time::timeout(BODY_IDLE, body.frame()).await {
            Err(_) => return Err(Unread::TimedOut),
            Ok(None) => break,
            Ok(Some(Err(_))) => return Err(Unread::TooLarge),
            Ok(Some(Ok(frame))) => frame,
        };
        if let Ok(data) = frame.into_data() {
            length += data.len();
            if length > limit {
                return Err(Unread::TooLarge);
            }
            parts.push(data);
        }
    }
    Ok(match parts.len() {
        0 => Bytes::new(),
        1 => parts.swap_remove(0),
        _ => Bytes::from(parts.concat()),
    })
}

/// Reads a JSON route's body as the launcher's parsers did: JSON (any value) when the
/// Content-Type is `application/json`; a form when it is `application/x-www-form-urlencoded`
/// (values are strings); otherwise, and for an empty body, an empty object. `None` when the body
/// does not parse: the launcher failed such requests (and bodies over [`BODY_LIMIT`]) with its
/// 404.
fn json_body(headers: &HeaderMap, bytes: &[u8]) -> Option<Value> {
    let mime = headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .map(|mime| mime.trim().to_ascii_lowercase());
    let empty = Value::Object(Default::default());
    match mime.as_deref() {
        _ if bytes.is_empty() => Some(empty),
        Some("application/json") => serde_json::from_slice::<Value>(bytes).ok(),
        Some("application/x-www-form-urlencoded") => Some(form(bytes)),
        _ => Some(empty),
    }
}

/// A urlencoded form as Node's `querystring.parse`: `+` is a space, a repeated key gives an
/// array, and a malformed escape is kept as written.
fn form(bytes: &[u8]) -> Value {
    let text = String::from_utf8_lossy(bytes);
    let decode = |part: &str| {
        let spaced = part.replace('+', " ");
        table::percent_decode(&spaced).unwrap_or(spaced)
    };
    let mut object = serde_json::Map::new();
    for pair in text.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let (key, value) = (decode(key), Value::String(decode(value)));
        match object.get_mut(&key) {
            Some(Value::Array(values)) => values.push(value),
            Some(first) => *first = Value::Array(vec![first.take(), value]),
            None => {
                object.insert(key, value);
            }
        }
    }
    Value::Object(object)
}

/// `body.<key>` in JavaScript: a field of an object, `undefined` on other values, and the
/// TypeError a `null` body raised.
fn prop<'a>(body: &'a Value, key: &str) -> Result<Option<&'a Value>, Reply> {
    match body {
        Value::Object(fields) => Ok(fields.get(key)),
        Value::Null => Err(bad_request(&format!(
            "Cannot read property '{key}' of null"
        ))),
        _ => Ok(None),
    }
}

/// The values a `for (const key of keys)` loop over a body field visited; the TypeError it
/// raised for a value that is not iterable.
fn iterate(value: &Value, name: &str) -> Result<Vec<Value>, Reply> {
    match value {
        Value::Array(items) => Ok(items.clone()),
        Value::String(text) => Ok(text.chars().map(|c| Value::String(c.into())).collect()),
        _ => Err(bad_request(&format!(
            "{name}[Symbol.iterator] is not a function"
        ))),
    }
}

fn to_reply(code: Code) -> Reply {
    core_error(code)
}

fn done(result: Result<(), Code>) -> Result<Reply, Reply> {
    result.map(|()| ok()).map_err(to_reply)
}

fn handle_json(handle: u64) -> Reply {
    ok_json(format!("{{\"handleId\":{handle}}}"))
}

fn valid_json(valid: bool) -> Reply {
    ok_json(format!("{{\"isValid\":{valid}}}"))
}

/// One request being answered: the matched route, the caller and the body.
struct Call<'a> {
    app: &'a App,
    /// The user whose launcher the request came to.
    user: usize,
    found: &'a Found<'a>,
    authorised: bool,
    /// The caller's token carries `LOW_LEVEL_API`.
    low_level: bool,
    headers: &'a HeaderMap,
    payload: &'a Payload,
}

impl Call<'_> {
    /// Path parameter `index` given to the core as argument number `position`.
    fn id(&self, index: usize, position: usize, what: &str) -> Result<u64, Reply> {
        let text = self.found.param(index).unwrap_or("");
        if self.app.strict_paths {
            parse_id(text).ok_or_else(|| bad_id(what))
        } else {
            js::u64_arg(text, position).map_err(|e| bad_request(&e))
        }
    }

    fn json(&self) -> &Value {
        static EMPTY: Value = Value::Null;
        match self.payload {
            Payload::Json(value) => value,
            _ => &EMPTY,
        }
    }

    fn raw(&self) -> &[u8] {
        match self.payload {
            Payload::Raw(bytes) => bytes,
            _ => &[],
        }
    }

    /// The state, acting as the caller's user.
    fn state(&self) -> MutexGuard<'_, State> {
        self.app.state_of(self.user)
    }

    /// The two clears, with the launcher's defect reproduced on request.
    fn clear(&self, operation: fn(&mut State, u64) -> Result<(), Code>) -> Answer {
        let handle = match self.id(0, 0, "handle") {
            Ok(handle) => handle,
            Err(reply) => return reply.into(),
        };
        let mut state = self.state();
        if self.app.hang_unknown_clears && !state.has_ad(handle) {
            return Answer::Hang;
        }
        done(operation(&mut state, handle))
            .unwrap_or_else(|r| r)
            .into()
    }

    fn run(&self) -> Result<Reply, Reply> {
        match self.found.def.route {
            Route::Health | Route::CheckToken => Ok(ok()),
            Route::Authorise => Ok(authorise(self.app, self.json(), self.user)),
            // Answered in `respond`.
            Route::Revoke | Route::ClearData | Route::ClearDeletedData => Ok(ok()),
            Route::DataIdStructured
            | Route::DataIdAppendable
            | Route::DataIdSerialise
            | Route::DataIdDeserialise
            | Route::DataIdDrop
            | Route::SignKey
            | Route::SignKeySerialise
            | Route::SignKeyDeserialise
            | Route::SignKeyDrop => self.keys(),
            Route::SdCreate
            | Route::SdDeserialise
            | Route::SdPost
            | Route::SdMetadata
            | Route::SdGetHandle
            | Route::SdDataId
            | Route::SdSerialise
            | Route::SdValidateSize
            | Route::SdRead
            | Route::SdPut
            | Route::SdUpdate
            | Route::SdDrop
            | Route::SdUnclaim
            | Route::SdDelete => self.structured(),
            Route::CipherOpts
            | Route::CipherOptsDrop
            | Route::ReaderOpen
            | Route::WriterOpen
            | Route::ImmutableRead
            | Route::ImmutableWrite
            | Route::WriterClose
            | Route::ReaderDrop
            | Route::WriterDrop => self.immutable(),
            _ => self.appendable(),
        }
    }
}

/// `POST /auth`: the launcher's checks, then approval at once (or denial with `--deny-auth`), a
/// session of user `user`'s launcher.
fn authorise(app: &App, body: &Value, user: usize) -> Reply {
    const FIELDS: [&str; 4] = ["name", "id", "vendor", "version"];
    let field = |key: &str| match body {
        Value::Object(fields) => fields.get(key),
        _ => None,
    };
    let info = field("app");
    let app_field = |f: &str| info.and_then(|a| a.get(f));
    if !js::truthy(info) || !FIELDS.iter().all(|f| js::truthy(app_field(f))) {
        return bad_request("Fields are missing");
    }
    if !FIELDS.iter().all(|f| js::has_text(app_field(f))) {
        return bad_request("Values cannot be empty");
    }
    let Some(requested) = field("permissions") else {
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
    let denied = || {
        reply(
            StatusCode::UNAUTHORIZED,
            HTML,
            Bytes::from_static(b"Unauthorised"),
        )
    };
    if app.deny_auth {
        return denied();
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
    if !app.state_of(user).add_session(token, permissions) {
        if !app.sessions_full.swap(true, Ordering::Relaxed) {
            (app.notices)(Notice::SessionsFull);
        }
        return denied();
    }
    ok_json(body)
}

/// A token shaped like the launcher's (a JWT: three base64url parts), random and opaque.
fn issue_token() -> String {
    let header = base64url_encode(br#"{"alg":"HS256","typ":"JWT"}"#);
    let session = crate::launcher::encoding::base64_encode(&random_bytes::<32>());
    let payload = base64url_encode(format!("{{\"id\":{}}}", json_string(&session)).as_bytes());
    let signature = base64url_encode(&random_bytes::<32>());
    format!("{header}.{payload}.{signature}")
}

#[cfg(test)]
mod tests;
