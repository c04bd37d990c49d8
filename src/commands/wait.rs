//! `safe-ad wait HANDLE|NAME --for CONDITION`: polls the network's data (`batch::poll`) every
//! `--interval` until the condition holds (exit 0, what made it hold said) or `--deadline`
//! passes (exit 8, what it waited for said). The deadline is the whole wait: it cuts short a
//! poll in flight, whose handles are then named as every handle a run leaves is. A poll that
//! fails ends the wait at once with the failure's own code. The polls run under one stop watch
//! (`leased`): a stop signal ends the pause between polls at once, or lets the poll in flight
//! give its handles back.

use std::time::{Duration, Instant};

use crate::args::{parse_condition, parse_selector, parse_target};
use crate::batch::poll::{Condition, Polled, Start, Watched};
use crate::batch::select::SignedBy;
use crate::batch::show::user_key;
use crate::batch::Stop;
use crate::cli::WaitCommand;
use crate::handle::Target;
use crate::outcome::{Class, Done, Failure};
use crate::report::WaitEnd;

use super::polling::{Ended as Polling, Flow, Polls};
use super::{accounted, leased, Context, Next};

const COMMAND: &str = "wait";

/// How the polls ended.
enum Ended {
    /// The condition held, or it never can hold on what the last poll saw (`never`), or the
    /// deadline passed (neither), maybe while a request was in flight, which it cut short
    /// (`cut`). `polled`: what the last poll answered saw, if one was.
    Polled {
        polls: u64,
        start: Start,
        polled: Option<Box<Polled>>,
        cut: bool,
        held: Option<Vec<u64>>,
        never: bool,
    },
    /// A poll (or the read of your own key) failed, said already.
    Failed(Class),
    /// A stop signal came.
    Stopped,
}

pub fn run<'a>(command: &'a WaitCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let selector = parse_selector(&command.selector, COMMAND)?;
    let condition = parse_condition(command.condition, selector, COMMAND)?;
    let watched = match parse_target(&command.handle, COMMAND)? {
        Target::Handle(handle) => Watched::Handle(handle),
        Target::Name(name) if condition.needs_copy() => {
            return Err(Failure::usage(format!(
                "wait {name}: --for {} compares a handle's copy with the network, and a name's fresh copy is the network's data",
                command.condition.word()
            ))
            .with_hint("give the handle whose copy you wait on; nothing was sent"));
        }
        Target::Name(name) => Watched::Name(name),
    };
    let interval = Duration::from_secs_f64(command.interval);
    let deadline = Duration::from_secs_f64(command.deadline);
    let settings = super::resolve(cx, settings_stdin())?;
    let launcher = super::launcher(&settings, cx)?;
    settings.token()?;
    Ok(Next::sends(async move {
        let stop = Stop::new(settings.interrupt_wait);
        let sending = super::sending(&settings, &launcher, &stop, cx.ledger());
        let started = Instant::now();
        let ends = tokio::time::Instant::from_std(started + deadline);
        let work = async {
            // Your own key: `--signed-by you|others` tells your items from others' by it, and
            // the items said are signed `you` as `show` says them. Not read, it ends the wait
            // only where the selectors need it.
            let needed = matches!(
                &condition,
                Condition::Item(selector)
                    if matches!(selector.signed_by, Some(SignedBy::You | SignedBy::Others))
            );
            let Ok((key, steps)) = tokio::time::timeout_at(ends, user_key(sending)).await else {
                let cut = Ended::Polled {
                    polls: 0,
                    start: Start::default(),
                    polled: None,
                    cut: true,
                    held: None,
                    never: false,
                };
                return (cut, None);
            };
            reporter.polled(&launcher, &steps);
            let you = match key {
                Ok(key) => Some(key),
                Err(_) if stop.is_set() => return (Ended::Stopped, None),
                Err(failure) if needed => {
                    reporter.show_failed(COMMAND, "your own sign key", &failure);
                    return (Ended::Failed(failure.class), None);
                }
                Err(_) => None,
            };
            let compare = condition.compare();
            let polls = Polls {
                deadline: Some(started + deadline),
                ..Polls::new(
                    COMMAND, sending, &launcher, reporter, watched, compare, interval,
                )
            };
            // The first poll's reading, which the conditions compare with, and the last poll's.
            let mut start: Option<Start> = None;
            let mut last: Option<Box<Polled>> = None;
            let ended = polls
                .run(|polls, polled| {
                    let first = start.get_or_insert_with(|| Start::of(&polled));
                    let held = condition.holds(&polled, first, you.as_deref());
                    let out_of_time = started.elapsed() >= deadline;
                    let never = held.is_none() && condition.can_never_hold(&polled);
                    if held.is_some() || out_of_time || never {
                        return Flow::Done((polls, held, never, Box::new(polled)));
                    }
                    if polls == 1 {
                        reporter.waiting(
                            &WaitEnd {
                                watched,
                                condition: &condition,
                                polls,
                                elapsed: started.elapsed(),
                                start: first,
                                polled: Some(&polled),
                                cut: false,
                                held: None,
                                never: false,
                                deadline,
                            },
                            interval,
                        );
                    }
                    last = Some(Box::new(polled));
                    Flow::Again
                })
                .await;
            let ended = match ended {
                Polling::Done((polls, held, never, polled)) => Ended::Polled {
                    polls,
                    start: start.unwrap_or_default(),
                    polled: Some(polled),
                    cut: false,
                    held,
                    never,
                },
                // Out of time: what the last poll answered saw.
                Polling::Deadline { polls, cut } => Ended::Polled {
                    polls,
                    start: start.unwrap_or_default(),
                    polled: last,
                    cut,
                    held: None,
                    never: false,
                },
                Polling::Failed(failure, polls) => {
                    reporter.poll_failed(COMMAND, watched, polls, &failure);
                    Ended::Failed(failure.class)
                }
                Polling::Stopped => Ended::Stopped,
            };
            (ended, you)
        };
        let (ended, you) = leased(work, &stop, &launcher, reporter).await?;
        let done = match ended {
            Ended::Polled {
                polls,
                start,
                polled,
                cut,
                held,
                never,
            } => {
                reporter.wait_ended(
                    &WaitEnd {
                        watched,
                        condition: &condition,
                        polls,
                        elapsed: started.elapsed(),
                        start: &start,
                        polled: polled.as_deref(),
                        cut,
                        held: held.as_deref(),
                        never,
                        deadline,
                    },
                    you.as_deref(),
                );
                // What a cut poll held or was taking is named with what the run leaves.
                match (held, never) {
                    (Some(_), _) => Done::Success,
                    (None, true) => Done::Failed(Class::Differs),
                    (None, false) => Done::Failed(Class::Deadline),
                }
            }
            Ended::Failed(class) => Done::Failed(class),
            Ended::Stopped => return Err(super::interrupted(&stop, false, &launcher, reporter)),
        };
        Ok(accounted(done, &stop, &launcher, reporter))
    }))
}

/// `wait` reads no handles from standard input.
fn settings_stdin() -> crate::settings::StdinUse {
    crate::settings::StdinUse::Free
}
