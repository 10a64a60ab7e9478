//! The `judge` fuzz target's check: hostile client input to the client
//! judge (`mcp_reference::judge`), over stdio lines or HTTP requests, to
//! the textbook server or the conformance suite's input fixtures
//! (`data/conformance.json`, embedded). The judge never panics, and:
//!
//! - it never passes a session it could not read: when the core answered
//!   any message with a parse error or an invalid request (`-32700`,
//!   `-32600`: the message was no JSON-RPC message), the verdict is FAIL;
//! - its report is consistent: a rule with failures is `fail` and has
//!   evidence, at most `EVIDENCE` of them, each cut to `SHOWN` bytes; a
//!   `pass` was exercised; a `not-run` was not; the message count is the
//!   number of messages fed; the JSON it writes parses;
//! - it is deterministic: the same input judged twice gives the same report.
//!
//! The input: the first byte picks the binding (bit 0: HTTP) and the
//! server (bit 1: the fixtures); the rest, split at newlines, are the
//! messages. Over HTTP, a message whose first byte is `!` is sent without
//! the mirrored headers (its rest is the body), one whose first byte is
//! `?` as a GET; every other one as a POST with the headers a correct
//! client would send for its body (method, name and version read from the
//! body where it has them).

use std::sync::OnceLock;

use mcp_reference::http::{Binding, Bound, Request};
use mcp_reference::judge::{EVIDENCE, Ending, Judge, Report, SHOWN, Status, Transport, Verdict};
use mcp_reference::{Config, Server};
use serde_json::Value;

/// The fixtures, embedded so the target reads no file.
const FIXTURES: &str = include_str!("../../../data/conformance.json");

fn bindings() -> &'static [Binding; 2] {
    static BINDINGS: OnceLock<[Binding; 2]> = OnceLock::new();
    BINDINGS.get_or_init(|| {
        let fixtures = Config::from_json(FIXTURES.as_bytes()).expect("the fixtures load");
        let bound = Bound {
            port: 8080,
            loopback: true,
        };
        [
            Binding::new(Server::new(Config::default()), bound),
            Binding::new(Server::new(fixtures), bound),
        ]
    })
}

/// The check.
pub fn judge(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let first = run(mode, rest);
    let again = run(mode, rest);
    assert_eq!(first.0, again.0, "the same input judged twice differs");
    let (report, unreadable, fed) = first;
    assert_eq!(report.messages, fed, "every message is counted");
    if unreadable {
        assert_eq!(
            report.verdict,
            Verdict::Fail,
            "a session with a message the core could not read passed"
        );
    }
    for rule in &report.rules {
        match rule.status {
            Status::Fail => {
                assert!(
                    rule.failures > 0 && !rule.evidence.is_empty(),
                    "{}",
                    rule.id
                );
            }
            Status::Pass => assert!(rule.exercised > 0 && rule.failures == 0, "{}", rule.id),
            Status::NotRun => assert_eq!(rule.exercised, 0, "{}", rule.id),
        }
        assert!(rule.evidence.len() <= EVIDENCE, "{}", rule.id);
        for e in &rule.evidence {
            let shown = e.message.as_deref().map_or(0, str::len);
            // Cut at SHOWN bytes, then lossy UTF-8 (3 bytes per
            // replacement at most) and the "..." mark.
            assert!(
                shown <= SHOWN * 3 + 3,
                "{}: evidence of {shown} bytes",
                rule.id
            );
        }
    }
    let json: Value = serde_json::from_str(&report.to_json()).expect("the report is JSON");
    assert!(json["rules"].is_array());
}

/// Judges the messages of `rest`: the report, whether the core found a
/// message unreadable, and how many messages were fed.
fn run(mode: u8, rest: &[u8]) -> (Report, bool, u64) {
    let binding = &bindings()[usize::from(mode & 2 != 0)];
    let server = binding.server();
    let http = mode & 1 != 0;
    let mut judge = Judge::new(
        if http {
            Transport::Http
        } else {
            Transport::Stdio
        },
        Vec::new(),
    );
    let mut unreadable = false;
    let mut fed = 0;
    for message in rest.split(|&b| b == b'\n') {
        fed += 1;
        let reply = if http {
            post(&mut judge, binding, message)
        } else {
            let ticket = judge.client(server, message);
            let mut out = Vec::new();
            let _ = server.respond_into(message, &mut out);
            judge.server(ticket, &out);
            out
        };
        unreadable |= refused_as_unreadable(&reply);
    }
    judge.end(if http {
        Ending::Signal
    } else {
        Ending::StdinClosed
    });
    (judge.report(), unreadable, fed)
}

/// Whether the reply is the core's `-32700` or `-32600`.
fn refused_as_unreadable(reply: &[u8]) -> bool {
    let code = serde_json::from_slice::<Value>(reply)
        .ok()
        .and_then(|v| v.pointer("/error/code").and_then(Value::as_i64));
    matches!(code, Some(-32700 | -32600))
}

fn post(judge: &mut Judge, binding: &Binding, message: &[u8]) -> Vec<u8> {
    let (method, bare, body) = match message.split_first() {
        Some((b'!', body)) => ("POST", true, body),
        Some((b'?', body)) => ("GET", true, body),
        _ => ("POST", false, message),
    };
    let parsed: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_owned();
    let rpc_method = text(parsed.get("method"));
    let version = text(parsed.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion"));
    let name = text(
        parsed
            .pointer("/params/name")
            .or_else(|| parsed.pointer("/params/uri")),
    );
    let mut headers: Vec<(&str, &[u8])> = vec![
        ("host", b"127.0.0.1:8080"),
        ("content-type", b"application/json"),
        ("accept", b"application/json, text/event-stream"),
    ];
    if !bare {
        headers.push(("mcp-method", rpc_method.as_bytes()));
        headers.push(("mcp-protocol-version", version.as_bytes()));
        if !name.is_empty() {
            headers.push(("mcp-name", name.as_bytes()));
        }
    }
    let request = Request {
        method,
        target: "/mcp",
        headers: &headers,
        body,
    };
    let ticket = judge.client_http(binding.server(), &request);
    let response = binding.respond(&request);
    judge.server_http(ticket, &response);
    response.body
}
