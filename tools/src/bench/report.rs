//! What `bench` prints: a table (per server: requests, req/s, p50, p95,
//! p99, errors; then the ratios target / reference), the load average at
//! start and end, the two command lines; or, with `--json`, one JSON object
//! (its shape: `docs/bench.md`, "The JSON report").

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::{Value, json};

use super::plan::Plan;
use super::stats::{PERCENTILES, Round, Summary, ratio};
use super::workload::{Call, KINDS, Valid};

/// The machine's load average (`/proc/loadavg`: 1, 5 and 15 minutes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoadAverage(pub Option<[f64; 3]>);

impl LoadAverage {
    /// Now, where the system says (Linux); `None` elsewhere.
    pub fn now() -> LoadAverage {
        LoadAverage(
            std::fs::read_to_string("/proc/loadavg")
                .ok()
                .and_then(|s| parse_loadavg(&s)),
        )
    }

    fn text(self) -> String {
        match self.0 {
            Some([a, b, c]) => format!("{a:.2} {b:.2} {c:.2}"),
            None => "unknown".into(),
        }
    }

    fn json(self) -> Value {
        self.0.map_or(Value::Null, |l| json!(l))
    }
}

fn parse_loadavg(s: &str) -> Option<[f64; 3]> {
    let mut it = s.split_whitespace().map(|w| w.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// One server's rounds.
#[derive(Debug, Clone)]
pub struct Server {
    /// Its command line, or URL.
    pub command: String,
    /// Its rounds, in order.
    pub rounds: Vec<Round>,
    /// Their medians and sums.
    pub summary: Summary,
}

/// A run's report.
#[derive(Debug, Clone)]
pub struct Report {
    /// `stdio` or `http`.
    pub transport: &'static str,
    /// The plan.
    pub plan: Plan,
    /// The tool call of the mix.
    pub call: Call,
    /// How replies were judged.
    pub valid: Valid,
    /// The configuration file the reference served (`None`: the textbook's).
    pub config_file: Option<PathBuf>,
    /// The load average before the first round.
    pub load_start: LoadAverage,
    /// The load average after the last.
    pub load_end: LoadAverage,
    /// The reference.
    pub reference: Server,
    /// The server under test.
    pub target: Server,
}

fn ms(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v:.3}"))
}

fn times(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v:.2}"))
}

fn round_json(r: &Round) -> Value {
    let mut v = json!({
        "requests": r.requests,
        "errors": r.errors,
        "seconds": r.elapsed.as_secs_f64(),
        "rate": r.rate(),
    });
    for (name, p) in PERCENTILES {
        v[format!("{name}_ms")] = json!(r.percentile(p));
    }
    v
}

fn server_json(s: &Server) -> Value {
    let mut v = json!({
        "command": s.command,
        "requests": s.summary.requests,
        "errors": s.summary.errors,
        "error_kinds": s.summary.error_kinds,
        "first_error": s.summary.first_error,
        "rate": s.summary.rate,
        "rounds": s.rounds.iter().map(round_json).collect::<Vec<_>>(),
    });
    for ((name, _), p) in PERCENTILES.iter().zip(s.summary.percentiles) {
        v[format!("{name}_ms")] = json!(p);
    }
    v
}

impl Report {
    /// Whether the server under test had no error.
    pub fn target_clean(&self) -> bool {
        self.target.summary.errors == 0
    }

    /// Whether the reference had no error: without that, the run is no
    /// comparison (a wrong `--config` for the model, or a machine too
    /// loaded for `--timeout-ms`).
    pub fn reference_clean(&self) -> bool {
        self.reference.summary.errors == 0
    }

    /// The ratios target / reference: rate, p50, p95, p99.
    pub fn ratios(&self) -> [Option<f64>; 4] {
        let (t, r) = (&self.target.summary, &self.reference.summary);
        let [t50, t95, t99] = t.percentiles;
        let [r50, r95, r99] = r.percentiles;
        [
            ratio(t.rate, r.rate),
            ratio(t50, r50),
            ratio(t95, r95),
            ratio(t99, r99),
        ]
    }

    fn configuration(&self) -> String {
        self.config_file.as_ref().map_or_else(
            || "the textbook configuration".into(),
            |f| f.display().to_string(),
        )
    }

    fn arguments(&self) -> String {
        Value::Object(self.call.arguments.clone()).to_string()
    }

