//! The key table of `emulator list --json`. Its type is the emulator crate's own
//! (`safe_ad_emulator::Listed`), which the client prints as it is: the crate imports nothing
//! from here, so the table sits on this side, checked against that type's fields.

use super::{Row, Table};

pub(super) const EMULATOR_LIST_TABLE: Table = Table {
    name: "emulators",
    rows: &[
        Row(&["pid"], "number", "the emulator's process id"),
        Row(
            &["url"],
            "string",
            "its launcher URL (the first user's, with `--user`)",
        ),
        Row(
            &["started"],
            "string",
            "when it started, UTC (`2026-11-26T14:22:41Z`)",
        ),
        Row(
            &["fixture"],
            "string or null",
            "the fixture it loaded (`--import` or `--state`, made absolute), or null",
        ),
        Row(&["dir"], "string", "its run directory"),
        Row(
            &["users"],
            "array",
            "the users it serves (`--user`), each `name` and `url`; left out when it serves one",
        ),
        Row(&["users.name"], "string", "a user's name"),
        Row(
            &["users.url"],
            "string",
            "the launcher URL that is that user's",
        ),
    ],
    #[cfg(test)]
    fields: || super::fields(&safe_ad_emulator::Listed::default()),
};
