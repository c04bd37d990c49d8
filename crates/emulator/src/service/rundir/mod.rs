//! The directory of an emulator started with `--background`: `safe-ad-emulator.XXXXXXXXXXXXXXXX`
//! in the temporary directory (`$TMPDIR`, else `/tmp`), mode 0700, printed as
//! `SAFE_AD_EMULATOR_DIR`. The emulator makes it once it listens, and only then (so a starter
//! killed at any moment leaves none: before, there is none; after, its emulator removes it as it
//! ends if it was never handed over); the emulator, the starter and `--stop` share it:
//!
//! - `stderr`: everything the emulator writes on stderr from the moment it made the directory
//!   (what it said before went to its starter, which showed it);
//! - `lock`: locked (`flock`, exclusive) by the emulator for as long as it runs, so that "it
//!   runs" is a fact the kernel keeps: the lock goes with the process, however it ends;
//! - `pid`: its process id;
//! - `token`: the token it accepts (mode 0600), written as the directory is made, for
//!   `emulator env` to print the variables again ([`RunDir::token`] reads it back, refusing a
//!   link, a file of another user's or one others may read);
//! - `tokens`: with named users (`--user`), each user's name and the token its launcher was
//!   started with, one `NAME TOKEN` line each, written and read back as `token` is, for
//!   `emulator env --user NAME`;
//! - `about`: where it listens, when it started, the fixture it loaded and (with named users)
//!   each user's name and URL, for `emulator list`;
//! - `status`: how it ended (`stopped`, `failed` or `usage`), written last, just before it exits
//!   (an emulator never handed over to a user removes the directory instead);
//! - `stopping`: locked by the `--stop` that is stopping it, so that two do not collect it.
//!
//! A process named by the variables is taken for the emulator that made the directory only when
//! it holds open both the directory itself and its `lock` ([`RunDir::made_by`], read from
//! `/proc/PID/fd` on Linux): a process id used again by the system, or a directory made by hand
//! around a hard link to a live emulator's lock, names a process that does not hold that
//! directory, and is never signalled. Where `/proc` cannot tell, the `pid` file must name the
//! process and the lock be held.
//!
//! A directory is taken for a run directory at all ([`RunDir::check_own`]) only when it is one:
//! its name has the pattern above, it is a directory (not a link to one) of this user's, readable
//! by no one else, and holds nothing but the files named above ([`FILES`]). Removing one removes
//! those files and then the directory, never anything else: a variable that names some other
//! directory (a project's, with a user's files in it) is refused whole.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::launcher::encoding::{hex, random_bytes};

/// The longest token a `token` file is read for: more than any token an emulator takes (a
/// `--token-file` holds at most 64 KiB, a `--token` argument at most 128 KiB on Linux).
const TOKEN_BYTES: u64 = 256 * 1024;

/// The most of a `token` or `tokens` file read: room for many users' tokens.
const SECRET_BYTES: u64 = 64 * TOKEN_BYTES;

/// Whether `token` is one token as the emulator writes one: printable ASCII, no space, at most
/// [`TOKEN_BYTES`].
fn is_token(token: &[u8]) -> bool {
    !token.is_empty() && token.len() as u64 <= TOKEN_BYTES && token.iter().all(u8::is_ascii_graphic)
}

/// The start of a run directory's name; 16 lowercase hex digits follow.
const PREFIX: &str = "safe-ad-emulator.";

/// Every file the starter, the emulator and `--stop` write in a run directory.
pub(crate) const FILES: [&str; 8] = [
    "stderr", "lock", "pid", "token", "tokens", "about", "status", "stopping",
];

/// The run directory of one background emulator.
#[derive(Debug, Clone)]
pub(crate) struct RunDir {
    path: PathBuf,
}

/// How a background emulator's run ended, as its `status` file says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// Stopped cleanly: the state saved, the log whole.
    Stopped,
    /// It could not save its state or write its whole log (or could not start).
    Failed,
    /// An unusable option.
    Usage,
}

