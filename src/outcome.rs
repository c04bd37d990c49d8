//! What an operation came to: success, or a failure with a class, an exit code and a hint.
//!
//! This is the one table of exit codes and the one table of hints for the launcher's answers.
//! README, `--help` and the man page are written from (or tested against) `EXIT_CODES`; nothing
//! else chooses an exit code. A command ends in a [`Done`] or a [`Failure`]; [`exit_code`] turns
//! either into the number, and only `main` turns that into the process's exit code.

use std::fmt;
use std::time::Duration;

use crate::launcher::{
    Answer, Fetched, Grant, HandleReply, Metadata, NoAnswer, Operation, ReaderReply, Request,
    StructuredFetched, MAX_CONTENT_BYTES, MOST_LIST_ENTRIES,
};
use crate::sanitize;
use crate::secret::Redactor;

/// How much of a body or header a message shows.
const SHOWN_CHARS: usize = 300;

/// Why something failed, as a caller branches on it. Each class has exactly one exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// A response the launcher never gives, or an internal error.
    Unexpected,
    /// Bad arguments, handle, URL, token file or config file; nothing was sent.
    Usage,
    /// No token, or the launcher rejected it (401) or its permissions (403).
    Auth,
    /// The launcher refused the operation (any other 4xx).
    Rejected,
    /// The launcher failed (5xx).
    Launcher,
    /// The launcher could not be reached or did not answer in time.
    Unreachable,
    /// Ctrl-C.
    Interrupted,
    /// Not a failure of a request: `status` found a handle's copy that differs from the
    /// network in what a save would change, or one that is stale (items new on the network are
    /// not: a post keeps them).
    Differs,
}

/// One row of the exit-code table.
pub struct ExitCodeRow {
    pub code: u8,
    pub class: Option<Class>,
    pub name: &'static str,
    pub meaning: &'static str,
}

/// Every exit code safe-ad can return. Order is the order of documentation.
pub const EXIT_CODES: &[ExitCodeRow] = &[
    ExitCodeRow {
        code: 0,
        class: None,
        name: "ok",
        meaning: "every operation succeeded",
    },
    ExitCodeRow {
        code: 1,
        class: Some(Class::Unexpected),
        name: "unexpected",
        meaning: "a response the launcher never gives (3xx, 1xx, not HTTP), an internal error, stdout that could not be written (a full disk), or emulator requests --expect not met",
    },
    ExitCodeRow {
        code: 2,
        class: Some(Class::Usage),
        name: "usage",
        meaning: "bad arguments, handle, URL, token file or config file; nothing was sent",
    },
    ExitCodeRow {
        code: 3,
        class: Some(Class::Auth),
        name: "auth",
        meaning: "no token found, the launcher rejected it (401), or it lacks permission (403)",
    },
    ExitCodeRow {
        code: 4,
        class: Some(Class::Rejected),
        name: "rejected",
        meaning: "the launcher refused the operation (other 4xx: unknown handle, data exists, no such data, ...)",
    },
    ExitCodeRow {
        code: 5,
        class: Some(Class::Launcher),
        name: "launcher",
        meaning: "the launcher failed (5xx)",
    },
    ExitCodeRow {
        code: 6,
        class: Some(Class::Unreachable),
        name: "unreachable",
        meaning: "the launcher could not be reached or did not answer in time (refused, reset, DNS, timeout); a request whose answer was lost may still have acted, and is never sent again",
    },
    ExitCodeRow {
        code: 7,
        class: Some(Class::Differs),
        name: "differs",
        meaning: "a handle's copy differs from the network (status: changes a save would send, or stale)",
    },
    ExitCodeRow {
        code: 130,
        class: Some(Class::Interrupted),
        name: "interrupted",
        meaning: "interrupted (Ctrl-C)",
    },
];

impl Class {
    fn row(self) -> &'static ExitCodeRow {
        EXIT_CODES
            .iter()
            .find(|row| row.class == Some(self))
            .unwrap_or(&EXIT_CODES[1])
    }

    pub fn exit_code(self) -> u8 {
        self.row().code
    }

    /// The short name used in machine-readable output.
    pub fn name(self) -> &'static str {
        self.row().name
    }
}

/// How a command ended when it did not end in a failure still to be reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Done {
    /// Everything asked for succeeded.
    Success,
    /// Something failed and was reported where it happened (a handle in a batch, the emulator's
    /// own message); the class of the first failure picks the code.
    Failed(Class),
    /// `emulator -- COMMAND`: the command's own exit status, passed through as it is.
    PassThrough(u8),
}

