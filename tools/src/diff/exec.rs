//! Running one case (a configuration and its lines) on both sides, and
//! where the replies first differ.
//!
//! Two ways to run the command:
//!
//! - **fresh**: a new process per case, the lines written at once, stdin
//!   closed, stdout read until it closes. It sees what depends on earlier
//!   lines of the legacy session (`docs/behavior.md` rows L1 to L17) and on
//!   end-of-file (2026-07-28 `basic/transports/stdio.mdx`: shutdown by
//!   closing stdin). Replies are paired with lines by id, the others by
//!   position (`pair`).
//! - **reused**: one process for many cases, for lines that leave the
//!   model's legacy state where it was ([`model::legacy::step`]): modern
//!   requests are stateless (2026-07-28 `basic/index.mdx`), so a line's
//!   reply does not depend on the lines before it. Each line is followed
//!   by a sync request (a `tools/list` with an id of its own); the replies
//!   before the sync's reply are that line's, except a reply with the id
//!   of an earlier line still waiting for it, which is that line's (a
//!   server may answer concurrently). The next line is written only when
//!   the replies with an id owed to this one have come: more sync requests
//!   wait for them, for at most [`LATE`] (or the case's timeout, if
//!   shorter); a reply still missing then is missing (a server that never
//!   answers the line costs that wait, no restart), and if it comes later
//!   it is dropped and counted, never paired. So the lines of a case are
//!   never in flight together, and how late a reply comes changes no
//!   verdict unless it is later than [`LATE`]. The process is started again only when
//!   it dies, stalls or still owes a reply (counted, with why); a command
//!   that writes before it is asked anything is not reused at all.
//!
//! The reference answers in-process through [`mcp_reference::serve`], as
//! its binary would; the configuration goes to the command in the file
//! `MCP_REFERENCE_CONFIG` names. The rule of which line decided a reply is
//! the model's (row ids), never restated here.

use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::diff::compare;
use crate::diff::pair::{self, Pairing};
use crate::process::{Launch, Next, Proc};
use mcp_reference::{Config, LogLevel, Server};
use mcp_reference_testkit::model::{self, Json, State};

/// How a case was run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    /// How many runs used a fresh process.
    pub(crate) fresh_runs: u64,
    /// Set once the command showed it cannot be reused.
    pub(crate) no_reuse: bool,
    /// The ids of replies a reused run gave up waiting for: one that comes
    /// later is dropped (counted in `late`).
    stale: Vec<String>,
    /// How many late replies were dropped.
    pub(crate) late: u64,
    /// Each start of the reused process, with why.
    pub(crate) starts: Vec<Restart>,
    /// Why the next start of the reused process happens.
    restart: Option<Restart>,
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
            fresh_runs: 0,
            live: None,
            no_reuse: false,
            stale: Vec::new(),
            late: 0,
            starts: Vec::new(),
            restart: None,
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
        self.fresh_runs += 1;
        let mut pairing = Pairing::new(reference_per_line(config, lines));
        let mut p = self.spawn(config)?;
        p.send(input(lines));
        p.close_input();
        let deadline = Instant::now() + self.timeout;
        let mut unpaired = Vec::new();
        let finished = loop {
            match p.next(deadline) {
                Next::Line(line) => {
                    if let Err(reply) = pairing.by_id(line.bytes, None) {
                        unpaired.push(reply);
                    }
                }
                Next::Closed => break true,
                Next::Timeout => break false,
            }
        };
        drop(p);
        for reply in unpaired {
            pairing.by_position(reply);
        }
        let mut outcome = judge(pairing);
        if !finished {
            let line = outcome
                .found
                .as_ref()
                .map_or(lines.len().saturating_sub(1), |f| f.line);
            let so_far = outcome
                .found
                .take()
                .map(|f| format!("; so far, {}", f.sentence))
                .unwrap_or_default();
            outcome.found = Some(Found {
                line,
                kind: "stdout still open after end-of-file".to_string(),
                sentence: format!(
                    "the command's stdout was still open {} ms after end-of-file{so_far}",
                    self.timeout.as_millis()
                ),
            });
        }
        Ok(outcome)
    }

    fn live(&mut self, config: &Config) -> Result<Option<&mut Live>, String> {
        let json = config.to_json();
        if self.live.as_ref().is_some_and(|l| l.config != json) {
            self.live = None;
            self.restart = Some(Restart::Config);
        }
        if self.live.is_none() {
            let why = self.restart.take().unwrap_or(Restart::First);
            self.starts.push(why);
            let proc = self.spawn(config)?;
            let mut live = Live { proc, config: json };
            // Nothing may come before the first reply: a command that
            // writes first is run fresh, where that shows.
            self.sync += 1;
            let sync = self.sync;
            match sync_replies(&mut live.proc, config, sync, self.timeout) {
                Ok(before) if before.is_empty() => self.live = Some(live),
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
        let mut pairing = Pairing::new(
            lines
                .iter()
                .map(|l| reference(config, &input(std::slice::from_ref(l))))
                .collect(),
        );
        // Line by line: each line, then sync requests until its replies
        // with an id have come, for at most LATE after its first sync reply;
        // so the lines of a case are never in flight together, and a
        // duplicate id within a case is never ambiguous.
        for (n, line) in lines.iter().enumerate() {
            let mut bytes = line.clone();
            bytes.push(b'\n');
            let mut send = Some(bytes);
            let mut late_until = None;
            loop {
                self.sync += 1;
                let sync = self.sync;
                let Some(live) = self.live(config)? else {
                    return Ok(None);
                };
                if let Some(bytes) = send.take() {
                    live.proc.send(bytes);
                }
                let command = match sync_replies(&mut live.proc, config, sync, timeout) {
                    Ok(command) => command,
                    Err(why) => {
                        self.live = None;
                        self.restart = Some(why);
                        return Ok(None);
                    }
                };
                for reply in command {
                    let Err(reply) = pairing.by_id(reply, Some(n)) else {
                        continue;
                    };
                    // A late reply to an earlier line given up on: dropped.
                    if let Some(key) = pair::reply_key(&reply)
                        && let Some(i) = self.stale.iter().position(|k| *k == key)
                    {
                        self.stale.remove(i);
                        self.late += 1;
                        continue;
                    }
                    pairing.by_order(n, reply);
                }
                if !pairing.owes_by_id(n) {
                    break;
                }
                let until = *late_until.get_or_insert_with(|| Instant::now() + LATE.min(timeout));
                if Instant::now() >= until {
                    // The line is judged without the reply; if it comes
                    // later, it is dropped (and counted), not paired.
                    self.stale.extend(pairing.owed_keys_of(n));
                    let excess = self.stale.len().saturating_sub(STALE);
                    self.stale.drain(..excess);
                    break;
                }
            }
        }
        Ok(Some(judge(pairing)))
    }
}

/// How long a reused run waits, after a line's first sync reply, for that
/// line's replies with an id still missing (replies answered concurrently
/// may come after the sync's reply), sending sync requests the while.
const LATE: Duration = Duration::from_millis(100);

/// The most ids of replies given up on that are remembered.
const STALE: usize = 64;

/// Why the reused process was started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Restart {
    /// The first time.
    First,
    /// The one before it closed its stdout (it died).
    Died,
    /// The one before did not answer a sync request in time.
    Stalled,
    /// The case had another configuration.
    Config,
}

