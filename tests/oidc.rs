//! The real `mcp-reference serve --http` against a real authorization
//! server: `oidc-provider` (npm, `scripts/oidc/provider.mjs`, installed by
//! `.ci/run` into `target/oidc`; `support/oidc.rs`), on loopback. The
//! server is configured with the provider's issuer URL only: the driver
//! fetches its metadata and key set itself (`src/cli/issuer.rs`). Rows A1,
//! A3, A5 and A7 of docs/behavior.md ("Authorization") with tokens the
//! provider issued: JWT access tokens (RFC 9068) whose `aud` is the
//! resource indicator (RFC 8707) of the request, by `authorization_code`
//! with PKCE S256 (headless login and consent through the provider's
//! development forms) and by `client_credentials`.
//!
//! And the official Python SDK's OAuth client (`mcp` 2.3.0,
//! `OAuthClientProvider`, `scripts/sdk_oauth_client.py`) from the 401 to a
//! `tools/call`, with dynamic client registration.
//!
//! Without the provider (or, for the last test, the SDK) a test says so and
//! does nothing, except under `CI`, where it fails.

use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use mcp_reference::{Config, OAuthSettings};
use mcp_reference_testkit::issuer::with_auth;
use mcp_reference_testkit::model;

#[path = "support/http_server.rs"]
mod http_server;
#[path = "support/oidc.rs"]
mod oidc;
#[path = "support/python_sdk.rs"]
mod python_sdk;
use http_server::{Reply, Server, exchange};
use oidc::{Provider, decode};

/// A provider and the server it authorizes for: the server's canonical
/// URL (the resource), and another resource the provider also issues
/// tokens for (same origin, another path).
struct Setup {
    provider: Provider,
    server: Server,
    resource: String,
    other: String,
    /// The server's authorization settings: the model's challenges (rows
    /// A3 and A5) are made from them.
    settings: OAuthSettings,
}

/// Starts the provider, then the server on a port chosen first (the
/// resource, `http://127.0.0.1:PORT/mcp`, is in its configuration and in
/// the provider's), with leeway 0 and the client `courier` mapped to tomas.
fn setup(modules: &std::path::Path, name: &str) -> Setup {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port");
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let other = format!("http://127.0.0.1:{port}/other");
    let provider = Provider::start(modules, 0, &[&resource, &other]);
    let mut settings = OAuthSettings::new(&resource, &provider.issuer);
    settings.leeway_s = 0;
    settings.users.insert("courier".into(), "tomas".into());
    let config = with_auth(Config::default(), settings.clone());
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("oidc-{name}.json"));
    std::fs::write(&path, config.to_json()).unwrap();
    let server = Server::start_on(
        &format!("127.0.0.1:{port}"),
        &["--config", path.to_str().unwrap()],
    );
    assert_eq!(server.url(), resource);
    Setup {
        provider,
        server,
        resource,
        other,
        settings,
    }
}

