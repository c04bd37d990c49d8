//! The poll loop `wait` and `watch` share: poll (`batch::poll`), say the requests and a copy
//! retaken, hand what was read to the command, pause until the next poll is due, and end at a
//! stop signal, a failed poll, or a deadline (`wait --deadline`, which also cuts short a poll
//! in flight). What a poll means (a condition that holds, a change to say) is the command's:
//! it answers each poll with [`Flow`].

use std::time::{Duration, Instant};

use crate::batch::poll::{self as plan, Compare, Polled, Watched};
use crate::batch::{Sending, Stop};
use crate::launcher::Launcher;
use crate::outcome::Failure;
use crate::report::Reporter;

/// What the command makes of a poll.
pub(super) enum Flow<T> {
    /// Poll again when the next poll is due.
    Again,
    /// The polls are over.
    Done(T),
}

/// How the polls ended, beside [`Flow::Done`].
pub(super) enum Ended<T> {
    /// The command ended them.
    Done(T),
    /// The deadline passed: during a poll, which it cut short (`cut`), or during the pause
    /// before a poll that would not have been due before it. `polls` were answered.
    Deadline { polls: u64, cut: bool },
    /// Poll number `.1` failed (not said yet).
    Failed(Failure, u64),
    /// A stop signal came.
    Stopped,
}

/// The polls of one command.
pub(super) struct Polls<'a> {
    pub command: &'static str,
    pub sending: Sending<'a>,
    pub launcher: &'a Launcher,
    pub reporter: &'a Reporter,
    pub stop: &'a Stop,
    pub watched: Watched,
    pub compare: Compare,
    pub interval: Duration,
    /// When the polls end whatever they read.
    pub deadline: Option<Instant>,
}

impl<'a> Polls<'a> {
    /// Polls of `watched` every `interval`, with no deadline.
    pub fn new(
        command: &'static str,
        sending: Sending<'a>,
        launcher: &'a Launcher,
        reporter: &'a Reporter,
        watched: Watched,
        compare: Compare,
        interval: Duration,
    ) -> Polls<'a> {
        Polls {
            command,
            sending,
            launcher,
            reporter,
            stop: sending.stop,
            watched,
            compare,
            interval,
            deadline: None,
        }
    }

    /// Polls every `interval` until `each` says `Done` or the polls end otherwise; `each` gets
    /// the poll's number (from 1) and what it read.
    pub async fn run<T>(&self, mut each: impl FnMut(u64, Polled) -> Flow<T>) -> Ended<T> {
        let mut polls = 0;
        loop {
            let next = Instant::now() + self.interval;
            let polling = plan::poll(self.sending, self.watched, self.compare);
            let poll = match self.deadline {
                Some(ends) => match tokio::time::timeout_at(ends.into(), polling).await {
                    Ok(poll) => poll,
                    Err(_) if self.stop.is_set() => return Ended::Stopped,
                    Err(_) => return Ended::Deadline { polls, cut: true },
                },
                None => polling.await,
            };
            if self.stop.is_set() {
                return Ended::Stopped;
            }
            polls += 1;
            self.reporter.polled(self.launcher, &poll.steps);
            if poll.retaken > 0 {
                self.reporter
                    .copy_retaken(self.command, self.watched, poll.retaken);
            }
            let polled = match poll.read {
                Ok(polled) => polled,
                Err(failure) => return Ended::Failed(failure, polls),
            };
            if let Flow::Done(done) = each(polls, polled) {
                return Ended::Done(done);
            }
            // The pause: until the next poll is due, cut short by a stop signal. A poll not due
            // before the deadline is not started: the polls end at the deadline.
            let until = self.deadline.map_or(next, |ends| next.min(ends));
            tokio::select! {
                () = tokio::time::sleep_until(until.into()) => {}
                () = crate::signals::after(0) => return Ended::Stopped,
            }
            if self.deadline.is_some_and(|ends| next >= ends) {
                return Ended::Deadline { polls, cut: false };
            }
        }
    }
}
