//! The HTTP test vectors, `vectors/http.jsonl` (docs/vectors.md, "HTTP
//! vectors"): each case below, answered by the binding for the `http`
//! fixture (`vectors/configs/http.json`: the textbook with `get_order`'s
//! `order_id` mirrored as `Order-Id`, and the example configuration's
//! catalog of resources and prompts) and checked against the model, with
//! its row's level and source from `docs/rows.json`. The committed file must
//! be what this generates, byte for byte; `MCP_UPDATE_VECTORS=1` rewrites
//! it. The host the vectors were made for is written `{authority}`, which a
//! replayer replaces with its server's `host:port`.

#[path = "support/switches.rs"]
mod switches;
use std::collections::BTreeMap;
use std::path::Path;

use mcp_reference::Config;
use mcp_reference_testkit::http::{HttpChecker, conforming};
use mcp_reference_testkit::model::http::{HttpRequest, Listen};
use mcp_reference_testkit::model::rows;
use serde_json::{Value, json};

const LISTEN: Listen = Listen {
    port: 8080,
    loopback: true,
};
const AUTHORITY: &str = "127.0.0.1:8080";

fn config() -> Config {
    let headers = BTreeMap::from([(
        "get_order".to_owned(),
        BTreeMap::from([("order_id".to_owned(), "Order-Id".to_owned())]),
    )]);
    // The catalog of the example configuration (issue 32), so that
    // `Mcp-Name` is exercised on resources/read and prompts/get too.
    let example = Config::from_json(include_bytes!("../data/config.example.json")).unwrap();
    // And the conformance fixture's tool with progress (row H18).
    let conformance = Config::from_json(include_bytes!("../data/conformance.json")).unwrap();
    let mut catalog = example.catalog().clone();
    catalog.content_tools.extend(
        conformance
            .catalog()
            .content_tools
            .iter()
            .filter(|t| t.name == "test_tool_with_progress")
            .cloned(),
    );
    Config::default()
        .with_param_headers(headers)
        .and_then(|c| c.with_catalog(catalog))
        .unwrap()
}

fn read(id: u32, uri: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"resources/read","params":{{"uri":"{uri}",{META}}}}}"#
    )
}

fn prompt(id: u32, name: &str, order: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"prompts/get","params":{{"name":"{name}","arguments":{{"order_id":"{order}"}},{META}}}}}"#
    )
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"book-host","version":"1.0.0"}}"#;

fn call(id: u32, name: &str, order: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{{"order_id":"{order}"}},{META}}}}}"#
    )
}

fn discover(id: u32) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"server/discover","params":{{{META}}}}}"#)
}

/// One case: a name (its row first), a comment, the body, how to change
/// the conforming request, and for an H15 case, which the core's row
/// decides, the level and source of that row's outcome over HTTP.
type Case = (
    &'static str,
    &'static str,
    String,
    fn(&mut HttpRequest),
    Option<(&'static str, &'static str)>,
);

fn set(r: &mut HttpRequest, name: &str, value: &str) {
    r.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    r.headers.push((name.to_owned(), value.as_bytes().to_vec()));
}

fn drop_header(r: &mut HttpRequest, name: &str) {
    r.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
}

