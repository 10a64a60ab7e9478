//! The configuration of multi round-trip requests: the tools and prompts
//! that ask the client for input before they complete, and the key that
//! protects the `requestState` they issue (rows I1 to I15 of
//! docs/behavior.md, "Multi round-trip requests").
//!
//! ```json
//! "input_required": {
//!   "state_key": "<base64url, at least 32 bytes once decoded>",
//!   "state_ttl_seconds": 300,
//!   "tools": [{"name": "...", "description": "...", "state": true,
//!              "rounds": [[{"key": "user_name", "kind": "elicitation",
//!                           "params": {"message": "...", "requestedSchema": {...}}}]],
//!              "result": "..."}],
//!   "prompts": [ ...the same members... ]
//! }
//! ```
//!
//! Every member is checked at load, so the core never meets a malformed
//! input request: a kind is `elicitation` (params: a string `message` and
//! a `requestedSchema` object of `type: "object"` whose properties are
//! primitive schemas), `sampling` (params: a non-empty `messages` array and
//! an integer `maxTokens` >= 1) or `roots` (params: an object); keys are
//! unique within a round (MUST: `basic/patterns/mrtr.mdx`, "Server
//! Requirements" 2). A tool or prompt of more than one round must carry
//! state (the state is what tells one round from the next), and a
//! configuration in which anything carries state needs `state_key` and the
//! `state` feature (HMAC-SHA256): without the feature it is refused at load.
//!
//! Spec: 2026-07-28 `basic/patterns/mrtr.mdx`; `client/elicitation.mdx`
//! (`requestedSchema` is a flat object of primitive properties);
//! `client/sampling.mdx`; `client/roots.mdx`.

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The kinds of input request (`InputRequests` values) and the client
/// capability each needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum InputKind {
    /// `elicitation/create`, capability `elicitation`.
    Elicitation,
    /// `roots/list`, capability `roots`.
    Roots,
    /// `sampling/createMessage`, capability `sampling`.
    Sampling,
}

impl InputKind {
    /// The request's method.
    pub fn method(self) -> &'static str {
        match self {
            InputKind::Elicitation => "elicitation/create",
            InputKind::Roots => "roots/list",
            InputKind::Sampling => "sampling/createMessage",
        }
    }
    /// The `ClientCapabilities` member that declares it.
    pub fn capability(self) -> &'static str {
        match self {
            InputKind::Elicitation => "elicitation",
            InputKind::Roots => "roots",
            InputKind::Sampling => "sampling",
        }
    }
    /// Every kind, in the order `requiredCapabilities` lists them.
    pub const ALL: [InputKind; 3] = [
        InputKind::Elicitation,
        InputKind::Roots,
        InputKind::Sampling,
    ];
}

/// What an input request needs its client to declare: a capability, or a
/// sub-capability of one (row I14 of docs/behavior.md). Sets of them are
/// the bits of [`Need::bit`]: what a request declares
/// (`crate::meta::Meta::declared`), what an input needs
/// ([`InputSpec::needs`]), and what a `-32021` names.
///
/// Spec: 2026-07-28 `client/elicitation.mdx`, "Capabilities" (the modes
/// `form` and `url`; an empty `elicitation` object is form mode only;
/// servers MUST NOT send a mode the client does not support);
/// `client/sampling.mdx`, "Tools in Sampling" (a tool-enabled request
/// MUST NOT go to a client without `sampling.tools`) and "Capabilities"
/// (`includeContext` other than `none` SHOULD NOT be used without
/// `sampling.context`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Need {
    /// `elicitation.form`: a form-mode `elicitation/create`.
    ElicitationForm,
    /// `elicitation.url`: a URL-mode `elicitation/create`.
    ElicitationUrl,
    /// `roots`: a `roots/list`.
    Roots,
    /// `sampling`: a `sampling/createMessage`.
    Sampling,
    /// `sampling.tools`: a sampling request with `tools` or `toolChoice`.
    SamplingTools,
    /// `sampling.context`: a sampling request whose `includeContext` is
    /// not `none`.
    SamplingContext,
}

