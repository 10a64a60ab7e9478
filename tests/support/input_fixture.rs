//! The multi round-trip fixture of `tests/mrtr.rs` and
//! `tests/mrtr_state_machine.rs`: input targets of every shape (rows I1 to
//! I13 of docs/behavior.md), for a given user and key.

use mcp_reference::Config;
use serde_json::json;

/// The lifetime of the fixture's states, in seconds.
pub(crate) const TTL: u64 = 60;

/// A configuration of its own: a two-round tool with arguments and an
/// optional input, a one-round tool without state, a prompt with state;
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
                 "rounds": [[elicit("ok", "ok", "boolean")]], "result": "state-ok"}
            ],
            "prompts": [
                {"name": "brief", "description": "a prompt", "state": true, "arguments": ["topic"],
                 "rounds": [[elicit("ctx", "ctx", "string")]], "result": "brief text"}
            ]
        }
    });
    Config::from_json(config.to_string().as_bytes()).unwrap()
}
