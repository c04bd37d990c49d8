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

use std::fmt;
use std::fs::File;
use std::future::Future;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

pub use super::redact::{redact, redact_text};
use super::state::Live;

/// Lines that may wait for the stderr writer before new ones are dropped.
const QUEUE: usize = 8192;
/// `--log` records that may wait for the file's writer before new ones are lost: a second or so
/// of full load, so that a writer that only lacks CPU for a moment loses nothing.
pub const RECORD_QUEUE: usize = 32 * 1024;
/// Longest path on a stderr line; longer ones are cut.
const MAX_PATH: usize = 200;
/// Longest path in a `--log` record; longer ones are cut (and end in `...`).
const MAX_RECORD_PATH: usize = 1024;
/// How long the end of a run waits for a `--log` writer that writes nothing more.
const STALLED: Duration = Duration::from_secs(1);

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

/// Formats a request line: `PUT /appendable-data/0 200 4.2us` (`ms` from a millisecond on), with
/// the error of a 4xx or 5xx answer after the status: `PUT /appendable-data/5 400 -23 DataExists
/// 13.2us` (see [`ErrorBody::shown`]).
pub fn request_line(
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

/// Longest description on a stderr line; longer ones are cut (and end in `...`).
const MAX_SHOWN_DESCRIPTION: usize = 120;
/// Longest description in a `--log` record.
const MAX_RECORD_DESCRIPTION: usize = 1024;
/// Error bodies longer than this are not read for a description.
const MAX_ERROR_BODY: usize = 4096;

/// What the body of a 4xx or 5xx answer said: the launcher's `errorCode` and `description`
/// (`{"errorCode":-23,"description":"CoreError::MutationFailure::MutationError::DataExists"}`),
/// or, for the two text answers (`Unauthorized`, `Unauthorised`), the text alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorBody {
    pub code: Option<i64>,
    pub description: String,
}

impl ErrorBody {
    /// Reads an answer's body for its error, when its status is 4xx or 5xx and the body says one.
    pub fn of(status: u16, body: &[u8]) -> Option<ErrorBody> {
        if status < 400 || body.is_empty() || body.len() > MAX_ERROR_BODY {
            return None;
        }
        if body.first() == Some(&b'{') {
            let value: serde_json::Value = serde_json::from_slice(body).ok()?;
            let description = value.get("description")?.as_str()?.to_owned();
            let code = value.get("errorCode").and_then(serde_json::Value::as_i64);
            return Some(ErrorBody { code, description });
        }
        let text = std::str::from_utf8(body).ok()?.trim();
        (!text.is_empty()).then(|| ErrorBody {
            code: None,
            description: text.to_owned(),
        })
    }

    /// As a request line shows it: the code, then the core error's own name (`-23 DataExists`,
    /// the last part of `CoreError::MutationFailure::MutationError::DataExists`) or the
    /// description in quotes (`400 "name field is missing"`), cut at 120 characters.
    pub fn shown(&self) -> String {
        let mut shown = match self.code {
            Some(code) => format!("{code} "),
            None => String::new(),
        };
        let name: String = self
            .description
            .rsplit_once("::")
            .map(|(_, last)| {
                last.chars()
                    .take_while(char::is_ascii_alphanumeric)
                    .collect()
            })
            .unwrap_or_default();
        if !name.is_empty() {
            shown.push_str(&name);
            return shown;
        }
        shown.push('"');
        for (count, c) in self.description.chars().enumerate() {
            if count >= MAX_SHOWN_DESCRIPTION {
                shown.push_str("...");
                break;
            }
            shown.push(if is_unsafe(c) || c == '"' { '?' } else { c });
        }
        shown.push('"');
        shown
    }
}

/// Characters a terminal would act on rather than show: C0 and C1 controls (ESC starts escape
/// sequences) and the bidi controls, which reorder what follows them on the line.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
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
    /// Refused with a 503 because the emulator was stopping.
    Stopping,
    /// Cut off unanswered when the emulator stopped (it had not finished within the grace time).
    Aborted,
    /// Its body did not come within the idle timeout: the connection was closed unanswered.
    TimedOut,
}

