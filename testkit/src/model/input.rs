//! The model of multi round-trip requests (docs/behavior.md, "Multi
//! round-trip requests", rows I1 to I13): for a well-formed 2026-07-28
//! `tools/call` or `prompts/get` of a configured input target, what the
//! reply must be at a given time, and whether the tool runs.
//!
//! It reads the request as a `serde_json::Value` and the configuration's
//! `input_required` member, and states the rules again on its own: which
//! inputs a request can receive, how an answer is judged, the state's
//! format and its HMAC-SHA256 (with the RustCrypto crates directly, never
//! the server's code). [`expect`] says what is due; [`check`] judges a
//! server's reply against it, opening a `requestState` the reply carries
//! with the model's own verifier. Until these rows join `docs/rows.json`
//! (and the generic model's [`crate::model::expect_line`]), their codes and
//! messages are stated here, once in the test kit.
//!
//! Spec: 2026-07-28 `basic/patterns/mrtr.mdx`; `basic/index.mdx`
//! (`-32021`); `client/elicitation.mdx`, `client/sampling.mdx`,
//! `client/roots.mdx`.

use base64::Engine as _;
use hmac::{KeyInit as _, Mac as _};
use mcp_reference::{Config, InputKind, InputSpec, InputTarget};
use serde_json::{Map, Value, json};
use sha2::Digest as _;

/// `-32602`.
pub const INVALID_PARAMS: i64 = -32602;
/// `-32021` (`MissingRequiredClientCapabilityError`).
pub const MISSING_CAPABILITY: i64 = -32021;

/// I5.
pub const RESPONSES_NOT_OBJECT: &str = "Invalid params: inputResponses must be an object";
/// I6.
pub const STATE_NOT_STRING: &str = "Invalid params: requestState must be a string";
/// I7.
pub const STATE_INVALID: &str = "Invalid params: requestState does not verify for this request; send the request again without it";
/// I8.
pub const STATE_EXPIRED: &str =
    "Invalid params: requestState has expired; send the request again without it";
/// I10.
pub const BAD_ANSWER: &str =
    "Invalid params: an inputResponses value is not a valid result of the input request it answers";
/// I11, for a prompt.
pub const PROMPT_REFUSED: &str =
    "Invalid params: the input this prompt needs was declined or cancelled; nothing was produced";
/// I11, for a tool (the text of its `isError` result).
pub const TOOL_REFUSED: &str =
    "declined: the input this tool asked for was declined or cancelled, so it did nothing.";
/// I3.
pub const MISSING_CAPABILITY_MESSAGE: &str = "Missing required client capability: this request needs input of a kind its clientCapabilities does not declare; see data.requiredCapabilities";
/// I13, for a prompt (row P-like: the arguments of `prompts/get`).
pub const PROMPT_BAD_ARGUMENTS: &str =
    "Invalid params: prompts/get arguments must be an object whose values are strings";

/// What a state carries, as the model reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    /// The round it was issued for.
    pub round: u8,
    /// The inputs of that round answered so far.
    pub answered: u16,
    /// Its expiry.
    pub expires: u64,
}

/// What the reply must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Due {
    /// A JSON-RPC error.
    Error {
        /// Its code.
        code: i64,
        /// Its message.
        message: String,
        /// Its `data`.
        data: Option<Value>,
    },
    /// An `InputRequiredResult` asking for these keys, with this state.
    Input {
        /// The keys of `inputRequests`, in order.
        keys: Vec<String>,
        /// The state it carries (`None`: none).
        state: Option<State>,
    },
    /// A complete `CallToolResult` with one text block.
    Tool {
        /// The text.
        text: String,
        /// `isError`.
        is_error: bool,
    },
    /// A complete `GetPromptResult` with one user message.
    Prompt {
        /// The message's text.
        text: String,
    },
}

/// The model's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputExpect {
    /// The deciding row.
    pub row: &'static str,
    /// The reply.
    pub due: Due,
    /// Whether the tool runs (through the executor).
    pub runs: bool,
}

fn error(row: &'static str, code: i64, message: &str) -> InputExpect {
    InputExpect {
        row,
        due: Due::Error {
            code,
            message: message.to_owned(),
            data: None,
        },
        runs: false,
    }
}