impl Status {
    fn word(self) -> &'static str {
        match self {
            Status::Stopped => "stopped",
            Status::Failed => "failed",
            Status::Usage => "usage",
        }
    }

    fn from_word(word: &str) -> Option<Status> {
        [Status::Stopped, Status::Failed, Status::Usage]
            .into_iter()
            .find(|status| status.word() == word.trim())
    }
}

impl RunDir {
    /// Makes a new one, empty, readable by this user only.
    pub(crate) fn create() -> io::Result<RunDir> {
        let base = std::env::temp_dir();
        let mut last = None;
        for _ in 0..8 {
            let path = base.join(format!("{PREFIX}{}", hex(&random_bytes::<8>())));
            let mut builder = std::fs::DirBuilder::new();
            use std::os::unix::fs::DirBuilderExt;
            builder.mode(0o700);
            match builder.create(&path) {
                Ok(()) => return Ok(RunDir { path }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no free directory name")))
    }

    /// The one at `path`.
    pub(crate) fn at(path: PathBuf) -> RunDir {
        RunDir { path }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// Creates the `stderr` file, to be the emulator's stderr.
    pub(crate) fn create_stderr(&self) -> io::Result<File> {
        let mut options = OpenOptions::new();
        options.append(true).create_new(true);
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
        options.open(self.file("stderr"))
    }

    // ---- the emulator's side

    /// Takes the lock for the life of this process (the file returned holds it) and writes the
    /// `pid` file. Fails if another process holds the lock.
    pub(crate) fn claim(&self) -> io::Result<File> {
        let lock = self.lock_now("lock")?;
        std::fs::write(self.file("pid"), format!("{}\n", std::process::id()))?;
        Ok(lock)
    }

    /// The directory itself, open: the emulator holds it for as long as it runs, which is how
    /// `--stop` tells the emulator that made it from any other process ([`RunDir::made_by`]).
    pub(crate) fn hold(&self) -> io::Result<File> {
        File::open(&self.path)
    }

    /// Writes the `token` file, mode 0600 (set on the open file, whatever the umask), a new file
    /// or an error.
    pub(crate) fn write_token(&self, token: &str) -> io::Result<()> {
        self.write_secret("token", &format!("{token}\n"))
    }

    /// Writes the `tokens` file as `token` is written: a `NAME TOKEN` line for each named user.
    pub(crate) fn write_tokens(&self, users: &[(String, String)]) -> io::Result<()> {
        let text: String = users
            .iter()
            .map(|(name, token)| format!("{name} {token}\n"))
            .collect();
        self.write_secret("tokens", &text)
    }

    fn write_secret(&self, name: &str, text: &str) -> io::Result<()> {
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(0o600);
        let mut file = options.open(self.file(name))?;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        file.write_all(text.as_bytes())?;
        file.sync_all()
    }

    /// Writes the `about` file: where it listens, when it started, the fixture it loaded, and
    /// each named user's name and URL (`users`, left out when none is named).
    pub(crate) fn write_about(&self, about: &About) -> io::Result<()> {
        let mut text = serde_json::json!({
            "url": about.url,
            "started": about.started,
            "fixture": about.fixture,
        });
        if !about.users.is_empty() {
            text["users"] = about
                .users
                .iter()
                .map(|(name, url)| serde_json::json!({ "name": name, "url": url }))
                .collect();
        }
        std::fs::write(self.file("about"), format!("{text}\n"))
    }

    /// What the `about` file says (blank where it says nothing).
    pub(crate) fn about(&self) -> About {
        let text = std::fs::read(self.file("about")).unwrap_or_default();
        let value: serde_json::Value = serde_json::from_slice(&text).unwrap_or_default();
        let text_of = |key: &str| value[key].as_str().unwrap_or("").to_owned();
        let users = value["users"]
            .as_array()
            .map(|users| {
                users
                    .iter()
                    .map(|user| {
                        let of = |key: &str| user[key].as_str().unwrap_or("").to_owned();
                        (of("name"), of("url"))
                    })
                    .collect()
            })
            .unwrap_or_default();
        About {
            url: text_of("url"),
            started: value["started"].as_u64().unwrap_or(0),
            fixture: text_of("fixture"),
            users,
        }
    }

    /// Opens (or makes) the file `name` and takes its exclusive lock without waiting
    /// (`WouldBlock` when another holds it); the lock lasts as long as the file returned.
    fn lock_now(&self, name: &str) -> io::Result<File> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(self.file(name))?;
        flock(&file, Lock::ExclusiveNow)?;
        Ok(file)
    }

    /// Writes how the run ended; the last thing the emulator does.
    pub(crate) fn write_status(&self, status: Status) -> io::Result<()> {
        std::fs::write(self.file("status"), format!("{}\n", status.word()))
    }

    // ---- the starter's and --stop's side

    /// Appends what `stderr` holds from byte `from` on to `out`; the byte it ended at.
    pub(crate) fn relay(&self, from: u64, out: &mut impl Write) -> io::Result<u64> {
        relay_from(&mut File::open(self.file("stderr"))?, from, out)
    }

    /// The process id the emulator wrote; `NotFound` when the directory (or the file) is not
    /// there.
    pub(crate) fn pid(&self) -> io::Result<u32> {
        let mut text = String::new();
        File::open(self.file("pid"))?
            .take(64)
            .read_to_string(&mut text)?;
        text.trim()
            .parse()
            .map_err(|_| io::Error::other(format!("its pid file holds {:?}", text.trim())))
    }

    /// The token the `token` file keeps; otherwise why it cannot be had, in words that never
    /// hold the file's content. The file is opened without following a link (and without waiting
    /// on a FIFO), and taken only when it is a regular file of this user's, mode 0600, holding one
    /// line of printable ASCII. The caller checks the directory itself first (`check_own`).
    pub(crate) fn token(&self) -> Result<String, String> {
        let text = self.secret("token")?;
        let token = text.strip_suffix(b"\n").unwrap_or(&text);
        if !is_token(token) {
            return Err(
                "its token file does not hold one token on one line, as the emulator writes it"
                    .into(),
            );
        }
        Ok(String::from_utf8_lossy(token).into_owned())
    }

    /// The token user `name`'s launcher was started with, from the `tokens` file, read as
    /// [`RunDir::token`] reads `token`; `Ok(None)` when the file names no such user.
    pub(crate) fn user_token(&self, name: &str) -> Result<Option<String>, String> {
        let text = self.secret("tokens")?;
        for line in text.split(|b| *b == b'\n').filter(|line| !line.is_empty()) {
            let Some(space) = line.iter().position(|b| *b == b' ') else {
                return Err(
                    "its tokens file is not `NAME TOKEN` lines, as the emulator writes it".into(),
                );
            };
            let (user, token) = (&line[..space], &line[space + 1..]);
            if !is_token(token) {
                return Err(
                    "its tokens file is not `NAME TOKEN` lines, as the emulator writes it".into(),
                );
            }
            if user == name.as_bytes() {
                return Ok(Some(String::from_utf8_lossy(token).into_owned()));
            }
        }
        Ok(None)
    }

    /// What the secret file `name` (`token` or `tokens`) holds, as the module's notes say: a
    /// regular file of this user's, mode 0600, with one name, opened without following a link;
    /// otherwise why not, in words that never hold its content.
    fn secret(&self, name: &str) -> Result<Vec<u8>, String> {
        use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
        let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
        let opened = OpenOptions::new()
            .read(true)
            .custom_flags(flags.bits() as i32)
            .open(self.file(name));
        let file = match opened {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(match name {
                    "token" => "it keeps no token file (an emulator started by a safe-ad older \
                                than `emulator env` writes none)"
                        .into(),
                    _ => format!(
                        "it keeps no {name} file (it serves no named user: `--user` names them)"
                    ),
                })
            }
            Err(e) if e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) => {
                return Err(format!(
                    "its {name} file is a symbolic link, which is never followed"
                ))
            }
            Err(e) => return Err(format!("its {name} file cannot be read: {e}")),
        };
        let meta = file
            .metadata()
            .map_err(|e| format!("its {name} file cannot be read: {e}"))?;
        if !meta.is_file() {
            return Err(format!("its {name} file is not a regular file"));
        }
        let me = rustix::process::geteuid().as_raw();
        if meta.uid() != me {
            return Err(format!(
                "its {name} file belongs to user id {}, not to this user ({me})",
                meta.uid()
            ));
        }
        if meta.mode() & 0o7777 != 0o600 {
            return Err(format!(
                "its {name} file has mode {:o}; the emulator writes it 600",
                meta.mode() & 0o7777
            ));
        }
        // A second name for the file, made elsewhere, is a way to it that the directory's
        // checks do not cover: the emulator writes it with one.
        if meta.nlink() != 1 {
            return Err(format!(
                "its {name} file has {} names (hard links); the emulator writes it with one",
                meta.nlink()
            ));
        }
        let mut text = Vec::new();
        file.take(SECRET_BYTES)
            .read_to_end(&mut text)
            .map_err(|e| format!("its {name} file cannot be read: {e}"))?;
        Ok(text)
    }

    /// Takes the `stopping` lock for the life of the file returned; `WouldBlock` when another
    /// `--stop` holds it.
    pub(crate) fn claim_stopping(&self) -> io::Result<File> {
        self.lock_now("stopping")
    }

    /// Whether the emulator holds its lock (runs).
    pub(crate) fn is_running(&self) -> io::Result<bool> {
        let lock = File::open(self.file("lock"))?;
        match flock(&lock, Lock::SharedNow) {
            Ok(()) => Ok(false),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(true),
            Err(e) => Err(e),
        }
    }

    /// Its `lock` file, open: [`wait_ended`] waits on it, also once the directory is gone.
    pub(crate) fn open_lock(&self) -> io::Result<File> {
        File::open(self.file("lock"))
    }
}

/// Waits, for at most `limit`, until the emulator has let go of the lock `lock` is open on (it
/// ended); whether it did. The wait is the kernel's: the lock is granted when the process ends.
pub(crate) fn wait_ended(lock: &File, limit: Duration) -> io::Result<bool> {
    let lock = lock.try_clone()?;
    let (done, ended) = std::sync::mpsc::channel();
    // A thread left waiting when the limit passes ends with this process.
    std::thread::spawn(move || {
        let _ = done.send(flock(&lock, Lock::Shared));
    });
    match ended.recv_timeout(limit) {
        Ok(result) => result.map(|()| true),
        Err(_) => Ok(false),
    }
}

impl RunDir {
    /// How the run ended, if the emulator said.
    pub(crate) fn status(&self) -> Option<Status> {
        let text = std::fs::read_to_string(self.file("status")).ok()?;
        Status::from_word(&text)
    }

