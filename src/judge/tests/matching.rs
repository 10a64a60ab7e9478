//! Unit tests of what the judge remembers across messages (docs/judge.md,
//! "How a retry is matched to its round"; rules CLI-03, CLI-10, CLI-14,
//! CLI-19): tickets, ids and tokens still in flight, the bound on ids
//! remembered, the legacy fallback's exercise, the first `clientInfo`, and
//! the retry ranking's edges, and the reasons a report gives for a rule
//! held. Each pins a behaviour that cargo-mutants
//! found no test held (`scripts/mutants.sh judge`).

use super::*;

/// A stateless InputRequiredResult asking for elicitations named `keys`.
fn asks_without_state(id: u64, keys: &[&str]) -> Option<String> {
    asks(id, keys).map(|reply| reply.replace(r#","requestState":"S""#, ""))
}

/// A stateless retry of tool `tool` answering `keys`.
fn answering_without_state(id: u64, tool: &str, keys: &[&str]) -> String {
    answering(id, keys)
        .replace(r#","requestState":"S""#, "")
        .replace(r#""name":"t""#, &format!(r#""name":"{tool}""#))
}

fn call(id: u64, tool: &str) -> String {
    retry(&id.to_string(), tool, r#"{"elicitation":{}}"#, "")
}

fn done() -> Option<String> {
    Some(r#"{"jsonrpc":"2.0","id":0,"result":{"content":[]}}"#.to_owned())
}

fn rule<'r>(report: &'r Report, id: &str) -> &'r RuleReport {
    report
        .rules
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("no rule {id}"))
}

#[test]
fn a_ticket_is_its_message_position_and_survives_its_number() {
    let server = textbook();
    let mut judge = Judge::new(Transport::Stdio, Vec::new());
    let mut numbers = Vec::new();
    for id in 1..=3 {
        let ticket = judge.client(&server, request(id, "tools/list", "").as_bytes());
        assert_eq!(Ticket::from_number(ticket.number()), ticket);
        numbers.push(ticket.number());
    }
    assert_eq!(numbers, [1, 2, 3]);
}

#[test]
fn a_retry_is_matched_only_among_rounds_of_its_own_tool() {
    // Two stateless rounds of two tools; the retry of `b` answers `a`'s
    // key. Only `b`'s round is a candidate, so its own key is missing.
    let report = scripted(
        &[
            call(1, "a"),
            call(2, "b"),
            answering_without_state(3, "b", &["ka"]),
        ],
        &[
            asks_without_state(1, &["ka"]),
            asks_without_state(2, &["kb"]),
            done(),
        ],
    );
    assert_eq!(failed(&report), ["mrtr.inputs"], "{}", report.to_json());
    // Answering its own key, it fits.
    let report = scripted(
        &[
            call(1, "a"),
            call(2, "b"),
            answering_without_state(3, "b", &["kb"]),
        ],
        &[
            asks_without_state(1, &["ka"]),
            asks_without_state(2, &["kb"]),
            done(),
        ],
    );
    assert!(failed(&report).is_empty(), "{}", report.to_json());
}

#[test]
fn an_exact_answer_is_preferred_to_a_round_it_only_covers() {
    // Two rounds of one tool with one state: {x, y} then {x}. The retry
    // answering {x, y} retries the first (exact), so the second retry,
    // answering {x}, finds the second; the other way round it would find
    // {x, y} with y missing.
    let report = scripted(
        &[
            call(1, "t"),
            call(2, "t"),
            answering(3, &["x", "y"]),
            answering(4, &["x"]),
        ],
        &[asks(1, &["x", "y"]), asks(2, &["x"]), done(), done()],
    );
    assert!(failed(&report).is_empty(), "{}", report.to_json());
    assert_eq!(rule(&report, "mrtr.inputs").exercised, 2);
}

#[test]
fn a_retry_reusing_one_rounds_id_is_matched_to_the_round_it_does_not_reuse() {
    // Two identical rounds (ids 1 and 2); a retry with id 2 fits round 1
    // with a new id, so no fault; the next retry (id 3) takes round 2.
    let report = scripted(
        &[
            call(1, "t"),
            call(2, "t"),
            answering(2, &["x"]),
            answering(3, &["x"]),
        ],
        &[asks(1, &["x"]), asks(2, &["x"]), done(), done()],
    );
    assert!(failed(&report).is_empty(), "{}", report.to_json());
    assert_eq!(rule(&report, "mrtr.new-id").exercised, 2);
}

/// A judge over HTTP fed requests whose answers have not come yet.
fn in_flight(bodies: &[String]) -> Report {
    let server = textbook();
    let headers: Vec<(&str, &[u8])> = [HOST, JSON, ACCEPT, VERSION]
        .into_iter()
        .map(|(n, v)| (n, v.as_bytes()))
        .collect();
    let mut judge = Judge::new(Transport::Http, Vec::new());
    for body in bodies {
        let request = Request {
            method: "POST",
            target: "/mcp",
            headers: &headers,
            body: body.as_bytes(),
        };
        judge.client_http(&server, &request);
    }
    judge.report()
}

#[test]
fn an_id_in_flight_is_reused_only_when_it_is_the_same_id() {
    let distinct = in_flight(&[
        request(1, "tools/list", ""),
        request(2, "tools/list", ""),
        request(3, "tools/list", ""),
    ]);
    let rule_report = rule(&distinct, "jsonrpc.id-in-flight");
    assert_eq!(rule_report.status, Status::Pass, "{}", distinct.to_json());
    assert_eq!(rule_report.exercised, 2);
    let reused = in_flight(&[request(1, "tools/list", ""), request(1, "tools/list", "")]);
    let rule_report = rule(&reused, "jsonrpc.id-in-flight");
    assert_eq!(rule_report.status, Status::Fail, "{}", reused.to_json());
    assert_eq!(rule_report.failures, 1);
}

#[test]
fn the_legacy_fallback_rule_is_exercised_only_after_a_modern_answer() {
    let server = textbook();
    // The first request has no modern answer before it: not exercised.
    let one = session(
        &server,
        &[request(1, "server/discover", "")],
        Some(Ending::StdinClosed),
    );
    assert_eq!(status(&one, "version.no-legacy-fallback"), Status::NotRun);
    // Each later request other than initialize holds it once.
    let three = session(
        &server,
        &[
            request(1, "server/discover", ""),
            request(2, "tools/list", ""),
            request(3, "tools/list", ""),
        ],
        Some(Ending::StdinClosed),
    );
    let held = rule(&three, "version.no-legacy-fallback");
    assert_eq!((held.status, held.exercised), (Status::Pass, 2));
    // An initialize after it fails it, and is not also counted as holding it.
    let fallback = session(
        &server,
        &[
            request(1, "server/discover", ""),
            r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.to_owned(),
        ],
        Some(Ending::StdinClosed),
    );
    let broken = rule(&fallback, "version.no-legacy-fallback");
    assert_eq!((broken.exercised, broken.failures), (1, 1));
}

#[test]
fn the_report_keeps_the_first_client_info_sent() {
    let server = textbook();
    let second = request(2, "tools/list", "").replace(
        r#"clientInfo":{"name":"t","version":"1"}"#,
        r#"clientInfo":{"name":"other","version":"2"}"#,
    );
    let without = request(1, "tools/list", "").replace(
        r#","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}"#,
        "",
    );
    assert!(second.contains("other") && !without.contains("clientInfo"));
    let report = session(
        &server,
        &[without, request(3, "tools/list", ""), second],
        Some(Ending::StdinClosed),
    );
    assert_eq!(
        report.client,
        Some(serde_json::json!({"name":"t","version":"1"}))
    );
}

#[test]
fn past_the_bound_of_remembered_ids_a_cancellation_is_judged_only_for_ids_remembered() {
    let server = textbook();
    let mut judge = Judge::new(Transport::Stdio, Vec::new());
    for id in 1..=REMEMBERED_IDS as u64 + 1 {
        let ticket = judge.client(&server, request(id, "tools/list", "").as_bytes());
        judge.server(ticket, b"");
    }
    let cancel = |id: u64| {
        format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id}}}}}"#
        )
    };
    // A remembered id is judged (held); the one past the bound, which was
    // not remembered, and an id never sent are not judged at all.
    for id in [1, REMEMBERED_IDS as u64 + 1, REMEMBERED_IDS as u64 + 7] {
        let ticket = judge.client(&server, cancel(id).as_bytes());
        judge.server(ticket, b"");
    }
    let report = judge.report();
    let cancelled = rule(&report, "cancel.known-request");
    assert_eq!(
        (cancelled.status, cancelled.exercised),
        (Status::Pass, 1),
        "{:?}",
        cancelled
    );
}

