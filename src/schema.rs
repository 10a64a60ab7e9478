//! A configured tool `inputSchema` (row T14 of docs/behavior.md, decisions
//! DEC50 and DEC51): kept as the configured JSON text (compacted, members
//! in the configured order) for `tools/list`, checked at load against the
//! subset of JSON Schema 2020-12 this server enforces, and applied to the
//! arguments of every call by a validator of our own (the library keeps its
//! four dependencies).
//!
//! The subset: `type`, `properties`, `required`, `additionalProperties`
//! (a boolean), `enum`, `const`, `allOf`, `anyOf`, `oneOf`, `not`,
//! `if`/`then`/`else`, `$defs`, `$anchor`, `$ref` (to `#/$defs/NAME` of the
//! root or to `#ANCHOR`), `$schema` (at the root, the 2020-12 dialect) and
//! the annotations `title`, `description`, `default`, `examples`. Any other
//! keyword, a `$ref` that does not resolve, or a cycle of `$ref`s refuses
//! the configuration. Since `$ref`s cannot loop, the work on one call is
//! bounded by the schema's size times the arguments' size, and the depth
//! of evaluation by [`MAX_DEPTH`] besides.
//!
//! Spec: 2026-07-28 `server/tools.mdx` ("Tool": `inputSchema` is a JSON
//! Schema, 2020-12 by default, whose root is `type: "object"`; "Error
//! Handling": a server MUST validate tool inputs, and arguments that break
//! the schema are a result with `isError: true`), `basic/index.mdx`
//! ("JSON Schema Usage": the 2020-12 dialect), JSON Schema 2020-12 Core and
//! Validation.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer};
use serde::ser::{self, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The one dialect a configured schema may name in `$schema`.
pub(crate) const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The deepest nesting of subschemas a schema may have, and of evaluations
/// a call may take.
pub(crate) const MAX_DEPTH: usize = 64;

/// The most `$ref`-expanded subschemas a schema may reach from its root.
pub(crate) const MAX_EXPANSION: usize = 10_000;

/// The JSON Schema type names.
const TYPES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

/// The keywords of the subset.
const KEYWORDS: [&str; 21] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "enum",
    "const",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$defs",
    "$anchor",
    "$ref",
    "$schema",
    "title",
    "description",
    "default",
    "examples",
];

/// A configured `inputSchema`, checked against the subset.
#[derive(Clone)]
pub struct InputSchema {
    /// The configured text, compacted, members in the configured order.
    text: String,
    /// The parsed schema.
    root: Value,
    /// Each `$anchor`, with the JSON pointer of the schema that holds it.
    anchors: BTreeMap<String, String>,
}

impl fmt::Debug for InputSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl PartialEq for InputSchema {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for InputSchema {}

impl Serialize for InputSchema {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        RawValue::from_string(self.text.clone())
            .map_err(ser::Error::custom)?
            .serialize(s)
    }
}

impl<'de> Deserialize<'de> for InputSchema {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        InputSchema::parse(raw.get()).map_err(de::Error::custom)
    }
}

/// `text` without the whitespace between its tokens (`text` is valid JSON).
fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

/// `token` escaped for a JSON pointer (RFC 6901).
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Whether `name` is a 2020-12 anchor name (`[A-Za-z_][-A-Za-z0-9._]*`).
fn is_anchor(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || "-._".contains(c))
}

impl InputSchema {
    /// Parses and checks the JSON text `text`: one sentence when it is not
    /// a schema of the subset whose root has `type: "object"`.
    pub fn parse(text: &str) -> Result<InputSchema, String> {
        let root: Value =
            serde_json::from_str(text).map_err(|e| format!("the inputSchema is not JSON ({e})"))?;
        if root.get("type") != Some(&Value::from("object")) {
            return Err(
                "an inputSchema needs \"type\": \"object\" at its root (server/tools.mdx)".into(),
            );
        }
        let mut anchors = BTreeMap::new();
        let mut refs = Vec::new();
        walk(&root, "", 0, &mut anchors, &mut refs)?;
        let schema = InputSchema {
            text: compact(text),
            root,
            anchors,
        };
        for r in &refs {
            if schema.target(r).is_none() {
                return Err(format!(
                    "the inputSchema's $ref {r:?} does not resolve: refer to #/$defs/NAME of the root or to #ANCHOR"
                ));
            }
        }
        let mut count = 0;
        schema.expand(&schema.root, &mut Vec::new(), &mut count)?;
        Ok(schema)
    }

    /// The configured text, compacted (what `tools/list` shows).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The JSON pointer (within the root) of the schema `r` refers to.
    fn target(&self, r: &str) -> Option<String> {
        let fragment = r.strip_prefix('#')?;
        let pointer = if let Some(name) = fragment.strip_prefix("/$defs/") {
            (!name.contains('/')).then(|| fragment.to_owned())?
        } else {
            self.anchors.get(fragment)?.clone()
        };
        matches!(
            self.root.pointer(&pointer),
            Some(Value::Object(_) | Value::Bool(_))
        )
        .then_some(pointer)
    }