    /// Removes the files of [`FILES`] and then the directory, which must then be empty: a
    /// directory that holds anything else is left as it is (with those files gone).
    pub(crate) fn remove(&self) -> io::Result<()> {
        // A `--stop` may make its `stopping` file while an emulator that was never handed over
        // removes its directory: one more round takes it too.
        let mut rounds = 0;
        loop {
            for name in FILES {
                match std::fs::remove_file(self.file(name)) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                    _ => {}
                }
            }
            match std::fs::remove_dir(&self.path) {
                Err(e) if e.kind() == io::ErrorKind::DirectoryNotEmpty && rounds < 2 => {
                    rounds += 1;
                }
                done => return done,
            }
        }
    }

    /// Whether this is a run directory that `--background` made, as far as can be told from
    /// outside: `Ok` when it is; `NotFound` when there is nothing at its path; otherwise what
    /// makes it not one, in words (see the module's notes).
    /// Whether its name is `safe-ad-emulator.` and 16 lowercase hex digits.
    fn named(&self) -> bool {
        let name = self
            .path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("");
        name.strip_prefix(PREFIX).is_some_and(|rest| {
            rest.len() == 16 && rest.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        })
    }

    /// Whether a process holds the lock of a directory that failed its checks: its `lock` is
    /// opened without following a link or waiting on a FIFO, and only a regular file counts.
    fn lock_held(&self) -> bool {
        use std::os::unix::fs::OpenOptionsExt;
        let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
        let Ok(lock) = OpenOptions::new()
            .read(true)
            .custom_flags(flags.bits() as i32)
            .open(self.file("lock"))
        else {
            return false;
        };
        if !lock.metadata().is_ok_and(|meta| meta.is_file()) {
            return false;
        }
        matches!(flock(&lock, Lock::SharedNow), Err(e) if e.kind() == io::ErrorKind::WouldBlock)
    }

