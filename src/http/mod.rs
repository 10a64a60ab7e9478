//! The Streamable HTTP binding, pure: one HTTP request (method, target,
//! header list, body) in, one HTTP response (status, headers, body) out.
//! No I/O, no clock, no state; the hyper server of the binary is a thin
//! driver around it.
//!
//! It is the HTTP sibling of [`Server::respond`]: the body is decoded and
//! answered by the same core, so a response body is the stdio reply line to
//! the same JSON, byte for byte, without its newline. The binding adds
//! statuses and headers, and the rules that belong to HTTP alone (rows H1 to
//! H16 of docs/behavior.md, "Streamable HTTP"), checked in this order; the
//! first that fails answers:
//!
//! | step | rule | rows |
//! | --- | --- | --- |
//! | metadata | with authorization on, the Protected Resource Metadata at its well-known paths (module `auth`) | A1, A2 |
//! | path | the one MCP endpoint (query ignored), else 404 | H1 |
//! | method | POST, else 405 with `Allow: POST` | H2 |
//! | `Origin` | absent, or an allowed origin, else 403 | H3 |
//! | `Host` | when the binding checks hosts (bound to loopback), an allowed one, else 403 | H4 |
//! | authorization | with authorization on, a verified access token with the configured scopes, which chooses the user (module `auth`) | A3 to A7 |
//! | `Content-Type` | `application/json` (parameters allowed), else 415 | H5 |
//! | size | the body (and a declared `Content-Length`: digits, with optional spaces and tabs around them) within `max_line_bytes`, else 413 | H6 |
//! | envelope | the core's reading of the body: its JSON-RPC error with 400; a client's response 400 with no body; a notification 202 with no body | H7, H8, H9 |
//! | mirrored headers | `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` present where required, well-formed, equal to the body, else 400 `-32020` (module `headers`) | H10 to H14 |
//! | core | the core's reply: 200 for a result, 404 for `-32601`, 400 for every other error | H15 |
//!
//! Never: SSE (every reply is one `application/json` object: this server
//! has no request-scoped notifications), a session id (`Mcp-Session-Id` and
//! `Last-Event-ID` are ignored), or legacy-era traffic (H16).
//!
//! Spec: 2026-07-28 `basic/transports/streamable-http.mdx` (whole) and
//! `basic/transports/index.mdx`; `basic/index.mdx` "Per-request protocol
//! fields" (400 for a missing required field); `schema.ts` error types
//! ("For HTTP, the response status code MUST be `400 Bad Request`").

pub mod auth;
mod headers;
mod jws;

pub use auth::{Admitted, Identity, Keys, Trust};
pub use headers::Applied;

use crate::envelope::{self, Message};
use crate::error::{Code, ErrorData};
use crate::server::Server;
use crate::tools::{Direct, Executor};

/// One HTTP request, as plain data (the shape of the `http` crate's
/// `Request`, without the dependency).
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The method, as sent (`POST`; compared exactly: methods are
    /// case-sensitive, RFC 9110 section 9.1).
    pub method: &'a str,
    /// The request target: the path, with any query.
    pub target: &'a str,
    /// Every header line, name and value, in the order received. Names
    /// are compared without regard to ASCII case, values exactly.
    pub headers: &'a [(&'a str, &'a [u8])],
    /// The body.
    pub body: &'a [u8],
}

/// One HTTP response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The headers the binding sets (`content-type`, `allow`), lowercase.
    pub headers: &'static [(&'static str, &'static str)],
    /// The body: empty, or one JSON-RPC response without a newline (or,
    /// at a well-known path, the metadata document).
    pub body: Vec<u8>,
    /// The `WWW-Authenticate` challenge of a 401, 403 or 400 of the
    /// authorization step (rows A3 to A6).
    pub challenge: Option<String>,
}

impl Response {
    fn empty(status: u16) -> Response {
        Response {
            status,
            headers: &[],
            body: Vec::new(),
            challenge: None,
        }
    }

    fn json(status: u16, mut line: Vec<u8>) -> Response {
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        Response {
            status,
            headers: &[("content-type", JSON)],
            body: line,
            challenge: None,
        }
    }

