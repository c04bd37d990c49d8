//! The `--log` records' text: one JSON object a line (`request`, `start`, `reset`), written in
//! safe-ad's own spelling, and the error read from a 4xx or 5xx answer ([`ErrorBody`]) that both
//! the records and the stderr lines show.

use std::time::Duration;

use crate::launcher::state::Live;
use crate::launcher::table::Effect;

/// Longest path in a `--log` record; longer ones are cut (and end in `...`).
const MAX_RECORD_PATH: usize = 1024;

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
pub(crate) struct ErrorBody {
    pub(crate) code: Option<i64>,
    pub(crate) description: String,
}

impl ErrorBody {
    /// Reads an answer's body for its error, when its status is 4xx or 5xx and the body says one.
    pub(crate) fn of(status: u16, body: &[u8]) -> Option<ErrorBody> {
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
    pub(crate) fn shown(&self) -> String {
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
pub(crate) fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// What happened to a request besides its answer, for its record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Note {
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
    /// Answered as the launcher did where the launcher lost data (the route's words: see
    /// docs/emulator-differences.md).
    Launcher(&'static str),
}

impl Note {
    /// How a stderr request line shows the note, after (or instead of) the status.
    pub(crate) fn shown(self, status: &str) -> String {
        match self {
            Note::None => status.to_owned(),
            Note::Unavailable => format!("{status} (injected)"),
            Note::Dropped => "dropped (injected)".to_owned(),
            Note::Delayed(ms) => format!("{status} delayed {ms}ms (injected)"),
            Note::Hung => "(unknown handle: never answered, as the launcher did)".to_owned(),
            Note::Stopping => format!("{status} (stopping: not served)"),
            Note::Aborted => "(cut off unanswered by the stop)".to_owned(),
            Note::TimedOut => "(body not received in time: connection closed)".to_owned(),
            Note::Launcher(note) => format!("{status} ({note})"),
        }
    }
}

/// One request as the logs keep it: what its `--log` record says, kept as it is for the journal
/// of the emulator's own routes, which makes the record only when it is asked for.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    /// Its number in the journal (see [`Request::record`]); `None` for the emulator's own routes.
    pub(crate) seq: Option<u64>,
    /// The user whose launcher it came to, when the emulator names its users (`--user`).
    pub(crate) user: Option<String>,
    pub(crate) method: hyper::Method,
    /// As the log shows it (see [`redact`](super::redact)).
    pub(crate) path: String,
    /// What its route does to data; `None` for a path no route matches.
    pub(crate) effect: Option<Effect>,
    pub(crate) status: Option<u16>,
    pub(crate) error: Option<ErrorBody>,
    /// Its answer is the network's that the data read is not there (see
    /// [`Effect::not_on_network`]): a fact a script may well ask about, not a failure.
    pub(crate) not_on_network: bool,
    pub(crate) elapsed: Duration,
    pub(crate) note: Note,
    /// The live handles after it.
    pub(crate) live: Live,
}

impl Request {
    /// One `--log` record: `{"event":"request","seq":7,"method":"PUT","path":"/appendable-data/0",
    /// "effect":"change","status":200,"elapsed_ms":0.041,"fault":"delayed","delay_ms":120,
    /// "handles":{"appendable_data":5,...}}`. `seq` numbers the requests the journal keeps (1, 2,
    /// ... for the whole run; the emulator's own routes have none); `user` names the user whose
    /// launcher (port) it came to, when the emulator names its users; `effect` is what the route
    /// does to data, `read` or `change` (none for a path no route matches, nor for the
    /// emulator's own routes); `status` is `null` when no answer was sent; `error_code` (when the
    /// body has one) and `description` after it for a 4xx or 5xx answer, then
    /// `not_on_network: true` when that answer is a fetch's NoSuchData, the network's word that
    /// the data is not there; `fault` and `delay_ms` only when injected; `hung: true` for a request left unanswered on
    /// purpose; `stopping: true` for one refused (503) because the emulator was stopping, `aborted:
    /// true` for one cut off unanswered by the stop, `timed_out: true` for one whose body did not
    /// come in time; `note` where the answer is the launcher's loss of data (a second close of an
    /// emptied immutable-data writer). A path longer than 1024 characters (and a description
    /// likewise) is cut and ends in `...`. Every key is safe-ad's own spelling (snake_case, as
    /// `--json` writes them); only `description` carries the launcher's words.
    ///
    /// Made from the one value that carries the request (its fields travel together: the journal
    /// keeps them so and makes the record only when asked).
    pub(crate) fn record(&self) -> String {
        use std::fmt::Write as _;
        // Written by hand into one buffer: this runs once per request at full load.
        let mut record = String::with_capacity(self.path.len() + 240);
        record.push_str("{\"event\":\"request\"");
        if let Some(seq) = self.seq {
            let _ = write!(record, ",\"seq\":{seq}");
        }
        if let Some(user) = &self.user {
            record.push_str(",\"user\":");
            push_json_string(&mut record, user);
        }
        record.push_str(",\"method\":");
        push_json_string(&mut record, self.method.as_str());
        record.push_str(",\"path\":");
        push_cut_string(&mut record, &self.path, MAX_RECORD_PATH);
        if let Some(effect) = self.effect {
            let _ = write!(record, ",\"effect\":\"{}\"", effect.word());
        }
        let _ = match self.status {
            Some(status) => write!(record, ",\"status\":{status}"),
            None => write!(record, ",\"status\":null"),
        };
        if let Some(error) = &self.error {
            if let Some(code) = error.code {
                let _ = write!(record, ",\"error_code\":{code}");
            }
            record.push_str(",\"description\":");
            push_cut_string(&mut record, &error.description, MAX_RECORD_DESCRIPTION);
        }
        if self.not_on_network {
            record.push_str(",\"not_on_network\":true");
        }
        let micros = self.elapsed.as_micros();
        let _ = write!(
            record,
            ",\"elapsed_ms\":{}.{:03}",
            micros / 1000,
            micros % 1000
        );
        let _ = match self.note {
            Note::None => Ok(()),
            Note::Unavailable => write!(record, ",\"fault\":\"unavailable\""),
            Note::Dropped => write!(record, ",\"fault\":\"dropped\""),
            Note::Delayed(ms) => write!(record, ",\"fault\":\"delayed\",\"delay_ms\":{ms}"),
            Note::Hung => write!(record, ",\"hung\":true"),
            Note::Stopping => write!(record, ",\"stopping\":true"),
            Note::Aborted => write!(record, ",\"aborted\":true"),
            Note::TimedOut => write!(record, ",\"timed_out\":true"),
            Note::Launcher(note) => {
                record.push_str(",\"note\":");
                push_cut_string(&mut record, note, MAX_RECORD_DESCRIPTION);
                Ok(())
            }
        };
        record.push_str(",\"handles\":");
        push_handles(&mut record, &self.live);
        record.push_str("}\n");
        record
    }

    /// About how many bytes it holds.
    pub(crate) fn size(&self) -> usize {
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
pub(crate) fn json_string(text: &str) -> String {
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

/// The first record of a `--log` file: `{"event":"start","version":"0.3.0","url":
/// "http://127.0.0.1:8100","pid":N,"network":"demo"|"empty"|"state","handles":{...}}`.
pub(crate) fn start_record(url: &str, network: &str, live: &Live) -> String {
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
pub(crate) fn reset_record(network: &str, live: &Live) -> String {
    format!(
        "{{\"event\":\"reset\",\"network\":{},\"handles\":{}}}\n",
        json_string(network),
        handles_json(live)
    )
}

/// `{"appendable_data":N,"structured_data":N,"data_id":N,"sign_key":N,"encrypt_key":N,
/// "cipher_opts":N}`
pub(crate) fn handles_json(live: &Live) -> String {
    let mut out = String::new();
    push_handles(&mut out, live);
    out
}

/// Every key a journal record (`--log`, `emulator requests --json`) can carry, in the order a
/// record writes them: records made with each optional part given, one per kind of note, and
/// their keys read back. The records are written by hand for speed ([`Request::record`]); this
/// is what the client's key table of them is checked against.
pub fn record_keys() -> Vec<String> {
    let notes = [
        Note::None,
        Note::Unavailable,
        Note::Dropped,
        Note::Delayed(1),
        Note::Hung,
        Note::Stopping,
        Note::Aborted,
        Note::TimedOut,
        Note::Launcher("a note"),
    ];
    let mut keys: Vec<String> = Vec::new();
    for note in notes {
        let request = Request {
            seq: Some(1),
            user: Some("alice".to_owned()),
            method: hyper::Method::GET,
            path: "/appendable-data/metadata/1".to_owned(),
            effect: Some(Effect::Read),
            status: Some(400),
            error: Some(ErrorBody {
                code: Some(-1),
                description: "a description".to_owned(),
            }),
            not_on_network: true,
            elapsed: Duration::ZERO,
            note,
            live: Live::default(),
        };
        let record: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&request.record()).unwrap_or_default();
        for key in record.keys() {
            if !keys.contains(key) {
                keys.push(key.clone());
            }
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::super::request_line;
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
        let record = Request {
            seq: None,
            user: None,
            method: hyper::Method::GET,
            path: "/a\u{202e}b\u{1b}\u{e9}".to_owned(),
            effect: None,
            status: Some(404),
            error: None,
            not_on_network: false,
            elapsed: Duration::ZERO,
            note: Note::None,
            live: Live::default(),
        }
        .record();
        assert!(
            record.contains("\"path\":\"/a\\u202eb\\u001b\u{e9}\""),
            "{record}"
        );
        let value: serde_json::Value = serde_json::from_str(&record).unwrap();
        assert_eq!(value["path"], "/a\u{202e}b\u{1b}\u{e9}");
        let long = "/x".repeat(1000);
        let cut = Request {
            seq: None,
            user: None,
            method: hyper::Method::GET,
            path: long,
            effect: None,
            status: None,
            error: None,
            not_on_network: false,
            elapsed: Duration::ZERO,
            note: Note::Aborted,
            live: Live::default(),
        }
        .record();
        let value: serde_json::Value = serde_json::from_str(&cut).unwrap();
        assert_eq!(
            value["path"].as_str().unwrap().chars().count(),
            MAX_RECORD_PATH + 3
        );
        assert_eq!(value["aborted"], true);
    }

    #[test]
    fn records_are_one_json_object_each() {
        let live = Live {
            data_id: 2,
            ..Live::default()
        };
        let line = Request {
            seq: Some(3),
            user: None,
            method: hyper::Method::GET,
            path: "/a\"b".to_owned(),
            effect: Some(Effect::Read),
            status: None,
            error: None,
            not_on_network: false,
            elapsed: Duration::from_micros(1500),
            note: Note::Delayed(120),
            live,
        }
        .record();
        assert!(line.ends_with('\n'));
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["path"], "/a\"b");
        assert_eq!(value["status"], serde_json::Value::Null);
        assert_eq!(value["seq"], 3);
        assert_eq!(value["elapsed_ms"], 1.5);
        assert_eq!(value["fault"], "delayed");
        assert_eq!(value["delay_ms"], 120);
        assert_eq!(value["handles"]["data_id"], 2);
        assert_eq!(value["effect"], "read");
        let ok = Request {
            seq: None,
            user: None,
            method: hyper::Method::PUT,
            path: "/".to_owned(),
            effect: Some(Effect::Change),
            status: Some(200),
            error: None,
            not_on_network: false,
            elapsed: Duration::ZERO,
            note: Note::None,
            live,
        }
        .record();
        let value: serde_json::Value = serde_json::from_str(&ok).unwrap();
        assert_eq!(value["event"], "request");
        assert_eq!(value["status"], 200);
        assert!(value.get("fault").is_none());
        assert!(value.get("error_code").is_none());
        assert!(value.get("seq").is_none());
        assert!(value.get("description").is_none());
        assert!(value.get("not_on_network").is_none());
        assert_eq!(value["effect"], "change");
    }

    #[test]
    fn a_fetch_of_data_not_on_the_network_says_so_after_its_error() {
        let missing = ErrorBody::of(
            404,
            br#"{"errorCode":-18,"description":"CoreError::GetFailure::GetError::NoSuchData"}"#,
        )
        .unwrap();
        let record = Request {
            seq: Some(4),
            user: None,
            method: hyper::Method::GET,
            path: "/structured-data/handle/5".to_owned(),
            effect: Some(Effect::Fetch),
            status: Some(404),
            error: Some(missing),
            not_on_network: true,
            elapsed: Duration::ZERO,
            note: Note::None,
            live: Live::default(),
        }
        .record();
        assert!(
            record.starts_with(
                "{\"event\":\"request\",\"seq\":4,\"method\":\"GET\",\
                 \"path\":\"/structured-data/handle/5\",\"effect\":\"read\",\"status\":404,\
                 \"error_code\":-18,\"description\":\"CoreError::GetFailure::GetError::NoSuchData\",\
                 \"not_on_network\":true,\"elapsed_ms\":"
            ),
            "{record}"
        );
        // A path no route matches has no effect.
        let unknown = Request {
            seq: Some(5),
            user: None,
            method: hyper::Method::GET,
            path: "/nowhere".to_owned(),
            effect: None,
            status: Some(404),
            error: None,
            not_on_network: false,
            elapsed: Duration::ZERO,
            note: Note::None,
            live: Live::default(),
        }
        .record();
        let value: serde_json::Value = serde_json::from_str(&unknown).unwrap();
        assert!(value.get("effect").is_none(), "{unknown}");
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
        let record = Request {
            seq: None,
            user: None,
            method: hyper::Method::PUT,
            path: "/appendable-data/5".to_owned(),
            effect: Some(Effect::Change),
            status: Some(400),
            error: Some(exists.clone()),
            not_on_network: false,
            elapsed: Duration::ZERO,
            note: Note::None,
            live: Live::default(),
        }
        .record();
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