impl Note {
    /// How a stderr request line shows the note, after (or instead of) the status.
    pub fn shown(self, status: &str) -> String {
        match self {
            Note::None => status.to_owned(),
            Note::Unavailable => format!("{status} (injected)"),
            Note::Dropped => "dropped (injected)".to_owned(),
            Note::Delayed(ms) => format!("{status} delayed {ms}ms (injected)"),
            Note::Hung => "(unknown handle: never answered, as the launcher did)".to_owned(),
            Note::Stopping => format!("{status} (stopping: not served)"),
            Note::Aborted => "(cut off unanswered by the stop)".to_owned(),
            Note::TimedOut => "(body not received in time: connection closed)".to_owned(),
        }
    }
}

/// One `--log` record: `{"event":"request","seq":7,"method":"PUT","path":"/appendable-data/0",
/// "status":200,"elapsed_ms":0.041,"fault":"delayed","delay_ms":120,"handles":{
/// "appendable_data":5,...}}`. `seq` numbers the requests the journal keeps (1, 2, ... for the
/// whole run; the emulator's own routes have none); `status` is `null` when no answer was sent;
/// `error_code` (when the body has one) and `description` after it for a 4xx or 5xx answer;
/// `fault` and `delay_ms` only when injected; `hung: true` for a request left unanswered on
/// purpose; `stopping: true` for one refused (503) because the emulator was stopping, `aborted:
/// true` for one cut off unanswered by the stop, `timed_out: true` for one whose body did not
/// come in time. A path longer than 1024 characters (and a description likewise) is cut and
/// ends in `...`. Every key is safe-ad's own spelling (snake_case, as `--json` writes them); only
/// `description` carries the launcher's words.
#[allow(clippy::too_many_arguments)]
pub fn request_record(
    seq: Option<u64>,
    method: &str,
    path: &str,
    status: Option<u16>,
    error: Option<&ErrorBody>,
    elapsed: Duration,
    note: Note,
    live: &Live,
) -> String {
    use std::fmt::Write as _;
    // Written by hand into one buffer: this runs once per request at full load.
    let mut record = String::with_capacity(path.len() + 240);
    record.push_str("{\"event\":\"request\"");
    if let Some(seq) = seq {
        let _ = write!(record, ",\"seq\":{seq}");
    }
    record.push_str(",\"method\":");
    push_json_string(&mut record, method);
    record.push_str(",\"path\":");
    push_cut_string(&mut record, path, MAX_RECORD_PATH);
    let _ = match status {
        Some(status) => write!(record, ",\"status\":{status}"),
        None => write!(record, ",\"status\":null"),
    };
    if let Some(error) = error {
        if let Some(code) = error.code {
            let _ = write!(record, ",\"error_code\":{code}");
        }
        record.push_str(",\"description\":");
        push_cut_string(&mut record, &error.description, MAX_RECORD_DESCRIPTION);
    }
    let micros = elapsed.as_micros();
    let _ = write!(
        record,
        ",\"elapsed_ms\":{}.{:03}",
        micros / 1000,
        micros % 1000
    );
    let _ = match note {
        Note::None => Ok(()),
        Note::Unavailable => write!(record, ",\"fault\":\"unavailable\""),
        Note::Dropped => write!(record, ",\"fault\":\"dropped\""),
        Note::Delayed(ms) => write!(record, ",\"fault\":\"delayed\",\"delay_ms\":{ms}"),
        Note::Hung => write!(record, ",\"hung\":true"),
        Note::Stopping => write!(record, ",\"stopping\":true"),
        Note::Aborted => write!(record, ",\"aborted\":true"),
        Note::TimedOut => write!(record, ",\"timed_out\":true"),
    };
    record.push_str(",\"handles\":");
    push_handles(&mut record, live);
    record.push_str("}\n");
    record
}

/// One request as the logs keep it: what its `--log` record says, kept as it is for the journal
/// of the emulator's own routes, which makes the record only when it is asked for.
#[derive(Debug, Clone)]
pub struct Request {
    /// Its number in the journal (see [`request_record`]); `None` for the emulator's own routes.
    pub seq: Option<u64>,
    pub method: hyper::Method,
    /// As the log shows it (see [`redact`]).
    pub path: String,
    pub status: Option<u16>,
    pub error: Option<ErrorBody>,
    pub elapsed: Duration,
    pub note: Note,
    /// The live handles after it.
    pub live: Live,
}

impl Request {
    /// Its `--log` record (see [`request_record`]).
    pub fn record(&self) -> String {
        request_record(
            self.seq,
            self.method.as_str(),
            &self.path,
            self.status,
            self.error.as_ref(),
            self.elapsed,
            self.note,
            &self.live,
        )
    }

