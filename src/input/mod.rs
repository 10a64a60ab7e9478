//! Multi round-trip requests: the configured tools and prompts that answer
//! with an `InputRequiredResult` until the client has supplied what they
//! ask for (rows I1 to I15 of docs/behavior.md, "Multi round-trip
//! requests"; configuration in `crate::config::input`).
//!
//! One request is judged on its own, in this order (DEC42):
//!
//! 1. `inputResponses`, when present, an object: else `-32602` (I5);
//! 2. for a target that issues state, a presented `requestState` opens
//!    under the key for this principal, method, name and arguments, and has
//!    not expired (module `state`): else `-32602`, nothing runs (I6 to I9);
//!    without one the request is a first round. A target that issues no
//!    state ignores one (DEC17 applies to it as to every other tool);
//! 3. the round's inputs that this request's `clientCapabilities` cannot
//!    receive, to the sub-capability (an elicitation's mode, a sampling
//!    request's `tools` and `includeContext`: I14): a required one, or a
//!    round none of whose inputs it can receive, gets `-32021` naming
//!    exactly what is missing (I3); optional ones are left out;
//! 4. each answer to an input of the round is a valid result of its request
//!    (module `answers`): else `-32602` (I10); an elicitation declined or
//!    cancelled ends the request without running it (I11); answers to keys
//!    the round does not ask for are ignored (I12);
//! 5. inputs still unanswered are asked for again, alone, in a new
//!    `InputRequiredResult` (I4); a round fully answered moves to the next
//!    round's `InputRequiredResult`; after the last, the tool runs (through
//!    the [`Executor`](crate::tools::Executor)) or the prompt is rendered.
//!
//! Each `InputRequiredResult` is `resultType: "input_required"`, the
//! serverInfo `_meta`, `inputRequests` (never empty) and, for a target that
//! issues state, a fresh `requestState` for the round and the inputs
//! answered so far, expiring `state_ttl_seconds` after `now` (I2). Nothing
//! but `tools/call` and `prompts/get` can reach this module (I1).
//!
//! Spec: 2026-07-28 `basic/patterns/mrtr.mdx` (whole); `basic/index.mdx`,
//! "Per-request protocol fields" (`-32021` with `data.requiredCapabilities`,
//! MUST); `client/elicitation.mdx` (modes, "Capabilities"),
//! `client/sampling.mdx` (`sampling.tools`, `sampling.context`),
//! `client/roots.mdx`.

mod answers;
mod state;

use serde_json::Value;

use crate::canonical::{Node, obj};
use crate::config::Config;
use crate::config::input::{InputRequired, InputSpec, InputTarget};
use crate::error::{Code, ErrorData, RpcError};
use crate::json::Shallow;
use crate::tools::{
    Arguments, Checked, Era, Mirrored, Rendered, Tool, complete_result, server_info, text_block,
    text_result,
};
use answers::Answer;
use state::{Bound, Progress};

/// An input request as a server sent it (its `method` and `params`, from
/// an `InputRequiredResult`), asked about by `mcp-reference judge`: the
/// sub-capabilities it needs, as the bits of
/// [`Need::bit`](crate::config::input::Need::bit); whether `answer` has
/// the shape of a result of it (judged as module `answers` judges it, row
/// I10, against a `requestedSchema` that allows any `content` object);
/// and whether it is valid against the request's own `requestedSchema`
/// too. `None` when `method` names no input request.
pub(crate) fn answer_of(method: &str, params: &Value, answer: &Value) -> Option<(u8, bool, bool)> {
    let kind = crate::config::input::InputKind::ALL
        .into_iter()
        .find(|k| k.method() == method)?;
    let mut spec = InputSpec {
        key: String::new(),
        kind,
        optional: false,
        params: params.clone(),
    };
    let valid = answers::judge(&spec, answer).is_some();
    if let Some(params) = spec.params.as_object_mut()
        && params.contains_key("requestedSchema")
    {
        params.insert(
            "requestedSchema".into(),
            serde_json::json!({"type": "object", "properties": {}}),
        );
    }
    let shaped = answers::judge(&spec, answer).is_some();
    Some((spec.needs(), shaped, valid))
}

