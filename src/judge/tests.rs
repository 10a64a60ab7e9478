//! Unit tests of the judge: each rule held and broken by hand-written
//! sessions against the real core.

use super::*;
use crate::Config;
use crate::http;

/// What the judge remembers across messages.
mod matching;

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

fn conformance() -> Server {
    let config = Config::load(std::path::Path::new("data/conformance.json")).expect("loads");
    Server::new(config)
}

fn meta_with(caps: &str) -> String {
    format!(
        r#""_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{caps},"io.modelcontextprotocol/clientInfo":{{"name":"t","version":"1"}}}}"#
    )
}

fn failed(report: &Report) -> Vec<&'static str> {
    report
        .rules
        .iter()
        .filter(|r| r.status == Status::Fail)
        .map(|r| r.id)
        .collect()
}

fn line(raw: &str) -> String {
    raw.to_owned()
}

#[test]
fn framing_and_envelope_faults_are_told_apart() {
    let server = textbook();
    let good = request(1, "tools/list", "");
    for (bad, rule) in [
        ("not json", "jsonrpc.message"),
        ("[1,2]", "jsonrpc.message"),
        (
            r#"{"jsonrpc":"1.0","id":2,"method":"tools/list"}"#,
            "jsonrpc.message",
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#,
            "jsonrpc.id",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#,
            "jsonrpc.id",
        ),
        (
            r#"{"jsonrpc":"2.0","id":7,"result":{}}"#,
            "jsonrpc.no-response",
        ),
    ] {
        let report = session(
            &server,
            &[good.clone(), line(bad)],
            Some(Ending::StdinClosed),
        );
        assert_eq!(failed(&report), [rule], "{bad}");
        assert_eq!(report.verdict, Verdict::Fail);
        let rule = report.rules.iter().find(|r| r.id == rule).expect("rule");
        assert_eq!(rule.evidence.len(), 1);
        assert_eq!(rule.evidence[0].position, 2);
        assert_eq!(rule.evidence[0].message.as_deref(), Some(bad));
    }
    // A blank line is no message at all.
    let report = session(&server, &[good, line("   ")], Some(Ending::StdinClosed));
    assert!(failed(&report).is_empty());
}

#[test]
fn a_notification_method_sent_with_an_id_fails_and_a_notification_passes() {
    let server = textbook();
    let sent = request(1, "tools/list", "");
    let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;
    let report = session(
        &server,
        &[sent.clone(), line(cancel)],
        Some(Ending::StdinClosed),
    );
    assert!(failed(&report).is_empty(), "{:?}", failed(&report));
    assert_eq!(status(&report, "jsonrpc.notification-id"), Status::Pass);
    assert_eq!(status(&report, "cancel.known-request"), Status::Pass);
    let with_id = request(2, "notifications/cancelled", r#""requestId":1"#);
    let report = session(&server, &[sent, with_id], Some(Ending::StdinClosed));
    assert_eq!(failed(&report), ["jsonrpc.notification-id"]);
}

#[test]
fn cancellation_must_name_a_request_the_client_sent() {
    let server = textbook();
    let sent = request(1, "tools/list", "");
    for cancel in [
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"1"}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#,
    ] {
        let report = session(
            &server,
            &[sent.clone(), line(cancel)],
            Some(Ending::StdinClosed),
        );
        assert_eq!(failed(&report), ["cancel.known-request"], "{cancel}");
    }
    // The same id spelt with an escape is the same id.
    let sent = format!(r#"{{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{{{META}}}}}"#);
    let cancel =
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"\u0061"}}"#;
    let report = session(&server, &[sent, line(cancel)], Some(Ending::StdinClosed));
    assert!(failed(&report).is_empty());
}

