//! Helpers shared by the integration tests: building request lines, asking
//! the core, and validating every reply against the official schema.

#![allow(dead_code)]

use std::sync::OnceLock;

use mcp_reference::Server;
use mcp_reference_testkit::schema::Schema;
use serde_json::{Value, json};

/// The 2026-07-28 schema, loaded once. Its absence is a failure, not a skip:
/// a reference whose replies are not checked against the schema proves
/// nothing.
pub(crate) fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| Schema::find("2026-07-28").unwrap_or_else(|e| panic!("{e}")))
}

/// Validates a reply to a request for `method` against the 2026-07-28 schema.
pub(crate) fn validate(method: Option<&str>, reply: &Value) {
    if let Err(e) = schema().validate_reply(method, reply) {
        panic!("{e}\nreply: {reply}");
    }
}

/// The `_meta` of a well-formed 2026-07-28 request.
pub(crate) fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// A request line.
pub(crate) fn line(id: Value, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// A `tools/call` request line.
pub(crate) fn call(id: Value, meta: Value, name: &str, arguments: Value) -> String {
    line(
        id,
        "tools/call",
        json!({"_meta": meta, "name": name, "arguments": arguments}),
    )
}

/// The core's reply to `line`, parsed; panics if there is none or it is not
/// one line of JSON.
pub(crate) fn reply(server: &Server, line: &str) -> Value {
    let out = server
        .respond(line.as_bytes())
        .unwrap_or_else(|| panic!("no reply to {line}"));
    assert_eq!(out.last(), Some(&b'\n'), "a reply ends with one newline");
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1, "one line");
    serde_json::from_slice(&out).unwrap_or_else(|e| panic!("reply is not JSON ({e}): {out:?}"))
}
