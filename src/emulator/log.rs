//! The request logs: one line per request on stderr, and (`--log FILE`) one JSON record per
//! request in a file, each written by a background thread so that a slow reader never stalls the
//! server's event loop for long.
//!
//! Stderr: request handlers hand finished lines to a bounded queue and never wait: when the queue
//! is full the line is dropped and counted, and the writer reports how many it lost (an unread
//! pipe must not stop the server). The `--log` file is for a CI job to assert on, so its records
//! are never dropped: a handler waits for room instead.
//!
//! Both carry the method, the path (never the query or headers; a token that a client put in the
//! path is replaced by `<token>`), the status and the time taken.

use std::borrow::Cow;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::state::Live;

/// Lines that may wait for the writer before new ones are dropped.
const QUEUE: usize = 8192;
/// Longest path written; longer ones are cut.
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
pub fn line(text: String) {
    if let Some(sink) = sink() {
        if let Err(TrySendError::Full(_)) = sink.queue.try_send(Message::Line(text)) {
            DROPPED.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Queues one line, waiting (at most `timeout`) for room if the queue is full; for a line that
/// matters more than the rest, such as the totals at shutdown.
pub fn line_within(text: String, timeout: Duration) {
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

/// Formats a request line: `PUT /appendable-data/0 200 4.2us` (`ms` from a millisecond on).
pub fn request_line(method: &str, path: &str, status: &str, elapsed: Duration) -> String {
    let mut shown = String::with_capacity(path.len().min(MAX_PATH) + 40);
    shown.push_str(method);
    shown.push(' ');
    for (count, c) in path.chars().enumerate() {
        if count >= MAX_PATH {
            shown.push_str("...");
            break;
        }
        shown.push(if c.is_control() { '?' } else { c });
    }
    let nanos = elapsed.as_nanos();
    let time = if nanos < 1_000_000 {
        format!("{}.{}us", nanos / 1000, (nanos % 1000) / 100)
    } else {
        format!("{}.{:03}ms", nanos / 1_000_000, (nanos % 1_000_000) / 1000)
    };
    shown.push(' ');
    shown.push_str(status);
    shown.push(' ');
    shown.push_str(&time);
    shown.push('\n');
    shown
}

/// Replaces what looks like a token in a path by `<token>`: the emulator's own token wherever
/// it appears, and any segment shaped like the launcher's tokens (three dot-separated parts).
pub fn redact<'a>(path: &'a str, token: &str) -> Cow<'a, str> {
    let jwt_like = |segment: &str| segment.len() >= 40 && segment.matches('.').count() == 2;
    let has_token = !token.is_empty() && path.contains(token);
    if !has_token && !path.split('/').any(jwt_like) {
        return Cow::Borrowed(path);
    }
    let replaced = if has_token {
        path.replace(token, "<token>")
    } else {
        path.to_owned()
    };
    Cow::Owned(
        replaced
            .split('/')
            .map(|segment| {
                if jwt_like(segment) {
                    "<token>"
                } else {
                    segment
                }
            })
            .collect::<Vec<_>>()
            .join("/"),
    )
}

/// What happened to a request besides its answer, for its record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Note {
    None,
    /// An injected 503.
    Unavailable,
    /// An injected dropped connection (no answer).
    Dropped,
    /// An injected delay of this many milliseconds before the answer.
    Delayed(u128),
    /// Never answered (`--hang-unknown-clears`).
    Hung,
}

/// One `--log` record: `{"method":"PUT","path":"/appendable-data/0","status":200,
/// "elapsedMs":0.041,"fault":"delayed","delayMs":120,"handles":{"appendableData":5,...}}`.
/// `status` is `null` when no answer was sent; `fault` and `delayMs` only when injected;
/// `hung: true` for a request left unanswered on purpose.
pub fn request_record(
    method: &str,
    path: &str,
    status: Option<u16>,
    elapsed: Duration,
    note: Note,
    live: &Live,
) -> String {
    use std::fmt::Write as _;
    // Written by hand into one buffer: this runs once per request at full load.
    let mut record = String::with_capacity(path.len() + 220);
    record.push_str("{\"method\":");
    push_json_string(&mut record, method);
    record.push_str(",\"path\":");
    push_json_string(&mut record, path);
    let _ = match status {
        Some(status) => write!(record, ",\"status\":{status}"),
        None => write!(record, ",\"status\":null"),
    };
    let micros = elapsed.as_micros();
    let _ = write!(
        record,
        ",\"elapsedMs\":{}.{:03}",
        micros / 1000,
        micros % 1000
    );
    let _ = match note {
        Note::None => Ok(()),
        Note::Unavailable => write!(record, ",\"fault\":\"unavailable\""),
        Note::Dropped => write!(record, ",\"fault\":\"dropped\""),
        Note::Delayed(ms) => write!(record, ",\"fault\":\"delayed\",\"delayMs\":{ms}"),
        Note::Hung => write!(record, ",\"hung\":true"),
    };
    record.push_str(",\"handles\":");
    push_handles(&mut record, live);
    record.push_str("}\n");
    record
}

/// Appends `text` as a JSON string literal.
fn push_json_string(out: &mut String, text: &str) {
    if text.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push('"');
        out.push_str(text);
        out.push('"');
    } else {
        out.push_str(&serde_json::to_string(text).unwrap_or_default());
    }
}

