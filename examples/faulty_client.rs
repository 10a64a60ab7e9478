//! The faulty client fixture of `mcp-reference judge` (issue 48, docs/judge.md,
//! "The faulty client"): a small MCP 2026-07-28 client that, by default,
//! drives a fully correct session, and that with `--fault RULE_ID` breaks
//! exactly that one client rule, once, in a way that breaks nothing else.
//! `tests/judge_binary.rs` runs it against the real judge for every fault
//! on every binding it applies to.
//!
//! Its behaviour is written from the spec, not from the judge: per-request
//! `_meta` (`basic/index.mdx`, "_meta"), version negotiation
//! (`basic/versioning.mdx`), multi round-trip requests
//! (`basic/patterns/mrtr.mdx`, "Client Requirements"), progress and
//! cancellation (`basic/patterns/progress.mdx`, `cancellation.mdx`),
//! elicitation, sampling and roots answers (`client/*.mdx`), the stdio
//! binding (`basic/transports/stdio.mdx`, "Shutdown") and the Streamable
//! HTTP binding's headers (`basic/transports/streamable-http.mdx`,
//! "Request Metadata": `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`,
//! `Mcp-Param-*` with the Base64 sentinel encoding).
//!
//! HTTP is HTTP/1.1 written by hand over `std::net::TcpStream`, one
//! blocking exchange per message on a connection of its own
//! (`Connection: close`): hyper is in the root package only as an optional
//! dependency of the `cli` feature, asynchronous and needing a tokio
//! runtime, and a fixture whose faults are in the bytes of a request head
//! (a PUT, a header left out) is simpler and more exact when it writes
//! every byte itself.
//!
//! Usage:
//!
//! ```text
//! faulty_client [--fault RULE_ID] --stdio -- CMD ARGS...
//! faulty_client [--fault RULE_ID] --http URL [--held-tool NAME]
//! faulty_client --list
//! ```
//!
//! `--held-tool NAME` (HTTP only) names the tool the judge was started to
//! hold (`judge --http ADDR --slow-tool NAME=MS`, docs/judge.md,
//! "Provocations"): the session then also sends two calls of it in flight
//! at once (`faulty_client/in_flight.rs`), which the faults
//! `jsonrpc.id-in-flight` and `progress.token-unique` need. Without it the
//! session has no two requests unanswered at once, and those two faults
//! are refused.
//!
//! Exit status: 0 when the session ran to its end, 1 when it could not
//! (no answer in time, a transport failure, or, without a fault, an error
//! answer a correct session does not get), 2 for bad usage, an unknown
//! fault, one of the other binding, or one that needs `--held-tool`
//! without it. Over stdio the two in-flight rules have no fault, and why:
//! docs/judge.md, "Rules left out".

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use mcp_reference::judge::RULES;
use serde_json::{Map, Value, json};

#[path = "faulty_client/http.rs"]
mod http;
#[path = "faulty_client/in_flight.rs"]
mod in_flight;
use http::{http_headers, read_http, send_http};

/// The revision this client speaks.
const VERSION: &str = "2026-07-28";
/// A later revision the client offers first (it names no revision this
/// server serves, so the server answers -32022 with what it supports).
const LATER: &str = "2099-01-01";
/// Another revision the server does not serve (the `version.retry-supported`
/// fault retries with it).
const OTHER: &str = "2098-06-30";
/// How long any one answer may take (a hang guard).
const DEADLINE: Duration = Duration::from_secs(10);

