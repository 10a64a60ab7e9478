//! The official MCP Python SDK (`mcp` 2.3.0) for the tests that run it as a
//! real client (`tests/sdk_http.rs`, `tests/sdk_catalog.rs`, `tests/oidc.rs`), through
//! `#[path]`: the Python that has it, from `MCP_SDK_PYTHON` or the virtual
//! environment `.ci/run` builds in `target/py-mcp`.
//!
//! Without it a test says so and does nothing, except under `CI`, where a
//! missing SDK fails it: CI never passes a check it could not run.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The Python with the `mcp` package, or `None` (said on stderr) outside CI.
pub(crate) fn python() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidate = std::env::var_os("MCP_SDK_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/py-mcp/bin/python"));
    let has_sdk = Command::new(&candidate)
        .args(["-c", "import mcp.client.client"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !has_sdk {
        assert!(
            std::env::var_os("CI").is_none(),
            "no Python with the mcp package: .ci/run installs it in target/py-mcp and sets MCP_SDK_PYTHON"
        );
        eprintln!(
            "skipped: no Python with the mcp package (python3 -m venv target/py-mcp && target/py-mcp/bin/pip install mcp==2.3.0)"
        );
    }
    has_sdk.then_some(candidate)
}

/// Runs `python ARGS...` (a client script and its arguments) without the
/// configuration variables, asserts that it exited 0 and that the SDK spoke
/// 2026-07-28 (the scripts print `"protocolVersion"` first), and returns
/// its stdout.
pub(crate) fn run_client(python: &std::path::Path, args: &[std::ffi::OsString]) -> String {
    let out = Command::new(python)
        .args(args)
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .stdin(Stdio::null())
        .output()
        .expect("the Python SDK client runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "the SDK client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(r#""protocolVersion": "2026-07-28""#),
        "{stdout}"
    );
    stdout
}
