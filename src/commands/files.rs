//! The files a command writes whole (`capture -o`, `emulator export`): FILE checked before
//! anything is sent, and written through `atomic_file`.

use crate::outcome::{Class, Failure};

/// Replaces FILE whole with `bytes` (`atomic_file`, keeping its permissions): a failure leaves
/// the old file, is said as `command`'s, and is never exit 0.
pub(super) fn write_whole(
    path: &std::path::Path,
    bytes: &[u8],
    command: &str,
) -> Result<(), Failure> {
    crate::atomic_file::write(path, bytes, crate::atomic_file::Mode::AsBefore).map_err(|error| {
        Failure::new(
            Class::Unexpected,
            format!(
                "{command}: cannot write {}: {} (the file is as it was)",
                path.display(),
                crate::sanitize::line(error.to_string().as_bytes(), 200)
            ),
        )
    })
}

/// FILE as given to a command that replaces it whole (`emulator export`, `capture -o`), if it
/// may be: not a symbolic link (the rename would replace the link, not the file it names), a
/// regular file if it exists, and a name in a directory that exists and this process may write
/// in (where the new file is made beside it). Checked before anything is sent, so that a run
/// that could never write its file sends nothing (`capture` reads hundreds of requests before
/// it writes); `example` is the command line that writes where a link points. What can still
/// fail later (a full disk, a file-size limit) fails the write, which leaves the old file.
pub(super) fn replaceable_file(
    path: &std::path::Path,
    command: &str,
    example: &str,
) -> Result<std::path::PathBuf, Failure> {
    let refused = |why: &str| {
        Failure::usage(format!(
            "{command}: {}: {why}",
            crate::sanitize::line(path.display().to_string().as_bytes(), 200)
        ))
    };
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(refused(&format!(
                "it is a symbolic link; {command} replaces FILE with a new file, which would \
                 replace the link rather than the file it names: give the file's own path"
            ))
            .with_hint(format!("`{example}` writes where the link points")))
        }
        Ok(meta) if !meta.is_file() => {
            return Err(refused(
                "it is not a regular file (a directory, FIFO or device); give a file's path, or \
                 `-` for standard output",
            ))
        }
        Ok(_) => {}
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => return Err(refused(&format!("cannot look at it: {error}"))),
    }
    // `dir/` and `dir/..` name a directory, whatever `Path` makes of them.
    use std::os::unix::ffi::OsStrExt;
    if path.file_name().is_none() || path.as_os_str().as_bytes().ends_with(b"/") {
        return Err(refused(
            "it names a directory, not a file in one; give a file's path, or `-` for standard \
             output",
        ));
    }
    let directory = crate::atomic_file::directory_of(path);
    let shown = crate::sanitize::line(directory.display().to_string().as_bytes(), 200);
    match std::fs::metadata(directory) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(refused(&format!("{shown} is not a directory"))),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(refused(&format!(
                "its directory {shown} does not exist; make it first (`mkdir -p`)"
            )))
        }
        Err(error) => return Err(refused(&format!("cannot look at {shown}: {error}"))),
    }
    // The new file is made in the directory, then renamed over FILE: both need write and
    // search permission there (and a file system that is not read-only).
    use rustix::fs::{access, Access};
    if let Err(errno) = access(directory, Access::WRITE_OK | Access::EXEC_OK) {
        let error = std::io::Error::from(errno);
        return Err(refused(&format!(
            "cannot make a file in its directory {shown}: {error}"
        )));
    }
    Ok(path.to_path_buf())
}
