//! One `--json` result per argument: what a command did to the data a handle or name names,
//! gathered from the requests it took, and printed as one object when that argument is done.
//!
//! A script reads results, not a log of requests: `safe-ad --json metadata NAME | jq .version`
//! prints one version, whatever it took to read it (a copy taken for the name, the read, the
//! copy given back). The launcher's facts keep the launcher's own keys at the top level
//! (`version`, `dataLength`, `isOwner`, ...), the same whether a handle or a name was given;
//! what safe-ad adds is in snake_case (`saved_version`, `items`). The requests behind a result
//! are in it only under `--verbose` (`requests`, each as the step objects of 0.2 were).
//!
//! A result that failed waits for the end of the run or the next argument, so that what a run
//! left in the launcher (`left_behind`) lands in the object of the argument that left it; but
//! one read from standard input, whose next line may be long in coming, is printed at once.
//!
//! Every JSON object printed goes through [`Reporter::print_json`] here, where `--jq` runs; the
//! objects of a failure's `error` and of a request are written here too.

use super::json::{ErrorJson, Facts, ItemChange, RequestJson, ResultJson};
use super::*;
use crate::batch::show::WhichRead;
use crate::batch::SavedVersion;

/// The result of one argument while its requests come in.
#[derive(Default)]
pub(super) struct Pending {
    /// What is known so far (`ok`, `requests` are set when it is printed).
    result: ResultJson,
    /// A save was refused or failed: a name's changes did not reach the network.
    save_failed: bool,
    requests: Vec<RequestJson>,
}

impl Pending {
    fn into_json(self, verbose: bool) -> ResultJson {
        let mut result = self.result;
        result.ok = result.error.is_none();
        if self.save_failed {
            // A change the save did not carry is not the network's.
            for item in &mut result.items {
                if item.saved.is_some() {
                    item.saved = Some(false);
                }
            }
        }
        if verbose {
            result.requests = Some(self.requests);
        }
        result
    }

    fn fail(&mut self, failure: &Failure, values: &Values) {
        if self.result.error.is_some() {
            return;
        }
        self.result.error = Some(error_json(failure, values));
        self.result.exit_code = Some(failure.exit_code());
    }
}

/// The launcher's own keys for what a metadata read says.
pub(super) fn metadata_facts(metadata: &Metadata) -> Facts {
    Facts {
        is_owner: metadata.is_owner,
        version: metadata.version,
        filter_type: metadata.filter_type.name(),
        filter_length: Some(metadata.filter_length),
        data_length: Some(metadata.data_length),
        deleted_data_length: Some(metadata.deleted_data_length),
    }
}

/// What a fetch says, under the launcher's keys (a fetch gives no `filterLength`).
fn fetched_facts(fetched: &Fetched) -> Facts {
    Facts {
        is_owner: fetched.is_owner,
        version: fetched.version,
        filter_type: fetched.filter_type.name(),
        filter_length: None,
        data_length: Some(fetched.data_length),
        deleted_data_length: Some(fetched.deleted_data_length),
    }
}

impl Reporter {
    /// Starts the result of one argument of `command` (`input` as typed; none for `create`).
    /// A result still open is finished first.
    pub fn result_for(&self, command: &str, input: Option<&str>) {
        self.open_result(command, input.map(str::to_owned), None);
    }

    pub(super) fn open_result(&self, command: &str, input: Option<String>, line: Option<u64>) {
        if !self.json {
            return;
        }
        self.close_result();
        let handle = input.as_deref().and_then(|input| input.parse::<u64>().ok());
        *self.result.borrow_mut() = Some(Pending {
            result: ResultJson {
                command: command.to_owned(),
                input: input.map(|input| super::words(&input)),
                line,
                handle,
                ..ResultJson::default()
            },
            ..Pending::default()
        });
    }

    /// Ends the open result: printed at once when it succeeded; a failure waits for what the
    /// run left behind (or the next result, or the end of the run).
    pub(super) fn close_result(&self) {
        let Some(pending) = self.result.borrow_mut().take() else {
            return;
        };
        // A failure read from standard input is printed at once: the next line may be long in
        // coming, and a reader of the results waits on this one (what a stop leaves behind
        // then goes in an object of its own).
        let held = pending.result.error.is_some() && pending.result.line.is_none();
        let value = pending.into_json(self.verbose);
        self.print_held();
        match held {
            true => *self.held.borrow_mut() = Some(value),
            false => self.print_json(&value),
        }
    }

