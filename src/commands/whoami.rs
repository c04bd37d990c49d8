//! `safe-ad auth whoami`: the fingerprint of the user's own sign key (`GET /sign-key`, its
//! serialised bytes, the sign-key handle given back), so that `show`'s signers and filter keys
//! can be matched by eye, and `--signed-by` given a key.

use crate::batch::{self, show, Ended, Stop};
use crate::outcome::{Done, Failure};
use crate::report::Reporter;
use crate::runtime::runtime;
use crate::settings::Settings;

pub fn run(settings: &Settings, reporter: &Reporter) -> Result<Done, Failure> {
    let launcher = super::launcher(settings)?;
    settings.token()?;
    let stop = Stop::default();
    let work = show::user_key(&launcher, settings.verbose, &stop);
    let (key, steps) =
        match runtime()?.block_on(batch::until_stopped(work, &stop, || reporter.stopping())) {
            Ended::Finished(done) => done,
            Ended::Interrupted(_) | Ended::Abandoned => {
                return Err(super::interrupted(&stop, &launcher, reporter))
            }
        };
    reporter.exchanges(&launcher, &steps);
    reporter.whoami(&key?);
    Ok(Done::Success)
}
