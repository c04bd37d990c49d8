//! The one-item changes, beside the clears they mirror: `remove`, `restore` and `purge` change
//! the items at some indexes of one handle (local until saved, with `--save` as the clears), and
//! `append` adds one item on the network.
//!
//! Every argument is checked before anything is sent. Indexes run one at a time, the highest
//! first (see `batch::highest_first`); the rules of a batch hold for them: a failure does not
//! stop the rest unless `--fail-fast`, and the exit code is that of the first that failed.

use std::ffi::OsString;

use crate::batch::restore::ToRestore;
use crate::batch::select::{self, Selector, SignedBy};
use crate::batch::show::{self, IndexRange, Parts, ShowOptions, ShownItem};
use crate::batch::status::{self, Network};
use crate::batch::{self, immutable, AppendItem, Ended, Stop};
use crate::cli::{AppendCommand, ClientOptions, EncryptWith, ItemCommand, SaveWith, SelectorArgs};
use crate::handle::{self, Handle, HandleProblem};
use crate::input::{self, Slot};
use crate::launcher::serialised::FINGERPRINT_HEX;
use crate::launcher::{Encryption, Launcher, Operation, Request};
use crate::outcome::{Class, Done, Failure, Reply};
use crate::report::Reporter;
use crate::runtime::{interruptible, runtime};
use crate::settings::{Settings, StdinUse};

/// The type tags structured data can have: the launcher refused to make any other.
const TYPE_TAGS: &str = "500 (the default), 501 (versioned), or 15000 and above";

