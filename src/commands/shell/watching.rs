//! `.watch` in the interactive shell: `safe-ad watch --json` run beside the prompt, its changes
//! printed above the line being typed (the line editor's printer redraws the line after each),
//! until `.unwatch` or the session's end stops it.
//!
//! Each watch is a process of its own (this binary, `watch --json ...`) rather than a thread:
//! a command's output, stop signals and captured stdout are the process's, and a watch running
//! beside the lines must share none of them. It runs in a process group of its own, so the
//! Ctrl-C that stops a line leaves it running; it is stopped with SIGTERM, which it answers as
//! every command does (its handles given back), and waited for.

use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::cli::ClientOptions;
use crate::outcome::Failure;
use crate::report::{self, Reporter};

/// Where a watch's lines go: the line editor's printer, which writes above the prompt.
pub(super) type Printer = Arc<Mutex<dyn FnMut(String) + Send>>;

/// One watch: its number in the session, what it watches, and its process.
struct Watch {
    number: usize,
    what: String,
    child: Child,
    readers: Vec<std::thread::JoinHandle<()>>,
    /// Set as the shell stops it: what it says as it stops (interrupted, its handles given
    /// back) is the shell's doing, not news; but handles it could not give back are.
    stopping: Arc<AtomicBool>,
    /// Set when it printed handles it left (`--json`'s `left_behind`).
    left: Arc<AtomicBool>,
}

/// The session's watches.
#[derive(Default)]
pub(super) struct Watches {
    running: Vec<Watch>,
    started: usize,
    /// A watch of the session left handles (it named them): the session's end says so in its
    /// exit code, however the watch ended.
    left: bool,
}

impl Watches {
    /// `.watch WORDS...`: starts `watch --json WORDS...` with the shell's launcher options;
    /// `.watch` alone lists those running.
    pub(super) fn start(
        &mut self,
        words: &[String],
        options: &ClientOptions,
        printer: Printer,
        reporter: &Reporter,
    ) -> Result<(), Failure> {
        self.reap();
        if words.is_empty() {
            let running: Vec<(usize, String)> = (self.running.iter())
                .map(|watch| (watch.number, watch.what.clone()))
                .collect();
            reporter.watches(&running);
            return Ok(());
        }
        if words.iter().any(|word| word == "--help" || word == "-h") {
            return Err(Failure::usage(
                ".watch takes what `watch` takes (HANDLE or NAME, --interval, --count); `help watch` says more",
            ));
        }
        let mut args: Vec<OsString> = vec!["watch".into(), "--json".into()];
        args.extend(child_options(options, words, false));
        args.extend(words.iter().map(OsString::from));
        checked(&args)?;
        let program = std::env::current_exe().map_err(|e| {
            Failure::usage(format!(".watch cannot find safe-ad's own program: {e}"))
        })?;
        let mut command = Command::new(program);
        command
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Out of the terminal's process group: Ctrl-C is for the line that runs.
            .process_group(0);
        let mut child = command
            .spawn()
            .map_err(|e| Failure::usage(format!(".watch could not start `safe-ad watch`: {e}")))?;
        self.started += 1;
        let number = self.started;
        let what = words.join(" ");
        let stopping = Arc::new(AtomicBool::new(false));
        let left = Arc::new(AtomicBool::new(false));
        let mut readers = Vec::new();
        let mut read = |from: Box<dyn std::io::Read + Send>, words: fn(usize, &str) -> String| {
            let printer = Arc::clone(&printer);
            let stopping = Arc::clone(&stopping);
            let left = Arc::clone(&left);
            readers.push(std::thread::spawn(move || {
                for line in BufReader::new(from).lines() {
                    let Ok(line) = line else { break };
                    let leaves = report::watch_left_handles(&line);
                    if leaves {
                        left.store(true, Ordering::SeqCst);
                    }
                    if stopping.load(Ordering::SeqCst) && !leaves {
                        continue;
                    }
                    (printer.lock().unwrap_or_else(PoisonError::into_inner))(words(number, &line));
                }
            }));
        };
        if let Some(stdout) = child.stdout.take() {
            read(Box::new(stdout), report::watch_event_words);
        }
        if let Some(stderr) = child.stderr.take() {
            read(Box::new(stderr), report::watch_said);
        }
        reporter.watch_started(number, &what);
        self.running.push(Watch {
            number,
            what,
            child,
            readers,
            stopping,
            left,
        });
        Ok(())
    }

    /// `.unwatch [N]`: stops watch N, or every watch.
    pub(super) fn stop(
        &mut self,
        which: Option<usize>,
        reporter: &Reporter,
    ) -> Result<(), Failure> {
        self.reap();
        let (stopping, keep): (Vec<Watch>, Vec<Watch>) = std::mem::take(&mut self.running)
            .into_iter()
            .partition(|watch| which.is_none_or(|n| n == watch.number));
        self.running = keep;
        if let (Some(n), true) = (which, stopping.is_empty()) {
            return Err(Failure::usage(format!(
                "no watch {n} is running: `.watch` lists them"
            )));
        }
        for watch in stopping {
            let number = watch.number;
            self.left |= stop_one(watch);
            reporter.watch_stopped(number);
        }
        Ok(())
    }

