//! The one-item changes, beside the clears they mirror: `remove`, `restore` and `purge` change
//! the items at some indexes of one handle (local until saved, with `--save` as the clears), and
//! `append` adds one item on the network.
//!
//! Every argument is checked before anything is sent. Indexes run one at a time, the highest
//! first (see `batch::at_indexes`); the rules of a batch hold for them: a failure does not
//! stop the rest unless `--fail-fast`, and the exit code is that of the first that failed.
//!
//! Given a name, a change whose save another save beat (-25: nothing changed) is chosen and made
//! again on a fresh copy when its items are chosen by what they are alone, and said with words
//! that the indexes may now name other items when they were given (`copies::WhenBeaten`).

use std::cell::Cell;

use crate::args::{parse_indexes, parse_name, parse_selector, parse_target, parse_type_tag};
use crate::batch::restore::ToRestore;
use crate::batch::select;
use crate::batch::show::Parts;
use crate::batch::{self, immutable, AppendItem, AtIndexesPlan, Checked, Stop};
use crate::cli::{AppendCommand, EncryptWith, ItemCommand, SaveWith, SAVE_PUT_BY_NAME};
use crate::handle::{Handle, Target};
use crate::input;
use crate::launcher::{Encryption, Launcher, Operation, Request};
use crate::outcome::{Class, Done, Failure, Reply};
use crate::report::Reporter;
use crate::runtime::interruptible;
use crate::settings::StdinUse;

use super::copies::WhenBeaten;
use super::{purge_note_if_unsaved, removals_read, unleased, Context, Means, Next};

