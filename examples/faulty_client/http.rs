//! The faulty client's Streamable HTTP side (`examples/faulty_client.rs`):
//! the headers a message gets from its body (2026-07-28
//! `basic/transports/streamable-http.mdx`, "Request Metadata":
//! `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`, with
//! "Value Encoding"'s Base64 sentinel form), and HTTP/1.1 written by hand
//! over `std::net::TcpStream`, one request per connection (`Connection:
//! close`), so that a fault in a request's head is exactly the bytes sent.

use std::io::{Read, Write};
use std::net::TcpStream;

use base64::Engine as _;
use serde_json::Value;

use super::{DEADLINE, Outgoing};

/// The headers the HTTP binding puts on a message (streamable-http.mdx,
/// "Request Metadata"), taken from its body: the version, the method, the
/// name of a call, read or get, and the tool's `x-mcp-header` arguments.
pub(super) fn http_headers(
    out: &Outgoing,
    session_version: &str,
    marked: &[(String, Vec<(String, String)>)],
) -> Vec<(String, String)> {
    let m = &out.message;
    let method = m.get("method").and_then(Value::as_str);
    let mut headers = vec![
        ("Accept".to_owned(), out.accept.to_owned()),
        ("Content-Type".to_owned(), "application/json".to_owned()),
    ];
    let version = m
        .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
        .and_then(Value::as_str);
    if let Some(version) = version {
        headers.push(("MCP-Protocol-Version".into(), version.into()));
    } else if method.is_some_and(|m| m.starts_with("notifications/")) {
        headers.push(("MCP-Protocol-Version".into(), session_version.into()));
    }
    if let Some(method) = method {
        headers.push(("Mcp-Method".into(), method.into()));
        let name = match method {
            "tools/call" | "prompts/get" => m.pointer("/params/name"),
            "resources/read" => m.pointer("/params/uri"),
            _ => None,
        };
        if let Some(name) = name.and_then(Value::as_str) {
            headers.push(("Mcp-Name".into(), encode(name)));
        }
        if method == "tools/call" {
            let tool = m.pointer("/params/name").and_then(Value::as_str);
            let args = m.pointer("/params/arguments");
            let tool_marks = marked.iter().find(|(t, _)| Some(t.as_str()) == tool);
            for (property, header) in tool_marks.map(|(_, h)| h.as_slice()).unwrap_or(&[]) {
                let value = match args.and_then(|a| a.get(property)) {
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(Value::Bool(b)) => Some(b.to_string()),
                    Some(Value::Number(n)) => Some(n.to_string()),
                    _ => None,
                };
                if let Some(value) = value {
                    headers.push((format!("Mcp-Param-{header}"), encode(&value)));
                }
            }
        }
    }
    headers.retain(|(name, _)| !out.without.iter().any(|w| w.eq_ignore_ascii_case(name)));
    headers
}

/// A header value as sent: as is when it is plain visible ASCII (spaces
/// inside), else in the Base64 sentinel form (`=?base64?...?=`), which a
/// plain value of that shape also gets.
fn encode(value: &str) -> String {
    let unsafe_byte = value.bytes().any(|b| !(0x20..=0x7e).contains(&b));
    let padded = value.starts_with(' ') || value.ends_with(' ');
    let sentinel = value.starts_with("=?base64?") && value.ends_with("?=");
    if !(unsafe_byte || padded || sentinel) {
        value.to_owned()
    } else {
        let encoded = base64::engine::general_purpose::STANDARD.encode(value.as_bytes());
        format!("=?base64?{encoded}?=")
    }
}

/// Sends one HTTP/1.1 request on a connection of its own.
pub(super) fn send_http(
    (authority, path): (&str, &str),
    out: &Outgoing,
    headers: &[(String, String)],
    body: &[u8],
) -> Result<TcpStream, String> {
    let mut stream =
        TcpStream::connect(authority).map_err(|e| format!("cannot connect to {authority}: {e}"))?;
    stream
        .set_read_timeout(Some(DEADLINE))
        .map_err(|e| e.to_string())?;
    let mut head = format!(
        "{} {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\nContent-Length: {}\r\n",
        out.verb,
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body))
        .map_err(|e| format!("cannot send to {authority}: {e}"))?;
    Ok(stream)
}

/// Reads the response to its end: its JSON-RPC response (the JSON body,
/// or the last response of an event stream), if any, and the progress
/// notifications the stream carried.
pub(super) fn read_http(
    stream: &mut TcpStream,
    authority: &str,
) -> Result<(Option<Value>, usize), String> {
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .map_err(|e| format!("no response from {authority}: {e}"))?;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("a response without a complete head")?;
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let mut body = raw[split + 4..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        body = dechunk(&body);
    }
    if head.contains("content-type: text/event-stream") {
        let text = String::from_utf8_lossy(&body).into_owned();
        let events: Vec<Value> = text
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter_map(|d| serde_json::from_str::<Value>(d).ok())
            .collect();
        let progress = events
            .iter()
            .filter(|v| v.get("method").and_then(Value::as_str) == Some("notifications/progress"))
            .count();
        let last = events.into_iter().rfind(|v| v.get("method").is_none());
        return Ok((last, progress));
    }
    if body.is_empty() {
        return Ok((None, 0));
    }
    serde_json::from_slice(&body)
        .map(|v| (Some(v), 0))
        .map_err(|e| format!("a response body that is not JSON: {e}"))
}

/// The body of a chunked response.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = raw.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&raw[..end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next().unwrap_or("").trim(), 16).ok())
            .unwrap_or(0);
        if size == 0 || raw.len() < end + 2 + size {
            break;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[(end + 4 + size).min(raw.len())..];
    }
    out
}
