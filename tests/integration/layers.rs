//! The client's modules stand in layers, checked on the source (`src/**/*.rs`) as CI's
//! `cargo test` runs it: no import cycle between the top-level modules (a file `src/X.rs` or a
//! folder `src/X/`) nor between the modules of any one folder (`src/cli/`'s, `src/generate/man/`'s,
//! every folder found by walking), no command file importing another command file, and no module
//! importing one above it in the layer order that `src/lib.rs`'s doc comment states, which
//! [`LAYERS`] holds.
//!
//! The source is read by `tests/support/rust_source.rs`, which the emulator crate's
//! `crates/emulator/tests/families.rs` shares: an import is any `crate::`, `super::` or `self::`
//! path (a `use crate::{a, b::c}` group counts each name), outside comments, string and
//! character literals and `#[cfg(test)]` code (an item, a field, a test-only file): unit tests
//! may reach anywhere. This file holds the client's rules and the reader's own tests; that every
//! file is compiled (declared by a `mod` line) is `source_files.rs`'s check.
//!
//! Run alone: `cargo test --locked --test integration layers`. The emulator crate's own one-way
//! check is beside its code, not here.

use std::collections::BTreeSet;

use crate::harness::repo_root;
use crate::rust_source::{
    code_only, code_tokens, crate_paths, cycles, read_crate, read_tree, Edges, Site, Source,
    ABOVE_CRATE,
};

/// The layer order of `src/lib.rs`'s doc comment, bottom first: a module imports only from its
/// own layer or one below. A new top-level module fails `every_module_has_a_layer` until it is
/// placed here, and `lib_rs_doc_names_every_module_in_layer_order` until lib.rs's doc names it.
/// The crate roots are no layer: `lib.rs` declares the modules, and `main.rs` is the binary, a
/// crate of its own that reaches the library only through `safe_ad::run`.
const LAYERS: &[&[&str]] = &[
    // Plain types and parsing, the stop signals, counted, and the shell session's handles.
    &[
        "handle",
        "name",
        "secret",
        "sanitize",
        "url",
        "values",
        "file_kind",
        "atomic_file",
        "config_file",
        "saving",
        "wire",
        "jq",
        "route",
        "signals",
        "session",
    ],
    &["cli"],
    &["launcher"],
    &["outcome"],
    &["settings"],
    &["input"],
    &["batch"],
    &["args"],
    &["help"],
    &["report"],
    &["runtime", "generate"],
    &["emulator_routes"],
    &["commands"],
    &["run", "test_support"],
];

// ---- The checks -----------------------------------------------------------------------------