/// `remove`, `restore` or `purge` (`operation`) at the indexes given, or at those of the items
/// the selectors choose. Every index is checked (against the list's length, or by the one read
/// that resolves the selectors) before the first change. A dry run sends nothing, not even that
/// read. The saves follow `saving`'s table: a purge with `--save post` is saved first as well
/// (`batch::saved_first`), a restore with `--save post` appends the items again after the save
/// (`batch::restore`).
pub fn at_indexes(
    operation: Operation,
    command: &ItemCommand,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let name = operation.name();
    let handle = parse_handle(&command.handle, name)?;
    let indexes = parse_indexes(&command.indexes, name, handle)?;
    let selector = parse_selector(&command.selector, name)?;
    let settings = super::resolve(options, reporter, StdinUse::Free)?;
    let launcher = super::launcher(&settings)?;
    let save = command.save.map(|save| match save {
        SaveWith::Post => Operation::Post,
        SaveWith::Put => Operation::Put,
    });
    let appends_again = operation == Operation::Restore && save == Some(Operation::Post);
    if settings.curl && (selector.is_given() || appends_again) {
        // A curl script cannot read and decide: its lines would change the items at the
        // positions given, not those the selectors name, and could not tell which restored
        // items the save leaves in neither list.
        let (why, instead) = match selector.is_given() {
            true => (
                format!("--curl cannot choose items by what they are: its lines would send `{name}` at fixed positions, not at the items the selectors match"),
                format!("see the items the selectors match with `safe-ad show {handle}` and the same selectors, then give their indexes to `{name} --curl`; nothing was sent"),
            ),
            false => (
                "--curl cannot carry `restore --save post`: which restored items it appends again after the save is decided by a read of the network".to_string(),
                "use --dry-run to see the requests, or `restore --curl` without --save; nothing was sent".to_string(),
            ),
        };
        return Err(Failure::usage(why).with_hint(instead));
    }
    if settings.dry_run || settings.curl {
        // A dry run sends nothing, not even a read: with selectors, which items match is only
        // known from a read of the handle, so it is said rather than guessed.
        if selector.is_given() {
            reporter.note(&format!(
                "--dry-run sends nothing, so which items match is not known here: {name} {handle} \
                 first reads the handle, then sends `{name}` for each matching item, highest index \
                 first; `safe-ad show {handle}` with the same selectors lists the items they match now"
            ));
        }
        let plan = match appends_again {
            true => {
                reporter.restore_plan_note(handle);
                let every: Vec<ToRestore> = (indexes.iter())
                    .map(|&index| ToRestore {
                        index,
                        append: true,
                    })
                    .collect();
                batch::restore::plan(handle, &every)
            }
            false => batch::at_indexes_plan(operation, handle, &indexes, save),
        };
        super::describer(&settings, &launcher, reporter)(&plan);
        return Ok(Done::Success);
    }
    settings.token()?;
    let runtime = runtime()?;
    let chosen = if selector.is_given() || appends_again {
        let stop = Stop::default();
        let work = select::choose(
            &launcher,
            handle,
            operation,
            &selector,
            &indexes,
            appends_again,
            settings.jobs,
            settings.verbose,
            &stop,
        );
        let (chosen, steps) =
            match runtime.block_on(batch::until_stopped(work, &stop, || reporter.stopping())) {
                Ended::Finished(done) => done,
                Ended::Interrupted(_) | Ended::Abandoned => {
                    return Err(super::interrupted(&stop, &launcher, reporter))
                }
            };
        reporter.exchanges(&launcher, &steps);
        let chosen = chosen?;
        copy_at_save(reporter, operation, handle, &steps, chosen.items.len());
        if selector.is_given() {
            reporter.chosen(operation, handle, &chosen.items, chosen.you.as_deref());
        }
        if chosen.items.is_empty() {
            return nothing_matched(operation, handle, &chosen, command.require_match, reporter);
        }
        Some(chosen)
    } else {
        let work = select::check_indexes(&launcher, handle, operation, &indexes, settings.verbose);
        let (checked, steps) = runtime.block_on(interruptible(work))?;
        reporter.exchanges(&launcher, &steps);
        checked?;
        copy_at_save(reporter, operation, handle, &steps, indexes.len());
        None
    };
    if let (true, Some(chosen)) = (appends_again, &chosen) {
        return restore_and_append(
            &runtime,
            handle,
            &chosen.items,
            &settings,
            &launcher,
            reporter,
        );
    }
    let indexes = match chosen {
        Some(chosen) => chosen.items.iter().map(|item| item.index).collect(),
        None => indexes,
    };
    if operation == Operation::Purge && save.is_none() {
        purge_note_if_unsaved(
            &runtime,
            name,
            handle,
            Some(&indexes),
            &settings,
            &launcher,
            reporter,
        )?;
    }
    let work = batch::at_indexes(
        &launcher,
        settings.verbose,
        operation,
        handle,
        &indexes,
        save,
        settings.fail_fast,
        |step| reporter.one_step(&launcher, step),
    );
    let done = runtime
        .block_on(interruptible(work))
        .map_err(|mut failure| {
            failure.message = "interrupted; no new requests were sent".to_string();
            failure
        })?;
    reporter.index_summary(&done.tally);
    let changed = done.tally.ok > 0;
    match save {
        None if changed => reporter.item_save_note(operation, handle, false),
        Some(_) if changed && !done.saved && done.tally.failed > 0 => {
            reporter.item_save_note(operation, handle, true)
        }
        _ => {}
    }
    Ok(Done::from_first_failure(done.tally.first_failure))
}

/// How many data items the copy will hold when the save after the change is sent, from the
/// metadata the read before it took (no request of its own): the note after a post says what
/// the post left out of the copy only when there was something to leave out. A save runs only
/// once every change succeeded, so `changes` items will have moved.
fn copy_at_save(
    reporter: &Reporter,
    operation: Operation,
    handle: Handle,
    steps: &[batch::Step],
    changes: usize,
) {
    let read = steps
        .iter()
        .find_map(|step| match (&step.request, &step.result) {
            (Request::OnHandle(Operation::Metadata, read), Ok(Reply::Metadata(metadata)))
                if *read == handle =>
            {
                Some(metadata.data_length)
            }
            _ => None,
        });
    let Some(data) = read else { return };
    let changes = changes as u64;
    reporter.copy_at_save(match operation {
        Operation::Remove => data.saturating_sub(changes),
        Operation::Restore => data + changes,
        _ => data,
    });
}

