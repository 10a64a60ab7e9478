//! `mcp-reference diff`: differential testing of another implementation of
//! the book-orders server against this reference.
//!
//! Each case is a configuration and a short sequence of input lines, both
//! drawn from [`mcp_reference_testkit::strategy::session`] (requests of every kind, broken
//! ones, notifications, client responses, hostile lines). The case's
//! configuration is written to a temporary file and the command is started
//! with `MCP_REFERENCE_CONFIG` naming it (and without `MCP_REFERENCE_USER`,
//! which would override the file's user); the lines are written to its stdin at once, stdin is closed,
//! and its stdout is read until it closes. The reference answers the same
//! lines through [`mcp_reference::serve`] in-process, exactly as the binary
//! would. The two reply sequences are compared with the equivalence of
//! [`compare`].
//!
//! On the first difference, proptest's shrinking reduces the case
//! (fewer lines, simpler lines, a simpler configuration) while it still
//! differs, and the minimal case is reported with both reply sequences.
//! Generation and shrinking are driven by a ChaCha generator seeded from
//! `--seed` alone, so a run is deterministic for a given seed, command and
//! case count (as long as the command itself is).
//!
//! Spec: the rules compared are the reference's (`docs/behavior.md`); the
//! stdio handling follows 2026-07-28 `basic/transports/stdio.mdx`
//! (newline-delimited messages; shutdown by closing stdin).

pub mod compare;

use std::cell::Cell;
use std::ffi::OsString;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use proptest::strategy::{NewTree, Strategy, ValueTree};
use proptest::test_runner::{
    Config as RunnerConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner,
};
use serde_json::Value;

use crate::check::process::{Launch, Next, Proc};
use crate::check::wire;
use mcp_reference::LogLevel;
use mcp_reference::{Config, Server};
use mcp_reference_testkit::strategy::{self, Case};

/// What to compare, and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// The implementation's command: program and arguments.
    pub command: Vec<OsString>,
    /// How many passing cases make a pass.
    pub cases: u32,
    /// The generator's seed.
    pub seed: u64,
    /// How long one case may take, from writing its lines to the command's
    /// stdout closing.
    pub timeout: Duration,
    /// The longest sequence of lines in a case.
    pub max_lines: usize,
    /// How many runs shrinking may take (0: report the first difference
    /// as found).
    pub shrink_iters: u32,
}

