//! The words of the one-request commands (the four operations, `metadata`, the handle chains):
//! result lines, `--verbose` exchanges, dry-run and curl lines, JSON Lines records, batch
//! summaries and progress.

use super::status::CopyAtSave;
use super::*;

impl Reporter {
    /// Everything about one handle, in input order: result lines, errors, `--verbose` text.
    /// `command`: the command's name (`clear-data`), which a failure of one of its inner steps
    /// is said of, with the handle or name as typed.
    pub fn record(&self, launcher: &Launcher, record: &Record, command: &str) {
        self.clear_progress();
        self.wrote.set(false);
        match &record.outcome {
            RecordOutcome::NotStarted => {}
            RecordOutcome::Invalid(failure) => self.invalid(command, &record.item, failure),
            RecordOutcome::Ran(ran) => {
                let item = &record.item;
                self.open_result(command, Some(item.input.clone()), item.line);
                let asked = format!("{command} {}", item.input);
                self.steps(launcher, item.line, ran, &asked);
                self.close_result();
            }
        }
    }

    /// Input that is not a handle, from standard input or the command line: an error, and with
    /// `--json` an object saying which input it was.
    /// With `--json`, the result of a good argument that was not sent because another one is
    /// bad: a script reads one result per argument. (On stderr the bad ones say it.)
    pub fn not_sent(&self, command: &str, input: &str) {
        if self.json {
            let failure = Failure::usage(
                "not sent: another argument is not a handle or name this command takes, so nothing was sent",
            );
            self.open_result(command, Some(input.to_owned()), None);
            self.result_failed(None, &failure, &Values::default());
            self.close_result();
        }
    }

    pub fn invalid(&self, command: &str, item: &Item, failure: &Failure) {
        if self.json {
            self.open_result(command, Some(item.input.clone()), item.line);
            self.result_failed(None, failure, &Values::default());
            self.close_result();
        }
        self.failed(failure);
    }

    /// The steps of one procedure, in order: `--verbose` exchanges, JSON Lines or result
    /// lines, and an error for each step that failed. `line`: where the input came from.
    ///
    /// Procedures that make a new handle (`create`, `open`, `reopen`) print it alone on stdout,
    /// for `h=$(safe-ad open NAME)`, and say what happened in one line on stderr, from what
    /// `batch` says they made (`making`, once the request that makes it was sent); their other
    /// steps say only their failures. The other procedures' steps print a line each (`put 7:
    /// ok`, or the metadata), a save as `batch` says it was sent ([`Saved`]).
    ///
    /// A name's change is the network's only once its save landed: a run whose save was
    /// refused says no `ok` of the change, and that the network's data is as it was; one made
    /// again on a fresh copy after another save beat its own says so.
    ///
    /// `asked`: what the person asked (`open NAME`, `reopen 7`, `clear-data NAME`), which the
    /// failure of a step they did not ask for is said of: taking a name's copy, a procedure's
    /// data id or fetch, never an internal step's own words.
    pub fn steps(&self, launcher: &Launcher, line: Option<u64>, ran: &Ran, asked: &str) {
        let refused_save = |step: &Step| {
            step.request.operation().is_save() && step.result.is_err() && !step.answer_lost
        };
        let unsaved = ran.copy.is_some() && ran.steps.iter().any(refused_save);
        let told = Told {
            line,
            making: ran.making.as_ref(),
            saves: &ran.saves,
            held: None,
            unsaved,
            asked: Some(asked),
        };
        let before = self.copy.get();
        if let Some(copy) = ran.copy {
            self.on_copy(ran.copy);
            let operation = ran.steps.iter().find_map(|step| match step.request {
                Request::OnHandle(operation, _) if operation.is_clear() => Some(operation),
                _ => None,
            });
            if let Some(operation) = operation {
                self.made_again(operation, &copy.name, ran.retried);
            }
        }
        self.steps_told(launcher, &ran.steps, told);
        if let (true, Some(copy)) = (unsaved, ran.copy) {
            let operation = (ran.steps.iter()).find_map(|step| match step.request {
                Request::OnHandle(operation, _) if !operation.is_save() => Some(operation),
                _ => None,
            });
            if let Some(operation) = operation {
                self.name_change_not_saved(operation, &copy.name);
            }
        }
        self.on_copy(before);
    }

