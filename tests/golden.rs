//! The textbook's recorded run (BRIEF "The textbook's recorded run"),
//! reproduced exactly by the default configuration, and the committed demo
//! transcript `data/mcp-run.json` reproduced by a fresh run of the real
//! binary.

mod support;

use mcp_reference::{Config, Server};
use serde_json::{Value, json};
use support::{call, line, reply, validate};

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "textbook-demo", "version": "1.0.0"}
    })
}

fn server_info() -> Value {
    json!({"io.modelcontextprotocol/serverInfo": {"name": "book-orders", "version": "1.0.0"}})
}

#[test]
fn exchange_1_discover() {
    let server = Server::new(Config::default());
    let got = reply(
        &server,
        &line(json!(1), "server/discover", json!({"_meta": meta()})),
    );
    validate(Some("server/discover"), &got);
    assert_eq!(
        got,
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "resultType": "complete",
            "supportedVersions": ["2026-07-28"],
            "capabilities": {"tools": {}},
            "instructions": "Read-only access to the orders of the configured user. Call get_order with an order id such as A-104.",
            "ttlMs": 3600000,
            "cacheScope": "public",
            "_meta": server_info()
        }})
    );
}

#[test]
fn exchange_2_tools_list() {
    let server = Server::new(Config::default());
    let got = reply(
        &server,
        &line(json!(2), "tools/list", json!({"_meta": meta()})),
    );
    validate(Some("tools/list"), &got);
    let result = &got["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["ttlMs"], 300000);
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(result["_meta"], server_info());
    let tools = result["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1, "only the configured tools: {tools:?}");
    let tool = &tools[0];
    assert_eq!(tool["name"], "get_order");
    assert_eq!(tool["inputSchema"]["required"], json!(["order_id"]));
    assert_eq!(
        tool["inputSchema"]["properties"]["order_id"]["type"],
        "string"
    );
    assert_eq!(tool["annotations"]["readOnlyHint"], true);
    assert_eq!(
        tool["outputSchema"]["required"],
        json!(["order_id", "status", "as_of", "source_version"])
    );
}

/// Example 43.2 of the textbook: the `tools/call` of `A-104`, id 3.
#[test]
fn exchange_3_get_order_a104_is_example_43_2() {
    let server = Server::new(Config::default());
    let got = reply(
        &server,
        &call(json!(3), meta(), "get_order", json!({"order_id": "A-104"})),
    );
    validate(Some("tools/call"), &got);
    let snapshot = json!({
        "order_id": "A-104",
        "status": "processing",
        "as_of": "2026-09-14T00:00:00Z",
        "source_version": "ka3-orders-v1"
    });
    assert_eq!(
        got,
        json!({"jsonrpc": "2.0", "id": 3, "result": {
            "resultType": "complete",
            "content": [{"type": "text", "text": snapshot.to_string()}],
            "structuredContent": snapshot,
            "isError": false,
            "_meta": server_info()
        }})
    );
    let text = got["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(text).unwrap(),
        got["result"]["structuredContent"]
    );
}

#[test]
fn exchange_4_get_order_b205_is_forbidden_without_data() {
    let server = Server::new(Config::default());
    let raw = server
        .respond(call(json!(4), meta(), "get_order", json!({"order_id": "B-205"})).as_bytes())
        .unwrap();
    let got: Value = serde_json::from_slice(&raw).unwrap();
    validate(Some("tools/call"), &got);
    assert_eq!(got["result"]["isError"], true);
    assert_eq!(got["result"]["resultType"], "complete");
    assert!(got["result"].get("structuredContent").is_none());
    let text = String::from_utf8(raw).unwrap();
    let b205 = Config::default()
        .orders()
        .iter()
        .find(|o| o.order_id == "B-205")
        .unwrap()
        .clone();
    for secret in [&b205.order_id, &b205.owner, &b205.status, &b205.as_of] {
        assert!(!text.contains(secret.as_str()), "leaks {secret}: {text}");
    }
    // Identical to the reply for an order that does not exist.
    let missing = server
        .respond(call(json!(4), meta(), "get_order", json!({"order_id": "Z-999"})).as_bytes())
        .unwrap();
    assert_eq!(text.as_bytes(), missing.as_slice());
}

#[test]
fn exchange_5_cancel_order_is_an_unknown_tool() {
    let server = Server::new(Config::default());
    let got = reply(
        &server,
        &call(
            json!(5),
            meta(),
            "cancel_order",
            json!({"order_id": "A-104"}),
        ),
    );
    validate(Some("tools/call"), &got);
    assert_eq!(got["id"], 5);
    assert_eq!(got["error"]["code"], -32602);
    assert!(got.get("result").is_none());
}

#[test]
fn demo_transcript_matches_the_committed_one() {
    let dir = std::env::temp_dir().join(format!("mcp-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("run.json");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-reference"))
        .args(["demo", "--out"])
        .arg(&out)
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let fresh = std::fs::read_to_string(&out).unwrap();
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/mcp-run.json")).unwrap();
    assert_eq!(
        fresh, committed,
        "run `cargo run --release -- demo` and review the diff"
    );
    // Every response in it is valid against the schema.
    let transcript: Value = serde_json::from_str(&committed).unwrap();
    for exchange in transcript["exchanges"].as_array().unwrap() {
        let request: Value = serde_json::from_str(exchange["request"].as_str().unwrap()).unwrap();
        let response: Value = serde_json::from_str(exchange["response"].as_str().unwrap()).unwrap();
        validate(request["method"].as_str(), &response);
        assert_eq!(request["id"], response["id"]);
    }
    let _ = std::fs::remove_dir_all(dir);
}
