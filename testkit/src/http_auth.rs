//! The checks of one authenticated HTTP exchange, for the property tests
//! and the authorization fuzz target: the binding's response against the
//! model ([`crate::model::auth`]), the tools that ran against the ones the
//! model allows (none when the step refuses), and row A8: no part of a
//! token the request carried (its signature part, or all of it) in the
//! response's body, headers or challenge, beyond the values the
//! configuration publishes to anyone (a "token" may be a piece of those).

use mcp_reference::http::{Binding, Bound, Keys, Response, Trust};
use mcp_reference::{Config, Server};

use crate::fuzzing::Counting;
use crate::http::{as_request, header_refs, ran_as_allowed};
use crate::model::auth::{AuthExpect, expect_auth};
use crate::model::http::{HttpRequest, Listen};

/// A binding with authorization under test, with its keys.
pub struct AuthChecker {
    listen: Listen,
    jwks: serde_json::Value,
    keys: Keys,
    binding: Binding,
    config: Config,
}

impl AuthChecker {
    /// Prepares the checks for `config` at `listen`, the issuer's keys
    /// being `jwks`.
    pub fn new(config: &Config, listen: Listen, jwks: &serde_json::Value) -> AuthChecker {
        let bound = Bound {
            port: listen.port,
            loopback: listen.loopback,
        };
        AuthChecker {
            listen,
            jwks: jwks.clone(),
            keys: Keys::from_jwks(jwks).unwrap_or_default(),
            binding: Binding::new(Server::new(config.clone()), bound),
            config: config.clone(),
        }
    }

    /// Answers `request` at `now` and checks the response.
    pub fn check(&self, now: u64, request: &HttpRequest) -> Result<(AuthExpect, Response), String> {
        let headers = header_refs(request);
        let req = as_request(request, &headers);
        let mut ran = Counting::default();
        let trust = Trust {
            keys: &self.keys,
            now,
            verified: None,
        };
        let response = self.binding.respond_at(&req, &trust, &mut ran);
        let expect = expect_auth(&self.config, self.listen, &self.jwks, now, request);
        expect.check(
            response.status,
            response.headers,
            &response.body,
            response.challenge.as_deref(),
        )?;
        let body = expect.http().and_then(|h| h.body.as_ref());
        ran_as_allowed(body, &ran, expect.row())?;
        let public = published(&self.config);
        let shown = [
            mask(&response.body, &public),
            mask(
                response.challenge.as_deref().unwrap_or_default().as_bytes(),
                &public,
            ),
        ];
        for secret in secrets(request) {
            if shown.iter().any(|s| contains(s, secret.as_bytes())) {
                return Err(format!("row A8: the token's {secret:?} is in the response"));
            }
        }
        Ok((expect, response))
    }
}

/// What of a request's tokens must never be shown: each bearer value and
/// query token, and its signature part, when at least 16 characters (a
/// short fragment may occur by chance).
pub fn secrets(request: &HttpRequest) -> Vec<String> {
    let mut out = Vec::new();
    let mut add = |token: &str| {
        for piece in [token, token.rsplit('.').next().unwrap_or_default()] {
            if piece.len() >= 16 {
                out.push(piece.to_owned());
            }
        }
    };
    for (name, value) in &request.headers {
        if name.eq_ignore_ascii_case("authorization") {
            let text = String::from_utf8_lossy(value);
            add(text.split(' ').next_back().unwrap_or_default());
        }
    }
    if let Some((_, query)) = request.target.split_once("access_token=") {
        add(query);
    }
    out
}

/// What the configuration publishes to anyone, whatever the request
/// carried: the metadata URL and the resource, issuer and scopes the
/// document and every challenge name (A1, A3). A "token" that is a piece of
/// one of them (a fuzzer finds `1:8080/.well-known/oauth-protecte`) is in
/// every challenge without the server having echoed anything.
fn published(config: &Config) -> Vec<String> {
    let Some(settings) = crate::model::auth::settings(config) else {
        return Vec::new();
    };
    let mut out = vec![
        crate::model::auth::metadata_url(settings),
        settings.resource.clone(),
        settings.issuer.clone(),
        settings.scopes.join(" "),
    ];
    out.extend(settings.scopes.iter().cloned());
    out
}

/// `text` with every occurrence of each of `public` overwritten by `0xFF`,
/// a byte no UTF-8 text (so no secret) holds: what is left is what the
/// response says beyond the published values, where row A8 looks.
fn mask(text: &[u8], public: &[String]) -> Vec<u8> {
    let mut out = text.to_vec();
    for p in public
        .iter()
        .map(String::as_bytes)
        .filter(|p| !p.is_empty())
    {
        let mut at = 0;
        while let Some(i) = out
            .get(at..)
            .and_then(|rest| rest.windows(p.len()).position(|w| w == p))
        {
            let start = at + i;
            for b in out.iter_mut().skip(start).take(p.len()) {
                *b = 0xFF;
            }
            at = start + p.len();
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_values_are_masked_and_nothing_else() {
        let public = vec!["http://a/.well-known/x".to_owned(), "s:r".to_owned()];
        let text = b"Bearer scope=\"s:r\", resource_metadata=\"http://a/.well-known/x\", echo=\"a/.well-known\"";
        let masked = mask(text, &public);
        assert_eq!(masked.len(), text.len());
        // The echo outside the published values is still seen; the piece
        // inside the URL is not.
        assert!(contains(&masked, b"echo=\"a/.well-known\""));
        assert!(!contains(&masked, b"http://a/"));
        assert!(!contains(&masked, b"s:r"));
        assert_eq!(mask(b"nothing published", &public), b"nothing published");
        assert_eq!(mask(b"s:rs:r", &public), vec![0xFF; 6]);
    }
}
