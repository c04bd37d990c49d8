//! Fault injection (`--fault-rate P --fault-seed N`): which requests get a 503, a dropped
//! connection or a delay, decided by a seeded PRNG so that a run can be repeated.
//!
//! Only the four operations and metadata take part (`PUT`/`POST /appendable-data/:h`, the two
//! clears, `GET /appendable-data/metadata/:h`); every other route is served normally. Those
//! requests are numbered 0, 1, 2, ... in the order the server receives them, and request `n`'s
//! fate is a pure function of the seed and `n`: it uses draws `3n`, `3n + 1` and `3n + 2` of the
//! splitmix64 stream that starts at the seed (splitmix64 can jump to any draw, so no state is
//! shared between requests). Draw `3n` decides whether there is a fault (probability P), `3n + 1`
//! which of the three, `3n + 2` the length of a delay (50 to 300 ms). So the same seed and the
//! same number of requests always give the same counts of each fault, and the same seed with the
//! same request order gives the same faults on the same requests.
//!
//! The PRNG is written here (a few lines) rather than taken from a crate, and is not for secrets.

use std::time::Duration;

/// The seed used when `--fault-seed` is not given, so that runs repeat by default.
pub(crate) const DEFAULT_SEED: u64 = 1;
/// Shortest injected delay.
pub(crate) const MIN_DELAY_MS: u64 = 50;
/// Longest injected delay.
pub(crate) const MAX_DELAY_MS: u64 = 300;

/// The launcher's way of saying "the network did not answer": what an injected 503 carries.
pub(crate) const UNAVAILABLE_BODY: &str =
    r#"{"errorCode":-37,"description":"CoreError::RequestTimeout (injected by safe-ad emulator)"}"#;

/// splitmix64's increment (the golden ratio in 64-bit fixed point).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The splitmix64 generator (Steele, Lea and Flood), as in Java's `SplittableRandom`.
#[derive(Debug, Clone)]
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The same stream, positioned so that the next value is draw number `index` (from 0).
    pub(crate) fn at(seed: u64, index: u64) -> SplitMix64 {
        SplitMix64 {
            state: seed.wrapping_add(index.wrapping_mul(GOLDEN)),
        }
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)` from the next draw (53 bits, every value equally likely).
    pub(crate) fn next_unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// What happens to one request instead of (or before) its normal answer.
///
/// Public for safe-ad's tests, which check it; no API for other programs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Answer 503 with [`UNAVAILABLE_BODY`].
    Unavailable,
    /// Close the connection without answering.
    Drop,
    /// Wait this long, then answer normally.
    Delay(Duration),
}

/// A fault rate and a seed.
///
/// Public for safe-ad's tests, which check it; no API for other programs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plan {
    rate: f64,
    seed: u64,
}

impl Plan {
    /// `rate` must be a number from 0 to 1.
    pub fn new(rate: f64, seed: u64) -> Result<Plan, String> {
        check_rate(rate)?;
        Ok(Plan { rate, seed })
    }

    /// Whether any request can get a fault.
    pub(crate) fn is_active(&self) -> bool {
        self.rate > 0.0
    }

    /// The fault for request number `n` (counted from 0), if any.
    pub fn fault(&self, n: u64) -> Option<Fault> {
        if !self.is_active() {
            return None;
        }
        let mut draws = SplitMix64::at(self.seed, n.wrapping_mul(3));
        let strike = draws.next_unit() < self.rate;
        let kind = draws.next_u64() % 3;
        let delay = MIN_DELAY_MS + draws.next_u64() % (MAX_DELAY_MS - MIN_DELAY_MS + 1);
        if !strike {
            return None;
        }
        Some(match kind {
            0 => Fault::Unavailable,
            1 => Fault::Drop,
            _ => Fault::Delay(Duration::from_millis(delay)),
        })
    }
}

/// Why a fault rate cannot be used (`NaN`, infinities and anything outside `0..=1`).
pub(crate) fn check_rate(rate: f64) -> Result<(), String> {
    if (0.0..=1.0).contains(&rate) {
        Ok(())
    } else {
        Err("the fault rate must be a number from 0 to 1 (0.1 is 10% of requests)".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_values() {
        // The first outputs for seed 0 and seed 1234567, as published with the algorithm.
        let mut zero = SplitMix64::at(0, 0);
        assert_eq!(zero.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(zero.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut other = SplitMix64::at(1_234_567, 0);
        assert_eq!(other.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(other.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn jumping_to_a_draw_gives_the_same_stream() {
        let mut stream = SplitMix64::at(42, 0);
        for index in 0..100 {
            let expected = stream.next_u64();
            assert_eq!(SplitMix64::at(42, index).next_u64(), expected);
        }
    }

    #[test]
    fn rates_out_of_range_are_refused() {
        for bad in [-0.1, 1.01, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(Plan::new(bad, 1).is_err(), "{bad}");
        }
        for good in [0.0, 0.5, 1.0] {
            assert!(Plan::new(good, 1).is_ok(), "{good}");
        }
    }

    #[test]
    fn faults_follow_the_rate_and_repeat_with_the_seed() {
        let plan = Plan::new(0.1, 7).unwrap();
        let faults: Vec<_> = (0..100_000).map(|n| plan.fault(n)).collect();
        let again: Vec<_> = (0..100_000).map(|n| plan.fault(n)).collect();
        assert_eq!(faults, again);
        let count =
            |wanted: fn(&Fault) -> bool| faults.iter().flatten().filter(|f| wanted(f)).count();
        let total = faults.iter().flatten().count();
        assert!((9_500..10_500).contains(&total), "{total}");
        for kind in [
            count(|f| *f == Fault::Unavailable),
            count(|f| *f == Fault::Drop),
            count(|f| matches!(f, Fault::Delay(_))),
        ] {
            assert!((3_000..3_700).contains(&kind), "{kind}");
        }
        for fault in faults.iter().flatten() {
            if let Fault::Delay(delay) = fault {
                assert!((50..=300).contains(&delay.as_millis()), "{delay:?}");
            }
        }
        let other = Plan::new(0.1, 8).unwrap();
        assert_ne!(
            faults,
            (0..100_000).map(|n| other.fault(n)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn rate_zero_and_one() {
        let never = Plan::new(0.0, 3).unwrap();
        assert!((0..10_000).all(|n| never.fault(n).is_none()));
        let always = Plan::new(1.0, 3).unwrap();
        assert!((0..10_000).all(|n| always.fault(n).is_some()));
    }
}
