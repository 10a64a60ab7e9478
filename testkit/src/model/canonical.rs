//! Row W1, the canonical output form, as the test kit states it: every
//! reply is the compact rendering of its own tree (no whitespace, strings
//! escaped as serde_json escapes them), every object's members follow the
//! order table of `docs/behavior.md` ("Canonical output form"), structured
//! output follows its tool's `outputSchema` order, and the text block of a
//! structured result is byte for byte the rendering of `structuredContent`.
//!
//! [`super::read_reply`], the one reply reader, applies [`check`] to every
//! reply it reads, so every test, property and fuzz check that reads a
//! reply holds it to W1. The table is written here once; the server writes
//! its own, where it builds each body, and neither is derived from the
//! other.

use super::tree::{Esc, Json, write_string};

/// The canonical member order of each kind of object (row W1's table).
/// Optional members may be absent; none may come out of order, and no
/// member outside the list may appear.
pub mod order {
    /// A result response.
    pub const ENVELOPE_RESULT: &[&str] = &["jsonrpc", "id", "result"];
    /// An error response.
    pub const ENVELOPE_ERROR: &[&str] = &["jsonrpc", "id", "error"];
    /// The error object.
    pub const ERROR: &[&str] = &["code", "message", "data"];
    /// `-32022` data (and L6's), R6's `uri`, I3's `requiredCapabilities`.
    pub const ERROR_DATA: &[&str] = &["supported", "requested", "uri", "requiredCapabilities"];
    /// I3's `requiredCapabilities` (DEC44).
    pub const REQUIRED_CAPABILITIES: &[&str] = &["elicitation", "roots", "sampling"];
    /// I14's `requiredCapabilities.elicitation` (`schema.ts`'s order).
    pub const REQUIRED_ELICITATION: &[&str] = &["form", "url"];
    /// I14's `requiredCapabilities.sampling` (`schema.ts`'s order).
    pub const REQUIRED_SAMPLING: &[&str] = &["context", "tools"];
    /// `InputRequiredResult` (I2, I4, I9).
    pub const INPUT_REQUIRED: &[&str] = &["resultType", "_meta", "inputRequests", "requestState"];
    /// An `InputRequests` value.
    pub const INPUT_REQUEST: &[&str] = &["method", "params"];
    /// A result's `_meta`.
    pub const META: &[&str] = &["io.modelcontextprotocol/serverInfo"];
    /// serverInfo and the legacy `serverInfo`.
    pub const IMPLEMENTATION: &[&str] = &["name", "version"];
    /// `DiscoverResult`.
    pub const DISCOVER: &[&str] = &[
        "resultType",
        "_meta",
        "supportedVersions",
        "capabilities",
        "instructions",
        "ttlMs",
        "cacheScope",
    ];
    /// `capabilities` (`schema.ts` `ServerCapabilities` order).
    pub const CAPABILITIES: &[&str] = &["logging", "completions", "prompts", "resources", "tools"];
    /// `ListResourcesResult`.
    pub const LIST_RESOURCES: &[&str] =
        &["resultType", "_meta", "resources", "ttlMs", "cacheScope"];
    /// `Resource`: `BaseMetadata` first, as `Tool`.
    pub const RESOURCE: &[&str] = &[
        "name",
        "title",
        "uri",
        "description",
        "mimeType",
        "annotations",
    ];
    /// `Annotations`.
    pub const RESOURCE_ANNOTATIONS: &[&str] = &["audience", "priority", "lastModified"];
    /// `ListResourceTemplatesResult`.
    pub const LIST_TEMPLATES: &[&str] = &[
        "resultType",
        "_meta",
        "resourceTemplates",
        "ttlMs",
        "cacheScope",
    ];
    /// `ResourceTemplate`.
    pub const TEMPLATE: &[&str] = &["name", "title", "uriTemplate", "description", "mimeType"];
    /// `ReadResourceResult`.
    pub const READ_RESOURCE: &[&str] = &["resultType", "_meta", "contents", "ttlMs", "cacheScope"];
    /// `TextResourceContents`, `BlobResourceContents`.
    pub const CONTENTS: &[&str] = &["uri", "mimeType", "text", "blob"];
    /// `ListPromptsResult`.
    pub const LIST_PROMPTS: &[&str] = &["resultType", "_meta", "prompts", "ttlMs", "cacheScope"];
    /// `Prompt`.
    pub const PROMPT: &[&str] = &["name", "title", "description", "arguments"];
    /// `PromptArgument`.
    pub const PROMPT_ARGUMENT: &[&str] = &["name", "title", "description", "required"];
    /// `GetPromptResult`.
    pub const GET_PROMPT: &[&str] = &["resultType", "_meta", "description", "messages"];
    /// `PromptMessage`.
    pub const PROMPT_MESSAGE: &[&str] = &["role", "content"];
    /// An embedded resource content block.
    pub const EMBEDDED: &[&str] = &["type", "resource"];
    /// `CompleteResult`.
    pub const COMPLETE: &[&str] = &["resultType", "_meta", "completion"];
    /// `CompleteResult.completion`.
    pub const COMPLETION: &[&str] = &["values", "total", "hasMore"];
    /// `ListToolsResult`.
    pub const LIST_TOOLS: &[&str] = &["resultType", "_meta", "tools", "ttlMs", "cacheScope"];
    /// `Tool`.
    pub const TOOL: &[&str] = &[
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
    ];
    /// `inputSchema`, `outputSchema`.
    pub const SCHEMA: &[&str] = &["type", "properties", "required", "additionalProperties"];
    /// A property's schema (`x-mcp-header`, row H14, after the members the
    /// textbook shows).
    pub const PROPERTY: &[&str] = &["type", "format", "minimum", "description", "x-mcp-header"];
    /// `ToolAnnotations`.
    pub const ANNOTATIONS: &[&str] = &[
        "readOnlyHint",
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
    ];
    /// `CallToolResult`.
    pub const CALL_TOOL: &[&str] = &[
        "resultType",
        "_meta",
        "content",
        "structuredContent",
        "isError",
    ];
    /// A content block: `TextContent`, `ImageContent`, `AudioContent`,
    /// `EmbeddedResource` (`type` first, then `schema.ts` order).
    pub const TEXT_BLOCK: &[&str] = &["type", "text", "data", "mimeType", "resource"];
    /// The legacy `InitializeResult`.
    pub const INITIALIZE: &[&str] = &[
        "protocolVersion",
        "capabilities",
        "serverInfo",
        "instructions",
    ];
    /// `get_order`'s properties, its `required` and its structured output.
    pub const ORDER: &[&str] = &["order_id", "status", "as_of", "source_version"];
    /// `lookup_stock`'s properties and structured output.
    pub const STOCK: &[&str] = &["product_id", "stock"];
}