/// Every fault, one a line: the rule it breaks, the bindings it applies to
/// (`both`, `stdio` or `http`), and what the client does wrong.
const FAULTS: &str = "\
jsonrpc.message both sends a tools/list line without its closing braces
jsonrpc.id both sends a tools/list with id null
jsonrpc.no-response both sends a JSON-RPC response to no request
jsonrpc.notification-id both sends its notifications/cancelled with an id
meta.protocol-version both a tools/list without protocolVersion in _meta
meta.client-capabilities both a tools/list without clientCapabilities in _meta
meta.client-info both a tools/list without clientInfo in _meta
version.retry-supported both after -32022, retries with another unsupported version
version.no-legacy-fallback both sends initialize after 2026-07-28 answers
mrtr.inputs both a retry leaves one of the inputRequests unanswered
mrtr.state-echo both a retry changes the requestState it was given
mrtr.state-none both a retry carries a requestState though it was given none
mrtr.new-id both a retry reuses the id of the request it retries
mrtr.retry-only both a plain tools/call carries inputResponses
mrtr.answer-valid both an elicitation answered with an action that does not exist
mrtr.answer-content both a form elicitation accepted with content of the wrong type
mrtr.answer-declared both a retry answers a sampling request its clientCapabilities does not declare
cancel.known-request both cancels a request id it never sent
progress.token-type both a progressToken that is a fractional number
jsonrpc.id-in-flight http while a call of the held tool is unanswered, sends a second with its id (needs --held-tool)
progress.token-unique http while a call of the held tool is unanswered, sends a second with its progressToken (needs --held-tool)
http.post http sends a tools/list with PUT
http.accept http a POST whose Accept lists application/json only
http.version-header http a POST without MCP-Protocol-Version
http.method-header http a POST without Mcp-Method
http.name-header http a tools/call POST without Mcp-Name
http.param-headers http a get_order POST without Mcp-Param-Order-Id
stdio.close-first stdio ends the session with SIGTERM while stdin is open";

/// The faults that need two requests in flight, so a held tool.
const NEED_HELD: [&str; 2] = ["jsonrpc.id-in-flight", "progress.token-unique"];

/// The binding and where the server is.
enum Target {
    Stdio(Vec<String>),
    Http(String),
}

/// The connection to the server.
enum Wire {
    Stdio {
        child: Child,
        stdin: Option<ChildStdin>,
        lines: Receiver<String>,
    },
    Http {
        authority: String,
        path: String,
    },
}

/// One message about to be sent, with what the HTTP binding adds to it.
struct Outgoing {
    message: Value,
    /// Bytes to send instead of `message` (the headers still come from it).
    raw: Option<Vec<u8>>,
    /// Whether an answer comes back (a request, or a line the server
    /// answers with an error).
    answered: bool,
    verb: &'static str,
    accept: &'static str,
    /// Headers left out on purpose.
    without: Vec<&'static str>,
}

/// The client.
struct Client {
    wire: Wire,
    fault: Option<&'static str>,
    used: bool,
    next_id: i64,
    version: String,
    /// For each tool, its `x-mcp-header` arguments: (property, header name).
    param_headers: BTreeMap<String, BTreeMap<String, String>>,
    /// Whether an error answer is expected now (the version probe); else a
    /// correct session (no fault) stops at the first error answer, since
    /// it means the client got something wrong.
    tolerate: bool,
    /// The progress notifications that came with the last answer.
    progress_seen: usize,
    /// The tool the judge holds the answers of (`--held-tool`), if any.
    held: Option<String>,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (fault, target, held) = match usage(&args) {
        Ok(Some(parsed)) => parsed,
        Ok(None) => return ExitCode::SUCCESS,
        Err(sentence) => {
            eprintln!("faulty_client: {sentence}");
            return ExitCode::from(2);
        }
    };
    let wire = match &target {
        Target::Stdio(command) => spawn(command),
        Target::Http(url) => http_target(url),
    };
    let wire = match wire {
        Ok(wire) => wire,
        Err(sentence) => {
            eprintln!("faulty_client: {sentence}");
            return ExitCode::from(2);
        }
    };
    let mut client = Client {
        wire,
        fault,
        used: false,
        next_id: 1,
        version: VERSION.into(),
        param_headers: BTreeMap::new(),
        tolerate: false,
        progress_seen: 0,
        held,
    };
    let ran = session(&mut client).and_then(|()| client.end());
    match ran {
        Ok(()) if client.fault.is_some() && !client.used => {
            eprintln!("faulty_client: the session never reached the point of its fault");
            ExitCode::FAILURE
        }
        Ok(()) => ExitCode::SUCCESS,
        Err(sentence) => {
            eprintln!("faulty_client: {sentence}");
            if let Wire::Stdio { child, .. } = &mut client.wire {
                let _ = child.kill();
                let _ = child.wait();
            }
            ExitCode::FAILURE
        }
    }
}

