//! The crate's shape, checked: two families with one direction, and modules in layers.
//!
//! - `src/launcher/` (the imitation of the launcher) never names `src/service/` (what serves it):
//!   no `crate::` path out of `launcher` (to `crate::service`, or to the crate root's re-exports
//!   of it), and no `super::` path that climbs out of `launcher/` to anything but `launcher`.
//! - No cycle between the modules of one parent: the crate's top-level modules (a top-level file
//!   or folder under `src/`), and likewise the modules inside each folder (`launcher/`'s,
//!   `service/`'s, `service/server/`'s, ...). An edge is any `crate::`, `super::` or `self::` path
//!   (a `use` group counts each name in it) outside comments, literals and `#[cfg(test)]` code.
//!
//! The source is read by `tests/support/rust_source.rs` at the repository's root, the reader the
//! client's `tests/integration/layers.rs` uses too (the reader's own tests are there): `crate::`,
//! `super::` and `self::` paths, `use` groups, `#[cfg(test)]` items and test-only files, cycles.
//! This file holds the emulator's rules. A failure names each file and line at fault. The checker
//! is tested on small trees held in memory, so a check that can no longer fail is itself a
//! failure.

use std::path::Path;

#[path = "../../../tests/support/rust_source.rs"]
mod rust_source;

use rust_source::{code_only, read_crate, read_tree, Source};

/// The lines of `launcher/` that name anything outside the launcher family.
fn upward(sources: &[Source]) -> Vec<String> {
    read_crate(sources)
        .files
        .iter()
        .filter(|f| f.path.starts_with("launcher/"))
        .flat_map(|f| f.paths.iter().map(move |p| (f, p)))
        .filter(|(_, p)| p.segments.first().map(String::as_str) != Some("launcher"))
        .map(|(f, p)| {
            format!(
                "src/{}:{}: `{}` names crate::{} from the launcher family; the service uses the \
                 launcher, never the reverse (offer a hook or return data instead)",
                f.path,
                p.line,
                p.written,
                p.segments.join("::")
            )
        })
        .collect()
}

/// The import cycles among the children of every module that has some (the reader's
/// [`rust_source::Crate::every_cycle`], the one the client's check uses): for each cycle, its
/// modules and, for each edge on it, the first line that makes it.
fn cycles(sources: &[Source]) -> Vec<String> {
    let mut found = Vec::new();
    for cycle in read_crate(sources).every_cycle() {
        let name = |m: &str| {
            let mut path = cycle.parent.clone();
            path.push(m.to_owned());
            path.join("::")
        };
        let names: Vec<String> = cycle.modules.iter().map(|m| name(m)).collect();
        let mut text = format!("cycle: {}", names.join(", "));
        for ((from, to), sites) in &cycle.edges {
            let first = &sites[0];
            text.push_str(&format!(
                "\n  {} -> {}: src/{}:{}: `{}`",
                name(from),
                name(to),
                first.file,
                first.line,
                first.written
            ));
        }
        found.push(text);
    }
    found
}

