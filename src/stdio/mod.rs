//! The stdio driver: reads lines from an input stream, hands each to the
//! core, writes the replies, and logs to a separate stream. It holds no
//! protocol knowledge; what it owns is framing and I/O:
//!
//! - **Lines.** Split on `\n`. A line longer than the configured limit is
//!   never buffered: the driver skips to the next newline and the core
//!   writes one `-32600` reply with id null for it, unless the line is
//!   whitespace only: a blank line of any length gets no reply, as in the
//!   core (decision DEC1). Memory stays bounded by
//!   the limit plus one read buffer, whatever arrives. A final line without
//!   a newline before end-of-file is still a line.
//! - **Batches.** Each read is answered as one batch: every complete line
//!   in the buffer, found in one pass, answered where it lies (no copy, no
//!   allocation per line); only the unfinished last line is kept for the
//!   next read, moved to the front of the buffer.
//! - **Flushing.** Replies collect in one buffer, written when it is large
//!   or when the driver is about to wait for input. A host that sends one
//!   request and waits gets its reply at once; pipelined input is answered
//!   in large writes, not one system call per line.
//! - **End.** At end-of-file every line read has been answered; the driver
//!   writes what is left and returns. When the output is closed, it returns
//!   quietly: nobody is left to answer. Nothing here or in the core panics
//!   on any input; were a panic to happen (a bug), it reaches the caller
//!   and ends the process, instead of leaving the other threads waiting.
//!
//! - **Writing overlaps answering.** One thread reads and answers, in
//!   turns; a second thread only writes. A finished buffer of replies goes
//!   to the writer through one channel, so replies leave in the order they
//!   were produced, and the reading thread goes on answering instead of
//!   waiting for the reader of the output to drain a full pipe. A few
//!   buffers circulate between the two threads (taken back when written),
//!   so memory stays bounded and a slow reader of the output slows the
//!   driver down rather than growing a queue.
//! - **Answering on two threads, when lines are independent.** When the
//!   session says no line's reply depends on another line (the legacy path
//!   off: [`Session::lines_are_independent`]), a third thread helps: a
//!   batch of [`SPLIT`] bytes or more is cut in two at a newline, the helper
//!   answers the second part (copied out of the read buffer) with a session
//!   of its own while the reading thread answers the first, and the reading
//!   thread hands the writer its own replies first, then the helper's, then
//!   reads again. The order is the order of the lines, whatever finishes
//!   first; the log numbers each line as it comes (the helper's notes are
//!   written after the first part's). Smaller batches, as a host that sends
//!   one request and waits makes them, are answered on the reading thread
//!   alone, with no hand-over. The core and the session are the same code
//!   on either thread; nothing in them is shared or changes. Answering is
//!   most of the cost (docs/performance.md).
//!
//! Spec: 2026-07-28 `basic/transports/stdio.mdx`: messages are delimited by
//! newlines; the server MUST NOT write anything to stdout that is not a
//! valid MCP message (logs go to stderr); servers SHOULD exit promptly when
//! stdin is closed.

use std::io::{self, ErrorKind, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;

use crate::server::{Disposition, Server, is_blank};
use crate::session::Session;

/// How much input is read at once (what a pipe holds), and the output size
/// that forces a write.
const CHUNK: usize = 64 * 1024;

/// How many finished reply buffers may wait for the writer (beyond that,
/// handing one over waits: a slow reader of the output slows the driver
/// down), and how many written ones may wait to be filled again.
const BUFFERS: usize = 4;

/// The smallest batch cut in two for the helper thread: a quarter of a
/// full read. Below it the hand-over (a copy, two channel messages, a
/// wake-up) is a larger share of the work saved, and a host that sends
/// one request at a time never waits for it.
const SPLIT: usize = 16 * 1024;

/// Log verbosity on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    /// Nothing at all.
    Off,
    /// Failures of the driver.
    Error,
    /// Things a host's author should know (the default).
    Warn,
    /// One line per message handled.
    Info,
    /// Everything, including each reply's size.
    Debug,
}

impl LogLevel {
    /// Parses `off`, `error`, `warn`, `info` or `debug`.
    pub fn parse(s: &str) -> Option<LogLevel> {
        Some(match s {
            "off" => LogLevel::Off,
            "error" => LogLevel::Error,
            "warn" => LogLevel::Warn,
            "info" => LogLevel::Info,
            "debug" => LogLevel::Debug,
            _ => return None,
        })
    }
}