    /// Whether what is at its path (not followed) belongs to this user.
    fn is_mine(&self) -> bool {
        use std::os::unix::fs::MetadataExt;
        std::fs::symlink_metadata(&self.path)
            .is_ok_and(|meta| meta.uid() == rustix::process::geteuid().as_raw())
    }

    pub(crate) fn check_own(&self) -> Result<(), Foreign> {
        if !self.named() {
            return Err(Foreign::Not(
                "its name is not safe-ad-emulator.<16 hex digits>, as --background names its \
                 directories"
                    .into(),
            ));
        }
        let meta = match std::fs::symlink_metadata(&self.path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(Foreign::Gone),
            Err(e) => return Err(Foreign::Not(format!("it cannot be read: {e}"))),
        };
        if meta.file_type().is_symlink() {
            return Err(Foreign::Not(
                "it is a symbolic link, not a directory".into(),
            ));
        }
        if !meta.is_dir() {
            return Err(Foreign::Not("it is not a directory".into()));
        }
        use std::os::unix::fs::MetadataExt;
        let me = rustix::process::geteuid().as_raw();
        if meta.uid() != me {
            return Err(Foreign::Not(format!(
                "it belongs to user id {}, not to this user ({me})",
                meta.uid()
            )));
        }
        if meta.mode() & 0o077 != 0 {
            return Err(Foreign::Not(format!(
                "others may use it (mode {:o}); --background makes it 700",
                meta.mode() & 0o777
            )));
        }
        let entries = std::fs::read_dir(&self.path)
            .map_err(|e| Foreign::Not(format!("it cannot be read: {e}")))?;
        for entry in entries {
            let entry = entry.map_err(|e| Foreign::Not(format!("it cannot be read: {e}")))?;
            let name = entry.file_name();
            let known = name.to_str().is_some_and(|name| FILES.contains(&name));
            let plain = entry.file_type().is_ok_and(|kind| kind.is_file());
            if !known || !plain {
                return Err(Foreign::Not(format!(
                    "it holds `{}`, {}",
                    name.to_string_lossy(),
                    if known {
                        "which is not a plain file"
                    } else {
                        "which --background never writes there"
                    }
                )));
            }
        }
        Ok(())
    }
}

