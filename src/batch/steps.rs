//! The step runner and the leases: [`Steps`] sends a procedure's requests one after another and
//! holds each launcher handle it obtains for its own use ([`Lease`]) until it gives it back;
//! [`Stop`] is a stop signal (Ctrl-C, SIGTERM, SIGHUP) as the procedures see it, with every lease
//! held, and [`until_stopped`] runs work that holds leases so that a signal gives them back
//! before it ends.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::time::{Duration, Instant};

use crate::handle::Handle;
use crate::launcher::{HandleKind, HandleReply, Launcher, Operation, Request};
use crate::outcome::{self, Class, Failure, Reply};
use crate::session::Ledger;
use crate::signals;

use super::{handle_in, Step};

/// A launcher handle a procedure obtained for its own use, and the request that gives it back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lease {
    pub handle: Handle,
    pub release: Request,
}

/// A launcher handle a run may have left in the launcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Left {
    /// A lease whose giving back timed out, was cut or failed, or the handle a procedure made
    /// for the person that a stopped run keeps ([`Steps::settle_made`]): its `release` frees it.
    Known(Lease),
    /// A request that makes a handle and may have made one whose number safe-ad never read.
    Unknown(Request, Unread),
}

/// Why the number of a handle a request may have made is not known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unread {
    /// The answer was lost (no answer, a cut one, a timeout) after the request may have
    /// reached the launcher.
    Lost,
    /// A 2xx answer came whose body holds no handle safe-ad can read.
    Garbled,
    /// A second stop signal, or the first one's wait running out, left while the request was
    /// in flight.
    InFlight,
}

/// A stop signal as the procedures see it, and the leases they hold. Once it is set, no
/// request starts but those that give leases back; what is in flight finishes, so a handle the
/// launcher gives in an answer that was on its way is still seen, held and given back.
#[derive(Debug, Default)]
pub struct Stop {
    set: Cell<bool>,
    /// Every lease held now, by any procedure.
    held: RefCell<Vec<Lease>>,
    /// Handles that may be left in the launcher: leases that could not be given back, handles
    /// whose making lost its answer, and a handle made for the person that a stopped run keeps.
    left: RefCell<Vec<Left>>,
    /// Handle-making requests sent and not yet answered, by a number of their own: what a
    /// second signal, which drops the work at once, leaves in flight.
    in_flight: RefCell<Vec<(u64, Request)>>,
    sent: Cell<u64>,
    /// Saves sent and not yet answered: a run left at once may have saved.
    saving: Cell<u32>,
    /// How long the first signal waits for the work to give its leases back before it leaves
    /// as a second one does. (The default stop, 0, serves steps that no signal watch runs:
    /// only [`until_stopped`] reads it.)
    wait: Duration,
}

impl Stop {
    /// A stop whose first signal waits at most `wait` for the work (`SAFE_AD_INTERRUPT_WAIT`).
    pub fn new(wait: Duration) -> Stop {
        Stop {
            wait,
            ..Stop::default()
        }
    }

    /// How long the first signal waits.
    pub fn wait(&self) -> Duration {
        self.wait
    }

    pub fn is_set(&self) -> bool {
        self.set.get()
    }

    pub fn set(&self) {
        self.set.set(true);
    }

    /// What may be left in the launcher: everything still held and every handle-making
    /// request still in flight (after a second signal), and every lease whose taking or giving
    /// back went wrong.
    pub fn left(&self) -> Vec<Left> {
        let mut left = self.left.borrow().clone();
        left.extend(self.held.borrow().iter().copied().map(Left::Known));
        left.extend(
            self.in_flight
                .borrow()
                .iter()
                .map(|(_, request)| Left::Unknown(*request, Unread::InFlight)),
        );
        left
    }

    /// Whether a run that ended early (a second signal, or the first one's wait ran out) left
    /// anything held or in flight.
    pub fn abandoned_any(&self) -> bool {
        !self.held.borrow().is_empty() || !self.in_flight.borrow().is_empty()
    }

    /// Whether a run that ended early left a save in flight: it may have saved.
    pub fn left_a_save(&self) -> bool {
        self.saving.get() > 0
    }

