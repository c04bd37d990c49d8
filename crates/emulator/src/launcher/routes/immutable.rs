//! The cipher-options and immutable-data routes, as the launcher's
//! `app/server/controllers/cipher_opts.js` and `immutable_data.js` answered them (with its
//! `server/stream/immutable_data_writer.js` and `immutable_data_reader.js`); what they do is
//! `state::immutable`'s (safe_core 0.23.0's `src/ffi/low_level_api/immut_data.rs` and
//! `cipher_opt.rs`).

use hyper::header::{CONTENT_LENGTH, RANGE};
use hyper::StatusCode;

use super::{bad_request, done, error_json, handle_json, no_token, not_granted, ok, ok_json};
use super::{reply, to_reply, Call, Express, Reply, OCTETS};
use crate::launcher::js;
use crate::launcher::state::{Cipher, CloseNote};
use crate::launcher::table::Route;

/// The `--log` note of a close of a writer an earlier close emptied (under 3 KiB).
const EMPTIED: &str = "as the launcher did: an earlier close emptied this writer, so this close \
     stored only what was written since (nothing, for a second close)";
/// The `--log` note of a second close of a writer past 3 MiB.
const BROKEN: &str = "as the launcher did: a second close of a writer past 3 MiB failed (the \
     launcher's handle cache was then broken until restart; the emulator's is not)";

/// The description the launcher gave its bare 416 (`message_constants.js`).
const BAD_RANGE: &str = "Invalid range specified";

impl Call<'_> {
    /// The cipher-options and immutable-data routes.
    pub(super) fn immutable(&self) -> Result<Reply, Reply> {
        match self.found.def.route {
            Route::CipherOpts => self.cipher_opts(),
            Route::CipherOptsDrop => {
                let h = self.id(0, 0, "handle")?;
                done(self.state().drop_cipher(h))
            }
            Route::WriterOpen => Ok(handle_json(self.state().new_writer())),
            Route::ImmutableWrite => self.write(),
            Route::WriterClose => {
                // `isNaN(cipherOptsHandle)`: the controller's own plain cipher options then.
                // The plain one is made first; then the core's arguments in order.
                let text = self.found.param(1).unwrap_or("");
                let plain = (!self.app.strict_paths && js::string_to_number(text).is_nan())
                    .then(|| self.state().immutable_plain_cipher());
                let h = self.id(0, 1, "handle")?;
                let cipher = match plain {
                    Some(plain) => plain,
                    None => self.id(1, 2, "cipher opts handle")?,
                };
                let (closed, note) = self.state().close_writer(h, cipher);
                let mut sent = closed.map(handle_json).unwrap_or_else(to_reply);
                sent.note = note.map(|note| match note {
                    CloseNote::AfterEmptied => EMPTIED,
                    CloseNote::Broken => BROKEN,
                });
                if sent.status.is_success() {
                    Ok(sent)
                } else {
                    Err(sent)
                }
            }
            Route::WriterDrop => {
                let h = self.id(0, 0, "handle")?;
                done(self.state().drop_writer(h))
            }
            Route::ReaderOpen => {
                let d = self.id(0, 1, "data id handle")?;
                let (h, size) = self
                    .state()
                    .new_reader(d, self.authorised)
                    .map_err(to_reply)?;
                Ok(ok_json(format!("{{\"handleId\":{h},\"size\":{size}}}")))
            }
            Route::ImmutableRead => self.read(),
            Route::ReaderDrop => {
                let h = self.id(0, 0, "handle")?;
                done(self.state().drop_reader(h))
            }
            // Not a route of this family (`run` sends none here).
            _ => Err(super::not_found()),
        }
    }

    /// `GET /cipher-opts/:encType/:keyHandle?`. The controller checked the session only for the
    /// encrypted kinds, then read the app of the session whatever the kind: an anonymous PLAIN
    /// request failed with that TypeError.
    fn cipher_opts(&self) -> Result<Reply, Reply> {
        let kind = self.found.param(0).unwrap_or("").to_uppercase();
        let plain = kind == Cipher::Plain.as_str();
        if !self.authorised {
            return Err(if plain {
                bad_request("Cannot read property 'app' of undefined")
            } else {
                no_token()
            });
        }
        if !self.low_level && !plain {
            return Err(not_granted());
        }
        let handle = match Cipher::from_name(&kind) {
            Some(Cipher::Plain) => self.state().new_cipher(Cipher::Plain),
            Some(Cipher::Symmetric) => self.state().new_cipher(Cipher::Symmetric),
            Some(Cipher::Asymmetric) => {
                if self.found.param(1).is_none_or(str::is_empty) {
                    return Err(bad_request(
                        "'key' must be specified for Asymmetric encryption",
                    ));
                }
                let key = self.id(1, 0, "encrypt key handle")?;
                self.state().asymmetric_cipher(key).map_err(to_reply)?
            }
            // The launcher's controller returned without answering: the request never ended.
            None => {
                return Err(bad_request(
                    "Invalid encryption type: expected PLAIN, SYMMETRIC or ASYMMETRIC \
                     (the launcher never answered this request; safe-ad emulator)",
                ))
            }
        };
        Ok(handle_json(handle))
    }

    /// `POST /immutable-data/:h`: the body, whose `Content-Length` must be given, goes to the
    /// writer; an empty one is `OK` without looking at the handle.
    fn write(&self) -> Result<Reply, Reply> {
        let length = self
            .headers
            .get(CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .filter(|text| !text.is_empty() && !js::string_to_number(text).is_nan());
        let Some(length) = length else {
            return Err(bad_request("Content-Length header is not present"));
        };
        if js::parse_int(length) == 0.0 {
            return Ok(ok());
        }
        let h = self.id(0, 0, "handle")?;
        done(self.state().write(h, self.raw()))
    }

    /// `GET /immutable-data/:h`: the reader's size first (-1516), then the `Range` header as the
    /// controller read it: `bytes=START-END` with END exclusive and cut to the size, 206 with a
    /// range and 200 without, `Content-Range: bytes START-END/SIZE` either way.
    fn read(&self) -> Result<Reply, Reply> {
        let h = self.id(0, 0, "handle")?;
        let total = self.state().reader_size(h).map_err(to_reply)?;
        // `req.get('range')`: an empty header is falsy, no range at all (200, the whole body).
        let range = self
            .headers
            .get(RANGE)
            .filter(|value| !value.is_empty())
            .map(|value| String::from_utf8_lossy(value.as_bytes()).to_lowercase());
        let (start, end) = match &range {
            None => (0.0, total as f64),
            Some(range) => span(range, total as f64)?,
        };
        let (start, end) = (start as u64, end as u64);
        let body = if end > start {
            self.state().read(h, start, end - start).map_err(to_reply)?
        } else {
            Vec::new()
        };
        let status = if range.is_some() {
            StatusCode::PARTIAL_CONTENT
        } else {
            StatusCode::OK
        };
        let mut sent = reply(status, OCTETS, body);
        sent.headers = vec![
            ("content-range", format!("bytes {start}-{end}/{total}")),
            ("accept-ranges", "bytes".to_owned()),
        ];
        // Streamed after `res.writeHead`, not through `res.send`: no ETag.
        sent.express = Express::Written;
        Ok(sent)
    }
}

