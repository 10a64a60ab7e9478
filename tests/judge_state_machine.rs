//! A model-based test of the client judge (`mcp_reference::judge`): a
//! correct client, generated as random interleavings of discovery, lists,
//! calls, progress tokens, cancellations of its own requests, a version
//! it must change after `-32022`, and multi round-trip requests started and
//! retried in any order (a round retried long after it was issued, or
//! never), gets no finding over stdio or over HTTP, and every rule it
//! exercises is `pass`, never `not-run`.
//!
//! The correct client is the test kit's, not the judge's: each answer it
//! gives to an input request is one the model (`model::input::judge`)
//! takes for a valid result of that request, so a judge that refused a
//! valid answer, or a model that let through an invalid one the judge
//! catches, would disagree here. The reference state machine holds how
//! many rounds the client holds (a retry names one by index, modulo how
//! many the system has); the system is the core, a judge per binding and
//! the rounds as the server answered them.
//!
//! Spec: 2026-07-28 `basic/patterns/mrtr.mdx` ("Client Requirements"),
//! `basic/index.mdx` (ids, `_meta`), `basic/versioning.mdx`.

#[path = "support/input_fixture.rs"]
mod input_fixture;
#[path = "support/switches.rs"]
mod switches;

use input_fixture::TARGETS;
use mcp_reference::http::{Binding, Bound, Request};
use mcp_reference::judge::{Ending, Judge, Status, Transport};
use mcp_reference::{InputKind, InputSpec, Server};
use mcp_reference_testkit::model::input;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest, prop_state_machine};
use serde_json::{Value, json};

/// What a client declares: every input capability, or form mode only.
const CAPABILITIES: [&str; 3] = [
    r#"{"elicitation":{"form":{},"url":{}},"sampling":{"tools":{},"context":{}},"roots":{}}"#,
    r#"{"elicitation":{}}"#,
    "{}",
];

#[derive(Debug, Clone)]
enum Step {
    Discover,
    List(&'static str),
    /// `get_order` (the fixture's user owns none: an error result is still
    /// an answer), with a progress token or not.
    Call {
        progress: bool,
    },
    /// The first round of a target, declaring capabilities `caps`.
    Start {
        target: usize,
        caps: usize,
    },
    /// The retry of a round the client holds; `refuse` declines an
    /// elicitation instead of accepting it.
    Retry {
        round: usize,
        refuse: bool,
    },
    /// Cancels one of the client's own earlier requests.
    Cancel {
        back: usize,
    },
    /// A version the server does not serve, then the same request again
    /// with one of `data.supported`.
    Version,
}

#[derive(Debug, Clone, Default)]
struct Client {
    rounds: usize,
}

impl ReferenceStateMachine for Client {
    type State = Client;
    type Transition = Step;

    fn init_state() -> BoxedStrategy<Client> {
        Just(Client::default()).boxed()
    }

    fn transitions(state: &Client) -> BoxedStrategy<Step> {
        let mut steps = vec![
            Just(Step::Discover).boxed(),
            prop::sample::select(vec!["tools/list", "prompts/list", "resources/list"])
                .prop_map(Step::List)
                .boxed(),
            any::<bool>()
                .prop_map(|progress| Step::Call { progress })
                .boxed(),
            (0..TARGETS.len(), 0..CAPABILITIES.len())
                .prop_map(|(target, caps)| Step::Start { target, caps })
                .boxed(),
            (0..8usize).prop_map(|back| Step::Cancel { back }).boxed(),
            Just(Step::Version).boxed(),
        ];
        if state.rounds > 0 {
            steps.push(
                (0..state.rounds, any::<bool>())
                    .prop_map(|(round, refuse)| Step::Retry { round, refuse })
                    .boxed(),
            );
            steps.push(
                (0..state.rounds, any::<bool>())
                    .prop_map(|(round, refuse)| Step::Retry { round, refuse })
                    .boxed(),
            );
        }
        prop::strategy::Union::new(steps).boxed()
    }