#[test]
fn a_round_trip_streamed_as_events_is_read_from_its_data_lines() {
    let server = textbook();
    let headers: Vec<(&str, &[u8])> = [
        HOST,
        JSON,
        ACCEPT,
        VERSION,
        ("mcp-method", "tools/call"),
        ("mcp-name", "t"),
    ]
    .into_iter()
    .map(|(n, v)| (n, v.as_bytes()))
    .collect();
    let post = |body: &str| -> Vec<u8> { body.as_bytes().to_vec() };
    let first = post(&call(1, "t"));
    let again = post(&answering(1, &["x"]));
    let streamed = format!(
        "event: message\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{{\"progressToken\":1,\"progress\":1}}}}\n\nevent: message\ndata: {}\n\n",
        asks(1, &["x"]).unwrap_or_default()
    );
    let mut judge = Judge::new(Transport::Http, Vec::new());
    for (body, reply) in [(&first, Some(streamed)), (&again, done())] {
        let request = Request {
            method: "POST",
            target: "/mcp",
            headers: &headers,
            body,
        };
        let ticket = judge.client_http(&server, &request);
        let body = reply.unwrap_or_default();
        let headers: &'static [(&'static str, &'static str)] = if body.starts_with("event:") {
            &[("content-type", "text/event-stream")]
        } else {
            &[("content-type", "application/json")]
        };
        let response = http::Response {
            status: 200,
            headers,
            body: body.into_bytes(),
            challenge: None,
        };
        judge.server_http(ticket, &response);
    }
    let report = judge.report();
    // The round was read from the stream: the retry retries it, and reuses
    // its id.
    assert_eq!(failed(&report), ["mrtr.new-id"], "{}", report.to_json());
    assert_eq!(status(&report, "mrtr.retry-only"), Status::Pass);
}

