//! The tool catalog: which tools this server offers, how a tool checks its
//! arguments against its `inputSchema`, and how a checked call is run.
//!
//! The catalog at a glance:
//!
//! | tool | offered | module |
//! | --- | --- | --- |
//! | `get_order(order_id)` | always | [`get_order`] |
//! | `lookup_stock(product_id)` | when the configuration has a stock table | [`lookup_stock`] |
//! | each of `content_tools` (no arguments) | when configured | [`content`] |
//!
//! Every reply a tool can give depends only on the configuration, never on
//! the request beyond its arguments, so each tool renders all of its result
//! bodies once, when the catalog is built; a call only picks one.
//!
//! Each body is rendered twice, once per [`Era`]: the 2026-07-28 shape
//! (`resultType` and serverInfo `_meta`) and the legacy shape of 2025-11-25
//! and 2025-06-18 (the same members without them), for the opt-in legacy
//! path. The tools themselves exist once; only the rendering differs.
//!
//! Spec: 2026-07-28 `server/tools.mdx`, "Tool Result" (text content, and
//! `structuredContent` conforming to `outputSchema` with the same JSON in a
//! text block) and "Error Handling" (arguments that break `inputSchema`, and
//! business failures, are results with `isError: true`, per SEP-1303);
//! 2025-11-25 and 2025-06-18 `server/tools.mdx` and `schema.json`
//! `CallToolResult` (`content`, `structuredContent`, `isError`, no
//! `resultType`).

pub(crate) mod content;
pub(crate) mod get_order;
pub(crate) mod lookup_stock;

use std::borrow::Cow;

use crate::canonical::{Node, obj};

use crate::config::{CacheHint, Config, Identity};
use crate::json::Shallow;

/// The members of a `tools/call` request's `arguments` object, in order,
/// each with its decoded [`Shallow`] form. Duplicate names never get this
/// far: they make the whole request invalid.
///
/// Performance: the first member is held inline and only the others in a
/// vector, which allocates when there is a second one. Every tool here
/// takes one argument, so a well-formed call allocates nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Arguments<'a> {
    first: Option<(Cow<'a, str>, Shallow<'a>)>,
    rest: Vec<(Cow<'a, str>, Shallow<'a>)>,
    /// The value of each member that is an array or an object, by its
    /// position (what a configured `inputSchema` reads, row T14); empty,
    /// and not allocated, for the scalar arguments of the coded tools.
    nested: Vec<(usize, serde_json::Value)>,
}

impl<'a> Arguments<'a> {
    /// Appends a decoded member.
    pub fn push(&mut self, name: Cow<'a, str>, value: Shallow<'a>) {
        if self.first.is_none() {
            self.first = Some((name, value));
        } else {
            self.rest.push((name, value));
        }
    }

    /// Appends a decoded member, with its whole value when it is an
    /// array or an object.
    pub(crate) fn push_nested(
        &mut self,
        name: Cow<'a, str>,
        value: Shallow<'a>,
        nested: Option<serde_json::Value>,
    ) {
        if let Some(v) = nested {
            self.nested.push((self.len(), v));
        }
        self.push(name, value);
    }

    /// The arguments as one JSON object, for a configured `inputSchema`.
    pub(crate) fn to_value(&self) -> serde_json::Value {
        let mut object = serde_json::Map::new();
        for (i, (name, shallow)) in self.members().enumerate() {
            let value = match shallow {
                Shallow::Null => serde_json::Value::Null,
                Shallow::Bool(b) => (*b).into(),
                Shallow::Integer(n) => {
                    serde_json::from_str(&n.get().to_string()).unwrap_or_default()
                }
                Shallow::Number(bits) => f64::from_bits(*bits).into(),
                Shallow::Str(s) => s.as_ref().into(),
                Shallow::Array | Shallow::Object => self
                    .nested
                    .iter()
                    .find(|(at, _)| *at == i)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default(),
            };
            object.insert(name.to_string(), value);
        }
        serde_json::Value::Object(object)
    }

    /// The members, in order.
    pub fn iter(&self) -> impl Iterator<Item = &(Cow<'a, str>, Shallow<'a>)> {
        self.members()
    }
    fn members(&self) -> impl Iterator<Item = &(Cow<'a, str>, Shallow<'a>)> {
        self.first.iter().chain(&self.rest)
    }
    /// The member named `name`, if present.
    pub fn get(&self, name: &str) -> Option<&Shallow<'a>> {
        self.members().find(|(k, _)| k == name).map(|(_, v)| v)
    }
    /// How many members there are.
    pub fn len(&self) -> usize {
        usize::from(self.first.is_some()) + self.rest.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.first.is_none()
    }
}

