//! The official MCP Python SDK (`mcp` 2.3.0) as a real client of the
//! reference's multi round-trip requests and request-scoped progress, over
//! stdio (`serve`) and over Streamable HTTP (`serve --http`), with the
//! conformance configuration `data/conformance.json`:
//! `scripts/sdk_mrtr_client.py` calls a multi-round tool (the SDK answers
//! each `InputRequiredResult`'s elicitation through its callback and
//! retries with the echoed `requestState` until the call completes), gets a
//! prompt that asks for input, calls a one-round elicitation tool accepting
//! and then declining (a declined answer never gets the accepted result),
//! and calls a tool with a progress callback (progress before the result,
//! increasing).
//!
//! Which tools and prompt those are is read here from the configuration
//! file (the data, not a rule): the input-required tool with the most
//! rounds, the first input-required prompt, a one-round tool that asks
//! through elicitation alone, and the tool that reports progress.
//!
//! The SDK is not a Rust dependency: `.ci/run` installs it in a virtual
//! environment under `target/py-mcp` (`support/python_sdk.rs`).

use std::ffi::OsString;
use std::path::PathBuf;

use serde_json::{Value, json};

#[path = "support/http_server.rs"]
mod http_server;
#[path = "support/python_sdk.rs"]
mod python_sdk;
use http_server::{BIN, Server};
use python_sdk::{python, run_client};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn config_path() -> String {
    root()
        .join("data/conformance.json")
        .to_string_lossy()
        .into_owned()
}

/// What the script is to expect, from the configuration file's data.
fn expectations() -> Value {
    let text = std::fs::read_to_string(config_path()).expect("data/conformance.json");
    let config: Value = serde_json::from_str(&text).expect("the conformance configuration is JSON");
    let input = &config["input_required"];
    let tools = input["tools"].as_array().cloned().unwrap_or_default();
    let rounds = |t: &Value| t["rounds"].as_array().map_or(0, Vec::len);
    let multi_round = tools
        .iter()
        .max_by_key(|t| rounds(t))
        .filter(|t| rounds(t) >= 2)
        .expect("the conformance configuration has a tool of two rounds or more");
    let elicitation_only = tools
        .iter()
        .find(|t| {
            rounds(t) == 1
                && t["rounds"][0]
                    .as_array()
                    .is_some_and(|r| r.len() == 1 && r[0]["kind"] == "elicitation")
        })
        .expect("the conformance configuration has a one-round elicitation tool");
    let prompt = input["prompts"][0]["name"]
        .as_str()
        .expect("the conformance configuration has an input-required prompt");
    let progress = "test_tool_with_progress";
    assert!(
        text.contains(&format!("\"{progress}\"")),
        "data/conformance.json offers no {progress}"
    );
    json!({
        "multi_round": multi_round["name"],
        "elicitation": elicitation_only["name"],
        "prompt": prompt,
        "progress": progress,
    })
}

/// Runs the script with `target` (a URL, or `--` and a command) and
/// asserts it passed.
fn run(python: &std::path::Path, target: &[&str]) {
    let mut args: Vec<OsString> = vec![
        root().join("scripts/sdk_mrtr_client.py").into(),
        expectations().to_string().into(),
    ];
    args.extend(target.iter().map(OsString::from));
    let stdout = run_client(python, &args);
    // Every step printed its answer: the last one is the declined call's.
    assert!(stdout.contains("(declined)"), "{stdout}");
}

#[test]
fn the_python_sdk_client_completes_rounds_and_progress_over_stdio() {
    let Some(python) = python() else { return };
    let config = config_path();
    run(&python, &["--", BIN, "serve", "--config", &config]);
}

#[test]
fn the_python_sdk_client_completes_rounds_and_progress_over_http() {
    let Some(python) = python() else { return };
    let config = config_path();
    let server = Server::start(&["--config", &config]);
    let url = server.url();
    run(&python, &[&url]);
    drop(server);
}
