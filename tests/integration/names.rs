//! A data's name wherever a handle goes (issue 43), against the emulator binary: every command
//! whose spec says it takes one works on a fresh copy of the network's data, saves what its
//! words change, and gives the copy back; the commands whose spec refuses one say why (exit 2)
//! and send nothing. Each test that claims something about the network ends by reading it
//! through a fresh handle of the emulator's own (`Emulator::network`), and checks that the
//! run left no handle behind.
//!
//! The sequences that trapped scripts given handles (a copy a post emptied, an append the copy
//! does not show) run here with the name instead, with no `reopen` and no thought of the copy.

use safe_ad::test_support::cli::{Names, COMMANDS};

use crate::harness::emulator::*;
use crate::harness::http::name;
use crate::harness::*;

fn run(sandbox: &Sandbox, emulator: &Emulator, args: &[&str]) -> Output {
    sandbox.safe_ad().launcher(&emulator.url).args(args).run()
}

/// [`run`], checking that the run left no handle in the emulator.
fn run_clean(sandbox: &Sandbox, emulator: &Emulator, args: &[&str]) -> Output {
    let first = emulator.next_handle();
    let output = run(sandbox, emulator, args);
    let left = left_since(emulator, first, &[]);
    assert!(left.is_empty(), "{args:?} left {left:?}");
    output
}

/// The handles the emulator holds that were made from `first` on, but `kept` (a handle the run
/// printed for the person): what a run left behind.
fn left_since(emulator: &Emulator, first: u64, kept: &[u64]) -> Vec<(&'static str, u64)> {
    (emulator.handles_since(first).into_iter())
        .filter(|(_, handle)| !kept.contains(handle))
        .collect()
}

/// Every command whose spec takes names, run with demo handle 1's name in place of its sample's
/// handle: exit 0, the name in its words where it says the handle, and no handle left but the
/// one `reopen` prints. Every command whose spec refuses names: exit 2 with its reason, and
/// nothing sent. A command added with a `HANDLE` and no word on names fails
/// `every_command_that_takes_handles_says_what_a_name_does` below.
#[test]
fn every_command_that_takes_a_name_works_on_a_fresh_copy_and_gives_it_back() {
    let mut ran = Vec::new();
    for spec in COMMANDS {
        if spec.names == Names::NoHandle {
            continue;
        }
        let sandbox = Sandbox::new();
        let emulator = Emulator::start(&[]);
        let data = emulator.demo_name(1);
        let mut args: Vec<&str> = spec.path.split(' ').collect();
        assert_eq!(spec.sample.first(), Some(&"1"), "{}: sample", spec.path);
        args.push(&data);
        args.extend(&spec.sample[1..]);
        let first = emulator.next_handle();
        let sent = emulator.requests().len();
        let output = run(&sandbox, &emulator, &args);
        match spec.names {
            Names::Refused(why) => {
                output
                    .code(2)
                    .stderr_has("takes handles only")
                    .stderr_has(why);
                assert_eq!(emulator.requests().len(), sent, "{args:?} sent a request");
            }
            _ => {
                output.success();
                let kept: Vec<u64> = match spec.path {
                    "reopen" => vec![output.stdout().trim().parse().expect("a handle")],
                    _ => Vec::new(),
                };
                let left = left_since(&emulator, first, &kept);
                assert!(left.is_empty(), "{args:?} left {left:?}");
                // The words say the name, never the number of a copy that is gone.
                let copy_words = output
                    .stdout()
                    .lines()
                    .any(|line| line.starts_with("handle "));
                assert!(
                    !copy_words,
                    "{args:?} said a copy's handle:\n{}",
                    output.stdout()
                );
                ran.push(spec.path);
            }
        }
    }
    assert!(ran.len() >= 10, "commands run with a name: {ran:?}");
}

/// Every command with a `HANDLE` argument says in its spec what a name does there, and every
/// command whose spec says so has one.
#[test]
fn every_command_that_takes_handles_says_what_a_name_does() {
    let mut command = safe_ad::test_support::help::command();
    // The commands' arguments are made when the tree is built.
    command.build();
    for spec in COMMANDS {
        let mut sub = &command;
        for word in spec.path.split(' ') {
            sub = sub.find_subcommand(word).expect("a command of the spec");
        }
        let takes_handles = (sub.get_arguments()).any(|arg| {
            arg.is_positional() && matches!(arg.get_id().as_str(), "handle" | "handles")
        });
        assert_eq!(
            takes_handles,
            spec.names != Names::NoHandle,
            "{}: takes a HANDLE argument, but its spec's `names` is {:?}",
            spec.path,
            spec.names
        );
    }
}