    /// One step of a one-item change (`remove`, `restore`, `purge`) or its save, as it is done.
    /// `held`: how many data items the copy holds when a post is sent, where the read before
    /// the change said (see [`Reporter::saved`]).
    pub fn one_step(&self, launcher: &Launcher, step: &Step, held: Option<u64>) {
        let told = Told {
            line: None,
            making: None,
            saves: &[],
            held,
            unsaved: false,
            asked: None,
        };
        self.steps_told(launcher, std::slice::from_ref(step), told);
    }

    fn steps_told(&self, launcher: &Launcher, steps: &[Step], told: Told) {
        let Told {
            line,
            making,
            saves,
            held,
            unsaved,
            asked,
        } = told;
        // The name a procedure started from (`open NAME`) is known to the hints of its later
        // steps too.
        let name = steps
            .iter()
            .find_map(|step| step.request.name())
            .map(|name| name.to_string());
        for (at, step) in steps.iter().enumerate() {
            self.exchanges(launcher, std::slice::from_ref(step));
            let values = Values {
                name: name.clone(),
                ..self.values(&step.request)
            };
            let made_here = making.filter(|making| making.at == at);
            if self.json {
                let made =
                    made_here.and_then(|making| Some((making.made.as_ref()?, making.settled)));
                self.result_step(launcher, line, step, &values, made);
            }
            match &step.result {
                // A reopen's read of which data it made: the reopen stands without it.
                Err(failure) if step.is_which_read() => self.warning(&format!(
                    "{}: the data's name could not be read ({}); the new handle is made all the same, and `safe-ad show` names its data",
                    self.subject(&step.request),
                    failure.message
                )),
                Err(failure) => {
                    let taking = matches!(
                        step.request,
                        Request::DataIdOfName { .. } | Request::Fetch(_)
                    );
                    let (context, failure) = match (self.copy.get(), asked) {
                        (Some(_), Some(asked)) if taking => (
                            format!("{asked}: taking a fresh copy of the network's data"),
                            super::copies::for_a_name(failure),
                        ),
                        (Some(copy), None) if taking => (
                            format!("{}: taking a fresh copy of the network's data", copy.name),
                            super::copies::for_a_name(failure),
                        ),
                        // A step the person did not ask for (a data id, a fetch, the data id
                        // given back: `open`, `reopen`): said of what was asked.
                        (_, Some(asked)) if taking || inner(&step.request) => {
                            (asked.to_owned(), failure.clone())
                        }
                        _ => (self.subject(&step.request), failure.clone()),
                    };
                    self.result_failed(Some(&step.request), &failure, &values);
                    self.error(Some(&context), &failure, &values)
                }
                Ok(_) if making.is_some() => {
                    if let Some(Making {
                        made: Some(made),
                        settled,
                        ..
                    }) = made_here
                    {
                        self.made(made, *settled);
                    }
                }
                Ok(_) if step.request.operation().is_save() => {
                    // A clear of the data items just before left the copy none to lose.
                    let cleared =
                        (saves.iter()).any(|saved| saved.at == at && saved.after_clear_data);
                    self.saved(step, CopyAtSave::of(cleared, held))
                }
                Ok(Reply::Metadata(metadata)) if !self.json => {
                    if let Some(handle) = step.request.handle() {
                        self.metadata(&self.handle_word(handle), metadata);
                    }
                }
                // Taking a name's fresh copy and giving it back are not what the person asked
                // for: said only when they fail (and with --verbose or --json).
                Ok(_) if self.takes_or_gives_back_copy(&step.request) => {}
                // A name's change whose save was refused: not the network's, not `ok`.
                Ok(_) if unsaved => {}
                Ok(_) if !self.json => self.ok(&step.request),
                Ok(_) => {}
            }
        }
    }

