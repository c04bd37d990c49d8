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

use super::{highest_first, with_read_back, Step, Steps, Stop};
use crate::handle::Handle;
use crate::launcher::{Launcher, Operation, Request, Slot};

/// One index to restore, and whether its item is appended again after the save.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToRestore {
    pub index: u64,
    pub append: bool,
}

/// The requests before any answer (`--dry-run`): a data id of each deleted item, the restores
/// highest first, the save and its read back, an append of each, and the data ids given back.
/// Which items are appended is only known from a read of the network; a dry run lists an
/// append for every item (the most that may be sent).
pub fn plan(handle: Handle, indexes: &[u64]) -> Vec<Request<Slot>> {
    let ordered = highest_first(indexes);
    let on = Slot::Is(handle);
    let data_id = Slot::FromAnswer("handleId");
    let mut requests: Vec<Request<Slot>> = ordered
        .iter()
        .map(|index| Request::AtIndex(Operation::DeletedItemDataId, on, *index))
        .collect();
    requests.extend(
        ordered
            .iter()
            .map(|index| Request::AtIndex(Operation::Restore, on, *index)),
    );
    requests.extend(with_read_back(Request::OnHandle(Operation::Post, on)));
    requests.extend(ordered.iter().map(|_| Request::Append {
        handle: on,
        data_id,
    }));
    requests.extend(ordered.iter().map(|_| Request::DropDataId(data_id)));
    requests
}

/// Runs the procedure over `items` (at most `MOST_LEASES_OF_A_KIND` to append: the caller
/// checks). A failure before the save stops it there (a handle half restored is not saved);
/// after the save each append is tried. Every data id is given back on every path.
pub async fn run(
    launcher: &Launcher,
    handle: Handle,
    items: &[ToRestore],
    verbose: bool,
    stop: &Stop,
) -> Vec<Step> {
    let mut steps = Steps::new(launcher, verbose, stop);
    let _ = chain(&mut steps, handle, items).await;
    steps.finish().await
}

async fn chain(steps: &mut Steps<'_>, handle: Handle, items: &[ToRestore]) -> Option<()> {
    let mut ordered = items.to_vec();
    ordered.sort_unstable_by_key(|item| std::cmp::Reverse(item.index));
    let mut data_ids = Vec::new();
    for item in ordered.iter().filter(|item| item.append) {
        let request = Request::AtIndex(Operation::DeletedItemDataId, handle, item.index);
        let (data_id, _) = steps.lease(request, Request::DropDataId).await.ok()?;
        data_ids.push(data_id);
    }
    for item in &ordered {
        steps
            .ask(Request::AtIndex(Operation::Restore, handle, item.index))
            .await
            .ok()?;
    }
    steps
        .save_or_run(Request::OnHandle(Operation::Post, handle))
        .await?;
    for data_id in data_ids {
        let _ = steps.ask(Request::Append { handle, data_id }).await;
    }
    Some(())
}
