//! One request from its start to its answer and its log line: counted, refused while stopping,
//! given an injected fault where it may get one, routed to the launcher's routes or the
//! emulator's own (`admin`), and logged on stderr and in `--log`.

use std::sync::atomic::Ordering;
use std::time::Instant;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CONNECTION, CONTENT_TYPE};
use hyper::{Method, StatusCode};
use hyper::{Request, Response};

use crate::launcher::express::{self, Conditional, POWERED_BY};
use crate::launcher::routes::{self, Answer, Express};
use crate::launcher::table::{self, Def, Route};
use crate::service::admin::Handled;
use crate::service::fault::{self, Fault};
use crate::service::log::{self, ErrorBody, Note};

use super::{reached, Conn, Counters, Dropped, Phase, Shared, STOPPING_BODY};

/// Whether a request for this route may get an injected fault: the four operations and metadata.
fn takes_faults(def: Option<&Def>) -> bool {
    def.is_some_and(|def| {
        matches!(
            def.route,
            Route::Put | Route::Post | Route::ClearData | Route::ClearDeletedData | Route::Metadata
        )
    })
}

/// One request from its start to its log line. Dropped before it logged (the stop cut it off),
/// it logs itself as cut off, so that every request counted is also logged.
struct InFlight<'a> {
    shared: &'a Shared,
    conn: &'a Conn,
    started: Instant,
    /// Method and redacted path.
    label: (Method, String),
    /// The launcher's route it matched (`None`: no route, or one of the emulator's own), for
    /// what its record says it does to data.
    def: Option<&'static Def>,
    /// For the emulator's own routes: logged, but kept out of the journal.
    admin: bool,
    /// The name of the user whose launcher it came to, when users are named.
    user: Option<String>,
    logged: bool,
}

impl InFlight<'_> {
    /// Logs the request with its status (none when unanswered), what happened besides, and the
    /// body of its answer (for the error of a 4xx or 5xx).
    fn log(&mut self, status: Option<StatusCode>, note: Note, body: &[u8]) {
        self.logged = true;
        let shared = self.shared;
        let elapsed = self.started.elapsed();
        let error = status
            .and_then(|status| ErrorBody::of(status.as_u16(), body))
            .map(|mut error| {
                // An answer may carry what the client sent; the token never reaches a log.
                for token in &shared.tokens {
                    if let std::borrow::Cow::Owned(clean) =
                        log::redact_text(&error.description, token)
                    {
                        error.description = clean;
                    }
                }
                error
            });
        let effect = self.def.map(|def| def.effect);
        let not_on_network = match (effect, status, &error) {
            (Some(effect), Some(status), Some(error)) => {
                effect.not_on_network(status.as_u16(), error.code)
            }
            _ => false,
        };
        let (method, path) = &mut self.label;
        if shared.log_requests {
            let status = status.map_or(String::new(), |s| s.as_str().to_owned());
            let mut line = log::request_line(
                method.as_str(),
                path,
                &note.shown(&status),
                error.as_ref(),
                elapsed,
            );
            if let Some(user) = &self.user {
                // Which user's launcher, after the time: the words before stay as they were.
                line.insert_str(line.len() - 1, &format!(" [{user}]"));
            }
            log::line(line);
        }
        if self.admin && shared.records.is_none() {
            return;
        }
        let request = log::Request {
            seq: None,
            user: self.user.clone(),
            method: method.clone(),
            path: std::mem::take(path),
            effect,
            status: status.map(|s| s.as_u16()),
            error,
            not_on_network,
            elapsed,
            note,
            live: shared.app.state().live(),
        };
        let record = |request: &log::Request| {
            if let Some(records) = &shared.records {
                records.record(request.record());
            }
        };
        if self.admin {
            record(&request);
        } else {
            // Numbered as it is kept, so the journal and `--log` give a request the same `seq`.
            shared.admin.journal.push(request, record);
        }
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if !self.logged {
            Counters::add(&self.shared.counters.0.aborted);
            self.log(None, Note::Aborted, &[]);
        }
        self.conn.busy.fetch_sub(1, Ordering::Relaxed);
        self.conn.last.store(self.shared.tick(), Ordering::Relaxed);
    }
}

