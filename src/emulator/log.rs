//! The request log: one line per request on stderr, written by a background thread so that a
//! slow or unread stderr can never stall the server.
//!
//! Request handlers hand finished lines to a bounded queue and never wait: when the queue is full
//! the line is dropped and counted, and the writer reports how many it lost. Lines carry the
//! method, the path (never the query, headers or token), the status and the time taken.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

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
}