fn push_handles(out: &mut String, live: &Live) {
    use std::fmt::Write as _;
    out.push('{');
    for (i, (name, count)) in live.pairs().iter().enumerate() {
        let comma = if i == 0 { "" } else { "," };
        let _ = write!(out, "{comma}\"{name}\":{count}");
    }
    out.push('}');
}

/// `{"appendableData":N,"structuredData":N,"dataId":N,"signKey":N,"encryptKey":N,"cipherOpts":N}`
pub fn handles_json(live: &Live) -> String {
    let mut out = String::new();
    push_handles(&mut out, live);
    out
}

/// The `--log FILE` writer: records go through a queue to a thread that appends them to the file
/// and flushes after each batch, so a job can read the file while the emulator runs.
pub struct RecordLog {
    queue: SyncSender<Message>,
}

impl RecordLog {
    /// Creates (or truncates) the file and starts its writer.
    pub fn create(path: &Path) -> std::io::Result<RecordLog> {
        let file = std::fs::File::create(path)?;
        let (queue, records) = mpsc::sync_channel(QUEUE);
        std::thread::Builder::new()
            .name("emulator-record-log".into())
            .spawn(move || {
                let mut out = std::io::BufWriter::new(file);
                let mut flushes = Vec::new();
                while let Ok(first) = records.recv() {
                    let mut next = Some(first);
                    while let Some(message) = next.take() {
                        match message {
                            Message::Line(line) => {
                                let _ = out.write_all(line.as_bytes());
                            }
                            Message::Flush(done) => flushes.push(done),
                        }
                        next = records.try_recv().ok();
                    }
                    let _ = out.flush();
                    for done in flushes.drain(..) {
                        let _ = done.send(());
                    }
                }
                let _ = out.flush();
            })?;
        Ok(RecordLog { queue })
    }

    /// Queues one record (ending in a newline), waiting for room rather than dropping it.
    pub fn record(&self, line: String) {
        let _ = self.queue.send(Message::Line(line));
    }

    /// Waits (at most `timeout`) until every record queued so far is in the file.
    pub fn flush(&self, timeout: Duration) {
        let (done, written) = mpsc::channel();
        if self.queue.send(Message::Flush(done)).is_ok() {
            let _ = written.recv_timeout(timeout);
        }
    }
}

/// Waits (at most `timeout`) until every line queued so far has been written.
pub fn flush(timeout: Duration) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_lines() {
        assert_eq!(
            request_line(
                "PUT",
                "/appendable-data/0",
                "200",
                Duration::from_micros(1042)
            ),
            "PUT /appendable-data/0 200 1.042ms\n"
        );
        let long = "/x".repeat(300);
        let line = request_line("GET", &long, "404", Duration::ZERO);
        assert!(line.len() < 260 && line.contains("..."));
    }

    #[test]
    fn tokens_are_redacted_from_paths() {
        assert_eq!(redact("/appendable-data/1", "abc123"), "/appendable-data/1");
        assert_eq!(redact("/x/abc123/y", "abc123"), "/x/<token>/y");
        let jwt = format!("{}.{}.{}", "a".repeat(20), "b".repeat(20), "c".repeat(20));
        assert_eq!(redact(&format!("/auth/{jwt}"), "zzz"), "/auth/<token>");
        assert_eq!(redact("/data-id/1.2.3", "zzz"), "/data-id/1.2.3");
    }

    #[test]
    fn records_are_one_json_object_each() {
        let live = Live {
            data_id: 2,
            ..Live::default()
        };
        let line = request_record(
            "GET",
            "/a\"b",
            None,
            Duration::from_micros(1500),
            Note::Delayed(120),
            &live,
        );
        assert!(line.ends_with('\n'));
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["path"], "/a\"b");
        assert_eq!(value["status"], serde_json::Value::Null);
        assert_eq!(value["elapsedMs"], 1.5);
        assert_eq!(value["fault"], "delayed");
        assert_eq!(value["delayMs"], 120);
        assert_eq!(value["handles"]["dataId"], 2);
        let ok = request_record("PUT", "/", Some(200), Duration::ZERO, Note::None, &live);
        let value: serde_json::Value = serde_json::from_str(&ok).unwrap();
        assert_eq!(value["status"], 200);
        assert!(value.get("fault").is_none());
    }
}