    fn apply(mut state: Client, step: &Step) -> Client {
        if matches!(step, Step::Start { .. }) {
            state.rounds += 1;
        }
        state
    }
}

/// A round the server answered, as the client holds it.
struct Round {
    method: &'static str,
    name: &'static str,
    caps: &'static str,
    result: Value,
}

/// The system: the core, and a judge fed each message as the stdio driver
/// and the HTTP driver feed theirs.
struct System {
    server: Server,
    binding: Binding,
    stdio: Judge,
    http: Judge,
    next_id: u64,
    sent: Vec<u64>,
    rounds: Vec<Round>,
}

fn meta(version: &str, caps: &str, progress: Option<u64>) -> String {
    let token = progress.map_or_else(String::new, |t| format!(r#""progressToken":"p{t}","#));
    format!(
        r#""_meta":{{{token}"io.modelcontextprotocol/protocolVersion":"{version}","io.modelcontextprotocol/clientCapabilities":{caps},"io.modelcontextprotocol/clientInfo":{{"name":"judged","version":"1.0.0"}}}}"#
    )
}

impl System {
    /// Sends one request (params without `_meta`, then `_meta`), judged
    /// over both bindings; the reply as JSON.
    fn send(&mut self, method: &str, params: &str, meta: &str, name: Option<&str>) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.sent.push(id);
        let sep = if params.is_empty() { "" } else { "," };
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{sep}{meta}}}}}"#
        );
        let reply = self.both(&line, method, name);
        serde_json::from_slice(&reply).unwrap_or(Value::Null)
    }

    /// One message through both judges: the stdio reply line.
    fn both(&mut self, line: &str, method: &str, name: Option<&str>) -> Vec<u8> {
        let ticket = self.stdio.client(&self.server, line.as_bytes());
        let mut out = Vec::new();
        let _ = self.server.respond_into(line.as_bytes(), &mut out);
        self.stdio.server(ticket, &out);
        let version = serde_json::from_str::<Value>(line)
            .ok()
            .and_then(|v| {
                v.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .unwrap_or_default();
        let mut headers: Vec<(&str, &[u8])> = vec![
            ("host", b"127.0.0.1:8080"),
            ("content-type", b"application/json"),
            ("accept", b"application/json, text/event-stream"),
        ];
        if !method.starts_with("notifications/") {
            headers.push(("mcp-method", method.as_bytes()));
            headers.push(("mcp-protocol-version", version.as_bytes()));
        }
        if let Some(name) = name {
            headers.push(("mcp-name", name.as_bytes()));
        }
        let request = Request {
            method: "POST",
            target: "/mcp",
            headers: &headers,
            body: line.as_bytes(),
        };
        let ticket = self.http.client_http(self.binding.server(), &request);
        let response = self.binding.respond(&request);
        self.http.server_http(ticket, &response);
        out
    }

    fn retry(&mut self, index: usize, refuse: bool) {
        let Some(round) = self.rounds.get(index) else {
            return;
        };
        let (method, name, caps) = (round.method, round.name, round.caps);
        let result = round.result.clone();
        let mut responses = serde_json::Map::new();
        for (key, request) in result["inputRequests"].as_object().into_iter().flatten() {
            let answer = answer(request, refuse);
            // The test kit's model takes it for a valid result.
            let kind = InputKind::ALL
                .into_iter()
                .find(|k| Some(k.method()) == request["method"].as_str())
                .expect("an input request's method");
            let spec = InputSpec {
                key: key.clone(),
                kind,
                optional: false,
                params: request["params"].clone(),
            };
            assert!(
                input::judge(&spec, &answer).is_some(),
                "the client's answer {answer} is not valid in the model"
            );
            responses.insert(key.clone(), answer);
        }
        let mut params = format!(
            r#""name":"{name}","arguments":{},"inputResponses":{}"#,
            arguments(name),
            Value::Object(responses)
        );
        if let Some(state) = result["requestState"].as_str() {
            params.push_str(&format!(r#","requestState":{}"#, Value::from(state)));
        }
        let reply = self.send(method, &params, &meta("2026-07-28", caps, None), Some(name));
        // The retry is the round's last use; a new round replaces it.
        self.hold(index, method, name, caps, &reply);
    }

    fn hold(
        &mut self,
        index: usize,
        method: &'static str,
        name: &'static str,
        caps: &'static str,
        reply: &Value,
    ) {
        let round = Round {
            method,
            name,
            caps,
            result: reply["result"].clone(),
        };
        let input_required = reply["result"]["resultType"] == "input_required";
        match (self.rounds.get_mut(index), input_required) {
            (Some(slot), true) => *slot = round,
            (Some(slot), false) => slot.result = Value::Null,
            (None, true) => self.rounds.push(round),
            (None, false) => self.rounds.push(Round {
                result: Value::Null,
                ..round
            }),
        }
    }
}

/// The arguments the fixture's targets take: one string each.
fn arguments(name: &str) -> Value {
    match name {
        "plan" => json!({"topic": "t", "depth": "d"}),
        "greet" | "brief" | "sample" => json!({"topic": "t"}),
        _ => json!({}),
    }
}

/// A correct answer to one input request.
fn answer(request: &Value, refuse: bool) -> Value {
    let params = &request["params"];
    match request["method"].as_str() {
        Some("elicitation/create") if refuse => json!({"action": "decline"}),
        Some("elicitation/create") if params["mode"] == "url" => json!({"action": "accept"}),
        Some("elicitation/create") => {
            let mut content = serde_json::Map::new();
            for (key, schema) in params["requestedSchema"]["properties"]
                .as_object()
                .into_iter()
                .flatten()
            {
                let value = match schema["type"].as_str() {
                    Some("boolean") => json!(true),
                    Some("integer" | "number") => json!(1),
                    _ => json!("x"),
                };
                content.insert(key.clone(), value);
            }
            json!({"action": "accept", "content": content})
        }
        Some("sampling/createMessage") => {
            json!({"role": "assistant", "content": {"type": "text", "text": "t"}, "model": "m"})
        }
        _ => json!({"roots": [{"uri": "file:///books", "name": "books"}]}),
    }
}

impl StateMachineTest for System {
    type SystemUnderTest = System;
    type Reference = Client;

    fn init_test(_: &Client) -> System {
        let config = input_fixture::fixture("mira", 7);
        System {
            server: Server::new(config.clone()),
            binding: Binding::new(
                Server::new(config),
                Bound {
                    port: 8080,
                    loopback: true,
                },
            ),
            stdio: Judge::new(Transport::Stdio, Vec::new()),
            http: Judge::new(Transport::Http, Vec::new()),
            next_id: 1,
            sent: Vec::new(),
            rounds: Vec::new(),
        }
    }

    fn apply(mut sut: System, _: &Client, step: Step) -> System {
        let plain = meta("2026-07-28", "{}", None);
        match step {
            Step::Discover => {
                sut.send("server/discover", "", &plain, None);
            }
            Step::List(method) => {
                sut.send(method, "", &plain, None);
            }
            Step::Call { progress } => {
                let token = progress.then_some(sut.next_id);
                let params = r#""name":"get_order","arguments":{"order_id":"A-104"}"#;
                let meta = meta("2026-07-28", "{}", token);
                sut.send("tools/call", params, &meta, Some("get_order"));
            }
            Step::Start { target, caps } => {
                let (method, name) = TARGETS[target];
                let caps = CAPABILITIES[caps];
                let params = format!(r#""name":"{name}","arguments":{}"#, arguments(name));
                let reply = sut.send(method, &params, &meta("2026-07-28", caps, None), Some(name));
                let index = sut.rounds.len();
                sut.hold(index, method, name, caps, &reply);
            }
            Step::Retry { round, refuse } => {
                if !sut.rounds.is_empty() {
                    let index = round % sut.rounds.len();
                    if !sut.rounds[index].result.is_null() {
                        sut.retry(index, refuse);
                    }
                }
            }
            Step::Cancel { back } => {
                if let Some(&id) = sut.sent.iter().rev().nth(back) {
                    let line = format!(
                        r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id}}}}}"#
                    );
                    sut.both(&line, "notifications/cancelled", None);
                }
            }
            Step::Version => {
                let reply = sut.send("tools/list", "", &meta("1999-01-01", "{}", None), None);
                let supported = reply["error"]["data"]["supported"][0]
                    .as_str()
                    .unwrap_or("2026-07-28")
                    .to_owned();
                sut.send("tools/list", "", &meta(&supported, "{}", None), None);
            }
        }
        sut
    }

    fn check_invariants(sut: &System, _: &Client) {
        for judge in [&sut.stdio, &sut.http] {
            let report = judge.report();
            let failed: Vec<_> = report
                .rules
                .iter()
                .filter(|r| r.status == Status::Fail)
                .map(|r| (r.id, r.reason.clone()))
                .collect();
            assert!(
                failed.is_empty(),
                "a correct client was found at fault: {failed:?}"
            );
        }
    }

    fn teardown(mut sut: System, _: Client) {
        sut.stdio.end(Ending::StdinClosed);
        sut.http.end(Ending::Signal);
        for judge in [&sut.stdio, &sut.http] {
            let report = judge.report();
            assert!(report.rules.iter().all(|r| r.status != Status::Fail));
            // A session that ended with a request judged passes; one with
            // none (a cancellation alone, or no step) has nothing to pass.
            let expected = if report.requests > 0 {
                mcp_reference::judge::Verdict::Pass
            } else {
                mcp_reference::judge::Verdict::Incomplete
            };
            assert_eq!(report.verdict, expected, "{}", report.to_json());
        }
    }
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: switches::cases(256),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/judge_state_machine.txt",
        ))),
        ..ProptestConfig::default()
    }
}

