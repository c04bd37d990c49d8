//! The hints: what to do after a failure. A hint is either words written where the failure was
//! met ([`Hint::Said`], every value already in them) or one of the hints for answers the launcher
//! is known to give, a variant of [`Known`] (whose `ALL` the tests walk). Those name the
//! request's handle or data name in the command they suggest (`safe-ad reopen 7`), and the
//! request is known only where the failure is said (a batch gives a hint shared by many handles
//! once), so they take those values when they are rendered: [`Hint::words`], one exhaustive
//! match. A value the request did not have is never left as a placeholder: the command is shown
//! without it, and words after it say what to give (`` `safe-ad open` (with the data's name) ``).
use std::fmt::Display;

/// What to do after a failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// Words with every value in them already.
    Said(String),
    /// One of the hints for an answer the launcher is known to give.
    Known(Known),
    /// The answer to a request that is not sent again was lost: what the hint before said of
    /// the launcher (none: that it may have stopped or restarted), then what to check.
    Lost {
        before: Option<Box<Hint>>,
        check: Check,
    },
}

enum_with_all! {
/// What to check after a lost answer, by what the request may have done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    Save,
    IndexChange,
    Append,
    Drop,
    Create,
    NewHandle,
    OtherDrop,
}
}

enum_with_all! {
/// The hints for answers the launcher is known to give: each names the request's handle or data
/// name, filled in when it is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// -23: the data is on the network already.
    DataExists,
    /// -22, -18 or 404 NoSuchData: the data is not on the network yet.
    NoSuchData,
    /// The same after a fetch by name: no data of this name.
    NotOnNetwork,
    /// -1515.
    UnknownHandle,
    /// -1514.
    UnknownDataId,
    /// -25: someone saved the data since the handle was fetched.
    StaleVersion,
    /// -25 after a name's change of the items at the indexes given: another save came first,
    /// and the indexes may now name other items, so the change is not made again.
    IndexesMoved,
    /// 401.
    TokenRejected,
    /// 403.
    NoPermission,
    /// A clear of an unknown handle, which the launcher never answers.
    TimedOutClear,
    TimedOut,
    /// A 3xx.
    Redirect,
    LoginDenied,
    NoTokenInGrant,
    /// 404 `Endpoint Not Found`.
    NoSuchRoute,
    /// An answer no launcher gives.
    NotUnderstood,
    /// -25 after an append.
    AppendRefused,
    /// -1525 after asking public data for its encrypt key.
    AsymmetricNeedsPrivate,
    /// -1524.
    NoSuchIndex,
    /// -29 after a save or an append: the data would pass the network's size.
    DataTooLarge,
}
}

impl From<String> for Hint {
    fn from(words: String) -> Hint {
        Hint::Said(words)
    }
}

impl From<&str> for Hint {
    fn from(words: &str) -> Hint {
        Hint::Said(words.to_string())
    }
}

