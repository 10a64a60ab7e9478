//! Proptest generators of request trees: ids of every kind, known and
//! unknown methods, `_meta` good and broken in one place, tool calls with
//! every kind of argument, notifications, clients' responses, batches and
//! scalars, deep nesting and structural mutations (duplicates at any depth,
//! re-escaped names, lone surrogates).
//!
//! Generators only: what a line must get is the model's to say
//! ([`crate::model`]). The rows each generator aims at are those of
//! `docs/behavior.md` sections "Envelope", "`_meta` and protocol versions",
//! "Methods" and "Tools".

use proptest::prelude::*;
use proptest::sample::{Index, select};

use super::values::{
    Pools, any_json, esc, name_and_arguments, not_a, order_id, str_json, text, unknown_member,
};
use crate::model::core::{
    CAPABILITIES, CLIENT_CAPABILITIES, CLIENT_INFO, LOG_LEVEL, LOG_LEVELS, PROTOCOL_VERSION,
};
use crate::model::{Esc, GET_ORDER, Json, LOOKUP_STOCK, Member};
use mcp_reference::Config;

/// A valid id: integers (small, negative, zero, 64-bit edges, far beyond
/// 64 bits) and strings (empty, number-like, unicode, escaped).
pub fn id() -> BoxedStrategy<Json> {
    prop_oneof![
        4 => (0u32..1000).prop_map(Json::int),
        1 => any::<i64>().prop_map(Json::int),
        1 => any::<u64>().prop_map(Json::int),
        1 => select(vec![
            "0", "-0", "-1", "9223372036854775807", "-9223372036854775808",
            "9223372036854775808", "-9223372036854775809", "18446744073709551615",
            "18446744073709551616", "-18446744073709551616",
        ])
        .prop_map(|s| Json::Num(s.into())),
        2 => ("-?", "[1-9][0-9]{19,60}").prop_map(|(sign, digits)| Json::Num(format!("{sign}{digits}"))),
        1 => "[1-9][0-9]{300,400}".prop_map(Json::Num),
        4 => str_json(text()),
        1 => str_json(select(vec!["", "1", "-0", "null", "1e3", "id"]).prop_map(String::from)),
    ]
    .boxed()
}

/// An id member value that is not a valid id.
pub fn invalid_id() -> BoxedStrategy<Json> {
    prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        select(vec!["1.5", "1.0", "1e3", "-0.0", "1E+2", "0.1e-5"])
            .prop_map(|s| Json::Num(s.into())),
        Just(Json::Arr(vec![])),
        Just(Json::Arr(vec![Json::int(1)])),
        Just(Json::Obj(vec![])),
        Just(Json::obj([("id", Json::int(1))])),
    ]
    .boxed()
}

/// A method name: the known set, the removed ones, and others.
pub fn method() -> BoxedStrategy<String> {
    prop_oneof![
        6 => Just("tools/call".to_string()),
        2 => Just("tools/list".to_string()),
        2 => Just("server/discover".to_string()),
        6 => select(vec![
            "resources/list", "resources/templates/list", "resources/read", "resources/read",
            "prompts/list", "prompts/get", "prompts/get", "prompts/get", "completion/complete",
            "completion/complete", "completion/complete",
        ])
        .prop_map(String::from),
        1 => select(vec!["initialize", "ping", "logging/setLevel"]).prop_map(String::from),
        2 => select(vec![
            "notifications/initialized", "resources/list", "prompts/list", "tools/Call",
            "server/discover ", "", "tools", "completion/complete", "sampling/createMessage",
            "notifications/cancelled", "subscriptions/listen",
        ])
        .prop_map(String::from),
        1 => text(),
    ]
    .boxed()
}

fn shuffled(members: Vec<Member>) -> impl Strategy<Value = Json> {
    Just(members).prop_shuffle().prop_map(Json::Obj)
}

