//! The faulty client's Streamable HTTP side (`examples/faulty_client.rs`):
//! the headers a message gets from its body (2026-07-28
//! `basic/transports/streamable-http.mdx`, "Request Metadata":
//! `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`, with
//! "Value Encoding"'s Base64 sentinel form), and HTTP/1.1 written by hand
//! over `std::net::TcpStream`, one request per connection (`Connection:
//! close`), so that a fault in a request's head is exactly the bytes sent.

#[path = "../../tests/support/chunked.rs"]
mod chunked;
use chunked::dechunk;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;

use serde_json::Value;

use super::{DEADLINE, Outgoing};

/// The headers the HTTP binding puts on a message (streamable-http.mdx,
/// "Request Metadata"), taken from its body: the version, the method, the
/// name of a call, read or get, and the tool's `x-mcp-header` arguments
/// (`marked`, learnt from `tools/list`), as the test kit's model of a
/// conforming client mirrors them (`mcp_reference_testkit::http::mirrored`;
/// this fixture states no encoding rule of its own). A notification names
/// no version in its body: it gets the session's.
pub(super) fn http_headers(
    out: &Outgoing,
    session_version: &str,
    marked: &BTreeMap<String, BTreeMap<String, String>>,
) -> Vec<(String, String)> {
    let m = &out.message;
    let mut headers = vec![
        ("Accept".to_owned(), out.accept.to_owned()),
        ("Content-Type".to_owned(), "application/json".to_owned()),
    ];
    let body = serde_json::to_vec(m).unwrap_or_default();
    let mirrored = mcp_reference_testkit::http::mirrored(&body, marked);
    let notification = m
        .get("method")
        .and_then(Value::as_str)
        .is_some_and(|m| m.starts_with("notifications/"));
    if notification && !mirrored.iter().any(|(n, _)| n == "MCP-Protocol-Version") {
        headers.push(("MCP-Protocol-Version".into(), session_version.into()));
    }
    headers.extend(
        mirrored
            .into_iter()
            .map(|(name, value)| (name, String::from_utf8_lossy(&value).into_owned())),
    );
    headers.retain(|(name, _)| !out.without.iter().any(|w| w.eq_ignore_ascii_case(name)));
    headers
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
