//! Generators for the authorization step: configurations with
//! `http.authorization` (the test issuer's resource and keys, one of a few
//! scope sets and leeways, a `users` map or none), a time, and HTTP requests from
//! [`super::http`] with credentials: none, a valid token of some user, a
//! token changed in one place ([`Change`]), a malformed or foreign
//! `Authorization` header, two of them, a token in the query string; and
//! requests for the metadata paths.
//!
//! What the binding must answer is never decided here: the model
//! ([`crate::model::auth`]) does.

use mcp_reference::Config;
use proptest::prelude::*;
use proptest::sample::select;

use super::http::{http_config, http_request};
use crate::issuer::{CHANGES, Change, NOW, settings, with_auth};
pub use crate::issuer::{LISTEN, issuer};
use crate::model::http::HttpRequest;

/// A configuration of [`http_config`] at `/mcp` with authorization on.
pub fn auth_config() -> BoxedStrategy<Config> {
    let scopes = select(vec![
        vec!["orders:read"],
        vec![],
        vec!["orders:read", "orders:audit"],
    ]);
    (http_config(), scopes, select(vec![0u64, 30]), any::<bool>())
        .prop_filter_map(
            "the test resource's endpoint",
            |(c, scopes, leeway, map)| {
                // A configuration whose input targets issue state answers
                // by the request's time (a state's expiry), which the
                // generic model judges at the epoch: left out, as in
                // tests/state_machine.rs; rounds under a token are
                // tests/mrtr.rs's.
                if c.http().endpoint != "/mcp" || c.input().is_some_and(|i| i.issues_state()) {
                    return None;
                }
                let mut s = settings(issuer().jwks());
                if !map {
                    // No `users` map: the subject is the user's name (DEC36).
                    s.users.clear();
                }
                s.scopes = scopes.into_iter().map(String::from).collect();
                s.leeway_s = leeway;
                Some(with_auth(c, s))
            },
        )
        .boxed()
}

/// The credentials a generated request carries.
#[derive(Debug, Clone)]
enum Credential {
    None,
    Valid(String, &'static str, bool),
    Changed(String, Change),
    Raw(String),
    Twice(String),
    InQuery(String),
}

fn credential(config: &Config) -> BoxedStrategy<Credential> {
    let users: Vec<String> = config
        .orders()
        .iter()
        .map(|o| o.owner.clone())
        .chain(["mira", "tomas", "client-7", "eve"].map(String::from))
        .collect();
    let user = select(users);
    let scope = select(vec![
        "orders:read",
        "orders:read orders:audit",
        "",
        "orders:audit orders:read openid",
        "orders:write",
    ]);
    let change = prop_oneof![
        4 => select(CHANGES.to_vec()),
        1 => any::<u8>().prop_map(Change::SignatureByte),
    ];
    let raw = prop_oneof![
        Just("Basic dXNlcjpwYXNz".to_owned()),
        Just("Bearer".to_owned()),
        Just("Bearer a b".to_owned()),
        Just("bearer   x.y.z".to_owned()),
        "Bearer [ -~]{0,24}",
        "[ -~]{0,24}",
    ];
    prop_oneof![
        2 => Just(Credential::None),
        6 => (user.clone(), scope, any::<bool>()).prop_map(|(u, s, r)| Credential::Valid(u, s, r)),
        4 => (user.clone(), change).prop_map(|(u, c)| Credential::Changed(u, c)),
        2 => raw.prop_map(Credential::Raw),
        1 => user.clone().prop_map(Credential::Twice),
        1 => user.prop_map(Credential::InQuery),
    ]
    .boxed()
}

/// A request of [`http_request`] with credentials, or a request for a
/// metadata path.
pub fn auth_request(config: &Config) -> BoxedStrategy<HttpRequest> {
    let metadata = (
        select(vec!["GET", "HEAD", "POST", "DELETE"]),
        select(vec![
            "/.well-known/oauth-protected-resource/mcp",
            "/.well-known/oauth-protected-resource",
            "/.well-known/oauth-protected-resource?x=1",
            "/.well-known/oauth-protected-resource/other",
        ]),
    )
        .prop_map(|(method, target)| HttpRequest {
            method: method.to_owned(),
            target: target.to_owned(),
            headers: vec![("Host".to_owned(), b"127.0.0.1:8080".to_vec())],
            body: Vec::new(),
        });
    let endpoint = (http_request(config, LISTEN), credential(config)).prop_map(|(mut r, c)| {
        let issuer = issuer();
        let mut add = |value: String| {
            r.headers
                .push(("Authorization".to_owned(), value.into_bytes()))
        };
        match c {
            Credential::None => {}
            Credential::Valid(u, s, rs) => add(format!("Bearer {}", issuer.token(&u, s, rs))),
            Credential::Changed(u, c) => add(format!("Bearer {}", issuer.changed(&u, c))),
            Credential::Raw(v) => add(v),
            Credential::Twice(u) => {
                let t = issuer.token(&u, "orders:read", false);
                add(format!("Bearer {t}"));
                add(format!("Bearer {t}"));
            }
            Credential::InQuery(u) => {
                let t = issuer.token(&u, "orders:read", false);
                r.target = format!("{}?access_token={t}", r.target);
            }
        }
        r
    });
    prop_oneof![1 => metadata, 8 => endpoint].boxed()
}

/// A configuration with authorization, the time, and one request.
pub fn auth_scenario() -> impl Strategy<Value = (Config, u64, HttpRequest)> {
    let now = prop_oneof![6 => Just(NOW), 1 => Just(NOW + 320), 1 => Just(NOW - 3590)];
    (auth_config(), now).prop_flat_map(|(c, now)| {
        let request = auth_request(&c);
        (Just(c), Just(now), request)
    })
}
