//! `check --call` against the reference serving `data/conformance.json`
//! (over stdio and over HTTP): every call check passes for the fixture's
//! input-required and progress tools. Against the fault-injected fixtures,
//! each fault fails exactly the call checks of the rule it breaks, at that
//! check's level.

#[path = "support/fixture.rs"]
mod fixture;

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::time::Duration;

use mcp_reference_tools::check::call::{CALL_CHECKS, Kind, Target};
use mcp_reference_tools::check::http::{HttpOptions, run_http};
use mcp_reference_tools::check::{self, Level, Options, Outcome, Report};

const CONFORMANCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/conformance.json");

/// Two tools with state (so that one's state can be presented on the
/// other's call), one without, one of two rounds, the progress tool, and
/// the fixture's input-required prompt (`--get`).
fn targets() -> Vec<Target> {
    [
        "test_input_required_result_request_state",
        "test_input_required_result_tampered_state",
        "test_input_required_result_elicitation",
        "test_input_required_result_multi_round",
        "test_input_required_result_capabilities",
        "test_tool_with_progress",
    ]
    .iter()
    .map(|t| Target::parse(Kind::Tool, t).unwrap())
    .chain([Target::parse(Kind::Prompt, "test_input_required_result_prompt").unwrap()])
    .collect()
}

fn stdio(command: Vec<OsString>, env: bool) -> Report {
    let mut options = Options::new(command);
    if env {
        options
            .env
            .push(("MCP_REFERENCE_CONFIG".into(), CONFORMANCE.into()));
    }
    options.calls = targets();
    check::run(&options).unwrap_or_else(|e| panic!("no report: {e}"))
}

fn http(url: String) -> Report {
    run_http(&HttpOptions {
        url,
        timeout: Duration::from_secs(5),
        deadline: Duration::from_secs(60),
        calls: targets(),
    })
    .unwrap_or_else(|e| panic!("no report: {e}"))
}

/// The call checks that failed.
fn failed(report: &Report) -> BTreeSet<&'static str> {
    report
        .failed()
        .into_iter()
        .filter(|id| id.starts_with("call."))
        .collect()
}

/// Every call check is in the report and passed.
fn all_pass(report: &Report) {
    for c in CALL_CHECKS {
        let entry = report.entries.iter().find(|e| e.check.id == c.id);
        assert!(
            matches!(entry.map(|e| &e.outcome), Some(Outcome::Pass)),
            "{}: {:?}\n{}",
            c.id,
            entry.map(|e| &e.outcome),
            report.table()
        );
    }
}

fn level(id: &str) -> Option<Level> {
    CALL_CHECKS.iter().find(|c| c.id == id).map(|c| c.level)
}

#[test]
fn the_reference_passes_every_call_check_over_stdio() {
    let mut command = fixture::reference();
    command.extend(["--config".into(), CONFORMANCE.into()]);
    all_pass(&stdio(command, false));
}

#[test]
fn without_targets_no_call_check_is_reported_and_no_tool_is_called() {
    let mut command = fixture::reference();
    command.extend(["--config".into(), CONFORMANCE.into()]);
    let report = check::run(&Options::new(command)).unwrap();
    assert!(
        report
            .entries
            .iter()
            .all(|e| !e.check.id.starts_with("call."))
    );
}

#[test]
fn a_tool_that_asks_for_nothing_passes_nothing_it_did_not_show() {
    let mut command = fixture::reference();
    command.extend(["--config".into(), CONFORMANCE.into()]);
    let mut options = Options::new(command);
    options.calls = vec![Target::parse(Kind::Tool, "test_simple_text").unwrap()];
    let report = check::run(&options).unwrap();
    for id in [
        "call.state-tampered",
        "call.state-truncated",
        "call.decline",
        "call.cancel",
        "call.retry-unanswered",
        "call.progress",
    ] {
        let entry = report.entries.iter().find(|e| e.check.id == id).unwrap();
        assert!(
            matches!(entry.outcome, Outcome::Skip(_) | Outcome::NotRun(_)),
            "{id}: {:?}",
            entry.outcome
        );
    }
    assert!(failed(&report).is_empty(), "{}", report.table());
}

