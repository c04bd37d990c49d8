//! The signals that stop a run: SIGINT (Ctrl-C), SIGTERM (a CI runner's cancel, `kill`) and
//! SIGHUP (a closed terminal). Each is the same request to a command, "stop as Ctrl-C stops":
//! the commands never tell them apart, and comments elsewhere say "Ctrl-C" for any of them.
//!
//! Repeats of one signal within [`REPEAT_WINDOW`] count once: the two SIGHUPs of one closed
//! terminal are one stop, not two.
//!
//! They are counted for the whole run, from the moment the runtime starts ([`watch`], which
//! `runtime::finish` calls first) to the exit, by one task per signal. A watch over some work
//! ([`after`]) then only compares counts, so a signal that lands between two watches (after one
//! request's watch ended, before the next one's began) is still seen by the next: counted, not
//! lost. Code that blocks the runtime's thread, where the counting tasks run (a write to a
//! reader that stopped reading), sees a flag that the signal's handler sets itself
//! ([`came_any`]). Once a signal has a handler it no longer ends the process by itself, which is
//! why the handlers are set up with the runtime, where every command that sends watches for
//! them, and not before: a run that sends nothing keeps the default actions. A signal the
//! process was started with set to be ignored (`nohup`, a background job of a script, `trap ''
//! TERM`) stays ignored: that is its starter's wish. (On Linux, `/proc/self/status` says which
//! are; elsewhere, where nothing safe does, all three are handled.)
//!
//! The handlers are set up once per process. The counting tasks are once per runtime: a
//! `shell` runs a runtime for each line that sends, and each starts them again ([`unwatch`]).
//! The count is for the whole process: the shell starts no line after a signal.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use tokio::signal::unix::{signal, SignalKind};
use tokio::sync::Notify;

/// How long after a stop signal is counted a repeat of the same signal counts as the same one:
/// a closed terminal brings two SIGHUPs a moment apart (the terminal's, then its shell's passing
/// it on to its jobs), which are one hangup, not "stopped twice"; a person's second Ctrl-C
/// comes after they read what the first one said. A different signal counts at once, and the
/// same one after this time counts as a second. Measured as the counting task takes each
/// signal, which is at once: the runtime's thread waits on the network nearly all the time.
pub const REPEAT_WINDOW: Duration = Duration::from_millis(500);

/// Stop signals received so far in this run.
static SEEN: AtomicU64 = AtomicU64::new(0);
/// Woken at each one.
static CAME: Notify = Notify::const_new();
/// Whether the counting tasks run.
static WATCHING: AtomicBool = AtomicBool::new(false);
/// Set by SIGTERM and SIGHUP once an interactive shell asked ([`leaving`]).
static LEAVE: std::sync::LazyLock<Arc<AtomicBool>> =
    std::sync::LazyLock::new(|| Arc::new(AtomicBool::new(false)));
/// Set by the handlers themselves as a signal arrives (see [`came_any`]).
static CAME_ANY: OnceLock<Arc<AtomicBool>> = OnceLock::new();
/// How long, after the first signal, the run waits for what is in flight, in milliseconds
/// ([`wait`]).
static WAIT_MILLIS: AtomicU64 =
    AtomicU64::new((crate::values::DEFAULT_INTERRUPT_WAIT_SECS * 1000.0) as u64);

/// Sets how long, after the first signal, the run waits for what is in flight: the requests
/// (each `batch::Stop` carries it too) and output a reader has not taken. Set once the
/// settings are read (`SAFE_AD_INTERRUPT_WAIT`); until then, the default.
pub fn set_wait(wait: Duration) {
    let millis = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX);
    WAIT_MILLIS.store(millis, Ordering::SeqCst);
}

/// How long, after the first signal, the run waits for what is in flight ([`set_wait`]).
pub fn wait() -> Duration {
    Duration::from_millis(WAIT_MILLIS.load(Ordering::SeqCst))
}

/// Starts counting the stop signals, once per process; inside the runtime. A signal whose
/// handler cannot be set up keeps its default action (the process ends), which is no worse than
/// before; one ignored at start stays ignored.
pub fn watch() {
    if WATCHING.swap(true, Ordering::SeqCst) {
        return;
    }
    let came = Arc::clone(CAME_ANY.get_or_init(|| Arc::new(AtomicBool::new(false))));
    let ignored = ignored_at_start();
    for kind in [
        SignalKind::interrupt(),
        SignalKind::terminate(),
        SignalKind::hangup(),
    ] {
        let number = kind.as_raw_value();
        if (1..=64).contains(&number) && ignored & (1 << (number - 1)) != 0 {
            continue;
        }
        // The flag first: a signal's actions run in the order they were set up, and the
        // counting task below counts only a signal whose flag is already set. Set up once per
        // process ([`flag_once`]), however many runtimes a shell starts.
        let flag = flag_once(number, &came);
        let Ok(mut received) = signal(kind) else {
            // No counting task: the signal keeps its default action, not a flag no one reads.
            if let Some(id) = flag {
                signal_hook::low_level::unregister(id);
                FLAGGED.fetch_and(!(1 << number), Ordering::SeqCst);
            }
            continue;
        };
        let came = Arc::clone(&came);
        tokio::spawn(async move {
            // When this signal was last counted: a repeat within [`REPEAT_WINDOW`] is the same.
            let mut counted: Option<Instant> = None;
            while received.recv().await.is_some() {
                // tokio hands a runtime a signal that came while it did not run (between two
                // of a shell's lines, on the session's runtime); the flag, set by the signal
                // itself and cleared by [`forget`], tells one the shell already dealt with
                // from a new one.
                if !came.load(Ordering::SeqCst) {
                    continue;
                }
                let now = Instant::now();
                if counted.is_some_and(|at| now.duration_since(at) < REPEAT_WINDOW) {
                    continue;
                }
                counted = Some(now);
                SEEN.fetch_add(1, Ordering::SeqCst);
                CAME.notify_waiters();
            }
        });
    }
}