    pub(super) fn print_held(&self) {
        let held = self.held.borrow_mut().take();
        if let Some(held) = held {
            self.print_json(&held);
        }
    }

    /// Every result not printed yet, printed: at the end of a run.
    pub(super) fn flush_results(&self) {
        self.close_result();
        self.print_held();
    }

    /// Runs `with` on the open result; a step that comes with none open starts one, named by
    /// its operation, so that nothing a command did goes unsaid.
    fn pending(&self, request: &Request, with: impl FnOnce(&mut Pending)) {
        if self.result.borrow().is_none() {
            self.open_result(request.operation().name(), None, None);
        }
        if let Some(pending) = self.result.borrow_mut().as_mut() {
            with(pending)
        }
    }

    /// A step of the open result: its request (for `--verbose`), and what its answer says of
    /// the data afterwards. `made`: what the step made, where it is the one that made a handle.
    pub(super) fn result_step(
        &self,
        launcher: &crate::launcher::Launcher,
        line: Option<u64>,
        step: &Step,
        values: &Values,
        made: Option<(&Made, Settled)>,
    ) {
        let request = self.step_object(launcher, line, step, values);
        let copy = self.copy.get();
        let takes_copy = self.takes_or_gives_back_copy(&step.request);
        self.pending(&step.request, |pending| {
            pending.requests.push(request);
            let result = &mut pending.result;
            if let Some(copy) = copy {
                result.name = Some(copy.name.to_string());
                result.handle = None;
            }
            if takes_copy {
                return;
            }
            let operation = step.request.operation();
            match (&step.result, step.request) {
                (Ok(Reply::Metadata(metadata)), _) if result.command == "metadata" => {
                    result.set_facts(metadata_facts(metadata))
                }
                (Ok(Reply::Bytes(_)), _) if step.is_which_read() => {
                    let which = crate::batch::show::WhichRead::from_answer(&step.result);
                    let (name, private, owners) = which_parts(Some(&which));
                    if let Some(name) = name {
                        result.name = Some(name);
                    }
                    result.private = Some(private);
                    result.owners = Some(owners);
                }
                (_, Request::AtIndex(changed, _, index)) if changed.is_item_change() => {
                    result.items.push(ItemChange {
                        index,
                        ok: step.result.is_ok(),
                        saved: (step.result.is_ok() && copy.is_some()).then_some(true),
                    });
                }
                (Ok(_), Request::DataIdOfName { name, .. }) if result.command != "open" => {
                    result.item_name = Some(name.to_string());
                }
                (Ok(_), Request::StructuredDataIdOfName { name, .. }) => {
                    result.item_name = Some(name.to_string());
                }
                (Ok(_), Request::DataIdOfName { name, .. }) => result.name = Some(name.to_string()),
                (Err(_), _) if operation.is_save() => pending.save_failed = true,
                // An item appended after a save (a restore's) is one more data item than the
                // save's read said.
                (Ok(_), Request::Append { .. }) => {
                    if let Some(length) = result.data_length.as_mut() {
                        *length += 1;
                    }
                }
                _ => {}
            }
            let result = &mut pending.result;
            match step.saved_version() {
                Some(SavedVersion::Read(version)) => {
                    if let Some(Step {
                        result: Ok(Reply::Metadata(metadata)),
                        ..
                    }) = step.read_back.as_deref()
                    {
                        let mut facts = metadata_facts(metadata);
                        // The read is of the launcher's copy, which a post leaves without its
                        // data items (safe_core sends them out of the copy): its lengths are
                        // not the network's, so a post's result does not say them.
                        if operation == Operation::Post {
                            facts.data_length = None;
                            facts.deleted_data_length = None;
                        }
                        result.set_facts(facts);
                    }
                    result.saved_version = Some(Some(version));
                }
                Some(SavedVersion::Unread(failure)) => {
                    result.saved_version = Some(None);
                    result.saved_version_error = Some(failure.message.clone());
                }
                None => {}
            }
            if let Some((made, settled)) = made {
                let handle = match made {
                    Made::Created { handle, name, .. } => {
                        result.name = Some(name.to_string());
                        handle.0
                    }
                    Made::Opened { fetched } => {
                        result.set_facts(fetched_facts(fetched));
                        fetched.handle_id
                    }
                    Made::Reopened { old, fetched, .. } => {
                        result.set_facts(fetched_facts(fetched));
                        result.reopened_from = Some(old.0);
                        fetched.handle_id
                    }
                };
                result.handle = Some(handle);
                match settled {
                    Settled::GivenBack => result.given_back = Some(true),
                    Settled::NotGivenBack => result.given_back = Some(false),
                    _ => {}
                };
            }
        });
    }

