//! `serve --http ADDR`: the thin hyper 1.x + tokio driver around the pure
//! HTTP binding ([`mcp_reference::http::Binding`]). It owns sockets,
//! connection limits, timeouts, signals and logs; every protocol and
//! binding rule is the binding's.
//!
//! - HTTP/1.1 with keep-alive; at most [`MAX_CONNECTIONS`] connections at
//!   once (the next waits to be accepted); a request head must arrive
//!   within [`HEADER_TIMEOUT`].
//! - The head is judged first ([`Binding::head`]): a refused or
//!   oversized request is answered without running anything; a refused
//!   request's body is read to its end when it is small and prompt
//!   ([`REFUSED_BODY`], [`REFUSED_WAIT`]), so the connection stays usable,
//!   else the refusal says `Connection: close` (RFC 9112 section 9.6); an
//!   admitted body is read up to the limit and no further.
//! - SIGINT or SIGTERM: stop accepting, answer the requests in flight, close
//!   idle connections, exit 0 (at most [`DRAIN`] later).
//! - Logs on stderr: the listening address (unless `--log-level off`), one
//!   line per request at `info` (method, path without its query, status:
//!   never a header or a token, row A8), failures at `error`.
//! - Authorization (`http.authorization`, rows A1 to A9): the driver owns
//!   the inputs of the binding's pure step, the issuer's keys (the JWK Set
//!   fixed in the configuration, or fetched over https, or plain http on
//!   loopback: [`super::issuer`]), the clock, and a bounded cache of
//!   verified tokens ([`super::tokens`]), each entry expiring with its
//!   token.
//!
//! Spec: 2026-07-28 `basic/transports/streamable-http.mdx`, "Security &
//! Endpoint" (bind to localhost when running locally: the default; a
//! non-loopback address needs configured origins, row H3).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Body, Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use mcp_reference::http::auth::{Credentials, credentials, kid_of};
use mcp_reference::http::{Binding, Bound, Keys, Request, Response, Trust};
use mcp_reference::{LogLevel, Server};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use super::issuer::{Client, KeySource};
use super::tokens::Tokens;

/// Connections served at once.
const MAX_CONNECTIONS: usize = 1024;
/// How long a request head may take to arrive.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a graceful shutdown waits for requests in flight.
const DRAIN: Duration = Duration::from_secs(10);
/// The most of a refused request's body the driver reads before answering,
/// so that the connection can serve the next request (the OAuth flow
/// retries with a token on the same connection), and how long it waits for
/// it. A larger body, or one slower than that, is not read: the refusal
/// then says `Connection: close` (RFC 9112 section 9.6) and the connection
/// ends. Docs: docs/behavior.md, DEC48.
const REFUSED_BODY: u64 = 64 * 1024;
/// See [`REFUSED_BODY`].
const REFUSED_WAIT: Duration = Duration::from_secs(1);

/// Why the server did not start or stopped, as one sentence.
pub(crate) type Failure = String;

/// Refuses, before binding, what the binding's rules forbid at start: a
/// non-loopback address without configured origins, or without
/// `http.authorization` (settings, or the word `"none"`: DEC34);
/// authorization settings without usable keys in `jwks`; and an issuer
/// whose keys would be fetched over plain http from a host that is not
/// loopback (DEC38). A refusal of the settings' values names the
/// configuration file they came from (`file`), as a refusal at load does
/// (README, "Configuration"; issue 49, item 5).
pub(crate) fn preflight(
    server: &Server,
    addr: SocketAddr,
    file: Option<&std::path::Path>,
) -> Result<(), Failure> {
    let http = server.config().http();
    if !addr.ip().is_loopback() && http.allowed_origins.is_none() {
        return Err(format!(
            "refusing to listen on {addr}, which is not a loopback address, without http.allowed_origins in the configuration file (DNS rebinding protection; see README, \"Streamable HTTP\")"
        ));
    }
    if !addr.ip().is_loopback() && http.authorization.is_none() {
        return Err(format!(
            "refusing to listen on {addr}, which is not a loopback address, without http.authorization in the configuration file (settings with resource and issuer, or \"none\" to serve unauthenticated; see README, \"Authorization\")"
        ));
    }
    let Some(s) = settings(server) else {
        return Ok(());
    };
    let named = |sentence: String| match file {
        Some(file) => format!("config file {}: {sentence}", file.display()),
        None => sentence,
    };
    let verdict = match s.jwks.as_ref().map(Keys::from_jwks) {
        None => super::issuer::fetchable(&s.issuer).map_err(|e| {
            format!(
                "refusing to fetch the keys of the issuer {}, which is {e}: configure its https URL, or put its keys in http.authorization.jwks",
                s.issuer
            )
        }),
        Some(Ok(keys)) if !keys.is_empty() => Ok(()),
        Some(Ok(_)) => Err("http.authorization.jwks holds no RSA or P-256 signing key".to_owned()),
        Some(Err(e)) => Err(format!("http.authorization.jwks: {e}")),
    };
    verdict.map_err(named)
}