/// The input target a request names: `(target, is_tool)`.
pub fn target<'c>(config: &'c Config, request: &Value) -> Option<(&'c InputTarget, bool)> {
    let input = config.input()?;
    let name = request.pointer("/params/name")?.as_str()?;
    match request.get("method")?.as_str()? {
        "tools/call" => input
            .tools
            .iter()
            .find(|t| t.name == name)
            .map(|t| (t, true)),
        "prompts/get" => input
            .prompts
            .iter()
            .find(|t| t.name == name)
            .map(|t| (t, false)),
        _ => None,
    }
}

/// The reply due to `request` (a well-formed 2026-07-28 request: envelope
/// and `_meta` valid) at `now`, for the principal `config.user()`; `None`
/// when it does not name an input target.
pub fn expect(config: &Config, request: &Value, now: u64) -> Option<InputExpect> {
    let (target, tool) = target(config, request)?;
    let input = config.input()?;
    let params = request.get("params")?;
    let method = if tool { "tools/call" } else { "prompts/get" };
    // I13: the arguments, strings the target declares.
    let empty = Map::new();
    let args = match params.get("arguments") {
        None => &empty,
        Some(Value::Object(a)) => a,
        Some(_) if tool => {
            let (code, message) = super::rows::fixed("T2");
            return Some(error("T2", code, &message));
        }
        Some(_) => return Some(error("I13", INVALID_PARAMS, PROMPT_BAD_ARGUMENTS)),
    };
    let fits = args
        .iter()
        .all(|(k, v)| v.is_string() && target.arguments.contains(k));
    if !fits {
        return Some(if tool {
            InputExpect {
                row: "I13",
                due: Due::Tool {
                    text: invalid_text(target),
                    is_error: true,
                },
                runs: false,
            }
        } else {
            error("I13", INVALID_PARAMS, PROMPT_BAD_ARGUMENTS)
        });
    }
    // I5.
    let responses = match params.get("inputResponses") {
        None => &empty,
        Some(Value::Object(r)) => r,
        Some(_) => return Some(error("I5", INVALID_PARAMS, RESPONSES_NOT_OBJECT)),
    };
    let key = key(config);
    let principal = config.user();
    // I6 to I8 (a target without state ignores one: I12).
    let (round, mut answered) = match (target.state, params.get("requestState")) {
        (true, Some(Value::String(s))) => {
            match open(&key, principal, method, &target.name, args, s) {
                None => return Some(error("I7", INVALID_PARAMS, STATE_INVALID)),
                Some(state) if now > state.expires => {
                    return Some(error("I8", INVALID_PARAMS, STATE_EXPIRED));
                }
                Some(state) => (usize::from(state.round), state.answered),
            }
        }
        (true, Some(_)) => return Some(error("I6", INVALID_PARAMS, STATE_NOT_STRING)),
        _ => (0, 0),
    };
    let Some(inputs) = target.rounds.get(round) else {
        return Some(error("I7", INVALID_PARAMS, STATE_INVALID));
    };
    let declared = declared(params);
    // I3.
    let wanted = match receivable(inputs, &declared) {
        Ok(w) => w,
        Err(missing) => return Some(missing),
    };
    // I10, I11.
    let mut refused = false;
    for &i in &wanted {
        let Some(spec) = inputs.get(i) else { continue };
        if let Some(answer) = responses.get(&spec.key) {
            match judge(spec, answer) {
                None => return Some(error("I10", INVALID_PARAMS, BAD_ANSWER)),
                Some(false) => refused = true,
                Some(true) => answered |= 1 << i,
            }
        }
    }
    if refused {
        return Some(if tool {
            InputExpect {
                row: "I11",
                due: Due::Tool {
                    text: TOOL_REFUSED.into(),
                    is_error: true,
                },
                runs: false,
            }
        } else {
            error("I11", INVALID_PARAMS, PROMPT_REFUSED)
        });
    }
    let state = |round: usize, answered: u16| {
        target.state.then(|| State {
            round: round as u8,
            answered,
            expires: now.saturating_add(input.state_ttl_seconds),
        })
    };
    let missing: Vec<usize> = wanted
        .iter()
        .copied()
        .filter(|i| answered & (1 << i) == 0)
        .collect();
    if !missing.is_empty() {
        // I2 for a first request, I4 for one that left inputs unanswered.
        let row = if round == 0 && answered == 0 && params.get("inputResponses").is_none() {
            "I2"
        } else {
            "I4"
        };
        return Some(InputExpect {
            row,
            due: Due::Input {
                keys: keys(inputs, &missing),
                state: state(round, answered),
            },
            runs: false,
        });
    }
    if let Some(next) = target.rounds.get(round + 1) {
        let wanted = match receivable(next, &declared) {
            Ok(w) => w,
            Err(missing) => return Some(missing),
        };
        return Some(InputExpect {
            row: "I9",
            due: Due::Input {
                keys: keys(next, &wanted),
                state: state(round + 1, 0),
            },
            runs: false,
        });
    }
    Some(InputExpect {
        row: "I12",
        due: if tool {
            Due::Tool {
                text: target.result.clone(),
                is_error: false,
            }
        } else {
            Due::Prompt {
                text: target.result.clone(),
            }
        },
        runs: tool,
    })
}

