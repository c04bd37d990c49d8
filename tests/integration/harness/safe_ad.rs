//! The builder: `SafeAd::new().launcher(&url).args(["put", "1"]).run().code(0)`.
//!
//! [`SafeAd::run`] waits for the process (failing after [`DEADLINE`]), and checks that no piece of
//! [`TOKEN`] is in its stdout or stderr unless [`SafeAd::token_may_show`] says the command prints
//! it. [`SafeAd::spawn`] starts it for tests that stream, signal or watch it while it runs.

use std::cell::Cell;
use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use super::{signal, token_piece_in, wait_for_exit, Sandbox, DEADLINE, TOKEN};

/// How a run's standard input is given.
enum Input {
    /// These bytes, written by a thread, then the pipe is closed.
    Bytes(Vec<u8>),
    /// A file or FIFO the test holds.
    #[cfg(feature = "emulator")]
    From(Stdio),
}

/// One command to run: `safe-ad` (or a shell running it) in a sandbox, and what to check.
#[must_use = "a SafeAd does nothing until .run() or .spawn()"]
pub struct SafeAd {
    command: Command,
    /// The command line as a person would type it, for failure messages.
    shown: Vec<String>,
    case: Option<String>,
    stdin: Input,
    token_may_show: bool,
    stdout_head: Option<usize>,
    #[cfg(feature = "emulator")]
    stderr_unread: bool,
    #[cfg(feature = "emulator")]
    stderr_closed: bool,
    #[cfg(feature = "emulator")]
    stdout_unread: bool,
    /// The sandbox a `SafeAd::new()` made for itself, kept until the process ends.
    own_sandbox: Option<Sandbox>,
}

impl SafeAd {
    /// `safe-ad` in a fresh sandbox of its own.
    pub fn new() -> SafeAd {
        let sandbox = Sandbox::new();
        let mut safe_ad = sandbox.safe_ad();
        safe_ad.own_sandbox = Some(sandbox);
        safe_ad
    }

    /// `program` in `sandbox`, with an empty environment but for HOME, SAFE_AD_CONFIG_DIR,
    /// SAFE_AD_INTERRUPT_WAIT and the sandbox's TMPDIR ([`Sandbox::tmp`]); with a script, `program -c script`. The first Ctrl-C's wait is
    /// [`DEADLINE`] here, not a second: a test that lets a held request go after Ctrl-C and
    /// then sees the handles given back must not race a clock. The test of the one-second
    /// default takes the variable out.
    pub(super) fn in_sandbox(sandbox: &Sandbox, program: &Path, script: Option<&str>) -> SafeAd {
        let mut command = super::with_default_stop_signals(program);
        command
            .env_clear()
            .env("TMPDIR", sandbox.tmp())
            .env("HOME", sandbox.path())
            .env("SAFE_AD_CONFIG_DIR", sandbox.config_dir())
            .env("SAFE_AD_INTERRUPT_WAIT", DEADLINE.as_secs().to_string());
        let name = program.file_name().unwrap_or(program.as_os_str());
        let mut shown = vec![name.to_string_lossy().into_owned()];
        if let Some(script) = script {
            command.args(["-c", script]);
            shown.extend(["-c".to_owned(), format!("{script:?}")]);
        }
        SafeAd {
            command,
            shown,
            case: None,
            stdin: Input::Bytes(Vec::new()),
            token_may_show: false,
            stdout_head: None,
            #[cfg(feature = "emulator")]
            stderr_unread: false,
            #[cfg(feature = "emulator")]
            stderr_closed: false,
            #[cfg(feature = "emulator")]
            stdout_unread: false,
            own_sandbox: None,
        }
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> SafeAd {
        let arg = arg.as_ref();
        self.shown.push(shell_word(arg));
        self.command.arg(arg);
        self
    }

    pub fn args<I, S>(self, args: I) -> SafeAd
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        args.into_iter().fold(self, SafeAd::arg)
    }

    pub fn env(mut self, name: &str, value: impl AsRef<OsStr>) -> SafeAd {
        self.command.env(name, value);
        self
    }

    pub fn env_remove(mut self, name: &str) -> SafeAd {
        self.command.env_remove(name);
        self
    }

