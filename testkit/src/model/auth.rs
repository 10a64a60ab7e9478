//! The model of the authorization step of the HTTP binding (rows A1 to A9
//! of `docs/behavior.md`, "Authorization (Streamable HTTP)"): given the
//! configuration, where the server listens, the issuer's JWK Set, the
//! time and one HTTP request, the refusal the binding must answer (status,
//! challenge, `allow`, metadata document) or the user the request is
//! answered as, with the rest of the binding's answer from [`super::http`]
//! under that user.
//!
//! Written from the rows, not from `src/http/auth.rs`: its own header
//! reading, its own token parsing and claim checks, the HTTP model's
//! Base64 decoder, and RustCrypto's `p256` and `rsa` for the signature
//! arithmetic alone. Like the rest of the model it shares only the
//! `Config` data with the server.

use mcp_reference::{Config, OAuthSettings};
use serde_json::{Value, json};

use super::http::{HttpExpect, HttpRequest, Listen, base64, expect_http};

/// The well-known prefix of RFC 9728 (row A1).
const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// What the binding must answer.
#[derive(Debug, Clone, PartialEq)]
pub enum AuthExpect {
    /// Refused by the authorization step, or the metadata document.
    Step {
        /// `A1` to `A6`.
        row: &'static str,
        /// The status.
        status: u16,
        /// The `www-authenticate` value, exactly.
        challenge: Option<String>,
        /// The `allow` value.
        allow: Option<&'static str>,
        /// The metadata document (A1 `GET`), compared as JSON.
        document: Option<Value>,
    },
    /// Past the step (or before it: H1 to H4), answered as `user` by the
    /// HTTP model (`None`: the configuration's user).
    Binding {
        /// The user, when a token chose it.
        user: Option<String>,
        /// The configuration the HTTP model answered under.
        config: Box<Config>,
        /// The binding's answer.
        http: HttpExpect,
    },
}

impl AuthExpect {
    /// The deciding row: `A1` to `A6`; `A7` for a body the core answered
    /// as the token's user; else the HTTP row.
    pub fn row(&self) -> &'static str {
        match self {
            AuthExpect::Step { row, .. } => row,
            AuthExpect::Binding {
                user: Some(_),
                http,
                ..
            } if matches!(http.row, "H15" | "H17") => "A7",
            AuthExpect::Binding { http, .. } => http.row,
        }
    }

    /// Whether the request may run a tool at all (never when refused).
    pub fn http(&self) -> Option<&HttpExpect> {
        match self {
            AuthExpect::Binding { http, .. } => Some(http),
            AuthExpect::Step { .. } => None,
        }
    }

    /// Checks a response: status, headers (lowercase names), body, and the
    /// `www-authenticate` challenge.
    pub fn check(
        &self,
        status: u16,
        headers: &[(&str, &str)],
        body: &[u8],
        challenge: Option<&str>,
    ) -> Result<(), String> {
        let get = |name: &str| headers.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        match self {
            AuthExpect::Binding { config, http, .. } => {
                if challenge.is_some() {
                    return Err(format!("row {}: a challenge {challenge:?}", http.row));
                }
                http.check(config, status, headers, body)
            }
            AuthExpect::Step {
                row,
                status: want,
                challenge: want_challenge,
                allow,
                document,
            } => {
                let got = (status, challenge, get("allow"));
                let want_got = (*want, want_challenge.as_deref(), *allow);
                if got != want_got {
                    return Err(format!("row {row}: got {got:?}, expected {want_got:?}"));
                }
                match document {
                    Some(doc) => {
                        let parsed: Value = serde_json::from_slice(body)
                            .map_err(|e| format!("row {row}: the document is no JSON: {e}"))?;
                        if parsed != *doc || get("content-type") != Some("application/json") {
                            return Err(format!("row {row}: document {parsed}, expected {doc}"));
                        }
                        Ok(())
                    }
                    None if body.is_empty() => Ok(()),
                    None => Err(format!("row {row}: a body where none is due")),
                }
            }
        }
    }
}

/// The settings, when authorization is on.
pub fn settings(config: &Config) -> Option<&OAuthSettings> {
    config.http().authorization.as_ref()?.oauth()
}

/// `(origin, path)` of the resource URL.
fn split(resource: &str) -> (&str, &str) {
    let scheme = resource.find("://").map_or(0, |i| i + 3);
    let slash = resource[scheme..]
        .find('/')
        .map_or(resource.len(), |i| scheme + i);
    (&resource[..slash], &resource[slash..])
}

/// The `resource_metadata` URL of a challenge.
pub fn metadata_url(settings: &OAuthSettings) -> String {
    let (origin, path) = split(&settings.resource);
    let path = if path == "/" { "" } else { path };
    format!("{origin}{WELL_KNOWN}{path}")
}

/// The challenge of row A3 (no error), A4, A5 or A6.
pub fn challenge(settings: &OAuthSettings, error: Option<&str>) -> String {
    let mut params = Vec::new();
    if let Some(error) = error {
        params.push(format!("error=\"{error}\""));
    }
    if !settings.scopes.is_empty() && error != Some("invalid_request") {
        params.push(format!("scope=\"{}\"", settings.scopes.join(" ")));
    }
    params.push(format!("resource_metadata=\"{}\"", metadata_url(settings)));
    format!("Bearer {}", params.join(", "))
}