/// `remove`, `restore` or `purge` (`operation`) at the indexes given, or at those of the items
/// the selectors choose. Every index is checked (against the list's length, or by the one read
/// that resolves the selectors) before the first change. A dry run sends nothing; it lists the
/// read that checks the indexes with the rest (`batch::AtIndexesPlan`), and says what the
/// selectors' read does instead. The saves follow `saving`'s table: a purge with `--save post`
/// is saved first as well (`batch::saved_first`), a restore with `--save post` appends the items
/// again after the save (`batch::restore`), an item another key signed only with `re_sign`
/// (`restore --re-sign`: it comes back signed by you), which acts only there.
pub fn at_indexes<'a>(
    operation: Operation,
    command: &'a ItemCommand,
    re_sign: bool,
    cx: Context<'a>,
) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let name = operation.name();
    let target = parse_target(&command.handle, name)?;
    // As the person gave it (a handle, or a name), for the words.
    let handle = target;
    let indexes = parse_indexes(&command.indexes, name, target)?;
    let selector = parse_selector(&command.selector, name)?;
    let settings = super::resolve(cx, StdinUse::Free)?;
    let launcher = super::launcher(&settings, cx)?;
    let save = command.save.map(|save| match save {
        SaveWith::Post => Operation::Post,
        SaveWith::Put => Operation::Put,
    });
    // A name's change is made to a fresh copy and saved, so that the network holds what the
    // words say; the data is on the network, so the save is a post.
    let save = match (target, save) {
        (Target::Handle(_), save) => save,
        (Target::Name(_), Some(Operation::Put)) => {
            return Err(Failure::usage(format!(
                "{name} --save put is refused with a data's name: '{target}'"
            ))
            .with_hint(format!("{}; nothing was sent", SAVE_PUT_BY_NAME.why)))
        }
        (Target::Name(_), _) => Some(Operation::Post),
    };
    let appends_again = appends_again(operation, save);
    if re_sign && !appends_again {
        return Err(reporter.re_sign_not_acting(&target.to_string()));
    }
    if appends_again && indexes.len() > batch::MOST_LEASES_OF_A_KIND {
        let given = format!("{} indexes were given", indexes.len());
        return Err(too_many_to_restore(handle, &given, "nothing was sent"));
    }
    if settings.curl && (selector.is_given() || appends_again) {
        // A curl script cannot read and decide: its lines would change the items at the
        // positions given, not those the selectors name, and could not tell which restored
        // items the save leaves in neither list.
        let (why, instead) = match selector.is_given() {
            true => (
                format!("--curl cannot choose items by what they are: its lines would send `{name}` at fixed positions, not at the items the selectors match"),
                format!("see the items the selectors match with `safe-ad show {handle}` and the same selectors, then give their indexes to `{name} --curl`; nothing was sent"),
            ),
            false => (
                "--curl cannot carry `restore --save post`: which restored items it appends again after the save is decided by a read of the network".to_string(),
                "use --dry-run to see the requests, or `restore --curl` without --save; nothing was sent".to_string(),
            ),
        };
        return Err(Failure::usage(why).with_hint(instead));
    }
    if settings.dry_run || settings.curl {
        // A dry run sends nothing, not even a read: with selectors, which items match is only
        // known from a read of the handle, so it is said rather than guessed.
        if selector.is_given() {
            reporter.note(&format!(
                "--dry-run sends nothing, so which items match is not known here: {name} {handle} \
                 first reads the handle, then sends `{name}` for each matching item, highest index \
                 first; `safe-ad show {handle}` with the same selectors lists the items they match now"
            ));
        }
        let plan_on = |handle| match appends_again {
            true => {
                reporter.restore_plan_note(&target.to_string(), re_sign);
                let every: Vec<ToRestore> = (indexes.iter())
                    .map(|&index| ToRestore {
                        index,
                        append: true,
                    })
                    .collect();
                batch::restore::plan(handle, &every)
            }
            false => {
                let checked = match selector.is_given() {
                    true => Checked::ByChoice,
                    false => Checked::ByPlan,
                };
                let copy = copy_of(target);
                let plan = AtIndexesPlan::on(copy, operation, handle, &indexes, save, checked);
                if plan.first_save().is_some() {
                    reporter.purge_plan_note(handle, settings.curl);
                }
                plan.requests().to_vec()
            }
        };
        let plan = match target {
            Target::Handle(handle) => plan_on(handle),
            Target::Name(name) => batch::on_a_copy_of(name, plan_on),
        };
        return Ok(super::described(&settings, &launcher, reporter, &plan));
    }
    settings.token()?;
    Ok(Next::sends(async move {
        reporter.result_for(name, Some(&target.to_string()));
        let (settings, launcher) = (&settings, &launcher);
        let means = cx.means(settings, launcher);
        // Items chosen by what they are alone are chosen again on a fresh copy when another
        // save beat this run's; positions may name other items on it.
        let by_what = selector.is_given() && indexes.is_empty();
        let given = |handle, stop, when_beaten| Given {
            handle,
            target,
            indexes: indexes.clone(),
            selector: selector.clone(),
            require_match: command.require_match,
            re_sign,
            stop,
            when_beaten,
        };
        let data = match target {
            Target::Handle(handle) => {
                let given = given(handle, None, WhenBeaten::Said);
                return change_at_indexes(operation, given, save, means).await;
            }
            Target::Name(data) => data,
        };
        let stop = Stop::new(settings.interrupt_wait);
        let sending = means.sending(&stop);
        let (again, mut made_again) = (Cell::new(false), 0);
        loop {
            again.set(false);
            let when_beaten = match by_what {
                true if made_again < batch::MADE_AGAIN_AT_MOST => WhenBeaten::TryAgain(&again),
                true => WhenBeaten::Said,
                false => WhenBeaten::IndexesMoved,
            };
            let change = async |copy| {
                let given = given(copy, Some(&stop), when_beaten);
                change_at_indexes(operation, given, save, means).await
            };
            // The change runs phases with stop-signal watches of their own (the read that
            // chooses, the changes, the saves): one more around them would say a stop twice
            // and drop what they name. The copy is given back after them, stopped or not.
            let on = super::on_copy_phased(sending, reporter, name, data, change).await?;
            if again.get() {
                // The try changed nothing: a stop, or a copy not given back, ends the run
                // there, which says so; else a fresh copy, after a little while at random so
                // that runs that collided do not collide again in step.
                if on.stopped.is_none() && on.failed.is_none() && !stop.is_set() {
                    made_again += 1;
                    batch::until_stopped(
                        tokio::time::sleep(batch::a_little_while()),
                        &stop,
                        || reporter.stopping(stop.wait()),
                    )
                    .await;
                    if !stop.is_set() {
                        continue;
                    }
                    reporter.name_change_not_saved(operation, &data);
                    return Err(super::interrupted(&stop, false, launcher, reporter));
                }
                reporter.name_change_not_saved(operation, &data);
            }
            reporter.made_again(operation, &data, made_again);
            return super::settle_on_copy(on, &stop, launcher, reporter);
        }
    }))
}

