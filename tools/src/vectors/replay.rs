//! Replaying vectors on a server process: single vectors share one process
//! (requests of 2026-07-28 are stateless), which the replay opens with a
//! valid `server/discover` as a modern client opens a stdio connection
//! (its reply not judged); each request is followed by a
//! `server/discover` probe (id `"mcp-vectors-sync-N"`), and the lines
//! before the probe's reply (or within a grace of an eighth of the reply
//! timeout after it, for a server that answers concurrently) are the
//! request's: none is a silence, a second is a line too many. No line is
//! a silence only when the probe was answered: a server that exited or
//! hung on the request observed nothing, and a vector expecting silence
//! fails ([`Got::Nothing`]). A sequence (`steps`) runs on a fresh process:
//! its steps, then a probe (id `"mcp-vectors-end-N"`), then stdin closed;
//! its lines are read to end-of-file and paired with the steps by id, and
//! its silent steps pass only when the probe was answered. A chain
//! (format 6: a sequence whose steps carry values of earlier replies, the
//! `requestState` of a multi round-trip request) runs step by step on a
//! fresh process opened as the shared one, each step filled from the
//! replies before it and followed by a probe. Every wait has a deadline.
//! A single vector that fails at must on the shared process is tried
//! again after the replay, on two fresh processes that run every such
//! vector in order and in reverse order (`tried_again`): passing there, its
//! reply depends on earlier lines (BASE-21).
//! A failed vector replaces the shared process only when its probe got no
//! reply: the process exited or stopped answering. A well-formed mismatch,
//! a silence or a line too many keeps it (the probe's reply shows it is in
//! step), so a server that is slow to start is started once per run and
//! once per sequence, however many vectors it fails. The server runs on
//! [`crate::process::Proc`], as `check` and `diff` run it: in a process
//! group of its own, killed whole when the replay is done with it, so a
//! launcher (`npx`, `uv run`, a shell script) leaves nothing running.
//! `scripts/replay_vectors.py` does the same, step for step.

use std::time::Instant;

use super::format::{
    Got, LEVELS, Step, Vector, failed_levels, failed_levels_with, is_notification, same_id, select,
};
use super::process::{
    Options, Process, Read, ask, grace, is_reply_to, missing, open, show, sync_line,
};
use super::stateless::Stateless;

/// The outcome of one vector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every step got its expected line (or silence).
    Pass,
    /// A step did not: the levels it failed at, its number (1-based), the
    /// expected and the got line.
    Fail {
        /// The levels failed (of the vector's own, `textbook`,
        /// `canonical`), in [`LEVELS`] order.
        levels: Vec<&'static str>,
        /// The step (1 for a single vector).
        step: usize,
        /// The expected line, or `None` for silence.
        expected: Option<String>,
        /// What came instead, as shown to a user.
        got: String,
        /// A single vector that failed at `must` on the shared process
        /// and passed on a fresh process (`tried_again`): its reply
        /// depends on earlier lines (BASE-21).
        depends: bool,
    },
    /// The run's deadline came first.
    NotRun,
}

/// Every vector replayed and its outcome.
#[derive(Debug)]
pub struct Report {
    /// The command line, for the header.
    pub command: String,
    /// The fixture, if any.
    pub fixture: Option<String>,
    /// Each vector with its outcome, in replay order.
    pub results: Vec<(Vector, Outcome)>,
    /// The level the verdict rests on.
    pub level: String,
    /// How many server processes the replay started.
    pub starts: usize,
    /// The statelessness probe (BASE-21), run before the vectors.
    pub stateless: Stateless,
    /// How many single vectors failed at `must` on the shared process and
    /// were tried again on fresh processes (`tried_again`).
    pub retried: usize,
    /// Why the fixture's own vectors were not run: the server's data is
    /// not the fixture's (`served`).
    pub unserved: Option<String>,
}

