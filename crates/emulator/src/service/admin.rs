//! The emulator's own routes, under [`PREFIX`] (`/_emulator/`): what a CI job needs to look inside
//! a running emulator and to put it back between tests, as wiremock's `/__admin` does. The
//! launcher served nothing under this prefix, so no launcher route changes.
//!
//! They answer only a request that carries the emulator's own token (the one it printed, not one
//! from `POST /auth`; with several users, the token each user's launcher was started with, on
//! that user's port) in a well-formed `Authorization: Bearer` header, and match paths exactly.
//! Any other request under the prefix goes on as every request does, and gets what an unknown
//! route gets: 401 `Unauthorized` for a bad token, the launcher's 404 otherwise. A request with
//! the token is answered even after a client revoked that token with `DELETE /auth`.
//!
//! - `GET /_emulator/requests[?method=M&path=P]`: the journal, the `--log` records of the
//!   requests answered so far (the emulator's own routes left out), one JSON object per line, in
//!   the order they were logged. `method` matches in any case; `path` matches the record's path
//!   exactly, or, ending in `*`, as a prefix. Older requests beyond [`JOURNAL_BYTES`] are dropped,
//!   counted in the `safe-ad-journal-dropped` header.
//!   Each record has its `seq` (see [`Journal`]).
//! - `DELETE /_emulator/requests[?through=SEQ]`: empties the journal (up to and including
//!   request `SEQ`, so that what came after a read is kept); `{"cleared":N}`.
//! - `GET /_emulator/network`: what is on the network, in the `--state` file's format (with the
//!   users and their keys).
//! - `GET /_emulator/handles`: every live handle of each type with what it holds, in the
//!   launcher of the user whose port it came to.
//! - `POST /_emulator/reset/empty`, `.../reset/demo`, `.../reset/state` (with a `--state` file's
//!   content as the body): every user's launcher as it starts from that: no handles, ids counted
//!   from the start, only the emulator's own tokens; the journal is emptied too. The users stay
//!   (each is a port, fixed at the start), with their keys, or those the body gives them by
//!   name; a body that names another user is refused.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};

use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, StatusCode};
use serde_json::{json, Value};

use crate::launcher::demo::{self, Origin};
use crate::launcher::encoding::base64_encode;
use crate::launcher::routes::Express;
use crate::launcher::routes::{bearer, read_body, Answer, App, Reply, Unread};
use crate::launcher::state::{keep, DataId, User};
use crate::launcher::table::percent_decode;
use crate::launcher::wire::{ad_json, data_id_json, sd_json, Network};
use crate::service::fixture::STATE_LIMIT;
use crate::service::log::Request as Logged;

/// The path prefix of the emulator's own routes.
pub(crate) const PREFIX: &str = "/_emulator";

/// The most the journal holds (see [`Logged::size`]); the oldest requests are dropped beyond
/// it: about 75,000 requests with the usual paths.
pub(crate) const JOURNAL_BYTES: usize = 16 * 1024 * 1024;

const JSON: &str = "application/json; charset=utf-8";
const JSON_LINES: &str = "application/x-ndjson; charset=utf-8";

/// The routes, as the 404 for a path under the prefix lists them.
const ROUTES: &str = "GET /_emulator/requests?method=M&path=P, \
DELETE /_emulator/requests?through=SEQ, GET /_emulator/network, GET /_emulator/handles, \
POST /_emulator/reset/empty, POST /_emulator/reset/demo, POST /_emulator/reset/state \
(body: a --state file)";

/// The requests answered so far, for `GET /_emulator/requests`: kept as they are, and made into
/// their `--log` records only when asked for, so that keeping them costs serving little. Each is
/// numbered as it is kept (`seq`: 1, 2, ... for the whole run, never reused: a clear or a reset
/// empties the journal but does not restart the count), so `safe-ad emulator requests --since`
/// can ask for what came after a record it saw.
#[derive(Debug, Default)]
pub(crate) struct Journal {
    entries: Mutex<Entries>,
}