/// A failure the index check words with the handle it read, said of the name when that handle
/// is a name's fresh copy (given back by the time the person reads it).
fn of_the_name(failure: Failure, operation: Operation, handle: Handle, target: Target) -> Failure {
    let Target::Name(name) = target else {
        return failure;
    };
    let op = operation.name();
    let said = |text: &str| {
        text.replace(&format!("{op} {handle}:"), &format!("{op} {name}:"))
            .replace(&format!("(handle {handle} has"), &format!("({name} has"))
            .replace(
                &format!("`safe-ad show {handle}`"),
                &format!("`safe-ad show {name}`"),
            )
    };
    let mut named = Failure::new(failure.class, said(&failure.message));
    named.hint = match failure.hint {
        Some(crate::outcome::Hint::Said(words)) => Some(crate::outcome::Hint::Said(said(&words))),
        hint => hint,
    };
    named
}

/// What the copy a change is made to is: a name's is taken fresh for the run.
fn copy_of(target: Target) -> batch::CopyIs {
    match target {
        Target::Handle(_) => batch::CopyIs::Held,
        Target::Name(_) => batch::CopyIs::Fresh,
    }
}

/// The items of an item command, as its arguments name them (what the read then chooses is a
/// `select::Chosen`).
struct Given<'s> {
    /// The handle the changes are sent to: the one given, or a name's fresh copy.
    handle: Handle,
    /// The handle or name as the person gave it, for the words.
    target: Target,
    indexes: Vec<u64>,
    selector: select::Selector,
    require_match: bool,
    /// `restore --re-sign`: an item another key signed may come back signed by you.
    re_sign: bool,
    /// The stop signal of the run around the change (a name's, which holds its copy): the
    /// phases that watch for stop signals share it, so that a stop is said and accounted once.
    stop: Option<&'s Stop>,
    /// What the change does when another save beat its own.
    when_beaten: WhenBeaten<'s>,
}

/// A restore saved with a post: the save leaves the restored items in neither list, so they are
/// appended again after it (`batch::restore`).
fn appends_again(operation: Operation, save: Option<Operation>) -> bool {
    operation == Operation::Restore && save == Some(Operation::Post)
}

