//! Generators for the HTTP binding: configurations with `x-mcp-header`
//! parameters and HTTP settings, and HTTP requests around the stdio
//! generators' bodies, sent as a conforming client sends them (every
//! mirrored header, encoded by the client rules of
//! `basic/transports/streamable-http.mdx`, "Value Encoding") or broken in
//! one place: a header dropped, repeated, changed, mis-encoded; the path,
//! method, origin, host, content type or length; session headers added.
//!
//! What the binding must answer is never decided here: the model
//! ([`crate::model::http`]) does.

use mcp_reference::Config;
use proptest::prelude::*;
use proptest::sample::select;

use super::case;
use crate::http::{base64, conforming, is_mirrored};
use crate::model::http::{HttpRequest, Listen};

/// A configuration from [`super::config()`], often with `x-mcp-header`
/// parameters (`Order-Id`, `Product`, or another token) and sometimes with
/// another endpoint or explicit origins.
pub fn http_config() -> BoxedStrategy<Config> {
    let header = prop_oneof![
        3 => Just(None),
        4 => Just(Some("Order-Id".to_owned())),
        1 => "[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}".prop_map(Some),
    ];
    let stock_header = prop_oneof![2 => Just(None), 1 => Just(Some("Product".to_owned()))];
    let endpoint = prop_oneof![6 => Just(None), 1 => Just(Some("/api/mcp"))];
    let origins = prop_oneof![
        6 => Just(None),
        1 => Just(Some(vec!["https://app.example".to_owned()])),
    ];
    (super::config(), header, stock_header, endpoint, origins)
        .prop_filter_map("a valid configuration", |(c, h, s, e, o)| {
            let mut headers = std::collections::BTreeMap::new();
            if let Some(h) = h {
                headers.insert("get_order".to_owned(), [("order_id".to_owned(), h)].into());
            }
            if let Some(s) = s {
                headers.insert(
                    "lookup_stock".to_owned(),
                    [("product_id".to_owned(), s)].into(),
                );
            }
            let mut http = c.http().clone();
            if let Some(e) = e {
                http.endpoint = e.to_owned();
            }
            http.allowed_origins = o;
            c.with_param_headers(headers).ok()?.with_http(http).ok()
        })
        .boxed()
}

/// Where the generated server listens: mostly loopback port 8080.
pub fn listen() -> BoxedStrategy<Listen> {
    prop_oneof![
        6 => Just(Listen { port: 8080, loopback: true }),
        1 => Just(Listen { port: 80, loopback: true }),
        1 => Just(Listen { port: 8080, loopback: false }),
    ]
    .boxed()
}