    /// The session ends: every watch is stopped and waited for, so none outlives it with
    /// handles of its own. Whether any watch left handles (it named them as it stopped).
    pub(super) fn stop_all(&mut self) -> bool {
        self.reap();
        for watch in std::mem::take(&mut self.running) {
            self.left |= stop_one(watch);
        }
        self.left
    }

    /// Forgets watches whose process ended by itself (`--count`, a launcher gone); what they
    /// said was printed as they said it.
    fn reap(&mut self) {
        let mut left = false;
        self.running.retain_mut(|watch| {
            let ended = matches!(watch.child.try_wait(), Ok(Some(_)));
            left |= ended && watch.left.load(Ordering::SeqCst);
            !ended
        });
        self.left |= left;
    }
}

/// The watch's command line (after the program's name) checked as its process would check
/// its words before sending: one it would refuse is the `.watch`'s usage error (exit 2), and no
/// process starts (it printed `watch N started`, then the process's refusal, and the prompt's
/// code stayed 0).
fn checked(args: &[OsString]) -> Result<(), Failure> {
    use clap::FromArgMatches;
    let refused = |why: &str| {
        Failure::usage(format!(".watch: {why}"))
            .with_hint(".watch takes what `watch` takes (HANDLE or NAME, --interval, --count); `help watch` says more")
    };
    let line = std::iter::once(OsString::from("safe-ad")).chain(args.iter().cloned());
    let matches = crate::cli::command()
        .try_get_matches_from(line)
        .map_err(|error| {
            let text = error.render().to_string();
            let first = text.lines().next().unwrap_or_default();
            refused(first.strip_prefix("error: ").unwrap_or(first))
        })?;
    match crate::cli::Cli::from_arg_matches(&matches) {
        Ok(crate::cli::Cli {
            command: crate::cli::Command::Watch(watch),
        }) => crate::args::parse_target(&watch.handle, "watch")
            .map(drop)
            .map_err(|failure| refused(&failure.message)),
        Ok(_) => Err(refused("these words are no watch")),
        Err(error) => Err(refused(&error.to_string())),
    }
}

/// SIGTERM, which a watch answers as Ctrl-C (its handles given back), then a wait for it and
/// for what it still prints; whether it left handles.
fn stop_one(mut watch: Watch) -> bool {
    watch.stopping.store(true, Ordering::SeqCst);
    if let Ok(None) = watch.child.try_wait() {
        crate::signals::send_to(watch.child.id(), rustix::process::Signal::TERM);
    }
    let _ = watch.child.wait();
    for reader in watch.readers {
        let _ = reader.join();
    }
    watch.left.load(Ordering::SeqCst)
}

/// The shell's own options, for the command line of a command it runs as a process of its own
/// (a `.watch`, the `drop` that ends a session), but those its words give: where the launcher
/// is and how to reach it, and with `output`, how to print (a watch prints `--json`, which
/// the shell reads: never filtered by the session's `--jq`).
pub(super) fn child_options(
    options: &ClientOptions,
    words: &[String],
    output: bool,
) -> Vec<OsString> {
    let gives = |long: &str| {
        words
            .iter()
            .any(|word| word == long || word.starts_with(&format!("{long}=")))
    };
    let mut args: Vec<OsString> = Vec::new();
    let mut pair = |long: &str, value: Option<OsString>| {
        if let Some(value) = value.filter(|_| !gives(long)) {
            args.push(long.into());
            args.push(value);
        }
    };
    // The session's profile (`.profile NAME` too), so the watch reaches its lines' launcher.
    pair("--profile", options.profile.clone().map(Into::into));
    pair(
        "--launcher-url",
        options.launcher_url.clone().map(Into::into),
    );
    pair("--token-file", options.token_file.clone().map(Into::into));
    pair("--timeout", options.timeout.map(|t| t.to_string().into()));
    pair("--retries", options.retries.map(|r| r.to_string().into()));
    let color = options.color.filter(|_| output).map(|color| {
        use clap::ValueEnum;
        color
            .to_possible_value()
            .map_or_else(String::new, |value| value.get_name().to_string())
            .into()
    });
    pair("--color", color);
    // The session's --jq filters what the drop at its end prints, as it filters its lines'.
    pair(
        "--jq",
        options.jq.clone().filter(|_| output).map(Into::into),
    );
    let flags = [
        ("--allow-insecure-http", options.allow_insecure_http),
        ("--quiet", output && options.quiet),
        ("--json", output && options.json),
        ("--verbose", output && options.verbose),
    ];
    for (flag, on) in flags {
        if on && !gives(flag) {
            args.push(flag.into());
        }
    }
    args
}
