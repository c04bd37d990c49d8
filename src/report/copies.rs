//! The words about a name's fresh copy (`batch::copy`): taking it and giving it back are not what
//! the person asked for, so they are said only with `--verbose` (the exchanges) and when they
//! fail; what the command does to the copy is said of the name ([`Reporter::on_copy`]).

use serde_json::json;

use super::{add_error, Reporter, Values};
use crate::batch::Step;
use crate::launcher::Launcher;
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
            let mut object = json!({
                "handle": null,
                "input": name.to_string(),
                "ok": false,
            });
            add_error(&mut object, failure, &values);
            self.print_json(&object);
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
}
