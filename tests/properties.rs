//! The invariants of `BRIEF.md` as properties of the pure core, over random
//! configurations and random lines from `mcp_reference_testkit::strategy`.
//!
//! Each property runs 1,000 cases (more with `PROPTEST_CASES=N`). Every
//! expectation a property compares with comes from the generator (what it
//! built the line to be) or from the official schema, never from the
//! server's own decoders. Failures are kept in
//! `proptest-regressions/properties.txt` and replayed first on every run.
//!
//! | property | invariant |
//! | --- | --- |
//! | [`zero_or_one_line_of_valid_json_rpc`] | zero or one line out, no embedded newline, valid JSON-RPC that validates against the 2026-07-28 schema for its method |
//! | [`replies_agree_with_the_generator`] | reply or none, error code, id, `-32022` data, result content: as the generator's model says |
//! | [`cheap_invariants_hold`] | every check of `mcp_reference_testkit::invariants` (framing, envelope, id echo, codes, no leak, noninterference, text == structuredContent) |
//! | [`ids_are_echoed_exactly`] | the id is echoed exactly (raw bytes, integers of any size digit for digit); unreadable ids get null |
//! | [`unsupported_versions_get_32022`], [`initialize_names_the_supported_versions`] | a string version outside the configured set gets `-32022` with the full list and the requested value |
//! | [`only_catalog_tools_with_valid_arguments_run`] | a counting executor moves only for catalog tools with valid arguments, exactly as the generator expects |
//! | [`forbidden_never_leaks`], [`forbidden_is_byte_identical_to_nonexistent`] | no value of an order the user may not read appears; its reply equals the reply for an order that does not exist |
//! | [`structured_content_is_the_text_and_fits_the_output_schema`] | text content == `structuredContent`, which validates against the tool's `outputSchema` from `tools/list` |
//! | [`argument_check_agrees_with_input_schema`] | a tool runs iff jsonschema says its arguments satisfy its advertised `inputSchema`; otherwise an `isError` result |
//! | [`deterministic_stateless_and_read_only`] | same (config, line), same bytes; the same after any other lines on a session; the configuration unchanged |
//! | [`client_info_changes_nothing`] | a self-reported `clientInfo` (even "administrator") never changes a reply |
//! | [`configurations_round_trip_through_their_file`] | the generator's configurations load back from their file form |

mod support;
#[path = "support/switches.rs"]
mod switches;

use mcp_reference::Session;
use mcp_reference::StockItem;
use mcp_reference::{Config, Server};
use mcp_reference_testkit::Counting;
use mcp_reference_testkit::invariants::{self, Checker};
use mcp_reference_testkit::model::{self, Esc, Json};
use mcp_reference_testkit::schema::ToolSchema;
use mcp_reference_testkit::strategy;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::FileFailurePersistence;
use serde_json::{Value, json};

/// `PROPTEST_CASES` raises a case count and never lowers one below the
/// floor (an inherited `PROPTEST_CASES=1` ran one case); a value that is
/// no number fails rather than passing as the default.
#[test]
fn proptest_cases_has_a_floor() {
    assert_eq!(switches::cases_from(None, 1000), 1000);
    assert_eq!(switches::cases_from(Some("1"), 1000), switches::FLOOR);
    assert_eq!(switches::cases_from(Some("0"), 1000), switches::FLOOR);
    assert_eq!(switches::cases_from(Some("5000"), 1000), 5000);
    const { assert!(switches::FLOOR >= 100) };
    assert!(std::panic::catch_unwind(|| switches::cases_from(Some("many"), 1000)).is_err());
    assert!(cases() >= switches::FLOOR);
}

/// Cases per property: 1,000, or `PROPTEST_CASES` when set (never fewer
/// than the suite's floor, `switches::FLOOR`).
fn cases() -> u32 {
    switches::cases(1000)
}

/// 1,000 cases; failures kept in `proptest-regressions/properties.txt`
/// (relative to the crate root, where `cargo test` runs), replayed first.
fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/properties.txt",
        ))),
        ..ProptestConfig::default()
    }
}

fn ok(result: Result<(), String>) -> Result<(), TestCaseError> {
    result.map_err(TestCaseError::fail)
}

fn respond(server: &Server, line: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    server.respond_into(line, &mut out);
    out
}

/// A well-formed `_meta` for `config`.
fn meta(config: &Config) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": config.versions()[0],
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

