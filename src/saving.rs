//! What a save does: for each kind of change to a handle's copy, what the network's data and
//! deleted lists hold after a `post`. Written once here, from routing 0.28.5's
//! `update_with_other` (`pub_appendable_data.rs`, `priv_appendable_data.rs`) and safe_core
//! 0.23.0's `appendable_data_post`: a post sends a version carrying the copy's deleted list and
//! filter and no data items; the network keeps its own data items, drops those in the sent
//! deleted list, and takes the sent deleted list as its own.
//!
//! The procedures that make the item commands' words true on the network follow these rows
//! (`batch::saved_first`: a purge with `--save post` saves the removal first, when a read finds
//! one the network has not got; `batch/restore.rs`: `restore --save post` appends again);
//! `report`'s notes on them (`report/saving.rs`) say what a plain post would leave, from the
//! same read (`batch::status::removals`), and check with [`Change::post_alone_misleads`] that
//! their row says so too. [`STATUS_CASES`] is what `status` makes of a difference between a
//! copy and the network. The tests render the table
//! ([`markdown`], [`roff`], through `test_support`) into `docs/saving.md` and the man pages and
//! check the committed ones (`generated.rs`). Nothing here knows about requests or printing.

/// A change to a handle's copy, as the commands make them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// `remove`, `clear-data`: data items moved to the deleted list.
    Remove,
    /// `restore`: deleted items moved back to the data items.
    Restore,
    /// `purge`, `clear-deleted-data` of items whose removal a save already sent.
    PurgeSaved,
    /// `purge`, `clear-deleted-data` of items whose removal is only in the copy.
    PurgeUnsaved,
    /// Filter keys added or taken, or the filter toggled.
    Filter,
    /// `append`: goes to the network at once, not through the copy.
    Append,
}

/// One row of the table: a change, and what a `post` after it leaves on the network.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub change: Change,
    /// The commands that make the change.
    pub commands: &'static str,
    /// The network's data items after the post.
    pub data: &'static str,
    /// The network's deleted list after the post.
    pub deleted: &'static str,
    /// What to run instead when that is not what was meant; empty when it is.
    pub instead: &'static str,
}

/// The table, in the order the docs give it.
pub const TABLE: &[Row] = &[
    Row {
        change: Change::Remove,
        commands: "remove, clear-data",
        data: "gone",
        deleted: "listed",
        instead: "",
    },
    Row {
        change: Change::Restore,
        commands: "restore",
        data: "not data again: a post carries no data items, so nothing is added back \
               (an item whose removal was never saved stays data)",
        deleted: "gone",
        instead: "`restore --save post` appends them again after the save (signed by you: only an \
                  item's signer can append it as it was, so an item another key signed only with \
                  `--re-sign`)",
    },
    Row {
        change: Change::PurgeSaved,
        commands: "purge, clear-deleted-data",
        data: "not data",
        deleted: "gone: deleted for good",
        instead: "",
    },
    Row {
        change: Change::PurgeUnsaved,
        commands: "purge, clear-deleted-data",
        data: "still data: the save no longer lists the item as deleted, so the network keeps it",
        deleted: "not listed",
        instead: "`--save post` saves the removal first, then the purge (two saves; one when \
                  the network has every removal already)",
    },
    Row {
        change: Change::Filter,
        commands: "filter changes",
        data: "unchanged (the filter decides only later appends)",
        deleted: "unchanged; the filter becomes the copy's",
        instead: "",
    },
    Row {
        change: Change::Append,
        commands: "append",
        data: "added at once, without a save; a later post keeps it",
        deleted: "unchanged",
        instead: "",
    },
];

/// What every post does besides, whatever was changed.
pub const EVERY_POST: &[&str] = &[
    "Items appended since the copy was taken, by you or others, stay data: a post only takes away \
     what its deleted list names.",
    "After the post the handle's copy holds no data items (the launcher keeps the data-less \
     version it sent); `safe-ad reopen HANDLE` gets a handle that shows them.",
    "A post fails (-25) when someone saved since the copy was taken; nothing changes on the \
     network, and `safe-ad reopen HANDLE` is the way on. A command given the data's name takes \
     a fresh copy itself: a change of the items chosen by what they are (the clears' every \
     item, `--name`, `--data-id`, `--signed-by`, `--kind`) is chosen and made again on another \
     fresh copy, up to 5 times after 50 to 250 ms at random, and says so; a change of the items \
     at the indexes given is not (they may name other items by then): it exits 4, saying so.",
    "`put` is for data never saved: it sends the copy as it is, data items and deleted list.",
];

