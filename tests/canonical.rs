//! The canonical output form (docs/behavior.md, row W1), judged from the
//! outside: for any configuration and any request, every object in every
//! reply has its members in the order the row's table lays down, structured
//! output follows its tool's `outputSchema` property order, and a text block
//! that carries structured output is byte for byte the serialization of
//! `structuredContent` as it stands in the reply.
//!
//! 1,000 cases each; failures are kept in
//! `proptest-regressions/canonical.txt` and replayed first on every run.
//!
//! The order table below is the test kit's statement of row W1; the core
//! states it once, where it builds each body. The two are never derived
//! from each other.

mod support;

use mcp_reference::strategy;
use mcp_reference::{Config, Server};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// A JSON value that remembers the order of object members.
#[derive(Debug, Clone, PartialEq)]
enum Ordered {
    Obj(Vec<(String, Ordered)>),
    Arr(Vec<Ordered>),
    Scalar(serde_json::Value),
}

impl Ordered {
    fn get(&self, name: &str) -> Option<&Ordered> {
        match self {
            Ordered::Obj(members) => members.iter().find(|(k, _)| k == name).map(|(_, v)| v),
            _ => None,
        }
    }
    fn keys(&self) -> Vec<&str> {
        match self {
            Ordered::Obj(members) => members.iter().map(|(k, _)| k.as_str()).collect(),
            _ => Vec::new(),
        }
    }
    fn items(&self) -> &[Ordered] {
        match self {
            Ordered::Arr(items) => items,
            _ => &[],
        }
    }
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
                let mut members = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Ordered>()? {
                    members.push((k, v));
                }
                Ok(Ordered::Obj(members))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Ordered>()? {
                    items.push(item);
                }
                Ok(Ordered::Arr(items))
            }
            fn visit_bool<E>(self, b: bool) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(b.into()))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(n.into()))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(n.into()))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(n.into()))
            }
            fn visit_str<E>(self, s: &str) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(s.into()))
            }
            fn visit_unit<E>(self) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(serde_json::Value::Null))
            }
        }
        d.deserialize_any(V)
    }
}

/// A reply line as an [`Ordered`] tree. The `id` is kept as raw text (an
/// integer id may have any number of digits, beyond what a number parser
/// takes) and replaced by a placeholder scalar.
fn read_reply(reply: &[u8]) -> Result<Ordered, String> {
    struct Top;
    impl<'de> Visitor<'de> for Top {
        type Value = Vec<(String, &'de RawValue)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut members = Vec::new();
            while let Some((k, v)) = map.next_entry::<String, &'de RawValue>()? {
                members.push((k, v));
            }
            Ok(members)
        }
    }
    let mut de = serde_json::Deserializer::from_slice(reply);
    let members = de.deserialize_map(Top).map_err(|e| e.to_string())?;
    let mut tree = Vec::new();
    for (name, raw) in members {
        let value = if name == "id" {
            Ordered::Scalar(serde_json::Value::String(raw.get().to_owned()))
        } else {
            serde_json::from_str(raw.get()).map_err(|e| e.to_string())?
        };
        tree.push((name, value));
    }
    Ok(Ordered::Obj(tree))
}

/// Row W1's table: the canonical member order of each kind of object.
/// Optional members may be absent; none may come out of order, and no
/// member outside the list may appear.
mod order {
    pub const ENVELOPE_RESULT: &[&str] = &["jsonrpc", "id", "result"];
    pub const ENVELOPE_ERROR: &[&str] = &["jsonrpc", "id", "error"];
    pub const ERROR: &[&str] = &["code", "message", "data"];
    pub const ERROR_DATA: &[&str] = &["supported", "requested"];
    pub const META: &[&str] = &["io.modelcontextprotocol/serverInfo"];
    pub const IMPLEMENTATION: &[&str] = &["name", "version"];
    pub const DISCOVER: &[&str] = &[
        "resultType",
        "_meta",
        "supportedVersions",
        "capabilities",
        "instructions",
        "ttlMs",
        "cacheScope",
    ];
    pub const LIST_TOOLS: &[&str] = &["resultType", "_meta", "tools", "ttlMs", "cacheScope"];
    pub const CALL_TOOL: &[&str] = &[
        "resultType",
        "_meta",
        "content",
        "structuredContent",
        "isError",
    ];
    pub const TOOL: &[&str] = &[
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
    ];
    pub const SCHEMA: &[&str] = &["type", "properties", "required", "additionalProperties"];
    pub const PROPERTY: &[&str] = &["type", "format", "minimum", "description"];
    pub const ANNOTATIONS: &[&str] = &[
        "title",
        "readOnlyHint",
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
    ];
    pub const TEXT_BLOCK: &[&str] = &["type", "text"];
    pub const CAPABILITIES: &[&str] = &["tools"];
}

