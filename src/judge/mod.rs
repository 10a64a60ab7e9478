//! The client judge: a pure state machine that reads every message a
//! client sends to this server, and every reply the server gives it, and
//! holds the client to the client rules of 2026-07-28 (the table of
//! [`RULES`], `docs/judge.md`). `mcp-reference judge` feeds it from its
//! stdio and HTTP drivers; it does no I/O and reads no clock.
//!
//! - **One step per message.** [`Judge::client`] (a stdio line) or
//!   [`Judge::client_http`] (one HTTP request, head and body) reads a
//!   client message and returns a [`Ticket`]; [`Judge::server`] or
//!   [`Judge::server_http`] then reads what the server answered it. Between
//!   the two the request is in flight, so HTTP requests in parallel are
//!   judged as such. [`Judge::end`] says how the session ended;
//!   [`Judge::report`] is the verdict at any point.
//! - **Asking the core, not restating it.** Whether a line is a JSON-RPC
//!   message, what its id and `_meta` hold and whether its capabilities are
//!   well formed come from the core's own decoding (`envelope`, `meta`);
//!   whether an input answer is a valid result of its request, and what it
//!   needs declared, from the multi round-trip module
//!   (`crate::input::answer_of`); which mirrored header a POST got wrong,
//!   from the HTTP binding ([`crate::http::mirrored_headers`]). What is the
//!   judge's own is the client's side: what a client must send, when.
//! - **Only what was seen.** A rule no message exercised is `not-run`,
//!   with what the session would need; a rule is `pass` only when some
//!   message exercised it and none broke it. Only a MUST fails the session.
//! - **Bounded.** Evidence is kept for the first [`EVIDENCE`] messages of a
//!   rule, each cut to [`SHOWN`] bytes; the ids remembered for cancellation
//!   and the rounds awaiting a retry are bounded too, so a hostile client
//!   cannot grow the judge without limit.
//!
//! Spec: 2026-07-28 `basic/index.mdx` (messages, requests, notifications,
//! `_meta`), `basic/versioning.mdx`, `basic/patterns/mrtr.mdx` ("Client
//! Requirements"), `basic/patterns/cancellation.mdx`,
//! `basic/patterns/progress.mdx`, `basic/transports/stdio.mdx`,
//! `basic/transports/streamable-http.mdx`, `client/elicitation.mdx`,
//! `client/sampling.mdx`, `client/roots.mdx`.

mod report;
pub mod rules;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::envelope::{self, Id, Message};
use crate::http::{self, Request};
use crate::json::Shallow;
use crate::meta::{MetaField, ParamsField};
use crate::server::{Line, Server};

pub use report::{Evidence, Report, RuleReport, Status, Verdict};
use rules::R;
pub use rules::{Level, RULES, Rule, Scope};

/// At most this many messages are kept as evidence of one rule.
pub const EVIDENCE: usize = 5;
/// At most this many bytes of a message are shown as evidence.
pub const SHOWN: usize = 2048;
/// At most this many request ids are remembered for `cancel.known-request`.
const REMEMBERED_IDS: usize = 65_536;
/// At most this many InputRequiredResults wait for their retry.
const ROUNDS: usize = 64;

/// The binding a session runs over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// Newline-delimited messages on stdin and stdout.
    Stdio,
    /// Streamable HTTP.
    Http,
}

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// stdin reached its end (the client closed it).
    StdinClosed,
    /// SIGTERM or SIGINT.
    Signal,
    /// The `--duration` elapsed.
    Duration,
}

impl Ending {
    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Ending::StdinClosed => "stdin-closed",
            Ending::Signal => "signal",
            Ending::Duration => "duration",
        }
    }
}

/// A client message the judge has read, to hand back with the server's
/// reply to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ticket(u64);

impl Ticket {
    /// Its number (the message's position in the session), for a driver
    /// that carries it through code of its own.
    pub fn number(self) -> u64 {
        self.0
    }

    /// The ticket numbered `n` (from [`Ticket::number`]).
    pub fn from_number(n: u64) -> Ticket {
        Ticket(n)
    }
}

