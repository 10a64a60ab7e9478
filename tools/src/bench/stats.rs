//! The numbers of one bench round and of a server's rounds together:
//! percentiles of latencies (nearest rank), the rate of valid replies, and
//! the medians across rounds that the report prints. No I/O.
//!
//! A percentile is the nearest-rank one: the `p`-th percentile of `n`
//! sorted latencies is the one at rank `ceil(p / 100 * n)` (1-based), so it
//! is always a latency that was measured, never an interpolation between
//! two; with no latency there is none (`None`, printed `-`).

use std::collections::BTreeMap;
use std::time::Duration;

/// What one round against one server gave.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Round {
    /// Valid replies to requests sent after the warm-up.
    pub requests: u64,
    /// Invalid replies, missing replies and transport errors, warm-up
    /// included (an error is never excused by when it happened).
    pub errors: u64,
    /// How many errors of each kind (a short phrase), for the report.
    pub error_kinds: BTreeMap<String, u64>,
    /// The measured time: from the end of the warm-up to the last reply.
    pub elapsed: Duration,
    /// The latencies of the valid replies counted in `requests`, in
    /// nanoseconds, sorted by [`Round::finish`].
    pub latencies: Vec<u64>,
    /// One reply that was not valid, and why, as the report shows it.
    pub first_error: Option<String>,
}

impl Round {
    /// Counts one error of `kind`, keeping the first one's `detail`.
    pub fn error(&mut self, kind: &str, detail: impl FnOnce() -> String) {
        self.errors += 1;
        *self.error_kinds.entry(kind.to_owned()).or_default() += 1;
        if self.first_error.is_none() {
            self.first_error = Some(detail());
        }
    }

    /// Adds another part of the same round (one connection's).
    pub fn merge(&mut self, other: Round) {
        self.requests += other.requests;
        self.errors += other.errors;
        for (kind, n) in other.error_kinds {
            *self.error_kinds.entry(kind).or_default() += n;
        }
        self.elapsed = self.elapsed.max(other.elapsed);
        self.latencies.extend(other.latencies);
        if self.first_error.is_none() {
            self.first_error = other.first_error;
        }
    }

    /// Sorts the latencies, for [`Round::percentile`].
    pub fn finish(&mut self) {
        self.latencies.sort_unstable();
    }

    /// Valid replies per second of measured time.
    pub fn rate(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.requests as f64 / secs
        } else {
            0.0
        }
    }

    /// The `p`-th percentile latency, in milliseconds.
    pub fn percentile(&self, p: f64) -> Option<f64> {
        percentile(&self.latencies, p).map(|ns| ns as f64 / 1e6)
    }
}

/// The nearest-rank `p`-th percentile (0 < p <= 100) of sorted values.
pub fn percentile(sorted: &[u64], p: f64) -> Option<u64> {
    if sorted.is_empty() || !(p > 0.0 && p <= 100.0) {
        return None;
    }
    let n = sorted.len();
    let rank = ((p / 100.0) * n as f64).ceil() as usize;
    sorted.get(rank.clamp(1, n) - 1).copied()
}

/// The median of some values (the mean of the middle two for an even
/// count); `None` for none.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    if v.len() % 2 == 1 {
        v.get(mid).copied()
    } else {
        Some((v.get(mid - 1).copied()? + v.get(mid).copied()?) / 2.0)
    }
}

/// The percentiles the report prints.
pub const PERCENTILES: [(&str, f64); 3] = [("p50", 50.0), ("p95", 95.0), ("p99", 99.0)];

/// A server's rounds together: sums of counts, medians of rates and
/// percentiles.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Valid replies measured, all rounds.
    pub requests: u64,
    /// Errors, all rounds.
    pub errors: u64,
    /// Errors by kind, all rounds.
    pub error_kinds: BTreeMap<String, u64>,
    /// The median of the rounds' rates (valid replies per second).
    pub rate: Option<f64>,
    /// The medians of the rounds' p50, p95 and p99, in milliseconds.
    pub percentiles: [Option<f64>; 3],
    /// The first invalid reply seen, and why.
    pub first_error: Option<String>,
}

