//! The `mrtr` fuzz target's check: a retry of a multi round-trip request
//! whose attacker-controlled parts, `requestState` and `inputResponses`,
//! come from the input, answered by the conformance suite's input fixtures
//! (`data/conformance.json`, embedded) and judged by
//! [`crate::model::input::check`]: the model's reply (its error, its
//! `InputRequiredResult` with a state the model's own HMAC opens, or its
//! complete result), a tool run exactly when the model says, and the same
//! bytes when the request is answered again (determinism).
//!
//! The input, byte by byte (every choice is taken modulo its list, so any
//! input decodes):
//!
//! | bytes | what |
//! | --- | --- |
//! | 1 | the target (a tool or the prompt of the fixtures) |
//! | 1 | the time of the retry: at the first round, 299 s later, 301 s later, a year later, or earlier |
//! | 1 | the capabilities declared: a subset of `elicitation`, `roots`, `sampling` (bits), or all |
//! | 1 | the state: none; the first round's state; that state with byte edits; the rest as the state string; a number; the state of another target; the state of the same target for another user |
//! | 1 | how many byte edits of the state follow (0 to 7) |
//! | 2 each | an edit: a position (modulo the state's length) and the byte put there |
//! | the rest | `inputResponses`: when it is a JSON object, as is (after the correct answers when the first byte of the rest is odd); else the correct answers of the first round, or nothing |

use std::sync::OnceLock;

use mcp_reference::{Config, Server};
use serde_json::{Value, json};

use super::Counting;
use crate::model::input;

/// The fixtures, embedded so the target reads no file.
const FIXTURES: &str = include_str!("../../../data/conformance.json");
/// The time of the first round.
const T0: u64 = 1_800_000_000;

fn servers() -> &'static (Server, Server) {
    static SERVERS: OnceLock<(Server, Server)> = OnceLock::new();
    SERVERS.get_or_init(|| {
        let config = Config::from_json(FIXTURES.as_bytes()).expect("the fixtures load");
        let other = config.clone().with_user("tomas").expect("a user");
        (Server::new(config), Server::new(other))
    })
}

fn line(
    id: u64,
    method: &str,
    name: &str,
    caps: Value,
    extra: Option<(&str, Value)>,
    state: Option<Value>,
) -> Value {
    let mut params = json!({"name": name, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": caps,
    }});
    if method == "tools/call" {
        params["arguments"] = json!({});
    }
    if let Some((k, v)) = extra {
        params[k] = v;
    }
    if let Some(s) = state {
        params["requestState"] = s;
    }
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn ask(server: &Server, request: &Value, now: u64) -> (Value, usize, Vec<u8>) {
    let mut counting = Counting::default();
    let mut out = Vec::new();
    server.respond_at(request.to_string().as_bytes(), &mut out, &mut counting, now);
    let reply = serde_json::from_slice(&out).unwrap_or(Value::Null);
    (reply, counting.ran.len(), out)
}

/// The correct answers to an `InputRequiredResult`.
fn answers(result: &Value) -> serde_json::Map<String, Value> {
    let mut out = serde_json::Map::new();
    for (key, req) in result["inputRequests"].as_object().into_iter().flatten() {
        let value = match req["method"].as_str() {
            Some("sampling/createMessage") => {
                json!({"role": "assistant", "content": {"type": "text", "text": "x"}, "model": "m"})
            }
            Some("roots/list") => json!({"roots": [{"uri": "file:///r"}]}),
            // URL mode: an accept without content (row I15).
            _ if req.pointer("/params/mode") == Some(&json!("url")) => json!({"action": "accept"}),
            _ => {
                let props = req.pointer("/params/requestedSchema/properties");
                let content: serde_json::Map<String, Value> = props
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .map(|(k, p)| {
                        let v = match p["type"].as_str() {
                            Some("boolean") => json!(true),
                            Some("integer" | "number") => json!(1),
                            _ => json!("x"),
                        };
                        (k.clone(), v)
                    })
                    .collect();
                json!({"action": "accept", "content": content})
            }
        };
        out.insert(key.clone(), value);
    }
    out
}

