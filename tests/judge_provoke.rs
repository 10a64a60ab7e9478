//! The judge's provocations through the real binary (`src/cli/judge.rs`,
//! `src/cli/http.rs`; docs/judge.md, "Provocations"; issue 48):
//! `judge --http --slow-tool test_simple_text=1000` holds the answer to
//! that tool, so two requests of one client sent at once are judged with
//! the first still in flight: `jsonrpc.id-in-flight` (CLI-03,
//! `basic/index.mdx#requests`), `progress.token-unique` (CLI-21,
//! `basic/patterns/progress.mdx`) and `cancel.known-request` (CLI-19,
//! `basic/patterns/cancellation.mdx`) are then exercised. The held answer is
//! `serve`'s byte for byte; the report names the provocation; without the
//! flag it names none; the flag is refused over stdio, for a tool the
//! configuration lacks and for a delay outside 1 to 60000 ms.
//!
//! The delay only orders events (a request written at once after the held
//! one arrives while that one is held); no test measures a time.

use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

#[path = "support/http_server.rs"]
mod http_server;
use http_server::{BIN, DEADLINE, Reply, Server, read_reply};

/// The tool held, a content tool of the conformance configuration.
const SLOW: &str = "test_simple_text";
/// The flag that holds it, generously (it orders events; nothing is timed).
const FLAG: &str = "test_simple_text=1000";

fn conformance() -> String {
    format!("{}/data/conformance.json", env!("CARGO_MANIFEST_DIR"))
}

#[path = "support/judged.rs"]
mod judged;
use judged::ReportFile;

/// `judge --http 127.0.0.1:0` on the conformance configuration, its
/// report at `report`, with `extra` flags.
fn judge(report: &ReportFile, extra: &[&str]) -> Server {
    let config = conformance();
    let path = report.0.to_str().expect("a UTF-8 temporary path");
    let mut args = vec!["--config", config.as_str(), "--report", path];
    args.extend_from_slice(extra);
    Server::start_command("judge", "127.0.0.1:0", &args)
}

/// The `_meta` a 2026-07-28 client sends, with a progress token if given.
fn meta(token: Option<Value>) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "provoke-test", "version": "1"},
    });
    if let Some(token) = token {
        meta["progressToken"] = token;
    }
    meta
}

/// A `tools/call` of the held tool.
fn call(id: Value, token: Option<Value>) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "tools/call",
        "params": {"name": SLOW, "arguments": {}, "_meta": meta(token)},
    })
}

/// Writes `body` as a POST to the endpoint with the headers a 2026-07-28
/// client sends for it, on a connection of its own, and returns the
/// connection to read the answer from later.
fn send(server: &Server, body: &Value) -> BufReader<TcpStream> {
    let method = body["method"].as_str().expect("a method");
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: {method}\r\n",
        server.addr
    );
    if let Some(name) = body.pointer("/params/name").and_then(Value::as_str) {
        head.push_str(&format!("Mcp-Name: {name}\r\n"));
    }
    let bytes = body.to_string().into_bytes();
    head.push_str(&format!("Content-Length: {}\r\n\r\n", bytes.len()));
    let mut stream = server.connect();
    stream
        .write_all(&[head.as_bytes(), &bytes].concat())
        .expect("the request is written");
    stream.flush().expect("the request flushes");
    BufReader::new(stream)
}

/// Sends `first`, then at once `second` (each on its own connection), and
/// reads both answers.
fn concurrently(server: &Server, first: &Value, second: &Value) -> (Reply, Reply) {
    let mut one = send(server, first);
    let mut two = send(server, second);
    (read_reply(&mut one), read_reply(&mut two))
}

/// Stops the judge with SIGTERM and returns its final report.
fn finished(server: Server, report: &ReportFile) -> Value {
    let (code, stderr) = server.terminate();
    assert_eq!(code, Some(0), "judge --http after SIGTERM:\n{stderr}");
    let value = report.read();
    assert_eq!(value["ended"], "signal", "{value:#}");
    value
}

/// The record of rule `id` in `report`.
fn rule<'r>(report: &'r Value, id: &str) -> &'r Value {
    report["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no rule {id} in {report:#}"))
}

