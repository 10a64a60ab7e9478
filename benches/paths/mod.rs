//! The paths the instruction gate counts beyond `Server::respond_into` of
//! one stdio line (issue 47): what `serve --http` runs per request, and
//! both rounds of a multi round-trip request.
//!
//! - `http_tools_call`: `Binding::respond` of Example 43.2's request with
//!   the headers a conforming client sends, on the textbook configuration
//!   (what the binding adds to the core: path, method, origin, host,
//!   content type, the mirrored headers, the status);
//! - `http_auth_cached`: the same request carrying a valid token for mira,
//!   answered by `Binding::respond_at` with that token's identity found in
//!   the driver's cache (`Trust::verified`), as `serve --http` answers
//!   every request after a client's first: no signature is verified;
//! - `mrtr_first_round` and `mrtr_retry`: `Server::respond_at` of
//!   `test_input_required_result_request_state` of `data/conformance.json`,
//!   the `InputRequiredResult` with its sealed state, then the retry with
//!   the state and the answer (the state opened and verified, the answer
//!   judged, the tool run).
//!
//! Each path's reply is judged before anything is counted, by the model
//! (`HttpChecker`, `AuthChecker`, `model::input`) and the official schema,
//! so no count comes from a reply that skipped a rule; the cached answer
//! must equal the judged cold one.

use std::hint::black_box;

use mcp_reference::http::{Binding, Bound, Keys, Request, Response, Trust};
use mcp_reference::{Config, Direct, Server};
use mcp_reference_testkit::http::{HttpChecker, as_request, conforming, header_refs};
use mcp_reference_testkit::http_auth::AuthChecker;
use mcp_reference_testkit::issuer::{LISTEN, NOW, issuer, settings, with_auth};
use mcp_reference_testkit::model::http::HttpRequest;
use mcp_reference_testkit::model::input;
use mcp_reference_testkit::schema::Schema;
use serde_json::{Value, json};

/// The paths, in table order: name (the baseline key) and title.
pub(crate) const PATHS: [(&str, &str); 4] = [
    ("http_tools_call", "HTTP tools/call (binding)"),
    ("http_auth_cached", "HTTP tools/call, cached token"),
    ("mrtr_first_round", "MRTR first round"),
    ("mrtr_retry", "MRTR retry with state"),
];

/// The multi round-trip tool of the conformance fixture whose retry
/// carries a `requestState`.
const MRTR_TOOL: &str = "test_input_required_result_request_state";

#[inline(never)]
fn measured_respond_binding(binding: &Binding, request: &Request<'_>, trust: &Trust<'_>) {
    black_box(binding.respond_at(black_box(request), trust, &mut Direct));
}

#[inline(never)]
fn measured_respond_at(server: &Server, line: &[u8], out: &mut Vec<u8>) {
    out.clear();
    server.respond_at(black_box(line), out, &mut Direct, NOW);
    black_box(out.len());
}

fn example_body() -> Result<Vec<u8>, String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/example-43.2.request.json"
    );
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    Ok(bytes.strip_suffix(b"\n").unwrap_or(&bytes).to_vec())
}

fn bound() -> Bound {
    Bound {
        port: LISTEN.port,
        loopback: LISTEN.loopback,
    }
}

fn post(config: &Config, body: &[u8], token: Option<&str>) -> HttpRequest {
    let mut headers = conforming(config, LISTEN, body);
    if let Some(t) = token {
        headers.push(("Authorization".into(), format!("Bearer {t}").into_bytes()));
    }
    HttpRequest {
        method: "POST".into(),
        target: "/mcp".into(),
        headers,
        body: body.to_vec(),
    }
}

/// A complete `tools/call` reply, valid against the official schema.
fn schema_valid(schema: &Schema, body: &[u8], what: &str) -> Result<(), String> {
    let reply: Value =
        serde_json::from_slice(body).map_err(|e| format!("{what}: reply is not JSON: {e}"))?;
    schema
        .validate_reply(Some("tools/call"), &reply)
        .map_err(|e| format!("{what}: reply breaks the schema: {e}"))
}

fn mrtr_request(id: u64, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}, "roots": {}},
    });
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

/// The two rounds' lines, each judged by the model and the schema.
fn mrtr_lines(server: &Server, schema: &Schema) -> Result<(Vec<u8>, Vec<u8>), String> {
    let first = mrtr_request(1, json!({"name": MRTR_TOOL, "arguments": {}}));
    let first_line = first.to_string().into_bytes();
    let mut out = Vec::new();
    server.respond_at(&first_line, &mut out, &mut Direct, NOW);
    let reply: Value = serde_json::from_slice(&out).map_err(|e| format!("first round: {e}"))?;
    input::check(server.config(), &first, NOW, &reply)
        .map_err(|e| format!("first round: not the model's: {e}"))?;
    schema_valid(schema, &out, "first round")?;
    let state = reply
        .pointer("/result/requestState")
        .cloned()
        .ok_or("first round: no requestState")?;
    let retry = mrtr_request(
        2,
        json!({"name": MRTR_TOOL, "arguments": {},
        "inputResponses": {"confirm": {"action": "accept", "content": {"ok": true}}},
        "requestState": state}),
    );
    let retry_line = retry.to_string().into_bytes();
    out.clear();
    server.respond_at(&retry_line, &mut out, &mut Direct, NOW);
    let done: Value = serde_json::from_slice(&out).map_err(|e| format!("retry: {e}"))?;
    let want = input::check(server.config(), &retry, NOW, &done)
        .map_err(|e| format!("retry: not the model's: {e}"))?;
    if !want.runs {
        return Err("retry: the model says the tool does not run".into());
    }
    schema_valid(schema, &out, "retry")?;
    Ok((first_line, retry_line))
}