/// Why [`serve`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The input reached end-of-file and every reply was written.
    EndOfInput,
    /// The output was closed by the reader.
    OutputClosed,
}

/// Counts of what the driver saw, for the final log line and for tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Lines read (blank ones included, oversized ones included).
    pub lines: u64,
    /// Replies produced (when the output closes early, the last ones were
    /// produced but never delivered).
    pub replies: u64,
    /// Lines over the limit.
    pub oversized: u64,
    /// Lines answered on the helper thread (included in `lines`).
    pub second_thread: u64,
}

/// What watches the lines the driver answers, in order: `mcp-reference
/// judge` (the crate's `judge`). With one, every line is answered on the
/// reading thread (no helper), so the observer sees them in order.
pub trait Observer: Send {
    /// One line within the limit (without its newline, a final `\r` kept
    /// as read), and the replies the session wrote for it (empty for a
    /// notification or a blank line).
    fn line(&mut self, line: &[u8], replies: &[u8]);
    /// Every line read so far is answered and its replies handed to the
    /// writer: the driver is about to wait for input.
    fn waiting(&mut self);
}

/// What one thread needs to answer lines: a session, the counts, and the
/// notes for the log. The reading thread has one; so has the helper thread
/// when there is one.
struct Answerer<'s> {
    server: &'s Server,
    session: Session<'s>,
    limit: usize,
    level: LogLevel,
    stats: Stats,
    /// Whether the process has said what a refused `initialize` needs
    /// (once per process, shared by the reading and the helper thread).
    hinted: Arc<AtomicBool>,
    /// Whether the configuration has multi round-trip targets, the only
    /// ones that read the time: only then is the clock read, per line.
    clock: bool,
    /// The observer, on the reading thread's answerer only.
    observer: Option<&'s mut dyn Observer>,
}

impl<'s> Answerer<'s> {
    fn new(server: &'s Server, level: LogLevel, hinted: Arc<AtomicBool>) -> Self {
        Answerer {
            server,
            session: Session::new(server),
            limit: server.config().max_line_bytes(),
            level,
            stats: Stats::default(),
            hinted,
            clock: server.config().input().is_some(),
            observer: None,
        }
    }

    /// Says once per process, at `warn`, what a host whose client opens
    /// with the `initialize` handshake needs, when the server refused one
    /// (the legacy path off): the reply alone (`-32022`, row D6) tells the
    /// client, not the person who configured the host (issue 39, item 2).
    fn hint_legacy<L: Write>(&self, log: &mut L, n: u64, line: &[u8], reply: &[u8]) {
        if self.server.legacy().is_on()
            || self.level < LogLevel::Warn
            || self.hinted.load(Ordering::Relaxed)
            || memchr::memmem::find(line, b"initialize").is_none()
        {
            return;
        }
        let Ok(request) = serde_json::from_slice::<serde_json::Value>(line) else {
            return;
        };
        let refused = request.get("method").and_then(serde_json::Value::as_str)
            == Some("initialize")
            && memchr::memmem::find(reply, b"\"error\":").is_some();
        if !refused || self.hinted.swap(true, Ordering::Relaxed) {
            return;
        }
        let asked = request
            .pointer("/params/protocolVersion")
            .and_then(serde_json::Value::as_str)
            .map_or_else(String::new, |v| format!(" {v:?}"));
        self.note(
            log,
            LogLevel::Warn,
            format_args!(
                "line {n}: refused an initialize{asked}: this server speaks 2026-07-28, which has \
                 no handshake; a host whose client opens with initialize needs it started with \
                 --legacy 2025-11-25,2025-06-18 (README, \"Legacy hosts\")"
            ),
        );
    }

    fn note<L: Write>(&self, log: &mut L, level: LogLevel, msg: std::fmt::Arguments<'_>) {
        if level <= self.level {
            // A log stream that fails must not stop the server.
            let _ = writeln!(log, "mcp-reference: {msg}");
        }
    }

