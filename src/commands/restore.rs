//! `restore ... --save post` (and `restore NAME`, saved the same way) once the items are chosen:
//! the reads that decide which restored items the save leaves in neither of the network's lists
//! and whether each of them can be appended again after it, the procedure (`batch::restore`),
//! and what became of every item.
//!
//! The save takes an item whose removal the network has got off its deleted list, and only its
//! append makes it data again: so nothing is changed unless every such item can be appended
//! after the save (the filter the save stores lets the user's key in; public data does not hold
//! the item signed by the user already), and an item whose append did not land is said first,
//! with what it was and the command that appends it again. The append is signed by the user's
//! key, so an item another key signed comes back signed by them: only with `--re-sign`; without
//! it nothing is changed (exit 2), and with it the words say which items are now theirs.

use crate::batch::restore::{self as procedure, Blocked, Progress, ToRestore};
use crate::batch::show::{self, IndexRange, Parts, ShowOptions, ShownItem};
use crate::batch::status::{self, Network};
use crate::batch::{self, Ended, Stop};
use crate::handle::{Handle, Target};
use crate::launcher::{Launcher, Operation, Request};
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
use crate::wire::AppendableData;

use super::copies::WhenBeaten;
use super::{interrupted, leased, Means};

/// What a restore with a save is made on.
pub(super) struct On<'s> {
    /// The handle the changes are sent to: the one given, or a name's fresh copy.
    pub handle: Handle,
    /// The handle or name as the person gave it, for the words.
    pub target: Target,
    /// How many data items the copy holds when the post is sent, where the read said.
    pub held: Option<u64>,
    /// The stop of the run around a name's copy, which says and accounts a stop itself.
    pub outer: Option<&'s Stop>,
    /// `--re-sign`: an item another key signed may come back signed by the user's key.
    pub re_sign: bool,
    /// What the restore does when another save beat its own.
    pub when_beaten: WhenBeaten<'s>,
}

/// One phase of work that holds leases, watched for stop signals. On its own (`within` false) a
/// stop is said and accounted as every leased work's is ([`leased`]); within a run that watches
/// the same stop around it (a name's copy) the stop is only passed up, and that run says it
/// once, with everything it holds.
pub(super) async fn phase<T>(
    work: impl std::future::Future<Output = T>,
    stop: &Stop,
    within: bool,
    launcher: &Launcher,
    reporter: &Reporter,
) -> Result<T, Failure> {
    if !within {
        return leased(work, stop, launcher, reporter).await;
    }
    match batch::until_stopped(work, stop, || reporter.stopping(stop.wait())).await {
        Ended::Finished(value) => Ok(value),
        _ => Err(Failure::new(Class::Interrupted, "interrupted")),
    }
}

