//! Every command that offers `--dry-run` lists exactly the requests its run sends: each row of
//! [`ROWS`] runs once with `--dry-run` (which must send nothing) and once for real against the
//! same fresh emulator, and the method and path of each request the dry run printed are
//! compared with the emulator's journal of the run, in order. A `{slot}` the dry run prints for
//! a handle an earlier answer gives matches the number the run sent.
//!
//! Where a run sends reads the dry run cannot list (what they are depends on the launcher's
//! answers), the row says why, and the check is that the run sent every request the dry run
//! listed, in its order, and besides them only reads and the give-backs of the handles those
//! reads took. The table is kept by
//! hand for now, one row per command that takes `--dry-run` (and per procedure its options
//! choose); a later change takes it from each command's description.

use crate::harness::emulator::*;
use crate::harness::*;

/// A name no data on the demo network has, in base64: what `create` and `append` use.
const NEW_NAME: &str = "ZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXp7fH1+f4CBgoM=";

/// What the journal holds of a row's run, against what its dry run printed.
#[derive(Debug, Clone, Copy)]
enum Sent {
    /// Exactly the dry run's requests, in order.
    Exactly,
    /// The dry run's requests, in order, and among them reads the dry run cannot list and the
    /// give-backs of the handles they took; why they cannot be listed, and whether they read the
    /// row's handle itself (its items), or only the network's copy of its data.
    WithReads(&'static str, Reads),
    /// As [`Sent::WithReads`], but for the dry run's requests at these positions (counted
    /// from 0), which the dry run says are sent only when its reads find they are needed, and
    /// which this row's run does not need: the run must leave out exactly those.
    WithReadsLeaving(&'static str, Reads, &'static [usize]),
}

/// What a row's unlisted reads may read of the row's own handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reads {
    /// Only the network's data behind it (its data id, its serialised bytes): a note's reads.
    Network,
    /// Its items too, as `show` reads them.
    Items,
    /// Its items, and the data they point at through copies of their own, taken by name (a
    /// data id for the name, the fetch through it): `capture`.
    Copies,
}

/// One sample invocation. In `args`, `HANDLE` stands for the handle the row runs on (demo
/// handle 1, or with `fresh` one `create` made, never saved), `NAME` for demo handle 1's name,
/// and `FILE` for a small file in the sandbox.
struct Row {
    args: &'static [&'static str],
    fresh: bool,
    sent: Sent,
}

const fn row(args: &'static [&'static str], sent: Sent) -> Row {
    Row {
        args,
        fresh: false,
        sent,
    }
}

/// The note before a purge that is not saved with `--save post`.
const PURGE_NOTE: &str = "before a purge not saved with --save post, the run reads the copy's serialised bytes and, when one of the items purged was removed, the network's deleted list through a fresh handle, to say whether a plain post would leave an item data on the network; which reads follow the first depends on its answer";

/// The note before a restore that is not saved.
const RESTORE_NOTE: &str = "after a restore not saved, the run says what a plain post would leave, from a read of the copy's serialised bytes and, when an item is restored, the network's deleted list through a fresh handle";

/// `purge --save post` of items whose removal the network has (demo handle 1 is in sync): the
/// dry run lists a first save and its read, and says they are sent only when a removal purged
/// is not on the network.
const PURGE_POST: &str = "purge --save post reads the copy's serialised bytes and the network's deleted list to decide whether to save first; every removal here was saved, so it saves once";

/// `restore --save post`.
const RESTORE_POST: &str = "restore --save post reads the items, your key and the network's deleted list to decide which restored items to append again after the save; the dry run lists an append for every item, the most that may be sent (here every removal was saved, so every item is appended)";

/// `filter add` and `filter remove`: the filter's keys are read after its metadata.
const FILTER_KEYS: &str = "filter add and filter remove read each key of the filter (a sign-key handle each, its serialised bytes, the handle given back) after its metadata, to send only the keys that change it: as many reads as the filter holds keys";

/// `filter remove` of a key the filter does not hold: every request of the key is listed, and
/// none is sent (nor the save).
const FILTER_NOT_THERE: &str = "filter remove reads the filter's keys, finds the key given is not among them, and sends nothing for it, nor the save";

