//! A model-based test of multi round-trip requests (docs/behavior.md, rows
//! I1 to I15) over the pure core: random interleavings of first requests,
//! answers, states replayed from any earlier round, states presented by
//! another user, to a server with another key, on another target, with one
//! byte changed, and the clock moving past their expiry.
//!
//! The reference state machine is the client's side: the clock, and how
//! many `InputRequiredResult`s it may hold (a transition names an earlier
//! one by index, modulo how many the system has seen, so a replay of an
//! old round's state is as likely as the latest). The system under test is
//! three servers of the same targets: mira's with key 7 (the client's
//! own), tomas's with key 7 and mira's with key 8. After each step:
//!
//! - the reply is the model's (`model::input::check` at the step's time,
//!   the model's own HMAC verifier), whatever came before: the core keeps
//!   nothing between requests, so an earlier round changes nothing but
//!   what the client holds;
//! - a tool runs exactly when the model says (the executor counts), so a
//!   forged, foreign, expired or misplaced state never runs anything;
//! - a state is never accepted by a server it was not issued by: another
//!   user's or another key's server refuses it (I7), and a changed byte is
//!   refused (I7), whatever the round.
//!
//! Spec: 2026-07-28 `basic/patterns/mrtr.mdx` (server requirements 4 and
//! 5: state is attacker-controlled, integrity-protected and bound to the
//! principal, the request and an expiry), `client/elicitation.mdx`
//! (decline and cancel are not accept).

#[path = "support/input_fixture.rs"]
mod input_fixture;
#[path = "support/switches.rs"]
mod switches;
use input_fixture::{TARGETS, TTL, fixture};

use mcp_reference::Server;
use mcp_reference_testkit::Counting;
use mcp_reference_testkit::model::input;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::FileFailurePersistence;
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest, prop_state_machine};
use serde_json::{Value, json};

/// How an answer is made from an `InputRequiredResult`.
#[derive(Debug, Clone, Copy)]
enum Answer {
    /// Every input answered.
    All,
    /// Only the first.
    First,
    /// None (an empty `inputResponses`).
    Empty,
    /// The first declined.
    Decline,
    /// The first cancelled.
    Cancel,
    /// The first a value of the wrong shape.
    Malformed,
}

/// Whose server the request goes to.
#[derive(Debug, Clone, Copy)]
enum Server3 {
    /// mira's, key 7: the one the client's states come from.
    Own,
    /// tomas's, key 7.
    OtherUser,
    /// mira's, key 8.
    OtherKey,
}

#[derive(Debug, Clone)]
enum Transition {
    /// A first request to a target, with or without a topic, with some
    /// capabilities.
    Start {
        target: usize,
        topic: Option<&'static str>,
        caps: String,
    },
    /// The answer to the `held`-th result held (modulo), with its state,
    /// to its own target and arguments, on one of the servers.
    Retry {
        held: usize,
        answer: Answer,
        caps: String,
        server: Server3,
    },
    /// The `held`-th state with the character at `at` (modulo its length)
    /// replaced by `by`.
    Forge { held: usize, at: usize, by: u8 },
    /// The `held`-th state on another target (or its own with another
    /// topic).
    Elsewhere { held: usize, target: usize },
    /// The clock moves.
    Wait(u64),
}

/// The client's side: the clock.
#[derive(Debug, Clone)]
struct Client {
    now: u64,
}

const START: u64 = 1_900_000_000;

const CAPS: [&str; 5] = [
    r#"{"elicitation":{},"sampling":{},"roots":{}}"#,
    r#"{"elicitation":{},"sampling":{},"roots":{}}"#,
    r#"{"elicitation":{},"roots":{}}"#,
    r#"{"elicitation":{}}"#,
    "{}",
];

