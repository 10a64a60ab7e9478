//! Proptest generators of configurations (users, order snapshots with
//! random owners and values, stock tables or none, cache hints, line
//! limits) and of tool `arguments` objects, for the properties that vary
//! the data (rows T4 to T9, M16 and the forbidden-order invariants).

use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Value, json};

use super::values::text;
use mcp_reference::Config;

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

/// The catalog members of a configuration file (issue 32): none (the
/// textbook's, half the time), or a valid mix of static resources (a text
/// policy, the returns policy, a blob), the order template (its prefix
/// varied) and the prompts each needs; sometimes 1 to 3 content tools
/// (rows T10, T11) with random blocks.
fn catalog() -> BoxedStrategy<Vec<(&'static str, Value)>> {
    let returns = text().prop_map(|t| {
        json!({"uri": "book-orders://policies/returns", "name": "returns-policy", "title": "Returns",
               "mimeType": "text/markdown", "annotations": {"audience": ["user", "assistant"], "priority": 0.9},
               "text": t})
    });
    let privacy = (text(), "[a-z]{1,8}").prop_map(|(t, n)| {
        json!({"uri": format!("book-orders://policies/{n}x"), "name": n, "mimeType": "text/plain",
               "annotations": {"lastModified": "2026-08-15T00:00:00Z"}, "text": t})
    });
    let blob = proptest::collection::vec(any::<u8>(), 0..12).prop_map(|b| {
        use base64::Engine as _;
        json!({"uri": "book-orders://assets/logo.png", "name": "logo", "mimeType": "image/png",
               "blob": base64::engine::general_purpose::STANDARD.encode(b)})
    });
    let template = select(vec!["book-orders://orders/", "orders:", "x-shop://o/id="]).prop_map(|p| {
        json!({"uriTemplate": format!("{p}{{order_id}}"), "name": "order", "title": "Order snapshot",
               "mimeType": "application/json"})
    });
    let block = prop_oneof![
        text().prop_map(|t| json!({"type": "text", "text": t})),
        (
            proptest::collection::vec(any::<u8>(), 0..12),
            select(vec!["image", "audio"])
        )
            .prop_map(|(b, kind)| {
                use base64::Engine as _;
                json!({"type": kind, "data": base64::engine::general_purpose::STANDARD.encode(b),
                   "mimeType": if kind == "image" { "image/png" } else { "audio/wav" }})
            }),
        (text(), proptest::option::of("[a-z/]{1,12}")).prop_map(|(t, m)| {
            let mut r = json!({"uri": "test://embedded", "text": t});
            if let Some(m) = m {
                r["mimeType"] = json!(m);
            }
            json!({"type": "resource", "resource": r})
        }),
    ];
    let content_tools = proptest::collection::btree_map(
        "t_[a-z0-9_.-]{0,10}",
        (
            proptest::collection::vec(block, 1..4),
            any::<bool>(),
            proptest::option::of(text()),
            // T12: strictly increasing progress values, a total or none.
            (proptest::collection::btree_set(0u64..1000, 0..4), any::<bool>()),
            // T13: log messages of any level.
            proptest::collection::vec(
                (select(crate::model::core::LOG_LEVELS.to_vec()), proptest::option::of("[a-z]{1,6}"), text()),
                0..4,
            ),
            // T14: a configured inputSchema, for some.
            proptest::option::weighted(0.5, select(INPUT_SCHEMAS.to_vec())),
        ),
        1..4,
    )
    .prop_map(|tools| {
        let tools: Vec<Value> = tools
            .into_iter()
            .map(|(name, (content, is_error, title, (progress, total), log, schema))| {
                let mut t = json!({"name": name, "description": "a configured content tool", "content": content});
                if let Some(schema) = schema.and_then(|s| serde_json::from_str::<Value>(s).ok()) {
                    t["inputSchema"] = schema;
                }
                if let Some(last) = progress.iter().next_back() {
                    if total {
                        t["progressTotal"] = json!(last + 7);
                    }
                    t["progress"] = json!(progress);
                }
                if !log.is_empty() {
                    let log: Vec<Value> = log
                        .into_iter()
                        .map(|(level, logger, data)| match logger {
                            Some(l) => json!({"level": level, "logger": l, "data": data}),
                            None => json!({"level": level, "data": data}),
                        })
                        .collect();
                    t["log"] = json!(log);
                }
                if is_error {
                    t["isError"] = json!(true);
                }
                if let Some(title) = title {
                    t["title"] = json!(title);
                }
                t
            })
            .collect();
        tools
    });
    let content_prompts = proptest::collection::btree_map(
        "p_[a-z0-9_]{0,8}",
        (
            proptest::collection::btree_map("a[0-3]", (any::<bool>(), proptest::collection::vec("[a-z]{1,4}", 0..4)), 0..3),
            proptest::collection::vec((select(vec!["user", "assistant"]), 0..4u8, text()), 1..4),
        ),
        1..3,
    )
    .prop_map(|prompts| {
        let prompts: Vec<Value> = prompts
            .into_iter()
            .map(|(name, (arguments, messages))| {
                let names: Vec<&String> = arguments.keys().collect();
                let first = names.first().map(|n| format!("{{{{{n}}}}}"));
                let messages: Vec<Value> = messages
                    .iter()
                    .map(|(role, kind, t)| {
                        let content = match (kind, &first) {
                            (0, Some(p)) => json!({"type": "text", "text": format!("{t} {p}.")}),
                            (1, Some(p)) => json!({"type": "resource", "resource": {"uri": p, "text": t}}),
                            (2, Some(p)) => json!({"type": "resource", "resource": {"uri": format!("test://r/{p}"), "mimeType": "text/plain", "text": p}}),
                            _ => json!({"type": "text", "text": t}),
                        };
                        json!({"role": role, "content": content})
                    })
                    .collect();
                let arguments: Vec<Value> = arguments
                    .into_iter()
                    .map(|(n, (required, completions))| json!({"name": n, "required": required, "completions": completions}))
                    .collect();
                json!({"name": name, "description": "a configured prompt", "arguments": arguments, "messages": messages})
            })
            .collect();
        prompts
    });
    (
        (
            0..6u8,
            proptest::option::weighted(0.4, content_tools),
            proptest::option::weighted(0.4, content_prompts),
            proptest::option::weighted(0.4, (select(vec!["test://t/{v}/data", "t:{v}", "x-t://a/{v}.json"]), text())),
        ),
        proptest::option::weighted(0.8, returns),
        proptest::option::of(privacy),
        proptest::option::of(blob),
        proptest::option::weighted(0.8, template),
        proptest::bool::weighted(0.8),
        proptest::bool::weighted(0.7),
    )
        .prop_map(
            |(
                (on, content_tools, content_prompts, content_template),
                returns,
                privacy,
                blob,
                template,
                reply,
                help,
            )| {
                if on < 2 {
                    return Vec::new();
                }
                let mut out = Vec::new();
                if let Some(tools) = content_tools {
                    out.push(("content_tools", Value::from(tools)));
                }
                if let Some(prompts) = content_prompts {
                    out.push(("content_prompts", Value::from(prompts)));
                }
                if let Some((uri_template, text)) = content_template {
                    let t = json!({"uriTemplate": uri_template, "name": "t", "mimeType": "text/plain",
                                   "text": format!("{} {{{{v}}}} {{{{v}}}}", text.replace(['{', '}'], ""))});
                    out.push(("content_templates", json!([t])));
                }
                let has_returns = returns.is_some();
                let resources: Vec<Value> =
                    [returns, privacy, blob].into_iter().flatten().collect();
                if !resources.is_empty() {
                    out.push(("resources", Value::from(resources)));
                }
                let mut prompts = Vec::new();
                if reply && template.is_some() {
                    prompts.push("reply_to_customer");
                }
                if help && has_returns {
                    prompts.push("returns_help");
                }
                if let Some(t) = template {
                    out.push(("order_template", t));
                }
                if !prompts.is_empty() {
                    out.push(("prompts", json!(prompts)));
                }
                out
            },
        )
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
/// sometimes a small one; about one in three with an `input_required` section of
/// tools and prompts ([`super::input::input_required`]). The legacy path
/// stays off.
pub fn config() -> BoxedStrategy<Config> {
    config_with(proptest::option::weighted(0.3, super::input::input_required()).boxed())
}

/// A configuration as [`config()`] makes, always with an `input_required`
/// section (rows I1 to I15).
pub fn input_config() -> BoxedStrategy<Config> {
    config_with(super::input::input_required().prop_map(Some).boxed())
}

/// [`config()`], with the `input_required` section `input` draws
/// ([`super::input`]), if any.
fn config_with(input: BoxedStrategy<Option<Value>>) -> BoxedStrategy<Config> {
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
        catalog(),
        input,
    )
        .prop_filter_map(
            "a valid configuration",
            |(user, (ids, bodies), stock, discover, tools, identity, max_line, catalog, input)| {
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
                for (k, v) in catalog {
                    file[k] = v;
                }
                if let Some(input) = input {
                    file["input_required"] = input;
                }
                Config::from_json(file.to_string().as_bytes()).ok()
            },
        )
        .boxed()
}

