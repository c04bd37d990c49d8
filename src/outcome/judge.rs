//! Judging the launcher's answers: a status and a body become the reply the request calls for,
//! or a [`Failure`] with its class and hint; no answer at all becomes one too, with what to check.

use std::time::Duration;

use super::hint::{Check, Hint, Known};
use super::{AnswerError, Class, Failure};
use crate::launcher::{
    Answer, Fetched, Grant, HandleReply, Metadata, NoAnswer, Operation, ReaderReply, Request,
    StructuredFetched, Unreadable, MAX_CONTENT_BYTES, MOST_LIST_ENTRIES,
};
use crate::sanitize;
use crate::secret::Redactor;

/// How much of a body or header a message shows.
const SHOWN_CHARS: usize = 300;

/// The hint for one of the launcher's error codes, given what was asked: the same code can
/// call for other advice after another request.
fn hint_for_error_code(operation: Option<Operation>, code: i64) -> Option<Hint> {
    let fetching = matches!(operation, Some(Operation::Fetch | Operation::DataId));
    match code {
        -23 => Some(Hint::Known(Known::DataExists)),
        -18 | -22 if fetching => Some(Hint::Known(Known::NotOnNetwork)),
        -18 | -22 => Some(Hint::Known(Known::NoSuchData)),
        -25 if operation == Some(Operation::Append) => Some(Hint::Known(Known::AppendRefused)),
        -25 => Some(Hint::Known(Known::StaleVersion)),
        -1514 => Some(Hint::Known(Known::UnknownDataId)),
        -1515 => Some(Hint::Known(Known::UnknownHandle)),
        -1524 => Some(Hint::Known(Known::NoSuchIndex)),
        // `DataTooLarge`: a save or an append that would take appendable data past routing's
        // 102,400 bytes.
        -29 if matches!(
            operation,
            Some(Operation::Put | Operation::Post | Operation::Append)
        ) =>
        {
            Some(Hint::Known(Known::DataTooLarge))
        }
        // `UnsupportedOperation`: the encrypt key of public data (`append --immutable --encrypt
        // asymmetric` to it).
        -1525 if operation == Some(Operation::EncryptKey) => {
            Some(Hint::Known(Known::AsymmetricNeedsPrivate))
        }
        _ => None,
    }
}

/// The class of an HTTP status the launcher answered with (2xx is not a failure).
pub fn class_for_status(status: u16) -> Option<Class> {
    match status {
        200..=299 => None,
        401 | 403 => Some(Class::Auth),
        400..=499 => Some(Class::Rejected),
        500..=599 => Some(Class::Launcher),
        _ => Some(Class::Unexpected),
    }
}

/// The hint for a failed answer, from its error code first, then its status.
fn hint_for_answer(
    operation: Option<Operation>,
    status: u16,
    error_code: Option<i64>,
    description: &str,
) -> Option<Hint> {
    if let Some(hint) = error_code.and_then(|code| hint_for_error_code(operation, code)) {
        return Some(hint);
    }
    let hint = match status {
        401 => Hint::Known(Known::TokenRejected),
        403 => Hint::Known(Known::NoPermission),
        404 if error_code == Some(404) && description.contains("Endpoint Not Found") => {
            Hint::Known(Known::NoSuchRoute)
        }
        404 if description.contains("NoSuchData") || description.contains("NotFound") => {
            if matches!(operation, Some(Operation::Fetch | Operation::DataId)) {
                Hint::Known(Known::NotOnNetwork)
            } else {
                Hint::Known(Known::NoSuchData)
            }
        }
        _ => return None,
    };
    Some(hint)
}

/// What a successful answer carried, as the request it answers calls for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `OK` and nothing more.
    Done,
    Metadata(Metadata),
    /// A new handle: of created data, or a data-id handle.
    Handle(u64),
    Fetched(Fetched),
    /// A structured-data handle and what the launcher says of the data.
    FetchedStructured(StructuredFetched),
    /// Raw bytes: serialised data, or content.
    Bytes(Vec<u8>),
    /// An immutable-data reader's handle and the content's size.
    Reader(ReaderReply),
}