    /// About how many bytes it holds.
    pub fn size(&self) -> usize {
        std::mem::size_of::<Request>()
            + self.path.len()
            + self.error.as_ref().map_or(0, |e| e.description.len())
    }
}

/// [`push_json_string`] of at most `limit` characters of `text`; a longer one is cut and ends in
/// `...`.
fn push_cut_string(out: &mut String, text: &str, limit: usize) {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => push_json_string(out, &format!("{}...", &text[..cut])),
        None => push_json_string(out, text),
    }
}

/// `text` as a JSON string literal (see [`push_json_string`]).
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_json_string(&mut out, text);
    out
}

/// Appends `text` as a JSON string literal; controls and bidi controls as `\uXXXX`, so that a
/// record shown in a terminal shows them rather than acting on them.
fn push_json_string(out: &mut String, text: &str) {
    use std::fmt::Write as _;
    if text
        .bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\')
    {
        out.push('"');
        out.push_str(text);
        out.push('"');
        return;
    }
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if is_unsafe(c) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn push_handles(out: &mut String, live: &Live) {
    use std::fmt::Write as _;
    out.push('{');
    for (i, (name, count)) in live.pairs().iter().enumerate() {
        let comma = if i == 0 { "" } else { "," };
        out.push_str(comma);
        out.push('"');
        push_snake_case(out, name);
        let _ = write!(out, "\":{count}");
    }
    out.push('}');
}

/// A key in safe-ad's own spelling: `appendableData` as `appendable_data`, `answered2xx` as
/// `answered_2xx` (the launcher's camelCase stays in what the launcher itself sends).
#[cfg(test)]
fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    push_snake_case(&mut out, name);
    out
}

/// Appends [`snake_case`] of `name` (no allocation: this runs once per request record).
fn push_snake_case(out: &mut String, name: &str) {
    let mut previous: Option<char> = None;
    for c in name.chars() {
        let hump = c.is_ascii_uppercase()
            || (c.is_ascii_digit() && previous.is_some_and(|p| p.is_ascii_alphabetic()));
        if hump && previous.is_some() {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
        previous = Some(c);
    }
}

/// The first record of a `--log` file: `{"event":"start","version":"0.2.0","url":
/// "http://127.0.0.1:8100","pid":N,"network":"demo"|"empty"|"state","handles":{...}}`.
pub fn start_record(url: &str, network: &str, live: &Live) -> String {
    format!(
        "{{\"event\":\"start\",\"version\":{},\"url\":{},\"pid\":{},\"network\":{},\"handles\":{}}}\n",
        json_string(env!("CARGO_PKG_VERSION")),
        json_string(url),
        std::process::id(),
        json_string(network),
        handles_json(live)
    )
}

/// The record of a reset through the emulator's own routes: `{"event":"reset","network":
/// "demo"|"empty"|"state","handles":{...}}`.
pub fn reset_record(network: &str, live: &Live) -> String {
    format!(
        "{{\"event\":\"reset\",\"network\":{},\"handles\":{}}}\n",
        json_string(network),
        handles_json(live)
    )
}

/// `{"appendable_data":N,"structured_data":N,"data_id":N,"sign_key":N,"encrypt_key":N,
/// "cipher_opts":N}`
pub fn handles_json(live: &Live) -> String {
    let mut out = String::new();
    push_handles(&mut out, live);
    out
}

/// The `--log FILE` writer: records go through a bounded queue to a thread that appends them to
/// the file in whole records, batch by batch, so a job can read the file while the emulator runs.
/// Clones share the one writer.
#[derive(Clone)]
pub struct RecordLog {
    inner: Arc<RecordShared>,
    queue: SyncSender<Entry>,
}

impl fmt::Debug for RecordLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecordLog")
            .field("path", &self.inner.path)
            .finish()
    }
}

/// What the handlers and the writer share.
struct RecordShared {
    /// The path as given, for messages.
    path: String,
    /// Records handed to the queue.
    queued: AtomicU64,
    /// Records the queue refused (it was full).
    refused: AtomicU64,
    /// Records in the file.
    written: AtomicU64,
    /// Whether stderr was told that records are being lost.
    said_lost: AtomicBool,
}

impl RecordShared {
    /// Says once on stderr that records are being lost, and why.
    fn say_lost(&self, why: &str) {
        if !self.said_lost.swap(true, Ordering::Relaxed) {
            line(format!(
                "safe-ad emulator: error: --log {}: {why}; request records are lost from here on \
                 (counted in the stop record)\n",
                self.path
            ));
        }
    }
}

