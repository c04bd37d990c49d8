//! The crate's shape, checked: two families with one direction, and modules in layers.
//!
//! - `src/launcher/` (the imitation of the launcher) never names `src/service/` (what serves it):
//!   no `crate::` path out of `launcher` (to `crate::service`, or to the crate root's re-exports
//!   of it), and no `super::` path that climbs out of `launcher/` to anything but `launcher`.
//! - No cycle between the modules of one parent: the crate's top-level modules (a top-level file
//!   or folder under `src/`), and likewise the modules inside each folder (`launcher/`'s,
//!   `service/`'s, `service/server/`'s, ...). An edge is any `crate::` or `super::` path (a `use`
//!   group counts each name in it) outside comments, string literals and `#[cfg(test)]` code.
//!
//! The same method as the client's `tests/integration/layers.rs`, with `super::` paths
//! followed too. A failure names each file and line at fault. The checker is tested on small
//! trees held in memory, so a check that can no longer fail is itself a failure.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// One source file: its path under `src/` (`launcher/routes/mod.rs`) and its text.
struct Source {
    path: String,
    text: String,
}

/// One path found in code: where, as written, and the module path it names (segments from the
/// crate root, the first name after the last module it can tell apart).
#[derive(Debug, Clone)]
struct Reference {
    file: String,
    line: usize,
    written: String,
    target: Vec<String>,
}

/// The module a file is, from its path: `launcher/routes/mod.rs` is `launcher::routes`,
/// `service/exit.rs` is `service::exit`, `lib.rs` the root.
fn module_of(path: &str) -> Vec<String> {
    let mut parts: Vec<String> = path.split('/').map(str::to_owned).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.strip_suffix(".rs").unwrap_or(&last).to_owned();
    if !(stem == "mod" || (parts.is_empty() && (stem == "lib" || stem == "main"))) {
        parts.push(stem);
    }
    parts
}

/// The text with comments, string and character literals blanked (newlines kept, so lines still
/// count), so that only code is read.
fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, piece: &str| {
        out.extend(piece.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
    };
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        let end = if rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else if rest.starts_with("/*") {
            let mut depth = 0;
            let mut j = 0;
            loop {
                if j >= rest.len() {
                    break rest.len();
                }
                if rest[j..].starts_with("/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with("*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break j;
                    }
                } else {
                    j += rest[j..].chars().next().map_or(1, char::len_utf8);
                }
            }
        } else if let Some(len) = raw_string(rest) {
            len
        } else if rest.starts_with('"') || rest.starts_with("b\"") {
            let open = rest.find('"').unwrap_or(0) + 1;
            let mut j = open;
            while j < rest.len() && !rest[j..].starts_with('"') {
                j += if rest[j..].starts_with('\\') { 2 } else { 1 };
                while !rest.is_char_boundary(j.min(rest.len())) {
                    j += 1;
                }
            }
            (j + 1).min(rest.len())
        } else if let Some(len) = char_literal(rest) {
            len
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            // An identifier is copied whole, so that `br` or `r` inside one is not a literal.
            if c.is_alphanumeric() || c == '_' {
                let len = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                out.push_str(&rest[..len]);
                i += len;
                continue;
            }
            out.push(c);
            i += c.len_utf8();
            continue;
        };
        blank(&mut out, &rest[..end]);
        i += end;
    }
    out
}

/// The length of a raw string literal (`r"..."`, `r#"..."#`, `br#"..."#`) at the start of `rest`.
fn raw_string(rest: &str) -> Option<usize> {
    let after = rest.strip_prefix("br").or_else(|| rest.strip_prefix('r'))?;
    let hashes = after.len() - after.trim_start_matches('#').len();
    let body = after[hashes..].strip_prefix('"')?;
    let close = format!("\"{}", "#".repeat(hashes));
    let end = body.find(&close)?;
    Some(rest.len() - body.len() + end + close.len())
}

/// The length of a character literal (`'"'`, `'\''`, `'\u{1b}'`) at the start of `rest`; `None`
/// for a lifetime.
fn char_literal(rest: &str) -> Option<usize> {
    let body = rest.strip_prefix('\'')?;
    if let Some(escaped) = body.strip_prefix('\\') {
        // The escaped character may itself be a quote (`'\''`).
        let first = escaped.chars().next()?.len_utf8();
        let close = first + escaped[first..].find('\'')?;
        return Some(2 + close + 1);
    }
    let c = body.chars().next()?;
    body[c.len_utf8()..]
        .starts_with('\'')
        .then_some(1 + c.len_utf8() + 1)
}