/// Judges the answer to a request: its status, then the body that request's success carries.
pub fn judge(request: &Request, answer: &Answer) -> Result<Reply, Failure> {
    let operation = request.operation();
    judge_status(Some(operation), answer)?;
    let reply = match operation {
        Operation::Metadata => Metadata::parse(&answer.body).map(Reply::Metadata),
        // The handle-making answers that carry more than the handle; every other one, as the
        // operation's row says (`Operation::row`), is `{"handleId": n}`.
        Operation::Fetch => Fetched::parse(&answer.body).map(Reply::Fetched),
        Operation::FetchStructured => {
            StructuredFetched::parse(&answer.body).map(Reply::FetchedStructured)
        }
        Operation::ImmutableReader => ReaderReply::parse(&answer.body).map(Reply::Reader),
        operation if operation.makes_handle() => {
            HandleReply::parse(&answer.body).map(|reply| Reply::Handle(reply.handle_id))
        }
        operation if operation.answers_bytes() => {
            if answer.body.len() > MAX_CONTENT_BYTES {
                return Err(Failure::new(
                    Class::Unexpected,
                    format!(
                        "the launcher answered {} with more than {} KiB; the network stores no data that large",
                        status_line(answer.status),
                        MAX_CONTENT_BYTES / 1024
                    ),
                )
                .with_hint(Hint::Known(Known::NotUnderstood)));
            }
            Ok(Reply::Bytes(answer.body.clone()))
        }
        // The launcher answered every other route's success with Express's `sendStatus(200)`:
        // the body `OK` and nothing else. Any other body is not its answer, and a save or drop
        // answered so may not have acted.
        _ if answer.body == b"OK" => Ok(Reply::Done),
        _ => Err(Unreadable::Shape),
    };
    let too_long = match &reply {
        Ok(Reply::Metadata(metadata)) => metadata.too_long(),
        Ok(Reply::Fetched(fetched)) => fetched.too_long(),
        _ => None,
    };
    if let Some((list, count)) = too_long {
        return Err(Failure::new(
            Class::Unexpected,
            format!(
                "the launcher answered {} saying the data holds {count} {list}; the network holds no appendable data with more than {MOST_LIST_ENTRIES}",
                status_line(answer.status)
            ),
        )
        .with_hint(Hint::Known(Known::NotUnderstood)));
    }
    reply.map_err(|unreadable| {
        let what = match operation {
            Operation::Metadata => "metadata",
            Operation::Fetch | Operation::FetchStructured => "a handle with metadata",
            Operation::ImmutableReader => "a reader handle with a size",
            operation if operation.makes_handle() => "a handle",
            _ => "the launcher's `OK`",
        };
        let detail = match &unreadable {
            Unreadable::Shape => describe_words(&answer.body, &answer.words).0,
            Unreadable::NotKnown { field, known } => not_known(field, known),
        };
        Failure::new(
            Class::Unexpected,
            format!(
                "the launcher answered {} with a body that is not {what}: {detail}",
                status_line(answer.status)
            ),
        )
        .with_hint(Hint::Known(Known::NotUnderstood))
    })
}

/// What is wrong with a closed field's value, without the value: it may be anything, the token
/// among it, so neither it nor the body that holds it is shown.
fn not_known(field: &str, known: &[&str]) -> String {
    format!(
        "its {field} holds a value that is not one of {} (the value is not shown)",
        known.join(", ")
    )
}

/// Content read through an immutable-data reader is exactly the size the launcher gave for the
/// reader, or it is not the content: a shorter answer (a 206 for a range nobody asked for, a
/// `content-length` below the size) or a longer one is refused, whatever its status, so that no
/// command writes part of the data as the whole of it, or shows a size beside other bytes.
pub fn judge_content(size: u64, content: &[u8]) -> Result<(), Failure> {
    // A usize always fits in a u64 on the targets safe-ad builds for.
    let length = content.len() as u64;
    if length == size {
        return Ok(());
    }
    Err(Failure::new(
        Class::Unexpected,
        format!(
            "the launcher gave the content's size as {size} bytes, then answered {length} bytes of content"
        ),
    )
    .with_hint(Hint::Known(Known::NotUnderstood)))
}

/// Judges an answer about the token: any 2xx is success.
pub fn judge_answer(answer: &Answer) -> Result<(), Failure> {
    judge_status(None, answer)
}

