//! The `http_auth` fuzz target's check: one `tools/call get_order A-104`
//! (or a metadata request) with arbitrary credentials, through the
//! binding of the textbook configuration with authorization on, judged by
//! [`crate::http_auth::AuthChecker`] (the model's status, challenge and
//! body; no tool unless the model allows one; no part of a token in the
//! response), then answered again for the same bytes (determinism).
//!
//! The input, byte by byte (every choice is taken modulo its list, so any
//! input decodes):
//!
//! | bytes | what |
//! | --- | --- |
//! | 1 | the time: the test issuer's `NOW`, 320 s later, 3,590 s earlier, a day later |
//! | 1 | the credentials: none; the rest as the `Authorization` value; `Bearer ` and the rest; a valid token; a token changed in one place; two headers with a valid token; a valid token in the query string and the rest as the header; a metadata `GET` with the rest as the header |
//! | 1 | the user (`mira`, `tomas`, `client-7`, `eve`), or for a changed token the change |
//! | 1 | how many byte edits of the token follow (0 to 7) |
//! | 3 each | an edit: a position (2 bytes, little-endian, modulo the token's length) and the byte put there |
//! | the rest | raw header bytes, where the credentials use them |

use std::sync::OnceLock;

use mcp_reference::Config;

use crate::http::conforming;
use crate::http_auth::AuthChecker;
use crate::issuer::{CHANGES, Change, LISTEN, NOW, issuer, settings, with_auth};
use crate::model::http::HttpRequest;

const USERS: &[&str] = &["mira", "tomas", "client-7", "eve"];

fn checker() -> &'static (Config, AuthChecker) {
    static CHECKER: OnceLock<(Config, AuthChecker)> = OnceLock::new();
    CHECKER.get_or_init(|| {
        let config = with_auth(Config::default(), settings(issuer().jwks()));
        let checker = AuthChecker::new(&config, LISTEN, issuer().jwks());
        (config, checker)
    })
}

/// Decodes the input (see the module table) into the time and the request.
pub fn http_auth_input(data: &[u8]) -> (u64, HttpRequest) {
    let byte = |i: usize| usize::from(data.get(i).copied().unwrap_or(0));
    let now = [NOW, NOW + 320, NOW - 3590, NOW + 86_400][byte(0) % 4];
    let kind = byte(1) % 8;
    let user = USERS[byte(2) % USERS.len()];
    let edits = byte(3) % 8;
    let mut at = 4;
    let mut token = match kind {
        4 => {
            let change = match CHANGES[byte(2) % CHANGES.len()] {
                Change::SignatureByte(_) => {
                    Change::SignatureByte(data.get(2).copied().unwrap_or(0))
                }
                c => c,
            };
            issuer().changed(user, change)
        }
        _ => issuer().token(user, "orders:read", byte(2) % 2 == 1),
    }
    .into_bytes();
    for _ in 0..edits {
        if data.len() < at + 3 {
            break;
        }
        let position = byte(at) | (byte(at + 1) << 8);
        let n = token.len().max(1);
        if let Some(b) = token.get_mut(position % n) {
            *b = data.get(at + 2).copied().unwrap_or(0);
        }
        at += 3;
    }
    let token = String::from_utf8_lossy(&token).into_owned();
    let rest = data.get(at..).unwrap_or_default().to_vec();
    let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_order","arguments":{"order_id":"A-104"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#.to_vec();
    let (config, _) = checker();
    let mut request = HttpRequest {
        method: "POST".to_owned(),
        target: "/mcp".to_owned(),
        headers: conforming(config, LISTEN, &body),
        body,
    };
    let mut add = |value: Vec<u8>| request.headers.push(("Authorization".to_owned(), value));
    match kind {
        0 => {}
        1 => add(rest),
        2 => add([b"Bearer ".as_slice(), &rest].concat()),
        3 | 4 => add(format!("Bearer {token}").into_bytes()),
        5 => {
            add(format!("Bearer {token}").into_bytes());
            add(format!("Bearer {token}").into_bytes());
        }
        6 => {
            add(rest);
            request.target = format!("/mcp?access_token={token}");
        }
        _ => {
            add(rest);
            request.method = "GET".to_owned();
            request.target = "/.well-known/oauth-protected-resource/mcp".to_owned();
        }
    }
    (now, request)
}

/// The target.
pub fn http_auth(data: &[u8]) {
    let (now, request) = http_auth_input(data);
    let (_, checker) = checker();
    let (_, response) = match checker.check(now, &request) {
        Ok(outcome) => outcome,
        Err(e) => panic!("[http_auth] {e}; request {request:?}"),
    };
    let (_, again) = checker
        .check(now, &request)
        .unwrap_or_else(|e| panic!("[http_auth] second answer: {e}"));
    assert!(
        again == response,
        "[http_auth] the same request gave two responses; request {request:?}"
    );
}
