//! The real `mcp-reference` binary over pipes (issue 2, "Subprocess tests of
//! the binary"): every reply is compared byte for byte with what the pure
//! core ([`Server::respond`]) gives for the same line, and validated against
//! the official 2026-07-28 schema for the method of its request.
//!
//! What is proved here and nowhere else: the stdio driver and the command
//! line (src/stdio/, src/cli/) keep the framing (one reply per request, in
//! order, none for notifications and blank lines), answer everything read
//! before end-of-file and then exit 0, flush without waiting for more input,
//! skip a line over the limit with bounded memory, survive a closed stdout
//! without a panic, keep logs on stderr, and refuse bad flags and bad
//! configuration files with exit code 2 and one sentence.
//!
//! Spec: 2026-07-28 `basic/transports/stdio.mdx` (newline-delimited
//! messages; nothing but MCP messages on stdout; logs on stderr; exit when
//! stdin closes). No test asserts a timing threshold: waits have a generous
//! deadline that only catches a hang, and measured times are printed.

#[path = "support/process.rs"]
mod process;
mod support;

use std::io::{ErrorKind, Write};
use std::os::unix::process::ExitStatusExt;
use std::time::{Duration, Instant};

use mcp_reference::{Config, Server};
use process::Proc;
use serde_json::{Value, json};
use support::{call, line, meta, validate};

const EXAMPLE_CONFIG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/config.example.json");

/// A line of input and, for a request, the method a reply is validated for.
struct Input {
    /// The bytes between two newlines (a trailing `\r` included when the
    /// line ends in `\r\n`).
    bytes: Vec<u8>,
    method: Option<&'static str>,
}

/// The core's replies to `inputs`, in order, each with its method.
fn expected(server: &Server, inputs: &[Input]) -> Vec<(Option<&'static str>, Vec<u8>)> {
    inputs
        .iter()
        .filter_map(|i| server.respond(&i.bytes).map(|r| (i.method, r)))
        .collect()
}

/// Input lines joined with `\n`; `last_newline` says whether the last one
/// has its own.
fn join(inputs: &[Input], last_newline: bool) -> Vec<u8> {
    let mut all = Vec::new();
    for (n, input) in inputs.iter().enumerate() {
        all.extend_from_slice(&input.bytes);
        if last_newline || n + 1 < inputs.len() {
            all.push(b'\n');
        }
    }
    all
}

/// Asserts that `got` is exactly `want` (bytes, order, count), that every
/// line is one JSON-RPC message ending in one newline, and that each
/// validates against the schema for its request's method.
fn assert_replies(got: &[Vec<u8>], want: &[(Option<&'static str>, Vec<u8>)]) {
    for (n, (line, (method, expected))) in got.iter().zip(want).enumerate() {
        assert_eq!(
            line,
            expected,
            "reply {n} differs from the core's\n got: {}\nwant: {}",
            String::from_utf8_lossy(line),
            String::from_utf8_lossy(expected)
        );
        assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1);
        assert_eq!(line.last(), Some(&b'\n'));
        let value: Value =
            serde_json::from_slice(line).unwrap_or_else(|e| panic!("reply {n} is not JSON ({e})"));
        assert_eq!(value["jsonrpc"], "2.0");
        validate(*method, &value);
    }
    assert_eq!(
        got.len(),
        want.len(),
        "one reply per request that needs one"
    );
}

fn assert_no_panic(stderr: &str) {
    assert!(
        !stderr.contains("panicked"),
        "the server panicked:\n{stderr}"
    );
}

fn request(id: Value, method: &'static str) -> Input {
    Input {
        bytes: line(id, method, json!({"_meta": meta()})).into_bytes(),
        method: Some(method),
    }
}

fn get_order(id: Value, order_id: &str) -> Input {
    Input {
        bytes: call(id, meta(), "get_order", json!({"order_id": order_id})).into_bytes(),
        method: Some("tools/call"),
    }
}

fn raw(text: &str, method: Option<&'static str>) -> Input {
    Input {
        bytes: text.as_bytes().to_vec(),
        method,
    }
}

/// The id of the `n`th request: integers, negative and beyond 64 bits
/// (written as digits, since `serde_json::Value` cannot hold them), plain
/// and unicode strings. Ids are unique, so a reordering cannot go unseen.
fn id_text(n: usize) -> String {
    match n % 5 {
        0 => n.to_string(),
        1 => format!("-{n}"),
        2 => format!("123456789012345678901234567890{n}"),
        3 => format!("\"r-{n}\""),
        _ => format!("\"zamówienie-{n}-✓\""),
    }
}

/// One request of the mix, chosen by `kind`, with the id `id` (JSON text).
fn mixed_request(kind: u64, id: &str) -> Input {
    let meta = meta().to_string();
    let old = r#"{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let (text, method) = match kind % 9 {
        0 => (
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"server/discover","params":{{"_meta":{meta}}}}}"#
            ),
            Some("server/discover"),
        ),
        1 => (
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{"_meta":{meta}}}}}"#
            ),
            Some("tools/list"),
        ),
        2 => (
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"_meta":{meta},"name":"get_order","arguments":{{"order_id":"A-104"}}}}}}"#
            ),
            Some("tools/call"),
        ),
        3 => (
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"_meta":{meta},"name":"get_order","arguments":{{"order_id":"B-205"}}}}}}"#
            ),
            Some("tools/call"),
        ),
        4 => (
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"_meta":{meta},"name":"cancel_order","arguments":{{"order_id":"A-104"}}}}}}"#
            ),
            Some("tools/call"),
        ),
        5 => (
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"orders/cancel","params":{{"_meta":{meta}}}}}"#
            ),
            Some("orders/cancel"),
        ),
        6 => (
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{}}}}"#),
            Some("tools/list"),
        ),
        7 => (
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{"_meta":{old}}}}}"#
            ),
            Some("tools/list"),
        ),
        // A parse error: the method cannot be known, the id is null.
        _ => (
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":"#),
            None,
        ),
    };
    Input {
        bytes: text.into_bytes(),
        method,
    }
}

