//! `status` gives back every handle it obtains: under injected faults, after Ctrl-C while a
//! fetch or a read is in flight, and when a drop's answer is lost (its drop not sent again).

use super::*;

#[test]
fn injected_faults_fail_a_status_and_leave_no_handle_behind() {
    let sandbox = Sandbox::new();
    let mut failed = 0;
    for seed in ["1", "2", "3", "4", "5", "6"] {
        let (emulator, log) = emulator(&sandbox, &["--fault-rate", "0.5", "--fault-seed", seed]);
        let before = emulator.live_handles(&log);
        let output = run(
            &sandbox,
            &emulator.url,
            &["--retries", "0", "--timeout", "10", "status", "1", "2", "0"],
        );
        let code = output.exit_code().expect("an exit code");
        output.check(
            [4, 5, 6, 7].contains(&code),
            "status under faults ends in differs or a failure's code",
        );
        if code != 7 {
            failed += 1;
        }
        assert_eq!(
            emulator.live_handles(&log),
            before,
            "handles left behind with --fault-seed {seed}"
        );
    }
    assert!(failed > 0, "no run met a fault: the test tested nothing");
}

#[test]
fn ctrl_c_while_the_fresh_fetch_is_in_flight_gives_back_what_it_brings() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    let relay = Relay::holding(emulator.addr(), 0, |line| {
        line.starts_with("GET /appendable-data/handle/")
    });
    let output = relay.stop_while_held(
        sandbox.safe_ad().args(["status", "1", "2"]),
        Running::interrupt,
    );
    output
        .code(130)
        .stdout_is("")
        .stderr_has("safe-ad: error: interrupted; no new requests were sent, and every launcher handle it had obtained was given back");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

#[test]
fn ctrl_c_while_the_networks_items_are_read_gives_back_every_handle() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    let before = emulator.live_handles(&log);
    // The copy and the network are read at once (issue 30): hold the network's reading, the
    // fresh handle's serialised bytes, while the copy's items are read.
    let relay = Relay::holding(emulator.addr(), 0, |line| {
        line.starts_with("GET /appendable-data/serialise/")
    });
    relay
        .stop_while_held(
            sandbox.safe_ad().args(["status", "--jobs", "1", "1"]),
            Running::interrupt,
        )
        .code(130)
        .stdout_is("")
        .stderr_has("every launcher handle it had obtained was given back");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}

#[test]
fn a_fresh_handle_whose_drop_answer_was_lost_is_named_and_its_drop_not_sent_again() {
    let sandbox = Sandbox::new();
    let (emulator, log) = emulator(&sandbox, &[]);
    // New data holding no items: the one appendable-data handle status drops is its fresh one.
    let created = run(&sandbox, &emulator.url, &["create", "--put"]);
    let handle = created.success().stdout().trim().to_owned();
    let before = emulator.live_handles(&log);
    // The launcher drops it; the answer is lost.
    let proxy = LosingProxy::losing_first(emulator.addr(), "DELETE /appendable-data/handle/");
    let output = sandbox
        .safe_ad()
        .launcher(&proxy.url)
        .args(["--retries", "2", "status", &handle])
        .run();
    output
        .code(6)
        .stdout_is("")
        .stderr_has(&format!("safe-ad: error: status {handle}: drop "))
        .stderr_has("launcher handle it obtained may be left in the launcher:")
        .stderr_has(&format!(": DELETE {}/appendable-data/handle/", proxy.url));
    // Not sent again; and the one named was in fact dropped (its answer only was lost).
    let drops = proxy
        .requests()
        .into_iter()
        .filter(|line| line.starts_with("DELETE /appendable-data/handle/"))
        .count();
    assert_eq!(drops, 1, "the drop was sent again");
    assert_eq!(emulator.live_handles(&log), before, "handles left behind");
}
