//! `mcp-reference bench`: the same workload against a server under test
//! (a stdio command, or a Streamable HTTP URL) and against the reference,
//! in the same run on the same machine, in alternating rounds (reference,
//! target, target, reference, reference, target, ...: [`alternate`]), reported as each server's medians and
//! as ratios target / reference. Documented in `docs/bench.md`.
//!
//! | module | owns |
//! | --- | --- |
//! | [`workload`] | the requests, and the one judgement of a reply (asking the test kit's model) |
//! | [`stdio`] | one round over stdio: a process, pipelined requests |
//! | [`http`] | one round over HTTP: kept-alive connections; the reference's HTTP server; the loopback rule |
//! | [`plan`] | how long and how hard a round runs; the error of a server that cannot be started |
//! | [`stats`] | percentiles, rates, medians, ratios |
//! | [`verdicts`] | a reply that differs from one already judged only in its id gets that verdict, so judging stays cheap |
//! | [`report`] | the table and the JSON object |
//!
//! No protocol rule lives here: whether a reply counts is the model's
//! (or, with `--valid result`, the checker's envelope rule's) decision.

pub mod http;
pub mod plan;
pub mod report;
pub mod stats;
pub mod stdio;
pub mod verdicts;
pub mod workload;

use std::ffi::OsString;
use std::path::PathBuf;

use crate::http_client::Url;
use crate::process::Launch;

pub use self::plan::{Plan, Start};
use self::report::{LoadAverage, Report, Server};
use self::stats::{Round, Summary};
use self::workload::Workload;

/// Where the server under test is.
#[derive(Debug, Clone)]
pub enum Target {
    /// A stdio command.
    Stdio(Vec<OsString>),
    /// A Streamable HTTP endpoint.
    Http(Url),
}

/// Everything a run needs.
#[derive(Debug, Clone)]
pub struct Options {
    /// The server under test.
    pub target: Target,
    /// The workload and its judge.
    pub workload: Workload,
    /// The rounds.
    pub plan: Plan,
    /// The reference program (`mcp-reference`).
    pub reference: OsString,
    /// The configuration file the reference serves (and a stdio target is
    /// given in `MCP_REFERENCE_CONFIG`); `None`: the textbook's.
    pub config_file: Option<PathBuf>,
}

/// The reference's program: `mcp-reference` beside this one if there is
/// one, else the one on `PATH`.
pub fn default_reference() -> OsString {
    let name = format!("mcp-reference{}", std::env::consts::EXE_SUFFIX);
    std::env::current_exe()
        .ok()
        .map(|exe| exe.with_file_name(&name))
        .filter(|p| p.is_file())
        .map_or_else(|| OsString::from(&name), PathBuf::into_os_string)
}

fn config_args(options: &Options) -> Vec<OsString> {
    match &options.config_file {
        Some(file) => vec!["--config".into(), file.clone().into_os_string()],
        None => Vec::new(),
    }
}

/// A round's outcome given the rounds the same server already ran: a
/// server that cannot be started or reached before its first round is
/// the run's end (`Err`, exit 2); one that could be before and cannot
/// now has stopped during the run, which is an error of that round, so
/// the rounds already measured are still reported.
fn later(before: &[Round], this: Result<Round, String>) -> Result<Round, String> {
    match this {
        Err(sentence) if !before.is_empty() => {
            let mut round = Round::default();
            round.error("stopped during the run", || sentence);
            round.finish();
            Ok(round)
        }
        other => other,
    }
}

/// Runs `rounds` rounds of each, in the order reference, target, target,
/// reference, reference, target, ... (each pair in turn reversed, so that
/// a machine that speeds up or slows down during the run favours neither:
/// with strict alternation the one that goes first in every pair pays for
/// what the other finds warm); the rounds of each, in the order they ran.
pub fn alternate(
    rounds: u32,
    mut reference: impl FnMut() -> Result<Round, String>,
    mut target: impl FnMut() -> Result<Round, String>,
) -> Result<(Vec<Round>, Vec<Round>), String> {
    let (mut r, mut t) = (Vec::new(), Vec::new());
    for i in 0..rounds {
        if i % 2 == 0 {
            r.push(later(&r, reference())?);
            t.push(later(&t, target())?);
        } else {
            t.push(later(&t, target())?);
            r.push(later(&r, reference())?);
        }
    }
    Ok((r, t))
}