/// An `arguments` member (`tools/call`, `prompts/get`), or an object
/// member of `completion/complete` (`ref`, `argument`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgumentsField<'a> {
    /// An object, decoded member by member.
    Object(Arguments<'a>),
    /// Anything else (its JSON type).
    Other(Shallow<'a>),
}

/// Which protocol era a result body is rendered for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Era {
    /// 2026-07-28: `resultType: "complete"` and
    /// `_meta["io.modelcontextprotocol/serverInfo"]` on every result.
    Modern,
    /// 2025-11-25 and 2025-06-18 (the opt-in legacy path): the result's own
    /// members only. Both versions define `CallToolResult` and
    /// `ListToolsResult` alike (`structuredContent` and `outputSchema`
    /// exist in both), so one legacy rendering serves both.
    Legacy,
}

/// One result body, rendered once per [`Era`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rendered {
    modern: Vec<u8>,
    legacy: Vec<u8>,
}

impl Rendered {
    /// Renders a result whose own members are `members` (in canonical
    /// order), in both eras.
    pub(crate) fn new(members: Vec<(&'static str, Node)>, identity: &Identity) -> Self {
        Rendered {
            modern: render(members.clone(), identity, Era::Modern),
            legacy: render(members, identity, Era::Legacy),
        }
    }
    /// The body for `era`.
    pub(crate) fn get(&self, era: Era) -> &[u8] {
        match era {
            Era::Modern => &self.modern,
            Era::Legacy => &self.legacy,
        }
    }
}

/// Arguments that passed their tool's `inputSchema`. Only a tool's own
/// [`Tool::check`] can make one, so no tool can run on unchecked input. It
/// carries the era the call is answered in, so that [`Tool::run`] picks the
/// body rendered for it.
#[derive(Debug, Clone, Copy)]
pub struct Checked<'b> {
    args: &'b Arguments<'b>,
    era: Era,
}

impl<'b> Checked<'b> {
    pub(crate) fn new(args: &'b Arguments<'b>, era: Era) -> Self {
        Checked { args, era }
    }
    /// The era the call is answered in.
    pub fn era(&self) -> Era {
        self.era
    }
    /// A string argument that the check guaranteed (empty if the tool asks
    /// for one its check did not guarantee, which would be a bug in the tool).
    pub fn str(&self, name: &str) -> &'b str {
        self.args
            .get(name)
            .and_then(Shallow::as_str)
            .unwrap_or_default()
    }
}

/// One tool of the catalog.
pub trait Tool: Send + Sync {
    /// The tool's name, as listed and called.
    fn name(&self) -> &str;
    /// The tool's entry in `tools/list` (a `Tool` of the schema).
    fn descriptor(&self) -> Node;
    /// Checks arguments against the `inputSchema` the descriptor advertises,
    /// for a call answered in `era`. `Err` is the body (rendered for `era`)
    /// of the `isError: true` result to send instead.
    fn check<'b>(&self, args: &'b Arguments<'b>, era: Era) -> Result<Checked<'b>, &[u8]>;
    /// The tool's work: the body of the result for checked arguments,
    /// rendered for [`Checked::era`].
    fn run(&self, args: Checked<'_>) -> &[u8];
    /// The parameters this tool's `inputSchema` marks with `x-mcp-header`
    /// (from the configuration), as `(parameter, header name)`: what the
    /// HTTP binding validates `Mcp-Param-{Name}` headers against (row H14).
    fn mirrored(&self) -> &[Mirrored];
    /// The configuration of the notifications a run may send before its
    /// result (rows T12, T13): only a content tool has any.
    fn notices(&self) -> Option<&crate::catalog::ContentTool> {
        None
    }

    /// Whether the tool exists in 2026-07-28 only: a multi round-trip tool
    /// (`crate::input`), which no legacy era can ask for input for, is
    /// neither listed nor called there.
    fn modern_only(&self) -> bool {
        false
    }
}

/// A tool parameter mirrored into the header `Mcp-Param-{header}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mirrored {
    /// The parameter (a top-level property of the `inputSchema`).
    pub param: &'static str,
    /// The `x-mcp-header` value.
    pub header: String,
    /// The whole header name, `Mcp-Param-` and [`Mirrored::header`]
    /// (built once, not per request).
    pub name: String,
}

