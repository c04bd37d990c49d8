//! `--jq EXPR` against the emulator binary: what the filter makes of each object is printed, a
//! string raw and anything else as compact JSON, a line for each value; it implies `--json`; a
//! bad expression is refused (exit 2) before anything is sent; a filter that fails on an object
//! is said on stderr and the run exits 1; a shell's lines take it as the command line does; and
//! every command that prints JSON prints it through the filter. The harness checks that no token
//! shows in any output.

use serde_json::Value;

use crate::harness::emulator::*;
use crate::harness::*;

/// `safe-ad <args>` against `emulator`.
fn run(sandbox: &Sandbox, emulator: &Emulator, args: &[&str]) -> Output {
    sandbox.safe_ad().launcher(&emulator.url).args(args).run()
}

/// The one object `safe-ad <args> --json` prints.
fn object(sandbox: &Sandbox, emulator: &Emulator, args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.push("--json");
    let output = run(sandbox, emulator, &args);
    let mut lines = output.success().json_lines();
    output.check(lines.len() == 1, "not one JSON object");
    lines.remove(0)
}

#[test]
fn show_jq_version_prints_the_version_alone() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let shown = object(&sandbox, &emulator, &["show", "1"]);
    let version = shown["version"].as_u64().expect("show's version");
    run(&sandbox, &emulator, &["show", "1", "--jq", ".version"])
        .success()
        .stdout_is(&format!("{version}\n"))
        .stderr_is("");
}

/// The issue's own line: a name's metadata, one result, its version alone (0.2 printed an object
/// per request, so `.version` gave `null 1 null 1 null`). A change by name says its saved
/// version the same way.
#[test]
fn metadata_of_a_name_jq_version_prints_the_version_alone() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let name = emulator.demo_name(1);
    run(
        &sandbox,
        &emulator,
        &["metadata", &name, "--jq", ".version"],
    )
    .success()
    .stdout_is("1\n")
    .stderr_is("");
    run(
        &sandbox,
        &emulator,
        &["remove", &name, "0", "--jq", ".version"],
    )
    .success()
    .stdout_is("2\n");
    run(
        &sandbox,
        &emulator,
        &["metadata", &name, "--jq", ".dataLength"],
    )
    .success()
    .stdout_is("2\n");
}

#[test]
fn a_string_prints_raw_and_anything_else_as_compact_json() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let name = emulator.demo_name(1);
    // A string: its text, no quotes, as `jq -r` and `gh --jq` print it.
    run(&sandbox, &emulator, &["show", "1", "--jq", ".name"])
        .success()
        .stdout_is(&format!("{name}\n"));
    let fingerprint = object(&sandbox, &emulator, &["auth", "whoami"])["fingerprint"].clone();
    let fingerprint = fingerprint.as_str().expect("a fingerprint");
    run(
        &sandbox,
        &emulator,
        &["auth", "whoami", "--jq", ".fingerprint"],
    )
    .success()
    .stdout_is(&format!("{fingerprint}\n"));
    // An object: compact JSON on one line, the value `--json` holds.
    let shown = object(&sandbox, &emulator, &["show", "1"]);
    let filter = &shown["filter"];
    assert!(filter.is_object(), "show 1's filter: {shown}");
    run(&sandbox, &emulator, &["show", "1", "--jq", ".filter"])
        .success()
        .stdout_is(&format!("{filter}\n"));
    // A value the object lacks: `null`, as jq prints it.
    run(&sandbox, &emulator, &["show", "1", "--jq", ".nothing"])
        .success()
        .stdout_is("null\n");
}

#[test]
fn a_filter_that_gives_several_values_prints_a_line_for_each() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let shown = object(&sandbox, &emulator, &["show", "1"]);
    let items = shown["data"].as_array().expect("show's data");
    assert!(items.len() > 1, "demo handle 1 has several items: {shown}");
    let expected: String = items
        .iter()
        .map(|item| {
            format!(
                "{}\t{}\n",
                item["index"],
                item["kind"].as_str().expect("kind")
            )
        })
        .collect();
    run(
        &sandbox,
        &emulator,
        &["show", "1", "--jq", r#".data[] | "\(.index)\t\(.kind)""#],
    )
    .success()
    .stdout_is(&expected);
    // Several objects (one a name), each filtered in input order.
    let name = emulator.demo_name(5);
    let inbox = object(&sandbox, &emulator, &["show", &name]);
    run(
        &sandbox,
        &emulator,
        &["show", "1", &name, "--jq", ".version"],
    )
    .success()
    .stdout_is(&format!("{}\n{}\n", shown["version"], inbox["version"]));
}

