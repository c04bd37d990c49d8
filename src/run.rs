//! Carrying out a parsed command line: check everything, then send, report, and pick the code.
//!
//! Command-line handles and settings are all checked before the first request, so a usage error
//! never leaves a batch half done. Handles then run through `batch` in input order; a failure
//! does not stop the rest (unless `--fail-fast`), and the exit code is that of the first handle
//! that failed.

use std::cell::Cell;
use std::ffi::OsString;
use std::time::Instant;

use futures_util::StreamExt;

use crate::batch::{self, Plan, Tally};
use crate::cli::{Cli, Command, ConfigCommand, GlobalArgs, SaveWith};
use crate::handle::Handle;
use crate::input::{self, Slot};
use crate::launcher::{Launcher, Operation};
use crate::outcome::{Class, Failure};
use crate::report::{self, Reporter};
use crate::settings::{self, Environment, Settings};

/// Runs the command and returns the process exit code.
pub fn run(cli: Cli) -> u8 {
    let reporter = Reporter::new(cli.global.quiet, cli.global.json);
    let global = &cli.global;
    let result = match &cli.command {
        Command::Put(args) => operate(Operation::Put, None, &args.handles, global, &reporter),
        Command::Post(args) => operate(Operation::Post, None, &args.handles, global, &reporter),
        Command::ClearData(args) => operate(
            Operation::ClearData,
            args.save,
            &args.handles.handles,
            global,
            &reporter,
        ),
        Command::ClearDeletedData(args) => operate(
            Operation::ClearDeletedData,
            args.save,
            &args.handles.handles,
            global,
            &reporter,
        ),
        Command::Metadata(args) => {
            operate(Operation::Metadata, None, &args.handles, global, &reporter)
        }
        Command::Auth(command) => with_settings(global, &reporter, |settings| {
            crate::auth::run(command, settings, &reporter)
        }),
        Command::Config(ConfigCommand::Show) => {
            with_settings(global, &reporter, crate::config_command::show)
        }
        Command::Config(command) => crate::config_command::run_on_file(
            command,
            &Environment::from_process(),
            &mut std::io::stdin().lock(),
            &reporter,
        ),
        Command::Completions { shell } => {
            report::out(&String::from_utf8_lossy(&crate::generate::completion(
                *shell,
            )));
            Ok(0)
        }
        #[cfg(feature = "emulator")]
        Command::Emulator(args) => Ok(match crate::emulator::run(args) {
            crate::emulator::Exit::Stopped => 0,
            crate::emulator::Exit::Usage => Class::Usage.exit_code(),
            crate::emulator::Exit::Failed => Class::Unexpected.exit_code(),
            crate::emulator::Exit::Command(code) => code,
        }),
    };
    match result {
        Ok(code) => code,
        Err(failure) => {
            reporter.failed(&failure);
            failure.exit_code()
        }
    }
}

fn operate(
    operation: Operation,
    save: Option<SaveWith>,
    raw_handles: &[OsString],
    global: &GlobalArgs,
    reporter: &Reporter,
) -> Result<u8, Failure> {
    let slots = input::parse_args(operation.name(), raw_handles)?;
    let reads_stdin = slots.contains(&Slot::Stdin);
    if reads_stdin && global.token_file.as_deref() == Some(std::path::Path::new("-")) {
        return Err(Failure::usage(
            "standard input cannot hold both the token (--token-file -) and the handles (-)",
        )
        .with_hint("give the token with --token-file PATH or SAFE_LAUNCHER_TOKEN"));
    }
    with_settings(global, reporter, |settings| {
        let plan = Plan {
            operation,
            save: save.map(|save| match save {
                SaveWith::Post => Operation::Post,
                SaveWith::Put => Operation::Put,
            }),
            jobs: settings.jobs,
            fail_fast: settings.fail_fast,
        };
        if settings.dry_run || settings.curl {
            return describe_requests(plan, slots, settings, reporter);
        }
        settings.token()?;
        run_batch(plan, slots, settings, reporter)
    })
}

/// Resolves the settings, says their warnings, and runs `command` with them.
fn with_settings(
    global: &GlobalArgs,
    reporter: &Reporter,
    command: impl FnOnce(&Settings) -> Result<u8, Failure>,
) -> Result<u8, Failure> {
    let settings = settings::resolve(
        global,
        &Environment::from_process(),
        &mut std::io::stdin().lock(),
    )?;
    for warning in &settings.warnings {
        reporter.warning(warning);
    }
    command(&settings)
}

