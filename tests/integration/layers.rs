//! The client's modules stand in layers, checked on the source (`src/**/*.rs`) as CI's
//! `cargo test` runs it: no import cycle between the top-level modules (a file `src/X.rs` or a
//! folder `src/X/`), no command file importing another command file, and no module importing one
//! above it in the layer order that `src/lib.rs`'s doc comment states, which [`LAYERS`] holds.
//!
//! An import is any `crate::X` path (a `use crate::{a, b::c}` group counts each name; `super::`
//! is followed up from the file's own module), outside comments, string and character literals
//! and `#[cfg(test)] mod` blocks: unit tests may reach anywhere. Macros are not expanded and
//! inline modules other than those are followed only for `super::`, which is all `src/` uses.
//!
//! Run alone: `cargo test --locked --test integration layers`. The emulator crate's own one-way
//! check is beside its code, not here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::harness::repo_root;

/// The layer order of `src/lib.rs`'s doc comment, bottom first: a module imports only from its
/// own layer or one below. A new top-level module fails `every_module_has_a_layer` until it is
/// placed here, and `lib_rs_doc_names_every_module_in_layer_order` until lib.rs's doc names it.
const LAYERS: &[&[&str]] = &[
    // Plain types and parsing, and the stop signals, counted.
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
        "signals",
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

/// The crate roots, which are no layer: `lib.rs` declares the modules, and `main.rs` is the
/// binary, a crate of its own that reaches the library only through `safe_ad::run`.
const ROOTS: &[&str] = &["lib", "main"];

/// One source file: its path under `src/` (`commands/show.rs`) and its text.
struct Source {
    path: String,
    text: String,
}

/// A path into the crate written in a file: the modules it names from the crate's root
/// (`["commands", "show", "run"]`) and the line it is written on.
struct CratePath {
    segments: Vec<String>,
    line: usize,
}

/// The top-level modules' imports of each other: for each (from, to), every `file:line` where
/// `from` names `to`.
type Edges = BTreeMap<(String, String), Vec<String>>;

// ---- Reading the source -------------------------------------------------------------------------

/// Comments, string literals and character literals blanked out (newlines kept, so lines still
/// count), so that only code is left to read: a `crate::x` in a doc comment or a message is no
/// import, and a `'}'` must not close a block.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let blank = |out: &mut String, from: &[char]| {
        out.extend(from.iter().map(|&c| if c == '\n' { '\n' } else { ' ' }))
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let start = i;
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            // Block comments nest in Rust.
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r'
            && (i == 0
                || !ident(chars[i - 1])
                || (chars[i - 1] == 'b' && (i < 2 || !ident(chars[i - 2]))))
            && matches!(next, Some('"' | '#'))
        {
            // A raw string: r"...", r#"..."#, br"..." (the `b` is left as a word).
            let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            i += 2 + hashes;
            while i < chars.len() {
                if chars[i] == '"' && chars[i + 1..].iter().take(hashes).all(|&c| c == '#') {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '\'' && next == Some('\\') {
            // An escaped character literal: '\n', '\'', '\u{7f}'.
            i += 3;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i += 3;
        } else {
            // Code, a lifetime's quote included.
            out.push(c);
            i += 1;
            continue;
        }
        let end = i.min(chars.len());
        blank(&mut out, &chars[start..end]);
        i = end;
    }
    out
}

/// A word (identifier, keyword or number), `::`, or one other character, with its line.
#[derive(Debug, Clone, PartialEq)]
struct Token {
    text: String,
    line: usize,
}

fn tokens(code: &str) -> Vec<Token> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token {
                text: chars[start..i].iter().collect(),
                line,
            });
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push(Token {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                text: c.to_string(),
                line,
            });
            i += 1;
        }
    }
    out
}

