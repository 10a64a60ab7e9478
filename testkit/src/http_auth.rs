//! The checks of one authenticated HTTP exchange, for the property tests
//! and the authorization fuzz target: the binding's response against the
//! model ([`crate::model::auth`]), the tools that ran against the ones the
//! model allows (none when the step refuses), and row A8: no part of a
//! token the request carried (its signature part, or all of it) in the
//! response's body, headers or challenge.

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
        for secret in secrets(request) {
            let shown = [
                response.body.as_slice(),
                response.challenge.as_deref().unwrap_or_default().as_bytes(),
            ];
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

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}