#[test]
fn each_meta_field_is_judged_on_its_own_and_a_should_does_not_fail_the_session() {
    let server = textbook();
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            vec![
                "meta.protocol-version",
                "meta.client-capabilities",
                "meta.client-info",
            ],
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}"#,
            vec!["meta.protocol-version"],
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728,"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}"#,
            vec!["meta.protocol-version"],
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":true},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}"#,
            vec!["meta.client-capabilities"],
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t"}}}}"#,
            vec!["meta.client-info"],
        ),
    ];
    for (bad, rules) in cases {
        let report = session(&server, &[line(bad)], Some(Ending::StdinClosed));
        assert_eq!(failed(&report), rules, "{bad}");
        let must = rules.iter().any(|r| *r != "meta.client-info");
        let expected = if must { Verdict::Fail } else { Verdict::Pass };
        assert_eq!(report.verdict, expected, "{bad}");
    }
    // An empty capabilities object is well formed.
    let report = session(
        &server,
        &[request(1, "tools/list", "")],
        Some(Ending::StdinClosed),
    );
    assert_eq!(status(&report, "meta.client-capabilities"), Status::Pass);
}

#[test]
fn after_an_unsupported_version_the_next_request_names_a_supported_one_or_the_client_stops() {
    let server = textbook();
    let old = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}"#;
    let retried = session(
        &server,
        &[line(old), request(2, "tools/list", "")],
        Some(Ending::StdinClosed),
    );
    assert_eq!(status(&retried, "version.retry-supported"), Status::Pass);
    let again = old.replace("\"id\":1", "\"id\":2");
    let report = session(&server, &[line(old), again], Some(Ending::StdinClosed));
    assert_eq!(failed(&report), ["version.retry-supported"]);
    assert_eq!(report.verdict, Verdict::Pass, "a SHOULD");
    let stopped = session(&server, &[line(old)], Some(Ending::StdinClosed));
    assert_eq!(status(&stopped, "version.retry-supported"), Status::Pass);
    let open = session(&server, &[line(old)], None);
    assert_eq!(status(&open, "version.retry-supported"), Status::NotRun);
}

#[test]
fn initialize_after_a_modern_answer_is_a_fallback() {
    let server = textbook();
    let init = r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let report = session(
        &server,
        &[request(1, "server/discover", ""), line(init)],
        Some(Ending::StdinClosed),
    );
    assert_eq!(failed(&report), ["version.no-legacy-fallback"]);
    assert_eq!(report.verdict, Verdict::Pass);
    // A -32022 is a modern answer too: initialize after it is a fallback.
    let old = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}"#;
    let report = session(&server, &[line(old), line(init)], Some(Ending::StdinClosed));
    assert_eq!(failed(&report), ["version.no-legacy-fallback"]);
    // Before any modern answer, initialize is a legacy client's first move.
    let report = session(&server, &[line(init)], Some(Ending::StdinClosed));
    assert!(failed(&report).is_empty());
    assert_eq!(
        status(&report, "version.no-legacy-fallback"),
        Status::NotRun
    );
}

/// The first round of `tool` (arguments `{}`), id 1, then `retry` as id `id`.
fn round_trip(server: &Server, tool: &str, retry: &str) -> Report {
    let first = request(
        1,
        "tools/call",
        &format!(r#""name":"{tool}","arguments":{{}}"#),
    );
    let first = first.replace(META, &meta_with(r#"{"elicitation":{}}"#));
    session(server, &[first, line(retry)], Some(Ending::StdinClosed))
}

/// The `requestState` the server issues for the first round of `tool`.
fn issued_state(server: &Server, tool: &str) -> String {
    let first = request(
        1,
        "tools/call",
        &format!(r#""name":"{tool}","arguments":{{}}"#),
    );
    let first = first.replace(META, &meta_with(r#"{"elicitation":{}}"#));
    let reply = server.respond(first.as_bytes()).expect("answered");
    let reply: Value = serde_json::from_slice(&reply).expect("json");
    reply["result"]["requestState"]
        .as_str()
        .expect("state")
        .to_owned()
}

fn retry(id: &str, tool: &str, caps: &str, extra: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{}}{extra},{}}}}}"#,
        meta_with(caps)
    )
}

