//! One case (or more) per row of `docs/behavior.md`, the reference contract.
//!
//! Each case names its row; a test checks that every row of the document has
//! a case and every case a row, so the contract and its proof cannot drift
//! apart. Every reply is compared exactly (code, message, data, id) and
//! validated against the official 2026-07-28 schema for its method.

mod support;

use std::collections::BTreeSet;

use mcp_reference::StockItem;
use mcp_reference::{Config, Server};
use mcp_reference_testkit::model;
use serde_json::{Value, json};
use support::{call, line, meta, validate};

#[path = "support/catalog_cases.rs"]
mod catalog_cases;
use catalog_cases::catalog_cases;
#[path = "support/conformance_cases.rs"]
mod conformance_cases;
use conformance_cases::conformance_cases;

/// The exact reply the contract shows for a case: test vectors written
/// from `docs/behavior.md`, checked beside the model's expectation.
enum Want {
    /// No reply at all.
    Silence,
    /// An error reply with this id, code and message (and `data`, if given).
    Error(Value, i64, &'static str, Option<Value>),
    /// A result with this id that satisfies the check.
    Result(Value, fn(&Value)),
    /// Exactly these bytes (row W1: the canonical form).
    Exact(Vec<u8>),
    /// These notification lines, exactly, then a result with this id that
    /// satisfies the check (T12, T13).
    Notified(Vec<&'static str>, Value, fn(&Value)),
}

struct Case {
    row: &'static str,
    what: &'static str,
    line: Vec<u8>,
    expect: Want,
}

fn case(row: &'static str, what: &'static str, line: impl Into<Vec<u8>>, expect: Want) -> Case {
    Case {
        row,
        what,
        line: line.into(),
        expect,
    }
}

fn err(id: Value, code: i64, message: &'static str) -> Want {
    Want::Error(id, code, message, None)
}

fn with_meta(extra: Value) -> Value {
    let mut m = meta();
    for (k, v) in extra.as_object().unwrap() {
        m[k] = v.clone();
    }
    m
}

fn discover(id: Value, meta: Value) -> String {
    line(id, "server/discover", json!({ "_meta": meta }))
}

fn supported() -> Value {
    json!(["2026-07-28"])
}

const PARSE: &str = "Parse error";
const NOT_OBJECT: &str =
    "Invalid request: a message must be a JSON object (batches are not part of MCP)";
const DUPLICATE: &str = "Invalid request: duplicate member names make the message ambiguous";
const BAD_JSONRPC: &str = "Invalid request: jsonrpc must be \"2.0\"";
const BAD_ID: &str = "Invalid request: id must be a string or an integer";
const NO_PARAMS: &str = "Invalid params: every request needs params with _meta";
const NO_META: &str = "Invalid params: params._meta is required";
const NO_VERSION: &str = "Invalid params: _meta needs io.modelcontextprotocol/protocolVersion";
const NO_CAPS: &str = "Invalid params: _meta needs io.modelcontextprotocol/clientCapabilities";
const BAD_CAPS: &str = "Invalid params: io.modelcontextprotocol/clientCapabilities must be a ClientCapabilities object";
const UNKNOWN_TOOL: &str = "Unknown tool: this server offers no tool of that name; see tools/list";

fn is_discover(r: &Value) {
    assert_eq!(r["result"]["supportedVersions"], json!(["2026-07-28"]));
}
fn is_tools_list(r: &Value) {
    assert!(r["result"]["tools"].is_array());
}
fn is_a104(r: &Value) {
    assert_eq!(r["result"]["isError"], false);
    assert_eq!(r["result"]["structuredContent"]["order_id"], "A-104");
    assert_eq!(r["result"]["structuredContent"]["status"], "processing");
}
fn is_forbidden(r: &Value) {
    assert_eq!(r["result"]["isError"], true);
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("forbidden: no order with that id")
    );
    assert!(r["result"].get("structuredContent").is_none());
}
fn is_invalid_get_order_args(r: &Value) {
    assert_eq!(r["result"]["isError"], true);
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Invalid arguments for get_order")
    );
}
fn is_python_book(r: &Value) {
    assert_eq!(r["result"]["isError"], false);
    assert_eq!(
        r["result"]["structuredContent"],
        json!({"product_id": "python-book", "stock": 3})
    );
}
fn is_unknown_product(r: &Value) {
    assert_eq!(r["result"]["isError"], true);
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("No product with that id")
    );
}
fn is_invalid_stock_args(r: &Value) {
    assert_eq!(r["result"]["isError"], true);
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Invalid arguments for lookup_stock")
    );
}

