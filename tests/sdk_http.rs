//! The official MCP Python SDK (`mcp` 2.3.0) as a real client of
//! `serve --http`, in its default (auto) mode: `scripts/sdk_http_client.py`
//! lists the tools and calls `get_order` for A-104 (the snapshot) and B-205
//! (the forbidden tool error).
//!
//! The SDK is not a Rust dependency: `.ci/run` installs it in a virtual
//! environment under `target/py-mcp` and sets `MCP_SDK_PYTHON`
//! (`support/python_sdk.rs`: without it the test says so and does nothing,
//! except under `CI`, where a missing SDK fails it).

use std::path::PathBuf;

#[path = "support/http_server.rs"]
mod http_server;
#[path = "support/python_sdk.rs"]
mod python_sdk;
use http_server::Server;
use python_sdk::{python, run_client};

#[test]
fn the_python_sdk_client_over_http() {
    let Some(python) = python() else { return };
    let server = Server::start(&[]);
    let url = server.url();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/sdk_http_client.py");
    run_client(&python, &[script.into(), url.into()]);
    drop(server);
}

/// Item 4 of issue 39: a test that cannot run is never a silent pass:
/// under CI it is a failure naming what is missing (by hand, the skip is a
/// counted line past the harness's capture: `python_sdk::skip`).
#[test]
fn a_missing_dependency_fails_under_ci() {
    let under_ci = std::panic::catch_unwind(|| python_sdk::skip("the thing", "get it", true));
    let message = under_ci.expect_err("under CI a missing dependency fails");
    let message = message
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.starts_with("CI: the thing is missing, so this test cannot run: get it"),
        "{message}"
    );
}
