//! Where a script's text comes from, a line at a time (`words::NextLines`): -c's text, a FILE,
//! or standard input. No line may pass [`LINE_BOUND`], so a script of any length is read in
//! bounded memory, and a line past it is refused where it is (exit 2) rather than held whole.
//!
//! A script on standard input is read from a descriptor of its own: standard input itself is
//! then `/dev/null` for the lines, so a line that reads it (`decode -`) reads nothing rather
//! than the script's next lines. Waiting for the next line of a pipe also waits for a stop
//! signal, which a handled signal does not end: it ends the script's text there, and the
//! shell, seeing the signal, ends with 130.

use std::fs::File;
use std::io::Read;
use std::os::fd::AsFd;
use std::os::unix::net::UnixStream;
use std::path::Path;

use super::words::{NextLines, SplitError};
use crate::cli::ShellArgs;
use crate::outcome::Failure;
use crate::signals;

/// The most a line of a script may hold, and a command over several lines (a quote across
/// them): 1 MiB. Far past a command line the system itself would run (Linux takes one argument
/// of at most 128 KiB), and small enough that reading any script takes little memory.
pub const LINE_BOUND: usize = 1 << 20;

/// A script to read.
pub(super) enum Script {
    /// -c's text.
    Text(String),
    /// A regular file, read once to check it whole and again to run it.
    Regular(std::path::PathBuf),
    /// Standard input or a FILE that is not a regular file (a pipe): read once, as it comes.
    Stream { file: File, what: String },
}

impl Script {
    /// The script `args` give: -c's, FILE's, or standard input's (`-`, or none given).
    pub(super) fn of(args: &ShellArgs) -> Result<Script, Failure> {
        if let Some(lines) = &args.lines {
            return Ok(Script::Text(lines.clone()));
        }
        match args.file.as_deref() {
            Some(path) if path.as_os_str() != "-" => {
                let file = File::open(path).map_err(|e| cannot_read(path, &e))?;
                match file
                    .metadata()
                    .map_err(|e| cannot_read(path, &e))?
                    .is_file()
                {
                    true => Ok(Script::Regular(path.to_path_buf())),
                    false => Ok(Script::Stream {
                        file,
                        what: path.display().to_string(),
                    }),
                }
            }
            _ => {
                let unreadable = |e: std::io::Error| {
                    Failure::usage(format!("cannot read the script from standard input: {e}"))
                };
                let own = std::io::stdin()
                    .as_fd()
                    .try_clone_to_owned()
                    .map_err(unreadable)?;
                let null = File::open("/dev/null").map_err(unreadable)?;
                rustix::stdio::dup2_stdin(&null).map_err(|e| unreadable(e.into()))?;
                Ok(Script::Stream {
                    file: File::from(own),
                    what: "from standard input".to_owned(),
                })
            }
        }
    }

    /// The script's text once more, to check it whole before any line runs: for -c and a
    /// regular FILE, which can be read twice; `None` for a stream.
    pub(super) fn again(&self) -> Result<Option<NextLines<'_>>, Failure> {
        Ok(match self {
            Script::Text(text) => Some(text_lines(text.clone())),
            Script::Regular(path) => {
                let file = File::open(path).map_err(|e| cannot_read(path, &e))?;
                Some(file_lines(file, path.display().to_string(), None))
            }
            Script::Stream { .. } => None,
        })
    }

    /// The script's lines, to run.
    pub(super) fn lines(self) -> Result<NextLines<'static>, Failure> {
        Ok(match self {
            Script::Text(text) => text_lines(text),
            Script::Regular(path) => {
                let file = File::open(&path).map_err(|e| cannot_read(&path, &e))?;
                file_lines(file, path.display().to_string(), None)
            }
            Script::Stream { file, what } => file_lines(file, what, signals::stops().ok()),
        })
    }
}