    /// Points safe-ad at `url` with the test token: `SAFE_LAUNCHER_URL` and `SAFE_LAUNCHER_TOKEN`.
    pub fn launcher(self, url: &str) -> SafeAd {
        self.env("SAFE_LAUNCHER_URL", url)
            .env("SAFE_LAUNCHER_TOKEN", TOKEN)
    }

    /// Runs it in `dir` (without this: the test's own working directory).
    #[cfg(feature = "emulator")]
    pub fn current_dir(mut self, dir: &Path) -> SafeAd {
        self.command.current_dir(dir);
        self
    }

    /// Runs it as the leader of a process group of its own, whose id is its pid: what it starts
    /// can be found, and ended, by the group.
    #[cfg(feature = "emulator")]
    pub fn own_process_group(mut self) -> SafeAd {
        std::os::unix::process::CommandExt::process_group(&mut self.command, 0);
        self
    }

    /// Standard input: these bytes, then end of file. (Without this: end of file at once.)
    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> SafeAd {
        self.stdin = Input::Bytes(bytes.into());
        self
    }

    /// Standard input from a file or FIFO the test holds.
    #[cfg(feature = "emulator")]
    pub fn stdin_from(mut self, input: impl Into<Stdio>) -> SafeAd {
        self.stdin = Input::From(input.into());
        self
    }

    /// Names the case in failure messages, for tests that run one command over many cases.
    pub fn case(mut self, case: impl std::fmt::Display) -> SafeAd {
        self.case = Some(case.to_string());
        self
    }

    /// Skips the check that no piece of [`TOKEN`] is in the output: for `auth token`, whose job is
    /// to print it, and the emulator, which prints the token it was given.
    pub fn token_may_show(mut self) -> SafeAd {
        self.token_may_show = true;
        self
    }

    /// Reads `lines` lines of stdout, then closes it, as `| head -n` does.
    pub fn stdout_head(mut self, lines: usize) -> SafeAd {
        self.stdout_head = Some(lines);
        self
    }

    /// Leaves stderr a pipe that nobody reads: it fills up and stays full.
    #[cfg(feature = "emulator")]
    pub fn stderr_unread(mut self) -> SafeAd {
        self.stderr_unread = true;
        self
    }

    /// Makes stderr a pipe whose reader is gone from the start, as a closed terminal is: every
    /// word written there fails, and the run's [`Output`] has no stderr.
    #[cfg(feature = "emulator")]
    pub fn stderr_closed(mut self) -> SafeAd {
        self.stderr_closed = true;
        self
    }

    /// Leaves stdout a pipe that nobody reads, held open: a reader that stopped reading (a
    /// pager left open, a stopped process). What was written there is not kept.
    #[cfg(feature = "emulator")]
    pub fn stdout_unread(mut self) -> SafeAd {
        self.stdout_unread = true;
        self
    }

    /// Runs it to the end (failing after the deadline) and checks that the token did not show.
    #[track_caller]
    pub fn run(self) -> Output {
        self.spawn().wait()
    }

    /// Starts it with stdout and stderr read on threads; see [`Running`].
    pub fn spawn(mut self) -> Running {
        let stdin = match std::mem::replace(&mut self.stdin, Input::Bytes(Vec::new())) {
            Input::Bytes(bytes) => {
                self.command.stdin(Stdio::piped());
                Some(bytes)
            }
            #[cfg(feature = "emulator")]
            Input::From(input) => {
                self.command.stdin(input);
                None
            }
        };
        let mut child = self
            .command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.shown.join(" ")));
        if let (Some(bytes), Some(mut pipe)) = (stdin, child.stdin.take()) {
            // A process that never reads its input closes the pipe; that is not an error here.
            std::thread::spawn(move || {
                let _ = pipe.write_all(&bytes);
            });
        }
        let stdout_pipe = child.stdout.take().expect("stdout");
        #[cfg(feature = "emulator")]
        let (stdout, unread_stdout) = if self.stdout_unread {
            (Capture::start(std::io::empty(), None), Some(stdout_pipe))
        } else {
            (Capture::start(stdout_pipe, self.stdout_head), None)
        };
        #[cfg(not(feature = "emulator"))]
        let stdout = Capture::start(stdout_pipe, self.stdout_head);
        let stderr_pipe = child.stderr.take().expect("stderr");
        #[cfg(feature = "emulator")]
        let (stderr, unread_stderr) = if self.stderr_unread {
            (None, Some(stderr_pipe))
        } else if self.stderr_closed {
            drop(stderr_pipe);
            (None, None)
        } else {
            (Some(Capture::start(stderr_pipe, None)), None)
        };
        #[cfg(not(feature = "emulator"))]
        let stderr = Some(Capture::start(stderr_pipe, None));
        let mut described = self.shown.join(" ");
        if let Some(case) = &self.case {
            described = format!("{case}: {described}");
        }
        Running {
            child: Some(child),
            stdout,
            stderr,
            #[cfg(feature = "emulator")]
            _unread_stderr: unread_stderr,
            #[cfg(feature = "emulator")]
            unread_stdout_pipe: unread_stdout,
            described,
            token_may_show: self.token_may_show,
            _sandbox: self.own_sandbox.take(),
        }
    }
}

