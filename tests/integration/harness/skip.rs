//! The one way a test may end without checking what it names: [`skip`], which fails under CI.
//!
//! A test that needs a program from outside Rust (a shell, `man`, `curl`, `cargo deb`) asks
//! [`have`]; where it is missing the test is skipped with a line on the test run's stderr, shown
//! even for a test that passes. Under CI (`CI` set to anything but empty, as `.ci/run` sets it)
//! a skip fails the test instead: CI installs everything the tests need, so there a skip would
//! hide a missing install step. Opt-in suites are `#[ignore = "reason"]`, not skips.

use std::path::Path;

/// Whether this run is CI's: `CI` is set and not empty (`.ci/run` sets `CI=true`).
pub fn under_ci() -> bool {
    std::env::var_os("CI").is_some_and(|value| !value.is_empty())
}

/// Says that this test cannot run here, and why; the caller then returns. Under CI
/// ([`under_ci`]) it fails the test instead.
#[track_caller]
pub fn skip(reason: &str) {
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    assert!(
        !under_ci(),
        "{test} cannot run here: {reason}; under CI every test must run (.ci/run installs what \
         the tests need)"
    );
    note(&format!(
        "SKIPPED {test}: {reason} (it passes without checking anything; with CI=true it fails)"
    ));
}

/// A line on the test run's own stderr, shown even for a test that passes (the test harness
/// captures only what the print macros write).
pub fn note(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// Whether `program` is installed where the tests look for it (`/usr/bin`, `/bin`: the PATH
/// they run shells with); without it, the test is skipped (see [`skip`]).
#[track_caller]
pub fn have(program: &str) -> bool {
    let found = ["/usr/bin", "/bin"]
        .iter()
        .any(|dir| Path::new(dir).join(program).is_file());
    if !found {
        skip(&format!("`{program}` is not installed"));
    }
    found
}

/// Whether bash-completion's loader is installed; skips (see [`skip`]) if not.
#[track_caller]
pub fn have_bash_completion() -> bool {
    let found = Path::new("/usr/share/bash-completion/bash_completion").is_file();
    if !found {
        skip("bash-completion is not installed");
    }
    found
}