/// One single vector on the shared process: the request, then the probe
/// (`server/discover`, id `"mcp-vectors-sync-N"`); the lines before the
/// probe's reply (or within [`grace`] after it) are the request's. Its
/// outcome, and whether the process is still answering (the probe got its
/// reply): a silence where a reply was due costs no restart and no full
/// reply timeout.
///
/// `late`: whether to wait the grace for a late reply where none came
/// before the probe's; the tries again of `tried_again` do not (a reply a
/// concurrent server sends late already had its grace on the shared
/// process, and a try again only ever finds a pass).
fn single(
    p: &mut Process,
    v: &Vector,
    n: usize,
    (o, late): (&Options, bool),
    end: Instant,
) -> (Outcome, bool) {
    let Some(step) = v.steps.first() else {
        return (Outcome::Pass, true);
    };
    let run = one_step(
        p,
        v,
        step,
        &step.request,
        sync_line("sync", &n.to_string()),
        (o, late),
        end,
    );
    if run.levels.is_empty() {
        return (Outcome::Pass, run.answering);
    }
    let outcome = Outcome::Fail {
        levels: run.levels,
        step: 1,
        expected: expected_shown(step),
        got: run.shown,
        depends: false,
    };
    (outcome, run.answering)
}

/// The expected line as shown: the reference's reply, and for a step
/// that judges its notifications (format 6) how many come first, as the
/// got line says how many came.
fn expected_shown(step: &Step) -> Option<String> {
    let reply = step.reply.clone()?;
    Some(match &step.before {
        Some(before) => format!("({} notifications first) {reply}", before.len()),
        None => reply,
    })
}

/// What one step written on a process got: the levels it failed at, the
/// line shown for it, whether the process is still answering (its probe
/// got a reply), and its reply line, if one came.
struct StepRun {
    levels: Vec<&'static str>,
    shown: String,
    answering: bool,
    reply: Option<Vec<u8>>,
}

/// Writes `line` (the step's request, filled) and the probe `sync`, and
/// judges the lines before the probe's reply (or within [`grace`] after
/// it) as the step's: for a step with `before` (format 6), the
/// notifications first, then the reply; a line more fails at every
/// level.
fn one_step(
    p: &mut Process,
    v: &Vector,
    step: &Step,
    line: &[u8],
    (probe, id): (Vec<u8>, String),
    (o, late): (&Options, bool),
    end: Instant,
) -> StepRun {
    p.write(line);
    p.write(&probe);
    let mut lines = std::mem::take(&mut p.early);
    let last = loop {
        match p.read(o, end) {
            Read::Line(line) if is_reply_to(&line, &id) => break None,
            Read::Line(line) => lines.push(line),
            other => break Some(other),
        }
    };
    // Format 6: where the step judges notifications, those before its
    // reply are its notifications.
    let mut notes = Vec::new();
    if step.before.is_some() {
        while lines.first().is_some_and(|l| is_notification(l)) {
            notes.push(lines.remove(0));
        }
    }
    if late
        && last.is_none()
        && lines.is_empty()
        && step.reply.is_some()
        && let Read::Line(line) = p.read_within(grace(o), end)
    {
        lines.push(line);
    }
    let answering = last.is_none();
    let mut lines = lines.into_iter();
    let (got, shown) = match (lines.next(), last) {
        (Some(line), _) if step.before.is_some() => {
            let shown = format!("({} notifications first) {}", notes.len(), show(&line));
            (Some(line), shown)
        }
        (Some(line), _) => {
            let shown = show(&line);
            (Some(line), shown)
        }
        (None, None) => (
            None,
            "(no reply: the probe that follows was answered)".into(),
        ),
        (None, Some(read)) => (
            None,
            format!(
                "{} (to the request and the probe that follows)",
                missing(read)
            ),
        ),
    };
    // No line is a silence only when the probe was answered (the server
    // went past the request); a server that exited or hung on it showed
    // nothing.
    let seen = match (&got, answering) {
        (Some(line), _) => Got::Line(line),
        (None, true) => Got::Silence,
        (None, false) => Got::Nothing,
    };
    let mut levels = failed_levels_with(v, o.fixture.as_deref(), step, seen, &notes);
    if let Some(extra) = lines.next() {
        // A line more than the vector's reply: it fails at every level.
        let silent = Step {
            expect: None,
            reply: None,
            before: None,
            ..step.clone()
        };
        levels.extend(failed_levels(
            v,
            o.fixture.as_deref(),
            &silent,
            Got::Line(&extra),
        ));
        levels.sort_by_key(|l| LEVELS.iter().position(|x| x == l));
        levels.dedup();
    }
    StepRun {
        levels,
        shown,
        answering,
        reply: got,
    }
}