/// Checks a reply line (no newline) and its tree against row W1. The id
/// is echoed as received (row E10), so it is compared as its raw text
/// (`raw_id`, when the line has one), not re-rendered.
pub fn check(tree: &Json, line: &[u8], raw_id: Option<&str>) -> Result<(), String> {
    if rendered(tree, raw_id) != line {
        return Err(
            "row W1: the reply is not its own compact rendering (whitespace, or strings \
             escaped otherwise than serde_json escapes them)"
                .into(),
        );
    }
    if let Some(error) = get(tree, "error") {
        in_order("envelope", tree, order::ENVELOPE_ERROR)?;
        in_order("error", error, order::ERROR)?;
        if let Some(data) = get(error, "data") {
            in_order("error.data", data, order::ERROR_DATA)?;
            if let Some(caps) = get(data, "requiredCapabilities") {
                in_order("requiredCapabilities", caps, order::REQUIRED_CAPABILITIES)?;
                if let Some(e) = get(caps, "elicitation") {
                    in_order(
                        "requiredCapabilities.elicitation",
                        e,
                        order::REQUIRED_ELICITATION,
                    )?;
                }
                if let Some(s) = get(caps, "sampling") {
                    in_order("requiredCapabilities.sampling", s, order::REQUIRED_SAMPLING)?;
                }
            }
        }
        return Ok(());
    }
    in_order("envelope", tree, order::ENVELOPE_RESULT)?;
    let Some(result) = get(tree, "result") else {
        return Ok(());
    };
    if let Some(meta) = get(result, "_meta") {
        in_order("_meta", meta, order::META)?;
        if let Some(info) = get(meta, "io.modelcontextprotocol/serverInfo") {
            in_order("serverInfo", info, order::IMPLEMENTATION)?;
        }
    }
    if let Some(info) = get(result, "serverInfo") {
        in_order("serverInfo", info, order::IMPLEMENTATION)?;
    }
    if let Some(caps) = get(result, "capabilities") {
        in_order("capabilities", caps, order::CAPABILITIES)?;
    }
    let has = |name| get(result, name).is_some();
    if has("inputRequests") || has("requestState") {
        in_order("InputRequiredResult", result, order::INPUT_REQUIRED)?;
        // The keys in configured order; each request's `params` is the
        // configured JSON as serde_json writes it, members sorted (DEC47).
        let requests = get(result, "inputRequests")
            .map(members)
            .unwrap_or_default();
        for (_, _, request) in requests {
            in_order("InputRequest", request, order::INPUT_REQUEST)?;
            if let Some(params) = get(request, "params") {
                sorted("InputRequest.params", params)?;
            }
        }
        Ok(())
    } else if has("protocolVersion") {
        in_order("InitializeResult", result, order::INITIALIZE)
    } else if has("supportedVersions") {
        in_order("DiscoverResult", result, order::DISCOVER)
    } else if has("tools") {
        in_order("ListToolsResult", result, order::LIST_TOOLS)?;
        for tool in items(get(result, "tools")) {
            check_tool(tool)?;
        }
        Ok(())
    } else if has("content") {
        check_call(result)
    } else if has("resources") {
        in_order("ListResourcesResult", result, order::LIST_RESOURCES)?;
        for r in items(get(result, "resources")) {
            in_order("Resource", r, order::RESOURCE)?;
            if let Some(a) = get(r, "annotations") {
                in_order("Annotations", a, order::RESOURCE_ANNOTATIONS)?;
            }
        }
        Ok(())
    } else if has("resourceTemplates") {
        in_order("ListResourceTemplatesResult", result, order::LIST_TEMPLATES)?;
        for t in items(get(result, "resourceTemplates")) {
            in_order("ResourceTemplate", t, order::TEMPLATE)?;
        }
        Ok(())
    } else if has("contents") {
        in_order("ReadResourceResult", result, order::READ_RESOURCE)?;
        for c in items(get(result, "contents")) {
            check_contents(c)?;
        }
        Ok(())
    } else if has("prompts") {
        in_order("ListPromptsResult", result, order::LIST_PROMPTS)?;
        for p in items(get(result, "prompts")) {
            in_order("Prompt", p, order::PROMPT)?;
            for a in items(get(p, "arguments")) {
                in_order("PromptArgument", a, order::PROMPT_ARGUMENT)?;
            }
        }
        Ok(())
    } else if has("messages") {
        in_order("GetPromptResult", result, order::GET_PROMPT)?;
        for m in items(get(result, "messages")) {
            in_order("PromptMessage", m, order::PROMPT_MESSAGE)?;
            let Some(content) = get(m, "content") else {
                continue;
            };
            match get(content, "resource") {
                Some(resource) => {
                    in_order("EmbeddedResource", content, order::EMBEDDED)?;
                    check_contents(resource)?;
                }
                None => in_order("content block", content, order::TEXT_BLOCK)?,
            }
        }
        Ok(())
    } else if has("completion") {
        in_order("CompleteResult", result, order::COMPLETE)?;
        if let Some(c) = get(result, "completion") {
            in_order("completion", c, order::COMPLETION)?;
        }
        Ok(())
    } else {
        // `{}` (ping) and results of no known kind have no members to order.
        Ok(())
    }
}