fn a104() -> Value {
    json!({ "order_id": "A-104" })
}

/// A file of this repository.
fn repo_file(path: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// The cases against the default (textbook) configuration.
fn default_cases() -> Vec<Case> {
    let ok = discover(json!(1), meta());
    let example = repo_file("data/example-43.2.request.json");
    let mut cases = vec![
        // The canonical form: Example 43.2 byte for byte.
        case(
            "W1",
            "Example 43.2",
            example.strip_suffix(b"\n").unwrap().to_vec(),
            Want::Exact(repo_file("data/example-43.2.response.json")),
        ),
        // The codes that may be emitted: each case checks its code, and a
        // test below checks every error case's code against the model's set.
        case("W2", "a parse error", "{", err(Value::Null, -32700, PARSE)),
        // Framing.
        case("F1", "blank line", "", Want::Silence),
        case("F1", "whitespace-only line", " \t \r", Want::Silence),
        case(
            "F2",
            "trailing \\r",
            format!("{ok}\r"),
            Want::Result(json!(1), is_discover),
        ),
        // Envelope.
        case(
            "E1",
            "not JSON",
            "{\"jsonrpc\":",
            err(Value::Null, -32700, PARSE),
        ),
        case(
            "E1",
            "trailing garbage",
            format!("{ok} x"),
            err(Value::Null, -32700, PARSE),
        ),
        case(
            "E2",
            "invalid UTF-8",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}".to_vec(),
            err(Value::Null, -32700, PARSE),
        ),
        case(
            "E3",
            "nested 128 levels deep",
            format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{}{}}}",
                "[".repeat(200),
                "]".repeat(200)
            ),
            err(
                Value::Null,
                -32700,
                "Parse error: nested 128 or more levels deep",
            ),
        ),
        case(
            "E3",
            "a number out of range",
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":[1e400]}}"#,
            err(Value::Null, -32700, "Parse error: a number is out of range"),
        ),
        case(
            "E4",
            "lone surrogate escape",
            "{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"m\"}",
            err(Value::Null, -32700, PARSE),
        ),
        case("E5", "a number", "42", err(Value::Null, -32600, NOT_OBJECT)),
        case(
            "E5",
            "a string",
            "\"server/discover\"",
            err(Value::Null, -32600, NOT_OBJECT),
        ),
        case("E5", "null", "null", err(Value::Null, -32600, NOT_OBJECT)),
        case(
            "E6",
            "a batch",
            format!("[{ok}]"),
            err(Value::Null, -32600, NOT_OBJECT),
        ),
        case(
            "E6",
            "an empty batch",
            "[]",
            err(Value::Null, -32600, NOT_OBJECT),
        ),
        case(
            "E7",
            "jsonrpc missing",
            r#"{"id":7,"method":"server/discover"}"#,
            err(json!(7), -32600, BAD_JSONRPC),
        ),
        case(
            "E8",
            "jsonrpc \"1.0\"",
            r#"{"jsonrpc":"1.0","id":7,"method":"server/discover"}"#,
            err(json!(7), -32600, BAD_JSONRPC),
        ),
        case(
            "E8",
            "jsonrpc 2.0 as a number",
            r#"{"jsonrpc":2.0,"id":7,"method":"server/discover"}"#,
            err(json!(7), -32600, BAD_JSONRPC),
        ),
    ];
    for bad in ["null", "1.5", "1.0", "1e3", "true", "{}", "[]"] {
        cases.push(case(
            "E9",
            "id of the wrong type",
            format!(r#"{{"jsonrpc":"2.0","id":{bad},"method":"server/discover","params":{{"_meta":{}}}}}"#, meta()),
            err(Value::Null, -32600, BAD_ID),
        ));
    }
    for id in [
        "0",
        "-1",
        "18446744073709551616",
        "123456789012345678901234567890",
        "\"x\"",
        "\"\"",
        "\"книга📚\"",
        "\"\\u00e9\"",
    ] {
        let id_value: Value = serde_json::from_str(id).unwrap();
        cases.push(case(
            "E10",
            "id echoed exactly",
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"server/discover","params":{{"_meta":{}}}}}"#, meta()),
            Want::Result(id_value, is_discover),
        ));
    }
    cases.extend([
        case("E11", "duplicate at the top level", format!(r#"{{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"server/discover","params":{{"_meta":{}}}}}"#, meta()), err(json!(1), -32600, DUPLICATE)),
        case("E11", "duplicate id", format!(r#"{{"jsonrpc":"2.0","id":1,"id":2,"method":"server/discover","params":{{"_meta":{}}}}}"#, meta()), err(Value::Null, -32600, DUPLICATE)),
        case("E12", "duplicate in params", format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{"_meta":{},"x":1,"x":2}}}}"#, meta()), err(json!(1), -32600, DUPLICATE)),
        case("E12", "duplicate in _meta", r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#, err(json!(1), -32600, DUPLICATE)),
        case("E12", "duplicate in arguments", format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"_meta":{},"name":"get_order","arguments":{{"order_id":"A-104","order_id":"B-205"}}}}}}"#, meta()), err(json!(1), -32600, DUPLICATE)),
        case("E12", "duplicate deep inside clientCapabilities", r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"experimental":{"a":{"b":1,"b":1}}}}}}"#, err(json!(1), -32600, DUPLICATE)),
        case("E13", "a client's result response", r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, Want::Silence),
        case("E13", "a client's error response", r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#, Want::Silence),
        case("E14", "no method", r#"{"jsonrpc":"2.0","id":3}"#, err(json!(3), -32600, "Invalid request: method is required")),
        case("E15", "method not a string", r#"{"jsonrpc":"2.0","id":3,"method":["tools/list"]}"#, err(json!(3), -32600, "Invalid request: method must be a string")),
        case("E16", "notification with an unknown method", r#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#, Want::Silence),
        case("E16", "notification with broken params", r#"{"jsonrpc":"2.0","method":"tools/call","params":7}"#, Want::Silence),
        case("E16", "notifications/cancelled", r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#, Want::Silence),
        case("E18", "cancellation of a request already answered", r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user gave up"}}"#, Want::Silence),
        case("E18", "cancellation without params", r#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#, Want::Silence),
        case("E18", "cancellation with a malformed requestId", r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}}"#, Want::Silence),
        case("E16", "notification that is invalid JSON-RPC", r#"{"jsonrpc":"1.0","method":"notifications/x"}"#, err(Value::Null, -32600, BAD_JSONRPC)),
        case("E17", "unknown top-level member", format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{"_meta":{}}},"extra":[1]}}"#, meta()), Want::Result(json!(1), is_discover)),
        // _meta and versions.
        case("M1", "no params", r#"{"jsonrpc":"2.0","id":1,"method":"server/discover"}"#, err(json!(1), -32602, NO_PARAMS)),
        case("M2", "params an array", r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":[]}"#, err(json!(1), -32602, "Invalid params: params must be an object")),
        case("M2", "params a string", r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":"x"}"#, err(json!(1), -32602, "Invalid params: params must be an object")),
        case("M3", "_meta missing", line(json!(1), "server/discover", json!({})), err(json!(1), -32602, NO_META)),
        case("M4", "_meta not an object", line(json!(1), "server/discover", json!({"_meta": "2026-07-28"})), err(json!(1), -32602, "Invalid params: params._meta must be an object")),
        case("M5", "protocolVersion missing", discover(json!(1), json!({"io.modelcontextprotocol/clientCapabilities": {}})), err(json!(1), -32602, NO_VERSION)),
        case("M6", "protocolVersion not a string", discover(json!(1), with_meta(json!({"io.modelcontextprotocol/protocolVersion": 20260728}))), err(json!(1), -32602, "Invalid params: io.modelcontextprotocol/protocolVersion must be a string")),
        case("M7", "protocolVersion 2025-11-25", discover(json!(1), with_meta(json!({"io.modelcontextprotocol/protocolVersion": "2025-11-25"}))), Want::Error(json!(1), -32022, "Unsupported protocol version", Some(json!({"supported": supported(), "requested": "2025-11-25"})))),
        case("M7", "protocolVersion 1900-01-01", discover(json!("v"), with_meta(json!({"io.modelcontextprotocol/protocolVersion": "1900-01-01"}))), Want::Error(json!("v"), -32022, "Unsupported protocol version", Some(json!({"supported": supported(), "requested": "1900-01-01"})))),
        case("M7", "unsupported version on tools/call", call(json!(2), with_meta(json!({"io.modelcontextprotocol/protocolVersion": "2099-01-01"})), "get_order", a104()), Want::Error(json!(2), -32022, "Unsupported protocol version", Some(json!({"supported": supported(), "requested": "2099-01-01"})))),
        case("M8", "clientCapabilities missing", discover(json!(1), json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"})), err(json!(1), -32602, NO_CAPS)),
        case("M9", "clientCapabilities an array", discover(json!(1), with_meta(json!({"io.modelcontextprotocol/clientCapabilities": []}))), err(json!(1), -32602, BAD_CAPS)),
        case("M9", "a defined capability not an object", discover(json!(1), with_meta(json!({"io.modelcontextprotocol/clientCapabilities": {"sampling": true}}))), err(json!(1), -32602, BAD_CAPS)),
        case("M10", "unsupported version and no capabilities: version first", discover(json!(1), json!({"io.modelcontextprotocol/protocolVersion": "1900-01-01"})), Want::Error(json!(1), -32022, "Unsupported protocol version", Some(json!({"supported": supported(), "requested": "1900-01-01"})))),
        case("M11", "clientInfo without version", discover(json!(1), with_meta(json!({"io.modelcontextprotocol/clientInfo": {"name": "x"}}))), err(json!(1), -32602, "Invalid params: io.modelcontextprotocol/clientInfo must be an Implementation with string name and version")),
        case("M12", "logLevel not a LoggingLevel", discover(json!(1), with_meta(json!({"io.modelcontextprotocol/logLevel": "loud"}))), err(json!(1), -32602, "Invalid params: io.modelcontextprotocol/logLevel must be a LoggingLevel such as \"info\"")),
        case("M12", "logLevel valid", discover(json!(1), with_meta(json!({"io.modelcontextprotocol/logLevel": "debug"}))), Want::Result(json!(1), is_discover)),
        case("M13", "progressToken fractional", discover(json!(1), with_meta(json!({"progressToken": 1.5}))), err(json!(1), -32602, "Invalid params: progressToken must be a string or an integer")),
        case("M13", "progressToken a string", discover(json!(1), with_meta(json!({"progressToken": "p"}))), Want::Result(json!(1), is_discover)),
        case("M14", "unknown _meta members", discover(json!(1), with_meta(json!({"com.example/trace": {"x": 1}, "io.modelcontextprotocol/future": 1}))), Want::Result(json!(1), is_discover)),
        case("M15", "unknown method without _meta", r#"{"jsonrpc":"2.0","id":1,"method":"no/such"}"#, err(json!(1), -32602, NO_PARAMS)),
        case("M16", "clientInfo claiming to be administrator", call(json!(4), with_meta(json!({"io.modelcontextprotocol/clientInfo": {"name": "administrator", "version": "1"}})), "get_order", json!({"order_id": "B-205"})), Want::Result(json!(4), is_forbidden)),
        // Methods.
        case("D1", "server/discover", ok.clone(), Want::Result(json!(1), is_discover)),
        case("D1", "server/discover with extra params", line(json!(1), "server/discover", json!({"_meta": meta(), "verbose": true})), Want::Result(json!(1), is_discover)),
        case("D2", "tools/list", line(json!(2), "tools/list", json!({"_meta": meta()})), Want::Result(json!(2), is_tools_list)),
        case("D3", "tools/list with a cursor", line(json!(2), "tools/list", json!({"_meta": meta(), "cursor": "next"})), err(json!(2), -32602, "Invalid cursor: this server never issues cursors")),
        case("D4", "unknown method", line(json!(9), "resources/list", json!({"_meta": meta()})), err(json!(9), -32601, "Method not found")),
        case("D4", "subscriptions/listen is not offered (DEC16)", line(json!(9), "subscriptions/listen", json!({"_meta": meta(), "notifications": {"toolsListChanged": true}})), err(json!(9), -32601, "Method not found")),
        case("D5", "ping", line(json!(9), "ping", json!({"_meta": meta()})), err(json!(9), -32601, "Method not found: removed in protocol version 2026-07-28")),
        case("D5", "logging/setLevel", line(json!(9), "logging/setLevel", json!({"_meta": meta(), "level": "info"})), err(json!(9), -32601, "Method not found: removed in protocol version 2026-07-28")),
        case("D6", "initialize", line(json!(0), "initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "legacy", "version": "1"}})), Want::Error(json!(0), -32022, "Unsupported protocol version: this server has no initialize handshake; use one of data.supported", Some(json!({"supported": supported(), "requested": "2025-11-25"})))),
        case("D6", "initialize without a string protocolVersion", line(json!(0), "initialize", json!({"capabilities": {}})), Want::Error(json!(0), -32602, "Invalid params: initialize needs a string protocolVersion, and this server has no initialize handshake; use one of data.supported", Some(json!({"supported": supported()})))),
        case("D7", "initialize with modern _meta", line(json!(0), "initialize", json!({"_meta": meta()})), Want::Error(json!(0), -32601, "Method not found: initialize was removed in protocol version 2026-07-28; send server/discover or any request with one of data.supported", Some(json!({"supported": supported()})))),
        case("D7", "initialize with modern _meta and a legacy protocolVersion", line(json!(0), "initialize", json!({"_meta": meta(), "protocolVersion": "2025-11-25", "capabilities": {}})), Want::Error(json!(0), -32601, "Method not found: initialize was removed in protocol version 2026-07-28; send server/discover or any request with one of data.supported", Some(json!({"supported": supported()})))),
        case("M8", "initialize with modern _meta lacking clientCapabilities (D7): _meta's -32602 first", line(json!(0), "initialize", json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}})), err(json!(0), -32602, "Invalid params: _meta needs io.modelcontextprotocol/clientCapabilities")),
        // Tools.
        case("T1", "tools/call with no name", line(json!(5), "tools/call", json!({"_meta": meta(), "arguments": a104()})), err(json!(5), -32602, "Invalid params: tools/call needs a string name")),
        case("T1", "tools/call with a number for name", line(json!(5), "tools/call", json!({"_meta": meta(), "name": 1})), err(json!(5), -32602, "Invalid params: tools/call needs a string name")),
        case("T2", "arguments an array", line(json!(5), "tools/call", json!({"_meta": meta(), "name": "get_order", "arguments": ["A-104"]})), err(json!(5), -32602, "Invalid params: tools/call arguments must be an object")),
        case("T2", "arguments a string", line(json!(5), "tools/call", json!({"_meta": meta(), "name": "get_order", "arguments": "A-104"})), err(json!(5), -32602, "Invalid params: tools/call arguments must be an object")),
        case("T3", "unknown tool", call(json!(5), meta(), "cancel_order", a104()), err(json!(5), -32602, UNKNOWN_TOOL)),
        case("T3", "lookup_stock without a stock table", call(json!(5), meta(), "lookup_stock", json!({"product_id": "python-book"})), err(json!(5), -32602, UNKNOWN_TOOL)),
        case("T4", "get_order of one's own order", call(json!(3), meta(), "get_order", a104()), Want::Result(json!(3), is_a104)),
        case("T5", "get_order of someone else's order", call(json!(4), meta(), "get_order", json!({"order_id": "B-205"})), Want::Result(json!(4), is_forbidden)),
        case("T5", "get_order of no order", call(json!(4), meta(), "get_order", json!({"order_id": "Z-999"})), Want::Result(json!(4), is_forbidden)),
        case("T6", "order_id a number", call(json!(6), meta(), "get_order", json!({"order_id": 104})), Want::Result(json!(6), is_invalid_get_order_args)),
        case("T6", "no arguments", line(json!(6), "tools/call", json!({"_meta": meta(), "name": "get_order"})), Want::Result(json!(6), is_invalid_get_order_args)),
        case("T6", "order_id null", call(json!(6), meta(), "get_order", json!({"order_id": null})), Want::Result(json!(6), is_invalid_get_order_args)),
        case("T7", "extra arguments to get_order", call(json!(7), meta(), "get_order", json!({"order_id": "A-104", "verbose": true})), Want::Result(json!(7), is_a104)),
    ]);
    cases
}

/// The cases against the example configuration, which has a stock table.
fn stock_cases() -> Vec<Case> {
    vec![
        case(
            "T8",
            "lookup_stock of a known product",
            call(
                json!(8),
                meta(),
                "lookup_stock",
                json!({"product_id": "python-book"}),
            ),
            Want::Result(json!(8), is_python_book),
        ),
        case(
            "T8",
            "lookup_stock of an unknown product",
            call(
                json!(8),
                meta(),
                "lookup_stock",
                json!({"product_id": "cobol-book"}),
            ),
            Want::Result(json!(8), is_unknown_product),
        ),
        case(
            "T9",
            "lookup_stock with an extra argument",
            call(
                json!(8),
                meta(),
                "lookup_stock",
                json!({"product_id": "python-book", "warehouse": "x"}),
            ),
            Want::Result(json!(8), is_invalid_stock_args),
        ),
        case(
            "T9",
            "lookup_stock with product_id a number",
            call(json!(8), meta(), "lookup_stock", json!({"product_id": 3})),
            Want::Result(json!(8), is_invalid_stock_args),
        ),
    ]
}

fn method_of(line: &[u8]) -> Option<String> {
    let v: Value = serde_json::from_slice(line).ok()?;
    v.get("method")?.as_str().map(str::to_owned)
}

fn run(server: &Server, cases: &[Case]) {
    for c in cases {
        let label = format!("{} ({})", c.row, c.what);
        let out = server.respond(&c.line);
        match (&c.expect, out) {
            (Want::Silence, None) => {}
            (Want::Silence, Some(out)) => panic!(
                "{label}: expected no reply, got {}",
                String::from_utf8_lossy(&out)
            ),
            (_, None) => panic!("{label}: expected a reply, got none"),
            (expect, Some(out)) => {
                // T12, T13: the notifications, byte for byte, then the
                // response, judged as a result.
                let (expect, out) = match expect {
                    Want::Notified(lines, id, check) => {
                        let text = String::from_utf8_lossy(&out).into_owned();
                        let got: Vec<&str> = text.lines().collect();
                        assert_eq!(got.len(), lines.len() + 1, "{label}: {text}");
                        assert_eq!(&got[..lines.len()], lines.as_slice(), "{label}");
                        let last = format!("{}\n", got[lines.len()]);
                        (&Want::Result(id.clone(), *check), last.into_bytes())
                    }
                    other => (other, out),
                };
                assert_eq!(out.last(), Some(&b'\n'), "{label}");
                assert_eq!(
                    out.iter().filter(|&&b| b == b'\n').count(),
                    1,
                    "{label}: one line"
                );
                let reply: Value =
                    serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{label}: {e}"));
                validate(method_of(&c.line).as_deref(), &reply);
                assert_eq!(reply["jsonrpc"], "2.0", "{label}");
                match expect {
                    Want::Error(id, code, message, data) => {
                        assert!(reply.get("result").is_none(), "{label}: {reply}");
                        assert_eq!(&reply["id"], id, "{label}: id");
                        assert_eq!(reply["error"]["code"], *code, "{label}: {reply}");
                        assert_eq!(reply["error"]["message"], *message, "{label}");
                        assert_eq!(reply["error"].get("data"), data.as_ref(), "{label}: data");
                    }
                    Want::Result(id, check) => {
                        assert!(reply.get("error").is_none(), "{label}: {reply}");
                        assert_eq!(&reply["id"], id, "{label}: id");
                        assert_eq!(reply["result"]["resultType"], "complete", "{label}");
                        assert_eq!(
                            reply["result"]["_meta"]["io.modelcontextprotocol/serverInfo"],
                            json!({"name": "book-orders", "version": "1.0.0"}),
                            "{label}"
                        );
                        check(&reply);
                    }
                    Want::Exact(bytes) => assert_eq!(
                        String::from_utf8_lossy(&out),
                        String::from_utf8_lossy(bytes),
                        "{label}"
                    ),
                    Want::Silence | Want::Notified(..) => unreachable!(),
                }
                // Integer ids beyond 64 bits: echoed digit for digit.
                if let (Ok(line), Want::Result(..)) = (model::parse(&c.line), &c.expect)
                    && let [raw] = line.ids.as_slice()
                {
                    let echoed = model::read_reply(&out).map(|r| r.id).unwrap_or_default();
                    assert_eq!(&echoed, raw, "{label}: raw id");
                }
            }
        }
        // The model names this case's row and predicts this very reply.
        let expect = model::expect_line(server.config(), &c.line);
        assert!(
            expect.rows().any(|r| r == c.row),
            "{label}: the model decides by {} (noting {:?})",
            expect.row,
            expect.notes
        );
        let reply = server.respond(&c.line).unwrap_or_default();
        if let Err(e) = expect.check(server.config(), &reply) {
            panic!("{label}: {e}");
        }
    }
}

#[test]
fn default_configuration_rows() {
    run(&Server::new(Config::default()), &default_cases());
}

#[test]
fn conformance_configuration_rows() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/conformance.json"
    ))
    .unwrap();
    let server = Server::new(Config::from_json(&bytes).unwrap());
    run(&server, &conformance_cases());
    let list = support::reply(
        &server,
        &line(json!(1), "tools/list", json!({"_meta": meta()})),
    );
    validate(Some("tools/list"), &list);
    let tool = list["result"]["tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "test_simple_text"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        tool["inputSchema"],
        json!({"type": "object", "additionalProperties": false})
    );
}

#[test]
fn stock_configuration_rows() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/config.example.json"
    ))
    .unwrap();
    let server = Server::new(Config::from_json(&bytes).unwrap());
    run(&server, &stock_cases());
    run(&server, &catalog_cases());
    // And the example configuration lists both tools, in name order.
    let list = support::reply(
        &server,
        &line(json!(1), "tools/list", json!({"_meta": meta()})),
    );
    validate(Some("tools/list"), &list);
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["get_order", "lookup_stock"]);
    assert_eq!(
        list["result"]["tools"][1]["inputSchema"]["additionalProperties"],
        false
    );
}

#[test]
fn oversized_line_row() {
    // F3: over the configured limit, whatever it holds.
    let server = Server::new(Config::default().with_max_line_bytes(1024).unwrap());
    let long = format!("{}{}", " ".repeat(1100), discover(json!(1), meta()));
    let out = server.respond(long.as_bytes()).unwrap();
    let reply: Value = serde_json::from_slice(&out).unwrap();
    validate(None, &reply);
    // The reply is the model's and row F3's fixed error (docs/rows.json),
    // with id null: no code or message is restated here.
    let expect = model::expect_line(server.config(), long.as_bytes());
    assert_eq!(expect.row, "F3");
    if let Err(e) = expect.check(server.config(), &out) {
        panic!("{e}");
    }
    let (code, message) = model::rows::fixed("F3");
    assert_eq!(
        reply,
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}})
    );
}

