//! What the checker writes and how it reads what comes back: request lines,
//! telling responses from other stdout lines, raw ids, and showing bytes in
//! a report.
//!
//! Pairing is lenient on purpose: any JSON object with `result` or `error`
//! and no `method` counts as a response, so a server whose responses are
//! wrong in some other way (say, `jsonrpc` missing) still gets each check
//! judged on its own rule; `stdout.json-rpc` judges the envelope, once.
//!
//! Spec: JSON-RPC 2.0 sections 4 and 5 (request and response objects);
//! 2026-07-28 `basic/index.mdx` "Messages" (ids are strings or integers,
//! never null; responses echo the id) and "`_meta`" (the per-request fields
//! every request carries).

use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::{Value, json};

/// The protocol version the checks speak.
pub const VERSION: &str = "2026-07-28";

/// The `_meta` of a well-formed request.
pub fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {
            "name": "mcp-reference-check",
            "version": env!("CARGO_PKG_VERSION")
        }
    })
}

/// `params` holding only a well-formed `_meta`.
pub fn params() -> Value {
    json!({ "_meta": meta() })
}

/// A request line (no newline) with `raw_id` as the id's JSON text.
pub fn request(raw_id: &str, method: &str, params: &Value) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":{raw_id},"method":{},"params":{params}}}"#,
        Value::from(method)
    )
    .into_bytes()
}

/// A notification line (no newline).
pub fn notification(method: &str, params: &Value) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
        .to_string()
        .into_bytes()
}

/// The valid requests a warm run (`super::warm`) sends before a request
/// for `method` (`None`: a line with no readable method): a
/// `server/discover` and a `tools/list`, each unless it is `method`
/// itself, with ids of their own; each line and its method.
pub fn warm_up(method: Option<&str>) -> Vec<(Vec<u8>, &'static str)> {
    ["server/discover", "tools/list"]
        .into_iter()
        .filter(|m| method != Some(*m))
        .map(|m| {
            let id = string_id(&format!("warm-{}", m.replace('/', "-")));
            (request(&id, m, &params()), m)
        })
        .collect()
}

/// A string id's JSON text.
pub fn string_id(s: &str) -> String {
    Value::from(s).to_string()
}

/// A response read from stdout.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The line as received (at most [`crate::process::MAX_LINE`] bytes).
    pub line: Vec<u8>,
    /// The raw JSON text of `id`, when the member is there.
    pub id: Option<String>,
    /// The parsed line.
    pub value: Value,
}

impl Reply {
    /// `error.code`, if this is an error response with an integer code.
    pub fn error_code(&self) -> Option<i64> {
        self.value.get("error")?.get("code")?.as_i64()
    }

    /// `result`, if there is one.
    pub fn result(&self) -> Option<&Value> {
        self.value.get("result")
    }

    /// Whether the id is null or absent, as it must be when the request's id
    /// could not be read.
    pub fn id_is_null(&self) -> bool {
        matches!(self.id.as_deref().map(str::trim), None | Some("null"))
    }

    /// A one-line summary of the reply: its error code, or "a result".
    pub fn gist(&self) -> String {
        match (self.error_code(), self.result()) {
            (Some(code), _) => format!("error {code}"),
            (None, Some(_)) => "a result".into(),
            (None, None) => "neither a result nor an error code".into(),
        }
    }
}

/// What a stdout line is, as far as pairing goes.
#[derive(Debug)]
pub enum Kind {
    /// A response (to be paired with a request).
    Response(Reply),
    /// A message with a `method`: a notification or a request from the server.
    Message,
    /// Anything else: not JSON, not an object, or an object that is neither.
    Other,
}

/// Classifies a stdout line for pairing.
pub fn classify(line: &[u8]) -> Kind {
    let Ok(value) = serde_json::from_slice::<Value>(line) else {
        return Kind::Other;
    };
    let Some(obj) = value.as_object() else {
        return Kind::Other;
    };
    if obj.contains_key("method") {
        return Kind::Message;
    }
    if !obj.contains_key("result") && !obj.contains_key("error") {
        return Kind::Other;
    }
    let id = raw_id(line);
    Kind::Response(Reply {
        line: line.to_vec(),
        id,
        value,
    })
}

/// The raw JSON text of a line's top-level `id`, when the line is a JSON
/// object that has one.
pub fn raw_id(line: &[u8]) -> Option<String> {
    serde_json::from_slice::<BTreeMap<String, Box<RawValue>>>(line)
        .ok()?
        .get("id")
        .map(|raw| raw.get().to_string())
}

/// Whether a reply's raw id is the id that was sent: integers digit for
/// digit; strings as the same string (JSON allows several spellings of one
/// string, so `"\u00e9"` and `"é"` are the same id).
pub fn same_id(sent: &str, got: Option<&str>) -> bool {
    let Some(got) = got.map(str::trim) else {
        return false;
    };
    if sent.starts_with('"') {
        match (
            serde_json::from_str::<String>(sent),
            serde_json::from_str::<String>(got),
        ) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
    } else {
        sent == got
    }
}

