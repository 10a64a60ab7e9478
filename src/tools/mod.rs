//! The tool catalog: which tools this server offers, how a tool checks its
//! arguments against its `inputSchema`, and how a checked call is run.
//!
//! The catalog at a glance:
//!
//! | tool | offered | module |
//! | --- | --- | --- |
//! | `get_order(order_id)` | always | [`get_order`] |
//! | `lookup_stock(product_id)` | when the configuration has a stock table | [`lookup_stock`] |
//!
//! Every reply a tool can give depends only on the configuration, never on
//! the request beyond its arguments, so each tool renders all of its result
//! bodies once, when the catalog is built; a call only picks one.
//!
//! Spec: 2026-07-28 `server/tools.mdx`, "Tool Result" (text content, and
//! `structuredContent` conforming to `outputSchema` with the same JSON in a
//! text block) and "Error Handling" (arguments that break `inputSchema`, and
//! business failures, are results with `isError: true`, per SEP-1303).

pub mod get_order;
pub mod lookup_stock;

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use crate::config::{Config, Identity};
use crate::json::Shallow;

/// The members of a `tools/call` request's `arguments` object, in order,
/// each with its decoded [`Shallow`] form. Duplicate names never get this
/// far: they make the whole request invalid.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Arguments<'a> {
    members: Vec<(Cow<'a, str>, Shallow<'a>)>,
}

impl<'a> Arguments<'a> {
    /// Wraps decoded members.
    pub fn new(members: Vec<(Cow<'a, str>, Shallow<'a>)>) -> Self {
        Arguments { members }
    }
    /// The member named `name`, if present.
    pub fn get(&self, name: &str) -> Option<&Shallow<'a>> {
        self.members.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
    /// How many members there are.
    pub fn len(&self) -> usize {
        self.members.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }
}

/// Arguments that passed their tool's `inputSchema`. Only a tool's own
/// [`Tool::check`] can make one, so no tool can run on unchecked input.
#[derive(Debug, Clone, Copy)]
pub struct Checked<'b> {
    args: &'b Arguments<'b>,
}

impl<'b> Checked<'b> {
    fn new(args: &'b Arguments<'b>) -> Self {
        Checked { args }
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
    fn name(&self) -> &'static str;
    /// The tool's entry in `tools/list` (a `Tool` of the schema).
    fn descriptor(&self) -> Value;
    /// Checks arguments against the `inputSchema` the descriptor advertises.
    /// `Err` is the body of the `isError: true` result to send instead.
    fn check<'b>(&self, args: &'b Arguments<'b>) -> Result<Checked<'b>, &[u8]>;
    /// The tool's work: the body of the result for checked arguments.
    fn run(&self, args: Checked<'_>) -> &[u8];
}

/// Runs checked tool calls. The server's executor runs the tool; tests use
/// their own to count which tools actually execute.
pub trait Executor {
    /// Runs `tool` on `args` and returns the result body.
    fn run<'t>(&mut self, tool: &'t dyn Tool, args: Checked<'_>) -> &'t [u8] {
        tool.run(args)
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
        tools.sort_by_key(|t| t.name());
        Catalog { tools }
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

/// Adds what every result carries (`resultType: "complete"` and
/// `_meta["io.modelcontextprotocol/serverInfo"]`) and serializes it.
///
/// Spec: 2026-07-28 `schema.ts` `Result.resultType` (MUST) and
/// `ResultMetaObject` serverInfo (SHOULD, on every response).
pub fn complete_result(mut fields: Map<String, Value>, identity: &Identity) -> Vec<u8> {
    fields.insert("resultType".into(), json!("complete"));
    fields.insert(
        "_meta".into(),
        json!({ "io.modelcontextprotocol/serverInfo": { "name": identity.name, "version": identity.version } }),
    );
    serde_json::to_vec(&Value::Object(fields)).unwrap_or_default()
}

/// A tool result whose only content is one text block.
pub fn text_result(text: &str, is_error: bool, identity: &Identity) -> Vec<u8> {
    let mut fields = Map::new();
    fields.insert("content".into(), json!([{ "type": "text", "text": text }]));
    fields.insert("isError".into(), json!(is_error));
    complete_result(fields, identity)
}

/// A successful tool result: `structuredContent`, and the same object
/// serialized in one text block.
pub fn structured_result(structured: Value, identity: &Identity) -> Vec<u8> {
    let mut fields = Map::new();
    let text = structured.to_string();
    fields.insert("content".into(), json!([{ "type": "text", "text": text }]));
    fields.insert("structuredContent".into(), structured);
    fields.insert("isError".into(), json!(false));
    complete_result(fields, identity)
}

/// The annotations of a read-only tool over a closed data set.
pub fn read_only_annotations() -> Value {
    json!({
        "readOnlyHint": true,
        "destructiveHint": false,
        "idempotentHint": true,
        "openWorldHint": false
    })
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

    #[test]
    fn structured_text_is_the_same_json() {
        let body = structured_result(
            json!({"a": 1, "b": "x"}),
            &Config::default().identity().clone(),
        );
        let v: Value = serde_json::from_slice(&body).unwrap();
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
}