/// How `status` reads one item against the network (`batch::status`), by where the copy and the
/// network hold it: from the same rules (an append adds to the network's data and changes
/// neither its version nor its deleted list; a save makes the next version, takes its deleted
/// list as the network's and takes those items off the network's data; a copy holds only items of
/// the version it was taken at, and a copy a post made only the deleted list it sent and what it
/// restored from it). Against the same version the network's deleted list is the copy's
/// version's, so a difference is the copy's own change; against a later version (the copy is
/// stale) it is someone else's save, so a difference may be theirs, and the words say which where
/// only one reading fits, both where either does.
pub const STATUS_CASES: &[StatusCase] = &[
    StatusCase {
        copy: "data",
        network: "deleted",
        same_version: "restored in the copy",
        later_version: "removed on the network since the copy was taken, or restored in the \
                        copy; in a copy a post emptied: restored in the copy",
    },
    StatusCase {
        copy: "deleted",
        network: "data",
        same_version: "removed in the copy",
        later_version: "removed in the copy, or restored (and appended again) on the network since",
    },
    StatusCase {
        copy: "neither",
        network: "deleted",
        same_version: "purged in the copy",
        later_version: "purged in the copy, or removed on the network since the copy was taken",
    },
    StatusCase {
        copy: "data or deleted",
        network: "neither",
        same_version: "only for data never saved (`put` saves it)",
        later_version: "purged on the network since the copy was taken: only a save takes an \
                        item off both lists",
    },
    StatusCase {
        copy: "neither",
        network: "data",
        same_version: "appended since the copy was taken, or removed and purged in the copy; in a \
                       copy a post emptied: left out of it by the post, or appended since",
        later_version: "the same",
    },
];

/// One row of [`STATUS_CASES`]: where the copy and the network hold an item, and what that
/// says against the same version and against a later one.
#[derive(Debug, Clone, Copy)]
pub struct StatusCase {
    pub copy: &'static str,
    pub network: &'static str,
    pub same_version: &'static str,
    pub later_version: &'static str,
}

impl Change {
    /// Its row.
    #[cfg(test)]
    pub fn row(self) -> &'static Row {
        TABLE
            .iter()
            .find(|row| row.change == self)
            .expect("every change has a row")
    }

    /// Whether a post right after the change may leave on the network the opposite of what it
    /// says: a purge whose removal was not saved (the item stays data), a restore (the item is
    /// not data again). The item commands send the sequence that makes it true with
    /// `--save post`, and say it before acting without.
    pub fn post_alone_misleads(self) -> bool {
        matches!(self, Change::Restore | Change::PurgeUnsaved)
    }
}

