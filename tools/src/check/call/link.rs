//! How `check --call` sends one request and collects what came for it,
//! over either transport: on stdio, the lines the server wrote between the
//! request and its response (the shared process of [`Ctx`]); over HTTP,
//! the messages of the one response body (`application/json`, or each
//! event of a `text/event-stream`, in order). Either way the result is an
//! [`Exchanged`]: the messages before the response, the response, and
//! whatever followed it in the same body. The HTTP side is
//! `check::http`'s (`CallLink`), so that this module needs nothing of it.
//!
//! Spec: 2026-07-28 `basic/transports/stdio.mdx` (one message per line),
//! `basic/transports/streamable-http.mdx#sending-messages` (a response as
//! JSON or as an SSE stream that carries the response).

use serde_json::Value;

use super::super::ctx::{Ctx, SHOWN};
use super::super::report::Outcome;
use super::super::wire;

/// What came for one request.
#[derive(Debug, Clone)]
pub struct Exchanged {
    /// The request, as shown in a report.
    pub request: String,
    /// The messages (notifications, requests) that came before the
    /// response, in order.
    pub before: Vec<Value>,
    /// The response.
    pub reply: Value,
    /// The response as shown in a report (over HTTP: the whole HTTP
    /// response).
    pub shown: String,
    /// Messages after the response in the same HTTP body (always empty on
    /// stdio, where a later line belongs to no one request).
    pub after: Vec<Value>,
    /// Whether the response came as a `text/event-stream`.
    pub streamed: bool,
}

/// A transport that sends one request line and collects its exchange.
pub trait Link {
    /// Sends `line` (a request for `method`); `Err` is the outcome of a
    /// request that got no response to judge (a failure, or not run when
    /// the deadline cut it).
    fn call(&mut self, line: &[u8], method: &str) -> Result<Exchanged, Outcome>;

    /// The requests of the server's own (a message with a `method` and an
    /// `id`) that came during the last [`Link::call`], whether or not a
    /// response came.
    fn requests(&self) -> &[Value];
}

/// Whether `m` is a request (a `method` and an `id`).
pub fn is_request(m: &Value) -> bool {
    m.get("method").is_some() && m.get("id").is_some()
}

/// Over stdio, on the shared process.
pub struct Stdio<'a> {
    /// The context.
    pub cx: &'a mut Ctx,
    /// The server's requests during the last call.
    pub requests: Vec<Value>,
}

impl Link for Stdio<'_> {
    fn call(&mut self, line: &[u8], method: &str) -> Result<Exchanged, Outcome> {
        let start = self.cx.seen.len();
        let asked = self.cx.ask(line, Some(method));
        let lines = self.cx.seen.get(start..).unwrap_or_default();
        self.requests = lines
            .iter()
            .filter_map(|s| serde_json::from_slice::<Value>(&s.line.bytes).ok())
            .filter(is_request)
            .collect();
        let reply = asked.map_err(|e| self.cx.no_reply(&e, line))?;
        let lines = self.cx.seen.get(start..).unwrap_or_default();
        let before = lines
            .iter()
            .filter(|s| s.line.bytes != reply.line)
            .filter_map(|s| serde_json::from_slice::<Value>(&s.line.bytes).ok())
            .filter(|v| v.get("method").is_some())
            .collect();
        Ok(Exchanged {
            request: wire::show(line, SHOWN),
            before,
            reply: reply.value.clone(),
            shown: wire::show(&reply.line, SHOWN),
            after: Vec::new(),
            streamed: false,
        })
    }

    fn requests(&self) -> &[Value] {
        &self.requests
    }
}