enum Entry {
    Record(String),
    /// The last record: made from the count of records lost, written, then the writer ends.
    Finish(
        Box<dyn FnOnce(u64) -> String + Send>,
        tokio::sync::oneshot::Sender<LogEnd>,
    ),
}

/// How the `--log` file ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEnd {
    /// Request records in the file.
    pub written: u64,
    /// Request records not in it (the queue was full, a write failed, or the writer stalled).
    pub lost: u64,
    /// The first write error, if any.
    pub error: Option<String>,
    /// Whether the stop record is in the file.
    pub stop_written: bool,
    /// Whether the writer stopped writing altogether (a reader that stopped reading).
    pub stalled: bool,
}

impl LogEnd {
    /// Whether the file holds every record and the stop record.
    pub fn is_whole(&self) -> bool {
        self.lost == 0 && self.error.is_none() && self.stop_written && !self.stalled
    }
}

impl RecordLog {
    /// Opens the file (created, or truncated if it exists: a run's log starts empty) and starts
    /// its writer. Opening a FIFO waits for its reader, as a shell's `>` does.
    pub fn create(path: &Path) -> std::io::Result<RecordLog> {
        let file = File::create(path)?;
        // Only a regular file can be cut back to its last whole record after a failed write.
        let seekable = file.metadata().is_ok_and(|m| m.is_file());
        let (queue, entries) = mpsc::sync_channel(RECORD_QUEUE);
        let inner = Arc::new(RecordShared {
            path: path.display().to_string(),
            queued: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            written: AtomicU64::new(0),
            said_lost: AtomicBool::new(false),
        });
        let writer = Arc::clone(&inner);
        std::thread::Builder::new()
            .name("emulator-record-log".into())
            .spawn(move || write_records(file, seekable, &entries, &writer))?;
        Ok(RecordLog { inner, queue })
    }

    /// Queues one record (ending in a newline); never waits. When the queue is full the record
    /// is lost and counted.
    pub fn record(&self, record: String) {
        self.inner.queued.fetch_add(1, Ordering::Relaxed);
        if self.queue.try_send(Entry::Record(record)).is_err() {
            self.inner.refused.fetch_add(1, Ordering::Relaxed);
            self.inner
                .say_lost("records come faster than it is written (does its reader still read?)");
        }
    }

    /// Writes the stop record (`stop` makes it from the number of records lost) after every
    /// record queued so far, and ends the writer. Waits while the writer makes progress; gives up
    /// when it has written nothing for a second, or at once when `hurry` resolves.
    pub async fn finish(
        &self,
        stop: impl FnOnce(u64) -> String + Send + 'static,
        hurry: impl Future<Output = ()>,
    ) -> LogEnd {
        let (done, mut ended) = tokio::sync::oneshot::channel();
        let mut entry = Some(Entry::Finish(Box::new(stop), done));
        tokio::pin!(hurry);
        let mut seen = self.inner.written.load(Ordering::Relaxed);
        let mut progress = Instant::now();
        loop {
            if let Some(next) = entry.take() {
                match self.queue.try_send(next) {
                    Ok(()) => {}
                    Err(TrySendError::Full(back)) => entry = Some(back),
                    Err(TrySendError::Disconnected(_)) => return self.stalled(),
                }
            }
            let wait = if entry.is_some() {
                Duration::from_millis(5)
            } else {
                Duration::from_millis(100)
            };
            tokio::select! {
                end = &mut ended, if entry.is_none() => {
                    return end.unwrap_or_else(|_| self.stalled());
                }
                () = tokio::time::sleep(wait) => {}
                () = &mut hurry => return self.stalled(),
            }
            let written = self.inner.written.load(Ordering::Relaxed);
            if written != seen {
                seen = written;
                progress = Instant::now();
            } else if progress.elapsed() >= STALLED {
                return self.stalled();
            }
        }
    }

    /// How the log ends when its writer is given up on: whatever it has not written is lost.
    fn stalled(&self) -> LogEnd {
        let written = self.inner.written.load(Ordering::Relaxed);
        let queued = self.inner.queued.load(Ordering::Relaxed);
        LogEnd {
            written,
            lost: queued.saturating_sub(written),
            error: None,
            stop_written: false,
            stalled: true,
        }
    }
}

