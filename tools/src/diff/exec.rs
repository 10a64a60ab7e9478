//! Running one case (a configuration and its lines) on both sides, and
//! where the replies first differ.
//!
//! Two ways to run the command:
//!
//! - **fresh**: a new process per case, the lines written at once, stdin
//!   closed, stdout read until it closes. It sees what depends on earlier
//!   lines of the legacy session (`docs/behavior.md` rows L1 to L17) and on
//!   end-of-file (2026-07-28 `basic/transports/stdio.mdx`: shutdown by
//!   closing stdin).
//! - **reused**: one process for many cases, for lines that leave the
//!   model's legacy state where it was ([`model::legacy::step`]): modern
//!   requests are stateless (2026-07-28 `basic/index.mdx`), so a line's
//!   reply does not depend on the lines before it. Each line is followed
//!   by a sync request (a `tools/list` with an id of its own) and the
//!   replies up to the sync's reply are that line's. A process that dies,
//!   stalls, or writes before it is asked anything is not reused.
//!
//! The reference answers in-process through [`mcp_reference::serve`], as
//! its binary would; the configuration goes to the command in the file
//! `MCP_REFERENCE_CONFIG` names. The rule of which line decided a reply is
//! the model's (row ids), never restated here.

use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::check::process::{Launch, Next, Proc};
use crate::diff::compare;
use mcp_reference::{Config, LogLevel, Server};
use mcp_reference_testkit::model::{self, Json, State};

/// How a case was run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Fresh,
    Reused,
}

/// Where a run first differs.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    /// The line the difference is charged to (0-based).
    pub(crate) line: usize,
    /// What differs, with positions and values left out: two differences
    /// of one kind are the same difference.
    pub(crate) kind: String,
    /// The difference, in one sentence.
    pub(crate) sentence: String,
}

/// One case run on both sides.
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    pub(crate) reference: Vec<Vec<u8>>,
    pub(crate) command: Vec<Vec<u8>>,
    pub(crate) found: Option<Found>,
}

struct Live {
    proc: Proc,
    config: String,
}

pub(crate) struct Exec {
    launch: Launch,
    config_file: PathBuf,
    timeout: Duration,
    pub(crate) runs: u64,
    live: Option<Live>,
    /// Set once the command showed it cannot be reused.
    pub(crate) no_reuse: bool,
    sync: u64,
    /// When the run began.
    pub(crate) started: Instant,
}

/// The textbook request (`tools/list` with a `_meta` of the configuration's
/// first modern version), with `id`.
pub(crate) fn textbook_request(config: &Config, id: Json) -> Json {
    let version = model::supported_versions(config)
        .into_iter()
        .next()
        .unwrap_or_default();
    Json::obj([
        ("jsonrpc", Json::str("2.0")),
        ("id", id),
        ("method", Json::str("tools/list")),
        (
            "params",
            Json::obj([(
                "_meta",
                Json::obj([
                    (model::core::PROTOCOL_VERSION, Json::str(version)),
                    (
                        model::core::CLIENT_CAPABILITIES,
                        Json::obj(Vec::<(String, Json)>::new()),
                    ),
                ]),
            )]),
        ),
    ])
}

/// Whether every line leaves the model's legacy state fresh, so the case
/// may run on a reused process.
pub(crate) fn reusable(config: &Config, lines: &[Vec<u8>]) -> bool {
    lines
        .iter()
        .all(|l| model::legacy::step(config, &State::Fresh, l).0 == State::Fresh)
}

/// The row of `docs/behavior.md` that decided the reference's reply to
/// line `at`, stepping the model through the lines before it.
pub(crate) fn row(config: &Config, lines: &[Vec<u8>], at: usize) -> &'static str {
    let mut state = State::Fresh;
    let mut row = "F1";
    for line in lines.iter().take(at + 1) {
        let (next, expect) = model::legacy::step(config, &state, line);
        state = next;
        row = expect.row;
    }
    row
}

fn reference(config: &Config, input: &[u8]) -> Vec<Vec<u8>> {
    let server = Server::new(config.clone());
    let mut out = Vec::new();
    // Reading a slice cannot fail, and writing to a Vec cannot either.
    let _ = mcp_reference::serve(&server, input, &mut out, io::sink(), LogLevel::Off);
    split(&out)
}

