//! `check --http URL --auth`: holds a Streamable HTTP MCP server that is
//! an OAuth 2.1 protected resource to the server rules of the 2026-07-28
//! `basic/authorization/` pages, with tokens of its own.
//!
//! [`AuthCheck::start`] starts a loopback authorization server
//! ([`super::issuer`]) for the test issuer's keys
//! ([`mcp_reference_testkit::issuer`]) and says, in [`Setup`], what the
//! server under test must be configured with. [`AuthCheck::run`] then
//! judges the server: its Protected Resource Metadata (RFC 9728), the
//! shape of its challenges, valid tokens (and, for a book-orders server,
//! which user a token is), adversarially invalid tokens, and scope. What
//! the server must answer (status, the challenge's `error`, whether it
//! names `scope` and `resource_metadata`, the metadata document) comes from
//! the one model, [`mcp_reference_testkit::model::auth`], asked with the
//! configuration those settings make; nothing here decides whether a token
//! is valid. Each check names the statement of `docs/spec-coverage.md` it
//! rests on, and its level is that statement's (`textbook:A<n>`: the
//! reference's own choice, reported, never in the verdict). Every check
//! that needs an accepted token is skipped, with the reason, when the
//! server accepts no valid token: a refusal would show nothing then.

use std::cell::RefCell;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use mcp_reference::{Authorization, Config, HttpSettings, OAuthSettings};
use mcp_reference_testkit::issuer::{Issuer, Minting};
use mcp_reference_testkit::model::http::Listen;
use serde_json::json;

use super::catalog::{CheckInfo, Level, check};
use super::http::{Run, body, config_for};
use super::issuer::LoopbackIssuer;

mod discovery;
mod probe;

use super::report::{Outcome, Report};
use crate::http_client::Url;
use probe::Probe;

use Level::{Must, Should, Textbook};

