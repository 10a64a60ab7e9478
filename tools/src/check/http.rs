//! `check --http URL`: holds any Streamable HTTP MCP server to the rules of
//! the 2026-07-28 binding that hold whatever tools it offers. Each check
//! names the statement of `docs/spec-coverage.md` it rests on (`SHTTP-*`,
//! `BASE-42`); its level is that statement's.
//!
//! Every probe is one POST (or GET, DELETE) built the way a conforming
//! client builds it (`mcp_reference_testkit::http::conforming`: every
//! mirrored header, Base64 where needed), then broken in one place. What
//! the server must answer comes from the one model
//! (`mcp_reference_testkit::model::http`, for the textbook configuration)
//! wherever the answer does not depend on the server's own tools: the
//! status, and the JSON-RPC error code with the request's id. Wording,
//! member order and optional members are never compared. Replies may come
//! as `application/json` or as `text/event-stream`.

use std::time::{Duration, Instant};

use mcp_reference::Config;
use mcp_reference_testkit::http::{conforming, encode};
use mcp_reference_testkit::model::Reply;
use mcp_reference_testkit::model::http::{HttpRequest, Listen, expect_http};
use serde_json::Value;

use super::call::link::{Exchanged, Link};
use super::catalog::{CheckInfo, Level, check};
use super::report::{Failure, Outcome, Report};
use crate::http_client::{self, Request, Response, Url};

use Level::{Must, Should};

/// The HTTP checks, in report order: each names the statement of
/// docs/spec-coverage.md it rests on (`source`) and its page anchor.
pub const HTTP_CHECKS: &[CheckInfo] = &[
    check(
        Must,
        "http.post-json",
        "SHTTP-12",
        "basic/transports/streamable-http.mdx#sending-messages",
        "a POST of server/discover with correct headers gets 200 and one JSON-RPC response, as application/json or text/event-stream",
    ),
    check(
        Level::Textbook,
        "http.version-header-missing",
        "textbook:H10",
        "basic/transports/streamable-http.mdx#protocol-version-header",
        "a request without MCP-Protocol-Version gets 400 with -32020 (a MUST only for a server that serves no client older than 2025-06-18: a dual-era server may read it as 2025-03-26)",
    ),
    check(
        Must,
        "http.version-header-mismatch",
        "SHTTP-20",
        "basic/transports/streamable-http.mdx#protocol-version-header",
        "an MCP-Protocol-Version header that differs from the body's protocolVersion gets 400 with -32020",
    ),
    check(
        Must,
        "http.method-header-mismatch",
        "SHTTP-32",
        "basic/transports/streamable-http.mdx#server-validation",
        "an Mcp-Method header that differs from the body's method gets 400 with -32020",
    ),
    check(
        Must,
        "http.name-header-missing",
        "SHTTP-24",
        "basic/transports/streamable-http.mdx#standard-request-headers",
        "a tools/call without Mcp-Name gets 400 with -32020",
    ),
    check(
        Must,
        "http.name-header-mismatch",
        "SHTTP-32",
        "basic/transports/streamable-http.mdx#server-validation",
        "an Mcp-Name header that differs from the body's name gets 400 with -32020",
    ),
    check(
        Must,
        "http.read-name-mismatch",
        "SHTTP-32",
        "basic/transports/streamable-http.mdx#server-validation",
        "for a server that declares resources: a resources/read whose Mcp-Name differs from the body's uri gets 400 with -32020",
    ),
    check(
        Must,
        "http.prompt-name-mismatch",
        "SHTTP-32",
        "basic/transports/streamable-http.mdx#server-validation",
        "for a server that declares prompts: a prompts/get whose Mcp-Name differs from the body's name gets 400 with -32020",
    ),
    check(
        Must,
        "http.name-base64",
        "SHTTP-27",
        "basic/transports/streamable-http.mdx#value-encoding",
        "an Mcp-Name sent as =?base64?...?= is decoded before comparing: the call gets the status and answer it gets with the name in plain text",
    ),
    check(
        Must,
        "http.header-case",
        "SHTTP-31",
        "basic/transports/streamable-http.mdx#case-sensitivity",
        "header names in lower case are the same headers: server/discover still gets 200",
    ),
    check(
        Must,
        "http.unsupported-version",
        "SHTTP-21",
        "basic/transports/streamable-http.mdx#protocol-version-header",
        "a version the server does not serve (header and body agreeing) gets 400 with -32022",
    ),
    check(
        Must,
        "http.unknown-method",
        "SHTTP-22",
        "basic/transports/streamable-http.mdx#protocol-version-header",
        "an unknown method (headers agreeing) gets 404 with -32601",
    ),
    check(
        Must,
        "http.missing-meta-field",
        "BASE-42",
        "basic/index.mdx#meta",
        "a request without io.modelcontextprotocol/clientCapabilities gets 400 with -32602",
    ),
    check(
        Must,
        "http.meta-missing",
        "BASE-42",
        "basic/index.mdx#meta",
        "a body without _meta under a valid MCP-Protocol-Version header gets 400 with -32602 (or -32020: which of the two MUSTs answers first the specification leaves open; docs/behavior.md H10)",
    ),
    check(
        Must,
        "http.initialize-modern",
        "SHTTP-22",
        "basic/transports/streamable-http.mdx#protocol-version-header",
        "initialize with modern _meta and agreeing headers, a method 2026-07-28 does not have, gets 404 with -32601 (a dual-era server that serves initialize may answer 200)",
    ),
    check(
        Must,
        "http.notification",
        "SHTTP-10",
        "basic/transports/streamable-http.mdx#sending-messages",
        "a notification gets 202 with no body, or an error status if the server does not accept it",
    ),
    check(
        Must,
        "http.origin",
        "SHTTP-03",
        "basic/transports/streamable-http.mdx#security--endpoint",
        "a foreign Origin header gets 403",
    ),
    check(
        Should,
        "http.get",
        "SHTTP-35",
        "basic/transports/streamable-http.mdx#earlier-streamable-http-revisions",
        "GET at the endpoint gets 405",
    ),
    check(
        Should,
        "http.delete",
        "SHTTP-35",
        "basic/transports/streamable-http.mdx#earlier-streamable-http-revisions",
        "DELETE at the endpoint gets 405",
    ),
    check(
        Should,
        "http.session-ignored",
        "SHTTP-36",
        "basic/transports/streamable-http.mdx#earlier-streamable-http-revisions",
        "an Mcp-Session-Id header is ignored, and no session id is sent back",
    ),
];

