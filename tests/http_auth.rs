//! The authorization step of the HTTP binding (rows A1 to A9 of
//! docs/behavior.md) against the model (`mcp_reference_testkit::model::auth`):
//! generated configurations, times and requests with every kind of
//! credentials; any single change to a valid token (a signature byte,
//! `aud`, `iss`, `exp`, `alg`, `kid`, `typ`, ...) is 401 and runs no tool;
//! no part of a token is ever in a response; one user's token never shows
//! another user's order, which reads exactly as one that does not exist,
//! over every path: a tool, a resource, a prompt, a completion.

use mcp_reference::http::{Binding, Bound, Keys, Request, Trust};
use mcp_reference::{Config, Server};
use mcp_reference_testkit::http::{conforming, header_refs};
use mcp_reference_testkit::http_auth::AuthChecker;
use mcp_reference_testkit::issuer::{CHANGES, Change, NOW, settings, with_auth};
use mcp_reference_testkit::model::auth::challenge;
use mcp_reference_testkit::model::catalog::order_uri;
use mcp_reference_testkit::model::http::HttpRequest;
use mcp_reference_testkit::strategy::auth::{LISTEN, auth_scenario, issuer};
use mcp_reference_testkit::strategy::config;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

proptest! {
    // Failures kept in `proptest-regressions/http_auth.txt`, replayed first.
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/http_auth.txt",
        ))),
        ..ProptestConfig::default()
    })]

    /// The binding answers every generated request as the model says, runs
    /// only the tools the model allows, and shows no token (A1 to A8).
    #[test]
    fn the_binding_agrees_with_the_model((config, now, request) in auth_scenario()) {
        let checker = AuthChecker::new(&config, LISTEN, issuer().jwks());
        if let Err(e) = checker.check(now, &request) {
            return Err(TestCaseError::fail(format!("{e}\n{request:?}")));
        }
    }

    /// Any single change to a valid token is 401 `invalid_token` and runs
    /// no tool, whatever the configuration (A5).
    #[test]
    fn any_single_change_is_refused(
        config in config(),
        change in prop_oneof![
            3 => proptest::sample::select(CHANGES.to_vec()),
            2 => any::<u8>().prop_map(Change::SignatureByte),
        ],
        user in proptest::sample::select(vec!["mira", "tomas", "client-7"]),
    ) {
        let config = with_auth(config, settings(issuer().jwks()));
        let token = issuer().changed(user, change);
        let got = Fixture::new(&config).call("A-104", Some(&token));
        prop_assert_eq!(got.0, 401, "{:?}: {}", change, got.2);
        let want = challenge(mcp_reference_testkit::model::auth::settings(&config).unwrap(), Some("invalid_token"));
        prop_assert_eq!(got.1.as_deref(), Some(want.as_str()));
        prop_assert!(got.2.is_empty());
        prop_assert_eq!(got.3, 0, "a tool ran");
    }

    /// One user's token never shows another user's order: for every order
    /// of the configuration, the reply to a user who does not own it is
    /// byte-identical to the reply for an order that does not exist, and
    /// holds none of its values (DEC12 per user, A7).
    #[test]
    fn no_token_shows_another_users_order(config in config()) {
        let config = with_auth(config, settings(issuer().jwks()));
        let fixture = Fixture::new(&config);
        let call = |order: &str, token: &str| fixture.call(order, Some(token));
        let mut users: Vec<String> = config.orders().iter().map(|o| o.owner.clone()).collect();
        users.extend(["client-7", "eve"].map(String::from));
        for user in &users {
            let token = issuer().token(user, "orders:read", false);
            let missing = call("no-such-order-\u{1}", &token);
            prop_assert_eq!(missing.0, 200);
            for order in config.orders() {
                let got = call(&order.order_id, &token);
                prop_assert_eq!(got.0, 200);
                let owner = if user == "client-7" { "tomas" } else { user.as_str() };
                if order.owner == owner {
                    prop_assert_eq!(status(&got.2), Some(order.status.clone()), "{} cannot read its {}", user, order.order_id);
                } else {
                    prop_assert_eq!(&got.2, &missing.2, "{} reads {}'s {}", user, order.owner, order.order_id);
                }
            }
        }
    }

    /// Over every path (issue 33): a user's token gets, for every request
    /// of [`order_paths`] (a tool, a resource, a prompt, a completion), the
    /// very bytes of the same binding whose configuration holds only that
    /// user's own orders. Another user's order shows nowhere, in a value,
    /// a count or an error (noninterference per user: DEC12, A7, COMP-08).
    #[test]
    fn no_path_shows_another_users_order(
        config in config(),
        user in proptest::sample::select(vec!["mira", "tomas", "client-7", "eve"]),
        rs256 in any::<bool>(),
    ) {
        let config = with_auth(config, settings(issuer().jwks()));
        let owner = if user == "client-7" { "tomas" } else { user };
        let own = config.orders().iter().filter(|o| o.owner == owner).cloned().collect();
        let alone = config.clone().with_orders(own).unwrap();
        let (full, alone) = (Fixture::new(&config), Fixture::new(&alone));
        let token = issuer().token(user, "orders:read", rs256);
        for body in order_paths(&config) {
            let (_, got) = full.send(body.clone(), Some(&token));
            let (_, want) = alone.send(body.clone(), Some(&token));
            // Past the step (no challenge), so the core answered both.
            prop_assert!(got.1.is_none() && !got.2.is_empty(), "{:?}: {}", got, body);
            prop_assert_eq!(&got, &want, "{}'s token, {}", user, body);
        }
    }
}

