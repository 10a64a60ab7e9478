//! Authorization, pure: the binding's step that turns the configuration,
//! the issuer's verification keys, the current time and one request into
//! the user whose orders the core shows, or the response that refuses it
//! (rows A1 to A9 of docs/behavior.md, "Authorization"). The driver owns
//! every input that needs I/O or a clock: it fetches the keys and passes
//! the time ([`Trust`]).
//!
//! | step | rule | rows |
//! | --- | --- | --- |
//! | metadata | `GET`/`HEAD` at the path-inserted or root well-known URL: the Protected Resource Metadata, no token; other methods 405 | A1, A2 |
//! | (H1 to H4 of the binding) | path, method, `Origin`, `Host`: refused with no challenge | DEC31 |
//! | credentials | no `Authorization` header, or a scheme other than `Bearer`: 401, challenge without `error` | A3 |
//! | syntax | two `Authorization` headers, or `Bearer` without one token68: 400 `invalid_request` | A4 |
//! | token | a JWT access token (RFC 9068) that passes every check of [`verify`]: else 401 `invalid_token` | A5 |
//! | scope | every configured scope in the token's `scope`: else 403 `insufficient_scope` | A6 |
//! | user | the configured claim (`sub`), mapped through `users`, chooses whose orders are shown | A7 |
//!
//! A token is never echoed, logged or passed on: nothing of it reaches a
//! response, and the challenge never says which check failed (A8).
//!
//! Spec: 2026-07-28 `basic/authorization/index.mdx` ("Access Token Usage",
//! "Error Handling", "Scope Selection Strategy", "Scope Challenge
//! Handling"), `authorization-server-discovery.mdx` ("Protected Resource
//! Metadata Discovery Requirements"), `security-considerations.mdx`
//! ("Token Audience Binding and Validation", "Access Token Privilege
//! Restriction"); RFC 6750 section 3 and 3.1; RFC 9068 section 4; RFC 9728
//! sections 2, 3 and 5.1; RFC 7515 and RFC 7518 section 3.

use std::collections::BTreeMap;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Map, Value};

use super::jws::Material;
use super::{JSON, Request, Response};
use crate::config::Config;
use crate::config::auth::OAuthSettings;
use crate::server::Server;

/// The well-known path prefix of RFC 9728 section 3.
pub const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The inputs of the step that the driver owns: the issuer's keys, the
/// current time (seconds since the Unix epoch), and what its cache of
/// verified tokens knows of this request's token.
#[derive(Debug, Clone, Copy)]
pub struct Trust<'a> {
    /// The verification keys.
    pub keys: &'a Keys,
    /// Now, in seconds since 1970-01-01T00:00:00Z.
    pub now: u64,
    /// The identity this binding returned earlier for the very token the
    /// request carries (the driver's cache, keyed by the token): used
    /// instead of verifying the token again while `now` is before its
    /// `expires`, never after (so a cached token expires no later than
    /// the token does).
    pub verified: Option<&'a Identity>,
}

/// No keys at all: with authorization on, every token is refused.
pub static NO_KEYS: Keys = Keys { keys: Vec::new() };

/// A request the step admitted: the core server that answers it, and the
/// identity of a token verified just now (for the driver's cache; `None`
/// without authorization, or when [`Trust::verified`] was used).
pub struct Admitted<'b> {
    /// The core server of the token's user.
    pub server: &'b Server,
    /// The identity to cache, with its expiry.
    pub identity: Option<Identity>,
}

/// One verification key of a JWK Set.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    kid: Option<String>,
    alg: Option<String>,
    material: Material,
}

/// Whether `alg` is the algorithm of `key`'s kind (`RS256` for an RSA
/// key, `ES256` for a P-256 one): no key serves another algorithm.
fn fits(key: &Material, alg: &str) -> bool {
    matches!(
        (key, alg),
        (Material::Rsa { .. }, "RS256") | (Material::P256(_), "ES256")
    )
}

/// The issuer's verification keys: the usable keys of a JWK Set (RFC
/// 7517). Keys of another type or curve, and keys whose `use` is not
/// `sig`, are left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Keys {
    keys: Vec<Key>,
}