/// The generic model's view ([`crate::model::expect_line`], at the epoch):
/// a request of `method` with `params` naming an input target, as an
/// [`crate::model::Expect`]: the error when one is due, else
/// [`crate::model::Reply::Unknown`] (an `InputRequiredResult` or the
/// target's result, which [`check`] judges; the generic replies cannot
/// express them). `None` when `params` names no input target.
pub fn generic(
    config: &Config,
    id: &str,
    method: &str,
    params: &super::tree::Json,
) -> Option<super::expect::Expect> {
    use super::expect::{Expect, Reply};
    let id_value: Value = serde_json::from_str(id).ok()?;
    let request =
        json!({"jsonrpc": "2.0", "id": id_value, "method": method, "params": params.to_value()});
    let want = expect(config, &request, 0)?;
    let reply = match want.due {
        Due::Error {
            code,
            message,
            data,
        } => Reply::Error {
            id: Some(id.to_owned()),
            code,
            message,
            data,
        },
        _ => Reply::Unknown,
    };
    Some(Expect::new(want.row, reply))
}

/// Whether `config` has an input tool called `name`.
pub fn is_tool(config: &Config, name: &str) -> bool {
    config
        .input()
        .is_some_and(|i| i.tools.iter().any(|t| t.name == name))
}

/// The `tools/list` entry of an input tool: its name, description and an
/// `inputSchema` of its optional string arguments and no others.
pub fn tool_entry(target: &InputTarget) -> Value {
    let properties: Map<String, Value> = target
        .arguments
        .iter()
        .map(|a| (a.clone(), json!({"type": "string"})))
        .collect();
    json!({"name": target.name, "description": target.description,
        "inputSchema": {"type": "object", "properties": properties, "additionalProperties": false}})
}

/// The `prompts/list` entry of an input prompt: its name, description
/// and its arguments (optional) when it has any.
pub fn prompt_entry(target: &InputTarget) -> Value {
    let mut entry = json!({"name": target.name, "description": target.description});
    if !target.arguments.is_empty() {
        entry["arguments"] = target
            .arguments
            .iter()
            .map(|a| json!({"name": a, "required": false}))
            .collect();
    }
    entry
}

fn keys(inputs: &[InputSpec], which: &[usize]) -> Vec<String> {
    which
        .iter()
        .filter_map(|&i| inputs.get(i))
        .map(|s| s.key.clone())
        .collect()
}

/// The capability names the request's `clientCapabilities` declares as
/// objects.
fn declared(params: &Value) -> Vec<&'static str> {
    let caps = params.pointer("/_meta/io.modelcontextprotocol~1clientCapabilities");
    ["elicitation", "roots", "sampling"]
        .into_iter()
        .filter(|c| caps.and_then(|v| v.get(c)).is_some_and(Value::is_object))
        .collect()
}

fn capability(kind: InputKind) -> &'static str {
    match kind {
        InputKind::Elicitation => "elicitation",
        InputKind::Roots => "roots",
        InputKind::Sampling => "sampling",
    }
}

/// I3: the inputs of a round the request can receive, or the `-32021`.
fn receivable(inputs: &[InputSpec], declared: &[&str]) -> Result<Vec<usize>, InputExpect> {
    let can = |s: &InputSpec| declared.contains(&capability(s.kind));
    let refuse = |names: Vec<&'static str>| {
        let mut required = Map::new();
        for name in ["elicitation", "roots", "sampling"] {
            if names.contains(&name) {
                required.insert(name.into(), json!({}));
            }
        }
        InputExpect {
            row: "I3",
            due: Due::Error {
                code: MISSING_CAPABILITY,
                message: MISSING_CAPABILITY_MESSAGE.into(),
                data: Some(json!({ "requiredCapabilities": required })),
            },
            runs: false,
        }
    };
    let required: Vec<_> = inputs
        .iter()
        .filter(|s| !s.optional && !can(s))
        .map(|s| capability(s.kind))
        .collect();
    if !required.is_empty() {
        return Err(refuse(required));
    }
    let wanted: Vec<usize> = (0..inputs.len())
        .filter(|&i| inputs.get(i).is_some_and(can))
        .collect();
    if wanted.is_empty() {
        return Err(refuse(inputs.iter().map(|s| capability(s.kind)).collect()));
    }
    Ok(wanted)
}

