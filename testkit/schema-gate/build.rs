//! Stops the build when the official schemas are missing: one message, at
//! the start of `cargo test`, instead of a long build and a failure per
//! test. Clippy's runs (which build dev-dependencies too) only get a
//! warning: linting needs no schema.

use std::path::PathBuf;

/// The versions whose `schema.json` the tests read.
const VERSIONS: [&str; 3] = ["2026-07-28", "2025-11-25", "2025-06-18"];

fn main() {
    println!("cargo::rerun-if-env-changed=MCP_SPEC_DIR");
    println!("cargo::rerun-if-changed=spec-commit.txt");
    let commit = include_str!("spec-commit.txt");
    let dir = std::env::var_os("MCP_SPEC_DIR").map(PathBuf::from);
    let missing: Vec<PathBuf> = match &dir {
        Some(dir) => VERSIONS
            .iter()
            .map(|v| dir.join(v).join("schema.json"))
            .filter(|p| !p.is_file())
            .collect(),
        None => vec![PathBuf::from("$MCP_SPEC_DIR (not set)")],
    };
    for path in VERSIONS
        .iter()
        .filter_map(|v| dir.as_ref().map(|d| d.join(v).join("schema.json")))
    {
        println!("cargo::rerun-if-changed={}", path.display());
    }
    if missing.is_empty() {
        return;
    }
    let place = dir.map_or_else(
        || "MCP_SPEC_DIR is not set".to_owned(),
        |d| format!("no official schema at {}", d.display()),
    );
    let sentence = format!(
        "{place} (missing: {}): the tests need the JSON Schemas of the MCP specification at \
         commit {commit}, which this repository does not hold; fetch them beside the checkout \
         with `git clone --no-checkout https://github.com/modelcontextprotocol/modelcontextprotocol \
         ../mcp-spec && git -C ../mcp-spec checkout {commit} -- schema` and run the tests with \
         `MCP_SPEC_DIR=\"$(cd ../mcp-spec/schema && pwd)\"` set (or put that schema folder at \
         ../shared/spec); README, \"Tests need the official schemas\"",
        missing
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let linting = std::env::var("RUSTC_WORKSPACE_WRAPPER").is_ok_and(|w| w.contains("clippy"));
    if linting {
        println!("cargo::warning={sentence}");
        return;
    }
    eprintln!("mcp-reference: {sentence}");
    std::process::exit(1);
}
