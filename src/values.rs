//! The numeric settings' bounds and defaults, and their parsers: the ones the command line and
//! the config file share (so a value one accepts the other accepts too), and the one for
//! `SAFE_AD_INTERRUPT_WAIT`, which reads seconds as a timeout does.

use std::time::Duration;

/// `--timeout` / `timeout_secs` when neither is given.
pub const DEFAULT_TIMEOUT_SECS: f64 = 30.0;
/// A day: longer is a mistake, not a wait.
pub const MAX_TIMEOUT_SECS: f64 = 86_400.0;
/// Connecting gets its own, shorter bound: a launcher that is up accepts at once.
pub const MAX_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// `SAFE_AD_INTERRUPT_WAIT`: how long the first Ctrl-C waits for the requests in flight and
/// the giving back of launcher handles before it leaves, naming what it left.
pub const DEFAULT_INTERRUPT_WAIT_SECS: f64 = 1.0;

/// `--jobs`: requests in flight at once.
pub const DEFAULT_JOBS: u16 = 8;
pub const MIN_JOBS: u16 = 1;
pub const MAX_JOBS: u16 = 256;

/// `--retries`: tries after the first when no answer came.
pub const DEFAULT_RETRIES: u8 = 0;
pub const MAX_RETRIES: u8 = 10;

/// Parses `--jobs`.
pub fn parse_jobs(raw: &str) -> Result<u16, String> {
    whole_number(
        raw,
        MIN_JOBS.into(),
        MAX_JOBS.into(),
        "a whole number, at least 1",
    )
    .map(|n| n as u16)
}

/// Parses `--retries`.
pub fn parse_retries(raw: &str) -> Result<u8, String> {
    whole_number(raw, 0, MAX_RETRIES.into(), "a whole number, 0 or more").map(|n| n as u8)
}

/// A whole number in `min..=max`; a negative one is said to be out of range, not an option.
fn whole_number(raw: &str, min: i64, max: i64, what: &str) -> Result<i64, String> {
    let number: i64 = raw
        .trim()
        .parse()
        .map_err(|_| format!("'{raw}' is not {what}"))?;
    if !(min..=max).contains(&number) {
        return Err(format!("{number} is not in {min}..={max} ({what})"));
    }
    Ok(number)
}

/// A number of seconds, fractions allowed; what range it must be in is the caller's.
fn seconds(raw: &str) -> Result<f64, String> {
    raw.trim()
        .parse()
        .map_err(|_| format!("'{raw}' is not a number of seconds"))
}

/// Parses a timeout: seconds, fractions allowed.
pub fn parse_timeout(raw: &str) -> Result<f64, String> {
    let secs = seconds(raw)?;
    check_timeout(secs)?;
    Ok(secs)
}

/// Checks a timeout in seconds, wherever it came from.
pub fn check_timeout(secs: f64) -> Result<(), String> {
    if !secs.is_finite() || secs <= 0.0 || secs > MAX_TIMEOUT_SECS {
        return Err(format!(
            "must be more than 0 and at most {MAX_TIMEOUT_SECS} seconds (one day)"
        ));
    }
    // Below a millisecond no request can succeed; say so rather than time out every call.
    if secs < 0.001 {
        return Err("must be at least 0.001 seconds".into());
    }
    Ok(())
}