/// `at_indexes` once everything is checked: the read that resolves the selectors (or checks the
/// indexes), the changes, the save.
async fn change_at_indexes(
    operation: Operation,
    given: Given<'_>,
    save: Option<Operation>,
    means: Means<'_>,
) -> Result<Done, Failure> {
    let (settings, launcher, reporter) = (means.settings, means.launcher, means.reporter);
    let Given {
        handle,
        target,
        indexes,
        selector,
        require_match,
        re_sign,
        stop: outer,
        when_beaten,
    } = given;
    let appends_again = appends_again(operation, save);
    if !selector.is_given() && !appends_again {
        // The indexes given: the plan's first request reads the metadata that checks them.
        let copy = copy_of(target);
        let plan = AtIndexesPlan::on(copy, operation, handle, &indexes, save, Checked::ByPlan);
        let stop = Stop::default();
        let work = select::check_indexes(means.sending(&stop), &plan);
        let (checked, steps) = interruptible(work).await?;
        reporter.exchanges(launcher, &steps);
        let held = copy_at_save(operation, handle, &steps, indexes.len());
        if let (Err(failure), Operation::Remove, Target::Handle(_)) = (&checked, operation, target)
        {
            // An index past a copy that holds no data items, where the network holds them.
            let saved = steps
                .iter()
                .any(|step| match (&step.request, &step.result) {
                    (
                        Request::OnHandle(Operation::Metadata, read),
                        Ok(Reply::Metadata(metadata)),
                    ) => *read == handle && metadata.version > 0,
                    _ => false,
                });
            let copy = copy_at_save(operation, handle, &steps, 0);
            if failure.class == Class::Rejected && copy == Some(0) && saved {
                let network =
                    super::network_behind(handle, Parts::NONE, settings, launcher, reporter)
                        .await?;
                let held = network
                    .and_then(|shown| shown.metadata.ok())
                    .map_or(0, |metadata| metadata.data_length);
                let taken: Vec<u64> = (indexes.iter().copied())
                    .filter(|index| *index < held)
                    .collect();
                if !taken.is_empty() {
                    return Err(super::emptied_copy(operation.name(), handle, held, &taken));
                }
            }
        }
        checked.map_err(|failure| of_the_name(failure, operation, handle, target))?;
        let told = Told {
            target,
            held,
            when_beaten,
        };
        return change(&plan, told, means).await;
    }
    let own = Stop::new(settings.interrupt_wait);
    let stop = outer.unwrap_or(&own);
    let work = select::choose(
        means.sending(stop),
        handle,
        operation,
        &selector,
        &indexes,
        appends_again,
    );
    let (chosen, steps) =
        super::restore::phase(work, stop, outer.is_some(), launcher, reporter).await?;
    reporter.exchanges(launcher, &steps);
    let chosen = chosen?;
    let held = copy_at_save(operation, handle, &steps, chosen.items.len());
    // Another's data, read so: its owner's key alone saves it, so a -25 is not another save
    // that came first, and the change is not made again.
    let when_beaten = match when_beaten {
        WhenBeaten::TryAgain(_) if batch::read_as_anothers(&steps) => WhenBeaten::Said,
        when_beaten => when_beaten,
    };
    if selector.is_given() {
        reporter.chosen(operation, handle, &chosen.items, chosen.you.as_deref());
    }
    if chosen.items.is_empty() {
        // A copy a post emptied holds none of the network's data items: what the selectors
        // would take there is read before a no-match is said (a name's copy is the network's).
        if operation == Operation::Remove
            && chosen.emptied_by_post
            && target == Target::Handle(handle)
        {
            let parts = Parts {
                filter: false,
                data: true,
                deleted: false,
                content: false,
                signers: selector.signed_by.is_some(),
            };
            let network =
                super::network_behind(handle, parts, settings, launcher, reporter).await?;
            if let Some(shown) = network {
                let you = chosen.you.as_deref();
                let taken: Vec<u64> = (shown.data.iter())
                    .filter(|item| selector.matches(item, you))
                    .map(|item| item.index)
                    .collect();
                if !taken.is_empty() {
                    let held = shown
                        .metadata
                        .as_ref()
                        .map_or(0, |metadata| metadata.data_length);
                    return Err(super::emptied_copy(operation.name(), handle, held, &taken));
                }
            }
        }
        return nothing_matched(operation, target, &chosen, require_match, reporter);
    }
    if appends_again {
        if chosen.items.len() > batch::MOST_LEASES_OF_A_KIND {
            let chose = format!("the selectors chose {} items", chosen.items.len());
            let done = "nothing was changed (one read resolved the selectors)";
            return Err(too_many_to_restore(target, &chose, done));
        }
        let items = &chosen.items;
        let on = super::restore::On {
            handle,
            target,
            held,
            outer,
            re_sign,
            when_beaten,
        };
        return super::restore::restore_and_append(on, items, means).await;
    }
    let indexes: Vec<u64> = chosen.items.iter().map(|item| item.index).collect();
    let copy = copy_of(target);
    let plan = AtIndexesPlan::on(copy, operation, handle, &indexes, save, Checked::ByChoice);
    let told = Told {
        target,
        held,
        when_beaten,
    };
    change(&plan, told, means).await
}