/// START and END of a lower-cased, non-empty `Range` header, as the launcher's controller
/// computed them (`immutable_data.js`, `read`); 400 unless it starts with `bytes=`, every
/// `bytes=` then removed, 416 for a part that is not a number or a span past the size. (A start
/// that is no number at all, `bytes=-5`, made the launcher send a broken answer; here it is 416.)
fn span(range: &str, total: f64) -> Result<(f64, f64), Reply> {
    let unsatisfiable = || error_json(StatusCode::RANGE_NOT_SATISFIABLE, 400, BAD_RANGE);
    if !range.starts_with("bytes=") {
        return Err(bad_request("invalid range specified"));
    }
    // `replace(/bytes=/g, '')`: every `bytes=` goes, not only the first.
    let rest = range.replace("bytes=", "");
    let positions: Vec<&str> = rest.split('-').collect();
    if positions.iter().any(|p| js::string_to_number(p).is_nan()) {
        return Err(unsatisfiable());
    }
    let start = js::parse_int(positions[0]);
    let end = match positions.get(1) {
        Some(text) if !text.is_empty() && total != 0.0 && js::string_to_number(text) < total => {
            js::parse_int(text)
        }
        _ => total,
    };
    if start.is_nan() || end.is_nan() || end - start < 0.0 || end > total {
        return Err(unsatisfiable());
    }
    Ok((start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_as_the_controller_read_them() {
        assert_eq!(span("bytes=0-5", 11.0).ok(), Some((0.0, 5.0)));
        assert_eq!(span("bytes=2-", 11.0).ok(), Some((2.0, 11.0)));
        assert_eq!(
            span("bytes=0-21", 11.0).ok(),
            Some((0.0, 11.0)),
            "cut to the size"
        );
        assert_eq!(span("bytes=11-", 11.0).ok(), Some((11.0, 11.0)), "empty");
        assert_eq!(
            span("bytes=0-bytes=5", 11.0).ok(),
            Some((0.0, 5.0)),
            "every bytes= removed"
        );
        assert_eq!(span("items=0-5", 11.0).unwrap_err().status, 400);
        for bad in [
            "bytes=x-5",
            "bytes=5-3",
            "bytes=12-",
            "bytes=-5",
            "bytes=1-2,4-5",
        ] {
            assert_eq!(span(bad, 11.0).unwrap_err().status, 416, "{bad}");
        }
    }
}
