//! How the emulator takes requests: health and prefixes, unknown routes and methods (404),
//! keep-alive connections, strict handle parsing in paths.

use super::*;

// ---- basics -----------------------------------------------------------------------------------

#[test]
fn health_and_prefixes() {
    let emu = Emu::demo();
    // `/health` is mounted at the root only, as the launcher had it.
    emu.anon("GET", "/health").ok();
    for prefix in ["/0.5", "/0.6"] {
        emu.anon("GET", &format!("{prefix}/health"))
            .is(404, "application/json", NOT_FOUND);
    }
    for prefix in ["", "/0.5", "/0.6"] {
        // The same state behind every prefix.
        let r = emu.anon("GET", &format!("{prefix}/appendable-data/metadata/1"));
        assert_eq!(r.status, 200, "{prefix}");
    }
    let head = emu.anon("HEAD", "/health");
    assert_eq!((head.status, head.body.as_str()), (200, ""));
    emu.authed("PUT", "/0.5/appendable-data/0").ok();
    emu.authed("PUT", "/0.6/appendable-data/0")
        .is(400, "application/json", DATA_EXISTS);
}

#[test]
fn unknown_routes_and_methods_are_404() {
    let emu = Emu::demo();
    let strict = Emu::with(Options {
        strict_paths: true,
        ..Options::default()
    });
    for (method, path) in [
        ("GET", "/"),
        ("GET", "/nope"),
        ("GET", "/0.7/health"),
        ("GET", "/0.5"),
        ("GET", "/appendable-data/1"),
        ("PATCH", "/appendable-data/1"),
        ("PUT", "/appendable-data/"),
        ("DELETE", "/appendable-data/clear-data"),
        ("DELETE", "/appendable-data/clear-data/"),
        ("DELETE", "/appendable-data/clear-data/1/2"),
        ("PUT", "/auth"),
    ] {
        // (`GET /appendable-data/clear-data/1` is not here: it is the data-id-at-index route
        // with a handle of "clear-data", a 400.)
        for emu in [&emu, &strict] {
            let r = emu.authed(method, path);
            assert_eq!(r.status, 404, "{method} {path}");
            r.is(404, "application/json", NOT_FOUND);
        }
    }
    // The launcher's matching (the default) lets a trailing slash, any case and any method on
    // /health through; --strict-paths does not.
    for (method, path) in [
        ("GET", "/health/"),
        ("PUT", "/appendable-data/1/"),
        ("GET", "/Appendable-Data/metadata/1"),
    ] {
        assert_ne!(emu.authed(method, path).status, 404, "{method} {path}");
        strict
            .authed(method, path)
            .is(404, "application/json", NOT_FOUND);
    }
    emu.authed("POST", "/health").ok();
    strict.authed("POST", "/health").ok();
}

#[test]
fn keep_alive_serves_many_requests_on_one_connection() {
    let emu = Emu::demo();
    let stream = TcpStream::connect(emu.addr).expect("connect");
    stream.set_read_timeout(Some(DEADLINE)).expect("timeout");
    let mut writer = stream.try_clone().expect("clone");
    let mut reader = BufReader::new(stream);
    let auth = emu.bearer();
    for round in 0..50 {
        let path = if round % 2 == 0 {
            "/appendable-data/clear-data/1"
        } else {
            "/appendable-data/clear-deleted-data/1"
        };
        writer
            .write_all(&request_bytes(
                "DELETE",
                path,
                &[("Authorization", &auth)],
                None,
                false,
            ))
            .expect("write");
        read_one(&mut reader).ok();
    }
    // Pipelined requests are answered in order.
    let mut both = request_bytes("GET", "/health", &[], None, false);
    both.extend(request_bytes("GET", "/nope", &[], None, false));
    writer.write_all(&both).expect("write");
    read_one(&mut reader).ok();
    read_one(&mut reader).is(404, "application/json", NOT_FOUND);
}

#[test]
fn strict_handle_parsing_in_paths() {
    let emu = Emu::with(Options {
        strict_paths: true,
        ..Options::default()
    });
    for (method, prefix) in FOUR {
        for bad in [
            "-1",
            "+1",
            "01",
            "00",
            "010",
            "0x1",
            "1a",
            "12abc",
            "1.0",
            "%31",
            "1e2",
            "18446744073709551616",
            "99999999999999999999",
        ] {
            let r = emu.authed(method, &format!("{prefix}{bad}"));
            let description = r.error(400, 400);
            assert!(description.contains("plain decimal"), "{description}");
        }
    }
    for path in ["/appendable-data/metadata/01", "/appendable-data/handle/-3"] {
        emu.authed("GET", path).error(400, 400);
    }
    emu.authed("DELETE", "/appendable-data/1/01")
        .error(400, 400);
    emu.authed("PUT", "/appendable-data/1/0x3").error(400, 400);
    emu.authed("DELETE", "/appendable-data/handle/1x")
        .error(400, 400);
    // Auth is checked before the handle.
    emu.anon("PUT", "/appendable-data/01")
        .is(401, "application/json", NO_TOKEN);
    // Nothing was touched: the demo state is intact.
    assert_eq!(counts(&emu.meta(1)), (1, 3, 2));
}