/// Every request that reads an order or names one, for each order of
/// `config` and one that does not exist: `tools/call get_order`,
/// `resources/read` of the order template expanded with the id,
/// `prompts/get reply_to_customer`, and `completion/complete` of `order_id`
/// (for the prompt and for the template, from nothing and from each id's
/// first character). Sent whether or not the configuration offers them: a
/// method not offered must then be refused alike.
fn order_paths(config: &Config) -> Vec<String> {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let json = |s: &str| serde_json::to_string(s).unwrap();
    let template = config
        .catalog()
        .order_template
        .as_ref()
        .map_or("book-orders://orders/{order_id}".to_owned(), |t| {
            t.uri_template.clone()
        });
    let mut ids: Vec<String> = config.orders().iter().map(|o| o.order_id.clone()).collect();
    ids.push("no-such-order".to_owned());
    let mut prefixes = vec![String::new()];
    let mut out = Vec::new();
    for id in &ids {
        let uri = order_uri(config, id).unwrap_or_else(|| format!("book-orders://orders/{id}"));
        out.push(format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"get_order","arguments":{{"order_id":{}}},{meta}}}}}"#,
            json(id)
        ));
        out.push(format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{{"uri":{},{meta}}}}}"#,
            json(&uri)
        ));
        out.push(format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{{"name":"reply_to_customer","arguments":{{"order_id":{}}},{meta}}}}}"#,
            json(id)
        ));
        prefixes.extend(id.chars().next().map(String::from));
    }
    for prefix in &prefixes {
        for reference in [
            r#"{"type":"ref/prompt","name":"reply_to_customer"}"#.to_owned(),
            format!(r#"{{"type":"ref/resource","uri":{}}}"#, json(&template)),
        ] {
            out.push(format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{{"ref":{reference},"argument":{{"name":"order_id","value":{}}},{meta}}}}}"#,
                json(prefix)
            ));
        }
    }
    out
}

/// A configured binding with the test issuer's keys, and its checker.
struct Fixture {
    config: Config,
    binding: Binding,
    checker: AuthChecker,
    keys: Keys,
}

impl Fixture {
    fn new(config: &Config) -> Fixture {
        Fixture {
            config: config.clone(),
            binding: Binding::new(
                Server::new(config.clone()),
                Bound {
                    port: 8080,
                    loopback: true,
                },
            ),
            checker: AuthChecker::new(config, LISTEN, issuer().jwks()),
            keys: Keys::from_jwks(issuer().jwks()).unwrap(),
        }
    }

    /// `tools/call get_order` of `order` with `token`: status, challenge,
    /// body, tools run; the model agrees on every one.
    fn call(&self, order: &str, token: Option<&str>) -> (u16, Option<String>, String, usize) {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"get_order","arguments":{{"order_id":{}}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#,
            serde_json::to_string(order).unwrap()
        );
        let (request, got) = self.send(body, token);
        self.checker.check(NOW, &request).unwrap();
        got
    }

