//! The command line's values, checked before anything is sent: names, handles, indexes, index
//! ranges, type tags, selectors, and the journal's filters (`emulator requests`). Each parser
//! turns one typed word into what a command takes, or into the usage failure that names the word
//! and says what to give instead; the commands call them, so no command borrows another's.
//!
//! They stand here rather than as clap value parsers because their words (the command's name,
//! the hint, "nothing was sent") and their exit code are the client's own, which a clap error
//! would reword.

use std::ffi::OsString;

use base64::Engine as _;

use crate::batch::filter::{Edit, KeyGiven};
use crate::batch::poll::Condition;
use crate::batch::select::{Selector, SignedBy};
use crate::batch::show::IndexRange;
use crate::cli::SelectorArgs;
use crate::handle::{self, Handle, HandleProblem, Target};
use crate::input::{self, Slot};
use crate::launcher::serialised::FINGERPRINT_HEX;
use crate::name::{self, Name, NameProblem};
use crate::outcome::Failure;
use crate::values::WaitFor;
use crate::wire::SignKey;

/// The type tags structured data can have: the launcher refused to make any other.
const TYPE_TAGS: &str = "500 (the default), 501 (versioned), or 15000 and above";

/// What `--index` takes, for messages.
const RANGE_FORMS: &str =
    "N, A..B (B not included), A..=B, A.. or ..B, where indexes count from 0 as `show` numbers the items";

/// A name, for `command` (`create`, `open`, `append`, a `--name` selector).
pub fn parse_name(raw: &str, command: &str) -> Result<Name, Failure> {
    Name::parse(raw).map_err(|problem| {
        Failure::usage(format!(
            "invalid name '{}' for {command}: {}",
            crate::sanitize::line(raw.as_bytes(), 80),
            problem.describe()
        ))
        .with_hint(format!("a name is {}; nothing was sent", name::FORMS))
    })
}

/// The one handle (or name) of an item command (standard input holds no list of handles here).
pub fn parse_target(raw: &OsString, command: &str) -> Result<Target, Failure> {
    match input::parse_args(std::slice::from_ref(raw)) {
        Ok(slots) if slots.len() == 1 && slots[0] != Slot::Stdin => match slots[0] {
            Slot::Target(target) => Ok(target),
            Slot::Stdin => unreachable!("checked above"),
        },
        Err(input::BadArgs::Failure(failure)) => Err(failure),
        Err(input::BadArgs::Handles(bad)) => Err(bad[0]
            .problem(command)
            .unwrap_or_else(|| Failure::usage("invalid handle"))),
        Ok(_) => Err(Failure::usage(format!(
            "`{command}` takes one handle, not `-` (standard input)"
        ))
        .with_hint(format!(
            // As the hints have always read: a hint holds no placeholder (docs/exit-codes.md).
            "give the handle itself: safe-ad {command} the handle ...; nothing was sent"
        ))),
    }
}

/// A plain decimal number, 0 to 2^64 − 1, by the same rules as a handle.
fn decimal(text: &str) -> Result<u64, HandleProblem> {
    Handle::parse(text).map(|handle| handle.0)
}

/// The indexes, each checked, none twice (a second removal at the same index would change
/// another item than the one named).
pub fn parse_indexes(
    raw: &[OsString],
    command: &str,
    of: impl std::fmt::Display,
) -> Result<Vec<u64>, Failure> {
    let hint = format!(
        "an index is plain decimal digits, {}, counting from 0 as `safe-ad show {of}` numbers the items; nothing was sent",
        handle::RANGE
    );
    let mut indexes = Vec::with_capacity(raw.len());
    for arg in raw {
        let shown = crate::sanitize::line(arg.as_encoded_bytes(), 80);
        let text = arg.to_str().unwrap_or("\u{fffd}");
        if let Ok(Target::Name(_)) = Target::parse(text) {
            // `remove 0 NAME`: the arguments swapped, the name read as an index.
            return Err(Failure::usage(format!(
                "'{shown}' is a data's name, where {command} takes an index: the data comes first"
            ))
            .with_hint(format!(
                "safe-ad {command} NAME INDEX: the data (its name or a handle) first, then the index of its item; nothing was sent"
            )));
        }
        let index = decimal(text).map_err(|problem| {
            Failure::usage(format!(
                "invalid index '{shown}' for {command}: {}",
                problem.describe()
            ))
            .with_hint(hint.clone())
        })?;
        if indexes.contains(&index) {
            return Err(Failure::usage(format!(
                "index {index} is given twice for {command}"
            ))
            .with_hint(
                "give each index once: the indexes all name items as they are before the first change; nothing was sent",
            ));
        }
        indexes.push(index);
    }
    Ok(indexes)
}