/// Runs the rounds. `Err`: a server could not be started or reached (one
/// sentence).
pub fn run(options: &Options) -> Result<Report, String> {
    let load_start = LoadAverage::now();
    let plan = &options.plan;
    let workload = &options.workload;
    let reference_rounds: Vec<Round>;
    let target_rounds: Vec<Round>;
    let (reference_command, target_command) = match &options.target {
        Target::Stdio(command) => {
            let mut argv = vec![options.reference.clone(), "serve".into()];
            argv.extend(config_args(options));
            let reference = Launch {
                argv,
                env: Vec::new(),
                env_remove: vec!["MCP_REFERENCE_CONFIG".into(), "MCP_REFERENCE_USER".into()],
            };
            // The server gets the reference's configuration, and nothing
            // of the caller's environment that would make it serve
            // another (a port that reads those variables as the reference
            // does).
            let target = Launch {
                argv: command.clone(),
                env: options
                    .config_file
                    .iter()
                    .map(|f| ("MCP_REFERENCE_CONFIG".into(), f.clone().into_os_string()))
                    .collect(),
                env_remove: vec!["MCP_REFERENCE_CONFIG".into(), "MCP_REFERENCE_USER".into()],
            };
            (reference_rounds, target_rounds) = alternate(
                plan.rounds,
                || {
                    stdio::round(&reference, workload, plan)
                        .map_err(|Start(e)| format!("the reference could not be run: {e}"))
                },
                || {
                    stdio::round(&target, workload, plan)
                        .map_err(|Start(e)| format!("the server could not be run: {e}"))
                },
            )?;
            (reference.display(), target.display())
        }
        Target::Http(url) => {
            let reference = http::Reference::start(
                &options.reference,
                &config_args(options),
                plan.start_timeout,
            )
            .map_err(|Start(e)| e)?;
            (reference_rounds, target_rounds) = alternate(
                plan.rounds,
                || {
                    http::round(&reference.url, workload, plan)
                        .map_err(|Start(e)| format!("the reference could not be run: {e}"))
                },
                || http::round(url, workload, plan).map_err(|Start(e)| e),
            )?;
            (
                reference.command.clone(),
                format!("http://{}{}", url.authority, url.path),
            )
        }
    };
    Ok(Report {
        transport: match options.target {
            Target::Stdio(_) => "stdio",
            Target::Http(_) => "http",
        },
        plan: plan.clone(),
        call: workload.call.clone(),
        valid: workload.valid,
        config_file: options.config_file.clone(),
        load_start,
        load_end: LoadAverage::now(),
        reference: Server {
            command: reference_command,
            summary: Summary::of(&reference_rounds),
            rounds: reference_rounds,
        },
        target: Server {
            command: target_command,
            summary: Summary::of(&target_rounds),
            rounds: target_rounds,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    #[test]
    fn rounds_alternate_each_pair_reversed() {
        let order = RefCell::new(String::new());
        let (r, t) = alternate(
            4,
            || {
                order.borrow_mut().push('R');
                Ok(Round::default())
            },
            || {
                order.borrow_mut().push('T');
                Ok(Round::default())
            },
        )
        .unwrap_or_default();
        assert_eq!(order.borrow().as_str(), "RTTRRTTR");
        assert_eq!((r.len(), t.len()), (4, 4));
        // A server that cannot be run stops the run.
        let stopped = alternate(2, || Ok(Round::default()), || Err("no".to_string()));
        assert_eq!(stopped.err().as_deref(), Some("no"));
    }

    #[test]
    fn a_server_that_stops_after_its_first_round_is_an_error_of_the_next() {
        let calls = RefCell::new(0);
        let target = || {
            *calls.borrow_mut() += 1;
            if *calls.borrow() == 1 {
                let mut round = Round {
                    requests: 5,
                    ..Round::default()
                };
                round.finish();
                Ok(round)
            } else {
                Err("the server at X could not be reached".to_string())
            }
        };
        let (r, t) = alternate(3, || Ok(Round::default()), target).unwrap_or_default();
        assert_eq!((r.len(), t.len()), (3, 3));
        // The measured round stands; each later one is one error.
        assert_eq!(t.first().map(|x| (x.requests, x.errors)), Some((5, 0)));
        for later in t.iter().skip(1) {
            assert_eq!((later.requests, later.errors), (0, 1));
            assert_eq!(later.error_kinds.get("stopped during the run"), Some(&1));
            assert_eq!(
                later.first_error.as_deref(),
                Some("the server at X could not be reached")
            );
        }
    }
}