fn call_line(config: &Config, id: &str, name: &str, arguments: &Value) -> Vec<u8> {
    let mut params = json!({ "_meta": meta(config), "name": name, "arguments": arguments });
    params["_meta"]["io.modelcontextprotocol/clientInfo"] =
        json!({ "name": "administrator", "version": "1" });
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{params}}}"#).into_bytes()
}

/// A server for `c` whose line limit cannot cut the lines a property builds
/// itself (lengthened ids, versions, clientInfo): those properties are about
/// readable lines, and row F3 has its own cases.
fn roomy(c: &Config) -> Server {
    Server::new(c.clone().with_max_line_bytes(64 << 20).unwrap())
}

/// The tools of `server`'s `tools/list`, by name.
fn listed_tools(server: &Server) -> Vec<Value> {
    let line = json!({
        "jsonrpc": "2.0", "id": 0, "method": "tools/list",
        "params": { "_meta": meta(server.config()) }
    })
    .to_string();
    let reply: Value = serde_json::from_slice(&respond(server, line.as_bytes())).unwrap();
    reply["result"]["tools"].as_array().unwrap().clone()
}

fn tool_schema(server: &Server, tool: &str, which: &str) -> Value {
    listed_tools(server)
        .into_iter()
        .find(|t| t["name"] == tool)
        .unwrap_or_else(|| panic!("{tool} is not listed"))[which]
        .clone()
}

/// A validator for an advertised tool schema, formats asserted.
fn validator(schema: &Value) -> ToolSchema {
    ToolSchema::new(schema)
        .unwrap_or_else(|e| panic!("the advertised schema does not compile: {e}\n{schema}"))
}