/// `append --type-tag`: a type tag structured data can have.
pub fn parse_type_tag(raw: &str) -> Result<u64, Failure> {
    let invalid = |why: String| {
        Failure::usage(format!(
            "invalid type tag '{}' for append: {why}",
            crate::sanitize::line(raw.as_bytes(), 80)
        ))
        .with_hint(format!(
            "structured data has type tag {TYPE_TAGS}; nothing was sent"
        ))
    };
    let tag = decimal(raw).map_err(|problem| invalid(problem.describe().to_string()))?;
    if tag == 500 || tag == 501 || tag >= 15000 {
        Ok(tag)
    } else {
        Err(invalid(format!(
            "no structured data has it (the launcher makes only {TYPE_TAGS})"
        )))
    }
}

/// `--index`: N, A..B, A..=B, A.., ..B, ..=B.
pub fn parse_range(raw: &str) -> Result<IndexRange, Failure> {
    let invalid = |why: &str| {
        Failure::usage(format!(
            "invalid --index '{}': {why}",
            crate::sanitize::line(raw.as_bytes(), 80)
        ))
        .with_hint(format!("give {RANGE_FORMS}; nothing was sent"))
    };
    let index = |text: &str| {
        decimal(text).map_err(|problem| {
            invalid(&format!(
                "'{}' {}",
                crate::sanitize::line(text.as_bytes(), 80),
                problem.describe().trim_start_matches("it ")
            ))
        })
    };
    let Some((start, end)) = raw.split_once("..") else {
        let at = index(raw)?;
        return Ok(IndexRange {
            start: at,
            end: at.checked_add(1),
        });
    };
    let start = if start.is_empty() { 0 } else { index(start)? };
    let end = match end.strip_prefix('=') {
        Some("") => return Err(invalid("`..=` needs the last index after it")),
        Some(last) => index(last)?.checked_add(1),
        None if end.is_empty() => None,
        None => Some(index(end)?),
    };
    match end {
        Some(end) if end < start => Err(invalid("the end comes before the start")),
        Some(end) if end == start => Err(invalid(
            "it holds no index (the end is not included: A..B stops before B)",
        )),
        _ => Ok(IndexRange { start, end }),
    }
}

/// The selectors, checked: `--signed-by`, `--kind`, `--data-id`, `--name` (of the item
/// commands, and of `show`, which lists what they match).
pub fn parse_selector(command: &SelectorArgs, name: &str) -> Result<Selector, Failure> {
    let signed_by = match command.signed_by.as_deref() {
        None => None,
        Some("you") => Some(SignedBy::You),
        Some("others") => Some(SignedBy::Others),
        Some(raw) if raw.len() == FINGERPRINT_HEX && raw.bytes().all(|b| b.is_ascii_hexdigit()) => {
            Some(SignedBy::Key(raw.to_ascii_lowercase()))
        }
        Some(raw) => {
            return Err(Failure::usage(format!(
                "invalid --signed-by '{}' for {name}",
                crate::sanitize::line(raw.as_bytes(), 80)
            ))
            .with_hint(format!(
                "give a signer's fingerprint as `safe-ad show` gives it ({FINGERPRINT_HEX} hex digits), `you` or `others`; nothing was sent"
            )))
        }
    };
    let mut data_ids = Vec::new();
    for raw in &command.data_id {
        let readings = readings(raw.trim());
        if readings.is_empty() {
            return Err(Failure::usage(format!(
                "invalid --data-id '{}' for {name}: it is neither base64 nor hex",
                crate::sanitize::line(raw.as_bytes(), 80)
            ))
            .with_hint(
                "give the data id as `safe-ad show` gives it (base64), or as hex; nothing was sent",
            ));
        }
        data_ids.extend(readings);
    }
    let names = command
        .name
        .iter()
        .map(|raw| parse_name(raw, name))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Selector {
        signed_by,
        kind: command.kind,
        data_ids,
        names,
    })
}