/// Lines that need no reply, chosen by `kind`.
fn quiet_line(kind: u64, n: usize) -> Input {
    let text = match kind % 6 {
        0 => format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{n},"reason":"test"}}}}"#
        ),
        1 => r#"{"jsonrpc":"2.0","method":"notifications/unknown"}"#.to_string(),
        2 => String::new(),
        3 => " \t ".to_string(),
        4 => "\r".to_string(),
        _ => format!(r#"{{"jsonrpc":"2.0","id":{n},"result":{{}}}}"#),
    };
    raw(&text, None)
}

/// A small deterministic generator (xorshift64*), so the mix is irregular
/// but the same on every run.
struct Mix(u64);
impl Mix {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// 10,000 requests of every kind, in an irregular order, some ending in
/// `\r\n`, with notifications, client responses and blank lines between
/// them.
fn mixed_input(requests: usize) -> Vec<Input> {
    let mut mix = Mix(0x9E37_79B9_7F4A_7C15);
    let mut inputs = Vec::new();
    for n in 0..requests {
        let r = mix.next();
        let mut input = mixed_request(r, &id_text(n));
        if (r >> 8).is_multiple_of(7) {
            input.bytes.push(b'\r');
        }
        inputs.push(input);
        if (r >> 16).is_multiple_of(4) {
            inputs.push(quiet_line(r >> 24, n));
        }
    }
    inputs
}

#[test]
fn ten_thousand_pipelined_requests_get_the_cores_replies_in_order() {
    let server = Server::new(Config::default());
    let inputs = mixed_input(10_000);
    let want = expected(&server, &inputs);
    assert_eq!(want.len(), 10_000, "every generated request needs a reply");
    assert!(inputs.len() > 11_000, "quiet lines are interleaved");
    assert!(
        inputs.iter().any(|i| i.bytes.ends_with(b"}\r")),
        "some lines end in \\r\\n"
    );
    for kind in 0..9 {
        let method = mixed_request(kind, "1").method;
        assert!(inputs.iter().any(|i| i.method == method));
    }

    let mut proc = Proc::spawn(&[], &[]);
    let started = Instant::now();
    let writer = proc.feed_and_close(join(&inputs, true));
    let got = proc.rest();
    println!(
        "{} input lines, {} replies, {:?} from first write to end of stdout",
        inputs.len(),
        got.len(),
        started.elapsed()
    );
    let closed = writer.join().expect("writer");
    proc.stdin_closed_at(closed.expect("the server read all its input"));
    let exit = proc.wait();
    println!("exited {:?} after end-of-file", exit.after_eof);
    assert_eq!(exit.status.code(), Some(0), "stderr: {}", exit.stderr);
    assert_no_panic(&exit.stderr);
    assert_replies(&got, &want);
}

/// Few lines, the last one a request without a newline, then end-of-file.
fn short_session(last_newline: bool) {
    let server = Server::new(Config::default());
    let inputs = vec![
        request(json!(1), "server/discover"),
        quiet_line(0, 1),
        request(json!("two"), "tools/list"),
        raw("", None),
        get_order(json!(3), "A-104"),
        get_order(json!(4), "B-205"),
        mixed_request(4, "5"),
    ];
    let want = expected(&server, &inputs);
    assert_eq!(want.len(), 5);

    let mut proc = Proc::spawn(&[], &[]);
    proc.send(&join(&inputs, last_newline));
    proc.close_stdin();
    let got = proc.rest();
    let exit = proc.wait();
    println!(
        "last newline {last_newline}: exited {:?} after end-of-file",
        exit.after_eof.expect("stdin was closed")
    );
    assert_eq!(exit.status.code(), Some(0), "stderr: {}", exit.stderr);
    assert_no_panic(&exit.stderr);
    assert_replies(&got, &want);
}

#[test]
fn end_of_file_right_after_the_last_request_loses_nothing() {
    short_session(false);
    short_session(true);
}

#[test]
fn a_lone_request_is_answered_without_more_input_or_end_of_file() {
    let server = Server::new(Config::default());
    let first = request(json!(1), "server/discover");
    let second = get_order(json!(2), "A-104");
    let mut proc = Proc::spawn(&[], &[]);

    proc.send(&join(std::slice::from_ref(&first), true));
    let started = Instant::now();
    let got_first = proc.next_line();
    println!("first reply after {:?}", started.elapsed());

    proc.send(&join(std::slice::from_ref(&second), true));
    let started = Instant::now();
    let got_second = proc.next_line();
    println!("second reply after {:?}", started.elapsed());

    proc.close_stdin();
    let rest = proc.rest();
    let exit = proc.wait();
    assert_eq!(exit.status.code(), Some(0), "stderr: {}", exit.stderr);
    assert_no_panic(&exit.stderr);
    assert!(rest.is_empty(), "nothing more after end-of-file");
    assert_replies(
        &[got_first, got_second],
        &expected(&server, &[first, second]),
    );
}

/// 64 MiB on one line, streamed in 1 MiB writes; the start of a real
/// request, so only the length makes it invalid.
const HUGE: usize = 64 * 1024 * 1024;
const PEAK_LIMIT_KIB: u64 = 32 * 1024;

fn stream_huge_line(
    proc: &mut Proc,
    after: Vec<u8>,
) -> std::thread::JoinHandle<std::process::ChildStdin> {
    let mut stdin = proc.take_stdin();
    std::thread::spawn(move || {
        let head = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_order","arguments":{"order_id":""#;
        let chunk = vec![b'x'; 1024 * 1024];
        stdin.write_all(head).expect("write");
        let mut sent = head.len();
        while sent < HUGE {
            let n = chunk.len().min(HUGE - sent);
            stdin
                .write_all(&chunk[..n])
                .expect("the server stays alive");
            sent += n;
        }
        stdin.write_all(&after).expect("the server stays alive");
        stdin
    })
}

/// The core's reply to a line just over the limit: the reply the driver
/// must give to any longer line, which it never holds in memory.
fn oversized_reply(server: &Server) -> (Option<&'static str>, Vec<u8>) {
    let over = vec![b'x'; server.config().max_line_bytes() + 1];
    let reply = server
        .respond(&over)
        .expect("an oversized line is answered");
    let value: Value = serde_json::from_slice(&reply).expect("JSON");
    assert_eq!(value["error"]["code"], -32600);
    assert_eq!(value["id"], Value::Null);
    (None, reply)
}

#[test]
fn a_64_mib_line_gets_one_error_and_memory_stays_bounded() {
    let server = Server::new(Config::default());
    assert!(HUGE > 8 * server.config().max_line_bytes());
    let after = get_order(json!(8), "A-104");
    let want = vec![
        oversized_reply(&server),
        expected(&server, &[after])[0].clone(),
    ];

    let mut proc = Proc::spawn(&[], &[]);
    let started = Instant::now();
    let after = get_order(json!(8), "A-104");
    let writer = stream_huge_line(&mut proc, join(&[raw("", None), after], true));
    let got = vec![proc.next_line(), proc.next_line()];
    let stdin = writer.join().expect("writer");
    let peak = proc.peak_rss_kib();
    println!(
        "64 MiB line then a request: replies after {:?}, peak RSS {peak} KiB",
        started.elapsed()
    );
    drop(stdin);
    proc.stdin_closed_at(Instant::now());
    let rest = proc.rest();
    let exit = proc.wait();
    assert_eq!(exit.status.code(), Some(0), "stderr: {}", exit.stderr);
    assert_no_panic(&exit.stderr);
    assert!(
        rest.is_empty(),
        "exactly one reply for the long line: {rest:?}"
    );
    assert_replies(&got, &want);
    assert!(
        peak < PEAK_LIMIT_KIB,
        "peak memory {peak} KiB for a 64 MiB line"
    );
}

#[test]
fn a_64_mib_line_without_newline_before_end_of_file() {
    let server = Server::new(Config::default());
    let want = vec![oversized_reply(&server)];

    let mut proc = Proc::spawn(&[], &[]);
    let writer = stream_huge_line(&mut proc, Vec::new());
    // The error comes as soon as the limit is passed, before the line ends.
    let got = vec![proc.next_line()];
    let stdin = writer.join().expect("writer");
    let peak = proc.peak_rss_kib();
    println!("64 MiB line, no newline: peak RSS {peak} KiB");
    drop(stdin);
    proc.stdin_closed_at(Instant::now());
    let rest = proc.rest();
    let exit = proc.wait();
    println!("exited {:?} after end-of-file", exit.after_eof);
    assert_eq!(exit.status.code(), Some(0), "stderr: {}", exit.stderr);
    assert_no_panic(&exit.stderr);
    assert!(
        rest.is_empty(),
        "exactly one reply for the long line: {rest:?}"
    );
    assert_replies(&got, &want);
    assert!(
        peak < PEAK_LIMIT_KIB,
        "peak memory {peak} KiB for a 64 MiB line"
    );
}

/// Sends `lines` requests, tolerating a server that has already gone.
fn send_until_gone(proc: &mut Proc, lines: usize) -> usize {
    let one = join(&[request(json!(1), "server/discover")], true);
    let mut stdin = proc.take_stdin();
    let mut sent = 0;
    for _ in 0..lines {
        match stdin.write_all(&one) {
            Ok(()) => sent += 1,
            Err(e) if e.kind() == ErrorKind::BrokenPipe => break,
            Err(e) => panic!("write: {e}"),
        }
    }
    drop(stdin);
    proc.stdin_closed_at(Instant::now());
    sent
}

#[test]
fn a_closed_stdout_ends_the_process_without_a_panic() {
    let mut proc = Proc::spawn(&["--log-level", "info"], &[]);
    proc.close_stdout();
    let sent = send_until_gone(&mut proc, 1000);
    let exit = proc.wait();
    println!(
        "stdout closed: sent {sent} requests, exit status {:?}, stderr:\n{}",
        exit.status, exit.stderr
    );
    assert_eq!(exit.status.signal(), None, "killed by a signal");
    assert_eq!(exit.status.code(), Some(0), "stderr: {}", exit.stderr);
    assert_no_panic(&exit.stderr);
    assert!(exit.stderr.contains("output closed"), "{}", exit.stderr);
}

#[test]
fn a_closed_stdout_ends_the_process_even_with_stdin_open() {
    let mut proc = Proc::spawn(&[], &[]);
    proc.close_stdout();
    let one = join(&[request(json!(1), "server/discover")], true);
    let mut stdin = proc.take_stdin();
    // Stdin stays open: a failed write alone must end the process. The
    // server learns of the closed pipe only by writing to it, and while
    // another test of this file is spawning a process, that child may hold
    // a copy of the pipe's read end for an instant (until its exec), letting
    // one write through. So a request is sent every 20 ms until the process
    // is gone; each one gives the server a write that can fail.
    let mut sent = 0;
    let end = Instant::now() + process::DEADLINE;
    while !proc.exited_within(Duration::from_millis(20)) {
        assert!(
            Instant::now() < end,
            "still running {:?} after stdout was closed ({sent} requests sent)",
            process::DEADLINE
        );
        match stdin.write_all(&one) {
            Ok(()) => sent += 1,
            // It is on its way out.
            Err(e) if e.kind() == ErrorKind::BrokenPipe => {}
            Err(e) => panic!("write: {e}"),
        }
    }
    let exit = proc.wait();
    drop(stdin);
    println!(
        "stdout closed, stdin open: exit status {:?} after {sent} requests",
        exit.status
    );
    assert!(sent >= 1);
    assert_eq!(exit.status.signal(), None, "killed by a signal");
    assert_eq!(exit.status.code(), Some(0), "stderr: {}", exit.stderr);
    assert_no_panic(&exit.stderr);
}

#[test]
fn logs_go_to_stderr_and_stdout_carries_only_replies() {
    let server = Server::new(Config::default());
    let inputs = vec![
        raw(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, None),
        quiet_line(0, 1),
        get_order(json!(2), "A-104"),
        raw("", None),
        request(json!(3), "tools/list"),
    ];
    let want = expected(&server, &inputs);
    assert_eq!(want.len(), 2);

    let mut proc = Proc::spawn(&["--log-level", "debug"], &[]);
    proc.send(&join(&inputs, true));
    proc.close_stdin();
    let got = proc.rest();
    let exit = proc.wait();
    assert_eq!(exit.status.code(), Some(0), "stderr: {}", exit.stderr);
    assert_no_panic(&exit.stderr);
    assert_replies(&got, &want);

    println!("stderr at debug:\n{}", exit.stderr);
    let logs: Vec<&str> = exit.stderr.lines().collect();
    for log in &logs {
        assert!(log.starts_with("mcp-reference: "), "log line: {log}");
        assert!(
            serde_json::from_str::<Value>(log).is_err(),
            "JSON on stderr: {log}"
        );
    }
    // One line for each of the client response, the notification and the
    // two replies, and one at the end.
    assert!(logs.len() >= 5, "{logs:?}");
    let has = |needle: &str| logs.iter().any(|l| l.contains(needle));
    assert!(has("line 1: ignored a JSON-RPC response"), "{logs:?}");
    assert!(has("line 2: notification"), "{logs:?}");
    assert!(has("line 3: replied"), "{logs:?}");
    assert!(has("line 5: replied"), "{logs:?}");
    assert!(has("end of input"), "{logs:?}");
}

/// A file under the system's temporary folder, unique to this test run.
fn temp_file(name: &str, contents: &str) -> String {
    let dir = std::env::temp_dir().join(format!("mcp-reference-binary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write temp file");
    path.to_str().expect("UTF-8 path").to_string()
}

/// Runs the binary expecting a refusal: exit 2, nothing on stdout, one line
/// on stderr that contains every one of `mentions`.
fn refused(args: &[&str], env: &[(&str, &str)], mentions: &[&str]) {
    let mut proc = Proc::spawn(args, env);
    proc.close_stdin();
    let stdout = proc.rest();
    let exit = proc.wait();
    let stderr = &exit.stderr;
    println!("{args:?} {env:?}: exit {:?}: {stderr}", exit.status.code());
    assert_eq!(exit.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stdout.is_empty(), "{args:?}: stdout {stdout:?}");
    assert_no_panic(stderr);
    assert_eq!(stderr.matches('\n').count(), 1, "one line: {stderr:?}");
    assert!(stderr.ends_with('\n'), "{stderr:?}");
    for mention in mentions {
        assert!(
            stderr.contains(mention),
            "{args:?}: {stderr:?} lacks {mention:?}"
        );
    }
}

const ORDER: &str = r#""status":"shipped","as_of":"2026-09-12T08:30:00Z","source_version":"v1""#;

#[test]
fn bad_configuration_and_flags_exit_2_with_one_sentence() {
    let missing = std::env::temp_dir()
        .join("mcp-reference-binary-no-such-dir")
        .join("config.json");
    let missing = missing.to_str().expect("UTF-8 path");
    refused(&["--config", missing], &[], &[missing, "no such file"]);

    let not_json = temp_file("not-json.json", "user = mira\n");
    refused(
        &["--config", &not_json],
        &[],
        &[&not_json, "not valid JSON"],
    );

    let duplicate = temp_file(
        "duplicate.json",
        &format!(
            r#"{{"orders":[{{"order_id":"C-1","owner":"mira",{ORDER}}},{{"order_id":"C-1","owner":"tomas",{ORDER}}}]}}"#
        ),
    );
    refused(
        &["--config", &duplicate],
        &[],
        &[&duplicate, "\"C-1\"", "more than once"],
    );

    let ownerless = temp_file(
        "ownerless.json",
        &format!(r#"{{"orders":[{{"order_id":"C-1",{ORDER}}}]}}"#),
    );
    refused(&["--config", &ownerless], &[], &[&ownerless, "owner"]);

    let empty_owner = temp_file(
        "empty-owner.json",
        &format!(r#"{{"orders":[{{"order_id":"C-1","owner":"",{ORDER}}}]}}"#),
    );
    refused(&["--config", &empty_owner], &[], &[&empty_owner, "owner"]);

    // The environment variable is read like the flag, errors included.
    refused(&[], &[("MCP_REFERENCE_CONFIG", &duplicate)], &[&duplicate]);

    refused(&["--bogus"], &[], &["--bogus"]);
    refused(&["--log-level", "loud"], &[], &["loud", "--log-level"]);
    // The subcommand takes the global flags too.
    refused(&["serve", "--log-level", "loud"], &[], &["loud"]);
}

/// Sends `inputs`, closes stdin, and checks the replies against the core
/// built from `config`.
fn session_with(
    args: &[&str],
    env: &[(&str, &str)],
    config: Config,
    inputs: &[Input],
) -> Vec<Value> {
    let server = Server::new(config);
    let want = expected(&server, inputs);
    let mut proc = Proc::spawn(args, env);
    proc.send(&join(inputs, true));
    proc.close_stdin();
    let got = proc.rest();
    let exit = proc.wait();
    assert_eq!(exit.status.code(), Some(0), "stderr: {}", exit.stderr);
    assert_no_panic(&exit.stderr);
    assert_replies(&got, &want);
    got.iter()
        .map(|l| serde_json::from_slice(l).expect("JSON"))
        .collect()
}

fn tool_names(reply: &Value) -> Vec<&str> {
    reply["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect()
}

#[test]
fn config_env_var_works_like_the_flag() {
    let config = Config::load(EXAMPLE_CONFIG.as_ref()).expect("the example loads");
    let inputs = [request(json!(1), "tools/list")];
    let by_env = session_with(
        &[],
        &[("MCP_REFERENCE_CONFIG", EXAMPLE_CONFIG)],
        config.clone(),
        &inputs,
    );
    assert_eq!(tool_names(&by_env[0]), ["get_order", "lookup_stock"]);
    let by_flag = session_with(&["--config", EXAMPLE_CONFIG], &[], config, &inputs);
    assert_eq!(by_env, by_flag);
    // And the default offers the textbook's single tool.
    let default = session_with(&[], &[], Config::default(), &inputs);
    assert_eq!(tool_names(&default[0]), ["get_order"]);
}

#[test]
fn user_env_var_decides_who_reads_and_the_flag_overrides_it() {
    let inputs = [get_order(json!(1), "A-104"), get_order(json!(2), "B-205")];
    let as_tomas = Config::default().with_user("tomas").expect("valid user");
    let replies = session_with(&[], &[("MCP_REFERENCE_USER", "tomas")], as_tomas, &inputs);
    assert_eq!(replies[0]["result"]["isError"], true, "A-104 is mira's");
    assert_eq!(replies[1]["result"]["isError"], false);
    assert_eq!(
        replies[1]["result"]["structuredContent"]["order_id"],
        "B-205"
    );

    let replies = session_with(
        &["--user", "mira"],
        &[("MCP_REFERENCE_USER", "tomas")],
        Config::default(),
        &inputs,
    );
    assert_eq!(replies[0]["result"]["isError"], false, "--user wins");
    assert_eq!(
        replies[0]["result"]["structuredContent"]["order_id"],
        "A-104"
    );
    assert_eq!(replies[1]["result"]["isError"], true);
}