/// `remove --kind structured-data NAME`, then `remove --kind appendable-data NAME`: given
/// handles, the second ran on the copy the first one's post emptied, matched nothing, and exited
/// 0 with the item still on the network. Given the name, each takes a fresh copy: both items are
/// gone from the network's data.
#[test]
fn two_selections_in_a_row_by_name_both_reach_the_network() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let data = emulator.demo_name(1);
    assert_eq!(emulator.network(1), (1, 3, 2));
    let first = emulator.next_handle();
    run(
        &sandbox,
        &emulator,
        &["remove", "--kind", "structured-data", &data],
    )
    .success()
    .stdout_has(&format!("remove {data} index 1: ok"))
    .stdout_has(&format!("post {data}: ok, saved version 2"));
    run(
        &sandbox,
        &emulator,
        &["remove", "--kind", "appendable-data", &data],
    )
    .success()
    .stdout_has(&format!("remove {data} index 0: ok"))
    .stdout_has(&format!("post {data}: ok, saved version 3"))
    .stderr_lacks("reopen");
    assert_eq!(left_since(&emulator, first, &[]), vec![]);
    // Version 3, no data items, the five removed.
    assert_eq!(emulator.network(1), (3, 0, 5));
}

/// After `append NAME`, `show NAME`, `metadata NAME` and `cat NAME` read the network's data,
/// which holds the new item at once: no copy to reopen.
#[test]
fn reads_by_name_see_an_append_at_once() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let data = emulator.demo_name(1);
    let first = emulator.next_handle();
    run(
        &sandbox,
        &emulator,
        &["append", &data, "--structured", &name(0x5a)],
    )
    .success()
    .stdout_is(&format!("append {data}: ok\n"))
    .stderr_lacks("reopen");
    let shown = run(&sandbox, &emulator, &["show", "--json", &data]);
    let object = shown.success().json_lines().remove(0);
    assert_eq!(object["data"].as_array().map(Vec::len), Some(4), "{object}");
    run(&sandbox, &emulator, &["show", &data])
        .success()
        .stdout_has(&format!("{data}: version 1, owner yes, data 4, deleted 2"))
        .stderr_lacks("after a post");
    run(&sandbox, &emulator, &["metadata", &data])
        .success()
        .stdout_is(&format!(
            "{data}: version 1, data 4, deleted 2, owner yes, filter BlackList (2 keys)\n"
        ));
    // The network keeps items in the order of their data ids: the new one (0x5a...) first.
    run(&sandbox, &emulator, &["cat", &data, "1"])
        .success()
        .stdout_is("demo item d");
    // The appended item points at structured data that is not on the network: said of the name.
    run(&sandbox, &emulator, &["cat", &data, "0"])
        .code(4)
        .stderr_has(&format!(
            "item 0 of {data} points at data that is not on the network"
        ));
    assert_eq!(left_since(&emulator, first, &[]), vec![]);
    assert_eq!(emulator.network(1), (1, 4, 2));
}

/// The clears and the item changes by name, each saved as docs/saving.md's table requires: a
/// clear of the data, then a restore (appended again after the save: data on the network
/// again), then a purge of the deleted list (deleted for good in one save: a fresh copy's
/// removals are the network's), each read back through a fresh handle.
#[test]
fn clears_and_item_changes_by_name_hold_on_the_network() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let data = emulator.demo_name(1);
    run_clean(&sandbox, &emulator, &["clear-data", &data])
        .success()
        .stdout_has(&format!("clear-data {data}: ok"))
        .stdout_has(&format!("post {data}: ok, saved version 2"))
        .stderr_lacks("note:");
    assert_eq!(emulator.network(1), (2, 0, 5));
    run_clean(&sandbox, &emulator, &["restore", &data, "0"])
        .success()
        .stdout_has(&format!("restore {data} index 0: ok"))
        .stderr_has("data on the network again")
        .stderr_lacks("reopen");
    let (_, held, deleted) = emulator.network(1);
    assert_eq!((held, deleted), (1, 4));
    run_clean(&sandbox, &emulator, &["clear-deleted-data", &data])
        .success()
        .stdout_has(&format!("clear-deleted-data {data}: ok"))
        .stderr_lacks("note:");
    let (_, held, deleted) = emulator.network(1);
    assert_eq!((held, deleted), (1, 0));
}

