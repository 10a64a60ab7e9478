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

/// Now, in seconds since the Unix epoch: the driver reads the real clock.
fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A token for mira from `iss`, signed by `by`'s ES256 key `kid`, valid
/// for ten minutes from `now`.
fn mira_token(by: &Issuer, iss: &str, kid: &str, now: u64) -> String {
    let mut claims = mcp_reference_testkit::issuer::claims("mira", "orders:read");
    claims["iss"] = iss.into();
    claims["iat"] = now.into();
    claims["exp"] = (now + 600).into();
    let header = serde_json::json!({"typ": "at+jwt", "alg": "ES256", "kid": kid});
    by.mint(&header, &claims)
}

#[test]
fn tokens_choose_the_user_and_never_reach_the_log() {
    // Tokens valid for a while from now: the driver reads the real clock.
    let now = unix_now();
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
    // `--user` names the launch user, whom a token-authorized server never
    // acts as: no warning that "nobody" owns no order.
    let server = Server::start(&[
        "--config",
        path.to_str().unwrap(),
        "--log-level",
        "debug",
        "--user",
        "nobody",
    ]);
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
    assert!(!log.contains("warning"), "{log}");
}

/// A loopback authorization server of the test's own: its RFC 8414
/// metadata and its key set, which the test can replace (a rotation);
/// counts the key-set fetches. Over plain http, or over TLS with the
/// certificate in `tests/support/tls/` (for 127.0.0.1, signed by the test
/// CA `ca.pem`; test material only, valid until 2126).
struct MiniIssuer {
    url: String,
    jwks: std::sync::Arc<std::sync::Mutex<String>>,
    fetches: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

/// The test's TLS material.
fn tls_file(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/support/tls")
        .join(name)
}

impl MiniIssuer {
    fn start(jwks: &serde_json::Value) -> MiniIssuer {
        MiniIssuer::serve(jwks, None)
    }

    fn start_tls(jwks: &serde_json::Value) -> MiniIssuer {
        use rustls::pki_types::pem::PemObject;
        use rustls::pki_types::{CertificateDer, PrivateKeyDer};
        let certs = CertificateDer::pem_file_iter(tls_file("issuer.pem"))
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        let key = PrivateKeyDer::from_pem_file(tls_file("issuer.key")).unwrap();
        let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .unwrap();
        MiniIssuer::serve(jwks, Some(std::sync::Arc::new(config)))
    }

    fn serve(
        jwks: &serde_json::Value,
        tls: Option<std::sync::Arc<rustls::ServerConfig>>,
    ) -> MiniIssuer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let scheme = if tls.is_some() { "https" } else { "http" };
        let url = format!("{scheme}://{}", listener.local_addr().unwrap());
        let keys = std::sync::Arc::new(std::sync::Mutex::new(jwks.to_string()));
        let fetches = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (k, f, u) = (keys.clone(), fetches.clone(), url.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let answer = |path: &str| match path {
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
                match &tls {
                    None => exchange_once(stream, answer),
                    Some(config) => {
                        let Ok(connection) = rustls::ServerConnection::new(config.clone()) else {
                            continue;
                        };
                        let mut tls = rustls::StreamOwned::new(connection, stream);
                        exchange_once(&mut tls, answer);
                        tls.conn.send_close_notify();
                        let _ = tls.flush();
                    }
                }
            }
        });
        MiniIssuer {
            url,
            jwks: keys,
            fetches,
        }
    }
}

/// Reads one request from `stream` and writes `answer(path)` back.
fn exchange_once<S: std::io::Read + Write>(
    mut stream: S,
    answer: impl Fn(&str) -> (&'static str, String),
) {
    use std::io::BufRead;
    let mut reader = std::io::BufReader::new(&mut stream);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut header = String::new();
    while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
        header.clear();
    }
    drop(reader);
    let path = line.split(' ').nth(1).unwrap_or_default().to_owned();
    let (status, body) = answer(&path);
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.flush();
}

/// Without `jwks` the server fetches the issuer's metadata and keys at
/// start; after the issuer rotates its keys, a token signed with the new
/// key (an unknown `kid`) makes it fetch them again, and is accepted; a
/// token the server had verified with a key the issuer withdrew is then
/// refused, not served from the cache until it expires.
#[test]
fn keys_are_fetched_from_the_issuer_and_refetched_after_a_rotation() {
    let now = unix_now();
    let (before, after) = (Issuer::new(1), Issuer::new(2));
    // A key set as large as a real one can be (members a reader ignores,
    // 64 KiB of them): read whole, well under the driver's 1 MiB bound.
    let mut padded = before.jwks().clone();
    padded["x-padding"] = "k".repeat(64 * 1024).into();
    let issuer = MiniIssuer::start(&padded);
    let mut s = settings(before.jwks());
    s.jwks = None;
    s.issuer = issuer.url.clone();
    let config = with_auth(Config::default(), s);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("http-auth-fetched.json");
    std::fs::write(&path, config.to_json()).unwrap();
    let server = Server::start(&["--config", path.to_str().unwrap()]);
    assert_eq!(issuer.fetches.load(std::sync::atomic::Ordering::SeqCst), 1);
    let mint = |by: &Issuer, kid: &str| mira_token(by, &issuer.url, kid, now);
    let stream = server.connect();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    let mut call = |token: &str| {
        writer
            .write_all(&request(&server.addr, "POST", "/mcp", Some(token), "A-104"))
            .unwrap();
        read_reply(&mut reader).status
    };
    let first = mint(&before, "ec1");
    assert_eq!(call(&first), 200);
    assert_eq!(call(&first), 200, "from the cache of verified tokens");
    // The issuer rotates: it adds ec2 and withdraws ec1.
    let mut rotated = after.jwks().clone();
    let keys = rotated["keys"].as_array_mut().unwrap();
    let all = keys.len();
    keys.retain(|key| key["kid"] != "ec1");
    assert_eq!(keys.len(), all - 1);
    *issuer.jwks.lock().unwrap() = rotated.to_string();
    assert_eq!(call(&mint(&after, "ec2")), 200);
    assert_eq!(issuer.fetches.load(std::sync::atomic::Ordering::SeqCst), 2);
    // Another unknown kid at once: refused without a third fetch (at most
    // one fetch per 5 s, whatever the tokens name).
    assert_eq!(call(&mint(&after, "ec9")), 401);
    assert_eq!(issuer.fetches.load(std::sync::atomic::Ordering::SeqCst), 2);
    // The token verified with the withdrawn key is not taken from the
    // cache once the new set is in: verified again, it is refused.
    assert_eq!(call(&first), 401);
    let (code, _) = server.terminate();
    assert_eq!(code, Some(0));
}