/// The tokens with every `#[cfg(test)] mod NAME { ... }` left out: unit tests may import what
/// the code may not.
fn without_test_modules(tokens: Vec<Token>) -> Vec<Token> {
    let text = |at: usize| tokens.get(at).map_or("", |t| t.text.as_str());
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let attribute = ["#", "[", "cfg", "(", "test", ")", "]"];
        if attribute.iter().enumerate().all(|(k, t)| text(i + k) == *t) {
            // After the attribute: `pub`, `pub(crate)`..., then `mod NAME {`.
            let mut j = i + attribute.len();
            if text(j) == "pub" {
                j += 1;
                if text(j) == "(" {
                    while j < tokens.len() && text(j) != ")" {
                        j += 1;
                    }
                    j += 1;
                }
            }
            if text(j) == "mod" && text(j + 2) == "{" {
                let mut depth = 0;
                j += 2;
                while j < tokens.len() {
                    match text(j) {
                        "{" => depth += 1,
                        "}" => depth -= 1,
                        _ => {}
                    }
                    j += 1;
                    if depth == 0 {
                        break;
                    }
                }
                i = j;
                continue;
            }
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// The module a file is, from the crate's root: `commands/show.rs` is `["commands", "show"]`,
/// `batch/mod.rs` and `batch.rs` are `["batch"]`, `lib.rs` is `[]`.
fn module_path_of(path: &str) -> Vec<String> {
    let mut parts: Vec<String> = path.split('/').map(str::to_owned).collect();
    let file = parts.pop().unwrap_or_default();
    let stem = file.strip_suffix(".rs").unwrap_or(&file);
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_owned());
    }
    parts
}

