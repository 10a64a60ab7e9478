//! The request classes every benchmark measures, and the expectation each
//! class's reply is checked against, once, before anything is timed.
//!
//! The check is what keeps a benchmark honest: a faster `respond` that
//! skipped a rule (answered a forbidden order, echoed a rounded id, missed
//! the version check) would fail here before a single iteration ran. The
//! expectations restate the core's tests (`tests/golden.rs` and the module
//! tests): the error code and message of each error class, and for results
//! the property that makes the class what it is.
//!
//! Shared by `benches/dispatch.rs` (criterion) and `benches/instructions.rs`
//! (the callgrind gate), so the two measure the very same bytes.

#![allow(dead_code)]

use mcp_reference::{Config, Disposition, Server};
use serde_json::{Value, json};

/// One request class: a name (criterion group and gate row), the request
/// line, and what its reply must be.
pub struct Class {
    /// Short, path-safe name: the criterion group and the baseline key.
    pub name: &'static str,
    /// What the class is, for tables.
    pub title: &'static str,
    /// The request line, without a newline.
    pub line: Vec<u8>,
    /// The id the reply must echo, as raw JSON text.
    pub id: &'static str,
    /// What the reply must be.
    pub expect: Expect,
}

/// What a class's reply must be.
pub enum Expect {
    /// A result; the closure checks the property that defines the class.
    Result(fn(&Value) -> Result<(), String>),
    /// An error with this code and message.
    Error(i64, &'static str),
}

/// `_meta` of a well-formed 2026-07-28 request, as a typical client sends
/// it (clientInfo included, as in the textbook's recorded run).
pub fn meta() -> Value {
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

/// The text of the first content block of a tool result.
fn text(result: &Value) -> Result<&str, String> {
    result["content"][0]["text"]
        .as_str()
        .ok_or_else(|| "no text content".to_string())
}

fn is_error(result: &Value, want: bool) -> Result<(), String> {
    if result["isError"] != json!(want) {
        return Err(format!("isError is not {want}"));
    }
    Ok(())
}

fn forbidden(result: &Value) -> Result<(), String> {
    is_error(result, true)?;
    if text(result)? != mcp_reference::tools::get_order::FORBIDDEN_TEXT {
        return Err("not the forbidden text".into());
    }
    if result.get("structuredContent").is_some() {
        return Err("a forbidden result carries structuredContent".into());
    }
    Ok(())
}

fn success(result: &Value) -> Result<(), String> {
    is_error(result, false)?;
    let structured = &result["structuredContent"];
    let want = json!({"order_id": "A-104", "status": "processing",
        "as_of": "2026-09-14T00:00:00Z", "source_version": "ka3-orders-v1"});
    if *structured != want {
        return Err(format!("structuredContent is {structured}"));
    }
    let parsed: Value = serde_json::from_str(text(result)?).map_err(|e| e.to_string())?;
    if parsed != *structured {
        return Err("text block differs from structuredContent".into());
    }
    Ok(())
}

/// The twelve classes of issue 4, in table order.
pub fn classes() -> Vec<Class> {
    let huge_id = "123456789012345678901234567890";
    vec![
        Class {
            name: "discover",
            title: "server/discover",
            line: request("1", "server/discover", json!({"_meta": meta()})),
            id: "1",
            expect: Expect::Result(|r| {
                if r["supportedVersions"] != json!(["2026-07-28"]) {
                    return Err("supportedVersions".into());
                }
                if r["capabilities"]["tools"] != json!({}) {
                    return Err("capabilities.tools".into());
                }
                Ok(())
            }),
        },
        Class {
            name: "tools_list",
            title: "tools/list",
            line: request("2", "tools/list", json!({"_meta": meta()})),
            id: "2",
            expect: Expect::Result(|r| {
                let tools = r["tools"].as_array().ok_or("no tools")?;
                if tools.len() != 1 || tools[0]["name"] != "get_order" {
                    return Err("not exactly get_order".into());
                }
                if tools[0]["annotations"]["readOnlyHint"] != json!(true) {
                    return Err("not read-only".into());
                }
                Ok(())
            }),
        },
        Class {
            name: "call_success",
            title: "tools/call success",
            line: call("3", "get_order", json!({"order_id": "A-104"})),
            id: "3",
            expect: Expect::Result(success),
        },
        Class {
            name: "call_forbidden",
            title: "tools/call forbidden",
            line: call("4", "get_order", json!({"order_id": "B-205"})),
            id: "4",
            expect: Expect::Result(forbidden),
        },
        Class {
            name: "unknown_tool",
            title: "unknown tool",
            line: call("5", "cancel_order", json!({"order_id": "A-104"})),
            id: "5",
            expect: Expect::Error(-32602, mcp_reference::dispatch::UNKNOWN_TOOL.message),
        },
        Class {
            name: "invalid_arguments",
            title: "invalid arguments",
            line: call("6", "get_order", json!({"order_id": 104})),
            id: "6",
            expect: Expect::Result(|r| {
                is_error(r, true)?;
                if text(r)? != mcp_reference::tools::get_order::INVALID_TEXT {
                    return Err("not the invalid-arguments text".into());
                }
                Ok(())
            }),
        },
        Class {
            name: "unknown_method",
            title: "unknown method",
            line: request("7", "resources/list", json!({"_meta": meta()})),
            id: "7",
            expect: Expect::Error(-32601, mcp_reference::dispatch::METHOD_NOT_FOUND.message),
        },
        Class {
            name: "missing_meta",
            title: "missing _meta",
            line: request(
                "8",
                "tools/call",
                json!({"name": "get_order", "arguments": {"order_id": "A-104"}}),
            ),
            id: "8",
            expect: Expect::Error(-32602, mcp_reference::meta::NO_META.message),
        },
        Class {
            name: "unsupported_version",
            title: "unsupported version",
            line: {
                let mut m = meta();
                m["io.modelcontextprotocol/protocolVersion"] = json!("2025-06-18");
                call_with_meta("9", m)
            },
            id: "9",
            expect: Expect::Error(-32022, mcp_reference::meta::UNSUPPORTED),
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
            id: "null",
            expect: Expect::Error(-32700, mcp_reference::envelope::PARSE_ERROR.message),
        },
        Class {
            name: "large_id",
            title: "large-integer id",
            line: call(huge_id, "get_order", json!({"order_id": "A-104"})),
            id: huge_id,
            expect: Expect::Result(success),
        },
        Class {
            name: "order_id_4k",
            title: "4 KiB order_id",
            line: call("12", "get_order", json!({"order_id": "X".repeat(4096)})),
            id: "12",
            expect: Expect::Result(forbidden),
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
pub fn server() -> Server {
    Server::new(Config::default())
}

impl Class {
    /// Answers the class's line once and checks the reply; `Err` says what
    /// is wrong. Also returns the reply, for callers that check more.
    pub fn check(&self, server: &Server) -> Result<Value, String> {
        let mut out = Vec::new();
        let disposition = server.respond_into(&self.line, &mut out);
        if disposition != Disposition::Replied {
            return Err(format!("{}: no reply ({disposition:?})", self.name));
        }
        self.check_reply(&out).map_err(|e| {
            format!(
                "{}: {e}\nreply: {}",
                self.name,
                String::from_utf8_lossy(&out)
            )
        })
    }

    fn check_reply(&self, out: &[u8]) -> Result<Value, String> {
        if out.last() != Some(&b'\n') || out.iter().filter(|&&b| b == b'\n').count() != 1 {
            return Err("not exactly one line".into());
        }
        // The id is compared as raw text: a 30-digit id must come back
        // digit for digit, which a parsed f64 would not show.
        let prefix = format!(r#"{{"jsonrpc":"2.0","id":{},"#, self.id);
        if !out.starts_with(prefix.as_bytes()) {
            return Err(format!("does not start with {prefix}"));
        }
        let reply: Value = serde_json::from_slice(out).map_err(|e| e.to_string())?;
        match &self.expect {
            Expect::Result(property) => {
                let result = reply.get("result").ok_or("not a result")?;
                if result["resultType"] != "complete" {
                    return Err("resultType is not complete".into());
                }
                if result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] != "book-orders" {
                    return Err("no serverInfo".into());
                }
                property(result)?;
            }
            Expect::Error(code, message) => {
                let error = reply.get("error").ok_or("not an error")?;
                if error["code"] != json!(code) || error["message"] != json!(message) {
                    return Err(format!("want {code} {message:?}"));
                }
                if *code == -32022
                    && (error["data"]["supported"] != json!(["2026-07-28"])
                        || error["data"]["requested"] != "2025-06-18")
                {
                    return Err("-32022 without the supported list and requested".into());
                }
            }
        }
        Ok(reply)
    }
}
