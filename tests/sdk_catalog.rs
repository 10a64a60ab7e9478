//! The official MCP Python SDK (`mcp` 2.3.0) as a real client of the
//! reference's resources, prompts and completion, over stdio (`serve`) and
//! over Streamable HTTP (`serve --http`), with `data/config.example.json`:
//! `scripts/sdk_catalog_client.py` lists resources and templates, reads a
//! policy, the binary resource (its blob decoded is the configured bytes)
//! and the order template for the user's own order, is refused another
//! user's order (an `MCPError` with `-32602`), lists prompts and gets
//! `reply_to_customer` with its arguments, and completes `order_id` (only
//! the user's own ids).
//!
//! What the script expects is read here from the configuration file (the
//! data, not a rule): its first text and first binary resource, the order
//! template, whose orders are the user's and whose are not.
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
        .join("data/config.example.json")
        .to_string_lossy()
        .into_owned()
}

/// What the script is to expect, from the configuration file's data.
fn expectations() -> Value {
    let text = std::fs::read_to_string(config_path()).expect("data/config.example.json");
    let config: Value = serde_json::from_str(&text).expect("the example configuration is JSON");
    let resources = config["resources"].as_array().cloned().unwrap_or_default();
    let first_with = |key: &str| {
        resources
            .iter()
            .find(|r| r.get(key).is_some())
            .unwrap_or_else(|| panic!("the example configuration has no resource with {key}"))
            .clone()
    };
    let text_resource = first_with("text");
    let blob_resource = first_with("blob");
    let user = config["user"].as_str().unwrap_or("mira");
    let orders = config["orders"].as_array().cloned().unwrap_or_default();
    let mut own: Vec<&str> = orders
        .iter()
        .filter(|o| o["owner"] == user)
        .filter_map(|o| o["order_id"].as_str())
        .collect();
    own.sort_unstable();
    let foreign = orders
        .iter()
        .find(|o| o["owner"] != user)
        .and_then(|o| o["order_id"].as_str())
        .expect("the example configuration has another user's order");
    json!({
        "text_uri": text_resource["uri"],
        "blob_uri": blob_resource["uri"],
        "blob": blob_resource["blob"],
        "template": config["order_template"]["uriTemplate"],
        "own": own,
        "foreign": foreign,
        "prompt": "reply_to_customer",
    })
}

/// Runs the script with `target` (a URL, or `--` and a command) and
/// asserts it passed.
fn run(python: &std::path::Path, target: &[&str]) {
    let mut args: Vec<OsString> = vec![
        root().join("scripts/sdk_catalog_client.py").into(),
        expectations().to_string().into(),
    ];
    args.extend(target.iter().map(OsString::from));
    let stdout = run_client(python, &args);
    // Every step printed its answer: the last one is the template's completion.
    assert!(
        stdout.contains("completion/complete ref/resource order_id"),
        "{stdout}"
    );
}

#[test]
fn the_python_sdk_client_reads_resources_prompts_and_completions_over_stdio() {
    let Some(python) = python() else { return };
    let config = config_path();
    run(&python, &["--", BIN, "serve", "--config", &config]);
}

#[test]
fn the_python_sdk_client_reads_resources_prompts_and_completions_over_http() {
    let Some(python) = python() else { return };
    let config = config_path();
    let server = Server::start(&["--config", &config]);
    let url = server.url();
    run(&python, &[&url]);
    drop(server);
}