/// `purge NAME I` deletes a removed item for good with one save (a fresh copy's removals are the
/// network's); `post NAME` is refused, since a fresh copy holds nothing unsaved and a post would
/// only make a new version.
#[test]
fn purge_by_name_saves_once_and_post_by_name_is_refused() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let data = emulator.demo_name(1);
    let sent = emulator.requests().len();
    run(&sandbox, &emulator, &["post", &data])
        .code(2)
        .stderr_has("a copy taken for a name holds nothing unsaved");
    run(&sandbox, &emulator, &["clear-data", "--save", "put", &data])
        .code(2)
        .stderr_has("`--save put` saves data never saved");
    assert_eq!(emulator.requests().len(), sent);
    let output = run(&sandbox, &emulator, &["purge", &data, "1"]);
    output
        .success()
        .stdout_has(&format!("purge {data} index 1: ok"));
    let saves = output.stdout().matches(&format!("post {data}: ok")).count();
    assert_eq!(saves, 1, "{}", output.stdout());
    assert_eq!(emulator.network(1), (2, 3, 1));
}

/// Names read from standard input run like handles; a name where the command takes handles
/// only is that line's failure (exit 2), the other lines run.
#[test]
fn names_on_standard_input() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let data = emulator.demo_name(1);
    let first = emulator.next_handle();
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["metadata", "-"])
        .stdin(format!("2\n{data}\n"))
        .run();
    output
        .success()
        .stdout_has("2: version 1")
        .stdout_has(&format!("{data}: version 1, data 3, deleted 2"));
    let output = sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["drop", "-"])
        .stdin(format!("{data}\n"))
        .run();
    output
        .code(2)
        .stderr_has("on line 1 of standard input is a data's name, and drop takes handles only");
    assert_eq!(left_since(&emulator, first, &[]), vec![]);
}

/// `--save put` with a name is refused (the data is on the network: a name's change is saved
/// with a post), and `reopen --drop NAME` (no old handle to drop): exit 2, nothing sent.
#[test]
fn options_that_make_no_sense_with_a_name_are_refused() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let data = emulator.demo_name(1);
    let sent = emulator.requests().len();
    run(
        &sandbox,
        &emulator,
        &["remove", "--save", "put", &data, "0"],
    )
    .code(2)
    .stderr_has(&format!(
        "remove --save put is refused with a data's name: '{data}'"
    ))
    .stderr_has("`--save put` saves data never saved");
    // A clear's option says that it is the option that is refused (issue 52: "takes handles
    // only", of a command that takes names).
    run(
        &sandbox,
        &emulator,
        &["clear-deleted-data", "--save", "put", &data],
    )
    .code(2)
    .stderr_has(&format!(
        "clear-deleted-data --save put is refused with a data's name: '{data}'"
    ))
    .stderr_lacks("takes handles only");
    run(&sandbox, &emulator, &["reopen", "--drop", &data])
        .code(2)
        .stderr_has(&format!(
            "reopen --drop is refused with a data's name: '{data}'"
        ))
        .stderr_has("`--drop` drops the old handle, and a name has none");
    assert_eq!(emulator.requests().len(), sent);
}

/// A name that is not on the network: the fetch's -18, said of the name, exit 4, and the data id
/// taken for it given back.
#[test]
fn a_name_not_on_the_network_says_so() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let first = emulator.next_handle();
    let missing = name(0x11);
    run(&sandbox, &emulator, &["remove", &missing, "0"])
        .code(4)
        .stderr_has(&format!(
            "remove {missing}: taking a fresh copy of the network's data"
        ));
    run(&sandbox, &emulator, &["show", &missing]).code(4);
    // Every command's failure starts with the command (issue 52: a clear's said only the name).
    run(&sandbox, &emulator, &["clear-data", &missing])
        .code(4)
        .stderr_has(&format!(
            "safe-ad: error: clear-data {missing}: taking a fresh copy of the network's data"
        ));
    // A procedure's inner steps are said of what was asked, not `fetch data-id N`.
    run(&sandbox, &emulator, &["open", &missing])
        .code(4)
        .stderr_has(&format!(
            "safe-ad: error: open {missing}: the launcher answered 404"
        ));
    run(&sandbox, &emulator, &["reopen", "99"])
        .code(4)
        .stderr_has("safe-ad: error: reopen 99: the launcher answered 400")
        .stderr_lacks("data-id 99");
    // A batch's name too: said of the name, nothing of its taking on stdout, the hint for a
    // name (public data only), not the options of `open`.
    run(&sandbox, &emulator, &["metadata", &missing])
        .code(4)
        .stdout_is("")
        .stderr_has(&format!(
            "{missing}: taking a fresh copy of the network's data"
        ))
        .stderr_has("reaches public data only");
    assert_eq!(left_since(&emulator, first, &[]), vec![]);
}

