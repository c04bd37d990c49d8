//! The words of `wait`: the line that says what it waits for, what made the condition hold
//! (the items it names as `show` names them), and the deadline that passed; as text or, with
//! `--json`, one object at the end.

use std::time::Duration;

use super::json::{Ended, FirstPoll, ReSigned, WaitJson, WatchJson};
use super::results::error_json;
use super::show::{item_json, item_text, item_what, key_text};
use super::*;
use crate::batch::poll::{Change, Condition, Polled, Start, Watched};

/// What a wait came to, for its words.
pub struct WaitEnd<'a> {
    pub watched: Watched,
    pub condition: &'a Condition,
    pub polls: u64,
    pub elapsed: Duration,
    pub start: &'a Start,
    /// The last poll's reading; `None` when the deadline passed before a poll was answered.
    pub polled: Option<&'a Polled>,
    /// The deadline passed while a poll (or the read of your own key) was in flight, and cut
    /// it short.
    pub cut: bool,
    /// The indexes (in the network's data items) of the items that made it hold; `None`: it
    /// did not hold.
    pub held: Option<&'a [u64]>,
    /// It did not hold, and never can on what the last poll saw (`in-sync` on a stale copy):
    /// the wait ended then, before the deadline.
    pub never: bool,
    pub deadline: Duration,
}

/// The condition as `--for` spells it.
pub fn condition_words(condition: &Condition) -> String {
    use crate::values::WaitFor;
    match condition {
        Condition::NewItems => WaitFor::NewItems,
        Condition::Item(_) => WaitFor::Item,
        Condition::VersionAbove(n) => WaitFor::VersionAbove(*n),
        Condition::Stale => WaitFor::Stale,
        Condition::InSync => WaitFor::InSync,
    }
    .word()
}

fn watched_word(watched: Watched) -> String {
    match watched {
        Watched::Handle(handle) => handle.to_string(),
        Watched::Name(name) => name.to_string(),
    }
}