impl Need {
    /// Every need, in the order `requiredCapabilities` names them: the
    /// capabilities as DEC44 orders them, and within one its members in
    /// `schema.ts`'s declaration order (`form`, `url`; `context`, `tools`).
    pub(crate) const ALL: [Need; 6] = [
        Need::ElicitationForm,
        Need::ElicitationUrl,
        Need::Roots,
        Need::Sampling,
        Need::SamplingContext,
        Need::SamplingTools,
    ];
    /// Its bit in a set.
    pub(crate) fn bit(self) -> u8 {
        match self {
            Need::ElicitationForm => 1,
            Need::ElicitationUrl => 2,
            Need::Roots => 4,
            Need::Sampling => 8,
            Need::SamplingTools => 16,
            Need::SamplingContext => 32,
        }
    }
    /// The `ClientCapabilities` member it is (part of).
    pub(crate) fn capability(self) -> &'static str {
        match self {
            Need::ElicitationForm | Need::ElicitationUrl => "elicitation",
            Need::Roots => "roots",
            Need::Sampling | Need::SamplingTools | Need::SamplingContext => "sampling",
        }
    }
    /// The member of that capability's object it is, if it is one.
    pub(crate) fn sub(self) -> Option<&'static str> {
        match self {
            Need::ElicitationForm => Some("form"),
            Need::ElicitationUrl => Some("url"),
            Need::Roots | Need::Sampling => None,
            Need::SamplingTools => Some("tools"),
            Need::SamplingContext => Some("context"),
        }
    }
}

/// One input request of a round.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct InputSpec {
    /// The key in `inputRequests` and `inputResponses`.
    pub key: String,
    /// The kind of request.
    pub kind: InputKind,
    /// When true, the input is asked for only if the request declares its
    /// capability, and the round completes without it otherwise; when
    /// false (the default), a request that does not declare it gets
    /// `-32021`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// The request's `params`, as sent.
    pub params: Value,
}

impl InputSpec {
    /// What the request needs its client to declare, as the bits of
    /// [`Need::bit`] (row I14): an elicitation its mode (`url` when
    /// `params.mode` is `"url"`, else form, the mode a request without
    /// `mode` is); a sampling request `sampling`, with `sampling.tools`
    /// when its params carry `tools` or `toolChoice` (`client/sampling.mdx`,
    /// "Tools in Sampling"; the schema: a client MUST return an error for
    /// either without `sampling.tools`) and `sampling.context` when they
    /// carry an `includeContext` other than `"none"`; roots `roots`.
    pub(crate) fn needs(&self) -> u8 {
        match self.kind {
            InputKind::Elicitation => {
                if self.params.get("mode").and_then(Value::as_str) == Some("url") {
                    Need::ElicitationUrl.bit()
                } else {
                    Need::ElicitationForm.bit()
                }
            }
            InputKind::Roots => Need::Roots.bit(),
            InputKind::Sampling => {
                let mut bits = Need::Sampling.bit();
                if self.params.get("tools").is_some() || self.params.get("toolChoice").is_some() {
                    bits |= Need::SamplingTools.bit();
                }
                if self
                    .params
                    .get("includeContext")
                    .is_some_and(|c| c.as_str() != Some("none"))
                {
                    bits |= Need::SamplingContext.bit();
                }
                bits
            }
        }
    }
}

/// A tool or prompt that asks for input before it completes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct InputTarget {
    /// The tool's or prompt's name.
    pub name: String,
    /// Its description, as listed.
    pub description: String,
    /// Its arguments, all optional strings (and no others): the salient
    /// params a state is bound to, besides the name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<String>,
    /// Whether each `InputRequiredResult` carries a `requestState`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub state: bool,
    /// The rounds, in order: each the input requests of one
    /// `InputRequiredResult`.
    pub rounds: Vec<Vec<InputSpec>>,
    /// The text of the complete result once every round is answered.
    pub result: String,
}

