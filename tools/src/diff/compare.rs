//! The equivalence `diff` judges replies by, and the description of the
//! first place two replies differ.
//!
//! Two reply lines are equivalent when, after normalizing both, they are
//! the same JSON value (member order and whitespace do not matter). The
//! normalization drops only what is written for people:
//!
//! - `error.message` is removed. `error.code` and `error.data` stay.
//! - The `text` of each `{"type": "text"}` block in `result.content` is
//!   kept as JSON when it parses as JSON (a structured result's text block
//!   is its `structuredContent` serialized, so it must say the same thing,
//!   however it is formatted), and is otherwise removed (prose, such as the
//!   text of an `isError: true` result).
//! - A string `result.requestState` (a multi round-trip request's state,
//!   rows I2, I4, I9) counts as present, not by value: it is the server's
//!   own opaque string (`basic/patterns/mrtr.mdx`: the client echoes it
//!   unread), sealed with an expiry from the server's clock, so two
//!   processes that seal the same round a second apart write two values
//!   (issue 38, as the vectors' `opaque` does).
//! - The `id` is compared as raw text for integers (digit for digit, so an
//!   integer beyond 64 bits read back as a float differs) and as the
//!   decoded string for strings (so `"\u00e9"` and `"é"` are one id).
//!
//! Everything else counts: `result` members (`structuredContent`,
//! `isError`, `resultType`, caching hints, `_meta`), `error.code`,
//! `error.data`, and how many replies there are, in what order. A line that
//! is not JSON is compared byte for byte.
//!
//! Spec: 2026-07-28 `basic/index.mdx` "Error Responses" (`message` is a
//! short description; `code` and `data` carry the meaning) and
//! `server/tools.mdx` "Structured Content" (the text block is the
//! serialized structured content, for clients that do not read it).

use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// A reply line in the form the equivalence compares.
#[derive(Debug, Clone, PartialEq)]
pub enum Normal {
    /// A JSON line, normalized.
    Json(Value),
    /// Anything else, as bytes.
    Bytes(Vec<u8>),
}

/// Normalizes one reply line (without its newline).
pub fn normalize(line: &[u8]) -> Normal {
    // The id is taken as raw text before anything is converted: an integer
    // id of any size (hundreds of digits, beyond what a 64-bit float holds)
    // is compared digit for digit and never makes a valid line unreadable.
    let Ok(members) = serde_json::from_slice::<BTreeMap<String, Box<RawValue>>>(line) else {
        return match serde_json::from_slice::<Value>(line) {
            Ok(value) => Normal::Json(value),
            Err(_) => Normal::Bytes(line.to_vec()),
        };
    };
    let mut obj = Map::new();
    for (key, raw) in members {
        let value = if key == "id" {
            id_value(raw.get())
        } else {
            match serde_json::from_str::<Value>(raw.get()) {
                Ok(value) => value,
                Err(_) => return Normal::Bytes(line.to_vec()),
            }
        };
        obj.insert(key, value);
    }
    let mut value = Value::Object(obj);
    if let Some(obj) = value.as_object_mut() {
        if let Some(error) = obj.get_mut("error").and_then(Value::as_object_mut) {
            error.remove("message");
        }
        if let Some(state) = obj
            .get_mut("result")
            .and_then(|r| r.get_mut("requestState"))
            .filter(|s| s.is_string())
        {
            *state = Value::from("(the server's own requestState)");
        }
        if let Some(content) = obj
            .get_mut("result")
            .and_then(|r| r.get_mut("content"))
            .and_then(Value::as_array_mut)
        {
            for block in content.iter_mut().filter_map(Value::as_object_mut) {
                if block.get("type") != Some(&Value::from("text")) {
                    continue;
                }
                let parsed = block
                    .get("text")
                    .and_then(Value::as_str)
                    .and_then(|t| serde_json::from_str::<Value>(t).ok());
                match parsed {
                    Some(json) => block.insert("text".into(), json),
                    None => block.remove("text"),
                };
            }
        }
    }
    Normal::Json(value)
}

fn id_value(raw: &str) -> Value {
    if raw.starts_with('"') {
        serde_json::from_str::<String>(raw)
            .map(Value::String)
            .unwrap_or_else(|_| Value::String(raw.to_string()))
    } else {
        let mut m = Map::new();
        m.insert("raw id".into(), Value::String(raw.to_string()));
        Value::Object(m)
    }
}