impl Keys {
    /// Reads a JWK Set document.
    pub fn from_jwks(document: &Value) -> Result<Keys, String> {
        let list = document
            .get("keys")
            .and_then(Value::as_array)
            .ok_or_else(|| "a JWK Set is an object with a keys array".to_owned())?;
        let mut keys = Vec::new();
        for jwk in list {
            let text = |name: &str| jwk.get(name).and_then(Value::as_str);
            let bytes = |name: &str| text(name).and_then(|t| URL_SAFE_NO_PAD.decode(t).ok());
            if text("use").is_some_and(|u| u != "sig") {
                continue;
            }
            let material = match (text("kty"), text("crv")) {
                (Some("RSA"), _) => match (bytes("n"), bytes("e")) {
                    (Some(n), Some(e)) if !n.is_empty() && !e.is_empty() => Material::Rsa { n, e },
                    _ => continue,
                },
                (Some("EC"), Some("P-256")) => match (bytes("x"), bytes("y")) {
                    (Some(x), Some(y)) if x.len() == 32 && y.len() == 32 => {
                        Material::P256([&[4u8][..], &x, &y].concat())
                    }
                    _ => continue,
                },
                _ => continue,
            };
            keys.push(Key {
                kid: text("kid").map(str::to_owned),
                alg: text("alg").map(str::to_owned),
                material,
            });
        }
        Ok(Keys { keys })
    }

    /// How many usable keys there are.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Whether a key has this `kid` (what a driver asks before it
    /// refetches the set on an unknown `kid`).
    pub fn knows(&self, kid: &str) -> bool {
        self.keys.iter().any(|k| k.kid.as_deref() == Some(kid))
    }

    /// The key for a token's header: by `kid`, or, without one, the only
    /// key that fits the algorithm (DEC33).
    fn select(&self, kid: Option<&str>, alg: &str) -> Option<&Material> {
        let fits = |k: &&Key| fits(&k.material, alg) && k.alg.as_deref().is_none_or(|a| a == alg);
        match kid {
            Some(kid) => self
                .keys
                .iter()
                .find(|k| k.kid.as_deref() == Some(kid))
                .filter(fits)
                .map(|k| &k.material),
            None => {
                let mut candidates = self.keys.iter().filter(fits);
                match (candidates.next(), candidates.next()) {
                    (Some(one), None) => Some(&one.material),
                    _ => None,
                }
            }
        }
    }
}

/// What a verified token says (A7): who issued it, its subject, and the
/// user whose orders it may read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// `iss`.
    pub issuer: String,
    /// `sub`.
    pub subject: String,
    /// The order owner it acts for: `None` when it acts for no user
    /// (DEC36: a client acting for itself that the configuration's `users`
    /// map does not list), and so reads no order.
    pub user: Option<String>,
    /// `exp`, in whole seconds (a driver's cache keeps it no longer).
    pub expires: u64,
    /// The token's scopes.
    pub scopes: Vec<String>,
}

/// Why a token was refused; never shown to the client (A8), only to the
/// unit tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejection {
    /// Not three Base64url parts, or a part that is not JSON.
    Malformed,
    /// `typ` is not `at+jwt` (RFC 9068 section 4).
    Type,
    /// `alg` is not one of the configured algorithms.
    Algorithm,
    /// A `crit` header: no extension is understood.
    Critical,
    /// No key for the `kid` (or, without a `kid`, not exactly one).
    Key,
    /// The signature does not verify.
    Signature,
    /// `iss` is not the configured issuer.
    Issuer,
    /// `aud` is missing or does not hold the resource.
    Audience,
    /// `exp` is missing, not a number, or past (with the leeway).
    Expired,
    /// `nbf` is not a number, or in the future (with the leeway).
    NotYet,
    /// `sub`, or the user claim, is missing or not a non-empty string.
    Subject,
}