/// Judges the reply of path `name`, then, unless `floor` is given, runs
/// it `calls` times inside its `measured_respond_*` function; with
/// `floor`, runs the floor on the path's JSON body instead. `None` when
/// `name` is no path of this module.
pub(crate) fn measure(
    name: &str,
    calls: u64,
    floor: Option<fn(&[u8])>,
) -> Option<Result<(), String>> {
    PATHS
        .iter()
        .any(|(n, _)| *n == name)
        .then(|| run(name, calls, floor))
}

fn run(name: &str, calls: u64, floor: Option<fn(&[u8])>) -> Result<(), String> {
    let schema = Schema::find("2026-07-28")
        .map_err(|e| format!("the official schema is needed to check bench replies: {e}"))?;
    match name {
        "mrtr_first_round" | "mrtr_retry" => {
            let path =
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/conformance.json");
            let config = Config::load(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let server = Server::new(config);
            let (first, retry) = mrtr_lines(&server, &schema)?;
            let line = if name == "mrtr_retry" { retry } else { first };
            if let Some(floor) = floor {
                repeat(calls, || floor(&line));
                return Ok(());
            }
            let mut out = Vec::new();
            // Warm-up, not counted: grows the buffer to its steady size.
            server.respond_at(&line, &mut out, &mut Direct, NOW);
            repeat(calls, || measured_respond_at(&server, &line, &mut out));
            Ok(())
        }
        "http_tools_call" => {
            let config = Config::default();
            let body = example_body()?;
            let http = post(&config, &body, None);
            let checker = HttpChecker::new(&config, LISTEN);
            let (expect, response) = checker.check(&http).map_err(|e| format!("{name}: {e}"))?;
            reaches_core(name, expect.row, "H15", &response, &schema)?;
            if let Some(floor) = floor {
                repeat(calls, || floor(&body));
                return Ok(());
            }
            let heads = header_refs(&http);
            let req = as_request(&http, &heads);
            let keys = Keys::default();
            let trust = Trust {
                keys: &keys,
                now: NOW,
                verified: None,
            };
            let binding = checker.binding();
            black_box(binding.respond_at(&req, &trust, &mut Direct));
            repeat(calls, || measured_respond_binding(binding, &req, &trust));
            Ok(())
        }
        _ => {
            let plain = Config::default();
            let authorized = with_auth(plain.clone(), settings(issuer().jwks()));
            let body = example_body()?;
            let http = post(
                &plain,
                &body,
                Some(&issuer().token("mira", "orders:read", false)),
            );
            let checker = AuthChecker::new(&authorized, LISTEN, issuer().jwks());
            let (expect, cold) = checker
                .check(NOW, &http)
                .map_err(|e| format!("{name}: {e}"))?;
            reaches_core(name, expect.row(), "A7", &cold, &schema)?;
            if let Some(floor) = floor {
                repeat(calls, || floor(&body));
                return Ok(());
            }
            let binding = Binding::new(Server::new(authorized), bound());
            let heads = header_refs(&http);
            let req = as_request(&http, &heads);
            let keys = Keys::from_jwks(issuer().jwks()).map_err(|e| format!("{name}: {e}"))?;
            let verifying = Trust {
                keys: &keys,
                now: NOW,
                verified: None,
            };
            let identity = binding
                .head(&req, &verifying)
                .map_err(|r| format!("{name}: the token was refused: {}", r.status))?
                .identity
                .ok_or_else(|| format!("{name}: no identity to cache"))?;
            let none = Keys::default();
            let trust = Trust {
                keys: &none,
                now: NOW,
                verified: Some(&identity),
            };
            let cached = binding.respond_at(&req, &trust, &mut Direct);
            if cached != cold {
                return Err(format!(
                    "{name}: the answer with the cached identity is not the judged one: {}",
                    String::from_utf8_lossy(&cached.body)
                ));
            }
            repeat(calls, || measured_respond_binding(&binding, &req, &trust));
            Ok(())
        }
    }
}

/// The response is the model's row `want` (the core answered the body),
/// and its body is valid against the official schema.
fn reaches_core(
    name: &str,
    row: &str,
    want: &str,
    response: &Response,
    schema: &Schema,
) -> Result<(), String> {
    if row != want {
        return Err(format!(
            "{name}: the request must reach the core (row {want}), the model says row {row}"
        ));
    }
    schema_valid(schema, &response.body, name)
}

/// `calls` calls of `f` (a warm-up, where one is needed, is made by the
/// caller outside the measured function, so callgrind does not count it).
fn repeat(calls: u64, mut f: impl FnMut()) {
    for _ in 0..calls {
        f();
    }
}
