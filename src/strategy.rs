//! Random inputs for the proofs: proptest strategies for request lines
//! across the whole input space and for configurations, each generated line
//! carrying what its generator knows about it ([`Expect`]).
//!
//! Used by the property tests, the state machine test, fuzz seeds, benches
//! and `diff`; nothing in the server itself uses it.
//!
//! A line is built as a [`Json`] tree, a JSON value that can say what a
//! `serde_json::Value` cannot (duplicate members, number literals of any
//! size, chosen string escapes, a lone-surrogate escape), and rendered to
//! bytes. Its expectation is computed from the tree by [`expect`], a model
//! of the rules of `BRIEF.md` written independently of the server's
//! decoders: it reads decoded values off the tree, never the server's
//! output. Byte-level mutations (cut lines, junk, invalid UTF-8, CRLF,
//! padding, blank and oversized lines) set the expectation they imply.
//!
//! | generator | what it makes |
//! | --- | --- |
//! | [`config`] | random users, order snapshots with random owners and values, stock tables or none, cache hints, line limits |
//! | [`case`] | one line for a configuration, weighted: mostly well-formed requests, the rest mutations |
//! | [`request`] | a request tree: ids of every kind, known and unknown methods, `_meta` good and broken, tool calls with every kind of argument |
//! | [`arguments`] | random `arguments` objects, for the `inputSchema` agreement property |
//!
//! The model follows the order of checks of BRIEF decision 9 as the
//! modules refine it: framing (blank, limit, UTF-8, JSON, depth) ->
//! envelope (not an object, a client's response, duplicates, `jsonrpc`,
//! `id`, `method`, notification) -> `initialize` -> `params` and `_meta`
//! (version before capabilities) -> method -> tool name -> arguments ->
//! execution. Configurations keep the legacy path off: the model is the
//! 2026-07-28 core.
//!
//! Spec: 2026-07-28 `basic/index.mdx` (requests, notifications, `_meta`),
//! `basic/versioning.mdx` (`-32022`), `server/tools.mdx` (tool results and
//! errors); JSON-RPC 2.0 sections 4 and 5; RFC 8259 (JSON text).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use proptest::prelude::*;
use proptest::sample::{Index, select};
use serde_json::{Value, json};

use crate::config::Config;

// ---------------------------------------------------------------------------
// JSON trees

/// How a string is written. Every style decodes to the same text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Esc {
    /// As serde_json writes it (only `"`, `\` and control characters escaped).
    Plain,
    /// Every character as `\uXXXX` (surrogate pairs beyond the BMP).
    Unicode,
    /// As [`Esc::Plain`], with every `/` written `\/`.
    Solidus,
}

/// A JSON value as written on a line.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number literal, written as is (so of any size).
    Num(String),
    /// A string and how it is written.
    Str(String, Esc),
    /// A string literal holding a lone surrogate escape (`"\ud800"`):
    /// grammatical JSON, but no UTF-8 text; the server refuses it (`-32700`).
    LoneSurrogate,
    /// An array.
    Arr(Vec<Json>),
    /// An object: members in order, duplicates allowed, names with their
    /// escape style.
    Obj(Vec<Member>),
}

/// An object member: its decoded name, how the name is written, its value.
pub type Member = (String, Esc, Json);

/// Deepest nesting of arrays and objects the server decodes (the top-level
/// value counts as one level); one more is `-32700`.
pub const MAX_DEPTH: usize = 127;

impl Json {
    /// A plainly written string.
    pub fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into(), Esc::Plain)
    }

    /// An integer.
    pub fn int(n: impl fmt::Display) -> Json {
        Json::Num(n.to_string())
    }

    /// An object with plainly written names.
    pub fn obj<K: Into<String>>(members: impl IntoIterator<Item = (K, Json)>) -> Json {
        Json::Obj(
            members
                .into_iter()
                .map(|(k, v)| (k.into(), Esc::Plain, v))
                .collect(),
        )
    }

    /// Converts a `serde_json::Value` (no duplicates, numbers as serde_json
    /// writes them).
    pub fn from_value(v: &Value) -> Json {
        match v {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Num(n.to_string()),
            Value::String(s) => Json::str(s.clone()),
            Value::Array(items) => Json::Arr(items.iter().map(Json::from_value).collect()),
            Value::Object(map) => {
                Json::obj(map.iter().map(|(k, v)| (k.clone(), Json::from_value(v))))
            }
        }
    }

    /// The JSON text.
    pub fn render(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    /// Appends the JSON text.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            Json::Null => out.extend_from_slice(b"null"),
            Json::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            Json::Num(n) => out.extend_from_slice(n.as_bytes()),
            Json::Str(s, esc) => write_string(out, s, *esc),
            Json::LoneSurrogate => out.extend_from_slice(br#""a\ud800b""#),
            Json::Arr(items) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    item.write(out);
                }
                out.push(b']');
            }
            Json::Obj(members) => {
                out.push(b'{');
                for (i, (k, esc, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write_string(out, k, *esc);
                    out.push(b':');
                    v.write(out);
                }
                out.push(b'}');
            }
        }
    }

    /// The members named `name` (decoded), in order.
    pub fn members<'j>(&'j self, name: &'j str) -> impl Iterator<Item = &'j Json> + 'j {
        let members: &[Member] = match self {
            Json::Obj(m) => m,
            _ => &[],
        };
        members
            .iter()
            .filter(move |(k, _, _)| k == name)
            .map(|(_, _, v)| v)
    }

    /// The first member named `name`.
    pub fn get(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.iter().find(|(k, _, _)| k == name).map(|(_, _, v)| v),
            _ => None,
        }
    }

    /// The decoded string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s, _) => Some(s),
            _ => None,
        }
    }

    /// Whether this is an integer literal (`-?digits`, any size).
    pub fn is_integer_literal(&self) -> bool {
        match self {
            Json::Num(n) => {
                let digits = n.strip_prefix('-').unwrap_or(n);
                !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
            }
            _ => false,
        }
    }

    /// Nesting depth: a scalar is 0, an empty array or object 1.
    pub fn depth(&self) -> usize {
        match self {
            Json::Arr(items) => 1 + items.iter().map(Json::depth).max().unwrap_or(0),
            Json::Obj(members) => 1 + members.iter().map(|(_, _, v)| v.depth()).max().unwrap_or(0),
            _ => 0,
        }
    }

    /// Whether any object inside (this one included) has a member name
    /// twice (compared decoded).
    pub fn has_duplicate(&self) -> bool {
        match self {
            Json::Arr(items) => items.iter().any(Json::has_duplicate),
            Json::Obj(members) => {
                let mut seen = BTreeSet::new();
                members.iter().any(|(k, _, _)| !seen.insert(k.as_str()))
                    || members.iter().any(|(_, _, v)| v.has_duplicate())
            }
            _ => false,
        }
    }

    /// Whether a lone surrogate string appears anywhere inside.
    pub fn has_lone_surrogate(&self) -> bool {
        match self {
            Json::LoneSurrogate => true,
            Json::Arr(items) => items.iter().any(Json::has_lone_surrogate),
            Json::Obj(members) => members.iter().any(|(_, _, v)| v.has_lone_surrogate()),
            _ => false,
        }
    }

    /// Whether a number literal anywhere inside is beyond the range of a
    /// double (serde_json refuses to decode it).
    pub fn has_number_out_of_range(&self) -> bool {
        match self {
            Json::Num(n) => n.parse::<f64>().map_or(true, f64::is_infinite),
            Json::Arr(items) => items.iter().any(Json::has_number_out_of_range),
            Json::Obj(members) => members.iter().any(|(_, _, v)| v.has_number_out_of_range()),
            _ => false,
        }
    }

    /// Number of values in the tree, this one included.
    pub fn count(&self) -> usize {
        1 + match self {
            Json::Arr(items) => items.iter().map(Json::count).sum(),
            Json::Obj(members) => members.iter().map(|(_, _, v)| v.count()).sum(),
            _ => 0,
        }
    }

    /// Number of objects in the tree, this one included.
    pub fn count_objects(&self) -> usize {
        let own = usize::from(matches!(self, Json::Obj(_)));
        own + match self {
            Json::Arr(items) => items.iter().map(Json::count_objects).sum(),
            Json::Obj(members) => members.iter().map(|(_, _, v)| v.count_objects()).sum(),
            _ => 0,
        }
    }

    /// Calls `f` on the `n`th value in pre-order (0: this one).
    pub fn with_nth(&mut self, n: usize, f: &mut dyn FnMut(&mut Json)) {
        let mut n = n;
        self.visit_nth(&mut n, f, &|_| true);
    }

    /// Calls `f` on the `n`th object in pre-order (0: this one, if it is one).
    pub fn with_nth_object(&mut self, n: usize, f: &mut dyn FnMut(&mut Json)) {
        let mut n = n;
        self.visit_nth(&mut n, f, &|j| matches!(j, Json::Obj(_)));
    }

    fn visit_nth(
        &mut self,
        n: &mut usize,
        f: &mut dyn FnMut(&mut Json),
        pick: &dyn Fn(&Json) -> bool,
    ) -> bool {
        if pick(self) {
            if *n == 0 {
                f(self);
                return true;
            }
            *n -= 1;
        }
        match self {
            Json::Arr(items) => items.iter_mut().any(|item| item.visit_nth(n, f, pick)),
            Json::Obj(members) => members.iter_mut().any(|(_, _, v)| v.visit_nth(n, f, pick)),
            _ => false,
        }
    }
}

