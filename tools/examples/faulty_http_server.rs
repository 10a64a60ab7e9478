//! A test fixture: the reference's HTTP binding behind a small blocking
//! HTTP/1.1 loop that breaks one rule per flag, so the tests of
//! `diff --http` and `check --http` can assert that each fault is found,
//! and only it. Not a server anyone should run.
//!
//! ```text
//! faulty_http_server [--config FILE] [--port N] [FAULT...]
//!   --trust-headers   answers the body whatever the mirrored headers say
//!                     (MCP-Protocol-Version, Mcp-Method, Mcp-Name,
//!                     Mcp-Param-*): they are replaced by the ones a
//!                     conforming client would send with that body, as a
//!                     server that never validates them behaves
//!   --no-allow        leaves `Allow` out of every 405
//!   --errors-as-200   answers every JSON-RPC error with status 200
//!   --base64-name-500 answers every request whose Mcp-Name is a Base64
//!                     sentinel (=?base64?...?=) with 500 and an HTML
//!                     error page, as a server whose decoder throws
//!   --sse-no-result-type
//!                     leaves resultType out of the response that ends a
//!                     text/event-stream body (with --sse: every one), as
//!                     the conformance suite's TypeScript fixture does
//!                     (BASE-07: check --call's call.result-type)
//!   --progress-after-response
//!                     moves the first event of a text/event-stream body
//!                     (a progress notification, when there are several)
//!                     after the response (PROG-09: call.progress)
//!   --sse             not a fault: every JSON reply is sent as a
//!                     `text/event-stream` of one `message` event
//!   --exit-after N    stops listening and exits after N connections, as
//!                     a server that crashes during a run (for `bench`)
//!
//! With a configuration that has `http.authorization` (its `jwks` inline),
//! the authorization step runs with the real clock, and these break it:
//!   --accept-expired  never checks `exp`: it judges every token at the
//!                     start of the Unix epoch, so a token that expired an
//!                     hour ago, or in 2000, is accepted (AUTH-10)
//!   --accept-no-aud   answers a token without `aud` as its `sub`'s user,
//!                     unverified (AUTH-09)
//!   --error-without-credentials
//!                     adds error="invalid_token" to the challenge of a
//!                     request without credentials, as the TypeScript SDK
//!                     2.4 does (AUTH-20, SHOULD NOT)
//!   --no-challenge-scope
//!                     leaves `scope` out of every challenge, as the
//!                     Python SDK 2.3 does (AUTH-05, AUTH-15: SHOULD)
//!   --echo-token      puts the rejected token in the challenge's
//!                     error_description (SEC-07, row A8)
//!   --one-user        answers every admitted token as the configuration's
//!                     user, whoever the token names (SEC-04)
//!   --echo-token-in-error
//!                     puts the request's bearer token in the message of
//!                     every JSON-RPC error it answers an admitted request
//!                     with (SEC-07, row A8)
//!
//! With a configuration without `http.authorization`:
//!   --user-from-token answers a request carrying a bearer token as the
//!                     token's `sub`, unverified, instead of the launch
//!                     user (row A9: no authorization configured, so the
//!                     token is no basis for whose orders are read)
//! ```
//!
//! It listens on 127.0.0.1 at port N (default: a free port), says `serving MCP over HTTP at
//! http://127.0.0.1:PORT/mcp` on stderr, and answers one connection at a
//! time, one request per connection (`Connection: close`).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::ExitCode;
use std::time::Duration;

use mcp_reference::http::{Binding, Bound, Keys, Request, Trust};
use mcp_reference::{Config, Direct, Server};
use mcp_reference_testkit::http::{conforming, is_mirrored};
use mcp_reference_testkit::model::http::Listen;

#[derive(Default)]
struct Faults {
    trust_headers: bool,
    no_allow: bool,
    errors_as_200: bool,
    sse: bool,
    sse_no_result_type: bool,
    progress_after_response: bool,
    base64_name_500: bool,
    accept_expired: bool,
    accept_no_aud: bool,
    error_without_credentials: bool,
    no_challenge_scope: bool,
    echo_token: bool,
    one_user: bool,
    echo_token_in_error: bool,
    user_from_token: bool,
}

