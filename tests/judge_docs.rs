//! Keeps `docs/judge.md` equal to the judge it documents (issue 48): the
//! rule table is `mcp_reference::judge::RULES`, cell for cell and in its
//! order; the rule counts per binding are the table's; and the report
//! example has exactly the fields a real report has, at the top, in a rule
//! and in its evidence (the shape is an interface other tools read).

#[path = "support/doc_table.rs"]
mod doc_table;
use std::collections::BTreeSet;
use std::path::Path;

use mcp_reference::judge::{Ending, Judge, Level, RULES, Scope, Transport};
use mcp_reference::{Config, Server};
use serde_json::Value;

fn doc() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/judge.md"))
        .expect("docs/judge.md")
}

/// The rule table's rows ("## The rules"), split into cells.
fn table(doc: &str) -> Vec<Vec<String>> {
    doc_table::rows(doc, "The rules", None)
}

/// What the table must say of each rule, in its columns.
fn expected() -> Vec<Vec<String>> {
    RULES
        .iter()
        .map(|r| {
            vec![
                format!("`{}`", r.id),
                match r.level {
                    Level::Must => "MUST",
                    Level::Should => "SHOULD",
                }
                .to_owned(),
                r.statement.to_owned(),
                format!("`{}`", r.section),
                match r.scope {
                    Scope::Both => "both",
                    Scope::Stdio => "stdio",
                    Scope::Http => "HTTP",
                }
                .to_owned(),
                r.text.to_owned(),
                r.needs.to_owned(),
            ]
        })
        .collect()
}

/// Every way the document differs from the rules, one line each.
fn problems(doc: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let rows = table(doc);
    let want = expected();
    if rows.len() != want.len() {
        bad.push(format!(
            "the table has {} rules, RULES {}",
            rows.len(),
            want.len()
        ));
    }
    for (i, (row, want)) in rows.iter().zip(&want).enumerate() {
        if row != want {
            bad.push(format!(
                "rule {} of the table:\n  doc:   {row:?}\n  RULES: {want:?}",
                i + 1
            ));
        }
    }
    let count = |s: Scope| {
        RULES
            .iter()
            .filter(|r| r.scope == Scope::Both || r.scope == s)
            .count()
    };
    let line = format!(
        "({} over stdio, {} over HTTP)",
        count(Scope::Stdio),
        count(Scope::Http)
    );
    if !doc.replace('\n', " ").contains(&line) {
        bad.push(format!("the doc does not say {line}"));
    }
    bad
}

#[test]
fn the_rule_table_is_the_judge_s_rules() {
    let bad = problems(&doc());
    assert!(bad.is_empty(), "docs/judge.md:\n{}", bad.join("\n"));
}

#[test]
fn the_table_check_can_fail() {
    let doc = doc();
    // A level changed, a row dropped, a count wrong: each is found.
    let changed = doc.replacen("| `jsonrpc.id` | MUST |", "| `jsonrpc.id` | SHOULD |", 1);
    assert_ne!(changed, doc);
    assert!(!problems(&changed).is_empty());
    let first = doc
        .lines()
        .find(|l| l.starts_with("| `jsonrpc.message`"))
        .expect("a first rule");
    assert!(!problems(&doc.replacen(&format!("{first}\n"), "", 1)).is_empty());
    assert!(!problems(&doc.replacen("over stdio", "over stdin", 1)).is_empty());
}

/// The keys of a JSON object, as a set.
fn keys(value: &Value) -> BTreeSet<String> {
    value
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn the_report_example_has_a_real_report_s_fields() {
    let doc = doc();
    let example = doc
        .split("\n## The report")
        .nth(1)
        .and_then(|s| s.split("```json\n").nth(1))
        .and_then(|s| s.split("\n```").next())
        .expect("a JSON example under \"The report\"");
    let example: Value = serde_json::from_str(example).expect("the example is JSON");
    // A real report with a failing rule, so that evidence is present.
    let server = Server::new(Config::default());
    let mut judge = Judge::new(Transport::Stdio, Vec::new());
    let lines: [&[u8]; 2] = [
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#,
    ];
    for line in lines {
        let ticket = judge.client(&server, line);
        let mut out = Vec::new();
        let _ = server.respond_into(line, &mut out);
        judge.server(ticket, &out);
    }
    judge.end(Ending::StdinClosed);
    let real: Value = serde_json::from_str(&judge.report().to_json()).expect("json");
    assert_eq!(keys(&example), keys(&real), "the report's fields");
    let failed = real["rules"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["status"] == "fail"))
        .expect("a failing rule");
    assert_eq!(keys(&example["rules"][0]), keys(failed), "a rule's fields");
    assert_eq!(
        keys(&example["rules"][0]["evidence"][0]),
        keys(&failed["evidence"][0]),
        "an evidence's fields"
    );
    // The example's values are of a kind a real report can hold.
    for (key, value) in example.as_object().into_iter().flatten() {
        assert_eq!(
            std::mem::discriminant(value),
            std::mem::discriminant(&real[key]),
            "{key}"
        );
    }
}
