//! The completions loaded into real bash, zsh and fish, which are asked what completes.
//!
//! Each shell is asked through its own completion machinery. bash: the function that
//! `complete -p safe-ad` names is called with the `COMP_*` variables set for the line, as
//! readline calls it on TAB (and through bash-completion's loader for an installed file). zsh: an
//! interactive `zsh` runs in a pseudo-terminal (zsh's own zpty module), the line and a TAB are
//! typed into it, and every match its completion system adds is recorded (`compadd` wrapped).
//! fish: `complete -C LINE`, fish's own answer to "what completes here". What should complete
//! comes from the clap definition (subcommands, value enums, the config keys), not from lists
//! typed here. On top of that, one test per shell types into the interactive shell under tmux and
//! reads the screen.
//!
//! The same checks run after README's install steps for one user ([`Found::Home`]), and on the
//! files as the Debian package installs them, found by the shells' own lookup (`package.rs`,
//! [`Found::Installed`]).
//!
//! A shell that is not installed skips its test through the harness's `skip`, which fails under
//! CI (`CI` set), where `.ci/run` installs them all.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::harness::{
    doc_section, have, have_bash_completion, poll, repo_root, safe_ad_bin, Sandbox, DEADLINE,
};

mod cases;

use cases::{cases, Expect, PLANTED};

/// Where a shell finds safe-ad's completions.
#[derive(Clone, Copy)]
pub enum Found<'a> {
    /// The committed files, loaded as README says for `cargo install`: bash sources
    /// `completions/safe-ad.bash`, zsh has `completions/` on its `fpath`, fish sources
    /// `completions/safe-ad.fish`. This build's `safe-ad` is on PATH.
    Committed,
    /// A tree laid out as the Debian package installs it (`<root>/usr/share/...`, the binary in
    /// `<root>/usr/bin`), found the way an installed package is: bash through bash-completion's
    /// loader and fish through `XDG_DATA_DIRS`, zsh through its `fpath`.
    Installed(&'a Path),
    /// A home directory where README's steps for one user put them (the binary in
    /// `~/.cargo/bin`, as `cargo install` does), found by bash-completion's loader, zsh with
    /// README's lines for `~/.zshrc`, and fish's own directory.
    Home(&'a Path),
}

/// zsh's completion system started, with no dump file left behind.
const COMPINIT: &str = "autoload -U compinit && compinit -u -D";

/// The lines README tells zsh users to put in `~/.zshrc`: its ```` ```zsh ```` block in the
/// completions section.
fn readme_zshrc() -> String {
    let section = doc_section("docs/install.md", "Completions and man page");
    let block = section
        .split("```zsh\n")
        .nth(1)
        .and_then(|rest| rest.split_once("```"))
        .map(|(block, _)| block.to_owned())
        .expect("README's completions section has a ```zsh block for ~/.zshrc");
    assert!(
        block.contains("compinit"),
        "README's ~/.zshrc lines do not start zsh's completion system:\n{block}"
    );
    block
}

/// The three shells the completions are tested in.
#[derive(Clone, Copy, Debug)]
pub enum Sh {
    Bash,
    Zsh,
    Fish,
}

impl Sh {
    pub const ALL: [Sh; 3] = [Sh::Bash, Sh::Zsh, Sh::Fish];

    pub fn program(self) -> &'static str {
        match self {
            Sh::Bash => "bash",
            Sh::Zsh => "zsh",
            Sh::Fish => "fish",
        }
    }
}

