//! The authorization vectors, `vectors/http-auth.jsonl` (docs/vectors.md,
//! "Authorization vectors"; issue 39, item 11; A2 and A8 issue 46): rows A1 to A8 as HTTP
//! exchanges any OAuth-protected resource server can replay, for the
//! `http-auth` fixture (`vectors/configs/http-auth.json`: the `http`
//! fixture with `http.authorization` and a fixed JWK Set, the test
//! issuer's). The tokens are fixed too, and need no clock: the valid ones
//! expire in 2100, the expired one in 2000. Each exchange is answered by
//! the binding at a time between (2027) and checked against the model
//! (`AuthChecker`); level and source come from the row registry, or from
//! the statement a vector holds (`AUTH-05`, `AUTH-20`: SHOULDs). The
//! committed files must be what this generates; `MCP_UPDATE_VECTORS=1`
//! rewrites them.

use std::collections::BTreeMap;
use std::path::Path;

use mcp_reference::Config;
use mcp_reference_testkit::http::conforming;
use mcp_reference_testkit::http_auth::AuthChecker;
use mcp_reference_testkit::issuer::{LISTEN, NOW, RESOURCE, issuer, settings, with_auth};
use mcp_reference_testkit::model::http::HttpRequest;
use mcp_reference_testkit::model::rows;
use serde_json::{Value, json};

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
/// 2100-01-01T00:00:00Z: the valid tokens' `exp`.
const LATE: u64 = 4_102_444_800;
/// 2000-01-01T00:00:00Z: the expired token's `exp`.
const EARLY: u64 = 946_684_800;

/// The `http` fixture with authorization: the test issuer's keys fixed
/// in the configuration, `client-7` mapped to tomas.
fn config() -> Config {
    let http = Config::from_json(include_bytes!("../vectors/configs/http.json")).unwrap();
    with_auth(http, settings(issuer().jwks()))
}

fn call(id: u32, order: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"get_order","arguments":{{"order_id":"{order}"}},{META}}}}}"#
    )
}

/// A token for `sub`, ES256 with `ec1`, valid until 2100, with `scope`;
/// `change` edits its claims.
fn token(sub: &str, scope: &str, change: impl Fn(&mut Value)) -> String {
    let mut claims = mcp_reference_testkit::issuer::claims(sub, scope);
    claims["iat"] = json!(1_767_225_600u64);
    claims["exp"] = json!(LATE);
    change(&mut claims);
    issuer().mint(&mcp_reference_testkit::issuer::header(), &claims)
}

/// A token with the header `alg: none` and no signature.
fn unsigned(sub: &str) -> String {
    use base64::Engine as _;
    let b64 = |v: &Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
    let mut claims = mcp_reference_testkit::issuer::claims(sub, "orders:read");
    claims["exp"] = json!(LATE);
    format!(
        "{}.{}.",
        b64(&json!({"typ": "at+jwt", "alg": "none"})),
        b64(&claims)
    )
}

/// One case: name (row first), comment, request body, its change, the
/// token(s) sent, and the level and source when the vector holds another
/// statement than its row's.
struct Case {
    name: &'static str,
    comment: &'static str,
    body: String,
    change: fn(&mut HttpRequest),
    tokens: Vec<String>,
    statement: Option<(&'static str, &'static str)>,
    /// What the level requires of the challenge, if anything.
    challenge: Option<Value>,
}

fn case(name: &'static str, comment: &'static str, body: String, tokens: Vec<String>) -> Case {
    Case {
        name,
        comment,
        body,
        change: |_| {},
        tokens,
        statement: None,
        challenge: None,
    }
}