    /// H18: each line of `lines` (the notifications, then the response)
    /// as one `message` event, the response last.
    fn event_stream(status: u16, lines: &[u8]) -> Response {
        let mut body = Vec::with_capacity(lines.len() + 64);
        for line in lines.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            body.extend_from_slice(b"event: message\ndata: ");
            body.extend_from_slice(line);
            body.extend_from_slice(b"\n\n");
        }
        Response {
            status,
            headers: &[("content-type", EVENT_STREAM), ("x-accel-buffering", "no")],
            body,
            challenge: None,
        }
    }

    /// The value of header `name` (lowercase) the binding set, if any.
    pub fn header(&self, name: &str) -> Option<&'static str> {
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }
}

/// The capacity a response body starts with (the textbook's replies are
/// 300 to 1,100 bytes).
const REPLY_CAPACITY: usize = 1024;

/// The media type of every reply body, and the only one a request may
/// carry.
const JSON: &str = "application/json";

/// The media type of a reply with notifications before it (H18).
const EVENT_STREAM: &str = "text/event-stream";

/// H18: whether an `Accept` header (any of them) names a media range that
/// matches `text/event-stream` (`text/event-stream`, `text/*`, `*/*`, any
/// ASCII case) without `q=0`.
fn accepts_event_stream(request: &Request<'_>) -> bool {
    values(request, "accept")
        .flat_map(|v| v.split(|&b| b == b','))
        .any(|range| {
            let mut parts = range.split(|&b| b == b';');
            let media = parts.next().unwrap_or_default().trim_ascii();
            let matches = [b"text/event-stream".as_slice(), b"text/*", b"*/*"]
                .iter()
                .any(|m| media.eq_ignore_ascii_case(m));
            let refused = parts.any(|p| {
                let p = p.trim_ascii();
                let q = p.strip_prefix(b"q=").or_else(|| p.strip_prefix(b"Q="));
                q.is_some_and(|q| q.iter().all(|&b| b == b'0' || b == b'.'))
            });
            matches && !refused
        })
}

/// Where the server listens, as far as the binding's defaults depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// The port.
    pub port: u16,
    /// Whether the address is a loopback address.
    pub loopback: bool,
}

/// A configured binding: the core's server plus the HTTP settings, with
/// the defaults that depend on the bound address resolved once.
pub struct Binding {
    server: Server,
    endpoint: String,
    origins: Vec<String>,
    hosts: Option<Vec<String>>,
    auth: Option<auth::Guard>,
}

impl Binding {
    /// Builds the binding for a server listening at `bound`. Allowed
    /// origins default to the loopback origins of the port (H3); allowed
    /// hosts, when bound to loopback, to the loopback names with the port
    /// (H4).
    pub fn new(server: Server, bound: Bound) -> Binding {
        let settings = server.config().http();
        let loopback_names = |scheme: &str| -> Vec<String> {
            let mut names = Vec::new();
            for host in ["localhost", "127.0.0.1", "[::1]"] {
                names.push(format!("{scheme}{host}:{}", bound.port));
                if bound.port == 80 {
                    names.push(format!("{scheme}{host}"));
                }
            }
            names
        };
        let lower = |list: &[String]| list.iter().map(|s| s.to_ascii_lowercase()).collect();
        let origins = match &settings.allowed_origins {
            Some(list) => lower(list),
            None => loopback_names("http://"),
        };
        let hosts = match &settings.allowed_hosts {
            Some(list) => Some(lower(list)),
            None => bound.loopback.then(|| loopback_names("")),
        };
        Binding {
            endpoint: settings.endpoint.clone(),
            auth: auth::Guard::new(server.config()),
            server,
            origins,
            hosts,
        }
    }

    /// The core it answers bodies with.
    pub fn server(&self) -> &Server {
        &self.server
    }

    /// Answers one request. With authorization on, no key is known, so
    /// every token is refused: use [`Binding::respond_at`].
    pub fn respond(&self, request: &Request<'_>) -> Response {
        self.respond_with(request, &mut Direct)
    }

    /// Answers one request, running tools through `executor`.
    pub fn respond_with<E: Executor>(&self, request: &Request<'_>, executor: &mut E) -> Response {
        self.respond_at(request, &NO_TRUST, executor)
    }