    /// A line within the limit, without its newline.
    // The one call into the core, kept out of line: inlined into the batch
    // loop, it changed how LLVM inlined the core's own decoding (serde's
    // `next_key_seed` stopped being inlined), and `tools/call` cost 8% more
    // instructions (7,656 per request against 8,271 under callgrind).
    #[inline(never)]
    fn line<L: Write>(&mut self, line: &[u8], out: &mut Vec<u8>, log: &mut L) {
        self.stats.lines += 1;
        let n = self.stats.lines;
        let before = out.len();
        let now = if self.clock { now() } else { 0 };
        let disposition = self
            .session
            .handle_at(line, out, &mut crate::tools::Direct, now);
        if let Some(observer) = self.observer.as_deref_mut() {
            observer.line(line, out.get(before..).unwrap_or_default());
        }
        match disposition {
            Disposition::Replied => {
                self.stats.replies += 1;
                self.hint_legacy(log, n, line, out.get(before..).unwrap_or_default());
                if self.level >= LogLevel::Debug {
                    let size = out.len() - before;
                    self.note(log, LogLevel::Debug, format_args!("line {n}: replied, {size} bytes"));
                }
            }
            Disposition::ClientResponse => self.note(
                log,
                LogLevel::Warn,
                format_args!("line {n}: ignored a JSON-RPC response; clients must not send responses on stdio"),
            ),
            Disposition::Notification => {
                self.note(log, LogLevel::Info, format_args!("line {n}: notification, no reply"))
            }
            Disposition::Blank => {}
        }
    }

    fn oversized<L: Write>(&mut self, out: &mut Vec<u8>, log: &mut L) {
        self.stats.lines += 1;
        self.stats.oversized += 1;
        self.stats.replies += 1;
        let (n, limit) = (self.stats.lines, self.limit);
        self.note(
            log,
            LogLevel::Warn,
            format_args!("line {n}: longer than {limit} bytes; skipped it and replied -32600"),
        );
        self.server.write_oversized(out);
    }

    /// Answers the complete lines of `text` (each ending in `\n`), calling
    /// `full` whenever the replies in `out` reach [`CHUNK`] bytes.
    fn lines<L: Write, S>(
        &mut self,
        text: &[u8],
        out: &mut Vec<u8>,
        log: &mut L,
        mut full: impl FnMut(&mut Vec<u8>) -> Result<(), S>,
    ) -> Result<(), S> {
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', text) {
            let line = text.get(start..end).unwrap_or_default();
            start = end + 1;
            if line.len() <= self.limit {
                self.line(line, out, log);
            } else if is_blank(line) {
                self.line(b"", out, log);
            } else {
                self.oversized(out, log);
            }
            if out.len() >= CHUNK {
                full(out)?;
            }
        }
        Ok(())
    }
}

/// Work for the helper thread: the second part of a batch.
struct Job {
    /// Complete lines, each ending in `\n`, copied out of the read buffer.
    text: Vec<u8>,
    /// An empty buffer for the replies.
    replies: Vec<u8>,
    /// How many lines come before these (for the log's line numbers).
    lines_before: u64,
}

/// What the helper thread sends back for a [`Job`], in order.
enum Answered {
    /// Replies, in order; more may follow.
    Replies(Vec<u8>),
    /// The job is done: the notes for the log, and the counts.
    Done {
        text: Vec<u8>,
        log: Vec<u8>,
        stats: Stats,
    },
}

/// The helper thread: answers each job's lines with a session of its own,
/// handing back replies as they fill a buffer. Returns when the driver
/// stops sending jobs or stops taking replies.
fn help(
    server: &Server,
    (level, hinted): (LogLevel, Arc<AtomicBool>),
    jobs: Receiver<Job>,
    answered: SyncSender<Answered>,
) {
    let mut answerer = Answerer::new(server, level, hinted);
    for job in jobs {
        let (mut replies, mut log) = (job.replies, Vec::new());
        answerer.stats = Stats {
            lines: job.lines_before,
            ..Stats::default()
        };
        let sent = answerer.lines(&job.text, &mut replies, &mut log, |out| {
            let next = Vec::with_capacity(CHUNK * 2);
            answered
                .send(Answered::Replies(std::mem::replace(out, next)))
                .map_err(drop)
        });
        let done = Answered::Done {
            text: job.text,
            log,
            stats: answerer.stats,
        };
        if sent.is_err()
            || answered.send(Answered::Replies(replies)).is_err()
            || answered.send(done).is_err()
        {
            return;
        }
    }
}

