//! `mcp-reference check` against servers whose faults are known: the
//! reference passes everything; each fault-injected fixture fails exactly
//! the checks of the rule it breaks; servers that start slowly, hang, make
//! noise or speak another language get a full report, never a hang.

#[path = "support/fixture.rs"]
mod fixture;

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::process::Command;
use std::time::Duration;

use mcp_reference_tools::check::{self, CHECKS, Options, Outcome, Report, Verdict};

fn run(command: Vec<OsString>, timeout: Duration) -> Report {
    let mut options = Options::new(command);
    options.timeout = timeout;
    check::run(&options).unwrap_or_else(|e| panic!("no report: {e}"))
}

/// A timeout no healthy server comes near; only the hang test waits for it.
const PATIENT: Duration = Duration::from_secs(20);

fn failed(report: &Report) -> BTreeSet<&'static str> {
    report.failed().into_iter().collect()
}

fn set(ids: &[&'static str]) -> BTreeSet<&'static str> {
    ids.iter().copied().collect()
}

/// The checks of resources, prompts and completion: skipped, saying so,
/// for a server that declares none of them (the textbook's configuration).
fn feature_checks() -> BTreeSet<&'static str> {
    CHECKS
        .iter()
        .map(|c| c.id)
        .filter(|id| {
            id.starts_with("resources.")
                || id.starts_with("prompts.")
                || id.starts_with("completion.")
        })
        .collect()
}

/// Every check ran (none skipped, but for those of the capabilities the
/// server does not declare; none not run) and exactly `expected` failed.
fn assert_fails_exactly(report: &Report, expected: &[&'static str]) {
    assert_eq!(
        failed(report),
        set(expected),
        "failing checks differ from the fault's own\n{}",
        report.table()
    );
    assert_eq!(
        report.not_run(),
        Vec::<&str>::new(),
        "checks that should have run did not\n{}",
        report.table()
    );
    let skipped: BTreeSet<&str> = report.skipped().into_iter().collect();
    assert!(
        skipped.is_empty() || skipped == feature_checks(),
        "{}",
        report.table()
    );
    assert_eq!(report.entries.len(), CHECKS.len());
}

/// The catalog configuration (`data/config.example.json`: resources, the
/// order template, prompts, completion).
fn catalog_config() -> OsString {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/config.example.json")
        .into_os_string()
}

/// A check of `command` run with the catalog configuration in
/// `MCP_REFERENCE_CONFIG` (the fault fixture reads it there).
fn run_catalog(command: Vec<OsString>) -> Report {
    let mut options = Options::new(command);
    options.timeout = PATIENT;
    options
        .env
        .push(("MCP_REFERENCE_CONFIG".into(), catalog_config()));
    check::run(&options).unwrap_or_else(|e| panic!("no report: {e}"))
}

/// Every check ran (none skipped, none not run), and exactly `expected`
/// failed.
fn assert_catalog_fails_exactly(report: &Report, expected: &[&'static str]) {
    assert_eq!(
        failed(report),
        set(expected),
        "failing checks differ from the fault's own\n{}",
        report.table()
    );
    assert!(report.skipped().is_empty(), "{}", report.table());
    assert!(report.not_run().is_empty(), "{}", report.table());
}

#[test]
fn the_reference_passes_every_must_and_should() {
    // The textbook's configuration declares no resources, prompts or
    // completions: their checks are skipped, never passed or failed.
    let report = run(fixture::reference(), PATIENT);
    let features = feature_checks();
    assert!(features.len() >= 10, "{features:?}");
    for e in &report.entries {
        let expected = if features.contains(e.check.id) {
            "skip"
        } else {
            "pass"
        };
        assert_eq!(
            e.outcome.as_str(),
            expected,
            "{}\n{}",
            e.check.id,
            report.table()
        );
    }
    assert!(report.passed());
    assert_eq!(report.json()["verdict"], "pass");
}

#[test]
fn the_reference_with_the_catalog_passes_every_check() {
    let mut command = fixture::reference();
    command.extend(["--config".into(), catalog_config()]);
    let report = run(command, PATIENT);
    for e in &report.entries {
        assert_eq!(
            e.outcome,
            Outcome::Pass,
            "{}\n{}",
            e.check.id,
            report.table()
        );
    }
}

/// The conformance fixture lists a resource template whose variable the
/// reference does not complete (row C4 answers `-32602`): completion.mdx
/// asks no server to complete every reference, so that error fails no
/// MUST, and the references answered with values are judged. Before, the
/// first error failed `completion.values` and the verdict.
#[test]
fn a_listed_reference_answered_with_an_error_fails_no_completion_check() {
    let mut command = fixture::reference();
    let conformance =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/conformance.json");
    command.extend(["--config".into(), conformance.into_os_string()]);
    let report = run(command, PATIENT);
    let values = report
        .entries
        .iter()
        .find(|e| e.check.id == "completion.values")
        .unwrap_or_else(|| panic!("no completion.values\n{}", report.table()));
    assert_eq!(values.outcome, Outcome::Pass, "{}", report.table());
    assert!(report.passed(), "{}", report.table());
}

#[test]
fn the_unbroken_fixture_with_the_catalog_passes_every_check() {
    assert_catalog_fails_exactly(&run_catalog(fixture::faulty(&[])), &[]);
}

#[test]
fn an_unknown_resource_as_32002_fails_read_unknown_at_must() {
    let report = run_catalog(fixture::faulty(&["--resource-not-found-32002"]));
    assert_catalog_fails_exactly(&report, &["resources.read-unknown"]);
    let Some(Outcome::Fail(f)) = report.outcome("resources.read-unknown") else {
        unreachable!()
    };
    assert!(f.reason.contains("-32002"), "{}", f.reason);
    assert!(
        report.table().contains("MUST by RES-05"),
        "{}",
        report.table()
    );
    assert_eq!(report.verdict(), Verdict::Fail);
}

#[test]
fn empty_contents_for_an_unknown_resource_fails_both_statements_at_must() {
    // Not -32602 (RES-05), and an empty contents (RES-07).
    let report = run_catalog(fixture::faulty(&["--empty-contents"]));
    assert_catalog_fails_exactly(
        &report,
        &["resources.read-unknown", "resources.read-unknown-not-empty"],
    );
    assert!(
        report.table().contains("MUST by RES-07"),
        "{}",
        report.table()
    );
}

#[test]
fn a_completion_that_suggests_or_counts_another_users_order_fails_at_must() {
    // Whose order is whose is the fixture's data; given it, a value or a
    // count that shows another user's order is what COMP-08 forbids.
    for (flag, said) in [
        ("--complete-leaks", "suggests A-150"),
        (
            "--complete-counts-leaks",
            "counts 4 orders where the user has 2",
        ),
    ] {
        let report = run_catalog(fixture::faulty(&[flag]));
        assert_catalog_fails_exactly(
            &report,
            &["completion.own-ids-only", "completion.foreign-as-none"],
        );
        let Some(Outcome::Fail(f)) = report.outcome("completion.own-ids-only") else {
            unreachable!()
        };
        assert!(f.reason.contains(said), "{flag}: {}", f.reason);
        assert!(
            report.table().contains("MUST by COMP-08"),
            "{}",
            report.table()
        );
        assert_eq!(report.verdict(), Verdict::Fail, "{flag}");
    }
}

#[test]
fn a_list_that_varies_with_earlier_requests_fails_list_stable_at_must() {
    let report = run_catalog(fixture::faulty(&["--list-varies"]));
    assert_catalog_fails_exactly(&report, &["resources.list-stable"]);
    assert!(
        report.table().contains("MUST by RES-03"),
        "{}",
        report.table()
    );
    assert_eq!(report.verdict(), Verdict::Fail);
}

#[test]
fn the_reference_with_its_legacy_path_on_passes_too() {
    let mut command = fixture::reference();
    command.extend(["--legacy".into(), "2025-11-25".into()]);
    let report = run(command, PATIENT);
    assert_fails_exactly(&report, &[]);
}

#[test]
fn the_unbroken_fixture_passes_every_check() {
    // The fixture's own plumbing breaks nothing: each fault below is its flag.
    assert_fails_exactly(&run(fixture::faulty(&[]), PATIENT), &[]);
}

#[test]
fn wrong_id_fails_the_big_integer_echo() {
    // Integer ids beyond 64 bits come back as floats: not the id, and not
    // even a valid id on the wire.
    let report = run(fixture::faulty(&["--wrong-id"]), PATIENT);
    assert_fails_exactly(&report, &["ids.big-integer", "stdout.json-rpc"]);
    let Some(Outcome::Fail(f)) = report.outcome("ids.big-integer") else {
        unreachable!()
    };
    assert!(
        f.reason
            .contains("not to the request's id 18446744073709551616"),
        "{}",
        f.reason
    );
    assert!(
        f.request
            .as_deref()
            .is_some_and(|r| r.contains("18446744073709551616"))
    );
    assert!(f.reply.as_deref().is_some_and(|r| r.contains("e+19")));
    // The summary counts them (a surviving mutant of the oracle printed
    // made-up levels): the MUST line shows the two failures.
    let must = report
        .per_level()
        .into_iter()
        .find(|(level, ..)| *level == "must")
        .expect("a must line");
    assert_eq!(must.1 - must.2, 2, "{must:?}");
    let line = format!("must {}/{}", must.2, must.1);
    assert!(report.table().contains(&line), "{}", report.table());
}

#[test]
fn answering_notifications_fails_notifications_silent() {
    let report = run(fixture::faulty(&["--answer-notifications"]), PATIENT);
    assert_fails_exactly(&report, &["notifications.silent"]);
}

#[test]
fn skipping_the_version_check_fails_version_unsupported() {
    let report = run(fixture::faulty(&["--skip-version-check"]), PATIENT);
    assert_fails_exactly(&report, &["version.unsupported"]);
    let Some(Outcome::Fail(f)) = report.outcome("version.unsupported") else {
        unreachable!()
    };
    assert!(
        f.request
            .as_deref()
            .is_some_and(|r| r.contains("1900-01-01"))
    );
    assert!(
        f.reply
            .as_deref()
            .is_some_and(|r| r.contains("supportedVersions"))
    );
}

#[test]
fn forgetting_result_type_fails_discover_and_the_schema() {
    let report = run(fixture::faulty(&["--no-result-type"]), PATIENT);
    assert_fails_exactly(&report, &["discover.result", "stdout.schema"]);
}

#[test]
fn leaking_a_forbidden_order_is_invisible_to_check() {
    // check knows no tool: this fault is diff's to find (tests/diff.rs).
    let report = run(fixture::faulty(&["--leak-forbidden"]), PATIENT);
    assert_fails_exactly(&report, &[]);
}

#[test]
fn a_stray_reply_at_eof_fails_answers_all() {
    // Every request is answered, but a reply to an id never sent follows
    // (after the notifications of notifications.silent too): it passed
    // before, the stray counted only when a reply was also missing.
    let report = run(fixture::faulty(&["--stray-at-eof"]), PATIENT);
    assert_fails_exactly(&report, &["notifications.silent", "eof.answers-all"]);
    let Some(Outcome::Fail(f)) = report.outcome("eof.answers-all") else {
        unreachable!()
    };
    assert!(
        f.reason.contains("an id that was never sent"),
        "{}",
        f.reason
    );
}

#[test]
fn exiting_with_an_error_status_at_eof_fails_exits() {
    // Everything answered, then exit status 3: eof.exits passed any status.
    let report = run(fixture::faulty(&["--exit-status", "3"]), PATIENT);
    assert_fails_exactly(&report, &["eof.exits"]);
    let Some(Outcome::Fail(f)) = report.outcome("eof.exits") else {
        unreachable!()
    };
    assert!(f.reason.contains("exit status: 3"), "{}", f.reason);
    assert_eq!(report.verdict(), Verdict::Pass, "a SHOULD");
}

#[test]
fn dropping_replies_at_eof_fails_answers_all() {
    let report = run(fixture::faulty(&["--drop-at-eof"]), PATIENT);
    assert_fails_exactly(&report, &["eof.answers-all"]);
}

#[test]
fn a_version_error_without_its_list_fails_the_checks_of_its_statements() {
    // VER-01 (the list), VER-07 (initialize's error names no version) and
    // the schema (UnsupportedProtocolVersionError requires data).
    let report = run(fixture::faulty(&["--no-version-list"]), PATIENT);
    assert_fails_exactly(
        &report,
        &["version.unsupported", "initialize.answer", "stdout.schema"],
    );
    let table = report.table();
    assert!(table.contains("MUST by VER-01"), "{table}");
}

#[test]
fn taking_the_era_from_the_first_line_fails_stateless_only() {
    let report = run(fixture::faulty(&["--first-line-decides"]), PATIENT);
    assert_fails_exactly(&report, &["stateless.fresh-and-later"]);
    let Some(Outcome::Fail(f)) = report.outcome("stateless.fresh-and-later") else {
        unreachable!()
    };
    assert!(
        f.reason.contains(
            "a valid server/discover got a result as a process's first line but error -32600"
        ),
        "{}",
        f.reason
    );
    let table = report.table();
    assert!(table.contains("MUST by BASE-21"), "{table}");
}

#[test]
fn checking_the_version_only_until_a_tools_list_fails_the_warm_run_only() {
    // As a port on the official TypeScript SDK 2.4: version.unsupported
    // passes on a fresh process; after a valid tools/list it gets a result.
    let report = run(fixture::faulty(&["--version-once"]), PATIENT);
    assert_fails_exactly(&report, &["stateless.warm"]);
    assert_eq!(report.outcome("version.unsupported"), Some(&Outcome::Pass));
    let Some(Outcome::Fail(f)) = report.outcome("stateless.warm") else {
        unreachable!()
    };
    assert!(
        f.reason.starts_with(
            "version.unsupported passes on a fresh process and fails after a valid tools/list \
             on the same process: the answer depends on earlier requests; there VER-01 fails \
             too: expected error -32022, got a result"
        ),
        "{}",
        f.reason
    );
    // Both answers, and the request that came before.
    let reply = f.reply.as_deref().unwrap_or_default();
    assert!(
        reply.starts_with("fresh: {\"jsonrpc\":\"2.0\",\"id\":10,\"error\":{\"code\":-32022")
            && reply.contains("\nwarm:  {\"jsonrpc\":\"2.0\",\"id\":10,\"result\":"),
        "{reply}"
    );
    let request = f.request.as_deref().unwrap_or_default();
    assert!(
        request.starts_with(r#"{"jsonrpc":"2.0","id":"warm-tools-list","method":"tools/list""#),
        "{request}"
    );
    let table = report.table();
    assert!(table.contains("MUST by BASE-21"), "{table}");
    assert_eq!(report.verdict(), Verdict::Fail);
}

#[test]
fn a_parse_error_with_another_code_fails_its_code_check_at_textbook_only() {
    // -32600 for a line that is not JSON: still an error with id null
    // (JRPC-03 holds); row E1's -32700 is the vectors' textbook level.
    let report = run(fixture::faulty(&["--parse-error-as-invalid"]), PATIENT);
    assert_fails_exactly(&report, &["jsonrpc.parse-error-code"]);
    let Some(Outcome::Fail(f)) = report.outcome("jsonrpc.parse-error-code") else {
        unreachable!()
    };
    assert_eq!(
        f.reason,
        "got error -32600; row E1 (the vectors' textbook level) has -32700"
    );
    assert!(report.table().contains("TEXTBOOK by textbook:E1"));
    assert_eq!(report.verdict(), Verdict::Pass);
    assert_eq!(report.verdict().exit_code(), 0);
}

#[test]
fn a_log_line_on_stdout_fails_stdout_json_rpc_only() {
    // The checker reads past the stray line: every other check still passes.
    let report = run(fixture::faulty(&["--log-on-stdout"]), PATIENT);
    assert_fails_exactly(&report, &["stdout.json-rpc"]);
    let Some(Outcome::Fail(f)) = report.outcome("stdout.json-rpc") else {
        unreachable!()
    };
    assert_eq!(
        f.reply.as_deref(),
        Some("faulty_server: starting up, reading stdin")
    );
}

#[test]
fn a_slow_start_is_waited_for() {
    let report = run(fixture::faulty(&["--slow-start", "300"]), PATIENT);
    assert_fails_exactly(&report, &[]);
}

#[test]
fn stderr_noise_is_drained_and_ignored() {
    let report = run(fixture::faulty(&["--stderr-noise"]), PATIENT);
    assert_fails_exactly(&report, &[]);
    assert!(
        report.stderr_bytes >= 1024 * 1024,
        "{}",
        report.stderr_bytes
    );
}

#[test]
fn a_hang_times_out_that_check_and_the_rest_run() {
    let timeout = Duration::from_secs(3);
    let report = run(fixture::faulty(&["--hang-on", "tools/call"]), timeout);
    assert_fails_exactly(&report, &["tools.call-unknown"]);
    let Some(Outcome::Fail(f)) = report.outcome("tools.call-unknown") else {
        unreachable!()
    };
    // The process had answered before: the shorter per-reply wait applies.
    assert!(
        f.reason.starts_with("no reply within 2000 ms"),
        "{}",
        f.reason
    );
    // The hung process was replaced, on the first run and on the warm
    // run: two more than the eight a run needs (the shared process, the
    // warm run's, the shared one after it for the robust checks, and the
    // five of the checks that need a process of their own).
    assert_eq!(report.processes, 10, "{}", report.table());
}

#[test]
fn a_server_of_another_dialect_gets_a_report() {
    // Answers every line at once with the same result for id 1.
    let script = r#"while IFS= read -r line; do echo '{"jsonrpc":"2.0","id":1,"result":{"hello":"world"}}'; done"#;
    let report = run(
        vec!["sh".into(), "-c".into(), script.into()],
        Duration::from_secs(1),
    );
    assert!(!report.passed());
    let failed = failed(&report);
    for id in [
        "discover.result",
        "version.unsupported",
        "meta.missing",
        "method.unknown",
        "jsonrpc.parse-error",
        "ids.echo",
        "notifications.silent",
        "stdout.schema",
    ] {
        assert!(failed.contains(id), "{id}\n{}", report.table());
    }
    // A reply to another id is reported as not answering the request, at
    // once, not as a timeout.
    let Some(Outcome::Fail(f)) = report.outcome("version.unsupported") else {
        panic!("{}", report.table())
    };
    assert!(
        f.reason.starts_with(
            "the server's reply does not answer the request: it is a response to id 1"
        ),
        "{}",
        f.reason
    );
    // The robustness probes wait for the reply with their own id, which
    // this server never echoes: they time out, and the run goes on.
    let Some(Outcome::Fail(f)) = report.outcome("robust.deep-nesting") else {
        panic!("{}", report.table())
    };
    assert!(f.reason.contains("no reply within 1000 ms"), "{}", f.reason);
    // Its lines are JSON-RPC responses and it exits at end-of-file: those
    // rules it keeps.
    for id in ["stdout.json-rpc", "eof.exits"] {
        assert_eq!(report.outcome(id), Some(&Outcome::Pass), "{id}");
    }
}

#[test]
fn a_silent_server_is_judged_after_two_processes() {
    let started = std::time::Instant::now();
    let report = run(
        vec!["sh".into(), "-c".into(), "exec sleep 60".into()],
        Duration::from_millis(300),
    );
    // Two processes time out on their first request; every check after
    // that is not run (it could not be tried), instead of each waiting out
    // the timeout again.
    let mut timed_out = 0;
    for e in &report.entries {
        match (&e.outcome, e.check.id) {
            (Outcome::Fail(f), _) => {
                assert!(f.reason.contains("no reply within 300 ms"), "{}", f.reason);
                timed_out += 1;
            }
            // Nothing on stdout is nothing judged: the stdout checks are
            // not run (they passed before, having judged nothing).
            (Outcome::NotRun(why), "stdout.json-rpc" | "stdout.schema") => {
                assert!(why.contains("wrote no line on stdout"), "{why}")
            }
            (Outcome::NotRun(why), _) => {
                assert!(
                    why.contains("answered none of its first 2 requests"),
                    "{why}"
                )
            }
            (Outcome::Skip(_), _) => {}
            (Outcome::Pass, id) => panic!("{id} passed against a silent server"),
        }
    }
    assert_eq!(timed_out, 2, "{}", report.table());
    assert_eq!(report.verdict(), Verdict::Fail, "discover.result is a MUST");
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn an_echo_server_is_told_its_reply_does_not_answer() {
    // Writes every line back: a line comes at once, but it answers nothing.
    let report = run(
        vec!["sh".into(), "-c".into(), "exec cat".into()],
        Duration::from_secs(5),
    );
    let first = report
        .entries
        .iter()
        .find_map(|e| match &e.outcome {
            Outcome::Fail(f) => Some(f),
            _ => None,
        })
        .expect("a failure");
    assert_eq!(
        first.reason,
        "the server's reply does not answer the request: it is the request itself, written back",
        "{}",
        report.table()
    );
    assert_eq!(report.verdict(), Verdict::Fail);
}

#[test]
fn the_run_deadline_leaves_checks_not_run_and_the_verdict_incomplete() {
    let mut options = Options::new(fixture::reference());
    options.timeout = PATIENT;
    options.deadline = Duration::from_millis(1);
    let report = check::run(&options).expect("a report");
    assert!(!report.not_run().is_empty(), "{}", report.table());
    assert!(report.failed().is_empty(), "{}", report.table());
    assert_eq!(report.verdict(), Verdict::Incomplete);
    assert_eq!(report.json()["verdict"], "incomplete");
    assert!(report.table().contains("verdict: INCOMPLETE"));
}

#[test]
fn a_server_that_exits_at_once_gets_a_report() {
    let report = run(vec!["true".into()], PATIENT);
    let Some(Outcome::Fail(f)) = report.outcome("discover.result") else {
        panic!("{}", report.table())
    };
    assert!(f.reason.starts_with("the server exited"), "{}", f.reason);
}

#[test]
fn cli_exit_codes_and_formats() {
    let (code, out, _) = fixture::cli(&["check", "--", &fixture::bin(), "serve"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("verdict: PASS"), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("pass ")).count(),
        CHECKS.len() - feature_checks().len()
    );

    let faulty = fixture::faulty_server();
    let faulty = faulty.to_str().expect("a UTF-8 path");
    let (code, out, _) = fixture::cli(&["check", "--json", "--", faulty, "--skip-version-check"]);
    assert_eq!(code, 1, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("--json prints JSON");
    assert_eq!(json["verdict"], "fail");
    let failing: Vec<&str> = json["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["result"] == "fail")
        .filter_map(|c| c["id"].as_str())
        .collect();
    assert_eq!(failing, ["version.unsupported"]);

    let (code, out, err) = fixture::cli(&["check", "--", "/nonexistent/server"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err.trim(),
        "mcp-reference check: cannot start /nonexistent/server: no such program"
    );

    let (code, _, err) = fixture::cli(&[
        "check",
        "--schema",
        "/nonexistent/schema.json",
        "--",
        &fixture::bin(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("mcp-reference check: cannot read /nonexistent/schema.json"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);

    let (code, _, err) = fixture::cli(&["check", &fixture::bin()]);
    assert_eq!(code, 2, "the command goes after --: {err}");

    // The header quotes the command as a shell would.
    let (_, out, _) = fixture::cli(&[
        "check",
        "--",
        &fixture::bin(),
        "serve",
        "--user",
        "two words",
    ]);
    assert!(
        out.starts_with(&format!(
            "mcp-reference check: {} serve --user 'two words'\n",
            fixture::bin()
        )),
        "{out}"
    );
}

/// `check -- CMD` from a working directory of its own, in a fresh shell
/// (`dir`; no `MCP_SPEC_DIR` unless `spec` names one): (exit code, stdout).
fn check_reference_from(dir: &str, spec: Option<&std::path::Path>) -> (Option<i32>, String) {
    let dir = std::env::temp_dir().join(format!("mcp-check-{dir}-{}", std::process::id()));
    let cwd = dir.join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let mut command = Command::new(fixture::bin());
    command
        .args(["check", "--", &fixture::bin(), "serve"])
        .current_dir(&cwd)
        .env_remove("MCP_SPEC_DIR")
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER");
    if let Some(spec) = spec {
        command.env("MCP_SPEC_DIR", spec);
    }
    let out = command.output().unwrap();
    let _ = std::fs::remove_dir_all(dir);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Without `MCP_SPEC_DIR`, from any working directory, `check` finds the
/// schemas where the README's recipe (or this workplace) puts them beside
/// the checkout, so the reference itself passes, stdout.schema included
/// (issue 49, item 2: it looked in `../shared/spec` relative to the working
/// directory only, and every new shell ended INCOMPLETE).
#[test]
fn the_schemas_beside_the_checkout_are_found_from_any_directory() {
    assert!(
        mcp_reference_testkit::schema::spec_dir().is_some(),
        "this test run has its schemas beside the checkout or in MCP_SPEC_DIR"
    );
    if std::env::var_os("MCP_SPEC_DIR").is_some() {
        // The schemas may be only where the variable says; this test is
        // about the places beside the checkout, so it needs one of them.
        let found = mcp_reference_testkit::schema::spec_dir().unwrap();
        let beside = mcp_reference_schema_gate::beside_checkout();
        if !beside
            .iter()
            .any(|b| b.join("2026-07-28/schema.json").is_file())
        {
            panic!(
                "MCP_SPEC_DIR={} is set, and neither {} nor {} holds the schemas: this test \
                 needs them beside the checkout",
                found.display(),
                beside[0].display(),
                beside[1].display()
            );
        }
    }
    let (code, text) = check_reference_from("beside", None);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("pass   MUST     stdout.schema"), "{text}");
    assert!(text.contains("verdict: PASS"), "{text}");
}

/// With `MCP_SPEC_DIR` naming a folder without the schemas, the MUST
/// check stdout.schema cannot run, so the verdict is INCOMPLETE (exit code
/// 3), never PASS, and the line says how to supply the schema.
#[test]
fn no_schema_is_incomplete_from_any_directory() {
    let empty = std::env::temp_dir().join(format!("mcp-check-nospec-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let (code, text) = check_reference_from("noschema", Some(&empty));
    let _ = std::fs::remove_dir_all(&empty);
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("notrun MUST     stdout.schema"), "{text}");
    assert!(text.contains("set MCP_SPEC_DIR"), "{text}");
    assert!(text.contains(&empty.display().to_string()), "{text}");
    assert!(text.contains("verdict: INCOMPLETE"), "{text}");
    // check's own reason, in a few words, not the test suite's sentence
    // (issue 39, item 5: it was 900 characters about "these tests").
    let reason = text
        .lines()
        .find(|l| l.contains("no official 2026-07-28 schema"))
        .unwrap_or_default();
    assert!(reason.len() < 500, "{} characters: {reason}", reason.len());
    assert!(
        !text.contains("these tests") && !text.contains("run the tests"),
        "{text}"
    );
}

#[test]
fn a_failing_should_alone_keeps_exit_code_0() {
    // The server answers and exits at end-of-file, but the shell around it
    // lives on: only eof.exits, a SHOULD, fails.
    let script = format!("{} serve; exec sleep 60", fixture::bin());
    let (code, out, _) =
        fixture::cli(&["check", "--timeout-ms", "1500", "--", "sh", "-c", &script]);
    assert_eq!(code, 0, "{out}");
    let fails: Vec<&str> = out.lines().filter(|l| l.starts_with("fail ")).collect();
    assert_eq!(fails.len(), 2, "the row and its details: {out}");
    assert!(fails.iter().all(|l| l.contains("eof.exits")), "{out}");
    assert!(out.contains("verdict: PASS"), "{out}");
}

#[test]
fn schema_flag_names_the_file() {
    use mcp_reference_testkit::schema::{missing, spec_dir};
    let file = spec_dir().map(|dir| dir.join("2026-07-28").join("schema.json"));
    let file = file
        .filter(|f| f.is_file())
        .unwrap_or_else(|| panic!("{}", missing(None)));
    let mut options = Options::new(fixture::faulty(&["--no-result-type"]));
    options.schema = Some(file);
    let report = check::run(&options).expect("a report");
    assert_fails_exactly(&report, &["discover.result", "stdout.schema"]);
}

/// `check` with no arguments: exit 2 and one sentence that shows where the
/// server's command goes.
#[test]
fn no_arguments_get_one_sentence_naming_the_command_line() {
    let (code, out, err) = fixture::cli(&["check"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("mcp-reference: check needs the server's command after `--`: ")
            && err.contains("mcp-reference check [OPTIONS] -- CMD [ARGS...]"),
        "{err}"
    );
}

/// A command given without `--`: exit 2 and one sentence with the
/// corrected command line, options kept before `--`.
#[test]
fn a_command_without_dashes_gets_the_corrected_command_line() {
    let (code, out, err) = fixture::cli(&["check", "./server"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(
        err.trim_end(),
        "mcp-reference: the server's command goes after `--`: mcp-reference check -- ./server"
    );
    let (code, _, err) = fixture::cli(&["check", "--json", "./server", "--flag"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err.trim_end(),
        "mcp-reference: the server's command goes after `--`: mcp-reference check --json -- ./server --flag"
    );
}

/// A server whose `server/discover` handler never returns (errors found
/// before it, such as -32022, are still answered): the valid request of
/// `stateless.fresh-and-later` gets no reply in either order, so there is
/// nothing to compare. The check says NOT RUN and why (it said PASS,
/// judging "no reply" equal to "no reply").
#[test]
fn a_discover_that_never_returns_leaves_statelessness_not_run() {
    let report = run(
        fixture::faulty(&["--drop", "server/discover"]),
        Duration::from_secs(2),
    );
    let outcome = report.outcome("stateless.fresh-and-later");
    let Some(Outcome::NotRun(why)) = outcome else {
        panic!("{outcome:?}\n{}", report.table())
    };
    assert!(why.contains("there is no answer to compare"), "{why}");
    assert_ne!(report.verdict(), Verdict::Pass);
}

/// The reference with its legacy path on, checked with a schema folder
/// that holds only 2026-07-28: the legacy `initialize` results cannot be
/// validated, so `stdout.schema` is not run and says which lines went
/// unjudged (it passed before, counting them as valid); with the whole
/// folder it passes.
#[test]
fn legacy_results_without_their_schema_leave_stdout_schema_not_run() {
    let spec = mcp_reference_testkit::schema::spec_dir().expect("MCP_SPEC_DIR names the schemas");
    let dir = std::env::temp_dir().join(format!("mcp-check-modern-only-{}", std::process::id()));
    let modern = dir.join("2026-07-28");
    std::fs::create_dir_all(&modern).expect("a scratch folder");
    std::fs::copy(
        spec.join("2026-07-28/schema.json"),
        modern.join("schema.json"),
    )
    .expect("the 2026-07-28 schema");
    let mut command = fixture::reference();
    command.extend(["--legacy".into(), "2025-11-25".into()]);
    let mut options = Options::new(command.clone());
    options.timeout = PATIENT;
    options.schema = Some(modern.join("schema.json"));
    let report = check::run(&options).expect("a report");
    let outcome = report.outcome("stdout.schema");
    let Some(Outcome::NotRun(why)) = outcome else {
        panic!("{outcome:?}\n{}", report.table())
    };
    assert!(
        why.contains("initialize result(s) of version \"2025-11-25\""),
        "{why}"
    );
    assert_eq!(report.verdict(), Verdict::Incomplete);
    let _ = std::fs::remove_dir_all(&dir);
    let mut options = Options::new(command);
    options.timeout = PATIENT;
    options.schema = Some(spec.join("2026-07-28/schema.json"));
    let report = check::run(&options).expect("a report");
    assert_eq!(
        report.outcome("stdout.schema"),
        Some(&Outcome::Pass),
        "{}",
        report.table()
    );
}

/// The catalog's order template and prompt with other data (one order of
/// the user, none of anyone else): reading the fixture's "foreign" ids
/// reads nothing that exists, so the book-orders checks cannot show that
/// another user's order is withheld. They are not run, and say why (they
/// passed before: the template string was taken for the fixture's data).
#[test]
fn the_template_with_other_data_leaves_the_book_orders_checks_not_run() {
    let mut config: serde_json::Value = serde_json::from_slice(
        &std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../vectors/configs/catalog.json"),
        )
        .expect("the catalog fixture"),
    )
    .expect("JSON");
    config["orders"] = serde_json::json!([{
        "order_id": "C-1", "owner": "mira", "status": "processing",
        "as_of": "2026-09-14T00:00:00Z", "source_version": "other-v1"
    }]);
    let path =
        std::env::temp_dir().join(format!("mcp-check-other-data-{}.json", std::process::id()));
    std::fs::write(&path, config.to_string()).expect("a scratch file");
    let mut options = Options::new(fixture::faulty(&[]));
    options.timeout = PATIENT;
    options
        .env
        .push(("MCP_REFERENCE_CONFIG".into(), path.clone().into_os_string()));
    let report = check::run(&options).expect("a report");
    let _ = std::fs::remove_file(&path);
    for id in [
        "resources.order-not-yours",
        "completion.own-ids-only",
        "completion.foreign-as-none",
    ] {
        let outcome = report.outcome(id);
        let Some(Outcome::NotRun(why)) = outcome else {
            panic!("{id}: {outcome:?}\n{}", report.table())
        };
        assert!(why.contains("vectors/configs/catalog.json"), "{id}: {why}");
    }
    assert!(report.failed().is_empty(), "{}", report.table());
    assert_eq!(report.verdict(), Verdict::Incomplete);
}

/// serverInfo with a name and no version (a surviving mutant of
/// `discover`'s judgement, `&&` read as `||`, passed it: no fault had
/// one): the SHOULD check fails, and so does the schema, which requires
/// an Implementation's version.
#[test]
fn server_info_without_a_version_fails_server_info() {
    let report = run(fixture::faulty(&["--server-info-without-version"]), PATIENT);
    assert_fails_exactly(&report, &["discover.server-info", "stdout.schema"]);
}