    /// How many saves a run that ended early left in flight: each may have saved.
    pub fn saves_in_flight(&self) -> u32 {
        self.saving.get()
    }

    /// A handle-making request is being sent: it stays named in [`Stop::left`] until
    /// [`Stop::answered`], which a run dropped at once never reaches.
    fn sending(&self, request: Request) -> u64 {
        let number = self.sent.get();
        self.sent.set(number + 1);
        self.in_flight.borrow_mut().push((number, request));
        number
    }

    fn answered(&self, number: u64) {
        self.in_flight
            .borrow_mut()
            .retain(|(sent, _)| *sent != number);
    }

    fn leave(&self, left: Left) {
        self.left.borrow_mut().push(left);
    }

    fn hold(&self, lease: Lease) {
        self.held.borrow_mut().push(lease);
    }

    fn let_go(&self, lease: &Lease) {
        let mut held = self.held.borrow_mut();
        if let Some(at) = held.iter().position(|other| other == lease) {
            held.swap_remove(at);
        }
    }
}

/// What became of the handle a procedure made for the person, at its end
/// ([`Steps::settle_made`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    /// The person's: the procedure did what was asked (or made none).
    Yours,
    /// The stop kept a request from being sent, and the handle was given back.
    GivenBack,
    /// The stop kept a request from being sent, and giving the handle back failed: the run
    /// names it with what it left.
    NotGivenBack,
}

/// How work run by [`until_stopped`] ended.
#[derive(Debug)]
pub enum Ended<T> {
    /// It ran to its end.
    Finished(T),
    /// A stop signal stopped it; it gave its leases back and ended early with this.
    Interrupted(T),
    /// A second signal left at once: the leases still held were not given back ([`Stop::left`]
    /// names them).
    Abandoned,
    /// The first signal's wait ([`Stop::wait`]) ran out before the work ended: left as
    /// [`Ended::Abandoned`] does.
    WaitedOut,
}

/// Runs `work`, which holds leases through `stop`. The first stop signal of the run (Ctrl-C,
/// SIGTERM: a CI runner's cancel, SIGHUP: a closed terminal; one that came before this began
/// counts) sets `stop` and calls `stopping`, for a word to the person: the work sends nothing
/// new but gives back what it holds, and ends. A second signal leaves at once, and so does the
/// first once [`Stop::wait`] has passed: a launcher that does not answer cannot hold the run
/// until `--timeout`. What is then held or in flight is in [`Stop::left`].
pub async fn until_stopped<T>(
    work: impl Future<Output = T>,
    stop: &Stop,
    stopping: impl FnOnce(),
) -> Ended<T> {
    futures_util::pin_mut!(work);
    tokio::select! {
        value = &mut work => return Ended::Finished(value),
        () = signals::after(0) => {}
    }
    // A stop already set by an earlier phase of the same run was said then: once is enough.
    if !stop.is_set() {
        stop.set();
        stopping();
    }
    tokio::select! {
        value = &mut work => Ended::Interrupted(value),
        () = signals::after(1) => Ended::Abandoned,
        () = tokio::time::sleep(stop.wait) => Ended::WaitedOut,
    }
}

/// What every procedure is sent with, handed down as one value rather than as four arguments
/// that always travel together: the launcher, whether the exchanges are kept for `--verbose`,
/// the stop signal that holds the procedure's leases, and how many requests may be in flight at
/// once (`--jobs`).
#[derive(Clone, Copy)]
pub struct Sending<'a> {
    pub launcher: &'a Launcher,
    pub verbose: bool,
    pub stop: &'a Stop,
    pub jobs: usize,
    /// The `shell` session's ledger, told what the procedures made and gave back; `None` on a
    /// command line.
    pub ledger: Option<&'a Ledger>,
}

/// The steps of one procedure, sent one after another, and the leases it holds.
pub(super) struct Steps<'a> {
    launcher: &'a Launcher,
    verbose: bool,
    stop: &'a Stop,
    /// Told of each step as it is done, for a command that prints each change when it is made
    /// (the one-item changes): a run dropped at once by Ctrl-C has said what it sent.
    watch: Option<&'a dyn Fn(&Step)>,
    done: Vec<Step>,
    leases: Vec<Lease>,
    /// The handle the procedure made for the person ([`Steps::make`]), until it is settled.
    made: Option<Lease>,
    /// A request of the procedure was not sent because the stop was set: what was asked was
    /// not done.
    held_back: bool,
}

