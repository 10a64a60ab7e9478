//! The one reply reader of the test kit, and the comparison of a reply
//! with the model's [`Expect`].
//!
//! [`read_reply`] turns a reply (the bytes a server wrote for one line,
//! newline included) into a [`ReplyLine`] once: the framing checked (one
//! line, UTF-8, no carriage return), the canonical form checked (row W1,
//! [`super::canonical`]), the envelope checked (a JSON object
//! with `jsonrpc: "2.0"`, an `id`, exactly one of `result` and `error`,
//! nothing else), the raw text of the id kept byte for byte, and the rest
//! as `serde_json::Value`s. [`Expect::check`] then compares content as
//! JSON values (never member order, which byte tests pin elsewhere).
//!
//! Rows: every reply rule of `docs/behavior.md`; the reply shapes of D1,
//! D2, T4 to T9, L1, L7 to L11, and E10 (the id compared as raw text).

use std::cell::OnceCell;

use serde_json::{Map, Value, json};

use super::canonical;
use super::core::supported_versions;
use super::expect::{Body, Era, Expect, GET_ORDER, LOOKUP_STOCK, Reply};
use super::parse::{Parsed, parse};
use super::tree::{Json, is_integer_literal};
use mcp_reference::Config;

/// A reply, read once.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplyLine {
    /// The raw JSON text of the reply's `id`.
    pub id: String,
    /// The whole reply as a value (an id serde_json cannot hold becomes a
    /// string of its digits).
    pub value: Value,
}

impl ReplyLine {
    /// `result`, for a result.
    pub fn result(&self) -> Option<&Value> {
        self.value.get("result")
    }

    /// `error`, for an error.
    pub fn error(&self) -> Option<&Value> {
        self.value.get("error")
    }

    /// `error.code`.
    pub fn code(&self) -> Option<i64> {
        self.error()?.get("code")?.as_i64()
    }
}

fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim_end().to_string()
}

/// A reply read by [`read_reply_tree`]: everything [`read_reply`] checks,
/// checked, and the reply kept as the one tree (no `serde_json::Value`,
/// which [`ReplyTree::line`] builds when a caller needs one).
#[derive(Debug, Clone, PartialEq)]
pub struct ReplyTree {
    /// The raw JSON text of the reply's `id`.
    pub id: String,
    /// The whole reply: an object with `jsonrpc`, `id` and one of `result`
    /// and `error`, no member twice.
    pub tree: Json,
    /// `result` as a value, made once when first asked for.
    result_value: OnceCell<Option<Value>>,
}

impl ReplyTree {
    /// `result`, for a result.
    pub fn result(&self) -> Option<&Json> {
        self.tree.get("result")
    }

    /// `result` as a `serde_json::Value`, for a result (made once).
    pub fn result_value(&self) -> Option<&Value> {
        self.result_value
            .get_or_init(|| self.result().map(Json::to_value))
            .as_ref()
    }

    /// `error`, for an error.
    pub fn error(&self) -> Option<&Json> {
        self.tree.get("error")
    }

    /// The same reply as [`read_reply`] gives it.
    pub fn line(&self) -> ReplyLine {
        ReplyLine {
            id: self.id.clone(),
            value: self.tree.to_value(),
        }
    }
}

/// The names of the tools `tools/list` lists for `config` in `era`
/// (row D2), sorted: `get_order`, `lookup_stock` where the configuration
/// has a stock table, the content tools (T10) and, modern only, the input
/// tools (I2: the legacy path neither lists nor calls them).
pub fn tool_names(config: &Config, era: Era) -> Vec<&str> {
    let mut names = vec![GET_ORDER];
    if config.stock().is_some() {
        names.push(LOOKUP_STOCK);
    }
    let content = &config.catalog().content_tools;
    names.extend(content.iter().map(|t| t.name.as_str()));
    let inputs = config
        .input()
        .filter(|_| era == Era::Modern)
        .map(|i| i.tools.as_slice())
        .unwrap_or_default();
    names.extend(inputs.iter().map(|t| t.name.as_str()));
    names.sort_unstable();
    names
}

/// Reads one reply (ending with its newline): framing and envelope checked,
/// `Err` saying what is wrong.
pub fn read_reply(reply: &[u8]) -> Result<ReplyLine, String> {
    read_reply_tree(reply).map(|read| read.line())
}