/// A chain (format 6: a sequence with a `carry`) on a fresh process,
/// opened as the shared one is (`mcp-vectors-open-S`, S the number of
/// this server start): each step's request, filled from the replies
/// before it ([`Step::fill`]), then a probe (id `"mcp-vectors-sync-N-K"`,
/// K the step's index), the step judged as a single vector is. A step
/// that cannot be filled, and every step after it, is not written and
/// fails at every level it is judged at; so is every step after the
/// process stopped answering. The first step failing at the weakest
/// level is shown, as for a sequence.
fn chain(v: &Vector, n: usize, o: &Options, end: Instant, start: usize) -> Result<Outcome, String> {
    let mut p = Process::start(&o.command)?;
    p.fresh = false;
    open(&mut p, start, o, end);
    let mut replies: Vec<Option<Vec<u8>>> = Vec::new();
    let mut levels: Vec<&'static str> = Vec::new();
    let mut first: Option<(usize, usize, Option<String>, String)> = None;
    let mut stopped: Option<String> = None;
    for (i, step) in v.steps.iter().enumerate() {
        let filled = match &stopped {
            Some(why) => Err(why.clone()),
            None => step.fill(&replies),
        };
        let run = match filled {
            Ok(line) => one_step(
                &mut p,
                v,
                step,
                &line,
                sync_line("sync", &format!("{n}-{i}")),
                (o, true),
                end,
            ),
            Err(why) => {
                stopped = Some(why.clone());
                StepRun {
                    levels: failed_levels(v, o.fixture.as_deref(), step, Got::Nothing),
                    shown: why,
                    answering: false,
                    reply: None,
                }
            }
        };
        if !run.answering && stopped.is_none() {
            stopped = Some("(not run: the server stopped answering at an earlier step)".into());
        }
        replies.push(run.reply);
        let rank = run
            .levels
            .iter()
            .filter_map(|l| LEVELS.iter().position(|x| x == l))
            .min();
        if let Some(rank) = rank
            && first.as_ref().is_none_or(|(r, ..)| rank < *r)
        {
            first = Some((rank, i + 1, expected_shown(step), run.shown));
        }
        levels.extend(run.levels);
    }
    p.close();
    Ok(verdict(levels, first))
}

