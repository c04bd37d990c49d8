//! `safe-ad decode [BYTES|-]`: what serialised bytes hold, offline. The bytes come as base64 or
//! hex on the command line, or raw on standard input; `wire` reads them, `report` says them.
//! Nothing is sent and no setting is read (no launcher, no token).

use std::io::Read;

use crate::args::readings;
use crate::cli::DecodeCommand;
use crate::outcome::{Done, Failure};
use crate::report::Reporter;
use crate::wire;

/// The most bytes read: far more than any appendable data the network stores (100 KiB).
const MAX_BYTES: usize = 1024 * 1024;

pub fn run(command: &DecodeCommand, reporter: &Reporter) -> Result<Done, Failure> {
    let bytes = match command.bytes.as_deref() {
        None | Some("-") => from_stdin(&mut std::io::stdin().lock())?,
        Some(text) => encoded(text.trim()).ok_or_else(|| {
            Failure::usage(format!(
                "'{}' is neither base64 nor hex",
                crate::sanitize::line(text.as_bytes(), 80)
            ))
            .with_hint("give the bytes as standard base64 or as hex digits, or pipe the raw bytes in with `-`")
        })?,
    };
    let decoded = wire::decode_any(&bytes).map_err(|error| {
        Failure::usage(format!(
            "cannot decode these {} bytes: {error}",
            bytes.len()
        ))
        .with_hint(format!("decode takes {}", wire::EXPECTED))
    })?;
    reporter.decoded(&decoded);
    Ok(Done::Success)
}

/// Raw bytes from standard input; text that is base64 or hex of bytes is read as those bytes
/// when the raw bytes themselves are none of the launcher's layouts (`echo $id | safe-ad decode`).
fn from_stdin(stdin: &mut impl Read) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    stdin
        .take(MAX_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| Failure::usage(format!("cannot read standard input: {error}")))?;
    if bytes.len() > MAX_BYTES {
        return Err(Failure::usage(format!(
            "standard input holds more than {} KiB; no serialised value of the launcher's is that large",
            MAX_BYTES / 1024
        )));
    }
    if bytes.is_empty() {
        return Err(Failure::usage("standard input is empty")
            .with_hint("give the bytes as base64 or hex: safe-ad decode BYTES, or pipe them in"));
    }
    if wire::decode_any(&bytes).is_err() {
        if let Some(decoded) = std::str::from_utf8(&bytes)
            .ok()
            .and_then(|t| encoded(t.trim()))
        {
            return Ok(decoded);
        }
    }
    Ok(bytes)
}

/// The bytes the text stands for: of its readings, the first that is a value of the
/// launcher's, else the first.
fn encoded(text: &str) -> Option<Vec<u8>> {
    let readings = readings(text);
    readings
        .iter()
        .find(|bytes| wire::decode_any(bytes).is_ok())
        .or(readings.first())
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_as_hex_or_base64() {
        assert_eq!(encoded("00ff10"), Some(vec![0, 0xff, 0x10]));
        assert_eq!(readings("AAEC"), vec![vec![0xaa, 0xec], vec![0, 1, 2]]);
        assert_eq!(encoded("AAECAw=="), Some(vec![0, 1, 2, 3]));
        assert_eq!(encoded("AAECAw"), Some(vec![0, 1, 2, 3]));
        assert_eq!(encoded("not bytes!"), None);
        assert_eq!(encoded(""), None);
    }

    #[test]
    fn stdin_raw_or_as_text() {
        let raw: Vec<u8> = [1, 0, 0, 0].into_iter().chain([9; 32]).collect();
        assert_eq!(from_stdin(&mut raw.as_slice()).unwrap(), raw);
        let text = format!("{}\n", crate::launcher::serialised::base64(&raw));
        assert_eq!(from_stdin(&mut text.as_bytes()).unwrap(), raw);
        assert!(from_stdin(&mut &b""[..]).is_err());
    }
}
