//! `safe-ad emulator requests`: reads the journal of a running emulator
//! (`GET /_emulator/requests`, see the emulator's `admin`) as a client, through the settings and
//! the HTTP module like every other command (so `SAFE_LAUNCHER_URL` and `SAFE_LAUNCHER_TOKEN`
//! from `--background` are all it needs), and filters, counts, checks (`--expect`) and clears it.
//!
//! It shares no code with the emulator: the journal's records are read as the JSON lines they
//! are (the keys `--log` documents), and every filter is applied here, so the emulator's route
//! stays as small as it is. Every option is checked before anything is sent. `--clear` clears
//! only through the last record read (`DELETE /_emulator/requests?through=SEQ`), so a request
//! answered between the read and the clear is kept for the next read.

use reqwest::Method;
use serde_json::Value;

use super::{resolve, Context, Next};
use crate::args::{parse_method, parse_path, parse_since, parse_status, Expect, Status};
use crate::cli::RequestsArgs;
use crate::emulator_routes::{root_of, send, Reads};
use crate::launcher::{Answer, Launcher};
use crate::outcome::{Class, Done, Failure};
use crate::report::counted;
use crate::report::emulator::JournalRow;
use crate::runtime::{each_yielding, internal, interruptible};
use crate::settings::StdinUse;

/// The emulator's journal route.
const ROUTE: &str = "/_emulator/requests";
/// The header that counts the older records the journal dropped.
const DROPPED_HEADER: &str = "safe-ad-journal-dropped";

/// Runs `safe-ad emulator requests`.
pub fn run<'a>(args: &'a RequestsArgs, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    let (options, reporter) = (cx.options, cx.reporter);
    let query = Query::from_args(args)?;
    let expect = args.expect.as_deref().map(Expect::parse).transpose()?;
    let settings = resolve(cx, StdinUse::Free)?;
    // The journal opens only with the emulator's own token, which `auth login` never gives.
    Reads::Journal.token(&settings)?;
    let mut config = settings.launcher_config();
    // The journal's answer says in a header how many records it dropped.
    config.keep_headers = true;
    // The emulator's own routes are at its root, whatever prefix the URL has (`/0.6`).
    config.url = root_of(&settings.launcher);
    let base = config.url.base().to_owned();
    let launcher = Launcher::new(config).map_err(internal)?;
    let only_clear =
        args.clear && query.is_empty() && !args.count && expect.is_none() && !options.json;
    let json = options.json;
    Ok(Next::sends(async move {
        if only_clear {
            let cleared = send(
                &launcher,
                &base,
                Method::DELETE,
                ROUTE.into(),
                Reads::Journal,
            )
            .await?;
            reporter.journal_cleared(cleared_count(&cleared));
            return Ok(Done::Success);
        }
        // Reading and matching a large journal takes a while: a stop signal still ends them.
        // One watch spans the request, the reading and the matching (which yield to it every
        // few records), so the run ends at the first look after the signal.
        let (journal, matched) = interruptible(async {
            let answer = send(&launcher, &base, Method::GET, ROUTE.into(), Reads::Journal).await?;
            let journal = Journal::read(&answer).await?;
            let mut matched = Vec::new();
            each_yielding(journal.records.iter().enumerate(), |(at, record)| {
                if query.passes(record) {
                    matched.push(at);
                }
                Ok(())
            })
            .await?;
            Ok::<_, Failure>((journal, matched))
        })
        .await??;
        let matched: Vec<&Record> = matched.iter().map(|&at| &journal.records[at]).collect();
        if journal.dropped > 0 {
            reporter.journal_dropped(journal.dropped);
        }
        let mut result = Ok(Done::Success);
        if let Some(expect) = &expect {
            let rows: Vec<JournalRow> = matched.iter().map(|r| r.row()).collect();
            let missed = journal.may_miss(query.since);
            let verdict = if missed {
                Err(Failure::new(
                Class::Unexpected,
                format!(
                    "emulator requests --expect {}: cannot count: the journal dropped its oldest {}, \
                     and {} matched among those it kept",
                    expect.text,
                    counted(journal.dropped, "request", "requests"),
                    matched.len()
                ),
            )
            .with_hint(
                "clear the journal between steps (`safe-ad emulator requests --clear`), or narrow \
                 the count with --since",
            ))
            } else if expect.met(matched.len() as u64) {
                Ok(())
            } else {
                Err(Failure::new(
                    Class::Unexpected,
                    format!(
                        "emulator requests --expect {}: {} matched{}",
                        expect.text,
                        counted(matched.len() as u64, "request", "requests"),
                        query.described()
                    ),
                ))
            };
            match verdict {
                Ok(()) => reporter.journal_expect_met(matched.len() as u64, &expect.text),
                Err(failure) => {
                    reporter.journal_listing(&rows);
                    result = Err(failure);
                }
            }
        } else if args.count {
            reporter.journal_count(matched.len() as u64);
        } else {
            let lines: Vec<&str> = matched.iter().map(|r| r.line.as_str()).collect();
            let rows: Vec<JournalRow> = matched.iter().map(|r| r.row()).collect();
            reporter.journal_records(&lines, &rows, json);
        }
        if args.clear {
            let route = format!("{ROUTE}?through={}", journal.last_seq());
            let cleared = send(&launcher, &base, Method::DELETE, route, Reads::Journal).await?;
            reporter.journal_cleared(cleared_count(&cleared));
        }
        result
    }))
}