/// I10, I11: `None` for an invalid answer, `Some(false)` for a refused
/// elicitation, `Some(true)` for an accepted answer.
pub fn judge(spec: &InputSpec, answer: &Value) -> Option<bool> {
    let a = answer.as_object()?;
    match spec.kind {
        InputKind::Elicitation => match a.get("action")?.as_str()? {
            "decline" | "cancel" => Some(false),
            "accept" => {
                let content = a.get("content")?.as_object()?;
                let schema = spec.params.get("requestedSchema")?;
                let props = schema.get("properties")?.as_object()?;
                let required_ok = schema
                    .get("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .all(|n| n.as_str().is_some_and(|n| content.contains_key(n)));
                let typed_ok = props.iter().all(|(name, p)| match content.get(name) {
                    None => true,
                    Some(v) => {
                        let t = match p.get("type").and_then(Value::as_str) {
                            Some("string") => v.is_string(),
                            Some("boolean") => v.is_boolean(),
                            Some("number") => v.is_number(),
                            Some("integer") => v.is_i64() || v.is_u64(),
                            _ => false,
                        };
                        let e = match p.get("enum").and_then(Value::as_array) {
                            Some(options) => options.contains(v),
                            None => true,
                        };
                        t && e
                    }
                });
                (required_ok && typed_ok).then_some(true)
            }
            _ => None,
        },
        InputKind::Sampling => {
            let block = |v: &Value| v.get("type").is_some_and(Value::is_string);
            let role = matches!(
                a.get("role").and_then(Value::as_str),
                Some("user" | "assistant")
            );
            let content = match a.get("content") {
                Some(Value::Array(b)) => !b.is_empty() && b.iter().all(block),
                Some(v) => block(v),
                None => false,
            };
            let model = a.get("model").is_some_and(Value::is_string);
            (role && content && model).then_some(true)
        }
        InputKind::Roots => {
            let roots = a.get("roots")?.as_array()?;
            roots
                .iter()
                .all(|r| {
                    r.get("uri")
                        .and_then(Value::as_str)
                        .is_some_and(|u| u.starts_with("file://"))
                        && r.get("name").is_none_or(Value::is_string)
                })
                .then_some(true)
        }
    }
}

fn invalid_text(target: &InputTarget) -> String {
    if target.arguments.is_empty() {
        format!("invalid arguments: {} takes no arguments.", target.name)
    } else {
        format!(
            "invalid arguments: {} takes only the optional string arguments {}.",
            target.name,
            target.arguments.join(", ")
        )
    }
}

/// The configured key, decoded (empty when there is none).
pub fn key(config: &Config) -> Vec<u8> {
    config
        .input()
        .and_then(|i| i.state_key.as_deref())
        .and_then(|k| {
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(k)
                .ok()
        })
        .unwrap_or_default()
}

fn field(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
    out.extend_from_slice(bytes);
}

/// The HMAC-SHA256 the state's tag must be (module `input::state` of the
/// server, docs/behavior.md DEC40), from the model's own reading.
fn tag(
    key: &[u8],
    principal: &str,
    method: &str,
    name: &str,
    args: &Map<String, Value>,
    header: &[u8],
) -> Vec<u8> {
    let mut sorted: Vec<_> = args.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(b.0));
    let mut encoded = Vec::new();
    for (k, v) in sorted {
        field(&mut encoded, k.as_bytes());
        match v.as_str() {
            Some(s) => {
                encoded.push(b's');
                field(&mut encoded, s.as_bytes());
            }
            None => encoded.push(b'?'),
        }
    }
    let mut message = b"mcp-reference requestState v1\0".to_vec();
    for f in [principal, method, name] {
        field(&mut message, f.as_bytes());
    }
    field(&mut message, &sha2::Sha256::digest(&encoded));
    message.extend_from_slice(header);
    let Ok(mut mac) = hmac::Hmac::<sha2::Sha256>::new_from_slice(key) else {
        return Vec::new();
    };
    mac.update(&message);
    mac.finalize().into_bytes().to_vec()
}