/// Verifies one compact JWS access token at `now` (RFC 9068 section 4),
/// in this order: three Base64url parts; a JSON header with `typ`
/// `at+jwt` or `application/at+jwt`, an `alg` of the configured list, no
/// `crit`; the key by `kid`; the signature; JSON claims with `iss` equal to
/// the issuer, `aud` (a string or an array) holding the resource exactly,
/// `exp` a number with `now < exp + leeway`, `nbf` (when present) a number
/// with `nbf <= now + leeway`, and `sub` and the user claim non-empty
/// strings.
pub fn verify(
    settings: &OAuthSettings,
    keys: &Keys,
    now: u64,
    token: &str,
) -> Result<Identity, Rejection> {
    let mut parts = token.split('.');
    let (Some(h), Some(c), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(Rejection::Malformed);
    };
    let decode = |part: &str| {
        URL_SAFE_NO_PAD
            .decode(part)
            .map_err(|_| Rejection::Malformed)
    };
    let object = |bytes: &[u8]| match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(Rejection::Malformed),
    };
    let header = object(&decode(h)?)?;
    let claims = object(&decode(c)?)?;
    let signature = decode(s)?;
    let typ = header
        .get("typ")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let typ = typ.to_ascii_lowercase();
    if typ != "at+jwt" && typ != "application/at+jwt" {
        return Err(Rejection::Type);
    }
    let alg = header
        .get("alg")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !settings.algorithms.iter().any(|a| a == alg) {
        return Err(Rejection::Algorithm);
    }
    if header.contains_key("crit") {
        return Err(Rejection::Critical);
    }
    let kid = match header.get("kid") {
        None => None,
        Some(Value::String(kid)) => Some(kid.as_str()),
        Some(_) => return Err(Rejection::Key),
    };
    let key = keys.select(kid, alg).ok_or(Rejection::Key)?;
    let signed = &token.as_bytes()[..h.len() + 1 + c.len()];
    if !super::jws::verify(alg, key, signed, &signature) {
        return Err(Rejection::Signature);
    }
    check_claims(settings, now, &claims)
}

fn check_claims(
    settings: &OAuthSettings,
    now: u64,
    claims: &Map<String, Value>,
) -> Result<Identity, Rejection> {
    let text = |name: &str| claims.get(name).and_then(Value::as_str);
    if text("iss") != Some(settings.issuer.as_str()) {
        return Err(Rejection::Issuer);
    }
    let audience = match claims.get("aud") {
        Some(Value::String(aud)) => *aud == settings.resource,
        Some(Value::Array(list)) => list
            .iter()
            .any(|a| a.as_str() == Some(settings.resource.as_str())),
        _ => false,
    };
    if !audience {
        return Err(Rejection::Audience);
    }
    // NumericDate: a JSON number of seconds, fractions allowed. Compared
    // in f64, exact for every integer below 2^53.
    let now_f = now as f64;
    let leeway = settings.leeway_s as f64;
    let exp = claims
        .get("exp")
        .and_then(Value::as_f64)
        .filter(|e| e.is_finite())
        .ok_or(Rejection::Expired)?;
    if now_f >= exp + leeway {
        return Err(Rejection::Expired);
    }
    match claims.get("nbf") {
        None => {}
        Some(nbf) => match nbf.as_f64().filter(|n| n.is_finite()) {
            Some(nbf) if nbf <= now_f + leeway => {}
            _ => return Err(Rejection::NotYet),
        },
    }
    let subject = text("sub")
        .filter(|s| !s.is_empty())
        .ok_or(Rejection::Subject)?;
    let claimed = text(&settings.user_claim)
        .filter(|s| !s.is_empty())
        .ok_or(Rejection::Subject)?;
    // DEC36: whose orders. The map first; else the claim names the user,
    // unless the token has no resource owner (RFC 9068 section 2.2: a
    // client acting for itself carries its own id as `sub`, and
    // `client_id`): such a client acts for a user only through the map,
    // never by the accident of sharing a user's name.
    let client_itself = text("client_id") == Some(subject);
    let user = match settings.users.get(claimed) {
        Some(user) => Some(user.clone()),
        None if client_itself => None,
        None => Some(claimed.to_owned()),
    };
    let scopes = text("scope")
        .unwrap_or_default()
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    Ok(Identity {
        issuer: settings.issuer.clone(),
        subject: subject.to_owned(),
        user,
        // `exp` is finite and later than `now - leeway >= -300`.
        expires: exp.max(0.0) as u64,
        scopes,
    })
}