/// The `input_required` member of the configuration.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct InputRequired {
    /// The HMAC-SHA256 key of `requestState`, base64url (no padding).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_key: Option<String>,
    /// How long an issued state is accepted, in seconds (default 300).
    #[serde(default = "default_ttl")]
    pub state_ttl_seconds: u64,
    /// Tools that ask for input.
    #[serde(default)]
    pub tools: Vec<InputTarget>,
    /// Prompts that ask for input.
    #[serde(default)]
    pub prompts: Vec<InputTarget>,
}

fn default_ttl() -> u64 {
    300
}

/// The decoded key, at least this long.
pub(crate) const MIN_KEY_BYTES: usize = 32;

impl InputRequired {
    /// The decoded state key, if configured and valid.
    pub fn key(&self) -> Option<Vec<u8>> {
        let key = self.state_key.as_deref()?;
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(key)
            .ok()
            .filter(|k| k.len() >= MIN_KEY_BYTES)
    }

    /// Whether any tool or prompt issues state.
    pub fn issues_state(&self) -> bool {
        self.tools.iter().chain(&self.prompts).any(|t| t.state)
    }

    /// Checks everything the module documentation lists; the error is one
    /// sentence. `tool_names` are the names the built-in tools take.
    pub(crate) fn validate(
        &self,
        tool_names: &[&str],
        prompt_names: &[&str],
    ) -> Result<(), String> {
        if self.issues_state() {
            if !cfg!(feature = "state") {
                return Err("input_required issues requestState, which needs the binary's state feature (HMAC-SHA256); this build has none".into());
            }
            if self.key().is_none() {
                return Err(format!(
                    "input_required.state_key must be base64url without padding, at least {MIN_KEY_BYTES} bytes once decoded"
                ));
            }
        }
        if !(1..=86_400).contains(&self.state_ttl_seconds) {
            return Err("input_required.state_ttl_seconds must be between 1 and 86400".into());
        }
        for (what, list) in [("tool", &self.tools), ("prompt", &self.prompts)] {
            let mut names = std::collections::BTreeSet::new();
            for target in list.iter() {
                if target.name.is_empty() || !names.insert(target.name.as_str()) {
                    return Err(format!(
                        "input_required {what} {:?} is empty or appears more than once",
                        target.name
                    ));
                }
                let builtin = if what == "tool" {
                    tool_names
                } else {
                    prompt_names
                };
                if builtin.contains(&target.name.as_str()) {
                    return Err(format!(
                        "input_required {what} {:?} takes the name of a built-in {what}",
                        target.name
                    ));
                }
                check_target(what, target)?;
            }
        }
        Ok(())
    }
}

fn check_target(what: &str, target: &InputTarget) -> Result<(), String> {
    let name = &target.name;
    let mut args = std::collections::BTreeSet::new();
    if !target
        .arguments
        .iter()
        .all(|a| !a.is_empty() && args.insert(a))
    {
        return Err(format!(
            "input_required {what} {name:?} names an empty argument or one twice"
        ));
    }
    if target.rounds.is_empty() || target.rounds.len() > 16 {
        return Err(format!(
            "input_required {what} {name:?} needs 1 to 16 rounds"
        ));
    }
    if target.rounds.len() > 1 && !target.state {
        return Err(format!(
            "input_required {what} {name:?} has more than one round, so it needs \"state\": true"
        ));
    }
    for round in &target.rounds {
        if round.is_empty() || round.len() > 16 {
            return Err(format!(
                "input_required {what} {name:?} has a round of no inputs or more than 16"
            ));
        }
        let mut keys = std::collections::BTreeSet::new();
        for input in round {
            if input.key.is_empty() || !keys.insert(input.key.as_str()) {
                return Err(format!(
                    "input_required {what} {name:?}: input key {:?} is empty or appears twice in one round",
                    input.key
                ));
            }
            check_params(input).map_err(|why| {
                format!(
                    "input_required {what} {name:?}, input {:?}: {why}",
                    input.key
                )
            })?;
        }
    }
    Ok(())
}

