//! `mcp-reference diff`: differential testing of another implementation of
//! the book-orders server against this reference: every kind of
//! difference, each shrunk to a small case.
//!
//! Each generated case is a configuration and one to `max_lines` lines
//! drawn from [`mcp_reference_testkit::strategy::case`] (requests of every
//! kind, broken ones, notifications, client responses, hostile lines).
//! The configuration is the textbook one ([`Config::default`]) unless one
//! is pinned ([`Options::config`]) or generated configurations are asked
//! for ([`Options::generate_configs`], for commands that read
//! `MCP_REFERENCE_CONFIG`). Cases run as `exec` says: on one reused
//! process while their lines are stateless, on a fresh process (lines,
//! then end-of-file) otherwise and for every sixteenth case.
//!
//! A difference is charged to the line whose reply first differs, and its
//! class is the row of `docs/behavior.md` that decided the reference's
//! reply to that line (the model's [`model::legacy::step`] says which) and
//! the kind of difference ([`compare::Difference`]). The search goes on
//! after a difference, counting cases per class; then the first case of
//! each class is shrunk (`shrink`) while the difference keeps its kind,
//! confirmed on a fresh process, and classes whose shrunk cases have the
//! same row and part of the reply are merged. Generation is driven by a
//! ChaCha generator seeded from the seed alone: the same seed, case count
//! and command give the same report (as long as the command is
//! deterministic).
//!
//! Spec: the rules compared are the reference's (`docs/behavior.md`); the
//! stdio handling follows 2026-07-28 `basic/transports/stdio.mdx`
//! (newline-delimited messages; shutdown by closing stdin).

pub mod compare;
mod exec;
mod report;
mod shrink;

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as RunnerConfig, RngAlgorithm, TestRng, TestRunner};
use serde_json::Value;

use crate::check::process::Launch;
use exec::{Exec, Mode};
use mcp_reference::Config;
use mcp_reference_testkit::model;
use mcp_reference_testkit::strategy;

/// What to compare, and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// The implementation's command: program and arguments.
    pub command: Vec<OsString>,
    /// How many cases to generate.
    pub cases: u32,
    /// The generator's seed.
    pub seed: u64,
    /// How long one case may take, from writing its lines to the command's
    /// stdout closing (or, on a reused process, to each line's answer).
    pub timeout: Duration,
    /// The longest sequence of lines in a case.
    pub max_lines: usize,
    /// How many runs shrinking one class may take (0: report each class's
    /// first case as found).
    pub shrink_iters: u32,
    /// The configuration of every case (`None`: the textbook's, or
    /// generated ones with [`Options::generate_configs`]).
    pub config: Option<Config>,
    /// Draw a configuration per case (shrunk toward the textbook's first).
    pub generate_configs: bool,
    /// Stop generating cases after this long (shrinking and confirming
    /// what was found still run).
    pub time_budget: Option<Duration>,
}

impl Options {
    /// Defaults: 256 cases, seed 0, 5 s per case, up to 8 lines a case,
    /// up to 500 shrinking runs per class, the textbook configuration, no
    /// time budget.
    pub fn new(command: Vec<OsString>) -> Options {
        Options {
            command,
            cases: 256,
            seed: 0,
            timeout: Duration::from_secs(5),
            max_lines: 8,
            shrink_iters: 500,
            config: None,
            generate_configs: false,
            time_budget: None,
        }
    }
}

/// Why no comparison could be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunError(pub String);

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RunError {}

/// One class of difference, with its smallest case found.
#[derive(Debug, Clone)]
pub struct Class {
    /// The row of `docs/behavior.md` that decided the reference's reply
    /// to the line whose reply differs.
    pub row: String,
    /// The other rows that decided the reference's reply in cases counted
    /// here (the same part of the reply differs, charged to the same row).
    pub merged: Vec<String>,
    /// That row's one-line rule (`docs/rows.json`).
    pub rule: String,
    /// The other rows that applied to that line (notes, W1).
    pub also: Vec<String>,
    /// How many generated cases fell into this class.
    pub count: u64,
    /// The difference on the minimal case, in one sentence.
    pub difference: String,
    /// The configuration both were given, when it is not the textbook one.
    pub config: Option<Value>,
    /// The input lines, in order (without newlines).
    pub lines: Vec<Vec<u8>>,
    /// The reference's reply lines (on a fresh process).
    pub reference: Vec<Vec<u8>>,
    /// The command's stdout lines (on a fresh process).
    pub command: Vec<Vec<u8>>,
}

/// Kept for callers of the earlier, one-difference report: a class.
pub type Counterexample = Class;