/// One rule's record in a session.
#[derive(Debug, Default)]
struct Tally {
    exercised: u64,
    failures: u64,
    evidence: Vec<Evidence>,
}

/// A request of the client not yet answered.
#[derive(Debug)]
struct Pending {
    id: String,
    method: String,
    name: Option<String>,
    progress_token: Option<String>,
}

/// An InputRequiredResult the server answered, awaiting its retry.
#[derive(Debug)]
struct Round {
    id: String,
    method: String,
    name: Option<String>,
    requests: Option<serde_json::Map<String, Value>>,
    state: Option<String>,
}

/// The judge of one session.
#[derive(Debug)]
pub struct Judge {
    transport: Transport,
    provocations: Vec<String>,
    position: u64,
    tallies: Vec<Tally>,
    client: Option<Value>,
    pending: HashMap<u64, Pending>,
    sent: HashSet<String>,
    rounds: Vec<Round>,
    /// `data.supported` of a `-32022`, until the client's next request.
    version_error: Option<Vec<String>>,
    modern_answered: bool,
    legacy: bool,
    requests: u64,
    ended: Option<Ending>,
}

impl Judge {
    /// A judge for a session over `transport`, with the provocations the
    /// server was started with (named in the report, never acted on here).
    pub fn new(transport: Transport, provocations: Vec<String>) -> Judge {
        Judge {
            transport,
            provocations,
            position: 0,
            tallies: RULES.iter().map(|_| Tally::default()).collect(),
            client: None,
            pending: HashMap::new(),
            sent: HashSet::new(),
            rounds: Vec::new(),
            version_error: None,
            modern_answered: false,
            legacy: false,
            requests: 0,
            ended: None,
        }
    }

    /// Reads one stdio line from the client (without its newline).
    pub fn client(&mut self, server: &Server, line: &[u8]) -> Ticket {
        self.position += 1;
        let ticket = Ticket(self.position);
        match server.read(line) {
            // A blank line is not a message; an oversized one is this
            // server's limit, not a client's rule.
            Line::Blank | Line::Oversized => {}
            Line::Message(message) => self.message(ticket, line, message),
        }
        ticket
    }

    /// Reads one HTTP request from the client, head and body: a POST's
    /// body is one message (an empty one included, which is no message).
    pub fn client_http(&mut self, server: &Server, request: &Request<'_>) -> Ticket {
        self.http(server, request, true)
    }

    /// Reads the head of an HTTP request whose body the driver did not
    /// read (the binding refused the head): no body rule is judged on it.
    pub fn client_http_head(&mut self, server: &Server, request: &Request<'_>) -> Ticket {
        self.http(server, request, false)
    }

    fn http(&mut self, server: &Server, request: &Request<'_>, read: bool) -> Ticket {
        self.position += 1;
        let ticket = Ticket(self.position);
        let endpoint = &server.config().http().endpoint;
        let path = request.target.split('?').next().unwrap_or_default();
        if path != endpoint.as_str() || request.method.eq_ignore_ascii_case("OPTIONS") {
            return ticket;
        }
        let post = request.method == "POST";
        self.judge(R::HttpPost, post, request.body, || {
            format!("{} {path}", request.method)
        });
        if !post || !read {
            return ticket;
        }
        let accept = accepts_both(request);
        self.judge(R::HttpAccept, accept, request.body, || {
            "the Accept header does not list both application/json and text/event-stream".into()
        });
        if let Some(applied) = http::mirrored_headers(server, request) {
            let failed = applied.failed.as_deref().unwrap_or_default();
            let checks = [
                (
                    applied.version,
                    R::HttpVersionHeader,
                    failed == "MCP-Protocol-Version",
                ),
                (applied.method, R::HttpMethodHeader, failed == "Mcp-Method"),
                (applied.name, R::HttpNameHeader, failed == "Mcp-Name"),
                (
                    applied.params > 0,
                    R::HttpParamHeaders,
                    failed
                        .get(..10)
                        .is_some_and(|p| p.eq_ignore_ascii_case("Mcp-Param-")),
                ),
            ];
            for (ran, rule, broke) in checks {
                if ran {
                    self.judge(rule, !broke, request.body, || {
                        format!("the binding answered -32020 for the {failed} header")
                    });
                }
            }
        }
        self.message(ticket, request.body, envelope::decode(request.body));
        ticket
    }

