//! The answers of `inputResponses`: whether one is a valid result of the
//! request it answers, and whether it accepts (rows I10 and I11 of
//! docs/behavior.md).
//!
//! | kind | a valid answer |
//! | --- | --- |
//! | elicitation, URL mode | `ElicitResult`: `action` one of `accept`, `decline`, `cancel`; with `accept`, no `content` (the interaction happens out of band) |
//! | elicitation, form mode | `ElicitResult`: `action` one of `accept`, `decline`, `cancel`; with `accept`, a `content` object in which every property the `requestedSchema` requires is present and every property it declares that is present has its type (`string`, `number`, `integer`, `boolean`; a string `enum` respected); members it does not declare are ignored |
//! | sampling | `CreateMessageResult`: `role` `user` or `assistant`, `content` a content block (an object with a string `type`) or a non-empty array of them, `model` a string |
//! | roots | `ListRootsResult`: `roots` an array of objects each with a `file://` `uri` string (and a string `name` when present) |
//!
//! An elicitation answered `decline` or `cancel` is never taken for an
//! accepted one, whatever else it carries.
//!
//! Spec: 2026-07-28 `client/elicitation.mdx` ("Response Actions": the three
//! actions; `content` only with `accept`; servers SHOULD validate it against
//! the schema, and handle each action appropriately), `client/sampling.mdx`
//! (`CreateMessageResult`), `client/roots.mdx` ("Root": a `file://` URI,
//! MUST); `basic/patterns/mrtr.mdx`, "Error Handling" (validate the
//! responses, SHOULD).

use serde_json::{Map, Value};

use crate::config::input::{InputKind, InputSpec, Need};

/// What a valid answer came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Answer {
    /// Accepted (or a sampling or roots result, which has no refusal).
    Accepted,
    /// An elicitation answered `decline` or `cancel`.
    Refused,
}

/// Judges `value` as the answer to `spec`: `None` when it is not a valid
/// result of that request.
pub(crate) fn judge(spec: &InputSpec, value: &Value) -> Option<Answer> {
    let answer = value.as_object()?;
    match spec.kind {
        InputKind::Elicitation => elicitation(spec, answer),
        InputKind::Sampling => sampling(answer).then_some(Answer::Accepted),
        InputKind::Roots => roots(answer).then_some(Answer::Accepted),
    }
}

fn elicitation(spec: &InputSpec, answer: &Map<String, Value>) -> Option<Answer> {
    match answer.get("action").and_then(Value::as_str)? {
        "decline" | "cancel" => Some(Answer::Refused),
        // A URL-mode accept is consent to go to the URL, and carries no
        // data: `content` is omitted (client/elicitation.mdx, "Response
        // Actions"; the schema: `content` only when the mode was form).
        "accept" if spec.needs() & Need::ElicitationUrl.bit() != 0 => {
            (!answer.contains_key("content")).then_some(Answer::Accepted)
        }
        "accept" => {
            let content = answer.get("content")?.as_object()?;
            let schema = spec.params.get("requestedSchema")?;
            let properties = schema.get("properties")?.as_object()?;
            let required = schema.get("required").and_then(Value::as_array);
            let all_present = required
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .all(|name| content.contains_key(name));
            let typed = properties
                .iter()
                .all(|(name, property)| content.get(name).is_none_or(|v| fits(property, v)));
            (all_present && typed).then_some(Answer::Accepted)
        }
        _ => None,
    }
}

/// Whether `value` has the primitive type (and enum) `property` declares.
fn fits(property: &Value, value: &Value) -> bool {
    let type_ok = match property.get("type").and_then(Value::as_str) {
        Some("string") => value.is_string(),
        Some("boolean") => value.is_boolean(),
        Some("number") => value.is_number(),
        Some("integer") => value.is_i64() || value.is_u64(),
        _ => false,
    };
    let enum_ok = property
        .get("enum")
        .and_then(Value::as_array)
        .is_none_or(|options| options.contains(value));
    type_ok && enum_ok
}

fn block(v: &Value) -> bool {
    v.get("type").is_some_and(Value::is_string)
}

fn sampling(answer: &Map<String, Value>) -> bool {
    let role = matches!(
        answer.get("role").and_then(Value::as_str),
        Some("user" | "assistant")
    );
    let content = match answer.get("content") {
        Some(Value::Array(blocks)) => !blocks.is_empty() && blocks.iter().all(block),
        Some(v) => block(v),
        None => false,
    };
    role && content && answer.get("model").is_some_and(Value::is_string)
}