prop_state_machine! {
    #![proptest_config(config())]

    /// A correct client, in any interleaving, gets no finding from the
    /// judge over either binding, and a session that ended passes.
    #[test]
    fn a_correct_client_is_never_found_at_fault(sequential 1..24 => System);
}

/// The state machine exercises the rules it claims to: over a long fixed
/// session the multi round-trip, cancellation, progress and version rules
/// all pass (a generator that never reached them would prove nothing).
#[test]
fn the_generated_steps_reach_every_rule_a_correct_client_can_exercise() {
    let client = Client::default();
    let mut sut = System::init_test(&client);
    let steps = [
        Step::Discover,
        Step::List("tools/list"),
        Step::Call { progress: true },
        Step::Start { target: 1, caps: 1 },
        Step::Start { target: 2, caps: 1 },
        Step::Start { target: 5, caps: 0 },
        Step::Retry {
            round: 0,
            refuse: false,
        },
        Step::Retry {
            round: 1,
            refuse: false,
        },
        Step::Retry {
            round: 2,
            refuse: false,
        },
        Step::Cancel { back: 1 },
        Step::Version,
    ];
    for step in steps {
        sut = System::apply(sut, &client, step);
        System::check_invariants(&sut, &client);
    }
    sut.stdio.end(Ending::StdinClosed);
    let report = sut.stdio.report();
    for id in [
        "mrtr.inputs",
        "mrtr.state-echo",
        "mrtr.state-none",
        "mrtr.new-id",
        "mrtr.answer-valid",
        "mrtr.answer-content",
        "mrtr.answer-declared",
        "cancel.known-request",
        "progress.token-type",
        "version.retry-supported",
        "meta.client-info",
    ] {
        let rule = report.rules.iter().find(|r| r.id == id).expect("rule");
        assert_eq!(rule.status, Status::Pass, "{id}: {}", rule.reason);
    }
}