/// The authorization checks, in report order.
pub const AUTH_CHECKS: &[CheckInfo] = &[
    check(
        Must,
        "auth.metadata",
        "ASD-02",
        "basic/authorization/authorization-server-discovery.mdx#protected-resource-metadata-discovery-requirements",
        "the Protected Resource Metadata is found without a token: at the challenge's resource_metadata, or at a well-known URL (path-inserted or root); 200 with a JSON object",
    ),
    check(
        Textbook,
        "auth.metadata-path-inserted",
        "textbook:A1",
        "basic/authorization/authorization-server-discovery.mdx#protected-resource-metadata-discovery-requirements",
        "GET /.well-known/oauth-protected-resource<path> without a token gets 200 and the document",
    ),
    check(
        Textbook,
        "auth.metadata-root",
        "textbook:A1",
        "basic/authorization/authorization-server-discovery.mdx#protected-resource-metadata-discovery-requirements",
        "GET /.well-known/oauth-protected-resource (the root form) without a token gets 200 and the document",
    ),
    check(
        Textbook,
        "auth.metadata-head",
        "textbook:A1",
        "basic/authorization/authorization-server-discovery.mdx#protected-resource-metadata-discovery-requirements",
        "HEAD at the well-known URL that served the document gets 200 without a body",
    ),
    check(
        Must,
        "auth.metadata-resource",
        "AUTH-04",
        "basic/authorization/index.mdx#overview",
        "every document served has resource equal to the URL under test, byte for byte (RFC 9728 section 3.3)",
    ),
    check(
        Must,
        "auth.metadata-authorization-servers",
        "ASD-01",
        "basic/authorization/authorization-server-discovery.mdx#authorization-server-location",
        "authorization_servers is a non-empty array that names the check's issuer",
    ),
    check(
        Textbook,
        "auth.metadata-bearer-methods",
        "textbook:A1",
        "basic/authorization/authorization-server-discovery.mdx#authorization-server-location",
        "bearer_methods_supported is [\"header\"]",
    ),
    check(
        Should,
        "auth.no-offline-access",
        "AUTH-13",
        "basic/authorization/index.mdx#refresh-tokens",
        "neither scopes_supported nor any challenge's scope names offline_access",
    ),
    check(
        Must,
        "auth.no-credentials",
        "AUTH-14",
        "basic/authorization/index.mdx#error-handling",
        "a POST without Authorization gets 401 with WWW-Authenticate: Bearer; nothing runs",
    ),
    check(
        Should,
        "auth.no-credentials-no-error",
        "AUTH-20",
        "basic/authorization/index.mdx#token-handling",
        "the challenge to a request without credentials (header or query token) has no error parameter (OAuth 2.1 section 5.3, RFC 6750 section 3.1)",
    ),
    check(
        Should,
        "auth.challenge-scope",
        "AUTH-05",
        "basic/authorization/index.mdx#scope-selection-strategy",
        "every 401 challenge carries a scope parameter naming the scope",
    ),
    check(
        Textbook,
        "auth.challenge-metadata",
        "textbook:A3",
        "basic/authorization/authorization-server-discovery.mdx#protected-resource-metadata-discovery-requirements",
        "every challenge carries resource_metadata, and the URL it names serves the document",
    ),
    check(
        Should,
        "auth.invalid-token-error",
        "AUTH-21",
        "basic/authorization/index.mdx#token-handling",
        "the challenge to every rejected token has error=\"invalid_token\"",
    ),
    check(
        Must,
        "auth.no-echo",
        "SEC-07",
        "basic/authorization/security-considerations.mdx#access-token-privilege-restriction",
        "no response body or header holds any part of a token the check sent (row A8)",
    ),
    check(
        Must,
        "auth.valid-list",
        "AUTH-08",
        "basic/authorization/index.mdx#token-handling",
        "tools/list with a valid token gets 200 and a result",
    ),
    check(
        Must,
        "auth.valid-call",
        "AUTH-08",
        "basic/authorization/index.mdx#token-handling",
        "tools/call (get_order of the token's own order, or the first tool listed) with a valid token gets 200 and a JSON-RPC response",
    ),
    check(
        Textbook,
        "auth.user-owner",
        "textbook:A7",
        "basic/authorization/security-considerations.mdx#access-token-privilege-restriction",
        "book-orders: the owner's token reads the order (a result without isError)",
    ),
    check(
        Must,
        "auth.user-isolation",
        "SEC-04",
        "basic/authorization/security-considerations.mdx#access-token-privilege-restriction",
        "book-orders: another user's token does not get the owner's result for the order",
    ),
    check(
        Textbook,
        "auth.user-indistinguishable",
        "textbook:A7",
        "basic/authorization/security-considerations.mdx#access-token-privilege-restriction",
        "book-orders: another user's order reads byte for byte as a nonexistent one, apart from its id (DEC12)",
    ),
    check(
        Must,
        "auth.token-expired",
        "AUTH-10",
        "basic/authorization/index.mdx#token-handling",
        "a token whose exp passed an hour ago gets 401; nothing runs",
    ),
    check(
        Must,
        "auth.token-audience",
        "AUTH-09",
        "basic/authorization/index.mdx#token-handling",
        "a token whose aud is another resource (the URL with -other appended) gets 401; nothing runs",
    ),
    check(
        Must,
        "auth.token-no-audience",
        "AUTH-09",
        "basic/authorization/index.mdx#token-handling",
        "a token without aud gets 401; nothing runs",
    ),
    check(
        Must,
        "auth.token-issuer",
        "AUTH-08",
        "basic/authorization/index.mdx#token-handling",
        "a token whose iss is another issuer (a trailing slash) gets 401; nothing runs",
    ),
    check(
        Must,
        "auth.token-alg-none",
        "AUTH-08",
        "basic/authorization/index.mdx#token-handling",
        "an unsigned token (alg none, empty signature) gets 401; nothing runs",
    ),
    check(
        Must,
        "auth.token-hmac",
        "AUTH-08",
        "basic/authorization/index.mdx#token-handling",
        "HS256 tokens keyed with the issuer's public keys (PEM, JWK, JWK Set) or signed ES256 get 401; nothing runs",
    ),
    check(
        Must,
        "auth.token-unknown-key",
        "AUTH-08",
        "basic/authorization/index.mdx#token-handling",
        "a token signed by a key the JWK Set does not hold (an unknown kid) gets 401; nothing runs",
    ),
    check(
        Must,
        "auth.token-signature",
        "AUTH-08",
        "basic/authorization/index.mdx#token-handling",
        "a token with one signature character changed gets 401; nothing runs",
    ),
    check(
        Must,
        "auth.token-alg-swap",
        "AUTH-08",
        "basic/authorization/index.mdx#token-handling",
        "a token claiming RS256 over an ES256 signature gets 401; nothing runs",
    ),
    check(
        Must,
        "auth.token-not-yet",
        "AUTH-08",
        "basic/authorization/index.mdx#token-handling",
        "a token whose nbf is an hour ahead gets 401; nothing runs",
    ),
    check(
        Textbook,
        "auth.token-no-expiry",
        "textbook:A5",
        "basic/authorization/index.mdx#token-handling",
        "a token without exp gets 401 (RFC 9068 section 2.2: exp is required; DEC33)",
    ),
    check(
        Textbook,
        "auth.token-kid-mismatch",
        "textbook:A5",
        "basic/authorization/index.mdx#token-handling",
        "a token signed by a known key under a kid the JWK Set does not list gets 401 (DEC33)",
    ),
    check(
        Textbook,
        "auth.token-typ",
        "textbook:A5",
        "basic/authorization/index.mdx#token-handling",
        "a token with typ JWT instead of at+jwt gets 401 (RFC 9068 section 4; DEC33)",
    ),
    check(
        Textbook,
        "auth.token-no-subject",
        "textbook:A5",
        "basic/authorization/index.mdx#token-handling",
        "a token without sub gets 401 (RFC 9068 section 2.2; DEC33)",
    ),
    check(
        Must,
        "auth.token-query",
        "AUTH-07",
        "basic/authorization/index.mdx#token-requirements",
        "a valid token in the query string (access_token) and none in the header gets 401 as without credentials",
    ),
    check(
        Should,
        "auth.insufficient-scope",
        "AUTH-15",
        "basic/authorization/index.mdx#runtime-insufficient-scope-errors",
        "a valid token without the scope gets 403 with error=\"insufficient_scope\", scope and resource_metadata; nothing runs",
    ),
];

