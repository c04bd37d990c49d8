//! TESTING.md's table of the suites, written from each test module's own doc comment: the first
//! paragraph of the `//!` block of every module `main.rs` declares (a file, or a folder's
//! `mod.rs`), and of the Rust-source reader it includes. A module is described once, in its own
//! file; a new one gets its row by being declared, and a test fails while the table is stale.

use crate::generated::{assert_asked_by_name, REGENERATE};
use crate::harness::repo_root;

const BEGIN: &str =
    "<!-- suites: written from each module's doc comment by tests/integration/suites.rs -->\n";
const END: &str = "<!-- /suites -->";

/// The modules `tests/integration/main.rs` declares, as paths from the repository's root, and
/// the files it includes by `#[path]`; itself first.
fn modules() -> Vec<String> {
    let main = std::fs::read_to_string(repo_root().join("tests/integration/main.rs"))
        .expect("tests/integration/main.rs");
    let mut paths = vec!["tests/integration/main.rs".to_owned()];
    let mut included = None;
    for line in main.lines().map(str::trim) {
        if let Some(path) = line
            .strip_prefix("#[path = \"")
            .and_then(|rest| rest.strip_suffix("\"]"))
        {
            included = Some(path.to_owned());
            continue;
        }
        let Some(name) = line
            .strip_prefix("mod ")
            .and_then(|rest| rest.strip_suffix(';'))
        else {
            continue;
        };
        let path = match included.take() {
            Some(path) => format!("tests/integration/{path}"),
            None if repo_root()
                .join(format!("tests/integration/{name}/mod.rs"))
                .exists() =>
            {
                format!("tests/integration/{name}/")
            }
            None => format!("tests/integration/{name}.rs"),
        };
        paths.push(path.replace("tests/integration/../", "tests/"));
    }
    paths.sort_by_key(|path| (path != "tests/integration/main.rs", path.clone()));
    paths
}

/// The first paragraph of a file's `//!` block, on one line.
fn first_paragraph(path: &str) -> String {
    let file = match path.strip_suffix('/') {
        Some(folder) => format!("{folder}/mod.rs"),
        None => path.to_owned(),
    };
    let text =
        std::fs::read_to_string(repo_root().join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    let words: Vec<&str> = text
        .lines()
        .map_while(|line| line.strip_prefix("//!"))
        .map(str::trim)
        .take_while(|line| !line.is_empty())
        .collect();
    assert!(
        !words.is_empty(),
        "{file} has no `//!` doc comment to say what it tests: write one at its top"
    );
    words.join(" ").replace('|', "\\|")
}

/// The table, between its markers.
fn rendered_table() -> String {
    let mut text = String::from(BEGIN);
    text.push_str("| file | what it covers |\n|---|---|\n");
    for path in modules() {
        text.push_str(&format!("| `{path}` | {} |\n", first_paragraph(&path)));
    }
    text.push_str(END);
    text
}

/// TESTING.md as it is, and as it should be.
fn testing_md() -> (String, String) {
    let current = std::fs::read_to_string(repo_root().join("TESTING.md")).expect("TESTING.md");
    let (Some(start), Some(end)) = (current.find(BEGIN), current.find(END)) else {
        panic!("TESTING.md lacks the markers {BEGIN:?} and {END:?}");
    };
    let updated = format!(
        "{}{}{}",
        &current[..start],
        rendered_table(),
        &current[end + END.len()..]
    );
    (current, updated)
}

#[test]
fn testing_md_lists_every_suite_as_its_module_doc_says() {
    let (current, updated) = testing_md();
    assert!(
        current == updated,
        "TESTING.md's table of the suites is out of date (a module added, or its doc comment \
         changed); refresh it with: {REGENERATE}"
    );
}

/// The regeneration command, not a check: rewrites the table from the modules' doc comments.
#[test]
#[ignore = "rewrites TESTING.md: cargo test --test integration regenerate -- --ignored"]
fn regenerate_the_suites_table_in_testing_md() {
    assert_asked_by_name();
    let (_, updated) = testing_md();
    std::fs::write(repo_root().join("TESTING.md"), &updated).expect("write TESTING.md");
}
