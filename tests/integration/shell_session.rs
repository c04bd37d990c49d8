//! A `shell` session is one process with one runtime and one HTTP client for all its lines:
//! lines that reach a launcher the same way send on one kept connection, as `curl -K` does;
//! each launcher a script reaches keeps its own; and a connection the launcher closed between
//! two lines is replaced without a line failing. Counted by a raw launcher on loopback, which
//! sees every connection a client opens.

use crate::harness::*;

/// `count` lines of `metadata 1`, one per line.
fn metadata_lines(count: usize) -> String {
    vec!["metadata 1"; count].join("\n")
}

#[test]
fn the_lines_of_a_script_send_on_one_kept_connection() {
    let launcher = RawLauncher::start(serve_saves);
    SafeAd::new()
        .launcher(&launcher.url)
        .args(["shell", "-c", &metadata_lines(20)])
        .run()
        .success();
    assert_eq!(launcher.requests().len(), 20, "{:?}", launcher.requests());
    assert_eq!(launcher.connections(), 1, "{:?}", launcher.requests());
}

#[test]
fn each_launcher_a_script_reaches_keeps_its_own_connection() {
    let (a, b) = (
        RawLauncher::start(serve_saves),
        RawLauncher::start(serve_saves),
    );
    let script: Vec<String> = (0..6)
        .map(|at| {
            let url = if at % 2 == 0 { &a.url } else { &b.url };
            format!("metadata --launcher-url {url} 1")
        })
        .collect();
    SafeAd::new()
        .launcher(&a.url)
        .args(["shell", "-c", &script.join("\n")])
        .run()
        .success();
    for launcher in [&a, &b] {
        assert_eq!(launcher.requests().len(), 3, "{:?}", launcher.requests());
        assert_eq!(launcher.connections(), 1, "{:?}", launcher.requests());
    }
}

/// A launcher that closes each connection once it has answered (a keep-alive timeout while a
/// person thinks at the prompt): each line is written only once the close has happened, and
/// finds the connection kept by the line before closed, and opens another, none failing.
#[cfg(feature = "emulator")]
#[test]
fn a_connection_the_launcher_closed_between_lines_is_replaced() {
    use std::io::Write;
    let launcher = RawLauncher::answering(METADATA_ANSWER);
    let (reader, mut writer) = std::io::pipe().expect("a pipe");
    let running = SafeAd::new()
        .launcher(&launcher.url)
        .arg("shell")
        .stdin_from(reader)
        .spawn();
    for line in 1..=5 {
        writer.write_all(b"metadata 1\n").expect("a line written");
        launcher.wait_for_requests(line);
        // Answered and closed by the launcher before the next line is written.
        launcher.settle();
    }
    drop(writer);
    running.wait().success();
    assert_eq!(launcher.requests().len(), 5, "{:?}", launcher.requests());
    assert_eq!(launcher.connections(), 5);
}