    /// Whether `request` takes a name's fresh copy (the data id of the name, the fetch, the
    /// data id given back) or gives the copy back.
    pub(super) fn takes_or_gives_back_copy(&self, request: &Request) -> bool {
        let Some(copy) = self.copy.get() else {
            return false;
        };
        match request {
            Request::DataIdOfName { name, .. } => *name == copy.name,
            Request::Fetch(_) | Request::DropDataId(_) => true,
            Request::OnHandle(Operation::Drop, handle) => *handle == copy.handle,
            _ => false,
        }
    }

    /// What a procedure that makes a handle made: the handle on stdout (unless `--json` has
    /// it), and what happened on stderr. A handle a stop signal had given back (or tried to:
    /// [`Settled`]) is not the person's: it is said, not printed.
    fn made(&self, made: &Made, settled: Settled) {
        let (handle, what) = match made {
            Made::Created { handle, name, .. } => {
                (*handle, format!("created handle {handle}, name {name}"))
            }
            Made::Opened { fetched } => {
                let handle = Handle(fetched.handle_id);
                (
                    handle,
                    format!("opened handle {handle}: {}", fetched_counts(fetched)),
                )
            }
            Made::Reopened {
                old,
                fetched,
                which,
                ..
            } => {
                let handle = Handle(fetched.handle_id);
                let named = match which.as_ref().and_then(|which| which.known()) {
                    Some(which) => format!("; {}", super::show::which_words(which, None)),
                    None => String::new(),
                };
                (
                    handle,
                    format!(
                        "reopened handle {old} as {handle}: {}{named}",
                        fetched_counts(fetched)
                    ),
                )
            }
        };
        let then = match (settled, made) {
            (Settled::GivenBack | Settled::NotGivenBack, _) => {
                let how = match settled {
                    Settled::GivenBack => "was given back",
                    _ => "could not be given back (it is named below)",
                };
                let old = match made {
                    Made::Reopened { old, .. } => format!(" (handle {old} is as it was)"),
                    _ => String::new(),
                };
                self.info(&format!(
                    "{what}; interrupted before it finished, so handle {handle} {how}{old}"
                ));
                return;
            }
            (_, Made::Created { saved: true, .. }) => ", saved to the network".to_owned(),
            (_, Made::Created { saved: false, .. }) => {
                format!(", not on the network yet (save it with: safe-ad put {handle})")
            }
            (
                _,
                Made::Reopened {
                    old, dropped: true, ..
                },
            ) => format!("; dropped handle {old}"),
            _ => String::new(),
        };
        if !self.json {
            self.out(&format!("{handle}\n"));
        }
        self.info(&format!("{what}{then}"));
    }

    /// `create --put` left at once (a second stop signal, or the first one's wait ran out)
    /// with its steps unsaid: the new data's name, which a save in flight may have put on the
    /// network.
    pub fn created_name_unknown_save(&self, name: &Name) {
        self.info(&format!(
            "the new data's name is {name}: if its save reached the network, `safe-ad open {name}` gets a handle for it"
        ));
    }

    /// A run left while `count` saves were in flight (a second stop signal, or the first one's
    /// wait ran out): each may have acted, and only reading the data back tells.
    pub fn saves_in_flight(&self, count: u32) {
        self.warning(&match count {
            1 => "a save was in flight when it left, and may have acted: the network may hold the change or not; read the data back (`safe-ad show` with its name) to know".to_owned(),
            _ => format!("{count} saves were in flight when it left, and each may have acted: the network may hold those changes or not; read the data back (`safe-ad show` with each name) to know"),
        });
    }

