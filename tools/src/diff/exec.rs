//! Running one case (a configuration and its lines) on both sides, and
//! where the replies first differ.
//!
//! Two ways to run the command:
//!
//! - **fresh**: a new process per case, the lines written at once, stdin
//!   closed, stdout read until it closes. It sees what depends on earlier
//!   lines of the legacy session (`docs/behavior.md` rows L1 to L17) and on
//!   end-of-file (2026-07-28 `basic/transports/stdio.mdx`: shutdown by
//!   closing stdin). Replies are paired with lines by id, the others
//!   (notifications before a response, null ids) by the order they came
//!   in (`pair`).
//! - **reused**: one process for many cases, for lines that leave the
//!   model's legacy state where it was ([`model::legacy::step`]): modern
//!   requests are stateless (2026-07-28 `basic/index.mdx`), so a line's
//!   reply does not depend on the lines before it. Each line is followed
//!   by a sync request (a `tools/list` with an id of its own, in the same
//!   write as the line); the replies
//!   before the sync's reply are that line's, except a reply with the id
//!   of an earlier line still waiting for it, which is that line's (a
//!   server may answer concurrently). The next line is written only when
//!   the replies with an id owed to this one have come: more sync requests
//!   wait for them, for at most the late-reply wait ([`Exec::late_wait`],
//!   learned from the replies that came late; none for a row and kind of
//!   id the command has been silent on, [`Exec::silent_on`], nor for a line
//!   it has been silent on before; or the case's
//!   timeout, if shorter); a reply still missing then is missing (no
//!   restart), and if it comes later it is dropped and counted, never
//!   paired. So the lines of a case are
//!   never in flight together, and how late a reply comes changes no
//!   verdict unless it is later than the wait. The process is started again only when
//!   it dies, stalls or still owes a reply (counted, with why); a command
//!   that writes before it is asked anything is not reused at all.
//!
//! The reference answers in-process through [`mcp_reference::serve`], as
//! its binary would; the configuration goes to the command in the file
//! `MCP_REFERENCE_CONFIG` names. The rule of which line decided a reply is
//! the model's (row ids), never restated here.