impl Summary {
    /// Summarizes rounds (each [`Round::finish`]ed).
    pub fn of(rounds: &[Round]) -> Summary {
        let mut error_kinds = BTreeMap::new();
        for r in rounds {
            for (kind, n) in &r.error_kinds {
                *error_kinds.entry(kind.clone()).or_default() += n;
            }
        }
        let rates: Vec<f64> = rounds
            .iter()
            .filter(|r| r.requests > 0)
            .map(Round::rate)
            .collect();
        let of = |p: f64| {
            let values: Vec<f64> = rounds.iter().filter_map(|r| r.percentile(p)).collect();
            median(&values)
        };
        Summary {
            requests: rounds.iter().map(|r| r.requests).sum(),
            errors: rounds.iter().map(|r| r.errors).sum(),
            error_kinds,
            rate: median(&rates),
            percentiles: PERCENTILES.map(|(_, p)| of(p)),
            first_error: rounds.iter().find_map(|r| r.first_error.clone()),
        }
    }
}

/// `target / reference`, when both are there and the reference is not 0.
pub fn ratio(target: Option<f64>, reference: Option<f64>) -> Option<f64> {
    match (target, reference) {
        (Some(t), Some(r)) if r > 0.0 => Some(t / r),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&v, 50.0), Some(50));
        assert_eq!(percentile(&v, 95.0), Some(95));
        assert_eq!(percentile(&v, 99.0), Some(99));
        assert_eq!(percentile(&v, 100.0), Some(100));
        // Rank ceil(0.5 * 3) = 2; ceil(0.99 * 3) = 3.
        assert_eq!(percentile(&[10, 20, 30], 50.0), Some(20));
        assert_eq!(percentile(&[10, 20, 30], 99.0), Some(30));
        // One value is every percentile; a tiny p is the smallest value.
        assert_eq!(percentile(&[7], 1.0), Some(7));
        assert_eq!(percentile(&[1, 2], 0.001), Some(1));
        assert_eq!(percentile(&[], 50.0), None);
        assert_eq!(percentile(&[1], 0.0), None);
        assert_eq!(percentile(&[1], 101.0), None);
        assert_eq!(percentile(&[1], f64::NAN), None);
    }

    #[test]
    fn medians_and_ratios() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[f64::NAN, 1.0]), Some(1.0));
        assert_eq!(ratio(Some(2.0), Some(4.0)), Some(0.5));
        assert_eq!(ratio(Some(2.0), Some(0.0)), None);
        assert_eq!(ratio(None, Some(1.0)), None);
    }

    #[test]
    fn rounds_summarize_by_medians_and_sums() {
        let round = |requests: u64, ms: u64, errors: u64| {
            let mut r = Round {
                requests,
                elapsed: Duration::from_secs(1),
                latencies: (1..=requests)
                    .map(|i| i * ms * 1_000_000 / requests)
                    .collect(),
                ..Round::default()
            };
            for _ in 0..errors {
                r.error("invalid reply", || "why".into());
            }
            r.finish();
            r
        };
        let s = Summary::of(&[round(100, 10, 0), round(300, 30, 2), round(200, 20, 1)]);
        assert_eq!((s.requests, s.errors), (600, 3));
        assert_eq!(s.error_kinds.get("invalid reply"), Some(&3));
        assert_eq!(s.rate, Some(200.0));
        assert_eq!(s.percentiles.first().copied().flatten(), Some(10.0));
        assert_eq!(s.first_error.as_deref(), Some("why"));
        // A round with no valid reply has no rate to take the median of.
        let s = Summary::of(&[round(0, 1, 5)]);
        assert_eq!((s.rate, s.percentiles), (None, [None, None, None]));
    }
}
