//! The URL joiner: for any launcher URL that is accepted, every operation's URL keeps the
//! scheme, host and path prefix, and ends with the operation's route.
#![no_main]

use libfuzzer_sys::fuzz_target;
use safe_ad::test_support::handle::Handle;
use safe_ad::test_support::launcher::{url_for, Request, OPERATIONS};
use safe_ad::test_support::url::parse_launcher_url;

fuzz_target!(|input: (&str, u64)| {
    let (raw, handle) = input;
    let Ok(launcher) = parse_launcher_url(raw) else {
        return;
    };
    let base = url::Url::parse(launcher.base()).expect("an accepted base parses");
    let prefix = base.path().trim_end_matches('/');
    for operation in OPERATIONS {
        let joined = url_for(launcher.base(), &Request::OnHandle(operation, Handle(handle)));
        assert!(joined.starts_with(launcher.base()));
        let parsed = url::Url::parse(&joined).expect("a joined URL parses");
        assert_eq!(parsed.scheme(), base.scheme());
        assert_eq!(parsed.host_str(), base.host_str());
        assert_eq!(parsed.port(), base.port());
        assert!(parsed.path().starts_with(prefix), "{joined} lost prefix {prefix}");
        assert!(parsed.path().ends_with(&format!("/{handle}")), "{joined}");
        assert_eq!(parsed.query(), None);
    }
});