fn crate_sources() -> Vec<Source> {
    read_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn the_launcher_family_never_names_the_service() {
    let sources = crate_sources();
    // The check reads real code: both families are there, and the service's use of the launcher
    // is seen (a reader that saw nothing would pass anything).
    let launcher = sources
        .iter()
        .filter(|s| s.path.starts_with("launcher/"))
        .count();
    assert!(launcher >= 10, "only {launcher} files under src/launcher/");
    let seen = read_crate(&sources)
        .files
        .iter()
        .filter(|f| f.path.starts_with("service/"))
        .flat_map(|f| &f.paths)
        .any(|p| p.segments.first().map(String::as_str) == Some("launcher"));
    assert!(
        seen,
        "no path from src/service/ to the launcher family was read"
    );
    let wrong = upward(&sources);
    assert!(
        wrong.is_empty(),
        "the launcher family reaches into the service:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_modules_import_each_other_in_a_loop() {
    let found = cycles(&crate_sources());
    assert!(
        found.is_empty(),
        "module cycles (each edge with the first line that makes it):\n{}",
        found.join("\n")
    );
}

/// A tree held in memory.
fn tree(files: &[(&str, &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|(path, text)| Source {
            path: (*path).to_owned(),
            text: (*text).to_owned(),
        })
        .collect()
}

#[test]
fn the_checker_finds_the_launcher_naming_the_service() {
    let sources = tree(&[
        ("lib.rs", "mod launcher;\nmod service;\n"),
        (
            "launcher/mod.rs",
            "pub(crate) mod routes;\npub(crate) mod state;\n",
        ),
        (
            "launcher/routes/mod.rs",
            "use crate::launcher::state::State;\n\
             use super::state::Live;\n\
             // use crate::service::log; in a comment\n\
             const S: &str = \"crate::service::log\";\n\
             use crate::service::log;\n\
             fn f() { super::super::service::fault::go(); }\n\
             use crate::{launcher::js, service::server::Shared};\n\
             #[cfg(test)]\nmod tests {\n    use crate::service::log;\n}\n",
        ),
        ("launcher/state/mod.rs", "pub fn x() {}\nuse crate::Exit;\n"),
        ("service/mod.rs", "use crate::launcher::state;\n"),
    ]);
    let wrong = upward(&sources);
    let expected = [
        "src/launcher/routes/mod.rs:5: `crate::service::log` names crate::service::log",
        "src/launcher/routes/mod.rs:6: `super::super::service::fault::go` names crate::service::fault::go",
        "src/launcher/routes/mod.rs:7: `crate::{launcher::js, service::server::Shared}` names crate::service::server::Shared",
        "src/launcher/state/mod.rs:2: `crate::Exit` names crate::Exit",
    ];
    assert_eq!(wrong.len(), expected.len(), "{wrong:#?}");
    for (line, start) in wrong.iter().zip(expected) {
        assert!(line.starts_with(start), "{line}\nexpected: {start}");
    }
}

#[test]
fn the_checker_finds_cycles_and_names_their_lines() {
    let sources = tree(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("a.rs", "use crate::b::thing;\n"),
        ("b/mod.rs", "mod inner;\nmod other;\n"),
        (
            "b/inner.rs",
            "\n\nfn g() { crate::a::run() }\nuse super::other::x;\n",
        ),
        ("b/other.rs", "use super::inner::y;\n"),
        (
            "c.rs",
            "use crate::a;\n#[cfg(test)]\nmod tests { use crate::c; }\n",
        ),
    ]);
    let found = cycles(&sources);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("cycle: a, b"), "{}", found[0]);
    assert!(found[0].contains("a -> b: src/a.rs:1: `crate::b::thing`"));
    assert!(found[0].contains("b -> a: src/b/inner.rs:3: `crate::a::run`"));
    assert!(
        found[1].starts_with("cycle: b::inner, b::other"),
        "{}",
        found[1]
    );
    assert!(found[1].contains("b::other -> b::inner: src/b/other.rs:1"));
    // Without the edges back, the same modules stand in layers.
    let layered = tree(&[
        ("a.rs", "use crate::b::thing;\n"),
        (
            "b/mod.rs",
            "// crate::a in words only\nconst A: &str = \"crate::a\";\n#[cfg(test)]\nmod tests;\n",
        ),
        (
            "b/inner.rs",
            "use super::other::x;\n#[cfg(test)]\nuse crate::a;\n",
        ),
        ("b/other.rs", "fn f(x: &'static str) -> char { '\"' }\n"),
        ("b/tests.rs", "use crate::a;\n"),
    ]);
    assert_eq!(cycles(&layered), Vec::<String>::new());
}

#[test]
fn test_only_files_and_literals_are_not_code() {
    let sources = tree(&[
        ("launcher/mod.rs", "mod routes;\n"),
        (
            "launcher/routes/mod.rs",
            "#[cfg(test)]\nmod tests;\nconst R: &[u8] = br#\"crate::service\"#;\n",
        ),
        ("launcher/routes/tests.rs", "use crate::service::log;\n"),
    ]);
    assert_eq!(upward(&sources), Vec::<String>::new());
    let c =
        code_only("let a = 'x'; let b = \"q\\\"crate::s\"; fn f<'a>(x: &'a str) {} // crate::t");
    assert!(!c.contains("crate::"), "{c}");
    assert!(c.contains("fn f<'a>(x: &'a str)"), "{c}");
}
