//! The Debian package and the crate, as a person gets them.
//!
//! `cargo deb` builds the package from this checkout once for all the tests here (the release
//! build it needs is the only one the test run makes). The tests list it with `dpkg-deb -c` and
//! read its fields with `dpkg-deb -f`, unpack it with `dpkg-deb -x` into a temporary directory
//! (never into the machine's own root) and use what is inside: the binary runs and reaches an
//! emulator, `man` shows the pages, and bash, zsh and fish find the completions where the package
//! put them. Where `cargo deb` or `dpkg-deb` is missing they are skipped with the reason
//! printed (under CI, which installs both, that fails instead).
//!
//! The release build takes minutes, so these tests are ignored: `cargo test` stays quick, and CI
//! runs them as a step of their own, after the suite (`.ci/run`):
//!
//!     cargo test --locked --test integration package:: -- --ignored
//!
//! What the package must hold comes from the repository: the committed man pages and completions,
//! and Cargo.toml's fields (read through `cargo metadata`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;
use tempfile::TempDir;

use crate::completions::{check_cases, check_typed, Found, Sh};
use crate::generated::render;
use crate::harness::{have, have_bash_completion, repo_root as root, skip, wait_for_exit, Sandbox};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// How long `cargo deb` may take: a release build with LTO, on a busy 2-core machine.
const BUILD_LIMIT: Duration = Duration::from_secs(30 * 60);

/// The variables a cargo run needs to find the toolchain and its registry cache. Nothing else of
/// this test process's environment reaches it: `cargo test` sets CARGO_* variables for the test,
/// and the person's RUSTFLAGS, CARGO_TARGET_DIR or CARGO_BUILD_* would change what is built.
const CARGO_ENV: [&str; 5] = [
    "PATH",
    "HOME",
    "CARGO_HOME",
    "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN",
];

/// `cargo`, the one this test was built by, with a clean environment ([`CARGO_ENV`]) and a target
/// directory of its own under the test's scratch space (`CARGO_TARGET_TMPDIR`), kept between runs
/// so a second run rebuilds little: never the checkout's own `target/release` or
/// `target/debian`.
fn cargo() -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.env_clear();
    for name in CARGO_ENV {
        if let Some(value) = std::env::var_os(name) {
            command.env(name, value);
        }
    }
    command.env(
        "CARGO_TARGET_DIR",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("package"),
    );
    command
}

/// The package, built once by `cargo deb` for every test here; `None` where it cannot be built
/// here, after [`skip`] said why (in every test that asks, so none passes unseen).
#[track_caller]
fn package() -> Option<&'static Path> {
    static DEB: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match DEB.get_or_init(build) {
        Ok(deb) => Some(deb.as_path()),
        Err(reason) => {
            skip(reason);
            None
        }
    }
}

/// Builds the package, or says why it cannot be built here.
fn build() -> Result<PathBuf, String> {
    let has_cargo_deb = cargo()
        .args(["deb", "--version"])
        .output()
        .is_ok_and(|output| output.status.success());
    if !has_cargo_deb {
        return Err("`cargo deb` is not installed (cargo install --locked cargo-deb)".into());
    }
    if !Path::new("/usr/bin/dpkg-deb").is_file() {
        return Err("`dpkg-deb` is not installed".into());
    }
    // Its output goes to files: a release build says a lot, and a pipe nobody reads fills up.
    let logs = TempDir::new().expect("temp dir");
    let stdout = logs.path().join("stdout");
    let stderr = logs.path().join("stderr");
    let mut child = cargo()
        .args(["deb", "--locked", "--offline"])
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout).expect("log"))
        .stderr(std::fs::File::create(&stderr).expect("log"))
        .spawn()
        .expect("cargo deb starts");
    let status = wait_for_exit(&mut child, BUILD_LIMIT, "cargo deb");
    let stdout = std::fs::read_to_string(stdout).unwrap_or_default();
    let stderr = std::fs::read_to_string(stderr).unwrap_or_default();
    assert!(
        status.success(),
        "cargo deb failed: {status}\n{stdout}\n{stderr}"
    );
    // cargo deb prints the package's path last.
    let deb = stdout
        .lines()
        .rev()
        .find(|line| line.ends_with(".deb"))
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("cargo deb named no package:\n{stdout}\n{stderr}"));
    let arch = text(Command::new("dpkg").arg("--print-architecture"));
    assert_eq!(
        deb.file_name().expect("a file").to_string_lossy(),
        format!("safe-ad_{VERSION}-1_{}.deb", arch.trim()),
        "the package's file name"
    );
    Ok(deb)
}

