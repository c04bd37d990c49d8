//! `restore ... --save post`: deleted items made data again on the network, not only in the copy.
//!
//! A post carries no data items, so a restored item whose removal was saved is, after a plain
//! post, in neither of the network's lists (`crate::saving::Change::Restore`). The procedure
//! that makes "restore and save" true: a data id of each such item (taken from the copy's
//! deleted list before the restore, a lease), the restores, the save, then each item appended
//! again through its data id (after the save: the launcher refuses to append an item still in
//! the network's deleted list), and the data ids given back. An item whose removal was never
//! saved is still data on the network and is not appended. Which items need it is decided by
//! the caller from one read of the network's deleted list (`status::network`). Nothing here
//! renders.
//!
//! The save takes such an item off the network's deleted list, so once it is sent the item is
//! data again only if its append lands: what the append needs is checked before the save
//! ([`blocked`]: the filter the save stores lets the user's key in, and public data does not
//! hold the item signed by the user already), and an append refused with -25 (the data's
//! version moved: someone saved between the save and the append, so the handle is stale) is
//! sent again through a fresh handle of the data, which may land. A refused answer means the
//! launcher did not act, so that is no second sending of a request that may have acted; an
//! append whose answer was lost is never sent again. [`Progress`] records, as it happens, what
//! became of the save and of each append, so that a run cut short by a stop signal still knows
//! which items may be in neither list.

use std::cell::{Cell, RefCell};

use super::{with_read_back, Sending, Step, Steps};
use crate::handle::Handle;
use crate::launcher::{Operation, Request, Slot};
use crate::outcome::{Failure, Reply};
use crate::wire::{AppendableData, Entry, FilterType, SignKey};

/// How many times an append refused because the data's version moved is sent again, each
/// through a fresh handle: a writer that saves again each time is not waited out for ever.
pub const APPEND_RETRIES: usize = 3;

/// The launcher's code for a mutation the network refused (`InvalidSuccessor`): for an append,
/// a stale handle, a filter that keeps the signer out, or an item the data holds already.
const INVALID_SUCCESSOR: i64 = -25;

/// One index to restore, and whether its item is appended again after the save.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToRestore {
    pub index: u64,
    pub append: bool,
}

/// The procedure, one request after another: a data id of each item to append (highest index
/// first), the restores highest first, the save and its read back, an append of each, and the
/// data ids given back. `--dry-run` prints it (which items are appended is only known from a read
/// of the network, so a dry run passes every item as appended: the most that may be sent) and
/// [`run`] interprets it, so what is printed is what is sent.
pub fn plan(handle: Handle, items: &[ToRestore]) -> Vec<Request<Slot>> {
    let mut ordered = items.to_vec();
    ordered.sort_unstable_by_key(|item| std::cmp::Reverse(item.index));
    let appended: Vec<u64> = (ordered.iter())
        .filter(|item| item.append)
        .map(|item| item.index)
        .collect();
    let on = Slot::Is(handle);
    let data_id = Slot::FromAnswer("handleId");
    let mut requests: Vec<Request<Slot>> = appended
        .iter()
        .map(|index| Request::AtIndex(Operation::DeletedItemDataId, on, *index))
        .collect();
    requests.extend(
        ordered
            .iter()
            .map(|item| Request::AtIndex(Operation::Restore, on, item.index)),
    );
    requests.extend(with_read_back(Request::OnHandle(Operation::Post, on)));
    requests.extend(appended.iter().map(|_| Request::Append {
        handle: on,
        data_id,
    }));
    requests.extend(appended.iter().map(|_| Request::DropDataId(data_id)));
    requests
}

/// What became of one request that matters to where the items end up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Not sent (an earlier step failed, or the stop was set).
    NotSent,
    /// Sent, and its answer may not have come (lost, or the run left while it was in flight):
    /// the launcher may have acted.
    MayHave,
    /// The launcher answered that it did it.
    Done,
    /// The launcher answered that it did not.
    Refused,
}

/// What a run of the procedure did to the save and to each append, written as it happens (a
/// run dropped by a second stop signal leaves it as far as it got).
#[derive(Debug)]
pub struct Progress {
    pub save: Cell<Fate>,
    /// The items appended again, highest index first (the plan's order), each with the fate
    /// of its last append.
    pub appends: RefCell<Vec<(u64, Fate)>>,
}