/// What the words of a change need besides its plan: the handle or name as the person gave it,
/// the data items the copy will hold at the save ([`copy_at_save`]), and what a save another
/// beat comes to.
struct Told<'s> {
    target: Target,
    held: Option<u64>,
    when_beaten: WhenBeaten<'s>,
}

/// The changes of a checked plan and its saves, each step said as it is done; the purge note
/// first when a purge is not saved. `held`: the data items the copy will hold when the save is
/// sent, where the read before said ([`copy_at_save`]). On a name's fresh copy the changes are
/// the network's only once the save lands, so their lines wait for it: a run whose save did not
/// land prints no `ok` of a change on stdout, and says the network's data is as it was.
async fn change(plan: &AtIndexesPlan, told: Told<'_>, means: Means<'_>) -> Result<Done, Failure> {
    let (settings, launcher, reporter) = (means.settings, means.launcher, means.reporter);
    let Told {
        target,
        held,
        when_beaten,
    } = told;
    let (operation, handle) = (plan.operation, plan.handle);
    let save = plan.save;
    let (name, indexes) = (operation.name(), Some(plan.indexes.as_slice()));
    // Whether the network has the removals of the deleted items taken (`saving`'s table): a
    // plain post after a purge of one it has not got leaves the item data, after a restore of
    // one it has got in neither list; a purge saved with a post saves first only when one of
    // its removals is not on the network (or that cannot be told).
    let reads_removals = match (operation, save) {
        (Operation::Purge, None) => {
            purge_note_if_unsaved(name, handle, indexes, means).await?;
            false
        }
        (Operation::Purge, Some(_)) => plan.first_save().is_some(),
        (Operation::Restore, None) => true,
        _ => false,
    };
    let removals = match reads_removals {
        true => removals_read(name, handle, indexes, means).await?,
        false => None,
    };
    let lighter;
    let plan = match removals {
        Some(read) if operation == Operation::Purge && read.unsaved == 0 => {
            lighter = plan.without_first_save();
            &lighter
        }
        _ => plan,
    };
    // The changes hold no lease: Ctrl-C drops them at once, each said as it was done.
    let stop = Stop::default();
    let fresh = plan.on_a_fresh_copy();
    let each = |step: &batch::Step| {
        if !fresh {
            reporter.one_step(launcher, step, held)
        }
    };
    let sending = means.sending(&stop);
    let work = batch::at_indexes(sending, plan, settings.fail_fast, &each);
    let mut done = unleased(work)
        .await
        .inspect_err(|_| super::saves_in_flight(&stop, reporter))?;
    if when_beaten.again(&done.steps) {
        // Nothing changed on the network, and the run makes it again on a fresh copy.
        reporter.exchanges(launcher, &done.steps);
        return Ok(Done::from_first_failure(done.tally.first_failure));
    }
    when_beaten.worded(&mut done.steps);
    if fresh {
        said_once_saved(&done, target, operation, held, launcher, reporter);
    }
    reporter.index_summary(&done.tally);
    let changed = done.tally.ok > 0;
    match save {
        // A name's copy: said above, by what the network holds.
        _ if fresh => {}
        None if changed && operation == Operation::Restore => {
            reporter.restore_note(handle, removals)
        }
        None if changed => reporter.item_save_note(operation, handle, false),
        Some(_) if changed && !done.saved && done.tally.failed > 0 => {
            reporter.item_save_note(operation, handle, true)
        }
        _ => {}
    }
    Ok(Done::from_first_failure(done.tally.first_failure))
}

