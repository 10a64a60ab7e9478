//! Proptest generators for multi round-trip requests (docs/behavior.md,
//! "Multi round-trip requests", rows I1 to I15): `input_required`
//! sections of a configuration ([`input_required`]: tools and prompts,
//! with and without state, of one to three rounds of elicitation,
//! sampling and roots inputs, some optional, with optional string
//! arguments), and requests to their targets at a given time
//! ([`input_request`]) across the rows: first requests (I2), requests
//! whose `clientCapabilities` lack a kind (I3) or a sub-capability
//! (I14: every combination of elicitation modes and sampling's `tools`
//! and `context`, against form- and URL-mode elicitations and sampling
//! requests with `tools`, `toolChoice` and `includeContext`; URL-mode
//! answers, I15), partial and full answers
//! (I4, I9, I12), `inputResponses` not an object (I5), `requestState` not
//! a string (I6), forged states (I7: a byte changed, another key, user,
//! method, target or arguments, a round the target does not have, not the
//! format), expired states (I8), invalid answers (I10), decline and cancel
//! (I11) and arguments the target does not take (I13).
//!
//! Valid and forged states are made with the model's own sealing
//! ([`crate::model::input::seal`]), never with the server's. Generators
//! only: what a request must get is the model's to say.

use base64::Engine as _;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use serde_json::{Map, Value, json};

use crate::model::input::{self, State};
use mcp_reference::{Config, InputKind, InputSpec, InputTarget};

/// The configured state keys (base64url, 32 bytes), and one no
/// configuration uses (a state sealed under it is forged, I7).
pub const KEYS: [&str; 2] = [
    "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY",
    "m82TjXN1jyM8w7CgjMGAp1_UxX67Loyw9iBKh08uSHg",
];
const OTHER_KEY: &[u8] = b"another key, of no configuration";

/// The `params` of an elicitation: flat schemas of every primitive type,
/// with and without `required` and `enum`.
fn elicitation(which: usize) -> Value {
    let schemas = [
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
        json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
        json!({"type": "object", "properties": {"n": {"type": "integer"},
            "color": {"type": "string", "enum": ["red", "blue"]}}}),
        json!({"type": "object", "properties": {"x": {"type": "number"}, "why": {"type": "string"}},
            "required": ["x"]}),
    ];
    let schema = schemas
        .get(which % schemas.len())
        .cloned()
        .unwrap_or_default();
    json!({"message": format!("question {which}"), "requestedSchema": schema})
}

/// The `params` of a URL-mode elicitation (row I15).
fn url_elicitation(which: usize) -> Value {
    json!({"mode": "url", "message": format!("open page {which}"),
        "url": format!("https://book-orders.example/step/{which}")})
}

/// The `params` of a sampling request, needing by `which` no
/// sub-capability, `sampling.tools` (`tools`, with or without
/// `toolChoice`), `sampling.context` (`includeContext` other than
/// `none`) or both (row I14).
fn sampling(which: usize) -> Value {
    let mut p = json!({"messages": [{"role": "user", "content": {"type": "text", "text": format!("ask {which}")}}],
        "maxTokens": 1 + which});
    let tool = json!({"name": "lookup", "inputSchema": {"type": "object"}});
    match which % 6 {
        1 => p["tools"] = json!([tool]),
        2 => p["includeContext"] = json!("thisServer"),
        3 => {
            p["tools"] = json!([tool]);
            p["toolChoice"] = json!({"mode": "auto"});
            p["includeContext"] = json!("allServers");
        }
        4 => p["includeContext"] = json!("none"),
        _ => {}
    }
    p
}

fn spec(key: String, kind: u8, optional: bool, which: usize) -> Value {
    let (kind, params) = match kind % 3 {
        // One elicitation in three in URL mode; the rest form mode,
        // with `mode` written or left out.
        0 => (
            "elicitation",
            match which % 6 {
                0 | 3 => url_elicitation(which),
                1 => {
                    let mut p = elicitation(which);
                    p["mode"] = json!("form");
                    p
                }
                _ => elicitation(which),
            },
        ),
        1 => ("sampling", sampling(which)),
        _ => ("roots", json!({})),
    };
    let mut s = json!({"key": key, "kind": kind, "params": params});
    if optional {
        s["optional"] = json!(true);
    }
    s
}

