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

use serde_json::Map;

use super::*;
use crate::batch::SavedVersion;

/// The result of one argument while its requests come in.
#[derive(Default)]
pub(super) struct Pending {
    command: String,
    input: Option<String>,
    line: Option<u64>,
    handle: Option<u64>,
    name: Option<String>,
    /// The launcher's facts about the data afterwards, under the launcher's keys.
    facts: Map<String, Value>,
    /// What the command adds (`saved_version`, `private`, `given_back`, ...), in order.
    added: Map<String, Value>,
    items: Vec<Value>,
    /// The first failure: the `error` object and its exit code.
    error: Option<(Value, u8)>,
    /// A save was refused or failed: a name's changes did not reach the network.
    save_failed: bool,
    requests: Vec<Value>,
}

impl Pending {
    fn into_value(self, verbose: bool) -> Value {
        let mut object = Map::new();
        object.insert("command".into(), json!(self.command));
        object.insert("input".into(), json!(self.input.map(|i| super::words(&i))));
        if let Some(line) = self.line {
            object.insert("line".into(), json!(line));
        }
        object.insert("handle".into(), json!(self.handle));
        object.insert("name".into(), json!(self.name));
        object.insert("ok".into(), json!(self.error.is_none()));
        object.extend(self.facts);
        object.extend(self.added);
        if !self.items.is_empty() {
            let mut items = self.items;
            if self.save_failed {
                // A change the save did not carry is not the network's.
                for item in &mut items {
                    if item["saved"].is_boolean() {
                        item["saved"] = json!(false);
                    }
                }
            }
            object.insert("items".into(), Value::Array(items));
        }
        if let Some((error, exit_code)) = self.error {
            object.insert("error".into(), error);
            object.insert("exit_code".into(), json!(exit_code));
        }
        if verbose {
            object.insert("requests".into(), Value::Array(self.requests));
        }
        Value::Object(object)
    }

    fn fail(&mut self, failure: &Failure, values: &Values) {
        if self.error.is_some() {
            return;
        }
        let mut holder = json!({});
        add_error(&mut holder, failure, values);
        self.error = Some((holder["error"].take(), failure.exit_code()));
    }
}