impl<'a> Steps<'a> {
    pub(super) fn new(sending: Sending<'a>) -> Steps<'a> {
        Steps {
            launcher: sending.launcher,
            verbose: sending.verbose,
            stop: sending.stop,
            watch: None,
            done: Vec::with_capacity(3),
            leases: Vec::new(),
            made: None,
            held_back: false,
        }
    }

    /// Steps that tell `watch` of each step as it is done.
    pub(super) fn watched(sending: Sending<'a>, watch: &'a dyn Fn(&Step)) -> Steps<'a> {
        Steps {
            watch: Some(watch),
            ..Steps::new(sending)
        }
    }

    /// Records a step done, and tells the watch of it.
    fn record(&mut self, step: Step) {
        if let Some(watch) = self.watch {
            watch(&step);
        }
        self.done.push(step);
    }

    /// The steps done so far, taken out (said before the rest of the procedure runs).
    pub(super) fn drain(&mut self) -> Vec<Step> {
        std::mem::take(&mut self.done)
    }

    /// Whether the stop is set: nothing but give-backs goes out any more.
    pub(super) fn stopped(&self) -> bool {
        self.stop.is_set()
    }

    /// How many steps were sent so far: where the next one will stand.
    pub(super) fn sent(&self) -> usize {
        self.done.len()
    }

    /// The step that stands at `at` ([`Steps::sent`] before it was sent), if it was sent.
    pub(super) fn step_at(&self, at: usize) -> Option<&Step> {
        self.done.get(at)
    }

    /// Where the last append sent stands.
    pub(super) fn last_append_at(&self) -> Option<usize> {
        (self.done.iter()).rposition(|step| matches!(step.request, Request::Append { .. }))
    }

    /// Sends `request`; its reply if it succeeded.
    pub(super) async fn run(&mut self, request: Request) -> Option<Reply> {
        self.ask(request).await.ok()
    }

    /// Sends `request` and records the step; what came of it. Once the stop is set nothing is
    /// sent, and the answer is the interruption.
    pub(super) async fn ask(&mut self, request: Request) -> Result<Reply, Failure> {
        self.send(request, None, false).await
    }

    /// Sends `request` as [`Steps::run`] does; a save that succeeds is read back (see
    /// [`save_step`]).
    pub(super) async fn save_or_run(&mut self, request: Request) -> Option<Reply> {
        let read_back = request.operation().is_save();
        self.send(request, None, read_back).await.ok()
    }

    /// Sends `request` with `bytes` as its body, and records the step; as [`Steps::ask`].
    pub(super) async fn write(&mut self, request: Request, bytes: &[u8]) -> Result<Reply, Failure> {
        self.send(request, Some(bytes), false).await
    }

    /// The one way a procedure's request goes out: not at all once the stop is set (noted as
    /// held back), and a save counted in the stop while it is in flight.
    async fn send(
        &mut self,
        request: Request,
        body: Option<&[u8]>,
        read_back: bool,
    ) -> Result<Reply, Failure> {
        if self.stop.is_set() {
            self.held_back = true;
            return Err(Failure::new(Class::Interrupted, "interrupted"));
        }
        let saving = request.operation().is_save();
        if saving {
            self.stop.saving.set(self.stop.saving.get() + 1);
        }
        let step = match read_back {
            true => save_step(self.launcher, request, self.verbose).await,
            false => step_with(self.launcher, request, body, self.verbose).await,
        };
        if saving {
            self.stop.saving.set(self.stop.saving.get() - 1);
        }
        let result = step.result.clone();
        let refused = step.refused_handle.zip(request.operation().row().makes);
        self.record(step);
        if let Some((handle, kind)) = refused {
            // Made by the launcher, named in an answer nothing else of which is used: given
            // back now, as a lease is (named as left when that fails).
            let lease = Lease {
                handle,
                release: kind.free(handle),
            };
            self.leases.push(lease);
            self.stop.hold(lease);
            let _ = self.give_back_at(self.leases.len() - 1).await;
        }
        result
    }