proptest! {
    #![proptest_config(config())]

    /// At most one response per request, after only the notifications
    /// its own `_meta` asked for (rows T12, T13: as many as the model
    /// says, each a notification), never an embedded newline, always valid
    /// JSON-RPC that validates against the official 2026-07-28 schema for
    /// the method's result type (or as an error response).
    #[test]
    fn at_most_one_response_after_only_the_notifications_asked_for((c, case) in strategy::scenario()) {
        let server = Server::new(c.clone());
        let all = respond(&server, &case.line);
        ok(invariants::framing(&all, case.expect.notices.len()))?;
        // What is left after the notifications is the response.
        let mut reply = all.as_slice();
        for _ in 0..case.expect.notices.len() {
            let end = reply.iter().position(|&b| b == b'\n').unwrap_or(reply.len());
            reply = reply.get(end + 1..).unwrap_or_default();
        }
        let reply = reply.to_vec();
        if reply.is_empty() {
            prop_assert_ne!(case.expect.replies(), Some(true), "no reply to {:?}", case);
            return Ok(());
        }
        prop_assert_ne!(case.expect.replies(), Some(false), "a reply to {:?}", case);
        let v = model::read_reply(&reply).map_err(TestCaseError::fail)?.value;
        let method = case.expect.body().map(model::Body::method);
        ok(support::schema().validate_reply(method, &v))?;
    }

    /// The reply is what the model of `docs/behavior.md` says: reply or
    /// none, the id, the code, message and data of an error, and the
    /// content of a result.
    #[test]
    fn replies_agree_with_the_model((c, case) in strategy::scenario()) {
        let reply = respond(&Server::new(c.clone()), &case.line);
        ok(case.expect.check(&c, &reply).map_err(|e| format!("{e}\n{case:?}")))?;
    }

    /// Every cheap invariant of `mcp_reference_testkit::invariants` holds for every
    /// line: the checks the fuzz targets and the corpus replay rely on.
    #[test]
    fn cheap_invariants_hold((c, case) in strategy::scenario()) {
        let reply = respond(&Server::new(c.clone()), &case.line);
        ok(Checker::new(&c).check(&case.line, &reply).map_err(|e| format!("{e}\n{case:?}")))?;
    }

    /// Requests with a valid id of every kind (integers beyond 64 bits,
    /// negative, zero, strings with escapes) get it back byte for byte,
    /// whatever else is wrong with them; an invalid id gets null.
    #[test]
    fn ids_are_echoed_exactly(
        (c, tree) in strategy::config().prop_flat_map(|c| { let r = strategy::request(&c); (Just(c), r) }),
        id in prop_oneof![4 => strategy::id().prop_map(Some), 1 => strategy::invalid_id().prop_map(|_| None)],
        invalid in strategy::invalid_id(),
    ) {
        let mut tree = tree;
        let raw = id.as_ref().map(|i| String::from_utf8(i.render()).unwrap());
        if let Json::Obj(members) = &mut tree {
            members.retain(|(k, _, _)| k != "id");
            members.push(("id".into(), Esc::Plain, id.unwrap_or(invalid)));
        }
        let line = tree.render();
        let reply = respond(&roomy(&c), &line);
        prop_assert!(!reply.is_empty(), "a request always gets a reply");
        ok(invariants::id_echo(raw.as_deref(), &reply))?;
    }

    /// A request whose `_meta` names a string version the configuration
    /// does not serve gets `-32022`, listing every supported version and
    /// naming the requested one, whatever the method and whatever else is
    /// wrong with `_meta` (the version is checked first).
    #[test]
    fn unsupported_versions_get_32022(
        (c, tree, version) in strategy::config().prop_flat_map(|c| {
            let r = strategy::request(&c);
            let v = strategy::unsupported_version(c.versions().to_vec());
            (Just(c), r, v)
        }),
        id in strategy::id(),
        version_esc in strategy::esc(),
    ) {
        let mut tree = tree;
        let raw_id = String::from_utf8(id.render()).unwrap();
        force_version(&mut tree, id, Json::Str(version.clone(), version_esc));
        let line = tree.render();
        // A line over the configured limit is refused before it is read
        // (row F3, its own property); the version rule is about readable lines.
        prop_assume!(line.len() <= c.max_line_bytes());
        let reply = respond(&roomy(&c), &line);
        let v = model::read_reply(&reply).unwrap().value;
        prop_assert_eq!(&v["error"]["code"], &json!(-32022), "{}", String::from_utf8_lossy(&line));
        prop_assert_eq!(&v["error"]["data"]["supported"], &json!(model::supported_versions(&c)));
        prop_assert_eq!(&v["error"]["data"]["requested"], &json!(version));
        ok(invariants::id_echo(Some(&raw_id), &reply))?;
        ok(support::schema().validate_reply(Some("tools/call"), &v))?;
    }

    /// `initialize` (no handshake here) with a string `protocolVersion`
    /// gets `-32022` naming it and every supported version (BRIEF decision
    /// 11).
    #[test]
    fn initialize_names_the_supported_versions(
        c in strategy::config(),
        version in prop_oneof![strategy::text(), select(vec!["2025-11-25", "2025-06-18", "2026-07-28"]).prop_map(String::from)],
        id in strategy::id(),
    ) {
        let id = String::from_utf8(id.render()).unwrap();
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":{},"capabilities":{{}},"clientInfo":{{"name":"c","version":"1"}}}}}}"#,
            json!(version)
        );
        let reply = respond(&roomy(&c), line.as_bytes());
        let v = model::read_reply(&reply).unwrap().value;
        prop_assert_eq!(&v["error"]["code"], &json!(-32022));
        prop_assert_eq!(&v["error"]["data"]["supported"], &json!(model::supported_versions(&c)));
        prop_assert_eq!(&v["error"]["data"]["requested"], &json!(version));
        ok(invariants::id_echo(Some(&id), &reply))?;
        ok(support::schema().validate_reply(Some("initialize"), &v))?;
    }

    /// No tool outside the catalog ever runs, and a catalog tool runs only
    /// with valid arguments: the counting executor moves exactly when the
    /// generator expects a tool to run, and for that tool.
    #[test]
    fn only_catalog_tools_with_valid_arguments_run(
        (c, case) in strategy::config().prop_flat_map(|c| {
            let any = strategy::case(&c);
            let calls = strategy::tool_call(&c).prop_map({
                let c = c.clone();
                move |t| strategy::Case::from_tree(&c, &t, "tool call")
            });
            (Just(c), prop_oneof![any, calls])
        })
    ) {
        let server = Server::new(c.clone());
        let mut counting = Counting::default();
        let mut out = Vec::new();
        server.respond_with(&case.line, &mut out, &mut counting);
        let catalog: Vec<&str> = server.catalog().iter().map(|t| t.name()).collect();
        prop_assert!(counting.ran.iter().all(|t| catalog.contains(&t.as_str())), "ran {:?}", counting.ran);
        prop_assert!(counting.ran.len() <= 1, "ran {:?}", counting.ran);
        if let Some(tool) = case.expect.runs() {
            let expected: Vec<String> = tool.into_iter().map(str::to_owned).collect();
            prop_assert_eq!(&counting.ran, &expected, "{:?}", case);
        }
    }

    /// For random snapshots and users, no value of an order the user may
    /// not read appears in any reply to a tool call, and every reply equals
    /// the reply of the same server without those orders.
    #[test]
    fn forbidden_never_leaks(
        (c, tree) in strategy::config()
            .prop_filter("someone else's order", |c| !strategy::forbidden_orders(c).is_empty())
            .prop_flat_map(|c| { let t = strategy::tool_call(&c); (Just(c), t) })
    ) {
        let line = tree.render();
        // The model judges the server that answered: the roomy one.
        let server = roomy(&c);
        let reply = respond(&server, &line);
        ok(Checker::new(server.config()).check(&line, &reply))?;
    }

    /// The same over the catalog's paths (R6, P5, C1): for configurations
    /// that offer the catalog, no reply to `resources/read`, `prompts/get`,
    /// `completion/complete` or the lists shows anything of an order the
    /// user may not read, and every reply (completion's values, `total`
    /// and `hasMore` included) equals the reply of the server without
    /// those orders.
    #[test]
    fn forbidden_never_leaks_over_the_catalog(
        (c, tree) in strategy::config()
            .prop_filter("the catalog and someone else's order", |c| {
                c.catalog().order_template.is_some() && !strategy::forbidden_orders(c).is_empty()
            })
            .prop_flat_map(|c| { let t = strategy::catalog_call(&c); (Just(c), t) })
    ) {
        let line = tree.render();
        // The model judges the server that answered: the roomy one.
        let server = roomy(&c);
        let reply = respond(&server, &line);
        ok(Checker::new(server.config()).check(&line, &reply))?;
        if let Ok(v) = model::read_reply(&reply) {
            let method = serde_json::from_slice::<Value>(&line).ok()
                .and_then(|l| l.get("method").and_then(Value::as_str).map(str::to_owned));
            ok(support::schema().validate_reply(method.as_deref(), &v.value))?;
        }
    }

    /// Another user's order through the template, the prompt and
    /// completion gets the bytes an order that does not exist gets.
    #[test]
    fn forbidden_is_nonexistent_over_the_catalog(
        (c, forbidden) in strategy::config()
            .prop_filter("the template, the prompt and someone else's order", |c| {
                c.catalog().prompts.iter().any(|p| p == "reply_to_customer")
                    && !strategy::forbidden_orders(c).is_empty()
            })
            .prop_flat_map(|c| {
                let ids: Vec<String> = strategy::forbidden_orders(&c).into_keys().collect();
                (Just(c), select(ids))
            }),
        missing in strategy::text(),
    ) {
        prop_assume!(!c.orders().iter().any(|o| o.order_id == missing));
        let server = roomy(&c);
        let template = c.catalog().order_template.clone().unwrap();
        let prefix = template.uri_template.trim_end_matches("{order_id}").to_string();
        let uri = |id: &str| format!("{prefix}{}", model::catalog::expand(id));
        let line = |method: &str, params: Value| {
            let mut p = params;
            p["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": c.versions()[0],
                "io.modelcontextprotocol/clientCapabilities": {},
            });
            json!({"jsonrpc": "2.0", "id": 9, "method": method, "params": p}).to_string()
        };
        let prompt = |id: &str| json!({"name": "reply_to_customer", "arguments": {"order_id": id}});
        // resources/read: the same apart from the uri each echoes in
        // `data.uri` (R6: the client's own input).
        let read = |id: &str| {
            let asked = uri(id);
            let reply = respond(&server, line("resources/read", json!({"uri": asked})).as_bytes());
            let mut v = model::read_reply(&reply).unwrap().value;
            let echoed = v["error"]["data"]["uri"].as_str().map(str::to_owned);
            if let Some(data) = v["error"]["data"].as_object_mut() {
                data.remove("uri");
            }
            (v, echoed == Some(asked))
        };
        let (a, a_echoes) = read(&forbidden);
        let (b, b_echoes) = read(&missing);
        prop_assert_eq!(&a, &b);
        prop_assert!(a_echoes && b_echoes);
        prop_assert!(a["error"]["code"] == json!(-32602));
        let a = respond(&server, line("prompts/get", prompt(&forbidden)).as_bytes());
        let b = respond(&server, line("prompts/get", prompt(&missing)).as_bytes());
        prop_assert_eq!(String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
        prop_assert!(model::read_reply(&a).unwrap().code() == Some(-32602));
        // A completion of the forbidden id's prefix suggests only the
        // user's own ids that share it.
        let reply = respond(&server, line("completion/complete", json!({
            "ref": {"type": "ref/resource", "uri": template.uri_template},
            "argument": {"name": "order_id", "value": forbidden},
        })).as_bytes());
        let v = model::read_reply(&reply).unwrap().value;
        let values = v["result"]["completion"]["values"].as_array().cloned().unwrap_or_default();
        for value in &values {
            let own = c.orders().iter().any(|o| o.owner == c.user() && Some(o.order_id.as_str()) == value.as_str());
            prop_assert!(own, "{}", v);
        }
        prop_assert_eq!(&v["result"]["completion"]["total"], &json!(values.len()));
    }

    /// The reply for an order the user may not read is byte-identical to
    /// the reply for an order id that does not exist (same request id), and
    /// a self-reported `clientInfo` of "administrator" changes nothing.
    #[test]
    fn forbidden_is_byte_identical_to_nonexistent(
        (c, forbidden) in strategy::config()
            .prop_filter("someone else's order", |c| !strategy::forbidden_orders(c).is_empty())
            .prop_flat_map(|c| {
                let ids: Vec<String> = strategy::forbidden_orders(&c).into_keys().collect();
                (Just(c), select(ids))
            }),
        missing in strategy::text(),
        id in strategy::id(),
    ) {
        prop_assume!(!c.orders().iter().any(|o| o.order_id == missing));
        let server = roomy(&c);
        let id = String::from_utf8(id.render()).unwrap();
        let a = respond(&server, &call_line(&c, &id, "get_order", &json!({ "order_id": forbidden })));
        let b = respond(&server, &call_line(&c, &id, "get_order", &json!({ "order_id": missing })));
        prop_assert_eq!(String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
        let v = model::read_reply(&a).unwrap().value;
        prop_assert_eq!(&v["result"]["isError"], &json!(true));
    }

    /// A successful tool result's text block holds exactly its
    /// `structuredContent`, which validates (formats included) against the
    /// `outputSchema` the tool advertises in `tools/list`; the result
    /// validates against the schema's `CallToolResult`.
    #[test]
    fn structured_content_is_the_text_and_fits_the_output_schema(
        (c, tool, key) in strategy::config()
            .prop_filter("something to read", |c| {
                c.orders().iter().any(|o| o.owner == c.user()) || c.stock().is_some_and(|s| !s.is_empty())
            })
            .prop_flat_map(|c| {
                let mut targets: Vec<(&'static str, String)> = c.orders().iter()
                    .filter(|o| o.owner == c.user())
                    .map(|o| ("get_order", o.order_id.clone()))
                    .collect();
                targets.extend(c.stock().unwrap_or_default().iter().map(|s| ("lookup_stock", s.product_id.clone())));
                (Just(c), select(targets)).prop_map(|(c, (t, k))| (c, t, k))
            }),
        id in strategy::id(),
    ) {
        let server = roomy(&c);
        let arg = if tool == "get_order" { "order_id" } else { "product_id" };
        let line = call_line(&c, &String::from_utf8(id.render()).unwrap(), tool, &json!({ arg: key }));
        let reply = respond(&server, &line);
        let v = model::read_reply(&reply).unwrap().value;
        let result = &v["result"];
        prop_assert_eq!(&result["isError"], &json!(false), "{}", v);
        ok(invariants::structured(result, true))?;
        let text = result["content"][0]["text"].as_str().unwrap();
        prop_assert_eq!(serde_json::from_str::<Value>(text).unwrap(), result["structuredContent"].clone());
        let output = validator(&tool_schema(&server, tool, "outputSchema"));
        let errors = output.errors(&result["structuredContent"]);
        prop_assert!(errors.is_empty(), "{:?}: {}", errors, result["structuredContent"]);
        ok(support::schema().validate_reply(Some("tools/call"), &v))?;
    }

    /// The typed argument check agrees with the advertised `inputSchema`:
    /// for random `arguments` objects, the tool runs iff jsonschema says
    /// they satisfy it; otherwise the reply is a result with `isError: true`
    /// (never a JSON-RPC error).
    #[test]
    fn argument_check_agrees_with_input_schema(
        c in strategy::config().prop_map(|c| {
            if c.stock().is_some() { c } else {
                c.with_stock(Some(vec![StockItem { product_id: "python-book".into(), stock: 3 }])).unwrap()
            }
        }),
        tool in select(vec!["get_order", "lookup_stock"]),
        args in strategy::arguments(),
    ) {
        let server = Server::new(c.clone());
        let input = validator(&tool_schema(&server, tool, "inputSchema"));
        let valid = input.is_valid(&args);
        let mut counting = Counting::default();
        let mut out = Vec::new();
        server.respond_with(&call_line(&c, "7", tool, &args), &mut out, &mut counting);
        prop_assert_eq!(counting.ran.len() == 1, valid, "{} with {}: {}", tool, args, String::from_utf8_lossy(&out));
        let v = model::read_reply(&out).unwrap().value;
        prop_assert!(v.get("result").is_some(), "{}", v);
        if !valid {
            prop_assert_eq!(&v["result"]["isError"], &json!(true));
        }
    }

    /// Deterministic and stateless: the same (configuration, line) gives
    /// the same bytes, again and again, on a fresh server and on a session
    /// after any other lines; and the configuration is never changed.
    #[test]
    fn deterministic_stateless_and_read_only((c, lines) in strategy::session(1..12)) {
        let server = Server::new(c.clone());
        let alone: Vec<Vec<u8>> = lines.iter().map(|l| respond(&server, &l.line)).collect();
        let mut session = Session::new(&server);
        for (case, first) in lines.iter().zip(&alone) {
            prop_assert_eq!(&respond(&server, &case.line), first);
            let mut out = Vec::new();
            session.handle(&case.line, &mut out);
            prop_assert_eq!(&out, first, "the session's reply to {:?} differs from the core's", case);
            let fresh = Server::new(c.clone());
            prop_assert_eq!(&respond(&fresh, &case.line), first);
        }
        prop_assert_eq!(server.config(), &c);
    }

    /// `clientInfo` is self-reported and never a basis for a decision: a
    /// tool call gets the same bytes with no `clientInfo`, with one that
    /// claims to be "administrator", and with any other well-formed one.
    #[test]
    fn client_info_changes_nothing(
        (c, tree) in strategy::config().prop_flat_map(|c| { let t = strategy::tool_call(&c); (Just(c), t) }),
        name in prop_oneof![strategy::text(), select(vec!["administrator", "root", "admin"]).prop_map(String::from)],
    ) {
        let server = roomy(&c);
        let replies: Vec<Vec<u8>> = [
            None,
            Some(json!({ "name": "administrator", "version": "1.0.0" })),
            Some(json!({ "name": name, "version": "2", "title": "Administrator" })),
        ]
        .into_iter()
        .map(|info| {
            let mut tree = tree.clone();
            set_client_info(&mut tree, info);
            respond(&server, &tree.render())
        })
        .collect();
        prop_assert_eq!(String::from_utf8_lossy(&replies[0]), String::from_utf8_lossy(&replies[1]));
        prop_assert_eq!(String::from_utf8_lossy(&replies[0]), String::from_utf8_lossy(&replies[2]));
    }

    /// The generator's configurations are valid and load back, member for
    /// member, from the configuration file it renders (what the state
    /// machine test gives the binary).
    #[test]
    fn configurations_round_trip_through_their_file(c in strategy::config()) {
        let file = c.to_json();
        prop_assert_eq!(Config::from_json(file.as_bytes()).unwrap(), c);
    }
}

/// Makes `tree` a request with a valid envelope and id, not `initialize`,
/// whose `params._meta` is an object naming `version`.
fn force_version(tree: &mut Json, id: Json, version: Json) {
    let Json::Obj(members) = tree else {
        unreachable!("requests are objects")
    };
    let keep = |k: &str| !matches!(k, "jsonrpc" | "id");
    members.retain(|(k, _, _)| keep(k));
    members.push(("jsonrpc".into(), Esc::Plain, Json::str("2.0")));
    members.push(("id".into(), Esc::Plain, id));
    if tree.get("method").and_then(Json::as_str) == Some("initialize") {
        set(tree, "method", Json::str("tools/call"));
    }
    if !matches!(tree.get("params"), Some(Json::Obj(_))) {
        set(tree, "params", Json::Obj(vec![]));
    }
    let Json::Obj(members) = tree else {
        unreachable!()
    };
    let params = members
        .iter_mut()
        .find(|(k, _, _)| k == "params")
        .map(|(_, _, v)| v)
        .unwrap();
    if !matches!(params.get("_meta"), Some(Json::Obj(_))) {
        set(params, "_meta", Json::Obj(vec![]));
    }
    let Json::Obj(members) = params else {
        unreachable!()
    };
    let meta = members
        .iter_mut()
        .find(|(k, _, _)| k == "_meta")
        .map(|(_, _, v)| v)
        .unwrap();
    set(meta, "io.modelcontextprotocol/protocolVersion", version);
}

/// Replaces (or removes) `params._meta["io.modelcontextprotocol/clientInfo"]`
/// when `params._meta` is an object.
fn set_client_info(tree: &mut Json, info: Option<Value>) {
    let key = "io.modelcontextprotocol/clientInfo";
    let Json::Obj(members) = tree else { return };
    let Some((_, _, params @ Json::Obj(_))) = members.iter_mut().find(|(k, _, _)| k == "params")
    else {
        return;
    };
    let Json::Obj(members) = params else { return };
    let Some((_, _, Json::Obj(meta))) = members.iter_mut().find(|(k, _, _)| k == "_meta") else {
        return;
    };
    meta.retain(|(k, _, _)| k != key);
    if let Some(info) = info {
        meta.push((key.to_string(), Esc::Plain, Json::from_value(&info)));
    }
}

fn set(obj: &mut Json, key: &str, value: Json) {
    let Json::Obj(members) = obj else {
        unreachable!("an object")
    };
    match members.iter_mut().find(|(k, _, _)| k == key) {
        Some(slot) => slot.2 = value,
        None => members.push((key.to_string(), Esc::Plain, value)),
    }
}

/// The generators reach every row of the modern path and every kind of
/// line: a regression in their weights would silently weaken every
/// property above. (The legacy rows are reached in `tests/rows.rs`, the
/// HTTP rows in `tests/http.rs`.)
#[test]
fn the_generator_covers_the_input_space() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use std::collections::BTreeMap;

    let mut runner = TestRunner::deterministic();
    let mut rows: BTreeMap<&str, usize> = BTreeMap::new();
    let mut labels: BTreeMap<&str, usize> = BTreeMap::new();
    let mut past_meta = 0;
    let scenario = strategy::scenario();
    // 10000: with every combination of declared sub-capabilities drawn
    // (row I14), fewer rounds get past their capabilities, and at 6000
    // and 8000 the deterministic draws reach P12, I9 or I11 too rarely.
    const CASES: usize = 10000;
    for _ in 0..CASES {
        let (_, case) = scenario.new_tree(&mut runner).unwrap().current();
        for row in case.expect.rows() {
            *rows.entry(row).or_default() += 1;
        }
        *labels.entry(case.label).or_default() += 1;
        if matches!(
            case.expect.row.as_bytes().first(),
            Some(b'D' | b'T' | b'R' | b'P' | b'C')
        ) || case.expect.row == "M7"
        {
            past_meta += 1;
        }
    }
    println!("rows: {rows:#?}\nlabels: {labels:#?}");
    let rare = ["E3", "E4", "M10", "M15", "M16", "D5", "E11", "E18"];
    for row in mcp_reference_testkit::model::rows::rows() {
        let id = row.id.as_str();
        // I8 needs a clock past a state's expiry, and these lines are
        // judged at the epoch: tests/rows.rs reaches it at a time.
        if id.starts_with(['L', 'H', 'A']) || id == "I8" {
            continue;
        }
        // The catalog's rows (R, P, C) need a configuration that offers
        // the catalog (two thirds do) and one of six methods: each is
        // reached here, and hundreds of times in tests/rows.rs.
        let catalog = id.starts_with(['R', 'P', 'C']);
        let least = if rare.contains(&id) || catalog { 1 } else { 5 };
        assert!(
            rows.get(id).is_some_and(|n| *n >= least),
            "the generators rarely or never reach row {id}: {rows:#?}"
        );
    }
    assert!(
        past_meta * 4 >= CASES,
        "most lines should be requests that get past the envelope and _meta: {rows:#?}"
    );
}