/// The table as Markdown, for `docs/saving.md` (a generated file).
pub fn markdown() -> String {
    let mut text = String::from(
        "# What a save does\n\n\
         <!-- Generated from src/saving.rs by `cargo test --test integration regenerate -- --ignored`; edit it there. -->\n\n\
         Every change to a handle (remove, restore, purge, the clears, filter changes) is made to the \
         launcher's copy and reaches the network only when the copy is saved, normally with \
         `post`. A post does not send the copy as it is: it sends a new version carrying the copy's \
         deleted list and filter and **no data items**, and the network keeps its own data items, \
         takes away those the sent deleted list names, and takes the sent deleted list as its own \
         (routing's `update_with_other`, safe_core's `appendable_data_post`). So what a post does \
         to each change is:\n\n\
         | change in the copy | commands | the network's data after `post` | the network's deleted list after `post` | to get what the words say |\n\
         |---|---|---|---|---|\n",
    );
    text.push_str(&each_row(|[change, commands, data, deleted], instead| {
        let instead = instead.unwrap_or("(as said)");
        format!("| {change} | {commands} | {data} | {deleted} | {instead} |\n")
    }));
    text.push_str("\nWhatever was changed:\n\n");
    for line in EVERY_POST {
        text.push_str(&format!("- {line}\n"));
    }
    text.push_str(
        "\nThe item commands keep to this. `purge --save post` saves the removal first and then \
         the purge (two saves, each named in the output) when one of the items it purges has a \
         removal the network has not got, or that cannot be told (it compares the copy's deleted \
         list with a fresh handle's first; its `--dry-run` lists both saves, the most it sends); \
         when the network has every removal, one save. `clear-deleted-data --save post` always \
         saves twice. \
         `restore --save post` reads the network's deleted list once, restores, saves, then \
         appends again the items the save left in neither list (at most 8 items at a time: it \
         holds a data id for each across the save; more is exit 2, and nothing changes). Before \
         anything changes it checks that each such append would land (the data's filter lets \
         your key in; public data does not hold the item signed by you already), and changes \
         nothing (exit 4) when one would not. The append is signed by your key, so an item \
         another key signed would come back signed by you: then it changes nothing (exit 2, \
         naming each such item and the key that signed it) unless `--re-sign` is given, and with \
         it each append's line says which item is now signed by you (`re_signed` with \
         `--json`). An append refused because someone saved between \
         the save and the append (-25) is sent again through a fresh handle; an item whose \
         append still did not land (or was not sent: a stop signal during the save) is said in \
         the first error line to be in neither list, with its kind, name and data id and the \
         `safe-ad append` that makes it data again. \
         Without `--save`, a note says \
         what a plain `post` would leave (a purge, or `clear-deleted-data` of one handle, says it \
         only when an item it takes has a removal the network has not got, a restore only when \
         one has a removal the network has got; both compare the copy's deleted list with a \
         fresh handle's). `safe-ad status HANDLE` compares a copy with the \
         network: it exits 7 only when a save would change the network or the copy is stale.\n",
    );
    text.push_str(
        "\n## What `status` makes of a difference\n\n\
         The same rules say what a difference between a copy and the network means: an append \
         changes neither the network's version nor its deleted list, and only a save (anyone's \
         post) makes a new version. A copy a post emptied is one that, at a version a save made, \
         holds none of the network's data items while the network holds some (whatever it \
         restored or purged since).\n\n\
         | in the copy | on the network | at the same version | the network at a later version (stale) |\n\
         |---|---|---|---|\n",
    );
    for case in STATUS_CASES {
        text.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            case.copy, case.network, case.same_version, case.later_version
        ));
    }
    text
}

/// The table as a man page section body (plain text for `roff::source`).
pub fn roff() -> String {
    let mut text = String::from(
        ".PP\nA change to a handle reaches the network when the copy is saved. A post sends the \
         copy's deleted list and filter and no data items; the network keeps its data items \
         but those the sent deleted list names, and takes that list as its own. After each change:\n",
    );
    text.push_str(&each_row(|[change, commands, data, deleted], instead| {
        let instead = instead.map_or(String::new(), |instead| format!(" Instead: {instead}."));
        format!(
            ".TP\n\\fB{change}\\fR ({commands})\ndata: {data}; deleted list: {deleted}.{instead}\n"
        )
    }));
    for line in EVERY_POST {
        text.push_str(&format!(".PP\n{line}\n"));
    }
    text.replace('`', "")
}

/// Each row of [`TABLE`] as `line` writes it, from its words: the change, its commands, the
/// network's data and deleted list after a post, and what to do instead (`None`: as said).
fn each_row(line: impl Fn([&str; 4], Option<&str>) -> String) -> String {
    (TABLE.iter())
        .map(|row| {
            let instead = Some(row.instead).filter(|instead| !instead.is_empty());
            line(
                [
                    change_words(row.change),
                    row.commands,
                    row.data,
                    row.deleted,
                ],
                instead,
            )
        })
        .collect()
}

fn change_words(change: Change) -> &'static str {
    match change {
        Change::Remove => "an item removed",
        Change::Restore => "an item restored",
        Change::PurgeSaved => "a deleted item purged, its removal saved",
        Change::PurgeUnsaved => "a deleted item purged, its removal not saved",
        Change::Filter => "the filter changed",
        Change::Append => "an item appended",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_change_has_one_row() {
        for change in [
            Change::Remove,
            Change::Restore,
            Change::PurgeSaved,
            Change::PurgeUnsaved,
            Change::Filter,
            Change::Append,
        ] {
            assert_eq!(TABLE.iter().filter(|row| row.change == change).count(), 1);
            // A change a post alone gets wrong says what to run instead.
            assert_eq!(
                change.post_alone_misleads(),
                !change.row().instead.is_empty()
            );
        }
    }
}
