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
//!   quietly: nobody is left to answer.
//!
//! - **Writing overlaps answering.** One thread reads and answers, in
//!   turns; a second thread only writes. A finished buffer of replies goes
//!   to the writer through one channel, so replies leave in the order they
//!   were produced, and the reading thread goes on answering instead of
//!   waiting for the reader of the output to drain a full pipe. A few
//!   buffers circulate between the two threads (taken back when written),
//!   so memory stays bounded and a slow reader of the output slows the
//!   driver down rather than growing a queue. The core and the session run
//!   on the reading thread only: nothing about answering is concurrent.
//!   Answering is most of the cost (docs/performance.md).
//!
//! Spec: 2026-07-28 `basic/transports/stdio.mdx`: messages are delimited by
//! newlines; the server MUST NOT write anything to stdout that is not a
//! valid MCP message (logs go to stderr); servers SHOULD exit promptly when
//! stdin is closed.

use std::io::{self, ErrorKind, Read, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;

use crate::server::{Disposition, Server};
use crate::session::Session;

/// How much input is read at once (what a pipe holds), and the output size
/// that forces a write.
const CHUNK: usize = 64 * 1024;

/// How many finished reply buffers may wait for the writer (beyond that,
/// handing one over waits: a slow reader of the output slows the driver
/// down), and how many written ones may wait to be filled again.
const BUFFERS: usize = 4;

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
}

struct Driver<'s, L: Write> {
    server: &'s Server,
    session: Session<'s>,
    limit: usize,
    /// Replies not yet handed to the writer.
    buf: Vec<u8>,
    /// Finished buffers, to the writer, in order (`None` once there are no
    /// more).
    to_writer: Option<SyncSender<Vec<u8>>>,
    /// Written buffers, back from the writer, to be filled again.
    written: Receiver<Vec<u8>>,
    log: L,
    level: LogLevel,
    stats: Stats,
}

