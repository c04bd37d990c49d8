//! README's shell blocks, run as a reader would paste them: every block fenced as ```` ```sh
//! runnable ```` runs under `sh` (dash) and under `bash`, in an empty directory, with this build's
//! `safe-ad` on PATH and a fresh emulator's URL and token in the environment (a block may start
//! its own emulator instead). Each must exit 0 and leave no process of its own running: the
//! shell runs in a process group of its own, and once it has exited that group must be empty;
//! and no process it started may run on elsewhere (an emulator started with `--background` leaves
//! the group: it is found by the mark its environment carries, see `Leftovers`).
//!
//! The blocks use the emulator, so this module needs the `emulator` feature.
//!
//! Blocks that need what a test cannot give (a person approving a login, `cargo install`, root
//! for `apt`) are fenced as plain ```` ```sh ````; CI runs README's test command itself.

use std::process::Command;

use crate::harness::emulator::Emulator;
use crate::harness::leftovers::Leftovers;
use crate::harness::*;

/// One runnable block: where it starts in README.md, and its text.
struct Block {
    line: usize,
    script: String,
}

fn runnable_blocks() -> Vec<Block> {
    let readme = readme();
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (at, line) in readme.lines().enumerate() {
        match &mut open {
            None if line.trim_end() == "```sh runnable" => {
                open = Some(Block {
                    line: at + 1,
                    script: String::new(),
                })
            }
            None => {}
            Some(_) if line.trim_end() == "```" => blocks.extend(open.take()),
            Some(block) => {
                block.script.push_str(line);
                block.script.push('\n');
            }
        }
    }
    assert!(open.is_none(), "README.md ends inside a runnable block");
    blocks
}

/// Processes in process group `group`, as `pid comm` lines (from /proc).
fn processes_in_group(group: u32) -> Vec<String> {
    std::fs::read_dir("/proc")
        .expect("/proc lists the processes")
        .flatten()
        .filter_map(|entry| {
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // `pid (comm) state ppid pgrp ...`: comm may hold spaces, so split after its `)`.
            let (head, rest) = stat.rsplit_once(')')?;
            let pgrp: u32 = rest.split_whitespace().nth(2)?.parse().ok()?;
            (pgrp == group).then(|| head.replace(" (", " "))
        })
        .collect()
}

#[test]
fn readme_marks_its_runnable_blocks() {
    let blocks = runnable_blocks();
    assert!(
        blocks.len() >= 2,
        "README.md has {} blocks fenced as ```sh runnable",
        blocks.len()
    );
}

#[test]
fn every_runnable_readme_block_runs_under_sh_and_bash_and_leaves_nothing_running() {
    for block in runnable_blocks() {
        for shell in ["sh", "bash"] {
            let what = format!("README.md line {} under {shell}", block.line);
            let emulator = Emulator::start(&[]);
            let sandbox = Sandbox::new();
            let leftovers = Leftovers::new();
            // set -e: a command of the block that fails fails the block, as it would stop a
            // reader. The output is read while the block runs: a block may print a lot.
            let mut running = leftovers
                .mark(sandbox.shell(shell, &format!("set -e\n{}", block.script)))
                .current_dir(sandbox.path())
                .env("SAFE_LAUNCHER_URL", &emulator.url)
                .env("SAFE_LAUNCHER_TOKEN", TOKEN)
                .own_process_group()
                .case(&what)
                .spawn();
            let group = running.pid();
            running.wait_for_exit();
            // What the block started and left running is still in its group; it may hold the
            // output open, so it is ended before the output is collected.
            let mut left = processes_in_group(group);
            left.extend(leftovers.running());
            if !left.is_empty() {
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{group}")])
                    .status();
            }
            running.wait().success().check(
                left.is_empty(),
                format!("it left processes running: {left:?}"),
            );
        }
    }
}
