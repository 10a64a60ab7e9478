//! The two stand-ins of the library without default features, seen from
//! outside as a library user sees them (the package header,
//! `src/lib.rs`, says why here and not in the root workspace):
//!
//! - authorization (rows A3, A5, A7; docs/behavior.md "Authorization
//!   (Streamable HTTP)"):
//!   the HTTP binding of the `http-auth` fixture, answering the exchanges
//!   of `vectors/http-auth.jsonl` with the fixture's fixed JWK Set at the
//!   current time, as `serve --http` does, refuses every token the jwt
//!   build accepts with the `invalid_token` challenge, and answers what
//!   needs no signature byte for byte as the jwt build does;
//! - state (rows I; docs/behavior.md "Multi round-trip requests"): a
//!   configuration whose input-required tools or prompts issue
//!   `requestState` is refused at load with one sentence naming the
//!   `state` feature, and nothing else is.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::time::{SystemTime, UNIX_EPOCH};

use mcp_reference::http::{Binding, Bound, Keys, Request, Response, Trust};
use mcp_reference::{Config, Direct, Server};
use mcp_reference_lean::{read, repository};
use serde_json::{Value, json};

const AUTH_CONFIG: &str = "vectors/configs/http-auth.json";
const AUTH_VECTORS: &str = "vectors/http-auth.jsonl";

fn load(relative: &str) -> Config {
    Config::from_json(&read(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The `http-auth` fixture's binding and keys, and the authority its
/// vectors write as `{authority}`: that of the configuration's
/// `resource` URL (the address the vectors were made for).
struct Fixture {
    binding: Binding,
    keys: Keys,
    authority: String,
}

fn fixture() -> Fixture {
    let config = load(AUTH_CONFIG);
    let oauth = config
        .http()
        .authorization
        .as_ref()
        .and_then(|a| a.oauth())
        .unwrap_or_else(|| panic!("{AUTH_CONFIG} has no OAuth settings"));
    let jwks = oauth
        .jwks
        .as_ref()
        .unwrap_or_else(|| panic!("{AUTH_CONFIG} fixes no JWK Set"));
    let keys = Keys::from_jwks(jwks).unwrap_or_else(|e| panic!("{AUTH_CONFIG}: {e}"));
    assert!(!keys.is_empty(), "{AUTH_CONFIG}: no usable key");
    let authority = oauth
        .resource
        .split_once("://")
        .and_then(|(_, rest)| rest.split('/').next())
        .unwrap_or_else(|| panic!("{AUTH_CONFIG}: resource {:?}", oauth.resource))
        .to_owned();
    let (host, port) = authority
        .rsplit_once(':')
        .unwrap_or_else(|| panic!("{AUTH_CONFIG}: no port in {authority}"));
    let bound = Bound {
        port: port.parse().unwrap_or_else(|e| panic!("port {port}: {e}")),
        loopback: host
            .trim_matches(['[', ']'])
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback()),
    };
    Fixture {
        binding: Binding::new(Server::new(config), bound),
        keys,
        authority,
    }
}

fn vectors() -> Vec<Value> {
    String::from_utf8_lossy(&read(AUTH_VECTORS))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{AUTH_VECTORS}: {e}: {l}")))
        .collect()
}

/// A response in the form the vectors record it: status, the headers
/// the binding set with the challenge as `www-authenticate`, the body.
fn recorded(response: &Response) -> Value {
    let mut headers: BTreeMap<String, Value> = response
        .headers
        .iter()
        .map(|(n, v)| ((*n).to_owned(), json!(v)))
        .collect();
    if let Some(challenge) = &response.challenge {
        headers.insert("www-authenticate".into(), json!(challenge));
    }
    json!({
        "status": response.status,
        "headers": headers,
        "body": String::from_utf8_lossy(&response.body),
    })
}

/// Whether the vector's request carries an `Authorization` header.
fn sends_a_token(vector: &Value) -> bool {
    vector["request"]["headers"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|h| {
            h[0].as_str()
                .is_some_and(|n| n.eq_ignore_ascii_case("authorization"))
        })
}

/// The lean binding's answer to the vector's request, now.
fn answer(fixture: &Fixture, vector: &Value) -> Value {
    let request = &vector["request"];
    let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let headers: Vec<(String, Vec<u8>)> = request["headers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|h| {
            let value = text(&h[1]).replace("{authority}", &fixture.authority);
            (text(&h[0]), value.into_bytes())
        })
        .collect();
    let refs: Vec<(&str, &[u8])> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_slice()))
        .collect();
    let (method, target, body) = (
        text(&request["method"]),
        text(&request["target"]),
        text(&request["body"]),
    );
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let trust = Trust {
        keys: &fixture.keys,
        now,
        verified: None,
    };
    let request = Request {
        method: &method,
        target: &target,
        headers: &refs,
        body: body.as_bytes(),
    };
    recorded(&fixture.binding.respond_at(&request, &trust, &mut Direct))
}

