//! The gate itself, built in a target folder of its own (a second or two:
//! it has no dependency): without the schemas a *test* build stops with the
//! recipe, said once, naming the pinned commit, while a plain build, a
//! check and a doc build go through (issue 49, item 1: `cargo build
//! --workspace` stopped too); with the schemas (the folder this test run
//! found) a test build goes through.

use std::path::PathBuf;
use std::process::{Command, Output};

/// `cargo SUBCOMMAND -p mcp-reference-schema-gate` in a target folder of
/// its own, with `MCP_SPEC_DIR` set to `spec_dir`.
fn cargo(subcommand: &[&str], spec_dir: &str) -> Output {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("schema-gate");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(subcommand)
        .args(["--quiet", "-p", "mcp-reference-schema-gate", "--target-dir"])
        .arg(&target)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("MCP_SPEC_DIR", spec_dir)
        .env_remove("RUSTC_WORKSPACE_WRAPPER");
    command.output().expect("cargo runs")
}

#[test]
fn a_missing_schema_stops_a_test_build_once_with_the_recipe() {
    for subcommand in [&["test", "--no-run"][..], &["bench", "--no-run"]] {
        let out = cargo(subcommand, "/nonexistent-spec");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{subcommand:?}: {err}");
        assert_eq!(
            err.matches("mcp-reference: no official schema at /nonexistent-spec")
                .count(),
            1,
            "{subcommand:?}: {err}"
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
}

/// A build that runs no test needs no schema: it goes through, and says
/// nothing of them (the gate's script runs again each time while they are
/// missing, so the `cargo test --no-run` after it still stops).
#[test]
fn a_build_that_runs_no_test_needs_no_schema() {
    for subcommand in [
        &["build"][..],
        &["build", "--release"],
        &["check"],
        &["doc", "--no-deps"],
    ] {
        let out = cargo(subcommand, "/nonexistent-spec");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{subcommand:?}: {err}");
        assert!(!err.contains("no official schema"), "{subcommand:?}: {err}");
    }
    let out = cargo(&["test", "--no-run"], "/nonexistent-spec");
    assert!(
        !out.status.success(),
        "the test build after them still stops"
    );
}

#[test]
fn the_schemas_of_this_run_let_a_test_build_through() {
    let dir = mcp_reference_schema_gate::spec_dir().expect("this run has the schemas");
    let out = cargo(&["test", "--no-run"], &dir.to_string_lossy());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
