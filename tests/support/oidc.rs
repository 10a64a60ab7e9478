//! A real authorization server for `tests/oidc.rs`, through `#[path]`: the
//! npm package `oidc-provider`, started by `scripts/oidc/provider.mjs` on
//! loopback, from the installation `.ci/run` makes in `target/oidc`
//! (`npm ci` of the committed `scripts/oidc/package-lock.json`, exported as
//! `MCP_OIDC_PROVIDER`). Without it a test says so and does nothing, except
//! under `CI`, where a missing provider fails it.
//!
//! Also what a client of it does, each request on a connection of its own
//! (`http_server::exchange`): a token by `client_credentials`, and a token by `authorization_code` with PKCE S256
//! whose login and consent the test submits headlessly through the
//! provider's development forms (devInteractions), as a given account.
//! Every wait has a deadline; the provider never outlives its guard. The
//! test crate also holds `support/http_server.rs` as `http_server`.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rsa::sha2::{Digest as _, Sha256};
use serde_json::Value;

use crate::http_server::{Reply, exchange};

/// How long one wait may take (a hang guard, not a performance threshold).
const DEADLINE: Duration = Duration::from_secs(20);
/// The redirect URI of the public client `app` (never visited: the flow
/// stops at the redirect and reads the code from `Location`).
const REDIRECT_URI: &str = "http://127.0.0.1/callback";

/// Where `oidc-provider` is installed (`DIR/node_modules/oidc-provider`),
/// or `None` (said on stderr) outside CI.
pub(crate) fn installed() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::var_os("MCP_OIDC_PROVIDER")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/oidc"));
    let has_package = dir
        .join("node_modules/oidc-provider/package.json")
        .is_file();
    let has_node = Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let ok = has_package && has_node;
    if !ok {
        crate::python_sdk::skip(
            &format!("oidc-provider in {} (or no node)", dir.display()),
            "mkdir -p target/oidc && cp scripts/oidc/package*.json target/oidc && (cd target/oidc \
             && npm ci) (.ci/run does it and sets MCP_OIDC_PROVIDER)",
            crate::python_sdk::in_ci(),
        );
    }
    ok.then_some(dir)
}

/// A running `scripts/oidc/provider.mjs`.
pub(crate) struct Provider {
    child: Child,
    /// `http://127.0.0.1:PORT`, its issuer identifier.
    pub(crate) issuer: String,
    /// The `kid` of its signing key (new at every start).
    pub(crate) kid: String,
    modules: PathBuf,
    port: u16,
    resources: Vec<String>,
    stderr: Option<JoinHandle<String>>,
}

impl Provider {
    /// Starts the provider on `port` (0: any free one), issuing tokens for
    /// `resources`, and waits for the line that says where it listens.
    pub(crate) fn start(modules: &Path, port: u16, resources: &[&str]) -> Provider {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/oidc/provider.mjs");
        let mut command = Command::new("node");
        command
            .arg(script)
            .arg("--modules")
            .arg(modules)
            .args(["--port", &port.to_string()]);
        for r in resources {
            command.args(["--resource", r]);
        }
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start node: {e}"));
        let mut stderr = child.stderr.take().expect("piped");
        let stderr = std::thread::spawn(move || {
            let mut all = String::new();
            let _ = stderr.read_to_string(&mut all);
            all
        });
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let mut provider = Provider {
            child,
            issuer: String::new(),
            kid: String::new(),
            modules: modules.to_owned(),
            port,
            resources: resources.iter().map(|r| r.to_string()).collect(),
            stderr: Some(stderr),
        };
        let line = rx.recv_timeout(DEADLINE).unwrap_or_default();
        let Ok(started) = serde_json::from_str::<Value>(&line) else {
            let _ = provider.child.kill();
            let _ = provider.child.wait();
            let log = provider.stderr.take().map(|t| t.join().unwrap_or_default());
            panic!(
                "oidc-provider did not start: {line:?}\n{}",
                log.unwrap_or_default()
            );
        };
        provider.issuer = started["issuer"].as_str().unwrap_or_default().to_owned();
        provider.kid = started["kid"].as_str().unwrap_or_default().to_owned();
        provider.port = provider
            .issuer
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_default();
        provider
    }

