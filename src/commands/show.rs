//! `safe-ad show HANDLE...`: what each handle holds, one block (or, with `--json`, one object)
//! per handle, in input order. `batch::show` reads the items through leases; `report` says
//! them; this checks the arguments, runs it, and picks the exit code.

use std::time::Instant;

use futures_util::StreamExt;

use crate::batch::show::{self as plan, IndexRange, ShowOptions};
use crate::batch::{self, Ended, Stop};
use crate::cli::{ClientOptions, ShowCommand};
use crate::input;
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
use crate::runtime::runtime;

use super::items;

const COMMAND: &str = "show";

/// What `--index` takes, for messages.
const RANGE_FORMS: &str =
    "N, A..B (B not included), A..=B, A.. or ..B, where indexes count from 0 as `show` numbers the items";

pub fn run(
    command: &ShowCommand,
    options: &ClientOptions,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let range = match &command.index {
        Some(raw) => parse_range(raw)?,
        None => IndexRange::ALL,
    };
    let selector = items::parse_selector(&command.selector, COMMAND)?;
    let Some(slots) = super::handle_slots(&command.handles.handles, COMMAND, reporter)? else {
        return Ok(Done::Failed(Class::Usage));
    };
    let settings = super::resolve(options, reporter, super::stdin_use(&slots))?;
    let launcher = super::launcher(&settings)?;
    settings.token()?;
    let show = ShowOptions {
        range,
        full: command.full,
        jobs: settings.jobs,
        verbose: settings.verbose,
        parts: plan::Parts::ALL,
    };
    let stop = Stop::default();
    let mut first_failure: Option<Class> = None;
    let work = async {
        let (you, steps) = plan::user_key(&launcher, settings.verbose, &stop).await;
        reporter.exchanges(&launcher, &steps);
        if let Err(failure) = &you {
            if stop.is_set() {
                return;
            }
            reporter.show_failed(COMMAND, "your own sign key", failure);
            first_failure.get_or_insert(failure.class);
        }
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
                    list.retain(|item| !item.failures.is_empty() || selector.matches(item, you));
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
    let ended = runtime()?.block_on(batch::until_stopped(work, &stop, || reporter.stopping()));
    match ended {
        Ended::Finished(()) => {
            let done = Done::from_first_failure(first_failure);
            Ok(super::accounted(done, &stop, &launcher, reporter))
        }
        Ended::Interrupted(()) | Ended::Abandoned => {
            Err(super::interrupted(&stop, &launcher, reporter))
        }
    }
}

/// `--index`: N, A..B, A..=B, A.., ..B, ..=B.
fn parse_range(raw: &str) -> Result<IndexRange, Failure> {
    let invalid = |why: &str| {
        Failure::usage(format!(
            "invalid --index '{}': {why}",
            crate::sanitize::line(raw.as_bytes(), 80)
        ))
        .with_hint(format!("give {RANGE_FORMS}; nothing was sent"))
    };
    let index = |text: &str| {
        items::decimal(text).map_err(|problem| {
            invalid(&format!(
                "'{}' {}",
                crate::sanitize::line(text.as_bytes(), 80),
                problem.describe().trim_start_matches("it ")
            ))
        })
    };
    let Some((start, end)) = raw.split_once("..") else {
        let at = index(raw)?;
        return Ok(IndexRange {
            start: at,
            end: at.checked_add(1),
        });
    };
    let start = if start.is_empty() { 0 } else { index(start)? };
    let end = match end.strip_prefix('=') {
        Some("") => return Err(invalid("`..=` needs the last index after it")),
        Some(last) => index(last)?.checked_add(1),
        None if end.is_empty() => None,
        None => Some(index(end)?),
    };
    match end {
        Some(end) if end < start => Err(invalid("the end comes before the start")),
        Some(end) if end == start => Err(invalid(
            "it holds no index (the end is not included: A..B stops before B)",
        )),
        _ => Ok(IndexRange { start, end }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(start: u64, end: Option<u64>) -> IndexRange {
        IndexRange { start, end }
    }

    #[test]
    fn index_ranges() {
        assert_eq!(parse_range("3").unwrap(), range(3, Some(4)));
        assert_eq!(parse_range("2..5").unwrap(), range(2, Some(5)));
        assert_eq!(parse_range("2..=5").unwrap(), range(2, Some(6)));
        assert_eq!(parse_range("2..").unwrap(), range(2, None));
        assert_eq!(parse_range("..5").unwrap(), range(0, Some(5)));
        assert_eq!(parse_range("..=0").unwrap(), range(0, Some(1)));
        assert_eq!(parse_range("..").unwrap(), range(0, None));
        assert_eq!(
            parse_range("18446744073709551615").unwrap(),
            range(u64::MAX, None)
        );
        for bad in [
            "", "x", "5..2", "5..5", "-1", "1...3", "1..=", "1..2..3", " 1", "0x3",
        ] {
            assert!(parse_range(bad).is_err(), "{bad:?}");
        }
        let message = parse_range("5..2").unwrap_err().message;
        assert_eq!(
            message,
            "invalid --index '5..2': the end comes before the start"
        );
    }
}
