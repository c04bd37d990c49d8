//! The headers Express 4 put on the launcher's answers, and its one conditional answer: [`sent`]
//! finishes a route's [`Reply`] as `res.send` did.
//!
//! Every answer the launcher's Express app made carried `X-Powered-By: Express` (set by its
//! `expressInit` middleware before any route ran). An answer sent with `res.send` (which
//! `res.sendStatus`, `res.json` and the launcher's `ResponseHandler` and error handler all use)
//! also carried a weak `ETag` made by the `etag` package from the body's bytes:
//! `W/"<length in hex>-<the first 27 characters of the base64 SHA-1 of the body>"` (etag 1.8,
//! which Express took from 4.15.0; the launcher's `express: ^4.13.4` resolved to 4.15 when 0.11.0
//! was built). `res.send` then asked `req.fresh` (the `fresh` package): a `GET` or `HEAD` whose
//! status is 2xx and whose `If-None-Match` names that tag (or `*`), without `Cache-Control:
//! no-cache` and without an `If-Modified-Since` (the launcher set no `Last-Modified`, so that
//! one is always stale), was answered 304 with no body and no `Content-Type`.

use hyper::body::Bytes;
use hyper::header::{HeaderMap, HeaderValue, CACHE_CONTROL, IF_MODIFIED_SINCE, IF_NONE_MATCH};
use hyper::{Method, StatusCode};

use crate::launcher::encoding::base64_encode;
use crate::launcher::routes::{Express, Reply};

/// The header every Express answer carried.
pub(crate) const POWERED_BY: (&str, &str) = ("x-powered-by", "Express");

/// Express's default (weak) ETag of a body sent with `res.send`.
pub(crate) fn etag(body: &[u8]) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, body);
    let hash = base64_encode(digest.as_ref());
    // 20 bytes are 28 base64 characters, the last one padding: the package kept 27.
    format!("W/\"{:x}-{}\"", body.len(), &hash[..27])
}

/// What a request said that decides whether its answer is "fresh": taken before the request is
/// handed to the routes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Conditional {
    /// `GET` or `HEAD` (only they can be answered 304).
    readable: bool,
    none_match: Option<String>,
    modified_since: bool,
    no_cache: bool,
}

impl Conditional {
    pub(crate) fn of(method: &Method, headers: &HeaderMap) -> Conditional {
        let text = |value: Option<&HeaderValue>| {
            value.map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
        };
        Conditional {
            readable: method == Method::GET || method == Method::HEAD,
            none_match: text(headers.get(IF_NONE_MATCH)),
            modified_since: headers.contains_key(IF_MODIFIED_SINCE),
            no_cache: text(headers.get(CACHE_CONTROL)).is_some_and(|value| {
                value
                    .split(',')
                    .any(|directive| directive.trim() == "no-cache")
            }),
        }
    }

    /// Whether a 2xx answer with this ETag is fresh for the request (`fresh` 0.5): then Express
    /// answered 304.
    pub(crate) fn fresh(&self, etag: &str) -> bool {
        let Some(none_match) = &self.none_match else {
            return false;
        };
        if !self.readable || self.no_cache || self.modified_since || none_match.is_empty() {
            return false;
        }
        if none_match == "*" {
            return true;
        }
        // The package's token list: split at commas and spaces; a tag matches as written, or
        // with `W/` put before either side.
        none_match
            .split([',', ' '])
            .filter(|tag| !tag.is_empty())
            .any(|tag| tag == etag || format!("W/{etag}") == tag || format!("W/{tag}") == etag)
    }
}

/// A launcher answer as Express's `res.send` finished it: its ETag, and a 304 without a body
/// when the request already holds that tag.
pub(crate) fn sent(mut reply: Reply, conditional: &Conditional) -> Reply {
    if reply.express != Express::Send {
        return reply;
    }
    let tag = etag(&reply.body);
    if reply.status.is_success() && conditional.fresh(&tag) {
        reply.status = StatusCode::NOT_MODIFIED;
        reply.content_type = "";
        reply.body = Bytes::new();
    }
    reply.headers.push(("etag", tag));
    reply
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etags_as_the_etag_package_made_them() {
        // Computed independently: Python's base64.b64encode(hashlib.sha1(body).digest())[:27].
        assert_eq!(etag(b"OK"), "W/\"2-nOO9QiTIwXgNtWtBJezz8kv3SLc\"");
        assert_eq!(etag(b""), "W/\"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk\"");
        assert_eq!(
            etag(br#"{"handleId":0}"#),
            "W/\"e-6DN42V2kzbi3xEoIRi+9nC5Uvec\""
        );
    }

    #[test]
    fn fresh_as_express_judged_it() {
        let tag = etag(b"OK");
        let with = |method: Method, pairs: &[(&'static str, &str)]| {
            let mut headers = HeaderMap::new();
            for (name, value) in pairs {
                headers.insert(*name, HeaderValue::from_str(value).unwrap());
            }
            Conditional::of(&method, &headers)
        };
        assert!(with(Method::GET, &[("if-none-match", &tag)]).fresh(&tag));
        assert!(with(Method::GET, &[("if-none-match", "*")]).fresh(&tag));
        let strong = tag.trim_start_matches("W/").to_owned();
        assert!(with(Method::GET, &[("if-none-match", &strong)]).fresh(&tag));
        let listed = format!("\"x\", {tag}");
        assert!(with(Method::HEAD, &[("if-none-match", &listed)]).fresh(&tag));
        assert!(!with(Method::POST, &[("if-none-match", &tag)]).fresh(&tag));
        assert!(!with(Method::GET, &[]).fresh(&tag));
        assert!(!with(Method::GET, &[("if-none-match", "\"other\"")]).fresh(&tag));
        let no_cache = [
            ("if-none-match", tag.as_str()),
            ("cache-control", "no-cache"),
        ];
        assert!(!with(Method::GET, &no_cache).fresh(&tag));
        let since = [
            ("if-none-match", tag.as_str()),
            ("if-modified-since", "Thu, 01 Jan 1970 00:00:00 GMT"),
        ];
        assert!(!with(Method::GET, &since).fresh(&tag));
    }
}