/// Whether `keys` follow `canonical` (a subsequence of it).
fn in_order(what: &str, keys: &[&str], canonical: &[&str]) -> Result<(), String> {
    let mut at = 0;
    for key in keys {
        match canonical[at..].iter().position(|c| c == key) {
            Some(i) => at += i + 1,
            None => {
                return Err(format!(
                    "{what}: member {key:?} is out of canonical order or unknown: got {keys:?}, canonical {canonical:?}"
                ));
            }
        }
    }
    Ok(())
}

fn check_tool(tool: &Ordered) -> Result<(), String> {
    in_order("Tool", &tool.keys(), order::TOOL)?;
    for schema in ["inputSchema", "outputSchema"] {
        if let Some(s) = tool.get(schema) {
            in_order(schema, &s.keys(), order::SCHEMA)?;
            if let Some(Ordered::Obj(props)) = s.get("properties") {
                for (name, prop) in props {
                    in_order(&format!("{schema}.{name}"), &prop.keys(), order::PROPERTY)?;
                }
            }
        }
    }
    if let Some(a) = tool.get("annotations") {
        in_order("ToolAnnotations", &a.keys(), order::ANNOTATIONS)?;
    }
    Ok(())
}

/// The raw members of a `tools/call` result that carry structured output.
#[derive(Deserialize)]
struct RawReply<'a> {
    #[serde(borrow)]
    #[allow(dead_code)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    result: Option<RawResult<'a>>,
}

#[derive(Deserialize)]
#[allow(non_snake_case)]
struct RawResult<'a> {
    #[serde(borrow)]
    structuredContent: Option<&'a RawValue>,
    #[serde(default)]
    content: Vec<Block>,
}

#[derive(Deserialize)]
struct Block {
    text: Option<String>,
}

/// Checks one modern reply line against row W1. `catalog` is the
/// server's `tools/list` result, for the `outputSchema` property order.
fn check_reply(reply: &[u8], catalog: &Ordered) -> Result<(), String> {
    let tree = read_reply(reply)?;
    if let Some(error) = tree.get("error") {
        in_order("envelope", &tree.keys(), order::ENVELOPE_ERROR)?;
        in_order("error", &error.keys(), order::ERROR)?;
        if let Some(data) = error.get("data") {
            in_order("error.data", &data.keys(), order::ERROR_DATA)?;
        }
        return Ok(());
    }
    in_order("envelope", &tree.keys(), order::ENVELOPE_RESULT)?;
    let result = tree.get("result").ok_or("no result")?;
    if let Some(meta) = result.get("_meta") {
        in_order("_meta", &meta.keys(), order::META)?;
        if let Some(info) = meta.get("io.modelcontextprotocol/serverInfo") {
            in_order("serverInfo", &info.keys(), order::IMPLEMENTATION)?;
        }
    }
    let keys = result.keys();
    if keys.contains(&"supportedVersions") {
        in_order("DiscoverResult", &keys, order::DISCOVER)?;
        if let Some(caps) = result.get("capabilities") {
            in_order("capabilities", &caps.keys(), order::CAPABILITIES)?;
        }
    } else if keys.contains(&"tools") {
        in_order("ListToolsResult", &keys, order::LIST_TOOLS)?;
        for tool in result.get("tools").map(Ordered::items).unwrap_or_default() {
            check_tool(tool)?;
        }
    } else {
        in_order("CallToolResult", &keys, order::CALL_TOOL)?;
        for block in result
            .get("content")
            .map(Ordered::items)
            .unwrap_or_default()
        {
            in_order("content block", &block.keys(), order::TEXT_BLOCK)?;
        }
        if let Some(structured) = result.get("structuredContent") {
            // Structured output follows the property order of the
            // outputSchema of the tool that produced it: the one whose
            // properties are exactly its members.
            let members = structured.keys();
            let declared = catalog
                .get("tools")
                .map(Ordered::items)
                .unwrap_or_default()
                .iter()
                .filter_map(|t| t.get("outputSchema")?.get("properties"))
                .map(Ordered::keys)
                .find(|props| {
                    let mut a = props.clone();
                    let mut b = members.clone();
                    a.sort_unstable();
                    b.sort_unstable();
                    a == b
                })
                .ok_or_else(|| format!("no outputSchema declares {members:?}"))?;
            if members != declared {
                return Err(format!(
                    "structuredContent members {members:?} are not in outputSchema order {declared:?}"
                ));
            }
            // The text block is the serialization of structuredContent,
            // byte for byte.
            let raw: RawReply = serde_json::from_slice(reply).map_err(|e| e.to_string())?;
            let raw = raw.result.ok_or("no result")?;
            let bytes = raw.structuredContent.ok_or("no structuredContent")?.get();
            let texts: Vec<&str> = raw
                .content
                .iter()
                .filter_map(|b| b.text.as_deref())
                .collect();
            if texts != [bytes] {
                return Err(format!(
                    "the text block {texts:?} is not the serialization of structuredContent {bytes}"
                ));
            }
        }
    }
    Ok(())
}