/// [`read_reply`], the reply kept as the tree it was read into.
pub fn read_reply_tree(reply: &[u8]) -> Result<ReplyTree, String> {
    let Some(body) = reply.strip_suffix(b"\n") else {
        return Err(format!(
            "the reply does not end with a newline: {}",
            show(reply)
        ));
    };
    if body.contains(&b'\n') {
        return Err(format!("the reply is more than one line: {}", show(reply)));
    }
    if body.contains(&b'\r') {
        return Err(format!("the reply has a carriage return: {}", show(reply)));
    }
    if std::str::from_utf8(body).is_err() {
        return Err("the reply is not UTF-8".into());
    }
    let parsed =
        parse(body).map_err(|e| format!("the reply is not JSON ({e:?}): {}", show(reply)))?;
    let Json::Obj(_) = &parsed.tree else {
        return Err(format!("the reply is not an object: {}", show(reply)));
    };
    canonical::check(&parsed.tree, body, parsed.ids.first().map(String::as_str))
        .map_err(|e| format!("{e}: {}", show(reply)))?;
    if parsed.tree.has_duplicate() {
        return Err(format!("the reply names a member twice: {}", show(reply)));
    }
    let Parsed { tree, ids } = parsed;
    let Ok::<[String; 1], _>([id]) = ids.try_into() else {
        return Err(format!("the reply has no id: {}", show(reply)));
    };
    if tree.get("jsonrpc").and_then(Json::as_str) != Some("2.0") {
        return Err(format!("the reply needs jsonrpc \"2.0\": {}", show(reply)));
    }
    if tree.get("result").is_some() == tree.get("error").is_some() {
        return Err(format!(
            "the reply needs exactly one of result and error: {}",
            show(reply)
        ));
    }
    if tree.names().count() != 3 {
        return Err(format!(
            "the reply has members beyond jsonrpc, id, result|error: {}",
            show(reply)
        ));
    }
    if id != "null" && !id.starts_with('"') && !is_integer_literal(&id) {
        return Err(format!(
            "the reply's id is not null, a string or an integer: {id}"
        ));
    }
    Ok(ReplyTree {
        id,
        tree,
        result_value: OnceCell::new(),
    })
}

/// Whether a number literal is the integer `n` (as serde_json compares
/// numbers: `-32700.0` is not `-32700`).
pub fn is_int(literal: &str, n: i64) -> bool {
    serde_json::from_str::<serde_json::Number>(literal)
        .is_ok_and(|l| l == serde_json::Number::from(n))
}

impl Expect {
    /// Checks a reply (empty: none) against the expectation. `Err` says
    /// what differs, naming the deciding row.
    pub fn check(&self, config: &Config, reply: &[u8]) -> Result<(), String> {
        self.check_reply(config, reply).map(|_| ())
    }

    /// [`Expect::check`], giving back the reply as [`read_reply_tree`]
    /// read it (`None`: no reply), so that a caller with more checks to
    /// make reads it only once.
    pub fn check_reply(&self, config: &Config, reply: &[u8]) -> Result<Option<ReplyTree>, String> {
        let reply = self
            .strip_notices(reply)
            .map_err(|e| format!("row {}: {e}: {}", self.row, show(reply)))?;
        let read = match (self.replies(), reply.is_empty()) {
            (None, true) => return Ok(None),
            (Some(false), true) => return Ok(None),
            (Some(true), true) => {
                return Err(format!("row {}: expected a reply, got none", self.row));
            }
            (Some(false), false) => {
                return Err(format!(
                    "row {}: expected no reply, got {}",
                    self.row,
                    show(reply)
                ));
            }
            (_, false) => read_reply_tree(reply)?,
        };
        self.check_tree(config, &read)
            .map_err(|e| format!("row {}: {e}: {}", self.row, show(reply)))?;
        Ok(Some(read))
    }

