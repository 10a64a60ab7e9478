//! The faulty client's two requests in flight at once
//! (`examples/faulty_client.rs`; docs/judge.md, "The faulty client"),
//! over Streamable HTTP against a judge started with `--slow-tool NAME=MS`,
//! the tool named to the fixture by `--held-tool NAME`. Two `tools/call`
//! requests of the held tool go out on connections of their own before
//! either answer is read, so whichever the judge reads first, the other
//! arrives while the first is held (no order across connections is
//! assumed). A correct client gives them different ids
//! (`basic/index.mdx`, "Requests": an id is not reused while the request
//! that carried it is unanswered) and different `progressToken`s
//! (`basic/patterns/progress.mdx`, "Progress Flow": a token is unique
//! among the sender's active requests); the faults `jsonrpc.id-in-flight`
//! and `progress.token-unique` give the second the first's.

use serde_json::{Value, json};

use super::http::{http_headers, read_http, send_http};
use super::{Client, Wire};

impl Client {
    /// Two calls of `tool` in flight at once, then both answers read, the
    /// first call's first.
    pub(super) fn two_in_flight(&mut self, tool: &str) -> Result<(), String> {
        let Wire::Http { authority, path } = &self.wire else {
            return Err("two requests in flight need the HTTP binding".into());
        };
        let (authority, path) = (authority.clone(), path.clone());
        let mut calls = Vec::new();
        for _ in 0..2 {
            let mut call = self.build("tools/call", json!({"name": tool, "arguments": {}}));
            let token = json!(format!("held-{}", call.message["id"]));
            call.message["params"]["_meta"]["progressToken"] = token;
            calls.push(call);
        }
        let first_id = calls[0].message["id"].clone();
        let first_token = calls[0].message["params"]["_meta"]["progressToken"].clone();
        if self.now("jsonrpc.id-in-flight") {
            calls[1].message["id"] = first_id;
        }
        if self.now("progress.token-unique") {
            calls[1].message["params"]["_meta"]["progressToken"] = first_token;
        }
        let mut open = Vec::new();
        for call in &calls {
            let headers = http_headers(call, &self.version, &self.param_headers);
            open.push(send_http(
                (&authority, &path),
                call,
                &headers,
                &call.body(),
            )?);
        }
        for (call, stream) in calls.iter().zip(open.iter_mut()) {
            let (reply, _) = read_http(stream, &authority)?;
            let reply = reply.ok_or_else(|| format!("no answer to the held call of {tool}"))?;
            if let Some(error) = reply.get("error")
                && self.fault.is_none()
            {
                return Err(format!(
                    "the server refused a call in flight of the correct session ({error}): {}",
                    call.message
                ));
            }
            if reply.get("id") != call.message.get("id") && self.fault.is_none() {
                return Err(format!(
                    "the answer to the call with id {} carries id {}",
                    call.message["id"],
                    reply.get("id").unwrap_or(&Value::Null)
                ));
            }
        }
        Ok(())
    }
}