    /// The report as one JSON object.
    pub fn json(&self) -> Value {
        let [rate, p50, p95, p99] = self.ratios();
        let plan = &self.plan;
        json!({
            "transport": self.transport,
            "workload": {
                "methods": KINDS,
                "call": { "name": self.call.name, "arguments": self.call.arguments },
                "valid": self.valid.as_str(),
                "config": self.config_file.as_ref().map(|f| f.display().to_string()),
            },
            "plan": {
                "rounds": plan.rounds,
                "duration_s": plan.duration.as_secs_f64(),
                "warmup_s": plan.warmup.as_secs_f64(),
                "requests": plan.requests,
                "concurrency": (self.transport == "stdio").then_some(plan.concurrency),
                "connections": (self.transport == "http").then_some(plan.connections),
                "timeout_ms": u64::try_from(plan.timeout.as_millis()).unwrap_or(u64::MAX),
            },
            "load_average": { "start": self.load_start.json(), "end": self.load_end.json() },
            "reference": server_json(&self.reference),
            "target": server_json(&self.target),
            "ratios": { "rate": rate, "p50": p50, "p95": p95, "p99": p99 },
        })
    }

    /// The report as a table.
    pub fn text(&self) -> String {
        let plan = &self.plan;
        let mut out = String::new();
        let pushing = if self.transport == "stdio" {
            format!("{} in flight", plan.concurrency)
        } else {
            format!("{} connections", plan.connections)
        };
        let length = match plan.requests {
            Some(n) => format!("{n} requests (at most {} s)", plan.duration.as_secs_f64()),
            None => format!("{} s", plan.duration.as_secs_f64()),
        };
        let _ = writeln!(
            out,
            "bench over {}: {} round{} each of {length} after a {} s warm-up, {pushing}",
            self.transport,
            plan.rounds,
            if plan.rounds == 1 { "" } else { "s" },
            plan.warmup.as_secs_f64(),
        );
        let _ = writeln!(
            out,
            "workload: server/discover, tools/list, tools/call {} {}, in turn; valid: {}; the reference serves {}",
            self.call.name,
            self.arguments(),
            match self.valid {
                Valid::Model => "the model's reply (judged by the reference's configuration)",
                Valid::Result => "a result with the request's id",
            },
            self.configuration(),
        );
        let _ = writeln!(
            out,
            "load average: {} at start, {} at end",
            self.load_start.text(),
            self.load_end.text()
        );
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{:<10} {:>10} {:>11} {:>9} {:>9} {:>9} {:>7}",
            "server", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors"
        );
        for (name, s) in [("reference", &self.reference), ("target", &self.target)] {
            let [p50, p95, p99] = s.summary.percentiles;
            let _ = writeln!(
                out,
                "{:<10} {:>10} {:>11} {:>9} {:>9} {:>9} {:>7}",
                name,
                s.summary.requests,
                s.summary
                    .rate
                    .map_or_else(|| "-".into(), |r| format!("{r:.1}")),
                ms(p50),
                ms(p95),
                ms(p99),
                s.summary.errors,
            );
        }
        let [rate, p50, p95, p99] = self.ratios();
        let _ = writeln!(
            out,
            "{:<10} {:>10} {:>11} {:>9} {:>9} {:>9}",
            "ratio",
            "",
            times(rate),
            times(p50),
            times(p95),
            times(p99),
        );
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "ratio: target / reference (medians of the rounds; req/s counts valid replies only, \
             higher is faster; a latency ratio above 1 is slower)"
        );
        for (name, s) in [("reference", &self.reference), ("target", &self.target)] {
            let _ = writeln!(out, "{name}: {}", s.command);
            if s.summary.errors > 0 {
                let kinds: Vec<String> = s
                    .summary
                    .error_kinds
                    .iter()
                    .map(|(k, n)| format!("{n} {k}"))
                    .collect();
                let _ = writeln!(out, "  errors: {}", kinds.join(", "));
                if let Some(first) = &s.summary.first_error {
                    let _ = writeln!(out, "  first: {first}");
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_averages_parse() {
        assert_eq!(
            parse_loadavg("0.52 0.58 0.59 1/467 12345\n"),
            Some([0.52, 0.58, 0.59])
        );
        assert_eq!(parse_loadavg("0.52 x 0.59"), None);
        assert_eq!(parse_loadavg(""), None);
    }
}