/// Every token the jwt build accepts (a vector that sends one and
/// expects 200) is refused exactly as the jwt build refuses a token it
/// finds invalid: the recorded response of the vector whose expectation
/// names the `invalid_token` challenge.
#[test]
fn every_token_the_jwt_build_accepts_is_refused_as_invalid() {
    let fixture = fixture();
    let vectors = vectors();
    let invalid = vectors
        .iter()
        .find(|v| v["expect"]["challenge"]["error"] == "invalid_token")
        .unwrap_or_else(|| panic!("{AUTH_VECTORS}: no vector expects invalid_token"));
    let refused = &invalid["response"];
    assert_eq!(refused["status"], invalid["expect"]["status"]);
    let accepted: Vec<&Value> = vectors
        .iter()
        .filter(|v| v["expect"]["status"] == 200 && sends_a_token(v))
        .collect();
    assert!(!accepted.is_empty(), "{AUTH_VECTORS}: no accepted token");
    for vector in accepted {
        assert_eq!(
            answer(&fixture, vector),
            *refused,
            "{}: a build without jwt accepted or answered otherwise",
            vector["id"]
        );
    }
}

/// The binding itself is the jwt build's: every exchange without a token
/// (the metadata documents, the challenges of row A3) is answered byte
/// for byte as recorded, so the refusals above are the signature's.
#[test]
fn what_needs_no_token_is_answered_as_the_jwt_build_answers() {
    let fixture = fixture();
    let without: Vec<Value> = vectors()
        .into_iter()
        .filter(|v| !sends_a_token(v))
        .collect();
    assert!(
        !without.is_empty(),
        "{AUTH_VECTORS}: every vector sends a token"
    );
    for vector in &without {
        assert_eq!(
            answer(&fixture, vector),
            vector["response"],
            "{}",
            vector["id"]
        );
    }
}

/// Whether a configuration document's input-required tools or prompts
/// issue state (`"state": true`).
fn issues_state(document: &Value) -> bool {
    ["tools", "prompts"].iter().any(|list| {
        document["input_required"][list]
            .as_array()
            .into_iter()
            .flatten()
            .any(|t| t["state"] == true)
    })
}

/// `data/conformance.json` issues state: refused, in one sentence that
/// names the feature; the same document without the targets that issue
/// state loads, so the refusal is the state's and nothing else's.
#[test]
fn a_configuration_that_issues_state_is_refused_naming_the_feature() {
    let relative = "data/conformance.json";
    let bytes = read(relative);
    let mut document: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert!(issues_state(&document), "{relative} issues no state");
    let refusal = match Config::from_json(&bytes) {
        Ok(_) => panic!("{relative} loaded in a build without the state feature"),
        Err(e) => e.to_string(),
    };
    assert!(
        refusal.contains("state feature") && refusal.lines().count() == 1,
        "{refusal}"
    );
    for list in ["tools", "prompts"] {
        if let Some(targets) = document["input_required"][list].as_array_mut() {
            targets.retain(|t| t["state"] != true);
        }
    }
    assert!(!issues_state(&document));
    if let Err(e) = Config::from_json(document.to_string().as_bytes()) {
        panic!("{relative} without state: {e}");
    }
}

/// Every other configuration of the repository (the catalog example and
/// the vectors' fixtures) issues no state and loads.
#[test]
fn every_configuration_that_issues_no_state_loads() {
    let mut files = vec!["data/config.example.json".to_owned()];
    let dir = repository().join("vectors/configs");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".json") {
            files.push(format!("vectors/configs/{name}"));
        }
    }
    let mut loaded = 0;
    for relative in &files {
        let bytes = read(relative);
        let document: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{e}"));
        if !issues_state(&document) {
            load(relative);
            loaded += 1;
        }
    }
    assert!(loaded > 1, "{files:?}");
}