#[test]
fn each_stdio_fault_fails_exactly_its_call_checks() {
    for (flag, want) in [
        (
            "--accept-any-state",
            &["call.state-tampered", "call.state-truncated"][..],
        ),
        ("--ask-undeclared", &["call.input-capabilities"][..]),
        ("--request-on-input", &["call.server-requests"][..]),
        ("--accept-declined", &["call.cancel", "call.decline"][..]),
        ("--error-on-unanswered", &["call.retry-unanswered"][..]),
        ("--accept-malformed", &["call.answers-malformed"][..]),
        ("--progress-wrong-token", &["call.progress"][..]),
        ("--notifications-backwards", &["call.progress"][..]),
        ("--progress-unasked", &["call.progress-unasked"][..]),
        (
            "--no-result-type",
            &["call.result-schema", "call.result-type"][..],
        ),
    ] {
        let report = stdio(fixture::faulty(&[flag]), true);
        let want: BTreeSet<&str> = want.iter().copied().collect();
        assert_eq!(failed(&report), want, "{flag}\n{}", report.table());
    }
    // The levels the spec gives these rules: a MUST fails the verdict.
    assert_eq!(level("call.state-tampered"), Some(Level::Must));
    assert_eq!(level("call.input-capabilities"), Some(Level::Must));
    assert_eq!(level("call.progress"), Some(Level::Must));
    assert_eq!(level("call.decline"), Some(Level::Should));
    assert_eq!(level("call.retry-unanswered"), Some(Level::Should));
    let report = stdio(fixture::faulty(&["--accept-declined"]), true);
    assert!(
        !report
            .failed()
            .iter()
            .any(|id| level(id) == Some(Level::Must)),
        "{}",
        report.table()
    );
}

#[test]
fn a_mode_or_sampling_tools_not_declared_fails_input_capabilities() {
    // The sub-capabilities: URL mode and tool-enabled sampling sent to a
    // request that declared only `elicitation: {}` and `sampling: {}`.
    for tool in ["url_elicitation", "sampling_with_tools"] {
        let mut options = Options::new(fixture::faulty(&["--ask-unnarrowed"]));
        options
            .env
            .push(("MCP_REFERENCE_CONFIG".into(), CONFORMANCE.into()));
        options.calls = vec![Target::parse(Kind::Tool, tool).unwrap()];
        let report = check::run(&options).unwrap();
        let want: BTreeSet<&str> = ["call.input-capabilities"].into_iter().collect();
        assert_eq!(failed(&report), want, "{tool}\n{}", report.table());
        let text = report.table();
        assert!(text.contains("names no"), "{text}");
    }
}

#[test]
fn the_reference_passes_every_call_check_over_http() {
    let server = fixture::serve_http(&["--config", CONFORMANCE]);
    let report = http(server.url.clone());
    drop(server);
    all_pass(&report);
}

#[test]
fn each_http_fault_fails_exactly_its_call_checks() {
    for (flags, want) in [
        (
            &["--sse", "--sse-no-result-type"][..],
            &["call.result-schema", "call.result-type"][..],
        ),
        (&["--progress-after-response"][..], &["call.progress"][..]),
        (&["--sse"][..], &[][..]),
    ] {
        let mut args = vec!["--config", CONFORMANCE];
        args.extend_from_slice(flags);
        let server = fixture::start_http(&fixture::faulty_http_server(), &args);
        let report = http(server.url.clone());
        drop(server);
        let want: BTreeSet<&str> = want.iter().copied().collect();
        assert_eq!(failed(&report), want, "{flags:?}\n{}", report.table());
        if flags.contains(&"--sse-no-result-type") {
            let text = report.table();
            assert!(text.contains("ends the text/event-stream"), "{text}");
        }
    }
}

#[test]
fn the_command_line_takes_call_and_get() {
    let reference = fixture::bin();
    let (code, out, err) = fixture::cli(&[
        "check",
        "--call",
        r#"get_order={"order_id":"A-104"}"#,
        "--",
        &reference,
        "serve",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("call.result-type"), "{out}");
    let (code, _, err) = fixture::cli(&[
        "check",
        "--call",
        "get_order=[1]",
        "--",
        &reference,
        "serve",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a JSON object"), "{err}");
    let (code, out, _) = fixture::cli(&["check", "--", &reference, "serve"]);
    assert_eq!(code, 0);
    assert!(!out.contains("call."), "{out}");
}
