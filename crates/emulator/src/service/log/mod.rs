//! The request logs: one line per request on stderr, and (`--log FILE`) one JSON record per
//! request in a file, each written by a background thread, so that neither a slow reader nor a
//! failing disk ever stalls serving or stopping.
//!
//! Stderr: request handlers hand finished lines to a bounded queue and never wait: when the queue
//! is full the line is dropped and counted, and the writer reports how many it lost (an unread
//! pipe must not stop the server).
//!
//! The `--log` file ([`RecordLog`]) is for a CI job to assert on. Its queue is bounded too, and
//! handlers never wait for it: when it is full (its reader stopped reading), or once a write
//! failed (a full disk), records are lost, and that is said at once on stderr, counted in the
//! stop record and reported at the end (the emulator then exits non-zero). Records are written
//! whole: a write that fails partway is cut back to the last whole record where the file allows
//! it (a regular file), so the file never ends in half a record.
//!
//! Both carry the method, the path (never the query or headers; a token that a client put in the
//! path, even percent-encoded, JSON-escaped or split across segments, is replaced by `<token>`,
//! and so is one in an answer's description; control and bidi characters are escaped),
//! the status, the launcher's error code and description of a 4xx or 5xx answer ([`ErrorBody`]),
//! and the time taken.
//!
//! Every `--log` record starts with one key, `event`, that tells what the line is: `request` for a
//! request, and the run's own events: `start` (the first line), `reset` (the emulator's own reset
//! route was called) and `stop` (the last line, with the totals).
//!
//! By part: the stderr queue and its lines are here; the `--log` records' text (and the error
//! read from an answer) in `record`; the `--log` file's writer in `file`.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

mod file;
mod record;

pub(crate) use crate::service::redact::{redact, redact_text};
pub(crate) use file::LogEnd;
pub use file::{RecordLog, RECORD_QUEUE};
pub use record::record_keys;
pub(crate) use record::{
    handles_json, is_unsafe, reset_record, start_record, ErrorBody, Note, Request,
};

/// Lines that may wait for the stderr writer before new ones are dropped.
const QUEUE: usize = 8192;
/// Longest path on a stderr line; longer ones are cut.
const MAX_PATH: usize = 200;

enum Message {
    Line(String),
    Flush(mpsc::Sender<()>),
}

struct Sink {
    queue: SyncSender<Message>,
}

static SINK: OnceLock<Option<Sink>> = OnceLock::new();
static DROPPED: AtomicU64 = AtomicU64::new(0);

fn sink() -> Option<&'static Sink> {
    SINK.get_or_init(|| {
        let (queue, lines) = mpsc::sync_channel(QUEUE);
        std::thread::Builder::new()
            .name("emulator-log".into())
            .spawn(move || write_lines(lines))
            .ok()
            .map(|_| Sink { queue })
    })
    .as_ref()
}

fn write_lines(lines: Receiver<Message>) {
    let mut batch = String::new();
    let mut flushes = Vec::new();
    while let Ok(first) = lines.recv() {
        let mut next = Some(first);
        while let Some(message) = next.take() {
            match message {
                Message::Line(line) => batch.push_str(&line),
                Message::Flush(done) => flushes.push(done),
            }
            if batch.len() < 64 * 1024 {
                next = lines.try_recv().ok();
            }
        }
        let lost = DROPPED.swap(0, Ordering::Relaxed);
        if lost > 0 {
            batch.push_str(&format!(
                "safe-ad emulator: {lost} log line(s) dropped (stderr is not read fast enough)\n"
            ));
        }
        if !batch.is_empty() {
            let _ = std::io::stderr().lock().write_all(batch.as_bytes());
            batch.clear();
        }
        for done in flushes.drain(..) {
            let _ = done.send(());
        }
    }
}

/// Queues one line (which must end in a newline); never blocks.
pub(crate) fn line(text: String) {
    if let Some(sink) = sink() {
        if let Err(TrySendError::Full(_)) = sink.queue.try_send(Message::Line(text)) {
            DROPPED.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Queues one line, waiting (at most `timeout`) for room if the queue is full; for a line that
/// matters more than the rest, such as the totals at shutdown.
pub(crate) fn line_within(text: String, timeout: Duration) {
    let Some(sink) = sink() else {
        return;
    };
    let deadline = Instant::now() + timeout;
    let mut message = Message::Line(text);
    loop {
        match sink.queue.try_send(message) {
            Ok(()) => return,
            Err(TrySendError::Full(back)) if Instant::now() < deadline => {
                message = back;
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(TrySendError::Full(_)) => {
                DROPPED.fetch_add(1, Ordering::Relaxed);
                return;
            }
            Err(TrySendError::Disconnected(_)) => return,
        }
    }
}

/// Formats a request line: `PUT /appendable-data/0 200 4.2us` (`ms` from a millisecond on), with
/// the error of a 4xx or 5xx answer after the status: `PUT /appendable-data/5 400 -23 DataExists
/// 13.2us` (see [`ErrorBody::shown`]).
pub(crate) fn request_line(
    method: &str,
    path: &str,
    status: &str,
    error: Option<&ErrorBody>,
    elapsed: Duration,
) -> String {
    let mut shown = String::with_capacity(path.len().min(MAX_PATH) + 40);
    shown.push_str(method);
    shown.push(' ');
    for (count, c) in path.chars().enumerate() {
        if count >= MAX_PATH {
            shown.push_str("...");
            break;
        }
        shown.push(if is_unsafe(c) { '?' } else { c });
    }
    let nanos = elapsed.as_nanos();
    let time = if nanos < 1_000_000 {
        format!("{}.{}us", nanos / 1000, (nanos % 1000) / 100)
    } else {
        format!("{}.{:03}ms", nanos / 1_000_000, (nanos % 1_000_000) / 1000)
    };
    shown.push(' ');
    shown.push_str(status);
    if let Some(error) = error {
        shown.push(' ');
        shown.push_str(&error.shown());
    }
    shown.push(' ');
    shown.push_str(&time);
    shown.push('\n');
    shown
}

/// Waits (at most `timeout`) until every line queued so far has been written.
pub(crate) fn flush(timeout: Duration) {
    let Some(sink) = SINK.get().and_then(Option::as_ref) else {
        return;
    };
    let deadline = Instant::now() + timeout;
    let (done, written) = mpsc::channel();
    let mut message = Message::Flush(done);
    loop {
        match sink.queue.try_send(message) {
            Ok(()) => break,
            Err(TrySendError::Full(back)) if Instant::now() < deadline => {
                message = back;
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(_) => return,
        }
    }
    let _ = written.recv_timeout(deadline.saturating_duration_since(Instant::now()));
}