#[test]
fn every_documented_row_has_a_case_and_every_case_a_row() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/behavior.md")).unwrap();
    let documented: BTreeSet<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split(' ').next())
        .filter(|id| {
            id.len() >= 2
                && id.starts_with(['F', 'E', 'M', 'D', 'T', 'W', 'R', 'P', 'C'])
                && id[1..].chars().all(|c| c.is_ascii_digit())
        })
        .map(str::to_owned)
        .collect();
    let mut tested: BTreeSet<String> = default_cases()
        .iter()
        .chain(stock_cases().iter())
        .chain(catalog_cases().iter())
        .chain(conformance_cases().iter())
        .map(|c| c.row.to_owned())
        .collect();
    tested.insert("F3".into());
    assert_eq!(documented, tested, "rows of docs/behavior.md vs cases here");
}

#[test]
fn the_schema_check_can_fail() {
    // The oracle's own oracle: a reply missing a required member is refused.
    let broken = json!({"jsonrpc": "2.0", "id": 1, "result": {"supportedVersions": ["2026-07-28"], "capabilities": {}, "ttlMs": 1, "cacheScope": "public"}});
    assert!(
        support::schema()
            .validate_reply(Some("server/discover"), &broken)
            .is_err()
    );
    let bad_code = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32022, "message": "x"}});
    assert!(support::schema().validate_reply(None, &bad_code).is_err());
}