/// `--dry-run` with a name prints the whole sequence: the copy taken, the change, the save, the
/// copy given back (that it is what the run sends is `dry_run_matches`'s).
#[test]
fn a_dry_run_with_a_name_lists_the_copy_taken_and_given_back() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let data = emulator.demo_name(1);
    let sent = emulator.requests().len();
    let output = run(&sandbox, &emulator, &["remove", "--dry-run", &data, "0"]);
    let lines: Vec<&str> = (output.success().stdout().lines())
        .filter(|line| !line.starts_with(' '))
        .collect();
    let url = &emulator.url;
    assert_eq!(
        lines,
        [
            format!("POST {url}/data-id/appendable-data"),
            format!("GET {url}/appendable-data/handle/{{dataIdHandle}}"),
            format!("DELETE {url}/data-id/{{dataIdHandle}}"),
            format!("GET {url}/appendable-data/metadata/{{copyHandle}}"),
            format!("DELETE {url}/appendable-data/{{copyHandle}}/0"),
            format!("POST {url}/appendable-data/{{copyHandle}}"),
            format!("GET {url}/appendable-data/metadata/{{copyHandle}}"),
            format!("DELETE {url}/appendable-data/handle/{{copyHandle}}"),
        ]
    );
    assert_eq!(emulator.requests().len(), sent);
}

/// docs/output.md's table of what a name costs: each command whose spec takes names, its
/// sample run once with demo handle 1 and once with its name, each against a fresh emulator,
/// and the requests each run sent (the emulator's journal), with the difference. Written by
/// `regenerate` and compared by `generated`, so the figures are what this build sends.
pub fn cost_table() -> String {
    let count = |args: &[&str]| {
        let sandbox = Sandbox::new();
        let emulator = Emulator::start(&[]);
        let data = emulator.demo_name(1);
        let args: Vec<&str> = (args.iter())
            .map(|&word| if word == "NAME" { data.as_str() } else { word })
            .collect();
        let before = emulator.requests().len();
        run(&sandbox, &emulator, &args).success();
        emulator.requests().len() - before
    };
    let mut table = String::from(
        "| command | requests with handle 1 | with its name | difference |\n|---|---|---|---|\n",
    );
    for spec in COMMANDS
        .iter()
        .filter(|spec| spec.names == Names::FreshCopy)
    {
        let mut by_handle: Vec<&str> = spec.path.split(' ').collect();
        by_handle.extend(spec.sample);
        let mut by_name: Vec<&str> = spec.path.split(' ').collect();
        by_name.push("NAME");
        by_name.extend(&spec.sample[1..]);
        let (handle, name) = (count(&by_handle), count(&by_name));
        let adds = format!("{:+}", name as i64 - handle as i64);
        table.push_str(&format!(
            "| `safe-ad {}` | {handle} | {name} | {adds} |\n",
            by_handle.join(" ")
        ));
    }
    table
}

/// A selection or an index on a copy a post emptied (issue 43): the copy holds no data items
/// while the network holds those asked for, so the command reads the network (a fresh handle,
/// given back) and exits 7 naming them and the two ways on, where it used to exit 0 with the
/// item still on the network (`remove` by selectors) or say the copy "holds 0" (`cat`).
#[test]
fn a_selection_on_a_copy_a_post_emptied_is_never_a_silent_exit_0() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let copy = run(&sandbox, &emulator, &["reopen", "1"]);
    let h = copy.success().stdout().trim().to_owned();
    run(
        &sandbox,
        &emulator,
        &["remove", "--kind", "structured-data", "--save", "post", &h],
    )
    .success();
    let first = emulator.next_handle();
    run(&sandbox, &emulator, &["remove", "--kind", "appendable-data", "--save", "post", &h])
        .code(7)
        .stderr_has(&format!(
            "remove {h}: handle {h}'s copy holds no data items, but the network's data holds 1, and remove would take 1 of them there (data 0); nothing was changed"
        ))
        .stderr_has("give the data's name in place of the handle")
        .stderr_has(&format!("safe-ad reopen {h}"));
    run(&sandbox, &emulator, &["remove", &h, "0"]).code(7);
    run(&sandbox, &emulator, &["cat", &h, "0"])
        .code(7)
        .stderr_has("and item data 0 is there");
    assert_eq!(left_since(&emulator, first, &[]), vec![]);
    // Nothing was changed: the network still holds the appendable item.
    let (_, held, _) = emulator.network(1);
    assert_eq!(held, 1);
    // A selection that matches nothing on the network either stays a plain no-match: exit 0
    // with a note, 4 with --require-match.
    run(
        &sandbox,
        &emulator,
        &["remove", "--kind", "immutable-data", &h],
    )
    .success()
    .stderr_has("no item matched");
    run(
        &sandbox,
        &emulator,
        &["remove", "--kind", "immutable-data", "--require-match", &h],
    )
    .code(4);
    // With the name, the same selection takes the item from the network's data.
    let data = emulator.demo_name(1);
    run(
        &sandbox,
        &emulator,
        &["remove", "--kind", "appendable-data", &data],
    )
    .success();
    let (_, held, _) = emulator.network(1);
    assert_eq!(held, 0);
}