/// Adds members whose names are not already there.
fn add_unknown(
    members: Vec<Member>,
    n: std::ops::Range<usize>,
) -> impl Strategy<Value = Vec<Member>> {
    proptest::collection::vec(unknown_member(), n).prop_map(move |extra| {
        let mut members = members.clone();
        for (k, e, v) in extra {
            if !members.iter().any(|(m, _, _)| *m == k) {
                members.push((k, e, v));
            }
        }
        members
    })
}

fn members(parts: Vec<BoxedStrategy<Option<Member>>>) -> impl Strategy<Value = Vec<Member>> {
    parts.prop_map(|parts| parts.into_iter().flatten().collect())
}

fn some(s: impl Strategy<Value = Member> + 'static) -> BoxedStrategy<Option<Member>> {
    s.prop_map(Some).boxed()
}

fn maybe(
    weight_some: u32,
    s: impl Strategy<Value = Member> + 'static,
) -> BoxedStrategy<Option<Member>> {
    prop_oneof![10 - weight_some.min(10) => Just(None), weight_some.min(10) => s.prop_map(Some)]
        .boxed()
}

fn named(
    name: &'static str,
    value: impl Strategy<Value = Json> + 'static,
) -> BoxedStrategy<Member> {
    (value, esc())
        .prop_map(move |(v, e)| (name.to_string(), e, v))
        .boxed()
}

/// `_meta` of a request: mostly well-formed (a served version, capabilities,
/// optional clientInfo, logLevel, progressToken and unknown members), else
/// broken in one place or of an unsupported version.
pub fn meta(versions: Vec<String>) -> BoxedStrategy<Json> {
    let good_version = str_json(select(versions.clone()));
    let caps = proptest::collection::btree_map(
        prop_oneof![
            select(CAPABILITIES.to_vec()).prop_map(String::from),
            "[a-z]{1,6}"
        ],
        prop_oneof![3 => Just(Json::Obj(vec![])), 1 => any_json()],
        0..3,
    )
    .prop_map(|m| {
        // Defined capabilities are objects in a well-formed request.
        Json::obj(m.into_iter().map(|(k, v)| {
            let v = if CAPABILITIES.contains(&k.as_str()) && !matches!(v, Json::Obj(_)) {
                Json::Obj(vec![])
            } else {
                v
            };
            (k, v)
        }))
    });
    // Self-reported identities, some of which claim privileges: none may
    // change any reply (row M16: clientInfo is never a basis for a decision).
    let client_name = prop_oneof![
        2 => text(),
        1 => select(vec!["administrator", "admin", "root", "mira", "tomas", "book-orders"])
            .prop_map(String::from),
    ];
    let client_info = (
        client_name,
        text(),
        proptest::option::of(text()),
        any::<bool>(),
    )
        .prop_map(|(name, version, title, icons)| {
            let mut m = vec![("name", Json::str(name)), ("version", Json::str(version))];
            if let Some(t) = title {
                m.push(("title", Json::str(t)));
            }
            if icons {
                m.push(("icons", Json::Arr(vec![])));
            }
            Json::obj(m)
        });
    let level = str_json(select(LOG_LEVELS.to_vec()).prop_map(String::from));
    let token = prop_oneof![
        str_json(text()),
        any::<i64>().prop_map(Json::int),
        any::<u64>().prop_map(Json::int),
    ];
    let good = members(vec![
        some(named(PROTOCOL_VERSION, good_version)),
        some(named(CLIENT_CAPABILITIES, caps)),
        maybe(3, named(CLIENT_INFO, client_info)),
        maybe(2, named(LOG_LEVEL, level)),
        maybe(2, named("progressToken", token)),
    ])
    .prop_flat_map(|m| add_unknown(m, 0..2))
    .prop_flat_map(shuffled)
    .boxed();
    let broken = (good.clone(), meta_defect(versions)).prop_map(|(mut meta, defect)| {
        defect.apply(&mut meta);
        meta
    });
    prop_oneof![10 => good, 2 => broken].boxed()
}

