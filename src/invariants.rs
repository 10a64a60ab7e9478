//! Cheap invariant checks of one reply, for property tests, fuzz targets
//! and corpus replay: given a configuration, an input line and the reply
//! bytes (empty: no reply), say whether the reply keeps the invariants of
//! `BRIEF.md`. No schema validation here (too slow for fuzzing); the
//! properties validate against the official schema separately with
//! [`crate::schema`].
//!
//! What [`Checker::check`] asserts:
//!
//! | invariant | how |
//! | --- | --- |
//! | at most one line | the reply is empty or ends with its only `\n`, and has no `\r` |
//! | a reply exactly when one is due | none for blank lines, notifications and clients' responses; one for every other line |
//! | valid JSON-RPC | UTF-8 JSON object, `jsonrpc: "2.0"`, an `id` member, exactly one of `result` and `error` |
//! | known errors | an integer code this server may emit, a string message; `-32700` for lines that are not JSON, with id null; `-32022` with the full supported list and the requested version |
//! | id echo | the raw text of the request's id, byte for byte, when the id is readable (one `id` member, a string or an integer literal, in a line that decodes); else `null` |
//! | results | an object; `resultType: "complete"` while the legacy path is off; a successful tool result carries `structuredContent`, and a text block whose JSON equals it |
//! | no leak | no value of an order the user may not read (id, owner, status, time, source version) appears in the reply, unless it also appears in the request line or in what the server says without those orders |
//! | noninterference | the reply equals, byte for byte, the reply of the same server built without the orders the user may not read |
//!
//! The request line is read here with serde_json into a small tree of its
//! own, not with the server's decoders: the top-level `id` as raw text,
//! everything else decoded (so the same depth limit, string and number
//! rules as the JSON the server accepts).
//!
//! Spec: JSON-RPC 2.0 sections 4 and 5 (one response per request, id
//! echoed, null when unreadable); 2026-07-28 `basic/transports/stdio.mdx`
//! (one message per line, no embedded newlines), `basic/index.mdx`
//! (notifications are never answered; error codes), `basic/versioning.mdx`
//! (`UnsupportedProtocolVersionError`), `server/tools.mdx` ("Structured
//! Content"); BRIEF decision 12 (not yours == not found).

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::config::{Config, Order};
use crate::server::Server;

/// The error codes this server may emit (BRIEF, "Error codes").
pub const CODES: &[i64] = &[-32700, -32600, -32601, -32602, -32603, -32021, -32022];

// ---------------------------------------------------------------------------
// Reading the request line

/// A decoded JSON value, duplicates kept.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// `null`
    Null,
    /// a boolean
    Bool,
    /// a number
    Number,
    /// a string
    Str(String),
    /// an array
    Arr(Vec<Node>),
    /// an object, members in order
    Obj(Vec<(String, Node)>),
}

impl Node {
    /// Whether an object anywhere inside has a member name twice.
    pub fn has_duplicate(&self) -> bool {
        match self {
            Node::Arr(items) => items.iter().any(Node::has_duplicate),
            Node::Obj(members) => {
                let mut names: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
                names.sort_unstable();
                names.windows(2).any(|w| w.first() == w.get(1))
                    || members.iter().any(|(_, v)| v.has_duplicate())
            }
            _ => false,
        }
    }
}