fn write_string(out: &mut Vec<u8>, s: &str, esc: Esc) {
    match esc {
        Esc::Plain => crate::json::write_str(out, s),
        Esc::Solidus => {
            let mut plain = Vec::new();
            crate::json::write_str(&mut plain, s);
            for b in plain {
                if b == b'/' {
                    out.extend_from_slice(b"\\/");
                } else {
                    out.push(b);
                }
            }
        }
        Esc::Unicode => {
            out.push(b'"');
            let mut units = [0u16; 2];
            for c in s.chars() {
                for unit in c.encode_utf16(&mut units) {
                    out.extend_from_slice(format!("\\u{unit:04x}").as_bytes());
                }
            }
            out.push(b'"');
        }
    }
}

// ---------------------------------------------------------------------------
// What a line should get

/// Why a line gets no reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Silence {
    /// Blank or whitespace-only: not a message (BRIEF decision 1).
    Blank,
    /// A notification: never answered.
    Notification,
    /// A response sent by the client (BRIEF decision 6).
    ClientResponse,
}

/// A successful (JSON-RPC `result`) reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Success {
    /// `server/discover`.
    Discover,
    /// `tools/list`.
    ToolsList,
    /// `get_order` on an order the user owns: its snapshot.
    Order(String),
    /// `get_order` on an order the user may not read or that does not
    /// exist: `isError: true`, the same bytes either way.
    NotVisible,
    /// Arguments that break the tool's `inputSchema`: `isError: true`, and
    /// the tool did not run.
    InvalidArguments(&'static str),
    /// `lookup_stock` on a product in the stock table.
    Stock(String),
    /// `lookup_stock` on a product not in it: `isError: true`.
    UnknownProduct,
}

/// What the reply to a line must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// No reply.
    Silent(Silence),
    /// A JSON-RPC error with this code; for `-32022`, the requested version.
    Error {
        /// The code.
        code: i32,
        /// `data.requested` of a `-32022`.
        requested: Option<String>,
    },
    /// A result.
    Result(Success),
    /// Some reply or none; the generator does not say which (random bytes).
    Unknown,
}

/// What the generator knows about a line: the independent expectation
/// properties compare the server against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expect {
    /// What the reply must be.
    pub outcome: Outcome,
    /// The raw JSON text of the id the reply must carry (`None`: null).
    /// Meaningful when a reply is expected.
    pub id: Option<String>,
    /// The decoded method, when the line is a readable request.
    pub method: Option<String>,
}

/// The tool that names a tool outcome.
const GET_ORDER: &str = "get_order";
const LOOKUP_STOCK: &str = "lookup_stock";

/// The `LoggingLevel` values of the 2026-07-28 schema.
pub const LOG_LEVELS: &[&str] = &[
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// Capabilities `ClientCapabilities` defines as objects.
pub const CAPABILITIES: &[&str] = &[
    "elicitation",
    "experimental",
    "extensions",
    "roots",
    "sampling",
];

const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

impl Expect {
    fn error(code: i32, id: Option<String>, method: Option<String>) -> Expect {
        Expect {
            outcome: Outcome::Error {
                code,
                requested: None,
            },
            id,
            method,
        }
    }

    fn silent(why: Silence) -> Expect {
        Expect {
            outcome: Outcome::Silent(why),
            id: None,
            method: None,
        }
    }

    /// A `-32700` for a line that is not JSON.
    pub fn parse_error() -> Expect {
        Expect::error(-32700, None, None)
    }

    /// The expectation of a line too long for `config`.
    pub fn oversized() -> Expect {
        Expect::error(-32600, None, None)
    }

    /// Whether a reply is due (`None`: the generator does not say).
    pub fn replies(&self) -> Option<bool> {
        match self.outcome {
            Outcome::Silent(_) => Some(false),
            Outcome::Unknown => None,
            _ => Some(true),
        }
    }

    /// The tool that must have run exactly once (`None`: no tool runs).
    /// Meaningless for [`Outcome::Unknown`].
    pub fn executes(&self) -> Option<&'static str> {
        match &self.outcome {
            Outcome::Result(Success::Order(_) | Success::NotVisible) => Some(GET_ORDER),
            Outcome::Result(Success::Stock(_) | Success::UnknownProduct) => Some(LOOKUP_STOCK),
            _ => None,
        }
    }

    /// Checks a reply (empty: none) against the expectation: presence,
    /// the id (raw text), the error code and `-32022` data, and the result's
    /// content for what the generator can tell from the configuration.
    pub fn check(&self, config: &Config, reply: &[u8]) -> Result<(), String> {
        let due = match self.replies() {
            None => return Ok(()),
            Some(due) => due,
        };
        if !due {
            return if reply.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "expected no reply ({:?}), got {}",
                    self.outcome,
                    String::from_utf8_lossy(reply)
                ))
            };
        }
        if reply.is_empty() {
            return Err(format!("expected a reply ({:?}), got none", self.outcome));
        }
        let raw = raw_id(reply).ok_or("the reply has no id member")?;
        let want = self.id.as_deref().unwrap_or("null");
        if raw != want {
            return Err(format!("reply id {raw}, expected {want}"));
        }
        let v = crate::invariants::reply_value(reply)?;
        match &self.outcome {
            Outcome::Error { code, requested } => {
                let got = v.pointer("/error/code").and_then(Value::as_i64);
                if got != Some(i64::from(*code)) {
                    return Err(format!("expected error {code}, got {v}"));
                }
                if *code == -32022 {
                    let supported = supported_versions(config);
                    if v.pointer("/error/data/supported") != Some(&json!(supported)) {
                        return Err(format!("-32022 must list {supported:?}: {v}"));
                    }
                    if let Some(requested) = requested
                        && v.pointer("/error/data/requested") != Some(&json!(requested))
                    {
                        return Err(format!("-32022 must name {requested:?} as requested: {v}"));
                    }
                }
                Ok(())
            }
            Outcome::Result(success) => {
                let result = v
                    .get("result")
                    .ok_or_else(|| format!("expected a result ({success:?}), got {v}"))?;
                check_success(config, success, result)
                    .map_err(|e| format!("{e} ({success:?}): {v}"))
            }
            Outcome::Silent(_) | Outcome::Unknown => Ok(()),
        }
    }
}

/// Every version a `-32022` must list: the modern ones, then the legacy.
pub fn supported_versions(config: &Config) -> Vec<String> {
    config
        .versions()
        .iter()
        .chain(config.legacy_versions())
        .cloned()
        .collect()
}

/// The raw JSON text of a reply's top-level `id` member.
pub fn raw_id(reply: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Head<'a> {
        #[serde(borrow)]
        id: Option<&'a serde_json::value::RawValue>,
    }
    let head: Head<'_> = serde_json::from_slice(reply).ok()?;
    Some(head.id.map_or("null", |r| r.get()).to_string())
}

fn check_success(config: &Config, success: &Success, result: &Value) -> Result<(), String> {
    let is_error = result.get("isError").and_then(Value::as_bool);
    let structured = result.get("structuredContent");
    match success {
        Success::Discover => {
            if result.get("supportedVersions") != Some(&json!(config.versions())) {
                return Err("supportedVersions is not the configured list".into());
            }
            Ok(())
        }
        Success::ToolsList => {
            let names: Vec<&str> = result
                .get("tools")
                .and_then(Value::as_array)
                .map(|t| t.iter().filter_map(|t| t.get("name")?.as_str()).collect())
                .unwrap_or_default();
            let mut want = vec![GET_ORDER];
            if config.stock().is_some() {
                want.push(LOOKUP_STOCK);
            }
            if names != want {
                return Err(format!("tools {names:?}, expected {want:?}"));
            }
            Ok(())
        }
        Success::Order(order_id) => {
            let order = config
                .orders()
                .iter()
                .find(|o| &o.order_id == order_id)
                .ok_or("the generator named an order the config lacks")?;
            let want = json!({
                "order_id": order.order_id,
                "status": order.status,
                "as_of": order.as_of,
                "source_version": order.source_version,
            });
            if is_error != Some(false) || structured != Some(&want) {
                return Err(format!("expected isError false and snapshot {want}"));
            }
            Ok(())
        }
        Success::Stock(product_id) => {
            let item = config
                .stock()
                .unwrap_or_default()
                .iter()
                .find(|s| &s.product_id == product_id)
                .ok_or("the generator named a product the config lacks")?;
            let want = json!({ "product_id": item.product_id, "stock": item.stock });
            if is_error != Some(false) || structured != Some(&want) {
                return Err(format!("expected isError false and {want}"));
            }
            Ok(())
        }
        Success::NotVisible | Success::InvalidArguments(_) | Success::UnknownProduct => {
            if is_error != Some(true) || structured.is_some() {
                return Err("expected isError true and no structuredContent".into());
            }
            Ok(())
        }
    }
}