/// The `kid` a compact JWS's header names, if it can be read: what a
/// driver asks before it refetches the issuer's keys. Decides nothing.
pub fn kid_of(token: &str) -> Option<String> {
    let header = URL_SAFE_NO_PAD.decode(token.split('.').next()?).ok()?;
    let header: Value = serde_json::from_slice(&header).ok()?;
    Some(header.get("kid")?.as_str()?.to_owned())
}

/// A token68 (RFC 9110 section 11.2): `1*( ALPHA / DIGIT / "-" / "." /
/// "_" / "~" / "+" / "/" ) *"="`.
///
/// Every byte is judged, without stopping at the first that fails: the
/// loop has no branch, so it vectorizes (a 600-byte token in about 70 ns
/// where a byte-by-byte `all` took 450; the driver and the binding each
/// read the header once per request, docs/performance.md).
fn is_token68(value: &[u8]) -> bool {
    let body = value.iter().rposition(|&b| b != b'=').map_or(0, |i| i + 1);
    let chars = value.get(..body).unwrap_or_default();
    !chars.is_empty()
        && chars.iter().fold(true, |ok, &b| {
            ok & (b.is_ascii_alphanumeric() | matches!(b, b'-' | b'.' | b'_' | b'~' | b'+' | b'/'))
        })
}

/// What the `Authorization` headers of a request hold (A3, A4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credentials<'r> {
    /// None, or a scheme other than `Bearer`.
    Absent,
    /// More than one header, or `Bearer` without exactly one token68.
    Malformed,
    /// One bearer token.
    Bearer(&'r str),
}

/// Reads the `Authorization` headers. Nothing else of the request (its
/// query string, its body) is ever read as a token.
pub fn credentials<'r>(request: &Request<'r>) -> Credentials<'r> {
    let mut values = request
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("authorization"))
        .map(|(_, v)| *v);
    let value = match (values.next(), values.next()) {
        (None, _) => return Credentials::Absent,
        (Some(_), Some(_)) => return Credentials::Malformed,
        (Some(v), None) => v.trim_ascii(),
    };
    let mut parts = value.splitn(2, |&b| b == b' ');
    let scheme = parts.next().unwrap_or_default();
    if !scheme.eq_ignore_ascii_case(b"bearer") {
        return Credentials::Absent;
    }
    let token = parts.next().unwrap_or_default().trim_ascii_start();
    match std::str::from_utf8(token) {
        Ok(token) if is_token68(token.as_bytes()) => Credentials::Bearer(token),
        _ => Credentials::Malformed,
    }
}

/// The binding's authorization state: the settings, the rendered metadata
/// document and challenges, and one core server per user a token may name.
pub(crate) struct Guard {
    settings: OAuthSettings,
    metadata: Vec<u8>,
    paths: Vec<String>,
    url: String,
    servers: BTreeMap<String, Server>,
    nobody: Server,
}

impl Guard {
    /// The guard for `config`, when authorization is on.
    pub(crate) fn new(config: &Config) -> Option<Guard> {
        let settings = config.http().authorization.as_ref()?.oauth()?.clone();
        let (origin, path) = settings.resource_parts()?;
        let url = format!(
            "{origin}{WELL_KNOWN}{}",
            if path == "/" { "" } else { path }
        );
        let mut paths = vec![WELL_KNOWN.to_owned()];
        if path != "/" {
            paths.insert(0, format!("{WELL_KNOWN}{path}"));
        }
        let metadata = metadata(&settings);
        let mut users: Vec<&str> = config.orders().iter().map(|o| o.owner.as_str()).collect();
        users.extend(settings.users.values().map(String::as_str));
        users.sort_unstable();
        users.dedup();
        let as_user = |user: &str| config.clone().with_user(user).ok().map(Server::new);
        let servers = users
            .iter()
            .filter_map(|u| Some((u.to_string(), as_user(u)?)))
            .collect();
        // A user who owns no order: every order is "not yours" (DEC12).
        let mut none = String::from("-");
        while users.contains(&none.as_str()) {
            none.push('-');
        }
        let nobody = as_user(&none)?;
        Some(Guard {
            settings,
            metadata,
            paths,
            url,
            servers,
            nobody,
        })
    }

