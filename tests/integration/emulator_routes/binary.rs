//! The binary: its two lines and a clean stop on SIGTERM, loopback only, `-- COMMAND` mode (env,
//! exit code, stdout kept clean, serving while the command runs, signals, a missing command), the
//! demo banner, and an unread stderr that never stalls it.

use super::*;

// ---- the binary -------------------------------------------------------------------------------

/// `safe-ad emulator --listen 127.0.0.1:0 --token <token>`, started, with the address from its
/// first line and the second line checked.
fn spawn_binary(token: &str, safe_ad: SafeAd) -> (Running, SocketAddr) {
    let mut running = safe_ad
        .args(["emulator", "--listen", "127.0.0.1:0", "--token", token])
        .spawn();
    let url = running.line();
    let url = url
        .strip_prefix("SAFE_LAUNCHER_URL=")
        .unwrap_or_else(|| panic!("first line: {url}"))
        .to_owned();
    assert_eq!(running.line(), format!("SAFE_LAUNCHER_TOKEN={token}"));
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let addr: SocketAddr = url["http://".len()..].parse().expect("host:port");
    (running, addr)
}

#[test]
fn binary_prints_two_lines_serves_and_stops_cleanly_on_sigterm() {
    let (running, addr) = spawn_binary("abc123", SafeAd::new());
    send(
        addr,
        "PUT",
        "/appendable-data/0",
        &[("Authorization", "Bearer abc123")],
        None,
    )
    .ok();
    running.terminate();
    running.wait().code(0);
}

#[test]
fn binary_refuses_a_non_loopback_address_with_exit_2() {
    for listen in ["0.0.0.0:8100", "192.0.2.1:8100", "example.com:80"] {
        SafeAd::new()
            .args(["emulator", "--listen", listen])
            .run()
            .code(2)
            .stdout_is("")
            .stderr_has("--listen");
    }
}

#[test]
fn command_mode_passes_env_and_exit_code_and_keeps_stdout_clean() {
    let out = SafeAd::new()
        .env("PATH", "/usr/bin:/bin")
        .args(["emulator", "--token", "tok", "--"])
        .args([
            "sh",
            "-c",
            r#"printf '%s\n%s\n' "$SAFE_LAUNCHER_URL" "$SAFE_LAUNCHER_TOKEN"; exit 7"#,
        ])
        .run();
    let lines: Vec<&str> = out.code(7).stdout().lines().collect();
    out.check(lines.len() == 2, "more than the command's output on stdout")
        .check(
            lines[0].starts_with("http://127.0.0.1:"),
            "the first line is not the URL",
        )
        .check(
            lines[0] != "http://127.0.0.1:8100",
            "the default port, not a free one",
        )
        .check(lines[1] == "tok", "the second line is not the token");

    SafeAd::new()
        .env("PATH", "/usr/bin:/bin")
        .args(["emulator", "--empty", "--", "true"])
        .run()
        .success()
        .stdout_is("")
        .stderr_is("");
}

#[test]
fn command_mode_serves_the_command_while_it_runs() {
    let sandbox = Sandbox::new();
    let (reader, mut writer) = sandbox.fifo("command-input");
    let mut running = sandbox
        .safe_ad()
        .env("PATH", "/usr/bin:/bin")
        .args(["emulator", "--"])
        .args([
            "sh",
            "-c",
            r#"echo "$SAFE_LAUNCHER_URL $SAFE_LAUNCHER_TOKEN"; read line; exit 3"#,
        ])
        .stdin_from(reader)
        .spawn();
    let line = running.line();
    let (url, token) = line.trim().split_once(' ').expect("url and token");
    let addr: SocketAddr = url["http://".len()..].parse().expect("addr");
    let auth = format!("Bearer {token}");
    send(
        addr,
        "PUT",
        "/appendable-data/0",
        &[("Authorization", &auth)],
        None,
    )
    .ok();
    send(
        addr,
        "DELETE",
        "/appendable-data/clear-data/1",
        &[("Authorization", &auth)],
        None,
    )
    .ok();
    send(
        addr,
        "POST",
        "/appendable-data/1",
        &[("Authorization", &auth)],
        None,
    )
    .ok();
    writer.write_all(b"done\n").expect("write");
    drop(writer);
    // No request log in this mode, only the demo banner.
    running
        .wait()
        .code(3)
        .stderr_has("handle 0")
        .stderr_lacks("/appendable-data/0 200");
    // The emulator is gone with the command.
    assert!(TcpStream::connect(addr).is_err());
}

/// The demo banner says what to try with safe-ad commands, not the launcher's raw routes.
#[test]
fn the_demo_banner_names_safe_ad_commands_not_routes() {
    let output = SafeAd::new()
        .env("PATH", "/usr/bin:/bin")
        .args(["emulator", "--", "true"])
        .run();
    output
        .success()
        .stderr_has("Try: safe-ad show 5 --full")
        .stderr_has("safe-ad reopen 1")
        .stderr_has("for safe-ad open NAME)");
    for route in ["GET /", "POST /", "PUT /", "DELETE /"] {
        output.stderr_lacks(route);
    }
}

#[test]
fn command_mode_signal_and_missing_command() {
    SafeAd::new()
        .env("PATH", "/usr/bin:/bin")
        .args(["emulator", "--empty", "--", "sh", "-c", "kill -9 $$"])
        .run()
        .code(137);

    SafeAd::new()
        .args([
            "emulator",
            "--empty",
            "--",
            "/nonexistent/safe-ad-test-command",
        ])
        .run()
        .code(127)
        .stderr_has("cannot run");
}

#[test]
fn an_unread_stderr_never_stalls_serving_or_stopping() {
    // stderr is a pipe nobody reads: the request log fills it, and the server must not notice.
    let (running, addr) = spawn_binary("t", SafeAd::new().stderr_unread());
    let stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(DEADLINE)).expect("timeout");
    let mut writer = stream.try_clone().expect("clone");
    let mut reader = BufReader::new(stream);
    // About 200 kB of log lines, three times what a pipe holds.
    for _ in 0..4000 {
        writer
            .write_all(&request_bytes(
                "DELETE",
                "/appendable-data/clear-data/1",
                &[("Authorization", "Bearer t")],
                None,
                false,
            ))
            .expect("write");
        read_one(&mut reader).ok();
    }
    running.terminate();
    running.wait().code(0);
}
