//! The answers `check --call` gives to a server's input requests, as a
//! client that declared every capability would: an elicitation in form mode
//! is accepted with content generated from its `requestedSchema` (strings,
//! numbers, integers, booleans, enums and arrays of enums, each property's
//! `default` first), one in URL mode is accepted without content, a
//! sampling request gets a minimal `CreateMessageResult`, `roots/list` a
//! `ListRootsResult` with one `file://` root. Everything here reads what a
//! server under test sent: nothing indexes, unwraps or trusts it.
//!
//! Spec: 2026-07-28 `basic/patterns/mrtr.mdx#client-requirements` (an
//! answer for each key of `inputRequests`), `client/elicitation.mdx` (form
//! and URL modes, `ElicitResult`), `client/sampling.mdx`
//! (`CreateMessageResult`), `client/roots.mdx` (`ListRootsResult`).

use serde_json::{Map, Value, json};

/// The kind of one input request, by its `method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `elicitation/create` in form mode (no `mode`, or `"form"`).
    Form,
    /// `elicitation/create` in URL mode.
    Url,
    /// `sampling/createMessage`.
    Sampling,
    /// `roots/list`.
    Roots,
}

impl Kind {
    /// The kind of `request` (`{method, params}`), if it is one of the
    /// three the pattern allows (MRTR-05).
    pub fn of(request: &Value) -> Option<Kind> {
        match request.get("method").and_then(Value::as_str)? {
            "elicitation/create" => match request.pointer("/params/mode").and_then(Value::as_str) {
                None | Some("form") => Some(Kind::Form),
                Some("url") => Some(Kind::Url),
                Some(_) => None,
            },
            "sampling/createMessage" => Some(Kind::Sampling),
            "roots/list" => Some(Kind::Roots),
            _ => None,
        }
    }

    /// Whether it is an elicitation (either mode).
    pub fn is_elicitation(self) -> bool {
        matches!(self, Kind::Form | Kind::Url)
    }
}

/// Why a client with capabilities `caps` could not have been sent
/// `request`, if it could not: its capability (or sub-capability) was not
/// declared. `None` when it was.
///
/// - elicitation: `elicitation: {}` is form mode only; URL mode needs
///   `elicitation.url`, form mode `elicitation.form` or an `elicitation`
///   naming no mode (`client/elicitation.mdx#capabilities`, ELICIT-04);
/// - sampling: `tools` or `toolChoice` needs `sampling.tools`
///   (`client/sampling.mdx#tools-in-sampling`, SAMPLING-01);
/// - roots: `roots`.
pub fn undeclared(request: &Value, caps: &Value) -> Option<String> {
    let method = request
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("(no method)");
    let Some(kind) = Kind::of(request) else {
        return Some(format!(
            "an input request of method {method:?}, none of the three kinds the pattern allows"
        ));
    };
    let declared = |pointer: &str| caps.pointer(pointer).is_some();
    match kind {
        Kind::Form | Kind::Url if !declared("/elicitation") => {
            Some("an elicitation, but the request declared no elicitation capability".into())
        }
        Kind::Url if !declared("/elicitation/url") => Some(
            "a URL-mode elicitation, but the request's elicitation capability names no url".into(),
        ),
        Kind::Form
            if (declared("/elicitation/url") && !declared("/elicitation/form")) =>
        {
            Some("a form-mode elicitation, but the request's elicitation capability names only url".into())
        }
        Kind::Sampling if !declared("/sampling") => {
            Some("a sampling request, but the request declared no sampling capability".into())
        }
        Kind::Sampling
            if (request.pointer("/params/tools").is_some()
                || request.pointer("/params/toolChoice").is_some())
                && !declared("/sampling/tools") =>
        {
            Some("a tool-enabled sampling request, but the request's sampling capability names no tools".into())
        }
        Kind::Roots if !declared("/roots") => {
            Some("a roots/list request, but the request declared no roots capability".into())
        }
        _ => None,
    }
}

/// How the client answers elicitations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Accepts (with content in form mode).
    Accept,
    /// Declines.
    Decline,
    /// Cancels.
    Cancel,
}

/// The answer to `request`, or `None` when it is of no kind the pattern
/// allows.
pub fn answer(request: &Value, action: Action) -> Option<Value> {
    let kind = Kind::of(request)?;
    Some(match (kind, action) {
        (Kind::Form | Kind::Url, Action::Decline) => json!({"action": "decline"}),
        (Kind::Form | Kind::Url, Action::Cancel) => json!({"action": "cancel"}),
        (Kind::Url, Action::Accept) => json!({"action": "accept"}),
        (Kind::Form, Action::Accept) => {
            let schema = request
                .pointer("/params/requestedSchema")
                .cloned()
                .unwrap_or(Value::Null);
            json!({"action": "accept", "content": content(&schema)})
        }
        (Kind::Sampling, _) => json!({
            "role": "assistant",
            "content": {"type": "text", "text": "Paris. (an answer from mcp-reference check)"},
            "model": "mcp-reference-check",
            "stopReason": "endTurn"
        }),
        (Kind::Roots, _) => json!({
            "roots": [{"uri": "file:///tmp/mcp-reference-check", "name": "mcp-reference-check"}]
        }),
    })
}

/// Answers to every request of `requests` (an `inputRequests` map): each
/// elicitation with `action`, the others accepted. `Err` names a key whose
/// request is of no allowed kind.
pub fn answers(
    requests: &Map<String, Value>,
    action: Action,
) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    for (key, request) in requests {
        let answer = answer(request, action).ok_or_else(|| {
            format!("inputRequests[{key:?}] is no elicitation, sampling or roots request")
        })?;
        out.insert(key.clone(), answer);
    }
    Ok(out)
}