/// Opens `state` for the request, as the model reads the format: `None`
/// when it does not verify (the expiry is not judged here).
pub fn open(
    key: &[u8],
    principal: &str,
    method: &str,
    name: &str,
    args: &Map<String, Value>,
    state: &str,
) -> Option<State> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(state)
        .ok()?;
    if bytes.len() != 44 || bytes.first() != Some(&1) {
        return None;
    }
    let (header, presented) = bytes.split_at(12);
    if tag(key, principal, method, name, args, header) != presented {
        return None;
    }
    let mut expires = [0u8; 8];
    expires.copy_from_slice(header.get(4..12)?);
    Some(State {
        round: *header.get(1)?,
        answered: u16::from_be_bytes([*header.get(2)?, *header.get(3)?]),
        expires: u64::from_be_bytes(expires),
    })
}

/// Judges `reply` (the parsed reply line) against what is due to
/// `request` at `now`; the error says what differs.
pub fn check(
    config: &Config,
    request: &Value,
    now: u64,
    reply: &Value,
) -> Result<InputExpect, String> {
    let want = expect(config, request, now).ok_or("not a request to an input target")?;
    let fail = |why: String| Err(format!("row {}: {why}; reply {reply}", want.row));
    if reply.get("id") != request.get("id") {
        return fail("the id differs".into());
    }
    match &want.due {
        Due::Error {
            code,
            message,
            data,
        } => {
            let e = reply.get("error");
            let got = (
                e.and_then(|e| e.get("code")).and_then(Value::as_i64),
                e.and_then(|e| e.get("message")).and_then(Value::as_str),
                e.and_then(|e| e.get("data")),
            );
            if got != (Some(*code), Some(message.as_str()), data.as_ref()) {
                return fail(format!("expected error {code} {message:?} {data:?}"));
            }
        }
        Due::Input { keys, state } => {
            let r = reply.get("result").ok_or("no result")?;
            if r.get("resultType") != Some(&json!("input_required")) {
                return fail("expected an InputRequiredResult".into());
            }
            let (target, _) = target(config, request).ok_or("no target")?;
            let requests = r.get("inputRequests").and_then(Value::as_object);
            let got: Vec<&String> = requests.map(|m| m.keys().collect()).unwrap_or_default();
            let mut want_sorted: Vec<&String> = keys.iter().collect();
            want_sorted.sort();
            if got != want_sorted {
                return fail(format!("expected inputRequests {keys:?}"));
            }
            for (k, v) in requests.into_iter().flatten() {
                let spec = target.rounds.iter().flatten().find(|s| &s.key == k);
                let ok = spec.is_some_and(|s| {
                    v.get("method").and_then(Value::as_str) == Some(method_of(s.kind))
                        && v.get("params") == Some(&s.params)
                });
                if !ok {
                    return fail(format!("inputRequests.{k} is not the configured request"));
                }
            }
            match (state, r.get("requestState")) {
                (None, None) => {}
                (Some(want_state), Some(Value::String(s))) => {
                    let method = request
                        .get("method")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    let empty = Map::new();
                    let args = request
                        .pointer("/params/arguments")
                        .and_then(Value::as_object)
                        .unwrap_or(&empty);
                    let opened = open(&key(config), config.user(), method, &target.name, args, s);
                    if opened != Some(*want_state) {
                        return fail(format!(
                            "requestState opens to {opened:?}, expected {want_state:?}"
                        ));
                    }
                }
                (want_state, got) => {
                    return fail(format!("requestState {got:?}, expected {want_state:?}"));
                }
            }
        }
        Due::Tool { text, is_error } => {
            let r = reply.get("result").ok_or("no result")?;
            let want_body = json!({"resultType": "complete", "content": [{"type": "text", "text": text}], "isError": is_error});
            let got_body = json!({"resultType": r.get("resultType"), "content": r.get("content"), "isError": r.get("isError")});
            if got_body != want_body {
                return fail(format!(
                    "expected the tool result {text:?} isError {is_error}"
                ));
            }
        }
        Due::Prompt { text } => {
            let r = reply.get("result").ok_or("no result")?;
            let got = r
                .pointer("/messages/0/content/text")
                .and_then(Value::as_str);
            if r.get("resultType") != Some(&json!("complete")) || got != Some(text.as_str()) {
                return fail(format!("expected the prompt {text:?}"));
            }
        }
    }
    Ok(want)
}

fn method_of(kind: InputKind) -> &'static str {
    match kind {
        InputKind::Elicitation => "elicitation/create",
        InputKind::Roots => "roots/list",
        InputKind::Sampling => "sampling/createMessage",
    }
}
