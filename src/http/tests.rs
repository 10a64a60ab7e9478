//! Unit tests of the binding's own steps; the rows as a whole are held
//! against the model in tests/http.rs.

use super::*;
use crate::Config;

const BODY: &[u8] = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_order","arguments":{"order_id":"A-104"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

fn binding() -> Binding {
    Binding::new(
        Server::new(Config::default()),
        Bound {
            port: 8080,
            loopback: true,
        },
    )
}

fn post<'a>(headers: &'a [(&'a str, &'a [u8])], body: &'a [u8]) -> Request<'a> {
    Request {
        method: "POST",
        target: "/mcp",
        headers,
        body,
    }
}

const GOOD: &[(&str, &[u8])] = &[
    ("host", b"127.0.0.1:8080"),
    ("content-type", b"application/json"),
    ("mcp-protocol-version", b"2026-07-28"),
    ("mcp-method", b"tools/call"),
    ("mcp-name", b"get_order"),
];

#[test]
fn the_body_is_the_stdio_line_without_its_newline() {
    let b = binding();
    let response = b.respond(&post(GOOD, BODY));
    let line = b.server().respond(BODY).unwrap_or_default();
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("application/json"));
    assert_eq!([response.body.as_slice(), b"\n"].concat(), line);
}

#[test]
fn content_type_accepts_case_and_parameters_only() {
    for ok in [
        &b"application/json"[..],
        b"Application/JSON; charset=utf-8",
        b" application/json ",
    ] {
        assert!(is_json(ok), "{ok:?}");
    }
    for bad in [
        &b"text/json"[..],
        b"application/json-seq",
        b"",
        b"application/jsonx; a=b",
    ] {
        assert!(!is_json(bad), "{bad:?}");
    }
}

#[test]
fn numbers_compare_as_json_literals() {
    let n = |s: &str| super::headers::tests_number(s);
    assert_eq!(n("42"), Some(42.0));
    assert_eq!(n("-7"), Some(-7.0));
    assert_eq!(n("42.0"), Some(42.0));
    assert_eq!(n("4.2e1"), Some(42.0));
    for bad in [
        "+42", "0x2a", " 42", "042", "42.", ".5", "1e", "NaN", "inf", "",
    ] {
        assert_eq!(n(bad), None, "{bad:?}");
    }
}

#[test]
fn shown_values_are_escaped_and_cut() {
    assert_eq!(
        super::headers::shown("a'b\\c\nd"),
        "a\\u{27}b\\u{5c}c\\u{a}d"
    );
    let long = "x".repeat(100);
    assert_eq!(
        super::headers::shown(&long),
        format!("{}...", "x".repeat(64))
    );
}

/// H6 at its bound: a declared `Content-Length` of exactly
/// `max_line_bytes` is read, one more is 413 unread (as is a value that is
/// no decimal number).
#[test]
fn a_declared_length_at_the_limit_is_read_and_one_more_is_not() {
    let b = binding();
    let limit = b.server().config().max_line_bytes();
    let at = limit.to_string();
    let over = (limit + 1).to_string();
    let with = |length: &str| -> Vec<(&str, Vec<u8>)> {
        let mut headers: Vec<(&str, Vec<u8>)> =
            GOOD.iter().map(|(n, v)| (*n, v.to_vec())).collect();
        headers.push(("content-length", length.as_bytes().to_vec()));
        headers
    };
    let status = |length: &str| {
        let owned = with(length);
        let headers: Vec<(&str, &[u8])> = owned.iter().map(|(n, v)| (*n, v.as_slice())).collect();
        b.head(&post(&headers, b""), &NO_TRUST)
            .err()
            .map(|r| r.status)
    };
    assert_eq!(status(&at), None);
    assert_eq!(status(&format!(" {at}\t")), None);
    assert_eq!(status(&over), Some(413));
    assert_eq!(status("12x"), Some(413));
}