    /// A key rotation: stops this provider and starts another on the same
    /// port (so the same issuer identifier) with a new signing key.
    pub(crate) fn restart(mut self) -> Provider {
        self.stop();
        let resources: Vec<&str> = self.resources.iter().map(String::as_str).collect();
        let next = Provider::start(&self.modules, self.port, &resources);
        assert_eq!(next.issuer, self.issuer, "the same issuer after a restart");
        next
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The provider's metadata document (OpenID Connect Discovery).
    pub(crate) fn metadata(&self) -> Value {
        let url = format!("{}/.well-known/openid-configuration", self.issuer);
        let got = exchange("GET", &url, &[], b"");
        assert_eq!(got.status, 200, "{url}");
        got.json()
    }

    /// A `client_credentials` token of the confidential client `client`
    /// (its secret is `CLIENT-secret`) for `resource`.
    pub(crate) fn client_credentials(&self, client: &str, resource: &str) -> String {
        let token_endpoint = self.metadata()["token_endpoint"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let basic =
            base64::engine::general_purpose::STANDARD.encode(format!("{client}:{client}-secret"));
        let body = form(&[
            ("grant_type", "client_credentials"),
            ("scope", "orders:read"),
            ("resource", resource),
        ]);
        let got = exchange(
            "POST",
            &token_endpoint,
            &[
                ("authorization", format!("Basic {basic}")),
                (
                    "content-type",
                    "application/x-www-form-urlencoded".to_owned(),
                ),
            ],
            body.as_bytes(),
        );
        access_token(&got)
    }

    /// A token for `resource` by `authorization_code` with PKCE S256, of
    /// the public client `app`, with `login` signing in and consenting
    /// through the development forms.
    pub(crate) fn authorization_code(&self, login: &str, resource: &str) -> String {
        let meta = self.metadata();
        let endpoint = |name: &str| meta[name].as_str().unwrap_or_default().to_owned();
        let verifier = URL_SAFE_NO_PAD.encode(Sha256::digest(
            format!("{login} {resource} {:?}", std::time::SystemTime::now()).as_bytes(),
        ));
        let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
        let state = &verifier[..16];
        let query = form(&[
            ("client_id", "app"),
            ("response_type", "code"),
            ("redirect_uri", REDIRECT_URI),
            ("scope", "orders:read"),
            ("resource", resource),
            ("code_challenge", &challenge),
            ("code_challenge_method", "S256"),
            ("state", state),
        ]);
        let mut jar = Jar::default();
        let mut url = format!("{}?{query}", endpoint("authorization_endpoint"));
        let mut callback = None;
        for _ in 0..12 {
            let mut got = jar.exchange("GET", &url, "");
            if got.status == 200 {
                // A development form: its hidden fields, and the login.
                let page = String::from_utf8_lossy(&got.body).into_owned();
                let (action, mut fields) =
                    parse_form(&page).unwrap_or_else(|| panic!("no form at {url}: {page}"));
                if fields.iter().any(|(n, v)| n == "prompt" && v == "login") {
                    fields.push(("login".into(), login.into()));
                    fields.push(("password".into(), "any".into()));
                }
                let pairs: Vec<(&str, &str)> = fields
                    .iter()
                    .map(|(n, v)| (n.as_str(), v.as_str()))
                    .collect();
                got = jar.exchange("POST", &join(&url, &action), &form(&pairs));
            }
            let location = got
                .header("location")
                .unwrap_or_else(|| panic!("{} without a redirect at {url}", got.status));
            url = join(&url, location);
            if url.starts_with(&format!("{REDIRECT_URI}?")) {
                callback = Some(url.clone());
                break;
            }
        }
        let callback = callback.expect("the provider redirected to the client");
        let params = parse_query(callback.split_once('?').map_or("", |(_, q)| q));
        assert_eq!(params.get("state").map(String::as_str), Some(state));
        assert_eq!(params.get("iss"), Some(&self.issuer), "RFC 9207 iss");
        let code = params.get("code").expect("a code in the redirect");
        let body = form(&[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", REDIRECT_URI),
            ("client_id", "app"),
            ("code_verifier", &verifier),
            ("resource", resource),
        ]);
        let got = exchange(
            "POST",
            &endpoint("token_endpoint"),
            &[(
                "content-type",
                "application/x-www-form-urlencoded".to_owned(),
            )],
            body.as_bytes(),
        );
        access_token(&got)
    }
}

impl Drop for Provider {
    /// Never leaves a provider running, whatever the test did.
    fn drop(&mut self) {
        self.stop();
    }
}

fn access_token(got: &Reply) -> String {
    assert_eq!(
        got.status,
        200,
        "the token endpoint: {}",
        String::from_utf8_lossy(&got.body)
    );
    let doc = got.json();
    assert_eq!(doc["token_type"], "Bearer", "{doc}");
    doc["access_token"]
        .as_str()
        .expect("an access_token")
        .to_owned()
}

/// A token's JOSE header and claims, decoded (not verified: the server
/// under test does that).
pub(crate) fn decode(token: &str) -> (Value, Value) {
    let part = |i: usize| -> Value {
        let text = token.split('.').nth(i).unwrap_or_default();
        let bytes = URL_SAFE_NO_PAD.decode(text).unwrap_or_default();
        serde_json::from_slice(&bytes).unwrap_or_default()
    };
    (part(0), part(1))
}

/// The cookies of one browser-less user agent: every cookie is sent to
/// every request (one provider, on loopback).
#[derive(Default)]
struct Jar(BTreeMap<String, String>);

impl Jar {
    fn exchange(&mut self, method: &str, url: &str, form_body: &str) -> Reply {
        let mut headers = Vec::new();
        if !self.0.is_empty() {
            let cookie: Vec<String> = self.0.iter().map(|(n, v)| format!("{n}={v}")).collect();
            headers.push(("cookie", cookie.join("; ")));
        }
        if method == "POST" {
            headers.push((
                "content-type",
                "application/x-www-form-urlencoded".to_owned(),
            ));
        }
        let got = exchange(method, url, &headers, form_body.as_bytes());
        for (name, value) in &got.headers {
            if name != "set-cookie" {
                continue;
            }
            let pair = value.split(';').next().unwrap_or_default();
            if let Some((n, v)) = pair.split_once('=') {
                self.0.insert(n.trim().to_owned(), v.trim().to_owned());
            }
        }
        got
    }
}

/// A page's first `<form method="post">`: its action and hidden fields.
fn parse_form(page: &str) -> Option<(String, Vec<(String, String)>)> {
    let start = page.find("<form")?;
    let form = &page[start..];
    let end = form.find("</form>").unwrap_or(form.len());
    let form = &form[..end];
    let action = attribute(&form[..form.find('>')?], "action")?;
    let mut fields = Vec::new();
    for input in form.split("<input").skip(1) {
        let tag = &input[..input.find('>').unwrap_or(input.len())];
        if attribute(tag, "type").as_deref() == Some("hidden")
            && let (Some(n), Some(v)) = (attribute(tag, "name"), attribute(tag, "value"))
        {
            fields.push((n, v));
        }
    }
    Some((action, fields))
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    let value = &tag[at..at + tag[at..].find('"')?];
    Some(
        value
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
    )
}

/// `location` resolved against `base` (absolute, or an absolute path).
fn join(base: &str, location: &str) -> String {
    if location.starts_with("http://") || location.starts_with("https://") {
        return location.to_owned();
    }
    let scheme = base.find("://").map_or(0, |i| i + 3);
    let origin_end = base[scheme..].find('/').map_or(base.len(), |i| scheme + i);
    format!("{}{location}", &base[..origin_end])
}

/// `application/x-www-form-urlencoded` (also a query string).
pub(crate) fn form(pairs: &[(&str, &str)]) -> String {
    let encode = |s: &str| -> String {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    pairs
        .iter()
        .map(|(n, v)| format!("{}={}", encode(n), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn parse_query(query: &str) -> BTreeMap<String, String> {
    let decode = |s: &str| -> String {
        let bytes = s.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                    out.push(u8::from_str_radix(hex, 16).unwrap_or(b'?'));
                    i += 2;
                }
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    };
    query
        .split('&')
        .filter_map(|p| p.split_once('='))
        .map(|(n, v)| (decode(n), decode(v)))
        .collect()
}
