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
//! then end-of-file) otherwise and for one case in 64, `FRESH_EVERY` (what
//! shows only at end-of-file). Replies are paired with lines by id as well
//! as by order (`pair`).
//!
//! A difference is charged to the line whose replies first differ, and its
//! class is the row of `docs/behavior.md` that decided the reference's
//! reply to that line (the model's [`model::legacy::step`] says which) and
//! the part of the reply that differs ([`compare::Difference`]). The search
//! goes on after a difference, counting cases per class. Then, per class:
//! the line charged, alone on the reused process (for a case found on a
//! fresh process, each line in turn), is tried first: when it shows the
//! difference under the row of a class already reported, the case is
//! counted there with no more runs. Otherwise the case is shrunk (`shrink`)
//! while the difference keeps its part, on the reused process when it
//! shows there (within `Options::shrink_iters` runs, 8 (`FRESH_SHRINK`) on
//! fresh processes, 4 (`SHRINK_TOTAL`) times `shrink_iters` for all classes;
//! run results are remembered across classes), and only the final case is
//! confirmed on a fresh process; classes whose shrunk cases have the same
//! row and part are merged. Generation is driven by a ChaCha generator
//! seeded from the seed alone: the same seed, case count and command give
//! the same report (as long as the command is deterministic).
//!
//! Spec: the rules compared are the reference's (`docs/behavior.md`); the
//! stdio handling follows 2026-07-28 `basic/transports/stdio.mdx`
//! (newline-delimited messages; shutdown by closing stdin).

pub mod compare;
mod exec;
pub mod http;
mod pair;
mod report;
mod shrink;

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as RunnerConfig, RngAlgorithm, TestRng, TestRunner};
use serde_json::Value;

use crate::process::Launch;
use exec::{Exec, Mode};
use mcp_reference::Config;
use mcp_reference_testkit::model;
use mcp_reference_testkit::strategy;
use pair::Lines;

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
    /// The other rows that decided the reference's reply, in the cases as
    /// found (before shrinking), to the line charged in cases counted here.
    pub merged: Vec<String>,
    /// That row's one-line rule (`docs/rows.json`).
    pub rule: String,
    /// The other rows that applied to that line (notes, W1).
    pub also: Vec<String>,
    /// How many generated cases fell into this class.
    pub count: u64,
    /// How many candidates shrinking this class tried (each a run, unless
    /// another class had run it already); 0 when it was not shrunk.
    pub shrink_runs: u32,
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
    /// The starts of the reused process: why, and how many times.
    pub reused_starts: Vec<(String, u64)>,
    /// Replies that came after a reused run had given up waiting for them
    /// (dropped, not paired).
    pub late: u64,
    /// Generated cases whose difference did not show again on a fresh
    /// process (not reported as a class).
    pub unconfirmed: u64,
    /// The classes of difference, in the order they were first found.
    pub classes: Vec<Class>,
    /// Late-reply waits on the reused process: those run to their end,
    /// those skipped on rows the command is silent on (`exec`), and the
    /// wait's length at the end, in milliseconds.
    pub waits: (u64, u64, u64),
    /// How long the search took (generating and running cases).
    pub searched: Duration,
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
    /// The line the difference is charged to.
    line: usize,
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
    let (cases_run, classes, unconfirmed) = result.map_err(RunError)?;
    let mut reused_starts: Vec<(String, u64)> = Vec::new();
    for why in &exec.starts {
        match reused_starts.iter_mut().find(|(w, _)| w == why.says()) {
            Some((_, n)) => *n += 1,
            None => reused_starts.push((why.says().to_string(), 1)),
        }
    }
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
        fresh_runs: exec.fresh_runs,
        reused: !exec.no_reuse,
        reused_starts,
        late: exec.late,
        unconfirmed,
        waits: (
            exec.waits_run,
            exec.waits_skipped,
            u64::try_from(exec.late_wait().as_millis()).unwrap_or(u64::MAX),
        ),
        searched: exec.searched.unwrap_or_default(),
        classes,
        elapsed: started.elapsed(),
    })
}

type Searched = (u32, Vec<Class>, u64);

/// One generated case in this many runs on a fresh process (lines, then
/// end-of-file), from the first: what shows only at end-of-file.
const FRESH_EVERY: u32 = 64;

/// The most runs shrinking a class may take on fresh processes (a class
/// that shows only there): each starts the command.
const FRESH_SHRINK: u32 = 8;

