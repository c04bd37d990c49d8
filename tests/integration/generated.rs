//! The committed completions and man page match the clap definition, and every place that lists
//! exit codes lists the same ones as `outcome::EXIT_CODES`.
//!
//! To refresh the generated files after changing `src/cli.rs`:
//!     SAFE_AD_REGENERATE=1 cargo test --test integration generated::

use std::path::Path;

use crate::harness::SafeAd;
use safe_ad::outcome::EXIT_CODES;

const REFRESH: &str = "SAFE_AD_REGENERATE=1 cargo test --test integration generated::";

#[test]
fn completions_and_man_page_are_up_to_date() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let regenerate = std::env::var_os("SAFE_AD_REGENERATE").is_some();
    let mut stale = Vec::new();
    for (relative, expected) in safe_ad::generate::generated_files() {
        let path = root.join(relative);
        if regenerate {
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, &expected).expect("write");
            continue;
        }
        if std::fs::read(&path).ok().as_deref() != Some(expected.as_slice()) {
            stale.push(relative);
        }
    }
    assert!(
        stale.is_empty(),
        "generated files are out of date: {stale:?}\nrefresh them with: {REFRESH}"
    );
}

#[test]
fn completions_command_prints_the_committed_file() {
    if std::env::var_os("SAFE_AD_REGENERATE").is_some() {
        return; // the files are being rewritten by the test above
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (shell, file) in [
        ("bash", "completions/safe-ad.bash"),
        ("zsh", "completions/_safe-ad"),
        ("fish", "completions/safe-ad.fish"),
        ("elvish", "completions/safe-ad.elv"),
        ("powershell", "completions/_safe-ad.ps1"),
    ] {
        let expected = std::fs::read_to_string(root.join(file)).expect("committed completion file");
        SafeAd::new()
            .args(["completions", shell])
            .run()
            .success()
            .stdout_is(&expected);
    }
}

#[test]
fn every_exit_code_is_documented_in_help_man_page_and_readme() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let help = SafeAd::new().arg("--help").run();
    // clap wraps help to the terminal width, so compare with white space folded.
    let fold = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let help = fold(help.success().stdout());
    let man = std::fs::read_to_string(root.join("man/safe-ad.1")).expect("man page");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    for row in EXIT_CODES {
        assert!(
            help.contains(&fold(&format!("{} {}", row.code, row.meaning))),
            "--help lacks exit code {}",
            row.code
        );
        assert!(
            man.contains(&format!(".TP\n\\fB{}\\fR\n", row.code)),
            "man page lacks exit code {}",
            row.code
        );
        assert!(
            readme.contains(&format!("| {} | `{}` |", row.code, row.name)),
            "README's exit-code table lacks `| {} | `{}` |`",
            row.code,
            row.name
        );
    }
    for section in ["EXIT STATUS", "ENVIRONMENT", "FILES"] {
        assert!(
            man.contains(&format!(".SH {section}")) || man.contains(&format!(".SH \"{section}\"")),
            "man page lacks {section}"
        );
    }
}
