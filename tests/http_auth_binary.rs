//! `mcp-reference serve --http` with `http.authorization` as a real
//! process (rows A1 to A9 are the binding's, tested against the model in
//! `tests/http_auth.rs`; here: what the driver adds): the keys from the
//! configuration, the clock, the `WWW-Authenticate` header on the wire,
//! and row A8 for the log: with `--log-level debug`, no part of any token
//! (in the header or in the query string) is ever on stderr.

use std::io::{BufReader, Write};

use mcp_reference::Config;
use mcp_reference_testkit::issuer::{Issuer, settings, with_auth};

#[path = "support/http_server.rs"]
mod http_server;
use http_server::{Server, read_reply};

fn request(addr: &str, method: &str, target: &str, token: Option<&str>, order: &str) -> Vec<u8> {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"get_order","arguments":{{"order_id":"{order}"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
    );
    let body = if method == "POST" {
        body
    } else {
        String::new()
    };
    let mut out = format!(
        "{method} {target} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: get_order\r\n",
        body.len()
    );
    if let Some(token) = token {
        out.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    out.push_str("\r\n");
    out.push_str(&body);
    out.into_bytes()
}

#[test]
fn tokens_choose_the_user_and_never_reach_the_log() {
    // Tokens valid for a while from now: the driver reads the real clock.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let issuer = Issuer::default();
    let mint = |sub: &str| {
        let mut claims = mcp_reference_testkit::issuer::claims(sub, "orders:read");
        claims["iat"] = now.into();
        claims["exp"] = (now + 600).into();
        issuer.mint(&mcp_reference_testkit::issuer::header(), &claims)
    };
    let config = with_auth(Config::default(), settings(issuer.jwks()));
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("http-auth-binary.json");
    std::fs::write(&path, config.to_json()).unwrap();
    let server = Server::start(&["--config", path.to_str().unwrap(), "--log-level", "debug"]);
    let stream = server.connect();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    let mut exchange = |method: &str, target: &str, token: Option<&str>, order: &str| {
        writer
            .write_all(&request(&server.addr, method, target, token, order))
            .unwrap();
        read_reply(&mut reader)
    };
    let (mira, tomas) = (mint("mira"), mint("tomas"));
    // Twice: the second from the driver's cache of verified tokens.
    for _ in 0..2 {
        let got = exchange("POST", "/mcp", Some(&mira), "A-104");
        assert_eq!(got.status, 200);
        assert!(String::from_utf8_lossy(&got.body).contains("processing"));
    }
    // The same token with one signature byte changed is another token.
    let mut forged = mira.clone().into_bytes();
    let last = forged.len() - 2;
    forged[last] = if forged[last] == b'A' { b'B' } else { b'A' };
    let forged = String::from_utf8(forged).unwrap();
    assert_eq!(exchange("POST", "/mcp", Some(&forged), "A-104").status, 401);
    let got = exchange("POST", "/mcp", Some(&tomas), "A-104");
    assert!(String::from_utf8_lossy(&got.body).contains("forbidden"));
    let got = exchange("POST", "/mcp", Some(&tomas), "B-205");
    assert!(String::from_utf8_lossy(&got.body).contains("shipped"));
    let got = exchange("POST", "/mcp", None, "A-104");
    assert_eq!(got.status, 401);
    let challenge = got
        .header("www-authenticate")
        .unwrap_or_default()
        .to_owned();
    assert!(
        challenge.starts_with("Bearer scope=\"orders:read\", resource_metadata=\""),
        "{challenge}"
    );
    let query = format!("/mcp?access_token={mira}");
    let got = exchange("POST", &query, None, "A-104");
    assert_eq!(
        (got.status, got.header("www-authenticate")),
        (401, Some(challenge.as_str()))
    );
    let got = exchange("GET", "/.well-known/oauth-protected-resource/mcp", None, "");
    assert_eq!(got.status, 200);
    let doc: serde_json::Value = serde_json::from_slice(&got.body).unwrap();
    assert_eq!(
        doc["authorization_servers"][0],
        mcp_reference_testkit::issuer::ISSUER
    );
    let (code, log) = server.terminate();
    assert_eq!(code, Some(0));
    assert!(log.lines().count() >= 8, "one line per request: {log}");
    for token in [&mira, &tomas, &forged] {
        let signature = token.rsplit('.').next().unwrap();
        assert!(!log.contains(signature), "a token in the log: {log}");
    }
    assert!(!log.contains("access_token"), "{log}");
}
