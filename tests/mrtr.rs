//! Multi round-trip requests (docs/behavior.md, rows I1 to I15) against
//! the model (`mcp_reference_testkit::model::input`): the conformance
//! suite's flows over `data/conformance.json`, generated walks of
//! rounds, and every way a `requestState` can be turned against the server
//! (a byte changed, expired, replayed on another tool or with other
//! arguments, by another user over stdio and over HTTP, from a
//! configuration with another key), each refused with nothing run (the
//! executor counts every tool that runs).

use mcp_reference::http::{Binding, Bound, Keys, Request, Trust};
use mcp_reference::{Config, Server};
use mcp_reference_testkit::Counting;
use mcp_reference_testkit::http::{conforming, header_refs};
use mcp_reference_testkit::issuer::{NOW, issuer, settings, with_auth};
use mcp_reference_testkit::model::http::HttpRequest;
use mcp_reference_testkit::model::input::{self, Due};
use mcp_reference_testkit::model::rows;
use mcp_reference_testkit::strategy::auth::LISTEN;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::FileFailurePersistence;
use serde_json::{Value, json};

#[path = "support/input_fixture.rs"]
mod input_fixture;
use input_fixture::fixture;

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The conformance suite's input fixtures.
fn conformance() -> Config {
    Config::load(&root().join("data/conformance.json")).unwrap()
}

const ALL_CAPS: &str = r#"{"elicitation":{},"sampling":{},"roots":{}}"#;
/// Every capability and sub-capability an input request can need (rows
/// I3, I14).
const EVERY_CAP: &str =
    r#"{"elicitation":{"form":{},"url":{}},"sampling":{"context":{},"tools":{}},"roots":{}}"#;

/// The `clientCapabilities` of combination `(e, s, r)`: `elicitation`
/// absent, `{}`, `{form}`, `{url}`, `{form, url}` or naming another
/// member; `sampling` absent, `{}`, `{tools}`, `{context}` or both;
/// `roots` absent or `{}` (every combination of declared
/// sub-capabilities, row I14).
fn caps_of((e, s, r): (u8, u8, bool)) -> String {
    let elicitation = [
        None,
        Some(json!({})),
        Some(json!({"form": {}})),
        Some(json!({"url": {}})),
        Some(json!({"form": {}, "url": {}})),
        Some(json!({"other": {}})),
    ];
    let sampling = [
        None,
        Some(json!({})),
        Some(json!({"tools": {}})),
        Some(json!({"context": {}})),
        Some(json!({"tools": {}, "context": {}})),
    ];
    let mut caps = serde_json::Map::new();
    if let Some(v) = elicitation.get(usize::from(e)).cloned().flatten() {
        caps.insert("elicitation".into(), v);
    }
    if let Some(v) = sampling.get(usize::from(s)).cloned().flatten() {
        caps.insert("sampling".into(), v);
    }
    if r {
        caps.insert("roots".into(), json!({}));
    }
    Value::Object(caps).to_string()
}

/// Every combination [`caps_of`] makes (6 x 5 x 2).
fn every_combination() -> Vec<String> {
    let mut all = Vec::new();
    for e in 0..6 {
        for s in 0..5 {
            for r in [false, true] {
                all.push(caps_of((e, s, r)));
            }
        }
    }
    all
}

/// A request line.
fn request(id: u64, method: &str, params: Value, caps: &str) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": serde_json::from_str::<Value>(caps).unwrap(),
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// The server's reply to `request` at `now`, checked against the model:
/// the reply, and what the model said.
fn judged(server: &Server, request: &Value, now: u64) -> (Value, input::InputExpect) {
    let mut counting = Counting::default();
    let mut out = Vec::new();
    server.respond_at(request.to_string().as_bytes(), &mut out, &mut counting, now);
    let reply: Value = serde_json::from_slice(&out).unwrap();
    let want = input::check(server.config(), request, now, &reply)
        .unwrap_or_else(|e| panic!("{e}\nrequest {request}"));
    let ran = usize::from(want.runs);
    assert_eq!(
        counting.ran.len(),
        ran,
        "tools run: {:?} for {request}",
        counting.ran
    );
    (reply, want)
}

