//! A terminal for a test: one program run by a tmux server of the test's own (its own socket in
//! a sandbox, a config of its own, an empty environment but what the test gives), typed into
//! with `send-keys` and read with `capture-pane`. Every wait is for text on the screen or for
//! the program's exit, and fails after [`DEADLINE`] with the screen in the message.

use std::path::PathBuf;
use std::process::Command;

use super::{poll, Sandbox, DEADLINE};

/// A tmux server of the test's own, running one command in a 100x30 window. The pane stays
/// when the program exits (`remain-on-exit`), so its exit can be seen and its last words read.
/// The server is killed when dropped.
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
        Screen::start_sized(program, env, (100, 30))
    }

    /// [`Screen::start`] in a window of `(columns, rows)`.
    #[track_caller]
    pub fn start_sized(program: &[&str], env: &[(&str, &str)], size: (u16, u16)) -> Screen {
        let sandbox = Sandbox::new();
        let config = sandbox.file("tmux.conf", "set -g remain-on-exit on\n");
        let screen = Screen {
            socket: sandbox.path().join("tmux.socket"),
            config,
            sandbox,
        };
        let mut command = screen.tmux();
        let (columns, rows) = (size.0.to_string(), size.1.to_string());
        command.args(["new-session", "-d", "-x", &columns, "-y", &rows]);
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
        let mut command = super::with_default_stop_signals("tmux");
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

    /// Types `text` as it is, each character a key (no key names).
    #[track_caller]
    pub fn type_text(&self, text: &str) {
        self.ask(&["send-keys", "-l", text]);
    }

    /// Presses the keys tmux names (`Enter`, `Tab`, `Up`, `C-c`, `C-d`), in order.
    #[track_caller]
    pub fn press(&self, keys: &[&str]) {
        let mut args = vec!["send-keys"];
        args.extend_from_slice(keys);
        self.ask(&args);
    }

    /// The screen and everything scrolled off it; a line the window's width wrapped is one
    /// line, and trailing spaces the program wrote (a prompt's) are kept.
    pub fn whole(&self) -> String {
        self.ask(&["capture-pane", "-p", "-J", "-S", "-"])
    }

    /// The line the cursor is on, as the screen shows it (a prompt and what is typed after it).
    #[track_caller]
    pub fn cursor_line(&self) -> String {
        let y: usize = self
            .ask(&["display", "-p", "#{cursor_y}"])
            .trim()
            .parse()
            .expect("a row");
        let visible = self.ask(&["capture-pane", "-p"]);
        visible.lines().nth(y).unwrap_or("").to_owned()
    }

    /// Waits until the screen shows `text`; the screen then. Fails after [`DEADLINE`].
    #[track_caller]
    pub fn wait_for(&self, text: &str) -> String {
        self.wait_for_count(text, 1)
    }

    /// Waits until `text` shows `count` times or more on the screen and its scrollback; the
    /// screen then. Fails after [`DEADLINE`].
    #[track_caller]
    pub fn wait_for_count(&self, text: &str, count: usize) -> String {
        poll(DEADLINE, || {
            Some(self.whole()).filter(|s| s.matches(text).count() >= count)
        })
        .unwrap_or_else(|| {
            panic!(
                "the screen never showed {text:?} {count} times:\n{}",
                self.whole()
            )
        })
    }

    /// The pid of the program the pane runs (tmux runs it without a shell between).
    #[track_caller]
    pub fn pid(&self) -> u32 {
        let pid = self.ask(&["display", "-p", "#{pane_pid}"]);
        pid.trim().parse().expect("a pid")
    }

    /// Waits until the program has exited, and gives its exit code; fails if a signal killed
    /// it, or after [`DEADLINE`]. tmux says the code once it has reaped the program; a program
    /// that exits from a thread of its own may stay a zombie tmux has not noticed (tmux 3.3a),
    /// and then the kernel says it: the exit status in `/proc/<pid>/stat`.
    #[track_caller]
    pub fn wait_exit(&self) -> i32 {
        let pid = self.pid();
        let status = poll(DEADLINE, || {
            let dead = self.ask(&["display", "-p", "#{pane_dead} #{pane_dead_status}"]);
            let (dead, code) = dead.trim_end_matches('\n').split_once(' ')?;
            if dead != "1" {
                return None;
            }
            match code.parse::<i32>() {
                Ok(code) => Some(code),
                Err(_) => zombie_status(pid).map(|status| {
                    assert!(
                        status & 0x7f == 0,
                        "the program was killed by signal {}:\n{}",
                        status & 0x7f,
                        self.whole()
                    );
                    (status >> 8) & 0xff
                }),
            }
        });
        status.unwrap_or_else(|| {
            panic!(
                "the program in the pane did not exit within {DEADLINE:?}:\n{}",
                self.whole()
            )
        })
    }
}

/// The wait status of process `pid` once it is a zombie (the 52nd field of `/proc/<pid>/stat`,
/// as `waitpid` would give it); `None` while it runs, or once it is gone.
fn zombie_status(pid: u32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, fields) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = fields.split_whitespace().collect();
    if fields.first() != Some(&"Z") {
        return None;
    }
    fields.get(49)?.parse().ok()
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").status();
    }
}
