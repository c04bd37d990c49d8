//! The reader of Rust source that both layering checks share: `tests/integration/layers.rs` (the
//! client's modules; `tests/integration/main.rs` includes this file) and
//! `crates/emulator/tests/families.rs` (the emulator crate's; it includes this file itself). Each
//! check keeps only its own rules; this file owns everything they read with:
//!
//! - the files of a crate's `src/` ([`read_tree`]), and which of them are test-only: those that
//!   only a `#[cfg(test)] mod NAME;` declaration brings in, and every file under them
//!   ([`read_crate`] leaves those out);
//! - what counts as code ([`code_tokens`]): comments, string, raw string and character literals
//!   blanked (`'}'` closes nothing), and each item, field or statement after a `#[cfg(test)]` left
//!   out, that item alone (a `mod x { ... }` to its brace, a `use` to its `;`, a field to its `,`);
//! - the paths into the crate a file writes ([`crate_paths`]): every `crate::`, `super::` and
//!   `self::` path, each name of a `use` group a path of its own, an `as` alias never taken for a
//!   module, resolved from the crate's root (`super::` from the file's module and the inline
//!   modules it is written in);
//! - the module graph among the children of any one module ([`Crate::graph`]), and its cycles
//!   ([`cycles`], Tarjan's strongly connected components), in every folder at once
//!   ([`Crate::every_cycle`]).
//!
//! Macros are not expanded. The reader's own tests are in `tests/integration/layers.rs`
//! (`cargo test --locked --test integration layers`), once: this file is compiled into both test
//! binaries.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// One source file: its path under `src/` with `/` (`commands/show.rs`) and its text.
pub struct Source {
    pub path: String,
    pub text: String,
}

/// A path into the crate written in a file: the names it gives from the crate's root
/// (`["commands", "show", "run"]`), the line of its last name, and its whole path or `use` tree as
/// written (`crate::{a, b::c}`), for messages.
#[derive(Debug, Clone)]
pub struct CratePath {
    pub segments: Vec<String>,
    pub line: usize,
    pub written: String,
}

/// The first name of a path whose `super::` climbs above the crate's root: no module is so
/// named, so no rule lets it pass.
pub const ABOVE_CRATE: &str = "<above the crate>";

/// Where an import is written: the file under `src/`, the line, the path as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    pub file: String,
    pub line: usize,
    pub written: String,
}

/// Some modules' imports of each other: for each (from, to), every site where `from` names `to`,
/// in file order (one per line).
pub type Edges = BTreeMap<(String, String), Vec<Site>>;

// ---- Files and modules --------------------------------------------------------------------------