/// No item matched the selectors: a note (exit 0), or with `--require-match` exit 4. After a
/// post the launcher's copy holds no data items whatever the network holds, so a selector over
/// them matches nothing, and a fresh handle is the way on.
fn nothing_matched(
    operation: Operation,
    handle: Handle,
    chosen: &select::Chosen,
    require_match: bool,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let name = operation.name();
    let emptied = operation == Operation::Remove && chosen.emptied_by_post;
    let nothing = match emptied {
        true => format!(
            "{name} {handle}: no item matched: handle {handle}'s copy holds no data items (after a post the launcher keeps none, whatever the network holds); nothing was changed"
        ),
        false => format!("{name} {handle}: no item matched; nothing was changed"),
    };
    let way_on = match emptied {
        true => format!(
            "get a handle that shows the network's items with `safe-ad reopen {handle}`, and run `{name}` on the handle it prints"
        ),
        false => format!("see what the items are with `safe-ad show {handle}`"),
    };
    if require_match {
        return Err(Failure::new(Class::Rejected, nothing).with_hint(way_on));
    }
    reporter.note(&format!("{nothing}; {way_on}"));
    Ok(Done::Success)
}

/// `restore ... --save post` once the items are chosen: one read of the network's deleted list
/// decides which restored items the save would leave in neither list (their removal was saved);
/// those are appended again after the save (`batch::restore`).
fn restore_and_append(
    runtime: &tokio::runtime::Runtime,
    handle: Handle,
    items: &[ShownItem],
    settings: &Settings,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let read = ShowOptions {
        range: IndexRange::ALL,
        full: false,
        jobs: settings.jobs,
        verbose: settings.verbose,
        parts: Parts {
            filter: false,
            data: false,
            deleted: true,
            content: false,
            signers: true,
        },
    };
    let stop = Stop::default();
    // The user's key too, to say which items come back signed by another key than before.
    let work = async {
        let (you, mut steps) = show::user_key(launcher, settings.verbose, &stop).await;
        let (network, more) = status::network(launcher, handle, read, &stop, |_, _, _| {}).await;
        steps.extend(more);
        ((you.ok(), network), steps)
    };
    let ((you, network), steps) =
        match runtime.block_on(batch::until_stopped(work, &stop, || reporter.stopping())) {
            Ended::Finished(done) => done,
            Ended::Interrupted(_) | Ended::Abandoned => {
                return Err(super::interrupted(&stop, launcher, reporter))
            }
        };
    reporter.exchanges(launcher, &steps);
    // An item as the network tells items apart: its data id and its signer.
    type Identity<'a> = (Option<&'a [u8]>, Option<&'a [u8]>);
    let network_deleted: Vec<Identity> = match &network {
        Network::Read(shown) => {
            if let Some(failure) = shown.failures().next() {
                return Err(cannot_decide(handle, failure));
            }
            shown
                .deleted
                .iter()
                .map(|item| (item.data_id.as_deref(), item.signer.as_deref()))
                .collect()
        }
        // Never saved: the post fails (the data is not on the network), and says so.
        Network::NeverSaved => Vec::new(),
        Network::Failed(failure) => return Err(cannot_decide(handle, failure)),
        Network::NotAsked => return Err(Failure::new(Class::Interrupted, "interrupted")),
    };
    // A data id or fresh handle not given back; a failed read of the user's key only costs
    // words (which items someone else signed).
    let given_back = |request: &Request| {
        matches!(
            request,
            Request::DropDataId(_) | Request::OnHandle(Operation::Drop, _)
        )
    };
    if let Some(failure) = steps
        .iter()
        .filter(|step| given_back(&step.request))
        .find_map(|step| step.result.as_ref().err())
    {
        return Err(cannot_decide(handle, failure));
    }
    let to_restore: Vec<ToRestore> = items
        .iter()
        .map(|item| ToRestore {
            index: item.index,
            append: network_deleted.contains(&(item.data_id.as_deref(), item.signer.as_deref())),
        })
        .collect();
    let appended = to_restore.iter().filter(|item| item.append).count();
    if appended > batch::MOST_LEASES_OF_A_KIND {
        return Err(Failure::new(
            Class::Rejected,
            format!(
                "restore {handle}: {appended} items would be appended again after the save, and `restore --save post` holds a data id for each: at most {} at a time; nothing was changed",
                batch::MOST_LEASES_OF_A_KIND
            ),
        )
        .with_hint(format!(
            "restore at most {} of them at a time (`safe-ad show {handle}` numbers them)",
            batch::MOST_LEASES_OF_A_KIND
        )));
    }
    reporter.restore_appends(handle, items, &to_restore, you.as_deref());
    let stop = Stop::default();
    let work = batch::restore::run(launcher, handle, &to_restore, settings.verbose, &stop);
    let steps = match runtime.block_on(batch::until_stopped(work, &stop, || reporter.stopping())) {
        Ended::Finished(steps) => steps,
        Ended::Interrupted(_) | Ended::Abandoned => {
            return Err(super::interrupted(&stop, launcher, reporter))
        }
    };
    reporter.restore_steps(launcher, handle, &steps);
    let first = steps
        .iter()
        .find_map(|step| step.result.as_ref().err().map(|failure| failure.class));
    Ok(Done::from_first_failure(first))
}