    /// Answers one request with the issuer's keys and the current time
    /// (the inputs of the authorization step, rows A1 to A7; ignored when
    /// authorization is off), running tools through `executor`.
    pub fn respond_at<E: Executor>(
        &self,
        request: &Request<'_>,
        trust: &Trust<'_>,
        executor: &mut E,
    ) -> Response {
        match self.head(request, trust) {
            Ok(admitted) => self.respond_as_at(admitted.server, request, executor, trust.now),
            Err(refused) => refused,
        }
    }

    /// Answers a request whose head [`Binding::head`] accepted, with the
    /// core server it chose (so that a driver verifies a token once).
    pub fn respond_as<E: Executor>(
        &self,
        server: &Server,
        request: &Request<'_>,
        executor: &mut E,
    ) -> Response {
        self.respond_as_at(server, request, executor, 0)
    }

    /// [`Binding::respond_as`] at `now` (seconds since 1970), the time a
    /// multi round-trip request's `requestState` is issued and checked at
    /// ([`Server::respond_at`]).
    pub fn respond_as_at<E: Executor>(
        &self,
        server: &Server,
        request: &Request<'_>,
        executor: &mut E,
        now: u64,
    ) -> Response {
        if request.body.len() > self.server.config().max_line_bytes() {
            return self.too_large();
        }
        self.answer_body(server, request, executor, now)
    }

    /// Whether authorization is on (the configuration's
    /// `http.authorization` holds settings).
    pub fn authorizes(&self) -> bool {
        self.auth.is_some()
    }

    /// The checks that need no body, the authorization step included (A1
    /// to A7, H1 to H6, a declared `Content-Length` included): the core
    /// server that answers the body (the token's user's, or the
    /// configuration's without authorization), or the response to send
    /// without reading the body. [`Binding::respond_at`] runs them too; a
    /// driver calls this first so that a refused or oversized request is
    /// never read.
    pub fn head(&self, request: &Request<'_>, trust: &Trust<'_>) -> Result<Admitted<'_>, Response> {
        if let Some(metadata) = self.auth.as_ref().and_then(|a| a.metadata(request)) {
            return Err(metadata);
        }
        let server = self.head_checks(request, trust)?;
        let mut types = values(request, "content-type");
        let json = match (types.next(), types.next()) {
            (Some(t), None) => is_json(t),
            _ => false,
        };
        if !json {
            return Err(Response::empty(415));
        }
        let limit = self.server.config().max_line_bytes();
        let declared = values(request, "content-length").any(|v| {
            std::str::from_utf8(v)
                .ok()
                .and_then(|v| v.trim_matches([' ', '\t']).parse::<u64>().ok())
                .is_none_or(|n| n > limit as u64)
        });
        if declared {
            return Err(self.too_large());
        }
        Ok(server)
    }

    /// H1 to H4, then the authorization step.
    fn head_checks(
        &self,
        request: &Request<'_>,
        trust: &Trust<'_>,
    ) -> Result<Admitted<'_>, Response> {
        if let Some(refused) = self.check_origin(request) {
            return Err(refused);
        }
        match &self.auth {
            None => Ok(Admitted {
                server: &self.server,
                identity: None,
            }),
            Some(guard) => guard.authenticate(request, trust),
        }
    }

    /// H1 to H4.
    fn check_origin(&self, request: &Request<'_>) -> Option<Response> {
        let path = request.target.split('?').next().unwrap_or_default();
        if path != self.endpoint {
            return Some(Response::empty(404));
        }
        if request.method != "POST" {
            return Some(Response {
                headers: &[("allow", "POST")],
                ..Response::empty(405)
            });
        }
        let mut origins = values(request, "origin");
        if origins.any(|origin| !self.allowed(&self.origins, origin)) {
            return Some(Response::empty(403));
        }
        if let Some(hosts) = &self.hosts {
            let mut host = values(request, "host");
            let ok = match (host.next(), host.next()) {
                (Some(h), None) => self.allowed(hosts, h),
                _ => false,
            };
            if !ok {
                return Some(Response::empty(403));
            }
        }
        None
    }

    /// The response to a body over the limit (H6), for a driver that
    /// stopped reading it.
    pub fn too_large(&self) -> Response {
        Response::empty(413)
    }

    fn allowed(&self, list: &[String], value: &[u8]) -> bool {
        list.iter()
            .any(|allowed| allowed.as_bytes().eq_ignore_ascii_case(value))
    }

    fn answer_body<E: Executor>(
        &self,
        server: &Server,
        request: &Request<'_>,
        executor: &mut E,
        now: u64,
    ) -> Response {
        // Room for every constant reply of the textbook's server, so that
        // writing one never reallocates.
        let mut out = Vec::with_capacity(REPLY_CAPACITY);
        let supported = server.versions().supported_json();
        match envelope::decode(request.body) {
            Message::Error { id, error } => {
                envelope::write_error(&mut out, id.as_ref(), &error, supported);
                Response::json(400, out)
            }
            Message::ClientResponse => Response::empty(400),
            Message::Notification { .. } => Response::empty(202),
            Message::Request { id, method, params } => {
                let check = headers::Mirror {
                    request,
                    method: &method,
                    params: params.as_ref(),
                    catalog: server.catalog(),
                };
                if let Err(message) = check.validate() {
                    let data = if method == "initialize" {
                        ErrorData::Supported
                    } else {
                        ErrorData::None
                    };
                    envelope::write_error_text(
                        &mut out,
                        Some(&id),
                        Code::HeaderMismatch,
                        &message,
                        &data,
                        supported,
                    );
                    return Response::json(400, out);
                }
                let code =
                    server.answer_request(&id, &method, params.as_ref(), &mut out, executor, now);
                // H18: notifications before the response (T12, T13) make
                // a text/event-stream when the request accepts one; else
                // the response alone.
                let lines = memchr::memchr_iter(b'\n', &out).count();
                if lines > 1 {
                    if accepts_event_stream(request) {
                        return Response::event_stream(status_of(code), &out);
                    }
                    let start = out
                        .iter()
                        .rev()
                        .skip(1)
                        .position(|&b| b == b'\n')
                        .map_or(0, |p| out.len() - 1 - p);
                    out.drain(..start);
                }
                Response::json(status_of(code), out)
            }
        }
    }
}