/// A single-threaded runtime: one process drives one launcher connection at a time.
pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| internal(e.into()))
}

/// Runs `work` unless Ctrl-C comes first, which gives the interrupted failure.
pub(crate) async fn interruptible<T>(
    work: impl std::future::Future<Output = T>,
) -> Result<T, Failure> {
    tokio::select! {
        value = work => Ok(value),
        _ = tokio::signal::ctrl_c() => Err(Failure::new(Class::Interrupted, "interrupted")),
    }
}

fn run_batch(
    plan: Plan,
    slots: Vec<Slot>,
    settings: &Settings,
    reporter: &Reporter,
) -> Result<u8, Failure> {
    let launcher = Launcher::new(settings).map_err(internal)?;
    let started = Instant::now();
    // Without `-` the number of handles is known, so a stopped batch can say how many were left.
    let known_total = (!slots.contains(&Slot::Stdin)).then_some(slots.len() as u64);
    let mut tally = Tally::default();
    let mut saved: Vec<Handle> = Vec::new();
    let started_handles = Cell::new(0);
    let finished = runtime()?.block_on(async {
        let items = input::items(slots, tokio::io::stdin());
        let work = batch::run(
            plan,
            items,
            &launcher,
            settings.verbose,
            &started_handles,
            |record| {
                reporter.record(&record);
                tally.count(&record);
                if saved.len() < 6 && record.failure_code().is_none() {
                    if let Ok(handle) = record.item.handle {
                        if !saved.contains(&handle) {
                            saved.push(handle);
                        }
                    }
                }
                reporter.progress(&tally, known_total, started);
                !report::stdout_closed()
            },
        );
        interruptible(work).await
    });
    let stopped_early = !matches!(finished, Ok(false));
    let started_handles = started_handles.get();
    let not_started = match known_total {
        Some(total) => total.saturating_sub(started_handles),
        None => tally.not_started,
    };
    // Sent, but Ctrl-C came before their answers: they may have taken effect.
    let cancelled = started_handles.saturating_sub(tally.done());
    reporter.summary(
        &tally,
        cancelled,
        not_started,
        stopped_early && known_total.is_none(),
    );
    if let Err(mut failure) = finished {
        failure.message = "interrupted; no new requests were sent".to_string();
        return Err(failure);
    }
    if plan.operation.is_clear() && plan.save.is_none() && !saved.is_empty() {
        reporter.note(&format!(
            "a clear changes only the launcher's copy; save it to the network with: safe-ad post {} (or use --save post)",
            handle_list(&saved)
        ));
    }
    Ok(tally.first_failure.unwrap_or(0))
}

/// `--dry-run` and `--curl`: say what would be sent, send nothing.
fn describe_requests(
    plan: Plan,
    slots: Vec<Slot>,
    settings: &Settings,
    reporter: &Reporter,
) -> Result<u8, Failure> {
    let launcher = Launcher::new(settings).map_err(internal)?;
    let mut first_failure = None;
    runtime()?.block_on(async {
        let items = input::items(slots, tokio::io::stdin());
        futures_util::pin_mut!(items);
        while let Some(item) = items.next().await {
            let handle = match item.handle {
                Ok(handle) => handle,
                Err(_) => {
                    if let Some(failure) = item.problem(plan.operation.name()) {
                        reporter.failed(&failure);
                        first_failure.get_or_insert(failure.exit_code());
                    }
                    continue;
                }
            };
            for operation in plan.steps() {
                report::out(&if settings.curl {
                    report::curl_text(&launcher, operation, handle)
                } else {
                    report::dry_run_text(&launcher, operation, handle)
                });
            }
        }
    });
    Ok(first_failure.unwrap_or(0))
}

fn handle_list(handles: &[Handle]) -> String {
    const SHOWN: usize = 5;
    let mut list: Vec<String> = handles.iter().take(SHOWN).map(Handle::to_string).collect();
    if handles.len() > SHOWN {
        list.push("...".into());
    }
    list.join(" ")
}

pub(crate) fn internal(error: anyhow::Error) -> Failure {
    if let Some(failure) = error.downcast_ref::<Failure>() {
        return failure.clone();
    }
    Failure::new(Class::Unexpected, format!("{error:#}"))
}