fn cases() -> Vec<Case> {
    let mira = token("mira", "orders:read", |_| {});
    let tomas = token("tomas", "orders:read", |_| {});
    let client = token("client-7", "orders:read", |_| {});
    let expired = token("mira", "orders:read", |c| {
        c["iat"] = json!(EARLY - 600);
        c["exp"] = json!(EARLY);
    });
    let no_aud = token("mira", "orders:read", |c| {
        c.as_object_mut().map(|o| o.remove("aud"));
    });
    let other_aud = token("mira", "orders:read", |c| {
        c["aud"] = json!("http://127.0.0.1:8080/other");
    });
    let no_scope = token("mira", "openid", |_| {});
    vec![
        Case {
            change: |r| {
                r.method = "GET".into();
                r.target = "/.well-known/oauth-protected-resource/mcp".into();
                r.headers.retain(|(n, _)| n == "Host");
                r.body.clear();
            },
            ..case(
                "A1-metadata",
                "GET at the path-inserted well-known URL: 200, the Protected Resource Metadata, no token needed",
                String::new(),
                vec![],
            )
        },
        Case {
            change: |r| {
                r.method = "GET".into();
                r.target = "/.well-known/oauth-protected-resource".into();
                r.headers.retain(|(n, _)| n == "Host");
                r.body.clear();
            },
            ..case(
                "A1-metadata-root",
                "GET at the root well-known URL: 200, the same document",
                String::new(),
                vec![],
            )
        },
        Case {
            change: |r| {
                r.target = "/.well-known/oauth-protected-resource/mcp".into();
            },
            ..case(
                "A2-post-metadata",
                "POST at the path-inserted well-known URL: 405 with allow: GET, HEAD, no body",
                call(1, "A-104"),
                vec![],
            )
        },
        Case {
            change: |r| {
                r.method = "DELETE".into();
                r.target = "/.well-known/oauth-protected-resource".into();
                r.headers.retain(|(n, _)| n == "Host");
                r.body.clear();
            },
            ..case(
                "A2-delete-root",
                "DELETE at the root well-known URL: 405 with allow: GET, HEAD, no body",
                String::new(),
                vec![],
            )
        },
        Case {
            challenge: Some(json!({"resource_metadata": true})),
            ..case(
                "A3-no-token",
                "tools/call without a token: 401, a Bearer challenge with resource_metadata; nothing runs",
                call(1, "A-104"),
                vec![],
            )
        },
        Case {
            challenge: Some(json!({"error": null})),
            statement: Some(("should", "AUTH-20")),
            ..case(
                "A3-no-error",
                "without a token the challenge carries no error code (RFC 6750 section 3.1)",
                call(1, "A-104"),
                vec![],
            )
        },
        Case {
            challenge: Some(json!({"scope": true})),
            statement: Some(("should", "AUTH-05")),
            ..case(
                "A3-scope",
                "the challenge names the scopes needed",
                call(1, "A-104"),
                vec![],
            )
        },
        Case {
            change: |r| {
                let auth = r.headers.iter().position(|(n, _)| n == "Authorization");
                if let Some(at) = auth {
                    let (_, value) = r.headers.remove(at);
                    let token = String::from_utf8_lossy(&value)
                        .trim_start_matches("Bearer ")
                        .to_owned();
                    r.target = format!("/mcp?access_token={token}");
                }
            },
            ..case(
                "A3-query-token",
                "a token in the query string is no token: 401",
                call(1, "A-104"),
                vec![mira.clone()],
            )
        },
        case(
            "A4-two-headers",
            "two Authorization headers: 400",
            call(1, "A-104"),
            vec![mira.clone(), mira.clone()],
        ),
        Case {
            challenge: Some(json!({"error": "invalid_token"})),
            ..case(
                "A5-expired",
                "a token that expired in 2000: 401 invalid_token; nothing runs",
                call(1, "A-104"),
                vec![expired],
            )
        },
        case(
            "A5-no-aud",
            "a token without aud: 401; nothing runs",
            call(1, "A-104"),
            vec![no_aud],
        ),
        case(
            "A5-other-aud",
            "a token for another resource: 401; nothing runs",
            call(1, "A-104"),
            vec![other_aud],
        ),
        case(
            "A5-alg-none",
            "an unsigned token (alg none): 401; nothing runs",
            call(1, "A-104"),
            vec![unsigned("mira")],
        ),
        Case {
            challenge: Some(json!({"error": "insufficient_scope"})),
            ..case(
                "A6-no-scope",
                "a valid token without orders:read: 403 insufficient_scope; nothing runs",
                call(1, "A-104"),
                vec![no_scope],
            )
        },
        case(
            "A7-mira",
            "mira's token reads mira's A-104",
            call(3, "A-104"),
            vec![mira.clone()],
        ),
        case(
            "A7-mira-forbidden",
            "mira's token reads B-205 as an order that does not exist",
            call(4, "B-205"),
            vec![mira.clone()],
        ),
        case(
            "A7-tomas",
            "tomas's token reads tomas's B-205",
            call(5, "B-205"),
            vec![tomas],
        ),
        case(
            "A7-client-mapped",
            "the client-7 token, mapped to tomas by users, reads B-205",
            call(6, "B-205"),
            vec![client],
        ),
        // A8: the token sent must not come back, in the places a server
        // that reports a token's fault would put it (the challenge's
        // `error_description`, a 400 for a malformed header) or in a
        // JSON-RPC error answered to an admitted token. Its status and
        // challenge are those of the row that decides (A5, A4, A7).
        case(
            "A8-bad-signature",
            "mira's token with one byte of its signature changed: 401 invalid_token, and no part of the token in the response",
            call(1, "A-104"),
            vec![resigned(&mira)],
        ),
        case(
            "A8-two-tokens",
            "two Authorization headers with two tokens: 400, and neither token in the response",
            call(1, "A-104"),
            vec![mira.clone(), token("tomas", "orders:read", |_| {})],
        ),
        case(
            "A8-unknown-tool",
            "mira's valid token on a call of cancel_order: 400 with -32602, and no part of the token in the error",
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"cancel_order","arguments":{"order_id":"A-104"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#.into(),
            vec![mira],
        ),
    ]
}

/// `token` with the first character of its signature changed (a valid
/// base64url character still): a bad signature (A5).
fn resigned(token: &str) -> String {
    let (head, sig) = token.rsplit_once('.').unwrap_or_default();
    let mut sig: Vec<char> = sig.chars().collect();
    if let Some(c) = sig.first_mut() {
        *c = if *c == 'A' { 'B' } else { 'A' };
    }
    format!("{head}.{}", sig.into_iter().collect::<String>())
}

/// The last segment of a token: what must never come back (A8).
fn signature(token: &str) -> String {
    token.rsplit('.').next().unwrap_or_default().to_owned()
}

fn generate() -> String {
    let config = config();
    let checker = AuthChecker::new(&config, LISTEN, issuer().jwks());
    let mut out = String::new();
    for c in cases() {
        let mut request = HttpRequest {
            method: "POST".into(),
            target: "/mcp".into(),
            headers: conforming(&config, LISTEN, c.body.as_bytes()),
            body: c.body.clone().into_bytes(),
        };
        for t in &c.tokens {
            request
                .headers
                .push(("Authorization".into(), format!("Bearer {t}").into_bytes()));
        }
        (c.change)(&mut request);
        let (expect, response) = checker
            .check(NOW, &request)
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let rule = c.name.split('-').next().unwrap_or_default();
        // An A8 vector holds A8 (nothing of the token comes back) over an
        // exchange another A row decides; every other one, its own row.
        let decides = expect.row();
        assert!(
            decides == rule || (rule == "A8" && decides.starts_with('A')),
            "{}: the model decides by another row ({decides})",
            c.name
        );
        let row = rows::row(rule).unwrap_or_else(|| panic!("no row {rule}"));
        let (level, source) = c
            .statement
            .unwrap_or((row.level.as_str(), row.source.as_str()));
        // A6 is a SHOULD (AUTH-15) for its challenge; its status is
        // AUTH-14's MUST.
        let (level, source) = if rule == "A6" {
            ("must", "AUTH-14")
        } else {
            (level, source)
        };
        let mut want = json!({"status": response.status});
        if let Some(challenge) = &c.challenge {
            want["challenge"] = challenge.clone();
        }
        // An A8 vector asks only for a reply with its id where a body
        // came: what it holds is that the token is absent.
        if !response.body.is_empty() && rule == "A8" {
            let reply: Value = serde_json::from_slice(&response.body).unwrap();
            want["id"] = json!(reply["id"].to_string());
            want["outcome"] = json!("reply");
        } else if !response.body.is_empty() && rule == "A7" {
            let reply: Value = serde_json::from_slice(&response.body).unwrap();
            want["id"] = json!(reply["id"].to_string());
            want["outcome"] = json!("result");
            want["isError"] = reply
                .pointer("/result/isError")
                .cloned()
                .unwrap_or(json!(false));
        }
        if rule == "A1" {
            let doc: Value = serde_json::from_slice(&response.body).unwrap();
            want["members"] = json!({"resource": doc["resource"], "authorization_servers": doc["authorization_servers"]});
            assert_eq!(doc["resource"], RESOURCE);
        }
        // A8: no part of a token sent ever comes back.
        let absent: Vec<String> = c
            .tokens
            .iter()
            .map(|t| signature(t))
            .filter(|s| s.len() > 8)
            .collect();
        if !absent.is_empty() {
            want["absent"] = json!(absent);
        }
        let mut headers: BTreeMap<String, Value> = response
            .headers
            .iter()
            .map(|(n, v)| ((*n).to_owned(), json!(v)))
            .collect();
        if let Some(challenge) = &response.challenge {
            headers.insert("www-authenticate".into(), json!(challenge));
        }
        let request_json = json!({
            "method": request.method,
            "target": request.target,
            "headers": request.headers.iter().map(|(n, v)| json!([n, String::from_utf8_lossy(v).replace("127.0.0.1:8080", "{authority}")])).collect::<Vec<_>>(),
            "body": String::from_utf8_lossy(&request.body),
        });
        let vector = json!({
            "id": format!("http-auth/{}", c.name),
            "rule": rule,
            "comment": c.comment,
            "config": "http-auth",
            "level": level,
            "source": source,
            "request": request_json,
            "expect": want,
            "response": {
                "status": response.status,
                "headers": headers,
                "body": String::from_utf8_lossy(&response.body),
            },
        });
        out.push_str(&serde_json::to_string(&vector).unwrap());
        out.push('\n');
    }
    out
}

#[test]
fn the_committed_authorization_vectors_are_the_generators() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("vectors/http-auth.jsonl");
    let config_path = root.join("vectors/configs/http-auth.json");
    let fresh = generate();
    let config_text = config().to_json() + "\n";
    if std::env::var_os("MCP_UPDATE_VECTORS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
        std::fs::write(&config_path, &config_text).unwrap();
    }
    assert!(
        std::fs::read_to_string(&path).unwrap_or_default() == fresh,
        "vectors/http-auth.jsonl is not what the binding answers now (MCP_UPDATE_VECTORS=1 cargo test --test http_auth_vectors rewrites it)"
    );
    assert_eq!(
        std::fs::read_to_string(&config_path).unwrap_or_default(),
        config_text
    );
    // Every row that an exchange decides has a vector, and A8 (no part of
    // a token in a response) its own; A9 (no authorization configured) is
    // in vectors/http.jsonl, the `http` fixture being that configuration.
    for row in ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8"] {
        assert!(
            fresh.contains(&format!("\"rule\":\"{row}\"")),
            "row {row} has no vector"
        );
    }
}