/// The lines of a change on a name's fresh copy, once its save ended: every step when the save
/// landed; otherwise the failures alone, and a note that the network's data is as it was (when
/// no save may have acted unseen: one whose answer was lost says so itself).
fn said_once_saved(
    done: &batch::AtIndexes,
    target: Target,
    operation: Operation,
    held: Option<u64>,
    launcher: &Launcher,
    reporter: &Reporter,
) {
    let is_change = |step: &batch::Step| matches!(step.request, Request::AtIndex(..));
    for step in &done.steps {
        if done.saved || step.result.is_err() || !is_change(step) {
            reporter.one_step(launcher, step, held);
        }
    }
    let changed = done.tally.ok > 0;
    let save_may_have_acted = (done.steps.iter()).any(|step| !is_change(step) && step.answer_lost);
    if changed && !done.saved && !save_may_have_acted {
        reporter.name_change_not_saved(operation, &target);
    }
}

/// How many data items the copy will hold when the save after the change is sent, from the
/// metadata the read before it took (no request of its own): the note after a post says what
/// the post left out of the copy only when there was something to leave out. A save runs only
/// once every change succeeded, so `changes` items will have moved. Handed to what says the
/// save as a value (`Reporter::one_step`, `Reporter::restore_steps`).
fn copy_at_save(
    operation: Operation,
    handle: Handle,
    steps: &[batch::Step],
    changes: usize,
) -> Option<u64> {
    let data = steps
        .iter()
        .find_map(|step| match (&step.request, &step.result) {
            (Request::OnHandle(Operation::Metadata, read), Ok(Reply::Metadata(metadata)))
                if *read == handle =>
            {
                Some(metadata.data_length)
            }
            _ => None,
        })?;
    let changes = changes as u64;
    Some(match operation {
        Operation::Remove => data.saturating_sub(changes),
        Operation::Restore => data + changes,
        _ => data,
    })
}

/// No item matched the selectors: a note (exit 0), or with `--require-match` exit 4. After a
/// post the launcher's copy holds no data items whatever the network holds, so a selector over
/// them matches nothing, and a fresh handle is the way on; a copy with none at a version a save
/// made may also be a fresh one of data that holds none, so the words hold either way.
fn nothing_matched(
    operation: Operation,
    handle: Target,
    chosen: &select::Chosen,
    require_match: bool,
    reporter: &Reporter,
) -> Result<Done, Failure> {
    let name = operation.name();
    // A name's copy is the network's data: nothing a post left out of it.
    let emptied = operation == Operation::Remove
        && chosen.emptied_by_post
        && matches!(handle, Target::Handle(_));
    let nothing = match emptied {
        true => format!(
            "{name} {handle}: no item matched: handle {handle}'s copy holds no data items (if a post made this copy, the network may hold items it does not show: the launcher keeps none after a post); nothing was changed"
        ),
        false => format!("{name} {handle}: no item matched; nothing was changed"),
    };
    let way_on = match emptied {
        true => format!(
            "get a handle that shows the network's items with `safe-ad reopen {handle}`, and run `{name}` on the handle it prints"
        ),
        false => format!("see what the items are with `safe-ad show {handle}`"),
    };
    if require_match {
        return Err(Failure::new(Class::Rejected, nothing).with_hint(way_on));
    }
    reporter.note(&format!("{nothing}; {way_on}"));
    Ok(Done::Success)
}

/// `restore --save post` of more items than it may hold data ids for at once: a usage error,
/// with the indexes given before anything is sent, with selectors after the read that chose
/// them (`done` says which). Each item it may append again after the save is held as a data id
/// across the save, and no command holds more than `MOST_LEASES_OF_A_KIND` of a kind: the
/// launcher keeps 100 and evicts the oldest, which would be the person's own.
fn too_many_to_restore(handle: Target, count: &str, done: &str) -> Failure {
    let most = batch::MOST_LEASES_OF_A_KIND;
    let what = match handle {
        Target::Handle(_) => "`restore --save post`",
        Target::Name(_) => "`restore` given a name (saved as `--save post` saves it)",
    };
    Failure::usage(format!(
        "restore {handle}: {what} restores at most {most} items at a time, and {count}; {done}"
    ))
    .with_hint(format!(
        "run it again with at most {most} of them, the highest indexes first so that the rest keep their numbers (`safe-ad show {handle}` numbers the deleted items)"
    ))
}

