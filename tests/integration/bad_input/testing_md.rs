//! The table in TESTING.md: rendered from [`GROUPS`], checked against the file, and rewritten by
//! the regeneration command after the rows change.

use super::*;

const BEGIN: &str = "<!-- bad-input table: generated from tests/integration/bad_input/ -->";
const END: &str = "<!-- end of bad-input table -->";

/// Text safe in a markdown table cell.
fn cell(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
        .replace('\n', " ")
}

/// Bytes as a short code span: control characters and invalid UTF-8 escaped, cut at 40
/// characters.
fn shown_bytes(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "(empty)".into();
    }
    let mut text = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                text.extend(c.escape_default());
            } else {
                text.push(c);
            }
        }
        for byte in chunk.invalid() {
            text.push_str(&format!("\\x{byte:02x}"));
        }
    }
    let cut: String = text.chars().take(40).collect();
    let more = if cut.len() < text.len() { "…" } else { "" };
    format!("`{}{more}`", cell(&cut).replace('`', "'"))
}

/// What a row sets up besides its arguments: env vars that differ from a working setup, files,
/// standard input, a URL and the ways it is given.
fn setup_text(row: &Row) -> String {
    let mut parts = Vec::new();
    if let Some(url) = row.url {
        parts.push(format!(
            "URL {}, given all three ways",
            shown_bytes(url.as_bytes())
        ));
    }
    for (name, value) in row.env {
        if !SETUP.contains(&(*name, *value)) {
            parts.push(format!("`{name}={}`", cell(&shown_text(value))));
        }
    }
    for (name, _) in SETUP {
        if !row.env.iter().any(|(set, _)| set == name) {
            parts.push(format!("no `{name}`"));
        }
    }
    for (path, make) in row.files {
        parts.push(match make {
            Make::Dir => format!("`{path}` is a directory"),
            Make::Fifo => format!("`{path}` is a FIFO"),
            Make::Socket => format!("`{path}` is a socket"),
            Make::Link(target) => format!("`{path}` is a link to `{}`", cell(target)),
            Make::File(bytes, mode) if bytes.len() > 1024 => {
                format!("`{path}` (mode {mode:03o}): {} KiB", bytes.len() / 1024)
            }
            Make::File(bytes, mode) => {
                format!("`{path}` (mode {mode:03o}): {}", shown_bytes(bytes))
            }
        });
    }
    if !row.stdin.is_empty() {
        parts.push(format!("stdin {}", shown_bytes(row.stdin)));
    }
    parts.join("; ")
}

/// Text with its control characters escaped.
fn shown_text(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

fn rendered_table() -> String {
    let rows: Vec<&Row> = GROUPS.iter().flat_map(|group| group.iter()).collect();
    let mut text = format!(
        "{BEGIN}\n\n{} bad inputs, in eight groups (handles, names, launcher URLs, tokens, \
config files, numeric options, command lines, and what `show` and the item commands take), each group one test. `{{dir}}` is the test's directory, `{{addr}}` \
the loopback server's address and `{{port}}` its port, `{{front}}` and `{{back}}` the two halves \
of the test token, and `{{xff}}` the byte 0xFF, which is not UTF-8. A URL row runs three times: with \
`--launcher-url URL` (the environment as usual), with `SAFE_LAUNCHER_URL=URL` (and the token in \
the environment), and with the URL as `launcher_url` in `config/config.json` (the token there too, \
nothing in the environment); `{{source}}` names the way. Every row with exit code 2 or 3 proves the \
server accepted no connection, and its message starts with `safe-ad: error: ` (but for no \
arguments at all, which prints the usage); the exit-0 row proves the operation did run. No \
output may hold a piece of the test token, and every `line L, column C` counts from 1.\n\n\
| # | bad input | command | setup | exit | the message contains |\n|---|---|---|---|---|---|\n",
        rows.len()
    );
    for (i, row) in rows.iter().enumerate() {
        let command = row
            .args
            .iter()
            .map(|arg| {
                if arg.is_empty() || arg.contains(' ') {
                    format!("'{arg}'")
                } else {
                    arg.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
        let setup = setup_text(row);
        let words = row
            .words
            .iter()
            .map(|word| format!("\"{}\"", cell(word)))
            .collect::<Vec<_>>()
            .join("; ");
        text.push_str(&format!(
            "| {} | {} | `{}` | {} | {} | {} |\n",
            i + 1,
            cell(row.input),
            cell(format!("safe-ad {command}").trim_end()).replace('`', "'"),
            setup,
            row.code,
            words
        ));
    }
    text.push('\n');
    text.push_str(END);
    text
}

/// TESTING.md as it should be: its table of bad inputs rendered from [`GROUPS`].
fn testing_md_with_this_table() -> (std::path::PathBuf, String, String) {
    let path = repo_root().join("TESTING.md");
    let current = std::fs::read_to_string(&path).expect("TESTING.md");
    let (Some(start), Some(end)) = (current.find(BEGIN), current.find(END)) else {
        panic!("TESTING.md lacks the markers {BEGIN:?} and {END:?}");
    };
    let updated = format!(
        "{}{}{}",
        &current[..start],
        rendered_table(),
        &current[end + END.len()..]
    );
    (path, current, updated)
}

#[test]
fn testing_md_shows_this_table() {
    let (_, current, updated) = testing_md_with_this_table();
    assert!(
        current == updated,
        "TESTING.md's table of bad inputs is out of date; refresh it with: {REGENERATE}"
    );
}

/// The regeneration command, not a check: rewrites the table in TESTING.md from [`GROUPS`]. Run
/// only when named (see [`assert_asked_by_name`]).
#[test]
#[ignore = "rewrites TESTING.md: cargo test --test integration regenerate -- --ignored"]
fn regenerate_the_bad_input_table_in_testing_md() {
    assert_asked_by_name();
    let (path, _, updated) = testing_md_with_this_table();
    std::fs::write(&path, &updated).expect("write TESTING.md");
    assert!(
        testing_md_with_this_table().1 == updated,
        "TESTING.md did not change"
    );
}