/// Answers one request that came to user `user`'s launcher.
pub(super) async fn answer(
    shared: &Shared,
    conn: &Conn,
    request: Request<Incoming>,
    user: usize,
) -> Result<Response<Full<Bytes>>, Dropped> {
    conn.busy.fetch_add(1, Ordering::Relaxed);
    let tallies = &shared.counters.0;
    Counters::add(&tallies.requests);
    let mut this = InFlight {
        shared,
        conn,
        started: Instant::now(),
        label: (
            request.method().clone(),
            redacted(request.uri().path(), &shared.tokens),
        ),
        def: None,
        admin: false,
        user: shared.names.get(user).cloned().flatten(),
        logged: false,
    };
    let admin = shared.admin.takes(&request, user);
    if !admin {
        let path = request.uri().path();
        this.def = table::find(request.method(), path, shared.app.strict_paths).map(|f| f.def);
    }
    if shared.stopping.load(Ordering::SeqCst) {
        Counters::add(&tallies.refused);
        this.log(
            Some(StatusCode::SERVICE_UNAVAILABLE),
            Note::Stopping,
            STOPPING_BODY.as_bytes(),
        );
        let mut refused = response(
            StatusCode::SERVICE_UNAVAILABLE,
            "application/json; charset=utf-8",
            Bytes::from_static(STOPPING_BODY.as_bytes()),
        );
        refused
            .headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
        return Ok(refused);
    }
    if admin {
        this.admin = true;
        return own_route(shared, &mut this, request, user).await;
    }
    let fault = if shared.faults.is_active() && takes_faults(this.def) {
        shared.faults.fault(Counters::add(&tallies.eligible))
    } else {
        None
    };
    let mut delayed = None;
    match fault {
        None => {}
        Some(Fault::Unavailable) => {
            Counters::add(&tallies.injected_503);
            this.log(
                Some(StatusCode::SERVICE_UNAVAILABLE),
                Note::Unavailable,
                fault::UNAVAILABLE_BODY.as_bytes(),
            );
            return Ok(response(
                StatusCode::SERVICE_UNAVAILABLE,
                "application/json; charset=utf-8",
                Bytes::from_static(fault::UNAVAILABLE_BODY.as_bytes()),
            ));
        }
        Some(Fault::Drop) => {
            Counters::add(&tallies.dropped);
            this.log(None, Note::Dropped, &[]);
            return Err(Dropped);
        }
        Some(Fault::Delay(delay)) => {
            Counters::add(&tallies.delayed);
            tokio::time::sleep(delay).await;
            delayed = Some(delay);
        }
    }
    let note = delayed.map_or(Note::None, |d| Note::Delayed(d.as_millis()));
    let conditional = Conditional::of(request.method(), request.headers());
    let answer = match routes::respond(&shared.app, request, user).await {
        Answer::Reply(reply) => Answer::Reply(express::sent(reply, &conditional)),
        other => other,
    };
    send(shared, &mut this, answer, note).await
}

/// Sends an answer (or none), counted and logged.
async fn send(
    shared: &Shared,
    this: &mut InFlight<'_>,
    answer: Answer,
    note: Note,
) -> Result<Response<Full<Bytes>>, Dropped> {
    let tallies = &shared.counters.0;
    match answer {
        Answer::Reply(reply) => {
            if reply.status.is_success() {
                Counters::add(&tallies.answered_2xx);
            } else if reply.status.is_client_error() {
                Counters::add(&tallies.answered_4xx);
            }
            let note = match (note, reply.note) {
                (Note::None, Some(words)) => Note::Launcher(words),
                (note, _) => note,
            };
            this.log(Some(reply.status), note, &reply.body);
            let mut sent = response(reply.status, reply.content_type, reply.body);
            if reply.express != Express::Not {
                let (name, value) = POWERED_BY;
                sent.headers_mut()
                    .insert(name, HeaderValue::from_static(value));
            }
            for (name, value) in reply.headers {
                if let Ok(value) = HeaderValue::from_str(&value) {
                    sent.headers_mut().insert(name, value);
                }
            }
            Ok(sent)
        }
        Answer::TimedOut => {
            this.log(None, Note::TimedOut, &[]);
            Err(Dropped)
        }
        Answer::Hang => {
            this.log(None, Note::Hung, &[]);
            // Unanswered until the stop, which closes the connection.
            let mut watching = shared.phase.subscribe();
            reached(&mut watching, Phase::Draining).await;
            Err(Dropped)
        }
    }
}

/// A request for the emulator's own routes (see `admin`): answered, logged (not journaled), and a
/// reset also counts faults from the start again and is logged in `--log`.
async fn own_route(
    shared: &Shared,
    this: &mut InFlight<'_>,
    request: Request<Incoming>,
    user: usize,
) -> Result<Response<Full<Bytes>>, Dropped> {
    let Handled {
        answer,
        reset,
        dropped,
    } = shared.admin.respond(&shared.app, request, user).await;
    if let Some(to) = reset {
        shared.counters.0.eligible.store(0, Ordering::Relaxed);
        if let Some(records) = &shared.records {
            let live = shared.app.state().live();
            records.record(log::reset_record(to, &live));
        }
    }
    let mut sent = send(shared, this, answer, Note::None).await?;
    if let Some(dropped) = dropped {
        sent.headers_mut()
            .insert(JOURNAL_DROPPED, HeaderValue::from(dropped));
    }
    Ok(sent)
}

/// A request's path as the logs show it: every user's startup token kept out.
fn redacted(path: &str, tokens: &[String]) -> String {
    tokens.iter().fold(path.to_owned(), |path, token| {
        log::redact(&path, token).into_owned()
    })
}

/// The header of the journal's answer that counts the older records it dropped.
const JOURNAL_DROPPED: &str = "safe-ad-journal-dropped";

fn response(status: StatusCode, content_type: &'static str, body: Bytes) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = status;
    if !content_type.is_empty() {
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    response
}