/// The `--log` writer thread: batches of whole records, each batch one write; after a failed
/// write, records are counted as lost and only the stop record is tried again.
fn write_records(mut file: File, seekable: bool, entries: &Receiver<Entry>, shared: &RecordShared) {
    let mut length: u64 = 0;
    let mut failed: Option<String> = None;
    let mut discarded: u64 = 0;
    let mut batch = String::new();
    while let Ok(first) = entries.recv() {
        let mut count = 0;
        let mut finish = None;
        let mut next = Some(first);
        while let Some(entry) = next.take() {
            match entry {
                Entry::Record(record) => {
                    batch.push_str(&record);
                    count += 1;
                }
                Entry::Finish(stop, done) => finish = Some((stop, done)),
            }
            if finish.is_none() && batch.len() < 256 * 1024 {
                next = entries.try_recv().ok();
            }
        }
        if failed.is_some() {
            discarded += count;
        } else {
            let (whole, error) = write_whole(&mut file, seekable, &mut length, &batch);
            shared.written.fetch_add(whole, Ordering::Relaxed);
            if let Some(error) = error {
                discarded += count - whole;
                shared.say_lost(&format!("cannot write it: {error}"));
                failed = Some(error.to_string());
            }
        }
        batch.clear();
        if let Some((stop, done)) = finish {
            let lost = shared.refused.load(Ordering::Relaxed) + discarded;
            let (whole, error) = write_whole(&mut file, seekable, &mut length, &stop(lost));
            if failed.is_none() {
                failed = error.map(|e| e.to_string());
            }
            let _ = done.send(LogEnd {
                written: shared.written.load(Ordering::Relaxed),
                lost,
                error: failed,
                stop_written: whole == 1,
                stalled: false,
            });
            return;
        }
    }
}

