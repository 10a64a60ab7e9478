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

/// A loopback authorization server of the test's own: its RFC 8414
/// metadata and its key set, which the test can replace (a rotation);
/// counts the key-set fetches.
struct MiniIssuer {
    url: String,
    jwks: std::sync::Arc<std::sync::Mutex<String>>,
    fetches: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl MiniIssuer {
    fn start(jwks: &serde_json::Value) -> MiniIssuer {
        use std::io::{BufRead, Write as _};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let keys = std::sync::Arc::new(std::sync::Mutex::new(jwks.to_string()));
        let fetches = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (k, f, u) = (keys.clone(), fetches.clone(), url.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let mut reader = std::io::BufReader::new(&stream);
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() {
                    continue;
                }
                let mut header = String::new();
                while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
                    header.clear();
                }
                let path = line.split(' ').nth(1).unwrap_or_default().to_owned();
                let (status, body) = match path.as_str() {
                    "/.well-known/oauth-authorization-server" => (
                        "200 OK",
                        serde_json::json!({"issuer": u, "jwks_uri": format!("{u}/jwks")})
                            .to_string(),
                    ),
                    "/jwks" => {
                        f.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        ("200 OK", k.lock().unwrap().clone())
                    }
                    _ => ("404 Not Found", String::new()),
                };
                let mut out = &stream;
                let _ = write!(
                    out,
                    "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        MiniIssuer {
            url,
            jwks: keys,
            fetches,
        }
    }
}

/// Without `jwks` the server fetches the issuer's metadata and keys at
/// start; after the issuer rotates its keys, a token signed with the new
/// key (an unknown `kid`) makes it fetch them again, and is accepted.
#[test]
fn keys_are_fetched_from_the_issuer_and_refetched_after_a_rotation() {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let (before, after) = (Issuer::new(1), Issuer::new(2));
    let issuer = MiniIssuer::start(before.jwks());
    let mut s = settings(before.jwks());
    s.jwks = None;
    s.issuer = issuer.url.clone();
    let config = with_auth(Config::default(), s);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("http-auth-fetched.json");
    std::fs::write(&path, config.to_json()).unwrap();
    let server = Server::start(&["--config", path.to_str().unwrap()]);
    assert_eq!(issuer.fetches.load(std::sync::atomic::Ordering::SeqCst), 1);
    let mint = |by: &Issuer, kid: &str| {
        let mut claims = mcp_reference_testkit::issuer::claims("mira", "orders:read");
        claims["iss"] = issuer.url.clone().into();
        claims["iat"] = now.into();
        claims["exp"] = (now + 600).into();
        let header = serde_json::json!({"typ": "at+jwt", "alg": "ES256", "kid": kid});
        by.mint(&header, &claims)
    };
    let stream = server.connect();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    let mut call = |token: &str| {
        writer
            .write_all(&request(&server.addr, "POST", "/mcp", Some(token), "A-104"))
            .unwrap();
        read_reply(&mut reader).status
    };
    assert_eq!(call(&mint(&before, "ec1")), 200);
    *issuer.jwks.lock().unwrap() = after.jwks().to_string();
    assert_eq!(call(&mint(&after, "ec2")), 200);
    assert_eq!(issuer.fetches.load(std::sync::atomic::Ordering::SeqCst), 2);
    let (code, _) = server.terminate();
    assert_eq!(code, Some(0));
}