/// What the network held at the last poll, in words.
fn seen(end: &WaitEnd<'_>) -> String {
    let Some(polled) = end.polled else {
        return "no poll was answered".to_owned();
    };
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
    pub fn copy_retaken(&self, command: &str, watched: Watched, times: u32) {
        self.note(&format!(
            "{command} {}: the launcher evicted the fresh copy before it was read (-1515); it was taken again{}",
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
            Some(held) => (end.polled.map_or(&[][..], Polled::data).iter())
                .filter(|item| held.contains(&item.index))
                .collect(),
            None => Vec::new(),
        };
        let failure = match (end.held, end.never) {
            (Some(_), _) => None,
            (None, true) => Some(never_failure(end)),
            (None, false) => Some(deadline_failure(end)),
        };
        if self.json {
            let handle = match end.watched {
                Watched::Handle(handle) => Some(handle.0),
                Watched::Name(_) => None,
            };
            let object = WaitJson {
                command: "wait",
                input: watched_word(end.watched),
                handle,
                ok: end.held.is_some(),
                condition: condition_words(end.condition),
                polls: end.polls,
                seconds: (end.elapsed.as_secs_f64() * 1000.0).round() / 1000.0,
                version: end.polled.and_then(Polled::version),
                data_length: end.polled.map(|polled| polled.data().len()),
                first_poll: FirstPoll {
                    version: end.start.version,
                    data_length: end.start.data_length,
                },
                copy_version: (end.polled.and_then(|polled| polled.copy.as_ref()))
                    .map(|copy| copy.version),
                stale: end
                    .polled
                    .and_then(|polled| polled.copy.as_ref().map(|_| polled.stale)),
                items: items.iter().map(|item| item_json(item, you)).collect(),
                error: (failure.as_ref()).map(|failure| error_json(failure, &Values::default())),
                exit_code: failure.as_ref().map(Failure::exit_code),
            };
            self.print_json(&object);
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

/// A condition that can never hold on what the last poll saw: a stale copy never comes back in
/// sync (only a fresh one is), so waiting on would only run out the deadline.
fn never_failure(end: &WaitEnd<'_>) -> Failure {
    let watched = watched_word(end.watched);
    Failure::new(
        Class::Differs,
        format!(
            "wait {watched}: {} can never hold: the copy is stale, and a stale copy never comes back in sync ({})",
            condition_words(end.condition),
            seen(end)
        ),
    )
    .with_hint(format!(
        "`safe-ad reopen {watched}` gives a fresh copy, in sync with the network"
    ))
}

/// The deadline that passed, with what it waited for and what it last saw.
fn deadline_failure(end: &WaitEnd<'_>) -> Failure {
    let watched = watched_word(end.watched);
    Failure::new(
        Class::Deadline,
        format!(
            "wait {watched}: the deadline of {} passed after {}{}, and {} did not hold: {}",
            crate::outcome::seconds(end.deadline),
            counted(end.polls, "poll", "polls"),
            match end.cut {
                true => ", cutting short the one in flight",
                false => "",
            },
            condition_words(end.condition),
            seen(end)
        ),
    )
    .with_hint(format!(
        "wait longer with --deadline, or see what the network holds with `safe-ad show {watched}`"
    ))
}

/// The cursor home: each view is written over the one before, every line's rest erased
/// ([`ERASE_LINE`]) and what is below the last one ([`ERASE_BELOW`]). Never a clear of the whole
/// screen, which terminals such as tmux keep in their scrollback, one copy a poll.
const HOME: &str = "\x1b[H";
const ERASE_LINE: &str = "\x1b[K";
const ERASE_BELOW: &str = "\x1b[J";

/// The change's name, as `watch --json`'s `event` says it.
fn event_name(change: &Change<'_>) -> &'static str {
    match change {
        Change::Appended(_) => "appended",
        Change::Removed(_) => "removed",
        Change::Restored { .. } => "restored",
        Change::Purged(_) => "purged",
        Change::Version { .. } => "version",
        Change::Stale { .. } => "stale",
    }
}

/// What `watch` polls and how it says it.
pub struct Watching {
    pub watched: Watched,
    pub interval: Duration,
    /// Whether it draws the view on a terminal (else JSON Lines).
    pub draws: bool,
    /// The view's last change in words, with when it was seen: shown until the next one.
    pub last_change: std::cell::RefCell<Option<String>>,
}

impl Watching {
    /// The keys every event object starts with: which data, and the poll's number.
    fn event(&self, event: &'static str, poll: u64) -> WatchJson {
        WatchJson {
            event,
            input: watched_word(self.watched),
            handle: match self.watched {
                Watched::Handle(handle) => Some(handle.0),
                Watched::Name(_) => None,
            },
            poll,
            ..WatchJson::default()
        }
    }
}

impl Reporter {
    /// The failed poll (number `polls`) that ends a `wait` or a `watch`: one line saying so
    /// (a launcher that went away named as that), with `--json` an object too.
    pub fn poll_failed(&self, command: &str, watched: Watched, polls: u64, failure: &Failure) {
        let why = match failure.class {
            Class::Unreachable => "the launcher went away",
            _ => "a poll failed",
        };
        let mut ended = failure.clone();
        ended.message = format!(
            "{command} {}: {why} at poll {polls}, so it ends: {}",
            watched_word(watched),
            failure.message
        );
        // `watch` writes JSON Lines whenever it does not draw: the stream ends with the
        // failure's object then too, as docs/output.md says, not only under `--json`.
        if !self.json && command == "watch" && !self.watch_draws() {
            self.print_json(&Ended {
                ok: false,
                error: error_json(&ended, &Values::default()),
                exit_code: ended.exit_code(),
            });
            self.failed(&ended);
            return;
        }
        self.ended(&ended);
    }

    /// Whether `watch` draws its view: stdout a terminal, and no `--json`.
    pub fn watch_draws(&self) -> bool {
        use std::io::IsTerminal;
        !self.json && std::io::stdout().is_terminal()
    }

    /// One poll of `watch`: the view redrawn, or a JSON line per change (a `start` line for
    /// the first poll, which has no poll before it).
    pub fn watched(
        &self,
        watching: &Watching,
        poll: u64,
        polled: &Polled,
        changes: Option<&[Change<'_>]>,
        you: Option<&[u8]>,
    ) {
        if watching.draws {
            self.watch_view(watching, poll, polled, changes.unwrap_or(&[]), you);
            return;
        }
        let Some(changes) = changes else {
            let mut object = watching.event("start", poll);
            let network = polled.network.as_ref();
            object.version = Some(polled.version());
            object.data_length = Some(network.map(|shown| shown.data.len()));
            object.deleted_data_length = Some(network.map(|shown| shown.deleted.len()));
            object.copy_version = Some(polled.copy.as_ref().map(|copy| copy.version));
            object.stale = Some(polled.copy.as_ref().map(|_| polled.stale));
            self.print_json(&object);
            return;
        };
        for change in changes {
            let mut object = watching.event(event_name(change), poll);
            match change {
                Change::Appended(item)
                | Change::Removed(item)
                | Change::Restored {
                    item,
                    re_signed: None,
                }
                | Change::Purged(item) => object.item = Some(item_json(item, you)),
                Change::Restored {
                    item,
                    re_signed: Some(was),
                } => {
                    object.item = Some(item_json(item, you));
                    object.re_signed = Some(ReSigned {
                        index: was.index,
                        signer: was.signer.as_deref().map(serialised::fingerprint),
                    });
                }
                Change::Version { from, to } => {
                    object.from = Some(*from);
                    object.to = Some(*to);
                }
                Change::Stale { copy, network } => {
                    object.copy_version = Some(Some(*copy));
                    object.network_version = Some(*network);
                }
            }
            self.print_json(&object);
        }
    }

    /// The view on a terminal: drawn over the one before, items as `show` lists them, those
    /// that changed since the poll before marked (`+` in, `-` moved to the deleted list).
    fn watch_view(
        &self,
        watching: &Watching,
        poll: u64,
        polled: &Polled,
        changes: &[Change<'_>],
        you: Option<&[u8]>,
    ) {
        let watched = watched_word(watching.watched);
        let mut text = String::new();
        let Some(network) = &polled.network else {
            text.push_str(&format!(
                "watch {watched}: no data of this name is on the network (poll {poll})\n"
            ));
            self.out(&over_the_last(&text));
            return;
        };
        text.push_str(&format!(
            "watch {watched}: version {}, data {}, deleted {} (poll {poll}, every {}; Ctrl-C stops)\n",
            polled.version().map_or("?".to_owned(), |v| v.to_string()),
            network.data.len(),
            network.deleted.len(),
            crate::outcome::seconds(watching.interval),
        ));
        if let Some(copy) = &polled.copy {
            let state = if polled.stale { "stale" } else { "not stale" };
            text.push_str(&format!("copy: version {} ({state})\n", copy.version));
        }
        // The last change stays until the next, with when it was seen (UTC).
        let said: Vec<String> = (changes.iter())
            .map(|change| change_words(change, you))
            .collect();
        let mut last = watching.last_change.borrow_mut();
        if !said.is_empty() {
            *last = Some(format!(
                "{} at {} UTC (poll {poll})",
                said.join(", "),
                clock_now()
            ));
        }
        text.push_str(&match last.as_deref() {
            Some(last) if said.is_empty() => format!("last change: {last}; none since\n"),
            Some(last) => format!("changed: {last}\n"),
            None => "changed: nothing since the first poll\n".to_owned(),
        });
        let header = text.lines().count();
        let marked = |item: &ShownItem| {
            changes.iter().find_map(|change| match change {
                Change::Appended(other) | Change::Restored { item: other, .. }
                    if std::ptr::eq(*other, item) =>
                {
                    Some('+')
                }
                Change::Removed(other) if std::ptr::eq(*other, item) => Some('-'),
                _ => None,
            })
        };
        for item in network.data.iter().chain(&network.deleted) {
            let line = item_text(item, you);
            match marked(item) {
                Some(mark) => {
                    text.push(mark);
                    text.push_str(line.get(1..).unwrap_or_default());
                }
                None => text.push_str(&line),
            }
        }
        let size = streams::terminal_size();
        self.out(&over_the_last(&fitted(&text, header, size)));
    }
}

/// The view's lines cut to the terminal (`size`: rows and columns, where it says): each line to
/// the width, and past the height the items dropped but the `header` lines, with a last line
/// that says how many were left out. A view taller than the window would scroll its header and
/// changes away, and push a copy of itself into the scrollback at each poll.
fn fitted(text: &str, header: usize, size: Option<(usize, usize)>) -> String {
    let Some((rows, columns)) = size.filter(|(rows, columns)| *rows > 1 && *columns > 1) else {
        return text.to_owned();
    };
    // The last row stays free: a line written there would scroll the view by one.
    let room = rows - 1;
    let lines: Vec<&str> = text.lines().collect();
    let kept: Vec<String> = match lines.len() > room {
        false => lines.iter().map(|line| (*line).to_owned()).collect(),
        true => {
            let items = room.saturating_sub(header + 1);
            let left = lines.len() - header - items;
            (lines.iter().take(header + items))
                .map(|line| (*line).to_owned())
                .chain(std::iter::once(format!(
                    "... {left} more lines: a taller window shows them"
                )))
                .take(room)
                .collect()
        }
    };
    let mut out = String::new();
    for line in kept {
        out.extend(line.chars().take(columns - 1));
        out.push('\n');
    }
    out
}

/// The time of day now, UTC (`HH:MM:SS`), for the view's last change.
fn clock_now() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    let day = seconds % 86_400;
    format!("{:02}:{:02}:{:02}", day / 3600, day / 60 % 60, day % 60)
}

/// A view's lines, written over the view before ([`HOME`]).
fn over_the_last(text: &str) -> String {
    let mut drawn = String::from(HOME);
    for line in text.lines() {
        drawn.push_str(line);
        drawn.push_str(ERASE_LINE);
        drawn.push('\n');
    }
    drawn.push_str(ERASE_BELOW);
    drawn
}

/// One change in words, for the view's `changed:` line; `you`: the user's own key.
fn change_words(change: &Change<'_>, you: Option<&[u8]>) -> String {
    match change {
        Change::Appended(item)
        | Change::Restored {
            item,
            re_signed: None,
        } => {
            format!("{} (data {})", event_name(change), item.index)
        }
        Change::Restored {
            item,
            re_signed: Some(was),
        } => format!(
            "restored (data {}, re-signed: it was signed by {})",
            item.index,
            key_text(was.signer.as_deref(), you)
        ),
        Change::Removed(item) => format!("removed (deleted {})", item.index),
        Change::Purged(item) => format!("purged ({})", item_what(item)),
        Change::Version { from, to } => format!(
            "version {} to {}",
            from.map_or("?".to_owned(), |v| v.to_string()),
            to.map_or("?".to_owned(), |v| v.to_string())
        ),
        Change::Stale { copy, network } => {
            format!("stale (copy at version {copy}, network at {network})")
        }
    }
}
