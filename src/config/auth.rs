//! The `http.authorization` member of a configuration file: whether the
//! Streamable HTTP binding is an OAuth 2.1 protected resource, and with
//! which issuer, resource, algorithms, scopes and user mapping (rows A1 to
//! A9 of docs/behavior.md, "Authorization"). Validated once, at load.
//!
//! Off by default: without the member the binding authenticates no one and
//! the user is the launch configuration's (DEC29); stdio never reads it
//! (AUTH-01). `"authorization": "none"` says in so many words that a
//! non-loopback `serve --http` serves unauthenticated (DEC34).
//!
//! Spec: 2026-07-28 `basic/authorization/index.mdx` ("Access Token
//! Usage", "Refresh Tokens": no `offline_access`), RFC 9068 (JWT access
//! tokens), RFC 9728 (Protected Resource Metadata).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{ConfigError, invalid};

/// The algorithms the binding can verify. `none` and the HMAC family are
/// refused in the configuration: an HMAC keyed with an issuer's public key
/// is the classic forgery (DEC32).
pub const SUPPORTED_ALGORITHMS: &[&str] = &["RS256", "ES256"];

/// `http.authorization`: either the word `"none"` or the settings.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Authorization {
    /// `"none"`: serve unauthenticated, said in so many words (the only
    /// word accepted).
    Word(String),
    /// The server is an OAuth 2.1 protected resource.
    OAuth(Box<OAuthSettings>),
}

impl Authorization {
    /// The OAuth settings, when authorization is on.
    pub fn oauth(&self) -> Option<&OAuthSettings> {
        match self {
            Authorization::OAuth(settings) => Some(settings),
            Authorization::Word(_) => None,
        }
    }
}

/// The protected resource's settings.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OAuthSettings {
    /// The canonical MCP URL (`https://mcp.example.com/mcp`): the `resource`
    /// of the metadata document, byte for byte, and the audience a token
    /// must name exactly. Its path is `http.endpoint`.
    pub resource: String,
    /// The authorization server's issuer identifier: a token's `iss` must
    /// equal it exactly.
    pub issuer: String,
    /// The signature algorithms accepted (default `["RS256", "ES256"]`).
    #[serde(default = "default_algorithms")]
    pub algorithms: Vec<String>,
    /// The scopes every request needs, also `scopes_supported` (default
    /// `["orders:read"]`; never `offline_access`).
    #[serde(default = "default_scopes")]
    pub scopes: Vec<String>,
    /// Seconds of clock skew allowed on `exp` and `nbf` (default 30, at
    /// most 300).
    #[serde(default = "default_leeway")]
    pub leeway_s: u64,
    /// The claim that names the user (default `sub`).
    #[serde(default = "default_user_claim")]
    pub user_claim: String,
    /// Claim value -> order owner. A value not listed is the owner's name
    /// itself, except in a token of a client acting for itself (`sub`
    /// equal to `client_id`, RFC 9068 section 2.2), which acts for no user
    /// unless listed here (DEC36).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub users: BTreeMap<String, String>,
    /// The issuer's verification keys (a JWK Set), when fixed in the
    /// configuration; else the driver fetches them from the issuer's
    /// `jwks_uri`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jwks: Option<serde_json::Value>,
}

fn default_algorithms() -> Vec<String> {
    SUPPORTED_ALGORITHMS.iter().map(|a| a.to_string()).collect()
}

fn default_scopes() -> Vec<String> {
    vec!["orders:read".to_owned()]
}

fn default_leeway() -> u64 {
    30
}

fn default_user_claim() -> String {
    "sub".to_owned()
}

impl OAuthSettings {
    /// Settings with every default: `resource` and `issuer` given.
    pub fn new(resource: impl Into<String>, issuer: impl Into<String>) -> OAuthSettings {
        OAuthSettings {
            resource: resource.into(),
            issuer: issuer.into(),
            algorithms: default_algorithms(),
            scopes: default_scopes(),
            leeway_s: default_leeway(),
            user_claim: default_user_claim(),
            users: BTreeMap::new(),
            jwks: None,
        }
    }

    /// The resource URL split as `(origin, path)`: `https://h:1/mcp` is
    /// `("https://h:1", "/mcp")`. Valid settings always split.
    pub fn resource_parts(&self) -> Option<(&str, &str)> {
        let rest = self
            .resource
            .strip_prefix("https://")
            .or_else(|| self.resource.strip_prefix("http://"))?;
        let slash = rest.find('/')?;
        let cut = self.resource.len() - rest.len() + slash;
        Some((&self.resource[..cut], &self.resource[cut..]))
    }
}

/// An RFC 6749 scope token: `%x21 / %x23-5B / %x5D-7E`, at least one.
fn is_scope_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b == 0x21 || (0x23..=0x5b).contains(&b) || (0x5d..=0x7e).contains(&b))
}

