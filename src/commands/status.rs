//! `safe-ad status HANDLE...`: each handle's copy against the network, one block (or, with
//! `--json`, one object) per handle, in input order. `batch::status` reads both sides and
//! compares them; `report` says what it found; this checks the arguments, runs it, and picks
//! the exit code: 0 when no copy holds a change a save would send (and none is stale),
//! `differs` when one does, a
//! failure's own code when one failed, the first handle in input order deciding (the batch rule).

use std::time::Instant;

use crate::batch::show::ShowOptions;
use crate::batch::status as plan;
use crate::batch::{Stop, Tally};
use crate::cli::StatusCommand;
use crate::outcome::{Class, Done, Failure};

use super::{accounted, leased, Context, Next};

const COMMAND: &str = "status";

pub fn run<'a>(command: &StatusCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let handles = &command.handles.handles;
    let Some((slots, settings, launcher)) = super::handles_to_read(handles, COMMAND, cx)? else {
        return Ok(Next::Done(Done::Failed(Class::Usage)));
    };
    Ok(Next::sends(async move {
        let stop = Stop::new(settings.interrupt_wait);
        let sending = super::sending(&settings, &launcher, &stop, cx.ledger());
        // `ok` counts the copies settled, `failed` those that differ or failed; `differ` the former.
        let mut tally = Tally::default();
        let mut differ = 0;
        // Settled copies that do not show what the network holds (not in sync, nothing to save).
        let mut unshown = 0;
        let each = async |handle, you: Option<&[u8]>, tally: &mut Tally| {
            let started = Instant::now();
            let read = ShowOptions::WHOLE;
            let compared = plan::handle(sending, handle, read, |at, done, total| {
                reporter.show_progress(at, done, total, started)
            })
            .await;
            // A handle cut short by Ctrl-C is not said: half a comparison would mislead.
            if stop.is_set() {
                return;
            }
            let verdict = compared.verdict();
            reporter.status(&launcher, &compared, &verdict, you);
            tally.seen += 1;
            match &verdict {
                Ok(verdict) if verdict.settled() => {
                    tally.ok += 1;
                    unshown += u64::from(!verdict.in_sync());
                }
                Ok(_) => {
                    differ += 1;
                    tally.failed += 1;
                    tally.first_failure.get_or_insert(Class::Differs);
                }
                Err(failure) => {
                    tally.failed += 1;
                    tally.first_failure.get_or_insert(failure.class);
                }
            }
        };
        let work = super::each_handle(sending, slots, reporter, COMMAND, &mut tally, each);
        leased(work, &stop, &launcher, reporter).await?;
        reporter.status_summary(&tally, differ, unshown);
        let done = Done::from_first_failure(tally.first_failure);
        Ok(accounted(done, &stop, &launcher, reporter))
    }))
}
