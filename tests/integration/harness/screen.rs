//! A terminal for a test: one program run by a tmux server of the test's own (its own socket in
//! a sandbox, a config of its own, an empty environment but what the test gives), read with
//! `capture-pane`. Every wait is for text on the screen, and fails after [`DEADLINE`] with the
//! screen in the message.

use std::path::PathBuf;
use std::process::Command;

use super::{poll, Sandbox, DEADLINE};

/// A tmux server of the test's own, running one command in a 100x30 window. The pane stays
/// when the program exits (`remain-on-exit`), so its last words can be read. The server is
/// killed when dropped.
pub struct Screen {
    socket: PathBuf,
    config: PathBuf,
    sandbox: Sandbox,
}

impl Screen {
    /// Runs `program` (its path and arguments, no shell between) in a new session, with an
    /// environment of `env` alone (but PATH, when `env` does not give it).
    #[track_caller]
    pub fn start(program: &[&str], env: &[(&str, &str)]) -> Screen {
        let sandbox = Sandbox::new();
        let config = sandbox.file("tmux.conf", "set -g remain-on-exit on\n");
        let screen = Screen {
            socket: sandbox.path().join("tmux.socket"),
            config,
            sandbox,
        };
        let mut command = screen.tmux();
        command.args(["new-session", "-d", "-x", "100", "-y", "30"]);
        command.args(program);
        for (name, value) in env {
            command.env(name, value);
        }
        let status = command.status().expect("tmux runs");
        assert!(status.success(), "tmux new-session {program:?}");
        screen
    }

    /// tmux on this screen's own server, with an empty environment but HOME and PATH.
    fn tmux(&self) -> Command {
        let mut command = Command::new("tmux");
        command
            .env_clear()
            .env("HOME", self.sandbox.path())
            .env("PATH", "/usr/bin:/bin")
            .arg("-S")
            .arg(&self.socket)
            .arg("-f")
            .arg(&self.config);
        command
    }

    /// Runs one tmux command on this screen's server and gives its stdout; fails if it fails.
    #[track_caller]
    fn ask(&self, args: &[&str]) -> String {
        let output = self.tmux().args(args).output().expect("tmux runs");
        assert!(
            output.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// The screen and everything scrolled off it; a line the window's width wrapped is one
    /// line, and trailing spaces the program wrote (a prompt's) are kept.
    pub fn whole(&self) -> String {
        self.ask(&["capture-pane", "-p", "-J", "-S", "-"])
    }

    /// Waits until the screen shows `text`; the screen then. Fails after [`DEADLINE`].
    #[track_caller]
    pub fn wait_for(&self, text: &str) -> String {
        poll(DEADLINE, || Some(self.whole()).filter(|s| s.contains(text)))
            .unwrap_or_else(|| panic!("the screen never showed {text:?}:\n{}", self.whole()))
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").status();
    }
}
