//! A stable harness to measure (and profile) the fuzz checks without
//! libFuzzer or a sanitizer: every committed input of a target (its seed
//! corpus and its regressions) through the target's check function, over
//! and over, and the mean time per input printed. Ignored by default; run
//! in release, optionally under `perf record` or `valgrind --tool=callgrind`
//! (docs/fuzzing.md, "Speed of the checks"):
//!
//! ```sh
//! FUZZ_PROFILE_TARGET=respond_bytes FUZZ_PROFILE_ROUNDS=2000 \
//!   cargo test --release -p mcp-reference-testkit --no-default-features --lib \
//!   -- --ignored --nocapture fuzz_checks_speed
//! ```
//!
//! It asserts nothing about time (the machine decides that); it fails only
//! when a check fails on a committed input, as the replay test would.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::TARGETS;

fn inputs(target: &str) -> Vec<Vec<u8>> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut files: Vec<PathBuf> = ["corpus", "regressions"]
        .iter()
        .filter_map(|d| std::fs::read_dir(fuzz.join(d).join(target)).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    files.iter().filter_map(|f| std::fs::read(f).ok()).collect()
}

/// Every target's committed inputs, `FUZZ_PROFILE_ROUNDS` times (default
/// 200), the mean time per input printed; `FUZZ_PROFILE_TARGET` picks one
/// target.
#[test]
#[ignore = "a measurement: run by hand in release"]
fn fuzz_checks_speed() {
    let rounds: u32 = std::env::var("FUZZ_PROFILE_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(200);
    let only = std::env::var("FUZZ_PROFILE_TARGET").ok();
    for (name, check) in TARGETS {
        if only.as_deref().is_some_and(|o| o != *name) {
            continue;
        }
        let inputs = inputs(name);
        assert!(!inputs.is_empty(), "no committed inputs for {name}");
        let start = Instant::now();
        for _ in 0..rounds {
            for input in &inputs {
                check(input);
            }
        }
        let runs = f64::from(rounds) * inputs.len() as f64;
        let micros = start.elapsed().as_secs_f64() * 1e6 / runs;
        println!(
            "{name}: {} inputs x {rounds} rounds, {micros:.1} us per input",
            inputs.len()
        );
    }
}