/// A valid answer to each kind.
fn answer(kind: &str, key: &str) -> Value {
    match (kind, key) {
        ("elicitation/create", "ok" | "confirm") => {
            json!({"action": "accept", "content": {"ok": true}})
        }
        ("elicitation/create", "ctx") => json!({"action": "accept", "content": {"ctx": "c"}}),
        ("elicitation/create", "user_context") => {
            json!({"action": "accept", "content": {"context": "c"}})
        }
        ("elicitation/create", "step2") => {
            json!({"action": "accept", "content": {"color": "blue"}})
        }
        ("elicitation/create", _) => json!({"action": "accept", "content": {"name": "Alice"}}),
        ("sampling/createMessage", _) => {
            json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"})
        }
        _ => json!({"roots": [{"uri": "file:///test/root", "name": "Test Root"}]}),
    }
}

/// Answers every input request of an `InputRequiredResult` (a URL-mode
/// elicitation with an accept and no `content`, row I15).
fn answers(result: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for (key, req) in result["inputRequests"].as_object().unwrap() {
        let value = if req["params"]["mode"] == "url" {
            json!({"action": "accept"})
        } else {
            answer(req["method"].as_str().unwrap(), key)
        };
        out.insert(key.clone(), value);
    }
    Value::Object(out)
}

/// Runs a target to completion the way the suite does: every round
/// answered in full, each retry carrying the state the last reply gave.
fn complete(
    server: &Server,
    method: &str,
    name: &str,
    args: Value,
    now: u64,
) -> Vec<(Value, input::InputExpect)> {
    let mut params = json!({"name": name, "arguments": args});
    let mut steps = Vec::new();
    for id in 1..10 {
        let (reply, want) = judged(server, &request(id, method, params.clone(), EVERY_CAP), now);
        let done = !matches!(want.due, Due::Input { .. });
        let result = reply["result"].clone();
        steps.push((reply, want));
        if done {
            return steps;
        }
        params["inputResponses"] = answers(&result);
        match result.get("requestState") {
            Some(s) => params["requestState"] = s.clone(),
            None => {
                params.as_object_mut().unwrap().remove("requestState");
            }
        }
    }
    panic!("{name} never completed");
}

/// Rows I3, I14: every input target of the conformance fixture and of
/// this test's own, first asked and then answered, under every
/// combination of declared capabilities and sub-capabilities: each reply
/// is the model's (the `-32021`'s `requiredCapabilities` to the member,
/// or the inputs the request can receive), and nothing runs that the
/// model does not run.
#[test]
fn every_combination_of_sub_capabilities_agrees_with_the_model() {
    let mut rows = std::collections::BTreeSet::new();
    for config in [conformance(), fixture("mira", 7)] {
        let server = Server::new(config);
        let input = server.config().input().unwrap().clone();
        let targets = input
            .tools
            .iter()
            .map(|t| ("tools/call", t))
            .chain(input.prompts.iter().map(|p| ("prompts/get", p)));
        for (method, target) in targets {
            for caps in every_combination() {
                let params = json!({"name": target.name, "arguments": {}});
                let (reply, want) =
                    judged(&server, &request(1, method, params.clone(), &caps), NOW);
                rows.insert(want.row);
                if let Some(result) = reply
                    .get("result")
                    .filter(|r| r["resultType"] == "input_required")
                {
                    let mut retry = params;
                    retry["inputResponses"] = answers(result);
                    if let Some(s) = result.get("requestState") {
                        retry["requestState"] = s.clone();
                    }
                    let (_, want) = judged(&server, &request(2, method, retry, &caps), NOW);
                    rows.insert(want.row);
                }
            }
        }
    }
    for row in ["I2", "I3", "I9", "I12", "I14"] {
        assert!(rows.contains(row), "row {row} never reached: {rows:?}");
    }
}