/// The KEYs of `filter add` or `filter remove` (`edit`), each checked, none twice, and the
/// signers `--signer-of` names (indexes of data items, checked as indexes are), after them.
pub fn parse_keys(
    keys: &[OsString],
    signers: &[OsString],
    edit: Edit,
    of: impl std::fmt::Display,
) -> Result<Vec<KeyGiven>, Failure> {
    let command = match edit {
        Edit::Add => "filter add",
        Edit::Remove => "filter remove",
    };
    let forms = match edit {
        Edit::Add => KEY_FORMS.to_owned(),
        Edit::Remove => format!(
            "{KEY_FORMS}, or the fingerprint of a key in the filter ({FINGERPRINT_HEX} hex digits, as `safe-ad filter show` gives it)"
        ),
    };
    let mut given = Vec::with_capacity(keys.len() + signers.len());
    for raw in keys {
        let shown = crate::sanitize::line(raw.as_encoded_bytes(), 80);
        let invalid = |why: String| {
            Failure::usage(format!("invalid KEY '{shown}' for {command}: {why}"))
                .with_hint(format!("a KEY is {forms}; nothing was sent"))
        };
        let Some(text) = raw.to_str() else {
            return Err(invalid("it is not UTF-8".into()));
        };
        let key = if text.len() == FINGERPRINT_HEX && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            if edit == Edit::Add {
                return Err(Failure::usage(format!(
                    "'{shown}' is a fingerprint, and {command} takes the key itself: a fingerprint names a key only once it is in the filter"
                ))
                .with_hint(format!(
                    "give {KEY_FORMS} (`--signer-of INDEX` takes whoever signed an item); nothing was sent"
                )));
            }
            KeyGiven::Fingerprint(text.to_ascii_lowercase())
        } else {
            let name = Name::parse(text).map_err(|problem| invalid(key_problem(problem)))?;
            KeyGiven::Key(SignKey(*name.bytes()))
        };
        if given.contains(&key) {
            return Err(
                Failure::usage(format!("KEY '{shown}' is given twice for {command}"))
                    .with_hint("give each key once; nothing was sent"),
            );
        }
        given.push(key);
    }
    let indexes = parse_indexes(signers, &format!("{command} --signer-of"), of)?;
    given.extend(indexes.into_iter().map(KeyGiven::SignerOf));
    Ok(given)
}

/// What a KEY is, for messages.
const KEY_FORMS: &str = "a sign key's 32 bytes, as standard base64 (44 characters, ending in '=') or as 64 hex digits, as `safe-ad auth whoami --key` prints yours";

/// Why text is not a sign key's 32 bytes, in a key's words (a name's parser read it).
fn key_problem(problem: NameProblem) -> String {
    match problem {
        NameProblem::HexDigits(digits) => format!(
            "it is {digits} hex digits, and a key in hex has 64 (a fingerprint {FINGERPRINT_HEX})"
        ),
        NameProblem::MissingPadding(length) => format!(
            "it is {length} characters of base64 without the '=' that ends a key (44 characters with it)"
        ),
        NameProblem::Base64Length(length) => {
            format!("it is {length} characters, and a key in base64 has 44, ending in '='")
        }
        NameProblem::WrongLength(bytes) => {
            format!("it is {bytes} bytes, and a sign key is 32")
        }
        problem => problem.describe(),
    }
}

/// `wait --for`: the condition, with the selectors `item` matches by (given only with it).
pub fn parse_condition(
    typed: WaitFor,
    selector: Selector,
    command: &str,
) -> Result<Condition, Failure> {
    let condition =
        match typed {
            WaitFor::NewItems => Condition::NewItems,
            WaitFor::Item if selector.is_given() => Condition::Item(selector.clone()),
            WaitFor::Item => return Err(Failure::usage(format!(
                "invalid --for item for {command}: `item` matches by selectors, and none was given"
            ))
            .with_hint(
                "give --signed-by, --kind, --data-id or --name with --for item; nothing was sent",
            )),
            WaitFor::Stale => Condition::Stale,
            WaitFor::InSync => Condition::InSync,
            WaitFor::VersionAbove(n) => Condition::VersionAbove(n),
        };
    if selector.is_given() && !matches!(condition, Condition::Item(_)) {
        return Err(Failure::usage(format!(
            "the selectors (--signed-by, --kind, --data-id, --name) of {command} go with --for item, not --for {}",
            typed.word()
        ))
        .with_hint("give --for item to wait for an item they match; nothing was sent"));
    }
    Ok(condition)
}

