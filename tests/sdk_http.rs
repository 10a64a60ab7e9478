//! The official MCP Python SDK (`mcp` 2.3.0) as a real client of
//! `serve --http`, in its default (auto) mode: `scripts/sdk_http_client.py`
//! lists the tools and calls `get_order` for A-104 (the snapshot) and B-205
//! (the forbidden tool error).
//!
//! The SDK is not a Rust dependency: `.ci/run` installs it in a virtual
//! environment under `target/py-mcp` and sets `MCP_SDK_PYTHON`. Without it
//! the test says so and does nothing, except under `CI`, where a missing
//! SDK fails it: CI never passes a check it could not run.

use std::path::PathBuf;
use std::process::{Command, Stdio};

#[path = "support/http_server.rs"]
mod http_server;
use http_server::Server;

fn python() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidate = std::env::var_os("MCP_SDK_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/py-mcp/bin/python"));
    let has_sdk = Command::new(&candidate)
        .args(["-c", "import mcp.client.client"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    has_sdk.then_some(candidate)
}

#[test]
fn the_python_sdk_client_over_http() {
    let Some(python) = python() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "no Python with the mcp package: .ci/run installs it in target/py-mcp and sets MCP_SDK_PYTHON"
        );
        eprintln!(
            "skipped: no Python with the mcp package (python3 -m venv target/py-mcp && target/py-mcp/bin/pip install mcp==2.3.0)"
        );
        return;
    };
    let server = Server::start(&[]);
    let url = server.url();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/sdk_http_client.py");
    let out = Command::new(&python)
        .arg(script)
        .arg(&url)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    drop(server);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the SDK client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(r#""protocolVersion": "2026-07-28""#),
        "{stdout}"
    );
}
