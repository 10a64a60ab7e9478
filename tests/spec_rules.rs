//! Tests for the specification statements that `docs/spec-coverage.md`
//! answers with a decision or a new row, rather than with a row of its own
//! table: row E18 (a cancellation changes nothing), and decisions DEC16
//! (`subscriptions/listen` is not offered), DEC17 (`requestState` and
//! `inputResponses` the server never asked for change nothing), DEC19
//! (`cacheScope: "public"` results hold nothing user-specific), DEC20 (the
//! advertised schemas are JSON Schema 2020-12) and DEC21 (tool names) of
//! `docs/behavior.md`. Each test asks the core (and the model where it
//! decides a reply); none restates a reply.

mod support;

use std::collections::BTreeSet;

use mcp_reference::{Config, Order, Server, Session, StockItem};
use mcp_reference_testkit::model;
use mcp_reference_testkit::schema::ToolSchema;
use serde_json::{Value, json};
use support::{call, line, meta};

fn configs() -> Vec<Config> {
    let stock = Config::default()
        .with_stock(Some(vec![StockItem {
            product_id: "python-book".into(),
            stock: 3,
        }]))
        .unwrap();
    let legacy = stock
        .clone()
        .with_legacy_versions(vec!["2025-11-25".into(), "2025-06-18".into()])
        .unwrap();
    vec![Config::default(), stock, legacy]
}

/// The `tools/call` lines the MRTR fields are added to: a success, the
/// forbidden result, invalid arguments, an unknown tool, no name.
fn calls() -> Vec<Value> {
    let base = |name: Value, arguments: Value| json!({"_meta": meta(), "name": name, "arguments": arguments});
    vec![
        base(json!("get_order"), json!({"order_id": "A-104"})),
        base(json!("get_order"), json!({"order_id": "B-205"})),
        base(json!("get_order"), json!({"order_id": 7})),
        base(json!("lookup_stock"), json!({"product_id": "python-book"})),
        base(json!("cancel_order"), json!({"order_id": "A-104"})),
        json!({"_meta": meta(), "arguments": {}}),
    ]
}

#[test]
fn request_state_and_input_responses_change_nothing() {
    // DEC17: every value of either member, well-formed or not.
    let values = [
        json!("opaque-state"),
        json!(""),
        json!(7),
        json!(null),
        json!([1, 2]),
        json!({}),
        json!({"ask": {"action": "accept", "content": {"user": "tomas"}}}),
        json!({"ask": {"roots": []}, "other": 1}),
    ];
    for config in configs() {
        let server = Server::new(config);
        for params in calls() {
            let plain = line(json!(4), "tools/call", params.clone());
            let want = server.respond(plain.as_bytes());
            assert!(want.is_some());
            for v in &values {
                for members in [
                    vec![("requestState", v)],
                    vec![("inputResponses", v)],
                    vec![("requestState", v), ("inputResponses", v)],
                ] {
                    let mut p = params.clone();
                    for (k, v) in members {
                        p[k] = v.clone();
                    }
                    let with = line(json!(4), "tools/call", p);
                    assert_eq!(server.respond(with.as_bytes()), want, "{with} vs {plain}");
                    let expect = model::expect_line(server.config(), with.as_bytes());
                    assert_eq!(
                        expect.row,
                        model::expect_line(server.config(), plain.as_bytes()).row
                    );
                }
            }
        }
    }
}

#[test]
fn cancelling_an_answered_request_changes_nothing() {
    // E18, on a session: answer, cancel what was answered, ask again.
    for config in configs() {
        let server = Server::new(config);
        let mut session = Session::new(&server);
        for params in calls() {
            let request = line(json!("r-1"), "tools/call", params);
            let mut first = Vec::new();
            session.handle(request.as_bytes(), &mut first);
            assert!(!first.is_empty());
            for cancel in [
                json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "r-1", "reason": "too slow"}}),
                json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "never-sent"}}),
                json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"_meta": meta(), "requestId": "r-1"}}),
            ] {
                let mut out = Vec::new();
                session.handle(cancel.to_string().as_bytes(), &mut out);
                assert!(out.is_empty(), "{cancel}");
                let expect = model::expect_line(server.config(), cancel.to_string().as_bytes());
                assert!(expect.rows().any(|r| r == "E18"), "{cancel}");
            }
            let mut again = Vec::new();
            session.handle(request.as_bytes(), &mut again);
            assert_eq!(again, first);
        }
    }
}

#[test]
fn subscriptions_listen_is_not_offered() {
    // DEC16: one reply, -32601, as any method the server does not implement.
    for config in configs() {
        let server = Server::new(config);
        let mut session = Session::new(&server);
        let listen = line(
            json!(12),
            "subscriptions/listen",
            json!({"_meta": meta(), "notifications": {"toolsListChanged": true}}),
        );
        let mut out = Vec::new();
        session.handle(listen.as_bytes(), &mut out);
        assert_eq!(Some(out.clone()), server.respond(listen.as_bytes()));
        let reply: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            reply["error"]["code"],
            model::rows::fixed("D4").0,
            "{reply}"
        );
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1);
        assert_eq!(
            model::expect_line(server.config(), listen.as_bytes()).row,
            "D4"
        );
    }
}