#[derive(Debug, Default)]
struct Entries {
    list: VecDeque<Logged>,
    bytes: usize,
    dropped: u64,
    /// The `seq` of the last request kept.
    last: u64,
}

impl Journal {
    fn entries(&self) -> MutexGuard<'_, Entries> {
        self.entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Keeps one request, numbered; `record` sees it numbered (for its `--log` record) while it
    /// is kept, so that records reach the log in `seq` order.
    pub(crate) fn push(&self, mut request: Logged, record: impl FnOnce(&Logged)) {
        let mut entries = self.entries();
        entries.last += 1;
        request.seq = Some(entries.last);
        record(&request);
        entries.bytes += request.size();
        entries.list.push_back(request);
        while entries.bytes > JOURNAL_BYTES {
            let Some(old) = entries.list.pop_front() else {
                break;
            };
            entries.bytes -= old.size();
            entries.dropped += 1;
        }
    }

    /// Empties it up to and including `seq` `through` (all of it when `None`); how many requests
    /// it removed. The count of dropped requests goes with them: those were older still.
    fn clear(&self, through: Option<u64>) -> usize {
        let mut entries = self.entries();
        let before = entries.list.len();
        let through = through.unwrap_or(u64::MAX);
        while entries
            .list
            .front()
            .is_some_and(|first| first.seq.unwrap_or(0) <= through)
        {
            if let Some(old) = entries.list.pop_front() {
                entries.bytes -= old.size();
            }
        }
        entries.dropped = 0;
        before - entries.list.len()
    }

    /// The records of the requests that pass `filter`, one per line, and how many older ones
    /// were dropped.
    fn select(&self, filter: &Filter) -> (String, u64) {
        let entries = self.entries();
        let mut out = String::new();
        for request in entries.list.iter().filter(|request| filter.passes(request)) {
            out.push_str(&request.record());
        }
        (out, entries.dropped)
    }
}

/// `?through=SEQ` of `DELETE /_emulator/requests`: the last `seq` to clear.
fn parse_through(query: Option<&str>) -> Result<Option<u64>, String> {
    let mut through = None;
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some(("through", value)) if through.is_none() => {
                through = Some(value.parse::<u64>().map_err(|_| {
                    format!("`through={value}`: expected the seq number of a request")
                })?);
            }
            Some(("through", _)) => return Err("`through` is given twice".into()),
            _ => {
                return Err(format!(
                    "unknown query parameter `{pair}`: a clear takes only `through=SEQ` (the \
                     last request to clear)"
                ))
            }
        }
    }
    Ok(through)
}

/// `?method=M&path=P` of `GET /_emulator/requests`.
#[derive(Debug, Default, PartialEq, Eq)]
struct Filter {
    method: Option<String>,
    path: Option<String>,
}

impl Filter {
    /// Reads the query (`+` is a space, escapes decoded); an unknown or repeated key, or an escape
    /// that does not decode, is an error saying so.
    fn parse(query: Option<&str>) -> Result<Filter, String> {
        let mut filter = Filter::default();
        for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = percent_decode(&value.replace('+', " "))
                .ok_or_else(|| format!("`{value}` is not a valid percent-encoded value"))?;
            let slot = match key {
                "method" => &mut filter.method,
                "path" => &mut filter.path,
                _ => {
                    return Err(format!(
                        "unknown query parameter `{key}`: the journal is filtered by `method` \
                         and `path` (a trailing * matches any rest)"
                    ))
                }
            };
            if slot.replace(value).is_some() {
                return Err(format!("`{key}` is given twice"));
            }
        }
        Ok(filter)
    }

    fn passes(&self, request: &Logged) -> bool {
        let method = self
            .method
            .as_deref()
            .is_none_or(|method| request.method.as_str().eq_ignore_ascii_case(method));
        let path = self
            .path
            .as_deref()
            .is_none_or(|path| match path.strip_suffix('*') {
                Some(prefix) => request.path.starts_with(prefix),
                None => request.path == path,
            });
        method && path
    }
}

/// The emulator's own routes: the journal and the tokens that open them.
#[derive(Debug)]
pub(crate) struct Admin {
    /// The emulator's own tokens: each user's launcher's, by its place in the roster.
    tokens: Vec<String>,
    pub(crate) journal: Journal,
}

