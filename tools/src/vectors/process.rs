//! A server process as the replay runs it: what to replay on what
//! ([`Options`]), the process on [`crate::process::Proc`] (as `check` and
//! `diff` run it: in a process group of its own, killed whole when the
//! replay is done with it, so a launcher such as `npx`, `uv run` or a shell
//! script leaves nothing running), its reads and waits, the probe line
//! that follows each request, and the opening line of a process that runs
//! single vectors. Shared by the replay (`super::replay`) and the
//! statelessness probe (`super::stateless`); it judges nothing.
//!
//! Spec: 2026-07-28 `basic/transports/stdio.mdx` (newline-delimited
//! messages; a modern client opens a connection with `server/discover`).

use std::ffi::OsString;
use std::time::{Duration, Instant};

use super::format::same_id;
use crate::process::{Launch, Next, Proc};

/// What to replay, on what.
#[derive(Debug, Clone)]
pub struct Options {
    /// The server's command and arguments.
    pub command: Vec<OsString>,
    /// The fixture the server was started with, if any.
    pub fixture: Option<String>,
    /// The wait for a fresh process's first line.
    pub timeout: Duration,
    /// The wait for each later line.
    pub reply_timeout: Duration,
    /// The whole run's deadline; vectors it cuts are not run.
    pub deadline: Duration,
    /// The level the verdict and exit code rest on: failures at it and
    /// at every level before it count (`must` unless asked).
    pub level: String,
    /// Run every single vector on a fresh process of its own, as if the
    /// server were restarted before each (slow on a slow starter): the
    /// verdicts of a server that takes no context from earlier requests
    /// (BASE-21) are the same either way.
    pub fresh_each: bool,
}

/// The probe written after each single vector's request (`kind` `sync`),
/// and its id.
pub(crate) fn sync_line(kind: &str, n: &str) -> (Vec<u8>, String) {
    let id = format!("\"mcp-vectors-{kind}-{n}\"");
    let line = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"server/discover\",\"params\":{{\"_meta\":{{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{{}}}}}}}}"
    );
    (line.into_bytes(), id)
}

pub(crate) fn show(line: &[u8]) -> String {
    String::from_utf8_lossy(line).into_owned()
}

/// The server, on [`Proc`] (as `check` and `diff` run it: writes never
/// block the replay, long lines are cut, its process group is killed when
/// it is dropped), and whether it has answered yet (which wait applies).
pub(crate) struct Process {
    proc: Proc,
    answered: bool,
    pub(crate) fresh: bool,
    /// Lines that came before the reply to the opening request
    /// ([`open`]): the first vector's, as if they had come after it.
    pub(crate) early: Vec<Vec<u8>>,
}

pub(crate) enum Read {
    Line(Vec<u8>),
    Exited,
    Timeout(Duration),
}

impl Process {
    pub(crate) fn start(command: &[OsString]) -> Result<Process, String> {
        if command.is_empty() {
            return Err("no command to run: give the server's command after `--`".into());
        }
        let launch = Launch {
            argv: command.to_vec(),
            env: Vec::new(),
            env_remove: Vec::new(),
        };
        Ok(Process {
            proc: Proc::spawn(&launch)?,
            answered: false,
            fresh: true,
            early: Vec::new(),
        })
    }

    pub(crate) fn write(&mut self, line: &[u8]) {
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        self.proc.send(bytes);
    }

    pub(crate) fn close(&mut self) {
        self.proc.close_input();
    }

    pub(crate) fn read(&mut self, timeout: &Options, end: Instant) -> Read {
        let wait = if self.answered {
            timeout.reply_timeout
        } else {
            timeout.timeout
        };
        self.read_within(wait, end)
    }

    pub(crate) fn read_within(&mut self, wait: Duration, end: Instant) -> Read {
        let wait = wait.min(end.saturating_duration_since(Instant::now()));
        match self.proc.next(Instant::now() + wait) {
            Next::Line(line) => {
                self.answered = true;
                Read::Line(line.bytes)
            }
            Next::Closed => Read::Exited,
            Next::Timeout => Read::Timeout(wait),
        }
    }
}

pub(crate) fn missing(read: Read) -> String {
    match read {
        Read::Line(line) => show(&line),
        Read::Exited => "(no reply: the server exited)".into(),
        Read::Timeout(wait) => format!("(no reply within {} ms)", wait.as_millis()),
    }
}

/// The wait, after the probe's reply, for a reply to the request that a
/// server answering concurrently may send after it: an eighth of the
/// reply timeout.
pub(crate) fn grace(o: &Options) -> Duration {
    o.reply_timeout / 8
}

/// Opens a process for single vectors as a modern client opens a stdio
/// connection: a valid `server/discover` (id `"mcp-vectors-open-N"`)
/// before any other request (2026-07-28
/// `basic/transports/stdio.mdx#backward-compatibility`, a client rule: a
/// dual-era client SHOULD and a modern-only one is RECOMMENDED to). Its
/// reply is not judged: a dual-era server may choose its era from how the
/// connection opens (`basic/versioning.mdx#compatibility-matrix`), and a
/// single vector's request is judged on a connection a modern client
/// opened, whether it shares the process or has one of its own
/// (`--fresh-each`). What a process's first line does is the
/// statelessness probe's (`super::stateless`) and the sequences'. The
/// lines before the reply are kept for the first vector; when no reply
/// comes, the first vector finds out.
pub(crate) fn open(p: &mut Process, n: usize, o: &Options, end: Instant) {
    let (line, id) = sync_line("open", &n.to_string());
    p.write(&line);
    while let Read::Line(l) = p.read(o, end) {
        if is_reply_to(&l, &id) {
            return;
        }
        p.early.push(l);
    }
}

/// Whether a line is a reply whose id is the probe's.
pub(crate) fn is_reply_to(line: &[u8], id: &str) -> bool {
    std::str::from_utf8(line).is_ok_and(|text| same_id(text, id))
}

/// The reply to one request line with id `id` (its literal text) on `p`:
/// the line is written, then a probe (`"mcp-vectors-KIND-N"`), and the
/// line with the request's id that comes before the probe's reply (or
/// within [`grace`] after it) is the reply; other lines are passed over.
/// `Err`: the process exited or stopped answering (what came instead).
pub(crate) fn ask(
    p: &mut Process,
    (line, id): (&[u8], &str),
    (kind, n): (&str, usize),
    o: &Options,
    end: Instant,
) -> Result<Option<Vec<u8>>, String> {
    p.write(line);
    let (sync, sync_id) = sync_line(kind, &n.to_string());
    p.write(&sync);
    let mut reply = None;
    loop {
        match p.read(o, end) {
            Read::Line(l) if is_reply_to(&l, &sync_id) => break,
            Read::Line(l) if is_reply_to(&l, id) => {
                reply.get_or_insert(l);
            }
            Read::Line(_) => {}
            other => return Err(missing(other)),
        }
    }
    if reply.is_none()
        && let Read::Line(l) = p.read_within(grace(o), end)
        && is_reply_to(&l, id)
    {
        reply = Some(l);
    }
    Ok(reply)
}