/// How to run the authorization checks.
#[derive(Debug, Clone)]
pub struct AuthOptions {
    /// The endpoint URL: also the `resource` and the tokens' `aud`.
    pub url: String,
    /// Where the loopback issuer listens (`127.0.0.1:9000` by default;
    /// port 0 picks a free one).
    pub issuer_addr: String,
    /// The scope the server requires (default `orders:read`).
    pub scope: String,
    /// How long one exchange may take.
    pub timeout: Duration,
    /// How long the whole run may take.
    pub deadline: Duration,
}

/// The issuer's address when none is given.
pub const DEFAULT_ISSUER_ADDR: &str = "127.0.0.1:9000";
/// The scope when none is given.
pub const DEFAULT_SCOPE: &str = "orders:read";

/// What the server under test must be configured with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// The issuer identifier (`iss`), `http://127.0.0.1:PORT`.
    pub issuer: String,
    /// Where its JWK Set is.
    pub jwks_uri: String,
    /// The resource: the URL under test, byte for byte; also the `aud`.
    pub resource: String,
    /// The scope every request needs.
    pub scope: String,
    /// The `sub` of the valid tokens: each is the name of an order owner.
    pub subjects: Vec<String>,
}

impl Setup {
    /// The values, one per line, and the reference's
    /// `http.authorization` member made of them.
    pub fn text(&self) -> String {
        let reference = json!({
            "resource": self.resource,
            "issuer": self.issuer,
            "scopes": [self.scope],
        });
        format!(
            "mcp-reference check: the loopback issuer is up; configure the server under test with:\n  \
             issuer (iss):          {}\n  \
             AS metadata:           {}/.well-known/oauth-authorization-server\n  \
             jwks_uri:              {}\n  \
             resource and audience: {}\n  \
             scope:                 {}\n  \
             subjects (sub):        {} (each the order owner of that name)\n  \
             algorithms:            ES256 (kid ec1) and RS256 (kid rsa1)\n  \
             for mcp-reference:     \"http\": {{\"authorization\": {reference}}}\n",
            self.issuer,
            self.issuer,
            self.jwks_uri,
            self.resource,
            self.scope,
            self.subjects.join(", ")
        )
    }