#[test]
fn jq_implies_json_and_prints_the_objects_json_prints() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let json = run(&sandbox, &emulator, &["show", "1", "--json"]);
    let filtered = run(&sandbox, &emulator, &["show", "1", "--jq", "."]);
    filtered.success().stderr_is("");
    // Every line a JSON object (no human line), the same objects `--json` gives.
    assert_eq!(filtered.json_lines(), json.success().json_lines());
    // Before the command too, as every client option.
    let before = run(&sandbox, &emulator, &["--jq", ".version", "show", "1"]);
    before
        .success()
        .stdout_is(&format!("{}\n", json.json_lines()[0]["version"]));
}

#[test]
fn a_bad_expression_is_refused_before_anything_is_sent() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let before = emulator.requests();
    for (expression, said) in [
        (".[", "expected closing bracket"),
        (".version |", "expected term"),
        ("nosuchfilter", "undefined filter `nosuchfilter/0`"),
        // What would read the environment (the token is there) is no filter here.
        ("env.SAFE_LAUNCHER_TOKEN", "undefined filter `env/0`"),
        ("$ENV", "undefined variable `$ENV`"),
    ] {
        run(&sandbox, &emulator, &["show", "1", "--jq", expression])
            .code(2)
            .stdout_is("")
            .stderr_has(&format!("safe-ad: error: --jq '{expression}'"))
            .stderr_has(said)
            .stderr_has("hint: ");
    }
    // A batch over standard input, and a command that would change the data, alike.
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["clear-data", "-", "--jq", ".["])
        .stdin("1\n")
        .run()
        .code(2)
        .stderr_has("--jq '.['");
    assert_eq!(emulator.requests(), before, "a refused --jq sent requests");
    // Read back through a fresh handle: the clear was not sent, the items are still data.
    let (version, data, _) = emulator.network(1);
    assert_eq!((version, data), (1, 3), "demo data 1 changed");
}

#[test]
fn a_filter_that_fails_on_an_object_is_said_and_the_run_exits_1() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let name = emulator.demo_name(5);
    let held = emulator.handles_held();
    // It fails on the second object alone: the first's value is printed, the failure named.
    let output = run(
        &sandbox,
        &emulator,
        &[
            "show",
            "1",
            &name,
            "--jq",
            "if .dataLength == 3 and .deletedDataLength == 2 then .version else .version[0] end",
        ],
    );
    output
        .code(1)
        .stdout_is("1\n")
        .stderr_has("safe-ad: error: --jq 'if .dataLength")
        .stderr_has("cannot index");
    // What it fetched it gave back: a failed filter is words, not a stop.
    assert_eq!(emulator.handles_held(), held, "show left handles behind");
}

/// A filter that gives values without end (`repeat`) ends as a batch does: when its reader
/// leaves (no failure), or at a stop signal (exit 130, said); either way what the command took
/// from the launcher it gave back.
#[test]
fn an_endless_filter_ends_with_its_reader_or_a_stop_signal() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let held = emulator.handles_held();
    let endless = ["show", "1", "--jq", "repeat(.version)"];
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(endless)
        .stdout_head(2)
        .run()
        .success()
        .stdout_is("1\n1\n")
        .stderr_is("");
    let running = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(endless)
        .spawn();
    running.wait_for_stdout("1\n1\n1\n");
    running.terminate();
    running
        .wait()
        .code(130)
        .stderr_has("interrupted while --jq's filter gave values");
    assert_eq!(emulator.handles_held(), held, "show left handles behind");
}

#[test]
fn a_shell_line_takes_jq_as_the_command_line_does() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    let shown = object(&sandbox, &emulator, &["show", "1"]);
    let fingerprint = object(&sandbox, &emulator, &["auth", "whoami"])["fingerprint"].clone();
    let fingerprint = fingerprint.as_str().expect("a fingerprint").to_owned();
    // Each line its own filter; a raw string kept in a variable is a word for the next line.
    run(
        &sandbox,
        &emulator,
        &[
            "shell",
            "-c",
            "show 1 --jq .version\nauth whoami --jq .fingerprint\nn = show 1 --jq .name\nshow $n --jq .dataLength",
        ],
    )
    .success()
    .stdout_is(&format!(
        "{}\n{fingerprint}\n{}\n",
        shown["version"], shown["dataLength"]
    ));
    // The shell's own --jq is each line's, but where a line chooses its own output.
    let output = run(
        &sandbox,
        &emulator,
        &[
            "shell",
            "--jq",
            ".version",
            "-c",
            "show 1; show 1 --json; show 1 --jq .name",
        ],
    );
    let lines: Vec<&str> = output.success().stdout().lines().collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], shown["version"].to_string());
    assert_eq!(
        serde_json::from_str::<Value>(lines[1]).expect("the line's own --json"),
        shown
    );
    assert_eq!(lines[2], shown["name"].as_str().expect("name"));
    // A bad expression on a line is that line's usage error; nothing of it is sent.
    let before = emulator.requests();
    run(&sandbox, &emulator, &["shell", "-c", "show 1 --jq '.['"])
        .code(2)
        .stdout_is("")
        .stderr_has("--jq '.['");
    assert_eq!(emulator.requests(), before);
}