    /// The reply after the notifications the request asked for (T12,
    /// T13): exactly [`Expect::notices`], one line each, in order, each in
    /// `schema.ts` member order (W1). Any other line before the response
    /// is left in place, where it fails as a second line.
    fn strip_notices<'r>(&self, mut reply: &'r [u8]) -> Result<&'r [u8], String> {
        for want in &self.notices {
            let Some(end) = reply.iter().position(|&b| b == b'\n') else {
                return Err(format!(
                    "expected the notification {want} before the response"
                ));
            };
            let (line, rest) = reply.split_at(end);
            let got: Value = serde_json::from_slice(line).map_err(|_| {
                format!("expected the notification {want}, got a line that is not JSON")
            })?;
            if got != serde_json::from_str::<Value>(want).unwrap_or_default() {
                return Err(format!("expected the notification {want}, got {got}"));
            }
            notice_order(line)?;
            reply = rest.get(1..).unwrap_or_default();
        }
        Ok(reply)
    }

    /// [`Expect::check`] for a reply read as a tree: an error is
    /// compared on the tree, a result as the `serde_json::Value` of its
    /// `result` (so the comparison is the same).
    pub fn check_tree(&self, config: &Config, read: &ReplyTree) -> Result<(), String> {
        match &self.reply {
            Reply::Error {
                id,
                code,
                message,
                data,
            } => {
                let want = id.as_deref().unwrap_or("null");
                if read.id != want {
                    return Err(format!("id {}, expected {want}", read.id));
                }
                let members = match read.error() {
                    Some(Json::Obj(members)) => members.as_slice(),
                    _ => &[],
                };
                let same = members.len() == 2 + usize::from(data.is_some())
                    && members.iter().all(|(name, _, value)| match name.as_str() {
                        "code" => matches!(value, Json::Num(n) if is_int(n, *code)),
                        "message" => value.as_str() == Some(message.as_str()),
                        "data" => data.as_ref().is_some_and(|d| value.to_value() == *d),
                        _ => false,
                    });
                if same {
                    Ok(())
                } else {
                    let want_error = match data {
                        None => json!({ "code": code, "message": message }),
                        Some(d) => json!({ "code": code, "message": message, "data": d }),
                    };
                    Err(format!("expected error {want_error}"))
                }
            }
            Reply::Result { id, era, body } => {
                if read.id != *id {
                    return Err(format!("id {}, expected {id}", read.id));
                }
                let result = read
                    .result_value()
                    .and_then(Value::as_object)
                    .ok_or("expected a result object")?;
                check_result(config, *era, body, result)
            }
            Reply::Input { id, request, .. } => {
                if read.id != *id {
                    return Err(format!("id {}, expected {id}", read.id));
                }
                // The input model reads the request with id 0.
                let mut value = read.tree.to_value();
                if let Some(slot) = value.get_mut("id") {
                    *slot = json!(0);
                }
                super::input::check(config, request, 0, &value).map(|_| ())
            }
            Reply::Silence => Err("expected no reply".into()),
            Reply::Unknown => Ok(()),
        }
    }
}

/// The members a result of `era` carries besides its own, and their values.
fn era_members(config: &Config, era: Era) -> Map<String, Value> {
    let mut m = Map::new();
    if era == Era::Modern {
        let identity = config.identity();
        m.insert("resultType".into(), json!("complete"));
        m.insert(
            "_meta".into(),
            json!({ "io.modelcontextprotocol/serverInfo":
                { "name": identity.name, "version": identity.version } }),
        );
    }
    m
}

fn hint(m: &mut Map<String, Value>, h: mcp_reference::CacheHint) {
    m.insert("ttlMs".into(), json!(h.ttl_ms));
    m.insert("cacheScope".into(), json!(h.scope.as_str()));
}