/// The span of the item after each `#[cfg(test)]` (a `mod x { ... }`, a function, a `use`):
/// through its matching brace, or its `;`. And the names of the test-only file modules it
/// declares (`#[cfg(test)] mod tests;`).
fn test_spans(code: &str) -> (Vec<(usize, usize)>, Vec<String>) {
    let mut spans = Vec::new();
    let mut files = Vec::new();
    let mut from = 0;
    while let Some(found) = code[from..].find("#[cfg(test)]") {
        let start = from + found;
        let item = start + "#[cfg(test)]".len();
        let brace = code[item..].find('{').map(|b| item + b);
        let semi = code[item..].find(';').map(|s| item + s);
        let end = match (brace, semi) {
            (Some(b), Some(s)) if b < s => matching_brace(code, b),
            (Some(b), None) => matching_brace(code, b),
            (_, Some(s)) => {
                let words: Vec<&str> = code[item..s].split_whitespace().collect();
                if let [.., "mod", name] = words.as_slice() {
                    files.push((*name).to_owned());
                }
                s + 1
            }
            (None, None) => code.len(),
        };
        spans.push((start, end));
        from = end;
    }
    (spans, files)
}

/// The position just past the brace that closes the one at `open`.
fn matching_brace(code: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, b) in code.bytes().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// Inline modules (`mod name { ... }`): their names and spans, so a `super::` inside one climbs
/// from it.
fn inline_modules(code: &str) -> Vec<(String, usize, usize)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("mod ") {
        let start = from + at;
        from = start + 4;
        if start > 0 && is_ident(code.as_bytes()[start - 1]) {
            continue;
        }
        let after = code[from..].trim_start();
        let name: String = after
            .bytes()
            .take_while(|b| is_ident(*b))
            .map(char::from)
            .collect();
        if name.is_empty() || !after[name.len()..].trim_start().starts_with('{') {
            continue;
        }
        let open = from + code[from..].find('{').unwrap_or(0);
        found.push((name, open, matching_brace(code, open)));
    }
    found
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Every `crate::` and `super::` path in a file's code, resolved to the modules it names.
fn references(source: &Source, test_only: &BTreeSet<String>) -> Vec<Reference> {
    if test_only.contains(&source.path) {
        return Vec::new();
    }
    let mut code = code_only(&source.text);
    let (spans, _) = test_spans(&code);
    for (start, end) in spans {
        let blanked: String = code[start..end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        code.replace_range(start..end, &blanked);
    }
    let module = module_of(&source.path);
    let inline = inline_modules(&code);
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts = code[i..].starts_with("crate::") || code[i..].starts_with("super::");
        let fresh = i == 0 || !(is_ident(bytes[i - 1]) || bytes[i - 1] == b':');
        if !(starts && fresh) {
            i += 1;
            continue;
        }
        let start = i;
        let mut base = module.clone();
        base.extend(
            inline
                .iter()
                .filter(|(_, open, close)| *open < start && start < *close)
                .map(|(name, _, _)| name.clone()),
        );
        let mut climbs_out = false;
        if code[i..].starts_with("crate::") {
            base.clear();
            i += "crate::".len();
        } else {
            while code[i..].starts_with("super::") {
                climbs_out |= base.pop().is_none();
                i += "super::".len();
            }
        }
        let (targets, end) = parse_tree(&code, i, &base);
        let line = code[..start].matches('\n').count() + 1;
        let written: String = code[start..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for mut target in targets {
            if climbs_out {
                // Above the crate root: named as such, so that no rule can pass it.
                target.insert(0, "<above the crate>".to_owned());
            }
            found.push(Reference {
                file: source.path.clone(),
                line,
                written: written.clone(),
                target,
            });
        }
        i = end.max(i + 1);
    }
    found
}

/// A path's tail after its `crate::`/`super::` start: `a::b`, `a::{b, c::d}`, `a::*`, `self`.
/// The module paths it names (each from `base`), and where it ends.
fn parse_tree(code: &str, mut i: usize, base: &[String]) -> (Vec<Vec<String>>, usize) {
    let bytes = code.as_bytes();
    let mut path = base.to_vec();
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b'{' {
            let mut targets = Vec::new();
            i += 1;
            loop {
                while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b',') {
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] == b'}' {
                    return (targets, (i + 1).min(bytes.len()));
                }
                let (inner, end) = parse_tree(code, i, &path);
                targets.extend(inner);
                i = end.max(i + 1);
            }
        }
        let name: String = bytes[i..]
            .iter()
            .take_while(|b| is_ident(**b))
            .map(|b| char::from(*b))
            .collect();
        if name.is_empty() {
            // `*`, or the end of the path.
            let end = if i < bytes.len() && bytes[i] == b'*' {
                i + 1
            } else {
                i
            };
            return (vec![path], end);
        }
        i += name.len();
        if name != "self" {
            path.push(name);
        }
        if code[i..].starts_with("::") {
            i += 2;
        } else {
            return (vec![path], i);
        }
    }
}

/// Reads every `.rs` file under `dir` (its path relative to `dir`, with `/`), and which of them
/// are test-only file modules.
fn read_tree(dir: &Path) -> Vec<Source> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<Source>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(root).expect("under the root");
                out.push(Source {
                    path: relative.to_string_lossy().replace('\\', "/"),
                    text: std::fs::read_to_string(&path)
                        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display())),
                });
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out
}