/// `{"cleared":N}`.
fn cleared_count(answer: &Answer) -> u64 {
    serde_json::from_slice::<Value>(&answer.body)
        .ok()
        .and_then(|value| value["cleared"].as_u64())
        .unwrap_or(0)
}

/// Cuts the token out of every string in `value`; whether any held it.
fn scrub_strings(value: &mut Value, words: &crate::secret::Redactor) -> bool {
    match value {
        Value::String(text) => {
            let scrubbed = words.text(text);
            let changed = scrubbed != *text;
            *text = scrubbed;
            changed
        }
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, item| scrub_strings(item, words) | changed),
        Value::Object(fields) => fields
            .values_mut()
            .fold(false, |changed, item| scrub_strings(item, words) | changed),
        _ => false,
    }
}

/// The journal as read: its records, oldest first, and how many older ones it dropped.
struct Journal {
    records: Vec<Record>,
    dropped: u64,
}

/// One record: its line as sent, and what the filters look at.
struct Record {
    line: String,
    value: Value,
}

impl Record {
    fn seq(&self) -> Option<u64> {
        self.value["seq"].as_u64()
    }

    fn status(&self) -> Option<u64> {
        self.value["status"].as_u64()
    }

    /// Failed, and not an answer: no answer was sent, or a 4xx or 5xx that is not the
    /// network's word that the data read is not there (`not_on_network`, which the emulator
    /// writes beside the error of a fetch answered NoSuchData).
    fn failed(&self) -> bool {
        let answer = self.value["not_on_network"] == Value::Bool(true);
        match self.status() {
            None => true,
            Some(status) => status >= 400 && !answer,
        }
    }

    fn row(&self) -> JournalRow {
        let value = &self.value;
        let note = [
            "note",
            "fault",
            "hung",
            "stopping",
            "aborted",
            "timed_out",
            "not_on_network",
        ]
        .iter()
        .find_map(|key| match &value[*key] {
            Value::String(text) => Some(format!("{key}: {text}")),
            Value::Bool(true) => Some((*key).replace('_', " ")),
            _ => None,
        });
        JournalRow {
            seq: self.seq(),
            method: value["method"].as_str().unwrap_or("").to_owned(),
            path: value["path"].as_str().unwrap_or("").to_owned(),
            status: self.status(),
            error_code: value["error_code"].as_i64(),
            elapsed_ms: value["elapsed_ms"].as_f64(),
            note,
        }
    }
}

impl Journal {
    /// The records of a journal answer, each scrubbed of the token's words; run inside a watch
    /// for Ctrl-C, which it yields to every few records.
    async fn read(answer: &Answer) -> Result<Journal, Failure> {
        let dropped = answer
            .headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(DROPPED_HEADER))
            .and_then(|(_, value)| std::str::from_utf8(value).ok()?.trim().parse().ok())
            .unwrap_or(0);
        let text = std::str::from_utf8(&answer.body).map_err(|_| not_a_journal("not text"))?;
        let mut records = Vec::new();
        let lines = text.lines().filter(|line| !line.trim().is_empty());
        each_yielding(lines, |line| {
            let mut value: Value = serde_json::from_str(line)
                .map_err(|_| not_a_journal("a line that is not a JSON object"))?;
            if !value.is_object() {
                return Err(not_a_journal("a line that is not a JSON object"));
            }
            // Decoded first, then the token cut out of its strings (a path a script sent), never
            // out of its numbers; a line with nothing to cut stays byte for byte as sent.
            let line = if scrub_strings(&mut value, &answer.words) {
                value.to_string()
            } else {
                line.to_owned()
            };
            records.push(Record { line, value });
            Ok(())
        })
        .await?;
        Ok(Journal { records, dropped })
    }

    /// The `seq` of the newest record read (0 when none): what `--clear` clears through.
    fn last_seq(&self) -> u64 {
        self.records
            .iter()
            .filter_map(Record::seq)
            .max()
            .unwrap_or(0)
    }

    /// Whether a count may miss requests the journal dropped: it dropped some, and `since` does
    /// not start at or after the oldest record it kept (it drops the oldest first).
    fn may_miss(&self, since: Option<u64>) -> bool {
        if self.dropped == 0 {
            return false;
        }
        let oldest = self.records.iter().find_map(Record::seq);
        !matches!((since, oldest), (Some(since), Some(oldest)) if since.saturating_add(1) >= oldest)
    }
}

