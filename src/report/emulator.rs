//! What `safe-ad emulator export` says, and what `safe-ad emulator requests` prints: the journal's records (as JSON lines, or a short
//! table on a terminal), a count, the verdict of `--expect` and the records it lists, and notes
//! on what the journal dropped or a clear removed. (The emulator itself prints through its own
//! crate's `log`; this is the client reading its journal.)

use std::io::IsTerminal;

use super::{counted, err, Reporter};
use crate::sanitize;

/// The most records the `--expect` verdict lists.
pub const LISTED: usize = 20;

/// A record as the table shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct JournalRow {
    pub seq: Option<u64>,
    pub method: String,
    pub path: String,
    /// `None`: no answer was sent.
    pub status: Option<u64>,
    pub error_code: Option<i64>,
    pub elapsed_ms: Option<f64>,
    /// A fault, a hang, a stop: what happened besides the answer.
    pub note: Option<String>,
}

impl Reporter {
    /// `emulator export`: the fixture on stdout, or (written to `path`) a note on stderr.
    pub fn exported(&self, text: &str, path: Option<&std::path::Path>) {
        match path {
            None => self.out(text),
            Some(path) => self.info(&format!(
                "emulator export: wrote the network to {} ({} bytes); `safe-ad emulator \
                 --import {}` loads it",
                sanitize::line(path.display().to_string().as_bytes(), 200),
                text.len(),
                sanitize::line(path.display().to_string().as_bytes(), 200),
            )),
        }
    }

    /// The records that matched: their JSON lines as the journal holds them, with `--jq` what
    /// it makes of each, or (stdout a terminal, no `--json`) a table.
    pub fn journal_records(&self, lines: &[&str], rows: &[JournalRow], json: bool) {
        if !json && std::io::stdout().is_terminal() {
            if rows.is_empty() {
                err("safe-ad: no request in the journal matched\n");
                return;
            }
            self.out(&table(rows, rows.len()));
            return;
        }
        if self.filter.is_some() {
            // Each record through `--jq`, as every command's JSON goes ([`Reporter::print_json`]).
            for line in lines {
                match serde_json::from_str::<serde_json::Value>(line) {
                    Ok(record) => self.print_json(&record),
                    Err(e) => {
                        self.filter_failed.set(true);
                        self.failed(&crate::outcome::Failure::new(
                            crate::outcome::Class::Unexpected,
                            format!(
                                "--jq: a record of the journal is no JSON ({e}): {}",
                                sanitize::line(line.as_bytes(), 200)
                            ),
                        ));
                    }
                }
            }
            return;
        }
        // As the journal holds them, in one write.
        let mut text = String::new();
        for line in lines {
            text.push_str(line.trim_end());
            text.push('\n');
        }
        self.out(&text);
    }

    /// `emulator list --json`: one object for each background emulator of the user's.
    pub fn emulators_listed(&self, emulators: &[safe_ad_emulator::Listed]) {
        for emulator in emulators {
            self.print_json(emulator);
        }
    }

    /// `--count`: the number alone (a JSON value too, so `--jq` is given it).
    pub fn journal_count(&self, matched: u64) {
        self.print_json(&serde_json::Value::from(matched));
    }

    /// `--expect` met: said on stderr (stdout stays empty), unless `--quiet`.
    pub fn journal_expect_met(&self, matched: u64, expect: &str) {
        self.info(&format!(
            "emulator requests: {} matched, as --expect {expect} wants",
            counted(matched, "request", "requests")
        ));
    }

    /// `--expect` not met: the records that matched, on stderr, at most [`LISTED`] of them; the
    /// error line that follows says how many.
    pub fn journal_listing(&self, rows: &[JournalRow]) {
        if rows.is_empty() {
            err("safe-ad: emulator requests: no request matched\n");
        } else {
            err(&format!(
                "safe-ad: emulator requests: the {} that matched:\n{}",
                if rows.len() == 1 {
                    "request"
                } else {
                    "requests"
                },
                table(rows, LISTED)
            ));
        }
    }

    /// The journal dropped its oldest records (it is bounded): said, as counts miss them.
    pub fn journal_dropped(&self, dropped: u64) {
        self.warning(&format!(
            "the emulator's journal dropped its oldest {} (it keeps the last 16 MiB of them); \
             they are not in what follows, and --expect cannot count them",
            counted(dropped, "request", "requests")
        ));
    }

    /// `--clear`: how many records went.
    pub fn journal_cleared(&self, cleared: u64) {
        self.info(&format!(
            "emulator requests: cleared {} from the journal",
            counted(cleared, "request", "requests")
        ));
    }
}

/// The table of at most `limit` rows (and a line counting the rest).
fn table(rows: &[JournalRow], limit: usize) -> String {
    let mut text = format!(
        "{:>6}  {:<7} {:>6} {:>6} {:>9}  {}\n",
        "SEQ", "METHOD", "STATUS", "ERROR", "MS", "PATH"
    );
    for row in rows.iter().take(limit) {
        let status = row.status.map_or("-".to_owned(), |s| s.to_string());
        let error = row.error_code.map_or(String::new(), |c| c.to_string());
        let elapsed = row
            .elapsed_ms
            .map_or(String::new(), |ms| format!("{ms:.3}"));
        let seq = row.seq.map_or("-".to_owned(), |s| s.to_string());
        let note = row.note.as_ref().map_or(String::new(), |note| {
            format!("  ({})", sanitize::line(note.as_bytes(), 60))
        });
        text.push_str(&format!(
            "{seq:>6}  {:<7} {status:>6} {error:>6} {elapsed:>9}  {}{note}\n",
            sanitize::line(row.method.as_bytes(), 10),
            sanitize::line(row.path.as_bytes(), 200),
        ));
    }
    if rows.len() > limit {
        text.push_str(&format!("   ... and {} more\n", rows.len() - limit));
    }
    text
}