/// The key the filter rows add (no demo key).
const NEW_KEY: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

/// `capture`: what its dry run cannot list.
const CAPTURE: &str = "capture reads each item of the data (its data id, signer and what it points at) and then the appendable data an item points at, through a copy of its own: which requests those are depends on the answers";

const ROWS: &[Row] = &[
    row(&["create", NEW_NAME], Sent::Exactly),
    row(&["create", "--put", NEW_NAME], Sent::Exactly),
    row(&["open", "NAME"], Sent::Exactly),
    Row {
        args: &["put", "HANDLE"],
        fresh: true,
        sent: Sent::Exactly,
    },
    row(&["post", "HANDLE"], Sent::Exactly),
    row(&["clear-data", "HANDLE"], Sent::Exactly),
    row(&["clear-data", "--save", "post", "HANDLE"], Sent::Exactly),
    Row {
        args: &["clear-data", "--save", "put", "HANDLE"],
        fresh: true,
        sent: Sent::Exactly,
    },
    row(
        &["clear-deleted-data", "HANDLE"],
        Sent::WithReads(PURGE_NOTE, Reads::Network),
    ),
    row(
        &["clear-deleted-data", "--save", "post", "HANDLE"],
        Sent::Exactly,
    ),
    row(&["metadata", "HANDLE"], Sent::Exactly),
    row(&["reopen", "HANDLE"], Sent::Exactly),
    row(&["reopen", "--drop", "HANDLE"], Sent::Exactly),
    row(&["drop", "HANDLE"], Sent::Exactly),
    // `shell` passes its --dry-run to each line: its line's requests, listed and then sent.
    row(&["shell", "-c", "metadata 1"], Sent::Exactly),
    row(&["remove", "HANDLE", "0", "2"], Sent::Exactly),
    row(&["remove", "--save", "post", "HANDLE", "0"], Sent::Exactly),
    row(
        &["restore", "HANDLE", "0", "1"],
        Sent::WithReads(RESTORE_NOTE, Reads::Network),
    ),
    row(
        &["restore", "--save", "post", "--re-sign", "HANDLE", "1", "0"],
        Sent::WithReads(RESTORE_POST, Reads::Items),
    ),
    row(
        &["purge", "HANDLE", "1"],
        Sent::WithReads(PURGE_NOTE, Reads::Network),
    ),
    // The index check (0), the first save and its read (1, 2), the purges, the save and its read.
    row(
        &["purge", "--save", "post", "HANDLE", "1", "0"],
        Sent::WithReadsLeaving(PURGE_POST, Reads::Network, &[1, 2]),
    ),
    row(
        &["append", "HANDLE", "--structured", NEW_NAME],
        Sent::Exactly,
    ),
    row(&["append", "HANDLE", "--appendable", "NAME"], Sent::Exactly),
    row(&["append", "HANDLE", "--immutable", "FILE"], Sent::Exactly),
    // A name in place of the handle: the copy taken, the change and its save, the copy given
    // back.
    row(&["clear-data", "NAME"], Sent::Exactly),
    row(&["clear-deleted-data", "NAME"], Sent::Exactly),
    row(&["metadata", "NAME"], Sent::Exactly),
    row(&["reopen", "NAME"], Sent::Exactly),
    row(&["remove", "NAME", "0", "2"], Sent::Exactly),
    row(
        &["restore", "--re-sign", "NAME", "1", "0"],
        Sent::WithReads(RESTORE_POST, Reads::Items),
    ),
    row(&["purge", "NAME", "1"], Sent::Exactly),
    row(&["append", "NAME", "--structured", NEW_NAME], Sent::Exactly),
    row(&["append", "NAME", "--immutable", "FILE"], Sent::Exactly),
    row(
        &["capture", "NAME"],
        Sent::WithReads(CAPTURE, Reads::Copies),
    ),
    // The filter's: its metadata, then each key read (unlisted), then the keys sent, the save.
    row(
        &["filter", "add", "HANDLE", NEW_KEY],
        Sent::WithReads(FILTER_KEYS, Reads::Items),
    ),
    row(
        &["filter", "add", "--save", "post", "HANDLE", NEW_KEY],
        Sent::WithReads(FILTER_KEYS, Reads::Items),
    ),
    row(
        &["filter", "add", "NAME", NEW_KEY],
        Sent::WithReads(FILTER_KEYS, Reads::Items),
    ),
    // After the copy taken (0, 1, 2) and the metadata (3): the key's handle, its edit and the
    // handle given back (4, 5, 6), and the save and its read (7, 8).
    row(
        &["filter", "remove", "NAME", NEW_KEY],
        Sent::WithReadsLeaving(FILTER_NOT_THERE, Reads::Items, &[4, 5, 6, 7, 8]),
    ),
    row(&["filter", "type", "HANDLE", "white-list"], Sent::Exactly),
    row(&["filter", "type", "NAME", "white-list"], Sent::Exactly),
];

