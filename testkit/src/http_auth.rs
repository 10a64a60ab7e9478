//! The checks of one authenticated HTTP exchange, for the property tests
//! and the authorization fuzz target: the binding's response against the
//! model ([`crate::model::auth`]), the tools that ran against the ones the
//! model allows (none when the step refuses), and row A8: no part of a
//! token the request carried (its signature part, or all of it) in the
//! response the core answered (a response of the step itself must equal
//! the model's, built from the configuration alone).

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
        // Row A8. A response of the step itself (A1 to A6) was just found
        // equal to the model's, which builds it from the configuration
        // alone, so it holds nothing of the request; searching it would
        // only find "tokens" that are pieces of the metadata URL or
        // document (the fuzz target sent both). What the core answered
        // is searched for every secret the request carried.
        if expect.http().is_some()
            && let Some(secret) = shown_secret(request, &response.body)
        {
            return Err(format!("row A8: the token's {secret:?} is in the response"));
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

/// The first of `request`'s [`secrets`] that `shown` holds.
fn shown_secret(request: &HttpRequest, shown: &[u8]) -> Option<String> {
    secrets(request)
        .into_iter()
        .find(|secret| contains(shown, secret.as_bytes()))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_holding_a_token_or_its_signature_is_caught() {
        let token = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJtaXJhIn0.c2lnbmF0dXJlLXBhcnQtb2YtdGhlLXRva2Vu";
        let mut request = HttpRequest {
            method: "POST".to_owned(),
            target: "/mcp".to_owned(),
            headers: vec![(
                "authorization".to_owned(),
                format!("Bearer {token}").into_bytes(),
            )],
            body: Vec::new(),
        };
        let signature = "c2lnbmF0dXJlLXBhcnQtb2YtdGhlLXRva2Vu";
        let echo = format!(r#"{{"error":{{"message":"bad token {signature}"}}}}"#);
        assert_eq!(
            shown_secret(&request, echo.as_bytes()).as_deref(),
            Some(signature)
        );
        assert_eq!(
            shown_secret(&request, format!("[{token}]").as_bytes()).as_deref(),
            Some(token)
        );
        assert_eq!(shown_secret(&request, b"{\"result\":{}}"), None);
        // A short fragment is no secret (it may occur by chance).
        request.headers = vec![("Authorization".to_owned(), b"Bearer abc".to_vec())];
        assert_eq!(shown_secret(&request, b"abc"), None);
        // A token in the query string is one too.
        request.headers.clear();
        request.target = format!("/mcp?access_token={token}");
        assert_eq!(
            shown_secret(&request, token.as_bytes()).as_deref(),
            Some(token)
        );
    }
}
