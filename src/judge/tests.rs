//! Unit tests of the judge: each rule held and broken by hand-written
//! sessions against the real core.

use super::*;
use crate::Config;

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}"#;

fn textbook() -> Server {
    Server::new(Config::default())
}

/// Feeds each line to the judge and the server, as the stdio driver does.
fn session(server: &Server, lines: &[String], ending: Option<Ending>) -> Report {
    let mut judge = Judge::new(Transport::Stdio, Vec::new());
    for line in lines {
        let ticket = judge.client(server, line.as_bytes());
        let mut out = Vec::new();
        let _ = server.respond_into(line.as_bytes(), &mut out);
        judge.server(ticket, &out);
    }
    if let Some(ending) = ending {
        judge.end(ending);
    }
    judge.report()
}

fn status(report: &Report, id: &str) -> Status {
    report
        .rules
        .iter()
        .find(|r| r.id == id)
        .map(|r| r.status)
        .unwrap_or_else(|| panic!("no rule {id}"))
}

fn request(id: u64, method: &str, params: &str) -> String {
    let sep = if params.is_empty() { "" } else { "," };
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{sep}{META}}}}}"#)
}

#[test]
fn a_correct_session_passes_and_leaves_the_unexercised_rules_not_run() {
    let server = textbook();
    let lines = [
        request(1, "server/discover", ""),
        request(2, "tools/list", ""),
        request(
            3,
            "tools/call",
            r#""name":"get_order","arguments":{"order_id":"A-104"}"#,
        ),
    ];
    let report = session(&server, &lines, Some(Ending::StdinClosed));
    assert_eq!(report.verdict, Verdict::Pass, "{}", report.to_json());
    for id in [
        "jsonrpc.message",
        "jsonrpc.id",
        "meta.protocol-version",
        "meta.client-capabilities",
        "meta.client-info",
        "mrtr.retry-only",
        "stdio.close-first",
    ] {
        assert_eq!(status(&report, id), Status::Pass, "{id}");
    }
    for id in [
        "jsonrpc.id-in-flight",
        "mrtr.new-id",
        "version.retry-supported",
        "cancel.known-request",
    ] {
        assert_eq!(status(&report, id), Status::NotRun, "{id}");
    }
    assert!(report.rules.iter().all(|r| !r.id.starts_with("http.")));
    assert_eq!(
        report.client,
        Some(serde_json::json!({"name":"t","version":"1"}))
    );
    assert_eq!(report.requests, 3);
}
