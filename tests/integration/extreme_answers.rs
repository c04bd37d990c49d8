//! Nothing a launcher answers can crash safe-ad: a wiremock launcher whose every answer carries
//! generated values, extreme ones among them (counts and sizes of 2^64 − 1, 10^9, 2^53; data ids
//! and keys of any bytes, with length fields past what follows), is read by `show`, `status` and
//! the selectors. Each ends with its own exit code and a message, never a panic (101); a count
//! past what the network holds is refused (exit 1) before anything is sized from it, and the
//! handle such an answer names is given back (through a relay in front of the emulator).

use std::sync::{Arc, Mutex};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::json;

use wiremock::{Mock, MockServer, Request, ResponseTemplate};

use crate::harness::*;

/// What the launcher answers, for one generated case.
#[derive(Debug, Clone)]
struct Answers {
    version: u64,
    filter_length: u64,
    data_length: u64,
    deleted_length: u64,
    /// The serialised data id of every item.
    data_id: Vec<u8>,
    /// The serialised key of every signer and filter key.
    key: Vec<u8>,
    /// A structured data's version and versions, a reader's size.
    structured_version: u64,
    versions: u64,
    size: u64,
    content: Vec<u8>,
}

/// The most entries the network can hold in one list of an appendable data.
const MOST: u64 = 102_400 / 32;

fn count() -> impl Strategy<Value = u64> {
    prop_oneof![
        0u64..3,
        Just(MOST + 1),
        Just(1_000_000_000),
        Just(1u64 << 53),
        Just(u64::MAX),
    ]
}

fn number() -> impl Strategy<Value = u64> {
    prop_oneof![any::<u64>(), Just(u64::MAX), Just(1u64 << 53), Just(0)]
}

/// Bytes in the launcher's layouts with extreme length fields, or any bytes.
fn serialised() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..80),
        (0u8..6, any::<u64>()).prop_map(|(variant, length)| {
            let mut bytes = vec![variant, 0, 0, 0];
            bytes.extend(length.to_le_bytes());
            bytes.extend([7u8; 12]);
            bytes
        }),
        Just(u64::MAX.to_le_bytes().to_vec()),
    ]
}

fn answers() -> impl Strategy<Value = Answers> {
    (
        number(),
        (count(), count(), count()),
        serialised(),
        serialised(),
        (number(), number(), number()),
        proptest::collection::vec(any::<u8>(), 0..40),
    )
        .prop_map(
            |(
                version,
                (filter_length, data_length, deleted_length),
                data_id,
                key,
                (sv, vs, size),
                content,
            )| Answers {
                version,
                filter_length,
                data_length,
                deleted_length,
                data_id,
                key,
                structured_version: sv,
                versions: vs,
                size,
                content,
            },
        )
}

fn respond(answers: &Answers, request: &Request) -> ResponseTemplate {
    let parts: Vec<&str> = request
        .url
        .path()
        .trim_start_matches('/')
        .split('/')
        .collect();
    let handle = |n: u64| ResponseTemplate::new(200).set_body_json(json!({ "handleId": n }));
    let raw = |bytes: &[u8]| {
        ResponseTemplate::new(200).set_body_raw(bytes.to_vec(), "application/octet-stream")
    };
    match (request.method.as_str(), parts.as_slice()) {
        ("GET", ["appendable-data", "metadata", _]) => {
            ResponseTemplate::new(200).set_body_json(json!({
                "isOwner": true, "version": answers.version, "filterType": "BlackList",
                "filterLength": answers.filter_length, "dataLength": answers.data_length,
                "deletedDataLength": answers.deleted_length,
            }))
        }
        ("GET", ["appendable-data", "data-id", _]) => handle(11),
        ("GET", ["appendable-data", "handle", _]) => {
            ResponseTemplate::new(200).set_body_json(json!({
                "handleId": 12, "isOwner": true, "version": answers.version,
                "filterType": "BlackList", "dataLength": answers.data_length,
                "deletedDataLength": answers.deleted_length,
            }))
        }
        ("GET", ["sign-key"]) => handle(13),
        ("GET", ["sign-key", "serialise", _]) => raw(&answers.key),
        ("GET", ["data-id", _]) => raw(&answers.data_id),
        ("GET", ["structured-data", "handle", _]) => {
            ResponseTemplate::new(200).set_body_json(json!({
                "handleId": 14, "isOwner": false, "version": answers.structured_version,
                "dataVersionLength": answers.versions,
            }))
        }
        ("GET", ["immutable-data", "reader", _]) => {
            ResponseTemplate::new(200).set_body_json(json!({
                "handleId": 15, "size": answers.size,
            }))
        }
        ("GET", ["structured-data", _]) | ("GET", ["immutable-data", _]) => raw(&answers.content),
        // Every item route: a data id, a signer, a filter key.
        ("GET", ["appendable-data", ..]) => handle(16),
        _ => ResponseTemplate::new(200).set_body_string("OK"),
    }
}