fn cases() -> Vec<Case> {
    vec![
        ("H15-example-43.2", "Example 43.2's request over HTTP: 200 and the book's reply", call(3, "get_order", "A-104"), |_| {}, None),
        ("H15-forbidden", "B-205 as mira over HTTP: 200, the forbidden tool error", call(4, "get_order", "B-205"), |_| {}, None),
        ("H15-discover", "server/discover over HTTP: 200", discover(1), |_| {}, None),
        ("H15-unknown-tool", "cancel_order over HTTP: 400 with -32602, nothing runs", call(5, "cancel_order", "A-104"), |_| {}, None),
        ("H15-unknown-method", "an unknown method: 404 with -32601", format!(r#"{{"jsonrpc":"2.0","id":6,"method":"mcp-vectors/unknown","params":{{{META}}}}}"#), |_| {}, None),
        ("H15-unsupported-version", "a version not served, header and body agreeing: 400 with -32022", discover(7).replace("2026-07-28", "1900-01-01"), |_| {}, None),
        ("H15-missing-capabilities", "no clientCapabilities: 400 with -32602", discover(8).replace(r#","io.modelcontextprotocol/clientCapabilities":{}"#, ""), |_| {}, None),
        ("H1-other-path", "a POST to another path: 404", discover(1), |r| r.target = "/".into(), None),
        ("H2-get", "GET at the endpoint: 405 with allow: POST", String::new(), |r| { r.method = "GET".into(); r.headers.retain(|(n, _)| n == "Host"); set(r, "Accept", "text/event-stream"); }, None),
        ("H2-delete", "DELETE at the endpoint: 405 with allow: POST", String::new(), |r| { r.method = "DELETE".into(); r.headers.retain(|(n, _)| n == "Host"); set(r, "Accept", "text/event-stream"); }, None),
        ("H3-foreign-origin", "a foreign Origin: 403", discover(1), |r| set(r, "Origin", "http://evil.example"), None),
        ("H15-own-origin", "the server's own loopback origin is allowed: 200", discover(1), |r| set(r, "Origin", "http://{authority}"), None),
        ("H4-foreign-host", "a foreign Host on a loopback server (DNS rebinding): 403", discover(1), |r| set(r, "Host", "evil.example"), None),
        ("H5-text-plain", "Content-Type text/plain: 415", discover(1), |r| set(r, "Content-Type", "text/plain"), None),
        ("H15-charset", "Content-Type with a charset parameter is JSON: 200", discover(1), |r| set(r, "Content-Type", "application/json; charset=utf-8"), None),
        ("H6-declared-length", "a Content-Length over the limit: 413", discover(1), |r| set(r, "Content-Length", "99999999"), None),
        ("H7-not-json", "a body that is not JSON: 400 with -32700", "{not json".into(), |_| {}, None),
        ("H7-batch", "a batch: 400 with -32600", format!("[{}]", discover(1)), |_| {}, None),
        ("H8-response", "a JSON-RPC response: 400, no body", r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into(), |_| {}, None),
        ("H9-notification", "a notification: 202, no body", r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#.into(), |_| {}, None),
        ("H10-version-missing", "no MCP-Protocol-Version: 400 with -32020", discover(1), |r| drop_header(r, "MCP-Protocol-Version"), Some(("textbook", "textbook:H10"))),
        ("H10-version-mismatch", "MCP-Protocol-Version 2025-11-25 over a 2026-07-28 body (the official Python SDK 2.3 answers it): 400 with -32020", discover(1), |r| set(r, "MCP-Protocol-Version", "2025-11-25"), None),
        ("H10-version-twice", "MCP-Protocol-Version twice: 400 with -32020", discover(1), |r| r.headers.push(("MCP-Protocol-Version".into(), b"2026-07-28".to_vec())), None),
        ("H11-method-mismatch", "Mcp-Method tools/list over a server/discover body: 400 with -32020", discover(1), |r| set(r, "Mcp-Method", "tools/list"), None),
        ("H11-method-case", "Mcp-Method values are case-sensitive: 400 with -32020", discover(1), |r| set(r, "Mcp-Method", "Server/Discover"), None),
        ("H12-name-missing", "a tools/call without Mcp-Name: 400 with -32020", call(3, "get_order", "A-104"), |r| drop_header(r, "Mcp-Name"), None),
        ("H12-name-mismatch", "Mcp-Name get_order over a cancel_order body (a gateway routing on it): 400 with -32020, nothing runs", call(5, "cancel_order", "A-104"), |r| set(r, "Mcp-Name", "get_order"), None),
        ("H12-read-name-missing", "a resources/read without Mcp-Name: 400 with -32020", read(20, "book-orders://orders/A-104"), |r| drop_header(r, "Mcp-Name"), None),
        ("H12-read-uri-mismatch", "Mcp-Name naming A-104's uri over a body reading B-205's: 400 with -32020, nothing read", read(21, "book-orders://orders/B-205"), |r| set(r, "Mcp-Name", "book-orders://orders/A-104"), None),
        ("H12-prompt-name-mismatch", "Mcp-Name returns_help over a reply_to_customer body: 400 with -32020", prompt(22, "reply_to_customer", "A-104"), |r| set(r, "Mcp-Name", "returns_help"), None),
        ("H15-read-order", "resources/read of A-104 with Mcp-Name its uri: 200, the snapshot, private", read(23, "book-orders://orders/A-104"), |_| {}, None),
        ("H15-read-forbidden", "resources/read of B-205 as mira: 400 with -32602, as for an order that does not exist", read(24, "book-orders://orders/B-205"), |_| {}, None),
        ("H15-read-base64", "a uri that is not plain ASCII travels as a Base64 sentinel in Mcp-Name: decoded, then 400 with -32602 (no such resource)", read(25, "book-orders://orders/\u{c4}-1"), |_| {}, None),
        ("H15-prompt-get", "prompts/get reply_to_customer for A-104 with Mcp-Name its name: 200", prompt(26, "reply_to_customer", "A-104"), |_| {}, None),
        ("H15-name-base64", "Mcp-Name as a Base64 sentinel is decoded: 200", call(3, "get_order", "A-104"), |r| set(r, "Mcp-Name", "=?base64?Z2V0X29yZGVy?="), None),
        ("H15-lowercase-headers", "header names in lower case are the same headers: 200", call(3, "get_order", "A-104"), |r| for (n, _) in &mut r.headers { *n = n.to_ascii_lowercase(); }, None),
        ("H13-bad-base64", "an Mcp-Name sentinel that is not Base64: 400 with -32020", call(3, "get_order", "A-104"), |r| set(r, "Mcp-Name", "=?base64?***?="), None),
        ("H14-param-mismatch", "Mcp-Param-Order-Id A-104 over a B-205 body: 400 with -32020, nothing runs", call(4, "get_order", "B-205"), |r| set(r, "Mcp-Param-Order-Id", "A-104"), None),
        ("H14-param-for-null", "Mcp-Param-Order-Id for an order_id that is null: 400 with -32020", call(9, "get_order", "X").replace("\"X\"", "null"), |r| set(r, "Mcp-Param-Order-Id", "A-104"), None),
        ("H14-param-missing", "no Mcp-Param-Order-Id for an order_id in the body: 400 with -32020", call(3, "get_order", "A-104"), |r| drop_header(r, "Mcp-Param-Order-Id"), None),
        ("H15-param-base64", "Mcp-Param-Order-Id as a Base64 sentinel is decoded: 200", call(3, "get_order", "A-104"), |r| set(r, "Mcp-Param-Order-Id", "=?base64?QS0xMDQ=?="), None),
        ("H16-initialize", "a legacy client's initialize POST (its body names no modern version, so the version header is not compared): 400 with -32022 naming the asked version and data.supported", r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#.into(), |r| set(r, "MCP-Protocol-Version", "2025-11-25"), Some(("textbook", "textbook:H16"))),
        ("H15-no-meta-under-header", "a body without _meta under a valid MCP-Protocol-Version header: nothing to compare, so 400 with _meta's -32602", r#"{"jsonrpc":"2.0","id":10,"method":"server/discover","params":{}}"#.into(), |r| set(r, "MCP-Protocol-Version", "2026-07-28"), None),
        ("H15-no-version-under-header", "a _meta without protocolVersion under a valid MCP-Protocol-Version header: 400 with _meta's -32602", r#"{"jsonrpc":"2.0","id":11,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}"#.into(), |r| set(r, "MCP-Protocol-Version", "2026-07-28"), None),
        ("H16-initialize-modern", "initialize with modern _meta and agreeing headers, a method 2026-07-28 does not have: 404 with -32601 and data.supported", format!(r#"{{"jsonrpc":"2.0","id":12,"method":"initialize","params":{{{META}}}}}"#), |_| {}, None),
        ("H18-json-only", "a call asking for progress whose Accept allows no stream (application/json only): the response alone, as application/json, the notifications dropped", r#"{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"test_tool_with_progress","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p"}}}"#.to_string(), |r| set(r, "Accept", "application/json"), None),
        ("A9-token-ignored", "no authorization configured: a request carrying a bearer token (one naming tomas) is answered as without, as the launch user mira: A-104 is hers", call(3, "get_order", "A-104"), |r| r.headers.push(("Authorization".into(), bearer_tomas())), None),
        ("A9-token-no-user", "no authorization configured: a bearer token naming tomas does not make B-205 readable; mira gets the forbidden tool error", call(4, "get_order", "B-205"), |r| r.headers.push(("Authorization".into(), bearer_tomas())), None),
        ("H17-session-id", "Mcp-Session-Id and Last-Event-ID are ignored: 200, no session id", discover(1), |r| { set(r, "Mcp-Session-Id", "abc"); set(r, "Last-Event-ID", "7"); }, None),
    ]
}

/// `Bearer` and an unsigned token (`alg: none`) whose `sub` is tomas, for
/// this fixture's resource: what a client of a server without
/// authorization may still send (row A9), never a basis for whose orders
/// are read.
fn bearer_tomas() -> Vec<u8> {
    use base64::Engine as _;
    let b64 = |v: &Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
    let header = json!({"typ": "at+jwt", "alg": "none"});
    let claims = json!({"iss": "http://127.0.0.1:9000", "sub": "tomas", "aud": "http://127.0.0.1:8080/mcp", "scope": "orders:read", "exp": 4_102_444_800u64});
    format!("Bearer {}.{}.", b64(&header), b64(&claims)).into_bytes()
}

/// One vector, its members in the documented order (docs/vectors.md).
#[derive(serde::Serialize)]
struct Vector<'a> {
    id: String,
    rule: &'a str,
    comment: &'a str,
    config: &'a str,
    level: &'a str,
    source: &'a str,
    request: Request,
    expect: Value,
    response: Reply,
}

#[derive(serde::Serialize)]
struct Request {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: String,
}

#[derive(serde::Serialize)]
struct Reply {
    status: u16,
    headers: serde_json::Map<String, Value>,
    body: String,
}

fn request_json(r: &HttpRequest) -> Request {
    let headers = r
        .headers
        .iter()
        .map(|(n, v)| {
            let v = String::from_utf8_lossy(v).replace(AUTHORITY, "{authority}");
            (n.clone(), v)
        })
        .collect();
    Request {
        method: r.method.clone(),
        target: r.target.clone(),
        headers,
        body: String::from_utf8_lossy(&r.body).into_owned(),
    }
}

/// The file, as generated.
fn generate() -> String {
    let config = config();
    let checker = HttpChecker::new(&config, LISTEN);
    let mut out = String::new();
    for (name, comment, body, change, level) in cases() {
        let mut request = HttpRequest {
            method: "POST".into(),
            target: "/mcp".into(),
            headers: conforming(&config, LISTEN, body.as_bytes()),
            body: body.into_bytes(),
        };
        change(&mut request);
        for (_, v) in &mut request.headers {
            if v == b"http://{authority}" {
                *v = format!("http://{AUTHORITY}").into_bytes();
            }
        }
        let (expect, response) = checker
            .check(&request)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let rule = name.split('-').next().unwrap_or_default();
        // A9 (no authorization configured): the core answers the body, as
        // without the token (H15).
        assert!(
            expect.row == rule || (rule == "A9" && expect.row == "H15"),
            "{name}: the model decides by another row ({})",
            expect.row
        );
        let row = rows::row(rule).unwrap_or_else(|| panic!("no row {rule}"));
        // The level and source: the case's own where the specification's
        // MUST is conditional (a dual-era server may answer a request
        // without the version header, and an initialize); for H7 and H15,
        // whose body the core answers, the row that decided it; else the
        // HTTP row's.
        let core = expect
            .body
            .as_ref()
            .and_then(|b| rows::row(b.row))
            .filter(|_| matches!(rule, "H7" | "H15"));
        let decided = core.unwrap_or(row);
        let (level, source) = level.unwrap_or((decided.level.as_str(), decided.source.as_str()));
        // A9 holds its own statement (AUTH-01) over the core's outcome: the
        // reply is the core's to the body, as the launch user.
        let decided = match rule {
            "A9" => expect
                .body
                .as_ref()
                .and_then(|b| rows::row(b.row))
                .unwrap_or(decided),
            _ => decided,
        };
        // What the level requires: the status, and for a body the id and
        // the outcome (an error with the codes its source allows, any when
        // it names none; or a result with isError).
        let mut want = json!({});
        if !response.body.is_empty() {
            let reply: Value = serde_json::from_slice(&response.body).unwrap();
            let id = reply
                .get("id")
                .map(Value::to_string)
                .unwrap_or_else(|| "null".into());
            want["id"] = json!(id);
            let is_error = reply.pointer("/result/isError").and_then(Value::as_bool);
            match (decided.expect.as_str(), reply.pointer("/error/code")) {
                // The source asks only for a reply with the id.
                ("reply", _) => want["outcome"] = json!("reply"),
                (_, Some(code)) => {
                    want["outcome"] = json!("error");
                    if level == "textbook" {
                        want["codes"] = json!([code]);
                    } else if !decided.codes.is_empty() {
                        let mut codes = decided.codes.clone();
                        // A body without a version under a valid version
                        // header: `_meta`'s -32602 and H10's -32020 are
                        // both MUSTs and the specification orders neither,
                        // so either passes at must (the reference answers
                        // -32602; `check`'s http.meta-missing agrees).
                        if name.ends_with("-under-header") {
                            let h10 = rows::row("H10")
                                .map(|r| r.codes.clone())
                                .unwrap_or_default();
                            codes.extend(h10);
                        }
                        want["codes"] = json!(codes);
                    }
                }
                (_, None) => {
                    want["outcome"] = json!("result");
                    want["isError"] = json!(is_error.unwrap_or(false));
                }
            }
        }
        // The status, where the model says a statement fixes it (or the
        // level is the fixtures' own); else it is left to the server.
        let fixed = level == "textbook" || expect.status_source().is_some();
        if fixed {
            want["status"] = json!(response.status);
        }
        let headers: serde_json::Map<String, Value> = response
            .headers
            .iter()
            .map(|(n, v)| ((*n).to_owned(), json!(v)))
            .collect();
        let vector = Vector {
            id: format!("http/{name}"),
            rule,
            comment,
            config: "http",
            level,
            source,
            request: request_json(&request),
            expect: want,
            response: Reply {
                status: response.status,
                headers,
                body: String::from_utf8_lossy(&response.body).into_owned(),
            },
        };
        out.push_str(&serde_json::to_string(&vector).unwrap());
        out.push('\n');
    }
    out
}

#[test]
fn the_committed_http_vectors_are_the_generators() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("vectors/http.jsonl");
    let fresh = generate();
    let config_path = root.join("vectors/configs/http.json");
    let config_text = config().to_json() + "\n";
    if switches::update("MCP_UPDATE_VECTORS") {
        std::fs::write(&path, &fresh).unwrap();
        std::fs::write(&config_path, &config_text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "vectors/http.jsonl is not what the binding answers now (MCP_UPDATE_VECTORS=1 cargo test --test http_vectors rewrites it)"
    );
    assert_eq!(
        std::fs::read_to_string(&config_path).unwrap_or_default(),
        config_text
    );
    let rules: std::collections::BTreeSet<&str> = fresh
        .lines()
        .filter_map(|l| l.split("\"rule\":\"").nth(1)?.split('"').next())
        .collect();
    for row in rows::rows()
        .iter()
        .filter(|r| r.id.starts_with('H') || r.id == "A9")
    {
        assert!(
            rules.contains(row.id.as_str()),
            "row {} has no HTTP vector",
            row.id
        );
    }
}