impl Restart {
    pub(crate) fn says(self) -> &'static str {
        match self {
            Restart::First => "at first",
            Restart::Died => "after it died",
            Restart::Stalled => "after it stalled",
            Restart::Config => "for another configuration",
        }
    }
}

/// The reference's replies to each line, stepping through the lines as
/// one process would.
fn reference_per_line(config: &Config, lines: &[Vec<u8>]) -> Vec<Vec<Vec<u8>>> {
    let mut before = 0;
    (1..=lines.len())
        .map(|n| {
            let all = reference(config, &input(lines.get(..n).unwrap_or_default()));
            let new = all.get(before..).unwrap_or_default().to_vec();
            before = all.len();
            new
        })
        .collect()
}

/// The first line whose replies differ, and the difference.
fn judge(pairing: Pairing) -> Outcome {
    let per_line = pairing.lines();
    let many = per_line.len() > 1;
    let mut reference_all = Vec::new();
    let mut command_all = Vec::new();
    let mut found = None;
    for (n, (reference, command)) in per_line.into_iter().enumerate() {
        if found.is_none()
            && let Some((_, d)) =
                compare::first_difference_numbered(&reference, &command, reference_all.len())
        {
            let sentence = if many && d.kind.starts_with("the command wrote") {
                format!("{}, to input line {}", d.sentence, n + 1)
            } else {
                d.sentence
            };
            found = Some(Found {
                line: n,
                kind: d.kind,
                sentence,
            });
        }
        reference_all.extend(reference);
        command_all.extend(command);
    }
    Outcome {
        reference: reference_all,
        command: command_all,
        found,
    }
}

fn sync_id(n: u64) -> String {
    format!("mcp-reference-diff-sync-{n}")
}

/// Sends the sync request and returns the lines before its reply; why
/// the process cannot be used any more when the reply does not come in
/// time or stdout closes.
fn sync_replies(
    p: &mut Proc,
    config: &Config,
    n: u64,
    timeout: Duration,
) -> Result<Vec<Vec<u8>>, Restart> {
    let id = sync_id(n);
    let mut request = textbook_request(config, Json::str(id)).render();
    // The reply to the sync carries the request's id.
    let key = pair::reply_key(&request);
    request.push(b'\n');
    p.send(request);
    let deadline = Instant::now() + timeout;
    let mut before = Vec::new();
    loop {
        match p.next(deadline) {
            Next::Line(line) => {
                if key.is_some() && pair::reply_key(&line.bytes) == key {
                    return Ok(before);
                }
                before.push(line.bytes);
            }
            Next::Closed => return Err(Restart::Died),
            Next::Timeout => return Err(Restart::Stalled),
        }
    }
}