fn main() -> ExitCode {
    let mut faults = Faults::default();
    let mut config = Config::default();
    let mut port = 0u16;
    let mut exit_after: Option<u64> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--trust-headers" => faults.trust_headers = true,
            "--no-allow" => faults.no_allow = true,
            "--errors-as-200" => faults.errors_as_200 = true,
            "--sse" => faults.sse = true,
            "--sse-no-result-type" => faults.sse_no_result_type = true,
            "--progress-after-response" => faults.progress_after_response = true,
            "--base64-name-500" => faults.base64_name_500 = true,
            "--accept-expired" => faults.accept_expired = true,
            "--accept-no-aud" => faults.accept_no_aud = true,
            "--error-without-credentials" => faults.error_without_credentials = true,
            "--no-challenge-scope" => faults.no_challenge_scope = true,
            "--echo-token" => faults.echo_token = true,
            "--one-user" => faults.one_user = true,
            "--echo-token-in-error" => faults.echo_token_in_error = true,
            "--user-from-token" => faults.user_from_token = true,
            "--exit-after" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => exit_after = Some(n),
                None => {
                    eprintln!("faulty_http_server: --exit-after needs a number");
                    return ExitCode::from(2);
                }
            },
            "--port" => match args.next().and_then(|p| p.parse().ok()) {
                Some(p) => port = p,
                None => {
                    eprintln!("faulty_http_server: --port needs a number");
                    return ExitCode::from(2);
                }
            },
            "--config" => {
                let Some(path) = args.next() else {
                    eprintln!("faulty_http_server: --config needs a file");
                    return ExitCode::from(2);
                };
                match Config::load(std::path::Path::new(&path)) {
                    Ok(c) => config = c,
                    Err(e) => {
                        eprintln!("faulty_http_server: cannot read {path}: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            other => {
                eprintln!("faulty_http_server: unknown flag {other}");
                return ExitCode::from(2);
            }
        }
    }
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("faulty_http_server: cannot listen: {e}");
            return ExitCode::from(1);
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
    let listen = Listen {
        port,
        loopback: true,
    };
    let binding = Binding::new(
        Server::new(config.clone()),
        Bound {
            port,
            loopback: true,
        },
    );
    eprintln!(
        "serving MCP over HTTP at http://127.0.0.1:{port}{}",
        config.http().endpoint
    );
    let keys = config
        .http()
        .authorization
        .as_ref()
        .and_then(|a| a.oauth())
        .and_then(|s| s.jwks.as_ref())
        .map(Keys::from_jwks)
        .transpose();
    let keys = match keys {
        Ok(keys) => keys.unwrap_or_default(),
        Err(e) => {
            eprintln!("faulty_http_server: bad jwks: {e}");
            return ExitCode::from(2);
        }
    };
    let context = Context {
        binding: &binding,
        config: &config,
        listen,
        faults: &faults,
        keys: &keys,
    };
    for (before, stream) in listener.incoming().flatten().enumerate() {
        let _ = serve(stream, &context);
        let served = u64::try_from(before).unwrap_or(u64::MAX).saturating_add(1);
        if exit_after.is_some_and(|n| served >= n) {
            break;
        }
    }
    ExitCode::SUCCESS
}

/// One request head: method, target, header lines, and the bytes read
/// past it.
type Head = (String, String, Vec<(String, Vec<u8>)>, Vec<u8>);

fn read_head(stream: &mut TcpStream) -> Option<Head> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(chunk.get(..n)?);
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut req = httparse::Request::new(&mut headers);
        let httparse::Status::Complete(head) = req.parse(&buf).ok()? else {
            if buf.len() > 1 << 20 {
                return None;
            }
            continue;
        };
        let lines: Vec<(String, Vec<u8>)> = req
            .headers
            .iter()
            .map(|h| (h.name.to_owned(), h.value.to_vec()))
            .collect();
        let method = req.method?.to_owned();
        let target = req.path?.to_owned();
        return Some((method, target, lines, buf.get(head..)?.to_vec()));
    }
}

