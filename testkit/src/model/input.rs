//! The model of multi round-trip requests (docs/behavior.md, "Multi
//! round-trip requests", rows I1 to I15): for a well-formed 2026-07-28
//! `tools/call` or `prompts/get` of a configured input target, what the
//! reply must be at a given time, and whether the tool runs.
//!
//! It reads the request as a `serde_json::Value` and the configuration's
//! `input_required` member, and states the rules again on its own: which
//! inputs a request can receive, how an answer is judged, the state's
//! format and its HMAC-SHA256 (with the RustCrypto crates directly, never
//! the server's code). [`expect`] says what is due; [`check`] judges a
//! server's reply against it, opening a `requestState` the reply carries
//! with the model's own verifier; [`seal`] makes the states a client
//! would present (for the generators). The codes and messages of the
//! fixed errors (I3, I5 to I8, I10, and P8 for a prompt's arguments, I13)
//! come from the row registry `docs/rows.json` ([`super::rows::fixed`]);
//! only I11's texts, which the registry does not hold, are written here.
//! The generic model ([`crate::model::expect_line`]) asks [`generic`],
//! whose [`crate::model::Reply::Input`] runs [`check`] at the epoch.
//!
//! Which inputs a request can receive, to the sub-capability (I3, I14),
//! is [`super::capabilities`]'s.
//!
//! Spec: 2026-07-28 `basic/patterns/mrtr.mdx`; `basic/index.mdx`
//! (`-32021`); `client/elicitation.mdx` (modes; a URL-mode accept carries
//! no `content`), `client/sampling.mdx`, `client/roots.mdx`.

use base64::Engine as _;
use hmac::{KeyInit as _, Mac as _};
use mcp_reference::{Config, InputKind, InputSpec, InputTarget};
use serde_json::{Map, Value, json};
use sha2::Digest as _;

/// I11, for a tool: the text of its `isError` result (a result, so not
/// in the registry, which holds fixed errors only).
pub const TOOL_REFUSED: &str =
    "declined: the input this tool asked for was declined or cancelled, so it did nothing.";
/// I11, for a prompt: the message of its `-32602` (the registry's I11 is
/// a `reply` row, tool and prompt alike, so it holds no fixed error).
pub const PROMPT_REFUSED: &str =
    "Invalid params: the input this prompt needs was declined or cancelled; nothing was produced";

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

/// The fixed error of registry row `from` (its code and message), decided
/// by `row`.
fn error(row: &'static str, from: &str) -> InputExpect {
    let (code, message) = super::rows::fixed(from);
    InputExpect {
        row,
        due: Due::Error {
            code,
            message,
            data: None,
        },
        runs: false,
    }
}