/// The configured `x-mcp-header`s of `tool`, for its `params` in order.
pub(crate) fn mirrored(config: &Config, tool: &str, params: &[&'static str]) -> Vec<Mirrored> {
    params
        .iter()
        .filter_map(|&param| {
            config.param_header(tool, param).map(|header| Mirrored {
                param,
                header: header.to_owned(),
                name: format!("Mcp-Param-{header}"),
            })
        })
        .collect()
}

/// A property's schema, with its `x-mcp-header` member last when the
/// parameter is mirrored (row W1: members the textbook does not show come
/// after the ones it does).
pub(crate) fn property(schema: Node, param: &str, mirrored: &[Mirrored]) -> Node {
    match (schema, mirrored.iter().find(|m| m.param == param)) {
        (Node::Obj(mut members), Some(m)) => {
            members.push(("x-mcp-header", Node::Str(m.header.clone())));
            Node::Obj(members)
        }
        (schema, _) => schema,
    }
}

/// A call of a catalog tool whose arguments passed its `inputSchema`:
/// only the catalog can make one, so no tool outside it, and no unchecked
/// call, can ever reach an [`Executor`].
pub struct Call<'t, 'b> {
    tool: &'t dyn Tool,
    args: Checked<'b>,
}

impl<'t, 'b> Call<'t, 'b> {
    /// A call of `tool` with arguments its own check accepted.
    pub(crate) fn new(tool: &'t dyn Tool, args: Checked<'b>) -> Self {
        Call { tool, args }
    }

    /// The tool's name.
    pub fn name(&self) -> &'t str {
        self.tool.name()
    }

    /// Runs the tool: the body of its result.
    pub fn run(self) -> &'t [u8] {
        self.tool.run(self.args)
    }
}

/// Runs checked tool calls. The server's executor ([`Direct`]) runs the
/// tool; a test's can count which tools actually execute (row T3: nothing
/// outside the catalog ever runs).
pub trait Executor {
    /// Runs `call` and returns the result body.
    fn run<'t>(&mut self, call: Call<'t, '_>) -> &'t [u8] {
        call.run()
    }
}

/// The executor of a real server: runs the tool, nothing else.
#[derive(Debug, Clone, Copy, Default)]
pub struct Direct;

impl Executor for Direct {}

/// The tools this configuration offers, in listing order (by name).
pub struct Catalog {
    tools: Vec<Box<dyn Tool>>,
}

impl Catalog {
    /// Builds every tool the configuration offers, rendering their results.
    pub fn new(config: &Config) -> Self {
        let mut tools: Vec<Box<dyn Tool>> = vec![Box::new(get_order::GetOrder::new(config))];
        if let Some(stock) = config.stock() {
            tools.push(Box::new(lookup_stock::LookupStock::new(config, stock)));
        }
        for tool in &config.catalog().content_tools {
            tools.push(Box::new(content::Configured::new(config, tool)));
        }
        tools.sort_by(|a, b| a.name().cmp(b.name()));
        Catalog { tools }
    }
    /// The catalog with `extra` tools added (the configured multi
    /// round-trip tools, built by `crate::dispatch`), in name order.
    pub(crate) fn with_extra(mut self, extra: Vec<Box<dyn Tool>>) -> Self {
        self.tools.extend(extra);
        self.tools.sort_by(|a, b| a.name().cmp(b.name()));
        self
    }
    /// The tool called `name`, if this configuration offers it.
    pub fn find(&self, name: &str) -> Option<&dyn Tool> {
        self.tools
            .iter()
            .find(|t| t.name() == name)
            .map(|t| t.as_ref())
    }
    /// The tools, in listing order.
    pub fn iter(&self) -> impl Iterator<Item = &dyn Tool> {
        self.tools.iter().map(|t| t.as_ref())
    }
}