/// The body: `body` (already read) and the rest of `Content-Length`.
fn read_body(
    stream: &mut TcpStream,
    lines: &[(String, Vec<u8>)],
    mut body: Vec<u8>,
) -> Option<Vec<u8>> {
    let length: usize = lines
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| std::str::from_utf8(v).ok()?.trim().parse().ok())
        .unwrap_or(0);
    let mut chunk = [0u8; 8192];
    while body.len() < length {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(chunk.get(..n)?);
    }
    body.truncate(length);
    Some(body)
}

/// What every connection is served with.
struct Context<'a> {
    binding: &'a Binding,
    config: &'a Config,
    listen: Listen,
    faults: &'a Faults,
    keys: &'a Keys,
}

/// The bearer token of the request, if one `Authorization: Bearer` came.
fn token(lines: &[(String, Vec<u8>)]) -> Option<String> {
    lines
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("authorization"))
        .and_then(|(_, v)| std::str::from_utf8(v).ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().to_owned())
}

/// The claims of a token, unverified.
fn claims(token: &str) -> Option<serde_json::Value> {
    use base64::Engine as _;
    let part = token.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(part)
        .ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// `--echo-token-in-error`: `body`, when it is a JSON-RPC error, with
/// `token` put in its message; any other body as it is.
fn echo_in_error(body: Vec<u8>, token: &str) -> Vec<u8> {
    let Ok(mut reply) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return body;
    };
    let Some(message) = reply.pointer_mut("/error/message") else {
        return body;
    };
    *message = format!("{} (token {token})", message.as_str().unwrap_or_default()).into();
    serde_json::to_vec(&reply).unwrap_or(body)
}