#[test]
fn every_dry_run_lists_exactly_what_its_run_sends() {
    for row in ROWS {
        check(row);
    }
}

/// Every command whose options include `--dry-run` has a row, and every row is such a command.
#[test]
fn every_command_with_a_dry_run_has_a_row() {
    use ::safe_ad::test_support::cli::{options_of, Opt};
    let offered: Vec<String> = command_paths()
        .into_iter()
        .filter(|path| options_of(path).contains(Opt::DryRun))
        .collect();
    assert!(offered.len() > 10, "clap offers --dry-run on {offered:?}");
    // A command's path is its row's first words (`filter add`).
    let runs = |row: &Row, command: &str| {
        let words: Vec<&str> = command.split(' ').collect();
        row.args.starts_with(&words)
    };
    for command in &offered {
        assert!(
            ROWS.iter().any(|row| runs(row, command)),
            "`{command}` offers --dry-run and has no row"
        );
    }
    for row in ROWS {
        assert!(
            offered.iter().any(|command| runs(row, command)),
            "a row for `{}`, which offers no --dry-run",
            row.args[0]
        );
    }
}

fn check(row: &Row) {
    let sandbox = Sandbox::new();
    let emulator = Emulator::start(&[]);
    let run = |args: &[String]| sandbox.safe_ad().launcher(&emulator.url).args(args).run();
    let handle = match row.fresh {
        true => {
            let created = run(&["create".into(), NEW_NAME.into()]);
            created.success().stdout().trim().to_owned()
        }
        false => "1".to_owned(),
    };
    let name = emulator.demo_name(1);
    let file = sandbox.file("item.txt", "an item of its own\n");
    let args: Vec<String> = (row.args.iter())
        .map(|arg| match *arg {
            "HANDLE" => handle.clone(),
            "NAME" => name.clone(),
            "FILE" => file.display().to_string(),
            other => other.to_owned(),
        })
        .collect();
    let said = args.join(" ");
    let from = emulator.requests().len();
    let mut dry = args.clone();
    dry.push("--dry-run".into());
    let dry = run(&dry);
    let planned: Vec<String> = (dry.success().stdout().lines())
        .filter(|line| !line.starts_with(' ') && !line.is_empty())
        .map(|line| line.replacen(&emulator.url, "", 1))
        .collect();
    assert!(!planned.is_empty(), "{said}: the dry run listed nothing");
    assert_eq!(
        emulator.requests().len(),
        from,
        "{said}: the dry run sent a request"
    );
    let first_new = emulator.next_handle();
    let from = emulator.requests().len();
    run(&args).success();
    let sent: Vec<String> = emulator.requests()[from..]
        .iter()
        .map(|line| line.rsplit_once(' ').expect("a status").0.to_owned())
        .collect();
    let shown = format!("{said}: the dry run listed\n{planned:#?}\nthe run sent\n{sent:#?}");
    match row.sent {
        Sent::Exactly => assert!(
            sent.len() == planned.len()
                && sent
                    .iter()
                    .zip(&planned)
                    .all(|(sent, planned)| matches(sent, planned)),
            "{shown}"
        ),
        Sent::WithReads(why, reads) => {
            with_reads(&sent, &planned, why, reads, &[], &handle, first_new, &shown)
        }
        Sent::WithReadsLeaving(why, reads, left) => with_reads(
            &sent, &planned, why, reads, left, &handle, first_new, &shown,
        ),
    }
    if let Sent::WithReadsLeaving(..) = row.sent {
        dry.check(
            dry.stderr().contains("sent only when"),
            format!("{said}: the dry run does not say which requests are conditional"),
        );
    }
}

