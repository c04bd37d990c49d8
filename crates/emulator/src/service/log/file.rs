//! The `--log FILE` writer ([`RecordLog`]): a bounded queue to a thread that appends whole
//! records, counts what was lost, and says how the file ended ([`LogEnd`]).

use std::fmt;
use std::fs::File;
use std::future::Future;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::line;
use crate::service::files::Made;

/// `--log` records that may wait for the file's writer before new ones are lost: a second or so
/// of full load, so that a writer that only lacks CPU for a moment loses nothing.
///
/// Public for safe-ad's tests, which check it; no API for other programs.
pub const RECORD_QUEUE: usize = 32 * 1024;
/// How long the end of a run waits for a `--log` writer that writes nothing more.
const STALLED: Duration = Duration::from_secs(1);

/// The `--log FILE` writer: records go through a bounded queue to a thread that appends them to
/// the file in whole records, batch by batch, so a job can read the file while the emulator runs.
/// Clones share the one writer.
///
/// Public only as the type of [`Options::records`](crate::service::server::Options::records);
/// opaque outside this crate.
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
pub(crate) struct LogEnd {
    /// Request records in the file.
    pub(crate) written: u64,
    /// Request records not in it (the queue was full, a write failed, or the writer stalled).
    pub(crate) lost: u64,
    /// The first write error, if any.
    pub(crate) error: Option<String>,
    /// Whether the stop record is in the file.
    pub(crate) stop_written: bool,
    /// Whether the writer stopped writing altogether (a reader that stopped reading).
    pub(crate) stalled: bool,
}

impl LogEnd {
    /// Whether the file holds every record and the stop record.
    pub(crate) fn is_whole(&self) -> bool {
        self.lost == 0 && self.error.is_none() && self.stop_written && !self.stalled
    }
}

impl RecordLog {
    /// Opens the file (made through `made` if it does not exist, truncated if it does: a run's
    /// log starts empty) and starts its writer. Opening a FIFO waits for its reader, as a
    /// shell's `>` does.
    pub(crate) fn create(path: &Path, made: &Made) -> std::io::Result<RecordLog> {
        let file = match made.create(path, File::options().write(true)) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => File::create(path)?,
            made => made?,
        };
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
    pub(crate) fn record(&self, record: String) {
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
    pub(crate) async fn finish(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_is_cut_back_to_the_last_whole_record() {
        let path = std::env::temp_dir().join(format!(
            "safe-ad-log-{}",
            crate::launcher::encoding::hex(&crate::launcher::encoding::random_bytes::<6>())
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
}
