//! Writing the two output streams so that a reader that stopped reading (a pager left open, a
//! stopped process, `2>&1 | less` waiting on its person) cannot hold a run past a stop signal:
//! a write blocked on a full pipe would never see one. Until a signal comes, a write waits as a
//! plain write does; once one came and the reader has taken nothing for the stop's wait
//! (`SAFE_AD_INTERRUPT_WAIT`), the rest is not written.

use std::os::fd::AsFd;
use std::time::Instant;

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::io::Errno;

/// What a write came to, when it did not fail.
pub(super) enum Wrote {
    Whole,
    /// A stop signal came, and the reader took nothing for the stop's wait: the rest was not
    /// written.
    Stopped,
}

/// The most written at once: `PIPE_BUF`, which a pipe that polls writable takes without
/// blocking (4096 bytes on Linux, 512 where POSIX promises no more).
#[cfg(target_os = "linux")]
const PIECE: usize = 4096;
#[cfg(not(target_os = "linux"))]
const PIECE: usize = 512;

/// How often a write that cannot go on looks for a stop signal.
const LOOK: Timespec = Timespec {
    tv_sec: 0,
    tv_nsec: 100_000_000,
};

/// Writes `bytes` to `out` (stdout or stderr, locked by the caller), a piece at a time, each
/// once `out` can take it; a file always can. The bytes go to the file descriptor itself: every
/// word printed goes through here whole, and std's buffer in front of it stays empty. A closed
/// descriptor takes everything, as std's own stdout does.
pub(super) fn write_unless_stopped(out: impl AsFd, bytes: &[u8]) -> std::io::Result<Wrote> {
    let mut stalled_since: Option<Instant> = None;
    let mut rest = bytes;
    while !rest.is_empty() {
        let mut fds = [PollFd::new(&out, PollFlags::OUT)];
        match poll(&mut fds, Some(&LOOK)) {
            Ok(0) => {
                if crate::signals::came_any() {
                    let since = *stalled_since.get_or_insert_with(Instant::now);
                    if since.elapsed() >= crate::signals::wait() {
                        return Ok(Wrote::Stopped);
                    }
                }
                continue;
            }
            Err(Errno::INTR) => continue,
            // Ready, or a state the write itself reports (a reader gone: EPIPE).
            _ => {}
        }
        let piece = &rest[..rest.len().min(PIECE)];
        match rustix::io::write(&out, piece) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(written) => {
                rest = &rest[written..];
                stalled_since = None;
            }
            Err(Errno::INTR | Errno::AGAIN) => {}
            Err(Errno::BADF) => return Ok(Wrote::Whole),
            Err(errno) => return Err(errno.into()),
        }
    }
    Ok(Wrote::Whole)
}

/// Whether the reader of stdout has gone: a pipe whose reading end was closed polls as an
/// error. A file or a terminal never does.
pub(super) fn stdout_hung_up() -> bool {
    let stdout = std::io::stdout();
    let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
    match poll(&mut fds, Some(&Timespec::default())) {
        Ok(_) => fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP),
        Err(_) => false,
    }
}

/// The terminal's size on stdout, as (rows, columns), where it says one.
pub(super) fn terminal_size() -> Option<(usize, usize)> {
    let size = rustix::termios::tcgetwinsize(std::io::stdout()).ok()?;
    Some((usize::from(size.ws_row), usize::from(size.ws_col)))
}