/// A sequence on a fresh process: every step written, then the probe
/// (`server/discover`, id `"mcp-vectors-end-N"`), stdin closed, lines read
/// to end-of-file, then paired with the steps by id. The probe's reply is
/// no step's; it shows the server went past the last step, so a step that
/// expects silence passes only when it came (a server that crashes or
/// hangs on a silent step shows nothing).
fn sequence(v: &Vector, n: usize, o: &Options, end: Instant) -> Result<Outcome, String> {
    let mut p = Process::start(&o.command)?;
    for step in &v.steps {
        p.write(&step.request);
    }
    let (probe, probe_id) = sync_line("end", &n.to_string());
    p.write(&probe);
    p.close();
    let mut got = Vec::new();
    let mut alive = false;
    let last = loop {
        match p.read(o, end) {
            Read::Line(line) if is_reply_to(&line, &probe_id) => alive = true,
            Read::Line(line) => got.push(line),
            other => break other,
        }
    };
    // Replies are paired with steps by id, as JSON-RPC pairs them (a
    // server may answer in any order); a step whose id no line has takes
    // the first line whose id is no step's.
    let mut pool: Vec<Option<Vec<u8>>> = got.into_iter().map(Some).collect();
    let ids: Vec<&str> = v.steps.iter().filter_map(|s| s.reply.as_deref()).collect();
    let text = |l: &[u8]| String::from_utf8_lossy(l).into_owned();
    let mut levels: Vec<&'static str> = Vec::new();
    // The step shown: the first to fail at the weakest level failed (a
    // step failing at `must` rather than an earlier one failing only at
    // `textbook`).
    let mut first: Option<(usize, usize, Option<String>, String)> = None;
    let mut note = |i: usize, step: &Step, failed: Vec<&'static str>, shown: String| {
        let Some(rank) = failed
            .iter()
            .filter_map(|l| LEVELS.iter().position(|x| x == l))
            .min()
        else {
            return;
        };
        levels.extend(failed);
        if first.as_ref().is_none_or(|(r, ..)| rank < *r) {
            first = Some((rank, i + 1, step.reply.clone(), shown));
        }
    };
    // The last step whose reply came: a silent step before it was
    // observed (the server went past it), one after it only when the probe
    // was answered.
    let mut last_seen: Option<usize> = None;
    for (i, step) in v.steps.iter().enumerate() {
        let Some(reply) = step.reply.as_deref() else {
            continue;
        };
        let own = pool
            .iter()
            .position(|l| l.as_deref().is_some_and(|l| same_id(&text(l), reply)));
        let other = || {
            pool.iter().position(|l| {
                l.as_deref()
                    .is_some_and(|l| !ids.iter().any(|r| same_id(&text(l), r)))
            })
        };
        let pick = own.or_else(other);
        match pick.and_then(|k| pool.get_mut(k)).and_then(Option::take) {
            Some(line) => {
                last_seen = Some(i);
                note(
                    i,
                    step,
                    failed_levels(v, o.fixture.as_deref(), step, Got::Line(&line)),
                    show(&line),
                );
            }
            None => {
                note(
                    i,
                    step,
                    failed_levels(v, o.fixture.as_deref(), step, Got::Nothing),
                    missing_at(&last),
                );
            }
        }
    }
    for (i, step) in v.steps.iter().enumerate() {
        if step.reply.is_none() && !alive && last_seen.is_none_or(|k| i > k) {
            let shown = format!("{} (to the probe after the last step)", missing_at(&last));
            note(
                i,
                step,
                failed_levels(v, o.fixture.as_deref(), step, Got::Nothing),
                shown,
            );
        }
    }
    if let Some(extra) = pool.into_iter().flatten().next()
        && let Some(step) = v.steps.last()
    {
        let silent = Step {
            expect: None,
            reply: None,
            before: None,
            ..step.clone()
        };
        note(
            v.steps.len() - 1,
            &silent,
            failed_levels(v, o.fixture.as_deref(), &silent, Got::Line(&extra)),
            show(&extra),
        );
    }
    Ok(verdict(levels, first))
}

/// A sequence's or chain's outcome: the levels its steps failed at, in
/// [`LEVELS`] order, and the step shown (`first`: its rank, number,
/// expected and got lines), or a pass when none failed.
fn verdict(
    mut levels: Vec<&'static str>,
    first: Option<(usize, usize, Option<String>, String)>,
) -> Outcome {
    levels.sort_by_key(|l| LEVELS.iter().position(|x| x == l));
    levels.dedup();
    match first {
        Some((_, step, expected, got)) => Outcome::Fail {
            levels,
            step,
            expected,
            got,
            depends: false,
        },
        None => Outcome::Pass,
    }
}

/// Whether an outcome failed at `must`.
fn fails_must(outcome: &Outcome) -> bool {
    matches!(outcome, Outcome::Fail { levels, .. } if levels.contains(&"must"))
}