fn not_a_journal(what: &str) -> Failure {
    Failure::new(
        Class::Unexpected,
        format!("the emulator's journal holds {what}; is SAFE_LAUNCHER_URL a safe-ad emulator?"),
    )
}

/// The filters, checked.
#[derive(Debug, Default)]
struct Query {
    method: Option<String>,
    path: Option<String>,
    status: Option<Status>,
    error_code: Option<i64>,
    /// `--failed`: failed requests that are not the network's answers.
    failed: bool,
    since: Option<u64>,
}

impl Query {
    fn from_args(args: &RequestsArgs) -> Result<Query, Failure> {
        let method = args.method.as_deref().map(parse_method).transpose()?;
        let path = args.path.as_deref().map(parse_path).transpose()?;
        let status = args.status.as_deref().map(parse_status).transpose()?;
        let since = args
            .since
            .as_deref()
            .map(parse_since)
            .transpose()?
            .flatten();
        Ok(Query {
            method,
            path,
            status,
            error_code: args.error_code,
            failed: args.failed,
            since,
        })
    }

    fn is_empty(&self) -> bool {
        self.method.is_none()
            && self.path.is_none()
            && self.status.is_none()
            && self.error_code.is_none()
            && !self.failed
            && self.since.is_none()
    }

    fn passes(&self, record: &Record) -> bool {
        let value = &record.value;
        self.method.as_deref().is_none_or(|method| {
            value["method"]
                .as_str()
                .is_some_and(|m| m.eq_ignore_ascii_case(method))
        }) && self.path.as_deref().is_none_or(|glob| {
            value["path"]
                .as_str()
                .is_some_and(|path| glob_matches(glob.as_bytes(), path.as_bytes()))
        }) && self
            .status
            .is_none_or(|wanted| match (wanted, record.status()) {
                (Status::Is(status), Some(got)) => got == status,
                (Status::Class(class), Some(got)) => got / 100 == class,
                (_, None) => false,
            })
            && self
                .error_code
                .is_none_or(|code| value["error_code"].as_i64() == Some(code))
            && (!self.failed || record.failed())
            && self
                .since
                .is_none_or(|since| record.seq().is_some_and(|seq| seq > since))
    }

    /// The filters as typed, for the `--expect` verdict: ` (--method PUT --path /a/*)`.
    fn described(&self) -> String {
        let mut parts = Vec::new();
        if let Some(method) = &self.method {
            parts.push(format!("--method {method}"));
        }
        if let Some(path) = &self.path {
            parts.push(format!(
                "--path {}",
                crate::sanitize::line(path.as_bytes(), 80)
            ));
        }
        match self.status {
            Some(Status::Is(status)) => parts.push(format!("--status {status}")),
            Some(Status::Class(class)) => parts.push(format!("--status {class}xx")),
            None => {}
        }
        if let Some(code) = self.error_code {
            parts.push(format!("--error-code {code}"));
        }
        if self.failed {
            parts.push("--failed".to_owned());
        }
        if let Some(since) = self.since {
            parts.push(format!("--since {since}"));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join(" "))
        }
    }
}