/// The reading thread's side of the helper thread.
struct Helper {
    jobs: SyncSender<Job>,
    answered: Receiver<Answered>,
    /// The last job's text buffer, to be filled again.
    text: Vec<u8>,
}

struct Driver<'s, L: Write> {
    answerer: Answerer<'s>,
    /// Replies not yet handed to the writer.
    buf: Vec<u8>,
    /// Finished buffers, to the writer, in order (`None` once there are no
    /// more).
    to_writer: Option<SyncSender<Vec<u8>>>,
    /// Written buffers, back from the writer, to be filled again.
    written: Receiver<Vec<u8>>,
    /// The helper thread, when lines may be answered on two threads.
    helper: Option<Helper>,
    log: L,
}

impl<L: Write> Driver<'_, L> {
    fn note(&mut self, level: LogLevel, msg: std::fmt::Arguments<'_>) {
        self.answerer.note(&mut self.log, level, msg);
    }

    fn line(&mut self, line: &[u8]) {
        self.answerer.line(line, &mut self.buf, &mut self.log);
    }

    fn oversized(&mut self) {
        self.answerer.oversized(&mut self.buf, &mut self.log);
    }

    /// Answers every line of `text`, each ending in `\n`, writing the
    /// replies whenever they reach [`CHUNK`] bytes.
    ///
    /// With a helper thread, a batch of [`SPLIT`] bytes or more is cut in
    /// two at a newline: the helper answers the second part while this
    /// thread answers the first, and the first part's replies are handed
    /// to the writer before any of the second's.
    fn lines(&mut self, text: &[u8]) -> Result<(), Stopped> {
        // Without a helper (the legacy path) there is nothing to cut.
        let Some(helper) = self.helper.as_mut() else {
            return self.answer_here(text);
        };
        let (here, there) = split_in_two(text);
        if there.is_empty() {
            return self.answer_here(text);
        }
        let mut copy = std::mem::take(&mut helper.text);
        copy.clear();
        copy.extend_from_slice(there);
        let job = Job {
            text: copy,
            replies: self.written.try_recv().unwrap_or_default(),
            lines_before: self.answerer.stats.lines
                + memchr::memchr_iter(b'\n', here).count() as u64,
        };
        helper.jobs.send(job).map_err(|_| Stopped)?;
        self.answer_here(here)?;
        self.collect()
    }

    fn answer_here(&mut self, text: &[u8]) -> Result<(), Stopped> {
        let Driver {
            answerer,
            buf,
            to_writer,
            written,
            log,
            ..
        } = self;
        answerer.lines(text, buf, log, |out| hand_over(out, to_writer, written))
    }

    /// Takes the helper's replies for its job, in order, after this
    /// thread's own, and its notes and counts.
    fn collect(&mut self) -> Result<(), Stopped> {
        self.write()?;
        let helper = self.helper.as_mut().ok_or(Stopped)?;
        loop {
            match helper.answered.recv().map_err(|_| Stopped)? {
                Answered::Replies(replies) => send(&self.to_writer, replies)?,
                Answered::Done { text, log, stats } => {
                    helper.text = reusable(text);
                    // A log stream that fails must not stop the server.
                    let _ = self.log.write_all(&log);
                    let mine = &mut self.answerer.stats;
                    mine.second_thread += stats.lines - mine.lines;
                    mine.lines = stats.lines;
                    mine.replies += stats.replies;
                    mine.oversized += stats.oversized;
                    return Ok(());
                }
            }
        }
    }

    /// Hands the replies so far to the writer, which writes and flushes
    /// them. Fails when the writer has stopped (the output failed; the
    /// writer's own result says how).
    fn write(&mut self) -> Result<(), Stopped> {
        hand_over(&mut self.buf, &self.to_writer, &self.written)
    }
}

/// Hands `buf` (when not empty) to the writer, leaving in its place a
/// buffer the writer gave back, or a new one.
fn hand_over(
    buf: &mut Vec<u8>,
    to_writer: &Option<SyncSender<Vec<u8>>>,
    written: &Receiver<Vec<u8>>,
) -> Result<(), Stopped> {
    if buf.is_empty() {
        return Ok(());
    }
    // The channels' bounds keep the number of buffers at about twice
    // [`BUFFERS`].
    let next = written
        .try_recv()
        .unwrap_or_else(|_| Vec::with_capacity(CHUNK * 2));
    send(to_writer, std::mem::replace(buf, next))
}