impl Options {
    /// Defaults: 256 cases, seed 0, 5 s per case, up to 8 lines a case,
    /// up to 1024 shrinking runs.
    pub fn new(command: Vec<OsString>) -> Options {
        Options {
            command,
            cases: 256,
            seed: 0,
            timeout: Duration::from_secs(5),
            max_lines: 8,
            shrink_iters: 1024,
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

/// A minimal case on which the command and the reference differ.
#[derive(Debug, Clone)]
pub struct Counterexample {
    /// The configuration file both were given.
    pub config: Value,
    /// The input lines, in order (without newlines).
    pub lines: Vec<Vec<u8>>,
    /// The reference's reply lines.
    pub reference: Vec<Vec<u8>>,
    /// The command's stdout lines.
    pub command: Vec<Vec<u8>>,
    /// Where they first differ, in one sentence.
    pub difference: String,
}

/// The result of a run.
#[derive(Debug, Clone)]
pub struct DiffReport {
    /// The command compared.
    pub command: String,
    /// The seed.
    pub seed: u64,
    /// How many cases were run (shrinking included).
    pub runs: u64,
    /// The minimal difference, if one was found.
    pub counterexample: Option<Counterexample>,
}

/// One case run on both sides.
struct Run {
    reference: Vec<Vec<u8>>,
    command: Vec<Vec<u8>>,
    difference: Option<String>,
}

struct Runner {
    launch: Launch,
    config_file: PathBuf,
    timeout: Duration,
    runs: Cell<u64>,
}

impl Runner {
    fn input(cases: &[Case]) -> Vec<u8> {
        let mut input = Vec::new();
        for case in cases {
            input.extend_from_slice(&case.line);
            input.push(b'\n');
        }
        input
    }

    fn reference(config: &Config, input: &[u8]) -> Vec<Vec<u8>> {
        let server = Server::new(config.clone());
        let mut out = Vec::new();
        // Reading a slice cannot fail, and writing to a Vec cannot either.
        let _ = mcp_reference::serve(&server, input, &mut out, io::sink(), LogLevel::Off);
        lines(&out)
    }

    fn run(&self, config: &Config, cases: &[Case]) -> Result<Run, String> {
        self.runs.set(self.runs.get() + 1);
        let input = Runner::input(cases);
        let reference = Runner::reference(config, &input);
        let file = config.to_json();
        std::fs::write(&self.config_file, file).map_err(|e| {
            format!(
                "cannot write the configuration file {}: {e}",
                self.config_file.display()
            )
        })?;
        let mut launch = self.launch.clone();
        launch.env.push((
            "MCP_REFERENCE_CONFIG".into(),
            self.config_file.clone().into_os_string(),
        ));
        let mut p = Proc::spawn(&launch)?;
        p.send(input);
        p.close_input();
        let deadline = Instant::now() + self.timeout;
        let mut command = Vec::new();
        let finished = loop {
            match p.next(deadline) {
                Next::Line(line) => command.push(line.bytes),
                Next::Closed => break true,
                Next::Timeout => break false,
            }
        };
        drop(p);
        let difference = if finished {
            compare::first_difference(&reference, &command)
        } else {
            Some(format!(
                "the command's stdout was still open {} ms after end-of-file{}",
                self.timeout.as_millis(),
                compare::first_difference(&reference, &command)
                    .map(|d| format!("; so far, {d}"))
                    .unwrap_or_default()
            ))
        };
        Ok(Run {
            reference,
            command,
            difference,
        })
    }
}

fn lines(out: &[u8]) -> Vec<Vec<u8>> {
    out.split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

/// A configuration and 1 to `max` lines drawn for it, as
/// [`strategy::session`] draws them, but shrunk in the order that makes
/// the smallest report: the lines first (fewer, then simpler), then the
/// configuration. The lines are not drawn again when the configuration
/// shrinks: any line is a fair input to both sides, whatever the
/// configuration.
#[derive(Debug)]
struct Sessions {
    max: usize,
}

impl Strategy for Sessions {
    type Tree = SessionTree;
    type Value = (Config, Vec<Case>);

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let config = strategy::config().new_tree(runner)?;
        let lines = proptest::collection::vec(strategy::case(&config.current()), 1..=self.max)
            .boxed()
            .new_tree(runner)?;
        Ok(SessionTree {
            config,
            lines,
            lines_done: false,
            last: None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Lines,
    Config,
}

struct SessionTree {
    config: Box<dyn ValueTree<Value = Config>>,
    lines: Box<dyn ValueTree<Value = Vec<Case>>>,
    lines_done: bool,
    last: Option<Part>,
}

impl ValueTree for SessionTree {
    type Value = (Config, Vec<Case>);

    fn current(&self) -> Self::Value {
        (self.config.current(), self.lines.current())
    }

    fn simplify(&mut self) -> bool {
        if !self.lines_done {
            if self.lines.simplify() {
                self.last = Some(Part::Lines);
                return true;
            }
            self.lines_done = true;
        }
        if self.config.simplify() {
            self.last = Some(Part::Config);
            return true;
        }
        self.last = None;
        false
    }

    fn complicate(&mut self) -> bool {
        match self.last {
            Some(Part::Lines) => self.lines.complicate(),
            Some(Part::Config) => self.config.complicate(),
            None => false,
        }
    }
}

/// Runs the comparison.
pub fn run(options: &Options) -> Result<DiffReport, RunError> {
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
    let config_file = std::env::temp_dir().join(format!(
        "mcp-reference-diff-{}-{}.json",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let runner = Runner {
        launch,
        config_file,
        timeout: options.timeout,
        runs: Cell::new(0),
    };
    // A first run on the textbook data: a command that cannot start is a
    // usage problem, not a difference to shrink.
    let textbook = Config::default();
    if let Err(e) = runner.run(&textbook, &[]) {
        let _ = std::fs::remove_file(&runner.config_file);
        return Err(RunError(e));
    }
    let result = search(&runner, options);
    let _ = std::fs::remove_file(&runner.config_file);
    let counterexample = result?;
    Ok(DiffReport {
        command,
        seed: options.seed,
        runs: runner.runs.get(),
        counterexample,
    })
}

fn search(runner: &Runner, options: &Options) -> Result<Option<Counterexample>, RunError> {
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&options.seed.to_le_bytes());
    let config = RunnerConfig {
        cases: options.cases,
        failure_persistence: None,
        max_shrink_iters: options.shrink_iters,
        ..RunnerConfig::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
    let mut proptest = TestRunner::new_with_rng(config, rng);
    let sessions = Sessions {
        max: options.max_lines.max(1),
    };
    let outcome = proptest.run(&sessions, |(config, cases)| {
        match runner.run(&config, &cases) {
            Ok(Run {
                difference: Some(d),
                ..
            }) => Err(TestCaseError::fail(d)),
            Ok(_) => Ok(()),
            Err(e) => Err(TestCaseError::fail(e)),
        }
    });
    match outcome {
        Ok(()) => Ok(None),
        Err(TestError::Abort(why)) => Err(RunError(format!("the search stopped: {why}"))),
        Err(TestError::Fail(why, (config, cases))) => {
            let lines: Vec<Vec<u8>> = cases.iter().map(|c| c.line.clone()).collect();
            let config_json =
                serde_json::from_str::<serde_json::Value>(&config.to_json()).unwrap_or_default();
            // Run the minimal case once more for both reply sequences.
            let (reference, command, difference) = match runner.run(&config, &cases) {
                Ok(run) => (
                    run.reference,
                    run.command,
                    run.difference.unwrap_or_else(|| {
                        format!("{why} (this did not happen again on a second run)")
                    }),
                ),
                Err(e) => (Vec::new(), Vec::new(), e),
            };
            Ok(Some(Counterexample {
                config: config_json,
                lines,
                reference,
                command,
                difference,
            }))
        }
    }
}

impl DiffReport {
    /// The report as text: one line when nothing differs, else the minimal
    /// case with both reply sequences.
    pub fn text(&self) -> String {
        let mut out = format!(
            "mcp-reference diff: {}\nseed {}, {} case run(s) (shrinking included)\n",
            self.command, self.seed, self.runs
        );
        let Some(cx) = &self.counterexample else {
            out.push_str("no difference found\n");
            return out;
        };
        let show = |l: &Vec<u8>| wire::show(l, 2000);
        out.push_str(&format!("DIFFERENCE: {}\n\n", cx.difference));
        out.push_str(&format!(
            "minimal case: {} input line(s), configuration (MCP_REFERENCE_CONFIG):\n  {}\n\ninput:\n",
            cx.lines.len(),
            cx.config
        ));
        for (i, line) in cx.lines.iter().enumerate() {
            out.push_str(&format!("  {}> {}\n", i + 1, show(line)));
        }
        out.push_str("\nreference replies:\n");
        if cx.reference.is_empty() {
            out.push_str("  (none)\n");
        }
        for (i, line) in cx.reference.iter().enumerate() {
            out.push_str(&format!("  {}< {}\n", i + 1, show(line)));
        }
        out.push_str("\ncommand replies:\n");
        if cx.command.is_empty() {
            out.push_str("  (none)\n");
        }
        for (i, line) in cx.command.iter().enumerate() {
            out.push_str(&format!("  {}< {}\n", i + 1, show(line)));
        }
        out
    }
}