/// `-32602` for `inputResponses` that is not an object.
pub(crate) const RESPONSES_NOT_OBJECT: RpcError<'static> =
    RpcError::invalid_params("Invalid params: inputResponses must be an object");
/// `-32602` for an answer that is not a valid result of its request.
pub(crate) const BAD_ANSWER: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: an inputResponses value is not a valid result of the input request it answers",
);
/// `-32602` for a prompt whose elicitation was declined or cancelled.
pub(crate) const PROMPT_REFUSED: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: the input this prompt needs was declined or cancelled; nothing was produced",
);
/// The message of `-32021`.
const MISSING_CAPABILITY: &str = "Missing required client capability: this request needs input of a kind its clientCapabilities does not declare; see data.requiredCapabilities";
/// The text of a tool result after a declined or cancelled elicitation.
const TOOL_REFUSED: &str =
    "declined: the input this tool asked for was declined or cancelled, so it did nothing.";

/// `-32021` naming the needs in `bits` (of `Need::bit`).
fn missing(bits: u8) -> RpcError<'static> {
    RpcError {
        code: Code::MissingRequiredClientCapability,
        message: MISSING_CAPABILITY,
        data: ErrorData::RequiredCapabilities(bits),
    }
}

/// One request to an input target, beyond its name and arguments.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ask<'r> {
    /// The authenticated principal (the configured user of the server).
    pub principal: &'r str,
    /// The input capabilities and sub-capabilities the request declares
    /// (the bits of `Need::bit`).
    pub declared: u8,
    /// Now, in seconds since 1970.
    pub now: u64,
    /// `inputResponses`, if present.
    pub responses: Option<&'r Value>,
    /// `requestState`, if present.
    pub state: Option<&'r Shallow<'r>>,
}

/// What a request to an input target came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Judged {
    /// Every round is answered: run the tool, render the prompt.
    Complete,
    /// An elicitation was declined or cancelled.
    Refused,
    /// The body of an `InputRequiredResult`.
    Input(Vec<u8>),
}

/// A configured tool that asks for input.
#[derive(Clone)]
pub(crate) struct InputTool {
    target: InputTarget,
    requests: Requests,
    complete: Rendered,
    refused: Rendered,
    invalid: Rendered,
}

impl Tool for InputTool {
    fn name(&self) -> &str {
        &self.target.name
    }
    fn descriptor(&self) -> Node {
        obj! {
            "name" => &self.target.name,
            "description" => &self.target.description,
            "inputSchema" => input_schema(&self.target.arguments),
        }
    }
    fn check<'b>(&self, args: &'b Arguments<'b>, era: Era) -> Result<Checked<'b>, &[u8]> {
        if strings_only(&self.target, args) {
            Ok(Checked::new(args, era))
        } else {
            Err(self.invalid.get(era))
        }
    }
    fn run(&self, args: Checked<'_>) -> &[u8] {
        self.complete.get(args.era())
    }
    fn mirrored(&self) -> &[Mirrored] {
        &[]
    }
    fn modern_only(&self) -> bool {
        true
    }
}

impl InputTool {
    /// The body of the result after a refused elicitation.
    pub(crate) fn refused(&self) -> &[u8] {
        self.refused.get(Era::Modern)
    }
    /// Its configuration.
    pub(crate) fn target(&self) -> &InputTarget {
        &self.target
    }
    /// Its input requests, rendered.
    pub(crate) fn requests(&self) -> &Requests {
        &self.requests
    }
}

/// The input requests of a target, each rendered once, at build, as the
/// member of `inputRequests` it is (`"key":{"method":...,"params":...}`),
/// by round and by input.
pub(crate) type Requests = Vec<Vec<Vec<u8>>>;

fn render_requests(target: &InputTarget) -> Requests {
    target
        .rounds
        .iter()
        .map(|round| {
            round
                .iter()
                .map(|input| {
                    let request = obj! {
                        "method" => input.kind.method(),
                        "params" => Node::Json(input.params.clone()),
                    };
                    let mut member = Node::from(&input.key).to_vec();
                    member.push(b':');
                    member.extend(request.to_vec());
                    member
                })
                .collect()
        })
        .collect()
}