/// The authorization settings, when authorization is on.
fn settings(server: &Server) -> Option<&mcp_reference::OAuthSettings> {
    server.config().http().authorization.as_ref()?.oauth()
}

/// Now, in seconds since the Unix epoch (0 for a clock before it, which
/// no token is valid at).
fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// What watches every exchange the driver answers: `mcp-reference judge`
/// (the crate's `judge`). Called from the connections' tasks, so it
/// serializes what it needs to.
pub(crate) trait Watch: Send + Sync {
    /// A request, its body read when the head was admitted (else empty),
    /// before it is answered: the number to hand back with its response.
    fn request(&self, request: &Request<'_>) -> u64;
    /// A request whose head was refused, its body not read.
    fn refused(&self, request: &Request<'_>) -> u64;
    /// How long to hold the answer to an admitted request before it is
    /// sent and shown to [`Watch::response`] (`judge --slow-tool`); `None`
    /// to send it at once. The answer itself is never changed.
    fn hold(&self, request: &Request<'_>) -> Option<Duration>;
    /// The response to the request numbered `ticket`.
    fn response(&self, ticket: u64, response: &Response);
}

/// Why the server stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// SIGINT or SIGTERM.
    Signal,
    /// The duration given to [`serve`] elapsed.
    Elapsed,
}

/// Serves until SIGINT or SIGTERM (or until `until` has elapsed), every
/// exchange shown to `watch` when there is one.
pub(crate) fn serve(
    server: Server,
    addr: SocketAddr,
    client: Client,
    (level, warning): (LogLevel, Option<String>),
    (watch, until): (Option<Arc<dyn Watch>>, Option<Duration>),
) -> Result<Stop, Failure> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the HTTP runtime: {e}"))?;
    runtime.block_on(run(server, addr, client, (level, warning), (watch, until)))
}

async fn run(
    server: Server,
    addr: SocketAddr,
    client: Client,
    (level, warning): (LogLevel, Option<String>),
    (watch, until): (Option<Arc<dyn Watch>>, Option<Duration>),
) -> Result<Stop, Failure> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot read the address listened on: {e}"))?;
    let bound = Bound {
        port: local.port(),
        loopback: local.ip().is_loopback(),
    };
    let keys = Arc::new(KeySource::new(settings(&server), client).await?);
    let tokens = Arc::new(Tokens::default());
    let binding = Arc::new(Binding::new(server, bound));
    // The handlers are registered here, before the announcement below
    // (`shutdown_signal` registers when called; the async block that waits
    // on it runs only when first polled, after the announcement).
    let signalled = shutdown_signal();
    let mut stop = std::pin::pin!(async move {
        match until {
            None => {
                signalled.await;
                Stop::Signal
            }
            Some(until) => {
                tokio::select! {
                    () = signalled => Stop::Signal,
                    () = tokio::time::sleep(until) => Stop::Elapsed,
                }
            }
        }
    });
    if level > LogLevel::Off {
        eprintln!(
            "mcp-reference: serving MCP over HTTP at http://{local}{}",
            binding.server().config().http().endpoint
        );
    }
    if let Some(warning) = warning {
        eprintln!("{warning}");
    }
    let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let graceful = GracefulShutdown::new();
    let mut stopped = Stop::Signal;
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            why = &mut stop => {
                stopped = why;
                break;
            }
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    if level >= LogLevel::Error {
                        eprintln!("mcp-reference: accepting a connection failed: {e}");
                    }
                    continue;
                }
            },
            why = &mut stop => {
                stopped = why;
                break;
            }
        };
        let binding = binding.clone();
        let keys = keys.clone();
        let tokens = tokens.clone();
        let watch = watch.clone();
        let service = service_fn(move |request| {
            let binding = binding.clone();
            let keys = keys.clone();
            let tokens = tokens.clone();
            let watch = watch.clone();
            async move {
                let trust = (&keys, tokens.as_ref());
                let response = answer(&binding, trust, request, (peer, level), watch.as_deref());
                Ok::<_, Infallible>(response.await)
            }
        });
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(HEADER_TIMEOUT)
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await
                && level >= LogLevel::Debug
            {
                eprintln!("mcp-reference: connection from {peer}: {e}");
            }
            drop(permit);
        });
    }
    drop(listener);
    if level >= LogLevel::Info {
        eprintln!("mcp-reference: shutting down: answering the requests in flight");
    }
    tokio::select! {
        () = graceful.shutdown() => Ok(stopped),
        () = tokio::time::sleep(DRAIN) => {
            if level >= LogLevel::Warn {
                eprintln!("mcp-reference: connections still open after {DRAIN:?}; exiting");
            }
            Ok(stopped)
        }
    }
}