/// Every `.rs` file under `dir`, by its path from there (with `/`), in path order.
pub fn read_tree(dir: &Path) -> Vec<Source> {
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

/// The module a file is, from the crate's root: `commands/show.rs` is `["commands", "show"]`,
/// `batch/mod.rs` and `batch.rs` are `["batch"]`, `lib.rs` and `main.rs` are `[]`.
pub fn module_of(path: &str) -> Vec<String> {
    let mut parts: Vec<String> = path.split('/').map(str::to_owned).collect();
    let file = parts.pop().unwrap_or_default();
    let stem = file.strip_suffix(".rs").unwrap_or(&file).to_owned();
    if !(stem == "mod" || (parts.is_empty() && (stem == "lib" || stem == "main"))) {
        parts.push(stem);
    }
    parts
}

/// The files that only `#[cfg(test)] mod NAME;` declarations bring in, and those under them.
pub fn test_only_files(sources: &[Source]) -> BTreeSet<String> {
    let mut test_modules = BTreeSet::new();
    for source in sources {
        let (_, names) = without_test_items(tokens(&code_only(&source.text)));
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

/// A crate read once: its code files (the test-only ones left out), in path order, and every
/// module they make.
pub struct Crate {
    pub files: Vec<CodeFile>,
    pub modules: BTreeSet<Vec<String>>,
}

/// A file that is code: its path under `src/`, its module, and the paths into the crate it writes.
pub struct CodeFile {
    pub path: String,
    pub module: Vec<String>,
    pub paths: Vec<CratePath>,
}

/// Reads a crate's files: which are code, their modules (and every module above one: `a::b::c`
/// gives `a`, `a::b` and `a::b::c`; not the root), and the paths each writes.
pub fn read_crate(sources: &[Source]) -> Crate {
    let test_only = test_only_files(sources);
    let files: Vec<CodeFile> = sources
        .iter()
        .filter(|s| !test_only.contains(&s.path))
        .map(|s| CodeFile {
            path: s.path.clone(),
            module: module_of(&s.path),
            paths: crate_paths(s),
        })
        .collect();
    let modules = files
        .iter()
        .flat_map(|f| (1..=f.module.len()).map(|n| f.module[..n].to_vec()))
        .collect();
    Crate { files, modules }
}

// ---- Code ---------------------------------------------------------------------------------------

/// Comments, string literals and character literals blanked out (newlines kept, so lines still
/// count), so that only code is left to read: a `crate::x` in a doc comment or a message is no
/// import, and a `'}'` must not close a block.
pub fn code_only(text: &str) -> String {
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
pub struct Token {
    pub text: String,
    pub line: usize,
}

/// A file's code as tokens: comments and literals blanked ([`code_only`]), and every item,
/// field or statement after a `#[cfg(test)]` left out: unit tests may reach anywhere.
pub fn code_tokens(text: &str) -> Vec<Token> {
    without_test_items(tokens(&code_only(text))).0
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

fn is_word(text: &str) -> bool {
    text.chars().all(|c| c.is_alphanumeric() || c == '_') && !text.is_empty()
}

/// The tokens with what each `#[cfg(test)]` applies to left out (see [`test_item_end`]), and the
/// names of the file modules declared test-only (`#[cfg(test)] mod tests;`).
fn without_test_items(tokens: Vec<Token>) -> (Vec<Token>, Vec<String>) {
    let text = |at: usize| tokens.get(at).map_or("", |t| t.text.as_str());
    let attribute = ["#", "[", "cfg", "(", "test", ")", "]"];
    let mut out = Vec::new();
    let mut files = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if !attribute.iter().enumerate().all(|(k, t)| text(i + k) == *t) {
            out.push(tokens[i].clone());
            i += 1;
            continue;
        }
        // Other attributes on the same item (`#[allow(...)]`), then its visibility.
        let mut j = i + attribute.len();
        while text(j) == "#" && text(j + 1) == "[" {
            j = past_group(&tokens, j + 1);
        }
        let mut k = j;
        if text(k) == "pub" {
            k += 1;
            if text(k) == "(" {
                k = past_group(&tokens, k);
            }
        }
        if text(k) == "mod" && text(k + 2) == ";" {
            files.push(text(k + 1).to_owned());
        }
        i = test_item_end(&tokens, k);
    }
    (out, files)
}

/// Just past the group (`(...)`, `[...]`, `{...}`) that opens at `open`.
fn past_group(tokens: &[Token], open: usize) -> usize {
    let mut depth = 0;
    for (at, token) in tokens.iter().enumerate().skip(open) {
        match token.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    return at + 1;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

/// Just past the one thing an attribute at `at` (its visibility passed) applies to, and no
/// further: an item with a body (`mod`, `fn`, `impl`, `struct`, `enum`, `trait`, a block) through
/// its first `{...}` or to its `;`; a `use`, `const`, `static`, `type`, `let` or `extern crate` to
/// its `;`; a field (`name: Type<A, B>`) to its `,`; a variant, match arm or statement to its `,`,
/// its `;` or through its first `{...}`. Never past the bracket that closes what holds it: the
/// field after a test-only last field is read.
fn test_item_end(tokens: &[Token], at: usize) -> usize {
    let text = |i: usize| tokens.get(i).map_or("", |t| t.text.as_str());
    let mut k = at;
    // Qualifiers (`const` only before `fn`, `unsafe` or `async`: `const X: T = ...;` is a value).
    while matches!(text(k), "async" | "unsafe" | "extern" | "default")
        || (text(k) == "const" && matches!(text(k + 1), "fn" | "unsafe" | "async" | "extern"))
    {
        k += 1;
    }
    let body = matches!(
        text(k),
        "fn" | "mod" | "impl" | "struct" | "enum" | "trait" | "union" | "macro_rules" | "{"
    );
    let value = matches!(
        text(k),
        "use" | "const" | "static" | "type" | "let" | "crate"
    );
    let field = !body && !value && is_word(text(k)) && text(k + 1) == ":";
    // A `{...}` at the top ends an item with a body, and a statement, variant or arm (`if x {...}`,
    // `V { a: u8 }`, `A => {...}`) unless an `else` follows: a `use` group or a value's braces
    // do not.
    let brace_ends = !value && !field;
    let mut depth = 0;
    let mut angles = 0;
    let mut i = k;
    while i < tokens.len() {
        match text(i) {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                if depth == 0 {
                    return i;
                }
                depth -= 1;
                if depth == 0 && text(i) == "}" && brace_ends && text(i + 1) != "else" {
                    return i + 1;
                }
            }
            "<" if field && depth == 0 => angles += 1,
            ">" if field && depth == 0 && angles > 0 && text(i - 1) != "-" => angles -= 1,
            ";" if depth == 0 => return i + 1,
            "," if depth == 0 && angles == 0 && !body && !value => return i + 1,
            _ => {}
        }
        i += 1;
    }
    tokens.len()
}

// ---- Paths --------------------------------------------------------------------------------------

/// Every path into the crate a file writes (`crate::`, `super::`, `self::`), each name of a
/// `{...}` group a path of its own, resolved from the crate's root.
pub fn crate_paths(source: &Source) -> Vec<CratePath> {
    let tokens = code_tokens(&source.text);
    let file_module = module_of(&source.path);
    let mut found = Vec::new();
    // Inline modules (`mod emulator_routes { ... }`): their name, and the depth they close at.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        let text = tokens[i].text.as_str();
        let after_colons = i > 0 && tokens[i - 1].text == "::";
        let before_colons = tokens.get(i + 1).is_some_and(|t| t.text == "::");
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
            "crate" | "super" | "self" if !after_colons && before_colons => {
                let mut base: Vec<String> = file_module.clone();
                base.extend(inline.iter().map(|(name, _)| name.clone()));
                let mut paths = Vec::new();
                let end = use_tree(&tokens, i, Vec::new(), &mut paths);
                let written = spelled(&tokens[i..end.min(tokens.len())]);
                for (path, line) in paths {
                    found.push(CratePath {
                        segments: resolve(&base, &path),
                        line,
                        written: written.clone(),
                    });
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// Tokens as a person writes them: a space between two words and after a comma, none elsewhere.
fn spelled(tokens: &[Token]) -> String {
    let mut out = String::new();
    let mut before = "";
    for token in tokens {
        if (is_word(before) && is_word(&token.text)) || before == "," {
            out.push(' ');
        }
        out.push_str(&token.text);
        before = &token.text;
    }
    out
}

/// Reads one path or `use` tree from `at`, adding each whole path to `out` with the line of its
/// last name; returns where it ended. `a::{b, c::{d, e as f}}` gives `a::b`, `a::c::d`, `a::c::e`:
/// what follows `as` is a new name, not a module.
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
        if !(is_word(word) || word == "*") {
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
/// crate's root (`["commands", "y", "f"]`); one that climbs above the root starts [`ABOVE_CRATE`].
fn resolve(base: &[String], written: &[String]) -> Vec<String> {
    let mut words = written.iter().map(String::as_str).peekable();
    let mut path: Vec<String> = match words.next() {
        Some("crate") => Vec::new(),
        Some("self") => base.to_vec(),
        _ => {
            // `super`, as many times as written.
            let mut path = base.to_vec();
            let mut above = path.pop().is_none();
            while words.peek() == Some(&"super") {
                words.next();
                above |= path.pop().is_none();
            }
            if above {
                vec![ABOVE_CRATE.to_owned()]
            } else {
                path
            }
        }
    };
    path.extend(words.filter(|w| *w != "self").map(str::to_owned));
    path
}

// ---- The module graph ---------------------------------------------------------------------------

impl Crate {
    /// The modules directly inside `parent` (`[]` for the crate's top level), by name, and their
    /// imports of each other: an import of `parent::a::x` written in a file of `parent::b` is the
    /// edge (b, a).
    pub fn graph(&self, parent: &[String]) -> (BTreeSet<String>, Edges) {
        let depth = parent.len();
        let children: BTreeSet<String> = self
            .modules
            .iter()
            .filter(|m| m.len() == depth + 1 && m.starts_with(parent))
            .map(|m| m[depth].clone())
            .collect();
        let child = |path: &[String]| {
            (path.len() > depth && path.starts_with(parent) && children.contains(&path[depth]))
                .then(|| path[depth].clone())
        };
        let mut edges = Edges::new();
        for file in &self.files {
            let Some(from) = child(&file.module) else {
                continue;
            };
            for path in &file.paths {
                let Some(to) = child(&path.segments) else {
                    continue;
                };
                if to != from {
                    let sites = edges.entry((from.clone(), to)).or_default();
                    // `use crate::c::{self, D}` is one import on one line, said once.
                    if !sites
                        .last()
                        .is_some_and(|s| s.file == file.path && s.line == path.line)
                    {
                        sites.push(Site {
                            file: file.path.clone(),
                            line: path.line,
                            written: path.written.clone(),
                        });
                    }
                }
            }
        }
        (children, edges)
    }
}

/// A loop of imports among the children of one module: that module (`[]` for the crate's top
/// level), the children on the loop (sorted), and each import between two of them.
#[derive(Debug)]
pub struct Cycle {
    pub parent: Vec<String>,
    pub modules: Vec<String>,
    pub edges: Edges,
}

impl Crate {
    /// Every loop of imports in the crate: among the top-level modules and among the children of
    /// each module that has some (every folder, and every file with `mod` children), found by
    /// walking the modules, not by a list, so a new folder is checked as soon as it is written.
    pub fn every_cycle(&self) -> Vec<Cycle> {
        let mut parents: BTreeSet<Vec<String>> = self
            .modules
            .iter()
            .map(|m| m[..m.len() - 1].to_vec())
            .collect();
        parents.insert(Vec::new());
        let mut found = Vec::new();
        for parent in parents {
            let (children, edges) = self.graph(&parent);
            for modules in cycles(&children, &edges) {
                let edges = edges
                    .iter()
                    .filter(|((from, to), _)| modules.contains(from) && modules.contains(to))
                    .map(|(edge, sites)| (edge.clone(), sites.clone()))
                    .collect();
                found.push(Cycle {
                    parent: parent.clone(),
                    modules,
                    edges,
                });
            }
        }
        found
    }
}

/// The groups of modules that import each other round a loop (Tarjan's strongly connected
/// components of more than one module), each sorted.
pub fn cycles(modules: &BTreeSet<String>, edges: &Edges) -> Vec<Vec<String>> {
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
