//! `safe-ad capture NAME... [-o FILE]`: the named appendable data, read from any launcher as a
//! client reads it, written as a fixture for the emulator's `--import`.
//!
//! Each name (and each public appendable data an item points at, `batch::capture` says which)
//! is read on a fresh copy taken for it and given back (`on_copy`), as `show --full` reads a
//! handle; your own key is read first, so the items you signed stay yours in the emulator. The
//! whole run holds its launcher handles as leases (`leased`): Ctrl-C, SIGTERM or SIGHUP stops
//! it, gives them back and writes nothing. What was left out is summed up on stderr by reason
//! (each said as it is found under `--verbose`) and listed in the fixture; the exit code is the first failed read's (the fixture is still
//! written, its record saying what is missing), else 0. FILE is checked before anything is sent
//! and replaced whole, as `emulator export` replaces its FILE.

use crate::args::parse_name;
use crate::batch::capture::{self as plan, Capture};
use crate::batch::{Stop, Tally};
use crate::cli::CaptureCommand;
use crate::outcome::{Class, Done, Failure};
use crate::report::capture_fixture;
use crate::settings::StdinUse;

use super::{accounted, leased, on_copy, replaceable_file, write_whole, Context, Next};

const COMMAND: &str = "capture";

pub fn run<'a>(command: &'a CaptureCommand, cx: Context<'a>) -> Result<Next<'a>, Failure> {
    let reporter = cx.reporter;
    let names = (command.names.iter())
        .map(|raw| parse_name(raw, COMMAND))
        .collect::<Result<Vec<_>, _>>()?;
    let file = (command.output.as_deref())
        .filter(|path| path.as_os_str() != "-")
        .map(|path| {
            replaceable_file(
                path,
                COMMAND,
                "safe-ad capture NAME -o \"$(readlink -f FILE)\"",
            )
        })
        .transpose()?;
    let settings = super::resolve(cx, StdinUse::Free)?;
    let launcher = super::launcher(&settings, cx)?;
    if settings.dry_run {
        let describe = super::describer(&settings, &launcher, reporter);
        for chain in plan::plan(&names) {
            describe(&chain);
        }
        reporter.capture_plan_note();
        return Ok(Next::Done(Done::Success));
    }
    settings.token()?;
    Ok(Next::sends(async move {
        let stop = Stop::new(settings.interrupt_wait);
        let sending = super::sending(&settings, &launcher, &stop, cx.ledger());
        let mut tally = Tally::default();
        let work = async {
            let you = super::your_key(sending, reporter, COMMAND, &mut tally.first_failure).await;
            let you = you?.ok();
            let mut capture = Capture::new(&names);
            while let Some((name, depth)) = capture.next() {
                let said = capture.left_out.len();
                let read = on_copy(sending, reporter, COMMAND, name, async |copy| {
                    plan::read(sending, copy).await
                })
                .await;
                if stop.is_set() {
                    return None;
                }
                match read.done {
                    Some(shown) => {
                        reporter.capture_exchanges(&launcher, &shown);
                        capture.add(name, depth, shown, you.as_deref());
                    }
                    None => capture.not_taken(name),
                }
                if let Some(class) = read.failed {
                    tally.first_failure.get_or_insert(class);
                }
                // Each said as it is found under --verbose; else summed up at the end.
                if settings.verbose {
                    for left in &capture.left_out[said..] {
                        reporter.capture_left_out(left);
                    }
                }
            }
            Some(capture)
        };
        let Some(capture) = leased(work, &stop, &launcher, reporter).await? else {
            return Err(super::interrupted(&stop, false, &launcher, reporter));
        };
        if let Some(failure) = capture.first_failure() {
            tally.first_failure.get_or_insert(failure.class);
        }
        if !settings.verbose {
            reporter.capture_left_out_summary(&capture.left_out);
        }
        // Nothing read at all (the launcher down, the token refused, no name on the network):
        // a fixture of nothing would replace a good one, so FILE is left as it was.
        if let (Some(path), true) = (&file, capture.appendable.is_empty()) {
            reporter.capture_not_written(path);
            let done = Done::from_first_failure(tally.first_failure.or(Some(Class::Rejected)));
            return Ok(accounted(done, &stop, &launcher, reporter));
        }
        let text = capture_fixture(&capture);
        if let Some(path) = &file {
            write_whole(path, text.as_bytes(), COMMAND)?;
        }
        reporter.captured(&text, &capture, file.as_deref());
        let done = Done::from_first_failure(tally.first_failure);
        Ok(accounted(done, &stop, &launcher, reporter))
    }))
}