    /// Follows every `$ref` reachable from `schema`, refusing a cycle and a
    /// schema too large to expand.
    fn expand(
        &self,
        schema: &Value,
        stack: &mut Vec<String>,
        count: &mut usize,
    ) -> Result<(), String> {
        *count += 1;
        if *count > MAX_EXPANSION {
            return Err(format!(
                "the inputSchema expands, through its $refs, to more than {MAX_EXPANSION} subschemas"
            ));
        }
        let Value::Object(members) = schema else {
            return Ok(());
        };
        for (k, v) in members {
            match (k.as_str(), v) {
                ("$ref", Value::String(r)) => {
                    let pointer = self.target(r).unwrap_or_default();
                    if stack.contains(&pointer) {
                        return Err(format!(
                            "the inputSchema's $refs form a cycle through {r:?}; this server refuses recursive schemas"
                        ));
                    }
                    if let Some(target) = self.root.pointer(&pointer) {
                        stack.push(pointer);
                        self.expand(target, stack, count)?;
                        stack.pop();
                    }
                }
                ("properties", Value::Object(m)) => {
                    for s in m.values() {
                        self.expand(s, stack, count)?;
                    }
                }
                ("allOf" | "anyOf" | "oneOf", Value::Array(items)) => {
                    for s in items {
                        self.expand(s, stack, count)?;
                    }
                }
                ("not" | "if" | "then" | "else", s) => self.expand(s, stack, count)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// Checks `instance` (a call's arguments): one sentence naming the
    /// first violation found.
    pub fn check(&self, instance: &Value) -> Result<(), String> {
        self.eval(&self.root, instance, "", 0)
    }

    fn eval(
        &self,
        schema: &Value,
        instance: &Value,
        path: &str,
        depth: usize,
    ) -> Result<(), String> {
        let at = if path.is_empty() {
            "the arguments"
        } else {
            path
        };
        if depth > MAX_DEPTH {
            return Err(format!("{at} need more than {MAX_DEPTH} nested checks"));
        }
        let members = match schema {
            Value::Bool(true) => return Ok(()),
            Value::Object(members) => members,
            _ => {
                return Err(format!(
                    "{at} may not be present at all (its schema is false)"
                ));
            }
        };
        let next = depth + 1;
        if let Some(t) = members.get("type") {
            let ok = match t {
                Value::String(t) => has_type(instance, t),
                Value::Array(ts) => ts
                    .iter()
                    .filter_map(Value::as_str)
                    .any(|t| has_type(instance, t)),
                _ => true,
            };
            if !ok {
                return Err(format!("{at} must be of type {t}"));
            }
        }
        if let Some(Value::Array(values)) = members.get("enum")
            && !values.iter().any(|v| json_eq(v, instance))
        {
            return Err(format!(
                "{at} must be one of {}",
                Value::Array(values.clone())
            ));
        }
        if let Some(c) = members.get("const")
            && !json_eq(c, instance)
        {
            return Err(format!("{at} must equal {c}"));
        }
        if let Value::Object(object) = instance {
            self.eval_object(members, object, path, next)?;
        }
        if let Some(Value::Array(all)) = members.get("allOf") {
            for s in all {
                self.eval(s, instance, path, next)?;
            }
        }
        if let Some(Value::Array(any)) = members.get("anyOf")
            && !any
                .iter()
                .any(|s| self.eval(s, instance, path, next).is_ok())
        {
            return Err(format!("{at} must match at least one schema of anyOf"));
        }
        if let Some(Value::Array(one)) = members.get("oneOf") {
            let n = one
                .iter()
                .filter(|s| self.eval(s, instance, path, next).is_ok())
                .count();
            if n != 1 {
                return Err(format!(
                    "{at} must match exactly one schema of oneOf, not {n}"
                ));
            }
        }
        if let Some(s) = members.get("not")
            && self.eval(s, instance, path, next).is_ok()
        {
            return Err(format!("{at} must not match the schema under not"));
        }
        if let Some(condition) = members.get("if") {
            let branch = if self.eval(condition, instance, path, next).is_ok() {
                members.get("then")
            } else {
                members.get("else")
            };
            if let Some(s) = branch {
                self.eval(s, instance, path, next)?;
            }
        }
        if let Some(Value::String(r)) = members.get("$ref") {
            let target = self.target(r).and_then(|p| self.root.pointer(&p));
            if let Some(s) = target {
                self.eval(s, instance, path, next)?;
            }
        }
        Ok(())
    }

    fn eval_object(
        &self,
        members: &Map<String, Value>,
        object: &Map<String, Value>,
        path: &str,
        next: usize,
    ) -> Result<(), String> {
        let (at, lack, have) = if path.is_empty() {
            ("the arguments", "lack", "have")
        } else {
            (path, "lacks", "has")
        };
        let properties = members.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(required)) = members.get("required")
            && let Some(name) = required
                .iter()
                .filter_map(Value::as_str)
                .find(|name| !object.contains_key(*name))
        {
            return Err(format!("{at} {lack} the required member {name:?}"));
        }
        if members.get("additionalProperties") == Some(&Value::Bool(false))
            && let Some(name) = object
                .keys()
                .find(|k| !properties.is_some_and(|p| p.contains_key(*k)))
        {
            return Err(format!(
                "{at} {have} the member {name:?}, which the schema does not allow"
            ));
        }
        for (name, s) in properties.into_iter().flatten() {
            if let Some(v) = object.get(name) {
                self.eval(s, v, &format!("{path}/{}", escape(name)), next)?;
            }
        }
        Ok(())
    }
}

/// Whether `v` has the JSON Schema type `t` (an integer is a number whose
/// fraction is zero).
fn has_type(v: &Value, t: &str) -> bool {
    match (t, v) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("object", Value::Object(_))
        | ("array", Value::Array(_))
        | ("number", Value::Number(_))
        | ("string", Value::String(_)) => true,
        // Every `u64` and `i64` converts to an `f64` without a fraction (an
        // `f64` past 2^53 is a whole number), so the value's `f64` decides.
        ("integer", Value::Number(n)) => n.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    }
}

/// JSON equality, numbers compared by value (`1` equals `1.0`).
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Checks the subschema `schema` at `pointer` against the subset,
/// collecting its anchors and `$ref`s.
fn walk(
    schema: &Value,
    pointer: &str,
    depth: usize,
    anchors: &mut BTreeMap<String, String>,
    refs: &mut Vec<String>,
) -> Result<(), String> {
    let here = if pointer.is_empty() {
        "the root"
    } else {
        pointer
    };
    if depth > MAX_DEPTH {
        return Err(format!(
            "the inputSchema nests deeper than {MAX_DEPTH} subschemas"
        ));
    }
    let members = match schema {
        Value::Bool(_) => return Ok(()),
        Value::Object(m) => m,
        _ => {
            return Err(format!(
                "the inputSchema has a subschema at {here} that is neither an object nor a boolean"
            ));
        }
    };
    let bad = |k: &str, what: &str| format!("the inputSchema's {k:?} at {here} must be {what}");
    for (k, v) in members {
        let sub = |key: &str| format!("{pointer}/{}/{}", escape(k), escape(key));
        match k.as_str() {
            "$schema" => {
                if !pointer.is_empty() || v.as_str() != Some(DIALECT) {
                    return Err(bad(k, &format!("{DIALECT:?}, and only at the root")));
                }
            }
            "type" => {
                let names: Vec<&Value> = match v {
                    Value::Array(items) if !items.is_empty() => items.iter().collect(),
                    Value::String(_) => vec![v],
                    _ => vec![&Value::Null],
                };
                let mut seen = Vec::new();
                for n in names {
                    match n.as_str() {
                        Some(t) if TYPES.contains(&t) && !seen.contains(&t) => seen.push(t),
                        _ => return Err(bad(k, "a type name, or an array of distinct ones")),
                    }
                }
            }
            "properties" | "$defs" => {
                let Value::Object(m) = v else {
                    return Err(bad(k, "an object of schemas"));
                };
                for (name, s) in m {
                    walk(s, &sub(name), depth + 1, anchors, refs)?;
                }
            }
            "required" => {
                let names: Option<Vec<&str>> = v
                    .as_array()
                    .and_then(|a| a.iter().map(Value::as_str).collect());
                let distinct = names.as_ref().is_some_and(|n| {
                    n.iter()
                        .enumerate()
                        .all(|(i, x)| !n.iter().skip(i + 1).any(|y| y == x))
                });
                if !distinct {
                    return Err(bad(k, "an array of distinct strings"));
                }
            }
            "additionalProperties" => {
                if !v.is_boolean() {
                    return Err(bad(k, "a boolean (this server supports no schema there)"));
                }
            }
            "enum" | "examples" => {
                if !v.is_array() {
                    return Err(bad(k, "an array"));
                }
            }
            "allOf" | "anyOf" | "oneOf" => match v {
                Value::Array(items) if !items.is_empty() => {
                    for (i, s) in items.iter().enumerate() {
                        walk(s, &sub(&i.to_string()), depth + 1, anchors, refs)?;
                    }
                }
                _ => return Err(bad(k, "a non-empty array of schemas")),
            },
            "not" | "if" | "then" | "else" => {
                walk(v, &format!("{pointer}/{k}"), depth + 1, anchors, refs)?;
            }
            "$anchor" => match v.as_str() {
                Some(name) if is_anchor(name) => {
                    if anchors
                        .insert(name.to_owned(), pointer.to_owned())
                        .is_some()
                    {
                        return Err(format!("the inputSchema has the $anchor {name:?} twice"));
                    }
                }
                _ => {
                    return Err(bad(
                        k,
                        "a name of letters, digits, -, _ and . that starts with a letter or _",
                    ));
                }
            },
            "$ref" => match v.as_str() {
                Some(r) => refs.push(r.to_owned()),
                None => return Err(bad(k, "a string")),
            },
            "title" | "description" => {
                if !v.is_string() {
                    return Err(bad(k, "a string"));
                }
            }
            "const" | "default" => {}
            _ => {
                return Err(format!(
                    "the inputSchema uses the keyword {k:?} at {here}, which this server does not enforce; it supports {}",
                    KEYWORDS.join(", ")
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "schema_tests.rs"]
mod tests;