fn check_tool(tool: &Json) -> Result<(), String> {
    in_order("Tool", tool, order::TOOL)?;
    // T14: a configured tool's schema is written as configured, so W1
    // orders the schemas of the coded tools only.
    let coded = matches!(get(tool, "name"), Some(Json::Str(n, _)) if n == "get_order" || n == "lookup_stock");
    for name in ["inputSchema", "outputSchema"]
        .into_iter()
        .filter(|_| coded)
    {
        let Some(schema) = get(tool, name) else {
            continue;
        };
        in_order(name, schema, order::SCHEMA)?;
        if let Some(props) = get(schema, "properties") {
            output_order(&format!("{name}.properties"), props)?;
            for (prop, _, value) in members(props) {
                in_order(&format!("{name}.{prop}"), value, order::PROPERTY)?;
            }
        }
        if let Some(Json::Arr(required)) = get(schema, "required") {
            let names: Vec<&str> = required
                .iter()
                .filter_map(|r| match r {
                    Json::Str(s, _) => Some(s.as_str()),
                    _ => None,
                })
                .collect();
            subsequence(&format!("{name}.required"), &names, declared(&names))?;
        }
    }
    if let Some(annotations) = get(tool, "annotations") {
        in_order("ToolAnnotations", annotations, order::ANNOTATIONS)?;
    }
    Ok(())
}

