//! The words of `wait`: the line that says what it waits for, what made the condition hold
//! (the items it names as `show` names them), and the deadline that passed; as text or, with
//! `--json`, one object at the end.

use std::time::Duration;

use super::show::{item_json, item_text};
use super::*;
use crate::batch::poll::{Condition, Polled, Start, Watched};

/// What a wait came to, for its words.
pub struct WaitEnd<'a> {
    pub watched: Watched,
    pub condition: &'a Condition,
    pub polls: u64,
    pub elapsed: Duration,
    pub start: &'a Start,
    /// The last poll's reading.
    pub polled: &'a Polled,
    /// The indexes (in the network's data items) of the items that made it hold; `None`: it
    /// did not hold.
    pub held: Option<&'a [u64]>,
    pub deadline: Duration,
}

/// The condition as `--for` spells it.
pub fn condition_words(condition: &Condition) -> String {
    match condition {
        Condition::NewItems => "new-items".to_owned(),
        Condition::Item(_) => "item".to_owned(),
        Condition::VersionAbove(n) => format!("version-above={n}"),
        Condition::Stale => "stale".to_owned(),
        Condition::InSync => "in-sync".to_owned(),
    }
}

fn watched_word(watched: Watched) -> String {
    match watched {
        Watched::Handle(handle) => handle.to_string(),
        Watched::Name(name) => name.to_string(),
    }
}

/// What the network held at the last poll, in words.
fn seen(end: &WaitEnd<'_>) -> String {
    let polled = end.polled;
    let Some(version) = polled.version() else {
        return "no data of this name is on the network".to_owned();
    };
    let data = polled.data().len() as u64;
    let mut words = format!(
        "the network's data is at version {version} with {}",
        counted(data, "data item", "data items")
    );
    if let Condition::NewItems = end.condition {
        words.push_str(&format!(", {} at the first poll", end.start.data_length));
    }
    if let Some(copy) = &polled.copy {
        let sync = match (polled.stale, polled.in_sync) {
            (true, _) => "stale",
            (false, true) => "in sync",
            (false, false) => "not in sync",
        };
        words.push_str(&format!(
            "; the copy is at version {} ({sync})",
            copy.version
        ));
    }
    words
}

impl Reporter {
    /// After the first poll, when the condition did not hold yet: what it waits for, how often
    /// and how long (stderr; silenced by `--quiet`).
    pub fn waiting(&self, end: &WaitEnd<'_>, interval: Duration) {
        self.info(&format!(
            "wait {}: waiting for {} (a poll every {}, for at most {}): {}",
            watched_word(end.watched),
            condition_words(end.condition),
            crate::outcome::seconds(interval),
            crate::outcome::seconds(end.deadline),
            seen(end)
        ));
    }

    /// A poll of a name whose fresh copy the launcher evicted before it was read, taken again
    /// `times` (no failure: the launcher keeps 100 handles of a kind).
    pub fn copy_retaken(&self, watched: Watched, times: u32) {
        self.note(&format!(
            "wait {}: the launcher evicted the fresh copy before it was read (-1515); it was taken again{}",
            watched_word(watched),
            if times > 1 { format!(", {times} times") } else { String::new() }
        ));
    }

    /// The requests of one poll, with `--verbose`.
    pub fn polled(&self, launcher: &Launcher, steps: &[Step]) {
        self.exchanges(launcher, steps);
    }

    /// The end of a wait: what made the condition hold (stdout), or the deadline that passed
    /// (an error on stderr, and with `--json` the same object with `ok: false`).
    pub fn wait_ended(&self, end: &WaitEnd<'_>, you: Option<&[u8]>) {
        let items: Vec<&ShownItem> = match end.held {
            Some(held) => (end.polled.data().iter())
                .filter(|item| held.contains(&item.index))
                .collect(),
            None => Vec::new(),
        };
        let failure = end.held.is_none().then(|| deadline_failure(end));
        if self.json {
            let handle = match end.watched {
                Watched::Handle(handle) => Some(handle.0),
                Watched::Name(_) => None,
            };
            let mut object = json!({
                "input": watched_word(end.watched),
                "handle": handle,
                "ok": end.held.is_some(),
                "for": condition_words(end.condition),
                "polls": end.polls,
                "seconds": (end.elapsed.as_secs_f64() * 1000.0).round() / 1000.0,
                "version": end.polled.version(),
                "data_length": end.polled.data().len(),
                "first_poll": json!({
                    "version": end.start.version,
                    "data_length": end.start.data_length,
                }),
                "copy_version": end.polled.copy.as_ref().map(|copy| copy.version),
                "stale": end.polled.copy.as_ref().map(|_| end.polled.stale),
                "items": items.iter().map(|item| item_json(item, you)).collect::<Vec<_>>(),
            });
            if let Some(failure) = &failure {
                add_error(&mut object, failure, &Values::default());
            }
            self.out(&json_line(&object));
        } else if end.held.is_some() && !self.quiet {
            let mut text = format!(
                "{}: {} holds after {} ({:.1} s): {}\n",
                watched_word(end.watched),
                condition_words(end.condition),
                counted(end.polls, "poll", "polls"),
                end.elapsed.as_secs_f64(),
                seen(end)
            );
            for item in &items {
                text.push_str(&item_text(item, you));
            }
            self.out(&text);
        }
        if let Some(failure) = &failure {
            self.failed(failure);
        }
    }
}

/// The deadline that passed, with what it waited for and what it last saw.
fn deadline_failure(end: &WaitEnd<'_>) -> Failure {
    let watched = watched_word(end.watched);
    Failure::new(
        Class::Deadline,
        format!(
            "wait {watched}: the deadline of {} passed after {}, and {} did not hold: {}",
            crate::outcome::seconds(end.deadline),
            counted(end.polls, "poll", "polls"),
            condition_words(end.condition),
            seen(end)
        ),
    )
    .with_hint(format!(
        "wait longer with --deadline, or see what the network holds with `safe-ad show {watched}`"
    ))
}