/// An argument as a shell would need it typed, for messages.
fn shell_word(arg: &OsStr) -> String {
    let text = arg.to_string_lossy();
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@,+%".contains(c));
    if plain {
        text.into_owned()
    } else {
        format!("{text:?}")
    }
}

/// One output stream of a running process, read to its end on a thread.
struct Capture {
    shared: Arc<(Mutex<Captured>, Condvar)>,
    thread: Option<JoinHandle<()>>,
    /// How much of the stream [`Running::line`] has handed out.
    #[cfg(feature = "emulator")]
    taken: usize,
}

#[derive(Default)]
struct Captured {
    bytes: Vec<u8>,
    ended: bool,
}

impl Capture {
    /// Reads `pipe` on a thread until it ends, or until `head` lines have come, then closes it.
    fn start(mut pipe: impl Read + Send + 'static, head: Option<usize>) -> Capture {
        let shared = Arc::new((Mutex::new(Captured::default()), Condvar::new()));
        let sink = Arc::clone(&shared);
        let thread = std::thread::spawn(move || {
            let mut buffer = [0u8; 8192];
            loop {
                let n = match pipe.read(&mut buffer) {
                    Ok(0) | Err(_) => 0,
                    Ok(n) => n,
                };
                let (lock, changed) = &*sink;
                let mut captured = lock.lock().unwrap();
                captured.bytes.extend_from_slice(&buffer[..n]);
                let lines_done = head.and_then(|lines| {
                    captured
                        .bytes
                        .iter()
                        .enumerate()
                        .filter(|(_, byte)| **byte == b'\n')
                        .nth(lines.checked_sub(1)?)
                        .map(|(at, _)| at + 1)
                });
                if let Some(end) = lines_done {
                    captured.bytes.truncate(end);
                }
                if n == 0 || lines_done.is_some() {
                    captured.ended = true;
                    changed.notify_all();
                    return; // drops the pipe: a reader that leaves
                }
                changed.notify_all();
            }
        });
        Capture {
            shared,
            thread: Some(thread),
            #[cfg(feature = "emulator")]
            taken: 0,
        }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.shared.0.lock().unwrap().bytes).into_owned()
    }

    /// Waits until `ready` says yes to what has come so far (or the stream ended); returns the
    /// answer and whether the stream ended.
    fn wait_for<T>(&self, mut ready: impl FnMut(&[u8]) -> Option<T>) -> (Option<T>, bool) {
        let (lock, changed) = &*self.shared;
        let deadline = Instant::now() + DEADLINE;
        let mut captured = lock.lock().unwrap();
        loop {
            if let Some(found) = ready(&captured.bytes) {
                return (Some(found), captured.ended);
            }
            let now = Instant::now();
            if captured.ended || now >= deadline {
                return (None, captured.ended);
            }
            captured = changed.wait_timeout(captured, deadline - now).unwrap().0;
        }
    }

    fn finish(&mut self) -> Vec<u8> {
        if let Some(thread) = self.thread.take() {
            thread.join().expect("output reader");
        }
        std::mem::take(&mut self.shared.0.lock().unwrap().bytes)
    }
}