/// The single vectors that failed at must on the shared process (`again`,
/// their indices in `results`), tried again on two fresh processes, each
/// opened as the shared one was: all of them one after another in their
/// order, then in the reverse order. One that passes at must on either
/// depends on earlier lines (BASE-21): two histories gave two answers. The
/// first of each order runs as its process's only vector, and every other
/// one after nothing but vectors that also failed; a reply that depends on
/// earlier lines would have to be set off by those very vectors, in both
/// orders, to go unseen. Two starts, however many failed: a port on the
/// official Python SDK, a second and more per start, failed 45 vectors at
/// must, and one start each took its replay from 24 s to 72 s (issue 39).
/// Returns how many vectors were tried again (all of `again` unless the
/// deadline came first); the verdicts stay the shared process's.
fn tried_again(
    results: &mut [(Vector, Outcome)],
    again: &[usize],
    o: &Options,
    end: Instant,
    starts: &mut usize,
) -> Result<usize, String> {
    let mut passed = vec![false; again.len()];
    let mut tried = vec![false; again.len()];
    let forward: Vec<usize> = (0..again.len()).collect();
    let backward: Vec<usize> = (0..again.len()).rev().collect();
    for order in [forward, backward] {
        let mut process: Option<Process> = None;
        for j in order {
            if Instant::now() >= end {
                break;
            }
            let Some(&n) = again.get(j) else { continue };
            let Some((v, _)) = results.get(n) else {
                continue;
            };
            let mut p = match process.take() {
                Some(p) => p,
                None => {
                    *starts += 1;
                    let mut p = Process::start(&o.command)?;
                    p.fresh = false;
                    open(&mut p, *starts, o, end);
                    p
                }
            };
            let (outcome, answering) = single(&mut p, v, n, (o, false), end);
            if let (Some(t), Some(pass)) = (tried.get_mut(j), passed.get_mut(j)) {
                *t = true;
                *pass |= !fails_must(&outcome);
            }
            if answering {
                process = Some(p);
            }
        }
    }
    for (j, &n) in again.iter().enumerate() {
        if let (Some((_, Outcome::Fail { depends, .. })), Some(&pass)) =
            (results.get_mut(n), passed.get(j))
        {
            *depends = pass;
        }
    }
    Ok(tried.iter().filter(|&&t| t).count())
}

/// What ended the reading of a sequence's lines, as shown for a step
/// that got none.
fn missing_at(last: &Read) -> String {
    match last {
        Read::Exited => "(no reply: the server exited)".to_string(),
        Read::Timeout(wait) => format!("(no reply within {} ms)", wait.as_millis()),
        Read::Line(line) => show(line),
    }
}

/// Replays the selected vectors. `Err`: the command line or the server
/// could not be run at all.
pub fn run(o: &Options) -> Result<Report, String> {
    let vectors = select(o.fixture.as_deref())?;
    let end = Instant::now() + o.deadline;
    let mut starts = 0;
    let stateless = super::stateless::probe(o, end, &mut starts)?;
    let (mut shared, unserved) = served(o, end, &mut starts)?;
    let mut results = Vec::new();
    let mut again = Vec::new();
    for (n, v) in vectors.into_iter().enumerate() {
        if Instant::now() >= end || (unserved.is_some() && !v.is_generic()) {
            results.push((v, Outcome::NotRun));
            continue;
        }
        let outcome = if v.chain {
            starts += 1;
            chain(&v, n, o, end, starts)?
        } else if v.sequence {
            starts += 1;
            sequence(&v, n, o, end)?
        } else {
            let mut p = match shared.take() {
                Some(p) => p,
                None => {
                    let mut p = Process::start(&o.command)?;
                    open(&mut p, starts + 1, o, end);
                    p
                }
            };
            if p.fresh {
                starts += 1;
                p.fresh = false;
            }
            let (outcome, answering) = single(&mut p, &v, n, (o, true), end);
            if answering && !o.fresh_each {
                shared = Some(p);
            }
            // A failure at must on the shared process is tried again on
            // fresh processes after the replay (`tried_again`).
            if fails_must(&outcome) && !o.fresh_each {
                again.push(n);
            }
            outcome
        };
        results.push((v, outcome));
    }
    let retried = tried_again(&mut results, &again, o, end, &mut starts)?;
    Ok(Report {
        command: o
            .command
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" "),
        fixture: o.fixture.clone(),
        results,
        level: o.level.clone(),
        starts,
        stateless,
        retried,
        unserved,
    })
}