    /// Reads the server's reply lines to `ticket`'s message (the
    /// notifications, then the response, each with its newline).
    pub fn server(&mut self, ticket: Ticket, replies: &[u8]) {
        for line in replies.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            self.reply(ticket, line);
        }
        self.answered(ticket);
    }

    /// Reads the HTTP response to `ticket`'s request: one JSON body, or an
    /// event stream of messages, the response last.
    pub fn server_http(&mut self, ticket: Ticket, response: &http::Response) {
        if response.header("content-type") == Some("text/event-stream") {
            for line in response.body.split(|&b| b == b'\n') {
                if let Some(data) = line.strip_prefix(b"data: ") {
                    self.reply(ticket, data);
                }
            }
        } else if !response.body.is_empty() {
            self.reply(ticket, &response.body);
        }
        self.answered(ticket);
    }

    /// Records how the session ended.
    pub fn end(&mut self, ending: Ending) {
        if self.ended.is_some() {
            return;
        }
        self.ended = Some(ending);
        // A client that stopped after -32022 followed the SHOULD.
        if self.version_error.take().is_some() {
            self.pass(R::RetrySupported);
        }
        if self.transport == Transport::Stdio {
            match ending {
                Ending::StdinClosed => self.pass(R::StdioCloseFirst),
                Ending::Signal => self.fail(
                    R::StdioCloseFirst,
                    None,
                    "the session ended with a signal while stdin was still open".into(),
                ),
                Ending::Duration => {}
            }
        }
    }

    /// The verdict so far (every rule of the session's binding).
    pub fn report(&self) -> Report {
        report::build(self)
    }

    /// One JSON-RPC message of the client, decoded by the core.
    fn message(&mut self, ticket: Ticket, raw: &[u8], message: Message<'_>) {
        match message {
            Message::Error { error, .. } => {
                if error == envelope::BAD_ID {
                    self.fail(R::IdType, Some(raw), error.message.into());
                } else {
                    self.fail(R::Valid, Some(raw), error.message.into());
                }
            }
            Message::ClientResponse => {
                self.pass(R::Valid);
                self.fail(
                    R::NoResponse,
                    Some(raw),
                    "a response, though the server sent no request".into(),
                );
            }
            Message::Notification { method, .. } => {
                self.pass(R::Valid);
                self.pass(R::NoResponse);
                if method.starts_with("notifications/") {
                    self.pass(R::NotificationId);
                }
                if method == "notifications/cancelled" {
                    self.cancelled(raw);
                }
            }
            Message::Request { id, method, params } => {
                self.pass(R::Valid);
                self.pass(R::NoResponse);
                self.pass(R::IdType);
                self.request(ticket, raw, &id, &method, params.as_ref());
            }
        }
    }

    /// `notifications/cancelled`: its `requestId` must be one the client sent.
    fn cancelled(&mut self, raw: &[u8]) {
        let value: Option<Value> = serde_json::from_slice(raw).ok();
        let id = value
            .as_ref()
            .and_then(|v| v.pointer("/params/requestId"))
            .map(Value::to_string);
        let Some(id) = id else {
            return self.fail(
                R::CancelKnown,
                Some(raw),
                "notifications/cancelled without params.requestId".into(),
            );
        };
        if self.sent.len() >= REMEMBERED_IDS && !self.sent.contains(&id) {
            // Past the bound an unknown id may be one forgotten: not judged.
            return;
        }
        let known = self.sent.contains(&id);
        self.judge(R::CancelKnown, known, raw, || {
            format!("requestId {id} names no request this client sent")
        });
    }

    fn request(
        &mut self,
        ticket: Ticket,
        raw: &[u8],
        id: &Id<'_>,
        method: &str,
        params: Option<&ParamsField<'_>>,
    ) {
        self.requests += 1;
        let id = normal(id.raw());
        if method.starts_with("notifications/") {
            self.fail(
                R::NotificationId,
                Some(raw),
                format!("{method} sent with an id, as a request"),
            );
        }
        if !self.pending.is_empty() {
            let reused = self.pending.values().any(|p| p.id == id);
            self.judge(R::IdInFlight, !reused, raw, || {
                format!("id {id} is that of a request still unanswered")
            });
        }
        let object = match params {
            Some(ParamsField::Object(p)) => Some(p),
            _ => None,
        };
        let meta = match object.map(|p| &p.meta) {
            Some(MetaField::Object(meta)) => Some(meta),
            _ => None,
        };
        if method == "initialize" {
            if self.modern_answered {
                self.fail(
                    R::NoLegacyFallback,
                    Some(raw),
                    "initialize after a 2026-07-28 answer".into(),
                );
            }
        } else if !self.legacy {
            let version = meta.and_then(|m| m.protocol_version.as_ref());
            let version = match version {
                Some(Shallow::Str(v)) => Some(v.as_ref()),
                _ => None,
            };
            self.judge(R::ProtocolVersion, version.is_some(), raw, || {
                "no string io.modelcontextprotocol/protocolVersion in params._meta".into()
            });
            let caps = meta.and_then(|m| m.client_capabilities_ok) == Some(true);
            self.judge(R::Capabilities, caps, raw, || {
                "io.modelcontextprotocol/clientCapabilities absent, or not an object of objects"
                    .into()
            });
            let info = meta.and_then(|m| m.client_info_ok) == Some(true);
            self.judge(R::ClientInfo, info, raw, || {
                "io.modelcontextprotocol/clientInfo absent, or not an Implementation".into()
            });
            if info && self.client.is_none() {
                self.client = serde_json::from_slice::<Value>(raw).ok().and_then(|v| {
                    v.pointer("/params/_meta/io.modelcontextprotocol~1clientInfo")
                        .cloned()
                });
            }
            if let Some(supported) = self.version_error.take() {
                let ok = version.is_some_and(|v| supported.iter().any(|s| s == v));
                self.judge(R::RetrySupported, ok, raw, || {
                    format!(
                        "after -32022, version {} is not one of data.supported {supported:?}",
                        version.unwrap_or("(none)")
                    )
                });
            }
        }
        if self.modern_answered && method != "initialize" {
            self.pass(R::NoLegacyFallback);
        }
        let token = meta
            .and_then(|m| m.progress_token.as_ref())
            .map(shallow_text);
        if let Some(value) = meta.and_then(|m| m.progress_token.as_ref()) {
            let typed = matches!(value, Shallow::Str(_) | Shallow::Integer(_));
            self.judge(R::ProgressType, typed, raw, || {
                "the progressToken is neither a string nor an integer".into()
            });
        }
        if let Some(token) = &token {
            let others = self.pending.values().filter(|p| p.progress_token.is_some());
            let mut others = others.peekable();
            if others.peek().is_some() {
                let clash = others.any(|p| p.progress_token.as_ref() == Some(token));
                self.judge(R::ProgressUnique, !clash, raw, || {
                    format!("progressToken {token} is that of a request still unanswered")
                });
            }
        }
        let name = object
            .and_then(|p| p.method.name.as_ref())
            .and_then(Shallow::as_str)
            .map(str::to_owned);
        self.retry(raw, (&id, method, name.as_deref()), object, meta);
        if self.sent.len() < REMEMBERED_IDS {
            self.sent.insert(id.clone());
        }
        self.pending.insert(
            ticket.0,
            Pending {
                id,
                method: method.to_owned(),
                name,
                progress_token: token,
            },
        );
    }

    /// The multi round-trip rules of one request (client requirements 1 to
    /// 4 of `basic/patterns/mrtr.mdx`).
    fn retry(
        &mut self,
        raw: &[u8],
        (id, method, name): (&str, &str, Option<&str>),
        object: Option<&crate::meta::Params<'_>>,
        meta: Option<&crate::meta::Meta<'_>>,
    ) {
        let responses = object.and_then(|p| p.method.input_responses.as_deref());
        let state = object.and_then(|p| p.method.request_state.as_ref());
        let state_text = match state {
            Some(Shallow::Str(s)) => Some(s.as_ref()),
            _ => None,
        };
        let carries = responses.is_some() || state.is_some();
        let answers = responses.and_then(Value::as_object);
        let index = self.retried(state_text, (id, method, name), answers);
        let round = match (carries, index) {
            (false, _) => {
                self.pass(R::MrtrRetryOnly);
                return;
            }
            (true, None) => {
                return self.fail(
                    R::MrtrRetryOnly,
                    Some(raw),
                    format!(
                        "inputResponses or requestState on a {method} that retries no InputRequiredResult"
                    ),
                );
            }
            (true, Some(i)) => self.rounds.remove(i),
        };
        self.pass(R::MrtrRetryOnly);
        self.judge(R::MrtrNewId, round.id != id, raw, || {
            format!("the retry reuses id {id} of the request it retries")
        });
        match &round.state {
            Some(issued) => {
                let echoed = state_text == Some(issued.as_str());
                self.judge(R::MrtrStateEcho, echoed, raw, || {
                    if state.is_none() {
                        "the retry drops the requestState it was given".into()
                    } else {
                        "the retry's requestState differs from the one it was given".into()
                    }
                });
            }
            None => {
                self.judge(R::MrtrNoState, state.is_none(), raw, || {
                    "the retry carries a requestState though it was given none".into()
                });
            }
        }
        let Some(requests) = &round.requests else {
            return;
        };
        let missing: Vec<&str> = requests
            .keys()
            .filter(|k| !answers.is_some_and(|a| a.contains_key(k.as_str())))
            .map(String::as_str)
            .collect();
        self.judge(R::MrtrInputs, missing.is_empty(), raw, || {
            format!("the retry leaves inputRequests {missing:?} unanswered")
        });
        let declared = meta.map_or(0, |m| m.declared);
        for (key, request) in requests {
            let Some(answer) = answers.and_then(|a| a.get(key)) else {
                continue;
            };
            let input_method = request.get("method").and_then(Value::as_str);
            let params = request.get("params").unwrap_or(&Value::Null);
            let Some((needs, shaped, valid)) =
                input_method.and_then(|m| crate::input::answer_of(m, params, answer))
            else {
                continue;
            };
            self.judge(R::MrtrAnswerValid, shaped, raw, || {
                format!(
                    "inputResponses[{key:?}] does not have the shape of a result of its {}",
                    input_method.unwrap_or_default()
                )
            });
            let form_accept = input_method == Some("elicitation/create")
                && params.get("mode").and_then(Value::as_str) != Some("url")
                && answer.get("action").and_then(Value::as_str) == Some("accept");
            if shaped && form_accept {
                self.judge(R::MrtrAnswerContent, valid, raw, || {
                    format!("inputResponses[{key:?}].content does not fit the requestedSchema")
                });
            }
            self.judge(R::MrtrAnswerDeclared, needs & !declared == 0, raw, || {
                format!(
                    "inputResponses[{key:?}] answers a {} the retry's clientCapabilities does not declare",
                    input_method.unwrap_or_default()
                )
            });
        }
    }

    /// The round a retry retries: among the rounds whose requestState it
    /// echoes, else among those of the same method and name, the one the
    /// retry is consistent with. The judge tells rounds apart only by what
    /// a retry carries, and two rounds may carry the same requestState (a
    /// server whose state does not depend on what the client declared), so
    /// it finds fault only when no round fits. Ranked by: the state rules
    /// held, every input request answered with no other key, every one
    /// answered, a new id; ties go to the latest round.
    fn retried(
        &self,
        state: Option<&str>,
        (id, method, name): (&str, &str, Option<&str>),
        answers: Option<&serde_json::Map<String, Value>>,
    ) -> Option<usize> {
        let echoes = |r: &Round| state.is_some() && r.state.as_deref() == state;
        let by_state = self.rounds.iter().any(echoes);
        let fit = |round: &Round| {
            let keys = round.requests.as_ref();
            let answered = keys.is_none_or(|k| {
                k.keys()
                    .all(|key| answers.is_some_and(|a| a.contains_key(key.as_str())))
            });
            let exact = keys.is_none_or(|k| answers.map_or(0, serde_json::Map::len) == k.len());
            let state_held = round.state.as_deref() == state;
            (state_held, answered && exact, answered, round.id != id)
        };
        self.rounds
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                if by_state {
                    echoes(r)
                } else {
                    r.method == method && r.name.as_deref() == name
                }
            })
            .max_by_key(|(i, r)| (fit(r), *i))
            .map(|(i, _)| i)
    }

    /// One reply message of the server to `ticket`'s message.
    fn reply(&mut self, ticket: Ticket, line: &[u8]) {
        let Ok(value) = serde_json::from_slice::<Value>(line) else {
            return;
        };
        if value.get("method").is_some() {
            // A notification before the response (progress, a log message).
            return;
        }
        let Some(pending) = self.pending.get(&ticket.0) else {
            return;
        };
        if let Some(result) = value.get("result") {
            if pending.method == "initialize" {
                self.legacy = true;
                return;
            }
            if self.legacy {
                return;
            }
            self.modern_answered = true;
            if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
                let round = Round {
                    id: pending.id.clone(),
                    method: pending.method.clone(),
                    name: pending.name.clone(),
                    requests: result
                        .get("inputRequests")
                        .and_then(Value::as_object)
                        .cloned(),
                    state: result
                        .get("requestState")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                };
                if self.rounds.len() >= ROUNDS {
                    self.rounds.remove(0);
                }
                self.rounds.push(round);
            }
        } else if let Some(error) = value.get("error")
            && error.get("code").and_then(Value::as_i64) == Some(-32022)
        {
            let supported = error
                .pointer("/data/supported")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            self.version_error = Some(supported);
            // A recognised modern error: the server speaks 2026-07-28.
            self.modern_answered |= !self.legacy;
        }
    }

    fn answered(&mut self, ticket: Ticket) {
        self.pending.remove(&ticket.0);
    }

    /// Records that `rule` held (`ok`) or was broken by `raw`.
    fn judge(&mut self, rule: R, ok: bool, raw: &[u8], detail: impl FnOnce() -> String) {
        if ok {
            self.pass(rule);
        } else {
            self.fail(rule, Some(raw), detail());
        }
    }

    fn pass(&mut self, rule: R) {
        if let Some(t) = self.tallies.get_mut(rule as usize) {
            t.exercised += 1;
        }
    }

    fn fail(&mut self, rule: R, raw: Option<&[u8]>, detail: String) {
        let position = self.position;
        if let Some(t) = self.tallies.get_mut(rule as usize) {
            t.exercised += 1;
            t.failures += 1;
            if t.evidence.len() < EVIDENCE {
                t.evidence.push(Evidence::new(position, raw, detail));
            }
        }
    }
}