/// Hands `buf` to the writer.
fn send(to_writer: &Option<SyncSender<Vec<u8>>>, buf: Vec<u8>) -> Result<(), Stopped> {
    let to_writer = to_writer.as_ref().ok_or(Stopped)?;
    to_writer.send(buf).map_err(|_| Stopped)
}

/// `buf`, to be filled again, unless a long line made it large: memory
/// goes back down after a long line, as the read buffer's does.
fn reusable(buf: Vec<u8>) -> Vec<u8> {
    if buf.capacity() <= CHUNK * 2 {
        buf
    } else {
        Vec::new()
    }
}

/// The read buffer's next length, from its length `len` and the `end` of
/// what it keeps (the unfinished line, moved to the front): doubled, up to
/// the line limit plus one, when what it keeps fills it; back to one
/// [`CHUNK`] once what it keeps fits in half of one (memory goes back down
/// after a long line); else unchanged.
fn next_len(len: usize, end: usize, limit: usize) -> usize {
    if end == len {
        len.saturating_mul(2).min(limit.saturating_add(1))
    } else if end < CHUNK / 2 {
        len.min(CHUNK)
    } else {
        len
    }
}

/// Cuts `text` (complete lines) of [`SPLIT`] bytes or more in two at the
/// first newline from its middle on; the second part is empty for a
/// smaller batch, or when there is no such newline.
fn split_in_two(text: &[u8]) -> (&[u8], &[u8]) {
    if text.len() < SPLIT {
        return (text, &[]);
    }
    let middle = text.len() / 2;
    let cut = text
        .get(middle..)
        .and_then(|rest| memchr::memchr(b'\n', rest))
        .map_or(text.len(), |i| middle + i + 1);
    text.split_at_checked(cut).unwrap_or((text, &[]))
}

/// The writer thread stopped: writing the output failed.
struct Stopped;

/// The writer thread: writes and flushes each buffer it is given, in the
/// order given, and hands it back emptied. Returns at the end of the
/// buffers or at the first failure to write.
fn write_all<W: Write>(
    mut out: W,
    full: Receiver<Vec<u8>>,
    written: SyncSender<Vec<u8>>,
) -> io::Result<()> {
    for mut buf in full {
        out.write_all(&buf)?;
        out.flush()?;
        buf.clear();
        // The driver may have finished and gone: nothing to hand back to.
        let _ = written.try_send(buf);
    }
    out.flush()
}

/// Serves `input` until end-of-file or until `output` is closed.
///
/// Returns an error only when reading the input fails.
///
/// `output` is written from a thread of its own (hence `Send`), which ends
/// before this function returns; so does the helper thread that answers
/// half of each large batch when the lines are independent.
pub fn serve<R: Read, W: Write + Send, L: Write>(
    server: &Server,
    input: R,
    output: W,
    log: L,
    level: LogLevel,
) -> io::Result<(End, Stats)> {
    serve_observed(server, (input, output, log), level, None)
}

