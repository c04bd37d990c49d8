//! Every lease, whatever interrupts it: against a wiremock launcher that answers the chains of
//! `show` and `append --immutable --encrypt asymmetric`, one handle-making request of each kind
//! (appendable data, structured data, data id of an item and of a writer's close, sign key,
//! cipher options, encrypt key, immutable-data writer and reader) is held in flight while two
//! signals (SIGINT twice, or SIGINT then SIGTERM) end the run, or is answered 200 with a body
//! that holds no readable handle. Either way the handle it may have made is named on stderr
//! (and under `--json` in `left_behind`) with its own kind and the request that frees it, and
//! the exit code is not 0, and no line says that everything was given back.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

use crate::harness::*;

/// What the launcher does with the target request.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    /// Never answers it (within the test).
    Hang,
    /// Answers it 200 with a body that holds no handle.
    Garble,
}

/// A sign key as the launcher serialises it.
fn key_bytes(byte: u8) -> Vec<u8> {
    let mut bytes = 32u64.to_le_bytes().to_vec();
    bytes.extend([byte; 32]);
    bytes
}

/// A data id of `variant` (0 structured, 1 immutable, 2 public appendable).
fn data_id(variant: u8) -> Vec<u8> {
    let mut bytes = vec![variant, 0, 0, 0];
    bytes.extend([variant + 0x10; 32]);
    if variant == 0 {
        bytes.extend(500u64.to_le_bytes());
    }
    bytes
}

/// The launcher's answer to `method path`: handle 7 holds three items, a structured data (its
/// data id 30), an immutable data (31) and an appendable data (32).
fn answer(method: &str, path: &str) -> ResponseTemplate {
    let handle = |n: u64| ResponseTemplate::new(200).set_body_json(json!({ "handleId": n }));
    let raw =
        |bytes: Vec<u8>| ResponseTemplate::new(200).set_body_raw(bytes, "application/octet-stream");
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match (method, parts.as_slice()) {
        ("GET", ["appendable-data", "metadata", "7"]) => {
            ResponseTemplate::new(200).set_body_json(json!({
                "isOwner": true, "version": 1, "filterType": "BlackList",
                "filterLength": 0, "dataLength": 3, "deletedDataLength": 0,
            }))
        }
        ("GET", ["sign-key"]) => handle(25),
        ("GET", ["sign-key", "serialise", _]) => raw(key_bytes(1)),
        ("GET", ["appendable-data", "sign-key", "7", i]) => {
            handle(50 + i.parse::<u64>().unwrap_or(0))
        }
        ("GET", ["appendable-data", "encrypt-key", "7"]) => handle(22),
        ("GET", ["appendable-data", "7", i]) => handle(30 + i.parse::<u64>().unwrap_or(0)),
        ("GET", ["data-id", n]) => raw(data_id(n.parse::<u8>().unwrap_or(30).saturating_sub(30))),
        ("GET", ["structured-data", "handle", _]) => ResponseTemplate::new(200)
            .set_body_json(json!({ "handleId": 40, "isOwner": false, "version": 0 })),
        ("GET", ["structured-data", _]) | ("GET", ["immutable-data", "41"]) => {
            raw(b"hello".to_vec())
        }
        ("GET", ["immutable-data", "reader", _]) => {
            ResponseTemplate::new(200).set_body_json(json!({ "handleId": 41, "size": 5 }))
        }
        ("GET", ["appendable-data", "handle", _]) => {
            ResponseTemplate::new(200).set_body_json(json!({
                "handleId": 42, "isOwner": false, "version": 1, "filterType": "BlackList",
                "dataLength": 0, "deletedDataLength": 0,
            }))
        }
        ("GET", ["immutable-data", "writer"]) => handle(21),
        ("GET", ["cipher-opts", ..]) => handle(23),
        ("PUT", ["immutable-data", "21", "23"]) => handle(24),
        _ => ResponseTemplate::new(200).set_body_string("OK"),
    }
}

/// A launcher whose answer to the one request `target` matches (`METHOD /path`) is `fault`.
struct Faulty {
    server: MockServer,
    runtime: tokio::runtime::Runtime,
}

