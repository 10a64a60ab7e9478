//! The context the checks run in: the shared server process, how long each
//! wait may last, and what a reply that never came, or that came but does
//! not answer the request, is reported as.
//!
//! Waiting:
//!
//! - A process's **first** reply may take `--timeout-ms` (start-up
//!   included). Once a process has answered, each later reply may take
//!   `--reply-timeout-ms` (shorter by default): a server that has shown it
//!   answers is judged in seconds.
//! - The whole run has **one deadline** (`--deadline-ms`). A check that
//!   cannot start, or whose wait the deadline cuts, is *not run*, never
//!   passed.
//! - A server that answered nothing at all on its first two processes is
//!   **silent**: the checks after that are not run rather than each waiting
//!   out the timeout again.
//!
//! Pairing: the reply to a single request on the shared process is the
//! response with its id. A line that comes instead and does not answer the
//! request (the request written back, a response to another id or to none)
//! is reported as such **at once**, on the first probe it happens.
//! Notifications, requests from the server and lines that are not JSON-RPC
//! at all (a log line) are set aside for the `stdout.*` checks; if no reply
//! comes, the timeout's reason names the first such line.
//!
//! Spec: 2026-07-28 `basic/transports/stdio.mdx` (one message per line,
//! stdout carries only MCP messages, shutdown by closing stdin); JSON-RPC
//! 2.0 section 5 (a response carries the id of the request it answers).

use std::process::ExitStatus;
use std::time::{Duration, Instant};

use super::report::{Failure, Outcome};
use super::wire::{self, Kind, Reply};
use crate::process::{Launch, Line, Next, Proc};