/// A configured prompt that asks for input.
pub(crate) struct InputPrompt {
    target: InputTarget,
    requests: Requests,
    complete: Vec<u8>,
}

impl InputPrompt {
    /// Its configuration.
    pub(crate) fn target(&self) -> &InputTarget {
        &self.target
    }
    /// Its input requests, rendered.
    pub(crate) fn requests(&self) -> &Requests {
        &self.requests
    }
    /// Its `prompts/list` entry.
    pub(crate) fn descriptor(&self) -> Node {
        let arguments = self
            .target
            .arguments
            .iter()
            .map(|a| obj! { "name" => a, "required" => false })
            .collect();
        let mut members = vec![
            ("name", Node::from(&self.target.name)),
            ("description", Node::from(&self.target.description)),
        ];
        if !self.target.arguments.is_empty() {
            members.push(("arguments", Node::Arr(arguments)));
        }
        Node::obj(members)
    }
    /// The body of its complete `GetPromptResult`.
    pub(crate) fn complete(&self) -> &[u8] {
        &self.complete
    }
    /// Whether `args` are strings it declares.
    pub(crate) fn accepts(&self, args: &Arguments<'_>) -> bool {
        strings_only(&self.target, args)
    }
}

/// The input targets of a configuration.
pub(crate) struct Inputs {
    key: state::Key,
    ttl: u64,
    /// `{"resultType":"input_required","_meta":{...},"inputRequests":{`,
    /// what every `InputRequiredResult` starts with (row W1's order).
    prefix: Vec<u8>,
    tools: Vec<InputTool>,
    prompts: Vec<InputPrompt>,
}

impl Inputs {
    /// The configuration's input targets, rendered; `None` without any.
    pub(crate) fn new(config: &Config) -> Option<Inputs> {
        let input: &InputRequired = config.input()?;
        let identity = config.identity().clone();
        let tools = input
            .tools
            .iter()
            .map(|t| InputTool {
                target: t.clone(),
                requests: render_requests(t),
                complete: text_result(&t.result, false, &identity),
                refused: text_result(TOOL_REFUSED, true, &identity),
                invalid: text_result(&invalid_text(t), true, &identity),
            })
            .collect();
        let prompts = input
            .prompts
            .iter()
            .map(|p| {
                let message = obj! { "role" => "user", "content" => text_block(p.result.clone()) };
                let members = vec![
                    ("description", Node::from(&p.description)),
                    ("messages", Node::Arr(vec![message])),
                ];
                InputPrompt {
                    target: p.clone(),
                    requests: render_requests(p),
                    complete: complete_result(members, &identity),
                }
            })
            .collect();
        // Everything before the first input request: an object whose
        // last member is an empty `inputRequests`, cut before its `}}`.
        let mut prefix = Node::obj(vec![
            ("resultType", Node::from("input_required")),
            (
                "_meta",
                obj! { "io.modelcontextprotocol/serverInfo" => server_info(&identity) },
            ),
            ("inputRequests", Node::Map(Vec::new())),
        ])
        .to_vec();
        prefix.truncate(prefix.len().saturating_sub(2));
        Some(Inputs {
            key: state::Key::new(&input.key().unwrap_or_default()),
            ttl: input.state_ttl_seconds,
            prefix,
            tools,
            prompts,
        })
    }

    /// The tools, in configured order.
    pub(crate) fn tools(&self) -> &[InputTool] {
        &self.tools
    }
    /// The tool called `name`.
    pub(crate) fn tool(&self, name: &str) -> Option<&InputTool> {
        self.tools.iter().find(|t| t.target.name == name)
    }
    /// The prompts, in configured order.
    pub(crate) fn prompts(&self) -> &[InputPrompt] {
        &self.prompts
    }
    /// The prompt called `name`.
    pub(crate) fn prompt(&self, name: &str) -> Option<&InputPrompt> {
        self.prompts.iter().find(|p| p.target.name == name)
    }