    /// The one-line summary of a batch, on stderr, when more than one handle was asked for.
    /// `cancelled` counts handles sent whose answer was not awaited (Ctrl-C), `not_started`
    /// handles never sent; `unread_input` says standard input was left unread (its length is
    /// unknown) because the batch stopped early.
    /// With `--quiet` it is printed only when the batch was cut short, since what was left
    /// undone (or sent and not awaited) is not success output.
    pub fn summary(&self, tally: &Tally, cancelled: u64, not_started: u64, unread_input: bool) {
        self.clear_progress();
        let cut_short = cancelled > 0 || not_started > 0 || unread_input;
        if self.quiet && !cut_short {
            return;
        }
        if let Some(line) = summary_text(tally, cancelled, not_started, unread_input) {
            err(&line);
        }
    }

    /// A live progress line on a terminal's stderr for long batches (a bar when the number of
    /// handles is known); never on a pipe or file.
    pub fn progress(&self, tally: &Tally, total: Option<u64>, started: Instant) {
        if self.quiet || started.elapsed() < Duration::from_millis(500) {
            return;
        }
        if let Some(drawn) = self.progress_drawn.get() {
            if drawn.elapsed() < Duration::from_millis(100) {
                return;
            }
        }
        if !stderr_is_terminal() {
            return;
        }
        let rate = tally.done() as f64 / started.elapsed().as_secs_f64().max(0.001);
        let position = match total {
            Some(total) if total > 0 => {
                const WIDTH: u64 = 30;
                let filled = (tally.seen.min(total) * WIDTH / total) as usize;
                format!(
                    "[{}{}] {}/{total}",
                    "#".repeat(filled),
                    ".".repeat(WIDTH as usize - filled),
                    tally.seen
                )
            }
            _ => format!("{} done", tally.done()),
        };
        err(&format!(
            "\r\x1b[2K{position}: {} ok, {} failed ({rate:.0}/s)",
            tally.ok, tally.failed
        ));
        self.progress_drawn.set(Some(Instant::now()));
    }

    /// One short line on stdout per step that succeeded: `put 7: ok`.
    pub(super) fn ok(&self, request: &Request) {
        if !self.quiet {
            self.out(&format!("{}: ok\n", self.subject(request)));
        }
    }

    /// One line per handle, for people: what a clear or a save changed shows up here.
    pub fn metadata(&self, handle: &str, metadata: &Metadata) {
        self.out(&format!(
            "{handle}: version {}, data {}, deleted {}, owner {}, filter {} ({} keys)\n",
            metadata.version,
            metadata.data_length,
            metadata.deleted_data_length,
            if metadata.is_owner { "yes" } else { "no" },
            metadata.filter_type.name(),
            metadata.filter_length
        ));
    }

    /// `--dry-run` and `--curl`: what would be sent for the requests of one chain (`open`,
    /// `reopen` of one handle, ...), in order. With `--curl` the lines run as one `sh` script:
    /// a line whose answer carries a handle a later line needs keeps it in a shell variable
    /// (read from the answer's `handleId` with POSIX sed), and the later lines take it from
    /// there; the last lines give back what the first took.
    pub fn plan_described(
        &self,
        launcher: &Launcher,
        plan: &[Request<Slot>],
        as_curl: bool,
        token: Option<&Source>,
    ) {
        for (at, request) in plan.iter().enumerate() {
            // The field the next line that waits for a handle takes from this line's answer.
            // The fetch of a name's fresh copy fills the copy's slot; any other line that
            // waits on none fills the next slot a later line waits on, but the copy's; a line
            // that takes one handle and makes another (a reopen's fetch, through its data id)
            // keeps the one it makes, when a later line needs it.
            let copy = Slot::FromAnswer(crate::batch::COPY);
            let later = &plan[at + 1..];
            let capture = match (slot_field(request), request) {
                _ if !as_curl => None,
                (_, Request::Fetch(_)) if later.iter().any(|r| r.waits_on().any(|s| s == copy)) => {
                    Some(crate::batch::COPY)
                }
                (None, _) => (later.iter())
                    .flat_map(|later| later.waits_on())
                    .find_map(|slot| match slot {
                        Slot::FromAnswer(field) if slot != copy => Some(field),
                        _ => None,
                    }),
                (Some(own), _) if request.operation().makes_handle() => (later.iter())
                    .filter_map(slot_field)
                    .find(|field| *field != own),
                _ => None,
            };
            // A save's read of the version it saved runs only when the save succeeded.
            let read_back = as_curl
                && matches!(
                    (request, plan.get(at + 1)),
                    (Request::OnHandle(save, handle), Some(Request::OnHandle(Operation::Metadata, next)))
                        if save.is_save() && handle == next
                );
            self.request_described(launcher, request, as_curl, token, capture, read_back);
        }
    }