/// A resource's contents: in `ResourceContents` order; the text of an
/// `application/json` order snapshot (one with an `order_id`, row R5) is
/// in `get_order`'s output order.
fn check_contents(contents: &Json) -> Result<(), String> {
    in_order("ResourceContents", contents, order::CONTENTS)?;
    let json =
        matches!(get(contents, "mimeType"), Some(Json::Str(m, _)) if m == "application/json");
    if let (true, Some(Json::Str(text, _))) = (json, get(contents, "text")) {
        let parsed = super::parse::parse(text.as_bytes())
            .map_err(|_| "row W1: an application/json text is not JSON".to_string())?;
        // A configured template's text (R8) is the configuration's own
        // bytes: only an order snapshot has an order of ours.
        if get(&parsed.tree, "order_id").is_none() {
            return Ok(());
        }
        output_order("order snapshot", &parsed.tree)?;
        if plain(&parsed.tree) != text.as_bytes() {
            return Err("row W1: an order snapshot is not its compact rendering".into());
        }
    }
    Ok(())
}

fn check_call(result: &Json) -> Result<(), String> {
    in_order("CallToolResult", result, order::CALL_TOOL)?;
    for block in items(get(result, "content")) {
        in_order("content block", block, order::TEXT_BLOCK)?;
        if let Some(resource) = get(block, "resource") {
            in_order("embedded resource", resource, order::CONTENTS)?;
        }
    }
    let Some(structured) = get(result, "structuredContent") else {
        return Ok(());
    };
    output_order("structuredContent", structured)?;
    let rendered = plain(structured);
    let texts: Vec<&[u8]> = items(get(result, "content"))
        .iter()
        .filter_map(|b| match get(b, "text") {
            Some(Json::Str(s, _)) => Some(s.as_bytes()),
            _ => None,
        })
        .collect();
    if texts != [rendered.as_slice()] {
        return Err(format!(
            "row W1: the text block is not byte for byte the rendering of structuredContent, {}",
            String::from_utf8_lossy(&rendered)
        ));
    }
    Ok(())
}

/// The declared order a set of tool output members follows: get_order's or
/// lookup_stock's.
fn declared(names: &[&str]) -> &'static [&'static str] {
    if names.iter().any(|n| order::STOCK.contains(n)) {
        order::STOCK
    } else {
        order::ORDER
    }
}

/// The members of a tool's output (or of its schema's `properties`) in
/// their tool's declared order.
fn output_order(what: &str, object: &Json) -> Result<(), String> {
    let names: Vec<&str> = members(object).iter().map(|(k, _, _)| k.as_str()).collect();
    subsequence(what, &names, declared(&names))
}

fn members(object: &Json) -> &[(String, Esc, Json)] {
    match object {
        Json::Obj(members) => members,
        _ => &[],
    }
}

fn get<'t>(object: &'t Json, name: &str) -> Option<&'t Json> {
    members(object)
        .iter()
        .find(|(k, _, _)| k == name)
        .map(|(_, _, v)| v)
}

fn items(array: Option<&Json>) -> &[Json] {
    match array {
        Some(Json::Arr(items)) => items,
        _ => &[],
    }
}

/// Every object inside `value` has its members sorted by name.
fn sorted(what: &str, value: &Json) -> Result<(), String> {
    match value {
        Json::Obj(members) => {
            let names: Vec<&str> = members.iter().map(|(k, _, _)| k.as_str()).collect();
            if names.windows(2).any(|w| w[0] > w[1]) {
                return Err(format!("row W1: {what}: members {names:?} are not sorted"));
            }
            members.iter().try_for_each(|(_, _, v)| sorted(what, v))
        }
        Json::Arr(items) => items.iter().try_for_each(|v| sorted(what, v)),
        _ => Ok(()),
    }
}

fn in_order(what: &str, object: &Json, canonical: &[&str]) -> Result<(), String> {
    let names: Vec<&str> = members(object).iter().map(|(k, _, _)| k.as_str()).collect();
    subsequence(what, &names, canonical)
}