    /// Judges one request to `target` (`method` is `tools/call` or
    /// `prompts/get`) whose arguments passed its check: steps 1 to 5 of
    /// the module documentation.
    pub(crate) fn judge(
        &self,
        target: &InputTarget,
        requests: &Requests,
        method: &str,
        args: &Arguments<'_>,
        ask: &Ask<'_>,
    ) -> Result<Judged, RpcError<'static>> {
        let empty = serde_json::Map::new();
        let responses = match ask.responses {
            None => &empty,
            Some(Value::Object(map)) => map,
            Some(_) => return Err(RESPONSES_NOT_OBJECT),
        };
        let bound = Bound {
            principal: ask.principal,
            method,
            name: &target.name,
            args,
        };
        let (round, answered) = match (target.state, ask.state) {
            (true, Some(presented)) => {
                let p = state::open(&self.key, &bound, presented, ask.now)?;
                (usize::from(p.round), p.answered)
            }
            _ => (0, 0),
        };
        let Some(inputs) = target.rounds.get(round) else {
            // A verified state names a round of this target: only a
            // configuration changed under the same key gets here.
            return Err(state::INVALID);
        };
        let wanted = needed(inputs, ask.declared)?;
        let mut answered = answered;
        let mut refused = false;
        for (i, input) in inputs.iter().enumerate() {
            if !wanted.contains(&i) {
                continue;
            }
            if let Some(value) = responses.get(&input.key) {
                match answers::judge(input, value) {
                    None => return Err(BAD_ANSWER),
                    Some(Answer::Refused) => refused = true,
                    Some(Answer::Accepted) => answered |= 1 << i,
                }
            }
        }
        if refused {
            return Ok(Judged::Refused);
        }
        let missing: Vec<usize> = wanted
            .iter()
            .copied()
            .filter(|&i| answered & (1 << i) == 0)
            .collect();
        if !missing.is_empty() {
            let rendered = requests.get(round).map(Vec::as_slice).unwrap_or_default();
            let body =
                self.input_required(target, &bound, ask.now, round, answered, rendered, &missing)?;
            return Ok(Judged::Input(body));
        }
        match target.rounds.get(round + 1) {
            None => Ok(Judged::Complete),
            Some(next) => {
                let asked = needed(next, ask.declared)?;
                let rendered = requests
                    .get(round + 1)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                let body =
                    self.input_required(target, &bound, ask.now, round + 1, 0, rendered, &asked)?;
                Ok(Judged::Input(body))
            }
        }
    }

    /// The body of an `InputRequiredResult` asking for `asked` of a
    /// round's `rendered` requests (round `round`, `answered` so far): the
    /// prefix, the requests, and for a target with state a new state.
    #[allow(clippy::too_many_arguments)]
    fn input_required(
        &self,
        target: &InputTarget,
        bound: &Bound<'_>,
        now: u64,
        round: usize,
        answered: u16,
        rendered: &[Vec<u8>],
        asked: &[usize],
    ) -> Result<Vec<u8>, RpcError<'static>> {
        let mut body = Vec::with_capacity(self.prefix.len() + 512);
        body.extend_from_slice(&self.prefix);
        for (n, request) in asked.iter().filter_map(|&i| rendered.get(i)).enumerate() {
            if n > 0 {
                body.push(b',');
            }
            body.extend_from_slice(request);
        }
        body.push(b'}');
        if target.state {
            let progress = Progress {
                round: u8::try_from(round).map_err(|_| state::INVALID)?,
                answered,
                expires: now.saturating_add(self.ttl),
            };
            let sealed = state::seal(&self.key, bound, progress).ok_or(state::INVALID)?;
            // Base64url: nothing in it needs escaping.
            body.extend_from_slice(b",\"requestState\":\"");
            body.extend_from_slice(sealed.as_bytes());
            body.push(b'"');
        }
        body.push(b'}');
        Ok(body)
    }
}

