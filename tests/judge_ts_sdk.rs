//! The official MCP TypeScript SDK client (`@modelcontextprotocol/client`
//! 2.4.0, under the Node.js 22 of `node@22`) as a real client judged by
//! `mcp-reference judge --config data/conformance.json` (issue 48):
//! `scripts/judge_ts_client.mjs` connects as the SDK does for 2026-07-28
//! (version negotiation pinned to it), lists and calls tools (one of them
//! input-required, answered through elicitation), gets a prompt and reads
//! a resource.
//!
//! - Over stdio the SDK spawns the judge twice: a short-lived sibling that
//!   it probes with `server/discover` and then reaps, and the session's
//!   own child, started once the era is known. Both are the command this
//!   test gives, a `sh -c 'exec …'` that gives each judge process (the same
//!   process: `exec` keeps its pid, so the SDK's signals reach the judge)
//!   a report of its own under a temporary folder. The two reports are
//!   judged apart, in the order they were written: `stdio-probe` and
//!   `stdio` (spec 2026-07-28, basic/transports/stdio.mdx, Shutdown).
//! - Over Streamable HTTP the probe travels on the session itself:
//!   `judge --http 127.0.0.1:0 --report FILE`, SIGTERM once the client is
//!   done, then the final report.
//!
//! Each report is held by `support/judged.rs` to the committed expectation
//! `tests/judge_expected/ts-sdk.json` (the verdict and every rule's status,
//! each one not `pass` argued; a rule whose status depends on the order in
//! which two of the client's events reach the judge carries an `also`).
//! The SDK is not a Rust dependency: `.ci/run` installs it from
//! `scripts/ts-client/package-lock.json` into `target/ts-client` and sets
//! `MCP_TS_CLIENT_DIR`; without it the test says so and returns, and under
//! `CI` it fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::SystemTime;

use serde_json::{Value, json};

#[path = "support/http_server.rs"]
mod http_server;
#[path = "support/judged.rs"]
mod judged;
#[path = "support/python_sdk.rs"]
mod python_sdk;
use http_server::{BIN, Server};
use judged::ReportFile;

/// The SDK's version the expectation is of (scripts/ts-client/package.json).
const VERSION: &str = "2.4.0";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn config() -> String {
    root()
        .join("data/conformance.json")
        .to_string_lossy()
        .into_owned()
}

/// `MCP_TS_CLIENT_DIR`, holding the SDK and its Node.js, or `None` (said,
/// and a failure under CI).
fn ts_client() -> Option<PathBuf> {
    let dir = std::env::var_os("MCP_TS_CLIENT_DIR").map(PathBuf::from);
    let ok = dir.as_ref().is_some_and(|d| {
        d.join("node_modules/@modelcontextprotocol/client/package.json")
            .is_file()
            && d.join("node_modules/.bin/node").is_file()
    });
    if !ok {
        python_sdk::skip(
            &format!(
                "MCP TypeScript SDK client {VERSION} with Node.js 22 in MCP_TS_CLIENT_DIR ({})",
                dir.as_ref()
                    .map_or("not set".to_owned(), |d| d.display().to_string())
            ),
            "mkdir -p target/ts-client && cp scripts/ts-client/package*.json target/ts-client/ && \
             (cd target/ts-client && npm ci) && export MCP_TS_CLIENT_DIR=$PWD/target/ts-client \
             (.ci/run does it)",
            python_sdk::in_ci(),
        );
    }
    dir.filter(|_| ok)
}

/// The `clientInfo` the script sends: its name and the installed SDK's
/// version, which must be the one the expectation is of.
fn client(dir: &Path) -> Value {
    let path = dir.join("node_modules/@modelcontextprotocol/client/package.json");
    let text = std::fs::read_to_string(&path).expect("the SDK's package.json");
    let package: Value = serde_json::from_str(&text).expect("the SDK's package.json is JSON");
    assert_eq!(
        package["version"], VERSION,
        "MCP_TS_CLIENT_DIR holds another version of the SDK than ts-sdk.json is of"
    );
    json!({"name": "mcp-reference-ts-client", "version": VERSION})
}

/// Runs the script with `args` under the SDK's Node.js; it must succeed.
fn run_client(dir: &Path, args: &[&str]) {
    let bin = dir.join("node_modules/.bin");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new(bin.join("node"))
        .arg(root().join("scripts/judge_ts_client.mjs"))
        .args(args)
        .env("PATH", path)
        .env("MCP_TS_CLIENT_DIR", dir)
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .stdin(Stdio::null())
        .output()
        .expect("the SDK's Node.js runs");
    assert!(
        out.status.success(),
        "judge_ts_client.mjs {args:?}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A folder under the temporary folder, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The reports `judge-PID.json` in `dir`, in the order they were written.
fn reports(dir: &Path) -> Vec<Value> {
    let mut found: Vec<(SystemTime, PathBuf)> = std::fs::read_dir(dir)
        .expect("the reports' folder")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.starts_with("judge-") && name.ends_with(".json")
        })
        .map(|p| {
            (
                std::fs::metadata(&p)
                    .and_then(|m| m.modified())
                    .expect("mtime"),
                p,
            )
        })
        .collect();
    found.sort();
    found
        .iter()
        .map(|(_, p)| {
            let text = std::fs::read_to_string(p).expect("a report");
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
        })
        .collect()
}

#[test]
fn the_typescript_sdk_client_is_judged_as_expected_over_stdio() {
    let Some(dir) = ts_client() else { return };
    let client = client(&dir);
    let scratch = Scratch(std::env::temp_dir().join(format!(
        "mcp-reference-judge-ts-sdk-{}-stdio",
        std::process::id()
    )));
    let _ = std::fs::remove_dir_all(&scratch.0);
    std::fs::create_dir_all(&scratch.0).expect("the reports' folder");
    let (config, folder) = (config(), scratch.0.to_string_lossy().into_owned());
    // Each judge the SDK spawns writes its own report; `exec` keeps the
    // pid the SDK signals the judge's own.
    run_client(
        &dir,
        &[
            "--",
            "/bin/sh",
            "-c",
            r#"exec "$0" judge --config "$1" --report "$2/judge-$$.json""#,
            BIN,
            &config,
            &folder,
        ],
    );
    // The SDK reaps the probe's judge before it starts the session's, and
    // the session's has exited when the script returns.
    let reports = reports(&scratch.0);
    assert_eq!(
        reports.len(),
        2,
        "the SDK spawned {} judges, not a probe and a session: {reports:?}",
        reports.len()
    );
    assert_eq!(
        reports[0]["requests"], 1,
        "the probe's judge saw only server/discover: {}",
        reports[0]
    );
    judged::check("ts-sdk.json", "stdio-probe", &reports[0], &client);
    judged::check("ts-sdk.json", "stdio", &reports[1], &client);
}

#[test]
fn the_typescript_sdk_client_is_judged_as_expected_over_http() {
    let Some(dir) = ts_client() else { return };
    let client = client(&dir);
    let report = ReportFile::new("ts-sdk", "http");
    let (config, path) = (config(), report.arg());
    let server = Server::start_command(
        "judge",
        "127.0.0.1:0",
        &["--config", &config, "--report", &path],
    );
    let url = server.url();
    run_client(&dir, &[&url]);
    // The report is final at SIGTERM: the graceful stop writes it last.
    server.sigterm();
    let (code, stderr) = server.exited();
    assert_eq!(code, Some(0), "judge --http after SIGTERM:\n{stderr}");
    judged::check("ts-sdk.json", "http", &report.read(), &client);
}
