//! `safe-ad show HANDLE...`: what each handle holds, one block (or, with `--json`, one object)
//! per handle, in input order. `batch::show` reads the items through leases; `report` says
//! them; this checks the arguments, runs it, and picks the exit code.

use std::time::Instant;

use futures_util::StreamExt;

use crate::args::{parse_range, parse_selector};
use crate::batch::show::{self as plan, IndexRange, ShowOptions};
use crate::batch::Stop;
use crate::cli::ShowCommand;
use crate::input;
use crate::outcome::{Class, Done, Failure};

use super::{accounted, leased, your_key, Context, Next};

const COMMAND: &str = "show";

pub fn run<'a>(command: &'a ShowCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let range = match &command.index {
        Some(raw) => parse_range(raw)?,
        None => IndexRange::ALL,
    };
    let selector = parse_selector(&command.selector, COMMAND)?;
    let Some(slots) = super::handle_slots(&command.handles.handles, COMMAND, reporter)? else {
        return Ok(Next::Done(Done::Failed(Class::Usage)));
    };
    let settings = super::resolve(cx, super::stdin_use(&slots))?;
    let launcher = super::launcher(&settings)?;
    settings.token()?;
    Ok(Next::sends(async move {
        let show = ShowOptions {
            range,
            full: command.full,
            jobs: settings.jobs,
            verbose: settings.verbose,
            parts: plan::Parts::ALL,
        };
        let stop = Stop::new(settings.interrupt_wait);
        let mut first_failure: Option<Class> = None;
        let work = async {
            let verbose = settings.verbose;
            let Some(you) = your_key(
                &launcher,
                verbose,
                &stop,
                reporter,
                COMMAND,
                &mut first_failure,
            )
            .await
            else {
                return;
            };
            let items = input::items(slots, tokio::io::stdin());
            futures_util::pin_mut!(items);
            let mut blocks = 0;
            while let Some(item) = items.next().await {
                if stop.is_set() {
                    return;
                }
                let handle = match item.handle {
                    Ok(handle) => handle,
                    Err(_) => {
                        if let Some(failure) = item.problem(COMMAND) {
                            reporter.failed(&failure);
                            first_failure.get_or_insert(failure.class);
                        }
                        continue;
                    }
                };
                let started = Instant::now();
                let mut shown = plan::handle(&launcher, handle, show, &stop, |done, total| {
                    reporter.show_progress(handle, done, total, started)
                })
                .await;
                // Selectors list what `remove`, `restore` or `purge` with the same selectors would
                // move: the data items for `remove`, the deleted ones for the other two. An item
                // that could not be read stays, with its error: it might match.
                if selector.is_given() {
                    let you = you.as_deref().ok();
                    for list in [&mut shown.data, &mut shown.deleted] {
                        list.retain(|item| {
                            !item.failures.is_empty() || selector.matches(item, you)
                        });
                    }
                }
                // A handle cut short by Ctrl-C is not shown: half of it would mislead.
                if stop.is_set() {
                    return;
                }
                reporter.shown(&launcher, &shown, you.as_deref().ok(), range, blocks > 0);
                if shown.metadata.is_ok() {
                    blocks += 1;
                }
                if let Some(failure) = shown.failures().next() {
                    first_failure.get_or_insert(failure.class);
                }
                if reporter.stdout_closed() {
                    return;
                }
            }
        };
        leased(work, &stop, &launcher, reporter).await?;
        let done = Done::from_first_failure(first_failure);
        Ok(accounted(done, &stop, &launcher, reporter))
    }))
}