/// Why a stdout line is not a JSON-RPC 2.0 message a server may send on
/// stdio, or `None` when it is one (a response or a notification).
pub fn envelope_problem(line: &[u8]) -> Option<String> {
    let text = match std::str::from_utf8(line) {
        Ok(text) => text,
        Err(_) => return Some("not UTF-8".into()),
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => return Some(format!("not JSON ({e})")),
    };
    let Some(obj) = value.as_object() else {
        return Some("JSON, but not an object".into());
    };
    if obj.get("jsonrpc") != Some(&Value::from("2.0")) {
        return Some(r#"jsonrpc is not "2.0""#.into());
    }
    // The id's own text: serde_json reads an integer beyond 64 bits as a float.
    let raw_id = serde_json::from_str::<BTreeMap<String, Box<RawValue>>>(text)
        .ok()
        .and_then(|m| m.get("id").map(|raw| raw.get().to_string()));
    let id_ok = |id: &Value| id.is_string() || raw_id.as_deref().is_some_and(is_integer);
    match obj.get("method") {
        Some(method) if !method.is_string() => Some("method is not a string".into()),
        Some(_) if obj.contains_key("id") => {
            Some("a request: a server must not write JSON-RPC requests to stdout on stdio".into())
        }
        Some(_) => match obj.get("params") {
            Some(p) if !p.is_object() => {
                Some("a notification whose params is not an object".into())
            }
            _ => None,
        },
        None => match (obj.get("result"), obj.get("error")) {
            (Some(_), Some(_)) => Some("a response with both result and error".into()),
            (None, None) => Some("neither a request, a notification nor a response".into()),
            (Some(_), None) => match obj.get("id") {
                Some(id) if id_ok(id) => None,
                Some(_) => Some("a result whose id is neither a string nor an integer".into()),
                None => Some("a result without an id".into()),
            },
            (None, Some(error)) => {
                if !obj.get("id").is_none_or(|id| id.is_null() || id_ok(id)) {
                    Some("an error whose id is neither a string, an integer nor null".into())
                } else if !error.get("code").is_some_and(|c| c.is_i64())
                    || !error.get("message").is_some_and(Value::is_string)
                {
                    Some("an error without an integer code and a string message".into())
                } else {
                    None
                }
            }
        },
    }
}

/// Whether a JSON number's text is an integer literal (`-?digits`: no
/// fraction, no exponent), of any size.
pub fn is_integer(raw: &str) -> bool {
    let digits = raw.strip_prefix('-').unwrap_or(raw);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Bytes as a report shows them: lossy UTF-8, cut after `limit` characters
/// with the full length said.
pub fn show(bytes: &[u8], limit: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut chars = text.char_indices();
    match chars.nth(limit) {
        Some((cut, _)) => format!(
            "{}... ({} bytes in all)",
            text.get(..cut).unwrap_or_default(),
            bytes.len()
        ),
        None => text.into_owned(),
    }
}

/// What a result breaks of the caching hints every cacheable result
/// carries (`server/utilities/caching.mdx`): an integer `ttlMs >= 0` and a
/// `cacheScope` of `"public"` or `"private"`.
pub fn cache_hint_problems(result: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if !result.get("ttlMs").is_some_and(Value::is_u64) {
        problems.push("ttlMs is missing or not an integer >= 0".to_string());
    }
    if !matches!(
        result.get("cacheScope").and_then(Value::as_str),
        Some("public" | "private")
    ) {
        problems.push("cacheScope is missing or neither \"public\" nor \"private\"".into());
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_compare_as_the_spec_says() {
        assert!(same_id("7", Some("7")));
        assert!(!same_id("7", Some("7.0")));
        assert!(!same_id(
            "18446744073709551616",
            Some("1.8446744073709552e19")
        ));
        assert!(same_id(r#""é""#, Some(r#""\u00e9""#)));
        assert!(!same_id(r#""7""#, Some("7")));
        assert!(!same_id("7", None));
    }

    #[test]
    fn classify_and_raw_ids() {
        let Kind::Response(r) =
            classify(br#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{}}"#)
        else {
            panic!("a response")
        };
        assert_eq!(r.id.as_deref(), Some("123456789012345678901234567890"));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","method":"x"}"#),
            Kind::Message
        ));
        assert!(matches!(classify(b"hello"), Kind::Other));
        assert!(matches!(classify(b"[1]"), Kind::Other));
        let Kind::Response(r) = classify(br#"{"error":{"code":1,"message":"m"}}"#) else {
            panic!("lenient")
        };
        assert!(r.id_is_null());
    }

    #[test]
    fn envelope_problems() {
        for ok in [
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#,
            r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#,
        ] {
            assert_eq!(envelope_problem(ok.as_bytes()), None, "{ok}");
        }
        for (bad, why) in [
            ("starting up", "not JSON"),
            ("[]", "not an object"),
            (r#"{"id":1,"result":{}}"#, "jsonrpc"),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"roots/list"}"#,
                "a request",
            ),
            (
                r#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#,
                "neither a string",
            ),
            (r#"{"jsonrpc":"2.0","result":{}}"#, "without an id"),
            (
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#,
                "integer code",
            ),
            (r#"{"jsonrpc":"2.0","id":1}"#, "neither"),
        ] {
            let problem = envelope_problem(bad.as_bytes()).unwrap_or_default();
            assert!(problem.contains(why), "{bad}: {problem}");
        }
        assert_eq!(envelope_problem(b"\xff").as_deref(), Some("not UTF-8"));
    }

    #[test]
    fn show_cuts_long_text() {
        assert_eq!(show(b"abc", 10), "abc");
        assert_eq!(show(b"abcdef", 3), "abc... (6 bytes in all)");
    }
}