/// One input target: `prefix` and a name; 0 to 2 optional string
/// arguments; with state 1 to 3 rounds, without one round; each round 1
/// to 3 inputs of any kind (keys unique within the round, sometimes the
/// same key in two rounds), about one in six optional.
fn target(prefix: &'static str) -> BoxedStrategy<Value> {
    let input = (0..3u8, proptest::bool::weighted(0.17), 0..8usize);
    let round = proptest::collection::btree_map("k[0-3]", input, 1..4);
    (
        "[a-z]{1,6}",
        proptest::sample::subsequence(vec!["topic", "tone"], 0..=2),
        any::<bool>(),
        proptest::collection::vec(round, 1..4),
        "[a-z ]{0,12}",
    )
        .prop_map(move |(name, arguments, state, rounds, result)| {
            let rounds: Vec<Value> = rounds
                .into_iter()
                .take(if state { 3 } else { 1 })
                .map(|round| {
                    round
                        .into_iter()
                        .map(|(key, (kind, optional, which))| spec(key, kind, optional, which))
                        .collect()
                })
                .collect();
            json!({"name": format!("{prefix}{name}"), "description": format!("input target {name}"),
                "arguments": arguments, "state": state, "rounds": rounds,
                "result": format!("done: {result}")})
        })
        .boxed()
}

/// An `input_required` section: a key, a lifetime, 1 to 3 tools and 0 to
/// 2 prompts (names unique by construction of the maps' keys).
pub fn input_required() -> BoxedStrategy<Value> {
    (
        select(KEYS.to_vec()),
        select(vec![1u64, 300, 86_400]),
        proptest::collection::vec(target("i_"), 1..4),
        proptest::collection::vec(target("ip_"), 0..3),
    )
        .prop_map(|(key, ttl, tools, prompts)| {
            let unique = |list: Vec<Value>| {
                let mut seen = std::collections::BTreeSet::new();
                list.into_iter()
                    .filter(|t| seen.insert(t["name"].to_string()))
                    .collect::<Vec<_>>()
            };
            json!({"state_key": key, "state_ttl_seconds": ttl,
                "tools": unique(tools), "prompts": unique(prompts)})
        })
        .boxed()
}

/// The random draws one request is built from (see [`build`]).
#[derive(Debug, Clone)]
struct Draws {
    target: Index,
    args_how: u8,
    arg_values: (u8, u8),
    caps: u8,
    /// What `elicitation` and `sampling` hold, when declared: see
    /// [`sub_capabilities`].
    subs: (u8, u8),
    round: Index,
    answered: u16,
    state_how: u8,
    forge: u8,
    expiry: u8,
    responses_how: u8,
    answers: Vec<u8>,
    unknown_key: bool,
    id: u32,
}

fn draws() -> BoxedStrategy<Draws> {
    (
        (any::<Index>(), 0..24u8, (0..4u8, 0..4u8)),
        (
            prop_oneof![6 => Just(7u8), 3 => 0..8u8],
            prop_oneof![3 => Just((3u8, 3u8)), 2 => (0..5u8, 0..4u8)],
        ),
        (any::<Index>(), any::<u16>(), 0..16u8, 0..16u8, 0..5u8),
        (
            0..16u8,
            proptest::collection::vec(0..14u8, 16),
            proptest::bool::weighted(0.2),
        ),
        0..1000u32,
    )
        .prop_map(
            |(
                (target, args_how, arg_values),
                (caps, subs),
                (round, answered, state_how, forge, expiry),
                (responses_how, answers, unknown_key),
                id,
            )| Draws {
                target,
                args_how,
                arg_values,
                caps,
                subs,
                round,
                answered,
                state_how,
                forge,
                expiry,
                responses_how,
                answers,
                unknown_key,
                id,
            },
        )
        .boxed()
}

/// A request (a `serde_json::Value`) to an input target of `config`,
/// at `now`, across rows I2 to I13 (see the module documentation); none
/// when `config` has no input target.
pub fn input_request(config: &Config, now: u64) -> BoxedStrategy<Value> {
    let c = config.clone();
    draws()
        .prop_filter_map("an input target", move |d| build(&c, now, &d))
        .boxed()
}

/// A valid answer to `spec`: content of every property's type (an
/// elicitation accepted), a sampled message, a list of file roots.
fn valid_answer(spec: &InputSpec) -> Value {
    match spec.kind {
        // URL mode: consent, no data (row I15).
        InputKind::Elicitation if spec.params.get("mode") == Some(&json!("url")) => {
            json!({"action": "accept"})
        }
        InputKind::Elicitation => {
            let props = spec
                .params
                .pointer("/requestedSchema/properties")
                .and_then(Value::as_object);
            let content: Map<String, Value> = props
                .into_iter()
                .flatten()
                .map(|(name, p)| {
                    let v = match (p.get("enum"), p.get("type").and_then(Value::as_str)) {
                        (Some(Value::Array(options)), _) => {
                            options.first().cloned().unwrap_or_default()
                        }
                        (_, Some("boolean")) => json!(true),
                        (_, Some("integer")) => json!(3),
                        (_, Some("number")) => json!(1.5),
                        _ => json!("v"),
                    };
                    (name.clone(), v)
                })
                .collect();
            json!({"action": "accept", "content": content})
        }
        InputKind::Sampling => {
            json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"})
        }
        InputKind::Roots => json!({"roots": [{"uri": "file:///work", "name": "work"}]}),
    }
}