/// How to run the HTTP checks.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// The endpoint URL.
    pub url: String,
    /// How long one exchange may take.
    pub timeout: Duration,
    /// How long the whole run may take.
    pub deadline: Duration,
    /// The tools and prompts `--call` and `--get` name ([`super::call`]):
    /// only these are ever called.
    pub calls: Vec<super::call::Target>,
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

pub(super) fn body(id: u32, method: &str, params: &str) -> Vec<u8> {
    let comma = if params.is_empty() { "" } else { "," };
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{comma}{META}}}}}"#
    )
    .into_bytes()
}

pub(super) struct Run {
    pub(super) url: Url,
    pub(super) timeout: Duration,
    pub(super) ends: Instant,
    pub(super) listen: Listen,
    pub(super) config: Config,
}

impl Run {
    /// The request a conforming client sends with `body`.
    pub(super) fn post(&self, body: Vec<u8>) -> HttpRequest {
        let mut headers = conforming(&self.config, self.listen, &body);
        headers.retain(|(n, _)| !n.eq_ignore_ascii_case("host"));
        headers.push(("Host".into(), self.url.authority.clone().into_bytes()));
        HttpRequest {
            method: "POST".into(),
            target: self.url.path.clone(),
            headers,
            body,
        }
    }

    pub(super) fn send(&self, request: &HttpRequest) -> Result<Response, Outcome> {
        if Instant::now() >= self.ends {
            return Err(Outcome::NotRun(
                "the run's deadline passed (raise --deadline-ms)".into(),
            ));
        }
        let wire = Request {
            method: request.method.clone(),
            target: request.target.clone(),
            headers: request.headers.clone(),
            body: request.body.clone(),
        };
        http_client::send(&self.url, &wire, self.timeout).map_err(|e| {
            Outcome::Fail(Failure {
                reason: format!("no response: {e}"),
                request: Some(show_request(request)),
                reply: None,
            })
        })
    }

    /// Sends `request` and holds the status and error code to the model's
    /// (for the textbook configuration; used where the outcome does not
    /// depend on the server's tools).
    fn as_model_says(&self, request: &HttpRequest) -> Outcome {
        self.as_model_says_or(request, &[])
    }