impl Hint {
    /// The hint's words, with the handle and the data name of the request it follows.
    pub fn words(&self, handle: Option<&str>, name: Option<&str>) -> String {
        let on = |before: &str, after: &str| command(before, handle, after, "the handle");
        let named = |before: &str, after: &str| command(before, name, after, "the data's name");
        match self {
            Hint::Said(words) => words.clone(),
            Hint::Known(Known::DataExists) => format!(
                "this data is already on the network: save changes to it with {}",
                on("safe-ad post", "")
            ),
            Hint::Known(Known::NoSuchData) => format!(
                "this data is not on the network yet: save it for the first time with {} \
                 (`safe-ad create --put` creates and saves in one go)",
                on("safe-ad put", "")
            ),
            Hint::Known(Known::NotOnNetwork) => format!(
                "no appendable data of this name is on the network: check the name (and \
                 --private), or make it with {}",
                named("safe-ad create", " --put")
            ),
            Hint::Known(Known::UnknownHandle) => format!(
                "the launcher holds no appendable data under this handle: it may be another kind \
                 of handle, dropped, evicted (the launcher keeps at most 100 per kind), or lost in \
                 a restart; get one with {} or `safe-ad create`",
                named("safe-ad open", "")
            ),
            Hint::Known(Known::UnknownDataId) => {
                "the launcher holds no data id under this handle: it may have \
                 been dropped, evicted or lost in a restart"
                    .to_string()
            }
            Hint::Known(Known::StaleVersion) => format!(
                "someone saved this data since the handle was fetched: get a fresh handle with {} \
                 and apply the change again",
                on("safe-ad reopen", "")
            ),
            Hint::Known(Known::IndexesMoved) => indexes_moved(&on("safe-ad show", "")),
            Hint::Known(Known::TokenRejected) => {
                "the launcher rejected the token: it was revoked, the app was \
                 logged out, or the launcher restarted; get a new token with `safe-ad auth login`"
                    .to_string()
            }
            Hint::Known(Known::NoPermission) => {
                "the token lacks the LOW_LEVEL_API permission: get a token that asks for it"
                    .to_string()
            }
            Hint::Known(Known::TimedOutClear) => {
                "the launcher never answers a clear for an unknown handle: \
                 check the handle (handles are lost when the launcher restarts)"
                    .to_string()
            }
            Hint::Known(Known::TimedOut) => {
                "the launcher did not answer in time: check that it is responsive, \
                 or raise --timeout"
                    .to_string()
            }
            Hint::Known(Known::Redirect) => {
                "safe-ad never follows redirects (the token must only go to the \
                 launcher): point --launcher-url at the launcher itself"
                    .to_string()
            }
            Hint::Known(Known::LoginDenied) => {
                "approve the request in the launcher window; a user must be \
                 logged in to the launcher"
                    .to_string()
            }
            Hint::Known(Known::NoTokenInGrant) => {
                "check that the launcher URL points at a SAFE Launcher".into()
            }
            Hint::Known(Known::NoSuchRoute) => {
                "the launcher has no such route: check the path prefix of the \
                 launcher URL (the launcher serves its API under /, /0.5 and /0.6)"
                    .to_string()
            }
            Hint::Known(Known::NotUnderstood) => {
                "check that --launcher-url points at a SAFE Launcher".into()
            }
            Hint::Known(Known::AppendRefused) => format!(
                "the launcher refuses an append to a stale handle (get a fresh one with {}), when \
                 the data's filter keeps your key out, or (public data) of an item that is in the \
                 deleted list (`safe-ad restore` brings that back)",
                on("safe-ad reopen", "")
            ),
            Hint::Known(Known::AsymmetricNeedsPrivate) => {
                "`--encrypt asymmetric` encrypts to the encrypt key \
                 of private appendable data, and public data has none: append to private data \
                 (`safe-ad create --private` makes some), or use `--encrypt symmetric`; nothing \
                 was appended"
                    .to_string()
            }
            Hint::Known(Known::NoSuchIndex) => format!(
                "there is no item at this index: see the items and their indexes with {} (they \
                 count from 0, and removing one moves the later ones down)",
                on("safe-ad show", "")
            ),
            Hint::Known(Known::DataTooLarge) => {
                "the network stores no appendable data past 100 KiB (102,400 bytes as it is \
                 serialised: about 650 items), so nothing was changed; make room by removing \
                 items and purging deleted ones, saving that first, or append to other data"
                    .to_string()
            }
            Hint::Lost { before, check } => {
                let check = check.words(handle);
                match before {
                    Some(before) => format!("{}; {check}", before.words(handle, name)),
                    None => format!("the launcher may have stopped or restarted: {check}"),
                }
            }
        }
    }
}

impl Hint {
    /// The hint's words where the request's handle is a fresh copy of the data named `name`,
    /// taken for one run and given back at its end (a command given a name): a hint that
    /// speaks of a handle the person holds (reopen it, look at its copy) would send them to a
    /// handle they never had. `None` where the words for a handle hold for a name too.
    pub fn words_for_copy(&self, name: &str) -> Option<String> {
        let again = "run the command again";
        Some(match self {
            Hint::Known(Known::StaleVersion) => format!(
                "someone saved this data while the command ran (it works on a fresh copy of the \
                 network's data, taken for the run): {again}; or the data is not yours, and only \
                 its owner's key saves it (`safe-ad metadata {name}` says `owner no`)"
            ),
            Hint::Known(Known::IndexesMoved) => {
                indexes_moved(&command("safe-ad show", Some(name), "", "the data's name"))
            }
            Hint::Known(Known::AppendRefused) => format!(
                "the launcher refuses an append when someone saved this data while the command \
                 ran ({again}), when the data's filter keeps your key out, or (public data) of an \
                 item that is in the deleted list"
            ),
            Hint::Lost { before, check } => {
                let before_for_copy =
                    (before.as_deref()).and_then(|hint| hint.words_for_copy(name));
                let check = match check {
                    Check::IndexChange | Check::Save => format!(
                        "the change was made to a fresh copy the command took for the run, so the \
                         network holds it only if a save landed: see what the network holds with \
                         `safe-ad show {name}` before you {again}"
                    ),
                    Check::Append => format!(
                        "see whether the item is on the network with `safe-ad show {name}` \
                         before you append again"
                    ),
                    // What to check holds for a name too, but the words before it may not.
                    _ if before_for_copy.is_some() => check.words(Some(name)),
                    _ => return None,
                };
                match before {
                    Some(before) => {
                        let before =
                            before_for_copy.unwrap_or_else(|| before.words(Some(name), None));
                        format!("{before}; {check}")
                    }
                    None => format!("the launcher may have stopped or restarted: {check}"),
                }
            }
            _ => return None,
        })
    }
}

