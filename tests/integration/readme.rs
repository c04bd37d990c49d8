//! README's and the guide's (`docs/*.md`) shell blocks, run as a reader would paste them: every
//! block fenced as ```` ```sh runnable ```` runs under `sh` (dash) and under `bash`, in an empty directory, with this build's
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
//!
//! And the documentation holds together: README's command table names every subcommand clap
//! knows, and every link in README and docs/ leads to a file that exists and, with `#anchor`, to
//! a heading (or `<a id>`) in it.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use serde_json::Value;

use crate::harness::emulator::Emulator;
use crate::harness::leftovers::Leftovers;
use crate::harness::*;
use crate::messages::quoted;

/// One runnable block: the file and line where it starts, and its text.
struct Block {
    file: String,
    line: usize,
    script: String,
}

fn runnable_blocks() -> Vec<Block> {
    documents()
        .iter()
        .flat_map(|file| runnable_blocks_of(file))
        .collect()
}

fn runnable_blocks_of(file: &str) -> Vec<Block> {
    let text = doc(file);
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (at, line) in text.lines().enumerate() {
        match &mut open {
            None if line.trim_end() == "```sh runnable" => {
                open = Some(Block {
                    file: file.to_owned(),
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
    assert!(open.is_none(), "{file} ends inside a runnable block");
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
fn readme_and_the_guide_mark_their_runnable_blocks() {
    let blocks = runnable_blocks_of("README.md");
    // The quick start's one line and the tour's one block (which runs top to bottom).
    assert!(
        blocks.len() >= 2,
        "README.md has {} blocks fenced as ```sh runnable",
        blocks.len()
    );
    for file in ["docs/handles.md", "docs/emulator.md"] {
        assert!(
            !runnable_blocks_of(file).is_empty(),
            "{file} has no block fenced as ```sh runnable"
        );
    }
}

#[test]
fn every_runnable_readme_block_runs_under_sh_and_bash_and_leaves_nothing_running() {
    for block in runnable_blocks() {
        for shell in ["sh", "bash"] {
            let what = format!("{} line {} under {shell}", block.file, block.line);
            run_alone(&what, shell, &block.script, &Sandbox::new());
        }
    }
}

/// README's runnable blocks one after another in one shell, as a reader pastes them top to
/// bottom, against one emulator: each works after the ones before it (none finds data an
/// earlier one changed), and what they write goes into a temporary directory, never into the
/// directory the reader is in.
#[test]
fn readmes_blocks_run_top_to_bottom_in_one_shell_and_write_only_to_a_temporary_directory() {
    let script: String = (runnable_blocks_of("README.md").iter())
        .map(|block| block.script.as_str())
        .collect();
    for shell in ["sh", "bash"] {
        let sandbox = Sandbox::new();
        let temporary = sandbox.path().join("tmp");
        std::fs::create_dir_all(&temporary).expect("a temporary directory");
        let here = sandbox.path().join("here");
        std::fs::create_dir(&here).expect("the reader's directory");
        let script = format!(
            "cd {} && TMPDIR={} && export TMPDIR\n{script}",
            quoted(here.to_str().expect("UTF-8")),
            quoted(temporary.to_str().expect("UTF-8"))
        );
        run_alone(
            &format!("README.md top to bottom under {shell}"),
            shell,
            &script,
            &sandbox,
        );
        let written: Vec<_> = std::fs::read_dir(&here).expect("here").collect();
        assert!(
            written.is_empty(),
            "README wrote into the reader's directory: {written:?}"
        );
    }
}

/// Runs `script` with `set -e` under `shell`, in `sandbox`, against a fresh emulator whose URL
/// and token are in the environment: it must exit 0 and leave no process of its own running.
fn run_alone(what: &str, shell: &str, script: &str, sandbox: &Sandbox) {
    let emulator = Emulator::start(&[]);
    let leftovers = Leftovers::new();
    // A TMPDIR of its own, where a block's background emulator makes its directory: the hints
    // of other tests running meanwhile name a background emulator of the user's when one runs.
    let temporary = sandbox.path().join("tmp");
    std::fs::create_dir_all(&temporary).expect("a temporary directory");
    // set -e: a command of the block that fails fails the block, as it would stop a reader.
    // The output is read while the block runs: a block may print a lot.
    let mut running = leftovers
        .mark(sandbox.shell(shell, &format!("set -e\n{script}")))
        .current_dir(sandbox.path())
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .env("SAFE_LAUNCHER_TOKEN", TOKEN)
        .env("TMPDIR", &temporary)
        .own_process_group()
        .case(what)
        .spawn();
    let group = running.pid();
    running.wait_for_exit();
    // What the block started and left running is still in its group; it may hold the output
    // open, so it is ended before the output is collected.
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

#[test]
fn readmes_command_table_names_every_subcommand() {
    let readme = readme();
    let table = readme
        .split("<!-- commands-table")
        .nth(1)
        .and_then(|rest| rest.split("<!-- /commands-table -->").next())
        .expect("README has its command table between its markers");
    // The first cell of each row, without its arguments: `safe-ad auth whoami`.
    let named: Vec<String> = table
        .lines()
        .filter_map(|row| row.strip_prefix("| `safe-ad "))
        .map(|cell| {
            cell.split('`')
                .next()
                .unwrap_or_default()
                .split(' ')
                .take_while(|word| word.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let paths = command_paths();
    let missing: Vec<&String> = paths.iter().filter(|path| !named.contains(path)).collect();
    assert!(
        missing.is_empty(),
        "README's command table lacks {missing:?} (it names {named:?})"
    );
    let unknown: Vec<&String> = named.iter().filter(|name| !paths.contains(name)).collect();
    assert!(
        unknown.is_empty(),
        "README's command table names {unknown:?}, which clap lacks"
    );
}

/// The anchors GitHub makes for a Markdown file's headings (lower case, punctuation but `-` and
/// `_` dropped, spaces as `-`, a repeated one numbered), and its `<a id="...">`s.
fn anchors(text: &str) -> Vec<String> {
    let mut anchors: Vec<String> = Vec::new();
    for line in prose_lines(text) {
        if let Some(heading) = line
            .strip_prefix('#')
            .map(|rest| rest.trim_start_matches('#'))
        {
            let slug: String = heading
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect();
            let seen = anchors.iter().filter(|a| **a == slug).count();
            anchors.push(if seen == 0 {
                slug.clone()
            } else {
                format!("{slug}-{seen}")
            });
        }
        for piece in line.split("<a id=\"").skip(1) {
            anchors.extend(piece.split('"').next().map(str::to_owned));
        }
    }
    anchors
}

#[test]
fn every_link_in_readme_and_docs_resolves() {
    let mut broken = Vec::new();
    let mut count = 0;
    for file in documents() {
        let text = doc(&file);
        for target in links(&text) {
            if target.starts_with("http://") || target.starts_with("https://") {
                continue;
            }
            count += 1;
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let resolved = resolve(&file, path);
            let Ok(linked) = std::fs::read_to_string(repo_root().join(&resolved)) else {
                broken.push(format!("{file}: {target} (no file {resolved})"));
                continue;
            };
            if !anchor.is_empty() && !anchors(&linked).iter().any(|a| a == anchor) {
                broken.push(format!(
                    "{file}: {target} (no heading #{anchor} in {resolved})"
                ));
            }
        }
    }
    assert!(count > 20, "only {count} links found");
    assert!(
        broken.is_empty(),
        "links that lead nowhere:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_link_check_finds_a_missing_anchor_and_reads_headings_as_github_does() {
    let text = "# Title\n## JSON Lines (`--json`)\n## Local copy and network\n<a id=\"leases\"></a>\n## Title\n";
    assert_eq!(
        anchors(text),
        [
            "title",
            "json-lines---json",
            "local-copy-and-network",
            "leases",
            "title-1"
        ]
    );
    assert_eq!(
        links("see [a](b.md#c) and `[not](x)` then [d](#e)"),
        ["b.md#c", "#e"]
    );
}

/// A five-minute read: at most 1,300 words, code included (issue 52), and 300 lines.
#[test]
fn readme_stays_short() {
    let text = readme();
    let lines = text.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines; the detail belongs in docs/"
    );
    let words = text.split_whitespace().count();
    assert!(
        words <= 1300,
        "README.md has {words} words, more than a five-minute read; the detail belongs in docs/"
    );
}

/// Lists (by their key path) whose items a table of their own describes: (`data`, `item`).
type Lists<'a> = &'a [(&'a str, &'a str)];

/// The key tables of the guide: a `<!-- json-keys: NAME -->` line, then a Markdown table whose
/// first cell names keys (`handle`, `error.class`) and whose last says what they mean. By table,
/// its rows as (keys, meaning).
fn key_tables() -> BTreeMap<String, Vec<(Vec<String>, String)>> {
    let mut tables = BTreeMap::new();
    for file in documents() {
        let text = doc(&file);
        for piece in text.split("<!-- json-keys: ").skip(1) {
            let (name, rest) = piece.split_once(" -->\n").expect("a json-keys marker line");
            // A table written from the code says so after its name (`NAME: written from ...`).
            let name = name.split(':').next().unwrap_or(name);
            let rows: Vec<(Vec<String>, String)> = rest
                .lines()
                .skip(2)
                .take_while(|line| line.starts_with('|'))
                .map(|line| {
                    let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
                    let keys = cells[0]
                        .split(", ")
                        .map(|key| key.trim().trim_matches('`').to_owned())
                        .collect();
                    (keys, cells.last().copied().unwrap_or_default().to_owned())
                })
                .collect();
            assert!(
                !rows.is_empty(),
                "{file}: json-keys table {name} has no rows"
            );
            let before = tables.insert(name.to_owned(), rows);
            assert!(before.is_none(), "two json-keys tables named {name}");
        }
    }
    tables
}

/// Every key of `value` under `table`: its own keys as `key`, the keys of an object in it as
/// `key.inner` (at any depth), and the keys of the objects of a list named in `lists` under the
/// table that list names.
fn collect_keys(
    value: &Value,
    table: &str,
    prefix: &str,
    lists: &[(&str, &str)],
    found: &mut BTreeSet<(String, String)>,
) {
    let Some(object) = value.as_object() else {
        return;
    };
    for (key, inner) in object {
        let path = format!("{prefix}{key}");
        found.insert((table.to_owned(), path.clone()));
        let items: Vec<&Value> = match inner {
            Value::Array(items) => items.iter().collect(),
            other => vec![other],
        };
        match lists.iter().find(|(list, _)| *list == path) {
            Some((_, other)) => {
                for item in items {
                    collect_keys(item, other, "", &[], found);
                }
            }
            None => {
                for item in items {
                    collect_keys(item, table, &format!("{path}."), lists, found);
                }
            }
        }
    }
}

/// How many rows of `table` document `path`: rows naming it; for `a.b.c`, the row naming `a`
/// whose meaning names `c` (in backticks), or, for `error.*`, the batch objects' `error.c` row.
fn rows_documenting(
    tables: &BTreeMap<String, Vec<(Vec<String>, String)>>,
    table: &str,
    path: &str,
) -> usize {
    let rows = &tables[table];
    let naming = |rows: &[(Vec<String>, String)], key: &str| {
        rows.iter()
            .filter(|(keys, _)| keys.iter().any(|k| k == key))
            .count()
    };
    let direct = naming(rows, path);
    if direct > 0 || !path.contains('.') {
        return direct;
    }
    let (top, _) = path.split_once('.').expect("a nested key");
    let last = path.rsplit('.').next().expect("a last part");
    if top == "error" && table != "result" && naming(rows, "error") == 1 {
        return rows_documenting(tables, "result", path);
    }
    let named_in_row = rows.iter().any(|(keys, meaning)| {
        keys.iter()
            .any(|k| k == top || k.starts_with(&format!("{top}.")))
            && meaning.contains(&format!("`{last}`"))
    });
    usize::from(named_in_row)
}

/// Every key that `--json` prints, of every command, is in the guide's table for its object,
/// in exactly one row: the commands run against the emulator, each kind of object they print
/// at least once (a success, a failure, an item of each kind, a whole appendable data).
#[test]
fn every_json_key_of_every_command_is_documented_once() {
    let tables = key_tables();
    for (name, rows) in &tables {
        let mut seen = BTreeSet::new();
        for (keys, _) in rows {
            for key in keys {
                assert!(
                    seen.insert(key),
                    "the json-keys table {name} names {key} twice"
                );
            }
        }
    }
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let run = |args: &[&str], stdin: &str| {
        sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .arg("--json")
            .args(args)
            .stdin(stdin.as_bytes().to_vec())
            .run()
    };
    let structured = "ZGVtbyBpdGVtIGsuLi4uLi4uLi4uLi4uLi4uLi4uLi4=";
    let serialised = emulator.http("GET", "/appendable-data/serialise/1", Some(TOKEN), None);
    assert_eq!(serialised.status, 200);
    let appendable = crate::harness::http::b64(&serialised.bytes);
    let sign_key = format!("2000000000000000{}", "01".repeat(32));
    let demo_name = emulator.demo_name(1);
    let stale_name = emulator.demo_name(2);
    let show_lists: &[(&str, &str)] = &[("data", "item"), ("deleted_data", "item")];
    let status_lists: &[(&str, &str)] = &[
        ("unsaved.removed", "item"),
        ("unsaved.restored", "item"),
        ("unsaved.purged", "item"),
        ("unsaved.only_in_copy", "item"),
        ("new_on_network", "item"),
    ];
    let wait_lists: &[(&str, &str)] = &[("items", "item")];
    // With --verbose a result carries the requests behind it, each in the request table.
    let requests: &[(&str, &str)] = &[("requests", "request")];
    let watch_lists: &[(&str, &str)] = &[("item", "item")];
    // (the table, the exit code, the command, its stdin, the lists another table describes)
    let runs: Vec<(&str, i32, Vec<&str>, &str, Lists)> = vec![
        ("result", 0, vec!["create", "--put"], "", &[]),
        (
            "result",
            0,
            vec!["--verbose", "create", "--put"],
            "",
            requests,
        ),
        ("result", 0, vec!["--verbose", "reopen", "5"], "", requests),
        (
            "result",
            0,
            vec!["--verbose", "metadata", "1"],
            "",
            requests,
        ),
        ("result", 4, vec!["--verbose", "put", "1"], "", requests),
        ("result", 0, vec!["open", &demo_name], "", &[]),
        ("result", 0, vec!["reopen", "--drop", "2"], "", &[]),
        ("result", 2, vec!["metadata", "-"], "1\nnot-a-handle\n", &[]),
        ("result", 0, vec!["put", "0"], "", &[]),
        ("result", 0, vec!["remove", "1", "0"], "", &[]),
        (
            "result",
            0,
            vec!["append", "1", "--structured", structured],
            "",
            &[],
        ),
        (
            "result",
            0,
            vec!["append", "5", "--immutable", "-"],
            "a message",
            &[],
        ),
        ("result", 4, vec!["drop", "99"], "", &[]),
        // `shell` prints its lines' objects: here `metadata`'s.
        ("result", 0, vec!["shell", "-c", "metadata 1"], "", &[]),
        ("show", 0, vec!["show", "--full", "1"], "", show_lists),
        ("show", 4, vec!["show", "5", "99"], "", show_lists),
        ("show", 4, vec!["show", "--serialised", "1", "99"], "", &[]),
        ("status", 7, vec!["status", "1", "99"], "", status_lists),
        (
            "wait",
            0,
            vec!["wait", "1", "--for", "item", "--kind", "structured-data"],
            "",
            wait_lists,
        ),
        (
            "wait",
            8,
            vec!["wait", "1", "--for", "stale", "--deadline", "1"],
            "",
            wait_lists,
        ),
        (
            "watch",
            0,
            vec!["watch", "1", "--count", "1"],
            "",
            watch_lists,
        ),
        ("settings", 0, vec!["auth", "status"], "", &[]),
        ("settings", 0, vec!["config", "show"], "", &[]),
        ("settings", 0, vec!["config", "path"], "", &[]),
        ("whoami", 0, vec!["auth", "whoami"], "", &[]),
        (
            "decode",
            0,
            vec!["decode", "AQAAAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB"],
            "",
            &[],
        ),
        ("decode", 0, vec!["decode", &sign_key], "", &[]),
        ("decode", 0, vec!["decode", &appendable], "", &[]),
        ("journal", 0, vec!["emulator", "requests"], "", &[]),
        // The filter's: of the stale demo data by name (a fresh copy, saved), and handle 1's
        // read; handle 1 is left as it was.
        ("result", 0, vec!["filter", "show", "1"], "", &[]),
        (
            "result",
            0,
            vec!["filter", "add", "--signer-of", "0", &stale_name],
            "",
            &[],
        ),
        (
            "result",
            0,
            vec!["filter", "remove", &stale_name, "ada39b1f8c5b3f91"],
            "",
            &[],
        ),
        (
            "result",
            0,
            vec!["filter", "type", &stale_name, "white-list"],
            "",
            &[],
        ),
        // Last: they change demo handle 1, which the runs above read.
        ("result", 0, vec!["post", "1"], "", &[]),
        (
            "result",
            0,
            vec!["clear-data", "--save", "post", "1"],
            "",
            &[],
        ),
        ("result", 0, vec!["clear-deleted-data", "1"], "", &[]),
        ("result", 4, vec!["restore", "1", "0"], "", &[]),
        ("result", 4, vec!["purge", "1", "0"], "", &[]),
    ];
    // Every command that takes --json is run here, with the table its spec names; but
    // `emulator list`, which lists background emulators, none of which this test starts (its
    // key table in docs/emulator-ci.md is written from its type, the emulator crate's `Listed`,
    // and tests/integration/emulator_list.rs runs it).
    for spec in safe_ad::test_support::cli::COMMANDS {
        if !spec.options.contains(safe_ad::test_support::cli::Opt::Json)
            || spec.path == "emulator list"
        {
            continue;
        }
        let words: Vec<&str> = spec.path.split(' ').collect();
        let table = spec
            .json
            .unwrap_or_else(|| panic!("`{}` takes --json; its spec names no table", spec.path));
        assert!(
            runs.iter()
                .any(|(run_table, _, args, _, _)| args.starts_with(&words) && *run_table == table),
            "`{}` takes --json and is not run here with its table `{table}`: add a run",
            spec.path
        );
    }

    let mut found = BTreeSet::new();
    for (table, code, args, stdin, lists) in &runs {
        let output = run(args, stdin);
        output.code(*code);
        let lines = output.json_lines();
        output.check(
            !lines.is_empty(),
            format!("`{}` printed no JSON", args.join(" ")),
        );
        for line in &lines {
            collect_keys(line, table, "", lists, &mut found);
        }
    }
    // A failure that ends the run: no token.
    let no_token = sandbox
        .safe_ad()
        .env("SAFE_LAUNCHER_URL", &emulator.url)
        .args(["--json", "metadata", "1"])
        .run();
    no_token.code(3);
    for line in no_token.json_lines() {
        collect_keys(&line, "result", "", &[], &mut found);
    }
    assert!(found.len() > 100, "{} keys found", found.len());
    let wrong: Vec<String> = found
        .iter()
        .filter_map(|(table, path)| {
            let rows = rows_documenting(&tables, table, path);
            (rows != 1).then(|| format!("{table}: `{path}` in {rows} rows"))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "--json keys not documented exactly once in docs/ (json-keys tables):\n{}",
        wrong.join("\n")
    );
}