/// A URL this module accepts: `http` or `https`, no userinfo, query,
/// fragment, whitespace or quote.
fn is_plain_url(s: &str) -> bool {
    let Some(rest) = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
    else {
        return false;
    };
    let host = rest.split('/').next().unwrap_or_default();
    !host.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_graphic() && !b"?#\"\\@".contains(&b))
}

/// Validates `http.authorization` against the endpoint path.
pub(super) fn check(auth: &Authorization, endpoint: &str) -> Result<(), ConfigError> {
    let settings = match auth {
        Authorization::Word(word) if word == "none" => return Ok(()),
        Authorization::Word(word) => {
            return Err(invalid(format!(
                "http.authorization is {word:?}: it must be \"none\" or an object with resource and issuer"
            )));
        }
        Authorization::OAuth(settings) => settings,
    };
    if !is_plain_url(&settings.resource) {
        return Err(invalid(format!(
            "http.authorization.resource {:?} is not an http or https URL without query or fragment, such as https://mcp.example.com/mcp",
            settings.resource
        )));
    }
    match settings.resource_parts() {
        Some((_, path)) if path == endpoint => {}
        _ => {
            return Err(invalid(format!(
                "http.authorization.resource {:?} must end with the endpoint path {endpoint:?}",
                settings.resource
            )));
        }
    }
    if !is_plain_url(&settings.issuer) {
        return Err(invalid(format!(
            "http.authorization.issuer {:?} is not an http or https URL without query or fragment",
            settings.issuer
        )));
    }
    if settings.algorithms.is_empty() {
        return Err(invalid(
            "http.authorization.algorithms must name at least one algorithm",
        ));
    }
    for alg in &settings.algorithms {
        if !SUPPORTED_ALGORITHMS.contains(&alg.as_str()) {
            return Err(invalid(format!(
                "http.authorization.algorithms names {alg:?}: only {} are accepted (never none, never HMAC)",
                SUPPORTED_ALGORITHMS.join(" and ")
            )));
        }
    }
    for scope in &settings.scopes {
        if !is_scope_token(scope) {
            return Err(invalid(format!(
                "http.authorization.scopes holds {scope:?}, which is not an OAuth scope token"
            )));
        }
        if scope == "offline_access" {
            return Err(invalid(
                "http.authorization.scopes must not hold offline_access: refresh tokens are no resource requirement",
            ));
        }
    }
    if settings.leeway_s > 300 {
        return Err(invalid("http.authorization.leeway_s must be at most 300"));
    }
    if settings.user_claim.is_empty() {
        return Err(invalid("http.authorization.user_claim must not be empty"));
    }
    if settings.users.values().any(String::is_empty) {
        return Err(invalid(
            "http.authorization.users maps a claim to an empty user",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oauth(f: impl FnOnce(&mut OAuthSettings)) -> Authorization {
        let mut s = OAuthSettings::new("http://127.0.0.1:8080/mcp", "http://127.0.0.1:9000");
        f(&mut s);
        Authorization::OAuth(Box::new(s))
    }

    #[test]
    fn the_defaults_pass_and_split() {
        let a = oauth(|_| {});
        assert_eq!(check(&a, "/mcp"), Ok(()));
        assert_eq!(
            a.oauth().and_then(OAuthSettings::resource_parts),
            Some(("http://127.0.0.1:8080", "/mcp"))
        );
        assert_eq!(check(&Authorization::Word("none".into()), "/mcp"), Ok(()));
        // The leeway's bound is inclusive (301 is refused below).
        assert_eq!(check(&oauth(|s| s.leeway_s = 300), "/mcp"), Ok(()));
    }

    #[test]
    fn each_bad_setting_is_one_sentence() {
        let bad: Vec<(Authorization, &str)> = vec![
            (Authorization::Word("off".into()), "must be \"none\""),
            (oauth(|s| s.algorithms = vec!["none".into()]), "never none"),
            (oauth(|s| s.algorithms = vec!["HS256".into()]), "never HMAC"),
            (oauth(|s| s.algorithms.clear()), "at least one"),
            (
                oauth(|s| s.scopes.push("offline_access".into())),
                "offline_access",
            ),
            (oauth(|s| s.scopes.push("a b".into())), "scope token"),
            (
                oauth(|s| s.resource = "http://127.0.0.1:8080/other".into()),
                "endpoint path",
            ),
            (
                oauth(|s| s.resource = "http://h/mcp?x=1".into()),
                "without query",
            ),
            (
                oauth(|s| s.resource = "ftp://h/mcp".into()),
                "http or https",
            ),
            (oauth(|s| s.issuer = "issuer".into()), "issuer"),
            (oauth(|s| s.leeway_s = 301), "at most 300"),
            (oauth(|s| s.user_claim.clear()), "user_claim"),
        ];
        for (auth, needle) in bad {
            let e = check(&auth, "/mcp").expect_err(needle).to_string();
            assert!(e.contains(needle), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