    /// A failure of the open result (the first one is its `error`).
    pub(super) fn result_failed(
        &self,
        request: Option<&Request>,
        failure: &Failure,
        values: &Values,
    ) {
        if !self.json {
            return;
        }
        if self.result.borrow().is_none() {
            match request {
                Some(request) => self.open_result(request.operation().name(), None, None),
                None => return,
            }
        }
        if let Some(pending) = self.result.borrow_mut().as_mut() {
            pending.fail(failure, values);
        }
    }

    pub(super) fn result_is_open(&self) -> bool {
        self.result.borrow().is_some()
    }

    /// What a run left behind, on the result a run's end belongs to (the open one, else the
    /// failed one held, where it comes after all the rest). False when there is neither.
    pub(super) fn result_left_behind(&self, left: Vec<super::json::LeftJson>) -> bool {
        if let Some(pending) = self.result.borrow_mut().as_mut() {
            pending.result.left_behind = Some(left);
            return true;
        }
        if let Some(held) = self.held.borrow_mut().as_mut() {
            held.left_behind_after = Some(left);
            return true;
        }
        false
    }

    /// Runs `with` on the open result, if any: what a command adds (`filter`, `keys`, ...).
    pub(super) fn result_with(&self, with: impl FnOnce(&mut ResultJson)) {
        if let Some(pending) = self.result.borrow_mut().as_mut() {
            with(&mut pending.result)
        }
    }

    /// The launcher's metadata of the data afterwards, as the open result's facts (under the
    /// launcher's keys), where no save's read back says them: a command that changes a copy it
    /// does not save, or reads (`filter`).
    pub(super) fn result_facts(&self, metadata: &Metadata) {
        self.result_with(|result| result.set_facts(metadata_facts(metadata)));
    }

    /// The failure that ends a run, folded into the result it ended (the open one, whose first
    /// failure it becomes when it has none). False when no result is open.
    pub(super) fn result_ended(&self, failure: &Failure) -> bool {
        if self.result.borrow().is_none() {
            return false;
        }
        if let Some(pending) = self.result.borrow_mut().as_mut() {
            pending.fail(failure, &Values::default());
        }
        self.close_result();
        true
    }
}

impl Reporter {
    /// The `input` and `handle` of a result about `handle`: the handle as given, or for a
    /// name's fresh copy (given back by the end of the run) the name, and no handle.
    pub(super) fn input_of(&self, handle: crate::handle::Handle) -> (String, Option<u64>) {
        let copy = self.copy.get().filter(|copy| copy.handle == handle);
        (
            copy.map_or(handle.to_string(), |copy| copy.name.to_string()),
            copy.is_none().then_some(handle.0),
        )
    }
}

impl Reporter {
    /// Every JSON object a command prints on stdout comes through here (but the emulator
    /// journal's records without `--jq`, JSON already, printed as they came): as one line, or
    /// with `--jq`, as what the filter makes of it, a line for each value it gives (a string as
    /// its text, as `jq -r` prints it; anything else as compact JSON). A filter that fails on an
    /// object says so on stderr after what it gave before, the objects after it are still
    /// filtered, and the run cannot exit 0 ([`Reporter::finish`]).
    pub(super) fn print_json<T: serde::Serialize + ?Sized>(&self, object: &T) {
        // After any failed result still waiting (`results`), so that objects keep the order of
        // the arguments they are about.
        self.print_held();
        let Some(filter) = &self.filter else {
            let mut line = serde_json::to_string(object).unwrap_or_default();
            line.push('\n');
            self.out(&line);
            return;
        };
        let object = serde_json::to_value(object).unwrap_or_default();
        // A stop signal that comes while it runs ends it; one that came before (the run is
        // stopping, and says so in objects too) leaves the objects whole.
        let calm = !crate::signals::came_any();
        let ran = filter.run(&object, |output| {
            let mut line = match output {
                jq::Output::Str(text) => text,
                jq::Output::Json(json) => json,
            };
            line.push('\n');
            self.out(&line);
            // A filter may give values without end (`repeat(.)`): a reader that left or a stop
            // signal ends it, as either ends a batch.
            if calm && crate::signals::came_any() {
                self.filter_cut.set(true);
                return false;
            }
            !self.stdout_closed.get()
        });
        if let Err(said) = ran {
            self.filter_failed.set(true);
            let failure = Failure::new(
                Class::Unexpected,
                format!(
                    "--jq '{}' failed: {}",
                    sanitize::line(filter.expression().as_bytes(), 200),
                    sanitize::line(said.as_bytes(), 400)
                ),
            )
            .with_hint(
                "--json alone prints the objects it is run over; a `?` skips what one lacks (.data[0]?)",
            );
            self.failed(&failure);
        }
    }
}

