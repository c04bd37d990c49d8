//! Where handles come from: `create` and `open` make one from a name. (`reopen` and `drop`,
//! batches over handles with the same input, `--jobs`, summary and exit codes as the
//! operations, are run by `operations`.)

use crate::args::parse_name;
use crate::batch::{self, Ran, Stop};
use crate::cli::{CreateCommand, OpenCommand};
use crate::name::Name;
use crate::outcome::{Class, Failure};
use crate::runtime::internal;
use crate::settings::StdinUse;

use super::{finish_leasing, Context, Next};

pub fn create<'a>(command: &CreateCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let name = match &command.name {
        Some(raw) => parse_name(raw, "create")?,
        None => Name::random().map_err(|e| {
            internal(anyhow::anyhow!(
                "the operating system's random number generator failed: {e}"
            ))
        })?,
    };
    let settings = super::resolve(cx, StdinUse::Free)?;
    let launcher = super::launcher(&settings, cx)?;
    let (private, white_list, put) = (command.private, command.white_list, command.put);
    if settings.dry_run || settings.curl {
        let plan = batch::create_plan(name, private, white_list, put);
        return Ok(super::described(&settings, &launcher, reporter, &plan));
    }
    settings.token()?;
    Ok(Next::sends(async move {
        reporter.result_for("create", None);
        let stop = Stop::new(settings.interrupt_wait);
        let sending = super::sending(&settings, &launcher, &stop, cx.ledger());
        let work = batch::create(sending, name, private, white_list, put);
        let report = |ran: &Ran| reporter.steps(&launcher, None, ran, "create");
        finish_leasing(&launcher, &stop, reporter, work, report)
            .await
            .inspect_err(|failure| {
                // Left at once during the save, the steps are not said: the new data's name
                // is, as the save may have put it on the network.
                if failure.class == Class::Interrupted && stop.left_a_save() {
                    reporter.created_name_unknown_save(&name);
                }
            })
    }))
}

pub fn open<'a>(command: &OpenCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let name = parse_name(&command.name, "open")?;
    let settings = super::resolve(cx, StdinUse::Free)?;
    let launcher = super::launcher(&settings, cx)?;
    if settings.dry_run || settings.curl {
        let plan = batch::open_plan(name, command.private);
        return Ok(super::described(&settings, &launcher, reporter, &plan));
    }
    settings.token()?;
    let private = command.private;
    Ok(Next::sends(async move {
        reporter.result_for("open", Some(&name.to_string()));
        let stop = Stop::new(settings.interrupt_wait);
        let work = batch::open(
            super::sending(&settings, &launcher, &stop, cx.ledger()),
            name,
            private,
        );
        let asked = format!("open {name}");
        finish_leasing(&launcher, &stop, reporter, work, |ran| {
            reporter.steps(&launcher, None, ran, &asked)
        })
        .await
    }))
}