use std::collections::HashSet;
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
    stale: Vec<(String, Learned, Vec<u8>)>,
    /// Per row of `docs/behavior.md` and kind of id ([`Learned`]): how
    /// many such lines the command was silent on after the whole [`LATE`]
    /// wait.
    silent_rows: Vec<(Learned, u32)>,
    /// The rows and kinds of id of lines whose reply came after the
    /// line's first sync reply (within the wait, or later and dropped):
    /// such lines are always waited for.
    late_rows: Vec<Learned>,
    /// The lines (with their configuration) the command was silent on
    /// after the whole wait: the same line again is not waited for (a
    /// shrinking step repeats most lines of a case), unless its reply came
    /// late after all.
    silent_lines: HashSet<Vec<u8>>,
    /// How many late-reply waits were cut short by [`Exec::silent_rows`].
    pub(crate) waits_skipped: u64,
    /// How many late-reply waits ran to their end.
    pub(crate) waits_run: u64,
    /// How long after their line's first sync reply the replies that came
    /// late came (for [`Exec::late_wait`]).
    lateness: Vec<Duration>,
    /// How long the search took, once it is over.
    pub(crate) searched: Option<Duration>,
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
            silent_rows: Vec::new(),
            late_rows: Vec::new(),
            silent_lines: HashSet::new(),
            waits_skipped: 0,
            waits_run: 0,
            searched: None,
            lateness: Vec::new(),
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

    /// Whether lines of `row` are judged without the late-reply wait: the
    /// command was silent on [`SILENT_AFTER`] of them after the whole wait,
    /// and never answered one late.
    fn silent_on(&self, row: Learned) -> bool {
        !self.late_rows.contains(&row)
            && self
                .silent_rows
                .iter()
                .any(|(r, count)| *r == row && *count >= SILENT_AFTER)
    }

    /// How long a line's owed replies are waited for after its first sync
    /// reply: [`LATE`] until [`LATE_LEARNED`] replies have come late, then
    /// [`LATE_FACTOR`] times the latest of them, within [`LATE_FLOOR`] and
    /// [`LATE`].
    pub(crate) fn late_wait(&self) -> Duration {
        if self.lateness.len() < LATE_LEARNED {
            return LATE;
        }
        let latest = self.lateness.iter().max().copied().unwrap_or(LATE);
        (latest * LATE_FACTOR).clamp(LATE_FLOOR, LATE)
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
        // Every reply in the order it came: paired by id, or not yet.
        let mut arrivals = Vec::new();
        let finished = loop {
            match p.next(deadline) {
                Next::Line(line) => arrivals.push(pairing.by_id(line.bytes, None)),
                Next::Closed => break true,
                Next::Timeout => break false,
            }
        };
        drop(p);
        pairing.in_order(arrivals);
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
            match sync_replies(&mut live.proc, config, sync, self.timeout, None) {
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
        let config_key = config.to_json();
        // Line by line: each line, then sync requests until its replies
        // with an id have come, for at most LATE after its first sync reply;
        // so the lines of a case are never in flight together, and a
        // duplicate id within a case is never ambiguous.
        for (n, line) in lines.iter().enumerate() {
            // The row that decided the reference's reply to the line alone
            // (reused lines are stateless): what the wait below learns by.
            let line_row = (row(config, std::slice::from_ref(line), 0), id_kind(line));
            let mut bytes = line.clone();
            bytes.push(b'\n');
            let mut send = Some(bytes);
            // When the line's first sync reply came with a reply still
            // owed, and until when it is waited for.
            let mut late_until: Option<(Instant, Instant)> = None;
            loop {
                self.sync += 1;
                let sync = self.sync;
                let Some(live) = self.live(config)? else {
                    return Ok(None);
                };
                // The line and its first sync request in one write, so a
                // server reading its input in chunks reads them together and
                // the order of their replies is its own, not the pipe's.
                let command = match sync_replies(&mut live.proc, config, sync, timeout, send.take())
                {
                    Ok(command) => command,
                    Err(why) => {
                        self.live = None;
                        self.restart = Some(why);
                        return Ok(None);
                    }
                };
                for reply in command {
                    let Err(reply) = pairing.by_id(reply, Some(n)) else {
                        // Paired by id after the line's first sync reply:
                        // the command answers this row late.
                        if let Some((since, _)) = late_until {
                            if !self.late_rows.contains(&line_row) {
                                self.late_rows.push(line_row);
                            }
                            self.lateness.push(since.elapsed());
                        }
                        continue;
                    };
                    // A late reply to an earlier line given up on: dropped.
                    if let Some(key) = pair::reply_key(&reply)
                        && let Some(i) = self.stale.iter().position(|(k, _, _)| *k == key)
                    {
                        let (_, late_row, late_line) = self.stale.remove(i);
                        self.silent_lines.remove(&late_line);
                        if !self.late_rows.contains(&late_row) {
                            self.late_rows.push(late_row);
                        }
                        self.late += 1;
                        continue;
                    }
                    pairing.by_order(n, reply);
                }
                if !pairing.owes_by_id(n) {
                    break;
                }
                let mut key = config_key.clone().into_bytes();
                key.push(b'\n');
                key.extend_from_slice(line);
                let silent = self.silent_on(line_row) || self.silent_lines.contains(&key);
                let wait = self.late_wait().min(timeout);
                let (_, until) = *late_until.get_or_insert_with(|| {
                    let now = Instant::now();
                    if silent {
                        self.waits_skipped += 1;
                        (now, now)
                    } else {
                        (now, now + wait)
                    }
                });
                if Instant::now() >= until {
                    // The line is judged without the reply; if it comes
                    // later, it is dropped (and counted), not paired.
                    if !silent {
                        self.waits_run += 1;
                        match self.silent_rows.iter_mut().find(|(r, _)| *r == line_row) {
                            Some((_, count)) => *count += 1,
                            None => self.silent_rows.push((line_row, 1)),
                        }
                        if self.silent_lines.len() < SILENT_LINES {
                            self.silent_lines.insert(key.clone());
                        }
                    }
                    self.stale.extend(
                        pairing
                            .owed_keys_of(n)
                            .into_iter()
                            .map(|k| (k, line_row, key.clone())),
                    );
                    let excess = self.stale.len().saturating_sub(STALE);
                    self.stale.drain(..excess);
                    break;
                }
            }
        }
        Ok(Some(judge(pairing)))
    }
}

/// What the late-reply wait learns by: the row of `docs/behavior.md` that
/// decided the reference's reply to a line, and the kind of the line's id
/// ([`id_kind`]): a command may be silent on lines whose id it cannot read
/// and answer the others of the row.
type Learned = (&'static str, &'static str);

