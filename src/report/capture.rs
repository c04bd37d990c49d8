//! The words and the file of `capture`: the fixture it writes (the emulator's state file,
//! `safe-ad-emulator-state/1`, written as the emulator crate's own types of it, with its record
//! of what was left out, `leftOut`), and what was left out said on stderr, each in the same
//! words as in that record.

use base64::Engine;
use safe_ad_emulator::fixture;

use super::{words, Reporter};
use crate::batch::capture::{Capture, CapturedItem, LeftOut, Place, Subject, Why};
use crate::batch::show::{Section, Shown};
use crate::launcher::Launcher;
use crate::outcome::Failure;
use crate::sanitize;
use crate::wire::{DataKind, SignKey};

impl Reporter {
    /// `capture -o FILE` that read no data at all: FILE is not replaced by an empty fixture.
    pub fn capture_not_written(&self, path: &std::path::Path) {
        let shown = crate::sanitize::line(path.as_os_str().as_encoded_bytes(), 200);
        self.warning(&format!(
            "capture: no data could be read, so {shown} was not written (it is as it was)"
        ));
    }

    /// One thing left out, on stderr (never silenced: a fixture that lacks it is not what was
    /// on the launcher).
    pub fn capture_left_out(&self, left: &LeftOut) {
        let (what, why) = left_out_words(left);
        self.warning(&format!("capture: left out {what}: {why}"));
    }