/// The `elicitation` and `sampling` objects of a request's capabilities,
/// when declared, for every combination of their sub-capabilities (row
/// I14): elicitation `{}`, `{form}`, `{url}`, `{form, url}` or naming
/// another member only; sampling `{}`, `{tools}`, `{context}` or both.
fn sub_capabilities((e, s): (u8, u8)) -> (Value, Value) {
    let elicitation = match e {
        0 => json!({}),
        1 => json!({"form": {}}),
        2 => json!({"url": {}}),
        3 => json!({"form": {}, "url": {}}),
        _ => json!({"other": {}}),
    };
    let sampling = match s {
        0 => json!({}),
        1 => json!({"tools": {}}),
        2 => json!({"context": {}}),
        _ => json!({"tools": {}, "context": {}}),
    };
    (elicitation, sampling)
}

/// An answer of the `how` kind to `spec`: valid, invalid for every kind
/// (I10; for a URL-mode elicitation also an accept with `content`),
/// declined or cancelled (I11 for an elicitation), or none.
fn answer(spec: &InputSpec, how: u8) -> Option<Value> {
    if how == 8 && spec.params.get("mode") == Some(&json!("url")) {
        return Some(json!({"action": "accept", "content": {"name": "v"}}));
    }
    let invalid = [
        json!(7),
        json!(null),
        json!({}),
        json!([]),
        json!({"action": "maybe"}),
    ];
    match how {
        0..=5 => Some(valid_answer(spec)),
        6 | 7 => None,
        9 | 10 => Some(json!({"action": "decline"})),
        11 | 12 => Some(json!({"action": "cancel"})),
        _ => invalid
            .get((usize::from(how) + spec.key.len()) % invalid.len())
            .cloned(),
    }
}

