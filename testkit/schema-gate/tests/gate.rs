//! The gate itself, built in a target folder of its own (a second or two:
//! it has no dependency): without the schemas the build stops with the
//! recipe, said once, naming the pinned commit; with them (the folder this
//! test run was given) it builds.

use std::path::PathBuf;
use std::process::{Command, Output};

fn build(spec_dir: &str) -> Output {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("schema-gate");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args([
            "build",
            "--quiet",
            "-p",
            "mcp-reference-schema-gate",
            "--target-dir",
        ])
        .arg(&target)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("MCP_SPEC_DIR", spec_dir)
        .env_remove("RUSTC_WORKSPACE_WRAPPER");
    command.output().expect("cargo runs")
}

#[test]
fn a_missing_schema_stops_the_build_once_with_the_recipe() {
    let out = build("/nonexistent-spec");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert_eq!(
        err.matches("mcp-reference: no official schema at /nonexistent-spec")
            .count(),
        1,
        "{err}"
    );
    assert!(
        err.contains(mcp_reference_schema_gate::SPEC_COMMIT),
        "{err}"
    );
    assert!(err.contains("git clone --no-checkout"), "{err}");
    assert!(
        err.contains("README, \"Tests need the official schemas\""),
        "{err}"
    );
}

#[test]
fn the_schemas_of_this_run_let_it_build() {
    let dir = std::env::var("MCP_SPEC_DIR").expect("MCP_SPEC_DIR (.cargo/config.toml sets it)");
    let out = build(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