/// Whether the server holds the data of the fixture asked for
/// ([`crate::check::fixture::holds`]), asked on the process the single
/// vectors then share (opened as it always is, and counted as a start
/// when a vector first uses it, so the probe starts nothing of its own
/// unless the process stopped answering). Returns that process, if still
/// answering, and why the fixture's own vectors cannot be run, if they
/// cannot. Without `--fixture` (the generic vectors, which hold for any
/// server) nothing is asked.
fn served(
    o: &Options,
    end: Instant,
    starts: &mut usize,
) -> Result<(Option<Process>, Option<String>), String> {
    let Some(name) = o.fixture.as_deref() else {
        return Ok((None, None));
    };
    let mut p = Process::start(&o.command)?;
    open(&mut p, *starts + 1, o, end);
    let mut answering = true;
    let mut n = 0;
    let found = crate::check::fixture::holds(name, &mut |line, id| {
        n += 1;
        if !answering {
            return None;
        }
        match ask(&mut p, (line, id), ("fixture-sync", n), o, end) {
            Ok(reply) => reply.and_then(|l| serde_json::from_slice(&l).ok()),
            Err(_) => {
                answering = false;
                None
            }
        }
    });
    if !answering {
        // Started and gone: a start of its own.
        *starts += 1;
    }
    let why = found.err().map(|why| {
        format!(
            "{why}. Its vectors say what the reference answered with that data, so they were not \
             run: start the server with that configuration (mcp-reference serve --config {}) \
             and replay again",
            crate::check::fixture::file(name)
        )
    });
    Ok((answering.then_some(p), why))
}

impl Report {
    /// How many vectors depend on earlier lines: they failed at `must` on
    /// the shared process and passed on a fresh process.
    pub fn depends(&self) -> usize {
        self.results
            .iter()
            .filter(|(_, o)| matches!(o, Outcome::Fail { depends: true, .. }))
            .count()
    }

    /// The statelessness line: the probe's, and the vectors tried again.
    /// Vectors that depend on earlier lines make it a FAIL even where the
    /// probe passed.
    pub fn stateless_line(&self) -> String {
        let (depends, retried) = (self.depends(), self.retried);
        let line = match (&self.stateless, depends) {
            (Stateless::Pass, 1..) => {
                "statelessness (BASE-21, must): FAIL: the probe passed".to_string()
            }
            (probe, _) => probe.line(),
        };
        if retried == 0 {
            return line;
        }
        format!(
            "{line}; {depends} of {retried} vectors failing at must on the shared process pass \
             on a fresh process (their replies depend on earlier lines)"
        )
    }

    /// Vectors that failed, in replay order.
    pub fn failed(&self) -> Vec<&str> {
        self.results
            .iter()
            .filter(|(_, o)| matches!(o, Outcome::Fail { .. }))
            .map(|(v, _)| v.id.as_str())
            .collect()
    }

    /// Per level, in [`LEVELS`] order: the vectors judged at it that ran,
    /// and those that passed there.
    pub fn per_level(&self) -> Vec<(&'static str, usize, usize)> {
        LEVELS
            .into_iter()
            .map(|level| {
                let judged = self.results.iter().filter(|(v, o)| {
                    *o != Outcome::NotRun && v.levels(self.fixture.as_deref()).contains(&level)
                });
                let (mut ran, mut passed) = (0, 0);
                for (_, o) in judged {
                    ran += 1;
                    if !matches!(o, Outcome::Fail { levels, .. } if levels.contains(&level)) {
                        passed += 1;
                    }
                }
                (level, ran, passed)
            })
            .collect()
    }

