//! Decoding, dispatch and encoding of one request, per request class,
//! against the floor of merely parsing and re-serializing the same bytes.
//!
//! Each criterion group is one class of `benches/common` and has two
//! functions measured in the same run on the same bytes:
//!
//! - `respond`: `Server::respond_into` with one output buffer reused across
//!   iterations, which is what the stdio driver does;
//! - `floor`: `serde_json::from_slice::<Value>` of the line, then
//!   `serde_json::to_vec` of that value (for the parse-error class the
//!   parse fails and there is nothing to serialize).
//!
//! Before anything is timed every class's reply is checked against its
//! expectation and validated against the official 2026-07-28 schema, so no
//! figure can come from a reply that skipped a rule.
//!
//! Run: `cargo bench --bench dispatch`, then `python3 scripts/ratios.py`
//! for the `respond / floor` table (docs/performance.md). `cargo bench
//! --bench dispatch -- --paired` measures the same ratios in alternating
//! rounds instead (see [`paired`]), which holds steadier on a busy machine.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use mcp_reference::Server;
use mcp_reference_testkit::schema::Schema;
use serde_json::Value;

/// Every class with the server it runs on: the textbook's classes on the
/// textbook's configuration, the catalog's (issue 32) on the example one.
fn all_classes() -> Vec<(common::Class, std::rc::Rc<Server>)> {
    let textbook = std::rc::Rc::new(common::server());
    let catalog = std::rc::Rc::new(common::catalog_server());
    let mut all: Vec<_> = common::classes()
        .into_iter()
        .map(|c| (c, textbook.clone()))
        .collect();
    all.extend(
        common::catalog_classes()
            .into_iter()
            .map(|c| (c, catalog.clone())),
    );
    all
}

fn check_all() {
    let schema = Schema::find("2026-07-28")
        .unwrap_or_else(|e| panic!("the official schema is needed to check bench replies: {e}"));
    for (class, server) in all_classes() {
        let reply = class.check(&server).unwrap_or_else(|e| panic!("{e}"));
        let method = serde_json::from_slice::<Value>(&class.line)
            .ok()
            .and_then(|v| v["method"].as_str().map(str::to_owned));
        if let Err(e) = schema.validate_reply(method.as_deref(), &reply) {
            panic!(
                "{}: reply breaks the schema: {e}\nreply: {reply}",
                class.name
            );
        }
    }
}

/// What `respond` is measured as: one line into a reused buffer.
fn respond_once(server: &Server, line: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let d = server.respond_into(black_box(line), out);
    black_box((d, &*out));
}

/// The floor: parse into a `Value`, serialize that value.
fn floor_once(line: &[u8]) {
    match serde_json::from_slice::<Value>(black_box(line)) {
        Ok(value) => {
            black_box(serde_json::to_vec(&value).ok());
        }
        Err(e) => {
            black_box(e);
        }
    }
}

fn dispatch(c: &mut Criterion) {
    check_all();
    for (class, server) in all_classes() {
        let mut group = c.benchmark_group(class.name);
        group.throughput(criterion::Throughput::Bytes(class.line.len() as u64));
        let line = class.line.as_slice();
        let mut out = Vec::with_capacity(64 * 1024);
        group.bench_function("respond", |b| {
            b.iter(|| respond_once(&server, line, &mut out))
        });
        group.bench_function("floor", |b| b.iter(|| floor_once(line)));
        group.finish();
    }
}

/// `--paired`: the ratio measured in alternating rounds instead of two
/// separate criterion runs. Each round times a batch of `respond` calls and
/// a batch of floor calls on the same line (in alternating order), a few
/// hundred microseconds apart, and the ratio of the two is one sample; the
/// median over all rounds is printed. On a machine shared with other work,
/// whose load changes from one second to the next, this holds steadier
/// than the ratio of two medians taken seconds apart.
fn paired() {
    const ROUNDS: usize = 400;
    const BATCH: Duration = Duration::from_micros(200);
    check_all();
    let mut out = Vec::with_capacity(64 * 1024);
    println!(
        "| class | respond (ns) | floor (ns) | respond / floor (median of {ROUNDS} paired rounds) |"
    );
    println!("| --- | ---: | ---: | ---: |");
    for (class, server) in all_classes() {
        let line = class.line.as_slice();
        // Calls per batch: enough for the floor to take about BATCH.
        let start = Instant::now();
        let mut calls = 0u32;
        while start.elapsed() < BATCH {
            floor_once(line);
            calls += 1;
        }
        let time = |f: &mut dyn FnMut()| {
            let start = Instant::now();
            for _ in 0..calls {
                f();
            }
            start.elapsed().as_secs_f64() * 1e9 / f64::from(calls)
        };
        let (mut ratios, mut responds, mut floors) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..ROUNDS {
            let mut r = || respond_once(&server, line, &mut out);
            let mut f = || floor_once(line);
            let (respond, floor) = if round % 2 == 0 {
                let a = time(&mut r);
                (a, time(&mut f))
            } else {
                let b = time(&mut f);
                (time(&mut r), b)
            };
            ratios.push(respond / floor);
            responds.push(respond);
            floors.push(floor);
        }
        println!(
            "| {} | {:.0} | {:.0} | {:.2} |",
            class.title,
            median(&mut responds),
            median(&mut floors),
            median(&mut ratios)
        );
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    if std::env::args().any(|a| a == "--paired") {
        paired();
        return;
    }
    // What `criterion_main!` would expand to, with the `--paired` mode above.
    let mut c = Criterion::default()
        // Short runs: the two functions of a group run back to back.
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50)
        .configure_from_args();
    dispatch(&mut c);
    c.final_summary();
}