#[test]
fn show_status_and_the_selectors_never_panic_on_what_a_launcher_answers() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let current: Arc<Mutex<Option<Answers>>> = Arc::new(Mutex::new(None));
    let server = runtime.block_on(async {
        let server = MockServer::start().await;
        let current = current.clone();
        Mock::given(wiremock::matchers::any())
            .respond_with(move |request: &Request| {
                let answers = current.lock().unwrap().clone().expect("a case is set");
                respond(&answers, request)
            })
            .mount(&server)
            .await;
        server
    });
    let sandbox = Sandbox::new();
    let mut runner = TestRunner::new(Config {
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&answers(), |answers| {
        *current.lock().unwrap() = Some(answers.clone());
        let too_many = [
            answers.filter_length,
            answers.data_length,
            answers.deleted_length,
        ]
        .iter()
        .any(|length| *length > MOST);
        for args in [
            &["show", "--full", "7"][..],
            &["status", "7"],
            &["remove", "7", "--kind", "immutable-data"],
        ] {
            let output = sandbox
                .safe_ad()
                .launcher(&server.uri())
                .args(args)
                .case(format!("{answers:?}"))
                .run();
            let code = output.exit_code();
            prop_assert!(
                code != Some(101) && !output.stderr().contains("panicked"),
                "{args:?} panicked: {}",
                output.stderr()
            );
            if too_many {
                prop_assert_eq!(code, Some(1), "{:?}: {}", args, output.stderr());
                prop_assert!(
                    output
                        .stderr()
                        .contains("the network holds no appendable data with more than 3200"),
                    "{:?}: {}",
                    args,
                    output.stderr()
                );
            }
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
}

/// The emulator's answer to a fetch, made over to say the data holds 3,201 items: a count no
/// network holds, in an answer that still names the handle the emulator made.
#[cfg(feature = "emulator")]
fn past_the_network(answer: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(answer);
    let (_, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    let mut value: serde_json::Value = serde_json::from_str(body).expect("a JSON body");
    value["dataLength"] = json!(MOST + 1);
    let body = value.to_string();
    format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// An answer refused as one the launcher never gives, which names the handle the launcher made
/// (`handleId`), has that handle given back: `metadata`, `show`, `watch` and `wait` of a name
/// whose fresh copy is said to hold 3,201 items exit 1 and leave nothing in the emulator, as
/// `/_emulator/handles` says.
#[cfg(feature = "emulator")]
#[test]
fn a_refused_answer_that_names_a_handle_has_it_given_back() {
    use crate::harness::emulator::Emulator;
    use crate::harness::relay::{Hook, Relay};
    let emulator = Emulator::start(&["-q"]);
    let name = crate::harness::http::name(1);
    let made = emulator.save_new(&name);
    emulator
        .http(
            "DELETE",
            &format!("/appendable-data/handle/{made}"),
            None,
            None,
        )
        .ok();
    let relay = Relay::start(emulator.addr(), |line| {
        match line.starts_with("GET /appendable-data/handle/") {
            true => Hook::Rewrite(past_the_network),
            false => Hook::Pass,
        }
    });
    let sandbox = Sandbox::new();
    for args in [
        &["metadata", &name][..],
        &["show", &name],
        &["watch", &name],
        &["wait", "--for", "new-items", &name],
    ] {
        let first = emulator.next_handle();
        sandbox
            .safe_ad()
            .launcher(&relay.url)
            .args(args)
            .case(args.join(" "))
            .run()
            .code(1)
            .stderr_has("the network holds no appendable data with more than 3200");
        let fetched = relay
            .exchanges()
            .iter()
            .filter(|(line, _)| line.starts_with("GET /appendable-data/handle/"))
            .count();
        assert!(fetched > 0, "{args:?} fetched nothing");
        assert_eq!(emulator.handles_since(first), [], "{args:?} left handles");
    }
    emulator.terminate().success();
}