impl Progress {
    pub fn new(items: &[ToRestore]) -> Progress {
        let mut appended: Vec<u64> = (items.iter())
            .filter(|item| item.append)
            .map(|item| item.index)
            .collect();
        appended.sort_unstable_by_key(|index| std::cmp::Reverse(*index));
        Progress {
            save: Cell::new(Fate::NotSent),
            appends: RefCell::new(
                appended
                    .into_iter()
                    .map(|index| (index, Fate::NotSent))
                    .collect(),
            ),
        }
    }

    /// The items (indexes in the deleted list before the restore) that the save may have left
    /// in neither of the network's lists, each with whether that is certain (the save was
    /// answered and no append of the item may have landed).
    pub fn in_neither(&self) -> Vec<(u64, bool)> {
        let save = self.save.get();
        if !matches!(save, Fate::Done | Fate::MayHave) {
            return Vec::new();
        }
        (self.appends.borrow().iter())
            .filter(|(_, fate)| *fate != Fate::Done)
            .map(|(index, fate)| (*index, save == Fate::Done && *fate != Fate::MayHave))
            .collect()
    }

    fn set_append(&self, nth: usize, fate: Fate) {
        if let Some(entry) = self.appends.borrow_mut().get_mut(nth) {
            entry.1 = fate;
        }
    }
}

/// Why an item the save leaves in neither list could not be appended again after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blocked {
    /// The filter the save stores (the copy's) keeps the user's key out.
    Filter { kind: FilterType, keys: usize },
    /// Public data that holds the item signed by the user already: the launcher refuses it.
    AlreadyData,
    /// It cannot be told: what is missing.
    Unknown(&'static str),
}

/// Whether the append of an item after the save would be refused, from what was read before
/// anything changed: `copy`, the copy's data (its filter is what the save stores), `data`, the
/// network's data items as (data id, signer) bytes, `you`, the user's serialised sign key, and
/// `data_id`, the item's serialised data id.
pub fn blocked(
    copy: &AppendableData,
    data: &[(Vec<u8>, Vec<u8>)],
    you: Option<&[u8]>,
    data_id: Option<&[u8]>,
) -> Option<Blocked> {
    let keys = &copy.filter_keys;
    let filter_free = copy.filter_type == FilterType::BlackList && keys.is_empty();
    let Some(you) = you else {
        return match filter_free && copy.private {
            true => None,
            false => Some(Blocked::Unknown("your own sign key could not be read")),
        };
    };
    let Ok(key) = SignKey::decode(you) else {
        return Some(Blocked::Unknown(
            "your own sign key is not in launcher 0.11.0's layout",
        ));
    };
    let allowed = match copy.filter_type {
        FilterType::BlackList => !keys.contains(&key),
        FilterType::WhiteList => keys.contains(&key),
    };
    if !allowed {
        return Some(Blocked::Filter {
            kind: copy.filter_type,
            keys: keys.len(),
        });
    }
    if copy.private {
        // Private data takes any item again, as a new sealing.
        return None;
    }
    let Some(data_id) = data_id else {
        return Some(Blocked::Unknown("the item's data id could not be read"));
    };
    let yours = (data.iter()).any(|(id, signer)| id == data_id && signer == you);
    yours.then_some(Blocked::AlreadyData)
}

/// Whether appending an item again, which the user's key signs, changes who signed it: from
/// its signer's and the user's serialised keys; `None` when either could not be read.
pub fn re_signs(signer: Option<&[u8]>, you: Option<&[u8]>) -> Option<bool> {
    Some(signer? != you?)
}

/// A copy's data items as (data id, signer) bytes, as [`blocked`] compares them; a private
/// data's sealed items show neither, and are left out (nothing is compared for private data).
pub fn items_of(copy: &AppendableData) -> Vec<(Vec<u8>, Vec<u8>)> {
    (copy.data.iter())
        .filter_map(|entry| match entry {
            Entry::Appended(item) => Some((item.pointer.encode(), item.sign_key.serialised())),
            Entry::Sealed(_) => None,
        })
        .collect()
}

/// Runs [`plan`] for `items` (at most `MOST_LEASES_OF_A_KIND`: the command refuses more). A
/// failure before the save stops it there (a handle half restored is not saved); after the save
/// each append is tried, and one refused because the data's version moved is tried again
/// through a fresh handle ([`APPEND_RETRIES`] times at most). `progress` hears what became of
/// the save and of each append. Every data id and fresh handle is given back on every path.
pub async fn run(
    sending: Sending<'_>,
    handle: Handle,
    items: &[ToRestore],
    progress: &Progress,
) -> Vec<Step> {
    let mut steps = Steps::new(sending);
    let _ = interpret(&mut steps, &plan(handle, items), progress).await;
    steps.finish().await
}

