//! The official MCP Python SDK (`mcp` 2.3.0) as a real client judged by
//! `mcp-reference judge --config data/conformance.json`, over stdio (the
//! SDK spawns `judge --report FILE`; the report is final when its stdin
//! closes) and over Streamable HTTP (`judge --http 127.0.0.1:0 --report
//! FILE`, SIGTERM once the client is done, then the final report):
//! `scripts/judge_sdk_client.py` does what the SDK does to connect, lists
//! and calls tools (one of them input-required, answered through
//! elicitation), gets a prompt and reads a resource.
//!
//! The verdict is not asserted to be PASS: each binding's report is
//! compared with the committed expectation `tests/judge_expected/python-sdk.json`
//! (the verdict, and every rule's status, `pass`, `fail` or `not-run`,
//! each one that is not `pass` with a one-sentence `why` naming the rule's
//! statement id). A rule a real client breaks is then a committed
//! expectation, and a change of any status, either way, fails here showing
//! both. The report must also be well formed: the same rules as the
//! expectation, no more and no fewer, and `client` holding the `clientInfo`
//! the SDK sends.
//!
//! The SDK is not a Rust dependency: `.ci/run` installs it in a virtual
//! environment under `target/py-mcp` and sets `MCP_SDK_PYTHON`
//! (`support/python_sdk.rs`: without it the test says so and does nothing,
//! except under `CI`, where a missing SDK fails it). Reports are written
//! under the system's temporary folder and removed.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

#[path = "support/http_server.rs"]
mod http_server;
#[path = "support/python_sdk.rs"]
mod python_sdk;
use http_server::{BIN, Server};
use python_sdk::{python, run_client};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn config_path() -> String {
    root()
        .join("data/conformance.json")
        .to_string_lossy()
        .into_owned()
}

fn script() -> OsString {
    root().join("scripts/judge_sdk_client.py").into()
}

/// A report file under the temporary folder, removed when dropped.
struct ReportFile(PathBuf);

impl ReportFile {
    fn new(binding: &str) -> ReportFile {
        let name = format!(
            "mcp-reference-judge-sdk-{}-{binding}.json",
            std::process::id()
        );
        let path = std::env::temp_dir().join(name);
        let _ = std::fs::remove_file(&path);
        ReportFile(path)
    }

    fn arg(&self) -> String {
        self.0.to_string_lossy().into_owned()
    }

    /// The report as JSON.
    fn read(&self) -> Value {
        let text = std::fs::read_to_string(&self.0)
            .unwrap_or_else(|e| panic!("the report {}: {e}", self.0.display()));
        serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("the report is not JSON ({e}): {text}"))
    }
}