/// Where two reply sequences first differ, in one sentence; `None` when
/// they are equivalent.
pub fn first_difference(reference: &[Vec<u8>], command: &[Vec<u8>]) -> Option<String> {
    first_difference_at(reference, command).map(|(_, d)| d.sentence)
}

/// A difference: what kind it is (the JSON path with array positions left
/// out, or what the lines or counts show) and the sentence that says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The kind: two differences of one kind are one difference to shrink.
    pub kind: String,
    /// The difference in one sentence.
    pub sentence: String,
}

/// The index of the first reply that differs (the reference's count when
/// the command wrote more), and the difference.
pub fn first_difference_at(
    reference: &[Vec<u8>],
    command: &[Vec<u8>],
) -> Option<(usize, Difference)> {
    first_difference_numbered(reference, command, 0)
}

/// [`first_difference_at`] for replies that follow `before` others: the
/// sentence numbers them from `before + 1`.
pub fn first_difference_numbered(
    reference: &[Vec<u8>],
    command: &[Vec<u8>],
    before: usize,
) -> Option<(usize, Difference)> {
    // A line that is not JSON where the reference wrote JSON (or nothing)
    // is its own kind, whatever else differs: stdout carries messages only.
    let not_json = command.iter().enumerate().find(|(i, c)| {
        matches!(normalize(c), Normal::Bytes(_))
            && reference
                .get(*i)
                .is_none_or(|r| matches!(normalize(r), Normal::Json(_)))
    });
    if let Some((i, _)) = not_json {
        let what = "the command's line is not JSON";
        return Some((
            i,
            Difference {
                kind: what.into(),
                sentence: format!("reply {}: {what}", before + i + 1),
            },
        ));
    }
    for (i, (r, c)) in reference.iter().zip(command).enumerate() {
        if let Some(what) = line_difference(r, c) {
            let kind = match what.strip_prefix('/') {
                Some(_) => what
                    .split(':')
                    .next()
                    .unwrap_or_default()
                    .split('/')
                    .filter(|s| s.parse::<usize>().is_err())
                    .collect::<Vec<_>>()
                    .join("/"),
                None => what.clone(),
            };
            let sentence = format!("reply {}: {what}", before + i + 1);
            return Some((i, Difference { kind, sentence }));
        }
    }
    (reference.len() != command.len()).then(|| {
        let kind = if command.len() > reference.len() {
            "the command wrote more replies"
        } else {
            "the command wrote fewer replies"
        };
        let sentence = format!(
            "the command wrote {} repl{} where the reference wrote {}",
            command.len(),
            if command.len() == 1 { "y" } else { "ies" },
            reference.len()
        );
        (
            reference.len().min(command.len()),
            Difference {
                kind: kind.into(),
                sentence,
            },
        )
    })
}

/// How two reply lines differ under the equivalence, if they do.
pub fn line_difference(reference: &[u8], command: &[u8]) -> Option<String> {
    match (normalize(reference), normalize(command)) {
        (Normal::Json(r), Normal::Json(c)) => value_difference("", &r, &c),
        (Normal::Bytes(r), Normal::Bytes(c)) if r == c => None,
        (Normal::Json(_), Normal::Bytes(_)) => Some("the command's line is not JSON".into()),
        (Normal::Bytes(_), Normal::Json(_)) => Some("the reference's line is not JSON".into()),
        (Normal::Bytes(_), Normal::Bytes(_)) => Some("the lines differ".into()),
    }
}

