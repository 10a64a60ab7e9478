//! The notifications a request's own `_meta` asked for, written before
//! its response (rows T12 and T13 of docs/behavior.md): a configured
//! content tool that ran sends its `notifications/progress` when the
//! request carries a `progressToken`, and its `notifications/message` at
//! or above the request's `io.modelcontextprotocol/logLevel` when it
//! carries one; nothing else ever sends either, and a request that asks
//! for neither gets none. The core stays pure: the notifications are part
//! of its output, the same bytes for the same request.
//!
//! Order: the progress notifications (their `progress` strictly
//! increasing, the request's token echoed as sent), then the log messages
//! in configured order, then the response (written by the caller).
//! Members in `schema.ts` order: `jsonrpc, method, params`;
//! `progressToken, progress, total`; `level, logger, data`.
//!
//! Spec: 2026-07-28 `basic/patterns/progress.mdx` (a token from the
//! request, notifications only while the request is in flight, progress
//! increasing), `server/utilities/logging.mdx` and `basic/index.mdx`
//! (`io.modelcontextprotocol/logLevel`: no log message without it),
//! `basic/transports/stdio.mdx` (one message per line).

use crate::catalog::{ContentTool, LOG_LEVELS};
use crate::json::{Shallow, write_str};
use crate::meta::Meta;

/// Appends the notifications `meta` asks of `tool`, one line each.
pub(crate) fn write(out: &mut Vec<u8>, tool: &ContentTool, meta: &Meta<'_>) {
    if let Some(token) = &meta.progress_token {
        for progress in &tool.progress {
            out.extend_from_slice(
                b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":",
            );
            match token {
                Shallow::Str(s) => write_str(out, s),
                Shallow::Integer(i) => out.extend_from_slice(i.get().to_string().as_bytes()),
                // `_meta` was checked: a token is a string or an integer.
                _ => out.extend_from_slice(b"null"),
            }
            out.extend_from_slice(b",\"progress\":");
            out.extend_from_slice(progress.to_string().as_bytes());
            if let Some(total) = tool.progress_total {
                out.extend_from_slice(b",\"total\":");
                out.extend_from_slice(total.to_string().as_bytes());
            }
            out.extend_from_slice(b"}}\n");
        }
    }
    let Some(Shallow::Str(asked)) = &meta.log_level else {
        return;
    };
    let rank = |level: &str| LOG_LEVELS.iter().position(|l| *l == level);
    let Some(least) = rank(asked) else {
        return;
    };
    for m in &tool.log {
        if rank(&m.level).is_none_or(|r| r < least) {
            continue;
        }
        out.extend_from_slice(
            b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":",
        );
        write_str(out, &m.level);
        if let Some(logger) = &m.logger {
            out.extend_from_slice(b",\"logger\":");
            write_str(out, logger);
        }
        out.extend_from_slice(b",\"data\":");
        write_str(out, &m.data);
        out.extend_from_slice(b"}}\n");
    }
}
