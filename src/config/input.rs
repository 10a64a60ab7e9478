//! The configuration of multi round-trip requests: the tools and prompts
//! that ask the client for input before they complete, and the key that
//! protects the `requestState` they issue (rows I1 to I12 of
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
    /// Its bit in a set of declared capabilities.
    pub fn bit(self) -> u8 {
        match self {
            InputKind::Elicitation => 1,
            InputKind::Roots => 2,
            InputKind::Sampling => 4,
        }
    }
    /// Every kind, in the order `requiredCapabilities` lists them.
    pub const ALL: [InputKind; 3] = [
        InputKind::Elicitation,
        InputKind::Roots,
        InputKind::Sampling,
    ];
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
            Ok(())
        }
        InputKind::Elicitation => {
            if !params.get("message").is_some_and(Value::is_string) {
                return Err("an elicitation request needs a string message");
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