/// Whether an append's failure is a refusal that a fresh handle may turn into a landing: -25
/// answered (the launcher did not act; a lost answer never counts).
fn may_land_again(failure: &Failure, lost: bool) -> bool {
    !lost
        && (failure.answer.as_ref())
            .is_some_and(|answer| answer.error_code == Some(INVALID_SUCCESSOR))
}

/// The append sent again through a fresh handle of the same data (a data id of it, the fetch,
/// the append, each handle given back): a stale handle's version is the one that moved.
async fn append_through_fresh(
    steps: &mut Steps<'_>,
    handle: Handle,
    data_id: Handle,
) -> Result<Reply, Failure> {
    let (of_data, _) = steps
        .lease(
            Request::OnHandle(Operation::DataId, handle),
            Request::DropDataId,
        )
        .await?;
    let fetched = steps
        .lease(Request::Fetch(of_data), |fresh| {
            Request::OnHandle(Operation::Drop, fresh)
        })
        .await;
    let _ = steps.give_back_by(Request::DropDataId(of_data)).await;
    let (fresh, _) = fetched?;
    let appended = steps
        .ask(Request::Append {
            handle: fresh,
            data_id,
        })
        .await;
    let _ = steps
        .give_back_by(Request::OnHandle(Operation::Drop, fresh))
        .await;
    appended
}

/// What one sent request came to, from its step: `sent_before` is where it stands.
fn fate_of(steps: &Steps<'_>, sent_before: usize, request_ok: bool) -> Fate {
    match steps.step_at(sent_before) {
        None => Fate::NotSent,
        Some(_) if request_ok => Fate::Done,
        Some(step) if step.answer_lost => Fate::MayHave,
        Some(_) => Fate::Refused,
    }
}

/// Sends the plan's requests in order: the n-th append and the n-th drop use the n-th data id
/// taken; a save's read back, listed after it, is part of the save's step.
async fn interpret(
    steps: &mut Steps<'_>,
    plan: &[Request<Slot>],
    progress: &Progress,
) -> Option<()> {
    let (mut taken, mut appended, mut dropped) = (Vec::new(), 0, 0);
    let mut requests = plan.iter().peekable();
    while let Some(request) = requests.next() {
        match *request {
            Request::AtIndex(Operation::DeletedItemDataId, Slot::Is(handle), index) => {
                let request = Request::AtIndex(Operation::DeletedItemDataId, handle, index);
                let (data_id, _) = steps.lease(request, Request::DropDataId).await.ok()?;
                taken.push(data_id);
            }
            Request::AtIndex(operation, Slot::Is(handle), index) => {
                let request = Request::AtIndex(operation, handle, index);
                steps.ask(request).await.ok()?;
            }
            Request::OnHandle(save, Slot::Is(handle)) if save.is_save() => {
                requests.next_if(|next| {
                    matches!(next, Request::OnHandle(Operation::Metadata, Slot::Is(read)) if *read == handle)
                });
                // Until its answer comes the save may have acted (a run left at once).
                progress.save.set(Fate::MayHave);
                let before = steps.sent();
                let saved = steps.save_or_run(Request::OnHandle(save, handle)).await;
                progress.save.set(fate_of(steps, before, saved.is_some()));
                saved?;
            }
            Request::Append {
                handle: Slot::Is(handle),
                ..
            } => {
                let data_id = *taken.get(appended)?;
                let nth = appended;
                appended += 1;
                progress.set_append(nth, Fate::MayHave);
                let mut before = steps.sent();
                let mut result = steps.ask(Request::Append { handle, data_id }).await;
                let mut tries = 0;
                while let Err(failure) = &result {
                    let lost = steps.step_at(before).is_some_and(|step| step.answer_lost);
                    if tries == APPEND_RETRIES || steps.stopped() || !may_land_again(failure, lost)
                    {
                        break;
                    }
                    tries += 1;
                    result = append_through_fresh(steps, handle, data_id).await;
                    // The append is the fresh handle's: the last step sent but its drop.
                    before = (steps.last_append_at()).unwrap_or(steps.sent());
                }
                progress.set_append(nth, fate_of(steps, before, result.is_ok()));
            }
            Request::DropDataId(_) => {
                let data_id = *taken.get(dropped)?;
                dropped += 1;
                let _ = steps.give_back(data_id).await;
            }
            // Not a request of this procedure.
            _ => return None,
        }
    }
    Some(())
}
