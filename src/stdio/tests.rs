//! Unit tests of the stdio driver: framing, batches, the two answering
//! threads, the writer, and how the driver ends.

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

/// Serves `input` in reads of at most `n` bytes, with no log: the replies
/// and the counts.
fn trickled(server: &Server, input: &[u8], n: usize) -> (Vec<u8>, Stats) {
    let mut out = Vec::new();
    let (_, stats) = serve(
        server,
        Trickle(input, n),
        &mut out,
        io::sink(),
        LogLevel::Off,
    )
    .unwrap();
    (out, stats)
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
        let (out, _) = trickled(&server, input.as_bytes(), n);
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
        let (out, stats) = trickled(&server, input.as_bytes(), n);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{n}: {text}");
        assert!(lines[0].contains("-32600") && lines[0].contains("\"id\":null"));
        assert!(lines[1].contains("supportedVersions"));
        assert!(lines[2].contains("-32600"));
        // Each -32600 is a reply, counted as one (the final log line's).
        assert_eq!((stats.lines, stats.replies, stats.oversized), (3, 3, 2));
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
        let (out, stats) = trickled(&server, input.as_bytes(), n);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{n}: {text}");
        assert!(lines[0].contains("-32600"), "{n}: {text}");
        assert!(lines[1].contains("supportedVersions"), "{n}: {text}");
        assert_eq!(
            (stats.lines, stats.replies, stats.oversized),
            (4, 2, 1),
            "{n}"
        );
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
    // Twice, so that a line after another (read in the same buffer) is
    // measured from its own first byte too; then one byte more.
    let (out, _, _) = run_bytes(&server, format!("{line}\n{line}\n{line} \n").as_bytes());
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<_> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].contains("supportedVersions"));
    assert!(lines[1].contains("supportedVersions"));
    assert!(lines[2].contains("-32600"));
    // Read in pieces, among them one that ends a line of exactly the limit
    // just before its newline: an unfinished line of the limit's length
    // may still end there, so it is kept, not refused.
    for n in [1, 7, 1024, 1025, 4096] {
        let input = format!("{line}\n{line}\n{line} \n");
        let (piecewise, _) = trickled(&server, input.as_bytes(), n);
        assert_eq!(String::from_utf8(piecewise).unwrap(), text, "{n}");
    }
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
fn whole_and_small_reads(server: &Server, input: &[u8]) -> ((Vec<u8>, Vec<u8>, Stats), Vec<u8>) {
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
    // Which thread answered a line is the one count that may differ.
    let threads_aside = |s: Stats| Stats {
        second_thread: 0,
        ..s
    };
    assert_eq!(threads_aside(stats), threads_aside(small_stats));
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
    let ((out, _, stats), small) = whole_and_small_reads(&server, input.as_bytes());
    assert_eq!(out, small);
    // One batch of more than `SPLIT` bytes, all of it on this thread.
    assert!(input.len() > SPLIT);
    assert_eq!(stats.second_thread, 0);
    let replies = String::from_utf8(out).unwrap();
    assert_eq!(replies.lines().count(), 1000);
    assert!(
        replies.lines().all(|l| l.contains("\"result\"")),
        "{replies}"
    );
}

