//! The `filter` commands: who may append to appendable data. `show` reads its filter, `add` and
//! `remove` change its keys, `type` its type. Given a name, each works on a fresh copy of the
//! network's data, and a change is saved with a post; given a handle, on the launcher's copy
//! until a save (`--save`), as the clears do.
//!
//! Every KEY is checked before anything is sent. `batch::filter` reads the filter and sends
//! only what changes it, holding each sign-key handle as a lease; `report` says it.

use crate::args::{parse_keys, parse_target};
use crate::batch::filter::{self, Edit, KeyGiven};
use crate::batch::show::user_key;
use crate::batch::{self, Stop};
use crate::cli::{
    FilterCommand, FilterKeysCommand, FilterKind, FilterShowCommand, FilterTypeCommand, SaveWith,
    SAVE_PUT_BY_NAME,
};
use crate::handle::{Handle, Target};
use crate::launcher::{FilterType, Operation, Request, Slot};
use crate::outcome::{Class, Done, Failure};
use crate::settings::StdinUse;
use crate::wire::SignKey;

use super::{accounted, leased, Context, Next};

/// Runs one `filter` subcommand.
pub fn run<'a>(command: &'a FilterCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    match command {
        FilterCommand::Show(command) => show(command, cx),
        FilterCommand::Add(command) => edit(Edit::Add, command, cx),
        FilterCommand::Remove(command) => edit(Edit::Remove, command, cx),
        FilterCommand::Type(command) => set_type(command, cx),
    }
}

/// The save a change is followed by: `--save` for a handle; a post for a name, whose change is
/// the network's only once saved (`--save put` is refused with a name: the data is on the
/// network).
fn save_of(
    command: &str,
    target: Target,
    save: Option<SaveWith>,
) -> Result<Option<Operation>, Failure> {
    let save = save.map(|save| match save {
        SaveWith::Post => Operation::Post,
        SaveWith::Put => Operation::Put,
    });
    match (target, save) {
        (Target::Handle(_), save) => Ok(save),
        (Target::Name(_), Some(Operation::Put)) => Err(Failure::usage(format!(
            "{command} --save put is refused with a data's name: '{target}'"
        ))
        .with_hint(format!("{}; nothing was sent", SAVE_PUT_BY_NAME.why))),
        (Target::Name(_), _) => Ok(Some(Operation::Post)),
    }
}

/// A plan on `target`'s handle, or on a fresh copy of the data it names.
fn on_target(
    target: Target,
    plan_on: impl FnOnce(Handle) -> Vec<Request<Slot>>,
) -> Vec<Request<Slot>> {
    match target {
        Target::Handle(handle) => plan_on(handle),
        Target::Name(name) => batch::on_a_copy_of(name, plan_on),
    }
}

/// `filter show HANDLE`: your key, then the filter, read and given back.
fn show<'a>(command: &'a FilterShowCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    const NAME: &str = "filter show";
    let reporter = cx.reporter;
    let target = parse_target(&command.handle, NAME)?;
    let settings = super::resolve(cx, StdinUse::Free)?;
    let launcher = super::launcher(&settings, cx)?;
    settings.token()?;
    Ok(Next::sends(async move {
        reporter.result_for(NAME, Some(&target.to_string()));
        let stop = Stop::new(settings.interrupt_wait);
        let sending = super::sending(&settings, &launcher, &stop, cx.ledger());
        // Your own key first, to write `you` for it: the filter stands without it.
        let (you, steps) = leased(user_key(sending), &stop, &launcher, reporter).await?;
        reporter.exchanges(&launcher, &steps);
        let mut first_failure = None;
        if let Err(failure) = &you {
            reporter.show_failed(&format!("{NAME} {target}"), "your own sign key", failure);
            first_failure = Some(failure.class);
        }
        let you = you.ok();
        let read = async |handle| {
            let shown = filter::read(sending, handle).await;
            // A filter cut short by a stop signal is not shown: half of it would mislead.
            if stop.is_set() {
                return Ok(Done::Failed(Class::Interrupted));
            }
            reporter.filter_shown(&launcher, &shown, you.as_deref());
            let failed = shown.failures().next().map(|failure| failure.class);
            Ok(Done::from_first_failure(first_failure.or(failed)))
        };
        let done = match target {
            Target::Handle(handle) => leased(read(handle), &stop, &launcher, reporter).await?,
            Target::Name(name) => {
                let work = super::on_copy(sending, reporter, NAME, name, read);
                return super::finish_on_copy(work, &stop, &launcher, reporter).await;
            }
        };
        Ok(accounted(done?, &stop, &launcher, reporter))
    }))
}