/// `tools/call get_order ORDER` (JSON-RPC id 7) with `token`.
fn get_order(url: &str, token: Option<&str>, order: &str) -> Reply {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"get_order","arguments":{{"order_id":"{order}"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
    );
    let mut headers = vec![
        ("content-type", "application/json".to_owned()),
        ("accept", "application/json, text/event-stream".to_owned()),
        ("mcp-protocol-version", "2026-07-28".to_owned()),
        ("mcp-method", "tools/call".to_owned()),
        ("mcp-name", "get_order".to_owned()),
    ];
    if let Some(token) = token {
        headers.push(("authorization", format!("Bearer {token}")));
    }
    exchange("POST", url, &headers, body.as_bytes())
}

/// The `structuredContent.status` of a 200 reply, or `None` for the
/// forbidden tool error.
fn status_of(got: &Reply) -> Option<String> {
    assert_eq!(got.status, 200, "{}", String::from_utf8_lossy(&got.body));
    let reply = got.json();
    reply["result"]["structuredContent"]["status"]
        .as_str()
        .map(str::to_owned)
}

fn challenge(got: &Reply) -> &str {
    got.header("www-authenticate").unwrap_or_default()
}

/// Row A5's answer: 401, the model's `invalid_token` challenge for these
/// settings, no body.
fn assert_invalid_token(got: &Reply, settings: &OAuthSettings, what: &str) {
    assert_eq!(got.status, 401, "{what}");
    assert_eq!(
        challenge(got),
        model::auth::challenge(settings, Some("invalid_token")),
        "{what}"
    );
    assert!(got.body.is_empty(), "{what}");
}

/// `ask()` again every 200 ms until `done` holds of its answer or
/// `within` has passed; the last answer (the caller asserts on it).
fn ask_until(within: Duration, ask: impl Fn() -> Reply, done: impl Fn(&Reply) -> bool) -> Reply {
    let deadline = Instant::now() + within;
    loop {
        let got = ask();
        if done(&got) || Instant::now() > deadline {
            return got;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Rows A7 and DEC12, DEC36 with the provider's tokens: mira's
/// (authorization_code + PKCE, signed in as mira) sees A-104; tomas's sees
/// B-205, and A-104 for him is byte for byte the reply for an order that
/// does not exist. A `client_credentials` token acts for no user (its
/// `sub` is the client id): unmapped it sees no order at all, mapped
/// (`courier` -> tomas) it sees tomas's. Row A5: a token the provider
/// minted for another resource is rejected, 401 `invalid_token`; row A3:
/// no token, 401 without `error`.
#[test]
fn the_provider_s_tokens_choose_the_user() {
    let Some(modules) = oidc::installed() else {
        return;
    };
    let s = setup(&modules, "users");
    let url = s.server.url();
    // The metadata names the provider; the provider's metadata names its keys.
    let prm = exchange(
        "GET",
        &format!(
            "http://{}/.well-known/oauth-protected-resource/mcp",
            s.server.addr
        ),
        &[],
        b"",
    );
    assert_eq!(prm.json()["authorization_servers"][0], s.provider.issuer);
    assert_eq!(prm.json()["resource"], s.resource);

    let mira = s.provider.authorization_code("mira", &s.resource);
    let (header, claims) = decode(&mira);
    assert_eq!(
        (header["typ"].as_str(), header["kid"].as_str()),
        (Some("at+jwt"), Some(s.provider.kid.as_str())),
        "{header}"
    );
    assert_eq!(
        (claims["sub"].as_str(), claims["aud"].as_str()),
        (Some("mira"), Some(s.resource.as_str())),
        "{claims}"
    );
    assert_eq!(
        status_of(&get_order(&url, Some(&mira), "A-104")).as_deref(),
        Some("processing")
    );
    assert_eq!(status_of(&get_order(&url, Some(&mira), "B-205")), None);

    let tomas = s.provider.authorization_code("tomas", &s.resource);
    assert_eq!(decode(&tomas).1["sub"], "tomas");
    assert_eq!(
        status_of(&get_order(&url, Some(&tomas), "B-205")).as_deref(),
        Some("shipped")
    );
    let nothing = get_order(&url, Some(&tomas), "Z-999");
    assert_eq!(status_of(&nothing), None);
    let not_his = get_order(&url, Some(&tomas), "A-104");
    assert_eq!(not_his.body, nothing.body, "DEC12: A-104 for tomas");

    // client_credentials (DEC36): the client's id is `sub`, and no user.
    let service = s.provider.client_credentials("service", &s.resource);
    assert_eq!(decode(&service).1["sub"], "service");
    for order in ["A-104", "B-205"] {
        let got = get_order(&url, Some(&service), order);
        assert_eq!(got.body, nothing.body, "DEC36: {order} for service");
    }
    let courier = s.provider.client_credentials("courier", &s.resource);
    assert_eq!(
        status_of(&get_order(&url, Some(&courier), "B-205")).as_deref(),
        Some("shipped")
    );
    assert_eq!(
        get_order(&url, Some(&courier), "A-104").body,
        nothing.body,
        "DEC36: courier is tomas"
    );

    // A client_credentials client whose id happens to be an account's name
    // (issue 39, item 10): its `sub` is "mira", but it acts for itself
    // (`sub` equal to `client_id`), so it is no user (DEC36).
    let client_mira = s.provider.client_credentials("mira", &s.resource);
    let (_, claims) = decode(&client_mira);
    assert_eq!(
        (&claims["sub"], &claims["client_id"]),
        (&"mira".into(), &"mira".into())
    );
    let got = get_order(&url, Some(&client_mira), "A-104");
    assert_eq!(got.body, nothing.body, "DEC36: the client mira is not mira");

    // Tokens for another resource, by both grants: valid in every other way.
    for token in [
        s.provider.client_credentials("service", &s.other),
        s.provider.authorization_code("mira", &s.other),
    ] {
        assert_eq!(decode(&token).1["aud"].as_str(), Some(s.other.as_str()));
        assert_invalid_token(
            &get_order(&url, Some(&token), "A-104"),
            &s.settings,
            "another aud",
        );
    }
    let got = get_order(&url, None, "A-104");
    assert_eq!(got.status, 401);
    // Row A3: the model's challenge without an error.
    assert_eq!(challenge(&got), model::auth::challenge(&s.settings, None));
}

/// Row A5, expiry, with a server leeway of 0: the client `brief`'s tokens
/// live 4 s (provider.mjs). Its token is served, then, once its `exp` has
/// passed by the real clock, refused with 401 `invalid_token`: the
/// driver's cache of verified tokens (which served the repeats) never
/// outlives a token. The wait is bounded: the test asks again until the
/// refusal or a deadline, and the deadline failing is the test failing.
#[test]
fn an_expired_token_of_the_provider_is_refused() {
    let Some(modules) = oidc::installed() else {
        return;
    };
    let s = setup(&modules, "expiry");
    let url = s.server.url();
    let brief = s.provider.client_credentials("brief", &s.resource);
    let claims = decode(&brief).1;
    let (iat, exp) = (
        claims["iat"].as_u64().unwrap(),
        claims["exp"].as_u64().unwrap(),
    );
    assert!(exp > iat && exp - iat <= 4, "{claims}");
    assert_eq!(get_order(&url, Some(&brief), "A-104").status, 200);
    let now = || SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    // Until its `exp` has passed, then asked again until refused.
    while now().as_secs() < exp {
        std::thread::sleep(Duration::from_millis(100));
    }
    let got = ask_until(
        Duration::from_secs(10),
        || get_order(&url, Some(&brief), "A-104"),
        |got| got.status != 200,
    );
    assert_invalid_token(&got, &s.settings, "still served after its exp");
}

/// A key rotation at the provider: it restarts on the same port (the same
/// issuer) with a new signing key, so its new tokens name a `kid` the
/// server has not seen. The server fetches the key set again (at most once
/// per 5 s, `src/cli/issuer.rs`; this is the first unknown `kid`, so at
/// once) and accepts them; the old key is gone from the set, and a token
/// it signed that the server had not verified before is refused. A
/// refusal of the new token is asked again until a deadline past the
/// refetch interval, so the test does not depend on the rate limit's
/// timing.
#[test]
fn after_the_provider_rotates_its_key_the_server_refetches_it() {
    let Some(modules) = oidc::installed() else {
        return;
    };
    let mut s = setup(&modules, "rotation");
    let url = s.server.url();
    let old_kid = s.provider.kid.clone();
    let keys = exchange("GET", &format!("{}/jwks", s.provider.issuer), &[], b"").json();
    assert_eq!(keys["keys"].as_array().map(Vec::len), Some(1), "{keys}");
    assert_eq!(keys["keys"][0]["kid"], old_kid.as_str());
    let before = s.provider.authorization_code("mira", &s.resource);
    assert_eq!(get_order(&url, Some(&before), "A-104").status, 200);
    // Signed with the old key, never shown to the server before the rotation.
    let unseen = s.provider.client_credentials("courier", &s.resource);
    assert_eq!(decode(&unseen).0["kid"], old_kid.as_str());

    s.provider = s.provider.restart();
    assert_ne!(s.provider.kid, old_kid, "a new key");
    let after = s.provider.authorization_code("mira", &s.resource);
    assert_eq!(decode(&after).0["kid"], s.provider.kid.as_str());
    let got = ask_until(
        Duration::from_secs(12),
        || get_order(&url, Some(&after), "A-104"),
        |got| got.status == 200,
    );
    assert_eq!(
        status_of(&got).as_deref(),
        Some("processing"),
        "the new kid"
    );
    // The old key is gone from the set the server now holds: a token it
    // signed, not verified before, is refused (its kid is unknown, and the
    // set is not fetched again within 5 s; fetched or not, it lacks the key).
    assert_invalid_token(
        &get_order(&url, Some(&unseen), "B-205"),
        &s.settings,
        "a token of the retired key",
    );
}

/// The official Python SDK's OAuth client (`OAuthClientProvider`, `mcp`
/// 2.3.0) end to end: the 401 challenge, the Protected Resource Metadata
/// at the path-inserted URL, the provider's RFC 8414 metadata, dynamic
/// registration, authorization_code with PKCE (the redirect handler signs
/// in as mira through the development forms), then `tools/list` and
/// `get_order` A-104 (hers) and B-205 (not hers) over Streamable HTTP.
#[test]
fn the_python_sdk_oauth_client_gets_a_token_and_calls_get_order() {
    let Some(modules) = oidc::installed() else {
        return;
    };
    let Some(python) = python_sdk::python() else {
        return;
    };
    let s = setup(&modules, "sdk");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/sdk_oauth_client.py");
    let out = python_sdk::run_client(&python, &[script.into(), s.server.url().into()]);
    let trace = out
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find_map(|v| v.get("oauth").cloned())
        .unwrap_or_else(|| panic!("no oauth summary: {out}"));
    assert_eq!(trace["registered"], true, "{trace}");
    let asked = &trace["authorization_request"];
    assert_eq!(asked["resource"], s.resource.as_str(), "RFC 8707: {trace}");
    assert_eq!(asked["code_challenge_method"], "S256", "{trace}");
    assert_eq!(trace["scope"], "orders:read", "{trace}");
    let requests: Vec<(String, String, u64)> = trace["requests"]
        .as_array()
        .expect("the requests")
        .iter()
        .map(|r| {
            (
                r["method"].as_str().unwrap_or_default().to_owned(),
                r["url"].as_str().unwrap_or_default().to_owned(),
                r["status"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    let base = format!("http://{}", s.server.addr);
    let issuer = &s.provider.issuer;
    let expected_start = [
        ("POST", s.resource.clone(), 401),
        (
            "GET",
            format!("{base}/.well-known/oauth-protected-resource/mcp"),
            200,
        ),
        (
            "GET",
            format!("{issuer}/.well-known/oauth-authorization-server"),
            200,
        ),
    ];
    for (i, (method, url, status)) in expected_start.iter().enumerate() {
        assert_eq!(
            requests.get(i),
            Some(&(method.to_string(), url.clone(), *status)),
            "{requests:?}"
        );
    }
    // Every later request at the endpoint carried the token and was served.
    let at_endpoint: Vec<_> = requests[1..]
        .iter()
        .filter(|(_, u, _)| *u == s.resource)
        .collect();
    assert!(at_endpoint.len() >= 3, "{requests:?}");
    assert!(
        at_endpoint.iter().all(|(_, _, st)| *st == 200),
        "{requests:?}"
    );
}