/// `--path` globs: `*` matches within one segment (no `/`), `**` across segments; every other
/// byte matches itself. In linear time (the path's length times the glob's, one pass, no
/// backtracking): a path planted in the journal (a 404 is journaled too) cannot make a glob
/// such as `/**a**a**a**ab` run for minutes.
fn glob_matches(glob: &[u8], path: &[u8]) -> bool {
    let pieces = glob_pieces(glob);
    // The pieces matched so far, as the set of positions the glob may be at: one pass of a
    // non-deterministic matcher over the path.
    let mut at = vec![false; pieces.len() + 1];
    at[0] = true;
    skip_stars(&pieces, &mut at);
    let mut next = vec![false; pieces.len() + 1];
    for &byte in path {
        next.iter_mut().for_each(|state| *state = false);
        for (position, piece) in pieces.iter().enumerate() {
            if !at[position] {
                continue;
            }
            match piece {
                Piece::Byte(wanted) if *wanted == byte => next[position + 1] = true,
                Piece::Byte(_) => {}
                Piece::Star if byte != b'/' => next[position] = true,
                Piece::Star => {}
                Piece::StarStar => next[position] = true,
            }
        }
        skip_stars(&pieces, &mut next);
        std::mem::swap(&mut at, &mut next);
        if !at.contains(&true) {
            return false;
        }
    }
    at[pieces.len()]
}

/// One piece of a glob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece {
    Byte(u8),
    /// `*`: any bytes but `/`.
    Star,
    /// `**`: any bytes.
    StarStar,
}

fn glob_pieces(glob: &[u8]) -> Vec<Piece> {
    let mut pieces = Vec::with_capacity(glob.len());
    let mut rest = glob;
    while let Some((&byte, after)) = rest.split_first() {
        rest = after;
        if byte != b'*' {
            pieces.push(Piece::Byte(byte));
        } else if let Some((b'*', after)) = rest.split_first() {
            rest = after;
            pieces.push(Piece::StarStar);
        } else {
            pieces.push(Piece::Star);
        }
    }
    pieces
}

/// A star may match nothing: where the glob is at a star, it is also just past it.
fn skip_stars(pieces: &[Piece], at: &mut [bool]) {
    for (position, piece) in pieces.iter().enumerate() {
        if at[position] && !matches!(piece, Piece::Byte(_)) {
            at[position + 1] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_within_and_across_segments() {
        // (glob, path, whether it matches)
        for (glob, path, matches) in [
            ("/appendable-data/*", "/appendable-data/5", true),
            ("/appendable-data/*", "/appendable-data/clear-data/5", false),
            ("/appendable-data/**", "/appendable-data/clear-data/5", true),
            (
                "/appendable-data/*/5",
                "/appendable-data/clear-data/5",
                true,
            ),
            ("**/5", "/appendable-data/clear-data/5", true),
            ("/appendable-data/*", "/appendable-data", false),
            ("/a*c", "/abc", true),
            ("/a*", "/a", true),
            ("/a*", "/a/b", false),
            ("/data-id/*", "/data-id/12", true),
            ("/x/**/y", "/x/1/2/y", true),
            ("/exact", "/exact/", false),
            ("", "", true),
            ("", "/", false),
            ("*", "", true),
            ("**", "/a/b", true),
            ("*", "/a", false),
            ("/a***b", "/a/x/b", true),
            ("/*/*", "/a/b", true),
            ("/*/*", "/a/b/c", false),
        ] {
            let got = glob_matches(glob.as_bytes(), path.as_bytes());
            assert_eq!(got, matches, "{glob} against {path}");
        }
    }

    #[test]
    fn failed_is_a_4xx_5xx_or_no_answer_but_not_the_networks_not_there() {
        let record = |line: &str| Record {
            line: line.to_owned(),
            value: serde_json::from_str(line).unwrap(),
        };
        let failed = |line: &str| record(line).failed();
        assert!(!failed(r#"{"status":200}"#));
        assert!(!failed(r#"{"status":304}"#));
        assert!(failed(r#"{"status":400,"error_code":-25}"#));
        assert!(failed(r#"{"status":404,"error_code":-18}"#));
        assert!(failed(r#"{"status":503,"fault":"unavailable"}"#));
        assert!(failed(r#"{"status":null,"hung":true}"#));
        assert!(!failed(
            r#"{"status":404,"error_code":-18,"not_on_network":true}"#
        ));
        assert!(failed(r#"{"status":404,"not_on_network":"yes"}"#));
    }

    #[test]
    fn a_glob_that_would_backtrack_answers_at_once() {
        // Exponential for a backtracking matcher; one pass here.
        let path = format!("/{}", "a".repeat(900));
        assert!(!glob_matches(b"/**a**a**a**a**a**a**ab", path.as_bytes()));
        assert!(glob_matches(b"/**a**a**a**a**a**a**a", path.as_bytes()));
    }
}