impl<'de> de::Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Node, E> {
        Ok(Node::Bool)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Node, E> {
        Ok(Node::Number)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Node, E> {
        Ok(Node::Number)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Node, E> {
        Ok(Node::Number)
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Str(v.to_string()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Node>()? {
            items.push(item);
        }
        Ok(Node::Arr(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut members = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            members.push((key, map.next_value::<Node>()?));
        }
        Ok(Node::Obj(members))
    }
}

/// A top-level member: `id` kept as raw text, others decoded.
#[derive(Debug, Clone, PartialEq)]
pub enum Member {
    /// The raw JSON text of an `id` member.
    Id(String),
    /// Any other member.
    Value(Node),
}

/// What a request line is, as far as the invariants need to know.
#[derive(Debug, Clone, PartialEq)]
pub enum LineView {
    /// Blank or whitespace-only.
    Blank,
    /// Longer than the configured limit.
    Oversized,
    /// Not UTF-8, or not JSON as the server decodes it.
    NotJson,
    /// JSON, but not an object.
    NotObject,
    /// A JSON object: its top-level members in order.
    Object(Vec<(String, Member)>),
}

struct TopSeed;

impl<'de> DeserializeSeed<'de> for TopSeed {
    type Value = Option<Vec<(String, Member)>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TopSeed {
    type Value = Option<Vec<(String, Member)>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let member = if key == "id" {
                let raw: &'de RawValue = map.next_value()?;
                // A string id is held to the rule of every other string.
                if raw.get().starts_with('"') && serde_json::from_str::<String>(raw.get()).is_err()
                {
                    return Err(de::Error::custom("invalid string"));
                }
                Member::Id(raw.get().to_string())
            } else {
                Member::Value(map.next_value::<Node>()?)
            };
            members.push((key, member));
        }
        Ok(Some(members))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        NodeVisitor.visit_seq(seq).map(|_| None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// Reads a request line (without its newline) the way the invariants see it.
pub fn read_line(config: &Config, line: &[u8]) -> LineView {
    if line
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    {
        return LineView::Blank;
    }
    if line.len() > config.max_line_bytes() {
        return LineView::Oversized;
    }
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let Ok(text) = std::str::from_utf8(line) else {
        return LineView::NotJson;
    };
    let mut de = serde_json::Deserializer::from_str(text);
    match TopSeed
        .deserialize(&mut de)
        .and_then(|top| de.end().map(|()| top))
    {
        Ok(Some(members)) => LineView::Object(members),
        Ok(None) => LineView::NotObject,
        Err(_) => LineView::NotJson,
    }
}

impl LineView {
    /// The raw text of the id a reply must echo (`None`: null).
    pub fn readable_id(&self) -> Option<&str> {
        let LineView::Object(members) = self else {
            return None;
        };
        let mut ids = members.iter().filter(|(k, _)| k == "id");
        match (ids.next(), ids.next()) {
            (Some((_, Member::Id(raw))), None) => {
                (raw.starts_with('"') || is_integer(raw)).then_some(raw.as_str())
            }
            _ => None,
        }
    }

    fn member(&self, name: &str) -> Option<&Node> {
        let LineView::Object(members) = self else {
            return None;
        };
        members.iter().find_map(|(k, m)| match m {
            Member::Value(v) if k == name => Some(v),
            _ => None,
        })
    }

    fn count(&self, name: &str) -> usize {
        match self {
            LineView::Object(members) => members.iter().filter(|(k, _)| k == name).count(),
            _ => 0,
        }
    }

    /// Whether the line must go unanswered: blank, a notification (a valid
    /// request object without `id`) or a client's response (no `method`,
    /// but `result` or `error`).
    pub fn silent(&self) -> bool {
        match self {
            LineView::Blank => true,
            LineView::Object(members) => {
                if self.count("method") == 0 && (self.count("result") + self.count("error")) > 0 {
                    return true;
                }
                let mut names: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
                names.sort_unstable();
                let duplicate = names.windows(2).any(|w| w.first() == w.get(1))
                    || members.iter().any(|(_, m)| match m {
                        Member::Value(v) => v.has_duplicate(),
                        Member::Id(_) => false,
                    });
                !duplicate
                    && self.count("id") == 0
                    && self.member("jsonrpc") == Some(&Node::Str("2.0".into()))
                    && matches!(self.member("method"), Some(Node::Str(_)))
            }
            _ => false,
        }
    }

    /// The method, when the line has one string `method`.
    pub fn method(&self) -> Option<&str> {
        match self.member("method") {
            Some(Node::Str(m)) if self.count("method") == 1 => Some(m),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// The checks

/// One value of an order the user may not read.
#[derive(Debug, Clone)]
struct Secret {
    value: String,
    escaped: String,
    order_id: String,
    field: &'static str,
}

/// The invariant checks for one configuration, with what they need built
/// once: the values the user may not read, and the same server without
/// them.
pub struct Checker {
    config: Config,
    public: Server,
    secrets: Vec<Secret>,
    constant: Vec<u8>,
}

/// Escaped as inside a JSON string literal (without the quotes).
fn escaped(s: &str) -> String {
    let quoted = serde_json::to_string(s).unwrap_or_default();
    quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .unwrap_or_default()
        .to_string()
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    !needle.is_empty() && memchr::memmem::find(haystack, needle.as_bytes()).is_some()
}

impl Checker {
    /// Prepares the checks for `config`.
    pub fn new(config: &Config) -> Checker {
        let user = config.user();
        let (readable, forbidden): (Vec<&Order>, Vec<&Order>) =
            config.orders().iter().partition(|o| o.owner == user);
        let public_config = config
            .clone()
            .with_orders(readable.into_iter().cloned().collect())
            .unwrap_or_else(|_| config.clone());
        let public = Server::new(public_config);
        let secrets = forbidden
            .iter()
            .flat_map(|o| {
                [
                    ("order_id", &o.order_id),
                    ("owner", &o.owner),
                    ("status", &o.status),
                    ("as_of", &o.as_of),
                    ("source_version", &o.source_version),
                ]
                .map(|(field, value)| Secret {
                    value: value.clone(),
                    escaped: escaped(value),
                    order_id: o.order_id.clone(),
                    field,
                })
            })
            .collect();
        // What the server says without any request-specific input: its
        // constant results (discover, the tool list, the tool texts).
        let version = serde_json::to_string(config.versions().first().map_or("", |v| v.as_str()))
            .unwrap_or_default();
        let meta = format!(
            r#""_meta":{{"io.modelcontextprotocol/protocolVersion":{version},"io.modelcontextprotocol/clientCapabilities":{{}}}}"#
        );
        let mut constant = Vec::new();
        for params in [
            String::new(),
            r#","name":"get_order","arguments":{"order_id":""}"#.to_string(),
            r#","name":"get_order","arguments":{}"#.to_string(),
            r#","name":"lookup_stock","arguments":{}"#.to_string(),
            r#","name":"lookup_stock","arguments":{"product_id":""}"#.to_string(),
        ] {
            for method in ["server/discover", "tools/list", "tools/call"] {
                let line = format!(
                    r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{{meta}{params}}}}}"#
                );
                if let Some(reply) = public.respond(line.as_bytes()) {
                    constant.extend_from_slice(&reply);
                }
            }
        }
        Checker {
            config: config.clone(),
            public,
            secrets,
            constant,
        }
    }

    /// The configuration checked against.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The reply of the same server without the orders the user may not
    /// read (empty: no reply).
    pub fn public_reply(&self, line: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        self.public.respond_into(line, &mut out);
        out
    }

    /// Every invariant, for a reply of the core (or of a session to a line
    /// the core answers): [`Checker::check_generic`], and the reply equals
    /// the reply of the same server without the orders the user may not
    /// read.
    pub fn check(&self, line: &[u8], reply: &[u8]) -> Result<(), String> {
        let public = self.public_reply(line);
        self.generic(line, reply, &public)?;
        if reply != public.as_slice() {
            return Err(format!(
                "the reply depends on orders the user may not read: {} without them, {} with them",
                show(&public),
                show(reply)
            ));
        }
        Ok(())
    }

    /// Every invariant that does not compare with the core: for replies a
    /// session gives under the legacy path.
    pub fn check_generic(&self, line: &[u8], reply: &[u8]) -> Result<(), String> {
        self.generic(line, reply, &self.public_reply(line))
    }

    fn generic(&self, line: &[u8], reply: &[u8], public: &[u8]) -> Result<(), String> {
        framing(reply)?;
        let view = read_line(&self.config, line);
        if reply.is_empty() {
            return if view.silent() {
                Ok(())
            } else {
                Err(format!("no reply to a line that needs one ({view:?})"))
            };
        }
        if view.silent() {
            return Err(format!(
                "a reply to a line that needs none: {}",
                show(reply)
            ));
        }
        let value = reply_value(reply)?;
        envelope(&value)?;
        id_echo(view.readable_id(), reply)?;
        let code = value.pointer("/error/code").and_then(Value::as_i64);
        match &view {
            LineView::NotJson if code != Some(-32700) => {
                return Err(format!("a line that is not JSON needs -32700: {value}"));
            }
            LineView::Oversized | LineView::NotObject if code != Some(-32600) => {
                return Err(format!("{view:?} needs -32600: {value}"));
            }
            _ => {}
        }
        self.check_error(&value)?;
        self.check_result(&value)?;
        self.check_leak(line, reply, public)
    }

    fn check_error(&self, value: &Value) -> Result<(), String> {
        let Some(error) = value.get("error") else {
            return Ok(());
        };
        let code = error.get("code").and_then(Value::as_i64);
        if !code.is_some_and(|c| CODES.contains(&c)) {
            return Err(format!("an error code this server may not emit: {value}"));
        }
        if !error.get("message").is_some_and(Value::is_string) {
            return Err(format!("an error needs a string message: {value}"));
        }
        if code == Some(-32700) && value.get("id") != Some(&Value::Null) {
            return Err(format!("-32700 needs id null: {value}"));
        }
        if code == Some(-32022) {
            let supported = crate::model::supported_versions(&self.config);
            if error.pointer("/data/supported") != Some(&serde_json::json!(supported)) {
                return Err(format!(
                    "-32022 must list every supported version {supported:?}: {value}"
                ));
            }
            if !error
                .pointer("/data/requested")
                .is_some_and(Value::is_string)
            {
                return Err(format!("-32022 must name the requested version: {value}"));
            }
        }
        Ok(())
    }

    fn check_result(&self, value: &Value) -> Result<(), String> {
        let Some(result) = value.get("result") else {
            return Ok(());
        };
        if !result.is_object() {
            return Err(format!("a result must be an object: {value}"));
        }
        if self.config.legacy_versions().is_empty()
            && result.get("resultType") != Some(&Value::from("complete"))
        {
            return Err(format!(
                "a 2026-07-28 result needs resultType \"complete\": {value}"
            ));
        }
        structured(result).map_err(|e| format!("{e}: {value}"))
    }

    fn check_leak(&self, line: &[u8], reply: &[u8], public: &[u8]) -> Result<(), String> {
        for s in &self.secrets {
            let shown = [s.value.as_str(), s.escaped.as_str()];
            let in_reply = shown.iter().any(|v| contains(reply, v));
            if !in_reply {
                continue;
            }
            let said_anyway = shown
                .iter()
                .any(|v| contains(line, v) || contains(public, v) || contains(&self.constant, v));
            if !said_anyway {
                return Err(format!(
                    "the reply leaks {} {:?} of order {:?}, which the user may not read: {}",
                    s.field,
                    s.value,
                    s.order_id,
                    show(reply)
                ));
            }
        }
        Ok(())
    }
}

/// All invariants of [`Checker::check`], building the checker for one use.
pub fn check(config: &Config, line: &[u8], reply: &[u8]) -> Result<(), String> {
    Checker::new(config).check(line, reply)
}

fn show(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        "no reply".into()
    } else {
        String::from_utf8_lossy(bytes).trim_end().to_string()
    }
}

/// Parses a reply into a `serde_json::Value`. An id that serde_json cannot
/// hold (an integer beyond the range of a double, which this server echoes
/// digit for digit) is replaced by `0`, so the rest of the reply can still
/// be checked and validated; [`id_echo`] checks the id on the raw bytes.
pub fn reply_value(reply: &[u8]) -> Result<Value, String> {
    if let Ok(v) = serde_json::from_slice::<Value>(reply) {
        return Ok(v);
    }
    let members: serde_json::Map<String, Value> = {
        let raw: std::collections::BTreeMap<String, &RawValue> = serde_json::from_slice(reply)
            .map_err(|e| format!("the reply is not a JSON object ({e}): {}", show(reply)))?;
        raw.into_iter()
            .map(|(k, v)| {
                let value = match serde_json::from_str::<Value>(v.get()) {
                    Ok(value) => Ok(value),
                    Err(_) if k == "id" && is_integer(v.get()) => Ok(Value::from(0)),
                    Err(e) => Err(format!("the reply is not JSON ({e}): {}", show(reply))),
                };
                value.map(|value| (k, value))
            })
            .collect::<Result<_, String>>()?
    };
    Ok(Value::Object(members))
}

fn is_integer(raw: &str) -> bool {
    let digits = raw.strip_prefix('-').unwrap_or(raw);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// At most one line: empty, or one line ending with its only `\n`, with no
/// `\r` anywhere (so no host splitting on CR LF sees two).
pub fn framing(reply: &[u8]) -> Result<(), String> {
    if reply.is_empty() {
        return Ok(());
    }
    if reply.last() != Some(&b'\n') {
        return Err(format!(
            "the reply does not end with a newline: {}",
            show(reply)
        ));
    }
    let newlines = memchr::memchr_iter(b'\n', reply).count();
    if newlines != 1 {
        return Err(format!(
            "the reply has {newlines} newlines: {}",
            show(reply)
        ));
    }
    if memchr::memchr(b'\r', reply).is_some() {
        return Err(format!("the reply has a carriage return: {}", show(reply)));
    }
    if std::str::from_utf8(reply).is_err() {
        return Err("the reply is not UTF-8".into());
    }
    Ok(())
}

/// A JSON-RPC 2.0 response: an object with `jsonrpc: "2.0"`, an `id`, and
/// exactly one of `result` and `error`.
pub fn envelope(value: &Value) -> Result<(), String> {
    let Some(obj) = value.as_object() else {
        return Err(format!("the reply is not an object: {value}"));
    };
    if obj.get("jsonrpc") != Some(&Value::from("2.0")) {
        return Err(format!("the reply needs jsonrpc \"2.0\": {value}"));
    }
    if !obj.contains_key("id") {
        return Err(format!("the reply has no id: {value}"));
    }
    if obj.contains_key("result") == obj.contains_key("error") {
        return Err(format!(
            "the reply needs exactly one of result and error: {value}"
        ));
    }
    Ok(())
}

/// The reply's raw id equals `expected` (the request's raw id text), or is
/// `null` when `expected` is `None`. Compared on the raw bytes, so integers
/// of any size must come back digit for digit.
pub fn id_echo(expected: Option<&str>, reply: &[u8]) -> Result<(), String> {
    let got = crate::model::read_reply(reply)
        .ok()
        .map(|r| r.id)
        .ok_or("the reply has no readable id")?;
    let want = expected.unwrap_or("null");
    if got != want {
        return Err(format!(
            "the reply's id is {got}, the request's {want}: {}",
            show(reply)
        ));
    }
    Ok(())
}

/// A tool result's text content equals its `structuredContent`: when
/// `structuredContent` is present, a text block holds the same JSON; a
/// successful tool result (`isError: false`) has it (every tool here
/// declares an `outputSchema`).
pub fn structured(result: &Value) -> Result<(), String> {
    let structured = result.get("structuredContent");
    if result.get("isError") == Some(&Value::Bool(false)) && structured.is_none() {
        return Err("a successful tool result needs structuredContent".into());
    }
    let Some(structured) = structured else {
        return Ok(());
    };
    let texts: Vec<&str> = result
        .get("content")
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .filter(|b| b.get("type") == Some(&Value::from("text")))
                .filter_map(|b| b.get("text")?.as_str())
                .collect()
        })
        .unwrap_or_default();
    let same = texts
        .iter()
        .any(|t| serde_json::from_str::<Value>(t).ok().as_ref() == Some(structured));
    if !same {
        return Err("no text block holds the structuredContent".into());
    }
    Ok(())
}