fn check_params(input: &InputSpec) -> Result<(), &'static str> {
    let Value::Object(params) = &input.params else {
        return Err("params must be an object");
    };
    match input.kind {
        InputKind::Roots => Ok(()),
        InputKind::Sampling => {
            let messages = params.get("messages").and_then(Value::as_array);
            if messages.is_none_or(|m| m.is_empty()) {
                return Err("a sampling request needs a non-empty messages array");
            }
            if params
                .get("maxTokens")
                .and_then(Value::as_u64)
                .is_none_or(|n| n < 1)
            {
                return Err("a sampling request needs an integer maxTokens of at least 1");
            }
            if params.get("tools").is_some_and(|t| !sampling_tools(t)) {
                return Err(
                    "a sampling request's tools must be a non-empty array of tools, each with a string name and an inputSchema object",
                );
            }
            if params.get("toolChoice").is_some_and(|c| !c.is_object()) {
                return Err("a sampling request's toolChoice must be an object");
            }
            if params
                .get("includeContext")
                .is_some_and(|c| !matches!(c.as_str(), Some("none" | "thisServer" | "allServers")))
            {
                return Err(
                    "a sampling request's includeContext must be \"none\", \"thisServer\" or \"allServers\"",
                );
            }
            Ok(())
        }
        InputKind::Elicitation => {
            if !params.get("message").is_some_and(Value::is_string) {
                return Err("an elicitation request needs a string message");
            }
            if params.contains_key("elicitationId") {
                return Err(
                    "elicitationId was removed from URL-mode elicitation in 2026-07-28 (its changelog, item 11); a correlation belongs in requestState",
                );
            }
            match params.get("mode") {
                None => {}
                Some(mode) if mode.as_str() == Some("form") => {}
                Some(mode) if mode.as_str() == Some("url") => return url_mode(params),
                Some(_) => return Err("an elicitation request's mode must be \"form\" or \"url\""),
            }
            if params.contains_key("url") {
                return Err(
                    "a form-mode elicitation request takes no url (a URL-mode one says \"mode\": \"url\")",
                );
            }
            let schema = params.get("requestedSchema").and_then(Value::as_object);
            let Some(schema) = schema else {
                return Err("an elicitation request needs a requestedSchema object");
            };
            if schema.get("type").and_then(Value::as_str) != Some("object") {
                return Err("requestedSchema must have type \"object\"");
            }
            let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
                return Err("requestedSchema needs a properties object");
            };
            for property in properties.values() {
                let kind = property.get("type").and_then(Value::as_str);
                if !matches!(kind, Some("string" | "number" | "integer" | "boolean")) {
                    return Err(
                        "each requestedSchema property must be of type string, number, integer or boolean",
                    );
                }
            }
            if let Some(required) = schema.get("required") {
                let ok = required.as_array().is_some_and(|r| {
                    r.iter()
                        .all(|n| n.as_str().is_some_and(|n| properties.contains_key(n)))
                });
                if !ok {
                    return Err("requestedSchema.required must name its properties");
                }
            }
            Ok(())
        }
    }
}

/// A URL-mode elicitation's params (`client/elicitation.mdx`, "URL Mode
/// Elicitation Requests": `mode: "url"`, a `message`, and a `url` that
/// MUST be a valid URL; the schema's `ElicitRequestURLParams`), checked
/// once `mode` and `message` are: an absolute `https` or `http` URL with
/// a host and no whitespace or control character; no `requestedSchema`,
/// which only form mode has.
fn url_mode(params: &serde_json::Map<String, Value>) -> Result<(), &'static str> {
    if params.contains_key("requestedSchema") {
        return Err("a URL-mode elicitation request takes no requestedSchema (form mode has one)");
    }
    let url = params.get("url").and_then(Value::as_str);
    let valid = url.is_some_and(|u| {
        let rest = u
            .strip_prefix("https://")
            .or_else(|| u.strip_prefix("http://"));
        let host = rest.and_then(|r| r.split(['/', '?', '#']).next());
        host.is_some_and(|h| !h.is_empty())
            && !u.chars().any(|c| c.is_whitespace() || c.is_control())
    });
    if valid {
        Ok(())
    } else {
        Err(
            "a URL-mode elicitation request needs a url: an absolute https or http URL with a host and no whitespace",
        )
    }
}