fn value_difference(path: &str, r: &Value, c: &Value) -> Option<String> {
    let at = if path.is_empty() { "/" } else { path };
    match (r, c) {
        (Value::Object(ro), Value::Object(co)) => {
            for (k, rv) in ro {
                let sub = format!("{path}/{k}");
                match co.get(k) {
                    None => return Some(format!("{sub}: missing from the command's reply")),
                    Some(cv) => {
                        if let Some(d) = value_difference(&sub, rv, cv) {
                            return Some(d);
                        }
                    }
                }
            }
            co.keys()
                .find(|k| !ro.contains_key(*k))
                .map(|k| format!("{path}/{k}: only in the command's reply"))
        }
        (Value::Array(ra), Value::Array(ca)) if ra.len() == ca.len() => ra
            .iter()
            .zip(ca)
            .enumerate()
            .find_map(|(i, (rv, cv))| value_difference(&format!("{path}/{i}"), rv, cv)),
        _ if r == c => None,
        _ => Some(format!(
            "{at}: the reference has {}, the command {}",
            short(r),
            short(c)
        )),
    }
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(120) {
        Some((cut, _)) => format!("{}...", text.get(..cut).unwrap_or_default()),
        None => text,
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn integer_ids_beyond_any_float_stay_comparable() {
        let digits = "9".repeat(400);
        let a = format!(r#"{{"jsonrpc":"2.0","id":{digits},"result":{{}}}}"#);
        let b = format!(r#"{{"jsonrpc":"2.0","id":{digits}8,"result":{{}}}}"#);
        assert!(matches!(normalize(a.as_bytes()), Normal::Json(_)));
        assert_eq!(line_difference(a.as_bytes(), a.as_bytes()), None);
        assert!(line_difference(a.as_bytes(), b.as_bytes()).is_some());
    }

    use super::*;

    fn diff(a: &str, b: &str) -> Option<String> {
        line_difference(a.as_bytes(), b.as_bytes())
    }

    #[test]
    fn messages_and_prose_do_not_count() {
        assert_eq!(
            diff(
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool"}}"#,
                r#"{"id":1,"jsonrpc":"2.0","error":{"message":"no such tool","code":-32602}}"#
            ),
            None
        );
        assert_eq!(
            diff(
                r#"{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"Not yours."}]}}"#,
                r#"{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"Not found."}]}}"#
            ),
            None
        );
        assert_eq!(
            diff(
                r#"{"id":"\u00e9","result":{}}"#,
                r#"{"id":"é","result":{}}"#
            ),
            None
        );
    }

    #[test]
    fn meaning_counts() {
        let d = diff(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}}"#,
        );
        assert_eq!(
            d.as_deref(),
            Some("/error/code: the reference has -32602, the command -32601")
        );
        let d = diff(
            r#"{"id":18446744073709551616,"result":{}}"#,
            r#"{"id":1.8446744073709552e19,"result":{}}"#,
        );
        assert!(d.unwrap().starts_with("/id/raw id"));
        let d = diff(
            r#"{"id":1,"result":{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a":1}}}"#,
            r#"{"id":1,"result":{"content":[{"type":"text","text":"{\"a\":2}"}],"structuredContent":{"a":1}}}"#,
        );
        assert_eq!(
            d.as_deref(),
            Some("/result/content/0/text/a: the reference has 1, the command 2")
        );
        let d = diff(
            r#"{"id":1,"result":{"resultType":"complete"}}"#,
            r#"{"id":1,"result":{}}"#,
        );
        assert_eq!(
            d.as_deref(),
            Some("/result/resultType: missing from the command's reply")
        );
        let d = diff(
            r#"{"id":1,"result":{}}"#,
            r#"{"id":1,"result":{"isError":true}}"#,
        );
        assert_eq!(
            d.as_deref(),
            Some("/result/isError: only in the command's reply")
        );
        assert!(diff("{}", "starting").is_some());
    }

    #[test]
    fn counts_and_order_count() {
        let a = vec![b"{\"id\":1,\"result\":{}}".to_vec()];
        let b = vec![
            b"{\"id\":1,\"result\":{}}".to_vec(),
            b"{\"id\":null,\"error\":{\"code\":-32600}}".to_vec(),
        ];
        assert_eq!(first_difference(&a, &a), None);
        assert_eq!(
            first_difference(&a, &b).as_deref(),
            Some("the command wrote 2 replies where the reference wrote 1")
        );
        assert!(first_difference(&b, &a).is_some());
    }

    /// A `requestState` is compared as a present string, never by value
    /// (two processes seal one round a second apart); its absence, or a
    /// state that is no string, is a difference.
    #[test]
    fn a_request_state_counts_as_present_not_by_value() {
        let state = |s: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","requestState":{s}}}}}"#
            )
        };
        let (a, b) = (state(r#""AAAA""#), state(r#""BBBB""#));
        assert_eq!(line_difference(a.as_bytes(), b.as_bytes()), None);
        let none = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}"#;
        assert!(line_difference(a.as_bytes(), none.as_bytes()).is_some());
        assert!(line_difference(a.as_bytes(), state("7").as_bytes()).is_some());
    }
}