/// A safe-ad process that runs while the test watches: lines on stdout, words on stderr, its
/// pid; signals; and [`Running::wait`] for its [`Output`]. Killed if dropped while it runs.
pub struct Running {
    child: Option<Child>,
    stdout: Capture,
    /// `None` when stderr is left unread ([`SafeAd::stderr_unread`]).
    stderr: Option<Capture>,
    /// The unread stderr pipe, held open.
    #[cfg(feature = "emulator")]
    _unread_stderr: Option<std::process::ChildStderr>,
    /// The unread stdout pipe, held open ([`SafeAd::stdout_unread`]).
    #[cfg(feature = "emulator")]
    unread_stdout_pipe: Option<std::process::ChildStdout>,
    described: String,
    token_may_show: bool,
    _sandbox: Option<Sandbox>,
}

impl Running {
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// Waits until it has exited (failing after the deadline) while its output is still being
    /// read, and returns its status: for a test that looks at what it left behind (a process
    /// still holding its output open) before [`Running::wait`] collects the output.
    #[cfg(feature = "emulator")]
    #[track_caller]
    pub fn wait_for_exit(&mut self) -> ExitStatus {
        let child = self.child.as_mut().expect("running");
        wait_for_exit(child, DEADLINE, &self.described)
    }

    /// Whether it is still running.
    #[cfg(feature = "emulator")]
    pub fn is_running(&mut self) -> bool {
        let child = self.child.as_mut().expect("running");
        child.try_wait().expect("try_wait").is_none()
    }

    /// The next line of stdout (without its newline); fails if none comes.
    #[cfg(feature = "emulator")]
    #[track_caller]
    pub fn line(&mut self) -> String {
        let from = self.stdout.taken;
        let (line, ended) = self.stdout.wait_for(|bytes| {
            let rest = &bytes[from.min(bytes.len())..];
            let end = rest.iter().position(|byte| *byte == b'\n')?;
            Some(String::from_utf8_lossy(&rest[..end]).into_owned())
        });
        match line {
            Some(line) => {
                self.stdout.taken = from + line.len() + 1;
                line
            }
            None => panic!(
                "{}: no further line on stdout ({}); stderr so far:\n{}",
                self.described,
                if ended {
                    "it ended".to_owned()
                } else {
                    format!("waited {DEADLINE:?}")
                },
                self.stderr_so_far()
            ),
        }
    }

    /// Waits until stderr holds `needle`; returns stderr so far.
    #[track_caller]
    pub fn wait_for_stderr(&self, needle: &str) -> String {
        let Some(capture) = &self.stderr else {
            panic!("stderr is not read");
        };
        self.wait_for_text(capture, "stderr", needle)
    }

    /// Waits until stdout holds `needle`, whether or not a line has ended; returns stdout so far.
    #[cfg(feature = "emulator")]
    #[track_caller]
    pub fn wait_for_stdout(&self, needle: &str) -> String {
        self.wait_for_text(&self.stdout, "stdout", needle)
    }

    #[track_caller]
    fn wait_for_text(&self, capture: &Capture, stream: &str, needle: &str) -> String {
        let (text, ended) = capture.wait_for(|bytes| {
            let text = String::from_utf8_lossy(bytes);
            text.contains(needle).then(|| text.into_owned())
        });
        text.unwrap_or_else(|| {
            panic!(
                "{}: {stream} never showed {needle:?} ({}):\n{}",
                self.described,
                if ended { "it ended" } else { "deadline passed" },
                capture.text()
            )
        })
    }

    /// What it has written on stderr so far.
    #[cfg(feature = "emulator")]
    pub fn stderr_so_far(&self) -> String {
        match &self.stderr {
            Some(capture) => capture.text(),
            None => "(not read)".to_owned(),
        }
    }

    /// Sends SIGINT, what Ctrl-C sends, once safe-ad handles it (see [`signal`]).
    pub fn interrupt(&self) {
        signal(self.pid(), "INT");
    }