/// The mirrored-header checks of rows H10 to H14 on one request, as the
/// binding runs them before the core answers its body: which headers it
/// compared and which one, if any, failed (`None` when the body is not a
/// JSON-RPC request, which no header is compared for). What
/// `mcp-reference judge` asks to tell a client which header rule it
/// broke; the rules stay in the `headers` module.
pub fn mirrored_headers(server: &Server, request: &Request<'_>) -> Option<Applied> {
    let Message::Request { method, params, .. } = envelope::decode(request.body) else {
        return None;
    };
    let check = headers::Mirror {
        request,
        method: &method,
        params: params.as_ref(),
        catalog: server.catalog(),
    };
    let mut applied = Applied::default();
    let _ = check.validate_traced(&mut applied);
    Some(applied)
}

/// The trust of [`Binding::respond`]: no keys, the epoch.
static NO_TRUST: Trust<'static> = Trust {
    keys: &auth::NO_KEYS,
    now: 0,
    verified: None,
};

/// H15: the status of a reply the core wrote. `-32601` is 404 (MUST);
/// `-32022`, `-32602` for a missing `_meta` field and `-32020` are 400
/// (MUST); every other error is a client's error too, so 400 (DEC23).
fn status_of(code: Option<Code>) -> u16 {
    match code {
        None => 200,
        Some(Code::MethodNotFound) => 404,
        Some(_) => 400,
    }
}

/// The values of every header called `name` (lowercase), in order.
fn values<'r>(request: &'r Request<'_>, name: &'r str) -> impl Iterator<Item = &'r [u8]> + 'r {
    request
        .headers
        .iter()
        .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| *v)
}

/// H5: `application/json`, in any ASCII case, with or without parameters
/// (`; charset=utf-8`), with optional whitespace around it.
fn is_json(value: &[u8]) -> bool {
    let media = value.split(|&b| b == b';').next().unwrap_or_default();
    media.trim_ascii().eq_ignore_ascii_case(JSON.as_bytes())
}

#[cfg(test)]
mod tests;