/// What the text may stand for: hex digits (an even number of them) as hex, and base64
/// (standard, padding optional, or URL-safe); some text is both (`AAEC`).
pub fn readings(text: &str) -> Vec<Vec<u8>> {
    let mut readings = Vec::new();
    if text.is_empty() {
        return readings;
    }
    if text.len() % 2 == 0 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        let hex: Option<Vec<u8>> = (0..text.len())
            .step_by(2)
            .map(|at| u8::from_str_radix(&text[at..at + 2], 16).ok())
            .collect();
        readings.extend(hex);
    }
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    readings.extend(
        [STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD]
            .iter()
            .find_map(|engine| engine.decode(text).ok()),
    );
    readings
}

// The journal's filters (`emulator requests`), in a build with the emulator only.

/// `--status`: one status, or a class (`4xx`).
#[cfg(feature = "emulator")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Is(u64),
    Class(u64),
}

/// `--method`: an HTTP method, upper-cased.
#[cfg(feature = "emulator")]
pub fn parse_method(method: &str) -> Result<String, Failure> {
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(Failure::usage(format!(
            "--method {}: expected an HTTP method such as GET, PUT, POST or DELETE",
            crate::sanitize::line(method.as_bytes(), 40)
        )));
    }
    Ok(method.to_ascii_uppercase())
}

/// `--path`: a path or a glob over paths (`journal` matches it).
#[cfg(feature = "emulator")]
pub fn parse_path(path: &str) -> Result<String, Failure> {
    if !path.starts_with('/') && !path.starts_with('*') {
        return Err(Failure::usage(format!(
            "--path {}: a path starts with `/` (or a `*` pattern)",
            crate::sanitize::line(path.as_bytes(), 80)
        ))
        .with_hint("for example --path '/appendable-data/*' or --path '/appendable-data/**'"));
    }
    Ok(path.to_string())
}

/// `--status`: one status (`404`) or a class (`4xx`).
#[cfg(feature = "emulator")]
pub fn parse_status(text: &str) -> Result<Status, Failure> {
    let bad = || {
        Failure::usage(format!(
            "--status {}: expected a status such as 404, or a class such as 4xx",
            crate::sanitize::line(text.as_bytes(), 40)
        ))
    };
    let lower = text.to_ascii_lowercase();
    if let Some(class) = lower.strip_suffix("xx") {
        return match class.parse::<u64>() {
            Ok(digit @ 1..=5) if class.len() == 1 => Ok(Status::Class(digit)),
            _ => Err(bad()),
        };
    }
    match text.parse::<u64>() {
        Ok(status @ 100..=599) if text.len() == 3 => Ok(Status::Is(status)),
        _ => Err(bad()),
    }
}

/// `--since RECORD`: a seq number, or a record's own line (its `seq`); empty: from the start.
#[cfg(feature = "emulator")]
pub fn parse_since(text: &str) -> Result<Option<u64>, Failure> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    if let Ok(seq) = text.parse::<u64>() {
        return Ok(Some(seq));
    }
    let seq = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|value| value["seq"].as_u64());
    match seq {
        Some(seq) => Ok(Some(seq)),
        None => Err(Failure::usage(format!(
            "--since {}: expected a record's seq number, or a record's line as `safe-ad emulator \
             requests` printed it",
            crate::sanitize::line(text.as_bytes(), 80)
        ))
        .with_hint(
            "mark=$(safe-ad emulator requests | tail -n 1) before the step, then --since \"$mark\"",
        )),
    }
}

/// `--expect`: a comparison and a number.
#[cfg(feature = "emulator")]
#[derive(Debug, PartialEq, Eq)]
pub struct Expect {
    pub text: String,
    pub compare: Compare,
    pub count: u64,
}

#[cfg(feature = "emulator")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    Equal,
    AtLeast,
    AtMost,
    More,
    Fewer,
}

#[cfg(feature = "emulator")]
impl Expect {
    pub fn parse(text: &str) -> Result<Expect, Failure> {
        let trimmed = text.trim();
        let (compare, number) = [
            (">=", Compare::AtLeast),
            ("<=", Compare::AtMost),
            (">", Compare::More),
            ("<", Compare::Fewer),
            ("=", Compare::Equal),
        ]
        .iter()
        .find_map(|(prefix, compare)| Some((*compare, trimmed.strip_prefix(prefix)?)))
        .unwrap_or((Compare::Equal, trimmed));
        match number.trim().parse::<u64>() {
            Ok(count) if !number.trim().starts_with('+') => Ok(Expect {
                text: trimmed.to_owned(),
                compare,
                count,
            }),
            _ => Err(Failure::usage(format!(
                "--expect {}: expected a count: N, >=N, <=N, >N or <N",
                crate::sanitize::line(text.as_bytes(), 40)
            ))
            .with_hint("quote a comparison for the shell: --expect '>=1'")),
        }
    }