/// Outcomes by check id.
pub type Results = Vec<(&'static str, Outcome)>;

/// How much of a line a report shows (requests and replies are shown
/// whole up to this many characters; reasons are never cut).
pub const SHOWN: usize = 2000;

/// How many stdout lines are kept for the `stdout.*` checks.
const KEPT: usize = 20_000;

/// How long a retiring process that answered everything is given to close
/// stdout, so that late lines still reach the `stdout.*` checks.
pub const GRACE: Duration = Duration::from_secs(1);

/// After how many fresh processes that answered nothing the server counts
/// as silent.
const SILENT_AFTER: usize = 2;

/// How long to wait, and for how long in all.
#[derive(Debug, Clone, Copy)]
pub struct Waits {
    /// A process's first reply (start-up included).
    pub first: Duration,
    /// Any later reply of a process that has answered.
    pub reply: Duration,
    /// The whole run.
    pub run: Duration,
}

/// Why a request got no reply it could be judged by.
#[derive(Debug)]
pub enum NoReply {
    /// No response within the wait; the first line that came instead and
    /// is not a JSON-RPC message, if one did.
    Timeout(Option<Vec<u8>>),
    /// stdout closed first.
    Closed {
        /// How the process ended, if it did.
        status: Option<ExitStatus>,
        /// The end of its stderr.
        stderr: String,
    },
    /// A line came that does not answer the request.
    Unanswered {
        /// Why it does not.
        why: String,
        /// The line.
        line: Vec<u8>,
    },
    /// A fresh process could not be started.
    Spawn(String),
    /// The run's deadline passed.
    Deadline,
    /// The server answered nothing on its first processes.
    Silent,
}

/// One stdout line, and the method of the request it answered (when it was
/// paired with one).
pub struct Seen {
    /// The line.
    pub line: Line,
    /// The method of the request it answered.
    pub method: Option<String>,
}

/// What the checks learn as they go.
#[derive(Default)]
pub struct Facts {
    /// `server/discover` gave a result.
    pub discover_ok: Option<bool>,
    /// The versions the server says it supports.
    pub supported: Vec<String>,
    /// Whether discover advertised the `tools` capability.
    pub tools: Option<bool>,
    /// The capabilities discover declared (`None`: no discover result).
    pub capabilities: Option<serde_json::Map<String, serde_json::Value>>,
}

/// The context the checks run in.
pub struct Ctx {
    launch: Launch,
    waits: Waits,
    deadline: Instant,
    shared: Option<Proc>,
    /// Whether the shared process has answered a request.
    answered: bool,
    /// Whether any process has ever answered.
    ever_answered: bool,
    /// Fresh processes that timed out on their first request.
    silent: usize,
    /// Every stdout line kept, for the `stdout.*` checks.
    pub seen: Vec<Seen>,
    /// Lines not kept past the first `KEPT`.
    pub unkept: usize,
    processes: usize,
    stderr_bytes: u64,
    /// What the checks learned.
    pub facts: Facts,
    /// Every request [`Ctx::ask`] made, in order (for the warm runs).
    pub asked: Vec<Asked>,
    /// Whether [`Ctx::ask`] warms the process before each request.
    warm: bool,
}

/// One request [`Ctx::ask`] made, as shown in a report.
#[derive(Debug, Clone)]
pub struct Asked {
    /// The request.
    pub request: String,
    /// The valid requests sent before it on a warm run (none on a fresh
    /// one).
    pub before: Vec<String>,
    /// The reply, or why none came.
    pub reply: String,
    /// Whether it was asked on a warm run.
    pub warm: bool,
}

impl Ctx {
    /// Starts the shared process; an error means the server cannot be run.
    pub fn start(launch: Launch, waits: Waits) -> Result<Ctx, String> {
        let first = Proc::spawn(&launch)?;
        Ok(Ctx {
            launch,
            waits,
            deadline: Instant::now() + waits.run,
            shared: Some(first),
            answered: false,
            ever_answered: false,
            silent: 0,
            seen: Vec::new(),
            unkept: 0,
            processes: 1,
            stderr_bytes: 0,
            facts: Facts::default(),
            asked: Vec::new(),
            warm: false,
        })
    }

    /// Server processes started so far.
    pub fn processes(&self) -> usize {
        self.processes
    }

    /// Bytes the retired processes wrote on stderr.
    pub fn stderr_bytes(&self) -> u64 {
        self.stderr_bytes
    }

    /// The waits in force.
    pub fn waits(&self) -> Waits {
        self.waits
    }

    /// Why a new check cannot start, if it cannot: the run's deadline has
    /// passed, or the server has proved silent.
    pub fn blocked(&self) -> Option<NoReply> {
        if Instant::now() >= self.deadline {
            Some(NoReply::Deadline)
        } else if !self.ever_answered && self.silent >= SILENT_AFTER {
            Some(NoReply::Silent)
        } else {
            None
        }
    }

    /// The deadline of one wait: `wait` from now, cut by the run's deadline.
    pub fn until(&self, wait: Duration) -> Instant {
        (Instant::now() + wait).min(self.deadline)
    }

    /// A fresh process of the server.
    pub fn spawn(&mut self) -> Result<Proc, NoReply> {
        if let Some(blocked) = self.blocked() {
            return Err(blocked);
        }
        let p = Proc::spawn(&self.launch).map_err(NoReply::Spawn)?;
        self.processes += 1;
        Ok(p)
    }

    /// Keeps a stdout line for the `stdout.*` checks.
    pub fn keep(&mut self, line: Line, method: Option<String>) {
        if self.seen.len() < KEPT {
            self.seen.push(Seen { line, method });
        } else {
            self.unkept += 1;
        }
    }

    /// Closes a process's stdin, collects what it still writes (for at
    /// most `grace`), and stops it.
    pub fn retire(&mut self, mut p: Proc, grace: Duration) {
        p.close_input();
        let deadline = Instant::now() + grace;
        loop {
            let next = if grace.is_zero() {
                p.try_next().map_or(Next::Closed, Next::Line)
            } else {
                p.next(deadline)
            };
            match next {
                Next::Line(line) => self.keep(line, None),
                Next::Timeout | Next::Closed => break,
            }
        }
        self.stderr_bytes += p.stderr_tail().1;
    }

    /// Stops the shared process, keeping its last lines.
    pub fn finish(&mut self) {
        if let Some(p) = self.shared.take() {
            self.retire(p, GRACE.min(self.waits.first));
        }
    }

    /// Notes that some process answered.
    pub fn answered(&mut self) {
        self.ever_answered = true;
    }

    /// Reads `p`'s stdout until a response (with id `want`, when given)
    /// arrives, waiting until `deadline`; every line on the way is kept for
    /// the `stdout.*` checks. A line that writes back one of the `sent`
    /// lines (or, with `want`, a message with that id) ends the wait at
    /// once; with `strict` (the exchange was one request) so does a
    /// response to another id.
    pub fn await_reply(
        &mut self,
        p: &mut Proc,
        method: Option<&str>,
        want: Option<&str>,
        deadline: Instant,
        sent: &[&[u8]],
        strict: bool,
    ) -> Result<Reply, NoReply> {
        let mut stray = None;
        loop {
            match p.next(deadline) {
                Next::Line(line) => {
                    let kind = wire::classify(&line.bytes);
                    if matches!(kind, Kind::Other) && stray.is_none() {
                        stray = Some(line.bytes.clone());
                    }
                    if let Kind::Response(reply) = &kind
                        && want.is_none_or(|id| wire::same_id(id, reply.id.as_deref()))
                    {
                        let reply = reply.clone();
                        self.keep(line, method.map(str::to_string));
                        self.ever_answered = true;
                        return Ok(reply);
                    }
                    let why = does_not_answer(&kind, &line, sent, want, strict);
                    let bytes = line.bytes.clone();
                    self.keep(line, None);
                    if let Some(why) = why {
                        self.ever_answered = true;
                        return Err(NoReply::Unanswered { why, line: bytes });
                    }
                }
                Next::Timeout if Instant::now() >= self.deadline => {
                    return Err(NoReply::Deadline);
                }
                Next::Timeout => return Err(NoReply::Timeout(stray)),
                Next::Closed => {
                    let status = p.wait_exit(Instant::now() + Duration::from_millis(200));
                    return Err(NoReply::Closed {
                        status,
                        stderr: p.stderr_tail().0,
                    });
                }
            }
        }
    }

    /// Sends `lines` to the shared process (starting one if needed) and
    /// waits for a reply: the next response, or the one with id `want`.
    /// On no reply the shared process is retired; a reply that does not
    /// answer keeps it.
    pub fn exchange(
        &mut self,
        lines: &[&[u8]],
        method: Option<&str>,
        want: Option<&str>,
    ) -> Result<Reply, NoReply> {
        if let Some(blocked) = self.blocked() {
            return Err(blocked);
        }
        let mut p = match self.shared.take() {
            Some(p) => p,
            None => {
                self.answered = false;
                self.spawn()?
            }
        };
        p.send(joined(lines));
        let wait = if self.answered {
            self.waits.reply
        } else {
            self.waits.first
        };
        let strict = lines.len() == 1;
        let own_id = match lines {
            [single] => wire::raw_id(single),
            _ => None,
        };
        let want = want.or(own_id.as_deref());
        let result = self.await_reply(&mut p, method, want, self.until(wait), lines, strict);
        match &result {
            Ok(_) | Err(NoReply::Unanswered { .. }) => {
                self.answered = true;
                self.shared = Some(p);
            }
            Err(e) => {
                if matches!(e, NoReply::Timeout(_)) && !self.answered {
                    self.silent += 1;
                }
                self.retire(p, Duration::ZERO);
            }
        }
        result
    }

    /// One request to the shared process; its reply is the response with
    /// its id (or, when its id cannot be read, the next response). On a
    /// warm run ([`Ctx::set_warm`]) the valid requests of
    /// [`wire::warm_up`] go first, each answered before the request is
    /// sent; one that gets no reply ends the exchange with its error.
    pub fn ask(&mut self, line: &[u8], method: Option<&str>) -> Result<Reply, NoReply> {
        let mut before = Vec::new();
        let warm = if self.warm {
            wire::warm_up(method)
        } else {
            Vec::new()
        };
        for (warm_line, warm_method) in warm {
            before.push(wire::show(&warm_line, SHOWN));
            if let Err(e) = self.exchange(&[&warm_line], Some(warm_method), None) {
                self.note(line, before, &Err(self.describe(&e)));
                return Err(e);
            }
        }
        let result = self.exchange(&[line], method, None);
        let shown = match &result {
            Ok(reply) => Ok(wire::show(&reply.line, SHOWN)),
            Err(e) => Err(self.describe(e)),
        };
        self.note(line, before, &shown);
        result
    }

    fn note(&mut self, line: &[u8], before: Vec<String>, reply: &Result<String, String>) {
        self.asked.push(Asked {
            request: wire::show(line, SHOWN),
            before,
            reply: match reply {
                Ok(line) => line.clone(),
                Err(why) => format!("({why})"),
            },
            warm: self.warm,
        });
    }

    /// Turns warm runs on or off; either way the shared process is
    /// retired, so a warm run starts on a process of its own.
    pub fn set_warm(&mut self, warm: bool) {
        self.warm = warm;
        if let Some(p) = self.shared.take() {
            self.retire(p, Duration::ZERO);
        }
    }

    /// The outcome of a check whose request got no reply it could be
    /// judged by.
    pub fn no_reply(&self, e: &NoReply, request: &[u8]) -> Outcome {
        match e {
            NoReply::Deadline | NoReply::Silent => Outcome::NotRun(self.describe(e)),
            NoReply::Unanswered { line, .. } => Outcome::Fail(Failure {
                reason: self.describe(e),
                request: Some(wire::show(request, SHOWN)),
                reply: Some(wire::show(line, SHOWN)),
            }),
            _ => Outcome::Fail(Failure {
                reason: self.describe(e),
                request: Some(wire::show(request, SHOWN)),
                reply: None,
            }),
        }
    }

    /// One sentence for why there was no reply.
    pub fn describe(&self, e: &NoReply) -> String {
        match e {
            NoReply::Timeout(stray) => {
                let waited = if self.answered {
                    self.waits.reply.as_millis()
                } else {
                    self.waits.first.as_millis()
                };
                match stray {
                    None => {
                        format!("no reply within {waited} ms (later checks use a fresh process)")
                    }
                    Some(line) => format!(
                        "no reply within {waited} ms; the server wrote a line that is not a \
                         JSON-RPC message instead: {}",
                        wire::show(line, 200)
                    ),
                }
            }
            NoReply::Closed { status, stderr } => {
                let how = match status {
                    Some(s) => format!("exited ({s})"),
                    None => "closed its stdout".into(),
                };
                let tail = last_line(stderr);
                if tail.is_empty() {
                    format!("the server {how} without replying")
                } else {
                    format!("the server {how} without replying; its stderr ended with: {tail}")
                }
            }
            NoReply::Unanswered { why, .. } => {
                format!("the server's reply does not answer the request: {why}")
            }
            NoReply::Spawn(why) => format!("the server could not be started again: {why}"),
            NoReply::Deadline => format!(
                "not run: the run's deadline ({} ms, --deadline-ms) passed first",
                self.waits.run.as_millis()
            ),
            NoReply::Silent => format!(
                "not run: the server answered none of its first {SILENT_AFTER} requests, each on a \
                 fresh process within {} ms (--timeout-ms)",
                self.waits.first.as_millis()
            ),
        }
    }
}

/// Why a line that came while `sent` waited for the reply with id `want`
/// does not answer it, if it does not. Notifications, requests from the
/// server and noise (a log line) are not replies at all: they are set
/// aside for the stdout checks, and noise is named if no reply comes.
fn does_not_answer(
    kind: &Kind,
    line: &Line,
    sent: &[&[u8]],
    want: Option<&str>,
    strict: bool,
) -> Option<String> {
    let echoed = sent.contains(&line.bytes.as_slice())
        || (matches!(kind, Kind::Message)
            && want.is_some()
            && wire::raw_id(&line.bytes).as_deref() == want);
    if echoed {
        return Some("it is the request itself, written back".to_string());
    }
    match kind {
        Kind::Response(reply) if strict => match (&reply.id, want) {
            (Some(got), Some(sent_id)) => Some(format!(
                "it is a response to id {got}, not to the request's id {sent_id}"
            )),
            (None, _) => Some("it is a response without an id".to_string()),
            (Some(_), None) => None,
        },
        _ => None,
    }
}

/// The last non-blank line of `text`, as shown.
pub fn last_line(text: &str) -> String {
    let line = text.lines().rev().find(|l| !l.trim().is_empty());
    wire::show(line.unwrap_or_default().as_bytes(), 200)
}

/// `lines`, each followed by a newline.
pub fn joined(lines: &[&[u8]]) -> Vec<u8> {
    let mut all = Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for line in lines {
        all.extend_from_slice(line);
        all.push(b'\n');
    }
    all
}

/// A failed outcome: why, the request that shows it and the reply, each
/// shown cut to [`SHOWN`] bytes.
pub(super) fn fail(reason: impl Into<String>, request: &[u8], reply: Option<&Reply>) -> Outcome {
    Outcome::Fail(Failure {
        reason: reason.into(),
        request: Some(wire::show(request, SHOWN)),
        reply: reply.map(|r| wire::show(&r.line, SHOWN)),
    })
}

/// A skipped outcome: the rule does not apply here, and why.
pub(super) fn skip(reason: &str) -> Outcome {
    Outcome::Skip(reason.into())
}