/// The expectation of a line rendered from `tree` with nothing else done
/// to it, for `config`: the model of the server's rules.
pub fn expect(config: &Config, tree: &Json) -> Expect {
    let id_members: Vec<&Json> = tree.members("id").collect();
    // Framing: the top-level `id` is read as raw text (so any integer is
    // echoed digit for digit); everything else is decoded, and decoding
    // refuses lone surrogates, nesting past the limit, and numbers beyond
    // the range of a double (serde_json's limit, modelled as the server
    // behaves: such a line is `-32700`).
    let decodes =
        |v: &Json| !v.has_lone_surrogate() && v.depth() < MAX_DEPTH && !v.has_number_out_of_range();
    let fine = match tree {
        Json::Obj(members) => members.iter().all(|(k, _, v)| {
            if k == "id" {
                // Skipped as raw text: only a string at the top is decoded.
                !matches!(v, Json::LoneSurrogate)
            } else {
                decodes(v)
            }
        }),
        other => {
            other.depth() <= MAX_DEPTH
                && !other.has_lone_surrogate()
                && !other.has_number_out_of_range()
        }
    };
    if !fine {
        return Expect::parse_error();
    }
    let Json::Obj(members) = tree else {
        return Expect::error(-32600, None, None);
    };
    let has = |name: &str| tree.get(name).is_some();
    if !has("method") && (has("result") || has("error")) {
        return Expect::silent(Silence::ClientResponse);
    }
    let id = match id_members.as_slice() {
        [one] if one.is_integer_literal() || one.as_str().is_some() => {
            Some(String::from_utf8_lossy(&one.render()).into_owned())
        }
        _ => None,
    };
    let duplicate = {
        let mut seen = BTreeSet::new();
        members.iter().any(|(k, _, _)| !seen.insert(k.as_str()))
            || members
                .iter()
                .any(|(k, _, v)| k != "id" && v.has_duplicate())
    };
    if duplicate {
        return Expect::error(-32600, id, None);
    }
    if tree.get("jsonrpc").and_then(Json::as_str) != Some("2.0") {
        return Expect::error(-32600, id, None);
    }
    if !id_members.is_empty() && id.is_none() {
        return Expect::error(-32600, None, None);
    }
    let method = match tree.get("method") {
        None => return Expect::error(-32600, id, None),
        Some(m) => match m.as_str() {
            Some(m) => m.to_string(),
            None => return Expect::error(-32600, id, None),
        },
    };
    if id.is_none() {
        return Expect::silent(Silence::Notification);
    }
    let outcome = answer(config, &method, tree.get("params"));
    Expect {
        outcome,
        id,
        method: Some(method),
    }
}

fn err(code: i32) -> Outcome {
    Outcome::Error {
        code,
        requested: None,
    }
}

/// The answer to a request (envelope valid, id readable).
fn answer(config: &Config, method: &str, params: Option<&Json>) -> Outcome {
    if method == "initialize" {
        // BRIEF decision 11: no handshake here; -32022 naming the asked
        // version when it is a string, else -32602.
        return match params
            .and_then(|p| p.get("protocolVersion"))
            .and_then(Json::as_str)
        {
            Some(v) if matches!(params, Some(Json::Obj(_))) => Outcome::Error {
                code: -32022,
                requested: Some(v.to_string()),
            },
            _ => err(-32602),
        };
    }
    let Some(params @ Json::Obj(_)) = params else {
        return err(-32602);
    };
    let Some(meta @ Json::Obj(_)) = params.get("_meta") else {
        return err(-32602);
    };
    let version = match meta.get(PROTOCOL_VERSION) {
        Some(Json::Str(v, _)) => v,
        _ => return err(-32602),
    };
    if !config.versions().iter().any(|s| s == version) {
        return Outcome::Error {
            code: -32022,
            requested: Some(version.clone()),
        };
    }
    match meta.get(CLIENT_CAPABILITIES) {
        Some(caps @ Json::Obj(_)) => {
            if CAPABILITIES
                .iter()
                .any(|c| caps.get(c).is_some_and(|v| !matches!(v, Json::Obj(_))))
            {
                return err(-32602);
            }
        }
        _ => return err(-32602),
    }
    if let Some(info) = meta.get(CLIENT_INFO) {
        let string = |k: &str| info.get(k).is_some_and(|v| v.as_str().is_some());
        let optional_string = |k: &str| info.get(k).is_none_or(|v| v.as_str().is_some());
        let ok = matches!(info, Json::Obj(_))
            && string("name")
            && string("version")
            && ["title", "description", "websiteUrl"]
                .iter()
                .all(|k| optional_string(k))
            && info.get("icons").is_none_or(|v| matches!(v, Json::Arr(_)));
        if !ok {
            return err(-32602);
        }
    }
    if let Some(level) = meta.get(LOG_LEVEL)
        && !level.as_str().is_some_and(|l| LOG_LEVELS.contains(&l))
    {
        return err(-32602);
    }
    if let Some(token) = meta.get("progressToken") {
        // `ProgressToken` is a string or an integer; this server refuses
        // integers it could not hold in 64 bits.
        let ok = token.as_str().is_some() || is_int64(token);
        if !ok {
            return err(-32602);
        }
    }
    match method {
        "server/discover" => Outcome::Result(Success::Discover),
        "tools/list" if params.get("cursor").is_some() => err(-32602),
        "tools/list" => Outcome::Result(Success::ToolsList),
        "tools/call" => call(config, params),
        _ => err(-32601),
    }
}

/// Whether `v` is an integer literal that fits `i64` or `u64`.
fn is_int64(v: &Json) -> bool {
    match v {
        // `-0` is an integer to JSON Schema, but serde_json reads it as a
        // float and the server refuses it: modelled as the server does.
        Json::Num(n) if v.is_integer_literal() && n != "-0" => {
            n.parse::<i64>().is_ok() || n.parse::<u64>().is_ok()
        }
        _ => false,
    }
}

fn call(config: &Config, params: &Json) -> Outcome {
    let Some(name) = params.get("name").and_then(Json::as_str) else {
        return err(-32602);
    };
    let empty = Json::Obj(Vec::new());
    let args = match params.get("arguments") {
        None => &empty,
        Some(a @ Json::Obj(_)) => a,
        Some(_) => return err(-32602),
    };
    let Json::Obj(arg_members) = args else {
        return err(-32602);
    };
    match name {
        GET_ORDER => match args.get("order_id").and_then(Json::as_str) {
            None => Outcome::Result(Success::InvalidArguments(GET_ORDER)),
            Some(order_id) => {
                let readable = config
                    .orders()
                    .iter()
                    .any(|o| o.order_id == order_id && o.owner == config.user());
                Outcome::Result(if readable {
                    Success::Order(order_id.to_string())
                } else {
                    Success::NotVisible
                })
            }
        },
        LOOKUP_STOCK if config.stock().is_some() => {
            match args.get("product_id").and_then(Json::as_str) {
                Some(product_id) if arg_members.len() == 1 => {
                    let known = config
                        .stock()
                        .unwrap_or_default()
                        .iter()
                        .any(|s| s.product_id == product_id);
                    Outcome::Result(if known {
                        Success::Stock(product_id.to_string())
                    } else {
                        Success::UnknownProduct
                    })
                }
                _ => Outcome::Result(Success::InvalidArguments(LOOKUP_STOCK)),
            }
        }
        _ => err(-32602),
    }
}

// ---------------------------------------------------------------------------
// Cases

/// One generated line and what its generator knows about it.
#[derive(Clone)]
pub struct Case {
    /// The line, without its newline (never contains `\n`).
    pub line: Vec<u8>,
    /// The expectation.
    pub expect: Expect,
    /// Which generator made it, for diagnostics and coverage counts.
    pub label: &'static str,
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = if self.line.len() > 600 {
            format!(
                "{}... ({} bytes)",
                String::from_utf8_lossy(self.line.get(..600).unwrap_or_default()),
                self.line.len()
            )
        } else {
            String::from_utf8_lossy(&self.line).into_owned()
        };
        f.debug_struct("Case")
            .field("label", &self.label)
            .field("line", &shown)
            .field("utf8", &std::str::from_utf8(&self.line).is_ok())
            .field("expect", &self.expect)
            .finish()
    }
}