/// The files that only `#[cfg(test)] mod name;` declarations bring in (and those under them).
fn test_only_files(sources: &[Source]) -> BTreeSet<String> {
    let mut test_modules = BTreeSet::new();
    for source in sources {
        let (_, names) = test_spans(&code_only(&source.text));
        for name in names {
            let mut module = module_of(&source.path);
            module.push(name);
            test_modules.insert(module);
        }
    }
    sources
        .iter()
        .filter(|s| {
            let module = module_of(&s.path);
            test_modules.iter().any(|t| module.starts_with(t))
        })
        .map(|s| s.path.clone())
        .collect()
}

/// The lines of `launcher/` that name anything outside the launcher family.
fn upward(sources: &[Source]) -> Vec<String> {
    let test_only = test_only_files(sources);
    sources
        .iter()
        .filter(|s| s.path.starts_with("launcher/"))
        .flat_map(|s| references(s, &test_only))
        .filter(|r| r.target.first().map(String::as_str) != Some("launcher"))
        .map(|r| {
            format!(
                "src/{}:{}: `{}` names crate::{} from the launcher family; the service uses the \
                 launcher, never the reverse (offer a hook or return data instead)",
                r.file,
                r.line,
                r.written,
                r.target.join("::")
            )
        })
        .collect()
}

/// The import cycles among the children of every module that has some: for each cycle, its
/// modules and, for each edge on it, the first line that makes it.
fn cycles(sources: &[Source]) -> Vec<String> {
    let test_only = test_only_files(sources);
    let modules: BTreeSet<Vec<String>> = sources
        .iter()
        .filter(|s| !test_only.contains(&s.path))
        .map(|s| module_of(&s.path))
        .flat_map(|m| (1..=m.len()).map(move |n| m[..n].to_vec()))
        .collect();
    let refs: Vec<Reference> = sources
        .iter()
        .flat_map(|s| references(s, &test_only))
        .collect();
    let mut parents: BTreeSet<Vec<String>> =
        modules.iter().map(|m| m[..m.len() - 1].to_vec()).collect();
    parents.insert(Vec::new());
    let mut found = Vec::new();
    for parent in parents {
        let depth = parent.len();
        let child = |path: &[String]| -> Option<String> {
            (path.len() > depth && path.starts_with(&parent))
                .then(|| path[..=depth].to_vec())
                .filter(|m| modules.contains(m))
                .map(|m| m[depth].clone())
        };
        let mut edges: BTreeMap<String, BTreeMap<String, &Reference>> = BTreeMap::new();
        for r in &refs {
            let from = child(&module_of(&r.file));
            let to = child(&r.target);
            if let (Some(from), Some(to)) = (from, to) {
                if from != to {
                    edges.entry(from).or_default().entry(to).or_insert(r);
                }
            }
        }
        for group in strongly_connected(&edges) {
            let name = |m: &str| {
                let mut path = parent.clone();
                path.push(m.to_owned());
                path.join("::")
            };
            let mut text = format!(
                "cycle: {}",
                group.iter().map(|m| name(m)).collect::<Vec<_>>().join(", ")
            );
            for from in &group {
                for (to, r) in edges.get(from).into_iter().flatten() {
                    if group.contains(to) {
                        text.push_str(&format!(
                            "\n  {} -> {}: src/{}:{}: `{}`",
                            name(from),
                            name(to),
                            r.file,
                            r.line,
                            r.written
                        ));
                    }
                }
            }
            found.push(text);
        }
    }
    found
}

/// The groups of more than one module that reach each other (Tarjan's algorithm).
fn strongly_connected<V>(edges: &BTreeMap<String, BTreeMap<String, V>>) -> Vec<BTreeSet<String>> {
    struct Walk<'a, V> {
        edges: &'a BTreeMap<String, BTreeMap<String, V>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        groups: Vec<BTreeSet<String>>,
    }
    fn visit<'a, V>(walk: &mut Walk<'a, V>, v: &'a str) {
        let n = walk.index.len();
        walk.index.insert(v, n);
        walk.low.insert(v, n);
        walk.stack.push(v);
        for w in walk.edges.get(v).into_iter().flat_map(|e| e.keys()) {
            if !walk.index.contains_key(w.as_str()) {
                visit(walk, w);
                let low = walk.low[v].min(walk.low[w.as_str()]);
                walk.low.insert(v, low);
            } else if walk.stack.contains(&w.as_str()) {
                let low = walk.low[v].min(walk.index[w.as_str()]);
                walk.low.insert(v, low);
            }
        }
        if walk.low[v] == walk.index[v] {
            let mut group = BTreeSet::new();
            while let Some(w) = walk.stack.pop() {
                group.insert(w.to_owned());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                walk.groups.push(group);
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        groups: Vec::new(),
    };
    let names: Vec<&str> = edges
        .iter()
        .flat_map(|(from, to)| std::iter::once(from).chain(to.keys()))
        .map(String::as_str)
        .collect();
    for v in names {
        if !walk.index.contains_key(v) {
            visit(&mut walk, v);
        }
    }
    walk.groups
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
    let test_only = test_only_files(&sources);
    let seen = sources
        .iter()
        .filter(|s| s.path.starts_with("service/"))
        .flat_map(|s| references(s, &test_only))
        .any(|r| r.target.first().map(String::as_str) == Some("launcher"));
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
