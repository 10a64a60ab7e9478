//! The metadata probes of `check --http --auth` (RFC 9728 documents by
//! every discovery mechanism, field by field) and the user probes of a
//! book-orders server (the owner reads the order, another user does not,
//! and cannot tell it from a nonexistent one).

use mcp_reference::OAuthSettings;
use mcp_reference_testkit::model::auth::{AuthExpect, expect_auth, metadata_url};
use serde_json::Value;

use super::super::http::{body, cut};
use super::super::report::{Failure, Outcome};
use super::now;
use super::probe::{Challenge, Probe};

impl Probe<'_> {
    pub(super) fn metadata(
        &self,
        settings: &OAuthSettings,
        none: &Result<usize, Outcome>,
        results: &mut Vec<(&'static str, Outcome)>,
    ) {
        let origin_and_path = settings
            .resource_parts()
            .map(|(o, p)| (o.to_owned(), p.to_owned()));
        let Some((origin, _)) = origin_and_path else {
            return;
        };
        let inserted = metadata_url(settings);
        let root = {
            let mut s = settings.clone();
            s.resource = format!("{origin}/");
            metadata_url(&s)
        };
        let from_challenge = none.as_ref().ok().and_then(|i| {
            Challenge::of(&self.seen.borrow()[*i].response)
                .and_then(|c| c.get("resource_metadata").map(str::to_owned))
        });
        // Fetch a metadata URL of this server: the exchange, or why not.
        let fetch = |url: &str, method: &str, label: &str| -> Result<usize, Outcome> {
            let target = url
                .strip_prefix(&origin)
                .filter(|t| t.starts_with('/'))
                .ok_or_else(|| {
                    Outcome::Skip(format!(
                        "{url} is not on the server under test ({origin}): not fetched"
                    ))
                })?;
            self.exchange(label, self.get(method, target))
        };
        let document = |i: usize| -> Result<Value, Outcome> {
            let seen = self.seen.borrow();
            let s = &seen[i];
            if s.response.status != 200 {
                return Err(s.failure(format!(
                    "{}: status {}, expected 200",
                    s.label, s.response.status
                )));
            }
            match serde_json::from_slice::<Value>(&s.response.body) {
                Ok(v) if v.is_object() => Ok(v),
                _ => Err(s.failure(format!("{}: the body is no JSON object", s.label))),
            }
        };
        let at_inserted =
            fetch(&inserted, "GET", "the path-inserted metadata URL").and_then(document);
        let at_root = fetch(&root, "GET", "the root metadata URL").and_then(document);
        let at_challenge = from_challenge
            .as_ref()
            .map(|url| fetch(url, "GET", "the challenge's resource_metadata").and_then(document));
        let docs: Vec<&Value> = [at_challenge.as_ref(), Some(&at_inserted), Some(&at_root)]
            .into_iter()
            .flatten()
            .filter_map(|d| d.as_ref().ok())
            .collect();
        results.push((
            "auth.metadata",
            if docs.is_empty() {
                let reason = [at_challenge.as_ref(), Some(&at_inserted), Some(&at_root)]
                    .into_iter()
                    .flatten()
                    .find_map(|d| d.as_ref().err().cloned());
                match reason {
                    Some(Outcome::Fail(f)) => Outcome::Fail(Failure {
                        reason: format!(
                            "no discovery mechanism gave the document ({inserted}, {root}, the challenge's resource_metadata); {}",
                            f.reason
                        ),
                        ..f
                    }),
                    Some(other) => other,
                    None => Outcome::NotRun("no metadata URL was fetched".into()),
                }
            } else {
                Outcome::Pass
            },
        ));
        let alone = |d: &Result<Value, Outcome>| match d {
            Ok(_) => Outcome::Pass,
            Err(o) => o.clone(),
        };
        results.push(("auth.metadata-path-inserted", alone(&at_inserted)));
        results.push(("auth.metadata-root", alone(&at_root)));
        let served = if at_inserted.is_ok() {
            Some(&inserted)
        } else if at_root.is_ok() {
            Some(&root)
        } else {
            None
        };
        results.push((
            "auth.metadata-head",
            match served {
                None => Outcome::Skip("no well-known URL served the document".into()),
                Some(url) => match fetch(url, "HEAD", "HEAD at the metadata URL") {
                    Ok(i) => {
                        let seen = self.seen.borrow();
                        let s = &seen[i];
                        if s.response.status == 200 && s.response.body.is_empty() {
                            Outcome::Pass
                        } else {
                            s.failure(format!(
                                "status {} with a {}-byte body: expected 200 without a body",
                                s.response.status,
                                s.response.body.len()
                            ))
                        }
                    }
                    Err(o) => o,
                },
            },
        ));
        // What the model's document says, field by field.
        let model_doc = match expect_auth(
            &self.run.config,
            self.run.listen,
            self.check.issuer.jwks(),
            now(),
            &self.get("GET", inserted.strip_prefix(&origin).unwrap_or_default()),
        ) {
            AuthExpect::Step {
                document: Some(d), ..
            } => d,
            _ => Value::Null,
        };
        let no_doc = || Outcome::Skip("no document was found (auth.metadata)".into());
        let field_check = |name: &str, holds: &dyn Fn(&Value) -> bool, what: &str| -> Outcome {
            if docs.is_empty() {
                return no_doc();
            }
            match docs.iter().find(|d| !holds(&d[name])) {
                None => Outcome::Pass,
                Some(d) => Outcome::Fail(Failure {
                    reason: format!("{name} is {}, but {what}", d[name]),
                    request: None,
                    reply: Some(cut(&d.to_string())),
                }),
            }
        };
        let resource = model_doc["resource"].clone();
        results.push((
            "auth.metadata-resource",
            field_check(
                "resource",
                &|v| *v == resource,
                &format!("it must be {resource}, the URL under test, byte for byte"),
            ),
        ));
        let issuer = model_doc["authorization_servers"][0].clone();
        results.push((
            "auth.metadata-authorization-servers",
            field_check(
                "authorization_servers",
                &|v| v.as_array().is_some_and(|a| a.contains(&issuer)),
                &format!("it must be a non-empty array naming the issuer {issuer}"),
            ),
        ));
        let methods = model_doc["bearer_methods_supported"].clone();
        results.push((
            "auth.metadata-bearer-methods",
            field_check(
                "bearer_methods_supported",
                &|v| *v == methods,
                &format!("the reference serves {methods}"),
            ),
        ));
        let offline = docs.iter().find(|d| {
            d["scopes_supported"]
                .as_array()
                .is_some_and(|a| a.iter().any(|s| s == "offline_access"))
        });
        results.push((
            "auth.no-offline-access",
            match offline {
                Some(d) => Outcome::Fail(Failure {
                    reason: "scopes_supported names offline_access".into(),
                    request: None,
                    reply: Some(cut(&d.to_string())),
                }),
                None if docs.is_empty() => no_doc(),
                None => Outcome::Pass,
            },
        ));
    }

    pub(super) fn users(
        &self,
        book_orders: bool,
        owner_result: Option<&Value>,
        results: &mut Vec<(&'static str, Outcome)>,
    ) {
        let ids = [
            "auth.user-owner",
            "auth.user-isolation",
            "auth.user-indistinguishable",
        ];
        let orders = self.run.config.orders();
        let (Some(order), true) = (orders.first(), book_orders) else {
            for id in ids {
                results.push((
                    id,
                    Outcome::Skip(
                        "the server is not book-orders (tools/list names no get_order)".into(),
                    ),
                ));
            }
            return;
        };
        let Some(other) = orders.iter().map(|o| &o.owner).find(|o| **o != order.owner) else {
            for id in ids {
                results.push((id, Outcome::Skip("the data has one owner only".into())));
            }
            return;
        };
        let owner_sees = owner_result.filter(|r| {
            r.get("result").is_some() && r.pointer("/result/isError") != Some(&Value::Bool(true))
        });
        results.push((
            "auth.user-owner",
            match (owner_result, owner_sees) {
                (_, Some(_)) => Outcome::Pass,
                (Some(r), None) => Outcome::Fail(Failure {
                    reason: format!("{}'s token did not read {}", order.owner, order.order_id),
                    request: None,
                    reply: Some(cut(&r.to_string())),
                }),
                (None, None) => Outcome::Skip(
                    "the owner's call got no JSON-RPC response (auth.valid-call)".into(),
                ),
            },
        ));
        let token = self
            .check
            .issuer
            .token_for(&self.minting, other, self.scope());
        let call = |order_id: &str| {
            self.bearer(
                &self.run.post(body(
                    4,
                    "tools/call",
                    &format!(
                        r#""name":"get_order","arguments":{{"order_id":{}}}"#,
                        Value::from(order_id)
                    ),
                )),
                Some(&token),
            )
        };
        let theirs = self.exchange("another user's token", call(&order.order_id));
        results.push((
            "auth.user-isolation",
            match (&theirs, owner_sees) {
                (Err(o), _) => o.clone(),
                (_, None) => {
                    Outcome::Skip("the owner's token did not read the order either".into())
                }
                (Ok(i), Some(seen_by_owner)) => {
                    let seen = self.seen.borrow();
                    let s = &seen[*i];
                    let got = s.response.reply();
                    if got.as_ref().and_then(|r| r.get("result")) == seen_by_owner.get("result") {
                        s.failure(format!(
                            "{other}'s token got {}'s result for {}",
                            order.owner, order.order_id
                        ))
                    } else {
                        Outcome::Pass
                    }
                }
            },
        ));
        let mut missing = String::from("Z-999");
        while orders.iter().any(|o| o.order_id == missing) {
            missing.push('9');
        }
        let absent = self.exchange("a nonexistent order", call(&missing));
        results.push((
            "auth.user-indistinguishable",
            match (&theirs, &absent) {
                (Err(o), _) | (_, Err(o)) => o.clone(),
                (Ok(a), Ok(b)) => {
                    let seen = self.seen.borrow();
                    let one = String::from_utf8_lossy(&seen[*a].response.body).replace(&order.order_id, "<id>");
                    let two = String::from_utf8_lossy(&seen[*b].response.body).replace(&missing, "<id>");
                    if one == two && seen[*a].response.status == seen[*b].response.status {
                        Outcome::Pass
                    } else {
                        Outcome::Fail(Failure {
                            reason: format!(
                                "{other} asking for {}'s order {} and for the nonexistent {missing} got different answers (ids masked)",
                                order.owner, order.order_id
                            ),
                            request: Some(cut(&one)),
                            reply: Some(cut(&two)),
                        })
                    }
                }
            },
        ));
    }
}