/// Every rule but `except` did not fail.
fn no_other_failure(report: &Value, except: &str) {
    for r in report["rules"].as_array().expect("rules") {
        if r["id"] != except {
            assert_ne!(r["status"], "fail", "{r:#}");
        }
    }
}

/// (a) The same id twice, the first held: `jsonrpc.id-in-flight` fails,
/// with the second message as evidence; nothing else fails.
#[test]
fn the_same_id_in_flight_fails() {
    let report = ReportFile::new("provoke", "same-id");
    let server = judge(&report, &["--slow-tool", FLAG]);
    let (a, b) = concurrently(&server, &call(json!(7), None), &call(json!(7), None));
    assert_eq!((a.status, b.status), (200, 200));
    let report = finished(server, &report);
    let r = rule(&report, "jsonrpc.id-in-flight");
    assert_eq!(r["status"], "fail", "{r:#}");
    let evidence = r["evidence"].as_array().expect("evidence");
    assert_eq!(evidence.len(), 1, "{r:#}");
    assert!(
        evidence[0]["detail"]
            .as_str()
            .is_some_and(|d| d.contains("id 7")),
        "{r:#}"
    );
    assert!(
        evidence[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains(SLOW)),
        "{r:#}"
    );
    assert_eq!(report["verdict"], "FAIL", "{report:#}");
    no_other_failure(&report, "jsonrpc.id-in-flight");
}

/// (b) Two ids, the first held: `jsonrpc.id-in-flight` passes, and the
/// held answer is byte for byte what `serve --http` answers.
#[test]
fn different_ids_in_flight_pass_and_the_answer_is_serves() {
    let report = ReportFile::new("provoke", "two-ids");
    let server = judge(&report, &["--slow-tool", FLAG]);
    let first = call(json!("a"), None);
    let (a, b) = concurrently(&server, &first, &call(json!("b"), None));
    assert_eq!((a.status, b.status), (200, 200));
    let report = finished(server, &report);
    assert_eq!(rule(&report, "jsonrpc.id-in-flight")["status"], "pass");
    assert_eq!(report["verdict"], "PASS", "{report:#}");
    no_other_failure(&report, "");

    let config = conformance();
    let serve = Server::start(&["--config", &config]);
    let plain = read_reply(&mut send(&serve, &first));
    assert_eq!(plain.status, a.status);
    assert_eq!(plain.header("content-type"), a.header("content-type"));
    assert_eq!(
        String::from_utf8_lossy(&plain.body),
        String::from_utf8_lossy(&a.body)
    );
}

/// (c) Two calls in flight with one progress token fail
/// `progress.token-unique`; with two tokens it passes.
#[test]
fn progress_tokens_in_flight() {
    for (tokens, want) in [(["t", "t"], "fail"), (["t1", "t2"], "pass")] {
        let report = ReportFile::new("provoke", &format!("tokens-{want}"));
        let server = judge(&report, &["--slow-tool", FLAG]);
        let first = call(json!(1), Some(json!(tokens[0])));
        let second = call(json!(2), Some(json!(tokens[1])));
        let (a, b) = concurrently(&server, &first, &second);
        assert_eq!((a.status, b.status), (200, 200));
        let report = finished(server, &report);
        let r = rule(&report, "progress.token-unique");
        assert_eq!(r["status"], want, "{tokens:?}: {r:#}");
        assert_eq!(rule(&report, "jsonrpc.id-in-flight")["status"], "pass");
        no_other_failure(&report, "progress.token-unique");
    }
}