#[test]
fn no_row_depends_on_what_came_before() {
    // Statelessness on a session: each line's reply equals its reply alone.
    let server = Server::new(Config::default());
    let mut session = mcp_reference::Session::new(&server);
    let cases = default_cases();
    for c in cases.iter().chain(cases.iter().rev()) {
        let mut out = Vec::new();
        session.handle(&c.line, &mut out);
        assert_eq!(
            Some(out).filter(|o| !o.is_empty()),
            server.respond(&c.line),
            "{}",
            c.row
        );
    }
}

#[test]
fn stock_items_are_configuration_not_requests() {
    // The configured snapshot is never changed by any request.
    let config = Config::default()
        .with_stock(Some(vec![StockItem {
            product_id: "p".into(),
            stock: 1,
        }]))
        .unwrap();
    let before = config.clone();
    let server = Server::new(config);
    for c in default_cases().iter().chain(stock_cases().iter()) {
        server.respond(&c.line);
    }
    assert_eq!(server.config(), &before);
}

#[test]
fn only_the_w2_codes_are_emitted() {
    // W2: every error any case draws, in both configurations, has a code of
    // the model's set, and every code of the set is drawn by some case.
    let stock = Config::default()
        .with_stock(Some(vec![StockItem {
            product_id: "python-book".into(),
            stock: 3,
        }]))
        .unwrap();
    let mut seen = BTreeSet::new();
    for (server, cases) in [
        (Server::new(Config::default()), default_cases()),
        (Server::new(stock), stock_cases()),
    ] {
        for c in &cases {
            let Some(out) = server.respond(&c.line) else {
                continue;
            };
            let reply: Value = serde_json::from_slice(&out).unwrap();
            if let Some(code) = reply["error"]["code"].as_i64() {
                assert!(
                    model::ERROR_CODES.contains(&code),
                    "{} ({}): {code}",
                    c.row,
                    c.what
                );
                seen.insert(code);
            }
        }
    }
    let all: BTreeSet<i64> = model::ERROR_CODES.iter().copied().collect();
    assert_eq!(seen, all);
}