    /// One request of [`Reporter::plan_described`], as request line, headers and body, or as a
    /// curl command. A handle an earlier answer will give shows as `{handleId}`. curl reads the
    /// token from where safe-ad found it (`token`), never from the command line itself.
    /// `capture`: the field of the answer a later line needs, kept in a shell variable.
    /// `and_then`: the next line runs only if this one succeeds (a save, and the read after it).
    fn request_described(
        &self,
        launcher: &Launcher,
        request: &Request<Slot>,
        as_curl: bool,
        token: Option<&Source>,
        capture: Option<&'static str>,
        and_then: bool,
    ) {
        let url = launcher.url(request);
        let json = request.json();
        let raw = request.raw_body();
        let text = if as_curl {
            // Raw bytes (a sign key to get a handle for) go in through standard input, written
            // by printf's octal escapes, which every sh has.
            let mut text = match &raw {
                Some(bytes) => format!("printf '{}' | ", octal(bytes)),
                None => String::new(),
            };
            // --fail-with-body: a line whose request fails exits non-zero (22), as safe-ad
            // would, and still shows the launcher's error.
            text.push_str(&format!(
                "curl -sS --fail-with-body -X {} -H \"Authorization: Bearer {}\"",
                request.method(),
                curl_token(token)
            ));
            // A handle an earlier answer gives is a shell variable that line set, and curl
            // must not read its braces as a URL pattern. Unset (that line failed), the shell
            // stops here rather than send a request without the handle.
            // Every handle the line waits on (an append on a name's copy waits on two: the
            // copy and the data id).
            let fields: Vec<&str> = (request.waits_on())
                .filter_map(|slot| match slot {
                    Slot::FromAnswer(field) => Some(field),
                    Slot::Is(_) => None,
                })
                .collect();
            let quote = if fields.is_empty() { '\'' } else { '"' };
            let variables = |text: String| {
                fields.iter().fold(text, |text, field| {
                    let variable = shell_name(field);
                    text.replace(
                        &format!("{{{field}}}"),
                        &format!("${{{variable}:?the line before gave no {ANSWER_KEY}}}"),
                    )
                })
            };
            let url = variables(url);
            if let Some(json) = &json {
                // A body that carries a handle an answer gave (a filter's sign key) takes the
                // variable as the URL does; no JSON body here holds a double quote of its own
                // then (it is `[{handleId}]`).
                let (json, quote) = match json.contains(['{', '[']) && !fields.is_empty() {
                    true => (variables(json.clone()), '"'),
                    false => (json.clone(), '\''),
                };
                text.push_str(&format!(
                    " -H 'Content-Type: application/json' -d {quote}{json}{quote}"
                ));
            }
            if raw.is_some() {
                text.push_str(" -H 'Content-Type: application/octet-stream' --data-binary @-");
            }
            text.push_str(&format!(" {quote}{url}{quote}"));
            // Serialised bytes are not for a terminal: as base64, which `safe-ad decode` reads.
            if let Request::OnHandle(Operation::Serialise, _) = request {
                text.push_str(" | base64");
            }
            match capture {
                // The answer is shown as curl would show it; the launcher answers a new handle
                // as `{"handleId":8}` (whatever the variable is called): sed keeps the number,
                // and the script goes on with it.
                Some(field) => format!(
                    "answer=$({text}); printf '%s\\n' \"$answer\"; {}=$(printf '%s' \"$answer\" | sed -n 's/.*\"{ANSWER_KEY}\": *\\([0-9][0-9]*\\).*/\\1/p')\n",
                    shell_name(field)
                ),
                None => {
                    text.push_str(if and_then { " &&\n" } else { "\n" });
                    text
                }
            }
        } else {
            let mut text = format!("{} {url}\n", request.method());
            for (name, value) in launcher.shown_request_headers() {
                text.push_str(&format!("  {name}: {value}\n"));
            }
            if let Some(json) = &json {
                text.push_str(&format!(
                    "  content-type: application/json\n  body: {json}\n"
                ));
            }
            if let Some(bytes) = &raw {
                text.push_str(&format!(
                    "  content-type: application/octet-stream\n  body: {} bytes, in hex: {}\n",
                    bytes.len(),
                    serialised::hex(bytes)
                ));
            }
            text
        };
        self.out(&super::words(&text));
    }