fn check_result(
    config: &Config,
    era: Era,
    body: &Body,
    result: &Map<String, Value>,
) -> Result<(), String> {
    let mut want = era_members(config, era);
    let identity = config.identity();
    let exact = |want: Map<String, Value>| {
        if *result == want {
            Ok(())
        } else {
            Err(format!("expected the result {}", Value::Object(want)))
        }
    };
    match body {
        Body::Discover => {
            want.insert("supportedVersions".into(), json!(config.versions()));
            want.insert("capabilities".into(), super::catalog::capabilities(config));
            if let Some(i) = &identity.instructions {
                want.insert("instructions".into(), json!(i));
            }
            hint(&mut want, config.discover_cache());
            exact(want)
        }
        Body::Initialize(version) => {
            want.insert("protocolVersion".into(), json!(version));
            want.insert("capabilities".into(), json!({ "tools": {} }));
            want.insert(
                "serverInfo".into(),
                json!({ "name": identity.name, "version": identity.version }),
            );
            if let Some(i) = &identity.instructions {
                want.insert("instructions".into(), json!(i));
            }
            exact(want)
        }
        Body::Empty => exact(want),
        Body::ToolsList => {
            let tools = result.get("tools").cloned().unwrap_or_default();
            let names: Vec<&str> = tools
                .as_array()
                .map(|t| t.iter().filter_map(|t| t.get("name")?.as_str()).collect())
                .unwrap_or_default();
            let expected = tool_names(config, era);
            let content = &config.catalog().content_tools;
            let inputs = config
                .input()
                .filter(|_| era == Era::Modern)
                .map(|i| i.tools.as_slice())
                .unwrap_or_default();
            for tool in tools.as_array().into_iter().flatten() {
                let name = tool.get("name").and_then(Value::as_str);
                if let Some(t) = inputs.iter().find(|t| Some(t.name.as_str()) == name)
                    && *tool != super::input::tool_entry(t)
                {
                    return Err(format!(
                        "input tool {}: expected {}",
                        t.name,
                        super::input::tool_entry(t)
                    ));
                }
            }
            for tool in tools.as_array().into_iter().flatten() {
                let name = tool.get("name").and_then(Value::as_str);
                if let Some(t) = content.iter().find(|t| Some(t.name.as_str()) == name) {
                    // T14: a configured inputSchema, as configured.
                    let schema = match &t.input_schema {
                        Some(s) => serde_json::from_str(s.text()).unwrap_or_default(),
                        None => json!({"type": "object", "additionalProperties": false}),
                    };
                    if tool.get("inputSchema") != Some(&schema)
                        || tool.get("description") != Some(&json!(t.description))
                        || tool.get("title") != t.title.as_ref().map(|x| json!(x)).as_ref()
                    {
                        return Err(format!(
                            "content tool {}: expected its configured title and description and the inputSchema {schema}",
                            t.name
                        ));
                    }
                }
            }
            if names != expected {
                return Err(format!("tools {names:?}, expected {expected:?}"));
            }
            let schemas = tools.as_array().is_some_and(|t| {
                t.iter()
                    .all(|t| t.get("inputSchema").is_some_and(Value::is_object))
            });
            if !schemas {
                return Err("every tool needs an inputSchema object".into());
            }
            // H14: a property carries `x-mcp-header` exactly when the
            // configuration mirrors it, with the configured name.
            for tool in tools.as_array().into_iter().flatten() {
                let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
                let properties = tool
                    .pointer("/inputSchema/properties")
                    .and_then(Value::as_object);
                for (param, schema) in properties.into_iter().flatten() {
                    let got = schema.get("x-mcp-header").and_then(Value::as_str);
                    let want = config.param_header(name, param);
                    if got != want {
                        return Err(format!(
                            "{name}.{param}: x-mcp-header {got:?}, expected {want:?}"
                        ));
                    }
                }
            }
            want.insert("tools".into(), tools);
            if era == Era::Modern {
                hint(&mut want, config.tools_cache());
            }
            exact(want)
        }
        Body::Order(order_id) => {
            let order = config
                .orders()
                .iter()
                .find(|o| &o.order_id == order_id)
                .ok_or("the model named an order the configuration lacks")?;
            let snapshot = json!({
                "order_id": order.order_id, "status": order.status,
                "as_of": order.as_of, "source_version": order.source_version,
            });
            structured(want, result, snapshot)
        }
        Body::Stock(product_id) => {
            let item = config
                .stock()
                .unwrap_or_default()
                .iter()
                .find(|s| &s.product_id == product_id)
                .ok_or("the model named a product the configuration lacks")?;
            structured(
                want,
                result,
                json!({ "product_id": item.product_id, "stock": item.stock }),
            )
        }
        Body::NotVisible => tool_error(want, result, ""),
        Body::UnknownProduct => tool_error(
            want,
            result,
            "No product with that id is in the stock table.",
        ),
        Body::InvalidArguments(tool) => {
            tool_error(want, result, &format!("Invalid arguments for {tool}"))
        }
        Body::NoArguments(_) => tool_error(want, result, "invalid arguments: "),
        Body::Content(name) => {
            let tool = config
                .catalog()
                .content_tools
                .iter()
                .find(|t| &t.name == name)
                .ok_or("the model named a content tool the configuration lacks")?;
            want.insert("content".into(), json!(tool.content));
            want.insert("isError".into(), json!(tool.is_error));
            exact(want)
        }
        catalog => super::catalog::check_result(config, catalog, want, result)
            .unwrap_or_else(|| Err("the model named a resource the configuration lacks".into())),
    }
}