/// Writes `text` (whole records); returns how many whole records reached the file and the error
/// that stopped it, if any. After a failure a regular file is cut back to its last whole record.
fn write_whole(
    file: &mut File,
    seekable: bool,
    length: &mut u64,
    text: &str,
) -> (u64, Option<std::io::Error>) {
    let bytes = text.as_bytes();
    let mut done = 0;
    let error = loop {
        if done == bytes.len() {
            break None;
        }
        match file.write(&bytes[done..]) {
            Ok(0) => break Some(std::io::Error::from(std::io::ErrorKind::WriteZero)),
            Ok(n) => done += n,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => break Some(error),
        }
    };
    let kept = match error {
        None => done,
        // Up to the end of the last record written whole.
        Some(_) => bytes[..done]
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |at| at + 1),
    };
    if kept != done && seekable {
        let _ = file.set_len(*length + kept as u64);
        let _ = file.sync_data();
    }
    *length += kept as u64;
    let records = bytes[..kept].iter().filter(|b| **b == b'\n').count() as u64;
    (records, error)
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
                None,
                Duration::from_micros(1042)
            ),
            "PUT /appendable-data/0 200 1.042ms\n"
        );
        let long = "/x".repeat(300);
        let line = request_line("GET", &long, "404", None, Duration::ZERO);
        assert!(line.len() < 260 && line.contains("..."));
    }

    #[test]
    fn control_and_bidi_characters_are_escaped() {
        let line = request_line(
            "GET",
            "/a\u{202e}b\u{1b}c\u{85}d\u{2067}",
            "404",
            None,
            Duration::ZERO,
        );
        assert_eq!(line, "GET /a?b?c?d? 404 0.0us\n");
        let record = request_record(
            None,
            "GET",
            "/a\u{202e}b\u{1b}\u{e9}",
            Some(404),
            None,
            Duration::ZERO,
            Note::None,
            &Live::default(),
        );
        assert!(
            record.contains("\"path\":\"/a\\u202eb\\u001b\u{e9}\""),
            "{record}"
        );
        let value: serde_json::Value = serde_json::from_str(&record).unwrap();
        assert_eq!(value["path"], "/a\u{202e}b\u{1b}\u{e9}");
        let long = "/x".repeat(1000);
        let cut = request_record(
            None,
            "GET",
            &long,
            None,
            None,
            Duration::ZERO,
            Note::Aborted,
            &Live::default(),
        );
        let value: serde_json::Value = serde_json::from_str(&cut).unwrap();
        assert_eq!(
            value["path"].as_str().unwrap().chars().count(),
            MAX_RECORD_PATH + 3
        );
        assert_eq!(value["aborted"], true);
    }

    #[test]
    fn a_failed_write_is_cut_back_to_the_last_whole_record() {
        let path = std::env::temp_dir().join(format!(
            "safe-ad-log-{}",
            super::super::encoding::hex(&super::super::encoding::random_bytes::<6>())
        ));
        let mut file = File::create(&path).unwrap();
        let mut length = 0;
        assert_eq!(write_whole(&mut file, true, &mut length, "{}\n{}\n").0, 2);
        assert_eq!(length, 6);
        // /dev/full takes nothing: no record, the error said.
        let mut full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let (records, error) = write_whole(&mut full, false, &mut 0, "{}\n");
        assert_eq!(records, 0);
        assert_eq!(error.unwrap().raw_os_error(), Some(28));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn records_are_one_json_object_each() {
        let live = Live {
            data_id: 2,
            ..Live::default()
        };
        let line = request_record(
            Some(3),
            "GET",
            "/a\"b",
            None,
            None,
            Duration::from_micros(1500),
            Note::Delayed(120),
            &live,
        );
        assert!(line.ends_with('\n'));
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["path"], "/a\"b");
        assert_eq!(value["status"], serde_json::Value::Null);
        assert_eq!(value["seq"], 3);
        assert_eq!(value["elapsed_ms"], 1.5);
        assert_eq!(value["fault"], "delayed");
        assert_eq!(value["delay_ms"], 120);
        assert_eq!(value["handles"]["data_id"], 2);
        let ok = request_record(
            None,
            "PUT",
            "/",
            Some(200),
            None,
            Duration::ZERO,
            Note::None,
            &live,
        );
        let value: serde_json::Value = serde_json::from_str(&ok).unwrap();
        assert_eq!(value["event"], "request");
        assert_eq!(value["status"], 200);
        assert!(value.get("fault").is_none());
        assert!(value.get("error_code").is_none());
        assert!(value.get("seq").is_none());
        assert!(value.get("description").is_none());
    }

    #[test]
    fn keys_are_spelt_as_safe_ad_spells_them() {
        assert_eq!(snake_case("appendableData"), "appendable_data");
        assert_eq!(snake_case("cipherOpts"), "cipher_opts");
        assert_eq!(snake_case("answered2xx"), "answered_2xx");
        assert_eq!(snake_case("requests"), "requests");
        assert_eq!(
            handles_json(&Live::default()),
            "{\"appendable_data\":0,\"structured_data\":0,\"data_id\":0,\"sign_key\":0,\
             \"encrypt_key\":0,\"cipher_opts\":0}"
        );
    }

    #[test]
    fn errors_are_read_from_the_answer_and_shown() {
        let exists = ErrorBody::of(
            400,
            br#"{"errorCode":-23,"description":"CoreError::MutationFailure::MutationError::DataExists"}"#,
        )
        .unwrap();
        assert_eq!(exists.code, Some(-23));
        assert_eq!(exists.shown(), "-23 DataExists");
        assert_eq!(
            request_line(
                "PUT",
                "/appendable-data/5",
                "400",
                Some(&exists),
                Duration::from_nanos(13_240)
            ),
            "PUT /appendable-data/5 400 -23 DataExists 13.2us\n"
        );
        let record = request_record(
            None,
            "PUT",
            "/appendable-data/5",
            Some(400),
            Some(&exists),
            Duration::ZERO,
            Note::None,
            &Live::default(),
        );
        let value: serde_json::Value = serde_json::from_str(&record).unwrap();
        assert_eq!(value["error_code"], -23);
        assert_eq!(
            value["description"],
            "CoreError::MutationFailure::MutationError::DataExists"
        );
        let own = ErrorBody::of(
            400,
            br#"{"errorCode":400,"description":"name field is missing"}"#,
        )
        .unwrap();
        assert_eq!(own.shown(), "400 \"name field is missing\"");
        let injected = ErrorBody::of(
            503,
            br#"{"errorCode":-37,"description":"CoreError::RequestTimeout (injected by safe-ad emulator)"}"#,
        )
        .unwrap();
        assert_eq!(injected.shown(), "-37 RequestTimeout");
        let text = ErrorBody::of(401, b"Unauthorized").unwrap();
        assert_eq!((text.code, text.shown()), (None, "\"Unauthorized\"".into()));
        assert_eq!(ErrorBody::of(200, b"OK"), None);
        assert_eq!(ErrorBody::of(404, b""), None);
        let hostile = ErrorBody {
            code: None,
            description: format!("a\u{1b}[2J\"{}", "x".repeat(300)),
        };
        let shown = hostile.shown();
        assert!(
            shown.starts_with("\"a?[2J?x") && shown.ends_with("...\""),
            "{shown}"
        );
    }
}