/// Asks `sh` what completes for every case, and checks each answer.
#[track_caller]
pub fn check_cases(sh: Sh, found: Found) {
    // The scripts ask the binary on PATH: the package's is the default build, the others this
    // build.
    let cases = cases(matches!(found, Found::Installed(_)));
    let lines: Vec<&str> = cases.iter().map(|case| case.line.as_str()).collect();
    let answers = ask(sh, found, &lines);
    let mut wrong = Vec::new();
    for (case, got) in cases.iter().zip(&answers) {
        let mut got = got.clone();
        got.sort();
        got.dedup();
        let planted = |got: &[String]| {
            got.iter()
                .any(|candidate| PLANTED.iter().any(|file| candidate.ends_with(file)))
        };
        let sorted = |words: &[String]| {
            let mut words = words.to_vec();
            words.sort();
            words.dedup();
            words
        };
        let right = match &case.expect {
            Expect::Exactly(words) => got == sorted(words),
            Expect::Words(words) => {
                let not_options: Vec<String> = got
                    .iter()
                    .filter(|c| !c.starts_with('-'))
                    .cloned()
                    .collect();
                not_options == sorted(words)
            }
            Expect::Nothing => got.is_empty(),
            Expect::Files => planted(&got),
            Expect::Commands(words) => {
                !planted(&got) && words.iter().all(|word| got.contains(word))
            }
        };
        if !right {
            wrong.push(format!(
                "{:?} then TAB: expected {:?}, got {got:?}",
                case.line, case.expect
            ));
        }
    }
    assert!(wrong.is_empty(), "{sh:?}:\n{}", wrong.join("\n"));
}

/// What `sh` completes after each of `lines`, one list per line.
#[track_caller]
pub fn ask(sh: Sh, found: Found, lines: &[&str]) -> Vec<Vec<String>> {
    let sandbox = Sandbox::new();
    let setup = Setup::new(sh, found, &sandbox);
    let command = match sh {
        Sh::Bash => setup.run(&sandbox, &format!("{}\n{BASH_ASK}", setup.load), lines),
        Sh::Zsh => {
            let init = sandbox.file("init.zsh", format!("{}\n{ZSH_CAPTURE}", setup.load));
            setup
                .run(&sandbox, ZSH_ASK, lines)
                .env("SAFE_AD_ZSH_INIT", init)
                .env("SAFE_AD_CAPTURE", sandbox.path().join("matches"))
        }
        Sh::Fish => setup.run(&sandbox, &format!("{}\n{FISH_ASK}", setup.load), lines),
    };
    let output = command.env("SAFE_AD_WORK", planted_dir(&sandbox)).run();
    parse(output.success().stdout(), lines, found)
}

/// A directory in `sandbox` holding the [`PLANTED`] files, where the shells complete.
pub fn planted_dir(sandbox: &Sandbox) -> PathBuf {
    let dir = sandbox.path().join("work");
    std::fs::create_dir_all(&dir).expect("work dir");
    for file in PLANTED {
        std::fs::write(dir.join(file), "").expect("planted file");
    }
    dir
}

/// The answers of a driver: `<<LINE>>` before each line's candidates, one a line (fish adds a
/// tab and a description). bash also says, `@from FILE`, where the function it called is from.
#[track_caller]
fn parse(stdout: &str, lines: &[&str], found: Found) -> Vec<Vec<String>> {
    let mut answers: Vec<Vec<String>> = Vec::new();
    for line in stdout.lines() {
        if let Some(typed) = line.strip_prefix("<<").and_then(|l| l.strip_suffix(">>")) {
            assert_eq!(
                typed,
                lines[answers.len()],
                "answers out of order:\n{stdout}"
            );
            answers.push(Vec::new());
        } else if let Some(file) = line.strip_prefix("@from ") {
            if let Found::Installed(root) | Found::Home(root) = found {
                assert!(
                    file.starts_with(&root.display().to_string()),
                    "bash loaded the completions from {file}, not from {}",
                    root.display()
                );
            }
        } else if !line.is_empty() {
            let candidate = line.split('\t').next().unwrap_or(line);
            answers
                .last_mut()
                .unwrap_or_else(|| panic!("output before the first line:\n{stdout}"))
                .push(candidate.to_owned());
        }
    }
    assert_eq!(
        answers.len(),
        lines.len(),
        "not every line answered:\n{stdout}"
    );
    answers
}