/// One way to break a conforming request.
#[derive(Debug, Clone, Copy)]
enum Break {
    None,
    Drop,
    Repeat,
    Change,
    Control,
    Sentinel,
    BadSentinel,
    Case,
    Origin(bool),
    Host,
    NoHost,
    ContentType(&'static str),
    NoContentType,
    Method(&'static str),
    Path(&'static str),
    Length,
    Session,
    ExtraParam,
    ParamWithoutValue,
}

fn breaks() -> BoxedStrategy<Break> {
    prop_oneof![
        12 => Just(Break::None),
        4 => Just(Break::Drop),
        2 => Just(Break::Repeat),
        5 => Just(Break::Change),
        1 => Just(Break::Control),
        2 => Just(Break::Sentinel),
        2 => Just(Break::BadSentinel),
        2 => Just(Break::Case),
        2 => any::<bool>().prop_map(Break::Origin),
        1 => Just(Break::Host),
        1 => Just(Break::NoHost),
        2 => select(vec!["text/plain", "application/json; charset=utf-8", "APPLICATION/JSON", "application/json-seq"]).prop_map(Break::ContentType),
        1 => Just(Break::NoContentType),
        2 => select(vec!["GET", "DELETE", "PUT", "post"]).prop_map(Break::Method),
        2 => select(vec!["/", "/mcp/", "/mcp?x=1", "/MCP", "/api/mcp"]).prop_map(Break::Path),
        1 => Just(Break::Length),
        2 => Just(Break::Session),
        1 => Just(Break::ExtraParam),
        2 => Just(Break::ParamWithoutValue),
    ]
    .boxed()
}

fn apply(config: &Config, request: &mut HttpRequest, how: Break, pick: usize, extra: &str) {
    let mirrored: Vec<usize> = (0..request.headers.len())
        .filter(|&i| request.headers.get(i).is_some_and(|(n, _)| is_mirrored(n)))
        .collect();
    let target = if mirrored.is_empty() {
        None
    } else {
        mirrored.get(pick % mirrored.len()).copied()
    };
    match how {
        Break::None => {}
        Break::Drop => {
            if let Some(i) = target {
                request.headers.remove(i);
            }
        }
        Break::Repeat => {
            if let Some(h) = target.and_then(|i| request.headers.get(i).cloned()) {
                request.headers.push(h);
            }
        }
        Break::Change => {
            if let Some((_, v)) = target.and_then(|i| request.headers.get_mut(i)) {
                v.extend_from_slice(extra.as_bytes());
                if extra.is_empty() {
                    v.pop();
                }
            }
        }
        Break::Control => {
            if let Some((_, v)) = target.and_then(|i| request.headers.get_mut(i)) {
                v.push(0x01);
            }
        }
        Break::Sentinel => {
            if let Some((_, v)) = target.and_then(|i| request.headers.get_mut(i)) {
                let text = String::from_utf8_lossy(v).into_owned();
                *v = format!("=?base64?{}?=", base64(text.as_bytes())).into_bytes();
            }
        }
        Break::BadSentinel => {
            if let Some((_, v)) = target.and_then(|i| request.headers.get_mut(i)) {
                *v = b"=?base64?not*base64?=".to_vec();
            }
        }
        Break::Case => {
            for (n, _) in &mut request.headers {
                *n = if pick.is_multiple_of(2) {
                    n.to_ascii_lowercase()
                } else {
                    n.to_ascii_uppercase()
                };
            }
        }
        Break::Origin(allowed) => {
            let origin = if allowed {
                format!("http://localhost:{}", 8080)
            } else {
                "http://evil.example".to_owned()
            };
            request
                .headers
                .push(("Origin".to_owned(), origin.into_bytes()));
        }
        Break::Host => set(request, "Host", b"evil.example:8080"),
        Break::NoHost => request
            .headers
            .retain(|(n, _)| !n.eq_ignore_ascii_case("host")),
        Break::ContentType(t) => set(request, "Content-Type", t.as_bytes()),
        Break::NoContentType => request
            .headers
            .retain(|(n, _)| !n.eq_ignore_ascii_case("content-type")),
        Break::Method(m) => request.method = m.to_owned(),
        Break::Path(p) => request.target = p.to_owned(),
        Break::Length => {
            let n = if pick.is_multiple_of(2) {
                request.body.len().to_string()
            } else {
                (config.max_line_bytes() + 1).to_string()
            };
            request
                .headers
                .push(("Content-Length".to_owned(), n.into_bytes()));
        }
        Break::Session => {
            request
                .headers
                .push(("Mcp-Session-Id".to_owned(), b"abc".to_vec()));
            request
                .headers
                .push(("Last-Event-ID".to_owned(), b"7".to_vec()));
        }
        Break::ParamWithoutValue => {
            // A mirrored header the body gives no value for (an argument
            // that is null or absent, or no tools/call at all).
            let first = config
                .param_headers()
                .values()
                .flat_map(|p| p.values())
                .next();
            if let Some(header) = first {
                request
                    .headers
                    .push((format!("Mcp-Param-{header}"), b"A-104".to_vec()));
            }
        }
        Break::ExtraParam => {
            request
                .headers
                .push((format!("Mcp-Param-{extra}X"), b"A-104".to_vec()));
        }
    }
}

fn set(request: &mut HttpRequest, name: &str, value: &[u8]) {
    request
        .headers
        .retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    request.headers.push((name.to_owned(), value.to_vec()));
}

/// An HTTP request for `config`: a body from the stdio generators (or a
/// `get_order` call of one of the configuration's orders), a conforming
/// client's headers, then at most one break.
pub fn http_request(config: &Config, listen: Listen) -> BoxedStrategy<HttpRequest> {
    let c = config.clone();
    let ids: Vec<String> = config
        .orders()
        .iter()
        .map(|o| o.order_id.clone())
        .chain(["A-104".to_owned(), "Ω 7".to_owned()])
        .collect();
    let call = (select(ids), any::<u8>()).prop_map(|(id, n)| {
        let arg = match n % 8 {
            0 => "null".to_owned(),
            1 => "42".to_owned(),
            2 => "true".to_owned(),
            3 => "[1]".to_owned(),
            _ => serde_json::to_string(&id).unwrap_or_default(),
        };
        let args = if n % 9 == 0 { String::new() } else { format!(r#","arguments":{{"order_id":{arg}}}"#) };
        format!(
            r#"{{"jsonrpc":"2.0","id":{n},"method":"tools/call","params":{{"name":"get_order"{args},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
        )
        .into_bytes()
    });
    // H18: a call of a content tool that sends notifications, whose
    // `_meta` asks for them (progress and logs at debug), when the
    // configuration has one; else another `get_order` call.
    let notifying: Vec<String> = config
        .catalog()
        .content_tools
        .iter()
        .filter(|t| !t.progress.is_empty() || !t.log.is_empty())
        .map(|t| t.name.clone())
        .collect();
    let asks = (select(if notifying.is_empty() { vec!["get_order".to_owned()] } else { notifying }), any::<u8>())
        .prop_map(|(name, n)| {
            let name = serde_json::to_string(&name).unwrap_or_default();
            format!(
                r#"{{"jsonrpc":"2.0","id":{n},"method":"tools/call","params":{{"name":{name},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/logLevel":"debug","progressToken":{n}}}}}}}"#
            )
            .into_bytes()
        });
    let body = prop_oneof![
        6 => case(config).prop_map(|c| c.line),
        3 => call,
        1 => asks,
    ];
    (body, breaks(), any::<usize>(), "[a-zA-Z0-9]{0,3}")
        .prop_map(move |(body, how, pick, extra)| {
            let endpoint = c.http().endpoint.clone();
            let mut request = HttpRequest {
                method: "POST".to_owned(),
                target: endpoint,
                headers: conforming(&c, listen, &body),
                body,
            };
            apply(&c, &mut request, how, pick, &extra);
            request
        })
        .boxed()
}

/// A configuration, where it listens, and one request for it.
pub fn http_scenario() -> impl Strategy<Value = (Config, Listen, HttpRequest)> {
    (http_config(), listen()).prop_flat_map(|(c, l)| {
        let request = http_request(&c, l);
        (Just(c), Just(l), request)
    })
}