/// The indices of the inputs of a round this request's client can receive
/// (step 3 of the module documentation): an input can be received when
/// the request declares everything it needs, its capability and the
/// sub-capability its params call for ([`InputSpec::needs`], row I14).
/// `-32021` when a required input, or every input, cannot, naming exactly
/// what is missing: the needs of those inputs the request does not
/// declare.
fn needed(inputs: &[InputSpec], declared: u8) -> Result<Vec<usize>, RpcError<'static>> {
    let lacks = |input: &InputSpec| input.needs() & !declared;
    let required: u8 = inputs
        .iter()
        .filter(|i| !i.optional)
        .fold(0, |bits, i| bits | lacks(i));
    if required != 0 {
        return Err(missing(required));
    }
    let needed: Vec<usize> = (0..inputs.len())
        .filter(|&i| inputs.get(i).is_some_and(|input| lacks(input) == 0))
        .collect();
    if needed.is_empty() {
        let all = inputs.iter().fold(0, |bits, i| bits | lacks(i));
        return Err(missing(all));
    }
    Ok(needed)
}

/// The `inputSchema` of an input tool: its arguments, optional strings,
/// and no others.
fn input_schema(arguments: &[String]) -> Node {
    let properties = arguments
        .iter()
        .map(|a| (a.clone(), obj! { "type" => "string" }))
        .collect();
    obj! {
        "type" => "object",
        "properties" => Node::Map(properties),
        "additionalProperties" => false,
    }
}

/// Whether every argument is a string the target declares.
fn strings_only(target: &InputTarget, args: &Arguments<'_>) -> bool {
    args.iter()
        .all(|(name, value)| value.as_str().is_some() && target.arguments.iter().any(|a| a == name))
}

/// The `isError` text for arguments an input tool does not take.
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

#[cfg(test)]
mod tests {
    use crate::{Config, Server};