#[test]
fn forbidden_is_nonexistent_on_every_catalog_path() {
    // DEC12 over the catalog (R6, P5, C1): another user's order and an
    // order that does not exist get the same bytes, apart from nothing
    // (the ids are equal here), on resources/read, prompts/get and
    // completion; and the textbook's configuration offers none of it (D4).
    let bytes = repo_file("data/config.example.json");
    let server = Server::new(Config::from_json(&bytes).unwrap());
    let p = |extra: Value| {
        let mut p = json!({ "_meta": meta() });
        for (k, v) in extra.as_object().unwrap() {
            p[k] = v.clone();
        }
        p
    };
    let pairs = [
        (
            "resources/read",
            json!({"uri": "book-orders://orders/B-205"}),
            json!({"uri": "book-orders://orders/Z-999"}),
        ),
        (
            "prompts/get",
            json!({"name": "reply_to_customer", "arguments": {"order_id": "B-205"}}),
            json!({"name": "reply_to_customer", "arguments": {"order_id": "Z-999"}}),
        ),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "reply_to_customer"}, "argument": {"name": "order_id", "value": "B-2"}}),
            json!({"ref": {"type": "ref/prompt", "name": "reply_to_customer"}, "argument": {"name": "order_id", "value": "Z-9"}}),
        ),
    ];
    for (method, forbidden, missing) in pairs {
        let a = server
            .respond(line(json!(7), method, p(forbidden.clone())).as_bytes())
            .unwrap();
        let b = server
            .respond(line(json!(7), method, p(missing.clone())).as_bytes())
            .unwrap();
        // R6 echoes the client's own uri in `data.uri`: apart from it, the
        // bytes are the same, and nothing else of the order appears.
        let (a, b) = (String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
        let (a, b) = match (forbidden["uri"].as_str(), missing["uri"].as_str()) {
            (Some(f), Some(m)) => (a.replace(f, "URI"), b.replace(m, "URI")),
            _ => (a.into_owned(), b.into_owned()),
        };
        assert_eq!(a, b, "{method}");
        for secret in ["B-205", "tomas", "shipped", "2026-09-12"] {
            assert!(!a.contains(secret), "{method}: {secret}");
        }
    }
    let textbook = Server::new(Config::default());
    for method in [
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "prompts/list",
        "prompts/get",
        "completion/complete",
    ] {
        let reply = support::reply(&textbook, &line(json!(1), method, p(json!({}))));
        assert_eq!(reply["error"]["code"], -32601, "{method}");
    }
}