/// What an emulator's `about` file says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct About {
    pub(crate) url: String,
    /// Seconds since 1970 (UTC).
    pub(crate) started: u64,
    /// `--import FILE` or `--state FILE`, the path made absolute; empty for none.
    pub(crate) fixture: String,
    /// Each named user's name and URL, the first user's first; none without `--user`.
    pub(crate) users: Vec<(String, String)>,
}

impl RunDir {
    /// Whether process `pid` is the emulator that made this directory: it holds open the
    /// directory itself and its `lock` (Linux, from `/proc/PID/fd`). `None` when that cannot be
    /// read here (no `/proc`): then the caller falls back on the `pid` file and the lock.
    pub(crate) fn made_by(&self, pid: u32) -> Option<bool> {
        let identity = |meta: std::fs::Metadata| {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        std::fs::read_dir("/proc/self/fd").ok()?;
        let dir = identity(std::fs::symlink_metadata(&self.path).ok()?);
        let lock = identity(std::fs::symlink_metadata(self.file("lock")).ok()?);
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
            // Not a process of this user's, or none at all: not the emulator.
            return Some(false);
        };
        let (mut holds_dir, mut holds_lock) = (false, false);
        for fd in fds.flatten() {
            match std::fs::metadata(fd.path()).ok().map(identity) {
                Some(open) if open == dir => holds_dir = true,
                Some(open) if open == lock => holds_lock = true,
                _ => {}
            }
        }
        Some(holds_dir && holds_lock)
    }
}