fn cannot_read(path: &Path, e: &std::io::Error) -> Failure {
    Failure::usage(format!("cannot read the script {}: {e}", path.display()))
}

fn too_long(line: usize) -> SplitError {
    SplitError {
        line,
        message: format!(
            "longer than the {LINE_BOUND} bytes a line of a script may hold; it and the lines after it did not run"
        ),
    }
}

/// Bytes read as a line of text.
fn text(bytes: Vec<u8>, line: usize) -> Result<Option<String>, SplitError> {
    String::from_utf8(bytes).map(Some).map_err(|_| SplitError {
        line,
        message: "not UTF-8 text; it and the lines after it did not run".to_owned(),
    })
}

/// -c's text, a line at a time.
fn text_lines(text: String) -> NextLines<'static> {
    let mut at = 0;
    Box::new(move |line| {
        let rest = &text[at..];
        if rest.is_empty() {
            return Ok(None);
        }
        let end = rest.find('\n').map_or(rest.len(), |newline| newline + 1);
        let this = &rest[..end];
        at += end;
        match this.trim_end_matches('\n').len() > LINE_BOUND {
            true => Err(too_long(line)),
            false => Ok(Some(this.to_owned())),
        }
    })
}

/// A file's (or a pipe's) lines, each read whole but none past the bound; with `stops`, a
/// wait for more text also ends at a stop signal.
fn file_lines(file: File, what: String, stops: Option<UnixStream>) -> NextLines<'static> {
    let mut reader = Lines {
        file,
        what,
        stops,
        buf: Vec::new(),
        start: 0,
        scanned: 0,
        eof: false,
    };
    Box::new(move |line| reader.next(line))
}

struct Lines {
    file: File,
    what: String,
    stops: Option<UnixStream>,
    /// What was read and not yet given, from `start`; `scanned` bytes of it hold no newline.
    buf: Vec<u8>,
    start: usize,
    scanned: usize,
    eof: bool,
}

impl Lines {
    fn next(&mut self, line: usize) -> Result<Option<String>, SplitError> {
        loop {
            let pending = &self.buf[self.start..];
            if let Some(at) = pending[self.scanned..].iter().position(|b| *b == b'\n') {
                let end = self.scanned + at;
                if end > LINE_BOUND {
                    return Err(too_long(line));
                }
                let bytes = pending[..=end].to_vec();
                self.start += end + 1;
                self.scanned = 0;
                return text(bytes, line);
            }
            self.scanned = pending.len();
            if pending.len() > LINE_BOUND {
                return Err(too_long(line));
            }
            if self.eof {
                if pending.is_empty() {
                    return Ok(None);
                }
                let bytes = pending.to_vec();
                self.start = self.buf.len();
                self.scanned = 0;
                return text(bytes, line);
            }
            self.buf.drain(..self.start);
            self.start = 0;
            if !self.readable() {
                // A stop signal: the script ends here, and the shell says why.
                return Ok(None);
            }
            let mut chunk = [0u8; 64 * 1024];
            match self.file.read(&mut chunk) {
                Ok(0) => self.eof = true,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(SplitError {
                        line,
                        message: format!("cannot read the script {}: {e}", self.what),
                    })
                }
            }
        }
    }

    /// Waits until the file has text (or its end) to read: `false` when a stop signal came
    /// first.
    fn readable(&self) -> bool {
        use rustix::event::{poll, PollFd, PollFlags};
        loop {
            if signals::came_any() {
                return false;
            }
            let Some(stops) = &self.stops else {
                return true;
            };
            let mut fds = [
                PollFd::new(&self.file, PollFlags::IN),
                PollFd::new(stops, PollFlags::IN),
            ];
            match poll(&mut fds, None) {
                Ok(_) if !fds[1].revents().is_empty() => return false,
                Ok(_) if !fds[0].revents().is_empty() => return true,
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                // The read says what is wrong.
                Err(_) => return true,
            }
        }
    }
}