/// Parses `SAFE_AD_INTERRUPT_WAIT`: seconds, fractions allowed, 0 (leave at once) up to a day.
pub fn parse_interrupt_wait(raw: &str) -> Result<f64, String> {
    let secs = seconds(raw)?;
    // NaN and the infinities are outside the range too.
    if !(0.0..=MAX_TIMEOUT_SECS).contains(&secs) {
        return Err(format!(
            "{secs} is not in 0..={MAX_TIMEOUT_SECS} seconds (up to one day)"
        ));
    }
    Ok(secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(parse_jobs("8"), Ok(8));
        assert_eq!(parse_retries("0"), Ok(0));
        assert!(parse_jobs("0")
            .unwrap_err()
            .starts_with("0 is not in 1..=256"));
        assert!(parse_jobs("-1").unwrap_err().contains("at least 1"));
        assert!(parse_retries("-1").unwrap_err().contains("0 or more"));
        assert!(parse_retries("11")
            .unwrap_err()
            .starts_with("11 is not in 0..=10"));
        assert!(parse_jobs("x").is_err());
    }

    #[test]
    fn timeouts() {
        assert_eq!(parse_timeout("5"), Ok(5.0));
        assert_eq!(parse_timeout("0.5"), Ok(0.5));
        for bad in ["0", "-1", "abc", "inf", "NaN", "86401", ""] {
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
    }
}

/// `wait --for`: the condition as typed (the selectors that `item` matches by are joined to it
/// later). One list of words, which clap's help and completion, the shell's completion, the
/// parser and the words of a result all come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitFor {
    NewItems,
    Item,
    VersionAbove(u64),
    Stale,
    InSync,
}

impl WaitFor {
    /// Each condition as `--for` takes it and completion offers it (`version-above=` wants a
    /// number after it), with what it waits for.
    pub const WORDS: &'static [(&'static str, &'static str)] = &[
        (
            "new-items",
            "the network's data holds more data items than at the first poll",
        ),
        (
            "item",
            "a data item on the network matches the selectors given (--signed-by, --kind, \
             --data-id, --name, as for `remove` and `show`); one there at the first poll counts",
        ),
        (
            "version-above=",
            "version-above=N: the network's version is above N",
        ),
        (
            "stale",
            "the network moved past the handle's copy (a save by someone else)",
        ),
        (
            "in-sync",
            "the handle's copy shows what the network holds (as `status` exits 0 and says in sync)",
        ),
    ];

    /// Reads `--for`'s value; the error says what it takes.
    pub fn parse(raw: &str) -> Result<WaitFor, String> {
        let takes = || {
            let words: Vec<String> = (WaitFor::WORDS.iter())
                .map(|(word, _)| match *word {
                    "version-above=" => "version-above=N".to_owned(),
                    word => word.to_owned(),
                })
                .collect();
            format!("--for takes {}", words.join(", "))
        };
        Ok(match raw {
            "new-items" => WaitFor::NewItems,
            "item" => WaitFor::Item,
            "stale" => WaitFor::Stale,
            "in-sync" => WaitFor::InSync,
            _ => match raw.strip_prefix("version-above=") {
                Some(n) => WaitFor::VersionAbove(n.parse().map_err(|_| {
                    format!("'{n}' is not a version (0 to {}); {}", u64::MAX, takes())
                })?),
                None => return Err(format!("no such condition; {}", takes())),
            },
        })
    }

    /// The condition as `--for` spells it.
    pub fn word(self) -> String {
        match self {
            WaitFor::NewItems => "new-items".to_owned(),
            WaitFor::Item => "item".to_owned(),
            WaitFor::VersionAbove(n) => format!("version-above={n}"),
            WaitFor::Stale => "stale".to_owned(),
            WaitFor::InSync => "in-sync".to_owned(),
        }
    }
}

#[cfg(test)]
mod wait_for {
    use super::WaitFor;

    /// Every word offered parses (`version-above=` with a number after it), and spells back.
    #[test]
    fn every_word_offered_parses_and_spells_back() {
        for (word, _) in WaitFor::WORDS {
            let raw = match *word {
                "version-above=" => "version-above=3".to_owned(),
                word => word.to_owned(),
            };
            let parsed = WaitFor::parse(&raw).expect("a condition");
            assert_eq!(parsed.word(), raw);
        }
        assert!(WaitFor::parse("soon")
            .unwrap_err()
            .contains("version-above=N"));
        assert!(WaitFor::parse("version-above=x").is_err());
    }
}
