//! The interactive shell's history file: where it is (`SAFE_AD_HISTORY`, else `shell_history`
//! in the platform's data directory), reading it when the shell starts, and adding a line.
//!
//! History is a record of what a person typed, which is close to secrets: the file is made with
//! mode 0600 in a directory made 0700, a wider mode found on it is narrowed, and it is never
//! reached through a symbolic link (opened with `O_NOFOLLOW`, so a link planted there cannot
//! send the lines elsewhere) nor read from anything but a regular file (a FIFO would hang the
//! start). Which lines are kept out of it (a token's) is the shell's to decide; this module
//! only reads and writes.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::Environment;
use crate::file_kind;

/// The file's name in the data directory.
const FILE_NAME: &str = "shell_history";
/// The lines read back at the start: the newest, as many as a person scrolls through.
pub const KEPT_LINES: usize = 1000;
/// A history file larger than this is read from its end only.
const MAX_READ_BYTES: u64 = 1024 * 1024;

/// Where the history file is: `None` when `SAFE_AD_HISTORY` is set but empty (no history), or
/// when there is no home directory to find a data directory in.
pub fn path(env: &Environment) -> Option<PathBuf> {
    match &env.history {
        Some(path) if path.is_empty() => None,
        Some(path) => Some(PathBuf::from(path)),
        None => directories::ProjectDirs::from("", "", "safe-ad")
            .map(|dirs| dirs.data_dir().join(FILE_NAME)),
    }
}

/// Opens `path` with `options`, never through a symbolic link nor waiting on a FIFO, and makes
/// sure it is a regular file.
fn open(path: &Path, options: &mut OpenOptions) -> std::io::Result<File> {
    let file = options
        .custom_flags((rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK).bits() as i32)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(code) if code == rustix::io::Errno::LOOP.raw_os_error() => {
                std::io::Error::other("it is a symbolic link, which the history never follows")
            }
            _ => e,
        })?;
    if let Some(kind) = file_kind::not_regular(&file.metadata()?) {
        return Err(std::io::Error::other(kind.describe()));
    }
    Ok(file)
}

/// The newest [`KEPT_LINES`] lines of the history file, oldest first; none when there is no
/// file yet. An error says why it could not be read.
pub fn read(path: &Path) -> Result<Vec<String>, String> {
    let mut file = match open(path, OpenOptions::new().read(true)) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e.to_string()),
    };
    let size = file.metadata().map_err(|e| e.to_string())?.len();
    let mut bytes = Vec::new();
    if size > MAX_READ_BYTES {
        use std::io::Seek;
        file.seek(std::io::SeekFrom::Start(size - MAX_READ_BYTES))
            .map_err(|e| e.to_string())?;
    }
    file.take(MAX_READ_BYTES)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&bytes);
    let mut lines: Vec<String> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(str::to_string)
        .collect();
    if size > MAX_READ_BYTES && !lines.is_empty() {
        // Read from the middle of a line: its start is not the line.
        lines.remove(0);
    }
    let skip = lines.len().saturating_sub(KEPT_LINES);
    Ok(lines.split_off(skip))
}

/// Adds `line` to the end of the history file, making the file (0600) and its directory (0700)
/// where they are missing, and narrowing a file readable by others to 0600.
pub fn append(path: &Path, line: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        if !dir.exists() {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)
                .map_err(|e| format!("cannot make its directory {}: {e}", dir.display()))?;
        }
    }
    let mut file = open(
        path,
        OpenOptions::new().append(true).create(true).mode(0o600),
    )
    .map_err(|e| e.to_string())?;
    let mode = file
        .metadata()
        .map_err(|e| e.to_string())?
        .permissions()
        .mode();
    if mode & 0o077 != 0 {
        file.set_permissions(std::fs::Permissions::from_mode(mode & 0o700))
            .map_err(|e| format!("cannot make it private (mode 0600): {e}"))?;
    }
    let mut bytes = line.as_bytes().to_vec();
    bytes.push(b'\n');
    file.write_all(&bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_with_mode_0600_and_reads_back_the_newest_lines() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("deeper/history");
        assert_eq!(read(&path), Ok(Vec::new()));
        for n in 0..(KEPT_LINES + 5) {
            append(&path, &format!("metadata {n}")).expect("appended");
        }
        let mode = std::fs::metadata(&path)
            .expect("there")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let dir_mode = std::fs::metadata(path.parent().unwrap())
            .expect("there")
            .permissions()
            .mode();
        assert_eq!(dir_mode & 0o777, 0o700);
        let lines = read(&path).expect("read");
        assert_eq!(lines.len(), KEPT_LINES);
        assert_eq!(lines[0], "metadata 5");
    }

    #[test]
    fn a_wider_mode_is_narrowed_and_a_link_or_fifo_is_refused() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("history");
        std::fs::write(&path, "metadata 1\n").expect("written");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        append(&path, "metadata 2").expect("appended");
        let mode = std::fs::metadata(&path)
            .expect("there")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);

        let target = dir.path().join("elsewhere");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).expect("a link");
        let error = append(&link, "metadata 3").expect_err("refused");
        assert!(error.contains("symbolic link"), "{error}");
        assert!(!target.exists(), "nothing was written through the link");

        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        let error = read(&fifo).expect_err("refused, without waiting for a writer");
        assert!(error.contains("FIFO"), "{error}");
    }
}