/// Lines of every kind the driver treats apart, each request with an
/// id of its own: `(input, the core's replies one line at a time, the
/// line numbers of the notifications, of the client's responses)`.
fn every_kind(lines: usize) -> (String, Vec<u8>, Vec<usize>, Vec<usize>) {
    let server = Server::new(Config::default());
    let (mut input, mut expected) = (String::new(), Vec::new());
    let (mut notifications, mut responses) = (Vec::new(), Vec::new());
    for n in 1..=lines {
        let line = match n % 7 {
            0 => String::new(),
            1 => r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#
                .to_string(),
            2 => format!(r#"{{"jsonrpc":"2.0","id":{n},"result":{{}}}}"#),
            3 => format!("not json {n}"),
            4 => DISCOVER.replace(r#""id":1"#, &format!(r#""id":"s{n}""#)),
            _ => DISCOVER.replace(r#""id":1"#, &format!(r#""id":{n}"#)),
        };
        match n % 7 {
            1 => notifications.push(n),
            2 => responses.push(n),
            _ => {}
        }
        if let Some(reply) = server.respond(line.as_bytes()) {
            expected.extend_from_slice(&reply);
        }
        input.push_str(&line);
        input.push('\n');
    }
    (input, expected, notifications, responses)
}

#[test]
fn large_batches_are_answered_on_two_threads_in_order() {
    let server = Server::new(Config::default());
    let lines = 20_000;
    let (input, expected, notifications, responses) = every_kind(lines);
    assert!(input.len() > 20 * CHUNK);
    for n in [usize::MAX, 1000, SPLIT - 1, SPLIT + 1, 3 * CHUNK / 2] {
        let (mut out, mut log) = (Vec::new(), Vec::new());
        let (end, stats) = serve(
            &server,
            Trickle(input.as_bytes(), n),
            &mut out,
            &mut log,
            LogLevel::Info,
        )
        .unwrap();
        assert_eq!(end, End::EndOfInput);
        assert!(out == expected, "reads of {n} bytes: the replies differ");
        assert_eq!(stats.lines, lines as u64, "reads of {n} bytes");
        assert_eq!(
            stats.replies,
            expected.iter().filter(|b| **b == b'\n').count() as u64
        );
        // A batch is what one read adds to the unfinished line before
        // it: well under `SPLIT` bytes, it is never cut in two.
        if n <= 1000 {
            assert_eq!(stats.second_thread, 0, "reads of {n} bytes");
        } else if n > SPLIT {
            // The second part of a cut is at most half the bytes.
            let second = stats.second_thread;
            assert!(
                second > lines as u64 / 4 && second < lines as u64 * 3 / 5,
                "reads of {n} bytes: {second} lines on the helper"
            );
        }
        // The log numbers each line as it comes, whichever thread
        // answered it, in order.
        let log = String::from_utf8(log).unwrap();
        let numbered = |what: &str| -> Vec<usize> {
            log.lines()
                .filter(|l| l.contains(what))
                .map(|l| {
                    let rest = l.trim_start_matches("mcp-reference: line ");
                    rest[..rest.find(':').unwrap()].parse().unwrap()
                })
                .collect()
        };
        assert_eq!(numbered("notification, no reply"), notifications, "{n}");
        assert_eq!(numbered("ignored a JSON-RPC response"), responses, "{n}");
        assert!(log.ends_with(&format!(
            "end of input: {lines} lines, {} replies, 0 oversized\n",
            stats.replies
        )));
    }
}

/// An output that takes `room` bytes, then is closed.
struct ClosesAfter(usize);
impl Write for ClosesAfter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.0 < buf.len() {
            return Err(io::Error::from(ErrorKind::BrokenPipe));
        }
        self.0 -= buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn output_closed_while_both_threads_answer_ends_quietly() {
    let server = Server::new(Config::default());
    let (input, ..) = every_kind(20_000);
    for room in [0, 1, CHUNK, 5 * CHUNK] {
        let (end, stats) = serve(
            &server,
            input.as_bytes(),
            ClosesAfter(room),
            io::sink(),
            LogLevel::Off,
        )
        .unwrap();
        assert_eq!(end, End::OutputClosed, "room for {room} bytes");
        assert!(
            stats.lines < 20_000,
            "room for {room} bytes: read to the end"
        );
    }
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

#[test]
fn the_debug_log_gives_each_reply_its_size() {
    let server = Server::new(Config::default());
    let notification =
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;
    let input = format!("{DISCOVER}\n{notification}\nnot json\n");
    let sizes: Vec<usize> = [DISCOVER, "not json"]
        .iter()
        .map(|line| server.respond(line.as_bytes()).unwrap().len())
        .collect();
    let mut log = Vec::new();
    serve(
        &server,
        input.as_bytes(),
        io::sink(),
        &mut log,
        LogLevel::Debug,
    )
    .unwrap();
    let log = String::from_utf8(log).unwrap();
    let want = format!(
        "mcp-reference: line 1: replied, {} bytes\n\
         mcp-reference: line 2: notification, no reply\n\
         mcp-reference: line 3: replied, {} bytes\n\
         mcp-reference: end of input: 3 lines, 2 replies, 0 oversized\n",
        sizes[0], sizes[1]
    );
    assert_eq!(log, want);
}

/// An output that records the size of each write.
struct Sizes<'a>(&'a std::sync::Mutex<Vec<usize>>);
impl Write for Sizes<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().push(buf.len());
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn pipelined_replies_go_out_in_large_writes() {
    // One write per reply buffer, a buffer handed over once it holds
    // `CHUNK` bytes or when the driver is about to read: pipelined input
    // costs a few writes per read, not one per line, on either thread.
    let server = Server::new(Config::default());
    let lines = 20_000;
    let input = format!("{DISCOVER}\n").repeat(lines);
    for n in [CHUNK, 1000] {
        let sizes = std::sync::Mutex::new(Vec::new());
        let (_, stats) = serve(
            &server,
            Trickle(input.as_bytes(), n),
            Sizes(&sizes),
            io::sink(),
            LogLevel::Off,
        )
        .unwrap();
        assert_eq!(stats.replies, lines as u64);
        let sizes = sizes.into_inner().unwrap();
        let reads = input.len().div_ceil(n);
        let total: usize = sizes.iter().sum();
        assert!(
            sizes.len() <= 3 * reads + total / CHUNK,
            "reads of {n} bytes: {} writes of {total} bytes for {reads} reads",
            sizes.len()
        );
        let large = sizes.iter().filter(|s| **s >= CHUNK).count();
        if n == CHUNK {
            assert!(large * 2 >= total / CHUNK, "{sizes:?}");
        }
    }
}

#[test]
fn a_panic_while_answering_ends_the_driver_instead_of_hanging() {
    // No code of the driver or the core panics on any input; should one
    // (a bug), the process must end with the panic, not wait forever for
    // threads that wait for it. Here the log panics, on the reading thread,
    // while the writer and the helper are running.
    struct PanickingLog;
    impl Write for PanickingLog {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            panic!("the log failed")
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let server = Server::new(Config::default());
        let notification =
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;
        let input = format!("{DISCOVER}\n").repeat(5000) + notification + "\n";
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            serve(
                &server,
                input.as_bytes(),
                io::sink(),
                PanickingLog,
                LogLevel::Info,
            )
        }));
        let _ = tx.send(result.is_err());
    });
    assert_eq!(
        rx.recv_timeout(std::time::Duration::from_secs(30)),
        Ok(true),
        "the driver did not end with the panic"
    );
}