/// What an admin request did: its answer, the reset it made, if any (the server then counts
/// faults from the start again and logs the reset), and for the journal, how many of its older
/// records were dropped (the server sends that as a header).
pub(crate) struct Handled {
    pub(crate) answer: Answer,
    pub(crate) reset: Option<&'static str>,
    pub(crate) dropped: Option<u64>,
}

impl From<Reply> for Handled {
    fn from(reply: Reply) -> Handled {
        Handled {
            answer: Answer::Reply(reply),
            reset: None,
            dropped: None,
        }
    }
}

impl Admin {
    pub(crate) fn new(tokens: Vec<String>) -> Admin {
        Admin {
            tokens,
            journal: Journal::default(),
        }
    }

    /// Whether a request that came to user `user`'s port is for these routes: under the prefix,
    /// with the token that user's launcher was started with.
    pub(crate) fn takes(&self, request: &Request<Incoming>, user: usize) -> bool {
        let path = request.uri().path();
        let under = path
            .strip_prefix(PREFIX)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
        let Some(own) = self.tokens.get(user) else {
            return false;
        };
        under
            && matches!(bearer(request.headers()), Ok(Some(token)) if same(token.as_bytes(), own.as_bytes()))
    }

    /// Answers a request that [`Admin::takes`], which came to user `user`'s port.
    pub(crate) async fn respond(
        &self,
        app: &App,
        request: Request<Incoming>,
        user: usize,
    ) -> Handled {
        let (parts, body) = request.into_parts();
        let path = parts.uri.path();
        let route = path.strip_prefix(PREFIX).unwrap_or("");
        match (&parts.method, route) {
            (&Method::GET, "/requests") => match Filter::parse(parts.uri.query()) {
                Ok(filter) => {
                    let (records, dropped) = self.journal.select(&filter);
                    Handled {
                        dropped: Some(dropped),
                        ..reply(StatusCode::OK, JSON_LINES, records).into()
                    }
                }
                Err(problem) => bad_request(&problem).into(),
            },
            (&Method::DELETE, "/requests") => match parse_through(parts.uri.query()) {
                Ok(through) => {
                    let cleared = self.journal.clear(through);
                    reply(StatusCode::OK, JSON, format!("{}\n", json!({ "cleared": cleared })))
                        .into()
                }
                Err(problem) => bad_request(&problem).into(),
            },
            (&Method::GET, "/network") => {
                let state = app.state();
                let (ads, sds, ids) = state.network();
                let network = Network {
                    appendable_data: ads.into_iter().cloned().collect(),
                    structured_data: sds.into_iter().cloned().collect(),
                    immutable_data: ids.into_iter().cloned().collect(),
                    users: state.users(),
                };
                drop(state);
                state_file(&network).into()
            }
            (&Method::GET, "/handles") => reply(StatusCode::OK, JSON, handles(app, user)).into(),
            (&Method::POST, "/reset/empty") => {
                let users = app.state().users();
                self.reset(app, Origin::Empty, users)
            }
            (&Method::POST, "/reset/demo") => {
                let users = app.state().users();
                self.reset(app, Origin::Demo, users)
            }
            (&Method::POST, "/reset/state") => {
                let bytes = match read_body(body, STATE_LIMIT as usize).await {
                    Ok(bytes) => bytes,
                    Err(Unread::TimedOut) => {
                        return Handled {
                            answer: Answer::TimedOut,
                            reset: None,
                            dropped: None,
                        }
                    }
                    Err(Unread::TooLarge) => {
                        return bad_request(&format!(
                            "the body is not a whole state of at most {} MiB",
                            STATE_LIMIT >> 20
                        ))
                        .into()
                    }
                };
                let running = app.state().users();
                match crate::launcher::wire::parse_state(&bytes, &|known| keep(&running, known)) {
                    Ok(network) => {
                        let users = network.users.clone();
                        self.reset(app, Origin::Network(network), users)
                    }
                    Err(problem) => bad_request(&format!(
                        "the body is not a --state file ({problem}); nothing was reset"
                    ))
                    .into(),
                }
            }
            _ => reply(
                StatusCode::NOT_FOUND,
                JSON,
                json!({
                    "errorCode": 404,
                    "description": format!("Endpoint Not Found; the emulator's own routes are {ROUTES}"),
                })
                .to_string(),
            )
            .into(),
        }
    }

