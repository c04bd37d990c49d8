//! The repository's Rust files as files: none is over 800 lines (the project guide's limit), and
//! every `.rs` file under `src/`, `tests/` and `crates/*/{src,tests}` is compiled, reached from a
//! crate root or test target by `mod` lines (a `#[path]` one too): a file whose `mod` line was
//! forgotten never compiles, never runs, and so passes (issue 54).
//!
//! And docs/development.md's Layout names every top-level file and every folder of `src/`, and
//! no file or folder that is not there; every check its list of what a new command touches
//! names is a function that is there.
//!
//! All walk the tree, so a new file is checked the moment it is written. The roots are Cargo's:
//! `src/lib.rs`, `src/main.rs`, `src/bin/*`, `tests/*.rs`, `tests/*/main.rs`, and every `path` a
//! manifest gives a target. The checks are tested on small trees held in memory below.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::harness::repo_root;
use crate::rust_source::code_only;

/// The longest a Rust file may be, in lines: past it, a file holds more than one family.
const MOST_LINES: usize = 800;

/// The folders whose Rust files must each be reached by a `mod` line, by path from the root.
const COMPILED: &[&str] = &[
    "src",
    "tests",
    "crates/emulator/src",
    "crates/emulator/tests",
];

/// The packages whose targets are the roots: the client and the emulator crate.
const PACKAGES: &[&str] = &["", "crates/emulator"];

// ---- The checks ---------------------------------------------------------------------------------

/// Each file of `files` (path, text) over [`MOST_LINES`] lines, with its count, by path.
fn too_long(files: &BTreeMap<String, String>) -> Vec<String> {
    files
        .iter()
        .map(|(path, text)| (path, text.lines().count()))
        .filter(|(_, lines)| *lines > MOST_LINES)
        .map(|(path, lines)| format!("{path}: {lines} lines"))
        .collect()
}

/// The `mod NAME;` declarations of a file's code (a test-only one too), each with the path a
/// `#[path = "..."]` just before it gives, and the inline modules (`mod a { ... }`) it is
/// written in, outermost first.
fn declarations(text: &str) -> Vec<(Vec<String>, String, Option<String>)> {
    // Words and single characters of the code, each with its line (from 0).
    let mut tokens: Vec<(usize, String)> = Vec::new();
    for (line, code) in code_only(text).lines().enumerate() {
        let mut word = String::new();
        for c in code.chars().chain([' ']) {
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            if !word.is_empty() {
                tokens.push((line, std::mem::take(&mut word)));
            }
            if !c.is_whitespace() {
                tokens.push((line, c.to_string()));
            }
        }
    }
    let lines: Vec<&str> = text.lines().collect();
    let word = |i: usize| tokens.get(i).map_or("", |t| t.1.as_str());
    let mut found = Vec::new();
    // The inline modules open here, each with the brace depth inside it.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    for i in 0..tokens.len() {
        match word(i) {
            "{" => depth += 1,
            "}" => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth -= 1;
            }
            "mod" if word(i + 2) == ";" => {
                // A `#[path = "..."]` is blanked in the code, so it is read from the text: on
                // the lines after the item before this one, up to this one's.
                let from = (0..i)
                    .rev()
                    .find(|&j| matches!(word(j), ";" | "{" | "}"))
                    .map_or(0, |j| tokens[j].0 + 1);
                let path = lines[from.min(tokens[i].0)..=tokens[i].0]
                    .iter()
                    .filter_map(|line| line.trim().strip_prefix("#[path = \""))
                    .filter_map(|rest| rest.split('"').next())
                    .next_back()
                    .map(str::to_owned);
                let within = inline.iter().map(|(name, _)| name.clone()).collect();
                found.push((within, word(i + 1).to_owned(), path));
            }
            "mod" if word(i + 2) == "{" => inline.push((word(i + 1).to_owned(), depth + 1)),
            _ => {}
        }
    }
    found
}

