//! The files the emulator is given, checked together before any of them is opened: `--token-file`
//! (read once), `--import` and `--state` (the fixture: read; `--state` also replaced at the stop)
//! and `--log` (written as the run goes).
//!
//! - Each is checked by its type, from `stat`, never by opening it: opening a FIFO waits for its
//!   other end, so a FIFO (or a socket, or a device) given as a file to read would hang the start.
//!   [`refuse_kind`] is the one check; `fixture` and the token reader call it too on what they
//!   open. A file that does not exist yet is left to its option (`--state` and `--log` create it).
//! - No two of them may be one file: `--import F --log F` would overwrite the committed fixture
//!   with the log, `--state S --log S` lose one of the two at the stop. The same file is the same
//!   device and inode (whatever the names, `./F`, symlinks and hard links), or, for files not made
//!   yet, the same path once symlinks and the directory are resolved ([`check`]); only the
//!   options that make their file (`--state`, `--log`) have a file not made yet, and a missing
//!   `--import` or `--token-file` is its option's to report (no such file), not a file shared.
//!
//! - A start that ends before it serves (refused, stopped by a signal, unable to listen) leaves
//!   nothing behind: the files it made itself (a new `--state` or `--log` file) are made through
//!   [`Made`], which removes them again.
//!
//! Also where a path leads ([`resolve`], [`directory_of`]), and the one atomic writer
//! ([`replace`]) through which the emulator replaces a file (`--state` at the stop), with the
//! cleanup of the temporary files a killed run left ([`remove_stale_temporaries`]).

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::launcher::encoding::{hex, random_bytes};

/// Symlinks followed before giving up, as the kernel does.
const MAX_LINKS: usize = 40;

/// What an option does with its file, which says the kinds of file it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Use {
    /// `--token-file`: read once. A regular file, or a pipe the shell made (`<(...)`), whose
    /// opening never waits; a named FIFO waits for a writer that may never come.
    Token,
    /// `--import`: read once (bounded by its size), never written: a regular file only.
    Import,
    /// `--state`: read (bounded by its size), made when it does not exist, and replaced by a
    /// rename at the stop: a regular file only.
    State,
    /// `--log`: written as records come. A regular file, a FIFO or pipe with its reader
    /// (`--log >(...)`: the open waits for the reader, as a shell's `>` does, which
    /// `--ready-timeout` bounds), or a character device (`/dev/null`). Not a block device: it
    /// would be written over.
    Log,
}

impl Use {
    /// Whether the option makes its file when it does not exist (so a path not made yet is
    /// still its file).
    fn makes(self) -> bool {
        matches!(self, Use::State | Use::Log)
    }
}

/// One option's file: `--log`, `log.jsonl`, [`Use::Log`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Given<'a> {
    pub(crate) option: &'static str,
    pub(crate) path: &'a Path,
    pub(crate) usage: Use,
}

/// Checks the files of a run before any is opened: each existing one by its type, then that no
/// two are one file. The error names the option(s) and path(s) and what to do.
pub(crate) fn check(given: &[Given<'_>]) -> Result<(), String> {
    for file in given {
        // A file that cannot be looked at yet is its option's to report (a missing --import, a
        // --state to create), with the words it already has.
        if let Ok(meta) = std::fs::metadata(file.path) {
            refuse_kind(&meta, file.usage)
                .map_err(|why| format!("{} {}: {why}", file.option, file.path.display()))?;
        }
    }
    let identities: Vec<Option<Identity>> = given.iter().map(identity).collect();
    for (i, first) in given.iter().enumerate() {
        for (j, second) in given.iter().enumerate().skip(i + 1) {
            if identities[i].is_some() && identities[i] == identities[j] {
                return Err(format!(
                    "{} {} and {} {} are the same file{}; give each option a file of its own \
                     (nothing was read or written)",
                    first.option,
                    first.path.display(),
                    second.option,
                    second.path.display(),
                    harm(first, second)
                ));
            }
        }
    }
    Ok(())
}

/// What one file for both options would have done, said after "are the same file".
fn harm(first: &Given<'_>, second: &Given<'_>) -> &'static str {
    let either = |option: &str| first.option == option || second.option == option;
    if either("--log") && either("--import") {
        ": the log would overwrite the fixture"
    } else if either("--log") && either("--state") {
        ": the log and the saved state would overwrite each other"
    } else if either("--log") {
        ": the log would overwrite the token"
    } else if either("--state") {
        ": the saved state would replace the token file"
    } else {
        ""
    }
}