/// Serializes a result for `era`, its own `members` in the order given.
/// [`Era::Modern`] puts first what every 2026-07-28 result carries, in the
/// textbook's order (`resultType: "complete"`, then
/// `_meta["io.modelcontextprotocol/serverInfo"]`, row W1); [`Era::Legacy`]
/// adds nothing: neither legacy version has `resultType`, and serverInfo is
/// a 2026-07-28 `_meta` key (the legacy handshake carries it in
/// `InitializeResult.serverInfo` instead).
///
/// Spec: 2026-07-28 `schema.ts` `Result.resultType` (MUST) and
/// `ResultMetaObject` serverInfo (SHOULD, on every response); 2025-11-25 and
/// 2025-06-18 `schema.json` `Result` (only an optional `_meta`).
pub(crate) fn render(members: Vec<(&'static str, Node)>, identity: &Identity, era: Era) -> Vec<u8> {
    let mut all = Vec::with_capacity(members.len() + 2);
    if era == Era::Modern {
        all.push(("resultType", Node::from("complete")));
        all.push((
            "_meta",
            obj! { "io.modelcontextprotocol/serverInfo" => server_info(identity) },
        ));
    }
    all.extend(members);
    Node::obj(all).to_vec()
}

/// The caching hints, `ttlMs, cacheScope` (`schema.ts` `CacheableResult`),
/// which follow a result's own members (row W1).
pub(crate) fn cache_fields(members: &mut Vec<(&'static str, Node)>, hint: CacheHint) {
    members.push(("ttlMs", Node::Uint(hint.ttl_ms)));
    members.push(("cacheScope", Node::from(hint.scope.as_str())));
}

/// `Implementation` for serverInfo: `name, version` (`schema.ts`
/// `BaseMetadata` then `Implementation`).
pub(crate) fn server_info(identity: &Identity) -> Node {
    obj! { "name" => &identity.name, "version" => &identity.version }
}

/// [`render`] for [`Era::Modern`].
pub(crate) fn complete_result(members: Vec<(&'static str, Node)>, identity: &Identity) -> Vec<u8> {
    render(members, identity, Era::Modern)
}

/// One text content block: `type` first (the textbook's order), then
/// `text` (`schema.ts` `TextContent`).
pub(crate) fn text_block(text: String) -> Node {
    obj! { "type" => "text", "text" => text }
}

/// A tool result whose only content is one text block, in both eras:
/// `content, isError` (`schema.ts` `CallToolResult`).
pub(crate) fn text_result(text: &str, is_error: bool, identity: &Identity) -> Rendered {
    Rendered::new(
        vec![
            ("content", Node::Arr(vec![text_block(text.to_owned())])),
            ("isError", Node::Bool(is_error)),
        ],
        identity,
    )
}

/// A successful tool result, in both eras: `content, structuredContent,
/// isError` (the textbook's order, which is `schema.ts`'s), where the one
/// text block is exactly the serialization of `structured`, members in the
/// order its tool's `outputSchema` declares them (row W1).
pub(crate) fn structured_result(structured: Node, identity: &Identity) -> Rendered {
    let text = structured.to_text();
    Rendered::new(
        vec![
            ("content", Node::Arr(vec![text_block(text)])),
            ("structuredContent", structured),
            ("isError", Node::Bool(false)),
        ],
        identity,
    )
}

/// The annotations of a read-only tool over a closed data set, in
/// `schema.ts` `ToolAnnotations` order.
pub(crate) fn read_only_annotations() -> Node {
    obj! {
        "readOnlyHint" => true,
        "destructiveHint" => false,
        "idempotentHint" => true,
        "openWorldHint" => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_catalog_is_the_textbook_one() {
        let c = Catalog::new(&Config::default());
        let names: Vec<_> = c.iter().map(|t| t.name()).collect();
        assert_eq!(names, ["get_order"]);
        assert!(c.find("lookup_stock").is_none());
        assert!(c.find("cancel_order").is_none());
    }

    #[test]
    fn stock_table_adds_lookup_stock_in_name_order() {
        let config = Config::default()
            .with_stock(Some(vec![crate::config::StockItem {
                product_id: "python-book".into(),
                stock: 3,
            }]))
            .unwrap();
        let c = Catalog::new(&config);
        let names: Vec<_> = c.iter().map(|t| t.name()).collect();
        assert_eq!(names, ["get_order", "lookup_stock"]);
    }

    use serde_json::Value;

    #[test]
    fn structured_text_is_the_same_json() {
        let rendered = structured_result(
            obj! {"a" => 1u64, "b" => "x"},
            &Config::default().identity().clone(),
        );
        let v: Value = serde_json::from_slice(rendered.get(Era::Modern)).unwrap();
        let text = v["content"][0]["text"].as_str().unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(text).unwrap(),
            v["structuredContent"]
        );
        assert_eq!(v["resultType"], "complete");
        assert_eq!(
            v["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
            "book-orders"
        );
    }

    #[test]
    fn legacy_rendering_is_the_modern_one_without_its_additions() {
        let rendered = structured_result(
            obj! {"z" => 1u64, "b" => "x"},
            &Config::default().identity().clone(),
        );
        assert_eq!(
            std::str::from_utf8(rendered.get(Era::Modern)).unwrap(),
            concat!(
                r#"{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":"#,
                r#"{"name":"book-orders","version":"1.0.0"}},"#,
                r#""content":[{"type":"text","text":"{\"z\":1,\"b\":\"x\"}"}],"#,
                r#""structuredContent":{"z":1,"b":"x"},"isError":false}"#
            )
        );
        assert_eq!(
            std::str::from_utf8(rendered.get(Era::Legacy)).unwrap(),
            concat!(
                r#"{"content":[{"type":"text","text":"{\"z\":1,\"b\":\"x\"}"}],"#,
                r#""structuredContent":{"z":1,"b":"x"},"isError":false}"#
            )
        );
    }
}