/// The check (see the module table).
pub fn mrtr(data: &[u8]) {
    let (server, other_user) = servers();
    let config = server.config();
    let Some(input) = config.input() else { return };
    let byte = |i: usize| usize::from(data.get(i).copied().unwrap_or(0));
    let mut targets: Vec<(&str, &str)> = input
        .tools
        .iter()
        .map(|t| ("tools/call", t.name.as_str()))
        .collect();
    targets.extend(
        input
            .prompts
            .iter()
            .map(|p| ("prompts/get", p.name.as_str())),
    );
    let (method, name) = targets[byte(0) % targets.len()];
    let now = [T0, T0 + 299, T0 + 301, T0 + 31_536_000, T0 - 1][byte(1) % 5];
    // Every combination of declared capabilities and sub-capabilities
    // (rows I3, I14): the kinds by one byte, the elicitation modes and
    // sampling's members by another.
    let caps = match byte(2) % 9 {
        8 => all_caps(),
        bits => {
            let sub = byte(2) / 9;
            let elicitation = [
                json!({}),
                json!({"form": {}}),
                json!({"url": {}}),
                json!({"form": {}, "url": {}}),
                json!({"other": {}}),
            ];
            let sampling = [
                json!({}),
                json!({"tools": {}}),
                json!({"context": {}}),
                json!({"tools": {}, "context": {}}),
            ];
            let mut c = serde_json::Map::new();
            for (bit, name, value) in [
                (1, "elicitation", elicitation.get(sub % 5).cloned()),
                (2, "roots", Some(json!({}))),
                (4, "sampling", sampling.get((sub / 5) % 4).cloned()),
            ] {
                if bits & bit != 0 {
                    c.insert(name.into(), value.unwrap_or_default());
                }
            }
            Value::Object(c)
        }
    };
    let all = all_caps();
    // The first round, with every capability, at T0.
    let (first, _, _) = ask(server, &line(1, method, name, all.clone(), None, None), T0);
    let issued = first.pointer("/result/requestState").cloned();
    let edits = byte(4) % 8;
    let mut at = 5;
    let rest_start = 5 + 2 * edits;
    let rest = data.get(rest_start.min(data.len())..).unwrap_or_default();
    let state = match byte(3) % 7 {
        0 => None,
        1 => issued.clone(),
        2 => issued.as_ref().and_then(Value::as_str).map(|s| {
            let mut bytes = s.as_bytes().to_vec();
            for _ in 0..edits {
                if !bytes.is_empty() {
                    let i = byte(at) % bytes.len();
                    bytes[i] = data.get(at + 1).copied().unwrap_or(0);
                }
                at += 2;
            }
            Value::String(String::from_utf8_lossy(&bytes).into_owned())
        }),
        3 => Some(Value::String(String::from_utf8_lossy(rest).into_owned())),
        4 => Some(json!(byte(5))),
        5 => {
            let (m, n) = targets[(byte(0) + 1) % targets.len()];
            let (r, _, _) = ask(server, &line(2, m, n, all.clone(), None, None), T0);
            r.pointer("/result/requestState").cloned()
        }
        _ => {
            let (r, _, _) = ask(other_user, &line(2, method, name, all, None, None), T0);
            r.pointer("/result/requestState").cloned()
        }
    };
    let responses = match serde_json::from_slice::<Value>(rest) {
        Ok(Value::Object(extra)) => {
            let mut map = if rest.first().is_some_and(|b| b % 2 == 1) {
                answers(&first["result"])
            } else {
                serde_json::Map::new()
            };
            map.extend(extra);
            Some(Value::Object(map))
        }
        Ok(other) if rest.first() == Some(&b'n') => Some(other),
        _ if byte(2) % 2 == 0 => Some(Value::Object(answers(&first["result"]))),
        _ => None,
    };
    let request = line(
        3,
        method,
        name,
        caps,
        responses.map(|r| ("inputResponses", r)),
        state,
    );
    let (reply, ran, bytes) = ask(server, &request, now);
    let want = input::check(config, &request, now, &reply)
        .unwrap_or_else(|e| panic!("{e}\nrequest {request}"));
    assert_eq!(
        ran,
        usize::from(want.runs),
        "tools run, row {}: {request}",
        want.row
    );
    let (_, _, again) = ask(server, &request, now);
    assert_eq!(bytes, again, "not deterministic: {request}");
}

/// Every capability and sub-capability an input request can need.
fn all_caps() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}, "roots": {},
        "sampling": {"context": {}, "tools": {}}})
}