impl Drop for ReportFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The committed expectation.
fn expected() -> Value {
    let path = root().join("tests/judge_expected/python-sdk.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The `clientInfo` the SDK sends when the client names none (as the
/// script does), asked of the SDK itself and dumped as its session dumps
/// it for the wire.
fn sdk_client_info(python: &Path) -> Value {
    let out = Command::new(python)
        .args([
            "-c",
            "import json; from mcp.client.session import DEFAULT_CLIENT_INFO as i; \
             print(json.dumps(i.model_dump(by_alias=True, mode='json', exclude_none=True)))",
        ])
        .output()
        .expect("the SDK's Python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

/// The report's verdict and each rule's status (id -> status).
fn observed(report: &Value) -> Value {
    let rules: BTreeMap<String, Value> = report["rules"]
        .as_array()
        .expect("the report has rules")
        .iter()
        .map(|r| {
            let id = r["id"].as_str().expect("a rule has an id").to_owned();
            (id, r["status"].clone())
        })
        .collect();
    json!({ "verdict": report["verdict"], "rules": rules })
}

/// The expectation of a binding in the same shape: its `why`s left out.
fn statuses(expected: &Value) -> Value {
    let rules: BTreeMap<String, Value> = expected["rules"]
        .as_object()
        .expect("the expectation has rules")
        .iter()
        .map(|(id, e)| (id.clone(), e["status"].clone()))
        .collect();
    json!({ "verdict": expected["verdict"], "rules": rules })
}

/// Checks the final report of `binding` against the expectation.
fn check(binding: &str, report: &Value, python: &Path) {
    let all = expected();
    let want = &all["bindings"][binding];
    assert!(want.is_object(), "the expectation has no binding {binding}");
    let shown = serde_json::to_string_pretty(report).unwrap_or_default();

    // Well formed: the binding, an ended session, the client as sent.
    assert_eq!(report["binding"], binding, "{shown}");
    assert!(
        report["ended"].is_string(),
        "the session never ended:\n{shown}"
    );
    let info = sdk_client_info(python);
    assert_eq!(
        report["client"], info,
        "client is not the SDK's clientInfo as sent:\n{shown}"
    );
    assert_eq!(
        all["client"], info["name"],
        "the expectation names another client"
    );

    // The same rules, no more and no fewer.
    let mut in_report: Vec<String> = report["rules"]
        .as_array()
        .expect("the report has rules")
        .iter()
        .map(|r| r["id"].as_str().expect("a rule has an id").to_owned())
        .collect();
    let in_report_len = in_report.len();
    in_report.sort();
    in_report.dedup();
    assert_eq!(
        in_report.len(),
        in_report_len,
        "a rule appears twice:\n{shown}"
    );
    let in_expected: Vec<String> = want["rules"]
        .as_object()
        .expect("the expectation has rules")
        .keys()
        .cloned()
        .collect();
    let missing: Vec<_> = in_expected
        .iter()
        .filter(|i| !in_report.contains(i))
        .collect();
    let extra: Vec<_> = in_report
        .iter()
        .filter(|i| !in_expected.contains(i))
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{binding}: rules expected but not in the report: {missing:?}; in the report but not \
         expected: {extra:?}"
    );

    // Every entry that is not a pass says why in one sentence naming its
    // statement; a pass says nothing.
    for rule in report["rules"].as_array().into_iter().flatten() {
        let id = rule["id"].as_str().unwrap_or_default();
        let statement = rule["statement"].as_str().unwrap_or_default();
        let entry = &want["rules"][id];
        let why = entry["why"].as_str();
        if entry["status"] == "pass" {
            assert!(why.is_none(), "{binding} {id}: a pass carries no why");
        } else {
            let why = why.unwrap_or_else(|| panic!("{binding} {id}: no why"));
            assert!(
                why.contains(statement) && why.ends_with('.') && !why.contains(". "),
                "{binding} {id}: the why is not one sentence naming {statement}: {why}"
            );
        }
    }

    // The verdict and the statuses.
    let got = observed(report);
    let expected = statuses(want);
    if got != expected {
        let differing: Vec<String> = report["rules"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|r| {
                let id = r["id"].as_str().unwrap_or_default();
                want["rules"][id]["status"] != r["status"]
            })
            .map(|r| {
                format!(
                    "  {}: expected {}, got {} ({})",
                    r["id"],
                    want["rules"][r["id"].as_str().unwrap_or_default()]["status"],
                    r["status"],
                    r["reason"]
                )
            })
            .collect();
        panic!(
            "{binding}: the judge's report differs from tests/judge_expected/python-sdk.json\n\
             verdict: expected {}, got {}\n{}\n--- expected ---\n{}\n--- got ---\n{}",
            expected["verdict"],
            got["verdict"],
            differing.join("\n"),
            serde_json::to_string_pretty(&expected).unwrap_or_default(),
            serde_json::to_string_pretty(&got).unwrap_or_default(),
        );
    }
}

#[test]
fn the_python_sdk_client_is_judged_as_expected_over_stdio() {
    let Some(python) = python() else { return };
    let report = ReportFile::new("stdio");
    let config = config_path();
    let args: Vec<OsString> = [
        script(),
        "--".into(),
        BIN.into(),
        "judge".into(),
        "--config".into(),
        config.into(),
        "--report".into(),
        report.arg().into(),
    ]
    .into();
    // The SDK closes the judge's stdin and waits for it to exit: the
    // report is final when the script returns.
    run_client(&python, &args);
    check("stdio", &report.read(), &python);
}

#[test]
fn the_python_sdk_client_is_judged_as_expected_over_http() {
    let Some(python) = python() else { return };
    let report = ReportFile::new("http");
    let config = config_path();
    let path = report.arg();
    let server = Server::start_command(
        "judge",
        "127.0.0.1:0",
        &["--config", &config, "--report", &path],
    );
    let url = server.url();
    run_client(&python, &[script(), url.into()]);
    // The report is final at SIGTERM: the graceful stop writes it last.
    server.sigterm();
    let (code, stderr) = server.exited();
    assert_eq!(code, Some(0), "judge --http after SIGTERM:\n{stderr}");
    check("http", &report.read(), &python);
}