/// A failure, for scripts: its class, the launcher's status, code and description (or what
/// happened), and the hint with the request's values written in.
pub(super) fn error_json(failure: &Failure, values: &Values) -> ErrorJson {
    let answer = failure.answer.as_ref();
    ErrorJson {
        class: failure.class.name(),
        status: answer.map(|a| a.status),
        error_code: answer.and_then(|a| a.error_code),
        description: words(answer.map_or(failure.message.as_str(), |a| a.description.as_str())),
        hint: failure.hint.as_ref().map(|hint| words(&values.fill(hint))),
    }
}

impl Reporter {
    /// [`step_json`], with `name` on every step of a command given a name (its `handle` is the
    /// copy's, given back by the end of the run).
    pub(super) fn step_object(
        &self,
        launcher: &Launcher,
        line: Option<u64>,
        step: &Step,
        values: &Values,
    ) -> RequestJson {
        let mut object = step_json(launcher, line, step, values);
        if let Some(copy) = self.copy.get() {
            let name = copy.name.to_string();
            // Where the request names data itself, the copy's name is said in its place.
            match object.name.is_some() {
                true => object.name = Some(name),
                false => object.name_after = Some(Some(name)),
            }
        }
        object
    }
}

fn step_json(launcher: &Launcher, line: Option<u64>, step: &Step, values: &Values) -> RequestJson {
    let request = &step.request;
    let handle = request.handle().or(match request.operation() {
        Operation::Create | Operation::Fetch => step.new_handle(),
        _ => None,
    });
    let data_id = request.data_id().or(match request.operation() {
        Operation::DataId => step.new_handle(),
        _ => None,
    });
    let mut object = RequestJson {
        handle: handle.map(|handle| handle.0),
        operation: request.operation().name(),
        method: request.method().as_str().to_owned(),
        url: words(&launcher.url(request)),
        status: step.status,
        ok: step.result.is_ok(),
        elapsed_ms: (step.elapsed.as_secs_f64() * 10_000.0).round() / 10.0,
        line,
        name: request.name().map(|name| name.to_string()),
        data_id_handle: data_id.map(|data_id| data_id.0),
        index: request.index(),
        ..RequestJson::default()
    };
    match step.saved_version() {
        Some(crate::batch::SavedVersion::Read(version)) => {
            object.saved_version = Some(Some(version))
        }
        Some(crate::batch::SavedVersion::Unread(failure)) => {
            object.saved_version = Some(None);
            object.saved_version_error = Some(failure.message.clone());
        }
        None => {}
    }
    match &step.result {
        Ok(Reply::Metadata(metadata)) => object.metadata = Some(metadata_facts(metadata)),
        // A reopen's read of which data it made: what the bytes say, not the bytes.
        Ok(Reply::Bytes(_)) if step.is_which_read() => {
            let which = crate::batch::show::WhichRead::from_answer(&step.result);
            let (name, private, owners) = which_parts(Some(&which));
            match object.name.is_some() {
                true => object.name = name,
                false => object.name_after = Some(name),
            }
            object.private = Some(private);
            object.owners = Some(owners);
        }
        Ok(Reply::Fetched(fetched)) => object.metadata = Some(fetched_facts(fetched)),
        Ok(_) => {}
        Err(failure) => {
            object.error = Some(error_json(failure, values));
            object.exit_code = Some(failure.exit_code());
        }
    }
    object
}

/// Which data a handle is: its `name`, `private` and `owners` (each none when not known).
pub(super) fn which_parts(
    which: Option<&WhichRead>,
) -> (Option<String>, Option<bool>, Option<Vec<String>>) {
    let known = which.and_then(WhichRead::known);
    (
        known.map(|which| which.name.to_string()),
        known.map(|which| which.private),
        known.map(|which| {
            (which.owners.iter())
                .map(|key| serialised::fingerprint(&key.serialised()))
                .collect()
        }),
    )
}