/// `filter add|remove [--save OPERATION] [--signer-of INDEX]... HANDLE [KEY]...`.
fn edit<'a>(
    edit: Edit,
    command: &'a FilterKeysCommand,
    cx: Context<'a>,
) -> Result<Next<'a>, Failure> {
    let name = match edit {
        Edit::Add => "filter add",
        Edit::Remove => "filter remove",
    };
    let reporter = cx.reporter;
    let target = parse_target(&command.handle, name)?;
    let given = parse_keys(&command.keys, &command.signer_of, edit, target)?;
    let save = save_of(name, target, command.save)?;
    let settings = super::resolve(cx, StdinUse::Free)?;
    let launcher = super::launcher(&settings, cx)?;
    let known: Vec<SignKey> = given.iter().filter_map(KeyGiven::bytes).collect();
    if settings.curl && known.len() < given.len() {
        // A curl script cannot read and decide: which key a fingerprint or a signer is, is
        // known only from a read of the data.
        return Err(Failure::usage(format!(
            "--curl cannot find a key by its fingerprint or as an item's signer: its lines would need the key's bytes, which only a read of {target} finds"
        ))
        .with_hint(format!(
            "give the keys themselves (32 bytes, base64 or hex: `safe-ad filter show {target}` prints each key of the filter), or use --dry-run to see the requests; nothing was sent"
        )));
    }
    if settings.dry_run || settings.curl {
        reporter.filter_edit_plan_note(edit, &target.to_string(), &given, settings.curl);
        let plan = on_target(target, |handle| {
            let mut plan = filter::read_plan(handle);
            plan.extend(filter::edit_plan(handle, edit, &known));
            plan.extend(filter::save_plan(handle, save));
            plan
        });
        return Ok(super::described(&settings, &launcher, reporter, &plan));
    }
    settings.token()?;
    Ok(Next::sends(async move {
        let work = async |sending: batch::Sending<'_>, handle| {
            filter::edit(sending, handle, edit, &given, save).await
        };
        let said = |edited: &filter::Edited| {
            reporter.filter_edited(&launcher, edited);
            Done::from_first_failure(edited.failed())
        };
        super::change_on_target(name, target, cx.means(&settings, &launcher), work, said).await
    }))
}

/// `filter type [--save OPERATION] HANDLE white-list|black-list`.
fn set_type<'a>(command: &'a FilterTypeCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    const NAME: &str = "filter type";
    let reporter = cx.reporter;
    let target = parse_target(&command.handle, NAME)?;
    let save = save_of(NAME, target, command.save)?;
    let wanted = match command.kind {
        FilterKind::WhiteList => FilterType::WhiteList,
        FilterKind::BlackList => FilterType::BlackList,
    };
    let settings = super::resolve(cx, StdinUse::Free)?;
    let launcher = super::launcher(&settings, cx)?;
    if settings.dry_run || settings.curl {
        reporter.filter_type_plan_note(&target.to_string(), wanted);
        let plan = on_target(target, |handle| filter::type_plan(handle, save));
        return Ok(super::described(&settings, &launcher, reporter, &plan));
    }
    settings.token()?;
    Ok(Next::sends(async move {
        let work = async |sending: batch::Sending<'_>, handle| {
            filter::set_type(sending, handle, wanted, save).await
        };
        let said = |typed: &filter::Typed| {
            reporter.filter_typed(&launcher, typed);
            super::done_of(&typed.steps)
        };
        super::change_on_target(NAME, target, cx.means(&settings, &launcher), work, said).await
    }))
}