fn split(out: &[u8]) -> Vec<Vec<u8>> {
    out.split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

fn input(lines: &[Vec<u8>]) -> Vec<u8> {
    let mut input = Vec::new();
    for line in lines {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    input
}

impl Exec {
    pub(crate) fn new(launch: Launch, config_file: PathBuf, timeout: Duration) -> Exec {
        Exec {
            launch,
            config_file,
            timeout,
            runs: 0,
            live: None,
            no_reuse: false,
            sync: 0,
            started: Instant::now(),
        }
    }

    fn spawn(&self, config: &Config) -> Result<Proc, String> {
        std::fs::write(&self.config_file, config.to_json()).map_err(|e| {
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
        Proc::spawn(&launch)
    }

    /// Runs a case the way `mode` says (a reused run falls back to a fresh
    /// one when the process cannot be reused). Errors: the command cannot
    /// be started.
    pub(crate) fn run(
        &mut self,
        config: &Config,
        lines: &[Vec<u8>],
        mode: Mode,
    ) -> Result<(Outcome, Mode), String> {
        if mode == Mode::Reused
            && !self.no_reuse
            && reusable(config, lines)
            && let Some(outcome) = self.reused(config, lines)?
        {
            return Ok((outcome, Mode::Reused));
        }
        Ok((self.fresh(config, lines)?, Mode::Fresh))
    }

    /// A fresh process: all lines, then end-of-file.
    pub(crate) fn fresh(&mut self, config: &Config, lines: &[Vec<u8>]) -> Result<Outcome, String> {
        self.runs += 1;
        let input = input(lines);
        let reference = reference(config, &input);
        let mut p = self.spawn(config)?;
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
        let at = compare::first_difference_at(&reference, &command);
        let found = match (finished, at) {
            (true, None) => None,
            (finished, at) => {
                // The line whose reply is the first to differ: count the
                // reference's replies line by line.
                let index = at.as_ref().map_or(reference.len(), |(i, _)| *i);
                let mut line = lines.len().saturating_sub(1);
                let mut seen = 0;
                for (n, l) in lines.iter().enumerate() {
                    seen += reference_count(config, &lines[..n], l);
                    if seen > index {
                        line = n;
                        break;
                    }
                }
                let (kind, sentence) = match (finished, at) {
                    (_, Some((_, d))) if finished => (d.kind, d.sentence),
                    (_, d) => (
                        "stdout still open after end-of-file".to_string(),
                        format!(
                            "the command's stdout was still open {} ms after end-of-file{}",
                            self.timeout.as_millis(),
                            d.map(|(_, d)| format!("; so far, {}", d.sentence))
                                .unwrap_or_default()
                        ),
                    ),
                };
                Some(Found {
                    line,
                    kind,
                    sentence,
                })
            }
        };
        Ok(Outcome {
            reference,
            command,
            found,
        })
    }

    fn live(&mut self, config: &Config) -> Result<Option<&mut Live>, String> {
        let json = config.to_json();
        if self.live.as_ref().is_some_and(|l| l.config != json) {
            self.live = None;
        }
        if self.live.is_none() {
            let proc = self.spawn(config)?;
            let mut live = Live { proc, config: json };
            // Nothing may come before the first reply: a command that
            // writes first is run fresh, where that shows.
            self.sync += 1;
            let sync = self.sync;
            match sync_replies(&mut live.proc, config, sync, self.timeout) {
                Some(before) if before.is_empty() => self.live = Some(live),
                _ => {
                    self.no_reuse = true;
                    return Ok(None);
                }
            }
        }
        Ok(self.live.as_mut())
    }

    /// The case on the reused process, line by line; `None` when the
    /// process could not be used (it is dropped, and the case is run fresh).
    fn reused(&mut self, config: &Config, lines: &[Vec<u8>]) -> Result<Option<Outcome>, String> {
        self.runs += 1;
        let timeout = self.timeout;
        let mut reference_all = Vec::new();
        let mut command_all = Vec::new();
        let mut found = None;
        for (n, line) in lines.iter().enumerate() {
            self.sync += 1;
            let sync = self.sync;
            let Some(live) = self.live(config)? else {
                return Ok(None);
            };
            let mut bytes = line.clone();
            bytes.push(b'\n');
            live.proc.send(bytes);
            let Some(command) = sync_replies(&mut live.proc, config, sync, timeout) else {
                self.live = None;
                return Ok(None);
            };
            let reference = reference(config, &input(std::slice::from_ref(line)));
            if found.is_none()
                && let Some((_, d)) = compare::first_difference_at(&reference, &command)
            {
                found = Some(Found {
                    line: n,
                    kind: d.kind,
                    sentence: d.sentence,
                });
            }
            reference_all.extend(reference);
            command_all.extend(command);
        }
        Ok(Some(Outcome {
            reference: reference_all,
            command: command_all,
            found,
        }))
    }
}

fn reference_count(config: &Config, before: &[Vec<u8>], line: &[u8]) -> usize {
    let mut all = before.to_vec();
    all.push(line.to_vec());
    reference(config, &input(&all))
        .len()
        .saturating_sub(reference(config, &input(before)).len())
}

fn sync_id(n: u64) -> String {
    format!("mcp-reference-diff-sync-{n}")
}

/// Sends the sync request and returns the lines before its reply; `None`
/// when the reply does not come in time or stdout closes.
fn sync_replies(p: &mut Proc, config: &Config, n: u64, timeout: Duration) -> Option<Vec<Vec<u8>>> {
    let id = sync_id(n);
    let mut request = textbook_request(config, Json::str(id.clone())).render();
    request.push(b'\n');
    p.send(request);
    let deadline = Instant::now() + timeout;
    let mut before = Vec::new();
    loop {
        match p.next(deadline) {
            Next::Line(line) => {
                let is_sync = model::read_reply(&line.bytes)
                    .is_ok_and(|r| serde_json::from_str::<String>(&r.id).is_ok_and(|s| s == id))
                    || serde_json::from_slice::<serde_json::Value>(&line.bytes)
                        .is_ok_and(|v| v.get("id").and_then(|i| i.as_str()) == Some(id.as_str()));
                if is_sync {
                    return Some(before);
                }
                before.push(line.bytes);
            }
            Next::Closed | Next::Timeout => return None,
        }
    }
}
