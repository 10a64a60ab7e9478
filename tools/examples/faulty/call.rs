//! The faults of `faulty_server` that `check --call` finds
//! (`--accept-any-state`, `--ask-undeclared`, `--ask-unnarrowed`, `--request-on-input`, `--accept-declined`,
//! `--accept-malformed`, `--error-on-unanswered`, `--progress-wrong-token`,
//! `--progress-unasked`): each rewrites a `tools/call` before the core
//! answers it, or answers it itself, or rewrites the reply. Spec: 2026-07-28
//! `basic/patterns/mrtr.mdx`, `basic/patterns/progress.mdx`,
//! `client/elicitation.mdx#error-handling` (the rule each breaks is named in
//! `faulty_server`'s flag list).

use serde_json::{Map, Value};

use super::Faults;

/// What a fault of `check --call` makes of a request: another line for the
/// core, or a reply of its own.
pub(crate) enum Before {
    Line(Vec<u8>),
    Reply(String),
}

pub(crate) fn call_before(f: &Faults, v: &Value) -> Option<Before> {
    if v.get("method").and_then(Value::as_str) != Some("tools/call") {
        return None;
    }
    let id = v.get("id").cloned().unwrap_or(Value::Null);
    let params = v.get("params")?;
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let responses = params.get("inputResponses").and_then(Value::as_object);
    let refuses = |a: &Value| {
        matches!(
            a.get("action").and_then(Value::as_str),
            Some("decline" | "cancel")
        )
    };
    let malformed = |r: &Map<String, Value>| r.values().any(|a| !a.is_object());
    if ((f.accept_declined && responses.is_some_and(|r| r.values().any(refuses)))
        || (f.accept_malformed && responses.is_some_and(malformed)))
        && let Some(result) = f.accepted.borrow().get(name)
    {
        let reply = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result});
        return Some(Before::Reply(format!("{reply}\n")));
    }
    if f.error_on_unanswered && params.get("requestState").is_some() && responses.is_none() {
        let reply = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": "Invalid params: no inputResponses"}});
        return Some(Before::Reply(format!("{reply}\n")));
    }
    let mut v = v.clone();
    let mut changed = false;
    if f.accept_any_state
        && let Some(state) = params.get("requestState").and_then(Value::as_str)
        && let Some(last) = f.issued.borrow().last()
        && !f.issued.borrow().iter().any(|i| i == state)
        && let Some(p) = v.get_mut("params").and_then(Value::as_object_mut)
    {
        p.insert("requestState".into(), Value::from(last.clone()));
        changed = true;
    }
    if let Some(meta) = v
        .pointer_mut("/params/_meta")
        .and_then(Value::as_object_mut)
    {
        let caps = "io.modelcontextprotocol/clientCapabilities";
        if f.ask_undeclared && meta.get(caps) == Some(&serde_json::json!({})) {
            let every = serde_json::json!({"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}, "context": {}}, "roots": {}});
            meta.insert(caps.into(), every);
            changed = true;
        }
        // --ask-unnarrowed: an elicitation capability is read as both modes,
        // a sampling one as tool-enabled.
        if f.ask_unnarrowed
            && let Some(declared) = meta.get_mut(caps).and_then(Value::as_object_mut)
        {
            for (kind, sub) in [("elicitation", "url"), ("sampling", "tools")] {
                if let Some(o) = declared.get_mut(kind).and_then(Value::as_object_mut)
                    && !o.contains_key(sub)
                {
                    o.insert(sub.into(), serde_json::json!({}));
                    o.entry("form").or_insert_with(|| serde_json::json!({}));
                    changed = true;
                }
            }
        }
        if f.progress_unasked && !meta.contains_key("progressToken") {
            meta.insert("progressToken".into(), Value::from("unasked"));
            changed = true;
        }
    }
    changed.then(|| Before::Line(v.to_string().into_bytes()))
}

pub(crate) fn call_after(f: &Faults, request: Option<&Value>, mut reply: String) -> String {
    let Some(v) = request.filter(|v| v.get("method").and_then(Value::as_str) == Some("tools/call"))
    else {
        return reply;
    };
    let last = reply
        .lines()
        .last()
        .and_then(|l| serde_json::from_str::<Value>(l).ok());
    if let Some(result) = last.as_ref().and_then(|r| r.get("result")) {
        if let Some(state) = result.get("requestState").and_then(Value::as_str) {
            f.issued.borrow_mut().push(state.to_owned());
        }
        if result.get("resultType").and_then(Value::as_str) == Some("complete")
            && let Some(name) = v.pointer("/params/name").and_then(Value::as_str)
        {
            f.accepted
                .borrow_mut()
                .insert(name.to_owned(), result.clone());
        }
    }
    if f.request_on_input && reply.contains("\"inputRequests\"") {
        // An elicitation request of the server's own before the reply.
        let request = serde_json::json!({"jsonrpc": "2.0", "id": "faulty-1", "method": "elicitation/create", "params": {"message": "Your name?", "requestedSchema": {"type": "object", "properties": {}}}});
        reply = format!("{request}\n{reply}");
    }
    if f.progress_wrong_token {
        reply = reply.replace("\"progressToken\":\"", "\"progressToken\":\"wrong-");
    }
    reply
}