impl Case {
    /// The case of a tree rendered as is.
    pub fn from_tree(config: &Config, tree: &Json, label: &'static str) -> Case {
        let line = tree.render();
        let expect = frame(config, &line, expect(config, tree));
        Case {
            line,
            expect,
            label,
        }
    }
}

/// Applies the framing rules that come before decoding: a blank line is no
/// message; a line over the limit is `-32600` with id null.
fn frame(config: &Config, line: &[u8], decoded: Expect) -> Expect {
    if line
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    {
        Expect::silent(Silence::Blank)
    } else if line.len() > config.max_line_bytes() {
        Expect::oversized()
    } else {
        decoded
    }
}

/// One line for `config`, across the whole input space: mostly requests
/// (well-formed or broken in one place), then tree mutations, notifications,
/// client responses, non-objects, byte-level mutations, blank, oversized
/// and random lines.
pub fn case(config: &Config) -> BoxedStrategy<Case> {
    let c = config.clone();
    let tree_case = move |label: &'static str| {
        let c = c.clone();
        move |tree: Json| Case::from_tree(&c, &tree, label)
    };
    prop_oneof![
        50 => request(config).prop_map(tree_case("request")),
        12 => mutated_tree(config).prop_map(tree_case("tree mutation")),
        4 => notification(config).prop_map(tree_case("notification")),
        3 => client_response().prop_map(tree_case("client response")),
        3 => not_object(config).prop_map(tree_case("not an object")),
        4 => deep(config).prop_map(tree_case("deep nesting")),
        12 => byte_mutation(config),
        3 => blank(),
        3 => oversized(config),
        2 => random_bytes(),
    ]
    .boxed()
}

/// A configuration and one line for it.
pub fn scenario() -> impl Strategy<Value = (Config, Case)> {
    config().prop_flat_map(|c| {
        let lines = case(&c);
        (Just(c), lines)
    })
}

/// A configuration and a sequence of lines for it.
pub fn session(len: std::ops::Range<usize>) -> impl Strategy<Value = (Config, Vec<Case>)> {
    config().prop_flat_map(move |c| {
        let lines = proptest::collection::vec(case(&c), len.clone());
        (Just(c), lines)
    })
}

// ---------------------------------------------------------------------------
// Requests

/// Orders and products of a configuration, by what a call on them gets.
#[derive(Debug, Clone)]
struct Pools {
    readable: Vec<String>,
    forbidden: Vec<String>,
    products: Vec<String>,
    versions: Vec<String>,
    stock: bool,
}

impl Pools {
    fn new(config: &Config) -> Pools {
        let (readable, forbidden) = config
            .orders()
            .iter()
            .partition::<Vec<_>, _>(|o| o.owner == config.user());
        Pools {
            readable: readable.into_iter().map(|o| o.order_id.clone()).collect(),
            forbidden: forbidden.into_iter().map(|o| o.order_id.clone()).collect(),
            products: config
                .stock()
                .unwrap_or_default()
                .iter()
                .map(|s| s.product_id.clone())
                .collect(),
            versions: config.versions().to_vec(),
            stock: config.stock().is_some(),
        }
    }
}

/// How a generated string is written: mostly plainly.
pub fn esc() -> impl Strategy<Value = Esc> {
    prop_oneof![8 => Just(Esc::Plain), 1 => Just(Esc::Unicode), 1 => Just(Esc::Solidus)]
}

/// A string written in a random style.
fn str_json(s: impl Strategy<Value = String>) -> impl Strategy<Value = Json> {
    (s, esc()).prop_map(|(s, e)| Json::Str(s, e))
}

/// Random text: printable, any scalar value, or JSON's special characters.
pub fn text() -> BoxedStrategy<String> {
    prop_oneof![
        3 => "[a-zA-Z0-9 _.:-]{0,12}",
        2 => "\\PC{0,10}",
        1 => proptest::collection::vec(any::<char>(), 0..6).prop_map(String::from_iter),
        1 => select(vec!["\"", "\\", "\"quoted\"", "back\\slash", "tab\there", "nul\0", "\u{2028}", "é", "😀", "/"])
            .prop_map(String::from),
    ]
    .boxed()
}

/// A valid id: integers (small, negative, zero, 64-bit edges, far beyond
/// 64 bits) and strings (empty, number-like, unicode, escaped).
pub fn id() -> BoxedStrategy<Json> {
    prop_oneof![
        4 => (0u32..1000).prop_map(Json::int),
        1 => any::<i64>().prop_map(Json::int),
        1 => any::<u64>().prop_map(Json::int),
        1 => select(vec![
            "0", "-0", "-1", "9223372036854775807", "-9223372036854775808",
            "9223372036854775808", "-9223372036854775809", "18446744073709551615",
            "18446744073709551616", "-18446744073709551616",
        ])
        .prop_map(|s| Json::Num(s.into())),
        2 => ("-?", "[1-9][0-9]{19,60}").prop_map(|(sign, digits)| Json::Num(format!("{sign}{digits}"))),
        1 => "[1-9][0-9]{300,400}".prop_map(Json::Num),
        4 => str_json(text()),
        1 => str_json(select(vec!["", "1", "-0", "null", "1e3", "id"]).prop_map(String::from)),
    ]
    .boxed()
}

/// An id member value that is not a valid id.
pub fn invalid_id() -> BoxedStrategy<Json> {
    prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        select(vec!["1.5", "1.0", "1e3", "-0.0", "1E+2", "0.1e-5"])
            .prop_map(|s| Json::Num(s.into())),
        Just(Json::Arr(vec![])),
        Just(Json::Arr(vec![Json::int(1)])),
        Just(Json::Obj(vec![])),
        Just(Json::obj([("id", Json::int(1))])),
    ]
    .boxed()
}

/// A method name: the known set, the removed ones, and others.
pub fn method() -> BoxedStrategy<String> {
    prop_oneof![
        6 => Just("tools/call".to_string()),
        2 => Just("tools/list".to_string()),
        2 => Just("server/discover".to_string()),
        1 => select(vec!["initialize", "ping", "logging/setLevel"]).prop_map(String::from),
        1 => select(vec![
            "notifications/initialized", "resources/list", "prompts/list", "tools/Call",
            "server/discover ", "", "tools", "completion/complete", "sampling/createMessage",
        ])
        .prop_map(String::from),
        1 => text(),
    ]
    .boxed()
}

/// A random JSON value of bounded size (no duplicates, numbers that fit a
/// double).
pub fn any_json() -> BoxedStrategy<Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        any::<i64>().prop_map(Json::int),
        select(vec![
            "1.5",
            "-0.25",
            "1e10",
            "0",
            "-0",
            "1E-3",
            "123456789012345678901234567890"
        ])
        .prop_map(|s| Json::Num(s.into())),
        str_json(text()),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Json::Arr),
            proptest::collection::btree_map(text(), inner, 0..4).prop_map(Json::obj),
        ]
    })
    .boxed()
}

/// A value of any JSON type but `kind`'s, for type errors.
fn not_a(kind: &'static str) -> BoxedStrategy<Json> {
    any_json()
        .prop_filter("another type", move |j| {
            let is = match j {
                Json::Str(..) => "string",
                Json::Obj(_) => "object",
                Json::Arr(_) => "array",
                _ => "scalar",
            };
            is != kind
        })
        .boxed()
}

/// A member added for forward compatibility, which the server must ignore.
fn unknown_member() -> impl Strategy<Value = Member> {
    (
        prop_oneof![
            Just("x".to_string()),
            Just("io.modelcontextprotocol/future".to_string()),
            Just("com.example/trace".to_string()),
            "[a-z]{1,8}",
        ],
        esc(),
        any_json(),
    )
}

fn shuffled(members: Vec<Member>) -> impl Strategy<Value = Json> {
    Just(members).prop_shuffle().prop_map(Json::Obj)
}

/// Adds members whose names are not already there.
fn add_unknown(
    members: Vec<Member>,
    n: std::ops::Range<usize>,
) -> impl Strategy<Value = Vec<Member>> {
    proptest::collection::vec(unknown_member(), n).prop_map(move |extra| {
        let mut members = members.clone();
        for (k, e, v) in extra {
            if !members.iter().any(|(m, _, _)| *m == k) {
                members.push((k, e, v));
            }
        }
        members
    })
}

fn members(parts: Vec<BoxedStrategy<Option<Member>>>) -> impl Strategy<Value = Vec<Member>> {
    parts.prop_map(|parts| parts.into_iter().flatten().collect())
}

fn some(s: impl Strategy<Value = Member> + 'static) -> BoxedStrategy<Option<Member>> {
    s.prop_map(Some).boxed()
}

fn maybe(
    weight_some: u32,
    s: impl Strategy<Value = Member> + 'static,
) -> BoxedStrategy<Option<Member>> {
    prop_oneof![10 - weight_some.min(10) => Just(None), weight_some.min(10) => s.prop_map(Some)]
        .boxed()
}

