//! Carrying out a parsed command line: check everything, then send, report, and pick the code.
//!
//! Handles and settings are all checked before the first request, so a usage error never leaves
//! a batch half done. Handles then run in the order given over one kept-alive connection; a
//! failure does not stop the rest, and the exit code is that of the first handle that failed.

use std::ffi::OsString;

use crate::cli::{Cli, Command, ConfigCommand, GlobalArgs};
use crate::handle::{self, Handle};
use crate::launcher::{Launcher, Operation};
use crate::outcome::{self, Class, Failure};
use crate::report::{self, Reporter};
use crate::sanitize;
use crate::settings::{self, Environment, Settings};

/// Runs the command and returns the process exit code.
pub fn run(cli: Cli) -> u8 {
    let reporter = Reporter::new(cli.global.quiet);
    let global = &cli.global;
    let result = match &cli.command {
        Command::Put(args) => operate(Operation::Put, &args.handles, global, &reporter),
        Command::Post(args) => operate(Operation::Post, &args.handles, global, &reporter),
        Command::ClearData(args) => operate(Operation::ClearData, &args.handles, global, &reporter),
        Command::ClearDeletedData(args) => operate(
            Operation::ClearDeletedData,
            &args.handles,
            global,
            &reporter,
        ),
        Command::Metadata(args) => operate(Operation::Metadata, &args.handles, global, &reporter),
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
        Command::Emulator(args) => crate::emulator::run(args)
            .map(|code| u8::try_from(code).unwrap_or(1))
            .map_err(internal),
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
    raw_handles: &[OsString],
    global: &GlobalArgs,
    reporter: &Reporter,
) -> Result<u8, Failure> {
    let handles = parse_handles(operation, raw_handles)?;
    with_settings(global, reporter, |settings| {
        run_handles(operation, &handles, settings, reporter)
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

fn run_handles(
    operation: Operation,
    handles: &[Handle],
    settings: &Settings,
    reporter: &Reporter,
) -> Result<u8, Failure> {
    settings.token()?;
    let launcher = Launcher::new(settings).map_err(internal)?;
    let base = settings.launcher.base().to_string();
    runtime()?.block_on(async {
        let mut done = 0usize;
        let mut first_failure: Option<u8> = None;
        let work = async {
            for &handle in handles {
                match launcher.send(operation, handle).await {
                    Ok(answer) => match outcome::judge_answer(&answer) {
                        Ok(()) if operation == Operation::Metadata => {
                            match outcome::judge_metadata(&answer) {
                                Ok(metadata) => reporter.metadata(handle, &metadata),
                                Err(failure) => {
                                    reporter.operation_failed(operation, handle, &failure);
                                    first_failure.get_or_insert(failure.exit_code());
                                }
                            }
                        }
                        Ok(()) => reporter.ok(operation, handle),
                        Err(failure) => {
                            reporter.operation_failed(operation, handle, &failure);
                            first_failure.get_or_insert(failure.exit_code());
                        }
                    },
                    Err(no_answer) => {
                        let failure = outcome::judge_no_answer(&no_answer, Some(operation), &base);
                        reporter.operation_failed(operation, handle, &failure);
                        first_failure.get_or_insert(failure.exit_code());
                    }
                }
                done += 1;
            }
        };
        if let Err(mut failure) = interruptible(work).await {
            failure.message = format!("interrupted: {done} of {} handles done", handles.len());
            return Err(failure);
        }
        if operation.is_clear() && first_failure.is_none() {
            reporter.note(&format!(
                "a clear changes only the launcher's copy; save it to the network with: safe-ad post {}",
                handle_list(handles)
            ));
        }
        Ok(first_failure.unwrap_or(0))
    })
}

/// Every handle is checked before anything is sent.
fn parse_handles(operation: Operation, raw: &[OsString]) -> Result<Vec<Handle>, Failure> {
    raw.iter()
        .map(|raw| {
            let text = raw.to_str().unwrap_or("\u{fffd}");
            Handle::parse(text).map_err(|problem| {
                Failure::usage(format!(
                    "invalid handle '{}' for {}: {}",
                    sanitize::line(raw.as_encoded_bytes(), 80),
                    operation.name(),
                    problem.describe()
                ))
                .with_hint(format!(
                    "a handle is plain decimal digits, {}; nothing was sent",
                    handle::RANGE
                ))
            })
        })
        .collect()
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