    /// The environment a server started by `check` gets.
    pub fn env(&self) -> Vec<(String, String)> {
        vec![
            ("MCP_CHECK_ISSUER".into(), self.issuer.clone()),
            ("MCP_CHECK_JWKS_URI".into(), self.jwks_uri.clone()),
            ("MCP_CHECK_RESOURCE".into(), self.resource.clone()),
            ("MCP_CHECK_SCOPE".into(), self.scope.clone()),
        ]
    }
}

/// A started authorization check: the issuer is up.
pub struct AuthCheck {
    options: AuthOptions,
    issuer: Issuer,
    server: LoopbackIssuer,
    setup: Setup,
    config: Config,
}

/// Seconds since the epoch.
fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

impl AuthCheck {
    /// Starts the loopback issuer; the server under test may start once
    /// this returns.
    pub fn start(options: &AuthOptions) -> Result<AuthCheck, String> {
        let url = Url::parse(&options.url)?;
        let issuer = Issuer::default();
        let server = LoopbackIssuer::start(&options.issuer_addr, issuer.jwks())?;
        let mut settings = OAuthSettings::new(options.url.clone(), server.url());
        settings.scopes = vec![options.scope.clone()];
        settings.jwks = Some(issuer.jwks().clone());
        let plain = config_for(&options.url);
        let http = HttpSettings {
            endpoint: url.path.clone(),
            authorization: Some(Authorization::OAuth(Box::new(settings))),
            ..plain.http().clone()
        };
        let config = plain
            .with_http(http)
            .map_err(|e| format!("the URL {} cannot be an OAuth resource: {e}", options.url))?;
        let mut subjects: Vec<String> = config.orders().iter().map(|o| o.owner.clone()).collect();
        subjects.dedup();
        let setup = Setup {
            issuer: server.url().to_owned(),
            jwks_uri: format!("{}/jwks", server.url()),
            resource: options.url.clone(),
            scope: options.scope.clone(),
            subjects,
        };
        Ok(AuthCheck {
            options: options.clone(),
            issuer,
            server,
            setup,
            config,
        })
    }

    /// What the server must be configured with.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// How many times the server fetched the JWK Set so far.
    pub fn jwks_fetches(&self) -> usize {
        self.server.jwks_fetches()
    }

    /// Runs every authorization check.
    pub fn run(&self) -> Result<Report, String> {
        let url = Url::parse(&self.options.url)?;
        let run = Run {
            url,
            timeout: self.options.timeout,
            ends: Instant::now() + self.options.deadline,
            listen: Listen {
                port: 8080,
                loopback: false,
            },
            config: self.config.clone(),
        };
        let probe = Probe {
            run,
            check: self,
            minting: Minting {
                issuer: self.setup.issuer.clone(),
                resource: self.setup.resource.clone(),
                now: now(),
            },
            seen: RefCell::new(Vec::new()),
        };
        let first = probe.run.send(&probe.run.post(body(1, "tools/list", "")));
        if let Err(Outcome::Fail(f)) = &first {
            return Err(format!(
                "the server at {} did not answer: {}",
                self.options.url, f.reason
            ));
        }
        let results = probe.all();
        Ok(Report {
            command: format!("{} (auth, issuer {})", self.options.url, self.setup.issuer),
            timeout_ms: u64::try_from(self.options.timeout.as_millis()).unwrap_or(u64::MAX),
            entries: super::entries(AUTH_CHECKS, &results),
            processes: 0,
            stderr_bytes: 0,
        })
    }
}