fn roots(answer: &Map<String, Value>) -> bool {
    answer
        .get("roots")
        .and_then(Value::as_array)
        .is_some_and(|roots| {
            roots.iter().all(|root| {
                root.get("uri")
                    .and_then(Value::as_str)
                    .is_some_and(|u| u.starts_with("file://"))
                    && root.get("name").is_none_or(Value::is_string)
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(kind: InputKind) -> InputSpec {
        InputSpec {
            key: "k".into(),
            kind,
            optional: false,
            params: json!({"message": "m", "requestedSchema": {"type": "object",
                "properties": {"name": {"type": "string"}, "n": {"type": "integer"},
                               "c": {"type": "string", "enum": ["red", "blue"]}},
                "required": ["name"]}}),
        }
    }

    #[test]
    fn elicitation_answers() {
        let s = spec(InputKind::Elicitation);
        let ok = |v: Value| judge(&s, &v);
        assert_eq!(
            ok(json!({"action": "accept", "content": {"name": "Alice"}})),
            Some(Answer::Accepted)
        );
        assert_eq!(
            ok(json!({"action": "accept", "content": {"name": "A", "n": 3, "c": "red", "x": [1]}})),
            Some(Answer::Accepted)
        );
        assert_eq!(ok(json!({"action": "decline"})), Some(Answer::Refused));
        assert_eq!(
            ok(json!({"action": "cancel", "content": {"name": "Alice"}})),
            Some(Answer::Refused)
        );
        for bad in [
            json!(12345),
            json!(null),
            json!({"action": "accept"}),
            json!({"action": "accept", "content": {}}),
            json!({"action": "accept", "content": {"name": 1}}),
            json!({"action": "accept", "content": {"name": "A", "n": 1.5}}),
            json!({"action": "accept", "content": {"name": "A", "c": "green"}}),
            json!({"action": "yes", "content": {"name": "A"}}),
            json!({"content": {"name": "A"}}),
        ] {
            assert_eq!(ok(bad.clone()), None, "{bad}");
        }
    }

    /// I10 for URL mode: an accept carries no `content`; one that does is
    /// not a valid answer to a URL-mode request (and a form-mode accept
    /// without it still is not valid).
    #[test]
    fn url_mode_answers() {
        let url = InputSpec {
            key: "k".into(),
            kind: InputKind::Elicitation,
            optional: false,
            params: json!({"mode": "url", "message": "m", "url": "https://example.com/a"}),
        };
        assert_eq!(
            judge(&url, &json!({"action": "accept"})),
            Some(Answer::Accepted)
        );
        assert_eq!(
            judge(&url, &json!({"action": "decline"})),
            Some(Answer::Refused)
        );
        assert_eq!(
            judge(&url, &json!({"action": "cancel"})),
            Some(Answer::Refused)
        );
        for bad in [
            json!({"action": "accept", "content": {}}),
            json!({"action": "accept", "content": {"name": "A"}}),
            json!({"action": "go"}),
            json!({}),
        ] {
            assert_eq!(judge(&url, &bad), None, "{bad}");
        }
        assert_eq!(
            judge(&spec(InputKind::Elicitation), &json!({"action": "accept"})),
            None
        );
    }

    #[test]
    fn sampling_and_roots_answers() {
        let s = spec(InputKind::Sampling);
        let good = json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m", "stopReason": "endTurn"});
        assert_eq!(judge(&s, &good), Some(Answer::Accepted));
        assert_eq!(
            judge(
                &s,
                &json!({"role": "assistant", "content": [], "model": "m"})
            ),
            None
        );
        assert_eq!(
            judge(
                &s,
                &json!({"role": "robot", "content": {"type": "text"}, "model": "m"})
            ),
            None
        );
        assert_eq!(
            judge(&s, &json!({"role": "user", "content": {"type": "text"}})),
            None
        );
        let r = spec(InputKind::Roots);
        assert_eq!(
            judge(&r, &json!({"roots": [{"uri": "file:///a", "name": "A"}]})),
            Some(Answer::Accepted)
        );
        assert_eq!(judge(&r, &json!({"roots": []})), Some(Answer::Accepted));
        assert_eq!(judge(&r, &json!({"roots": [{"uri": "https://a"}]})), None);
        assert_eq!(judge(&r, &json!({"roots": {}})), None);
    }

    /// Each primitive type at its edge (surviving mutants once): a
    /// `number` takes any number and nothing else, an `integer` takes a
    /// negative one and one past `i64`, and a sampling content block
    /// needs its `type`, alone or in an array.
    #[test]
    fn primitive_types_and_content_blocks_at_their_edges() {
        let mut s = spec(InputKind::Elicitation);
        s.params["requestedSchema"]["properties"]["x"] = json!({"type": "number"});
        let answer =
            |x: Value| json!({"action": "accept", "content": {"name": "A", "n": 1, "x": x}});
        assert_eq!(judge(&s, &answer(json!(1.5))), Some(Answer::Accepted));
        assert_eq!(judge(&s, &answer(json!(-2))), Some(Answer::Accepted));
        assert_eq!(judge(&s, &answer(json!("1.5"))), None);
        let integer = |n: Value| json!({"action": "accept", "content": {"name": "A", "n": n}});
        assert_eq!(judge(&s, &integer(json!(-5))), Some(Answer::Accepted));
        assert_eq!(judge(&s, &integer(json!(u64::MAX))), Some(Answer::Accepted));
        assert_eq!(judge(&s, &integer(json!(true))), None);
        let sampling = spec(InputKind::Sampling);
        for content in [
            json!({"text": "Paris"}),
            json!([{"text": "Paris"}]),
            json!([{"type": "text"}, {"text": "x"}]),
        ] {
            let v = json!({"role": "assistant", "content": content, "model": "m"});
            assert_eq!(judge(&sampling, &v), None, "{v}");
        }
        let both = json!({"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "model": "m"});
        assert_eq!(judge(&sampling, &both), Some(Answer::Accepted));
    }
}