    /// A1, A2: the metadata document at its well-known paths, before any
    /// other check of the binding.
    pub(crate) fn metadata(&self, request: &Request<'_>) -> Option<Response> {
        let path = request.target.split('?').next().unwrap_or_default();
        if !self.paths.iter().any(|p| p == path) {
            return None;
        }
        Some(match request.method {
            "GET" => Response {
                headers: &[("content-type", JSON)],
                body: self.metadata.clone(),
                ..Response::empty(200)
            },
            "HEAD" => Response {
                headers: &[("content-type", JSON)],
                ..Response::empty(200)
            },
            _ => Response {
                headers: &[("allow", "GET, HEAD")],
                ..Response::empty(405)
            },
        })
    }

    /// A3 to A7: the core server that answers as the token's user, or the
    /// refusal.
    pub(crate) fn authenticate(
        &self,
        request: &Request<'_>,
        trust: &Trust<'_>,
    ) -> Result<Admitted<'_>, Response> {
        let token = match credentials(request) {
            Credentials::Absent => return Err(self.challenge(401, None)),
            Credentials::Malformed => return Err(self.challenge(400, Some("invalid_request"))),
            Credentials::Bearer(token) => token,
        };
        if let Some(known) = trust.verified.filter(|id| trust.now < id.expires) {
            let server = self.admit(known)?;
            return Ok(Admitted {
                server,
                identity: None,
            });
        }
        let identity = verify(&self.settings, trust.keys, trust.now, token)
            .map_err(|_| self.challenge(401, Some("invalid_token")))?;
        let server = self.admit(&identity)?;
        Ok(Admitted {
            server,
            identity: Some(identity),
        })
    }

    /// A6, A7 for a verified identity (what a driver's cache of verified
    /// tokens hands back).
    pub(crate) fn admit(&self, identity: &Identity) -> Result<&Server, Response> {
        let granted = |s: &String| identity.scopes.iter().any(|g| g == s);
        if !self.settings.scopes.iter().all(granted) {
            return Err(self.challenge(403, Some("insufficient_scope")));
        }
        Ok(identity
            .user
            .as_ref()
            .and_then(|user| self.servers.get(user))
            .unwrap_or(&self.nobody))
    }

    /// The `WWW-Authenticate` challenge (RFC 6750 section 3): `error` first
    /// when there is one, then `scope` (when scopes are configured) and
    /// `resource_metadata`; never an `error_description`.
    fn challenge(&self, status: u16, error: Option<&str>) -> Response {
        let mut value = String::from("Bearer ");
        if let Some(error) = error {
            value.push_str(&format!("error=\"{error}\", "));
        }
        if !self.settings.scopes.is_empty() && status != 400 {
            value.push_str(&format!("scope=\"{}\", ", self.settings.scopes.join(" ")));
        }
        value.push_str(&format!("resource_metadata=\"{}\"", self.url));
        Response {
            challenge: Some(value),
            ..Response::empty(status)
        }
    }

    /// The settings it enforces.
    #[cfg(test)]
    pub(crate) fn settings(&self) -> &OAuthSettings {
        &self.settings
    }
}

/// The Protected Resource Metadata document (RFC 9728 section 2):
/// `resource`, `authorization_servers`, `scopes_supported` (when scopes
/// are configured) and `bearer_methods_supported: ["header"]`.
fn metadata(settings: &OAuthSettings) -> Vec<u8> {
    let string = |s: &str| Value::String(s.to_owned()).to_string();
    let mut out = format!(
        "{{\"resource\":{},\"authorization_servers\":[{}]",
        string(&settings.resource),
        string(&settings.issuer)
    );
    if !settings.scopes.is_empty() {
        let scopes: Vec<String> = settings.scopes.iter().map(|s| string(s)).collect();
        out.push_str(&format!(",\"scopes_supported\":[{}]", scopes.join(",")));
    }
    out.push_str(",\"bearer_methods_supported\":[\"header\"]}");
    out.into_bytes()
}

#[cfg(test)]
#[path = "auth_tests.rs"]
mod tests;