    /// Ctrl-C pressed a second time, by a person who read what the first one said: call it
    /// once the first one's line is out. A repeat of one signal within the repeat window counts
    /// once (`signals::REPEAT_WINDOW`), so this first lets the window pass: safe-ad counted the
    /// first before it printed the line, and takes the second no earlier than it is sent. Not
    /// a guess at timing: a lower bound, whatever the machine's load.
    #[cfg(feature = "emulator")]
    pub fn interrupt_again(&self) {
        std::thread::sleep(::safe_ad::test_support::signals::REPEAT_WINDOW);
        self.interrupt();
    }

    /// Its terminal closed: two SIGHUPs back to back ([`hang_up`]), one stop.
    #[cfg(feature = "emulator")]
    pub fn hang_up(&self) {
        use super::hang_up;
        hang_up(self.pid(), false);
    }

    /// Whether the stdout nobody reads ([`SafeAd::stdout_unread`]) is full: what it holds
    /// (FIONREAD) is its size (F_GETPIPE_SZ), which whole-page writes reach exactly; whatever
    /// writes to it next waits. `None` where the kernel does not say.
    #[cfg(feature = "emulator")]
    pub fn stdout_full(&self) -> Option<bool> {
        let pipe = self.unread_stdout_pipe.as_ref()?;
        let held = rustix::io::ioctl_fionread(pipe).ok()?;
        let size = rustix::pipe::fcntl_getpipe_size(pipe).ok()?;
        Some(held as usize >= size)
    }

    /// Whether its main thread sleeps waiting to write: in a write to a full pipe, or in poll(2),
    /// where safe-ad waits for an output stream to take more (it waits for the launcher in
    /// epoll, elsewhere). Read from `/proc/PID/wchan`, by the names Linux gives those waits
    /// (`0` while it runs); `None` where there is no such file.
    #[cfg(feature = "emulator")]
    pub fn waits_to_write(&self) -> Option<bool> {
        let wchan = std::fs::read_to_string(format!("/proc/{}/wchan", self.pid())).ok()?;
        let writing = [
            "pipe_write",
            "poll_schedule_timeout",
            "do_sys_poll",
            "do_poll",
        ];
        Some(writing.iter().any(|name| wchan.starts_with(name)))
    }

    /// Sends SIGTERM, once the process handles it (see [`signal`]).
    #[cfg(feature = "emulator")]
    pub fn terminate(&self) {
        signal(self.pid(), "TERM");
    }

    /// Waits for it to exit (failing after the deadline) and for its output to end; checks that
    /// the token did not show.
    #[track_caller]
    pub fn wait(mut self) -> Output {
        let mut child = self.child.take().expect("running");
        let status = wait_for_exit(&mut child, DEADLINE, &self.described);
        let stdout = self.stdout.finish();
        let stderr = self.stderr.as_mut().map_or_else(Vec::new, Capture::finish);
        let output = Output {
            status,
            stdout,
            stderr,
            described: std::mem::take(&mut self.described),
            code_checked: Cell::new(false),
        };
        if !self.token_may_show {
            if let Some(piece) = token_piece_in(&output.text()) {
                output.fail(&format!("the token leaked: {piece:?} is in the output"));
            }
        }
        output
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// What a finished run did. The assertions fail with the command line, exit status and both
/// streams; each returns `&Self` so they chain.
///
/// Every run's exit code must be looked at ([`Output::code`], [`Output::success`],
/// [`Output::exit_code`] or [`Output::status`]): an `Output` dropped without that fails the test,
/// so no run's result goes unchecked.
#[must_use = "check the run's exit code (.code(N) or .success())"]
pub struct Output {
    status: ExitStatus,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    described: String,
    /// Whether the exit code was looked at.
    code_checked: Cell<bool>,
}

impl Drop for Output {
    fn drop(&mut self) {
        // A failing test is already unwinding: a second panic would abort the run.
        if !self.code_checked.get() && !std::thread::panicking() {
            self.fail("this run's exit code was never checked (.code(N) or .success())");
        }
    }
}

impl Output {
    #[track_caller]
    fn fail(&self, problem: &str) -> ! {
        panic!(
            "{problem}\n  command: {}\n  exit: {}\n  stdout: {:?}\n  stderr:\n{}",
            self.described,
            self.status,
            String::from_utf8_lossy(&self.stdout),
            String::from_utf8_lossy(&self.stderr)
        )
    }

    /// The exit status, for a test that checks it itself.
    #[cfg(feature = "emulator")]
    pub fn status(&self) -> ExitStatus {
        self.code_checked.set(true);
        self.status
    }

    /// The exit code, for a test that checks it itself.
    pub fn exit_code(&self) -> Option<i32> {
        self.code_checked.set(true);
        self.status.code()
    }

    /// stdout as text; fails if it is not UTF-8.
    #[track_caller]
    pub fn stdout(&self) -> &str {
        std::str::from_utf8(&self.stdout)
            .unwrap_or_else(|e| self.fail(&format!("stdout is not UTF-8: {e}")))
    }

    /// stdout as it came, byte for byte.
    #[cfg(feature = "emulator")]
    pub fn stdout_bytes(&self) -> &[u8] {
        &self.stdout
    }

    /// stderr as text; fails if it is not UTF-8.
    #[track_caller]
    pub fn stderr(&self) -> &str {
        std::str::from_utf8(&self.stderr)
            .unwrap_or_else(|e| self.fail(&format!("stderr is not UTF-8: {e}")))
    }

    /// stdout and stderr together, as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        format!(
            "{}{}",
            String::from_utf8_lossy(&self.stdout),
            String::from_utf8_lossy(&self.stderr)
        )
    }