fn named(
    name: &'static str,
    value: impl Strategy<Value = Json> + 'static,
) -> BoxedStrategy<Member> {
    (value, esc())
        .prop_map(move |(v, e)| (name.to_string(), e, v))
        .boxed()
}

/// `_meta` of a request: mostly well-formed (a served version, capabilities,
/// optional clientInfo, logLevel, progressToken and unknown members), else
/// broken in one place or of an unsupported version.
pub fn meta(versions: Vec<String>) -> BoxedStrategy<Json> {
    let good_version = str_json(select(versions.clone()));
    let caps = proptest::collection::btree_map(
        prop_oneof![
            select(CAPABILITIES.to_vec()).prop_map(String::from),
            "[a-z]{1,6}"
        ],
        prop_oneof![3 => Just(Json::Obj(vec![])), 1 => any_json()],
        0..3,
    )
    .prop_map(|m| {
        // Defined capabilities are objects in a well-formed request.
        Json::obj(m.into_iter().map(|(k, v)| {
            let v = if CAPABILITIES.contains(&k.as_str()) && !matches!(v, Json::Obj(_)) {
                Json::Obj(vec![])
            } else {
                v
            };
            (k, v)
        }))
    });
    // Self-reported identities, some of which claim privileges: none may
    // change any reply (BRIEF: clientInfo is never a basis for a decision).
    let client_name = prop_oneof![
        2 => text(),
        1 => select(vec!["administrator", "admin", "root", "mira", "tomas", "book-orders"])
            .prop_map(String::from),
    ];
    let client_info = (
        client_name,
        text(),
        proptest::option::of(text()),
        any::<bool>(),
    )
        .prop_map(|(name, version, title, icons)| {
            let mut m = vec![("name", Json::str(name)), ("version", Json::str(version))];
            if let Some(t) = title {
                m.push(("title", Json::str(t)));
            }
            if icons {
                m.push(("icons", Json::Arr(vec![])));
            }
            Json::obj(m)
        });
    let level = str_json(select(LOG_LEVELS.to_vec()).prop_map(String::from));
    let token = prop_oneof![
        str_json(text()),
        any::<i64>().prop_map(Json::int),
        any::<u64>().prop_map(Json::int),
    ];
    let good = members(vec![
        some(named(PROTOCOL_VERSION, good_version)),
        some(named(CLIENT_CAPABILITIES, caps)),
        maybe(3, named(CLIENT_INFO, client_info)),
        maybe(2, named(LOG_LEVEL, level)),
        maybe(2, named("progressToken", token)),
    ])
    .prop_flat_map(|m| add_unknown(m, 0..2))
    .prop_flat_map(shuffled)
    .boxed();
    let broken = (good.clone(), meta_defect(versions)).prop_map(|(mut meta, defect)| {
        defect.apply(&mut meta);
        meta
    });
    prop_oneof![10 => good, 2 => broken].boxed()
}