/// What the command line asks for: the fault, the server, the held tool.
type Usage = (Option<&'static str>, Target, Option<String>);

/// The command line: `None` when `--list` was served.
fn usage(args: &[String]) -> Result<Option<Usage>, String> {
    let mut fault = None;
    let mut target = None;
    let mut held = None;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        match arg.as_str() {
            "--list" if args.len() == 1 => {
                let mut out = std::io::stdout().lock();
                for (id, on, what) in faults() {
                    let on = if on == "both" { "stdio,http" } else { on };
                    // A reader that stops early (`| head`) is not an error.
                    if writeln!(out, "{id}\t{on}\t{}\t{what}", level(id)).is_err() {
                        break;
                    }
                }
                return Ok(None);
            }
            "--fault" => {
                let name = args.get(i + 1).ok_or("--fault needs a RULE_ID")?;
                let found = faults().find(|(id, _, _)| id == name);
                let Some((id, _, _)) = found else {
                    return Err(format!(
                        "no fault breaks {name:?} (--list prints the faults there are)"
                    ));
                };
                fault = Some(id);
                i += 2;
            }
            "--held-tool" => {
                let name = args.get(i + 1).ok_or("--held-tool needs a tool's NAME")?;
                held = Some(name.clone());
                i += 2;
            }
            "--http" => {
                let url = args.get(i + 1).ok_or("--http needs a URL")?;
                target = Some(Target::Http(url.clone()));
                i += 2;
            }
            "--stdio" => {
                if args.get(i + 1).map(String::as_str) != Some("--") || args.len() < i + 3 {
                    return Err("--stdio needs -- and the server's command after it".into());
                }
                target = Some(Target::Stdio(args[i + 2..].to_vec()));
                break;
            }
            other => {
                return Err(format!(
                    "unknown argument {other:?}: usage is [--fault RULE_ID] (--stdio -- CMD ARGS... | --http URL [--held-tool NAME]), or --list"
                ));
            }
        }
    }
    let target =
        target.ok_or("name the server: --stdio -- CMD ARGS... or --http URL (or --list)")?;
    if let Some(id) = fault {
        let on = faults().find(|f| f.0 == id).map_or("both", |f| f.1);
        let applies = match &target {
            Target::Stdio(_) => on != "http",
            Target::Http(_) => on != "stdio",
        };
        if !applies {
            return Err(format!(
                "the fault {id} does not apply to this binding (--list says where it does)"
            ));
        }
        if NEED_HELD.contains(&id) && held.is_none() {
            return Err(format!(
                "the fault {id} needs a judge started with --slow-tool; pass --held-tool NAME"
            ));
        }
    }
    if held.is_some() && matches!(target, Target::Stdio(_)) {
        return Err(
            "--held-tool is for --http only: the stdio judge answers each line before it reads the next"
                .into(),
        );
    }
    Ok(Some((fault, target, held)))
}

/// The faults of [`FAULTS`]: (rule, bindings, what the client does).
fn faults() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    FAULTS.lines().filter_map(|line| {
        let (id, rest) = line.split_once(' ')?;
        let (on, what) = rest.split_once(' ')?;
        Some((id, on, what))
    })
}

/// The level of rule `id` in the judge's table (`must` or `should`).
fn level(id: &str) -> &'static str {
    RULES
        .iter()
        .find(|r| r.id == id)
        .map_or("unknown", |r| r.level.name())
}