/// `append HANDLE (--structured NAME [--type-tag N] | --appendable NAME [--private])`.
pub fn append<'a>(command: &'a AppendCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    const NAME: &str = "append";
    let reporter = cx.reporter;
    let target = parse_target(&command.handle, NAME)?;
    if let Some(path) = &command.immutable {
        return append_immutable(target, path, command, cx);
    }
    let item = match (&command.structured, &command.appendable) {
        (Some(name), None) => AppendItem::Structured {
            name: parse_name(name, NAME)?,
            type_tag: match &command.type_tag {
                Some(raw) => parse_type_tag(raw)?,
                None => 500,
            },
        },
        (None, Some(name)) => AppendItem::Appendable {
            name: parse_name(name, NAME)?,
            private: command.private,
        },
        // clap's group makes this one of the two; kept as an error rather than a panic.
        _ => {
            return Err(Failure::usage(
                "give one of --structured NAME and --appendable NAME",
            ))
        }
    };
    let settings = super::resolve(cx, StdinUse::Free)?;
    let launcher = super::launcher(&settings, cx)?;
    if settings.dry_run || settings.curl {
        let plan = match target {
            Target::Handle(handle) => batch::append_plan(handle, item),
            Target::Name(name) => batch::on_a_copy_of(name, |copy| batch::append_plan(copy, item)),
        };
        return Ok(super::described(&settings, &launcher, reporter, &plan));
    }
    settings.token()?;
    Ok(Next::sends(async move {
        let work =
            async |sending: batch::Sending<'_>, handle| batch::append(sending, handle, item).await;
        let said = |ran: &_| {
            reporter.append_steps(&launcher, ran);
            super::done_of(&ran.steps)
        };
        super::change_on_target(NAME, target, cx.means(&settings, &launcher), work, said).await
    }))
}

/// `append HANDLE --immutable FILE|- [--encrypt HOW]`: the content read (and its size checked)
/// before anything is sent, then written and appended by `batch::immutable`.
fn append_immutable<'a>(
    target: Target,
    path: &std::path::Path,
    command: &AppendCommand,
    cx: Context<'a>,
) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let encryption = match command.encrypt {
        None => Encryption::Plain,
        Some(EncryptWith::Symmetric) => Encryption::Symmetric,
        Some(EncryptWith::Asymmetric) => Encryption::Asymmetric,
    };
    let reads_stdin = path.as_os_str() == "-";
    let stdin = if reads_stdin {
        StdinUse::Handles
    } else {
        StdinUse::Free
    };
    let settings = super::resolve(cx, stdin)?;
    let launcher = super::launcher(&settings, cx)?;
    if settings.curl {
        return Err(
            Failure::usage("--curl cannot carry the content of --immutable in its lines")
                .with_hint("use --dry-run to see the requests; nothing was sent"),
        );
    }
    if settings.dry_run {
        let plan = match target {
            Target::Handle(handle) => immutable::plan(handle, encryption),
            Target::Name(name) => {
                batch::on_a_copy_of(name, |copy| immutable::plan(copy, encryption))
            }
        };
        return Ok(super::described(&settings, &launcher, reporter, &plan));
    }
    settings.token()?;
    let content = input::content(path, immutable::MAX_IMMUTABLE_BYTES)?;
    Ok(Next::sends(async move {
        let work = async |sending: batch::Sending<'_>, handle| {
            immutable::append(sending, handle, &content, encryption).await
        };
        let said = |ran: &_| {
            reporter.append_steps(&launcher, ran);
            super::done_of(&ran.steps)
        };
        super::change_on_target("append", target, cx.means(&settings, &launcher), work, said).await
    }))
}
