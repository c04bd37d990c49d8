//! Output that could not be written is never exit 0: every command of `cli::COMMANDS` (its spec's
//! sample, against a background emulator of its own) with stdout on `/dev/full` exits 1 and says
//! why on stderr, but the few that print nothing on success; with stdout on /dev/null opened for
//! reading and writing (`1<>/dev/null`, as Python's `subprocess.DEVNULL` and Node's `'ignore'`
//! give it, and as Rust's runtime puts in place of a stdout closed with `>&-`) it exits as it
//! would, its output thrown away as its caller asked. A
//! write past the file-size limit (`ulimit -f`) is the write error it is: `capture -o` and
//! `emulator export` exit 1, the old file as it was and no temporary file left beside it, where
//! SIGXFSZ's default action killed them (exit 153) half-way through the new file.

use safe_ad::test_support::cli::{Reaches, COMMANDS};

use crate::harness::emulator::Emulator;
use crate::harness::leftovers::{variables, CiJob};
use crate::harness::{have, reads_any_file, set_mode, skip, Sandbox};

/// The commands that print nothing on stdout when they succeed, so that a stdout nobody can
/// write to loses nothing: `config set` and `config unset` (they write the config file and say
/// so on stderr), `auth login` and `auth logout` (on stderr too), and `emulator -- COMMAND`
/// (COMMAND's output is its own, written to the stdout it inherits; the emulator passes its exit
/// code through).
const PRINT_NOTHING: [&str; 5] = [
    "config set",
    "config unset",
    "auth login",
    "auth logout",
    "emulator",
];

/// Where a spec's sample is one the demo refuses (exit 4: `open` of a name not on the network,
/// `put` of data already there), a whole invocation it does not; and `emulator env` without
/// `--pid 1` (never a background emulator): the one started for the run is the only one.
fn invocation(path: &str, sample: &'static [&'static str]) -> &'static [&'static str] {
    match path {
        "open" => &["c2FmZS1hZCBkZW1vOiBzYXZlZC4uLi4uLi4uLi4uLi4="],
        "put" => &["0"],
        "emulator env" => &[],
        _ => sample,
    }
}

/// A background emulator started in `job`: its URL and token.
fn background(job: &CiJob) -> (String, String) {
    let variables = variables(job.background(&[]).stdout());
    let value = |name: &str| variables.get(name).cloned().expect(name);
    (value("SAFE_LAUNCHER_URL"), value("SAFE_LAUNCHER_TOKEN"))
}

/// `word` quoted for sh.
fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