/// Form content valid for `schema` (a flat object schema of primitive
/// properties, as `client/elicitation.mdx#requested-schema` allows).
pub fn content(schema: &Value) -> Value {
    let mut out = Map::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, prop) in props {
            if let Some(v) = value_for(prop) {
                out.insert(name.clone(), v);
            }
        }
    }
    Value::Object(out)
}

/// A value valid for one property schema, if it is of a kind form mode
/// allows.
fn value_for(prop: &Value) -> Option<Value> {
    if let Some(default) = prop.get("default") {
        return Some(default.clone());
    }
    if let Some(first) = prop
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return Some(first.clone());
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(c) = prop
            .get(key)
            .and_then(Value::as_array)
            .and_then(|e| e.first())
            .and_then(|o| o.get("const"))
        {
            return Some(c.clone());
        }
    }
    let kind = match prop.get("type") {
        Some(Value::String(s)) => s.as_str(),
        Some(Value::Array(a)) => a.iter().find_map(Value::as_str).unwrap_or("string"),
        _ => "string",
    };
    match kind {
        "boolean" => Some(Value::Bool(true)),
        "integer" | "number" => {
            let min = prop.get("minimum").and_then(Value::as_f64);
            let max = prop.get("maximum").and_then(Value::as_f64);
            let mut n = min.unwrap_or(1.0);
            if let Some(max) = max
                && n > max
            {
                n = max;
            }
            if kind == "integer" {
                let n = n.ceil();
                // Within i64 by construction of the clamp above, or the
                // schema's own bound when it is an integer.
                Some(json!(n as i64))
            } else {
                Some(json!(n))
            }
        }
        "array" => {
            let items = prop.get("items").cloned().unwrap_or(Value::Null);
            let first = items
                .get("enum")
                .and_then(Value::as_array)
                .and_then(|e| e.first())
                .cloned()
                .or_else(|| {
                    items
                        .get("anyOf")
                        .and_then(Value::as_array)
                        .and_then(|e| e.first())
                        .and_then(|o| o.get("const"))
                        .cloned()
                });
            Some(Value::Array(first.into_iter().collect()))
        }
        "object" | "null" => None,
        _ => Some(Value::String(string_for(prop))),
    }
}

/// A string valid for a string property: by its `format`, at least
/// `minLength` long and at most `maxLength`.
fn string_for(prop: &Value) -> String {
    let mut s = match prop.get("format").and_then(Value::as_str) {
        Some("email") => "check@example.com".to_string(),
        Some("uri") => "https://example.com/mcp-reference-check".to_string(),
        Some("date") => "2026-07-28".to_string(),
        Some("date-time") => "2026-07-28T00:00:00Z".to_string(),
        _ => "Alice".to_string(),
    };
    let min = prop
        .get("minLength")
        .and_then(Value::as_u64)
        .map_or(0, |m| usize::try_from(m.min(4096)).unwrap_or(0));
    while s.chars().count() < min {
        s.push('x');
    }
    if let Some(max) = prop
        .get("maxLength")
        .and_then(Value::as_u64)
        .and_then(|m| usize::try_from(m).ok())
    {
        s = s.chars().take(max.max(min)).collect();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_content_fits_the_schema() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "minLength": 8},
            "age": {"type": "integer", "minimum": 18, "maximum": 99},
            "ok": {"type": "boolean"},
            "color": {"type": "string", "enum": ["red", "blue"]},
            "size": {"type": "string", "oneOf": [{"const": "s"}, {"const": "m"}]},
            "tags": {"type": "array", "items": {"enum": ["a", "b"]}},
            "mail": {"type": "string", "format": "email"},
            "n": {"type": "number", "default": 2.5}
        }});
        let c = content(&schema);
        assert_eq!(c["name"].as_str().map(str::len), Some(8));
        assert_eq!(c["age"], json!(18));
        assert_eq!(c["ok"], json!(true));
        assert_eq!(c["color"], json!("red"));
        assert_eq!(c["size"], json!("s"));
        assert_eq!(c["tags"], json!(["a"]));
        assert_eq!(c["mail"], json!("check@example.com"));
        assert_eq!(c["n"], json!(2.5));
        // Nothing a server sends makes it panic.
        for odd in [
            json!(null),
            json!([1]),
            json!({"properties": 3}),
            json!({"properties": {"x": 1}}),
        ] {
            let _ = content(&odd);
        }
    }

    #[test]
    fn kinds_and_sub_capabilities() {
        let form = json!({"method": "elicitation/create", "params": {"message": "m"}});
        let url = json!({"method": "elicitation/create", "params": {"mode": "url"}});
        let tools = json!({"method": "sampling/createMessage", "params": {"tools": []}});
        let roots = json!({"method": "roots/list"});
        assert!(undeclared(&form, &json!({})).is_some());
        assert!(undeclared(&form, &json!({"elicitation": {}})).is_none());
        assert!(undeclared(&url, &json!({"elicitation": {}})).is_some());
        assert!(undeclared(&url, &json!({"elicitation": {"url": {}}})).is_none());
        assert!(undeclared(&form, &json!({"elicitation": {"url": {}}})).is_some());
        assert!(undeclared(&tools, &json!({"sampling": {}})).is_some());
        assert!(undeclared(&tools, &json!({"sampling": {"tools": {}}})).is_none());
        assert!(undeclared(&roots, &json!({"sampling": {}})).is_some());
        assert!(undeclared(&json!({"method": "ping"}), &json!({})).is_some());
        assert_eq!(
            answer(&url, Action::Accept),
            Some(json!({"action": "accept"}))
        );
        assert_eq!(
            answer(&form, Action::Cancel),
            Some(json!({"action": "cancel"}))
        );
    }
}