/// The fixed error of row `row`.
fn fixed(row: &'static str) -> InputExpect {
    error(row, row)
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
        Some(_) if tool => return Some(fixed("T2")),
        Some(_) => return Some(error("I13", "P8")),
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
            error("I13", "P8")
        });
    }
    // I5.
    let responses = match params.get("inputResponses") {
        None => &empty,
        Some(Value::Object(r)) => r,
        Some(_) => return Some(fixed("I5")),
    };
    let key = key(config);
    let principal = config.user();
    // I6 to I8 (a target without state ignores one: I12).
    let (round, mut answered) = match (target.state, params.get("requestState")) {
        (true, Some(Value::String(s))) => {
            match open(&key, principal, method, &target.name, args, s) {
                None => return Some(fixed("I7")),
                Some(state) if now > state.expires => {
                    return Some(fixed("I8"));
                }
                Some(state) => (usize::from(state.round), state.answered),
            }
        }
        (true, Some(_)) => return Some(fixed("I6")),
        _ => (0, 0),
    };
    let Some(inputs) = target.rounds.get(round) else {
        return Some(fixed("I7"));
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
                None => return Some(fixed("I10")),
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
            // The code of every invalid-params row (I10's, as I5's).
            let (code, _) = super::rows::fixed("I10");
            InputExpect {
                row: "I11",
                due: Due::Error {
                    code,
                    message: PROMPT_REFUSED.into(),
                    data: None,
                },
                runs: false,
            }
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
/// [`crate::model::Expect`] whose row is the one [`expect`] names: the
/// error when one is due, else [`crate::model::Reply::Input`], which
/// [`check`] judges at the epoch (an `InputRequiredResult`, or the
/// target's result), naming the tool that runs (I12 of a tool). `None`
/// when `params` names no input target.
pub fn generic(
    config: &Config,
    id: &str,
    method: &str,
    params: &super::tree::Json,
) -> Option<super::expect::Expect> {
    use super::expect::{Expect, Reply};
    // The model reads the request with id 0; the reply's id is compared
    // as raw text (`Reply::Input`), so that ids serde_json cannot hold
    // exactly are judged too.
    let request = json!({"jsonrpc": "2.0", "id": 0, "method": method, "params": params.to_value()});
    let want = expect(config, &request, 0)?;
    let url = touches_url_mode(config, &request, &want);
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
        _ => Reply::Input {
            id: id.to_owned(),
            runs: want
                .runs
                .then(|| target(config, &request).map(|(t, _)| t.name.clone()))
                .flatten(),
            request,
        },
    };
    let expect = Expect::new(want.row, reply);
    Some(if url { expect.note("I15") } else { expect })
}