#[test]
fn a_rule_held_says_by_what_and_the_shutdown_rule_by_the_end() {
    let server = textbook();
    let report = session(
        &server,
        &[
            request(1, "server/discover", ""),
            request(2, "tools/list", ""),
        ],
        Some(Ending::StdinClosed),
    );
    assert_eq!(
        rule(&report, "stdio.close-first").reason,
        "the session ended with stdin closed"
    );
    assert_eq!(
        rule(&report, "jsonrpc.id").reason,
        "held in all 2 messages that exercised it"
    );
    assert_eq!(
        rule(&report, "version.no-legacy-fallback").reason,
        "held in the one message that exercised it"
    );
}

#[test]
fn a_retry_without_state_is_matched_to_the_round_that_gave_none() {
    // One tool, two rounds asking the same key: the first with a state,
    // the second without. A retry carrying no state retries the second
    // (the state rules hold there), and a retry echoing the state then
    // retries the first: no fault. Matched the other way round, the first
    // retry would drop the state it was given.
    let stateless_answer = answering_without_state(3, "t", &["x"]);
    let report = scripted(
        &[
            call(1, "t"),
            call(2, "t"),
            stateless_answer,
            answering(4, &["x"]),
        ],
        &[
            asks(1, &["x"]),
            asks_without_state(2, &["x"]),
            done(),
            done(),
        ],
    );
    assert!(failed(&report).is_empty(), "{}", report.to_json());
    assert_eq!(rule(&report, "mrtr.state-none").exercised, 1);
    assert_eq!(rule(&report, "mrtr.state-echo").exercised, 1);
}