#[test]
fn a_correct_retry_passes_every_multi_round_trip_rule_it_exercises() {
    let server = conformance();
    let tool = "test_input_required_result_elicitation";
    let answer = r#","inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}}"#;
    let report = round_trip(
        &server,
        tool,
        &retry("2", tool, r#"{"elicitation":{}}"#, answer),
    );
    assert!(failed(&report).is_empty(), "{}", report.to_json());
    for id in [
        "mrtr.inputs",
        "mrtr.state-none",
        "mrtr.new-id",
        "mrtr.retry-only",
        "mrtr.answer-valid",
        "mrtr.answer-content",
        "mrtr.answer-declared",
    ] {
        assert_eq!(status(&report, id), Status::Pass, "{id}");
    }
    assert_eq!(status(&report, "mrtr.state-echo"), Status::NotRun);
}

#[test]
fn each_retry_fault_fails_its_own_rule() {
    let server = conformance();
    let tool = "test_input_required_result_elicitation";
    let form = r#"{"elicitation":{}}"#;
    let ok = r#","inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}}"#;
    let cases = [
        (retry("1", tool, form, ok), vec!["mrtr.new-id"]),
        (
            retry("2", tool, form, r#","inputResponses":{}"#),
            vec!["mrtr.inputs"],
        ),
        (
            retry("2", tool, form, &format!(r#"{ok},"requestState":"x""#)),
            vec!["mrtr.state-none"],
        ),
        (
            retry(
                "2",
                tool,
                form,
                r#","inputResponses":{"user_name":{"action":"maybe"}}"#,
            ),
            vec!["mrtr.answer-valid"],
        ),
        (
            retry(
                "2",
                tool,
                form,
                r#","inputResponses":{"user_name":{"action":"accept","content":{"nom":"Ada"}}}"#,
            ),
            vec!["mrtr.answer-content"],
        ),
        (
            retry(
                "2",
                tool,
                form,
                r#","inputResponses":{"user_name":{"action":"accept","content":{"name":7}}}"#,
            ),
            vec!["mrtr.answer-content"],
        ),
        (retry("2", tool, "{}", ok), vec!["mrtr.answer-declared"]),
        (
            retry("2", tool, r#"{"elicitation":{"url":{}}}"#, ok),
            vec!["mrtr.answer-declared"],
        ),
    ];
    for (retry, rules) in cases {
        let report = round_trip(&server, tool, &retry);
        assert_eq!(failed(&report), rules, "{retry}");
        let must = rules != ["mrtr.answer-content"];
        assert_eq!(report.verdict == Verdict::Fail, must, "{retry}");
    }
    // A decline carries no content and is a valid answer.
    let decline = r#","inputResponses":{"user_name":{"action":"decline"}}"#;
    let report = round_trip(&server, tool, &retry("2", tool, form, decline));
    assert!(failed(&report).is_empty());
    assert_eq!(status(&report, "mrtr.answer-content"), Status::NotRun);
}

/// Two rounds of one tool that carry the same requestState but ask for
/// different inputs (a server whose state does not depend on what the
/// client declared), answered by hand: `replies[i]` is the server's reply
/// to `lines[i]` (`None` for a notification).
fn scripted(lines: &[String], replies: &[Option<String>]) -> Report {
    let server = textbook();
    let mut judge = Judge::new(Transport::Stdio, Vec::new());
    for (line, reply) in lines.iter().zip(replies) {
        let ticket = judge.client(&server, line.as_bytes());
        judge.server(ticket, reply.as_deref().unwrap_or_default().as_bytes());
    }
    judge.end(Ending::StdinClosed);
    judge.report()
}

fn asks(id: u64, keys: &[&str]) -> Option<String> {
    let requests: Vec<String> = keys
        .iter()
        .map(|k| {
            format!(
                r#""{k}":{{"method":"elicitation/create","params":{{"message":"m","requestedSchema":{{"type":"object","properties":{{}}}}}}}}"#
            )
        })
        .collect();
    Some(format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"input_required","inputRequests":{{{}}},"requestState":"S"}}}}"#,
        requests.join(",")
    ))
}