/// `restore ... --save post` once the items are chosen: one read of the network's deleted list
/// decides which restored items the save would leave in neither list (their removal was saved);
/// the copy's bytes and the network's data say whether each can be appended again after the
/// save, and when one cannot, nothing is changed. Then the procedure, watched for stop signals,
/// and what became of each item.
pub(super) async fn restore_and_append(
    on: On<'_>,
    items: &[ShownItem],
    means: Means<'_>,
) -> Result<Done, Failure> {
    let (settings, launcher, reporter) = (means.settings, means.launcher, means.reporter);
    let On {
        handle,
        target,
        held,
        outer,
        re_sign,
        when_beaten,
    } = on;
    let read = ShowOptions {
        range: IndexRange::ALL,
        full: false,
        parts: Parts {
            filter: false,
            data: true,
            deleted: true,
            content: false,
            signers: true,
        },
    };
    let own = Stop::new(settings.interrupt_wait);
    let stop = outer.unwrap_or(&own);
    let sending = means.sending(stop);
    // The user's key too, to say which items come back signed by another key than before, and
    // whether the filter lets it in. The copy's bytes (one request, no handle): the filter the
    // save stores. A name's fresh copy is the network's data: its lists are the network's, so
    // every item restored from it is appended again, and the network needs no read of its own.
    let fresh = matches!(target, Target::Name(_));
    let work = async {
        let (you, mut steps) = show::user_key(sending).await;
        let (copy, more) = show::serialised(sending, handle).await;
        steps.extend(more);
        let network = match fresh {
            true => Network::NotAsked,
            false => {
                let (network, more) = status::network(sending, handle, read, |_, _, _| {}).await;
                steps.extend(more);
                network
            }
        };
        ((you.ok(), copy, network), steps)
    };
    let ((you, copy, network), steps) =
        phase(work, stop, outer.is_some(), launcher, reporter).await?;
    reporter.exchanges(launcher, &steps);
    // A data id or fresh handle not given back; a failed read of the user's key only costs
    // words, unless the filter needs it (`procedure::blocked`).
    let given_back = |request: &Request| {
        matches!(
            request,
            Request::DropDataId(_) | Request::OnHandle(Operation::Drop, _)
        )
    };
    if let Some(failure) = steps
        .iter()
        .filter(|step| given_back(&step.request))
        .find_map(|step| step.result.as_ref().err())
    {
        return Err(cannot_decide(target, failure));
    }
    let copy = match copy {
        Ok(bytes) => AppendableData::decode(&bytes).map_err(|error| {
            let failure = Failure::new(Class::Unexpected, format!("its bytes: {error}"));
            cannot_decide(target, &failure)
        })?,
        Err(failure) => return Err(cannot_decide(target, &failure)),
    };
    // An item as the network tells items apart: its data id and its signer.
    type Identity = (Vec<u8>, Vec<u8>);
    let identity = |item: &ShownItem| -> Option<Identity> {
        Some((item.data_id.clone()?, item.signer.clone()?))
    };
    let (network_deleted, network_data): (Vec<Identity>, Vec<Identity>) = match &network {
        _ if fresh => (Vec::new(), procedure::items_of(&copy)),
        Network::Read(shown) => {
            if let Some(failure) = shown.failures().next() {
                return Err(cannot_decide(target, failure));
            }
            (
                shown.deleted.iter().filter_map(identity).collect(),
                shown.data.iter().filter_map(identity).collect(),
            )
        }
        // Never saved: the post fails (the data is not on the network), and says so.
        Network::NeverSaved => (Vec::new(), Vec::new()),
        Network::Failed(failure) => return Err(cannot_decide(target, failure)),
        Network::NotAsked => return Err(Failure::new(Class::Interrupted, "interrupted")),
    };
    let to_restore: Vec<ToRestore> = items
        .iter()
        .map(|item| ToRestore {
            index: item.index,
            append: fresh || identity(item).is_some_and(|item| network_deleted.contains(&item)),
        })
        .collect();
    let blocked: Vec<(&ShownItem, Blocked)> = (items.iter().zip(&to_restore))
        .filter(|(_, planned)| planned.append)
        .filter_map(|(item, _)| {
            let data_id = item.data_id.as_deref();
            procedure::blocked(&copy, &network_data, you.as_deref(), data_id)
                .map(|blocked| (item, blocked))
        })
        .collect();
    if !blocked.is_empty() {
        return Err(reporter.restore_blocked(&target.to_string(), &blocked));
    }
    // Appended again, an item is signed by the user's key: one another key signed (or whose
    // signer could not be told) changes signer only when the person said so.
    let re_signs: Vec<(&ShownItem, Option<bool>)> = (items.iter().zip(&to_restore))
        .filter(|(_, planned)| planned.append)
        .map(|(item, _)| {
            (
                item,
                procedure::re_signs(item.signer.as_deref(), you.as_deref()),
            )
        })
        .filter(|(_, re_signs)| *re_signs != Some(false))
        .collect();
    if !re_sign && !re_signs.is_empty() {
        return Err(reporter.restore_re_signs(&target.to_string(), &re_signs));
    }
    let re_signed: Vec<&ShownItem> = (re_signs.iter())
        .filter(|(_, re_signs)| *re_signs == Some(true))
        .map(|(item, _)| *item)
        .collect();
    reporter.restore_appends(handle, items, &to_restore, you.as_deref());
    let progress = Progress::new(&to_restore);
    let work = procedure::run(sending, handle, &to_restore, &progress);
    let ended = batch::until_stopped(work, stop, || reporter.stopping(stop.wait())).await;
    let (mut steps, stopped) = match ended {
        Ended::Finished(steps) => (steps, None),
        Ended::Interrupted(steps) => (steps, Some(false)),
        Ended::Abandoned => (Vec::new(), Some(false)),
        Ended::WaitedOut => (Vec::new(), Some(true)),
    };
    // A save another beat changed nothing: the run may make it again on a fresh copy.
    if stopped.is_none() && when_beaten.again(&steps) {
        reporter.exchanges(launcher, &steps);
        return Ok(Done::Failed(Class::Rejected));
    }
    when_beaten.worded(&mut steps);

    // An append's failure is said by what became of its item (`in_neither`): one sent again
    // that landed is no failure of the run.
    let first = (steps.iter())
        .filter(|step| !matches!(step.request, Request::Append { .. }))
        .find_map(|step| step.result.as_ref().err().map(|failure| failure.class));
    let first_append = (steps.iter())
        .filter(|step| matches!(step.request, Request::Append { .. }))
        .find_map(|step| step.result.as_ref().err().map(|failure| failure.class));
    let in_neither = progress.in_neither();
    let lost = !in_neither.is_empty();
    reporter.restore_steps(launcher, handle, &steps, held, lost, &re_signed);
    // The data's name, for the command that appends an item again: a handle may be stale.
    let data = match target {
        Target::Name(name) => name.to_string(),
        Target::Handle(_) => copy.name.to_string(),
    };
    let stop_failure = |waited_out| match outer {
        // The run around the copy says the stop, once it has given the copy back.
        Some(_) => Failure::new(Class::Interrupted, "interrupted"),
        None => interrupted(stop, waited_out, launcher, reporter),
    };
    if !in_neither.is_empty() {
        let class = match stopped {
            Some(_) => Class::Interrupted,
            None => first.or(first_append).unwrap_or(Class::Unexpected),
        };
        let appended_failure = (steps.iter().rev())
            .filter(|step| matches!(step.request, Request::Append { .. }))
            .find_map(|step| step.result.as_ref().err());
        let lost = reporter.restore_in_neither(
            class,
            &target.to_string(),
            &data,
            items,
            &in_neither,
            &progress,
            appended_failure,
        );
        let Some(waited_out) = stopped else {
            return Err(lost);
        };
        // Said first: what the stop cost on the network, then what it left in the launcher.
        reporter.failed(&lost);
        return Err(stop_failure(waited_out));
    }
    if let Some(waited_out) = stopped {
        return Err(stop_failure(waited_out));
    }
    Ok(Done::from_first_failure(first))
}

/// The read that decides which restored items to append again failed: nothing was changed.
fn cannot_decide(handle: Target, failure: &Failure) -> Failure {
    failure.refusing(format_args!(
        "restore {handle}: the network's deleted list could not be read, so which items a save would leave in neither list is not known; nothing was changed"
    ))
}