impl Done {
    /// `Failed` with the first failure's class, if there was one.
    pub fn from_first_failure(class: Option<Class>) -> Done {
        class.map_or(Done::Success, Done::Failed)
    }

    pub fn exit_code(self) -> u8 {
        match self {
            Done::Success => EXIT_CODES[0].code,
            Done::Failed(class) => class.exit_code(),
            Done::PassThrough(code) => code,
        }
    }
}

/// The exit code of a command's result.
pub fn exit_code(result: &Result<Done, Failure>) -> u8 {
    match result {
        Ok(done) => done.exit_code(),
        Err(failure) => failure.exit_code(),
    }
}

/// A failure a person can act on: what happened, and where one helps, what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub class: Class,
    pub message: String,
    pub hint: Option<String>,
    /// What the launcher said, when it answered: for machine-readable output.
    pub answer: Option<AnswerError>,
}

/// The launcher's side of a failure: its status and, for its usual JSON body, code and words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerError {
    pub status: u16,
    pub error_code: Option<i64>,
    /// The launcher's description, or the body shown safely when it is not the usual JSON.
    pub description: String,
}

impl Failure {
    pub fn new(class: Class, message: impl Into<String>) -> Self {
        Failure {
            class,
            message: message.into(),
            hint: None,
            answer: None,
        }
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Failure::new(Class::Usage, message)
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn exit_code(&self) -> u8 {
        self.class.exit_code()
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// Hints for answers the launcher is known to give. `HANDLE` and `NAME` in a hint stand for
/// the values of the request it follows: the reporter, which knows the request, writes them in
/// (see [`fill_hint`]).
pub mod hints {
    pub const DATA_EXISTS: &str =
        "this data is already on the network: save changes to it with `safe-ad post HANDLE`";
    pub const NO_SUCH_DATA: &str =
        "this data is not on the network yet: save it for the first time with `safe-ad put HANDLE` \
(`safe-ad create --put` creates and saves in one go)";
    pub const NOT_ON_NETWORK: &str =
        "no appendable data of this name is on the network: check the name (and --private), \
or make it with `safe-ad create NAME --put`";
    pub const UNKNOWN_HANDLE: &str =
        "the launcher holds no appendable data under this handle: it may be another kind of \
handle, dropped, evicted (the launcher keeps at most 100 per kind), or lost in a restart; get one \
with `safe-ad open NAME` or `safe-ad create`";
    pub const UNKNOWN_DATA_ID: &str =
        "the launcher holds no data id under this handle: it may have been dropped, evicted \
or lost in a restart";
    pub const STALE_VERSION: &str =
        "someone saved this data since the handle was fetched: get a fresh handle with \
`safe-ad reopen HANDLE` and apply the change again";
    pub const TOKEN_REJECTED: &str =
        "the launcher rejected the token: it was revoked, the app was logged out, \
or the launcher restarted; get a new token with `safe-ad auth login`";
    pub const NO_PERMISSION: &str =
        "the token lacks the LOW_LEVEL_API permission: get a token that asks for it";
    pub const TIMED_OUT_CLEAR: &str =
        "the launcher never answers a clear for an unknown handle: check the handle \
(handles are lost when the launcher restarts)";
    pub const TIMED_OUT: &str =
        "the launcher did not answer in time: check that it is responsive, or raise --timeout";
    pub const REDIRECT: &str =
        "safe-ad never follows redirects (the token must only go to the launcher): \
point --launcher-url at the launcher itself";
    pub const LOGIN_DENIED: &str =
        "approve the request in the launcher window; a user must be logged in to the launcher";
    pub const NO_TOKEN_IN_GRANT: &str = "check that the launcher URL points at a SAFE Launcher";
    pub const NO_SUCH_ROUTE: &str =
        "the launcher has no such route: check the path prefix of the launcher URL (the launcher \
serves its API under /, /0.5 and /0.6)";
    pub const NOT_UNDERSTOOD: &str = "check that --launcher-url points at a SAFE Launcher";
    pub const APPEND_REFUSED: &str =
        "the launcher refuses an append to a stale handle (get a fresh one with `safe-ad reopen \
HANDLE`), when the data's filter keeps your key out, or (public data) of an item that is in the \
deleted list (`safe-ad restore` brings that back)";
    pub const ASYMMETRIC_NEEDS_PRIVATE: &str =
        "`--encrypt asymmetric` encrypts to the encrypt key of private appendable data, and \
public data has none: append to private data (`safe-ad create --private` makes some), or use \
`--encrypt symmetric`; nothing was appended";
    pub const LOST_SAVE: &str =
        "see whether the launcher saved it (a version one higher) with `safe-ad metadata HANDLE` \
before you save again";
    pub const LOST_INDEX_CHANGE: &str =
        "see what the handle's copy holds now with `safe-ad show HANDLE` (or the counts with \
`safe-ad metadata HANDLE`) before you change it again: the indexes may have moved";
    pub const LOST_APPEND: &str =
        "see whether the item is on the network with `safe-ad show` on a fresh handle \
(`safe-ad reopen HANDLE`) before you append again";
    pub const LOST_DROP: &str =
        "`safe-ad metadata HANDLE` says whether the launcher still holds the handle";
    pub const LOST_CREATE: &str =
        "the launcher may hold a new handle for the data that safe-ad never learnt: it frees it \
when it evicts it (it keeps at most 100 of a kind) or restarts; nothing is on the network until \
a save";
    pub const LOST_NEW_HANDLE: &str =
        "the launcher may hold a new handle that safe-ad never learnt the number of: it frees it \
when it evicts it (it keeps at most 100 of a kind) or restarts";
    pub const LOST_OTHER_DROP: &str =
        "the launcher may still hold the handle, or may have freed it; it frees it at the latest \
when it evicts it (it keeps at most 100 of a kind) or restarts";
    pub const NO_SUCH_INDEX: &str =
        "there is no item at this index: see the items and their indexes with `safe-ad show \
HANDLE` (they count from 0, and removing one moves the later ones down)";

    /// Every hint above, for the tests that check them all.
    pub const ALL: &[&str] = &[
        DATA_EXISTS,
        NO_SUCH_DATA,
        NOT_ON_NETWORK,
        UNKNOWN_HANDLE,
        UNKNOWN_DATA_ID,
        STALE_VERSION,
        TOKEN_REJECTED,
        NO_PERMISSION,
        TIMED_OUT_CLEAR,
        TIMED_OUT,
        REDIRECT,
        LOGIN_DENIED,
        NO_TOKEN_IN_GRANT,
        NO_SUCH_ROUTE,
        NOT_UNDERSTOOD,
        APPEND_REFUSED,
        ASYMMETRIC_NEEDS_PRIVATE,
        LOST_SAVE,
        LOST_INDEX_CHANGE,
        LOST_APPEND,
        LOST_DROP,
        LOST_CREATE,
        LOST_NEW_HANDLE,
        LOST_OTHER_DROP,
        NO_SUCH_INDEX,
    ];
}

/// `hint` with the placeholders `HANDLE` and `NAME` replaced by the values the request had.
/// A value the request did not have is never left as a literal placeholder: the command that
/// needs it is shown without it, and words after it say what to give (`` `safe-ad open` (with
/// the data's name) ``).
pub fn fill_hint(hint: &str, handle: Option<u64>, name: Option<&str>) -> String {
    let filled = fill_placeholder(hint, "HANDLE", handle.map(|h| h.to_string()), "the handle");
    fill_placeholder(&filled, "NAME", name.map(str::to_string), "the data's name")
}

/// Every `placeholder` (a whole word) in `hint` replaced by `value`; without one, taken out of
/// the command it is in, with `(with {words})` after that command.
fn fill_placeholder(hint: &str, placeholder: &str, value: Option<String>, words: &str) -> String {
    let is_word = |text: &str, at: usize| {
        let before = text[..at].chars().next_back();
        let after = text[at + placeholder.len()..].chars().next();
        let edge = |c: Option<char>| !c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        edge(before) && edge(after)
    };
    let mut out = String::with_capacity(hint.len() + 16);
    let mut rest = hint;
    let mut in_code = false;
    let mut owed = false;
    while let Some(at) = rest.find(|c| c == '`' || placeholder.starts_with(c)) {
        if rest[at..].starts_with('`') {
            out.push_str(&rest[..=at]);
            rest = &rest[at + 1..];
            if in_code && owed {
                out.push_str(&format!(" (with {words})"));
                owed = false;
            }
            in_code = !in_code;
            continue;
        }
        if rest[at..].starts_with(placeholder) && is_word(rest, at) {
            match &value {
                Some(value) => {
                    out.push_str(&rest[..at]);
                    out.push_str(value);
                }
                None if in_code => {
                    out.push_str(rest[..at].trim_end_matches(' '));
                    owed = true;
                }
                None => {
                    out.push_str(&rest[..at]);
                    out.push_str(words);
                }
            }
            rest = &rest[at + placeholder.len()..];
            continue;
        }
        let next = at + rest[at..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&rest[..next]);
        rest = &rest[next..];
    }
    out.push_str(rest);
    out
}

/// The hint for one of the launcher's error codes, given what was asked: the same code can
/// call for other advice after another request.
pub fn hint_for_error_code(operation: Option<Operation>, code: i64) -> Option<&'static str> {
    let fetching = matches!(operation, Some(Operation::Fetch | Operation::DataId));
    match code {
        -23 => Some(hints::DATA_EXISTS),
        -18 | -22 if fetching => Some(hints::NOT_ON_NETWORK),
        -18 | -22 => Some(hints::NO_SUCH_DATA),
        -25 if operation == Some(Operation::Append) => Some(hints::APPEND_REFUSED),
        -25 => Some(hints::STALE_VERSION),
        -1514 => Some(hints::UNKNOWN_DATA_ID),
        -1515 => Some(hints::UNKNOWN_HANDLE),
        -1524 => Some(hints::NO_SUCH_INDEX),
        // `UnsupportedOperation`: the encrypt key of public data (`append --immutable --encrypt
        // asymmetric` to it).
        -1525 if operation == Some(Operation::EncryptKey) => Some(hints::ASYMMETRIC_NEEDS_PRIVATE),
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
pub fn hint_for_answer(
    operation: Option<Operation>,
    status: u16,
    error_code: Option<i64>,
    description: &str,
) -> Option<String> {
    if let Some(hint) = error_code.and_then(|code| hint_for_error_code(operation, code)) {
        return Some(hint.to_string());
    }
    let hint = match status {
        401 => hints::TOKEN_REJECTED,
        403 => hints::NO_PERMISSION,
        404 if error_code == Some(404) && description.contains("Endpoint Not Found") => {
            hints::NO_SUCH_ROUTE
        }
        404 if description.contains("NoSuchData") || description.contains("NotFound") => {
            if matches!(operation, Some(Operation::Fetch | Operation::DataId)) {
                hints::NOT_ON_NETWORK
            } else {
                hints::NO_SUCH_DATA
            }
        }
        _ => return None,
    };
    Some(hint.to_string())
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
                .with_hint(hints::NOT_UNDERSTOOD));
            }
            Some(Reply::Bytes(answer.body.clone()))
        }
        _ => Some(Reply::Done),
    };
    let too_long = match &reply {
        Some(Reply::Metadata(metadata)) => metadata.too_long(),
        Some(Reply::Fetched(fetched)) => fetched.too_long(),
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
        .with_hint(hints::NOT_UNDERSTOOD));
    }
    reply.ok_or_else(|| {
        Failure::new(
            Class::Unexpected,
            format!(
                "the launcher answered {} with a body that is not {}: {}",
                status_line(answer.status),
                match operation {
                    Operation::Metadata => "metadata",
                    Operation::Fetch | Operation::FetchStructured => "a handle with metadata",
                    Operation::ImmutableReader => "a reader handle with a size",
                    _ => "a handle",
                },
                describe_words(&answer.body, &answer.words).0
            ),
        )
        .with_hint(hints::NOT_UNDERSTOOD)
    })
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
        return Err(failure.with_hint(hints::REDIRECT));
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
        .with_hint(hints::LOGIN_DENIED));
    }
    judge_answer(answer)?;
    Grant::parse(&answer.body).ok_or_else(|| {
        Failure::new(
            Class::Unexpected,
            "the launcher approved the request but its answer holds no usable token",
        )
        .with_hint(hints::NO_TOKEN_IN_GRANT)
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
            let check = lost_answer_hint(operation);
            // What the hint said of the launcher stays; "try again" gives way to what to check.
            let hint = match (no_answer, failure.hint.take()) {
                (NoAnswer::Reset(_) | NoAnswer::Broken(_), _) | (_, None) => {
                    format!("the launcher may have stopped or restarted: {check}")
                }
                (_, Some(hint)) => format!("{hint}; {check}"),
            };
            failure.with_hint(hint)
        }
        _ => failure,
    }
}

