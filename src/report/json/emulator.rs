//! The key tables of what the emulator crate gives the client to print as it is: `emulator list
//! --json`'s objects (its type `safe_ad_emulator::Listed`) and the journal's records (`emulator
//! requests --json`, written by hand for speed, their keys read back from records that carry
//! every part: `record_keys`). The crate imports nothing from here, so the tables sit on this
//! side, each checked against what the crate writes.

use super::{Row, Table};

key_table! {
    EMULATOR_LIST_TABLE = "emulators" of [safe_ad_emulator::Listed]
    Row(&["pid"], "number", "the emulator's process id"),
    Row(&["url"], "string", "its launcher URL (the first user's, with `--user`)"),
    Row(&["started"], "string", "when it started, UTC (`2026-11-26T14:22:41Z`)"),
    Row(&["fixture"], "string or null", "the fixture it loaded (`--import` or `--state`, made absolute), or null"),
    Row(&["dir"], "string", "its run directory"),
    Row(&["users"], "array", "the users it serves (`--user`), each `name` and `url`; left out when it serves one"),
    Row(&["users.name"], "string", "a user's name"),
    Row(&["users.url"], "string", "the launcher URL that is that user's"),
}

pub(super) const JOURNAL_TABLE: Table = Table {
    name: "journal",
    rows: &[
        Row(&["event"], "string", "`request`"),
        Row(&["seq"], "number", "the request's number in the run, from 1"),
        Row(
            &["user"],
            "string",
            "with `emulator --user`, the user whose launcher answered",
        ),
        Row(
            &["method", "path"],
            "string",
            "the request's method and path (no query; a token in it replaced by `<token>`)",
        ),
        Row(
            &["effect"],
            "string",
            "what the route does to data: `change` or `read` (none for a path no route matches)",
        ),
        Row(
            &["status"],
            "number or null",
            "the status answered, null when no answer was sent",
        ),
        Row(
            &["error_code", "description"],
            "number, string",
            "for a 4xx or 5xx answer: the launcher's error code and description",
        ),
        Row(
            &["not_on_network"],
            "bool",
            "`true` on a read of data by its data id answered NoSuchData: the network's answer, not a failure (`--failed` leaves it out)",
        ),
        Row(&["elapsed_ms"], "number", "the time taken to answer"),
        Row(
            &["fault", "delay_ms", "hung", "stopping", "aborted", "timed_out"],
            "string, number, bool",
            "what the emulator did instead of a plain answer (an injected fault, a hanging clear, a stop)",
        ),
        Row(
            &["note"],
            "string",
            "where the answer is the launcher's loss of data (a second close of an emptied immutable-data writer), what was lost",
        ),
        Row(
            &["handles"],
            "object",
            "the live handles of each type after the request: `appendable_data`, `structured_data`, `data_id`, `sign_key`, `encrypt_key`, `cipher_opts`",
        ),
    ],
    #[cfg(test)]
    fields: || {
        (safe_ad_emulator::test_support::record_keys().into_iter())
            .map(|key| &*Box::leak(key.into_boxed_str()))
            .collect()
    },
};