/// The launcher's own keys for what a metadata read says.
fn metadata_facts(metadata: &Metadata) -> Map<String, Value> {
    match json!(metadata) {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// What a fetch says, under the launcher's keys (a fetch gives no `filterLength`).
fn fetched_facts(fetched: &Fetched) -> Map<String, Value> {
    match json!({
        "isOwner": fetched.is_owner,
        "version": fetched.version,
        "filterType": fetched.filter_type,
        "dataLength": fetched.data_length,
        "deletedDataLength": fetched.deleted_data_length,
    }) {
        Value::Object(map) => map,
        _ => Map::new(),
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
            command: command.to_owned(),
            input,
            line,
            handle,
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
        let held = pending.error.is_some() && pending.line.is_none();
        let value = pending.into_value(self.verbose);
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
            if let Some(copy) = copy {
                pending.name = Some(copy.name.to_string());
                pending.handle = None;
            }
            if takes_copy {
                return;
            }
            let operation = step.request.operation();
            match (&step.result, step.request) {
                (Ok(Reply::Metadata(metadata)), _) if pending.command == "metadata" => {
                    pending.facts = metadata_facts(metadata)
                }
                (Ok(Reply::Bytes(_)), _) if step.is_which_read() => {
                    let which = crate::batch::show::WhichRead::from_answer(&step.result);
                    let mut object = json!({});
                    super::show::add_which(&mut object, Some(&which));
                    if let Some(name) = object["name"].as_str() {
                        pending.name = Some(name.to_owned());
                    }
                    for key in ["private", "owners"] {
                        pending.added.insert(key.into(), object[key].take());
                    }
                }
                (_, Request::AtIndex(changed, _, index)) if changed.is_item_change() => {
                    let mut item = json!({ "index": index, "ok": step.result.is_ok() });
                    if step.result.is_ok() && copy.is_some() {
                        item["saved"] = json!(true);
                    }
                    pending.items.push(item);
                }
                (Ok(_), Request::DataIdOfName { name, .. }) if pending.command != "open" => {
                    pending
                        .added
                        .insert("item_name".into(), json!(name.to_string()));
                }
                (Ok(_), Request::StructuredDataIdOfName { name, .. }) => {
                    pending
                        .added
                        .insert("item_name".into(), json!(name.to_string()));
                }
                (Ok(_), Request::DataIdOfName { name, .. }) => {
                    pending.name = Some(name.to_string())
                }
                (Err(_), _) if operation.is_save() => pending.save_failed = true,
                // An item appended after a save (a restore's) is one more data item than the
                // save's read said.
                (Ok(_), Request::Append { .. }) => {
                    if let Some(length) = pending.facts.get_mut("dataLength") {
                        *length = json!(length.as_u64().map(|length| length + 1));
                    }
                }
                _ => {}
            }
            match step.saved_version() {
                Some(SavedVersion::Read(version)) => {
                    if let Some(Step {
                        result: Ok(Reply::Metadata(metadata)),
                        ..
                    }) = step.read_back.as_deref()
                    {
                        pending.facts = metadata_facts(metadata);
                        // The read is of the launcher's copy, which a post leaves without its
                        // data items (safe_core sends them out of the copy): its lengths are
                        // not the network's, so a post's result does not say them.
                        if operation == Operation::Post {
                            pending.facts.remove("dataLength");
                            pending.facts.remove("deletedDataLength");
                        }
                    }
                    pending.added.insert("saved_version".into(), json!(version));
                }
                Some(SavedVersion::Unread(failure)) => {
                    pending.added.insert("saved_version".into(), Value::Null);
                    pending
                        .added
                        .insert("saved_version_error".into(), json!(failure.message));
                }
                None => {}
            }
            if let Some((made, settled)) = made {
                let handle = match made {
                    Made::Created { handle, name, .. } => {
                        pending.name = Some(name.to_string());
                        handle.0
                    }
                    Made::Opened { fetched } => {
                        pending.facts = fetched_facts(fetched);
                        fetched.handle_id
                    }
                    Made::Reopened { old, fetched, .. } => {
                        pending.facts = fetched_facts(fetched);
                        pending.added.insert("reopened_from".into(), json!(old.0));
                        fetched.handle_id
                    }
                };
                pending.handle = Some(handle);
                match settled {
                    Settled::GivenBack => pending.added.insert("given_back".into(), json!(true)),
                    Settled::NotGivenBack => {
                        pending.added.insert("given_back".into(), json!(false))
                    }
                    _ => None,
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

    /// Whether a result is open or waiting to be printed: the end of a run's failure and what
    /// it left behind go into it.
    pub(super) fn result_waiting(&self) -> bool {
        self.result.borrow().is_some() || self.held.borrow().is_some()
    }

    /// `key` set on the result a run's end belongs to (the open one, else the failed one held).
    pub(super) fn result_add(&self, key: &str, value: Value) {
        if let Some(pending) = self.result.borrow_mut().as_mut() {
            pending.added.insert(key.into(), value);
            return;
        }
        if let Some(Value::Object(held)) = self.held.borrow_mut().as_mut() {
            held.insert(key.into(), value);
        }
    }

    /// The launcher's metadata of the data afterwards, as the open result's facts (under the
    /// launcher's keys), where no save's read back says them: a command that changes a copy it
    /// does not save, or reads (`filter`).
    pub(super) fn result_facts(&self, metadata: &Metadata) {
        if let Some(pending) = self.result.borrow_mut().as_mut() {
            pending.facts = metadata_facts(metadata);
        }
    }

    /// `value` added to the list under `key` of the open result.
    pub(super) fn result_push(&self, key: &str, value: Value) {
        if let Some(pending) = self.result.borrow_mut().as_mut() {
            let list = pending.added.entry(key).or_insert_with(|| json!([]));
            if let Some(list) = list.as_array_mut() {
                list.push(value);
            }
        }
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
    /// `object` (a `show` or `status` result about `handle`) headed as every result is: the
    /// command, the handle or name as given, and the handle (null for a name's fresh copy,
    /// given back by the end of the run).
    pub(super) fn headed(
        &self,
        command: &str,
        handle: crate::handle::Handle,
        object: Value,
    ) -> Value {
        let copy = self.copy.get().filter(|copy| copy.handle == handle);
        let mut headed = Map::new();
        headed.insert("command".into(), json!(command));
        headed.insert(
            "input".into(),
            json!(copy.map_or(handle.to_string(), |copy| copy.name.to_string())),
        );
        headed.insert("handle".into(), json!(copy.is_none().then_some(handle.0)));
        if let Value::Object(rest) = object {
            for (key, value) in rest {
                if key != "handle" {
                    headed.insert(key, value);
                }
            }
        }
        Value::Object(headed)
    }
}

impl Reporter {
    /// Every JSON object a command prints on stdout comes through here (but the emulator
    /// journal's records without `--jq`, JSON already, printed as they came): as one line, or
    /// with `--jq`, as what the filter makes of it, a line for each value it gives (a string as
    /// its text, as `jq -r` prints it; anything else as compact JSON). A filter that fails on an
    /// object says so on stderr after what it gave before, the objects after it are still
    /// filtered, and the run cannot exit 0 ([`Reporter::finish`]).
    pub(super) fn print_json(&self, object: &Value) {
        // After any failed result still waiting (`results`), so that objects keep the order of
        // the arguments they are about.
        self.print_held();
        let Some(filter) = &self.filter else {
            let mut line = object.to_string();
            line.push('\n');
            self.out(&line);
            return;
        };
        // A stop signal that comes while it runs ends it; one that came before (the run is
        // stopping, and says so in objects too) leaves the objects whole.
        let calm = !crate::signals::came_any();
        let ran = filter.run(object, |output| {
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

pub(super) fn add_error(object: &mut Value, failure: &Failure, values: &Values) {
    let answer = failure.answer.as_ref();
    object["error"] = json!({
        "class": failure.class.name(),
        "status": answer.map(|a| a.status),
        "error_code": answer.and_then(|a| a.error_code),
        "description": words(answer.map_or(failure.message.as_str(), |a| a.description.as_str())),
        "hint": failure.hint.as_ref().map(|hint| words(&values.fill(hint))),
    });
    object["exit_code"] = json!(failure.exit_code());
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
    ) -> Value {
        let mut object = step_json(launcher, line, step, values);
        if let Some(copy) = self.copy.get() {
            object["name"] = json!(copy.name.to_string());
        }
        object
    }
}

fn step_json(launcher: &Launcher, line: Option<u64>, step: &Step, values: &Values) -> Value {
    let request = &step.request;
    let handle = request.handle().or(match request.operation() {
        Operation::Create | Operation::Fetch => step.new_handle(),
        _ => None,
    });
    let mut object = json!({
        "handle": handle.map(|handle| handle.0),
        "operation": request.operation().name(),
        "method": request.method().as_str(),
        "url": words(&launcher.url(request)),
        "status": step.status,
        "ok": step.result.is_ok(),
        "elapsed_ms": (step.elapsed.as_secs_f64() * 10_000.0).round() / 10.0,
    });
    if let Some(line) = line {
        object["line"] = json!(line);
    }
    if let Some(name) = request.name() {
        object["name"] = json!(name.to_string());
    }
    let data_id = request.data_id().or(match request.operation() {
        Operation::DataId => step.new_handle(),
        _ => None,
    });
    if let Some(data_id) = data_id {
        object["data_id_handle"] = json!(data_id.0);
    }
    if let Some(index) = request.index() {
        object["index"] = json!(index);
    }
    match step.saved_version() {
        Some(crate::batch::SavedVersion::Read(version)) => object["saved_version"] = json!(version),
        Some(crate::batch::SavedVersion::Unread(failure)) => {
            object["saved_version"] = Value::Null;
            object["saved_version_error"] = json!(failure.message);
        }
        None => {}
    }
    match &step.result {
        Ok(Reply::Metadata(metadata)) => object["metadata"] = json!(metadata),
        // A reopen's read of which data it made: what the bytes say, not the bytes.
        Ok(Reply::Bytes(_)) if step.is_which_read() => {
            let which = crate::batch::show::WhichRead::from_answer(&step.result);
            show::add_which(&mut object, Some(&which));
        }
        Ok(Reply::Fetched(fetched)) => object["metadata"] = Value::Object(fetched_facts(fetched)),
        Ok(_) => {}
        Err(failure) => add_error(&mut object, failure, values),
    }
    object
}
