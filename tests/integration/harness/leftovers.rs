//! Processes a test started that may outlive the process it started them from: a background
//! emulator leaves its caller's session and process group, so neither a `Running` nor a process
//! group finds it. [`Leftovers`] marks every process started through it with an environment
//! variable of its own, which each process it starts in turn inherits (the background emulator
//! included), finds them all by that mark in `/proc/<pid>/environ`, and kills what is left when
//! dropped, so that even a failing test leaves no emulator running.

use super::{poll, SafeAd, DEADLINE};

/// The environment variable that marks a test's processes.
const MARK: &str = "SAFE_AD_TEST_LEFTOVERS";

/// One test's mark; kills the processes that carry it when dropped.
pub struct Leftovers {
    mark: String,
}

impl Leftovers {
    pub fn new() -> Leftovers {
        let mut bytes = [0u8; 8];
        getrandom::getrandom(&mut bytes).expect("random bytes");
        let mark: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        Leftovers { mark }
    }

    /// `safe_ad` with this test's mark in its environment.
    pub fn mark(&self, safe_ad: SafeAd) -> SafeAd {
        safe_ad.env(MARK, &self.mark)
    }

    /// The live processes that carry the mark, as `pid command line`.
    pub fn running(&self) -> Vec<String> {
        let needle = format!("{MARK}={}", self.mark);
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|entry| {
                let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
                let environment = std::fs::read(entry.path().join("environ")).ok()?;
                let marked = environment
                    .split(|byte| *byte == 0)
                    .any(|variable| variable == needle.as_bytes());
                if !marked || is_zombie(pid) {
                    return None;
                }
                let command = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
                let command = String::from_utf8_lossy(&command).replace('\0', " ");
                Some(format!("{pid} {}", command.trim()))
            })
            .collect()
    }

    /// Fails, naming them, if any marked process still runs once those already on their way out
    /// have had time to end (the deadline), and kills them.
    #[track_caller]
    pub fn assert_none(&self) {
        let left = poll(DEADLINE, || {
            let left = self.running();
            left.is_empty().then_some(())
        });
        if left.is_none() {
            let running = self.running();
            self.kill();
            panic!("processes left running: {running:?}");
        }
    }

    fn kill(&self) {
        for line in self.running() {
            if let Some(pid) = line.split(' ').next() {
                let _ = std::process::Command::new("kill")
                    .args(["-KILL", pid])
                    .status();
            }
        }
    }
}

/// Whether process `pid` has ended and waits to be reaped (its environment is then unreadable
/// anyway on recent kernels; this makes sure).
fn is_zombie(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let (_, rest) = stat.rsplit_once(')')?;
            rest.split_whitespace().next().map(|state| state == "Z")
        })
        .unwrap_or(false)
}

impl Drop for Leftovers {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The variables of `--background`'s or `emulator env`'s lines, in either format (`export
/// NAME='VALUE'` or `NAME=VALUE`; no quotes in ours), by name.
pub fn variables(text: &str) -> std::collections::BTreeMap<String, String> {
    (text.lines())
        .filter_map(|line| {
            let line = line.strip_prefix("export ").unwrap_or(line);
            let (name, value) = line.split_once('=')?;
            Some((name.to_owned(), value.trim_matches('\'').to_owned()))
        })
        .collect()
}

/// A CI job as the tests play it: a working directory (a sandbox, also HOME), a `TMPDIR` of its
/// own (where `--background` makes its directories, so a test can see they are gone), and the
/// mark on every process it starts, which are killed when it is dropped.
pub struct CiJob {
    // Dropped first: the processes go before their directory.
    pub leftovers: Leftovers,
    pub sandbox: super::Sandbox,
}

impl CiJob {
    pub fn new() -> CiJob {
        let sandbox = super::Sandbox::new();
        std::fs::create_dir(sandbox.path().join("tmp")).expect("the job's TMPDIR");
        CiJob {
            leftovers: Leftovers::new(),
            sandbox,
        }
    }

    /// Its `TMPDIR`.
    pub fn tmp(&self) -> std::path::PathBuf {
        self.sandbox.path().join("tmp")
    }

    /// `shell -c script` in the job's directory, with its TMPDIR and mark (see
    /// [`super::Sandbox::shell`]).
    pub fn shell(&self, shell: &str, script: &str) -> SafeAd {
        self.leftovers.mark(
            self.sandbox
                .shell(shell, script)
                .current_dir(self.sandbox.path())
                .env("TMPDIR", self.tmp()),
        )
    }

    /// `safe-ad` in the job's directory, with its TMPDIR and mark.
    pub fn safe_ad(&self) -> SafeAd {
        self.leftovers.mark(
            self.sandbox
                .safe_ad()
                .current_dir(self.sandbox.path())
                .env("TMPDIR", self.tmp()),
        )
    }

    /// `safe-ad emulator --background --quiet --listen 127.0.0.1:0 OPTIONS` in the job, which
    /// must start: what it printed (its variables: [`variables`]).
    #[track_caller]
    pub fn background(&self, options: &[&str]) -> super::Output {
        let output = (self.safe_ad())
            .args(["emulator", "--background", "--quiet"])
            .args(["--listen", "127.0.0.1:0"])
            .args(options)
            .run();
        output.success();
        output
    }

    /// What is in its TMPDIR (the directories of background emulators not yet stopped).
    pub fn temporary_files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.tmp())
            .expect("the job's TMPDIR")
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}