/// Whether `tools` is what a tool-enabled sampling request carries: a
/// non-empty array of `Tool`s, each with a string `name` and an
/// `inputSchema` object (`client/sampling.mdx`, "Tools in Sampling").
fn sampling_tools(tools: &Value) -> bool {
    tools.as_array().is_some_and(|tools| {
        !tools.is_empty()
            && tools.iter().all(|t| {
                t.get("name").is_some_and(Value::is_string)
                    && t.get("inputSchema").is_some_and(Value::is_object)
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn target(rounds: Value, state: bool) -> InputRequired {
        serde_json::from_value(json!({
            "state_key": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY",
            "tools": [{"name": "t", "description": "d", "state": state, "rounds": rounds, "result": "ok"}]
        }))
        .unwrap()
    }

    fn elicit() -> Value {
        json!({"key": "k", "kind": "elicitation", "params": {"message": "m",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}})
    }

    #[test]
    fn a_good_configuration_loads_and_bad_ones_say_why() {
        assert_eq!(
            target(json!([[elicit()]]), false).validate(&[], &[]),
            Ok(())
        );
        let two = target(json!([[elicit()], [elicit()]]), false).validate(&[], &[]);
        assert!(two.unwrap_err().contains("needs \"state\": true"));
        let dup = target(json!([[elicit(), elicit()]]), true).validate(&[], &[]);
        assert!(dup.unwrap_err().contains("appears twice"));
        let mut nested = elicit();
        nested["params"]["requestedSchema"]["properties"]["name"] = json!({"type": "object"});
        let err = target(json!([[nested]]), false)
            .validate(&[], &[])
            .unwrap_err();
        assert!(err.contains("primitive") || err.contains("string, number"));
        let sampling = json!({"key": "s", "kind": "sampling", "params": {"messages": []}});
        let err = target(json!([[sampling]]), false)
            .validate(&[], &[])
            .unwrap_err();
        assert!(err.contains("messages"));
        let clash = target(json!([[elicit()]]), false).validate(&["t"], &[]);
        assert!(clash.unwrap_err().contains("built-in"));
    }

    /// Every bound the module documentation states, at its edge: names
    /// and arguments non-empty and unique, 1 to 16 rounds of 1 to 16
    /// inputs, `maxTokens` at least 1, and the state's lifetime 300
    /// seconds unless configured (each edge a surviving mutant once).
    #[test]
    fn each_bound_holds_at_its_edge() {
        let ok = |c: &InputRequired| c.validate(&[], &[]);
        let keyed = |n: usize| -> Vec<Value> {
            (0..n)
                .map(|i| {
                    let mut e = elicit();
                    e["key"] = json!(format!("k{i}"));
                    e
                })
                .collect()
        };
        assert_eq!(target(json!([[elicit()]]), false).state_ttl_seconds, 300);
        // Names: empty, or twice.
        let mut twice = target(json!([[elicit()]]), false);
        twice.tools.push(twice.tools[0].clone());
        assert!(ok(&twice).unwrap_err().contains("more than once"));
        let mut empty = target(json!([[elicit()]]), false);
        empty.tools[0].name = String::new();
        assert!(ok(&empty).unwrap_err().contains("is empty"));
        // Arguments: empty, or twice.
        for args in [vec!["a", "a"], vec![""], vec!["a", ""]] {
            let mut c = target(json!([[elicit()]]), false);
            c.tools[0].arguments = args.iter().map(|a| a.to_string()).collect();
            assert!(ok(&c).unwrap_err().contains("argument"), "{args:?}");
        }
        let mut c = target(json!([[elicit()]]), false);
        c.tools[0].arguments = vec!["a".into(), "b".into()];
        assert_eq!(ok(&c), Ok(()));
        // Rounds: none, 16, 17.
        assert!(
            ok(&target(json!([]), true))
                .unwrap_err()
                .contains("1 to 16 rounds")
        );
        let rounds = |n: usize| json!(vec![vec![elicit()]; n]);
        assert_eq!(ok(&target(rounds(16), true)), Ok(()));
        assert!(
            ok(&target(rounds(17), true))
                .unwrap_err()
                .contains("1 to 16 rounds")
        );
        // Inputs of a round: none, 16, 17.
        assert!(
            ok(&target(json!([[]]), false))
                .unwrap_err()
                .contains("no inputs or more than 16")
        );
        assert_eq!(ok(&target(json!([keyed(16)]), false)), Ok(()));
        assert!(
            ok(&target(json!([keyed(17)]), false))
                .unwrap_err()
                .contains("no inputs or more than 16")
        );
        // maxTokens: 0 refused, 1 taken.
        let sampling = |max: u64| {
            json!({"key": "s", "kind": "sampling", "params": {"messages": [
                {"role": "user", "content": {"type": "text", "text": "q"}}], "maxTokens": max}})
        };
        assert!(
            ok(&target(json!([[sampling(0)]]), false))
                .unwrap_err()
                .contains("maxTokens")
        );
        assert_eq!(ok(&target(json!([[sampling(1)]]), false)), Ok(()));
    }

    /// URL mode and tool-enabled or context sampling, at load: what the
    /// spec asks of each request, refused with its reason (row I15,
    /// DEC52).
    #[test]
    fn url_mode_and_sampling_sub_capabilities_load_or_say_why() {
        let load = |input: Value| target(json!([[input]]), false).validate(&[], &[]);
        let url = |params: Value| json!({"key": "u", "kind": "elicitation", "params": params});
        assert_eq!(
            load(url(
                json!({"mode": "url", "message": "m", "url": "https://example.com/a?b#c"})
            )),
            Ok(())
        );
        assert_eq!(
            load(url(
                json!({"mode": "url", "message": "m", "url": "http://h"})
            )),
            Ok(())
        );
        for (params, why) in [
            (json!({"mode": "url", "message": "m"}), "needs a url"),
            (
                json!({"mode": "url", "message": "m", "url": "ftp://h/x"}),
                "needs a url",
            ),
            (
                json!({"mode": "url", "message": "m", "url": "https://"}),
                "needs a url",
            ),
            (
                json!({"mode": "url", "message": "m", "url": "https:///x"}),
                "needs a url",
            ),
            (
                json!({"mode": "url", "message": "m", "url": "https://h/a b"}),
                "needs a url",
            ),
            (
                json!({"mode": "url", "message": "m", "url": 5}),
                "needs a url",
            ),
            (json!({"mode": "url", "url": "https://h"}), "string message"),
            (
                json!({"mode": "url", "message": "m", "url": "https://h", "elicitationId": "e"}),
                "elicitationId",
            ),
            (
                json!({"mode": "url", "message": "m", "url": "https://h",
                "requestedSchema": {"type": "object", "properties": {}}}),
                "no requestedSchema",
            ),
            (
                json!({"mode": "popup", "message": "m", "url": "https://h"}),
                "mode must be",
            ),
            (
                json!({"mode": "form", "message": "m", "url": "https://h",
                "requestedSchema": {"type": "object", "properties": {}}}),
                "takes no url",
            ),
        ] {
            let err = load(url(params.clone())).unwrap_err();
            assert!(err.contains(why), "{params}: {err}");
        }
        let form = json!({"mode": "form", "message": "m",
            "requestedSchema": {"type": "object", "properties": {}}});
        assert_eq!(load(url(form)), Ok(()));
        let sampling = |extra: Value| {
            let mut params = json!({"messages": [{"role": "user",
                "content": {"type": "text", "text": "q"}}], "maxTokens": 1});
            for (k, v) in extra.as_object().unwrap() {
                params[k] = v.clone();
            }
            json!({"key": "s", "kind": "sampling", "params": params})
        };
        let tool = json!({"name": "t", "inputSchema": {"type": "object"}});
        for extra in [
            json!({"tools": [tool.clone()]}),
            json!({"tools": [tool.clone()], "toolChoice": {"mode": "auto"}}),
            json!({"includeContext": "none"}),
            json!({"includeContext": "thisServer"}),
            json!({"includeContext": "allServers"}),
        ] {
            assert_eq!(load(sampling(extra.clone())), Ok(()), "{extra}");
        }
        for (extra, why) in [
            (json!({"tools": []}), "tools must be"),
            (json!({"tools": [{"name": "t"}]}), "tools must be"),
            (json!({"tools": [{"inputSchema": {}}]}), "tools must be"),
            (json!({"tools": {}}), "tools must be"),
            (json!({"toolChoice": "auto"}), "toolChoice"),
            (json!({"includeContext": "everything"}), "includeContext"),
            (json!({"includeContext": null}), "includeContext"),
        ] {
            let err = load(sampling(extra.clone())).unwrap_err();
            assert!(err.contains(why), "{extra}: {err}");
        }
    }

    /// What each input needs (row I14): its mode, `sampling.tools` for
    /// `tools` or `toolChoice`, `sampling.context` for an
    /// `includeContext` other than `none`.
    #[test]
    fn each_input_needs_what_its_params_call_for() {
        let needs = |kind: InputKind, params: Value| {
            InputSpec {
                key: "k".into(),
                kind,
                optional: false,
                params,
            }
            .needs()
        };
        let bits = |ns: &[Need]| ns.iter().fold(0, |b, n| b | n.bit());
        let e = InputKind::Elicitation;
        let s = InputKind::Sampling;
        assert_eq!(needs(e, json!({})), bits(&[Need::ElicitationForm]));
        assert_eq!(
            needs(e, json!({"mode": "form"})),
            bits(&[Need::ElicitationForm])
        );
        assert_eq!(
            needs(e, json!({"mode": "url"})),
            bits(&[Need::ElicitationUrl])
        );
        assert_eq!(needs(InputKind::Roots, json!({})), bits(&[Need::Roots]));
        assert_eq!(needs(s, json!({})), bits(&[Need::Sampling]));
        assert_eq!(
            needs(s, json!({"includeContext": "none"})),
            bits(&[Need::Sampling])
        );
        assert_eq!(
            needs(s, json!({"tools": []})),
            bits(&[Need::Sampling, Need::SamplingTools])
        );
        assert_eq!(
            needs(s, json!({"toolChoice": {}})),
            bits(&[Need::Sampling, Need::SamplingTools])
        );
        assert_eq!(
            needs(s, json!({"includeContext": "thisServer", "tools": []})),
            bits(&[Need::Sampling, Need::SamplingTools, Need::SamplingContext])
        );
        // Every bit its own.
        let all = Need::ALL.iter().fold(0u8, |b, n| {
            assert_eq!(b & n.bit(), 0);
            b | n.bit()
        });
        assert_eq!(all.count_ones(), 6);
    }

    #[test]
    fn state_needs_a_long_enough_key() {
        let mut config = target(json!([[elicit()]]), true);
        config.state_key = Some("c2hvcnQ".into());
        let err = config.validate(&[], &[]).unwrap_err();
        if cfg!(feature = "state") {
            assert!(err.contains("at least 32 bytes"), "{err}");
        } else {
            assert!(err.contains("state feature"), "{err}");
        }
    }
}

#[cfg(test)]
mod round_trip {
    use crate::config::Config;

    #[test]
    fn to_json_keeps_input_required_and_writes_nothing_without_it() {
        let plain = Config::default().to_json();
        assert!(!plain.contains("input_required"), "{plain}");
        let json = r#"{"input_required": {"tools": [{"name": "t", "description": "d",
            "rounds": [[{"key": "r", "kind": "roots", "params": {}}]], "result": "ok"}]}}"#;
        let config = Config::from_json(json.as_bytes()).unwrap();
        assert_eq!(
            Config::from_json(config.to_json().as_bytes()).unwrap(),
            config
        );
    }
}
