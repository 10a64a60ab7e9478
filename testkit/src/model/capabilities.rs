//! The model of client capabilities and sub-capabilities as multi
//! round-trip requests need them (docs/behavior.md rows I3 and I14),
//! stated again from the spec's text, apart from the server's bits: what a
//! request's `clientCapabilities` declares, what an input request needs,
//! and the `requiredCapabilities` object of a `-32021`.
//!
//! Both are sets of paths: `elicitation`, `elicitation.form`,
//! `elicitation.url`, `roots`, `sampling`, `sampling.tools`,
//! `sampling.context`. A capability's own path says it is declared as an
//! object; a sub-capability's path that its member is declared.
//!
//! Spec: 2026-07-28 `client/elicitation.mdx`, "Capabilities": a client
//! declares the modes it supports, `{"form": {}, "url": {}}`; "an empty
//! capabilities object is equivalent to declaring support for form mode
//! only"; "Servers MUST NOT send elicitation requests with modes that are
//! not supported by the client"; a request without `mode` is form mode.
//! `client/sampling.mdx`: "Servers MUST NOT send tool-enabled sampling
//! requests to Clients that have not declared support for tool use via the
//! `sampling.tools` capability" (the schema: a client errs on `tools` or
//! `toolChoice` without it); `includeContext` values other than `"none"`
//! SHOULD NOT be used unless the client declares `sampling.context`.
//! `basic/index.mdx`: `-32021`'s `data.requiredCapabilities` is a
//! `ClientCapabilities` object.

use mcp_reference::{InputKind, InputSpec};
use serde_json::{Map, Value};

/// The paths `clientCapabilities` (the value of
/// `_meta["io.modelcontextprotocol/clientCapabilities"]`) declares.
pub fn declared(caps: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    let member = |name: &str| caps.and_then(|c| c.get(name)).and_then(Value::as_object);
    if let Some(e) = member("elicitation") {
        out.push("elicitation".to_owned());
        let names_a_mode = e.contains_key("form") || e.contains_key("url");
        // "empty" read as: naming no mode (members it does not know are
        // ignored, as everywhere in `_meta`).
        if !names_a_mode || e.get("form").is_some_and(Value::is_object) {
            out.push("elicitation.form".to_owned());
        }
        if e.get("url").is_some_and(Value::is_object) {
            out.push("elicitation.url".to_owned());
        }
    }
    if member("roots").is_some() {
        out.push("roots".to_owned());
    }
    if let Some(s) = member("sampling") {
        out.push("sampling".to_owned());
        for sub in ["tools", "context"] {
            if s.get(sub).is_some_and(Value::is_object) {
                out.push(format!("sampling.{sub}"));
            }
        }
    }
    out
}

/// The paths an input request needs declared before it may be sent.
pub fn needs(spec: &InputSpec) -> Vec<&'static str> {
    let p = &spec.params;
    match spec.kind {
        InputKind::Elicitation => match p.get("mode").and_then(Value::as_str) {
            Some("url") => vec!["elicitation", "elicitation.url"],
            _ => vec!["elicitation", "elicitation.form"],
        },
        InputKind::Roots => vec!["roots"],
        InputKind::Sampling => {
            let mut n = vec!["sampling"];
            if p.get("tools").is_some() || p.get("toolChoice").is_some() {
                n.push("sampling.tools");
            }
            match p.get("includeContext") {
                None => {}
                Some(c) if c == "none" => {}
                Some(_) => n.push("sampling.context"),
            }
            n
        }
    }
}

/// What `spec` needs that `declared` lacks (empty: it can be sent).
pub fn lacking(spec: &InputSpec, declared: &[String]) -> Vec<&'static str> {
    needs(spec)
        .into_iter()
        .filter(|n| !declared.iter().any(|d| d == n))
        .collect()
}

/// The row that refuses `missing`: I3 when a capability itself is
/// missing, I14 when every capability is declared and only
/// sub-capabilities are not.
pub fn row(missing: &[&str]) -> &'static str {
    if missing.iter().any(|p| !p.contains('.')) {
        "I3"
    } else {
        "I14"
    }
}

/// The `requiredCapabilities` object naming `missing`: each capability an
/// object holding each of its missing sub-capabilities as `{}`.
pub fn required(missing: &[&str]) -> Value {
    let mut caps = Map::new();
    for path in missing {
        let (cap, sub) = match path.split_once('.') {
            Some((c, s)) => (c, Some(s)),
            None => (*path, None),
        };
        let entry = caps
            .entry(cap.to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
        if let (Some(sub), Some(obj)) = (sub, entry.as_object_mut()) {
            obj.insert(sub.to_owned(), Value::Object(Map::new()));
        }
    }
    Value::Object(caps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(kind: InputKind, params: Value) -> InputSpec {
        InputSpec {
            key: "k".into(),
            kind,
            optional: false,
            params,
        }
    }

    /// Every elicitation declaration against both modes, and the sampling
    /// sub-capabilities against each kind of sampling request.
    #[test]
    fn each_declaration_against_each_need() {
        let form = spec(InputKind::Elicitation, json!({"message": "m"}));
        let url = spec(InputKind::Elicitation, json!({"mode": "url"}));
        let lack = |s: &InputSpec, caps: Value| lacking(s, &declared(Some(&caps)));
        assert_eq!(lack(&form, json!({})), ["elicitation", "elicitation.form"]);
        assert!(lack(&form, json!({"elicitation": {}})).is_empty());
        assert!(lack(&form, json!({"elicitation": {"other": {}}})).is_empty());
        assert!(lack(&form, json!({"elicitation": {"form": {}}})).is_empty());
        assert_eq!(
            lack(&form, json!({"elicitation": {"url": {}}})),
            ["elicitation.form"]
        );
        assert_eq!(
            lack(&form, json!({"elicitation": {"form": true}})),
            ["elicitation.form"]
        );
        assert_eq!(lack(&url, json!({"elicitation": {}})), ["elicitation.url"]);
        assert!(lack(&url, json!({"elicitation": {"form": {}, "url": {}}})).is_empty());
        let tools = spec(InputKind::Sampling, json!({"tools": [], "maxTokens": 1}));
        let choice = spec(InputKind::Sampling, json!({"toolChoice": {}}));
        let context = spec(InputKind::Sampling, json!({"includeContext": "allServers"}));
        let none = spec(InputKind::Sampling, json!({"includeContext": "none"}));
        assert_eq!(lack(&tools, json!({"sampling": {}})), ["sampling.tools"]);
        assert_eq!(lack(&choice, json!({})), ["sampling", "sampling.tools"]);
        assert!(lack(&tools, json!({"sampling": {"tools": {}}})).is_empty());
        assert_eq!(
            lack(&context, json!({"sampling": {"tools": {}}})),
            ["sampling.context"]
        );
        assert!(lack(&none, json!({"sampling": {}})).is_empty());
        assert_eq!(
            required(&["elicitation", "elicitation.form", "sampling.tools"]),
            json!({"elicitation": {"form": {}}, "sampling": {"tools": {}}})
        );
        assert_eq!(required(&["roots"]), json!({"roots": {}}));
        assert_eq!(row(&["elicitation.form"]), "I14");
        assert_eq!(row(&["sampling", "sampling.tools"]), "I3");
    }
}
