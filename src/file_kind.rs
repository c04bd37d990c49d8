//! What kind of file a path names, told without opening it: the one check behind "a file safe-ad
//! reads or replaces is a regular file" (the config file, read at the start of every run and
//! written by `config set`, `config unset` and `auth login`, and a `--token-file`).
//!
//! Nothing here opens the file: opening a FIFO for reading waits until something opens it for
//! writing, which may be never (a `mkfifo config.json` hung every command). The type comes from
//! `stat`, which follows symbolic links, so a link is judged by what it points at.

use std::fs::{FileType, Metadata};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// What a path names when it is not a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotRegular {
    Directory,
    Fifo,
    Socket,
    CharDevice,
    BlockDevice,
    /// A type unix has that the others are not (none on Linux).
    Other,
}

impl NotRegular {
    /// For a message about the path: `it is a FIFO, not a regular file`.
    pub fn describe(self) -> String {
        let what = match self {
            NotRegular::Directory => "a directory",
            NotRegular::Fifo => "a FIFO",
            NotRegular::Socket => "a socket",
            NotRegular::CharDevice => "a character device",
            NotRegular::BlockDevice => "a block device",
            NotRegular::Other => "of another type",
        };
        format!("it is {what}, not a regular file")
    }
}

/// `None` for a regular file, else what it is instead. Takes the metadata of `std::fs::metadata`
/// (links followed) or of an open file.
pub fn not_regular(metadata: &Metadata) -> Option<NotRegular> {
    kind_of(metadata.file_type())
}

fn kind_of(file_type: FileType) -> Option<NotRegular> {
    let kinds = [
        (file_type.is_dir(), NotRegular::Directory),
        (file_type.is_fifo(), NotRegular::Fifo),
        (file_type.is_socket(), NotRegular::Socket),
        (file_type.is_char_device(), NotRegular::CharDevice),
        (file_type.is_block_device(), NotRegular::BlockDevice),
    ];
    if file_type.is_file() {
        return None;
    }
    let found = kinds.into_iter().find(|(is, _)| *is);
    Some(found.map_or(NotRegular::Other, |(_, kind)| kind))
}

/// How many links [`anonymous_pipe`] follows before it gives up (the kernel's own bound is 40).
const MAX_LINKS: usize = 16;

/// Whether `path` leads, through its links, to a pipe without a name that this process already
/// holds: what bash's `<(...)` hands over (`/dev/fd/63`), and `/dev/stdin` on a pipe. On Linux
/// the last link of such a path is the process's own `/proc/PID/fd/N`, which reads `pipe:[INODE]`.
/// Opening one never waits (the kernel makes only a FIFO with a name wait for a writer), so it
/// can be read as a token file. A FIFO with a name, however it is reached, is not one of these.
/// Elsewhere than on Linux no path reads so, and every pipe is refused like a FIFO.
pub fn anonymous_pipe(path: &Path) -> bool {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let Ok(target) = std::fs::read_link(&at) else {
            return false;
        };
        let dir = at.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        if target
            .to_str()
            .is_some_and(|text| text.starts_with("pipe:["))
        {
            // Only /proc writes a link so; one a person made that reads the same is a name.
            return std::fs::canonicalize(&dir).is_ok_and(|dir| dir.starts_with("/proc"));
        }
        at = dir.join(target);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_none_and_a_directory_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, "x").unwrap();
        assert_eq!(not_regular(&std::fs::metadata(&file).unwrap()), None);
        assert_eq!(
            not_regular(&std::fs::metadata(dir.path()).unwrap()),
            Some(NotRegular::Directory)
        );
        assert_eq!(
            not_regular(&std::fs::metadata("/dev/null").unwrap()),
            Some(NotRegular::CharDevice)
        );
        assert_eq!(
            NotRegular::Fifo.describe(),
            "it is a FIFO, not a regular file"
        );
    }

    #[test]
    fn a_link_made_to_read_like_a_pipe_is_not_one() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("pipe:[1]", &link).unwrap();
        assert!(!anonymous_pipe(&link));
        assert!(!anonymous_pipe(dir.path()));
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_pipe_this_process_holds_is_anonymous() {
        use std::process::{Command, Stdio};
        // A child's stdout is a pipe this process holds; its /proc link reads pipe:[N].
        let mut child = Command::new("sleep")
            .arg("0")
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let pipe = child.stdout.take().unwrap();
        use std::os::fd::AsRawFd;
        let path = format!("/dev/fd/{}", pipe.as_raw_fd());
        assert!(anonymous_pipe(Path::new(&path)), "{path}");
        assert_eq!(
            not_regular(&std::fs::metadata(&path).unwrap()),
            Some(NotRegular::Fifo)
        );
        drop(pipe);
        child.wait().unwrap();
    }
}
