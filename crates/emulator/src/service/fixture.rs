//! The `--state FILE` a person keeps: found, checked, locked and read at start; written back at
//! the stop. And the `--import FILE` a CI job commits: read at start, never written ([`import`]).
//! Nothing here runs on the event loop: [`Fixture::open`] may take a while on a large file and is
//! run on a thread of its own (see `lifecycle`).
//!
//! - A symlink is followed to the file it names (and a link to a file not made yet, to where it
//!   would be): the file is read and written there, and the link stays a link.
//! - At start the file's directory must exist and take a new file (a test file is made and
//!   removed), so an unsaveable path is said before anything is served (exit 2). A FILE that does
//!   not exist is created empty (an empty file is an empty network), through `files::Made`, so
//!   that a start that ends before serving removes it again.
//! - The file is locked (`flock`, advisory) for the whole run: a second emulator on the same file
//!   is refused at start, rather than one of the two losing its data at the stop.
//! - Temporary files of this file left by an emulator that was killed (`.FILE.*.tmp`) are
//!   removed at start; only the lock holder writes them, so none of them is in use.
//! - A file larger than [`STATE_LIMIT`], or one that is not a regular file, is refused (by its
//!   type, `files::refuse_kind`, before it is opened).
//! - The stop writes the network through the emulator's one atomic writer (`files::replace`): a
//!   new temporary file in the same directory (created exclusively, under an unpredictable name,
//!   with the old file's permissions), synced and renamed over the file: a reader never sees half
//!   a file, and a crash leaves the old one. The temporary file is removed on every failure.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::launcher::state::{roster, NETWORK_BYTES};
use crate::launcher::wire::{left_out_count, parse_state, Network};
use crate::service::files::{
    can_replace, directory_of, refuse_kind, remove_stale_temporaries, replace, resolve, Made, Use,
};

/// The largest `--state` file read: more than the largest network the emulator saves (its
/// network is bounded by [`NETWORK_BYTES`] counted in file bytes), so it can always read back
/// what it wrote.
///
/// Public for safe-ad's tests, which check it; no API for other programs.
pub const STATE_LIMIT: u64 = NETWORK_BYTES as u64 + 8 * 1024 * 1024;

/// A state file this large is said to be loading before it is read (it may take seconds).
const LARGE: u64 = 1024 * 1024;

/// A `--state` file, open and locked for the run.
#[derive(Debug)]
pub(crate) struct Fixture {
    /// The file itself, symlinks resolved.
    path: PathBuf,
    /// Holds the lock until the process ends.
    _locked: Option<File>,
}

/// What opening a fixture found besides its network: things to tell the user.
#[derive(Debug, Default)]
pub(crate) struct Notes {
    pub(crate) lines: Vec<String>,
}

/// The most appendable data [`summary`] names one by one.
pub(crate) const SUMMARY_LINES: usize = 20;

/// What a fixture loaded (`option` is `--state` or `--import`), for the start of the job's log
/// (handles do not survive a restart, so the names to `open` are what a script needs): a line
/// for the file with each family counted in words, one per appendable data (name, version,
/// items; at most [`SUMMARY_LINES`]), then a count of the rest.
pub(crate) fn summary(option: &str, path: &Path, network: &Network) -> Vec<String> {
    let ads = &network.appendable_data;
    let mut lines = vec![format!(
        "{option} {}: {}, {}, {}; no handles (`safe-ad open NAME` gets one){}",
        path.display(),
        count(ads.len(), "appendable data", "appendable data"),
        count(
            network.structured_data.len(),
            "structured data",
            "structured data"
        ),
        count(
            network.immutable_data.len(),
            "immutable data",
            "immutable data"
        ),
        if ads.is_empty() { "" } else { ":" }
    )];
    for ad in ads.iter().take(SUMMARY_LINES) {
        lines.push(format!(
            "  {}{} version {}, {}, {}",
            crate::launcher::encoding::base64_encode(&ad.key.name),
            if ad.key.private { " (--private)" } else { "" },
            ad.version,
            count(ad.data.len(), "item", "items"),
            count(ad.deleted.len(), "deleted item", "deleted items")
        ));
    }
    if ads.len() > SUMMARY_LINES {
        lines.push(format!(
            "  ... and {} more appendable data (GET /_emulator/network lists them all)",
            ads.len() - SUMMARY_LINES
        ));
    }
    lines
}

/// A count in words: `no items`, `1 item`, `3 items`.
fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        0 => format!("no {many}"),
        1 => format!("1 {one}"),
        _ => format!("{n} {many}"),
    }
}

/// Reads the fixture at `given` for `--import`: read once and never written, so none of
/// `--state`'s checks for the save (the directory, the lock, temporary files) apply. It must be
/// a regular file (a link to one is followed) of at most [`STATE_LIMIT`] bytes.
/// What it loaded comes with a note when the fixture lists what `safe-ad capture` left out of
/// it (its `leftOut`), so a job's log says the network is not all the launcher held.
///
/// Its users and the command line's (`users`, by name) are the run's: `state::roster`.
pub(crate) fn import(
    given: &Path,
    users: &[String],
    loading: impl Fn(&Path, u64),
) -> Result<(Network, Notes), Unusable> {
    let unusable = |why: String| Unusable(why);
    let meta = std::fs::metadata(given)
        .map_err(|e| unusable(format!("cannot read it: {}", reason(&e))))?;
    refuse_kind(&meta, Use::Import).map_err(unusable)?;
    if meta.len() >= LARGE {
        loading(given, meta.len());
    }
    let file =
        File::open(given).map_err(|e| unusable(format!("cannot open it: {}", reason(&e))))?;
    let bytes = read_bounded(&file).map_err(unusable)?;
    let network = parse_state(&bytes, &|known| Ok(roster(users, known))).map_err(unusable)?;
    let mut notes = Notes::default();
    notes.left_out("--import", given, &bytes, "");
    Ok((network, notes))
}