/// Any 2xx is success; anything else is a failure that says what came back.
fn judge_status(operation: Option<Operation>, answer: &Answer) -> Result<(), Failure> {
    let Some(class) = class_for_status(answer.status) else {
        return Ok(());
    };
    let status = status_line(answer.status);
    if (300..400).contains(&answer.status) {
        let target = match &answer.location {
            Some(location) => format!("a redirect to '{}'", sanitize::line(location, SHOWN_CHARS)),
            None => "a redirect with no Location".to_string(),
        };
        let mut failure = Failure::new(
            class,
            format!("the launcher answered {status}, {target}; safe-ad does not follow redirects"),
        );
        failure.answer = Some(AnswerError {
            status: answer.status,
            error_code: None,
            description: target,
        });
        return Err(failure.with_hint(Hint::Known(Known::Redirect)));
    }
    let (detail, error_code, description) = describe_words(&answer.body, &answer.words);
    let mut failure = Failure::new(class, format!("the launcher answered {status}: {detail}"));
    failure.hint = hint_for_answer(operation, answer.status, error_code, &description);
    failure.answer = Some(AnswerError {
        status: answer.status,
        error_code,
        description: match error_code {
            Some(_) => sanitize::line(description.as_bytes(), SHOWN_CHARS),
            None => detail,
        },
    });
    Err(failure)
}

/// Judges the answer to a login: approved with a usable token, denied, or anything else.
pub fn judge_login(answer: &Answer) -> Result<Grant, Failure> {
    if answer.status == 401 {
        let (detail, _, _) = describe_words(&answer.body, &answer.words);
        return Err(Failure::new(
            Class::Auth,
            format!("the launcher denied the request: {detail}"),
        )
        .with_hint(Hint::Known(Known::LoginDenied)));
    }
    judge_answer(answer)?;
    Grant::parse(&answer.body).map_err(|unreadable| match unreadable {
        Unreadable::Shape => Failure::new(
            Class::Unexpected,
            "the launcher approved the request but its answer holds no usable token",
        )
        .with_hint(Hint::Known(Known::NoTokenInGrant)),
        // The token in it is not stored: an answer with a value no launcher gives is not
        // the launcher's.
        Unreadable::NotKnown { field, known } => Failure::new(
            Class::Unexpected,
            format!(
                "the launcher approved the request but its answer is not a grant: {}; nothing was stored",
                not_known(field, &known)
            ),
        )
        .with_hint(Hint::Known(Known::NotUnderstood)),
    })
}

/// Turns "nothing came back" into a failure, with what to check.
pub fn judge_no_answer(
    no_answer: &NoAnswer,
    operation: Option<Operation>,
    launcher: &str,
) -> Failure {
    let failure = no_answer_failure(no_answer, operation, launcher);
    // A request that may have reached the launcher may have acted there: it is not sent again
    // (`Operation::resend_is_safe`), and the person is told what to look at before trying.
    match operation {
        Some(operation) if no_answer.may_have_arrived() && !operation.resend_is_safe() => {
            let mut failure = failure;
            failure.message.push_str(&format!(
                "; the launcher may have acted on the {} before its answer was lost, so it was not sent again",
                operation.name()
            ));
            let check = lost_answer_check(operation);
            // What the hint said of the launcher stays; "try again" gives way to what to check.
            let before = match (no_answer, failure.hint.take()) {
                (NoAnswer::Reset(_) | NoAnswer::Broken(_), _) | (_, None) => None,
                (_, Some(hint)) => Some(Box::new(hint)),
            };
            failure.with_hint(Hint::Lost { before, check })
        }
        _ => failure,
    }
}

/// What to check after the answer to `operation` (which is not safe to send twice) was lost.
fn lost_answer_check(operation: Operation) -> Check {
    match operation {
        Operation::Put | Operation::Post => Check::Save,
        Operation::Remove | Operation::Restore | Operation::Purge => Check::IndexChange,
        Operation::Append => Check::Append,
        Operation::Drop => Check::Drop,
        Operation::Create => Check::Create,
        operation if operation.makes_handle() => Check::NewHandle,
        _ => Check::OtherDrop,
    }
}