/// A command's stdout; fails with its stderr unless it succeeds.
#[track_caller]
fn text(command: &mut Command) -> String {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        output.status.success(),
        "{command:?}: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// The package unpacked with `dpkg-deb -x` into a directory of its own.
fn unpack(deb: &Path) -> TempDir {
    let dir = TempDir::new().expect("temp dir");
    text(Command::new("dpkg-deb").arg("-x").arg(deb).arg(dir.path()));
    dir
}

/// The committed man pages, by file name.
fn man_pages() -> BTreeSet<String> {
    std::fs::read_dir(root().join("man"))
        .expect("man/")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

/// Where the package puts each committed completion file.
const COMPLETIONS: [(&str, &str); 3] = [
    (
        "completions/safe-ad.bash",
        "usr/share/bash-completion/completions/safe-ad",
    ),
    (
        "completions/_safe-ad",
        "usr/share/zsh/vendor-completions/_safe-ad",
    ),
    (
        "completions/safe-ad.fish",
        "usr/share/fish/vendor_completions.d/safe-ad.fish",
    ),
];

/// Where the package puts README and the guide.
const DOC: &str = "usr/share/doc/safe-ad";

/// What README links to, beside itself, by its path in the repository: the guide (`docs/*.md`)
/// and TESTING.md. The package lays them out as the repository does, under [`DOC`].
fn guide() -> Vec<String> {
    let mut files: Vec<String> = crate::harness::documents()
        .into_iter()
        .filter(|file| file != "README.md")
        .collect();
    files.push("TESTING.md".to_owned());
    files
}

/// The package holds the binary, every man page (gzipped), the three completions, the licences,
/// README with the guide it links to, changelog and copyright, and nothing else; all owned by root, the binary executable.
#[test]
#[ignore = "builds a release .deb (minutes): CI runs it as a step of its own (TESTING.md)"]
fn package_holds_binary_man_pages_completions_and_docs() {
    let Some(deb) = package() else { return };
    let listing = text(Command::new("dpkg-deb").arg("-c").arg(deb));
    let mut files = BTreeMap::new();
    for line in listing.lines() {
        // -rwxr-xr-x 0/0 4475144 2026-11-26 00:00 ./usr/bin/safe-ad
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [mode, owner, _size, _date, _time, path] = fields[..] else {
            panic!("unexpected dpkg-deb -c line: {line}");
        };
        assert_eq!(owner, "0/0", "{path} is not owned by root");
        if !mode.starts_with('d') {
            files.insert(path.trim_start_matches("./").to_owned(), mode.to_owned());
        }
    }
    let mut expected: BTreeSet<String> = [
        "usr/bin/safe-ad",
        "usr/share/doc/safe-ad/copyright",
        "usr/share/doc/safe-ad/README.md",
        "usr/share/doc/safe-ad/changelog.gz",
        "usr/share/doc/safe-ad/LICENSE-MIT",
        "usr/share/doc/safe-ad/LICENSE-APACHE",
    ]
    .map(String::from)
    .into();
    expected.extend(COMPLETIONS.map(|(_, installed)| installed.to_owned()));
    expected.extend(guide().iter().map(|doc| format!("{DOC}/{doc}")));
    expected.extend(
        man_pages()
            .iter()
            .map(|page| format!("usr/share/man/man1/{page}.gz")),
    );
    let listed: BTreeSet<String> = files.keys().cloned().collect();
    assert_eq!(listed, expected, "the package's files:\n{listing}");
    assert_eq!(files["usr/bin/safe-ad"], "-rwxr-xr-x", "{listing}");
    for (path, mode) in &files {
        if path != "usr/bin/safe-ad" {
            assert_eq!(mode, "-rw-r--r--", "{path}");
        }
    }
}

/// In the installed layout every relative link of README and the guide names a file the package
/// holds, with the same text as the repository's: a reader of /usr/share/doc/safe-ad follows them
/// as on the repository's pages. The one rename is Debian's: the changelog is `changelog.gz`.
#[test]
#[ignore = "builds a release .deb (minutes): CI runs it as a step of its own (TESTING.md)"]
fn readme_links_resolve_where_the_package_installs_it() {
    let Some(deb) = package() else { return };
    let unpacked = unpack(deb);
    let doc = unpacked.path().join(DOC);
    let mut broken = Vec::new();
    let mut count = 0;
    for file in crate::harness::documents() {
        let installed = std::fs::read_to_string(doc.join(&file)).unwrap_or_else(|e| {
            panic!("{DOC}/{file}: {e}");
        });
        let repo = std::fs::read_to_string(root().join(&file)).expect("the repository's file");
        assert!(
            installed == repo,
            "the packaged {file} is not the repository's"
        );
        for target in crate::harness::links(&installed) {
            if target.starts_with("http://") || target.starts_with("https://") {
                continue;
            }
            count += 1;
            let path = target.split('#').next().expect("a path");
            let resolved = match crate::harness::resolve(&file, path) {
                changelog if changelog == "CHANGELOG.md" => "changelog.gz".to_owned(),
                resolved => resolved,
            };
            if !doc.join(&resolved).is_file() {
                broken.push(format!("{file}: {target} (no {DOC}/{resolved})"));
            }
        }
    }
    assert!(count > 20, "only {count} links found");
    assert!(
        broken.is_empty(),
        "links that do not resolve in the package:\n{}",
        broken.join("\n")
    );
}

/// The control fields: name, version, architecture, section, priority, description and homepage
/// as Cargo.toml says, and a Depends that covers every shared library the binary loads.
#[test]
#[ignore = "builds a release .deb (minutes): CI runs it as a step of its own (TESTING.md)"]
fn package_fields_come_from_cargo_toml_and_the_binary() {
    let Some(deb) = package() else { return };
    let control = text(Command::new("dpkg-deb").arg("-f").arg(deb));
    let fields = control_fields(&control);
    let metadata: Value = serde_json::from_str(&text(
        cargo()
            .args([
                "metadata",
                "--no-deps",
                "--format-version",
                "1",
                "--offline",
            ])
            .current_dir(root()),
    ))
    .expect("cargo metadata is JSON");
    // The workspace's packages: the one packaged is safe-ad (the emulator is a crate in it).
    let crate_ = metadata["packages"]
        .as_array()
        .and_then(|packages| packages.iter().find(|package| package["name"] == "safe-ad"))
        .expect("safe-ad in cargo metadata");
    let field = |name: &str| fields.get(name).map(String::as_str);
    assert_eq!(field("Package"), Some("safe-ad"), "{control}");
    assert_eq!(
        field("Version"),
        Some(format!("{VERSION}-1").as_str()),
        "{control}"
    );
    let arch = text(Command::new("dpkg").arg("--print-architecture"));
    assert_eq!(field("Architecture"), Some(arch.trim()), "{control}");
    assert_eq!(
        field("Section"),
        crate_["metadata"]["deb"]["section"].as_str()
    );
    assert_eq!(
        field("Priority"),
        crate_["metadata"]["deb"]["priority"].as_str()
    );
    assert!(
        field("Maintainer").is_some_and(|m| !m.is_empty()),
        "{control}"
    );
    let description = field("Description").expect("Description");
    let (synopsis, long) = description.split_once('\n').expect("a long description");
    assert_eq!(Some(synopsis), crate_["description"].as_str());
    assert!(synopsis.len() <= 80, "the synopsis is over 80 characters");
    assert!(long.contains("safe-ad emulator"), "{description}");
    // cargo-deb takes the homepage, else the repository; with neither there is no field.
    let homepage = crate_["homepage"]
        .as_str()
        .or(crate_["repository"].as_str());
    assert_eq!(field("Homepage"), homepage, "{control}");

    let depends = field("Depends").expect("Depends");
    let root = unpack(deb);
    for library in shared_libraries(&root.path().join("usr/bin/safe-ad")) {
        let owner = text(Command::new("dpkg").arg("-S").arg(&library));
        let package = owner
            .split(':')
            .next()
            .expect("dpkg -S names a package")
            .to_owned();
        // cargo-deb leaves libgcc out on purpose; Debian marks it Protected: it is always there.
        let always_there =
            text(Command::new("dpkg-query").args(["-W", "-f=${Essential} ${Protected}", &package]))
                .contains("yes");
        assert!(
            always_there
                || depends
                    .split(", ")
                    .any(|dep| dep.starts_with(&format!("{package} "))),
            "the binary loads {library} from {package}, which Depends ({depends}) lacks"
        );
    }
    for dep in depends.split(", ") {
        let (package, version) = dep.split_once(" (>= ").expect("a versioned dependency");
        let installed = text(Command::new("dpkg-query").args(["-W", "-f=${Version}", package]));
        let satisfied = Command::new("dpkg")
            .args(["--compare-versions", &installed])
            .args(["ge", version.trim_end_matches(')')])
            .status()
            .expect("dpkg runs")
            .success();
        assert!(
            satisfied,
            "{dep} is not met by this system's {package} {installed}"
        );
    }
}

/// `Key: value` fields of a control file, continuation lines joined with newlines.
fn control_fields(control: &str) -> BTreeMap<String, String> {
    let mut fields = BTreeMap::new();
    let mut last: Option<String> = None;
    for line in control.lines() {
        if let Some(more) = line.strip_prefix(' ') {
            let key = last.as_ref().expect("a continuation follows a field");
            let value: &mut String = fields.get_mut(key).expect("the field");
            value.push('\n');
            value.push_str(more);
        } else if let Some((key, value)) = line.split_once(": ") {
            fields.insert(key.to_owned(), value.to_owned());
            last = Some(key.to_owned());
        }
    }
    fields
}

/// The files of the shared libraries a binary loads, as `ldd` finds them.
fn shared_libraries(binary: &Path) -> Vec<String> {
    text(Command::new("ldd").arg(binary))
        .lines()
        .filter_map(|line| line.split_once(" => "))
        .filter_map(|(_, path)| path.split_whitespace().next())
        .map(String::from)
        .collect()
}

/// The unpacked binary prints its version, runs one operation against its own emulator, and
/// prints the completions the package ships; the packaged man pages and completions are the
/// committed ones.
#[test]
#[ignore = "builds a release .deb (minutes): CI runs it as a step of its own (TESTING.md)"]
fn unpacked_binary_runs_against_an_emulator() {
    let Some(deb) = package() else { return };
    let unpacked = unpack(deb);
    let usr = unpacked.path().join("usr");
    let sandbox = Sandbox::new();
    let path = format!("{}:/usr/bin:/bin", usr.join("bin").display());
    sandbox
        .shell("sh", "safe-ad --version")
        .env("PATH", &path)
        .run()
        .success()
        .stdout_is(&format!("safe-ad {VERSION}\n"));
    sandbox
        .shell("sh", "safe-ad emulator -- safe-ad put 0")
        .env("PATH", &path)
        .run()
        .success()
        .stdout_is("put 0: ok, saved version 0\n");
    for (committed, installed) in COMPLETIONS {
        let shipped = std::fs::read_to_string(unpacked.path().join(installed)).expect(installed);
        let repo = std::fs::read_to_string(root().join(committed)).expect(committed);
        assert!(shipped == repo, "{installed} is not {committed}");
    }
    let shipped_bash =
        std::fs::read_to_string(unpacked.path().join(COMPLETIONS[0].1)).expect("bash");
    sandbox
        .shell("sh", "safe-ad completions bash")
        .env("PATH", &path)
        .run()
        .success()
        .stdout_is(&shipped_bash);
    for page in man_pages() {
        let shipped = text(
            Command::new("gzip")
                .arg("-dc")
                .arg(usr.join("share/man/man1").join(format!("{page}.gz"))),
        );
        let repo = std::fs::read_to_string(root().join("man").join(&page)).expect("page");
        assert!(shipped == repo, "the packaged {page} is not man/{page}");
    }
}

/// Every packaged page renders with `man -l` and no warning, and `man safe-ad` finds the pages
/// where the package puts them.
#[test]
#[ignore = "builds a release .deb (minutes): CI runs it as a step of its own (TESTING.md)"]
fn unpacked_man_pages_render() {
    let Some(deb) = package() else { return };
    if !have("man") {
        return;
    }
    let unpacked = unpack(deb);
    let man1 = unpacked.path().join("usr/share/man/man1");
    for page in man_pages() {
        let text = render(&man1.join(format!("{page}.gz")));
        assert!(text.contains("SYNOPSIS"), "{page}:\n{text}");
    }
    for (name, title) in [
        ("safe-ad", "SAFE-AD(1)"),
        ("safe-ad-config-set", "SAFE-AD-CONFIG-SET(1)"),
    ] {
        Sandbox::new()
            .shell("sh", &format!("exec man {name}"))
            .env("MANPATH", unpacked.path().join("usr/share/man"))
            .env("MANWIDTH", "100")
            .run()
            .success()
            .stdout_has(title);
    }
}

/// bash (through bash-completion's loader), zsh (through its fpath) and fish (through its vendor
/// directories) find the packaged completions by themselves and complete what the committed
/// ones complete, asked and typed.
#[test]
#[ignore = "builds a release .deb (minutes): CI runs it as a step of its own (TESTING.md)"]
fn unpacked_completions_work_in_each_shell() {
    let Some(deb) = package() else { return };
    let unpacked = unpack(deb);
    let found = Found::Installed(unpacked.path());
    for sh in Sh::ALL {
        if !have(sh.program()) {
            continue;
        }
        if matches!(sh, Sh::Bash) && !have_bash_completion() {
            continue;
        }
        check_cases(sh, found);
        if have("tmux") {
            check_typed(sh, found);
        }
    }
}
