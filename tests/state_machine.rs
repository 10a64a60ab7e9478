//! A model-based test of the real binary: random interleavings of modern
//! requests, notifications, junk lines, oversized lines, reads and
//! end-of-file, sent to `mcp-reference serve` over pipes.
//!
//! The reference state machine is the abstract model of the process: its
//! configuration (random, with a small line limit, given to the binary as a
//! configuration file), whether standard input is still open, and which
//! lines sent are still waiting for their reply (as far as the generator
//! knows: a reply, none, or it cannot tell). The system under test is the
//! process plus the pure core for the same configuration.
//!
//! After each step:
//!
//! - **statelessness**: every reply the process writes equals, byte for
//!   byte, what the pure core gives for the same line alone, whatever came
//!   before it on the process;
//! - **ordering and completeness**: replies come in the order of the lines,
//!   exactly one for each line the core answers and none for the others (a
//!   stray reply shows up as a mismatch at the next read, or as an extra
//!   line at end-of-file); the core agrees with the generator on which
//!   lines get a reply;
//! - **end-of-file**: every line read before it is answered, stdout then
//!   closes, and the process exits with status 0 (BRIEF decision 13). After
//!   it, the only transition is checking that the process is gone.
//!
//! Every wait has a deadline (a hang guard, not a performance threshold),
//! and stdout and stderr are drained by threads from the start, so the test
//! can neither deadlock on a full pipe nor hang on a stuck server.
//!
//! Spec: 2026-07-28 `basic/transports/stdio.mdx` (newline-delimited
//! messages; the server exits when stdin closes) and `basic/versioning.mdx`
//! (every request is answered on its own, nothing inferred from earlier
//! ones).

#[path = "support/switches.rs"]
mod switches;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_reference::{Config, Server};
use mcp_reference_testkit::strategy::{self, Case};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest, prop_state_machine};

// The process, its reader threads and the deadline on every wait.
#[path = "support/process.rs"]
mod process;
use process::Proc;

/// The abstract model of the process.
#[derive(Clone, Debug)]
struct Model {
    config: Config,
    /// Whether standard input is still open.
    open: bool,
    /// Lines sent whose replies have not been read yet: whether the
    /// generator expects a reply to each (`None`: it cannot tell).
    pending: Vec<Option<bool>>,
}

#[derive(Clone, Debug)]
enum Transition {
    /// Send one line (a request, a notification, junk, an oversized line).
    Line(Case),
    /// Read every reply due so far.
    Read,
    /// Close standard input, after a last line without a newline if any.
    Eof(Option<Case>),
    /// After end-of-file: the process is gone.
    Exited,
}

/// A line around the configured limit: JSON, junk or whitespace over it,
/// or a request padded to exactly it.
fn long_line(config: &Config) -> BoxedStrategy<Case> {
    let limit = config.max_line_bytes();
    let c = config.clone();
    (strategy::request(config), 0..4u8, 1usize..3 * limit)
        .prop_map(move |(tree, kind, extra)| {
            let request = tree.render();
            let (line, label) = match kind {
                0 => {
                    let mut line = request;
                    line.resize(limit + extra, b' ');
                    (line, "request padded past the limit")
                }
                1 => (vec![b'x'; limit + extra], "junk past the limit"),
                2 => (vec![b' '; limit + extra], "whitespace past the limit"),
                _ => {
                    let mut line = vec![b' '; limit.saturating_sub(request.len())];
                    line.extend_from_slice(&request);
                    (line, "request at the limit")
                }
            };
            Case::from_bytes(&c, line, label)
        })
        .boxed()
}

struct Reference;

impl ReferenceStateMachine for Reference {
    type State = Model;
    type Transition = Transition;

    fn init_state() -> BoxedStrategy<Model> {
        // A configuration whose input targets issue state answers by the
        // process's clock (a state's expiry), which the core at the epoch
        // cannot match byte for byte: those are proven against the binary
        // in tests/mrtr_binary.rs, and the core's answer at any time in
        // tests/mrtr.rs and tests/rows.rs.
        let clockless = strategy::config().prop_filter("the process reads no clock", |c| {
            !c.input().is_some_and(|i| i.issues_state())
        });
        (clockless, 1024usize..=4096)
            .prop_map(|(config, limit)| Model {
                config: config.with_max_line_bytes(limit).unwrap(),
                open: true,
                pending: Vec::new(),
            })
            .boxed()
    }

    fn transitions(state: &Model) -> BoxedStrategy<Transition> {
        if !state.open {
            return Just(Transition::Exited).boxed();
        }
        let c = &state.config;
        let tree_case = |label: &'static str| {
            let c = c.clone();
            move |tree| Case::from_tree(&c, &tree, label)
        };
        prop_oneof![
            10 => strategy::request(c).prop_map(tree_case("request")).prop_map(Transition::Line),
            3 => strategy::tool_call(c).prop_map(tree_case("tool call")).prop_map(Transition::Line),
            3 => strategy::catalog_call(c).prop_map(tree_case("catalog call")).prop_map(Transition::Line),
            3 => strategy::notification(c).prop_map(tree_case("notification")).prop_map(Transition::Line),
            4 => strategy::case(c).prop_map(Transition::Line),
            2 => long_line(c).prop_map(Transition::Line),
            4 => Just(Transition::Read),
            1 => proptest::option::of(strategy::case(c)).prop_map(Transition::Eof),
        ]
        .boxed()
    }

    fn apply(mut state: Model, transition: &Transition) -> Model {
        match transition {
            Transition::Line(case) => state.pending.push(case.expect.replies()),
            Transition::Read => state.pending.clear(),
            Transition::Eof(_) => {
                state.open = false;
                state.pending.clear();
            }
            Transition::Exited => {}
        }
        state
    }

    fn preconditions(state: &Model, transition: &Transition) -> bool {
        match transition {
            Transition::Exited => !state.open,
            _ => state.open,
        }
    }
}

