//! Several users on one network (`safe-ad emulator --user NAME`, issue 53): alice, bob and carol,
//! each a launcher of its own (its own port, token, sign key and handles) over one network, and
//! what the network refused between users refused with safe_core 0.23's codes: alice's inbox
//! with a whitelist, bob let in and appending (his item signed by his key), carol kept out
//! (-25, the network unchanged), bob's clear and post of alice's data refused (-25, the network
//! unchanged), `isOwner` for alice only, another's private items sealed (-11); reaching each
//! user (`-- COMMAND`'s variables, `--background` with `emulator env --user` and `emulator
//! list`); and fixtures that keep users and their keys across an export and an import, and a
//! `--state` file across runs. Every check of the network reads it back by name, through a
//! fresh handle, as the user the check is about.

use serde_json::{json, Value};

use crate::harness::emulator::{emulator_command, path_arg, Emulator, User};
use crate::harness::http::name;
use crate::harness::leftovers::{variables, CiJob};
use crate::harness::*;

const USERS: [&str; 6] = ["--user", "alice", "--user", "bob", "--user", "carol"];

/// An emulator started in `sandbox` with `flags` (and the test token) that serves `users` named
/// users: those of `--user` and those a fixture brings.
fn start_with(sandbox: &Sandbox, flags: &[&str], users: usize) -> Emulator {
    Emulator::spawn_users(
        (sandbox.safe_ad())
            .args(["emulator", "--listen", "127.0.0.1:0", "--token", TOKEN])
            .args(flags)
            .token_may_show(),
        users,
    )
}

/// `safe-ad ARGS --json` as `user`, which must exit 0: its one JSON object.
#[track_caller]
fn json_as(sandbox: &Sandbox, user: &User, args: &[&str]) -> Value {
    let output = user.safe_ad(sandbox).args(args).arg("--json").run();
    output.success();
    let mut lines = output.json_lines();
    assert_eq!(lines.len(), 1, "{}", output.stdout());
    lines.remove(0)
}

/// `user`'s sign key's fingerprint, as `auth whoami` prints it.
#[track_caller]
fn fingerprint(sandbox: &Sandbox, user: &User) -> String {
    let whoami = json_as(sandbox, user, &["auth", "whoami"]);
    whoami["fingerprint"]
        .as_str()
        .expect("fingerprint")
        .to_owned()
}

/// What the network holds of public data `name`, as `user` reads it through a fresh handle.
#[track_caller]
fn shown(sandbox: &Sandbox, user: &User, name: &str) -> Value {
    json_as(sandbox, user, &["show", name])
}