/// How one shell loads the completions: shell code to run first, with the paths in env vars.
struct Setup {
    sh: Sh,
    load: String,
    env: Vec<(&'static str, OsString)>,
}

impl Setup {
    fn new(sh: Sh, found: Found, sandbox: &Sandbox) -> Setup {
        let repo = repo_root();
        let mut env: Vec<(&'static str, OsString)> =
            vec![("TERM", "xterm".into()), ("ZDOTDIR", sandbox.path().into())];
        let (bin_dir, load) = match found {
            Found::Committed => {
                let file = match sh {
                    Sh::Bash => "completions/safe-ad.bash",
                    Sh::Zsh => "completions",
                    Sh::Fish => "completions/safe-ad.fish",
                };
                env.push(("SAFE_AD_COMPLETIONS", repo.join(file).into()));
                let load = match sh {
                    Sh::Bash => "source \"$SAFE_AD_COMPLETIONS\"".to_owned(),
                    Sh::Zsh => format!("fpath=(\"$SAFE_AD_COMPLETIONS\" $fpath)\n{COMPINIT}"),
                    // An empty lookup path: only the sourced file, even where a package put one.
                    Sh::Fish => "set -g fish_complete_path\nsource $SAFE_AD_COMPLETIONS".to_owned(),
                };
                (safe_ad_bin().parent().expect("bin dir").to_path_buf(), load)
            }
            Found::Installed(root) => {
                let dir = match sh {
                    Sh::Zsh => root.join("usr/share/zsh/vendor-completions"),
                    Sh::Bash | Sh::Fish => root.join("usr/share"),
                };
                env.push(("SAFE_AD_COMPLETIONS", dir.clone().into()));
                if let Sh::Fish = sh {
                    env.push(("XDG_DATA_DIRS", dir.into()));
                }
                let load = match sh {
                    Sh::Bash => "export XDG_DATA_DIRS=\"$SAFE_AD_COMPLETIONS\"\n\
                                 source /usr/share/bash-completion/bash_completion"
                        .to_owned(),
                    Sh::Zsh => format!("fpath=(\"$SAFE_AD_COMPLETIONS\" $fpath)\n{COMPINIT}"),
                    // fish looks in $XDG_DATA_DIRS/fish/vendor_completions.d by itself.
                    Sh::Fish => String::new(),
                };
                (root.join("usr/bin"), load)
            }
            Found::Home(home) => {
                env.push(("HOME", home.into()));
                let load = match sh {
                    // bash-completion looks in ~/.local/share/bash-completion/completions.
                    Sh::Bash => "source /usr/share/bash-completion/bash_completion".to_owned(),
                    Sh::Zsh => readme_zshrc(),
                    // fish looks in ~/.config/fish/completions by itself.
                    Sh::Fish => String::new(),
                };
                (home.join(".cargo/bin"), load)
            }
        };
        env.push((
            "PATH",
            format!("{}:/usr/bin:/bin", bin_dir.display()).into(),
        ));
        Setup { sh, load, env }
    }

    /// `script` in this shell, with `lines` as its arguments.
    fn run(&self, sandbox: &Sandbox, script: &str, lines: &[&str]) -> crate::harness::SafeAd {
        let mut command = sandbox.shell(self.sh.program(), script);
        if matches!(self.sh, Sh::Bash | Sh::Zsh) {
            command = command.arg(self.sh.program()); // $0
        }
        for (name, value) in &self.env {
            command = command.env(name, value);
        }
        command.args(lines)
    }
}

/// bash: each argument is a line; the completion function is the one `complete -p` names, or
/// the default one (bash-completion's loader), retried on 124 as readline does. When it offers
/// nothing and the completion was registered with `-o default` or `-o bashdefault`, readline
/// offers file names: so does this.
const BASH_ASK: &str = r#"
cd "$SAFE_AD_WORK" || exit 3
shopt -s extdebug  # `declare -F` then says which file a function came from
for line in "$@"; do
    read -ra COMP_WORDS <<< "$line"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_LINE=$line; COMP_POINT=${#line}
    cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
    COMPREPLY=()
    for attempt in 1 2; do
        spec=$(complete -p "${COMP_WORDS[0]}" 2>/dev/null || complete -p -D 2>/dev/null)
        fn=$(sed -n 's/.* -F \([^ ]*\).*/\1/p' <<< "$spec")
        [[ -n $fn ]] || { echo "no completion for ${COMP_WORDS[0]}" >&2; exit 3; }
        "$fn" "${COMP_WORDS[0]}" "$cur" "$prev"
        [[ $? == 124 ]] || break
    done
    if [[ ${#COMPREPLY[@]} -eq 0 && $spec == *"-o "*default* ]]; then
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
    printf '<<%s>>\n' "$line"
    printf '@from %s\n' "$(declare -F "$fn" | cut -d' ' -f3-)"
    printf '%s\n' "${COMPREPLY[@]}"
done
"#;

/// zsh: an interactive zsh in a pseudo-terminal sources the init file (the completions and
/// the capture below); for each line, it gets the line and a TAB typed, and the line killed
/// once its completion has run. Reads wait for the zsh's own marker; the harness's deadline bounds them.
const ZSH_ASK: &str = r#"
cd $SAFE_AD_WORK || exit 3
zmodload zsh/zpty || { print -u2 "zsh has no zpty module"; exit 3 }
zpty safead zsh -f -i
zpty -w safead "source ${(q)SAFE_AD_ZSH_INIT}"
zpty -r safead out '*<<ready>>*' || { print -u2 "zsh never got ready: $out"; exit 4 }
for line in "$@"; do
    : > $SAFE_AD_CAPTURE
    zpty -w -n safead "$line"$'\t'
    zpty -r safead out '*<<completed>>*' || { print -u2 "no completion for $line: $out"; exit 4 }
    print -r -- "<<$line>>"
    cat $SAFE_AD_CAPTURE
    # Ctrl-U kills the line, for the next.
    zpty -w -n safead $'\C-u'
done
zpty -d safead
"#;

/// Sourced by the zsh under test: every match the completion system is given for the line is
/// written to `$SAFE_AD_CAPTURE` (compadd's own matching on the typed prefix, through `-O`), then
/// added as usual; after the completion a marker goes to the terminal.
const ZSH_CAPTURE: &str = r#"
PS1=''
bindkey '^I' complete-word
compadd() {
    # A caller that collects the matches itself (-O, -A, -D) adds nothing: pass it through.
    if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
        builtin compadd "$@"
        return
    fi
    local -a __safe_ad_matches
    builtin compadd -O __safe_ad_matches "$@"
    (( $#__safe_ad_matches )) && print -rl -- $__safe_ad_matches >> $SAFE_AD_CAPTURE
    builtin compadd "$@"
}
__safe_ad_completed() {
    # Nothing listed or inserted: the line is killed next. zsh empties comppostfuncs after each
    # completion, so this puts itself back for the next line.
    compstate[list]=''
    compstate[insert]=''
    comppostfuncs+=(__safe_ad_completed)
    print -r -- '<<completed>>'
}
comppostfuncs=(__safe_ad_completed)
print -r -- '<<ready>>'
"#;

/// fish: `complete -C` for each argument.
const FISH_ASK: &str = r#"
cd $SAFE_AD_WORK; or exit 3
for line in $argv
    echo "<<$line>>"
    complete -C $line
end
"#;

/// An interactive shell in tmux, typed into as a person would: the session is killed when
/// dropped.
pub struct Typed {
    socket: PathBuf,
    _sandbox: Sandbox,
}

impl Typed {
    /// Starts `sh` interactively, in a directory holding the [`PLANTED`] files, with the
    /// completions loaded as `found` says and a prompt of `ready> `, and waits for the prompt.
    #[track_caller]
    pub fn start(sh: Sh, found: Found) -> Typed {
        let sandbox = Sandbox::new();
        let setup = Setup::new(sh, found, &sandbox);
        let work = planted_dir(&sandbox);
        let program = match sh {
            Sh::Bash => {
                let rc = sandbox.file("bashrc", format!("{}\nPS1='ready> '\n", setup.load));
                format!("bash --noprofile --rcfile {} -i", rc.display())
            }
            Sh::Zsh => {
                sandbox.file(".zshrc", format!("{}\nPS1='ready> '\n", setup.load));
                "zsh -i".to_owned()
            }
            Sh::Fish => {
                let init = sandbox.file(
                    "init.fish",
                    format!(
                        "{}\nset -g fish_greeting\nfunction fish_prompt; echo -n 'ready> '; end\n",
                        setup.load
                    ),
                );
                format!("fish -C 'source {}'", init.display())
            }
        };
        let typed = Typed {
            socket: sandbox.path().join("tmux.socket"),
            _sandbox: sandbox,
        };
        let mut command = typed.tmux();
        command.args(["new-session", "-d", "-x", "150", "-y", "40", "-c"]);
        command.arg(&work).arg(&program);
        for (name, value) in &setup.env {
            command.env(name, value);
        }
        let status = command.status().expect("tmux runs");
        assert!(status.success(), "tmux new-session: {program}");
        // capture-pane drops trailing blanks, so the prompt shows as `ready>`.
        typed.wait_for("ready>");
        typed
    }

    /// tmux on this session's own server, with an empty environment but HOME.
    fn tmux(&self) -> Command {
        let mut command = crate::harness::with_default_stop_signals("tmux");
        command
            .env_clear()
            .env("HOME", self._sandbox.path())
            .env("PATH", "/usr/bin:/bin")
            .arg("-S")
            .arg(&self.socket)
            .args(["-f", "/dev/null"]);
        command
    }

    /// Types keys (`Tab` is a key name; other words are typed as they are).
    pub fn keys(&self, keys: &[&str]) {
        let status = self
            .tmux()
            .arg("send-keys")
            .args(keys)
            .status()
            .expect("tmux send-keys");
        assert!(status.success(), "tmux send-keys {keys:?}");
    }

    /// What the screen shows now.
    pub fn screen(&self) -> String {
        let output = self
            .tmux()
            .args(["capture-pane", "-p"])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Waits until the screen shows `text`; fails with the screen after the deadline.
    #[track_caller]
    pub fn wait_for(&self, text: &str) -> String {
        poll(DEADLINE, || {
            Some(self.screen()).filter(|screen| screen.contains(text))
        })
        .unwrap_or_else(|| {
            panic!(
                "the screen never showed {text:?} within {DEADLINE:?}:\n{}",
                self.screen()
            )
        })
    }
}

impl Drop for Typed {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").status();
    }
}

/// Types `safe-ad clear-data --sa` and TAB into `sh` and waits for `--save` on the line; then,
/// in a fresh shell, `safe-ad put --launcher-url `, TAB twice (bash lists candidates on the
/// second) and `x`, and once `--launcher-url x` shows (so both TABs were handled), no file name
/// is on the screen.
#[track_caller]
pub fn check_typed(sh: Sh, found: Found) {
    let shell = Typed::start(sh, found);
    shell.keys(&["safe-ad clear-data --sa", "Tab"]);
    shell.wait_for("ready> safe-ad clear-data --save");

    let shell = Typed::start(sh, found);
    shell.keys(&["safe-ad put --launcher-url ", "Tab", "Tab", "x"]);
    let screen = shell.wait_for("ready> safe-ad put --launcher-url x");
    assert!(
        !PLANTED.iter().any(|file| screen.contains(file)),
        "{sh:?} offered file names for --launcher-url:\n{screen}"
    );
}

/// The scripts ask `safe-ad __complete`, which answers from the definition alone: with a config
/// file that does not parse, a token file that would never finish reading (a FIFO nobody
/// writes) and a launcher that does not listen, it answers at once and sends nothing.
#[test]
fn completing_reads_no_config_or_token_and_sends_nothing() {
    let sandbox = Sandbox::new();
    sandbox.write_config("{ not a config");
    let fifo = sandbox.named_fifo("token");
    let fifo = fifo.to_str().expect("a UTF-8 sandbox path");
    let line = [
        "--token-file",
        fifo,
        "--launcher-url",
        "http://127.0.0.1:9",
        "put",
        "--col",
    ];
    let output = sandbox
        .safe_ad()
        .args(["__complete", "--"])
        .args(line)
        .run();
    let answer = output.success().stdout();
    assert!(answer.starts_with("words\n--color\t"), "{answer}");
    assert_eq!(answer.lines().count(), 2, "{answer}");
}

#[test]
fn bash_completes_subcommands_options_and_values() {
    if have("bash") {
        check_cases(Sh::Bash, Found::Committed);
    }
}

#[test]
fn zsh_completes_subcommands_options_and_values() {
    if have("zsh") {
        check_cases(Sh::Zsh, Found::Committed);
    }
}

#[test]
fn fish_completes_subcommands_options_and_values() {
    if have("fish") {
        check_cases(Sh::Fish, Found::Committed);
    }
}

#[test]
fn completing_by_typing_tab_in_each_shell() {
    if !have("tmux") {
        return;
    }
    for sh in Sh::ALL {
        if have(sh.program()) {
            check_typed(sh, Found::Committed);
        }
    }
}

/// README's steps for a `cargo install` user, run as written in a home of their own: after the
/// install block, every man page is there as committed (`safe-ad man` wrote them), `man safe-ad`
/// and `man safe-ad-auth-status` find theirs, and each shell completes from where the steps put
/// the files; after the uninstall block, every file the install made is gone.
#[test]
fn readme_steps_install_and_uninstall_for_one_user() {
    let repo = repo_root();
    let section = doc_section("docs/install.md", "Completions and man page");
    let blocks: Vec<&str> = section
        .split("```sh\n")
        .skip(1)
        .filter_map(|block| block.split_once("```").map(|(code, _)| code))
        .collect();
    let [install, uninstall] = blocks[..] else {
        panic!("README's Completions section should hold two sh blocks, install and uninstall");
    };
    readme_zshrc();

    let home = Sandbox::new();
    let bin = home.path().join(".cargo/bin");
    std::fs::create_dir_all(&bin).expect("~/.cargo/bin");
    std::os::unix::fs::symlink(safe_ad_bin(), bin.join("safe-ad")).expect("as cargo install");
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let run = |script: &str| {
        home.shell("sh", &format!("set -e\ncd \"$SAFE_AD_REPO\"\n{script}"))
            .env("SAFE_AD_REPO", repo)
            .env("PATH", &path)
            .run()
            .success()
            .stderr_is("");
    };
    let before = files_under(home.path());
    run(install);
    let installed: Vec<PathBuf> = files_under(home.path())
        .into_iter()
        .filter(|file| !before.contains(file))
        .collect();
    assert!(installed.len() > 4, "the install made {installed:?}");

    // The committed pages are the default build's, with the emulator's.
    if cfg!(feature = "emulator") {
        let pages = home.path().join(".cargo/share/man/man1");
        for entry in std::fs::read_dir(repo.join("man")).expect("man/") {
            let name = entry.expect("entry").file_name();
            let committed = std::fs::read(repo.join("man").join(&name)).expect("committed");
            let written = std::fs::read(pages.join(&name)).unwrap_or_default();
            assert!(
                written == committed,
                "the install wrote {name:?} unlike man/"
            );
        }
    }
    if have("man") {
        for (page, title) in [
            ("safe-ad", "SAFE-AD(1)"),
            ("safe-ad-auth-status", "SAFE-AD-AUTH-STATUS(1)"),
        ] {
            home.shell("sh", &format!("exec man {page}"))
                .env("PATH", &path)
                .env("MANWIDTH", "100")
                .run()
                .success()
                .stdout_has(title);
        }
    }
    for sh in Sh::ALL {
        if !have(sh.program()) {
            continue;
        }
        if matches!(sh, Sh::Bash) && !have_bash_completion() {
            continue;
        }
        check_cases(sh, Found::Home(home.path()));
    }

    run(uninstall);
    let left: Vec<&PathBuf> = installed.iter().filter(|file| file.exists()).collect();
    assert!(left.is_empty(), "README's uninstall left {left:?}");
}

/// Every file below `dir`, at any depth.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() && !path.is_symlink() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}
