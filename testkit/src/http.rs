//! The checks of one HTTP exchange, for the property tests, the HTTP fuzz
//! target and its corpus replay: the binding's response against the model
//! ([`crate::model::http`]), the tools that ran against the ones the model
//! allows, the response of the same binding without the orders the user
//! may not read (noninterference: nothing of them can leak over HTTP), and,
//! where the core answered the body, every stdio invariant of
//! [`crate::invariants`] on the body.

use std::collections::BTreeMap;

use mcp_reference::Config;
use mcp_reference::Server;
use mcp_reference::http::{Binding, Bound, Request, Response};

use crate::fuzzing::Counting;
use crate::invariants::Checker;
use crate::model::http::{HttpExpect, HttpRequest, Listen, expect_http};
use crate::model::{Expect, Json};

/// A binding under test, with everything its checks need built once.
pub struct HttpChecker {
    config: Config,
    listen: Listen,
    binding: Binding,
    public: Option<Binding>,
    checker: Checker,
}

/// The binding's view of a model request.
pub fn as_request<'a>(request: &'a HttpRequest, headers: &'a [(&'a str, &'a [u8])]) -> Request<'a> {
    Request {
        method: &request.method,
        target: &request.target,
        headers,
        body: &request.body,
    }
}

impl HttpChecker {
    /// Prepares the checks for `config`, served at `listen`.
    pub fn new(config: &Config, listen: Listen) -> HttpChecker {
        let bound = Bound {
            port: listen.port,
            loopback: listen.loopback,
        };
        let checker = Checker::new(config);
        let public = checker.public().config().clone();
        let public = (public != *config).then(|| Binding::new(Server::new(public), bound));
        HttpChecker {
            config: config.clone(),
            listen,
            binding: Binding::new(Server::new(config.clone()), bound),
            public,
            checker,
        }
    }

    /// The binding.
    pub fn binding(&self) -> &Binding {
        &self.binding
    }

    /// Answers `request` and checks the response; `Ok` is the model's
    /// expectation (with its row), and the response.
    pub fn check(&self, request: &HttpRequest) -> Result<(HttpExpect, Response), String> {
        let headers = header_refs(request);
        let req = as_request(request, &headers);
        let mut ran = Counting::default();
        let response = self.binding.respond_with(&req, &mut ran);
        let expect = expect_http(&self.config, self.listen, request);
        expect.check(
            &self.config,
            response.status,
            response.headers,
            &response.body,
        )?;
        ran_as_allowed(expect.body.as_ref(), &ran, expect.row)?;
        if let Some(public) = &self.public {
            let other = public.respond(&req);
            if other != response {
                return Err(format!(
                    "row {}: the response depends on orders the user may not read: {:?} without them, {:?} with them",
                    expect.row,
                    String::from_utf8_lossy(&other.body),
                    String::from_utf8_lossy(&response.body)
                ));
            }
        }
        if let (Some(body), "H15" | "H17") = (&expect.body, expect.row) {
            // H17 answers as H15 or H18 would: a stream's lines are its
            // events' data.
            let line = if expect.stream {
                crate::model::http::event_lines(&response.body)
                    .map_err(|e| format!("row {}: {e}", expect.row))?
            } else {
                [response.body.as_slice(), b"\n"].concat()
            };
            self.checker
                .check_with(&request.body, &line, body)
                .map_err(|e| format!("row {}: {e}", expect.row))?;
        }
        Ok((expect, response))
    }
}

/// A request's header list as the binding takes it.
pub fn header_refs(request: &HttpRequest) -> Vec<(&str, &[u8])> {
    request
        .headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_slice()))
        .collect()
}

/// The tools that ran are the one the model's body allows (none when it
/// allows none, or when there is no body to run one).
pub fn ran_as_allowed(body: Option<&Expect>, ran: &Counting, row: &str) -> Result<(), String> {
    let allowed = body.and_then(|e| e.runs()).flatten();
    match (allowed, ran.ran.as_slice()) {
        (None, []) => Ok(()),
        (Some(tool), [one]) if *one == tool => Ok(()),
        (want, got) => Err(format!("row {row}: tools run {got:?}, expected {want:?}")),
    }
}

// ---------------------------------------------------------------------------
// The client side: what a conforming client sends (input construction for the
// generators and the fuzz target, never a verdict).

