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
//! by `support/judged.rs` (the verdict and every rule's status, each one
//! not `pass` argued; the same rules; `client` holding the `clientInfo`
//! the SDK sends, asked of the SDK itself).
//!
//! The SDK is not a Rust dependency: `.ci/run` installs it in a virtual
//! environment under `target/py-mcp` and sets `MCP_SDK_PYTHON`
//! (`support/python_sdk.rs`: without it the test says so and does nothing,
//! except under `CI`, where a missing SDK fails it). Reports are written
//! under the system's temporary folder and removed.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

#[path = "support/http_server.rs"]
mod http_server;
#[path = "support/judged.rs"]
mod judged;
#[path = "support/python_sdk.rs"]
mod python_sdk;
use http_server::{BIN, Server};
use judged::ReportFile;
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

/// Checks the final report of `binding` against the expectation.
fn check(binding: &str, report: &Value, python: &Path) {
    judged::check("python-sdk.json", binding, report, &sdk_client_info(python));
}

#[test]
fn the_python_sdk_client_is_judged_as_expected_over_stdio() {
    let Some(python) = python() else { return };
    let report = ReportFile::new("python-sdk", "stdio");
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
    let report = ReportFile::new("python-sdk", "http");
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