fn answering(id: u64, keys: &[&str]) -> String {
    let answers: Vec<String> = keys
        .iter()
        .map(|k| format!(r#""{k}":{{"action":"decline"}}"#))
        .collect();
    retry(
        &id.to_string(),
        "t",
        r#"{"elicitation":{}}"#,
        &format!(
            r#","inputResponses":{{{}}},"requestState":"S""#,
            answers.join(",")
        ),
    )
}

#[test]
fn rounds_that_share_a_request_state_are_told_apart_by_what_the_retry_answers() {
    let first = retry("1", "t", r#"{"elicitation":{}}"#, "");
    let second = retry("2", "t", r#"{"elicitation":{}}"#, "");
    let done = Some(r#"{"jsonrpc":"2.0","id":0,"result":{"content":[]}}"#.to_owned());
    // The earlier round retried first, then the later one: no fault.
    let report = scripted(
        &[
            first.clone(),
            second.clone(),
            answering(3, &["a", "b"]),
            answering(4, &["a"]),
        ],
        &[
            asks(1, &["a", "b"]),
            asks(2, &["a"]),
            done.clone(),
            done.clone(),
        ],
    );
    assert!(failed(&report).is_empty(), "{}", report.to_json());
    assert_eq!(status(&report, "mrtr.inputs"), Status::Pass);
    assert_eq!(status(&report, "mrtr.state-echo"), Status::Pass);
    // A retry that fits neither round still fails.
    let report = scripted(
        &[first.clone(), second.clone(), answering(3, &["b"])],
        &[asks(1, &["a", "b"]), asks(2, &["a"]), done.clone()],
    );
    assert_eq!(failed(&report), ["mrtr.inputs"], "{}", report.to_json());
    // Each round is retried once: a third retry retries nothing.
    let report = scripted(
        &[
            first,
            second,
            answering(3, &["a"]),
            answering(4, &["a"]),
            answering(5, &["a"]),
        ],
        &[
            asks(1, &["a"]),
            asks(2, &["a"]),
            done.clone(),
            done.clone(),
            done,
        ],
    );
    assert_eq!(failed(&report), ["mrtr.retry-only"], "{}", report.to_json());
}

#[test]
fn the_request_state_is_echoed_exactly() {
    let server = conformance();
    let tool = "test_input_required_result_request_state";
    let state = issued_state(&server, tool);
    let form = r#"{"elicitation":{}}"#;
    let answer = r#","inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}}"#;
    let echoed = retry(
        "2",
        tool,
        form,
        &format!(r#"{answer},"requestState":"{state}""#),
    );
    let report = round_trip(&server, tool, &echoed);
    assert!(failed(&report).is_empty(), "{}", report.to_json());
    assert_eq!(status(&report, "mrtr.state-echo"), Status::Pass);
    let edited = format!("{state}A");
    for bad in [
        retry(
            "2",
            tool,
            form,
            &format!(r#"{answer},"requestState":"{edited}""#),
        ),
        retry("2", tool, form, answer),
    ] {
        let report = round_trip(&server, tool, &bad);
        assert_eq!(failed(&report), ["mrtr.state-echo"], "{bad}");
    }
}

#[test]
fn round_trip_fields_on_any_other_request_fail() {
    let server = conformance();
    let answer = r#""inputResponses":{"user_name":{"action":"decline"}}"#;
    for bad in [
        request(1, "tools/list", answer),
        request(
            1,
            "tools/call",
            &format!(r#""name":"get_order","arguments":{{"order_id":"A-1"}},{answer}"#),
        ),
        request(
            1,
            "tools/call",
            r#""name":"get_order","arguments":{"order_id":"A-1"},"requestState":"s""#,
        ),
    ] {
        let report = session(
            &server,
            std::slice::from_ref(&bad),
            Some(Ending::StdinClosed),
        );
        assert_eq!(failed(&report), ["mrtr.retry-only"], "{bad}");
    }
}

#[test]
fn progress_tokens_are_strings_or_integers_and_unique_while_in_flight() {
    let server = textbook();
    let call = |id: u64, token: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{"_meta":{{"progressToken":{token},"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{{"name":"t","version":"1"}}}}}}}}"#
        )
    };
    for (token, ok) in [
        ("\"p\"", true),
        ("7", true),
        ("1.5", false),
        ("{}", false),
        ("null", false),
    ] {
        let report = session(&server, &[call(1, token)], Some(Ending::StdinClosed));
        let expected = if ok { Status::Pass } else { Status::Fail };
        assert_eq!(status(&report, "progress.token-type"), expected, "{token}");
    }
    // Two requests in flight at once (as over HTTP): the same id and the
    // same token are refused; different ones pass.
    let mut judge = Judge::new(Transport::Http, Vec::new());
    let a = judge.client(&server, call(1, "\"p\"").as_bytes());
    let b = judge.client(&server, call(1, "\"p\"").as_bytes());
    let c = judge.client(&server, call(2, "\"q\"").as_bytes());
    for t in [a, b, c] {
        judge.server(t, b"");
    }
    judge.end(Ending::Signal);
    let report = judge.report();
    let rule = |id: &str| {
        report
            .rules
            .iter()
            .find(|r| r.id == id)
            .expect("rule")
            .clone()
    };
    assert_eq!(rule("jsonrpc.id-in-flight").failures, 1);
    assert_eq!(rule("jsonrpc.id-in-flight").exercised, 2);
    assert_eq!(rule("progress.token-unique").failures, 1);
    assert_eq!(rule("progress.token-unique").evidence[0].position, 2);
    // Once answered, an id may be used again.
    let mut judge = Judge::new(Transport::Http, Vec::new());
    for _ in 0..2 {
        let t = judge.client(&server, call(1, "\"p\"").as_bytes());
        judge.server(t, b"");
    }
    assert!(failed(&judge.report()).is_empty());
}

#[test]
fn the_stdio_shutdown_is_judged_by_how_the_session_ended() {
    let server = textbook();
    let lines = [request(1, "tools/list", "")];
    let signal = session(&server, &lines, Some(Ending::Signal));
    assert_eq!(failed(&signal), ["stdio.close-first"]);
    assert_eq!(signal.verdict, Verdict::Pass, "a SHOULD");
    assert_eq!(signal.ended, Some("signal"));
    let timed = session(&server, &lines, Some(Ending::Duration));
    assert_eq!(status(&timed, "stdio.close-first"), Status::NotRun);
    // Until it ends, the verdict waits; with no request, there is none.
    assert_eq!(session(&server, &lines, None).verdict, Verdict::Incomplete);
    assert_eq!(
        session(&server, &[], Some(Ending::StdinClosed)).verdict,
        Verdict::Incomplete
    );
    // A MUST broken is a FAIL at once, ended or not.
    assert_eq!(session(&server, &[line("x")], None).verdict, Verdict::Fail);
}

#[test]
fn evidence_is_bounded_and_cut() {
    let server = textbook();
    let long = format!("{{{}", "x".repeat(SHOWN * 2));
    let lines: Vec<String> = (0..EVIDENCE + 3).map(|_| long.clone()).collect();
    let report = session(&server, &lines, Some(Ending::StdinClosed));
    let rule = report
        .rules
        .iter()
        .find(|r| r.id == "jsonrpc.message")
        .expect("rule");
    assert_eq!(rule.failures, (EVIDENCE + 3) as u64);
    assert_eq!(rule.evidence.len(), EVIDENCE);
    let shown = rule.evidence[0].message.as_deref().expect("message");
    assert_eq!(shown.len(), SHOWN + 3);
    assert!(shown.ends_with("..."));
    let summary = report.summary();
    assert!(
        summary.contains("FAIL must jsonrpc.message (CLI-01, basic/index.mdx#messages)"),
        "{summary}"
    );
    assert!(
        summary.ends_with("verdict FAIL (1 passed, 1 failed, 20 not run; 8 messages)\n"),
        "{summary}"
    );
    let json: Value = serde_json::from_str(&report.to_json()).expect("json");
    assert_eq!(json["rules"][0]["status"], "fail");
    assert_eq!(json["verdict"], "FAIL");
}

/// One POST (or another method) through the binding, judged.
fn exchange(
    judge: &mut Judge,
    binding: &http::Binding,
    (method, target): (&str, &str),
    headers: &[(&str, &str)],
    body: &str,
) -> http::Response {
    let headers: Vec<(&str, &[u8])> = headers.iter().map(|(n, v)| (*n, v.as_bytes())).collect();
    let request = Request {
        method,
        target,
        headers: &headers,
        body: body.as_bytes(),
    };
    let ticket = judge.client_http(binding.server(), &request);
    let response = binding.respond(&request);
    judge.server_http(ticket, &response);
    response
}

const HOST: (&str, &str) = ("host", "127.0.0.1:8080");
const JSON: (&str, &str) = ("content-type", "application/json");
const ACCEPT: (&str, &str) = ("accept", "application/json, text/event-stream");
const VERSION: (&str, &str) = ("mcp-protocol-version", "2026-07-28");

fn binding(server: Server) -> http::Binding {
    http::Binding::new(
        server,
        http::Bound {
            port: 8080,
            loopback: true,
        },
    )
}

/// Headers as name and value.
type Headers<'h> = Vec<(&'h str, &'h str)>;

fn http_report(server: Server, posts: &[(&str, Headers<'_>, String)]) -> Report {
    let binding = binding(server);
    let mut judge = Judge::new(Transport::Http, Vec::new());
    for (method, headers, body) in posts {
        exchange(&mut judge, &binding, (method, "/mcp"), headers, body);
    }
    judge.end(Ending::Signal);
    judge.report()
}

#[test]
fn a_correct_http_client_passes_the_header_rules() {
    let call = request(
        3,
        "tools/call",
        r#""name":"get_order","arguments":{"order_id":"A-104"}"#,
    );
    let posts = [
        (
            "POST",
            vec![HOST, JSON, ACCEPT, VERSION, ("mcp-method", "tools/list")],
            request(1, "tools/list", ""),
        ),
        (
            "POST",
            vec![
                HOST,
                JSON,
                ACCEPT,
                VERSION,
                ("mcp-method", "tools/call"),
                ("mcp-name", "get_order"),
            ],
            call,
        ),
    ];
    let report = http_report(textbook(), &posts);
    assert!(failed(&report).is_empty(), "{}", report.to_json());
    assert_eq!(report.verdict, Verdict::Pass);
    for id in [
        "http.post",
        "http.accept",
        "http.version-header",
        "http.method-header",
        "http.name-header",
    ] {
        assert_eq!(status(&report, id), Status::Pass, "{id}");
    }
    assert_eq!(status(&report, "http.param-headers"), Status::NotRun);
    assert!(report.rules.iter().all(|r| r.id != "stdio.close-first"));
    assert_eq!(report.binding, "http");
}

#[test]
fn each_http_header_fault_fails_its_own_rule() {
    let list = request(1, "tools/list", "");
    let call = request(
        3,
        "tools/call",
        r#""name":"get_order","arguments":{"order_id":"A-104"}"#,
    );
    let base = vec![HOST, JSON, VERSION];
    let with = |extra: &[(&'static str, &'static str)]| {
        let mut h = base.clone();
        h.extend_from_slice(extra);
        h
    };
    let cases: Vec<(Headers<'_>, String, &str)> = vec![
        (
            with(&[("accept", "application/json"), ("mcp-method", "tools/list")]),
            list.clone(),
            "http.accept",
        ),
        (
            with(&[("accept", "*/*"), ("mcp-method", "tools/list")]),
            list.clone(),
            "http.accept",
        ),
        (with(&[ACCEPT]), list.clone(), "http.method-header"),
        (
            with(&[ACCEPT, ("mcp-method", "tools/call")]),
            list.clone(),
            "http.method-header",
        ),
        (
            vec![HOST, JSON, ACCEPT, ("mcp-method", "tools/list")],
            list.clone(),
            "http.version-header",
        ),
        (
            with(&[ACCEPT, ("mcp-method", "tools/call")]),
            call.clone(),
            "http.name-header",
        ),
        (
            with(&[
                ACCEPT,
                ("mcp-method", "tools/call"),
                ("mcp-name", "get_orders"),
            ]),
            call.clone(),
            "http.name-header",
        ),
    ];
    for (headers, body, rule) in cases {
        let report = http_report(textbook(), &[("POST", headers.clone(), body)]);
        assert_eq!(failed(&report), [rule], "{headers:?}");
    }
    // The sentinel form of the same name is the same name.
    let sentinel = "=?base64?Z2V0X29yZGVy?=";
    let headers = with(&[ACCEPT, ("mcp-method", "tools/call"), ("mcp-name", sentinel)]);
    let report = http_report(textbook(), &[("POST", headers, call)]);
    assert!(failed(&report).is_empty());
}

#[test]
fn x_mcp_header_parameters_must_be_mirrored() {
    let call = request(
        3,
        "tools/call",
        r#""name":"get_order","arguments":{"order_id":"A-104"}"#,
    );
    let headers = vec![
        HOST,
        JSON,
        ACCEPT,
        VERSION,
        ("mcp-method", "tools/call"),
        ("mcp-name", "get_order"),
    ];
    let report = http_report(conformance(), &[("POST", headers.clone(), call.clone())]);
    assert_eq!(failed(&report), ["http.param-headers"]);
    let mut mirrored = headers;
    mirrored.push(("mcp-param-order-id", "A-104"));
    let report = http_report(conformance(), &[("POST", mirrored, call)]);
    assert!(failed(&report).is_empty(), "{}", report.to_json());
    assert_eq!(status(&report, "http.param-headers"), Status::Pass);
}

#[test]
fn only_posts_to_the_endpoint_are_judged_as_messages() {
    let binding = binding(textbook());
    let mut judge = Judge::new(Transport::Http, Vec::new());
    exchange(&mut judge, &binding, ("OPTIONS", "/mcp"), &[HOST], "");
    exchange(
        &mut judge,
        &binding,
        ("GET", "/.well-known/oauth-protected-resource"),
        &[HOST],
        "",
    );
    assert_eq!(status(&judge.report(), "http.post"), Status::NotRun);
    exchange(&mut judge, &binding, ("GET", "/mcp"), &[HOST, ACCEPT], "");
    let report = judge.report();
    assert_eq!(failed(&report), ["http.post"]);
    assert_eq!(
        report
            .rules
            .iter()
            .find(|r| r.id == "http.post")
            .expect("rule")
            .evidence[0]
            .detail,
        "GET /mcp"
    );
    // A batch over HTTP is no single message.
    let posts = [(
        "POST",
        vec![HOST, JSON, ACCEPT, VERSION, ("mcp-method", "tools/list")],
        "[]".to_owned(),
    )];
    assert_eq!(
        failed(&http_report(textbook(), &posts)),
        ["jsonrpc.message"]
    );
}

#[test]
fn a_round_trip_over_http_is_judged_from_the_response_body() {
    let server = conformance();
    let tool = "test_input_required_result_elicitation";
    let first = request(
        1,
        "tools/call",
        &format!(r#""name":"{tool}","arguments":{{}}"#),
    )
    .replace(META, &meta_with(r#"{"elicitation":{}}"#));
    let answer = r#","inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}}"#;
    let headers = vec![
        HOST,
        JSON,
        ACCEPT,
        VERSION,
        ("mcp-method", "tools/call"),
        ("mcp-name", tool),
    ];
    let posts = [
        ("POST", headers.clone(), first),
        (
            "POST",
            headers,
            retry("1", tool, r#"{"elicitation":{}}"#, answer),
        ),
    ];
    let report = http_report(server, &posts);
    assert_eq!(failed(&report), ["mrtr.new-id"]);
}

#[test]
fn an_empty_body_read_is_no_message_and_a_head_alone_is_judged_as_a_head() {
    let server = textbook();
    let headers: Vec<(&str, &[u8])> = vec![HOST, JSON, ACCEPT, VERSION]
        .into_iter()
        .map(|(n, v)| (n, v.as_bytes()))
        .collect();
    let request = Request {
        method: "POST",
        target: "/mcp",
        headers: &headers,
        body: b"",
    };
    let mut judge = Judge::new(Transport::Http, Vec::new());
    let t = judge.client_http(&server, &request);
    judge.server(t, b"");
    assert_eq!(failed(&judge.report()), ["jsonrpc.message"]);
    let mut judge = Judge::new(Transport::Http, Vec::new());
    let t = judge.client_http_head(&server, &request);
    judge.server(t, b"");
    let report = judge.report();
    assert!(failed(&report).is_empty());
    assert_eq!(status(&report, "http.post"), Status::Pass);
    assert_eq!(status(&report, "http.accept"), Status::NotRun);
    assert_eq!(report.messages, 1);
}