fn spawn(command: &[String]) -> Result<Wire, String> {
    let (program, args) = command.split_first().ok_or("no command after --")?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    let stdin = child.stdin.take();
    let stdout = child.stdout.take().ok_or("no stdout of the server")?;
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    Ok(Wire::Stdio {
        child,
        stdin,
        lines,
    })
}

fn http_target(url: &str) -> Result<Wire, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("--http {url}: not an http:// URL"))?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    Ok(Wire::Http {
        authority: authority.into(),
        path: path.into(),
    })
}

/// The session: every step a correct client takes, with the fault (if
/// any) applied at its one place.
fn session(c: &mut Client) -> Result<(), String> {
    // Version negotiation (basic/versioning.mdx): a client that also speaks
    // a later revision offers it first; -32022 lists what the server
    // serves, and the client retries with one of those it speaks.
    c.version = LATER.into();
    c.tolerate = true;
    let first = c.request("server/discover", json!({}))?;
    if error_code(&first) == Some(-32022) {
        let supported: Vec<String> = first
            .pointer("/error/data/supported")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).map(Into::into).collect())
            .unwrap_or_default();
        if c.now("version.retry-supported") {
            c.version = OTHER.into();
            c.request("server/discover", json!({}))?;
        }
        if !supported.iter().any(|v| v == VERSION) {
            return Err(format!("the server serves {supported:?}, not {VERSION}"));
        }
    }
    c.tolerate = false;
    c.version = VERSION.into();
    c.request("server/discover", json!({}))?;

    let tools = c.request("tools/list", json!({}))?;
    c.learn_headers(&tools);
    c.broken_lists()?;

    // A plain tool, and one with an x-mcp-header argument.
    let mut plain = c.build(
        "tools/call",
        json!({"name": "test_simple_text", "arguments": {}}),
    );
    if c.now("mrtr.retry-only") {
        plain.message["params"]["inputResponses"] = json!({"user_name": {"action": "decline"}});
    }
    if c.now("http.name-header") {
        plain.without.push("Mcp-Name");
    }
    c.deliver(plain)?;
    let mut order = c.build(
        "tools/call",
        json!({"name": "get_order", "arguments": {"order_id": "A-104"}}),
    );
    if c.now("http.param-headers") {
        order.without.push("Mcp-Param-Order-Id");
    }
    c.deliver(order)?;

    // Two requests in flight at once, when the judge holds a tool's answers
    // (faulty_client/in_flight.rs): different ids, different tokens.
    if let Some(tool) = c.held.clone() {
        let listed = tools.pointer("/result/tools").and_then(Value::as_array);
        let known = listed
            .into_iter()
            .flatten()
            .any(|t| t.get("name").and_then(Value::as_str) == Some(tool.as_str()));
        if !known {
            return Err(format!("--held-tool {tool}: the server lists no such tool"));
        }
        c.two_in_flight(&tool)?;
    }

    // Progress (basic/patterns/progress.mdx): a token unique among the
    // client's requests in flight.
    let mut progress = c.build(
        "tools/call",
        json!({"name": "test_tool_with_progress", "arguments": {}}),
    );
    let token = if c.now("progress.token-type") {
        json!(1.5)
    } else {
        json!(format!("progress-{}", c.next_id - 1))
    };
    progress.message["params"]["_meta"]["progressToken"] = token;
    c.deliver(progress)?;
    if c.fault.is_none() && c.progress_seen == 0 {
        return Err("no notifications/progress came for the progressToken".into());
    }

    // Multi round-trip requests (basic/patterns/mrtr.mdx): rounds without
    // state, with state, several inputs in one round, two rounds, a
    // URL-mode elicitation, and a prompt.
    for tool in [
        "test_input_required_result_elicitation",
        "test_input_required_result_request_state",
        "test_input_required_result_multiple_inputs",
        "test_input_required_result_multi_round",
        "url_elicitation",
    ] {
        c.with_inputs("tools/call", json!({"name": tool, "arguments": {}}), tool)?;
    }
    c.with_inputs(
        "prompts/get",
        json!({"name": "test_input_required_result_prompt", "arguments": {}}),
        "test_input_required_result_prompt",
    )?;

    // Cancellation of one of its own requests, while it believes it in
    // progress (a second call of the progress tool, its own token).
    let mut slow = c.build(
        "tools/call",
        json!({"name": "test_tool_with_progress", "arguments": {}}),
    );
    let slow_id = slow.message["id"].clone();
    slow.message["params"]["_meta"]["progressToken"] = json!(format!("progress-{slow_id}"));
    let request_id = if c.now("cancel.known-request") {
        json!("never-sent-1")
    } else {
        slow_id
    };
    let mut cancel = Outgoing::new(json!({
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": request_id, "reason": "the user moved on"},
    }));
    if c.now("jsonrpc.notification-id") {
        // Sent as a request would be: an id and the per-request _meta.
        cancel.message["id"] = json!(c.next_id);
        c.next_id += 1;
        cancel.message["params"]["_meta"] = c.meta();
        cancel.answered = true;
    }
    c.cancel_while_open(slow, cancel)?;

    c.request(
        "prompts/get",
        json!({"name": "test_simple_prompt", "arguments": {}}),
    )?;
    c.request("resources/read", json!({"uri": "test://static-text"}))?;
    Ok(())
}