/// The files a start made itself (a `--state` or `--log` file that did not exist), which a start
/// that ends before it serves removes ([`Made::remove`]): it was given nothing to save, so it
/// leaves nothing. Shared with the thread that prepares the start, which a signal does not wait
/// for: a file is made and noted in one step under the lock, and none is made once the removal
/// has run, so none is left whenever the signal comes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Made(Arc<Mutex<MadeFiles>>);

#[derive(Debug, Default)]
struct MadeFiles {
    paths: Vec<PathBuf>,
    /// The start ended before serving: no file is made from now on.
    removed: bool,
}

impl Made {
    fn files(&self) -> MutexGuard<'_, MadeFiles> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Makes the file at `path` with `options`, only if nothing is there (`O_EXCL`: never a file
    /// that was there, nor through a link), and notes it. `AlreadyExists` when something is;
    /// `Interrupted` once the start has ended.
    pub(crate) fn create(&self, path: &Path, options: &OpenOptions) -> io::Result<File> {
        let mut files = self.files();
        if files.removed {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "the start was stopped",
            ));
        }
        let file = options.clone().create_new(true).open(path)?;
        files.paths.push(path.to_path_buf());
        Ok(file)
    }

    /// The start ends before it serves: removes every file it made, if it is still an empty
    /// regular file (nothing was served, so nothing of the run is in it; a file that holds
    /// something is not the start's to remove).
    pub(crate) fn remove(&self) {
        let mut files = self.files();
        files.removed = true;
        for path in std::mem::take(&mut files.paths) {
            if std::fs::symlink_metadata(&path).is_ok_and(|meta| meta.is_file() && meta.len() == 0)
            {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}

/// Whether a file of this type may be given for `usage`: the one check of the emulator's files'
/// types (`meta` from `stat`, which follows symlinks). Every refusal has the same words: what the
/// file is, and that a regular file is wanted.
pub(crate) fn refuse_kind(meta: &Metadata, usage: Use) -> Result<(), String> {
    let kind = meta.file_type();
    let fits = kind.is_file()
        || match usage {
            Use::Token => kind.is_fifo() && is_anonymous_pipe(meta),
            Use::Import | Use::State => false,
            Use::Log => kind.is_fifo() || kind.is_char_device(),
        };
    if fits {
        return Ok(());
    }
    let what = if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else {
        "of an unknown kind"
    };
    Err(format!(
        "it is {what}, not a regular file; give the path of a regular file{}",
        match usage {
            Use::Token => " holding the token (or a pipe, `<(...)`)",
            Use::Import | Use::State => "",
            Use::Log => " (or a FIFO, a pipe or a character device such as /dev/null)",
        }
    ))
}

/// Whether a FIFO is a pipe made by a shell (`<(...)`, a `/dev/stdin` fed by `|`) rather than one
/// in a file system (`mkfifo`): it lives where every pipe lives, on the device of a pipe made
/// here. Opening a pipe never waits (its writer is there, or gone and it reads as empty); opening
/// a named FIFO waits for a writer.
fn is_anonymous_pipe(meta: &Metadata) -> bool {
    let Ok((reader, _writer)) = rustix::pipe::pipe() else {
        return false;
    };
    std::fs::File::from(reader)
        .metadata()
        .is_ok_and(|pipe| pipe.dev() == meta.dev())
}

/// Which file a path names, for telling whether two options name one file: an existing file by
/// its device and inode; one not made yet by where it would be made, for an option that makes
/// it. `None` when that cannot be told, or when a file only read is missing (the option's own
/// check says why: no such file).
#[derive(Debug, PartialEq, Eq)]
enum Identity {
    Exists { device: u64, inode: u64 },
    ToBeMade(PathBuf),
}

fn identity(file: &Given<'_>) -> Option<Identity> {
    match std::fs::metadata(file.path) {
        Ok(meta) => Some(Identity::Exists {
            device: meta.dev(),
            inode: meta.ino(),
        }),
        Err(error) if error.kind() == io::ErrorKind::NotFound && file.usage.makes() => {
            let resolved = resolve(file.path).ok()?;
            let name = resolved.file_name()?.to_owned();
            let directory = directory_of(&resolved);
            let directory = std::fs::canonicalize(&directory)
                .or_else(|_| std::path::absolute(&directory))
                .ok()?;
            Some(Identity::ToBeMade(directory.join(name)))
        }
        Err(_) => None,
    }
}

/// The file a path names once symlinks are followed; for a link to a file that does not exist
/// yet, where that file would be.
pub(crate) fn resolve(given: &Path) -> io::Result<PathBuf> {
    let mut path = given.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                path = directory_of(&path).join(target);
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The directory a file is in (`.` for a bare name).
pub(crate) fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Replaces the file at `path` (symlinks already resolved: a regular file, or none yet) with
/// `bytes`, atomically: the one way the emulator replaces a file. The bytes go to a new temporary
/// file beside it (created exclusively, never through an existing name or link, under an
/// unpredictable name, mode 0600 or the old file's permissions), which is synced and renamed over
/// the file, and the directory synced: a reader never sees half a file, and a crash leaves the
/// old one. The temporary file is removed on every failure.
pub(crate) fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (temporary, mut file) = create_temporary(path)?;
    let written = (|| {
        if let Ok(meta) = std::fs::metadata(path) {
            file.set_permissions(meta.permissions())?;
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)?;
        // The rename itself reaches the disk with the directory.
        if let Ok(directory) = File::open(directory_of(path)) {
            let _ = directory.sync_all();
        }
        Ok(())
    })();
    if written.is_err() {
        drop(file);
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Whether [`replace`] could make its temporary file beside `path` now: one is made and removed,
/// so that a file that could not be saved at the stop is said at the start.
pub(crate) fn can_replace(path: &Path) -> io::Result<()> {
    let (temporary, file) = create_temporary(path)?;
    drop(file);
    let _ = std::fs::remove_file(&temporary);
    Ok(())
}

/// `.NAME.` and `.tmp`: what a temporary file of `path` is called around its random middle.
fn temporary_affixes(path: &Path) -> (String, &'static str) {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    (format!(".{name}."), ".tmp")
}

/// A new file beside `path`, created exclusively (never through an existing name or link) under
/// an unpredictable name.
fn create_temporary(path: &Path) -> io::Result<(PathBuf, File)> {
    let (prefix, suffix) = temporary_affixes(path);
    let mut last = None;
    for _ in 0..8 {
        let name = format!("{prefix}{}{suffix}", hex(&random_bytes::<8>()));
        let temporary = path.with_file_name(name);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
        match options.open(&temporary) {
            Ok(file) => return Ok((temporary, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// Removes `.NAME.<letters and digits>.tmp` beside `path` (the temporary files of [`replace`]
/// and those of older versions, `.NAME.<pid>.tmp`) left by a run that was killed; only the
/// holder of the file's lock may call it. Returns the names removed.
pub(crate) fn remove_stale_temporaries(path: &Path) -> Vec<String> {
    let (prefix, suffix) = temporary_affixes(path);
    let Ok(entries) = std::fs::read_dir(directory_of(path)) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stale = name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(suffix))
            .is_some_and(|middle| {
                !middle.is_empty() && middle.bytes().all(|b| b.is_ascii_alphanumeric())
            });
        if stale && std::fs::remove_file(entry.path()).is_ok() {
            removed.push(name);
        }
    }
    removed.sort();
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory of its own under the system's temporary directory, removed by the caller.
    fn scratch() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("safe-ad-files-{}", hex(&random_bytes::<6>())));
        std::fs::create_dir(&dir).unwrap();
        dir
    }

    fn given<'a>(option: &'static str, path: &'a Path, usage: Use) -> Given<'a> {
        Given {
            option,
            path,
            usage,
        }
    }

    #[test]
    fn kinds_each_use_takes() {
        let dir = scratch();
        let file = dir.join("file");
        std::fs::write(&file, "x").unwrap();
        let meta = |path: &Path| std::fs::metadata(path).unwrap();
        for usage in [Use::Token, Use::Import, Use::State, Use::Log] {
            assert!(refuse_kind(&meta(&file), usage).is_ok());
            let refused = refuse_kind(&meta(&dir), usage).unwrap_err();
            assert!(
                refused.starts_with("it is a directory, not a regular file"),
                "{refused}"
            );
        }
        let null = meta(Path::new("/dev/null"));
        assert!(refuse_kind(&null, Use::Log).is_ok());
        for usage in [Use::Token, Use::Import, Use::State] {
            let refused = refuse_kind(&null, usage).unwrap_err();
            assert!(refused.starts_with("it is a character device"), "{refused}");
        }
        // A pipe (as `<(...)` gives one) is a token's; no FIFO is a fixture's.
        let (reader, _writer) = rustix::pipe::pipe().unwrap();
        let pipe = std::fs::File::from(reader).metadata().unwrap();
        assert!(pipe.file_type().is_fifo());
        assert!(refuse_kind(&pipe, Use::Token).is_ok());
        assert!(refuse_kind(&pipe, Use::Log).is_ok());
        for usage in [Use::Import, Use::State] {
            assert!(refuse_kind(&pipe, usage)
                .unwrap_err()
                .starts_with("it is a FIFO"));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn one_file_under_two_options_is_found_by_any_name() {
        let dir = scratch();
        let fixture = dir.join("fixture.json");
        std::fs::write(&fixture, "{}").unwrap();
        std::fs::hard_link(&fixture, dir.join("hard.json")).unwrap();
        std::os::unix::fs::symlink("fixture.json", dir.join("link.json")).unwrap();
        std::os::unix::fs::symlink("new.json", dir.join("dangling.json")).unwrap();
        let dotted = dir.join(".").join("fixture.json");
        for other in [
            fixture.clone(),
            dotted,
            dir.join("hard.json"),
            dir.join("link.json"),
        ] {
            let error = check(&[
                given("--import", &fixture, Use::Import),
                given("--log", &other, Use::Log),
            ])
            .unwrap_err();
            assert!(
                error.contains("are the same file: the log would overwrite the fixture"),
                "{error}"
            );
        }
        // Files not made yet: the same path once the link and the directory are resolved.
        let new = dir.join("sub").join("..").join("new.json");
        std::fs::create_dir(dir.join("sub")).unwrap();
        let error = check(&[
            given("--state", &dir.join("dangling.json"), Use::State),
            given("--log", &new, Use::Log),
        ])
        .unwrap_err();
        assert!(error.contains("the log and the saved state"), "{error}");
        // A missing file only read is no file to be made: not the same file as one that is.
        for (option, usage) in [("--import", Use::Import), ("--token-file", Use::Token)] {
            assert!(check(&[given(option, &new, usage), given("--log", &new, Use::Log),]).is_ok());
        }
        // Different files, made or not, are fine.
        assert!(check(&[
            given("--token-file", &fixture, Use::Token),
            given("--state", &dir.join("other.json"), Use::State),
            given("--log", &dir.join("log.jsonl"), Use::Log),
        ])
        .is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temporary_names_are_recognised_and_others_kept() {
        let dir =
            std::env::temp_dir().join(format!("safe-ad-fixture-{}", hex(&random_bytes::<6>())));
        std::fs::create_dir(&dir).unwrap();
        let state = dir.join("net.json");
        for name in [".net.json.1234.tmp", ".net.json.a1b2c3d4e5f60718.tmp"] {
            std::fs::write(dir.join(name), "x").unwrap();
        }
        for name in [
            ".net.json.tmp",
            ".net.json..tmp",
            ".net.json.a-b.tmp",
            ".other.json.1.tmp",
            "net.json.1.tmp",
        ] {
            std::fs::write(dir.join(name), "x").unwrap();
        }
        let (made, _) = create_temporary(&state).unwrap();
        let removed = remove_stale_temporaries(&state);
        assert_eq!(removed.len(), 3, "{removed:?}");
        assert!(!made.exists());
        let left = std::fs::read_dir(&dir).unwrap().count();
        assert_eq!(left, 5);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
