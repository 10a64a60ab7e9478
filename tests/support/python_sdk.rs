//! The official MCP Python SDK (`mcp` 2.3.0) for the tests that run it as a
//! real client (`tests/sdk_http.rs`, `tests/sdk_catalog.rs`, `tests/oidc.rs`), through
//! `#[path]`: the Python that has it, from `MCP_SDK_PYTHON` or the virtual
//! environment `.ci/run` builds in `target/py-mcp`.
//!
//! Without it a test says so and does nothing, except under `CI`, where a
//! missing SDK fails it: CI never passes a check it could not run. The
//! saying is [`skip`], shared with `support/oidc.rs`: a line on the
//! terminal whatever the test harness captures, with the count of tests
//! skipped so far in this test binary.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Whether this is a CI run: `CI` set to anything but empty, `0` or
/// `false` (CI services set `CI=true`).
pub(crate) fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false"))
}

/// The test now running could not run for want of `need` (`install` says
/// how to get it). Under CI that is a failure (a panic naming it); by
/// hand, one line straight to stderr, past the harness's capture, so that
/// `cargo test` shows it among the `ok` lines: the test's name, the count
/// of tests skipped so far in this binary, what is missing and how to
/// install it (issue 39, item 4: before, a skipped test printed `ok` and
/// said so only under `--nocapture`).
pub(crate) fn skip(need: &str, install: &str, ci: bool) {
    assert!(
        !ci,
        "CI: {need} is missing, so this test cannot run: {install}"
    );
    static SKIPPED: AtomicUsize = AtomicUsize::new(0);
    let count = SKIPPED.fetch_add(1, Ordering::Relaxed) + 1;
    let name = std::thread::current().name().unwrap_or("a test").to_owned();
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {name} (skipped in this test binary: {count}): no {need}; install: {install}"
    );
}

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
        skip(
            &format!("Python with the mcp package at {}", candidate.display()),
            "python3 -m venv target/py-mcp && target/py-mcp/bin/pip install mcp==2.3.0 (.ci/run \
             does it and sets MCP_SDK_PYTHON)",
            in_ci(),
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