/// Whether the request's `Accept` headers list both `application/json`
/// and `text/event-stream` (`streamable-http.mdx`, "Sending Messages to
/// the Server": the client MUST list both; a wildcard lists neither).
fn accepts_both(request: &Request<'_>) -> bool {
    let mut json = false;
    let mut stream = false;
    for (name, value) in request.headers {
        if !name.eq_ignore_ascii_case("accept") {
            continue;
        }
        for range in value.split(|&b| b == b',') {
            let media = range.split(|&b| b == b';').next().unwrap_or_default();
            let media = media.trim_ascii();
            json |= media.eq_ignore_ascii_case(b"application/json");
            stream |= media.eq_ignore_ascii_case(b"text/event-stream");
        }
    }
    json && stream
}

/// A decoded scalar as JSON text, to compare tokens by value.
fn shallow_text(value: &Shallow<'_>) -> String {
    match value {
        Shallow::Str(s) => Value::from(s.as_ref()).to_string(),
        Shallow::Integer(i) => i.get().to_string(),
        Shallow::Number(bits) => f64::from_bits(*bits).to_string(),
        Shallow::Bool(b) => b.to_string(),
        Shallow::Null => "null".into(),
        Shallow::Array => "[...]".into(),
        Shallow::Object => "{...}".into(),
    }
}

/// A raw id as JSON text in one spelling (`"\u0061"` and `"a"` are one id).
fn normal(raw: &str) -> String {
    serde_json::from_str::<Value>(raw).map_or_else(|_| raw.to_owned(), |v| v.to_string())
}