/// I15: whether the request answers a URL-mode elicitation, or the reply
/// due asks for one.
fn touches_url_mode(config: &Config, request: &Value, want: &InputExpect) -> bool {
    let Some((target, _)) = target(config, request) else {
        return false;
    };
    let url = |s: &&InputSpec| s.params.get("mode") == Some(&json!("url"));
    let answered = request
        .pointer("/params/inputResponses")
        .and_then(Value::as_object)
        .is_some_and(|r| {
            target
                .rounds
                .iter()
                .flatten()
                .filter(url)
                .any(|s| r.contains_key(&s.key))
        });
    let asked = match &want.due {
        Due::Input { keys, state } => target
            .rounds
            .get(state.map_or(0, |s| usize::from(s.round)))
            .is_some_and(|round| round.iter().filter(url).any(|s| keys.contains(&s.key))),
        _ => false,
    };
    answered || asked
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

/// The paths the request's `clientCapabilities` declares
/// ([`super::capabilities::declared`]).
fn declared(params: &Value) -> Vec<String> {
    super::capabilities::declared(
        params.pointer("/_meta/io.modelcontextprotocol~1clientCapabilities"),
    )
}

/// I3, I14: the inputs of a round the request can receive (everything
/// each needs declared, its capability and the sub-capability its params
/// call for), or the `-32021` naming exactly what the refused inputs lack.
fn receivable(inputs: &[InputSpec], declared: &[String]) -> Result<Vec<usize>, InputExpect> {
    use super::capabilities::{lacking, required, row};
    let refuse = |specs: Vec<&InputSpec>| {
        let mut missing: Vec<&'static str> = Vec::new();
        for s in specs {
            for path in lacking(s, declared) {
                if !missing.contains(&path) {
                    missing.push(path);
                }
            }
        }
        let (code, message) = super::rows::fixed("I3");
        InputExpect {
            row: row(&missing),
            due: Due::Error {
                code,
                message,
                data: Some(json!({ "requiredCapabilities": required(&missing) })),
            },
            runs: false,
        }
    };
    let can = |s: &InputSpec| lacking(s, declared).is_empty();
    let blocked: Vec<&InputSpec> = inputs.iter().filter(|s| !s.optional && !can(s)).collect();
    if !blocked.is_empty() {
        return Err(refuse(blocked));
    }
    let wanted: Vec<usize> = (0..inputs.len())
        .filter(|&i| inputs.get(i).is_some_and(can))
        .collect();
    if wanted.is_empty() {
        return Err(refuse(inputs.iter().collect()));
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
            // URL mode: "For URL mode: The `content` field is omitted"
            // (client/elicitation.mdx, "Response Actions"): consent, no data.
            "accept" if spec.params.get("mode") == Some(&json!("url")) => {
                (!a.contains_key("content")).then_some(true)
            }
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

/// The twelve bytes before the tag: format `1`, the round, the answered
/// inputs, the expiry (big-endian).
fn header(state: State) -> Vec<u8> {
    let mut h = vec![1, state.round];
    h.extend(state.answered.to_be_bytes());
    h.extend(state.expires.to_be_bytes());
    h
}

/// Seals `state` for a request of `method` to `name` with `args`, by
/// `principal`, under `key`, as the model reads the format (the same
/// format [`open`] reads): what a client presents on a retry. The
/// generators make valid, expired and forged states with it.
pub fn seal(
    key: &[u8],
    principal: &str,
    method: &str,
    name: &str,
    args: &Map<String, Value>,
    state: State,
) -> String {
    let mut bytes = header(state);
    bytes.extend(tag(key, principal, method, name, args, &bytes));
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
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
/// `request` at `now`; the error says what differs. A result is compared
/// whole: exactly the members the row gives it (`resultType`, the
/// serverInfo `_meta`, and `inputRequests` and `requestState`, or
/// `content` and `isError`, or `description` and `messages`), each input
/// request exactly as configured for the round due, and a `requestState`
/// opened with the model's own verifier to the round, answers and expiry
/// due.
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
    let (target, _) = target(config, request).ok_or("no target")?;
    let identity = config.identity();
    let meta = json!({"io.modelcontextprotocol/serverInfo":
        {"name": identity.name, "version": identity.version}});
    match &want.due {
        Due::Error {
            code,
            message,
            data,
        } => {
            let mut error = json!({"code": code, "message": message});
            if let Some(d) = data {
                error["data"] = d.clone();
            }
            if reply.get("error") != Some(&error) || reply.get("result").is_some() {
                return fail(format!("expected error {error}"));
            }
        }
        Due::Input { keys, state } => {
            let Some(r) = reply.get("result").and_then(Value::as_object) else {
                return fail("expected an InputRequiredResult".into());
            };
            if r.get("resultType") != Some(&json!("input_required")) {
                return fail("expected an InputRequiredResult".into());
            }
            let allowed = ["resultType", "_meta", "inputRequests", "requestState"];
            if r.get("_meta") != Some(&meta) || r.keys().any(|k| !allowed.contains(&k.as_str())) {
                return fail(format!(
                    "expected only resultType, _meta {meta}, inputRequests and requestState"
                ));
            }
            // The round the inputs are asked for: the state's, else the
            // first (a target without state has one round).
            let round = state.map_or(0, |s| usize::from(s.round));
            let inputs = target
                .rounds
                .get(round)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let mut due = Map::new();
            for k in keys {
                if let Some(s) = inputs.iter().find(|s| &s.key == k) {
                    due.insert(
                        k.clone(),
                        json!({"method": method_of(s.kind), "params": s.params}),
                    );
                }
            }
            if r.get("inputRequests") != Some(&Value::Object(due)) {
                return fail(format!(
                    "expected inputRequests {keys:?} of round {round}, each as configured"
                ));
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
            let want_body = json!({"resultType": "complete", "_meta": meta,
                "content": [{"type": "text", "text": text}], "isError": is_error});
            if reply.get("result") != Some(&want_body) {
                return fail(format!("expected the tool result {want_body}"));
            }
        }
        Due::Prompt { text } => {
            let want_body = json!({"resultType": "complete", "_meta": meta,
                "description": target.description,
                "messages": [{"role": "user", "content": {"type": "text", "text": text}}]});
            if reply.get("result") != Some(&want_body) {
                return fail(format!("expected the prompt result {want_body}"));
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

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY";

    /// One tool of two rounds with state and an optional argument.
    fn config() -> Config {
        let file = json!({"input_required": {"state_key": KEY, "tools": [{
            "name": "t", "description": "d", "arguments": ["topic"], "state": true,
            "rounds": [[{"key": "k", "kind": "roots", "params": {}}],
                       [{"key": "j", "kind": "roots", "params": {}}]],
            "result": "ok"}]}});
        Config::from_json(file.to_string().as_bytes()).unwrap()
    }

    fn call(params: Value) -> Value {
        let mut params = params;
        params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"roots": {}}});
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
    }

    /// [`seal`] writes what [`open`] reads, bound to the key, principal,
    /// method, name and arguments; and it is the state the server issues
    /// and takes back.
    #[test]
    fn seal_is_what_open_reads_and_what_the_server_issues() {
        let c = config();
        let key = key(&c);
        let args = json!({"topic": "a"});
        let args = args.as_object().unwrap();
        let state = State {
            round: 1,
            answered: 0,
            expires: 300,
        };
        let s = seal(&key, c.user(), "tools/call", "t", args, state);
        assert_eq!(s.len(), 59);
        assert_eq!(
            open(&key, c.user(), "tools/call", "t", args, &s),
            Some(state)
        );
        let other = json!({"topic": "b"});
        for opened in [
            open(b"another key", c.user(), "tools/call", "t", args, &s),
            open(&key, "someone", "tools/call", "t", args, &s),
            open(&key, c.user(), "prompts/get", "t", args, &s),
            open(&key, c.user(), "tools/call", "u", args, &s),
            open(
                &key,
                c.user(),
                "tools/call",
                "t",
                other.as_object().unwrap(),
                &s,
            ),
        ] {
            assert_eq!(opened, None);
        }
        let server = mcp_reference::Server::new(c.clone());
        let first = call(json!({"name": "t", "arguments": {"topic": "a"}}));
        let reply: Value =
            serde_json::from_slice(&server.respond(first.to_string().as_bytes()).unwrap()).unwrap();
        let round0 = State {
            round: 0,
            answered: 0,
            expires: 300,
        };
        assert_eq!(
            reply["result"]["requestState"],
            json!(seal(&key, c.user(), "tools/call", "t", args, round0))
        );
        // The model's state for round 1 takes the server to that round's
        // answer: the tool's result.
        let retry = call(
            json!({"name": "t", "arguments": {"topic": "a"}, "requestState": s,
            "inputResponses": {"j": {"roots": []}}}),
        );
        let reply: Value =
            serde_json::from_slice(&server.respond(retry.to_string().as_bytes()).unwrap()).unwrap();
        assert_eq!(check(&c, &retry, 0, &reply).unwrap().row, "I12");
    }

    /// The generic model judges an input target's reply whole: the
    /// server's reply passes under the input model's row, and the same
    /// reply with one thing changed (an input request's params, the
    /// state, a member added) fails.
    #[test]
    fn the_generic_model_judges_an_input_reply_whole() {
        let c = config();
        let server = mcp_reference::Server::new(c.clone());
        let first = call(json!({"name": "t", "arguments": {"topic": "a"}}));
        let line = first.to_string();
        let expect = crate::model::expect_line(&c, line.as_bytes());
        assert_eq!(expect.row, "I2");
        let reply = server.respond(line.as_bytes()).unwrap();
        expect.check(&c, &reply).unwrap();
        let text = String::from_utf8(reply).unwrap();
        let state = expect_state(&text);
        for broken in [
            text.replace(r#""params":{}"#, r#""params":{"x":1}"#),
            text.replace(&state, &state.replace('A', "B")),
            text.replace(
                r#""resultType":"input_required","#,
                r#""resultType":"input_required","x":1,"#,
            ),
        ] {
            assert_ne!(broken, text);
            assert!(expect.check(&c, broken.as_bytes()).is_err(), "{broken}");
        }
    }

    fn expect_state(reply: &str) -> String {
        let v: Value = serde_json::from_str(reply).unwrap();
        v["result"]["requestState"].as_str().unwrap().to_owned()
    }
}