/// Where the imports are written: `src/a.rs:1, src/b.rs:4`.
fn places(sites: &[Site]) -> String {
    sites
        .iter()
        .map(|s| format!("src/{}:{}", s.file, s.line))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The top-level modules (the crate roots aside) and their imports of each other.
fn top_level(sources: &[Source]) -> (BTreeSet<String>, Edges) {
    read_crate(sources).graph(&[])
}

/// Each loop of imports anywhere in the crate (among the top-level modules, or among the
/// modules of any one folder), then each import on it with where it is written, one line each;
/// empty when there is none. Modules are named from the crate's root: `cli::spec`.
fn cycle_report(sources: &[Source]) -> Vec<String> {
    let mut lines = Vec::new();
    for cycle in read_crate(sources).every_cycle() {
        let name = |m: &str| {
            let mut path = cycle.parent.clone();
            path.push(m.to_owned());
            path.join("::")
        };
        let place = match cycle.parent.is_empty() {
            true => "src/".to_owned(),
            false => format!("src/{}/", cycle.parent.join("/")),
        };
        let names: Vec<_> = cycle.modules.iter().map(|m| name(m)).collect();
        lines.push(format!("cycle in {place}: {}", names.join(", ")));
        for ((from, to), sites) in &cycle.edges {
            lines.push(format!(
                "  {} -> {}: {}",
                name(from),
                name(to),
                places(sites)
            ));
        }
    }
    lines
}

/// Each import of a module from a higher layer than the importer's; empty when there is none.
/// Modules the table lacks are `every_module_has_a_layer`'s to report.
fn upward_imports(edges: &Edges, layers: &[&[&str]]) -> Vec<String> {
    let layer = |module: &str| layers.iter().position(|l| l.contains(&module));
    let mut lines = Vec::new();
    for ((from, to), sites) in edges {
        if let (Some(low), Some(high)) = (layer(from), layer(to)) {
            if high > low {
                lines.push(format!(
                    "{from} (layer {low}) imports {to} (layer {high}, above it): {}",
                    places(sites)
                ));
            }
        }
    }
    lines
}

/// Each import of one command file by another: `commands/x.rs` (or a file of `commands/x/`)
/// naming `commands::y`, through `super::` or `crate::`, where `y` is a command. The commands
/// are the modules under `src/commands/` but those `commands/mod.rs` declares private (`mod y`,
/// not `pub mod`): those, with what `mod.rs` itself holds, are the helpers every command shares.
fn command_imports(sources: &[Source]) -> Vec<String> {
    let helpers: BTreeSet<String> = sources
        .iter()
        .filter(|s| s.path == "commands/mod.rs")
        .flat_map(|s| {
            let tokens = code_tokens(&s.text);
            let mut private = Vec::new();
            for (at, token) in tokens.iter().enumerate() {
                let before = at.checked_sub(1).map_or("", |b| tokens[b].text.as_str());
                if token.text == "mod" && before != "pub" && before != ")" {
                    private.extend(tokens.get(at + 1).map(|t| t.text.clone()));
                }
            }
            private
        })
        .collect();
    let command_of = |path: &str| -> Option<String> {
        let rest = path.strip_prefix("commands/")?;
        let first = rest.split('/').next()?;
        let name = first.strip_suffix(".rs").unwrap_or(first);
        (name != "mod" && !helpers.contains(name)).then(|| name.to_owned())
    };
    let commands: BTreeSet<String> = sources.iter().filter_map(|s| command_of(&s.path)).collect();
    let mut lines = Vec::new();
    for file in &read_crate(sources).files {
        let Some(own) = command_of(&file.path) else {
            continue;
        };
        for path in &file.paths {
            if let [top, other, ..] = path.segments.as_slice() {
                if top == "commands" && *other != own && commands.contains(other) {
                    lines.push(format!(
                        "src/{}:{}: command `{own}` imports command `{other}`",
                        file.path, path.line
                    ));
                }
            }
        }
    }
    lines
}

/// The backticked words of `lib.rs`'s leading doc comment (`//!`), in order.
fn doc_words(lib_rs: &str) -> Vec<String> {
    let doc: String = lib_rs
        .lines()
        .map_while(|line| line.strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    doc.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

// ---- The repository's source ----------------------------------------------------------------

/// Every `.rs` file under the client's `src/`, by path from it.
fn client_sources() -> Vec<Source> {
    let sources = read_tree(&repo_root().join("src"));
    assert!(sources.len() > 20, "src/ holds {} files", sources.len());
    sources
}

/// No loop of imports anywhere in src/: not among the top-level modules, and not among the
/// modules of any folder (`cli/`'s, `generate/man/`'s, `commands/shell/`'s, ...), every folder
/// found by walking the tree.
#[test]
fn no_module_cycles() {
    let sources = client_sources();
    // The check reads real folders: imports between `cli/`'s own modules and between
    // `commands/shell/`'s are seen (a reader that saw none would pass anything).
    let code = read_crate(&sources);
    for folder in [&["cli"][..], &["commands", "shell"]] {
        let folder: Vec<String> = folder.iter().map(|s| s.to_string()).collect();
        let (_, edges) = code.graph(&folder);
        assert!(
            !edges.is_empty(),
            "no import read inside src/{}/",
            folder.join("/")
        );
    }
    let report = cycle_report(&sources);
    assert!(
        report.is_empty(),
        "modules of src/ import each other round a loop (a folder's own modules too); each \
         import on it:\n{}",
        report.join("\n")
    );
}

#[test]
fn no_import_against_the_layers() {
    let (_, edges) = top_level(&client_sources());
    let report = upward_imports(&edges, LAYERS);
    assert!(
        report.is_empty(),
        "imports upward against the layers of src/lib.rs's doc (tests/integration/layers.rs's \
         LAYERS; bottom is 0):\n{}",
        report.join("\n")
    );
}

#[test]
fn no_command_file_imports_another() {
    let report = command_imports(&client_sources());
    assert!(
        report.is_empty(),
        "a command file imports another (what they share belongs in commands/mod.rs, the \
         arguments' parsers in args):\n{}",
        report.join("\n")
    );
}

#[test]
fn every_module_has_a_layer() {
    let (modules, _) = top_level(&client_sources());
    let placed: BTreeSet<String> = LAYERS
        .iter()
        .flat_map(|l| l.iter())
        .map(|m| m.to_string())
        .collect();
    let unplaced: Vec<_> = modules.difference(&placed).collect();
    let gone: Vec<_> = placed.difference(&modules).collect();
    assert!(
        unplaced.is_empty() && gone.is_empty(),
        "tests/integration/layers.rs's LAYERS and src/ differ: not placed {unplaced:?}, no such \
         module {gone:?} (place a new module in the layer src/lib.rs's doc gives it)"
    );
    assert_eq!(
        placed.len(),
        LAYERS.iter().map(|l| l.len()).sum::<usize>(),
        "a module twice"
    );
}

/// lib.rs's doc names every module, bottom first as LAYERS has them: the order a reader learns
/// there is the one checked.
#[test]
fn lib_rs_doc_names_every_module_in_layer_order() {
    let words =
        doc_words(&std::fs::read_to_string(repo_root().join("src/lib.rs")).expect("lib.rs"));
    let layer = |word: &str| LAYERS.iter().position(|l| l.contains(&word));
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    for word in &words {
        if let Some(at) = layer(word) {
            if seen.insert(word.clone()) {
                order.push((word.clone(), at));
            }
        }
    }
    let missing: Vec<_> = LAYERS
        .iter()
        .flat_map(|l| l.iter())
        .filter(|m| !seen.contains(**m))
        .collect();
    assert!(
        missing.is_empty(),
        "src/lib.rs's doc does not name {missing:?}"
    );
    for pair in order.windows(2) {
        assert!(
            pair[0].1 <= pair[1].1,
            "src/lib.rs's doc names `{}` (layer {}) before `{}` (layer {}), against LAYERS",
            pair[0].0,
            pair[0].1,
            pair[1].0,
            pair[1].1
        );
    }
}

// ---- The checker and its reader (tests/support/rust_source.rs), on small crates written here --

fn crate_of(files: &[(&str, &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|(path, text)| Source {
            path: path.to_string(),
            text: text.to_string(),
        })
        .collect()
}

#[test]
fn a_cycle_is_found_and_each_import_on_it_named() {
    let sources = crate_of(&[
        ("lib.rs", "mod a; mod b; mod c;"),
        ("a.rs", "use crate::b::B;\n"),
        ("b/mod.rs", "mod inner;\n"),
        ("b/inner.rs", "fn f() {\n    crate::a::g();\n}\n"),
        ("c.rs", "use crate::a;\n"),
    ]);
    let (modules, edges) = top_level(&sources);
    assert_eq!(cycles(&modules, &edges), [["a", "b"]]);
    assert_eq!(
        cycle_report(&sources),
        [
            "cycle in src/: a, b",
            "  a -> b: src/a.rs:1",
            "  b -> a: src/b/inner.rs:2"
        ]
    );
}

#[test]
fn use_groups_super_and_self_count_as_imports() {
    let sources = crate_of(&[
        (
            "a.rs",
            "use crate::{\n    b,\n    c::{self as see, D},\n};\nuse super::e::E;\n",
        ),
        ("b.rs", ""),
        ("c.rs", ""),
        ("e/mod.rs", "use self::inner::X;\nmod inner;\n"),
        ("e/inner.rs", "use super::super::b;\n"),
    ]);
    let (_, edges) = top_level(&sources);
    let found: Vec<_> = edges
        .iter()
        .map(|((from, to), sites)| format!("{from} -> {to} {}", places(sites)))
        .collect();
    assert_eq!(
        found,
        [
            "a -> b src/a.rs:2",
            "a -> c src/a.rs:3",
            "a -> e src/a.rs:5",
            "e -> b src/e/inner.rs:1"
        ]
    );
}

#[test]
fn tests_comments_and_literals_are_no_imports() {
    let sources = crate_of(&[
        (
            "a.rs",
            concat!(
                "//! Uses `crate::b` in its doc.\n",
                "// use crate::b;\n",
                "/* crate::b /* nested */ crate::b */\n",
                "const S: &str = \"crate::b\";\n",
                "const R: &str = r#\"crate::b \"quoted\"\"#;\n",
                "const C: char = '{';\n",
                "#[cfg(test)]\n",
                "mod tests {\n",
                "    use crate::b;\n",
                "    fn f() { let c = '}'; }\n",
                "}\n",
                "fn g<'a>(x: &'a str) -> &'a str { crate::c::h(x) }\n",
            ),
        ),
        ("b.rs", ""),
        ("c.rs", ""),
    ]);
    let (_, edges) = top_level(&sources);
    let found: Vec<_> = edges
        .iter()
        .map(|(edge, sites)| (edge.clone(), vec![places(sites)]))
        .collect();
    assert_eq!(
        found,
        [(
            ("a".to_owned(), "c".to_owned()),
            vec!["src/a.rs:12".to_owned()]
        )]
    );
}

#[test]
fn an_upward_import_is_found() {
    let sources = crate_of(&[
        ("low.rs", "use crate::high::H;\n"),
        ("high.rs", "use crate::low::L;\nuse crate::beside::B;\n"),
        ("beside.rs", "use crate::high::H;\n"),
    ]);
    let (_, edges) = top_level(&sources);
    let layers: &[&[&str]] = &[&["low"], &["high", "beside"]];
    assert_eq!(
        upward_imports(&edges, layers),
        ["low (layer 0) imports high (layer 1, above it): src/low.rs:1"]
    );
}

#[test]
fn a_command_importing_a_command_is_found() {
    let sources = crate_of(&[
        (
            "commands/mod.rs",
            "pub mod show;\npub mod status;\nmod routes;\nuse self::show::run;\n",
        ),
        ("commands/routes.rs", "use super::status::S;\n"),
        (
            "commands/show.rs",
            concat!(
                "use super::{resolve, Context};\n",
                "use super::routes::send;\n",
                "use super::status::Same;\n",
                "fn f() { crate::commands::status::g(); crate::commands::resolve(); }\n",
                "#[cfg(test)]\nmod tests { use super::super::status; }\n",
            ),
        ),
        ("commands/status/mod.rs", "mod compare;\n"),
        (
            "commands/status/compare.rs",
            "use super::super::show;\nuse super::Own;\n",
        ),
    ]);
    assert_eq!(
        command_imports(&sources),
        [
            "src/commands/show.rs:3: command `show` imports command `status`",
            "src/commands/show.rs:4: command `show` imports command `status`",
            "src/commands/status/compare.rs:1: command `status` imports command `show`"
        ]
    );
}

#[test]
fn doc_words_are_the_backticked_ones_of_the_leading_doc() {
    let lib = "//! From the bottom: `handle` → `cli`,\n//! then `run`.\n\n//! `later`\nmod x;\n";
    assert_eq!(doc_words(lib), ["handle", "cli", "run"]);
}

/// Each edge of a graph with where it is written, for comparing in one assertion.
fn edge_list(edges: &Edges) -> Vec<String> {
    edges
        .iter()
        .map(|((from, to), sites)| format!("{from} -> {to} {}", places(sites)))
        .collect()
}

#[test]
fn cfg_test_hides_its_own_item_and_no_more() {
    let sources = crate_of(&[
        (
            "lib.rs", "mod a;
",
        ),
        (
            "a/mod.rs",
            concat!(
                "#[cfg(test)]\nuse crate::b;\n",
                "#[cfg(test)]\npub(crate) fn helper() -> Vec<u8> { crate::b::x() }\n",
                "#[cfg(test)]\n#[allow(dead_code)]\nmod helpers { use crate::b; }\n",
                "#[cfg(test)]\nmod tests;\n",
                "struct S {\n    #[cfg(test)]\n    seen: HashMap<u8, fn(u8, u8) -> u8>,\n",
                "    other: crate::c::C,\n}\n",
                "struct T {\n    #[cfg(test)]\n    last: u8\n}\nuse crate::d::D;\n",
                "fn f() {\n    #[cfg(test)]\n    let x = [1; 2];\n    crate::e::f();\n",
                "    #[cfg(test)]\n    if x { g(); }\n    crate::g::f();\n}\n",
                "#[cfg(not(test))]\nuse crate::h;\n",
            ),
        ),
        ("a/tests.rs", "use crate::b;\n"),
        ("a/tests/deeper.rs", "use crate::b;\n"),
        ("b.rs", ""),
        ("c.rs", ""),
        ("d.rs", ""),
        ("e.rs", ""),
        ("g.rs", ""),
        ("h.rs", ""),
    ]);
    let code = read_crate(&sources);
    assert_eq!(
        code.files
            .iter()
            .map(|f| f.path.as_str())
            .collect::<Vec<_>>(),
        ["lib.rs", "a/mod.rs", "b.rs", "c.rs", "d.rs", "e.rs", "g.rs", "h.rs"]
    );
    let (_, edges) = top_level(&sources);
    assert_eq!(
        edge_list(&edges),
        [
            "a -> c src/a/mod.rs:13",
            "a -> d src/a/mod.rs:19",
            "a -> e src/a/mod.rs:23",
            "a -> g src/a/mod.rs:26",
            "a -> h src/a/mod.rs:29"
        ]
    );
}

#[test]
fn aliases_are_no_modules_and_each_path_keeps_how_it_was_written() {
    let sources = crate_of(&[
        (
            "a.rs",
            "use crate::{b as c, d::{self as e, F as g}};\nuse crate::h as e;\n",
        ),
        ("b.rs", ""),
        ("c.rs", ""),
        ("d.rs", ""),
        ("e.rs", ""),
        ("g.rs", ""),
        ("h.rs", ""),
    ]);
    let (_, edges) = top_level(&sources);
    assert_eq!(
        edge_list(&edges),
        [
            "a -> b src/a.rs:1",
            "a -> d src/a.rs:1",
            "a -> h src/a.rs:2"
        ]
    );
    let written: Vec<_> = crate_paths(&sources[0])
        .into_iter()
        .map(|p| format!("{} <- {}", p.segments.join("::"), p.written))
        .collect();
    assert_eq!(
        written,
        [
            "b <- crate::{b as c, d::{self as e, F as g}}",
            "d <- crate::{b as c, d::{self as e, F as g}}",
            "d::F <- crate::{b as c, d::{self as e, F as g}}",
            "h <- crate::h"
        ]
    );
}

#[test]
fn super_resolves_from_inline_modules_and_above_the_crate_is_named() {
    let source = Source {
        path: "a/b.rs".into(),
        text: concat!(
            "mod inner {\n    use super::c::X;\n}\n",
            "use super::super::super::z;\n",
            "pub(super) fn f(&self) { self::d::g(); super::e(); }\n",
        )
        .into(),
    };
    let found: Vec<_> = crate_paths(&source)
        .into_iter()
        .map(|p| (p.segments.join("::"), p.line))
        .collect();
    let above = format!("{ABOVE_CRATE}::z");
    assert_eq!(
        found,
        [
            ("a::b::c::X".to_owned(), 2),
            (above, 4),
            ("a::b::d::g".to_owned(), 5),
            ("a::e".to_owned(), 5)
        ]
    );
}

#[test]
fn cycles_are_found_inside_any_folder() {
    let sources = crate_of(&[
        ("lib.rs", "mod a;\n"),
        ("a/mod.rs", "mod b;\nmod c;\n"),
        ("a/b/mod.rs", "use super::c::X;\nmod x;\nmod y;\n"),
        ("a/b/x.rs", "use super::y::Y;\n"),
        ("a/b/y.rs", "fn f() { crate::a::b::x::g() }\n"),
        ("a/c.rs", "use crate::a::b::x;\n"),
    ]);
    let code = read_crate(&sources);
    let all: Vec<_> = code.modules.iter().map(|m| m.join("::")).collect();
    assert_eq!(all, ["a", "a::b", "a::b::x", "a::b::y", "a::c"]);
    let (top, edges) = top_level(&sources);
    assert!(edges.is_empty() && cycles(&top, &edges).is_empty());
    let (children, edges) = code.graph(&["a".to_owned()]);
    assert_eq!(cycles(&children, &edges), [["b", "c"]]);
    assert_eq!(
        edge_list(&edges),
        ["b -> c src/a/b/mod.rs:1", "c -> b src/a/c.rs:1"]
    );
    let (children, edges) = code.graph(&["a".to_owned(), "b".to_owned()]);
    assert_eq!(cycles(&children, &edges), [["x", "y"]]);
    // The check itself walks every folder and names each loop where it is.
    assert_eq!(
        cycle_report(&sources),
        [
            "cycle in src/a/: a::b, a::c",
            "  a::b -> a::c: src/a/b/mod.rs:1",
            "  a::c -> a::b: src/a/c.rs:1",
            "cycle in src/a/b/: a::b::x, a::b::y",
            "  a::b::x -> a::b::y: src/a/b/x.rs:1",
            "  a::b::y -> a::b::x: src/a/b/y.rs:1"
        ]
    );
}

#[test]
fn raw_strings_characters_and_lifetimes_are_read_right() {
    let code = code_only(concat!(
        "let a = 'x'; let q = '\\''; let b = \"q\\\"crate::s\";\n",
        "let r = br##\"crate::t \"# \"##; fn f<'a>(x: &'a str) {} // crate::u\n",
    ));
    assert!(!code.contains("crate::"), "{code}");
    assert!(code.contains("fn f<'a>(x: &'a str)"), "{code}");
    assert_eq!(code.lines().count(), 2);
}