/// The headers a conforming client sends with `body` (a POST to the
/// endpoint of `config`, at `listen`): `Host`, `Content-Type`, `Accept`, and every
/// mirrored header whose source value the body has ([`mirrored`], with the
/// configuration's `x-mcp-header` parameters).
pub fn conforming(config: &Config, listen: Listen, body: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut headers = vec![
        (
            "Host".to_owned(),
            format!("127.0.0.1:{}", listen.port).into_bytes(),
        ),
        ("Content-Type".to_owned(), b"application/json".to_vec()),
        // A client MUST accept both (SHTTP "Sending Messages" 2).
        (
            "Accept".to_owned(),
            b"application/json, text/event-stream".to_vec(),
        ),
    ];
    headers.extend(mirrored(body, config.param_headers()));
    headers
}

/// The headers a conforming client mirrors from `body` (streamable-http.mdx,
/// "Request Metadata"): `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`,
/// and for a `tools/call` an `Mcp-Param-{Name}` for every argument the
/// tool marks `x-mcp-header` (`marks`: per tool, each marked property's
/// header name, as a client learns them from `tools/list`), each value
/// encoded ([`encode`]); none for a body that is not JSON.
pub fn mirrored(
    body: &[u8],
    marks: &BTreeMap<String, BTreeMap<String, String>>,
) -> Vec<(String, Vec<u8>)> {
    let mut headers = Vec::new();
    let Ok(parsed) = crate::model::parse(body) else {
        return headers;
    };
    let tree = &parsed.tree;
    let params = tree.get("params");
    if let Some(v) = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion"))
        .and_then(Json::as_str)
    {
        headers.push(("MCP-Protocol-Version".to_owned(), encode(v)));
    }
    let method = tree.get("method").and_then(Json::as_str);
    if let Some(m) = method {
        headers.push(("Mcp-Method".to_owned(), m.as_bytes().to_vec()));
    }
    // `Mcp-Name`: `params.uri` of resources/read, `params.name` of
    // tools/call and prompts/get.
    let source = match method {
        Some("resources/read") => "uri",
        Some("tools/call" | "prompts/get") => "name",
        _ => return headers,
    };
    let name = params.and_then(|p| p.get(source)).and_then(Json::as_str);
    if let Some(n) = name {
        headers.push(("Mcp-Name".to_owned(), encode(n)));
    }
    if method != Some("tools/call") {
        return headers;
    }
    let args = params.and_then(|p| p.get("arguments"));
    for (param, header) in name.and_then(|n| marks.get(n)).into_iter().flatten() {
        let value = match args.and_then(|a| a.get(param)) {
            Some(Json::Str(s, _)) => encode(s),
            Some(Json::Num(n)) => n.clone().into_bytes(),
            Some(Json::Bool(b)) => b.to_string().into_bytes(),
            _ => continue,
        };
        headers.push((format!("Mcp-Param-{header}"), value));
    }
    headers
}

/// Whether header `name` is one a client mirrors from the body
/// (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`; any
/// case): the ones [`conforming`] may add.
pub fn is_mirrored(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "mcp-protocol-version" | "mcp-method" | "mcp-name"
    ) || lower.starts_with("mcp-param-")
}

/// The client's encoding of a string value: as is when it is plain
/// visible ASCII (spaces inside allowed) and not sentinel-shaped, else the
/// Base64 sentinel.
pub fn encode(value: &str) -> Vec<u8> {
    let sentinel_shaped = value.starts_with("=?base64?") && value.ends_with("?=");
    let padded = value.starts_with(' ') || value.ends_with(' ');
    let ascii = value.bytes().all(|b| (0x20..0x7f).contains(&b));
    let plain = ascii && !padded && !sentinel_shaped;
    if plain {
        value.as_bytes().to_vec()
    } else {
        format!("=?base64?{}?=", base64(value.as_bytes())).into_bytes()
    }
}

/// Standard Base64 with padding (the client side of the sentinel).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                let k = ((n >> (18 - 6 * i)) & 63) as usize;
                out.push(char::from(ALPHABET.get(k).copied().unwrap_or(b'A')));
            } else {
                out.push('=');
            }
        }
    }
    out
}