/// `a/b/../c` as `a/c`.
fn normal(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

/// The files of `files` no root reaches through `mod` lines, by path: from each root, a file's
/// `mod NAME;` is `NAME.rs` or `NAME/mod.rs` in its own folder (a root or `mod.rs`) or in the
/// folder named as the file is (`cli.rs` -> `cli/NAME.rs`), and a `#[path]` is from its folder.
fn orphans(files: &BTreeMap<String, String>, roots: &BTreeSet<String>) -> Vec<String> {
    let mut reached: BTreeSet<String> = BTreeSet::new();
    let mut next: Vec<String> = roots
        .iter()
        .filter(|r| files.contains_key(*r))
        .cloned()
        .collect();
    while let Some(file) = next.pop() {
        if !reached.insert(file.clone()) {
            continue;
        }
        let (folder, name) = file.rsplit_once('/').unwrap_or(("", &file));
        let own = match name == "mod.rs" || roots.contains(&file) {
            true => folder.to_owned(),
            false => format!("{folder}/{}", name.trim_end_matches(".rs")),
        };
        for (within, module, path) in declarations(&files[&file]) {
            let top = within.is_empty();
            let base = std::iter::once(own.clone())
                .chain(within)
                .collect::<Vec<_>>()
                .join("/");
            // A `#[path]` outside inline modules is from the file's own folder.
            let candidates = match path {
                Some(path) if top => vec![normal(&format!("{folder}/{path}"))],
                Some(path) => vec![normal(&format!("{base}/{path}"))],
                None => vec![
                    normal(&format!("{base}/{module}.rs")),
                    normal(&format!("{base}/{module}/mod.rs")),
                ],
            };
            next.extend(candidates.into_iter().filter(|c| files.contains_key(c)));
        }
    }
    files
        .keys()
        .filter(|f| !reached.contains(*f))
        .cloned()
        .collect()
}

// ---- The repository -----------------------------------------------------------------------------

/// Every `.rs` file under `dir` (from the repository's root), by path from the root, with its
/// text; build output (`target/`) and hidden folders left out.
fn rust_files(dir: &str) -> BTreeMap<String, String> {
    fn walk(path: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(path).expect("a folder") {
            let path = entry.expect("an entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if name != "target" && !name.starts_with('.') {
                    walk(&path, out);
                }
            } else if name.ends_with(".rs") {
                let relative = path.strip_prefix(repo_root()).expect("under the root");
                let text = std::fs::read_to_string(&path).expect("a Rust file");
                out.insert(relative.to_string_lossy().replace('\\', "/"), text);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&repo_root().join(dir), &mut out);
    out
}

/// Cargo's targets of the packages: the files it compiles as crate roots.
fn roots(files: &BTreeMap<String, String>) -> BTreeSet<String> {
    let mut roots = BTreeSet::new();
    for package in PACKAGES {
        let at = |path: &str| normal(&format!("{package}/{path}"));
        let manifest = std::fs::read_to_string(repo_root().join(at("Cargo.toml")))
            .expect("a package's Cargo.toml");
        for line in manifest.lines() {
            if let Some(path) = line
                .trim()
                .strip_prefix("path = \"")
                .and_then(|rest| rest.strip_suffix(".rs\""))
            {
                roots.insert(at(&format!("{path}.rs")));
            }
        }
        roots.insert(at("src/lib.rs"));
        roots.insert(at("src/main.rs"));
        for file in files.keys() {
            let Some(rest) = file
                .strip_prefix(&format!("{}/", at("tests")))
                .or_else(|| file.strip_prefix(&format!("{}/", at("src/bin"))))
            else {
                continue;
            };
            if !rest.contains('/') || rest.matches('/').count() == 1 && rest.ends_with("/main.rs") {
                roots.insert(file.clone());
            }
        }
    }
    roots
}

#[test]
fn no_rust_file_is_over_800_lines() {
    let files = rust_files("");
    assert!(files.len() > 100, "only {} Rust files read", files.len());
    let long = too_long(&files);
    assert!(
        long.is_empty(),
        "Rust files over {MOST_LINES} lines (split each by family, as src/launcher/request/ and \
         tests/integration/status/ are):\n{}",
        long.join("\n")
    );
}

#[test]
fn every_rust_file_is_reached_by_a_mod_line() {
    let mut files = BTreeMap::new();
    for dir in COMPILED {
        files.extend(rust_files(dir));
    }
    let roots = roots(&files);
    assert!(
        roots.contains("tests/integration/main.rs") && roots.contains("crates/emulator/src/lib.rs"),
        "the roots read: {roots:?}"
    );
    let orphans = orphans(&files, &roots);
    assert!(
        orphans.is_empty(),
        "these Rust files are reached by no `mod` line from a crate root or test target, so they \
         are never compiled (declare each in the module above it):\n{}",
        orphans.join("\n")
    );
}

/// The backticked words of the bulleted list in `docs/development.md`'s "Layout" section that
/// name a file or folder (`handle.rs`, `cli/`, `batch/steps.rs`), in order.
fn layout_names(development_md: &str) -> Vec<String> {
    let section = development_md
        .split("\n## Layout\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("docs/development.md has a Layout section");
    let mut bullets = String::new();
    let mut in_bullet = false;
    for line in section.lines() {
        in_bullet = line.starts_with("- ") || (in_bullet && line.starts_with("  "));
        if in_bullet {
            bullets.push_str(line);
            bullets.push('\n');
        }
    }
    bullets
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| word.ends_with(".rs") || word.ends_with('/'))
        .filter(|word| {
            word.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_/.".contains(c))
        })
        .map(|word| word.strip_prefix("src/").unwrap_or(word).to_owned())
        .collect()
}

/// What the Layout's names and `src/`'s files (paths from `src/`) disagree on: each top-level
/// file (but `lib.rs`) and each folder the list does not name (a folder is named by a word
/// holding `NAME/`), and each name it gives that is no file or folder of `src/` (a name is a
/// path from `src/` or the end of one: `spec.rs` is `cli/spec.rs`).
fn layout_drift(names: &[String], files: &BTreeSet<String>) -> Vec<String> {
    let folders: BTreeSet<String> = files
        .iter()
        .filter_map(|f| f.rsplit_once('/').map(|(folder, _)| folder))
        .flat_map(|folder| {
            let parts: Vec<&str> = folder.split('/').collect();
            (1..=parts.len())
                .map(|n| parts[..n].join("/"))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut drift = Vec::new();
    for file in files {
        if !file.contains('/') && file != "lib.rs" && !names.contains(file) {
            drift.push(format!("src/{file} is not named"));
        }
    }
    for folder in &folders {
        let name = folder.rsplit('/').next().unwrap_or(folder);
        if !names.iter().any(|n| n.contains(&format!("{name}/"))) {
            drift.push(format!("src/{folder}/ is not named"));
        }
    }
    for name in names {
        let exists = match name.strip_suffix('/') {
            Some(folder) => folders
                .iter()
                .any(|f| f == folder || f.ends_with(&format!("/{folder}"))),
            None => files
                .iter()
                .any(|f| f == name || f.ends_with(&format!("/{name}"))),
        };
        if !exists {
            drift.push(format!(
                "`{name}` is named but no such file or folder is in src/"
            ));
        }
    }
    drift
}

/// docs/development.md's Layout, where a reader learns where things are, names every top-level
/// file and every folder of `src/`, and nothing that is not there.
#[test]
fn the_layout_in_docs_development_md_names_what_src_holds() {
    let text = std::fs::read_to_string(repo_root().join("docs/development.md"))
        .expect("docs/development.md");
    let names = layout_names(&text);
    let files: BTreeSet<String> = rust_files("src")
        .into_keys()
        .map(|f| f.strip_prefix("src/").unwrap_or(&f).to_owned())
        .collect();
    let drift = layout_drift(&names, &files);
    assert!(
        drift.is_empty(),
        "docs/development.md's Layout has drifted from src/:\n{}",
        drift.join("\n")
    );
}

/// docs/development.md's "A new command: what it touches" names, for each registration, the
/// check that demands it (`command_specs::every_command_has_one_spec_and_every_spec_a_command`):
/// each such path names a function that is there, so a renamed or removed check shows here.
#[test]
fn every_check_the_registrations_name_is_there() {
    let text = std::fs::read_to_string(repo_root().join("docs/development.md"))
        .expect("docs/development.md");
    let section = text
        .split("\n## A new command: what it touches\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("docs/development.md has its section on what a new command touches");
    let mut code = String::new();
    for dir in ["src", "tests"] {
        for text in rust_files(dir).into_values() {
            code.push_str(&text);
        }
    }
    let named: Vec<&str> = section
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| {
            word.contains("::")
                && word.starts_with(|c: char| c.is_ascii_lowercase())
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || "_:".contains(c))
        })
        .collect();
    assert!(named.len() >= 10, "only {named:?} named");
    let missing: Vec<&&str> = named
        .iter()
        .filter(|path| {
            let function = path.rsplit("::").next().unwrap_or_default();
            !code.contains(&format!("fn {function}("))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "docs/development.md names checks that are not there: {missing:?}"
    );
}

// ---- The checks, on small trees written here ----------------------------------------------------

fn tree(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|(path, text)| (path.to_string(), text.to_string()))
        .collect()
}

#[test]
fn a_file_over_the_limit_is_named_with_its_count() {
    let files = tree(&[
        ("src/a.rs", &"x\n".repeat(MOST_LINES)),
        ("tests/b.rs", &"x\n".repeat(MOST_LINES + 1)),
    ]);
    assert_eq!(too_long(&files), ["tests/b.rs: 801 lines"]);
}

#[test]
fn a_file_no_mod_line_reaches_is_named() {
    let files = tree(&[
        (
            "src/lib.rs",
            "mod a;\nmod b;\n#[cfg(test)]\nmod t;\n// mod gone;\n",
        ),
        ("src/a.rs", "pub mod inner;\nmod deep {\n    mod d;\n}\n"),
        ("src/a/inner.rs", ""),
        ("src/a/deep/d.rs", ""),
        ("src/a/lost.rs", ""),
        ("src/b/mod.rs", "const S: &str = \"mod x;\";\nmod c;\n"),
        ("src/b/c.rs", ""),
        ("src/b/x.rs", ""),
        ("src/t.rs", ""),
        ("src/gone.rs", ""),
        (
            "tests/it/main.rs",
            "#[path = \"../support/s.rs\"]\nmod s;\nmod y;\n",
        ),
        ("tests/it/y/mod.rs", "mod z;\n"),
        ("tests/it/y/z.rs", ""),
        ("tests/it/forgotten.rs", ""),
        ("tests/support/s.rs", ""),
        ("tests/support/unused.rs", ""),
    ]);
    let roots = ["src/lib.rs", "tests/it/main.rs"]
        .map(str::to_owned)
        .into_iter()
        .collect();
    assert_eq!(
        orphans(&files, &roots),
        [
            "src/a/lost.rs",
            "src/b/x.rs",
            "src/gone.rs",
            "tests/it/forgotten.rs",
            "tests/support/unused.rs"
        ]
    );
}

#[test]
fn layout_drift_names_what_is_missing_and_what_is_gone() {
    let doc = "# Guide\n\n## Layout\n\nIntro `gone.rs`.\n\n- `a.rs` and `cli/`: `spec.rs`, \
               `gone/`,\n  `batch/steps.rs`, `x` and `old.rs`;\n- `main.rs`\n\n## Next\n`b.rs`\n";
    let names = layout_names(doc);
    assert_eq!(
        names,
        [
            "a.rs",
            "cli/",
            "spec.rs",
            "gone/",
            "batch/steps.rs",
            "old.rs",
            "main.rs"
        ]
    );
    let files = [
        "lib.rs",
        "main.rs",
        "a.rs",
        "b.rs",
        "cli/spec.rs",
        "batch/steps.rs",
        "batch/deep/x.rs",
    ]
    .map(str::to_owned)
    .into_iter()
    .collect();
    assert_eq!(
        layout_drift(&names, &files),
        [
            "src/b.rs is not named",
            "src/batch/deep/ is not named",
            "`gone/` is named but no such file or folder is in src/",
            "`old.rs` is named but no such file or folder is in src/"
        ]
    );
}
