//! What an operation came to: success, or a failure with a class, an exit code and a hint.
//!
//! This module holds the classes and the one table of exit codes: README, `--help` and the man
//! page are written from (or tested against) `EXIT_CODES`; nothing else chooses an exit code. A
//! command ends in a [`Done`] or a [`Failure`]; [`Done::exit_code`] and [`Failure::exit_code`]
//! turn either into the number, and only `main` turns that into the process's exit code. `hint` holds the one table of hints (an
//! enum, rendered by one match), and `judge` the judging of the launcher's answers.

mod hint;
mod judge;

use std::fmt;

pub use hint::{Hint, Known};
pub use judge::{
    describe_body, judge, judge_answer, judge_content, judge_login, judge_no_answer, seconds, Reply,
};

enum_with_all! {
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
    /// A stop signal: Ctrl-C (SIGINT), SIGTERM or SIGHUP.
    Interrupted,
    /// Not a failure of a request: `status` found a handle's copy that differs from the
    /// network in what a save would change, or one that is stale (items new on the network are
    /// not: a post keeps them).
    Differs,
    /// Not a failure of a request: `wait`'s deadline passed before what it waited for held.
    Deadline,
}
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
        meaning: "a response the launcher never gives (3xx, 1xx, not HTTP; a body of another shape, a value none of the launcher's, content of another length than its size), an internal error, stdout that could not be written (a full disk), a --jq filter that failed on an object, or emulator requests --expect not met",
    },
    ExitCodeRow {
        code: 2,
        class: Some(Class::Usage),
        name: "usage",
        meaning: "bad arguments, handle, URL, token file or config file; nothing was sent (nothing changed, where items chosen by selectors had to be read first)",
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
        meaning: "a handle's copy differs from the network (status: changes a save would send, or stale; remove and cat: the copy a post emptied lacks items the network holds, which a name or a fresh handle reaches; wait --for in-sync: the copy is stale, and can never come back in sync)",
    },
    ExitCodeRow {
        code: 8,
        class: Some(Class::Deadline),
        name: "deadline",
        meaning: "wait: the deadline (--deadline, the whole wait) passed before the condition held; a poll still in flight then is cut short, the handles it may have made named",
    },
    ExitCodeRow {
        code: 130,
        class: Some(Class::Interrupted),
        name: "interrupted",
        meaning: "interrupted: Ctrl-C, SIGTERM or SIGHUP (each stops a command the same way)",
    },
];

/// The exit codes of `safe-ad emulator`, which runs a program of its own: `commands::emulator`
/// gives its ends these codes, and its `--help` and man page list them (the code, what it means).
pub const EMULATOR_EXIT_CODES: &[(&str, &str)] = &[
    (
        "0",
        "stopped by Ctrl-C, SIGTERM or SIGHUP, its state saved and its log whole; \
         --background: once it listens",
    ),
    (
        "1",
        "it could not listen, write its log or save its state; --background: it did not listen \
         in time; --stop: no emulator of those variables was running, or it had to be killed",
    ),
    (
        "2",
        "an unusable --listen, --token, --token-file, --fault-rate, --state, --import or --log \
         file (a FIFO, socket, device or directory where a file is read, or two of those options \
         naming one file), a bad command line, a TMPDIR whose path holds a line break \
         (--background), or --stop without the variables when several of yours run",
    ),
    (
        "N",
        "-- COMMAND: COMMAND's exit status (128+N if signal N ended it, 127 if it could not be \
         started); --background: the started emulator's own exit status when it ended before it \
         listened (128+N after signal N); --stop: the stopped emulator's own exit status",
    ),
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

/// A failure a person can act on: what happened, and where one helps, what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub class: Class,
    pub message: String,
    pub hint: Option<Hint>,
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

    /// A refusal that says what this failure stopped: `message` before this failure's, its
    /// class and hint kept (the launcher's answer is this failure's, not the refusal's).
    pub fn refusing(&self, message: impl std::fmt::Display) -> Self {
        Failure {
            hint: self.hint.clone(),
            ..Failure::new(self.class, format!("{message}: {}", self.message))
        }
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Failure::new(Class::Usage, message)
    }

    pub fn with_hint(mut self, hint: impl Into<Hint>) -> Self {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_has_its_own_code() {
        // `Class::ALL` is every class (`enum_with_all!`).
        let mut codes: Vec<u8> = Class::ALL.iter().map(|c| c.exit_code()).collect();
        codes.push(Done::Success.exit_code());
        let mut distinct = codes.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            codes.len(),
            "two classes share a code: {codes:?}"
        );
        // Each class has its own row in the one table, and the table is docs/exit-codes.md's.
        for class in Class::ALL {
            let rows = EXIT_CODES.iter().filter(|row| row.class == Some(class));
            assert_eq!(rows.count(), 1, "{class:?}");
        }
        assert_eq!(EXIT_CODES.len(), Class::ALL.len() + 1);
        let doc = include_str!("../../docs/exit-codes.md");
        for row in EXIT_CODES {
            let line = format!("| {} | `{}` | {} |", row.code, row.name, row.meaning);
            assert!(
                doc.lines().any(|l| l == line),
                "docs/exit-codes.md lacks {line}"
            );
        }
        assert_eq!(
            Class::ALL.map(Class::exit_code),
            [1, 2, 3, 4, 5, 6, 130, 7, 8]
        );
    }
}