/// Names from standard input under a wide `--jobs`: each holds a fresh copy and a data id while
/// it runs, so no more than 8 run at once, whatever `--jobs` (the launcher keeps 100 of a kind
/// and evicts the oldest, which would be the person's own); counted through the emulator's
/// `--log`, which records the live handles after every request.
#[test]
fn names_on_standard_input_hold_at_most_8_copies_at_once_whatever_jobs() {
    let sandbox = Sandbox::new();
    let log = sandbox.path().join("requests.jsonl");
    let emulator = Emulator::start(&["--log", log.to_str().expect("a path")]);
    let data = emulator.demo_name(1);
    let before = emulator.live_handles(&log);
    let from = std::fs::read_to_string(&log).expect("log").lines().count();
    let names = format!("{data}\n").repeat(40);
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["--jobs", "64", "metadata", "-"])
        .stdin(names)
        .run()
        .success()
        .stderr_has("40 handles: 40 ok, 0 failed");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
    let most = most_held(&log, from, &before);
    for kind in ["appendable_data", "data_id"] {
        let held = most[kind].as_i64().unwrap_or(0);
        assert!(held <= 8, "held {held} {kind} handles at once: {most}");
    }
}

/// What an index check says of a name's copy is said of the name, and a copy at version 0
/// (never posted) that holds no data items while the network holds an append is no copy a post
/// emptied: the plain out-of-range failure (exit 4), not 7.
#[test]
fn index_words_say_the_name_and_a_copy_never_posted_is_not_called_emptied() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let data = emulator.demo_name(1);
    run(&sandbox, &emulator, &["remove", &data, "7"])
        .code(4)
        .stderr_has(&format!(
            "remove {data}: no item at index 7 ({data} has 3 data items"
        ))
        .stderr_has(&format!("`safe-ad show {data}`"));
    let created = run(&sandbox, &emulator, &["create", "--put"]);
    let h = created.success().stdout().trim().to_owned();
    run(
        &sandbox,
        &emulator,
        &["append", &h, "--structured", &name(0x5a)],
    )
    .success();
    run(&sandbox, &emulator, &["remove", &h, "0"])
        .code(4)
        .stderr_lacks("a post leaves");
}

/// A name written as 64 hex digits that are all decimal (a counter: `000…0001`) is a name on
/// the command line and on standard input, never the handle its digits would make (issue 51:
/// it was read as handle 1, and the append went to handle 1's data). Checked at the network:
/// the named data gains the item and handle 1's data is as it was. Digits too many for a handle
/// and too few for a name are refused, with nothing sent.
#[test]
fn a_name_of_decimal_hex_digits_is_a_name_never_a_handle() {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let counter = format!("{:064}", 1);
    let base64 = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAE=";
    let before = emulator.network(1);
    let output = run(&sandbox, &emulator, &["create", "--put", &counter]);
    output
        .success()
        .stderr_has(&format!("name {base64}, saved"));
    run_clean(
        &sandbox,
        &emulator,
        &["append", &counter, "--structured", &name(0x5a)],
    )
    .success()
    .stdout_is(&format!("append {base64}: ok\n"));
    let fetched = emulator.fetch_named(base64);
    assert_eq!(fetched.status, 200, "{}", fetched.body);
    assert_eq!(counts(&fetched.json()), (0, 1, 0), "{}", fetched.body);
    assert_eq!(emulator.network(1), before, "handle 1's data changed");
    // On standard input too.
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["metadata", "-"])
        .stdin(format!("{counter}\n"))
        .run()
        .success()
        .stdout_is(&format!(
            "{base64}: version 0, data 1, deleted 0, owner yes, filter BlackList (0 keys)\n"
        ));
    // 21 digits: neither a handle nor a name.
    let sent = emulator.requests().len();
    run(
        &sandbox,
        &emulator,
        &["append", &format!("{:021}", 1), "--structured", &name(1)],
    )
    .code(2)
    .stderr_has("it has more than 20 digits");
    assert_eq!(emulator.requests().len(), sent, "a request was sent");
}