    #[track_caller]
    pub fn code(&self, code: i32) -> &Output {
        self.code_checked.set(true);
        if self.status.code() != Some(code) {
            self.fail(&format!("expected exit code {code}"));
        }
        self
    }

    #[track_caller]
    pub fn success(&self) -> &Output {
        self.code(0)
    }

    #[track_caller]
    pub fn stdout_is(&self, expected: &str) -> &Output {
        if self.stdout() != expected {
            self.fail(&format!("expected stdout {expected:?}"));
        }
        self
    }

    #[track_caller]
    pub fn stderr_is(&self, expected: &str) -> &Output {
        if self.stderr() != expected {
            self.fail(&format!("expected stderr {expected:?}"));
        }
        self
    }

    #[track_caller]
    pub fn stdout_has(&self, needle: &str) -> &Output {
        if !self.stdout().contains(needle) {
            self.fail(&format!("stdout lacks {needle:?}"));
        }
        self
    }

    #[track_caller]
    pub fn stderr_has(&self, needle: &str) -> &Output {
        if !self.stderr().contains(needle) {
            self.fail(&format!("stderr lacks {needle:?}"));
        }
        self
    }

    #[track_caller]
    pub fn stderr_lacks(&self, needle: &str) -> &Output {
        if self.stderr().contains(needle) {
            self.fail(&format!("stderr holds {needle:?}"));
        }
        self
    }

    /// Fails with `problem` and the whole output unless `holds`.
    #[track_caller]
    pub fn check(&self, holds: bool, problem: impl std::fmt::Display) -> &Output {
        if !holds {
            self.fail(&problem.to_string());
        }
        self
    }

    /// Every stdout line as JSON; fails unless each line is a JSON object and stdout ends in a
    /// newline.
    #[track_caller]
    pub fn json_lines(&self) -> Vec<serde_json::Value> {
        let stdout = self.stdout();
        self.check(
            stdout.is_empty() || stdout.ends_with('\n'),
            "stdout does not end in a newline",
        );
        stdout
            .lines()
            .map(
                |line| match serde_json::from_str::<serde_json::Value>(line) {
                    Ok(value) if value.is_object() => value,
                    Ok(_) => self.fail(&format!("stdout line is not a JSON object: {line:?}")),
                    Err(e) => self.fail(&format!("stdout line is not JSON ({e}): {line:?}")),
                },
            )
            .collect()
    }

    /// The requests behind the results of a `--json --verbose` run, in order: each result's
    /// `requests`, and a result without them (a run-level failure) as it is.
    #[track_caller]
    pub fn json_requests(&self) -> Vec<serde_json::Value> {
        let mut requests = Vec::new();
        for line in self.json_lines() {
            match line.get("requests").and_then(|r| r.as_array()) {
                Some(steps) => requests.extend(steps.iter().cloned()),
                None => requests.push(line),
            }
        }
        requests
    }
}