impl Notes {
    /// The note on a fixture that lists what `safe-ad capture` left out of it (`leftOut`,
    /// which a load reads past); `more` is said after it.
    fn left_out(&mut self, option: &str, path: &Path, bytes: &[u8], more: &str) {
        let count = left_out_count(bytes);
        if count > 0 {
            self.lines.push(format!(
                "{option} {}: the fixture lists {count} thing{} `safe-ad capture` left out of it \
                 (its `leftOut`){more}",
                path.display(),
                if count == 1 { "" } else { "s" }
            ));
        }
    }
}

/// A fixture's bytes, at most [`STATE_LIMIT`] of them.
fn read_bounded(file: &File) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    file.take(STATE_LIMIT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {}", reason(&e)))?;
    if bytes.len() as u64 > STATE_LIMIT {
        return Err(format!(
            "it is larger than {} MiB, the most the emulator reads",
            STATE_LIMIT >> 20
        ));
    }
    Ok(bytes)
}

/// Why a `--state` file cannot be used; said as `--state FILE: <why>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unusable(pub(crate) String);

impl Fixture {
    /// Resolves, checks, locks, cleans up after a killed run and reads the file at `given`; a
    /// file that does not exist is made through `made`. `loading` is told the size of a file
    /// large enough to take a while, before it is read.
    pub(crate) fn open(
        given: &Path,
        made: &Made,
        users: &[String],
        loading: impl Fn(&Path, u64),
    ) -> Result<(Fixture, Network, Notes), Unusable> {
        let unusable = |why: String| Unusable(why);
        let path = resolve(given).map_err(|e| unusable(format!("cannot follow the link: {e}")))?;
        let shown = |p: &Path| p.display().to_string();
        let mut notes = Notes::default();
        if path != given {
            notes.lines.push(format!(
                "--state {} is a link: the emulator reads and writes {}",
                given.display(),
                shown(&path)
            ));
        }
        let directory = directory_of(&path);
        match std::fs::metadata(&directory) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                return Err(unusable(format!(
                    "{} is not a directory",
                    shown(&directory)
                )))
            }
            Err(e) => {
                return Err(unusable(format!(
                    "its directory {} cannot be used: {}",
                    shown(&directory),
                    reason(&e)
                )))
            }
        }
        let mut size = 0;
        let exists = match std::fs::metadata(&path) {
            Ok(meta) => {
                // The stop replaces the file by a rename: only a regular file can be.
                refuse_kind(&meta, Use::State).map_err(unusable)?;
                size = meta.len();
                if meta.len() > STATE_LIMIT {
                    return Err(unusable(format!(
                        "it is {} bytes; the emulator reads state files of up to {} MiB",
                        meta.len(),
                        STATE_LIMIT >> 20
                    )));
                }
                true
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => false,
            Err(e) => return Err(unusable(format!("cannot read it: {}", reason(&e)))),
        };
        // The stop writes a new file beside it: try that now rather than after the whole run.
        can_replace(&path).map_err(|e| {
            unusable(format!(
                "the emulator could not save it at the stop: cannot create a file in {}: {}",
                shown(&directory),
                reason(&e)
            ))
        })?;
        let file = if exists {
            File::open(&path)
        } else {
            match made.create(&path, OpenOptions::new().read(true).write(true)) {
                // Made meanwhile by someone else: opened as it is.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => File::open(&path),
                made => made,
            }
        }
        .map_err(|e| unusable(format!("cannot open it: {}", reason(&e))))?;
        let locked =
            match lock(&file) {
                Ok(()) => true,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Err(unusable(
                    "another safe-ad emulator is using it (it holds the file's lock); stop that \
                     one, or give this one a file of its own"
                        .into(),
                )),
                Err(e) => {
                    notes.lines.push(format!(
                    "--state {}: cannot lock it ({}); a second emulator on the same file would \
                     not be refused",
                    shown(&path),
                    reason(&e)
                ));
                    false
                }
            };
        let removed = remove_stale_temporaries(&path);
        if !removed.is_empty() {
            notes.lines.push(format!(
                "--state {}: removed {} temporary file(s) left by an emulator that did not stop \
                 cleanly: {}",
                shown(&path),
                removed.len(),
                removed.join(", ")
            ));
        }
        if size >= LARGE {
            loading(&path, size);
        }
        let bytes = read_bounded(&file).map_err(unusable)?;
        let network = parse_state(&bytes, &|known| Ok(roster(users, known))).map_err(unusable)?;
        notes.left_out(
            "--state",
            &path,
            &bytes,
            "; the save at the stop does not keep that list",
        );
        let fixture = Fixture {
            path,
            _locked: locked.then_some(file),
        };
        Ok((fixture, network, notes))
    }

    /// Writes `network` to the file, atomically (see the module's notes and `files::replace`).
    pub(crate) fn save(&self, network: &Network) -> io::Result<()> {
        let mut text =
            serde_json::to_string_pretty(&network.to_file()).map_err(io::Error::other)?;
        text.push('\n');
        replace(&self.path, text.as_bytes())
    }
}

/// Takes the file's exclusive advisory lock without waiting (`WouldBlock` when another holds it).
fn lock(file: &File) -> io::Result<()> {
    use rustix::fs::{flock, FlockOperation};
    flock(file, FlockOperation::NonBlockingLockExclusive).map_err(io::Error::from)
}

/// An I/O error in words, without Rust's "(os error N)".
pub(crate) fn reason(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "no such file or directory".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => {
            let text = error.to_string();
            match text.find(" (os error") {
                Some(at) => text[..at].to_owned(),
                None => text,
            }
        }
    }
}