/// The read that decides which restored items to append again failed: nothing was changed.
/// Before a purge (or `clear-deleted-data`) not saved: the note on what a plain post would
/// leave, said when the removal of one of the items (at `indexes`; all: `None`) has not reached
/// the network, or when that cannot be told (`batch::status::removals_unsaved`).
pub(super) fn purge_note_if_unsaved(
    runtime: &tokio::runtime::Runtime,
    name: &str,
    handle: Handle,
    indexes: Option<&[u64]>,
    settings: &Settings,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Result<(), Failure> {
    let read = ShowOptions::whole(settings.jobs, settings.verbose);
    let stop = Stop::default();
    let work = status::removals_unsaved(launcher, handle, indexes, read, &stop);
    let (unsaved, steps) =
        match runtime.block_on(batch::until_stopped(work, &stop, || reporter.stopping())) {
            Ended::Finished(done) => done,
            Ended::Interrupted(_) | Ended::Abandoned => {
                return Err(super::interrupted(&stop, launcher, reporter))
            }
        };
    reporter.exchanges(launcher, &steps);
    let unsaved = unsaved.map_err(|failure| {
        let mut refused = Failure::new(
            failure.class,
            format!(
                "{name} {handle}: a handle taken to read the network's deleted list was not given back; nothing was changed: {}",
                failure.message
            ),
        );
        refused.hint = failure.hint.clone();
        refused
    })?;
    if unsaved != Some(false) {
        reporter.purge_note(name, &handle.to_string());
    }
    Ok(())
}

fn cannot_decide(handle: Handle, failure: &Failure) -> Failure {
    let mut refused = Failure::new(
        failure.class,
        format!(
            "restore {handle}: the network's deleted list could not be read, so which items a save would leave in neither list is not known; nothing was changed: {}",
            failure.message
        ),
    );
    refused.hint = failure.hint.clone();
    refused
}

/// The selectors, checked: `--signed-by`, `--kind`, `--data-id`, `--name` (of the item
/// commands, and of `show`, which lists what they match).
pub(super) fn parse_selector(command: &SelectorArgs, name: &str) -> Result<Selector, Failure> {
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
        let readings = super::decode::readings(raw.trim());
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
        .map(|raw| super::handles::parse_name(raw, name))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Selector {
        signed_by,
        kind: command.kind,
        data_ids,
        names,
    })
}