/// One thing wrong with a `_meta` object.
#[derive(Debug, Clone)]
enum Defect {
    Remove(&'static str),
    Set(&'static str, Json),
}

impl Defect {
    fn apply(&self, obj: &mut Json) {
        if let Json::Obj(members) = obj {
            match self {
                Defect::Remove(k) => members.retain(|(m, _, _)| m != k),
                Defect::Set(k, v) => match members.iter_mut().find(|(m, _, _)| m == k) {
                    Some(slot) => slot.2 = v.clone(),
                    None => members.push((k.to_string(), Esc::Plain, v.clone())),
                },
            }
        }
    }
}

/// A protocol version string that is none of `versions`: legacy and future
/// versions, near misses (spaces, full-width digits, a NUL), random text.
pub fn unsupported_version(versions: Vec<String>) -> BoxedStrategy<String> {
    prop_oneof![
        select(vec![
            "2025-11-25",
            "2025-06-18",
            "2024-11-05",
            "2026-07-29",
            "2026-07-28 ",
            " 2026-07-28",
            "2026-7-28",
            "",
            "draft",
            "2026-07-28\u{0}",
            "２０２６-07-28",
        ])
        .prop_map(String::from),
        text(),
    ]
    .prop_filter("not served", move |v| !versions.contains(v))
    .boxed()
}

fn meta_defect(versions: Vec<String>) -> BoxedStrategy<Defect> {
    let unsupported = unsupported_version(versions);
    let info_broken = prop_oneof![
        not_a("object"),
        Just(Json::obj([("name", Json::str("x"))])),
        Just(Json::obj([("version", Json::str("1"))])),
        Just(Json::obj([
            ("name", Json::int(1)),
            ("version", Json::str("1"))
        ])),
        Just(Json::obj([
            ("name", Json::str("x")),
            ("version", Json::str("1")),
            ("icons", Json::obj([("a", Json::Null)]))
        ])),
        Just(Json::obj([
            ("name", Json::str("x")),
            ("version", Json::str("1")),
            ("title", Json::Null)
        ])),
    ];
    let caps_broken = prop_oneof![
        not_a("object"),
        (select(CAPABILITIES.to_vec()), not_a("object")).prop_map(|(c, v)| Json::obj([(c, v)])),
    ];
    prop_oneof![
        1 => Just(Defect::Remove(PROTOCOL_VERSION)),
        1 => not_a("string").prop_map(|v| Defect::Set(PROTOCOL_VERSION, v)),
        3 => str_json(unsupported).prop_map(|v| Defect::Set(PROTOCOL_VERSION, v)),
        1 => Just(Defect::Remove(CLIENT_CAPABILITIES)),
        1 => caps_broken.prop_map(|v| Defect::Set(CLIENT_CAPABILITIES, v)),
        1 => info_broken.prop_map(|v| Defect::Set(CLIENT_INFO, v)),
        1 => prop_oneof![
            str_json(select(vec!["DEBUG", "warn", "trace", "", "fatal"]).prop_map(String::from)),
            not_a("string"),
        ]
        .prop_map(|v| Defect::Set(LOG_LEVEL, v)),
        1 => prop_oneof![
            Just(Json::Null),
            Just(Json::Num("1.5".into())),
            Just(Json::Num("1.0".into())),
            Just(Json::Num("18446744073709551616".into())),
            Just(Json::Num("-9223372036854775809".into())),
            Just(Json::Arr(vec![])),
        ]
        .prop_map(|v| Defect::Set("progressToken", v)),
    ]
    .boxed()
}

fn product_id(pools: &Pools) -> BoxedStrategy<String> {
    if pools.products.is_empty() {
        prop_oneof!["[a-z-]{1,12}", text()].boxed()
    } else {
        prop_oneof![3 => select(pools.products.clone()), 1 => "[a-z-]{1,12}", 1 => text()].boxed()
    }
}

/// `arguments` of a `tools/call` for the tool `name`.
fn tool_arguments(pools: &Pools, name: &str) -> BoxedStrategy<Option<Json>> {
    if pools.content_tools.iter().any(|t| t == name) {
        // T10 (none, or `{}`) as often as T11 (any member); T14: members
        // that the configured schemas name.
        let schema_arguments = proptest::collection::btree_map(
            select(super::config::SCHEMA_MEMBERS.to_vec()),
            select(super::config::SCHEMA_VALUES.to_vec()),
            0..4,
        )
        .prop_map(|members| {
            Some(Json::obj(members.into_iter().map(|(k, v)| {
                let v: serde_json::Value = serde_json::from_str(v).unwrap_or_default();
                (k, Json::from_value(&v))
            })))
        });
        return prop_oneof![
            2 => Just(None),
            2 => Just(Some(Json::Obj(vec![]))),
            3 => coded_tool_arguments(pools, name),
            4 => schema_arguments,
        ]
        .boxed();
    }
    coded_tool_arguments(pools, name)
}

fn coded_tool_arguments(pools: &Pools, name: &str) -> BoxedStrategy<Option<Json>> {
    let extra = proptest::collection::vec(unknown_member(), 0..2);
    let get = (str_json(order_id(pools)), extra, esc()).prop_map(|(id, extra, e)| {
        let mut m = vec![("order_id".to_string(), e, id)];
        m.extend(extra.into_iter().filter(|(k, _, _)| k != "order_id"));
        m
    });
    let stock = (str_json(product_id(pools)), esc())
        .prop_map(|(id, e)| vec![("product_id".to_string(), e, id)]);
    let valid: BoxedStrategy<Vec<Member>> = match name {
        LOOKUP_STOCK => prop_oneof![4 => stock, 1 => get].boxed(),
        _ => prop_oneof![4 => get, 1 => stock].boxed(),
    };
    let broken = prop_oneof![
        not_a("string").prop_map(|v| vec![("order_id".to_string(), Esc::Plain, v)]),
        not_a("string").prop_map(|v| vec![("product_id".to_string(), Esc::Plain, v)]),
        (str_json(product_id(pools)), unknown_member()).prop_map(|(p, extra)| {
            let mut m = vec![("product_id".to_string(), Esc::Plain, p)];
            if extra.0 != "product_id" {
                m.push(extra);
            }
            m
        }),
        Just(vec![]),
        Just(vec![(
            "orderId".to_string(),
            Esc::Plain,
            Json::str("A-104")
        )]),
    ];
    prop_oneof![
        16 => valid.prop_flat_map(shuffled).prop_map(Some),
        3 => broken.prop_flat_map(shuffled).prop_map(Some),
        1 => Just(None),
        1 => not_a("object").prop_map(Some),
    ]
    .boxed()
}

fn tool_name(pools: &Pools) -> BoxedStrategy<String> {
    let stock = if pools.stock { 8 } else { 1 };
    let (content, names) = if pools.content_tools.is_empty() {
        (0, vec![GET_ORDER.to_string()])
    } else {
        (8, pools.content_tools.clone())
    };
    prop_oneof![
        content => select(names),
        12 => Just(GET_ORDER.to_string()),
        stock => Just(LOOKUP_STOCK.to_string()),
        1 => Just("cancel_order".to_string()),
        1 => select(vec!["GET_ORDER", "get_order ", "get-order", "", "tools/call", "get_order\u{0}"])
            .prop_map(String::from),
        1 => text(),
    ]
    .boxed()
}

/// The method members of `params` for `method`.
fn method_params(pools: &Pools, method: &str) -> BoxedStrategy<Vec<Member>> {
    match method {
        "tools/call" => {
            let pools = pools.clone();
            (tool_name(&pools), esc(), 0..16u8)
                .prop_flat_map(move |(name, e, name_kind)| {
                    let args = tool_arguments(&pools, &name);
                    let name_json: BoxedStrategy<Option<Json>> = match name_kind {
                        0 => Just(None).boxed(),
                        1 => not_a("string").prop_map(Some).boxed(),
                        _ => Just(Some(Json::Str(name, e))).boxed(),
                    };
                    (name_json, args).prop_map(|(name, args)| name_and_arguments(name, args))
                })
                .boxed()
        }
        "resources/read" => super::catalog::resource_read(pools),
        "prompts/get" => super::catalog::prompt_get(pools),
        "completion/complete" => super::catalog::complete(pools),
        "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list" => {
            prop_oneof![
                6 => Just(vec![]),
                1 => prop_oneof![str_json(text()), any_json()]
                    .prop_map(|c| vec![("cursor".to_string(), Esc::Plain, c)]),
            ]
            .boxed()
        }
        "initialize" => {
            let version = prop_oneof![
                3 => str_json(select(vec!["2025-11-25", "2025-06-18", "2024-11-05", "2026-07-28"]).prop_map(String::from)),
                1 => str_json(text()),
                1 => not_a("string"),
            ];
            members(vec![
                maybe(8, named("protocolVersion", version)),
                maybe(7, named("capabilities", Just(Json::Obj(vec![])))),
                maybe(
                    7,
                    named(
                        "clientInfo",
                        Just(Json::obj([
                            ("name", Json::str("c")),
                            ("version", Json::str("1")),
                        ])),
                    ),
                ),
            ])
            .boxed()
        }
        _ => Just(vec![]).boxed(),
    }
}

/// A request tree for `config`: an envelope that is mostly valid (ids of
/// every kind, sometimes none or an invalid one, sometimes a wrong
/// `jsonrpc`), a method from the known set or outside it, and `params`
/// with a `_meta` that is mostly well-formed.
pub fn request(config: &Config) -> BoxedStrategy<Json> {
    request_with(config, method())
}

/// A request tree as [`request`] makes, always for `tools/call`: tool
/// names known and unknown, arguments valid and invalid, order ids the
/// user owns, someone else's, and none.
pub fn tool_call(config: &Config) -> BoxedStrategy<Json> {
    request_with(config, Just("tools/call".to_string()).boxed())
}

/// A request tree as [`request`] makes, always for one of the catalog's
/// methods (`resources/*`, `prompts/*`, `completion/complete`).
pub fn catalog_call(config: &Config) -> BoxedStrategy<Json> {
    let methods = vec![
        "resources/read",
        "prompts/get",
        "completion/complete",
        "resources/list",
        "prompts/list",
    ];
    request_with(config, select(methods).prop_map(String::from).boxed())
}

fn request_with(config: &Config, method: BoxedStrategy<String>) -> BoxedStrategy<Json> {
    let pools = Pools::new(config);
    (method, esc())
        .prop_flat_map(move |(method, method_esc)| {
            let versions = pools.versions.clone();
            let params = params_for(&pools, &method, versions);
            let id = prop_oneof![
                30 => id().prop_map(Some),
                1 => invalid_id().prop_map(Some),
            ];
            let jsonrpc = prop_oneof![
                40 => Just(Some(Json::str("2.0"))),
                1 => Just(None),
                1 => prop_oneof![
                    Just(Json::Num("2.0".into())),
                    Just(Json::str("1.0")),
                    Just(Json::str("2.0 ")),
                    Just(Json::Null),
                ]
                .prop_map(Some),
            ];
            let extras = prop_oneof![8 => Just(vec![]), 1 => proptest::collection::vec(unknown_member(), 1..3)];
            (jsonrpc, id, params, extras, Just(Json::Str(method, method_esc)), esc())
        })
        .prop_flat_map(|(jsonrpc, id, params, extras, method, e)| {
            let mut m = Vec::new();
            if let Some(j) = jsonrpc {
                m.push(("jsonrpc".to_string(), e, j));
            }
            if let Some(id) = id {
                m.push(("id".to_string(), e, id));
            }
            m.push(("method".to_string(), e, method));
            if let Some(p) = params {
                m.push(("params".to_string(), e, p));
            }
            for (k, e, v) in extras {
                if !matches!(k.as_str(), "jsonrpc" | "id" | "method" | "params" | "result" | "error")
                    && !m.iter().any(|(n, _, _)| *n == k)
                {
                    m.push((k, e, v));
                }
            }
            shuffled(m)
        })
        .boxed()
}

fn params_for(pools: &Pools, method: &str, versions: Vec<String>) -> BoxedStrategy<Option<Json>> {
    let meta_member = prop_oneof![
        20 => meta(versions).prop_map(Some),
        1 => Just(None),
        1 => not_a("object").prop_map(Some),
    ];
    // I1: sometimes the members of a multi round-trip retry, on any
    // method (for the methods but `tools/call` and `prompts/get` they
    // never make an `InputRequiredResult`).
    let retry = prop_oneof![
        12 => Just(None),
        1 => prop_oneof![Just(Json::Obj(vec![])), any_json()]
            .prop_map(|v| Some(("inputResponses".to_string(), Esc::Plain, v))),
        1 => prop_oneof![str_json(text()), any_json()]
            .prop_map(|v| Some(("requestState".to_string(), Esc::Plain, v))),
    ];
    let object = (meta_member, method_params(pools, method), esc(), retry)
        .prop_flat_map(|(meta, mut m, e, retry)| {
            if let Some(meta) = meta {
                m.push(("_meta".to_string(), e, meta));
            }
            if let Some(member) = retry {
                m.push(member);
            }
            add_unknown(m, 0..2)
        })
        .prop_flat_map(shuffled);
    prop_oneof![
        30 => object.prop_map(Some),
        1 => Just(None),
        1 => not_a("object").prop_map(Some),
    ]
    .boxed()
}

/// A request without an id: a notification, whatever it contains.
pub fn notification(config: &Config) -> BoxedStrategy<Json> {
    let any = request(config).prop_map(|mut tree| {
        if let Json::Obj(m) = &mut tree {
            m.retain(|(k, _, _)| k != "id");
        }
        tree
    });
    // E18 on its own, so that its row does not hang on a rare draw of
    // the method among all the others.
    let cancelled = (id(), proptest::option::of(text())).prop_map(|(request_id, reason)| {
        let mut params = vec![("requestId".to_string(), Esc::Plain, request_id)];
        if let Some(r) = reason {
            params.push(("reason".to_string(), Esc::Plain, Json::str(r)));
        }
        Json::obj([
            ("jsonrpc", Json::str("2.0")),
            ("method", Json::str("notifications/cancelled")),
            ("params", Json::Obj(params)),
        ])
    });
    prop_oneof![6 => any, 1 => cancelled].boxed()
}

/// A response sent by a client: `result` or `error` and no `method`.
pub fn client_response() -> BoxedStrategy<Json> {
    let body = prop_oneof![
        any_json().prop_map(|r| ("result", r)),
        Just(("result", Json::Obj(vec![]))),
        Just((
            "error",
            Json::obj([("code", Json::int(-32601)), ("message", Json::str("no"))])
        )),
        any_json().prop_map(|r| ("error", r)),
    ];
    (
        prop_oneof![id(), invalid_id()],
        body,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_flat_map(|(id, (k, v), with_id, both)| {
            let mut m = vec![("jsonrpc".to_string(), Esc::Plain, Json::str("2.0"))];
            if with_id {
                m.push(("id".to_string(), Esc::Plain, id));
            }
            m.push((k.to_string(), Esc::Plain, v));
            if both {
                let other = if k == "result" { "error" } else { "result" };
                m.push((other.to_string(), Esc::Plain, Json::Null));
            }
            shuffled(m)
        })
        .boxed()
}

/// A line whose JSON is not an object: a batch, a scalar.
pub fn not_object(config: &Config) -> BoxedStrategy<Json> {
    prop_oneof![
        proptest::collection::vec(request(config), 0..3).prop_map(Json::Arr),
        any_json().prop_filter("not an object", |j| !matches!(j, Json::Obj(_))),
    ]
    .boxed()
}

/// A request with a member nested near, at or past the depth limit, at a
/// random object of the tree.
pub fn deep(config: &Config) -> BoxedStrategy<Json> {
    (
        request(config),
        any::<Index>(),
        prop_oneof![1usize..20, 110usize..140],
        any::<bool>(),
    )
        .prop_map(|(mut tree, at, depth, arrays)| {
            let mut nested = Json::Null;
            for _ in 0..depth {
                nested = if arrays {
                    Json::Arr(vec![nested])
                } else {
                    Json::obj([("a", nested)])
                };
            }
            let objects = tree.count_objects();
            if objects == 0 {
                return tree;
            }
            tree.with_nth_object(at.index(objects), &mut |obj| {
                if let Json::Obj(m) = obj {
                    m.push(("deep".to_string(), Esc::Plain, nested.clone()));
                }
            });
            tree
        })
        .boxed()
}

/// One structural mutation of a tree.
#[derive(Debug, Clone)]
enum TreeMutation {
    /// Replace a value (never the top) with a random one.
    Replace(Index, Json),
    /// Remove a member of an object.
    Remove(Index, Index),
    /// Duplicate a member of an object, with the same or another value.
    Duplicate(Index, Index, Option<Json>, Index),
    /// Write a member name or string in another escape style.
    Restyle(Index, Esc),
    /// Put a lone surrogate string somewhere.
    LoneSurrogate(Index),
}

impl TreeMutation {
    fn apply(&self, tree: &mut Json) {
        match self {
            TreeMutation::Replace(at, value) => {
                let n = tree.count();
                if n > 1 {
                    let k = 1 + at.index(n - 1);
                    tree.with_nth(k, &mut |j| *j = value.clone());
                }
            }
            TreeMutation::Remove(_, _) | TreeMutation::Duplicate(..)
                if tree.count_objects() == 0 => {}
            TreeMutation::Remove(at, which) => {
                let n = at.index(tree.count_objects());
                tree.with_nth_object(n, &mut |obj| {
                    if let Json::Obj(m) = obj
                        && !m.is_empty()
                    {
                        m.remove(which.index(m.len()));
                    }
                });
            }
            TreeMutation::Duplicate(at, which, value, to) => {
                let n = at.index(tree.count_objects());
                tree.with_nth_object(n, &mut |obj| {
                    if let Json::Obj(m) = obj
                        && !m.is_empty()
                        && let Some(mut copy) = m.get(which.index(m.len())).cloned()
                    {
                        if let Some(v) = value {
                            copy.2 = v.clone();
                        }
                        let pos = to.index(m.len() + 1);
                        m.insert(pos, copy);
                    }
                });
            }
            TreeMutation::Restyle(at, esc) => {
                let n = tree.count();
                tree.with_nth(at.index(n), &mut |j| match j {
                    Json::Str(_, e) => *e = *esc,
                    Json::Obj(m) => {
                        for (_, e, _) in m.iter_mut() {
                            *e = *esc;
                        }
                    }
                    _ => {}
                });
            }
            TreeMutation::LoneSurrogate(at) => {
                let n = tree.count();
                if n > 1 {
                    let k = 1 + at.index(n - 1);
                    tree.with_nth(k, &mut |j| *j = Json::LoneSurrogate);
                }
            }
        }
    }
}

fn tree_mutation() -> BoxedStrategy<TreeMutation> {
    prop_oneof![
        4 => (any::<Index>(), any_json()).prop_map(|(a, v)| TreeMutation::Replace(a, v)),
        3 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| TreeMutation::Remove(a, b)),
        4 => (any::<Index>(), any::<Index>(), proptest::option::of(any_json()), any::<Index>())
            .prop_map(|(a, b, v, c)| TreeMutation::Duplicate(a, b, v, c)),
        2 => (any::<Index>(), esc()).prop_map(|(a, e)| TreeMutation::Restyle(a, e)),
        1 => any::<Index>().prop_map(TreeMutation::LoneSurrogate),
    ]
    .boxed()
}

/// A request with one to three structural mutations: values replaced by
/// values of other types, members removed, members duplicated at any depth,
/// names re-escaped, lone surrogates.
pub fn mutated_tree(config: &Config) -> BoxedStrategy<Json> {
    (
        request(config),
        proptest::collection::vec(tree_mutation(), 1..4),
    )
        .prop_map(|(mut tree, mutations)| {
            for m in &mutations {
                m.apply(&mut tree);
            }
            tree
        })
        .boxed()
}