/// The result of a run.
#[derive(Debug, Clone)]
pub struct DiffReport {
    /// The command compared.
    pub command: String,
    /// The command's program and arguments, as given.
    pub argv: Vec<String>,
    /// The seed.
    pub seed: u64,
    /// How many cases were asked for.
    pub cases: u32,
    /// How many generated cases ran (fewer than `cases` when the time
    /// budget cut the search short).
    pub cases_run: u32,
    /// How many runs were made, shrinking and confirming included.
    pub runs: u64,
    /// How many runs used a fresh process.
    pub fresh_runs: u64,
    /// Whether the command could be reused across cases.
    pub reused: bool,
    /// Generated cases whose difference did not show again on a fresh
    /// process (not reported as a class).
    pub unconfirmed: u64,
    /// The classes of difference, in the order they were first found.
    pub classes: Vec<Class>,
    /// How long the whole run took.
    pub elapsed: Duration,
}

impl DiffReport {
    /// The first class, if any.
    pub fn counterexample(&self) -> Option<&Class> {
        self.classes.first()
    }
}

/// A class found while searching: its first case and how it ran.
struct Seen {
    config: Config,
    lines: Vec<Vec<u8>>,
    mode: Mode,
    kind: String,
    count: u64,
}

/// The kind of a line that is not JSON.
const NOT_JSON: &str = "the command's line is not JSON";

/// The part of the reply a kind names (`/result/resultType` -> `/result`).
fn part(kind: &str) -> String {
    match kind.strip_prefix('/') {
        Some(rest) => format!("/{}", rest.split('/').next().unwrap_or_default()),
        None => kind.to_string(),
    }
}