fn step(row: &'static str, status: u16, challenge: Option<String>) -> AuthExpect {
    AuthExpect::Step {
        row,
        status,
        challenge,
        allow: None,
        document: None,
    }
}

/// The binding's answer to `request` with `jwks` at `now`.
pub fn expect_auth(
    config: &Config,
    listen: Listen,
    jwks: &Value,
    now: u64,
    request: &HttpRequest,
) -> AuthExpect {
    let as_config = |user: Option<String>, config: Config| AuthExpect::Binding {
        http: expect_http(&config, listen, request),
        config: Box::new(config),
        user,
    };
    // A9: off.
    let Some(settings) = settings(config) else {
        return as_config(None, config.clone());
    };
    // A1, A2: the metadata paths, before anything else.
    let path = request.target.split('?').next().unwrap_or_default();
    let (_, resource_path) = split(&settings.resource);
    let inserted = format!("{WELL_KNOWN}{resource_path}");
    if path == WELL_KNOWN || (resource_path != "/" && path == inserted) {
        return match request.method.as_str() {
            "GET" | "HEAD" => {
                let mut doc = json!({
                    "resource": settings.resource,
                    "authorization_servers": [settings.issuer],
                    "bearer_methods_supported": ["header"],
                });
                if !settings.scopes.is_empty() {
                    doc["scopes_supported"] = json!(settings.scopes);
                }
                AuthExpect::Step {
                    row: "A1",
                    status: 200,
                    challenge: None,
                    allow: None,
                    document: (request.method == "GET").then_some(doc),
                }
            }
            _ => AuthExpect::Step {
                row: "A2",
                status: 405,
                challenge: None,
                allow: Some("GET, HEAD"),
                document: None,
            },
        };
    }
    // H1 to H4 first (DEC31): what the HTTP model answers there.
    let before = expect_http(config, listen, request);
    if matches!(before.row, "H1" | "H2" | "H3" | "H4") {
        return as_config(None, config.clone());
    }
    // A3, A4.
    let values: Vec<&[u8]> = request
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("Authorization"))
        .map(|(_, v)| v.as_slice())
        .collect();
    let token = match values.as_slice() {
        [] => return step("A3", 401, Some(challenge(settings, None))),
        [one] => match bearer(one) {
            Bearer::Other => return step("A3", 401, Some(challenge(settings, None))),
            Bearer::Bad => {
                return step(
                    "A4",
                    400,
                    Some(challenge(settings, Some("invalid_request"))),
                );
            }
            Bearer::Token(t) => t,
        },
        _ => {
            return step(
                "A4",
                400,
                Some(challenge(settings, Some("invalid_request"))),
            );
        }
    };
    // A5.
    let Some(claims) = valid(settings, jwks, now, &token) else {
        return step("A5", 401, Some(challenge(settings, Some("invalid_token"))));
    };
    // A6.
    let granted: Vec<&str> = claims
        .get("scope")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .split(' ')
        .collect();
    if settings
        .scopes
        .iter()
        .any(|s| !granted.contains(&s.as_str()))
    {
        return step(
            "A6",
            403,
            Some(challenge(settings, Some("insufficient_scope"))),
        );
    }
    // A7 and DEC36: the claim, mapped; else the claim itself, unless the
    // token's client acts for itself (`sub` equal to `client_id`): then no
    // user. A user without orders, or no user, sees none.
    let claimed = claims
        .get(&settings.user_claim)
        .and_then(Value::as_str)
        .unwrap_or_default();
    let sub = claims.get("sub").and_then(Value::as_str);
    let client_itself = sub.is_some() && claims.get("client_id").and_then(Value::as_str) == sub;
    let user = match settings.users.get(claimed) {
        Some(user) => user.clone(),
        None if client_itself => nobody(config),
        None => claimed.to_owned(),
    };
    let answering = if config.orders().iter().any(|o| o.owner == user) {
        user.clone()
    } else {
        nobody(config)
    };
    let as_user = config.clone().with_user(answering).unwrap_or_default();
    as_config(Some(user), as_user)
}

/// A user name that owns no order of the configuration.
pub fn nobody(config: &Config) -> String {
    let mut name = String::from("nobody");
    while config.orders().iter().any(|o| o.owner == name) {
        name.push('_');
    }
    name
}

enum Bearer {
    /// Another scheme.
    Other,
    /// `Bearer` without one token68.
    Bad,
    /// The token.
    Token(String),
}