/// Every path into the crate a file writes (`crate::`, `super::`, `self::`), each name of a
/// `{...}` group a path of its own, resolved from the crate's root.
fn crate_paths(source: &Source) -> Vec<CratePath> {
    let tokens = without_test_modules(tokens(&code_only(&source.text)));
    let file_module = module_path_of(&source.path);
    let mut found = Vec::new();
    // Inline modules (`mod emulator_routes { ... }`): their name, and the depth they close at.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        let text = tokens[i].text.as_str();
        let after_colons = i > 0 && tokens[i - 1].text == "::";
        match text {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if inline.last().is_some_and(|(_, at)| *at == depth) {
                    inline.pop();
                }
            }
            "mod" if tokens.get(i + 2).is_some_and(|t| t.text == "{") => {
                inline.push((tokens[i + 1].text.clone(), depth));
            }
            "crate" | "super" | "self" if !after_colons => {
                let mut base: Vec<String> = file_module.clone();
                base.extend(inline.iter().map(|(name, _)| name.clone()));
                let mut paths = Vec::new();
                i = use_tree(&tokens, i, Vec::new(), &mut paths);
                for (written, line) in paths {
                    if let Some(segments) = resolve(&base, &written) {
                        found.push(CratePath { segments, line });
                    }
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// Reads one path or `use` tree from `at`, adding each whole path to `out` with the line of its
/// last name; returns where it ended. `a::{b, c::{d, e as f}}` gives `a::b`, `a::c::d`, `a::c::e`.
fn use_tree(
    tokens: &[Token],
    mut at: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, usize)>,
) -> usize {
    let text = |at: usize| tokens.get(at).map_or("", |t| t.text.as_str());
    loop {
        if text(at) == "{" {
            at += 1;
            while at < tokens.len() && text(at) != "}" {
                at = use_tree(tokens, at, prefix.clone(), out);
                // Past what follows a name in a group (`as f`) to the next name.
                let mut nested = 0;
                while at < tokens.len() && !(nested == 0 && matches!(text(at), "," | "}")) {
                    match text(at) {
                        "{" => nested += 1,
                        "}" => nested -= 1,
                        _ => {}
                    }
                    at += 1;
                }
                if text(at) == "," {
                    at += 1;
                }
            }
            return at + 1;
        }
        let word = text(at);
        if word.is_empty()
            || !(word.chars().all(|c| c.is_alphanumeric() || c == '_') || word == "*")
        {
            if !prefix.is_empty() {
                out.push((prefix, tokens[at.saturating_sub(1)].line));
            }
            return at;
        }
        prefix.push(word.to_owned());
        if text(at + 1) == "::" {
            at += 2;
        } else {
            out.push((prefix, tokens[at].line));
            return at + 1;
        }
    }
}

/// A written path (`super::y::f`) from the module `base` (`["commands", "x"]`), as a path from the
/// crate's root (`["commands", "y", "f"]`); `None` for a `super` above the root.
fn resolve(base: &[String], written: &[String]) -> Option<Vec<String>> {
    let mut words = written.iter().map(String::as_str).peekable();
    let mut path: Vec<String> = match words.next()? {
        "crate" => Vec::new(),
        "self" => base.to_vec(),
        "super" => {
            let mut path = base.to_vec();
            path.pop()?;
            while words.peek() == Some(&"super") {
                words.next();
                path.pop()?;
            }
            path
        }
        _ => return None,
    };
    path.extend(words.filter(|w| *w != "self").map(str::to_owned));
    Some(path)
}

// ---- The checks -----------------------------------------------------------------------------

/// The top-level module a file belongs to: `commands/show.rs` and `commands.rs` to `commands`.
fn top_module(path: &str) -> String {
    let first = path.split('/').next().unwrap_or(path);
    first.strip_suffix(".rs").unwrap_or(first).to_owned()
}

/// The top-level modules (the crate roots aside) and their imports of each other.
fn graph(sources: &[Source]) -> (BTreeSet<String>, Edges) {
    let modules: BTreeSet<String> = sources
        .iter()
        .map(|s| top_module(&s.path))
        .filter(|m| !ROOTS.contains(&m.as_str()))
        .collect();
    let mut edges = Edges::new();
    for source in sources {
        let from = top_module(&source.path);
        if ROOTS.contains(&from.as_str()) {
            continue;
        }
        for path in crate_paths(source) {
            let Some(to) = path.segments.first() else {
                continue;
            };
            if *to != from && modules.contains(to) {
                let site = format!("src/{}:{}", source.path, path.line);
                let sites = edges.entry((from.clone(), to.clone())).or_default();
                // `use crate::c::{self, D}` is one import on one line, said once.
                if sites.last() != Some(&site) {
                    sites.push(site);
                }
            }
        }
    }
    (modules, edges)
}

/// The groups of modules that import each other round a loop (Tarjan's strongly connected
/// components of more than one module), each sorted.
fn cycles(modules: &BTreeSet<String>, edges: &Edges) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a Edges,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        groups: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            let edges = self.edges;
            for (_, w) in edges.keys().filter(|(a, _)| a == v) {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    group.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.groups.push(group);
                }
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
    for module in modules {
        if !walk.index.contains_key(module.as_str()) {
            walk.visit(module);
        }
    }
    walk.groups
}

/// Each import on a cycle, with where it is written, one line each; empty when there is none.
fn cycle_report(modules: &BTreeSet<String>, edges: &Edges) -> Vec<String> {
    let mut lines = Vec::new();
    for group in cycles(modules, edges) {
        lines.push(format!("cycle: {}", group.join(", ")));
        for ((from, to), sites) in edges {
            if group.contains(from) && group.contains(to) {
                lines.push(format!("  {from} -> {to}: {}", sites.join(", ")));
            }
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
                    sites.join(", ")
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
            let tokens = without_test_modules(tokens(&code_only(&s.text)));
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
    for source in sources {
        let Some(own) = command_of(&source.path) else {
            continue;
        };
        for path in crate_paths(source) {
            if let [top, other, ..] = path.segments.as_slice() {
                if top == "commands" && *other != own && commands.contains(other) {
                    lines.push(format!(
                        "src/{}:{}: command `{own}` imports command `{other}`",
                        source.path, path.line
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
    fn walk(root: &Path, dir: &Path, out: &mut Vec<Source>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let relative = path.strip_prefix(root).expect("under src/");
                out.push(Source {
                    path: relative.to_string_lossy().into_owned(),
                    text,
                });
            }
        }
    }
    let root = repo_root().join("src");
    let mut sources = Vec::new();
    walk(&root, &root, &mut sources);
    assert!(sources.len() > 20, "src/ holds {} files", sources.len());
    sources
}

#[test]
fn no_module_cycles() {
    let (modules, edges) = graph(&client_sources());
    let report = cycle_report(&modules, &edges);
    assert!(
        report.is_empty(),
        "src/'s top-level modules import each other round a loop; each import on it:\n{}",
        report.join("\n")
    );
}

#[test]
fn no_import_against_the_layers() {
    let (_, edges) = graph(&client_sources());
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
    let (modules, _) = graph(&client_sources());
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

// ---- The checker itself, on small crates written here --------------------------------------

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
    let (modules, edges) = graph(&sources);
    assert_eq!(cycles(&modules, &edges), [["a", "b"]]);
    assert_eq!(
        cycle_report(&modules, &edges),
        [
            "cycle: a, b",
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
    let (_, edges) = graph(&sources);
    let found: Vec<_> = edges
        .iter()
        .map(|((from, to), sites)| format!("{from} -> {to} {}", sites.join(" ")))
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
    let (_, edges) = graph(&sources);
    let found: Vec<_> = edges
        .iter()
        .map(|(edge, sites)| (edge.clone(), sites.clone()))
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
    let (_, edges) = graph(&sources);
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