/// What to check after the answer to `operation` (which is not safe to send twice) was lost.
pub fn lost_answer_hint(operation: Operation) -> &'static str {
    match operation {
        Operation::Put | Operation::Post => hints::LOST_SAVE,
        Operation::Remove | Operation::Restore | Operation::Purge => hints::LOST_INDEX_CHANGE,
        Operation::Append => hints::LOST_APPEND,
        Operation::Drop => hints::LOST_DROP,
        Operation::Create => hints::LOST_CREATE,
        operation if operation.makes_handle() => hints::LOST_NEW_HANDLE,
        _ => hints::LOST_OTHER_DROP,
    }
}

fn no_answer_failure(
    no_answer: &NoAnswer,
    operation: Option<Operation>,
    launcher: &str,
) -> Failure {
    let unreachable = |message: String| Failure::new(Class::Unreachable, message);
    match no_answer {
        NoAnswer::Refused => unreachable(format!("could not connect to {launcher}: connection refused"))
            .with_hint(format!(
                "is the launcher running at {launcher}? Start it, or point --launcher-url (or SAFE_LAUNCHER_URL) at it"
            )),
        NoAnswer::Dns(detail) => unreachable(format!(
            "could not look up the host of {launcher}: {}",
            sanitize::line(detail.as_bytes(), SHOWN_CHARS)
        ))
        .with_hint("check the host name in the launcher URL (--launcher-url, SAFE_LAUNCHER_URL or launcher_url)"),
        NoAnswer::ConnectTimeout(bound) => unreachable(format!(
            "could not connect to {launcher} within {}",
            seconds(*bound)
        ))
        .with_hint(format!("is the launcher running and reachable at {launcher}?")),
        NoAnswer::Timeout(bound) => {
            let failure = unreachable(format!("the launcher did not answer within {}", seconds(*bound)));
            if operation.is_some_and(Operation::is_clear) {
                failure.with_hint(hints::TIMED_OUT_CLEAR)
            } else {
                failure.with_hint(hints::TIMED_OUT)
            }
        }
        NoAnswer::Garbled(detail) => Failure::new(
            Class::Unexpected,
            format!(
                "the answer is not HTTP a launcher would send: {}",
                sanitize::line(detail.as_bytes(), SHOWN_CHARS)
            ),
        )
        .with_hint(format!(
            "check that {launcher} is the SAFE Launcher and not another service"
        )),
        NoAnswer::Reset(detail) => unreachable(format!(
            "the connection closed before any answer: {}",
            sanitize::line(detail.as_bytes(), SHOWN_CHARS)
        ))
        .with_hint("the launcher may have stopped or restarted; check it, or retry with --retries N"),
        NoAnswer::TlsAnswer => Failure::new(
            Class::Unexpected,
            format!("{launcher} answered with TLS: it speaks https, not plain http"),
        )
        .with_hint(format!(
            "use https:// in the launcher URL: {}",
            launcher.replacen("http://", "https://", 1)
        )),
        NoAnswer::PlainAnswer => Failure::new(
            Class::Unexpected,
            format!("{launcher} answered in plain http, not https"),
        )
        .with_hint(format!(
            "use http:// in the launcher URL (the SAFE Launcher speaks plain http): {}",
            launcher.replacen("https://", "http://", 1)
        )),
        NoAnswer::Broken(detail) => unreachable(format!(
            "the connection failed before a complete answer: {}",
            sanitize::line(detail.as_bytes(), SHOWN_CHARS)
        ))
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

fn seconds(duration: Duration) -> String {
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
    fn hints_name_the_values_they_know() {
        assert_eq!(
            fill_hint(hints::STALE_VERSION, Some(2), None),
            "someone saved this data since the handle was fetched: get a fresh handle with \
`safe-ad reopen 2` and apply the change again"
        );
        assert!(fill_hint(hints::NOT_ON_NETWORK, None, Some("AAEC"))
            .ends_with("`safe-ad create AAEC --put`"));
        assert!(fill_hint(hints::UNKNOWN_HANDLE, Some(9), None)
            .contains("`safe-ad open` (with the data's name)"));
        assert_eq!(
            fill_hint(hints::DATA_EXISTS, None, None),
            "this data is already on the network: save changes to it with `safe-ad post` (with the handle)"
        );
    }

    #[test]
    fn no_hint_ever_carries_a_placeholder_once_filled() {
        let placeholders = ["HANDLE", "NAME", "INDEX", "KIND", "DATA_ID"];
        for hint in hints::ALL {
            for (handle, name) in [
                (None, None),
                (Some(7), None),
                (None, Some("AAEC")),
                (Some(7), Some("AAEC")),
            ] {
                let filled = fill_hint(hint, handle, name);
                let words: Vec<&str> = filled
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .collect();
                for placeholder in placeholders {
                    assert!(!words.contains(&placeholder), "{filled}");
                }
                assert_eq!(filled.matches('`').count() % 2, 0, "{filled}");
            }
        }
    }

    #[test]
    fn every_class_has_its_own_code() {
        let classes = [
            Class::Unexpected,
            Class::Usage,
            Class::Auth,
            Class::Rejected,
            Class::Launcher,
            Class::Unreachable,
            Class::Interrupted,
            Class::Differs,
        ];
        let codes: Vec<u8> = classes.iter().map(|c| c.exit_code()).collect();
        assert_eq!(codes, vec![1, 2, 3, 4, 5, 6, 130, 7]);
    }

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
