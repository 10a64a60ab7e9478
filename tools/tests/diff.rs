//! `mcp-reference diff`: the reference agrees with itself; each relevant
//! fault-injected fixture is found, and shrunk to a single line; a seed
//! gives the same result every time.

#[path = "support/fixture.rs"]
mod fixture;

use std::ffi::OsString;
use std::process::Command;

use mcp_reference_tools::diff::{self, Counterexample, Options};

/// Shrinking budget for the fixtures: the sequence is down to its length
/// after at most a few runs; the rest simplifies lines and configuration.
const SHRINK: u32 = 100;

fn options(command: Vec<OsString>) -> Options {
    let mut options = Options::new(command);
    options.shrink_iters = SHRINK;
    options
}

fn counterexample(flag: &str) -> Counterexample {
    let report = diff::run(&options(fixture::faulty(&[flag]))).expect("the fixture runs");
    let cx = report
        .counterexample
        .unwrap_or_else(|| panic!("{flag}: no difference found in 256 cases"));
    assert_eq!(
        cx.lines.len(),
        1,
        "{flag}: one line shows the fault, so the minimal case is one line\n{}",
        diff::DiffReport {
            command: report.command,
            seed: report.seed,
            runs: report.runs,
            counterexample: Some(cx.clone()),
        }
        .text()
    );
    cx
}

fn text(lines: &[Vec<u8>]) -> String {
    lines
        .iter()
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_reference_binary_agrees_with_the_reference_core() {
    let mut options = Options::new(fixture::reference());
    options.cases = 256;
    let report = diff::run(&options).expect("the binary runs");
    assert!(report.counterexample.is_none(), "{}", report.text());
    assert_eq!(report.runs, 257, "a first run, then one per case");
}

#[test]
fn the_unbroken_fixture_agrees_too() {
    let mut options = options(fixture::faulty(&[]));
    options.cases = 64;
    let report = diff::run(&options).expect("the fixture runs");
    assert!(report.counterexample.is_none(), "{}", report.text());
}

#[test]
fn wrong_id_is_found_and_shrunk() {
    let cx = counterexample("--wrong-id");
    assert!(
        cx.difference.starts_with("reply 1: /id/raw id"),
        "{}",
        cx.difference
    );
}

#[test]
fn answered_notifications_are_found_and_shrunk() {
    let cx = counterexample("--answer-notifications");
    assert_eq!(
        cx.difference,
        "the command wrote 1 reply where the reference wrote 0"
    );
    let line: serde_json::Value = serde_json::from_slice(&cx.lines[0]).expect("a JSON line");
    assert!(
        line.get("method").is_some() && line.get("id").is_none(),
        "{line}"
    );
}

#[test]
fn a_skipped_version_check_is_found_and_shrunk() {
    let cx = counterexample("--skip-version-check");
    assert!(
        text(&cx.reference).contains("-32022"),
        "{}",
        text(&cx.reference)
    );
    assert!(
        !text(&cx.command).contains("-32022"),
        "{}",
        text(&cx.command)
    );
}

#[test]
fn a_missing_result_type_is_found_and_shrunk() {
    let cx = counterexample("--no-result-type");
    assert!(
        cx.difference
            .ends_with("/result/resultType: missing from the command's reply"),
        "{}",
        cx.difference
    );
}

#[test]
fn a_forbidden_leak_is_found_and_shrunk() {
    let cx = counterexample("--leak-forbidden");
    // The reference hides the order; the command shows it.
    assert!(
        text(&cx.reference).contains(r#""isError":true"#),
        "{}",
        text(&cx.reference)
    );
    assert!(
        text(&cx.command).contains("structuredContent"),
        "{}",
        text(&cx.command)
    );
    // The order exists in the configuration and belongs to someone else.
    let user = cx.config["user"].as_str().expect("a user");
    let structured: serde_json::Value =
        serde_json::from_slice(&cx.command[0]).expect("a JSON reply");
    let id = &structured["result"]["structuredContent"]["order_id"];
    let order = cx.config["orders"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|o| &o["order_id"] == id)
        .expect("the leaked order is in the configuration");
    assert_ne!(order["owner"], user);
}

#[test]
fn replies_dropped_at_eof_are_found_and_shrunk() {
    let cx = counterexample("--drop-at-eof");
    assert_eq!(
        cx.difference,
        "the command wrote 0 replies where the reference wrote 1"
    );
}

#[test]
fn a_log_line_on_stdout_is_found_and_shrunk() {
    let cx = counterexample("--log-on-stdout");
    assert_eq!(cx.difference, "reply 1: the command's line is not JSON");
}

#[test]
fn the_same_seed_gives_the_same_counterexample() {
    let run = |seed: u64| {
        let mut options = options(fixture::faulty(&["--no-result-type"]));
        options.seed = seed;
        options.shrink_iters = 50;
        let report = diff::run(&options).expect("the fixture runs");
        let cx = report.counterexample.expect("a difference");
        (report.runs, cx.config, cx.lines, cx.difference)
    };
    assert_eq!(run(7), run(7));
}

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(fixture::bin())
        .args(args)
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_exit_codes() {
    let (code, out, _) = cli(&["diff", "--cases", "16", "--", &fixture::bin(), "serve"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("no difference found\n"), "{out}");

    let faulty = fixture::faulty_server();
    let faulty = faulty.to_str().expect("a UTF-8 path");
    let (code, out, _) = cli(&[
        "diff",
        "--shrink-iters",
        "20",
        "--",
        faulty,
        "--log-on-stdout",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("DIFFERENCE: reply 1: the command's line is not JSON"),
        "{out}"
    );
    assert!(out.contains("  1> {"), "the input is shown: {out}");
    assert!(
        out.contains("  1< faulty_server: starting up"),
        "both replies are shown: {out}"
    );

    let (code, out, err) = cli(&["diff", "--", "/nonexistent/server"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err.trim(),
        "mcp-reference diff: cannot start /nonexistent/server: no such program"
    );
}

#[test]
fn an_inherited_user_does_not_override_the_configuration() {
    // MCP_REFERENCE_USER would make `serve` answer as another user than the
    // configuration's; diff removes it from the command's environment.
    let out = Command::new(fixture::bin())
        .args(["diff", "--cases", "64", "--", &fixture::bin(), "serve"])
        .env("MCP_REFERENCE_USER", "someone-else")
        .env_remove("MCP_REFERENCE_CONFIG")
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
}
