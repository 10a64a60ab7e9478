//! The calls `check --call` makes for each named target, and their
//! verdicts. For one target, in order:
//!
//! 1. a call declaring no capabilities and no progress token
//!    (`call.input-capabilities`: `-32021` or no input request;
//!    `call.progress-unasked`);
//! 2. a call declaring every capability and sub-capability, with a
//!    progress token (`call.progress`); when it asks for input, its rounds
//!    are answered ([`super::answer`]) and retried until a result is
//!    complete: that result is the *accepted* one;
//! 3. when it asked for input: a call declaring only `elicitation: {}`,
//!    `sampling: {}` and `roots: {}` (no URL mode, no tools in sampling);
//!    the first round's retry without `inputResponses`
//!    (`call.retry-unanswered`); with every answer the number 42
//!    (`call.answers-malformed`); with its elicitations declined, then
//!    cancelled (`call.decline`, `call.cancel`: never the accepted
//!    result); with its `requestState` changed in one character, cut to
//!    half, and presented with other arguments (`call.state-*`: refused,
//!    never completed).
//!
//! Every reply is also held to the schema (`call.result-schema`) and to
//! `resultType` (`call.result-type`), every exchange to carry no request of
//! the server's own (`call.server-requests`), and every progress notification that
//! came with it to the request's own token. After every target, one
//! target's state is presented on another's call (`call.state-foreign-tool`).
//!
//! Spec: 2026-07-28 `basic/patterns/mrtr.mdx`,
//! `basic/patterns/progress.mdx`, `basic/index.mdx#resulttype`,
//! `client/elicitation.mdx#error-handling`.

use serde_json::{Map, Value, json};

use mcp_reference_testkit::schema::Schema;

use super::answer::{self, Action};
use super::link::{Exchanged, Link};
use super::{Tally, Target};
use crate::check::ctx::SHOWN;
use crate::check::report::{Failure, Outcome};
use crate::check::wire;

/// At most this many rounds are answered before giving up on a result.
const ROUNDS: usize = 8;

/// The checks that need the target to have asked for input.
const ASKED: [&str; 7] = [
    "call.state-tampered",
    "call.state-truncated",
    "call.state-foreign-arguments",
    "call.decline",
    "call.cancel",
    "call.retry-unanswered",
    "call.answers-malformed",
];

/// Every capability and sub-capability a client can declare for input.
fn every() -> Value {
    json!({
        "elicitation": {"form": {}, "url": {}},
        "sampling": {"tools": {}, "context": {}},
        "roots": {}
    })
}

/// Form-mode elicitation, sampling without tools or context, roots.
fn narrow() -> Value {
    json!({"elicitation": {}, "sampling": {}, "roots": {}})
}

/// One request to build.
struct Ask {
    caps: Value,
    token: bool,
    name: Option<String>,
    arguments: Option<Map<String, Value>>,
    state: Option<String>,
    responses: Option<Map<String, Value>>,
}

impl Ask {
    fn with(caps: Value) -> Ask {
        Ask {
            caps,
            token: false,
            name: None,
            arguments: None,
            state: None,
            responses: None,
        }
    }

    fn retry(state: Option<String>, responses: Option<Map<String, Value>>) -> Ask {
        Ask {
            state,
            responses,
            ..Ask::with(every())
        }
    }
}

/// The first round of a target that asked for input.
struct Round {
    state: Option<String>,
    requests: Map<String, Value>,
}

/// What a target that issued a state leaves for `call.state-foreign-tool`.
struct Issued {
    target: Target,
    state: String,
    answers: Map<String, Value>,
}

struct Caller<'a> {
    link: &'a mut dyn Link,
    schema: Result<&'a Schema, &'a str>,
    tally: &'a mut Tally,
    next: u64,
    /// The progress tokens sent so far.
    tokens: Vec<String>,
}