fn tools_list(server: &Server) -> Ordered {
    let line = support::line(
        serde_json::json!(0),
        "tools/list",
        serde_json::json!({"_meta": support::meta()}),
    );
    let reply = server
        .respond(line.as_bytes())
        .expect("tools/list is answered");
    let tree = read_reply(&reply).expect("JSON");
    tree.get("result").expect("a result").clone()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1000,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/canonical.txt",
        ))),
        ..ProptestConfig::default()
    })]

    /// Every reply to any line, for any configuration, is in canonical
    /// order; structured output follows its outputSchema, and its text
    /// block is its exact serialization.
    #[test]
    fn every_reply_is_in_canonical_order((config, case) in strategy::scenario()) {
        let server = Server::new(config);
        let catalog = tools_list(&server);
        if let Some(reply) = server.respond(&case.line)
            && let Err(e) = check_reply(&reply, &catalog)
        {
            return Err(TestCaseError::fail(format!(
                "{e}\nline: {}\nreply: {}",
                String::from_utf8_lossy(&case.line),
                String::from_utf8_lossy(&reply)
            )));
        }
    }

    /// Every successful tool call, for any configuration: the text block
    /// is byte for byte the serialization of structuredContent.
    #[test]
    fn structured_text_is_byte_equal((config, line) in strategy::config().prop_flat_map(|c| {
        let calls = strategy::tool_call(&c);
        (Just(c), calls)
    })) {
        let server = Server::new(config);
        let catalog = tools_list(&server);
        let line = line.render();
        if let Some(reply) = server.respond(&line) {
            prop_assert!(check_reply(&reply, &catalog).is_ok(), "{:?}", check_reply(&reply, &catalog));
        }
    }
}

/// The checker itself refuses what row W1 forbids: a sorted result, a
/// text block whose members are sorted, `text` before `type`.
#[test]
fn the_checker_catches_non_canonical_replies() {
    let server = Server::new(Config::default());
    let catalog = tools_list(&server);
    let good = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/example-43.2.response.json"
    ))
    .unwrap();
    assert_eq!(check_reply(&good, &catalog), Ok(()));
    let bad = [
        // The reply before row W1: sorted members everywhere.
        r#"{"jsonrpc":"2.0","id":3,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"book-orders","version":"1.0.0"}},"content":[{"text":"{\"as_of\":\"2026-09-14T00:00:00Z\",\"order_id\":\"A-104\",\"source_version\":\"ka3-orders-v1\",\"status\":\"processing\"}","type":"text"}],"isError":false,"resultType":"complete","structuredContent":{"as_of":"2026-09-14T00:00:00Z","order_id":"A-104","source_version":"ka3-orders-v1","status":"processing"}}}"#,
        // Only the text block's members sorted.
        r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"book-orders","version":"1.0.0"}},"content":[{"type":"text","text":"{\"as_of\":\"2026-09-14T00:00:00Z\",\"order_id\":\"A-104\",\"source_version\":\"ka3-orders-v1\",\"status\":\"processing\"}"}],"structuredContent":{"order_id":"A-104","status":"processing","as_of":"2026-09-14T00:00:00Z","source_version":"ka3-orders-v1"},"isError":false}}"#,
        // An error with data before message.
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"data":{"supported":["2026-07-28"],"requested":"x"},"message":"Unsupported protocol version"}}"#,
        // id after result.
        r#"{"jsonrpc":"2.0","result":{"resultType":"complete"},"id":1}"#,
    ];
    for line in bad {
        assert!(
            check_reply(line.as_bytes(), &catalog).is_err(),
            "accepted: {line}"
        );
    }
}