/// The configuration file (JSON) that [`Config::from_json`] reads back as
/// The orders of `config` its user may not read, by id.
pub fn forbidden_orders(config: &Config) -> BTreeMap<String, mcp_reference::Order> {
    config
        .orders()
        .iter()
        .filter(|o| o.owner != config.user())
        .map(|o| (o.order_id.clone(), o.clone()))
        .collect()
}

/// Configured `inputSchema`s of content tools (row T14), together using
/// every keyword of the subset the core enforces (DEC50); the calls of
/// [`super::request`] name their members ([`SCHEMA_MEMBERS`]).
pub(crate) const INPUT_SCHEMAS: [&str; 5] = [
    r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},"additionalProperties":false}"##,
    r##"{"type":"object","properties":{"a":{"type":"integer","title":"A","default":1},"b":{"enum":["x",1,null,[1]]}},"required":["a"]}"##,
    r##"{"type":"object","properties":{"k":{"oneOf":[{"type":"string"},{"const":3}]},"n":{"not":{"type":["boolean","null"]}}},"additionalProperties":false,"description":"d","examples":[{}]}"##,
    r##"{"type":"object","$defs":{"p":{"$anchor":"P","type":["string","null"]},"q":{"$ref":"#P"}},"properties":{"a":{"$ref":"#/$defs/q"},"b":{"type":"array"},"c":{"type":"object","properties":{"city":{"type":"number"}},"additionalProperties":true}}}"##,
    r##"{"type":"object","properties":{"a":true,"b":false},"if":{"required":["a"]},"then":{"properties":{"a":{"type":"number"}}}}"##,
];

/// The members the calls of a tool with a configured schema use.
pub(crate) const SCHEMA_MEMBERS: [&str; 12] = [
    "a",
    "b",
    "c",
    "k",
    "n",
    "p",
    "name",
    "email",
    "phone",
    "contactMethod",
    "address",
    "city",
];

/// The values they take.
pub(crate) const SCHEMA_VALUES: [&str; 16] = [
    "\"x\"",
    "1",
    "1.0",
    "2.5",
    "3",
    "null",
    "true",
    "\"phone\"",
    "\"email\"",
    "{\"city\":\"c\"}",
    "{\"city\":7}",
    "{\"city\":7.5,\"street\":1}",
    "[1]",
    "[]",
    "{}",
    "\"\"",
];