    /// What was left out, summed up by reason on stderr: how many of each, and the first few
    /// (`--verbose` says each, as it is found; the fixture's `leftOut` lists them all).
    pub fn capture_left_out_summary(&self, left: &[LeftOut]) {
        const FIRST: usize = 3;
        if left.is_empty() {
            return;
        }
        let mut reasons: Vec<(&'static str, Vec<String>)> = Vec::new();
        for one in left {
            let (what, _) = left_out_words(one);
            let reason = reason_words(&one.why);
            match reasons.iter_mut().find(|(said, _)| *said == reason) {
                Some((_, whats)) => whats.push(what),
                None => reasons.push((reason, vec![what])),
            }
        }
        let parts: Vec<String> = (reasons.iter())
            .map(|(reason, whats)| {
                let more = match whats.len().saturating_sub(FIRST) {
                    0 => String::new(),
                    n => format!(" and {n} more"),
                };
                let first = whats[..whats.len().min(FIRST)].join(", ");
                format!("{} {reason} ({first}{more})", whats.len())
            })
            .collect();
        self.warning(&format!(
            "capture: left out {}: {}; `--verbose` says why of each, and the fixture's leftOut lists them all",
            counted(left.len(), "thing", "things"),
            parts.join("; ")
        ));
    }

    /// The fixture written: on stdout, or the file said on stderr.
    pub fn captured(&self, text: &str, capture: &Capture, path: Option<&std::path::Path>) {
        match path {
            None => self.out(text),
            Some(path) => {
                let path = sanitize::line(path.display().to_string().as_bytes(), 200);
                self.info(&format!(
                    "capture: wrote {} appendable data, {} structured data and {} immutable data \
                     to {path} ({} bytes; {} left out); `safe-ad emulator --import {path}` loads it",
                    capture.appendable.len(),
                    capture.structured.len(),
                    capture.immutable.len(),
                    text.len(),
                    match capture.left_out.len() {
                        0 => "nothing".to_owned(),
                        n => format!("{n} thing{}", if n == 1 { "" } else { "s" }),
                    },
                ));
            }
        }
    }

    /// With `--verbose`, the exchanges of one data's read (its metadata, filter keys, items).
    pub fn capture_exchanges(&self, launcher: &Launcher, shown: &Shown) {
        self.exchanges(launcher, &shown.steps);
        for key in &shown.filter {
            self.exchanges(launcher, &key.steps);
        }
        for item in shown.data.iter().chain(&shown.deleted) {
            self.exchanges(launcher, &item.steps);
        }
    }

    /// Under `--dry-run`: the reads that follow the answers.
    pub fn capture_plan_note(&self) {
        self.note(
            "capture then reads each item of each data (its data id, signer and what it points \
             at) and the appendable data items point at, as `show --full` reads them; which \
             requests those are depends on the answers",
        );
    }
}

/// The fixture: the emulator's own state-file types, pretty JSON as the emulator's own save
/// writes them, ending in a newline.
pub fn fixture_text(capture: &Capture) -> String {
    let appendable = (capture.appendable.iter())
        .map(|data| fixture::AdJson {
            name: data.name.to_string(),
            is_private: false,
            version: data.version,
            filter_type: data.filter_type.name().to_owned(),
            filter_keys: data.filter_keys.iter().map(key_text).collect(),
            owner: None,
            owner_key: data.owner.as_ref().map(key_text),
            data: data.data.iter().map(item_json).collect(),
            deleted_data: data.deleted.iter().map(item_json).collect(),
        })
        .collect();
    let structured = (capture.structured.values())
        .map(|data| fixture::SdJson {
            name: data.name.to_string(),
            type_tag: data.type_tag,
            version: data.version,
            data: vec![base64(&data.content)],
            encrypted: Vec::new(),
            deleted: false,
            unclaimable: false,
        })
        .collect();
    let immutable = (capture.immutable.values())
        .map(|data| fixture::ImmutableJson {
            // Left out: the emulator computes it from cipher and content.
            name: None,
            cipher: data.cipher.to_owned(),
            content: base64(&data.content),
        })
        .collect();
    let left_out = (capture.left_out.iter())
        .map(|left| {
            let (what, why) = left_out_words(left);
            fixture::LeftOutJson { what, why }
        })
        .collect();
    let file = fixture::StateFile {
        format: fixture::STATE_FORMAT.to_owned(),
        users: Vec::new(),
        appendable_data: appendable,
        structured_data: structured,
        immutable_data: immutable,
        left_out: Some(left_out),
    };
    let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
    text.push('\n');
    text
}

fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn key_text(key: &SignKey) -> String {
    base64(&key.0)
}

fn item_json(item: &CapturedItem) -> fixture::ItemJson {
    let name = item.pointer.name.to_string();
    let mut json = fixture::ItemJson {
        structured_data: None,
        immutable_data: None,
        appendable_data: None,
        sign_key: item.signer.as_ref().map(key_text),
        signed_by: None,
        seal: 0,
    };
    match item.pointer.kind {
        DataKind::Structured => {
            json.structured_data = Some(fixture::SdKeyJson {
                name,
                type_tag: item.pointer.type_tag.unwrap_or_default(),
            })
        }
        DataKind::Immutable => json.immutable_data = Some(fixture::NameJson { name }),
        DataKind::PubAppendable | DataKind::PrivAppendable => {
            json.appendable_data = Some(fixture::AdKeyJson {
                name,
                is_private: item.pointer.kind == DataKind::PrivAppendable,
            })
        }
    }
    json
}

/// What was left out and why, in words (scrubbed of the token: a failure's words may quote
/// the launcher).
fn left_out_words(left: &LeftOut) -> (String, String) {
    let what = match &left.subject {
        Subject::Data(name) => format!("appendable data {name}"),
        Subject::OwnerOf(name) => format!("the owner of appendable data {name}"),
        Subject::Item(place) => format!("item {}", place_words(place)),
        Subject::FilterKey(name, index) => {
            format!("filter key {index} of appendable data {name}")
        }
        Subject::Pointed(data, place) => format!("{data} ({})", pointed_by(place)),
    };
    let why = match &left.why {
        Why::Private => "it is private data; capture takes copies of public data only".to_owned(),
        Why::NotOnNetwork => {
            "it is not on the network (the item still points at it, as it did)".to_owned()
        }
        Why::NotTaken => "its copy could not be taken (said above)".to_owned(),
        Why::Failed(failure) => format!("a read failed: {}", failure_words(failure)),
        Why::Undecodable(error) => format!(
            "its bytes are not in launcher 0.11.0's layout: {}",
            sanitize::line(error.as_bytes(), 200)
        ),
        Why::TooDeep => format!(
            "it is more than {} steps through items from a name given",
            crate::batch::capture::MAX_DEPTH
        ),
        Why::TooMany => format!(
            "the capture holds {} appendable data already, the most it reads",
            crate::batch::capture::MAX_DATA
        ),
        Why::OlderVersions(versions) => format!(
            "versioned structured data of {versions} versions: only the latest is in the fixture"
        ),
        Why::TooLarge(size) => format!(
            "immutable data of {size} bytes, more than one answer is read; its content was not \
             read"
        ),
        Why::PastLastVersion(version) => format!(
            "its version, {version}, is past the last one a fixture holds, {} (`--import` \
             refuses it: no save could follow it, since a save stores version + 1)",
            safe_ad_emulator::LAST_FIXTURE_VERSION
        ),
        Why::NamedElsewhere => "its name is not the one the emulator gives its content with any \
             cipher (another launcher wrote it), so no immutable data of the fixture would be \
             found under it"
            .to_owned(),
    };
    (words(&what), words(&why))
}

/// A reason for leaving something out, in a few words, for the summary.
fn reason_words(why: &Why) -> &'static str {
    match why {
        Why::Private => "private",
        Why::NotOnNetwork => "not on the network",
        Why::NotTaken => "whose copy could not be taken",
        Why::Failed(_) => "whose read failed",
        Why::Undecodable(_) => "not in launcher 0.11.0's layout",
        Why::TooDeep => "too many steps from a name given",
        Why::TooMany => "past the most appendable data read",
        Why::OlderVersions(_) => "older versions",
        Why::TooLarge(_) => "too large to read",
        Why::NamedElsewhere => "named by another launcher",
        Why::PastLastVersion(_) => "past the last version a fixture holds",
    }
}

/// `1 thing`, `2 things`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn place_words(place: &Place) -> String {
    let section = match place.section {
        Section::Data => "data",
        Section::Deleted => "deleted",
    };
    format!("{section} {} of appendable data {}", place.index, place.of)
}

fn pointed_by(place: &Place) -> String {
    format!("pointed at by {}", place_words(place))
}

fn failure_words(failure: &Failure) -> String {
    let mut text = failure.message.clone();
    if let Some(answer) = &failure.answer {
        if !text.contains(&answer.description) {
            text.push_str(&format!(" ({})", answer.description));
        }
    }
    sanitize::line(text.as_bytes(), 300)
}