    /// Puts every user's launcher back to how it starts from `origin`, `users` with their keys,
    /// and empties the journal.
    fn reset(&self, app: &App, origin: Origin, users: Vec<User>) -> Handled {
        let to = origin.name();
        let fresh = demo::fresh(origin, users, &self.tokens);
        *app.state() = fresh;
        self.journal.clear(None);
        Handled {
            answer: Answer::Reply(reply(
                StatusCode::OK,
                JSON,
                format!("{}\n", json!({ "reset": to })),
            )),
            reset: Some(to),
            dropped: None,
        }
    }
}

/// Compares two tokens in time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn reply(status: StatusCode, content_type: &'static str, body: impl Into<Bytes>) -> Reply {
    Reply {
        status,
        content_type,
        body: body.into(),
        headers: Vec::new(),
        note: None,
        express: Express::Not,
    }
}

/// The launcher's shape for its own errors: 400, `errorCode` 400.
fn bad_request(description: &str) -> Reply {
    reply(
        StatusCode::BAD_REQUEST,
        JSON,
        json!({ "errorCode": 400, "description": description }).to_string(),
    )
}

/// A network as the `--state` file holds it, byte for byte as a save writes it.
fn state_file(network: &Network) -> Reply {
    match serde_json::to_string_pretty(&network.to_file()) {
        Ok(mut text) => {
            text.push('\n');
            reply(StatusCode::OK, JSON, text)
        }
        Err(error) => bad_request(&error.to_string()),
    }
}

