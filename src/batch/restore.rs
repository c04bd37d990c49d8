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

use super::{with_read_back, Sending, Step, Steps};
use crate::handle::Handle;
use crate::launcher::{Operation, Request, Slot};

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

/// Runs [`plan`] for `items` (at most `MOST_LEASES_OF_A_KIND`: the command refuses more). A
/// failure before the save stops it there (a handle half restored is not saved); after the save
/// each append is tried. Every data id is given back on every path.
pub async fn run(sending: Sending<'_>, handle: Handle, items: &[ToRestore]) -> Vec<Step> {
    let mut steps = Steps::new(sending);
    let _ = interpret(&mut steps, &plan(handle, items)).await;
    steps.finish().await
}

/// Sends the plan's requests in order: the n-th append and the n-th drop use the n-th data id
/// taken; a save's read back, listed after it, is part of the save's step.
async fn interpret(steps: &mut Steps<'_>, plan: &[Request<Slot>]) -> Option<()> {
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
                steps.save_or_run(Request::OnHandle(save, handle)).await?;
            }
            Request::Append {
                handle: Slot::Is(handle),
                ..
            } => {
                let data_id = *taken.get(appended)?;
                appended += 1;
                let _ = steps.ask(Request::Append { handle, data_id }).await;
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