fn no_answer_failure(
    no_answer: &NoAnswer,
    operation: Option<Operation>,
    launcher: &str,
) -> Failure {
    let unreachable = |message: String| Failure::new(Class::Unreachable, message);
    // What went wrong, then what the connection said of it, cut to one safe line.
    let with_detail = |class, says: &str, detail: &str| {
        let detail = sanitize::line(detail.as_bytes(), SHOWN_CHARS);
        Failure::new(class, format!("{says}: {detail}"))
    };
    // The launcher speaks the other scheme: the URL to use instead, `from` made `to`.
    let other_scheme = |message: String, hint: &str, (from, to): (&str, &str)| {
        let url = launcher.replacen(from, to, 1);
        Failure::new(Class::Unexpected, message).with_hint(format!("{hint}: {url}"))
    };
    match no_answer {
        NoAnswer::Refused => unreachable(format!("could not connect to {launcher}: connection refused"))
            .with_hint(format!(
                "is the launcher running at {launcher}? Start it, or point --launcher-url (or SAFE_LAUNCHER_URL) at it"
            )),
        NoAnswer::Dns(detail) => with_detail(
            Class::Unreachable,
            &format!("could not look up the host of {launcher}"),
            detail,
        )
        .with_hint("check the host name in the launcher URL (--launcher-url, SAFE_LAUNCHER_URL or launcher_url)"),
        NoAnswer::ConnectTimeout(bound) => unreachable(format!(
            "could not connect to {launcher} within {}",
            seconds(*bound)
        ))
        .with_hint(format!("is the launcher running and reachable at {launcher}?")),
        NoAnswer::Timeout(bound) => {
            let failure = unreachable(format!("the launcher did not answer within {}", seconds(*bound)));
            if operation.is_some_and(Operation::is_clear) {
                failure.with_hint(Hint::Known(Known::TimedOutClear))
            } else {
                failure.with_hint(Hint::Known(Known::TimedOut))
            }
        }
        NoAnswer::Garbled(detail) => with_detail(Class::Unexpected, "the answer is not HTTP a launcher would send", detail)
            .with_hint(format!("check that {launcher} is the SAFE Launcher and not another service")),
        NoAnswer::Reset(detail) => with_detail(Class::Unreachable, "the connection closed before any answer", detail)
            .with_hint("the launcher may have stopped or restarted; check it, or retry with --retries N"),
        NoAnswer::TlsAnswer => other_scheme(
            format!("{launcher} answered with TLS: it speaks https, not plain http"),
            "use https:// in the launcher URL",
            ("http://", "https://"),
        ),
        NoAnswer::PlainAnswer => other_scheme(
            format!("{launcher} answered in plain http, not https"),
            "use http:// in the launcher URL (the SAFE Launcher speaks plain http)",
            ("https://", "http://"),
        ),
        NoAnswer::Broken(detail) => with_detail(Class::Unreachable, "the connection failed before a complete answer", detail)
            .with_hint("the launcher may have stopped or restarted; check it and try again"),
    }
}

fn status_line(status: u16) -> String {
    match reqwest::StatusCode::from_u16(status)
        .ok()
        .and_then(|code| code.canonical_reason())
    {
        Some(reason) => format!("{status} {reason}"),
        None => status.to_string(),
    }
}

/// A duration as messages say it: `30 s`, `0.5 s`.
pub fn seconds(duration: Duration) -> String {
    let secs = duration.as_secs_f64();
    if secs.fract() == 0.0 {
        format!("{secs:.0} s")
    } else {
        format!("{secs} s")
    }
}

/// A body as words for a message: the launcher's `{errorCode, description}` when it is that,
/// anything else shown safely. Also returns the code and description, for the hint.
pub fn describe_body(body: &[u8]) -> (String, Option<i64>, String) {
    describe_words(body, &Redactor::default())
}

/// [`describe_body`] with the token cut out of the words: the body is decoded first, and only
/// its strings meant for people (the description, a body that is not the launcher's JSON) are
/// scrubbed, so an error code or a number stays as the launcher sent it.
pub fn describe_words(body: &[u8], words: &Redactor) -> (String, Option<i64>, String) {
    if let Ok(serde_json::Value::Object(fields)) = serde_json::from_slice(body) {
        let code = fields.get("errorCode").and_then(serde_json::Value::as_i64);
        let description = fields
            .get("description")
            .and_then(serde_json::Value::as_str);
        if let (Some(code), Some(description)) = (code, description) {
            let description = words.text(description);
            let shown = sanitize::line(description.as_bytes(), SHOWN_CHARS);
            return (
                format!("errorCode {code}, {shown}"),
                Some(code),
                description,
            );
        }
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return ("(empty body)".to_string(), None, String::new());
    }
    let text = words.text(&String::from_utf8_lossy(body));
    (
        sanitize::line(text.trim().as_bytes(), SHOWN_CHARS),
        None,
        text,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_map_to_classes() {
        assert_eq!(class_for_status(200), None);
        assert_eq!(class_for_status(204), None);
        assert_eq!(class_for_status(401), Some(Class::Auth));
        assert_eq!(class_for_status(403), Some(Class::Auth));
        assert_eq!(class_for_status(404), Some(Class::Rejected));
        assert_eq!(class_for_status(503), Some(Class::Launcher));
        assert_eq!(class_for_status(302), Some(Class::Unexpected));
        assert_eq!(class_for_status(101), Some(Class::Unexpected));
    }
}
