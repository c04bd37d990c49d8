//! Made again after another save came first: a name's change whose save was refused with -25
//! (someone saved since its copy was taken; the launcher did not act) may be made again on a
//! fresh copy, when what it changes is chosen again by that copy (a clear's every item, the
//! items selectors match), a bounded number of times, after a little while at random.

use std::time::Duration;

use super::{Procedure, Step};
use crate::handle::Target;

/// How many times a name's change whose items are chosen by what they are (a clear's "every
/// item", a selector's match) is made again on a fresh copy after another save beat its own.
/// Five: six runs at once on one data then all land, whatever their timing. A run's save is
/// refused only when another's landed since its copy was taken, each of the five others lands
/// once, and a run's tries do not overlap in time, so no run is beaten six times.
pub const MADE_AGAIN_AT_MOST: u32 = 5;

/// Whether `procedure` given `target` is a name's clear, whose "every item" is chosen again by
/// a fresh copy of the network's data as it now is.
pub(super) fn clear_of_a_name(procedure: Procedure, target: Target) -> bool {
    matches!(procedure, Procedure::Operation { operation, .. } if operation.is_clear())
        && matches!(target, Target::Name(_))
}

/// Whether one of `steps` is a save another save beat ([`Step::beaten_by_another_save`]): the
/// launcher did not act, so the network's data is as it was. Not when the copy was fetched or
/// read as another's data (`isOwner` false): its owner's key alone saves it, so the same -25
/// would come every time.
pub fn beaten_by_another_save(steps: &[Step]) -> bool {
    !read_as_anothers(steps) && steps.iter().any(Step::beaten_by_another_save)
}

/// Whether one of `steps` fetched or read the data as another's (`isOwner` false).
pub fn read_as_anothers(steps: &[Step]) -> bool {
    use crate::outcome::Reply;
    steps.iter().any(|step| match &step.result {
        Ok(Reply::Fetched(fetched)) => !fetched.is_owner,
        Ok(Reply::Metadata(metadata)) => !metadata.is_owner,
        _ => false,
    })
}

impl Step {
    /// A save refused with -25: someone saved since the copy was taken, and the launcher did
    /// not act (a lost answer never counts: the save may have acted).
    pub fn beaten_by_another_save(&self) -> bool {
        self.request.operation().is_save()
            && !self.answer_lost
            && (self.result.as_ref().err())
                .and_then(|failure| failure.answer.as_ref())
                .is_some_and(|answer| answer.error_code == Some(-25))
    }
}

/// A wait of 50 to 250 ms before a change is tried again, at random, so that writers who
/// collided do not collide again in step.
pub fn a_little_while() -> Duration {
    let mut byte = [0u8; 1];
    let _ = getrandom::getrandom(&mut byte);
    Duration::from_millis(50 + u64::from(byte[0]) * 200 / 255)
}