/// Over https the server fetches the metadata and keys through TLS,
/// trusting the built-in roots and `--issuer-ca`: with the test CA it
/// starts and accepts the issuer's tokens; without it the certificate is
/// not trusted and it does not start (exit 1, one sentence); and plain
/// http to a host that is not loopback is refused before anything is
/// fetched (exit 2, DEC38).
#[test]
fn an_https_issuer_is_fetched_over_tls_and_its_certificate_checked() {
    let now = unix_now();
    let keys = Issuer::new(1);
    let issuer = MiniIssuer::start_tls(keys.jwks());
    let mut s = settings(keys.jwks());
    s.jwks = None;
    s.issuer = issuer.url.clone();
    let config = with_auth(Config::default(), s.clone());
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("http-auth-tls.json");
    std::fs::write(&path, config.to_json()).unwrap();
    let ca = tls_file("ca.pem");
    let server = Server::start(&[
        "--config",
        path.to_str().unwrap(),
        "--issuer-ca",
        ca.to_str().unwrap(),
    ]);
    assert_eq!(issuer.fetches.load(std::sync::atomic::Ordering::SeqCst), 1);
    let token = mira_token(&keys, &issuer.url, "ec1", now);
    let stream = server.connect();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    writer
        .write_all(&request(
            &server.addr,
            "POST",
            "/mcp",
            Some(&token),
            "A-104",
        ))
        .unwrap();
    let got = read_reply(&mut reader);
    assert_eq!(got.status, 200);
    assert!(String::from_utf8_lossy(&got.body).contains("processing"));
    assert_eq!(server.terminate().0, Some(0));

    let bin = env!("CARGO_BIN_EXE_mcp-reference");
    let run = |config: &std::path::Path, extra: &[&str]| {
        let out = std::process::Command::new(bin)
            .args(["--config", config.to_str().unwrap(), "serve", "--http"])
            .arg("127.0.0.1:0")
            .args(extra)
            .env_remove("MCP_REFERENCE_ISSUER_CA")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stderr) = run(&path, &[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("cannot fetch") && stderr.contains(&issuer.url),
        "{stderr}"
    );
    let fetches = issuer.fetches.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(fetches, 1, "no key set is taken from an untrusted server");

    let (code, stderr) = run(&path, &["--issuer-ca", "/nonexistent/ca.pem"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--issuer-ca /nonexistent/ca.pem"),
        "{stderr}"
    );

    let mut far = s;
    far.issuer = "http://as.example".to_owned();
    let far_path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("http-auth-far.json");
    std::fs::write(&far_path, with_auth(Config::default(), far).to_json()).unwrap();
    let (code, stderr) = run(&far_path, &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("http://as.example") && stderr.contains("not loopback"),
        "{stderr}"
    );
}

/// The keys fixed in `http.authorization.jwks` are judged before the
/// server listens (DEC38, rows A5 and A9): a set with a usable key needs no
/// fetch, so an issuer the driver could never fetch from (plain http, not
/// loopback) is fine; a set with no RSA or P-256 signing key, or a value
/// that is no JWK Set, is refused in one sentence naming the file, exit 2.
#[test]
fn fixed_keys_are_judged_at_start_and_need_no_fetch() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let write = |name: &str, jwks: &serde_json::Value| {
        let path = dir.join(name);
        let text = format!(
            r#"{{"http":{{"authorization":{{"resource":"http://127.0.0.1:8080/mcp","issuer":"http://as.example","jwks":{jwks}}}}}}}"#
        );
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let issuer = Issuer::default();
    let usable = write("http-auth-far-issuer.json", issuer.jwks());
    let server = Server::start(&["--config", &usable]);
    assert!(!server.addr.is_empty());
    drop(server);
    for (name, jwks, said) in [
        (
            "http-auth-empty-jwks.json",
            serde_json::json!({"keys": []}),
            "http.authorization.jwks holds no RSA or P-256 signing key",
        ),
        (
            "http-auth-hmac-jwks.json",
            serde_json::json!({"keys": [{"kty": "oct", "k": "c2VjcmV0"}]}),
            "http.authorization.jwks holds no RSA or P-256 signing key",
        ),
        (
            "http-auth-not-jwks.json",
            serde_json::json!({"keys": 5}),
            "http.authorization.jwks: a JWK Set is an object with a keys array",
        ),
    ] {
        let path = write(name, &jwks);
        let out = std::process::Command::new(http_server::BIN)
            .args(["--config", &path, "serve", "--http", "127.0.0.1:0"])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        // The sentence names the file, as a refusal at load does (issue
        // 49, item 5).
        assert_eq!(
            err.trim_end(),
            format!("mcp-reference: config file {path}: {said}"),
            "{name}"
        );
        assert!(out.stdout.is_empty(), "{name}");
    }
}