/// Whether `names` follow `canonical` (a subsequence of it).
fn subsequence(what: &str, names: &[&str], canonical: &[&str]) -> Result<(), String> {
    let mut at = 0;
    for name in names {
        match canonical
            .get(at..)
            .and_then(|rest| rest.iter().position(|c| c == name))
        {
            Some(i) => at += i + 1,
            None => {
                return Err(format!(
                    "row W1: {what}: member {name:?} is out of canonical order or unknown \
                     (members {names:?}, canonical {canonical:?})"
                ));
            }
        }
    }
    Ok(())
}

/// The compact rendering of a reply's tree, its top-level `id` as `raw_id`.
fn rendered(tree: &Json, raw_id: Option<&str>) -> Vec<u8> {
    let (Json::Obj(members), Some(raw_id)) = (tree, raw_id) else {
        return plain(tree);
    };
    let mut out = vec![b'{'];
    for (i, (name, _, value)) in members.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_string(&mut out, name, Esc::Plain);
        out.push(b':');
        if name == "id" {
            out.extend_from_slice(raw_id.as_bytes());
        } else {
            write_plain(value, &mut out);
        }
    }
    out.push(b'}');
    out
}

/// The compact rendering of a tree with every string written as serde_json
/// writes it.
fn plain(tree: &Json) -> Vec<u8> {
    let mut out = Vec::new();
    write_plain(tree, &mut out);
    out
}

fn write_plain(tree: &Json, out: &mut Vec<u8>) {
    match tree {
        Json::Str(s, _) => write_string(out, s, Esc::Plain),
        Json::Arr(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_plain(item, out);
            }
            out.push(b']');
        }
        Json::Obj(members) => {
            out.push(b'{');
            for (i, (name, _, value)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(out, name, Esc::Plain);
                out.push(b':');
                write_plain(value, out);
            }
            out.push(b'}');
        }
        other => other.write(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse;

    fn judge(line: &str) -> Result<(), String> {
        let parsed = parse(line.as_bytes()).map_err(|e| format!("{e:?}"))?;
        check(
            &parsed.tree,
            line.as_bytes(),
            parsed.ids.first().map(String::as_str),
        )
    }

    /// Example 43.2's reply is canonical; what row W1 forbids is caught: a
    /// sorted result, a text block with sorted members, `text` before
    /// `type`, data before message, id after result, whitespace.
    #[test]
    fn the_checker_accepts_the_book_and_catches_the_rest() {
        let book = r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"book-orders","version":"1.0.0"}},"content":[{"type":"text","text":"{\"order_id\":\"A-104\",\"status\":\"processing\",\"as_of\":\"2026-09-14T00:00:00Z\",\"source_version\":\"ka3-orders-v1\"}"}],"structuredContent":{"order_id":"A-104","status":"processing","as_of":"2026-09-14T00:00:00Z","source_version":"ka3-orders-v1"},"isError":false}}"#;
        assert_eq!(judge(book), Ok(()));
        let bad = [
            r#"{"jsonrpc":"2.0","id":3,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"book-orders","version":"1.0.0"}},"content":[{"text":"{\"as_of\":\"2026-09-14T00:00:00Z\",\"order_id\":\"A-104\",\"source_version\":\"ka3-orders-v1\",\"status\":\"processing\"}","type":"text"}],"isError":false,"resultType":"complete","structuredContent":{"as_of":"2026-09-14T00:00:00Z","order_id":"A-104","source_version":"ka3-orders-v1","status":"processing"}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"book-orders","version":"1.0.0"}},"content":[{"type":"text","text":"{\"as_of\":\"2026-09-14T00:00:00Z\",\"order_id\":\"A-104\",\"source_version\":\"ka3-orders-v1\",\"status\":\"processing\"}"}],"structuredContent":{"order_id":"A-104","status":"processing","as_of":"2026-09-14T00:00:00Z","source_version":"ka3-orders-v1"},"isError":false}}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"text":"x","type":"text"}],"isError":true}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"data":{"supported":["2026-07-28"],"requested":"x"},"message":"Unsupported protocol version"}}"#,
            r#"{"jsonrpc":"2.0","result":{"resultType":"complete"},"id":1}"#,
            r#"{"jsonrpc": "2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not f\u006fund"}}"#,
        ];
        for line in bad {
            assert!(judge(line).is_err(), "accepted: {line}");
        }
    }
}