/// All classes together may take this many times the runs one class may
/// (`Options::shrink_iters`) to shrink.
const SHRINK_TOTAL: u32 = 4;

/// The generator of a run: ChaCha, seeded from `seed` alone, so the same
/// seed gives the same cases.
fn seeded_runner(seed: u64) -> TestRunner {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    TestRunner::new_with_rng(
        RunnerConfig {
            failure_persistence: None,
            ..RunnerConfig::default()
        },
        rng,
    )
}

fn search(exec: &mut Exec, options: &Options) -> Result<Searched, String> {
    let pinned = options.config.clone().unwrap_or_default();
    let mut runner = seeded_runner(options.seed);
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
        let mode = if i % FRESH_EVERY == 0 {
            Mode::Fresh
        } else {
            Mode::Reused
        };
        let (outcome, used) = exec.run(&config, &lines, mode)?;
        cases_run += 1;
        let Some(found) = outcome.found else {
            continue;
        };
        let key = (exec::row(&config, &lines, found.line), part(&found.kind));
        match seen.iter_mut().find(|(k, _)| *k == key) {
            Some((_, s)) => s.count += 1,
            None => seen.push((
                key,
                Seen {
                    config,
                    lines,
                    line: found.line,
                    mode: used,
                    kind: found.kind,
                    count: 1,
                },
            )),
        }
    }
    exec.searched = Some(exec.started.elapsed());
    // A command that cannot start is a usage problem, not a difference
    // (the first case, on a fresh process, would have said so).
    if cases_run == 0 {
        exec.fresh(&pinned, &[])?;
    }
    // Shrink, confirm and merge.
    let mut classes: Vec<(String, String, Class)> = Vec::new();
    let mut unconfirmed = 0;
    // What a case gave, by mode: classes try many of the same candidates.
    let mut memo: HashMap<(Mode, String, Lines), Option<String>> = HashMap::new();
    let mut shrink_left = options.shrink_iters.saturating_mul(SHRINK_TOTAL);
    for ((found_as, _), s) in seen {
        let kind = s.kind.clone();
        let shows = |o: &exec::Outcome| {
            o.found
                .as_ref()
                .is_some_and(|f| part(&f.kind) == part(&kind))
        };
        // The line charged, alone, on the reused process: when it shows
        // the difference and a class of its row has it, the case is
        // counted there without shrinking.
        // Each line alone on the reused process, the line charged first
        // (for a case that ran there, that one is enough: replies there do
        // not depend on earlier lines): when one shows the difference and
        // a class of its row has it, the case is counted there without
        // shrinking; else shrinking starts from it.
        let mut start = None;
        let order: Vec<usize> = std::iter::once(s.line)
            .chain((0..s.lines.len()).filter(|n| *n != s.line && s.mode == Mode::Fresh))
            .collect();
        let mut merged = false;
        for n in order {
            let Some(single) = s.lines.get(n).map(|l| vec![l.clone()]) else {
                continue;
            };
            let probe = if s.lines.len() == 1 && s.mode == Mode::Reused {
                Some((s.kind.clone(), 0))
            } else {
                match exec.run(&s.config, &single, Mode::Reused)? {
                    (o, Mode::Reused) if shows(&o) => o.found.map(|f| (f.kind, f.line)),
                    _ => None,
                }
            };
            let Some((found, at)) = probe else {
                continue;
            };
            let row = expect_at(&s.config, &single, at).row;
            let key = (part(&found), charged(&found, row, false).to_string());
            if let Some((_, _, class)) = classes
                .iter_mut()
                .find(|(p, r, _)| (p, r) == (&key.0, &key.1))
            {
                merge(class, s.count, found_as);
                merged = true;
            } else {
                start = Some(single);
            }
            break;
        }
        if merged {
            continue;
        }
        // A class found on a fresh process is shrunk on the reused one when
        // it shows there too: fresh processes are what is slow.
        let mode = match s.mode {
            _ if start.is_some() => Mode::Reused,
            Mode::Fresh if exec::reusable(&s.config, &s.lines) => {
                match exec.run(&s.config, &s.lines, Mode::Reused)? {
                    (o, Mode::Reused) if shows(&o) => Mode::Reused,
                    _ => Mode::Fresh,
                }
            }
            other => other,
        };
        let mut error = None;
        let budget = match mode {
            Mode::Fresh => options.shrink_iters.min(FRESH_SHRINK),
            Mode::Reused => options.shrink_iters,
        }
        .min(shrink_left);
        let mut spent = 0;
        let (config, lines) = shrink::shrink(
            (s.config.clone(), start.unwrap_or_else(|| s.lines.clone())),
            budget,
            &mut |config, lines| {
                spent += 1;
                let key = (mode, config.to_json(), lines.to_vec());
                let found = match memo.get(&key) {
                    Some(found) => found.clone(),
                    None => match exec.run(config, lines, mode) {
                        Ok((o, _)) => {
                            let found = o.found.map(|f| f.kind);
                            memo.insert(key, found.clone());
                            found
                        }
                        Err(e) => {
                            error = Some(e);
                            None
                        }
                    },
                };
                found.is_some_and(|f| part(&f) == part(&kind))
            },
        );
        shrink_left = shrink_left.saturating_sub(spent);
        if let Some(e) = error {
            return Err(e);
        }
        // A shrunk case of a class already reported is counted there: no
        // fresh process needed.
        if mode == Mode::Reused
            && let (outcome, Mode::Reused) = exec.run(&config, &lines, Mode::Reused)?
            && let Some(found) = outcome.found
            && part(&found.kind) == part(&kind)
        {
            let row = expect_at(&config, &lines, found.line).row;
            let key = (
                part(&found.kind),
                charged(&found.kind, row, false).to_string(),
            );
            if let Some((_, _, class)) = classes
                .iter_mut()
                .find(|(p, r, _)| (p, r) == (&key.0, &key.1))
            {
                merge(class, s.count, found_as);
                continue;
            }
        }
        // Confirmed on a fresh process: the shrunk case, else the case as
        // found, must differ there. When the fresh process shows another
        // difference first (a reply dropped at end-of-file, say), the
        // class's own is shown as the reused process gives it.
        let mut confirmed = None;
        for (config, lines) in [(config, lines), (s.config, s.lines)] {
            let outcome = exec.fresh(&config, &lines)?;
            let Some(found) = outcome.found.clone() else {
                continue;
            };
            if part(&found.kind) == part(&kind) {
                confirmed = Some((config, lines, outcome, found, Mode::Fresh));
                break;
            }
            if mode == Mode::Reused
                && let (again, Mode::Reused) = exec.run(&config, &lines, Mode::Reused)?
                && let Some(f) = again.found.clone()
                && part(&f.kind) == part(&kind)
            {
                confirmed = Some((config, lines, again, f, Mode::Reused));
                break;
            }
        }
        let Some((config, lines, outcome, found, shown)) = confirmed else {
            unconfirmed += s.count;
            continue;
        };
        let expect = expect_at(&config, &lines, found.line);
        let part = part(&found.kind);
        let at_eof = mode == Mode::Fresh
            && shown == Mode::Fresh
            && found.kind == "the command wrote fewer replies"
            && exec::reusable(&config, &lines)
            && matches!(exec.run(&config, &lines, Mode::Reused)?, (o, Mode::Reused) if o.found.is_none());
        let row = charged(&found.kind, expect.row, at_eof);
        let key = (part, row.to_string());
        if let Some((_, _, class)) = classes
            .iter_mut()
            .find(|(p, r, _)| (p, r) == (&key.0, &key.1))
        {
            merge(class, s.count, found_as);
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
                merged: if found_as == row {
                    Vec::new()
                } else {
                    vec![found_as.to_string()]
                },
                rule,
                also,
                count: s.count,
                shrink_runs: spent,
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
    ))
}

/// The row a difference of `kind` is charged to: the one that decided the
/// reference's reply (`row`), except for what no such row decides: an id
/// echoed otherwise (E10), a line that is not a message (W1), and a reply
/// missing only at end-of-file (DEC13).
fn charged(kind: &str, row: &'static str, at_eof: bool) -> &'static str {
    let part = part(kind);
    if part == "/id" {
        "E10"
    } else if part == NOT_JSON {
        "W1"
    } else if at_eof {
        "DEC13"
    } else {
        row
    }
}

/// Counts `count` more cases in `class`, found under `row`.
fn merge(class: &mut Class, count: u64, row: &str) {
    class.count += count;
    if class.row != row && !class.merged.iter().any(|r| r == row) {
        class.merged.push(row.to_string());
    }
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