#[test]
fn the_journal_and_its_count_go_through_the_filter() {
    let emulator = Emulator::start(&[]);
    let sandbox = Sandbox::new();
    run(&sandbox, &emulator, &["metadata", "1"]).success();
    let records = run(&sandbox, &emulator, &["emulator", "requests", "--json"]);
    let paths: String = (records.success().json_lines().iter())
        .map(|record| format!("{}\n", record["path"].as_str().expect("a path")))
        .collect();
    assert!(paths.contains("/appendable-data/metadata/1\n"), "{paths}");
    run(
        &sandbox,
        &emulator,
        &["emulator", "requests", "--jq", ".path"],
    )
    .success()
    .stdout_is(&paths);
    run(
        &sandbox,
        &emulator,
        &["emulator", "requests", "--count", "--jq", ". > 0"],
    )
    .success()
    .stdout_is("true\n");
}

/// `emulator list`'s objects, which the emulator crate hands the client to print, go through
/// the filter too (a job's own temporary directory holds its background emulator alone).
#[test]
fn emulator_list_prints_its_objects_through_the_filter() {
    use crate::harness::leftovers::{variables, CiJob};
    let job = CiJob::new();
    let started = variables(job.background(&[]).stdout());
    let url = &started["SAFE_LAUNCHER_URL"];
    let pid = &started["SAFE_AD_EMULATOR_PID"];
    job.safe_ad()
        .args(["emulator", "list", "--jq", r#""\(.pid) \(.url)""#])
        .run()
        .success()
        .stdout_is(&format!("{pid} {url}\n"));
    job.safe_ad()
        .args(["emulator", "--stop", "--pid", pid])
        .run()
        .success();
}

/// Every command that takes `--json` takes `--jq`, and prints every JSON value `--json` gives
/// through it: its sample, run with `--jq type` on a fresh emulator, prints the type of each
/// line `--json` prints on another. (`emulator list` lists the background emulators of the
/// user's, which other tests start and stop as this runs: emulator_list.rs has its own.)
#[test]
fn every_command_that_prints_json_prints_it_through_the_filter() {
    use safe_ad::test_support::cli::{Opt, COMMANDS};
    let type_of = |value: &Value| match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let mut runs = 0;
    let mut wrong = Vec::new();
    for spec in COMMANDS
        .iter()
        .filter(|spec| spec.options.contains(Opt::Json))
    {
        assert!(
            spec.options.contains(Opt::Jq),
            "`{}` takes --json but not --jq",
            spec.path
        );
        if spec.path == "emulator list" {
            continue;
        }
        let mut args: Vec<&str> = spec.path.split(' ').collect();
        args.extend(spec.sample);
        let sandbox = Sandbox::new();
        let json = {
            let emulator = Emulator::start(&[]);
            let mut args = args.clone();
            args.push("--json");
            run(&sandbox, &emulator, &args)
        };
        let filtered = {
            let emulator = Emulator::start(&[]);
            let mut args = args.clone();
            args.extend(["--jq", "type"]);
            run(&sandbox, &emulator, &args)
        };
        let expected: Vec<&str> = json
            .stdout()
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).map_or("no JSON", |v| type_of(&v)))
            .collect();
        let got: Vec<&str> = filtered.stdout().lines().collect();
        let line = args.join(" ");
        if expected.is_empty() {
            wrong.push(format!("`safe-ad {line} --json` printed nothing"));
        }
        if got != expected {
            wrong.push(format!(
                "`safe-ad {line} --jq type` printed {got:?}; --json's lines are {expected:?}"
            ));
        }
        if filtered.exit_code() != json.exit_code() {
            wrong.push(format!(
                "`safe-ad {line}` exits otherwise with --jq than with --json"
            ));
        }
        runs += 1;
    }
    assert!(runs > 20, "only {runs} commands were run");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