/// `append HANDLE (--structured NAME [--type-tag N] | --appendable NAME [--private])`.
pub fn append(
    command: &AppendCommand,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    const NAME: &str = "append";
    let handle = parse_handle(&command.handle, NAME)?;
    if let Some(path) = &command.immutable {
        return append_immutable(handle, path, command, options, reporter);
    }
    let item = match (&command.structured, &command.appendable) {
        (Some(name), None) => AppendItem::Structured {
            name: super::handles::parse_name(name, NAME)?,
            type_tag: match &command.type_tag {
                Some(raw) => parse_type_tag(raw)?,
                None => 500,
            },
        },
        (None, Some(name)) => AppendItem::Appendable {
            name: super::handles::parse_name(name, NAME)?,
            private: command.private,
        },
        // clap's group makes this one of the two; kept as an error rather than a panic.
        _ => {
            return Err(Failure::usage(
                "give one of --structured NAME and --appendable NAME",
            ))
        }
    };
    let settings = super::resolve(options, reporter, StdinUse::Free)?;
    let launcher = super::launcher(&settings)?;
    if settings.dry_run || settings.curl {
        let plan = batch::append_plan(handle, item);
        super::describer(&settings, &launcher, reporter)(&plan);
        return Ok(Done::Success);
    }
    settings.token()?;
    let stop = Stop::default();
    let work = batch::append(&launcher, handle, item, settings.verbose, &stop);
    super::handles::finish_leasing(&launcher, &stop, reporter, work, |steps| {
        reporter.append_steps(&launcher, steps)
    })
}

/// `append HANDLE --immutable FILE|- [--encrypt HOW]`: the content read (and its size checked)
/// before anything is sent, then written and appended by `batch::immutable`.
fn append_immutable(
    handle: Handle,
    path: &std::path::Path,
    command: &AppendCommand,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let encryption = match command.encrypt {
        None => Encryption::Plain,
        Some(EncryptWith::Symmetric) => Encryption::Symmetric,
        Some(EncryptWith::Asymmetric) => Encryption::Asymmetric,
    };
    let reads_stdin = path.as_os_str() == "-";
    let stdin = if reads_stdin {
        StdinUse::Handles
    } else {
        StdinUse::Free
    };
    let settings = super::resolve(options, reporter, stdin)?;
    let launcher = super::launcher(&settings)?;
    if settings.curl {
        return Err(
            Failure::usage("--curl cannot carry the content of --immutable in its lines")
                .with_hint("use --dry-run to see the requests; nothing was sent"),
        );
    }
    if settings.dry_run {
        super::describer(&settings, &launcher, reporter)(&immutable::plan(handle, encryption));
        return Ok(Done::Success);
    }
    settings.token()?;
    let content = input::content(path, immutable::MAX_IMMUTABLE_BYTES)?;
    let stop = Stop::default();
    let work = immutable::append(
        &launcher,
        handle,
        &content,
        encryption,
        settings.verbose,
        &stop,
    );
    super::handles::finish_leasing(&launcher, &stop, reporter, work, |steps| {
        reporter.append_steps(&launcher, steps)
    })
}

/// The one handle of an item command (standard input holds no list of handles here).
pub(super) fn parse_handle(raw: &OsString, command: &str) -> Result<Handle, Failure> {
    match input::parse_args(std::slice::from_ref(raw)) {
        Ok(slots) if slots.len() == 1 && slots[0] != Slot::Stdin => match slots[0] {
            Slot::Handle(handle) => Ok(handle),
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
            "give the handle itself: safe-ad {command} HANDLE ...; nothing was sent"
        ))),
    }
}

/// A plain decimal number, 0 to 2^64 − 1, by the same rules as a handle.
pub(super) fn decimal(text: &str) -> Result<u64, HandleProblem> {
    Handle::parse(text).map(|handle| handle.0)
}

/// The indexes, each checked, none twice (a second removal at the same index would change
/// another item than the one named).
pub(super) fn parse_indexes(
    raw: &[OsString],
    command: &str,
    of: Handle,
) -> Result<Vec<u64>, Failure> {
    let hint = format!(
        "an index is plain decimal digits, {}, counting from 0 as `safe-ad show {of}` numbers the items; nothing was sent",
        handle::RANGE
    );
    let mut indexes = Vec::with_capacity(raw.len());
    for arg in raw {
        let shown = crate::sanitize::line(arg.as_encoded_bytes(), 80);
        let index = decimal(arg.to_str().unwrap_or("\u{fffd}")).map_err(|problem| {
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

fn parse_type_tag(raw: &str) -> Result<u64, Failure> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