/// The run directory that process `pid` holds open, if it is a background emulator (Linux).
pub(crate) fn dir_of_process(pid: u32) -> Option<RunDir> {
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?;
    fds.flatten().find_map(|fd| {
        let path = std::fs::read_link(fd.path()).ok()?;
        let dir = RunDir { path };
        (dir.named() && dir.made_by(pid) == Some(true)).then_some(dir)
    })
}

/// The run directories in the temporary directory that are this user's and whose emulator
/// runs, with its process id: the user's background emulators, oldest first.
pub(crate) fn running() -> Vec<(u32, RunDir)> {
    survey().running
}

/// What [`survey`] found in the temporary directory.
#[derive(Debug, Default)]
pub(crate) struct Survey {
    /// The user's background emulators ([`running`]).
    pub(crate) running: Vec<(u32, RunDir)>,
    /// Directories of this user's, named as run directories, whose lock a process holds (an
    /// emulator runs there) but that failed a check, with the check in words: never taken for
    /// a run directory, so that `list` and `env`, which leave them out, can say why.
    pub(crate) refused: Vec<(RunDir, String)>,
}

/// The run directories of the temporary directory: those taken ([`running`]) and those left
/// out though an emulator holds them ([`Survey::refused`]). Others' directories and those of
/// emulators that ended are passed over in silence.
pub(crate) fn survey() -> Survey {
    let mut survey = Survey::default();
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return survey;
    };
    for entry in entries.flatten() {
        let dir = RunDir { path: entry.path() };
        if !dir.named() {
            continue;
        }
        let why = match dir.check_own() {
            Ok(()) => match dir.pid() {
                Ok(pid) => {
                    let runs = match dir.made_by(pid) {
                        Some(made) => made,
                        None => dir.is_running().unwrap_or(false),
                    };
                    if runs {
                        survey.running.push((pid, dir));
                        continue;
                    }
                    format!("process {pid}, which its pid file names, does not hold it open")
                }
                Err(error) => format!("its pid file cannot be read: {error}"),
            },
            Err(Foreign::Gone) => continue,
            Err(Foreign::Not(why)) => why,
        };
        if dir.is_mine() && dir.lock_held() {
            survey.refused.push((dir, why));
        }
    }
    survey
        .running
        .sort_by_key(|(pid, dir)| (dir.about().started, *pid));
    survey.refused.sort_by(|a, b| a.0.path.cmp(&b.0.path));
    survey
}

/// Why a path is not a run directory that `--background` made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Foreign {
    /// Nothing is there (an earlier `--stop` removed it, or the start failed).
    Gone,
    /// Something else is there: what.
    Not(String),
}

/// Appends what an open `stderr` file holds from byte `from` on to `out`; the byte it ended at.
pub(crate) fn relay_from(file: &mut File, from: u64, out: &mut impl Write) -> io::Result<u64> {
    file.seek(SeekFrom::Start(from))?;
    let copied = io::copy(file, out)?;
    out.flush()?;
    Ok(from + copied)
}

enum Lock {
    Shared,
    SharedNow,
    ExclusiveNow,
}

fn flock(file: &File, how: Lock) -> io::Result<()> {
    use rustix::fs::{flock, FlockOperation};
    let operation = match how {
        Lock::Shared => FlockOperation::LockShared,
        Lock::SharedNow => FlockOperation::NonBlockingLockShared,
        Lock::ExclusiveNow => FlockOperation::NonBlockingLockExclusive,
    };
    loop {
        match flock(file, operation) {
            Err(rustix::io::Errno::INTR) => continue,
            other => return other.map_err(io::Error::from),
        }
    }
}

#[cfg(test)]
mod tests;
