//! The MCP Inspector 2.12.0 and the Node.js 22 it needs, for the tests
//! that run it as a real client (`tests/readme.rs`,
//! `tests/judge_inspector.rs`), through `#[path]` (beside
//! `support/python_sdk.rs`, whose `skip` it says a missing install with).
//!
//! They come from `target/inspector` (`MCP_INSPECTOR_DIR`), where `.ci/run`
//! installs them from `scripts/inspector/package-lock.json`; without them a
//! test is skipped by hand (said, and counted) and fails under CI.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::python_sdk;

/// The folder holding the Inspector and its Node.js, or `None` (said, and
/// a failure under CI).
pub(crate) fn inspector() -> Option<PathBuf> {
    let dir = std::env::var_os("MCP_INSPECTOR_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/inspector"));
    let bin = dir.join("node_modules/.bin");
    let ok = bin.join("mcp-inspector").is_file() && bin.join("node").is_file();
    if !ok {
        python_sdk::skip(
            &format!("MCP Inspector 2.12.0 with Node.js 22 in {}", dir.display()),
            "mkdir -p target/inspector && cp scripts/inspector/package*.json target/inspector/ && \
             (cd target/inspector && npm ci) (.ci/run does it and sets MCP_INSPECTOR_DIR)",
            python_sdk::in_ci(),
        );
    }
    ok.then_some(dir)
}

/// A command run in the Inspector's folder (where `npx` finds the
/// installed package and needs no network), its Node.js first on `PATH`
/// and `bins` after it, with no configuration or user of the reference
/// inherited and stdin closed.
pub(crate) fn command(dir: &Path, program: &str, bins: &Path) -> Command {
    let path = format!(
        "{}:{}:{}",
        dir.join("node_modules/.bin").display(),
        bins.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut command = Command::new(program);
    command
        .current_dir(dir)
        .env("PATH", path)
        .env("npm_config_yes", "true")
        .env("npm_config_offline", "true")
        .env("MCP_INSPECTOR_SECRET_STORE", "memory")
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .stdin(Stdio::null());
    command
}