/// Answers one request through the binding.
async fn answer(
    binding: &Binding,
    (source, tokens): (&Arc<KeySource>, &Tokens),
    request: hyper::Request<Incoming>,
    (peer, level): (SocketAddr, LogLevel),
    watch: Option<&dyn Watch>,
) -> hyper::Response<Full<Bytes>> {
    let (parts, body) = request.into_parts();
    let headers: Vec<(&str, &[u8])> = parts
        .headers
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_bytes()))
        .collect();
    let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let head = Request {
        method: parts.method.as_str(),
        target,
        headers: &headers,
        body: &[],
    };
    let now = now();
    let token = match credentials(&head) {
        Credentials::Bearer(token) if binding.authorizes() => Some(token),
        _ => None,
    };
    let generation = source.generation();
    let cached = token.and_then(|t| tokens.get(t, now, generation));
    // The keys only when a token is to be verified now: a cached token, no
    // token and no authorization need none.
    let (fetched, none);
    let keys: &Keys = match (token, &cached) {
        (Some(t), None) => {
            fetched = source.keys_for(kid_of(t).as_deref()).await;
            &fetched
        }
        _ => {
            none = Keys::default();
            &none
        }
    };
    let trust = Trust {
        keys,
        now,
        verified: cached.as_deref(),
    };
    // Whether the connection ends after this response: then it says so.
    let mut close = false;
    let response = match binding.head(&head, &trust) {
        Err(refused) => {
            close = !drained(body).await;
            if let Some(watch) = watch {
                let ticket = watch.refused(&head);
                watch.response(ticket, &refused);
            }
            refused
        }
        Ok(admitted) => {
            if let (Some(token), Some(identity)) = (token, admitted.identity) {
                tokens.put(token, identity, now, generation);
            }
            let server = admitted.server;
            let limit = binding.server().config().max_line_bytes();
            match Limited::new(body, limit).collect().await {
                Ok(collected) => {
                    let bytes = collected.to_bytes();
                    let request = Request {
                        body: &bytes,
                        ..head
                    };
                    let ticket = watch.map(|w| w.request(&request));
                    let response =
                        binding.respond_as_at(server, &request, &mut mcp_reference::Direct, now);
                    // A held answer waits on the runtime's timer, never on
                    // a worker thread: other requests are served meanwhile.
                    if let Some(hold) = watch.and_then(|w| w.hold(&request)) {
                        tokio::time::sleep(hold).await;
                    }
                    if let (Some(watch), Some(ticket)) = (watch, ticket) {
                        watch.response(ticket, &response);
                    }
                    response
                }
                // Over the limit, or the client stopped sending: either
                // way the body cannot be answered, nor the rest of it read.
                Err(_) => {
                    close = true;
                    binding.too_large()
                }
            }
        }
    };
    if level >= LogLevel::Info {
        let path = parts.uri.path();
        eprintln!(
            "mcp-reference: {peer} {} {path} {}",
            parts.method, response.status
        );
    }
    to_hyper(response, close)
}

/// Reads a refused request's body to its end, if it is at most
/// [`REFUSED_BODY`] bytes and arrives within [`REFUSED_WAIT`]: whether it
/// did, and so whether the connection can serve another request.
async fn drained(body: Incoming) -> bool {
    if body.is_end_stream() {
        return true;
    }
    if body.size_hint().lower() > REFUSED_BODY {
        return false;
    }
    let limit = usize::try_from(REFUSED_BODY).unwrap_or(usize::MAX);
    matches!(
        tokio::time::timeout(REFUSED_WAIT, Limited::new(body, limit).collect()).await,
        Ok(Ok(_))
    )
}

fn to_hyper(response: Response, close: bool) -> hyper::Response<Full<Bytes>> {
    let mut out = hyper::Response::new(Full::new(Bytes::from(response.body)));
    *out.status_mut() =
        hyper::StatusCode::from_u16(response.status).unwrap_or(hyper::StatusCode::BAD_REQUEST);
    for (name, value) in response.headers {
        out.headers_mut().insert(
            hyper::header::HeaderName::from_static(name),
            hyper::header::HeaderValue::from_static(value),
        );
    }
    // The challenge is built from the validated configuration: visible
    // ASCII only, so it is always a valid header value.
    if let Some(challenge) = response
        .challenge
        .and_then(|c| hyper::header::HeaderValue::from_str(&c).ok())
    {
        out.headers_mut()
            .insert(hyper::header::WWW_AUTHENTICATE, challenge);
    }
    if close {
        out.headers_mut().insert(
            hyper::header::CONNECTION,
            hyper::header::HeaderValue::from_static("close"),
        );
    }
    out
}

/// Registers the SIGINT and SIGTERM handlers at once, and returns a future
/// that completes on either. Called before the server announces its
/// address: a signal sent right after the announcement must find the
/// handler, not the default action (which would end the process without
/// answering the requests in flight; `tests/http_state_machine.rs` found
/// that race).
#[cfg(unix)]
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    use tokio::signal::unix::{SignalKind, signal};
    let term = signal(SignalKind::terminate());
    let int = signal(SignalKind::interrupt());
    async move {
        match (term, int) {
            (Ok(mut term), Ok(mut int)) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = int.recv() => {}
                }
            }
            (Ok(mut one), Err(_)) | (Err(_), Ok(mut one)) => {
                one.recv().await;
            }
            (Err(_), Err(_)) => std::future::pending().await,
        }
    }
}

/// See the Unix version: Ctrl-C only.
#[cfg(not(unix))]
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}
