//! The client's one way to replace a file whole (the config file, `emulator export`'s FIXTURE):
//! a new file beside it, created exclusively under an unpredictable name (never through an
//! existing name or a link planted there), written and synced, renamed over the old one, and
//! the directory synced so the rename itself reaches the disk. A reader sees the old file or
//! the new one, never half of either; a failure removes the new file and leaves the old one.
//! Two writers at once each replace the file whole; the last one wins.
//!
//! What may stand at the path is the caller's to settle first, in its own words (a symbolic
//! link, which the rename would replace rather than follow: `emulator export` refuses one, the
//! config file is written where its link leads; a FIFO or a device, which it would replace with
//! a file): this writes only once that is settled.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// The permissions of the new file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Readable and writable by its owner only (0600), whatever was there: the config file,
    /// which may hold a token.
    Private,
    /// Those of the file it replaces; for a new file, 0666 less the umask, as any new file.
    AsBefore,
}

/// Replaces the file at `path` with one holding `bytes`, atomically (see the module's notes).
pub fn write(path: &Path, bytes: &[u8], mode: Mode) -> io::Result<()> {
    let (temporary, mut file) = create_beside(path, mode)?;
    let written = (|| {
        if mode == Mode::AsBefore {
            if let Ok(meta) = std::fs::metadata(path) {
                file.set_permissions(meta.permissions())?;
            }
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    if written.is_err() {
        drop(file);
        let _ = std::fs::remove_file(&temporary);
        return written;
    }
    // Make the rename itself durable; a failure here loses nothing already written.
    if let Ok(directory) = File::open(directory_of(path)) {
        let _ = directory.sync_all();
    }
    Ok(())
}

/// The directory `path` is in (`.` for a bare name).
pub fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// A new file beside `path`, `.NAME.<16 hex digits>.tmp`, created exclusively with `mode`'s
/// first permissions.
fn create_beside(path: &Path, mode: Mode) -> io::Result<(PathBuf, File)> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other("it names no file"))?
        .to_string_lossy()
        .into_owned();
    let bits = match mode {
        Mode::Private => 0o600,
        Mode::AsBefore => 0o666,
    };
    let mut last = None;
    for _ in 0..8 {
        let mut random = [0u8; 8];
        getrandom::getrandom(&mut random).map_err(io::Error::other)?;
        let middle: String = random.iter().map(|b| format!("{b:02x}")).collect();
        let temporary = path.with_file_name(format!(".{name}.{middle}.tmp"));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true).mode(bits);
        match options.open(&temporary) {
            Ok(file) => return Ok((temporary, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn a_private_file_is_0600_and_one_as_before_keeps_its_mode() {
        let dir = tempfile::tempdir().unwrap();
        let private = dir.path().join("config.json");
        write(&private, b"{}\n", Mode::Private).unwrap();
        assert_eq!(mode(&private), 0o600);
        assert_eq!(std::fs::read(&private).unwrap(), b"{}\n");
        let kept = dir.path().join("fixture.json");
        std::fs::write(&kept, b"old").unwrap();
        std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
        write(&kept, b"new", Mode::AsBefore).unwrap();
        assert_eq!(mode(&kept), 0o640);
        assert_eq!(std::fs::read(&kept).unwrap(), b"new");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 2, "a temporary file was left");
    }

    #[test]
    fn a_new_file_as_before_takes_the_usual_mode() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("fixture.json");
        write(&new, b"new", Mode::AsBefore).unwrap();
        // What a file made with `File::create` gets here, under this process's umask.
        let usual = dir.path().join("usual");
        std::fs::File::create(&usual).unwrap();
        assert_eq!(mode(&new), mode(&usual));
    }

    #[test]
    fn a_failed_rename_leaves_the_old_file_and_no_new_one() {
        let dir = tempfile::tempdir().unwrap();
        // A directory where the file would go: the rename over it fails.
        let target = dir.path().join("fixture.json");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("inside"), b"kept").unwrap();
        assert!(write(&target, b"new", Mode::AsBefore).is_err());
        assert_eq!(std::fs::read(target.join("inside")).unwrap(), b"kept");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "the new file was left beside it");
    }
}