fn bearer(value: &[u8]) -> Bearer {
    let text = String::from_utf8_lossy(value);
    let text = text.trim_matches(|c: char| c.is_ascii_whitespace());
    let (scheme, rest) = text.split_once(' ').unwrap_or((text, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Bearer::Other;
    }
    let token = rest.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let stem = token.trim_end_matches('=');
    let ok = !stem.is_empty()
        && value.is_ascii()
        && stem
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._~+/".contains(c));
    if ok {
        Bearer::Token(token.to_owned())
    } else {
        Bearer::Bad
    }
}

/// Base64url without padding, canonical, through the HTTP model's strict
/// standard decoder.
fn base64url(part: &str) -> Option<Vec<u8>> {
    if part.contains(['+', '/', '=']) || part.len() % 4 == 1 {
        return None;
    }
    let mut standard: String = part
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    while !standard.len().is_multiple_of(4) {
        standard.push('=');
    }
    base64(&standard)
}

/// The claims of a token that passes every check of row A5, else `None`.
pub fn valid(settings: &OAuthSettings, jwks: &Value, now: u64, token: &str) -> Option<Value> {
    let parts: Vec<&str> = token.split('.').collect();
    let [h, c, s] = parts.as_slice() else {
        return None;
    };
    let object = |part: &str| {
        let v: Value = serde_json::from_slice(&base64url(part)?).ok()?;
        v.is_object().then_some(v)
    };
    let header = object(h)?;
    let claims = object(c)?;
    let signature = base64url(s)?;
    let typ = header.get("typ")?.as_str()?.to_ascii_lowercase();
    if typ != "at+jwt" && typ != "application/at+jwt" {
        return None;
    }
    let alg = header.get("alg")?.as_str()?;
    if !settings.algorithms.iter().any(|a| a == alg) || header.get("crit").is_some() {
        return None;
    }
    let fits = |k: &Value| {
        let kty = k.get("kty").and_then(Value::as_str);
        let crv = k.get("crv").and_then(Value::as_str);
        let kind = match alg {
            "RS256" => kty == Some("RSA"),
            "ES256" => kty == Some("EC") && crv == Some("P-256"),
            _ => false,
        };
        let own_alg = k.get("alg").is_none_or(|a| a.as_str() == Some(alg));
        let usage = k.get("use").is_none_or(|u| u.as_str() == Some("sig"));
        kind && own_alg && usage
    };
    let keys = jwks.get("keys")?.as_array()?;
    let key: &Value = match header.get("kid") {
        Some(Value::String(kid)) => keys
            .iter()
            .filter(|k| k.get("use").is_none_or(|u| u.as_str() == Some("sig")))
            .find(|k| k.get("kid").and_then(Value::as_str) == Some(kid))
            .filter(|k| fits(k))?,
        Some(_) => return None,
        None => {
            let fitting: Vec<&Value> = keys.iter().filter(|k| fits(k)).collect();
            match fitting.as_slice() {
                [one] => one,
                _ => return None,
            }
        }
    };
    let message = format!("{h}.{c}");
    if !signature_holds(alg, key, message.as_bytes(), &signature) {
        return None;
    }
    // Claims.
    if claims.get("iss")?.as_str()? != settings.issuer {
        return None;
    }
    let aud_ok = match claims.get("aud")? {
        Value::String(a) => *a == settings.resource,
        Value::Array(list) => list.iter().any(|a| a.as_str() == Some(&settings.resource)),
        _ => false,
    };
    let leeway = settings.leeway_s as f64;
    let now = now as f64;
    let exp = claims.get("exp")?.as_f64()?;
    let nbf_ok = claims
        .get("nbf")
        .is_none_or(|n| n.as_f64().is_some_and(|n| n <= now + leeway));
    let text = |name: &str| {
        claims
            .get(name)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    let ok = aud_ok
        && now < exp + leeway
        && nbf_ok
        && text("sub").is_some()
        && text(&settings.user_claim).is_some();
    ok.then_some(claims)
}

/// The signature arithmetic of RFC 7518 sections 3.3 and 3.4 for one JWK.
fn signature_holds(alg: &str, jwk: &Value, message: &[u8], signature: &[u8]) -> bool {
    let field = |name: &str| jwk.get(name).and_then(Value::as_str).and_then(base64url);
    match alg {
        "RS256" => {
            use rsa::signature::Verifier as _;
            let (Some(n), Some(e)) = (field("n"), field("e")) else {
                return false;
            };
            let Ok(key) = rsa::PublicKey::new(
                rsa::BoxedUint::from_be_slice_vartime(&n),
                rsa::BoxedUint::from_be_slice_vartime(&e),
            ) else {
                return false;
            };
            let Ok(sig) = rsa::pkcs1v15::Signature::try_from(signature) else {
                return false;
            };
            rsa::pkcs1v15::VerifyingKey::<rsa::sha2::Sha256>::new(key)
                .verify(message, &sig)
                .is_ok()
        }
        "ES256" => {
            use p256::ecdsa::signature::Verifier as _;
            let (Some(x), Some(y)) = (field("x"), field("y")) else {
                return false;
            };
            if x.len() != 32 || y.len() != 32 {
                return false;
            }
            let point = [&[4u8][..], &x, &y].concat();
            let (Ok(key), Ok(sig)) = (
                p256::ecdsa::VerifyingKey::from_sec1_bytes(&point),
                p256::ecdsa::Signature::from_slice(signature),
            ) else {
                return false;
            };
            key.verify(message, &sig).is_ok()
        }
        _ => false,
    }
}
