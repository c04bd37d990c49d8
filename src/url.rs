//! The launcher's base URL: what a usable one looks like, and what it implies for the token.
//!
//! Parsing is strict so that a typo cannot send the token somewhere unintended: only http and
//! https, a host, no credentials, query or fragment; the path prefix (`/0.6`) is kept and the
//! trailing slash dropped, so routes can be appended as they are.

use std::net::{Ipv4Addr, Ipv6Addr};

use reqwest::Url;

/// The launcher URL used when no flag, env var or config key names one.
pub const DEFAULT_LAUNCHER_URL: &str = "http://localhost:8100";

/// The launcher's base URL, checked: http(s), a host, no credentials, no trailing slash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LauncherUrl {
    base: String,
    loopback: bool,
}

impl LauncherUrl {
    /// The base, path prefix included, without a trailing slash; routes are appended to it.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Whether the host is this machine (localhost, 127.0.0.0/8, ::1).
    pub fn is_loopback(&self) -> bool {
        self.loopback
    }

    pub fn is_https(&self) -> bool {
        self.base.starts_with("https:")
    }

    /// Whether a request to this URL would carry the token across a network in clear text:
    /// plain http to a host other than this machine.
    pub fn sends_token_in_clear(&self) -> bool {
        !self.loopback && !self.is_https()
    }
}

/// Checks a launcher URL and brings it to the form routes are appended to.
pub fn parse_launcher_url(raw: &str) -> Result<LauncherUrl, String> {
    if raw.is_empty() {
        return Err("it is empty".into());
    }
    if raw.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("it contains spaces or control characters".into());
    }
    // `localhost:8100` parses as scheme "localhost"; say what the user most likely meant.
    let Some((_, after_scheme)) = raw.split_once("://") else {
        return Err("it has no scheme; start it with http:// or https://".into());
    };
    // `http:///host` would be read as `http://host`: a typo is not a host.
    if after_scheme.is_empty() || after_scheme.starts_with(['/', '\\', '?', '#']) {
        return Err("it has no host".into());
    }
    let url = Url::parse(raw).map_err(|e| match e {
        url::ParseError::RelativeUrlWithoutBase => {
            "it has no scheme; start it with http:// or https://".to_string()
        }
        other => other.to_string(),
    })?;
    match url.scheme() {
        "http" | "https" => {}
        scheme => {
            return Err(format!(
                "the scheme is '{scheme}'; only http:// and https:// are supported"
            ))
        }
    }
    let loopback = match url.host() {
        None => return Err("it has no host".into()),
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.');
            name.eq_ignore_ascii_case("localhost")
        }
        Some(url::Host::Ipv4(ip)) => is_loopback_v4(ip),
        Some(url::Host::Ipv6(ip)) => is_loopback_v6(ip),
    };
    if !url.username().is_empty() || url.password().is_some() {
        return Err(
            "it contains a user name or password; the token is the only credential sent".into(),
        );
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err("it has a query (?...) or fragment (#...); give only scheme, host, port and path prefix".into());
    }
    let base = url.as_str().trim_end_matches('/').to_string();
    Ok(LauncherUrl { base, loopback })
}

/// The URL as typed, with any `user:password@` part masked: people do paste tokens there.
pub fn without_userinfo(raw: &str) -> String {
    let Some(scheme_end) = raw.find("://").map(|at| at + 3) else {
        return raw.to_string();
    };
    let authority_end = raw[scheme_end..]
        .find(['/', '?', '#'])
        .map_or(raw.len(), |at| scheme_end + at);
    match raw[scheme_end..authority_end].rfind('@') {
        Some(at) => format!("{}***{}", &raw[..scheme_end], &raw[scheme_end + at..]),
        None => raw.to_string(),
    }
}

fn is_loopback_v4(ip: Ipv4Addr) -> bool {
    ip.is_loopback()
}

fn is_loopback_v6(ip: Ipv6Addr) -> bool {
    ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(is_loopback_v4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launcher_url_keeps_prefix_and_drops_trailing_slash() {
        let url = parse_launcher_url("http://127.0.0.1:8100/0.6/").unwrap();
        assert_eq!(url.base(), "http://127.0.0.1:8100/0.6");
        assert!(url.is_loopback());
        assert_eq!(
            parse_launcher_url("http://localhost:8100").unwrap().base(),
            "http://localhost:8100"
        );
        assert_eq!(
            parse_launcher_url("http://localhost:8100/").unwrap().base(),
            "http://localhost:8100"
        );
    }

    #[test]
    fn loopback_detection() {
        for url in [
            "http://localhost",
            "http://LOCALHOST:1",
            "http://127.0.0.1",
            "http://127.8.9.10:8",
            "http://[::1]:8100",
            "http://[::ffff:127.0.0.1]",
        ] {
            assert!(parse_launcher_url(url).unwrap().is_loopback(), "{url}");
        }
        for url in [
            "http://example.com",
            "http://10.0.0.1",
            "http://[::2]",
            "http://localhost.example.com",
            "http://128.0.0.1",
        ] {
            assert!(!parse_launcher_url(url).unwrap().is_loopback(), "{url}");
        }
    }

    #[test]
    fn clear_text_only_for_plain_http_to_another_host() {
        let clear = |raw: &str| parse_launcher_url(raw).unwrap().sends_token_in_clear();
        assert!(clear("http://example.com"));
        assert!(clear("http://10.0.0.1:8100/0.6"));
        assert!(!clear("https://example.com"));
        assert!(!clear("http://127.0.0.1:8100"));
        assert!(!clear("http://localhost"));
        assert!(!clear("https://localhost"));
    }

    #[test]
    fn bad_launcher_urls() {
        for (raw, says) in [
            ("localhost:8100", "scheme"),
            ("127.0.0.1:8100", "scheme"),
            ("ftp://localhost", "'ftp'"),
            ("http://", "no host"),
            ("http:///127.0.0.1:1", "no host"),
            ("http://u:p@localhost", "user name"),
            ("http://local host", "spaces"),
            ("http://localhost/?a=1", "query"),
            ("", "empty"),
        ] {
            let err = parse_launcher_url(raw).unwrap_err();
            assert!(err.contains(says), "{raw}: {err}");
        }
    }

    #[test]
    fn userinfo_is_masked_in_messages() {
        assert_eq!(
            without_userinfo("http://u:secret@127.0.0.1:1/x@y"),
            "http://***@127.0.0.1:1/x@y"
        );
        assert_eq!(
            without_userinfo("http://127.0.0.1:1/a@b"),
            "http://127.0.0.1:1/a@b"
        );
        assert_eq!(without_userinfo("no scheme@x"), "no scheme@x");
    }
}