    /// Sends `request`, which answers with a handle for this procedure's own use, and holds
    /// that handle until it is given back with `release(handle)`.
    pub(super) async fn lease(
        &mut self,
        request: Request,
        release: fn(Handle) -> Request,
    ) -> Result<(Handle, Reply), Failure> {
        debug_assert_eq!(
            release(Handle(0)).operation().row().frees,
            request.operation().row().makes,
            "{request:?} is given back by a request for another kind"
        );
        let (handle, reply) = self.obtain(request).await?;
        let lease = Lease {
            handle,
            release: release(handle),
        };
        self.leases.push(lease);
        self.stop.hold(lease);
        Ok((handle, reply))
    }

    /// Sends `request`, which answers with the handle the procedure is for (`create`'s, or the
    /// fetch of `open` and `reopen`): the person's, not a lease, but held in the stop as a
    /// lease is while the procedure runs, so that a run that leaves at once names it. The
    /// procedure settles it at its end ([`Steps::settle_made`]).
    pub(super) async fn make(&mut self, request: Request) -> Result<(Handle, Reply), Failure> {
        let (handle, reply) = self.obtain(request).await?;
        let kind = request.operation().row().makes;
        let lease = Lease {
            handle,
            release: kind.unwrap_or(HandleKind::AppendableData).free(handle),
        };
        self.stop.hold(lease);
        self.made = Some(lease);
        Ok((handle, reply))
    }

    /// At the end of a procedure that made a handle for the person ([`Steps::make`]): when the
    /// stop kept one of its requests from being sent, what was asked was not done, and the
    /// handle is given back like a lease; otherwise (every request went out, whatever came of
    /// them) it is the person's, and when the run was stopped all the same it is named with
    /// what the run leaves in the launcher (a run that exits 130 hands nothing to a script).
    pub(super) async fn settle_made(&mut self) -> Settled {
        let Some(lease) = self.made.take() else {
            return Settled::Yours;
        };
        if self.held_back {
            self.leases.push(lease);
            return match self.give_back_by(lease.release).await {
                Ok(()) => Settled::GivenBack,
                Err(_) => Settled::NotGivenBack,
            };
        }
        self.stop.let_go(&lease);
        if self.stop.is_set() {
            self.stop.leave(Left::Known(lease));
        }
        Settled::Yours
    }

    /// Sends a request that makes a handle: named in the stop while it is in flight, and when
    /// its answer was lost or cannot be read, named as a handle it may have made. The handle
    /// and the reply, when it came.
    async fn obtain(&mut self, request: Request) -> Result<(Handle, Reply), Failure> {
        debug_assert!(
            request.operation().row().makes.is_some(),
            "{request:?} makes no handle"
        );
        let sent_before = self.done.len();
        let in_flight = self.stop.sending(request);
        let reply = self.ask(request).await;
        self.stop.answered(in_flight);
        let sent = self.done.get(sent_before);
        let lost = sent.is_some_and(|step| step.answer_lost);
        // A handle the refused answer named was given back (`Steps::send`), or is named as
        // left: not a handle "it may have made".
        let named = sent.is_some_and(|step| step.refused_handle.is_some());
        let came_2xx = sent
            .and_then(|step| step.status)
            .is_some_and(|status| (200..300).contains(&status));
        let reply = match reply {
            Ok(reply) => reply,
            Err(failure) => {
                // The launcher may have made the handle and lost the answer on its way, or
                // made it and said so in a body that cannot be read.
                if lost {
                    self.stop.leave(Left::Unknown(request, Unread::Lost));
                } else if came_2xx && !named {
                    self.stop.leave(Left::Unknown(request, Unread::Garbled));
                }
                return Err(failure);
            }
        };
        let Some(handle) = handle_in(&reply) else {
            self.stop.leave(Left::Unknown(request, Unread::Garbled));
            return Err(Failure::new(
                Class::Unexpected,
                "the answer holds no handle",
            ));
        };
        Ok((handle, reply))
    }

    /// Gives one lease back now, stopped or not; the launcher's answer to that.
    pub(super) async fn give_back(&mut self, handle: Handle) -> Result<(), Failure> {
        let Some(at) = self.leases.iter().rposition(|lease| lease.handle == handle) else {
            return Ok(());
        };
        self.give_back_at(at).await
    }

