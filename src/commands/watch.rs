//! `safe-ad watch HANDLE|NAME`: polls the network's data (`batch::poll`) every `--interval`
//! and says what changed since the poll before (`batch::poll::changes`): on a terminal a view
//! redrawn in place, else JSON Lines, one change a line. It ends after `--count` polls, at a stop
//! signal (130, every handle given back), when stdout's reader goes away (0), or when a poll fails
//! (its own code: 6 when the launcher went away), said in a line of its own.

use std::time::Duration;

use crate::args::parse_target;
use crate::batch::poll::{self as plan, Compare, Polled, Watched};
use crate::batch::show::user_key;
use crate::batch::Stop;
use crate::cli::WatchCommand;
use crate::handle::Target;
use crate::outcome::{Class, Done, Failure};
use crate::report::Watching;

use super::polling::{Ended as Polling, Flow, Polls};
use super::{accounted, leased, Context, Next};

const COMMAND: &str = "watch";

/// How the polls ended.
enum Ended {
    /// `--count` polls were made, or stdout's reader went away.
    Done,
    /// Poll number `.1` failed.
    Failed(Failure, u64),
    Stopped,
}

pub fn run<'a>(command: &'a WatchCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let watched = match parse_target(&command.handle, COMMAND)? {
        Target::Handle(handle) => Watched::Handle(handle),
        Target::Name(name) => Watched::Name(name),
    };
    let watching = Watching {
        watched,
        interval: Duration::from_secs_f64(command.interval),
        draws: reporter.watch_draws(),
        last_change: Default::default(),
    };
    let settings = super::resolve(cx, crate::settings::StdinUse::Free)?;
    let launcher = super::launcher(&settings, cx)?;
    settings.token()?;
    Ok(Next::sends(async move {
        let stop = Stop::new(settings.interrupt_wait);
        let sending = super::sending(&settings, &launcher, &stop, cx.ledger());
        let work = async {
            // Your own key, so items you signed are said `you`, as `show` says them.
            let (key, steps) = user_key(sending).await;
            reporter.polled(&launcher, &steps);
            if stop.is_set() {
                return Ended::Stopped;
            }
            let you = key.ok();
            let interval = watching.interval;
            let polls = Polls::new(
                COMMAND,
                sending,
                &launcher,
                reporter,
                watched,
                Compare::Version,
                interval,
            );
            let mut before: Option<Polled> = None;
            let ended = polls
                .run(|polls, polled| {
                    let changes = before.as_ref().map(|b| plan::changes(b, &polled));
                    reporter.watched(
                        &watching,
                        polls,
                        &polled,
                        changes.as_deref(),
                        you.as_deref(),
                    );
                    if reporter.stdout_gone() || command.count.is_some_and(|count| polls >= count) {
                        return Flow::Done(());
                    }
                    before = Some(polled);
                    Flow::Again
                })
                .await;
            match ended {
                Polling::Done(()) => Ended::Done,
                Polling::Failed(failure, polls) => Ended::Failed(failure, polls),
                Polling::Stopped => Ended::Stopped,
                Polling::Deadline { .. } => unreachable!("a watch has no deadline"),
            }
        };
        // Ctrl-C is how a watch is ended: 130 as every stop, and no error line when it left
        // nothing behind (what it did leave is named, as always).
        let quietly = |stop: &Stop| stop.left().is_empty() && stop.saves_in_flight() == 0;
        let ended = match leased(work, &stop, &launcher, reporter).await {
            Err(failure) if failure.class == Class::Interrupted && quietly(&stop) => {
                return Ok(Done::Failed(Class::Interrupted));
            }
            ended => ended?,
        };
        let done = match ended {
            Ended::Done => Done::Success,
            Ended::Stopped if quietly(&stop) => Done::Failed(Class::Interrupted),
            Ended::Stopped => return Err(super::interrupted(&stop, false, &launcher, reporter)),
            Ended::Failed(failure, polls) => {
                reporter.poll_failed(COMMAND, watched, polls, &failure);
                Done::Failed(failure.class)
            }
        };
        Ok(accounted(done, &stop, &launcher, reporter))
    }))
}