/// The signals whose [`CAME_ANY`] flag is set up, as a mask (bit N for signal N).
static FLAGGED: AtomicU64 = AtomicU64::new(0);

/// Sets signal `number` to set `came` from now on, once per process: the id of the action when
/// this call set it up.
fn flag_once(number: i32, came: &Arc<AtomicBool>) -> Option<signal_hook::SigId> {
    let bit = 1u64 << number;
    if FLAGGED.fetch_or(bit, Ordering::SeqCst) & bit != 0 {
        return None;
    }
    match signal_hook::flag::register(number, Arc::clone(came)) {
        Ok(id) => Some(id),
        Err(_) => {
            FLAGGED.fetch_and(!bit, Ordering::SeqCst);
            None
        }
    }
}

/// Makes the stop signals set the flag [`came_any`] reads from now on, before any runtime
/// starts: `shell` runs many commands in one process, and a signal between two of them, or
/// during one that sends nothing, must end the script as it ends a line (exit 130), not the
/// process. One ignored at start stays ignored.
pub fn hold() {
    let came = Arc::clone(CAME_ANY.get_or_init(|| Arc::new(AtomicBool::new(false))));
    for number in heeded(&STOP_SIGNALS) {
        let _ = flag_once(number, &came);
    }
}

/// Makes a write past the file-size limit (`ulimit -f`, RLIMIT_FSIZE) the write error it is
/// (EFBIG, "File too large") rather than the end of the process: SIGXFSZ's default action kills
/// it mid-write, leaving a half-written temporary file beside the file it was to replace and
/// exit 153. With a handler (one that only sets a flag nobody reads) the write fails, and the
/// writer says so, removes its temporary file and leaves the old one (`atomic_file`). Set once,
/// first thing in a run, for every command: any of them may write a file (stdout sent to one,
/// `capture -o`, `emulator export`, the config file, the emulator's `--state` and `--log`). A
/// handler, not SIG_IGN, so that a program this process starts (`emulator -- COMMAND`, `man`'s
/// pager) gets the default action back as it starts; one ignored at start stays ignored (the
/// write fails the same way), and its programs inherit that, as they would have.
pub fn file_size_limit_as_error() {
    for number in heeded(&[signal_hook::consts::SIGXFSZ]) {
        // A handler that cannot be set leaves the default action, no worse than before.
        let _ = signal_hook::flag::register(number, Arc::new(AtomicBool::new(false)));
    }
}

/// Forgets the stop signals seen so far: an interactive `shell` returns to its prompt after
/// Ctrl-C stopped a line, and its next line starts as a fresh command line would, with none
/// seen. Called between lines only, when no runtime counts.
pub fn forget() {
    SEEN.store(0, Ordering::SeqCst);
    if let Some(came) = CAME_ANY.get() {
        came.store(false, Ordering::SeqCst);
    }
}

/// A stream that receives a byte at each SIGTERM and SIGHUP from now on: the two that ask an
/// interactive `shell` to end, where Ctrl-C (SIGINT) only stops the line it runs. The shell's
/// prompt blocks in a read that a handled signal does not end, so a thread of its own waits on
/// this. One ignored at start stays ignored.
pub fn leaving() -> std::io::Result<std::os::unix::net::UnixStream> {
    let (read, write) = std::os::unix::net::UnixStream::pair()?;
    for number in heeded(&[signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP]) {
        signal_hook::flag::register(number, Arc::clone(&LEAVE))?;
        signal_hook::low_level::pipe::register(number, write.try_clone()?)?;
    }
    Ok(read)
}

/// A stream that receives a byte at each stop signal (SIGINT, SIGTERM, SIGHUP) from now on:
/// a `shell` waiting for the next line of a script on a pipe waits on it too, as a handled
/// signal does not end the wait. One ignored at start stays ignored.
pub fn stops() -> std::io::Result<std::os::unix::net::UnixStream> {
    let (read, write) = std::os::unix::net::UnixStream::pair()?;
    for number in heeded(&STOP_SIGNALS) {
        signal_hook::low_level::pipe::register(number, write.try_clone()?)?;
    }
    Ok(read)
}

/// Whether a SIGTERM or SIGHUP came since [`leaving`] was set up: the interactive shell ends.
pub fn leave_asked() -> bool {
    LEAVE.load(Ordering::SeqCst)
}