fn serve(mut stream: TcpStream, cx: &Context<'_>) -> std::io::Result<()> {
    let (binding, config, listen, faults) = (cx.binding, cx.config, cx.listen, cx.faults);
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let Some((method, target, mut lines, rest)) = read_head(&mut stream) else {
        return Ok(());
    };
    if faults.base64_name_500
        && lines
            .iter()
            .any(|(n, v)| n.eq_ignore_ascii_case("mcp-name") && v.starts_with(b"=?base64?"))
    {
        let page = "<html><body><h1>500 Internal Server Error</h1></body></html>";
        let head = format!(
            "HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/html\r\n\
             content-length: {}\r\nconnection: close\r\n\r\n",
            page.len()
        );
        stream.write_all(head.as_bytes())?;
        stream.write_all(page.as_bytes())?;
        return stream.flush();
    }
    // The head is judged before the body is read, as the real server does.
    let head: Vec<(&str, &[u8])> = lines
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_slice()))
        .collect();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    let trust = Trust {
        keys: cx.keys,
        now: if faults.accept_expired { 0 } else { now },
        verified: None,
    };
    let judged = binding.head(
        &Request {
            method: &method,
            target: &target,
            headers: &head,
            body: &[],
        },
        &trust,
    );
    let bearer = token(&lines);
    // --accept-no-aud: a token without `aud` is its `sub`'s, unverified;
    // --user-from-token: without authorization, any token's `sub`.
    let unverified = bearer
        .as_deref()
        .and_then(claims)
        .filter(|c| {
            (faults.accept_no_aud && c.get("aud").is_none())
                || (faults.user_from_token
                    && config
                        .http()
                        .authorization
                        .as_ref()
                        .and_then(|a| a.oauth())
                        .is_none())
        })
        .and_then(|c| c.get("sub")?.as_str().map(str::to_owned))
        .and_then(|sub| config.clone().with_user(sub).ok())
        .map(Server::new);
    let (mut refused, server) = match (judged, &unverified) {
        (_, Some(server)) => (None, Some(server)),
        (Ok(_), None) if faults.one_user => (None, Some(binding.server())),
        (Ok(admitted), None) => (None, Some(admitted.server)),
        (Err(response), None) => (Some(response), None),
    };
    if let Some(r) = refused.as_mut()
        && let Some(challenge) = r.challenge.as_mut()
    {
        if faults.error_without_credentials && bearer.is_none() && !challenge.contains("error=") {
            *challenge = challenge.replacen("Bearer ", "Bearer error=\"invalid_token\", ", 1);
        }
        if faults.no_challenge_scope {
            let params: Vec<&str> = challenge
                .trim_start_matches("Bearer ")
                .split(", ")
                .filter(|p| !p.starts_with("scope="))
                .collect();
            *challenge = format!("Bearer {}", params.join(", "));
        }
        if faults.echo_token
            && let Some(t) = &bearer
        {
            challenge.push_str(&format!(", error_description=\"token {t} rejected\""));
        }
    }
    let body = match &refused {
        Some(_) => Vec::new(),
        None => match read_body(&mut stream, &lines, rest) {
            Some(body) => body,
            None => return Ok(()),
        },
    };
    if faults.trust_headers {
        lines.retain(|(n, _)| !is_mirrored(n));
        lines.extend(
            conforming(config, listen, &body)
                .into_iter()
                .filter(|(n, _)| is_mirrored(n)),
        );
    }
    let headers: Vec<(&str, &[u8])> = lines
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_slice()))
        .collect();
    let request = Request {
        method: &method,
        target: &target,
        headers: &headers,
        body: &body,
    };
    let response = match (refused, server) {
        (Some(response), _) => response,
        (None, Some(server)) => binding.respond_as(server, &request, &mut Direct),
        (None, None) => binding.respond(&request),
    };
    let challenge = response.challenge.clone();
    let mut status = response.status;
    let mut out_headers: Vec<(&str, &str)> = response.headers.to_vec();
    let mut out_body = response.body;
    if faults.no_allow {
        out_headers.retain(|(n, _)| !n.eq_ignore_ascii_case("allow"));
    }
    if faults.echo_token_in_error
        && let Some(t) = &bearer
    {
        out_body = echo_in_error(out_body, t);
    }
    if faults.errors_as_200 && status >= 400 && !out_body.is_empty() {
        status = 200;
    }
    if faults.sse && !out_body.is_empty() {
        out_headers.retain(|(n, _)| !n.eq_ignore_ascii_case("content-type"));
        out_headers.push(("content-type", "text/event-stream"));
        out_body = [b"event: message\ndata: ".as_slice(), &out_body, b"\n\n"].concat();
    }
    let streamed = out_headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("content-type") && v.starts_with("text/event-stream"));
    if streamed && (faults.sse_no_result_type || faults.progress_after_response) {
        let text = String::from_utf8_lossy(&out_body).replace("\r\n", "\n");
        let mut events: Vec<String> = text
            .split("\n\n")
            .filter(|e| !e.trim().is_empty())
            .map(str::to_owned)
            .collect();
        if faults.progress_after_response && events.len() > 1 {
            events.rotate_left(1);
        }
        if faults.sse_no_result_type
            && let Some(last) = events.iter_mut().rev().find(|e| e.contains("\"result\""))
        {
            *last = last
                .replace("\"resultType\":\"complete\",", "")
                .replace(",\"resultType\":\"complete\"", "");
        }
        out_body = events
            .iter()
            .map(|e| format!("{e}\n\n"))
            .collect::<String>()
            .into_bytes();
    }
    let mut head = format!("HTTP/1.1 {status} Status\r\n");
    for (n, v) in out_headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    if let Some(challenge) = challenge {
        head.push_str(&format!("www-authenticate: {challenge}\r\n"));
    }
    head.push_str(&format!(
        "content-length: {}\r\nconnection: close\r\n\r\n",
        out_body.len()
    ));
    stream.write_all(head.as_bytes())?;
    stream.write_all(&out_body)?;
    stream.flush()
}