impl Outgoing {
    /// The bytes sent.
    fn body(&self) -> Vec<u8> {
        self.raw
            .clone()
            .unwrap_or_else(|| self.message.to_string().into_bytes())
    }

    /// The id its answer carries: a line the server cannot read is
    /// answered with id null.
    fn id(&self) -> Value {
        match &self.raw {
            Some(_) => Value::Null,
            None => self.message.get("id").cloned().unwrap_or(Value::Null),
        }
    }

    fn new(message: Value) -> Outgoing {
        Outgoing {
            message,
            raw: None,
            answered: false,
            verb: "POST",
            accept: "application/json, text/event-stream",
            without: Vec::new(),
        }
    }
}

impl Client {
    /// Whether the fault is `id` and has not been applied yet; marks it
    /// applied.
    fn now(&mut self, id: &str) -> bool {
        if self.fault == Some(id) && !self.used {
            self.used = true;
            return true;
        }
        false
    }

    /// Whether the fault is `id` (applied or not).
    fn is(&self, id: &str) -> bool {
        self.fault == Some(id)
    }

    /// The per-request `_meta` (basic/index.mdx, "Per-request protocol
    /// fields"): the version, what the client can answer (form and URL
    /// elicitation, sampling, roots), and who it is.
    fn meta(&self) -> Value {
        json!({
            "io.modelcontextprotocol/protocolVersion": self.version,
            "io.modelcontextprotocol/clientCapabilities": {
                "elicitation": {"form": {}, "url": {}},
                "sampling": {},
                "roots": {},
            },
            "io.modelcontextprotocol/clientInfo": {
                "name": "faulty-client",
                "version": "0.1.0",
            },
        })
    }

    /// A request with a new id and the per-request `_meta`.
    fn build(&mut self, method: &str, mut params: Value) -> Outgoing {
        params["_meta"] = self.meta();
        let id = self.next_id;
        self.next_id += 1;
        let mut out = Outgoing::new(json!({
            "jsonrpc": "2.0",
            "id": id,
            "method": method,
            "params": params,
        }));
        out.answered = true;
        out
    }

    fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let out = self.build(method, params);
        self.deliver(out)?
            .ok_or_else(|| format!("no answer to {method}"))
    }

    /// The faults that are one extra, broken tools/list (or a message in
    /// its place), sent after the first correct one.
    fn broken_lists(&mut self) -> Result<(), String> {
        let meta_key = [
            (
                "meta.protocol-version",
                "io.modelcontextprotocol/protocolVersion",
            ),
            (
                "meta.client-capabilities",
                "io.modelcontextprotocol/clientCapabilities",
            ),
            ("meta.client-info", "io.modelcontextprotocol/clientInfo"),
        ];
        for (fault, key) in meta_key {
            if self.now(fault) {
                let mut out = self.build("tools/list", json!({}));
                if let Some(meta) = out.message["params"]["_meta"].as_object_mut() {
                    meta.remove(key);
                }
                self.deliver(out)?;
            }
        }
        if self.now("jsonrpc.message") {
            let mut out = self.build("tools/list", json!({}));
            let text = out.message.to_string();
            out.raw = Some(text.trim_end_matches('}').as_bytes().to_vec());
            self.deliver(out)?;
        }
        if self.now("jsonrpc.id") {
            let mut out = self.build("tools/list", json!({}));
            out.message["id"] = Value::Null;
            self.deliver(out)?;
        }
        if self.now("jsonrpc.no-response") {
            let out =
                Outgoing::new(json!({"jsonrpc": "2.0", "id": "no-such-request", "result": {}}));
            self.deliver(out)?;
        }
        if self.now("version.no-legacy-fallback") {
            let mut out = Outgoing::new(json!({
                "jsonrpc": "2.0",
                "id": self.next_id,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "faulty-client", "version": "0.1.0"},
                },
            }));
            self.next_id += 1;
            out.answered = true;
            self.deliver(out)?;
        }
        let headers = [
            ("http.version-header", "MCP-Protocol-Version"),
            ("http.method-header", "Mcp-Method"),
        ];
        for (fault, header) in headers {
            if self.now(fault) {
                let mut out = self.build("tools/list", json!({}));
                out.without.push(header);
                self.deliver(out)?;
            }
        }
        if self.now("http.post") {
            let mut out = self.build("tools/list", json!({}));
            out.verb = "PUT";
            self.deliver(out)?;
        }
        if self.now("http.accept") {
            let mut out = self.build("tools/list", json!({}));
            out.accept = "application/json";
            self.deliver(out)?;
        }
        Ok(())
    }

    /// A request that may need input (basic/patterns/mrtr.mdx): while the
    /// answer is an InputRequiredResult, the client builds every input it
    /// asks for and retries the original request with a new id, its
    /// `inputResponses`, and its `requestState` echoed exactly when one
    /// was given (none when none was).
    fn with_inputs(&mut self, method: &str, params: Value, name: &str) -> Result<(), String> {
        let first = self.build(method, params.clone());
        let mut previous = first.message["id"].clone();
        let mut reply = self
            .deliver(first)?
            .ok_or_else(|| format!("no answer to {name}"))?;
        for _round in 0..8 {
            let Some(result) = reply.get("result") else {
                return Ok(());
            };
            if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
                return Ok(());
            }
            let mut responses = Map::new();
            if let Some(requests) = result.get("inputRequests").and_then(Value::as_object) {
                for (key, request) in requests {
                    responses.insert(key.clone(), answer(request));
                }
            }
            let state = result.get("requestState").cloned();
            let mut again = params.clone();
            match name {
                "test_input_required_result_elicitation" => {
                    if self.now("mrtr.answer-valid") {
                        responses.insert("user_name".into(), json!({"action": "approve"}));
                    }
                    if self.now("mrtr.answer-content") {
                        responses.insert(
                            "user_name".into(),
                            json!({"action": "accept", "content": {"name": 42}}),
                        );
                    }
                }
                "test_input_required_result_multiple_inputs" if self.now("mrtr.inputs") => {
                    responses.remove("client_roots");
                }
                _ => {}
            }
            if !responses.is_empty() {
                again["inputResponses"] = Value::Object(responses);
            }
            if let Some(state) = state {
                let changed = name == "test_input_required_result_request_state"
                    && self.now("mrtr.state-echo");
                again["requestState"] = match (changed, state.as_str()) {
                    (true, Some(s)) => json!(format!("{s}x")),
                    _ => state,
                };
            } else if name == "test_input_required_result_elicitation"
                && self.now("mrtr.state-none")
            {
                again["requestState"] = json!("a-state-never-given");
            }
            let mut retry = self.build(method, again);
            if name == "test_input_required_result_elicitation" && self.now("mrtr.new-id") {
                retry.message["id"] = previous.clone();
            }
            if name == "test_input_required_result_multiple_inputs"
                && self.now("mrtr.answer-declared")
            {
                let caps = &mut retry.message["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
                if let Some(caps) = caps.as_object_mut() {
                    caps.remove("sampling");
                }
            }
            previous = retry.message["id"].clone();
            reply = self
                .deliver(retry)?
                .ok_or_else(|| format!("no answer to the retry of {name}"))?;
        }
        Err(format!("{name} still asks for input after 8 rounds"))
    }

    /// Remembers, from a tools/list result, the arguments each tool marks
    /// `x-mcp-header` (top-level properties of its inputSchema).
    fn learn_headers(&mut self, list: &Value) {
        let tools = list.pointer("/result/tools").and_then(Value::as_array);
        for tool in tools.into_iter().flatten() {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                continue;
            };
            let properties = tool
                .pointer("/inputSchema/properties")
                .and_then(Value::as_object);
            let marked: BTreeMap<String, String> = properties
                .into_iter()
                .flatten()
                .filter_map(|(property, schema)| {
                    let header = schema.get("x-mcp-header")?.as_str()?;
                    Some((property.clone(), header.to_owned()))
                })
                .collect();
            if !marked.is_empty() {
                self.param_headers.insert(name.to_owned(), marked);
            }
        }
    }

    /// Sends one message and returns the server's response to it, if one
    /// is expected.
    fn deliver(&mut self, out: Outgoing) -> Result<Option<Value>, String> {
        self.progress_seen = 0;
        let reply = self.exchange(&out)?;
        if let Some(error) = reply.as_ref().and_then(|r| r.get("error"))
            && self.fault.is_none()
            && !self.tolerate
        {
            return Err(format!(
                "the server refused a message of the correct session ({error}): {}",
                out.message
            ));
        }
        Ok(reply)
    }

    /// One message out, and the response to it (`None` when none is
    /// expected).
    fn exchange(&mut self, out: &Outgoing) -> Result<Option<Value>, String> {
        let body = out.body();
        if let Wire::Http { authority, path } = &self.wire {
            let headers = http_headers(out, &self.version, &self.param_headers);
            let mut stream = send_http((authority, path), out, &headers, &body)?;
            let (reply, progress) = read_http(&mut stream, authority)?;
            self.progress_seen = progress;
            return Ok(if out.answered { reply } else { None });
        }
        self.write_line(&body)?;
        if !out.answered {
            return Ok(None);
        }
        self.receive(&out.id()).map(Some)
    }

    /// Writes one line to the server's stdin.
    fn write_line(&mut self, body: &[u8]) -> Result<(), String> {
        let Wire::Stdio { stdin, .. } = &mut self.wire else {
            return Err("not a stdio session".into());
        };
        let pipe = stdin.as_mut().ok_or("stdin is already closed")?;
        pipe.write_all(body)
            .and_then(|()| pipe.write_all(b"\n"))
            .and_then(|()| pipe.flush())
            .map_err(|e| format!("cannot write to the server: {e}"))
    }

    /// Reads the server's lines up to the response with id `id`: the
    /// notifications before it (progress) are counted, not answered.
    fn receive(&mut self, id: &Value) -> Result<Value, String> {
        let Wire::Stdio { lines, .. } = &mut self.wire else {
            return Err("not a stdio session".into());
        };
        loop {
            let line = lines
                .recv_timeout(DEADLINE)
                .map_err(|_| format!("no answer to the request with id {id}"))?;
            let Ok(value) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if value.get("method").and_then(Value::as_str) == Some("notifications/progress") {
                self.progress_seen += 1;
            }
            if value.get("method").is_none() && value.get("id") == Some(id) {
                return Ok(value);
            }
        }
    }

    /// Cancels `request` while the client believes it in progress
    /// (basic/patterns/cancellation.mdx: a cancellation names a request the
    /// client issued and believes still in progress). Over stdio, the
    /// notification goes before the answer is read (the server may have
    /// completed it already, and then ignores it); over HTTP, once the
    /// response has begun and before its body is read, and the stream is
    /// then closed, which is HTTP's own cancellation signal.
    fn cancel_while_open(&mut self, request: Outgoing, cancel: Outgoing) -> Result<(), String> {
        if let Wire::Http { authority, path } = &self.wire {
            let (authority, path) = (authority.clone(), path.clone());
            let headers = http_headers(&request, &self.version, &self.param_headers);
            let mut open = send_http((&authority, &path), &request, &headers, &request.body())?;
            let mut byte = [0u8; 1];
            let mut head = Vec::new();
            while !head.ends_with(b"\r\n\r\n") {
                match open.read(&mut byte) {
                    Ok(1) => head.push(byte[0]),
                    _ => return Err("the response to the request to cancel never began".into()),
                }
            }
            self.deliver(cancel)?;
            drop(open);
            return Ok(());
        }
        self.write_line(&request.body())?;
        self.write_line(&cancel.body())?;
        self.receive(&request.id())?;
        if cancel.answered {
            self.receive(&cancel.id())?;
        }
        Ok(())
    }

    /// Ends the session: over stdio, closes the server's stdin and waits
    /// for it to exit (basic/transports/stdio.mdx, "Shutdown"); over HTTP
    /// there is nothing to close (each message had its own connection).
    fn end(&mut self) -> Result<(), String> {
        let signal_first = self.is("stdio.close-first");
        if signal_first && let Wire::Stdio { .. } = self.wire {
            self.used = true;
        }
        let Wire::Stdio { child, stdin, .. } = &mut self.wire else {
            return Ok(());
        };
        if signal_first {
            let pid = child.id().to_string();
            let sent = Command::new("kill").args(["-TERM", &pid]).status();
            if !sent.is_ok_and(|s| s.success()) {
                return Err("cannot send SIGTERM to the server".into());
            }
            wait(child)?;
            drop(stdin.take());
            return Ok(());
        }
        drop(stdin.take());
        wait(child).map(|_| ())
    }
}