    pub fn met(&self, matched: u64) -> bool {
        match self.compare {
            Compare::Equal => matched == self.count,
            Compare::AtLeast => matched >= self.count,
            Compare::AtMost => matched <= self.count,
            Compare::More => matched > self.count,
            Compare::Fewer => matched < self.count,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(start: u64, end: Option<u64>) -> IndexRange {
        IndexRange { start, end }
    }

    #[test]
    fn index_ranges() {
        assert_eq!(parse_range("3").unwrap(), range(3, Some(4)));
        assert_eq!(parse_range("2..5").unwrap(), range(2, Some(5)));
        assert_eq!(parse_range("2..=5").unwrap(), range(2, Some(6)));
        assert_eq!(parse_range("2..").unwrap(), range(2, None));
        assert_eq!(parse_range("..5").unwrap(), range(0, Some(5)));
        assert_eq!(parse_range("..=0").unwrap(), range(0, Some(1)));
        assert_eq!(parse_range("..").unwrap(), range(0, None));
        assert_eq!(
            parse_range("18446744073709551615").unwrap(),
            range(u64::MAX, None)
        );
        for bad in [
            "", "x", "5..2", "5..5", "-1", "1...3", "1..=", "1..2..3", " 1", "0x3",
        ] {
            assert!(parse_range(bad).is_err(), "{bad:?}");
        }
        let message = parse_range("5..2").unwrap_err().message;
        assert_eq!(
            message,
            "invalid --index '5..2': the end comes before the start"
        );
    }

    #[test]
    fn indexes_are_decimal_and_given_once() {
        let raw: Vec<OsString> = vec!["3".into(), "0".into(), "12".into()];
        assert_eq!(
            parse_indexes(&raw, "remove", Handle(1)).unwrap(),
            vec![3, 0, 12]
        );
        let twice: Vec<OsString> = vec!["3".into(), "03".into()];
        let failure = parse_indexes(&twice, "remove", Handle(1)).unwrap_err();
        assert_eq!(failure.message, "index 3 is given twice for remove");
        let bad: Vec<OsString> = vec!["-1".into()];
        let failure = parse_indexes(&bad, "purge", Handle(1)).unwrap_err();
        assert_eq!(
            failure.message,
            "invalid index '-1' for purge: it is not a plain decimal number"
        );
    }

    #[test]
    fn type_tags_structured_data_can_have() {
        assert_eq!(parse_type_tag("500").unwrap(), 500);
        assert_eq!(parse_type_tag("501").unwrap(), 501);
        assert_eq!(parse_type_tag("15000").unwrap(), 15000);
        for bad in ["499", "502", "14999", "0", "-1", "x", ""] {
            assert!(parse_type_tag(bad).is_err(), "{bad:?}");
        }
    }

    #[cfg(feature = "emulator")]
    #[test]
    fn expectations_and_statuses_parse() {
        assert_eq!(Expect::parse("3").unwrap().compare, Compare::Equal);
        let at_least = Expect::parse(">=1").unwrap();
        assert!(at_least.met(1) && at_least.met(5) && !at_least.met(0));
        assert!(Expect::parse("0").unwrap().met(0));
        assert!(Expect::parse("<2").unwrap().met(1));
        for bad in ["", "x", "-1", ">=", "=>1", "+1", "1.5"] {
            assert!(Expect::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_status("404").unwrap(), Status::Is(404));
        assert_eq!(parse_status("4xx").unwrap(), Status::Class(4));
        assert_eq!(parse_status("5XX").unwrap(), Status::Class(5));
        for bad in ["4x", "6xx", "40", "0404", "xx", "099"] {
            assert!(parse_status(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_since("").unwrap(), None);
        assert_eq!(parse_since("12").unwrap(), Some(12));
        assert_eq!(
            parse_since("{\"event\":\"request\",\"seq\":7,\"method\":\"GET\"}\n").unwrap(),
            Some(7)
        );
        assert!(parse_since("{\"event\":\"start\"}").is_err());
        assert!(parse_since("seven").is_err());
    }
}