/// The runtime that counted the signals has ended (`runtime::finish` for a command line, a
/// `shell` session's end), and its counting tasks with it: the next runtime in this process
/// starts its own. The count stays: a signal already seen is not forgotten.
pub fn unwatch() {
    WATCHING.store(false, Ordering::SeqCst);
}

/// The terminal handed to a program this process starts and waits for (`man` and its pager),
/// as git hands it to its pager. Made before the program is started, so no signal falls between
/// the two. While it runs, the keyboard's signals (SIGINT from Ctrl-C, SIGQUIT from Ctrl-\\)
/// pass this process by: the terminal sends them to the program too, and they are its (it gets
/// its own default actions back as it starts). SIGTERM and SIGHUP, which may come to this process
/// alone (`kill`, a CI runner's cancel), are passed on to the program, so it stops with the run
/// rather than hold the terminal after it; a second one kills it. A signal ignored at start stays
/// ignored, and the program inherits that.
pub struct HandedOver {
    /// Set by a SIGTERM or SIGHUP while the program runs.
    stop: Arc<AtomicBool>,
}

/// How a program the terminal was handed to ended ([`HandedOver::wait`]).
pub struct Ended {
    pub status: std::process::ExitStatus,
    /// A SIGTERM or SIGHUP came to this process while it ran (and was passed on).
    pub stopped: bool,
}

impl HandedOver {
    /// Sets the handlers up; then start the program and [`wait`](Self::wait) for it.
    pub fn new() -> HandedOver {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
        let ignored = ignored_at_start();
        let stop = Arc::new(AtomicBool::new(false));
        // What a write blocked later in this run (a reader that stopped reading) looks at.
        let came = Arc::clone(CAME_ANY.get_or_init(|| Arc::new(AtomicBool::new(false))));
        let quit = Arc::new(AtomicBool::new(false));
        for (number, flags) in [
            (SIGINT, vec![Arc::clone(&came)]),
            (SIGQUIT, vec![quit]),
            (SIGTERM, vec![Arc::clone(&stop), Arc::clone(&came)]),
            (SIGHUP, vec![Arc::clone(&stop), Arc::clone(&came)]),
        ] {
            if ignored & (1 << (number - 1)) != 0 {
                continue;
            }
            // The handlers stay for the rest of the run, which only reports how the program
            // ended: signal-hook never gives a signal its default action back.
            for flag in flags {
                let _ = signal_hook::flag::register(number, flag);
            }
        }
        HandedOver { stop }
    }

    /// Waits for `child` to end, passing SIGTERM on to it at the first stop signal and killing
    /// it at the second. The child is asked every 20 ms rather than waited on: a blocking wait
    /// could not also watch the flag, and 20 ms is nothing to a person at a pager.
    pub fn wait(self, child: &mut std::process::Child) -> std::io::Result<Ended> {
        let mut passed_on = 0;
        loop {
            if let Some(status) = child.try_wait()? {
                return Ok(Ended {
                    status,
                    stopped: passed_on > 0,
                });
            }
            if self.stop.swap(false, Ordering::SeqCst) {
                passed_on += 1;
                match passed_on {
                    1 => send_to(child.id(), rustix::process::Signal::TERM),
                    _ => {
                        let _ = child.kill();
                    }
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Sends `signal` to the process `pid`; one already gone is no error.
pub fn send_to(pid: u32, signal: rustix::process::Signal) {
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process(pid, signal);
    }
}

/// The stop signals: each stops a command as Ctrl-C does.
const STOP_SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// Those of `signals` this process was not started with ignored: one ignored at start stays
/// ignored (a background job's SIGINT, `nohup`'s SIGHUP), as the shell that started it meant.
fn heeded(signals: &[i32]) -> impl Iterator<Item = i32> + '_ {
    let ignored = ignored_at_start();
    (signals.iter().copied()).filter(move |number| ignored & (1 << (number - 1)) == 0)
}

/// The signals this process was started with set to be ignored, as a mask (bit N − 1 for signal
/// N): `SigIgn` in `/proc/self/status`, where there is one (Linux); none known elsewhere.
fn ignored_at_start() -> u64 {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return 0;
    };
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .unwrap_or(0)
}

/// Whether a stop signal came, for code that blocks the runtime's thread (and so the counting
/// tasks): the flag the handlers set as the signal arrives.
pub fn came_any() -> bool {
    CAME_ANY
        .get()
        .is_some_and(|came| came.load(Ordering::SeqCst))
        || seen() > 0
}

/// How many stop signals came so far.
pub fn seen() -> u64 {
    SEEN.load(Ordering::SeqCst)
}

/// Resolves once more than `count` stop signals have come in this run: `after(0)` at the
/// first (at once if one came already), `after(1)` at the second.
pub async fn after(count: u64) {
    watch();
    loop {
        let came = CAME.notified();
        tokio::pin!(came);
        // Registered before the count is read, so a signal between the two still wakes it.
        came.as_mut().enable();
        if seen() > count {
            return;
        }
        came.await;
    }
}