/// The system under test: the process, and the pure core's replies it
/// owes, in order.
struct Sut {
    proc: Option<Proc>,
    core: Server,
    owed: VecDeque<Vec<u8>>,
    config_file: PathBuf,
}

impl Sut {
    /// Sends `line` (with `newline` or as the last bytes before
    /// end-of-file) and records what the core answers to it alone.
    fn send(&mut self, case: &Case, newline: bool) {
        let proc = self.proc.as_mut().expect("the process is running");
        proc.send(&case.line);
        if newline {
            proc.send(b"\n");
        }
        let reply = self.core.respond(&case.line);
        if let Some(due) = case.expect.replies() {
            assert_eq!(
                reply.is_some(),
                due,
                "the core and the generator disagree on whether {case:?} gets a reply: {:?}",
                reply.as_deref().map(String::from_utf8_lossy)
            );
        }
        self.owed.extend(reply);
    }

    fn read_owed(&mut self) {
        let proc = self.proc.as_mut().expect("the process is running");
        while let Some(want) = self.owed.pop_front() {
            // A reply is its lines: the notifications the request asked
            // for (T12, T13), then the response.
            let lines = want.iter().filter(|&&b| b == b'\n').count().max(1);
            let got: Vec<u8> = (0..lines).flat_map(|_| proc.next_line()).collect();
            assert!(
                got == want,
                "the process's reply differs from the core's for the same line: the process \
                 wrote {}, the core gives {}",
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want)
            );
        }
    }

    fn end_of_file(&mut self) {
        let mut proc = self.proc.take().expect("the process is running");
        proc.close_stdin();
        let rest = proc.rest();
        let exit = proc.wait();
        // Line by line: a reply may be several (T12, T13).
        let owed: Vec<Vec<u8>> = self
            .owed
            .drain(..)
            .flat_map(|r| {
                r.split_inclusive(|&b| b == b'\n')
                    .map(<[u8]>::to_vec)
                    .collect::<Vec<_>>()
            })
            .collect();
        if let Some(i) = (0..rest.len().max(owed.len())).find(|&i| rest.get(i) != owed.get(i)) {
            let show = |l: Option<&Vec<u8>>| {
                l.map_or("nothing".into(), |l| {
                    String::from_utf8_lossy(l).into_owned()
                })
            };
            panic!(
                "after end-of-file the process must answer every line read, in order, and \
                 nothing else: {} lines written, {} owed; the first difference, at {i}: \
                 the process wrote {}, the core gives {}",
                rest.len(),
                owed.len(),
                show(rest.get(i)),
                show(owed.get(i))
            );
        }
        assert!(
            exit.status.success(),
            "exit {} after end-of-file; stderr: {}",
            exit.status,
            exit.stderr
        );
    }
}

static FILES: AtomicUsize = AtomicUsize::new(0);

struct Binary;

impl StateMachineTest for Binary {
    type SystemUnderTest = Sut;
    type Reference = Reference;

    fn init_test(model: &Model) -> Sut {
        let config_file = std::env::temp_dir().join(format!(
            "mcp-reference-state-machine-{}-{}.json",
            std::process::id(),
            FILES.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::write(&config_file, model.config.to_json()).expect("write the configuration file");
        let mut proc = Proc::spawn(
            &[
                "serve",
                "--config",
                config_file.to_str().expect("a UTF-8 temporary path"),
            ],
            &[],
        );
        proc.read_from_now();
        Sut {
            proc: Some(proc),
            core: Server::new(model.config.clone()),
            owed: VecDeque::new(),
            config_file,
        }
    }

    fn apply(mut sut: Sut, model: &Model, transition: Transition) -> Sut {
        match transition {
            Transition::Line(case) => sut.send(&case, true),
            Transition::Read => sut.read_owed(),
            Transition::Eof(last) => {
                if let Some(case) = last {
                    sut.send(&case, false);
                }
                sut.end_of_file();
            }
            Transition::Exited => assert!(sut.proc.is_none(), "the process outlived end-of-file"),
        }
        // The model's bookkeeping and the core's agree: lines the generator
        // knows to get a reply are owed one.
        let known: usize = model.pending.iter().filter(|p| **p == Some(true)).count();
        let unknown = model.pending.iter().filter(|p| p.is_none()).count();
        assert!(
            known <= sut.owed.len() && sut.owed.len() <= known + unknown,
            "owed {} replies, the model expects {known} (+{unknown} unknown)",
            sut.owed.len()
        );
        sut
    }

    fn teardown(mut sut: Sut, _model: Model) {
        if sut.proc.is_some() {
            sut.end_of_file();
        }
        let _ = std::fs::remove_file(&sut.config_file);
    }
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: switches::cases(256),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/state_machine.txt",
        ))),
        ..ProptestConfig::default()
    }
}

prop_state_machine! {
    #![proptest_config(config())]

    /// Random interleavings against the real binary: its replies equal the
    /// core's, in order, complete, and it exits cleanly at end-of-file.
    #[test]
    fn the_binary_is_the_core_over_pipes(sequential 1..30 => Binary);
}
