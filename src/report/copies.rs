//! The words about a name's fresh copy (`batch::copy`): taking it and giving it back are not what
//! the person asked for, so they are said only with `--verbose` (the exchanges) and when they
//! fail; what the command does to the copy is said of the name ([`Reporter::on_copy`]), and a
//! change made again on a fresh copy after another save came first says so once.

use super::{Reporter, Values};
use crate::batch::Step;
use crate::launcher::{Launcher, Operation};
use crate::name::Name;
use crate::outcome::{Failure, Hint, Known};

/// What a name given in place of a handle reaches: public data (the data id is asked for a
/// public name). Said where the launcher's "not on the network" hint would point at options a
/// command given a name does not take.
const PUBLIC_ONLY: &str = "no public appendable data of this name is on the network: check the name; a name in place of a handle reaches public data only (for private data, `safe-ad open --private NAME` gets a handle)";

/// `failure`, with the hint a name's not being on the network deserves.
pub(super) fn for_a_name(failure: &Failure) -> Failure {
    let mut failure = failure.clone();
    if failure.hint == Some(Hint::Known(Known::NotOnNetwork)) {
        failure.hint = Some(Hint::Said(PUBLIC_ONLY.to_owned()));
    }
    failure
}

impl Reporter {
    /// The steps that took a fresh copy of `name` for `command`: their exchanges, and the
    /// failure that kept the copy from being taken (with `--json`, an object for the name, as
    /// for input that could not run).
    pub fn copy_taken(&self, launcher: &Launcher, command: &str, name: &Name, steps: &[Step]) {
        self.exchanges(launcher, steps);
        let Some(failure) = steps.iter().find_map(|step| step.result.as_ref().err()) else {
            return;
        };
        let failure = &for_a_name(failure);
        let values = Values {
            handle: None,
            name: Some(name.to_string()),
            copy: false,
        };
        if self.json {
            if !self.result_is_open() {
                self.open_result(command, Some(name.to_string()), None);
            }
            self.result_failed(None, failure, &values);
        }
        let context = format!("{command} {name}: taking a fresh copy of the network's data");
        self.error(Some(&context), failure, &values);
    }

    /// The steps that gave a name's copy back: their exchanges, and a failure to (what it
    /// left in the launcher is named with the rest at the end of the run).
    pub fn copy_given_back(&self, launcher: &Launcher, command: &str, steps: &[Step]) {
        self.exchanges(launcher, steps);
        for step in steps {
            if let Err(failure) = &step.result {
                let context = format!("{command}: giving back {}", self.subject(&step.request));
                self.error(Some(&context), failure, &Values::default());
            }
        }
    }

    /// A name's change made again on a fresh copy of the network's data, `times` times, each
    /// time another save having come first (its own refused with -25, which changed nothing):
    /// a clear's, and a change of the items chosen by what they are. Nothing when it was not.
    pub fn made_again(&self, operation: Operation, name: &Name, times: u32) {
        let times = match times {
            0 => return,
            1 => "once".to_owned(),
            n => format!("{n} times"),
        };
        self.note(&format!(
            "{} {name}: another save came first, so it was made again on a fresh copy of the \
             network's data ({times})",
            operation.name()
        ));
    }
}