/// Runs every call for `targets`.
pub(super) fn all(
    link: &mut dyn Link,
    targets: &[Target],
    schema: Result<&Schema, &str>,
    tally: &mut Tally,
) {
    let mut caller = Caller {
        link,
        schema,
        tally,
        next: 100,
        tokens: Vec::new(),
    };
    let mut issued = Vec::new();
    for t in targets {
        if let Some(i) = caller.target(t) {
            issued.push(i);
        }
    }
    caller.foreign(targets, &issued);
}

/// The first round of `reply`, when it is an `InputRequiredResult`.
fn input_required(reply: &Value) -> Option<Round> {
    let result = reply.get("result")?;
    if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
        return None;
    }
    Some(Round {
        state: result
            .get("requestState")
            .and_then(Value::as_str)
            .map(str::to_owned),
        requests: result
            .get("inputRequests")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
    })
}

/// Whether `reply` completes the request: a result that is not an
/// `InputRequiredResult` and not a tool error.
fn completes(reply: &Value) -> bool {
    let Some(result) = reply.get("result") else {
        return false;
    };
    result.get("resultType").and_then(Value::as_str) != Some("input_required")
        && result.get("isError") != Some(&Value::Bool(true))
}

/// `result` without its `_meta`, to compare two results by what they say.
fn gist(result: &Value) -> Value {
    let mut r = result.clone();
    if let Some(o) = r.as_object_mut() {
        o.remove("_meta");
    }
    r
}

/// What a reply is, in a few words.
fn what(reply: &Value) -> String {
    if let Some(code) = reply.pointer("/error/code") {
        return format!("error {code}");
    }
    match reply.pointer("/result/resultType").and_then(Value::as_str) {
        Some("input_required") => "an InputRequiredResult".into(),
        _ if reply.pointer("/result/isError") == Some(&Value::Bool(true)) => {
            "a tool error (isError: true)".into()
        }
        _ => "a complete result".into(),
    }
}

/// `state` with one character changed: the one at `quarter` quarters of
/// its length (0 to 3).
fn tampered(state: &str, quarter: usize) -> String {
    let mut chars: Vec<char> = state.chars().collect();
    let at = chars.len() * quarter.min(3) / 4;
    match chars.get_mut(at) {
        Some(c) => *c = if *c == 'A' { 'B' } else { 'A' },
        None => chars.push('A'),
    }
    chars.into_iter().collect()
}

/// `state` cut to half its length.
fn truncated(state: &str) -> String {
    let n = state.chars().count() / 2;
    state.chars().take(n).collect()
}

/// `arguments` with one value changed, or one member added when there is
/// none to change.
fn other_arguments(arguments: &Map<String, Value>) -> Map<String, Value> {
    let mut out = arguments.clone();
    let changed = out.iter_mut().find_map(|(_, v)| {
        let new = match v {
            Value::String(s) => Value::String(format!("{s}-mcp-check")),
            Value::Number(n) => json!(n.as_f64().unwrap_or(0.0) + 1.0),
            Value::Bool(b) => Value::Bool(!*b),
            _ => return None,
        };
        *v = new;
        Some(())
    });
    if changed.is_none() {
        out.insert("mcp_check_other".into(), Value::from("foreign"));
    }
    out
}

fn failure(reason: impl Into<String>, ex: &Exchanged) -> Outcome {
    Outcome::Fail(Failure {
        reason: reason.into(),
        request: Some(ex.request.clone()),
        reply: Some(ex.shown.clone()),
    })
}