#[test]
fn every_conformance_target_completes_as_the_suite_expects() {
    let server = Server::new(conformance());
    let input = server.config().input().unwrap().clone();
    for tool in &input.tools {
        let steps = complete(&server, "tools/call", &tool.name, json!({}), NOW);
        let (last, want) = steps.last().unwrap();
        assert_eq!(want.row, "I12", "{}", tool.name);
        assert_eq!(last["result"]["isError"], json!(false));
        assert_eq!(steps.len(), tool.rounds.len() + 1, "{}", tool.name);
        // Every round's state differs from the one before (the suite's
        // multi-round check).
        let states: Vec<_> = steps
            .iter()
            .filter_map(|(r, _)| r["result"].get("requestState"))
            .collect();
        assert_eq!(states.len(), if tool.state { tool.rounds.len() } else { 0 });
        assert!(states.windows(2).all(|w| w[0] != w[1]));
    }
    let steps = complete(
        &server,
        "prompts/get",
        "test_input_required_result_prompt",
        json!({}),
        NOW,
    );
    assert!(steps.last().unwrap().0["result"]["messages"].is_array());
    let state_ok = complete(
        &server,
        "tools/call",
        "test_input_required_result_request_state",
        json!({}),
        NOW,
    );
    let text = state_ok.last().unwrap().0["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(text.contains("state-ok"), "{text}");
}

#[test]
fn the_suite_s_error_and_capability_cases() {
    let server = Server::new(conformance());
    let call =
        |params: Value, caps: &str| judged(&server, &request(9, "tools/call", params, caps), NOW);
    let e = "test_input_required_result_elicitation";
    // Wrong key: asked again (I4); extra keys beside the right one: ignored (I12).
    assert_eq!(call(json!({"name": e, "arguments": {}, "inputResponses": {"wrong_key": {"action": "accept", "content": {"data": "x"}}}}), ALL_CAPS).1.row, "I4");
    let extra = json!({"user_name": answer("elicitation/create", "user_name"), "unknown_extra_key": {"action": "accept", "content": {"foo": "bar"}}, "another": 7});
    assert_eq!(
        call(
            json!({"name": e, "arguments": {}, "inputResponses": extra}),
            ALL_CAPS
        )
        .1
        .row,
        "I12"
    );
    // Malformed (I10) and not an object (I5).
    assert_eq!(
        call(
            json!({"name": e, "arguments": {}, "inputResponses": {"user_name": 12345}}),
            ALL_CAPS
        )
        .1
        .row,
        "I10"
    );
    assert_eq!(
        call(
            json!({"name": e, "arguments": {}, "inputResponses": null}),
            ALL_CAPS
        )
        .1
        .row,
        "I5"
    );
    // Declined and cancelled are never accepted (I11).
    for action in ["decline", "cancel"] {
        let refused = json!({"user_name": {"action": action, "content": {"name": "Alice"}}});
        let (reply, want) = call(
            json!({"name": e, "arguments": {}, "inputResponses": refused}),
            ALL_CAPS,
        );
        assert_eq!(want.row, "I11");
        assert_eq!(reply["result"]["isError"], json!(true));
    }
    // Only declared kinds are asked for (I2, the suite's capability check),
    // and a request that can receive nothing it needs gets -32021 (I3).
    let (reply, _) = call(
        json!({"name": "test_input_required_result_capabilities", "arguments": {}}),
        r#"{"sampling":{}}"#,
    );
    let kinds: Vec<_> = reply["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .values()
        .map(|r| r["method"].clone())
        .collect();
    assert_eq!(kinds, [json!("sampling/createMessage")]);
    let (reply, want) = call(
        json!({"name": "test_missing_capability", "arguments": {}}),
        "{}",
    );
    assert_eq!(want.row, "I3");
    assert_eq!(
        reply["error"]["data"],
        json!({"requiredCapabilities": {"sampling": {}}})
    );
    // The suite's tampering: the state with "-TAMPERED" appended (I7).
    let t = "test_input_required_result_tampered_state";
    let (first, _) = call(json!({"name": t, "arguments": {}}), ALL_CAPS);
    let forged = format!(
        "{}-TAMPERED",
        first["result"]["requestState"].as_str().unwrap()
    );
    let (_, want) = call(
        json!({"name": t, "arguments": {}, "inputResponses": answers(&first["result"]), "requestState": forged}),
        ALL_CAPS,
    );
    assert_eq!(want.row, "I7");
}

#[test]
fn no_input_required_result_outside_tools_call_and_prompts_get() {
    let server = Server::new(conformance());
    for method in [
        "server/discover",
        "tools/list",
        "prompts/list",
        "resources/list",
        "completion/complete",
    ] {
        let line = request(
            1,
            method,
            json!({"inputResponses": {"x": 1}, "requestState": "x"}),
            ALL_CAPS,
        );
        let reply = server.respond(line.to_string().as_bytes()).unwrap();
        let reply: Value = serde_json::from_slice(&reply).unwrap();
        assert_ne!(
            reply["result"]["resultType"],
            json!("input_required"),
            "{method}"
        );
    }
}

/// How a generated step answers the last reply.
#[derive(Debug, Clone)]
enum Move {
    /// Every input answered.
    All,
    /// Only the first input answered.
    First,
    /// Nothing but an unknown key.
    Unknown,
    /// The first input answered with a value of the wrong shape.
    Malformed,
    /// The first input declined.
    Decline,
    /// No `inputResponses` at all.
    None,
}

fn moves() -> impl Strategy<Value = Vec<(Move, bool, String, u64)>> {
    let mv = prop_oneof![
        4 => Just(Move::All),
        2 => Just(Move::First),
        1 => Just(Move::Unknown),
        1 => Just(Move::Malformed),
        1 => Just(Move::Decline),
        1 => Just(Move::None),
    ];
    // Every combination of declared capabilities and sub-capabilities
    // (row I14), the full set most often so that walks get far.
    let caps = prop_oneof![
        2 => Just(EVERY_CAP.to_string()),
        1 => Just(ALL_CAPS.to_string()),
        4 => (0..6u8, 0..5u8, any::<bool>()).prop_map(caps_of),
    ];
    // (move, keep the last state, capabilities, seconds later)
    prop::collection::vec((mv, prop::bool::weighted(0.85), caps, 0..90u64), 1..7)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("proptest-regressions/mrtr.txt"))),
        ..ProptestConfig::default()
    })]

    /// Generated walks of rounds: every reply is the model's, and a tool
    /// runs exactly when the model says (I2 to I13).
    #[test]
    fn walks_of_rounds_agree_with_the_model(
        target in select(vec![("tools/call", "plan"), ("tools/call", "greet"), ("tools/call", "confirm"), ("prompts/get", "brief"), ("tools/call", "connect"), ("tools/call", "sample")]),
        topic in select(vec![None, Some("a"), Some("b")]),
        steps in moves(),
    ) {
        let server = Server::new(fixture("mira", 7));
        let (method, name) = target;
        let args = topic.map_or(json!({}), |t| json!({"topic": t}));
        let mut now = NOW;
        let mut last: Option<Value> = None;
        for (id, (mv, keep, caps, later)) in steps.into_iter().enumerate() {
            now += later;
            let mut params = json!({"name": name, "arguments": args});
            if let Some(result) = &last {
                let mut responses = answers(result);
                let first = responses.as_object().and_then(|m| m.keys().next().cloned());
                match (mv, first) {
                    (Move::All, _) => {}
                    (Move::First, Some(k)) => {
                        let keep_one = responses[&k].clone();
                        responses = json!({ k: keep_one });
                    }
                    (Move::Malformed, Some(k)) => responses[&k] = json!([1]),
                    (Move::Decline, Some(k)) => responses[&k] = json!({"action": "decline"}),
                    (Move::Unknown, _) => responses = json!({"no_such_key": {"action": "accept", "content": {}}}),
                    _ => responses = Value::Null,
                }
                if !responses.is_null() {
                    params["inputResponses"] = responses;
                }
                if keep && let Some(s) = result.get("requestState") {
                    params["requestState"] = s.clone();
                }
            }
            let (reply, _) = judged(&server, &request(id as u64, method, params, &caps), now);
            last = reply.get("result").filter(|r| r["resultType"] == json!("input_required")).cloned();
        }
    }

    /// A state turned against the server in any of the six ways is refused
    /// with the model's error (I7, I8), and nothing runs; the same retry
    /// with the state as issued completes (so the refusal is the state's).
    #[test]
    fn a_turned_state_is_refused_and_nothing_runs(
        how in 0..6u8,
        position in 0..59usize,
        replacement in select(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".to_vec()),
        late in 61..100_000u64,
    ) {
        let config = fixture("mira", 7);
        let server = Server::new(config.clone());
        let params = json!({"name": "confirm", "arguments": {}});
        let (first, _) = judged(&server, &request(1, "tools/call", params.clone(), ALL_CAPS), NOW);
        let state = first["result"]["requestState"].as_str().unwrap().to_owned();
        let retry = |state: &str, name: &str, args: Value| {
            request(2, "tools/call", json!({"name": name, "arguments": args,
                "inputResponses": {"ok": {"action": "accept", "content": {"ok": true}}}, "requestState": state}), ALL_CAPS)
        };
        let honest = judged(&server, &retry(&state, "confirm", json!({})), NOW + 5).1;
        prop_assert_eq!(honest.row, "I12");
        prop_assert!(honest.runs);
        let (reply, want) = match how {
            0 => {
                let mut bytes = state.clone().into_bytes();
                prop_assume!(bytes[position] != replacement);
                bytes[position] = replacement;
                judged(&server, &retry(&String::from_utf8(bytes).unwrap(), "confirm", json!({})), NOW)
            }
            1 => judged(&server, &retry(&state, "confirm", json!({})), NOW + late),
            2 => judged(&server, &retry(&state, "plan", json!({})), NOW),
            3 => {
                // The same state on a tool whose arguments differ.
                let plan = json!({"name": "plan", "arguments": {"topic": "a"}});
                let (first, _) = judged(&server, &request(3, "tools/call", plan, ALL_CAPS), NOW);
                let s = first["result"]["requestState"].as_str().unwrap().to_owned();
                let other = request(4, "tools/call", json!({"name": "plan", "arguments": {"topic": "b"},
                    "inputResponses": answers(&first["result"]), "requestState": s}), ALL_CAPS);
                judged(&server, &other, NOW)
            }
            4 => judged(&Server::new(fixture("tomas", 7)), &retry(&state, "confirm", json!({})), NOW),
            _ => judged(&Server::new(fixture("mira", 8)), &retry(&state, "confirm", json!({})), NOW),
        };
        prop_assert!(!want.runs);
        prop_assert!(matches!(want.row, "I7" | "I8"), "{} {}", want.row, reply);
        prop_assert_eq!(reply["error"]["code"].as_i64(), Some(rows::fixed(want.row).0));
    }
}