/// The text of a result's `content` when it is exactly one text block.
fn one_text_block(result: &Map<String, Value>) -> Result<&str, String> {
    result
        .get("content")
        .and_then(|c| c.as_array())
        .and_then(|blocks| match blocks.as_slice() {
            [block] if block.get("type") == Some(&json!("text")) => block.get("text"),
            _ => None,
        })
        .and_then(Value::as_str)
        .ok_or_else(|| "expected one text block".to_string())
}

/// A successful tool result: `structuredContent` is `content`, and one
/// text block holds the same JSON (T4, T8).
fn structured(
    mut want: Map<String, Value>,
    result: &Map<String, Value>,
    content: Value,
) -> Result<(), String> {
    let text = one_text_block(result)?;
    let parsed: Value =
        serde_json::from_str(text).map_err(|e| format!("the text block is not JSON ({e})"))?;
    if parsed != content {
        return Err(format!(
            "the text block is not the structured content {content}"
        ));
    }
    want.insert("content".into(), json!([{ "type": "text", "text": text }]));
    want.insert("structuredContent".into(), content);
    want.insert("isError".into(), json!(false));
    if *result == want {
        Ok(())
    } else {
        Err(format!("expected the result {}", Value::Object(want)))
    }
}

/// An `isError` tool result: one text block, starting with `prefix` (the
/// part of the text `docs/behavior.md` states), no `structuredContent`
/// (T5, T6, T8, T9).
fn tool_error(
    mut want: Map<String, Value>,
    result: &Map<String, Value>,
    prefix: &str,
) -> Result<(), String> {
    let text = one_text_block(result)?;
    if !text.starts_with(prefix) || text.is_empty() {
        return Err(format!("the text should start with {prefix:?}"));
    }
    want.insert("content".into(), json!([{ "type": "text", "text": text }]));
    want.insert("isError".into(), json!(true));
    if *result == want {
        Ok(())
    } else {
        Err(format!("expected the result {}", Value::Object(want)))
    }
}

/// The versions a `-32022` lists, for callers that check only that.
pub fn supported_list(config: &Config) -> Value {
    json!(supported_versions(config))
}

/// Row W1 for a notification line: `jsonrpc, method, params`, and its
/// params in `schema.ts` order (`progressToken, progress, total` or
/// `level, logger, data`).
fn notice_order(line: &[u8]) -> Result<(), String> {
    let parsed = parse(line).map_err(|e| format!("a notification is not JSON ({e:?})"))?;
    let keys = |j: &Json| -> Vec<String> {
        match j {
            Json::Obj(m) => m.iter().map(|(k, _, _)| k.clone()).collect(),
            _ => Vec::new(),
        }
    };
    let top = keys(&parsed.tree);
    let params = parsed.tree.get("params").map(keys).unwrap_or_default();
    let order: &[&str] = if params.first().map(String::as_str) == Some("level") {
        &["level", "logger", "data"]
    } else {
        &["progressToken", "progress", "total", "message"]
    };
    let in_order = |got: &[String], want: &[&str]| {
        let mut at = 0;
        got.iter().all(
            |k| match want.get(at..).and_then(|w| w.iter().position(|x| x == k)) {
                Some(i) => {
                    at += i + 1;
                    true
                }
                None => false,
            },
        )
    };
    if top != ["jsonrpc", "method", "params"] || !in_order(&params, order) {
        return Err(format!(
            "row W1: a notification's members are out of order: {top:?} {params:?}"
        ));
    }
    Ok(())
}