    /// As [`Run::as_model_says`], also passing an error with one of `also`
    /// (at the model's status): where the specification leaves open which
    /// of two rules answers first.
    fn as_model_says_or(&self, request: &HttpRequest, also: &[i64]) -> Outcome {
        let expect = expect_http(&self.config, self.listen, request);
        let response = match self.send(request) {
            Ok(r) => r,
            Err(outcome) => return outcome,
        };
        let fail = |reason: String| {
            Outcome::Fail(Failure {
                reason,
                request: Some(show_request(request)),
                reply: Some(show_response(&response)),
            })
        };
        if response.status != expect.status {
            return fail(format!(
                "status {}, but row {} of docs/behavior.md needs {}",
                response.status, expect.row, expect.status
            ));
        }
        if let Some(Reply::Error { code, id, .. }) = expect.body.as_ref().map(|e| &e.reply) {
            let Some(reply) = response.reply() else {
                return fail("no JSON-RPC error response in the body".into());
            };
            let got = reply.pointer("/error/code").and_then(Value::as_i64);
            if got != Some(*code) && !got.is_some_and(|g| also.contains(&g)) {
                return fail(format!("error code {got:?}, expected {code}"));
            }
            let want_id: Option<Value> = id.as_deref().and_then(|i| serde_json::from_str(i).ok());
            if let Some(want) = want_id
                && reply.get("id") != Some(&want)
            {
                return fail(format!("id {:?}, expected {want}", reply.get("id")));
            }
        }
        Outcome::Pass
    }
}

pub(super) fn show_request(r: &HttpRequest) -> String {
    let mut out = format!("{} {}", r.method, r.target);
    for (n, v) in &r.headers {
        out.push_str(&format!("\n{n}: {}", String::from_utf8_lossy(v)));
    }
    let body = String::from_utf8_lossy(&r.body);
    out.push_str(&format!("\n\n{}", cut(&body)));
    out
}

pub(super) fn show_response(r: &Response) -> String {
    let mut out = format!("{}", r.status);
    for (n, v) in &r.headers {
        out.push_str(&format!("\n{n}: {v}"));
    }
    out.push_str(&format!("\n\n{}", cut(&String::from_utf8_lossy(&r.body))));
    out
}

pub(super) fn cut(text: &str) -> String {
    if text.chars().count() > 400 {
        format!("{}...", text.chars().take(400).collect::<String>())
    } else {
        text.to_owned()
    }
}

pub(super) fn set(request: &mut HttpRequest, name: &str, value: Option<&[u8]>) {
    request
        .headers
        .retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    if let Some(v) = value {
        request.headers.push((name.to_owned(), v.to_vec()));
    }
}

/// The textbook configuration, with the URL's path as its endpoint, so
/// that the model judges the same path the server serves.
pub(super) fn config_for(url: &str) -> Config {
    let path = Url::parse(url).map(|u| u.path).unwrap_or_default();
    let http = mcp_reference::HttpSettings {
        endpoint: path,
        ..Default::default()
    };
    Config::default().with_http(http).unwrap_or_default()
}

