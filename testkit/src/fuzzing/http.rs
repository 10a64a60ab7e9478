//! The `http` fuzz target's check: one HTTP request, built from the input
//! bytes, through the binding of one of four fixtures, judged by
//! [`crate::http::HttpChecker`] (the model's status, headers and body; the
//! tools run; noninterference; the stdio invariants on a body the core
//! answered), then answered again for the same bytes (determinism).
//!
//! The input, byte by byte (every choice is taken modulo its list, so any
//! input decodes):
//!
//! | bytes | what |
//! | --- | --- |
//! | 1 | the fixture: the textbook, the textbook with `get_order`'s `order_id` mirrored as `Order-Id`, both tools with both parameters mirrored, the example configuration with the whole catalog (resources, prompts, completion: `Mcp-Name` of `resources/read` and `prompts/get`, row H12) |
//! | 1 | flags: bit 0 starts from the headers a conforming client sends for the body; bit 1 listens on a non-loopback address |
//! | 1 | the method (`POST`, `GET`, `DELETE`, `PUT`, `post`, `OPTIONS`) |
//! | 1 | the target (`/mcp`, `/`, `/mcp?x`, `/mcp/`, `/MCP`) |
//! | 1 | how many header edits follow (0 to 7) |
//! | 3 + n each | an edit: an operation (add, replace the value of the nth, remove the nth), a header name from a list of the ones that matter (or `X-Other`), a value length n (0 to 31), then n value bytes |
//! | the rest | the body |

use std::sync::OnceLock;

use mcp_reference::Config;

use crate::http::{HttpChecker, as_request, conforming};
use crate::model::http::{HttpRequest, Listen};

const METHODS: &[&str] = &["POST", "GET", "DELETE", "PUT", "post", "OPTIONS"];
const TARGETS: &[&str] = &["/mcp", "/", "/mcp?x", "/mcp/", "/MCP"];
const NAMES: &[&str] = &[
    "Host",
    "Content-Type",
    "MCP-Protocol-Version",
    "Mcp-Method",
    "Mcp-Name",
    "Mcp-Param-Order-Id",
    "Mcp-Param-Product",
    "Origin",
    "Content-Length",
    "Mcp-Session-Id",
    "mcp-protocol-version",
    "X-Other",
];

fn fixture_configs() -> Vec<Config> {
    let textbook = Config::default();
    let mirrored = |c: Config, pairs: &[(&str, &str, &str)]| {
        let mut headers = std::collections::BTreeMap::new();
        for (tool, param, header) in pairs {
            headers
                .entry(tool.to_string())
                .or_insert_with(std::collections::BTreeMap::new)
                .insert(param.to_string(), header.to_string());
        }
        c.with_param_headers(headers).unwrap_or_default()
    };
    let with_stock = Config::from_json(
        br#"{"stock":[{"product_id":"python-book","stock":3},{"product_id":"rust-book","stock":0}]}"#,
    )
    .unwrap_or_default();
    vec![
        textbook.clone(),
        mirrored(textbook, &[("get_order", "order_id", "Order-Id")]),
        mirrored(
            with_stock,
            &[
                ("get_order", "order_id", "Order-Id"),
                ("lookup_stock", "product_id", "Product"),
            ],
        ),
        // Resources, prompts and completion (issue 32).
        Config::from_json(include_bytes!("../../../data/config.example.json"))
            .unwrap_or_else(|e| panic!("the http fuzz target's catalog fixture is invalid: {e}")),
    ]
}

/// The checkers, one per (fixture, loopback or not), built once.
fn checkers() -> &'static [(Config, [HttpChecker; 2])] {
    static CHECKERS: OnceLock<Vec<(Config, [HttpChecker; 2])>> = OnceLock::new();
    CHECKERS.get_or_init(|| {
        fixture_configs()
            .into_iter()
            .map(|c| {
                let pair = [
                    HttpChecker::new(
                        &c,
                        Listen {
                            port: 8080,
                            loopback: true,
                        },
                    ),
                    HttpChecker::new(
                        &c,
                        Listen {
                            port: 8080,
                            loopback: false,
                        },
                    ),
                ];
                (c, pair)
            })
            .collect()
    })
}

fn pick<'a>(list: &[&'a str], byte: Option<&u8>) -> &'a str {
    let i = usize::from(byte.copied().unwrap_or(0)) % list.len().max(1);
    list.get(i).copied().unwrap_or_default()
}

/// Decodes the input (see the module table) into a fixture index, whether
/// it listens on loopback, and the request.
pub fn http_input(data: &[u8]) -> (usize, bool, HttpRequest) {
    let byte = |i: usize| data.get(i);
    let fixture = usize::from(byte(0).copied().unwrap_or(0)) % fixture_configs_len();
    let flags = byte(1).copied().unwrap_or(0);
    let loopback = flags & 2 == 0;
    let edits = usize::from(byte(4).copied().unwrap_or(0) % 8);
    let mut at = 5;
    let mut ops = Vec::new();
    for _ in 0..edits {
        let (Some(&op), Some(&name), Some(&len)) = (byte(at), byte(at + 1), byte(at + 2)) else {
            break;
        };
        let len = usize::from(len % 32);
        let start = (at + 3).min(data.len());
        let end = (start + len).min(data.len());
        ops.push((
            op,
            pick(NAMES, Some(&name)),
            data.get(start..end).unwrap_or_default().to_vec(),
        ));
        at = end;
    }
    let body = data.get(at.min(data.len())..).unwrap_or_default().to_vec();
    let config = checkers()
        .get(fixture)
        .map(|(c, _)| c.clone())
        .unwrap_or_default();
    let listen = Listen {
        port: 8080,
        loopback,
    };
    let headers = if flags & 1 == 1 {
        conforming(&config, listen, &body)
    } else {
        Vec::new()
    };
    let mut request = HttpRequest {
        method: pick(METHODS, byte(2)).to_owned(),
        target: pick(TARGETS, byte(3)).to_owned(),
        headers,
        body,
    };
    for (op, name, value) in ops {
        let n = request.headers.len();
        match op % 3 {
            0 => request.headers.push((name.to_owned(), value)),
            1 if n > 0 => {
                if let Some(h) = request.headers.get_mut(usize::from(op) % n) {
                    h.1 = value;
                }
            }
            2 if n > 0 => {
                request.headers.remove(usize::from(op) % n);
            }
            _ => {}
        }
    }
    (fixture, loopback, request)
}

fn fixture_configs_len() -> usize {
    checkers().len()
}

/// `http`: one request through the binding, checked.
pub fn http(data: &[u8]) {
    let (fixture, loopback, request) = http_input(data);
    let Some((_, pair)) = checkers().get(fixture) else {
        return;
    };
    let checker = &pair[usize::from(!loopback)];
    let (_, response) = match checker.check(&request) {
        Ok(outcome) => outcome,
        Err(e) => panic!("[http fixture {fixture}] {e}; request {request:?}"),
    };
    let headers: Vec<(&str, &[u8])> = request
        .headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_slice()))
        .collect();
    let again = checker.binding().respond(&as_request(&request, &headers));
    assert!(
        again == response,
        "[http fixture {fixture}] the same request gave two responses; request {request:?}"
    );
}