/// The check of [`Sent::WithReads`] and [`Sent::WithReadsLeaving`]: the run sent every request
/// the dry run listed but those at `left` (which it must not send), in order, and besides them
/// only reads and give-backs, at least one.
#[allow(clippy::too_many_arguments)]
fn with_reads(
    sent: &[String],
    planned: &[String],
    why: &str,
    reads: Reads,
    left: &[usize],
    handle: &str,
    first_new: u64,
    shown: &str,
) {
    let mut listed = (planned.iter().enumerate())
        .filter(|(at, _)| !left.contains(at))
        .map(|(_, request)| request)
        .peekable();
    let mut unlisted = 0;
    for request in sent {
        if listed
            .next_if(|planned| matches(request, planned))
            .is_some()
        {
            continue;
        }
        assert!(
            is_read_or_give_back(request, handle, reads, first_new),
            "{request} is neither listed nor a read ({why})\n{shown}"
        );
        unlisted += 1;
    }
    assert!(
        listed.peek().is_none(),
        "a listed request was not sent\n{shown}"
    );
    assert!(
        unlisted > 0,
        "no read the dry run could not list ({why})\n{shown}"
    );
}

/// Whether a request the journal holds is the one a dry run printed: the same method, and the
/// same path but where the dry run shows a `{slot}` for a handle an answer gives.
fn matches(sent: &str, planned: &str) -> bool {
    let (Some((method, path)), Some((planned_method, planned_path))) =
        (sent.split_once(' '), planned.split_once(' '))
    else {
        return false;
    };
    let (segments, planned): (Vec<&str>, Vec<&str>) =
        (path.split('/').collect(), planned_path.split('/').collect());
    method == planned_method
        && segments.len() == planned.len()
        && segments.iter().zip(&planned).all(|(segment, planned)| {
            segment == planned
                || (planned.starts_with('{')
                    && planned.ends_with('}')
                    && segment.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// A request that reads, or gives back a handle a read took (a data id, a sign key, a fresh
/// handle): what may come before a plan. With [`Reads::Network`], of the row's own `handle`
/// only the reads of the network a note takes (its data id, its serialised bytes) may go
/// unlisted, so a dry run that left out a read of the handle itself (the index check) is
/// caught; and only a handle made during the run (numbered `first_new` or above) may be given
/// back, never one the run was given.
fn is_read_or_give_back(request: &str, handle: &str, reads: Reads, first_new: u64) -> bool {
    const GIVE_BACKS: [&str; 4] = [
        "DELETE /data-id/",
        "DELETE /sign-key/",
        "DELETE /appendable-data/handle/",
        "DELETE /structured-data/handle/",
    ];
    if reads == Reads::Copies && request == "POST /data-id/appendable-data" {
        return true;
    }
    if let Some(path) = request.strip_prefix("GET ") {
        let on_handle = path.starts_with("/appendable-data/")
            && path.split('/').skip(2).any(|segment| segment == handle);
        return !on_handle
            || reads != Reads::Network
            || path == format!("/appendable-data/serialise/{handle}")
            || path == format!("/appendable-data/data-id/{handle}");
    }
    GIVE_BACKS.iter().any(|route| {
        request
            .strip_prefix(route)
            .and_then(|number| number.parse::<u64>().ok())
            .is_some_and(|number| number >= first_new)
    })
}

#[test]
fn an_unlisted_read_of_the_handle_itself_or_a_give_back_of_it_is_not_let_through() {
    let network = |request| is_read_or_give_back(request, "1", Reads::Network, 6);
    assert!(!network("GET /appendable-data/metadata/1"));
    assert!(!network("GET /appendable-data/1/0"));
    assert!(network("GET /appendable-data/serialise/1"));
    assert!(network("GET /appendable-data/data-id/1"));
    assert!(network("GET /appendable-data/serialise/7"));
    assert!(!network("DELETE /appendable-data/handle/1"));
    assert!(network("DELETE /appendable-data/handle/7"));
    assert!(!network("DELETE /appendable-data/1/0"));
    assert!(is_read_or_give_back(
        "GET /appendable-data/metadata/1",
        "1",
        Reads::Items,
        6
    ));
}