/// Over HTTP the principal is the verified token's user: mira's state with
/// tomas's token is refused and runs nothing; with mira's it completes.
#[test]
fn over_http_the_state_belongs_to_the_token_s_user() {
    let config = with_auth(fixture("nobody", 7), settings(issuer().jwks()));
    let binding = Binding::new(
        Server::new(config.clone()),
        Bound {
            port: LISTEN.port,
            loopback: true,
        },
    );
    let keys = Keys::from_jwks(issuer().jwks()).unwrap();
    let send = |body: &Value, user: &str| -> (u16, Value, usize) {
        let body = body.to_string();
        let mut headers = conforming(&config, LISTEN, body.as_bytes());
        let token = issuer().token(user, "orders:read", false);
        headers.push((
            "Authorization".into(),
            format!("Bearer {token}").into_bytes(),
        ));
        let http = HttpRequest {
            method: "POST".into(),
            target: "/mcp".into(),
            headers,
            body: body.into_bytes(),
        };
        let heads = header_refs(&http);
        let request = Request {
            method: "POST",
            target: "/mcp",
            headers: &heads,
            body: &http.body,
        };
        let mut ran = Counting::default();
        let trust = Trust {
            keys: &keys,
            now: NOW,
            verified: None,
        };
        let response = binding.respond_at(&request, &trust, &mut ran);
        (
            response.status,
            serde_json::from_slice(&response.body).unwrap_or(Value::Null),
            ran.ran.len(),
        )
    };
    let first = request(
        1,
        "tools/call",
        json!({"name": "confirm", "arguments": {}}),
        ALL_CAPS,
    );
    let (status, reply, _) = send(&first, "mira");
    assert_eq!(status, 200, "{reply}");
    let retry = request(
        2,
        "tools/call",
        json!({"name": "confirm", "arguments": {},
        "inputResponses": answers(&reply["result"]), "requestState": reply["result"]["requestState"]}),
        ALL_CAPS,
    );
    let (status, refused, ran) = send(&retry, "tomas");
    assert_eq!((status, ran), (400, 0), "{refused}");
    assert_eq!(refused["error"]["message"], json!(rows::fixed("I7").1));
    let (status, done, ran) = send(&retry, "mira");
    assert_eq!((status, ran), (200, 1), "{done}");
    // -32021 is 400 over HTTP (basic/index.mdx).
    let (status, missing, _) = send(
        &request(
            3,
            "tools/call",
            json!({"name": "greet", "arguments": {}}),
            "{}",
        ),
        "mira",
    );
    assert_eq!(
        (status, missing["error"]["code"].as_i64()),
        (400, Some(rows::fixed("I3").0))
    );
}