fn tools(server: &Server) -> Vec<Value> {
    let list = support::reply(
        server,
        &line(json!(1), "tools/list", json!({"_meta": meta()})),
    );
    list["result"]["tools"].as_array().unwrap().clone()
}

fn has_ref(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.contains_key("$ref") || m.values().any(has_ref),
        Value::Array(a) => a.iter().any(has_ref),
        _ => false,
    }
}

#[test]
fn advertised_schemas_are_json_schema_2020_12() {
    // DEC20: no $schema (so 2020-12), valid under the 2020-12 meta-schema,
    // no $ref, inputSchema an object schema; a success's structuredContent
    // satisfies the outputSchema compiled as 2020-12.
    let server = Server::new(configs().remove(1));
    let tools = tools(&server);
    assert_eq!(tools.len(), 2);
    for tool in &tools {
        for key in ["inputSchema", "outputSchema"] {
            let schema = &tool[key];
            assert!(schema.get("$schema").is_none(), "{tool}");
            assert!(!has_ref(schema), "{tool}");
            ToolSchema::new_2020_12(schema).unwrap_or_else(|e| panic!("{key} of {tool}: {e}"));
        }
        assert_eq!(tool["inputSchema"]["type"], "object");
    }
    for (name, arguments) in [
        ("get_order", json!({"order_id": "A-104"})),
        ("lookup_stock", json!({"product_id": "python-book"})),
    ] {
        let reply = support::reply(&server, &call(json!(2), meta(), name, arguments));
        let tool = tools.iter().find(|t| t["name"] == name).unwrap();
        let output = ToolSchema::new_2020_12(&tool["outputSchema"]).unwrap();
        assert!(
            output.is_valid(&reply["result"]["structuredContent"]),
            "{reply}"
        );
    }
    // The check can fail: a schema that is not 2020-12 is refused.
    assert!(ToolSchema::new_2020_12(&json!({"type": "objekt"})).is_err());
    assert!(ToolSchema::new_2020_12(&json!({"properties": {"a": {"minimum": "x"}}})).is_err());
}

fn is_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

#[test]
fn tool_names_follow_the_naming_rules() {
    // DEC21: every tool of every configuration; names matched exactly.
    assert!(!is_tool_name("get order") && !is_tool_name("") && !is_tool_name("a,b"));
    for config in configs() {
        let server = Server::new(config);
        let names: Vec<String> = tools(&server)
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect();
        assert!(!names.is_empty());
        let unique: BTreeSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        for name in &names {
            assert!(is_tool_name(name), "{name}");
            let arguments = json!({"order_id": "A-104", "product_id": "python-book"});
            let exact = support::reply(&server, &call(json!(3), meta(), name, arguments.clone()));
            assert!(exact.get("result").is_some(), "{exact}");
            for variant in [name.to_uppercase(), format!("{name} "), format!(" {name}")] {
                let reply = support::reply(
                    &server,
                    &call(json!(3), meta(), &variant, arguments.clone()),
                );
                assert_eq!(
                    reply["error"]["code"],
                    model::rows::fixed("T3").0,
                    "{variant}: {reply}"
                );
                assert_eq!(
                    model::expect_line(
                        server.config(),
                        call(json!(3), meta(), &variant, arguments.clone()).as_bytes()
                    )
                    .row,
                    "T3"
                );
            }
        }
    }
}

#[test]
fn public_results_hold_nothing_user_specific() {
    // DEC19: discover and tools/list are the same bytes whoever the user is
    // and whatever orders are configured, and name no configured order id.
    let base = Config::default();
    let other = Config::default()
        .with_user("tomas")
        .unwrap()
        .with_orders(vec![Order {
            order_id: "Z-999".into(),
            ..base.orders()[0].clone()
        }])
        .unwrap();
    let a = Server::new(base.clone());
    let b = Server::new(other.clone());
    for method in ["server/discover", "tools/list"] {
        let l = line(json!(1), method, json!({"_meta": meta()}));
        let (ra, rb) = (
            a.respond(l.as_bytes()).unwrap(),
            b.respond(l.as_bytes()).unwrap(),
        );
        assert_eq!(ra, rb, "{method}");
        let text = String::from_utf8(ra).unwrap();
        assert!(text.contains(r#""cacheScope":"public""#), "{text}");
        for order in base.orders().iter().chain(other.orders()) {
            assert!(
                !text.contains(&order.order_id),
                "{method} names {}",
                order.order_id
            );
            assert!(
                !text.contains(&order.owner),
                "{method} names {}",
                order.owner
            );
        }
    }
}