#[test]
fn every_command_with_stdout_on_dev_full_says_so_and_never_exits_0() {
    let mut wrong = Vec::new();
    for spec in COMMANDS
        .iter()
        .filter(|spec| spec.reaches != Reaches::Group)
    {
        let mut words: Vec<&str> = spec.path.split(' ').collect();
        words.extend(invocation(spec.path, spec.sample));
        let line = words.iter().map(|word| quoted(word)).collect::<Vec<_>>();
        // `Some(says)`: the write fails, which it says; `None`: the output is thrown away on
        // purpose, and the command exits 0.
        for (case, redirect, says) in [
            (
                "stdout on /dev/full",
                "> /dev/full",
                Some("No space left on device"),
            ),
            ("stdout on /dev/null, read-write", "1<>/dev/null", None),
        ] {
            // A fresh emulator for each run: a sample may change what the next one finds
            // (`drop 1`).
            let job = CiJob::new();
            let (url, token) = background(&job);
            let output = job
                .shell("sh", &format!("exec safe-ad {} {redirect}", line.join(" ")))
                .env("SAFE_LAUNCHER_URL", &url)
                .env("SAFE_LAUNCHER_TOKEN", &token)
                .case(format!("{case}: safe-ad {}", words.join(" ")))
                .run();
            let code = output.exit_code();
            let problem = match says {
                _ if PRINT_NOTHING.contains(&spec.path) || says.is_none() => (code != Some(0))
                    .then(|| format!("exits {code:?}, though its output goes nowhere it can fail")),
                _ if code == Some(0) => Some("exits 0".to_owned()),
                Some(says) if !output.stderr().contains(says) => {
                    Some(format!("exits {code:?} without saying \"{says}\""))
                }
                _ => None,
            };
            if let Some(problem) = problem {
                wrong.push(format!(
                    "{case}: `safe-ad {}` {problem}; stderr: {}",
                    words.join(" "),
                    output.stderr()
                ));
            }
            job.safe_ad()
                .args(["emulator", "--stop", "--all"])
                .run()
                .success();
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The two commands that replace a file whole, each with a FILE in `out/` of the sandbox.
fn replacing(emulator: &Emulator, file: &str) -> [(&'static str, Vec<String>); 2] {
    let names = [emulator.demo_name(1), emulator.demo_name(5)];
    let capture = ["capture", &names[0], &names[1], "-o", file];
    [
        ("capture -o", capture.map(str::to_owned).to_vec()),
        (
            "emulator export",
            vec!["emulator".into(), "export".into(), file.into()],
        ),
    ]
}

/// What is in `dir`, sorted.
fn listed(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the directory")
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Under `ulimit -f 1` (a file-size limit the fixture is past), `capture -o` and `emulator
/// export` fail their write (EFBIG, "File too large"): exit 1, saying so, the old file as it
/// was and no `.FILE.<random>.tmp` beside it, where SIGXFSZ's default action killed them half-way
/// through the new file (exit 153). Started with SIGXFSZ ignored (`trap '' XFSZ`), the same.
#[test]
fn under_a_file_size_limit_capture_and_export_exit_1_leaving_the_old_file_and_no_temporary_one() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start_in(&sandbox, &[]);
    let out = sandbox.path().join("out");
    std::fs::create_dir(&out).expect("out");
    let file = out.join("fixture.json");
    for (case, args) in replacing(&emulator, "out/fixture.json") {
        for start in ["", "trap '' XFSZ; "] {
            std::fs::write(&file, "old\n").expect("the old file");
            let line: Vec<String> = args.iter().map(|word| quoted(word)).collect();
            sandbox
                .shell(
                    "sh",
                    &format!("{start}ulimit -f 1; exec safe-ad {}", line.join(" ")),
                )
                .launcher(&emulator.url)
                .current_dir(sandbox.path())
                .case(case)
                .run()
                .code(1)
                .stderr_has("File too large")
                .stderr_has("(the file is as it was)");
            assert_eq!(std::fs::read_to_string(&file).expect("the file"), "old\n");
            assert_eq!(
                listed(&out),
                ["fixture.json"],
                "{case}: a temporary file was left"
            );
        }
    }
    emulator.terminate().success();
}

/// Where the file is to be made is checked before anything is sent: a directory that does not
/// exist, a path through a file, a name ending in `/`, and a directory this process may not
/// write in are refused with exit 2 and no request (`capture` read 223 requests' worth before it
/// found it could not write).
#[test]
fn a_file_that_could_not_be_made_is_refused_before_anything_is_sent() {
    // Root writes anywhere; held to file modes (`setpriv`) it is refused as an ordinary user is.
    if reads_any_file() && !have("setpriv") {
        return skip("setpriv (util-linux) is not installed, to hold root to a directory's mode");
    }
    let sandbox = Sandbox::new();
    let emulator = Emulator::start_in(&sandbox, &[]);
    sandbox.file("plain", "a file\n");
    let locked = sandbox.path().join("locked");
    std::fs::create_dir(&locked).expect("locked");
    set_mode(&locked, 0o555);
    for (file, says) in [
        (
            "missing/fixture.json",
            "its directory missing does not exist",
        ),
        (
            "plain/fixture.json",
            "plain/fixture.json: cannot look at it",
        ),
        ("new/", "it names a directory, not a file in one"),
        (
            "locked/fixture.json",
            "cannot make a file in its directory locked",
        ),
    ] {
        for (case, args) in replacing(&emulator, file) {
            let before = emulator.requests().len();
            sandbox
                .safe_ad_held_to_file_modes()
                .launcher(&emulator.url)
                .current_dir(sandbox.path())
                .args(&args)
                .case(case)
                .run()
                .code(2)
                .stderr_has(says);
            assert_eq!(
                emulator.requests()[before..],
                [] as [String; 0],
                "{case} {file}"
            );
        }
    }
    assert_eq!(listed(&locked), [] as [String; 0]);
    emulator.terminate().success();
}