/// One thing wrong with a `_meta` object.
#[derive(Debug, Clone)]
enum Defect {
    Remove(&'static str),
    Set(&'static str, Json),
}

impl Defect {
    fn apply(&self, obj: &mut Json) {
        if let Json::Obj(members) = obj {
            match self {
                Defect::Remove(k) => members.retain(|(m, _, _)| m != k),
                Defect::Set(k, v) => match members.iter_mut().find(|(m, _, _)| m == k) {
                    Some(slot) => slot.2 = v.clone(),
                    None => members.push((k.to_string(), Esc::Plain, v.clone())),
                },
            }
        }
    }
}

/// A protocol version string that is none of `versions`: legacy and future
/// versions, near misses (spaces, full-width digits, a NUL), random text.
pub fn unsupported_version(versions: Vec<String>) -> BoxedStrategy<String> {
    prop_oneof![
        select(vec![
            "2025-11-25",
            "2025-06-18",
            "2024-11-05",
            "2026-07-29",
            "2026-07-28 ",
            " 2026-07-28",
            "2026-7-28",
            "",
            "draft",
            "2026-07-28\u{0}",
            "２０２６-07-28",
        ])
        .prop_map(String::from),
        text(),
    ]
    .prop_filter("not served", move |v| !versions.contains(v))
    .boxed()
}

fn meta_defect(versions: Vec<String>) -> BoxedStrategy<Defect> {
    let unsupported = unsupported_version(versions);
    let info_broken = prop_oneof![
        not_a("object"),
        Just(Json::obj([("name", Json::str("x"))])),
        Just(Json::obj([("version", Json::str("1"))])),
        Just(Json::obj([
            ("name", Json::int(1)),
            ("version", Json::str("1"))
        ])),
        Just(Json::obj([
            ("name", Json::str("x")),
            ("version", Json::str("1")),
            ("icons", Json::obj([("a", Json::Null)]))
        ])),
        Just(Json::obj([
            ("name", Json::str("x")),
            ("version", Json::str("1")),
            ("title", Json::Null)
        ])),
    ];
    let caps_broken = prop_oneof![
        not_a("object"),
        (select(CAPABILITIES.to_vec()), not_a("object")).prop_map(|(c, v)| Json::obj([(c, v)])),
    ];
    prop_oneof![
        1 => Just(Defect::Remove(PROTOCOL_VERSION)),
        1 => not_a("string").prop_map(|v| Defect::Set(PROTOCOL_VERSION, v)),
        3 => str_json(unsupported).prop_map(|v| Defect::Set(PROTOCOL_VERSION, v)),
        1 => Just(Defect::Remove(CLIENT_CAPABILITIES)),
        1 => caps_broken.prop_map(|v| Defect::Set(CLIENT_CAPABILITIES, v)),
        1 => info_broken.prop_map(|v| Defect::Set(CLIENT_INFO, v)),
        1 => prop_oneof![
            str_json(select(vec!["DEBUG", "warn", "trace", "", "fatal"]).prop_map(String::from)),
            not_a("string"),
        ]
        .prop_map(|v| Defect::Set(LOG_LEVEL, v)),
        1 => prop_oneof![
            Just(Json::Null),
            Just(Json::Num("1.5".into())),
            Just(Json::Num("1.0".into())),
            Just(Json::Num("18446744073709551616".into())),
            Just(Json::Num("-9223372036854775809".into())),
            Just(Json::Arr(vec![])),
        ]
        .prop_map(|v| Defect::Set("progressToken", v)),
    ]
    .boxed()
}

/// An `order_id` argument value for `config`: an order the user owns, one
/// of someone else's, one that does not exist, or a near miss.
fn order_id(pools: &Pools) -> BoxedStrategy<String> {
    let mut choices: Vec<BoxedStrategy<String>> =
        vec![prop_oneof!["[A-Z]-[0-9]{3}", text(), Just("".to_string())].boxed()];
    if !pools.readable.is_empty() {
        for _ in 0..3 {
            choices.push(select(pools.readable.clone()).boxed());
        }
    }
    if !pools.forbidden.is_empty() {
        choices.push(select(pools.forbidden.clone()).boxed());
        choices.push(select(pools.forbidden.clone()).boxed());
    }
    let all: Vec<String> = pools
        .readable
        .iter()
        .chain(&pools.forbidden)
        .cloned()
        .collect();
    if !all.is_empty() {
        choices.push(
            (select(all), 0..4usize)
                .prop_map(|(id, how)| match how {
                    0 => id.to_lowercase(),
                    1 => format!("{id} "),
                    2 => format!(" {id}"),
                    _ => id.chars().rev().collect(),
                })
                .boxed(),
        );
    }
    proptest::strategy::Union::new(choices).boxed()
}

fn product_id(pools: &Pools) -> BoxedStrategy<String> {
    if pools.products.is_empty() {
        prop_oneof!["[a-z-]{1,12}", text()].boxed()
    } else {
        prop_oneof![3 => select(pools.products.clone()), 1 => "[a-z-]{1,12}", 1 => text()].boxed()
    }
}

/// `arguments` of a `tools/call` for the tool `name`.
fn tool_arguments(pools: &Pools, name: &str) -> BoxedStrategy<Option<Json>> {
    let extra = proptest::collection::vec(unknown_member(), 0..2);
    let get = (str_json(order_id(pools)), extra, esc()).prop_map(|(id, extra, e)| {
        let mut m = vec![("order_id".to_string(), e, id)];
        m.extend(extra.into_iter().filter(|(k, _, _)| k != "order_id"));
        m
    });
    let stock = (str_json(product_id(pools)), esc())
        .prop_map(|(id, e)| vec![("product_id".to_string(), e, id)]);
    let valid: BoxedStrategy<Vec<Member>> = match name {
        LOOKUP_STOCK => prop_oneof![4 => stock, 1 => get].boxed(),
        _ => prop_oneof![4 => get, 1 => stock].boxed(),
    };
    let broken = prop_oneof![
        not_a("string").prop_map(|v| vec![("order_id".to_string(), Esc::Plain, v)]),
        not_a("string").prop_map(|v| vec![("product_id".to_string(), Esc::Plain, v)]),
        (str_json(product_id(pools)), unknown_member()).prop_map(|(p, extra)| {
            let mut m = vec![("product_id".to_string(), Esc::Plain, p)];
            if extra.0 != "product_id" {
                m.push(extra);
            }
            m
        }),
        Just(vec![]),
        Just(vec![(
            "orderId".to_string(),
            Esc::Plain,
            Json::str("A-104")
        )]),
    ];
    prop_oneof![
        16 => valid.prop_flat_map(shuffled).prop_map(Some),
        3 => broken.prop_flat_map(shuffled).prop_map(Some),
        1 => Just(None),
        1 => not_a("object").prop_map(Some),
    ]
    .boxed()
}

fn tool_name(pools: &Pools) -> BoxedStrategy<String> {
    let stock = if pools.stock { 8 } else { 1 };
    prop_oneof![
        12 => Just(GET_ORDER.to_string()),
        stock => Just(LOOKUP_STOCK.to_string()),
        1 => Just("cancel_order".to_string()),
        1 => select(vec!["GET_ORDER", "get_order ", "get-order", "", "tools/call", "get_order\u{0}"])
            .prop_map(String::from),
        1 => text(),
    ]
    .boxed()
}

/// The method members of `params` for `method`.
fn method_params(pools: &Pools, method: &str) -> BoxedStrategy<Vec<Member>> {
    match method {
        "tools/call" => {
            let pools = pools.clone();
            (tool_name(&pools), esc(), 0..16u8)
                .prop_flat_map(move |(name, e, name_kind)| {
                    let args = tool_arguments(&pools, &name);
                    let name_json: BoxedStrategy<Option<Json>> = match name_kind {
                        0 => Just(None).boxed(),
                        1 => not_a("string").prop_map(Some).boxed(),
                        _ => Just(Some(Json::Str(name, e))).boxed(),
                    };
                    (name_json, args).prop_map(|(name, args)| {
                        let mut m = Vec::new();
                        if let Some(n) = name {
                            m.push(("name".to_string(), Esc::Plain, n));
                        }
                        if let Some(a) = args {
                            m.push(("arguments".to_string(), Esc::Plain, a));
                        }
                        m
                    })
                })
                .boxed()
        }
        "tools/list" => prop_oneof![
            6 => Just(vec![]),
            1 => prop_oneof![str_json(text()), any_json()]
                .prop_map(|c| vec![("cursor".to_string(), Esc::Plain, c)]),
        ]
        .boxed(),
        "initialize" => {
            let version = prop_oneof![
                3 => str_json(select(vec!["2025-11-25", "2025-06-18", "2024-11-05", "2026-07-28"]).prop_map(String::from)),
                1 => str_json(text()),
                1 => not_a("string"),
            ];
            members(vec![
                maybe(8, named("protocolVersion", version)),
                maybe(7, named("capabilities", Just(Json::Obj(vec![])))),
                maybe(
                    7,
                    named(
                        "clientInfo",
                        Just(Json::obj([
                            ("name", Json::str("c")),
                            ("version", Json::str("1")),
                        ])),
                    ),
                ),
            ])
            .boxed()
        }
        _ => Just(vec![]).boxed(),
    }
}

/// A request tree for `config`: an envelope that is mostly valid (ids of
/// every kind, sometimes none or an invalid one, sometimes a wrong
/// `jsonrpc`), a method from the known set or outside it, and `params`
/// with a `_meta` that is mostly well-formed.
pub fn request(config: &Config) -> BoxedStrategy<Json> {
    request_with(config, method())
}

/// A request tree as [`request`] makes, always for `tools/call`: tool
/// names known and unknown, arguments valid and invalid, order ids the
/// user owns, someone else's, and none.
pub fn tool_call(config: &Config) -> BoxedStrategy<Json> {
    request_with(config, Just("tools/call".to_string()).boxed())
}

fn request_with(config: &Config, method: BoxedStrategy<String>) -> BoxedStrategy<Json> {
    let pools = Pools::new(config);
    (method, esc())
        .prop_flat_map(move |(method, method_esc)| {
            let versions = pools.versions.clone();
            let params = params_for(&pools, &method, versions);
            let id = prop_oneof![
                30 => id().prop_map(Some),
                1 => invalid_id().prop_map(Some),
            ];
            let jsonrpc = prop_oneof![
                40 => Just(Some(Json::str("2.0"))),
                1 => Just(None),
                1 => prop_oneof![
                    Just(Json::Num("2.0".into())),
                    Just(Json::str("1.0")),
                    Just(Json::str("2.0 ")),
                    Just(Json::Null),
                ]
                .prop_map(Some),
            ];
            let extras = prop_oneof![8 => Just(vec![]), 1 => proptest::collection::vec(unknown_member(), 1..3)];
            (jsonrpc, id, params, extras, Just(Json::Str(method, method_esc)), esc())
        })
        .prop_flat_map(|(jsonrpc, id, params, extras, method, e)| {
            let mut m = Vec::new();
            if let Some(j) = jsonrpc {
                m.push(("jsonrpc".to_string(), e, j));
            }
            if let Some(id) = id {
                m.push(("id".to_string(), e, id));
            }
            m.push(("method".to_string(), e, method));
            if let Some(p) = params {
                m.push(("params".to_string(), e, p));
            }
            for (k, e, v) in extras {
                if !matches!(k.as_str(), "jsonrpc" | "id" | "method" | "params" | "result" | "error")
                    && !m.iter().any(|(n, _, _)| *n == k)
                {
                    m.push((k, e, v));
                }
            }
            shuffled(m)
        })
        .boxed()
}

fn params_for(pools: &Pools, method: &str, versions: Vec<String>) -> BoxedStrategy<Option<Json>> {
    let meta_member = prop_oneof![
        20 => meta(versions).prop_map(Some),
        1 => Just(None),
        1 => not_a("object").prop_map(Some),
    ];
    let object = (meta_member, method_params(pools, method), esc())
        .prop_flat_map(|(meta, mut m, e)| {
            if let Some(meta) = meta {
                m.push(("_meta".to_string(), e, meta));
            }
            add_unknown(m, 0..2)
        })
        .prop_flat_map(shuffled);
    prop_oneof![
        30 => object.prop_map(Some),
        1 => Just(None),
        1 => not_a("object").prop_map(Some),
    ]
    .boxed()
}

/// A request without an id: a notification, whatever it contains.
pub fn notification(config: &Config) -> BoxedStrategy<Json> {
    request(config)
        .prop_map(|mut tree| {
            if let Json::Obj(m) = &mut tree {
                m.retain(|(k, _, _)| k != "id");
            }
            tree
        })
        .boxed()
}

/// A response sent by a client: `result` or `error` and no `method`.
pub fn client_response() -> BoxedStrategy<Json> {
    let body = prop_oneof![
        any_json().prop_map(|r| ("result", r)),
        Just(("result", Json::Obj(vec![]))),
        Just((
            "error",
            Json::obj([("code", Json::int(-32601)), ("message", Json::str("no"))])
        )),
        any_json().prop_map(|r| ("error", r)),
    ];
    (
        prop_oneof![id(), invalid_id()],
        body,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_flat_map(|(id, (k, v), with_id, both)| {
            let mut m = vec![("jsonrpc".to_string(), Esc::Plain, Json::str("2.0"))];
            if with_id {
                m.push(("id".to_string(), Esc::Plain, id));
            }
            m.push((k.to_string(), Esc::Plain, v));
            if both {
                let other = if k == "result" { "error" } else { "result" };
                m.push((other.to_string(), Esc::Plain, Json::Null));
            }
            shuffled(m)
        })
        .boxed()
}

/// A line whose JSON is not an object: a batch, a scalar.
pub fn not_object(config: &Config) -> BoxedStrategy<Json> {
    prop_oneof![
        proptest::collection::vec(request(config), 0..3).prop_map(Json::Arr),
        any_json().prop_filter("not an object", |j| !matches!(j, Json::Obj(_))),
    ]
    .boxed()
}

/// A request with a member nested near, at or past the depth limit, at a
/// random object of the tree.
pub fn deep(config: &Config) -> BoxedStrategy<Json> {
    (
        request(config),
        any::<Index>(),
        prop_oneof![1usize..20, 110usize..140],
        any::<bool>(),
    )
        .prop_map(|(mut tree, at, depth, arrays)| {
            let mut nested = Json::Null;
            for _ in 0..depth {
                nested = if arrays {
                    Json::Arr(vec![nested])
                } else {
                    Json::obj([("a", nested)])
                };
            }
            let objects = tree.count_objects();
            if objects == 0 {
                return tree;
            }
            tree.with_nth_object(at.index(objects), &mut |obj| {
                if let Json::Obj(m) = obj {
                    m.push(("deep".to_string(), Esc::Plain, nested.clone()));
                }
            });
            tree
        })
        .boxed()
}

/// One structural mutation of a tree.
#[derive(Debug, Clone)]
enum TreeMutation {
    /// Replace a value (never the top) with a random one.
    Replace(Index, Json),
    /// Remove a member of an object.
    Remove(Index, Index),
    /// Duplicate a member of an object, with the same or another value.
    Duplicate(Index, Index, Option<Json>, Index),
    /// Write a member name or string in another escape style.
    Restyle(Index, Esc),
    /// Put a lone surrogate string somewhere.
    LoneSurrogate(Index),
}

impl TreeMutation {
    fn apply(&self, tree: &mut Json) {
        match self {
            TreeMutation::Replace(at, value) => {
                let n = tree.count();
                if n > 1 {
                    let k = 1 + at.index(n - 1);
                    tree.with_nth(k, &mut |j| *j = value.clone());
                }
            }
            TreeMutation::Remove(_, _) | TreeMutation::Duplicate(..)
                if tree.count_objects() == 0 => {}
            TreeMutation::Remove(at, which) => {
                let n = at.index(tree.count_objects());
                tree.with_nth_object(n, &mut |obj| {
                    if let Json::Obj(m) = obj
                        && !m.is_empty()
                    {
                        m.remove(which.index(m.len()));
                    }
                });
            }
            TreeMutation::Duplicate(at, which, value, to) => {
                let n = at.index(tree.count_objects());
                tree.with_nth_object(n, &mut |obj| {
                    if let Json::Obj(m) = obj
                        && !m.is_empty()
                        && let Some(mut copy) = m.get(which.index(m.len())).cloned()
                    {
                        if let Some(v) = value {
                            copy.2 = v.clone();
                        }
                        let pos = to.index(m.len() + 1);
                        m.insert(pos, copy);
                    }
                });
            }
            TreeMutation::Restyle(at, esc) => {
                let n = tree.count();
                tree.with_nth(at.index(n), &mut |j| match j {
                    Json::Str(_, e) => *e = *esc,
                    Json::Obj(m) => {
                        for (_, e, _) in m.iter_mut() {
                            *e = *esc;
                        }
                    }
                    _ => {}
                });
            }
            TreeMutation::LoneSurrogate(at) => {
                let n = tree.count();
                if n > 1 {
                    let k = 1 + at.index(n - 1);
                    tree.with_nth(k, &mut |j| *j = Json::LoneSurrogate);
                }
            }
        }
    }
}

fn tree_mutation() -> BoxedStrategy<TreeMutation> {
    prop_oneof![
        4 => (any::<Index>(), any_json()).prop_map(|(a, v)| TreeMutation::Replace(a, v)),
        3 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| TreeMutation::Remove(a, b)),
        4 => (any::<Index>(), any::<Index>(), proptest::option::of(any_json()), any::<Index>())
            .prop_map(|(a, b, v, c)| TreeMutation::Duplicate(a, b, v, c)),
        2 => (any::<Index>(), esc()).prop_map(|(a, e)| TreeMutation::Restyle(a, e)),
        1 => any::<Index>().prop_map(TreeMutation::LoneSurrogate),
    ]
    .boxed()
}

/// A request with one to three structural mutations: values replaced by
/// values of other types, members removed, members duplicated at any depth,
/// names re-escaped, lone surrogates.
pub fn mutated_tree(config: &Config) -> BoxedStrategy<Json> {
    (
        request(config),
        proptest::collection::vec(tree_mutation(), 1..4),
    )
        .prop_map(|(mut tree, mutations)| {
            for m in &mutations {
                m.apply(&mut tree);
            }
            tree
        })
        .boxed()
}

/// Byte sequences that are not UTF-8 wherever they start.
const NOT_UTF8: &[&[u8]] = &[
    b"\xff",
    b"\xc0\x80",
    b"\xed\xa0\x80",
    b"\x80",
    b"\xe2\x82",
    b"\xf5\x80\x80\x80",
    b"\xc3",
];

/// A request line changed at the byte level.
fn byte_mutation(config: &Config) -> BoxedStrategy<Case> {
    let c = config.clone();
    (
        request(config),
        0..8u8,
        any::<Index>(),
        "[ \t]{0,3}",
        "[ \t]{0,3}",
        select(NOT_UTF8.to_vec()),
        "[^\n]{1,8}",
        proptest::collection::vec(any::<u8>().prop_filter("no newline", |b| *b != b'\n'), 1..8),
    )
        .prop_map(move |(tree, how, at, lead, trail, bad, junk, junk_bytes)| {
            let base_line = tree.render();
            let base = expect(&c, &tree);
            let (line, expect, label) = match how {
                0 => {
                    // Cut: a proper prefix of an object or array is never JSON.
                    let cut = at.index(base_line.len());
                    let line = base_line.get(..cut).unwrap_or_default().to_vec();
                    (line, Expect::parse_error(), "truncated")
                }
                1 => {
                    // Junk before the value: no JSON value starts with these.
                    let mut line = format!("{lead}#{junk}").into_bytes();
                    line.extend_from_slice(&base_line);
                    (line, Expect::parse_error(), "junk before")
                }
                2 => {
                    // Junk after the value: trailing characters.
                    let mut line = base_line.clone();
                    line.extend_from_slice(format!("{trail}x{junk}").as_bytes());
                    (line, Expect::parse_error(), "junk after")
                }
                3 => {
                    // Bytes that are not UTF-8, at a character boundary.
                    let text = String::from_utf8_lossy(&base_line).into_owned();
                    let bounds: Vec<usize> = text
                        .char_indices()
                        .map(|(i, _)| i)
                        .chain([text.len()])
                        .collect();
                    let pos = bounds.get(at.index(bounds.len())).copied().unwrap_or(0);
                    let line = insert_at(&base_line, pos, bad);
                    (line, Expect::parse_error(), "invalid UTF-8")
                }
                4 => {
                    // CRLF: the `\r` is stripped.
                    let mut line = base_line.clone();
                    line.push(b'\r');
                    (line, base, "CRLF")
                }
                5 => {
                    // JSON whitespace around the value changes nothing.
                    let mut line = lead.clone().into_bytes();
                    line.extend_from_slice(&base_line);
                    line.extend_from_slice(trail.as_bytes());
                    line.push(b'\r');
                    (line, base, "padded")
                }
                6 => {
                    // Random bytes spliced in: anything may happen.
                    let pos = at.index(base_line.len() + 1);
                    let line = insert_at(&base_line, pos, &junk_bytes);
                    let expect = if line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
                        Expect::silent(Silence::Blank)
                    } else {
                        Expect {
                            outcome: Outcome::Unknown,
                            id: None,
                            method: None,
                        }
                    };
                    (line, expect, "random splice")
                }
                _ => {
                    // Two requests on one line: trailing characters.
                    let mut line = base_line.clone();
                    line.extend_from_slice(&base_line);
                    (line, Expect::parse_error(), "two values")
                }
            };
            let expect = if line.is_empty() {
                Expect::silent(Silence::Blank)
            } else {
                frame(&c, &line, expect)
            };
            Case {
                line,
                expect,
                label,
            }
        })
        .boxed()
}

/// `bytes` inserted into `line` at `pos`.
fn insert_at(line: &[u8], pos: usize, bytes: &[u8]) -> Vec<u8> {
    let (head, tail) = line.split_at(pos.min(line.len()));
    [head, bytes, tail].concat()
}

/// Blank and whitespace-only lines.
fn blank() -> BoxedStrategy<Case> {
    "[ \t]{0,6}\r?"
        .prop_map(|s| Case {
            line: s.into_bytes(),
            expect: Expect::silent(Silence::Blank),
            label: "blank",
        })
        .boxed()
}

/// Lines around the limit: a request padded to exactly the limit (served),
/// or past it (`-32600`, id null). Skipped (a plain request instead) when
/// the limit is too large to fill cheaply.
fn oversized(config: &Config) -> BoxedStrategy<Case> {
    let c = config.clone();
    let limit = config.max_line_bytes();
    if limit > 64 * 1024 {
        let c2 = c.clone();
        return request(config)
            .prop_map(move |t| Case::from_tree(&c2, &t, "request"))
            .boxed();
    }
    (request(config), 0..3u8, 1usize..200)
        .prop_map(move |(tree, how, extra)| {
            let base_line = tree.render();
            let mut line = base_line.clone();
            let (label, expect) = match how {
                0 => {
                    // Exactly the limit: still served.
                    let pad = limit.saturating_sub(base_line.len());
                    line = insert_at(&base_line, 0, &vec![b' '; pad]);
                    ("at the limit", frame(&c, &line, expect(&c, &tree)))
                }
                1 => {
                    let pad = (limit + extra).saturating_sub(base_line.len());
                    line.extend(std::iter::repeat_n(b' ', pad));
                    ("over the limit", frame(&c, &line, expect(&c, &tree)))
                }
                _ => {
                    line = vec![b'x'; limit + extra];
                    ("over the limit, not JSON", Expect::oversized())
                }
            };
            Case {
                line,
                expect,
                label,
            }
        })
        .boxed()
}

/// Random bytes (no newline): the generator says nothing of the reply.
fn random_bytes() -> BoxedStrategy<Case> {
    proptest::collection::vec(
        any::<u8>().prop_filter("no newline", |b| *b != b'\n'),
        0..64,
    )
    .prop_map(|line| {
        let blank = line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'));
        Case {
            expect: if blank {
                Expect::silent(Silence::Blank)
            } else {
                Expect {
                    outcome: Outcome::Unknown,
                    id: None,
                    method: None,
                }
            },
            line,
            label: "random bytes",
        }
    })
    .boxed()
}

/// Random `arguments` objects (no duplicate names), for checking a tool's
/// argument check against its advertised `inputSchema`.
pub fn arguments() -> BoxedStrategy<Value> {
    let value = prop_oneof![
        3 => "[A-Za-z0-9-]{0,8}".prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        1 => any::<bool>().prop_map(Value::from),
        1 => Just(Value::Null),
        1 => Just(json!([])),
        1 => Just(json!(["A-104"])),
        1 => Just(json!({"order_id": "A-104"})),
    ];
    let name = prop_oneof![
        4 => Just("order_id".to_string()),
        4 => Just("product_id".to_string()),
        1 => select(vec!["ORDER_ID", "orderId", "", "extra", "product_id "]).prop_map(String::from),
        1 => "[a-z_]{1,8}",
    ];
    proptest::collection::btree_map(name, value, 0..4)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
        .boxed()
}

// ---------------------------------------------------------------------------
// Configurations

/// A user name: the textbook's, names that collide with order values,
/// unicode, quotes, or random text.
fn user() -> BoxedStrategy<String> {
    prop_oneof![
        3 => select(vec!["mira", "tomas", "ana"]).prop_map(String::from),
        1 => select(vec!["administrator", "processing", "A-104", "o'brien", "Zoë", "user \"q\"", "back\\slash", "book-orders"])
            .prop_map(String::from),
        1 => "[a-z]{1,8}",
        1 => "\\PC{1,6}",
    ]
    .boxed()
}

/// A value of an order field: plausible, colliding, or odd.
fn order_value() -> BoxedStrategy<String> {
    prop_oneof![
        3 => select(vec!["processing", "shipped", "delivered", "cancelled", "on hold", "ka3-orders-v1", "ka3-orders-v2"])
            .prop_map(String::from),
        2 => "[a-z]{3,10}-[0-9a-f]{6}",
        1 => text(),
        1 => select(vec!["mira", "tomas", "get_order", "isError", "true", "\"", "{", "Invalid"]).prop_map(String::from),
    ]
    .boxed()
}

/// An RFC 3339 date-time that is a real calendar instant.
fn as_of() -> BoxedStrategy<String> {
    (
        1970u32..2100,
        1u32..=12,
        0u32..31,
        0u32..24,
        0u32..60,
        0u32..60,
        proptest::option::of("[0-9]{1,6}"),
        prop_oneof![
            3 => Just("Z".to_string()),
            1 => Just("z".to_string()),
            1 => ("[+-]", 0u32..24, 0u32..60).prop_map(|(s, h, m)| format!("{s}{h:02}:{m:02}")),
        ],
        any::<bool>(),
    )
        .prop_map(|(y, mo, d, h, mi, s, frac, zone, lower_t)| {
            let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
            let days = match mo {
                2 if leap => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            let day = 1 + d % days;
            let t = if lower_t { 't' } else { 'T' };
            let frac = frac.map(|f| format!(".{f}")).unwrap_or_default();
            format!("{y:04}-{mo:02}-{day:02}{t}{h:02}:{mi:02}:{s:02}{frac}{zone}")
        })
        .boxed()
}

/// Whose an order is: the user's, or someone else's.
#[derive(Debug, Clone)]
enum Owner {
    User,
    Other(String),
}

/// A random valid configuration: a user; 0 to 6 orders with random ids,
/// owners (about half the user's), values and times; no stock table or one
/// of 0 to 4 products; random cache hints; mostly the default line limit,
/// sometimes a small one. The legacy path stays off.
pub fn config() -> BoxedStrategy<Config> {
    let order_ids = proptest::collection::btree_set(
        prop_oneof![
            3 => "[A-Z]-[0-9]{3}",
            1 => select(vec!["A-104", "B-205"]).prop_map(String::from),
            1 => text().prop_filter("non-empty", |s| !s.is_empty()),
        ],
        0..6,
    );
    let owner = prop_oneof![
        1 => Just(Owner::User),
        1 => user().prop_map(Owner::Other),
    ];
    let body = (owner, order_value(), as_of(), order_value());
    let orders = order_ids.prop_flat_map(move |ids| {
        let n = ids.len();
        (Just(ids), proptest::collection::vec(body.clone(), n..=n))
    });
    let stock = proptest::option::weighted(
        0.5,
        proptest::collection::btree_map(
            prop_oneof![
                2 => select(vec!["python-book", "rust-book", "A-104"]).prop_map(String::from),
                1 => "[a-z-]{1,12}",
                1 => text().prop_filter("non-empty", |s| !s.is_empty()),
            ],
            prop_oneof![3 => 0u64..10, 1 => any::<u64>()],
            0..4,
        ),
    );
    let hint = (
        prop_oneof![3 => select(vec![0u64, 300_000, 3_600_000]), 1 => any::<u64>()],
        prop_oneof![Just("public"), Just("private")],
    )
        .prop_map(|(ttl, scope)| json!({ "ttl_ms": ttl, "scope": scope }));
    let identity = prop_oneof![
        3 => Just(None),
        1 => ("[a-z-]{1,10}", "[0-9]\\.[0-9]\\.[0-9]", proptest::option::of(text()))
            .prop_map(|(n, v, i)| Some(json!({ "name": n, "version": v, "instructions": i }))),
    ];
    let max_line = prop_oneof![
        3 => Just(None),
        1 => (1024usize..8192).prop_map(Some),
    ];
    (
        user(),
        orders,
        stock,
        hint.clone(),
        hint,
        identity,
        max_line,
    )
        .prop_filter_map(
            "a valid configuration",
            |(user, (ids, bodies), stock, discover, tools, identity, max_line)| {
                let orders: Vec<Value> = ids
                    .into_iter()
                    .zip(bodies)
                    .map(|(id, (owner, status, as_of, source))| {
                        let owner = match owner {
                            Owner::User => user.clone(),
                            Owner::Other(o) => o,
                        };
                        json!({
                            "order_id": id, "owner": owner, "status": status,
                            "as_of": as_of, "source_version": source
                        })
                    })
                    .collect();
                let mut file = json!({
                    "user": user,
                    "orders": orders,
                    "discover_cache": discover,
                    "tools_cache": tools,
                });
                if let Some(stock) = stock {
                    file["stock"] = stock
                        .into_iter()
                        .map(|(p, s)| json!({ "product_id": p, "stock": s }))
                        .collect();
                }
                if let Some(identity) = identity {
                    file["server"] = identity;
                }
                if let Some(max) = max_line {
                    file["max_line_bytes"] = json!(max);
                }
                Config::from_json(file.to_string().as_bytes()).ok()
            },
        )
        .boxed()
}

/// The configuration file (JSON) that [`Config::from_json`] reads back as
/// `config`, member for member.
pub fn config_json(config: &Config) -> Value {
    let identity = config.identity();
    let mut server = json!({ "name": identity.name, "version": identity.version });
    if let Some(i) = &identity.instructions {
        server["instructions"] = json!(i);
    }
    let hint =
        |h: crate::config::CacheHint| json!({ "ttl_ms": h.ttl_ms, "scope": h.scope.as_str() });
    let mut file = json!({
        "user": config.user(),
        "server": server,
        "orders": config.orders().iter().map(|o| json!({
            "order_id": o.order_id, "owner": o.owner, "status": o.status,
            "as_of": o.as_of, "source_version": o.source_version,
        })).collect::<Vec<_>>(),
        "protocol_versions": config.versions(),
        "legacy_versions": config.legacy_versions(),
        "discover_cache": hint(config.discover_cache()),
        "tools_cache": hint(config.tools_cache()),
        "max_line_bytes": config.max_line_bytes(),
    });
    if let Some(stock) = config.stock() {
        file["stock"] = stock
            .iter()
            .map(|s| json!({ "product_id": s.product_id, "stock": s.stock }))
            .collect();
    }
    file
}

/// The orders of `config` its user may not read, by id.
pub fn forbidden_orders(config: &Config) -> BTreeMap<String, crate::config::Order> {
    config
        .orders()
        .iter()
        .filter(|o| o.owner != config.user())
        .map(|o| (o.order_id.clone(), o.clone()))
        .collect()
}
