//! The MCP Inspector 2.12.0's CLI as a real client judged by
//! `mcp-reference judge --config data/conformance.json` (issue 48), told
//! to speak 2026-07-28 (`--protocol-era modern`; it otherwise opens with
//! the legacy `initialize`):
//!
//! - over stdio, the Inspector spawns `judge --report FILE` for one
//!   `tools/call` of `test_simple_text` (each CLI run is one session);
//! - over Streamable HTTP, one `judge --http` serves five CLI runs in turn:
//!   `tools/list`, `tools/call` of `test_simple_text`, `tools/call` of
//!   `get_order` (whose `order_id` is an `x-mcp-header` parameter, so the
//!   `Mcp-Param-Order-Id` rule is exercised), `prompts/get` and
//!   `resources/read`; SIGTERM, then the final report.
//!
//! Each report is held by `support/judged.rs` to the committed expectation
//! `tests/judge_expected/inspector.json`: a rule the Inspector breaks is an
//! argued expectation there, not a broken build. Reports go under the
//! system's temporary folder and are removed. The Inspector comes from
//! `support/inspector.rs` (skipped by hand without it, a failure under CI).

use std::path::Path;

use serde_json::{Value, json};

#[path = "support/http_server.rs"]
mod http_server;
#[path = "support/inspector.rs"]
mod inspector;
#[path = "support/judged.rs"]
mod judged;
#[path = "support/python_sdk.rs"]
mod python_sdk;
use http_server::{BIN, Server};
use judged::ReportFile;

fn config() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/conformance.json")
        .to_string_lossy()
        .into_owned()
}

/// The `clientInfo` the Inspector's CLI sends: its name and its version.
fn client() -> Value {
    json!({"name": "inspector-cli", "version": "2.12.0"})
}

/// One CLI run of the Inspector with `args`, which must succeed.
fn cli(dir: &Path, args: &[&str]) {
    let bins = Path::new(BIN).parent().expect("the binary's folder");
    let out = inspector::command(dir, "mcp-inspector", bins)
        .arg("--cli")
        .args(args)
        .output()
        .expect("the Inspector runs");
    assert!(
        out.status.success(),
        "mcp-inspector --cli {args:?}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_inspector_is_judged_as_expected_over_stdio() {
    let Some(dir) = inspector::inspector() else {
        return;
    };
    let report = ReportFile::new("inspector", "stdio");
    let (config, path) = (config(), report.arg());
    cli(
        &dir,
        &[
            "--protocol-era",
            "modern",
            "--method",
            "tools/call",
            "--tool-name",
            "test_simple_text",
            "--",
            BIN,
            "judge",
            "--config",
            &config,
            "--report",
            &path,
        ],
    );
    judged::check("inspector.json", "stdio", &report.read(), &client());
}

#[test]
fn the_inspector_is_judged_as_expected_over_http() {
    let Some(dir) = inspector::inspector() else {
        return;
    };
    let report = ReportFile::new("inspector", "http");
    let (config, path) = (config(), report.arg());
    let server = Server::start_command(
        "judge",
        "127.0.0.1:0",
        &["--config", &config, "--report", &path],
    );
    let url = server.url();
    let runs: [&[&str]; 5] = [
        &["--method", "tools/list"],
        &["--method", "tools/call", "--tool-name", "test_simple_text"],
        &[
            "--method",
            "tools/call",
            "--tool-name",
            "get_order",
            "--tool-arg",
            "order_id=A-104",
        ],
        &[
            "--method",
            "prompts/get",
            "--prompt-name",
            "test_simple_prompt",
        ],
        &["--method", "resources/read", "--uri", "test://static-text"],
    ];
    for run in runs {
        let mut args = vec![
            url.as_str(),
            "--transport",
            "http",
            "--protocol-era",
            "modern",
        ];
        args.extend_from_slice(run);
        cli(&dir, &args);
    }
    server.sigterm();
    let (code, stderr) = server.exited();
    assert_eq!(code, Some(0), "judge --http after SIGTERM:\n{stderr}");
    judged::check("inspector.json", "http", &report.read(), &client());
}
