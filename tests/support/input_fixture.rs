//! The multi round-trip fixture of `tests/mrtr.rs`,
//! `tests/mrtr_state_machine.rs` and `tests/judge_state_machine.rs`: input targets of every shape (rows I1 to
//! I15 of docs/behavior.md: URL-mode elicitation, sampling needing
//! `sampling.tools` and `sampling.context`), for a given user and key.

use mcp_reference::Config;
use serde_json::json;

/// The lifetime of the fixture's states, in seconds.
pub(crate) const TTL: u64 = 60;

/// The input targets of [`fixture`], as (method, name): a two-round tool
/// with arguments, a one-round tool without state, a one-round tool with
/// state, a prompt with state, a two-round tool of URL mode and
/// sub-capability sampling, a one-round tool of optional inputs in either
/// mode. The state-machine tests pick among them by index.
#[allow(dead_code)]
pub(crate) const TARGETS: [(&str, &str); 6] = [
    ("tools/call", "plan"),
    ("tools/call", "greet"),
    ("tools/call", "confirm"),
    ("prompts/get", "brief"),
    ("tools/call", "connect"),
    ("tools/call", "sample"),
];

/// A configuration of its own: a two-round tool with arguments and an
/// optional input, a one-round tool without state, a prompt with state,
/// a two-round tool of URL mode and sub-capability sampling, a one-round
/// tool of optional inputs in either mode;
/// `user` and the key seed vary.
pub(crate) fn fixture(user: &str, key_byte: u8) -> Config {
    use base64::Engine as _;
    let key = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode([key_byte; 32]);
    let elicit = |key: &str, prop: &str, typ: &str| {
        json!({"key": key, "kind": "elicitation", "params": {"message": "m",
            "requestedSchema": {"type": "object", "properties": {prop: {"type": typ}}, "required": [prop]}}})
    };
    let sampling = json!({"key": "s", "kind": "sampling", "optional": true,
        "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "q"}}], "maxTokens": 5}});
    let roots = json!({"key": "r", "kind": "roots", "params": {}});
    // Row I14, I15: a URL-mode elicitation, and sampling requests that
    // need sampling.tools and sampling.context.
    let url = |key: &str, optional: bool| {
        json!({"key": key, "kind": "elicitation", "optional": optional, "params": {"mode": "url",
            "message": "open the page", "url": "https://example.com/step"}})
    };
    let message = json!([{"role": "user", "content": {"type": "text", "text": "q"}}]);
    let with_tools = json!({"key": "t", "kind": "sampling", "params": {"messages": message,
        "maxTokens": 5, "tools": [{"name": "lookup", "inputSchema": {"type": "object"}}]}});
    let with_context = json!({"key": "c", "kind": "sampling", "optional": true, "params": {"messages": message,
        "maxTokens": 5, "includeContext": "thisServer"}});
    let config = json!({
        "user": user,
        "input_required": {
            "state_key": key,
            "state_ttl_seconds": TTL,
            "tools": [
                {"name": "plan", "description": "two rounds", "state": true, "arguments": ["topic", "depth"],
                 "rounds": [[elicit("name", "name", "string"), sampling], [roots, elicit("ok", "ok", "boolean")]],
                 "result": "planned"},
                {"name": "greet", "description": "one round", "arguments": ["topic"],
                 "rounds": [[elicit("name", "name", "string")]], "result": "hello"},
                {"name": "confirm", "description": "one round, state", "state": true,
                 "rounds": [[elicit("ok", "ok", "boolean")]], "result": "state-ok"},
                {"name": "connect", "description": "URL mode, then tool-enabled sampling", "state": true,
                 "rounds": [[url("u", false), elicit("name", "name", "string")], [with_tools, with_context]],
                 "result": "connected"},
                {"name": "sample", "description": "either mode, optional", "arguments": ["topic"],
                 "rounds": [[url("u", true), {"key": "f", "kind": "elicitation", "optional": true,
                     "params": {"mode": "form", "message": "m", "requestedSchema": {"type": "object",
                         "properties": {"name": {"type": "string"}}}}}]], "result": "sampled"}
            ],
            "prompts": [
                {"name": "brief", "description": "a prompt", "state": true, "arguments": ["topic"],
                 "rounds": [[elicit("ctx", "ctx", "string")]], "result": "brief text"}
            ]
        }
    });
    Config::from_json(config.to_string().as_bytes()).unwrap()
}