    /// `body`, POSTed with the headers a conforming client sends and
    /// `token`, answered at [`NOW`]: the request, and the response's
    /// status, challenge, body and how many tools ran.
    fn send(
        &self,
        body: String,
        token: Option<&str>,
    ) -> (HttpRequest, (u16, Option<String>, String, usize)) {
        let mut headers = conforming(&self.config, LISTEN, body.as_bytes());
        if let Some(token) = token {
            headers.push((
                "Authorization".into(),
                format!("Bearer {token}").into_bytes(),
            ));
        }
        let request = HttpRequest {
            method: "POST".into(),
            target: "/mcp".into(),
            headers,
            body: body.into_bytes(),
        };
        let mut ran = mcp_reference_testkit::fuzzing::Counting::default();
        let heads = header_refs(&request);
        let req = Request {
            method: "POST",
            target: "/mcp",
            headers: &heads,
            body: &request.body,
        };
        let response = self.binding.respond_at(
            &req,
            &Trust {
                keys: &self.keys,
                now: NOW,
                verified: None,
            },
            &mut ran,
        );
        let got = (
            response.status,
            response.challenge,
            String::from_utf8(response.body).unwrap(),
            ran.ran.len(),
        );
        (request, got)
    }
}

/// The `structuredContent.status` of a reply, if it has one.
fn status(body: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(body).ok()?;
    Some(
        v["result"]["structuredContent"]["status"]
            .as_str()?
            .to_owned(),
    )
}

/// The textbook's two users through tokens: mira's sees A-104 and not
/// B-205; tomas's (and the client mapped to tomas) sees B-205 and not
/// A-104; `clientInfo` calling itself administrator changes nothing.
#[test]
fn mira_and_tomas_see_their_own_orders() {
    let fixture = Fixture::new(&with_auth(Config::default(), settings(issuer().jwks())));
    let call = |order: &str, token: Option<&str>| fixture.call(order, token);
    let mira = issuer().token("mira", "orders:read", true);
    let tomas = issuer().token("tomas", "orders:read", false);
    let client = issuer().token("client-7", "orders:read", false);
    assert_eq!(
        status(&call("A-104", Some(&mira)).2).as_deref(),
        Some("processing")
    );
    assert!(call("B-205", Some(&mira)).2.contains("forbidden"));
    for t in [&tomas, &client] {
        assert_eq!(
            status(&call("B-205", Some(t)).2).as_deref(),
            Some("shipped")
        );
        assert!(call("A-104", Some(t)).2.contains("forbidden"));
    }
    let none = call("A-104", None);
    assert_eq!((none.0, none.3), (401, 0));
}

/// DEC36, the unmapped subject (issue 39, item 10): a token whose subject
/// is `mira` reads mira's order when a user signed in as mira, with or
/// without a `users` map; a `client_credentials` client that happens to be
/// called `mira` (`sub` and `client_id` both `mira`) reads none, unless the
/// map lists it. The model says the same for each (`Fixture::call`).
#[test]
fn an_unmapped_subject_never_borrows_a_user_s_name() {
    let mapped = settings(issuer().jwks());
    let mut plain = mapped.clone();
    plain.users.clear();
    let mut listed = mapped.clone();
    listed.users.insert("mira".into(), "mira".into());
    let mut itself = mcp_reference_testkit::issuer::claims("mira", "orders:read");
    itself["client_id"] = "mira".into();
    let client_mira = issuer().mint(&mcp_reference_testkit::issuer::header(), &itself);
    let user_mira = issuer().token("mira", "orders:read", false);
    for (settings, token, reads) in [
        (&mapped, &user_mira, true),
        (&plain, &user_mira, true),
        (&mapped, &client_mira, false),
        (&plain, &client_mira, false),
        (&listed, &client_mira, true),
    ] {
        let config = with_auth(Config::default(), settings.clone());
        // `call` holds the binding to the model too.
        let got = Fixture::new(&config).call("A-104", Some(token));
        assert_eq!(
            status(&got.2).as_deref() == Some("processing"),
            reads,
            "users {:?}: {}",
            settings.users,
            got.2
        );
    }
}

/// Without `http.authorization` (or with `"none"`), nothing changes: the
/// same bytes as the binding of the textbook configuration (A9).
#[test]
fn off_by_default() {
    let plain = Config::default();
    let none = plain
        .clone()
        .with_http(mcp_reference::HttpSettings {
            authorization: Some(mcp_reference::Authorization::Word("none".into())),
            ..mcp_reference::HttpSettings::default()
        })
        .unwrap();
    for config in [&plain, &none] {
        let got = Fixture::new(config).call("A-104", Some("not-even-a-jwt"));
        assert_eq!(got.0, 200);
        assert!(got.2.contains("processing"));
    }
}