fn build(config: &Config, now: u64, d: &Draws) -> Option<Value> {
    let input = config.input()?;
    let all: Vec<(&InputTarget, bool)> = input
        .tools
        .iter()
        .map(|t| (t, true))
        .chain(input.prompts.iter().map(|p| (p, false)))
        .collect();
    let &(target, tool) = all.get(d.target.index(all.len().max(1)))?;
    let method = if tool { "tools/call" } else { "prompts/get" };
    // The arguments: mostly strings for arguments the target takes (I13:
    // sometimes one it does not, a value not a string, or no object).
    let values = ["x", "", "a b"];
    let mut args = Map::new();
    for (i, name) in target.arguments.iter().enumerate() {
        let pick = if i == 0 {
            d.arg_values.0
        } else {
            d.arg_values.1
        };
        if let Some(v) = values.get(usize::from(pick)) {
            args.insert(name.clone(), json!(v));
        }
    }
    let arguments = match d.args_how {
        0 => Some(json!({"zz": "x"})),
        1 => {
            let mut bad = args.clone();
            bad.insert(
                target.arguments.first().cloned().unwrap_or("zz".into()),
                json!(7),
            );
            Some(Value::Object(bad))
        }
        2 => Some(json!("not an object")),
        3 | 4 => None,
        _ => Some(Value::Object(args.clone())),
    };
    let args_for_state = arguments
        .as_ref()
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut caps = Map::new();
    let (elicitation, sampling) = sub_capabilities(d.subs);
    for (bit, name, value) in [
        (1, "elicitation", elicitation),
        (2, "roots", json!({})),
        (4, "sampling", sampling),
    ] {
        if d.caps & bit != 0 {
            caps.insert(name.into(), value);
        }
    }
    let mut params = Map::new();
    params.insert("name".into(), json!(target.name));
    if let Some(a) = arguments {
        params.insert("arguments".into(), a);
    }
    // The state: none (a first request), one for a round and the answers
    // recorded in it (valid in 7 draws of 16 of `forge`), expired, forged
    // (another key, user, method, target, arguments; a character changed;
    // a round the target lacks; not the format), or not a string.
    let rounds = target.rounds.len();
    let mut round = 0;
    let key = input::key(config);
    let state_of = |round: usize, answered: u16, expires: u64| State {
        round: u8::try_from(round).unwrap_or(u8::MAX),
        answered,
        expires,
    };
    // The expiry of a state sealed for this request: now (still valid:
    // the expiry is inclusive), a second later, the configured lifetime,
    // or (past the epoch) a second ago (I8).
    let expires = match d.expiry {
        0 => now,
        1 => now.saturating_add(1),
        2 if now > 0 => now - 1,
        _ => now.saturating_add(input.state_ttl_seconds),
    };
    let state: Option<Value> = match d.state_how {
        0..=3 => None,
        4..=11 => {
            round = d.round.index(rounds.max(1));
            let width = target.rounds.get(round).map_or(0, Vec::len);
            let answered = d.answered & ((1u16 << width) - 1);
            let sealed =
                |key: &[u8], user: &str, method: &str, name: &str, args: &Map<String, Value>| {
                    input::seal(
                        key,
                        user,
                        method,
                        name,
                        args,
                        state_of(round, answered, expires),
                    )
                };
            let mut other_args = args_for_state.clone();
            other_args.insert("topic".into(), json!("other"));
            let s = match d.forge {
                0 => sealed(
                    OTHER_KEY,
                    config.user(),
                    method,
                    &target.name,
                    &args_for_state,
                ),
                1 => sealed(
                    &key,
                    &format!("{}-other", config.user()),
                    method,
                    &target.name,
                    &args_for_state,
                ),
                2 => {
                    let other = if tool { "prompts/get" } else { "tools/call" };
                    sealed(&key, config.user(), other, &target.name, &args_for_state)
                }
                3 => sealed(
                    &key,
                    config.user(),
                    method,
                    &format!("{}x", target.name),
                    &args_for_state,
                ),
                4 => sealed(&key, config.user(), method, &target.name, &other_args),
                5 => {
                    // One character changed.
                    let s = sealed(&key, config.user(), method, &target.name, &args_for_state);
                    let at = usize::from(d.answered) % s.len().max(1);
                    s.char_indices()
                        .map(|(i, c)| {
                            if i == at {
                                if c == 'A' { 'B' } else { 'A' }
                            } else {
                                c
                            }
                        })
                        .collect()
                }
                6 if now > 0 => {
                    // Expired (I8): sealed for a time before now.
                    input::seal(
                        &key,
                        config.user(),
                        method,
                        &target.name,
                        &args_for_state,
                        state_of(round, answered, now - 1),
                    )
                }
                7 => {
                    // A round the target does not have.
                    input::seal(
                        &key,
                        config.user(),
                        method,
                        &target.name,
                        &args_for_state,
                        state_of(rounds, 0, expires),
                    )
                }
                // Not the format: empty, or base64url of other bytes.
                8 if d.id % 2 == 1 => String::new(),
                8 => base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b"not a state"),
                _ => sealed(&key, config.user(), method, &target.name, &args_for_state),
            };
            Some(json!(s))
        }
        12 | 13 => Some(not_a(d.id, json!({"s": 1}))),
        _ => None,
    };
    if let Some(s) = state {
        params.insert("requestState".into(), s);
    }
    // The answers to the round's inputs.
    let inputs = target
        .rounds
        .get(round)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut responses = Map::new();
    for (i, spec) in inputs.iter().enumerate() {
        let how = d.answers.get(i).copied().unwrap_or(0);
        if let Some(a) = answer(spec, how) {
            responses.insert(spec.key.clone(), a);
        }
    }
    if d.unknown_key {
        responses.insert(
            "not_asked".into(),
            json!({"action": "accept", "content": {}}),
        );
    }
    match d.responses_how {
        0..=2 => {}
        3 => {
            params.insert("inputResponses".into(), not_a(d.id, json!("s")));
        }
        _ => {
            params.insert("inputResponses".into(), Value::Object(responses));
        }
    }
    let versions = config.versions();
    params.insert(
        "_meta".into(),
        json!({"io.modelcontextprotocol/protocolVersion": versions.first(),
            "io.modelcontextprotocol/clientCapabilities": caps}),
    );
    let id = if d.id.is_multiple_of(3) {
        json!(format!("r{}", d.id))
    } else {
        json!(d.id)
    };
    Some(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
}

/// A value of another type than `extra`'s: a number, null, an array, a
/// boolean, or `extra` (an object where a string is due, I6; a string
/// where an object is due, I5).
fn not_a(n: u32, extra: Value) -> Value {
    let values = [json!(7), json!(null), json!([]), json!(true), extra];
    values
        .get(n as usize % values.len())
        .cloned()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    /// Every generated section is a configuration the server loads (none
    /// is silently filtered away), and its targets are called.
    #[test]
    fn every_generated_section_loads_and_its_targets_are_called() {
        let mut runner = TestRunner::deterministic();
        for _ in 0..200 {
            let section = input_required().new_tree(&mut runner).unwrap().current();
            let file = json!({ "input_required": section }).to_string();
            let config =
                Config::from_json(file.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{section}"));
            let request = input_request(&config, 0)
                .new_tree(&mut runner)
                .unwrap()
                .current();
            let name = request.pointer("/params/name").and_then(Value::as_str);
            assert!(input::target(&config, &request).is_some(), "{name:?}");
        }
    }
}