/// The capabilities of a request: one of [`CAPS`], or any combination of
/// declared sub-capabilities (row I14: `elicitation` absent, `{}`,
/// `{form}`, `{url}`, `{form, url}`; `sampling` absent, `{}`, `{tools}`,
/// `{context}`, both; `roots` or not).
fn caps() -> BoxedStrategy<String> {
    let elicitation = [
        None,
        Some(json!({})),
        Some(json!({"form": {}})),
        Some(json!({"url": {}})),
        Some(json!({"form": {}, "url": {}})),
    ];
    let sampling = [
        None,
        Some(json!({})),
        Some(json!({"tools": {}})),
        Some(json!({"context": {}})),
        Some(json!({"tools": {}, "context": {}})),
    ];
    let combination = (0..5usize, 0..5usize, any::<bool>()).prop_map(move |(e, s, r)| {
        let mut c = serde_json::Map::new();
        if let Some(v) = elicitation.get(e).cloned().flatten() {
            c.insert("elicitation".into(), v);
        }
        if let Some(v) = sampling.get(s).cloned().flatten() {
            c.insert("sampling".into(), v);
        }
        if r {
            c.insert("roots".into(), json!({}));
        }
        Value::Object(c).to_string()
    });
    prop_oneof![
        3 => select(CAPS.to_vec()).prop_map(str::to_owned),
        2 => Just(r#"{"elicitation":{"form":{},"url":{}},"sampling":{"tools":{},"context":{}},"roots":{}}"#.to_owned()),
        3 => combination,
    ]
    .boxed()
}

struct Reference;

impl ReferenceStateMachine for Reference {
    type State = Client;
    type Transition = Transition;

    fn init_state() -> BoxedStrategy<Client> {
        Just(Client { now: START }).boxed()
    }

    fn transitions(_: &Client) -> BoxedStrategy<Transition> {
        let answer = select(vec![
            Answer::All,
            Answer::All,
            Answer::All,
            Answer::First,
            Answer::Empty,
            Answer::Decline,
            Answer::Cancel,
            Answer::Malformed,
        ]);
        let server = prop_oneof![
            6 => Just(Server3::Own),
            1 => Just(Server3::OtherUser),
            1 => Just(Server3::OtherKey),
        ];
        prop_oneof![
            3 => (0..TARGETS.len(), select(vec![None, Some("a"), Some("b")]), caps())
                .prop_map(|(target, topic, caps)| Transition::Start { target, topic, caps }),
            6 => (0..8usize, answer, caps(), server)
                .prop_map(|(held, answer, caps, server)| Transition::Retry { held, answer, caps, server }),
            1 => (0..8usize, 0..64usize, select(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".to_vec()))
                .prop_map(|(held, at, by)| Transition::Forge { held, at, by }),
            1 => (0..8usize, 0..TARGETS.len()).prop_map(|(held, target)| Transition::Elsewhere { held, target }),
            1 => (0..TTL * 2).prop_map(Transition::Wait),
        ]
        .boxed()
    }

    fn apply(mut state: Client, transition: &Transition) -> Client {
        if let Transition::Wait(s) = transition {
            state.now += s;
        }
        state
    }
}

/// A result the client holds: the request it answered, and the result.
#[derive(Debug, Clone)]
struct Held {
    method: &'static str,
    params: Value,
    result: Value,
}

struct Sut {
    own: Server,
    other_user: Server,
    other_key: Server,
    held: Vec<Held>,
    id: u64,
}

fn request(id: u64, method: &str, mut params: Value, caps: &str) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": serde_json::from_str::<Value>(caps).expect("caps"),
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn answer_to(kind: &str, key: &str) -> Value {
    match (kind, key) {
        ("elicitation/create", "ok") => json!({"action": "accept", "content": {"ok": true}}),
        ("elicitation/create", "ctx") => json!({"action": "accept", "content": {"ctx": "c"}}),
        ("elicitation/create", _) => json!({"action": "accept", "content": {"name": "Alice"}}),
        ("sampling/createMessage", _) => {
            json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"})
        }
        _ => json!({"roots": [{"uri": "file:///r", "name": "r"}]}),
    }
}

fn responses(result: &Value, how: Answer) -> Value {
    let mut out = serde_json::Map::new();
    let asked = result["inputRequests"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    for (i, (key, req)) in asked.iter().enumerate() {
        let first = i == 0;
        let value = match how {
            // A URL-mode elicitation: an accept without content (I15).
            Answer::All | Answer::First
                if req["params"]["mode"] == "url" && (first || matches!(how, Answer::All)) =>
            {
                json!({"action": "accept"})
            }
            Answer::All => answer_to(req["method"].as_str().unwrap_or_default(), key),
            Answer::First if first => answer_to(req["method"].as_str().unwrap_or_default(), key),
            Answer::Decline if first => json!({"action": "decline"}),
            Answer::Cancel if first => json!({"action": "cancel"}),
            Answer::Malformed if first => json!([1]),
            Answer::Decline | Answer::Cancel | Answer::Malformed => {
                answer_to(req["method"].as_str().unwrap_or_default(), key)
            }
            Answer::First | Answer::Empty => continue,
        };
        out.insert(key.clone(), value);
    }
    Value::Object(out)
}

impl Sut {
    /// Sends `request` to `server` at `now`; the reply must be the
    /// model's, and a tool runs exactly when the model says. Keeps an
    /// `InputRequiredResult` for later transitions.
    fn send(
        &mut self,
        which: Server3,
        method: &'static str,
        params: Value,
        caps: &str,
        now: u64,
    ) -> input::InputExpect {
        self.id += 1;
        let request = request(self.id, method, params.clone(), caps);
        let server = match which {
            Server3::Own => &self.own,
            Server3::OtherUser => &self.other_user,
            Server3::OtherKey => &self.other_key,
        };
        let mut counting = Counting::default();
        let mut out = Vec::new();
        server.respond_at(request.to_string().as_bytes(), &mut out, &mut counting, now);
        let reply: Value = serde_json::from_slice(&out).expect("one JSON reply");
        let want = input::check(server.config(), &request, now, &reply)
            .unwrap_or_else(|e| panic!("{e}\nrequest {request}"));
        assert_eq!(
            counting.ran.len(),
            usize::from(want.runs),
            "tools run {:?} for {request}: the model says {want:?}",
            counting.ran
        );
        if let Some(result) = reply
            .get("result")
            .filter(|r| r["resultType"] == json!("input_required"))
            && matches!(which, Server3::Own)
        {
            let mut params = params;
            if let Some(p) = params.as_object_mut() {
                p.remove("inputResponses");
                p.remove("requestState");
            }
            self.held.push(Held {
                method,
                params,
                result: result.clone(),
            });
        }
        want
    }

    fn held(&self, n: usize) -> Option<Held> {
        let len = self.held.len();
        (len > 0).then(|| self.held[n % len].clone())
    }
}

struct Rounds;

impl StateMachineTest for Rounds {
    type SystemUnderTest = Sut;
    type Reference = Reference;

    fn init_test(_: &Client) -> Sut {
        Sut {
            own: Server::new(fixture("mira", 7)),
            other_user: Server::new(fixture("tomas", 7)),
            other_key: Server::new(fixture("mira", 8)),
            held: Vec::new(),
            id: 0,
        }
    }

    fn apply(mut sut: Sut, client: &Client, transition: Transition) -> Sut {
        let now = client.now;
        let start = |target: usize, topic: Option<&str>| {
            let (method, name) = TARGETS[target % TARGETS.len()];
            let args = topic.map_or(json!({}), |t| json!({"topic": t}));
            (method, json!({"name": name, "arguments": args}))
        };
        match transition {
            Transition::Start {
                target,
                topic,
                caps,
            } => {
                let (method, params) = start(target, topic);
                sut.send(Server3::Own, method, params, &caps, now);
            }
            Transition::Retry {
                held,
                answer,
                caps,
                server,
            } => {
                let Some(h) = sut.held(held) else {
                    return sut;
                };
                let mut params = h.params.clone();
                params["inputResponses"] = responses(&h.result, answer);
                let state = h.result.get("requestState").cloned();
                if let Some(s) = &state {
                    params["requestState"] = s.clone();
                }
                let want = sut.send(server, h.method, params, &caps, now);
                // Another user's or another key's server never accepts
                // a state it did not issue.
                if state.is_some() && !matches!(server, Server3::Own) {
                    assert_eq!(want.row, "I7", "{want:?}");
                }
            }
            Transition::Forge { held, at, by } => {
                let Some(h) = sut.held(held) else {
                    return sut;
                };
                let Some(state) = h.result.get("requestState").and_then(Value::as_str) else {
                    return sut;
                };
                let mut bytes = state.as_bytes().to_vec();
                let at = at % bytes.len();
                if bytes[at] == by {
                    return sut;
                }
                bytes[at] = by;
                let mut params = h.params.clone();
                params["inputResponses"] = responses(&h.result, Answer::All);
                params["requestState"] = json!(String::from_utf8(bytes).expect("ASCII"));
                let want = sut.send(Server3::Own, h.method, params, CAPS[0], now);
                assert_eq!(want.row, "I7", "{want:?}");
            }
            Transition::Elsewhere { held, target } => {
                let Some(h) = sut.held(held) else {
                    return sut;
                };
                let Some(state) = h.result.get("requestState").cloned() else {
                    return sut;
                };
                let (method, mut params) = start(target, Some("b"));
                if method == h.method && params == h.params {
                    return sut;
                }
                params["inputResponses"] = responses(&h.result, Answer::All);
                params["requestState"] = state;
                let want = sut.send(Server3::Own, method, params, CAPS[0], now);
                // A target without state ignores a state (I12's
                // DEC17); one with state refuses another's (I7), or
                // an expired one (I8).
                assert!(!want.runs || want.row == "I12", "{want:?}");
            }
            Transition::Wait(_) => {}
        }
        sut
    }
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: switches::cases(256),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/mrtr_state_machine.txt",
        ))),
        ..ProptestConfig::default()
    }
}

prop_state_machine! {
    #![proptest_config(config())]

    /// Interleaved rounds, replays, forgeries, foreign states and the clock
    /// against the core: every reply is the model's, and nothing runs
    /// that the model does not run.
    #[test]
    fn rounds_replays_and_forgeries_agree_with_the_model(sequential 1..24 => Rounds);
}