#[test]
fn a_buffer_made_large_by_a_long_line_is_not_kept() {
    for (capacity, kept) in [(CHUNK, CHUNK), (CHUNK * 2, CHUNK * 2), (CHUNK * 2 + 1, 0)] {
        let buf = Vec::with_capacity(capacity);
        assert_eq!(buf.capacity(), capacity);
        assert_eq!(reusable(buf).capacity(), kept, "capacity {capacity}");
    }
}

#[test]
fn the_read_buffer_grows_to_the_limit_and_shrinks_back_after_a_long_line() {
    let limit = 5 * CHUNK;
    // Full: doubled, up to the limit plus one.
    assert_eq!(next_len(CHUNK, CHUNK, limit), 2 * CHUNK);
    assert_eq!(next_len(2 * CHUNK, 2 * CHUNK, limit), 4 * CHUNK);
    assert_eq!(next_len(4 * CHUNK, 4 * CHUNK, limit), limit + 1);
    // A long line done, what is kept fits in half a chunk: one chunk again.
    assert_eq!(next_len(4 * CHUNK, 0, limit), CHUNK);
    assert_eq!(next_len(4 * CHUNK, CHUNK / 2 - 1, limit), CHUNK);
    // Not yet: more than that kept.
    assert_eq!(next_len(4 * CHUNK, CHUNK / 2, limit), 4 * CHUNK);
    assert_eq!(next_len(4 * CHUNK, CHUNK, limit), 4 * CHUNK);
    assert_eq!(next_len(4 * CHUNK, 3 * CHUNK, limit), 4 * CHUNK);
    // One chunk stays one chunk, whatever it keeps short of full.
    for end in [0, 1, CHUNK / 2, CHUNK - 1] {
        assert_eq!(next_len(CHUNK, end, limit), CHUNK, "{end}");
    }
}

#[test]
fn a_batch_is_cut_in_two_from_split_bytes_on() {
    // Lines of 64 bytes, newline included.
    let line = format!("{}\n", "x".repeat(63));
    let text = line.repeat(SPLIT / 64);
    assert_eq!(text.len(), SPLIT);
    let (here, there) = split_in_two(text.as_bytes());
    // After the first newline from the middle on: the middle starts a
    // line, so the cut comes after that line.
    assert_eq!((here.len(), there.len()), (SPLIT / 2 + 64, SPLIT / 2 - 64));
    let smaller = &text.as_bytes()[..SPLIT - 1];
    assert_eq!(split_in_two(smaller), (smaller, &b""[..]));
}

/// A stream that fails with an error other than a closed pipe (a read
/// fails once, then finds end-of-file: trying it again would end quietly).
struct Failing(bool);
impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        if std::mem::replace(&mut self.0, true) {
            return Ok(0);
        }
        Err(io::Error::other("the disk is gone"))
    }
}
impl Write for Failing {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::other("the disk is gone"))
    }
    fn flush(&mut self) -> io::Result<()> {
        Err(io::Error::other("the disk is gone"))
    }
}

#[test]
fn failed_input_or_output_is_an_error_not_a_quiet_end() {
    let server = Server::new(Config::default());
    let read = serve(
        &server,
        Failing(false),
        Vec::new(),
        io::sink(),
        LogLevel::Off,
    );
    assert_eq!(
        read.map_err(|e| e.to_string()).err().as_deref(),
        Some("the disk is gone")
    );
    let wrote = serve(
        &server,
        DISCOVER.as_bytes(),
        Failing(false),
        io::sink(),
        LogLevel::Off,
    );
    assert_eq!(
        wrote.map_err(|e| e.to_string()).err().as_deref(),
        Some("the disk is gone")
    );
}