    /// `--curl` with a token that no line can fetch again (standard input) or no token at all.
    pub fn curl_token_note(&self, source: Option<&Source>) {
        let why = match source {
            Some(Source::Stdin) => "the token came from standard input".to_string(),
            Some(Source::TokenPipe(path)) => format!(
                "the token came from {}, which cannot be read again (a pipe)",
                path.display()
            ),
            None => "no token was found".to_string(),
            Some(_) => return,
        };
        self.note(&format!(
            "{why}: export {} before running these lines",
            crate::settings::ENV_TOKEN
        ));
    }

    /// After a clear without `--save`: the change is only in the launcher's copy.
    pub fn save_note(&self, saved: &[Handle]) {
        const SHOWN: usize = 5;
        let mut list: Vec<String> = saved.iter().take(SHOWN).map(Handle::to_string).collect();
        if saved.len() > SHOWN {
            list.push("...".into());
        }
        self.note(&format!(
            "a clear changes only the launcher's copy; save it to the network with: safe-ad post {} (or use --save post)",
            list.join(" ")
        ));
    }

    /// `--verbose`: each request and its answer.
    pub fn exchanges(&self, launcher: &Launcher, steps: &[Step]) {
        // A save's read back (the version it saved) follows the save.
        let with_reads = steps
            .iter()
            .flat_map(|step| std::iter::once(step).chain(step.read_back.as_deref()));
        for step in with_reads.filter(|step| step.exchange.is_some()) {
            err(&exchange_text(launcher, step));
        }
    }
}

/// What [`Reporter::steps_told`] is told besides the steps: where the input came from, what the
/// procedure made, where its saves stand, and what the copy holds when a post is sent.
/// A request a procedure sends on the way to what was asked: a data id (of a handle, or of a
/// name), a fetch through one, the data id given back.
fn inner(request: &Request) -> bool {
    matches!(
        request,
        Request::DataIdOfName { .. }
            | Request::Fetch(_)
            | Request::DropDataId(_)
            | Request::OnHandle(Operation::DataId, _)
    )
}

struct Told<'a> {
    line: Option<u64>,
    making: Option<&'a Making>,
    saves: &'a [Saved],
    held: Option<u64>,
    /// A name's change whose save was refused: its steps say no `ok`.
    unsaved: bool,
    /// What the person asked ([`Reporter::steps`]).
    asked: Option<&'a str>,
}