/// The signers' fingerprints of the data items `show` gave.
fn signers(show: &Value) -> Vec<String> {
    show["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|item| item["signer"].as_str().expect("signer").to_owned())
        .collect()
}

/// alice lets `who` append to her data `name`, through the launcher routes the filter commands
/// use: `who`'s key (`GET /sign-key`, serialised) taken into alice's launcher (`POST
/// /sign-key/deserialise`), added to the filter of a fresh copy (`PUT /appendable-data/filter`)
/// and saved (`POST`); each sign-key handle given back.
#[track_caller]
fn let_in(alice: &User, who: &User, name: &str) {
    let theirs = who.http("GET", "/sign-key", None).handle();
    let bytes = who.http("GET", &format!("/sign-key/serialise/{theirs}"), None);
    assert_eq!(bytes.status, 200, "{}", bytes.body);
    who.http("DELETE", &format!("/sign-key/{theirs}"), None)
        .ok();
    let key = alice
        .send(
            "POST",
            "/sign-key/deserialise",
            ("application/octet-stream", &bytes.bytes),
        )
        .handle();
    let body = format!(r#"{{"name":"{name}"}}"#);
    let id = (alice.http("POST", "/data-id/appendable-data", Some(&body))).handle();
    let fetched = alice.http("GET", &format!("/appendable-data/handle/{id}"), None);
    assert_eq!(fetched.status, 200, "{}", fetched.body);
    let copy = fetched.json()["handleId"].as_u64().expect("handleId");
    let filter = format!("/appendable-data/filter/{copy}");
    alice.http("PUT", &filter, Some(&format!("[{key}]"))).ok();
    alice
        .http("POST", &format!("/appendable-data/{copy}"), None)
        .ok();
    for path in [
        format!("/sign-key/{key}"),
        format!("/data-id/{id}"),
        format!("/appendable-data/handle/{copy}"),
    ] {
        alice.http("DELETE", &path, None).ok();
    }
}

/// alice makes an inbox with a whitelist and lets bob in; bob appends, signed by his key; carol
/// is kept out with the launcher's -25 and the network unchanged; bob's clear-data and post of
/// alice's data are refused with -25 and the network unchanged; `isOwner` is alice's alone.
#[test]
fn bob_appends_to_alices_inbox_carol_is_kept_out_and_only_alice_saves_it() {
    let emulator = Emulator::start(&USERS);
    let sandbox = Sandbox::new();
    let (alice, bob, carol) = (
        emulator.user("alice"),
        emulator.user("bob"),
        emulator.user("carol"),
    );
    // Each is a launcher of its own: its own port, token and key; the first is the emulator's.
    assert_eq!(
        (alice.url.as_str(), alice.token.as_str()),
        (emulator.url.as_str(), TOKEN)
    );
    assert!(bob.url != alice.url && carol.url != bob.url && bob.token != carol.token);
    let prints = [alice, bob, carol].map(|user| fingerprint(&sandbox, user));
    assert!(prints[0] != prints[1] && prints[1] != prints[2] && prints[0] != prints[2]);

    // alice's inbox: `create --white-list` makes an empty whitelist, which keeps out every key,
    // her own too (the launcher's create adds no key by itself).
    let inbox = name(0xa1);
    alice
        .safe_ad(&sandbox)
        .args(["create", &inbox, "--put", "--white-list"])
        .run()
        .success();
    let made = shown(&sandbox, alice, &inbox);
    assert_eq!(
        made["filter"],
        serde_json::json!({"type": "WhiteList", "keys": []})
    );
    assert_eq!(made["owners"], serde_json::json!([prints[0]]));
    let_in(alice, bob, &inbox);
    assert_eq!(
        shown(&sandbox, alice, &inbox)["filter"]["keys"],
        serde_json::json!([prints[1]])
    );

    // bob appends: the item is signed by bob's key, whoever reads it.
    let pointer = name(0xb0);
    bob.safe_ad(&sandbox)
        .args(["append", &inbox, "--structured", &pointer])
        .run()
        .success();
    let after_bob = shown(&sandbox, alice, &inbox);
    assert_eq!(signers(&after_bob), [prints[1].clone()]);
    assert_eq!(after_bob["data"][0]["signer_is_you"], false);
    let as_bob = shown(&sandbox, bob, &inbox);
    assert_eq!(signers(&as_bob), [prints[1].clone()]);
    assert_eq!(as_bob["data"][0]["signer_is_you"], true);

    // carol is not on the list: refused with the launcher's -25, and the network unchanged.
    carol
        .safe_ad(&sandbox)
        .args(["append", &inbox, "--structured", &name(0xc0)])
        .run()
        .code(4)
        .stderr_has("errorCode -25, CoreError::MutationFailure::MutationError::InvalidSuccessor");
    assert_eq!(shown(&sandbox, alice, &inbox), after_bob);

    // bob may append, but not save alice's data: a clear by name and a post of his copy are
    // refused with -25 (routing refused a successor its owner did not sign), and the network
    // keeps what it had.
    bob.safe_ad(&sandbox)
        .args(["clear-data", &inbox])
        .run()
        .code(4)
        .stderr_has("errorCode -25")
        // Not taken for another save: the copy said it is not bob's, so it is not made again,
        // and the hint says whose key saves it.
        .stderr_lacks("made again")
        .stderr_has("only its owner's key saves it");
    assert_eq!(shown(&sandbox, alice, &inbox), after_bob);
    let opened = bob.safe_ad(&sandbox).args(["open", &inbox]).run();
    opened.success();
    let handle = opened.stdout().trim().to_owned();
    bob.safe_ad(&sandbox)
        .args(["clear-data", &handle])
        .run()
        .success();
    bob.safe_ad(&sandbox)
        .args(["post", &handle])
        .run()
        .code(4)
        .stderr_has("errorCode -25");
    assert_eq!(shown(&sandbox, alice, &inbox), after_bob);
    // Nor a filter edit: bob toggling the filter of his copy saves nothing either.
    bob.http(
        "PUT",
        &format!("/appendable-data/toggle-filter/{handle}"),
        None,
    )
    .ok();
    bob.http("POST", &format!("/appendable-data/{handle}"), None)
        .error(400, -25);
    assert_eq!(shown(&sandbox, alice, &inbox), after_bob);

    // isOwner: alice only.
    for (user, owner) in [(alice, true), (bob, false), (carol, false)] {
        let metadata = json_as(&sandbox, user, &["metadata", &inbox]);
        assert_eq!(metadata["isOwner"], owner, "{}: {metadata}", user.name);
    }
    // And alice saves her own: a clear by name goes through.
    alice
        .safe_ad(&sandbox)
        .args(["clear-data", &inbox])
        .run()
        .success();
    let cleared = shown(&sandbox, carol, &inbox);
    assert_eq!(
        (
            cleared["dataLength"].clone(),
            cleared["deletedDataLength"].clone()
        ),
        (0.into(), 1.into())
    );
}

/// A private data's items are sealed for its owner: bob appends to alice's, but only alice
/// opens what he wrote; bob's launcher answers -11 (`CoreError::RoutingError`, safe_core's
/// failure to open a sealed item with another's keys), an anonymous app -1520.
#[test]
fn private_items_open_for_their_owner_only() {
    let emulator = Emulator::start(&USERS[..4]);
    let sandbox = Sandbox::new();
    let (alice, bob) = (emulator.user("alice"), emulator.user("bob"));
    let inbox = name(0xa2);
    alice
        .safe_ad(&sandbox)
        .args(["create", &inbox, "--put", "--private"])
        .run()
        .success();
    let opened = bob
        .safe_ad(&sandbox)
        .args(["open", "--private", &inbox])
        .run();
    opened.success();
    let handle = opened.stdout().trim().to_owned();
    bob.safe_ad(&sandbox)
        .args(["append", &handle, "--structured", &name(0xb1)])
        .run()
        .success();
    // Read back through a fresh handle of each.
    let fresh = |user: &User| {
        let opened = user
            .safe_ad(&sandbox)
            .args(["open", "--private", &inbox])
            .run();
        opened.success();
        opened.stdout().trim().to_owned()
    };
    let bobs = fresh(bob);
    bob.http("GET", &format!("/appendable-data/{bobs}/0"), None)
        .error_is(400, -11, "CoreError::RoutingError");
    bob.http("GET", &format!("/appendable-data/sign-key/{bobs}/0"), None)
        .error_is(400, -11, "CoreError::RoutingError");
    let alices = fresh(alice);
    let shown = json_as(&sandbox, alice, &["show", &alices]);
    assert_eq!(signers(&shown), [fingerprint(&sandbox, bob)]);
    assert_eq!(shown["data"][0]["name"], name(0xb1));
}

/// Fixtures keep users: an export lists each user with its key, the owner and signers by user;
/// an import with the users in another order keeps each one's key by name (`auth whoami`), so
/// alice still owns her data and bob's item is still his; an import without `--user` serves the
/// file's users; and a `--state` file keeps them across runs.
#[test]
fn an_export_and_an_import_keep_each_users_key_by_name() {
    let sandbox = Sandbox::new();
    let first = Emulator::start(&USERS);
    let (alice, bob) = (first.user("alice"), first.user("bob"));
    let prints: Vec<String> = [alice, bob, first.user("carol")]
        .iter()
        .map(|user| fingerprint(&sandbox, user))
        .collect();
    let inbox = name(0xa3);
    alice
        .safe_ad(&sandbox)
        .args(["create", &inbox, "--put"])
        .run()
        .success();
    bob.safe_ad(&sandbox)
        .args(["append", &inbox, "--structured", &name(0xb2)])
        .run()
        .success();
    let fixture = sandbox.path().join("users.json");
    alice
        .safe_ad(&sandbox)
        .args(["emulator", "export", path_arg(&fixture)])
        .run()
        .success();
    drop(first);
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(&fixture).expect("the fixture")).unwrap();
    let names: Vec<&str> = (file["users"].as_array().expect("users").iter())
        .map(|user| user["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["alice", "bob", "carol"]);
    let data = (file["appendableData"].as_array().expect("appendableData"))
        .iter()
        .find(|data| data["name"] == inbox.as_str())
        .expect("the inbox");
    assert_eq!(
        (data["owner"].as_str(), data["data"][0]["signedBy"].as_str()),
        (Some("alice"), Some("bob"))
    );

    // Imported with the users in another order: each keeps its key by name.
    let path = path_arg(&fixture);
    let second = start_with(
        &sandbox,
        &["--import", path, "--user", "bob", "--user", "alice"],
        3,
    );
    let (alice, bob, carol) = (
        second.user("alice"),
        second.user("bob"),
        second.user("carol"),
    );
    assert_eq!(bob.url, second.url, "bob is the first user now");
    for (user, print) in [(alice, &prints[0]), (bob, &prints[1]), (carol, &prints[2])] {
        assert_eq!(&fingerprint(&sandbox, user), print, "{}", user.name);
    }
    assert_eq!(
        json_as(&sandbox, alice, &["metadata", &inbox])["isOwner"],
        true
    );
    assert_eq!(
        json_as(&sandbox, bob, &["metadata", &inbox])["isOwner"],
        false
    );
    assert_eq!(
        signers(&shown(&sandbox, alice, &inbox)),
        [prints[1].clone()]
    );
    drop(second);

    // Imported without --user: the file's users, in its order.
    let third = start_with(&sandbox, &["--import", path], 3);
    let served: Vec<&str> = third.users.iter().map(|user| user.name.as_str()).collect();
    assert_eq!(served, ["alice", "bob", "carol"]);
    assert_eq!(fingerprint(&sandbox, third.user("bob")), prints[1]);
    drop(third);

    // A --state file keeps them across runs.
    let state = sandbox.path().join("state.json");
    let state_arg = path_arg(&state);
    let run = start_with(
        &sandbox,
        &["--state", state_arg, "--user", "dora", "--user", "eve"],
        2,
    );
    let dora = fingerprint(&sandbox, run.user("dora"));
    let eve = fingerprint(&sandbox, run.user("eve"));
    run.stop();
    let again = start_with(&sandbox, &["--state", state_arg], 2);
    assert_eq!(fingerprint(&sandbox, again.user("dora")), dora);
    assert_eq!(fingerprint(&sandbox, again.user("eve")), eve);
}

/// A fixture names users it serves by name: an owner and a signer given by user name are those
/// users' keys (carol, named only on the command line, too), and a name nobody has is refused
/// before anything is served, naming the value.
#[test]
fn a_fixture_names_owners_and_signers_by_user() {
    let sandbox = Sandbox::new();
    let inbox = name(0xa4);
    let fixture = sandbox.file(
        "named.json",
        serde_json::json!({
            "format": "safe-ad-emulator-state/1",
            "users": [{"name": "bob", "signKey": name(0x0b)}],
            "appendableData": [{
                "name": inbox, "version": 0, "filterType": "BlackList", "owner": "carol",
                "data": [{"structuredData": {"name": name(0xb3), "typeTag": 500}, "signedBy": "bob"}]
            }]
        })
        .to_string(),
    );
    let path = path_arg(&fixture);
    let emulator = start_with(&sandbox, &["--import", path, "--user", "carol"], 2);
    let (carol, bob) = (emulator.user("carol"), emulator.user("bob"));
    assert_eq!(
        json_as(&sandbox, carol, &["metadata", &inbox])["isOwner"],
        true
    );
    assert_eq!(
        json_as(&sandbox, bob, &["metadata", &inbox])["isOwner"],
        false
    );
    let bobs = json_as(&sandbox, bob, &["auth", "whoami"]);
    assert_eq!(bobs["key"], name(0x0b), "bob's key is the file's");
    assert_eq!(
        signers(&shown(&sandbox, carol, &inbox)),
        [fingerprint(&sandbox, bob)]
    );
    drop(emulator);

    emulator_command(&sandbox)
        .args(["--import", path, "--user", "dora"])
        .run()
        .code(2)
        .stderr_has("appendableData[0].owner: no user is named `carol` (users: dora, bob;");
}

/// Reaching each user: `-- COMMAND` gets each user's URL and token as
/// `SAFE_AD_EMULATOR_USER_<NAME>_URL` and `_TOKEN` beside the first user's `SAFE_LAUNCHER_*`;
/// a user name that cannot name variables is refused (exit 2).
#[test]
fn a_command_reaches_each_user_by_its_variables() {
    let sandbox = Sandbox::new();
    let script = "safe-ad auth whoami; \
        SAFE_LAUNCHER_URL=$SAFE_AD_EMULATOR_USER_BOB_URL \
        SAFE_LAUNCHER_TOKEN=$SAFE_AD_EMULATOR_USER_BOB_TOKEN safe-ad auth whoami; \
        SAFE_LAUNCHER_URL=$SAFE_AD_EMULATOR_USER_ALICE_URL \
        SAFE_LAUNCHER_TOKEN=$SAFE_AD_EMULATOR_USER_ALICE_TOKEN safe-ad auth whoami";
    let bin = safe_ad_bin().parent().expect("the binary's directory");
    let output = emulator_command(&sandbox)
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .args([
            "--empty", "--user", "alice", "--user", "bob", "--", "sh", "-c", script,
        ])
        .token_may_show()
        .run();
    output.success();
    let prints: Vec<&str> = output.stdout().lines().collect();
    assert_eq!(prints.len(), 3, "{}", output.stdout());
    assert_eq!(prints[0], prints[2], "SAFE_LAUNCHER_* is alice's");
    assert!(prints[0] != prints[1], "bob's key is his own");

    for bad in ["Alice", "a-b", "1st"] {
        emulator_command(&sandbox)
            .args(["--user", bad, "--", "true"])
            .run()
            .code(2)
            .stderr_has(&format!("--user: `{bad}` is not a user name"));
    }
    emulator_command(&sandbox)
        .args(["--user", "bob", "--user", "bob", "--", "true"])
        .run()
        .code(2)
        .stderr_has("--user: `bob` is given twice");
}

/// A background emulator with users: `--background` prints the first user's four variables, as
/// ever; `emulator env --user NAME` prints the same four for another user (in both formats),
/// and they reach that user's launcher; a name it does not serve is exit 1; `emulator list`
/// names each one's users, in its table and its JSON.
#[test]
fn env_and_list_reach_a_background_emulators_users() {
    let job = CiJob::new();
    let started = job.background(&["--user", "alice", "--user", "bob"]);
    let first = variables(started.stdout());
    assert_eq!(first.len(), 4, "{}", started.stdout());
    let pid = first["SAFE_AD_EMULATOR_PID"].clone();
    let whoami = |vars: &std::collections::BTreeMap<String, String>| {
        let mut run = job.safe_ad().args(["auth", "whoami"]);
        for (name, value) in vars {
            run = run.env(name, value);
        }
        let output = run.run();
        output.success();
        output.stdout().trim().to_owned()
    };
    let alice = whoami(&first);

    let env = |args: &[&str]| job.safe_ad().args(["emulator", "env"]).args(args).run();
    let own = env(&["--pid", &pid, "--user", "alice"]);
    own.success();
    assert_eq!(own.stdout(), started.stdout(), "alice is the first user");
    let bobs = env(&["--pid", &pid, "--user", "bob"]);
    bobs.success();
    let bob = variables(bobs.stdout());
    assert_eq!(bob.len(), 4, "{}", bobs.stdout());
    assert!(bob["SAFE_LAUNCHER_URL"] != first["SAFE_LAUNCHER_URL"]);
    assert_eq!(bob["SAFE_AD_EMULATOR_PID"], pid);
    assert!(
        whoami(&bob) != alice,
        "bob's variables reach bob's launcher"
    );
    let file = env(&["--pid", &pid, "--user", "bob", "--format", "env"]);
    file.success();
    assert_eq!(variables(file.stdout()), bob);
    assert!(!file.stdout().contains("export "));
    env(&["--pid", &pid, "--user", "carol"])
        .code(1)
        .stdout_is("")
        .stderr_has(&format!(
            "process {pid} serves no user `carol` (its users: alice, bob;"
        ));

    let list = job.safe_ad().args(["emulator", "list"]).run();
    list.success();
    let header = list.stdout().lines().next().expect("the header");
    assert!(header.ends_with("USERS"), "{header}");
    assert!(
        list.stdout()
            .lines()
            .nth(1)
            .expect("a row")
            .ends_with("alice,bob"),
        "{}",
        list.stdout()
    );
    let json = job.safe_ad().args(["emulator", "list", "--json"]).run();
    json.success();
    let listed = &json.json_lines()[0];
    assert_eq!(
        listed["users"][0],
        serde_json::json!({"name": "alice", "url": first["SAFE_LAUNCHER_URL"]})
    );
    assert_eq!(listed["users"][1]["name"], "bob");
    assert_eq!(
        listed["users"][1]["url"].as_str(),
        Some(bob["SAFE_LAUNCHER_URL"].as_str())
    );

    job.safe_ad()
        .args(["emulator", "--stop", "--pid", &pid])
        .run()
        .success();
}

/// The exchange the filter is for, with safe-ad's own commands, each step read back on the
/// network through a fresh handle: alice makes an inbox with a whitelist and lets bob in by the
/// key he gives her (`auth whoami --key`, `filter add`); bob's item is signed by bob's key;
/// carol is refused with the launcher's -25 and the network is unchanged; bob cannot clear
/// alice's data; `isOwner` is alice's alone; alice removes bob's item by its signer and takes bob
/// off the list (`filter remove`), after which bob is refused too.
#[test]
fn an_inbox_with_the_filter_commands_alice_lets_bob_in_and_takes_him_out() {
    let emulator = Emulator::start(&USERS);
    let sandbox = Sandbox::new();
    let (alice, bob, carol) = (
        emulator.user("alice"),
        emulator.user("bob"),
        emulator.user("carol"),
    );
    let run = |user: &User, args: &[&str]| user.safe_ad(&sandbox).args(args).run();
    let made = run(alice, &["create", "--put", "--white-list", "--jq", ".name"]);
    let inbox = made.success().stdout().trim().to_owned();
    let bobs_key = run(bob, &["auth", "whoami", "--key"]);
    let bobs_key = bobs_key.success().stdout().trim().to_owned();
    let bob_fp = fingerprint(&sandbox, bob);
    run(alice, &["filter", "add", &inbox, &bobs_key]).success();
    let filter = json_as(&sandbox, alice, &["filter", "show", &inbox]);
    assert_eq!(filter["filter"]["type"], "WhiteList", "{filter}");
    assert_eq!(filter["filter"]["keys"], json!([bob_fp]), "{filter}");

    // bob appends: the item is on the network, signed by bob's key.
    const BOBS: &str = "YSBub3RlIGZyb20gYm9iLi4uLi4uLi4uLi4uLi4uLi4=";
    const CAROLS: &str = "YSBub3RlIGZyb20gY2Fyb2wuLi4uLi4uLi4uLi4uLi4=";
    const BOBS_SECOND: &str = "Ym9iIGFnYWluLi4uLi4uLi4uLi4uLi4uLi4uLi4uLi4=";
    run(bob, &["append", &inbox, "--structured", BOBS]).success();
    let after_bob = shown(&sandbox, alice, &inbox);
    assert_eq!(
        signers(&after_bob),
        std::slice::from_ref(&bob_fp),
        "{after_bob}"
    );

    // carol is not on the whitelist: the launcher's -25, and the network as it was.
    run(carol, &["append", &inbox, "--structured", CAROLS])
        .code(4)
        .stderr_has("errorCode -25");
    assert_eq!(shown(&sandbox, alice, &inbox), after_bob);

    // bob may append, not save: his clear of alice's data is refused, the network unchanged;
    // so is a removal of his own item by what it is, which is not made again as if another
    // save had come first (the copy read as alice's).
    run(bob, &["clear-data", &inbox])
        .code(4)
        .stderr_has("errorCode -25");
    run(bob, &["remove", &inbox, "--signed-by", &bob_fp])
        .code(4)
        .stderr_has("errorCode -25")
        .stderr_lacks("made again");
    assert_eq!(shown(&sandbox, alice, &inbox), after_bob);

    // isOwner: alice's alone.
    for (user, owner) in [(alice, true), (bob, false), (carol, false)] {
        let metadata = json_as(&sandbox, user, &["metadata", &inbox]);
        assert_eq!(metadata["isOwner"], owner, "{}: {metadata}", user.name);
    }

    // alice removes what bob wrote, by its signer, and takes bob off the list.
    run(alice, &["remove", &inbox, "--signed-by", &bob_fp]).success();
    run(alice, &["filter", "remove", &inbox, &bob_fp]).success();
    let after = shown(&sandbox, alice, &inbox);
    assert_eq!(after["data"], json!([]), "{after}");
    assert_eq!(after["deleted_data"].as_array().map(Vec::len), Some(1));
    assert_eq!(after["filter"]["keys"], json!([]), "{after}");

    // bob, off the list, is refused now (an item never appended before, so only the filter
    // can refuse it), and the network is as alice left it.
    run(bob, &["append", &inbox, "--structured", BOBS_SECOND])
        .code(4)
        .stderr_has("errorCode -25");
    assert_eq!(shown(&sandbox, alice, &inbox), after);
}

/// `capture` keeps another's data as another's: bob's inbox captured by alice is in the fixture
/// with bob's key as its owner (`ownerKey`), nothing left out, so an emulator that imports it
/// does not make its own user the owner (before, capture left the owner out and the imported
/// data was the first user's).
#[test]
fn capture_keeps_anothers_data_with_its_owners_key() {
    let emulator = Emulator::start(&USERS);
    let sandbox = Sandbox::new();
    let (alice, bob) = (emulator.user("alice"), emulator.user("bob"));
    let made = (bob.safe_ad(&sandbox))
        .args(["create", "--put", "--jq", ".name"])
        .run();
    let name = made.success().stdout().trim().to_owned();
    let bobs_key = bob
        .safe_ad(&sandbox)
        .args(["auth", "whoami", "--key"])
        .run();
    let bobs_key = bobs_key.success().stdout().trim().to_owned();
    let fixture = sandbox.path().join("fixture.json");
    (alice.safe_ad(&sandbox))
        .args(["capture", &name, "-o", path_arg(&fixture)])
        .run()
        .success()
        .stderr_has("nothing left out");
    let written: Value =
        serde_json::from_slice(&std::fs::read(&fixture).expect("the fixture")).expect("JSON");
    assert_eq!(written["appendableData"][0]["ownerKey"], bobs_key.as_str());
    let imported = Emulator::start_in(&sandbox, &["-q", "--import", path_arg(&fixture)]);
    let metadata = (sandbox.safe_ad().launcher(&imported.url))
        .args(["metadata", &name, "--json"])
        .run();
    assert_eq!(metadata.success().json_lines()[0]["isOwner"], false);
}