/// Runs the comparison.
pub fn run(options: &Options) -> Result<DiffReport, RunError> {
    let started = Instant::now();
    let launch = Launch {
        argv: options.command.clone(),
        env: Vec::new(),
        // The configuration file's user is the user: an inherited
        // MCP_REFERENCE_USER would override it.
        env_remove: vec!["MCP_REFERENCE_USER".into()],
    };
    let command = launch.display();
    // One file per run, even for runs in parallel threads of one process.
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let config_file: PathBuf = std::env::temp_dir().join(format!(
        "mcp-reference-diff-{}-{}.json",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let mut exec = Exec::new(launch, config_file.clone(), options.timeout);
    let result = search(&mut exec, options);
    let _ = std::fs::remove_file(&config_file);
    let (cases_run, classes, unconfirmed, fresh_runs) = result.map_err(RunError)?;
    Ok(DiffReport {
        command,
        argv: options
            .command
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        seed: options.seed,
        cases: options.cases,
        cases_run,
        runs: exec.runs,
        fresh_runs,
        reused: !exec.no_reuse,
        unconfirmed,
        classes,
        elapsed: started.elapsed(),
    })
}

type Searched = (u32, Vec<Class>, u64, u64);

fn search(exec: &mut Exec, options: &Options) -> Result<Searched, String> {
    // A first run on the textbook data: a command that cannot start is a
    // usage problem, not a difference.
    let pinned = options.config.clone().unwrap_or_default();
    exec.fresh(&pinned, &[])?;
    let mut fresh_runs = 1;
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&options.seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
    let mut runner = TestRunner::new_with_rng(
        RunnerConfig {
            failure_persistence: None,
            ..RunnerConfig::default()
        },
        rng,
    );
    let max = options.max_lines.max(1);
    let mut seen: Vec<((&'static str, String), Seen)> = Vec::new();
    let mut cases_run = 0;
    for i in 0..options.cases {
        if options
            .time_budget
            .is_some_and(|budget| started_over(exec, budget))
        {
            break;
        }
        let config = if options.generate_configs {
            strategy::config()
                .new_tree(&mut runner)
                .map_err(|e| format!("cannot generate a configuration: {e}"))?
                .current()
        } else {
            pinned.clone()
        };
        let lines: Vec<Vec<u8>> = proptest::collection::vec(strategy::case(&config), 1..=max)
            .new_tree(&mut runner)
            .map_err(|e| format!("cannot generate a case: {e}"))?
            .current()
            .into_iter()
            .map(|c| c.line)
            .collect();
        let mode = if i % 16 == 0 {
            Mode::Fresh
        } else {
            Mode::Reused
        };
        let (outcome, used) = exec.run(&config, &lines, mode)?;
        if used == Mode::Fresh {
            fresh_runs += 1;
        }
        cases_run += 1;
        let Some(found) = outcome.found else {
            continue;
        };
        let key = (exec::row(&config, &lines, found.line), found.kind.clone());
        match seen.iter_mut().find(|(k, _)| *k == key) {
            Some((_, s)) => s.count += 1,
            None => seen.push((
                key,
                Seen {
                    config,
                    lines,
                    mode: used,
                    kind: found.kind,
                    count: 1,
                },
            )),
        }
    }
    // Shrink, confirm and merge.
    let mut classes: Vec<(String, String, Class)> = Vec::new();
    let mut unconfirmed = 0;
    for (_, s) in seen {
        let kind = s.kind.clone();
        // A class found on a fresh process is shrunk on the reused one when
        // it shows there too: fresh processes are what is slow.
        let mode = match s.mode {
            Mode::Fresh if exec::reusable(&s.config, &s.lines) => {
                match exec.run(&s.config, &s.lines, Mode::Reused)? {
                    (o, Mode::Reused)
                        if o.found
                            .as_ref()
                            .is_some_and(|f| part(&f.kind) == part(&kind)) =>
                    {
                        Mode::Reused
                    }
                    _ => Mode::Fresh,
                }
            }
            other => other,
        };
        let mut error = None;
        let (config, lines) = shrink::shrink(
            (s.config.clone(), s.lines.clone()),
            options.shrink_iters,
            &mut |config, lines| match exec.run(config, lines, mode) {
                Ok((o, used)) => {
                    if used == Mode::Fresh {
                        fresh_runs += 1;
                    }
                    o.found.is_some_and(|f| part(&f.kind) == part(&kind))
                }
                Err(e) => {
                    error = Some(e);
                    false
                }
            },
        );
        if let Some(e) = error {
            return Err(e);
        }
        let mut confirmed = None;
        for (config, lines) in [(config, lines), (s.config, s.lines)] {
            fresh_runs += 1;
            let outcome = exec.fresh(&config, &lines)?;
            if let Some(found) = outcome.found.clone() {
                confirmed = Some((config, lines, outcome, found));
                break;
            }
        }
        let Some((config, lines, outcome, found)) = confirmed else {
            unconfirmed += s.count;
            continue;
        };
        let expect = expect_at(&config, &lines, found.line);
        let part = part(&found.kind);
        // The row the class is charged to: the one that decided the
        // reference's reply, except for what no such row decides: an id
        // echoed otherwise (E10), a line that is not a message (W1), and a
        // difference that shows only at end-of-file (DEC13).
        let at_eof = mode == Mode::Fresh
            && found.kind == "the command wrote fewer replies"
            && exec::reusable(&config, &lines)
            && matches!(exec.run(&config, &lines, Mode::Reused)?, (o, Mode::Reused) if o.found.is_none());
        let row = if part == "/id" {
            "E10"
        } else if part == NOT_JSON {
            "W1"
        } else if at_eof {
            "DEC13"
        } else {
            expect.row
        };
        let reply = String::new();
        let key = (part, format!("{row}{reply}"));
        if let Some((_, _, class)) = classes
            .iter_mut()
            .find(|(p, r, _)| (p, r) == (&key.0, &key.1))
        {
            class.count += s.count;
            if class.row != expect.row && !class.merged.iter().any(|r| r == expect.row) {
                class.merged.push(expect.row.to_string());
            }
            continue;
        }
        let also: Vec<String> = expect
            .rows()
            .filter(|r| *r != row)
            .map(str::to_string)
            .collect();
        let rule = model::rows::row(row)
            .map(|r| r.rule.clone())
            .unwrap_or_else(|| "a decision of docs/behavior.md (its Decisions table)".into());
        let shown = (config != Config::default())
            .then(|| serde_json::from_str::<Value>(&config.to_json()).unwrap_or_default());
        classes.push((
            key.0,
            key.1,
            Class {
                row: row.to_string(),
                merged: Vec::new(),
                rule,
                also,
                count: s.count,
                difference: found.sentence,
                config: shown,
                lines,
                reference: outcome.reference,
                command: outcome.command,
            },
        ));
    }
    Ok((
        cases_run,
        classes.into_iter().map(|(_, _, c)| c).collect(),
        unconfirmed,
        fresh_runs,
    ))
}

fn started_over(exec: &Exec, budget: Duration) -> bool {
    exec.started.elapsed() >= budget
}

/// The model's expectation for line `at`, stepping through the lines
/// before it.
fn expect_at(config: &Config, lines: &[Vec<u8>], at: usize) -> model::Expect {
    let mut state = model::State::Fresh;
    let mut last = model::Expect::new("F1", model::Reply::Unknown);
    for line in lines.iter().take(at + 1) {
        let (next, expect) = model::legacy::step(config, &state, line);
        state = next;
        last = expect;
    }
    last
}