impl<L: Write> Driver<'_, L> {
    fn note(&mut self, level: LogLevel, msg: std::fmt::Arguments<'_>) {
        if level <= self.level {
            // A log stream that fails must not stop the server.
            let _ = writeln!(self.log, "mcp-reference: {msg}");
        }
    }

    /// A line within the limit, without its newline.
    // The one call into the core, kept out of line: inlined into the batch
    // loop, it changed how LLVM inlined the core's own decoding (serde's
    // `next_key_seed` stopped being inlined), and `tools/call` cost 8% more
    // instructions (7,656 per request against 8,271 under callgrind).
    #[inline(never)]
    fn line(&mut self, line: &[u8]) {
        self.stats.lines += 1;
        let n = self.stats.lines;
        let before = self.buf.len();
        match self.session.handle(line, &mut self.buf) {
            Disposition::Replied => {
                self.stats.replies += 1;
                if self.level >= LogLevel::Debug {
                    let size = self.buf.len() - before;
                    self.note(LogLevel::Debug, format_args!("line {n}: replied, {size} bytes"));
                }
            }
            Disposition::ClientResponse => self.note(
                LogLevel::Warn,
                format_args!("line {n}: ignored a JSON-RPC response; clients must not send responses on stdio"),
            ),
            Disposition::Notification => {
                self.note(LogLevel::Info, format_args!("line {n}: notification, no reply"))
            }
            Disposition::Blank => {}
        }
    }

    fn oversized(&mut self) {
        self.stats.lines += 1;
        self.stats.oversized += 1;
        self.stats.replies += 1;
        let (n, limit) = (self.stats.lines, self.limit);
        self.note(
            LogLevel::Warn,
            format_args!("line {n}: longer than {limit} bytes; skipped it and replied -32600"),
        );
        self.server.write_oversized(&mut self.buf);
    }

    /// Answers every line of `text`, each ending in `\n`, writing the
    /// replies whenever they reach [`CHUNK`] bytes.
    fn lines(&mut self, text: &[u8]) -> Result<(), Stopped> {
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', text) {
            let line = text.get(start..end).unwrap_or_default();
            start = end + 1;
            if line.len() <= self.limit {
                self.line(line);
            } else if is_blank(line) {
                self.line(b"");
            } else {
                self.oversized();
            }
            if self.buf.len() >= CHUNK {
                self.write()?;
            }
        }
        Ok(())
    }

    /// Hands the replies so far to the writer, which writes and flushes
    /// them. Fails when the writer has stopped (the output failed; the
    /// writer's own result says how).
    fn write(&mut self) -> Result<(), Stopped> {
        if self.buf.is_empty() {
            return Ok(());
        }
        // A buffer the writer gave back, else a new one. The channels'
        // bounds keep the number of buffers at about twice [`BUFFERS`].
        let next = self
            .written
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(CHUNK * 2));
        let full = std::mem::replace(&mut self.buf, next);
        let to_writer = self.to_writer.as_ref().ok_or(Stopped)?;
        to_writer.send(full).map_err(|_| Stopped)
    }
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
/// before this function returns.
pub fn serve<R: Read, W: Write + Send, L: Write>(
    server: &Server,
    input: R,
    output: W,
    log: L,
    level: LogLevel,
) -> io::Result<(End, Stats)> {
    let (to_writer, full) = sync_channel(BUFFERS);
    let (done, written) = sync_channel(BUFFERS);
    let mut driver = Driver {
        server,
        session: Session::new(server),
        limit: server.config().max_line_bytes(),
        buf: Vec::with_capacity(CHUNK * 2),
        to_writer: Some(to_writer),
        written,
        log,
        level,
        stats: Stats::default(),
    };
    let (read, wrote) = thread::scope(|scope| {
        let writer = scope.spawn(move || write_all(output, full, done));
        let read = run(&mut driver, input).and_then(|()| driver.write().map_err(Failure::Output));
        // No more buffers: the writer writes what it has and returns.
        driver.to_writer = None;
        let wrote = writer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (read, wrote)
    });
    let stats = driver.stats;
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
    let limit = driver.limit;
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
        // Keep the unfinished line (at most the limit), and room to read.
        buf.copy_within(start..end, 0);
        (start, end) = (0, end - start);
        if end == buf.len() {
            buf.resize((buf.len() * 2).min(limit.saturating_add(1)), 0);
        } else if buf.len() > CHUNK && end < CHUNK / 2 {
            buf.truncate(CHUNK);
            buf.shrink_to_fit();
        }
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

/// Whitespace only, as the core's blank-line rule reads it.
fn is_blank(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    const DISCOVER: &str = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

    fn run_bytes(server: &Server, input: &[u8]) -> (Vec<u8>, Vec<u8>, Stats) {
        let mut out = Vec::new();
        let mut log = Vec::new();
        let (end, stats) = serve(server, input, &mut out, &mut log, LogLevel::Warn).unwrap();
        assert_eq!(end, End::EndOfInput);
        (out, log, stats)
    }

    /// A reader that hands out at most `n` bytes per read, to split lines
    /// across reads at every possible point.
    struct Trickle<'a>(&'a [u8], usize);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn one_reply_per_request_in_order_and_last_line_without_newline() {
        let server = Server::new(Config::default());
        let input = format!("{DISCOVER}\n\n{DISCOVER}\r\n{DISCOVER}");
        let (out, log, stats) = run_bytes(&server, input.as_bytes());
        let expected = server.respond(DISCOVER.as_bytes()).unwrap();
        assert_eq!(out, [expected.clone(), expected.clone(), expected].concat());
        assert!(log.is_empty());
        assert_eq!(stats.replies, 3);
    }

    #[test]
    fn split_reads_change_nothing() {
        let server = Server::new(Config::default());
        let input = format!("{DISCOVER}\n{{\"jsonrpc\":\"2.0\",\"method\":\"x\"}}\n{DISCOVER}\n");
        let (whole, _, _) = run_bytes(&server, input.as_bytes());
        for n in [1, 2, 3, 7, 64] {
            let mut out = Vec::new();
            serve(
                &server,
                Trickle(input.as_bytes(), n),
                &mut out,
                io::sink(),
                LogLevel::Off,
            )
            .unwrap();
            assert_eq!(out, whole, "reads of {n} bytes");
        }
    }

    #[test]
    fn oversized_line_is_skipped_with_one_error() {
        let config = Config::default().with_max_line_bytes(1024).unwrap();
        let server = Server::new(config);
        let long = "x".repeat(5000);
        for n in [1, 100, 4096, CHUNK] {
            let input = format!("{long}\n{DISCOVER}\n{long}");
            let mut out = Vec::new();
            let (_, stats) = serve(
                &server,
                Trickle(input.as_bytes(), n),
                &mut out,
                io::sink(),
                LogLevel::Off,
            )
            .unwrap();
            let text = String::from_utf8(out).unwrap();
            let lines: Vec<_> = text.lines().collect();
            assert_eq!(lines.len(), 3, "{n}: {text}");
            assert!(lines[0].contains("-32600") && lines[0].contains("\"id\":null"));
            assert!(lines[1].contains("supportedVersions"));
            assert!(lines[2].contains("-32600"));
            assert_eq!(stats.oversized, 2);
        }
    }

    #[test]
    fn a_long_blank_line_is_still_blank() {
        // Found by tests/state_machine.rs: the core ignores a whitespace-only
        // line of any length (decision DEC1), so the driver must too.
        let config = Config::default().with_max_line_bytes(1024).unwrap();
        let server = Server::new(config);
        let blank = " ".repeat(5000);
        let mixed = format!("{blank}x");
        for n in [1, 100, 4096, CHUNK] {
            let input = format!("{blank}\n{mixed}\n{DISCOVER}\n{blank}");
            let mut out = Vec::new();
            let (_, stats) = serve(
                &server,
                Trickle(input.as_bytes(), n),
                &mut out,
                io::sink(),
                LogLevel::Off,
            )
            .unwrap();
            let text = String::from_utf8(out).unwrap();
            let lines: Vec<_> = text.lines().collect();
            assert_eq!(lines.len(), 2, "{n}: {text}");
            assert!(lines[0].contains("-32600"), "{n}: {text}");
            assert!(lines[1].contains("supportedVersions"), "{n}: {text}");
            assert_eq!((stats.lines, stats.oversized), (4, 1), "{n}");
            assert_eq!(server.respond(blank.as_bytes()), None);
        }
    }

    #[test]
    fn exactly_the_limit_is_accepted() {
        let config = Config::default().with_max_line_bytes(1024).unwrap();
        let server = Server::new(config);
        let pad = 1024 - DISCOVER.len();
        let line = format!("{}{}", " ".repeat(pad), DISCOVER);
        assert_eq!(line.len(), 1024);
        let (out, _, _) = run_bytes(&server, format!("{line}\n{line} \n").as_bytes());
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<_> = text.lines().collect();
        assert!(lines[0].contains("supportedVersions"));
        assert!(lines[1].contains("-32600"));
    }

    #[test]
    fn lines_longer_than_a_read_are_whole_whatever_the_limit() {
        // The buffer grows to hold the line, up to the limit, even when the
        // limit is the largest there is.
        for limit in [300_000, usize::MAX] {
            let config = Config::default().with_max_line_bytes(limit).unwrap();
            let server = Server::new(config);
            let long = format!("{}{DISCOVER}", " ".repeat(3 * CHUNK));
            let input = format!("{long}\n{DISCOVER}\n{long}");
            let (out, _, stats) = run_bytes(&server, input.as_bytes());
            let expected = server.respond(DISCOVER.as_bytes()).unwrap();
            assert_eq!(out, expected.repeat(3), "limit {limit}");
            assert_eq!((stats.lines, stats.oversized), (3, 0));
        }
    }

    /// An output that takes nothing until the driver has read `ahead`
    /// bytes of input, or two seconds have passed, and says which came
    /// first.
    struct Stalled<'a> {
        read: &'a std::sync::atomic::AtomicUsize,
        ahead: usize,
        ran_ahead: &'a std::sync::atomic::AtomicBool,
        waited: bool,
    }
    impl Write for Stalled<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            use std::sync::atomic::Ordering;
            if !self.waited {
                self.waited = true;
                let start = std::time::Instant::now();
                while start.elapsed() < std::time::Duration::from_secs(2) {
                    if self.read.load(Ordering::SeqCst) >= self.ahead {
                        self.ran_ahead.store(true, Ordering::SeqCst);
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Counts the bytes read.
    struct Counted<'a>(&'a [u8], &'a std::sync::atomic::AtomicUsize);
    impl Read for Counted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1.fetch_add(n, std::sync::atomic::Ordering::SeqCst);
            Ok(n)
        }
    }

    #[test]
    fn a_stalled_output_stops_the_reading() {
        // Memory stays bounded when the reader of the output stops: the
        // driver waits for a written buffer instead of making more.
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let server = Server::new(Config::default());
        let input = format!("{DISCOVER}\n").repeat(100_000);
        let (read, ran_ahead) = (AtomicUsize::new(0), AtomicBool::new(false));
        let ahead = 16 * 1024 * 1024;
        assert!(input.len() > ahead);
        let out = Stalled {
            read: &read,
            ahead,
            ran_ahead: &ran_ahead,
            waited: false,
        };
        let (end, stats) = serve(
            &server,
            Counted(input.as_bytes(), &read),
            out,
            io::sink(),
            LogLevel::Off,
        )
        .unwrap();
        assert_eq!((end, stats.replies), (End::EndOfInput, 100_000));
        assert!(
            !ran_ahead.load(Ordering::SeqCst),
            "read {ahead} bytes ahead of an output that took nothing"
        );
    }

    /// A reader interrupted by a signal before every read.
    struct Interrupted<'a>(&'a [u8], bool);
    impl Read for Interrupted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.1 = !self.1;
            if self.1 {
                return Err(io::Error::from(ErrorKind::Interrupted));
            }
            self.0.read(buf)
        }
    }

    #[test]
    fn an_interrupted_read_is_tried_again() {
        let server = Server::new(Config::default());
        let input = format!("{DISCOVER}\n{DISCOVER}\n");
        let mut out = Vec::new();
        let (end, stats) = serve(
            &server,
            Interrupted(input.as_bytes(), false),
            &mut out,
            io::sink(),
            LogLevel::Off,
        )
        .unwrap();
        assert_eq!((end, stats.replies), (End::EndOfInput, 2));
        assert_eq!(out, server.respond(DISCOVER.as_bytes()).unwrap().repeat(2));
    }

    #[test]
    fn every_log_level_has_its_name() {
        let all = [
            ("off", LogLevel::Off),
            ("error", LogLevel::Error),
            ("warn", LogLevel::Warn),
            ("info", LogLevel::Info),
            ("debug", LogLevel::Debug),
        ];
        for (name, level) in all {
            assert_eq!(LogLevel::parse(name), Some(level), "{name}");
        }
        assert_eq!(LogLevel::parse("Info"), None);
        assert_eq!(LogLevel::parse("trace"), None);
    }

    #[test]
    fn client_responses_are_noted_on_the_log_only() {
        let server = Server::new(Config::default());
        let (out, log, _) = run_bytes(&server, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
        assert!(out.is_empty());
        assert!(
            String::from_utf8(log)
                .unwrap()
                .contains("ignored a JSON-RPC response")
        );
    }

    /// The same input answered in whole reads (many lines per batch) and in
    /// reads of a few lines each: replies, log and counts must agree.
    fn whole_and_small_reads(
        server: &Server,
        input: &[u8],
    ) -> ((Vec<u8>, Vec<u8>, Stats), Vec<u8>) {
        let (mut out, mut log) = (Vec::new(), Vec::new());
        let (_, stats) = serve(server, input, &mut out, &mut log, LogLevel::Debug).unwrap();
        let (mut small_out, mut small_log) = (Vec::new(), Vec::new());
        let small = Trickle(input, 1000);
        let (_, small_stats) = serve(
            server,
            small,
            &mut small_out,
            &mut small_log,
            LogLevel::Debug,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(log.clone()).unwrap(),
            String::from_utf8(small_log).unwrap()
        );
        assert_eq!(stats, small_stats);
        ((out, log, stats), small_out)
    }

    #[test]
    fn a_batch_of_every_kind_of_line_is_answered_in_order() {
        let config = Config::default().with_max_line_bytes(1024).unwrap();
        let server = Server::new(config);
        let mut input = String::new();
        for i in 0..3000 {
            let line = match i % 8 {
                0 => r#"{"jsonrpc":"2.0","method":"notifications/x"}"#.to_string(),
                1 => format!(r#"{{"jsonrpc":"2.0","id":{i},"result":{{}}}}"#),
                2 => String::new(),
                3 => "x".repeat(2000),
                4 => " ".repeat(2000),
                5 => "{not json".to_string(),
                _ => DISCOVER.replacen("\"id\":1", &format!("\"id\":{i}"), 1),
            };
            input.push_str(&line);
            input.push('\n');
        }
        let ((out, log, stats), small) = whole_and_small_reads(&server, input.as_bytes());
        assert_eq!(out, small);
        let replies = String::from_utf8(out).unwrap();
        assert_eq!(replies.lines().count(), 3000 / 8 * 4);
        let ids: Vec<_> = replies
            .lines()
            .filter(|l| l.contains("supportedVersions"))
            .map(|l| l.split(',').nth(1).unwrap().to_string())
            .collect();
        let want: Vec<_> = (0..3000)
            .filter(|i| i % 8 >= 6)
            .map(|i| format!("\"id\":{i}"))
            .collect();
        assert_eq!(ids, want, "in input order");
        let log = String::from_utf8(log).unwrap();
        assert!(
            log.contains("line 2994: ignored a JSON-RPC response"),
            "{log}"
        );
        assert_eq!((stats.lines, stats.oversized), (3000, 375));
    }

    #[test]
    fn the_legacy_session_carries_across_lines_of_one_read() {
        // With the legacy path on, a line's reply depends on the lines before
        // it, also within one read.
        let config = Config::default()
            .with_legacy_versions(vec!["2025-11-25".into()])
            .unwrap();
        let server = Server::new(config);
        let mut input = String::from(concat!(
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            "\n"
        ));
        for i in 1..1000 {
            input.push_str(&format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/list"}}"#
            ));
            input.push('\n');
        }
        let ((out, _, _), small) = whole_and_small_reads(&server, input.as_bytes());
        assert_eq!(out, small);
        let replies = String::from_utf8(out).unwrap();
        assert_eq!(replies.lines().count(), 1000);
        assert!(
            replies.lines().all(|l| l.contains("\"result\"")),
            "{replies}"
        );
    }

    struct Closed;
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(ErrorKind::BrokenPipe))
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::from(ErrorKind::BrokenPipe))
        }
    }

    #[test]
    fn closed_output_ends_quietly() {
        let server = Server::new(Config::default());
        let (end, _) = serve(
            &server,
            DISCOVER.as_bytes(),
            Closed,
            io::sink(),
            LogLevel::Off,
        )
        .unwrap();
        assert_eq!(end, End::OutputClosed);
    }
}