/// The clock is an input: the same line at the same time gives the same
/// bytes, and a state is accepted up to its expiry and refused after.
#[test]
fn same_inputs_same_bytes_and_the_expiry_is_inclusive() {
    let server = Server::new(fixture("mira", 7));
    let line = request(
        1,
        "tools/call",
        json!({"name": "confirm", "arguments": {}}),
        ALL_CAPS,
    )
    .to_string();
    let at = |now| {
        let mut out = Vec::new();
        server.respond_at(line.as_bytes(), &mut out, &mut Counting::default(), now);
        out
    };
    assert_eq!(at(NOW), at(NOW));
    assert_ne!(at(NOW), at(NOW + 1));
    let first: Value = serde_json::from_slice(&at(NOW)).unwrap();
    let retry = request(
        2,
        "tools/call",
        json!({"name": "confirm", "arguments": {},
        "inputResponses": answers(&first["result"]), "requestState": first["result"]["requestState"]}),
        ALL_CAPS,
    );
    assert_eq!(judged(&server, &retry, NOW + 60).1.row, "I12");
    assert_eq!(judged(&server, &retry, NOW + 61).1.row, "I8");
}

/// The legacy eras have no multi round-trip requests: an input tool is
/// neither listed nor called there.
#[test]
fn input_tools_are_modern_only() {
    let config = fixture("mira", 7)
        .with_legacy_versions(vec!["2025-11-25".into()])
        .unwrap();
    let server = Server::new(config);
    let mut session = mcp_reference::Session::new(&server);
    let mut out = Vec::new();
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{}}}"#,
    ] {
        session.handle_with(line.as_bytes(), &mut out, &mut Counting::default());
    }
    let replies: Vec<Value> = out
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    let names: Vec<_> = replies[1]["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].clone())
        .collect();
    assert_eq!(names, [json!("get_order")]);
    assert!(
        replies[2]["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Unknown tool")
    );
}

