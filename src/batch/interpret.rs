//! The plan interpreter: runs the requests a procedure's plan lists (the plan `--dry-run` and
//! `--curl` print), putting the handles earlier answers give in place of their slots, holding
//! what the plan gives back as leases, and noting what the typed results (`super::made`) are
//! told from: the request that made the procedure's handle, the saves, the append.

use crate::handle::Handle;
use crate::launcher::{HandleKind, Operation, Request, Slot};
use crate::outcome::Reply;

use super::is_read_back;
use super::made::{Made, Making, TakenCopy};
use super::steps::Steps;
use super::Settled;

/// What came of running a plan: the step of its request that makes the handle the procedure is
/// for (a `create` or a fetch), if one was sent, and what it answered; whether every request
/// ran (a give-back that failed does not stop the plan); where the saves read back with their
/// step stand among the steps.
pub(super) struct Interpreted {
    making: Option<(usize, Option<Reply>)>,
    pub(super) finished: bool,
    pub(super) saves: Vec<usize>,
    /// Where an append that succeeded stands among the steps.
    pub(super) appended: Option<usize>,
    /// What became of the handle the procedure made for the person ([`Steps::settle_made`]).
    settled: Settled,
    /// The fresh copy of a name the plan took (and gives back), once its fetch answered.
    pub(super) copy: Option<TakenCopy>,
}

impl Interpreted {
    /// The [`Making`] of the procedure, its [`Made`] from what the making request answered.
    pub(super) fn making(&self, made: impl FnOnce(&Reply) -> Option<Made>) -> Option<Making> {
        let (at, reply) = self.making.as_ref()?;
        Some(Making {
            at: *at,
            made: reply.as_ref().and_then(made),
            settled: self.settled,
        })
    }
}

/// Runs a plan, whose later requests may use the handles earlier answers give (`create`,
/// `open`, `append`, `reopen`, the operations): each request once the one before succeeded. A
/// save the plan lists with its read back ([`super::with_read_back`]) sends that read as part of its
/// step. A handle the plan gives back (a `DropDataId`, a copy's drop or a sign key's of its
/// slot) is a lease: given back where
/// the plan lists it, or at the end (`Steps::finish`) whatever came. A give-back that fails
/// does not stop the plan: nothing after it waits on it (a reopen's old handle is dropped once
/// the new one is there, whether or not the data id it came through could be given back).
/// The handle made for the person, if any, is settled at the end ([`Steps::settle_made`]).
pub(super) async fn interpret(steps: &mut Steps<'_>, plan: &[Request<Slot>]) -> Interpreted {
    interpret_with(steps, plan, FailedChange::Stops).await
}

/// What a change at an index that failed does to the rest of a plan (`remove`, `restore`,
/// `purge`): stops it (`--fail-fast`, and every plan of a procedure that holds no such change),
/// or lets the changes after it go, each index being a request of its own as a handle of a
/// batch is. Either way no save after it is sent: a handle half changed is not saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FailedChange {
    Stops,
    OthersGo,
}

/// [`interpret`], with the rule for a failed change at an index.
pub(super) async fn interpret_with(
    steps: &mut Steps<'_>,
    plan: &[Request<Slot>],
    failed_change: FailedChange,
) -> Interpreted {
    let mut done = run_plan(steps, plan, failed_change).await;
    done.settled = steps.settle_made().await;
    done
}

