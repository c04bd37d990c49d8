//! `safe-ad show HANDLE...`: what each handle holds, one block (or, with `--json`, one object)
//! per handle, in input order. `batch::show` reads the items through leases; `report` says
//! them; this checks the arguments, runs it, and picks the exit code.

use std::time::Instant;

use crate::args::{parse_range, parse_selector};
use crate::batch::show::{self as plan, IndexRange, ShowOptions};
use crate::batch::{Stop, Tally};
use crate::cli::ShowCommand;
use crate::outcome::{Class, Done, Failure};

use super::{accounted, leased, Context, Next};

const COMMAND: &str = "show";

pub fn run<'a>(command: &'a ShowCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let range = match &command.index {
        Some(raw) => parse_range(raw)?,
        None => IndexRange::ALL,
    };
    let selector = parse_selector(&command.selector, COMMAND)?;
    let handles = &command.handles.handles;
    let Some((slots, settings, launcher)) = super::handles_to_read(handles, COMMAND, cx)? else {
        return Ok(Next::Done(Done::Failed(Class::Usage)));
    };
    Ok(Next::sends(async move {
        let show = ShowOptions {
            range,
            full: command.full,
            parts: plan::Parts::ALL,
        };
        let stop = Stop::new(settings.interrupt_wait);
        let sending = super::sending(&settings, &launcher, &stop, cx.ledger());
        let mut tally = Tally::default();
        if command.serialised {
            // The bytes alone: one request per handle, nothing else of it read.
            let each = async |handle, _: Option<&[u8]>, tally: &mut Tally| {
                let (read, steps) = plan::serialised(sending, handle).await;
                if stop.is_set() {
                    return;
                }
                reporter.serialised(&launcher, handle, &read, &steps);
                if let Err(failure) = &read {
                    tally.first_failure.get_or_insert(failure.class);
                }
            };
            let work = super::each_handle(sending, slots, reporter, COMMAND, &mut tally, each);
            leased(work, &stop, &launcher, reporter).await?;
            let done = Done::from_first_failure(tally.first_failure);
            return Ok(accounted(done, &stop, &launcher, reporter));
        }
        let mut blocks = 0;
        let each = async |handle, you: Option<&[u8]>, tally: &mut Tally| {
            let started = Instant::now();
            let mut shown = plan::handle(sending, handle, show, |done, total| {
                reporter.show_progress(handle, done, total, started)
            })
            .await;
            plan::which(sending, &mut shown).await;
            // Selectors list what `remove`, `restore` or `purge` with the same selectors would
            // move: the data items for `remove`, the deleted ones for the other two. An item
            // that could not be read stays, with its error: it might match.
            if selector.is_given() {
                for list in [&mut shown.data, &mut shown.deleted] {
                    list.retain(|item| !item.failures.is_empty() || selector.matches(item, you));
                }
            }
            // A handle cut short by Ctrl-C is not shown: half of it would mislead.
            if stop.is_set() {
                return;
            }
            reporter.shown(&launcher, &shown, you, range, blocks > 0);
            if shown.metadata.is_ok() {
                blocks += 1;
            }
            let failed = shown.failures().next().map(|failure| failure.class);
            if let Some(class) = failed {
                tally.first_failure.get_or_insert(class);
            }
        };
        let work = super::each_handle(sending, slots, reporter, COMMAND, &mut tally, each);
        leased(work, &stop, &launcher, reporter).await?;
        let done = Done::from_first_failure(tally.first_failure);
        Ok(accounted(done, &stop, &launcher, reporter))
    }))
}