/// The generic model (`model::expect_line`, which the property tests, the
/// fuzz checks and the replayers ask) agrees with the server on the
/// conformance configuration: the input tools in `tools/list`, the input
/// prompt in `prompts/list` and the `prompts` capability, and every reply
/// of an input target, judged as `model::input` judges it and under its
/// row; every reply validates against the official schema.
#[test]
fn the_generic_model_knows_the_input_targets() {
    use mcp_reference_testkit::model::{self, Reply};
    use mcp_reference_testkit::schema::Schema;
    let config = conformance();
    let server = Server::new(config.clone());
    let schema = Schema::find("2026-07-28").unwrap();
    let lines = [
        request(1, "server/discover", json!({}), ALL_CAPS),
        request(2, "tools/list", json!({}), ALL_CAPS),
        request(3, "prompts/list", json!({}), ALL_CAPS),
        request(
            4,
            "tools/call",
            json!({"name": "test_missing_capability", "arguments": {}}),
            "{}",
        ),
        request(
            5,
            "tools/call",
            json!({"name": "test_input_required_result_elicitation", "arguments": {}, "inputResponses": 7}),
            ALL_CAPS,
        ),
        request(
            6,
            "prompts/get",
            json!({"name": "test_input_required_result_prompt", "inputResponses": {"user_context": {"action": "cancel"}}}),
            ALL_CAPS,
        ),
        request(
            7,
            "tools/call",
            json!({"name": "test_input_required_result_elicitation", "arguments": {}}),
            ALL_CAPS,
        ),
        request(
            8,
            "tools/call",
            json!({"name": "test_input_required_result_tampered_state", "arguments": {}}),
            ALL_CAPS,
        ),
    ];
    for line in &lines {
        let bytes = line.to_string();
        let reply = server.respond(bytes.as_bytes()).unwrap();
        let expect = model::expect_line(&config, bytes.as_bytes());
        expect
            .check(&config, &reply)
            .unwrap_or_else(|e| panic!("{e}\n{line}\n{}", String::from_utf8_lossy(&reply)));
        let value: Value = serde_json::from_slice(&reply).unwrap();
        if let Err(e) = schema.validate_reply(line["method"].as_str(), &value) {
            panic!("{e}\n{value}");
        }
        // The generic model leaves nothing open, and names the input
        // model's row.
        assert!(!matches!(expect.reply, Reply::Unknown), "{line}");
        if let Some(want) = input::expect(&config, line, 0) {
            assert_eq!(expect.row, want.row, "{line}");
            input::check(&config, line, 0, &value).unwrap();
        }
    }
}