/// Waits for the server to exit, within the deadline.
fn wait(child: &mut Child) -> Result<std::process::ExitStatus, String> {
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return Ok(status);
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            return Err("the server did not exit".into());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn error_code(reply: &Value) -> Option<i64> {
    reply.pointer("/error/code").and_then(Value::as_i64)
}

/// The answer to one input request: what a user who accepts (and a model
/// that answers) would give (client/elicitation.mdx, client/sampling.mdx,
/// client/roots.mdx).
fn answer(request: &Value) -> Value {
    let params = request.get("params").cloned().unwrap_or(Value::Null);
    match request.get("method").and_then(Value::as_str) {
        Some("elicitation/create") => {
            if params.get("mode").and_then(Value::as_str) == Some("url") {
                // URL mode: the user completed the page; no content.
                return json!({"action": "accept"});
            }
            let mut content = Map::new();
            let properties = params
                .pointer("/requestedSchema/properties")
                .and_then(Value::as_object);
            for (key, schema) in properties.into_iter().flatten() {
                content.insert(key.clone(), value_for(schema));
            }
            json!({"action": "accept", "content": content})
        }
        Some("sampling/createMessage") => json!({
            "role": "assistant",
            "content": {"type": "text", "text": "Paris."},
            "model": "faulty-client-canned-model",
            "stopReason": "endTurn",
        }),
        Some("roots/list") => json!({
            "roots": [{"uri": "file:///home/mira/books", "name": "books"}],
        }),
        _ => json!({}),
    }
}

/// A value a primitive schema of a form allows.
fn value_for(schema: &Value) -> Value {
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
    {
        return first.clone();
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("boolean") => json!(true),
        Some("integer") => json!(1),
        Some("number") => json!(1.5),
        _ => json!("Mira"),
    }
}