impl Caller<'_> {
    /// Sends `ask` for `t`, and judges what every reply must be.
    fn send(&mut self, t: &Target, ask: &Ask) -> Result<Exchanged, Outcome> {
        self.next += 1;
        let id = self.next;
        let mut meta = wire::meta();
        let token = ask.token.then(|| format!("mcp-check-progress-{id}"));
        if let Some(o) = meta.as_object_mut() {
            o.insert(
                "io.modelcontextprotocol/clientCapabilities".into(),
                ask.caps.clone(),
            );
            if let Some(token) = &token {
                o.insert("progressToken".into(), Value::from(token.clone()));
            }
        }
        let mut params = Map::new();
        params.insert(
            "name".into(),
            Value::from(ask.name.clone().unwrap_or_else(|| t.name.clone())),
        );
        params.insert(
            "arguments".into(),
            Value::Object(ask.arguments.clone().unwrap_or_else(|| t.arguments.clone())),
        );
        if let Some(state) = &ask.state {
            params.insert("requestState".into(), Value::from(state.clone()));
        }
        if let Some(responses) = &ask.responses {
            params.insert("inputResponses".into(), Value::Object(responses.clone()));
        }
        params.insert("_meta".into(), meta);
        let line = wire::request(&id.to_string(), t.method(), &Value::Object(params));
        let called = self.link.call(&line, t.method());
        match self.link.requests().first() {
            Some(request) => {
                let method = request
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or("(no method)");
                let why = format!(
                    "the server sent a request of its own, {method}, instead of asking inside an \
                     InputRequiredResult"
                );
                let outcome = Outcome::Fail(Failure {
                    reason: why,
                    request: Some(wire::show(&line, SHOWN)),
                    reply: Some(wire::show(request.to_string().as_bytes(), SHOWN)),
                });
                self.tally.note("call.server-requests", t, outcome);
            }
            None if called.is_ok() => self.tally.note("call.server-requests", t, Outcome::Pass),
            None => {}
        }
        let ex = match called {
            Ok(ex) => ex,
            Err(o) => {
                if matches!(o, Outcome::Fail(_)) {
                    self.tally.note("call.result-schema", t, o.clone());
                }
                return Err(o);
            }
        };
        self.common(t, &ex, token.as_deref());
        if let Some(token) = token {
            self.tokens.push(token);
        }
        Ok(ex)
    }

    /// `call.result-schema`, `call.result-type`, `call.progress` and
    /// `call.progress-unasked` for one reply.
    fn common(&mut self, t: &Target, ex: &Exchanged, token: Option<&str>) {
        let schema = match self.schema {
            Err(why) => Outcome::NotRun(format!(
                "no 2026-07-28 schema to validate with ({why}; --schema or MCP_SPEC_DIR)"
            )),
            Ok(schema) => match schema.validate_reply(Some(t.method()), &ex.reply) {
                Err(e) => failure(e, ex),
                Ok(()) => match input_required(&ex.reply) {
                    Some(r) if r.state.is_none() && r.requests.is_empty() => failure(
                        "an InputRequiredResult with neither inputRequests nor requestState (MRTR-10)",
                        ex,
                    ),
                    _ => Outcome::Pass,
                },
            },
        };
        self.tally.note("call.result-schema", t, schema);
        if let Some(result) = ex.reply.get("result") {
            let where_ = if ex.streamed {
                " (the response that ends the text/event-stream)"
            } else {
                ""
            };
            let outcome = match result.get("resultType") {
                Some(Value::String(_)) => Outcome::Pass,
                None => failure(format!("the result{where_} has no resultType"), ex),
                Some(other) => failure(
                    format!("the result's{where_} resultType {other} is not a string"),
                    ex,
                ),
            };
            self.tally.note("call.result-type", t, outcome);
        }
        self.progress(t, ex, token);
    }

    fn progress(&mut self, t: &Target, ex: &Exchanged, token: Option<&str>) {
        let is_progress =
            |m: &&Value| m.get("method").and_then(Value::as_str) == Some("notifications/progress");
        let before: Vec<&Value> = ex.before.iter().filter(is_progress).collect();
        let after: Vec<&Value> = ex.after.iter().filter(is_progress).collect();
        let token_of = |m: &Value| m.pointer("/params/progressToken").cloned();
        let earlier = |m: &Value| {
            token_of(m)
                .and_then(|v| v.as_str().map(str::to_owned))
                .is_some_and(|s| self.tokens.contains(&s))
        };
        let Some(token) = token else {
            let Some(first) = before.iter().chain(after.iter()).next() else {
                self.tally.note("call.progress-unasked", t, Outcome::Pass);
                return;
            };
            if earlier(first) {
                let why = format!(
                    "a progress notification naming an earlier request's token came after that \
                     request's response, with the next request: {}",
                    wire::show(first.to_string().as_bytes(), 300)
                );
                self.tally.note("call.progress", t, failure(why, ex));
            } else {
                let why = format!(
                    "a progress notification came for a request without a progressToken: {}",
                    wire::show(first.to_string().as_bytes(), 300)
                );
                self.tally
                    .note("call.progress-unasked", t, failure(why, ex));
            }
            return;
        };
        if before.is_empty() && after.is_empty() {
            self.tally.note(
                "call.progress",
                t,
                Outcome::Skip(
                    "no progress notification came for the call with a progressToken (a server \
                     may send none: PROG-06)"
                        .into(),
                ),
            );
            return;
        }
        let want = Value::from(token);
        let mut last: Option<f64> = None;
        for m in &before {
            if token_of(m).as_ref() != Some(&want) {
                let why = format!(
                    "a progress notification with progressToken {}, not the request's {want}",
                    token_of(m).map_or_else(|| "(none)".to_string(), |v| v.to_string())
                );
                self.tally.note("call.progress", t, failure(why, ex));
                return;
            }
            let Some(value) = m.pointer("/params/progress").and_then(Value::as_f64) else {
                let why = "a progress notification without a numeric progress";
                self.tally.note("call.progress", t, failure(why, ex));
                return;
            };
            if let Some(prev) = last
                && value <= prev
            {
                let why = format!("progress {value} after {prev}: it does not increase");
                self.tally.note("call.progress", t, failure(why, ex));
                return;
            }
            last = Some(value);
        }
        if !after.is_empty() {
            let why = format!(
                "{} progress notification(s) after the response in the same stream: progress \
                 must stop once the request is complete",
                after.len()
            );
            self.tally.note("call.progress", t, failure(why, ex));
            return;
        }
        self.tally.note("call.progress", t, Outcome::Pass);
    }

    /// `call.input-capabilities` for a reply to a request declaring `caps`.
    fn capabilities(&mut self, t: &Target, ex: &Exchanged, caps: &Value) {
        let outcome = match input_required(&ex.reply) {
            Some(round) => round
                .requests
                .iter()
                .find_map(|(key, request)| {
                    answer::undeclared(request, caps).map(|why| {
                        failure(
                            format!("inputRequests[{key:?}] is {why} (clientCapabilities {caps})"),
                            ex,
                        )
                    })
                })
                .unwrap_or(Outcome::Pass),
            None => Outcome::Pass,
        };
        self.tally.note("call.input-capabilities", t, outcome);
    }

    /// A verdict on a reply that must refuse: anything but a completion.
    fn refused(&mut self, id: &'static str, t: &Target, ask: &Ask, what_was: &str) {
        match self.send(t, ask) {
            Ok(ex) if completes(&ex.reply) => {
                let why = format!("{what_was}, and the call completed: {}", what(&ex.reply));
                self.tally.note(id, t, failure(why, &ex));
            }
            Ok(_) => self.tally.note(id, t, Outcome::Pass),
            Err(o) => self.tally.note(id, t, unseen(o)),
        }
    }

    /// As [`Caller::refused`] for several retries: a failure when one
    /// completes; else not run when one got no reply; else a pass.
    fn refused_all(&mut self, id: &'static str, t: &Target, asks: &[(Ask, String)]) {
        let mut outcome = Outcome::Pass;
        for (ask, what_was) in asks {
            match self.send(t, ask) {
                Ok(ex) if completes(&ex.reply) => {
                    let why = format!("{what_was}, and the call completed: {}", what(&ex.reply));
                    outcome = failure(why, &ex);
                    break;
                }
                Ok(_) => {}
                Err(o) => outcome = unseen(o),
            }
        }
        self.tally.note(id, t, outcome);
    }

    /// Every call for one target; what it issued when it issued a state.
    fn target(&mut self, t: &Target) -> Option<Issued> {
        match self.send(t, &Ask::with(json!({}))) {
            Ok(ex) => self.capabilities(t, &ex, &json!({})),
            Err(o) => self.tally.note("call.input-capabilities", t, unseen(o)),
        }
        let first = match self.send(
            t,
            &Ask {
                token: true,
                ..Ask::with(every())
            },
        ) {
            Ok(ex) => ex,
            Err(o) => {
                for id in ASKED {
                    self.tally.note(id, t, unseen(o.clone()));
                }
                return None;
            }
        };
        self.capabilities(t, &first, &every());
        let Some(round) = input_required(&first.reply) else {
            let why = format!(
                "the call declaring every capability got {}, asking for no input",
                what(&first.reply)
            );
            for id in ASKED {
                self.tally.note(id, t, Outcome::Skip(why.clone()));
            }
            return None;
        };
        let answers = match answer::answers(&round.requests, Action::Accept) {
            Ok(a) => a,
            Err(why) => {
                for id in ASKED {
                    self.tally
                        .note(id, t, Outcome::NotRun(format!("cannot answer: {why}")));
                }
                return None;
            }
        };
        let accepted = self.accept(t, &round, &answers);
        if let Ok(ex) = self.send(t, &Ask::with(narrow())) {
            self.capabilities(t, &ex, &narrow());
        }
        match self.send(t, &Ask::retry(round.state.clone(), None)) {
            Ok(ex) => {
                let outcome = match input_required(&ex.reply) {
                    Some(again) if !again.requests.is_empty() => Outcome::Pass,
                    _ => failure(
                        format!(
                            "the retry without inputResponses got {}, not a new \
                             InputRequiredResult asking again",
                            what(&ex.reply)
                        ),
                        &ex,
                    ),
                };
                self.tally.note("call.retry-unanswered", t, outcome);
            }
            Err(o) => self.tally.note("call.retry-unanswered", t, unseen(o)),
        }
        let malformed: Map<String, Value> = answers
            .keys()
            .map(|k| (k.clone(), Value::from(42)))
            .collect();
        self.refused(
            "call.answers-malformed",
            t,
            &Ask::retry(round.state.clone(), Some(malformed)),
            "every inputResponses value was the number 42",
        );
        self.decline(t, &round, accepted.as_ref());
        let Some(state) = round.state.clone() else {
            let why = "the first round issued no requestState";
            for id in [
                "call.state-tampered",
                "call.state-truncated",
                "call.state-foreign-arguments",
            ] {
                self.tally.note(id, t, Outcome::Skip(why.into()));
            }
            return None;
        };
        let with = |state: String| Ask::retry(Some(state), Some(answers.clone()));
        // A character changed at a quarter, the half and three quarters of
        // the state, one retry each: where one change lands in a part the
        // server never reads, another lands in one it does.
        let changed: Vec<(Ask, String)> = [2, 1, 3]
            .into_iter()
            .map(|q| {
                let what_was =
                    format!("the requestState had its character at {q}/4 of its length changed");
                (with(tampered(&state, q)), what_was)
            })
            .collect();
        self.refused_all("call.state-tampered", t, &changed);
        self.refused(
            "call.state-truncated",
            t,
            &with(truncated(&state)),
            "the requestState was cut to half its length",
        );
        self.refused(
            "call.state-foreign-arguments",
            t,
            &Ask {
                arguments: Some(other_arguments(&t.arguments)),
                ..with(state.clone())
            },
            "the requestState was presented with other arguments",
        );
        Some(Issued {
            target: t.clone(),
            state,
            answers,
        })
    }

    /// Answers the rounds from the first until a result; the complete
    /// result the accepted answers got, if one came.
    fn accept(&mut self, t: &Target, round: &Round, answers: &Map<String, Value>) -> Option<Value> {
        let (mut state, mut answers) = (round.state.clone(), answers.clone());
        for _ in 0..ROUNDS {
            let ex = self.send(t, &Ask::retry(state, Some(answers))).ok()?;
            self.capabilities(t, &ex, &every());
            match input_required(&ex.reply) {
                Some(next) => {
                    state = next.state;
                    answers = answer::answers(&next.requests, Action::Accept).ok()?;
                }
                None => return completes(&ex.reply).then(|| ex.reply.get("result").cloned())?,
            }
        }
        None
    }

    /// `call.decline` and `call.cancel` on the first round.
    fn decline(&mut self, t: &Target, round: &Round, accepted: Option<&Value>) {
        let elicits = round
            .requests
            .values()
            .any(|r| answer::Kind::of(r).is_some_and(answer::Kind::is_elicitation));
        for (id, action, word) in [
            ("call.decline", Action::Decline, "declined"),
            ("call.cancel", Action::Cancel, "cancelled"),
        ] {
            if !elicits {
                let why = "the first round asked for no elicitation";
                self.tally.note(id, t, Outcome::Skip(why.into()));
                continue;
            }
            let Some(accepted) = accepted else {
                let why = "the accepted answers led to no complete result to compare with";
                self.tally.note(id, t, Outcome::NotRun(why.into()));
                continue;
            };
            let Ok(answers) = answer::answers(&round.requests, action) else {
                continue;
            };
            match self.send(t, &Ask::retry(round.state.clone(), Some(answers))) {
                Ok(ex) => {
                    let same = completes(&ex.reply)
                        && ex.reply.get("result").map(gist) == Some(gist(accepted));
                    let outcome = if same {
                        failure(
                            format!(
                                "with its elicitations {word}, the retry got the result the accepted answers got"
                            ),
                            &ex,
                        )
                    } else {
                        Outcome::Pass
                    };
                    self.tally.note(id, t, outcome);
                }
                Err(o) => self.tally.note(id, t, unseen(o)),
            }
        }
    }

    /// `call.state-foreign-tool`: each target's state on the next one's
    /// call.
    fn foreign(&mut self, targets: &[Target], issued: &[Issued]) {
        if issued.len() < 2 {
            let why = format!(
                "needs two named targets that each issue a requestState ({} did)",
                issued.len()
            );
            if let Some(t) = targets.first() {
                self.tally
                    .note("call.state-foreign-tool", t, Outcome::NotRun(why));
            }
            return;
        }
        for (i, from) in issued.iter().enumerate() {
            let Some(to) = issued.get((i + 1) % issued.len()) else {
                continue;
            };
            let ask = Ask::retry(Some(from.state.clone()), Some(from.answers.clone()));
            let what_was = format!("the requestState of {} was presented", from.target.label());
            self.refused("call.state-foreign-tool", &to.target, &ask, &what_was);
        }
    }
}

