//! The request classes every benchmark measures, and the check of each
//! class's reply, once, before anything is timed.
//!
//! The check is what keeps a benchmark honest: a faster `respond` that
//! skipped a rule (answered a forbidden order, echoed a rounded id, missed
//! the version check) would fail here before a single iteration ran. What
//! the reply must be is the model's (`mcp_reference_testkit::model`, the executable
//! `docs/behavior.md`); each class names the row of the contract it
//! measures, and the model must decide the class's line by that row.
//!
//! Shared by `benches/dispatch.rs` (criterion) and `benches/instructions.rs`
//! (the callgrind gate), so the two measure the very same bytes.

#![allow(dead_code)]

use mcp_reference::{Config, Disposition, Server};
use mcp_reference_testkit::model;
use serde_json::{Value, json};

/// One request class: a name (criterion group and gate row), the request
/// line, and the row of `docs/behavior.md` that decides its reply.
pub(crate) struct Class {
    /// Short, path-safe name: the criterion group and the baseline key.
    pub name: &'static str,
    /// What the class is, for tables.
    pub title: &'static str,
    /// The request line, without a newline.
    pub line: Vec<u8>,
    /// The row of `docs/behavior.md` that decides the reply.
    pub row: &'static str,
}

/// `_meta` of a well-formed 2026-07-28 request, as a typical client sends
/// it (clientInfo included, as in the textbook's recorded run).
pub(crate) fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "bench-client", "version": "1.0.0"}
    })
}

/// A request line with a raw id (so ids beyond 64 bits stay digit for digit).
fn request(id: &str, method: &str, params: Value) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#).into_bytes()
}

fn call(id: &str, name: &str, arguments: Value) -> Vec<u8> {
    request(
        id,
        "tools/call",
        json!({"_meta": meta(), "name": name, "arguments": arguments}),
    )
}

/// The twelve classes of issue 4, in table order.
pub(crate) fn classes() -> Vec<Class> {
    let huge_id = "123456789012345678901234567890";
    vec![
        Class {
            name: "discover",
            title: "server/discover",
            line: request("1", "server/discover", json!({"_meta": meta()})),
            row: "D1",
        },
        Class {
            name: "tools_list",
            title: "tools/list",
            line: request("2", "tools/list", json!({"_meta": meta()})),
            row: "D2",
        },
        Class {
            name: "call_success",
            title: "tools/call success",
            line: call("3", "get_order", json!({"order_id": "A-104"})),
            row: "T4",
        },
        Class {
            name: "call_forbidden",
            title: "tools/call forbidden",
            line: call("4", "get_order", json!({"order_id": "B-205"})),
            row: "T5",
        },
        Class {
            name: "unknown_tool",
            title: "unknown tool",
            line: call("5", "cancel_order", json!({"order_id": "A-104"})),
            row: "T3",
        },
        Class {
            name: "invalid_arguments",
            title: "invalid arguments",
            line: call("6", "get_order", json!({"order_id": 104})),
            row: "T6",
        },
        Class {
            name: "unknown_method",
            title: "unknown method",
            line: request("7", "resources/list", json!({"_meta": meta()})),
            row: "D4",
        },
        Class {
            name: "missing_meta",
            title: "missing _meta",
            line: request(
                "8",
                "tools/call",
                json!({"name": "get_order", "arguments": {"order_id": "A-104"}}),
            ),
            row: "M3",
        },
        Class {
            name: "unsupported_version",
            title: "unsupported version",
            line: {
                let mut m = meta();
                m["io.modelcontextprotocol/protocolVersion"] = json!("2025-06-18");
                call_with_meta("9", m)
            },
            row: "M7",
        },
        Class {
            name: "parse_error",
            title: "parse error",
            // A tools/call cut off mid-line, as a crashed client leaves it.
            line: {
                let mut l = call("10", "get_order", json!({"order_id": "A-104"}));
                l.truncate(l.len() - 20);
                l
            },
            row: "E1",
        },
        Class {
            name: "large_id",
            title: "large-integer id",
            line: call(huge_id, "get_order", json!({"order_id": "A-104"})),
            row: "T4",
        },
        Class {
            name: "order_id_4k",
            title: "4 KiB order_id",
            line: call("12", "get_order", json!({"order_id": "X".repeat(4096)})),
            row: "T5",
        },
    ]
}

fn call_with_meta(id: &str, meta: Value) -> Vec<u8> {
    request(
        id,
        "tools/call",
        json!({"_meta": meta, "name": "get_order", "arguments": {"order_id": "A-104"}}),
    )
}

/// The server every benchmark runs: the textbook's default configuration.
pub(crate) fn server() -> Server {
    Server::new(Config::default())
}

/// The catalog's classes (issue 32): `resources/read` and `prompts/get`
/// against the same floor as `tools/call`, on the server of
/// [`catalog_server`], with `tools/call` success measured again there as
/// the yardstick their ratios are compared with.
pub(crate) fn catalog_classes() -> Vec<Class> {
    let read =
        |id: &str, uri: &str| request(id, "resources/read", json!({"_meta": meta(), "uri": uri}));
    vec![
        Class {
            name: "catalog_call_success",
            title: "tools/call success (catalog)",
            line: call("20", "get_order", json!({"order_id": "A-104"})),
            row: "T4",
        },
        Class {
            name: "resources_read_order",
            title: "resources/read of an order",
            line: read("21", "book-orders://orders/A-104"),
            row: ROW_READ_ORDER,
        },
        Class {
            name: "resources_read_policy",
            title: "resources/read of a policy",
            line: read("22", "book-orders://policies/returns"),
            row: ROW_READ_STATIC,
        },
        Class {
            name: "prompts_get",
            title: "prompts/get reply_to_customer",
            line: request(
                "23",
                "prompts/get",
                json!({"_meta": meta(), "name": "reply_to_customer", "arguments": {"order_id": "A-104", "tone": "formal"}}),
            ),
            row: ROW_PROMPT_GET,
        },
    ]
}

/// The rows of docs/behavior.md deciding the catalog classes' replies.
const ROW_READ_ORDER: &str = "R5";
const ROW_READ_STATIC: &str = "R4";
const ROW_PROMPT_GET: &str = "P3";

/// The server of the catalog's classes: `data/config.example.json`.
pub(crate) fn catalog_server() -> Server {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/config.example.json");
    Server::new(Config::load(&path).unwrap_or_else(|e| panic!("{e}")))
}

impl Class {
    /// Answers the class's line once and checks the reply against the
    /// model; `Err` says what is wrong. Also returns the reply, for callers
    /// that check more (the schema).
    pub(crate) fn check(&self, server: &Server) -> Result<Value, String> {
        let mut out = Vec::new();
        let disposition = server.respond_into(&self.line, &mut out);
        if disposition != Disposition::Replied {
            return Err(format!("{}: no reply ({disposition:?})", self.name));
        }
        let expect = model::expect_line(server.config(), &self.line);
        if expect.row != self.row {
            return Err(format!(
                "{}: the model decides the line by row {}, not {}",
                self.name, expect.row, self.row
            ));
        }
        expect
            .check(server.config(), &out)
            .map_err(|e| format!("{}: {e}", self.name))?;
        model::read_reply(&out).map(|r| r.value)
    }
}