impl Faulty {
    fn start(target: &'static str, fault: Fault) -> Faulty {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let seen = Arc::new(Mutex::new(false));
        let server = runtime.block_on(async {
            let server = MockServer::start().await;
            Mock::given(wiremock::matchers::any())
                .respond_with(move |request: &Request| {
                    let line = format!("{} {}", request.method, request.url.path());
                    let mut seen = seen.lock().unwrap();
                    if line == target && !*seen {
                        *seen = true;
                        return match fault {
                            Fault::Hang => {
                                ResponseTemplate::new(200).set_delay(Duration::from_secs(3600))
                            }
                            Fault::Garble => ResponseTemplate::new(200)
                                .set_body_string(r#"{"handleId":"garbled"}"#),
                        };
                    }
                    answer(request.method.as_str(), request.url.path())
                })
                .mount(&server)
                .await;
            server
        });
        Faulty { server, runtime }
    }

    fn url(&self) -> String {
        self.server.uri()
    }

    /// Waits until the launcher has received `target`.
    fn wait_for(&self, target: &str) {
        wait_until(
            &format!("the launcher to receive {target}"),
            DEADLINE,
            || {
                let requests = self.runtime.block_on(self.server.received_requests())?;
                requests
                    .iter()
                    .any(|request| format!("{} {}", request.method, request.url.path()) == target)
                    .then_some(())
            },
        );
    }
}

/// The command that sends `target`, and the kind of handle `target` makes.
fn cases() -> Vec<(&'static str, &'static [&'static str], &'static str)> {
    const SHOW: &[&str] = &["show", "--jobs", "1", "7"];
    const APPEND: &[&str] = &["append", "7", "--immutable", "-", "--encrypt", "asymmetric"];
    vec![
        ("GET /sign-key", SHOW, "sign-key"),
        ("GET /appendable-data/7/0", SHOW, "data-id"),
        ("GET /structured-data/handle/30", SHOW, "structured-data"),
        (
            "GET /immutable-data/reader/31",
            SHOW,
            "immutable-data-reader",
        ),
        ("GET /appendable-data/handle/32", SHOW, "appendable-data"),
        ("GET /appendable-data/sign-key/7/0", SHOW, "sign-key"),
        (
            "GET /immutable-data/writer",
            APPEND,
            "immutable-data-writer",
        ),
        ("GET /appendable-data/encrypt-key/7", APPEND, "encrypt-key"),
        ("GET /cipher-opts/ASYMMETRIC/22", APPEND, "cipher-opts"),
        ("PUT /immutable-data/21/23", APPEND, "data-id"),
    ]
}

fn article(kind: &str) -> &'static str {
    if kind.starts_with('a') || kind.starts_with('e') || kind.starts_with('i') {
        "an"
    } else {
        "a"
    }
}

#[test]
fn a_second_signal_with_a_handle_making_request_in_flight_names_the_handle_with_its_kind() {
    for (at, (target, args, kind)) in cases().into_iter().enumerate() {
        let launcher = Faulty::start(target, Fault::Hang);
        let sandbox = Sandbox::new();
        let running = sandbox
            .safe_ad()
            .launcher(&launcher.url())
            .args(args)
            .stdin("a message\n")
            .case(target)
            .spawn();
        launcher.wait_for(target);
        running.interrupt();
        running.wait_for_stderr("safe-ad: stopping:");
        // Every other case ends with SIGTERM, as a CI job's timeout would.
        if at % 2 == 0 {
            running.interrupt_again();
        } else {
            running.terminate();
        }
        let (method, path) = target.split_once(' ').expect("METHOD /path");
        let output = running.wait();
        output
            .code(130)
            .stderr_has("interrupted twice, so it left at once")
            .stderr_has(&format!(
                "{} {kind} handle that {method} {}{path} may have made (it was in flight when safe-ad left",
                article(kind),
                launcher.url()
            ))
            .stderr_lacks("was given back");
    }
}

#[test]
fn a_handle_making_answer_that_cannot_be_read_names_the_handle_with_its_kind() {
    for (target, args, kind) in cases() {
        let launcher = Faulty::start(target, Fault::Garble);
        let sandbox = Sandbox::new();
        let mut json_args = vec!["--json"];
        json_args.extend_from_slice(args);
        let output = sandbox
            .safe_ad()
            .launcher(&launcher.url())
            .args(&json_args)
            .stdin("a message\n")
            .case(target)
            .run();
        let (method, path) = target.split_once(' ').expect("METHOD /path");
        let code = output.exit_code();
        output
            .check(code.is_some_and(|code| code != 0), "exit 0")
            .stderr_has(&format!(
                "{} {kind} handle that {method} {}{path} may have made (its answer could not be read",
                article(kind),
                launcher.url()
            ))
            .stderr_lacks("was given back");
        let left: Vec<Value> = output
            .json_lines()
            .into_iter()
            .filter_map(|line| line.get("left_behind").cloned())
            .collect();
        let left = left
            .first()
            .unwrap_or_else(|| panic!("{target}: no left_behind"));
        assert_eq!(left[0]["kind"], kind, "{target}: {left}");
        assert_eq!(
            left[0]["made_by"],
            format!("{method} {}{path}", launcher.url())
        );
        assert!(
            left[0]["free"]
                .as_str()
                .is_some_and(|free| free.starts_with("DELETE ")),
            "{left}"
        );
    }
}