/// `{"nextHandle":N,"appendableData":[{"handle":0,...the --state form of its local copy...,
/// "onNetwork":1}],"structuredData":[...],"dataId":[{"handle":3,"appendableData":{...}}],
/// "signKey":[{"handle":7,"signKey":"...","user":true}],"encryptKey":[{"handle":9,
/// "appendableData":{...}}],"cipherOpts":[{"handle":8,"cipher":"PLAIN"}],
/// "immutableDataWriter":[{"handle":10,"written":11}],"immutableDataReader":[{"handle":12,
/// "name":"...","size":11}]}`.
fn handles(app: &App, user: usize) -> String {
    let state = app.state_of(user);
    let users = state.users();
    let me = state.me().key;
    let handles = state.handles();
    let with_handle = |handle: u64, value: Value| -> Value {
        let mut object = serde_json::Map::new();
        object.insert("handle".into(), handle.into());
        if let Value::Object(fields) = value {
            object.extend(fields);
        }
        Value::Object(object)
    };
    let to_value = |value: Result<Value, serde_json::Error>| value.unwrap_or(Value::Null);
    let appendable: Vec<Value> = handles
        .appendable_data
        .iter()
        .map(|(handle, ad)| {
            let json = ad_json(ad, &users);
            let mut value = with_handle(*handle, to_value(serde_json::to_value(json)));
            value["onNetwork"] = state
                .stored(&ad.key)
                .map_or(Value::Null, |stored| stored.version.into());
            value
        })
        .collect();
    let structured: Vec<Value> = handles
        .structured_data
        .iter()
        .map(|(handle, sd)| with_handle(*handle, to_value(serde_json::to_value(sd_json(sd)))))
        .collect();
    let data_ids: Vec<Value> = handles
        .data_id
        .iter()
        .map(|(handle, id)| with_handle(*handle, to_value(serde_json::to_value(data_id_json(id)))))
        .collect();
    let sign_keys: Vec<Value> = handles
        .sign_key
        .iter()
        .map(|(handle, key)| {
            json!({ "handle": handle, "signKey": base64_encode(*key), "user": **key == me })
        })
        .collect();
    let encrypt_keys: Vec<Value> = handles
        .encrypt_key
        .iter()
        .map(|(handle, key)| {
            let id = DataId::Appendable(**key);
            with_handle(*handle, to_value(serde_json::to_value(data_id_json(&id))))
        })
        .collect();
    let cipher_opts: Vec<Value> = handles
        .cipher_opts
        .iter()
        .map(|(handle, cipher)| json!({ "handle": handle, "cipher": cipher.as_str() }))
        .collect();
    let writers: Vec<Value> = handles
        .writers
        .iter()
        .map(|(handle, writer)| json!({ "handle": handle, "written": writer.written.len() }))
        .collect();
    let readers: Vec<Value> = handles
        .readers
        .iter()
        .map(|(handle, reader)| {
            json!({ "handle": handle, "name": base64_encode(&reader.name), "size": reader.content.len() })
        })
        .collect();
    let mut text = json!({
        "nextHandle": handles.next,
        "appendableData": appendable,
        "structuredData": structured,
        "dataId": data_ids,
        "signKey": sign_keys,
        "encryptKey": encrypt_keys,
        "cipherOpts": cipher_opts,
        "immutableDataWriter": writers,
        "immutableDataReader": readers,
    })
    .to_string();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(method: Method, path: &str) -> Logged {
        Logged {
            seq: None,
            user: None,
            method,
            path: path.to_owned(),
            effect: None,
            status: Some(200),
            error: None,
            not_on_network: false,
            elapsed: std::time::Duration::ZERO,
            note: crate::service::log::Note::None,
            live: Default::default(),
        }
    }

    #[test]
    fn the_journal_filter_reads_method_and_path() {
        assert_eq!(Filter::parse(None), Ok(Filter::default()));
        let filter = Filter::parse(Some("method=put&path=%2Fappendable-data%2F*")).unwrap();
        assert!(filter.passes(&entry(Method::PUT, "/appendable-data/5")));
        assert!(!filter.passes(&entry(Method::POST, "/appendable-data/5")));
        assert!(!filter.passes(&entry(Method::PUT, "/sign-key/5")));
        let exact = Filter::parse(Some("path=/appendable-data/5")).unwrap();
        assert!(exact.passes(&entry(Method::GET, "/appendable-data/5")));
        assert!(!exact.passes(&entry(Method::GET, "/appendable-data/50")));
        for bad in ["status=200", "path=/a&path=/b", "path=%zz", "METHOD=GET"] {
            assert!(Filter::parse(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_journal_drops_its_oldest_records_beyond_its_bound() {
        let journal = Journal::default();
        // Each request takes exactly 1 MiB, its path with the rest.
        let mut request = entry(Method::GET, "");
        request.path = "/".repeat(1024 * 1024 - request.size());
        assert_eq!(request.size(), 1024 * 1024);
        for _ in 0..20 {
            journal.push(request.clone(), |_| {});
        }
        let (all, dropped) = journal.select(&Filter::default());
        assert_eq!(dropped, 4);
        assert_eq!(all.lines().count(), 16);
        assert!(all.starts_with("{\"event\":\"request\",\"seq\":5,\"method\":\"GET\""));
        assert_eq!(journal.clear(Some(6)), 2);
        assert_eq!(
            journal.select(&Filter::default()),
            (all.lines().skip(2).map(|l| format!("{l}\n")).collect(), 0)
        );
        assert_eq!(journal.clear(None), 14);
        assert_eq!(journal.select(&Filter::default()).0, "");
        // Numbers go on after a clear.
        let mut seen = None;
        journal.push(entry(Method::GET, "/a"), |r| seen = r.seq);
        assert_eq!(seen, Some(21));
    }

    #[test]
    fn a_clear_reads_through() {
        assert_eq!(parse_through(None), Ok(None));
        assert_eq!(parse_through(Some("through=12")), Ok(Some(12)));
        for bad in ["through=x", "through=1&through=2", "all=1"] {
            assert!(parse_through(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(same(b"abc", b"abc"));
        assert!(!same(b"abc", b"abd"));
        assert!(!same(b"abc", b"abcd"));
        assert!(!same(b"", b"a"));
    }
}
