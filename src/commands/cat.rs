//! `safe-ad cat HANDLE INDEX [--deleted] [--force]`: one item's content as raw bytes on stdout,
//! exactly as the network stores it, for a file or a pipe. It reads the item as `show --full`
//! does (`batch::show`, through leases given back on every path) and nothing else; content
//! that is not text is not written to a terminal unless `--force`, as `bat` and `less` warn.

use std::io::IsTerminal;

use crate::args::{parse_indexes, parse_target};
use crate::batch::show::{self as plan, IndexRange, Kind, Parts, Section, ShowOptions};
use crate::batch::{Sending, Stop};
use crate::cli::CatCommand;
use crate::handle::Target;
use crate::launcher::MAX_CONTENT_BYTES;
use crate::outcome::{Class, Done, Failure};
use crate::sanitize;
use crate::settings::StdinUse;

use super::{accounted, leased, Context, Next};

const COMMAND: &str = "cat";

pub fn run<'a>(command: &'a CatCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let target = parse_target(&command.handle, COMMAND)?;
    let index = parse_indexes(std::slice::from_ref(&command.index), COMMAND, target)?[0];
    let settings = super::resolve(cx, StdinUse::Free)?;
    let launcher = super::launcher(&settings, cx)?;
    settings.token()?;
    Ok(Next::sends(async move {
        let section = if command.deleted {
            Section::Deleted
        } else {
            Section::Data
        };
        let show = ShowOptions {
            range: IndexRange {
                start: index,
                end: index.checked_add(1),
            },
            full: true,
            parts: Parts {
                filter: false,
                data: section == Section::Data,
                deleted: section == Section::Deleted,
                content: true,
                signers: false,
            },
        };
        let stop = Stop::new(settings.interrupt_wait);
        // One item: one unit at a time.
        let sending = Sending {
            jobs: 1,
            ..super::sending(&settings, &launcher, &stop, cx.ledger())
        };
        let read = async |handle| {
            let shown = plan::handle(sending, handle, show, |_, _| {}).await;
            reporter.exchanges(&launcher, &shown.steps);
            for item in shown.data.iter().chain(&shown.deleted) {
                reporter.exchanges(&launcher, &item.steps);
            }
            shown
        };
        // A name: the item of the network's data now, read through a fresh copy. A failure to
        // take or give back the copy (said already) keeps the run from exiting 0.
        let (shown, copy_failed) = match target {
            Target::Handle(handle) => (
                leased(read(handle), &stop, &launcher, reporter).await?,
                None,
            ),
            Target::Name(name) => {
                let work = super::on_copy(sending, reporter, COMMAND, name, read);
                let on = leased(work, &stop, &launcher, reporter).await?;
                match on.done {
                    Some(shown) => (shown, on.failed),
                    None => {
                        let done = Done::from_first_failure(on.failed);
                        return Ok(accounted(done, &stop, &launcher, reporter));
                    }
                }
            }
        };
        let item = match section {
            Section::Data => shown.data.first(),
            Section::Deleted => shown.deleted.first(),
        };
        let content = content(&shown, item, &of(target), index, command.deleted);
        // No item at the index of a copy that holds no data items: the network may hold it (a
        // post leaves the launcher's copy none), which is never a silent miss (issue 43).
        let emptied = match (&shown.metadata, target, item) {
            (Ok(metadata), Target::Handle(handle), None) if !command.deleted => {
                (metadata.data_length == 0 && metadata.version > 0).then_some(handle)
            }
            _ => None,
        };
        if let Some(handle) = emptied {
            let network =
                super::network_behind(handle, Parts::NONE, &settings, &launcher, reporter).await?;
            let held = network
                .and_then(|shown| shown.metadata.ok())
                .map_or(0, |metadata| metadata.data_length);
            if index < held {
                accounted(Done::Success, &stop, &launcher, reporter);
                return Err(super::emptied_copy(COMMAND, handle, held, &[index]));
            }
        }
        let done = match content {
            Ok(bytes) => {
                if !command.force && sanitize::is_binary(bytes) && std::io::stdout().is_terminal() {
                    // The hint's command reads the same item: `--deleted` kept.
                    let (item, deleted) = match command.deleted {
                        true => ("deleted item", "--deleted "),
                        false => ("item", ""),
                    };
                    let failure = Failure::usage(format!(
                        "{item} {index} of {} is not text ({} bytes); it was not written to the terminal",
                        of(target),
                        bytes.len()
                    ))
                    .with_hint(format!(
                        "send it to a file or a pipe (`safe-ad cat {deleted}{target} {index} > file`), or give --force"
                    ));
                    Err(failure)
                } else {
                    reporter.raw(bytes);
                    Ok(Done::from_first_failure(copy_failed))
                }
            }
            Err(failure) => Err(failure),
        };
        // A lease that could not be given back is named, and the exit code is then not 0.
        match done {
            Ok(done) => Ok(accounted(done, &stop, &launcher, reporter)),
            Err(failure) => {
                accounted(Done::Success, &stop, &launcher, reporter);
                Err(failure)
            }
        }
    }))
}

/// What the words call the data read: `handle 7`, or the name (read through a fresh copy).
fn of(target: Target) -> String {
    match target {
        Target::Handle(handle) => format!("handle {handle}"),
        Target::Name(name) => name.to_string(),
    }
}

/// The item's content, or why there is none to write. `of`: the handle or name, as [`of`]
/// words it.
fn content<'a>(
    shown: &'a plan::Shown,
    item: Option<&'a plan::ShownItem>,
    of: &str,
    index: u64,
    deleted: bool,
) -> Result<&'a [u8], Failure> {
    // As the person gave it, for the commands a hint suggests.
    let handle = of.strip_prefix("handle ").unwrap_or(of);
    // A failure of the launcher's, said with what was being read.
    let said = |failure: &Failure| {
        let mut failure = failure.clone();
        failure.message = format!("cat {handle} {index}: {}", failure.message);
        failure
    };
    let metadata = shown.metadata.as_ref().map_err(said)?;
    let list = if deleted { "deleted list" } else { "data" };
    let Some(item) = item else {
        let length = if deleted {
            metadata.deleted_data_length
        } else {
            metadata.data_length
        };
        return Err(Failure::new(
            Class::Rejected,
            format!("{of} has no item at index {index} of its {list} (it holds {length})"),
        )
        .with_hint(format!(
            "`safe-ad show {handle}` numbers the items, from 0{}",
            if deleted {
                ""
            } else {
                "; --deleted reads the deleted list"
            }
        )));
    };
    if let Some(failure) = item.failures.first() {
        return Err(said(failure));
    }
    if item.missing {
        return Err(Failure::new(
            Class::Rejected,
            format!("item {index} of {of} points at data that is not on the network"),
        ));
    }
    if item.unread {
        return Err(Failure::new(
            Class::Unexpected,
            format!(
                "item {index} of {of} is immutable data larger than safe-ad reads in one answer ({} KiB)",
                MAX_CONTENT_BYTES / 1024
            ),
        ));
    }
    match (&item.kind, &item.content) {
        (Some(Kind::Appendable { .. }), _) => Err(Failure::new(
            Class::Rejected,
            format!("item {index} of {of} points at appendable data, which has no content"),
        )
        .with_hint(format!(
            "`safe-ad show --index {index} {handle}` says its version and counts"
        ))),
        (_, Some(content)) => Ok(content),
        _ => Err(Failure::new(
            Class::Unexpected,
            format!("item {index} of {of}: the launcher gave no content for it"),
        )),
    }
}