/// The kind of a line's id: `none`, `string`, `integer` (within 2^53, a
/// double's exact range), `big integer` (any other integer literal),
/// `other` (a number that is no integer literal, `null`, ...), `several`
/// (a duplicated `id`) or `unreadable` (not JSON).
fn id_kind(line: &[u8]) -> &'static str {
    let Ok(parsed) = model::parse(line) else {
        return "unreadable";
    };
    match parsed.ids.as_slice() {
        [] => "none",
        [id] if id.starts_with('"') => "string",
        [id] if model::tree::is_integer_literal(id) => match id.parse::<i64>() {
            Ok(n) if n.unsigned_abs() <= 1 << 53 => "integer",
            _ => "big integer",
        },
        [_] => "other",
        _ => "several",
    }
}

/// After how many lines of one row the command was silent on, each after
/// the whole [`LATE`] wait, with no reply to a line of that row ever
/// coming after its line's first sync reply, a line of that row is judged
/// at its first sync reply: the command is silent on that row.
const SILENT_AFTER: u32 = 1;

/// How long a reused run waits, after a line's first sync reply, for that
/// line's replies with an id still missing (replies answered concurrently
/// may come after the sync's reply), sending sync requests the while.
const LATE: Duration = Duration::from_millis(100);

/// The most lines remembered as silent ([`Exec::silent_lines`]).
const SILENT_LINES: usize = 4096;

/// How many replies must have come late before the wait is cut to what
/// they showed ([`Exec::late_wait`]).
const LATE_LEARNED: usize = 16;

/// How many times the latest late reply seen the wait lasts, once learned.
const LATE_FACTOR: u32 = 8;

/// The shortest wait, once learned.
const LATE_FLOOR: Duration = Duration::from_millis(20);

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

/// Sends the sync request (after `before`, in the same write) and returns
/// the lines before its reply; why
/// the process cannot be used any more when the reply does not come in
/// time or stdout closes.
fn sync_replies(
    p: &mut Proc,
    config: &Config,
    n: u64,
    timeout: Duration,
    before: Option<Vec<u8>>,
) -> Result<Vec<Vec<u8>>, Restart> {
    let id = sync_id(n);
    let mut request = textbook_request(config, Json::str(id)).render();
    // The reply to the sync carries the request's id.
    let key = pair::reply_key(&request);
    request.push(b'\n');
    let mut bytes = before.unwrap_or_default();
    bytes.extend_from_slice(&request);
    p.send(bytes);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_of_id() {
        for (line, kind) in [
            (r#"{"id":1}"#, "integer"),
            (r#"{"id":-9007199254740992}"#, "integer"),
            (r#"{"id":9007199254740993}"#, "big integer"),
            (r#"{"id":123456789012345678901234567890}"#, "big integer"),
            (r#"{"id":"x"}"#, "string"),
            (r#"{"id":1.5}"#, "other"),
            (r#"{"id":null}"#, "other"),
            (r#"{"method":"m"}"#, "none"),
            (r#"{"id":1,"id":2}"#, "several"),
            ("not json", "unreadable"),
        ] {
            assert_eq!(id_kind(line.as_bytes()), kind, "{line}");
        }
    }

    #[test]
    fn the_wait_learns_from_late_replies() {
        let mut exec = Exec::new(
            Launch {
                argv: Vec::new(),
                env: Vec::new(),
                env_remove: Vec::new(),
            },
            PathBuf::new(),
            Duration::from_secs(5),
        );
        assert_eq!(exec.late_wait(), LATE);
        exec.lateness = vec![Duration::from_millis(1); LATE_LEARNED - 1];
        assert_eq!(exec.late_wait(), LATE);
        exec.lateness.push(Duration::from_millis(4));
        assert_eq!(exec.late_wait(), Duration::from_millis(32));
        exec.lateness.push(Duration::from_micros(10));
        assert_eq!(exec.late_wait(), Duration::from_millis(32));
        exec.lateness = vec![Duration::from_micros(100); LATE_LEARNED];
        assert_eq!(exec.late_wait(), LATE_FLOOR);
        exec.lateness.push(Duration::from_millis(30));
        assert_eq!(exec.late_wait(), LATE);
        // A row is skipped only after a full wait on it, and never once a
        // reply to it came late.
        let key = ("E1", "none");
        assert!(!exec.silent_on(key));
        exec.silent_rows.push((key, SILENT_AFTER));
        assert!(exec.silent_on(key));
        exec.late_rows.push(key);
        assert!(!exec.silent_on(key));
    }
}
