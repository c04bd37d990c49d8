//! The tables in the guide that are written from the code: from the commands' specs
//! (`cli::COMMANDS`), which command takes which client option (docs/settings.md) and what each
//! command sends (docs/output.md); from `settings`' table (`settings::ENV_VARS`), the
//! environment variables (docs/settings.md); from the `--json` objects' types (`report::json`),
//! the keys of each object and what they mean (docs/output.md, docs/settings.md, docs/shell.md).
//! Each sits between two markers in its page; `generated.rs` compares the page with the page
//! these tables would make and its regeneration command rewrites it, so no table of commands,
//! variables or keys is kept by hand.

use safe_ad::test_support::cli::{Opt, Reaches, COMMANDS};
use safe_ad::test_support::report::json::{Table, TABLES};
use safe_ad::test_support::settings::{Reader, Spelling, ENV_VARS};

use crate::harness::{client_commands, doc};

/// The pages holding tables written here, each as it should read: by its path in the
/// repository, its whole text with every table between its markers as the specs make it.
pub fn pages() -> Vec<(String, Vec<u8>)> {
    let mut settings = vec![
        ("options-table".to_owned(), options_table()),
        ("env-table".to_owned(), env_table()),
    ];
    settings.extend(key_tables("docs/settings.md"));
    let mut output = output_tables();
    output.extend(key_tables("docs/output.md"));
    vec![
        page("docs/settings.md", &settings),
        page("docs/output.md", &output),
        page("docs/shell.md", &key_tables("docs/shell.md")),
        page("docs/emulator-ci.md", &key_tables("docs/emulator-ci.md")),
    ]
}

/// The pages that hold `--json` key tables.
const KEY_PAGES: [&str; 4] = [
    "docs/output.md",
    "docs/settings.md",
    "docs/shell.md",
    "docs/emulator-ci.md",
];

/// The key tables whose markers (`<!-- json-keys: NAME: ... -->`) are in `path`, each written
/// from its rows in `report::json`.
fn key_tables(path: &str) -> Vec<(String, String)> {
    let text = doc(path);
    (TABLES.iter())
        .filter(|table| text.contains(&format!("<!-- json-keys: {}:", table.name)))
        .map(|table| (format!("json-keys: {}", table.name), key_table(table)))
        .collect()
}

/// One object's keys: a row for some keys, their JSON type and what they mean.
fn key_table(table: &Table) -> String {
    let mut text = String::from("| key | type | meaning |\n|---|---|---|\n");
    for row in table.rows {
        let keys: Vec<String> = row.keys().iter().map(|key| format!("`{key}`")).collect();
        text.push_str(&format!(
            "| {} | {} | {} |\n",
            keys.join(", "),
            row.kind(),
            row.meaning()
        ));
    }
    text
}

/// Every key table of `report::json` is in one of the pages, once.
#[test]
fn every_key_table_is_in_a_page_once() {
    for table in TABLES {
        let marker = format!("<!-- json-keys: {}:", table.name);
        let count: usize = (KEY_PAGES.iter())
            .map(|path| doc(path).matches(&marker).count())
            .sum();
        assert_eq!(
            count, 1,
            "`{marker} ... -->` is in {count} of {KEY_PAGES:?}"
        );
    }
}

/// docs/output.md's tables: the routes each command sends, and (run against the emulator) what a
/// data's name in place of a handle costs in requests.
fn output_tables() -> Vec<(String, String)> {
    #[allow(unused_mut)]
    let mut tables = vec![("routes-table".to_owned(), routes_table())];
    #[cfg(feature = "emulator")]
    tables.push(("name-cost-table".to_owned(), crate::names::cost_table()));
    tables
}

/// `path`'s text with the text between each `<!-- NAME ... -->` line and `<!-- /NAME -->`
/// replaced by its table.
#[track_caller]
fn page(path: &str, tables: &[(String, String)]) -> (String, Vec<u8>) {
    let mut text = doc(path);
    for (name, table) in tables {
        let open = format!("<!-- {name}:");
        let close = format!("<!-- /{name} -->");
        let start = text
            .find(&open)
            .and_then(|at| text[at..].find('\n').map(|end| at + end + 1))
            .unwrap_or_else(|| panic!("{path} has no `{open} ... -->` line"));
        let end = text[start..]
            .find(&close)
            .map(|at| start + at)
            .unwrap_or_else(|| panic!("{path} has no `{close}` after `{open}`"));
        text.replace_range(start..end, table);
    }
    (path.to_owned(), text.into_bytes())
}

/// Which client command takes which client option, commands with the same options sharing a
/// row; `--color`, which every one takes (a test below keeps that true), is left out.
fn options_table() -> String {
    let mut rows: Vec<(Vec<&str>, Vec<Opt>)> = Vec::new();
    for (path, opts) in client_commands() {
        let shown: Vec<Opt> = opts.iter().filter(|opt| *opt != Opt::Color).collect();
        match rows.iter_mut().find(|(_, opts)| *opts == shown) {
            Some((paths, _)) => paths.push(path),
            None => rows.push((vec![path], shown)),
        }
    }
    let mut table = String::from("| command | options |\n|---|---|\n");
    for (paths, opts) in rows {
        let paths: Vec<String> = paths.iter().map(|path| format!("`{path}`")).collect();
        let opts: Vec<String> = opts.iter().map(|opt| format!("`{}`", opt.long())).collect();
        let opts = match opts.is_empty() {
            true => "none".to_string(),
            false => opts.join(" "),
        };
        table.push_str(&format!("| {} | {opts} |\n", paths.join(", ")));
    }
    table
}

/// Every environment variable of the table: who reads it, what it sets, its default.
fn env_table() -> String {
    let mut table =
        String::from("| variable | used by | what it sets | default |\n|---|---|---|---|\n");
    for var in ENV_VARS {
        let reader = match var.reader {
            Reader::Client => "safe-ad",
            Reader::Emulator => "the emulator",
            Reader::EmulatorInternal => "the emulator (its own)",
        };
        let name = match var.spelling {
            Spelling::Exact | Spelling::UpperElseLower => format!("`{}`", var.name),
            Spelling::Pattern => format!("`{}` (one per user)", var.name),
        };
        let default = match var.default {
            "" => "unset".to_owned(),
            default => default.replace('|', "\\|"),
        };
        table.push_str(&format!(
            "| {name} | {reader} | {} | {default} |\n",
            var.sets.replace('|', "\\|")
        ));
    }
    table
}

/// Each command (not a group) with the routes it sends and its line of help.
fn routes_table() -> String {
    let mut table = String::from("| command | requests | what it does |\n|---|---|---|\n");
    for spec in COMMANDS
        .iter()
        .filter(|spec| spec.reaches != Reaches::Group)
    {
        let routes: Vec<String> = (spec.route_list().iter())
            .map(|route| format!("`{route}`"))
            .collect();
        table.push_str(&format!(
            "| `safe-ad {}` | {} | {} |\n",
            spec.path,
            routes.join(", ").replace('|', "\\|"),
            spec.about.replace('|', "\\|")
        ));
    }
    table
}

#[test]
fn every_client_command_takes_color_as_the_options_table_says() {
    for (path, opts) in client_commands() {
        assert!(
            opts.contains(Opt::Color),
            "`{path}` does not take --color, which docs/settings.md says every client command takes"
        );
    }
}