impl Check {
    /// What to check, with the request's handle.
    fn words(self, handle: Option<&str>) -> String {
        let on = |before: &str| command(before, handle, "", "the handle");
        match self {
            Check::Save => format!(
                "see whether the launcher saved it (a version one higher) with {} before you \
                 save again",
                on("safe-ad metadata")
            ),
            Check::IndexChange => format!(
                "see what the handle's copy holds now with {} (or the counts with {}) before you \
                 change it again: the indexes may have moved",
                on("safe-ad show"),
                on("safe-ad metadata")
            ),
            Check::Append => format!(
                "see whether the item is on the network with `safe-ad show` on a fresh handle \
                 ({}) before you append again",
                on("safe-ad reopen")
            ),
            Check::Drop => format!(
                "{} says whether the launcher still holds the handle",
                on("safe-ad metadata")
            ),
            Check::Create => "the launcher may hold a new handle for the data that safe-ad never \
                 learnt: it frees it when it evicts it (it keeps at most 100 of a kind) or \
                 restarts; nothing is on the network until a save"
                .to_string(),
            Check::NewHandle => "the launcher may hold a new handle that safe-ad never learnt the \
                 number of: it frees it when it evicts it (it keeps at most 100 of a kind) or \
                 restarts"
                .to_string(),
            Check::OtherDrop => "the launcher may still hold the handle, or may have freed it; it \
                 frees it at the latest when it evicts it (it keeps at most 100 of a kind) or \
                 restarts"
                .to_string(),
        }
    }
}

/// The words of [`Known::IndexesMoved`], with the command that shows the items (`show`).
fn indexes_moved(show: &str) -> String {
    format!(
        "another save came first, so nothing was changed, and the indexes given may now name \
         other items: choose the items by what they are (`--name`, `--data-id`), which is made \
         again on a fresh copy when another save comes first, or see the items and their \
         indexes now with {show}"
    )
}

/// A command in backticks with a value in it (`` `before VALUE after` ``); without the value,
/// the command without it, and after it the words that say what to give.
fn command(before: &str, value: Option<impl Display>, after: &str, words: &str) -> String {
    match value {
        Some(value) => format!("`{before} {value}{after}`"),
        None => format!("`{before}{after}` (with {words})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_name_the_values_they_know() {
        assert_eq!(
            Hint::Known(Known::StaleVersion).words(Some("2"), None),
            "someone saved this data since the handle was fetched: get a fresh handle with \
`safe-ad reopen 2` and apply the change again"
        );
        assert!(Hint::Known(Known::NotOnNetwork)
            .words(None, Some("AAEC"))
            .ends_with("`safe-ad create AAEC --put`"));
        assert!(Hint::Known(Known::UnknownHandle)
            .words(Some("9"), None)
            .contains("`safe-ad open` (with the data's name)"));
        assert_eq!(
            Hint::Known(Known::DataExists).words(None, None),
            "this data is already on the network: save changes to it with `safe-ad post` (with the handle)"
        );
    }

    #[test]
    fn hints_for_a_names_copy_say_to_run_the_command_again() {
        for hint in [
            Hint::Known(Known::StaleVersion),
            Hint::Known(Known::AppendRefused),
            Hint::Lost {
                before: None,
                check: Check::IndexChange,
            },
            Hint::Lost {
                before: None,
                check: Check::Save,
            },
        ] {
            let words = hint.words_for_copy("AAEC").expect("words for a copy");
            assert!(words.contains("run the command again"), "{words}");
            assert!(
                !words.contains("reopen") && !words.contains("handle"),
                "{words}"
            );
        }
        assert_eq!(Hint::Known(Known::TimedOut).words_for_copy("AAEC"), None);
    }

    /// Every hint as a name's fresh copy gets it (as `report` fills it: the words for a copy,
    /// else the handle's words with the name in the handle's place) names no `reopen`: the
    /// person holds no handle to reopen (issue 52).
    #[test]
    fn no_hint_for_a_names_copy_names_reopen() {
        let lost = Check::ALL.iter().flat_map(|&check| {
            let before = Known::ALL.map(|known| Some(Box::new(Hint::Known(known))));
            before
                .into_iter()
                .chain([None])
                .map(move |before| Hint::Lost { before, check })
        });
        for hint in Known::ALL.map(Hint::Known).into_iter().chain(lost) {
            let words =
                (hint.words_for_copy("AAEC")).unwrap_or_else(|| hint.words(Some("AAEC"), None));
            assert!(!words.contains("reopen"), "{hint:?}: {words}");
        }
        let moved = Hint::Known(Known::IndexesMoved).words_for_copy("AAEC");
        let moved = moved.expect("words for a copy");
        for said in [
            "another save came first",
            "`--data-id`",
            "`safe-ad show AAEC`",
        ] {
            assert!(moved.contains(said), "{moved}");
        }
    }

    #[test]
    fn no_hint_ever_carries_a_placeholder_once_filled() {
        let placeholders = ["HANDLE", "NAME", "INDEX", "KIND", "DATA_ID"];
        let lost = Check::ALL.iter().flat_map(|&check| {
            [
                Hint::Lost {
                    before: None,
                    check,
                },
                Hint::Lost {
                    before: Some(Box::new(Hint::Known(Known::TimedOut))),
                    check,
                },
            ]
        });
        for hint in Known::ALL.map(Hint::Known).into_iter().chain(lost) {
            for (handle, name) in [
                (None, None),
                (Some("7"), None),
                (None, Some("AAEC")),
                (Some("7"), Some("AAEC")),
            ] {
                let filled = hint.words(handle, name);
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
}