/// [`serve`], with an [`Observer`] of every line and its replies (then on
/// one thread: the observer sees the lines in order).
pub fn serve_observed<'s, R: Read, W: Write + Send, L: Write>(
    server: &'s Server,
    (input, output, log): (R, W, L),
    level: LogLevel,
    observer: Option<&'s mut dyn Observer>,
) -> io::Result<(End, Stats)> {
    // Everything that ends the other threads (the channels' other ends)
    // lives in `driver`, made inside the scope: should the reading thread
    // panic, unwinding drops it, the writer and the helper return, and the
    // panic goes on to the caller instead of the scope waiting forever.
    let (read, wrote, mut driver) = thread::scope(|scope| {
        let (to_writer, full) = sync_channel(BUFFERS);
        let (done, written) = sync_channel(BUFFERS);
        let hinted = Arc::new(AtomicBool::new(false));
        let observed = observer.is_some();
        let mut answerer = Answerer::new(server, level, Arc::clone(&hinted));
        answerer.observer = observer;
        let mut driver = Driver {
            answerer,
            buf: Vec::with_capacity(CHUNK * 2),
            to_writer: Some(to_writer),
            written,
            helper: None,
            log,
        };
        let writer = scope.spawn(move || write_all(output, full, done));
        if driver.answerer.session.lines_are_independent() && !observed {
            let (jobs, job) = sync_channel(1);
            let (replies, answered) = sync_channel(BUFFERS);
            scope.spawn(move || help(server, (level, hinted), job, replies));
            driver.helper = Some(Helper {
                jobs,
                answered,
                text: Vec::new(),
            });
        }
        let read = run(&mut driver, input).and_then(|()| driver.write().map_err(Failure::Output));
        // No more jobs and no more buffers: the helper returns, and the
        // writer writes what it has and returns.
        driver.helper = None;
        driver.to_writer = None;
        let wrote = writer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (read, wrote, driver)
    });
    let stats = driver.answerer.stats;
    let end = match (read, wrote) {
        (Err(Failure::Input(e)), _) => return Err(e),
        (_, Ok(())) => End::EndOfInput,
        (_, Err(e)) if e.kind() == ErrorKind::BrokenPipe => End::OutputClosed,
        (_, Err(e)) => return Err(e),
    };
    driver.note(
        LogLevel::Info,
        format_args!(
            "{}: {} lines, {} replies, {} oversized",
            match end {
                End::EndOfInput => "end of input",
                End::OutputClosed => "output closed",
            },
            stats.lines,
            stats.replies,
            stats.oversized
        ),
    );
    Ok((end, stats))
}

enum Failure {
    Input(io::Error),
    Output(Stopped),
}

fn run<R: Read, L: Write>(driver: &mut Driver<'_, L>, mut input: R) -> Result<(), Failure> {
    let limit = driver.answerer.limit;
    // Input read and not yet answered is `buf[start..end]`. The buffer
    // grows past one chunk only to hold a line longer than that, up to the
    // limit, and shrinks back once that line is done.
    let mut buf = vec![0u8; CHUNK];
    let (mut start, mut end) = (0, 0);
    // Skipping the rest of an oversized line.
    let mut skipping = false;
    // The oversized line being skipped has been whitespace so far: a blank
    // line however long (decision DEC1, as the core decides), so its
    // -32600 waits for its first other byte.
    let mut blank_so_far = false;
    loop {
        if skipping {
            let rest = buf.get(start..end).unwrap_or_default();
            let newline = memchr::memchr(b'\n', rest);
            let piece = rest
                .get(..newline.unwrap_or(rest.len()))
                .unwrap_or_default();
            if blank_so_far && !is_blank(piece) {
                blank_so_far = false;
                driver.oversized();
            }
            start = newline.map_or(end, |i| start + i + 1);
            skipping = newline.is_none();
            if !skipping && blank_so_far {
                blank_so_far = false;
                driver.line(b"");
            }
        }
        if !skipping {
            // Every complete line, then the unfinished one.
            let rest = buf.get(start..end).unwrap_or_default();
            if let Some(last) = memchr::memrchr(b'\n', rest) {
                let text = rest.get(..=last).unwrap_or_default();
                driver.lines(text).map_err(Failure::Output)?;
                start += last + 1;
            }
            let partial = buf.get(start..end).unwrap_or_default();
            if partial.len() > limit {
                blank_so_far = is_blank(partial);
                skipping = true;
                start = end;
                if !blank_so_far {
                    driver.oversized();
                }
            }
        }
        // About to wait for input: the host may be waiting for us.
        driver.write().map_err(Failure::Output)?;
        if let Some(observer) = driver.answerer.observer.as_deref_mut() {
            observer.waiting();
        }
        // Keep the unfinished line (at most the limit), and room to read.
        buf.copy_within(start..end, 0);
        (start, end) = (0, end - start);
        buf.resize(next_len(buf.len(), end, limit), 0);
        buf.shrink_to_fit();
        let n = loop {
            match input.read(buf.get_mut(end..).unwrap_or_default()) {
                Ok(n) => break n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(Failure::Input(e)),
            }
        };
        if n == 0 {
            if end > 0 {
                driver.line(buf.get(..end).unwrap_or_default());
            }
            if skipping && blank_so_far {
                // Counted as the blank line it is; no reply.
                driver.line(b"");
            }
            return Ok(());
        }
        end += n;
    }
}

/// The driver's clock: seconds since 1970 (0 if the system clock is set
/// before it), read only for configurations whose requests need it.
fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests;