/// Runs every HTTP check against `options.url`.
pub fn run_http(options: &HttpOptions) -> Result<Report, String> {
    let url = Url::parse(&options.url)?;
    let run = Run {
        url,
        timeout: options.timeout,
        ends: Instant::now() + options.deadline,
        listen: Listen {
            port: 8080,
            loopback: false,
        },
        config: config_for(&options.url),
    };
    // A first exchange decides whether anything answers at all.
    let discover = run.post(body(1, "server/discover", ""));
    let first = run.send(&discover);
    if let Err(Outcome::Fail(f)) = &first {
        return Err(format!(
            "the server at {} did not answer: {}",
            options.url, f.reason
        ));
    }
    let mut results: Vec<(&str, Outcome)> = Vec::new();
    results.push((
        "http.post-json",
        match first {
            Ok(r) => post_json(&discover, &r, 1),
            Err(o) => o,
        },
    ));
    let mut r = discover.clone();
    set(&mut r, "MCP-Protocol-Version", None);
    results.push(("http.version-header-missing", run.as_model_says(&r)));
    let mut r = discover.clone();
    set(&mut r, "MCP-Protocol-Version", Some(b"2025-11-25"));
    results.push(("http.version-header-mismatch", run.as_model_says(&r)));
    let mut r = discover.clone();
    set(&mut r, "Mcp-Method", Some(b"tools/list"));
    results.push(("http.method-header-mismatch", run.as_model_says(&r)));
    // The name checks call a tool the server lists: the model decides a
    // name header (H12) before it looks the tool up, so its answer holds
    // whatever the server's tools are.
    let tool = run
        .send(&run.post(body(2, "tools/list", "")))
        .ok()
        .and_then(|r| r.reply())
        .and_then(|v| {
            v.pointer("/result/tools/0/name")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
    match tool {
        Some(name) => {
            let call = run.post(body(
                3,
                "tools/call",
                &format!(r#""name":{},"arguments":{{}}"#, Value::from(name.clone())),
            ));
            let mut r = call.clone();
            set(&mut r, "Mcp-Name", None);
            results.push(("http.name-header-missing", run.as_model_says(&r)));
            let mut r = call.clone();
            set(&mut r, "Mcp-Name", Some(format!("{name}-x").as_bytes()));
            results.push(("http.name-header-mismatch", run.as_model_says(&r)));
            // As a conforming client sends it: the name in plain text
            // when it can be.
            let plain = call.clone();
            let mut r = call.clone();
            let sentinel = if encode(&name).starts_with(b"=?base64?") {
                encode(&name)
            } else {
                format!(
                    "=?base64?{}?=",
                    mcp_reference_testkit::http::base64(name.as_bytes())
                )
                .into_bytes()
            };
            set(&mut r, "Mcp-Name", Some(&sentinel));
            results.push(("http.name-base64", same_as_plain(&run, &plain, &r)));
        }
        None => {
            for id in [
                "http.name-header-missing",
                "http.name-header-mismatch",
                "http.name-base64",
            ] {
                results.push((id, Outcome::Skip("tools/list named no tool to call".into())));
            }
        }
    }
    // Mcp-Name on resources/read (params.uri) and prompts/get
    // (params.name), for a server that declares the capability: the
    // first listed resource or prompt, with a header naming another.
    let capabilities = run
        .send(&discover)
        .ok()
        .and_then(|r| r.reply())
        .and_then(|v| v.pointer("/result/capabilities").cloned())
        .unwrap_or_default();
    for (id, capability, list, pointer, method, member) in [
        (
            "http.read-name-mismatch",
            "resources",
            "resources/list",
            "/result/resources/0/uri",
            "resources/read",
            "uri",
        ),
        (
            "http.prompt-name-mismatch",
            "prompts",
            "prompts/list",
            "/result/prompts/0/name",
            "prompts/get",
            "name",
        ),
    ] {
        if capabilities.get(capability).is_none() {
            let reason = format!("the server declares no {capability} capability");
            results.push((id, Outcome::Skip(reason)));
            continue;
        }
        let first = run
            .send(&run.post(body(5, list, "")))
            .ok()
            .and_then(|r| r.reply())
            .and_then(|v| {
                v.pointer(pointer)
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            });
        let Some(value) = first else {
            let reason = format!("{list} named nothing to ask for");
            results.push((id, Outcome::Skip(reason)));
            continue;
        };
        let mut r = run.post(body(
            6,
            method,
            &format!(r#""{member}":{}"#, Value::from(value.clone())),
        ));
        set(&mut r, "Mcp-Name", Some(format!("{value}-x").as_bytes()));
        results.push((id, run.as_model_says(&r)));
    }
    let mut lower = discover.clone();
    for (n, _) in &mut lower.headers {
        *n = n.to_ascii_lowercase();
    }
    results.push((
        "http.header-case",
        match run.send(&lower) {
            Ok(r) => post_json(&lower, &r, 1),
            Err(o) => o,
        },
    ));
    let unsupported = String::from_utf8_lossy(&body(4, "server/discover", ""))
        .replace("2026-07-28", "1900-01-01")
        .into_bytes();
    results.push((
        "http.unsupported-version",
        run.as_model_says(&run.post(unsupported)),
    ));
    results.push((
        "http.unknown-method",
        run.as_model_says(&run.post(body(5, "mcp-check/unknown", ""))),
    ));
    let missing = String::from_utf8_lossy(&body(6, "server/discover", ""))
        .replace(r#","io.modelcontextprotocol/clientCapabilities":{}"#, "")
        .into_bytes();
    results.push((
        "http.missing-meta-field",
        run.as_model_says(&run.post(missing)),
    ));
    let mut bare =
        run.post(br#"{"jsonrpc":"2.0","id":7,"method":"server/discover","params":{}}"#.to_vec());
    let version = run.config.versions().first().cloned().unwrap_or_default();
    set(&mut bare, "MCP-Protocol-Version", Some(version.as_bytes()));
    results.push(("http.meta-missing", run.as_model_says_or(&bare, &[-32020])));
    let initialize = run.post(body(8, "initialize", ""));
    results.push((
        "http.initialize-modern",
        match run.send(&initialize) {
            Ok(r) if r.status == 200 && r.reply().is_some_and(|v| v.get("result").is_some()) => {
                Outcome::Pass
            }
            Ok(_) => run.as_model_says(&initialize),
            Err(o) => o,
        },
    ));
    let note = run.post(
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#
            .to_vec(),
    );
    results.push((
        "http.notification",
        match run.send(&note) {
            Ok(r) if r.status == 202 && r.body.is_empty() => Outcome::Pass,
            Ok(r) if (400..500).contains(&r.status) => Outcome::Pass,
            Ok(r) => Outcome::Fail(Failure {
                reason: format!(
                    "status {} with a {}-byte body: neither 202 without a body nor an error status",
                    r.status,
                    r.body.len()
                ),
                request: Some(show_request(&note)),
                reply: Some(show_response(&r)),
            }),
            Err(o) => o,
        },
    ));
    let mut r = discover.clone();
    set(&mut r, "Origin", Some(b"http://evil.example"));
    results.push(("http.origin", run.as_model_says(&r)));
    for (id, method) in [("http.get", "GET"), ("http.delete", "DELETE")] {
        let r = HttpRequest {
            method: method.into(),
            target: run.url.path.clone(),
            // As an older client opens its stream: accepting SSE.
            headers: vec![
                ("Host".into(), run.url.authority.clone().into_bytes()),
                ("Accept".into(), b"text/event-stream".to_vec()),
            ],
            body: Vec::new(),
        };
        results.push((id, run.as_model_says(&r)));
    }
    let mut r = discover.clone();
    set(&mut r, "Mcp-Session-Id", Some(b"mcp-check-session"));
    results.push((
        "http.session-ignored",
        match run.send(&r) {
            Ok(resp) if resp.header("mcp-session-id").is_some() => Outcome::Fail(Failure {
                reason: "the response carries an Mcp-Session-Id header".into(),
                request: Some(show_request(&r)),
                reply: Some(show_response(&resp)),
            }),
            Ok(resp) => post_json(&r, &resp, 1),
            Err(o) => o,
        },
    ));
    let mut entries = super::entries(HTTP_CHECKS, &results);
    if !options.calls.is_empty() {
        let schema = mcp_reference_testkit::schema::Schema::find_in(
            mcp_reference_testkit::schema::spec_dir().as_deref(),
            super::wire::VERSION,
        );
        let schema = schema.as_ref().map_err(String::as_str);
        let mut link = CallLink {
            requests: Vec::new(),
            run: &run,
        };
        let calls = super::call::run(&mut link, &options.calls, schema);
        entries.extend(super::entries(super::call::CALL_CHECKS, &calls));
    }
    Ok(Report {
        command: options.url.clone(),
        timeout_ms: u64::try_from(options.timeout.as_millis()).unwrap_or(u64::MAX),
        entries,
        processes: 0,
        stderr_bytes: 0,
    })
}

/// 200, a JSON or SSE body, and a JSON-RPC result with id `id`.
pub(super) fn post_json(request: &HttpRequest, response: &Response, id: i64) -> Outcome {
    let fail = |reason: String| {
        Outcome::Fail(Failure {
            reason,
            request: Some(show_request(request)),
            reply: Some(show_response(response)),
        })
    };
    if response.status != 200 {
        return fail(format!("status {}, expected 200", response.status));
    }
    let media = response.media_type();
    if media != "application/json" && media != "text/event-stream" {
        return fail(format!(
            "content-type {media:?}: neither application/json nor text/event-stream"
        ));
    }
    match response.reply() {
        Some(reply)
            if reply.get("id").and_then(Value::as_i64) == Some(id)
                && reply.get("result").is_some() =>
        {
            Outcome::Pass
        }
        Some(_) => fail(format!("the JSON-RPC response is not a result for id {id}")),
        None => fail("no JSON-RPC response in the body".into()),
    }
}

/// The call with its `Mcp-Name` as a Base64 sentinel (`encoded`) is
/// answered as the same call with the name in plain text (`plain`): the
/// same status and the same kind of answer (a result, or the same error
/// code), so the sentinel was decoded to the name it encodes (SHTTP-27).
/// Anything else fails: a -32020 (the sentinel compared undecoded), a 500,
/// an HTML error page. When the plain call gets no JSON-RPC response there
/// is nothing to compare: not run.
fn same_as_plain(run: &Run, plain: &HttpRequest, encoded: &HttpRequest) -> Outcome {
    let want = match run.send(plain) {
        Ok(r) => r,
        Err(o) => return o,
    };
    let Some(want_reply) = want.reply() else {
        return Outcome::NotRun(format!(
            "the same call with its Mcp-Name in plain text got no JSON-RPC response (status \
             {}): there is no answer to compare the Base64 one with",
            want.status
        ));
    };
    let got = match run.send(encoded) {
        Ok(r) => r,
        Err(o) => return o,
    };
    let want_kind = super::stateless::kind(Some(&want_reply));
    let got_kind = super::stateless::kind(got.reply().as_ref());
    if got.status == want.status && got_kind == want_kind {
        return Outcome::Pass;
    }
    Outcome::Fail(Failure {
        reason: format!(
            "the Base64 sentinel was not read as the name it encodes: status {} and {got_kind}, \
             where the name in plain text got status {} and {want_kind}",
            got.status, want.status
        ),
        request: Some(show_request(encoded)),
        reply: Some(show_response(&got)),
    })
}

/// Over HTTP: one POST per request, built as a conforming client builds it.
pub(super) struct CallLink<'a> {
    /// The server's requests in the last response body.
    pub(super) requests: Vec<Value>,
    /// The run.
    pub(super) run: &'a Run,
}

impl Link for CallLink<'_> {
    fn call(&mut self, line: &[u8], _method: &str) -> Result<Exchanged, Outcome> {
        let request = self.run.post(line.to_vec());
        let response = self.run.send(&request)?;
        let messages = response.messages();
        self.requests = messages
            .iter()
            .filter(|m| super::call::link::is_request(m))
            .cloned()
            .collect();
        let at = messages
            .iter()
            .rposition(|m| m.get("result").is_some() || m.get("error").is_some());
        let Some(at) = at else {
            return Err(Outcome::Fail(Failure {
                reason: format!(
                    "status {}: no JSON-RPC response in the body",
                    response.status
                ),
                request: Some(show_request(&request)),
                reply: Some(show_response(&response)),
            }));
        };
        let mut before = messages;
        let after = before.split_off(at);
        let mut after = after.into_iter();
        let reply = after.next().unwrap_or(Value::Null);
        Ok(Exchanged {
            request: show_request(&request),
            before,
            reply,
            shown: show_response(&response),
            after: after.collect(),
            streamed: response.media_type() == "text/event-stream",
        })
    }

    fn requests(&self) -> &[Value] {
        &self.requests
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/check.md lists every HTTP check with its level and statement,
    /// and the statement exists in docs/spec-coverage.md at that level.
    #[test]
    fn every_check_names_a_statement_of_its_level() {
        let docs = include_str!("../../../docs/check.md");
        let coverage = include_str!("../../../docs/spec-coverage.md");
        for c in HTTP_CHECKS.iter().chain(super::super::auth::AUTH_CHECKS) {
            let statement = c.source;
            if let Some(row) = statement.strip_prefix("textbook:") {
                let rows = include_str!("../../../docs/rows.json");
                assert!(rows.contains(&format!("\"id\": \"{row}\"")), "{}", c.id);
                assert_eq!(c.level, Level::Textbook, "{}", c.id);
                continue;
            }
            let row = docs
                .lines()
                .find(|l| l.starts_with(&format!("| `{}` |", c.id)))
                .unwrap_or_else(|| panic!("docs/check.md has no row for {}", c.id));
            assert!(
                row.contains(&format!("| {} | {statement} |", c.level.as_str())),
                "docs/check.md: {row}"
            );
            let source = coverage
                .lines()
                .find(|l| l.starts_with(&format!("| {statement} |")))
                .unwrap_or_else(|| panic!("{}: no statement {statement}", c.id));
            let level = source.split(" | ").nth(2).unwrap_or_default();
            let want = match c.level {
                Level::Must => ["MUST", "MUST NOT"],
                Level::Should => ["SHOULD", "SHOULD NOT"],
                Level::Textbook => ["", ""],
            };
            assert!(want.contains(&level), "{}: {statement} is {level}", c.id);
        }
    }
}