    /// [`Steps::give_back`], by the request that frees the lease: handles of two kinds (a data
    /// id and a name's fresh copy) may have the same number.
    pub(super) async fn give_back_by(&mut self, release: Request) -> Result<(), Failure> {
        let Some(at) = self
            .leases
            .iter()
            .rposition(|lease| lease.release == release)
        else {
            return Ok(());
        };
        self.give_back_at(at).await
    }

    async fn give_back_at(&mut self, at: usize) -> Result<(), Failure> {
        let lease = self.leases.remove(at);
        let step = step(self.launcher, lease.release, self.verbose).await;
        self.stop.let_go(&lease);
        // A launcher that refuses the drop holds no such handle; any other failure (no answer,
        // a cut one, a 5xx) may have left it there.
        if matches!(&step.result, Err(failure) if failure.class != Class::Rejected) {
            self.stop.leave(Left::Known(lease));
        }
        let result = step.result.clone().map(drop);
        self.record(step);
        result
    }

    /// Gives back every lease still held, the newest first; the first failure to.
    pub(super) async fn give_back_all(&mut self) -> Result<(), Failure> {
        let mut first = Ok(());
        while let Some(lease) = self.leases.last().copied() {
            let result = self.give_back_by(lease.release).await;
            if first.is_ok() {
                first = result;
            }
        }
        first
    }

    /// The steps done so far, leases still held: for a look before [`Steps::finish`].
    pub(super) fn so_far(&self) -> &[Step] {
        &self.done
    }

    /// The steps, once every lease is given back: the one way out of a procedure (one that
    /// made a handle settles it first: [`Steps::settle_made`]).
    pub(super) async fn finish(mut self) -> Vec<Step> {
        debug_assert!(self.made.is_none(), "the handle made was not settled");
        let _ = self.give_back_all().await;
        self.done
    }
}

async fn step(launcher: &Launcher, request: Request, verbose: bool) -> Step {
    step_with(launcher, request, None, verbose).await
}

/// A save (`request`), and when it succeeded the read of the same handle's metadata that says
/// which version it saved: a GET, safe to send again, that changes nothing. What came of the
/// read is kept in the save's step ([`Step::read_back`]); the save's own result stands.
async fn save_step(launcher: &Launcher, request: Request, verbose: bool) -> Step {
    let mut saved = step(launcher, request, verbose).await;
    if let (Ok(_), Request::OnHandle(operation, handle)) = (&saved.result, request) {
        if operation.is_save() {
            let read = step(
                launcher,
                Request::OnHandle(Operation::Metadata, handle),
                verbose,
            )
            .await;
            saved.read_back = Some(Box::new(read));
        }
    }
    saved
}

/// A step whose request carries raw bytes (`body`), or none.
async fn step_with(
    launcher: &Launcher,
    request: Request,
    body: Option<&[u8]>,
    verbose: bool,
) -> Step {
    let started = Instant::now();
    let sent = match body {
        Some(bytes) => launcher.send_bytes(&request, bytes).await,
        None => launcher.send(&request).await,
    };
    let elapsed = started.elapsed();
    let (status, result) = match &sent {
        Ok(answer) => (Some(answer.status), outcome::judge(&request, answer)),
        Err(no_answer) => (
            None,
            Err(outcome::judge_no_answer(
                no_answer,
                Some(request.operation()),
                launcher.base(),
            )),
        ),
    };
    let answer_lost = matches!(&sent, Err(no_answer) if no_answer.may_have_arrived());
    // A 2xx answer refused (a list longer than the network holds, a value none of the
    // launcher's) that names the handle it made: that handle is the launcher's to free.
    let refused_handle = match (&sent, &result) {
        (Ok(answer), Err(_))
            if (200..300).contains(&answer.status) && request.operation().makes_handle() =>
        {
            HandleReply::parse(&answer.body)
                .ok()
                .map(|reply| Handle(reply.handle_id))
        }
        _ => None,
    };
    Step {
        request,
        status,
        elapsed,
        result,
        exchange: verbose.then_some(sent),
        answer_lost,
        read_back: None,
        refused_handle,
    }
}