/// The outcome of a check whose request got no reply to judge.
fn unseen(o: Outcome) -> Outcome {
    match o {
        Outcome::Fail(f) => Outcome::NotRun(format!("its request got no reply: {}", f.reason)),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_changes() {
        for q in 0..4 {
            assert_ne!(tampered("abcd", q), "abcd");
            assert_eq!(tampered("abcd", q).len(), 4);
            assert_ne!(tampered("AAAA", q), "AAAA");
            assert_eq!(tampered("", q), "A");
        }
        assert_eq!(tampered("abcd", 2), "abAd");
        assert_eq!(tampered("abcd", 9), "abcA");
        assert_eq!(truncated("abcdef"), "abc");
        assert_eq!(truncated("é"), "");
        let args = Map::new();
        assert!(other_arguments(&args).contains_key("mcp_check_other"));
        let mut args = Map::new();
        args.insert("order_id".into(), Value::from("A-104"));
        assert_eq!(other_arguments(&args)["order_id"], "A-104-mcp-check");
    }

    #[test]
    fn completion_is_a_result_that_is_neither_input_nor_tool_error() {
        assert!(completes(&json!({"result": {"resultType": "complete"}})));
        assert!(completes(&json!({"result": {}})));
        assert!(!completes(
            &json!({"result": {"resultType": "input_required"}})
        ));
        assert!(!completes(
            &json!({"result": {"resultType": "complete", "isError": true}})
        ));
        assert!(!completes(&json!({"error": {"code": -32602}})));
    }
}