/// (d) A `notifications/cancelled` naming the held call, answered while
/// that call is still unanswered: `cancel.known-request` passes. The
/// cancellation is written after a pause well inside the hold, so the held
/// call has reached the judge first; that it was still in flight is shown
/// by its answer arriving after the cancellation's.
#[test]
fn a_cancellation_of_the_call_in_flight_is_known() {
    let report = ReportFile::new("provoke", "cancel");
    let server = judge(&report, &["--slow-tool", FLAG]);
    let mut held = send(&server, &call(json!(41), None));
    std::thread::sleep(std::time::Duration::from_millis(200));
    let cancel = json!({
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": 41, "reason": "the user gave up"},
    });
    let mut cancelled = send(&server, &cancel);
    let accepted = read_reply(&mut cancelled);
    assert_eq!(
        accepted.status,
        202,
        "{}",
        String::from_utf8_lossy(&accepted.body)
    );
    // The held call has not been answered yet: nothing is readable on its
    // connection (a read with a short deadline times out).
    let stream = held.get_ref();
    stream
        .set_nonblocking(true)
        .expect("the connection can be polled");
    let mut byte = [0u8; 1];
    let pending =
        matches!(stream.peek(&mut byte), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock);
    stream
        .set_nonblocking(false)
        .expect("the connection blocks again");
    stream
        .set_read_timeout(Some(DEADLINE))
        .expect("the deadline is set");
    assert!(
        pending,
        "the held call was answered before its cancellation"
    );
    let answer = read_reply(&mut held);
    assert_eq!(answer.status, 200);
    let report = finished(server, &report);
    assert_eq!(rule(&report, "cancel.known-request")["status"], "pass");
    no_other_failure(&report, "");
}

/// (e) The report names the provocation; without the flag it names none,
/// and the same two POSTs then exercise `jsonrpc.id-in-flight` only if
/// their exchanges happen to interleave in the driver.
#[test]
fn the_report_names_the_provocations() {
    let report = ReportFile::new("provoke", "named");
    let server = judge(&report, &["--slow-tool", FLAG]);
    let value = report.read();
    assert_eq!(
        value["provocations"],
        json!(["slow-tool test_simple_text 1000ms"])
    );
    let report = finished(server, &report);
    assert_eq!(
        report["provocations"],
        json!(["slow-tool test_simple_text 1000ms"])
    );

    let report = ReportFile::new("provoke", "unprovoked");
    let server = judge(&report, &[]);
    let (a, b) = concurrently(&server, &call(json!(7), None), &call(json!(7), None));
    assert_eq!((a.status, b.status), (200, 200));
    let report = finished(server, &report);
    assert_eq!(report["provocations"], json!([]));
    // Unheld, each answer is computed at once: the rule is not run unless
    // the second request reached the judge in the microseconds before the
    // first was answered, and then (the ids being equal) it fails. It can
    // never pass.
    let status = &rule(&report, "jsonrpc.id-in-flight")["status"];
    assert!(status == "not-run" || status == "fail", "{status}");
    eprintln!("without --slow-tool, jsonrpc.id-in-flight was {status}");
}

/// (f) Refused at start with exit 2 and one sentence: an unknown tool, a
/// delay of 0 or over 60000 ms, a malformed value, and any `--slow-tool`
/// over stdio.
#[test]
fn refusals() {
    let config = conformance();
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "judge",
                "--http",
                "127.0.0.1:0",
                "--slow-tool",
                "no_such_tool=100",
            ],
            "no tool \"no_such_tool\"",
        ),
        (
            &[
                "judge",
                "--http",
                "127.0.0.1:0",
                "--slow-tool",
                "test_simple_text=0",
            ],
            "from 1 to 60000",
        ),
        (
            &[
                "judge",
                "--http",
                "127.0.0.1:0",
                "--slow-tool",
                "test_simple_text=60001",
            ],
            "from 1 to 60000",
        ),
        (
            &[
                "judge",
                "--http",
                "127.0.0.1:0",
                "--slow-tool",
                "test_simple_text",
            ],
            "NAME=MS",
        ),
        (
            &["judge", "--slow-tool", "test_simple_text=1000"],
            "--slow-tool needs --http",
        ),
    ];
    for (args, want) in cases {
        let out = Command::new(BIN)
            .args(args)
            .args(["--config", &config])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
        assert!(!stderr.contains("serving"), "{args:?}: {stderr}");
    }
    // `serve` has no such flag: the provocation is the judge's only.
    let out = Command::new(BIN)
        .args(["serve", "--http", "127.0.0.1:0", "--slow-tool", FLAG])
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2));
}