/// [`interpret_with`] but for settling the handle made.
async fn run_plan(
    steps: &mut Steps<'_>,
    plan: &[Request<Slot>],
    failed_change: FailedChange,
) -> Interpreted {
    let mut answers: Vec<(&'static str, Handle)> = Vec::new();
    let mut done = Interpreted {
        making: None,
        finished: false,
        saves: Vec::new(),
        appended: None,
        settled: Settled::Yours,
        copy: None,
    };
    // A change at an index failed, and the plan went on (`FailedChange::OthersGo`).
    let mut change_failed = false;
    let mut at = 0;
    while let Some(request) = plan.get(at) {
        at += 1;
        let Some(sent) = resolved(request, &answers) else {
            return done;
        };
        if gives_back(request) {
            let _ = steps.give_back_by(sent).await;
            continue;
        }
        if sent.operation().is_save() {
            if change_failed {
                return done;
            }
            let read_back = (plan.get(at))
                .and_then(|next| resolved(next, &answers))
                .is_some_and(|next| is_read_back(&next, &sent));
            let reply = match read_back {
                true => {
                    at += 1;
                    let before = steps.sent();
                    let reply = steps.save_or_run(sent).await;
                    if steps.sent() > before {
                        done.saves.push(before);
                    }
                    reply
                }
                false => steps.run(sent).await,
            };
            if reply.is_none() {
                return done;
            }
            continue;
        }
        // A reopen's read of which data it made is not what was asked: a stop skips it, and
        // that keeps nothing asked from being done.
        if matches!(sent, Request::OnHandle(Operation::Serialise, _)) && steps.stopped() {
            continue;
        }
        if !sent.operation().makes_handle() {
            let before = steps.sent();
            if steps.run(sent).await.is_none() {
                let went = steps.sent() > before;
                // A reopen's read of which data it made: what it failed to say stops nothing.
                if went && matches!(sent, Request::OnHandle(Operation::Serialise, _)) {
                    continue;
                }
                if went && failed_change == FailedChange::OthersGo && is_change(&sent) {
                    change_failed = true;
                    continue;
                }
                return done;
            }
            if let Request::Append { .. } = sent {
                done.appended = Some(before);
            }
            continue;
        }
        let field = fills(&sent, &plan[at..]);
        let given_back = (plan[at..].iter())
            .any(|later| gives_back(later) && freed(later) == Some(Slot::FromAnswer(field)));
        let handle = match given_back {
            true => {
                let release: fn(Handle) -> Request = match sent.operation().row().makes {
                    Some(HandleKind::AppendableData) => {
                        |copy| Request::OnHandle(Operation::Drop, copy)
                    }
                    Some(HandleKind::SignKey) => |key| HandleKind::SignKey.free(key),
                    _ => Request::DropDataId,
                };
                match steps.lease(sent, release).await {
                    Ok((handle, _)) => {
                        if let (Request::Fetch(_), Some(name)) = (sent, opened_name(plan)) {
                            done.copy = Some(TakenCopy { handle, name });
                        }
                        handle
                    }
                    Err(_) => return done,
                }
            }
            false => match run_making(steps, sent, &mut done).await {
                Some(Reply::Handle(handle)) => Handle(handle),
                Some(Reply::Fetched(fetched)) => Handle(fetched.handle_id),
                // Made, but its number not read: nothing later can use it.
                Some(_) => continue,
                None => return done,
            },
        };
        answers.push((field, handle));
    }
    done.finished = true;
    done
}

/// Whether a plan's request gives back a handle an earlier request of the plan made: a data id
/// dropped, a name's fresh copy dropped (a handle an answer gave; the `drop` command's handles
/// are the person's own, and their drop is a request like any other), or a sign key an answer
/// gave dropped.
fn gives_back(request: &Request<Slot>) -> bool {
    matches!(
        request,
        Request::DropDataId(_)
            | Request::OnHandle(Operation::Drop, Slot::FromAnswer(_))
            | Request::OnId(Operation::DropSignKey, Slot::FromAnswer(_))
    )
}

/// The handle a request that gives one back frees.
fn freed(request: &Request<Slot>) -> Option<Slot> {
    match request {
        Request::OnId(Operation::DropSignKey, key) => Some(*key),
        request => request.handle().or(request.data_id()),
    }
}

/// The name a plan takes a fresh copy of, if it starts from one.
fn opened_name(plan: &[Request<Slot>]) -> Option<crate::name::Name> {
    match plan.first() {
        Some(Request::DataIdOfName { name, .. }) => Some(*name),
        _ => None,
    }
}

/// A change of the item at one index (`remove`, `restore`, `purge`).
fn is_change(request: &Request) -> bool {
    matches!(request, Request::AtIndex(operation, ..) if operation.is_item_change())
}

/// Sends a request that makes a handle no later request gives back: a `create` or a fetch is
/// the procedure's own, made for the person ([`Steps::make`]) and noted in `done` when it is
/// sent.
async fn run_making(steps: &mut Steps<'_>, sent: Request, done: &mut Interpreted) -> Option<Reply> {
    let before = steps.sent();
    let made_here = matches!(sent.operation(), Operation::Create | Operation::Fetch);
    let reply = match made_here {
        true => steps.make(sent).await.ok().map(|(_, reply)| reply),
        false => steps.run(sent).await,
    };
    if made_here && steps.sent() > before {
        done.making = Some((before, reply.clone()));
    }
    reply
}

/// The slot a plan names the handle a request answers with: a data id's `{dataIdHandle}`, the
/// fetch of a name's fresh copy `{copyHandle}` (`super::COPY`), any other `{handleId}`.
fn fills(request: &Request, later: &[Request<Slot>]) -> &'static str {
    let copy = Slot::FromAnswer(super::COPY);
    match request.operation() {
        Operation::DataId => "dataIdHandle",
        Operation::Fetch
            if later
                .iter()
                .any(|later| later.waits_on().any(|slot| slot == copy)) =>
        {
            super::COPY
        }
        _ => "handleId",
    }
}

/// A plan's request with the handles earlier answers gave in place of their slots; `None` when
/// one it waits on never came. A slot is the latest answer of its field, as a curl script's
/// variable is: a plan that takes one sign key after another (`filter add` of several keys)
/// uses each until the next.
fn resolved(request: &Request<Slot>, answers: &[(&'static str, Handle)]) -> Option<Request> {
    let at = |slot: Slot| match slot {
        Slot::Is(handle) => Some(handle),
        Slot::FromAnswer(field) => (answers.iter())
            .rfind(|(name, _)| *name == field)
            .map(|(_, handle)| *handle),
    };
    (*request).try_with_handles(at)
}
