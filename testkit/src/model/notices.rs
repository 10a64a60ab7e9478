//! The model of rows T12 and T13: the notifications a request's own
//! `_meta` asks of a configured content tool that runs, before its
//! response. Written from docs/behavior.md, not from the server: each is
//! the compact JSON (members sorted) of one expected line, so that a
//! checker compares values, and the canonical member order is judged on
//! its own (row W1).
//!
//! - `progressToken` (a string or an integer) present: one
//!   `notifications/progress` per configured progress value, in order,
//!   `{progressToken: <as sent>, progress, total?}`;
//! - then, with `io.modelcontextprotocol/logLevel` a `LoggingLevel`: one
//!   `notifications/message` per configured message whose level is at or
//!   above it (RFC 5424 order, `debug` least), `{level, logger?, data}`;
//! - nothing else, ever.

use serde_json::{Map, Value, json};

use super::expect::{LOG_LEVEL, LOG_LEVELS};
use super::tree::Json;
use mcp_reference::catalog::ContentTool;

/// The lines `tool`'s run sends before its response to a request whose
/// `params` are `params`.
pub fn expected(tool: &ContentTool, params: &Json) -> Vec<String> {
    let meta = params.get("_meta");
    let mut out = Vec::new();
    let token = meta
        .and_then(|m| m.get("progressToken"))
        .and_then(|t| match t {
            Json::Str(s, _) => Some(json!(s)),
            // An integer token (64 bits, M13): its value (`-0` is 0).
            Json::Num(n) => n
                .parse::<i64>()
                .map(|i| json!(i))
                .or_else(|_| n.parse::<u64>().map(|u| json!(u)))
                .ok(),
            _ => None,
        });
    if let Some(token) = token {
        for p in &tool.progress {
            let mut params = Map::new();
            params.insert("progressToken".into(), token.clone());
            params.insert("progress".into(), json!(p));
            if let Some(total) = tool.progress_total {
                params.insert("total".into(), json!(total));
            }
            out.push(notification("notifications/progress", params));
        }
    }
    let rank = |l: &str| LOG_LEVELS.iter().position(|x| *x == l);
    let asked = meta
        .and_then(|m| m.get(LOG_LEVEL))
        .and_then(Json::as_str)
        .and_then(rank);
    if let Some(least) = asked {
        for m in tool
            .log
            .iter()
            .filter(|m| rank(&m.level).is_some_and(|r| r >= least))
        {
            let mut params = Map::new();
            params.insert("level".into(), json!(m.level));
            if let Some(logger) = &m.logger {
                params.insert("logger".into(), json!(logger));
            }
            params.insert("data".into(), json!(m.data));
            out.push(notification("notifications/message", params));
        }
    }
    out
}

fn notification(method: &str, params: Map<String, Value>) -> String {
    json!({ "jsonrpc": "2.0", "method": method, "params": params }).to_string()
}
