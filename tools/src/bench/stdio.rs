//! One bench round over stdio: a process started for the round, a first
//! request that must be answered before anything is measured (else the
//! server could not be started: [`Start`]), then requests pipelined on its
//! stdin with at most `concurrency` of them unanswered at once, each reply
//! matched to its request by id and judged ([`super::workload`], through
//! [`super::verdicts`]).
//!
//! A request's latency is the time from handing its line to the writer
//! thread to its reply line being taken off the reader thread's channel,
//! both in this thread; the time this thread spends judging one reply is
//! inside the latencies of the replies queued behind it, for the reference
//! and the target alike.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::check::wire;
use crate::process::{Launch, Next, Proc};

use super::plan::{Plan, Start};
use super::stats::Round;
use super::verdicts::Verdicts;
use super::workload::Workload;

struct Pending {
    n: u64,
    sent: Instant,
    measured: bool,
    line: Vec<u8>,
}

/// Runs one round against a process started with `launch`.
pub fn round(launch: &Launch, workload: &Workload, plan: &Plan) -> Result<Round, Start> {
    let mut proc = Proc::spawn(launch).map_err(Start)?;
    let mut round = Round::default();
    let mut verdicts = Verdicts::default();
    // The first request: the server is up when it is answered.
    let first = workload.line(0);
    proc.send([first.as_slice(), b"\n"].concat());
    let reply = match proc.next(Instant::now() + plan.start_timeout) {
        Next::Line(line) => line,
        Next::Timeout | Next::Closed => {
            let (tail, _) = proc.stderr_tail();
            return Err(Start(format!(
                "{} answered nothing within {} s{}",
                launch.display(),
                plan.start_timeout.as_secs(),
                if tail.is_empty() {
                    String::new()
                } else {
                    format!(" (its stderr ends: {})", wire::show(tail.as_bytes(), 300))
                }
            )));
        }
    };
    if let Err(e) = verdicts.judge(workload, 0, &first, &reply.bytes) {
        round.error(e.kind, || e.detail);
    }
    let start = Instant::now();
    let warm_end = start + plan.warmup;
    let end = warm_end + plan.duration;
    let mut pending: HashMap<u64, Pending> = HashMap::new();
    let mut next_n: u64 = 1;
    let mut measured_sent: u64 = 0;
    let mut last_arrival = warm_end;
    loop {
        let now = Instant::now();
        let stopping = now >= end || plan.requests.is_some_and(|cap| measured_sent >= cap);
        while !stopping && pending.len() < plan.concurrency {
            let line = workload.line(next_n);
            let sent = Instant::now();
            let measured = sent >= warm_end;
            proc.send([line.as_slice(), b"\n"].concat());
            pending.insert(
                next_n + 1,
                Pending {
                    n: next_n,
                    sent,
                    measured,
                    line,
                },
            );
            measured_sent += u64::from(measured);
            next_n += 1;
        }
        if stopping && pending.is_empty() {
            break;
        }
        match proc.next(Instant::now() + plan.timeout) {
            Next::Line(line) => {
                let arrived = Instant::now();
                let id = wire::raw_id(&line.bytes).and_then(|id| id.parse::<u64>().ok());
                let Some(p) = id.and_then(|id| pending.remove(&id)) else {
                    round.error("a line that answers no request", || {
                        format!(
                            "a line whose id matches no request in flight: {}",
                            wire::show(&line.bytes, 300)
                        )
                    });
                    continue;
                };
                match verdicts.judge(workload, p.n, &p.line, &line.bytes) {
                    Ok(()) if p.measured => {
                        round.requests += 1;
                        let ns = arrived.saturating_duration_since(p.sent).as_nanos();
                        round.latencies.push(u64::try_from(ns).unwrap_or(u64::MAX));
                        last_arrival = last_arrival.max(arrived);
                    }
                    Ok(()) => {}
                    Err(e) => round.error(e.kind, || e.detail),
                }
            }
            Next::Timeout | Next::Closed => {
                let why = if proc.exited().is_some() {
                    "the server exited"
                } else {
                    "no reply in time"
                };
                for p in pending.values() {
                    round.error(why, || {
                        format!(
                            "{why} (--timeout-ms {}) to {}",
                            plan.timeout.as_millis(),
                            wire::show(&p.line, 300)
                        )
                    });
                }
                pending.clear();
                break;
            }
        }
    }
    round.elapsed = last_arrival.saturating_duration_since(warm_end);
    proc.close_input();
    let _ = proc.wait_exit(Instant::now() + Duration::from_secs(1));
    round.finish();
    Ok(round)
}