    /// The levels the verdict counts: [`Report::level`] and those before.
    fn counted(&self) -> &'static [&'static str] {
        let upto = LEVELS.iter().position(|l| *l == self.level).unwrap_or(0);
        LEVELS.get(..=upto).unwrap_or_default()
    }

    /// 0 every vector passed at the verdict's levels (`must` unless
    /// asked), 1 one failed there, 3 none failed but the deadline cut some.
    pub fn exit_code(&self) -> u8 {
        let counted = self.counted();
        let failed = self
            .per_level()
            .iter()
            .any(|(level, ran, passed)| counted.contains(level) && passed < ran);
        let cut = self.results.iter().any(|(_, o)| *o == Outcome::NotRun)
            || matches!(self.stateless, Stateless::NotRun(_));
        if failed || matches!(self.stateless, Stateless::Fail(_)) {
            1
        } else if cut {
            3
        } else {
            0
        }
    }

    /// The report as printed: per failed vector its id, level, source,
    /// rule, the levels it failed at, the request, expected and got line;
    /// then one line per level and the verdict.
    pub fn text(&self) -> String {
        let mut out = format!(
            "mcp-reference check --vectors{}: {}\n",
            self.fixture
                .as_deref()
                .map(|f| format!(" --fixture {f}"))
                .unwrap_or_default(),
            self.command
        );
        let (mut passed, mut failed, mut cut) = (0, 0, 0);
        for (v, o) in &self.results {
            match o {
                Outcome::Pass => passed += 1,
                Outcome::NotRun => cut += 1,
                Outcome::Fail {
                    levels,
                    step,
                    expected,
                    got,
                    depends,
                } => {
                    failed += 1;
                    out.push_str(&format!(
                        "FAIL {} (level {}, source {}, rule {}; fails {})\n",
                        v.id,
                        v.level,
                        v.source,
                        v.rule,
                        levels.join(", ")
                    ));
                    if *depends {
                        out.push_str(
                            "  depends on earlier lines: BASE-21 (passes at must on a fresh process)\n",
                        );
                    }
                    if v.sequence {
                        // A reply due and missing breaks JSON-RPC's rule
                        // whatever the step's row (JRPC-01).
                        let missing = expected.is_some() && got.starts_with("(no reply");
                        let own = v
                            .steps
                            .get(step.saturating_sub(1))
                            .and_then(|s| s.level.as_ref())
                            .map(|(l, s)| match missing {
                                true => format!(" (level {l}, source {s}; no reply: JRPC-01)"),
                                false => format!(" (level {l}, source {s})"),
                            })
                            .unwrap_or_default();
                        out.push_str(&format!("  step     {step}{own}\n"));
                    }
                    let request = v
                        .steps
                        .get(step.saturating_sub(1))
                        .map(|s| show(&s.request))
                        .unwrap_or_default();
                    out.push_str(&format!("  request  {request}\n"));
                    out.push_str(&format!(
                        "  expected {}\n",
                        expected.as_deref().unwrap_or("(no reply)")
                    ));
                    out.push_str(&format!("  got      {got}\n"));
                }
            }
        }
        if let Some(why) = &self.unserved {
            out.push_str(&format!(
                "NOT RUN: every vector of vectors/{}.jsonl: {why}\n",
                self.fixture.as_deref().unwrap_or_default()
            ));
        }
        out.push_str(&format!(
            "vectors: {} run, {passed} passed at every level, {failed} failed at some level, {cut} not run; {} server starts\n",
            self.results.len() - cut,
            self.starts
        ));
        for (level, ran, ok) in self.per_level() {
            out.push_str(&format!("{level} {ok}/{ran}\n"));
        }
        out.push_str(&format!("{}\n", self.stateless_line()));
        let verdict = match self.exit_code() {
            0 => format!(
                "PASS (every vector passed at {})",
                self.counted().join(", ")
            ),
            1 if matches!(self.stateless, Stateless::Fail(_)) => format!(
                "FAIL (a vector failed at {}, or the statelessness probe at must)",
                self.counted().join(", ")
            ),
            1 => format!("FAIL (a vector failed at {})", self.counted().join(", ")),
            _ if self.unserved.is_some() => format!(
                "INCOMPLETE (the server's data is not the {} fixture's: its vectors were not run)",
                self.fixture.as_deref().unwrap_or_default()
            ),
            _ => "INCOMPLETE (the deadline cut some vectors, or the statelessness probe could not run)"
                .to_string(),
        };
        out.push_str(&format!("verdict: {verdict}\n"));
        out
    }
}