    /// A configuration of one stateless input tool whose single round is
    /// `round` (a JSON array of input specs).
    fn server(round: &str) -> Server {
        let config = format!(
            r#"{{"input_required": {{"tools": [{{"name": "t", "description": "d",
                "rounds": [{round}], "result": "done"}}]}}}}"#
        );
        Server::new(Config::from_json(config.as_bytes()).expect("the configuration loads"))
    }

    fn reply(server: &Server, caps: &str) -> serde_json::Value {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{caps}}}}}}}"#
        );
        let out = server.respond(line.as_bytes()).expect("a reply");
        serde_json::from_slice(&out).expect("JSON")
    }

    const ELICIT: &str = r#"{"message": "m", "requestedSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}"#;

    /// I3: two required inputs of the same kind the request does not
    /// declare name that kind once in `requiredCapabilities`, even when
    /// the request can receive another input of the round (the kinds are
    /// gathered as a set: two of a kind do not cancel out, and the round
    /// is not asked without them).
    #[test]
    fn two_required_inputs_of_one_undeclared_kind_name_it() {
        let s = server(&format!(
            r#"[{{"key": "a", "kind": "elicitation", "params": {ELICIT}}},
                {{"key": "b", "kind": "elicitation", "params": {ELICIT}}},
                {{"key": "c", "kind": "roots", "optional": true, "params": {{}}}}]"#
        ));
        let r = reply(&s, r#"{"roots": {}}"#);
        assert_eq!(r["error"]["code"], -32021, "{r}");
        assert_eq!(
            r["error"]["data"]["requiredCapabilities"],
            serde_json::json!({"elicitation": {"form": {}}}),
            "{r}"
        );
    }

    const URL: &str = r#"{"mode": "url", "message": "m", "url": "https://example.com/go"}"#;
    const TOOLS: &str = r#"{"messages": [{"role": "user", "content": {"type": "text", "text": "q"}}],
        "maxTokens": 5, "tools": [{"name": "x", "inputSchema": {"type": "object"}}]}"#;
    const CONTEXT: &str = r#"{"messages": [{"role": "user", "content": {"type": "text", "text": "q"}}],
        "maxTokens": 5, "includeContext": "allServers"}"#;

    /// The `requiredCapabilities` of a reply, or `"asked"` for an
    /// `InputRequiredResult`.
    fn outcome(s: &Server, caps: &str) -> serde_json::Value {
        let r = reply(s, caps);
        if r["result"]["resultType"] == "input_required" {
            serde_json::json!("asked")
        } else {
            assert_eq!(r["error"]["code"], -32021, "{r}");
            r["error"]["data"]["requiredCapabilities"].clone()
        }
    }

    /// I14: each input needs its sub-capability, and each declared
    /// combination either receives it or is told exactly what it lacks.
    #[test]
    fn each_sub_capability_is_needed_and_named() {
        use serde_json::json;
        let form = server(&format!(
            r#"[{{"key": "a", "kind": "elicitation", "params": {ELICIT}}}]"#
        ));
        let url = server(&format!(
            r#"[{{"key": "a", "kind": "elicitation", "params": {URL}}}]"#
        ));
        let tools = server(&format!(
            r#"[{{"key": "a", "kind": "sampling", "params": {TOOLS}}}]"#
        ));
        let context = server(&format!(
            r#"[{{"key": "a", "kind": "sampling", "params": {CONTEXT}}}]"#
        ));
        let want_form = json!({"elicitation": {"form": {}}});
        let want_url = json!({"elicitation": {"url": {}}});
        for (caps, f, u) in [
            ("{}", &want_form, &want_url),
            (r#"{"elicitation": {}}"#, &json!("asked"), &want_url),
            (
                r#"{"elicitation": {"form": {}}}"#,
                &json!("asked"),
                &want_url,
            ),
            (
                r#"{"elicitation": {"url": {}}}"#,
                &want_form,
                &json!("asked"),
            ),
            (
                r#"{"elicitation": {"form": {}, "url": {}}}"#,
                &json!("asked"),
                &json!("asked"),
            ),
            // A mode that is not an object declares nothing, and names a
            // mode, so the empty object's form mode is not implied.
            (r#"{"elicitation": {"url": true}}"#, &want_form, &want_url),
            (
                r#"{"elicitation": {"other": {}}}"#,
                &json!("asked"),
                &want_url,
            ),
        ] {
            assert_eq!(&outcome(&form, caps), f, "form, {caps}");
            assert_eq!(&outcome(&url, caps), u, "url, {caps}");
        }
        let want_tools = json!({"sampling": {"tools": {}}});
        let want_context = json!({"sampling": {"context": {}}});
        for (caps, t, c) in [
            ("{}", &want_tools, &want_context),
            (r#"{"sampling": {}}"#, &want_tools, &want_context),
            (
                r#"{"sampling": {"tools": {}}}"#,
                &json!("asked"),
                &want_context,
            ),
            (
                r#"{"sampling": {"context": {}}}"#,
                &want_tools,
                &json!("asked"),
            ),
            (
                r#"{"sampling": {"tools": {}, "context": {}}}"#,
                &json!("asked"),
                &json!("asked"),
            ),
            (
                r#"{"sampling": {"tools": 1, "context": []}}"#,
                &want_tools,
                &want_context,
            ),
            // Sub-capabilities outside their capability declare nothing.
            (
                r#"{"tools": {}, "context": {}, "elicitation": {"tools": {}}}"#,
                &want_tools,
                &want_context,
            ),
        ] {
            assert_eq!(&outcome(&tools, caps), t, "tools, {caps}");
            assert_eq!(&outcome(&context, caps), c, "context, {caps}");
        }
        // `includeContext: "none"` needs only sampling.
        let none = CONTEXT.replace("allServers", "none");
        let plain = server(&format!(
            r#"[{{"key": "a", "kind": "sampling", "params": {none}}}]"#
        ));
        assert_eq!(outcome(&plain, r#"{"sampling": {}}"#), json!("asked"));
        // Several missing at once are named together, each capability
        // once.
        let all = server(&format!(
            r#"[{{"key": "a", "kind": "elicitation", "params": {URL}}},
                {{"key": "b", "kind": "elicitation", "params": {ELICIT}}},
                {{"key": "c", "kind": "sampling", "params": {TOOLS}}},
                {{"key": "d", "kind": "sampling", "params": {CONTEXT}}},
                {{"key": "e", "kind": "roots", "params": {{}}}}]"#
        ));
        assert_eq!(
            outcome(&all, r#"{"sampling": {}}"#),
            json!({"elicitation": {"form": {}, "url": {}}, "roots": {}, "sampling": {"context": {}, "tools": {}}})
        );
        // In `Need::ALL`'s order, as written (DEC44's order; within a
        // capability schema.ts's).
        let line = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
        let raw = String::from_utf8(all.respond(line.as_bytes()).expect("a reply")).expect("UTF-8");
        assert!(
            raw.contains(r#""data":{"requiredCapabilities":{"elicitation":{"form":{},"url":{}},"roots":{},"sampling":{"context":{},"tools":{}}}}"#),
            "{raw}"
        );
    }

    /// I14, I10: a URL-mode elicitation is answered by an accept without
    /// `content`, and the tool then runs; an accept with `content` is not
    /// a valid answer to it.
    #[test]
    fn a_url_mode_round_trip_completes_on_an_accept_without_content() {
        let s = server(&format!(
            r#"[{{"key": "a", "kind": "elicitation", "params": {URL}}}]"#
        ));
        let line = |responses: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"t","inputResponses":{responses},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{"elicitation":{{"url":{{}}}}}}}}}}}}"#
            )
        };
        let answer = |responses: &str| -> serde_json::Value {
            serde_json::from_slice(&s.respond(line(responses).as_bytes()).expect("a reply"))
                .expect("JSON")
        };
        let done = answer(r#"{"a": {"action": "accept"}}"#);
        assert_eq!(done["result"]["content"][0]["text"], "done", "{done}");
        let bad = answer(r#"{"a": {"action": "accept", "content": {"x": "y"}}}"#);
        assert_eq!(bad["error"]["code"], -32602, "{bad}");
    }

    /// I3: a round of optional inputs none of which the request can
    /// receive names every kind of the round, each once (two of a kind
    /// and one of another).
    #[test]
    fn a_round_of_optional_inputs_none_receivable_names_every_kind() {
        let s = server(&format!(
            r#"[{{"key": "a", "kind": "elicitation", "optional": true, "params": {ELICIT}}},
                {{"key": "b", "kind": "elicitation", "optional": true, "params": {ELICIT}}},
                {{"key": "c", "kind": "roots", "optional": true, "params": {{}}}}]"#
        ));
        let r = reply(&s, "{}");
        assert_eq!(r["error"]["code"], -32021, "{r}");
        assert_eq!(
            r["error"]["data"]["requiredCapabilities"],
            serde_json::json!({"elicitation": {"form": {}}, "roots": {}}),
            "{r}"
        );
        // Declaring one of them is enough: that input alone is asked for.
        let r = reply(&s, r#"{"roots": {}}"#);
        assert_eq!(r["result"]["resultType"], "input_required", "{r}");
        assert_eq!(
            r["result"]["inputRequests"]
                .as_object()
                .map(|m| m.keys().cloned().collect::<Vec<_>>()),
            Some(vec!["c".to_string()]),
            "{r}"
        );
    }

    /// I14: an optional input of a mode the request lacks is left out,
    /// and the other mode's asked for alone.
    #[test]
    fn an_optional_input_of_an_undeclared_mode_is_left_out() {
        let s = server(&format!(
            r#"[{{"key": "a", "kind": "elicitation", "optional": true, "params": {ELICIT}}},
                {{"key": "b", "kind": "elicitation", "optional": true, "params": {URL}}}]"#
        ));
        let keys = |caps: &str| {
            reply(&s, caps)["result"]["inputRequests"]
                .as_object()
                .map(|m| m.keys().cloned().collect::<Vec<_>>())
        };
        assert_eq!(keys(r#"{"elicitation": {}}"#), Some(vec!["a".to_string()]));
        assert_eq!(
            keys(r#"{"elicitation": {"url": {}}}"#),
            Some(vec!["b".to_string()])
        );
        assert_eq!(
            keys(r#"{"elicitation": {"url": {}, "form": {}}}"#),
            Some(vec!["a".to_string(), "b".to_string()])
        );
        assert_eq!(
            reply(&s, "{}")["error"]["data"]["requiredCapabilities"],
            serde_json::json!({"elicitation": {"form": {}, "url": {}}})
        );
    }
}