/// The summary line, when there is one: for more than one handle, or when standard input was
/// left unread (its length is unknown). The total counts every handle given or read, whatever
/// became of it.
fn summary_text(
    tally: &Tally,
    cancelled: u64,
    not_started: u64,
    unread_input: bool,
) -> Option<String> {
    let total = tally.done() + cancelled + not_started;
    if total == 0 && !unread_input {
        // Only standard input can hold no handle at all; a silent exit 0 would hide it.
        return Some("0 handles: standard input held none\n".to_string());
    }
    if total < 2 && !unread_input {
        return None;
    }
    let mut line = format!(
        "{total} {}: {} ok, {} failed",
        if total == 1 { "handle" } else { "handles" },
        tally.ok,
        tally.failed
    );
    if cancelled > 0 {
        line.push_str(&format!(
            ", {cancelled} sent but not awaited (they may have taken effect)"
        ));
    }
    if not_started > 0 {
        line.push_str(&format!(", {not_started} not started"));
    }
    if unread_input {
        line.push_str(", the rest of standard input not read");
    }
    line.push('\n');
    Some(line)
}

/// The shell words that give the token to a `--curl` line, from where safe-ad found it: the
/// line must work when pasted, and must not contain the token itself.
fn curl_token(source: Option<&Source>) -> String {
    match source {
        Some(Source::ConfigFile(_)) => "$(safe-ad auth token)".to_string(),
        // A profile's name is letters, digits, `-`, `_` and `.` (`config_file`): no quoting.
        Some(Source::Profile(name, _)) => format!("$(safe-ad --profile {name} auth token)"),
        Some(Source::TokenFile(path)) => format!(
            "$(safe-ad --token-file {} auth token)",
            shell_quote(&path.display().to_string())
        ),
        Some(Source::Env(var)) => format!("${var}"),
        Some(Source::Flag(_) | Source::Stdin | Source::TokenPipe(_) | Source::Default) | None => {
            format!("${}", crate::settings::ENV_TOKEN)
        }
    }
}

/// The key of the launcher's answer that carries a new handle.
const ANSWER_KEY: &str = "handleId";

/// The answer field a request waits for, if it names a handle not known yet.
fn slot_field(request: &Request<Slot>) -> Option<&'static str> {
    [request.handle(), request.data_id()]
        .into_iter()
        .find_map(|slot| match slot {
            Some(Slot::FromAnswer(field)) => Some(field),
            _ => None,
        })
}

/// `dataIdHandle` as a shell variable: `DATA_ID_HANDLE`.
fn shell_name(field: &str) -> String {
    let mut name = String::new();
    for c in field.chars() {
        if c.is_ascii_uppercase() {
            name.push('_');
        }
        name.push(c.to_ascii_uppercase());
    }
    name
}

/// Bytes as printf's octal escapes (`\040\000...`), which printf writes back byte for byte.
fn octal(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("\\{byte:03o}")).collect()
}

/// A word the shell reads back as `text`.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The counts a fetch gave, as the info line after `open` and `reopen` shows them.
fn fetched_counts(fetched: &Fetched) -> String {
    format!(
        "version {}, data {}, deleted {}",
        fetched.version, fetched.data_length, fetched.deleted_data_length
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_every_handle_and_says_one_handle_in_the_singular() {
        let tally = |ok, failed| Tally {
            ok,
            failed,
            ..Tally::default()
        };
        assert_eq!(summary_text(&tally(1, 0), 0, 0, false), None);
        assert_eq!(
            summary_text(&tally(0, 0), 0, 0, false).as_deref(),
            Some("0 handles: standard input held none\n")
        );
        assert_eq!(
            summary_text(&tally(0, 1), 0, 2, false).as_deref(),
            Some("3 handles: 0 ok, 1 failed, 2 not started\n")
        );
        assert_eq!(
            summary_text(&tally(1, 0), 1, 0, false).as_deref(),
            Some(
                "2 handles: 1 ok, 0 failed, 1 sent but not awaited (they may have taken effect)\n"
            )
        );
        assert_eq!(
            summary_text(&tally(1, 0), 0, 0, true).as_deref(),
            Some("1 handle: 1 ok, 0 failed, the rest of standard input not read\n")
        );
    }
}
